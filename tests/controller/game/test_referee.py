"""The referee's rulings from the station's page (controller.game.referee, issue 16): each one a
journaled event that replays to the same state."""

from __future__ import annotations

import pytest

from controller import game
from controller.game.events import RefereeAction, Refused, event_from_json

from .scripted import Script


def referee(s: Script, action: str, **fields) -> list:
    s.t += 1.0
    return s.feed(RefereeAction(t=s.t, action=action, **fields))


def replayed(s: Script) -> game.State:
    state = game.new_state(s.settings)
    for ev in s.events:
        state, _ = game.step(state, event_from_json(ev.to_json()))
    return state


def test_b17_referee_accepts_the_illegal_move():
    s = Script()
    s.opening(3, 1)
    s.move("13/7", legal=False)
    s.pickup()
    referee(s, "accept")
    assert ("B17", "accepted") in s.codes() and s.state.phase == "to_roll" and s.state.on_roll == 1
    assert replayed(s) == s.state


def test_b17_referee_requires_the_correction():
    s = Script()
    s.opening(3, 1)
    s.move("8/5", legal=False)
    s.pickup()
    referee(s, "correct")
    assert ("B17", "correct") in s.codes() and s.state.phase == "moving" and s.state.on_roll == 0
    assert replayed(s) == s.state


def test_b17_referee_accept_without_a_dispute_changes_nothing():
    s = Script()
    s.opening(3, 1)
    before = s.state
    out = referee(s, "accept")
    assert "nothing to accept" in out[0].text and s.state.phase == before.phase


def test_b15_referee_orders_a_rethrow_before_a_checker_moved():
    s = Script()
    s.opening(3, 1)
    assert s.state.phase == "moving"
    referee(s, "rethrow")
    assert ("B15", "rethrow") in s.codes()
    assert s.state.phase == "to_roll" and s.state.on_roll == 0 and s.state.dice is None
    assert replayed(s) == s.state


def test_b15_referee_records_the_dice_mixed_at_the_start_of_a_game_only():
    s = Script()
    s.look()
    referee(s, "mix")
    assert ("B15", "mix") in s.codes()
    s.opening(3, 1)
    referee(s, "mix")
    assert ("B15", "mix_refused") in s.codes()


def test_referee_pauses_and_resumes_the_clock():
    s = Script(clock="simple", clock_reserve=100.0, clock_delay=0.0)
    s.opening(3, 1)
    referee(s, "pause")
    left = s.state.clock.remaining(0, s.t)
    s.t += 50.0
    assert s.state.clock.paused and s.state.clock.remaining(0, s.t) == left
    referee(s, "resume")
    assert not s.state.clock.paused
    assert [c for c in s.codes() if c[0] == "clock"] == [("clock", "pause"), ("clock", "resume")]
    assert replayed(s).clock == s.state.clock


def test_b14_referee_corrects_the_score_and_crawford_follows():
    s = Script(match_length=5)
    s.look()
    referee(s, "score", score=(4, 2))
    assert s.state.score == (4, 2) and s.state.crawford_game
    assert ("B14", "score") in s.codes()
    out = referee(s, "score", score=(5, 0))
    assert "would end" in out[0].text and s.state.score == (4, 2)
    assert replayed(s) == s.state


def test_b9_referee_records_a_resignation_at_the_cube():
    s = Script(match_length=7)
    s.opening(3, 1)
    referee(s, "resign", player=0, value=2)
    assert s.state.score == (0, 2) and s.state.phase == "game_over"
    assert ("B9", "resign") in s.codes()
    assert s.state.records[-1].kind == "resign" and s.state.records[-1].points == 2
    assert replayed(s) == s.state


def test_referee_undoes_the_last_event_but_not_a_games_end():
    s = Script(match_length=7)
    s.opening(3, 1)
    s.move("8/5 6/5")
    before_pickup = s.state
    s.pickup()
    assert s.state.on_roll == 1
    referee(s, "undo")
    assert s.state.phase == before_pickup.phase and s.state.on_roll == 0
    assert ("referee", "undo") in s.codes()
    out = referee(s, "undo")
    assert "nothing to undo" in out[0].text
    assert replayed(s) == s.state
    referee(s, "resign", player=1, value=1)
    out = referee(s, "undo")
    assert "nothing to undo" in out[0].text and s.state.phase == "game_over"


@pytest.mark.parametrize(
    "fields",
    [{"action": "explode"}, {"action": "resign", "value": 9}, {"action": "score", "score": [1]},
     {"action": "score", "score": ["a", 1]}, {"action": "resign", "player": 3}],
)
def test_a_bad_referee_event_is_refused_with_one_line(fields):
    """A referee line the schema refuses replays as refused, with the reason (issue 18 item 1)."""
    ev = event_from_json({"kind": "referee", "t": 1.0, **fields})
    assert isinstance(ev, Refused) and ev.reason.startswith("referee ") and "\n" not in ev.reason


def test_the_undo_says_which_event_it_took_back():
    s = Script(match_length=7)
    s.opening(3, 1)
    s.move("8/5 6/5")
    s.pickup()
    t = s.t
    referee(s, "undo")
    [ruling] = [r for r in s.rulings() if r.code == "undo"]
    assert ruling.reason.startswith("the referee undid the last event: the board read at")
    assert f"{t:.1f} s" in ruling.reason
    s.press("clock", player=0)
    pressed = s.t
    referee(s, "undo")
    assert s.rulings()[-1].reason.endswith(f"light's clock button, short press, at {pressed:.1f} s")
