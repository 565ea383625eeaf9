"""Calibration: find the board in a render without markers (or from optional ArUco corner markers),
save and load it, notice a moved camera."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.conftest import shared_data
from vision.board import calibration as cal
from vision.reader import read_board
from vision.render.scene import Camera, random_spec, render, starting_spec

CAMERA = Camera(tilt_deg=12, yaw_deg=4, roll_deg=3, fill=0.84)


@pytest.fixture(scope="module", params=["paper", "tournament"])
def frame(request: pytest.FixtureRequest) -> np.ndarray:
    spec = starting_spec(request.param)
    return render(spec, size=(960, 540), view="rectified", camera=CAMERA, seed=1).image


def test_calibrate_finds_the_board(frame: np.ndarray) -> None:
    calib = cal.calibrate(frame)
    assert calib is not None
    assert calib.geometry.image_size == (960, 540)
    assert len(calib.geometry.columns) == 12
    assert cal.still_valid(frame, calib)


def test_calibration_round_trips_through_json(frame: np.ndarray, tmp_path: Path) -> None:
    calib = cal.calibrate(frame)
    assert calib is not None
    path = tmp_path / "calib.json"
    cal.save(calib, path)
    back = cal.load(path)
    assert np.allclose(back.geometry.homography, calib.geometry.homography)
    assert back.geometry.columns == pytest.approx(calib.geometry.columns)
    assert back.geometry.bar == calib.geometry.bar
    # a saved calibration reads the frame as a fresh search does
    assert read_board(frame, back).counts() == read_board(frame, calib).counts()


@pytest.mark.parametrize("dx", [20, 40, 60])
def test_a_moved_camera_is_noticed(frame: np.ndarray, dx: int) -> None:
    calib = cal.calibrate(frame)
    assert calib is not None
    assert not cal.still_valid(np.roll(frame, dx, axis=1), calib)


def test_another_image_size_is_not_valid(frame: np.ndarray) -> None:
    calib = cal.calibrate(frame)
    assert calib is not None
    assert not cal.still_valid(frame[:500, :900], calib)


@pytest.mark.parametrize(
    "text",
    ["{}", "[]", '{"format": "tavla-calibration/1"}', '{"format": "other"}', "not json"],
)
def test_malformed_calibration_files_raise_calibration_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "c.json"
    path.write_text(text)
    with pytest.raises(cal.CalibrationError):
        cal.load(path)


def test_missing_calibration_file(tmp_path: Path) -> None:
    with pytest.raises(cal.CalibrationError):
        cal.load(tmp_path / "none.json")


def test_bad_homography_is_rejected(frame: np.ndarray) -> None:
    calib = cal.calibrate(frame)
    assert calib is not None
    data = json.loads(json.dumps(calib.to_json()))
    data["homography"] = [[1, 0], [0, 1]]
    with pytest.raises(cal.CalibrationError):
        cal.Calibration.from_json(data)


def _with_markers(image: np.ndarray, corners: np.ndarray, size: int = 28) -> np.ndarray:
    """``image`` with ArUco markers 0-3 (white-bordered) centred on the four ``corners``."""
    import cv2

    out = image.copy()
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    for marker_id, (x, y) in zip(cal.MARKER_IDS, corners, strict=True):
        tile = cv2.copyMakeBorder(cv2.aruco.generateImageMarker(dictionary, marker_id, size),
                                  6, 6, 6, 6, cv2.BORDER_CONSTANT, value=255)
        half = tile.shape[0] // 2
        x0, y0 = int(round(x)) - half, int(round(y)) - half
        out[y0 : y0 + tile.shape[0], x0 : x0 + tile.shape[1]] = tile[:, :, None]
    return out


@pytest.mark.parametrize("style", ["wood", "paper"])
def test_corner_markers_calibrate_the_board(style: str) -> None:
    """Optional ArUco markers on the field's corners give the board's geometry (issue 4, item 1),
    its bar read from the triangles, and the reader reads the position with it."""
    r = render(starting_spec(style), size=(960, 540), view="rectified", camera=CAMERA, seed=2)
    found = cal.calibrate(r.image)
    assert found is not None
    marked = _with_markers(r.image, np.array(found.geometry.corners))
    calib = cal.calibrate_markers(marked)
    assert calib is not None and calib.markers
    assert np.abs(np.array(calib.geometry.corners) - np.array(found.geometry.corners)).max() < 3.0
    assert (calib.geometry.bar is None) == (found.geometry.bar is None)
    assert read_board(r.image, calib).counts() == r.truth.counts()
    assert cal.still_valid(marked, calib)
    assert not cal.still_valid(np.roll(marked, 20, axis=1), calib)  # the camera moved a third of a point
    assert cal.Calibration.from_json(json.loads(json.dumps(calib.to_json()))).markers == calib.markers


def test_no_markers_no_marker_calibration(frame: np.ndarray) -> None:
    assert cal.find_markers(frame) is None
    assert cal.calibrate_markers(frame) is None


def test_markers_calibrate_a_board_whose_triangles_cannot_be_seen() -> None:
    import cv2

    r = render(starting_spec("paper"), size=(960, 540), view="rectified", camera=CAMERA, seed=2)
    found = cal.calibrate(r.image)
    assert found is not None
    corners = np.array(found.geometry.corners)
    blank = r.image.copy()
    cv2.fillConvexPoly(blank, np.round(corners).astype(np.int32), (200, 200, 200))
    marked = _with_markers(blank, corners)
    calib = cal.calibrate_markers(marked, bar=0.0)
    assert calib is not None and calib.geometry.bar is None
    assert np.abs(np.array(calib.geometry.corners) - corners).max() < 3.0


def test_calibrate_prefers_corner_markers_in_view() -> None:
    r = render(starting_spec("wood"), size=(960, 540), view="rectified", camera=CAMERA, seed=2)
    found = cal.calibrate(r.image)
    assert found is not None and not found.markers
    marked = cal.calibrate(_with_markers(r.image, np.array(found.geometry.corners)))
    assert marked is not None and len(marked.markers) == 4


# --- a hand over the board's edge, seen through a calibration (issue 4, item 5) ---------------------

def _scene(style: str, seed: int, hand: bool, position: int | None = None) -> np.ndarray:
    spec = random_spec(seed if position is None else position, style=style, max_stack=5, with_dice=False)
    return render(spec, size=(640, 360), camera=Camera(tilt_deg=8, fill=0.8), seed=seed,
                  occluder="hand" if hand else None, jpeg_quality=80).image


@pytest.mark.parametrize("style,seed", [("paper", 2), ("wood", 8)])
def test_a_hand_over_the_calibrated_outline_is_noticed(style: str, seed: int) -> None:
    """The renders whose hand reaches over the field's edge: a calibrated reading, which does not
    search the board (so has no broken outline to see), still says occluded."""
    calib = cal.calibrate(_scene(style, seed, hand=False))
    assert calib is not None and len(calib.outline) == 4
    hand = _scene(style, seed, hand=True)
    assert cal.outline_covered(hand, calib)
    assert read_board(hand, calib).occluded


@pytest.mark.parametrize("style", ["paper", "wood", "tournament"])
def test_moved_checkers_do_not_cover_the_outline(style: str) -> None:
    """Another position under the same camera (checkers on other points, on the bases next to the
    outline) is not a hand."""
    calib = cal.calibrate(_scene(style, 3, hand=False))
    assert calib is not None
    for position in (4, 5, 6):
        assert not cal.outline_covered(_scene(style, 3, hand=False, position=position), calib)


def test_outline_survives_json_and_a_bad_one_is_refused(tmp_path: Path) -> None:
    calib = cal.calibrate(_scene("paper", 3, hand=False))
    assert calib is not None
    path = tmp_path / "c.json"
    cal.save(calib, path)
    back = cal.load(path)
    assert np.allclose(back.outline, calib.outline, atol=0.01)
    data = json.loads(path.read_text())
    data["outline"] = [[1.0, 2.0]]
    path.write_text(json.dumps(data))
    with pytest.raises(cal.CalibrationError):
        cal.load(path)
    # a file from before the outline was kept still loads, and then sees no hand at the edge
    del data["outline"]
    path.write_text(json.dumps(data))
    old = cal.load(path)
    assert old.outline == () and not cal.outline_covered(_scene("paper", 2, hand=True), old)


def _webcam_game(name: str) -> list[Path]:
    folder = shared_data("boards-webcam") / "frames" / name
    if not folder.is_dir():
        pytest.skip(f"{folder} is absent")
    return sorted(folder.iterdir(), key=lambda p: int("".join(c for c in p.stem if c.isdigit())))


@pytest.mark.parametrize("game,hands", [
    ("2024-03-16_20_55_47", {"frame7.jpg"}),
    ("2024-03-21_10_38_22", {"frame_1790.jpg"}),
    ("minta", set()),
    # every frame of this game shows a hand: the first (the calibration) one at the right-hand edge,
    # where frame4's hand is too; frame12's hand crossing the left edge is seen by nothing else when
    # the reading is calibrated
    ("2024-03-16_16_00_45", {f"frame{n}.jpg" for n in (3, 5, 6, 7, 8, 9, 10, 11, 12)}),
])
def test_real_webcam_game_hands_over_the_edge_are_noticed(game: str, hands: set[str]) -> None:
    """A real webcam game, calibrated on its first frame: the frames where a hand reaches over the
    board's edge are covered (these two are unlabelled; a hand is plainly there) and no clear frame,
    with checkers moved and dice thrown since calibration, is (all 20 of minta's)."""
    frames = _webcam_game(game)
    calib = cal.calibrate(cv2.imread(str(frames[0])))
    assert calib is not None
    covered = {p.name for p in frames[1:] if cal.outline_covered(cv2.imread(str(p)), calib)}
    assert covered == hands
    for name in hands:  # and the calibrated reading says so
        assert read_board(cv2.imread(str(frames[0].parent / name)), calib).occluded


@pytest.mark.parametrize("style,seed", [("paper", 2), ("wood", 8)])
def test_outline_measured_again_on_some_sides_keeps_the_others(style: str, seed: int) -> None:
    """The incremental reader's outline check: the sides asked for are measured as in a whole
    check, the others come from the earlier frame's samples."""
    calib = cal.calibrate(_scene(style, seed, hand=False))
    assert calib is not None
    hand = _scene(style, seed, hand=True)
    clear = cal.outline_weak(_scene(style, seed, hand=False), calib)
    full = cal.outline_weak(hand, calib)
    assert clear is not None and full is not None
    assert cal.weak_covered(full) and not cal.weak_covered(clear)
    hit = [i for i in range(4) if (full[i] != clear[i]).any()]
    assert hit
    again = cal.outline_weak(hand, calib, hit, clear)
    assert again is not None and (again == full).all()
    # a side left out keeps the earlier frame's samples: the hand there is not seen
    kept = cal.outline_weak(hand, calib, [i for i in range(4) if i not in hit], clear)
    assert kept is not None and (kept[hit] == clear[hit]).all() and not cal.weak_covered(kept)


def test_outline_profile_reads_each_side_in_its_own_box(frame: np.ndarray) -> None:
    """The boxes and sample places kept per calibration give the profile the side's own strip
    gives: each side's box round its samples, 4 pixels beyond them, filtered and read there; the
    field moved off the frame's edge is clipped as before."""
    from vision.board.finder import colour_gradient

    def profile(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
        h, w = image.shape[:2]
        out = np.zeros((4, cal.OUTLINE_SAMPLES))
        t = np.linspace(0.03, 0.97, cal.OUTLINE_SAMPLES)
        for i in range(4):
            a, b = corners[i], corners[(i + 1) % 4]
            along = (b - a) / np.linalg.norm(b - a)
            pts = a[None, :] + t[:, None] * (b - a)[None, :]
            xy = np.rint(pts[None] + np.arange(-2, 3)[:, None, None] * np.array([-along[1], along[0]]))
            x0 = int(np.clip(xy[..., 0].min() - 4, 0, w - 1))
            x1 = int(np.clip(xy[..., 0].max() + 5, x0 + 1, w))
            y0 = int(np.clip(xy[..., 1].min() - 4, 0, h - 1))
            y1 = int(np.clip(xy[..., 1].max() + 5, y0 + 1, h))
            strip = cv2.GaussianBlur(colour_gradient(image[y0:y1, x0:x1]), (5, 5), 1.0)
            xs = np.clip(xy[..., 0].astype(np.intp) - x0, 0, x1 - x0 - 1)
            ys = np.clip(xy[..., 1].astype(np.intp) - y0, 0, y1 - y0 - 1)
            out[i] = strip[ys, xs].max(axis=0)
        return out

    calib = cal.calibrate(frame)
    assert calib is not None
    geom = calib.geometry
    for shift in ((0.0, 0.0), (-1.0, 0.0), (0.0, 3000.0)):  # (the last two: off the frame's edge)
        corners = np.asarray(geom.corners) + np.array(shift) * (np.asarray(geom.corners)[:, 0:1] < 300)
        moved = replace(geom, corners=tuple(map(tuple, corners)))
        for _ in range(2):
            assert np.array_equal(cal.outline_profile(frame, moved), profile(frame, corners))
