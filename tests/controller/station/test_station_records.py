"""The station's own match records: written as gnubg writes them, loaded by the real gnubg.

The demo game (controller.station.demo.scripted_events, the scenes ``make run`` plays) is run through the
referee and exported; gnubg must load the files with every position and the result equal. A game
the journal stops in the middle of is exported too, and ``--export`` keeps existing files unless
told ``--force``.
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from controller.cli import app
from controller.formats.matchfile import read_record
from controller.formats.record import Roll
from controller.game.rulings import Settings
from controller.station import replay
from controller.station.demo import scripted_events
from controller.station.export import export_match
from controller.station.journal import Journal
from tests.controller.formats.gnubg_real import agree, gnubg_view, run_gnubg, tavla_view


def test_the_demo_export_loads_in_gnubg_with_every_position_equal(tmp_path: Path) -> None:
    state, _ = replay(scripted_events(7, settings=Settings(match_length=3)))
    paths = export_match(state, tmp_path)
    assert [p.suffix for p in paths] == [".sgf", ".mat"]
    records = [read_record(p) for p in paths]
    dumps = run_gnubg([{"path": str(p)} for p in paths])
    for path, record, dump in zip(paths, records, dumps, strict=True):
        ours, theirs = tavla_view(record), gnubg_view(dump)
        assert len(ours) == len(theirs) == len(state.records), path.suffix
        assert all(agree(a, b) for a, b in zip(ours, theirs, strict=True)), path.suffix
    # the demo hits twice (24/22* on move 11): marked in the .mat as match convert writes them
    hits = [s for g in records[1].games for a in g.actions if isinstance(a, Roll) for s in a.steps if s.hit]
    assert len(hits) == 2 and paths[1].read_text().count("*") == 2


def test_an_unfinished_game_is_exported_and_gnubg_loads_it(tmp_path: Path) -> None:
    events = scripted_events(7, settings=Settings(match_length=3))[:12]
    state, _ = replay(events)
    assert not state.records and state.turns
    paths = export_match(state, tmp_path)
    assert [p.suffix for p in paths] == [".sgf", ".mat"]
    record = read_record(paths[0])
    assert len(record.games) == 1 and record.games[0].winner is None
    [dump] = run_gnubg([{"path": str(paths[0])}])
    ours, theirs = tavla_view(record), gnubg_view(dump)
    assert [e.position for e in ours[0].events] == [e.position for e in theirs[0].events]


def test_replay_export_never_overwrites_without_force(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    with Journal(journal) as j:
        for ev in scripted_events(7, settings=Settings(match_length=3))[:12]:
            j.append(ev)
    out = tmp_path / "out"
    runner = CliRunner()
    first = runner.invoke(app, ["replay", str(journal), "--export", str(out)])
    assert first.exit_code == 0 and "match written:" in first.stdout
    before = (out / "j.sgf").read_bytes()
    again = runner.invoke(app, ["replay", str(journal), "--export", str(out)])
    assert again.exit_code == 2 and "--force" in again.stderr and again.stderr.count("\n") == 1
    assert (out / "j.sgf").read_bytes() == before
    forced = runner.invoke(app, ["replay", str(journal), "--export", str(out), "--force"])
    assert forced.exit_code == 0


def test_a_run_that_stops_mid_game_says_where_its_match_record_went(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    tavla = str(Path(sys.executable).parent / "tavla")
    journal = tmp_path / "j.jsonl"
    env = dict(os.environ, COLUMNS="200")
    done = subprocess.run([tavla, "run", "--turns", "1", "--journal", str(journal)], capture_output=True,
                          text=True, timeout=300, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert f"match written: {tmp_path / 'j.sgf'}" in done.stdout
    assert f"match written: {tmp_path / 'j.mat'}" in done.stdout
    [dump] = run_gnubg([{"path": str(tmp_path / "j.sgf")}])
    ours, theirs = tavla_view(read_record(tmp_path / "j.sgf")), gnubg_view(dump)
    assert ours and [e.position for e in ours[0].events] == [e.position for e in theirs[0].events]


def test_exports_carry_the_rulings_as_comments_gnubg_loads(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    with Journal(journal) as j:
        for ev in scripted_events(3, settings=Settings(match_length=3)):
            j.append(ev)
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["replay", str(journal), "--export", str(out)])
    assert result.exit_code == 0, result.stdout
    record = read_record(out / "j.sgf")
    comments = [v[0] for g in record.games for a in g.actions for k, v in a.props if k == "C"]
    assert "re-throw both dice: a die is cocked (B15)" in "\n".join(comments)
    assert any(c.endswith("(B9)") for c in comments)  # the game's end, on its last action
    [dump] = run_gnubg([{"path": str(out / "j.sgf")}])
    assert all(agree(a, b) for a, b in zip(tavla_view(record), gnubg_view(dump), strict=True))
