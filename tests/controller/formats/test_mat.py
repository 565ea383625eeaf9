"""Jellyfish .mat reader and writer: every dialect of the real records, on our own fixtures."""

from __future__ import annotations

import pytest

from controller.formats.mat import parse_mat, read_mat, write_mat
from controller.formats.record import (
    Double,
    Drop,
    PlayNote,
    RecordError,
    Resign,
    Roll,
    Step,
    Take,
)
from tests.controller.formats.test_record_strategies import FIXTURES


def test_fibs_style_columns_cube_and_wins_lines() -> None:
    record = read_mat(FIXTURES / "fibs_style.mat")
    assert record.length == 3
    assert record.players == ("Anna", "Boris")
    assert record.headers == ()
    g1, g2 = record.games
    assert (g1.number, g1.score, g2.score) == (1, (0, 0), (0, 2))
    first = g1.actions[0]
    assert isinstance(first, Roll)
    assert (first.player, first.dice, first.number, first.line) == (1, (3, 1), 1, 5)
    assert first.steps == (Step(8, 5), Step(6, 5))
    assert isinstance(g1.actions[3], Double) and g1.actions[3].player == 0
    assert isinstance(g1.actions[4], Take) and g1.actions[4].player == 1
    hit = g1.actions[6]
    assert isinstance(hit, Roll) and hit.steps == (Step(18, 14, True), Step(14, 11, True))
    assert isinstance(g1.actions[-1], Drop) and g1.actions[-1].player == 0
    assert (g1.winner, g1.points, g1.match_won) == (1, 2, False)
    assert (g2.winner, g2.points, g2.match_won) == (1, 1, True)
    last = g2.actions[-1]
    assert isinstance(last, Roll) and last.steps == () and last.note is PlayNote.MOVES


def test_galaxy_headers_unordered_moves_and_losses_line() -> None:
    record = read_mat(FIXTURES / "galaxy_style.txt")
    assert record.header("site") == "Tavla test club"
    assert record.header("Player 1") == "Carla"
    assert record.crawford_rule
    assert record.length == 5
    g1, g2 = record.games
    assert (g1.winner, g1.points) == (1, 1)  # "Wins" on the right of a numbered line
    assert g2.loser_noted and (g2.winner, g2.points) == (0, 2)  # singular "point" after 2


def test_studio_xg_notation() -> None:
    record = read_mat(FIXTURES / "studio_style.txt")
    (game,) = record.games
    opening = game.actions[1]
    assert isinstance(opening, Roll) and opening.steps == (Step(24, 20, True), Step(20, 14, True))
    cannot = game.actions[2]
    assert isinstance(cannot, Roll) and cannot.note is PlayNote.CANNOT_MOVE and cannot.steps == ()
    repeat = game.actions[3]
    assert isinstance(repeat, Roll) and repeat.steps == (Step(13, 3), Step(13, 3))
    entering = game.actions[4]
    assert isinstance(entering, Roll) and entering.steps == (Step(25, 20), Step(25, 23))
    unplayed = game.actions[-1]
    assert isinstance(unplayed, Roll) and unplayed.note is PlayNote.UNPLAYED
    assert (game.winner, game.points) == (0, 2)  # "5)  Wins 2 point" on the left of a numbered line


def test_gammonview_low_high_dice_resigns_and_colon_scores() -> None:
    record = read_mat(FIXTURES / "gammonview_style.mat")
    assert record.players == ("Gina", "Hugo")
    (game,) = record.games
    first = game.actions[0]
    assert isinstance(first, Roll) and first.dice == (1, 3) and first.player == 1
    resign = game.actions[-1]
    assert isinstance(resign, Resign) and resign.player == 1
    assert game.resigned and (game.winner, game.points) == (0, 1)
    doubles = game.actions[-2]
    assert isinstance(doubles, Roll) and doubles.steps == (Step(6, 5),) * 2 + (Step(8, 7),) * 2


