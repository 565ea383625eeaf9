"""Is a die cocked? The geometry of its top face, its side face and its pips (issue 4 item 3;
RULES.md B15, N10: a cocked die forces a re-throw).

A camera above the dice sees a flat die's top face parallel to the image plane: whatever the lens's
perspective does to the side faces (a die near a wide photo's edge shows one or two of them), the top
face itself stays a square, and its pips circles. A cocked die -- resting on an edge, against a tray
wall, the frame or a checker -- has its top face tilted by some angle t: the face is foreshortened
to a rectangle of aspect 1/cos t, its pips to ellipses of the same aspect, and the side face it tilts
away from shows beside the face's short side. :func:`tilt_of` measures the outline, :func:`pip_aspect`
the pips; :func:`is_cocked`, the one verdict of both dice readers, wants both to agree (the photo
reader, :data:`PHOTO_COCK`). The board reader sees no die's outline, only blobs on a rectified top
view of the board (:data:`BOARD_COCK`): there a side face's pips beside the top face
(:func:`side_face_pips`), or a four's or five's corner pips foreshortened from a square, tell alone.

1. **Side face.** The die's blob holds a thick region (``SIDE_MIN_AREA`` die edges squared, after an
   opening of ``_SIDE_OPEN`` edges that removes pip halos, the rim's anti-aliasing and a flat die's
   thin cast shadow), away from the top face's pips, whose colour is not the top face's body colour
   and which reaches the blob's outline (a side face lies at the die's edge).
2. **Foreshortened outline.** The blob less that side region, around the top face's centre, has a
   minimum-area rectangle of aspect at least ``ASPECT_MIN`` (1.2: a tilt of 34 degrees or more) and
   the side region lies off its short side (``_ALONG_MIN``: the cosine between the short axis and the
   direction to the side's centroid).
3. **Foreshortened pips**, where the photo resolves them (:func:`pip_aspect`): the square of a four's
   or five's corner pips mapped to the image has singular values at least ``ASPECT_MIN`` apart, or
   the face's pips (seen at least ``_PIP_MIN_PX`` px in radius) are ellipses of median aspect at
   least ``ASPECT_MIN``. On real photos the colour outline alone is not enough: translucent, marbled
   and bevelled dice and the perspective side faces of flat dice give it aspects of 1.2-2 (dice-d6:
   209 of 1,636 classical faces), while the corner pips of the fours and fives read right there are
   square to 1.12 (90th percentile, 399 faces). The pips' long axis must also run within
   ``_AXIS_APART`` of the outline's (both along the edge the die tilts about): noise has no axis.
   Measured with the shipped reader: dice-d6 13 of 1,676 dice called cocked (most of them flat dice
   seen well off the lens's axis; before, the outline's offset and aspect alone: 53); rendered
   scenes (:mod:`vision.render.dice`, 40 seeds) 13 of 20 cocked dice told, none of 100 flat called
   cocked (before: none told).

Colours are CIE-Lab (OpenCV 8-bit scaling); a pixel is "not body" beyond max(``_DELTA_MIN``,
``_DELTA_NOISE`` x the spread of the face's core): a black die's side face is only 13-15 units
darker than its top.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.arrays import nonzero2d
from vision.dice.layout import Pip
from vision.errors import DiceInputError

__all__ = ["ASPECT_MIN", "BOARD_COCK", "PHOTO_COCK", "SIDE_MIN_AREA", "CockLimits", "Outline", "Tilt",
           "corner_aspect", "is_cocked", "pip_aspect", "side_face_pips", "tilt_of"]

ASPECT_MIN = 1.2
SIDE_MIN_AREA = 0.15
_ALONG_MIN = 0.7
# The body colour is sampled within _CORE edges of the face centre, _PIP_CLEAR edges clear of the
# face's pips (those within _PIP_REACH edges of its centre: the others belong to a side face).
_CORE = 0.22
_PIP_CLEAR = 0.16
_PIP_REACH = 0.42
_DELTA_MIN = 10.0
_DELTA_NOISE = 3.0
_SIDE_OPEN = 0.09
_TOP_OPEN = 0.06
_RIM = 0.06
# The pips' long axis and the outline's agree within this (radians).
_AXIS_APART = np.deg2rad(25.0)
# A pip's ellipse is measured only when its radius (0.09 die edges) spans this many px.
_PIP_MIN_PX = 2.0
# A pip and its surround differ by at least this (Lab) for its shape to be measured.
_PIP_CONTRAST = 20.0


@dataclass(frozen=True)
class Tilt:
    """What :func:`tilt_of` measured: ``aspect`` of the top face's rectangle (>= 1), ``side_area``
    of the side region in die edges squared, ``along`` (0-1) how far off the face's short side that
    region lies."""

    aspect: float
    side_area: float
    along: float
    axis: float = 0.0  # the direction of the rectangle's long side (the tilt axis), radians

    @property
    def foreshortened(self) -> bool:
        """The outline shows a tilted top face with a side face beside it (steps 1-2)."""
        return self.aspect >= ASPECT_MIN and self.side_area >= SIDE_MIN_AREA and self.along >= _ALONG_MIN


def _disc(r: float) -> np.ndarray:
    k = max(1, int(round(r)))
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))


def tilt_of(lab: np.ndarray, mask: np.ndarray, centre: tuple[float, float],
            pips: Sequence[tuple[float, float]], size: float) -> Tilt | None:
    """Measure one die's top face and side region (module docstring, steps 1-2).

    :param lab: uint8 (h, w, 3) CIE-Lab crop around the die (OpenCV scaling).
    :param mask: uint8 (h, w), 255 on the die's blob (its own outline: top and side faces).
    :param centre: the top face's centre (x, y), crop px (the centre of its pips).
    :param pips: the top face's pip centres (x, y), crop px.
    :param size: the die edge, px.
    :returns: the measures, or None when the face's centre is not on the blob (nothing to judge).
    :raises DiceInputError: (a ``ValueError``) when ``lab`` and ``mask`` differ in size, or ``size``
        is 2 px or less.
    """
    h, w = mask.shape
    if lab.shape[:2] != (h, w) or size <= 2.0:
        raise DiceInputError(
            f"tilt_of: crop {lab.shape[:2]} and mask {mask.shape} differ, or size {size} <= 2")
    crop = cv2.GaussianBlur(lab.astype(np.float32), (0, 0), max(0.7, 0.04 * size))
    inside = mask > 0
    cx, cy = centre
    yy, xx = np.mgrid[0:h, 0:w]
    clear = np.ones((h, w), bool)
    for x, y in pips:
        if (x - cx) ** 2 + (y - cy) ** 2 <= (_PIP_REACH * size) ** 2:
            clear &= (xx - x) ** 2 + (yy - y) ** 2 > (_PIP_CLEAR * size) ** 2
    core = inside & clear & ((xx - cx) ** 2 + (yy - cy) ** 2 <= (_CORE * size) ** 2)
    if core.sum() < 5:
        return None
    body = np.median(crop[core], axis=0)
    spread = float(np.percentile(np.linalg.norm(crop[core] - body, axis=1), 40))
    dist = np.linalg.norm(crop - body, axis=2)
    far = (inside & clear & (dist >= max(_DELTA_MIN, _DELTA_NOISE * spread))).astype(np.uint8) * 255
    far = cv2.morphologyEx(far, cv2.MORPH_OPEN, _disc(_SIDE_OPEN * size))
    rim = inside & ~(cv2.erode(mask, _disc(_RIM * size)) > 0)
    n, labels = cv2.connectedComponents(far)
    # the parts of far that reach the rim, looked up by label (one pass, not one per part)
    reaches = np.zeros(n, bool)
    reaches[labels[rim]] = True
    reaches[0] = False
    side = reaches[labels]
    top = (inside & ~side).astype(np.uint8) * 255
    top = cv2.morphologyEx(top, cv2.MORPH_OPEN, _disc(_TOP_OPEN * size))
    _, labels = cv2.connectedComponents(top)
    ix, iy = int(round(cx)), int(round(cy))
    if not (0 <= ix < w and 0 <= iy < h) or labels[iy, ix] == 0:
        return None
    face = (labels == labels[iy, ix]).astype(np.uint8)
    contours, _ = cv2.findContours(face, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    (rx, ry), (rw, rh), ang = cv2.minAreaRect(cv2.convexHull(max(contours, key=cv2.contourArea)))
    aspect = max(rw, rh) / max(1e-6, min(rw, rh))
    along = 0.0
    axis = float(np.deg2rad(ang if rw >= rh else ang + 90.0))
    if side.any():
        # OpenCV's angle is that of the rectangle's side of length rw: the short axis runs along it
        # when rw is the shorter side
        a = np.deg2rad(ang if rw < rh else ang + 90.0)
        sy, sx = nonzero2d(side)
        dx, dy = float(sx.mean()) - rx, float(sy.mean()) - ry
        along = abs(dx * np.cos(a) + dy * np.sin(a)) / max(1e-6, float(np.hypot(dx, dy)))
    return Tilt(float(aspect), float(side.sum()) / (size * size), float(along), axis)


def corner_aspect(pips: Sequence[tuple[float, float]], centre: tuple[float, float]
                 ) -> tuple[float, float] | None:
    """A four's or five's corner pips are a square's corners: the two diagonals d1, d2 (pairs mirrored
    through the centre) give the affine image of that square, A = [(d1 + d2) / 2, (d1 - d2) / 2];
    its aspect is the ratio of A's singular values, its long axis A's first left singular vector
    (radians). None for other faces (a six's columns are closer
    than its rows on many real dice)."""
    c = np.asarray(centre, np.float64)
    pts = [np.asarray(p, np.float64) for p in pips]
    if len(pts) == 5:
        k = int(np.argmin([np.linalg.norm(p - c) for p in pts]))
        pts = pts[:k] + pts[k + 1 :]
    if len(pts) != 4:
        return None
    first = pts[0]
    j = 1 + int(np.argmin([np.linalg.norm(first + q - 2 * c) for q in pts[1:]]))
    rest = [p for i, p in enumerate(pts) if i not in (0, j)]
    d1, d2 = pts[j] - first, rest[1] - rest[0]
    u, s, _ = np.linalg.svd(np.column_stack([(d1 + d2) / 2, (d1 - d2) / 2]))
    return float(s[0] / max(float(s[1]), 1e-6)), float(np.arctan2(u[1, 0], u[0, 0]))


def _ellipse_aspect(lab: np.ndarray, pips: Sequence[tuple[float, float]], size: float
                    ) -> tuple[float, float] | None:
    """Median aspect (sqrt of the second moments' eigenvalue ratio) of the pips' blobs -- the pixels
    nearer the pip's centre colour than the surround's, connected to the centre -- and their mean
    long axis (radians; axes averaged as doubled angles weighted by elongation). None when the pips
    are too small to measure (radius below ``_PIP_MIN_PX``) or none could be measured."""
    if 0.09 * size < _PIP_MIN_PX:
        return None
    crop = lab.astype(np.float32)
    h, w = crop.shape[:2]
    out = []
    axes = []
    for x, y in pips:
        others = [float(np.hypot(x - u, y - v)) for u, v in pips if (u, v) != (x, y)]
        r = int(np.ceil(min([0.25 * size] + [0.5 * d for d in others])))
        xi, yi = int(round(x)), int(round(y))
        x0, x1, y0, y1 = max(0, xi - r), min(w, xi + r + 1), max(0, yi - r), min(h, yi + r + 1)
        if not (x0 <= xi < x1 and y0 <= yi < y1):
            continue
        win = crop[y0:y1, x0:x1]
        yy, xx = np.mgrid[y0:y1, x0:x1]
        ring = (xx - x) ** 2 + (yy - y) ** 2 >= (0.8 * r) ** 2
        if ring.sum() < 4:
            continue
        around, pip = np.median(win[ring], axis=0), crop[yi, xi]
        if float(np.linalg.norm(pip - around)) < _PIP_CONTRAST:
            continue
        blob = (np.linalg.norm(win - pip, axis=2) < np.linalg.norm(win - around, axis=2)).astype(np.uint8)
        _, labels = cv2.connectedComponents(blob)
        own = labels == labels[yi - y0, xi - x0]
        if own.sum() < 6 or (own & ring).sum() > 0.3 * ring.sum():
            continue
        ys, xs = nonzero2d(own)
        ev, vec = np.linalg.eigh(np.cov(np.stack([xs, ys]).astype(np.float64)))
        out.append(float(np.sqrt(ev[1] / max(float(ev[0]), 1e-6))))
        axes.append((out[-1] - 1.0) * np.exp(2j * np.arctan2(vec[1, 1], vec[0, 1])))
    if not out:
        return None
    return float(np.median(out)), float(np.angle(np.sum(axes)) / 2.0)


def pip_aspect(lab: np.ndarray, pips: Sequence[tuple[float, float]], centre: tuple[float, float],
               size: float) -> tuple[float, float] | None:
    """How foreshortened the top face's pips show it (module docstring, step 3): (aspect, long axis
    in radians) of the corner square for a four or five, else of the pips' ellipses; None when the
    pips cannot tell.

    :param lab: uint8 (h, w, 3) CIE-Lab crop; ``pips``, ``centre`` in its px; ``size`` the die edge, px.
    """
    grid = corner_aspect(pips, centre)
    return grid if grid is not None else _ellipse_aspect(lab, pips, size)


@dataclass(frozen=True)
class Outline:
    """A die's own outline in a photo: ``lab`` uint8 (h, w, 3) CIE-Lab crop round the die (OpenCV
    scaling) and ``mask`` uint8 (h, w), 255 on the die's blob (its top and side faces)."""

    lab: np.ndarray
    mask: np.ndarray


