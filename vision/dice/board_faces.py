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
from typing import Any, NamedTuple

import numpy as np

from vision.dice.layout import BOARD_LAYOUT, Pip, layout_ok, mirror_pairs

__all__ = ["Face", "face_at", "face_hypotheses", "find_faces", "take_faces"]

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
# Up to this many candidate centres are tried one at a time (the arrays' passes cost more there).
_FEW_CENTRES = 32


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


class _SmallFaces(NamedTuple):
    """The faces of one or two pips :func:`_face_rows` found, one entry a face: its centre's row,
    its pips (``hi`` -1 for a one), score and implied edge (px)."""

    rows: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    score: np.ndarray
    edge: np.ndarray


def _face_rows(px: np.ndarray, py: np.ndarray, pc: np.ndarray, near: tuple[np.ndarray, np.ndarray],
               cxy: np.ndarray, edge: np.ndarray, no_one: np.ndarray | None = None,
               ) -> tuple[_SmallFaces, list[tuple[int, Face]]]:
    """:func:`face_at` of many centres at once: ``near`` (rows, cols: int arrays, row-major, each
    row's columns ascending, as ``np.nonzero`` of a (C, N) bool matrix gives them) pairs each centre
    ``cxy[row]`` (C, 2) tried at die edge ``edge[row]`` (C,) px with its pips; ``no_one`` (bool (N,),
    optional): pips that alone are no face. The same pairing, tests and sums as one centre at a
    time, run on arrays across the centres (a frame tries hundreds of centres, each of a few pips):
    positions padded to the most pips any centre has, the greedy pairing a pass per position.
    Returns the faces of one or two pips as arrays, and (row, face) of the larger ones; a row of
    neither has no face."""
    n_c = len(cxy)
    if n_c == 0:
        none = np.zeros(0, np.intp)
        return _SmallFaces(none, none, none, np.zeros(0), np.zeros(0)), []
    tol = np.maximum(0.1 * edge, _MIN_TOL)
    tol2 = (tol * tol)[:, None]
    rows, cols = near  # row-major: each centre's pips in index order
    count = np.bincount(rows, minlength=n_c)
    k_max = int(count.max())
    slot = np.arange(rows.size) - np.repeat(np.cumsum(count) - count, count)
    idx = np.full((n_c, k_max), -1, np.intp)
    idx[rows, slot] = cols
    valid = idx >= 0
    at = np.where(valid, idx, 0)
    x, y, c = px[at], py[at], pc[at]
    cx, cy = cxy[:, :1], cxy[:, 1:]
    # the centre pip: the strongest within tol (the first of equally strong ones)
    dc = (x - cx) ** 2 + (y - cy) ** 2
    cand = valid & (dc <= tol2)
    has_centre = cand.any(axis=1)
    centre = np.argmax(np.where(cand, c, -np.inf), axis=1)
    used = np.zeros((n_c, k_max), bool)
    used[has_centre, centre[has_centre]] = True
    # the pairs: each free pip in order, its nearest free mirror partner within tol (the last of
    # equally near ones)
    partner = np.full((n_c, k_max), -1, np.intp)
    every = np.arange(n_c)
    unpaired = valid & ~used  # (the pips no pairing has used yet, kept as the pairs are made)
    for k in range(k_max):
        # (only the centres whose pip k is free: each row's pairing is its own)
        act = np.flatnonzero(unpaired[:, k])
        if not act.size:
            continue
        xa, ya = x[act], y[act]
        mx, my = 2 * cxy[act, 0] - xa[:, k], 2 * cxy[act, 1] - ya[:, k]
        d = (xa - mx[:, None]) ** 2 + (ya - my[:, None]) ** 2
        free = unpaired[act] & (d <= tol2[act])
        free[:, k] = False
        found = free.any(axis=1)
        if not found.any():
            continue
        best = k_max - 1 - np.argmin(np.where(free[found], d[found], np.inf)[:, ::-1], axis=1)
        r = act[found]
        used[r, k] = True
        used[r, best] = True
        unpaired[r, k] = False
        unpaired[r, best] = False
        partner[r, k] = best
    firsts = partner >= 0
    n_pairs = firsts.sum(axis=1)
    n_pips = 2 * n_pairs + has_centre
    live = (n_pips > 0) & (n_pips <= 6) & ~((n_pips == 6) & has_centre)
    if no_one is not None:
        live &= ~((n_pips == 1) & no_one[idx[every, centre]])
    # the pairs' vectors (first pip to its partner) and lengths, up to three a centre
    pr, pk = np.nonzero(firsts)
    p_slot = np.arange(pr.size) - np.repeat(np.cumsum(n_pairs) - n_pairs, n_pairs)
    keep3 = p_slot < 3
    pr, pk, p_slot = pr[keep3], pk[keep3], p_slot[keep3]
    a_i, b_i = idx[pr, pk], idx[pr, partner[pr, pk]]
    vx = np.full((n_c, 3), np.nan)
    vy = np.full((n_c, 3), np.nan)
    vx[pr, p_slot] = px[b_i] - px[a_i]
    vy[pr, p_slot] = py[b_i] - py[a_i]
    lens = np.hypot(vx, vy)
    lo, hi = BOARD_LAYOUT.span[0] * edge, BOARD_LAYOUT.span[1] * edge
    out_span = (lens < lo[:, None]) | (lens > hi[:, None])  # (nan: no pair, never out)
    one = n_pairs == 1
    live &= ~(one & out_span[:, 0])
    two = n_pairs == 2
    with np.errstate(invalid="ignore"):
        short, long = np.fmin(lens[:, 0], lens[:, 1]), np.fmax(lens[:, 0], lens[:, 1])
        cos = np.abs(vx[:, 0] * vx[:, 1] + vy[:, 0] * vy[:, 1]) / (lens[:, 0] * lens[:, 1])
        bad_two = (out_span[:, 0] | out_span[:, 1] | (short < lo) | (long > hi)
                   | (long > BOARD_LAYOUT.ratio * short) | ~(cos < BOARD_LAYOUT.cos_max))
    live &= ~(two & bad_two)
    # pips of one face print alike (crowded faces: looser)
    n_used = used.sum(axis=1)
    top = np.max(np.where(used, c, -np.inf), axis=1)
    low = np.min(np.where(used, c, np.inf), axis=1)
    live &= ~(low < top / np.where(n_used >= _CROWDED, _ALIKE_CROWDED, _ALIKE))
    # the unexplained blobs on the face, summed in the pips' order
    reach = np.maximum(np.max(np.where(used, np.hypot(x - cx, y - cy), -np.inf), axis=1), 0.25 * edge) + tol
    other = valid & ~used & (dc < (reach * reach)[:, None])
    # (an accumulation adds in order, as a pass per position does)
    left = np.add.accumulate(np.where(other, c, 0.0), axis=1)[:, -1]
    longest = np.fmax(np.fmax(lens[:, 0], lens[:, 1]), lens[:, 2])
    own_edge = np.clip(longest / _DIAGONAL, 0.75 * edge, 1.25 * edge)
    # faces of one or two pips: their sums need no order (a + b is b + a), worked out on arrays
    small = live & (n_pips <= 2)
    s_rows = np.flatnonzero(small)
    k1 = np.argmax(firsts, axis=1)  # (a two's one pair)
    pair_a, pair_b = idx[every, k1], idx[every, np.maximum(partner[every, k1], 0)]
    s_a = np.where(has_centre, idx[every, centre], pair_a)[s_rows]
    s_b = np.where(has_centre, -1, pair_b)[s_rows]
    total = pc[s_a] + np.where(s_b >= 0, pc[np.maximum(s_b, 0)], 0.0)
    s_score = total - left[s_rows]
    s_own = np.where(has_centre[s_rows], edge[s_rows], own_edge[s_rows])
    ok = s_score > 0
    lo_pip = np.where(s_b >= 0, np.minimum(s_a, s_b), s_a)
    hi_pip = np.where(s_b >= 0, np.maximum(s_a, s_b), -1)
    table = _SmallFaces(s_rows[ok], lo_pip[ok], hi_pip[ok], s_score[ok], s_own[ok])
    # the larger faces one by one: their contrasts summed in the set's order, as face_at sums them
    big: list[tuple[int, Face]] = []
    pcl = pc.tolist()
    vec = np.stack([vx, vy], axis=2)
    for r in np.flatnonzero(live & (n_pips > 2)).tolist():
        ci = int(idx[r, centre[r]]) if has_centre[r] else -1
        np_r = int(n_pairs[r])
        if np_r == 3 and not layout_ok(vec[r], ci >= 0, float(edge[r]), BOARD_LAYOUT, lens[r].tolist()):
            continue
        used_r = set() if ci < 0 else {ci}
        for k in np.flatnonzero(firsts[r]).tolist():
            used_r.update((int(idx[r, k]), int(idx[r, partner[r, k]])))  # (in the pairing's order)
        score = sum([pcl[i] for i in used_r]) - float(left[r])
        if score <= 0:
            continue
        own = float(own_edge[r] if np_r else edge[r])
        big.append((r, Face(float(score), (float(cxy[r, 0]), float(cxy[r, 1])), tuple(sorted(used_r)), own)))
    return table, big


