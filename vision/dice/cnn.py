"""A small convolutional network that finds dice and reads their top faces, run through OpenCV's dnn.

The network (trained by ``python -m training.dice_cnn``, weights ``vision/dice/assets/dice_cnn.onnx``)
is fully convolutional and works on an image scaled so that one die edge is about ``EDGE_PX`` pixels:
that scale is what makes a small network read dice of any size (webcam boards, phone photos). Its
output, at 1/``STRIDE`` of its input, has ``1 + 6 + 1`` channels per cell, after the heat-map
detectors of Zhou, Wang & Krähenbühl, "Objects as Points" (CenterNet, 2019):

* ``heat`` (logit): a die's centre lies in this cell;
* ``pips`` (6 logits): pips of the top face, 1-6, of the die centred here;
* ``size``: log(die edge / ``EDGE_PX``) of the die centred here (so a wrong scale guess is corrected).

Runtime needs only OpenCV (``cv2.dnn.readNetFromONNX``), not PyTorch. Scale: the caller's die edge
(a board reader knows it), else the classical scale vote (:func:`vision.dice.photo.estimate_die_size`), then
corrected once by the network's own size channel when the two disagree.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.arrays import nonzero2d
from vision.errors import DiceInputError, WeightsMissingError

__all__ = [
    "CLASSIFIER", "CROP", "CROP_EDGE", "EDGE_PX", "STRIDE", "WEIGHTS", "CnnDie", "DieClass",
    "DiceClassifier", "DiceNet", "classify_die", "die_crop", "face_angle", "find", "load_classifier",
    "load_net",
]

WEIGHTS = Path(__file__).with_name("assets") / "dice_cnn.onnx"
CLASSIFIER = Path(__file__).with_name("assets") / "dice_cls.onnx"
# The classifier's crop: CROP x CROP px, one die edge = CROP_EDGE px of it.
CROP = 32
CROP_EDGE = 26.0
# A detection is dropped when the classifier gives "not a die" at least this probability.
NOT_A_DIE = 0.3
# Die edge (px) in the network's input, and the output stride (input px per output cell).
EDGE_PX = 22.0
STRIDE = 4
# A heat peak above this probability is a die.
DETECT = 0.35
# Peaks closer than this (die edges) are one die: the stronger is kept.
MIN_APART = 0.8
# The network's own size estimate replaces the given one when they differ by more than this factor.
RESCALE = 1.3
# Largest side (px) of the scaled input: a photo of tiny dice is not blown up past this.
_MAX_INPUT = 2048


@dataclass(frozen=True)
class CnnDie:
    """One die the network found: centre (x, y) in input-image px, pips 1-6, ``p_die`` (heat 0-1),
    ``p_value`` (probability of ``value`` among the six faces), ``edge`` (die edge, input px),
    ``probs`` (the six faces' probabilities, when the classifier read it)."""

    xy: tuple[float, float]
    value: int
    p_die: float
    p_value: float
    edge: float
    probs: tuple[float, ...] = ()

    @property
    def confidence(self) -> float:
        """p(die) x p(value), 0-1."""
        return float(self.p_die * self.p_value)


@dataclass(frozen=True)
class DieClass:
    """The verdict on one die crop: ``value`` 1-6 or None (not a die), ``confidence`` 0-1 (of the
    value; of "not a die" when ``value`` is None), ``p_die`` (0-1) and the six face probabilities."""

    value: int | None
    confidence: float
    p_die: float
    probs: tuple[float, ...]


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(x, -30, 30))))


def _softmax(z: np.ndarray, axis: int = 0) -> np.ndarray:
    z = z - z.max(axis=axis, keepdims=True)
    e = np.exp(z)
    return np.asarray(e / e.sum(axis=axis, keepdims=True))


