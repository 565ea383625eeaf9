"""Array helpers for the readers' hot paths: scratch arrays reused from frame to frame (one set per
thread), per-pixel sums over the colour channels without numpy's slow short-axis reduction, and
medians without np.median's overhead.

Scratch arrays.

A frame's stages make many large temporary arrays (a 900x470 float32 plane is 1.7 MB). Fresh ones
come from the allocator as new pages, and the first write to each page faults: on the readers'
frames that cost as much as the arithmetic itself (bench/vision.py; measured with glibc, whose free
hands large blocks back to the system). A hot stage writes into a scratch array of its own instead
(OpenCV's and numpy's ``dst``/``out`` arguments): the same values, without the page faults.

A scratch array is only valid until the next call that asks for the same ``key`` on the same
thread: callers keep none past their own return (they copy what they keep, e.g. by indexing).
"""

from __future__ import annotations

import threading

import numpy as np

__all__ = ["byte_median", "channel_norm", "channel_sq", "channel_sum", "median", "nonzero2d", "scratch"]

_local = threading.local()


def scratch(key: str, shape: tuple[int, ...], dtype: type | np.dtype = np.float32) -> np.ndarray:
    """An uninitialised array of ``shape`` and ``dtype`` reserved for ``key`` on this thread, reused
    while the shape stays the same (a camera's frames: one size), replaced when it changes."""
    bufs: dict[str, np.ndarray] = _local.__dict__.setdefault("bufs", {})
    buf = bufs.get(key)
    dt = np.dtype(dtype)
    if buf is None or buf.shape != shape or buf.dtype != dt:
        buf = bufs[key] = np.empty(shape, dt)
    return buf


def nonzero2d(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.nonzero`` of a bool (H, W) array: (ys, xs), row-major, the same int arrays. From the
    flat indices: numpy's 2-D nonzero keeps a multi-index per element, many times slower on a
    frame-sized mask."""
    ys, xs = np.divmod(np.flatnonzero(mask), mask.shape[1])
    return ys, xs


def channel_sum(x: np.ndarray) -> np.ndarray:
    """The sum over the last axis of a float (H, W, 3) array: (H, W), the same values as
    ``x.sum(axis=2)`` (numpy adds a short axis in order, x0 + x1 + x2, as here -- bit for bit, checked
    in tests/vision/test_arrays.py) at a fraction of its cost (a reduction over an axis of three
    runs numpy's reduce loop once per pixel)."""
    return x[..., 0] + x[..., 1] + x[..., 2]


def channel_sq(x: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """The squared Euclidean norm over the last axis of a float32 (H, W, 3) array: (H, W), the same
    values as ``np.einsum("ijk,ijk->ij", x, x)`` (which adds x0 x0 + x1 x1 + x2 x2 in order for
    float32; not so for float64) at a fraction of its cost. ``out``: an (H, W) array to write into."""
    x0, x1, x2 = x[..., 0], x[..., 1], x[..., 2]
    out = np.multiply(x0, x0, out=out)
    out += x1 * x1
    out += x2 * x2
    return out


def channel_norm(x: np.ndarray) -> np.ndarray:
    """The Euclidean norm over the last axis of a float (H, W, 3) array (e.g. a Lab difference):
    (H, W), the same values as ``np.linalg.norm(x, axis=-1)`` (see :func:`channel_sum`)."""
    x0, x1, x2 = x[..., 0], x[..., 1], x[..., 2]
    return np.sqrt(x0 * x0 + x1 * x1 + x2 * x2)


# Axes up to this long are sorted by :func:`median`'s network of minima and maxima ...
_NETWORK_MAX = 9
# ... when they hold more than this many times their length squared medians to take: the network's
# n(n-1)/2 exchanges are each a pass over all medians, a partition's cost is per median (one core,
# float32: for 9 values the network wins from some 3000 medians on, for 5 from some 800, for 3
# from some 200; bench in the commit that set it). Both give the same values.
_NETWORK_ROWS = 25


def median(values: np.ndarray, axis: int) -> np.ndarray:
    """``np.median(values, axis)`` of a float array without NaNs, the same values in the same dtype
    (the middle element, or the two middle ones' sum halved), without np.median's per-call checks:
    several times faster on the small arrays read here. An axis of at most ``_NETWORK_MAX`` is
    sorted by a network of element-wise minima and maxima (exact, and far faster than numpy's
    per-row selection on many short rows); a longer one, or a short one of few medians, is
    partitioned along a contiguous last axis (numpy partitions another axis through a slow
    strided copy)."""
    a = np.asarray(values)
    n = a.shape[axis]
    if n <= _NETWORK_MAX and a.size > _NETWORK_ROWS * n * n * n:
        rows = [np.take(a, i, axis=axis) for i in range(n)]
        for i in range(n - 1):
            for j in range(n - 1 - i):
                rows[j], rows[j + 1] = np.minimum(rows[j], rows[j + 1]), np.maximum(rows[j], rows[j + 1])
        lo, mid = rows[(n - 1) // 2], rows[n // 2]
    else:
        c = np.ascontiguousarray(np.moveaxis(a, axis, -1))
        part = np.partition(c, (n // 2 - 1, n // 2) if n % 2 == 0 else n // 2, axis=-1)
        lo, mid = part[..., (n - 1) // 2], part[..., n // 2]
    if n % 2:
        return mid
    return (lo + mid) / 2


def byte_median(values: np.ndarray) -> np.ndarray:
    """``median(values.astype(np.float32), 1)`` of a uint8 (C, N) array (N > 0), the same float32
    values: each row's middle order statistics read off its 256-bin histogram (a count over the
    bytes) instead of a partition of N floats, many times faster on a place's pixels."""
    a = np.asarray(values)
    n = a.shape[1]
    out = np.empty(a.shape[0], np.float32)
    for i, row in enumerate(a):
        cum = np.cumsum(np.bincount(row, minlength=256))
        # (the k-th smallest, from 0, is the first byte whose count reaches past k)
        lo, mid = np.searchsorted(cum, [(n - 1) // 2 + 1, n // 2 + 1])
        out[i] = np.float32(mid) if n % 2 else (np.float32(lo) + np.float32(mid)) / np.float32(2)
    return out
