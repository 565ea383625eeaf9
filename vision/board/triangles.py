"""Field candidates from the points' triangles themselves, found as pairs of straight edges.

Every backgammon board has 24 long, narrow triangles whose tips point at the field's middle. The
outline finder (:mod:`vision.board.finder`) needs the field to stand out from the frame as one
region; on a wooden board (walnut field in a walnut frame) or a tournament case (dark points against
a dark frame) it does not. The triangles' sides are there on every board, so this module:

1. **Triangles.** Straight segments (OpenCV's line segment detector on L, a and b) that meet at one
   end at a narrow angle, with one colour between them and another outside, are a triangle: its tip,
   its axis (tip to base) and its length.
2. **Rows.** Tips whose axes agree (one direction, or its opposite) and that lie on one line are a
   row. Two rows face each other when each row's bases lie beyond its tips, away from the other row
   (the gaps between triangles are triangles too, but theirs point inward).
3. **Columns.** The two rows' lines meet at the vanishing point of the board's long side and the
   axes at that of its short side; sending both to infinity leaves an affine view where the tips are
   evenly spaced, so each tip gets its column (0-11) and the bar shows as the one wider gap.
4. **Field.** The field's corners lie half a point beyond the outer columns, on the bases' lines;
   mapped back, they are candidates for the finder's refinement and pattern score, which decide.
5. **Evidence.** Where the pattern is hidden (a sleeve over a row, checkers on most bases), a field
   can stand on its tips alone (:func:`fixed_by_tips`): both rows' tips on its columns, its two
   outermost columns among them, so that no column lies where no tip was seen.

Everything is measured in the triangles' own sizes (lengths, spacing), not in pixels.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import cv2
import numpy as np

from vision.board.geometry import point_centres_u

__all__ = ["TipColumns", "field_candidates", "find_triangles", "fixed_by_tips", "support", "tip_columns"]

# A point's apex angle: tall narrow triangles (4-8 point widths tall for one wide) give 7-28 degrees.
_APEX_DEG = (5.0, 35.0)
# Segments shorter than this share of the image's long side are texture, not a triangle's side.
_MIN_SEG = 1.0 / 30.0
# At most this many segments are paired (the longest), bounding the pairing's cost.
_MAX_SEGS = 500
# Two sides' tips meet within this share of the shorter side's length.
_TIP_MEET = 0.12
# Inside and outside colours differ by at least this Lab distance (a faint grain line does not).
_MIN_CONTRAST = 18.0
# Axes within this angle (degrees) of the board's short-side direction count as one orientation.
_AXIS_TOL = 25.0
# A tip belongs to a row's line within this share of the row's spacing.
_ROW_TOL = 0.3
# A row needs this many tips (a half-board row has 6; checkers cover some tips).
_MIN_ROW = 4
# A row facing one already found needs this many tips (its line and one gap to check the spacing by).
_MIN_FACING = 3
# A tip may lie this share of its triangle's length short of its row's line (a faint tip fades out).
_TIP_FADE = 0.1
# Two rows' spacings agree within this share; a gap is a whole number (at most _MAX_SKIP) of
# columns within _STEP_TOL of a column.
_STEP_AGREE = 0.15
_MAX_SKIP = 4
_STEP_TOL = 0.15
# A bar is at least this share of a point wide (narrower, it is a gap between two points).
_MIN_BAR = 0.3
# Neighbouring columns lie a step apart; closer than this share of a step, one of them is no column.
_MIN_COLUMN_GAP = 0.75
# A tip lies on its point's centre line: within this many point widths of it (half way to the
# point's side), its base within _BASE_ON_COLUMN (inside the point's own base, a point wide).
_ON_COLUMN = 0.25
_BASE_ON_COLUMN = 0.5
# Of the tips pointing as a field's rows do, this share lies on its columns where the tips alone
# are to fix it: room for a stray triangle (a checker's rim or a die cutting one) where a field
# half a point or more off misses nearly all of them.
_ON_SHARE = 0.75


def find_triangles(lab: np.ndarray) -> np.ndarray:
    """Triangles in a Lab uint8 image (H, W, 3): float (N, 6) rows ``tip_x, tip_y, axis_x, axis_y,
    length, contrast`` (axis a unit vector from the tip to the base), duplicates merged."""
    h, w = lab.shape[:2]
    lsd = cv2.createLineSegmentDetector()
    found = []
    for ch in range(3):
        segs = lsd.detect(np.ascontiguousarray(lab[:, :, ch]))[0]
        if segs is not None:
            found.append(segs.reshape(-1, 4))
    if not found:
        return np.zeros((0, 6))
    seg = np.concatenate(found).astype(np.float64)
    length = np.hypot(seg[:, 2] - seg[:, 0], seg[:, 3] - seg[:, 1])
    keep = length > _MIN_SEG * max(h, w)
    seg, length = seg[keep], length[keep]
    longest = np.argsort(-length)[:_MAX_SEGS]  # a cluttered frame: its longest edges
    seg, length = seg[longest], length[longest]
    n = len(seg)
    if n < 2:
        return np.zeros((0, 6))
    # every segment's two ends as a possible tip, the other end as its far end
    tips = np.concatenate([seg[:, :2], seg[:, 2:]]).astype(np.float32)
    far = np.concatenate([seg[:, 2:], seg[:, :2]])
    which = np.concatenate([np.arange(n), np.arange(n)])
    lens = np.concatenate([length, length]).astype(np.float32)
    ii, jj = _meeting_ends(tips, lens, which)
    if len(ii) == 0:
        return np.zeros((0, 6))
    ua = (far[ii] - tips[ii]) / lens[ii, None]
    ub = (far[jj] - tips[jj]) / lens[jj, None]
    cos = np.sum(ua * ub, axis=1)
    lo, hi = np.cos(np.radians(_APEX_DEG[1])), np.cos(np.radians(_APEX_DEG[0]))
    ratio = np.minimum(lens[ii], lens[jj]) / np.maximum(lens[ii], lens[jj])
    ok = (cos > lo) & (cos < hi) & (ratio > 0.4)
    ii, jj, ua, ub, cos = ii[ok], jj[ok], ua[ok], ub[ok], cos[ok]
    if len(ii) == 0:
        return np.zeros((0, 6))
    tip = 0.5 * (tips[ii] + tips[jj])
    axis = ua + ub
    axis /= np.linalg.norm(axis, axis=1)[:, None]
    cand = np.column_stack([tip, axis, np.maximum(lens[ii], lens[jj]), cos])
    contrast = _contrasts(lab, cand)
    cand[:, 5] = contrast
    cand = cand[contrast >= _MIN_CONTRAST]
    return _merge(cand)


def _meeting_ends(tips: np.ndarray, lens: np.ndarray, which: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pairs (i, j) of segment ends (``tips`` float32 (M, 2), their segments' ``lens`` float32 (M,)
    and indices ``which`` (M,)) within ``_TIP_MEET`` of the shorter segment's length of each other,
    ``which[i] < which[j]``, in row-major order: the pairs of the full (M, M) comparison, but only
    ends whose x lie within the longest reach are compared (a frame holds up to a thousand ends)."""
    xs = tips[:, 0]
    order = np.argsort(xs, kind="stable")
    sorted_x = xs[order]
    # a superset of the reach in x (float32 rounding of the exact test below stays inside it)
    reach_max = 1.01 * _TIP_MEET * float(lens.max()) + 1.0
    lo = np.searchsorted(sorted_x, xs - reach_max, side="left")
    hi = np.searchsorted(sorted_x, xs + reach_max, side="right")
    counts = hi - lo
    ii = np.repeat(np.arange(len(xs)), counts)
    starts = np.repeat(lo - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
    jj = order[starts + np.arange(len(ii))]
    dx = tips[ii, 0] - tips[jj, 0]
    dy = tips[ii, 1] - tips[jj, 1]
    reach = _TIP_MEET * np.minimum(lens[ii], lens[jj])
    keep = (dx * dx + dy * dy < reach * reach) & (which[ii] < which[jj])
    ii, jj = ii[keep], jj[keep]
    rank = np.lexsort((jj, ii))
    return ii[rank], jj[rank]


def _contrasts(lab: np.ndarray, tri: np.ndarray) -> np.ndarray:
    """Lab distance between the median colour inside each triangle and beside it (both sides),
    0 where the inside is not one colour (a spread over half the contrast)."""
    h, w = lab.shape[:2]
    tip, axis, length = tri[:, 0:2], tri[:, 2:4], tri[:, 4]
    half_tan = np.tan(np.arccos(np.clip(tri[:, 5], -1, 1)) / 2)
    side = np.stack([-axis[:, 1], axis[:, 0]], axis=1)
    inside, outside = [], []
    for f in (0.35, 0.5, 0.65):
        centre = tip + axis * (length * f)[:, None]
        width = (length * f * half_tan)[:, None]
        inside.append(centre)
        outside.append(centre + side * width * 1.8)
        outside.append(centre - side * width * 1.8)

    def sample(pts: list[np.ndarray]) -> np.ndarray:
        p = np.stack(pts, axis=1)  # (N, k, 2)
        xs = np.clip(np.rint(p[..., 0]).astype(np.intp), 0, w - 1)
        ys = np.clip(np.rint(p[..., 1]).astype(np.intp), 0, h - 1)
        return lab[ys, xs].astype(np.float64)  # (N, k, 3)

    ins, outs = sample(inside), sample(outside)
    ci, co = np.median(ins, axis=1), np.median(outs, axis=1)
    contrast = np.linalg.norm(ci - co, axis=1)
    spread = np.median(np.linalg.norm(ins - ci[:, None, :], axis=2), axis=1)
    return np.where(spread <= 0.5 * contrast, contrast, 0.0)


def _merge(tri: np.ndarray) -> np.ndarray:
    """One triangle per tip: of those whose tips lie within a fifth of their length and whose axes
    agree, the one with the strongest contrast."""
    order = np.argsort(-tri[:, 5])
    kept = np.zeros((len(tri), 6))
    m = 0
    for t in tri[order]:
        # (each against all kept at once: a frame holds hundreds of candidate triangles)
        k = kept[:m]
        near = np.hypot(t[0] - k[:, 0], t[1] - k[:, 1]) < 0.2 * np.minimum(t[4], k[:, 4])
        if (near & (t[2] * k[:, 2] + t[3] * k[:, 3] > 0.9)).any():
            continue
        kept[m] = t
        m += 1
    return kept[:m].copy() if m else np.zeros((0, 6))


def support(tri: np.ndarray, quad: np.ndarray) -> int:
    """How many of the triangles ``tri`` (:func:`find_triangles`) have their tips inside ``quad``
    (4 corners, the same pixels): a field holds its points' triangles; a score card's stripes or a
    tray's dividers, which may alternate like points, hold none."""
    poly = np.asarray(quad, np.float32).reshape(-1, 1, 2)
    return sum(cv2.pointPolygonTest(poly, (float(x), float(y)), False) >= 0 for x, y in tri[:, :2])


@dataclass(frozen=True)
class TipColumns:
    """Where a field's tips lie on its columns (:func:`tip_columns`): ``rows``, for the row along
    the quad's first side and the one along its third, the columns (0-11, counted from the quad's
    first corner) that hold a tip; of the tips pointing as a row's do, ``on`` lie on a column and
    ``astray`` on none."""

    rows: tuple[frozenset[int], frozenset[int]]
    on: int
    astray: int


def tip_columns(tri: np.ndarray, quad: np.ndarray, gap: float) -> TipColumns:
    """The tips of triangles ``tri`` (:func:`find_triangles`) on the columns of field ``quad`` (4
    corners, the same pixels, points along its first and third sides) whose bar takes the share
    ``gap`` of its width. A row's tip lies in its half of the field with its base toward the row's
    side; it is on a column within ``_ON_COLUMN`` point widths of the column's centre line, its
    base within ``_BASE_ON_COLUMN`` (measured in the field's own frame: perspective cancels)."""
    if len(tri) == 0:
        return TipColumns((frozenset(), frozenset()), 0, 0)
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    hmg = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), unit)
    ends = np.concatenate([tri[:, :2], tri[:, :2] + tri[:, 2:4] * tri[:, 4:5]])
    mapped = cv2.perspectiveTransform(ends.reshape(-1, 1, 2).astype(np.float64), hmg).reshape(-1, 2)
    tip, base = mapped[: len(tri)], mapped[len(tri) :]
    centres, pw = point_centres_u(gap), (1.0 - gap) / 12.0
    inside = np.all((tip >= 0.0) & (tip <= 1.0), axis=1)
    first = inside & (tip[:, 1] < 0.5) & (base[:, 1] < tip[:, 1])
    third = inside & (tip[:, 1] > 0.5) & (base[:, 1] > tip[:, 1])
    col = np.argmin(np.abs(tip[:, :1] - centres[None, :]), axis=1)
    on = ((np.abs(tip[:, 0] - centres[col]) < _ON_COLUMN * pw)
          & (np.abs(base[:, 0] - centres[col]) < _BASE_ON_COLUMN * pw))
    rows = (frozenset(col[first & on].tolist()), frozenset(col[third & on].tolist()))
    return TipColumns(rows, int(np.sum((first | third) & on)), int(np.sum((first | third) & ~on)))


