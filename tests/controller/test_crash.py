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

from controller.demo import scripted_events
from controller.journal import read
from controller.rulings import Settings
from controller.station import replay

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
        cmd = cmd_resume(journal, src)
        if journal.exists() and len(read(journal)) == len(events):
            break
    subprocess.run(cmd_resume(journal, src), check=True, capture_output=True, timeout=300)
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


def _module_cmd(journal: Path, events: Path) -> list[str]:
    return [sys.executable, "-m", "controller.station", str(journal), str(events), "0.004"]


@pytest.mark.slow
def test_a_thousand_kills(tmp_path):
    """1,000 SIGKILLs at random points of scripted games (python -m controller.station)."""
    total = 0
    seed = 0
    while total < 1000:
        seed += 1
        game_dir = tmp_path / f"g{seed}"
        game_dir.mkdir()
        total += _kill_and_resume(
            game_dir,
            60,
            seed=seed,
            cmd_first=_module_cmd,
            cmd_resume=_module_cmd,
            delays=(0.3, 0.9),
        )
    print(f"{total} kills over {seed} games: every journal complete and consistent")
