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

import json
import math
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from controller.game.rulings import CHOICES, NAME_MAX, PRESETS, Settings, SettingsError
from controller.geometry import CORNERS
from controller.rules.errors import TavlaError
from firmware_bridge.layout import LEDS_KEYS, SERPENTINE_KEYS

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
# are the defaults. A commented key has no default (or, under [rules], one that depends on others).
# Unknown keys are refused; `tavla config check FILE` checks a file.

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
match_length = 0              # 0 = money play, else the match length in points (1-64)
light_home = "auto"           # auto | bottom-right | bottom-left | top-right | top-left
mirror = false                # the mirror set-up (RULES.md B2, N2), with light_home
crawford = true               # B14: no double in the game after a player first reaches 1 away
# jacobi = true               # B12: gammons count once doubled; default: money play yes, match no
beaver = false                # B11: money play: the taker may redouble at once, keeping the cube
automatic_doubles = false     # B13: money play: equal opening dice double the cube
auto_double_limit = 1         # B13: how many automatic doubles a game may have (0-64)
cube_progression = "geometric"  # geometric (2, 4, 8 ...) | arithmetic (2, 3, 4 ...)  (B10)
premature_roll = "void"       # B16: void (rolled again) | stands
premature_waiver = true       # B16: no penalty when the move was forced or contact is over
illegal_move = "opponent_chooses"  # B17: opponent_chooses | must_correct
die_on_checker_stands = false # B15: a die lying flat on a checker stands (else both are re-thrown)
end_on_pickup = true          # B16: picking up the dice ends the turn
end_on_clock = true           # B16: pressing the clock ends the turn
backgammon_as_gammon = false  # B9: a backgammon scores as a gammon
no_gammon_after_cube = false  # B9: no gammon or backgammon once the cube was turned
koks = false                  # N9 nardy: the house mars (koks) scores 3
nardy_draw = false            # N9 nardy: black's one last roll may draw the game
nardy_next_game = "alternate" # N3 nardy: alternate | winner (who starts the next game)
nardy_block = "strict"        # N6 nardy blocks: strict | transient (within a turn) | after_home
# hints = "assistant"         # assistant | home | referee: set by `mode` (leave it out)
hint_plies = 0                # gnubg's search depth for hints (0-4)
hint_noise = 0.0              # gnubg's noise for hints, 0 (best) to 1
light_player = "light"        # the sides' names in the match records (RULES.md B18)
dark_player = "dark"          # the other side's name
team_format = "single"        # single | consultation | team | chouette  (B18)

[clock]                       # absent: no clock (the usbgf and ukbgf presets set one)
# preset = "simple"           # usbgf | uk (times set by the match length) | simple
# reserve = 600.0             # simple: seconds per player (alone: a simple clock; not with usbgf, uk)
# delay = 12.0                # simple: seconds per move before the reserve runs

[buttons]                     # BCM pin numbers 0-27; absent = no buttons (hardware_docs/raspberry-pi.md)
# clock_light = 17            # light's clock: short press = turn done, long press = a hint (home)
# clock_dark = 27             # dark's clock
# dispute = 22                # short = accept the move, long = demand the legal move, double = camera wrong
# double = 23                 # offer the cube
# take = 24                   # take (a double press: beaver)
# drop = 25                   # drop

[leds]                        # the LED strip's layout (hardware_docs/layout.md); absent = one LED a zone
# count = 80                  # LEDs on the strip; default the LEDs the layout uses

# [leds.serpentine]           # the usual snake wiring (the default)
# leds_per_point = 1          # LEDs under each point (1 or more)
# bar_leds = 1                # LEDs under each half of the bar
# off_leds = 1                # LEDs under each off tray
# first_led = 0               # the strip's first LED used (skip LEDs hidden in the frame)
# snake = true                # every other point wired tip to base

