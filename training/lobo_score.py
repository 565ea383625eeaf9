"""The leave-one-board-out scoring of the stack counter, without PyTorch: the integration rule's
choice (:func:`choose_rule`), the whole reader read with a fold's network (:func:`reader_with`,
:func:`read_scores`) and the per-family table (:func:`print_table`) of ``python -m
training.stacks_lobo``.

Each family's *held-out* figure is :func:`read_scores`' ``scored``: its photos read by the reader
with a network trained without the family, under a rule chosen without the family, scored by
:func:`vision.eval.boards.score_reading` exactly as ``../shared/tools/eval_boards.py`` scores
``tavla read`` (an occluded photo counts its flag, not its points).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

import vision.checkers.network as network
from training.stacks_data import Strips
from vision.eval.boards import score_reading

__all__ = [
    "CLASSICAL_ONLY", "READS", "Row", "choose_rule", "combine", "inner_groups", "print_table", "read_photo",
    "read_scores", "reader_with", "visible_label",
]

# the reader's three ways of counting: classical alone, the fold's network by the rule, the
# network's count everywhere
READS = ("classic", "rule", "net")
_SURE = (0.6, 0.7, 0.8, 0.9, 0.95, 0.98)
_UNSURE = (0.0, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 1.01)
CLASSICAL_ONLY = (2.0, 0.0)


def combine(classic: np.ndarray, conf: np.ndarray, probs: np.ndarray, sure: float,
            unsure: float) -> np.ndarray:
    """The counts :func:`vision.checkers.network.refine` gives for these strips under (sure, unsure)."""
    net = probs.argmax(1)
    take = (probs.max(1) >= sure) & (conf < unsure)
    return np.where(take, net, classic)


def choose_rule(part: Strips, probs: np.ndarray) -> tuple[float, float, float]:
    """(sure, unsure, score) of the rule that counts ``part`` best, the score being the mean over
    its groups of each group's share right (each board family counts alike, however many photos).
    Scores within one strip of the best (one point of the smallest group: a difference one fold's
    network can make by chance) are a tie, won by the rule that takes the network's count on the
    fewest strips, the classical counts alone (none) first, then the stricter thresholds: a rule
    must count clearly better to trust the network more. Sees only ``part``: the caller leaves the
    scored family out of it."""
    masks = [part.group == g for g in sorted(set(part.group))]
    if not masks:
        return (*CLASSICAL_ONLY, 0.0)
    margin = max(1.0 / (int(m.sum()) * len(masks)) for m in masks)

    def score(counts: np.ndarray) -> float:
        return float(np.mean([(counts[m] == part.count[m]).mean() for m in masks]))

    # (score, strips taken from the network, -sure, unsure) of each rule
    rules = [(score(part.classic), 0, -CLASSICAL_ONLY[0], CLASSICAL_ONLY[1])]
    net = probs.argmax(1)
    for sure, unsure in itertools.product(_SURE, _UNSURE):
        take = (probs.max(1) >= sure) & (part.conf < unsure) & (net != part.classic)
        rules.append((score(combine(part.classic, part.conf, probs, sure, unsure)), int(take.sum()),
                      -sure, unsure))
    best = max(r[0] for r in rules)
    acc, _, neg_sure, unsure = min((r for r in rules if r[0] >= best - margin - 1e-9),
                                   key=lambda r: r[1:])
    return -neg_sure, unsure, acc


def inner_groups(families: list[str], held: str, k: int) -> list[list[str]]:
    """The families other than ``held`` dealt round-robin (sorted) into at most ``k`` groups: the
    inner folds whose networks, trained without ``held`` and the group, count the group for the
    choice of ``held``'s rule."""
    others = sorted(f for f in families if f != held)
    return [g for g in (others[i::k] for i in range(max(1, k))) if g]


@contextmanager
def reader_with(net: network.StackNet | None, sure: float, unsure: float) -> Iterator[None]:
    """The reader with ``net`` (None: the classical counts alone) under the rule (sure, unsure)."""
    saved = network.load_net, network.SURE, network.UNSURE
    network.load_net = lambda *_a, **_k: net  # type: ignore[assignment]
    network.SURE, network.UNSURE = sure, unsure
    try:
        yield
    finally:
        network.load_net, network.SURE, network.UNSURE = saved


def visible_label(label: Mapping[str, Any]) -> dict[str, Any]:
    """``label`` scored for its points even when occluded: its ``"?"`` cells (hidden) stay unscored."""
    return {k: v for k, v in label.items() if k != "occluded"}


