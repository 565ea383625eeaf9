"""Calibration: find the board in a render without markers (or from optional ArUco corner markers),
save and load it, notice a moved camera."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision import calibration as cal
from vision.reader import read_board
from vision.render import Camera, render, starting_spec

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
