"""``tavla legal --variant nardy POSITION D1 D2`` end to end (DESIGN.md contract, issue 7)."""

from __future__ import annotations

from typer.testing import CliRunner

from controller.cli import app

runner = CliRunner()


def test_tavla_legal_nardy_prints_plays_and_results() -> None:
    result = runner.invoke(app, ["legal", "--variant", "nardy", "N:24x15/24x15", "6", "6"])
    assert result.exit_code == 0, result.output
    assert result.output == "24/18(2)\tN:24x13,18x2/24x15\n"


def test_tavla_legal_nardy_no_line_when_nothing_plays() -> None:
    result = runner.invoke(app, ["legal", "--variant", "nardy", "N:8x15/16x15", "4", "4"])
    assert result.exit_code == 0 and result.output == ""


def test_tavla_legal_nardy_bad_position_exit_2_one_line() -> None:
    result = runner.invoke(app, ["legal", "--variant", "nardy", "N:24x15/24x1f", "6", "6"])
    assert result.exit_code == 2
    assert "24x1f" in result.output and "Traceback" not in result.output
