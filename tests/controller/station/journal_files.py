"""Journals for the journal tests: a scripted referee game written by a station under a key."""

from __future__ import annotations

from pathlib import Path

from controller.game.rulings import Settings
from controller.station import Station
from controller.station.demo import scripted_events
from controller.station.journal import Journal
from controller.station.journal_key import StationKey, station_key

SETTINGS = Settings(hints="referee")


def key(folder: Path) -> StationKey:
    return station_key(folder / "station.key")


def game_events(seed: int = 3) -> list:
    """One scripted game to its end (one GameEnded), 142 events for seed 3."""
    return scripted_events(seed, settings=SETTINGS)


def station_journal(path: Path, key_: StationKey | None, events: list | None = None) -> Path:
    """The journal a station writes for ``events`` (default one whole game), stopped cleanly: the
    game's end and the stop each seal it."""
    with Journal(path, key=key_) as journal:
        station = Station(journal=journal)
        for ev in game_events() if events is None else events:
            station.handle(ev)
        station.stop()
    return path
