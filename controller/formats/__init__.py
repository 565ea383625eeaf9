"""Text formats: gnubg Position ID and Match ID, XGID, move notation, Jellyfish .mat and gnubg .sgf.

Each format is a parser and a writer that round-trip (STYLE.md principle 5). Imports only
``controller.rules`` and the standard library. Every parser raises :class:`FormatError` (a
``ValueError``) quoting the bad input.
"""

from controller.formats.errors import FormatError
from controller.formats.match_id import GameState, MatchId, match_from_id, match_id
from controller.formats.notation import IllegalPlayError, format_play, parse_hops, parse_play
from controller.formats.position_id import position_from_id, position_id
from controller.formats.xgid import Xgid, parse_xgid, xgid_text

__all__ = [
    "GameState",
    "MatchId",
    "Xgid",
    "match_from_id",
    "match_id",
    "parse_xgid",
    "xgid_text",
    "FormatError",
    "IllegalPlayError",
    "format_play",
    "parse_hops",
    "parse_play",
    "position_from_id",
    "position_id",
]