def fixed_by_tips(tri: np.ndarray, quad: np.ndarray, gap: float) -> bool:
    """Whether the tips of ``tri`` alone fix field ``quad`` with bar share ``gap`` (as
    :func:`tip_columns`), for a field whose colour pattern is hidden:

    - each row holds the tips of a row facing another (``_MIN_FACING`` columns), both together as
      many as a field is fitted from (twice ``_MIN_ROW``);
    - at least ``_ON_SHARE`` of the tips pointing as the rows' do lie on its columns;
    - the two outermost columns hold a tip: no column of the field lies beyond the tips seen.
      :func:`_column_spans` offers the field a column wider on a side whose outer column is not
      seen, and the tips fit every such width alike; with both seen, the bar is the width left
      over, and no other field of twelve columns holds the same tips at its ends;
    - without a bar, the two middle columns hold a tip: a bar a whole number of points wide (one
      point is common) is there a column with no tip, and the board's outer column, unseen, is
      then left out.
    """
    tips = tip_columns(tri, quad, gap)
    top, bottom = tips.rows
    seen = top | bottom
    return (min(len(top), len(bottom)) >= _MIN_FACING and len(top) + len(bottom) >= 2 * _MIN_ROW
            and tips.on >= _ON_SHARE * (tips.on + tips.astray)
            and {0, 11} <= seen and (gap > 0 or {5, 6} <= seen))


