"""What ``game.step`` asks the station to do: show the board, light LEDs, announce a ruling or a prompt,
record a finished game. Pure data (DESIGN.md "Data flow": effects are run by the station, after the
event that caused them was journaled)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from controller.game.rulings import Ruling
from firmware_bridge.frames import LedFrame


@dataclass(frozen=True)
class Show:
    """The board for the console: ``slots`` 24 ``(colour, count)``; ``dice`` the values read;
    ``on_roll`` the player (0 light, 1 dark) to play or None; ``legal`` how many distinct legal plays
    the dice allow (None when there is nothing to count); ``movable`` the mover's points (25 = bar)
    holding a checker that can move; ``notes`` plain-words remarks (a partial position, ...);
    ``seating`` the game's :class:`~controller.geometry.Seating` (variant and home corner), which numbers
    the points on every board drawn, or None while it is not known."""

    title: str
    slots: tuple[tuple[str | None, int], ...]
    bar: tuple[int, int] = (0, 0)
    off: tuple[int, int] = (0, 0)
    dice: tuple[int, ...] = ()
    on_roll: int | None = None
    legal: int | None = None
    movable: tuple[int, ...] = ()
    movable_slots: tuple[int, ...] = ()
    pips: tuple[int, int] | None = None
    position_id: str | None = None
    light_home: str | None = None
    notes: tuple[str, ...] = ()
    hint: Hint | None = None
    seating: Any = None


@dataclass(frozen=True)
class Hint:
    """Ask the engine (gnubg, when installed) for the best of ``plays`` -- the legal plays of ``dice``
    from ``position`` for ``player`` -- and print it; with ``leds`` also light it (sources green,
    destinations blue), or the movable points when there is no engine. Run by the station, not by
    ``game.step``: the engine is a separate process, and the step stays pure (issue 6 item 5)."""

    position: Any
    dice: tuple[int, int]
    plays: tuple[Any, ...]
    player: int
    seating: Any
    plies: int = 0
    noise: float = 0.0
    leds: bool = False


@dataclass(frozen=True)
class Leds:
    """Send this frame to the LED device and wait for its acknowledgement; ``why`` says what it shows."""

    frame: LedFrame
    why: str


@dataclass(frozen=True)
class Announce:
    """A ruling the referee took (print it; it is also what `tavla replay` lists)."""

    ruling: Ruling


@dataclass(frozen=True)
class Prompt:
    """Something the players must do (``text``, one line)."""

    text: str


@dataclass(frozen=True)
class GameEnded:
    """A game is over: ``winner`` 0/1 (None for a nardy draw, RULES.md N9), ``points`` won, ``kind``
    single/gammon/backgammon/drop/time (or oin/mars/koks/draw), ``score`` the match score after it,
    ``match_over``."""

    winner: int | None
    points: int
    kind: str
    score: tuple[int, int]
    match_over: bool
    game_number: int


Effect = Show | Leds | Announce | Prompt | GameEnded | Hint
