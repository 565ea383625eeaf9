"""Text formats: gnubg Position ID and Match ID, XGID, move notation, Jellyfish .mat and gnubg .sgf.

Each format is a parser and a writer that round-trip (STYLE.md principle 5). Imports only
``controller.rules`` and the standard library. Every parser raises :class:`FormatError` (a
``ValueError``) quoting the bad input.
"""

from controller.formats.errors import FormatError
from controller.formats.notation import IllegalPlayError, format_play, parse_hops, parse_play
from controller.formats.position_id import position_from_id, position_id

__all__ = [
    "FormatError",
    "IllegalPlayError",
    "format_play",
    "parse_hops",
    "parse_play",
    "position_from_id",
    "position_id",
]