class DiceNet:
    """The ONNX network through ``cv2.dnn``. ``forward(bgr)`` maps an HxWx3 uint8 image (H, W multiples
    of ``STRIDE``) to an 8 x H/STRIDE x W/STRIDE float32 array (heat logit, 6 pip logits, log size).

    :raises cv2.error: when ``path`` is not a readable ONNX network.
    """

    def __init__(self, path: Path | str = WEIGHTS) -> None:
        self.path = Path(path)
        self._net = cv2.dnn.readNetFromONNX(str(self.path))
        self._lock = threading.Lock()  # one cv2.dnn.Net is not safe to share between threads

    def forward(self, bgr: np.ndarray) -> np.ndarray:
        blob = cv2.dnn.blobFromImage(bgr.astype(np.float32))  # 1x3xHxW, raw 0-255 BGR
        with self._lock:
            self._net.setInput(blob)
            out = self._net.forward()
        return np.asarray(out[0], np.float32)

    def scan(self, image: np.ndarray, edge: float, region: np.ndarray | None = None,
             near: np.ndarray | None = None) -> list[CnnDie]:
        """Every die of an HxWx3 uint8 BGR image whose dice have edges of about ``edge`` px.

        The image is scaled by ``EDGE_PX / edge`` and padded to a multiple of ``STRIDE`` (border
        replicated); ``region`` (HxW bool, optional) keeps only dice centred where it is True, and
        ``near`` (HxW bool, optional: where the image differs from the surface under the dice) only
        dice centred within ``NEAR_EDGES`` die edges of it. The network is run only round the places
        such dice may be centred (:func:`_parts`), with the context its output there depends on, so
        what it finds there is what a scan of the whole image finds.
        """
        h, w = image.shape[:2]
        f = EDGE_PX / max(edge, 1.0)
        f = min(f, _MAX_INPUT / max(h, w))
        sw, sh = max(STRIDE, round(w * f)), max(STRIDE, round(h * f))
        interp = cv2.INTER_AREA if f < 1.0 else cv2.INTER_LINEAR
        small = cv2.resize(image, (sw, sh), interpolation=interp)
        pw, ph = (-sw) % STRIDE + 2 * STRIDE, (-sh) % STRIDE + 2 * STRIDE
        pad = STRIDE
        small = cv2.copyMakeBorder(small, pad, ph - pad, pad, pw - pad, cv2.BORDER_REPLICATE)
        centres, cells = _cells_wanted(small.shape[:2], pad, (sw, sh), region, near, f)
        parts = None if cells is None else _parts(cells)
        out = self.forward(small) if cells is None or parts is None else self._forward_parts(small, parts)
        return _decode(out, f, (sw / w, sh / h), pad, region, centres)

    def _forward_parts(self, small: np.ndarray, parts: list[tuple[int, int, int, int]]) -> np.ndarray:
        """:meth:`forward` of ``small`` computed only in the rectangles ``parts`` (y0, y1, x0, x1 of
        its output cells, :func:`_parts`); elsewhere no die (heat logit -30)."""
        out = np.zeros((8, small.shape[0] // STRIDE, small.shape[1] // STRIDE), np.float32)
        out[0] = -30.0
        for y0, y1, x0, x1 in parts:
            iy0, ix0 = max(0, y0 * STRIDE - _HALO), max(0, x0 * STRIDE - _HALO)
            iy1, ix1 = min(small.shape[0], y1 * STRIDE + _HALO), min(small.shape[1], x1 * STRIDE + _HALO)
            part = self.forward(small[iy0:iy1, ix0:ix1])
            oy, ox = y0 - iy0 // STRIDE, x0 - ix0 // STRIDE
            out[:, y0:y1, x0:x1] = part[:, oy : oy + y1 - y0, ox : ox + x1 - x0]
        return out


def odd_kernel(px: float) -> int:
    """The odd kernel side (>= 3) nearest above ``px``."""
    k = max(3, int(math.ceil(px)))
    return k + 1 - k % 2


def _cells_wanted(shape: tuple[int, int], pad: int, scaled: tuple[int, int], region: np.ndarray | None,
                  near: np.ndarray | None, f: float) -> tuple[np.ndarray | None, np.ndarray | None]:
    """(centres, cells) for the network's output of a padded input of ``shape`` (bool, its h x w):
    ``centres``, where a die may be centred: in ``region`` and within ``NEAR_EDGES`` die edges
    (``EDGE_PX`` scaled px) of ``near`` (None when ``near`` is); ``cells``, what a scan needs computed:
    within 2 cells of those (a peak's 3x3 neighbourhood and its centroid's shift), or None (the whole
    output) when both masks are None. The masks may be at any scale of the image."""
    if region is None and near is None:
        return None, None
    hc, wc = shape[0] // STRIDE, shape[1] // STRIDE
    sw, sh = scaled

    def to_cells(mask: np.ndarray) -> np.ndarray:
        # any True pixel marks its cell (an area average above zero), the pad's cells left False
        m = cv2.resize(mask.astype(np.float32), (sw, sh), interpolation=cv2.INTER_AREA if f < 1 else
                       cv2.INTER_NEAREST)
        m = cv2.copyMakeBorder(m, pad, shape[0] - sh - pad, pad, shape[1] - sw - pad, cv2.BORDER_CONSTANT)
        return np.asarray(cv2.resize(m, (wc, hc), interpolation=cv2.INTER_AREA) > 0)

    centres = np.ones((hc, wc), bool)
    if near is not None:
        reach = odd_kernel(2.0 * NEAR_EDGES * EDGE_PX / STRIDE + 2.0)
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach))
        centres &= cv2.dilate(to_cells(near).astype(np.uint8), disc) > 0
    if region is not None:
        centres &= to_cells(region)
    cells = cv2.dilate(centres.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    return (centres if near is not None else None), cells


def _parts(cells: np.ndarray) -> list[tuple[int, int, int, int]] | None:
    """Rectangles (y0, y1, x0, x1, output cells) that cover the True ``cells`` at little cost, or None
    when one whole-image pass costs less. A rectangle costs its input area with ``_HALO`` px of
    context round it: groups of cells further apart than two halos get rectangles of their own, and
    a rectangle is split in two (along a row or column of ``_BLOCK`` cells, the split that costs
    least: :func:`_best_split`) while the two parts' bounding boxes cost less than it."""
    apart = odd_kernel(2.0 * _HALO / STRIDE)
    groups = cv2.dilate(cells.astype(np.uint8), np.ones((apart, apart), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(groups, connectivity=8)
    todo = [b for x, y, w, h, _ in stats[1:] if (b := _bbox(cells, y, y + h, x, x + w)) is not None]
    out: list[tuple[int, int, int, int]] = []
    while todo:
        r = todo.pop()
        halves = _best_split(cells, r)
        if halves is None:
            out.append(r)
        else:
            todo.extend(halves)
    whole = float(cells.shape[0] * cells.shape[1] * STRIDE * STRIDE)
    return None if sum(_part_cost(r) for r in out) >= _WHOLE_SHARE * whole else out


def _part_cost(r: tuple[int, int, int, int]) -> float:
    """The input area (px) a part of output cells ``r`` (y0, y1, x0, x1) costs with its halo."""
    return float((r[1] - r[0]) * STRIDE + 2 * _HALO) * ((r[3] - r[2]) * STRIDE + 2 * _HALO)


def _bbox(cells: np.ndarray, y0: int, y1: int, x0: int, x1: int) -> tuple[int, int, int, int] | None:
    """The bounding box (y0, y1, x0, x1) of the True ``cells`` in the given window, None when none."""
    sub = cells[y0:y1, x0:x1]
    rows, cols = np.flatnonzero(sub.any(axis=1)), np.flatnonzero(sub.any(axis=0))
    if not rows.size:
        return None
    return y0 + int(rows[0]), y0 + int(rows[-1]) + 1, x0 + int(cols[0]), x0 + int(cols[-1]) + 1


def _best_split(cells: np.ndarray, r: tuple[int, int, int, int]) -> list[tuple[int, int, int, int]] | None:
    """The parts (bounding boxes of the True ``cells`` on each side, :func:`_bbox`) of the cut of
    rectangle ``r`` along a row, then a column, every ``_BLOCK`` cells that costs least
    (:func:`_part_cost`), the first such; None when no cut costs less than ``r`` whole. Every cut's
    two sides at once, from running counts of the cells along each axis (the costs are whole
    numbers: compared exactly)."""
    y0, y1, x0, x1 = r
    sub = cells[y0:y1, x0:x1]
    best_cost, best = _part_cost(r), None
    for axis in (0, 1):
        a = sub if axis == 0 else sub.T  # cut across a's rows
        ks = np.arange(_BLOCK, a.shape[0], _BLOCK)
        if not ks.size:
            continue
        boxes = _cut_boxes(a, ks)  # (K, 2, 4): each side's first/end along a's rows, then columns
        costs = np.where(boxes[..., 1] > boxes[..., 0], _side_costs(boxes), 0)
        total = costs.sum(axis=1)
        i = int(np.argmin(total))
        if float(total[i]) < best_cost:
            best_cost = float(total[i])
            best = [_to_rect(boxes[i, s], axis, y0, x0) for s in (0, 1) if boxes[i, s, 1] > boxes[i, s, 0]]
    return best


def _cut_boxes(a: np.ndarray, ks: np.ndarray) -> np.ndarray:
    """For bool (R, C) ``a`` cut above each row of ``ks``: (K, 2, 4) int, for the side above and the
    side below, the first and end row and first and end column of its True cells (end = first when
    there is none)."""
    nr, nc = a.shape
    rows_any = a.any(axis=1)
    idx = np.arange(nr)
    last_true = np.maximum.accumulate(np.where(rows_any, idx, -1))  # last True row at or above each
    next_true = np.minimum.accumulate(np.where(rows_any, idx, nr)[::-1])[::-1]  # first at or below
    first_true = int(next_true[0]) if nr else 0
    final_true = int(last_true[-1]) if nr else -1
    cum = np.cumsum(a, axis=0, dtype=np.int32)
    above = cum[ks - 1] > 0  # (K, C): columns with a True cell above the cut
    below = (cum[-1] - cum[ks - 1]) > 0
    out = np.zeros((len(ks), 2, 4), np.int64)
    # above: rows [first_true, last_true[k-1]] when first_true < k
    top_end = last_true[ks - 1] + 1
    has_top = first_true < ks
    out[:, 0, 0] = np.where(has_top, first_true, 0)
    out[:, 0, 1] = np.where(has_top, top_end, 0)
    bot_start = next_true[np.minimum(ks, nr - 1)]
    has_bot = final_true >= ks
    out[:, 1, 0] = np.where(has_bot, bot_start, 0)
    out[:, 1, 1] = np.where(has_bot, final_true + 1, 0)
    for s, cols in ((0, above), (1, below)):
        anyc = cols.any(axis=1)
        first = np.argmax(cols, axis=1)
        end = nc - np.argmax(cols[:, ::-1], axis=1)
        out[:, s, 2] = np.where(anyc, first, 0)
        out[:, s, 3] = np.where(anyc, end, 0)
    return out


def _side_costs(boxes: np.ndarray) -> np.ndarray:
    """:func:`_part_cost` of each side of :func:`_cut_boxes` (int: whole numbers of px)."""
    along = (boxes[..., 1] - boxes[..., 0]) * STRIDE + 2 * _HALO
    across = (boxes[..., 3] - boxes[..., 2]) * STRIDE + 2 * _HALO
    return np.asarray(along * across)


def _to_rect(box: np.ndarray, axis: int, y0: int, x0: int) -> tuple[int, int, int, int]:
    """A side of :func:`_cut_boxes` as a rectangle (y0, y1, x0, x1) of the whole cells' array."""
    a0, a1, c0, c1 = (int(v) for v in box)
    if axis == 0:
        return y0 + a0, y0 + a1, x0 + c0, x0 + c1
    return y0 + c0, y0 + c1, x0 + a0, x0 + a1


# Scaled px of context round a part of the network's input: its receptive field reaches 42 px from
# a cell (three convolutions at full, half and, dilated, quarter resolution), so 44 (a multiple of
# STRIDE) leaves the output inside exactly as in a whole-image pass.
_HALO = 44
# Output cells between the places where :func:`_parts` may split a rectangle.
_BLOCK = 8
# A scan runs the network on the whole image when its parts would cost more than this share of it
# (the parts' own overhead: a call per part, their outputs copied).
_WHOLE_SHARE = 0.9
# A die is centred within this many die edges of the image's foreground (its own body, or its pips
# where the body is the surface's colour) when ``near`` is given.
NEAR_EDGES = 1.0


def _decode(out: np.ndarray, f: float, fxy: tuple[float, float], pad: int,
            region: np.ndarray | None, centres: np.ndarray | None = None) -> list[CnnDie]:
    """Heat peaks of a network output (8 x h x w) -> dice in input px (``fxy``: scaled px per input
    px in x and y; ``pad``: scaled px of border added on the top and left); only those centred in
    ``region`` (input px) and in a cell of ``centres`` (h x w), each when given."""
    heat = _sigmoid(out[0])
    peak = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat > DETECT)
    ys, xs = nonzero2d(peak)
    order = np.argsort(-heat[ys, xs])
    h, w = heat.shape
    kept: list[CnnDie] = []
    for i in order:
        y, x = int(ys[i]), int(xs[i])
        y0, y1, x0, x1 = max(0, y - 1), min(h, y + 2), max(0, x - 1), min(w, x + 2)
        wgt = heat[y0:y1, x0:x1]
        # (the cells' rows and columns broadcast: the same products and sums as np.mgrid's grids)
        gy, gx = np.arange(y0, y1)[:, None], np.arange(x0, x1)[None, :]
        cy = float((wgt * gy).sum() / wgt.sum())
        cx = float((wgt * gx).sum() / wgt.sum())
        probs = (_softmax(out[1:7, y0:y1, x0:x1], 0) * wgt).sum(axis=(1, 2)) / wgt.sum()
        edge = EDGE_PX * float(np.exp(out[7, y, x])) / f
        # cell centre -> scaled px -> input px
        px = ((cx + 0.5) * STRIDE - pad) / fxy[0]
        py = ((cy + 0.5) * STRIDE - pad) / fxy[1]
        if centres is not None and not centres[min(h - 1, int(cy + 0.5)), min(w - 1, int(cx + 0.5))]:
            continue
        if region is not None:
            ry, rx = int(round(py)), int(round(px))
            if not (0 <= ry < region.shape[0] and 0 <= rx < region.shape[1] and region[ry, rx]):
                continue
        if any(math.dist((px, py), k.xy) < MIN_APART * min(edge, k.edge) for k in kept):
            continue
        v = int(np.argmax(probs))
        kept.append(CnnDie((px, py), v + 1, float(heat[y, x]), float(probs[v]), edge))
    return kept


@lru_cache(maxsize=4)
def load_net(path: Path = WEIGHTS) -> DiceNet | None:
    """The shipped network, or None when its file is absent or unreadable (callers then fall back to
    the classical reader)."""
    try:
        return DiceNet(path)
    except (cv2.error, OSError):
        return None


def face_angle(image: np.ndarray, centre: tuple[float, float], edge: float) -> float:
    """The turn (degrees, 0-90) of the die's edges at ``centre`` in an HxWx3 uint8 BGR image: the
    mean direction of the squared gradients, taken modulo 90 degrees (four-fold circular mean, as in
    fingerprint orientation fields), weighted by a Gaussian window of 0.6 die edges."""
    k = 16.0 / max(edge, 1.0)
    cx, cy = centre
    m = np.float32([[k, 0, 16 - cx * k], [0, k, 16 - cy * k]])
    patch = cv2.warpAffine(image, m, (32, 32), flags=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REPLICATE)
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float32)
    gx = sum(cv2.Sobel(lab[:, :, c], cv2.CV_32F, 1, 0) for c in range(3))
    gy = sum(cv2.Sobel(lab[:, :, c], cv2.CV_32F, 0, 1) for c in range(3))
    yy, xx = np.mgrid[0:32, 0:32] - 15.5
    win = np.exp(-(xx * xx + yy * yy) / (2 * (0.6 * 16) ** 2))
    mag2 = (gx * gx + gy * gy) * win
    th = np.arctan2(gy, gx)
    z = (mag2 * np.exp(4j * th)).sum()
    return float(np.degrees(np.angle(z)) / 4.0) % 90.0


def die_crop(image: np.ndarray, centre: tuple[float, float], edge: float, angle: float | None = None,
             size: int = CROP, edge_px: float = CROP_EDGE) -> np.ndarray:
    """A ``size`` x ``size`` (default CROP) uint8 BGR crop of ``image`` (HxWx3) centred on ``centre``
    (x, y px), scaled so that ``edge`` px become ``edge_px`` (default CROP_EDGE) px and turned by
    ``angle`` degrees (default :func:`face_angle`: the die's edges then run along the crop's); the
    border is replicated where the crop leaves the image."""
    if angle is None:
        angle = face_angle(image, centre, edge)
    k = edge_px / max(edge, 1.0)
    m = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), float(angle), k)
    m[:, 2] += (size / 2 - centre[0], size / 2 - centre[1])
    interp = cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR
    return np.asarray(cv2.warpAffine(image, m, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE))


