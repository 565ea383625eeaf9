"""The firmware builds warning-free: the portable core with its host layer (gcc, -Werror), and the
RP2040 board layer type-checked with g++ against declaration stubs of the Arduino-Pico core."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from firmware_bridge.hostbuild import FIRMWARE_DIR

STUBS = Path(__file__).resolve().parent / "board_stubs"


def test_host_build_is_warning_free(host_binary: Path) -> None:
    assert host_binary.exists()  # the fixture fails the test with gcc's messages otherwise


def test_host_binary_says_hello_on_start(host_binary: Path) -> None:
    from firmware_bridge.protocol import Hello, StreamDecoder

    proc = subprocess.run([str(host_binary), "--leds", "60"], input=b"", capture_output=True, timeout=10)
    frames = StreamDecoder().feed(proc.stdout)
    assert proc.returncode == 0
    assert isinstance(frames[0].message, Hello) and frames[0].message.led_count == 60


def test_rp2040_board_layer_type_checks(tmp_path: Path) -> None:
    gxx = shutil.which("g++")
    if gxx is None:
        pytest.skip("no g++ on PATH: the board-layer check needs it")
    (tmp_path / "src").mkdir()
    for f in (FIRMWARE_DIR / "core").iterdir():
        shutil.copy(f, tmp_path / "src" / f.name)
    sketch = tmp_path / "sketch.cpp"
    sketch.write_text((FIRMWARE_DIR / "rp2040" / "tavla_rp2040.ino").read_text())
    result = subprocess.run(
        [gxx, "-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", f"-I{STUBS}", str(sketch)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
