"""Field candidates from the points' triangles (`vision.board.triangles`): a field found from its
triangles alone, on boards whose field does not stand out from the frame (issue 14: the walnut board,
the tournament case read half a point off), in top and oblique views, with and without a bar."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from vision.board.triangles import field_candidates, find_triangles
from vision.render.scene import Camera, render, starting_spec


def _work_lab(image: np.ndarray) -> tuple[np.ndarray, float]:
    h, w = image.shape[:2]
    scale = 480 / max(h, w)
    work = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(work, cv2.COLOR_BGR2LAB), work.shape[1] / w


def _corner_error(quad: np.ndarray, truth: np.ndarray) -> float:
    """Largest distance from a corner of ``truth`` to the nearest corner of ``quad`` (pixels)."""
    d = np.linalg.norm(truth[:, None, :] - quad[None, :, :], axis=2)
    return float(d.min(axis=1).max())


CASES = [
    ("wood", 0, Camera()),
    ("wood", 2, Camera(tilt_deg=25.0)),
    ("tournament", 0, Camera()),
    ("tournament", 0, Camera(tilt_deg=30.0, yaw_deg=8.0)),
]
# (printed paper boards draw half their points as outlines in the field's own colour: the outline
# finder reads those, see test_finder.py)


@pytest.mark.parametrize(("style", "variant", "camera"), CASES)
def test_the_field_is_found_from_its_triangles(style: str, variant: int, camera: Camera) -> None:
    """One candidate lies within half a point of the rendered field at every corner, and the bar's
    share of its width is the rendered one within a tenth of a point."""
    spec = starting_spec(style)
    spec = dataclasses.replace(spec, variant=variant)
    r = render(spec, size=(1280, 720), view="perspective", camera=camera, seed=3)
    lab, scale = _work_lab(r.image)
    truth = np.float32(r.regions["field"]) * scale
    point = float(np.linalg.norm(truth[1] - truth[0])) / 12.5
    cands = field_candidates(lab)
    assert cands, "no field candidate from the triangles"
    err, gap = min((_corner_error(q, truth), g) for q, g in cands)
    assert err < 0.5 * point
    if "bar" in r.regions:
        bar = r.regions["bar"] * scale
        want = float(np.linalg.norm(bar[1] - bar[0]) / np.linalg.norm(truth[1] - truth[0]))
        assert abs(gap - want) < 0.1 / 12


def test_triangles_point_from_their_tips_to_the_edges() -> None:
    """Each triangle found in a top view of the opening position points away from the field's middle
    line (tips inward, bases on the long edges), and at least 18 of the 24 are found."""
    r = render(starting_spec("tournament"), size=(1280, 720), view="rectified", camera=Camera(), seed=1)
    lab, scale = _work_lab(r.image)
    field = np.float32(r.regions["field"]) * scale
    mid_y = float(field[:, 1].mean())
    tri = find_triangles(lab)
    outward = np.sign(tri[:, 1] - mid_y) == np.sign(tri[:, 3])
    assert int(outward.sum()) >= 18


def test_no_triangles_no_field() -> None:
    """A frame with no board (noise and a few straight edges) gives no field candidate."""
    rng = np.random.default_rng(0)
    img = rng.integers(0, 255, (360, 480, 3), dtype=np.uint8)
    cv2.rectangle(img, (40, 40), (300, 200), (255, 255, 255), 3)
    assert field_candidates(cv2.cvtColor(img, cv2.COLOR_BGR2LAB)) == []


def test_a_field_holds_its_triangles() -> None:
    """support(): the rendered field holds most of its 24 tips; a quad beside the board holds none
    (the finder drops a finalist holding under half the best one's tips: a striped score card)."""
    from vision.board.triangles import support

    cam = Camera(fill=0.6)
    r = render(starting_spec("tournament"), size=(1280, 720), view="perspective", camera=cam, seed=2)
    lab, scale = _work_lab(r.image)
    tri = find_triangles(lab)
    field = np.float32(r.regions["field"]) * scale
    assert support(tri, field) >= 18
    beside = field.copy()
    beside[:, 0] += 1.1 * float(field[:, 0].max() - field[:, 0].min())
    assert support(tri, beside) == 0


@pytest.mark.parametrize("roll", [0.0, 90.0, 180.0])
def test_the_finder_reads_the_field_turned_any_way(roll: float) -> None:
    """find_board on a wooden board with clutter beside it (clock, score card), turned 0/90/180
    degrees in the image: the field found lies within half a point of the rendered one."""
    from vision.board.finder import find_board

    cam = Camera(tilt_deg=12.0, roll_deg=roll, fill=0.7)
    r = render(starting_spec("wood"), size=(1280, 720), view="perspective", camera=cam, seed=5, clutter=True)
    geom = find_board(r.image)
    assert geom is not None
    truth = np.float32(r.regions["field"])
    point = float(np.linalg.norm(truth[1] - truth[0])) / 12.5
    assert _corner_error(np.float32(geom.corners), truth) < 0.5 * point


def test_the_column_step_is_shared_by_both_rows() -> None:
    """_column_step: a row with most of its points under checkers shows mostly double gaps (its own
    spacing comes out between one and two columns); the spacing kept is the one under which both
    rows' gaps are whole numbers of columns. Rows that agree keep their median."""
    from vision.board.triangles import _column_step

    step = 18.0
    bar = 1.6 * step  # the gap across the bar
    cols = np.r_[np.arange(6) * step, 5 * step + bar + np.arange(6) * step]
    full = cols + np.random.default_rng(1).normal(0, 0.3, 12)
    sparse = cols[[0, 1, 3, 5, 7, 9, 11]]  # gaps 1, 2, 2, bar + 1, 2, 2 columns
    assert abs(_column_step([full, sparse]) - step) < 0.05 * step
    assert abs(_column_step([sparse, full]) - step) < 0.05 * step
    assert abs(_column_step([full, full * 1.05]) - 1.025 * step) < 0.05 * step
    assert _column_step([cols[:2], cols[:2]]) is None


def test_a_stray_tip_is_no_column() -> None:
    """_columns / _column_spans: a stray tip (in the bar, beside a checker) closer than a step to a
    column that more tips found is dropped, and the bar is still the one wide gap; two columns
    found by as many tips each both stay."""
    from vision.board.triangles import _column_spans, _columns

    step = 25.0
    cols = np.r_[np.arange(6) * step, 5 * step + 3 * step + np.arange(6) * step]
    tips = np.sort(np.r_[cols, cols[6:] + 0.5, cols[6] - 0.55 * step])  # both rows; one stray tip
    assert np.allclose(_columns(tips, step), cols, atol=0.5)
    spans = _column_spans(tips, step)
    assert any(abs(first - cols[0]) < 1 and abs(last - cols[-1]) < 1 for first, last, _ in spans)
    even = np.sort(np.r_[0.0, 0.6 * step, 2 * step, 3 * step])
    assert len(_columns(even, step)) == 4