class DiceClassifier:
    """The crop classifier (ONNX through ``cv2.dnn``): ``probabilities(crops)`` maps n ``crop`` x
    ``crop`` BGR uint8 crops (:func:`die_crop` with ``size=crop, edge_px=crop_edge``) to n x 7 float64
    probabilities (0 = not a die, 1-6 = pips), each the mean over the crop turned by each of
    ``turns`` quarter turns (default all four) and (``flips``) mirrored too: a d6 face counts the same
    turned or mirrored.

    ``crop``/``crop_edge`` must be what the network was trained on (CROP/CROP_EDGE for the shipped
    one; the network is fully convolutional, so a wrong size would run but read worse).

    :raises cv2.error: when ``path`` is not a readable ONNX network.
    """

    def __init__(self, path: Path | str = CLASSIFIER, crop: int = CROP, crop_edge: float = CROP_EDGE,
                 flips: bool = True, turns: tuple[int, ...] = (0, 1, 2, 3)) -> None:
        self.path = Path(path)
        self.crop, self.crop_edge, self.flips, self.turns = crop, crop_edge, flips, turns
        self._net = cv2.dnn.readNetFromONNX(str(self.path))
        self._lock = threading.Lock()

    def crop_of(self, image: np.ndarray, centre: tuple[float, float], edge: float) -> np.ndarray:
        """:func:`die_crop` at this classifier's crop size."""
        return die_crop(image, centre, edge, size=self.crop, edge_px=self.crop_edge)

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        if not crops:
            return np.zeros((0, 7))
        bases = [c for c0 in crops for c in ((c0, c0[:, ::-1]) if self.flips else (c0,))]
        views = [np.ascontiguousarray(np.rot90(c, k)) for c in bases for k in self.turns]
        blob = cv2.dnn.blobFromImages([v.astype(np.float32) for v in views])
        with self._lock:
            self._net.setInput(blob)
            z = np.asarray(self._net.forward(), np.float64).reshape(len(crops), -1, 7)
        return np.asarray(_softmax(z, 2).mean(axis=1))


