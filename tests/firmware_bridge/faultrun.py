"""A fault run: the host keeps changing the LED state while the cable flips bits and drops bytes,
the device resets and is unplugged; then the faults end and we time how long until the device shows
exactly the host's newest state. Shared by the emulator and the compiled-firmware tests."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from firmware_bridge.frames import GREEN, ZONE_COUNT, LedFrame
from firmware_bridge.link import LedLink


def frame_for(gen: int) -> LedFrame:
    """A frame that names its generation: zone 0's red/green hold ``gen``."""
    lit = {0: ((gen >> 8) & 0xFF, gen & 0xFF, 7), 1 + gen % (ZONE_COUNT - 1): GREEN}
    return LedFrame.lit(lit, brightness=1 + gen % 200)


def gen_of(frame: LedFrame | None) -> int:
    """Inverse of :func:`frame_for` (-1 for None)."""
    if frame is None:
        return -1
    r, g, _ = frame.zones[0].colour
    return (r << 8) | g


@dataclass
class Target:
    """How to hurt one device, and how to ask what it shows."""

    set_faults: Callable[[float, float], None]
    reset: Callable[[], None]
    unplug: Callable[[], None]
    replug: Callable[[], None]
    shown: Callable[[LedLink], LedFrame | None]


@dataclass
class FaultReport:
    """What a fault run measured."""

    recoveries: list[tuple[str, float]] = field(default_factory=list)  # fault, s until in sync
    shows: int = 0
    acked_gens: list[int] = field(default_factory=list)
    events: list[object] = field(default_factory=list)


class _Shower:
    """Shows a new frame every ``period`` s (without waiting) in its own thread."""

    def __init__(self, link: LedLink, first_gen: int = 0, period: float = 0.02) -> None:
        self.link, self.period = link, period
        self.gen = first_gen
        self._stop = threading.Event()
        self.acked: list[int] = []
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> _Shower:
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.is_set():
            self.gen += 1
            self.link.show(frame_for(self.gen), wait=False)
            state = self.link.state
            if state is not None:
                self.acked.append(gen_of(state))
            self._stop.wait(self.period)

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(5)


def await_sync(link: LedLink, target: Target, limit: float = 3.0) -> float:
    """s until the device shows ``link.desired`` (polled every 10 ms); ``limit`` if never."""
    start = time.monotonic()
    while time.monotonic() - start < limit:
        try:
            if link.online and target.shown(link) == link.desired:
                return time.monotonic() - start
        except Exception:  # noqa: BLE001 - a read-back may fail while the link resyncs
            pass
        time.sleep(0.01)
    return limit


def fault_run(link: LedLink, target: Target, noise_s: float, rounds: int = 1) -> FaultReport:
    """Each round: noise (1 % flips, 0.1 % drops) with a reset half way, then an unplug of 1 s;
    after each fault ends, time the return to sync. The state keeps changing during every fault."""
    report = FaultReport()
    for _ in range(rounds):
        with _Shower(link, report.shows) as shower:
            target.set_faults(0.01, 0.001)
            time.sleep(noise_s / 2)
            target.reset()
            time.sleep(noise_s / 2)
        target.set_faults(0.0, 0.0)
        report.recoveries.append(("1% flips, 0.1% drops, reset", await_sync(link, target)))
        report.acked_gens += shower.acked
        report.shows = shower.gen
        with _Shower(link, report.shows) as shower:
            target.unplug()
            time.sleep(1.0)
        target.replug()
        report.recoveries.append(("unplug 1 s, replug", await_sync(link, target)))
        report.acked_gens += shower.acked
        report.shows = shower.gen
    return report
