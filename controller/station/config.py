"""The station file (TOML): the mode, the rules, where the board and the devices are, button pins,
the clock and the LED layout. :data:`EXAMPLE` is the documented file (``tavla config example``).

Every key is checked at load: a wrong type, an unknown choice or an unknown key in any table is a
:class:`ConfigError` naming the file, the key and what it takes -- nothing else ever escapes
:func:`parse` (issue 18: a fuzz test holds it to that).

The mode (issue 15 item 2) sets who sees hints: ``tournament`` none at all (USBGF and UKBGF forbid
electronic aids; the ``usbgf`` and ``ukbgf`` presets imply it), ``home`` hints on request, ``learner``
the legal moves and gnubg's best play after every roll. It maps onto the rules' ``hints`` setting, so
the journal's MatchStarted records it (:func:`mode_of` reads it back).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from controller.game.rulings import PRESETS, Settings, SettingsError
from controller.rules.errors import TavlaError

DEFAULT_SERIAL = "ledsim://"
MODES = ("tournament", "home", "learner")
# the rules' hints setting each mode stands for (controller.game.rulings.Settings.hints)
MODE_HINTS = {"tournament": "referee", "home": "home", "learner": "assistant"}
TOURNAMENT_PRESETS = ("usbgf", "ukbgf")
BUTTON_NAMES = ("clock_light", "clock_dark", "dispute", "double", "take", "drop")
CLOCK_PRESETS = ("usbgf", "uk", "simple")
_BCM_PINS = range(0, 28)

EXAMPLE = """\
# Tavla station file: `tavla run --config station.toml`. Every key is optional; the values shown
# are the defaults (a commented key has no default). Unknown keys are refused.

mode = "learner"              # tournament | home | learner; the usbgf and ukbgf presets imply tournament
preset = "seed"               # seed | usbgf | ukbgf | legal-moves  (rule sets, RULES.md)
# source = "0"                # camera index, picamera[:N], device path, video file or image folder
serial = "ledsim://"          # LED board: port, pyserial URL, usb:VID:PID[:SERIAL] or auto
# journal = "match.jsonl"     # resumed when it exists and is unfinished; default a new file
# export_dir = "matches"      # .sgf and .mat written here at each game's end (default: by the journal)
# calibration = "board.json"  # a saved board calibration for a fixed camera
# pin = "471108"              # the referee's PIN on the station's page (`tavla run --web`)

[rules]                       # explicit rules override the preset
variant = "backgammon"        # backgammon | nardy
match_length = 0              # 0 = money play, else the match length in points
light_home = "auto"           # auto | bottom-right | bottom-left | top-right | top-left
crawford = true
premature_roll = "void"       # void | stands
illegal_move = "opponent_chooses"  # opponent_chooses | must_correct
die_on_checker_stands = false
beaver = false
automatic_doubles = false
cube_progression = "geometric"     # geometric | arithmetic
light_player = "light"        # names in the match records (RULES.md B18)
dark_player = "dark"
team_format = "single"        # single | consultation | team | chouette
hint_plies = 0                # gnubg's search depth for hints

[clock]                       # absent: no clock (the usbgf and ukbgf presets set one)
# preset = "usbgf"            # usbgf | uk | simple
# reserve = 600.0             # simple: seconds per player
# delay = 12.0                # simple: seconds per move before the reserve runs

[buttons]                     # BCM pin numbers; absent = no buttons
# clock_light = 17
# clock_dark = 27
# dispute = 22
# double = 23
# take = 24
# drop = 25

