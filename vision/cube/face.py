"""Read the figure on the doubling cube's top face: 2, 4, 8, 16, 32 or 64, or None.

The face is cut out of the *input* image through the board's homography (so perspective is removed
and the camera's full resolution is used), square to the cube's own sides (``angle`` from its
minimum-area rectangle), at ``_FACE_PX`` pixels. Its figure is whichever of its two tones covers less
of it (dark figures on a light cube or light on dark alike; Otsu's threshold, "A threshold selection
method from gray-level histograms", 1979); marks that run round the face (a printed ring, the cube's
own edge) are dropped. The figure's box, made square, is compared by normalised correlation with
each value drawn by ``cv2.putText`` in several fonts and weights, at each quarter turn (the cube may
lie any way round); the drawn figures are first brought down to the figure's size in the camera's
pixels and back, so template and face lack the same detail (a font renderer's pixel-level changes
then move both alike). The best value is kept when its correlation passes ``_MIN_SCORE`` and beats the
best *other* value by ``_MARGIN``, and no figure a cube never shows (0, 1, 3, ..., the score cards'
and clocks' figures) matches better; otherwise the face is unread (None): a maker's logo, shown by an
undoubled cube in place of 64, or a face too small or blurred to read.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

__all__ = ["VALUES", "read_face", "score_face", "shows_figure"]

VALUES = (2, 4, 8, 16, 32, 64)
# Figures a cube never shows but a score card or a clock beside the board does: when one of these
# matches best, the square is no cube face (key -1 in :func:`score_face`).
_OTHERS = (0, 1, 3, 5, 6, 7, 9, 10, 11, 12, 13)
# The face is resampled to this many pixels a side; its middle _INNER is read (the rest: the edge).
_FACE_PX = 64
_INNER = 0.86
# Figures are compared at this size (pixels a side).
_CMP = 24
_FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
          cv2.FONT_HERSHEY_TRIPLEX)
_MIN_SCORE = 0.55
_MARGIN = 0.04
# ... and a figure no cube shows must not match better than it by this much (a small 8 is nearly a 3).
_OTHER_MARGIN = 0.02
# A figure covers this share of the face at least and at most (a blank face, or the cube's edge).
_INK = (0.03, 0.5)


def _norm(img: np.ndarray) -> np.ndarray | None:
    """A binary figure (uint8, 0/255) cropped to its box, padded square, resized to _CMP, zero mean
    and unit norm as float32 (_CMP*_CMP,); None when empty."""
    sq = _crop_square(img)
    return None if sq is None else _norm_square(sq)


def _norm_square(sq: np.ndarray) -> np.ndarray | None:
    """:func:`_norm` of a figure already cropped and padded square (:func:`_crop_square`)."""
    v = cv2.resize(sq, (_CMP, _CMP), interpolation=cv2.INTER_AREA).astype(np.float32).ravel()
    v -= v.mean()
    n = float(np.linalg.norm(v))
    return v / n if n > 0 else None


def _crop_square(img: np.ndarray) -> np.ndarray | None:
    """A binary figure (uint8, 0/255) cropped to its box and padded square; None when empty."""
    ys, xs = np.nonzero(img)
    if len(xs) == 0:
        return None
    return _pad_square(img[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])


def _pad_square(crop: np.ndarray) -> np.ndarray:
    """A figure cropped to its box (uint8 (h, w)), centred on a square of zeros."""
    h, w = crop.shape
    side = max(h, w)
    sq = np.zeros((side, side), np.uint8)
    sq[(side - h) // 2 : (side - h) // 2 + h, (side - w) // 2 : (side - w) // 2 + w] = crop
    return sq


@functools.lru_cache(maxsize=1)
def _glyphs() -> tuple[tuple[np.ndarray, ...], tuple[int, ...]]:
    """Each value in each font and two weights, drawn upright and large: binary squares, and their
    values (-1 for figures no cube shows)."""
    rows, vals = [], []
    for value in VALUES + _OTHERS:
        for font in _FONTS:
            for thick in (2, 4):
                canvas = np.zeros((120, 200), np.uint8)
                cv2.putText(canvas, str(value), (10, 90), font, 2.4, 255, thick, cv2.LINE_AA)
                sq = _crop_square((canvas > 127).astype(np.uint8) * 255)
                # OpenCV 5 draws every weight from 2 up alike: a glyph kept twice only doubles the work
                if sq is not None and not any(r.shape == sq.shape and np.array_equal(r, sq) for r in rows):
                    rows.append(sq)
                    vals.append(value if value in VALUES else -1)
    return tuple(rows), tuple(vals)


@functools.lru_cache(maxsize=64)
def _templates(source_px: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(T, _CMP*_CMP) float32 unit templates and their values (T,). With ``source_px`` (the figure's
    box side in the camera's pixels, when under _CMP) each glyph first goes the face's way: down to
    that size and back up, thresholded at half, so the templates lose the detail the face lost (a
    small 8's waist, which otherwise leaves it nearer a crisp 3 than a crisp 8)."""
    glyphs, vals = _glyphs()
    rows = []
    for sq in glyphs:
        if 0 < source_px < _CMP:
            small = cv2.resize(sq, (source_px, source_px), interpolation=cv2.INTER_AREA)
            big = cv2.resize(small, sq.shape[::-1], interpolation=cv2.INTER_LINEAR)
            sq = (big > 127).astype(np.uint8) * 255
        v = _norm(sq)
        rows.append(v if v is not None else np.zeros(_CMP * _CMP, np.float32))
    return np.stack(rows), np.array(vals)


