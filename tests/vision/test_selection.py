"""Comparator networks (vision.selection): each leaves the k-th smallest on its wire for every
0-1 input, which proves it for every input (Knuth, TAOCP 5.3.4, ex. 5.3.4-1)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.selection import median_network, run_network, select_network


def test_the_median_of_25_is_selected_for_every_zero_one_input() -> None:
    """All 2^25 of them, in chunks (the stacks' disc colours take this network)."""
    net = median_network(25)
    chunk = 1 << 22
    for start in range(0, 1 << 25, chunk):
        v = np.arange(start, start + chunk, dtype=np.uint32)
        planes = [((v >> b) & 1).astype(np.uint8) for b in range(25)]
        ones = np.zeros(chunk, np.uint8)
        for p in planes:
            ones += p
        assert np.array_equal(run_network(planes, net)[12], (ones >= 13).astype(np.uint8))


@pytest.mark.parametrize("n", [2, 6, 12, 16])
def test_every_kth_is_selected_for_every_zero_one_input(n: int) -> None:
    bits = ((np.arange(1 << n)[:, None] >> np.arange(n)) & 1).astype(np.int8)
    for kth in range(n):
        got = run_network(list(bits.T), select_network(n, kth))[kth]
        assert np.array_equal(got, np.sort(bits, axis=1)[:, kth])


def test_real_values_equal_numpy_partition_and_the_inputs_are_kept() -> None:
    rng = np.random.default_rng(0)
    planes = [np.round(rng.random((7, 9)) * 4).astype(np.float32) for _ in range(11)]  # (ties)
    kept = [p.copy() for p in planes]
    want = np.partition(np.stack(planes, -1), 3, axis=-1)[..., 3]
    assert np.array_equal(run_network(planes, select_network(11, 3))[3], want)
    assert all(np.array_equal(p, q) for p, q in zip(planes, kept, strict=True))


@pytest.mark.parametrize("n,kth", [(33, 0), (5, 5), (5, -1)])
def test_no_network_past_its_wires(n: int, kth: int) -> None:
    with pytest.raises(ValueError, match="no network selects"):
        select_network(n, kth)
