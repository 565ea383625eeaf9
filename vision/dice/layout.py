"""What both dice readers share: the pip, the pairing of pips through a face's centre and the d6
layout test (:mod:`vision.dice.faces` reads one die's crop in a photo, :mod:`vision.dice.board_faces`
every die on a board's rectified field).

A face of a d6 is centrally symmetric: its centre is a pip (1, 3, 5) or the midpoint of a diagonal
pair (2, 4, 6). :func:`mirror_pairs` keeps the pips whose mirror image through a tried centre is a
pip too; :func:`layout_ok` tells whether those pairs make a d6 layout under mild perspective (an
affine-invariant test, lengths in die edges).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["BOARD_LAYOUT", "PHOTO_LAYOUT", "LayoutLimits", "Pip", "layout_ok", "mirror_pairs"]


@dataclass(frozen=True)
class Pip:
    """A pip-like blob: centre (x, y) px, ``contrast`` (scale-normalised blob strength), ``dark``
    (darker than around it), ``roundness`` (the Hessian's eigenvalue ratio, 0-1: 1 for a round dot,
    low for the end of a line or a triangle's tip), the smoothed Lab ``colour`` there and ``sigma``,
    the blob scale (px) that found it (a pip's radius is about 1.4 sigma). The photo reader's blobs
    are polarity-blind and taken as round."""

    x: float
    y: float
    contrast: float
    dark: bool = False
    roundness: float = 1.0
    colour: tuple[float, float, float] = (0.0, 0.0, 0.0)
    sigma: float = 1.0


@dataclass(frozen=True)
class LayoutLimits:
    """The layout test's tolerances, lengths in die edges: a diagonal pair spans ``span`` (lo, hi);
    two diagonals differ in length at most ``ratio`` times (``ratio_six`` for a six's two, where
    ``middle_span`` says whether its middle pair must span ``span`` too) and their cosine is below
    ``cos_max``; a six's middle pair lies within ``middle_tol`` of (d1 +- d2) / 2."""

    span: tuple[float, float]
    ratio: float
    ratio_six: float
    cos_max: float
    middle_span: bool
    middle_tol: float = 0.12


# The photo reader sees one die's crop whose edge is estimated from its outline (to a factor of
# about two on marbled, translucent or cocked dice): loose lengths; its face is the best layout of
# up to ten blobs on that die, so loose shape limits cost little.
PHOTO_LAYOUT = LayoutLimits(span=(0.25, 1.1), ratio=1.8, ratio_six=np.inf, cos_max=0.75, middle_span=True)
# The board reader tries every blob of a whole field (printing, grain, a logo's letters) at a few
# die edges known from the checkers: a diagonal spans 0.78 edges on the dice seen, and the shapes
# are held tight, since a face found among the field's blobs is taken unless its checks refuse it.
BOARD_LAYOUT = LayoutLimits(span=(0.55, 0.95), ratio=1.4, ratio_six=1.4, cos_max=0.55, middle_span=False)


def layout_ok(vec: Sequence[np.ndarray | tuple[float, float]], centre: bool, edge: float,
              limits: LayoutLimits, lens: Sequence[float] | None = None) -> bool:
    """Do pip pairs mirrored through one centre (``vec``: each pair's vector from one pip to the
    other, an array or an (x, y) pair) and a centre pip (``centre``) form a d6 face of edge ``edge`` px?
    ``lens``: the vectors' lengths (``np.hypot``), when the caller has them.

    Affine invariant up to mild perspective: 2/3 = one diagonal; 4/5 = two diagonals of about equal
    length, far from parallel; 6 = two such diagonals d1, d2 and a middle pair (d1 +- d2) / 2.
    """
    n = 2 * len(vec) + int(centre)
    if n == 0 or n > 6 or (n == 6 and centre):
        return False
    lo, hi = limits.span[0] * edge, limits.span[1] * edge
    lens = [float(np.hypot(v[0], v[1])) for v in vec] if lens is None else list(lens)
    # (as arrays where the pairs' products and sums are taken)
    arr = [np.asarray(v, np.float64) for v in vec] if len(vec) >= 2 else []
    if len(vec) == 3 and not limits.middle_span:
        pass  # each pair is tried as the middle below, the other two as the diagonals
    elif any(v < lo or v > hi for v in lens):
        return False
    if len(vec) == 2:
        short, long = min(lens), max(lens)
        if short < lo or long > hi or long > limits.ratio * short:
            return False
        return abs(float(arr[0] @ arr[1])) / (lens[0] * lens[1]) < limits.cos_max
    if len(vec) == 3:
        tol = limits.middle_tol * edge
        for k in range(3):
            mid, d1, d2 = arr[k], arr[(k + 1) % 3], arr[(k + 2) % 3]
            l1, l2 = lens[(k + 1) % 3], lens[(k + 2) % 3]
            short, long = min(l1, l2), max(l1, l2)
            if short < lo or long > hi or long > limits.ratio_six * short:
                continue
            if abs(float(d1 @ d2)) / (l1 * l2) > limits.cos_max:
                continue
            for cand in ((d1 + d2) / 2, (d1 - d2) / 2):
                if min(np.hypot(*(mid - cand)), np.hypot(*(mid + cand))) <= tol:
                    return True
        return False
    return True


def mirror_pairs(px: Sequence[float], py: Sequence[float], pc: Sequence[float], near: Sequence[int],
                 cx: float, cy: float, tol: float) -> tuple[int | None, list[tuple[int, int]]]:
    """The pips of ``near`` (indices into ``px``, ``py``, ``pc``: x, y, contrast) that a face centred
    at (cx, cy) explains: its centre pip (the strongest within ``tol`` px of the centre, or None)
    and the pairs mirrored through the centre, within ``tol``, taken greedily in ``near``'s order
    (each pip's nearest free mirror partner; the last of equally near ones). Plain lists: this runs
    for hundreds of centres per frame, and list items are read faster than attributes or arrays."""
    tol2 = tol * tol
    centre = None
    for i in near:
        if (px[i] - cx) ** 2 + (py[i] - cy) ** 2 > tol2:
            continue
        if centre is None or pc[i] > pc[centre]:
            centre = i
    used = set() if centre is None else {centre}
    paired: list[tuple[int, int]] = []
    for i in near:
        if i in used:
            continue
        mx, my = 2 * cx - px[i], 2 * cy - py[i]
        best, best_d = -1, tol2
        for j in near:
            if j in used or j == i:
                continue
            d = (px[j] - mx) ** 2 + (py[j] - my) ** 2
            if d <= best_d:
                best, best_d = j, d
        if best >= 0:
            used.update((i, best))
            paired.append((i, best))
    return centre, paired
