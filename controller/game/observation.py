"""The camera's observation model: how likely a settled reading is, given the position truly on the board.

The arbiter (controller.game.arbiter, RULES.md B17/N11) weighs each candidate position -- the result of
every legal play, the position before the turn, the reading taken as it is -- by the likelihood of the
reading under it. Each point is read as (colour, count, confidence); given the true (colour, count) the
reading is right with a probability that depends on the reader's confidence (one value per confidence
bin), and when wrong it is one of a few kinds of error: a count off by 1, 2 or 3+, a stack missed, a
phantom stack on an empty point, the colour flipped (same or other count). The bar, where a board has
one, has its own rate and kinds (the reader gives it no confidence).

The numbers are the reader's measured errors on rendered boards and labelled photos, fitted by
``python -m bench.prior_fit --write`` into ``assets/observation.json`` (its README says how). Nothing
here was chosen by looking at a photo.

Pure: the standard library only; the file is read once, from the package's own data.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

#: Confidence bins (lower edges; the last edge closes the top bin and lies above 1.0).
BIN_EDGES = (0.0, 0.5, 0.7, 0.8, 0.9, 0.97, 1.0001)

#: The kinds of a wrong point reading (see :func:`error_kind`).
KINDS = ("count1", "count2", "count3", "missed", "phantom", "colour", "colour_count")

MAX_STACK = 15

Cell = tuple[Any, int]  # (colour or side, count); (None, 0) is an empty point


def error_kind(truth: Cell, read: Cell) -> str | None:
    """Which kind of error ``read`` is of ``truth`` (None: the reading is right)."""
    tc, tn = truth
    rc, rn = read
    if tn == 0 and rn == 0:
        return None
    if tn == 0:
        return "phantom"
    if rn == 0:
        return "missed"
    if tc != rc:
        return "colour" if tn == rn else "colour_count"
    d = abs(tn - rn)
    if d == 0:
        return None
    return "count1" if d == 1 else "count2" if d == 2 else "count3"


def _values(kind: str, truth_n: int) -> int:
    """How many readings an error of ``kind`` can give from a true count ``truth_n`` (spread evenly)."""
    if kind in ("count1", "count2"):
        d = 1 if kind == "count1" else 2
        return max(1, sum(1 for n in (truth_n - d, truth_n + d) if 1 <= n <= MAX_STACK))
    if kind == "count3":
        return max(1, sum(1 for n in range(1, MAX_STACK + 1) if abs(n - truth_n) >= 3))
    if kind == "phantom":
        return MAX_STACK
    if kind == "colour_count":
        return MAX_STACK - 1
    return 1


@dataclass(frozen=True)
class ObservationModel:
    """Per-bin probability that a point is read right, the error kinds of wrong readings, and the bar's.

    ``version``: a short digest of the numbers, so a ruling can say which model made it."""

    bin_edges: tuple[float, ...]
    p_right: tuple[float, ...]
    kinds: tuple[tuple[str, float], ...]
    bar_p_right: float
    bar_kinds: tuple[tuple[str, float], ...]
    version: str = ""

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> ObservationModel:
        edges = tuple(float(x) for x in raw["bin_edges"])
        p_right = tuple(float(x) for x in raw["p_right"])
        if len(p_right) != len(edges) - 1 or not all(0.0 < p < 1.0 for p in p_right):
            raise ValueError("observation model: one probability in (0, 1) per confidence bin")
        kinds = tuple((k, float(raw["error_kinds"][k])) for k in KINDS)
        bar_kinds = tuple((k, float(raw["bar_error_kinds"][k])) for k in KINDS)
        digest = f"{sum(p_right):.4f}/{float(raw['bar_p_right']):.4f}"
        return cls(edges, p_right, kinds, float(raw["bar_p_right"]), bar_kinds, digest)

    def bin_of(self, confidence: float) -> int:
        for i in range(len(self.bin_edges) - 1):
            if confidence < self.bin_edges[i + 1]:
                return i
        return len(self.bin_edges) - 2

    def log_point(self, truth: Cell, read: Cell, confidence: float) -> float:
        """log P(``read`` with ``confidence`` | ``truth``) for one point."""
        return _log(self.p_right[self.bin_of(confidence)], self.kinds, truth, read)

    def log_bar(self, truth: int, read: int) -> float:
        """log P(bar count ``read`` | ``truth``) for one player's checkers on the bar."""
        t: Cell = ("x", truth) if truth else (None, 0)
        r: Cell = ("x", read) if read else (None, 0)
        return _log(self.bar_p_right, self.bar_kinds, t, r)


def _log(p_right: float, kinds: tuple[tuple[str, float], ...], truth: Cell, read: Cell) -> float:
    kind = error_kind(truth, read)
    if kind is None:
        return math.log(p_right)
    share = dict(kinds)
    # an empty point can only be misread as a phantom; a stack in any of the other ways
    possible = ("phantom",) if truth[1] == 0 else tuple(k for k, _ in kinds if k != "phantom")
    total = sum(share[k] for k in possible)
    return math.log((1.0 - p_right) * share[kind] / total / _values(kind, truth[1]))


@lru_cache(maxsize=1)
def fitted() -> ObservationModel:
    """The model fitted to the reader's measured errors (``assets/observation.json``)."""
    text = resources.files("controller.game").joinpath("assets/observation.json").read_text("utf-8")
    return ObservationModel.from_json(json.loads(text))
