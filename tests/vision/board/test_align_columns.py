"""The columns of a board with a bar are put on its triangles' axes (`vision.board.finder`,
through :func:`geometry_from_corners`), also where the triangles are long enough to fill most of
the bands near their tips, so that the bands' own median colour is the points', not the field's,
and where the light falls off across the board, so that no one colour is the field's everywhere."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.board.finder import geometry_from_corners

_FIELD = (50, 50, 950, 550)  # x0, y0, x1, y1 of the drawn field
_BAR = 0.06  # the bar's share of the field's width


def _board(tip_depth: float, stacks: int) -> tuple[np.ndarray, list[float]]:
    """A drawn board: a tan field in a black frame, a black bar, 24 triangles alternating dark brown
    and olive whose tips reach ``tip_depth`` of the field's height, five black checkers on every
    ``stacks``-th point (0: none); and the triangles' axes (x)."""
    x0, y0, x1, y1 = _FIELD
    img = np.full((600, 1000, 3), 20, np.uint8)
    img[y0:y1, x0:x1] = (150, 190, 210)
    width = x1 - x0
    bar_w = _BAR * width
    pw = (width - bar_w) / 12
    half = 6 * pw
    img[y0:y1, int(round(x0 + half)) : int(round(x0 + half + bar_w))] = 20
    axes = []
    depth = tip_depth * (y1 - y0)
    for col in range(12):
        left = x0 + col * pw + (bar_w if col >= 6 else 0.0)
        axes.append(left + 0.5 * pw)
        for top in (True, False):
            base = y0 if top else y1
            tip = base + depth if top else base - depth
            colour = (30, 30, 70) if (col + top) % 2 else (40, 90, 90)
            tri = np.array([[left, base], [left + pw, base], [left + 0.5 * pw, tip]], np.float32)
            cv2.fillPoly(img, [np.round(tri * 16).astype(np.int32)], colour, cv2.LINE_AA, shift=4)
            if stacks and (col + 12 * top) % stacks == 0:
                for k in range(5):
                    y = base + (k + 0.5) * 0.9 * pw * (1 if top else -1)
                    cv2.circle(img, (round(left + 0.5 * pw), round(y)), round(0.45 * pw), (25, 25, 25), -1)
    return img, axes


@pytest.mark.parametrize(("tip_depth", "stacks", "light"),
                         [(0.36, 0, 1.0), (0.46, 0, 1.0), (0.46, 2, 1.0), (0.36, 2, 0.5), (0.46, 2, 2.0)])
def test_the_columns_lie_on_the_triangles_axes(tip_depth: float, stacks: int, light: float) -> None:
    """Short triangles and long ones (tips near the field's middle), bare or with dark stacks on
    every second point, evenly lit or with the light falling off (``light``: the right edge's
    brightness over the left's): every column within a tenth of a point of its triangle's axis."""
    img, axes = _board(tip_depth, stacks)
    gain = np.linspace(1.0, light, img.shape[1]) / max(1.0, light) * 1.2
    img = np.clip(img * gain[None, :, None], 0, 255).astype(np.uint8)
    x0, y0, x1, y1 = _FIELD
    geom = geometry_from_corners(img, np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]), _BAR)
    assert geom.bar is not None
    mid_y = 0.5 * geom.size[1]
    image_x = geom.to_image(np.array([[c, mid_y] for c in geom.columns]))[:, 0]
    pw = (x1 - x0) * (1 - _BAR) / 12
    assert np.abs(image_x - np.array(axes)).max() < 0.1 * pw
