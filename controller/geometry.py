"""Slots <-> player points, for both variants and every legal seating (DESIGN.md "One coordinate system").

Slots 0-23 run counter-clockwise from the bottom-right corner of the rectified board (0-11 along the
bottom edge right to left, 12-23 along the top edge left to right). Each player numbers the points 1-24
from his own side (RULES.md "Numbering"): he moves from higher to lower numbers and his home board is
points 1-6.

A :class:`Seating` says where the **light** player's home board lies; the dark player's numbering
follows from the variant:

- backgammon (RULES.md B2): the two home boards face each other across the board and the players move
  in opposite directions, so dark's point *n* is light's point 25 - *n*. The mirror set-up (home board
  on the left) is equally legal, so all four corners are accepted.
- long nardy (RULES.md N2): both players move the same way round the board and the heads (point 24)
  stand at diagonally opposite corners, so dark's point *n* is light's point *n* + 12 (mod 24).
  Counter-clockwise (increasing slot numbers) is the default direction; the mirror layout runs
  clockwise.

Which edge a player sits at (his points 1-12 lie on his side) decides which half of the board is on his
right, which is where he rolls (RULES.md B15): the player at the bottom edge rolls in the right half
(slots 0-5 and 18-23), the player at the top edge in the left half (slots 6-17).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from controller.rules.errors import TavlaError
from controller.rules.variant import VARIANTS, Variant, variant_named

SLOTS = 24
CORNERS = ("bottom-right", "bottom-left", "top-left", "top-right")
# The first slot of each quarter in counter-clockwise order (bottom-right holds slots 0-5, ...).
_QUARTER_START = {"bottom-right": 0, "bottom-left": 6, "top-left": 12, "top-right": 18}
LIGHT_PLAYER = 0
DARK_PLAYER = 1


class GeometryError(TavlaError, ValueError):
    """A seating or point number that does not exist (names the bad value)."""


def right_half(slot: int) -> bool:
    """True for the slots of the rectified board's right half (0-5 and 18-23)."""
    return slot < 6 or slot >= 18


def bottom_edge(slot: int) -> bool:
    """True for the slots along the bottom edge (0-11)."""
    return slot < 12


@dataclass(frozen=True)
class Seating:
    """Where light's home board lies and which way the checkers travel.

    ``light_one`` is the slot of light's point 1; ``step`` is +1 when light's point *p* + 1 lies at the
    next slot counter-clockwise, -1 when clockwise. Build one with :meth:`for_home`.

    :raises GeometryError: for a slot outside 0-23, a step other than +-1 or an unknown variant.
    """

    variant: str = "backgammon"
    light_one: int = 0
    step: int = 1

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise GeometryError(f"unknown variant {self.variant!r}; use one of {', '.join(VARIANTS)}")
        if not 0 <= self.light_one < SLOTS or self.step not in (1, -1):
            raise GeometryError(f"bad seating: light's point 1 at slot {self.light_one}, step {self.step}")

    @cached_property
    def rules(self) -> Variant:
        """The variant's rules, which number the dark player's points (RULES.md B2, N2)."""
        return variant_named(self.variant)

    @classmethod
    def for_home(cls, variant: str, light_home: str, mirror: bool = False) -> Seating:
        """The seating with light's home board in the ``light_home`` corner quarter.

        Backgammon: light's point 1 is the corner slot of that quarter (RULES.md B2). Nardy: the
        checkers travel counter-clockwise (clockwise when ``mirror``), so point 1 is the last slot of
        the quarter in travel direction (RULES.md N2).

        :raises GeometryError: on an unknown corner name or variant.
        """
        if light_home not in _QUARTER_START:
            raise GeometryError(f"unknown home corner {light_home!r}; use one of {', '.join(CORNERS)}")
        if variant not in VARIANTS:
            raise GeometryError(f"unknown variant {variant!r}; use one of {', '.join(VARIANTS)}")
        start = _QUARTER_START[light_home]
        if variant_named(variant).same_direction:
            # travelling counter-clockwise = increasing slots = decreasing point numbers
            return cls(variant, start + 5, -1) if not mirror else cls(variant, start, 1)
        corner_is_start = light_home in ("bottom-right", "top-left")
        return cls(variant, start if corner_is_start else start + 5, 1 if corner_is_start else -1)

    def light_home(self) -> str:
        """The corner name of the quarter holding light's points 1-6."""
        return corner_of(self.slot(LIGHT_PLAYER, 1))

    def _light_point_slot(self, point: int) -> int:
        return (self.light_one + self.step * (point - 1)) % SLOTS

    def slot(self, player: int, point: int) -> int:
        """Slot of ``player``'s point ``point`` (1-24). ``player`` 0 = light, 1 = dark.

        :raises GeometryError: for a point outside 1-24 or a player other than 0/1.
        """
        if not 1 <= point <= 24 or player not in (0, 1):
            raise GeometryError(f"player {player} has no point {point}: points run 1-24, players 0-1")
        if player == DARK_PLAYER:
            point = self.rules.opponent_point(point)
        return self._light_point_slot(point)

    def point(self, player: int, slot: int) -> int:
        """``player``'s point number (1-24) at ``slot`` (0-23); the inverse of :meth:`slot`.

        :raises GeometryError: for a slot outside 0-23.
        """
        if not 0 <= slot < SLOTS:
            raise GeometryError(f"slot {slot} is outside 0-23")
        light_point = ((slot - self.light_one) * self.step) % SLOTS + 1
        if player == LIGHT_PLAYER:
            return light_point
        return self.rules.opponent_point(light_point)

    def seat_bottom(self, player: int) -> bool:
        """True when ``player`` sits at the bottom edge: the edge holding his home board (points 1-6)."""
        return bottom_edge(self.slot(player, 1))

    def roller_for_half(self, right: bool) -> int:
        """The player who rolls in the given half (RULES.md B15: each rolls in the half on his right)."""
        bottom_player = LIGHT_PLAYER if self.seat_bottom(LIGHT_PLAYER) else DARK_PLAYER
        return bottom_player if right else 1 - bottom_player

    def slots_to_side(self, player: int, slot_counts: list[int], bar: int = 0) -> tuple[int, ...]:
        """One player's checkers as a 25-tuple in his own numbering (index i = point i + 1, 24 = bar).

        ``slot_counts`` has 24 entries: that player's checkers on each slot.
        """
        side = [0] * 25
        for s, n in enumerate(slot_counts):
            if n:
                side[self.point(player, s) - 1] = n
        side[24] = bar
        return tuple(side)

    def side_to_slots(self, player: int, side: tuple[int, ...] | list[int]) -> list[int]:
        """The inverse of :meth:`slots_to_side` for the 24 points (the bar entry is ignored)."""
        counts = [0] * SLOTS
        for i in range(24):
            if side[i]:
                counts[self.slot(player, i + 1)] = side[i]
        return counts