def _orientation(tri: np.ndarray) -> np.ndarray | None:
    """The board's short-side direction (a unit vector) as the axes' dominant orientation (angles
    doubled so that a direction and its opposite agree), weighted by contrast."""
    ang = np.arctan2(tri[:, 3], tri[:, 2])
    wgt = tri[:, 5]
    c, s = float(np.sum(wgt * np.cos(2 * ang))), float(np.sum(wgt * np.sin(2 * ang)))
    if np.hypot(c, s) < 0.3 * float(np.sum(wgt)):
        return None  # no dominant orientation
    a = 0.5 * np.arctan2(s, c)
    return np.array([np.cos(a), np.sin(a)])


def _rows(tips: np.ndarray, across: np.ndarray, spacing: float, slack: np.ndarray | None = None,
          min_row: int = _MIN_ROW) -> list[np.ndarray]:
    """Lines of tips (index arrays into ``tips``), best supported first: greedy RANSAC over pairs of
    tips whose line runs roughly along ``across`` (the board's long side), each tip within
    ``_ROW_TOL`` of ``spacing`` of the line plus its own ``slack`` (pixels, per tip), at least
    ``min_row`` tips. The best line's direction is then taken again from all its tips
    (:func:`_robust_line`): a stray tip at one end of a row, fitted as one of the pair, tilts the
    line and takes the place of a real tip at the other end."""
    extra = np.zeros(len(tips)) if slack is None else np.asarray(slack, np.float64)
    left = np.arange(len(tips))
    found = []
    while len(left) >= min_row:
        best: np.ndarray | None = None
        pts, tol = tips[left], _ROW_TOL * spacing + extra[left]
        for i, j in itertools.combinations(range(len(left)), 2):
            d = pts[j] - pts[i]
            norm = float(np.hypot(*d))
            if norm < 1e-6 or abs(d @ across) / norm < np.cos(np.radians(_AXIS_TOL)):
                continue
            normal = np.array([-d[1], d[0]]) / norm
            dist = np.abs((pts - pts[i]) @ normal)
            inl = np.nonzero(dist < tol)[0]
            if best is None or len(inl) > len(best):
                best = inl
        if best is None or len(best) < min_row:
            break
        again = _robust_line(pts, best, across, tol)
        if len(again) >= len(best):
            best = again
        found.append(left[best])
        left = np.delete(left, best)
    return found


