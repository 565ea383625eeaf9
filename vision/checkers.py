"""Count the checkers on each point of a rectified board, and name their two colours.

Input is the rectified field of :mod:`vision.board` (points ``POINT_PX`` wide, long side horizontal).
No colour is hard-coded; everything is learned from the board in the frame:

1. **Empty-point model.** Points of the same row and the same parity carry triangles of the same colour,
   and on most of them most of the length is bare. The per-pixel median of those six strips is the
   bare point; a checker is where a strip differs from it (CIE-Lab distance).
2. **Stacks.** Checkers stack from the point's base toward the middle of the board. Each strip's
   covered fraction, row by row, gives a run starting at the base; its length divided by the checker
   diameter is the count -- for stacks of any height (a stack longer than the triangle simply runs
   on toward the middle).
3. **Colours.** The colour of each stack is read at its checkers' centres; the stacks' colours are
   split into two clusters (k-means, k=2) and named ``light``/``dark`` by lightness.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.board import POINT_PX, BoardGeometry
from vision.reading import DARK, LIGHT

__all__ = ["StackReading", "count_stacks"]

# A pixel differs from the bare point when its Lab distance exceeds this (8-bit Lab units).
_DIFF = 28.0
# Checker diameter as a fraction of the point width (boards make checkers nearly as wide as a point).
_CHECKER_D = 0.95
# Two stack colours closer than this (Lab) are one colour.
_SAME_COLOUR = 30.0


@dataclass(frozen=True)
class StackReading:
    """One point's stack: ``count`` checkers, their Lab colour (float (3,)) or None, a confidence."""

    column: int
    top: bool
    count: int
    colour_lab: tuple[float, float, float] | None
    confidence: float


def _strips(lab: np.ndarray, geom: BoardGeometry, top: bool) -> np.ndarray:
    """Half-height strips of every column, base first: float32 (12, H/2, POINT_PX, 3)."""
    h = lab.shape[0]
    half_h = h // 2
    out = []
    for x in geom.columns:
        x0 = int(round(x - POINT_PX / 2))
        strip = lab[:half_h, x0 : x0 + POINT_PX] if top else lab[h - half_h :, x0 : x0 + POINT_PX][::-1]
        if strip.shape[1] < POINT_PX:
            strip = np.pad(strip, ((0, 0), (0, POINT_PX - strip.shape[1]), (0, 0)), mode="edge")
        out.append(strip)
    return np.stack(out).astype(np.float32)


def _run_length(cover: np.ndarray, gap: int, start_tol: int) -> int:
    """Length of the covered run starting within ``start_tol`` of the base, bridging ``gap`` rows."""
    idx = np.flatnonzero(cover)
    if idx.size == 0 or idx[0] > start_tol:
        return 0
    end = idx[0]
    for i in idx[1:]:
        if i - end > gap:
            break
        end = i
    return int(end + 1)


def count_stacks(rectified: np.ndarray, geom: BoardGeometry) -> list[StackReading]:
    """Stacks on all 24 points of a rectified BGR uint8 field; 12 top then 12 bottom, left to right.

    Colours are Lab means; :func:`name_colours` turns them into ``light``/``dark``.
    """
    lab = cv2.cvtColor(cv2.GaussianBlur(rectified, (3, 3), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    d = _CHECKER_D * POINT_PX
    out: list[StackReading] = []
    for top in (True, False):
        strips = _strips(lab, geom, top)
        templ = np.empty_like(strips)
        for parity in (0, 1):
            templ[parity::2] = np.median(strips[parity::2], axis=0)
        diff = np.linalg.norm(strips - templ, axis=3)  # (12, H/2, P)
        core = diff[:, :, POINT_PX // 5 : POINT_PX - POINT_PX // 5]
        frac = (core > _DIFF).mean(axis=2)  # (12, H/2)
        frac = cv2.blur(frac.astype(np.float32), (1, 5))
        for col in range(12):
            cover = frac[col] > 0.35
            run = _run_length(cover, gap=int(0.3 * d), start_tol=int(0.5 * d))
            count = int(round(run / d)) if run > 0.5 * d else 0
            colour = None
            conf = 1.0
            if count:
                ys = [int((k + 0.5) * run / count) for k in range(count)]
                c = POINT_PX // 2
                samples = [strips[col, max(0, y - 3) : y + 4, c - 3 : c + 4].reshape(-1, 3) for y in ys]
                colour = tuple(float(v) for v in np.median(np.concatenate(samples), axis=0))
                conf = float(1.0 - 2 * abs(run / d - round(run / d)))
            out.append(StackReading(col, top, count, colour, max(0.0, min(1.0, conf))))
    return out


def name_colours(stacks: list[StackReading]) -> list[str | None]:
    """``light``/``dark`` for each stack (None when empty), by 2-means on the stacks' Lab colours."""
    cols = np.array([s.colour_lab for s in stacks if s.colour_lab is not None], dtype=np.float32)
    names: list[str | None] = [None] * len(stacks)
    if cols.size == 0:
        return names
    if len(cols) == 1:
        centres = np.stack([cols[0], cols[0]])
    else:
        crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
        _, _, centres = cv2.kmeans(cols, 2, None, crit, 3, cv2.KMEANS_PP_CENTERS)
    if np.linalg.norm(centres[0] - centres[1]) < _SAME_COLOUR:
        one = LIGHT if float(centres.mean(axis=0)[0]) >= 128 else DARK
        return [one if s.colour_lab is not None else None for s in stacks]
    light = int(np.argmax(centres[:, 0]))
    for i, s in enumerate(stacks):
        if s.colour_lab is None:
            continue
        dist = np.linalg.norm(centres - np.array(s.colour_lab, dtype=np.float32), axis=1)
        names[i] = LIGHT if int(np.argmin(dist)) == light else DARK
    return names
