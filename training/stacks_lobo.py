"""Leave one board out: the stack counter scored on each board family it was not trained on.

``python -m training.stacks_lobo [--data build/stacks] [--tune 4] [--quick]`` (``make lobo-stacks``)

For each board family of the real photos (:data:`training.stacks_data.FAMILIES`, and the webcam
board as one): the render-trained network (``pretrained.pt`` of ``python -m training.stacks_cnn``)
is fine-tuned on the renders and the *other* families' photos, and the held-out family's points are
read. The integration rule's thresholds (:func:`vision.checkers.network.refine`) are chosen per fold
on the *other* families' held-out counts (each family counted alike), never on the family scored;
those counts come from networks that did see the scored family's photos in training, a second-order
leak the output names. Printed per family:

- ``counts``: the share of the family's labelled points (occluded photos' visible ones included)
  whose count the classical counter / the held-out network gives;
- ``reader``: points right as ``../shared/tools/eval_boards.py`` scores the whole reader on the
  family's scored photos: the classical reader alone, with the fold's network by the rule, and with
  the network's count taken everywhere.

The classical reader's thresholds were chosen by people looking at every one of these photos: its
figures are development figures, not held-out ones; only the network's columns are held out.
"""

from __future__ import annotations

import argparse
import itertools
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import torch
from rich.console import Console
from rich.table import Table

import vision.checkers.network as network
from training.stacks_cnn import DATA, StackCNN, export, fit, load_data, predict, pretrain, split_renders
from training.stacks_data import DATA as SHARED
from training.stacks_data import Strips, real_photos
from vision.eval.boards import score_reading

__all__ = ["choose_rule", "main"]

_READS = ("classic", "rule", "net")
_SURE = (0.6, 0.7, 0.8, 0.9, 0.95, 0.98)
_UNSURE = (0.0, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 1.01)


def combine(classic: np.ndarray, conf: np.ndarray, probs: np.ndarray, sure: float,
            unsure: float) -> np.ndarray:
    """The counts :func:`vision.checkers.network.refine` gives for these strips under (sure, unsure)."""
    net = probs.argmax(1)
    take = (probs.max(1) >= sure) & (conf < unsure)
    return np.where(take, net, classic)


def choose_rule(part: Strips, probs: np.ndarray) -> tuple[float, float, float]:
    """(sure, unsure, score) of the rule that counts ``part`` best, the score being the mean over
    its groups of each group's share right (each board family counts alike, however many photos);
    the classical counts alone unless a rule does strictly better."""
    masks = [part.group == g for g in sorted(set(part.group))]

    def score(counts: np.ndarray) -> float:
        return float(np.mean([(counts[m] == part.count[m]).mean() for m in masks]))

    best = (2.0, 0.0, score(part.classic))
    for sure, unsure in itertools.product(_SURE, _UNSURE):
        acc = score(combine(part.classic, part.conf, probs, sure, unsure))
        if acc > best[2] + 1e-9:
            best = (sure, unsure, acc)
    return best


@contextmanager
def _reader_with(net: network.StackNet | None, sure: float, unsure: float) -> Iterator[None]:
    """The reader with ``net`` (None: the classical counts alone) under the rule (sure, unsure)."""
    saved = network.load_net, network.SURE, network.UNSURE
    network.load_net = lambda *_a, **_k: net  # type: ignore[assignment]
    network.SURE, network.UNSURE = sure, unsure
    try:
        yield
    finally:
        network.load_net, network.SURE, network.UNSURE = saved


def _read_points(path: Path, label: dict[str, Any]) -> tuple[int, int]:
    """(points right, points scored) of the reader on one photo, as eval_boards scores it."""
    from vision.frames.images import load_image
    from vision.reader import read_board

    s = score_reading(label, read_board(load_image(str(path))).to_json())
    return s.points_ok, s.points_n


