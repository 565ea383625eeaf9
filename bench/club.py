"""The club over a real Mosquitto (issue 17): how long from a station's journal entry to the
director's view, p50 and p95, with 32 and with 128 stations each playing the first 30 events of a
scripted game at one event a second (a board's camera settles about once a second; an entry's state
follows it), and the broker's CPU time per 1,000 entries.

Stations, director and broker share this machine: the stations and the director are threads of this
one process (so the figures include Python's own contention), the broker is its own process (its
CPU time is read from /proc). The peer of the latency is the pace itself: an event a second. Each
event costs the station about 3 ms of CPU here (journal, referee, snapshot), so a faster pace measures
this machine's two cores, not the club.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import threading
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from tests.controller.club.broker import MISSING, start_broker
from tests.controller.club.sim import SimStation, caught_up, director, game, wait_until

PACE = 1.0
EVENTS = 30
SIZES = (32, 128)


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(n: int, folder: Path) -> dict[str, float]:
    broker = start_broker(folder / "broker", boards=n)
    if broker is None:
        raise SystemExit(MISSING)
    sent: dict[tuple[str, int], float] = {}
    got: dict[tuple[str, int], float] = {}
    lock = threading.Lock()
    d = director(broker.director_url())
    receive = d.view.receive

    def timed_receive(topic: str, payload: bytes) -> str | None:
        now = time.monotonic()
        parts = topic.split("/")
        if parts[-1] == "events":
            import json

            seq = json.loads(payload)["seq"]
            with lock:
                got.setdefault((parts[2], seq), now)
        return receive(topic, payload)

    d.view.receive = timed_receive  # type: ignore[method-assign]
    wait_until(d.connected.is_set, 10, "the director connects")
    stations = [SimStation(str(b), folder, broker.station_url(str(b)), game(str(b))[:EVENTS], PACE)
                for b in range(1, n + 1)]
    for s in stations:
        entry = s.link.entry

        def stamped(e: dict, board: str = s.board, entry=entry) -> None:
            with lock:
                sent[(board, e["seq"])] = time.monotonic()
            entry(e)

        s.journal.on_entry = stamped
    wait_until(lambda: all(s.link.connected for s in stations), 30, "every station connects")
    assert broker.process is not None
    cpu0 = _cpu_seconds(broker.process.pid)
    for s in stations:
        s.play()
    for s in stations:
        s.finish()
    wait_until(lambda: caught_up(d, stations), 120, "the director holds every journal")
    cpu = _cpu_seconds(broker.process.pid) - cpu0
    lat = sorted(got[k] - sent[k] for k in sent if k in got)
    events = len(sent)
    for s in stations:
        s.close()
    d.close()
    broker.kill()
    return {
        "events": events,
        "p50": statistics.median(lat) * 1000,
        "p95": lat[int(0.95 * (len(lat) - 1))] * 1000,
        "cpu": cpu / events * 1000,
    }


def main() -> None:
    table = Table(title="club: station journal entry -> director's view, real Mosquitto")
    for col in ("stations", "entries", "p50 ms", "p95 ms", "pace ms (peer)", "broker CPU s / 1,000 entries"):
        table.add_column(col, justify="right")
    for n in SIZES:
        with tempfile.TemporaryDirectory() as tmp:
            r = run(n, Path(tmp))
        table.add_row(str(n), str(int(r["events"])), f"{r['p50']:.1f}", f"{r['p95']:.1f}",
                      f"{PACE * 1000:.0f}", f"{r['cpu']:.3f}")
    Console().print(table)


if __name__ == "__main__":
    main()
