"""``tavla legal --variant nardy POSITION D1 D2`` end to end (DESIGN.md contract, issue 7)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from controller.cli import app

runner = CliRunner()


def test_tavla_legal_nardy_prints_plays_and_results() -> None:
    result = runner.invoke(app, ["legal", "--variant", "nardy", "N:24x15/24x15", "6", "6"])
    assert result.exit_code == 0, result.output
    assert result.output == "24/18(2)\tN:24x13,18x2/24x15\n"


def test_tavla_legal_nardy_no_line_when_nothing_plays() -> None:
    result = runner.invoke(app, ["legal", "--variant", "nardy", "N:8x15/16x15", "4", "4"])
    assert result.exit_code == 0 and result.stdout == ""
    assert result.stderr == "no legal play for 4-4\n"


def test_tavla_legal_nardy_bad_position_exit_2_one_line() -> None:
    result = runner.invoke(app, ["legal", "--variant", "nardy", "N:24x15/24x1f", "6", "6"])
    assert result.exit_code == 2
    assert "24x1f" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("N:24x16/24x15", "the player on roll has 16 checkers"),
        ("N:24x15/24x16", "the opponent has 16 checkers"),
        ("N:24x14,12/24x15", "both players have checkers on the same point (point 12 of the player on roll"),
        # RULES.md N8: a side with a checker borne off has all the others in its home.
        ("N:24x14/24x15", "1 checker borne off (not written) while 14 still stand outside his home"),
    ],
)
def test_impossible_nardy_position_reads_as_plain_words(text: str, words: str) -> None:
    result = runner.invoke(app, ["legal", "--variant", "nardy", text, "6", "5"])
    assert result.exit_code == 2 and words in result.stderr
    assert "TOO_MANY" not in result.stderr and "SHARED_POINT" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_nardy_game_over_note_on_stderr() -> None:
    result = runner.invoke(app, ["legal", "--variant", "nardy", "N:-/3", "6", "5"])
    assert result.exit_code == 0 and result.stdout == ""
    assert result.stderr == "no legal play: the game is over\n"


def test_bear_off_position_with_unwritten_checkers_is_accepted() -> None:
    result = runner.invoke(app, ["legal", "--variant", "nardy", "N:3x2,1/24x15", "6", "5"])
    assert result.exit_code == 0 and result.stdout.startswith("3/off")


def test_a_block_left_by_an_accepted_illegal_move_is_still_played_from() -> None:
    # RULES.md N6/N11: the mover's 13-18 are the opponent's home, none of his checkers past it.
    result = runner.invoke(app, ["legal", "--variant", "nardy", "N:24x9,18,17,16,15,14,13/24x15", "6", "5"])
    assert result.exit_code == 0 and result.stdout and result.stderr == ""


def test_status_messages_name_the_block_unless_ignored() -> None:
    from controller.rules.nardy.position import NardyStatus, status_messages
    from controller.rules.nardy.text import parse_position_text

    position = parse_position_text("N:24x9,18,17,16,15,14,13/24x15")
    assert any("block of six" in m for m in status_messages(position))
    assert status_messages(position, ignore=NardyStatus.BLOCK_ME | NardyStatus.BLOCK_OPP) == []
