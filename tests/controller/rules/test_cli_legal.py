"""`tavla legal POSITION D1 D2`: the contract of DESIGN.md and the rules-core issue."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from controller.cli import app
from controller.formats import position_from_id, position_id
from controller.rules import Position

runner = CliRunner()


def legal(*args: str) -> tuple[int, list[str]]:
    result = runner.invoke(app, ["legal", *args])
    return result.exit_code, result.stdout.splitlines()


def test_opening_3_1_sixteen_lines_sorted_by_position_id() -> None:
    code, lines = legal("4HPwATDgc/ABMA", "3", "1")
    assert code == 0 and len(lines) == 16
    ids = [line.split("\t")[1] for line in lines]
    assert ids == sorted(ids) and len(set(ids)) == 16
    texts = {line.split("\t")[0] for line in lines}
    assert {"8/5 6/5", "24/23 24/21", "13/9", "24/20"} <= texts


def test_result_ids_are_in_the_same_frame_as_the_input() -> None:
    _, lines = legal("4HPwATDgc/ABMA", "6", "5")
    results = {line.split("\t")[1] for line in lines}
    # 24/13 with 6-5: the mover (still board[1]) has 3 on his 13, none on 24.
    for rid in results:
        p = position_from_id(rid)
        assert p.opp == Position.initial().opp and p.me != Position.initial().me
    assert any(position_from_id(r).me[12] == 6 and position_from_id(r).me[23] == 1 for r in results)


def test_no_play_prints_nothing() -> None:
    closed = Position((0,) * 24 + (1,), (2,) * 6 + (0,) * 18 + (3,))  # on the bar against a closed board
    code, lines = legal(position_id(closed), "6", "6")
    assert code == 0 and lines == []


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("4HPwATDgc/ABM", "3", "1"), "position ID"),
        (("4HPwATDgc/ABMA", "0", "1"), "1 to 6"),
        (("4HPwATDgc/ABMA", "3", "7"), "1 to 6"),
        (("4HPwATDgc/ABMA", "x", "1"), "1 to 6"),
        (("4HPwATDgc/ABMA", "3", "1", "--variant", "chess"), "variant"),
    ],
)
def test_bad_input_exits_2_with_one_line(args: tuple[str, ...], needle: str) -> None:
    result = runner.invoke(app, ["legal", *args])
    assert result.exit_code == 2
    assert needle in result.output and "Traceback" not in result.output


def test_agrees_with_gnubg_on_random_positions() -> None:
    gnubg = pytest.importorskip("gnubg")
    gnubg_nn = pytest.importorskip("gnubg_nn")
    from controller.rules.randomgame import random_positions

    for p in random_positions(20, seed=77):
        pid = position_id(p)
        _, lines = legal(pid, "4", "2")
        board = gnubg.positionfromid(pid)
        theirs = sorted(
            gnubg.movetupletostring(sum(steps, ()), board) + "\t" + gnubg.positionid(gnubg_nn.boardfromkey(k))
            for k, steps in gnubg_nn.moves(board, 4, 2, 1)
        )
        assert sorted(lines) == theirs


def _run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["legal", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    ("position", "dice", "note"),
    [
        # RULES.md B8: on the bar against a closed board.
        (Position((0,) * 24 + (1,), (2,) * 6 + (0,) * 18 + (3,)), ("6", "6"),
         "no legal play: the player on roll is on the bar against a closed board"),
        # On the bar, the 6 and 5 entry points held.
        (Position((0,) * 24 + (1,), (0,) * 4 + (2, 2) + (0,) * 18 + (0,)), ("6", "5"),
         "no legal play: the player on roll cannot enter from the bar with 6-5"),
        # The game is over: the player on roll has borne off all 15.
        (Position((0,) * 25, (1,) + (0,) * 24), ("6", "5"),
         "no legal play: the game is over (the player on roll has borne off all 15 checkers)"),
        # Issue 15: the opponent has borne off all 15 -- over too, whoever is "on roll".
        (Position((2,) + (0,) * 24, (0,) * 25), ("3", "1"),
         "no legal play: the game is over (the opponent has borne off all 15 checkers)"),
    ],
)
def test_no_play_stdout_empty_note_on_stderr(position: Position, dice: tuple[str, str], note: str) -> None:
    code, out, err = _run(position_id(position), *dice)
    assert code == 0 and out == "" and err.strip() == note


def test_gnubg_position_and_match_id_text_is_accepted() -> None:
    """Issue 15: gnubg's combined ``PositionID:MatchID`` gives the plays of its position."""
    code, out, err = _run("4HPwATDgc/ABMA:cAkAAAAAAAAA", "3", "1")
    assert code == 0 and err == "" and out == _run("4HPwATDgc/ABMA", "3", "1")[1]


