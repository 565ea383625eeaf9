"""The move and play types (:class:`Move`, :class:`Play`) and a table of every single-die step.

Kept apart from :mod:`controller.rules.moves` so the generator (:mod:`controller.rules.movegen`)
can build plays straight from shared Move objects without an import cycle.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from controller.rules.position import Position

#: Source number of the bar in a :class:`Move`.
BAR_POINT: Final = 25
#: Destination number of "off" in a :class:`Move`.
OFF_POINT: Final = 0


class Move(NamedTuple):
    """One checker moved by one die (or, in parsed notation, through several points).

    :param src: the mover's point 1-24, or 25 for the bar.
    :param dst: the mover's point 1-24, or 0 for off.
    :param hit: True when it lands on (hits) an opposing blot (RULES.md B6).
    """

    src: int
    dst: int
    hit: bool = False


class Play(NamedTuple):
    """A whole play for one roll: its steps in the order played, and the resulting position.

    ``result`` is seen from the mover still (``result.me`` is the player who just moved); call
    ``result.swapped()`` to hand the turn over. An empty ``moves`` means the roll could not be
    played (RULES.md B5, B7).
    """

    moves: tuple[Move, ...]
    result: Position


#: Every step in the generator's 0-based indices (source 0-24, destination -1..23, hit) as a Move,
#: at index ``s * 52 + d * 2 + 2 + hit``; built once so the hot path never constructs a Move.
STEP_TABLE: Final[tuple[Move, ...]] = tuple(
    Move(s + 1, d + 1 if d >= 0 else OFF_POINT, bool(h))
    for s in range(25)
    for d in range(-1, 25)
    for h in (0, 1)
)
