"""gnubg Position ID: 14 base64 characters holding a whole board (no dice, cube or score).

Encoding (gnubg manual, "Position ID"): for ``board[0]`` (the player *not* on roll, our
``Position.opp``) and then ``board[1]`` (the player on roll, ``Position.me``), for each of the 25
entries (points 1-24, then the bar), as many 1-bits as checkers followed by one 0-bit. The bits fill
10 bytes least significant bit first; the bytes are base64-encoded and the ``=`` padding dropped.
The start position is ``4HPwATDgc/ABMA``.
"""

from __future__ import annotations

import base64
import binascii
import re

from controller.formats.errors import FormatError
from controller.rules.position import CHECKERS, SLOTS, Position

_ID_RE = re.compile(r"[A-Za-z0-9+/]{14}")


def position_id(position: Position) -> str:
    """The 14-character gnubg Position ID of ``position``.

    :raises FormatError: when the position cannot be encoded (a side with more than 15 checkers,
        a negative count, or not 25 entries a side).
    """
    for name, side in (("opp", position.opp), ("me", position.me)):
        if len(side) != SLOTS or any(n < 0 for n in side) or sum(side) > CHECKERS:
            raise FormatError(f"cannot encode {position!r}: side {name} is not 25 counts totalling <= 15")
    bits = 0
    shift = 0
    for side in (position.opp, position.me):
        for n in side:
            bits |= ((1 << n) - 1) << shift
            shift += n + 1
    raw = bits.to_bytes(10, "little")
    return base64.b64encode(raw).decode("ascii")[:14]


def position_from_id(text: str) -> Position:
    """Decode a gnubg Position ID (surrounding blanks ignored).

    :raises FormatError: (a ``ValueError``) quoting the input when it is not 14 base64 characters,
        holds more than 15 checkers for a side, leaves stray bits after the last checker, or puts
        both colours on one point.
    """
    s = text.strip() if isinstance(text, str) else text
    if not isinstance(s, str) or not _ID_RE.fullmatch(s):
        raise FormatError(f"position ID {text!r} is not 14 characters of A-Z a-z 0-9 + /")
    try:
        raw = base64.b64decode(s + "==", validate=True)
    except (binascii.Error, ValueError) as exc:  # pragma: no cover - the regex already rules these out
        raise FormatError(f"position ID {text!r} is not base64: {exc}") from None
    if raw[10:]:
        raise FormatError(f"position ID {text!r} is too long")
    bits = int.from_bytes(raw[:10], "little")
    if s[13] not in "AQgw":  # the last character's low 4 bits are padding and must be zero
        raise FormatError(f"position ID {text!r} has stray bits in its last character {s[13]!r}")
    sides: list[tuple[int, ...]] = []
    pos = 0
    for name in ("opponent (board[0])", "player on roll (board[1])"):
        counts = []
        total = 0
        for _ in range(SLOTS):
            n = 0
            while pos < 80 and (bits >> pos) & 1:
                n += 1
                pos += 1
            if pos >= 80:
                raise FormatError(f"position ID {text!r} runs out of bits in the {name}'s checkers")
            pos += 1  # the 0 separator
            counts.append(n)
            total += n
        if total > CHECKERS:
            raise FormatError(f"position ID {text!r} gives the {name} {total} checkers (at most 15)")
        sides.append(tuple(counts))
    if bits >> pos:
        raise FormatError(f"position ID {text!r} has stray bits after the last checker")
    position = Position(me=sides[1], opp=sides[0])
    for i in range(24):
        if position.me[i] and position.opp[23 - i]:
            raise FormatError(
                f"position ID {text!r} puts both colours on the on-roll player's point {i + 1}"
            )
    return position