def _figure(face: np.ndarray) -> np.ndarray | None:
    """The figure's pixels (uint8 0/255, face-sized) of a grey face, or None when it shows none."""
    n = face.shape[0]
    m = int(round(n * (1 - _INNER) / 2))
    inner = face[m : n - m, m : n - m]
    if float(inner.std()) < 8.0:
        return None  # one flat tone: a blank face
    t, ink = cv2.threshold(inner, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if np.count_nonzero(ink) > ink.size / 2:
        ink = 255 - ink
    # (labels in 16 bits: a face has far fewer than 65536 components, and they come twice as fast)
    k, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8, ltype=cv2.CV_16U)
    kept = np.zeros(k, np.uint8)  # 255 for each component kept, by label
    side = inner.shape[0]
    for i in range(1, k):
        x, y, w, h, area = stats[i]
        if area < 0.004 * side * side:
            continue  # a speck
        if w > 0.85 * side and h > 0.85 * side:
            continue  # a ring printed round the figure, or the cube's own edge
        if x == 0 or y == 0 or x + w == side or y + h == side:
            if area < 0.02 * side * side or w > 0.7 * side or h > 0.7 * side:
                continue  # the edge of the face, seen at a slant
        kept[i] = 255
    keep = kept[labels]
    share = np.count_nonzero(keep) / keep.size
    if not _INK[0] <= share <= _INK[1]:
        return None
    return keep


