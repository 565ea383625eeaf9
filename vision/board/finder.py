"""Find a backgammon board and its 24 points in a photo, with no markers and no clicks.

The board is recognised by what every backgammon board has: a playing field whose two long edges
carry twelve tall triangles each, in two alternating colours (or one colour against the field, as on
printed paper boards). Boards with a bar show two such half-fields of six points side by side.

Algorithm (our own; OpenCV supplies segmentation, hulls and homographies):

1. **Candidates.** The frame is shrunk to at most ``_WORK_SIDE`` pixels; bright and dark regions
   (Otsu on grey, both polarities, and a second Otsu split inside each) are split into connected
   components; the convex hull of each large component, simplified to four corners (or its four
   longest sides extended, or the four longest straight stretches of the outline itself, when a
   corner is cut or a hand bulges it) is a candidate field (or half-field). A hull is used because a
   field's outline is a comb (triangles cut into it) while its hull is the field's quadrilateral.
   Fields fitted to the triangles' own sides (:mod:`vision.board.triangles`) are candidates too:
   they need no outline, which a wooden field in a wooden frame or dark points on a dark frame lack.
2. **Triangle-pattern score.** Each candidate is rectified (a homography) under four hypotheses:
   which pair of opposite edges carries the points, and whether it holds 12 or 6 points per edge.
   Along each edge, at several depths, the colours at the point centres must alternate point to point
   (adjacent points differ) and repeat every second point (both parities agree). The score, 0-1, is
   the share of samples that do so times the contrast; a random quadrilateral scores near 0.
3. **Assembly.** A 12-point candidate is a field (scored also with a bar taking 3-16 % of its width,
   which must beat the bar-less reading by a margin); two 6-point candidates of similar size side by
   side, or one 6-point half and the best-scoring quad searched beside it, are a board with a bar.
   A field with one row under a hand is accepted on the mean of its rows, ranked by the weaker.
4. **Refinement.** The best few candidates are refined -- a bar-less field's sides snap onto the
   nearby strongest edges; a board with a bar has its whole triangle model (corners, bar width,
   tip depth) fitted to the colour gradient by coordinate ascent -- their long edges are moved onto
   the triangles' bases, and the one whose refined geometry shows the clearest pattern wins. Its
   corners give the homography to the rectified view (long side horizontal, DESIGN.md "One
   coordinate system"; the image's top, or for a portrait frame its left, becomes the top row).

Everything is measured in point widths, so the same code reads 480x360 webcam frames and 1600x900
photos.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import threading
from dataclasses import dataclass

import cv2
import numpy as np

from vision.arrays import median
from vision.board.aspect import round_checkers_view
from vision.board.exposure import FRAME_EXPOSED, normalise_exposure
from vision.board.geometry import POINT_PX, BoardGeometry, point_centres_u, point_edges_u
from vision.board.triangles import field_candidates, find_triangles, fixed_by_tips, support
from vision.board.view import FieldView

__all__ = ["field_triangles", "find_board", "find_board_view", "geometry_from_corners"]

# Working resolution (long side, pixels) for the search; the reading itself uses the full frame.
_WORK_SIDE = 480
# Rectified pixels per point width for the pattern score (coarse; the reading uses POINT_PX).
_SCORE_PX = 10
# Depths (fractions of the field height from each long edge) where the triangle pattern is sampled.
_DEPTHS = (0.08, 0.13, 0.18, 0.23, 0.28)
# The bar's share of a whole field's width tried for fields found in one piece (0: no bar).
_GAPS = (0.0, 0.03, 0.045, 0.06, 0.075, 0.09, 0.11, 0.13, 0.16)
# A bar is at least this share of the field's width (about half a point).
_MIN_GAP = 0.035
_GAP_MARGIN = 0.08
# ... and, after refinement, a fitted bar must beat a bar-less field by this much.
_BAR_MARGIN = 0.15
# How many of the best-scoring candidates are refined and compared by their fit.
_FINALISTS = 4
# A hull of at most this many sides whose four longest carry less than 80 % of its outline (several
# corners cut) is completed from every four sides carrying _CUT_SHARE of it, growing by _CUT_GROWTH.
_MAX_CUT_SIDES = 8
_CUT_SHARE = 0.65
_CUT_GROWTH = 1.35
# A point's base: its axis differs from the frame's colour by _BASE_DELTA (Lab) for _BASE_RUN point
# widths on; a side is put on the line of at least _BASE_MIN bases within _BASE_TOL point widths.
_BASE_DELTA = 25.0
_BASE_RUN = 0.3
_BASE_MIN = 3
_BASE_TOL = 0.06
_BASE_SPREAD = 0.3
# A frame's row: this share of the samples along it (the points' axes and between them) is one colour.
_FRAME_PLAIN = 0.8
# ... when that moves one of its ends by this many point widths (the refinement before it places a
# side that shows its bases to a few pixels; a side this far off was drawn by a cut corner).
_BASE_MOVE = 0.15
# Finalists whose outline contrast (:func:`_outline_contrast`) is within this share of the
# sharpest one's are told apart by their pattern score.
_CONTRAST_TIE = 0.05
# A bar's colour: within _BAR_SAME (Lab) of its median; a finalist whose bar is plain in a share
# _BAR_PLAIN_TIE (or more) below the plainest finalist's is no board (:func:`_bar_uniformity`).
_BAR_SAME = 20.0
_BAR_PLAIN_TIE = 0.15
# Minimum pattern score for a board to be accepted.
_MIN_SCORE = 0.25
# A field found by completing a broken outline must show this pattern score (rows' mean) as
# completed and after its refinement (a random quadrilateral scores near 0; a hand across a row
# hides much of it). Such a field is always reported occluded, so a wrong one costs no reading.
_MIN_BROKEN_FINAL = 0.15
# A field is judged by the triangles it holds once one finalist holds this many tips (two rows' worth).
_MIN_SUPPORT = 8
# The column alignment compares the colours this many point widths either side of a column (out
# to half a point: a triangle's own half and the field beside its tip).
_MIRROR_REACH = (0.15, 0.25, 0.35, 0.45)


# ----------------------------------------------------------------------------------------------
# candidates


def _quads_from_hull(hull: np.ndarray, cut: bool = False) -> list[np.ndarray]:
    """Quadrilaterals (float32 (4, 2)) approximating a convex hull; empty when it is not quad-like.

    Two readings of the hull: the plain four-vertex simplification, and -- because the hull of a
    field often has a cut corner (a dark point merging with a dark frame) -- the four longest sides
    of a finer simplification, extended to meet. The pattern score chooses between them. With
    ``cut``, instead: hulls with several corners cut, completed from every four sides that carry
    most of the outline (a fallback: many more candidates, each a chance for a wrong one).
    """
    out = []
    area = cv2.contourArea(hull)
    peri = cv2.arcLength(hull, True)
    poly = cv2.approxPolyDP(hull, 0.012 * peri, True).reshape(-1, 2).astype(np.float64)
    k = len(poly)
    if cut:
        if not 4 < k <= _MAX_CUT_SIDES:
            return out
        lens = [float(np.hypot(*(poly[(i + 1) % k] - poly[i]))) for i in range(k)]
        for keep4 in itertools.combinations(range(k), 4):
            if sum(lens[i] for i in keep4) >= _CUT_SHARE * peri:
                quad = _quad_of_sides(poly, list(keep4), area, _CUT_GROWTH)
                if quad is not None:
                    out.append(quad)
        return out
    simple = _quad_simple(hull)
    if simple is not None:
        out.append(simple)
    if k > 4:
        lens = [float(np.hypot(*(poly[(i + 1) % k] - poly[i]))) for i in range(k)]
        keep = sorted(sorted(range(k), key=lambda i: -lens[i])[:4])
        if sum(lens[i] for i in keep) >= 0.8 * peri:
            quad = _quad_of_sides(poly, keep, area, 1.25)
            if quad is not None:
                out.append(quad)
    return out


def _quad_of_sides(poly: np.ndarray, keep: list[int], area: float, growth: float) -> np.ndarray | None:
    """The quadrilateral (float32 (4, 2)) of the sides ``keep`` (indices, in order) of the convex
    polygon ``poly`` extended to meet; None unless it is convex, alternates in direction (two pairs
    of roughly opposite sides) and has 0.95-``growth`` times the hull's ``area``."""
    k = len(poly)
    sides = [(poly[i], poly[(i + 1) % k]) for i in keep]
    dirs = [(b - a) / max(float(np.linalg.norm(b - a)), 1e-9) for a, b in sides]
    if any(abs(float(np.dot(dirs[j], dirs[(j + 1) % 4]))) > 0.7 for j in range(4)):
        return None
    quad = np.array([_intersect(*sides[j - 1], *sides[j]) for j in range(4)], dtype=np.float32)
    if not cv2.isContourConvex(quad.reshape(-1, 1, 2)):
        return None
    if not area * 0.95 <= cv2.contourArea(quad) <= area * growth:
        return None
    return quad


def _quad_from_sides(contour: np.ndarray) -> np.ndarray | None:
    """A quadrilateral from the four longest straight stretches of a contour, extended to meet.

    A hand or an arm over the board joins the field's region and bulges its hull; the field's own
    sides stay long straight stretches of the outline, so their lines still give the field.
    """
    peri = cv2.arcLength(contour, True)
    poly = cv2.approxPolyDP(contour, 0.01 * peri, True).reshape(-1, 2).astype(np.float64)
    k = len(poly)
    if k < 5 or k > 60:
        return None
    lens = np.array([np.hypot(*(poly[(i + 1) % k] - poly[i])) for i in range(k)])
    keep = sorted(np.argsort(-lens)[:4].tolist())
    if lens[keep].min() < 0.08 * peri:
        return None
    sides = [(poly[i], poly[(i + 1) % k]) for i in keep]
    # the four must alternate in direction (two roughly parallel pairs), not be one side in pieces
    dirs = [(b - a) / max(np.linalg.norm(b - a), 1e-9) for a, b in sides]
    for j in range(4):
        if abs(float(np.dot(dirs[j], dirs[(j + 1) % 4]))) > 0.7:
            return None
    quad = np.array([_intersect(*sides[j - 1], *sides[j]) for j in range(4)], dtype=np.float32)
    if not cv2.isContourConvex(quad.reshape(-1, 1, 2)):
        return None
    return quad


def _quad_simple(hull: np.ndarray) -> np.ndarray | None:
    peri = cv2.arcLength(hull, True)
    for eps in (0.01, 0.02, 0.03, 0.045, 0.06, 0.08):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float32)
            if cv2.contourArea(quad) >= 0.85 * cv2.contourArea(hull):
                return quad
            return None
        if len(approx) < 4:
            return None
    return None


