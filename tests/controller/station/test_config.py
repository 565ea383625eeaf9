"""The station file (controller.station.config): modes, validation of every key, [leds], the example."""

from __future__ import annotations

import re
import tomllib
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.station import config
from controller.station.config import ConfigError


def test_example_parses_to_the_defaults() -> None:
    cfg = config.parse(tomllib.loads(config.EXAMPLE), "example")
    assert cfg == config.StationConfig(preset="seed")


@pytest.mark.parametrize("preset", ["usbgf", "ukbgf"])
def test_tournament_presets_imply_tournament_mode(preset: str) -> None:
    cfg = config.parse({"preset": preset, "rules": {"match_length": 5}})
    assert cfg.mode == "tournament"
    assert cfg.settings.hints == "referee"
    assert cfg.settings.clock is not None


def test_tournament_preset_refuses_another_mode() -> None:
    with pytest.raises(ConfigError, match="tournament"):
        config.parse({"preset": "usbgf", "mode": "learner"}, "s.toml")


@pytest.mark.parametrize(("mode", "hints"), list(config.MODE_HINTS.items()))
def test_mode_sets_hints_and_reads_back(mode: str, hints: str) -> None:
    cfg = config.parse({"mode": mode})
    assert cfg.settings.hints == hints
    assert config.mode_of(cfg.settings) == mode


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ({"rules": {"match_length": "seven"}}, '[rules] match_length = "seven"; use an integer from 0 to 64'),
        ({"rules": {"match_length": -1}}, "match_length = -1; use an integer from 0 to 64"),
        ({"clock": {"presett": "usbgf"}}, "presett in [clock]"),
        ({"buttons": {"clok": 3}}, "clok in [buttons]"),
        ({"buttons": {"dispute": 99}}, "[buttons] dispute = 99; use a BCM pin number, 0-27"),
        ({"buttons": {"take": 5, "drop": 5}}, "take and drop are both on pin 5"),
        ({"rules": {"colour": 1}}, "colour in [rules]"),
        ({"mode": "club"}, 'mode = "club"; use "tournament", "home" or "learner"'),
        ({"mode": True}, "mode = true; use a string"),
        ({"preset": "fibs"}, 'preset = "fibs"; use "seed", "usbgf", "ukbgf" or "legal-moves"'),
        ({"preset": ["usbgf"]}, 'preset = ["usbgf"]; use a string'),
        ({"rules": {"variant": "chess"}}, '[rules] variant = "chess"; use "backgammon" or "nardy"'),
        ({"rules": {"crawford": "yes"}}, '[rules] crawford = "yes"; use true or false'),
        ({"rules": {"light_home": "middle"}}, '"auto", "bottom-right"'),
        ({"rules": {"light_player": "a:b"}}, '[rules] light_player = "a:b"; use a name of 1-60'),
        ({"rules": {"hint_noise": float("nan")}}, "hint_noise = nan; use a number from 0 to 1"),
        ({"rules": {"jacobi": None}}, "[rules] jacobi = nothing; use true or false"),
        ({"leds": {"count": "many"}}, '[leds] count = "many"; use the number of LEDs'),
        ({"leds": {"serpentine": {"leds_per_point": "3"}}}, '[leds.serpentine] leds_per_point = "3"'),
        ({"leds": {"serpentine": {"snake": 1}}}, "[leds.serpentine] snake = 1; use true or false"),
        ({"leds": {"zones": {"x": [1]}}}, "[leds.zones] unknown zone x; use 0-23"),
        ({"leds": {"zones": {"3": [1, "a"]}}}, '[leds.zones] 3 = [1, "a"]; use an array'),
        ({"leds": {"serpentine": 3}}, "[leds] serpentine = 3; use a table, [leds.serpentine]"),
        ({"rules": "x"}, 'rules = "x"; use a table, [rules]'),
        ({"clock": {"reserve": {"a": 1}}}, "[clock] reserve = { a = 1 }; use seconds"),
        ({"source": False}, "source = false; use a camera index"),
        # issue 15: what `tavla run` would refuse or ignore is refused at load, `tavla config check` too
        ({"pin": "123"}, 'pin = "123" is 3 characters; a referee PIN needs 6 or more'),
        ({"pin": "1234 678"}, 'pin = "1234 678" holds a space'),
        ({"preset": "usbgf", "clock": {"reserve": 100}}, '[clock] reserve = 100 with the usbgf clock'),
        ({"clock": {"preset": "uk", "delay": 5}}, '[clock] delay = 5 with the uk clock ([clock] preset)'),
        ({"rules": {"variant": "nardy", "beaver": True}}, '[rules] beaver = true with variant = "nardy"'),
        ({"rules": {"variant": "nardy", "jacobi": False}}, "which has no doubling cube"),
        ({"rules": {"variant": "nardy", "automatic_doubles": True}}, "automatic_doubles = true with"),
    ],
)
def test_bad_keys_name_file_key_and_allowed_values(raw: dict[str, Any], words: str) -> None:
    with pytest.raises(ConfigError) as err:
        config.parse(raw, "station.toml")
    assert str(err.value).startswith("station.toml: ")
    assert words in str(err.value)
    assert not re.search(r"\b(True|False|None)\b|'", str(err.value)), "a Python spelling"


