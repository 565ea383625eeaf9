"""The frame's shared field view: made once, and reading through it is reading the plain field."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from tests.vision.checkers.test_stacks import _board, _geometry
from vision.board.exposure import normalise_exposure
from vision.board.view import FieldView, colour_gradient
from vision.checkers.occlusion import foreign_mask
from vision.checkers.stacks import count_stacks, find_bar_checkers, ring_scores
from vision.reading import DARK, LIGHT


def test_each_derived_image_is_made_once() -> None:
    view = FieldView(_board({}), _geometry())
    assert view.lab is view.lab
    assert view.gradients is view.gradients
    assert view.exposed is view.exposed


def test_a_view_of_a_frame_is_its_rectified_field() -> None:
    geom = _geometry()
    img = _board({(2, True): (LIGHT, 3)})
    view = FieldView.of_frame(img, geom)
    assert view.image is img
    assert np.array_equal(view.rect, geom.rectify(img))
    assert FieldView.of(view, geom) is view


def test_a_dim_field_is_brightened_as_the_readers_did_it_themselves() -> None:
    dim = (_board({(4, False): (DARK, 2)}) // 3).astype(np.uint8)
    assert np.array_equal(FieldView(dim, _geometry()).exposed, normalise_exposure(dim))


def test_stages_read_the_view_as_they_read_the_array() -> None:
    geom = _geometry()
    img = _board({(1, True): (LIGHT, 4), (6, True): (DARK, 2), (3, False): (DARK, 5),
                  (10, False): (LIGHT, 1)})
    view = FieldView(img, geom)
    stacks = count_stacks(img, geom)
    assert count_stacks(view, geom) == stacks
    radius = stacks[0].radius
    assert np.array_equal(foreign_mask(view, geom, stacks, radius), foreign_mask(img, geom, stacks, radius))


def test_the_bar_reads_the_view_as_it_reads_the_array() -> None:
    geom = dataclasses.replace(_geometry(), bar=(176.0, 208.0))
    img = _board({(1, True): (LIGHT, 2), (3, False): (DARK, 3)})
    cv2.circle(img, (192, 120), 14, (30, 30, 30), -1, lineType=cv2.LINE_AA)  # a hit dark checker
    cv2.circle(img, (192, 120), 14, (170, 170, 170), 2, lineType=cv2.LINE_AA)
    stacks = count_stacks(img, geom)
    radius = stacks[0].radius
    on_bar = find_bar_checkers(img, geom, radius, stacks)
    assert on_bar  # the test reads something
    assert find_bar_checkers(FieldView(img, geom), geom, radius, stacks) == on_bar


def test_ring_scores_on_a_broadcast_grid_equal_the_full_grid() -> None:
    view = FieldView(_board({(5, True): (LIGHT, 3)}), _geometry())
    gx, gy = view.gradients
    cx = np.arange(10.0, 380.0, 32.0)[:, None, None] + np.arange(-8.0, 8.5, 4.0)[None, None, :]
    cy = np.arange(0.0, 200.0, 2.0)[None, :, None]
    full = np.broadcast_to(cx, (cx.shape[0], cy.shape[1], cx.shape[2]))
    grid = ring_scores(gx, gy, cx, cy, 14.0)
    assert grid.shape == full.shape
    assert np.array_equal(grid, ring_scores(gx, gy, full, np.broadcast_to(cy, full.shape), 14.0))


def test_gradients_in_bands_are_the_whole_fields() -> None:
    """A view made for part of the field (the incremental reader's) gives the colour gradient in its
    bands exactly as the whole field's view does, and 0 outside them; bands at the field's ends too."""
    import numpy as np

    from vision.board.view import FieldView
    from vision.render.scene import random_spec, render

    img = render(random_spec(1, style="wood"), size=(640, 360), view="rectified", seed=1).image
    from vision.board.finder import find_board

    geom = find_board(img)
    assert geom is not None
    whole = FieldView.of_frame(img, geom).gradients
    width = geom.size[0]
    bands = [(-5.0, 20.3), (60.0, 90.0), (80.5, 120.0), (width - 30.0, width + 4.0)]
    part = FieldView.of_frame(img, geom, bands).gradients
    inside = np.zeros(width, bool)
    for a, b in ((0, 22), (60, 121), (width - 30, width)):
        inside[a:b] = True
    for w, p in zip(whole, part, strict=True):
        assert np.array_equal(w[:, inside], p[:, inside])
        assert not p[:, ~inside].any()


def test_colour_gradient_keeps_its_results_past_the_next_call() -> None:
    """colour_gradient works in scratch planes, but what it returns is its own: a second frame's
    gradient leaves the first's as it was (and each equals a fresh call's, bit for bit)."""
    from vision.board.view import colour_gradient

    first = FieldView(_board({(2, True): (LIGHT, 3)}), _geometry()).lab
    second = FieldView(_board({(7, False): (DARK, 4)}), _geometry()).lab
    gx, gy = colour_gradient(first)
    kept = gx.copy(), gy.copy()
    other = colour_gradient(second)
    assert np.array_equal(gx, kept[0]) and np.array_equal(gy, kept[1])
    assert not np.array_equal(other[0], gx)
    again = colour_gradient(first)
    assert gx.tobytes() == again[0].tobytes() and gy.tobytes() == again[1].tobytes()
    assert np.shares_memory(again[0], gx) is False and np.shares_memory(again[1], gy) is False


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_gradient_from_the_labs_bytes_is_the_floats_bit_for_bit(seed: int) -> None:
    """The view's gradient, its Sobel taken on the Lab bytes, equals the gradient of the float Lab
    in every bit (signs of zero included: a zero's sign turns the gradient's angle)."""
    rng = np.random.default_rng(seed)
    img = _board({(3, True): (LIGHT, 2), (8, False): (DARK, 4)})
    if seed:
        img = rng.integers(0, 256, img.shape, np.uint8)
    img[:40] = img[0, 0]  # (flat rows: zero gradients)
    geom = _geometry()
    view = FieldView(img, geom)
    assert np.array_equal(view.lab, view.lab_bytes.astype(np.float32))
    for got, want in zip(view.gradients, colour_gradient(view.lab), strict=True):
        assert np.array_equal(got.view(np.uint32), want.view(np.uint32))
