"""LED hint frames (issue 6 item 5): movable points, destinations of a lifted checker, gnubg's best
play, an illegal move's points in a warning colour, the re-throw signal. Pure: gnubg itself runs in
:mod:`controller.hints.engine`.

Zones are the LED frame's (firmware_bridge.frames): 0-23 the slots, 24 the bar, 25 the off tray on
the right-hand side of the board (beside slots 0 and 23), 26 the left-hand one. The mover's points are
turned into slots with :class:`controller.geometry.Seating`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from controller.geometry import Seating, right_half
from controller.rules.variant import Backgammon, Variant
from firmware_bridge.frames import AMBER, BAR_ZONE, BLUE, GREEN, OFF_ZONES, RED, Effect, LedFrame, ZoneLight

BAR_POINT = 25
OFF_POINT = 0
_BACKGAMMON = Backgammon()


def movable_points(before: Any, plays: Sequence[Any]) -> tuple[int, ...]:
    """The mover's points (25 = bar) holding a checker that some legal play moves, sorted high to low.

    A step from a point the mover held at the start counts; a step from a point a checker only passed
    through does not (that checker is counted at its starting point).
    """
    points: set[int] = set()
    for play in plays:
        for m in play.moves:
            src = m.src if hasattr(m, "src") else m[0]
            if src == BAR_POINT or (1 <= src <= 24 and before.me[src - 1] > 0):
                points.add(src)
    return tuple(sorted(points, reverse=True))


def destinations(plays: Sequence[Any], source: int) -> tuple[int, ...]:
    """Where a checker lifted from the mover's point ``source`` may come to rest (0 = off), over all
    legal plays: each play's first checker from ``source`` followed through its later steps."""
    out: set[int] = set()
    for play in plays:
        moves = list(play.moves)
        at = None
        for m in moves:
            if at is None and m.src == source:
                at = m.dst
            elif at is not None and m.src == at and at != OFF_POINT:
                at = m.dst
        if at is not None:
            out.add(at)
    return tuple(sorted(out, reverse=True))


def _zone(seating: Seating, player: int, point: int) -> int:
    if point == BAR_POINT:
        return BAR_ZONE
    if point == OFF_POINT:
        return OFF_ZONES[0] if right_half(seating.slot(player, 1)) else OFF_ZONES[1]
    return seating.slot(player, point)


def zones_for(seating: Seating, player: int, points: Iterable[int]) -> frozenset[int]:
    """LED zones of ``player``'s points (25 = bar, 0 = his off tray)."""
    return frozenset(_zone(seating, player, p) for p in points)


def movable_frame(seating: Seating, player: int, movable: Iterable[int], brightness: int = 128) -> LedFrame:
    """The frame lighting exactly the zones of the movable points, green (issue 2 item 5)."""
    return LedFrame.lit(set(zones_for(seating, player, movable)), GREEN, brightness=brightness)


def destination_frame(seating: Seating, player: int, source: int, dests: Iterable[int]) -> LedFrame:
    """The lifted checker's point pulsing green and its destinations blue."""
    colours = {z: BLUE for z in zones_for(seating, player, dests)}
    colours[_zone(seating, player, source)] = GREEN
    return _frame(colours, {_zone(seating, player, source): Effect.PULSE})


def best_play_frame(seating: Seating, player: int, play: Any) -> LedFrame:
    """A play's sources green and destinations blue (gnubg's best play)."""
    colours: dict[int, tuple[int, int, int]] = {}
    for m in play.moves:
        colours[_zone(seating, player, m.dst)] = BLUE
    for m in play.moves:
        colours[_zone(seating, player, m.src)] = GREEN
    return _frame(colours, {})


def warning_frame(seating: Seating, player: int, points: Iterable[int]) -> LedFrame:
    """An illegal move's points blinking red (RULES.md B17)."""
    zones = zones_for(seating, player, points)
    return _frame({z: RED for z in zones}, {z: Effect.BLINK for z in zones})


def rethrow_frame() -> LedFrame:
    """The re-throw signal (RULES.md B15, N10): every point blinks amber."""
    return _frame({z: AMBER for z in range(24)}, {z: Effect.BLINK for z in range(24)})


def _frame(colours: dict[int, tuple[int, int, int]], effects: dict[int, Effect]) -> LedFrame:
    base = LedFrame.dark()
    zones = [
        ZoneLight(colours[i], effects.get(i, Effect.STEADY)) if i in colours else z
        for i, z in enumerate(base.zones)
    ]
    return LedFrame(tuple(zones), base.brightness)


def changed_points(before: Any, seen: Any, variant: Variant = _BACKGAMMON) -> tuple[int, ...]:
    """The mover's points (25 = bar) whose count differs between two positions (mover's frame); the
    variant numbers the opponent's points (RULES.md B2, N2)."""
    pts = {i + 1 for i in range(len(before.me)) if before.me[i] != seen.me[i]}
    for i in range(len(before.opp)):
        if before.opp[i] != seen.opp[i]:
            pts.add(BAR_POINT if i == 24 else variant.opponent_point(i + 1))
    return tuple(sorted(pts, reverse=True))