def _robust_line(pts: np.ndarray, inl: np.ndarray, across: np.ndarray, tol: np.ndarray) -> np.ndarray:
    """The tips of ``pts`` within ``tol`` of the line through the tips ``inl`` by the repeated
    median (each tip's median slope to the others, then their median; the offset the median of
    the tips'): up to half of them stray without moving it. Slopes are taken against ``across``."""
    normal = np.array([-across[1], across[0]])
    u, v = pts[inl] @ across, pts[inl] @ normal
    du, dv = u[None, :] - u[:, None], v[None, :] - v[:, None]
    np.fill_diagonal(du, np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = float(np.median(np.nanmedian(dv / du, axis=1)))
    if not np.isfinite(slope):
        return inl
    n = np.array([-slope, 1.0]) / np.hypot(slope, 1.0)  # the line's normal in (u, v)
    off = float(np.median(n[0] * u + n[1] * v))
    dist = np.abs(n[0] * (pts @ across) + n[1] * (pts @ normal) - off)
    return np.nonzero(dist < tol)[0]


def _line(pts: np.ndarray) -> np.ndarray:
    """Homogeneous least-squares line through points (k, 2)."""
    c = pts.mean(axis=0)
    _, _, vt = np.linalg.svd(pts - c)
    d = vt[0]
    n = np.array([-d[1], d[0]])
    return np.array([n[0], n[1], -n @ c])


def _vanishing(lines: np.ndarray) -> np.ndarray:
    """Least-squares common point (homogeneous) of lines (k, 3)."""
    ln = lines / np.linalg.norm(lines[:, :2], axis=1)[:, None]
    _, _, vt = np.linalg.svd(ln)
    return vt[-1]


def field_candidates(lab: np.ndarray, tri: np.ndarray | None = None) -> list[tuple[np.ndarray, float]]:
    """Field quads (TL, TR, BR, BL float32 in ``lab``'s pixels, points along TL-TR and BL-BR) with the
    bar's share of the width (0 for none), from the triangles in ``lab`` (Lab uint8 (H, W, 3));
    ``tri``: :func:`find_triangles` of ``lab`` when already found."""
    tri = find_triangles(lab) if tri is None else tri
    if len(tri) < 2 * _MIN_ROW:
        return []
    down = _orientation(tri)
    if down is None:
        return []
    along = np.array([-down[1], down[0]])
    cos = tri[:, 2:4] @ down
    tol = np.cos(np.radians(_AXIS_TOL))
    spacing = 0.25 * float(np.median(tri[:, 4]))  # a point is about a quarter of a triangle long
    groups = {+1: tri[cos > tol], -1: tri[cos < -tol]}
    rows = {k: [g[r] for r in _rows(g[:, :2], along, spacing)] for k, g in groups.items()}
    out: list[tuple[np.ndarray, float]] = []
    for plus, minus in itertools.product(rows[+1], rows[-1]):
        if _facing(plus, minus, down):
            out.extend(_fields(minus, plus, along))
    if not out:
        # one row under a hand or checkers: a row already found fixes the spacing and direction
        for k, anchors in rows.items():
            for anchor in anchors:
                for other in _short_rows(anchor, groups[-k], along):
                    plus, minus = (anchor, other) if k == +1 else (other, anchor)
                    if _facing(plus, minus, down):
                        out.extend(_fields(minus, plus, along, short_top=k == +1))
    return out


def _facing(plus: np.ndarray, minus: np.ndarray, down: np.ndarray) -> bool:
    """Whether two rows face each other: the tips with axis +down (their bases further along +down)
    lie beyond the others."""
    return float(np.median(plus[:, :2] @ down)) > float(np.median(minus[:, :2] @ down))


def _short_rows(anchor: np.ndarray, others: np.ndarray, along: np.ndarray) -> list[np.ndarray]:
    """Rows of ``others`` (triangles of the opposite axis) with fewer tips than a row needs alone,
    ``_MIN_FACING`` or more, where the row ``anchor`` gives their spacing and direction: along its
    line, and all gaps but one (the bar) whole multiples of its spacing. A tip lies within its
    triangle's ``_TIP_FADE`` of the line beyond the spacing's share: a faint tip fades into the
    field, so tips are least precise along their axes."""
    direction = np.linalg.svd(anchor[:, :2] - anchor[:, :2].mean(axis=0))[2][0]
    step = _row_step(np.sort(anchor[:, :2] @ direction))
    if step is None or len(others) < _MIN_FACING:
        return []
    out = []
    for r in _rows(others[:, :2], direction, step, _TIP_FADE * others[:, 4], _MIN_FACING):
        gaps = np.diff(np.sort(others[r, :2] @ direction)) / step
        k = np.rint(gaps)
        whole = (k >= 1) & (k <= _MAX_SKIP) & (np.abs(gaps - k) < _STEP_TOL)
        if int(np.sum(~whole)) <= 1:
            out.append(others[r])
    return out


def _fields(top: np.ndarray, bottom: np.ndarray, along: np.ndarray,
            short_top: bool | None = None) -> list[tuple[np.ndarray, float]]:
    """Field quads for one pair of facing rows (``top``: bases toward -down, ``bottom``: toward +down);
    ``short_top``: which row has too few tips to fix its own direction (:func:`_short_rows`; its
    line is drawn parallel to the other's, a few tips' slope would put the long side's vanishing
    point, and so the rectification, anywhere), None for neither."""
    l_top, l_bot = _line(top[:, :2]), _line(bottom[:, :2])
    if short_top is not None:
        short, anchor = (top, l_bot) if short_top else (bottom, l_top)
        parallel = np.array([anchor[0], anchor[1], -float(np.median(short[:, :2] @ anchor[:2]))])
        l_top, l_bot = (parallel, l_bot) if short_top else (l_top, parallel)
    # the short row's axes too are too few to place the short side's vanishing point
    axes = np.concatenate([top, bottom]) if short_top is None else (bottom if short_top else top)
    axis_lines = np.array([np.cross([x, y, 1.0], [x + ax, y + ay, 1.0]) for x, y, ax, ay, *_ in axes])
    vp_long = np.cross(l_top, l_bot)
    vp_short = _vanishing(axis_lines)
    horizon = np.cross(vp_long, vp_short)
    if abs(horizon[2]) < 1e-12:
        return []
    horizon = horizon / horizon[2]
    affine = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], horizon])

    def warp(pts: np.ndarray) -> np.ndarray:
        p = np.column_stack([pts, np.ones(len(pts))]) @ affine.T
        if np.any(p[:, 2] <= 0):
            raise ValueError("a point beyond the horizon")
        return p[:, :2] / p[:, 2:3]

    try:
        t_tips, b_tips = warp(top[:, :2]), warp(bottom[:, :2])
        t_base = warp(top[:, :2] + top[:, 2:4] * top[:, 4:5])
        b_base = warp(bottom[:, :2] + bottom[:, 2:4] * bottom[:, 4:5])
    except ValueError:
        return []
    # affine frame: u along the rows, v along the axes (an oblique frame: columns are lines along v)
    rows_uv = np.concatenate([t_tips - t_tips.mean(axis=0), b_tips - b_tips.mean(axis=0)])
    u_dir = np.linalg.svd(rows_uv)[2][0]  # both rows' common direction (parallel in this frame)
    if u_dir @ along < 0:
        u_dir = -u_dir
    v_dir = np.median(np.concatenate([b_base - b_tips, t_tips - t_base]), axis=0)
    v_dir /= np.linalg.norm(v_dir)
    frame = np.column_stack([u_dir, v_dir])
    if abs(np.linalg.det(frame)) < 0.2:
        return []
    to_uv = np.linalg.inv(frame)

    def uv(p: np.ndarray) -> np.ndarray:
        return np.asarray(p @ to_uv.T)

    tt, bt = uv(t_tips), uv(b_tips)
    step = _column_step([np.sort(tt[:, 0]), np.sort(bt[:, 0])])
    if step is None:
        return []
    u = np.sort(np.concatenate([tt[:, 0], bt[:, 0]]))
    tips_img = np.concatenate([top[:, :2], bottom[:, :2]])
    ends_img = tips_img + np.concatenate([top[:, 2:4] * top[:, 4:5], bottom[:, 2:4] * bottom[:, 4:5]])
    tips_u = np.concatenate([tt[:, 0], bt[:, 0]])
    row_v = np.concatenate([np.zeros(len(top)), np.ones(len(bottom))])
    out = []
    for first, last, gap in _column_spans(u, step):
        quad = _fit_field(tips_img, ends_img, tips_u, row_v, first, last, step, gap)
        if quad is None:
            continue
        x, y = quad[:, 0], quad[:, 1]
        if float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) < 0:
            quad = quad[[1, 0, 3, 2]]  # clockwise on screen, as the finder's quads are
        out.append((quad, float(gap)))
    return out


