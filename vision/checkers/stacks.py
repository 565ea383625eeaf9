"""Count the checkers on each point of a rectified board, and name their two colours.

Input is the rectified field of :mod:`vision.board.finder` (points ``POINT_PX`` wide, long side horizontal).
No colour is hard-coded; everything is measured in point widths and learned from the frame:

1. **Disc evidence.** A checker is a disc about one point wide. At every candidate centre along a
   point's axis, a ring of the checker's radius is sampled in the colour gradient (Sobel on the three
   CIE-Lab channels); the *ring score* is the fraction of the ring whose gradient is strong and points
   radially. A disc's outline scores near 1 whatever its colour against the board (red on white,
   black with a rim on a black point, gold on cream); the straight edges of the triangles and the pips
   of a die (smaller than a checker) score low.
2. **Stacks.** Checkers stack from the point's base toward the middle of the board, one diameter
   apart. From the base, the best-scoring disc within the first diameter starts the chain; each next
   disc is searched about one diameter further on; the chain's length is the count -- for stacks of
   any height (a long stack simply runs on toward the middle).
3. **Colours.** Each stack's colour is read inside its discs; the stacks' colours are split into two
   clusters (k-means, k=2) and named ``light``/``dark`` by lightness.

The ring score follows the idea of the circular Hough transform (Duda & Hart 1972), evaluated only
at the few centres a stack allows instead of voting over the whole image.
"""

from __future__ import annotations

import bisect
import functools
import itertools
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.arrays import channel_norm, median, scratch
from vision.board.geometry import POINT_PX, BoardGeometry
from vision.board.view import FieldView
from vision.reading import DARK, LIGHT
from vision.selection import median_network, run_network, select_network

__all__ = ["FieldLook", "StackReading", "count_stacks", "count_stacks_kept", "drop_third_colour",
           "name_colours", "ring_scores", "ring_scores_at_pixels"]

# Checker radius candidates, as fractions of the point width (boards make checkers 0.85-1.0 wide).
_RADII = (0.38, 0.42, 0.46)
# Ring samples per candidate centre.
_RING_N = 24
# A ring sample is an edge when its radial gradient exceeds this (Sobel units on 8-bit Lab, summed).
_EDGE = 45.0
# A disc is present when at least this fraction of its ring is a radial edge.
_RING_MIN = 0.5
# A disc's inside differs from the bare point's colour by more than this (Lab) ...
_BARE_DELTA = 25.0
# ... or its ring is this complete (a checker with a rim on a point of its own colour).
_RING_STRONG = 0.85
# A disc of the bare point's own colour (dark on dark) has a faint outline: its ring is judged
# with this weaker edge, and must then be _RING_STRONG complete (a bare triangle's straight sides
# fill about half of a ring whatever the threshold).
_EDGE_WEAK = 15.0
# A checker on the bar must show at least this much of its ring.
_BAR_RING = 0.75
# The discs of one stack differ in colour by less than this (Lab; shading, a rim, a highlight).
_SAME_STACK = 30.0
# ... or this much when it differs from one of the bare references only.
_RING_FAIR = 0.7
# ... and shows at least this share of the ring completeness of those below it.
_CHAIN_DROP = 0.65
# Where a pile's sixth checker lies (diameters from the base): over the gap between the first two.
_OVER_GAP = (0.75, 1.25)
# Where a stack's second checker is looked for (diameters from the base) when its first shows none.
_SECOND = (1.2, 1.8)
# A row's stacks' own step is measured from this many gaps between their discs (else one diameter).
_STEP_GAPS = 3
# Each next checker of a stack stands within this many diameters sideways of the one before it.
_IN_LINE = 0.2
# The candidate centres across a point's axis lie this many rectified pixels apart.
_SHIFT_STEP = 4.0
# ... but a pile's upper layers lie up to a quarter diameter to either side of the column (each is
# nudged as the hand leaves it): the column's reach over them is followed this far from its first.
_PILE_SWAY = 0.45
# Two stack colours closer than this (Lab) are one colour.
_SAME_COLOUR = 30.0
# The stacks' colours are split with lightness at half weight (as the trays match colours).
_NAME_WEIGHT = np.array([0.5, 1.0, 1.0], np.float32)
# A bar candidate is a square (a die lying on the bar, or the cube), not a checker, when a square's
# outline explains at least this much more of its edge samples than a circle's (fractions 0-1;
# measured on the on-bar dice renders: checkers at most -0.02, dice 0.33-0.44).
_SQUARE_BETTER = 0.15
# An outline sample is an edge when its gradient along the outline's normal is this many times the
# one along it (within atan(1/2.7) = 20 deg of the normal: a square's side crosses a circle at up to
# 45 deg, a circle's rim meets a square's side near its middle only).
_NORMAL_RATIO = 2.7
# Half-sides (checker radii) of the squares tried: a die or cube 1.2-1.8 radii across.
_SQUARE_HALF = (0.6, 0.7, 0.8, 0.9)
# Half-lengths (checker radii) of the rectangles tried along the bar, with the squares' half-widths:
# a case's hinges (and a card) lie on the bar as upright rectangles, longer than a checker is wide.
_UPRIGHT_HALF = (1.1, 1.3, 1.5)


@dataclass(frozen=True)
class StackReading:
    """One point's stack: ``count`` checkers, their Lab colour (3 floats) or None, a confidence 0-1.

    ``column``: 0-11 left to right in the rectified view; ``top``: top row; ``centres``: the discs'
    centres in rectified pixels.
    """

    column: int
    top: bool
    count: int
    colour_lab: tuple[float, float, float] | None
    confidence: float
    centres: tuple[tuple[float, float], ...] = ()
    radius: float = 0.0
    # its discs all of its point's own colour: known by their rims alone (kept with the stack so a
    # part-read frame's colour test sees what a full reading sees)
    rim_only: bool = False
    # the piles (6-15, best fit first) its rings fit: its count when read as a pile, or those its own
    # evidence did not settle (its first gap's notch looked bare, or its discs are of the point's
    # colour); the frame's set count decides (vision.checkers.sets)
    pile: tuple[int, ...] = ()
    pile_lab: tuple[float, float, float] | None = None  # the candidates' colour (Lab), for a stack of none
    # the light where it lies: the bare points' lightness there over their mean on the field
    # (name_colours compares checkers in the same light)
    light: float = 1.0
    # a stack of none whose discs, of its point's own colour, show their rims complete only on the
    # part the view shows (the field's edge found inside its first checker): their centres and
    # colour (Lab), a count for the learned counter to confirm (vision.checkers.network.refine)
    shown: tuple[tuple[float, float], ...] = ()
    shown_lab: tuple[float, float, float] | None = None


# How count_stacks_kept judges each ring: at _EDGE, and at _EDGE_WEAK for a checker of its point's
# own colour, which must show all its rim -- but one on an outer point may overhang the field's end
# (its rim there is on the frame, out of view): it is judged on the rim it shows (ends open).
_JUDGED = ((_EDGE, False), (_EDGE_WEAK, True))


def ring_scores(gx: np.ndarray, gy: np.ndarray, cx: np.ndarray, cy: np.ndarray, r: float,
                edge: float = _EDGE, ends_open: bool = False) -> np.ndarray:
    """Ring score (0-1) at centres ``cx, cy`` for radius ``r`` (pixels): float arrays of one shape,
    or of shapes that broadcast to one (a grid of columns by depths: the sample positions are then
    worked out on the small arrays); the scores have the broadcast shape.

    ``gx, gy``: float32 (H, W) colour gradient (:func:`~vision.board.view.colour_gradient`). The score
    is the fraction of ``_RING_N`` ring samples whose radial gradient exceeds ``edge`` and the
    tangential one. ``ends_open``: the part of the ring beyond the view's left and right ends is
    not counted at all (else, as beyond its top and bottom, it earns half credit).
    """
    return _ring_scores_judged(gx, gy, cx, cy, r, ((edge, ends_open),))[0]


def _ring_scores_judged(gx: np.ndarray, gy: np.ndarray, cx: np.ndarray, cy: np.ndarray, r: float,
                        judged: Sequence[tuple[float, bool]], reach: bool = False,
                        slot: str = "") -> list[np.ndarray]:
    """:func:`ring_scores` at the same centres for each ``(edge, ends_open)`` of ``judged``: the ring
    samples gathered and turned radial once for all (a stack's rings are judged at two edges).

    With ``reach``, last the highest weak ring score (``ends_open``) a whole disc there can reach:
    1 where its ring lies inside the view, less where the view's top or bottom edge cuts it (the
    hidden part earns half credit), 0 where too little of it shows to be scored. ``slot``: the
    samples' planes are this thread's scratch arrays of that name (a caller whose calls share one
    shape, frame after frame), else fresh."""
    h, w = gx.shape[:2]
    ca, sa = _ring_angles()
    gxf, gyf = gx.ravel(), gy.ravel()
    # (the samples' planes are this thread's scratch arrays, vision.arrays.scratch: a row's rings
    # are some 140k samples a plane, and fresh planes cost their page faults on every frame)
    # (the count's two rows share one shape; other callers' shapes vary: fresh arrays)
    shape = (*np.broadcast_shapes(np.shape(cx), np.shape(cy)), _RING_N)

    def buf(name: str, dtype: np.dtype | type) -> np.ndarray:
        return scratch(f"stacks.ring.{slot}.{name}", shape, dtype) if slot else np.empty(shape, dtype)

    flat = buf("flat", np.intp)
    gxs, gys = buf("gx", gx.dtype), buf("gy", gy.dtype)
    rad, tmp = buf("rad", np.result_type(gx.dtype, ca.dtype)), buf("tmp", np.result_type(gy.dtype, sa.dtype))
    top, hit = buf("top", rad.dtype), buf("hit", np.bool_)
    # (the angles and the rows' offsets laid out over all axes but the first: numpy's loops over
    # a broadcast axis of 24 run once per ring, over these once per column)
    ca_s, sa_s = _angles_spread(shape)
    for k, rr in enumerate((r - 1.0, r + 0.5)):
        xs = np.clip(np.rint(cx[..., None] + rr * ca), 0, w - 1).astype(np.intp)
        ys = np.clip(np.rint(cy[..., None] + rr * sa), 0, h - 1).astype(np.intp)
        np.add(_spread(ys * w, shape), _spread(xs, shape), out=flat)
        # (every index lies in the planes, so "wrap" takes the same samples: numpy's "wrap" gather
        # runs twice as fast as its bounds-checked default)
        np.take(gxf, flat, out=gxs, mode="wrap")
        np.take(gyf, flat, out=gys, mode="wrap")
        np.multiply(gxs, ca_s, out=rad)
        rad += np.multiply(gys, sa_s, out=tmp)
        np.abs(rad, out=rad)
        gys *= ca_s
        gxs *= sa_s
        gys -= gxs
        tan_abs = np.abs(gys, out=gys)
        # a sample is an edge at ``edge`` where its radial gradient exceeds both the tangential and
        # ``edge``: so at every edge where the larger over the two rings of the radial gradients
        # that exceed their tangential (0 where none does) exceeds it -- one comparison an edge
        np.greater(rad, tan_abs, out=hit)
        if k == 0:
            np.multiply(rad, hit, out=top)
        else:
            rad *= hit
            np.maximum(top, rad, out=top)
    best = [np.greater(top, edge, out=buf(f"best{j}", np.bool_)) for j, (edge, _) in enumerate(judged)]
    # a checker at the field's edge is partly outside the rectified view: score the ring it shows
    in_x = _spread((cx[..., None] + r * ca >= 0) & (cx[..., None] + r * ca <= w - 1), shape)
    inside = in_x & _spread((cy[..., None] + r * sa >= 0) & (cy[..., None] + r * sa <= h - 1), shape)
    shown = _count_true(inside)
    out = []
    side_hidden = None  # (the ring's part beyond the view's top or bottom, once)
    for (_, ends_open), hits in zip(judged, best, strict=True):
        # (half credit for the hidden part: a phantom ring at the base must not gain by it)
        if ends_open and side_hidden is None:
            side_hidden = _count_true(in_x & ~inside)
        hidden = side_hidden if ends_open else _RING_N - shown
        denom = shown + 0.5 * hidden
        hits &= inside
        out.append(np.where(shown >= 0.6 * _RING_N, _count_true(hits) / denom, 0.0))
    if reach:
        if side_hidden is None:
            side_hidden = _count_true(in_x & ~inside)
        out.append(np.where(shown >= 0.6 * _RING_N, shown / np.maximum(shown + 0.5 * side_hidden, 1), 0.0))
    return out


