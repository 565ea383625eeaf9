"""The pile fits measured for many columns at once against a plain reference: one column at a
time, as first written (numpy's means and sums on each start's nine positions)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.checkers.stacks import (
    _HALF_STEPS,
    _PILE_BASE,
    _PILE_WHOLE,
    _PYRAMID_ROWS,
    _PYRAMID_WHOLE,
    _mean,
    _pyramid_fits,
    _pyramid_fits_many,
)


def _reference(score: np.ndarray, depth: np.ndarray, column: list[float], d: float) -> dict[int, float]:
    step = float(np.median(np.diff(column))) if len(column) > 2 else d
    if not 0.7 * d <= step <= 1.3 * d:
        step = d
    tol = 0.15 * step
    errs: dict[int, float] = {}
    for i, first in enumerate((column[0], column[0] - 0.5 * step)):
        if i and first < 0.3 * d:
            continue
        near = np.abs(depth[None, :] - (first + _HALF_STEPS * step)[:, None]) <= tol
        best = np.where(near, score[None, :], -np.inf).max(axis=1)
        seen = np.where(near.any(axis=1), best, 0.0).astype(np.float64)
        fits = ((seen[None, :] - _PYRAMID_ROWS) ** 2).sum(axis=1).tolist()
        piles = bool(seen[0] < _PILE_BASE)
        for n, err in enumerate(fits, start=1):
            if n > 5 and (not piles or float(seen[_PYRAMID_WHOLE[n]].mean()) < _PILE_WHOLE):
                continue
            errs[n] = min(errs.get(n, np.inf), err)
    return errs


@pytest.mark.parametrize("seed", range(6))
def test_pyramid_fits_many_equal_one_column_at_a_time(seed: int) -> None:
    """Rings near a pile's (whole tops, a covered base) and at random, on evenly and unevenly spaced
    columns, some starting too near the base for the start half a step nearer."""
    rng = np.random.default_rng(seed)
    d = 26.88
    depth = np.arange(0.0, 220.0, 2.0)
    levels = [0.35, 0.7, 0.85, 0.95, 1.0]
    score = np.round(rng.random(depth.size), 2) if seed % 2 else rng.choice(levels, depth.size)
    columns = [[(f + k) * d for k in range(5)] for f in np.arange(0.4, 0.76, 0.05).tolist()]
    columns += [sorted((rng.random(n) * 150.0 + 2.0).tolist()) for n in (1, 2, 3, 4, 5, 5)]
    got = _pyramid_fits_many(score, depth, columns, d)
    want = [_reference(score, depth, c, d) for c in columns]
    assert got == want
    assert [list(g) for g in got] == [list(w) for w in want]  # in the same order
    assert _pyramid_fits(score, depth, columns[0], d) == want[0]
    assert _pyramid_fits_many(score, depth, [], d) == []


def test_mean_of_a_few_equals_numpys() -> None:
    rng = np.random.default_rng(3)
    for n in range(1, 10):
        for _ in range(300):
            values = (rng.random(9) * rng.choice([1.0, 1e3, 1e-3])).tolist()
            at = tuple(sorted(rng.choice(9, n, replace=False).tolist()))
            assert _mean(values, at) == float(np.mean(np.array(values)[list(at)]))