def score_face(face: np.ndarray, source_scale: float = 0.0) -> dict[int, float]:
    """Best correlation (-1..1) of each value with the figure on a square grey face (uint8 (N, N)),
    over fonts, weights and quarter turns, and under key -1 the best of figures no cube shows; {}
    when the face shows no figure. ``source_scale``: the camera's pixels per face pixel (0: unknown),
    which tells how much detail the figure can hold (see :func:`_templates`)."""
    fig = _figure(face)
    if fig is None:
        return {}
    ys, xs = np.nonzero(fig)
    box = max(int(ys.max() - ys.min()), int(xs.max() - xs.min())) + 1
    temps, _ = _templates(max(1, int(round(box * source_scale))) if source_scale > 0 else 0)
    order, starts = _value_rows()
    # (a turned figure's box is its box turned: cropped once)
    crop = fig[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    best: dict[int, float] = {}
    for turn in range(4):
        v = _norm_square(_pad_square(np.rot90(crop, turn)))
        if v is None:
            continue
        # each value's best template at once: the scores grouped by value, a maximum per group
        tops = np.maximum.reduceat((temps @ v)[order], starts)
        for value, top in zip((*VALUES, -1), tops.tolist(), strict=True):
            if top > best.get(value, -1.0):
                best[value] = top
    return best


@functools.lru_cache(maxsize=1)
def _value_rows() -> tuple[np.ndarray, np.ndarray]:
    """The templates' rows grouped by value (``VALUES``, then -1): their order (int (T,)), and where
    each value's group starts in it (int (7,))."""
    vals = np.array(_glyphs()[1])
    groups = [np.flatnonzero(vals == value) for value in (*VALUES, -1)]
    starts = np.cumsum([0] + [len(g) for g in groups[:-1]])
    return np.concatenate(groups), starts


def _cut(image: np.ndarray, to_plane: np.ndarray, centre: tuple[float, float], side: float,
         angle: float) -> np.ndarray:
    """A cube's face cut out of ``image`` (see :func:`read_face`): grey uint8 (_FACE_PX, _FACE_PX)."""
    a = np.deg2rad(angle)
    u = np.array([np.cos(a), np.sin(a)]) * side / _FACE_PX
    v = np.array([-np.sin(a), np.cos(a)]) * side / _FACE_PX
    c = np.asarray(centre, np.float64) - (u + v) * _FACE_PX / 2
    face_to_plane = np.array([[u[0], v[0], c[0]], [u[1], v[1], c[1]], [0, 0, 1]])
    image_to_face = np.linalg.inv(face_to_plane) @ to_plane
    face = cv2.warpPerspective(image, image_to_face, (_FACE_PX, _FACE_PX), flags=cv2.INTER_LINEAR)
    if face.ndim == 3:
        face = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)
    return face


def shows_figure(image: np.ndarray, to_plane: np.ndarray, centre: tuple[float, float], side: float,
                 angle: float) -> bool:
    """Whether a square's face (placed as for :func:`read_face`) carries a figure or logo at all,
    read or not: a cube's face always does, a plain block (a tray's stop, a hinge) never."""
    return side > 2 and _figure(_cut(image, to_plane, centre, side, angle)) is not None


def read_face(image: np.ndarray, to_plane: np.ndarray, centre: tuple[float, float], side: float,
              angle: float) -> int | None:
    """The value on a cube's face, or None when it cannot be read (see the module docstring).

    ``image``: BGR uint8 (H, W, 3); ``to_plane``: float64 (3, 3) homography from image pixels to a
    top view of the board (the cube lies flat in it); ``centre``, ``side`` (pixels) and ``angle``
    (degrees, as from ``cv2.minAreaRect``) place the cube's face in that view.
    """
    if side <= 2:
        return None
    face = _cut(image, to_plane, centre, side, angle)
    # the camera's pixels per face pixel: the plane's per face pixel times the image's per plane one
    # (the square root of the homography's local area ratio at the centre)
    pts = np.array([[centre, (centre[0] + 1, centre[1]), (centre[0], centre[1] + 1)]], np.float64)
    q = cv2.perspectiveTransform(pts, np.linalg.inv(to_plane))[0]
    (ax, ay), (bx, by) = q[1] - q[0], q[2] - q[0]
    area = abs(float(ax * by - ay * bx))
    scores = score_face(face, side / _FACE_PX * float(np.sqrt(area)))
    if not scores:
        return None
    other = scores.pop(-1, -1.0)
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    (value, best), (_, second) = ranked[0], ranked[1]
    if best < _MIN_SCORE or best - second < _MARGIN or other > best + _OTHER_MARGIN:
        return None
    return value
