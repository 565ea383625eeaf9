"""Compile the firmware's portable C core with its host layer (``firmware/host/main_host.c``) for
this machine, so tests and the bench drive the real firmware code over a pty.

gcc is required (``-std=c99 -Wall -Wextra -Wpedantic -Werror``: the core must build warning-free);
``sanitize=True`` adds AddressSanitizer and UBSan.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

FIRMWARE_DIR = Path(__file__).resolve().parent / "firmware"
SOURCES = (*sorted((FIRMWARE_DIR / "core").glob("*.c")), FIRMWARE_DIR / "host" / "main_host.c")
WARNINGS = ("-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror")
SANITIZE = (
    "-g",
    "-O1",
    "-fsanitize=address,undefined",
    "-fno-omit-frame-pointer",
    "-fno-sanitize-recover=all",
)


class CompilerMissing(FileNotFoundError):
    """No C compiler on this machine."""


def compiler() -> str:
    """Path of gcc (or ``cc``). :raises CompilerMissing: when neither is installed."""
    for name in ("gcc", "cc"):
        path = shutil.which(name)
        if path:
            return path
    raise CompilerMissing("no gcc/cc on PATH: install gcc to build the firmware for the host")


def build_host(out_dir: str | Path, *, sanitize: bool = False) -> Path:
    """Compile ``tavla_host`` (or ``tavla_host_asan``) into ``out_dir``; returns the binary.

    :raises CompilerMissing: without gcc.
    :raises subprocess.CalledProcessError: when the core does not compile warning-free (the
        compiler's messages are in ``stderr``).
    """
    out = Path(out_dir) / ("tavla_host_asan" if sanitize else "tavla_host")
    flags = (*WARNINGS, *(SANITIZE if sanitize else ("-O2",)))
    subprocess.run(
        [compiler(), *flags, *map(str, SOURCES), "-o", str(out)], check=True, capture_output=True, text=True
    )
    return out
