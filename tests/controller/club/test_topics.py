"""The club's topics, director commands and ACL (issue 17 items 1 and 4)."""

from __future__ import annotations

import pytest

from controller.club import topics
from controller.club.acl import acl_text
from controller.club.publisher import command_event
from controller.club.url import ClubError
from controller.game.events import DeviceChanged, MatchStarted
from controller.game.rulings import Settings


def test_board_topics_and_their_parsing():
    assert topics.board_topic("c", "7", "state") == "tavla/c/7/state"
    assert topics.split_board_topic("c", "tavla/c/7/events") == ("7", "events")
    assert topics.split_board_topic("c", "tavla/c/director/command") is None
    assert topics.split_board_topic("c", "tavla/other/7/events") is None
    assert topics.split_board_topic("c", "tavla/c/7/nonsense") is None


@pytest.mark.parametrize("name", ["", "a/b", "#", "+", "x" * 33, "director"])
def test_board_names_that_would_break_the_topics_are_refused(name):
    with pytest.raises(ClubError):
        topics.check_name("board", name)


def test_a_round_needs_each_board_once_with_both_players():
    ok = [{"board": "1", "light": "Ana", "dark": "Ion", "match_length": 5}]
    assert topics.command("round", "x", round=1, pairings=ok)["pairings"] == ok
    with pytest.raises(ClubError, match="twice"):
        topics.command("round", "x", round=1, pairings=ok + ok)
    with pytest.raises(ClubError, match="dark"):
        topics.command("round", "x", round=1, pairings=[{"board": "1", "light": "Ana"}])
    with pytest.raises(ClubError, match="unknown"):
        topics.command("shutdown", "x")
    assert topics.command("round", "x", round=1, pairings=ok, force=True)["force"] is True
    with pytest.raises(ClubError, match="force"):
        topics.command("round", "x", round=1, pairings=ok, force="yes")


def test_b18_a_pairing_is_an_ordinary_match_with_named_sides():
    cmd = topics.command("round", "x", round=2, pairings=[
        {"board": "3", "light": "Ana", "dark": "Ion", "match_length": 7, "team_format": "team"}])
    ev = command_event(cmd, "3", Settings(team_format="consultation"), 1.5)
    assert isinstance(ev, MatchStarted) and ev.t == 1.5
    s = Settings.from_json(ev.settings)
    # the format is the station's (its file says how its board plays), the names the pairing's
    assert (s.light_player, s.dark_player, s.match_length, s.team_format) == ("Ana", "Ion", 7, "consultation")
    assert command_event(cmd, "4", Settings(), 0.0) is None  # not this board's pairing


def test_a_pairing_with_a_name_the_settings_refuse_is_refused():
    cmd = topics.command("round", "x", round=1, pairings=[{"board": "1", "light": "A:B", "dark": "C"}])
    with pytest.raises(ClubError, match="board 1"):
        command_event(cmd, "1", Settings(), 0.0)


def test_pause_and_resume_are_the_director_device_going_off_and_on():
    assert command_event({"command": "pause"}, "1", Settings(), 2.0) == DeviceChanged(
        t=2.0, device="director", online=False)
    assert command_event({"command": "resume"}, "1", Settings(), 3.0) == DeviceChanged(
        t=3.0, device="director", online=True)
    assert command_event({"command": "reboot"}, "1", Settings(), 3.0) is None


def test_acl_gives_each_station_its_board_and_the_director_the_club():
    text = acl_text("c", {"1": "st-1", "2": "st-2"}, "td")
    assert "user td\ntopic readwrite tavla/c/#" in text
    assert "user st-1\ntopic readwrite tavla/c/1/#\ntopic read tavla/c/director/#" in text
    assert "tavla/c/2/#" not in text.split("user st-2")[0].split("user st-1")[1]