def _square_gaps(xy: np.ndarray) -> np.ndarray:
    """(N, N): the squared distances between the points ``xy`` (N, 2), the same values as
    ``((xy[:, None] - xy[None]) ** 2).sum(axis=2)`` (a sum over two terms adds them in order) without
    numpy's slow reduction over a short axis."""
    dx = xy[:, None, 0] - xy[None, :, 0]
    dy = xy[:, None, 1] - xy[None, :, 1]
    return np.asarray(dx * dx + dy * dy)


def _like_blobs(xy: np.ndarray, dark: np.ndarray, contrast: np.ndarray, round_: np.ndarray,
                reach: float) -> list[list[int]]:
    """For each blob, the blobs like it as a one's pip (same polarity, ``_ONE_ALONE`` of its contrast,
    as round as ``round_`` says a one must be) within ``reach`` px: a one taken while any of them
    is in no face taken is a two (or three) half seen."""
    d2 = _square_gaps(xy)
    near = (d2 < reach * reach) & (dark[:, None] == dark[None, :]) & round_[None, :]
    near &= contrast[None, :] >= _ONE_ALONE * contrast[:, None]
    np.fill_diagonal(near, False)
    rows, cols = np.nonzero(near)
    ends = np.searchsorted(rows, np.arange(1, len(xy) + 1)).tolist()
    cols_ = cols.tolist()
    return [cols_[a:b] for a, b in zip([0, *ends[:-1]], ends, strict=True)]


