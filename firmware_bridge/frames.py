"""The LED picture the controller asks for, as pure data (no serial, no cobs), so the controller's pure
code may build it (DESIGN.md "Packages").

Zones: 0-23 are the board's slots (DESIGN.md "One coordinate system": counter-clockwise from the
bottom-right corner of the rectified board), 24 is the bar, 25 and 26 the two off trays
(25 = the tray beside slots 0-11's end nearest slot 0, i.e. bottom/right; 26 the other).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

ZONE_COUNT = 27
BAR_ZONE = 24
OFF_ZONES = (25, 26)

RGB = tuple[int, int, int]

OFF: RGB = (0, 0, 0)
WHITE: RGB = (255, 255, 255)
GREEN: RGB = (0, 200, 0)
BLUE: RGB = (0, 80, 255)
AMBER: RGB = (255, 140, 0)
RED: RGB = (255, 0, 0)


class Effect(IntEnum):
    """How the device animates a zone; the device renders it so link jitter never shows."""

    STEADY = 0
    BLINK = 1
    PULSE = 2


@dataclass(frozen=True)
class ZoneLight:
    """Colour (8-bit R, G, B) and effect of one zone."""

    colour: RGB = OFF
    effect: Effect = Effect.STEADY


@dataclass(frozen=True)
class LedFrame:
    """The full LED state: exactly ``ZONE_COUNT`` zones, plus a global brightness 0-255.

    :raises ValueError: on a wrong zone count or a colour channel outside 0-255.
    """

    zones: tuple[ZoneLight, ...]
    brightness: int = 128

    def __post_init__(self) -> None:
        if len(self.zones) != ZONE_COUNT:
            raise ValueError(f"an LED frame has {ZONE_COUNT} zones, got {len(self.zones)}")
        for i, z in enumerate(self.zones):
            if len(z.colour) != 3 or any(not 0 <= c <= 255 for c in z.colour):
                raise ValueError(f"zone {i}: colour {z.colour!r} is not three values 0-255")
        if not 0 <= self.brightness <= 255:
            raise ValueError(f"brightness {self.brightness} is outside 0-255")

    @classmethod
    def dark(cls, brightness: int = 128) -> LedFrame:
        """Every zone off."""
        return cls(tuple(ZoneLight() for _ in range(ZONE_COUNT)), brightness)

    @classmethod
    def lit(
        cls,
        zones: dict[int, RGB] | set[int] | frozenset[int],
        colour: RGB = GREEN,
        effect: Effect = Effect.STEADY,
        brightness: int = 128,
    ) -> LedFrame:
        """A frame lighting the given zones (a set, all in ``colour``; or a zone -> colour map)."""
        colours = dict(zones) if isinstance(zones, dict) else {z: colour for z in zones}
        for z in colours:
            if not 0 <= z < ZONE_COUNT:
                raise ValueError(f"zone {z} is outside 0-{ZONE_COUNT - 1}")
        return cls(
            tuple(
                ZoneLight(colours[i], effect) if i in colours else ZoneLight() for i in range(ZONE_COUNT)
            ),
            brightness,
        )

    def lit_zones(self) -> frozenset[int]:
        """Zones whose colour is not off."""
        return frozenset(i for i, z in enumerate(self.zones) if z.colour != OFF)
