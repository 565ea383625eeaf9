"""The position value type of long nardy (RULES.md N1, N2).

A :class:`NardyPosition` holds two 24-tuples of checker counts, each in its owner's own numbering,
exactly as :class:`controller.rules.position.Position` does for backgammon but without a bar
(nardy has no hitting, RULES.md N4):

* ``me``  -- the player on roll; ``me[i]`` is his count on his point ``i + 1``.
* ``opp`` -- the other player, in *his* numbering.

Each player moves from his 24 towards his 1 and bears off below 1; his **head** is his 24-point and
his **home** his points 1-6 (RULES.md N2). Both players move counter-clockwise and the heads stand
at diagonally opposite corners, so the two numberings are half a board apart:

    the opponent's point ``q`` is the player's point ``((q + 11) % 24) + 1``  (``q +- 12``)

Check against N2: the opponent's head ``q = 24`` is the player's 12-point ("the opponent's head is
the player's 12-point"); the opponent's home ``q = 1..6`` is the player's 13-18, the quarter the
player's own checkers enter right after leaving their first quarter 19-24. The
opponent's path, his 24 down to his 1, is the player's 12, 11, .. 1, 24, 23, .. 13. The map is its
own inverse.

Checkers borne off are not stored: ``off = 15 - on board``.

A position read by the camera can be impossible (16 checkers, both colours on one point);
:meth:`NardyPosition.status` reports that as flags and never raises (STYLE.md principle 7).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

from controller.rules._counts import SideCounts

#: Checkers per side (RULES.md N1).
CHECKERS: Final = 15
#: Points per side's tuple (no bar in nardy).
POINTS: Final = 24
#: Each player's head: his own 24-point (RULES.md N2).
HEAD: Final = 24
#: The opponent's head in the player's numbering (RULES.md N2).
OPP_HEAD: Final = 12

_START_SIDE: Final = (0,) * 23 + (CHECKERS,)


def opp_to_mine(q: int) -> int:
    """The player's number for the opponent's point ``q`` (1-24); see the module docstring.

    :raises ValueError: when ``q`` is outside 1-24.
    """
    if not 1 <= q <= POINTS:
        raise ValueError(f"point {q} is outside 1-24")
    return ((q + 11) % 24) + 1


#: The same map, as a table for the move generator: ``MIRROR[q]`` for q in 1..24 (index 0 unused).
MIRROR: Final = (0,) + tuple(((q + 11) % 24) + 1 for q in range(1, 25))


class NardyStatus(enum.IntFlag):
    """Why a nardy position cannot occur in a game played by the rules (``VALID`` when it can).

    Returned by :meth:`NardyPosition.status`; several flags may be set at once.
    """

    VALID = 0
    #: A side's tuple does not have 24 entries.
    BAD_LENGTH = enum.auto()
    #: A count below zero or not an int.
    BAD_COUNT = enum.auto()
    #: The player on roll has more than 15 checkers on the board (RULES.md N1).
    TOO_MANY_ME = enum.auto()
    #: The opponent has more than 15 checkers on the board (RULES.md N1).
    TOO_MANY_OPP = enum.auto()
    #: A checker stands on a point holding an opposing checker (RULES.md N4: never allowed).
    SHARED_POINT = enum.auto()
    #: Both players have borne off all 15: only one can finish first (RULES.md N9), except after
    #: black's last roll under the draw setting (a drawn game).
    BOTH_FINISHED = enum.auto()
    #: The player on roll holds six points in a row with no opposing checker past them (RULES.md N6).
    #: Possible after an illegal move was accepted (RULES.md N11), so a warning more than an error.
    BLOCK_ME = enum.auto()
    #: The opponent holds such a block.
    BLOCK_OPP = enum.auto()


@dataclass(frozen=True, slots=True)
class NardyPosition(SideCounts):
    """A long nardy position seen by the player on roll.

    :param me: 24 ints, the player on roll's checkers on his points 1-24 (indices 0-23).
    :param opp: 24 ints, the opponent's checkers in the opponent's own numbering.

    The constructor does not validate (a camera reading may be impossible); call :meth:`status`.
    ``repr`` rebuilds the value. Borne-off and pip counts (each checker counts its point number in
    its owner's numbering), game over and :meth:`is_valid` come from
    :class:`~controller.rules._counts.SideCounts`.
    """

    me: tuple[int, ...]
    opp: tuple[int, ...]

    @classmethod
    def initial(cls) -> NardyPosition:
        """The start position of RULES.md N2: all 15 of each side on his head (his 24-point)."""
        return cls(_START_SIDE, _START_SIDE)

    def swapped(self) -> NardyPosition:
        """The same board seen by the other player: the turn passes."""
        return NardyPosition(self.opp, self.me)

    def point(self, n: int) -> tuple[int, int]:
        """``(mine, his)`` on the roller's point ``n`` (1-24).

        :raises ValueError: when ``n`` is outside 1-24.
        """
        if not 1 <= n <= POINTS:
            raise ValueError(f"point {n} is outside 1-24")
        return self.me[n - 1], self.opp[MIRROR[n] - 1]

    def blocks(self, side: str = "me") -> list[int]:
        """Illegal blocks held by ``side`` (``"me"`` or ``"opp"``), each named by one point.

        A block is six points in a row *along the other player's path* all held by ``side``; it is
        legal only while at least one of the other player's checkers is past it (or borne off)
        (RULES.md N6). Each block is named by the holder's number of its point the other player's
        checkers would meet first. Never raises on a well-shaped position.
        """
        holder, other = (self.me, self.opp) if side == "me" else (self.opp, self.me)
        return [MIRROR[q + 5] for q in illegal_block_windows(holder, other, after_home=False)]

    def status(self) -> NardyStatus:
        """Flags for everything impossible about this position; ``NardyStatus.VALID`` if nothing.

        Never raises, whatever the tuples hold (STYLE.md principle 7).
        """
        flags = NardyStatus.VALID
        me, opp = self.me, self.opp
        if len(me) != POINTS or len(opp) != POINTS:
            flags |= NardyStatus.BAD_LENGTH
        if not all(isinstance(n, int) and n >= 0 for n in (*me, *opp)):
            return flags | NardyStatus.BAD_COUNT
        if sum(me) > CHECKERS:
            flags |= NardyStatus.TOO_MANY_ME
        if sum(opp) > CHECKERS:
            flags |= NardyStatus.TOO_MANY_OPP
        if flags & NardyStatus.BAD_LENGTH:
            return flags
        if any(me[p - 1] > 0 and opp[MIRROR[p] - 1] > 0 for p in range(1, 25)):
            flags |= NardyStatus.SHARED_POINT
        if sum(me) == 0 and sum(opp) == 0:
            flags |= NardyStatus.BOTH_FINISHED
        if illegal_block_windows(me, opp, after_home=False):
            flags |= NardyStatus.BLOCK_ME
        if illegal_block_windows(opp, me, after_home=False):
            flags |= NardyStatus.BLOCK_OPP
        return flags


def allowed_block_windows(holder: tuple[int, ...] | list[int], other: tuple[int, ...] | list[int], *,
                          after_home: bool) -> list[bool]:
    """Which six-point windows the holder may fill, indexed by the *other* player's point ``q``.

    Window ``q`` (1-19) is the other player's points ``q .. q + 5``; the list has 20 entries, index 0
    unused. A window is allowed when at least one of the other player's checkers is past it (on his
    points below ``q``, or borne off) (RULES.md N6, SV 3.5, CS 3.4); with ``after_home`` also only once
    one of his checkers has entered his home, points 1-6, or been borne off (the CS 3.4 variant).

    :param holder: 24 counts in the holder's numbering (unused; kept for a uniform signature).
    :param other: 24 counts in the other player's own numbering.
    """
    del holder
    off = CHECKERS - sum(other)
    home_entered = off > 0 or any(other[0:6])
    allowed = [False] * 20
    past = off
    for q in range(1, 20):
        ok = past > 0
        if after_home and not home_entered:
            ok = False
        allowed[q] = ok
        past += other[q - 1]
    return allowed


def full_block_windows(holder: tuple[int, ...] | list[int]) -> list[int]:
    """The windows ``q`` (other player's numbering, 1-19) whose six points the holder all holds.

    :param holder: 24 counts in the holder's numbering.
    """
    held = [False] * 25
    for q in range(1, 25):
        held[q] = holder[MIRROR[q] - 1] > 0
    return [q for q in range(1, 20) if all(held[q : q + 6])]


def illegal_block_windows(holder: tuple[int, ...] | list[int], other: tuple[int, ...] | list[int], *,
                          after_home: bool) -> list[int]:
    """Full windows (see :func:`full_block_windows`) the holder may not hold (RULES.md N6)."""
    allowed = allowed_block_windows(holder, other, after_home=after_home)
    return [q for q in full_block_windows(holder) if not allowed[q]]


def status_messages(position: NardyPosition, ignore: NardyStatus = NardyStatus.VALID) -> list[str]:
    """Plain-word sentences, one per problem :meth:`NardyPosition.status` finds (RULES.md N1, N4, N6, N9).

    Each sentence names the checkers and points involved in the mover's numbering ("the player on
    roll" first), e.g. ``"the player on roll has 16 checkers (at most 15)"``, for a CLI or a referee
    screen; ``[]`` for a valid position. Flags in ``ignore`` get no sentence (e.g. the blocks, which
    an accepted illegal move can leave, RULES.md N11). Never raises.
    """
    flags = position.status() & ~ignore
    me, opp = position.me, position.opp
    if flags & NardyStatus.BAD_LENGTH:
        return [f"a side must have 24 points, not {len(me)} and {len(opp)}"]
    if flags & NardyStatus.BAD_COUNT:
        return ["a point holds a negative or non-integer count"]
    out: list[str] = []
    if flags & NardyStatus.TOO_MANY_ME:
        out.append(f"the player on roll has {sum(me)} checkers (at most {CHECKERS})")
    if flags & NardyStatus.TOO_MANY_OPP:
        out.append(f"the opponent has {sum(opp)} checkers (at most {CHECKERS})")
    if flags & NardyStatus.SHARED_POINT:
        shared = [p for p in range(1, POINTS + 1) if me[p - 1] > 0 and opp[MIRROR[p] - 1] > 0]
        names = ", ".join(
            f"point {p} of the player on roll = point {MIRROR[p]} of the opponent" for p in shared
        )
        out.append(f"both players have checkers on the same point ({names})")
    if flags & NardyStatus.BOTH_FINISHED:
        out.append("both players have borne off all 15 checkers")
    if flags & NardyStatus.BLOCK_ME:
        out.append(f"the player on roll holds a block of six with no opposing checker past it "
                   f"(from his point {position.blocks('me')[0]})")
    if flags & NardyStatus.BLOCK_OPP:
        out.append(f"the opponent holds a block of six with no checker of the player on roll past it "
                   f"(from his point {position.blocks('opp')[0]})")
    return out
