"""The journal: append + fsync, hash chain, tamper detection, torn tail; events round-trip."""

from __future__ import annotations

import json

import pytest

from controller import game
from controller.game.events import (
    BoardSeen,
    ButtonPressed,
    DeviceChanged,
    MatchStarted,
    Tick,
    event_from_json,
)
from controller.game.rulings import Settings
from controller.station import replay, resume
from controller.station.demo import seen
from controller.station.journal import Journal, JournalTampered, read, read_events_file


def _events():
    start = game.start_side("backgammon")
    return [
        MatchStarted(t=0.0, settings=Settings(match_length=5).to_json()),
        seen((start, start), t=1.0),
        seen((start, start), ((3, "flat"), (1, "flat")), None, t=2.0),
        ButtonPressed(t=3.0, button="clock", player=0, gesture="short"),
        DeviceChanged(t=4.0, device="camera", online=False),
        Tick(t=5.0),
    ]


def test_events_round_trip_through_json():
    for ev in _events():
        assert event_from_json(json.loads(json.dumps(ev.to_json()))) == ev


def test_journal_appends_and_reads_back(tmp_path):
    path = tmp_path / "j.jsonl"
    with Journal(path) as j:
        for ev in _events():
            j.append(ev)
    assert read(path) == _events()
    with Journal(path) as j:  # reopening continues the chain
        assert len(j) == len(_events())
        j.append(Tick(t=9.0))
    assert read(path)[-1] == Tick(t=9.0)


@pytest.mark.parametrize("damage", ["edit", "remove", "swap", "insert"])
def test_edited_journal_is_detected(tmp_path, damage):
    path = tmp_path / "j.jsonl"
    with Journal(path) as j:
        for ev in _events():
            j.append(ev)
    lines = path.read_text().splitlines()
    if damage == "edit":
        lines[2] = lines[2].replace('"t":2.0', '"t":2.5')
    elif damage == "remove":
        del lines[3]
    elif damage == "swap":
        lines[2], lines[3] = lines[3], lines[2]
    else:
        lines.insert(2, lines[1])
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(JournalTampered, match="j.jsonl:"):
        read(path)


def test_torn_last_line_is_dropped_and_cut(tmp_path):
    path = tmp_path / "j.jsonl"
    with Journal(path) as j:
        for ev in _events()[:3]:
            j.append(ev)
    with open(path, "ab") as f:
        f.write(b'{"seq": 3, "prev": "ab')  # a crash in mid-write
    assert len(read(path)) == 3
    with Journal(path) as j:
        j.append(Tick(t=7.0))
    assert read(path)[-1] == Tick(t=7.0) and len(read(path)) == 4


def test_resume_replays_to_the_same_state(tmp_path):
    path = tmp_path / "j.jsonl"
    with Journal(path) as j:
        for ev in _events():
            j.append(ev)
    state, n = resume(path)
    direct, _ = replay(_events())
    assert n == len(_events()) and state == direct
    assert state.phase == "deciding" and state.on_roll == 0  # clock pressed with nothing moved: B17


def test_plain_event_files_are_read(tmp_path):
    path = tmp_path / "e.jsonl"
    path.write_text("".join(json.dumps(ev.to_json()) + "\n" for ev in _events()))
    assert read_events_file(path) == _events()
    assert isinstance(read_events_file(path)[1], BoardSeen)


def test_station_journals_each_event_before_stepping_it(tmp_path, monkeypatch):
    """DESIGN.md data flow: journal.append (fsync) comes before game.step, for every input event."""
    from controller.station import Station
    from controller.station.demo import scripted_events

    path = tmp_path / "j.jsonl"
    events = scripted_events(3, turns=4, settings=Settings(hints="referee"))
    step = game.step
    checked = []

    def checking_step(state, event):
        assert read(path)[-1] == event  # already on disk when the referee acts on it
        checked.append(event)
        return step(state, event)

    monkeypatch.setattr(game, "step", checking_step)
    with Journal(path) as j:
        station = Station(journal=j)
        for ev in events:
            station.handle(ev)
    assert checked == events and read(path) == events


def test_replay_prints_every_ruling_with_its_rule_id_and_reason(tmp_path):
    """`tavla replay` recomputes the rulings from the journal's events: each one is printed with its
    RULES.md id, its reason and the event that led to it, the same list the station announced."""
    from typer.testing import CliRunner

    from controller.cli import app
    from controller.game.effects import Announce
    from controller.station.demo import scripted_events

    events = scripted_events(3, settings=Settings(match_length=3, hints="referee"))
    events.insert(5, ButtonPressed(t=4.5, button="double", player=1, gesture="short"))  # out of turn
    path = tmp_path / "j.jsonl"
    with Journal(path) as j:
        for ev in events:
            j.append(ev)
    _, effects = replay(events)
    announced = [e.ruling for e in effects if isinstance(e, Announce)]
    assert {r.rule for r in announced} >= {"B15", "B10", "B9"}
    r = CliRunner().invoke(app, ["replay", str(path)], env={"COLUMNS": "250"})
    assert r.exit_code == 0, r.output
    lines = [line for line in r.output.splitlines() if " RULING [" in line]
    assert len(lines) == len(announced) and f"{len(announced)} rulings" in r.output
    for line, ruling in zip(lines, announced, strict=True):
        assert f"RULING [{ruling.rule}] {ruling.reason} ({ruling.code}," in line and line.startswith("#")


def test_run_events_journal_holds_the_station_settings_and_resumes(tmp_path):
    """`tavla run --events` with a config: the journal starts with the settings (a MatchStarted the
    recorded file lacks), so a replay gives the station's state; `tavla resume --events` accepts it."""
    from rich.console import Console
    from typer.testing import CliRunner

    from controller.cli import app
    from controller.station.demo import scripted_events
    from controller.station.session import run_session

    settings = Settings(match_length=3, hints="referee")
    recorded = scripted_events(3, settings=settings)[1:]  # a recording without its settings
    src = tmp_path / "events.jsonl"
    src.write_text("".join(json.dumps(ev.to_json()) + "\n" for ev in recorded))
    path = tmp_path / "j.jsonl"
    console = Console(file=open(tmp_path / "out.txt", "w"), width=120)  # noqa: SIM115
    station = run_session(iter(recorded), settings, None, path, console)
    journaled = read(path)
    assert journaled[0] == MatchStarted(t=0.0, settings=settings.to_json()) and journaled[1:] == recorded
    state, _ = replay(journaled)
    assert state == station.state and state.settings.match_length == 3
    r = CliRunner().invoke(app, ["resume", str(path), "--events", str(src), "--no-leds"])
    assert r.exit_code == 0, r.output
    assert read(path) == journaled  # nothing left to add, nothing added twice
