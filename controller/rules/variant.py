"""Variants as small subclasses with class-level flags and a registry (STYLE.md principle 2).

As python-chess's ``chess/variant.py`` does for its chess variants: the shared machinery is the
:class:`Variant` base; each variant overrides the few things that differ -- the position type, the
start position, the legal-play generator (landing on a single opposing checker, the head rule, the
block rule), how the opponent numbers the points, the end of a turn and the scoring of a finished
game -- and sets the class flags and rule ids the referee reads. Callers never ask which variant
they hold. :class:`Backgammon` is here; ``LongNardy`` lives in :mod:`controller.rules.nardy` and
registers itself with :func:`register`; :func:`variant_named` gives either by name.

Example::

    >>> from controller.rules.variant import VARIANTS
    >>> v = VARIANTS["backgammon"]()
    >>> len(v.legal_plays(v.start_position(), 3, 1))
    16
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any, ClassVar, Literal

from controller.rules.cube import Cube, CubeSettings, GameResult, Player, game_result
from controller.rules.moves import Play, legal_plays
from controller.rules.position import Position

#: Who won, seen from the position the game ended on (None: a draw, RULES.md N9 setting).
Winner = Literal["me", "opp"] | None


class TurnEnd(enum.StrEnum):
    """What happens after a play (see :meth:`Variant.end_of_turn`)."""

    #: The game goes on: the other player rolls.
    CONTINUE = "continue"
    #: Nardy draw setting: white has finished; black gets one last roll (RULES.md N9).
    LAST_ROLL = "last_roll"
    #: The game is over; the result comes with it.
    GAME_OVER = "game_over"


class Variant:
    """One game of the backgammon family. Subclasses set the class flags and override the methods.

    Class flags:

    * ``name`` -- the registry key and the ``--variant`` value (``"backgammon"``, ``"nardy"``).
    * ``checkers`` -- checkers per side (RULES.md B1, N1: 15 in both).
    * ``hitting`` -- True when a single opposing checker may be hit (RULES.md B6; nardy: N4 False).
    * ``has_cube`` -- True when the doubling cube is used (RULES.md B10; nardy: no cube in the seeds).
    * ``max_result`` -- the highest multiple of the stake a game can score: 3 for a backgammon
      (RULES.md B9), 2 for a mars in nardy (N9, without the koks setting).
    * ``title`` -- the variant's name in a sentence (``"long nardy"``).
    * ``same_direction`` -- True when both players travel the same way round the board, so a seating
      may run either way (RULES.md N2); False when they travel towards each other (B2).
    * ``rolls_in_own_half`` -- True when each player rolls in the half on his right, so the dice's
      half names the roller (RULES.md B15, B16); False when either half will do (N10).
    * ``opening_each_game`` -- True when every game starts with an opening roll (B3); False when only
      the first game of a series does (N3).
    * ``opening_plays_roll`` -- True when the winner of the opening roll plays the two numbers
      rolled (B3); False when he rolls afresh (N3).
    * ``gnubg`` -- True when gnubg knows the variant: Position IDs, its move notation, its hints and
      its match records (.mat, .sgf) apply.
    * ``dice_mixing`` -- True when a player may ask for the dice to be mixed before a game (B15 RO).
    * ``rethrow_rule``, ``opening_rule``, ``dispute_rule``, ``result_rule`` -- the RULES.md ids a
      ruling on a re-throw, an opening roll, a disputed move and a game's end cites.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    checkers: ClassVar[int] = 15
    hitting: ClassVar[bool] = True
    has_cube: ClassVar[bool] = True
    max_result: ClassVar[int] = 3
    same_direction: ClassVar[bool] = False
    rolls_in_own_half: ClassVar[bool] = True
    opening_each_game: ClassVar[bool] = True
    opening_plays_roll: ClassVar[bool] = True
    gnubg: ClassVar[bool] = True
    dice_mixing: ClassVar[bool] = True
    rethrow_rule: ClassVar[str] = "B15"
    opening_rule: ClassVar[str] = "B3"
    dispute_rule: ClassVar[str] = "B17"
    result_rule: ClassVar[str] = "B9"

    def configured(self, *, block_rule: str, koks: bool, draw: bool) -> Variant:
        """This variant under a match's rule settings (nardy's RULES.md N6 block rule, N9 koks and
        draw); a variant without such settings returns itself."""
        return self

    def start_position(self) -> Position:
        """The position before the first roll, either player's view (both sides alike)."""
        raise NotImplementedError

    def start_side(self) -> tuple[int, ...]:
        """One player's checkers at the start as 25 entries (index i = point i + 1, 24 = the bar)."""
        me = self.start_position().me
        return tuple(me) + (0,) * (25 - len(me))

    def position(self, me: Sequence[int], opp: Sequence[int]) -> Position:
        """The variant's position from two 25-entry sides, each in its owner's numbering."""
        raise NotImplementedError

    def opponent_point(self, point: int) -> int:
        """The other player's number (1-24) for the player's point ``point``; 25, the bar, stays 25."""
        raise NotImplementedError

    def in_contact(self, me: Sequence[int], opp: Sequence[int]) -> bool:
        """True while the two sides' checkers can still meet (RULES.md B16 waiver)."""
        return True

    def tolerated_status(self, last_roll: bool) -> Any:
        """Status flags a position read after a play may carry and still be possible; None for none."""
        return None

    def legal_plays(self, position: Position, d1: int, d2: int) -> list[Play]:
        """Every legal play of ``d1``-``d2``, one per distinct resulting position (mover's frame).

        :raises controller.rules.errors.DiceError: on a die outside 1-6.
        """
        raise NotImplementedError

    def result_multiple(self, position: Position) -> int:
        """For a finished game seen by the winner (``position.me`` has borne off all): the multiple of
        the stake won, before the cube (1 single, 2 gammon/mars, 3 backgammon/koks).

        :raises ValueError: when ``position.me`` still has checkers (the game is not over).
        """
        raise NotImplementedError

    def game_result(
        self, position: Position, winner: Player, cube: Cube, settings: CubeSettings
    ) -> tuple[str, GameResult]:
        """How a game ``winner`` bore off scores, seen by him in ``position``: the kind's name and the
        rules core's result (RULES.md B9-B12, N9).

        :raises ValueError: when ``position.me`` still has checkers (the game is not over).
        """
        raise NotImplementedError

    def end_of_turn(
        self, position: Position, *, mover_is_white: bool, last_roll: bool
    ) -> tuple[TurnEnd, Winner]:
        """After a play, in the mover's frame: does the game go on, or is it over and who won?

        :param mover_is_white: True when the mover made the game's first move (RULES.md N3).
        :param last_roll: True when this play was black's last roll under nardy's draw setting (N9).
        """
        if any(position.me):
            return TurnEnd.CONTINUE, None
        return TurnEnd.GAME_OVER, "me"

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class Backgammon(Variant):
    """Standard ("short") backgammon, RULES.md B1-B9."""

    name = "backgammon"
    title = "backgammon"

    def start_position(self) -> Position:
        """RULES.md B2."""
        return Position.initial()

    def position(self, me: Sequence[int], opp: Sequence[int]) -> Position:
        return Position(tuple(me), tuple(opp))

    def opponent_point(self, point: int) -> int:
        """RULES.md B2: the players number the points from opposite ends."""
        return point if point == 25 else 25 - point

    def in_contact(self, me: Sequence[int], opp: Sequence[int]) -> bool:
        """RULES.md B16 waiver: contact is over once every checker of one side has passed the other's."""
        mine = [i + 1 for i in range(25) if me[i]]
        theirs = [24 - i for i in range(24) if opp[i]] + ([0] if opp[24] else [])
        if not mine or not theirs:
            return False
        return max(mine) > min(theirs)

    def legal_plays(self, position: Position, d1: int, d2: int) -> list[Play]:
        """RULES.md B4-B8; see :func:`controller.rules.moves.legal_plays`."""
        return legal_plays(position, d1, d2)

    def result_multiple(self, position: Position) -> int:
        """RULES.md B9: 1 if the loser bore off a checker; 2 (gammon) if none; 3 (backgammon) if none
        and a loser's checker is on the bar or in the winner's home board (winner's points 1-6 =
        loser's points 19-24)."""
        if any(position.me):
            raise ValueError(f"the game is not over: the player on roll still has checkers in {position!r}")
        loser = position.opp
        if sum(loser) < self.checkers:
            return 1
        if any(loser[18:25]):
            return 3
        return 2

    def game_result(
        self, position: Position, winner: Player, cube: Cube, settings: CubeSettings
    ) -> tuple[str, GameResult]:
        """RULES.md B9 (single, gammon, backgammon) times the cube, with B9's settings and B12 (Jacobi).

        The kind is named as scored: a backgammon under Jacobi counts, and is named, single.
        """
        result = game_result(winner, self.result_multiple(position), cube, settings)
        return _SCORED_AS[result.points // result.cube_value], result


_SCORED_AS = {1: "single", 2: "gammon", 3: "backgammon"}


VARIANTS: dict[str, type[Variant]] = {}


def register(cls: type[Variant]) -> type[Variant]:
    """Add ``cls`` to :data:`VARIANTS` under ``cls.name`` (usable as a class decorator).

    :raises ValueError: when the name is empty or already taken by another class.
    """
    if not cls.name:
        raise ValueError(f"variant {cls.__name__} has no name")
    if VARIANTS.get(cls.name, cls) is not cls:
        raise ValueError(f"variant name {cls.name!r} is taken by {VARIANTS[cls.name].__name__}")
    VARIANTS[cls.name] = cls
    return cls


register(Backgammon)


def variant_named(name: str) -> Variant:
    """The registered variant ``name`` with its default settings.

    :raises ValueError: naming the known variants, when ``name`` is not one of them.
    """
    if name not in VARIANTS:
        raise ValueError(f"unknown variant {name!r}; use one of {', '.join(VARIANTS)}")
    return VARIANTS[name]()
