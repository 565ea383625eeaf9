"""Find the doubling cube beside the points: on the bar, in a side tray, or beside a paper board.

The cube is a square block a little smaller than a checker. In the rectified view (extended past the
field's ends), each place a cube may lie -- the bar, and a band beyond each end of the field -- is
compared with its own median colour; blobs unlike it are kept when they are the cube's size and
square: a square fills its minimum-area rectangle (fill ratio near 1), a checker's disc only pi/4
of it. Its ``position`` follows DESIGN.md: ``"centre"`` in the middle third of the board's height
(the undoubled cube on the bar or beside the board), else ``"top"`` / ``"bottom"`` (the side of its
owner).

The face is read by :mod:`vision.cube.face` (figures 2-64 matched against figures drawn in several
fonts, at the four quarter turns); a face it cannot read -- a maker's logo, shown by an undoubled cube
instead of 64 -- gives ``value`` None. Of several squares found, the nearest the field (within a tray's reach)
whose face reads as a value is taken, else the nearest whose face shows a mark at all (score cards
and clocks stand further out; figures no cube shows, as theirs, are refused by the face reader; a
plain square, as a tray's stop block, is the board's own: a cube's face always shows a figure or logo).

A cube of its place's own colour (a black cube with gold figures in a black tray, on a black table)
shows no square, only its figure: when no square reads, figure-sized blobs alone on a plain ground
are read as faces at three sizes round the expected side, and taken only when those readings agree.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.board.geometry import POINT_PX, BoardGeometry
from vision.cube.face import read_face, shows_figure
from vision.reading import CubeReading

__all__ = ["find_cube"]

# How far past the field's ends (in point widths) a cube may lie.
_REACH = 3.0
# A square fills at least this share of its minimum-area rectangle (a disc fills pi/4 = 0.785).
_SQUARE_FILL = 0.86
# Squares this far past the field's ends (point widths: a tray's reach) are read, nearest first;
# the first that reads as a value is the cube.
_READ_REACH = 2.0
# The background is the median colour within a window this many cube sides across.
_BG_SIDES = 3.0
# A cube found by its figure is read at these multiples of the expected side.
_FIGURE_SIDES = (0.85, 1.0, 1.2)
# Lab distance from the background colour above which a pixel belongs to an object.
_DIFF = 35.0


def _places(geom: BoardGeometry, pad: int) -> list[tuple[int, int]]:
    """x-ranges (extended-canvas pixels) where a cube may lie: the bar and both ends."""
    width = geom.size[0]
    out = [(0, pad - int(0.1 * POINT_PX)), (pad + width + int(0.1 * POINT_PX), 2 * pad + width)]
    if geom.bar is not None:
        out.append((pad + int(geom.bar[0]), pad + int(geom.bar[1])))
    return out


# Squares of byte differences: a place's Lab bytes and its backgrounds' differ by whole numbers (or
# halves), so squared distances add exactly and compare with _DIFF squared as their roots with _DIFF.
_SQUARES = (np.arange(256, dtype=np.float32) ** 2).reshape(1, 256)
_ONES = np.ones((1, 3), np.float32)


def _far(sq: np.ndarray, limit: float) -> np.ndarray:
    """uint8 (H, w), 255 where the summed channels of ``sq`` (float32 (H, w, 3)) exceed ``limit``."""
    total = cv2.transform(sq, _ONES)
    return (total > limit).view(np.uint8) * np.uint8(255)


def _unlike(lab: np.ndarray, bg: np.ndarray) -> np.ndarray:
    """uint8 (H, w), 255 where a place (Lab uint8 (H, w, 3)) is further than ``_DIFF`` from ``bg``:
    the objects lying there. ``bg``: Lab uint8 (H, w, 3), one colour per pixel, or float32 (3,), one
    colour for the place (a median of bytes: whole or half)."""
    if bg.ndim == 3:
        return _far(cv2.LUT(cv2.absdiff(lab, bg), _SQUARES), _DIFF * _DIFF)
    # (doubled, the colour's halves are whole: each channel's squared distance from one table)
    v = 2.0 * np.arange(256, dtype=np.float64)
    table = np.stack([(v - 2.0 * float(c)) ** 2 for c in bg], axis=-1).astype(np.float32)
    return _far(cv2.LUT(lab, table.reshape(1, 256, 3)), 4.0 * _DIFF * _DIFF)


def _median_colour(lab: np.ndarray) -> np.ndarray:
    """The per-channel median of a place's Lab bytes (uint8 (H, w, 3)): float32 (3,), the middle
    order statistics read off each channel's histogram (the same values as np.median's)."""
    n = lab.shape[0] * lab.shape[1]
    out = np.empty(3, np.float32)
    for c in range(3):
        cum = np.cumsum(cv2.calcHist([lab], [c], None, [256], [0, 256]).ravel())
        lo, mid = np.searchsorted(cum, [(n - 1) // 2 + 1, n // 2 + 1])
        out[c] = np.float32(mid) if n % 2 else (np.float32(lo) + np.float32(mid)) / np.float32(2)
    return out


def _components(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """``cv2.connectedComponentsWithStats`` of a binary mask (8-connected), its labels in 16 bits
    where they fit (a mask of H * W pixels has at most ceil(H/2) * ceil(W/2) components): the same
    stats, made twice as fast."""
    h, w = mask.shape
    ltype = cv2.CV_16U if ((h + 1) // 2) * ((w + 1) // 2) < 65536 else cv2.CV_32S
    return cv2.connectedComponentsWithStats(mask, connectivity=8, ltype=ltype)


def _outline(labels: np.ndarray, stats: np.ndarray, i: int) -> np.ndarray:
    """Component ``i``'s first and last pixel in each of its rows, in raster order: float32 (N, 2)
    x, y. ``cv2.minAreaRect`` of them is that of all its pixels: every corner of their convex hull is
    the first or last of its row (and so is each row's and column's extreme the hull starts from),
    and in raster order they keep the order the hull's output is rotated by."""
    bx, by, bw, bh = stats[i, :4].tolist()
    inside = labels[by : by + bh, bx : bx + bw] == i
    # (each row's two points written in place: x, y of the first, then of the last)
    pts = np.empty((bh, 2, 2), np.float32)
    pts[:, 0, 0] = inside.argmax(axis=1)
    pts[:, 1, 0] = bw - 1 - inside[:, ::-1].argmax(axis=1)
    pts[:, :, 0] += bx
    pts[:, :, 1] = np.arange(by, by + bh, dtype=np.float32)[:, None]
    one = pts[:, 0, 0] == pts[:, 1, 0]  # (a row of one pixel gives it once, as all its pixels do)
    if one.any():
        keep = np.ones((bh, 2), bool)
        keep[:, 1] = ~one
        return pts[keep]
    return pts.reshape(-1, 2)


