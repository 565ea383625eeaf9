"""Checker counting shared by the backgammon and the nardy position types.

:class:`controller.rules.position.Position` (25 slots: points 1-24 and the bar) and
:class:`controller.rules.nardy.position.NardyPosition` (24 points) both hold ``me`` and ``opp``,
each side's counts in its owner's own numbering with index ``i`` = point ``i + 1``. What follows
from that alone -- borne-off counts, pip counts, game over, validity -- is written once here, in
:class:`SideCounts`; each position type keeps what differs (start position, the map between the
two numberings, the status checks).
"""

from __future__ import annotations

import enum
from typing import Final, Protocol

#: Checkers per side in both games (RULES.md B1, N1).
CHECKERS: Final = 15


class _Sides(Protocol):
    """What :class:`SideCounts` needs of the class it is mixed into."""

    @property
    def me(self) -> tuple[int, ...]: ...

    @property
    def opp(self) -> tuple[int, ...]: ...

    def status(self) -> enum.IntFlag: ...


class SideCounts:
    """Mixin for a position value with ``me`` and ``opp`` count tuples and a ``status()`` flag.

    Adds no state (empty ``__slots__``), so a named tuple or a slotted dataclass stays as small and
    as fast as it was.
    """

    __slots__ = ()

    @property
    def off_me(self: _Sides) -> int:
        """Checkers the player on roll has borne off (15 minus those on board and bar)."""
        return CHECKERS - sum(self.me)

    @property
    def off_opp(self: _Sides) -> int:
        """Checkers the opponent has borne off."""
        return CHECKERS - sum(self.opp)

    def pip_count(self: _Sides) -> tuple[int, int]:
        """Pip counts ``(me, opp)``: each checker counts its point number in its owner's numbering
        (a backgammon checker on the bar, index 24, counts 25)."""
        return (
            sum((i + 1) * n for i, n in enumerate(self.me)),
            sum((i + 1) * n for i, n in enumerate(self.opp)),
        )

    def is_game_over(self: _Sides) -> bool:
        """True when either player has borne off all his checkers (RULES.md B9, N9)."""
        return not any(self.me) or not any(self.opp)

    def is_valid(self: _Sides) -> bool:
        """``status()`` is ``VALID`` (no flag set)."""
        return not self.status()
