"""Order statistics over whole arrays by comparator networks: the k-th smallest of a few
same-shaped planes, element by element, as a fixed sequence of ``np.minimum`` / ``np.maximum``.

Minima and maxima are exact, so a network's result equals numpy's own selection bit for bit; over
a few dozen planes it is several times faster than ``np.partition`` along a short last axis. (Our
own code: neither numpy nor OpenCV selects across a list of planes.)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

__all__ = ["Network", "median_network", "run_network", "select_network"]

# ``(i, j, low, high)`` per step: the minimum of wires i and j taken onto i where ``low``, their
# maximum onto j where ``high``
Network = tuple[tuple[int, int, bool, bool], ...]


def _odd_even_merge_sort(n: int) -> list[tuple[int, int]]:
    """Batcher's odd-even merge sort of ``n`` (a power of two) wires: its comparators ``(i, j)``,
    ``i < j``, in order, each leaving the lesser on ``i`` (Knuth, TAOCP 5.3.4)."""
    out = []
    p = 1
    while p < n:
        k = p
        while k >= 1:
            for j in range(k % p, n - k, 2 * k):
                for i in range(min(k, n - j - k)):
                    if (i + j) // (2 * p) == (i + j + k) // (2 * p):
                        out.append((i + j, i + j + k))
            k //= 2
        p *= 2
    return out


@functools.cache
def select_network(n: int, kth: int) -> Network:
    """A network that leaves the ``kth`` smallest (from 0) of ``n`` values (at most 32) on wire
    ``kth``: Batcher's sort of 32 wires, those past ``n`` held at +inf (their comparators change
    nothing: dropped), then only the operations wire ``kth`` depends on kept, walking back from it."""
    if not 0 <= kth < n <= 32:
        raise ValueError(f"no network selects value {kth} of {n} (at most 32 values)")
    net = [(i, j) for i, j in _odd_even_merge_sort(32) if j < n]
    need = {kth}
    kept = []
    for i, j in reversed(net):
        low, high = i in need, j in need
        if low or high:
            kept.append((i, j, low, high))
            need |= {i, j}
    return tuple(kept[::-1])


def median_network(n: int) -> Network:
    """:func:`select_network` of the median of ``n`` (odd) values, on wire ``n // 2`` (for 25:
    202 of 2 x 191 operations)."""
    return select_network(n, n // 2)


def run_network(planes: Sequence[np.ndarray], network: Network) -> list[np.ndarray]:
    """``planes`` (same shape and type) after ``network``: the selected value is on its wire. The
    input planes are not changed."""
    out = list(planes)
    for i, j, low, high in network:
        a, b = out[i], out[j]
        if low:
            out[i] = np.minimum(a, b)
        if high:
            out[j] = np.maximum(a, b)
    return out