@dataclass(frozen=True)
class CockLimits:
    """Where the two readers' cocked tests differ.

    ``pips_suffice``: foreshortened pips alone make a cocked die. True on the board reader's
    rectified field, a top view of the board's plane: a flat die's corner square is square there
    (1.00-1.06 on the boards seen). False in a photo, whose lens and dice of every make leave the
    corner squares of flat dice up to 1.12 (90th percentile): there the pips only confirm the
    outline. ``side_pips``: a side face's pips seen beside the top face (at least two) make a cocked
    die; the board reader has no die outline, only its blobs. ``grid_min_edge``: a four's or five's
    corner square is measured only on dice at least this many input px across (the pips' centres
    are then good to a few per cent)."""

    pips_suffice: bool
    side_pips: bool
    grid_min_edge: float = 0.0


PHOTO_COCK = CockLimits(pips_suffice=False, side_pips=False)
BOARD_COCK = CockLimits(pips_suffice=True, side_pips=True, grid_min_edge=10.0)

# A side face's pips: blobs of the top face's polarity, at least _SIDE_CONTRAST of its weakest pip
# and _SIDE_ROUND round, _SIDE_NEAR-_SIDE_FAR edges from its centre, within _SIDE_SPREAD degrees of
# each other as seen from it.
_SIDE_CONTRAST = 0.6
_SIDE_ROUND = 0.5
_SIDE_NEAR = 0.55
_SIDE_FAR = 0.9
_SIDE_SPREAD = 70.0


