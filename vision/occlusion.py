"""Is something (a hand, an arm, a cup) over the playing area? Say so rather than guess.

The board explains itself: points of the same row and parity carry identical triangles, so the
per-pixel median of those six strips is the bare board there (most of each strip is bare). Whatever
differs from that model and is not one of the checkers the stack counter found (or a die, much
smaller than a checker) is something else over the board. A region of that kind larger than
``_FOREIGN_CHECKERS`` checker areas -- a hand is several checkers large -- makes the frame occluded.
No skin colour is assumed: a sleeve, a cup or a shadow of a hand counts as well.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.board import POINT_PX, BoardGeometry
from vision.checkers import StackReading

__all__ = ["find_occlusion", "foreign_mask"]

# Lab distance from the bare-board model above which a pixel is not bare board.
_DIFF = 30.0
# A foreign region this many checker areas large (or more) is an occlusion.
_FOREIGN_CHECKERS = 1.6


def _bare_model(lab: np.ndarray, geom: BoardGeometry) -> tuple[np.ndarray, np.ndarray]:
    """Per-pixel bare-board model of the points' strips, and a mask of where it is defined.

    A point and the one opposite it carry the two triangle colours, so a row's points of one parity
    look like the other row's points of the other parity seen from their own base: the model of a
    strip is the median of twelve strips (six a row, the other row's turned end over end), bare
    where a row's points of one parity are mostly covered by checkers.
    """
    h, w = lab.shape[:2]
    model = np.zeros_like(lab)
    defined = np.zeros((h, w), np.uint8)
    half_h = h // 2

    def strips(top: bool, parity: int) -> tuple[list[np.ndarray], list[int]]:
        ys = slice(0, half_h) if top else slice(h - half_h, h)
        out, xs = [], []
        for x in geom.columns[parity::2]:
            x0 = int(round(x - POINT_PX / 2))
            if x0 < 0 or x0 + POINT_PX > w:
                continue
            strip = lab[ys, x0 : x0 + POINT_PX]
            out.append(strip if top else strip[::-1])  # base first
            xs.append(x0)
        return out, xs

    for top in (True, False):
        ys = slice(0, half_h) if top else slice(h - half_h, h)
        for parity in (0, 1):
            own, xs = strips(top, parity)
            other, _ = strips(not top, 1 - parity)
            if len(own) + len(other) < 3 or not xs:
                continue
            med = np.median(np.stack(own + other), axis=0)
            if not top:
                med = med[::-1]
            for x0 in xs:
                model[ys, x0 : x0 + POINT_PX] = med
                defined[ys, x0 : x0 + POINT_PX] = 255
    return model, defined


def foreign_mask(rectified: np.ndarray, geom: BoardGeometry, stacks: list[StackReading],
                 radius: float) -> np.ndarray:
    """uint8 mask (rectified H, W): 255 where the field shows neither bare board nor a found checker."""
    lab = cv2.cvtColor(cv2.GaussianBlur(rectified, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    model, defined = _bare_model(lab, geom)
    diff = np.linalg.norm(lab - model, axis=2) > _DIFF
    mask = (diff & (defined > 0)).astype(np.uint8) * 255
    for s in stacks:
        for x, y in s.centres:
            cv2.circle(mask, (int(round(x)), int(round(y))), int(round(radius * 1.25)), 0, -1)
        if s.count > len(s.centres) and s.centres:
            # checkers counted by their colour run: clear the run along the stack's axis
            x0, y0 = s.centres[0]
            d = 2 * radius
            y1 = y0 + (s.count - 1) * d if s.top else y0 - (s.count - 1) * d
            cv2.rectangle(mask, (int(x0 - 1.25 * radius), int(min(y0, y1) - 1.25 * radius)),
                          (int(x0 + 1.25 * radius), int(max(y0, y1) + 1.25 * radius)), 0, -1)
    # thin lines of a printed board and a checker's anti-aliased rim are not a hand
    k = max(3, int(0.2 * POINT_PX) | 1)
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))


def find_occlusion(rectified: np.ndarray, geom: BoardGeometry, stacks: list[StackReading],
                   radius: float) -> bool:
    """True when something other than checkers and dice covers part of the rectified field.

    :param rectified: BGR uint8 field of ``geom.size``; ``stacks``: the counter's stacks;
        ``radius``: checker radius in rectified pixels.
    """
    mask = foreign_mask(rectified, geom, stacks, radius)
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    checker_area = np.pi * radius * radius
    return any(stats[i, cv2.CC_STAT_AREA] >= _FOREIGN_CHECKERS * checker_area for i in range(1, n))