# The quarter turns of each crop the shipped classifier reads (:func:`load_classifier`).
READ_TURNS = (0, 2)


@lru_cache(maxsize=4)
def load_classifier(path: Path = CLASSIFIER) -> DiceClassifier | None:
    """The shipped crop classifier, or None when its file is absent or unreadable. It reads each crop
    as it is and turned half round (``READ_TURNS``), neither mirrored nor turned a quarter: the views
    are the most costly step of a photo, and every d6 face looks the same turned half round (a
    quarter turn changes the 2, 3 and 6), so the two views read dice-d6 as well as all four did."""
    try:
        return DiceClassifier(path, flips=False, turns=READ_TURNS)
    except (cv2.error, OSError):
        return None


def find(image: np.ndarray, edge: float, net: DiceNet, classifier: DiceClassifier | None,
         region: np.ndarray | None = None, trust_edge: bool = False,
         near: np.ndarray | None = None) -> tuple[list[CnnDie], float]:
    """The dice of an HxWx3 uint8 BGR image and the die edge used (input px); ``region`` and
    ``near`` (bool masks, optional) as in :meth:`DiceNet.scan`, for every scan.

    ``edge``: the expected die edge in px. With ``trust_edge`` (a board reader knows its dice's size) the
    image is scanned at that size only. Otherwise, when the median size the network reports for its dice
    differs from ``edge`` by more than ``RESCALE``, the image is scanned again at that size; and since a
    size estimate that took the pips of light dice for dice gives about a fifth of the true edge (and a
    network scanning at that scale takes pips for dice too), the image is also scanned at ``PIP_SCALES``
    times the edge when its dice are read less surely than ``PIP_DOUBT``: a coarser scan whose dice hold
    the finer scan's dice as their pips (:func:`_holds_as_pips`) and which the classifier reads more
    surely (:func:`_quality`) qualifies. (A group of dice taken for one die at too coarse a scale also
    holds them, but is read unsurely: measured on dice-d6, mean confidence 0.3-0.5 against 0.6-0.97 for
    the dice at their own scale; the pips taken for dice 0.3-0.4 against 0.8-0.9.) A guess several times
    too large (its "dice" are groups of dice read unsurely, or the few dice it accepts) gives way to a
    finer scan (``FINER_SCALES``) that finds more dice, about as surely and at least ``SURE_ELSEWHERE``,
    which are not the pips of the first scan's dice; a guess that finds nothing, to the surest other scale
    (the finer scans only when the first scan's dice are read less surely than ``FINER_DOUBT``). When
    several scans qualify, the one with the most dice among those read within ``SAME_QUALITY`` of the
    surest is kept. Each peak is read by ``classifier`` (when given): dropped when it is no die, else its
    value is the classifier's.

    :returns: the dice and the die edge (input px) they were read at.
    """
    dice = net.scan(image, edge, region, near)
    if not trust_edge and dice:
        sure = [d.edge for d in dice if d.p_die > 0.6] or [d.edge for d in dice]
        own = float(np.median(sure))
        if max(own / edge, edge / own) > RESCALE:
            again = net.scan(image, own, region, near)
            if sum(d.p_die for d in again) >= sum(d.p_die for d in dice):
                dice, edge = again, own
    found = _classified(image, dice, edge, classifier)
    if trust_edge or classifier is None:
        return found, edge

    def scans(edges: list[float]) -> Iterator[tuple[float, list[CnnDie]]]:
        return _rescans(image, net, classifier, region, edges, near)

    if not found:
        # nothing at the guess (a die seen far off its scale is "not a die"): the surest other scale
        edges = [edge * k for k in PIP_SCALES] + [edge / k for k in FINER_SCALES]
        tries = [(e, got) for e, got in scans(edges) if _quality(got) >= SURE_ELSEWHERE]
    else:
        # (a first scan that took pips for dice reads them unsurely: only then the coarser scans)
        pips = [] if _quality(found) >= PIP_DOUBT else scans([edge * k for k in PIP_SCALES])
        tries = [(e, got) for e, got in pips
                 if _holds_as_pips(got, found, e) and _quality(got) > _quality(found)]
        if not tries and _quality(found) < FINER_DOUBT:
            # a guess several times too large: groups of dice read unsurely, or a few dice accepted
            floor = max(SURE_ELSEWHERE, _quality(found) - 0.15)
            tries = [(e, got) for e, got in scans([edge / k for k in FINER_SCALES])
                     if len(got) > len(found) and _quality(got) >= floor
                     and not _holds_as_pips(found, got, edge)]
    if tries:
        # the scale that finds the most dice about as surely as the surest: at a scale too fine or
        # too coarse for some of the photo's dice the classifier calls them "not a die" (it was
        # taught so), so they go missing while the others are still read surely (IMG_20191209_100722:
        # 3 dice at 0.95 at half their edge, all 5 at 0.94 at their own)
        best = max(_quality(got) for _, got in tries)
        edge, found = max(((e, got) for e, got in tries if _quality(got) >= best - SAME_QUALITY),
                          key=lambda t: (len(t[1]), _quality(t[1])))
    return found, edge


