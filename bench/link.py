"""LED link latency: a full LED frame's round trip (SET_STATE out, ACK back) over a pty at 115200
baud, beside the wire time of the same bytes (bytes x 10 / baud): the peer every row is compared with.

A pty moves bytes instantly, so the emulator paces them at the baud rate both ways (its simulated
cable, ``firmware_bridge/wire.py``): a byte reaches the device 10/baud s after the one before it,
and the ACK likewise. The rest of the round trip is ours: the link's threads, the pty, the device.
Rows: the Python device and the compiled C firmware behind ``python -m firmware_bridge.emulator
--pty`` (separate processes, as a real board would be), and the in-process ``ledsim://`` port.
Goal: median <= 1.2 x wire time.

Then the fault matrix of :mod:`bench.link_faults` (noise, a stopped reader, unplug; issue 18).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from rich.console import Console
from rich.table import Table

from bench import link_faults
from firmware_bridge.frames import ZONE_COUNT, Effect, LedFrame, ZoneLight
from firmware_bridge.hostbuild import CompilerMissing, build_host
from firmware_bridge.link import LedLink
from firmware_bridge.protocol import Ack, SetState, encode

BAUD = 115200
ROUNDS = 60



@contextmanager
def _stage(err: Console, text: str) -> Iterator[None]:
    """One plain status line on stderr before a stage: no spinner thread, so nothing else runs (or
    takes CPU) while the stage is timed."""
    err.print(f"[dim]{text}[/dim]")
    yield

def _frame(i: int) -> LedFrame:
    # every zone lit (no zero bytes for COBS to shorten): the longest SET_STATE on the wire
    return LedFrame(
        tuple(ZoneLight((1 + (i + z) % 250, 2 + z, 3), Effect((i + z) % 3)) for z in range(ZONE_COUNT)),
        brightness=1 + i % 250,
    )


def wire_seconds() -> tuple[int, float]:
    """Bytes of one full SET_STATE plus its ACK, and their time on the wire at BAUD."""
    n = len(encode(SetState(_frame(0)), 0x1234)) + len(encode(Ack(0x1234), 0x0101))
    return n, n * 10 / BAUD


def measure(port: str) -> list[float]:
    """Round-trip times (s) of ROUNDS full frames through LedLink.show (no rate limit)."""
    times = []
    with LedLink.open(port, baudrate=BAUD, max_rate=0, hello_timeout=5.0) as link:
        link.show(_frame(0))
        for i in range(1, ROUNDS + 1):
            time.sleep(0.005)  # let heartbeats and the previous ACK settle
            start = time.perf_counter()
            if not link.show(_frame(i), timeout=1.0):
                raise RuntimeError(f"frame {i} was not acknowledged on {port}")
            times.append(time.perf_counter() - start)
    return times


def measure_pty(extra: list[str]) -> list[float]:
    """Start the pty emulator process (``extra`` picks the device) and measure through it."""
    with tempfile.TemporaryDirectory() as tmp:
        link_path = str(Path(tmp) / "tty-led")
        proc = subprocess.Popen(
            [sys.executable, "-m", "firmware_bridge.emulator", "--pty", "--baud", str(BAUD)]
            + ["--link", link_path, *extra],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert proc.stdout is not None
            proc.stdout.readline()
            return measure(link_path)
        finally:
            assert proc.stdin is not None
            proc.stdin.write("quit\n")
            proc.stdin.flush()
            proc.wait(10)


def main() -> None:
    """Print the latency table."""
    console = Console()
    nbytes, wire = wire_seconds()
    rows: list[tuple[str, list[float] | str]] = []
    err = Console(stderr=True)  # one status line per row, on stderr, set before each measurement
    with _stage(err, f"link: Python device over a pty, {ROUNDS} frames"):
        rows.append(("Python device, pty, separate process", measure_pty([])))
    try:
        with tempfile.TemporaryDirectory() as tmp:
            with _stage(err, "link: building the C firmware core"):
                binary = build_host(tmp)
            with _stage(err, f"link: C firmware core over a pty, {ROUNDS} frames"):
                rows.append(("C firmware core, pty, separate process",
                             measure_pty(["--firmware", str(binary)])))
    except CompilerMissing as exc:
        rows.append(("C firmware core, pty, separate process", f"skipped: {exc}"))
    with _stage(err, f"link: ledsim:// in-process, {ROUNDS} frames"):
        rows.append(("Python device, ledsim:// in-process", measure(f"ledsim://?leds={ZONE_COUNT + 1}")))

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    table = Table(
        title=f"LED frame round trip at {BAUD} baud ({ROUNDS} frames each)",
        caption=f"load average {load:.1f} on {os.cpu_count()} CPUs: other processes stretch the Python rows",
    )
    for col in ("path", "bytes", "wire time ms (peer)", "min ms", "median ms", "p95 ms", "median / wire"):
        table.add_column(col, justify="right" if col != "path" else "left")
    for name, times in rows:
        if isinstance(times, str):
            table.add_row(name, str(nbytes), f"{wire * 1000:.2f}", "-", "-", "-", times)
            continue
        med = statistics.median(times)
        p95 = sorted(times)[int(0.95 * (len(times) - 1))]
        verdict = "ok" if med <= 1.2 * wire else "over 1.2"
        table.add_row(
            name,
            str(nbytes),
            f"{wire * 1000:.2f}",
            f"{min(times) * 1000:.2f}",
            f"{med * 1000:.2f}",
            f"{p95 * 1000:.2f}",
            f"{med / wire:.3f} ({verdict})",
        )
    console.print(table)
    link_faults.main()


if __name__ == "__main__":
    main()
