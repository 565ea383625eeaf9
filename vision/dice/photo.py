"""Find dice in any photo and read the pips of each die's top face.

Two readers share this module. :func:`find_dice` / :func:`read_dice` use the small convolutional
network of :mod:`vision.dice.cnn` (trained on real photos, run through OpenCV's dnn) to find dice and
read their pips, on the image scaled so that a die edge is a fixed number of pixels; the die size for
that scaling, and the ``cocked`` status, come from the classical pipeline below, whose face reading also
joins the network's as a weighted vote (``CLASSICAL_JOIN``). Without the network's weights files the
classical pipeline reads alone. Held out by photo (trained on the odd-numbered dice-d6 photos, read on
the even ones): classical alone 82 %, network alone 90.9 %, joined 93.1 %, no die missed
(``python -m training.dice_cnn``).

The classical pipeline (no learned weights):

1. **Foreground.** The surface the dice lie on (tray, table, board) varies slowly; a median filter far
   larger than a die estimates it, and every pixel whose CIE-Lab colour differs from that estimate is
   a candidate die pixel (any die colour, light or dark).
2. **Scale.** The typical die size (pixels per edge) is the median size of the compact foreground blobs;
   everything later is measured in die edges, so the same code reads 12 px webcam dice and 60 px photos.
3. **Dice.** Blobs are cleaned with an opening at that scale (drops thin walls, lines, printing), and
   blobs larger than one die are split (touching dice) by k-means on their pixels.
4. **Pips.** Inside each die, a pip is a small round blob whose colour differs strongly from the local
   face colour (a median filter wider than a pip): white, black or coloured pips on any body.
   :mod:`vision.dice.faces` keeps the pips that form a d6 face (one square pip grid) and rejects
   squashed pips of side faces seen in perspective.
5. **Cocked.** :mod:`vision.dice.tilt`: a side face beside a foreshortened top face, its pips
   foreshortened too where they are large enough to tell (a flat die's top face is square to a
   camera above it, whatever side faces the lens shows).

Board-relative statuses (``on_bar``, ``wrong_half``, ``off_board``, ``on_checker``) need the board
geometry: see :func:`vision.dice.status.board_status`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.dice.blobs import PHOTO_WEIGHTS, blob_map, peaks
from vision.dice.cnn import CnnDie, DiceClassifier, DiceNet, load_classifier, load_net
from vision.dice.cnn import find as cnn_find
from vision.dice.faces import FaceRead, odd_size, read_face
from vision.dice.status import die_status
from vision.dice.tilt import PHOTO_COCK, Outline, is_cocked
from vision.errors import DiceInputError
from vision.reading import DieReading

__all__ = ["find_dice", "read_dice", "DiceFrame", "DieCandidate", "find_die_candidates", "DiceInputError"]


@dataclass(frozen=True)
class DieCandidate:
    """One foreground blob taken for a die: its mask in a crop of the working image.

    ``x0, y0``: top-left of the crop in working-image pixels; ``mask``: uint8 HxW (255 = die);
    ``size``: the estimated die edge in pixels; ``outline``: the mask is the die's own outline (from the
    surface model), not a disc drawn around a cluster of pips; ``whole``: for one part of a blob split
    into several dice, the whole blob's mask (same crop), else None.
    """

    x0: int
    y0: int
    mask: np.ndarray
    size: float
    outline: bool = True
    whole: np.ndarray | None = None


# Colour distance (CIE-Lab, OpenCV's 8-bit scaling) above which a pixel is not the surface.
_FOREGROUND_DELTA = 24.0
# Working resolution: larger images are shrunk so their long side is at most this (pixels).
_MAX_SIDE = 1280
# A blob is split into several dice only when it is larger than _SPLIT_AREA typical dice and is not
# one die seen whole (aspect below _ONE_ASPECT, solidity above _ONE_SOLIDITY).
_SPLIT_AREA = 1.6
# Short side (px) of the copy the scale vote works on.
_VOTE_SIDE = 360.0
# Trial die sizes in the scale vote (geometric series).
_VOTE_TRIALS = 12
# Lightness std (OpenCV Lab L units) inside a blob below which it is no die (no pips).
_TEXTURE_MIN = 12.0
# Blob strength (Lab units) of a pip found outside the surface model's dice.
_PIP_FIRST_MIN = 120.0
# Pips closer than this (die edges) belong to one die.
_PIP_LINK = 0.75
_ONE_ASPECT = 1.3
# Weight (times its confidence) of the classical face reading added to the network's six face
# probabilities when both read a die; 0 = the network's value alone.
CLASSICAL_JOIN = 0.35
_ONE_SOLIDITY = 0.9
# A die read within this many die edges of the doubling cube's centre is the cube.
CUBE_REACH = 0.5


def _check_image(image: np.ndarray) -> np.ndarray:
    if not isinstance(image, np.ndarray):
        raise DiceInputError(f"expected a numpy image, got {type(image).__name__}")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.ndim == 3 and image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.ndim != 3 or image.shape[2] != 3:
        raise DiceInputError(f"expected an HxWx3 BGR image, got shape {image.shape}")
    if image.dtype != np.uint8:
        if image.dtype.kind == "f" and image.size and float(np.nanmax(image)) <= 1.0:
            image = image * 255.0
        image = np.clip(np.nan_to_num(image), 0, 255).astype(np.uint8)
    if min(image.shape[:2]) < 16:
        raise DiceInputError(f"image of {image.shape[1]}x{image.shape[0]} pixels is too small to hold a die")
    return np.ascontiguousarray(image)


def foreground_distance(lab: np.ndarray, window: float | None = None) -> np.ndarray:
    """Per-pixel CIE-Lab distance from the slowly varying surface under the dice.

    :param lab: HxWx3 uint8 Lab image (OpenCV scaling).
    :param window: the surface median's window in pixels (default: 1/8 of the short side); it must be
        well above the die size or a die's middle counts as surface.
    :returns: HxW float32 distance (0 = surface colour).
    """
    d = lab.astype(np.float32) - _surface(lab, window).astype(np.float32)
    return np.sqrt((d * d).sum(axis=2))


def _surface(lab: np.ndarray, window: float | None) -> np.ndarray:
    """The surface estimate of :func:`foreground_distance`: a median over ``window`` px, taken on a
    copy a quarter the size and brought back to full size (uint8 HxWx3)."""
    h, w = lab.shape[:2]
    f = 4
    small = cv2.resize(lab, (max(1, w // f), max(1, h // f)), interpolation=cv2.INTER_AREA)
    k = odd_size((window or min(h, w) / 8.0) / f, 5)
    bg = cv2.medianBlur(small, min(k, 255))
    return np.asarray(cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR), np.uint8)


def _blobs(mask: np.ndarray, margin: int) -> tuple[int, np.ndarray, np.ndarray, tuple[int, int]]:
    """The 8-connected blobs of ``mask``, labelled in the box round its non-zero pixels widened by
    ``margin`` px (clipped to the mask): (count with the background, the box's labels, stats in the
    mask's px, the box's top-left x, y). The box starts on an even row and column: OpenCV labels
    8-connected blobs by 2 x 2 blocks, so the labels and their order are those of the whole mask
    (tests/vision/dice/test_photo.py), at the cost of the box alone."""
    bx, by, bw, bh = cv2.boundingRect(mask)
    if bw == 0:
        return 1, np.zeros((0, 0), np.int32), np.zeros((1, 5), np.int32), (0, 0)
    x0, y0 = max(0, bx - margin), max(0, by - margin)
    x0, y0 = x0 - x0 % 2, y0 - y0 % 2
    x1, y1 = min(mask.shape[1], bx + bw + margin), min(mask.shape[0], by + bh + margin)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask[y0:y1, x0:x1], connectivity=8)
    stats[1:, 0] += x0
    stats[1:, 1] += y0
    return n, labels, stats, (x0, y0)


def _fill_holes(mask: np.ndarray, max_area: float) -> np.ndarray:
    """Fill holes (pips, glare) smaller than ``max_area`` px²; a ring such as a tray wall stays open."""
    # (the labels alone and their areas counted: half the cost of OpenCV's labels with stats)
    n, labels = cv2.connectedComponents(255 - mask, connectivity=4)
    small = np.zeros(n, dtype=np.uint8)
    small[1:] = np.bincount(labels.ravel(), minlength=n)[1:] < max_area
    # A background component touching the image border is never a hole.
    for edge in (labels[0], labels[-1], labels[:, 0], labels[:, -1]):
        small[np.unique(edge)] = 0
    # (each pixel's component looked up as 0/255 bytes and joined to the mask: one gather, no
    # boolean index over the image)
    return np.asarray(mask | (small * 255).take(np.asarray(labels)), np.uint8)


def _compact_sides(mask: np.ndarray, light: np.ndarray | None = None,
                   within: tuple[float, float] = (0.0, np.inf)) -> np.ndarray:
    """Edge lengths (sqrt of area, px) of the blobs of ``mask`` that look like one die.

    A blob counts when its minimum-area rectangle is nearly square (aspect < 1.5; edge = sqrt(area)) or
    a row of up to three dice (aspect < 3.3; edge = the rectangle's short side), it fills most of it
    (> 70 %) and, when the lightness channel ``light`` is given, its inside is not uniform (a die shows
    pips; a lone pip of a white die, a hole or a stain does not). Only edges ``within`` (lo, hi) are
    returned (the costly texture test is made on those alone).
    """
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    sides = []
    for c in contours:
        area = cv2.contourArea(c)
        if area < 30:
            continue
        (_, _), (rw, rh), _ = cv2.minAreaRect(c)
        if min(rw, rh) <= 0 or area / (rw * rh) < 0.7:
            continue
        aspect = max(rw, rh) / min(rw, rh)
        # one die, or a row of two or three touching dice (counted by their common edge)
        side = np.sqrt(area) if aspect <= 1.5 else min(rw, rh) if aspect <= 3.3 else 0.0
        if side <= 0 or not within[0] <= side <= within[1]:
            continue
        if light is not None and not _textured(c, light, side):
            continue
        sides.append(side)
    return np.array(sides, dtype=np.float64)


def _textured(contour: np.ndarray, light: np.ndarray, side: float) -> bool:
    x, y, w, h = cv2.boundingRect(contour)
    blob = np.zeros((h, w), np.uint8)
    cv2.drawContours(blob, [contour], -1, 255, thickness=cv2.FILLED, offset=(-x, -y))
    core = cv2.distanceTransform(blob, cv2.DIST_L2, 3) > max(1.0, 0.15 * side)
    vals = light[y : y + h, x : x + w][core]
    return bool(vals.size >= 4 and float(vals.std()) >= _TEXTURE_MIN)


def _open(mask: np.ndarray, size: float, dist: np.ndarray | None = None) -> np.ndarray:
    """Opening of ``mask`` by a disc of radius 0.3 ``size``, through two distance transforms (linear
    time whatever the radius, unlike a large structuring element). ``dist``: the mask's own distance
    transform when already computed."""
    r = max(1.0, size * 0.3)
    if dist is None:
        dist = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
    # (the float32 distances compared with r as float32, as numpy compares them, in OpenCV's calls:
    # 0/255 bytes and the box of what is left without passes over the whole mask)
    rf = float(np.float32(r))
    eroded = cv2.compare(dist, rf, cv2.CMP_GT)  # type: ignore[call-overload]
    out = np.zeros(mask.shape, np.uint8)
    bx, by, bw, bh = cv2.boundingRect(eroded)
    if bw == 0:
        return out
    # the second transform only round what is left, group by group (:func:`_groups`): a pixel
    # further than r from a group's box takes nothing from it, and a chamfer path to its nearest
    # pixel runs inside the box the two span (so the distances that reach r are the same)
    m = int(math.ceil(r)) + 1
    h, w = mask.shape
    for gy0, gy1, gx0, gx1 in _groups(eroded[by : by + bh, bx : bx + bw] > 0, by, bx, 2 * m):
        y0, y1, x0, x1 = max(0, gy0 - m), min(h, gy1 + m), max(0, gx0 - m), min(w, gx1 + m)
        back = cv2.distanceTransform(cv2.bitwise_not(eroded[y0:y1, x0:x1]), cv2.DIST_L2, 5)
        near = cv2.compare(back, rf, cv2.CMP_LE)  # type: ignore[call-overload]
        cv2.bitwise_or(out[y0:y1, x0:x1], near, dst=out[y0:y1, x0:x1])
    return out


def _groups(on: np.ndarray, y0: int, x0: int, gap: int) -> list[tuple[int, int, int, int]]:
    """Boxes (y0, y1, x0, x1, offset by ``y0``, ``x0``) that hold every True pixel of ``on``: its
    rows, or else its columns, cut where more than ``gap`` of them in a row are empty, each part
    cut again the same way (a recursive XY cut), until one part is left."""
    out: list[tuple[int, int, int, int]] = []
    todo = [(on, y0, x0)]
    while todo:
        part, py, px = todo.pop()
        rows, cols = _runs(np.asarray(part.any(axis=1)), gap), _runs(np.asarray(part.any(axis=0)), gap)
        if len(rows) > 1:
            todo.extend((part[a:b], py + a, px) for a, b in rows)
        elif len(cols) > 1:
            todo.extend((part[:, a:b], py, px + a) for a, b in cols)
        elif rows:
            out.append((py + rows[0][0], py + rows[0][1], px + cols[0][0], px + cols[0][1]))
    return out


def _runs(occupied: np.ndarray, gap: int) -> list[tuple[int, int]]:
    """[start, end) of the runs of True in a 1-D bool array, runs at most ``gap`` apart joined."""
    idx = np.flatnonzero(occupied)
    if not idx.size:
        return []
    cut = np.flatnonzero(np.diff(idx) > gap)
    starts = np.concatenate(([idx[0]], idx[cut + 1]))
    ends = np.concatenate((idx[cut], [idx[-1]])) + 1
    return list(zip(starts.tolist(), ends.tolist(), strict=True))


def estimate_die_size(mask: np.ndarray, light: np.ndarray | None = None) -> float | None:
    """The die edge (pixels) that best explains a foreground mask, or None when nothing looks like a die.

    Scale selection: for each trial edge ``s`` (a geometric series from 1/90 to 1/3 of the image's short
    side) the mask is opened with a disc of radius 0.3 s, which removes anything thinner than a die (tray
    walls, lines, printing, and bridges between touching dice); the trial that leaves the most compact
    square blobs of edge 0.75-1.5 s wins, and the median edge of those blobs is the estimate.
    """
    found = _scale_vote(mask, light)
    return None if found is None else found[0]


def _scale_vote(mask: np.ndarray, light: np.ndarray | None,
                shrunk: float = 1.0) -> tuple[float, float] | None:
    """(die edge, support) for :func:`estimate_die_size`; support = the area of the die-like blobs.

    Voted on a copy shrunk to about _VOTE_SIDE px on the short side (the openings are the costly part).
    ``shrunk``: the mask is already a copy this many times smaller than the image the result is for.
    """
    own = max(1.0, min(mask.shape[:2]) / _VOTE_SIDE)
    f = own * shrunk
    if own > 1.0:
        h, w = mask.shape[:2]
        size = (max(1, round(w / own)), max(1, round(h / own)))
        mask = (cv2.resize(mask, size, interpolation=cv2.INTER_AREA) > 127).astype(np.uint8) * 255
        if light is not None:
            light = cv2.resize(light, size, interpolation=cv2.INTER_AREA)
    short = min(mask.shape[:2])
    best: tuple[int, float, float] | None = None
    dist = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
    deepest = float(dist.max())
    for s in np.geomspace(max(8.0 / f, short / 90.0), max(9.0 / f, short / 3.0), _VOTE_TRIALS):
        if deepest <= max(1.0, s * 0.3):
            break  # the opening leaves nothing at this trial and every larger one
        ok = _compact_sides(_open(mask, s, dist), light, (0.75 * s, 1.5 * s))
        if len(ok) and (best is None or len(ok) >= best[0]):
            best = (len(ok), float(np.median(ok)) * f, float((ok**2).sum()) * f * f)
    return None if best is None else (best[1], best[2])


def _working(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The image at working resolution and its scale (working px per input px)."""
    h, w = image.shape[:2]
    scale = min(1.0, _MAX_SIDE / max(h, w))
    if scale == 1.0:
        return image, 1.0
    return cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA), scale


