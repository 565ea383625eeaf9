"""The station's club link without a broker: it plays on, keeps the journal's entries to send, and a
director's command takes the station's own time."""

from __future__ import annotations

import json
from dataclasses import replace

from controller.club.publisher import ClubLink, command_event, in_progress, journal_id
from controller.club.url import parse_url
from controller.game.events import DeviceChanged, MatchStarted, Tick
from controller.game.rulings import Settings
from controller.station import Station
from controller.station.demo import scripted_events
from controller.station.journal import Journal

NOWHERE = "mqtt://u:p@127.0.0.1:9"  # the discard port: nothing answers


def test_without_a_broker_the_station_plays_on_and_keeps_every_entry(tmp_path):
    path = tmp_path / "j.jsonl"
    with Journal(path) as journal:
        station = Station(journal=journal)
        link = ClubLink(parse_url(NOWHERE), "c", "1")
        link.attach(station)
        station.handle(MatchStarted(t=0.0))
        station.handle(Tick(t=7.5))
        link._command({"command": "pause"})  # as paho's thread does, on a director's message
        station.start()
        station.stop()
        link.close()
    assert not link.connected and not link.listening and link.published == 0
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    kept = [json.loads(p) for _, p in link._entries]
    assert kept == [{**x, "journal": journal_id(path)} for x in lines]
    assert journal.events[-1] == DeviceChanged(t=7.5, device="director", online=False)


def test_an_appended_journal_keeps_its_id_and_its_earlier_entries(tmp_path):
    path = tmp_path / "j.jsonl"
    with Journal(path) as journal:
        Station(journal=journal).handle(MatchStarted())
    first = journal_id(path)
    with Journal(path) as journal:
        link = ClubLink(parse_url(NOWHERE), "c", "1")
        link.attach(Station(journal=journal))
        assert link.journal == first and [s for s, _ in link._entries] == [0]
        link.close()
    assert journal_id(tmp_path / "j.jsonl") == first


def _round(**pairing):
    return {"command": "round", "id": "r2", "round": 2,
            "pairings": [{"board": "1", "light": "Ana", "dark": "Ion", "match_length": 5, **pairing}]}


def test_a_rounds_match_keeps_the_stations_mode_and_rules():
    """Only the names and the match length come from the director: a tournament station stays one
    (its hints, its clock, its rules), whatever else a pairing carries."""
    base = Settings(hints="referee", clock="usbgf", crawford=False, beaver=True, team_format="team",
                    light_player="Red 1", dark_player="Blue 1", match_length=1)
    event = command_event(_round(team_format="single", hints="assistant"), "1", base, 4.0)
    assert isinstance(event, MatchStarted) and event.t == 4.0
    assert Settings.from_json(event.settings) == replace(base, light_player="Ana", dark_player="Ion",
                                                         match_length=5)
    assert command_event(_round(), "2", base, 4.0) is None  # not paired in this round


def test_in_progress_says_what_a_new_match_would_drop():
    settings = Settings(hints="referee", match_length=3, light_player="Ana", dark_player="Ion")
    station = Station()
    assert in_progress(station.state) is None  # nothing played yet
    for ev in scripted_events(3, turns=2, settings=settings):
        station.handle(ev)
    assert in_progress(station.state) == "game 1 is under way (Ana 0 - 0 Ion)"
    for ev in scripted_events(3, settings=settings)[3:]:
        station.handle(ev)  # game 1 over, the 3-point match goes on (RULES.md B14)
    light, dark = station.state.score
    assert station.state.phase == "game_over" and max(light, dark) < 3
    assert in_progress(station.state) == f"the 3-point match is under way (Ana {light} - {dark} Ion)"
    one = Station()
    for ev in scripted_events(3, settings=replace(settings, match_length=1)):
        one.handle(ev)  # a 1-point match played out: nothing in progress
    assert one.state.phase == "match_over" and in_progress(one.state) is None
