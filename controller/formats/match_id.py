"""gnubg Match ID: 12 base64 characters holding the cube, score, turn and dice of a match.

Encoding (gnubg manual 11.7, "A technical description of the Match ID"): a 66-bit key, least
significant bit first, packed into 9 bytes and base64-encoded without padding. 1-based bit
ranges:

=======  ============  ========================================================================
1-4      cube          log2 of the cube value
5-6      cube owner    0 = player 0, 1 = player 1, 3 = centred
7        dice owner    the player on roll, or who did roll
8        Crawford      1 in the Crawford game
9-11     game state    0 none, 1 playing, 2 over, 3 resigned, 4 ended by a drop
12       turn          the player who must act now (differs from 7 while a double is answered)
13       doubled       1 while a double is offered
14-15    resigned      0 none, 1 single, 2 gammon, 3 backgammon offered
16-18    die 1         0 = not rolled
19-21    die 2
22-36    match length  0 = money play
37-51    score 0
52-66    score 1
=======  ============  ========================================================================

gnubg also writes bit 67 (set in match play, clear in money play in gnubg 1.1: the Jacoby flag of
its extended key). It is kept in :attr:`MatchId.bit67` so every gnubg ID round-trips; bits 68-72
must be zero. The manual's example ``QYkqASAAIAAA`` is 2-4 in a 9-point match, player 0 owning a
2-cube, player 1 having rolled 5-2.
"""

from __future__ import annotations

import base64
import enum
import re
from dataclasses import dataclass

from controller.formats.errors import FormatError

_ID_RE = re.compile(r"[A-Za-z0-9+/]{12}")
_FIELDS = (  # name, bit width, in key order
    ("cube_log", 4),
    ("cube_owner", 2),
    ("dice_owner", 1),
    ("crawford", 1),
    ("game_state", 3),
    ("turn", 1),
    ("doubled", 1),
    ("resigned", 2),
    ("die1", 3),
    ("die2", 3),
    ("match_length", 15),
    ("score0", 15),
    ("score1", 15),
    ("bit67", 1),
)


class GameState(enum.IntEnum):
    """Bits 9-11 of the Match ID."""

    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


@dataclass(frozen=True, slots=True)
class MatchId:
    """The fields of a gnubg Match ID (players are 0 and 1, as gnubg numbers them).

    :param cube_value: 1, 2, 4, ... 32768.
    :param cube_owner: 0, 1, or None when centred.
    :param dice_owner: the player on roll (or who rolled).
    :param turn: the player who must act now.
    :param dice: ``(0, 0)`` before rolling, else two dice 1-6.
    :param match_length: 0 for money play.
    :param resigned: 0 none, 1 single, 2 gammon, 3 backgammon offered.
    :param bit67: gnubg's extra bit (see the module docstring).
    """

    cube_value: int = 1
    cube_owner: int | None = None
    dice_owner: int = 0
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    turn: int = 0
    doubled: bool = False
    resigned: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    bit67: bool = False

    def __post_init__(self) -> None:
        problems = []
        if self.cube_value < 1 or self.cube_value > 2**15 or self.cube_value & (self.cube_value - 1):
            problems.append(f"cube value {self.cube_value} is not a power of two up to 32768")
        if self.cube_owner not in (None, 0, 1):
            problems.append(f"cube owner {self.cube_owner!r} is not 0, 1 or None")
        if self.dice_owner not in (0, 1) or self.turn not in (0, 1):
            problems.append("dice owner and turn must be 0 or 1")
        if self.resigned not in (0, 1, 2, 3):
            problems.append(f"resigned {self.resigned!r} is not 0-3")
        d1, d2 = self.dice
        if (d1, d2) != (0, 0) and not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            problems.append(f"dice {self.dice!r} are not (0, 0) or two numbers 1-6")
        limit = 2**15 - 1
        if not 0 <= self.match_length <= limit or not all(0 <= s <= limit for s in self.score):
            problems.append(f"match length {self.match_length} or score {self.score} is outside 0-{limit}")
        elif self.match_length and max(self.score) >= self.match_length:  # the match would be over
            problems.append(f"score {self.score} is not below the match length {self.match_length}")
        if problems:
            raise FormatError("; ".join(problems))


def match_id(m: MatchId) -> str:
    """The 12-character gnubg Match ID of ``m``."""
    values = {
        "cube_log": m.cube_value.bit_length() - 1,
        "cube_owner": 3 if m.cube_owner is None else m.cube_owner,
        "dice_owner": m.dice_owner,
        "crawford": int(m.crawford),
        "game_state": int(m.game_state),
        "turn": m.turn,
        "doubled": int(m.doubled),
        "resigned": m.resigned,
        "die1": m.dice[0],
        "die2": m.dice[1],
        "match_length": m.match_length,
        "score0": m.score[0],
        "score1": m.score[1],
        "bit67": int(m.bit67),
    }
    key = 0
    shift = 0
    for name, width in _FIELDS:
        key |= values[name] << shift
        shift += width
    return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")


def match_from_id(text: str) -> MatchId:
    """Decode a gnubg Match ID (surrounding blanks ignored).

    :raises FormatError: (a ``ValueError``) quoting the input when it is not 12 base64 characters,
        or a field is out of range (cube owner 2, game state 5-7, die 7, one die 0, bits after 67).
    """
    s = text.strip() if isinstance(text, str) else text
    if not isinstance(s, str) or not _ID_RE.fullmatch(s):
        raise FormatError(f"match ID {text!r} is not 12 characters of A-Z a-z 0-9 + /")
    key = int.from_bytes(base64.b64decode(s), "little")
    values: dict[str, int] = {}
    shift = 0
    for name, width in _FIELDS:
        values[name] = (key >> shift) & ((1 << width) - 1)
        shift += width
    if key >> shift:
        raise FormatError(f"match ID {text!r} has stray bits after bit 67")
    if values["cube_owner"] == 2:
        raise FormatError(f"match ID {text!r} gives the cube owner as 2 (0, 1 or 3 = centred)")
    if values["game_state"] > 4:
        raise FormatError(f"match ID {text!r} has game state {values['game_state']} (0-4)")
    try:
        return MatchId(
            cube_value=1 << values["cube_log"],
            cube_owner=None if values["cube_owner"] == 3 else values["cube_owner"],
            dice_owner=values["dice_owner"],
            crawford=bool(values["crawford"]),
            game_state=GameState(values["game_state"]),
            turn=values["turn"],
            doubled=bool(values["doubled"]),
            resigned=values["resigned"],
            dice=(values["die1"], values["die2"]),
            match_length=values["match_length"],
            score=(values["score0"], values["score1"]),
            bit67=bool(values["bit67"]),
        )
    except FormatError as exc:
        raise FormatError(f"match ID {text!r}: {exc}") from None
