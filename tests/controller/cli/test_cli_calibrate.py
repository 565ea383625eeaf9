"""``tavla calibrate`` (issue 14 item 3): the opening position (either set-up) or an empty board is
checked and its look saved; anything else is refused in one line naming the points, nothing written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

from vision.board import calibration as cal
from vision.render.scene import Camera, random_spec, render, starting_spec
from vision.render.spec import BoardSpec

TAVLA = str(Path(sys.executable).parent / "tavla")
CAM = Camera(tilt_deg=10, yaw_deg=3, roll_deg=2, fill=0.84)


def tavla(*args: str | Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, COLUMNS="200")
    return subprocess.run([TAVLA, *map(str, args)], capture_output=True, text=True, timeout=120, env=env)


def photo(tmp_path: Path, name: str, spec: BoardSpec) -> Path:
    path = tmp_path / name
    cv2.imwrite(str(path), render(spec, camera=CAM, seed=5).image)
    return path


def one_line_exit_2(r: subprocess.CompletedProcess[str]) -> str:
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert r.stderr.startswith("tavla: ") and r.stderr.count("\n") == 1, r.stderr
    assert "Traceback" not in r.stderr
    return r.stderr


@pytest.mark.parametrize("home, corner", [("right", "bottom-right"), ("left", "bottom-left")])
def test_opening_position_is_checked_and_saved(tmp_path: Path, home: str, corner: str) -> None:
    image = photo(tmp_path, "open.png", starting_spec("wood", home=home))
    out = tmp_path / "calib.json"
    r = tavla("calibrate", image, "-o", out)
    assert r.returncode == 0, r.stderr
    assert "opening position checked" in r.stdout and corner in r.stdout
    calib = cal.load(out)
    assert calib.home == corner
    assert calib.appearance is not None and set(calib.appearance.checkers) == {"light", "dark"}
    # and `tavla read` reads with it
    read = tavla("read", image, "--calibration", out)
    assert read.returncode == 0, read.stderr
    assert sum(p["count"] for p in json.loads(read.stdout)["points"]) == 30


def test_empty_board(tmp_path: Path) -> None:
    image = photo(tmp_path, "empty.png", BoardSpec(points=((None, 0),) * 24, style="wood"))
    out = tmp_path / "calib.json"
    r = tavla("calibrate", image, "-o", out, "--layout", "empty")
    assert r.returncode == 0, r.stderr
    assert cal.load(out).appearance is not None
    refused = one_line_exit_2(tavla("calibrate", image, "-o", tmp_path / "other.json"))
    assert "8 points differ" in refused and not (tmp_path / "other.json").exists()


def test_a_wrong_layout_is_refused_naming_the_points(tmp_path: Path) -> None:
    image = photo(tmp_path, "game.png", random_spec(3, style="wood", with_dice=False, bar={}, off={}))
    out = tmp_path / "calib.json"
    err = one_line_exit_2(tavla("calibrate", image, "-o", out))
    assert "calibration refused" in err and "slot " in err and "expected" in err and "calibrate again" in err
    assert not out.exists()
    # a nardy opening is not a backgammon one
    nardy = one_line_exit_2(tavla("calibrate", photo(tmp_path, "o.png", starting_spec("wood")), "-o", out,
                                  "--variant", "nardy"))
    assert "nardy opening position" in nardy


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    image = photo(tmp_path, "open.png", starting_spec("wood"))
    out = tmp_path / "c.json"
    assert "no image file" in one_line_exit_2(tavla("calibrate", tmp_path / "none.png", "-o", out))
    assert "--layout" in one_line_exit_2(tavla("calibrate", image, "-o", out, "--layout", "middle"))
    assert "--variant" in one_line_exit_2(tavla("calibrate", image, "-o", out, "--variant", "chess"))
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8 not a jpeg")
    one_line_exit_2(tavla("calibrate", broken, "-o", out))
    nowhere = tmp_path / "no" / "dir" / "c.json"
    assert "cannot write" in one_line_exit_2(tavla("calibrate", image, "-o", nowhere))


def test_save_calibration_without_a_board_says_nothing_was_written(tmp_path: Path) -> None:
    """A fresh user found `tavla read --save-calibration` silent when the photo shows no board."""
    import numpy as np

    noise = tmp_path / "noise.png"
    cv2.imwrite(str(noise), np.random.default_rng(1).integers(0, 256, (360, 640, 3), dtype=np.uint8))
    out = tmp_path / "calib.json"
    r = tavla("read", noise, "--save-calibration", out)
    assert r.returncode == 3 and not out.exists(), (r.stdout, r.stderr)
    assert json.loads(r.stdout)["board_found"] is False
    assert f"{out} not written" in r.stderr and r.stderr.count("\n") == 1, r.stderr
