"""The station's club link without a broker: it plays on, keeps the journal's entries to send, and a
director's command takes the station's own time."""

from __future__ import annotations

import json

from controller.club.publisher import ClubLink, journal_id
from controller.club.url import parse_url
from controller.game.events import DeviceChanged, MatchStarted, Tick
from controller.station import Station
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
    assert not link.connected and link.published == 0
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
