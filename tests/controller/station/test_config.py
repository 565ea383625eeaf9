"""The station file (controller.station.config): modes, validation of every key, [leds], the example."""

from __future__ import annotations

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
        ({"rules": {"match_length": "seven"}}, "match_length = 'seven'; use an integer"),
        ({"rules": {"match_length": -1}}, "match_length = -1; use 0 to 64"),
        ({"clock": {"presett": "usbgf"}}, "presett in [clock]"),
        ({"buttons": {"clok": 3}}, "clok in [buttons]"),
        ({"buttons": {"dispute": 99}}, "BCM pin"),
        ({"rules": {"colour": 1}}, "colour in [rules]"),
        ({"mode": "club"}, "tournament, home, learner"),
        ({"preset": "fibs"}, "seed, usbgf"),
        ({"rules": {"variant": "chess"}}, "backgammon"),
        ({"leds": {"count": "many"}}, "[leds]"),
        ({"rules": "x"}, "must be a table"),
    ],
)
def test_bad_keys_name_file_key_and_allowed_values(raw: dict[str, Any], words: str) -> None:
    with pytest.raises(ConfigError) as err:
        config.parse(raw, "station.toml")
    assert str(err.value).startswith("station.toml: ")
    assert words in str(err.value)


def test_leds_table_accepted(tmp_path: Any) -> None:
    f = tmp_path / "s.toml"
    f.write_text("[leds]\ncount = 80\n[leds.serpentine]\nleds_per_point = 3\nbar_leds = 2\noff_leds = 1\n")
    cfg = config.load(f)
    assert cfg.layout() is not None


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


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_tables)
def test_parse_raises_only_config_error(raw: dict[str, Any]) -> None:
    _only_config_error(raw)


@pytest.mark.slow
@settings(max_examples=50_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_tables)
def test_parse_raises_only_config_error_long(raw: dict[str, Any]) -> None:
    _only_config_error(raw)
