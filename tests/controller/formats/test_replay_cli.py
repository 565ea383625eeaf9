"""``tavla match check`` and ``tavla match convert`` (controller/cli/match.py)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from controller.cli import app
from controller.formats.matchfile import read_record
from tests.conftest import shared_data
from tests.controller.formats.test_record_strategies import FIXTURES

runner = CliRunner()


def test_check_reports_illegal_plays_with_game_and_move() -> None:
    result = runner.invoke(app, ["match", "check", str(FIXTURES)])
    assert result.exit_code == 1  # findings
    expected = "illegal_play: game 1, move 3, Hugo: 12: 13/9 -- not one of the 38 legal plays (line 17)"
    assert expected in result.stdout
    assert "illegal_cube: game 3, move 1, Boris: Doubles => 2" in result.stdout
    assert result.stdout.strip().splitlines()[-1] == (
        "6/6 files imported; 11 games, 40 plays; scores reproduced 10/11; followed to the end 11/11; "
        "illegal plays 2; findings 5"
    )


def test_check_json_on_a_clean_file() -> None:
    result = runner.invoke(app, ["match", "check", "--json", str(FIXTURES / "fibs_style.mat")])
    assert result.exit_code == 0
    summary = json.loads(result.stdout)
    assert summary["totals"] == {"files": 1, "imported": 1, "games": 2, "plays": 8, "scores_ok": 2,
                                 "followed": 2, "illegal_plays": 0, "problems": 0, "skipped": 0}
    assert summary["files"][0]["result"] == "Boris wins 3-0 over Anna (of 3)"


def test_check_names_the_broken_file_and_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.mat"
    broken.write_text(" 3 point match\n\n Game 1\n A : 0     B : 0\n  1) 31: 8/5 6/5 zork\n")
    result = runner.invoke(app, ["match", "check", str(broken)])
    assert result.exit_code == 2
    assert f"tavla: {broken}:5: cannot read 'zork'" in result.stderr
    assert "Traceback" not in result.stdout + result.stderr


def test_check_missing_path() -> None:
    result = runner.invoke(app, ["match", "check", "/nonexistent/m.mat"])
    assert result.exit_code == 2 and "does not exist" in result.stderr


def test_convert_both_ways(tmp_path: Path) -> None:
    sgf = tmp_path / "galaxy.sgf"
    back = tmp_path / "galaxy.mat"
    source = str(FIXTURES / "galaxy_style.txt")
    assert runner.invoke(app, ["match", "convert", source, str(sgf)]).exit_code == 0
    assert runner.invoke(app, ["match", "convert", str(sgf), str(back)]).exit_code == 0
    original, converted = read_record(FIXTURES / "galaxy_style.txt"), read_record(back)
    assert [(g.score, g.winner, g.points) for g in converted.games] == [
        (g.score, g.winner, g.points) for g in original.games
    ]
    assert runner.invoke(app, ["match", "check", str(sgf)]).exit_code == 0


def test_convert_refuses_unknown_output_and_bad_input(tmp_path: Path) -> None:
    source = str(FIXTURES / "fibs_style.mat")
    result = runner.invoke(app, ["match", "convert", source, str(tmp_path / "x.pdf")])
    assert result.exit_code == 2 and ".sgf, .mat or .txt" in result.stderr
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;GM[6]\n;B[41lp")
    result = runner.invoke(app, ["match", "convert", str(bad), str(tmp_path / "out.mat")])
    assert result.exit_code == 2 and f"{bad}:2:" in result.stderr


def test_check_the_real_records() -> None:
    folder = shared_data("matches")
    result = runner.invoke(app, ["match", "check", "--json", str(folder)])
    assert result.exit_code == 1  # the planted illegal plays
    totals = json.loads(result.stdout)["totals"]
    assert totals == {"files": 55, "imported": 55, "games": 323, "plays": 12697, "scores_ok": 323,
                      "followed": 320, "illegal_plays": 5, "problems": 8, "skipped": 5}
