"""The field's height from its round checkers (`vision.board.aspect`): a view stretched or squashed
is measured as such, a tilted camera's and a keystoned photo's field get their true height back, a
board without checkers keeps the finder's, and the reader reads such views exactly (issue 14:
"camera: straight down to 45 degrees oblique phone views")."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from vision.board.aspect import _sample, _samples, checker_stretch, round_checkers_view, with_round_checkers
from vision.board.finder import find_board
from vision.board.geometry import BoardGeometry
from vision.board.view import FieldView
from vision.reader import read_board
from vision.reading import DARK, LIGHT
from vision.render.geometry import layout_for
from vision.render.scene import Camera, random_spec, render, starting_spec
from vision.render.spec import BoardSpec

SIZE = (960, 540)


def _keystone(image: np.ndarray, share: float) -> np.ndarray:
    """The far edge narrowed by ``share`` of the width on each side (as bench/robustness.py does)."""
    h, w = image.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[w * share, 0], [w * (1 - share), 0], [w, h], [0, h]])
    return cv2.warpPerspective(image, cv2.getPerspectiveTransform(src, dst), (w, h),
                               borderMode=cv2.BORDER_REPLICATE)


def _stretched(geom: BoardGeometry, factor: float) -> BoardGeometry:
    height = round(geom.size[1] * factor)
    scale = np.diag([1.0, height / geom.size[1], 1.0])
    return dataclasses.replace(geom, homography=scale @ geom.homography, size=(geom.size[0], height))


def _field_aspect(style: str) -> float:
    field = layout_for(style).field
    return (field[3] - field[1]) / (field[2] - field[0])


def _wood_stretched(factor: float) -> tuple[np.ndarray, BoardGeometry, BoardGeometry]:
    """A rendered wood board's frame, its found geometry, and that stretched ``factor`` in height."""
    r = render(random_spec(3, style="wood", max_stack=6, with_dice=False), size=SIZE,
               view="rectified", seed=3)
    geom = find_board(r.image)
    assert geom is not None
    return r.image, geom, _stretched(geom, factor)


@pytest.mark.parametrize("factor", [0.87, 1.15, 1.25])
def test_a_stretched_view_is_measured_and_undone(factor: float) -> None:
    """The found field of a top view, its rectified height scaled by ``factor``: the checkers are
    measured taller than wide (or shorter) that way, and the height is brought back to within the
    tolerance a correction stops at, plus the fit's bias on strong stretches (measured: within
    5.1 %; floor 6 %)."""
    image, geom, stretched = _wood_stretched(factor)
    stretch = checker_stretch(FieldView.of_frame(image, stretched))
    assert stretch is not None and (stretch - 1.0) * (factor - 1.0) > 0
    assert with_round_checkers(image, stretched).size[1] == pytest.approx(geom.size[1], rel=0.06)


@pytest.mark.parametrize("factor", [1.0, 1.25])
def test_the_measured_view_is_the_fields_view_in_the_round_geometry(factor: float) -> None:
    """The view the reader takes from the finder (the last one measured: the first when the height
    was right, the corrected one's after a 1.25 stretch) is the frame's own warp in
    :func:`with_round_checkers`'s geometry, with the same gradients: the field warped once."""
    image, geom, stretched = _wood_stretched(factor)
    view = round_checkers_view(image, stretched)
    round_geom = with_round_checkers(image, stretched)
    assert view.geom.size == round_geom.size
    assert np.array_equal(view.geom.homography, round_geom.homography)
    fresh = FieldView.of_frame(image, view.geom)
    assert view.image is image and np.array_equal(view.rect, fresh.rect)
    for got, want in zip(view.gradients, fresh.gradients, strict=True):
        assert np.array_equal(got, want)


@pytest.mark.parametrize("factor", [1.0, 1.25])
def test_a_given_first_warp_gives_the_same_view(factor: float) -> None:
    """The finder's own warp of the field handed over (``rect``) gives the view it would make:
    the same geometry, warp and gradients, whether the height was right or corrected."""
    image, geom, stretched = _wood_stretched(factor)
    want = round_checkers_view(image, stretched)
    got = round_checkers_view(image, stretched, stretched.rectify(image))
    assert got.geom.size == want.geom.size and got.geom.columns == want.geom.columns
    assert np.array_equal(got.geom.homography, want.geom.homography)
    assert np.array_equal(got.rect, want.rect)
    for a, b in zip(got.gradients, want.gradients, strict=True):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("tilt,keystone", [(35.0, 0.0), (-35.0, 0.0), (5.0, 0.12)])
