"""What gnubg 1.07 writes besides plain moves, read and written back (no gnubg needed here).

The shapes are gnubg's own output (``save match`` / ``export match mat`` on the real records):
dice-only nodes, set-board nodes, resignations as ``RE[..R]``, ``GC`` header lines, comments and
analysis, and ``.mat`` lines holding a roll and the result.
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from controller.cli import app
from controller.formats.mat import parse_mat, write_mat
from controller.formats.matchfile import read_record
from controller.formats.position_id import position_id
from controller.formats.record import Game, MatchRecord, PlayNote, Roll, SetBoard, Step
from controller.formats.replay import GameEnd, canonical_record, replay_match
from controller.formats.sgf import parse_sgf, write_sgf
from controller.formats.sgf_props import count_props, strip_props
from controller.rules import Position
from tests.controller.formats.test_record_strategies import FIXTURES

_ROOT = "(;FF[4]GM[6]MI[length:5][game:0][ws:0][bs:0]PW[Ann]PB[Bob]RU[Crawford]"


def test_a_dice_only_node_is_a_roll_never_played_and_is_written_back() -> None:
    text = _ROOT + "RE[B+1R]\n;B[31qtst]\n;PL[W]DI[63])\n"
    record = parse_sgf(text)
    last = record.games[0].actions[-1]
    assert isinstance(last, Roll) and last.note is PlayNote.UNPLAYED and last.dice == (6, 3)
    assert record.games[0].resigned and record.games[0].winner == 1
    assert ";PL[W]DI[63]" in write_sgf(record)
    assert parse_sgf(write_sgf(record)) == record
    # the replay sees a roll then a resignation, not an illegal pass
    assert replay_match(record).games[0].roll_then_resign


def test_a_set_board_node_sets_the_position_the_replay_follows() -> None:
    # gnubg after a FIBS "Illegal play" line: the dice, then the board as it was
    text = (_ROOT + "\n;B[31qtst]\n;PL[W]DI[11]\n"
            ";PL[W]AE[a:y]AW[a][a][b][b][c][c][d][d][d][e][e][e][f][f][f]"
            "AB[x][x][x][w][w][w][w][v][v][u][u][t][t][y][y]\n;B[11])\n")
    record = parse_sgf(text)
    board = record.games[0].actions[2]
    assert isinstance(board, SetBoard) and board.player == 0
    assert board.sides[0][:6] == (2, 2, 2, 3, 3, 3) and sum(board.sides[0]) == 15
    assert board.sides[1][:5] == (3, 4, 2, 2, 2) and board.sides[1][24] == 2  # two on the bar
    assert parse_sgf(write_sgf(record)) == record
    replay = replay_match(record)
    assert replay.games[0].followed and not replay.problems  # B's 11 on the bar: no legal play
    # a game from a set-up position: the same properties on the root
    setup = parse_sgf("(;FF[4]GM[6]MI[length:0]PW[Ann]PB[Bob]PL[B]AE[a:y]AW[a]AB[a:b];B[21])")
    first = setup.games[0].actions[0]
    assert isinstance(first, SetBoard) and first.sides[0][0] == 1
    assert first.sides[1][23] == first.sides[1][22] == 1


def test_a_board_set_in_parts_is_refused_with_a_reason() -> None:
    try:
        parse_sgf(_ROOT + ";PL[W]AW[a])", "part.sgf")
    except ValueError as exc:
        assert str(exc) == ("part.sgf:1: AW/AB without AE[a:y]: only a whole board set at once (as gnubg "
                            "writes it) is supported")
    else:
        raise AssertionError("a partial set-up was read")


def test_comments_and_analysis_survive_an_sgf_round_trip() -> None:
    record = read_record(FIXTURES / "gnubg_style.sgf")
    first = record.games[0]
    assert ("GS", ("M:1 2 3", "C:0 0")) in first.props
    assert first.actions[0].props == (("A", ("0", "qtst E ver 3 0.5 0.1 0.0 0.1 0.0 0.0 2C 0 1 0.0 1")),
                                      ("LU", ("0.123",)))
    assert ("C", ("a comment with ] and \\ inside",)) in first.actions[1].props
    again = parse_sgf(write_sgf(record))
    assert again == record
    assert count_props(record) == (6, 1)  # 6 nodes with analysis (the root's GS too), 1 comment
    light = strip_props(record, analysis=False, comments=True)
    assert count_props(light) == (0, 1)


def test_headers_without_an_sgf_property_travel_in_gc_as_gnubg_writes_them() -> None:
    record = MatchRecord(5, ("Ann", "Bob"), (Game(1, (0, 0), (), 0, 1),),
                         (("Site", "Club"), ("Crawford", "On"), ("ClockType", "Live8 780/10"),
                          ("CubeLimit", "1024")))
    text = write_sgf(record)
    assert 'GC[[ClockType "Live8 780/10"\\]\n[CubeLimit "1024"\\]\n]' in text
    assert parse_sgf(text).headers == record.headers
    # gnubg's own line: the header, then a newline, inside GC
    gnubg = parse_sgf(_ROOT + 'GC[[ClockType "Live3 540/10"\\]\n]RE[W+1];W[31hefe])')
    assert gnubg.header("ClockType") == "Live3 540/10" and gnubg.games[0].props == ()


def test_a_resignation_is_written_as_gnubg_writes_it() -> None:
    # a .mat game that just stops with "Wins": resigned, RE[B+1R], and the last roll a dice-only node
    mat = """ 5 point match

 Game 1
 Ann : 0                        Bob : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2) 63:                         Wins 1 point
