"""The stack counter's exact shortcuts: the neighbours' wrapped peak and the consensus' selection."""

import functools

import numpy as np

from vision.checkers.stacks import _wrapped_peak


def test_wrapped_peak_is_the_rolled_maximum() -> None:
    rng = np.random.default_rng(1)
    for t in range(500):
        n, k = int(rng.integers(1, 60)), int(rng.integers(1, 40))
        score = rng.random((int(rng.integers(1, 13)), n))
        if t % 3 == 0:
            score = np.round(score * 3) / 3  # (ties)
        rolled = functools.reduce(np.maximum, [np.roll(score, s, axis=1) for s in range(-k, k + 1)])
        assert np.array_equal(_wrapped_peak(score, k), rolled)