@dataclass
class Row:
    family: str
    photos: int = 0
    points: int = 0
    classic_ok: int = 0
    net_ok: int = 0
    reader: dict[str, list[int]] = field(default_factory=lambda: {k: [0, 0] for k in _READS})
    rule: tuple[float, float] = (2.0, 0.0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m training.stacks_lobo", description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--tune", type=int, default=4, help="fine-tuning passes per fold")
    ap.add_argument("--quick", action="store_true", help="one pass per fold and no whole-reader columns")
    ap.add_argument("--only", default="", help="comma-separated families (default: all)")
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args(argv)
    torch.set_num_threads(a.threads)
    cv2.setNumThreads(1)
    t0 = time.time()
    renders, real = load_data(Path(a.data))
    train_r, _ = split_renders(renders)
    base = StackCNN()
    pre = Path(a.data) / "pretrained.pt"
    if pre.exists():
        base.load_state_dict(torch.load(pre))
    else:
        base = pretrain(train_r, 10)
        torch.save(base.state_dict(), pre)
    tune = 1 if a.quick else a.tune
    photos: dict[str, list[tuple[Path, dict[str, Any]]]] = {}
    for fam, path, lab in real_photos(SHARED):
        photos.setdefault(fam, []).append((path, lab))
    families = sorted(set(real.group) | set(photos))
    if a.only:
        families = [f for f in families if f in a.only.split(",")]
    rows = []
    tmp = Path(tempfile.mkdtemp(prefix="stacks_lobo"))
    # pass 1: each family's points counted by a network that never saw the family
    held_probs = np.zeros((len(real.count), network.N_COUNTS), np.float32)
    for fam in families:
        held = real.group == fam
        print(f"fold {fam}: {int(held.sum())} points held out, fine-tuning on {int((~held).sum())} real",
              flush=True)
        model = fit(base, train_r, real.take(~held), tune, log=False)
        held_probs[held] = predict(model, real.x[held])
        if not a.quick:
            export(model, tmp / f"{fam}.onnx")
    # pass 2: each family read with a rule chosen on the other families' held-out counts
    for fam in families:
        held = real.group == fam
        row = Row(fam, photos=len(photos.get(fam, [])), points=int(held.sum()))
        part = real.take(held)
        row.classic_ok = int((part.classic == part.count).sum())
        row.net_ok = int((held_probs[held].argmax(1) == part.count).sum())
        others = np.isin(real.group, families) & ~held
        sure, unsure, _ = (choose_rule(real.take(others), held_probs[others]) if others.any()
                           else (2.0, 0.0, 0.0))
        row.rule = (sure, unsure)
        if not a.quick:
            net = network.StackNet(tmp / f"{fam}.onnx")
            for path, lab in photos.get(fam, []):
                if lab.get("occluded"):
                    continue  # eval_boards scores an occluded photo's flag, not its points
                for key, (n, s, u) in {"classic": (None, 2.0, 0.0), "rule": (net, sure, unsure),
                                       "net": (net, 0.0, 2.0)}.items():
                    with _reader_with(n, s, u):
                        ok, tot = _read_points(path, lab)
                    row.reader[key][0] += ok
                    row.reader[key][1] += tot
        rows.append(row)
    done = np.isin(real.group, families)
    shipped = choose_rule(real.take(done), held_probs[done])
    if len(families) > 1:
        print("rule on every family's held-out counts (for the shipped network): "
              + (f"sure {shipped[0]:.2f}, unsure {shipped[1]:.2f}" if shipped[0] <= 1 else "classical only"))
    _print(rows, a.quick, time.time() - t0)
    return 0


def _pct(a: int, n: int) -> str:
    return f"{100.0 * a / n:.1f} % ({a}/{n})" if n else "-"


def _print(rows: list[Row], quick: bool, seconds: float) -> None:
    table = Table(title="Stack counter, leave one board family out")
    for col in ("family", "photos", "counts: classical (dev)", "counts: network (held out)",
                "rule (sure, unsure)"):
        table.add_column(col)
    if not quick:
        for col in ("reader: classical (dev)", "reader + network rule", "reader, network counts"):
            table.add_column(col)
    tot = Row("all")
    for r in rows:
        cells = [r.family, str(r.photos), _pct(r.classic_ok, r.points), _pct(r.net_ok, r.points),
                 "classical only" if r.rule[0] > 1 else f"{r.rule[0]:.2f}, {r.rule[1]:.2f}"]
        if not quick:
            cells += [_pct(*r.reader[k]) for k in ("classic", "rule", "net")]
        table.add_row(*cells)
        tot.photos += r.photos
        tot.points += r.points
        tot.classic_ok += r.classic_ok
        tot.net_ok += r.net_ok
        for k in tot.reader:
            tot.reader[k] = [tot.reader[k][0] + r.reader[k][0], tot.reader[k][1] + r.reader[k][1]]
    cells = ["all", str(tot.photos), _pct(tot.classic_ok, tot.points), _pct(tot.net_ok, tot.points), ""]
    if not quick:
        cells += [_pct(*tot.reader[k]) for k in ("classic", "rule", "net")]
    table.add_row(*cells, style="bold")
    con = Console(width=170)
    con.print(table)
    con.print("The classical reader's thresholds were chosen looking at every one of these photos: its "
              "columns are development figures. Only the network columns are held out: each family is "
              "read by a network that never saw it, under a rule chosen on the other families' held-out "
              "counts (made by networks that had seen this family). 'reader' columns: eval_boards' "
              f"scoring of the family's unoccluded photos. {seconds:.0f} s.")


if __name__ == "__main__":
    raise SystemExit(main())
