"""Is something (a hand, an arm, a cup) over the playing area? Say so rather than guess.

The board explains itself: points of the same row and parity carry identical triangles, so the
per-pixel median of those six strips is the bare board there (most of each strip is bare). Whatever
differs from that model and is not one of the checkers the stack counter found (or a die, much
smaller than a checker) is something else over the board. A region of that kind larger than
``_FOREIGN_CHECKERS`` checker areas -- a hand is several checkers large -- makes the frame occluded.
No skin colour is assumed: a sleeve, a cup or a shadow of a hand counts as well. A "stack" the
counter found without the rims of a row of discs (``_UNSURE``) explains nothing: its discs are foreign.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence

import cv2
import numpy as np

from vision.arrays import channel_norm, median, scratch
from vision.board.geometry import POINT_PX, BoardGeometry
from vision.board.view import FieldView
from vision.checkers.stacks import StackReading
from vision.reading import PointReading

__all__ = ["border_crossing", "clear_of_hands", "find_occlusion", "foreign_mask", "hide_points"]

# Lab distance from the bare-board model above which a pixel is not bare board.
_DIFF = 30.0
# A foreign region this many checker areas large (or more) is an occlusion ...
_FOREIGN_CHECKERS = 3.0
# ... and one this large, while something covers the frame beside the field this many point widths.
_FOREIGN_CROSSING = 1.0
_CROSSING = 1.0
# The model is trusted to this share of a point's width (see _far_from_model).
_SLACK = 0.125
# Foreign regions narrower than this share of a point's width are lines and rims, not a hand.
_OPEN = 0.2
# ... and the outermost this share of a point's width at the field's ends and the bar's edges.
_EDGE = 0.3
# A point is hidden when this share of its half of the field's column is foreign.
_HIDDEN = 0.1
# The band of the frame just outside the field watched for an arm reaching in (point widths).
_BAND = (0.1, 0.35)
# A stack on a point whose discs' mean ring score (its confidence, vision.checkers.stacks) is at most
# this explains nothing: a row of discs has rims, a palm, a cup or a blob read as "checkers" of
# its own colour has none. Its discs count as foreign.
_UNSURE = 0.55


def _bare_model(
    lab: np.ndarray, geom: BoardGeometry, point_px: int = POINT_PX
) -> tuple[np.ndarray, np.ndarray]:
    """Per-pixel bare-board model of the points' strips (float32, ``lab``'s shape), and a mask of
    where it is defined. ``lab``: the field's Lab, uint8 or float.

    A point and the one opposite it carry the two triangle colours, so a row's points of one parity
    look like the other row's points of the other parity seen from their own base: the model of a
    strip is the median of twelve strips (six a row, the other row's turned end over end), bare
    where a row's points of one parity are mostly covered by checkers.
    """
    h, w = lab.shape[:2]
    model = np.zeros(lab.shape, np.float32)
    defined = np.zeros((h, w), np.uint8)
    half_h = h // 2

    def strips(top: bool, parity: int) -> tuple[list[np.ndarray], list[int]]:
        ys = slice(0, half_h) if top else slice(h - half_h, h)
        out, xs = [], []
        for x in geom.columns[parity::2]:
            x0 = int(round(x - point_px / 2))
            if x0 < 0 or x0 + point_px > w:
                continue
            strip = lab[ys, x0 : x0 + point_px]
            out.append(strip if top else strip[::-1])  # base first
            xs.append(x0)
        return out, xs

    rows = {top: [strips(top, parity) for parity in (0, 1)] for top in (True, False)}
    # (a row's parity and the other row's other parity share their twelve strips, so their medians,
    # base first, are one: each is taken once, keyed by the top row's parity of the pair)
    uses = [(top, parity, parity if top else 1 - parity) for top in (True, False) for parity in (0, 1)
            if rows[top][parity][1] and len(rows[top][parity][0]) + len(rows[not top][1 - parity][0]) >= 3]
    keys = sorted({key for _, _, key in uses})
    medians = dict(zip(keys, _medians_of([rows[True][k][0] + rows[False][1 - k][0] for k in keys]),
                       strict=True))
    for top, parity, key in uses:
        ys = slice(0, half_h) if top else slice(h - half_h, h)
        med = medians[key] if top else medians[key][::-1]
        for x0 in rows[top][parity][1]:
            model[ys, x0 : x0 + point_px] = med
            defined[ys, x0 : x0 + point_px] = 255
    return model, defined


def _medians_of(groups: list[list[np.ndarray]]) -> list[np.ndarray]:
    """:func:`_median_of` of each group; two groups of as many strips of one shape are stacked and
    taken together (one network over arrays twice as large: half the calls)."""
    if len(groups) == 2 and len(groups[0]) == len(groups[1]) and len({g.shape for g in sum(groups, [])}) == 1:
        both = _median_of(list(np.stack([np.stack(groups[0]), np.stack(groups[1])], axis=1)))
        return [both[0], both[1]]
    return [_median_of(g) for g in groups]


# A sorting network of 12 inputs in 39 compare-exchanges (the fewest known; B. Dobbelaere's list of
# "smallest and fastest sorting networks"), each (i, j) leaving the smaller value at i.
_SORT12 = (
    (0, 8), (1, 7), (2, 6), (3, 11), (4, 10), (5, 9),
    (0, 1), (2, 5), (3, 4), (6, 9), (7, 8), (10, 11),
    (0, 2), (1, 6), (5, 10), (9, 11),
    (0, 3), (1, 2), (4, 6), (5, 7), (8, 11), (9, 10),
    (1, 4), (3, 5), (6, 8), (7, 10),
    (1, 3), (2, 5), (6, 9), (8, 10),
    (2, 3), (4, 5), (6, 7), (8, 9),
    (4, 6), (5, 7),
    (3, 4), (5, 6), (7, 8),
)


@functools.lru_cache(maxsize=32)
def _middle_network(n: int) -> tuple[tuple[int, int], ...]:
    """The compare-exchanges, in order, that bring the middle one or two of ``n`` values to places
    ``(n - 1) // 2`` and ``n // 2``: a sorting network's (``_SORT12``, else a bubble sort's) less
    those that reach neither."""
    pairs = _SORT12 if n == 12 else tuple((j, j + 1) for i in range(n - 1) for j in range(n - 1 - i))
    need = {(n - 1) // 2, n // 2}
    kept = []
    for i, j in reversed(pairs):
        if i in need or j in need:
            kept.append((i, j))
            need |= {i, j}
    return tuple(reversed(kept))


def _median_of(arrays: list[np.ndarray]) -> np.ndarray:
    """The element-wise median of same-shaped arrays without NaNs: the values of
    ``median(np.stack(arrays, axis=-1), -1)`` (the middle one, or the two middle ones' sum halved;
    float32 for integer arrays, else their type), by a network of element-wise minima and maxima
    over whole arrays (exact; a dozen strips sort this way many times faster than numpy selects
    along a short last axis, pixel by pixel)."""
    rows = list(arrays)
    n = len(rows)
    for i, j in _middle_network(n):
        rows[i], rows[j] = np.minimum(rows[i], rows[j]), np.maximum(rows[i], rows[j])
    lo, mid = rows[(n - 1) // 2], rows[n // 2]
    if np.issubdtype(mid.dtype, np.integer):
        return mid.astype(np.float32) if n % 2 else np.add(lo, mid, dtype=np.float32) / 2
    return np.array(mid) if n % 2 else (lo + mid) / 2


def _far_from_model(lab: np.ndarray, model: np.ndarray, slack: int,
                    pad: np.ndarray | None = None, within: np.ndarray | None = None) -> np.ndarray:
    """bool (H, W): the pixel's colour is more than ``_DIFF`` from the model's at every offset within
    ``slack`` pixels. Real points are not exactly where the evenly spaced model puts them (a lens's
    barrel, a board's own irregularity): a triangle's edge a few pixels off is no foreign object.
    ``pad``: the model already padded by ``slack`` on each side (``lab`` then a window of the field
    and ``pad`` the same window of the padded model, ``2 * slack`` larger). ``within``: bool (H, W),
    the pixels asked about (False elsewhere); None: all. ``lab`` and ``model``: float32 (H, W, 3)."""
    if pad is None:
        pad = cv2.copyMakeBorder(model, slack, slack, slack, slack, cv2.BORDER_REPLICATE)
    h, w = lab.shape[:2]
    offsets = [(dy, dx) for dy in range(0, 2 * slack + 1, max(1, slack))
               for dx in range(0, 2 * slack + 1, max(1, slack // 2))]
    # the model's own place first, over the whole field: most of a bare field matches there, and
    # only the pixels far from it there are compared at the other offsets (the same squares)
    first = min(offsets, key=lambda o: abs(o[0] - slack) + abs(o[1] - slack))
    far = _far_at(lab, pad, first) > _DIFF * _DIFF
    if within is not None:
        far &= within
    at = np.flatnonzero(far)
    if at.size == 0:
        return far
    pad = np.ascontiguousarray(pad)
    pw = pad.shape[1]
    taken = pad.reshape(-1, 3)
    own = np.ascontiguousarray(lab).reshape(-1, 3)[at]
    ys, xs = np.divmod(at, w)
    base = ys * pw + xs
    still = np.ones(at.size, bool)
    for dy, dx in offsets:
        if (dy, dx) == first:
            continue
        d = own - taken.take(base + (dy * pw + dx), axis=0)
        d *= d
        dd = d[:, 0] + d[:, 1]
        dd += d[:, 2]
        still &= dd.astype(np.float32, copy=False) > _DIFF * _DIFF
    far.ravel()[at] = still
    return far


def _far_at(lab: np.ndarray, pad: np.ndarray, offset: tuple[int, int]) -> np.ndarray:
    """float32 (H, W): the squared colour distance of each pixel of ``lab`` from the padded model
    ``pad`` at ``offset`` (rows, columns) into it."""
    h, w = lab.shape[:2]
    dy, dx = offset
    # (each channel a plane of its own: the channels of an interleaved image are read with a stride
    # of three, several times slower; the same differences and squares, summed in the same order,
    # as channel_sq; in this thread's scratch arrays: no fresh pages per call)
    dtype = np.result_type(lab.dtype, pad.dtype)
    d = scratch("occlusion.diff", (h, w), dtype)
    dd = np.empty((h, w), np.result_type(dtype, np.float32))
    sq = scratch("occlusion.diff3", (h, w), dd.dtype)
    for c in range(3):
        np.subtract(lab[..., c], pad[dy : dy + h, dx : dx + w, c], out=d)
        if c == 0:
            np.multiply(d, d, out=dd)
        else:
            dd += np.multiply(d, d, out=sq)
    return dd.astype(np.float32, copy=False)


def foreign_mask(rectified: np.ndarray | FieldView, geom: BoardGeometry, stacks: list[StackReading],
                 radius: float, only: np.ndarray | None = None,
                 previous: np.ndarray | None = None) -> np.ndarray:
    """uint8 mask (rectified H, W): 255 where the field shows neither bare board nor a found checker.

    Compared at half resolution (a hand is large; a quarter of the pixels is 4x faster), each pixel
    against the bare-board model within ``_SLACK`` of a point's width (:func:`_far_from_model`).

    ``only`` with ``previous`` (this function's result for an earlier frame of the same field):
    the pixels are compared only where ``only`` (bool, rectified H, W) is set, and ``previous`` is
    taken elsewhere (the incremental reader's changed places; the model is the whole frame's).
    """
    rectified = FieldView.of(rectified, geom).exposed  # the _DIFF threshold is at the usual exposure
    h, w = rectified.shape[:2]
    small = cv2.resize(rectified, (max(1, w // 2), max(1, h // 2)), interpolation=cv2.INTER_AREA)
    lab8 = cv2.cvtColor(cv2.GaussianBlur(small, (3, 3), 0), cv2.COLOR_BGR2LAB)
    lab = lab8.astype(np.float32)
    half = dataclasses.replace(geom, size=(small.shape[1], small.shape[0]),
                               columns=tuple(0.5 * c for c in geom.columns))
    # (the medians of the bytes: the same values, a quarter of the memory)
    model, defined = _bare_model(lab8, half, POINT_PX // 2)
    slack = max(1, int(round(_SLACK * POINT_PX / 2)))
    # (where the found checkers lie the mask is cleared whatever the model says: not compared)
    clear = _clear_of_checkers(stacks, radius, (h, w))
    if only is None or previous is None or previous.shape != (h, w):
        far = _far_from_model(lab, model, slack, within=(defined > 0) & _seen(clear, small.shape[:2]))
        region = None
    else:
        region = cv2.resize(only.astype(np.uint8), (small.shape[1], small.shape[0]),
                            interpolation=cv2.INTER_NEAREST) > 0
        far = _far_within(lab, model, slack, region)
    mask = (far & (defined > 0)).astype(np.uint8) * 255
    # the field's ends and the bar's edges: the outer strips show the frame or the bar where the
    # others show a neighbouring point, and a frame's shadow or lip varies along it
    edge = max(1, int(round(_EDGE * POINT_PX / 2)))
    mask[:, :edge] = 0
    mask[:, -edge:] = 0
    if geom.bar is not None:
        for x in geom.bar:
            xi = int(round(0.5 * x))
            mask[:, max(0, xi - edge) : xi + edge] = 0
    mask = cv2.resize(mask, (w, h), interpolation=cv2.INTER_NEAREST)
    if region is not None and previous is not None and only is not None:
        mask = np.where(only, mask, previous).astype(np.uint8)
    mask &= clear
    unsure = [s for s in stacks if _unsure(s)]
    if unsure:
        painted = np.zeros_like(mask)
        for s in unsure:
            for x, y in s.centres:
                cv2.circle(painted, (int(round(x)), int(round(y))), int(round(radius)), 255, -1)
        if region is not None and only is not None:
            painted[~only] = 0  # (the earlier mask holds them there already)
        mask |= painted
    # thin lines of a printed board and a checker's anti-aliased rim are not a hand
    k = max(3, int(_OPEN * POINT_PX) | 1)
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))


def _clear_of_checkers(stacks: list[StackReading], radius: float, shape: tuple[int, int]) -> np.ndarray:
    """uint8 ``shape``: 0 on the found checkers (each sure stack's discs, 1.25 radii, and a run
    counted by its colour along the stack's axis), 255 elsewhere."""
    out = np.full(shape, 255, np.uint8)
    for s in stacks:
        if _unsure(s):
            continue
        for x, y in s.centres:
            cv2.circle(out, (int(round(x)), int(round(y))), int(round(radius * 1.25)), 0, -1)
        if s.count > len(s.centres) and s.centres:
            # checkers counted by their colour run: clear the run along the stack's axis
            x0, y0 = s.centres[0]
            d = 2 * radius
            y1 = y0 + (s.count - 1) * d if s.top else y0 - (s.count - 1) * d
            cv2.rectangle(out, (int(x0 - 1.25 * radius), int(min(y0, y1) - 1.25 * radius)),
                          (int(x0 + 1.25 * radius), int(max(y0, y1) + 1.25 * radius)), 0, -1)
    return out


def _seen(full: np.ndarray, small: tuple[int, int]) -> np.ndarray:
    """bool ``small`` (H, W): True at least where the pixel's nearest-neighbour enlargement to
    ``full``'s size (``cv2.resize``, ``INTER_NEAREST``) lands on a nonzero pixel of ``full`` (uint8)
    -- and at some pixels beside those: each pixel is taken to fill the most rows and columns any
    does (a 2x enlargement of an odd size fills three here and there)."""
    rows, cols, reach = _nearest_starts(full.shape[:2], small)
    # (each pixel the largest of the reach after it, then read where each row and column begins)
    grown = cv2.dilate(full, np.ones((reach, reach), np.uint8), anchor=(0, 0))
    return grown.take(rows, axis=0).take(cols, axis=1) > 0


@functools.lru_cache(maxsize=16)
def _nearest_starts(full: tuple[int, int], small: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, int]:
    """Where each row and column of a ``small`` (H, W) image begins in its nearest-neighbour
    enlargement to ``full`` (H, W) -- the first of the rows (columns) OpenCV fills from it, read off
    its own resize of the indices -- and the most rows or columns one fills."""
    starts, reach = [], 1
    for axis in (0, 1):
        n, m = small[axis], full[axis]
        index = np.arange(n, dtype=np.float32)[None, :]
        at = cv2.resize(index, (m, 1), interpolation=cv2.INTER_NEAREST)[0].astype(np.intp)
        first = np.searchsorted(at, np.arange(n))
        starts.append(first)
        reach = max(reach, int(np.diff(np.append(first, m)).max()))
    return starts[0], starts[1], reach


def _unsure(s: StackReading) -> bool:
    """A point's stack the counter found without the rims of a row of discs (``_UNSURE``)."""
    return s.count > 0 and s.column >= 0 and s.confidence <= _UNSURE


def _far_within(lab: np.ndarray, model: np.ndarray, slack: int, region: np.ndarray) -> np.ndarray:
    """:func:`_far_from_model` where ``region`` (bool, ``lab``'s H, W) is set, False elsewhere: the
    test run on each bounding box of the region's parts alone, each pixel's value as in the whole."""
    far = np.zeros(lab.shape[:2], bool)
    pad = cv2.copyMakeBorder(model, slack, slack, slack, slack, cv2.BORDER_REPLICATE)
    n, _, stats, _ = cv2.connectedComponentsWithStats(region.astype(np.uint8), connectivity=8)
    for i in range(1, n):
        x, y, bw, bh = (int(v) for v in stats[i, :4])
        window = lab[y : y + bh, x : x + bw]
        far[y : y + bh, x : x + bw] = _far_from_model(window, model, slack,
                                                      pad[y : y + bh + 2 * slack, x : x + bw + 2 * slack])
    return far & region


def clear_of_hands(mask: np.ndarray, radius: float, where: np.ndarray | None = None) -> bool:
    """True when no foreign region of ``mask`` (:func:`foreign_mask`) is large enough for
    :func:`find_occlusion` to weigh (``_FOREIGN_CROSSING`` checker areas): that test is then False
    whatever the frame beyond the field shows. ``where`` (bool, the mask's H, W): only the regions
    that reach into it are weighed (the others were so in an earlier frame judged clear)."""
    areas, labels, box = _regions(mask)
    large = np.flatnonzero(areas >= _FOREIGN_CROSSING * np.pi * radius * radius) + 1
    if large.size == 0 or where is None:
        return large.size == 0
    weighed = np.zeros(areas.size + 1, bool)
    weighed[large] = True
    return not bool(weighed[labels[where[box]]].any())


def _regions(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, tuple[slice, slice]]:
    """The 8-connected regions of ``mask`` (uint8 (H, W)): their areas (float (N,), region i + 1's
    at i), the labels (0 the background) of the mask's part that holds them (the bounding box of its
    nonzero pixels) and that part's slices of the mask. The areas of
    ``cv2.connectedComponentsWithStats`` (its regions numbered in another order), several times
    faster: its statistics cost 0.4-0.9 ms on a field's mask (OpenCV 5.1), the labels of a box and
    their histogram a fraction of that."""
    x, y, bw, bh = cv2.boundingRect(mask)
    box = (slice(y, y + bh), slice(x, x + bw))
    if bw == 0 or bh == 0:
        return np.zeros(0), np.zeros((bh, bw), np.int32), box
    # (an 8-connected region holds a pixel of its own in every other row and column at most:
    # 16-bit labels whenever that many fit)
    fits = ((bh + 1) // 2) * ((bw + 1) // 2) + 1 <= np.iinfo(np.uint16).max
    n, labels = cv2.connectedComponentsWithAlgorithm(mask[box], 8, cv2.CV_16U if fits else cv2.CV_32S,
                                                     cv2.CCL_SPAGHETTI)
    if fits:
        areas = cv2.calcHist([labels], [0], None, [n], [0, n]).ravel()
    else:
        areas = np.bincount(labels.ravel(), minlength=n)
    return areas[1:], labels, box


def find_occlusion(rectified: np.ndarray | FieldView, geom: BoardGeometry, stacks: list[StackReading],
                   radius: float, image: np.ndarray | None = None, mask: np.ndarray | None = None) -> bool:
    """True when something other than checkers and dice covers part of the rectified field.

    Two kinds of evidence: a foreign region inside the field (:func:`foreign_mask`) at least
    ``_FOREIGN_CHECKERS`` checker areas large (a cup, a hand, an arm) -- or, given the ``image`` the
    geometry was found in, a smaller one (``_FOREIGN_CROSSING``) while something also covers the frame
    beside the field over ``_CROSSING`` point widths (:func:`border_crossing`): a hand reaching in
    from outside, partly over pale points of a colour near its own.

    :param rectified: BGR uint8 field of ``geom.size`` (or the frame's FieldView);
        ``stacks``: the counter's stacks; ``radius``: checker radius in rectified pixels; ``image``: BGR
        uint8 input frame or None;
        ``mask``: the :func:`foreign_mask` of these, when the caller has it already (else made here).
    """
    if mask is None:
        mask = foreign_mask(rectified, geom, stacks, radius)
    checker_area = np.pi * radius * radius
    least = _FOREIGN_CHECKERS if image is None else min(_FOREIGN_CHECKERS, _FOREIGN_CROSSING)
    if float(cv2.countNonZero(mask)) / checker_area < least:
        return False  # (all the foreign area together is smaller than a region weighed)
    areas = _regions(mask)[0]
    largest = (float(areas.max()) if areas.size else 0.0) / checker_area
    if largest >= _FOREIGN_CHECKERS:
        return True
    if image is None or largest < _FOREIGN_CROSSING:
        return False
    return border_crossing(image, geom, stacks, radius) >= _CROSSING


def border_crossing(image: np.ndarray, geom: BoardGeometry, stacks: Sequence[StackReading] = (),
                    radius: float = 0.0) -> float:
    """The longest stretch, in point widths, of the board's frame just outside the field that
    something covers (a hand or an arm reaching in from outside, a sleeve).

    The band from ``_BAND[0]`` to ``_BAND[1]`` point widths outside each side of the field is
    warped straight (half resolution); along each side, a position is covered where the band across
    it differs (median over its depth) by more than ``_DIFF`` from the side's own look at each depth
    (the median along the side): a frame is one pattern along a side, whatever the board -- also a
    band that straddles a printed frame line and the margin beyond. The bar's ends (hinges) are
    skipped, and so is the
    frame beside the found checkers nearest each long edge (``stacks``, ``radius`` in rectified
    pixels): a checker at a point's base often reaches over the frame.
    ``image``: the BGR uint8 frame ``geom`` was found in.
    """
    scale = 0.5
    pw = POINT_PX * scale
    w, h = geom.size
    lo, hi = _BAND
    m = int(np.ceil(hi * pw)) + 1
    shift = np.array([[scale, 0, m], [0, scale, m], [0, 0, 1]], dtype=np.float64)
    sw, sh = int(round(w * scale)), int(round(h * scale))
    out = cv2.warpPerspective(image, shift @ geom.homography, (sw + 2 * m, sh + 2 * m),
                              flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    a, b = int(round(m - hi * pw)), int(round(m - lo * pw))  # band rows/columns outside the field

    def lab(rows: slice, cols: slice) -> np.ndarray:
        # (the bands alone converted: a byte image's Lab is each pixel's own)
        return cv2.cvtColor(out[rows, cols], cv2.COLOR_BGR2LAB).astype(np.float32)

    sides = [
        lab(slice(a, b), slice(m, m + sw)).transpose(1, 0, 2),  # top: (along, across, 3)
        lab(slice(m + sh + (m - b), m + sh + (m - a)), slice(m, m + sw)).transpose(1, 0, 2),  # bottom
        lab(slice(m, m + sh), slice(a, b)),  # left
        lab(slice(m, m + sh), slice(m + sw + (m - b), m + sw + (m - a))),  # right
    ]
    best = 0
    for i, band in enumerate(sides):
        # each depth across the band against its own colour along the side: a band that
        # straddles the frame's line and the margin beyond is still one pattern along the side
        ref = median(band, 0)  # (across, 3)
        covered = median(channel_norm(band - ref[None]), 1) > _DIFF
        if i < 2:
            for st in stacks:
                if st.centres and st.top == (i == 0) and st.column >= 0:
                    x = scale * st.centres[0][0]
                    reach = scale * 1.2 * radius
                    covered[max(0, int(x - reach)) : int(x + reach) + 1] = False
        if i < 2 and geom.bar is not None:
            hinge = int(0.5 * pw)
            covered[int(scale * geom.bar[0]) - hinge : int(scale * geom.bar[1]) + hinge] = False
        best = max(best, _longest_run(covered))
    return best / pw


def _longest_run(flags: np.ndarray) -> int:
    """The length of the longest run of True in the bool (N,) ``flags`` (0 without one)."""
    edges = np.diff(np.concatenate(([0], flags.astype(np.int8), [0])))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    return int((ends - starts).max()) if starts.size else 0


def hide_points(points: Sequence[PointReading], rectified: np.ndarray | FieldView, geom: BoardGeometry,
                stacks: list[StackReading], radius: float,
                mask: np.ndarray | None = None) -> tuple[PointReading, ...]:
    """The ``points`` (24, slot order) with ``confidence`` 0 on those something foreign covers: at
    least ``_HIDDEN`` of the point's triangle area (its column, from the base to the middle) lies in
    the :func:`foreign_mask`. A reader says so for an occluded frame instead of trusting a count
    read around a hand (the frame's own ``occluded`` flag stays the rule: RULES.md readings are
    taken from settled, clear frames only). ``mask``: the :func:`foreign_mask` of these, when the
    caller has it already (the occlusion test made it), else made here."""
    if mask is None:
        mask = foreign_mask(rectified, geom, stacks, radius)
    h, w = mask.shape[:2]
    rows = h // 2
    # (each half's foreign pixels counted per column once, summed along: a point's share is the
    # difference of two sums, the count np.mean takes over its slice of the mask)
    upto = {top: np.concatenate(([0], np.cumsum(np.count_nonzero(mask[ys] > 0, axis=0))))
            for top, ys in ((True, slice(0, rows)), (False, slice(h - rows, h)))}
    out = []
    for p in points:
        col, top = geom.slot_column(p.slot)
        x0 = max(0, int(round(geom.columns[col] - 0.5 * POINT_PX)))
        x1 = int(round(geom.columns[col] + 0.5 * POINT_PX))
        a, b, _ = slice(x0, x1).indices(w)
        n = max(0, b - a) * rows
        if x1 <= x0:
            covered = 0.0
        else:  # (an empty slice's mean is NaN: no share)
            covered = float(upto[top][b] - upto[top][a]) / n if n else float("nan")
        out.append(dataclasses.replace(p, confidence=0.0) if covered >= _HIDDEN else p)
    return tuple(out)
