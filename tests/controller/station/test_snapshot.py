"""The state JSON (controller.station.snapshot): the contract of issue 16, after each scripted event."""

from __future__ import annotations

import json

from controller.game.rulings import Settings
from controller.station import Station
from controller.station.demo import scripted_events
from controller.station.snapshot import snapshot

CONTRACT = ("position_id", "match_id", "dice", "on_roll", "score", "clock", "rulings", "seq")


def test_snapshot_holds_the_contract_after_every_event_and_is_json():
    station = Station()
    events = scripted_events(turns=4, settings=Settings(match_length=5, clock="simple"))
    for n, ev in enumerate(events, 1):
        station.handle(ev)
        snap = snapshot(station)
        assert set(CONTRACT) <= set(snap)
        assert snap["seq"] == n
        assert set(snap["score"]) >= {"light", "dark", "match_length", "crawford"}
        assert snap["score"]["match_length"] == 5
        assert all({"value", "status"} <= set(d) for d in snap["dice"])
        assert all(set(r) >= {"rule", "text"} for r in snap["rulings"])
        json.dumps(snap)  # plain JSON values only
    assert snap["board"] is not None and len(snap["board"]["slots"]) == 24
    assert snap["clock"] is not None and {"light", "dark"} <= set(snap["clock"])
    assert snap["position_id"] and snap["match_id"]
    assert snap["on_roll"] in ("light", "dark")


def test_tournament_mode_shows_no_hint():
    station = Station(Settings(hints="referee"))
    shown = []
    for ev in scripted_events(turns=3, settings=Settings(hints="referee")):
        station.handle(ev)
        snap = snapshot(station)
        assert snap["mode"] == "tournament"
        shown.append(snap)
    assert all(s["legal_plays"] is None and s["best_play"] is None for s in shown)
    # nor the movable points, which the page would outline (found by the fresh-user test)
    assert any(s["board"] for s in shown)
    assert all(not s["board"]["movable_slots"] for s in shown if s["board"])


def test_learner_mode_lists_the_legal_plays_of_the_roll():
    station = Station()
    listed = []
    for ev in scripted_events(turns=3):
        station.handle(ev)
        snap = snapshot(station)
        if snap["phase"] == "moving":
            listed.append(snap["legal_plays"])
    assert listed and all(plays for plays in listed)
    assert all("/" in p for plays in listed for p in plays)


def test_learner_mode_gives_gnubgs_best_play_as_slots_to_draw():
    import pytest

    pytest.importorskip("gnubg", reason="gnubg's bindings (the hints extra) are not installed")
    station = Station()
    drawn = []
    for ev in scripted_events(turns=3):
        station.handle(ev)
        snap = snapshot(station)
        # the roll's own board marks the movable points; mid-move boards mark none (issue 15)
        if snap["best_play"] and snap["board"]["movable_slots"]:
            drawn.append(snap)
    assert drawn
    for snap in drawn:
        moves = snap["best_moves"]
        assert len(moves) in (2, 4)  # one step per die (4 for doubles) in the scripted game
        reached = set(snap["board"]["movable_slots"]) | {"bar"}
        for src, dst in moves:  # each step starts where a checker can move, or where an earlier one landed
            assert src in reached and (dst == "off" or 0 <= dst < 24)
            reached.add(dst)


def test_after_many_games_the_snapshot_shows_the_newest_rulings_and_prompts_of_the_whole_list():
    """The station keeps its newest effects of each kind (Station.recent), so the state JSON need not
    walk every effect of a long session; what it shows is what the whole list says."""
    from controller.game.effects import Announce, Leds, Prompt, Show
    from controller.station import snapshot as snapshot_module

    events = []
    while len(events) < 1200:
        events += scripted_events(turns=None, settings=Settings(hints="referee"))
    station = Station(Settings(hints="referee"))
    for ev in events:
        station.handle(ev)
    snap = snapshot(station)
    announced = [e for e in station.effects if isinstance(e, Announce)]
    said = [e.text for e in station.effects if isinstance(e, Prompt)]
    assert [r["text"] for r in snap["rulings"]] == [e.ruling.reason for e in announced][-10:]
    assert snap["prompts"] == said[-snapshot_module.PROMPTS_KEPT:] and snap["prompts"]
    shows = [e for e in station.effects if isinstance(e, Show)]
    assert snap["board"]["slots"] == [[c, n] for c, n in shows[-1].slots]
    lit = [e for e in station.effects if isinstance(e, Leds)]
    assert snap["leds"]["why"] == lit[-1].why
    assert sum(len(d) for d in station.recent.values()) <= 22  # bounded, however long the session


def test_home_mode_shows_a_hint_only_when_asked():
    """Issue 15: home = hints on request; the page shows neither the legal plays nor the movable
    points by itself, and gnubg's best play once a player asked (a long press on the clock)."""
    from controller.game.events import ButtonPressed
    from controller.hints.engine import close_engine

    home = Settings(hints="home")
    station = Station(home)
    for ev in scripted_events(turns=3, settings=home):
        station.handle(ev)
        snap = snapshot(station)
        assert snap["mode"] == "home"
        assert snap["legal_plays"] is None and snap["best_play"] is None
        assert not snap["board"] or not snap["board"]["movable_slots"]
        if station.state.phase == "moving":
            break
    try:
        station.handle(ButtonPressed(t=station.last_t + 1, gesture="long"))
    finally:
        close_engine()
    snap = snapshot(station)
    assert snap["best_play"] is not None and snap["best_moves"]


def test_the_clock_gives_the_delay_left_and_the_time_moves_only_after_it():
    """Issue 15/16: the page runs the clock between states from ``delay_left``, as game.clock does."""
    from controller.game.events import Tick

    station = Station()
    for ev in scripted_events(turns=1, settings=Settings(match_length=5, clock="usbgf")):
        station.handle(ev)
        if snapshot(station)["phase"] == "moving":
            break
    c = snapshot(station)["clock"]
    who = c["running"]
    assert who in ("light", "dark") and c["delay"] == 12.0
    assert c["delay_left"] == 12.0 and c[who] == 600.0 and c["flag"] is None
    station.handle(Tick(t=station.last_t + 5.0))
    c = snapshot(station)["clock"]
    assert c["delay_left"] == 7.0 and c[who] == 600.0  # the delay runs, the time stays
    station.handle(Tick(t=station.last_t + 10.0))
    c = snapshot(station)["clock"]
    assert c["delay_left"] == 0.0 and c[who] == 597.0  # 15 s used: 3 s off the reserve
