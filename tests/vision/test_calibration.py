"""Calibration without markers: find the board in a render, save and load it, notice a moved camera."""

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
