"""Issue 17 items 1 and 4: the director's commands reach the stations and are journaled; the broker's
ACL keeps each station to its own board's topics and the director's commands to the director."""

from __future__ import annotations

import threading
from dataclasses import replace

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from controller.club.url import parse_url
from controller.game.effects import Leds
from controller.game.events import DeviceChanged, MatchStarted, Refused
from controller.game.rulings import Settings
from controller.station.demo import scripted_events
from controller.station.journal import read
from firmware_bridge.frames import LedFrame
from tests.controller.club.broker import CLUB, DIRECTOR, station_user
from tests.controller.club.sim import SimStation, director, wait_until


def _client(broker, user) -> mqtt.Client:
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"test-{user[0]}")
    c.username_pw_set(*user)
    c.connect("127.0.0.1", broker.port)
    c.loop_start()
    return c


def test_director_pause_resume_and_round_are_journaled_by_the_station(broker, tmp_path):
    d = director(broker.director_url())
    s = SimStation("1", tmp_path, broker.station_url("1"))
    other = SimStation("2", tmp_path, broker.station_url("2"))
    try:
        wait_until(lambda: d.connected.is_set() and s.link.listening and other.link.listening, 10,
                   "all connect")
        d.send("round", round=1, pairings=[
            {"board": "1", "light": "Ana", "dark": "Ion", "match_length": 5},
        ])
        d.send("pause")
        d.send("resume")
        wait_until(lambda: len(s.journal) == 3 and len(other.journal) == 2, 10, "the commands arrive")
        starts = [e for e in s.journal.events if isinstance(e, MatchStarted)]
        assert [(x.settings["light_player"], x.settings["dark_player"], x.settings["match_length"])
                for x in starts] == [("Ana", "Ion", 5)]
        devices = [(e.device, e.online) for e in s.journal.events if isinstance(e, DeviceChanged)]
        assert devices == [("director", False), ("director", True)]
        assert all(isinstance(e, DeviceChanged) for e in other.journal.events)  # not paired in round 1
        s.station.stop()
        assert read(s.path) == s.journal.events
        wait_until(lambda: "1" in d.view.boards and d.view.boards["1"].players() == ("Ana", "Ion"), 10,
                   "the director sees the pairing")
        assert "Ana" in d.view.round_csv()
    finally:
        s.close()
        other.close()
        d.close()


def test_a_round_is_refused_on_a_board_whose_match_is_in_progress_unless_forced(broker, tmp_path):
    """A round must not drop a running game silently: the station refuses it (journaled, with the
    reason, and answered to the director), and a forced round is journaled, said and answered as
    forced. The new match keeps the station's tournament mode: no LED aid in its free play either."""
    settings = Settings(hints="referee", match_length=1, light_player="Red 1", dark_player="Blue 1",
                        team_format="team")
    events = scripted_events(3, turns=3, settings=settings)
    later = scripted_events(3, turns=6, settings=settings)[len(events):]  # rolls the dropped game had
    said: list[str] = []
    s = SimStation("1", tmp_path, broker.station_url("1"), events=events)
    s.link.say = said.append
    d = director(broker.director_url())
    pairing = [{"board": "1", "light": "Ana", "dark": "Ion", "match_length": 5}]
    try:
        wait_until(lambda: s.link.listening and d.connected.is_set(), 10, "both connect")
        s.play()
        wait_until(lambda: len(s.journal) == len(events), 10, "the game is under way")
        assert s.station.state.phase in ("to_roll", "moving")
        d.send("round", round=2, pairings=pairing)
        wait_until(lambda: len(s.journal) == len(events) + 1, 10, "the round is journaled")
        refused = s.journal.events[-1]
        assert isinstance(refused, Refused) and refused.event["kind"] == "match_started"
        assert "round 2 refused" in refused.reason and "game 1 is under way" in refused.reason
        assert s.station.state.settings == settings  # the game goes on
        wait_until(lambda: (d.view.boards["1"].answer or {}).get("status") == "refused", 10,
                   "the director hears why")
        shown = d.view.to_json()["boards"][0]["answer"]
        assert shown["round"] == 2 and "game 1 is under way" in shown["said"] and "force" in shown["said"]

        d.send("round", round=2, pairings=pairing, force=True)
        wait_until(lambda: len(s.journal) == len(events) + 2, 10, "the forced round is journaled")
        started = s.journal.events[-1]
        assert isinstance(started, MatchStarted)
        assert Settings.from_json(started.settings) == replace(
            settings, light_player="Ana", dark_player="Ion", match_length=5)
        assert any("forced" in line and "dropped" in line for line in said)
        wait_until(lambda: (d.view.boards["1"].answer or {}).get("status") == "forced", 10,
                   "the director hears it was forced")
        before = len(s.station.effects)
        for ev in later:  # the dropped game's board and rolls: free play, where a learner sees aids
            s.station.submit(ev)
        wait_until(lambda: len(s.journal) == len(events) + 2 + len(later), 10, "the boards are read")
        s.station.stop()
        leds = [e for e in s.station.effects[before:] if isinstance(e, Leds)]
        assert s.station.state.phase == "free" and leds
        assert all(e.frame == LedFrame.dark() and e.why != "movable points" for e in leds)
        assert read(s.path) == s.journal.events  # every one of them replays
    finally:
        s.close()
        d.close()


