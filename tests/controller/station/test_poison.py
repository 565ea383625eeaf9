"""Poison events (issue 18 item 1): every event field set out of range or to the wrong type, through
``game.step``, the station, ``resume`` and ``replay``. Nothing raises, nothing changes the game, and
every such event is journaled as refused."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from typing import Any

import pytest

from controller import game
from controller.game.effects import Prompt
from controller.game.events import (
    REPLAY_NOTE,
    BoardSeen,
    ButtonPressed,
    DeviceChanged,
    DieSeen,
    Event,
    MatchStarted,
    Refused,
    Tick,
    event_from_json,
    screen,
)
from controller.game.rulings import Settings
from controller.station import Station, replay, resume
from controller.station.demo import seen
from controller.station.journal import Journal, read

START = game.start_side("backgammon")
class _Opaque:
    """An object of no JSON type, with a repr that is the same in every process (test ids)."""

    def __repr__(self) -> str:
        return "<object>"


WRONG_TYPES: list[Any] = ["3", None, [], {}, b"x", 2.5, True, _Opaque()]
BAD_NUMBERS: list[Any] = [math.nan, math.inf, -math.inf, -1, 2**70, 1e300]


def opening() -> BoardSeen:
    return seen((START, START), ((3, "flat"), (1, "flat")), None, t=2.0)


def good_events() -> list[Event]:
    return [
        MatchStarted(t=0.0, settings=Settings(match_length=5).to_json()),
        seen((START, START), t=1.0),
        opening(),
        Tick(t=3.0),
    ]


def _die(ev: BoardSeen, **change: Any) -> BoardSeen:
    return replace(ev, dice=(replace(ev.dice[0], **change), *ev.dice[1:]))


def _slot(ev: BoardSeen, index: int, value: Any) -> BoardSeen:
    first = next(i for i, s in enumerate(ev.slots) if s[1])
    triple = list(ev.slots[first])
    triple[index] = value
    return replace(ev, slots=(*ev.slots[:first], tuple(triple), *ev.slots[first + 1 :]))  # type: ignore[arg-type]


def poisons() -> list[tuple[str, Event]]:
    """(what, event): each field of each event kind, out of range or of the wrong type."""
    out: list[tuple[str, Event]] = []
    board = opening()
    for v in [7, 0, -1, 6.5, "3", *WRONG_TYPES, *BAD_NUMBERS]:
        if v is not None:
            out.append((f"die value {v!r}", _die(board, value=v)))
    for v in ["rolling", 3, *WRONG_TYPES]:
        out.append((f"die status {v!r}", _die(board, status=v)))
    for v in [24, -1, 2.0, "2", True]:
        out.append((f"die slot {v!r}", _die(board, slot=v)))
    for v in [1.5, -0.1, *WRONG_TYPES, *BAD_NUMBERS]:
        if not isinstance(v, float | int) or isinstance(v, bool) or not 0 <= v <= 1:
            out.append((f"die confidence {v!r}", _die(board, confidence=v)))
    out.append(("7 dice", replace(board, dice=board.dice * 3 + board.dice[:1])))
    out.append(("a die that is no die", replace(board, dice=(3, 1))))  # type: ignore[arg-type]
    out.append(("dice not a sequence", replace(board, dice=5)))  # type: ignore[arg-type]
    for v in [2.5, -1, 16, "2", True, None, *BAD_NUMBERS]:
        out.append((f"slot count {v!r}", _slot(board, 1, v)))
    for v in ["white", 1, True]:
        out.append((f"slot colour {v!r}", _slot(board, 0, v)))
    out.append(("a count of no colour", _slot(board, 0, None)))
    for v in [1.5, -0.5, "x", *BAD_NUMBERS]:
        out.append((f"slot confidence {v!r}", _slot(board, 2, v)))
    out.append(("25 slots", replace(board, slots=board.slots + board.slots[:1])))
    out.append(("a slot that is no triple", replace(board, slots=((None, 0),) * 24)))  # type: ignore[arg-type]
    out.append(("15 on the points and 1 off", replace(board, off={"light": 1})))
    out.append(("16 on the bar", replace(board, bar={"dark": 16})))
    for name in ("bar", "off"):
        for v in [{"light": 2.5}, {"blue": 1}, {"light": -1}, {"dark": "1"}, [1], "x", None]:
            out.append((f"{name} {v!r}", replace(board, **{name: v})))
    for name, values in (
        ("occluded", [1, "no", None]),
        ("status", ["fine", 1, None]),
        ("has_bar", [1, "yes"]),
        ("source", [3, None, "x" * 1000]),
    ):
        for v in values:
            out.append((f"board {name} {v!r}", replace(board, **{name: v})))
    for v in ["3", None, [], b"x", True, _Opaque(), *BAD_NUMBERS, -1.0, 2e12]:
        out.append((f"t {v!r}", Tick(t=v)))
    for name, values in (
        ("button", ["cloak", 1, None]),
        ("player", [2, -1, "0", True, 0.0]),
        ("gesture", ["tap", None]),
    ):
        for v in values:
            out.append((f"button {name} {v!r}", replace(ButtonPressed(t=4.0), **{name: v})))
    for name, values in (
        ("device", ["toaster", 1, None]),
        ("online", [1, "yes", None]),
        ("since", [math.nan, -1.0, "3", 9.0]),  # 9.0: after the report itself
    ):
        for v in values:
            out.append((f"device {name} {v!r}", replace(DeviceChanged(t=5.0, online=False), **{name: v})))
    for v in [
        {"match_length": -1},
        {"match_length": "5"},
        {"match_length": 2.5},
        {"match_length": 10**9},
        {"variant": "chess"},
        {"crawford": 1},
        {"clock_reserve": math.nan},
        {"no_such_setting": 1},
        {"light_player": 5},
        "5-point",
    ]:
        out.append((f"settings {v!r}", MatchStarted(t=0.5, settings=v)))  # type: ignore[arg-type]
    return out


POISONS = poisons()


def _prompts(effects: list[Any]) -> list[str]:
    return [e.text for e in effects if isinstance(e, Prompt)]


@pytest.mark.parametrize("what,event", POISONS, ids=[w for w, _ in POISONS])
def test_game_step_refuses_a_poisoned_event_and_changes_nothing(what: str, event: Event) -> None:
    for state in (replay(good_events()[:2])[0], replay(good_events())[0]):  # setup; then moving
        after, effects = game.step(state, event)
        assert after == state
        assert any(p.startswith("refused: ") for p in _prompts(effects)), what
    assert isinstance(screen(event), Refused)


def test_the_good_events_pass_their_checks() -> None:
    assert all(screen(ev) is ev for ev in good_events())
    assert replay(good_events())[0].phase == "moving"


def test_the_station_journals_every_poison_as_refused_and_resume_and_replay_agree(tmp_path: Any) -> None:
    path = tmp_path / "poisoned.jsonl"
    good = good_events()
    with Journal(path) as journal:
        station = Station(journal=journal)
        station.handle(good[0])
        station.handle(good[1])
        for _, ev in POISONS:  # at the opening: a die of 7 must not break the opening roll
            station.handle(ev)
        for ev in good[2:]:
            station.handle(ev)
        for _, ev in POISONS:  # while moving: 7 dice or NaN confidence are not "dice picked up"
            station.handle(ev)
        station.stop()
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    kinds = [line["event"]["kind"] for line in lines if "event" in line]
    assert kinds.count("refused") == 2 * len(POISONS)
    assert station.state == replay(good)[0]
    assert station.state.phase == "moving"
    assert not any(getattr(e, "ruling", None) for e in station.effects)  # no B17 from poisoned dice
    state, n = resume(path)
    assert n == len(good) + 2 * len(POISONS) and state == station.state
    events = read(path)
    assert replay(events)[0] == station.state
    assert sum(isinstance(e, Refused) for e in events) == 2 * len(POISONS)


def _json_able(ev: Event) -> bool:
    try:
        json.dumps(ev.to_json())
    except (TypeError, ValueError, AttributeError):
        return False
    return True


def test_an_old_journal_holding_a_poison_replays_it_as_refused_with_a_note(tmp_path: Any) -> None:
    """A journal written before the checks: the bad events went in as they came."""
    path = tmp_path / "old.jsonl"
    old = [ev for _, ev in POISONS if _json_able(ev)]
    assert len(old) > 50
    good = good_events()
    with Journal(path) as journal:
        for ev in good[:2] + old + good[2:] + old:
            journal.append(ev)  # Journal.append itself does not screen: as old code wrote them
    events = read(path)
    refused = [e for e in events if isinstance(e, Refused)]
    assert len(refused) == 2 * len(old) and all(r.note == REPLAY_NOTE for r in refused)
    state, _ = resume(path)
    assert state == replay(good)[0]
    _, effects = replay(events)
    assert sum(REPLAY_NOTE in p for p in _prompts(effects)) == 2 * len(old)


@pytest.mark.parametrize(
    "raw",
    [
        {"kind": "laser", "t": 1.0},
        {"kind": "board_seen", "dice": [[7]]},
        {"kind": "board_seen", "dice": [[]]},
        {"kind": "board_seen", "dice": "x"},
        {"kind": "board_seen", "slots": [[None, 0]]},
        {"kind": "button", "button": "x", "bogus": 1},
        {"kind": "refused", "event": 3},
        {"t": 1.0},
        [1, 2],
        "tick",
    ],
)
def test_event_from_json_never_raises(raw: Any) -> None:
    ev = event_from_json(raw)
    assert isinstance(ev, Refused) and ev.note == REPLAY_NOTE
    json.dumps(ev.to_json(), allow_nan=False)  # the refused form is itself a clean journal value


def test_a_refused_event_round_trips_through_json() -> None:
    ev = screen(_die(opening(), value=math.nan))
    assert isinstance(ev, Refused) and "value" in ev.reason
    assert event_from_json(json.loads(json.dumps(ev.to_json()))) == ev


def test_a_fractional_count_is_refused_not_rounded() -> None:
    """The journal once held 2.5 and replayed it as 2: now it is refused both times."""
    ev = _slot(opening(), 1, 2.5)
    assert isinstance(screen(ev), Refused)
    raw = json.loads(json.dumps(ev.to_json()))
    assert isinstance(event_from_json(raw), Refused)


def test_a_die_seen_keeps_its_values_through_json() -> None:
    die = DieSeen(4, "flat", 3, 0.75)
    board = replace(opening(), dice=(die,))
    assert event_from_json(json.loads(json.dumps(board.to_json()))) == board


class _Written(Tick):
    """A journal body of any shape, as another Tavla (or none) may have written it."""

    def __init__(self, body: Any) -> None:
        object.__setattr__(self, "body", body)

    def to_json(self) -> Any:
        return self.body


@pytest.mark.parametrize(
    "body", [{"kind": "laser", "t": 1.0}, {"kind": "tick", "t": "soon"}, [1, 2], "tick", 7]
)
def test_resume_never_fails_on_a_journal_line_that_parsed(tmp_path: Any, body: Any) -> None:
    path = tmp_path / "odd.jsonl"
    good = good_events()
    with Journal(path) as journal:
        for ev in good[:2]:
            journal.append(ev)
        journal.append(_Written(body))
        for ev in good[2:]:
            journal.append(ev)
    state, n = resume(path)
    assert n == len(good) + 1 and state == replay(good)[0]
    assert isinstance(read(path)[2], Refused)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_real_camera_reading_passes_its_checks(seed: int) -> None:
    """The reader's own output (numpy numbers and all) is never refused."""
    from controller.game.events import board_seen
    from vision.reader import read_board
    from vision.render.scene import random_spec, render

    frame = render(random_spec(seed), size=(960, 540), seed=seed).image
    ev = board_seen(read_board(frame), t=1.0)
    assert screen(ev) is ev


def test_every_field_of_every_event_kind_carries_a_check() -> None:
    """A new event type (issue 16's referee actions) joins the schema by giving each field a check."""
    from dataclasses import fields

    from controller.game.events import _KINDS

    for cls in (*_KINDS.values(), DieSeen):
        unchecked = [f.name for f in fields(cls) if "check" not in f.metadata]
        assert not unchecked, f"{cls.__name__}: {unchecked} carry no check (field(metadata=checked(...)))"
