"""``tavla match check`` / ``convert``: what a new user found (no silent loss, readable output)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from controller.cli import app
from controller.formats.matchfile import read_record
from controller.formats.record import format_losses, is_binary
from tests.controller.formats.test_record_strategies import FIXTURES

runner = CliRunner()

# A FIBS log whose second roll could not be expressed: the position is lost there.
FIBS_MARKER = """ 3 point match

 Game 1
 Anna : 0                            Boris : 0
  1) 31: 8/5 6/5                     42: 8/4 6/4
  2) 21: Illegal play (25;0;1;0;0;Anna;Boris;0;0;0;2;1;0;3;4;2;2;2;0;0;0;0;0;0;0;0;0;0;0;0;0;-3;-3)
  3) 66: 24/18(2) 13/7(2)
"""


def _invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["match", *args])
    return result.exit_code, result.stdout, result.stderr


def test_convert_refuses_an_illegal_play_naming_game_and_move(tmp_path: Path) -> None:
    out = tmp_path / "out.sgf"
    code, _, err = _invoke("convert", str(FIXTURES / "planted_errors.mat"), str(out))
    assert code == 2 and not out.exists()
    assert len(err.strip().splitlines()) == 1
    assert "game 2, move 2" in err and "13/9" in err and "--as-written" in err


def test_convert_as_written_keeps_every_play_and_warns_per_loss(tmp_path: Path) -> None:
    out = tmp_path / "out.sgf"
    code, _, err = _invoke("convert", "--as-written", str(FIXTURES / "planted_errors.mat"), str(out))
    assert code == 0 and "warning: game 2, move 2" in err
    source, written = read_record(FIXTURES / "planted_errors.mat"), read_record(out)
    assert [len(g.actions) for g in written.games] == [len(g.actions) for g in source.games]


def test_convert_refuses_what_sgf_cannot_hold(tmp_path: Path) -> None:
    src = tmp_path / "fibs.mat"
    src.write_text(FIBS_MARKER)
    code, _, err = _invoke("convert", str(src), str(tmp_path / "out.sgf"))
    assert code == 2 and "game 1, move 2" in err and "nothing played" in err
    assert len(err.strip().splitlines()) == 1 and len(err) < 260  # the raw board is cut
    # .mat holds the marker: no loss, converted.
    code, _, err = _invoke("convert", str(src), str(tmp_path / "out.mat"))
    assert code == 0 and err == ""
    assert read_record(tmp_path / "out.mat") == read_record(src)
    # --as-written: converted, one warning for the one loss.
    code, _, err = _invoke("convert", "--as-written", str(src), str(tmp_path / "out.sgf"))
    assert code == 0 and err.count("warning:") == 1


def test_unplayed_roll_and_headers_are_no_losses_for_sgf() -> None:
    # gnubg's dice-only node holds the '????' roll, the root's GC the headers SGF has no property for
    record = read_record(FIXTURES / "studio_style.txt")
    assert format_losses(record, ".sgf") == []
    assert format_losses(record, ".mat") == []


def test_convert_never_overwrites_the_input_or_an_existing_file(tmp_path: Path) -> None:
    src = tmp_path / "m.mat"
    src.write_text((FIXTURES / "fibs_style.mat").read_text())
    before = src.read_bytes()
    code, _, err = _invoke("convert", "--force", str(src), str(src))
    assert code == 2 and "is the input file" in err and src.read_bytes() == before
    out = tmp_path / "m.sgf"
    out.write_text("keep me")
    code, _, err = _invoke("convert", str(src), str(out))
    assert code == 2 and "--force" in err and out.read_text() == "keep me"
    code, _, _ = _invoke("convert", "--force", str(src), str(out))
    assert code == 0 and read_record(out).games


def test_check_puts_the_winners_score_first() -> None:
    code, out, _ = _invoke("check", str(FIXTURES / "fibs_style.mat"))
    assert code == 0
    assert "Boris wins 3-0 over Anna (of 3)" in out
    assert not out.startswith("\n") and out.splitlines()[0].strip()


def test_check_json_result_winner_first() -> None:
    code, out, _ = _invoke("check", "--json", str(FIXTURES / "fibs_style.mat"))
    summary = json.loads(out)
    assert code == 0 and summary["files"][0]["result"].split(" over ")[0].endswith("wins 3-0")


def test_check_binary_file_is_one_line(tmp_path: Path) -> None:
    garbage = tmp_path / "photo.mat"
    garbage.write_bytes(bytes(range(256)) * 8)
    code, out, err = _invoke("check", str(garbage))
    assert code == 2
    assert err == f"tavla: {garbage} is not a match file (binary data)\n" and out == ""
    code, out, _ = _invoke("check", "--json", str(garbage))
    assert json.loads(out)["errors"] == [f"{garbage} is not a match file (binary data)"]


def test_binary_detection_passes_latin1_text() -> None:
    assert not is_binary(" 5 point match\n Jürgen : 0    Søren : 0\n".encode("latin-1"))
    assert is_binary(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")


def test_check_cuts_a_long_bad_line(tmp_path: Path) -> None:
    bad = tmp_path / "long.mat"
    bad.write_text(" 3 point match\n\n Game 1\n A : 0     B : 0\n  1) 31: 8/5 6/5 " + "zork" * 200 + "\n")
    for args in (("check", str(bad)), ("check", "--json", str(bad))):
        code, out, err = _invoke(*args)
        message = err if "--json" not in args else json.loads(out)["errors"][0]
        assert code == 2 and "..." in message and "zork" * 20 not in message
        assert len(message) < len(str(bad)) + 180


def test_check_utf16_file_says_to_save_as_utf8(tmp_path: Path) -> None:
    u16 = tmp_path / "windows.mat"
    u16.write_bytes(" 3 point match\n".encode("utf-16"))
    code, _, err = _invoke("check", str(u16))
    assert code == 2 and "UTF-16" in err and "UTF-8" in err and "binary" not in err
