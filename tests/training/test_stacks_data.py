"""The stack counter's training strips carry the right labels, and the shipped network counts
rendered boards it was not trained on."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from training.render_dataset import label_for
from training.stacks_data import family_of, finder_error, photo_strips, render_strips, strip_cells
from vision.board.finder import geometry_from_corners
from vision.board.view import FieldView
from vision.checkers.network import N_COUNTS, WEIGHTS, StackNet, point_strips
from vision.eval.boards import parse_cell
from vision.render.geometry import layout_for
from vision.render.scene import Camera, Render, random_spec, render


def _render(seed: int, style: str, portrait: bool = False) -> tuple[Render, object]:
    spec = random_spec(seed, style=style, max_stack=5)
    size = (360, 640) if portrait else (640, 360)
    cam = Camera.random(np.random.default_rng(seed), portrait=portrait)
    r = render(spec, size=size, camera=cam, seed=seed)
    lay = layout_for(style)
    gap = 0.0 if lay.bar is None else (lay.bar[1] - lay.bar[0]) / (lay.field[2] - lay.field[0])
    return r, geometry_from_corners(r.image, r.regions["field"], bar=gap)


@pytest.mark.parametrize(("style", "portrait"), [("wood", False), ("paper", True)])
def test_strip_cells_are_the_points_under_the_strips(style: str, portrait: bool) -> None:
    """Each strip's label is the count of the rendered point nearest the strip (in the image)."""
    r, geom = _render(7, style, portrait)
    cells = strip_cells(geom, label_for(r.truth, "x", portrait))  # type: ignore[arg-type]
    from training.stacks_data import strip_xy

    xy = np.array([p["image_xy"] for p in strip_xy(geom)])  # type: ignore[arg-type]
    truth = [(np.array(p.image_xy), p.count) for p in r.truth.points]
    for (x, y), cell in zip(xy, cells, strict=True):
        nearest = min(truth, key=lambda t: float(np.linalg.norm(t[0] - (x, y))))
        assert cell is not None and cell[1] == nearest[1]


def test_render_strips_are_labelled_and_sized() -> None:
    s = render_strips(2, seed=3)
    assert s.x.shape[0] == len(s.count) == 48 and set(s.group) == {"render"}
    assert s.count.min() >= 0 and s.count.max() < N_COUNTS


def test_finder_error_moves_each_edge_by_under_half_a_point() -> None:
    """An erring finder's field: every edge within half a point width of the true one, and the
    field still a quadrilateral of about the true size."""
    quad = np.array([[100.0, 80.0], [1300.0, 80.0], [1300.0, 1180.0], [100.0, 1180.0]])
    point = 1200.0 / 12
    moved = [finder_error(quad, np.random.default_rng(s)) for s in range(20)]
    for m in moved:
        assert np.abs(m - quad).max() <= 0.5 * point + 1e-6
    assert np.abs(np.array(moved) - quad).max() > 0.3 * point  # it does err


def test_surfaces_and_finder_errors_are_off_by_default() -> None:
    """The renders of a seed are those made before the options existed. An erring finder cuts
    other strips of the same positions (each render's counts, in whatever order its field gives);
    a surface changes the look."""
    plain = render_strips(2, seed=3)
    again = render_strips(2, seed=3, surface=0.0, finder=0.0)
    assert np.array_equal(plain.x, again.x)
    assert not np.array_equal(plain.x, render_strips(2, seed=3, surface=1.0).x)
    erred = render_strips(2, seed=3, finder=1.0)
    assert not np.array_equal(plain.x, erred.x)
    for name in np.unique(plain.image):
        assert sorted(plain.count[plain.image == name]) == sorted(erred.count[erred.image == name])


def test_hidden_cells_are_left_out() -> None:
    r, geom = _render(8, "tournament")
    lab = label_for(r.truth, "x", False)
    lab["rowA"] = ["?"] * 12
    s = photo_strips(r.image, geom, lab, "test", "x")  # type: ignore[arg-type]
    assert len(s.count) == 12 and parse_cell("?") is None


def test_families_follow_the_readme() -> None:
    assert family_of("frame1.jpg") == family_of("test9.jpg") == "wtc-broadcast"
    assert family_of("test11.jpg") == family_of("test12.jpg")
    assert family_of("frames/2024-03-16_20_52_07/frame2.jpg") == "webcam"


@pytest.mark.skipif(not WEIGHTS.exists(), reason="no shipped stack network (make train-stacks)")
def test_shipped_network_counts_rendered_points() -> None:
    """On renders of seeds it was not trained on, the shipped network counts nearly every point."""
    cv2.setNumThreads(1)
    net = StackNet(WEIGHTS)
    right = total = 0
    for seed, style in ((910_001, "wood"), (910_002, "tournament"), (910_003, "paper")):
        r, geom = _render(seed, style)
        probs = net.probabilities(point_strips(FieldView.of_frame(r.image, geom), geom))  # type: ignore[arg-type]
        assert probs.shape == (24, N_COUNTS) and np.allclose(probs.sum(axis=1), 1.0, atol=1e-4)
        cells = strip_cells(geom, label_for(r.truth, "x", False))  # type: ignore[arg-type]
        right += sum(int(c is not None and c[1] == int(p.argmax()))
                     for c, p in zip(cells, probs, strict=True))
        total += 24
    assert right >= 0.9 * total