def _fit_field(tips: np.ndarray, ends: np.ndarray, tips_u: np.ndarray, row_v: np.ndarray,
               first: float, last: float, step: float, gap: float) -> np.ndarray | None:
    """The field's corners (image pixels, TL TR BR BL in the model's order) for one column
    hypothesis: each tip is given its column, a homography is fitted from all tips to the model
    (column centres in point widths across, the top row's tips at 0 and the bottom row's at 1 down),
    and the bases lie beyond the tips by the triangles' length in that model (the longer ones: a
    checker on a base shortens its sides)."""
    bar_pw = gap * 12.0 / (1.0 - gap)  # the bar's width in point widths
    half = first + 5.5 * step  # left of this, the left half's columns
    col = np.where(tips_u < half, np.rint((tips_u - first) / step),
                   6 + np.rint((tips_u - (last - 5 * step)) / step))
    resid = np.where(tips_u < half, (tips_u - first) / step, 6 + (tips_u - (last - 5 * step)) / step) - col
    keep = (col >= 0) & (col <= 11) & (np.abs(resid) < 0.35)
    if int(keep.sum()) < 2 * _MIN_ROW or len(set(row_v[keep])) < 2:
        return None
    model_x = col[keep] + 0.5 + np.where(col[keep] >= 6, bar_pw, 0.0)
    dst = np.column_stack([model_x, row_v[keep]]).astype(np.float32)
    hmg, _ = cv2.findHomography(tips[keep].astype(np.float32), dst, 0)
    if hmg is None:
        return None
    e = cv2.perspectiveTransform(ends[keep].reshape(-1, 1, 2).astype(np.float32), hmg).reshape(-1, 2)
    length = np.where(row_v[keep] == 0, -e[:, 1], e[:, 1] - 1.0)
    if not np.any(length > 0):
        return None
    ln = float(np.percentile(length[length > 0], 80))
    width = 12.0 + bar_pw
    model = np.float32([[0, -ln], [width, -ln], [width, 1 + ln], [0, 1 + ln]]).reshape(-1, 1, 2)
    try:
        inv = np.linalg.inv(hmg)
    except np.linalg.LinAlgError:
        return None
    quad = cv2.perspectiveTransform(model, inv).reshape(4, 2)
    return quad.astype(np.float32) if np.all(np.isfinite(quad)) else None