def test_fibs_illegal_play_marker_and_off_zero() -> None:
    text = (
        " 1 point match\n\n Game 1\n A : 0                 B : 0\n"
        "  1) 31: 8/5 6/5            21: Illegal play (25;0;1;x;) \n"
        "  2) 62: 6/0 6/off           \n"
        "                             Wins 1 point and the match\n"
    )
    record = parse_mat(text)
    marker = record.games[0].actions[1]
    assert isinstance(marker, Roll) and marker.note is PlayNote.ILLEGAL_MARKER
    assert marker.raw == "(25;0;1;x;)"
    off = record.games[0].actions[2]
    assert isinstance(off, Roll) and off.steps == (Step(6, 0), Step(6, 0))
    assert record.games[0].match_won


@pytest.mark.parametrize("name", ["fibs_style.mat", "galaxy_style.txt", "studio_style.txt",
                                  "gammonview_style.mat", "planted_errors.mat"])
def test_round_trip_of_fixtures(name: str) -> None:
    record = read_mat(FIXTURES / name)
    assert parse_mat(write_mat(record)) == record


_HEAD = " 3 point match\n\n Game 1\n A : 0    B : 0\n"


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        (" 3 point match\n\n Game 1\n A : 0    B : 0\n  1) 73: 13/6\n", 5, "dice '73'"),
        (" 3 point match\n\n Game 1\n A : 0    B : 0\n  1) 31: 8/5 6/5 zork\n", 5, "'zork'"),
        (" 3 point match\n\n Game 1\n A : 0    B : 0\n  1) 31: 28/5\n", 5, "'28/5'"),
        (" 3 point match\n\n Game 1\n A : 0    B : 0\n  1) 8/5 6/5\n", 5, "not after any dice"),
        (" 3 point match\n\n Game 1\n  1) 31: 8/5 6/5\n", 4, "before any 'Game N' and score"),
        (" 3 point match\n\n Game 1\n what is this\n", 4, "expected the score line"),
        (" Game 1\n A : 0    B : 0\n", 1, "before the 'N point match'"),
        ("hello\n", 1, "before the first game"),
        ("; [Site \"x\"]\n", 0, "no 'N point match' line"),
        (" 3 point match\n", 0, "no game"),
        (" 3 point match\n\n Game 1\n A : 0    B : 0\n  1) 31: 8/5  51: 6/1  Takes\n", 5, "more than two"),
        (_HEAD + "      Wins 1 point\n      Wins 1 point\n", 6, "two 'Wins'"),
        (_HEAD + "      Wins 1 point\n  2) 31: 8/5\n", 6, "already ended"),
        (" 3 point match\n\n Game 1\n A : 0    B : 0\n Game 2\n C : 0    B : 0\n", 6, "differ"),
    ],
)
def test_errors_name_the_file_and_line(text: str, line: int, words: str) -> None:
    with pytest.raises(RecordError) as info:
        parse_mat(text, "broken.mat")
    message = str(info.value)
    assert message.startswith(f"broken.mat:{line}: " if line else "broken.mat: ")
    assert words in message
    assert info.value.line == line


def test_missing_file_is_a_record_error(tmp_path: object) -> None:
    with pytest.raises(RecordError, match="cannot read the file"):
        read_mat("/nonexistent/match.mat")


def test_latin1_file_is_read(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "latin.mat"
    text = " 1 point match\n\n Game 1\n J\xf6rg : 0      B : 0\n      Wins 1 point\n"
    path.write_bytes(text.encode("latin-1"))
    assert read_mat(path).players == ("Jörg", "B")


def test_writer_refuses_names_it_cannot_write() -> None:
    record = read_mat(FIXTURES / "fibs_style.mat")
    with pytest.raises(ValueError, match="cannot be written"):
        write_mat(type(record)(record.length, ("A : 1", "B"), record.games))