def _candidate_masks(work: np.ndarray) -> list[np.ndarray]:
    gray = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
    gray = cv2.GaussianBlur(gray, (3, 3), 0)
    t, bright = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    masks = [bright, cv2.bitwise_not(bright)]
    # a second split inside each class catches fields that are mid-grey between frame and points
    for sel in (gray >= t, gray < t):
        vals = gray[sel]
        if vals.size > 100:
            t2, _ = cv2.threshold(vals.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
            lo = (gray < t2) & sel
            hi = (gray >= t2) & sel
            masks.append(lo.astype(np.uint8) * 255)
            masks.append(hi.astype(np.uint8) * 255)
    # colour, not lightness: a green or red felt field as grey as its frame
    lab = cv2.cvtColor(cv2.GaussianBlur(work, (3, 3), 0), cv2.COLOR_BGR2LAB)
    for ch in (1, 2):
        chan = lab[:, :, ch]
        if int(chan.max()) - int(chan.min()) < 20:
            continue
        _, m = cv2.threshold(chan, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        masks.extend([m, cv2.bitwise_not(m)])
    return masks


def _regions(work: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """(outline, convex hull) of each large region of the candidate masks, in their order: what
    :func:`_candidates` reads, found once for both of its readings."""
    h, w = work.shape[:2]
    min_area = 0.02 * h * w
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))
    out: list[tuple[np.ndarray, np.ndarray]] = []
    for mask in _candidate_masks(work):
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
        contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for c in contours:
            if cv2.contourArea(c) < min_area * 0.3:
                continue
            hull = cv2.convexHull(c)
            if cv2.contourArea(hull) >= min_area:
                out.append((c, hull))
    return out


def _candidates(work: np.ndarray, cut: bool = False,
                regions: list[tuple[np.ndarray, np.ndarray]] | None = None) -> list[np.ndarray]:
    """Candidate field quads (float32 (4, 2), work pixels) of the regions' hulls (see
    :func:`_quads_from_hull` for ``cut``); ``regions``: :func:`_regions` of ``work`` when already
    found."""
    h, w = work.shape[:2]
    quads: list[np.ndarray] = []
    for c, hull in _regions(work) if regions is None else regions:
        quads.extend(_quads_from_hull(hull, cut))
        quad = None if cut else _quad_from_sides(c)
        if quad is not None:
            quads.append(quad)
    return _dedupe(quads, 0.01 * max(h, w))


def _dedupe(quads: list[np.ndarray], tol: float) -> list[np.ndarray]:
    out: list[np.ndarray] = []
    for q in quads:
        q = _order_corners(q)
        if all(np.abs(q - o).max() > tol for o in out):
            out.append(q)
    return out


def _order_corners(q: np.ndarray) -> np.ndarray:
    """Corners ordered TL, TR, BR, BL (image coordinates)."""
    c = q.mean(axis=0)
    ang = np.arctan2(q[:, 1] - c[1], q[:, 0] - c[0])
    q = q[np.argsort(ang)]  # clockwise from the left in image coordinates (y down)
    # start from the corner nearest the top-left
    start = int(np.argmin(q[:, 0] + q[:, 1]))
    return np.roll(q, -start, axis=0).astype(np.float32)


# ----------------------------------------------------------------------------------------------
# edge refinement


def colour_gradient(bgr: np.ndarray, lab: np.ndarray | None = None) -> np.ndarray:
    """Di Zenzo colour-gradient magnitude of a BGR image in Lab, float32 (H, W); ``lab``: the
    image's uint8 Lab conversion, when the caller made it already.

    (S. Di Zenzo, "A note on the gradient of a multi-image", CVGIP 33, 1986: the largest eigenvalue of
    the channels' gradient structure tensor.)
    """
    # (the Sobels of the Lab bytes are whole numbers: taken of the three channels at once, then
    # split, they are the per-channel float ones exactly)
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB) if lab is None else lab
    gx = cv2.split(cv2.Sobel(lab, cv2.CV_32F, 1, 0, ksize=3))
    gy = cv2.split(cv2.Sobel(lab, cv2.CV_32F, 0, 1, ksize=3))
    # the structure tensor in place, in the order and rounding of its formula:
    # 0.5 * (jxx + jyy + sqrt((jxx - jyy) ** 2 + 4 jxy jxy)), each j a sum of the channels' products
    jxx, jyy, jxy = (_channel_products(a, b) for a, b in ((gx, gx), (gy, gy), (gx, gy)))
    diff = jxx - jyy
    diff *= diff
    jxy *= 4.0 * jxy  # (4 jxy) jxy, as 4.0 * jxy * jxy
    diff += jxy
    jxx += jyy
    jxx += np.sqrt(diff, out=diff)
    jxx *= 0.5
    return np.sqrt(jxx, out=jxx)


def _channel_products(a: tuple[np.ndarray, ...], b: tuple[np.ndarray, ...]) -> np.ndarray:
    """``sum(x * y for x, y in zip(a, b))`` of float32 arrays, the same values, in one array
    (sum() starts from 0: a -0 product becomes +0)."""
    out = np.multiply(a[0], b[0])
    out += 0.0
    for x, y in zip(a[1:], b[1:], strict=True):
        out += x * y
    return out


def _refine_side(mag: np.ndarray, p0: np.ndarray, p1: np.ndarray, inward: np.ndarray,
                 reach: float) -> tuple[np.ndarray, np.ndarray]:
    """Move the side p0-p1 onto the strongest straight edge within ``reach`` pixels (both ways).

    Each of 24 stations along the side picks its best offset; a line through the stations' offsets
    (least squares on the middle half of the sorted residuals) gives the refined side.
    """
    h, w = mag.shape
    n_st = 24
    s = np.linspace(0.1, 0.9, n_st)
    base = p0[None, :] + s[:, None] * (p1 - p0)[None, :]
    offs = np.arange(-reach, reach + 0.5, 0.5)
    pts = base[:, None, :] + offs[None, :, None] * inward[None, None, :]
    xs = np.clip(pts[..., 0], 0, w - 1)
    ys = np.clip(pts[..., 1], 0, h - 1)
    vals = cv2.remap(mag, xs.astype(np.float32), ys.astype(np.float32), cv2.INTER_LINEAR)
    best = offs[np.argmax(vals, axis=1)]
    strength = vals.max(axis=1)
    keep = strength >= median(strength, 0) * 0.5
    if keep.sum() < 6:
        return p0, p1
    sk, bk = s[keep], best[keep]
    a, b = np.polyfit(sk, bk, 1)
    resid = np.abs(bk - (a * sk + b))
    inl = resid <= max(1.0, float(np.percentile(resid, 60)))
    if inl.sum() >= 6:
        a, b = np.polyfit(sk[inl], bk[inl], 1)
    t0, t1 = b, a + b  # offsets at s=0 and s=1
    return p0 + t0 * inward, p1 + t1 * inward


def _intersect(a0: np.ndarray, a1: np.ndarray, b0: np.ndarray, b1: np.ndarray) -> np.ndarray:
    da, db = a1 - a0, b1 - b0
    m = np.array([[da[0], -db[0]], [da[1], -db[1]]])
    if abs(np.linalg.det(m)) < 1e-9:
        return 0.5 * (a1 + b0)
    t = np.linalg.solve(m, b0 - a0)
    return a0 + t[0] * da


