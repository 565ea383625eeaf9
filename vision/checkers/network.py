"""A learned per-point stack counter: each point's strip of the rectified field in, its count out.

The classical counter (:mod:`vision.checkers.stacks`) is a chain of thresholds chosen by hand; this
one's parameters come from data (``python -m training.stacks_cnn``: randomised renders and the
labelled real photos; weights ``vision/checkers/assets/stacks_cnn.onnx``, run by OpenCV's dnn).

A point's *strip* is the part of the rectified field (:class:`~vision.board.view.FieldView`) over its
column: ``STRIP_SPAN`` point widths across and ``STRIP_DEPTH`` deep from the point's base toward the
middle (cut at the middle: beyond it lies the other row), sampled every ``STRIP_STEP`` rectified
pixels so a checker is always about the same size in it, the base at the strip's first row (a
bottom point's strip is turned over). Colours are standardised by the field's own mean and spread,
so the network sees a point against the board it lies on. Output: ``N_COUNTS`` logits, the stack's
count 0 to ``N_COUNTS - 1``. Which player's checkers they are is left to the frame's two-colour
split (:func:`~vision.checkers.stacks.name_colours`): one strip alone cannot tell "the lighter set".

:func:`refine` is the reader's one hook: where the network is sure and the classical counter is not,
the network's count is taken, and where the two agree on checkers the classical counter only half
saw (see its docstring for the rules and why).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.board.geometry import POINT_PX, BoardGeometry
from vision.board.view import FieldView
from vision.checkers.stacks import StackReading, drop_third_colour

__all__ = [
    "N_COUNTS", "STRIP_DEPTH", "STRIP_H", "STRIP_SPAN", "STRIP_STEP", "STRIP_W", "WEIGHTS", "StackNet",
    "load_net", "point_strips", "refine",
]

WEIGHTS = Path(__file__).with_name("assets") / "stacks_cnn.onnx"
# Strip size in samples (width across the point, height along it) and its extent in point widths.
STRIP_W, STRIP_H = 16, 64
STRIP_SPAN = 1.5
STRIP_STEP = STRIP_SPAN * POINT_PX / STRIP_W
STRIP_DEPTH = STRIP_H * STRIP_STEP / POINT_PX
# Counts 0..15: a set has 15 checkers, so one point never holds more.
N_COUNTS = 16
# The network's count replaces the classical one when it gives it at least this probability and
# the classical counter's confidence is below UNSURE (see refine): the rule that counted every board
# family best on its held-out counts (python -m training.stacks_lobo).
SURE = 0.8
UNSURE = 0.6


def point_strips(view: FieldView, geom: BoardGeometry, points: Sequence[int] | None = None) -> np.ndarray:
    """The 24 points' strips, float32 (24, 3, STRIP_H, STRIP_W), in :func:`count_stacks` order (12
    top then 12 bottom, left to right), standardised by the field's per-channel mean and spread.
    ``points``: those points' strips alone (indices into that order), (N, 3, STRIP_H, STRIP_W): the
    same values (each strip sample is interpolated on its own; the field's mean and spread are the
    whole field's)."""
    field = view.exposed
    # shrink once so the strips' sampling does not alias (one strip sample = STRIP_STEP rect px)
    k = 1.0 / STRIP_STEP
    small = cv2.resize(field, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
    height = float(geom.size[1])
    cols = np.asarray(geom.columns, dtype=np.float32)
    across = (np.arange(STRIP_W, dtype=np.float32) + 0.5 - 0.5 * STRIP_W) * STRIP_STEP
    depth = (np.arange(STRIP_H, dtype=np.float32) + 0.5) * STRIP_STEP
    map_x = np.broadcast_to(cols[:, None, None] + across[None, None, :], (12, STRIP_H, STRIP_W))
    top_y = np.broadcast_to(depth[None, :, None], (12, STRIP_H, STRIP_W))
    # rect px -> small px: a sample's centre, pixel centres at +0.5
    mx = (np.concatenate([map_x, map_x]) * k - 0.5).astype(np.float32)
    my = (np.concatenate([top_y, height - top_y]) * k - 0.5).astype(np.float32)
    if points is not None:
        mx, my = mx[list(points)], my[list(points)]
    n = len(mx)
    if not n:
        return np.zeros((0, 3, STRIP_H, STRIP_W), np.float32)
    rows = (n * STRIP_H, STRIP_W)
    out = cv2.remap(small, mx.reshape(rows), my.reshape(rows), cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_REPLICATE)
    mean, std = cv2.meanStdDev(small)
    # channel first before the arithmetic (a channel's mean and spread then span whole planes, not
    # every pixel's three values): the same values, in place
    planes = out.reshape(n, STRIP_H, STRIP_W, 3).transpose(0, 3, 1, 2)
    strips = np.ascontiguousarray(planes, dtype=np.float32)
    strips -= mean.astype(np.float32).reshape(1, 3, 1, 1)
    strips /= std.astype(np.float32).reshape(1, 3, 1, 1) + 8.0
    # past the field's middle lies the other row's point: blanked, as is the field's outside
    strips[:, :, depth > 0.5 * height, :] = 0.0
    return strips


class StackNet:
    """The shipped counter: :meth:`probabilities` of each count for a batch of strips; with
    ``mirror`` each strip is read as it is and mirrored left-right (a point's stack reads the same
    either way), and the two readings' probabilities are averaged."""

    def __init__(self, path: Path = WEIGHTS, mirror: bool = True) -> None:
        self.path = path
        self.mirror = mirror
        self._net = cv2.dnn.readNetFromONNX(str(path))
        self._lock = threading.Lock()  # one cv2.dnn.Net is not safe to share between threads

    def probabilities(self, strips: np.ndarray) -> np.ndarray:
        """float32 (N, N_COUNTS) count probabilities for strips float32 (N, 3, STRIP_H, STRIP_W)."""
        n = len(strips)
        if not n:  # cv2.dnn fails on an empty batch
            return np.zeros((0, N_COUNTS), np.float32)
        batch = np.concatenate([strips, strips[..., ::-1]]) if self.mirror else strips
        with self._lock:
            self._net.setInput(np.ascontiguousarray(batch, dtype=np.float32))
            logits = np.asarray(self._net.forward(), dtype=np.float64).reshape(len(batch), N_COUNTS)
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        p = e / e.sum(axis=1, keepdims=True)
        if len(batch) > n:
            p = 0.5 * (p[:n] + p[n:])
        return p.astype(np.float32)


@lru_cache(maxsize=4)
def load_net(path: Path = WEIGHTS) -> StackNet | None:
    """The shipped network, or None when its file is absent or unreadable (the reader then keeps the
    classical counts)."""
    try:
        return StackNet(path)
    except (cv2.error, OSError):
        return None


def _colour_at(view: FieldView, geom: BoardGeometry, s: StackReading, count: int,
               radius: float) -> tuple[tuple[float, float, float], tuple[tuple[float, float], ...]]:
    """Median Lab colour of the inner discs of a ``count``-checker column on ``s``'s point, and the
    discs' centres (rectified px), for a stack the classical counter did not see."""
    lab = view.lab
    height = geom.size[1]
    x = float(geom.columns[s.column])
    d = 2.0 * radius
    centres = []
    for i in range(min(count, 5)):
        depth = (i + 0.5) * d
        centres.append((x, depth if s.top else height - depth))
    k = max(1, int(round(0.5 * radius)))
    samples = [lab[max(0, int(y) - k): int(y) + k + 1, max(0, int(cx) - k): int(cx) + k + 1].reshape(-1, 3)
               for cx, y in centres]
    med = np.median(np.concatenate(samples), axis=0)
    return (float(med[0]), float(med[1]), float(med[2])), tuple(centres)


def refine(view: FieldView, geom: BoardGeometry, stacks: list[StackReading],
           net: StackNet | None = None) -> list[StackReading]:
    """``stacks`` (:func:`count_stacks` order) with the network's count where it is sure (at least
    ``SURE``) and the classical counter is not (confidence below ``UNSURE``); unchanged without the
    network. The two thresholds were chosen on held-out counts only: each board family's points
    counted by a network trained without that family (``python -m training.stacks_lobo``).

    A stack the classical counter read as none but whose discs of its point's own colour show their
    rims complete on the part of them the view shows (:attr:`StackReading.shown`: cut by the field's
    edge) takes their count where that is the network's most likely count: neither reader's
    evidence suffices alone (a bare triangle's sides and base fill as much of a cut ring), and no
    threshold is added."""
    net = net if net is not None else load_net()
    if net is None or len(stacks) != 24:
        return stacks
    # only the points the classical counter is unsure of, or whose cut discs wait for its word
    # (``shown``), are asked (about 3 of 24 a frame): its sure counts stand whatever the network
    # says, and a strip's probabilities do not depend on the others in its batch
    # (tests/vision/checkers/test_network.py)
    unsure = [i for i, s in enumerate(stacks) if s.confidence < UNSURE or (not s.count and s.shown)]
    # (their strips alone: the others' are never read)
    strips = point_strips(view, geom, unsure) if unsure else None
    probs = {} if strips is None else dict(zip(unsure, net.probabilities(strips), strict=True))
    radius = stacks[0].radius or 0.45 * POINT_PX
    out = []
    added = []  # checkers the network sees where the classical counter saw none
    for i, s in enumerate(stacks):
        added.append(False)
        if i not in probs:
            out.append(s)
            continue
        p = probs[i]
        count = int(np.argmax(p))
        if not s.count and s.shown and count == len(s.shown):
            # discs of the point's own colour whose rims are complete on the part the view shows
            # (StackReading.shown), where the network's most likely count is theirs: two readers,
            # each unsure, of one count. (A bare triangle at a cut base rings as much; the network
            # reads it bare.)
            added[-1] = True
            out.append(replace(s, count=count, colour_lab=s.shown_lab, centres=s.shown,
                               confidence=float(p[count]), rim_only=True))
            continue
        if count == s.count or p[count] < SURE or s.confidence >= UNSURE:
            out.append(s)
            continue
        if count == 0:
            out.append(replace(s, count=0, colour_lab=None, centres=(), confidence=float(p[0])))
            continue
        colour, centres = (s.colour_lab, s.centres) if s.colour_lab is not None and s.count else \
            _colour_at(view, geom, s, count, radius)
        added[-1] = not s.count
        out.append(replace(s, count=count, colour_lab=colour, centres=centres, confidence=float(p[count])))
    # a set has two colours (as for the classical counter's rim-only discs): a stack the network alone
    # sees, in neither colour the other stacks show, is something else (a die's glow on a point)
    return drop_third_colour(out, [a or s.rim_only for a, s in zip(added, out, strict=True)])