def read_scores(reading: Mapping[str, Any],
                label: Mapping[str, Any]) -> tuple[tuple[int, int], tuple[int, int]]:
    """((points right, points scored) as eval_boards scores the photo, the same over every labelled
    point, an occluded photo's visible ones too) of one reading (``tavla read``'s JSON)."""
    s = score_reading(label, reading)
    v = s if not label.get("occluded") else score_reading(visible_label(label), reading)
    return (s.points_ok, s.points_n), (v.points_ok, v.points_n)


def read_photo(path: Path) -> dict[str, Any]:
    """``tavla read``'s JSON of one photo (no calibration), read in this process."""
    from vision.frames.images import load_image
    from vision.reader import read_board

    return read_board(load_image(str(path))).to_json()


def _pair() -> list[int]:
    return [0, 0]


@dataclass
class Row:
    """One family's figures; ``reader``/``visible``: per way of counting, [points right, scored]."""

    family: str
    photos: int = 0
    points: int = 0
    classic_ok: int = 0
    net_ok: int = 0
    reader: dict[str, list[int]] = field(default_factory=lambda: {k: _pair() for k in READS})
    visible: dict[str, list[int]] = field(default_factory=lambda: {k: _pair() for k in READS})
    rule: tuple[float, float] = CLASSICAL_ONLY

    def add(self, key: str, scored: tuple[int, int], visible: tuple[int, int]) -> None:
        for acc, (ok, n) in ((self.reader[key], scored), (self.visible[key], visible)):
            acc[0] += ok
            acc[1] += n


def _pct(a: int, n: int) -> str:
    return f"{100.0 * a / n:.1f} % ({a}/{n})" if n else "-"


def print_table(rows: list[Row], quick: bool, seconds: float, command: str, inner: int = 0,
                con: Console | None = None) -> None:
    """The per-family table, then one line per family of its held-out reader figure."""
    table = Table(title="Stack counter, leave one board family out")
    for col in ("family", "photos", "counts: classical (dev)", "counts: network (held out)",
                "rule (sure, unsure)"):
        table.add_column(col)
    if not quick:
        for col in ("reader: classical (dev)", "reader, held out", "reader, network counts",
                    "held out, occluded photos too"):
            table.add_column(col)
    tot = Row("all")
    for r in rows:
        cells = [r.family, str(r.photos), _pct(r.classic_ok, r.points), _pct(r.net_ok, r.points),
                 "classical only" if r.rule[0] > 1 else f"{r.rule[0]:.2f}, {r.rule[1]:.2f}"]
        if not quick:
            cells += [_pct(*r.reader[k]) for k in READS] + [_pct(*r.visible["rule"])]
        table.add_row(*cells)
        tot.photos += r.photos
        tot.points += r.points
        tot.classic_ok += r.classic_ok
        tot.net_ok += r.net_ok
        for k in READS:
            tot.add(k, (r.reader[k][0], r.reader[k][1]), (r.visible[k][0], r.visible[k][1]))
    cells = ["all", str(tot.photos), _pct(tot.classic_ok, tot.points), _pct(tot.net_ok, tot.points), ""]
    if not quick:
        cells += [_pct(*tot.reader[k]) for k in READS] + [_pct(*tot.visible["rule"])]
    table.add_row(*cells, style="bold")
    con = con or Console(width=200)
    con.print(f"$ {command}")
    con.print(table)
    con.print("'counts' columns: the family's labelled strips (occluded photos' visible points included) "
              "where the reader's finder puts the field. 'reader' columns: the whole reader on the family's "
              "unoccluded photos, scored as eval_boards scores `tavla read`; 'held out, occluded photos "
              "too': the same reading scored on every labelled point, occluded photos' too. The classical "
              "reader's thresholds were chosen looking at every one of these photos: its columns are "
              "development figures. Held out: each family read by a network that never saw it, under a "
              "rule chosen on the other families' held-out counts, "
              + (f"made by networks that saw neither this family nor them ({inner} inner folds)" if inner else
                 "made by networks that had seen this family (a second-order leak: --inner 0)")
              + f". {seconds:.0f} s.")
    if quick:
        return
    con.print("Held out per family (whole reader, eval_boards scoring; occluded-only families: every "
              "labelled point):")
    for r in rows:
        ok, n = r.reader["rule"]
        line = f"  {r.family}: {_pct(ok, n)}" if n else f"  {r.family}: no unoccluded photo"
        if r.visible["rule"][1] != n:
            line += f"; occluded photos too {_pct(*r.visible['rule'])}"
        con.print(line)