def side_face_pips(centre: tuple[float, float], pips: Sequence[Pip], edge: float,
                   others: Sequence[Pip]) -> bool:
    """A die resting tilted (on an edge, against the frame or a checker) shows a side face beside its
    top face: at least two of ``others`` (blobs in no die's face) like its pips (same polarity, at
    least ``_SIDE_CONTRAST`` of its weakest pip, round), ``_SIDE_NEAR``-``_SIDE_FAR`` edges from its
    centre and all on one side of it (within ``_SIDE_SPREAD`` degrees as seen from the centre)."""
    weakest = min(p.contrast for p in pips)
    polarity = pips[0].dark
    cx, cy = centre
    angles = []
    for p in others:
        if p.dark != polarity or p.contrast < _SIDE_CONTRAST * weakest or p.roundness < _SIDE_ROUND:
            continue
        d = float(np.hypot(p.x - cx, p.y - cy))
        if _SIDE_NEAR * edge <= d <= _SIDE_FAR * edge:
            angles.append(np.arctan2(p.y - cy, p.x - cx))
    if len(angles) < 2:
        return False
    a = np.array(angles)
    spread = np.angle(np.exp(1j * (a[:, None] - a[None, :])))
    return bool(np.abs(spread).max() <= np.radians(_SIDE_SPREAD))