def _squares(unlike: np.ndarray, side: float, x0: int, pad: int,
             width: int) -> list[tuple[float, float, float, float, float]]:
    """Cube-sized squares in one place's objects (``unlike``, :func:`_unlike`): (distance past the
    field's ends, x, y (extended-canvas px), side, angle) each."""
    mask = unlike.copy()
    # a cube of the place's own colour shows only its outline and figures: fill what they enclose
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(mask, contours, -1, 255, cv2.FILLED)
    k = max(3, int(0.15 * side) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    _, labels, stats, cents = _components(mask)
    found = []
    # (the size test at once: most components are specks or the tray's lining)
    areas = stats[:, cv2.CC_STAT_AREA].astype(np.float64)
    sized = (areas >= 0.45 * side * side) & (areas <= 1.8 * side * side)
    sized[0] = False  # (the background)
    for i in np.flatnonzero(sized).tolist():
        area = float(areas[i])
        (_, _), (rw, rh), ang = cv2.minAreaRect(_outline(labels, stats, i))
        if rw <= 0 or rh <= 0 or not 0.7 < rw / rh < 1.43:
            continue
        fill = area / (rw * rh)
        if fill < _SQUARE_FILL:
            continue
        cx = float(cents[i][0] + x0)
        dist = max(0.0, pad - cx, cx - (pad + width))
        found.append((dist, cx, float(cents[i][1]), float(np.sqrt(rw * rh)), float(ang)))
    return found


def _figures(mask: np.ndarray, side: float, x0: int, pad: int,
             width: int) -> list[tuple[float, float, float, float, float]]:
    """Where a cube of its place's own colour may lie, found by its figure (light figures on a dark
    cube in a dark tray, or on a black table: the cube's body barely differs from what it lies on,
    its figure does): blobs of ``mask`` (a place's objects, :func:`_unlike`) a figure's size (its
    digits joined), alone on a plain ground a cube's side across. Same tuples as :func:`_squares`,
    the side the expected one and the angle the figure's own (a figure's baseline runs along a side
    of its face)."""
    k = max(3, int(0.12 * side) | 1)
    joined = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    n, labels, stats, _ = _components(joined)
    h, w = mask.shape
    found = []
    for i, (bx, by, bw, bh, _) in enumerate(stats.tolist()[1:n], start=1):
        big = max(bw, bh) - k
        if not 0.2 * side <= big <= 0.8 * side or min(bw, bh) - k < 0.12 * side:
            continue
        cx, cy = bx + bw / 2, by + bh / 2
        # the figure lies alone on its face: a band round it, inside the face's edge, is plain
        r0, r1 = int(0.5 * side), int(0.75 * side)
        ya, yb, xa, xb = int(cy) - r1, int(cy) + r1, int(cx) - r1, int(cx) + r1
        if ya < 0 or xa < 0 or yb > h or xb > w:
            continue
        window = mask[ya:yb, xa:xb].copy()
        window[r1 - r0 : r1 + r0, r1 - r0 : r1 + r0] = 0
        if np.count_nonzero(window) > 0.05 * window.size:
            continue
        (fx, fy), _, ang = cv2.minAreaRect(_outline(labels, stats, i))
        gx = float(fx + x0)
        dist = max(0.0, pad - gx, gx - (pad + width))
        found.append((dist, gx, float(fy), float(side), float(ang)))
    return found


def find_cube(image: np.ndarray, geom: BoardGeometry, checker_radius: float) -> CubeReading | None:
    """The cube near the board in a BGR uint8 image (H, W, 3), or None when none is seen.

    ``checker_radius``: in rectified pixels (from the stack counter). ``image_xy`` of the result is
    in input pixels; ``value`` 2-64 as read by :func:`vision.cube.face.read_face`, None when unread.
    """
    pad = int(_REACH * POINT_PX)
    width, height = geom.size
    shift = np.array([[1, 0, pad], [0, 1, 0], [0, 0, 1]], dtype=np.float64)
    to_ext = shift @ geom.homography
    side = 1.6 * checker_radius  # a cube is about 0.8 of a checker across
    found: list[tuple[float, float, float, float, float]] = []  # dist, x, y (ext px), side, angle
    regions = []
    for x0, x1 in _places(geom, pad):
        if x1 - x0 < 0.5 * side:
            continue
        # only the places are converted (the field between them is two thirds of the canvas)
        # (each place warped alone: the field between them is two thirds of the extended canvas)
        to_place = np.array([[1, 0, -x0], [0, 1, 0], [0, 0, 1]], dtype=np.float64) @ to_ext
        place = cv2.warpPerspective(image, to_place, (x1 - x0, height))
        lab = cv2.cvtColor(cv2.GaussianBlur(place, (5, 5), 0), cv2.COLOR_BGR2LAB)
        # two backgrounds: the place's median colour (a cube on the bar or on the table), and the
        # median round each pixel (a cube inside a tray, which itself differs from the place)
        kb = min(255, max(3, int(_BG_SIDES * side) | 1))
        # (at half resolution: the background changes slowly, and a large median is costly)
        small = ((x1 - x0 + 1) // 2, (place.shape[0] + 1) // 2)
        half = cv2.resize(place, small, interpolation=cv2.INTER_AREA)
        local = cv2.resize(cv2.medianBlur(half, max(3, (kb // 2) | 1)), (x1 - x0, place.shape[0]),
                           interpolation=cv2.INTER_LINEAR)
        local = cv2.cvtColor(local, cv2.COLOR_BGR2LAB)
        around = _unlike(lab, local)
        regions.append((x0, around))
        for unlike in (_unlike(lab, _median_colour(lab)), around):
            found += _squares(unlike, side, x0, pad, width)
    # of several squares (score cards, a clock), the cube is the one whose face reads among those
    # within the trays' reach, else the one nearest the field
    found.sort()
    for cand in found:
        if cand[0] > _READ_REACH * POINT_PX:
            break
        v = _value(image, geom, shift, cand)
        if v is not None:
            return _reading(geom, cand, v, pad)
    # no square reads: a cube of its place's colour shows only its figure
    figures = []
    for x0, around in regions:
        figures += _figures(around, side, x0, pad, width)
    for cand in sorted(figures):
        if cand[0] > _READ_REACH * POINT_PX:
            break
        # the face's size is not known from its figure: it must read the same at three sizes
        # round the expected one (at the wrong size a face's bevel joins its figure: 4 -> 64)
        reads = [_value(image, geom, shift, (*cand[:3], f * cand[3], cand[4])) for f in _FIGURE_SIDES]
        got = {v for v in reads if v is not None}
        if len(got) == 1 and sum(v is not None for v in reads) >= 2:
            return _reading(geom, cand, got.pop(), pad)
    # else the nearest square whose face is marked (a logo, a figure too blurred to read): a plain
    # square is the board's own (a tray's stop block, a hinge), for a cube's face always shows one
    to_plane = shift @ geom.homography
    for cand in found:
        if shows_figure(image, to_plane, (cand[1], cand[2]), cand[3], cand[4]):
            return _reading(geom, cand, None, pad)
    return None


def _value(image: np.ndarray, geom: BoardGeometry, shift: np.ndarray,
           cand: tuple[float, float, float, float, float]) -> int | None:
    """The face value of a candidate (see :func:`_squares`), None when it does not read."""
    return read_face(image, shift @ geom.homography, (cand[1], cand[2]), cand[3], cand[4])


def _reading(geom: BoardGeometry, cand: tuple[float, float, float, float, float], value: int | None,
             pad: int) -> CubeReading:
    """The reading of the cube found at ``cand``: its position by the board's thirds (DESIGN.md)."""
    _, x, y, _, _ = cand
    height = geom.size[1]
    position = "centre" if height / 3 <= y <= 2 * height / 3 else ("top" if y < height / 3 else "bottom")
    img_xy = geom.to_image(np.array([[x - pad, y]]))[0]
    return CubeReading(value, position, (float(img_xy[0]), float(img_xy[1])))
