"""Crash safety (issue 6 item 7): SIGKILL the station process at random points of a scripted game,
resume from the journal, and check that no event was lost or applied twice -- the journal ends holding
exactly the recorded events, in order, and replays to the state of an uninterrupted run."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from controller.game.rulings import Settings
from controller.station import replay
from controller.station.demo import scripted_events
from controller.station.journal import read

# A referee station (rulings only, no gnubg hints): the runs measure the journal, not the engine.
SETTINGS = Settings(hints="referee")

TAVLA = str(Path(sys.executable).parent / "tavla")


def _write(events, path: Path) -> None:
    path.write_text("".join(json.dumps(ev.to_json()) + "\n" for ev in events))


def _kill_after(cmd: list[str], delay: float) -> int:
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        proc.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        return -9
    err = proc.stderr.read().decode() if proc.stderr else ""
    assert proc.returncode == 0, err
    return 0


def _check(journal: Path, events) -> None:
    assert read(journal) == events  # nothing lost, nothing twice, in order
    resumed, _ = replay(read(journal))
    direct, _ = replay(events)
    assert resumed == direct
    assert direct.phase == "game_over"


def _kill_and_resume(tmp_path: Path, kills: int, seed: int, cmd_first, cmd_resume, delays) -> int:
    events = scripted_events(seed, settings=SETTINGS)
    src = tmp_path / "events.jsonl"
    journal = tmp_path / "journal.jsonl"
    _write(events, src)
    rng = random.Random(seed)
    killed = 0
    cmd = cmd_first(journal, src)
    for _ in range(kills):
        killed += _kill_after(cmd, rng.uniform(*delays)) == -9
        # killed before the station wrote its journal (a loaded machine starts slowly): nothing was
        # recorded, so the user starts the run again rather than resuming
        cmd = cmd_resume(journal, src) if journal.exists() else cmd_first(journal, src)
        if journal.exists() and len(read(journal)) == len(events):
            break
    last = cmd_resume(journal, src) if journal.exists() else cmd_first(journal, src)
    subprocess.run(last, check=True, capture_output=True, timeout=300)
    _check(journal, events)
    return killed


def test_kill_and_resume_through_the_cli(tmp_path):
    """`tavla run --events` killed three times, `tavla resume --events` carries on each time."""
    killed = _kill_and_resume(
        tmp_path,
        3,
        seed=3,
        cmd_first=lambda j, s: [
            TAVLA,
            "run",
            "--events",
            str(s),
            "--journal",
            str(j),
            "--no-leds",
            "--pace",
            "0.01",
        ],
        cmd_resume=lambda j, s: [TAVLA, "resume", str(j), "--events", str(s), "--no-leds", "--pace", "0.01"],
        delays=(1.2, 2.5),
    )
    assert killed >= 1


# The child: run_recorded with a SIGKILL of itself at a chosen event and moment -- before the append, in
# the middle of writing the journal line (a torn line), after the append (not yet applied), or after
# game.step (effects not yet run).
CHILD = r"""
import os, signal, sys
from controller import game, station
from controller.station import journal as jmod
path, events, kill_at, phase = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
count = [0]
armed = [False]
append, step = jmod.Journal.append, game.step

def die():
    os.kill(os.getpid(), signal.SIGKILL)

def killing_append(self, event):
    here = count[0] == kill_at
    count[0] += 1
    if here and phase == "before_append":
        die()
    if here and phase == "torn_write":
        payload = event.to_json()
        h = jmod.entry_hash(self._seq, self._prev, payload)
        line = jmod._canonical({"seq": self._seq, "prev": self._prev, "event": payload, "hash": h}).encode()
        self._file.write(line[: len(line) // 2])
        self._file.flush()
        os.fsync(self._file.fileno())
        die()
    n = append(self, event)
    if here and phase == "after_append":
        die()
    armed[0] = here and phase == "after_step"
    return n

def killing_step(state, event):
    out = step(state, event)
    if armed[0]:
        die()
    return out

jmod.Journal.append = killing_append
game.step = killing_step
station.run_recorded(path, events)
"""
PHASES = ("before_append", "torn_write", "after_append", "after_step")


def _self_kills(tmp_path: Path, seed: int, max_kills: int) -> int:
    """Kill-and-resume one scripted game at random events and moments; returns the kills made."""
    events = scripted_events(seed, settings=SETTINGS)
    src = tmp_path / "events.jsonl"
    journal = tmp_path / "journal.jsonl"
    _write(events, src)
    rng = random.Random(seed)
    kills = 0
    while kills < max_kills:
        done = len(read(journal)) if journal.exists() else 0
        left = len(events) - done
        if left <= 0:
            break
        at, phase = rng.randrange(left), rng.choice(PHASES)
        r = subprocess.run(
            [sys.executable, "-c", CHILD, str(journal), str(src), str(at), phase],
            capture_output=True,
            timeout=120,
        )
        assert r.returncode == -signal.SIGKILL, r.stderr.decode()[-2000:]
        kills += 1
    subprocess.run(
        [sys.executable, "-c", CHILD, str(journal), str(src), "-1", "none"], check=True, timeout=120
    )
    _check(journal, events)
    return kills


def test_self_kills_at_every_moment_of_an_event(tmp_path):
    """Eight SIGKILLs at random events, each at one of the four moments that matter."""
    assert _self_kills(tmp_path, seed=11, max_kills=8) == 8


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_a_thousand_kills(tmp_path):
    """1,000 SIGKILLs at random events and moments of scripted games, each game resumed to its end."""
    total = games = 0
    while total < 1000:
        games += 1
        game_dir = tmp_path / f"g{games}"
        game_dir.mkdir()
        total += _self_kills(game_dir, seed=games, max_kills=min(25, 1000 - total))
    print(f"{total} kills over {games} games: every journal complete, in order, replaying to the same state")
