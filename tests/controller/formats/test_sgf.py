"""gnubg SGF (GM[6]) reader and writer, on our own hand-written file."""

from __future__ import annotations

import pytest

from controller.formats.mat import read_mat
from controller.formats.record import Double, Drop, RecordError, Roll, Step, Take
from controller.formats.sgf import parse_sgf, read_sgf, write_sgf
from tests.controller.formats.test_record_strategies import FIXTURES


def test_gnubg_file_root_properties_and_results() -> None:
    record = read_sgf(FIXTURES / "gnubg_style.sgf")
    assert record.length == 3
    assert record.players == ("Anna", "Boris")  # PW is player 0 (the left column of a .mat)
    assert record.headers == (("Site", "Tavla test club"), ("EventDate", "2026.11.29"), ("Crawford", "On"))
    g1, g2 = record.games
    summary = [(g.number, g.score, g.winner, g.points, g.resigned, g.crawford) for g in (g1, g2)]
    assert summary == [(1, (0, 0), 1, 2, False, False), (2, (0, 2), 1, 1, True, True)]
    assert g2.match_won


def test_letters_are_points_from_each_players_side() -> None:
    g1 = read_sgf(FIXTURES / "gnubg_style.sgf").games[0]
    black, white = g1.actions[0], g1.actions[1]
    assert isinstance(black, Roll) and black.player == 1 and black.steps == (Step(8, 5), Step(6, 5))
    assert isinstance(white, Roll) and white.player == 0 and white.steps == (Step(24, 18), Step(13, 9))
    assert isinstance(g1.actions[3], Double) and g1.actions[3].value == 2
    assert isinstance(g1.actions[4], Take)
    assert isinstance(g1.actions[-2], Double) and g1.actions[-2].value == 4
    assert isinstance(g1.actions[-1], Drop)
    assert [a.number for a in g1.actions] == [1, 2, 2, 3, 3, 4, 4, 5, 5, 6]


def test_only_the_main_line_of_a_variation_is_read() -> None:
    g2 = read_sgf(FIXTURES / "gnubg_style.sgf").games[1]
    last = g2.actions[-1]
    assert isinstance(last, Roll) and last.dice == (5, 5) and len(g2.actions) == 3


def test_same_moves_as_the_mat_file_of_the_same_match() -> None:
    sgf = read_sgf(FIXTURES / "gnubg_style.sgf")
    mat = read_mat(FIXTURES / "fibs_style.mat")

    def plain(record):  # type: ignore[no-untyped-def]
        return [[(a.player, a.dice, tuple((s.src, s.dst) for s in a.steps)) if isinstance(a, Roll)
                 else (type(a).__name__, a.player) for a in g.actions] for g in record.games]

    assert plain(sgf) == plain(mat)


def test_round_trip_and_bar_off_letters() -> None:
    record = read_sgf(FIXTURES / "gnubg_style.sgf")
    assert parse_sgf(write_sgf(record)) == record
    text = "(;GM[6]MI[length:0]PW[a]PB[b]RE[W+1];W[61ysfz];B[21yxaz])"
    w, b = parse_sgf(text).games[0].actions
    assert isinstance(w, Roll) and w.steps == (Step(25, 19), Step(6, 0))
    assert isinstance(b, Roll) and b.steps == (Step(25, 1), Step(24, 0))


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("(;GM[6]MI[length:3]\n;B[41lp", 2, "no closing ']'"),
        ("(;GM[6]MI[length:3]\n;B[41lp]", 2, "')' is missing"),
        ("(;GM[1]SZ[19])", 1, "not a backgammon game"),
        ("(;GM[6]\n;B[71lpab])", 2, "not a move"),
        ("(;GM[6]\n;B[41lpa])", 2, "not a move"),
        ("(;GM[6]\n;W[41zaab])", 2, "not a checker move"),
        ("(;GM[6]RE[X+1])", 1, "not a result"),
        ("(;GM[6]AB[a][b])", 1, "AE[a:y]"),
        ("(;GM[6]MI[length:3]PW[a])\n(;GM[6]MI[length:5]PW[a])", 2, "another match"),
        ("hello", 1, "expected '('"),
        ("", 0, "no game tree"),
        ("(;GM[6]\n;B)", 2, "has no [value]"),
    ],
)
def test_errors_name_the_file_and_line(text: str, line: int, words: str) -> None:
    with pytest.raises(RecordError) as info:
        parse_sgf(text, "broken.sgf")
    assert str(info.value).startswith(f"broken.sgf:{line}: " if line else "broken.sgf: ")
    assert words in str(info.value)


def test_deep_nesting_is_an_error_not_a_crash() -> None:
    with pytest.raises(RecordError):
        parse_sgf("(;GM[6]" + "(;B[11]" * 5000 + ")" * 5001, "deep.sgf")
