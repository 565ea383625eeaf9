"""CPU time of a call, the one measure the vision benches share."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def cpu_ms(fn: Callable[[], Any], repeats: int) -> tuple[float, float]:
    """Least and median CPU time of ``repeats`` calls of ``fn``, in ms (after one warm-up call).

    CPU time of this process, not wall time: with OpenCV held to one thread it is the work one core
    does per call, and it does not grow when other programs share the machine (wall time does)."""
    fn()
    times = []
    for _ in range(repeats):
        t = time.process_time()
        fn()
        times.append((time.process_time() - t) * 1000.0)
    return min(times), statistics.median(times)