def test_a_round_on_a_board_with_no_game_under_way_starts_at_once(broker, tmp_path):
    s = SimStation("1", tmp_path, broker.station_url("1"))
    d = director(broker.director_url())
    try:
        wait_until(lambda: s.link.listening and d.connected.is_set(), 10, "both connect")
        d.send("round", round=1, pairings=[{"board": "1", "light": "Ana", "dark": "Ion", "match_length": 3}])
        wait_until(lambda: len(s.journal) == 1, 10, "the round is journaled")
        assert isinstance(s.journal.events[0], MatchStarted)
        wait_until(lambda: (d.view.boards.get("1") and d.view.boards["1"].answer or {}).get("status")
                   == "started", 10, "the station answers")
    finally:
        s.station.stop()
        s.close()
        d.close()


def test_a_pause_pauses_the_clock_like_an_offline_device(broker, tmp_path):
    """The director's pause is a DeviceChanged: the referee pauses the clock while any device is off."""
    settings = Settings(hints="referee", clock="simple")
    s = SimStation("1", tmp_path, broker.station_url("1"))
    d = director(broker.director_url())
    try:
        s.station.submit(MatchStarted(settings=settings.to_json()))
        wait_until(lambda: s.link.listening and d.connected.is_set(), 10, "both connect")
        d.send("pause")
        wait_until(lambda: "director" in s.station.state.offline, 10, "the station pauses")
        d.send("resume")
        wait_until(lambda: "director" not in s.station.state.offline, 10, "the station resumes")
    finally:
        s.close()
        d.close()


def _refused(broker, publisher_user, topic: str, allowed_topic: str) -> None:
    """``publisher_user`` publishes on ``topic`` then on ``allowed_topic``: the director, listening to
    the whole club, gets only the second (Mosquitto drops what the ACL refuses)."""
    got: list[str] = []
    done = threading.Event()
    watcher = _client(broker, DIRECTOR)
    watcher.on_message = lambda c, u, m: (got.append(m.topic), m.topic == allowed_topic and done.set())
    watcher.subscribe(f"tavla/{CLUB}/#", qos=1)
    pub = _client(broker, publisher_user)
    try:
        wait_until(lambda: watcher.is_connected() and pub.is_connected(), 10, "both connect")
        import time

        time.sleep(0.2)  # the subscription is in place
        pub.publish(topic, b'{"seq": 99}', qos=1).wait_for_publish(5)
        pub.publish(allowed_topic, b"1", qos=1).wait_for_publish(5)
        assert done.wait(5), "the allowed message arrives"
        assert topic not in got
    finally:
        pub.loop_stop()
        watcher.loop_stop()


def test_acl_refuses_a_station_publishing_under_another_board(broker):
    _refused(broker, station_user("1"), f"tavla/{CLUB}/2/state", f"tavla/{CLUB}/1/online")


def test_acl_refuses_director_commands_from_a_station(broker):
    _refused(broker, station_user("1"), f"tavla/{CLUB}/director/command", f"tavla/{CLUB}/1/online")


def test_a_wrong_password_is_refused(broker, tmp_path):
    s = SimStation("1", tmp_path, broker.url(("station-1", "wrong")))
    try:
        s.station.submit(MatchStarted())
        wait_until(lambda: len(s.journal) == 1, 5, "the station plays on without the broker")
        assert not s.link.connected
        assert parse_url(broker.url(("station-1", "wrong"))).user == "station-1"
    finally:
        s.station.stop()
        s.close()