def _surface_mask(
    lab: np.ndarray, region: np.ndarray | None, window: float, vote: bool = True, shrunk: float = 1.0,
) -> tuple[np.ndarray, tuple[float, float] | None]:
    """Foreground mask (uint8 0/255, small holes filled) and (die size, support) it shows, or None
    (always None when ``vote`` is False); ``shrunk``: as in :func:`_scale_vote`."""
    mask = _foreground(lab, window)
    if region is not None:
        mask &= region
    cross = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, cross), np.uint8)
    mask = _fill_holes(mask, (min(mask.shape) / 12.0) ** 2)
    return mask, _scale_vote(mask, lab[:, :, 0], shrunk) if vote else None


def _foreground(lab: np.ndarray, window: float) -> np.ndarray:
    """uint8 0/255: where :func:`foreground_distance` exceeds ``_FOREGROUND_DELTA``, compared as
    squared distances in whole numbers: each channel's difference squared through a table, the
    three summed (exact: at most 3 x 255^2; a sum past 65535 saturates, still far over the
    threshold) and compared, all in OpenCV's per-pixel calls rather than float arrays."""
    d = cv2.absdiff(lab, _surface(lab, window))
    sq = cv2.transform(cv2.LUT(d, _SQUARES), _CHANNEL_SUM)
    return np.asarray(cv2.compare(sq, _FOREGROUND_DELTA**2, cv2.CMP_GT), np.uint8)  # type: ignore[call-overload]


