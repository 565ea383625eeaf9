"""Which LEDs of the strip light which zone (pure): 24 points, the bar and the two off trays
(zones of :mod:`firmware_bridge.frames`, DESIGN.md "One coordinate system").

A layout comes from the station config file (TOML or JSON, format in ``hardware_docs/layout.md``),
either generated for the usual serpentine wiring or listed zone by zone. The host sends it to the
device as SET_LAYOUT runs after every HELLO, so the firmware holds no station-specific table.

Default serpentine path (seen from above, board rectified as in DESIGN.md): the strip enters at the
bottom-right off tray (zone 25), runs right to left under slots 0-5, the bottom half of the bar,
slots 6-11, crosses to the top-left, runs left to right under slots 12-17, the top half of the bar,
slots 18-23 and ends at the top-right off tray (zone 26). With several LEDs per point the strip
snakes up one point's column and down the next (``snake = true``), so every other point is wired
tip-to-base; each zone's indices are kept base (board edge) to tip.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_bridge.errors import LayoutError
from firmware_bridge.frames import BAR_ZONE, OFF_ZONES, ZONE_COUNT
from firmware_bridge.protocol import MAX_RUNS

ZONE_NAMES = {BAR_ZONE: "bar", OFF_ZONES[0]: "off_bottom", OFF_ZONES[1]: "off_top"}
_NAME_TO_ZONE = {v: k for k, v in ZONE_NAMES.items()}
# the keys of the [leds] table and of its [leds.serpentine] table (the station file documents them)
LEDS_KEYS = ("count", "serpentine", "zones")
SERPENTINE_KEYS = ("leds_per_point", "bar_leds", "off_leds", "first_led", "snake")


def zone_name(zone: int) -> str:
    """``"0"``-``"23"`` for slots, ``"bar"``, ``"off_bottom"`` (25), ``"off_top"`` (26)."""
    return ZONE_NAMES.get(zone, str(zone))


def parse_zone(name: str | int) -> int:
    """Inverse of :func:`zone_name`. :raises LayoutError: on an unknown zone name."""
    # ASCII digits only: "²".isdigit() is True but int("²") raises
    if isinstance(name, int) and not isinstance(name, bool) or str(name).isascii() and str(name).isdigit():
        zone = int(name) if isinstance(name, int) or len(str(name)) <= 3 else ZONE_COUNT
        if 0 <= zone < ZONE_COUNT:
            return zone
    elif name in _NAME_TO_ZONE:
        return _NAME_TO_ZONE[name]
    raise LayoutError(f"unknown zone {name!r}: use 0-23, 'bar', 'off_bottom' or 'off_top'")


@dataclass(frozen=True)
class Layout:
    """LED indices per zone and the strip length.

    :param zones: ``ZONE_COUNT`` tuples of LED indices (0-based along the strip), base to tip;
        a zone may have none (not shown), a point should have at least one.
    :param led_count: LEDs on the strip.
    :raises LayoutError: on an index outside the strip, an LED shared by two zones, a point
        without LEDs, or more contiguous runs than the device's table holds (:data:`MAX_RUNS`).
    """

    zones: tuple[tuple[int, ...], ...]
    led_count: int

    def __post_init__(self) -> None:
        if len(self.zones) != ZONE_COUNT:
            raise LayoutError(f"a layout has {ZONE_COUNT} zones, got {len(self.zones)}")
        if not 1 <= self.led_count <= 0xFFFF:
            raise LayoutError(f"led count {self.led_count} is outside 1-65535")
        owner: dict[int, int] = {}
        for zone, leds in enumerate(self.zones):
            for led in leds:
                if not 0 <= led < self.led_count:
                    raise LayoutError(
                        f"zone {zone_name(zone)}: LED {led} is outside the strip (0-{self.led_count - 1})"
                    )
                if led in owner:
                    raise LayoutError(
                        f"LED {led} is in both zone {zone_name(owner[led])} and zone {zone_name(zone)}"
                    )
                owner[led] = zone
        for zone in range(24):
            if not self.zones[zone]:
                raise LayoutError(f"point (slot) {zone} has no LEDs")
        if len(self.runs()) > MAX_RUNS:
            raise LayoutError(f"the layout needs {len(self.runs())} runs; the device holds {MAX_RUNS}")

    @classmethod
    def serpentine(
        cls,
        leds_per_point: int = 1,
        bar_leds: int = 1,
        off_leds: int = 1,
        first_led: int = 0,
        snake: bool = True,
        led_count: int | None = None,
    ) -> Layout:
        """The default wiring described in the module docstring.

        :param bar_leds: LEDs of each bar half (the bar zone gets ``2 * bar_leds``).
        :param off_leds: LEDs under each off tray.
        :param first_led: strip index of the first LED used (skip LEDs hidden in the frame).
        :param led_count: strip length; default exactly the LEDs used.
        """
        if leds_per_point < 1 or bar_leds < 0 or off_leds < 0 or first_led < 0:
            raise LayoutError("leds_per_point must be >= 1; bar_leds, off_leds, first_led >= 0")
        zones: dict[int, list[int]] = {z: [] for z in range(ZONE_COUNT)}
        nxt = first_led
        point_index = 0

        def take(zone: int, n: int, column: bool) -> None:
            nonlocal nxt, point_index
            run = list(range(nxt, nxt + n))
            if column:
                if snake and point_index % 2 == 1:
                    run.reverse()  # wired tip to base on the way back down
                point_index += 1
            zones[zone].extend(run)
            nxt += n

        take(OFF_ZONES[0], off_leds, False)
        for slot in range(0, 6):
            take(slot, leds_per_point, True)
        take(BAR_ZONE, bar_leds, False)
        for slot in range(6, 18):
            take(slot, leds_per_point, True)
            if slot == 11:
                point_index = 0  # top row starts a new snake
        take(BAR_ZONE, bar_leds, False)
        for slot in range(18, 24):
            take(slot, leds_per_point, True)
        take(OFF_ZONES[1], off_leds, False)
        return cls(tuple(tuple(zones[z]) for z in range(ZONE_COUNT)), led_count or nxt)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Layout:
        """Build from the ``[leds]`` table of a station config (or a mapping that is that table).

        :raises LayoutError: on unknown keys, wrong types or an invalid layout.
        """
        table = data.get("leds", data)
        if not isinstance(table, Mapping):
            raise LayoutError("the [leds] section must be a table")
        unknown = set(table) - set(LEDS_KEYS)
        if unknown:
            raise LayoutError(f"unknown key(s) in [leds]: {', '.join(sorted(unknown))}")
        count = table.get("count")
        if count is not None and not isinstance(count, int):
            raise LayoutError(f"leds.count must be an integer, got {count!r}")
        if "zones" in table:
            zones: list[tuple[int, ...]] = [() for _ in range(ZONE_COUNT)]
            spec = table["zones"]
            if not isinstance(spec, Mapping):
                raise LayoutError("leds.zones must be a table of zone = [LED indices]")
            for name, leds in spec.items():
                if not isinstance(leds, list) or not all(isinstance(i, int) for i in leds):
                    raise LayoutError(f"leds.zones.{name} must be a list of LED indices, got {leds!r}")
                zones[parse_zone(name)] = tuple(leds)
            if count is None:
                count = max((i for z in zones for i in z), default=-1) + 1
            return cls(tuple(zones), count)
        options = table.get("serpentine", {})
        if not isinstance(options, Mapping):
            raise LayoutError("leds.serpentine must be a table")
        bad = set(options) - set(SERPENTINE_KEYS)
        if bad:
            raise LayoutError(f"unknown key(s) in [leds.serpentine]: {', '.join(sorted(bad))}")
        return cls.serpentine(**options, led_count=count)

    @classmethod
    def from_file(cls, path: str | Path) -> Layout:
        """Load from a ``.toml`` or ``.json`` station config file.

        :raises LayoutError: on an unreadable, unparsable or invalid file (message names the file).
        """
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
            data = json.loads(text) if p.suffix.lower() == ".json" else tomllib.loads(text)
        except (OSError, ValueError) as exc:
            raise LayoutError(f"cannot read the LED layout from {p}: {exc}") from exc
        try:
            return cls.from_mapping(data)
        except LayoutError as exc:
            raise LayoutError(f"{p}: {exc}") from exc

    def runs(self) -> tuple[tuple[int, int, int], ...]:
        """Contiguous ``(zone, start, count)`` runs, as sent in SET_LAYOUT (count <= 255)."""
        out: list[tuple[int, int, int]] = []
        for zone, leds in enumerate(self.zones):
            for start, count in _runs(sorted(leds)):
                out.append((zone, start, count))
        return tuple(out)

    def zone_of(self) -> dict[int, int]:
        """LED index -> zone, for the LEDs that belong to a zone."""
        return {led: zone for zone, leds in enumerate(self.zones) for led in leds}


def _runs(leds: Iterable[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for led in leds:
        if out and out[-1][0] + out[-1][1] == led and out[-1][1] < 255:
            out[-1] = (out[-1][0], out[-1][1] + 1)
        else:
            out.append((led, 1))
    return out


DEFAULT_LAYOUT = Layout.serpentine()
