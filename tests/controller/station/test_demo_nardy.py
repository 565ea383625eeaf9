"""The nardy demo (issue 15 item 7): its own script, refereed under long-nardy rules to the end."""

from __future__ import annotations

from controller.game.effects import Announce
from controller.game.rulings import Settings
from controller.station import replay
from controller.station.demo import scenes, scripted_events


def test_n3_nardy_demo_opening_decides_the_starter_who_then_rolls():
    first = scenes(7, turns=1, variant="nardy")
    assert first[1].roller is None and len(first[1].dice) == 2  # one die each
    assert first[2].roller is not None  # the winner rolls both dice (N3)


def test_nardy_demo_plays_its_game_to_the_end_under_nardy_rules():
    events = scripted_events(7, None, Settings(variant="nardy"), variant="nardy")
    state, effects = replay(events)
    rulings = [(e.ruling.rule, e.ruling.code) for e in effects if isinstance(e, Announce)]
    assert state.phase == "game_over" and sum(state.score) >= 1
    assert rulings == [("N10", "rethrow"), ("N9", "game_over")]  # the scripted cocked die, the end