@pytest.mark.parametrize(
    "text",
    [
        "Position ID: 4HPwATDgc/ABMA",  # the README's form, as a fresh user copied it
        " GNU Backgammon  Position ID: 4HPwATDgc/ABMA\n                 Match ID   : cAkAAAAAAAAA\n",
        "position id:4HPwATDgc/ABMA match id: cAkAAAAAAAAA",
        "Match ID   : cAkAAAAAAAAA\nPosition ID: 4HPwATDgc/ABMA",
    ],
)
def test_gnubgs_labelled_ids_are_accepted_as_it_prints_them(text: str) -> None:
    """gnubg's board prints "Position ID: X" over "Match ID   : Y"; the labels were read as a
    PositionID:MatchID text and refused as a bad match ID."""
    code, out, err = _run(text, "3", "1")
    assert code == 0 and err == "" and out == _run("4HPwATDgc/ABMA", "3", "1")[1]


@pytest.mark.parametrize(
    ("text", "advice"),
    [
        ("Position ID: 4HPwATDgc/ABMA  Match ID: cAkAAAAA", "copy gnubg's Match ID whole, or leave it out"),
        ("Match ID: cAkAAAAAAAAA", "give the Position ID too"),
        ("Position ID:", "copy gnubg's line whole"),
        ("Position ID: 4HPwATDgc/ABMA Position ID: 4HPwATDgc/ABMA", "copy gnubg's line whole"),
        ("Position ID: 4HPwATDgc/ABM", "give a 14-character gnubg Position ID"),
    ],
)
def test_a_bad_labelled_id_is_one_line_saying_what_to_do(text: str, advice: str) -> None:
    code, out, err = _run(text, "3", "1")
    assert code == 2 and out == "" and advice in err and len(err.strip().splitlines()) == 1, err


def test_stdout_unchanged_when_plays_exist() -> None:
    code, out, err = _run("4HPwATDgc/ABMA", "3", "1")
    assert code == 0 and err == "" and len(out.splitlines()) == 16


def test_nardy_text_without_variant_suggests_variant_nardy() -> None:
    code, _, err = _run("N:24x15/24x15", "6", "5")
    assert code == 2 and "--variant nardy" in err and "Position ID such as" not in err


def test_help_documents_both_position_forms() -> None:
    result = runner.invoke(app, ["legal", "--help"], env={"COLUMNS": "200"})
    text = " ".join(result.stdout.split())
    assert "gnubg Position ID" in text and "N:24x15/24x15" in text
    assert "BORNE OFF" in text and "own numbering" in text and "player on roll first" in text


@pytest.mark.parametrize(
    ("position", "advice"),
    [
        ("4HPwATDgc/ABM", "give a 14-character gnubg Position ID"),
        ("4HPwATDgc/ABMB", "copied whole"),
        ("AACA/z8DAAD+Pw", "no possible backgammon position"),  # both colours on one point
    ],
)
def test_position_id_errors_get_fitting_advice(position: str, advice: str) -> None:
    code, out, err = _run(position, "3", "1")
    assert code == 2 and out == "" and advice in err and len(err.strip().splitlines()) == 1


def test_position_id_with_variant_nardy_says_leave_it_out() -> None:
    code, _, err = _run("4HPwATDgc/ABMA", "3", "1", "--variant", "nardy")
    assert code == 2 and "leave out --variant nardy" in err