def ring_scores_at_pixels(gx: np.ndarray, gy: np.ndarray, xs: np.ndarray, ys: np.ndarray, r: float,
                          edge: float = _EDGE) -> np.ndarray:
    """:func:`ring_scores` (``ends_open`` False) at whole-pixel centres inside the view (int (N,)
    ``xs``, ``ys``; ``r`` in pixels): the same scores, float64 (N,), empty for no centre. A whole
    centre's ring samples lie at fixed offsets from it (the offset rounded alone is the sum rounded,
    but for a half, which rounds to even: taken per parity), so they are gathered from planes
    padded by their edge pixels (the clamp to the view) at one index each, and only the rings
    reaching past the view test which of their samples it shows."""
    h, w = gx.shape[:2]
    ca, sa = _ring_angles()
    xs = np.asarray(xs, np.intp)
    ys = np.asarray(ys, np.intp)
    if len(xs) == 0:
        return np.zeros(0)

    def offsets(c: np.ndarray, centres: np.ndarray) -> np.ndarray:
        """Each centre's sample offsets along one axis for ring positions ``c`` (float32 (_RING_N,)):
        int (N, _RING_N), or (1, _RING_N) when all centres share a parity."""
        step = [np.rint(p + c.astype(np.float64)).astype(np.intp) - p for p in (0, 1)]
        if np.array_equal(step[0], step[1]):
            return step[0][None]
        return np.where((centres & 1).astype(bool)[:, None], step[1], step[0])

    rings = [(offsets(rr * ca, xs), offsets(rr * sa, ys)) for rr in (r - 1.0, r + 0.5)]
    # the planes padded once, as far as the wider ring reaches past the view (the clamp of
    # ring_scores: a sample beyond the view takes its nearest edge pixel)
    left = max(0, max(-int(xs.min() + dx.min()) for dx, _ in rings))
    top = max(0, max(-int(ys.min() + dy.min()) for _, dy in rings))
    right = max(0, max(int(xs.max() + dx.max()) - (w - 1) for dx, _ in rings))
    bottom = max(0, max(int(ys.max() + dy.max()) - (h - 1) for _, dy in rings))
    pw = w + left + right
    gxp, gyp = (cv2.copyMakeBorder(g, top, bottom, left, right, cv2.BORDER_REPLICATE).ravel()
                for g in (gx, gy))
    best: np.ndarray | None = None
    for dx, dy in rings:
        flat = ((ys + top) * pw + (xs + left))[:, None] + (dy * pw + dx)
        gxs, gys = np.take(gxp, flat, mode="wrap"), np.take(gyp, flat, mode="wrap")  # (all in the planes)
        # (the operations of _ring_scores_judged, in its order: the same float32 values)
        rad = np.multiply(gxs, ca)
        rad += np.multiply(gys, sa)
        np.abs(rad, out=rad)
        gys *= ca
        gxs *= sa
        gys -= gxs
        tan = np.maximum(np.abs(gys, out=gys), edge, out=gys)
        hits = np.greater(rad, tan)
        best = hits if best is None else np.logical_or(best, hits, out=best)
    assert best is not None
    # the rings wholly inside show all their samples; the others are tested as ring_scores does
    vx, vy = r * ca, r * sa
    whole = ((xs + float(vx.min()) >= 0) & (xs + float(vx.max()) <= w - 1)
             & (ys + float(vy.min()) >= 0) & (ys + float(vy.max()) <= h - 1))
    shown = np.full(len(xs), _RING_N, np.int64)
    cut = np.flatnonzero(~whole)
    if len(cut):
        cx, cy = xs[cut].astype(np.float64)[:, None], ys[cut].astype(np.float64)[:, None]
        inside = (cx + vx >= 0) & (cx + vx <= w - 1) & (cy + vy >= 0) & (cy + vy <= h - 1)
        shown[cut] = _count_true(inside)
        best[cut] &= inside
    denom = shown + 0.5 * (_RING_N - shown)
    return np.where(shown >= 0.6 * _RING_N, _count_true(best) / denom, 0.0)


@functools.cache
def _ring_angles() -> tuple[np.ndarray, np.ndarray]:
    """Cosines and sines (float32 (``_RING_N``,)) of the ring samples' angles."""
    ang = np.linspace(0, 2 * np.pi, _RING_N, endpoint=False)
    ca, sa = np.cos(ang).astype(np.float32), np.sin(ang).astype(np.float32)
    ca.flags.writeable = sa.flags.writeable = False
    return ca, sa