# The square of each byte value (uint16), and the 1x3 matrix that sums a pixel's three channels.
_SQUARES = (np.arange(256, dtype=np.uint16) ** 2).astype(np.uint16)
_CHANNEL_SUM = np.ones((1, 3), np.float32)


@dataclass(frozen=True)
class _Work:
    """One image as every step reads it: at working resolution (``scale`` working px per input px),
    in Lab, with the region (bool, working px; None = everywhere). Made once per image."""

    bgr: np.ndarray
    lab: np.ndarray
    scale: float
    region: np.ndarray | None


def _work_of(image: np.ndarray, region_mask: np.ndarray | None) -> _Work:
    work, scale = _working(image)
    region = None
    if region_mask is not None:
        rm = np.asarray(region_mask)
        if rm.shape[:2] != image.shape[:2]:
            raise DiceInputError(f"region_mask shape {rm.shape} does not match the image {image.shape[:2]}")
        region = cv2.resize((rm > 0).astype(np.uint8), (work.shape[1], work.shape[0]),
                            interpolation=cv2.INTER_NEAREST) > 0
    return _Work(work, cv2.cvtColor(work, cv2.COLOR_BGR2LAB), scale, region)


def find_die_candidates(
    image: np.ndarray, region_mask: np.ndarray | None = None, die_size: float | None = None
) -> tuple[list[DieCandidate], float]:
    """Foreground blobs taken for single dice, and the working-image scale (working px per input px).

    :param image: HxWx3 uint8 BGR.
    :param region_mask: optional HxW mask (non-zero = look here) in input pixels.
    :param die_size: the die edge in input pixels when the caller knows it (a calibrated board); None
        = estimate it from the image.
    """
    w = _work_of(image, region_mask)
    return _find_candidates(w, die_size)[0], w.scale


