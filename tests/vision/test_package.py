"""The package top (DESIGN.md "Contracts"): ``vision.read_board`` and ``vision.calibrate``, and a light
``import vision.reading`` (the controller holds readings without loading a detector)."""

from __future__ import annotations

import subprocess
import sys

import pytest

import vision
from vision.board.calibration import calibrate
from vision.reader import read_board
from vision.render.scene import render
from vision.render.spec import starting_spec


def test_read_board_and_calibrate_are_importable_from_the_top() -> None:
    from vision import calibrate as top_calibrate
    from vision import read_board as top_read_board

    assert top_read_board is read_board and top_calibrate is calibrate
    image = render(starting_spec("wood"), size=(960, 540), seed=3).image
    calib = vision.calibrate(image)
    assert calib is not None
    assert vision.read_board(image, calib).to_json() == read_board(image, calib).to_json()
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        vision.nothing  # noqa: B018


def test_importing_readings_loads_no_detector() -> None:
    code = ("import sys, vision.reading; "
            "print(sorted(m for m in sys.modules if m.startswith(('vision', 'cv2'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['vision', 'vision.errors', 'vision.reading']"