def _rescans(image: np.ndarray, net: DiceNet, classifier: DiceClassifier, region: np.ndarray | None,
             edges: list[float], near: np.ndarray | None = None) -> Iterator[tuple[float, list[CnnDie]]]:
    """(edge, the dice :func:`_classified` reads at it) for each die edge of ``edges`` (input px) that
    is worth a scan: at least ``_MIN_EDGE``, at most half the image's short side, and not needing an
    input over ``_MAX_INPUT`` px."""
    h, w = image.shape[:2]
    for e in edges:
        if _MIN_EDGE <= e <= min(h, w) / 2.0 and max(h, w) * EDGE_PX / e <= _MAX_INPUT:
            yield e, _classified(image, net.scan(image, e, region, near), e, classifier)


# Multiples of the die edge at which :func:`find` looks for dice whose pips the first scan took for
# dice (a pip is about a fifth of a die's edge across), when the first scan's dice are read less
# surely than PIP_DOUBT (mean confidence): on dice-d6 the coarser scan won on two photos, whose first
# scans read pips as dice at 0.29 and 0.31; first scans of dice at their own scale read at 0.8 and
# more on all but 7 photos, and there the coarser scans (a third of a photo's time) never won.
PIP_SCALES = (3.2, 5.0)
PIP_DOUBT = 0.8
# Mean confidence (:func:`_quality`) a scan at another scale needs when the guess found nothing.
SURE_ELSEWHERE = 0.6
# Scans read this much less surely than the surest are "about as sure" (mean confidence, 0-1).
SAME_QUALITY = 0.05
# Fractions of the die edge at which :func:`find` looks for dice when the first scan read groups of
# dice as dice; the smallest die edge (px) worth a scan (its pips would be about 2 px).
FINER_SCALES = (2.0, 3.0)
# The finer scans (4 and 9 times the first scan's pixels: most of a photo's time) are made only when
# the dice found are read less surely than this on average: dice at their own scale read at 0.6-0.97,
# groups of dice taken for one die at 0.3-0.5 (measured on dice-d6, see :func:`find`).
FINER_DOUBT = 0.8
_MIN_EDGE = 10.0
# Peaks per scan the classifier reads (the strongest first).
_MAX_PEAKS = 80


