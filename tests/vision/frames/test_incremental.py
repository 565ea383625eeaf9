"""The incremental calibrated reading (`vision.frames.pipeline.CalibratedDetector` through
`vision.reader.read_changed`): a changed frame re-reads only the places that changed, and every
reading equals the full reading of the same frame -- on the boards-webcam sessions in order (skipped
when ../shared/data is absent) and on rendered games.

"Equals" compares what a reading says (status, the points' colours and counts, bar, off, the dice's
values and states, the cube): a place kept from the last reading keeps the confidence it was read
with there, a fresh reading of the new frame's sensor noise gives another one."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.conftest import shared_data
from vision.frames.motion import BoardThumbnail, changed_cells, merge_cells
from vision.frames.pipeline import CalibratedDetector
from vision.reader import read_board
from vision.reading import BoardReading
from vision.render.scene import Camera, random_spec, render
from vision.render.sequence import game_frames
from vision.render.spec import DieSpec


def said(r: BoardReading) -> tuple[Any, ...]:
    cube = None if r.cube is None else (r.cube.value, r.cube.position)
    return (r.board_found, r.status, r.occluded, r.counts(), sorted(r.bar.items()), sorted(r.off.items()),
            [(d.value, d.status) for d in r.dice], cube)


def _in_order(session: Path) -> list[Path]:
    def natural(p: Path) -> list[Any]:
        return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", p.name)]

    return sorted(session.glob("*.jpg"), key=natural)


def _run(frames: list[np.ndarray]) -> CalibratedDetector:
    """Every frame through the detector and through a full reading with its calibration: equal."""
    from vision.board.calibration import calibrate

    calib = next((c for c in (calibrate(f) for f in frames) if c is not None), None)
    assert calib is not None
    det = CalibratedDetector(calib, recheck_every=10**9)
    for i, img in enumerate(frames):
        got = det(img)
        assert said(got) == said(read_board(img, calib)), i
    return det


@pytest.mark.parametrize("session", ["2024-03-21_10_38_22", "2024-05-10_09_49_14", "2024-03-16_21_12_20"])
def test_webcam_session_read_in_part_equals_full_readings(session: str) -> None:
    folder = shared_data("boards-webcam") / "frames" / session
    if not folder.is_dir():
        pytest.skip(f"{folder} is absent")
    det = _run([cv2.imread(str(p)) for p in _in_order(folder)])
    assert det.partial >= 3  # frames read in part, not all in full


def _successor(spec: Any, src: int, dst: int) -> Any:
    pts = list(spec.points)
    colour, n = pts[src]
    pts[src] = (colour if n > 1 else None, n - 1)
    pts[dst] = (colour, pts[dst][1] + 1)
    return dataclasses.replace(spec, points=tuple(pts))


def _game(style: str, seed: int) -> list[Any]:
    """A position, one checker moved, the dice thrown again: the specs of a rendered game."""
    spec = random_spec(seed, style=style)
    src = next(i for i in (9, 8, 10, 3, 4, 15, 14, 20, 21) if spec.points[i][1] >= 1)
    colour = spec.points[src][0]
    dst = next(i for i in (src + 1, src - 1) if spec.points[i][0] in (None, colour))
    moved = _successor(spec, src, dst)
    thrown = dataclasses.replace(moved, dice=tuple(DieSpec(v) for v in (3, 5)))
    return [spec, moved, thrown]


@pytest.mark.parametrize("style,seed", [("paper", 4), ("wood", 5)])
def test_rendered_game_read_in_part_equals_full_readings(style: str, seed: int) -> None:
    frames = [f.image for f in game_frames(_game(style, seed), still=2, hand=1, size=(960, 540),
                                           camera=Camera(tilt_deg=6, roll_deg=2), seed=seed)]
    det = _run(frames)
    assert det.partial >= 1


def test_one_checker_moved_reads_neither_dice_nor_cube(monkeypatch: pytest.MonkeyPatch) -> None:
    """A checker moved in the middle of a half: its points are read again, the dice, the cube and the
    trays are the last reading's, and the reading is the full one's."""
    import vision.reader as reader

    spec = random_spec(6, style="tournament")
    src = next(i for i in (9, 8, 3, 4, 15, 14, 20, 21) if spec.points[i][1] >= 1)
    dst = next(i for i in (src + 1, src - 1) if spec.points[i][0] in (None, spec.points[src][0]))
    cam = Camera(tilt_deg=6, roll_deg=2)
    before = render(spec, size=(960, 540), camera=cam, seed=6, noise_seed=1).image
    after = render(_successor(spec, src, dst), size=(960, 540), camera=cam, seed=6, noise_seed=2).image
    det = CalibratedDetector()
    det(before)
    calls: list[str] = []
    for name in ("find_cube", "find_off", "_dice"):
        real = getattr(reader, name)
        monkeypatch.setattr(reader, name, lambda *a, _real=real, _name=name, **k: (calls.append(_name),
                                                                                    _real(*a, **k))[1])
    got = det(after)
    assert det.partial == 1 and calls == []
    assert said(got) == said(read_board(after, det.calibration))
    assert got.counts()[dst][1] == spec.points[dst][1] + 1


def test_changed_cells_lie_where_the_frame_changed() -> None:
    """A patch drawn on the field changes the regions over it and no others; merged into the old
    thumbnail, those regions compare unchanged."""
    from vision.board.calibration import calibrate

    img = render(random_spec(2, style="paper"), size=(960, 540), camera=Camera(tilt_deg=4), seed=2).image
    calib = calibrate(img)
    assert calib is not None
    geom = calib.geometry
    thumbs = BoardThumbnail(geom)
    spot = np.array([[0.3 * geom.size[0], 0.5 * geom.size[1]]])
    x, y = geom.to_image(spot)[0]
    changed = img.copy()
    cv2.circle(changed, (int(x), int(y)), 12, (0, 0, 255), -1)
    a, b = thumbs(img), thumbs(changed)
    cells = changed_cells(a, b)
    assert cells is not None and 1 <= int(cells.sum()) <= 16
    centres = thumbs.cell_centres(cells)
    assert np.hypot(*(centres - spot).T).max() < 40  # within a checker's size of the spot
    merged = changed_cells(merge_cells(a, b, cells), b)
    assert merged is not None and not merged.any()


def test_learned_look_reads_in_part_as_in_full() -> None:
    """A calibration that learned the board from the opening position (its look updated by every
    frame): each frame reads as a full reading with the calibration the detector held for it, and
    frames in the light it learned are read in part."""
    from vision.reader import read_adapting
    from vision.render.scene import starting_spec

    style = "wood"
    layouts = [tuple(starting_spec(style, home=h).points) for h in ("right", "left")]
    opening = starting_spec(style)
    game = [opening, _successor(opening, 0, 1), _successor(_successor(opening, 0, 1), 11, 10)]
    frames = [f.image for f in game_frames(game, still=2, hand=0, size=(960, 540),
                                           camera=Camera(tilt_deg=6, roll_deg=2), seed=8, lighting=0.0)]
    det = CalibratedDetector(layouts=layouts)
    for i, img in enumerate(frames):
        held = det.calibration
        got = det(img)
        if held is not None:
            assert said(got) == said(read_adapting(img, held)[0]), i
    assert det.calibration is not None and det.calibration.appearance is not None
    assert det.partial >= 1
