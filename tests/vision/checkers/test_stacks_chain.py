"""The stacks' chains and a pile's reach walked over Python lists against the references walked over
numpy arrays (as first written): the same discs for every start, colour test and step."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from vision.arrays import channel_norm
from vision.checkers.stacks import (
    _CHAIN_DROP,
    _IN_LINE,
    _NAME_WEIGHT,
    _OVER_GAP,
    _PILE_SWAY,
    _RING_MIN,
    _SAME_STACK,
    _SECOND,
    _chain,
    _reach,
    _span,
)


def _reference(score: np.ndarray, ys: np.ndarray, d: float, limit: float,
           inside: np.ndarray | None = None, xs: np.ndarray | None = None,
           first: tuple[float, float] = (0.25, 1.0), step: float | None = None) -> list[int]:
    """Indices into ``ys`` (the centres' depths, ascending) of a stack's discs: the first within a
    diameter of the base, then one diameter apart (or up to ``step``, the row's measured one), while
    the ring score holds -- and, given the discs' ``inside`` colours (float (D, 3)), while each next
    disc has the first one's colour (a stack is one player's).

    Of the rings within the first diameter, each clear peak is tried as the first disc and the
    longest chain is kept (the clearest first on a tie, unless it lies over the gap between the
    first two places and another starts below it, where a checker on the base lies): a sixth checker
    piled over the gap between the first two shows the whole ring there, half a diameter out of the
    column's step."""
    lo, hi = first[0] * d, first[1] * d
    window = _span(ys, lo, min(hi, limit))
    window = window[score[window] >= _RING_MIN]
    best = _reference_from(score, ys, d, limit, inside, xs, None, first, step)
    for i in window:
        peak = score[i] >= score[max(0, i - 1)] and score[i] >= score[min(len(score) - 1, i + 1)]
        if not peak or (best and i == best[0]):
            continue
        chain = _reference_from(score, ys, d, limit, inside, xs, int(i), step=step)
        if len(chain) > len(best) or (len(chain) == len(best) and ys[best[0]] > 0.75 * d >= ys[chain[0]]):
            best = chain
    return best


def _reference_from(score: np.ndarray, ys: np.ndarray, d: float, limit: float,
                inside: np.ndarray | None, xs: np.ndarray | None, start: int | None,
                first: tuple[float, float] = (0.25, 1.0), step: float | None = None) -> list[int]:
    """:func:`_chain` from the first disc ``start`` (None: the clearest ring within the first
    diameter)."""
    out: list[int] = []
    near, far = (d, d) if step is None else (min(d, step), max(d, step))
    if start is not None:
        out.append(start)
        lo, hi = ys[start] + near - 0.2 * d, ys[start] + far + 0.2 * d
    else:
        lo, hi = first[0] * d, first[1] * d
    while True:
        sel = _span(ys, lo, min(hi, limit))
        if out and inside is not None:
            # (lightness at half weight: the light falls off along a stack, see _reach)
            same = channel_norm((inside[sel] - inside[out[0]]) * _NAME_WEIGHT) < _SAME_STACK
            sel = sel[same]
        if out and xs is not None:
            # a stack stands in line: a ring beside it is a neighbour's checker or a triangle's edge
            sel = sel[np.abs(xs[sel] - xs[out[-1]]) <= _IN_LINE * d]
        if sel.size == 0:
            break
        i = int(sel[np.argmax(score[sel])])
        if score[i] < _RING_MIN:
            break
        if out and score[i] < _CHAIN_DROP * float(np.mean(score[out])):
            break  # far fainter than the stack below it: a neighbour's rim and a triangle's edge
        out.append(i)
        lo, hi = ys[i] + near - 0.2 * d, ys[i] + far + 0.2 * d
    return out


@pytest.mark.parametrize("seed", range(8))
def test_chains_equal_the_reference(seed: int) -> None:
    """Rings of a few whole levels (ties: the first of the best), discs of two colours and centres
    that stray across the axis, searched from the base, from the second place and over the gaps,
    one diameter a step and the row's own."""
    d, ys, score, inside, xs = _column(seed, 4.0)
    shared: dict[int, list[bool]] = {}  # (the colour tests of one ``inside``, kept over its chains)
    for limit in (200.0, 90.0):
        for first in ((0.25, 1.0), _SECOND, _OVER_GAP):
            for step in (None, d, 1.15 * d):
                for col, x in ((inside, xs), (None, None), (inside, None)):
                    got = _chain(score, ys, d, limit, col, x, first, step)
                    want = _reference(score, ys, d, limit, col, x, first, step)
                    assert got == want
                    assert all(type(i) is int for i in got)
                    if col is not None:
                        assert _chain(score, ys, d, limit, col, x, first, step, shared) == want


def _reference_reach(score: np.ndarray, ys: np.ndarray, d: float, limit: float, inside: np.ndarray,
           xs: np.ndarray, start: int) -> float:
    """The depth (``ys``' units) of the farthest disc reached from disc ``start`` over discs half a
    diameter to one and a half apart (a pile's place between two whole rings may show none: its
    checker covered, or none there): rings of at least ``_RING_MIN`` that peak there (no clearer
    ring within a sixth of a diameter), of the first disc's colour (lightness at half weight) and
    within ``_PILE_SWAY`` of its line; the nearest such disc is each next one."""
    k = max(1, int(round(d / 6 / max(float(ys[1] - ys[0]), 1e-6)))) if len(ys) > 1 else 1
    padded = np.zeros(len(score) + 2 * k, score.dtype)  # (np.pad's zeros, without its checks)
    padded[k : k + len(score)] = score
    top = functools.reduce(np.maximum, [padded[j : j + len(score)] for j in range(2 * k + 1)])
    peaks = (score >= _RING_MIN) & (score >= top) & (ys <= limit)
    i = start
    while True:
        # (one and a half diameters, and the sixth of one that a peak is placed within: a layer's
        # checker and the column's next whole one beyond the covered one between them)
        sel = _span(ys, ys[i] + 0.3 * d, ys[i] + (1.5 + 1 / 6) * d)
        sel = sel[peaks[sel]]
        # (lightness at half weight, as the colours are named: the light falls off along a tall
        # pile, from the frame's shadow at its base to the open field at its top)
        sel = sel[channel_norm((inside[sel] - inside[start]) * _NAME_WEIGHT) < _SAME_STACK]
        sel = sel[np.abs(xs[sel] - xs[start]) <= _PILE_SWAY * d]
        if sel.size == 0:
            return float(ys[i])
        i = int(sel[0])


@pytest.mark.parametrize("seed", range(8))
def test_reach_equals_the_reference(seed: int) -> None:
    """A pile's reach over its peaks from every disc, as the numpy walk first written found it."""
    d, ys, score, inside, xs = _column(seed, 5.0)
    for limit in (200.0, 90.0):
        for start in range(0, ys.size, 3):
            got = _reach(score, ys, d, limit, inside, xs, start)
            assert got == _reference_reach(score, ys, d, limit, inside, xs, start)
            assert type(got) is float


def _column(seed: int, sway: float) -> tuple[float, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A column's diameter, sample depths, ring scores of a few whole levels, discs of two colours
    and centres straying ``sway`` px across the axis (seeded)."""
    rng = np.random.default_rng(seed)
    d = 26.88
    ys = np.arange(0.0, 230.0, 2.0)
    score = rng.choice([0.0, 0.3, 0.5, 0.6, 0.75, 0.9, 1.0], ys.size, p=[0.3, 0.1, 0.1, 0.1, 0.1, 0.2, 0.1])
    inside = np.where(rng.random((ys.size, 1)) < 0.7, np.float32([200, 128, 130]), np.float32([60, 150, 160]))
    inside = (inside + rng.integers(-12, 13, (ys.size, 3))).astype(np.float32)
    return d, ys, score, inside, 100.0 + rng.normal(0, sway, ys.size)
