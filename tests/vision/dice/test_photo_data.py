"""vision.dice.photo against real labelled photos (../shared/data; skipped when absent) and `tavla dice`."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from controller.cli import app
from tests.conftest import shared_data
from vision.eval.dice import score_board_labels, score_yolo_folder

# Measured 2026-12-01 (session 4) with the shipped networks by ../shared/tools/eval_dice.py: 99.33 % of
# all 200 photos, 9 wrong values, 1 missed, 6 extra (session 3: 98.32 %; session 2: 94.22 %, 190
# extra); on every 8th photo (the 25 scored here, to stay inside the test budget) 188/188. Held out by
# photo (networks trained on the odd photos, reading the even ones) 99.59 %, none missed, 2 extra
# (session 3: 98.35 %; session 2: 93.82 %); the classical reader alone 82.58 %. What moved it: a
# classifier trained from scratch, longer each time (it was undertrained), taught that a die seen at
# the wrong scale is "not a die", and vision.dice.cnn.find scanning other scales when its size guess
# took pips for dice, keeping the scale that finds the most dice about as surely. The floor sits
# under what this subset gives, so a regression fails and noise does not.
DICE_D6_FLOOR = 98.0


@pytest.mark.slow
def test_dice_d6_accuracy_floor() -> None:
    root = shared_data("dice-d6")
    score = score_yolo_folder(root / "images", root / "labels", every=8)
    assert score.images == 25
    assert score.accuracy >= DICE_D6_FLOOR, score.summary()
    # almost every labelled die is found at all (value right or not)
    assert score.missed <= 0.02 * score.labelled, score.summary()
    # the network's "not a die" class keeps phantom dice (tray walls, glare) few
    assert score.extra <= 0.2 * score.labelled, score.summary()


@pytest.mark.slow
def test_dice_d6_all_photos() -> None:
    root = shared_data("dice-d6")
    score = score_yolo_folder(root / "images", root / "labels")
    assert score.labelled == 1487
    assert score.accuracy >= 90.0, score.summary()


@pytest.mark.slow
def test_boards_webcam_dice_are_scored() -> None:
    """The webcam boards' small white dice: reported by the bench; here only that scoring runs."""
    root = shared_data("boards-webcam")
    score = score_board_labels(root / "labels.jsonl", root)
    assert score.images > 30
    assert 0 <= score.right <= score.labelled


# --- the command line ---------------------------------------------------------------------------

runner = CliRunner()


def _draw_two_dice(path: Path) -> None:
    from tests.vision.dice.test_photo import STYLES, blur, draw_die, tray

    img = tray(seed=11)
    draw_die(img, 2, (150.0, 180.0), 44, 12, *STYLES["red-white"])
    draw_die(img, 5, (330.0, 170.0), 44, 30, *STYLES["white-black"])
    cv2.imwrite(str(path), blur(img))


def test_cli_prints_the_contract_json(tmp_path: Path) -> None:
    photo = tmp_path / "dice.png"
    _draw_two_dice(photo)
    result = runner.invoke(app, ["dice", str(photo)])
    assert result.exit_code == 0, result.output
    dice = json.loads(result.stdout)
    # two dice, left to right; their values are the network's (a drawn 5's centre pip is a known miss:
    # test_dice_cnn.py), so only the 2 is asserted here
    assert len(dice) == 2 and dice[0]["value"] == 2 and dice[0]["image_xy"][0] < dice[1]["image_xy"][0]
    for d in dice:
        assert set(d) == {"value", "image_xy", "status", "confidence"}
        assert d["status"] in {"flat", "cocked"}
        assert len(d["image_xy"]) == 2 and 0.0 <= d["confidence"] <= 1.0


def test_cli_empty_list_when_no_dice(tmp_path: Path) -> None:
    photo = tmp_path / "blank.png"
    cv2.imwrite(str(photo), np.full((240, 320, 3), 200, np.uint8))
    result = runner.invoke(app, ["dice", str(photo)])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == []


@pytest.mark.parametrize("kind", ["missing", "truncated", "not-an-image", "empty", "directory"])
def test_cli_unreadable_input_exits_2_with_one_line(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "x.jpg"
    if kind == "truncated":
        ok, buf = cv2.imencode(".jpg", np.full((100, 100, 3), 90, np.uint8))
        target.write_bytes(buf.tobytes()[:200])
    elif kind == "not-an-image":
        target.write_text("this is not a photo\n")
    elif kind == "empty":
        target.write_bytes(b"")
    elif kind == "directory":
        target.mkdir()
    result = runner.invoke(app, ["dice", str(target)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    err = result.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("tavla:")


def test_cli_tiny_image_holds_no_die(tmp_path: Path) -> None:
    """A 5x5 photo decodes (so it is no bad input, exit 2) but cannot show a die: [] and exit 0."""
    photo = tmp_path / "tiny.png"
    cv2.imwrite(str(photo), np.zeros((5, 5, 3), np.uint8))
    result = runner.invoke(app, ["dice", str(photo)])
    assert result.exit_code == 0 and json.loads(result.stdout) == []


@pytest.mark.parametrize("name", ["frame0.jpg", "test9.jpg"])
def test_cli_reads_a_board_in_play_with_the_board_reader(name: str) -> None:
    """A broadcast frame of a game: the whole-photo reader took its lettering, the board's hinge and the
    cube's figures for dice (34 dice on frame0, 2026-11-29); the board reader reads just the roll."""
    root = shared_data("boards-real")
    label = next(x for x in map(json.loads, (root / "labels.jsonl").read_text().splitlines())
                 if x.get("image") == name)
    r = runner.invoke(app, ["dice", str(root / name)])
    assert r.exit_code == 0, r.output
    got = json.loads(r.stdout)
    assert sorted(d["value"] for d in got) == sorted(d["value"] for d in label["dice"]), got


def test_cli_does_not_report_the_cube_as_a_die() -> None:
    """boards-real test2.jpg: a covered board (dice cups on it), read by the board reader (a board in
    play under a hand, controller.cli.dice._board_dice). The cube (a translucent red 64 in the left
    tray) is no die, and every die given is one of the labelled roll's (the board reader reads 1 of
    its 4; the whole-photo reader read all 4 here, but took rims and cards for 54 dice on the other
    covered photos: tests/controller/cli/test_cli_dice_board.py)."""
    path = shared_data("boards-real") / "test2.jpg"
    result = runner.invoke(app, ["dice", str(path)])
    assert result.exit_code == 0, result.output
    dice = json.loads(result.output)
    values = sorted(d["value"] for d in dice)
    assert values and all(values.count(v) <= [1, 2, 4, 5].count(v) for v in values), dice
    assert all(d["image_xy"][0] > 200 for d in dice), dice  # none in the tray, where the cube lies