def find_faces(pips: list[Pip], edges: tuple[float, ...],
               accept: Callable[[Face], bool] = lambda f: True, one_round: float = 0.0) -> list[Face]:
    """Non-overlapping d6 faces among the pips, best first: greedy, no pip in two faces, no face
    centred on a die already taken (closer than _APART_EDGES of the larger edge); a face that
    ``accept`` refuses takes nothing (the face under it may still be read). Each die edge in
    ``edges`` (px) is tried: the dice's size is known from the checkers only within a factor of two.
    A blob less round than ``one_round`` is no one (not tried as one, nor taken for one).

    :param pips: the blobs, strongest first (:func:`vision.dice.on_board.board_pips`).
    :returns: the faces taken, each with its pips' indices, centre (px), score and implied edge."""
    return take_faces(pips, face_hypotheses(pips, edges, one_round), edges, accept, one_round)


def face_hypotheses(pips: list[Pip], edges: tuple[float, ...], one_round: float = 0.0) -> list[Face]:
    """Every candidate face among the pips (:func:`find_faces` before its greedy choice), best first:
    the best-scoring face of each set of pips. A pure function of its arguments: searches of one
    frame that find the same pips share it. A blob less round than ``one_round`` alone is no
    candidate (:func:`find_faces`)."""
    n = len(pips)
    if n == 0:
        return []
    xy = np.array([[p.x, p.y] for p in pips])
    d2 = _square_gaps(xy)
    dark = np.array([p.dark for p in pips])
    contrast = np.array([p.contrast for p in pips])
    roundness = np.array([p.roundness for p in pips])
    # pairs that may be a face's diagonal: same polarity, alike, a diagonal's length apart (every
    # even face has one through its centre; odd faces are centred on a pip)
    strong, weak = np.maximum.outer(contrast, contrast), np.minimum.outer(contrast, contrast)
    alike = np.triu((dark[:, None] == dark[None, :]) & (strong <= _ALIKE_CROWDED * weak), 1)
    no_one = roundness < one_round
    places = _pip_places(_grid_keys(xy))
    # (the best face of each set of pips, and where that set was first found: the order of a dict
    # filled centre by centre, as a sort by score keeps it among equal scores)
    big: dict[tuple[int, ...], list[Any]] = {}
    # every edge's centres at once (one pass over arrays for all: most frames hold few pips)
    parts = []
    for edge in edges:
        span = alike & (d2 <= (_SPAN[1] * edge) ** 2) & (d2 >= (_SPAN[0] * edge) ** 2)
        ii, jj = np.nonzero(span)
        mid = (xy[ii] + xy[jj]) / 2
        cxy_e, pol_e = _centres(xy, dark, places, mid, dark[ii])
        parts.append((cxy_e, pol_e, np.full(len(cxy_e), edge), np.full(len(cxy_e), (0.65 * edge) ** 2)))
    cxy, pol, edge_of, reach2 = (np.concatenate(col) for col in zip(*parts, strict=True))
    # every centre's pips within reach (the same sums as one centre at a time), as (centre, pip) pairs
    pc, pj = _within(xy, dark, cxy, pol, reach2)
    count = np.bincount(pc, minlength=len(cxy))
    first = np.zeros(len(cxy), np.intp)  # (each centre's first pip)
    first[count > 0] = pj[(np.cumsum(count) - count)[count > 0]]
    # (no pips: no face; a lone blob too elongated to be a one)
    tried = (count > 0) & ~((count == 1) & (roundness[first] < one_round))
    rows = np.flatnonzero(tried)
    keep = tried[pc]
    row_of = np.cumsum(tried) - 1  # (a tried centre's row among the tried)
    near = (row_of[pc[keep]], pj[keep])
    if len(rows) <= _FEW_CENTRES:
        dense = np.zeros((len(rows), n), bool)
        dense[near] = True
        return _one_by_one(pips, xy, contrast, dense, cxy[rows], edge_of[rows], no_one)
    table, faces = _face_rows(xy[:, 0], xy[:, 1], contrast, near, cxy[rows], edge_of[rows], no_one)
    for r, f in faces:
        if f.members not in big:
            big[f.members] = [r, f]
        elif big[f.members][1].score < f.score:
            big[f.members][1] = f
    at = cxy[rows][table.rows]
    small = (table.rows, table.lo, table.hi, table.score, table.edge, at[:, 0], at[:, 1])
    found = [(first, f) for first, f in big.values()] + _best_small(small, n)
    found.sort(key=lambda t: (-t[1].score, -len(t[1].members), t[0]))
    return [f for _, f in found]