[leds]                        # the LED strip's layout (hardware_docs/layout.md)
# count = 80
# [leds.serpentine]
# leds_per_point = 3
# bar_leds = 2
# off_leds = 2
"""


class ConfigError(TavlaError, ValueError):
    """A station file that cannot be used (names the file, the key and what it takes)."""


@dataclass(frozen=True)
class StationConfig:
    """The parsed station file. ``settings`` are the rules (the mode's hints included); ``buttons``
    maps a button name to a BCM pin; ``leds`` is the ``[leds]`` table (firmware_bridge.layout)."""

    settings: Settings = field(default_factory=Settings)
    mode: str = "learner"
    preset: str | None = None
    source: str | None = None
    serial: str = DEFAULT_SERIAL
    journal: str | None = None
    export_dir: str | None = None
    buttons: dict[str, int] = field(default_factory=dict)
    leds: dict[str, Any] = field(default_factory=dict)
    calibration: str | None = None
    pin: str | None = None  # the referee's PIN on the station's page (issue 16)

    def layout(self) -> Any:
        """The LED layout of ``[leds]`` (None when absent: the firmware's default)."""
        if not self.leds:
            return None
        from firmware_bridge.layout import Layout

        return Layout.from_mapping(self.leds)


_STRINGS = ("preset", "mode", "serial", "journal", "export_dir", "calibration", "pin")
_TABLES = ("rules", "clock", "buttons", "leds")
_TOP = (*_STRINGS, "source", *_TABLES)
_SETTING_TYPES = {f.name: f.type for f in fields(Settings)}
# numeric settings with a range (match_length 0 = money play; hint_plies is gnubg's search depth)
_RANGES = {"match_length": (0, 64), "auto_double_limit": (0, 64), "hint_plies": (0, 4), "hint_noise": (0, 1)}


def mode_of(settings: Settings) -> str:
    """The mode that ``settings`` stand for (their ``hints``)."""
    return next(m for m, h in MODE_HINTS.items() if h == settings.hints)


def with_mode(settings: Settings, mode: str, preset: str | None = None, where: str = "--mode") -> Settings:
    """``settings`` under ``mode``.

    :raises ConfigError: on an unknown mode, or a mode other than tournament under a tournament preset.
    """
    if mode not in MODES:
        raise ConfigError(f"{where}: mode = {mode!r}; use one of {', '.join(MODES)}")
    if preset in TOURNAMENT_PRESETS and mode != "tournament":
        raise ConfigError(
            f"{where}: mode = {mode!r} under preset {preset!r}; its tournament rules forbid electronic "
            'aids: use mode = "tournament" or another preset'
        )
    return replace(settings, hints=MODE_HINTS[mode])


def load(path: str | Path | None) -> StationConfig:
    """Read a station file (None: the defaults).

    :raises ConfigError: when the file is missing, unreadable, not TOML, or holds an unknown key or value.
    """
    if path is None:
        return StationConfig()
    p = Path(path)
    try:
        raw = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigError(f"station file {p} does not exist") from exc
    except IsADirectoryError as exc:
        raise ConfigError(f"station file {p} is a folder; give the .toml file") from exc
    except OSError as exc:
        raise ConfigError(f"station file {p} cannot be read: {exc.strerror or exc}") from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"station file {p} is not valid TOML: {exc}") from exc
    return parse(raw, str(p))


def _unknown(where: str, table: str, got: Mapping[str, Any], known: tuple[str, ...] | set[str]) -> None:
    bad = sorted(str(k) for k in set(got) - set(known))
    if bad:
        raise ConfigError(
            f"{where}: unknown key(s) {', '.join(bad)} in {table}; known: {', '.join(sorted(known))}"
        )


def _table(raw: Mapping[str, Any], name: str, where: str) -> dict[str, Any]:
    value = raw.get(name, {})
    if not isinstance(value, Mapping):
        raise ConfigError(f"{where}: {name} = {value!r}; it must be a table, [{name}]")
    return dict(value)


def _check_setting(where: str, key: str, value: Any) -> Any:
    """``value`` for the Settings field ``key``, by the field's type (a TOML int is a float too)."""
    kind = str(_SETTING_TYPES[key])
    if "bool" in kind:
        ok = isinstance(value, bool)
        wants = "true or false"
    elif kind.startswith("int"):
        ok = isinstance(value, int) and not isinstance(value, bool)
        wants = "an integer"
    elif kind.startswith("float"):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        value = float(value) if ok else value
        wants = "a number"
    else:
        ok = isinstance(value, str)
        wants = "a string"
    if not ok:
        raise ConfigError(f"{where}: [rules] {key} = {value!r}; use {wants}")
    return value


def parse(raw: Mapping[str, Any], where: str = "station file") -> StationConfig:
    """A station config from its TOML table.

    :raises ConfigError: on an unknown key, a wrong type or an unknown value (never anything else).
    """
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{where}: the station file must be a TOML table")
    _unknown(where, "the top level", raw, _TOP)
    for key in _STRINGS:
        if key in raw and not isinstance(raw[key], str):
            raise ConfigError(f"{where}: {key} = {raw[key]!r}; use a string")
    source = raw.get("source")
    if source is not None and (isinstance(source, bool) or not isinstance(source, (str, int))):
        raise ConfigError(f"{where}: source = {source!r}; use a camera index or a path")
    preset = raw.get("preset")
    if preset is not None and preset not in PRESETS:
        raise ConfigError(f"{where}: preset = {preset!r}; use one of {', '.join(PRESETS)}")
    rules = _table(raw, "rules", where)
    _unknown(where, "[rules]", rules, set(_SETTING_TYPES) - {"clock", "clock_reserve", "clock_delay"})
    rules = {k: _check_setting(where, k, v) for k, v in rules.items()}
    clock = _table(raw, "clock", where)
    _unknown(where, "[clock]", clock, ("preset", "reserve", "delay"))
    if "preset" in clock:
        if clock["preset"] not in CLOCK_PRESETS:
            raise ConfigError(
                f"{where}: [clock] preset = {clock['preset']!r}; use one of {', '.join(CLOCK_PRESETS)}"
            )
        rules["clock"] = clock["preset"]
    for key in ("reserve", "delay"):
        if key in clock:
            value = clock[key]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < 1e7:
                raise ConfigError(f"{where}: [clock] {key} = {value!r}; use seconds, 0 or more")
            rules[f"clock_{key}"] = float(value)
    for key, (low, high) in _RANGES.items():
        if key in rules and not low <= rules[key] <= high:  # NaN fails too
            raise ConfigError(f"{where}: [rules] {key} = {rules[key]!r}; use {low} to {high}")
    try:
        settings = Settings().with_preset(preset) if preset else Settings()
        settings = replace(settings, **rules)  # explicit rules override the preset
    except SettingsError as exc:
        raise ConfigError(f"{where}: [rules] {exc}") from exc
    mode = raw.get("mode")
    if mode is None:  # tournament presets imply the tournament mode; an explicit hints setting stays
        mode = "tournament" if preset in TOURNAMENT_PRESETS else mode_of(settings)
    elif "hints" in rules and MODE_HINTS.get(mode) != rules["hints"]:
        raise ConfigError(
            f"{where}: mode = {mode!r} and [rules] hints = {rules['hints']!r} disagree; leave out hints"
        )
    settings = with_mode(settings, mode, preset, where)
    buttons = _table(raw, "buttons", where)
    _unknown(where, "[buttons]", buttons, BUTTON_NAMES)
    for name, pin in buttons.items():
        if isinstance(pin, bool) or not isinstance(pin, int) or pin not in _BCM_PINS:
            raise ConfigError(f"{where}: [buttons] {name} = {pin!r}; use a BCM pin number 0-27")
    leds = _table(raw, "leds", where)
    if leds:
        from firmware_bridge.errors import LayoutError
        from firmware_bridge.layout import Layout

        try:
            Layout.from_mapping(leds)
        except (LayoutError, TypeError, ValueError, OverflowError) as exc:
            raise ConfigError(f"{where}: [leds] {exc}") from exc
    return StationConfig(
        settings=settings,
        mode=mode,
        preset=preset,
        source=None if source is None else str(source),
        serial=str(raw.get("serial", DEFAULT_SERIAL)),
        journal=raw.get("journal"),
        export_dir=raw.get("export_dir"),
        buttons=buttons,
        leds=leds,
        calibration=raw.get("calibration"),
        pin=raw.get("pin"),
    )