def _example_tables() -> dict[str, dict[str, str]]:
    """Each table of the example ("" the top level) -> its keys, commented ones too -> the line."""
    tables: dict[str, dict[str, str]] = {"": {}}
    table = ""
    for line in config.EXAMPLE.splitlines():
        bare = line.lstrip("# ")
        header = re.match(r"\[([a-z.]+)\]", bare)
        if header:
            table = header.group(1)
            tables.setdefault(table, {})
            parent, _, name = table.rpartition(".")
            tables[parent][name] = line  # a table is a key of the one around it
            continue
        key = re.match(r"([A-Za-z0-9_]+) = ", bare)
        if key:
            tables[table][key.group(1)] = line
    return tables


def test_the_example_shows_every_key_the_loader_accepts() -> None:
    """Issue 15: every key of every table, with its default and a comment; the lists cannot drift."""
    tables = _example_tables()
    for table, keys in config.ACCEPTED.items():
        assert set(tables[table]) == set(keys), table
    assert set(tables) == {*config.ACCEPTED, "leds.zones"}
    for table, keys in tables.items():
        for key, line in keys.items():
            if line.lstrip("# ").startswith("["):
                continue  # a table's header
            assert re.search(r" = \S.*#\s*\S", line), f"[{table}] {key}: no comment in {line!r}"


def test_the_examples_values_are_the_defaults() -> None:
    """Each uncommented [rules] value is the Settings default, and each commented one parses alone."""
    defaults = config.Settings()
    for key, line in _example_tables()["rules"].items():
        if line.lstrip("# ").startswith("["):
            continue
        value = tomllib.loads(line.lstrip("# "))[key]
        if not line.startswith("#"):
            assert value == getattr(defaults, key), key
        config.parse({"rules": {key: value}} if key != "hints" else {})
    for table in ("clock", "buttons", "leds", "leds.serpentine"):
        lines = _example_tables()[table].values()
        body = "\n".join(line.lstrip("# ") for line in lines if not line.lstrip("# ").startswith("["))
        raw = tomllib.loads(body)
        config.parse({"clock": raw} if table == "clock" else {"buttons": raw} if table == "buttons"
                     else {"leds": raw if table == "leds" else {"serpentine": raw}})


def test_leds_table_accepted(tmp_path: Any) -> None:
    f = tmp_path / "s.toml"
    f.write_text("[leds]\ncount = 80\n[leds.serpentine]\nleds_per_point = 3\nbar_leds = 2\noff_leds = 1\n")
    cfg = config.load(f)
    assert cfg.layout() is not None


def test_a_reserve_alone_is_a_simple_clock_not_ignored() -> None:
    s = config.parse({"clock": {"reserve": 600}}).settings
    assert (s.clock, s.clock_reserve, s.clock_delay) == ("simple", 600.0, 12.0)
    s = config.parse({"preset": "usbgf", "clock": {"preset": "simple", "reserve": 100}}).settings
    assert (s.clock, s.clock_reserve) == ("simple", 100.0)  # the file's own clock over the preset's


def test_nardy_takes_the_cube_keys_at_their_defaults() -> None:
    """`tavla config example` with variant = "nardy": the cube keys written at their defaults pass."""
    text = config.EXAMPLE.replace('variant = "backgammon"', 'variant = "nardy"')
    assert config.parse(tomllib.loads(text), "example").settings.variant == "nardy"


def test_clock_table_sets_the_clock() -> None:
    cfg = config.parse({"clock": {"preset": "simple", "reserve": 300, "delay": 8}})
    s = cfg.settings
    assert (s.clock, s.clock_reserve, s.clock_delay) == ("simple", 300.0, 8.0)


_scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=12))
_keys = st.one_of(
    st.sampled_from(
        [
            *config._TOP,
            "match_length",
            "variant",
            "hints",
            "preset",
            "count",
            "zones",
            "serpentine",
            "leds_per_point",
            "dispute",
            "reserve",
            "delay",
            "light_player",
            "hint_plies",
            "hint_noise",
        ]
    ),
    st.text(max_size=8),
)
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_keys, inner, max_size=4),
    max_leaves=12,
)
_tables = st.dictionaries(_keys, _values, max_size=6)


def _only_config_error(raw: dict[str, Any]) -> None:
    try:
        config.parse(raw, "fuzz.toml")
    except ConfigError:
        pass


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_tables)
def test_parse_raises_only_config_error(raw: dict[str, Any]) -> None:
    _only_config_error(raw)


@pytest.mark.slow
@settings(max_examples=50_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_tables)
def test_parse_raises_only_config_error_long(raw: dict[str, Any]) -> None:
    _only_config_error(raw)
