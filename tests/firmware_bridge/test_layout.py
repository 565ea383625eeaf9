"""LED layout: the serpentine default, station files (TOML and JSON), and clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_bridge.errors import LayoutError
from firmware_bridge.frames import BAR_ZONE, OFF_ZONES, ZONE_COUNT
from firmware_bridge.layout import DEFAULT_LAYOUT, Layout, parse_zone, zone_name

DOCS = Path(__file__).resolve().parents[2] / "hardware_docs" / "layout.md"


def test_default_path_runs_off_tray_slots_bar_and_back() -> None:
    z = DEFAULT_LAYOUT.zones
    assert DEFAULT_LAYOUT.led_count == 28
    assert z[OFF_ZONES[0]] == (0,)
    assert [z[s][0] for s in range(6)] == [1, 2, 3, 4, 5, 6]
    assert z[BAR_ZONE] == (7, 20)
    assert [z[s][0] for s in range(6, 18)] == list(range(8, 20))
    assert [z[s][0] for s in range(18, 24)] == list(range(21, 27))
    assert z[OFF_ZONES[1]] == (27,)


def test_serpentine_snakes_up_and_down_the_point_columns() -> None:
    layout = Layout.serpentine(leds_per_point=3, bar_leds=2, off_leds=0)
    # base-to-tip order: even points are wired base first, odd points tip first
    assert layout.zones[0] == (0, 1, 2)
    assert layout.zones[1] == (5, 4, 3)
    assert layout.zones[BAR_ZONE] == (18, 19, 56, 57)
    assert layout.zones[12] == (38, 39, 40)  # the top row starts a new snake
    assert layout.led_count == 24 * 3 + 4
    assert len(layout.runs()) == 24 + 2  # each point one run, the bar two


def test_every_led_belongs_to_one_zone() -> None:
    layout = Layout.serpentine(leds_per_point=2, bar_leds=1, off_leds=2, first_led=3)
    owners = layout.zone_of()
    assert len(owners) == sum(len(z) for z in layout.zones)
    assert min(owners) == 3


def test_toml_station_file(tmp_path: Path) -> None:
    path = tmp_path / "station.toml"
    path.write_text(
        "[camera]\nindex = 0\n\n[leds]\ncount = 100\n[leds.serpentine]\nleds_per_point = 2\nbar_leds = 2\n"
    )
    layout = Layout.from_file(path)
    assert layout.led_count == 100
    assert layout == Layout.serpentine(leds_per_point=2, bar_leds=2, led_count=100)


def test_json_zone_by_zone(tmp_path: Path) -> None:
    zones = {str(s): [s] for s in range(24)} | {"bar": [24, 25], "off_bottom": [26], "off_top": []}
    path = tmp_path / "station.json"
    path.write_text(json.dumps({"leds": {"zones": zones}}))
    layout = Layout.from_file(path)
    assert layout.zones[BAR_ZONE] == (24, 25) and layout.zones[26] == ()
    assert layout.led_count == 27


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"zones": {"3": [5], "4": [5]}}, "LED 5 is in both zone 3 and zone 4"),
        ({"count": 10, "serpentine": {}}, "outside the strip"),
        ({"zones": {"25": [1]}}, "point (slot) 0 has no LEDs"),
        ({"zones": {"middle": [1]}}, "unknown zone 'middle'"),
        ({"serpentine": {"leds_per_pt": 2}}, "unknown key(s) in [leds.serpentine]: leds_per_pt"),
        ({"colour": "red"}, "unknown key(s) in [leds]: colour"),
        ({"zones": {"0": "1-3"}}, "must be a list of LED indices"),
    ],
)
def test_bad_layouts_say_what_is_wrong(table: dict[str, object], message: str) -> None:
    with pytest.raises(LayoutError) as info:
        Layout.from_mapping({"leds": table})
    assert message in str(info.value)


def test_unreadable_file_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("[leds\n")
    with pytest.raises(LayoutError, match="broken.toml"):
        Layout.from_file(path)


def test_zone_names_round_trip() -> None:
    for zone in range(ZONE_COUNT):
        assert parse_zone(zone_name(zone)) == zone


def test_the_documented_example_loads(tmp_path: Path) -> None:
    text = DOCS.read_text(encoding="utf-8")
    example = text.split("```toml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "station.toml"
    path.write_text(example)
    layout = Layout.from_file(path)
    assert layout.led_count >= 24