def _column_step(rows: list[np.ndarray]) -> float | None:
    """The column spacing shared by two rows of tips (each sorted along the row): the rows' own
    spacings (:func:`_row_step`) when they agree within ``_STEP_AGREE``, else the one under which
    more of both rows' gaps are whole multiples of it (:func:`_explained`). A row whose points are
    mostly under checkers shows mostly double gaps, and its own spacing then comes out between one
    and two columns."""
    steps = [st for st in (_row_step(u) for u in rows) if st]
    if not steps:
        return None
    if max(steps) <= (1.0 + _STEP_AGREE) * min(steps):
        return float(np.median(steps))
    gaps = np.concatenate([np.diff(u) for u in rows])
    return max(steps, key=lambda st: _explained(gaps, st))


def _explained(gaps: np.ndarray, step: float) -> float:
    """How well the spacing ``step`` explains the ``gaps`` between neighbouring tips: each gap
    within ``_STEP_TOL`` of a step of ``k`` whole steps (1-``_MAX_SKIP``) counts ``1 / k`` (a
    half spacing explains every gap too, but each only half as well)."""
    ratio = gaps / step
    k = np.rint(ratio)
    ok = (k >= 1) & (k <= _MAX_SKIP) & (np.abs(ratio - k) < _STEP_TOL)
    return float(np.sum(1.0 / k[ok]))