# [leds.zones]                # instead of [leds.serpentine]: the LEDs of each zone, by hand
# 0 = [0, 1, 2]               # zone = LED indices: points 0-23 (camera slots), bar, off_bottom, off_top
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
_CHOICE_KEYS = {**CHOICES, "light_home": ("auto", *CORNERS)}
_CLOCK_KEYS = ("preset", "reserve", "delay")
_ZONE_NAMES = "0-23 (camera slots), bar, off_bottom or off_top"
# Every key the loader accepts, by table ("" the top level); `tavla config example` shows each one
# (a test holds EXAMPLE to it). [leds.zones] takes zone names as keys, not a fixed set.
ACCEPTED: dict[str, tuple[str, ...]] = {
    "": _TOP,
    "rules": tuple(k for k in _SETTING_TYPES if k not in ("clock", "clock_reserve", "clock_delay")),
    "clock": _CLOCK_KEYS,
    "buttons": BUTTON_NAMES,
    "leds": LEDS_KEYS,
    "leds.serpentine": SERPENTINE_KEYS,
}


def toml_text(value: Any) -> str:
    """``value`` as TOML writes it (``true``, ``"seven"``, ``[1, 2]``, ``{ a = 1 }``): what the user
    wrote, in the messages, rather than Python's spelling of it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a TOML basic string escapes as JSON does
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_toml_key(k)} = {toml_text(v)}" for k, v in value.items()) + " }"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_text(v) for v in value) + "]"
    if value is None:
        return "nothing"
    if hasattr(value, "isoformat"):  # TOML dates and times
        return str(value.isoformat())
    return str(value)


def _toml_key(key: Any) -> str:
    text = str(key)
    return text if re.fullmatch(r"[A-Za-z0-9_-]+", text) else json.dumps(text, ensure_ascii=False)


def _words(allowed: Iterable[str]) -> str:
    """The choices as TOML strings: ``"a", "b" or "c"``."""
    quoted = [toml_text(a) for a in allowed]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"


def mode_of(settings: Settings) -> str:
    """The mode that ``settings`` stand for (their ``hints``)."""
    return next(m for m, h in MODE_HINTS.items() if h == settings.hints)


def with_mode(settings: Settings, mode: str, preset: str | None = None, where: str = "--mode") -> Settings:
    """``settings`` under ``mode``.

    :raises ConfigError: on an unknown mode, or a mode other than tournament under a tournament preset.
    """
    if mode not in MODES:
        raise ConfigError(f"{where}: mode = {toml_text(mode)}; use {_words(MODES)}")
    if preset in TOURNAMENT_PRESETS and mode != "tournament":
        raise ConfigError(
            f"{where}: mode = {toml_text(mode)} under preset = {toml_text(preset)}; its tournament rules "
            'forbid electronic aids: use mode = "tournament" or another preset'
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


def _unknown(where: str, table: str, got: Mapping[str, Any], known: Iterable[str]) -> None:
    known = set(known)
    bad = sorted(_toml_key(k) for k in set(got) - known)
    if bad:
        raise ConfigError(
            f"{where}: unknown key(s) {', '.join(bad)} in {table}; known: {', '.join(sorted(known))}"
        )


def _table(raw: Mapping[str, Any], name: str, where: str, parent: str = "") -> dict[str, Any]:
    value = raw.get(name, {})
    if not isinstance(value, Mapping):
        full = f"{parent}.{name}" if parent else name
        raise _bad(where, parent, name, value, f"a table, [{full}]")
    return dict(value)


def _bad(where: str, table: str, key: str, value: Any, wants: str) -> ConfigError:
    """The one message shape: the file, the table and key, the value as written, what it takes."""
    at = f"[{table}] " if table else ""
    return ConfigError(f"{where}: {at}{key} = {toml_text(value)}; use {wants}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_setting(where: str, key: str, value: Any) -> Any:
    """``value`` for the Settings field ``key``, by the field's type and allowed values (a TOML
    integer is a number too)."""
    kind = str(_SETTING_TYPES[key])
    low, high = _RANGES.get(key, (0, 0))
    if "bool" in kind:
        ok, wants = isinstance(value, bool), "true or false"
    elif kind.startswith("int"):
        ok = _is_int(value) and (key not in _RANGES or low <= value <= high)
        wants = f"an integer from {low} to {high}" if key in _RANGES else "an integer"
    elif kind.startswith("float"):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        ok = ok and (key not in _RANGES or low <= value <= high)  # NaN fails too
        value = float(value) if ok else value
        wants = f"a number from {low} to {high}" if key in _RANGES else "a number"
    elif key in _CHOICE_KEYS:
        ok, wants = value in _CHOICE_KEYS[key], _words(_CHOICE_KEYS[key])
    else:  # the sides' names (RULES.md B18)
        try:
            name: dict[str, Any] = {key: value}
            ok = isinstance(value, str) and replace(Settings(), **name) is not None
        except SettingsError:
            ok = False
        wants = f"a name of 1-{NAME_MAX} printable characters, without \":\" or spaces at either end"
    if not ok:
        raise _bad(where, "rules", key, value, wants)
    return value


def _check_leds(where: str, leds: dict[str, Any]) -> None:
    """The ``[leds]`` table's types and zone names (firmware_bridge.layout then checks the layout)."""
    _unknown(where, "[leds]", leds, LEDS_KEYS)
    if "count" in leds and not (_is_int(leds["count"]) and 1 <= leds["count"] <= 0xFFFF):
        raise _bad(where, "leds", "count", leds["count"], "the number of LEDs on the strip, 1-65535")
    serpentine = _table(leds, "serpentine", where, "leds")
    _unknown(where, "[leds.serpentine]", serpentine, SERPENTINE_KEYS)
    for key, value in serpentine.items():
        if key == "snake":
            if not isinstance(value, bool):
                raise _bad(where, "leds.serpentine", key, value, "true or false")
        elif not (_is_int(value) and (1 if key == "leds_per_point" else 0) <= value <= 0xFFFF):
            least = 1 if key == "leds_per_point" else 0
            raise _bad(where, "leds.serpentine", key, value, f"an integer, {least} or more")
    zones = _table(leds, "zones", where, "leds")
    if zones and serpentine:
        raise ConfigError(f"{where}: [leds] has both serpentine and zones; give one of them")
    from firmware_bridge.errors import LayoutError
    from firmware_bridge.layout import parse_zone

    for name, indices in zones.items():
        try:
            parse_zone(name)
        except LayoutError:
            raise ConfigError(
                f"{where}: [leds.zones] unknown zone {_toml_key(name)}; use {_ZONE_NAMES}"
            ) from None
        if not isinstance(indices, list) or not all(_is_int(i) and i >= 0 for i in indices):
            raise _bad(where, "leds.zones", _toml_key(name), indices, "an array of LED indices, [0, 1, 2]")


