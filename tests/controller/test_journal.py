"""The journal: append + fsync, hash chain, tamper detection, torn tail; events round-trip."""

from __future__ import annotations

import json

import pytest

from controller import game
from controller.demo import seen
from controller.events import BoardSeen, ButtonPressed, DeviceChanged, MatchStarted, Tick, event_from_json
from controller.journal import Journal, JournalTampered, read, read_events_file
from controller.rulings import Settings
from controller.station import replay, resume


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
