"""The station config file (TOML): rules settings, where the board and the devices are, button pins.

Example (every key optional; the defaults are RULES.md's and the demo's)::

    preset = "usbgf"              # seed (default) | usbgf | ukbgf | legal-moves  (controller.game.rulings)
    source = "0"                  # camera index, video file or image folder
    serial = "/dev/ttyACM0"       # port or pyserial URL; default the emulator "ledsim://"
    journal = "tavla-journal.jsonl"
    export_dir = "matches"        # .sgf and .mat written here at each game's end
    pin = "4711"                  # the referee's PIN for the station's page (controller.station.web)

    [rules]                       # any field of controller.game.rulings.Settings
    variant = "backgammon"
    match_length = 7
    light_home = "bottom-right"   # or "auto": inferred from the position (controller.game.infer_seating)
    light_player = "Ana & Ion"    # named sides in the records (RULES.md B18); default "light"/"dark"
    dark_player = "Petra"
    team_format = "consultation"  # single | consultation | team | chouette

    [buttons]                     # BCM pin numbers (controller.station.buttons); absent = no buttons
    clock_light = 17
    clock_dark = 27
    dispute = 22
    double = 23
    take = 24
    drop = 25

    [clock]
    preset = "usbgf"              # usbgf | uk | simple (controller.game.clock)
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from controller.game.rulings import Settings, SettingsError
from controller.rules.errors import TavlaError

DEFAULT_SERIAL = "ledsim://"


class ConfigError(TavlaError, ValueError):
    """A config file that cannot be used (names the file and the bad key)."""


@dataclass(frozen=True)
class StationConfig:
    """The parsed config file. ``settings`` are the rules; ``buttons`` maps a button name to a pin."""

    settings: Settings = field(default_factory=Settings)
    source: str | None = None
    serial: str = DEFAULT_SERIAL
    journal: str | None = None
    export_dir: str | None = None
    buttons: dict[str, int] = field(default_factory=dict)
    clock: dict[str, Any] = field(default_factory=dict)
    calibration: str | None = None
    pin: str | None = None  # the referee's PIN on the station's page (issue 16)


_TOP = {
    "preset", "source", "serial", "journal", "export_dir", "rules", "buttons", "clock", "calibration", "pin",
}
BUTTON_NAMES = ("clock_light", "clock_dark", "dispute", "double", "take", "drop")


def load(path: str | Path | None) -> StationConfig:
    """Read a config file (None: the defaults).

    :raises ConfigError: when the file is missing, not TOML, or holds an unknown key or value.
    """
    if path is None:
        return StationConfig()
    p = Path(path)
    try:
        raw = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigError(f"config file {p} does not exist") from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"config file {p} is not valid TOML: {exc}") from exc
    return parse(raw, str(p))


def parse(raw: dict[str, Any], where: str = "config") -> StationConfig:
    """A config from its TOML table.

    :raises ConfigError: on an unknown key or value.
    """
    unknown = set(raw) - _TOP
    if unknown:
        raise ConfigError(
            f"{where}: unknown key(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(_TOP))}"
        )
    try:
        settings = Settings.from_json(dict(raw.get("rules", {})))
        if "preset" in raw:
            rules = dict(raw.get("rules", {}))
            settings = settings.with_preset(str(raw["preset"]))
            settings = replace(settings, **rules)  # explicit rules override the preset
    except (SettingsError, TypeError) as exc:
        raise ConfigError(f"{where}: {exc}") from exc
    buttons = dict(raw.get("buttons", {}))
    bad = set(buttons) - set(BUTTON_NAMES)
    if bad or not all(isinstance(v, int) for v in buttons.values()):
        raise ConfigError(f"{where}: [buttons] takes integer pins for {', '.join(BUTTON_NAMES)}")
    return StationConfig(
        settings=settings,
        source=None if raw.get("source") is None else str(raw["source"]),
        serial=str(raw.get("serial", DEFAULT_SERIAL)),
        journal=raw.get("journal"),
        export_dir=raw.get("export_dir"),
        buttons=buttons,
        clock=dict(raw.get("clock", {})),
        calibration=raw.get("calibration"),
        pin=None if raw.get("pin") is None else str(raw["pin"]),
    )
