"""One writer per journal (issue 18 item 2): a second writer refuses and names the holder's process,
with two real processes; the lock goes with its holder, kill -9 included."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller.station.journal import Journal, JournalLocked, read
from controller.station.journal_lock import note_path

from .journal_files import game_events, key

TAVLA = str(Path(sys.executable).parent / "tavla")

HOLDER = r"""
import sys
from controller.station.journal import Journal
from controller.game.events import Tick
with Journal(sys.argv[1]) as j:
    j.append(Tick(t=1.0))
    print("holding", flush=True)
    sys.stdin.readline()
"""


def _hold(path: Path) -> subprocess.Popen[str]:
    child = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None and child.stdout.readline() == "holding\n"
    return child


def test_a_second_writer_refuses_and_names_the_holder(tmp_path):
    path = tmp_path / "j.jsonl"
    child = _hold(path)
    try:
        with pytest.raises(JournalLocked, match=rf"being written by process {child.pid}\b") as info:
            Journal(path)
        assert info.value.pid == child.pid
        assert read(path) and path.read_bytes().count(b"\n") == 1  # the refused writer wrote nothing
    finally:
        child.communicate("\n", timeout=30)
    with Journal(path) as j:  # released when the holder closed it
        assert len(j) == 1
    assert not note_path(path).exists()


def test_the_lock_dies_with_its_holder(tmp_path):
    path = tmp_path / "j.jsonl"
    child = _hold(path)
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=30)
    with Journal(path) as j:  # no stale lock, though the dead holder's note was left behind
        assert len(j) == 1


def test_two_writers_in_one_process_are_refused_too(tmp_path):
    path = tmp_path / "j.jsonl"
    with Journal(path), pytest.raises(JournalLocked, match=f"process {os.getpid()}"):
        Journal(path)


def test_two_stations_appending_at_once(tmp_path):
    """The harness's case: two `tavla run --append` on one journal at once. Now the second refuses in
    one line naming the first's process id, and the first's journal (stopped with Ctrl-C) is whole,
    sealed and intact."""
    journal, events = tmp_path / "j.jsonl", tmp_path / "events.jsonl"
    recorded = game_events()
    events.write_text("".join(json.dumps(ev.to_json()) + "\n" for ev in recorded))
    key_file = key(tmp_path).path  # made once, before both start
    env = dict(os.environ, COLUMNS="200")
    cmd = [TAVLA, "run", "--no-leds", "--events", str(events), "--pace", "0.2", "--journal", str(journal),
           "--append", "--key", str(key_file)]
    first = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 60
        while not note_path(journal).exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        second = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    finally:
        first.send_signal(signal.SIGINT)  # a clean stop: the station seals the journal
        _, err = first.communicate(timeout=120)
    assert first.returncode == 130, err
    assert second.returncode == 2 and second.stderr.count("\n") == 1, second.stderr
    assert f"being written by process {first.pid}" in second.stderr
    written = read(journal, key(tmp_path))
    assert written and written == recorded[: len(written)]
    r = subprocess.run([TAVLA, "verify", str(journal), "--key", str(key_file)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "intact" in r.stdout and "clean stop" in r.stdout, r.stdout
