"""The position value type of standard backgammon, in gnubg's board convention.

A :class:`Position` holds two 25-tuples of checker counts, each in its owner's own numbering
(RULES.md "Numbering": each player counts 1-24 from his own home board):

* ``me``  -- the player on roll; ``me[i]`` is the count on his point ``i + 1``, ``me[24]`` his bar.
  This is gnubg's ``board[1]``.
* ``opp`` -- the other player, in *his* numbering; gnubg's ``board[0]``.

The same physical point is ``me[i]`` and ``opp[23 - i]`` (the opponent's point *n* is the
player's point 25 - *n*). Checkers borne off are not stored: ``off = 15 - on board - on bar``.

A position read by the camera can be impossible (16 checkers, both colours on one point);
:meth:`Position.status` reports that as flags and never raises (STYLE.md principle 7).
"""

from __future__ import annotations

import enum
from typing import Final, NamedTuple

from controller.rules._counts import SideCounts

#: Checkers per side in standard backgammon (RULES.md B1).
CHECKERS: Final = 15
#: Length of each side's tuple: 24 points and the bar.
SLOTS: Final = 25
#: Index of the bar in each side's tuple (gnubg's index 24 = "point 25").
BAR: Final = 24

_INITIAL_SIDE: Final = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


class PositionStatus(enum.IntFlag):
    """Why a position cannot occur in a real game (``VALID`` when it can).

    Returned by :meth:`Position.status`; several flags may be set at once.
    """

    VALID = 0
    #: A side's tuple does not have 25 entries.
    BAD_LENGTH = enum.auto()
    #: A count below zero.
    NEGATIVE_COUNT = enum.auto()
    #: The player on roll has more than 15 checkers on board and bar.
    TOO_MANY_ME = enum.auto()
    #: The opponent has more than 15 checkers on board and bar.
    TOO_MANY_OPP = enum.auto()
    #: Both colours stand on one point (RULES.md B4/B6: a point holds one colour).
    SHARED_POINT = enum.auto()
    #: Both players have borne off all 15: only one can win (RULES.md B9).
    BOTH_FINISHED = enum.auto()


class _Sides(NamedTuple):
    me: tuple[int, ...]
    opp: tuple[int, ...]


class Position(_Sides, SideCounts):
    """A standard backgammon position seen by the player on roll (gnubg ``board[1]`` = ``me``).

    :param me: 25 ints, the player on roll's checkers on his points 1-24 (indices 0-23) and his bar
        (index 24).
    :param opp: 25 ints, the opponent's checkers in the opponent's own numbering.

    An immutable value (a named tuple: the generator builds thousands per second, and a tuple is the
    cheapest frozen value Python has). The constructor does not validate (a camera reading may be
    impossible); call :meth:`status`. ``repr`` rebuilds the value. Borne-off and pip counts, game
    over and :meth:`is_valid` come from :class:`~controller.rules._counts.SideCounts`.
    """

    __slots__ = ()

    @classmethod
    def initial(cls) -> Position:
        """The start position of RULES.md B2 (2 on the 24, 5 on the 13, 3 on the 8, 5 on the 6)."""
        return cls(_INITIAL_SIDE, _INITIAL_SIDE)

    def swapped(self) -> Position:
        """The same board seen by the other player: the turn passes (gnubg ``SwapSides``)."""
        return Position(self.opp, self.me)

    def point(self, n: int) -> tuple[int, int]:
        """``(mine, his)`` on the roller's point ``n`` (1-24); ``n = 25`` is the bars ``(me, opp)``.

        :raises ValueError: when ``n`` is outside 1-25.
        """
        if not 1 <= n <= 25:
            raise ValueError(f"point {n} is outside 1-25")
        if n == 25:
            return self.me[BAR], self.opp[BAR]
        return self.me[n - 1], self.opp[24 - n]

    def status(self) -> PositionStatus:
        """Flags for everything impossible about this position; ``PositionStatus.VALID`` if nothing.

        Never raises, whatever the tuples hold (STYLE.md principle 7).
        """
        flags = PositionStatus.VALID
        me, opp = self.me, self.opp
        if len(me) != SLOTS or len(opp) != SLOTS:
            flags |= PositionStatus.BAD_LENGTH
        if any(n < 0 for n in me) or any(n < 0 for n in opp):
            flags |= PositionStatus.NEGATIVE_COUNT
        if sum(me) > CHECKERS:
            flags |= PositionStatus.TOO_MANY_ME
        if sum(opp) > CHECKERS:
            flags |= PositionStatus.TOO_MANY_OPP
        if len(me) >= 24 and len(opp) >= 24 and any(me[i] > 0 and opp[23 - i] > 0 for i in range(24)):
            flags |= PositionStatus.SHARED_POINT
        if sum(me) == 0 and sum(opp) == 0:
            flags |= PositionStatus.BOTH_FINISHED
        return flags
