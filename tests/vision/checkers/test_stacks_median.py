"""The stacks' disc colours by a network of minima and maxima (its proof: tests/vision/test_selection.py):
the disc colours from a view's packed bytes are those of the float median."""

from __future__ import annotations

import numpy as np
import pytest

from vision.board.geometry import POINT_PX, BoardGeometry
from vision.board.view import FieldView
from vision.checkers.stacks import _disc_colours, _disc_colours_words


def _geometry() -> BoardGeometry:
    w, h = 12 * POINT_PX, 13 * POINT_PX
    cols = tuple((i + 0.5) * POINT_PX for i in range(12))
    corners = ((0.0, 0.0), (float(w), 0.0), (float(w), float(h)), (0.0, float(h)))
    return BoardGeometry(np.eye(3), (w, h), cols, None, (w, h), 1.0, corners)


@pytest.mark.parametrize("seed", [0, 1])
def test_disc_colours_from_words_equal_the_float_median(seed: int) -> None:
    rng = np.random.default_rng(seed)
    geom = _geometry()
    w, h = geom.size
    rect = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    rect[::7] = rect[::7] // 32 * 32  # (ties)
    view = FieldView(rect, geom)
    assert np.array_equal(view.lab, view.lab_bytes.astype(np.float32))
    cols = np.array(geom.columns)
    depth = np.arange(0.0, 50.0, 2.0)
    cases = [(cols[:, None], (rng.random() * 4 + np.arange(0.0, h / 2, 2.0))[None, :]),  # a row's axes
             (cols[None, :, None], np.stack([depth, h - 1 - depth])[:, None]),  # both rows
             (rng.random((12, 30)) * (w + 20) - 10, np.arange(0.0, 60.0, 2.0)[None, :]),  # past the view
             (rng.random(40) * w, rng.random(40) * h)]
    for cx, cy in cases:
        for k in (1, 6, 7):
            got = _disc_colours_words(view.lab_words, cx, cy, k)
            want = _disc_colours(view.lab, cx, cy, k)
            assert got.dtype == want.dtype and np.array_equal(got, want)