def _find_candidates(w: _Work, die_size: float | None) -> tuple[list[DieCandidate], np.ndarray | None]:
    """:func:`find_die_candidates` on a prepared image, and the foreground mask they were cut from
    (working px, uint8 0/255; None when nothing looks like a die)."""
    lab = w.lab
    rm = None if w.region is None else w.region.astype(np.uint8) * 255
    short = min(lab.shape[:2])
    if die_size is not None:
        size = float(die_size) * w.scale
        if not size > 2.0:
            raise DiceInputError(f"die_size {die_size} px is too small to read pips")
        mask, _ = _surface_mask(lab, rm, max(short / 8.0, 3.0 * size), vote=False)
        return _candidates(w.bgr, mask, size), mask
    # A surface window of 1/8 of the frame follows the lighting and the tray's walls, but a die larger
    # than half that window passes for surface in its middle: when a window of 1/3 of the frame
    # explains more die area, the dice are large and the window is made two dice wide.
    # (the windows are compared on a copy the size the scale vote works at; only the chosen one's
    # mask is made at full size, for the candidates)
    small, rs, k = _vote_copy(lab, rm)
    vote = _small_vote(small, rs, short / 8.0, k)
    wide = _small_vote(small, rs, short / 3.0, k)
    window = short / 8.0
    if wide is not None and (vote is None or wide[1] > 1.5 * vote[1]):
        if 2.0 * wide[0] > short / 3.0:
            window, vote = short / 3.0, wide
        else:
            window = max(short / 8.0, 2.0 * wide[0])
            vote = _small_vote(small, rs, window, k) or wide
    if vote is None:
        return [], None
    mask, _ = _surface_mask(lab, rm, window, vote=False)
    return _candidates(w.bgr, mask, vote[0]), mask


