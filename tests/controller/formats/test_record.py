"""The match record type: layout numbering, Crawford flags, text forms, format sniffing."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.formats.errors import FormatError
from controller.formats.matchfile import read_record, write_record
from controller.formats.record import (
    Double,
    Drop,
    Game,
    MatchRecord,
    PlayNote,
    RecordError,
    Roll,
    Step,
    Take,
    crawford_flags,
    layout_numbers,
)
from tests.controller.formats.test_record_strategies import FIXTURES


def test_layout_numbers_follow_the_two_column_layout() -> None:
    actions = (
        Roll(1, (3, 1)),  # 1) right only: the left player did not open
        Roll(0, (6, 4)),  # 2) left
        Roll(1, (6, 2)),  # 2) right
        Double(0, 2),  # 3) left
        Take(1),  # 3) right
        Roll(0, (5, 2)),  # 4) left
        Double(1, 4),  # 4) right
        Drop(0),  # 5) left
    )
    assert layout_numbers(actions) == [(1, 1), (2, 0), (2, 1), (3, 0), (3, 1), (4, 0), (4, 1), (5, 0)]
    assert layout_numbers((Roll(1, (1, 2)), Roll(1, (3, 4)))) == [(1, 1), (2, 1)]


def _match(length: int, scores: list[tuple[int, int]], crawford: str | None = None) -> MatchRecord:
    headers = (("Crawford", crawford),) if crawford else ()
    return MatchRecord(length, ("A", "B"), tuple(Game(i + 1, s) for i, s in enumerate(scores)), headers)


def test_crawford_game_is_the_one_after_first_reaching_match_point_rules_b14() -> None:
    assert crawford_flags(_match(5, [(0, 0), (2, 1), (4, 1), (4, 3), (4, 4)])) == [False, False, True, False,
                                                                                   False]
    assert crawford_flags(_match(5, [(0, 0), (4, 0), (4, 4)], "Off")) == [False, False, False]
    assert crawford_flags(_match(0, [(0, 0), (4, 0)])) == [False, False]
    assert crawford_flags(_match(1, [(0, 0)])) == [False]  # 1-point match: both need one


def test_text_forms() -> None:
    assert str(Step(25, 20)) == "bar/20"
    assert str(Step(6, 0, True)) == "6/off*"
    assert str(Roll(0, (1, 3), (Step(14, 10), Step(13, 12)))) == "13: 14/10 13/12"
    assert str(Roll(0, (6, 6))) == "66:"
    assert str(Roll(0, (6, 6), note=PlayNote.CANNOT_MOVE)) == "66: Cannot Move"
    assert str(Roll(0, (4, 3), note=PlayNote.UNPLAYED)) == "43: ????"
    assert str(Double(1, 4)) == "Doubles => 4"


def test_equality_ignores_where_an_action_was_in_its_file() -> None:
    assert Roll(0, (3, 1), number=4, line=20) == Roll(0, (3, 1), number=9, line=2)


def test_record_error_is_a_format_error_naming_file_and_line() -> None:
    error = RecordError("m.mat", 12, "bad dice")
    assert isinstance(error, FormatError) and isinstance(error, ValueError)
    assert str(error) == "m.mat:12: bad dice"
    assert (error.source, error.line, error.reason) == ("m.mat", 12, "bad dice")
    assert str(RecordError("m.mat", 0, "empty")) == "m.mat: empty"


def test_read_record_sniffs_the_format(tmp_path: Path) -> None:
    sgf_text = (FIXTURES / "gnubg_style.sgf").read_text()
    disguised = tmp_path / "match.txt"
    disguised.write_text(sgf_text)
    assert read_record(disguised) == read_record(FIXTURES / "gnubg_style.sgf")
    assert read_record(FIXTURES / "fibs_style.mat").players == ("Anna", "Boris")
    with pytest.raises(RecordError, match="cannot read the file"):
        read_record(tmp_path / "absent.mat")


def test_write_record_by_extension(tmp_path: Path) -> None:
    record = read_record(FIXTURES / "fibs_style.mat")
    write_record(record, tmp_path / "out.sgf")
    write_record(record, tmp_path / "out.mat")
    assert (tmp_path / "out.sgf").read_text().startswith("(;FF[4]GM[6]")
    assert read_record(tmp_path / "out.mat") == record
    converted = read_record(tmp_path / "out.sgf")
    assert [g.score for g in converted.games] == [g.score for g in record.games]
    assert converted.games[1].crawford is True  # the writer marks the Crawford game for gnubg
