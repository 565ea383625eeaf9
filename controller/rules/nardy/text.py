"""The nardy position text: a short, readable, round-tripping text for a :class:`NardyPosition`.

gnubg's Position ID has no room for nardy (its layout assumes the backgammon bar and opposite
directions), so nardy positions get their own text, which can never be mistaken for one: it
starts with ``N:`` (a Position ID is 14 base64 characters, never containing ``:`` or ``/``).

Grammar::

    text  = "N:" side "/" side          -- player on roll first, then the opponent
    side  = "-"                         -- no checker on the board (all 15 borne off)
          | entry ("," entry)*          -- points in any order, each at most once
    entry = point [ "x" count ]         -- point 1-24 in the side owner's own numbering; count 1-99,
                                           "x1" may be left out

Each side is written in its owner's own numbering (RULES.md N2): his head is his 24, his home
1-6; checkers not written are BORNE OFF (there is no bar in nardy). Bearing off starts only once
all 15 are home (RULES.md N8) and nothing ever leaves home again (no hitting, N4), so a side with
fewer than 15 written is possible only with all of them on points 1-6: ``N:24x14/24x15`` parses,
but it is no position of a game (``tavla legal`` refuses it, saying so). The writer puts points
highest first and leaves out ``x1``; the parser also takes ``n:``, ``x1`` and any order, and
surrounding whitespace.

Examples::

    N:24x15/24x15                the start (RULES.md N2), either player on roll
    N:24x14,4/24x15              after White's 5-5 (24/4), White still on roll
    N:24x15/24x14,4              the same board, Black on roll
    N:24x13,15,21/24x15          after a 3-3 first roll: 24/15 24/21 (RULES.md N5)
    N:3x2,1/-                    the opponent has borne off all 15; the mover 3 left

Counts up to 99 are read, so an impossible reading (16 checkers) can be written down and checked
with :meth:`NardyPosition.status`; the text says nothing about legality.
"""

from __future__ import annotations

import re

from controller.rules.errors import TavlaError
from controller.rules.nardy.position import POINTS, NardyPosition

#: The prefix that marks a nardy position text.
PREFIX = "N:"

_ENTRY = re.compile(r"([0-9]{1,2})(?:x([0-9]{1,2}))?")


class NardyTextError(TavlaError, ValueError):
    """Malformed nardy position text. The message (one line) quotes the text and what is wrong."""


def _side_text(side: tuple[int, ...]) -> str:
    parts = []
    for p in range(POINTS, 0, -1):
        n = side[p - 1]
        if n < 0:
            raise ValueError(f"negative count {n} on point {p}")
        if n:
            parts.append(str(p) if n == 1 else f"{p}x{n}")
    return ",".join(parts) if parts else "-"


def position_text(position: NardyPosition) -> str:
    """The text of ``position`` (see the module docstring), e.g. ``"N:24x15/24x15"``.

    :raises ValueError: when a side does not have 24 entries or holds a negative count or a count
        above 99.
    """
    for side in (position.me, position.opp):
        if len(side) != POINTS:
            raise ValueError(f"a nardy position has 24 points a side, not {len(side)}")
        if any(n > 99 for n in side):
            raise ValueError("a count above 99 on one point cannot be written")
    return f"{PREFIX}{_side_text(position.me)}/{_side_text(position.opp)}"


def _parse_side(text: str, part: str, whose: str) -> tuple[int, ...]:
    if part == "-":
        return (0,) * POINTS
    if not part:
        raise NardyTextError(f"{text!r}: {whose} side is empty (write '-' when all 15 are borne off)")
    counts = [0] * POINTS
    for entry in part.split(","):
        m = _ENTRY.fullmatch(entry)
        if m is None:
            raise NardyTextError(
                f"{text!r}: {whose} entry {entry!r} is not POINT or POINTxCOUNT (e.g. 24x15)"
            )
        point = int(m.group(1))
        count = 1 if m.group(2) is None else int(m.group(2))
        if not 1 <= point <= POINTS:
            raise NardyTextError(f"{text!r}: {whose} point {point} is outside 1-24")
        if count == 0:
            raise NardyTextError(f"{text!r}: {whose} point {point} has count 0 (leave the point out)")
        if counts[point - 1]:
            raise NardyTextError(f"{text!r}: {whose} point {point} is given twice")
        counts[point - 1] = count
    return tuple(counts)


def parse_position_text(text: str) -> NardyPosition:
    """Read a nardy position text (see the module docstring).

    :raises NardyTextError: (a ``ValueError``) with a one-line message quoting the text and saying
        what is wrong; a gnubg Position ID gets a message saying so.
    """
    if not isinstance(text, str):
        raise NardyTextError(f"a nardy position text must be a string, not {type(text).__name__}")
    body = text.strip()
    if body[:2] not in ("N:", "n:"):
        hint = (
            " (that looks like a gnubg Position ID, which is for backgammon)"
            if re.fullmatch(r"[A-Za-z0-9+/]{14}", body)
            else ""
        )
        raise NardyTextError(
            f"{text!r} is not a nardy position: it must start with 'N:', e.g. N:24x15/24x15{hint}"
        )
    sides = body[2:].split("/")
    if len(sides) != 2:
        raise NardyTextError(
            f"{text!r}: expected two sides separated by one '/' (on roll first), e.g. N:24x15/24x15"
        )
    me = _parse_side(text, sides[0], "the mover's")
    opp = _parse_side(text, sides[1], "the opponent's")
    return NardyPosition(me, opp)