def _row_step(u: np.ndarray) -> float | None:
    """The spacing of one row's evenly spaced tips at ``u`` (sorted, some missing, one wider gap): the
    median of the gaps near the smallest common one."""
    d = np.diff(u)
    if len(d) < 3:
        return None
    base = float(np.percentile(d, 30))
    near = d[(d > 0.7 * base) & (d < 1.3 * base)]
    return float(np.median(near)) if len(near) else None


def _column_spans(u: np.ndarray, step: float) -> list[tuple[float, float, float]]:
    """Hypotheses (centre of column 0, centre of column 11, bar share of the width) for tips at
    ``u`` (sorted; both rows' tips merged) spaced ``step``: the tips are clustered into columns, the
    one gap that is not a whole number of steps is the bar, and the outer columns are the outermost
    tips or one or two steps beyond where fewer than 12 columns are seen."""
    c = _columns(u, step)
    if len(c) < 4:
        return []
    gaps = np.diff(c) / step
    frac = np.abs(gaps - np.rint(gaps))
    out = []
    seen = int(np.rint((c[-1] - c[0]) / step)) + 1
    if seen <= 12 and not np.any(frac > 0.25):
        # no bar: 12 columns evenly spaced, those not seen beyond either end
        for extra_left in range(0, 12 - seen + 1):
            first = c[0] - extra_left * step
            out.append((first, first + 11 * step, 0.0))
    # a bar: any gap wider than a point and a half, with the columns not seen next to it or outside
    for k in np.nonzero(gaps > 1.5)[0]:
        left_n = int(np.rint((c[k] - c[0]) / step)) + 1
        right_n = int(np.rint((c[-1] - c[k + 1]) / step)) + 1
        if left_n > 6 or right_n > 6:
            continue
        for miss_left_out in range(0, 6 - left_n + 1):
            for miss_right_out in range(0, 6 - right_n + 1):
                first = c[0] - miss_left_out * step
                last = c[-1] + miss_right_out * step
                bar_w = (last - 5 * step) - (first + 5 * step) - step
                if bar_w < _MIN_BAR * step:
                    continue
                out.append((first, last, bar_w / (12 * step + bar_w)))
    return out


def _columns(u: np.ndarray, step: float) -> np.ndarray:
    """The columns (sorted positions) of tips at ``u`` (sorted) spaced ``step``: tips within half a
    step are one column; of two columns closer than ``_MIN_COLUMN_GAP`` steps, which no board
    holds, the one fewer tips found is dropped (a stray tip in the bar or beside a checker would
    otherwise make both of its gaps fractional and hide the bar)."""
    cols: list[list[float]] = []
    for x in u:
        if cols and x - cols[-1][0] < 0.5 * step:
            cols[-1][0] = 0.5 * (cols[-1][0] + x)
            cols[-1][1] += 1
        else:
            cols.append([float(x), 1.0])
    while len(cols) > 1:
        gaps = np.diff([c[0] for c in cols])
        k = int(np.argmin(gaps))
        if gaps[k] >= _MIN_COLUMN_GAP * step:
            break
        if cols[k][1] == cols[k + 1][1]:
            break  # no telling which one is stray: both stay, and the spans judge
        del cols[k if cols[k][1] < cols[k + 1][1] else k + 1]
    return np.array([c[0] for c in cols])
