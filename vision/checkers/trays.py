"""Count the borne-off checkers beside the field: in the bear-off trays, or on the table beside a board
that has none (RULES.md: a checker borne off leaves the board; the count decides gammons, B-rules of
the game's end).

The trays lie beyond the two short ends of the field. Each end is looked at in a strip of the
rectified view extended past the field (``_NEAR``-``_FAR`` point widths out, the field's whole
height and ``_BEYOND`` above and below), sampled at ``_SCALE`` times the rectified resolution so a
checker standing on edge (a stripe about a fifth of a checker thick) is several pixels tall. Two ways
of lying are counted:

* **On edge, in a row** (the tournament way): seen from above, a row of thin slabs, a checker wide,
  one behind the other along the tray. At each candidate column, the share of a window 0.8 checker
  wide that is a *horizontal* colour edge (|Sobel y| of the Lab channels, well above |Sobel x|)
  gives a profile along the tray; a row of slabs makes a run of evenly spaced peaks (the grooves
  between slabs, a face's rim on either side of one). The pitch is the lag at which that profile
  repeats best (autocorrelation, so that a groove's two edges do not halve it); the run is cut to
  its longest stretch of slab-long spacings of one checker colour, each one colour along its length
  (print on a card is not); the count is the number of pitches in it (two for a groove lost).
  The strip is sampled at ``_SCALE`` = 1.5 times the rectified resolution: a slab is then about ten
  pixels thick.
* **Flat**: discs of the board's checker radius, found by the ring score of
  :func:`vision.checkers.stacks.ring_scores` (as for the bar) where the middle of a disc would be of a
  checker colour, each counted once; next to a disc found, one of its colour needs less of its ring
  (a row of discs overlapping a little).

Whatever is counted must have one of the checker colours read on the points (lightness at half
weight: light falls unevenly). Tray linings, name cards, clocks and score cards are flat areas,
blocks or irregular marks without the slabs' even spacing or a disc's ring, and are mostly not of a
checker colour where they look like one.

Known limits (measured on renders, see tests/vision/checkers/test_trays.py): a row of fewer than
``_MIN_ROW`` checkers on edge is not counted (one slab looks like a divider or the frame's edge); dark
rows in a dark tray are often missed or read a slab off; flat checkers piled on top of one another
are seen as one. A colour none of whose checkers is on the points (all fifteen off: the game is over)
is counted from rows on edge of at least ``_OTHER_MIN_ROW`` slabs unlike the one colour there, and
named by :func:`name_by_off` (lighter or darker than it); flat, it is not seen.

A row's slabs are counted from its grooves' spacings when they are whole pitches, else by a comb
fitted to the grooves (least squares, :func:`_comb_count`); the pitch is the groove profile's
autocorrelation peak.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from vision.arrays import channel_norm, median
from vision.board.geometry import POINT_PX, BoardGeometry
from vision.board.view import colour_gradient
from vision.checkers.stacks import StackReading, name_colours, ring_scores_at_pixels
from vision.reading import DARK, LIGHT

__all__ = ["OffGroup", "TrayStrip", "find_off", "name_off", "name_by_off", "off_inputs", "tray_strips"]

# The strip beyond each end of the field, in point widths from the field's edge ...
_NEAR = 0.05
_FAR = 2.6
# ... and this far above and below the field (trays run the board's whole height).
_BEYOND = 0.8
# Checker centres (flat) and slab rows (on edge) are looked for this far out (point widths): the
# tray beside the field, or the table just beyond a board without trays -- not further, where score
# cards, clocks and cups stand.
_CENTRE_NEAR = 0.3
_CENTRE_FAR = 2.1
# The strip is sampled at this many times the rectified resolution.
_SCALE = 1.5
# A horizontal edge: its y-gradient (summed |Sobel| of the Lab channels) above this and twice its
# x-gradient.
_EDGE = 40.0
_HORIZONTAL = 2.0
# A groove between slabs runs across this share of a window 2 * _WINDOW checker wide (print on a
# card, with gaps between its letters, does not).
_GROOVE_SPAN = 0.75
_WINDOW = 0.4
# A row on edge is counted from this many slabs (one slab's two edges are a divider's, a frame's).
_MIN_ROW = 2
# Spacing of slabs standing on edge, in checker diameters (real sets: 0.18-0.3 thick).
_PITCH = (0.16, 0.42)
# Of a run's spacings, at least this share is one pitch (within _PITCH_TOL); the rest two (a groove
# lost in glare).
_REGULAR = 0.7
# The groove profile along a row repeats at its pitch: autocorrelation at least this share of its
# energy.
_REPEAT = 0.3
_PITCH_TOL = 0.25
# A groove within this share of a pitch of the fitted comb's tooth is on it (:func:`_comb_count`).
_COMB_RES = 0.3
# A slab's middle is one colour along it: its lightness varies along a row by less than this (Lab
# L, 0-255 scale).
_PLAIN = 14.0
# A flat disc shows at least this much of its ring.
_FLAT_RING = 0.8
_FLAT_RING_CLEAR = 0.92
# ... or this much beside a disc found of its colour, no nearer than _FLAT_STEP diameters to any.
_FLAT_RING_NEXT = 0.62
_FLAT_STEP = 0.55
# Of a ring _AROUND radii from a disc's centre, less than this share is of the disc's colour.
_AROUND = 1.3
_SAME_AROUND = 0.7
# Lab distance from a checker colour within which a slab row's or a disc's colour is that colour.
_COLOUR_ROW = 32.0
# ... or of its hue (a, b within this) and lightness within _ROW_SHADE (Lab, 0-255 scales).
_ROW_HUE = 12.0
_ROW_SHADE = 80.0
# The slabs of one row differ from their median colour by at most this (weighted as _nearest).
_SAME_SLAB = 14.0
_LAB_WEIGHT = np.array([0.5, 1.0, 1.0], np.float32)
_COLOUR_ONE = 26.0
# When the points show one colour only (the other's fifteen are all off), a row on edge at least this
# far from it (weighted as _nearest) is of the other colour.
_OTHER_FAR = 45.0
# ... and counts from this many slabs in a row (the points' other colour unread -- black on black
# points -- must not turn a tray's lining into a short row).
_OTHER_MIN_ROW = 5


@dataclass(frozen=True)
class OffGroup:
    """Borne-off checkers seen together: ``count`` checkers of Lab ``colour_lab`` lying ``pose``
    (``"edge"``: a row standing on edge; ``"flat"``: one disc) beyond the ``side`` (``"left"`` /
    ``"right"``) end of the rectified field; ``centre`` in rectified pixels (may lie outside the
    field's own image), ``confidence`` 0-1."""

    side: str
    pose: str
    count: int
    colour_lab: tuple[float, float, float]
    centre: tuple[float, float]
    confidence: float


def _strip(image: np.ndarray, geom: BoardGeometry, side: str) -> tuple[np.ndarray, float]:
    """The strip beyond one end, BGR uint8, and its x origin in rectified pixels (its y origin is
    ``-_BEYOND`` point widths)."""
    width, height = geom.size
    pw = float(POINT_PX)
    x0 = -_FAR * pw if side == "left" else width + _NEAR * pw
    span = (_FAR - _NEAR) * pw
    y0 = -_BEYOND * pw
    to_strip = np.array([[_SCALE, 0, -_SCALE * x0], [0, _SCALE, -_SCALE * y0], [0, 0, 1]], dtype=np.float64)
    size = (int(round(_SCALE * span)), int(round(_SCALE * (height - 2 * y0))))
    return cv2.warpPerspective(image, to_strip @ geom.homography, size, flags=cv2.INTER_LINEAR), x0


class TrayStrip:
    """One end's strip (:func:`_strip`) and what the tray readers derive from its pixels alone,
    made once per frame (or kept by the incremental reader while the trays did not change): ``lab``
    (blurred, Lab float32), ``line`` (its horizontal edges, :func:`_edge_rows`), ``small`` (``lab``
    at half resolution) and ``grads`` (its colour gradient, :func:`_flat_discs`)."""

    def __init__(self, side: str, strip: np.ndarray, x0: float) -> None:
        self.side = side
        self.x0 = x0
        lab = cv2.cvtColor(cv2.GaussianBlur(strip, (3, 3), 0), cv2.COLOR_BGR2LAB)
        self.lab = lab.astype(np.float32)
        self.line = _horizontal_edges(lab)

    # (made on first use: a tray with no checker-coloured place has no disc's ring to score)
    @cached_property
    def small(self) -> np.ndarray:
        h, w = self.lab.shape[:2]
        return cv2.resize(self.lab, (w // 2, h // 2), interpolation=cv2.INTER_AREA)

    @cached_property
    def grads(self) -> tuple[np.ndarray, np.ndarray]:
        return colour_gradient(self.small)


# A column of three pixels: an edge's row counts for its neighbours.
_ROW3 = np.ones((3, 1), np.uint8)


def _horizontal_edges(lab: np.ndarray) -> np.ndarray:
    """float32 (H, W), 1 where a strip's Lab (uint8 (H, W, 3)) has a horizontal edge: its summed
    |Sobel y| over the channels above ``_EDGE`` and ``_HORIZONTAL`` times its |Sobel x|; each row of
    an edge counts for its neighbours (a groove slanted by the camera crosses a few rows). The
    Sobels of bytes are whole numbers: made in int16 (both of a channel in one pass,
    cv2.spatialGradient), they are the float32 ones exactly, and so are their sums."""
    hx = hy = None
    for plane in cv2.split(lab):
        dx, dy = cv2.spatialGradient(plane)
        dx, dy = np.abs(dx, out=dx), np.abs(dy, out=dy)
        hx = dx if hx is None else cv2.add(hx, dx, dst=hx)
        hy = dy if hy is None else cv2.add(hy, dy, dst=hy)
    # (compared in int16, as the float comparisons: the thresholds are whole, and twice a sum of
    # three |Sobel|s of bytes, at most 6120, fits)
    line = cv2.compare(hy, int(_EDGE), cv2.CMP_GT)
    cv2.bitwise_and(line, cv2.compare(hy, cv2.multiply(hx, int(_HORIZONTAL)), cv2.CMP_GT), dst=line)
    return cv2.dilate(line, _ROW3).astype(np.float32) / np.float32(255)


def tray_strips(image: np.ndarray, geom: BoardGeometry) -> tuple[TrayStrip, ...]:
    """The strips beyond both ends of the field of a BGR uint8 image, for :func:`find_off`."""
    return tuple(TrayStrip(side, *_strip(image, geom, side)) for side in ("left", "right"))


def _plateaus(rows: np.ndarray, half: int) -> np.ndarray:
    """Centres of the runs of consecutive rows (a groove's edge saturates the profile over a few
    rows), runs closer than ``half`` merged (a dark groove's two edges): int (N,). (In Python
    numbers: a column holds a few dozen rows, fewer than numpy's calls cost.)"""
    if len(rows) == 0:
        return rows
    r = rows.tolist()
    out: list[int] = []
    start = prev = r[0]
    for v in [*r[1:], None]:
        if v is None or v - prev > 1:
            # (round() rounds halves to even, as np.rint does)
            c = round(0.5 * (start + prev))
            if out and c - out[-1] <= half:
                out[-1] = (out[-1] + c) // 2
            else:
                out.append(c)
            start = v
        prev = v
    return np.array(out, np.intp)


def _runs(ys: np.ndarray, d: float) -> list[tuple[int, int]]:
    """Index ranges [i, j] of ``ys`` (sorted peak positions) spaced at most two slabs apart (closer
    peaks are a groove's two edges: :func:`_one_pitch` sorts them out)."""
    out = []
    y = ys.tolist()
    far = 2 * _PITCH[1] * d
    i = 0
    while i < len(y):
        j = i
        while j + 1 < len(y) and y[j + 1] - y[j] <= far:
            j += 1
        if j > i:
            out.append((i, j))
        i = j + 1
    return out


def _nearest(colour: np.ndarray, known: np.ndarray) -> float:
    """Distance to the nearest checker colour, lightness at half weight (light falls unevenly on a
    tray and a checker's edge is lit unlike its face; hue does not change with it)."""
    diff = (known - colour) * _LAB_WEIGHT
    return float(np.sqrt((diff * diff).sum(axis=1)).min())


def _one_pitch(ys: np.ndarray, profile: np.ndarray, d: float) -> tuple[np.ndarray, float]:
    """Grooves of one run with the extra edges between them dropped (a slab's outline, the rims of
    its faces), and the pitch: the lag in slab range at which the groove profile along the run
    repeats best (autocorrelation), so that two edges per groove do not halve it. A groove nearer
    than 0.6 pitch to the last one kept is skipped. Pitch 0 when the run does not repeat."""
    part = profile[ys[0] : ys[-1] + 1].astype(np.float64)
    n = len(part)
    # (the mean as np.mean makes it: the pairwise sum over the count)
    part -= np.add.reduce(part) / n
    lo, hi = max(2, int(np.ceil(_PITCH[0] * d))), int(_PITCH[1] * d)
    if n <= lo + 2 or not part.any():
        return ys, 0.0
    hi = min(hi, n - 2)
    # (Python floats: the scan below reads them one by one)
    dot = np.dot
    ac = [float(dot(part[:-k], part[k:])) / (n - k) for k in range(lo, hi + 1)]
    energy = float(dot(part, part)) / n
    # a groove's edge saturates the profile over a few rows, so the autocorrelation also falls away
    # from lag 0 across the shortest lags: prefer its highest interior local maximum
    inner = [i for i in range(1, len(ac) - 1) if ac[i] >= ac[i - 1] and ac[i] >= ac[i + 1]]
    k = max(inner, key=ac.__getitem__) if inner else ac.index(max(ac))
    # (the spacings in Python floats: a run has a dozen, fewer than numpy's calls cost)
    rows = ys.tolist()
    gaps = [float(b - a) for a, b in zip(rows[:-1], rows[1:], strict=True)]
    if energy > 0 and ac[k] / energy >= _REPEAT:
        pitch = float(lo + k)
        # refined by the spacings near it (the lag is whole pixels; the slabs' pitch is not)
        near = [g for g in gaps if abs(g - pitch) <= _PITCH_TOL * pitch]
        if len(near) >= 2 and lo <= (m := _list_median(near)) <= hi:
            pitch = m
    else:
        # a short row among other edges (the tray's end, the frame) does not make the whole run
        # repeat: then the spacing that recurs, when at least two spacings agree on it
        gaps = [g for g in gaps if lo <= g <= hi]
        agree = [sum(abs(x - g) <= _PITCH_TOL * g for x in gaps) for g in gaps]
        if not agree or max(agree) < 2:
            return ys, 0.0
        g = gaps[agree.index(max(agree))]
        pitch = _list_median([x for x in gaps if abs(x - g) <= _PITCH_TOL * g])
    out = [rows[0]]
    for y in rows[1:]:
        if y - out[-1] >= 0.6 * pitch:
            out.append(y)
    return np.array(out, np.intp), pitch


def _list_median(values: list[float]) -> float:
    """``float(np.median(values))`` of a short non-empty list of floats without NaNs: the middle
    value, or the two middle ones' sum halved (as np.median's mean of them)."""
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def _count_run(gaps: np.ndarray, pitch: float) -> int | None:
    """Slabs in a run from its spacings (pixels) and pitch, or None when the spacings are not whole
    pitches (at least _REGULAR of them one, the rest two: a groove lost in glare)."""
    if len(gaps) == 0 or pitch <= 0:
        return None
    # (in Python floats, as numpy's: a run has a dozen spacings)
    units = [g / pitch for g in np.asarray(gaps, np.float64).tolist()]
    one = [abs(u - 1) <= _PITCH_TOL for u in units]
    two = [abs(u - 2) <= 2 * _PITCH_TOL and not o for u, o in zip(units, one, strict=True)]
    if not all(o or t for o, t in zip(one, two, strict=True)) or sum(one) / len(one) < _REGULAR:
        return None
    return sum(one) + 2 * sum(two)


def _comb_count(ys: np.ndarray, pitch: float) -> int | None:
    """Slabs in a run whose grooves jitter (a rim line on either side of a groove moves its peak by
    a pixel or two): a comb y = a + pitch * k fitted by least squares to the grooves' positions (the
    whole indices k re-assigned at each of three passes); the count is the comb's span when at least
    _REGULAR of the grooves lie within _COMB_RES of a tooth and of its teeth as many have a groove.
    None otherwise, or when the fitted pitch leaves its starting value by more than _PITCH_TOL."""
    y = ys.astype(np.float64)
    if len(y) < 3 or pitch <= 0:
        return None
    p, a = pitch, float(y[0])
    for _ in range(3):
        k = np.rint((y - a) / p)
        if len(np.unique(k)) < 2:
            return None
        p, a = (float(v) for v in np.polyfit(k, y, 1))
        if p <= 0 or abs(p / pitch - 1) > _PITCH_TOL:
            return None
    u = (y - a) / p
    k = np.rint(u).astype(np.intp)
    good = np.abs(u - k) <= _COMB_RES
    n = int(k.max() - k.min())
    if n < 1 or float(good.mean()) < _REGULAR or len(set(k[good].tolist())) < _REGULAR * (n + 1):
        return None
    return n


def _edge_rows(lab: np.ndarray, d: float, known: np.ndarray, x_range: tuple[float, float],
               other: bool = False, line: np.ndarray | None = None,
               ) -> list[tuple[float, float, float, int, float, np.ndarray]]:
    """Rows of slabs on edge in a strip: (x, y_first, y_last, count, span, Lab colour), strip px.

    A groove is a horizontal edge across most of a window 0.6 checker wide; a run of grooves a slab's
    pitch apart is cut to its longest stretch whose spacings are all of a checker colour (the tray's
    floor between the row and the tray's end is as wide as a slab). ``other``: the points show one
    colour only, so a row of a colour unlike it (at least _OTHER_FAR away) is counted too.
    ``line``: the strip's horizontal edges (:class:`TrayStrip`), when made already."""
    if line is None:
        line = _horizontal_edges(lab.astype(np.uint8))
    hw = max(2, int(round(_WINDOW * d)))
    h, w = line.shape
    step = max(1, int(round(0.15 * d)))
    xs = np.arange(max(hw, int(x_range[0])), min(w - hw, int(x_range[1])), step)
    if len(xs) == 0:
        return []
    # means over a window across x (cv2.boxFilter: separable, far cheaper than numpy cumsums)
    span = cv2.boxFilter(line, -1, (2 * hw + 1, 1), borderType=cv2.BORDER_REPLICATE)[:, xs]  # (H, X)
    half = max(2, int(round(0.08 * d)))
    top = cv2.dilate(span, np.ones((2 * half + 1, 1), np.uint8))
    is_peak = (span >= top) & (span > _GROOVE_SPAN)
    measures: list[tuple[np.ndarray, np.ndarray]] = []

    def slab_measures() -> tuple[np.ndarray, np.ndarray]:
        """Per row and column: the mean colour of the slab's middle and how much its lightness
        varies, made when a run first asks (only the columns the windows at xs reach: a box sum of
        whole numbers is exact, so a window inside the crop has the whole strip's value; the
        lightness's mean is the colour's first channel)."""
        if not measures:
            c0, c1 = xs[0] - hw // 2, xs[-1] + hw // 2 + 1
            box = (2 * (hw // 2) + 1, 1)
            mean = cv2.boxFilter(lab[:, c0:c1], -1, box, borderType=cv2.BORDER_REPLICATE)[:, xs - c0]
            light = np.ascontiguousarray(lab[:, c0:c1, 0])
            m1 = mean[:, :, 0]
            m2 = cv2.boxFilter(light * light, -1, box, borderType=cv2.BORDER_REPLICATE)[:, xs - c0]
            measures.append((mean, np.sqrt(np.maximum(m2 - m1 * m1, 0.0))))  # (H, X, 3), (H, X)
        return measures[0]

    found = []
    for xi in np.flatnonzero(is_peak.sum(axis=0) >= 3):
        ys = _plateaus(np.flatnonzero(is_peak[:, xi]), half)
        for i, j in _runs(ys, d):
            seg, pitch = _one_pitch(ys[i : j + 1], span[:, xi], d)
            if len(seg) < 3 or pitch <= 0:
                continue
            mean, spread = slab_measures()
            cols, ok, plains = [], [], []
            for a, b in zip(seg[:-1], seg[1:], strict=True):
                m = max(1, (b - a) // 3)
                # the slab's colour: most rows between two grooves (a groove found on a face's rim
                # puts the dark seam in the middle)
                c = median(mean[a + 1 : max(a + 2, b), xi], 0)
                cols.append(c)
                # a slab is one colour along its length (its round edge shades it across only): a
                # card's line of print is not
                plain = float(spread[a + m : b - m + 1, xi].mean()) < _PLAIN
                plains.append(plain)
                dist = _nearest(c, known)
                # a slab's round side is lit unlike a checker's face: lightness may differ more
                # than hue does
                hue = np.linalg.norm(known[:, 1:] - c[1:], axis=1)
                shade = np.abs(known[:, 0] - c[0])
                like = dist <= _COLOUR_ROW or bool(np.any((hue <= _ROW_HUE) & (shade <= _ROW_SHADE)))
                ok.append(plain and (like or (other and dist >= _OTHER_FAR)))
            # the slabs of a row are one colour: split where the colour changes (tray floor, the
            # frame at the tray's end), keep the longest stretch of slab-long spacings
            best: tuple[int, int] | None = None
            a = 0
            while a < len(ok):
                if not ok[a] or abs((seg[a + 1] - seg[a]) / pitch - 1) > _PITCH_TOL:
                    a += 1
                    continue
                b = a
                while (b + 1 < len(ok) and ok[b + 1] and _nearest(cols[b], cols[b + 1][None]) <= _SAME_SLAB
                       and (seg[b + 2] - seg[b + 1]) / pitch <= 2 + 2 * _PITCH_TOL):
                    b += 1
                while b > a and abs((seg[b + 1] - seg[b]) / pitch - 1) > _PITCH_TOL:
                    b -= 1  # a row ends on a slab, not on a gap
                if best is None or b - a > best[1] - best[0]:
                    best = (a, b)
                a = b + 1
            if best is None:
                continue
            lo, hi = best
            # the slab at either end of a row lies in the tray's shade or light: one of the row's
            # colour (beside it), plain and a pitch long is in the row though unlike the points'
            for step in (-1, 1):
                e = lo - 1 if step < 0 else hi + 1
                n = lo if step < 0 else hi
                if (0 <= e < len(ok) and plains[e] and abs((seg[e + 1] - seg[e]) / pitch - 1) <= _PITCH_TOL
                        and _nearest(cols[e], cols[n][None]) <= _SAME_SLAB):
                    lo, hi = (e, hi) if step < 0 else (lo, e)
            colour = median(np.stack(cols[lo : hi + 1]), 0)
            seg = seg[lo : hi + 2]
            count = _count_run(np.diff(seg).astype(np.float64), pitch)
            if count is None:
                count = _comb_count(seg, pitch)
            if count is None or count < _MIN_ROW:
                continue  # one slab's two edges: as likely a tray's divider or the frame's edge
            strength = float(span[seg, xi].mean())
            found.append((float(xs[xi]), float(seg[0]), float(seg[-1]), count, strength, colour))
    # one row is seen from several neighbouring columns: keep the best view of each
    found.sort(key=lambda r: (-r[4] * r[3], -r[3]))
    kept: list[tuple[float, float, float, int, float, np.ndarray]] = []
    for r in found:
        if any(abs(r[0] - k[0]) < d and r[1] <= k[2] + 0.1 * d and k[1] <= r[2] + 0.1 * d for k in kept):
            continue
        kept.append(r)
    return kept


def _near_known(band: np.ndarray, known: np.ndarray) -> np.ndarray:
    """bool (H, w), True where a band of Lab float32 (H, w, 3) lies within ``_COLOUR_ONE`` of a
    checker colour (``known``, float32 (K, 3)), lightness at half weight. Channel by channel in
    planes of their own, into buffers made once (numpy runs an axis of three slowly): the float32
    operations of the weighted difference's squared norm, in its order, so the same values."""
    weighted = [np.multiply(band[:, :, i], _LAB_WEIGHT[i]) for i in range(3)]
    sq = [np.empty_like(weighted[0]) for _ in range(3)]
    total = np.empty_like(weighted[0])
    near = np.zeros(total.shape, bool)
    hit = np.empty(total.shape, bool)
    for c in known * _LAB_WEIGHT:
        for i in range(3):
            np.subtract(weighted[i], c[i], out=sq[i])
            np.multiply(sq[i], sq[i], out=sq[i])
        np.add(sq[0], sq[1], out=total)
        np.add(total, sq[2], out=total)
        near |= np.less(total, _COLOUR_ONE * _COLOUR_ONE, out=hit)
    return near


def _flat_discs(lab: np.ndarray, r: float, known: np.ndarray, x_range: tuple[float, float],
                strip: TrayStrip | None = None) -> list[tuple[float, float, float, np.ndarray]]:
    """Flat discs of radius ``r`` in a strip: (x, y, ring score, Lab colour), strip px. Rings are
    scored at half the strip's resolution and only where the middle of a disc would be of a checker
    colour. ``strip``: ``lab``'s :class:`TrayStrip`, whose half-resolution copy and gradient are
    taken."""
    if strip is None:
        small = cv2.resize(lab, (lab.shape[1] // 2, lab.shape[0] // 2), interpolation=cv2.INTER_AREA)
    else:
        small = strip.small
    rs = r / 2
    k = max(1, int(round(0.5 * rs)))
    x0, x1 = int(x_range[0] / 2), int(x_range[1] / 2)
    # checker-coloured pixels, only in the columns a centre may lie in (and the erosion's margin)
    a, b = max(0, x0 - k), min(small.shape[1], x1 + k)
    near = _near_known(small[:, a:b], known)
    middle = cv2.erode(near.view(np.uint8), np.ones((k, k), np.uint8))
    # (the centres tried lie on every other row and column: in the same order as the whole mask's)
    ys, xs = np.nonzero(middle[::2, x0 - a : x1 - a : 2])
    if len(xs) == 0:
        return []
    px, py = 2 * xs + x0, 2 * ys
    cx, cy = px.astype(np.float64), py.astype(np.float64)
    gx, gy = colour_gradient(small) if strip is None else strip.grads
    score = ring_scores_at_pixels(gx, gy, px, py, rs)
    if not (score >= _FLAT_RING).any():
        # no ring is whole enough for a first disc, and a row grows only beside one (the passes
        # below would find none: spared their sort)
        return []
    out: list[tuple[float, float, float, np.ndarray]] = []

    # (a candidate's colour and its surround are measured once: the growing passes below ask again)
    colours: dict[int, np.ndarray] = {}
    lone: dict[int, bool] = {}

    def colour_at(i: int) -> np.ndarray:
        if i not in colours:
            yi, xi = int(cy[i]), int(cx[i])
            patch = small[max(0, yi - k) : yi + k + 1, max(0, xi - k) : xi + k + 1]
            colours[i] = median(patch.reshape(-1, 3), 0)
        return colours[i]

    ang = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    hs, ws = small.shape[:2]

    def clear(x: float, y: float) -> bool:
        return all((x - o[0]) ** 2 + (y - o[1]) ** 2 >= (_FLAT_STEP * 2 * r) ** 2 for o in out)

    def alone(i: int) -> bool:
        """A disc lies on something else: most of a ring just outside it is not of its colour (a
        block of a checker's colour, a tray's lining, is)."""
        if i not in lone:
            xs_ = np.clip(np.rint(cx[i] + _AROUND * rs * np.cos(ang)), 0, ws - 1).astype(np.intp)
            ys_ = np.clip(np.rint(cy[i] + _AROUND * rs * np.sin(ang)), 0, hs - 1).astype(np.intp)
            same = channel_norm(small[ys_, xs_] - colour_at(i)) < _COLOUR_ONE
            lone[i] = float(same.mean()) < _SAME_AROUND
        return lone[i]

    order = np.argsort(-score)[:300]
    for i in order:
        if score[i] < _FLAT_RING:
            break
        x, y = 2 * float(cx[i]), 2 * float(cy[i])
        c = colour_at(int(i))
        # a disc on a tray of its own colour (black on black) shows only its rim: then a clear one
        if clear(x, y) and (alone(int(i)) or score[i] >= _FLAT_RING_CLEAR):
            out.append((x, y, float(score[i]), c))
    # a row of discs overlapping a little hides part of each one's rim: next to a disc found, a disc
    # of its colour needs less of its ring
    grown = True
    while grown:
        grown = False
        for i in order:
            if score[i] < _FLAT_RING_NEXT:
                break
            x, y = 2 * float(cx[i]), 2 * float(cy[i])
            # (a disc beside none found cannot grow a row: its colour and surround go unmeasured)
            beside = [o for o in out if (x - o[0]) ** 2 + (y - o[1]) ** 2 <= (2.2 * r) ** 2]
            if not beside or not clear(x, y):
                continue
            c = colour_at(int(i))
            if not alone(int(i)):
                continue
            if any(float(np.linalg.norm(o[3] - c)) < _COLOUR_ONE for o in beside):
                out.append((x, y, float(score[i]), c))
                grown = True
    return out


def find_off(image: np.ndarray, geom: BoardGeometry, radius: float, stacks: list[StackReading],
             avoid: list[tuple[float, float]] | None = None,
             inputs: tuple[np.ndarray, bool] | None = None,
             strips: tuple[TrayStrip, ...] | None = None) -> list[OffGroup]:
    """The borne-off checkers beyond both ends of the field in a BGR uint8 image (H, W, 3).

    ``radius``: the checkers' radius in rectified pixels; ``stacks``: the points' (and bar's) stacks,
    whose colours are the only checker colours (none with a colour: [] -- nothing can be named);
    ``avoid``: rectified positions of things known not to be checkers (the cube). Returns one
    :class:`OffGroup` per row on edge and per flat disc (see the module docstring). ``inputs``:
    :func:`off_inputs` of ``stacks`` when the caller has it already; ``strips``: the
    :func:`tray_strips` of ``image`` (or, for the incremental reader, of an earlier frame whose
    trays look the same).
    """
    if radius <= 0:
        return []
    known, other = off_inputs(stacks) if inputs is None else inputs
    if known.size == 0:
        return []
    pw = float(POINT_PX)
    r = _SCALE * radius
    d = 2 * r
    out: list[OffGroup] = []
    for tray in tray_strips(image, geom) if strips is None else strips:
        side, x0, lab = tray.side, tray.x0, tray.lab
        if lab.shape[0] < 4 * r or lab.shape[1] < 2 * r:
            continue
        # the columns where a checker's centre may lie, in strip pixels
        if side == "left":
            rng = (_SCALE * (-_CENTRE_FAR * pw - x0), _SCALE * (-_CENTRE_NEAR * pw - x0))
        else:
            end = geom.size[0] - x0
            rng = (_SCALE * (end + _CENTRE_NEAR * pw), _SCALE * (end + _CENTRE_FAR * pw))

        def rect(x: float, y: float, x0: float = x0) -> tuple[float, float]:
            return x / _SCALE + x0, y / _SCALE - _BEYOND * pw

        def avoided(x: float, y: float) -> bool:
            return any((x - ax) ** 2 + (y - ay) ** 2 < (1.3 * radius) ** 2 for ax, ay in avoid or [])

        rows = []
        for x, y_a, y_b, count, strength, c in _edge_rows(lab, d, known, rng, other, tray.line):
            cx, cy = rect(x, 0.5 * (y_a + y_b))
            if avoided(cx, cy) or not 0 <= cy <= geom.size[1]:
                continue
            if other and count < _OTHER_MIN_ROW and _nearest(c, known) >= _OTHER_FAR:
                continue  # fifteen off make long rows; a short one of no colour on the points is no row
            rows.append((x, y_a, y_b))
            out.append(OffGroup(side, "edge", count, _lab3(c), (cx, cy), strength))
        for x, y, score, c in _flat_discs(lab, r, known, rng, tray):
            # slabs on edge make a ring too: their grooves above and below, their ends at the sides
            if avoided(*rect(x, y)) or any(abs(x - rx) < d and ya - r <= y <= yb + r for rx, ya, yb in rows):
                continue
            out.append(OffGroup(side, "flat", 1, _lab3(c), rect(x, y), score))
    return out


def off_inputs(stacks: list[StackReading]) -> tuple[np.ndarray, bool]:
    """What :func:`find_off` takes from the stacks: the checker colours (float32 (K, 3), near-repeats
    dropped) and whether the points show one colour only (the other's fifteen may all be off: the
    game is over). Two frames whose stacks give the same inputs and whose trays are unchanged have
    the same borne-off checkers (the incremental reader keeps them)."""
    known = _distinct([s.colour_lab for s in stacks if s.colour_lab is not None and s.count])
    if known.size == 0:
        return known, False
    other = len({n for n, s in zip(name_colours(stacks), stacks, strict=True) if n and s.count}) == 1
    return known, other


def _distinct(colours: list[tuple[float, float, float]]) -> np.ndarray:
    """The stacks' colours with near-repeats dropped (each point's stack gives one): float32 (K, 3)."""
    out: list[np.ndarray] = []
    for c in colours:
        v = np.array(c, np.float32)
        if all(float(np.linalg.norm(v - o)) > 0.75 * _COLOUR_ONE for o in out):
            out.append(v)
    return np.array(out, np.float32).reshape(-1, 3)


def _lab3(c: np.ndarray) -> tuple[float, float, float]:
    return float(c[0]), float(c[1]), float(c[2])


def name_off(groups: list[OffGroup], stacks: list[StackReading], names: list[str | None]) -> dict[str, int]:
    """Borne-off counts per colour name: each group takes the name of the stack whose colour is
    nearest its own (``stacks`` and their ``names`` as from :func:`vision.checkers.stacks.name_colours`).
    When the points show one colour only, a group unlike it (at least ``_OTHER_FAR``, as
    :func:`find_off` admits it) is the other colour: all its fifteen are off."""
    ref = [(np.array(s.colour_lab, np.float32), n) for s, n in zip(stacks, names, strict=True)
           if s.colour_lab is not None and n is not None and s.count]
    out: dict[str, int] = {}
    if not ref:
        return out
    present = {n for _, n in ref}
    for g in groups:
        c = np.array(g.colour_lab, np.float32)
        name = min(ref, key=lambda rn: float(np.linalg.norm(rn[0] - c)))[1]
        if len(present) == 1 and _nearest(c, np.stack([rc for rc, _ in ref])) >= _OTHER_FAR:
            name = DARK if name == LIGHT else LIGHT
        # a side has fifteen checkers (RULES.md): a row's end misread by one cannot make sixteen
        out[name] = min(15, out.get(name, 0) + g.count)
    return out


def name_by_off(groups: list[OffGroup], stacks: list[StackReading],
                names: list[str | None]) -> list[str | None]:
    """The stacks' colour names, corrected by the borne-off checkers when the points show one colour
    only: :func:`vision.checkers.stacks.name_colours` can then only guess it from its lightness (light
    above mid-grey), but a row of the other colour in a tray (at least ``_OTHER_FAR`` unlike it: all
    its fifteen are off) says which of the two is the lighter. ``names`` unchanged otherwise."""
    ref = [np.array(s.colour_lab, np.float32) for s, n in zip(stacks, names, strict=True)
           if s.colour_lab is not None and n is not None and s.count]
    present = {n for s, n in zip(stacks, names, strict=True) if n is not None and s.count}
    if len(present) != 1 or not ref:
        return names
    known = np.stack(ref)
    others = [g for g in groups if _nearest(np.array(g.colour_lab, np.float32), known) >= _OTHER_FAR]
    if not others:
        return names
    other_light = sum(g.colour_lab[0] * g.count for g in others) / sum(g.count for g in others)
    name = DARK if other_light > float(np.median(known[:, 0])) else LIGHT
    return [None if n is None else name for n in names]