def _vote_copy(lab: np.ndarray, region: np.ndarray | None) -> tuple[np.ndarray, np.ndarray | None, float]:
    """The Lab image and region mask shrunk to about ``_VOTE_SIDE`` px on the short side (as they
    are when smaller), and how many times smaller they are."""
    k = max(1.0, min(lab.shape[:2]) / _VOTE_SIDE)
    if k == 1.0:
        return lab, region, 1.0
    h, w = lab.shape[:2]
    size = (max(1, round(w / k)), max(1, round(h / k)))
    small = cv2.resize(lab, size, interpolation=cv2.INTER_AREA)
    rs = None if region is None else cv2.resize(region, size, interpolation=cv2.INTER_NEAREST)
    return small, rs, k


def _small_vote(small: np.ndarray, region: np.ndarray | None, window: float,
                k: float) -> tuple[float, float] | None:
    """The (die edge, support) the foreground of a surface ``window`` px wide shows, voted on the
    copy of :func:`_vote_copy` (``k`` times smaller), in the full image's px."""
    return _surface_mask(small, region, window / k, shrunk=k)[1]


def _candidates(work: np.ndarray, mask: np.ndarray, size: float) -> list[DieCandidate]:
    """The die blobs of a foreground mask at a known die size (opened, touching dice split)."""
    opened = _open(mask, size)
    pad = max(2, int(size * 0.1))
    # (each blob's crop, its box widened by pad, lies in the labelled box)
    n, labels, stats, (ox, oy) = _blobs(opened, pad)
    cands: list[DieCandidate] = []
    one = size * size
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        if area < 0.35 * one or max(bw, bh) > 8 * size:
            continue
        x0, y0 = max(0, x - pad), max(0, y - pad)
        x1, y1 = min(work.shape[1], x + bw + pad), min(work.shape[0], y + bh + pad)
        sub = (labels[y0 - oy : y1 - oy, x0 - ox : x1 - ox] == i).astype(np.uint8) * 255
        parts = [sub]
        if area > _SPLIT_AREA * one:
            if not _one_die(sub):
                parts = _split(sub, max(2, int(round(area / (1.2 * one)))))
            elif area > 2.5 * one:
                continue  # one compact thing far larger than a die (a checker, a cup, a coin)
        for part in parts:
            own = float(np.sqrt(max(1, int(np.count_nonzero(part)))))
            whole = sub if len(parts) > 1 else None
            cands.append(DieCandidate(x0, y0, part, float(np.clip(own, 0.6 * size, 2.0 * size)), True, whole))
    return cands