def _within(xy: np.ndarray, dark: np.ndarray, cxy: np.ndarray, pol: np.ndarray,
            reach2: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(centre, pip) index pairs, row-major and each centre's pips ascending (``np.nonzero`` of
    the (C, N) matrix ``(dx * dx + dy * dy <= reach2[:, None]) & (dark[None, :] == pol[:, None])``
    for pips ``xy`` (N, 2) and centres ``cxy`` (C, 2)): the same test, made only for the pips whose x
    lies within a reach and a pixel of the centre's (most pips of a field lie far from a centre)."""
    n = len(xy)
    order = np.argsort(xy[:, 0], kind="stable")
    xs = xy[order, 0]
    reach = np.sqrt(reach2) + 1.0
    lo = np.searchsorted(xs, cxy[:, 0] - reach, side="left")
    hi = np.searchsorted(xs, cxy[:, 0] + reach, side="right")
    counts = hi - lo
    ci = np.repeat(np.arange(len(cxy)), counts)
    pos = np.arange(ci.size) - np.repeat(np.cumsum(counts) - counts - lo, counts)
    pj = order[pos]
    dx, dy = xy[pj, 0] - cxy[ci, 0], xy[pj, 1] - cxy[ci, 1]
    ok = (dx * dx + dy * dy <= reach2[ci]) & (dark[pj] == pol[ci])
    key = np.sort(ci[ok] * n + pj[ok])
    return key // n, key % n


def _one_by_one(pips: list[Pip], xy: np.ndarray, contrast: np.ndarray, near: np.ndarray, cxy: np.ndarray,
                edge: np.ndarray, no_one: np.ndarray) -> list[Face]:
    """:func:`face_hypotheses`' candidates from its centres (as :func:`_face_rows` takes them) one
    at a time (:func:`face_at`): for a few centres, quicker than the arrays' passes."""
    px, py, pc = xy[:, 0].tolist(), xy[:, 1].tolist(), contrast.tolist()
    hyps: dict[tuple[int, ...], Face] = {}
    for row, (cx, cy), e in zip(near, cxy.tolist(), edge.tolist(), strict=True):
        f = _face_at(pips, px, py, pc, np.flatnonzero(row).tolist(), cx, cy, e)
        if f is None or (len(f.members) == 1 and no_one[f.members[0]]):
            continue
        if f.members not in hyps or hyps[f.members].score < f.score:
            hyps[f.members] = f
    return sorted(hyps.values(), key=lambda f: (-f.score, -len(f.members)))