def _check_clock(where: str, clock: Mapping[str, Any], preset: str | None, rules: dict[str, Any]) -> None:
    """``[clock] reserve`` / ``delay`` are the simple clock's times (controller.game.clock.preset): alone
    they start it; with the usbgf or uk clock, whose times are set by the match length, they would be
    ignored, so they are refused (issue 15: never a key silently dropped)."""
    given = [k for k in ("reserve", "delay") if k in clock]
    if not given:
        return
    chosen = rules.get("clock") or (PRESETS[preset].get("clock") if preset else None)
    if chosen is None:
        rules["clock"] = "simple"
        return
    if chosen != "simple":
        origin = "[clock] preset" if "preset" in clock else f"preset = {toml_text(preset)}"
        keys = " and ".join(f"{k} = {toml_text(clock[k])}" for k in given)
        raise ConfigError(
            f"{where}: [clock] {keys} with the {chosen} clock ({origin}), which sets its own times from "
            'the match length; use [clock] preset = "simple" for your own times, or leave them out'
        )


# [rules] keys of the doubling cube (RULES.md B9-B14), refused on a variant without one (N: long nardy
# has no cube), when set to what would turn the cube on; their defaults (as `tavla config example`
# writes them) pass
_CUBE_KEYS: dict[str, Any] = {
    "beaver": False,
    "automatic_doubles": False,
    "cube_progression": "geometric",
    "no_gammon_after_cube": False,
}


def _check_no_cube(where: str, rules: Mapping[str, Any]) -> None:
    variant = rules.get("variant")
    wrong = [k for k, default in _CUBE_KEYS.items() if k in rules and rules[k] != default]
    wrong += ["jacobi"] if "jacobi" in rules else []
    if wrong:
        keys = ", ".join(f"{k} = {toml_text(rules[k])}" for k in wrong)
        raise ConfigError(
            f"{where}: [rules] {keys} with variant = {toml_text(variant)}, which has no doubling cube "
            "(RULES.md N); leave the cube keys out"
        )