def _one_die(mask: np.ndarray) -> bool:
    """A blob is one die (of any size) when it is nearly square and convex."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    c = max(contours, key=cv2.contourArea)
    area = cv2.contourArea(c)
    (_, _), (rw, rh), _ = cv2.minAreaRect(c)
    hull = cv2.contourArea(cv2.convexHull(c))
    return bool(min(rw, rh) > 0 and max(rw, rh) / min(rw, rh) < _ONE_ASPECT and area >= _ONE_SOLIDITY * hull)


def _split(mask: np.ndarray, k: int) -> list[np.ndarray]:
    """Split a blob of ``k`` touching dice by k-means on its pixel coordinates."""
    ys, xs = np.nonzero(mask)
    pts = np.stack([xs, ys], axis=1).astype(np.float32)
    k = min(k, len(pts))
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.5)
    # k-means++ seeds from OpenCV's global generator: seeded here (0: the state a process starts
    # with), a photo's dice do not depend on what ran before in the process
    cv2.setRNGSeed(0)
    _, lab, _ = cv2.kmeans(pts, k, None, crit, 3, cv2.KMEANS_PP_CENTERS)  # type: ignore[call-overload]
    out = []
    for j in range(k):
        m = np.zeros_like(mask)
        sel = lab.ravel() == j
        m[ys[sel], xs[sel]] = 255
        out.append(m)
    return out


def _pip_first_candidates(
    lab: np.ndarray, cands: list[DieCandidate], region: np.ndarray | None
) -> list[DieCandidate]:
    """Dice the surface model missed (a white die on a white tray): clusters of strong pips outside
    every candidate found so far, each taken as a die centred on its pips.

    Pips are peaks of :func:`vision.dice.blobs.blob_map` at the typical pip scale; pips closer than
    0.6 die edges join one cluster (single linkage); a cluster becomes a round mask of radius 0.6 die
    edges around its mean.
    """
    size = float(np.median([c.size for c in cands]))
    h, w = lab.shape[:2]
    covered = np.zeros((h, w), np.uint8)
    for c in cands:
        ch, cw = c.mask.shape
        covered[c.y0 : c.y0 + ch, c.x0 : c.x0 + cw] |= c.mask
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (odd_size(0.5 * size),) * 2)
    covered = np.asarray(cv2.dilate(covered, disc), np.uint8)
    resp = blob_map(lab.astype(np.float32), max(0.7, 0.06 * size), PHOTO_WEIGHTS).strength
    free = covered == 0
    if region is not None:
        free &= region
    ys, xs = peaks(resp, odd_size(size * 0.14), _PIP_FIRST_MIN, free)
    if len(xs) == 0 or len(xs) > 400:
        return []
    pts = np.stack([xs, ys], axis=1).astype(np.float64)
    # single-linkage clustering by union-find (few points: quadratic is fine)
    parent = list(range(len(pts)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    d2 = ((pts[:, None, :] - pts[None, :, :]) ** 2).sum(axis=2)
    for i, j in np.argwhere(d2 < (_PIP_LINK * size) ** 2):
        if i < j:
            parent[root(int(i))] = root(int(j))
    groups: dict[int, list[int]] = {}
    for i in range(len(pts)):
        groups.setdefault(root(i), []).append(i)
    out = []
    rad = int(round(0.6 * size))
    for members in groups.values():
        if len(members) > 6:
            continue
        cx, cy = pts[members].mean(axis=0)
        x0, y0 = int(cx) - rad - 1, int(cy) - rad - 1
        if x0 < 0 or y0 < 0 or x0 + 2 * rad + 3 > w or y0 + 2 * rad + 3 > h:
            continue
        m = np.zeros((2 * rad + 3, 2 * rad + 3), np.uint8)
        cv2.circle(m, (int(round(cx)) - x0, int(round(cy)) - y0), rad, 255, -1)
        out.append(DieCandidate(x0, y0, m, size, outline=False))
    return out


@dataclass(frozen=True)
class DiceFrame:
    """All dice of one image and the typical die edge (input pixels; 0.0 when no die was seen)."""

    dice: tuple[DieReading, ...]
    die_size: float


def _rejoin(
    faces: list[tuple[DieCandidate, FaceRead | None]], lab: np.ndarray
) -> list[tuple[DieCandidate, FaceRead | None]]:
    """A blob split into several dice where only one part shows pips was one die with its side faces
    in view (a cocked die, or one seen obliquely): read the whole blob as that die instead."""
    groups: dict[int, list[int]] = {}
    for i, (c, _) in enumerate(faces):
        if c.whole is not None:
            groups.setdefault(id(c.whole), []).append(i)
    out = list(faces)
    for members in groups.values():
        read = [i for i in members if faces[i][1] is not None]
        if len(read) != 1:
            continue
        c = faces[read[0]][0]
        assert c.whole is not None
        h, w = c.whole.shape
        whole = DieCandidate(c.x0, c.y0, c.whole, c.size, True, None)
        face = read_face(lab[c.y0 : c.y0 + h, c.x0 : c.x0 + w], c.whole, c.size, True)
        first = faces[read[0]][1]
        if face is not None and first is not None and face.value == first.value:
            out[read[0]] = (whole, face)
    return out


def find_dice(
    image: np.ndarray, region_mask: np.ndarray | None = None, die_size: float | None = None,
    cube_xy: tuple[float, float] | None = None,
) -> list[DieReading]:
    """Every die in a photo: top-face pips, pixel centre, ``flat``/``cocked`` status, confidence.

    :param image: HxWx3 uint8 BGR image (HxW grey and HxWx4 BGRA are converted; float images in 0-1
        or 0-255 are scaled). Any size from 16x16 up; images with a side above 1280 px are read at a
        reduced size and the result is mapped back.
    :param region_mask: optional HxW array, non-zero where dice may be looked for (e.g. the board
        and its surround); None = the whole image.
    :param die_size: the die edge in input pixels when known (a board reader knows it from the board:
        a die is about 0.6 checker diameters); None = estimated from the image. Giving it avoids taking
        checkers for dice and skips the costliest step.
    :param cube_xy: the doubling cube's centre in input pixels, when known (the board reader finds it,
        :mod:`vision.cube`): a block of about a die's size whose figures a network taught on dice may
        read as pips; a "die" centred on it (within ``CUBE_REACH`` die edges) is the cube.
    :returns: one :class:`~vision.reading.DieReading` per die found, ``image_xy`` in input pixels (the
        centre of the top face), ``status`` :attr:`DieStatus.FLAT` or :attr:`DieStatus.COCKED`,
        ``confidence`` 0-1, sorted left to right. Blobs with no readable d6 face are dropped.
    :raises DiceInputError: (a ``ValueError``) for an array that is not an image, or a region_mask of
        another size.

    The board statuses (``on_bar`` ...) need the board: :func:`vision.dice.status.apply_board_status`.
    """
    return list(read_dice(image, region_mask, die_size, cube_xy).dice)


def read_dice(
    image: np.ndarray, region_mask: np.ndarray | None = None, die_size: float | None = None,
    cube_xy: tuple[float, float] | None = None,
) -> DiceFrame:
    """:func:`find_dice` plus the typical die edge in input pixels (for
    :func:`vision.dice.status.board_status`). Same parameters and errors."""
    frame = read_dice_with(image, region_mask, die_size, net=load_net(), classifier=load_classifier())
    if cube_xy is None or not frame.die_size > 0:
        return frame
    # a die beside the cube lies at least half the cube's side and half its own edge from its centre
    kept = tuple(d for d in frame.dice if d.image_xy is None
                 or math.dist(d.image_xy, cube_xy) >= CUBE_REACH * frame.die_size)
    return DiceFrame(kept, frame.die_size)


def read_dice_with(
    image: np.ndarray, region_mask: np.ndarray | None = None, die_size: float | None = None,
    net: DiceNet | None = None, classifier: DiceClassifier | None = None,
) -> DiceFrame:
    """:func:`read_dice` with a given network (:mod:`vision.dice.cnn`) or, when ``net`` is None, the
    classical reading alone. Used by the training scripts to score a model before it is shipped."""
    img = _check_image(image)
    w = _work_of(img, region_mask)
    if net is not None:
        # the network finds dice itself: the classical candidates give the die size and cocked status
        cands, size, fg = _sized_candidates(w, die_size, pip_first=False)
        return _read_with_net(img, w, net, classifier, cands, size, region_mask, die_size, fg)
    reads, size = read_candidates(w, die_size)
    out: list[DieReading] = []
    for c, face in reads:
        if face is None:
            continue
        cx, cy = face.centre
        xy = ((c.x0 + cx) / w.scale, (c.y0 + cy) / w.scale)
        out.append(DieReading(face.value, xy, die_status(_cocked(w.lab, c, face)), face.confidence))
    out.sort(key=lambda d: d.image_xy or (0.0, 0.0))
    return DiceFrame(tuple(out), size)


def _read_with_net(
    img: np.ndarray, w: _Work, net: DiceNet, classifier: DiceClassifier | None,
    cands: list[DieCandidate], size: float, region_mask: np.ndarray | None, die_size: float | None,
    fg: np.ndarray | None = None,
) -> DiceFrame:
    """Dice found and read by the network (:func:`vision.dice.cnn.find`) at the classical die size;
    the status is judged on the nearest classical face (:func:`_cocked`). Only the candidates that
    may hold such a face are read (:func:`_near_found`). ``fg``: the foreground mask (working px)
    the candidates came from: a die differs from the surface under it (its body, else its pips),
    so the network looks for dice only near it (``near`` of :func:`vision.dice.cnn.find`)."""
    h, wd = img.shape[:2]
    edge = float(die_size) if die_size else size if size > 0 else min(h, wd) / 15.0
    region = None if region_mask is None else np.asarray(region_mask) > 0
    where = None if fg is None else fg > 0
    found, edge = cnn_find(img, edge, net, classifier, region, trust_edge=die_size is not None, near=where)
    reads = _read_faces(w.lab, _near_found(cands, w.scale, found))
    faces = [((c.x0 + f.centre[0]) / w.scale, (c.y0 + f.centre[1]) / w.scale, f, c)
             for c, f in reads if f is not None]
    out = []
    for d in found:
        # the classical face of this die: the nearest within 0.75 edge (a cocked die's box centre, which
        # the network was taught, lies off its top face's centre)
        order = sorted((math.dist(d.xy, (x, y)), i) for i, (x, y, _, _) in enumerate(faces)
                       if math.dist(d.xy, (x, y)) < 0.75 * d.edge)
        near = [faces[i][2] for _, i in order]
        value, confidence = d.value, d.confidence
        if near and d.probs and CLASSICAL_JOIN > 0:
            q = np.array(d.probs, np.float64)
            q[near[0].value - 1] += CLASSICAL_JOIN * near[0].confidence
            q /= q.sum()
            value = int(np.argmax(q)) + 1
            confidence = d.p_die * float(q[value - 1])
        cocked = bool(order) and _cocked(w.lab, faces[order[0][1]][3], near[0])
        out.append(DieReading(value, d.xy, die_status(cocked), float(np.clip(confidence, 0.0, 1.0))))
    out.sort(key=lambda d: d.image_xy or (0.0, 0.0))
    return DiceFrame(tuple(out), edge)


def _cocked(lab: np.ndarray, c: DieCandidate, face: FaceRead) -> bool:
    """Is the die of candidate ``c`` with top face ``face`` cocked (:mod:`vision.dice.tilt`; RULES.md
    B15, N10: a re-throw)? ``lab``: the working image in Lab. A candidate that is not the die's own
    outline (a disc round a cluster of pips) tells nothing: flat."""
    if not c.outline:
        return False
    h, w = c.mask.shape
    outline = Outline(lab[c.y0 : c.y0 + h, c.x0 : c.x0 + w], c.mask)
    return is_cocked(face.centre, face.pips, c.size, PHOTO_COCK, outline)


def read_candidates(
    w: _Work, die_size: float | None = None, pip_first: bool = True,
) -> tuple[list[tuple[DieCandidate, FaceRead | None]], float]:
    """Every die candidate of a prepared image with its classical face reading (None: no d6 face)
    and the typical die edge in input pixels. ``pip_first``: also look for dice by their pips
    outside the foreground blobs."""
    cands, size, _ = _sized_candidates(w, die_size, pip_first)
    return _read_faces(w.lab, cands), size


def _sized_candidates(w: _Work, die_size: float | None,
                      pip_first: bool) -> tuple[list[DieCandidate], float, np.ndarray | None]:
    """The candidates of :func:`read_candidates`, unread, the typical die edge (input px) and the
    foreground mask they came from (:func:`_find_candidates`)."""
    cands, mask = _find_candidates(w, die_size)
    if not cands:
        return [], float(die_size or 0.0), mask
    if pip_first:
        cands = cands + _pip_first_candidates(w.lab, cands, w.region)
    return cands, float(np.median([c.size for c in cands])) / w.scale, mask


def _read_faces(lab: np.ndarray, cands: list[DieCandidate]) -> list[tuple[DieCandidate, FaceRead | None]]:
    """Each candidate with its classical face reading (None: no d6 face); blobs split into dice
    where one part alone shows pips rejoined (:func:`_rejoin`)."""
    faces: list[tuple[DieCandidate, FaceRead | None]] = []
    for c in cands:
        h, wd = c.mask.shape
        faces.append((c, read_face(lab[c.y0 : c.y0 + h, c.x0 : c.x0 + wd], c.mask, c.size, c.outline)))
    return _rejoin(faces, lab)


def _near_found(cands: list[DieCandidate], scale: float, found: list[CnnDie]) -> list[DieCandidate]:
    """The candidates whose crop reaches within 0.75 die edges of a die the network found (a face
    read in a crop lies inside it, so no other candidate's face can be that die's), with every
    other part of a blob split into dice when one part does (:func:`_rejoin` reads them together);
    in their order. ``scale``: working px per input px."""
    near: set[int] = set()
    for c in cands:
        h, wd = c.mask.shape
        x0, y0, x1, y1 = c.x0 / scale, c.y0 / scale, (c.x0 + wd) / scale, (c.y0 + h) / scale
        for d in found:
            dx = max(x0 - d.xy[0], 0.0, d.xy[0] - x1)
            dy = max(y0 - d.xy[1], 0.0, d.xy[1] - y1)
            if math.hypot(dx, dy) < 0.75 * d.edge:
                near.add(id(c) if c.whole is None else id(c.whole))
                break
    return [c for c in cands if (id(c) if c.whole is None else id(c.whole)) in near]
