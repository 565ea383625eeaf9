"""The station's page (issue 16): from an event to the page drawing it in a real headless Chromium,
and whether 20 open pages slow the station's loop.

Rows: event-to-page latency (``station.submit`` to the page's render, both on this machine's wall
clock) with 1 page and with 20 pages streaming; the station's loop per event (``Station.handle`` of a
scripted game, its listener publishing the state) served with no page open, beside the same with 20
pages streaming (read by another process, as browsers are). Goals: p95 <= 100 ms; 20 pages add at
most 1 ms to an event (a station sees a few events a second; its own work per event is milliseconds
of vision and gnubg, which this scripted game leaves out).
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from controller.game.rulings import Settings
from controller.station import Station
from controller.station.demo import scripted_events
from controller.station.web import attach

EVENTS = 120
PAGES = 20
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage",
)


def _events() -> list[Any]:
    evs: list[Any] = []
    while len(evs) < EVENTS:  # games again and again: a new MatchStarted resets the station
        evs += scripted_events(turns=None, settings=Settings(match_length=0))
    return evs[:EVENTS]


def _browser() -> Any:
    from selenium import webdriver

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in (*FLAGS, f"--user-data-dir={tempfile.mkdtemp(prefix='tavla-bench-')}"):
        options.add_argument(flag)
    service = webdriver.ChromeService(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    return webdriver.Chrome(options=options, service=service)


_READER = """
import sys, threading, urllib.request
def read(r):
    while r.read1(65536):
        pass
rs = [urllib.request.urlopen(sys.argv[1] + "api/events", timeout=60) for _ in range(int(sys.argv[2]))]
for r in rs:
    threading.Thread(target=read, args=(r,), daemon=True).start()
print("open", flush=True)
sys.stdin.read()
"""


class _Streams:
    """``n`` pages' worth of live streams (GET /api/events), read by another process as browsers
    would be (readers in this process would measure this process's own lock, not the station)."""

    def __init__(self, url: str, n: int) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _READER, url, str(n)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        self.proc.stdout.readline()  # all n streams are open

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


def _latency(driver: Any, station: Station, events: list[Any]) -> list[float]:
    """ms from submit to the page's render, per event."""
    sent: dict[int, float] = {}
    for ev in events:
        seq = station.seq + 1
        sent[seq] = time.time() * 1000
        station.submit(ev)
        end = time.monotonic() + 5
        while station.seq < seq and time.monotonic() < end:
            time.sleep(0.001)
        time.sleep(0.02)  # a person's pace, not a flood: each state is drawn, none skipped
    time.sleep(0.5)
    drawn = driver.execute_script("return window.tavlaDrawn || {}")
    return [float(drawn[str(s)]) - t for s, t in sent.items() if str(s) in drawn]


def _loop_ms(station: Station, events: list[Any]) -> list[float]:
    out = []
    for ev in events:
        t = time.perf_counter()
        station.handle(ev)
        out.append((time.perf_counter() - t) * 1000)
    return out


def _p95(xs: list[float]) -> float:
    return sorted(xs)[int(0.95 * (len(xs) - 1))] if xs else float("nan")


def main() -> None:
    console = Console()
    if not (shutil.which("chromedriver") or Path("/usr/bin/chromedriver").exists()):
        console.print("bench web: no chromium-driver (apt-get install chromium chromium-driver)")
        return
    events = _events()
    table = Table(title=f"station page: {len(events)} events of scripted games")
    for col in ("row", "pages", "median ms", "p95 ms", "max ms", "goal"):
        table.add_column(col)

    driver = _browser()
    try:
        station = Station()
        station.start()
        server = attach(station, "127.0.0.1:0")
        driver.get(server.url)
        time.sleep(1.0)
        one = _latency(driver, station, events)
        streams = _Streams(server.url, PAGES - 1)
        many = _latency(driver, station, events)
        streams.close()
        server.stop()
        station.stop()
    finally:
        driver.quit()
    for name, xs, pages in (("event -> page drawn", one, 1), ("event -> page drawn", many, PAGES)):
        table.add_row(name, str(pages), f"{statistics.median(xs):.1f}", f"{_p95(xs):.1f}", f"{max(xs):.1f}",
                      "p95 <= 100 ms")

    bare = Station()
    idle = attach(bare, "127.0.0.1:0")  # served, publishing after each event, no page open
    base = _loop_ms(bare, events)
    idle.stop()
    loaded = Station()
    server = attach(loaded, "127.0.0.1:0")
    streams = _Streams(server.url, PAGES)
    time.sleep(0.5)
    busy = _loop_ms(loaded, events)
    streams.close()
    server.stop()
    med_base, med_busy = statistics.median(base), statistics.median(busy)
    table.add_row("station loop per event, served (peer)", "0", f"{med_base:.2f}", f"{_p95(base):.2f}",
                  f"{max(base):.2f}", "")
    table.add_row("station loop per event", str(PAGES), f"{med_busy:.2f}", f"{_p95(busy):.2f}",
                  f"{max(busy):.2f}", f"+{med_busy - med_base:.2f} ms, x{med_busy / med_base:.2f} (<= +1 ms)")
    console.print(table)