def parse(raw: Mapping[str, Any], where: str = "station file") -> StationConfig:
    """A station config from its TOML table.

    :raises ConfigError: on an unknown key, a wrong type or an unknown value (never anything else).
    """
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{where}: the station file must be a TOML table")
    _unknown(where, "the top level", raw, _TOP)
    for key in _STRINGS:
        if key in raw and not isinstance(raw[key], str):
            raise _bad(where, "", key, raw[key], "a string")
    source = raw.get("source")
    if source is not None and (isinstance(source, bool) or not isinstance(source, (str, int))):
        raise _bad(where, "", "source", source, 'a camera index (0) or a path ("match.mp4")')
    preset = raw.get("preset")
    if preset is not None and preset not in PRESETS:
        raise _bad(where, "", "preset", preset, _words(PRESETS))
    if "mode" in raw and raw["mode"] not in MODES:
        raise _bad(where, "", "mode", raw["mode"], _words(MODES))
    rules = _table(raw, "rules", where)
    _unknown(where, "[rules]", rules, ACCEPTED["rules"])
    rules = {k: _check_setting(where, k, v) for k, v in rules.items()}
    clock = _table(raw, "clock", where)
    _unknown(where, "[clock]", clock, _CLOCK_KEYS)
    if "preset" in clock:
        if clock["preset"] not in CLOCK_PRESETS:
            raise _bad(where, "clock", "preset", clock["preset"], _words(CLOCK_PRESETS))
        rules["clock"] = clock["preset"]
    for key in ("reserve", "delay"):
        if key in clock:
            value = clock[key]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < 1e7:
                raise _bad(where, "clock", key, value, "seconds, 0 or more")
            rules[f"clock_{key}"] = float(value)
    _check_clock(where, clock, preset, rules)
    if rules.get("variant", "backgammon") != "backgammon":
        _check_no_cube(where, rules)
    try:
        settings = Settings().with_preset(preset) if preset else Settings()
        settings = replace(settings, **rules)  # explicit rules override the preset
    except SettingsError as exc:  # every value was checked above: only a combination gets here
        raise ConfigError(f"{where}: [rules] {exc}") from exc
    mode = raw.get("mode")
    if mode is None:  # tournament presets imply the tournament mode; an explicit hints setting stays
        mode = "tournament" if preset in TOURNAMENT_PRESETS else mode_of(settings)
    elif "hints" in rules and MODE_HINTS.get(mode) != rules["hints"]:
        raise ConfigError(
            f"{where}: mode = {toml_text(mode)} and [rules] hints = {toml_text(rules['hints'])} "
            "disagree; leave out hints"
        )
    settings = with_mode(settings, mode, preset, where)
    buttons = _table(raw, "buttons", where)
    _unknown(where, "[buttons]", buttons, BUTTON_NAMES)
    for name, pin in buttons.items():
        if not _is_int(pin) or pin not in _BCM_PINS:
            raise _bad(where, "buttons", name, pin, "a BCM pin number, 0-27")
    used: dict[int, str] = {}
    for name, pin in buttons.items():
        if pin in used:
            raise ConfigError(
                f"{where}: [buttons] {used[pin]} and {name} are both on pin {pin}; give each its own"
            )
        used[pin] = name
    leds = _table(raw, "leds", where)
    if leds:
        from firmware_bridge.errors import LayoutError
        from firmware_bridge.layout import Layout

        _check_leds(where, leds)
        try:
            Layout.from_mapping(leds)
        except (LayoutError, TypeError, ValueError, OverflowError) as exc:
            raise ConfigError(f"{where}: [leds] {exc}") from exc
    pin = raw.get("pin")
    if pin is not None:
        from controller.pin_guard import pin_problem  # the rule `tavla run --web` applies

        if pin_problem(pin):
            raise ConfigError(f"{where}: pin = {toml_text(pin)} {pin_problem(pin)}")
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
        pin=pin,
    )