def corner_of(slot: int) -> str:
    """The corner quarter name holding ``slot``."""
    return CORNERS[slot // 6]


def all_seatings(variant: str) -> list[Seating]:
    """Every legal seating of a variant: four home corners (backgammon), four corners x two directions
    (nardy)."""
    if variant in VARIANTS and variant_named(variant).same_direction:
        return [Seating.for_home(variant, c, m) for c in CORNERS for m in (False, True)]
    return [Seating.for_home(variant, c) for c in CORNERS]



def start_layout(seating: Seating) -> tuple[tuple[str | None, int], ...]:
    """The variant's start position in ``seating`` as the camera sees it: 24 ``(colour, count)`` by
    slot, colour ``"light"``/``"dark"`` (None on an empty point) (RULES.md B2, N2)."""
    side = seating.rules.start_side()
    cells: list[tuple[str | None, int]] = [(None, 0)] * SLOTS
    for player, colour in ((LIGHT_PLAYER, "light"), (DARK_PLAYER, "dark")):
        for slot, n in enumerate(seating.side_to_slots(player, side)):
            if n:
                cells[slot] = (colour, n)
    return tuple(cells)


def start_layouts(variant: str) -> list[tuple[tuple[str | None, int], ...]]:
    """The variant's start position as the camera may see it: :func:`start_layout` of every legal
    seating (:func:`all_seatings`), each distinct layout once, in seating order (RULES.md B2: 2-5-3-5
    and its mirror; N2: all 15 on each head, and the mirror layout). Calibration checks the board
    against these.

    :raises GeometryError: for an unknown variant.
    """
    if variant not in VARIANTS:
        raise GeometryError(f"unknown variant {variant!r}; use one of {', '.join(VARIANTS)}")
    out: list[tuple[tuple[str | None, int], ...]] = []
    for seating in all_seatings(variant):
        layout = start_layout(seating)
        # N2: the heads stand in the board's corners (slots 0, 11, 12, 23), never beside the bar
        if any(n == _HEAD for s, (_, n) in enumerate(layout) if s not in _CORNER_SLOTS):
            continue
        if layout not in out:
            out.append(layout)
    return out


#: The camera's slots at the board's four corners (DESIGN.md "One coordinate system").
_CORNER_SLOTS = frozenset({0, 11, 12, 23})
#: A nardy head: all fifteen of a side on one point (RULES.md N2).
_HEAD = 15
