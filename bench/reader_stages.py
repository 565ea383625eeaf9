"""Where a calibrated reading's time goes: CPU ms per stage of :func:`vision.reader.read_board`.

Each stage the reader composes is timed where the reader calls it (its name in ``vision.reader``
wrapped for the duration of the measure), so the stages' sum is the reading itself, each stage
given what the reading gives it. The field view's Lab and colour gradient are made on first use,
by the stack counter: they count in its row.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

# (row label, the names in vision.reader that make the stage)
STAGES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("stacks, Lab, gradient", ("count_stacks_kept",)),
    ("learned counts", ("refine",)),
    ("dice in blots", ("_dice_in_blots",)),
    ("dice", ("_dice",)),
    ("cube", ("find_cube",)),
    ("bar checkers", ("find_bar_checkers",)),
    ("trays", ("off_inputs", "tray_strips", "find_off")),
    ("outline", ("outline_weak",)),
    ("hand test", ("foreign_mask", "find_occlusion", "hide_points")),
    ("exposure", ("blown_out",)),
    ("colours, sets", ("name_colours", "name_by_off", "name_off", "complete_sets")),
)
OTHER = "rest: warp, glue"


@contextmanager
def _timed(module: Any, names: Sequence[str], spent: defaultdict[str, float]) -> Iterator[None]:
    """``module``'s functions ``names`` wrapped to add their CPU seconds to ``spent``."""
    saved = {n: getattr(module, n) for n in names}

    def wrap(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            t = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[name] += time.process_time() - t
        return timed

    try:
        for n, fn in saved.items():
            setattr(module, n, wrap(n, fn))
        yield
    finally:
        for n, fn in saved.items():
            setattr(module, n, fn)


def stage_ms(calls: Sequence[Callable[[], Any]], repeats: int) -> dict[str, float]:
    """CPU ms per stage (``STAGES``' labels, ``OTHER`` and ``"total"``) of the calibrated readings
    ``calls`` (each a zero-argument ``read_board(frame, calibration)``): each frame's least over
    ``repeats`` calls (after one warm-up), averaged over the frames."""
    import vision.reader as reader

    names = [n for _, ns in STAGES for n in ns]
    sums: defaultdict[str, float] = defaultdict(float)
    for call in calls:
        call()
        best: dict[str, float] = {}
        for _ in range(repeats):
            spent: defaultdict[str, float] = defaultdict(float)
            with _timed(reader, names, spent):
                t = time.process_time()
                call()
                total = time.process_time() - t
            row = {label: sum(spent[n] for n in ns) for label, ns in STAGES}
            row[OTHER] = total - sum(row.values())
            row["total"] = total
            best = row if not best or total < best["total"] else best
        for k, v in best.items():
            sums[k] += v
    n = max(1, len(calls))
    return {k: 1000.0 * v / n for k, v in sums.items()}