def _holds_as_pips(big: list[CnnDie], small: list[CnnDie], edge: float) -> bool:
    """Do the dice ``big`` (read at die edge ``edge``) hold the dice ``small`` of a finer scan as their
    pips? At least ``PIPS_HELD`` of the small ones lie within ``PIP_REACH`` edges of a big die's
    centre, and either there are more big dice than small ones (a classifier that refuses most pips
    leaves one or two of a photo's pips as "dice": seen on IMG_20191209_100722, 1 "die" against 5
    dice at the right scale) or the big dice that hold any hold 1.5 or more on average (a face shows
    3.5 pips on average; the classifier refuses some, so not every big die holds one). Dice of a
    finer scan taken as one die by a coarser one are fewer at the coarser scale and fail both."""
    if not big or not small:
        return False
    held = [[s for s in small if math.dist(s.xy, b.xy) < PIP_REACH * edge] for b in big]
    inside = len({id(s) for h in held for s in h})
    holding = sum(bool(h) for h in held)
    return inside >= PIPS_HELD * len(small) and (len(big) > len(small) or inside >= 1.5 * holding)


# Share of a finer scan's dice that must lie on a coarser scan's dice for them to be its pips.
PIPS_HELD = 0.7
# How far from a die's centre (in die edges) its pips are looked for: a d6's corner pips lie about
# 0.35-0.42 edge from the centre, and a coarse scan's centre (and edge) are off by up to about 0.1
# edge; a pip still lies on the die's face, whose half-diagonal is 0.71. (0.45 left IMG_20191209_100728
# read as two pips of one white die, its corner pip 0.49 edge from the coarse scan's centre.)
PIP_REACH = 0.55


