"""The game clock (issue 6 item 6): a reserve per player plus a per-move delay, pure.

A player's clock runs from the moment his turn starts until he ends it (clock button, dice picked up).
Each turn the first ``delay`` seconds are free (the "simple delay" / Bronstein-free delay of tournament
clocks); only time beyond it is taken from his reserve. When the reserve is spent, his flag falls.

Presets (:func:`preset`):

- ``usbgf``: 2 minutes per match point less 1 minute per point the player has scored, 12 s delay;
- ``uk``: 2 minutes per match point, 12 s delay;
- ``simple``: a given reserve and delay.

While the camera or the LED device is offline the clock is paused, and the silent time before the
station noticed (from ``since``, when the device last answered) is refunded, so no player loses time
to the station's own failure.

All times are seconds of the station clock (the events' ``t``); nothing here reads a clock.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from controller.rules.errors import TavlaError


class ClockError(TavlaError, ValueError):
    """An unknown preset or a negative time (names the value)."""


@dataclass(frozen=True)
class Clock:
    """``reserve`` left per player (s), ``delay`` per turn (s), ``running`` the player whose clock runs
    (None: stopped), ``since`` when the current stretch started, ``paused`` while a device is offline,
    ``flag`` the player whose time ran out (None)."""

    reserve: tuple[float, float]
    delay: float
    running: int | None = None
    since: float | None = None
    used: float = 0.0  # time already run this turn before a pause
    paused: bool = False
    flag: int | None = None

    def remaining(self, player: int, t: float) -> float:
        """Reserve left for ``player`` at time ``t`` (s, never below 0)."""
        reserve = self.reserve[player]
        if self.running == player and not self.paused and self.since is not None:
            spent = self.used + max(0.0, t - self.since)
            reserve -= max(0.0, spent - self.delay)
        elif self.running == player:
            reserve -= max(0.0, self.used - self.delay)
        return max(0.0, reserve)

    def used_at(self, t: float) -> float:
        """Time the running player has used this turn at ``t`` (s; 0 while no one runs)."""
        if self.running is None:
            return 0.0
        return self.used + (max(0.0, t - self.since) if self.since is not None and not self.paused else 0.0)

    def delay_left(self, t: float) -> float:
        """What is left at ``t`` of the running player's delay this turn (s): the reserve runs only
        once it is 0. The whole delay while no one runs."""
        return max(0.0, self.delay - self.used_at(t))


def preset(
    name: str,
    match_length: int = 0,
    score: tuple[int, int] = (0, 0),
    reserve: float = 600.0,
    delay: float = 12.0,
) -> Clock:
    """A clock from a preset (see the module docstring); money play counts as a 1-point match.

    :raises ClockError: on an unknown preset or a negative time.
    """
    n = max(1, match_length)
    if name == "usbgf":
        return Clock((max(60.0, 60.0 * (2 * n - score[0])), max(60.0, 60.0 * (2 * n - score[1]))), 12.0)
    if name == "uk":
        return Clock((120.0 * n, 120.0 * n), 12.0)
    if name == "simple":
        if reserve < 0 or delay < 0:
            raise ClockError(f"reserve {reserve} s and delay {delay} s must not be negative")
        return Clock((reserve, reserve), delay)
    raise ClockError(f"unknown clock preset {name!r}; use usbgf, uk or simple")


def start(clock: Clock, player: int, t: float) -> Clock:
    """``player``'s turn starts: his clock runs (the other's stops, its turn settled)."""
    clock = stop(clock, t)
    return replace(clock, running=player, since=None if clock.paused else t, used=0.0)


def stop(clock: Clock, t: float) -> Clock:
    """The running player ends his turn: charge what he used beyond the delay to his reserve."""
    if clock.running is None:
        return clock
    p = clock.running
    reserve = list(clock.reserve)
    reserve[p] = clock.remaining(p, t)
    return replace(clock, reserve=(reserve[0], reserve[1]), running=None, since=None, used=0.0)


def pause(clock: Clock, t: float, since: float | None = None) -> Clock:
    """A device went offline at ``since`` (default ``t``): stop counting from then (the silent time
    between ``since`` and ``t`` is refunded)."""
    if clock.paused:
        return clock
    if clock.running is None or clock.since is None:
        return replace(clock, paused=True)
    stopped_at = min(t, since) if since is not None else t
    used = clock.used + max(0.0, stopped_at - clock.since)
    return replace(clock, paused=True, since=None, used=used)


def resume(clock: Clock, t: float) -> Clock:
    """The devices are back: the clock runs again from ``t``."""
    if not clock.paused:
        return clock
    return replace(clock, paused=False, since=t if clock.running is not None else None)


def check_flag(clock: Clock, t: float) -> Clock:
    """Set ``flag`` when the running player's reserve is spent at ``t``."""
    if clock.running is not None and clock.flag is None and clock.remaining(clock.running, t) <= 0.0:
        return replace(clock, flag=clock.running)
    return clock
