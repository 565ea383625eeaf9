"""The stack counter's exact shortcuts: the neighbours' wrapped peak and the consensus' selection."""

import functools

import numpy as np

from vision.arrays import channel_norm
from vision.checkers.stacks import _kth_distance, _wrapped_peak


def test_wrapped_peak_is_the_rolled_maximum() -> None:
    rng = np.random.default_rng(1)
    for t in range(500):
        n, k = int(rng.integers(1, 60)), int(rng.integers(1, 40))
        score = rng.random((int(rng.integers(1, 13)), n))
        if t % 3 == 0:
            score = np.round(score * 3) / 3  # (ties)
        rolled = functools.reduce(np.maximum, [np.roll(score, s, axis=1) for s in range(-k, k + 1)])
        assert np.array_equal(_wrapped_peak(score, k), rolled)


def test_kth_distance_is_the_partitioned_one() -> None:
    rng = np.random.default_rng(3)
    for t in range(100):
        k = int(rng.integers(2, 17))
        kth = max(1, k // 2 - 1)
        samples = rng.integers(0, 256, (int(rng.integers(1, 5)), 7, k, 3)).astype(np.float32)
        if t % 2:
            samples[:, ::2, : k // 2] = samples[:, ::2, :1]  # (ties)
        dist = channel_norm(samples[..., :, None, :] - samples[..., None, :, :])
        assert np.array_equal(_kth_distance(samples, kth), np.partition(dist, kth, axis=-1)[..., kth])
