"""The d6 faces among pip-like blobs: which blobs, mirrored through one centre, make a die's top face
(:mod:`vision.dice.on_board` finds the blobs and checks each face; this module only does the geometry).

A face of a d6 is centrally symmetric: its centre is a pip (1, 3, 5) or the midpoint of a diagonal
pair (2, 4, 6). Every pip and every alike pair a diagonal apart is tried as a centre; the pips of one
polarity mirrored through it are taken when they make a d6 layout, seen under mild perspective (an
affine-invariant test). Faces are then taken greedily, best first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from vision.dice.layout import BOARD_LAYOUT, Pip, layout_ok, mirror_pairs

__all__ = ["Face", "face_at", "find_faces"]

# A diagonal pair of pips spans this many die edges (0.78 on the dice seen), within the board
# layout's span (vision.dice.layout.BOARD_LAYOUT) of the edge tried.
_DIAGONAL = 0.78
_SPAN = BOARD_LAYOUT.span
# Two dice's centres are at least this many die edges apart (touching dice: one edge).
_APART_EDGES = 0.95
# A face of this many pips or more is crowded: its pips blur into each other, and when it is refused
# no part of it is read instead (a row of a six is no three).
_CROWDED = 4
# The strongest pip of a face over its weakest at most this (faces of 1-3 pips; crowded faces).
_ALIKE = 1.7
_ALIKE_CROWDED = 2.2
# A one's pip stands alone: no round blob (as round as a one must be) of its polarity at least this
# share of its contrast, in no face taken, within a diagonal of the largest die edge tried (a two
# whose other pip prints a little unlike it would otherwise read as a one; the corner of a die's
# outline or shadow is no round blob).
_ONE_ALONE = 0.5
# Least tolerance (px) of a pip's mirror image through the face centre.
_MIN_TOL = 1.0


@dataclass(frozen=True)
class Face:
    """One d6 top face: ``members`` (indices of its pips; their count is the value), ``centre`` (x, y)
    px, ``score`` (its pips' contrast less that of unexplained blobs on it) and ``edge`` (the die
    edge its pips imply, px)."""

    score: float
    centre: tuple[float, float]
    members: tuple[int, ...]
    edge: float


def face_at(pips: list[Pip], near: list[int], cx: float, cy: float, edge: float) -> Face | None:
    """The d6 face centred at (cx, cy) made of the pips ``near`` (indices, all dark or all light:
    the dark gaps between a dark die's light pips make a symmetric pattern too), or None."""
    return _face_at(pips, [p.x for p in pips], [p.y for p in pips], [p.contrast for p in pips],
                    near, cx, cy, edge)


def _face_at(pips: list[Pip], px: list[float], py: list[float], pc: list[float], near: list[int],
             cx: float, cy: float, edge: float) -> Face | None:
    """:func:`face_at` given the pips' x, y and contrast as lists (made once per frame: the pairing
    below runs for hundreds of centres, and list items are read faster than attributes)."""
    tol = max(0.1 * edge, _MIN_TOL)
    centre, paired = mirror_pairs(px, py, pc, near, cx, cy, tol)
    used = set() if centre is None else {centre}
    for pair in paired:
        used.update(pair)  # (in the pairing's order: the sums below run in the set's order)
    if not used:
        return None
    pairs = [(pips[i], pips[j]) for i, j in paired]
    # (a lone centre pip is a one whatever the layout test's lengths: the test is skipped; the
    # pairs' vectors as plain floats, made arrays by the test only where it needs them)
    vec = [(b.x - a.x, b.y - a.y) for a, b in pairs]
    # (a pair's length: hypot is even in each argument, so either pip's vector gives it)
    lens = [float(np.hypot(dx, dy)) for dx, dy in vec]
    if vec and not layout_ok(vec, centre is not None, edge, BOARD_LAYOUT, lens):
        return None
    contrasts = [pc[i] for i in used]
    top = max(contrasts)
    # pips of one face print alike; those of a crowded face (4-6 close pips) blur into each other
    if min(contrasts) < top / (_ALIKE_CROWDED if len(contrasts) >= _CROWDED else _ALIKE):
        return None
    reach = max([np.hypot(px[i] - cx, py[i] - cy) for i in used] + [0.25 * edge]) + tol
    left = sum(pc[i] for i in near if i not in used
               and (px[i] - cx) ** 2 + (py[i] - cy) ** 2 < reach * reach)
    score = sum(contrasts) - left
    if score <= 0:
        return None
    # the corner pips sit about 0.28 edges from the face's centre along each side, so a diagonal
    # pair spans about 0.78 edges
    own = max(lens) / _DIAGONAL if lens else edge
    own = min(1.25 * edge, max(0.75 * edge, own))
    return Face(float(score), (cx, cy), tuple(sorted(used)), own)


def _not_alone(face: Face, xy: np.ndarray, dark: np.ndarray, contrast: np.ndarray, round_: np.ndarray,
               taken: set[int], reach: float) -> bool:
    """Is there a blob like the one-pip ``face``'s pip (same polarity, ``_ONE_ALONE`` of its
    contrast, as round as ``round_`` of the pip says a one must be), in no face taken, within
    ``reach`` px of it?"""
    i = face.members[0]
    near = (((xy - xy[i]) ** 2).sum(axis=1) < reach * reach) & (dark == dark[i]) & round_
    near &= contrast >= _ONE_ALONE * contrast[i]
    near[i] = False
    if taken:
        near[list(taken)] = False
    return bool(near.any())


def find_faces(pips: list[Pip], edges: tuple[float, ...],
               accept: Callable[[Face], bool] = lambda f: True, one_round: float = 0.0) -> list[Face]:
    """Non-overlapping d6 faces among the pips, best first: greedy, no pip in two faces, no face
    centred on a die already taken (closer than _APART_EDGES of the larger edge); a face that
    ``accept`` refuses takes nothing (the face under it may still be read). Each die edge in
    ``edges`` (px) is tried: the dice's size is known from the checkers only within a factor of two.
    A lone blob less round than ``one_round`` is not tried as a one.

    :param pips: the blobs, strongest first (:func:`vision.dice.on_board.board_pips`).
    :returns: the faces taken, each with its pips' indices, centre (px), score and implied edge."""
    n = len(pips)
    if n == 0:
        return []
    xy = np.array([[p.x, p.y] for p in pips])
    d2 = ((xy[:, None, :] - xy[None, :, :]) ** 2).sum(axis=2)
    dark = np.array([p.dark for p in pips])
    contrast = np.array([p.contrast for p in pips])
    pip_round = np.array([p.roundness >= one_round for p in pips], bool)
    px, py, pc = xy[:, 0].tolist(), xy[:, 1].tolist(), contrast.tolist()
    round_ = [p.roundness for p in pips]
    # pairs that may be a face's diagonal: same polarity, alike, a diagonal's length apart (every
    # even face has one through its centre; odd faces are centred on a pip)
    strong, weak = np.maximum.outer(contrast, contrast), np.minimum.outer(contrast, contrast)
    alike = (dark[:, None] == dark[None, :]) & (strong <= _ALIKE_CROWDED * weak)
    pip_keys = [(kx, ky) for kx, ky in np.rint(2 * xy).astype(np.int64).tolist()]
    hyps: dict[tuple[int, ...], Face] = {}
    for edge in edges:
        reach2 = (0.65 * edge) ** 2
        # (keys on a half-pixel grid, rounded half to even as round() does; each pip's centre
        # first, then the pairs' midpoints in row-major order, a midpoint not replacing a centre)
        centres: dict[tuple[int, int], tuple[float, float, bool]] = {}
        for key, p in zip(pip_keys, pips, strict=True):
            centres[key] = (p.x, p.y, p.dark)
        span = alike & (d2 <= (_SPAN[1] * edge) ** 2) & (d2 >= (_SPAN[0] * edge) ** 2)
        ii, jj = np.nonzero(np.triu(span, 1))
        mid = (xy[ii] + xy[jj]) / 2
        mid_keys = np.rint(2 * mid).astype(np.int64).tolist()
        for (kx, ky), (mx, my), polarity in zip(mid_keys, mid.tolist(), dark[ii].tolist(), strict=True):
            centres.setdefault((kx, ky), (mx, my, polarity))
        # every centre's pips within reach at once (the same sums as one centre at a time)
        at = list(centres.values())
        cxy = np.array([(cx, cy) for cx, cy, _ in at])
        pol = np.array([polarity for _, _, polarity in at])
        dx, dy = xy[None, :, 0] - cxy[:, :1], xy[None, :, 1] - cxy[:, 1:]
        within = (dx * dx + dy * dy <= reach2) & (dark[None, :] == pol[:, None])
        rows, cols = np.nonzero(within)  # row-major: each centre's pips in index order
        ends = np.searchsorted(rows, np.arange(1, len(at) + 1)).tolist()
        cols_ = cols.tolist()
        start = 0
        for (cx, cy, _), end in zip(at, ends, strict=True):
            near, start = cols_[start:end], end
            if not near:
                continue  # face_at finds nothing in no pips
            if len(near) == 1 and round_[near[0]] < one_round:
                continue  # a lone blob too elongated to be a one
            f = _face_at(pips, px, py, pc, near, cx, cy, edge)
            if f is not None and (f.members not in hyps or hyps[f.members].score < f.score):
                hyps[f.members] = f
    out: list[Face] = []
    taken: set[int] = set()
    refused: list[set[int]] = []
    for f in sorted(hyps.values(), key=lambda f: (-f.score, -len(f.members))):
        if taken.intersection(f.members):
            continue
        if any((f.centre[0] - g.centre[0]) ** 2 + (f.centre[1] - g.centre[1]) ** 2
               < (_APART_EDGES * max(f.edge, g.edge)) ** 2 for g in out):
            continue
        if any(len(r.intersection(f.members)) >= 2 for r in refused):
            continue  # two pips of a face already refused: a row of a six is no three, nor a
            # column of it with a blob beside (a six with a pip lost in the dark)
        if len(f.members) == 1 and _not_alone(f, xy, dark, contrast, pip_round, taken,
                                              _SPAN[1] * max(edges)):
            continue  # a pip with a like blob a diagonal away: a two (or three) half seen, no one
        if not accept(f):
            if len(f.members) >= _CROWDED:
                refused.append(set(f.members))
            continue
        out.append(f)
        taken.update(f.members)
    return out
