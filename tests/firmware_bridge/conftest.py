"""Fixtures of the firmware-bridge tests: the firmware's C core compiled for this machine (skipped
with a clear message without gcc), and a driver for its ``--fuzz`` mode."""

from __future__ import annotations

import struct
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from firmware_bridge.hostbuild import CompilerMissing, build_host


def _build(tmp_path_factory: pytest.TempPathFactory, sanitize: bool) -> Path:
    try:
        return build_host(tmp_path_factory.mktemp("firmware"), sanitize=sanitize)
    except CompilerMissing as exc:
        pytest.skip(f"{exc}: the C firmware tests need gcc")
    except subprocess.CalledProcessError as exc:
        pytest.fail(f"the firmware core does not build warning-free:\n{exc.stderr}")


@pytest.fixture(scope="session")
def host_binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``tavla_host`` built with -Wall -Wextra -Wpedantic -Werror -O2."""
    return _build(tmp_path_factory, sanitize=False)


@pytest.fixture(scope="session")
def asan_binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``tavla_host_asan``: the same with AddressSanitizer and UBSan (aborts on any finding)."""
    return _build(tmp_path_factory, sanitize=True)


@dataclass(frozen=True)
class FuzzResult:
    """What a fresh C device sent and holds after being fed one input at t=0."""

    output: bytes
    has_state: bool
    has_applied: bool
    applied_seq: int
    brightness: int
    zones: tuple[tuple[int, int, int, int], ...]
    runs: tuple[tuple[int, int, int], ...]
    errors: int


class FuzzDriver:
    """Talks to ``tavla_host --fuzz``: one record in, one result out (see main_host.c)."""

    def __init__(self, binary: Path) -> None:
        self.proc = subprocess.Popen(
            [str(binary), "--fuzz"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0
        )

    def _read(self, n: int) -> bytes:
        assert self.proc.stdout is not None
        out = bytearray()
        while len(out) < n:
            chunk = self.proc.stdout.read(n - len(out))
            if not chunk:
                code = self.proc.poll()
                raise AssertionError(f"the firmware host process died (exit {code}): see its stderr")
            out += chunk
        return bytes(out)

    def run(self, data: bytes) -> FuzzResult:
        assert self.proc.stdin is not None
        self.proc.stdin.write(struct.pack("<I", len(data)) + data)
        (n,) = struct.unpack("<I", self._read(4))
        output = self._read(n)
        head = self._read(5 + 4 * 27 + 1)
        zones = tuple(tuple(head[5 + 4 * i : 9 + 4 * i]) for i in range(27))
        n_runs = head[-1]
        runs_raw = self._read(4 * n_runs)
        runs = tuple(struct.unpack_from(">BHB", runs_raw, 4 * i) for i in range(n_runs))
        (errors,) = struct.unpack(">I", self._read(4))
        return FuzzResult(
            output,
            bool(head[0]),
            bool(head[1]),
            int.from_bytes(head[2:4], "big"),
            head[4],
            zones,  # type: ignore[arg-type]
            runs,
            errors,
        )

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        code = self.proc.wait(10)
        assert code == 0, f"the firmware host exited {code} (a sanitizer finding prints above)"


@pytest.fixture(scope="module")
def c_device(host_binary: Path) -> Iterator[FuzzDriver]:
    """The compiled core in fuzz mode (optimised build)."""
    driver = FuzzDriver(host_binary)
    yield driver
    driver.close()


@pytest.fixture(scope="module")
def c_device_asan(asan_binary: Path) -> Iterator[FuzzDriver]:
    """The compiled core in fuzz mode under AddressSanitizer + UBSan."""
    driver = FuzzDriver(asan_binary)
    yield driver
    driver.close()
