"""The field's true height, from its checkers: they are round on the board, so they must be round in
the rectified view.

The finder knows the field's four corners, and so its homography up to one unknown: how tall the
rectangle they bound is against its width. It takes that from the quadrilateral's sides, which is
right for a camera straight above the board but not for an oblique one: a keystone (the far edge
narrowed) lets the same four corners bound fields of different heights. A wrong height stretches
every checker into an ellipse, and the stacks' readers, which step one diameter per checker, then
miscount. The checkers themselves measure it: each disc found along the points' axes is fitted with
an ellipse whose axes lie along the view's, and the median ratio of their heights to their widths is
the stretch to undo. A board with too few checkers keeps the finder's height.

Each disc is read twice. Its whole outline gives the stretch, but it is measured short where the
disc touches a stacked neighbour or the frame at the point's base: where two rims of one colour meet
there is no edge, and the edge search takes the nearest other one (an inner ring, a shadow), inside
the outline. Its outline's sides alone (its ends along the points' axis left out) are spared that,
though they fit a strong stretch short: they confirm it. A stretch is undone only where both lie
beyond the tolerance on the same side of round.

The discs are found with rings as :func:`vision.checkers.stacks.ring_scores` finds them (but of a
few heights per width), placed by a coarse search on a matched filter (the gradient's component
across the ring's outline), then fitted to the outline's edge points (each the sub-pixel peak of that
component on the normal) by least squares on an axis-aligned conic, trimmed of the edge points that
lie off it (a neighbour's outline, a shadow).
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np

from vision.arrays import median
from vision.board.geometry import POINT_PX, BoardGeometry
from vision.board.view import FieldView

__all__ = ["checker_stretch", "round_checkers_view", "with_round_checkers"]

# Checker radii (point widths) and heights over widths tried to find the discs.
_FIND_RADII = (0.38, 0.42, 0.46)
_FIND_STRETCH = (0.8, 0.9, 1.0, 1.12, 1.25)
# Ring samples per disc.
_RING_N = 48
# ... of which every second is scored to find the discs.
_FIND_N = 24
# A ring sample is an edge when the gradient across the outline exceeds this and the one along it
# (Sobel units on 8-bit Lab, as the stacks' rings).
_EDGE = 45.0
# A disc is found where this share of its ring is an edge (a bare triangle's straight sides fill
# about half of a ring).
_RING_MIN = 0.6
# Heights over widths the fit may reach: a camera tilted by up to about 45 degrees either way.
_MAX_STRETCH = 1.5
# Enough discs to take their median (a third of the points' worth).
_MIN_DISCS = 8
# The outline's ends, either side of the points' axis, left out of its sides' reading: the arc over
# which a touching neighbour's outline lies within the first edge search's reach of a disc's.
_END_ARC_DEG = 35.0
# A stretch this close to 1 is left alone: the measure spreads this far on boards seen from above,
# and a corrected view is left within it too.
_TOLERANCE = 0.05


@functools.lru_cache(maxsize=1)
def _ring() -> tuple[np.ndarray, np.ndarray]:
    angles = np.linspace(0.0, 2.0 * np.pi, _RING_N, endpoint=False)
    return np.cos(angles), np.sin(angles)


@functools.lru_cache(maxsize=2)
def _arcs(sides: bool) -> np.ndarray:
    """The ring's samples a reading uses: all of them, or (``sides``) those off its ends."""
    _, s = _ring()
    if not sides:
        return np.ones(_RING_N, dtype=bool)
    return np.abs(s) <= np.cos(np.radians(_END_ARC_DEG)) + 1e-9


