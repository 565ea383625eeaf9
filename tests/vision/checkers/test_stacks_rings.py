"""The stacks' ring scores against a plain reference: the samples' edge test and ring counts as
first written (each edge judged on each ring, the two rings' hits or-ed), on grids of centres that
broadcast as the count's rows do, edges cut by the view included."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from vision.checkers.stacks import _JUDGED, _RING_N, _ring_angles, _ring_scores_judged


def _reference(gx: np.ndarray, gy: np.ndarray, cx: np.ndarray, cy: np.ndarray, r: float,
               judged: Sequence[tuple[float, bool]], reach: bool) -> list[np.ndarray]:
    h, w = gx.shape
    ca, sa = _ring_angles()
    cx, cy = np.broadcast_arrays(cx, cy)
    hits = [np.zeros((*cx.shape, _RING_N), bool) for _ in judged]
    for rr in (r - 1.0, r + 0.5):
        xs = np.clip(np.rint(cx[..., None] + rr * ca), 0, w - 1).astype(np.intp)
        ys = np.clip(np.rint(cy[..., None] + rr * sa), 0, h - 1).astype(np.intp)
        gxs, gys = gx[ys, xs], gy[ys, xs]
        rad = np.abs(gxs * ca + gys * sa)
        tan = np.abs(gys * ca - gxs * sa)
        for hit, (edge, _) in zip(hits, judged, strict=True):
            hit |= rad > np.maximum(tan, edge)
    px, py = cx[..., None] + r * ca, cy[..., None] + r * sa
    in_x = (px >= 0) & (px <= w - 1)
    inside = in_x & (py >= 0) & (py <= h - 1)
    shown = inside.sum(axis=-1)
    side_hidden = (in_x & ~inside).sum(axis=-1)
    out = []
    for hit, (_, ends_open) in zip(hits, judged, strict=True):
        hidden = side_hidden if ends_open else _RING_N - shown
        score = (hit & inside).sum(axis=-1) / (shown + 0.5 * hidden)
        out.append(np.where(shown >= 0.6 * _RING_N, score, 0.0))
    if reach:
        out.append(np.where(shown >= 0.6 * _RING_N, shown / np.maximum(shown + 0.5 * side_hidden, 1), 0.0))
    return out


# (rings wholly outside the view divide 0 by 0, as the count never asks: scored 0 all the same)
@pytest.mark.filterwarnings("ignore:invalid value encountered in divide:RuntimeWarning")
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("slot", ["", "test"])
def test_ring_scores_judged_equal_the_reference(seed: int, slot: str) -> None:
    """Whole-number gradients (ties of the radial with the tangential and with the edges) on a grid
    of columns x depths x shifts, and on plain lists of centres."""
    rng = np.random.default_rng(seed)
    h, w = 120, 200
    gx = rng.integers(-60, 61, (h, w)).astype(np.float32)
    gy = rng.integers(-60, 61, (h, w)).astype(np.float32)
    cols = np.linspace(-5.0, w + 5.0, 12) + rng.random(12)
    cx = cols[:, None, None] + np.arange(-8.0, 8.5, 4.0)[None, None, :]  # (12, 1, 5)
    cy = (rng.random() * 3 - 4 + np.arange(0.0, h + 6.0, 2.0))[None, :, None]  # (1, D, 1)
    for r in (11.0, 13.44):
        got = _ring_scores_judged(gx, gy, cx, cy, r, _JUDGED, reach=True, slot=slot)
        want = _reference(gx, gy, cx, cy, r, _JUDGED, True)
        assert len(got) == len(want)
        for g, e in zip(got, want, strict=True):
            assert np.array_equal(g, e)
    xs, ys = rng.random(300) * w, rng.random(300) * h
    for judged in (((45.0, False),), ((15.0, True),), _JUDGED):
        got = _ring_scores_judged(gx, gy, xs, ys, 12.0, judged)
        want = _reference(gx, gy, xs, ys, 12.0, judged, False)
        for g, e in zip(got, want, strict=True):
            assert np.array_equal(g, e)
