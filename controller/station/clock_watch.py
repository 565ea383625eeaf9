"""The station's time between events, and the flag fall while nobody moves (issue 15 item 3).

Events carry the station time ``t`` (seconds). Buttons, the terminal's hint key and the LED link's
notices happen between the camera's events, so they are stamped with :class:`StationTime`: the last
event's ``t`` plus the seconds since the station applied it -- one time line for every source, a
resumed session included (it goes on from the journal's last ``t``).

A player thinking with the clock running sends no event, yet his flag must fall when his reserve is
spent, as the clock presets say (controller.game.clock: USBGF, UK, simple). The :class:`FlagWatch`
thread submits one :class:`~controller.game.events.Tick` at the moment the running
player's delay and reserve are used up; ``game.step`` then rules the flag. One Tick a flag, not one a
second, so the journal stays the players' actions.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import Any

from controller.game.clock import Clock
from controller.game.events import Tick


def flag_due(clock: Clock) -> float | None:
    """The station time at which the running player's flag falls (his delay and reserve spent), or
    None when no clock runs (stopped, paused, or a flag already down)."""
    if clock.running is None or clock.paused or clock.since is None or clock.flag is not None:
        return None
    return clock.since + clock.delay + clock.reserve[clock.running] - clock.used


class StationTime:
    """The station time now (see the module docstring); call it from any thread.

    :param station: a :class:`controller.station.Station`; its ``last_t`` and its listeners are used.
    :param now: the monotonic clock (tests pass a fake one).
    """

    def __init__(self, station: Any, now: Callable[[], float] = time.monotonic) -> None:
        self._now = now
        self._mark = (float(station.last_t), now())  # (event t, monotonic then): one assignment
        station.listeners.append(self._seen)

    def _seen(self, station: Any) -> None:
        self._mark = (float(station.last_t), self._now())

    def __call__(self) -> float:
        t, at = self._mark
        return round(t + max(0.0, self._now() - at), 3)


class FlagWatch:
    """Submits a Tick when the running clock's flag is due (:func:`flag_due`), once per turn.

    :param station: the station (its ``state`` is read, ``submit`` called; any thread).
    :param now: the station time (:class:`StationTime`).
    :param every: seconds between looks.
    """

    def __init__(self, station: Any, now: Callable[[], float], every: float = 0.2) -> None:
        self.station = station
        self.now = now
        self.every = every
        self._sent: tuple[Any, ...] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def check(self) -> bool:
        """One look: True when a Tick was submitted."""
        state = self.station.state
        clock = state.clock
        if state.settings.clock is None or clock is None or self.station.closed:
            return False
        due = flag_due(clock)
        turn = (clock.running, clock.since, clock.reserve, clock.used)
        if due is None or turn == self._sent:
            return False
        t = self.now()
        if t < due:
            return False
        self._sent = turn
        # at or after the due time, so the step's check_flag finds the reserve spent
        self.station.submit(Tick(t=math.ceil(max(t, due) * 1000) / 1000))
        return True

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="tavla-flag", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            try:
                self.check()
            except Exception:  # the station stopped meanwhile: nothing left to time
                return

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2.0)
            self._thread = None