def _sample(img: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``img`` (float32 (H, W)) at the points ``x, y`` (any one shape), bilinear, clamped at the edges."""
    return _samples((img,), x, y)[0]


def _samples(imgs: tuple[np.ndarray, ...], x: np.ndarray, y: np.ndarray) -> list[np.ndarray]:
    """:func:`_sample` of each of ``imgs`` (float32 (H, W), one shape) at the same points, the
    same values: the points' pixels and weights found once for all of them."""
    h, w = imgs[0].shape
    x = np.clip(x, 0.0, w - 1.001)
    y = np.clip(y, 0.0, h - 1.001)
    x0 = x.astype(np.intp)
    y0 = y.astype(np.intp)
    fx, fy = x - x0, y - y0
    gx, gy = 1 - fx, 1 - fy
    i = y0 * w + x0
    out = []
    for img in imgs:
        flat = img.ravel()
        out.append((flat[i] * gx + flat[i + 1] * fx) * gy + (flat[i + w] * gx + flat[i + w + 1] * fx) * fy)
    return out


def _find_discs(gx: np.ndarray, gy: np.ndarray, columns: tuple[float, ...]) -> np.ndarray:
    """Disc ellipses along the points' axes: float (N, 4) x, y, half-width, height (rectified pixels).

    Every two pixels along each axis, the ring of each radius and stretch is scored (the share of
    its samples, taken at the nearest pixel, that are edges across it); the best-scoring places of at
    least ``_RING_MIN``, each at least most of a diameter from the last one kept on its axis, are
    the discs."""
    height, width = gx.shape
    ys = np.arange(0.0, height, 2.0)
    radii = np.array(_FIND_RADII) * POINT_PX
    stretch = np.array(_FIND_STRETCH)
    step = _RING_N // _FIND_N
    c, s = (v[::step] for v in _ring())
    # the ring's samples and normals for each (radius, stretch), relative to its centre
    rx = radii[:, None, None] * c  # (radii, 1, samples)
    ry = radii[:, None, None] * stretch[None, :, None] * s  # (radii, stretches, samples)
    nx, ny = stretch[None, :, None] * c, np.broadcast_to(s, ry.shape)
    norm = np.hypot(nx, ny)
    nx, ny = nx / norm, ny / norm
    # every place is an even row, and no ring offset lies near a half pixel, so a sample's row is
    # the place's row plus its offset rounded (the same pixel as rounding their sum)
    dy = np.rint(ry).astype(np.intp)  # (radii, stretches, samples)
    # places whose rings all lie within the rows need no test of their samples' rows
    inner = (ys + ry.min() >= 0) & (ys + ry.max() <= height - 1)
    rows = (ys.astype(np.intp) * width)[inner, None, None, None]
    # an edge across a ring is a strong gradient: the pixels that can be one (|across| <= |gradient|)
    strong = (np.hypot(gx, gy) > 0.999 * _EDGE).ravel()
    out = []
    for x in columns:
        xs = x + rx  # (radii, 1, samples)
        in_x = (xs >= 0) & (xs <= width - 1)
        xi = np.clip(np.rint(xs), 0, width - 1).astype(np.intp)
        score = np.empty((len(ys), len(radii), len(stretch)))
        score[inner] = _ring_scores(gx, gy, strong, rows + (dy * width + xi), in_x, nx, ny)
        # the places at the view's ends: each sample's row tested
        yy = ys[~inner, None, None, None] + ry  # (places, radii, stretches, samples)
        inside = in_x & (yy >= 0) & (yy <= height - 1)
        flat = np.clip(np.rint(yy), 0, height - 1).astype(np.intp) * width + xi
        score[~inner] = _ring_scores(gx, gy, strong, flat, inside, nx, ny)
        flat_score = score.reshape(len(ys), -1)
        best = flat_score.max(axis=1)
        pick = flat_score.argmax(axis=1)
        taken: list[float] = []
        for i in np.argsort(-best, kind="stable"):
            if best[i] < _RING_MIN:
                break
            if any(abs(ys[i] - t) < 0.8 * POINT_PX for t in taken):
                continue
            taken.append(float(ys[i]))
            ri, ai = divmod(int(pick[i]), len(stretch))
            out.append((float(x), float(ys[i]), float(radii[ri]), float(radii[ri] * stretch[ai])))
    return np.array(out, dtype=np.float64).reshape(-1, 4)


def _ring_scores(gx: np.ndarray, gy: np.ndarray, strong: np.ndarray, flat: np.ndarray,
                 inside: np.ndarray, nx: np.ndarray, ny: np.ndarray) -> np.ndarray:
    """Each ring's share of edges across it (:func:`_find_discs`): float (..., ) over ``flat`` (int
    (..., samples), the samples' pixels in the raveled view), 0 where under 80 % of it is inside
    (``inside``, bool, broadcast to ``flat``). ``nx, ny``: the samples' normals (broadcast to it).
    ``strong``: bool (H * W), the pixels whose gradient could be an edge. A ring whose strong samples
    alone fall short of ``_RING_MIN`` scores 0 (it is no disc either way); the rest exactly."""
    n = flat.shape[-1]
    shown = np.broadcast_to(inside.sum(axis=-1), flat.shape[:-1])
    maybe = (strong[flat] & inside).sum(axis=-1)
    need = (shown >= 0.8 * n) & (maybe >= (_RING_MIN - 1e-9) * shown)
    score = np.zeros(flat.shape[:-1])
    if need.any():
        f = flat[need]
        vx, vy = gx.ravel()[f], gy.ravel()[f]
        sx, sy = np.broadcast_to(nx, flat.shape)[need], np.broadcast_to(ny, flat.shape)[need]
        across = np.abs(vx * sx + vy * sy)
        along = np.abs(vy * sx - vx * sy)
        hit = (across > np.maximum(_EDGE, along)) & np.broadcast_to(inside, flat.shape)[need]
        score[need] = hit.sum(axis=-1) / np.maximum(shown[need], 1)
    return score


def _edge_points(gx: np.ndarray, gy: np.ndarray, ellipses: np.ndarray, reach: float,
                 arcs: np.ndarray) -> list[tuple[np.ndarray, np.ndarray] | None]:
    """The outline's edge points near each of ``ellipses`` (float (D, 4): x, y, half-width,
    half-height), relative to its centre: on each of the ring's normals in ``arcs`` (bool, the ring's
    samples), within ``reach`` pixels, the sub-pixel peak of the gradient across the outline, where it
    is an edge. None for a disc where too little of those arcs shows. All discs in one array pass."""
    xc, yc, rx, ry = (ellipses[:, i, None] for i in range(4))  # (D, 1) each
    c, s = (v[arcs] for v in _ring())
    nx, ny = ry * c, rx * s  # (D, samples)
    norm = np.hypot(nx, ny)
    nx, ny = nx / norm, ny / norm
    offsets = np.arange(-reach, reach + 1e-9, 0.25)
    px = (rx * c)[..., None] + offsets * nx[..., None]  # (D, samples, offsets)
    py = (ry * s)[..., None] + offsets * ny[..., None]
    h, w = gx.shape
    ax, ay = xc[..., None] + px, yc[..., None] + py
    inside = ((ax >= 0) & (ax <= w - 1) & (ay >= 0) & (ay <= h - 1)).all(axis=-1)
    vx, vy = _samples((gx, gy), ax, ay)
    across = np.abs(vx * nx[..., None] + vy * ny[..., None])
    along = np.abs(vy * nx[..., None] - vx * ny[..., None])
    k = np.argmax(across, axis=-1)  # (D, samples)
    peak = np.take_along_axis(across, k[..., None], axis=-1)[..., 0]
    side = np.take_along_axis(along, k[..., None], axis=-1)[..., 0]
    ok = (k > 0) & (k < len(offsets) - 1) & (peak > np.maximum(_EDGE, side)) & inside
    kk = np.clip(k, 1, len(offsets) - 2)
    lo, mid, hi = (np.take_along_axis(across, (kk + d)[..., None], axis=-1)[..., 0] for d in (-1, 0, 1))
    curve = lo - 2.0 * mid + hi
    shift = np.where(curve < 0, 0.5 * (lo - hi) / np.where(curve < 0, curve, -1.0), 0.0)
    d = offsets[kk] + np.clip(shift, -0.5, 0.5) * 0.25
    ex, ey = rx * c + d * nx, ry * s + d * ny
    return [(ex[i][ok[i]], ey[i][ok[i]]) if ok[i].sum() >= 0.6 * len(c) else None
            for i in range(len(ellipses))]


def _conic(px: np.ndarray, py: np.ndarray, least: float) -> tuple[float, float, float, float] | None:
    """The axis-aligned ellipse (x, y, half-width, half-height) through edge points ``px, py``
    (relative to a point inside it, so the conic's constant term is positive), least squares with
    the points far off it dropped twice; None where it is no ellipse or fewer than ``least`` points
    remain."""
    for _ in range(3):
        m = np.stack([px * px, py * py, px, py], axis=1)
        (ca, cb, cc, cd), *_ = np.linalg.lstsq(m, np.ones(len(px)), rcond=None)
        if ca <= 0 or cb <= 0:
            return None
        g = 1.0 + cc * cc / (4.0 * ca) + cd * cd / (4.0 * cb)
        if g <= 0:
            return None
        rx, ry = float(np.sqrt(g / ca)), float(np.sqrt(g / cb))
        x0, y0 = float(-cc / (2.0 * ca)), float(-cd / (2.0 * cb))
        off = np.abs(np.hypot((px - x0) / rx, (py - y0) / ry) - 1.0) * rx
        keep = off < max(0.75, 2.0 * float(median(off, 0)))  # (numpy's median, without its checks)
        if keep.all():
            break
        px, py = px[keep], py[keep]
        if len(px) < least:
            return None
    return x0, y0, rx, ry


def _fits(gx: np.ndarray, gy: np.ndarray, ellipses: np.ndarray, arcs: np.ndarray) -> list[float]:
    """Height over width of each checker's outline found near ``ellipses`` (float (D, 4): x, y,
    half-width, half-height), read on the ring's samples ``arcs``: fitted to the edge points within a
    few pixels, then again to those within two of that fit. A disc where too little of it shows, or
    that is no checker's shape, gives none (the list holds the others, in order)."""
    live = list(range(len(ellipses)))
    current = np.array(ellipses, dtype=np.float64).reshape(-1, 4)  # (a copy: moved as fitted)
    for reach in (4.0, 2.0):
        found = _edge_points(gx, gy, current[live], reach, arcs)
        kept = []
        for i, pts in zip(live, found, strict=True):
            fitted = None if pts is None else _conic(*pts, 0.5 * float(arcs.sum()))
            if fitted is None:
                continue
            x0, y0, rx, ry = fitted
            if abs(x0) > reach + 1.0 or abs(y0) > reach + 1.0:
                continue  # drawn off the disc (a neighbour's outline)
            e = current[i]
            current[i] = (e[0] + x0, e[1] + y0, rx, ry)
            kept.append(i)
        live = kept
    ratios = (float(current[i, 3] / current[i, 2]) for i in live)
    return [r for r in ratios if 1.0 / _MAX_STRETCH <= r <= _MAX_STRETCH]


def checker_stretch(view: FieldView) -> float | None:
    """How much taller than wide the checkers lie in ``view`` (its field's rectified view): the
    median height over width of the whole outlines of the discs found on the points' axes; one
    beyond ``_TOLERANCE`` stands where the median of their sides' readings confirms it (lies beyond
    it on the same side of 1), else 1. None with fewer than ``_MIN_DISCS`` discs in a reading (an
    empty board, a bear-off)."""
    gx, gy = view.gradients
    discs = _find_discs(gx, gy, view.geom.columns)
    if len(discs) < _MIN_DISCS:
        return None
    readings: list[float] = []
    for sides_only in (False, True):
        ratios = _fits(gx, gy, discs, _arcs(sides_only))
        if len(ratios) < _MIN_DISCS:
            return None
        readings.append(float(np.median(ratios)) - 1.0)
        if abs(readings[0]) <= _TOLERANCE:
            return 1.0 + readings[0]  # (round enough: nothing to confirm)
    whole, sides = readings
    confirmed = abs(sides) > _TOLERANCE and whole * sides > 0
    return 1.0 + whole if confirmed else 1.0


def with_round_checkers(image: np.ndarray, geom: BoardGeometry) -> BoardGeometry:
    """``geom`` with its rectified height made the one in which the checkers of ``image`` (the BGR
    uint8 frame it belongs to) are round; ``geom`` itself when they are (within ``_TOLERANCE``) or
    too few show. The corners, the columns and the bar stay: only the view's vertical scale moves."""
    return round_checkers_view(image, geom).geom


def round_checkers_view(image: np.ndarray, geom: BoardGeometry, rect: np.ndarray | None = None) -> FieldView:
    """The view of ``image`` (BGR uint8 (H, W, 3)) in :func:`with_round_checkers`'s geometry
    (``.geom``): the last one measured (the reader reads the field in it, its warp and gradients
    already made), made anew only after a second correction. ``rect``: ``geom.rectify(image)``,
    when the caller made it already (the first view is then not warped again)."""
    out = geom
    # (measured again in the view it gives: a strong stretch is measured a little short, the fit's
    # edge search starting from rings of at most a few stretches)
    for i in range(2):
        view = FieldView(rect, out, image) if i == 0 and rect is not None else FieldView.of_frame(image, out)
        stretch = checker_stretch(view)
        if stretch is None or abs(stretch - 1.0) <= _TOLERANCE:
            return view
        width, height = out.size
        new_height = max(1, int(round(height / stretch)))
        scale = np.diag([1.0, new_height / height, 1.0])
        out = dataclasses.replace(out, homography=scale @ out.homography, size=(width, new_height))
    return FieldView.of_frame(image, out)