def _spread(a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """``a`` (broadcastable to ``shape``) made out along all axes of ``shape`` but the first, when
    its first axis is one long: (1, *shape[1:]), contiguous (else ``a``). Broadcast against an
    operand along the first axis, numpy's inner loop then runs over all the other axes at once."""
    if a.ndim != len(shape) or len(shape) < 2 or a.shape[0] != 1 or a.shape[1:] == shape[1:]:
        return a
    return np.ascontiguousarray(np.broadcast_to(a, (1, *shape[1:])))


@functools.lru_cache(maxsize=16)
def _angles_spread(shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_ring_angles` made out over all axes of ``shape`` (ending in ``_RING_N``) but the first
    (:func:`_spread`), read-only: the shapes of a camera's frames repeat, so kept."""
    out = tuple(_spread(np.broadcast_to(a, (1,) * (len(shape) - 1) + a.shape), shape) for a in _ring_angles())
    for a in out:
        a.flags.writeable = False
    return out[0], out[1]


def _base_reach(depth: np.ndarray, r: float) -> np.ndarray:
    """The most of its ring (scored as :func:`ring_scores` scores a cut one: the hidden part at half
    credit) a disc ``depth`` (float (D,)) from its point's base shows on the field: the rim beyond
    the base line lies on the frame, wherever the view's edge was found (a pixel or two either side)."""
    _, sa = _ring_angles()
    hidden = (r * sa[None, :] > depth[:, None]).sum(axis=1)
    shown = _RING_N - hidden
    return np.where(shown >= 0.6 * _RING_N, shown / (shown + 0.5 * hidden), 0.0)


# (a uint64 whose every byte is 1: multiplied by a word of small byte counts, its top byte is their sum)
_BYTE_ONES = np.uint64(0x0101010101010101)


def _count_true(flags: np.ndarray) -> np.ndarray:
    """``flags.sum(axis=-1)`` of a bool array, as int64: for a C-contiguous array with a last axis
    of a multiple of 8, the bytes (each 0 or 1) added 8 at a time as uint64 words (no byte carries
    into the next while the axis holds fewer than 256) -- numpy's bool sum over a short last axis
    is many times slower."""
    n = flags.shape[-1]
    if not (flags.flags.c_contiguous and flags.dtype == np.bool_ and n % 8 == 0 and 0 < n < 256):
        return flags.sum(axis=-1)
    words = flags.view(np.uint64)
    total = words[..., 0].copy()
    for i in range(1, n // 8):
        total += words[..., i]
    total *= _BYTE_ONES
    total >>= np.uint64(56)
    return total.astype(np.int64)


def _chain(score: np.ndarray, ys: np.ndarray, d: float, limit: float,
           inside: np.ndarray | None = None, xs: np.ndarray | None = None,
           first: tuple[float, float] = (0.25, 1.0), step: float | None = None,
           same: dict[int, list[bool]] | None = None) -> list[int]:
    """Indices into ``ys`` (the centres' depths, ascending) of a stack's discs: the first within a
    diameter of the base, then one diameter apart (or up to ``step``, the row's measured one), while
    the ring score holds -- and, given the discs' ``inside`` colours (float (D, 3)), while each next
    disc has the first one's colour (a stack is one player's).

    Of the rings within the first diameter, each clear peak is tried as the first disc and the
    longest chain is kept (the clearest first on a tie, unless it lies over the gap between the
    first two places and another starts below it, where a checker on the base lies): a sixth checker
    piled over the gap between the first two shows the whole ring there, half a diameter out of the
    column's step. ``same``: the colour tests of first discs (:meth:`_Walk.same`) kept from
    earlier chains on the same ``inside`` (a column's chains share them), filled in here."""
    # (the chains are walked over Python lists, each disc's colour test against a first disc made
    # once over the whole axis: the same comparisons as on numpy's arrays, without numpy's
    # per-call cost on a few elements)
    walk = _Walk(score, ys, d, limit, inside, xs, step, same)
    lo, hi = first[0] * d, first[1] * d
    window = [i for i in range(*walk.span(lo, min(hi, limit))) if walk.score[i] >= _RING_MIN]
    best = walk.chain(None, first)
    sc, last = walk.score, len(walk.score) - 1
    for i in window:
        peak = sc[i] >= sc[max(0, i - 1)] and sc[i] >= sc[min(last, i + 1)]
        if not peak or (best and i == best[0]):
            continue
        chain = walk.chain(i)
        ys_l = walk.ys
        if len(chain) > len(best) or (len(chain) == len(best) and ys_l[best[0]] > 0.75 * d >= ys_l[chain[0]]):
            best = chain
    return best


def _span(ys: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """The indices of the ascending ``ys`` within ``[lo, hi]``, int (K,): those of
    ``(ys >= lo) & (ys <= hi)``, found by bisection (a stack's chain asks this at every step)."""
    return np.arange(ys.searchsorted(lo, "left"), ys.searchsorted(hi, "right"))


def _reach(score: np.ndarray, ys: np.ndarray, d: float, limit: float, inside: np.ndarray,
           xs: np.ndarray, start: int) -> float:
    """The depth (``ys``' units) of the farthest disc reached from disc ``start`` over discs half a
    diameter to one and a half apart (a pile's place between two whole rings may show none: its
    checker covered, or none there): rings of at least ``_RING_MIN`` that peak there (no clearer
    ring within a sixth of a diameter), of the first disc's colour (lightness at half weight) and
    within ``_PILE_SWAY`` of its line; the nearest such disc is each next one."""
    k = max(1, int(round(d / 6 / max(float(ys[1] - ys[0]), 1e-6)))) if len(ys) > 1 else 1
    padded = np.zeros(len(score) + 2 * k, score.dtype)  # (np.pad's zeros, without its checks)
    padded[k : k + len(score)] = score
    top = functools.reduce(np.maximum, [padded[j : j + len(score)] for j in range(2 * k + 1)])
    peaks = (score >= _RING_MIN) & (score >= top) & (ys <= limit)
    # (lightness at half weight, as the colours are named: the light falls off along a tall pile,
    # from the frame's shadow at its base to the open field at its top)
    peaks &= channel_norm((inside - inside[start]) * _NAME_WEIGHT) < _SAME_STACK
    peaks &= np.abs(xs - xs[start]) <= _PILE_SWAY * d
    # (the discs' tests are the first disc's alone: made once over the axis, then walked in Python)
    ok, ys_l = peaks.tolist(), ys.tolist()
    i = start
    while True:
        # (one and a half diameters, and the sixth of one that a peak is placed within: a layer's
        # checker and the column's next whole one beyond the covered one between them)
        lo = bisect.bisect_left(ys_l, ys_l[i] + 0.3 * d)
        hi = bisect.bisect_right(ys_l, ys_l[i] + (1.5 + 1 / 6) * d)
        nxt = next((j for j in range(lo, hi) if ok[j]), None)
        if nxt is None:
            return ys_l[i]
        i = nxt


def _column_start(first: float, far: float, gaps: np.ndarray, d: float) -> float:
    """Where a column begins whose chain of discs begins at depth ``first`` (beyond three quarters of
    a diameter) and reaches ``far``: there, or half a step nearer the base when the chain began on a
    checker over the gap between the first two. The column's discs stand one step apart (the
    chain's ``gaps`` median, or ``d`` without a plausible one) from its start to ``far``: the start
    that puts ``far`` nearer a whole number of steps wins (a plain column ends one step on)."""
    step = float(np.median(gaps)) if gaps.size else d
    if not 0.7 * d <= step <= 1.3 * d:
        step = d

    def off(start: float) -> float:
        n = (far - start) / step
        return abs(n - round(n))

    return first - 0.5 * step if off(first - 0.5 * step) < off(first) else first


def _between_shifts(scores: np.ndarray, arg: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """Each depth's disc centre across its point's axis, float (12, D), between the candidate
    centres (``_SHIFT_STEP`` apart; ``scores`` float (12, D, S), ``arg`` the best's index (12, D),
    ``cols`` the axes' x): the vertex of the parabola through the best ring score and its two
    neighbours' (the best itself at the grid's ends or on a flat top). The stack's in-line test
    compares these: two discs 5 px apart, each near the middle between two candidates, are
    otherwise picked a whole 8 px apart, and their column breaks under a shift of a pixel."""
    n = scores.shape[2]
    at = np.clip(arg, 1, n - 2)
    s0, s_lo, s_hi = (np.take_along_axis(scores, (at + k)[..., None], axis=2)[..., 0] for k in (0, -1, 1))
    curve = s_lo - 2.0 * s0 + s_hi
    inner = (arg == at) & (curve < 0)
    offset = np.where(inner, 0.5 * (s_lo - s_hi) / np.where(inner, curve, -1.0), 0.0)
    return cols[:, None] + (arg - (n - 1) / 2 + np.clip(offset, -0.5, 0.5)) * _SHIFT_STEP


def _stack_step(gaps: list[np.ndarray], d: float) -> float:
    """The step between a row's stacked checkers: the median gap of its chains (``gaps``, each
    chain's), ``d`` without enough of them or an implausible one."""
    every = np.concatenate(gaps) if gaps else np.zeros(0)
    if every.size < _STEP_GAPS:
        return d
    step = float(np.median(every))
    return step if 0.7 * d <= step <= 1.3 * d else d


class _Walk:
    """One axis's chains (:func:`_chain`): its ring ``score``, depths ``ys`` and disc centres across
    it ``xs`` as Python floats, and each first disc's colour test over the whole axis, made once."""

    def __init__(self, score: np.ndarray, ys: np.ndarray, d: float, limit: float,
                 inside: np.ndarray | None, xs: np.ndarray | None, step: float | None,
                 same: dict[int, list[bool]] | None = None) -> None:
        self.score: list[float] = score.tolist()
        self.ys: list[float] = ys.tolist()
        self.xs: list[float] | None = None if xs is None else xs.tolist()
        self.inside = inside
        self.d, self.limit = d, limit
        self.near, self.far = (d, d) if step is None else (min(d, step), max(d, step))
        self._same: dict[int, list[bool]] = {} if same is None else same

    def span(self, lo: float, hi: float) -> tuple[int, int]:
        """The index range of the depths within ``[lo, hi]`` (:func:`_span`'s, by bisection)."""
        return bisect.bisect_left(self.ys, lo), bisect.bisect_right(self.ys, hi)

    def same(self, first: int) -> list[bool]:
        """Which discs have disc ``first``'s colour (lightness at half weight: the light falls off
        along a stack, see _reach)."""
        got = self._same.get(first)
        if got is None:
            assert self.inside is not None
            got = self._same[first] = (
                channel_norm((self.inside - self.inside[first]) * _NAME_WEIGHT) < _SAME_STACK).tolist()
        return got

    def chain(self, start: int | None, first: tuple[float, float] = (0.25, 1.0)) -> list[int]:
        """:func:`_chain` from the first disc ``start`` (None: the clearest ring within the first
        diameter)."""
        d, score, ys, xs = self.d, self.score, self.ys, self.xs
        out: list[int] = []
        if start is not None:
            out.append(start)
            lo, hi = ys[start] + self.near - 0.2 * d, ys[start] + self.far + 0.2 * d
        else:
            lo, hi = first[0] * d, first[1] * d
        while True:
            sel = range(*self.span(lo, min(hi, self.limit)))
            if out and self.inside is not None:
                same = self.same(out[0])
                sel = [j for j in sel if same[j]]
            if out and xs is not None:
                # a stack stands in line: a ring beside it is a neighbour's checker or a triangle's edge
                x0, reach = xs[out[-1]], _IN_LINE * d
                sel = [j for j in sel if abs(xs[j] - x0) <= reach]
            if not sel:
                break
            i = max(sel, key=score.__getitem__)  # (the first of the best, as np.argmax)
            if score[i] < _RING_MIN:
                break
            if out and score[i] < _CHAIN_DROP * _mean(score, tuple(out)):
                break  # far fainter than the stack below it: a neighbour's rim and a triangle's edge
            out.append(i)
            lo, hi = ys[i] + self.near - 0.2 * d, ys[i] + self.far + 0.2 * d
        return out


@dataclass(frozen=True, eq=False)
class FieldLook:
    """What :func:`count_stacks_kept` measured over the whole field of one frame, for a later frame
    read in part to take where its points did not change: the bases (top, bottom rows), the disc
    sample reach ``k``, each row's colour along every point's axis (``along``: float32 (2, 12, D,
    3), top row first) and each point's colour near its tip (``tip``: float64 (2, 12, 3)), and the
    triangle colours' light fitted to those (``lights``: (2, 2, 5), top row first)."""

    base: tuple[float, float]
    k: int
    along: np.ndarray
    tip: np.ndarray
    lights: np.ndarray


def count_stacks(
    rectified: np.ndarray | FieldView, geom: BoardGeometry, radius: float | None = None,
    only: Collection[tuple[int, bool]] | None = None, previous: Sequence[StackReading] | None = None,
) -> list[StackReading]:
    """Stacks on all 24 points of a rectified BGR uint8 field (or the frame's shared
    :class:`~vision.board.view.FieldView`); 12 top then 12 bottom, left to right.

    ``radius``: the checkers' radius in rectified pixels when known (a calibration keeps it); else
    the best of ``_RADII`` point widths is chosen on this frame (three times the work).
    Colours are Lab medians; :func:`name_colours` turns them into ``light``/``dark``.
    An under-exposed field is brought to the usual exposure first (:func:`normalise_exposure`).

    ``only`` with ``previous`` (this function's result for an earlier frame, same ``radius``): only
    the points ``(column, top)`` in ``only`` are read, the others are taken from ``previous`` (the
    incremental reader's points whose place did not change).
    """
    return count_stacks_kept(rectified, geom, radius, only, previous)[0]


def count_stacks_kept(
    rectified: np.ndarray | FieldView, geom: BoardGeometry, radius: float | None = None,
    only: Collection[tuple[int, bool]] | None = None, previous: Sequence[StackReading] | None = None,
    look: FieldLook | None = None,
) -> tuple[list[StackReading], FieldLook]:
    """:func:`count_stacks`, and its :class:`FieldLook` of this frame. Read in part (``only`` with
    ``previous``), ``look``, the earlier frame's: the whole field's measures are taken from it
    except on the points read (each point's colours along its axis and at its tip are measured
    again there alone, and the light refitted when those changed), while the bases, measured on
    this frame, are where they were."""
    if only is not None and (previous is None or radius is None or len(previous) != 24):
        only = None  # nothing to take the unread points from: all are read
    view = FieldView.of(rectified, geom)
    lab = view.lab
    gx, gy = view.gradients
    height = lab.shape[0]
    step = 2.0
    depth = np.arange(0.0, 0.5 * height + 0.5 * POINT_PX, step)  # distance of a centre from the base
    base = _bases(lab, geom)
    shifts = np.arange(-8.0, 8.5, _SHIFT_STEP)
    cols = np.array(geom.columns, dtype=np.float64)
    best_r, best_total, best_maps = _RADII[0] * POINT_PX, -1.0, None
    rows = [top for top in (True, False) if only is None or any((c, top) in only for c in range(12))]
    use = {top: _columns_used(only, top) for top in (True, False)}
    for r in [radius] if radius else [frac * POINT_PX for frac in _RADII]:
        maps = {}
        total = 0.0
        for top in rows:
            cy = base[top] + depth if top else base[top] - depth
            cxg = cols[:, None, None] + shifts[None, None, :]  # (12, 1, S)
            # the rings at both edges at once (the weak one judged at each depth's best centre
            # later; their samples are the same), and the most of a ring the view can show there
            if use[top] is None:
                sc, wk, rc = _ring_scores_judged(gx, gy, cxg, cy[None, :, None], r, _JUDGED, reach=True,
                                                 slot="rows")
            else:  # the points read and their neighbours (see _suppress_neighbours); 0 elsewhere
                sc, wk, rc = np.zeros((3, 12, depth.size, shifts.size))
                sc[use[top]], wk[use[top]], rc[use[top]] = _ring_scores_judged(
                    gx, gy, cxg[use[top]], cy[None, :, None], r, _JUDGED, reach=True)
            cxg = np.broadcast_to(cxg, sc.shape)
            arg = sc.argmax(axis=2)[..., None]
            peak = sc.max(axis=2)
            maps[top] = (peak, *(np.take_along_axis(m, arg, axis=2)[..., 0] for m in (cxg, wk, rc)),
                         _between_shifts(sc, arg[..., 0], cols))
            if not radius:  # (a radius given is the only one tried, whatever its total)
                total += float(np.sort(peak.ravel())[-24:].mean())
        if total > best_total:
            best_r, best_total, best_maps = r, total, maps
    assert best_maps is not None
    d = 2.0 * best_r
    out: list[StackReading] = []
    # the median, not the mean: a disc near the base must not take the frame's colour
    k = max(1, int(round(0.5 * best_r)))
    # every point's colour at every depth from its base, (row, column, D, 3); a point and the one
    # opposite it carry the two triangle colours, so a triangle colour's bare look at a depth is the
    # consensus of twelve points (six a row), which stacks seldom all cover
    bases = (base[True], base[False])
    kept = look if only is not None and look is not None and look.base == bases and look.k == k and \
        look.along.shape[2] == depth.size else None
    # (read in part: the points read, measured again; the others as the earlier frame showed them)
    every = {(c, t) for c in range(12) for t in (True, False)}
    read = only if kept is not None and only is not None else every
    again = [np.array([c for c in range(12) if (c, top) in read], np.intp) for top in (True, False)]
    along_rows = np.empty((2, 12, depth.size, 3), np.float32) if kept is None else kept.along.copy()
    cy_rows = np.stack([base[True] + depth, base[False] - depth])  # (2, D) each row's centres
    whole: dict[bool, np.ndarray] = {}
    if only is None:
        # (all read: each row's colours along the axes and at the discs' best centres, one gather)
        at_x = np.stack([np.broadcast_to(np.array(geom.columns)[None, :, None], (2, 12, depth.size)),
                         np.stack([best_maps[True][1], best_maps[False][1]])])
        every_colour = _disc_colours_words(view.lab_words, at_x, cy_rows[None, :, None, :], k)
        along_rows[:] = every_colour[0]
        whole = {True: every_colour[1, 0], False: every_colour[1, 1]}
    elif all(cs.size == 12 for cs in again):  # (both rows whole: one gather)
        along_rows[:] = _disc_colours_words(view.lab_words, np.array(geom.columns)[None, :, None],
                                            cy_rows[:, None, :], k)
    else:
        for row in (0, 1):
            if again[row].size:
                along_rows[row, again[row]] = _disc_colours_words(
                    view.lab_words, np.array(geom.columns)[again[row], None], cy_rows[row][None, :], k)
    along = {True: along_rows[0], False: along_rows[1]}
    # each triangle colour as the light falls on it, and the field's colour
    tip = _tips(lab, geom, again, None if kept is None else kept.tip)
    light_rows = _bare_lights(lab, geom, tip, None if kept is None else (kept.tip, kept.lights))
    lights, field = {True: light_rows[0], False: light_rows[1]}, _field_colour(lab, geom)
    beside = {top: _field_beside(lab, geom, top) for top in (True, False)}
    seen = FieldLook(bases, k, along_rows, tip, light_rows)
    # every column's disc colours at its best centres, (12, D, 3) a row: both rows' at once when whole
    if only is not None and len(rows) == 2 and use[True] is None and use[False] is None:
        both = _disc_colours_words(view.lab_words, np.stack([best_maps[True][1], best_maps[False][1]]),
                                   cy_rows[:, None, :], k)
        whole = {True: both[0], False: both[1]}
    elif only is not None:
        whole = {top: _disc_colours_words(view.lab_words, best_maps[top][1], cy_rows[int(not top), None], k)
                 for top in rows if use[top] is None}
    # each parity's bare colour at every depth, (2, D, 3) a row: of both rows' points (bare_depths)
    # and of the row's own (bare_rows); the rows' and parities' consensus taken at once
    # (_consensus is one sample set's along its leading axes)
    bare_depths: dict[bool, np.ndarray] = {}
    bare_rows: dict[bool, np.ndarray] = {}
    if rows:
        sets = [np.concatenate([along[top][p::2], along[not top][1 - p :: 2]]).swapaxes(0, 1)
                for top in rows for p in (0, 1)]
        bare_all = _consensus(np.stack(sets)).reshape(len(rows), 2, depth.size, 3)
        own_all = _consensus(np.stack([along[top][p::2].swapaxes(0, 1) for top in rows for p in (0, 1)]))
        bare_depths = dict(zip(rows, bare_all, strict=True))
        bare_rows = dict(zip(rows, own_all.reshape(len(rows), 2, depth.size, 3), strict=True))
    for top in (True, False):
        if top not in rows:
            assert previous is not None
            out.extend(previous[0 if top else 12 :][:12])
            continue
        # (weak, reach: the ring at each depth's best centre at _EDGE_WEAK, see _JUDGED, and the
        # most of it the view can show)
        score, xbest, weak, reach, xfine = best_maps[top]
        cols_used = use[top]
        weak = np.where(weak > score, weak, score)
        keep = _suppress_neighbours(score, xbest, d, step) > 0
        score = np.where(keep, score, 0.0)
        weak = np.where(keep, weak, 0.0)
        score_rows = score.tolist()  # (each stack's confidence, the mean of its discs' scores: _mean)
        bare_depth, bare_row = bare_depths[top], bare_rows[top]
        cy_all = base[top] + depth if top else base[top] - depth
        # every column's disc colours at once, (12, D, 3)
        if cols_used is None:
            insides = whole[top]
        else:
            insides = np.zeros((12, depth.size, 3), lab.dtype)
            insides[cols_used] = _disc_colours_words(view.lab_words, xbest[cols_used], cy_all[None, :], k)
        # (2, 12, D, 3): each triangle colour as lit at every disc
        lit = np.stack([_lit(lights[top][q], xbest, cy_all[None, :], lab.shape) for q in (0, 1)])
        # each column's judgement of its discs, all columns at once (the loop reads its own row):
        # a disc whose inside is the bare point's colour must show a full ring (a rimmed checker
        # of the point's own colour); otherwise the base of an empty triangle could pass for one.
        # bares: each triangle colour as lit where each point lies, (12, 2, D, 3), parity (col + p) % 2
        at_col, parity = np.arange(12), np.arange(12) % 2
        bares = np.stack([lit[(at_col + p) % 2, at_col] for p in (0, 1)], axis=1)
        differs_all = (channel_norm(insides - bares[:, 0]) > _BARE_DELTA) & (
            channel_norm(insides - bare_depth[parity]) > _BARE_DELTA
        )
        # unlike the bare points of both rows but like this row's (lighting that differs between
        # the rows, or a row whose points mostly hold checkers of this colour): a clearer ring is
        # asked for
        clear = differs_all & (channel_norm(insides - bare_row[parity]) > _BARE_DELTA)
        need_all = np.where(clear, 0.0, np.where(differs_all, _RING_FAIR, _RING_STRONG))
        judged_all = np.where(differs_all, score, weak)
        usable_all = np.where(judged_all >= need_all, judged_all, 0.0)
        # the same judgement on the rim the view shows: a disc of its point's colour cut by the
        # view's top or bottom edge (``reach`` < 1) can show no more of its ring than ``reach``,
        # nor more than the field shows inside its base line (the view may end a pixel or two past it)
        cut_reach = np.minimum(reach, _base_reach(depth, best_r))
        shown_all = np.where(judged_all >= np.where(differs_all, need_all, _RING_STRONG * cut_reach),
                             judged_all, 0.0)
        # a stack's discs stay in its own half: beyond the middle they are the other row's
        limit = abs(0.5 * height - base[top]) - 0.3 * d
        # each column's chains share their first discs' colour tests (the same ``insides[c]``)
        tests: list[dict[int, list[bool]]] = [{} for _ in range(12)]
        chains = ([_chain(usable_all[c], depth, d, limit, insides[c], xfine[c], same=tests[c])
                   for c in range(12)]
                  if not radius else None)
        # touching checkers stand one of their own diameters apart, which the ring's radius (the
        # best of three _RADII) gives only roughly: on the real photos the chains' steps are 1.1
        # ring diameters, just inside the 1.2 searched, and a view a few percent taller breaks
        # them. Each next disc is looked for from one ring diameter to the row's measured step
        # on. (A calibration's reading, read in part frame after frame, keeps the one diameter:
        # a step measured on the points read alone would differ from a whole reading's.)
        pitch = d if chains is None else _stack_step([np.diff(depth[c]) for c in chains], d)
        for col in range(12):
            if only is not None and (col, top) not in only:
                assert previous is not None
                out.append(previous[col if top else 12 + col])
                continue
            inside, bare = insides[col], bares[col]
            differs, need, judged, usable = differs_all[col], need_all[col], judged_all[col], usable_all[col]
            # the field between the points' tips: a light checker on a cream field is no colour run
            bare_field = np.concatenate([bare[:, 0], field[None], beside[top][col][None]])
            idx = (chains[col] if chains is not None and pitch == d
                   else _chain(usable, depth, d, limit, inside, xfine[col], step=pitch, same=tests[col]))
            centres = [(float(xbest[col, i]), float(cy_all[i])) for i in idx]
            if not idx:
                # a stack whose first checker shows no ring (dark on a dark point in the frame's
                # shadow, its rim cut by the field's edge) still stands on the base: two or more
                # checkers in line from the second place on mean one more beneath them; so does one,
                # where the first place shows a ring as complete as asked of what the view's edge
                # leaves of it (the field's side found a few pixels inside the base cuts its rim)
                above = _chain(usable, depth, d, limit, inside, xfine[col], _SECOND, pitch, tests[col])
                if len(above) == 1:
                    near = np.abs(depth - (depth[above[0]] - d)) <= 0.2 * d
                    cut = judged[near] >= need[near] * reach[col][near]
                    if not (cut & (judged[near] >= _RING_MIN)).any():
                        above = []
                if above:
                    y0 = float(cy_all[above[0]]) + (-d if top else d)
                    centres = [(float(xbest[col, above[0]]), y0)] + [
                        (float(xbest[col, i]), float(cy_all[i])) for i in above]
                    idx = above
            colour = _stack_colour(lab, centres, best_r) if centres else None
            conf = _mean(score_rows[col], tuple(idx)) if idx else 1.0 - float(usable.max())
            count = len(centres)
            pile: tuple[int, ...] = ()
            pile_lab: tuple[float, float, float] | None = None
            if colour is not None and _distinct(colour, bare_field):
                # a stack unlike its point: its length in its own colour counts touching checkers
                # whose shared edges are too faint for the ring score
                run = _colour_run(lab, centres, colour, bare_field, best_r, top)
                count = max(count, int(round(run / d)))
            column = [abs(y - base[top]) for _, y in centres[:5]]  # depths of the column's discs
            if 0 < len(idx) < 5:
                # a pile's upper layers lie half a diameter out of the column's step and cover the
                # rings beneath them, so a chain one diameter a step stops short or strays onto
                # their rims: the column's length is followed over the discs half a diameter or
                # one apart, and its checkers spread evenly over it
                first = abs(centres[0][1] - float(base[top]))
                far = _reach(usable, depth, d, limit, inside, xbest[col], idx[0])
                if len(centres) == len(idx) and first > 0.75 * d:
                    first = _column_start(first, far, np.diff(depth[idx]), d)
                if int(round((far - first) / d)) + 1 >= 5:
                    column = [float(y) for y in np.linspace(first, far, 5)]
            if len(idx) >= _PILE_BELOW or count >= _PILE_BELOW or len(column) == 5:
                # checkers may be piled over the column (a pyramid): only a clear pile changes the
                # count, and only over a column nearly full (players pile the sixth and further
                # checkers on five; a short column's shiny rims must not pass for a pile)
                piled = _pyramid_count(judged, depth, column, d)
                if piled > 5 and colour is not None:
                    if _gap_bare(lab, centres[:2], colour, np.concatenate([bare[:, 0], field[None]]), best_r):
                        pile = _pile_candidates(judged, depth, column, d)
                    else:
                        count, pile = piled, (piled,)
            if not idx:
                # a pile of the point's own colour shows its whole rings only, the column's first
                # checkers' faint: the checkers over the column's gaps, one diameter apart from
                # over the first two on, and the column they reach are read as a pile, if one
                over = _chain(usable, depth, d, limit, inside, xfine[col], _OVER_GAP, pitch, tests[col])
                first = float(depth[over[0]]) - 0.5 * d if len(over) >= 2 else None
                far = _reach(usable, depth, d, limit, inside, xbest[col], over[0]) if first else 0.0
                if first is not None and int(round((far - first) / d)) + 1 >= 5:
                    piled = _pyramid_count(judged, depth, [float(y) for y in np.linspace(first, far, 5)], d)
                    if piled > 5:
                        idx, count, pile = over, piled, (piled,)
                        centres = [(float(xbest[col, i]), float(cy_all[i])) for i in over]
                        colour = _stack_colour(lab, centres, best_r)
                        conf = _mean(score_rows[col], tuple(idx))
            if not pile and count <= 5 and not differs[idx].any():
                # a pile of the point's own colour whose rings are too faint for a chain: the
                # piles its rings fit on a column of five from the base are candidates only
                # (the column's first checker a little off the base found: each start near it
                # is tried, the best fitting kept)
                places = [(0.5 + k) * d for k in range(5)]
                if places[-1] <= 0.5 * height and float(judged.max()) >= _PILE_WHOLE:
                    # (every start's fits at once; the best start's kept for its candidates)
                    tried = np.arange(0.4, 0.76, 0.05).tolist()
                    columns = [[(f + k) * d for k in range(5)] for f in tried]
                    start_fits = _pyramid_fits_many(judged, depth, columns, d)
                    fits = [(min(e.values()), f) for f, e in zip(tried, start_fits, strict=True) if e]
                    f = min(fits)[1] if fits else 0.5
                    places = [(f + k) * d for k in range(5)]
                    known_fits = start_fits[tried.index(f)] if fits else None
                    pile = _pile_candidates(judged, depth, places, d, known_fits)
                if pile and not count:
                    lab_l, lab_a, lab_b = _stack_colour(lab, [(float(geom.columns[col]), float(base[top]) + (
                        y if top else -y)) for y in places], best_r)
                    pile_lab = (lab_l, lab_a, lab_b)
            shown: list[tuple[float, float]] = []
            shown_lab: tuple[float, float, float] | None = None
            if not count and not pile:
                # none seen: the discs of the point's own colour whose rims the view shows
                # complete, though cut by its edge, are kept for the learned counter to confirm (a
                # bare triangle's sides and base fill as much of a cut ring: neither alone decides)
                cut = _chain(shown_all[col], depth, d, limit, inside, xfine[col], step=pitch, same=tests[col])
                if cut and not differs[cut].any():
                    shown = [(float(xbest[col, i]), float(cy_all[i])) for i in cut]
                    lab_l, lab_a, lab_b = _stack_colour(lab, shown, best_r)
                    shown_lab = (lab_l, lab_a, lab_b)
            at = centres[0] if centres else (float(geom.columns[col]), float(base[top]))
            out.append(StackReading(col, top, count, colour, max(0.0, min(1.0, conf)), tuple(centres), best_r,
                                    bool(idx) and not bool(differs[idx].any()), pile, pile_lab,
                                    _light_at(lights[top], at, lab.shape), tuple(shown), shown_lab))
    return drop_third_colour(out), seen


def drop_third_colour(stacks: list[StackReading], doubtful: list[bool] | None = None) -> list[StackReading]:
    """``stacks`` with those known only by their rims (``rim_only``: their discs of their point's own
    colour) emptied when their colour is neither of the two checker colours that the stacks unlike
    their points show (a die on a point, its glow closing the ring of the point's rounded base):
    a set has two colours, and a checker of its point's colour stands elsewhere on the other points
    too. Left as they are when the other stacks do not show two colours. ``doubtful`` (one flag a
    stack; each stack's ``rim_only`` when None) names the stacks whose colour is to be checked."""
    doubt = [s.rim_only for s in stacks] if doubtful is None else doubtful
    # judged in the frame's light and in the field's average light (a lamp to one side splits one
    # colour in two): a stack is emptied only where both find it a third colour
    third = [_third_colours(stacks, doubt, colour) for colour in (_raw_colour, _lit_colour)]
    out = []
    for s, a, b in zip(stacks, *third, strict=True):
        if a and b:
            # (its pile candidates kept, with its colour: a set's count may still want them)
            s = replace(s, count=0, colour_lab=None, centres=(), rim_only=False,
                        pile_lab=s.pile_lab or s.colour_lab if s.pile else None)
        out.append(s)
    return out


def _third_colours(stacks: list[StackReading], doubt: list[bool],
                   colour_of: Callable[[StackReading], np.ndarray]) -> list[bool]:
    """Which doubtful stacks :func:`drop_third_colour` finds of a third colour, their colours taken
    by ``colour_of``."""
    seen = [colour_of(s) * _NAME_WEIGHT for s, d in zip(stacks, doubt, strict=True)
            if s.count and s.colour_lab is not None and not d]
    none = [False] * len(stacks)
    if len(seen) < 2:
        return none
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    cv2.setRNGSeed(_SPLIT_SEED)  # repeatable, as name_colours' split
    _, _, centres = cv2.kmeans(np.array(seen, dtype=np.float32), 2, None, crit, 3, cv2.KMEANS_PP_CENTERS)
    if np.linalg.norm((centres[0] - centres[1]) / _NAME_WEIGHT) < _SAME_COLOUR:
        return none  # one colour shown: the other may stand only on points of its own colour
    spread = max(float(np.linalg.norm(c - centres, axis=1).min()) for c in seen)
    return [bool(d and s.count and s.colour_lab is not None
                 and float(np.linalg.norm(centres - colour_of(s) * _NAME_WEIGHT, axis=1).min())
                 > max(spread, _SAME_COLOUR))
            for s, d in zip(stacks, doubt, strict=True)]


def _columns_used(only: Collection[tuple[int, bool]] | None, top: bool) -> np.ndarray | None:
    """The columns of a row that :func:`count_stacks` reads given ``only``: those in it and their
    neighbours (a column's disc is judged against its neighbours'); None for all."""
    if only is None:
        return None
    cols = {c + dc for c, t in only if t == top for dc in (-1, 0, 1)}
    return np.array(sorted(c for c in cols if 0 <= c < 12), dtype=np.intp)


# How players pile a tall point (and the renderer with them): over the five in a column, four over
# the gaps between them, then three, two and one (5+4+3+2+1 = 15). In half-checker steps from the
# first checker's centre, layer L holds the positions L, L+2, ..., 8-L.
_LAYERS = tuple(tuple(range(layer, 9 - layer, 2)) for layer in range(5))
# (stacks of five or fewer fill the even positions only)
# The ring score expected where no disc is centred, where the top disc is partly covered by a
# disc of the layer above beside it, and where it shows its whole outline.
_RING_NONE, _RING_PART, _RING_WHOLE = 0.35, 0.7, 0.95
# A pile is read only over a column of at least this many checkers (chain or colour run) ...
_PILE_BELOW = 4
# ... and only where its top checkers' rings are at least this complete on average.
_PILE_WHOLE = 0.8
# ... and where the column's first checker's ring is less complete than this (the pile's second
# layer covers part of it).
_PILE_BASE = 0.9
# A pile count is a candidate when its misfit is at most this many times the best count's.
_PILE_SLACK = 2.0


def _pyramid_rings(n: int) -> np.ndarray:
    """The ring score expected at the nine half-step positions of a pyramid of ``n`` (5-15)
    checkers: float (9,). A disc is covered where one drawn later stands at the same position and
    partly covered where one drawn later stands half a step away."""
    placed: list[int] = []
    for layer in _LAYERS if n > 5 else _LAYERS[:1]:
        for k in layer:
            if len(placed) < n:
                placed.append(k)
    out = np.full(9, _RING_NONE)
    for j, k in enumerate(placed):
        later = placed[j + 1 :]
        if k in later:
            continue
        out[k] = _RING_PART if (k - 1 in later or k + 1 in later) else _RING_WHOLE
    return out


_PYRAMIDS = {n: _pyramid_rings(n) for n in range(1, 16)}
# (the same expectations as one (15, 9) array, counts 1-15 in order, and for each pile over five the
# half-step positions where its rings are whole)
_PYRAMID_ROWS = np.stack(list(_PYRAMIDS.values()))
_PYRAMID_WHOLE = {n: np.flatnonzero(e == _RING_WHOLE) for n, e in _PYRAMIDS.items() if n > 5}
_HALF_STEPS = 0.5 * np.arange(9)


def _median_gap(column: list[float]) -> float:
    """``float(np.median(np.diff(column)))`` of a few floats, in Python (the middle gap, or the two
    middle ones' sum halved, as np.median takes them), without numpy's per-call overhead."""
    gaps = sorted(b - a for a, b in zip(column, column[1:], strict=False))
    n = len(gaps)
    return float(gaps[n // 2] if n % 2 else (gaps[n // 2 - 1] + gaps[n // 2]) / 2)


def _pyramid_fits(score: np.ndarray, depth: np.ndarray, column: list[float], d: float) -> dict[int, float]:
    """Each stack's misfit (sum of squares) to the ring scores (see :func:`_pyramid_count`): {count:
    error}, the piles over five left out where they cannot be (their top checkers not whole, or the
    column's first whole)."""
    return _pyramid_fits_many(score, depth, [column], d)[0]


def _pyramid_fits_many(score: np.ndarray, depth: np.ndarray, columns: Sequence[list[float]],
                       d: float) -> list[dict[int, float]]:
    """:func:`_pyramid_fits` of each of ``columns`` on one ring ``score``: the nine half-step
    positions of every column and start measured at once, the same values."""
    starts: list[tuple[int, float, float]] = []  # (column, first, step) of each start tried
    for m, column in enumerate(columns):
        step = _median_gap(column) if len(column) > 2 else d
        if not 0.7 * d <= step <= 1.3 * d:
            step = d
        # the first disc found may be the pile's lowest one, half a step beyond the column's first
        for i, first in enumerate((column[0], column[0] - 0.5 * step)):
            if not (i and first < 0.3 * d):
                starts.append((m, first, step))
    out: list[dict[int, float]] = [{} for _ in columns]
    if not starts:
        return out
    firsts = np.array([f for _, f, _ in starts])
    steps = np.array([st for _, _, st in starts])
    # the best score within tol of each of the nine half-step positions (0 where none lies)
    at = firsts[:, None] + _HALF_STEPS[None, :] * steps[:, None]  # (S, 9)
    near = np.abs(depth[None, None, :] - at[:, :, None]) <= (0.15 * steps)[:, None, None]  # (S, 9, D)
    best = np.where(near, score[None, None, :], -np.inf).max(axis=2)
    seen = np.where(near.any(axis=2), best, 0.0).astype(np.float64)
    # (each count's sum of squares along its row: the same sums as one count at a time)
    fits = ((seen[:, None, :] - _PYRAMID_ROWS[None]) ** 2).sum(axis=2).tolist()  # (S, 15)
    inf = np.inf
    for (m, _, _), row, errs_s in zip(starts, seen.tolist(), fits, strict=True):
        errs = out[m]
        for n, err in zip(_COLUMN_COUNTS, errs_s, strict=False):  # (counts 1-5: always read)
            errs[n] = min(errs.get(n, inf), err)
        if row[0] >= _PILE_BASE:
            continue  # the sixth checker lies over the first two: never whole
        for n, err in zip(_PILE_COUNTS, errs_s[5:], strict=True):
            if _mean(row, _WHOLE_AT[n]) < _PILE_WHOLE:
                continue  # a pile shows its top checkers whole, or it is not read as one
            errs[n] = min(errs.get(n, inf), err)
    return out


# (the counts of _PYRAMID_ROWS: a column's, then the piles over it)
_COLUMN_COUNTS, _PILE_COUNTS = tuple(range(1, 6)), tuple(range(6, 16))


# (_PYRAMID_WHOLE's positions as tuples of ints, for _mean)
_WHOLE_AT = {n: tuple(int(k) for k in at) for n, at in _PYRAMID_WHOLE.items()}


def _mean(values: list[float], at: tuple[int, ...]) -> float:
    """``float(np.mean(np.array(values)[list(at)]))`` for fewer than 8 places, in Python: numpy adds
    so few elements in order from 0, then divides by their number (more: numpy's pairwise sum)."""
    if len(at) >= 8:
        return float(np.mean(np.array(values)[list(at)]))
    total = 0.0
    for k in at:
        total += values[k]
    return total / len(at)


def _pyramid_count(score: np.ndarray, depth: np.ndarray, column: list[float], d: float) -> int:
    """The number of checkers (1-15) of a stack whose first checkers stand in a column at depths
    ``column`` (rectified pixels from the base; at least the first), from the ring ``score`` along
    its axis (float (D,) at ``depth``): the stack -- a column of up to five, or a pyramid over five
    (see ``_LAYERS``) -- whose expected outlines match the ring scores at the nine half-step
    positions best (least squares). ``d``: a checker's diameter, the step when the column shows
    fewer than three checkers."""
    errs = _pyramid_fits(score, depth, column, d)
    if not errs:
        return len(column)
    return min(errs, key=lambda n: (errs[n], n))


def _pile_candidates(score: np.ndarray, depth: np.ndarray, column: list[float], d: float,
                     errs: dict[int, float] | None = None) -> tuple[int, ...]:
    """The piles over five (counts, best fit first) that fit the ring scores on ``column`` within
    ``_PILE_SLACK`` of the best fit of all counts, when a pile fits best: the layers' rings differ
    little from one count to the next, so a pile's own evidence names a few counts, not one.
    ``errs``: the column's :func:`_pyramid_fits`, when already known."""
    if errs is None:
        errs = _pyramid_fits(score, depth, column, d)
    if not errs:
        return ()
    best = min(errs.values())
    if min(errs, key=lambda n: (errs[n], n)) <= 5:
        return ()
    return tuple(sorted((n for n, e in errs.items() if n > 5 and e <= _PILE_SLACK * best + 1e-9),
                        key=lambda n: (errs[n], n)))


def _gap_bare(lab: np.ndarray, pair: list[tuple[float, float]], colour: tuple[float, ...],
              bare: np.ndarray, r: float) -> bool:
    """True when a notch beside the gap between a column's first two checkers (``pair``, their
    centres) shows the bare board: the sixth checker of a pile rests over that gap and covers both
    notches, so a column with a bare notch holds no pile, whatever its rings say (shiny or embossed
    checkers show ring edges between their centres). ``bare``: float (K, 3) Lab colours of the bare
    board there; a notch is bare when unlike ``colour`` by ``_BARE_DELTA`` and nearer one of them
    (a checker of the point's own colour leaves the question open: False)."""
    if len(pair) < 2:
        return False
    height, width = lab.shape[:2]
    (x0, y0), (x1, y1) = pair
    mx, my = 0.5 * (x0 + x1), 0.5 * (y0 + y1)
    k = max(1, int(round(0.15 * r)))
    for side in (-1.0, 1.0):
        x = int(round(np.clip(mx + side * 0.75 * r, 0, width - 1)))
        y = int(round(np.clip(my, 0, height - 1)))
        notch = median(lab[max(0, y - k) : y + k + 1, max(0, x - k) : x + k + 1].reshape(-1, 3), 0)
        to_stack = float(np.linalg.norm(notch - np.array(colour, np.float32)))
        to_bare = float(np.linalg.norm(bare - notch, axis=1).min())
        if to_stack > _BARE_DELTA and to_stack > to_bare:
            return True
    return False


def _distinct(colour: tuple[float, float, float], bare: np.ndarray) -> bool:
    """True when a stack's colour is clearly unlike both bare point colours (float (2, 3))."""
    return bool(np.linalg.norm(bare - np.array(colour, dtype=np.float32), axis=1).min() > _BARE_DELTA)


def _colour_run(lab: np.ndarray, centres: list[tuple[float, float]], colour: tuple[float, float, float],
                bare: np.ndarray, r: float, top: bool) -> float:
    """Length (pixels, from the first checker's outer edge) of the stack measured in its own colour
    along its axis; gaps shorter than a third of a checker are bridged."""
    height, width = lab.shape[:2]
    across = sorted(c[0] for c in centres)  # (their median, as np.median takes it)
    n = len(across)
    x = int(round(across[n // 2] if n % 2 else (across[n // 2 - 1] + across[n // 2]) / 2))
    half = max(1, int(0.3 * r))
    y0 = centres[0][1]
    start = y0 - r if top else y0 + r
    mid = height // 2
    ys = np.arange(int(round(y0)), mid) if top else np.arange(int(round(y0)), mid, -1)
    # (the profile of the rows walked alone, each row's median its own; all rows should a walk
    # start outside the view)
    first, last = (int(ys.min()), int(ys.max()) + 1) if ys.size and ys.min() >= 0 else (0, height)
    band = lab[first:last, max(0, x - half) : min(width, x + half + 1)]
    prof = median(band, 1)  # (rows, 3), row 0 at ``first``
    dist = channel_norm(prof - np.array(colour, dtype=np.float32))
    d_bare = channel_norm(prof[:, None, :] - bare[None, :, :]).min(axis=1)
    match = (dist < _BARE_DELTA) & (dist < 0.5 * d_bare)
    gap_max = int(0.35 * 2 * r)
    end = y0
    gap = 0
    # past a bridged gap, the colour must show on at least as many rows as a gap may be long before
    # it counts: the next checker's body does, a sliver of shadow beyond the last checker's rim does
    # not. The rows are summed over further bridged gaps: a tall pile's overlapping layers each show
    # a band narrower than a gap, one after another
    counted, shown = True, 0  # (the stretch from the first checker on counts from its first row)
    matched = match.tolist()  # (the walk over Python bools and ints: numpy's scalars cost more)
    for y in ys.tolist():
        if matched[y - first]:
            if gap and counted:
                counted, shown = False, 0
            shown += 1
            counted = counted or shown > gap_max
            if counted:
                end = float(y)
            gap = 0
        else:
            gap += 1
            if gap > gap_max:
                break
    return abs(end - start) + 1.0


def _bases(lab: np.ndarray, geom: BoardGeometry) -> dict[bool, float]:
    """The rows (rectified pixels) where the top and bottom rows of triangles begin.

    The field finder places them to a few pixels; here, at full resolution, the base is the first
    row from the edge where adjacent points' colours differ (a frame is uniform, triangles alternate).
    Each pair of adjacent points is judged on its own (:func:`_walk_to_base`) and the median of the
    pairs that show their base is taken: a row of one colour's checkers along the bases (a prime, a
    bear-off) hides the alternation of the pairs it covers, and a median over all pairs row by row
    then puts the base on the checkers, a third of a checker in (the first checker before it, so
    not counted). Within 0.4 point widths of the field's edge; {True: top row's base y, False:
    bottom row's}.
    """
    height = lab.shape[0]
    reach = int(0.4 * POINT_PX)
    out = {True: 0.0, False: float(height - 1)}
    near = reach + POINT_PX  # the rows from each edge that the base is judged on
    if height > 2 * near:
        # (each edge's rows alone: every value as measured over the whole field, row by row)
        top, bottom = _alternation(lab[:near], geom), _alternation(lab[height - near :], geom)
    else:
        top = bottom = _alternation(lab, geom)
    diffs, alt, plain = top
    inner_t = float(median(alt[reach : reach + POINT_PX], 0))
    if inner_t > 10:
        out[True] = float(_pairs_base(diffs[: reach + 1] >= 0.5 * inner_t, plain[: reach + 1]))
    diffs, alt, plain = bottom
    rows = len(alt)  # the bottom edge's rows, the field's last at rows - 1
    inner_b = float(median(alt[rows - reach - POINT_PX : rows - reach], 0))
    if inner_b > 10:
        band = slice(rows - 1 - reach, None)
        out[False] = float(height - 1 - _pairs_base(diffs[band][::-1] >= 0.5 * inner_b, plain[band][::-1]))
    return out


def _alternation(lab: np.ndarray, geom: BoardGeometry) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Row by row of ``lab`` (rows of the rectified field, all of its width): the colour differences
    of adjacent points on their axes (float (H, 11)), their median (H,), and whether the row is
    ``plain`` (bool (H,)): a frame is uniform along its length, so on a point's axis the colour is
    the one between it and the next point (along a row of checkers the triangles show between the
    discs)."""
    xs = np.clip(np.rint(geom.columns).astype(np.intp), 0, lab.shape[1] - 1)
    v = lab[:, xs]
    diffs = channel_norm(v[:, 1:] - v[:, :-1])  # (H, 11)
    cols = np.asarray(geom.columns)
    mids = np.clip(np.rint(0.5 * (cols[1:] + cols[:-1])).astype(np.intp), 0, lab.shape[1] - 1)
    plain = median(channel_norm(lab[:, mids] - lab[:, xs[:-1]]), 1) < _BARE_DELTA
    return diffs, median(diffs, 1), plain


def _pairs_base(alternates: np.ndarray, plain: np.ndarray) -> float:
    """The base's distance (rows) from the field's edge: the median over the pairs of adjacent
    points that show one (:func:`_walk_to_base`; ``alternates`` bool (reach + 1, pairs), row 0 at
    the edge). When none does, the band is either frame -- ``plain`` (bool (reach + 1,), uniform
    along the row) on most rows: the field's side lies in the frame at least ``reach`` rows out,
    and the base is ``reach`` in -- or a row of checkers over every point, standing on the edge."""
    walked = (_walk_to_base(alternates[:, j]) for j in range(alternates.shape[1]))
    found = [b for b in walked if b is not None]
    if found:
        return float(np.median(found))
    return float(alternates.shape[0] - 1) if float(plain.mean()) > 0.5 else 0.0


def _walk_to_base(alternates: np.ndarray) -> int | None:
    """The base's distance (rows) from the field's edge for one pair of adjacent points, given
    whether the pair's colours differ on each row from the edge (index 0) to ``reach`` (the last),
    bool (reach + 1,).

    From ``reach`` inward of the edge, the base is where the difference stops toward the edge.
    Where the pair is alike at ``reach`` (checkers of one colour on both points), the base is the
    first row from the edge where they differ (the triangles' corners beside the checkers' rims),
    and None where they never do (the checkers hide this pair's base).
    """
    reach = alternates.size - 1
    if alternates[reach]:
        y = reach
        while y > 0 and alternates[y - 1]:
            y -= 1
        return y
    shown = np.flatnonzero(alternates)
    return int(shown[0]) if shown.size else None


def _suppress_neighbours(score: np.ndarray, xbest: np.ndarray, d: float, step: float) -> np.ndarray:
    """Zero a column's disc where the next column holds a better disc overlapping it: a checker
    placed off-centre belongs to one point only. ``score``, ``xbest``: (12, D)."""
    out = score.copy()
    k = max(1, int(round(0.3 * d / step)))
    peak = _wrapped_peak(score, k)
    close = np.abs(xbest[1:] - xbest[:-1]) < 0.6 * d  # (11, D): each column and the next
    out[:-1][close & (peak[1:] > score[:-1])] = 0.0  # under the next column's better disc
    out[1:][close & (peak[:-1] > score[1:])] = 0.0  # under the one before's
    return out


def _wrapped_peak(score: np.ndarray, k: int) -> np.ndarray:
    """The maximum of ``np.roll(score, s, axis=1)`` over ``s`` in ``[-k, k]`` (each depth's best
    within ``k`` either way, wrapping round the axis), the same values: windows of one array padded
    by its wrapped ends, combined in doubling spans (a maximum's value does not depend on its
    order), a few passes instead of ``2k + 1`` rolled copies."""
    n = score.shape[1]
    if n == 0:
        return score.copy()
    idx = np.arange(-k, n + k) % n  # (the padded axis: position m holds score[(m - k) mod n])
    padded = score[:, idx]
    width, span = 2 * k + 1, 1  # padded[:, m : m + span].max(1) held at m, for the span reached
    while 2 * span <= width:
        padded = np.maximum(padded[:, :-span], padded[:, span:])
        span *= 2
    # two spans of the largest power of two within the window cover it (they overlap)
    return np.maximum(padded[:, :n], padded[:, width - span : width - span + n])


def _tip_bands(height: int) -> dict[bool, tuple[int, int]]:
    """The rows near the points' tips (top row?: (first, end)) where :func:`_tips` measures them."""
    return {True: (int(0.22 * height), int(0.36 * height)),
            False: (height - int(0.36 * height), height - int(0.22 * height))}


def _tips(lab: np.ndarray, geom: BoardGeometry, again: Sequence[np.ndarray],
          kept: np.ndarray | None) -> np.ndarray:
    """Each point's colour near its tip, float64 (2, 12, 3), top row first: its median over a strip
    5 pixels wide along its axis (:func:`_bare_lights`). ``kept``: an earlier frame's, taken but for
    the columns ``again`` (int arrays, one a row) measured again (None: all measured)."""
    height, width = lab.shape[:2]
    bands = _tip_bands(height)
    cols = np.asarray(geom.columns, dtype=np.float64)
    xi = np.clip(np.rint(cols).astype(np.intp)[:, None] + np.arange(-2, 3), 0, width - 1)  # (12, 5)
    tip = np.empty((2, cols.size, 3)) if kept is None else kept.copy()
    for row, top in enumerate((True, False)):
        cs = again[row] if kept is not None else np.arange(cols.size)
        if cs.size:
            strip = lab[bands[top][0] : bands[top][1]][:, xi[cs]].swapaxes(0, 1)
            tip[row, cs] = median(strip.reshape(cs.size, -1, 3), 1)
    return tip


def _bare_lights(lab: np.ndarray, geom: BoardGeometry, tip: np.ndarray,
                 kept: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Each bare triangle colour as the light falls on it: float (2, 2, 5), per row (top first) and
    parity, each
    ``(L0, Lx, Ly, a, b)`` -- Lab lightness ``L0 + Lx * x / W + Ly * y / H`` at rectified pixel
    (x, y) of a field W x H, and a constant a, b (see :func:`_lit`).

    A point's colour is the median along its axis near the tip (where stacks rarely reach). A
    triangle colour is on twelve points: one parity of a row and the other parity of the other row
    (a point and the one opposite carry the two colours), so a row whose points of one parity
    mostly hold stacks of three or more (a prime, a build-up: their checkers show at the tips)
    still shows it on the other row. A lamp to one side or a camera's vignette lights one end of a
    board darker than the other (seen on renders: light paper points at L 185 on the left, 239 on
    the right): a bare point compared with its colour's one consensus over the board read as a
    checker of its own. So the lightness is fitted as a plane over the board, the chroma kept
    constant (light changes lightness far more than hue): RANSAC over every three of the twelve
    samples that span both rows (Fischler & Bolles 1981), the plane within ``0.5 * _BARE_DELTA`` of
    most samples wins (ties: the closer fit), refitted by least squares on those. With fewer than
    three samples on any plane the colour's :func:`_consensus` is used everywhere, unlit.

    ``tip``: the points' colours near their tips (:func:`_tips`); ``kept``: an earlier frame's tips
    and lights, whose plane is taken for a colour whose samples are the same.
    """
    height, width = lab.shape[:2]
    bands = _tip_bands(height)
    cols = np.asarray(geom.columns, dtype=np.float64)
    out = np.zeros((2, 2, 5))
    for parity in (0, 1):
        # the colour of the top row's points of this parity (and the bottom row's of the other)
        samples = np.concatenate([tip[0, parity::2], tip[1, 1 - parity :: 2]])  # (12, 3)
        if kept is not None and np.array_equal(
                samples, np.concatenate([kept[0][0, parity::2], kept[0][1, 1 - parity :: 2]])):
            out[0, parity] = out[1, 1 - parity] = kept[1][0, parity]  # the same samples: the same plane
            continue
        xs = np.concatenate([cols[parity::2], cols[1 - parity :: 2]]) / width
        ys = np.repeat([0.5 * sum(bands[True]), 0.5 * sum(bands[False])], 6) / height
        out[0, parity] = out[1, 1 - parity] = _plane(samples, xs, ys)
    return out


def _plane(samples: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """``(L0, Lx, Ly, a, b)`` of the plane most of ``samples`` (float (K, 3) Lab at ``xs, ys``,
    fractions of the field's size, float (K,)) lie on (:func:`_bare_lights`)."""
    design = np.stack([np.ones_like(xs), xs, ys], axis=1)  # (K, 3)
    trios = _trios(len(xs))  # (T, 3)
    # (all three on one row: the plane's tilt across the board is not given)
    ok = _trios_spanning(xs.tobytes(), ys.tobytes(), xs.dtype.str, ys.dtype.str).copy()
    chroma = samples[trios, 1:].mean(axis=1)  # (T, 2)
    ok &= np.linalg.norm(samples[trios, 1:] - chroma[:, None], axis=2).max(axis=1) <= 0.5 * _BARE_DELTA
    keep: np.ndarray | None = None
    best = 0
    if ok.any():
        trios, chroma = trios[ok], chroma[ok]
        coef = np.linalg.solve(design[trios], samples[trios, 0][..., None])[..., 0]  # (T, 3)
        resid = np.hypot(samples[None, :, 0] - coef @ design.T,
                         np.linalg.norm(samples[None, :, 1:] - chroma[:, None], axis=2))  # (T, K)
        inl = resid < 0.5 * _BARE_DELTA
        count = inl.sum(axis=1)
        # most samples on it, then the closest fit
        win = int(np.lexsort(((resid * inl).sum(axis=1), -count))[0])
        keep, best = inl[win], int(count[win])
    if keep is None or best < 3:
        c = _consensus(samples[None].astype(np.float32))[0]
        return np.array([c[0], 0.0, 0.0, c[1], c[2]])
    if np.ptp(ys[keep]) == 0:
        # the samples on it lie on one row: no tilt across the board is seen, none is assumed
        lx, l0 = np.polyfit(xs[keep], samples[keep, 0], 1)
        coef = np.array([l0, lx, 0.0])
    else:
        coef = np.linalg.lstsq(design[keep], samples[keep, 0], rcond=None)[0]
    return np.concatenate([coef, samples[keep, 1:].mean(axis=0)])


@functools.lru_cache(maxsize=8)
def _trios_spanning(xs: bytes, ys: bytes, x_type: str, y_type: str) -> np.ndarray:
    """Which of :func:`_trios` span a plane (bool (T,)): not all on one row, not on one line -- of
    the sample places alone (``xs, ys`` as bytes of arrays of dtypes ``x_type, y_type``), which a
    calibrated camera's frames share, so kept."""
    x, y = np.frombuffer(xs, x_type), np.frombuffer(ys, y_type)
    design = np.stack([np.ones_like(x), x, y], axis=1)
    trios = _trios(len(x))
    ok = (np.ptp(y[trios], axis=1) > 0) & (np.abs(np.linalg.det(design[trios])) > 1e-9)
    ok.flags.writeable = False
    return ok


@functools.cache
def _trios(k: int) -> np.ndarray:
    """Every three of ``k`` indices, int (k choose 3, 3)."""
    return np.array(list(itertools.combinations(range(k), 3)), dtype=np.intp)


def _lit(light: np.ndarray, x: np.ndarray, y: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The colour ``light`` (``(L0, Lx, Ly, a, b)``, :func:`_bare_lights`) at rectified pixels
    ``x, y`` (float arrays of one shape, (...)) of a field of ``shape`` (H, W, ...): float32 (..., 3)."""
    height, width = shape[:2]
    x, y = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(y, np.float64))
    lum = light[0] + light[1] * x / width + light[2] * y / height
    out = np.stack([lum, np.full_like(lum, light[3]), np.full_like(lum, light[4])], axis=-1)
    return out.astype(np.float32)


def _light_at(planes: np.ndarray, xy: tuple[float, float], shape: tuple[int, ...]) -> float:
    """How brightly the field is lit at rectified ``xy``: each triangle colour's lightness there
    (``planes``: :func:`_bare_lights` of one row, (2, 5)) over its mean across the field, averaged
    over the two colours (a lamp to one side scales every colour alike); 1 where unknown."""
    height, width = shape[:2]
    ratios = []
    # (plain floats: the same double arithmetic as numpy's scalars, without their overhead)
    for l0, lx, ly in planes[:, :3].tolist():
        here, mean = l0 + lx * xy[0] / width + ly * xy[1] / height, l0 + 0.5 * (lx + ly)
        if here > 1.0 and mean > 1.0:
            ratios.append(here / mean)
    return min(max(sum(ratios) / len(ratios), 0.5), 2.0) if ratios else 1.0


def _field_colour(lab: np.ndarray, geom: BoardGeometry) -> np.ndarray:
    """The field's own colour, float (3,) Lab: between neighbouring points, near the middle."""
    height, width = lab.shape[:2]
    cols = np.asarray(geom.columns)
    xs = np.clip(np.rint(0.5 * (cols[1:] + cols[:-1])).astype(np.intp), 0, width - 1)
    ys = np.clip(np.rint(np.array([0.42, 0.46, 0.54, 0.58]) * height).astype(np.intp), 0, height - 1)
    samples = lab[ys[:, None], xs[None, :]].reshape(-1, 3)
    return _consensus(samples[None])[0]


def _field_beside(lab: np.ndarray, geom: BoardGeometry, top: bool) -> np.ndarray:
    """The field's colour on each point's axis of one row near the field's middle, float (12, 3) Lab,
    where no stack but one of seven or more reaches. Light falls unevenly on a field (the bar's
    shadow over the points beside it): a stack may be the colour of the field beyond its point's
    tip and unlike the field's colour elsewhere."""
    height, width = lab.shape[:2]
    ys = np.array([0.44, 0.47]) if top else np.array([0.53, 0.56])
    yi = np.clip(np.rint(ys * height).astype(np.intp), 0, height - 1)
    cols = np.asarray(geom.columns)
    xs = cols[:, None] + np.array([-0.15, 0.0, 0.15]) * POINT_PX
    xi = np.clip(np.rint(xs).astype(np.intp), 0, width - 1)
    samples = lab[yi[None, :, None], xi[:, None, :]].reshape(12, -1, 3)  # (12, 6, 3)
    return np.median(samples, axis=1)


def _consensus(samples: np.ndarray) -> np.ndarray:
    """The colour most of the samples agree on: float (..., 3) from (..., K, 3).

    Unlike a per-channel median, a group of two or three identical bare points beats a mix of
    red and green stacks: the sample whose nearest half of the others is closest is taken, and the
    samples near it are averaged.
    """
    k = samples.shape[-2]
    kth = max(1, k // 2 - 1)
    if k > _SELECT_MAX or samples.size < _SELECT_ROWS * 3 * k:
        dist = channel_norm(samples[..., :, None, :] - samples[..., None, :, :])  # (..., K, K)
        near = np.partition(dist, kth, axis=-1)[..., kth]  # (..., K): the sorted distances' kth
    else:
        near = _kth_distance(samples, kth)
    best = np.take_along_axis(samples, near.argmin(axis=-1)[..., None, None], axis=-2)  # (..., 1, 3)
    close = channel_norm(samples - best) < 0.5 * _BARE_DELTA  # (..., K)
    w = close[..., None].astype(np.float32)
    return (samples * w).sum(axis=-2) / np.maximum(w.sum(axis=-2), 1.0)


# _consensus selects each sample's kth distance by a network of minima and maxima (the same value
# as a partition's) for sets of at most this many samples ...
_SELECT_MAX = 16
# ... of at least this many sets (a partition's cost is per set, the network's per operation)
_SELECT_ROWS = 64


def _kth_distance(samples: np.ndarray, kth: int) -> np.ndarray:
    """Each sample's ``kth`` smallest distance (from 0) to the samples of its set (itself too, 0):
    float (..., K) from (..., K, 3), the values of ``np.partition(channel_norm(s[..., :, None, :] -
    s[..., None, :, :]), kth, axis=-1)[..., kth]``. The distances are made channel by channel, each
    other sample's to all of the set's as one contiguous plane (the same differences, squares and
    sums in the same order), and the kth taken over the planes by :func:`vision.selection.select_network`."""
    k = samples.shape[-2]
    sq = None
    for c in range(3):
        ch = np.ascontiguousarray(samples[..., c])  # (..., K)
        # [j, ..., i]: sample i's difference from sample j, as the partition's dist[..., i, j]
        diff = ch[None] - np.moveaxis(ch, -1, 0)[..., None]
        diff *= diff
        if sq is None:
            sq = diff
        else:
            sq += diff
    assert sq is not None
    planes = list(np.sqrt(sq, out=sq))
    return run_network(planes, select_network(k, kth))[kth]


def _disc_colours(lab: np.ndarray, cx: np.ndarray, cy: np.ndarray, k: int) -> np.ndarray:
    """Median Lab colour within ``k`` pixels of each centre, float (..., 3) for centres of shape (...).
    (The readers take it from a view's bytes, :func:`_disc_colours_words`: the same values.)

    The median of a 5x5 grid of samples, not the mean: a disc near the base must not take the
    frame's colour. (A sparse grid instead of a median filter over the whole image: 20x faster.)
    """
    h, w = lab.shape[:2]
    off = np.linspace(-k, k, 5)
    ox, oy = np.meshgrid(off, off)
    xi = np.clip(np.rint(np.asarray(cx)[..., None] + ox.ravel()), 0, w - 1).astype(np.intp)
    yi = np.clip(np.rint(np.asarray(cy)[..., None] + oy.ravel()), 0, h - 1).astype(np.intp)
    # the 13th of 25 samples by partition: np.median's own checks cost more than the sort here.
    # Gathered as whole pixels, then channel first, (..., 3, 25): a partition along the last,
    # contiguous axis is several times faster than along the one before it
    pixels = np.ascontiguousarray(lab).reshape(-1, 3).take(yi * w + xi, axis=0)  # (..., 25, 3)
    samples = np.ascontiguousarray(pixels.swapaxes(-1, -2))
    return np.partition(samples, 12, axis=-1)[..., 12]


def _disc_colours_words(words: np.ndarray, cx: np.ndarray, cy: np.ndarray, k: int) -> np.ndarray:
    """:func:`_disc_colours` of a view's Lab, from its :attr:`~vision.board.view.FieldView.lab_words`:
    the same float32 (..., 3) values (the median of 25 whole numbers is one of them).

    Each centre's 25 samples are gathered as whole pixels, a word each, into 25 planes of the
    centres (sample first); their middle is taken by ``_MEDIAN_25``, element-wise minima and
    maxima over the planes' bytes: all three channels at once, each operation over every centre
    (a partition works centre by centre, channel by channel)."""
    h, w = words.shape
    off = np.linspace(-k, k, 5)
    cx, cy = np.asarray(cx), np.asarray(cy)
    nd = max(cx.ndim, cy.ndim)
    cx, cy = cx.reshape((1,) * (nd - cx.ndim) + cx.shape), cy.reshape((1,) * (nd - cy.ndim) + cy.shape)
    at = (5,) + (1,) * nd
    # (the grid's five columns and five rows rounded alone, then combined: sample 5 i + j of the
    # 25 (np.meshgrid's order) at row i, column j, the same indices as each sample rounded alone)
    xi = np.clip(np.rint(cx[None] + off.reshape(at)), 0, w - 1).astype(np.intp)
    yi = np.clip(np.rint(cy[None] + off.reshape(at)), 0, h - 1).astype(np.intp)
    yi *= w
    grid = np.add(yi[:, None], xi[None])  # (5, 5, ...)
    flat = grid.reshape(25, *grid.shape[2:])  # (25, ...)
    # (every index lies in the view: "wrap" takes the same pixels, faster than the checked default)
    planes = list(words.ravel().take(flat, mode="wrap").view(np.uint8).reshape(*flat.shape, 4))
    return run_network(planes, _MEDIAN_25)[12][..., :3].astype(np.float32)


# (checked on every 0-1 input, which proves it for every input: tests/vision/test_selection.py)
_MEDIAN_25 = median_network(25)


def _stack_colour(lab: np.ndarray, centres: list[tuple[float, float]], r: float) -> tuple[float, ...]:
    k = max(2, int(0.45 * r))
    samples = []
    for x, y in centres:
        xi, yi = int(round(x)), int(round(y))
        samples.append(lab[max(0, yi - k) : yi + k + 1, max(0, xi - k) : xi + k + 1].reshape(-1, 3))
    med = median(np.concatenate(samples), 0)
    return (float(med[0]), float(med[1]), float(med[2]))


# The seed of the colour split's k-means++ starts (any fixed value: the split is then repeatable).
_SPLIT_SEED = 14


def _raw_colour(s: StackReading) -> np.ndarray:
    """A stack's colour (Lab, float32 (3,)) as the frame shows it."""
    return np.array(s.colour_lab, np.float32)


def _lit_colour(s: StackReading) -> np.ndarray:
    """A stack's colour (Lab, float32 (3,)) as it would look in the field's average light."""
    assert s.colour_lab is not None
    return np.array([s.colour_lab[0] / s.light, s.colour_lab[1], s.colour_lab[2]], np.float32)


def name_colours(stacks: list[StackReading]) -> list[str | None]:
    """``light``/``dark`` for each stack (None when empty), by 2-means on the stacks' Lab colours,
    lightness at ``_NAME_WEIGHT``: light falls unevenly (and a glossy or metallic checker's
    lightness swings with it, a gold one from shadow to glare) far more than its hue does."""
    cols = np.array([_lit_colour(s) for s in stacks if s.colour_lab is not None], dtype=np.float32)
    names: list[str | None] = [None] * len(stacks)
    if cols.size == 0:
        return names
    cols = cols * _NAME_WEIGHT
    if len(cols) == 1:
        centres = np.stack([cols[0], cols[0]])
    else:
        crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
        # k-means++ seeds from OpenCV's global generator: seeded here, a reading does not depend on
        # how many splits ran before it in the process
        cv2.setRNGSeed(_SPLIT_SEED)
        _, _, centres = cv2.kmeans(cols, 2, None, crit, 3, cv2.KMEANS_PP_CENTERS)
    if np.linalg.norm((centres[0] - centres[1]) / _NAME_WEIGHT) < _SAME_COLOUR:
        one = LIGHT if float(centres.mean(axis=0)[0] / _NAME_WEIGHT[0]) >= 128 else DARK
        return [one if s.colour_lab is not None else None for s in stacks]
    light = int(np.argmax(centres[:, 0]))
    for i, col in zip([i for i, s in enumerate(stacks) if s.colour_lab is not None], cols, strict=True):
        names[i] = LIGHT if int(np.argmin(np.linalg.norm(centres - col, axis=1))) == light else DARK
    return names


def find_bar_checkers(rectified: np.ndarray | FieldView, geom: BoardGeometry, radius: float,
                      stacks: list[StackReading] | None = None) -> list[StackReading]:
    """Checkers on the bar of a board that has one (RULES.md: a hit checker waits on the bar).

    Discs of the board's checker ``radius`` are searched along the bar's centre line over the whole
    height (ring score, as for the points); a disc counts when its ring is complete or its inside
    differs from the bar's own colour -- and, when ``stacks`` (the points' stacks) are given, its
    colour is one of the checker colours seen on the points (hinges and logos are not) -- and its
    outline is not a square's (a die lying on the bar, the cube: :func:`_outline_fits`). Each checker
    is one :class:`StackReading` with ``column``
    -1, ``count`` 1 and ``top`` telling which half of the bar it lies in. [] without a bar.
    """
    if geom.bar is None or radius <= 0:
        return []
    view = FieldView.of(rectified, geom)
    lab = view.lab
    gx, gy = view.gradients
    height, width = lab.shape[:2]
    x_mid = 0.5 * (geom.bar[0] + geom.bar[1])
    ys = np.arange(radius, height - radius, 2.0)
    xs = x_mid + np.arange(-0.5, 0.51, 0.25) * radius
    cyg, cxg = np.meshgrid(ys, xs, indexing="ij")
    # the rings at both edges at once: the weak one is read at each row's best centre (below; the
    # same samples as a ring of its own there)
    score, weak_all = _ring_scores_judged(gx, gy, cxg, cyg, radius, ((_EDGE, False), (_EDGE_WEAK, False)))
    arg = score.argmax(axis=1)[:, None]  # (Y, X) scores
    best_x = np.take_along_axis(cxg, arg, axis=1)[:, 0]
    score = score.max(axis=1)
    k = max(1, int(round(0.5 * radius)))
    xb = int(round(np.clip(x_mid, 0, width - 1)))
    bar_colour = median(lab[:, max(0, xb - 1) : xb + 2].reshape(-1, 3), 0)
    inside = _disc_colours_words(view.lab_words, best_x, ys, k)
    differs = channel_norm(inside - bar_colour) > _BARE_DELTA
    # a checker of the bar's own colour (black on a tournament board's black bar) shows only its rim
    # and shading: judged on the weaker-edge ring, which must then be near complete (the bar's straight
    # edges touch a ring centred on it at two sides only, whatever the threshold)
    weak = np.take_along_axis(weak_all, arg, axis=1)[:, 0]
    # the bar carries hinges, logos and its own edges: only clear, complete discs count
    usable = np.where(differs, np.where(score >= _BAR_RING, score, 0.0),
                      np.where(weak >= _RING_STRONG, weak, 0.0))
    known = np.array([st.colour_lab for st in stacks or [] if st.colour_lab is not None], np.float32)
    out: list[StackReading] = []
    order = np.argsort(-usable)
    taken: list[float] = []
    for i in order:
        if usable[i] <= 0.0:
            break
        if any(abs(ys[i] - t) < 1.6 * radius for t in taken):
            continue
        centre = (float(best_x[i]), float(ys[i]))
        colour = _stack_colour(lab, [centre], radius)
        if known.size and np.linalg.norm(known - np.array(colour, np.float32), axis=1).min() > _BARE_DELTA:
            continue
        # a die (or the cube) on the bar also closes a ring; its outline is a square. (A die of the
        # bar's own colour shows no outline to judge: the weak-edge ring stands.)
        if differs[i]:
            inner = (geom.bar[0] + 0.2 * radius, geom.bar[1] - 0.2 * radius)
            square, circle = _outline_fits(gx, gy, centre, radius, inner)
            if square >= circle + _SQUARE_BETTER:
                continue
        taken.append(float(ys[i]))
        top = bool(ys[i] < 0.5 * height)
        out.append(StackReading(-1, top, 1, colour, float(usable[i]), (centre,), radius))
    return out


def _outline_fits(gx: np.ndarray, gy: np.ndarray, centre: tuple[float, float], r: float,
                  x_range: tuple[float, float]) -> tuple[float, float]:
    """How well a square's and a circle's outline explain the edges round ``centre``: (square, circle),
    each the best fraction (0-1) of its outline samples that are edges along the outline's normal.

    ``gx, gy``: float32 (H, W) colour gradient (:attr:`FieldView.gradients`); ``r``: the checker
    radius (pixels). The circle has radius ``r``; the squares have the half-sides ``_SQUARE_HALF``
    (times ``r``) at 6 turns 15 deg apart (a side within 7.5 deg of one, inside the samples' 20 deg). Both
    are tried at centres within 0.2 ``r`` of ``centre`` (a ring's best centre on a die need not be
    the die's): the circle on a 5x5 grid, the squares on 3x3. Samples outside ``x_range`` (the bar's
    inside: its own straight edges would pass for a square's sides) are not counted; an outline with
    fewer than half of its samples inside scores 0. A model-selection form of the ring score (Duda &
    Hart 1972): the disc's outline and the square's compete for the same edges. About 1 ms a call;
    most checkers' circles leave no room for a better square and return without trying one.
    """
    h, w = gx.shape[:2]
    gxf, gyf = np.ascontiguousarray(gx).ravel(), np.ascontiguousarray(gy).ravel()

    def centres(n: int) -> tuple[np.ndarray, np.ndarray]:
        # (S,) x and y of an n x n grid of centres within 0.2 r of ``centre``
        shift = np.linspace(-0.2, 0.2, n) * r
        return np.repeat(centre[0] + shift, n), np.tile(centre[1] + shift, n)

    def fraction(px: np.ndarray, py: np.ndarray, nx: np.ndarray, ny: np.ndarray, at: np.ndarray,
                 axis: tuple[int, ...]) -> np.ndarray:
        # px, py: (..., 2) samples just inside and just outside the outline; nx, ny its normal
        xi = np.clip(np.rint(px), 0, w - 1).astype(np.intp)
        yi = np.clip(np.rint(py), 0, h - 1).astype(np.intp)
        # (the samples gathered at flat indices, all inside: "wrap" takes the same values as
        # gx[yi, xi], several times faster than numpy's 2-D fancy index)
        flat = yi * w + xi
        g1, g2 = gxf.take(flat, mode="wrap"), gyf.take(flat, mode="wrap")
        nor = np.abs(g1 * nx + g2 * ny)
        tan = np.abs(g2 * nx - g1 * ny)
        edge = (nor > _EDGE) & (nor > _NORMAL_RATIO * tan)
        hit = edge[..., 0] | edge[..., 1]  # either of the two samples
        shown = (at >= x_range[0]) & (at <= x_range[1]) & (py[..., 0] >= 0) & (py[..., 0] <= h - 1)
        # (the counts over the trailing ``axis``, as one flat axis: numpy's sum over short axes is slow)
        flat = shown.shape[: -len(axis)] + (-1,)
        n = _count_true(shown.reshape(flat))
        frac = _count_true((hit & shown).reshape(flat)) / np.maximum(n, 1)
        return np.where(n >= 0.5 * np.prod([hit.shape[a] for a in axis]), frac, 0.0)

    off = np.array([-1.0, 0.5], np.float32)  # as ring_scores: either side of a blurred edge
    ang = np.linspace(0, 2 * np.pi, _RING_N, endpoint=False)
    ca, sa = np.cos(ang)[None, :, None], np.sin(ang)[None, :, None]
    cx, cy = centres(5)
    px = cx[:, None, None] + (r + off) * ca  # (S, N, 2)
    py = cy[:, None, None] + (r + off) * sa
    circle = float(fraction(px, py, ca, sa, cx[:, None] + r * ca[..., 0], (1,)).max())
    if circle + _SQUARE_BETTER > 1.0:  # no square can explain clearly more
        return 0.0, circle

    turn = np.deg2rad(np.arange(0.0, 90.0, 15.0))
    side = turn[:, None] + np.arange(4) * (np.pi / 2)  # (T, 4) each side's normal
    nx, ny = np.cos(side)[None, None, :, :, None, None], np.sin(side)[None, None, :, :, None, None]
    half = (np.array(_SQUARE_HALF) * r)[None, :, None, None, None, None]  # (1, A, 1, 1, 1, 1)
    # 8 samples along each side, clear of its rounded corners
    along = np.linspace(-0.7, 0.7, 8)[None, None, None, None, :, None] * half
    # a coarser grid for the squares: 4 sizes x 6 turns each (a straight side found 0.2 r off centre
    # still lies near a sampled one)
    cx, cy = centres(3)
    sx, sy = cx[:, None, None, None, None, None], cy[:, None, None, None, None, None]
    px = sx + (half + off) * nx - along * ny  # (S, A, T, 4, 8, 2)
    py = sy + (half + off) * ny + along * nx
    at = (sx + half * nx - along * ny)[..., 0]
    square = fraction(px, py, nx, ny, at, (3, 4))
    # upright rectangles, sides along and across the bar: half-widths as the squares', half-lengths
    # _UPRIGHT_HALF; sides 0 and 2 run along the bar (normals along x), 1 and 3 across it
    hx = (np.array(_SQUARE_HALF) * r)[None, :, None, None, None, None]  # (1, A, 1, 1, 1, 1)
    hy = (np.array(_UPRIGHT_HALF) * r)[None, None, :, None, None, None]  # (1, 1, B, 1, 1, 1)
    ux = np.array([1.0, 0.0, -1.0, 0.0])[None, None, None, :, None, None]
    uy = np.array([0.0, 1.0, 0.0, -1.0])[None, None, None, :, None, None]
    t = np.linspace(-0.7, 0.7, 8)[None, None, None, None, :, None]
    # (a ring finds its disc at either end of a rectangle longer than it: centres up to 0.6 r along)
    ux0, uy0 = np.meshgrid(np.linspace(-0.2, 0.2, 3) * r, np.linspace(-0.6, 0.6, 7) * r)
    sx = (centre[0] + ux0.ravel())[:, None, None, None, None, None]
    sy = (centre[1] + uy0.ravel())[:, None, None, None, None, None]
    reach = np.abs(ux) * hx + np.abs(uy) * hy  # (1, A, B, 4, 1, 1) the side's distance out
    span = np.abs(uy) * hx + np.abs(ux) * hy  # the side's half-length
    px = sx + (reach + off) * ux - t * span * uy  # (S, A, B, 4, 8, 2)
    py = sy + (reach + off) * uy + t * span * ux
    at = (sx + reach * ux - t * span * uy)[..., 0]
    upright = fraction(px, py, ux, uy, at, (3, 4))
    return max(float(square.max()), float(upright.max())), circle
