"""Find and read the dice lying on a board, knowing the board's geometry.

:mod:`vision.dice.photo` reads dice in any photo and must guess their scale and tell a die from the surface
by colour; on a board neither is needed and both fail (a white die on a white paper board, a black die
on a black point). Here the board is known: the rectified field (:mod:`vision.board.finder`) and the
checkers' radius give the die's scale (a die's edge is 0.3-0.8 checker diameters on the sets seen),
so the dice are found by what every die shows whatever its colour -- its pips:

1. **View.** The field and a margin round it (frame, trays) rectified at the frame's own sharpness,
   as far as the smallest pips need (:func:`dice_view`), and a dim view brought to a normal exposure
   (a dark room shrinks every pip's contrast below the floors).
2. **Pips.** Small round blobs at two pip scales: peaks of the scale-normalised determinant of the
   Hessian of the lightness (:mod:`vision.dice.blobs`, the photo reader's detector on one channel),
   dark or light, with the Hessian's eigenvalue ratio as roundness. Straight edges (triangles,
   printed lines, rims) give little response and line ends and tips are elongated; the checkers'
   discs and rims, the gaps between touching checkers and the cube are left out (:func:`board_pips`).
3. **Faces.** Every pip, and the midpoint of every two alike pips a die's diagonal apart, is a
   candidate face centre, at three die edges; the pips of one polarity mirrored through it form a d6
   layout or not (affine-invariant test: one diagonal, two equal crossing ones, or two and their
   middle pair). Faces are taken greedily, best first: no pip in two faces, no two dice overlapping.
4. **Checks** (a wrong die is worse than an unread one: the station then asks the players): pips of
   one face alike; the body around them one colour, every pip deep against it and isolated on it;
   no other pip-like blob on the die's bare rim (a logo's letters); printing refused (elongated marks
   that do not stand out); a face whose pips may lie under a checker's masked disc is not read, nor
   a refused 4-6 face as its rows; a one is a round, deep dot on a clean face, alone (no round like
   blob a diagonal away: a two half seen); a die spanning fewer than ``_MIN_EDGE_PX`` input pixels
   is not read (a six's pips merge into a lower face's); on the bar (hinges)
   and off the field (grain, stitching, print) stricter. The dice kept are one set: pips alike in
   contrast, dice of one size.

The status by :func:`vision.dice.status.board_status` (``off_board``, ``on_bar``, ``on_checker``,
then ``cocked`` -- a side face's pips beside the top face, or a four's or five's corner pips
foreshortened from a square (:func:`vision.dice.tilt.is_cocked`) -- or ``flat``; RULES.md B15/N10); a die
between two checkers, or where a stack's next checker would lie with that checker's colour round
it, is ``on_checker`` too (the checker under it is hidden from the stack counter).
``wrong_half`` needs to know who rolled: the controller decides it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.arrays import channel_norm, scratch
from vision.board.geometry import BoardGeometry
from vision.dice.blobs import BOARD_WEIGHTS, blob_map, peaks, roundness
from vision.dice.board_faces import Face, face_hypotheses, take_faces
from vision.dice.layout import Pip
from vision.dice.status import BoardRegions, board_status, die_status
from vision.dice.tilt import BOARD_COCK, is_cocked
from vision.reading import DieReading

__all__ = ["DiceScan", "DiceView", "board_dice_places", "board_pips", "dice_view", "find_board_dice"]

# A die's edge in checker radii: the sets seen (paper webcam boards, tournament boards, renders) make
# it 0.65-1.6 radii; faces are looked for at these edges.
_EDGES_OF_RADIUS = (0.7, 1.0, 1.4)
# Pip blob scale (Gaussian sigma) in checker radii (a pip is 0.15-0.2 die edges across; the scale
# of the smaller dice seen, a larger pip still responds), and the least sigma in pixels.
_PIP_SIGMA = 0.055
_MIN_SIGMA = 0.9
# A pip's blob strength (lightness units, scale-normalised) must reach this.
_PIP_MIN = 25.0
# Exposure: a view whose bright end (this percentile of its grey) is below _EXPOSED is brightened to
# it, at most _MAX_GAIN times (a dim room or a dark camera: every pip's contrast shrinks with the
# light, and the contrast floors below are set for a normal exposure); a bright view is left as is.
_BRIGHT_PCT = 95
_EXPOSED = 125.0
_MAX_GAIN = 3.0
# Resolution: a die whose edge spans fewer input pixels than this is not read -- a six's pips are
# 0.28 edges apart, so below ~2 px between them a six blurs into a two's or a three's pattern (any
# face could be a higher one whose pips merged).
_MIN_EDGE_PX = 7.5
# A pip is round: the Hessian's eigenvalue ratio at least this (line ends and tips are elongated;
# the close pips of a six make each other a little elongated).
_ROUND_MIN = 0.25
# The dice view reaches this many point widths past the field's ends (half that above and below).
_MARGIN = 1.5
# The dice view is at most this many times as sharp as the reader's rectified field, and no sharper
# than makes the smallest pip scale this many px.
_MAX_VIEW = 2.0
_PIP_PX = 1.25
# A pip's own pixels (and its blur) reach this many pip scales (sigma) from its centre: left out of
# the body's colour.
_PIP_CLEAR = 2.6
# ... but no further than this many die edges (a pip's radius is about 0.09 edges) where those
# clearings would leave none of the face (a small die's five seen at the larger pip scale).
_PIP_CLEAR_EDGE = 0.2
# Where a face has no pip (see _vacancies) nothing at least this pip-like (0 = body, 1 = its
# shallowest pip, by the pips' smoothed colour); a six's bare centre lies between two pips whose
# blur reaches it on small dice (up to 0.32 seen).
_BARE_MAX = 0.3
_BARE_SIX = 0.5
# Body measures (Lab units, OpenCV 8-bit scaling): see _Body.
_SAME = 18.0
_APART = 15.0
# Checkers' discs are masked out to this many radii (their rims and shadows); a die touching a
# checker has its nearest pips a little further out.
_RIM = 1.0
# A face's pips lie within this many edges of its centre.
_PIP_AREA = 0.45
# A face's checks: its body within _SAME of one colour on this share; every pip's core this far
# (lightness) from it and within this ratio of the deepest; a face of 2-6 pips implies an edge of at
# least _MIN_EDGE checker radii. A one-pip face: cleaner body, rounder and deeper pip.
_SAME_MIN = 0.8
_DEPTH_MIN = 45.0
_DEPTH_RATIO = 0.5
_MIN_EDGE = 0.58
_ONE_SAME = 0.9
# Around a face's pips, out to this many edges from its centre, lies the die's bare rim: no other
# blob like its pips (a logo's letters make many; a touching die's pips are further out).
_CLEAR = 0.6
# ... counting blobs at least this share of the face's weakest pip (a six's middle pips blurred
# away in a soft JPEG keep a third of their strength).
_CLEAR_CONTRAST = 0.3
# A die stands out from the board somewhere just outside it (a white die on white paper by its shadow
# and sides) or shows round pips; marks that do neither -- less than _APART_MIN of the ring outside
# differs, a pip rounder than _PRINT_ROUND missing -- are printing, letters of a logo.
_APART_MIN = 0.35
_PRINT_ROUND = 0.45
# Off the field (or within half a die of its edge) a die stands out at least this much and its pips
# are at least this round (frames, trays and tables carry grain, stitching, screws and print).
_OFF_APART = 0.6
_OFF_ROUND = 0.5
# On a wooden board's bar (hinges, screws) a die's face is this clean.
_BAR_SAME = 0.9
_ONE_ROUND = 0.6
_ONE_DEPTH = 60.0
# A one's pip is the size of a pip, so its blob strength at the pip scale is most of its depth (0.89-
# 1.2 on the rendered and webcam ones seen); a speck of dust or a knot in the wood, smaller than the
# scale, keeps much less (0.45: boards-real template2, a white speck on a black point).
_ONE_FILL = 0.7
# One set: a die's mean pip contrast at least this share of the best die's; edges within this ratio.
_SET_CONTRAST = 0.6
_SET_SIZE = 1.3
# A die this close to a checker (its centre, die edges beyond the checker's rim) is against it
# (vision.dice.status; half an edge: touching side on, a little more for a turned die).
_TOUCH = 0.6
# A die between two checkers this close (radii, centre to centre) on opposite sides is on or
# against one (a die on a stack's checker hides it: the stack shows a gap there).
_BETWEEN = 2.6
# A die where a stack's next checker would lie -- within _STACK_SIDE radii of a checker's column
# line, _STACK_NEXT radii from its centre along the column -- with that checker's colour round it:
# on a ring _UNDER_RING checker radii round the die's centre (past the die's sides, inside the rim
# of a checker it lies on) at least _UNDER_MIN within _UNDER_SAME Lab of that checker's colour, and
# _UNDER_DROP less of it on a ring _BEYOND_RING radii out (past that checker's rim: the board). A
# die beside the stack shows the board on both rings; on a board of the checkers' own colour both
# match and nothing is told.
_STACK_SIDE = 0.45
_STACK_NEXT = (1.5, 2.4)
_UNDER_RING = 0.9
_BEYOND_RING = 1.5
_UNDER_SAME = 25.0
_UNDER_MIN = 0.4
_UNDER_DROP = 0.12
# A pip's isolation is sampled on a ring of this many pip scales (sigma) around it; the least share
# of every pip's ring that must be the face's body.
_ISOLATION_RING = 2.5
_ISOLATION_MIN = 0.8
# At most this many pips are considered per frame (strongest first).
_MAX_PIPS = 200
# The coarse look (_gate): blobs at least this strong (grey units, scale-normalised) and this round
# at half the view's size mark where the view is searched. It looks at the input a pyramid step down,
# so it is made only where the input itself holds the smallest pips at _GATE_SIGMA px or more (their
# scale in input px: the view's pip scale times its source px), the least scale the view is built
# for: an octave down they are then half that, as the coarse filter is. Where the input is coarser
# (the view came down to its own pixels to reach the pips), half of it keeps a third of a small
# pip's strength or less, under the coarse floor: the whole view is read.
_GATE_MIN = 30.0
_GATE_ROUND = 0.25
_GATE_SIGMA = _PIP_PX
# Each place the gate marks is searched in a box this many checker radii round it (a face's centre
# lies within half a die of any of its pips, and its checks reach a die's edge and a half past it);
# when the boxes cover more than _WHOLE_SHARE of the view, the whole view is searched instead.
_BOX_PAD = 2.5
_WHOLE_SHARE = 0.5


def _sigmas(radius: float) -> tuple[float, float]:
    """The two pip scales (px) tried for checkers of ``radius`` px: small and large dice."""
    small = max(_MIN_SIGMA, _PIP_SIGMA * radius)
    return small, 1.5 * small


@dataclass(frozen=True)
class DiceView:
    """The image the dice are looked for in: the field rectified with a margin round it (dice off
    the board lie on the frame, in a tray or on the table), ``scale`` view px per rectified px.
    A rectified point (x, y) is at ``scale * (x + margin[0], y + margin[1])`` in the view."""

    image: np.ndarray
    scale: float
    margin: tuple[float, float]
    source: float = 1.0  # input pixels per view pixel (mean over the field: the resolution there)

    def to_view(self, xy: np.ndarray) -> np.ndarray:
        return (np.asarray(xy, np.float64).reshape(-1, 2) + self.margin) * self.scale

    def to_rectified(self, xy: np.ndarray) -> np.ndarray:
        return np.asarray(xy, np.float64).reshape(-1, 2) / self.scale - self.margin


@dataclass(frozen=True)
class _Frame:
    """Where the dice view lies, before any pixel is warped: ``k`` view px per rectified px, the
    ``margin`` (rectified px), its ``size`` (w, h, view px), ``hom`` (input px -> view px) and
    ``source`` (input px per view px over the field)."""

    k: float
    margin: tuple[float, float]
    size: tuple[int, int]
    hom: np.ndarray
    source: float


def _view_frame(geom: BoardGeometry, radius: float) -> _Frame:
    """The frame of :func:`dice_view` (its docstring says how the scale and margin are chosen)."""
    w, h = geom.size
    corners = geom.to_image(np.array([[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]], np.float64))
    top, bottom = np.linalg.norm(corners[1] - corners[0]), np.linalg.norm(corners[2] - corners[3])
    native = float(0.5 * (top + bottom) / w)
    enough = _PIP_PX / (_PIP_SIGMA * max(radius, 1.0))
    k = min(_MAX_VIEW, max(1.0, min(native, enough)))
    if k < 1.15:
        k = 1.0
    mx, my = _MARGIN * geom.point_w, 0.5 * _MARGIN * geom.point_w
    size = (int(round(k * (w + 2 * mx))), int(round(k * (h + 2 * my))))
    hom = np.array([[k, 0.0, k * mx], [0.0, k, k * my], [0.0, 0.0, 1.0]]) @ geom.homography
    return _Frame(k, (mx, my), size, hom, native / k)


def dice_view(image: np.ndarray, geom: BoardGeometry, radius: float, reuse: bool = False,
              box: tuple[int, int, int, int] | None = None) -> DiceView:
    """The field rectified for the dice search (see :class:`DiceView`).

    The board reader's rectified field (``POINT_PX`` per point) is as sharp as a webcam frame, but a
    tournament camera sees a point 50-80 px wide and its dice's pips only 3-5 px: the dice are looked
    for at the frame's own resolution, as far as the smallest pips then span ``_PIP_PX`` (sigma) --
    no sharper (the search's cost grows with the scale squared) and at most ``_MAX_VIEW`` times the
    reader's. The margin is ``_MARGIN`` point widths along the long sides' ends (the trays) and half
    that above and below. ``radius``: the checkers' radius in rectified px. ``reuse``: the view is
    written into this thread's scratch array (:mod:`vision.arrays`), valid until the next such call.
    ``box``: only the part (x0, y0, x1, y1) of the whole view (view px), as a view of its own (its
    margin shifted by the box's corner).
    """
    return _warp(image, _view_frame(geom, radius), reuse, box)


def _warp(image: np.ndarray, f: _Frame, reuse: bool = False,
          box: tuple[int, int, int, int] | None = None) -> DiceView:
    hom, size, margin = f.hom, f.size, f.margin
    if box is not None:
        x0, y0, x1, y1 = box
        hom = np.array([[1.0, 0.0, -x0], [0.0, 1.0, -y0], [0.0, 0.0, 1.0]]) @ hom
        size, margin = (x1 - x0, y1 - y0), (margin[0] - x0 / f.k, margin[1] - y0 / f.k)
    dst = scratch("board_dice.view", (size[1], size[0], 3), np.uint8) if reuse else None
    view = cv2.warpPerspective(image, hom, size, dst, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return DiceView(view, f.k, margin, f.source)


def _exposed(view: np.ndarray, out: np.ndarray | None = None, gain: float | None = None) -> np.ndarray:
    """The view brightened to a normal exposure (``_EXPOSED`` at its ``_BRIGHT_PCT`` percentile of
    grey, gain at most ``_MAX_GAIN``), or as it is when already that bright. uint8 BGR (H, W, 3);
    ``out``: where to write a brightened view (like ``view``), else a new array; ``gain``: the gain
    when measured already (:func:`_gain`, on the whole view of a part)."""
    if gain is None:
        gain = _gain(cv2.cvtColor(view[::4, ::4], cv2.COLOR_BGR2GRAY))
    return view if gain <= 1.0 else cv2.convertScaleAbs(view, out, alpha=gain)


def _gain(grey: np.ndarray) -> float:
    """The exposure gain of :func:`_exposed` for a view whose grey (a sample of it, uint8) is ``grey``."""
    top = _byte_percentile(grey, _BRIGHT_PCT)
    return min(_MAX_GAIN, _EXPOSED / max(top, 1.0))


def _byte_percentile(grey: np.ndarray, pct: float) -> float:
    """``float(np.percentile(grey, pct))`` of a non-empty uint8 array, the same value: the two order
    statistics about the index read off the bytes' 256-bin histogram instead of a partition, and
    numpy's linear interpolation between them (its 'linear' method, the same float64 steps)."""
    cum = np.cumsum(np.bincount(grey.ravel(), minlength=256))
    n = int(cum[-1])
    at = (n - 1) * (pct / 100.0)
    lo = int(np.floor(at))
    if at >= n - 1:
        return float(np.searchsorted(cum, n))  # (the largest byte)
    # (the k-th smallest, from 0, is the first byte whose count reaches past k)
    a, b = (float(v) for v in np.searchsorted(cum, [lo + 1, lo + 2]))
    t = at - lo
    diff = b - a
    return b - diff * (1.0 - t) if t >= 0.5 else a + diff * t


def board_pips(lab: np.ndarray, sigmas: tuple[float, ...], keep: np.ndarray | None = None) -> list[Pip]:
    """Pip-like blobs of a rectified field, strongest first (at most ``_MAX_PIPS``).

    :param lab: uint8 (H, W, 3) CIE-Lab (OpenCV scaling) of the rectified field.
    :param sigmas: the blob scales tried, in pixels (a pip's radius is about 1.4 sigma); each pixel
        keeps its strongest scale.
    :param keep: optional bool (H, W), True where a pip may be.
    :returns: a :class:`Pip` per blob; ``contrast`` is the scale-normalised determinant of
        the Hessian (Lindeberg 1998), ``dark`` the sign of the Laplacian.
    """
    return _PeakTable.of(lab, sigmas).pips(keep)


@dataclass(frozen=True)
class _PeakTable:
    """Every blob peak of a view at the pip scales, whatever is masked (float and int arrays, one
    entry a peak, in row-major order): what :func:`board_pips` derives from the view alone, so that
    searches of one frame with other discs masked share it (each value is worked out per peak, so a
    peak's values are the same whichever peaks are kept)."""

    ys: np.ndarray
    xs: np.ndarray
    strength: np.ndarray  # the strongest scale's strength at the peak
    dark: np.ndarray
    round_: np.ndarray
    scale: np.ndarray
    colour: np.ndarray  # (N, 3): the peak's 3x3 mean Lab
    fx: np.ndarray
    fy: np.ndarray

    @classmethod
    def of(cls, lab: np.ndarray, sigmas: tuple[float, ...]) -> _PeakTable:
        light = scratch("board_dice.light", lab.shape[:2])
        light[:] = lab[:, :, 0]
        # (the scales' squared strengths: the strongest square's root is the strongest root)
        scales = [blob_map(light, sigma, BOARD_WEIGHTS, slot=f"board{slot}", root=False)
                  for slot, sigma in enumerate(sigmas)]
        # (the strongest scale's strength in a scratch array too: no fresh pages)
        strength = scratch("board_dice.strength", light.shape)
        np.copyto(strength, scales[0].strength)
        for sc in scales[1:]:
            np.maximum(strength, sc.strength, out=strength)
        cv2.sqrt(strength, dst=strength)
        ys, xs = peaks(strength, 3, _PIP_MIN, None, slot="board")
        # (each scale's strength at the peaks: the first of equally strong roots)
        which = np.argmax(np.stack([cv2.sqrt(sc.strength[ys, xs]).reshape(-1) for sc in scales]), axis=0)
        a = np.choose(which, [sc.dxx[ys, xs] for sc in scales])
        b = np.choose(which, [sc.dyy[ys, xs] for sc in scales])
        c = np.choose(which, [sc.dxy[ys, xs] for sc in scales])
        round_ = roundness(a, b, c)
        ok = round_ >= _ROUND_MIN
        ys, xs, a, b, round_, which = ys[ok], xs[ok], a[ok], b[ok], round_[ok], which[ok]
        fx, fy = _subpixels(strength, xs, ys)
        return cls(ys, xs, strength[ys, xs], a + b > 0, round_, np.asarray(sigmas, np.float64)[which],
                   _mean3x3(lab, xs, ys), fx, fy)

    def pips(self, keep: np.ndarray | None) -> list[Pip]:
        """The peaks where ``keep`` (bool (H, W), None: everywhere), strongest first, at most
        ``_MAX_PIPS``, as :class:`Pip` s."""
        at = np.flatnonzero(keep[self.ys, self.xs]) if keep is not None else np.arange(self.ys.size)
        if at.size == 0:
            return []
        at = at[np.argsort(-self.strength[at])[:_MAX_PIPS]]
        colour = self.colour[at].tolist()
        return [Pip(x, y, peak, dark, round_, (c[0], c[1], c[2]), scale)
                for x, y, peak, dark, round_, c, scale in zip(
                    self.fx[at].tolist(), self.fy[at].tolist(), self.strength[at].tolist(),
                    self.dark[at].tolist(), self.round_[at].tolist(), colour, self.scale[at].tolist(),
                    strict=True)]


def _mean3x3(lab: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """float64 (N, 3): the mean of each pixel's 3x3 neighbourhood in ``lab`` (uint8 (H, W, 3)), cut at
    the image's edges; ``x``, ``y`` int (N,). The integer sum over the count, as ``mean`` of the cut
    window gives it (an exact sum of integers, one division), for all peaks at once: the nine
    neighbours read off the image itself while no peak is on its edge (a view's peaks mostly are
    not: no bordered copy of it), else off the image bordered by a pixel of zeros."""
    h, w = lab.shape[:2]
    xi, yi = np.asarray(x, np.intp), np.asarray(y, np.intp)
    total = np.zeros((len(xi), 3), np.float64)
    rows = 3 - (yi == 0).astype(np.intp) - (yi == h - 1)
    cols = 3 - (xi == 0).astype(np.intp) - (xi == w - 1)
    if bool((rows == 3).all() and (cols == 3).all()):
        flat, at = lab.reshape(-1, 3), yi * w + xi
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                total += flat[at + (dy * w + dx)]
    else:
        # (the image bordered by a pixel of zeros: they add nothing where the window is cut)
        padded = cv2.copyMakeBorder(lab, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0).reshape(-1, 3)
        at = (yi + 1) * (w + 2) + (xi + 1)
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                total += padded[at + (dy * (w + 2) + dx)]
    # (the window's pixels inside the image: three rows and columns, less those cut)
    count = (rows * cols).astype(np.float64)
    return np.asarray(total / count[:, None])


def _subpixels(resp: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Peaks' centres to a fraction of a pixel: per axis, the vertex of a parabola through the peak
    and its two neighbours (pips of small dice are 2-3 px apart: whole pixels break their symmetry),
    at most half a pixel off; a peak on the image's edge keeps its whole pixel. ``resp`` float32
    (H, W); ``x``, ``y`` int (N,); returns float64 (N,) x and y, all peaks in one pass."""
    h, w = resp.shape
    mid = resp[y, x].astype(np.float64)
    out = []
    for c, lo_ok, hi_ok, lo, hi in (
            (x, x > 0, x < w - 1, resp[y, np.maximum(x - 1, 0)], resp[y, np.minimum(x + 1, w - 1)]),
            (y, y > 0, y < h - 1, resp[np.maximum(y - 1, 0), x], resp[np.minimum(y + 1, h - 1), x])):
        lo64, hi64 = lo.astype(np.float64), hi.astype(np.float64)
        den = lo64 - 2.0 * mid + hi64
        with np.errstate(divide="ignore", invalid="ignore"):
            shift = np.minimum(0.5, np.maximum(-0.5, 0.5 * (lo64 - hi64) / den))
        shift = np.where((den < 0) & lo_ok & hi_ok, shift, 0.0)
        out.append(c.astype(np.float64) + shift)
    return out[0], out[1]


@dataclass(frozen=True)
class _Body:
    same: float  # share of the face's body (pips aside) within _SAME Lab of its median colour
    depth: float  # the least lightness difference between a pip's core and the body
    depth_ratio: float  # the least over the largest of those differences (pips print alike)
    isolation: float  # the least share of a ring around a pip that is body (a stroke's end is not)
    apart: float  # share of a ring just outside the die that differs from the body by _APART Lab
    colour: tuple[float, float, float]


# The directions of the rings _body samples (a pip's isolation, the die's surround).
_COS12, _SIN12 = np.cos(np.linspace(0.0, 2 * np.pi, 12, endpoint=False)), np.sin(
    np.linspace(0.0, 2 * np.pi, 12, endpoint=False))
_COS24, _SIN24 = np.cos(np.linspace(0.0, 2 * np.pi, 24, endpoint=False)), np.sin(
    np.linspace(0.0, 2 * np.pi, 24, endpoint=False))


def _vacancies(face: Face, pips: list[Pip]) -> list[tuple[float, float]]:
    """Where a pip of a higher face would be that this face leaves bare (px): a two's or a three's
    other diagonal, a four's or a five's side middles (a six's two middle pips), the centre of a
    two, a four or a six. A six whose middle pips blur away reads as a perfect four; a three as a
    six's column: the bare places tell."""
    cx, cy = face.centre
    pts = [np.array([pips[i].x, pips[i].y]) for i in face.members]
    c = np.array([cx, cy])
    n = len(pts)
    rim = sorted(pts, key=lambda q: -float(np.hypot(*(q - c))))
    out: list[np.ndarray] = []
    if n in (2, 3):
        v = rim[0] - c
        out += [c + np.array([-v[1], v[0]]), c - np.array([-v[1], v[0]])]
    elif n in (4, 5):
        corners = rim[:4]
        for i in range(4):
            for j in range(i + 1, 4):
                mid = (corners[i] + corners[j]) / 2
                if np.hypot(*(mid - c)) > 0.25 * face.edge:  # not a diagonal pair
                    out.append(mid)
    if n in (2, 4, 6):
        out.append(c)
    return [(float(q[0]), float(q[1])) for q in out]


def _bare(lab: np.ndarray, face: Face, pips: list[Pip], sigma: float, body_l: float) -> float:
    """How pip-like the darkest (for dark pips; lightest for light ones) spot near the face's bare
    places is: 0 = the body's lightness, 1 = as deep as its shallowest pip."""
    h, w = lab.shape[:2]
    dark = pips[face.members[0]].dark
    shallow = min(abs(pips[i].colour[0] - body_l) for i in face.members)
    if shallow <= 0:
        return 0.0
    k = max(1, int(round(sigma)))
    worst = 0.0
    for x, y in _vacancies(face, pips):
        xi, yi = int(round(x)), int(round(y))
        if not (0 <= xi < w and 0 <= yi < h):
            continue
        patch = lab[max(0, yi - k) : yi + k + 1, max(0, xi - k) : xi + k + 1, 0].astype(np.float32)
        spot = cv2.blur(patch, (3, 3)) if min(patch.shape) >= 3 else patch
        ext = float(spot.min()) if dark else float(spot.max())
        worst = max(worst, (body_l - ext) / shallow if dark else (ext - body_l) / shallow)
    return worst


def _colour_median(raw: np.ndarray) -> np.ndarray:
    """float32 (3,): ``np.median(raw.astype(np.float32), axis=0)`` of uint8 (N, 3) pixels (N > 0),
    the same values (the middle byte, or the two middle ones' mean, exact in float32) from one sort
    of the channels' bytes (a counting sort for 8-bit values), without np.median's overhead."""
    rows = np.sort(raw.T, axis=1, kind="stable")
    n = rows.shape[1]
    mid = rows[:, n // 2].astype(np.float32)
    if n % 2:
        return mid
    return (rows[:, n // 2 - 1].astype(np.float32) + mid) / np.float32(2)


def _body(lab: np.ndarray, face: Face, pips: list[Pip], sigma: float,
          same_min: float = 0.0) -> _Body | None:
    """Measure the face's body around its pips (see :class:`_Body`); None when it leaves the view,
    or when its ``same`` share is below ``same_min`` (the rest is then not measured: most candidate
    faces fail there, and a caller refusing them needs no more)."""
    h, w = lab.shape[:2]
    cx, cy = face.centre
    rad = _PIP_AREA * face.edge
    x0, x1 = int(cx - rad), int(np.ceil(cx + rad)) + 1
    y0, y1 = int(cy - rad), int(np.ceil(cy + rad)) + 1
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
        return None
    yy, xx = _grid(y0, y1, x0, x1)  # (broadcast: the same sums as a full grid)
    area = (xx - cx) ** 2 + (yy - cy) ** 2 <= rad * rad
    sel = area.copy()
    for i in face.members:
        p = pips[i]
        sel &= (xx - p.x) ** 2 + (yy - p.y) ** 2 > (_PIP_CLEAR * max(sigma, p.sigma)) ** 2
    if np.count_nonzero(sel) < 6:
        # a small die seen at the larger pip scale: its pips' clearings cover its face; a pip's
        # own pixels reach only _PIP_CLEAR_EDGE edges from its centre
        sel = area
        for i in face.members:
            p = pips[i]
            clear = min(_PIP_CLEAR * max(sigma, p.sigma), _PIP_CLEAR_EDGE * face.edge)
            sel &= (xx - p.x) ** 2 + (yy - p.y) ** 2 > clear * clear
    raw = lab[y0:y1, x0:x1][sel]
    if len(raw) < 6:
        return None
    med = _colour_median(raw)
    vals = raw.astype(np.float32)
    same = np.count_nonzero(channel_norm(vals - med) < _SAME) / len(vals)
    if same < same_min:
        return None
    depths = []
    for i in face.members:
        p = pips[i]
        xi, yi = int(round(p.x)), int(round(p.y))
        core = lab[max(0, yi - 1) : yi + 2, max(0, xi - 1) : xi + 2, 0].astype(np.float32)
        # (the core's extreme: a pip's centre is its darkest or lightest spot)
        ext = float(core.min()) if p.dark else float(core.max())
        depths.append(abs(ext - float(med[0])))
    isolation = _isolation(lab, face, pips, sigma, float(med[0]), depths)
    # (the two rings just outside the die, 0.75 and 0.9 edges out, sampled in one pass)
    rr = np.array([[0.75 * face.edge], [0.9 * face.edge]])
    xs = _clipped_rint(cx + rr * _COS24, w - 1).ravel()
    ys = _clipped_rint(cy + rr * _SIN24, h - 1).ravel()
    apart = float(np.mean(channel_norm(lab[ys, xs].astype(np.float32) - med) > _APART))
    return _Body(same, min(depths), min(depths) / max(max(depths), 1e-6), isolation, apart,
                 (float(med[0]), float(med[1]), float(med[2])))


def _clipped_rint(v: np.ndarray, top: int) -> np.ndarray:
    """``np.clip(np.rint(v), 0, top).astype(np.intp)`` of finite ``v`` (the same ints), without
    np.clip's overhead on a few samples."""
    return np.minimum(np.maximum(np.rint(v), 0.0), float(top)).astype(np.intp)


def _isolation(lab: np.ndarray, face: Face, pips: list[Pip], sigma: float, body_l: float,
               depths: list[float]) -> float:
    """:class:`_Body`'s ``isolation``: the least share, over the face's pips, of a ring
    ``_ISOLATION_RING`` pip scales round a pip whose lightness is within half the pip's depth
    (``depths``, one a member) of the body's (``body_l``). Ring samples on the face's other pips'
    own pixels are not judged (a six's close pips reach into each other's rings); a pip whose ring
    lies wholly on them is left out. All pips' rings in one pass (the same values as pip by pip:
    each sample's sums, its comparisons in float32 as the uint8 lightness less the body's)."""
    h, w = lab.shape[:2]
    ps = [pips[i] for i in face.members]
    px = np.array([p.x for p in ps])
    py = np.array([p.y for p in ps])
    scale = np.array([max(sigma, p.sigma) for p in ps])
    rho = (_ISOLATION_RING * scale)[:, None]
    rx, ry = px[:, None] + rho * _COS12, py[:, None] + rho * _SIN12  # (pip, sample)
    clear = np.minimum(_PIP_CLEAR * scale, _PIP_CLEAR_EDGE * face.edge)
    off = (rx[:, :, None] - px) ** 2 + (ry[:, :, None] - py) ** 2 > clear * clear  # (pip, sample, other)
    idx = np.arange(len(ps))
    off[idx, :, idx] = True  # (a pip's own ring is judged)
    free = off.all(axis=2)
    ring_l = lab[_clipped_rint(ry, h - 1), _clipped_rint(rx, w - 1), 0].astype(np.float32)
    # (half a depth in float32, as a float32 array compared with a Python float casts it)
    half = np.array([0.5 * dep for dep in depths], np.float32)[:, None]
    near = (np.abs(ring_l - np.float32(body_l)) < half) & free
    n_free = np.count_nonzero(free, axis=1).tolist()
    n_near = np.count_nonzero(near, axis=1).tolist()
    return min([1.0] + [k / n for k, n in zip(n_near, n_free, strict=True) if n])


def _keep(shape: tuple[int, int], discs: list[tuple[float, float, float]],
          cube: tuple[float, float, float] | None, slot: str | None = None) -> np.ndarray:
    """bool (H, W): where a pip may be -- off the checkers' discs and their rims (out to _RIM radii:
    rims and shadows make blobs), out of the gaps where two
    checkers meet (within 1.4 radii of both) and off the cube (x, y, half-diagonal). A die lying on
    a checker is not read (the station then sees no whole roll and asks). ``slot``: the planes
    drawn on, and the mask returned, are this slot's scratch arrays (a view of one size frame after
    frame: the gate's, the whole view's; the mask is valid until the slot's next call), else fresh
    ones (a box, of a size of its own)."""
    h, w = shape
    # one plane: the count of 1.4-radius discs over each pixel, then _MASKED wherever a disc's rim
    # or the cube lies (a pixel is kept where the plane is below _MASKED: no rim, fewer than two)
    if slot is None:
        plane, out = np.zeros(shape, np.uint8), np.empty(shape, bool)
    else:
        plane = scratch(f"board_dice.keep.{slot}.plane", shape, np.uint8)
        out = scratch(f"board_dice.keep.{slot}.out", shape, np.bool_)
        plane.fill(0)
    centres = []
    for x, y, r in discs:
        c = (int(round(x)), int(round(y)))
        centres.append((c, int(round(_RIM * r))))
        # the disc of 1.4 radii added in its own box only (a disc of whole centre and radius is the
        # same pixels wherever it lies, cut where the plane ends: one stamp a radius)
        rr = int(round(1.4 * r))
        x0, y0, x1, y1 = max(0, c[0] - rr), max(0, c[1] - rr), min(w, c[0] + rr + 1), min(h, c[1] + rr + 1)
        if x0 >= x1 or y0 >= y1:
            continue
        sx, sy = x0 - (c[0] - rr), y0 - (c[1] - rr)
        plane[y0:y1, x0:x1] += _stamp(rr)[sy : sy + (y1 - y0), sx : sx + (x1 - x0)]
    # (the rims after every count: a rim's pixels stay masked whatever discs overlap them)
    for c, rim in centres:
        cv2.circle(plane, c, rim, _MASKED, -1)
    if cube is not None:
        cv2.circle(plane, (int(round(cube[0])), int(round(cube[1]))), int(np.ceil(cube[2])), _MASKED, -1)
    return np.less(plane, _MASKED, out=out)


_STAMPS: dict[int, np.ndarray] = {}
# (_keep's plane value of a masked pixel: two discs' count)
_MASKED = 2


def _stamp(rr: int) -> np.ndarray:
    """uint8 (2 rr + 1, 2 rr + 1): a filled disc of radius ``rr`` (cv2.circle's pixels) as 1 on 0,
    centred; made once a radius (read only)."""
    stamp = _STAMPS.get(rr)
    if stamp is None:
        stamp = np.zeros((2 * rr + 1, 2 * rr + 1), np.uint8)
        cv2.circle(stamp, (rr, rr), rr, 1, -1)
        stamp.setflags(write=False)
        stamp = _STAMPS.setdefault(rr, stamp)
    return stamp


def _grid(y0: int, y1: int, x0: int, x1: int) -> tuple[np.ndarray, np.ndarray]:
    """``np.ogrid[y0:y1, x0:x1]`` (the same int arrays), without its index parsing."""
    return np.arange(y0, y1)[:, None], np.arange(x0, x1)[None, :]


# A face's place, edge and pips (x, y), edge, pips: what the checks of its own pixels look at.
_LookKey = tuple[tuple[float, float], float, tuple[Pip, ...]]


def _accept(
    lab: np.ndarray, pips: list[Pip], sigma: float, radius: float,
    keep: np.ndarray | None = None, bar: tuple[float, float] | None = None,
    field: tuple[float, float, float, float] | None = None, min_edge: float = 0.0,
    verdicts: dict[Face, bool] | None = None, looks: dict[_LookKey, bool] | None = None,
    hyps: list[Face] | None = None,
) -> Callable[[Face], bool]:
    """The checks a face must pass to be taken for a die (module docstring, step 3). Where pips
    were not looked for (``keep`` False: a checker's disc) a face may have lost some: a face whose
    pip area reaches there is not read. ``bar``: the bar's x-extent in the same pixels, if any;
    ``field``: the playing field (x0, y0, x1, y1) in the same pixels -- off it (the frame, trays,
    score cards, the table) a die must stand out clearly and show round pips. ``min_edge``: the least
    die edge (px) whose pips the input resolves (``_MIN_EDGE_PX`` input pixels). ``verdicts``: the
    checks that do not look at ``keep``, by face, kept from a search of the same view, pips and
    arguments but other discs masked (filled in here). ``looks``: the checks of a face's own pixels
    (all but ``hidden`` and the crowding by other pips), by the face's place, edge and pips, kept
    from any search of the same view and arguments (filled in here): a search with other discs
    masked finds other pips, and so other candidate faces, but mostly the same faces among them.
    ``hyps``: the candidate faces to be judged (:func:`vision.dice.board_faces.face_hypotheses`), when
    known: the cheap checks that most of them fail (:func:`_cheap_checks`) are then made for all of
    them at once."""
    h, w = lab.shape[:2]

    def off_field(face: Face) -> bool:
        if field is None:
            return False
        cx, cy = face.centre
        m = 0.5 * face.edge
        return not (field[0] + m <= cx <= field[2] - m and field[1] + m <= cy <= field[3] - m)

    def hidden(face: Face) -> bool:
        if keep is None:
            return False
        cx, cy = face.centre
        rad = _PIP_AREA * face.edge
        x0, x1 = max(0, int(cx - rad)), min(w, int(np.ceil(cx + rad)) + 1)
        y0, y1 = max(0, int(cy - rad)), min(h, int(np.ceil(cy + rad)) + 1)
        patch = keep[y0:y1, x0:x1]
        if patch.all():
            return False  # (nothing masked in the disc's box: most faces)
        yy, xx = _grid(y0, y1, x0, x1)
        inside = (xx - cx) ** 2 + (yy - cy) ** 2 <= rad * rad
        return bool((inside & ~patch).any())

    xy = np.array([[p.x, p.y] for p in pips]).reshape(-1, 2)
    dark = np.array([p.dark for p in pips], bool)
    contrast = np.array([p.contrast for p in pips])

    def crowded(face: Face) -> bool:
        """Blobs like its pips beside the face, where the die's bare rim is: printing (a logo's
        letters), not a die."""
        d2 = ((xy - face.centre) ** 2).sum(axis=1)
        weakest = min(pips[i].contrast for i in face.members)
        near = (d2 < (_CLEAR * face.edge) ** 2) & (dark == pips[face.members[0]].dark)
        near &= contrast >= _CLEAR_CONTRAST * weakest
        near[list(face.members)] = False
        return bool(near.any())

    # (the plain and crowding checks of every candidate, on arrays: by the face's id)
    cheap = {} if hyps is None else _cheap_checks(hyps, xy, dark, contrast, np.array(
        [p.roundness for p in pips]), radius, field, min_edge)

    def ok(face: Face) -> bool:
        # the cheap checks first (most candidates fail one)
        known = cheap.get(id(face))
        if not (plain(face) if known is None else known[0]):
            return False
        if verdicts is None:
            return not hidden(face) and judged(face)
        if verdicts.get(face) is False:
            return False
        if hidden(face):
            return False
        if face not in verdicts:
            verdicts[face] = judged(face)
        return verdicts[face]

    def plain(face: Face) -> bool:
        one = len(face.members) == 1
        roundest = min(pips[i].roundness for i in face.members)
        if face.edge < min_edge:
            return False  # too few input pixels: its pips may have merged (a six read as a two)
        if not one and face.edge < _MIN_EDGE * radius:
            return False  # pips of a side face seen beside the top face, or printing
        return not ((one and roundest < _ONE_ROUND) or (off_field(face) and roundest < _OFF_ROUND))

    def judged(face: Face) -> bool:
        """The checks after :func:`plain` and ``hidden`` (none of them looks at ``keep``)."""
        known = cheap.get(id(face))
        if crowded(face) if known is None else known[1]:
            return False
        if looks is None:
            return looked(face)
        key = (face.centre, face.edge, tuple(pips[i] for i in face.members))
        seen = looks.get(key)
        if seen is None:
            seen = looks[key] = looked(face)
        return seen

    def looked(face: Face) -> bool:
        """The checks of :func:`judged` after the crowding: a function of the face's centre, edge
        and pips alone."""
        one = len(face.members) == 1
        roundest = min(pips[i].roundness for i in face.members)
        off = off_field(face)
        on_bar = bar is not None and bar[0] <= face.centre[0] <= bar[1]
        # (the cleanest body any check below asks of this face: below it the face is refused)
        cleanest = max(_SAME_MIN, _ONE_SAME if one else 0.0, _BAR_SAME if on_bar else 0.0)
        body = _body(lab, face, pips, sigma, cleanest)
        if body is None:
            return False
        if (body.same < _SAME_MIN or body.depth < _DEPTH_MIN or body.depth_ratio < _DEPTH_RATIO
                or body.isolation < _ISOLATION_MIN):
            return False
        bare_max = _BARE_SIX if len(face.members) == 6 else _BARE_MAX
        if _bare(lab, face, pips, sigma, body.colour[0]) > bare_max:
            return False  # a pip (faint, blurred) where this face has none: a higher face
        if body.apart < _APART_MIN and roundest < _PRINT_ROUND:
            return False  # elongated marks on a plate the board's own colour: printing (a logo)
        if on_bar and body.same < _BAR_SAME:
            return False  # the bar's hinges show screws on a plate: a die there shows a clean face
        if off and body.apart < _OFF_APART:
            return False
        if one:
            # a lone dot is the weakest evidence: round (above), deep, on a clean face
            pip = pips[face.members[0]]
            return (body.same >= _ONE_SAME and body.depth >= _ONE_DEPTH
                    and pip.contrast >= _ONE_FILL * body.depth)
        return True

    return ok


def _cheap_checks(hyps: list[Face], xy: np.ndarray, dark: np.ndarray, contrast: np.ndarray,
                  round_: np.ndarray, radius: float, field: tuple[float, float, float, float] | None,
                  min_edge: float) -> dict[int, tuple[bool, bool]]:
    """By the id of each face of ``hyps``: (``plain``, ``crowded``) of :func:`_accept`, the same
    tests on arrays over all the faces at once (a frame's few hundred candidates, most refused by
    one of them); the pips' ``xy`` (N, 2), ``dark``, ``contrast``, ``round_`` (N,)."""
    if not hyps:
        return {}
    n = len(hyps)
    size = np.array([len(f.members) for f in hyps])
    rows = np.repeat(np.arange(n), size)
    members = np.array([i for f in hyps for i in f.members], np.intp)
    edge = np.array([f.edge for f in hyps])
    cx = np.array([f.centre[0] for f in hyps])
    cy = np.array([f.centre[1] for f in hyps])
    starts = np.cumsum(size) - size
    roundest = np.minimum.reduceat(round_[members], starts)
    weakest = np.minimum.reduceat(contrast[members], starts)
    one = size == 1
    off = np.zeros(n, bool)
    if field is not None:
        m = 0.5 * edge
        off = ~((field[0] + m <= cx) & (cx <= field[2] - m) & (field[1] + m <= cy) & (cy <= field[3] - m))
    plain = ~((edge < min_edge) | (~one & (edge < _MIN_EDGE * radius))
              | (one & (roundest < _ONE_ROUND)) | (off & (roundest < _OFF_ROUND)))
    # (the pips near each face: the squared distance as crowded() sums it, x then y)
    gx = xy[None, :, 0] - cx[:, None]
    gy = xy[None, :, 1] - cy[:, None]
    reach = np.array([(_CLEAR * f.edge) ** 2 for f in hyps])
    near = (gx * gx + gy * gy < reach[:, None]) & (dark[None, :] == dark[members[starts]][:, None])
    near &= contrast[None, :] >= (_CLEAR_CONTRAST * weakest)[:, None]
    near[rows, members] = False
    crowded = near.any(axis=1)
    return {id(f): (bool(p), bool(c)) for f, p, c in zip(hyps, plain.tolist(), crowded.tolist(), strict=True)}


def _mean_contrast(face: Face, pips: list[Pip]) -> float:
    return float(np.mean([pips[i].contrast for i in face.members]))


def _gate(image: np.ndarray, frame: _Frame, masked: list[tuple[float, float, float]],
          cube: tuple[float, float, float] | None, sigma: float,
          scan: DiceScan | None = None) -> tuple[list[tuple[float, float]], float] | None:
    """Where pips may be, from a coarse look: the grey frame at half size (a Gaussian pyramid step)
    warped to the dice view at half its scale, and the blobs there (:func:`vision.dice.blobs.blob_map`
    at half the pip scale) at least ``_GATE_MIN`` strong and ``_GATE_ROUND`` round, off the masked
    discs and the cube (``masked``, ``cube``: whole-view px). Returns the blobs' centres in whole-view
    px and the view's exposure gain (:func:`_gain`), or None when the pips are too small to be seen at half
    size (``sigma``, the pip scale in view px, times ``frame.source`` below ``_GATE_SIGMA`` input px):
    then the whole view is read.
    A loose look: every pip of a die that the full search reads is much stronger than the gate asks.
    ``scan``: the frame's shared work (the coarse blobs, whatever is masked)."""
    if sigma * frame.source < _GATE_SIGMA:
        return None
    key = (frame.hom.tobytes(), frame.size, sigma)
    coarse = None if scan is None else scan.gates.get(key)
    if coarse is None:
        coarse = _coarse_blobs(image, frame, sigma)
        if scan is not None:
            scan.gates[key] = coarse
    ys, xs, ok, shape, gain = coarse
    keep = _keep(shape, [(x / 2, y / 2, r / 2) for x, y, r in masked],
                 None if cube is None else (cube[0] / 2, cube[1] / 2, cube[2] / 2), "gate")
    ok = ok & keep[ys, xs]
    return [(2.0 * float(x), 2.0 * float(y)) for x, y in zip(xs[ok], ys[ok], strict=True)], gain


# (ys, xs, round enough, the coarse view's shape, its gain): see _coarse_blobs
_Coarse = tuple[np.ndarray, np.ndarray, np.ndarray, tuple[int, int], float]


def _coarse_blobs(image: np.ndarray, frame: _Frame, sigma: float) -> _Coarse:
    """The gate's blobs before any disc is masked: (ys, xs) of every peak at least ``_GATE_MIN``
    strong, row-major, which of them are ``_GATE_ROUND`` round, the coarse view's shape and gain."""
    half = cv2.pyrDown(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    hom = np.diag([0.5, 0.5, 1.0]) @ frame.hom @ np.diag([2.0, 2.0, 1.0])
    size = ((frame.size[0] + 1) // 2, (frame.size[1] + 1) // 2)
    coarse = cv2.warpPerspective(half, hom, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    gain = _gain(coarse[::2, ::2])
    light = scratch("board_dice.gate", coarse.shape)
    cv2.convertScaleAbs(coarse, coarse, alpha=max(1.0, gain))
    light[:] = coarse
    blobs = blob_map(light, 0.5 * sigma, BOARD_WEIGHTS, slot="gate")
    ys, xs = peaks(blobs.strength, 3, _GATE_MIN)
    ok = roundness(blobs.dxx[ys, xs], blobs.dyy[ys, xs], blobs.dxy[ys, xs]) >= _GATE_ROUND
    return ys, xs, ok, (light.shape[0], light.shape[1]), gain


class DiceScan:
    """What the dice searches of one frame share (:func:`find_board_dice` called again on the same
    frame with other discs masked: the reader's check of its lone checkers, then its dice): the
    gate's coarse blobs and each searched view with its peaks, which depend on the frame alone.
    A per-frame context, made for one ``image`` and dropped after it."""

    def __init__(self, image: np.ndarray) -> None:
        self.image = image
        self.gates: dict[tuple[object, ...], _Coarse] = {}
        self.views: dict[tuple[object, ...], tuple[DiceView, np.ndarray, _PeakTable]] = {}
        # by view and search: its pips, their candidate faces and the face checks blind to the mask
        self.faces: dict[tuple[object, ...], tuple[list[Pip], list[Face], dict[Face, bool]]] = {}
        # by view and search: the checks of faces' own pixels, whatever pips the search found
        self.looks: dict[tuple[object, ...], dict[_LookKey, bool]] = {}


def _border(r: float) -> int:
    """How far (view px) the pip filters reach from a blob at checkers' radius ``r`` (view px): three
    of the larger pip scale's sigmas and the derivatives' pixel."""
    return int(np.ceil(3.0 * _sigmas(r)[1])) + 2


def _area(box: tuple[int, int, int, int] | None) -> int:
    return 0 if box is None else (box[2] - box[0]) * (box[3] - box[1])


def _clip_box(box: tuple[float, float, float, float], size: tuple[int, int]) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = box
    return (max(0, int(np.floor(x0))), max(0, int(np.floor(y0))),
            min(size[0], int(np.ceil(x1))), min(size[1], int(np.ceil(y1))))


def _boxes(spots: list[tuple[float, float]], pad: float,
           size: tuple[int, int]) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1, view px) ``pad`` px round the spots, cut to the view of ``size``,
    overlapping ones joined (their union's bounding box) until none overlap."""
    boxes = [_clip_box((x - pad, y - pad, x + pad, y + pad), size) for x, y in spots]
    joined = True
    while joined:
        joined = False
        out: list[tuple[int, int, int, int]] = []
        for b in boxes:
            for i, o in enumerate(out):
                if b[0] < o[2] and o[0] < b[2] and b[1] < o[3] and o[1] < b[3]:
                    out[i] = (min(b[0], o[0]), min(b[1], o[1]), max(b[2], o[2]), max(b[3], o[3]))
                    joined = True
                    break
            else:
                out.append(b)
        boxes = out
    return boxes


def _inside_cut(pips: list[Pip], box: tuple[int, int, int, int], size: tuple[int, int],
                border: int) -> list[Pip]:
    """The pips of a box's view (box px) not within ``border`` px of a side of the box that cuts the
    whole view (of ``size``): there the filters saw the cut, not the image."""
    x0, y0, x1, y1 = box
    lo_x = border if x0 > 0 else -1
    lo_y = border if y0 > 0 else -1
    hi_x = (x1 - x0) - border if x1 < size[0] else np.inf
    hi_y = (y1 - y0) - border if y1 < size[1] else np.inf
    return [p for p in pips if lo_x <= p.x <= hi_x and lo_y <= p.y <= hi_y]


def find_board_dice(
    image: np.ndarray,
    geom: BoardGeometry,
    discs: list[tuple[float, float, float]],
    radius: float,
    cube_xy: tuple[float, float] | None = None,
    scan: DiceScan | None = None,
) -> tuple[DieReading, ...]:
    """Every die lying on the board, read from its pips (module docstring).

    :param image: the input frame, uint8 BGR (H, W, 3), of ``geom.image_size``.
    :param geom: the board (:func:`vision.board.finder.find_board` or a calibration).
    :param discs: the checkers found, ``(x, y, radius)`` in rectified pixels (stacks and bar).
    :param radius: the checkers' radius in rectified pixels (sets the die's scale).
    :param cube_xy: the cube's centre in input pixels, when found (its face is no die).
    :returns: one :class:`~vision.reading.DieReading` per die, left to right in the image:
        ``value`` 1-6, ``image_xy`` the top face's centre in input pixels, ``status`` by
        :func:`vision.dice.status.board_status` (``off_board``, ``on_bar``, ``on_checker``,
        ``cocked`` or ``flat``; RULES.md B15, N10), ``confidence`` 0-1. Dice of another set's size
        or much fainter pips than the best die are left out (the dice on a board come in pairs of
        one set).

    The view is searched in full only where a coarse look (:func:`_gate`) shows pip-like blobs: in
    boxes round them, each read as a view of its own, or the whole view when they cover much of it.
    ``scan``: the frame's :class:`DiceScan`, when it is searched more than once (other discs masked).
    """
    out: list[DieReading] = []
    for part, mine in _faces(image, geom, discs, radius, cube_xy, scan):
        out += _readings(mine, part.pips, geom, part.dv, discs, part.stack_view)
    out.sort(key=lambda d: d.image_xy or (0.0, 0.0))
    return tuple(out)


def board_dice_places(image: np.ndarray, geom: BoardGeometry, discs: list[tuple[float, float, float]],
                      radius: float, cube_xy: tuple[float, float] | None = None,
                      scan: DiceScan | None = None) -> list[tuple[float, float]]:
    """The ``image_xy`` of every die :func:`find_board_dice` reads, without their statuses (for a
    caller that asks only where dice lie)."""
    out = []
    for part, mine in _faces(image, geom, discs, radius, cube_xy, scan):
        for f in mine:
            cx, cy = f.centre
            xy = geom.to_image(part.dv.to_rectified(np.array([[cx, cy], [cx + f.edge, cy]])))[0]
            out.append((float(xy[0]), float(xy[1])))
    return out


def _faces(image: np.ndarray, geom: BoardGeometry, discs: list[tuple[float, float, float]],
           radius: float, cube_xy: tuple[float, float] | None,
           scan: DiceScan | None) -> list[tuple[_Part, list[Face]]]:
    """The faces :func:`find_board_dice` reads, by the part (view) they were found in."""
    if scan is not None and scan.image is not image:
        scan = None  # another frame's
    frame = _view_frame(geom, radius)
    r = radius * frame.k
    cube = None
    if cube_xy is not None:
        c = frame.hom @ np.array([cube_xy[0], cube_xy[1], 1.0])
        cube = (float(c[0] / c[2]), float(c[1] / c[2]), 1.1 * r)
    # a disc on the bar may be a die taken for a hit checker (a white die on a black bar): the bar's
    # discs are not masked, and a checker's rim there is refused by the bar's checks (_BAR_SAME)
    bar_x = geom.bar or (np.inf, -np.inf)
    masked = [((x + frame.margin[0]) * frame.k, (y + frame.margin[1]) * frame.k, rr * frame.k)
              for x, y, rr in discs if not bar_x[0] <= x <= bar_x[1]]
    gated = _gate(image, frame, masked, cube, _sigmas(r)[0], scan)
    parts: list[_Part] = []
    if gated is None:
        parts.append(_search(image, geom, frame, masked, cube, None, None, r, scan))
    else:
        spots, gain = gated
        if not spots:
            return []
        boxes: list[tuple[int, int, int, int] | None] = list(
            _boxes(spots, _BOX_PAD * r + _border(r), frame.size))
        if sum(_area(b) for b in boxes) > _WHOLE_SHARE * frame.size[0] * frame.size[1]:
            boxes = [None]  # the whole view, its gain measured on it
        parts = [_search(image, geom, frame, masked, cube, box, None if box is None else gain, r, scan)
                 for box in boxes]
    found = [(f, part) for part in parts for f in part.faces]
    if not found:
        return []
    # one set of dice: pips printed alike, dice of one size
    best = max(_mean_contrast(f, part.pips) for f, part in found)
    sized = [f.edge for f, _ in found if len(f.members) > 1]
    ref = float(np.median(sized)) if sized else None
    kept = {id(f) for f, part in found if _mean_contrast(f, part.pips) >= _SET_CONTRAST * best
            and (ref is None or len(f.members) == 1 or 1 / _SET_SIZE <= f.edge / ref <= _SET_SIZE)}
    out = []
    for part in parts:
        mine = [f for f in part.faces if id(f) in kept]
        if mine:
            out.append((part, mine))
    return out


@dataclass(frozen=True)
class _Part:
    """The faces read in one view (the whole dice view, or a box of it) and what their statuses
    need: the view, its pips, and ``stack_view`` (a view and its Lab round a rectified point, for
    :func:`_on_stack`)."""

    dv: DiceView
    pips: list[Pip]
    faces: list[Face]
    stack_view: Callable[[np.ndarray], tuple[DiceView, np.ndarray]]


def _search(image: np.ndarray, geom: BoardGeometry, frame: _Frame,
            masked: list[tuple[float, float, float]], cube: tuple[float, float, float] | None,
            box: tuple[int, int, int, int] | None, gain: float | None, r: float,
            scan: DiceScan | None = None) -> _Part:
    """The d6 faces in the dice view, or in its ``box`` (whole-view px) read as a view of its own;
    ``masked``, ``cube`` in whole-view px; ``gain``: the exposure gain, None = measured on the view;
    ``r``: the checkers' radius in view px.
    A box's pips within a blob's reach of a side that cuts the view are dropped (the filters see
    the cut there)."""
    whole = box is None
    sigmas = _sigmas(r)
    key = (frame.hom.tobytes(), frame.size, box, gain, sigmas)
    seen = None if scan is None else scan.views.get(key)
    if seen is None:
        if scan is not None and whole:
            # (a whole view is written into scratch arrays: one kept at a time)
            for k in [k for k in scan.views if k[2] is None]:
                del scan.views[k]
        dv = _warp(image, frame, reuse=whole, box=box)
        shape = dv.image.shape
        exposed = _exposed(dv.image, scratch("board_dice.exposed", shape, np.uint8) if whole else None, gain)
        lab = cv2.cvtColor(exposed, cv2.COLOR_BGR2LAB,
                           scratch("board_dice.lab", shape, np.uint8) if whole else None)
        table = _PeakTable.of(lab, sigmas)
        if scan is not None:
            scan.views[key] = (dv, lab, table)
    else:
        dv, lab, table = seen
    ox, oy = (0, 0) if box is None else box[:2]
    keep = _keep(lab.shape[:2], [(x - ox, y - oy, rr) for x, y, rr in masked],
                 None if cube is None else (cube[0] - ox, cube[1] - oy, cube[2]), "view" if whole else None)
    pips = table.pips(keep)
    if box is not None:
        pips = _inside_cut(pips, box, frame.size, _border(r))
    bar = None
    if geom.bar is not None:
        x0, x1 = dv.to_view(np.array([[geom.bar[0], 0.0], [geom.bar[1], 0.0]]))[:, 0]
        bar = (float(x0), float(x1))
    (fx0, fy0), (fx1, fy1) = dv.to_view(np.array([[0.0, 0.0], [float(geom.size[0]), float(geom.size[1])]]))
    field = (float(fx0), float(fy0), float(fx1), float(fy1))
    edges = tuple(e * r for e in _EDGES_OF_RADIUS)
    # (the frame's other search of this view may have found the same pips, with other discs masked:
    # its candidate faces and the checks that do not look at the mask hold here too)
    memo_key = (key, r, bar, field, _MIN_EDGE_PX / dv.source)
    memo = None if scan is None else scan.faces.get(memo_key)
    if memo is None or memo[0] != pips:
        memo = (pips, face_hypotheses(pips, edges, _ONE_ROUND), {})
        if scan is not None:
            scan.faces[memo_key] = memo
    looks = None if scan is None else scan.looks.setdefault(memo_key, {})
    accept = _accept(lab, pips, sigmas[0], r, keep, bar, field, _MIN_EDGE_PX / dv.source, memo[2], looks,
                     memo[1])
    faces = take_faces(pips, memo[1], edges, accept, _ONE_ROUND)

    def stack_view(xy: np.ndarray) -> tuple[DiceView, np.ndarray]:
        if whole:
            return dv, lab
        # a box round the die reaching past the stack's next checker (on the whole view it is a
        # plain part of it; here the checker may lie outside the box the faces were read in)
        cx, cy = (np.asarray(xy, np.float64) + frame.margin) * frame.k
        reach = (_STACK_NEXT[1] + 0.5 + _BEYOND_RING) * r
        b = _clip_box((cx - reach, cy - reach, cx + reach, cy + reach), frame.size)
        sv = _warp(image, frame, box=b)
        return sv, cv2.cvtColor(_exposed(sv.image, None, gain), cv2.COLOR_BGR2LAB)

    return _Part(dv, pips, faces, stack_view)


def _regions(geom: BoardGeometry, discs: list[tuple[float, float, float]]) -> BoardRegions:
    """The board's :class:`~vision.dice.status.BoardRegions` in input pixels."""
    w, h = geom.size
    area = geom.to_image(np.array([[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]], np.float64))
    bars: tuple[np.ndarray, ...] = ()
    if geom.bar is not None:
        x0, x1 = geom.bar
        bar = geom.to_image(np.array([[x0, 0.0], [x1, 0.0], [x1, h], [x0, h]], np.float64))
        bars = (bar.astype(np.float32),)
    circles = np.zeros((0, 3), np.float32)
    if discs:
        c = np.array(discs, np.float64)
        centres = geom.to_image(c[:, :2])
        rims = geom.to_image(c[:, :2] + np.stack([c[:, 2], np.zeros(len(c))], axis=1))
        circles = np.column_stack([centres, np.linalg.norm(rims - centres, axis=1)]).astype(np.float32)
    return BoardRegions(area.astype(np.float32), bars, None, circles, touch=_TOUCH)


def _readings(faces: list[Face], pips: list[Pip], geom: BoardGeometry, dv: DiceView,
              discs: list[tuple[float, float, float]],
              stack_view: Callable[[np.ndarray], tuple[DiceView, np.ndarray]]) -> list[DieReading]:
    """The readings of the faces of one view ``dv``; ``stack_view``: a view and its Lab round a
    rectified point (for :func:`_on_stack`)."""
    regions = _regions(geom, discs)
    used = {i for f in faces for i in f.members}
    out = []
    for f in faces:
        cx, cy = f.centre
        ends = geom.to_image(dv.to_rectified(np.array([[cx, cy], [cx + f.edge, cy]])))
        xy, edge_px = ends[0], float(np.linalg.norm(ends[1] - ends[0]))
        tilted = is_cocked(f.centre, [pips[i] for i in f.members], f.edge, BOARD_COCK,
                           others=[p for i, p in enumerate(pips) if i not in used], input_edge=edge_px)
        die = DieReading(len(f.members), (float(xy[0]), float(xy[1])), die_status(tilted), _confidence(f))
        rect_xy = dv.to_rectified(np.array([[cx, cy]]))[0]

        def hidden(rect_xy: np.ndarray = rect_xy) -> bool:
            return _between_checkers(rect_xy, discs) or _on_stack(
                rect_xy, discs, *_lab_first(stack_view(rect_xy)))

        status = board_status(die, regions, edge_px, hidden)
        out.append(replace(die, status=status))
    return out


def _lab_first(view: tuple[DiceView, np.ndarray]) -> tuple[np.ndarray, DiceView]:
    return view[1], view[0]


def _between_checkers(xy: np.ndarray, discs: list[tuple[float, float, float]]) -> bool:
    """A die between two checkers closer than _BETWEEN radii, on opposite sides of it (more than 120
    degrees apart as seen from the die), lies on the checker it hides from the stack counter (a gap
    in a stack) or is squeezed against both (RULES.md B15: on or against a checker). ``xy`` and
    ``discs`` in rectified px."""
    dirs = [np.array([x - xy[0], y - xy[1]]) for x, y, r in discs
            if float(np.hypot(x - xy[0], y - xy[1])) < _BETWEEN * r]
    for i in range(len(dirs)):
        for j in range(i + 1, len(dirs)):
            cos = float(dirs[i] @ dirs[j]) / (float(np.linalg.norm(dirs[i]) * np.linalg.norm(dirs[j])) + 1e-9)
            if cos < -0.5:
                return True
    return False


def _on_stack(xy: np.ndarray, discs: list[tuple[float, float, float]], lab: np.ndarray,
              dv: DiceView) -> bool:
    """A die in a checker's column (points' columns are vertical in the rectified field), where the
    stack's next checker would lie (_STACK_NEXT radii from it), with that checker's colour round it
    and the board beyond: on the checker it hides from the stack counter (RULES.md B15). ``xy``,
    ``discs`` rectified px; ``lab`` the dice view (``dv``) in Lab."""
    lo, hi = _STACK_NEXT
    h, w = lab.shape[:2]
    ang = np.linspace(0.0, 2 * np.pi, 32, endpoint=False)
    for x, y, r in discs:
        if not (abs(xy[0] - x) <= _STACK_SIDE * r and lo * r <= abs(xy[1] - y) <= hi * r):
            continue
        (dx, dy), (cx, cy) = dv.to_view(np.array([[x, y], xy]))
        rr = r * dv.scale
        core = lab[max(0, int(dy - 0.4 * rr)) : int(dy + 0.4 * rr) + 1,
                   max(0, int(dx - 0.4 * rr)) : int(dx + 0.4 * rr) + 1].reshape(-1, 3).astype(np.float32)
        if len(core) == 0:
            continue
        colour = np.median(core, axis=0)
        share = []
        for k in (_UNDER_RING, _BEYOND_RING):
            xs = np.clip(np.rint(cx + k * rr * np.cos(ang)), 0, w - 1).astype(np.intp)
            ys = np.clip(np.rint(cy + k * rr * np.sin(ang)), 0, h - 1).astype(np.intp)
            ring = lab[ys, xs].astype(np.float32)
            share.append(float(np.mean(channel_norm(ring - colour) < _UNDER_SAME)))
        if share[0] >= _UNDER_MIN and share[0] - share[1] >= _UNDER_DROP:
            return True
    return False


def _confidence(face: Face) -> float:
    """0.5-1: the face's score over its pips' count, saturating (a clear six and a clear one alike)."""
    return float(np.clip(0.5 + 0.5 * face.score / (len(face.members) * 100.0), 0.5, 1.0))
