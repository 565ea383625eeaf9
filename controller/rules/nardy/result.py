"""How a long nardy game starts and ends: first move, colours, end of turn and the score.

* RULES.md N3 -- the one-die roll for the first move and white (:func:`opening_winner`,
  :func:`opening_dice`), and who has white in the next game of a series (:func:`next_white`).
* RULES.md N9 -- the score when a player has borne off all 15 (:func:`score`): oin 1, mars 2, and
  with the koks setting 3; with the draw setting, black's last roll (:func:`end_of_turn`).

Everything here is pure; players are named by whatever the caller uses (``"a"``/``"b"``, names).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Literal, TypeVar

from controller.rules.nardy.position import NardyPosition
from controller.rules.nardy.settings import Colours, FirstMove, NardySettings
from controller.rules.variant import TurnEnd

__all__ = [
    "POINTS", "NardyResult", "ResultKind", "TurnEnd", "end_of_turn", "next_white", "opening_dice",
    "opening_winner", "score",
]

_DEFAULT_SETTINGS = NardySettings()
_P = TypeVar("_P")


class ResultKind(enum.StrEnum):
    """How a nardy game ended (RULES.md N9)."""

    #: The loser bore off at least one checker: 1 point (SV 4.1, CS 4.1).
    OIN = "oin"
    #: The loser bore off none: 2 points (SV 4.2, CS 4.2).
    MARS = "mars"
    #: Koks setting ("house mars"): the loser bore off none and has not one checker in his home:
    #: 3 points (SV; the reading of the garbled seed sentence is documented on :func:`score`).
    KOKS = "koks"
    #: Draw setting: black bore off his last checker with his last roll (SV 4.3*, CS 4.3*).
    DRAW = "draw"


#: Points the winner scores for each kind (a draw scores ½-½ or 1-1 by tournament rule: 0 here).
POINTS: dict[ResultKind, int] = {
    ResultKind.OIN: 1, ResultKind.MARS: 2, ResultKind.KOKS: 3, ResultKind.DRAW: 0,
}


@dataclass(frozen=True, slots=True)
class NardyResult:
    """The end of a game, in the frame of the position it was scored on.

    :param winner: ``"me"`` or ``"opp"`` of that position; None for a draw.
    :param kind: oin, mars, koks or draw (RULES.md N9).
    :param points: what the winner scores: 1, 2 or 3; 0 for a draw (each side then gets ½ or 1 by
        the tournament's rule, SV 4.3*).
    """

    winner: Literal["me", "opp"] | None
    kind: ResultKind
    points: int


def score(position: NardyPosition, settings: NardySettings = _DEFAULT_SETTINGS) -> NardyResult | None:
    """The result when one side has borne off all 15 (RULES.md N9); None while both have checkers.

    Oin (1): the loser bore off at least one checker. Mars (2): he bore off none. With
    ``settings.koks``: koks (3) when he bore off none and has not brought even one checker into his
    home (points 1-6) -- our reading of SV's garbled "house mars" sentence ("if the opponent could not
    take any checkers off or bring them into the house"), the usual meaning of koks in long nardy.

    Never raises on a well-shaped position; both sides finished (impossible, ``BOTH_FINISHED``) is
    scored as None.
    """
    me_done, opp_done = not any(position.me), not any(position.opp)
    if me_done == opp_done:
        return None
    winner: Literal["me", "opp"] = "me" if me_done else "opp"
    loser = position.opp if me_done else position.me
    if sum(loser) < 15:
        kind = ResultKind.OIN
    elif settings.koks and not any(loser[0:6]):
        kind = ResultKind.KOKS
    else:
        kind = ResultKind.MARS
    return NardyResult(winner, kind, POINTS[kind])


def end_of_turn(
    position: NardyPosition,
    settings: NardySettings = _DEFAULT_SETTINGS,
    *,
    mover_is_white: bool,
    last_roll: bool = False,
) -> tuple[TurnEnd, NardyResult | None]:
    """After a play: does the game go on, does black get his last roll, or is it over (RULES.md N9)?

    :param position: the position after the play, still in the mover's frame (``me`` just moved).
    :param mover_is_white: True when the mover had white, i.e. made the game's first move (N3).
    :param last_roll: True when this play was black's last roll under the draw setting.
    :returns: ``(TurnEnd.CONTINUE, None)``, ``(TurnEnd.LAST_ROLL, None)`` or ``(TurnEnd.GAME_OVER,
        result)`` with the result in the mover's frame. After black's last roll the game is scored on
        the position it leaves: a draw if he bore off all, else white wins by :func:`score` (so a
        checker borne off in that roll turns mars into oin).
    """
    finished = not any(position.me)
    if last_roll:
        if finished:
            return TurnEnd.GAME_OVER, NardyResult(None, ResultKind.DRAW, 0)
        return TurnEnd.GAME_OVER, score(position, settings)
    if not finished:
        return TurnEnd.CONTINUE, None
    if settings.draw and mover_is_white and any(position.opp):
        return TurnEnd.LAST_ROLL, None
    return TurnEnd.GAME_OVER, score(position, settings)


def opening_winner(die_a: int, die_b: int) -> int | None:
    """Who wins the one-die roll for the first move and white (RULES.md N3, SV 1.3, CS 1.3).

    :returns: 0 when ``die_a`` is higher, 1 when ``die_b`` is, None on a tie (both roll again).
    """
    if die_a == die_b:
        return None
    return 0 if die_a > die_b else 1


def opening_dice(
    die_a: int, die_b: int, settings: NardySettings = _DEFAULT_SETTINGS
) -> tuple[int, int] | None:
    """The dice of white's first move, if the setting takes them from the one-die roll (RULES.md N3).

    :returns: None with :attr:`FirstMove.REROLL` (white rolls both dice afresh) or on a tie; with
        :attr:`FirstMove.OPENING_DICE` the two numbers rolled, higher first.
    """
    if die_a == die_b or settings.first_move == FirstMove.REROLL:
        return None
    return max(die_a, die_b), min(die_a, die_b)


def next_white(previous_white: _P, previous_black: _P, winner: _P | None,
               settings: NardySettings = _DEFAULT_SETTINGS) -> _P:
    """Who plays white, and so starts, the next game of a series (RULES.md N3).

    Alternate (default): the player who had black (SV 1.4, CS 1.4). Winner starts: the winner of
    the last game (SV); after a draw (``winner`` None) colours alternate.
    """
    del previous_white
    if settings.colours == Colours.WINNER_STARTS and winner is not None:
        return winner
    return previous_black
