"""`tavla run` as a service (issue 15 item 5): SIGTERM is a clean stop with the summary, and the same
command run again resumes the journal where it stopped; a finished match is not resumed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
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