def _best_small(faces: tuple[np.ndarray, ...], n: int) -> list[tuple[int, Face]]:
    """(where first found, best face) of each set of one or two pips among the arrays ``faces``
    (order found, pips lo and hi, score, edge, centre x and y): the first of equally good."""
    seq, lo, hi, score, edge, cx, cy = faces
    if seq.size == 0:
        return []
    key = np.where(hi >= 0, n + lo * n + hi, lo)
    order = np.lexsort((seq, -score, key))
    key_s = key[order]
    starts = np.flatnonzero(np.r_[True, key_s[1:] != key_s[:-1]])
    first = np.minimum.reduceat(seq[order], starts)
    best = order[starts]
    out = []
    cols = (lo[best], hi[best], score[best], edge[best], cx[best], cy[best])
    for at, a, b, sc, e, x, y in zip(first.tolist(), *(c.tolist() for c in cols), strict=True):
        out.append((at, Face(sc, (x, y), (a,) if b < 0 else (a, b), e)))
    return out


def _grid_keys(xy: np.ndarray) -> np.ndarray:
    """One int64 per point: its place on a half-pixel grid (rounded half to even, as round() does),
    x and y packed into one number."""
    k = np.rint(2 * xy).astype(np.int64) + (1 << 30)
    return np.asarray((k[:, 0] << 32) | k[:, 1])


def _pip_places(pip_keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The pips' places (:func:`_grid_keys`), sorted, and for each place in the order first seen,
    the last pip there (as a dict filled pip by pip keeps them)."""
    order = np.argsort(pip_keys, kind="stable")
    keys = pip_keys[order]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    ends = np.r_[starts[1:], len(keys)] - 1
    seen = np.argsort(order[starts], kind="stable")
    return keys[starts], order[ends][seen]


def _centres(xy: np.ndarray, dark: np.ndarray, places: tuple[np.ndarray, np.ndarray], mid: np.ndarray,
             mid_dark: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The candidate centres (C, 2) and their polarity (C,): one per place on a half-pixel grid,
    each pip's place first (the last pip there gives it: ``places``, :func:`_pip_places`), then the
    midpoints' places in their order (the first midpoint there gives it), a midpoint not replacing
    a pip."""
    taken, at = places
    mid_keys = _grid_keys(mid) if len(mid) else np.zeros(0, np.int64)
    pos = np.minimum(np.searchsorted(taken, mid_keys), len(taken) - 1)
    fresh = np.flatnonzero(taken[pos] != mid_keys)
    keys = mid_keys[fresh]
    order = np.argsort(keys, kind="stable")
    firsts = order[np.r_[True, keys[order][1:] != keys[order][:-1]]] if len(keys) else order
    mid_at = fresh[np.sort(firsts)]
    return (np.concatenate([xy[at], mid[mid_at].reshape(-1, 2)]),
            np.concatenate([dark[at], mid_dark[mid_at]]))


def take_faces(pips: list[Pip], hyps: list[Face], edges: tuple[float, ...],
               accept: Callable[[Face], bool] = lambda f: True, one_round: float = 0.0) -> list[Face]:
    """:func:`find_faces`' greedy choice among its candidates ``hyps`` (:func:`face_hypotheses` of
    the same pips, edges and ``one_round``)."""
    if not hyps:
        return []
    xy = np.array([[p.x, p.y] for p in pips])
    dark = np.array([p.dark for p in pips])
    contrast = np.array([p.contrast for p in pips])
    round_enough = np.array([p.roundness >= one_round for p in pips], bool)
    like = _like_blobs(xy, dark, contrast, round_enough, _SPAN[1] * max(edges))
    out: list[Face] = []
    taken: set[int] = set()
    refused: list[set[int]] = []
    for f in hyps:
        if taken.intersection(f.members):
            continue
        if any((f.centre[0] - g.centre[0]) ** 2 + (f.centre[1] - g.centre[1]) ** 2
               < (_APART_EDGES * max(f.edge, g.edge)) ** 2 for g in out):
            continue
        if any(len(r.intersection(f.members)) >= 2 for r in refused):
            continue  # two pips of a face already refused: a row of a six is no three, nor a
            # column of it with a blob beside (a six with a pip lost in the dark)
        if len(f.members) == 1 and any(j not in taken for j in like[f.members[0]]):
            continue  # a pip with a like blob a diagonal away: a two (or three) half seen, no one
        if not accept(f):
            if len(f.members) >= _CROWDED:
                refused.append(set(f.members))
            continue
        out.append(f)
        taken.update(f.members)
    return out
