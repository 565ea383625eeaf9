"""Variants as small subclasses with class-level flags and a registry (STYLE.md principle 2).

As python-chess's ``chess/variant.py`` does for its chess variants: the shared machinery is the
:class:`Variant` base; each variant overrides the few things that differ -- the start position,
the legal-play generator (landing on a single opposing checker, the head rule, the block rule) and
the scoring of a finished game. The long nardy engineer adds ``LongNardy`` in
``controller/rules/nardy*.py`` and registers it with :func:`register`.

Example::

    >>> from controller.rules.variant import VARIANTS
    >>> v = VARIANTS["backgammon"]()
    >>> len(v.legal_plays(v.start_position(), 3, 1))
    16
"""

from __future__ import annotations

from typing import ClassVar

from controller.rules.moves import Play, legal_plays
from controller.rules.position import Position


class Variant:
    """One game of the backgammon family. Subclasses set the class flags and override the methods.

    Class flags:

    * ``name`` -- the registry key and the ``--variant`` value (``"backgammon"``, ``"nardy"``).
    * ``checkers`` -- checkers per side (RULES.md B1, N1: 15 in both).
    * ``hitting`` -- True when a single opposing checker may be hit (RULES.md B6; nardy: N4 False).
    * ``has_cube`` -- True when the doubling cube is used (RULES.md B10; nardy: no cube in the seeds).
    * ``max_result`` -- the highest multiple of the stake a game can score: 3 for a backgammon
      (RULES.md B9), 2 for a mars in nardy (N9, without the koks setting).
    """

    name: ClassVar[str] = ""
    checkers: ClassVar[int] = 15
    hitting: ClassVar[bool] = True
    has_cube: ClassVar[bool] = True
    max_result: ClassVar[int] = 3

    def start_position(self) -> Position:
        """The position before the first roll, either player's view (both sides alike)."""
        raise NotImplementedError

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

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class Backgammon(Variant):
    """Standard ("short") backgammon, RULES.md B1-B9."""

    name = "backgammon"

    def start_position(self) -> Position:
        """RULES.md B2."""
        return Position.initial()

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