def is_cocked(centre: tuple[float, float], pips: Sequence[Pip], edge: float, limits: CockLimits,
              outline: Outline | None = None, others: Sequence[Pip] = (),
              input_edge: float | None = None) -> bool:
    """Is a die cocked (RULES.md B15, N10: a re-throw)? The one test of both readers (module
    docstring), each giving what it sees and its :class:`CockLimits`.

    A side face shows beside a foreshortened top face -- the ``outline`` (:func:`tilt_of`) shows
    both, or (``limits.side_pips``) a side face's pips among ``others`` (:func:`side_face_pips`)
    -- and the top face's pips, where they can tell (:func:`pip_aspect`), are foreshortened too,
    across the outline's axis; with ``limits.pips_suffice`` foreshortened pips are enough alone.

    :param centre: the top face's centre (x, y) px; ``pips`` its pips, ``edge`` the die edge, in
        the same px (those of ``outline``'s crop when given).
    :param input_edge: the die edge in input px (default ``edge``), for ``limits.grid_min_edge``.
    :returns: False when the face cannot be judged (a false re-throw call is the worse error).
    """
    if limits.side_pips and side_face_pips(centre, pips, edge, others):
        return True
    xy = [(p.x, p.y) for p in pips]
    t = None if outline is None else tilt_of(outline.lab, outline.mask, centre, xy, edge)
    shown = t is not None and t.foreshortened
    if not shown and not limits.pips_suffice:
        return False
    pa = None
    if (edge if input_edge is None else input_edge) >= limits.grid_min_edge:
        pa = corner_aspect(xy, centre)
    if pa is None and outline is not None:
        pa = _ellipse_aspect(outline.lab, xy, edge)
    if pa is None:
        return shown
    aspect, axis = pa
    if t is None or not shown:
        return aspect >= ASPECT_MIN
    # the pips are foreshortened across the same axis as the outline: both long axes run along the
    # edge the die tilts about
    apart = abs(float(np.angle(np.exp(2j * (axis - t.axis))))) / 2.0
    return aspect >= ASPECT_MIN and apart <= _AXIS_APART