def refine_quad(mag: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Snap each side of quad ``q`` (float (4, 2), TL TR BR BL) to the nearby strongest edge in ``mag``."""
    c = q.mean(axis=0)
    size = min(_edge_len(q[0], q[1]), _edge_len(q[0], q[3]))
    reach = max(2.0, 0.012 * size)
    sides = []
    for i in range(4):
        p0, p1 = q[i].astype(np.float64), q[(i + 1) % 4].astype(np.float64)
        d = p1 - p0
        nrm = np.array([-d[1], d[0]]) / max(np.linalg.norm(d), 1e-9)
        if np.dot(c - p0, nrm) < 0:
            nrm = -nrm
        sides.append(_refine_side(mag, p0, p1, nrm, reach))
    out = [_intersect(*sides[(i - 1) % 4], *sides[i]) for i in range(4)]
    res = np.array(out, dtype=np.float32)
    if np.abs(res - q).max() > 3 * reach:
        return q
    return res


@functools.lru_cache(maxsize=512)
def _triangle_samples(gap: float, tip: float, per_edge: int = 9) -> np.ndarray:
    """Points (unit-square coordinates, float (M, 2)) along the slanted edges of both rows' triangles.

    A triangle's base spans its point's interval on the row's edge (v=0 top, v=1 bottom) and its tip
    lies at depth ``tip`` on the point's centre line. Samples skip the ends, where neighbours meet.
    """
    t = np.linspace(0.12, 0.92, per_edge)
    edges = point_edges_u(gap)  # (12, 2): each point's two base ends
    tip_u = 0.5 * (edges[:, 0] + edges[:, 1])
    u = edges[:, :, None] + t * (tip_u[:, None, None] - edges[:, :, None])  # (point, end, sample)
    v = t * tip
    pts = np.empty((12, 2, 2, per_edge, 2))  # (point, end, row: top then bottom, sample, uv)
    pts[..., 0] = u[:, :, None, :]
    pts[:, :, 0, :, 1] = v
    pts[:, :, 1, :, 1] = 1.0 - v
    return pts.reshape(-1, 2)


@functools.lru_cache(maxsize=512)
def _triangle_points32(gap: float, tip: float) -> np.ndarray:
    """:func:`_triangle_samples` as the float32 (M, 1, 2) points a perspective transform takes,
    converted once per (bar share, tip depth); read-only."""
    out = _triangle_samples(gap, tip).reshape(-1, 1, 2).astype(np.float32)
    out.flags.writeable = False
    return out


def _edge_energy(mag: np.ndarray, quad: np.ndarray, samples: np.ndarray) -> float:
    """Mean gradient magnitude at the unit-square ``samples`` mapped into the image by ``quad``."""
    return _edge_energies(mag, [quad], [samples])[0]


def _edge_energies(mag: np.ndarray, quads: list[np.ndarray], samples: list[np.ndarray]) -> list[float]:
    """:func:`_edge_energy` of each quad with its samples (the same number for all), in one array
    pass: a fit tries many fields, and per-field numpy calls were most of its cost."""
    n = len(samples[0])
    pts = np.empty((len(quads), n, 1, 2), np.float32)
    last, src = None, None
    for i, (qq, smp) in enumerate(zip(quads, samples, strict=True)):
        if smp is not last:  # (a fit's trials mostly share their samples: converted once)
            # (no copy where they come ready: _triangle_points32's)
            last, src = smp, smp.reshape(-1, 1, 2).astype(np.float32, copy=False)
        # each field's points mapped straight into its rows of the batch (no stack)
        cv2.perspectiveTransform(src, cv2.getPerspectiveTransform(_UNIT, qq.astype(np.float32)), dst=pts[i])
    pts = pts.reshape(len(quads), n, 2)  # (fields, samples, 2)
    h, w = mag.shape
    x = np.minimum(np.maximum(pts[..., 0], 0), w - 1.001)
    y = np.minimum(np.maximum(pts[..., 1], 0), h - 1.001)
    x0 = x.astype(np.intp)
    y0 = y.astype(np.intp)
    fx, fy = x - x0, y - y0  # (float64: float32 less intp)
    gx, gy = 1 - fx, 1 - fy
    flat = mag.ravel()
    i00 = y0 * w
    i00 += x0
    # the bilinear sum in its written order, (m00 gx gy + m01 fx gy) + m10 gx fy + m11 fx fy, each
    # neighbour read through a shifted view of the plane and the products made in place
    v = flat.take(i00) * gx
    v *= gy
    for plane, wx, wy in ((flat[1:], fx, gy), (flat[w:], gx, fy), (flat[w + 1 :], fx, fy)):
        t = plane.take(i00) * wx
        t *= wy
        v += t
    # checkers hide some edges, so the weakest third does not count
    v.sort(axis=1)
    # (each row's mean as a 1-D mean sums it: pairwise, along the contiguous axis; numpy's mean is
    # that sum over the count)
    tail = v[:, v.shape[1] // 3 :]
    return (tail.sum(axis=1) / tail.shape[1]).tolist()


_UNIT = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
_TIPS = (0.34, 0.38, 0.42, 0.46)
# A fit scores its trial moves in batches of about this many fields (the moves after a kept one
# are scored for nothing; the fits of the 60 labelled photos: 6 took 611-635 ms, 8 652-671 ms).
_FIT_BATCH = 6


def _moves(q: np.ndarray, step: float, k0: int) -> np.ndarray:
    """The quad ``q`` (float (4, 2)) with each of its coordinates ``k0``..7 (x0, y0, x1, ...) moved by
    +``step`` and by -``step``: float (8 - k0, 2, 4, 2)."""
    n = max(0, 8 - k0)
    out = np.repeat(q[None, None], 2, axis=1).repeat(n, axis=0).reshape(n, 2, 8)
    for i in range(n):
        out[i, 0, k0 + i] += step
        out[i, 1, k0 + i] -= step
    return out.reshape(n, 2, 4, 2)


def _in_frame(qs: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Whether each of the quads ``qs`` (float (..., 4, 2)) lies inside the image of ``shape``, give
    or take 5 %: bool (...)."""
    h, w = shape[:2]
    x, y = qs[..., 0], qs[..., 1]
    return ((x.min(axis=-1) >= -0.05 * w) & (x.max(axis=-1) <= 1.05 * w)
            & (y.min(axis=-1) >= -0.05 * h) & (y.max(axis=-1) <= 1.05 * h))


def _convex(q: np.ndarray) -> bool:
    return bool(cv2.isContourConvex(q.astype(np.float32).reshape(-1, 1, 2)))


def fit_triangles(mag: np.ndarray, quad: np.ndarray, gap: float, with_bar: bool) -> tuple[np.ndarray, float]:
    """Adjust the field ``quad`` (TL, TR, BR, BL; points along TL-TR) and the bar's share ``gap`` so
    the model triangles' edges lie on the image's strongest edges (coordinate ascent).

    ``mag``: float32 colour-gradient magnitude (H, W), lightly blurred. The model: 12 isosceles
    triangles per row, one point wide, in two halves separated by the bar (``gap`` = 0 and fixed
    when ``with_bar`` is False). Returns (quad float32 (4, 2), gap).
    """
    q = quad.astype(np.float64).copy()
    start = q.copy()
    size = min(_edge_len(q[0], q[1]), _edge_len(q[0], q[3]))

    seen: dict[tuple[bytes, float, float], float] = {}

    def energies(trials: list[tuple[np.ndarray, float, float]]) -> list[float]:
        """The energy of each (quad, gap, tip), several fields in one pass; a field scored
        before (a step back undoes the last move) is not scored again."""
        keys = [(qq.tobytes(), gg, tt) for qq, gg, tt in trials]
        todo: dict[tuple[bytes, float, float], tuple[np.ndarray, float, float]] = {}
        for key, trial in zip(keys, trials, strict=True):
            if key not in seen:
                todo.setdefault(key, trial)
        if todo:
            vals = _edge_energies(mag, [qq for qq, _, _ in todo.values()],
                                  [_triangle_points32(gg, tt) for _, gg, tt in todo.values()])
            seen.update(zip(todo, vals, strict=True))
        return [seen[key] for key in keys]

    tip_e = energies([(q, gap, t) for t in _TIPS])
    tip = _TIPS[int(np.argmax(tip_e))]
    best = tip_e[int(np.argmax(tip_e))]
    step = 0.02 * size
    gstep = 0.01
    n_k = 9 if with_bar else 8
    while step >= 0.25:
        improved = True
        rounds = 0
        # the current quad's corner moves by +-step, which of them stay near the found field and
        # in the frame, and which are convex (asked once): made anew only when the quad or the
        # step changes, not for each batch and round that tries them again
        moved: np.ndarray | None = None
        near = np.zeros((8, 2), bool)
        convex: dict[tuple[int, int], bool] = {}
        while improved and rounds < 6:
            improved = False
            rounds += 1
            # coordinate ascent: each coordinate in turn (then the bar's share) moved by +-step,
            # the first move that gains kept before the next coordinate is tried. The moves from
            # coordinate k0 on are scored together, and once one is kept, those after it again.
            k0 = 0
            while k0 < n_k:
                trials: list[tuple[int, np.ndarray, float]] = []
                if moved is None:
                    moved = _moves(q, step, 0)  # (8, 2 signs, 4, 2): each corner coordinate moved
                    # the fit refines a found field; it must not wander off to other edges
                    near = ((np.abs(moved - start).max(axis=(2, 3)) <= 0.15 * size)
                            & _in_frame(moved, mag.shape))
                    convex = {}
                for k in range(k0, n_k):
                    for j, sgn in enumerate((1.0, -1.0)):
                        if k < 8:
                            trial, tg = moved[k, j], gap
                            if not near[k, j]:
                                continue
                            if (k, j) not in convex:
                                convex[k, j] = _convex(trial)
                            if not convex[k, j]:
                                continue
                        else:
                            trial, tg = q.copy(), min(0.4, max(0.0, gap + sgn * gstep))
                        trials.append((k, trial, tg))
                    if len(trials) >= _FIT_BATCH:
                        break
                if not trials:
                    break
                last_k = trials[-1][0]
                scored = energies([(t, g, tip) for _, t, g in trials])
                for (k, trial, tg), e in zip(trials, scored, strict=True):
                    if e > best * 1.0005:
                        q, gap, best, improved = trial, tg, e, True
                        k0 = k + 1
                        if k < 8:  # (a new bar share keeps the corners and their moves)
                            moved = None
                        break
                else:
                    k0 = last_k + 1
        step *= 0.5
        gstep *= 0.5
    return q.astype(np.float32), gap


def _mostly(flags: np.ndarray) -> bool:
    """True when more than half of ``flags`` (bool (N,)) are set; False for none."""
    return bool(flags.size) and float(flags.mean()) > 0.5


def _plain_share(samples: np.ndarray) -> np.ndarray:
    """Per row of ``samples`` (float32 Lab (rows, n, 3)), the share within ``_BASE_DELTA`` of the
    row's median colour."""
    med = median(samples, 1)[:, None]
    return (np.linalg.norm(samples - med, axis=2) < _BASE_DELTA).mean(axis=1)


def _frame_rows(plain: np.ndarray) -> bool:
    """True when the rows a side would be moved inward over look like a frame: on the median row
    most samples (:func:`_plain_share`) are one colour. Along the bases two triangle colours
    alternate and checkers sit on them, so no colour holds a majority there. True for no rows."""
    return not plain.size or float(median(plain, 0)) > 0.5


def _inside_frame(rows: np.ndarray, plain: np.ndarray) -> np.ndarray:
    """Of the alternating rows ``rows`` (indices into ``plain``, ordered from outside the field
    inward), those not beyond a frame: rows that a band of frame rows (:func:`_frame_rows` on
    ``plain``, the rows' :func:`_plain_share`) parts from the rows further in lie outside the board
    (a table, a tray or a tournament's overlay past the frame's outer edge, which alternate by
    chance). The triangles' bases touch the field's edge: no frame lies between them and the field."""
    keep = 0
    for i in range(len(rows) - 1):
        a, b = sorted((int(rows[i]), int(rows[i + 1])))
        if b - a > 1 and _frame_rows(plain[a + 1 : b]):
            keep = i + 1
    return rows[keep:]


def _refine_bases(lab: np.ndarray, q: np.ndarray, gap: float) -> np.ndarray:
    """Move the two point-carrying sides of ``q`` (TL-TR and BL-BR) onto the triangles' bases.

    In the rectified quad, extended by 10 % above and below, the base is the first row (from outside)
    where adjacent points' colours start to differ -- a frame is uniform along its length, a row of
    triangles alternates. A side is not moved inward over rows where a third of the pairs still
    alternate (checkers of one colour on most points at the base: the field, not the frame), nor
    outward onto rows that a band of frame parts from the field (:func:`_inside_frame`: beyond the
    frame's outer edge a table or an overlay may alternate by chance). Returns the corrected quad
    (float32 (4, 2)).
    """
    ext = 0.10
    width = 12 * _SCORE_PX
    height = int(round(width * _aspect(q)))
    if height < 8:
        return q
    pad = int(round(ext * height))
    dst = np.float32([[0, pad], [width, pad], [width, pad + height], [0, pad + height]])
    hmg = cv2.getPerspectiveTransform(q.astype(np.float32), dst)
    rect = cv2.warpPerspective(lab, hmg, (width, height + 2 * pad), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    centres = np.clip((point_centres_u(gap) * width).astype(int), 0, width - 1)
    v = rect[:, centres]  # (rows, n, 3)
    diffs = np.linalg.norm(v[:, 1:] - v[:, :-1], axis=2)  # (rows, n - 1)
    alt = np.convolve(median(diffs, 1), np.ones(3) / 3, mode="same")  # (rows,)
    # rows beyond the image's edge only repeat its last row (the bases of a field running off the
    # photo would alternate on there): they show no base
    alt[~_rows_inside(hmg, centres, rect.shape[0], lab.shape)] = 0.0
    inner = float(median(alt[pad + int(0.05 * height) : pad + int(0.25 * height)], 0))
    inner_b = float(median(alt[pad + int(0.75 * height) : pad + int(0.95 * height)], 0))
    new_top, new_bot = float(pad), float(pad + height)
    # a row of one colour's checkers along the bases (a prime, a home board) leaves the median pair
    # unlike only where fewer than half of its neighbours are checkers: a side is not moved inward
    # over rows where many pairs still alternate (the 70th percentile pair: a third of them)
    many = np.convolve(np.percentile(diffs, 70, axis=1), np.ones(3) / 3, mode="same")
    many_t = float(median(many[pad + int(0.05 * height) : pad + int(0.25 * height)], 0))
    many_b = float(median(many[pad + int(0.75 * height) : pad + int(0.95 * height)], 0))
    # a side is not moved inward over a row of discs: a row of one colour's checkers on most points
    # along the bases (a long prime, a bear-off) leaves too few pairs alternating for either median
    # (seen: ten singles in a row, the side moved onto their tops, none of them counted). There
    # adjacent points are alike (one colour's checkers), as on a frame, but unlike a frame (uniform
    # along its length) the colour on a point's axis is not the one between it and the next point,
    # where the triangles show between the discs. (A shadow over the triangles' bases, which the
    # side may leave, keeps the pairs unlike.)
    pairs = [k for k in range(11) if not (gap > 0 and k == 5)]  # (not across the bar)
    us = point_centres_u(gap)
    mids = np.clip(((us[:-1] + us[1:]) * width / 2).astype(int), 0, width - 1)
    step = np.linalg.norm(rect[:, mids[pairs]] - rect[:, centres[pairs]], axis=2)  # (rows, pairs)
    discs = (median(diffs[:, pairs], 1) < _BASE_DELTA) & (median(step, 1) >= _BASE_DELTA)
    plain = _plain_share(rect[:, np.sort(np.concatenate([centres, mids]))])
    if inner > 10:
        rows = _inside_frame(np.flatnonzero(alt[: pad + int(0.1 * height)] >= 0.5 * inner), plain)
        if (rows.size and not _mostly(many[pad : int(rows[0])] >= 0.5 * many_t)
                and not _mostly(discs[pad : int(rows[0])]) and _frame_rows(plain[pad : int(rows[0])])):
            new_top = float(rows[0])
    if inner_b > 10:
        lo = pad + int(0.9 * height)
        rows = _inside_frame(lo + np.flatnonzero(alt[lo:] >= 0.5 * inner_b)[::-1], plain)
        cut = int(rows[0]) + 1 if rows.size else pad + height
        if (rows.size and not _mostly(many[cut : pad + height] >= 0.5 * many_b)
                and not _mostly(discs[cut : pad + height]) and _frame_rows(plain[cut : pad + height])):
            new_bot = float(cut)
    src = np.float32([[0, new_top], [width, new_top], [width, new_bot], [0, new_bot]])
    inv = np.linalg.inv(hmg)
    return cv2.perspectiveTransform(src.reshape(-1, 1, 2), inv).reshape(4, 2).astype(np.float32)


def _rows_inside(hmg: np.ndarray, xs: np.ndarray, n_rows: int, shape: tuple[int, ...]) -> np.ndarray:
    """Per row of a view warped by ``hmg`` (image to view), whether most of its samples at columns
    ``xs`` come from inside the image of ``shape`` (bool (n_rows,))."""
    xx, yy = np.meshgrid(np.asarray(xs, np.float32) + 0.5, np.arange(n_rows, dtype=np.float32) + 0.5)
    at = cv2.perspectiveTransform(np.stack([xx, yy], axis=2).reshape(-1, 1, 2),
                                  np.linalg.inv(hmg)).reshape(n_rows, -1, 2)
    h, w = shape[:2]
    ok = (at[..., 0] >= 0) & (at[..., 0] <= w - 1) & (at[..., 1] >= 0) & (at[..., 1] <= h - 1)
    return np.asarray(ok.mean(axis=1) > 0.5)


def _side_bases(rect: np.ndarray, centres: np.ndarray, pad: int, height: int, top: bool,
                pw: float) -> list[tuple[float, float]]:
    """(x, base row) of each point of one row whose base shows against the frame, in a rectified
    view (float32 Lab, the field between rows ``pad`` and ``pad + height``). A point's base is the
    first row from outside where its axis takes on the point's own colour (as just inside the edge:
    its triangle, or a checker on it) for ``_BASE_RUN`` point widths; a frame's shadow line or lip
    is neither. A point whose colour is the frame's (a black point against a black frame, a black
    checker on it) shows no base and is left out."""
    half = max(1, int(0.15 * pw))
    run = max(2, int(_BASE_RUN * pw))
    n_rows = rect.shape[0]
    rows = np.arange(n_rows) if top else np.arange(n_rows - 1, -1, -1)
    edge = pad if top else n_rows - 1 - (pad + height)  # the edge's index along ``rows``
    lo, hi = max(0, edge - int(0.5 * pw)), min(n_rows - run, edge + int(0.5 * pw))
    if hi <= lo:
        return []
    outer = rect[rows[: max(1, edge - int(0.3 * pw))]]  # beyond the edge, clear of checkers' rims
    frame = median(outer[:, np.clip(centres.astype(int), 0, rect.shape[1] - 1)].reshape(-1, 3), 0)
    # the profiles only where they are looked at: the point's own colour just inside the edge and
    # the rows searched for its base (each row's median is its own)
    in0, in1 = edge + int(0.2 * pw), edge + int(0.6 * pw)
    r0, r1 = min(lo, in0), min(n_rows, max(hi + run - 1, in1))
    # every point's profile at once (the per-point medians' overhead dominated): the median colour
    # across its axis, row by row from outside, over the columns xi - half .. xi + half
    xis = [int(round(x)) for x in centres]
    width = rect.shape[1]
    seq = rect[rows[r0:r1]]
    if all(xi - half >= 0 and xi + half < width for xi in xis):
        cols = np.array(xis)[:, None] + np.arange(-half, half + 1)
        # (gathered channel first, so that the median runs along the contiguous window axis)
        prof = median(seq.transpose(0, 2, 1)[:, :, cols], 3).transpose(0, 2, 1)  # (rows, points, 3)
    else:  # (a window cut by the view's side)
        prof = np.stack([np.median(seq[:, max(0, xi - half) : xi + half + 1], axis=1) for xi in xis], axis=1)
    # each point's own colour just inside the edge (its triangle, or a checker on it); a point whose
    # base is the frame's colour has no base to see
    inner = median(prof[in0 - r0 : in1 - r0], 0)  # (points, 3)
    shows = np.linalg.norm(inner - frame, axis=1) > _BASE_DELTA
    near = np.linalg.norm(prof - inner, axis=2) < _BASE_DELTA  # (rows r0.., points)
    # the first row from which ``run`` rows are all the point's colour, not already where the
    # search starts
    searched = near[lo - r0 : hi + run - 1 - r0]
    starts = np.lib.stride_tricks.sliding_window_view(searched, run, axis=0).all(axis=2)
    first = np.argmax(starts, axis=0)  # (points,)
    out = []
    for k, x in enumerate(centres):
        if shows[k] and starts[first[k], k] and first[k] > 0:
            i = lo + int(first[k])
            out.append((float(x), float(rows[i]) if top else float(rows[i]) + 1.0))
    return out


def _frame_inside(rect: np.ndarray, centres: np.ndarray, y0: float, y1: float, top: bool, pw: float) -> bool:
    """True when a band of a frame lies just inside the line from (0, y0) to (W, y1) of a rectified
    view (float32 Lab (H, W, 3); ``centres``: the points' x; ``top``: the line is a top side, the
    field below it): on most rows from 0.1 to 0.3 point widths inward, ``_FRAME_PLAIN`` of the
    samples at the points' axes and between them are one colour (within ``_BASE_DELTA`` of their
    median). A frame is uniform along its length; inside the field's own outline the triangles
    alternate and show between checkers. (Seen: a tournament board's black frame, half a point wide
    on a blue table, and a wooden board's dark frame: its points and checkers of the frame's colour
    showed a "base" on the frame's outer edge, and the side was put there, half a point out.)"""
    height, width = rect.shape[:2]
    xs = np.sort(np.concatenate([centres, 0.5 * (centres[1:] + centres[:-1])]))
    ys_line = y0 + (y1 - y0) * xs / max(width - 1, 1)
    xi = np.clip(np.rint(xs).astype(np.intp), 0, width - 1)
    inward = 1.0 if top else -1.0
    plain = []
    for depth in np.linspace(0.1, 0.3, 5) * pw:
        yi = np.clip(np.rint(ys_line + inward * depth).astype(np.intp), 0, height - 1)
        samples = rect[yi, xi]
        med = median(samples, 0)
        plain.append(float((np.linalg.norm(samples - med, axis=1) < _BASE_DELTA).mean()) >= _FRAME_PLAIN)
    return _mostly(np.array(plain))


def _reflect101(i: np.ndarray, n: int) -> np.ndarray:
    """Indices ``i`` (int, any shape, within ``-1 .. n``) folded into ``0 .. n - 1`` as OpenCV's
    default border folds them (BORDER_REFLECT_101: ``-1`` reads ``1``, ``n`` reads ``n - 2``)."""
    i = np.abs(i)
    return np.where(i > n - 1, 2 * (n - 1) - i, i)


def _edge_y_at(rect: np.ndarray, rows: np.ndarray, xs: np.ndarray) -> np.ndarray:
    """``np.abs(cv2.Sobel(rect, cv2.CV_32F, 0, 1, ksize=3)).sum(axis=2)[rows, xs]``, the same
    float32 values, computed at those pixels only (``rows``, ``xs``: int arrays of one shape).

    ``rect``: float32 (H, W, C) of whole numbers (a warped uint8 view, H and W at least 2): the
    Sobel's sums are whole numbers then, exact in any order. Its kernel: [1, 2, 1] along x, then
    the difference of the rows below and above, the view's sides reflected as OpenCV's default
    border reflects them."""
    h, w = rect.shape[:2]
    left, right = _reflect101(xs - 1, w), _reflect101(xs + 1, w)

    def smoothed(r: np.ndarray) -> np.ndarray:
        return rect[r, left] + 2.0 * rect[r, xs] + rect[r, right]

    diff = smoothed(_reflect101(rows + 1, h)) - smoothed(_reflect101(rows - 1, h))
    return np.abs(diff).sum(axis=-1)


def _line_edge(rect: np.ndarray, y0: float, y1: float) -> float:
    """Mean of the vertical edge strength of ``rect`` (float32 (H, W, 3) of whole numbers; the
    strength: :func:`_edge_y_at`) along the line from (0, y0) to (W, y1), each sample the strongest
    within a row of the line."""
    h, w = rect.shape[:2]
    xs = np.arange(w)
    ys = y0 + (y1 - y0) * xs / max(w - 1, 1)
    rows = np.stack([np.clip(np.rint(ys + dy).astype(np.intp), 0, h - 1) for dy in (-1, 0, 1)])
    return float(_edge_y_at(rect, rows, np.broadcast_to(xs, rows.shape)).max(axis=0).mean())


def _straighten_sides(lab: np.ndarray, q: np.ndarray, gap: float) -> np.ndarray:
    """Put each point-carrying side of ``q`` (TL-TR, BL-BR) on the line through its points' bases.

    A side found tilted -- its corner cut from the field's outline by dark checkers on a dark point
    against a dark frame, the fit then free to drift there -- is put right by the points whose base
    shows (:func:`_side_bases`): the line with most bases within ``_BASE_TOL`` point widths of it
    (every pair tried; least squares on those), when it carries at least ``_BASE_MIN`` bases spread
    over half the field's width, and no frame lies inside it (:func:`_frame_inside`). Returns the
    quad, float32 (4, 2).
    """
    pw = 20.0
    width = int(12 * pw)
    height = int(round(width * _aspect(q)))
    if height < 8:
        return q
    pad = int(round(0.12 * height))
    dst = np.float32([[0, pad], [width, pad], [width, pad + height], [0, pad + height]])
    hmg = cv2.getPerspectiveTransform(q.astype(np.float32), dst)
    rect = cv2.warpPerspective(lab, hmg, (width, height + 2 * pad), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    centres = point_centres_u(gap) * width
    lines = {True: (float(pad), float(pad)), False: (float(pad + height), float(pad + height))}
    for top in (True, False):
        pts = _side_bases(rect, centres, pad, height, top, pw)
        if len(pts) < _BASE_MIN:
            continue
        xy = np.array(pts)
        # the line through each pair of bases at least two points apart, and the bases near it;
        # the first pair (in order) with the most wins
        ii, jj = np.triu_indices(len(xy), 1)
        keep = xy[jj, 0] - xy[ii, 0] >= 2 * pw
        if not keep.any():
            continue
        ii, jj = ii[keep], jj[keep]
        slope = (xy[jj, 1] - xy[ii, 1]) / (xy[jj, 0] - xy[ii, 0])
        x, y = xy[None, :, 0], xy[None, :, 1]
        resid = np.abs(y - (xy[ii, 1, None] + slope[:, None] * (x - xy[ii, 0, None])))
        inl = resid <= _BASE_TOL * pw  # (pairs, bases)
        best = inl[int(np.argmax(inl.sum(axis=1)))]
        if best.sum() < _BASE_MIN:
            continue
        sel = xy[best]
        if sel[:, 0].max() - sel[:, 0].min() < _BASE_SPREAD * width:
            continue
        a, b = np.polyfit(sel[:, 0], sel[:, 1], 1)
        now = lines[top][0]
        if max(abs(b - now), abs(a * width + b - now)) < _BASE_MOVE * pw:
            continue  # the side already lies on its bases
        # points and checkers of the frame's colour "show" their bases on the frame's outer edge,
        # a strong straight edge against the table: a side is not put where a frame lies inside it
        if _frame_inside(rect, centres, float(b), float(a * width + b), top, pw):
            continue
        # checkers whose rims reach over the frame line up too: the line kept is the one that runs
        # along the stronger edge (the field's own outline)
        # (the edge strength only along the two lines: the whole view's Sobel cost more)
        if _line_edge(rect, float(b), float(a * width + b)) > _line_edge(rect, now, now):
            lines[top] = (float(b), float(a * width + b))
    src = np.float32([[0, lines[True][0]], [width, lines[True][1]],
                      [width, lines[False][1]], [0, lines[False][0]]])
    inv = np.linalg.inv(hmg)
    return cv2.perspectiveTransform(src.reshape(-1, 1, 2), inv).reshape(4, 2).astype(np.float32)


# ----------------------------------------------------------------------------------------------
# pattern score


def _edge_len(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.hypot(*(a - b)))


def _hypothesis_corners(q: np.ndarray, turn: int) -> np.ndarray:
    """Corners TL, TR, BR, BL of the rectified view when corner ``turn`` of ``q`` becomes TL."""
    return np.roll(q, -turn, axis=0)


def _aspect(q: np.ndarray) -> float:
    """Height / width of a quad given TL, TR, BR, BL (mean opposite edges)."""
    wdt = 0.5 * (_edge_len(q[0], q[1]) + _edge_len(q[3], q[2]))
    hgt = 0.5 * (_edge_len(q[0], q[3]) + _edge_len(q[1], q[2]))
    return hgt / max(wdt, 1e-6)


def _pattern_score(lab: np.ndarray, q: np.ndarray, n: int, gap: float = 0.0) -> float:
    """Alternation score of ``n`` points along the top and bottom edges of quad ``q`` (TL,TR,BR,BL).

    ``n`` is 12 (a whole field, with a bar taking the share ``gap`` of its width) or 6 (a half).
    """
    return _pattern_scores(lab, q, n, (gap,))[0][0]


def _pattern_scores(
    lab: np.ndarray, q: np.ndarray, n: int, gaps: tuple[float, ...]
) -> list[tuple[float, float]]:
    """(weaker row, stronger row) scores for several bar shares at once (one warp)."""
    return _pattern_scores_many(lab, [(q, n, gaps)])[0]


@functools.lru_cache(maxsize=64)
def _centres_u(gap: float) -> np.ndarray:
    """:func:`point_centres_u`, kept per bar share (the search asks for the same few shares for
    every hypothesis); read-only."""
    out = point_centres_u(gap)
    out.flags.writeable = False
    return out


def _pattern_scores_many(
    lab: np.ndarray, jobs: list[tuple[np.ndarray, int, tuple[float, ...]]]
) -> list[list[tuple[float, float]]]:
    """:func:`_pattern_scores` of each (quad, points a row, bar shares) job, scored together
    (:func:`_scores_rectified_many`); a quad too flat or too tall to be a field scores -1."""
    out: list[list[tuple[float, float]]] = []
    items: list[tuple[np.ndarray, list[np.ndarray]]] = []
    where: list[int] = []
    for q, n, gaps in jobs:
        width = int(round(n * _SCORE_PX / (1.0 - max(gaps))))
        height = int(round(width * _aspect(q)))
        out.append([(-1.0, -1.0)] * len(gaps))
        if height < 4 * _SCORE_PX or height > 6 * width:
            continue
        dst = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
        hmg = cv2.getPerspectiveTransform(q.astype(np.float32), dst)
        rect = cv2.warpPerspective(lab, hmg, (width, height), flags=cv2.INTER_AREA).astype(np.float32)
        if n == 12:
            items.append((rect, [_centres_u(gap) * width for gap in gaps]))
        else:
            items.append((rect, [(np.arange(n) + 0.5) * width / n for _ in gaps]))
        where.append(len(out) - 1)
    for i, scores in zip(where, _scores_rectified_many(items), strict=True):
        out[i] = scores
    return out


def _score_rectified(rect: np.ndarray, centres_x: np.ndarray) -> tuple[float, float]:
    """Triangle-pattern score of a rectified field (float32 Lab (H, W, 3)) whose points' centre
    lines are at ``centres_x`` (pixels, float (n,)).

    Checkers cover some samples, so each parity's colour is a median and the score counts how many
    samples sit clearly nearer their own parity's colour than the other's, times the contrast
    between the parities (saturating at 25 Lab units); returns (weaker row, stronger row).
    """
    return _scores_rectified_many([(rect, [centres_x])])[0][0]




@functools.lru_cache(maxsize=256)
def _depth_rows(height: int) -> np.ndarray:
    """The rows of a rectified field ``height`` pixels tall where the pattern is sampled: int (2
    edges, depths), top edge then bottom, clipped to the view; read-only (a search scores many
    fields of the same few heights)."""
    out = np.clip([[int(d * height) for d in _DEPTHS], [int((1 - d) * height) - 1 for d in _DEPTHS]],
                  0, height - 1)
    out.flags.writeable = False
    return out


def _scores_rectified_many(
    items: list[tuple[np.ndarray, list[np.ndarray]]]
) -> list[list[tuple[float, float]]]:
    """:func:`_score_rectified` of every (rectified field, centre line sets) item at once: one
    blur per field and sampling width, then the samples of all of them compared in one array
    operation (the per-set calls' numpy overhead dominated the search)."""
    out = [[(0.0, 0.0)] * len(sets) for _, sets in items]
    by_n: dict[int, list[tuple[int, int, np.ndarray]]] = {}  # points a row -> (item, set, samples)
    # (a set's sampling half-width and columns, by its centres and the field's width: the
    # hypotheses of a search share the same few)
    layout: dict[tuple[bytes, int], tuple[int, np.ndarray]] = {}
    for a, (rect, sets) in enumerate(items):
        height, width = rect.shape[:2]
        ys = _depth_rows(height)  # (edge, depth)
        by_half: dict[int, list[tuple[int, np.ndarray]]] = {}
        for b, cx in enumerate(sets):
            key = (np.asarray(cx).tobytes(), width)
            if key not in layout:
                diff = np.diff(cx)
                pw = float(np.partition(diff, len(diff) // 2)[len(diff) // 2]) if len(diff) % 2 else float(
                    np.median(diff))
                layout[key] = (max(1, int(pw * 0.15)), np.clip(np.asarray(cx).astype(int), 0, width - 1))
            half, cols = layout[key]
            by_half.setdefault(half, []).append((b, cols))
        for half, group in by_half.items():
            box = cv2.blur(rect, (2 * half + 1, 3))
            for b, cols in group:
                by_n.setdefault(len(cols), []).append((a, b, box[ys[:, :, None], cols]))  # (edge, D, n, 3)
    for n, entries in by_n.items():
        v = np.stack([e[2] for e in entries])  # (G, edge, D, n, 3)
        m_even = median(v[:, :, :, 0::2], 3)  # (G, edge, D, 3)
        m_odd = median(v[:, :, :, 1::2], 3)
        c = np.sqrt(np.add.reduce(np.square(m_even - m_odd), axis=3))  # (G, edge, D)
        d_even = np.sqrt(np.add.reduce(np.square(v - m_even[:, :, :, None, :]), axis=4))  # (G, edge, D, n)
        d_odd = np.sqrt(np.add.reduce(np.square(v - m_odd[:, :, :, None, :]), axis=4))
        even = np.arange(n) % 2 == 0
        d_own = np.where(even, d_even, d_odd)
        d_other = np.where(even, d_odd, d_even)
        good = np.count_nonzero((d_own < 0.3 * c[..., None]) & (d_other > 0.7 * c[..., None]), axis=(2, 3))
        contrast = np.minimum(1.0, median(c, 2).astype(np.float64) / 25.0)
        scores = good / (len(_DEPTHS) * n) * contrast  # (G, edge)
        lo, hi = scores.min(axis=1).tolist(), scores.max(axis=1).tolist()
        for k, (a, b, _) in enumerate(entries):
            out[a][b] = (lo[k], hi[k])
    return out


# ----------------------------------------------------------------------------------------------
# assembly


@dataclass
class _Hyp:
    corners: np.ndarray  # TL, TR, BR, BL in work pixels; points along TL-TR and BL-BR
    n: int
    score: float
    gap: float = 0.0
    accept: float = 0.0


def _hypotheses(lab: np.ndarray, quads: list[np.ndarray], sizes: tuple[int, ...] = (12, 6)) -> list[_Hyp]:
    """Each quad read as a whole field (12 points a row) and as a half (6), in both turns, those
    whose pattern shows; ``sizes``: the readings tried (a caller keeping only whole fields skips
    the halves' warps)."""
    jobs: list[tuple[np.ndarray, int, tuple[float, ...]]] = []
    for q in quads:
        for turn in (0, 1):
            c = _hypothesis_corners(q, turn)
            asp = _aspect(c)
            for n in sizes:
                # a full field is wider than tall (12 points vs. two triangles of ~5 point widths);
                # a half-field is taller than wide
                if n == 12 and not 0.35 < asp < 1.2:
                    continue
                if n == 6 and not 0.9 < asp < 3.2:
                    continue
                jobs.append((c, n, _GAPS if n == 12 else (0.0,)))
    out: list[_Hyp] = []
    for (c, n, gaps), scores in zip(jobs, _pattern_scores_many(lab, jobs), strict=True):
        for gap, (lo, hi) in zip(gaps, scores, strict=True):
            # a bar must be earned: a bar-less field scored with a small gap scores almost as
            # well, so a gap pays a margin
            margin = _GAP_MARGIN if gap else 0.0
            # ranked by the weaker row; accepted on both rows' mean, since one row may be under
            # a hand while a random quadrilateral scores low on both
            if 0.5 * (lo + hi) - margin > 0.05:
                out.append(_Hyp(c, n, lo - margin, gap, 0.5 * (lo + hi) - margin))
    return out


def _pair_halves(halves: list[_Hyp]) -> list[tuple[float, np.ndarray, float]]:
    """Pairs of 6-point halves side by side: (score, 8 corners of both halves L then R, bar ratio)."""
    out = []
    for i, a in enumerate(halves):
        for b in halves[i + 1 :]:
            ca, cb = a.corners, b.corners
            wa = _edge_len(ca[0], ca[1])
            wb = _edge_len(cb[0], cb[1])
            ha = _edge_len(ca[0], ca[3])
            hb = _edge_len(cb[0], cb[3])
            if not (0.75 < wa / max(wb, 1e-6) < 1.33 and 0.8 < ha / max(hb, 1e-6) < 1.25):
                continue
            axis = (ca[1] - ca[0]) / max(wa, 1e-6)
            cb = _align_to(cb, ca)
            da = float(np.dot(cb.mean(axis=0) - ca.mean(axis=0), axis))
            left, right = (ca, cb) if da > 0 else (cb, ca)
            gap_top = float(np.dot(right[0] - left[1], axis))
            gap_bot = float(np.dot(right[3] - left[2], axis))
            wmean = 0.5 * (wa + wb)
            gap = 0.5 * (gap_top + gap_bot)
            if not (-0.05 * wmean < gap < 0.8 * wmean):
                continue
            # the halves' long edges must line up
            perp = np.array([-axis[1], axis[0]])
            off_top = abs(float(np.dot(right[0] - left[1], perp)))
            off_bot = abs(float(np.dot(right[3] - left[2], perp)))
            if max(off_top, off_bot) > 0.12 * 0.5 * (ha + hb):
                continue
            score = min(a.score, b.score) * 0.5 + 0.5 * (a.score + b.score) / 2
            out.append((score, np.concatenate([left, right]), max(gap, 0.0) / wmean))
    return out


def _align_to(q: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Rotate the corner order of ``q`` so its TL->TR edge points the same way as ``ref``'s."""
    best, best_dot = q, -2.0
    axis = ref[1] - ref[0]
    axis = axis / max(np.linalg.norm(axis), 1e-6)
    for k in range(4):
        r = np.roll(q, -k, axis=0)
        e = r[1] - r[0]
        d = float(np.dot(e / max(np.linalg.norm(e), 1e-6), axis))
        if d > best_dot:
            best, best_dot = r, d
    return best


def _canonical_turn(corners_img: np.ndarray) -> int:
    """How many corner steps to rotate so the long (point) axis is as horizontal as possible.

    Returns 0 or 2: the point axis is already along TL->TR; a 180 degree turn keeps the image's top
    at the rectified top for landscape frames, and the image's left at the top for portrait frames.
    """
    tl, tr = corners_img[0], corners_img[1]
    axis = tr - tl
    if abs(axis[0]) >= abs(axis[1]):
        return 0 if axis[0] > 0 else 2
    # portrait: the point axis runs vertically; put the image's left column on the rectified top
    return 0 if axis[1] < 0 else 2


def _partner(lab: np.ndarray, hyp: _Hyp) -> tuple[float, np.ndarray, float] | None:
    """The other half of a board with a bar, searched beside a found half-field ``hyp``.

    The found half's homography is extended sideways: for each bar width (0.05-0.8 half widths) and
    side, the quad there is scored as a 6-point half. Returns (pair score, 8 corners L then R, bar
    ratio) or None.
    """
    q = hyp.corners.astype(np.float32)
    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    hmg = cv2.getPerspectiveTransform(unit, q)
    steps = [(side, gap) for side in (1, -1) for gap in np.arange(0.05, 0.81, 0.025)]
    src = np.float32([[[x0, 0], [x0 + 1, 0], [x0 + 1, 1], [x0, 1]]
                      for x0 in (1 + gap if side > 0 else -1 - gap for side, gap in steps)])
    # every step's quad mapped in one call (each point is mapped alone: the values are the same)
    others = cv2.perspectiveTransform(src.reshape(-1, 1, 2), hmg).reshape(-1, 4, 2)
    inside = _mostly_inside_many(others, lab.shape)  # (a half beyond the frame's edge: its padding)
    # (side, bar width, the other half's quad)
    tried = [(side, float(gap), other)
             for (side, gap), other, ok in zip(steps, others, inside, strict=True) if ok]
    scores = _pattern_scores_many(lab, [(other, 6, (0.0,)) for _, _, other in tried])
    best: tuple[float, np.ndarray, float] | None = None
    for (side, gap, other), ((s, _),) in zip(tried, scores, strict=True):
        if s <= 0.05:
            continue
        pair = 0.5 * min(s, hyp.score) + 0.25 * (s + hyp.score)
        if best is None or pair > best[0]:
            corners = np.concatenate([q, other]) if side > 0 else np.concatenate([other, q])
            best = (pair, corners, gap)
    return best


def _mostly_inside_many(qs: np.ndarray, shape: tuple[int, ...], slack: float = 0.1) -> np.ndarray:
    """For each quad of ``qs`` (float32 (N, 4, 2)), whether every corner lies within the image of
    ``shape`` grown by ``slack`` of the quad's own extent on each side: bool (N,)."""
    h, w = shape[:2]
    ext = qs.max(axis=1) - qs.min(axis=1)  # (N, 2)
    lo = -slack * ext
    hi = np.array([w - 1, h - 1]) + slack * ext
    return np.asarray((qs >= lo[:, None]).all(axis=(1, 2)) & (qs <= hi[:, None]).all(axis=(1, 2)))


def find_board(image: np.ndarray) -> BoardGeometry | None:
    """Find the board's field and 24 points in a BGR uint8 image (H, W, 3); None when none is seen.

    See the module docstring for the algorithm. Never raises on a valid image array.
    """
    found = find_board_view(image)
    return None if found is None else found[0]


def find_board_view(image: np.ndarray) -> tuple[BoardGeometry, FieldView | None] | None:
    """:func:`find_board`'s geometry, and the view of ``image`` (BGR uint8 (H, W, 3)) in it when the
    search made one (the checkers' roundness is measured in it:
    :func:`vision.board.aspect.round_checkers_view`), else None; None when no board is found."""
    work, lab = _work_lab(image)
    regions = _regions(work)
    quads = _candidates(work, regions=regions)
    cands = _assemble(lab, _hypotheses(lab, quads))
    tri = _triangles(lab)
    shown, on_tips = _triangle_fields(lab, tri)
    triangles = shown or on_tips
    broken = False
    if not cands and shown:
        # no outline stands out (a dark or dim frame): the points' own triangles, found on both
        # rows, are direct evidence of the field, where a completed outline is a guess (a field on
        # its tips alone waits: its pattern is hidden, often by the hand a completed outline shows)
        done = _finish(image, work, lab, [], False, shown, tri)
        if done is not None:
            return done[0], None
    if not cands:
        cands = _completed_candidates(lab, quads)
        broken = bool(cands)
    if not cands:
        # several corners of the field cut (dark checkers on dark points against a dark frame)
        cands = _assemble(lab, _hypotheses(lab, _candidates(work, cut=True, regions=regions)))
    if not cands and not triangles:
        return None
    cands.sort(key=lambda c: -c[0])
    # a completed outline is under a hand: the triangles' field is not offered against it
    done = _finish(image, work, lab, cands, broken, [] if broken else triangles, tri)
    # the corners fix the field's shape but not its height under a keystone: the checkers tell it
    if done is None:
        return None
    view = round_checkers_view(image, *done)
    return view.geom, view


def field_triangles(image: np.ndarray) -> np.ndarray:
    """The points' triangles :func:`find_board_view` sees in ``image`` (BGR uint8 (H, W, 3)): the
    rows of :func:`vision.board.triangles.find_triangles` on its working copy. Cheap evidence of a
    board (a few ms): a caller that wants only a board in play may look here first, and the search
    that follows on the same image takes these triangles instead of finding them again."""
    return _triangles(_work_lab(image)[1])


def _work_lab(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The copy of ``image`` the search works on (long side ``_WORK_SIDE`` at most, a dark frame's
    gain undone: the pattern's contrast and the edges' strength are absolute) and its Lab."""
    h, w = image.shape[:2]
    scale = _WORK_SIDE / max(h, w)
    work = cv2.resize(image, (max(1, int(round(w * scale))), max(1, int(round(h * scale)))),
                      interpolation=cv2.INTER_AREA) if scale < 1 else image
    work = normalise_exposure(work, FRAME_EXPOSED)
    return work, cv2.cvtColor(work, cv2.COLOR_BGR2LAB)


# The last working copy's triangles, per thread (:func:`_triangles`).
_last_triangles = threading.local()


def _triangles(lab: np.ndarray) -> np.ndarray:
    """:func:`vision.board.triangles.find_triangles` of ``lab``, the last result again when ``lab``
    equals the last one asked about on this thread (:func:`field_triangles` then the search, on one
    image: the line detection is a fifth of a search that finds no board)."""
    last = getattr(_last_triangles, "entry", None)
    if last is not None and last[0].shape == lab.shape and np.array_equal(last[0], lab):
        return np.array(last[1])
    tri = find_triangles(lab)
    _last_triangles.entry = (lab.copy(), np.array(tri))
    return tri


_Cand = tuple[float, np.ndarray, float, bool]


def _triangle_fields(lab: np.ndarray, tri: np.ndarray) -> tuple[list[_Cand], list[_Cand]]:
    """Whole-field candidates fitted to the points' triangles (:mod:`vision.board.triangles`), which
    need no outline, as (those whose pattern shows, those standing on their tips alone), at most
    one of them non-empty: the best ``_FINALISTS`` by the weaker row's pattern score, accepted on
    both rows' mean as an outline's hypotheses are (:func:`_hypotheses`: one row may be under dice
    cups or a hand). Where none shows the pattern, those whose tips fix them
    (:func:`fixed_by_tips`: a sleeve over one row and checkers on the other's bases hide both
    rows' pattern, not their tips); where one does, the pattern decides between the fields of the
    same tips, which the tips cannot (a bar a whole number of points wide fits them as well as
    columns left empty beside it)."""
    found = [(quad, gap, *_pattern_scores(lab, quad, 12, (gap,))[0])
             for quad, gap in field_candidates(lab, tri)]
    shown = [(max(lo, _MIN_SCORE), quad, gap, gap > 0) for quad, gap, lo, hi in found
             if 0.5 * (lo + hi) >= _MIN_SCORE]
    on_tips = [] if shown else [(max(lo, _MIN_SCORE), quad, gap, gap > 0) for quad, gap, lo, _ in found
                                if fixed_by_tips(tri, quad, gap)]
    return (sorted(shown, key=lambda c: -c[0])[:_FINALISTS],
            sorted(on_tips, key=lambda c: -c[0])[:_FINALISTS])


def _assemble(lab: np.ndarray, hyps: list[_Hyp]) -> list[tuple[float, np.ndarray, float, bool]]:
    """Whole-field candidates from the hypotheses: (coarse score, field quad TL TR BR BL in work
    pixels, bar share of the width, has a bar), those scoring at least ``_MIN_SCORE``."""
    cands: list[tuple[float, np.ndarray, float, bool]] = []
    for hyp in hyps:
        if hyp.n == 12 and hyp.accept >= _MIN_SCORE:
            # a field under a hand keeps a place among the finalists, ranked below clean ones
            cands.append((max(hyp.score, _MIN_SCORE), hyp.corners, hyp.gap, hyp.gap > 0))
    best12 = max((c[0] for c in cands), default=0.0)
    halves = [x for x in hyps if x.n == 6]
    pairs = list(_pair_halves(halves))
    # a board without a bar already explained by one field needs no search for a second half
    searched = halves if best12 < 0.45 else []
    for hyp in sorted(searched, key=lambda x: -x.score)[:4]:
        found = _partner(lab, hyp)
        if found is not None:
            pairs.append(found)
    for score, corners8, ratio in pairs:
        left, right = corners8[:4], corners8[4:]
        quad = np.float32([left[0], right[1], right[2], left[3]])
        cands.append((score, quad, float(ratio / (2.0 + ratio)), True))
    return [c for c in cands if c[0] >= _MIN_SCORE]


def _finish(image: np.ndarray, work: np.ndarray, lab: np.ndarray,
            cands: list[tuple[float, np.ndarray, float, bool]], broken: bool,
            triangles: list[tuple[float, np.ndarray, float, bool]] = (),
            tri: np.ndarray | None = None) -> tuple[BoardGeometry, np.ndarray | None] | None:
    """Refine the best candidates (sorted, best first) and the ``triangles`` candidates
    (:func:`_triangle_fields`), and return the geometry of the one whose refined field shows the
    clearest pattern (module docstring, step 4), and the frame's rectified view in it where one was
    made (to align its columns, :func:`_align_columns`, which keep the homography and size). A
    triangles candidate that refines onto the field of an outline candidate (within half a point)
    read the same way (with a bar, or without) gives way to it. Where the frame shows the points'
    triangles (``tri``, :func:`vision.board.triangles.find_triangles`), a finalist holding under half
    as many of their tips as the best-supported one is no field (a striped score card, a tray)."""
    h, w = image.shape[:2]
    scale = work.shape[1] / w
    mag = colour_gradient(work, lab)  # (lab: work's, made by find_board_view)
    smooth = cv2.GaussianBlur(mag, (5, 5), 1.2)
    top = cands[0][0] if cands else 0.0
    finalists = [c for c in cands[:_FINALISTS] if c[0] >= top - 0.2]
    n_outline = len(finalists)
    fitted = []
    outline_quads: list[tuple[np.ndarray, bool]] = []
    for k, (score, quad, gap, with_bar) in enumerate(finalists + list(triangles)):
        if k >= n_outline and any(_same_field(quad, q) and b == with_bar for q, b in outline_quads):
            # a triangles candidate already on an outline finalist's refined field, read the same
            # way, refines onto it and gives way to it (below): it is not refined first (on the
            # real photos and their robustness families, 93 of 94 such did; a refinement is most
            # of the search's time)
            continue
        if broken:
            pass  # the completed corner stays: the triangles' edges would pull it onto the hand
        elif not with_bar:
            # a bar-less field is one clean quadrilateral: its sides snap onto the frame's edges
            quad = refine_quad(mag, quad)
        else:
            # two half-fields' hulls often miss corners (dark points merge with a dark frame): fit
            # the whole board's triangle model instead
            quad, gap = fit_triangles(smooth, quad, gap, True)
            if gap < _MIN_GAP:
                continue  # no room for a bar: a bar-less field, found as such by another candidate
        quad = _refine_bases(lab, quad, gap)
        if not broken:
            quad = _straighten_sides(lab, quad, gap)
        # judged by the colour pattern where the refined geometry puts the points (the fit itself
        # maximised the edge energy, so that would favour whichever candidate was fitted)
        final = _pattern_score(lab, quad, 12, gap) - (_BAR_MARGIN if with_bar else 0.0)
        if broken:
            # the completed field must still show its pattern where the refinement put it, judged
            # on both rows' mean (one row is under the hand)
            final = float(np.mean(_pattern_scores(lab, quad, 12, (gap,))[0]))
            final -= _BAR_MARGIN if with_bar else 0.0
            if final < _MIN_BROKEN_FINAL:
                continue
        if k < n_outline:
            outline_quads.append((quad, with_bar))
        elif any(_same_field(quad, q) and b == with_bar for q, b in outline_quads):
            # (an outline field read without a bar is no reason to drop the same field with one:
            # the bar's margin then rules out the bar-less reading and no correct one is left)
            continue
        # (the outline and the bar judge only fields with a bar and only when it is not broken)
        judged = with_bar and not broken
        fitted.append((final, score, quad, gap, with_bar,
                       _outline_contrast(smooth, quad, gap) if judged else 0.0,
                       _bar_uniformity(lab, quad, gap) if judged else 1.0))
    if tri is not None and not broken and fitted:
        held = [support(tri, f[2]) for f in fitted]
        if max(held) >= _MIN_SUPPORT:
            fitted = [f for f, n in zip(fitted, held, strict=True) if 2 * n >= max(held)]
    if not fitted:
        return None
    if broken:
        _, score, quad, gap, with_bar, _, _ = max(fitted, key=lambda f: f[0])
    else:
        # among the finalists whose pattern shows, the one whose triangles' outlines lie sharpest
        # where it puts them: the pattern score samples only the points' centre lines, and a field
        # stretched over a tray or cut short by a row of checkers still alternates there (seen on
        # the same photos turned 90-270 degrees: the finalists' pattern scores swap by noise)
        # (within _CONTRAST_TIE of the sharpest, the ratio is noise: the pattern decides). Only
        # fields with a bar are compared so: each was fitted to the outlines (fit_triangles), so
        # each sits on its own best fit; a bar-less field is snapped to the frame's edges, where a
        # printed board's triangles need not have the model's shape. Between a field with a bar
        # and one without, the pattern score less the bar's margin decides, as it did.
        barred = [f for f in fitted if f[4]]
        shown = [f for f in barred if f[0] > 0.0] or barred
        if shown:
            # a bar is a strip of one colour: a field whose "bar" is far less uniform than another
            # finalist's covers points with it (its far half then sits two points too far out,
            # over the frame or a tray, where the pattern -- period two -- still alternates)
            plainest = max(f[6] for f in shown)
            shown = [f for f in shown if f[6] >= plainest - _BAR_PLAIN_TIE]
            sharpest = max(f[5] for f in shown)
            keep = max((f for f in shown if f[5] >= (1.0 - _CONTRAST_TIE) * sharpest), key=lambda f: f[0])
            fitted = [f for f in fitted if not f[4] or f is keep]
        _, score, quad, gap, with_bar, _, _ = max(fitted, key=lambda f: f[0])
    geom = _geometry(quad / scale, gap if with_bar else None, (w, h), score)
    rect = None
    if with_bar:
        rect = geom.rectify(image)
        geom = _align_columns(image, geom, rect)
    if broken:
        geom = dataclasses.replace(geom, outline_broken=True)
    return geom, rect


def _same_field(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether quads ``a`` and ``b`` (4 corners each, any order) lie within half a point of each
    other at every corner (a point: a twelfth of the longer side)."""
    tol = 0.5 * max(_edge_len(a[0], a[1]), _edge_len(a[1], a[2])) / 12.0
    d = np.linalg.norm(a[:, None, :] - b[None, :, :], axis=2)
    return bool(np.all(d.min(axis=1) < tol))


def _bar_uniformity(lab: np.ndarray, quad: np.ndarray, gap: float) -> float:
    """Share (0-1) of the bar's middle half (across its width; its whole length but the ends) whose
    colour is within ``_BAR_SAME`` (Lab) of the bar's median colour, where field ``quad`` (TL TR BR
    BL, work pixels, points along TL-TR) with the bar's share ``gap`` puts it. ``lab``: the work image,
    uint8 Lab (H, W, 3). Near 1 on a bare bar; checkers on it, hinges and a logo take a part; a
    "bar" laid over triangles and the field between them scores far lower."""
    width = int(round(12 * _SCORE_PX / (1.0 - gap)))
    height = int(round(width * _aspect(quad)))
    if height < 8:
        return 0.0
    dst = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    hmg = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    rect = cv2.warpPerspective(lab, hmg, (width, height), flags=cv2.INTER_AREA).astype(np.float32)
    half = 0.5 * (1.0 - gap) * width
    bar_w = width - 2.0 * half
    x0 = int(round(half + 0.25 * bar_w))
    x1 = max(x0 + 1, int(round(width - half - 0.25 * bar_w)))
    band = rect[int(0.03 * height) : int(0.97 * height), x0:x1].reshape(-1, 3)
    if band.size == 0:
        return 0.0
    med = median(band, 0)
    return float((np.linalg.norm(band - med, axis=1) < _BAR_SAME).mean())


def _outline_contrast(mag: np.ndarray, quad: np.ndarray, gap: float) -> float:
    """How sharply the model triangles' outlines of field ``quad`` (TL TR BR BL, work pixels, points
    along TL-TR; bar share ``gap``) lie on the image's edges: their edge energy (``mag``, the
    smoothed colour gradient, float32 (H, W)) over the same model's shifted half a point along the
    rows, at the best tip depth. About 2 on a correct field, near 1 where the model misses the
    triangles; a ratio, so the frame's exposure and the board's contrast cancel (a matched filter's
    peak against its side lobe)."""
    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    hmg = cv2.getPerspectiveTransform(unit, quad.astype(np.float32))
    half = 0.5 * (1.0 - gap) / 12.0
    shifted = cv2.perspectiveTransform((unit + np.float32([half, 0.0])).reshape(-1, 1, 2), hmg).reshape(4, 2)
    on = max(_edge_energy(mag, quad, _triangle_samples(gap, t)) for t in _TIPS)
    off = max(_edge_energy(mag, shifted, _triangle_samples(gap, t)) for t in _TIPS)
    return on / max(off, 1e-6)


def _complete_corners(q: np.ndarray) -> list[np.ndarray]:
    """Each corner of quad ``q`` (float (4, 2)) replaced by the parallelogram the other three span
    (float32 (4, 2) each).

    A hand or an arm over one corner of the board joins the field's region: the hull's corner
    there is pulled out to the hand while the other three stay on the field. The completion ignores
    the perspective (a camera above the board sees nearly a parallelogram); neither the pattern
    (hidden there) nor the edges (the hand's own outline) can place that corner better.
    """
    out = []
    area = cv2.contourArea(q.astype(np.float32))
    for i in range(4):
        c = q.astype(np.float64).copy()
        c[i] = c[(i - 1) % 4] + c[(i + 1) % 4] - c[(i + 2) % 4]
        if np.abs(c[i] - q[i]).max() < 2.0:
            continue  # the corner already agrees with the others: nothing broken there
        c32 = c.astype(np.float32)
        if not cv2.isContourConvex(c32.reshape(-1, 1, 2)):
            continue
        if not 0.5 * area <= cv2.contourArea(c32) <= 1.05 * area:
            continue  # a completed field lies inside the bulged hull (the bulge is the occluder)
        out.append(c32)
    return out


def _completed_candidates(
    lab: np.ndarray, quads: list[np.ndarray]
) -> list[tuple[float, np.ndarray, float, bool]]:
    """Whole-field candidates whose fourth corner is completed from the other three
    (:func:`_complete_corners`), for a frame where no candidate explained the pattern as it was.
    ``lab``: the work image in Lab, uint8 (H, W, 3). Same tuples as :func:`find_board`'s."""
    done: list[np.ndarray] = []
    for q in quads:
        done.extend(_complete_corners(_order_corners(q)))
    hyps = [hyp for hyp in _hypotheses(lab, done, (12,)) if hyp.accept >= _MIN_BROKEN_FINAL]
    return [(max(hyp.score, _MIN_SCORE), hyp.corners, hyp.gap, hyp.gap > 0) for hyp in hyps]


def _align_columns(image: np.ndarray, geom: BoardGeometry, rect: np.ndarray | None = None) -> BoardGeometry:
    """Shift and stretch each half's six point columns onto the triangles' axes.

    Near the tips (0.2-0.38 of the height from each edge) the triangles are narrow and seldom
    covered. There the column profile is the colour distance from the field's own colour (taken
    from the middle tenth of the field, between the rows' tips: where long triangles fill most of
    the tip bands, the bands' own median is the points' colour) less the colour's asymmetry about
    the column, up to half a point either side: a triangle is mirror-symmetric about its axis,
    while the gap between two tips has a triangle of each colour beside it. Per half, the comb of
    six columns (offset within 0.35 of a point, spacing within 8 %) that sits on the highest
    profile wins. Corrects a fitted board whose hidden corner (black checkers on a black point
    against a black frame) left the columns a fraction of a point off. ``rect``: ``geom.rectify(image)``
    when the caller made it already.
    """
    if geom.bar is None:
        return geom
    rect = geom.rectify(image) if rect is None else rect
    lab = cv2.cvtColor(cv2.GaussianBlur(rect, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    height, width = lab.shape[:2]
    # (every second row: the medians over a band's rows need no more)
    rows = np.r_[int(0.2 * height) : int(0.38 * height) : 2, int(0.62 * height) : int(0.8 * height) : 2]
    band = lab[rows]  # (R, W, 3)
    field = median(lab[int(0.45 * height) : int(0.55 * height) : 2].reshape(-1, 3), 0)
    prof = _median_distance(band, field)  # (W,)
    reach = [int(round(d * POINT_PX)) for d in _MIRROR_REACH]
    # (the view's end columns repeated beyond it, as a clamped sample would read them)
    pad = max(reach, default=0)
    wide = np.pad(band, ((0, 0), (pad, pad), (0, 0)), mode="edge")
    for k in reach:
        left, right = wide[:, pad - k : pad - k + width], wide[:, pad + k : pad + k + width]
        prof -= _median_distance(left, right) / len(reach)
    prof = cv2.blur(prof.reshape(1, -1).astype(np.float32), (5, 1)).ravel()
    cols = list(geom.columns)
    for half, x0 in ((0, 0.0), (1, geom.bar[1])):
        best = _comb(prof, x0)
        if best is not None:
            cols[6 * half : 6 * half + 6] = [float(v) for v in best]
    return BoardGeometry(geom.homography, geom.size, tuple(cols), geom.bar, geom.image_size, geom.score,
                         geom.corners)


def _median_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per column, the median over the rows of the colour distance between ``a`` (float32 (R, W,
    3)) and ``b`` (the same shape, or one colour): float32 (W,) (the median of the squares, then
    its root: the same order, without a root per pixel)."""
    d = a - b
    return np.sqrt(median(np.einsum("rwc,rwc->rw", d, d), 0))


def _comb(prof: np.ndarray, x0: float) -> np.ndarray | None:
    """The comb of six columns from ``x0`` (offset within 0.35 of a point, spacing within 8 %) that
    sits on the highest ``prof`` (float (W,), a column profile of the rectified field); None where
    none fits in it."""
    width = prof.size
    xs = np.arange(width, dtype=np.float64)
    best, best_v = None, -np.inf
    for off in np.arange(-0.35, 0.351, 0.05) * POINT_PX:
        for sp in np.arange(0.92, 1.081, 0.02) * POINT_PX:
            c = x0 + off + (np.arange(6) + 0.5) * sp
            if c[0] < 0 or c[-1] > width - 1:
                continue
            v = float(np.interp(c, xs, prof).sum())
            if v > best_v:
                best, best_v = c, v
    return best


def _geometry(quad: np.ndarray, gap: float | None, image_size: tuple[int, int],
              score: float) -> BoardGeometry:
    """The geometry of a field ``quad`` (image pixels, points along TL-TR) with the bar's share ``gap``."""
    turn = _canonical_turn(quad)
    quad = np.roll(quad, -turn, axis=0).astype(np.float32)
    g = 0.0 if gap is None else gap
    width = 12 * POINT_PX / (1.0 - g)
    height = int(round(width * _aspect(quad)))
    w_px = int(round(width))
    dst = np.float32([[0, 0], [w_px, 0], [w_px, height], [0, height]])
    hmg = cv2.getPerspectiveTransform(quad, dst)
    cols = tuple(float(c) for c in point_centres_u(g) * w_px)
    bar = None
    if gap is not None:
        half = 0.5 * (1.0 - g) * w_px
        bar = (float(half), float(w_px - half))
    return BoardGeometry(hmg, (w_px, height), cols, bar, image_size, score,
                         tuple((float(x), float(y)) for x, y in quad))


def geometry_from_corners(image: np.ndarray, corners: np.ndarray, bar: float | None = None) -> BoardGeometry:
    """The geometry of a field whose four corners are known (markers, a user's clicks): float
    (4, 2) image pixels in any order, the points along the longer pair of sides. ``bar``: the bar's
    share of the field's width (0 for none); None tries ``_GAPS`` and keeps the one whose triangle
    pattern scores best (a bar must beat no bar by ``_GAP_MARGIN``). ``image``: the BGR uint8 frame
    (H, W, 3) the corners belong to. The score is the pattern score there (0 when the triangles
    cannot be seen: the corners are trusted)."""
    h, w = image.shape[:2]
    q = _order_corners(np.asarray(corners, dtype=np.float32).reshape(4, 2))
    if _edge_len(q[0], q[1]) + _edge_len(q[3], q[2]) < _edge_len(q[0], q[3]) + _edge_len(q[1], q[2]):
        q = np.roll(q, -1, axis=0)  # points along TL-TR: the longer sides
    scale = min(1.0, _WORK_SIDE / max(h, w))
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    work = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(work, cv2.COLOR_BGR2LAB)
    qs = q * (work.shape[1] / w)
    gaps = _GAPS if bar is None else (float(bar),)
    scored = [(0.5 * (lo + hi) - (_GAP_MARGIN if g and bar is None else 0.0), g)
              for g, (lo, hi) in zip(gaps, _pattern_scores(lab, qs, 12, gaps), strict=True)]
    score, gap = max(scored)
    geom = _geometry(q, gap if gap > 0 else None, (w, h), max(0.0, float(score)))
    return _align_columns(image, geom) if geom.bar is not None else geom


def pattern_score_at(image: np.ndarray, geom: BoardGeometry) -> float:
    """Triangle-pattern score of ``image`` where ``geom`` puts the points (about -1..1; see module)."""
    small = 1.0 * _SCORE_PX / POINT_PX
    scale = np.diag([small, small, 1.0])
    hmg = scale @ geom.homography
    width, height = int(round(geom.size[0] * small)), int(round(geom.size[1] * small))
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
    rect = cv2.warpPerspective(lab, hmg, (width, height), flags=cv2.INTER_AREA).astype(np.float32)
    return _score_rectified(rect, np.asarray(geom.columns) * small)[0]


def border_energy(image: np.ndarray, geom: BoardGeometry) -> float:
    """Median colour-gradient strength along the field's four sides where ``geom`` puts them.

    The triangle pattern repeats every two points, so a camera moved by a point or two can still
    score well on it; the field's outline does not repeat. Units: Di Zenzo magnitude (Lab, Sobel).
    """
    corners = np.asarray(geom.corners, dtype=np.float64)
    if corners.shape != (4, 2):
        return 0.0
    mag = colour_gradient(image)
    mag = cv2.GaussianBlur(mag, (5, 5), 1.0)
    h, w = mag.shape
    t = np.linspace(0.1, 0.9, 40)
    vals = []
    for i in range(4):
        a, b = corners[i], corners[(i + 1) % 4]
        pts = a[None, :] + t[:, None] * (b - a)[None, :]
        xs = np.clip(np.rint(pts[:, 0]).astype(np.intp), 0, w - 1)
        ys = np.clip(np.rint(pts[:, 1]).astype(np.intp), 0, h - 1)
        vals.append(mag[ys, xs])
    return float(np.median(np.concatenate(vals)))
