"""The field finder (`vision.board`): a long side drawn tilted by a cut corner is put back on the
points' bases; a column of five is no pile (issue 4: "perspective rims", "stacks of any height")."""

from __future__ import annotations

import cv2
import numpy as np

from vision.board import _straighten_sides, find_board
from vision.render import Camera, render, starting_spec


def _work_lab(image: np.ndarray) -> tuple[np.ndarray, float]:
    h, w = image.shape[:2]
    scale = 480 / max(h, w)
    work = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(work, cv2.COLOR_BGR2LAB), work.shape[1] / w


def test_a_side_tilted_by_a_cut_corner_is_put_on_the_bases() -> None:
    r = render(starting_spec("wood"), size=(960, 540), view="rectified", camera=Camera(), seed=1)
    geom = find_board(r.image)
    assert geom is not None and geom.bar is not None
    lab, scale = _work_lab(r.image)
    quad = np.float32(geom.corners) * scale
    gap = (geom.bar[1] - geom.bar[0]) / geom.size[0]
    tilted = quad.copy()
    height = float(np.linalg.norm(quad[3] - quad[0]))
    tilted[0] += (quad[3] - quad[0]) / height * 0.06 * height  # top-left corner pulled down
    fixed = _straighten_sides(lab, tilted, gap)
    assert np.abs(fixed - quad).max() < 0.015 * height, (fixed, quad)


def test_a_side_on_its_bases_is_left_alone() -> None:
    r = render(starting_spec("paper"), size=(960, 540), view="rectified", camera=Camera(), seed=2)
    geom = find_board(r.image)
    assert geom is not None
    lab, scale = _work_lab(r.image)
    quad = np.float32(geom.corners) * scale
    gap = 0.0 if geom.bar is None else (geom.bar[1] - geom.bar[0]) / geom.size[0]
    assert np.abs(_straighten_sides(lab, quad, gap) - quad).max() < 1.0
