"""The journal reader cannot crash (issue 18 item 3): any bytes give the events before the first bad
line and that line's number and fault; a whole last entry without its newline is kept, and appending
completes its line instead of cutting it."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.game.events import Tick
from controller.station.journal import (
    Journal,
    JournalDamaged,
    JournalError,
    JournalTampered,
    NotAJournal,
    read,
    read_events_file,
    scan,
    scan_bytes,
)

from .journal_files import game_events, key, station_journal


def _unkeyed(path, n=5):
    with Journal(path) as j:
        for i in range(n):
            j.append(Tick(t=float(i)))
    return path


def _good_lines(path, n):
    return path.read_bytes().split(b"\n")[:n]


BAD_LINES = {
    "invalid UTF-8": b'{"event":{"kind":"tick","t":\xff1.0}}',
    "deep nesting": b'{"event":' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "huge integer": b'{"event":{"kind":"tick","t":1},"hash":"","prev":"","seq":' + b"9" * 5000 + b"}",
    "huge integer in the event": b'{"event":{"kind":"tick","t":' + b"1" * 10_000 + b'},"hash":"x"}',
    "no object": b"[1, 2, 3]",
    "lone surrogate": b'{"event":{"kind":"tick","t":1,"x":"\\ud800"},"hash":"x","prev":"x","seq":2}',
    "wrong types": b'{"event":{"kind":"tick","t":1},"hash":7,"prev":null,"seq":"2"}',
    "garbage": b"\x00\x01\x02 not json at all",
}


@pytest.mark.parametrize("name", BAD_LINES)
def test_a_bad_line_is_named_and_everything_before_it_recovered(tmp_path, name):
    path = _unkeyed(tmp_path / "j.jsonl")
    lines = _good_lines(path, 2)
    path.write_bytes(b"\n".join([*lines, BAD_LINES[name], b""]))
    contents = scan(path)
    assert isinstance(contents.damage, JournalDamaged)
    assert contents.damage.line == 3 and "j.jsonl:3: " in str(contents.damage)
    assert contents.events == [Tick(t=0.0), Tick(t=1.0)] == contents.damage.good
    with pytest.raises(JournalDamaged, match="j.jsonl:3"):
        read(path)


@pytest.mark.parametrize("name", ["invalid UTF-8", "deep nesting", "huge integer"])
def test_resume_and_replay_name_the_line_not_a_traceback(tmp_path, name):
    """The harness's three crashes: `resume` refuses in one line naming the line, `replay
    --until-damage` replays what comes before it."""
    from typer.testing import CliRunner

    from controller.cli import app

    path = _unkeyed(tmp_path / "j.jsonl")
    path.write_bytes(b"\n".join([*_good_lines(path, 2), BAD_LINES[name], b""]))
    runner = CliRunner()
    r = runner.invoke(app, ["resume", str(path)])
    assert r.exit_code == 2, r.output  # an uncaught exception would be exit 1
    assert f"{path}:3: " in r.output and r.output.count("\n") == 1
    r = runner.invoke(app, ["replay", str(path), "--until-damage"])
    assert r.exit_code == 0, r.output
    assert "damaged from line 3: replaying the 2 events before it" in r.output


def test_the_first_line_of_another_file_says_not_a_journal(tmp_path):
    contents = scan_bytes(b"\xff\xfe binary\nmore\n", "x.bin")
    assert isinstance(contents.damage, NotAJournal) and contents.damage.line == 1
    assert contents.events == []


@pytest.mark.parametrize("keyed", [False, True], ids=["unkeyed", "keyed"])
def test_a_missing_final_newline_loses_nothing_and_append_keeps_the_entry(tmp_path, keyed):
    k = key(tmp_path) if keyed else None
    path = tmp_path / "j.jsonl"
    with Journal(path, key=k) as j:
        for i in range(4):
            j.append(Tick(t=float(i)))
    path.write_bytes(path.read_bytes()[:-1])  # the last entry whole, its newline gone
    contents = scan(path, k)
    assert contents.damage is None and not contents.torn and contents.unterminated
    assert read(path, k) == [Tick(t=float(i)) for i in range(4)]
    with Journal(path, key=k) as j:
        assert len(j) == 4
        j.append(Tick(t=9.0))
    assert read(path, k) == [*(Tick(t=float(i)) for i in range(4)), Tick(t=9.0)]
    assert path.read_bytes().count(b"\n") == 5


def test_a_torn_last_line_is_dropped_and_cut_before_appending(tmp_path):
    path = _unkeyed(tmp_path / "j.jsonl", 3)
    whole = path.read_bytes()
    path.write_bytes(whole + b'{"event":{"kind":"ti')
    assert scan(path).torn and read(path) == [Tick(t=0.0), Tick(t=1.0), Tick(t=2.0)]
    with Journal(path) as j:
        j.append(Tick(t=7.0))
    assert read(path)[-1] == Tick(t=7.0) and path.read_bytes().startswith(whole)


def test_plain_event_files_name_their_bad_line(tmp_path):
    path = tmp_path / "events.jsonl"
    path.write_bytes(json.dumps(Tick(t=1.0).to_json()).encode() + b"\n" + b"[" * 50_000 + b"\n")
    with pytest.raises(JournalError, match="events.jsonl:2: "):
        read_events_file(path)


# --- any bytes --------------------------------------------------------------------------------------


_GOOD: dict[str, tuple] = {}


@pytest.fixture(scope="module", autouse=True)
def _good_journal(tmp_path_factory):
    """A keyed journal of 12 events and its stop seal (13 lines), its events and its key."""
    folder = tmp_path_factory.mktemp("fuzz")
    k = key(folder)
    path = station_journal(folder / "j.jsonl", k, game_events()[:12])
    _GOOD["journal"] = (path.read_bytes(), read(path, k), k)


def _check_any_bytes(data: bytes) -> None:
    contents = scan_bytes(data, "fuzz")
    assert contents.damage is None or contents.damage.line >= 1
    if contents.damage is not None:
        assert str(contents.damage).startswith("fuzz")


def _check_tail(prefix_lines: int, tail: bytes) -> None:
    data, events, k = _GOOD["journal"]
    lines = data.split(b"\n")
    head = b"\n".join(lines[:prefix_lines]) + b"\n"
    contents = scan_bytes(head + tail, "fuzz", k)
    good = events[: sum(b'"event":' in line for line in lines[:prefix_lines])]
    assert contents.events[: len(good)] == good  # every entry before the tail is recovered
    if contents.damage is not None:
        assert contents.damage.line > prefix_lines  # the first bad line is the tail's


FUZZ = settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW_FUZZ = settings(max_examples=100_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
_tails = st.one_of(
    st.binary(max_size=300),
    st.text(max_size=200).map(lambda s: s.encode("utf-8", "surrogatepass")),
    st.builds(lambda d: b'{"event":' + b"[" * d, st.integers(0, 5000)),
    st.builds(lambda n: b'{"event":{"kind":"tick","t":' + b"7" * n + b"}}", st.integers(1, 6000)),
)


@FUZZ
@given(st.binary(max_size=2000))
def test_any_bytes_never_raise(data):
    _check_any_bytes(data)


@FUZZ
@given(st.integers(0, 14), _tails)
def test_any_tail_keeps_every_entry_before_it(prefix_lines, tail):
    _check_tail(prefix_lines, tail)


@pytest.mark.slow
@SLOW_FUZZ
@given(st.binary(max_size=4000))
def test_any_bytes_never_raise_long(data):
    _check_any_bytes(data)


@pytest.mark.slow
@SLOW_FUZZ
@given(st.integers(0, 14), _tails)
def test_any_tail_keeps_every_entry_before_it_long(prefix_lines, tail):
    _check_tail(prefix_lines, tail)


def _check_flips(stride: int) -> None:
    """A bit flipped in any byte (every ``stride``-th, and the last) is named at its own line. Two
    exceptions: a flip in the first line's key id makes the lines after it name another key than it
    (named at line 2); a flip of the final newline leaves a torn, unsealed tail."""
    data, events, k = _GOOD["journal"]
    first_key = data.index(k.id.encode())
    for i in sorted({*range(0, len(data), stride), len(data) - 1}):
        contents = scan_bytes(data[:i] + bytes([data[i] ^ 0x01]) + data[i + 1 :], "m", k)
        line = data[:i].count(b"\n") + 1
        if first_key <= i < first_key + len(k.id):
            assert contents.damage is not None and contents.damage.line == 2, i
            assert "names key" in str(contents.damage)
        elif contents.damage is not None:
            assert contents.damage.line == line, i
        else:
            assert not contents.checked or (contents.torn and i == len(data) - 1), i
    assert isinstance(scan_bytes(data[:-5] + b"x\n", "m", k).damage, JournalTampered)


def test_flipped_bits_of_a_keyed_journal_are_caught_at_their_lines():
    """Every third byte in the default run (each line's key, chain and body among them)."""
    _check_flips(3)


@pytest.mark.slow
def test_every_flipped_bit_of_a_keyed_journal_is_caught_at_its_line():
    _check_flips(1)
