"""Calibration on a known layout (issue 14 item 3): the opening position and an empty board are
checked and learned; a wrong layout is refused naming its points; the learned look holds when the
light changes; calibration files from before the look still load."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache

import numpy as np
import pytest

from vision.board import appearance as look
from vision.board import calibration as cal
from vision.board.learn import EMPTY, Layout, Learned, calibrate_known, describe_slot
from vision.errors import CalibrationError, LayoutMismatch
from vision.reader import read_adapting, read_board
from vision.render.scene import Camera, random_spec, render, starting_spec
from vision.render.spec import BoardSpec

CAM = Camera(tilt_deg=10, yaw_deg=3, roll_deg=2, fill=0.84)


def opening_layouts(style: str) -> list[Layout]:
    """The opening position in both set-ups (RULES.md B2), as the controller gives them."""
    return [tuple(starting_spec(style, home=h).points) for h in ("right", "left")]


def shot(spec: BoardSpec, **kw: object) -> np.ndarray:
    return render(spec, camera=CAM, seed=5, **kw).image  # type: ignore[arg-type]


@cache
def learned(style: str = "tournament", variant: int = 1, home: str = "right") -> Learned:
    return calibrate_known(shot(starting_spec(style, home=home, variant=variant)), opening_layouts(style))


def lit(image: np.ndarray, gains: tuple[float, float, float]) -> np.ndarray:
    return np.clip(image.astype(np.float32) * np.array(gains, np.float32), 0, 255).astype(np.uint8)


def test_opening_position_calibrates_and_is_checked() -> None:
    got = learned("wood", 0)
    assert got.layout == 0
    model = got.calibration.appearance
    assert model is not None and set(model.checkers) == {"light", "dark"}
    assert model.checkers["light"].mean[0] > model.checkers["dark"].mean[0] + 50
    assert model.checkers["light"].discs == 15 and model.checkers["dark"].discs == 15
    assert len(model.ref_xy) == len(model.ref_bgr) > 50
    assert sum(p.count for p in got.reading.points) == 30


def test_mirrored_set_up_is_accepted() -> None:
    got = learned("wood", 0, "left")
    assert got.layout == 1  # the home-left layout, not the home-right one


def test_wrong_layout_is_refused_naming_the_points() -> None:
    frame = shot(random_spec(3, style="wood", with_dice=False, bar={}, off={}))
    with pytest.raises(LayoutMismatch) as exc:
        calibrate_known(frame, opening_layouts("wood"), "the opening position")
    assert exc.value.points and all(0 <= s < 24 for s, _, _ in exc.value.points)
    first = exc.value.points[0][0]
    assert describe_slot(first) in str(exc.value) and "the opening position" in str(exc.value)
    assert "calibrate again" in str(exc.value)


def test_empty_board_calibrates_and_the_opening_is_not_an_empty_board() -> None:
    empty = shot(BoardSpec(points=EMPTY, style="wood"))
    got = calibrate_known(empty, [EMPTY], "an empty board")
    assert got.calibration.appearance is not None and got.calibration.appearance.checkers == {}
    with pytest.raises(LayoutMismatch, match="8 points differ"):
        calibrate_known(empty, opening_layouts("wood"))
    with pytest.raises(LayoutMismatch, match="expected empty, read 5"):
        calibrate_known(shot(starting_spec("wood")), [EMPTY])


def test_no_board_is_a_calibration_error() -> None:
    with pytest.raises(CalibrationError, match="no board found"):
        calibrate_known(np.full((360, 640, 3), 120, np.uint8), [EMPTY])


def test_learned_look_survives_a_light_change() -> None:
    # gold and white checkers (two colours of nearly one lightness), dark's fifteen on the points
    # alone, in half the light with a warm cast: the frame's own guess names gold 'light'
    calib = learned().calibration
    spec = random_spec(203, style="tournament", variant=1, with_dice=False, off={"light": 15})
    r = render(spec, camera=CAM, seed=5, noise_seed=3)
    frame = lit(r.image, (0.38, 0.48, 0.6))
    truth = [(p.colour, p.count) for p in r.truth.points]
    reading, after = read_adapting(frame, calib)
    assert [(p.colour if p.count else None, p.count) for p in reading.points] == truth
    plain = read_board(frame, replace(calib, appearance=None))
    assert [(p.colour if p.count else None, p.count) for p in plain.points] != truth
    assert after is not None and after.appearance is not None
    assert np.allclose(after.appearance.gains, (0.38, 0.48, 0.6), atol=0.03)


def test_update_is_bounded() -> None:
    model = learned().calibration.appearance
    assert model is not None
    dark = model.checkers["dark"]
    for _ in range(200):  # a misread pulling further the same way, frame after frame
        now = model.checkers["dark"]
        far = tuple(float(v) for v in np.asarray(now.mean) + 1.5 * np.asarray(now.spread))
        model = look.update(model, [far], ["dark"], [1.0], None)  # type: ignore[list-item]
    moved = np.linalg.norm(np.asarray(model.checkers["dark"].mean) - np.asarray(dark.anchor))
    assert 0 < moved <= max(10.0, 2.5 * float(np.linalg.norm(dark.spread))) + 1e-6
    # a colour far from every learned one (a hand, a sleeve) does not move it at all
    still = look.update(model, [(128.0, 200.0, 20.0)], ["dark"], [1.0], None)
    assert still.checkers == model.checkers


def test_a_hand_keeps_the_last_light() -> None:
    calib = learned().calibration
    assert calib.appearance is not None
    frame = render(random_spec(4, style="tournament", variant=1), camera=CAM, seed=5, occluder="hand").image
    reading, after = read_adapting(frame, calib)
    assert reading.occluded and after is calib


def test_calibration_with_its_look_round_trips_and_old_files_load(tmp_path: object) -> None:
    calib = learned().calibration
    data = json.loads(json.dumps(calib.to_json()))
    back = cal.Calibration.from_json(data)
    assert back.appearance is not None and back.appearance.to_json() == calib.appearance.to_json()  # type: ignore[union-attr]
    del data["appearance"]  # a file written before the look was learned
    old = cal.Calibration.from_json(data)
    assert old.appearance is None and old.geometry.columns == calib.geometry.columns
    frame = shot(starting_spec("tournament", variant=1))
    assert read_board(frame, old).counts() == read_board(frame, replace(calib, appearance=None)).counts()


@pytest.mark.parametrize("edit", [
    lambda a: a.__setitem__("points", [[1, 2, 3]]),
    lambda a: a["checkers"]["dark"].__setitem__("spread", [0, 1, 1]),
    lambda a: a["checkers"].__setitem__("purple", a["checkers"]["dark"]),
    lambda a: a.__setitem__("ref_xy", a["ref_xy"][:-1]),
    lambda a: a.__setitem__("gains", [1, 1, 100]),
    lambda a: a.__setitem__("field", "grey"),
    lambda a: a["checkers"].__setitem__("dark", 3),
])
def test_a_malformed_look_is_a_calibration_error(edit: object) -> None:
    data = json.loads(json.dumps(learned().calibration.to_json()))
    edit(data["appearance"])  # type: ignore[operator]
    with pytest.raises(CalibrationError):
        cal.Calibration.from_json(data)


def test_the_station_detector_learns_at_the_start_and_keeps_the_look() -> None:
    from vision.frames.pipeline import CalibratedDetector

    layouts = [*opening_layouts("tournament"), EMPTY]
    wrong = CalibratedDetector(layouts=layouts, what="the opening position")
    wrong(shot(random_spec(3, style="tournament", variant=1, with_dice=False, bar={}, off={})))
    assert wrong.calibration is not None and wrong.calibration.appearance is None
    assert wrong.learn_note is not None and "slot " in wrong.learn_note
    det = CalibratedDetector(layouts=layouts, what="the opening position")
    det(shot(starting_spec("tournament", variant=1)))
    assert det.learn_note is None and det.calibration.appearance is not None
    frame = lit(shot(random_spec(8, style="tournament", variant=1, with_dice=False)), (0.6, 0.7, 0.8))
    det(frame)
    assert np.allclose(det.calibration.appearance.gains, (0.6, 0.7, 0.8), atol=0.03)
