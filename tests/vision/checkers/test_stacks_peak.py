"""The stack counter's exact shortcuts: the neighbours' wrapped peak and the consensus' selection."""

import functools

import numpy as np

from vision.arrays import channel_norm
from vision.checkers.stacks import _kth_distance, _select_network, _wrapped_peak


def test_wrapped_peak_is_the_rolled_maximum() -> None:
    rng = np.random.default_rng(1)
    for t in range(500):
        n, k = int(rng.integers(1, 60)), int(rng.integers(1, 40))
        score = rng.random((int(rng.integers(1, 13)), n))
        if t % 3 == 0:
            score = np.round(score * 3) / 3  # (ties)
        rolled = functools.reduce(np.maximum, [np.roll(score, s, axis=1) for s in range(-k, k + 1)])
        assert np.array_equal(_wrapped_peak(score, k), rolled)


def test_select_network_takes_the_kth_of_every_zero_one_input() -> None:
    """A comparator network selects the k-th of every input when it does of every 0-1 input."""
    for n in (6, 12):
        bits = ((np.arange(1 << n)[:, None] >> np.arange(n)) & 1).astype(np.int8)
        for kth in range(n):
            planes = list(bits.T)
            for i, j, low, high in _select_network(n, kth):
                a, b = planes[i], planes[j]
                if low:
                    planes[i] = np.minimum(a, b)
                if high:
                    planes[j] = np.maximum(a, b)
            assert np.array_equal(planes[kth], np.sort(bits, axis=1)[:, kth])


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
