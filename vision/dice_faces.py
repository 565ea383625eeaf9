"""Read one die: find its pips, keep those of the top face, count them.

Input is a small crop around one die (CIE-Lab, OpenCV 8-bit scaling), the die's mask and the die edge
in pixels. Pips are small round blobs whose colour differs from the face around them; the face colour
at each pixel is a median over a window about two pips wide, so pips of any colour on any body are
found (white on red, black on white, red on black, yellow on green...).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["FaceRead", "Pip", "find_pips", "read_face"]

# Pip diameter / die edge on common d6 dice is 0.15-0.22; a pip area in die-edge² units:
_PIP_AREA = np.pi * (0.09**2)
# Minimum Lab distance between a pip and the face around it.
_PIP_DELTA = 28.0


@dataclass(frozen=True)
class Pip:
    """A pip blob: centre (x, y) in crop pixels, area in px², elongation (major/minor axis >= 1)."""

    x: float
    y: float
    area: float
    elongation: float
    contrast: float


@dataclass(frozen=True)
class FaceRead:
    """The top face of one die: ``value`` 1-6, ``centre`` (x, y) in crop pixels, cocked, confidence."""

    value: int
    centre: tuple[float, float]
    cocked: bool
    confidence: float
    pips: tuple[Pip, ...] = ()


def _odd(v: float, lo: int = 3) -> int:
    k = max(lo, int(round(v)))
    return k if k % 2 else k + 1


def _pipness(lab: np.ndarray, inside: np.ndarray, size: float) -> np.ndarray:
    """Lab distance of each pixel from the face colour around it (median over ~0.45 die edges)."""
    body = np.median(lab[inside], axis=0).astype(np.uint8)
    filled = lab.copy()
    filled[~inside] = body
    local = cv2.medianBlur(filled, min(_odd(size * 0.45), 255))
    d = filled.astype(np.float32) - local.astype(np.float32)
    dist = np.sqrt((d * d).sum(axis=2))
    dist[~inside] = 0
    return dist


def find_pips(lab: np.ndarray, mask: np.ndarray, size: float) -> list[Pip]:
    """Pip-like blobs inside a die mask.

    Peaks of the smoothed pipness map (colour distance to the local face colour) are pip centres; each
    pip's extent is the pixels around its peak above half the peak's height (so touching pips and the
    die's rim stay apart and faint pips are measured as well as strong ones).

    :param lab: hxwx3 uint8 Lab crop; :param mask: hxw uint8 (255 = die); :param size: die edge, px.
    :returns: pips whose centres lie at least 0.1 die edges inside the mask, area 0.25-3x a nominal
        pip's, elongation below 3.
    """
    inside = mask > 0
    if inside.sum() < 9:
        return []
    dist = _pipness(lab, inside, size)
    sig = max(0.6, 0.04 * size)
    g = cv2.GaussianBlur(dist, (0, 0), sig)
    dt = cv2.distanceTransform(np.pad(mask, 1), cv2.DIST_L2, 3)[1:-1, 1:-1]
    nb = _odd(size * 0.16)
    peaks = (g >= cv2.dilate(g, np.ones((nb, nb), np.uint8))) & (g > _PIP_DELTA * 0.6) & (dt >= 0.1 * size)
    ys, xs = np.nonzero(peaks)
    if len(xs) == 0:
        return []
    order = np.argsort(-g[ys, xs])
    pip_area = _PIP_AREA * size * size
    rad = max(2, int(round(0.18 * size)))
    h, w = dist.shape
    pips: list[Pip] = []
    taken = np.zeros_like(inside)
    for j in order[:20]:
        y, x = int(ys[j]), int(xs[j])
        if taken[y, x]:
            continue
        y0, y1, x0, x1 = max(0, y - rad), min(h, y + rad + 1), max(0, x - rad), min(w, x + rad + 1)
        win = dist[y0:y1, x0:x1]
        peak = float(win.max())
        if peak < _PIP_DELTA:
            continue
        blob = (win > 0.5 * peak).astype(np.uint8)
        n, labels = cv2.connectedComponents(blob, connectivity=8)
        lab_id = labels[y - y0, x - x0]
        if lab_id == 0:
            # the smoothed peak can sit between pixels of the blob: take the nearest strong pixel
            cand = np.argwhere(labels > 0)
            if len(cand) == 0:
                continue
            k = np.argmin(((cand - [y - y0, x - x0]) ** 2).sum(axis=1))
            lab_id = labels[cand[k][0], cand[k][1]]
        comp = labels == lab_id
        by, bx = np.nonzero(comp)
        area = float(len(bx))
        if area < 0.25 * pip_area or area > 3.0 * pip_area:
            continue
        # a blob cut by the search window is a rim or a streak, not a pip
        if by.min() == 0 or bx.min() == 0 or by.max() == win.shape[0] - 1 or bx.max() == win.shape[1] - 1:
            continue
        if len(bx) >= 3:
            ev = np.linalg.eigvalsh(np.cov(np.stack([bx, by]).astype(np.float64)))
            elong = float(np.sqrt(max(ev[1], 1e-6) / max(ev[0], 1e-6)))
        else:
            elong = 1.0
        if elong > 3.0:
            continue
        taken[y0:y1, x0:x1] |= comp
        pips.append(Pip(float(bx.mean() + x0), float(by.mean() + y0), area, elong, peak))
    return pips


def read_face(lab: np.ndarray, mask: np.ndarray, size: float) -> FaceRead | None:
    """Read the top face of one die, or None when no pip is found.

    :param lab: hxwx3 uint8 Lab crop around the die; :param mask: hxw uint8 (255 = die);
    :param size: die edge in pixels.
    """
    pips = find_pips(lab, mask, size)
    if not pips:
        return None
    m = cv2.moments(mask, binaryImage=True)
    if m["m00"] <= 0:
        return None
    centre = (m["m10"] / m["m00"], m["m01"] / m["m00"])
    value = min(6, len(pips))
    return FaceRead(value, centre, False, 0.5, tuple(pips))
