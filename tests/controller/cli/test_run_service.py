"""`tavla run` as a service (issue 15 item 5): SIGTERM is a clean stop with the summary, and the same
command run again resumes the journal where it stopped; a finished match is not resumed."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from controller.station.journal import read
from tests.controller.station.journal_files import game_events, key

TAVLA = str(Path(sys.executable).parent / "tavla")


def test_sigterm_stops_cleanly_and_the_same_command_resumes(tmp_path):
    journal, events = tmp_path / "j.jsonl", tmp_path / "events.jsonl"
    recorded = game_events()
    events.write_text("".join(json.dumps(ev.to_json()) + "\n" for ev in recorded))
    key_file = key(tmp_path).path
    env = dict(os.environ, COLUMNS="200")
    cmd = [TAVLA, "run", "--no-leds", "--events", str(events), "--journal", str(journal),
           "--key", str(key_file), "--resume-or-start", "--quiet"]
    first = subprocess.Popen([*cmd, "--pace", "0.05"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=env)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not journal.exists() or journal.read_text().count("\n") < 30):
        time.sleep(0.05)
    first.send_signal(signal.SIGTERM)
    out, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    assert "stopping the station (SIGTERM)" in out and "summary" in out
    assert "Traceback" not in err and "leaked" not in err, err
    part = read(journal, key(tmp_path))
    assert 0 < len(part) < len(recorded)
    again = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    assert again.returncode == 0, again.stderr
    assert f"resuming {journal}" in again.stdout
    assert read(journal, key(tmp_path)) == recorded  # nothing lost, nothing twice
    r = subprocess.run([TAVLA, "verify", str(journal), "--key", str(key_file)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout


def test_an_unwritable_journal_folder_is_one_line(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root writes into any folder: nothing to refuse")
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        r = subprocess.run([TAVLA, "run", "--no-leds", "--journal", str(folder / "j.jsonl")],
                           capture_output=True, text=True, timeout=120)
    finally:
        folder.chmod(0o700)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "not writable" in r.stderr, r.stderr


@pytest.mark.parametrize(
    ("where", "words"),
    [
        ("/sys/tavla-j.jsonl", "cannot write the journal /sys/tavla-j.jsonl: permission denied"),
        ("/proc/tavla-j.jsonl", "cannot write the journal /proc/tavla-j.jsonl: no such file or directory"),
        ("afile/j.jsonl", "afile is a file, not a folder; give a --journal path in a folder"),
        ("afile/deeper/j.jsonl", "afile is a file, not a folder"),
    ],
)
def test_a_journal_path_that_cannot_be_written_says_what_to_do(tmp_path, where, words):
    """Issue 15: one line naming the path and what to do, never `tavla: PermissionError: [Errno 13]`."""
    (tmp_path / "afile").write_text("")
    path = where if where.startswith("/") else str(tmp_path / where)
    words = words if where.startswith("/") else str(tmp_path / words)
    r = subprocess.run([TAVLA, "run", "--no-leds", "--plain", "--journal", path],
                       capture_output=True, text=True, timeout=120, env=dict(os.environ, COLUMNS="300"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert words in r.stderr and "Error" not in r.stderr and "Errno" not in r.stderr, r.stderr
    if where.startswith("/"):
        assert "give a --journal path in a folder you can write" in r.stderr


def test_the_journal_itself_refuses_an_unwritable_path_in_one_line(tmp_path):
    from controller.station.journal import Journal, JournalError

    (tmp_path / "afile").write_text("")
    with pytest.raises(JournalError, match="is a file, not a folder"):
        Journal(tmp_path / "afile" / "j.jsonl")
    with pytest.raises(JournalError, match="cannot write the journal /proc/j.jsonl"):
        Journal("/proc/j.jsonl")


def _demo_journal_and_an_old_photo(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A demo journal two turns in, its key, and a folder with the demo's third frame (light has
    moved, dark not yet): not the journal's board any more."""
    import cv2

    from controller.station.demo import frames

    journal, key_file = tmp_path / "j.jsonl", key(tmp_path).path
    r = subprocess.run([TAVLA, "run", "--turns", "2", "--no-leds", "--journal", str(journal),
                        "--key", str(key_file), "--quiet"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    folder = tmp_path / "photos"
    folder.mkdir()
    image = [image for image, _, _ in frames(turns=2)][2]
    cv2.imwrite(str(folder / "a.png"), image)
    return journal, key_file, folder


@pytest.mark.parametrize("command", ["resume", "run"])
def test_a_board_that_differs_at_resume_is_ruled_by_resume_and_run(tmp_path, command):
    """Issue 15 item 6 for both ways back: `tavla resume J --source` as `tavla run --journal J`."""
    journal, key_file, folder = _demo_journal_and_an_old_photo(tmp_path)
    before = len(read(journal, key(tmp_path)))
    args = [str(journal), "--source", str(folder)] if command == "resume" else [
        "--journal", str(journal), "--source", str(folder), "--plain"]
    r = subprocess.run([TAVLA, command, *args, "--key", str(key_file)], capture_output=True, text=True,
                       timeout=300, env=dict(os.environ, COLUMNS="200"))
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "RULING [resume] position mismatch at resume: the board is not the journal's: " in out, out
    assert re.search(r"(light|dark)'s \d+: \d+ expected, \d+ seen", out), out
    assert "LEDs (position mismatch): all off" in out
    assert "LEDs off: put the checkers back, or press a button" in out
    assert len(read(journal, key(tmp_path))) == before  # the held-back board is not journaled


def test_resume_demo_goes_on_with_the_journals_variant(tmp_path, monkeypatch):
    """A nardy demo journal goes on with the nardy script (it went on with backgammon's, 81 rulings
    of illegal moves, found by the fresh-user pass)."""
    from typer.testing import CliRunner

    from controller.cli import app
    from controller.game.rulings import Settings
    from controller.station import session
    from controller.station.demo import scripted_events
    from tests.controller.station.journal_files import station_journal

    nardy = Settings(variant="nardy")
    events = [replace(ev, source=f"demo {i}: {getattr(ev, 'source', '')}") if i else ev
              for i, ev in enumerate(scripted_events(7, turns=2, settings=nardy, variant="nardy"))]
    journal = station_journal(tmp_path / "n.jsonl", key(tmp_path), events)
    asked: list[str] = []

    def demo_events(console, turns, start=0, variant="backgammon", **kw):
        asked.append(variant)
        return iter(())

    monkeypatch.setattr(session, "demo_events", demo_events)
    r = CliRunner().invoke(app, ["resume", str(journal), "--demo", "--no-leds",
                                 "--key", str(key(tmp_path).path)])
    assert r.exit_code == 0, r.output
    assert asked == ["nardy"]


def test_leds_in_the_station_file_drive_the_default_emulator(tmp_path):
    """hardware_docs/layout.md's [leds] (80 LEDs) with the default ledsim:// (28 LEDs) was refused:
    the emulator is now given the strip's length; an explicit short one says how to size it."""
    station = tmp_path / "s.toml"
    station.write_text("[leds]\ncount = 80\n[leds.serpentine]\nleds_per_point = 3\n")
    base = [TAVLA, "run", "--config", str(station), "--turns", "1", "--quiet",
            "--key", str(key(tmp_path).path)]
    r = subprocess.run([*base, "--journal", str(tmp_path / "a.jsonl")], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    r = subprocess.run([*base, "--journal", str(tmp_path / "b.jsonl"), "--serial", "ledsim://?leds=28"],
                       capture_output=True, text=True, timeout=300, env=dict(os.environ, COLUMNS="300"))
    assert r.returncode == 2 and "(ledsim://?leds=80)" in r.stderr, r.stderr


@pytest.mark.parametrize("pace", ["nan", "inf", "-1"])
def test_a_pace_that_is_no_number_of_seconds_is_one_line(pace):
    """--pace inf raised OverflowError from time.sleep; nan slept not at all."""
    for command in (["run", "--no-leds"], ["resume"]):
        r = subprocess.run([TAVLA, *command, "--pace", pace], capture_output=True, text=True, timeout=120)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and "--pace" in r.stderr, r.stderr