@pytest.mark.parametrize("style", ["wood", "tournament", "paper"])
def test_an_oblique_field_gets_its_height(style: str, tilt: float, keystone: float) -> None:
    """A camera tilted 35 degrees either way (the field's sides then give it 16 % too short) and a
    keystoned photo (13 % too tall): the found field's height over width is the board's own
    (measured: within 3.2 %; floor 4 %)."""
    camera = Camera(tilt_deg=tilt, yaw_deg=3, roll_deg=2, fill=0.84, focal=1.2)
    r = render(random_spec(1, style=style, max_stack=7, with_dice=False), size=SIZE, camera=camera, seed=1)
    image = _keystone(r.image, keystone) if keystone else r.image
    geom = find_board(image)
    assert geom is not None
    assert geom.size[1] / geom.size[0] == pytest.approx(_field_aspect(style), rel=0.04)


@pytest.mark.parametrize("style,size,seed", [("paper", (1280, 720), 3), ("wood", (1280, 720), 3),
                                             ("wood", (1280, 720), 5), ("wood", (960, 540), 2),
                                             ("paper", (960, 540), 5)])
def test_touching_stacks_do_not_stretch_a_right_field(style: str, size: tuple[int, int], seed: int) -> None:
    """Stacks of five whose rims touch (no edge where one checker meets the next, nor at the frame)
    under a camera tilted a little: the field the finder found keeps its height. Read on their whole
    outlines alone, the discs were measured short there and the field made 3-5 % too tall."""
    camera = Camera(tilt_deg=12, yaw_deg=4, roll_deg=3, fill=0.8)
    r = render(starting_spec(style), size=size, camera=camera, seed=seed)
    geom = find_board(r.image)
    assert geom is not None
    assert geom.size[1] / geom.size[0] == pytest.approx(_field_aspect(style), rel=0.025)


def test_a_board_without_checkers_keeps_its_height() -> None:
    """No disc to measure: the finder's geometry is kept as it is."""
    r = render(BoardSpec(points=((None, 0),) * 24, style="wood"), size=SIZE,
               camera=Camera(tilt_deg=20, fill=0.84), seed=2)
    geom = find_board(r.image)
    assert geom is not None
    assert checker_stretch(FieldView.of_frame(r.image, geom)) is None
    assert with_round_checkers(r.image, geom) is geom


@pytest.mark.parametrize("seed,tilt,keystone",
                         [(1, 5.0, 0.14), (2, 5.0, 0.14), (3, 5.0, 0.14), (2, 38.0, 0.0)])
def test_oblique_tall_stacks_are_read(seed: int, tilt: float, keystone: float) -> None:
    """Stacks up to eleven on a wooden board under a 14 % keystone and a camera tilted 38 degrees:
    every point is read right (with the finder's height, 21-23 of 24 were)."""
    camera = Camera(tilt_deg=tilt, yaw_deg=3, roll_deg=2, fill=0.84, focal=1.2 if tilt > 20 else 1.4)
    spec = random_spec(seed, style="wood", max_stack=11, with_dice=False)
    r = render(spec, size=SIZE, camera=camera, seed=seed)
    image = _keystone(r.image, keystone) if keystone else r.image
    got = read_board(image)
    assert got.board_found and len(got.points) == 24
    assert _points_right(r.truth.counts(), got.counts()) == 24


def _points_right(truth: tuple[tuple[str | None, int], ...], got: tuple[tuple[str | None, int], ...]) -> int:
    """Points exactly right, the two colour names matched by the better assignment (as
    ../shared/tools/eval_boards.py scores)."""
    best = 0
    for names in ({LIGHT: LIGHT, DARK: DARK}, {LIGHT: DARK, DARK: LIGHT}):
        best = max(best, sum(1 for (tc, tn), (gc, gn) in zip(truth, got, strict=True)
                             if tn == gn and (tn == 0 or (tc is not None and names[tc] == gc))))
    return best


def test_samples_of_several_planes_are_each_planes_own() -> None:
    """Bilinear samples of two gradient planes at once equal each plane sampled alone, clamped
    points beyond the sides included."""
    rng = np.random.default_rng(5)
    gx, gy = (rng.normal(0, 30, (40, 70)).astype(np.float32) for _ in range(2))
    x, y = rng.uniform(-3, 73, (6, 9, 5)), rng.uniform(-3, 43, (6, 9, 5))
    got = _samples((gx, gy), x, y)
    assert np.array_equal(got[0], _sample(gx, x, y)) and np.array_equal(got[1], _sample(gy, x, y))
    h, w = gx.shape
    xc, yc = np.clip(x, 0.0, w - 1.001), np.clip(y, 0.0, h - 1.001)
    x0, y0 = xc.astype(np.intp), yc.astype(np.intp)
    fx, fy = xc - x0, yc - y0
    plain = ((gx[y0, x0] * (1 - fx) + gx[y0, x0 + 1] * fx) * (1 - fy)
             + (gx[y0 + 1, x0] * (1 - fx) + gx[y0 + 1, x0 + 1] * fx) * fy)
    assert np.array_equal(got[0], plain)
