"""The board reader on real, labelled photos made by other people (../shared/data; skipped when absent).

Floors a little under the measured figures (`tavla vision-eval`, scored as
../shared/tools/eval_boards.py scores), so a change that loses accuracy fails here. The default run
reads a sample of the frames; the whole folders run under ``-m slow``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import shared_data
from vision.eval.boards import Tally, score_reading
from vision.frames.images import load_image
from vision.reader import read_board

_CONTRACT_POINT = {"slot", "image_xy", "colour", "count", "confidence"}


def _labels(folder: Path) -> list[dict]:
    lines = [json.loads(x) for x in (folder / "labels.jsonl").read_text().splitlines() if x.strip()]
    return [x for x in lines if x.get("board") is not False]


def _run(folder: Path, labels: list[dict]) -> Tally:
    tally = Tally()
    for label in labels:
        reading = read_board(load_image(folder / label["image"])).to_json()
        _check_contract(reading)
        tally.add(score_reading(label, reading))
    return tally


def _check_contract(out: dict) -> None:
    out = json.loads(json.dumps(out))
    assert {"board_found", "occluded", "points", "bar", "off", "dice", "cube"} <= set(out)
    if out["board_found"]:
        assert len(out["points"]) == 24
        assert sorted(p["slot"] for p in out["points"]) == list(range(24))
        for p in out["points"]:
            assert _CONTRACT_POINT <= set(p)
            assert p["count"] >= 0 and (p["colour"] is None) == (p["count"] == 0)
            assert p["colour"] in (None, "light", "dark")
            assert len(p["image_xy"]) == 2
        for d in out["dice"]:
            assert d["status"] in ("flat", "cocked", "off_board", "wrong_half", "on_bar", "on_checker")


def test_webcam_sample_reads_exactly() -> None:
    folder = shared_data("boards-webcam")
    labels = [x for x in _labels(folder) if not x.get("occluded")][::6]
    tally = _run(folder, labels)
    assert tally.boards_n >= 6
    assert tally.points_ok / tally.points_n >= 0.995
    assert tally.boards_ok >= tally.boards_n - 1


def test_webcam_hand_is_flagged() -> None:
    folder = shared_data("boards-webcam")
    labels = [x for x in _labels(folder) if x.get("occluded")][2:5]
    tally = _run(folder, labels)
    # measured 3/7 over the folder: a hand that merges with the board's outline hides the board
    assert tally.occ_ok >= 1


def test_real_boards_sample() -> None:
    folder = shared_data("boards-real")
    labels = [x for x in _labels(folder) if x["image"] in ("frame1.jpg", "test10.jpg", "test4.jpg")]
    tally = _run(folder, labels)
    assert tally.points_ok / tally.points_n >= 0.9
    assert tally.bar_ok == tally.bar_n  # test10: two gold checkers on the bar


def test_a_board_with_several_corners_cut_is_found() -> None:
    """test2: a leather board seen at an angle whose field's corners are all cut from its outline
    (dark checkers on dark points against a black frame) and two dice cups standing on it: the
    board is found (a field completed from its four longest sides) and the cups flag it occluded."""
    folder = shared_data("boards-real")
    got = read_board(load_image(folder / "test2.jpg"))
    assert got.board_found and got.occluded


@pytest.mark.slow
def test_webcam_folder_accuracy() -> None:
    folder = shared_data("boards-webcam")
    tally = _run(folder, _labels(folder))
    # measured 888/888 points, 37/37 boards, 7/7 hands flagged
    assert tally.points_ok / tally.points_n >= 0.995
    assert tally.boards_ok / tally.boards_n >= 0.95
    assert tally.occ_ok == tally.occ_n


@pytest.mark.slow
def test_real_folder_accuracy() -> None:
    folder = shared_data("boards-real")
    tally = _run(folder, _labels(folder))
    # measured 143/144 points (99.3%), bar 6/6, off 6/6, occluded 2/2
    assert tally.points_ok / tally.points_n >= 0.985
    assert tally.bar_ok == tally.bar_n
    assert tally.occ_ok == tally.occ_n


@pytest.mark.parametrize("turn", ["cw", "ccw"])
def test_portrait_frames_read_like_landscape(turn: str) -> None:
    """A camera turned by 90 degrees: the points' image_xy must follow (labels in portrait terms)."""
    import cv2

    folder = shared_data("boards-webcam")
    label = next(x for x in _labels(folder) if not x.get("occluded"))
    image = load_image(folder / label["image"])
    if turn == "cw":
        image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
        rows = {"rowA": label["rowB"], "rowB": label["rowA"]}
    else:
        image = cv2.rotate(image, cv2.ROTATE_90_COUNTERCLOCKWISE)
        rows = {"rowA": label["rowA"][::-1], "rowB": label["rowB"][::-1]}
    portrait = dict(label, layout="portrait", dice=[], **rows)
    score = score_reading(portrait, read_board(image).to_json())
    assert score.board_ok, score.failures


