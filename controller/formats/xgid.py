"""XGID, eXtreme Gammon's position text: ``XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10``.

Fields, ``:``-separated after the ``XGID=`` prefix (optional when reading):

1. 26 characters: index 0 is the top player O's bar, 1-24 the points numbered from the bottom
   player X's side (X's point *n*), 25 X's bar. ``-`` empty, ``A``-``O`` 1-15 X checkers,
   ``a``-``o`` 1-15 O checkers.
2. cube: log2 of the cube value.
3. cube position: 0 centred, 1 owned by X, -1 owned by O.
4. turn: 1 X on roll, -1 O on roll.
5. dice: ``00`` not rolled, ``D`` double offered, ``B`` beavered, ``R`` raccooned, or two dice
   ``52``.
6. X's score, 7. O's score.
8. match play: 1 in the Crawford game; money play: bit 0 Jacoby, bit 1 beavers.
9. match length (0 = money play).
10. maximum cube, log2.

:func:`xgid_text` writes exactly this canonical form; :func:`parse_xgid` reads it back.

Source: eXtreme Gammon's definition, in the XGID section of the eXtreme Gammon 2 user manual
(https://www.extremegammon.com/extremegammon2.pdf); its example above is the opening position with
X to play 52 in a money game with the Jacoby and beaver rules. The board is always written from
X's side, whoever is on roll; field 4 alone says who is.

gnubg's reading (1.07, ``set xgid``, checked in ``tests/controller/formats/test_xgid_gnubg.py``):
it agrees on the board, the scores, the cube and the dice with either player on roll, and makes
the player on roll its own player 1 -- X when field 4 is 1, O when it is -1. Matching gnubg's
player 1 to X therefore looks like swapped players exactly when O is on roll; it is not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from controller.formats.errors import FormatError
from controller.rules.position import CHECKERS, Position

_DICE_RE = re.compile(r"00|[DBR]|[1-6][1-6]")
_INT_RE = re.compile(r"-?[0-9]{1,5}")
_EMPTY = (0,) * 25


@dataclass(frozen=True, slots=True)
class Xgid:
    """The fields of an XGID. ``x`` and ``o`` are 25-tuples in each player's own numbering (index
    24 = bar), like :class:`~controller.rules.position.Position`'s sides.

    :raises FormatError: from the constructor when a field is out of range.
    """

    x: tuple[int, ...] = _EMPTY
    o: tuple[int, ...] = _EMPTY
    cube_log: int = 0
    cube_position: int = 0
    turn: int = 1
    dice: str = "00"
    score_x: int = 0
    score_o: int = 0
    crawford_jacoby: int = 0
    match_length: int = 0
    max_cube: int = 10

    def __post_init__(self) -> None:
        problems = []
        for name, side in (("X", self.x), ("O", self.o)):
            if len(side) != 25 or any(n < 0 or n > CHECKERS for n in side) or sum(side) > CHECKERS:
                problems.append(f"side {name} is not 25 counts totalling at most 15")
        if len(self.x) == 25 and len(self.o) == 25:
            for i in range(24):
                if self.x[i] and self.o[23 - i]:
                    problems.append(f"both players on X's point {i + 1}")
        if self.cube_position not in (-1, 0, 1):
            problems.append(f"cube position {self.cube_position} is not -1, 0 or 1")
        if self.turn not in (-1, 1):
            problems.append(f"turn {self.turn} is not 1 (X) or -1 (O)")
        if not _DICE_RE.fullmatch(self.dice):
            problems.append(f"dice {self.dice!r} are not 00, D, B, R or two dice 1-6")
        if not 0 <= self.cube_log <= 15 or not 0 <= self.max_cube <= 15:
            problems.append(f"cube {self.cube_log} or maximum cube {self.max_cube} is not a log2 in 0-15")
        if min(self.score_x, self.score_o, self.match_length, self.crawford_jacoby) < 0:
            problems.append("scores, match length and the Crawford/Jacoby field must not be negative")
        elif self.match_length and max(self.score_x, self.score_o) >= self.match_length:
            problems.append(f"a score is not below the match length {self.match_length}")  # the match is over
        if problems:
            raise FormatError("XGID: " + "; ".join(problems))

    def position(self) -> Position:
        """The board as a :class:`Position` seen by the player on roll (``turn``)."""
        return Position(self.x, self.o) if self.turn == 1 else Position(self.o, self.x)

    @classmethod
    def from_position(cls, position: Position, x_on_roll: bool = True, **fields: int | str) -> Xgid:
        """An XGID of ``position`` with the player on roll as X (``x_on_roll``) or as O.

        Other fields by keyword (``dice="52"``, ``match_length=7``...).
        """
        if x_on_roll:
            return cls(x=position.me, o=position.opp, turn=1, **fields)  # type: ignore[arg-type]
        return cls(x=position.opp, o=position.me, turn=-1, **fields)  # type: ignore[arg-type]


def _board_text(x: tuple[int, ...], o: tuple[int, ...]) -> str:
    chars = ["-"] * 26
    if o[24]:
        chars[0] = chr(ord("a") + o[24] - 1)
    if x[24]:
        chars[25] = chr(ord("A") + x[24] - 1)
    for n in range(1, 25):
        if x[n - 1]:
            chars[n] = chr(ord("A") + x[n - 1] - 1)
        elif o[24 - n]:
            chars[n] = chr(ord("a") + o[24 - n] - 1)
    return "".join(chars)


def xgid_text(x: Xgid) -> str:
    """The canonical ``XGID=...`` text of ``x``."""
    fields = [
        _board_text(x.x, x.o),
        x.cube_log,
        x.cube_position,
        x.turn,
        x.dice,
        x.score_x,
        x.score_o,
        x.crawford_jacoby,
        x.match_length,
        x.max_cube,
    ]
    return "XGID=" + ":".join(str(f) for f in fields)


def parse_xgid(text: str) -> Xgid:
    """Read an XGID (``XGID=`` prefix optional, surrounding blanks ignored).

    :raises FormatError: (a ``ValueError``) quoting the input and naming the bad field.
    """
    if not isinstance(text, str):
        raise FormatError(f"XGID {text!r} is not text")
    body = text.strip()
    if body.startswith("XGID="):
        body = body[5:]
    parts = body.split(":")
    if len(parts) != 10:
        raise FormatError(f"XGID {text!r} has {len(parts)} ':'-separated fields, not 10")
    board = parts[0]
    if len(board) != 26 or not re.fullmatch(r"[-A-Oa-o]{26}", board):
        raise FormatError(f"XGID {text!r}: position {board!r} is not 26 characters of -, A-O, a-o")
    if board[0].isupper() or board[25].islower():
        raise FormatError(f"XGID {text!r}: a checker sits on the other player's bar")
    x = [0] * 25
    o = [0] * 25
    x[24] = 0 if board[25] == "-" else ord(board[25]) - ord("A") + 1
    o[24] = 0 if board[0] == "-" else ord(board[0]) - ord("a") + 1
    for n in range(1, 25):
        c = board[n]
        if c.isupper():
            x[n - 1] = ord(c) - ord("A") + 1
        elif c.islower():
            o[24 - n] = ord(c) - ord("a") + 1
    numbers: list[int] = []
    names = ("cube", "cube position", "turn", None, "X score", "O score", "Crawford/Jacoby", "match length",
             "maximum cube")
    for name, field in zip(names, parts[1:], strict=True):
        if name is None:
            continue
        if not _INT_RE.fullmatch(field):
            raise FormatError(f"XGID {text!r}: {name} {field!r} is not a number")
        numbers.append(int(field))
    cube_log, cube_position, turn, score_x, score_o, cj, length, max_cube = numbers
    try:
        return Xgid(
            x=tuple(x),
            o=tuple(o),
            cube_log=cube_log,
            cube_position=cube_position,
            turn=turn,
            dice=parts[4],
            score_x=score_x,
            score_o=score_o,
            crawford_jacoby=cj,
            match_length=length,
            max_cube=max_cube,
        )
    except FormatError as exc:
        raise FormatError(f"XGID {text!r}: {exc}") from None