"""
    record = parse_mat(mat)
    assert not record.games[0].resigned
    out = canonical_record(record)
    assert out.games[0].resigned
    assert replay_match(record).games[0].end is GameEnd.RESIGNED
    text = write_sgf(out)
    assert "RE[B+1R]" in text and text.rstrip().endswith(";PL[W]DI[63])")


def test_a_roll_and_the_result_on_one_mat_line_are_read() -> None:
    # gnubg 1.07's export of a roll then a resignation: the winner's column holds the roll and Wins
    mat = """ 5 point match

 Game 1
 Ann : 0                        Bob : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2) 64: 24/18 13/9              51:  Wins 2 points
"""
    game = parse_mat(mat).games[0]
    assert game.winner == 1 and game.points == 2
    last = game.actions[-1]
    assert isinstance(last, Roll) and last.player == 1 and last.dice == (5, 1) and last.steps == ()
    assert game.actions[-2] == Roll(0, (6, 4), (Step(24, 18), Step(13, 9)))


def test_gnubgs_next_game_header_at_the_end_of_a_move_line_is_read() -> None:
    mat = """ 5 point match

 Game 1
 Ann : 0                        Bob : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2) 63: 24/18 13/10              Game 2
 Ann : 0                        Bob : 0
  1) 42: 8/4 6/4
"""
    record = parse_mat(mat)
    assert [g.number for g in record.games] == [1, 2]
    assert record.games[0].winner is None and len(record.games[0].actions) == 3


def test_set_boards_are_a_named_loss_for_mat() -> None:
    from controller.formats.record import format_losses

    sides = (Position.initial().me, Position.initial().opp)
    game = Game(1, (0, 0), (SetBoard(0, sides), Roll(0, (3, 1))), None, 0)
    record = MatchRecord(0, ("Ann", "Bob"), (game,))
    assert [loss.message for loss in format_losses(record, ".mat")] == [
        "the board set by hand (.mat has no way to write one)"]
    assert "set board" not in write_mat(record) and position_id(Position(*sides)) == "4HPwATDgc/ABMA"


def test_convert_refuses_to_drop_analysis_unless_asked(tmp_path: Path) -> None:
    runner = CliRunner()
    src = FIXTURES / "gnubg_style.sgf"
    out = tmp_path / "out.mat"
    result = runner.invoke(app, ["match", "convert", str(src), str(out)])
    assert result.exit_code == 2 and not out.exists()
    assert result.stderr.count("\n") == 1 and "6 nodes" in result.stderr
    assert "--drop-analysis" in result.stderr
    # the comment is a loss of its own, refused in turn (the reason names game and move)
    result = runner.invoke(app, ["match", "convert", "--drop-analysis", str(src), str(out)])
    assert result.exit_code == 2 and "game 1, move 2 (line 4): the comment" in result.stderr
    result = runner.invoke(app, ["match", "convert", "--drop-analysis", "--as-written", str(src), str(out)])
    assert result.exit_code == 0 and "analysis of 6 nodes dropped" in result.stdout
    assert result.stderr.count("warning:") == 1
    # to .sgf the analysis is kept
    kept = tmp_path / "out.sgf"
    assert runner.invoke(app, ["match", "convert", str(src), str(kept)]).exit_code == 0
    assert count_props(read_record(kept))[0] == 6
