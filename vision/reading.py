"""The value types vision hands to the controller: what one frame (or one settled run of frames) shows.

Pure data, no numpy or cv2, so the controller's pure code may import it (DESIGN.md "Packages").
Coordinates: ``slot`` 0-23 counter-clockwise from the bottom-right corner of the rectified board
(slots 0-11 bottom edge right to left, 12-23 top edge left to right); ``image_xy`` is a pixel
position ``(x, y)`` in the *input* image, floats.

The JSON form (``BoardReading.to_json``) is the `tavla read` contract of DESIGN.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

LIGHT = "light"
DARK = "dark"
COLOURS = (LIGHT, DARK)


class DieStatus(StrEnum):
    """Where and how a die lies (RULES.md B15, N10 say which of these force a re-throw)."""

    FLAT = "flat"
    COCKED = "cocked"
    OFF_BOARD = "off_board"
    WRONG_HALF = "wrong_half"
    ON_BAR = "on_bar"
    ON_CHECKER = "on_checker"


class FrameStatus(StrEnum):
    """Why a frame did or did not give a reading."""

    OK = "ok"
    OCCLUDED = "occluded"
    NO_BOARD = "no_board"
    MOVING = "moving"
    TOO_DARK = "too_dark"
    # the board was read, but its counts are no set's: more than 15 checkers of one colour on the
    # points, the bar and off together (a misread; the counts are given, not to be trusted)
    TOO_MANY_CHECKERS = "too_many_checkers"
    # the board was found, but a third or more of its field is clipped white (over-exposed): the
    # colours there are lost, the counts are given, not to be trusted
    OVEREXPOSED = "overexposed"


XY = tuple[float, float]


@dataclass(frozen=True)
class PointReading:
    """One point's checker stack: ``count`` checkers of ``colour`` (``"light"``/``"dark"``, None if empty).

    ``confidence`` is 0.0-1.0; ``image_xy`` the pixel centre of the point's checker column.
    """

    slot: int
    image_xy: XY | None
    colour: str | None
    count: int
    confidence: float = 1.0

    def to_json(self) -> dict[str, Any]:
        return {
            "slot": self.slot,
            "image_xy": _xy(self.image_xy),
            "colour": self.colour,
            "count": self.count,
            "confidence": round(float(self.confidence), 3),
        }


@dataclass(frozen=True)
class DieReading:
    """One die: ``value`` 1-6 (None when unreadable), pixel centre, status, confidence 0.0-1.0."""

    value: int | None
    image_xy: XY | None
    status: DieStatus = DieStatus.FLAT
    confidence: float = 1.0

    def to_json(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "image_xy": _xy(self.image_xy),
            "status": DieStatus(self.status).value,
            "confidence": round(float(self.confidence), 3),
        }


@dataclass(frozen=True)
class CubeReading:
    """The doubling cube: ``value`` 2-64 (64 when centred means 1; None for a logo face or unreadable),
    ``position`` one of ``"centre"``, ``"bottom"``, ``"top"`` (the side of the rectified board it lies
    on) or None when not seen."""

    value: int | None
    position: str | None
    image_xy: XY | None = None

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "position": self.position, "image_xy": _xy(self.image_xy)}


@dataclass(frozen=True)
class BoardReading:
    """Everything read from one frame.

    ``points`` has 24 entries (slot order) when ``board_found``; ``bar`` and ``off`` map a colour name
    to a checker count. ``status`` says why a frame gave no usable reading. ``home`` names where
    the light player's home board lies in slot terms, when the reader can tell (``"bottom-right"``
    etc.), else None.
    """

    board_found: bool
    occluded: bool = False
    points: tuple[PointReading, ...] = ()
    bar: dict[str, int] = field(default_factory=dict)
    off: dict[str, int] = field(default_factory=dict)
    dice: tuple[DieReading, ...] = ()
    cube: CubeReading | None = None
    status: FrameStatus = FrameStatus.OK
    has_bar: bool | None = None
    image_size: tuple[int, int] | None = None  # (width, height) in pixels

    def counts(self) -> tuple[tuple[str | None, int], ...]:
        """(colour, count) per slot 0-23, the part of a reading the rules care about."""
        return tuple((p.colour, p.count) for p in self.points)

    def _per_colour(self, counts: dict[str, int]) -> dict[str, int]:
        # DESIGN.md: "counts per colour" -- with a board in view both colours are given, 0 included,
        # so a consumer never meets a missing key; with no board there is nothing to count.
        return {**dict.fromkeys(COLOURS, 0), **counts} if self.board_found else dict(counts)

    def to_json(self) -> dict[str, Any]:
        """The `tavla read` JSON object (DESIGN.md "Contracts"); ``bar``/``off`` give both colours
        (0 included) when a board was found."""
        return {
            "board_found": self.board_found,
            "occluded": self.occluded,
            "status": FrameStatus(self.status).value,
            "points": [p.to_json() for p in self.points],
            "bar": self._per_colour(self.bar),
            "off": self._per_colour(self.off),
            "dice": [d.to_json() for d in self.dice],
            "cube": self.cube.to_json() if self.cube else {"value": None, "position": None, "image_xy": None},
            "has_bar": self.has_bar,
            "image_size": list(self.image_size) if self.image_size else None,
        }


def _xy(xy: XY | None) -> list[float] | None:
    return None if xy is None else [round(float(xy[0]), 1), round(float(xy[1]), 1)]
