"""`vision.reader.read_board` and `tavla read` on bad input: a clear status or exit code, no traceback."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from controller.cli import app
from vision.reader import ReaderInputError, read_board
from vision.reading import FrameStatus

runner = CliRunner()


@pytest.mark.parametrize(
    "name,image,status",
    [
        ("black", np.zeros((360, 480, 3), np.uint8), FrameStatus.TOO_DARK),
        ("blank", np.full((360, 480, 3), 255, np.uint8), FrameStatus.NO_BOARD),
        ("noise", np.random.default_rng(0).integers(0, 256, (360, 480, 3), np.uint8), FrameStatus.NO_BOARD),
        ("tiny", np.full((8, 8, 3), 128, np.uint8), FrameStatus.NO_BOARD),
        ("grey 2-D", np.full((360, 480), 128, np.uint8), FrameStatus.NO_BOARD),
    ],
)
def test_no_board_gives_a_status_not_an_error(name: str, image: np.ndarray, status: FrameStatus) -> None:
    reading = read_board(image)
    assert not reading.board_found, name
    assert reading.status == status
    out = json.loads(json.dumps(reading.to_json()))
    assert out["board_found"] is False and out["points"] == []


@pytest.mark.parametrize(
    "bad", [np.zeros((100, 100, 3), np.float32), np.zeros((100, 100, 5), np.uint8), "not an array"]
)
def test_non_images_raise_a_value_error(bad: object) -> None:
    with pytest.raises(ReaderInputError):
        read_board(bad)  # type: ignore[arg-type]
    assert issubclass(ReaderInputError, ValueError)


def _write(tmp_path: Path, name: str, image: np.ndarray) -> Path:
    path = tmp_path / name
    assert cv2.imwrite(str(path), image)
    return path


def test_cli_missing_file_exits_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["read", str(tmp_path / "nothing.jpg")])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_cli_not_an_image_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "notes.jpg"
    path.write_text("these are not pixels\n")
    result = runner.invoke(app, ["read", str(path)])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_cli_truncated_jpeg_exits_2(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    full = _write(tmp_path, "full.jpg", rng.integers(0, 256, (200, 300, 3), dtype=np.uint8))
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(full.read_bytes()[: full.stat().st_size // 2])
    result = runner.invoke(app, ["read", str(cut)])
    assert result.exit_code == 2 and "truncated" in result.output


def test_cli_truncated_png_exits_2(tmp_path: Path) -> None:
    full = _write(tmp_path, "full.png", np.full((100, 100, 3), 90, np.uint8))
    cut = tmp_path / "cut.png"
    cut.write_bytes(full.read_bytes()[:-20])
    result = runner.invoke(app, ["read", str(cut)])
    assert result.exit_code == 2


def test_cli_no_board_exits_3_with_json(tmp_path: Path) -> None:
    path = _write(tmp_path, "blank.png", np.full((240, 320, 3), 200, np.uint8))
    result = runner.invoke(app, ["read", str(path)])
    assert result.exit_code == 3
    assert json.loads(result.stdout)["board_found"] is False


def test_cli_bad_calibration_file_exits_2(tmp_path: Path) -> None:
    path = _write(tmp_path, "blank.png", np.full((240, 320, 3), 200, np.uint8))
    calib = tmp_path / "calib.json"
    calib.write_text("{not json")
    result = runner.invoke(app, ["read", str(path), "--calibration", str(calib)])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_cli_notices_a_calibration_the_camera_has_moved_away_from(tmp_path: Path) -> None:
    """Issue #4 item 1: the points no longer where the calibration says -> a note, and the board is
    found again (it used to read the old place: made-up counts from a shifted frame or a dice tray)."""
    from tests.conftest import shared_data

    frame = cv2.imread(str(shared_data("boards-real") / "frame0.jpg"))
    h, w = frame.shape[:2]
    still = _write(tmp_path, "still.png", frame)
    calib = tmp_path / "calib.json"
    first = runner.invoke(app, ["read", str(still), "--save-calibration", str(calib)])
    assert first.exit_code == 0
    again = runner.invoke(app, ["read", str(still), "--calibration", str(calib)])
    assert again.exit_code == 0 and "note" not in again.stderr
    assert json.loads(again.stdout)["points"] == json.loads(first.stdout)["points"]
    moved = _write(tmp_path, "moved.png", cv2.warpAffine(frame, np.float32([[1, 0, 60], [0, 1, 40]]), (w, h)))
    got = runner.invoke(app, ["read", str(moved), "--calibration", str(calib)])
    assert "the board is not where" in got.stderr
    fresh = runner.invoke(app, ["read", str(moved)])
    assert got.stdout == fresh.stdout


def test_a_photo_far_larger_than_a_frame_reads_as_the_frame_does() -> None:
    """A 6000 px still is read shrunk to WORK_SIDE; positions come back in its own pixels. Measured:
    frame0 1 point of 24 differs from the 1280 px frame (9 and a made-up bar when read at full size),
    test9 none."""
    from tests.conftest import shared_data
    from vision.reader import MAX_WORK_SIDE

    wrong = 0
    for name in ("frame0.jpg", "test9.jpg"):
        frame = cv2.imread(str(shared_data("boards-real") / name))
        h, w = frame.shape[:2]
        big = cv2.resize(frame, (6000, round(6000 * h / w)), interpolation=cv2.INTER_CUBIC)
        assert max(big.shape[:2]) > MAX_WORK_SIDE
        a, b = read_board(frame), read_board(big)
        assert b.board_found and not b.occluded and b.image_size == (big.shape[1], big.shape[0])
        wrong += sum(x != y for x, y in zip(a.counts(), b.counts(), strict=True))
        k = big.shape[1] / w
        for p, q in zip(a.points, b.points, strict=True):
            assert abs(q.image_xy[0] - k * p.image_xy[0]) < 8 * k  # a fifth of a point
            assert abs(q.image_xy[1] - k * p.image_xy[1]) < 8 * k
        assert sorted(d.value for d in b.dice) == sorted(d.value for d in a.dice)
    assert wrong <= 1


def test_borne_off_checkers_never_make_a_sixteenth() -> None:
    """A card beside a tray read as light checkers off is cut to what 15 leave once the points and
    the bar are counted (the points' counts are the surer reading); the other colour is untouched."""
    from vision.reader import _within_a_set
    from vision.reading import PointReading

    points = tuple(PointReading(i, None, "light" if i < 5 else None, 3 if i < 5 else 0) for i in range(24))
    assert _within_a_set({"light": 4, "dark": 2}, points, {}) == {"dark": 2}
    assert _within_a_set({"light": 4}, points[:4] + points[5:], {"light": 1}) == {"light": 2}


@pytest.mark.parametrize("level", [11, 12])
def test_too_dark_is_the_mean_grey_level_under_twelve(level: int) -> None:
    """The frame's mean over every pixel and channel, exactly: 11.99... is too dark, 12.0 is not."""
    img = np.full((360, 480, 3), level, np.uint8)
    img[0, 0, 0] = level - 1  # the mean just under the level
    dark = read_board(img).status == FrameStatus.TOO_DARK
    assert dark
    img[0, 0, 0] = level
    assert (read_board(img).status == FrameStatus.TOO_DARK) == (level < 12)


def test_more_checkers_of_a_colour_than_a_set_has_is_no_ok_reading() -> None:
    """Counts with 16 light checkers (points, bar and off together) are no set's: the reading says
    so in its status (``too_many_checkers``); 15 + 15 are ``ok`` (the opening position, read)."""
    from vision.reader import _set_status
    from vision.reading import DARK, LIGHT, PointReading
    from vision.render.scene import render, starting_spec

    def pts(*stacks: tuple[str, int]) -> tuple[PointReading, ...]:
        cells = list(stacks) + [(None, 0)] * (24 - len(stacks))
        return tuple(PointReading(i, (0.0, 0.0), c, n) for i, (c, n) in enumerate(cells))

    fifteen = pts((LIGHT, 5), (LIGHT, 5), (DARK, 15))
    assert _set_status(fifteen, {LIGHT: 2}, {LIGHT: 3}) == FrameStatus.OK
    assert _set_status(fifteen, {LIGHT: 3}, {LIGHT: 3}) == FrameStatus.TOO_MANY_CHECKERS
    assert _set_status(pts((LIGHT, 5), (DARK, 16)), {}, {}) == FrameStatus.TOO_MANY_CHECKERS
    assert _set_status(pts(), {}, {DARK: 16}) == FrameStatus.TOO_MANY_CHECKERS
    r = render(starting_spec(style="tournament"), size=(960, 540), view="rectified", seed=1)
    got = read_board(r.image)
    assert got.counts() == r.truth.counts() and got.status == FrameStatus.OK
    assert FrameStatus.TOO_MANY_CHECKERS.value == "too_many_checkers"


def test_a_die_read_inside_a_weak_lone_checker_is_no_checker(monkeypatch: pytest.MonkeyPatch) -> None:
    """A one-checker stack whose ring is not near complete, in which the dice reader finds a die
    once that disc is not masked, is the die (a small die at a bare point's base: the triangle's
    sides and the base line close a partial ring); a near-complete ring stays a checker, and so
    does a weak one where no die is found."""
    import vision.reader as reader
    from vision.board.geometry import POINT_PX, BoardGeometry
    from vision.checkers.stacks import StackReading

    w, h = 12 * POINT_PX, 13 * POINT_PX
    cols = tuple((i + 0.5) * POINT_PX for i in range(12))
    corners = ((0.0, 0.0), (float(w), 0.0), (float(w), float(h)), (0.0, float(h)))
    geom = BoardGeometry(np.eye(3), (w, h), cols, None, (w, h), 1.0, corners)
    r = 0.45 * POINT_PX
    weak = StackReading(2, False, 1, (200.0, 130.0, 140.0), 0.74, ((2.5 * POINT_PX, h - r),), r)
    strong = StackReading(4, False, 1, (200.0, 130.0, 140.0), 0.95, ((4.5 * POINT_PX, h - r),), r)
    stacks = [weak, strong]
    seen: list[int] = []

    def dice_at(*xy: tuple[float, float]):
        def fake(image, geom, discs, radius, cube_xy=None, scan=None):  # noqa: ANN001, ANN202
            seen.append(len(discs))
            return list(xy)
        return fake

    monkeypatch.setattr(reader, "board_dice_places", dice_at(weak.centres[0], strong.centres[0]))
    out = reader._dice_in_blots(np.zeros((h, w, 3), np.uint8), geom, stacks)
    assert seen == [1]  # the weak blot's disc was not masked
    assert out[0].count == 0 and out[0].centres == () and out[1] == strong
    monkeypatch.setattr(reader, "board_dice_places", dice_at())
    assert reader._dice_in_blots(np.zeros((h, w, 3), np.uint8), geom, stacks) == stacks


def test_test6_die_at_a_bare_base_is_read_as_the_die() -> None:
    """boards-real test6: a small black die at the base of a bare white point (B5) is the die of
    the 3-5 roll, not a light checker."""
    from tests.conftest import shared_data

    reading = read_board(cv2.imread(str(shared_data("boards-real") / "test6.jpg")))
    assert reading.image_size is not None
    half = reading.image_size[1] / 2
    bottom = sorted((p for p in reading.points if p.image_xy and p.image_xy[1] > half),
                    key=lambda p: p.image_xy[0] if p.image_xy else 0.0)  # left to right
    assert bottom[4].count == 0, bottom[4]
    assert sorted(d.value for d in reading.dice) == [3, 5]


def test_the_points_places_are_each_geometrys_own() -> None:
    """The points' image places kept from an earlier frame are that geometry's: a moved field's
    are its own, halfway along a five-checker stack from each point's base (a quarter of the
    field at most)."""
    import dataclasses

    import numpy as np

    from vision.board.geometry import POINT_PX, BoardGeometry
    from vision.reader import _point_places

    geom = BoardGeometry(homography=np.diag([0.5, 0.5, 1.0]), size=(384, 300),
                         columns=tuple(16.0 + 32 * i for i in range(12)), bar=None, image_size=(800, 600),
                         score=1.0, corners=())
    moved = dataclasses.replace(geom, homography=np.array([[0.5, 0, -10], [0, 0.5, -4], [0, 0, 1.0]]))
    for g in (geom, moved, geom):
        for slot, ((col, top), xy) in enumerate(_point_places(g)):
            assert (col, top) == g.slot_column(slot)
            depth = min(2.5 * POINT_PX, 0.25 * 300)
            y = depth if top else 300 - depth
            assert np.allclose(g.to_rectified(np.array([xy])), [[g.columns[col], y]])
