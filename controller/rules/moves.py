"""Dice, checker moves, plays, and the legal-play generator of standard backgammon.

Numbering is the mover's own (RULES.md "Numbering"): points 1-24, ``25`` = the bar (as a
source), ``0`` = off (as a destination) -- exactly the pairs ``gnubg_nn.moves`` prints.

The generator (:func:`legal_plays`) walks single-die steps depth first and keeps one play per
distinct resulting position, as gnubg counts plays. It visits steps in gnubg's own order (first
die first, then the dice swapped; sources from the highest point down; each later step starts no
higher than the one before) and keeps the first play found for each result, so the steps it returns for a
result are the ones gnubg lists, and :func:`controller.formats.notation.format_play` writes the same
text as gnubg. The rules:

* RULES.md B4 -- each die a separate step; a checker passing through a point touches down there, so
  a combined move needs every intermediate point open; doubles play four times.
* RULES.md B5 -- as many dice as possible; with one die only, the larger if either can play
  (a play is ranked by steps, then by pips of the dice used, as gnubg's ``SaveMoves`` does).
* RULES.md B6 -- stopping (or touching down) on a blot hits it.
* RULES.md B7 -- bar checkers enter first; while any remain on the bar nothing else moves.
* RULES.md B8 -- bear off only with all 15 home; a die may bear off from a lower point only when no
  checker stands higher.

:func:`apply_move` and :func:`undo_move` are the unchecked fast path (STYLE.md principle 4): they do
not test legality; :func:`legal_plays` is the checked boundary.
"""

from __future__ import annotations

from typing import NamedTuple

from controller.rules.errors import DiceError
from controller.rules.movegen import generate
from controller.rules.position import BAR, Position
from controller.rules.steps import BAR_POINT, OFF_POINT, Move, Play

__all__ = [
    "ALL_ROLLS",
    "BAR_POINT",
    "OFF_POINT",
    "Dice",
    "Move",
    "Play",
    "apply_move",
    "apply_play",
    "check_dice",
    "find_play",
    "legal_plays",
    "legal_results",
    "undo_move",
]


class Dice(NamedTuple):
    """A roll of two dice, each 1-6 (RULES.md B1). ``Dice(3, 1)``; use :func:`check_dice` to validate."""

    d1: int
    d2: int

    @property
    def is_double(self) -> bool:
        """True when both dice show the same number (played four times, RULES.md B4)."""
        return self.d1 == self.d2

    def steps(self) -> tuple[int, ...]:
        """The numbers to play: ``(d1, d2)``, or the double's number four times."""
        return (self.d1,) * 4 if self.d1 == self.d2 else (self.d1, self.d2)


#: The 21 distinct rolls, each with the larger die first.
ALL_ROLLS: tuple[Dice, ...] = tuple(Dice(a, b) for a in range(1, 7) for b in range(1, a + 1))


def check_dice(d1: object, d2: object) -> Dice:
    """Validate two die values.

    :returns: ``Dice(d1, d2)``.
    :raises DiceError: (a ``ValueError``) when either is not an int from 1 to 6.
    """
    for d in (d1, d2):
        if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6:
            raise DiceError(f"die {d!r} is not a number from 1 to 6 (dice {d1!r} {d2!r})")
    assert isinstance(d1, int) and isinstance(d2, int)
    return Dice(d1, d2)


def apply_move(position: Position, move: Move) -> Position:
    """The position after one checker move by the player on roll. Unchecked (STYLE.md principle 4).

    A checker landing on a single opposing checker hits it to the opponent's bar, whatever
    ``move.hit`` says. :raises ValueError: when ``src`` holds no checker of the mover.
    """
    me = list(position.me)
    opp = list(position.opp)
    s = BAR if move.src == BAR_POINT else move.src - 1
    if me[s] <= 0:
        raise ValueError(f"no checker of the player on roll on point {move.src} in {position!r}")
    me[s] -= 1
    if move.dst != OFF_POINT:
        d = move.dst - 1
        if opp[23 - d] == 1:
            opp[23 - d] = 0
            opp[BAR] += 1
        me[d] += 1
    return Position(tuple(me), tuple(opp))


def undo_move(position: Position, move: Move) -> Position:
    """Take back :func:`apply_move` of ``move`` (its ``hit`` flag restores the hit blot). Unchecked.

    :raises ValueError: when ``dst`` holds no checker of the mover (or the bar none of the opponent's
        for a hit).
    """
    me = list(position.me)
    opp = list(position.opp)
    if move.dst != OFF_POINT:
        d = move.dst - 1
        if me[d] <= 0:
            raise ValueError(f"no checker of the player on roll on point {move.dst} in {position!r}")
        me[d] -= 1
        if move.hit:
            if opp[BAR] <= 0:
                raise ValueError(f"undoing hit {move!r}: the opponent's bar is empty in {position!r}")
            opp[BAR] -= 1
            opp[23 - d] += 1
    me[BAR if move.src == BAR_POINT else move.src - 1] += 1
    return Position(tuple(me), tuple(opp))


def apply_play(position: Position, moves: tuple[Move, ...] | list[Move]) -> Position:
    """:func:`apply_move` of each move in order. Unchecked; see :func:`find_play` for the checked way."""
    for move in moves:
        position = apply_move(position, move)
    return position


def legal_plays(position: Position, d1: int, d2: int) -> list[Play]:
    """Every legal play of roll ``d1``-``d2``, one per distinct resulting position (gnubg's count).

    Implements RULES.md B4-B8 (see the module docstring). When the roll cannot be played at all
    (RULES.md B5, B7: the turn is lost) the list is empty. Each play's steps are the ones gnubg
    lists for that result. Order: close to gnubg's (depth first, first die first) but not
    guaranteed; sort by ``play.result`` (or its Position ID) for a canonical order.

    :param position: 25 counts a side. ``position.status()`` should be VALID; other impossible
        positions (16 checkers, both colours on a point) give unspecified plays but no crash.
    :raises DiceError: when a die is not an int from 1 to 6.
    :raises ValueError: when a side has not 25 entries or a count is negative (not a board).
    """
    if d1.__class__ is not int or d2.__class__ is not int or not (0 < d1 < 7 and 0 < d2 < 7):
        check_dice(d1, d2)  # raises, or accepts an int subclass (not bool) such as an IntEnum
    return generate(position.me, position.opp, d1, d2)


def legal_results(position: Position, d1: int, d2: int) -> set[Position]:
    """The set of positions the legal plays of ``d1``-``d2`` lead to (mover still ``me``)."""
    return {play.result for play in legal_plays(position, d1, d2)}


def find_play(position: Position, d1: int, d2: int, result: Position) -> Play | None:
    """The legal play of ``d1``-``d2`` that leads to ``result`` (mover's frame), or None if none does.

    :raises DiceError: on a bad die.
    """
    for play in legal_plays(position, d1, d2):
        if play.result == result:
            return play
    return None
