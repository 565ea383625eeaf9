"""The station end to end: real webcam frames with the emulated LED device, and a full demo game from
the opening roll to the score with the players' buttons pressed through gpiozero mock pins."""

from __future__ import annotations

import time

import pytest
from gpiozero.pins.mock import MockFactory
from rich.console import Console

from controller.buttons import ButtonPanel
from controller.effects import Announce, GameEnded, Leds, Prompt, Show
from controller.events import BoardSeen, MatchStarted
from controller.journal import Journal, read
from controller.rulings import Settings
from controller.station import ConsolePrinter, Station, StationError, replay
from tests.conftest import shared_data

SESSION = "2024-03-16_20_55_47"


@pytest.fixture
def link():
    from firmware_bridge.link import LedLink

    with LedLink.open("ledsim://") as lk:
        yield lk


def test_station_over_real_webcam_frames(tmp_path, link):
    """Every frame of a recorded session is processed; every usable board is shown and its LED frame
    acknowledged by the emulated device; plays inferred between frames are legal or raised as disputes."""
    from controller.cli.run import source_events

    folder = shared_data("boards-webcam") / "frames" / SESSION
    console = Console(file=open(tmp_path / "out.txt", "w"), width=100)  # noqa: SIM115
    journal = Journal(tmp_path / "j.jsonl")
    station = Station(Settings(), link=link, journal=journal, printer=ConsolePrinter(console))
    frames = list(source_events(str(folder), console))
    assert len(frames) == len(list(folder.iterdir()))
    for ev in frames:
        effects = station.handle(ev)
        assert effects, ev.source  # every frame gets an answer: a board, a ruling or a prompt
        if ev.usable:
            assert any(isinstance(e, Show) for e in effects)
            assert any(isinstance(e, Leds) for e in effects)
        for e in effects:
            if isinstance(e, Announce):
                assert e.ruling.rule in ("B15", "B17") and e.ruling.reason
            if isinstance(e, Prompt) and " played " in e.text:
                assert e.text.endswith("(legal)")
    journal.close()
    assert station.led_failures == 0
    assert len(read(tmp_path / "j.jsonl")) == len(frames)


def test_station_lights_movable_points_and_waits_for_the_ack(link):
    from controller.demo import scripted_events

    station = Station(link=link)
    for ev in scripted_events(3, turns=2)[:3]:  # match start, start position, opening roll
        station.handle(ev)
    show = [e for e in station.effects if isinstance(e, Show)][-1]
    leds = [e for e in station.effects if isinstance(e, Leds)][-1]
    assert show.legal and set(leds.frame.lit_zones()) == set(show.movable_slots)
    assert station.acks >= 1 and link.state == leds.frame


def test_full_demo_game_with_buttons_on_mock_pins(tmp_path):
    """Rendered demo frames (read by the reader, ground truth where it disagrees) from the opening roll
    to the score; turns ended with the clock buttons, a double taken with the cube buttons."""
    from controller.cli.run import demo_events

    factory = MockFactory()
    pins = {"clock_light": 5, "clock_dark": 6, "dispute": 13, "double": 19, "take": 26, "drop": 21}
    console = Console(file=open(tmp_path / "out.txt", "w"), width=100)  # noqa: SIM115
    journal = Journal(tmp_path / "j.jsonl")
    station = Station(Settings(match_length=5), journal=journal, printer=ConsolePrinter(console))
    station.start()
    panel = ButtonPanel(pins, station.submit, pin_factory=factory, double_window=0.05, bounce_time=None)

    def press(name: str, wait: float = 0.0) -> None:
        pin = factory.pin(pins[name])
        pin.drive_low()
        pin.drive_high()
        time.sleep(wait)

    def settle() -> None:
        while not station.queue.empty():
            time.sleep(0.005)
        time.sleep(0.01)

    station.submit(MatchStarted(settings=Settings(match_length=5).to_json()))
    doubled = False
    clock_turns = 0
    # the frames are rendered; their ground truth stands in for the reader, whose accuracy is
    # vision's to measure (and which takes about a second a frame)
    for ev in demo_events(console, turns=None, use_reader=False):
        assert isinstance(ev, BoardSeen)
        settle()
        st = station.state
        if not ev.dice and st.phase == "moving" and "has moved" not in ev.source:
            # the mover presses his clock instead of waiting for the camera to see the dice go
            press("clock_light" if st.on_roll == 0 else "clock_dark")
            clock_turns += 1
            settle()
        if not doubled and st.phase == "to_roll" and st.on_roll == 1 and ev.dice and st.turns:
            press("double")
            press("take", wait=0.15)
            settle()
            doubled = True
        station.submit(ev)
    settle()
    panel.close()
    station.stop()
    journal.close()
    factory.reset()
    state = station.state
    ended = [e for e in station.effects if isinstance(e, GameEnded)]
    assert len(ended) == 1 and state.phase == "game_over"
    assert ended[0].points >= 2 and state.cube == 1  # the cube was at 2 when the game ended
    assert state.score[ended[0].winner] == ended[0].points
    codes = [(e.ruling.rule, e.ruling.code) for e in station.effects if isinstance(e, Announce)]
    assert ("B10", "take") in codes and ("B15", "rethrow") in codes and ("B9", "game_over") in codes
    assert clock_turns > 10
    # the journal replays to the same state
    assert replay(read(tmp_path / "j.jsonl"))[0] == state


def test_station_runs_hints_through_the_engine(link, tmp_path):
    """A hint request (long press on the clock) lights gnubg's best play, run by the station."""
    from controller import hints
    from controller.demo import scripted_events
    from controller.events import ButtonPressed

    station = Station(Settings(hints="home"), link=link)
    for ev in scripted_events(3, turns=2, settings=Settings(hints="home"))[:3]:
        station.handle(ev)
    station.handle(ButtonPressed(t=9.0, button="clock", player=station.state.on_roll, gesture="long"))
    leds = [e for e in station.effects if isinstance(e, Leds)][-1]
    assert leds.why == ("best play" if hints.gnubg_available() else "movable points")
    assert link.state == leds.frame


def test_station_reports_its_thread_failure(tmp_path):
    journal = Journal(tmp_path / "j.jsonl")
    journal.close()  # appending fails: the station must stop and say so, not act unjournaled
    station = Station(journal=journal)
    station.start()
    station.submit(MatchStarted())
    with pytest.raises(StationError):
        station.stop()
    with pytest.raises(StationError):
        station.submit(MatchStarted())
    assert station.state.phase == "setup"
