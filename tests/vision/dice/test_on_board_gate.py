"""The board dice search's coarse look (vision.dice.on_board._gate): boxes round the pip-like blobs,
each read as a view of its own, give the readings of the whole view's search."""

from __future__ import annotations

import numpy as np
import pytest

from vision.board.finder import find_board
from vision.checkers.stacks import count_stacks
from vision.dice import on_board as bd
from vision.render.scene import Camera, random_spec, render


def test_boxes_join_where_they_overlap_and_stay_in_the_view() -> None:
    boxes = bd._boxes([(10.0, 10.0), (30.0, 12.0), (200.0, 150.0)], 15.0, (220, 160))
    assert sorted(boxes) == [(0, 0, 45, 27), (185, 135, 215, 160)]
    # a chain of boxes each overlapping the next becomes one
    assert bd._boxes([(0.0, 0.0), (25.0, 0.0), (50.0, 0.0)], 15.0, (100, 100)) == [(0, 0, 65, 15)]


def test_a_box_of_the_view_is_that_part_of_the_view() -> None:
    r = render(random_spec(2, style="wood"), size=(1280, 720), camera=Camera(tilt_deg=6, roll_deg=2), seed=2)
    geom = find_board(r.image)
    assert geom is not None
    whole = bd.dice_view(r.image, geom, 14.0)
    part = bd.dice_view(r.image, geom, 14.0, box=(40, 30, 140, 90))
    assert part.image.shape == (60, 100, 3)
    diff = np.abs(part.image.astype(int) - whole.image[30:90, 40:140].astype(int))
    assert diff.max() <= 1
    # the same rectified point lands on the same pixel of both
    xy = np.array([[50.0, 40.0]])
    assert np.allclose(part.to_view(xy), whole.to_view(xy) - (40, 30))


def _reading(img: np.ndarray, geom, discs, radius: float) -> list[tuple]:  # type: ignore[no-untyped-def]
    return [(d.value, d.status, round(d.image_xy[0], 1), round(d.image_xy[1], 1))
            for d in bd.find_board_dice(img, geom, discs, radius)]


@pytest.mark.parametrize("style", ["paper", "wood", "tournament"])
def test_the_gated_search_reads_what_the_whole_view_reads(
        style: str, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = 0
    for seed in range(3):
        r = render(random_spec(seed, style=style), size=(1280, 720), camera=Camera(tilt_deg=6, roll_deg=2),
                   seed=seed)
        geom = find_board(r.image)
        if geom is None:
            continue
        stacks = count_stacks(geom.rectify(r.image), geom)
        discs = [(x, y, s.radius) for s in stacks for x, y in s.centres]
        radius = stacks[0].radius
        gated = _reading(r.image, geom, discs, radius)
        with monkeypatch.context() as m:
            m.setattr(bd, "_GATE_SIGMA", np.inf)  # never gated: the whole view
            whole = _reading(r.image, geom, discs, radius)
        assert gated == whole, (style, seed)
        seen += len(whole)
    assert seen  # some dice were read at all


def test_the_coarse_look_runs_only_where_the_input_holds_the_pips_at_the_pip_scale() -> None:
    # the coarse look halves the input: the smallest pips' scale in input px (the view's pip scale
    # times its source px) must be the view's least pip scale, or the whole view is read (None)
    image = np.full((90, 160, 3), 128, np.uint8)

    def frame(source: float) -> bd._Frame:
        return bd._Frame(1.0, (0.0, 0.0), (160, 90), np.eye(3), source)

    assert bd._gate(image, frame(1.0), [], None, 1.138) is None  # a webcam frame at 0.6 size
    assert bd._gate(image, frame(0.54), [], None, 1.8) is None  # a view sharper than its input
    assert bd._gate(image, frame(1.0), [], None, bd._PIP_PX) is not None  # just enough
    assert bd._gate(image, frame(1.52), [], None, bd._PIP_PX) is not None  # a 1600x900 webcam frame