# --- the boards-real photos turned: a camera beside the board sees it portrait or upside down -----

_TURNS = {90: "ROTATE_90_CLOCKWISE", 180: "ROTATE_180", 270: "ROTATE_90_COUNTERCLOCKWISE"}


def _turned(label: dict, degrees: int) -> dict:
    """The label of a landscape photo turned clockwise by ``degrees``: the rows are in image terms
    (landscape rowA = top row left to right; portrait rowA = left column top to bottom), so a turn
    reorders them; bar, off, dice and occluded are per colour or per die and stay."""
    a, b = list(label["rowA"]), list(label["rowB"])
    if degrees == 90:  # the top row becomes the right column, read top to bottom
        return dict(label, layout="portrait", rowA=b, rowB=a)
    if degrees == 180:
        return dict(label, rowA=b[::-1], rowB=a[::-1])
    return dict(label, layout="portrait", rowA=a[::-1], rowB=b[::-1])


def _run_turned(folder: Path, labels: list[dict], degrees: int) -> Tally:
    import cv2

    tally = Tally()
    for label in labels:
        image = cv2.rotate(load_image(folder / label["image"]), getattr(cv2, _TURNS[degrees]))
        reading = read_board(image).to_json()
        _check_contract(reading)
        tally.add(score_reading(_turned(label, degrees), reading))
    return tally


def test_turned_label_follows_the_points() -> None:
    """The turned labels are right: a reading of the upright photo whose points' image_xy are turned
    with the photo scores as the upright reading does (no real data needed: a made-up reading)."""
    w, h = 1280, 720
    cells = [f"d{i % 5}" if i % 5 else "" for i in range(24)]
    label = {"image": "x", "layout": "landscape", "rowA": cells[:12], "rowB": cells[12:], "occluded": False}
    points = []
    for i, cell in enumerate(cells):
        x, y = 100 + 90 * (i % 12), (100 if i < 12 else 600)
        points.append({"slot": i, "image_xy": [x, y], "colour": "dark" if cell else None,
                       "count": int(cell[1:]) if cell else 0})
    turn_xy = {90: lambda x, y: (h - 1 - y, x), 180: lambda x, y: (w - 1 - x, h - 1 - y),
               270: lambda x, y: (y, w - 1 - x)}
    for degrees, f in turn_xy.items():
        turned = [dict(p, image_xy=list(f(*p["image_xy"]))) for p in points]
        reading = {"board_found": True, "occluded": False, "points": turned, "dice": []}
        assert score_reading(_turned(label, degrees), reading).board_ok, degrees


def test_real_boards_read_turned_sample() -> None:
    """Three photos a camera turned 90, 180 and 270 degrees sees: each used to put its field on the
    wrong finalist (a half two points too far out, or a side a checker inward) and miscount 9-12
    points; measured now 23/24, 23/24 and 22/24 (a lone black checker on a black point in a
    corner is lost in each). Default run: 3 readings, about 1.5 s."""
    folder = shared_data("boards-real")
    by_name = {x["image"]: x for x in _labels(folder)}
    right = 0
    for name, degrees in (("frame0.jpg", 90), ("frame1.jpg", 180), ("test9.jpg", 270)):
        tally = _run_turned(folder, [by_name[name]], degrees)
        assert tally.boards_n == 1
        right += tally.points_ok
    assert right >= 68  # of 72


@pytest.mark.slow
@pytest.mark.parametrize("degrees,points_floor,bar_floor,off_floor", [
    (90, 310, 13, 12), (180, 307, 13, 12), (270, 299, 12, 12),
])
def test_real_folder_turned(degrees: int, points_floor: int, bar_floor: int, off_floor: int) -> None:
    """The whole boards-real folder turned (portrait both ways, upside down), as measured on its 13
    unoccluded photos: points 310/307/299 of 312 (upright 311), bar 13/13 (12/13 at 270), off
    12/13, hands 3/3. Before the triangles' column spacing was taken from both rows' gaps (test1
    upside down: its field over both trays): 294 points at 180 degrees, off 11/13."""
    folder = shared_data("boards-real")
    tally = _run_turned(folder, _labels(folder), degrees)
    assert tally.points_n == 312
    assert tally.points_ok >= points_floor
    assert tally.bar_ok >= bar_floor
    assert tally.off_ok >= off_floor
    assert tally.occ_ok == tally.occ_n