def _quality(dice: list[CnnDie]) -> float:
    """How surely the classifier read a scan's dice: their mean p(die) x p(value), 0-1."""
    return float(np.mean([d.confidence for d in dice])) if dice else 0.0


def _classified(image: np.ndarray, dice: list[CnnDie], edge: float,
                classifier: DiceClassifier | None) -> list[CnnDie]:
    """The network's peaks read by ``classifier`` at die edge ``edge``: a peak the classifier calls
    "not a die" (p >= ``NOT_A_DIE``) is dropped; the others take its value and probabilities."""
    if classifier is None or not dice:
        return dice
    dice = sorted(dice, key=lambda d: -d.p_die)[:_MAX_PEAKS]
    probs = classifier.probabilities([classifier.crop_of(image, d.xy, edge) for d in dice])
    out = []
    for d, p in zip(dice, probs, strict=True):
        verdict = _verdict(p)
        if verdict.value is not None:
            v = verdict.value
            out.append(CnnDie(d.xy, v, verdict.p_die, verdict.probs[v - 1], d.edge, verdict.probs))
    return out


def classify_die(image: np.ndarray, centre: tuple[float, float], edge: float,
                 classifier: DiceClassifier | None = None) -> DieClass:
    """Is there a die centred at ``centre`` (x, y, px) of ``image`` (HxWx3 uint8 BGR), with an edge of
    about ``edge`` px, and how many pips does its top face show? (The crop classifier on
    :func:`die_crop`; meant for callers that found a die-like thing themselves, e.g. on a board.)

    ``value`` is None ("not a die") when the classifier gives that class at least ``NOT_A_DIE``.

    :raises DiceInputError: (a ``ValueError``) when ``edge`` is not positive or ``image`` is not HxWx3 uint8.
    :raises WeightsMissingError: (a ``FileNotFoundError``) when the classifier's weights file is missing.
    """
    if not edge > 0:
        raise DiceInputError(f"die edge {edge} px must be positive")
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise DiceInputError(f"expected an HxWx3 uint8 BGR image, got {image.shape} {image.dtype}")
    classifier = classifier or load_classifier()
    if classifier is None:
        raise WeightsMissingError(f"no dice classifier at {CLASSIFIER}: retrain with `make train-dice`")
    return _verdict(classifier.probabilities([classifier.crop_of(image, centre, edge)])[0])


def _verdict(p: np.ndarray) -> DieClass:
    """The :class:`DieClass` of one crop's 7 probabilities (0 = not a die, 1-6 = pips): not a die at
    ``NOT_A_DIE`` or more; ``probs`` are the six faces' given it is a die."""
    faces = tuple(float(v) for v in p[1:] / max(1e-9, 1.0 - p[0]))
    if p[0] >= NOT_A_DIE:
        return DieClass(None, float(p[0]), float(1.0 - p[0]), faces)
    v = int(np.argmax(p[1:]))
    return DieClass(v + 1, float(p[v + 1]), float(1.0 - p[0]), faces)
