"""Leave one board out: the stack counter scored on each board family it was not trained on.

``python -m training.stacks_lobo [--data build/stacks] [--tune 4] [--inner 3] [--quick] [--rescore]``
(``make lobo-stacks``; ``--rescore``: the table again from the counts and networks the last run kept)

For each board family of the real photos (:data:`training.stacks_data.FAMILIES`, and the webcam
board as one): the render-trained network (``pretrained.pt`` of ``python -m training.stacks_cnn``)
is fine-tuned on the renders and the *other* families' photos, and the held-out family's points are
read. The integration rule's thresholds (:func:`vision.checkers.network.refine`) are chosen per fold
on the *other* families' held-out counts (each family counted alike), never on the family scored;
those counts come from ``--inner`` networks per fold (default 3), each trained without the scored
family *and* one group of the others and counting that group, so no count behind a family's rule
comes from a network that saw the family (``--inner 0``: the other folds' networks, which saw it,
a second-order leak). Each fold's network is kept as ``<data>/lobo/<family>.onnx``. Printed per
family (:func:`training.lobo_score.print_table`):

- ``counts``: the share of the family's labelled points (occluded photos' visible ones included)
  whose count the classical counter / the held-out network gives;
- ``reader``: points right as ``../shared/tools/eval_boards.py`` scores the whole reader on the
  family's unoccluded photos: the classical reader alone, with the fold's network by the fold's rule
  (``reader, held out``: the family's held-out figure), and with the network's count taken
  everywhere; ``held out, occluded photos too``: that reading scored on every labelled point;
- then one line per family giving its held-out figure, for a closing note to quote.

The classical reader's thresholds were chosen by people looking at every one of these photos: its
figures are development figures, not held-out ones; only the network's columns are held out.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import torch

import vision.checkers.network as network
from training.lobo_score import (
    CLASSICAL_ONLY,
    READS,
    Row,
    choose_rule,
    inner_groups,
    print_table,
    read_photo,
    read_scores,
    reader_with,
)
from training.stacks_cnn import DATA, StackCNN, export, fit, load_data, predict, pretrain, split_renders
from training.stacks_data import DATA as SHARED
from training.stacks_data import real_photos

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m training.stacks_lobo", description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--tune", type=int, default=4, help="fine-tuning passes per fold")
    ap.add_argument("--quick", action="store_true", help="one pass per fold and no whole-reader columns")
    ap.add_argument("--only", default="", help="comma-separated families (default: all)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--inner", type=int, default=3,
                    help="inner folds per family for its rule (0: the other folds' networks, which saw it)")
    ap.add_argument("--rescore", action="store_true",
                    help="no training: the counts and networks an earlier run kept under <data>/lobo")
    a = ap.parse_args(argv)
    command = "python -m training.stacks_lobo " + shlex.join(sys.argv[1:] if argv is None else argv)
    torch.set_num_threads(a.threads)
    cv2.setNumThreads(1)
    t0 = time.time()
    renders, real = load_data(Path(a.data))
    train_r, _ = split_renders(renders)
    base = StackCNN()
    pre = Path(a.data) / "pretrained.pt"
    if a.rescore:
        pass  # (every count comes from the earlier run)
    elif pre.exists():
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
    # each fold's network is kept, so eval_boards can score a family with it in place of the shipped one
    folds = Path(a.data) / "lobo"
    folds.mkdir(parents=True, exist_ok=True)
    # pass 1: each family's points counted by a network that never saw the family
    held_probs = np.zeros((len(real.count), network.N_COUNTS), np.float32)
    # every count behind the table, so that a change of the rule's choice is scored without training
    kept_path = folds / "probs.npz"
    if a.rescore and not kept_path.exists():
        print(f"no counts of an earlier run in {kept_path}: run without --rescore first", file=sys.stderr)
        return 2
    kept = dict(np.load(kept_path)) if a.rescore else {}
    for fam in families:
        held = real.group == fam
        if a.rescore:
            held_probs[held] = kept["held"][held]
            continue
        print(f"fold {fam}: {int(held.sum())} points held out, fine-tuning on {int((~held).sum())} real "
              f"({time.time() - t0:.0f} s)", flush=True)
        model = fit(base, train_r, real.take(~held), tune, log=False)
        held_probs[held] = predict(model, real.x[held])
        if not a.quick:
            export(model, folds / f"{fam}.onnx")
    # pass 2: each family read with a rule chosen on the other families' held-out counts
    for fam in families:
        held = real.group == fam
        row = Row(fam, photos=len(photos.get(fam, [])), points=int(held.sum()))
        part = real.take(held)
        row.classic_ok = int((part.classic == part.count).sum())
        row.net_ok = int((held_probs[held].argmax(1) == part.count).sum())
        others = np.isin(real.group, families) & ~held
        probs = held_probs
        if a.inner and others.any() and a.rescore:
            probs = kept[f"inner-{fam}"]
        elif a.inner and others.any():
            # the rule's counts come from networks trained without this family too
            probs = np.zeros_like(held_probs)
            for group in inner_groups(families, fam, a.inner):
                inside = np.isin(real.group, group)
                model = fit(base, train_r, real.take(~held & ~inside), tune, log=False)
                probs[inside] = predict(model, real.x[inside])
            kept[f"inner-{fam}"] = probs
        sure, unsure, _ = (choose_rule(real.take(others), probs[others]) if others.any()
                           else (*CLASSICAL_ONLY, 0.0))
        row.rule = (sure, unsure)
        if not a.quick:
            print(f"reading {fam} (rule {sure:.2f}, {unsure:.2f}; {time.time() - t0:.0f} s)", flush=True)
            net = network.StackNet(folds / f"{fam}.onnx")
            ways = {"classic": (None, *CLASSICAL_ONLY), "rule": (net, sure, unsure), "net": (net, 0.0, 2.0)}
            for path, lab in photos.get(fam, []):
                for key in READS:
                    n, s, u = ways[key]
                    with reader_with(n, s, u):
                        row.add(key, *read_scores(read_photo(path), lab))
        rows.append(row)
    if not a.rescore:
        np.savez_compressed(kept_path, held=held_probs, **{k: v for k, v in kept.items() if k != "held"})
    done = np.isin(real.group, families)
    shipped = choose_rule(real.take(done), held_probs[done])
    if len(families) > 1:
        print("rule on every family's held-out counts (for the shipped network): "
              + (f"sure {shipped[0]:.2f}, unsure {shipped[1]:.2f}" if shipped[0] <= 1 else "classical only"))
    print_table(rows, a.quick, time.time() - t0, command, a.inner)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
