"""Long nardy (long backgammon), RULES.md N1-N11: the variant's public face.

The pieces live in small modules; this one gathers them, registers :class:`LongNardy` in
:data:`controller.rules.variant.VARIANTS` under ``"nardy"``, and gives ``tavla legal --variant
nardy`` its lines (:func:`cli_lines`).

* :mod:`~controller.rules.nardy.position` -- :class:`NardyPosition` (each side's 24 points in its
  own numbering; the opponent's point q is the player's ``((q + 11) % 24) + 1``), status flags.
* :mod:`~controller.rules.nardy.settings` -- :class:`NardySettings` and the rule settings.
* :mod:`~controller.rules.nardy.moves` -- :func:`legal_plays` (N4-N8), :func:`format_play`.
* :mod:`~controller.rules.nardy.result` -- first move and colours (N3), end of turn, score (N9).
* :mod:`~controller.rules.nardy.text` -- the ``N:`` position text, parser and writer.

Example::

    >>> from controller.rules.nardy import NardyPosition, legal_plays, format_play
    >>> [format_play(p) for p in legal_plays(NardyPosition.initial(), 3, 3)]
    ['24/15 24/21']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from controller.rules import cube
from controller.rules.nardy.moves import (
    OFF_POINT,
    NardyMove,
    NardyPlay,
    check_dice,
    find_play,
    format_play,
    head_exception_stop,
    is_first_roll,
    legal_plays,
    legal_results,
)
from controller.rules.nardy.position import CHECKERS, HEAD, OPP_HEAD, NardyPosition, NardyStatus, opp_to_mine
from controller.rules.nardy.result import (
    NardyResult,
    ResultKind,
    TurnEnd,
    end_of_turn,
    next_white,
    opening_dice,
    opening_winner,
    score,
)
from controller.rules.nardy.settings import BlockRule, Colours, FirstMove, NardySettings
from controller.rules.nardy.text import NardyTextError, parse_position_text, position_text
from controller.rules.variant import Variant, Winner, register

__all__ = [
    "CHECKERS", "HEAD", "OFF_POINT", "OPP_HEAD", "BlockRule", "Colours", "FirstMove", "LongNardy",
    "NardyMove", "NardyPlay", "NardyPosition", "NardyResult", "NardySettings", "NardyStatus",
    "NardyTextError", "ResultKind", "TurnEnd", "check_dice", "cli_lines", "end_of_turn", "find_play",
    "format_play", "head_exception_stop", "is_first_roll", "legal_plays", "legal_results",
    "next_white", "opening_dice", "opening_winner", "opp_to_mine", "parse_position_text",
    "position_text", "score",
]


def cli_lines(position_text_: str, d1: int, d2: int, settings: NardySettings | None = None) -> list[str]:
    """The lines of ``tavla legal --variant nardy POSITION D1 D2``.

    One line per distinct legal play: the play in gnubg-style notation (``24/18 24/21``,
    ``6/off``), a TAB, the nardy position text of the result with the mover still on roll (the
    same frame as the input), sorted by that text. No line when nothing can be played (N7). The
    head-rule exception (N5) is applied when the mover has all 15 on his head
    (:func:`is_first_roll`).

    :raises ValueError: (one line) on malformed text (:class:`NardyTextError`), a die outside 1-6,
        or an impossible position (the status flags are named).
    """
    check_dice(d1, d2)
    position = parse_position_text(position_text_)
    flags = position.status() & ~(NardyStatus.BLOCK_ME | NardyStatus.BLOCK_OPP)
    if flags:
        names = ", ".join(f.name or str(f) for f in NardyStatus if f and f in flags)
        raise ValueError(f"{position_text_!r} is not a possible nardy position ({names}); check the counts")
    rows = sorted(
        (position_text(play.result), format_play(play))
        for play in legal_plays(position, d1, d2, settings or NardySettings())
    )
    return [f"{notation}\t{text}" for text, notation in rows]


class LongNardy(Variant):
    """Long nardy, RULES.md N1-N11, as a :class:`~controller.rules.variant.Variant`.

    Its positions are :class:`NardyPosition` (24 points a side, no bar) and its plays
    :class:`NardyPlay`, not the backgammon types the base class names: the two are read alike
    (``play.moves``, ``play.result``, ``result.me``/``opp``, ``swapped()``), which is all the referee
    uses. Hence the ``type: ignore[override]`` on the methods.

    :param settings: the rule settings (RULES.md N3, N6, N9); RULES.md's defaults when omitted.
    """

    name: ClassVar[str] = "nardy"
    title: ClassVar[str] = "long nardy"
    hitting: ClassVar[bool] = False
    has_cube: ClassVar[bool] = False
    max_result: ClassVar[int] = 2
    same_direction: ClassVar[bool] = True
    rolls_in_own_half: ClassVar[bool] = False
    opening_each_game: ClassVar[bool] = False
    opening_plays_roll: ClassVar[bool] = False
    gnubg: ClassVar[bool] = False
    dice_mixing: ClassVar[bool] = False
    rethrow_rule: ClassVar[str] = "N10"
    opening_rule: ClassVar[str] = "N3"
    dispute_rule: ClassVar[str] = "N11"
    result_rule: ClassVar[str] = "N9"

    def __init__(self, settings: NardySettings | None = None) -> None:
        self.settings = settings or NardySettings()

    def configured(self, *, block_rule: str, koks: bool, draw: bool) -> LongNardy:
        """RULES.md N6 (block rule), N9 (koks, draw); the other settings keep their defaults."""
        return LongNardy(NardySettings(block_rule=BlockRule(block_rule), koks=koks, draw=draw))

    def start_position(self) -> NardyPosition:  # type: ignore[override]
        """RULES.md N2: all 15 on each head."""
        return NardyPosition.initial()

    def position(self, me: Sequence[int], opp: Sequence[int]) -> NardyPosition:  # type: ignore[override]
        """The first 24 entries of each side: nardy has no bar (RULES.md N4)."""
        return NardyPosition(tuple(me)[:24], tuple(opp)[:24])

    def opponent_point(self, point: int) -> int:
        """RULES.md N2: both travel the same way and the heads stand at opposite corners."""
        return point if point == 25 else (point + 11) % 24 + 1

    def tolerated_status(self, last_roll: bool) -> NardyStatus | None:
        """After black's last roll under the draw setting both sides may have finished (RULES.md N9)."""
        return NardyStatus.BOTH_FINISHED if last_roll else None

    def legal_plays(  # type: ignore[override]
        self, position: NardyPosition, d1: int, d2: int, *, first_roll: bool | None = None
    ) -> list[NardyPlay]:
        """RULES.md N4-N8; see :func:`controller.rules.nardy.moves.legal_plays`.

        :raises ValueError: on a die outside 1-6.
        """
        return legal_plays(position, d1, d2, self.settings, first_roll=first_roll)

    def result_multiple(self, position: NardyPosition) -> int:  # type: ignore[override]
        """For a finished game seen by the winner: 1 oin, 2 mars, 3 koks (setting) (RULES.md N9).

        :raises ValueError: when ``position.me`` still has checkers (the game is not over).
        """
        if any(position.me):
            raise ValueError(f"the game is not over: the player on roll still has checkers in {position!r}")
        result = score(position, self.settings)
        if result is None:
            raise ValueError(f"both players have borne off all checkers in {position!r}")
        return result.points

    def game_result(  # type: ignore[override]
        self, position: NardyPosition, winner: cube.Player, cube_: cube.Cube, settings: cube.CubeSettings
    ) -> tuple[str, cube.GameResult]:
        """RULES.md N9: oin 1, mars 2, koks 3 (setting); there is no cube, so ``cube_`` is not read.

        :raises ValueError: when the winner (``position.me``) has not borne off all his checkers.
        """
        result = score(position, self.settings)
        if result is None or result.winner != "me":
            raise ValueError(f"the game is not over: the winner still has checkers in {position!r}")
        return result.kind.value, cube.GameResult(winner, _CUBE_KINDS[result.kind], result.points, 1)

    def end_of_turn(  # type: ignore[override]
        self, position: NardyPosition, *, mover_is_white: bool, last_roll: bool
    ) -> tuple[TurnEnd, Winner]:
        """RULES.md N9 by :func:`~controller.rules.nardy.result.end_of_turn`, with the draw setting."""
        end, result = end_of_turn(position, self.settings, mover_is_white=mover_is_white, last_roll=last_roll)
        if end is not TurnEnd.GAME_OVER:
            return end, None
        assert result is not None  # the game is over, so one side has borne off all
        return end, result.winner

    def __repr__(self) -> str:
        return f"LongNardy({self.settings!r})"


# The rules core's kinds for nardy's results, as the match score and records count them.
_CUBE_KINDS = {
    ResultKind.OIN: cube.ResultKind.SINGLE,
    ResultKind.MARS: cube.ResultKind.GAMMON,
    ResultKind.KOKS: cube.ResultKind.BACKGAMMON,
}


register(LongNardy)
