"""Scratch arrays reused from frame to frame, one set per thread.

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

__all__ = ["scratch"]

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
