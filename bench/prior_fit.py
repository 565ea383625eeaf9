"""Fit the arbiter's per-point observation model (controller/game/assets/observation.json) from the
board reader's measured errors.

``python -m bench.prior_fit [--renders N] [--write]`` reads

* ``N`` rendered boards (`vision.render`: random positions from `random_spec`, every style and look,
  perspective cameras, random light, noise, blur and JPEG), whose truth is exact; and
* the labelled photos of ``../shared/data/boards-real`` (skipped with a note when absent), matched to
  their labels as the acceptance scoring matches them (`vision.eval.boards`).

``boards-webcam`` is left out on purpose: it is where ``python -m bench prior`` measures false
disputes, so it must not have chosen the numbers.

Each point gives (truth, reading, confidence). The model counts, per confidence bin, how often the
reading was right, and, over all bins, which kind of error the wrong ones were (count off by 1, 2, 3+,
a stack missed, a phantom stack, the colour flipped), and the bar's errors where a board has one.
Counts are kept raw in the file with the smoothed probabilities beside them (add-one on each bin's
right/wrong, add-half on each error kind), so no probability is ever 0 or 1.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from rich.console import Console
from rich.progress import track

from controller.game.observation import BIN_EDGES, KINDS, error_kind

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "controller" / "game" / "assets" / "observation.json"
REAL = ROOT.parent / "shared" / "data" / "boards-real"

Cell = tuple[str | None, int]


def _bin(conf: float) -> int:
    for i in range(len(BIN_EDGES) - 1):
        if conf < BIN_EDGES[i + 1]:
            return i
    return len(BIN_EDGES) - 2


class Tally:
    def __init__(self) -> None:
        self.ok = [0] * (len(BIN_EDGES) - 1)
        self.wrong = [0] * (len(BIN_EDGES) - 1)
        self.kinds: Counter[str] = Counter()
        self.bar_ok = 0
        self.bar_kinds: Counter[str] = Counter()
        self.conf_ok: list[float] = []
        self.conf_wrong: list[float] = []
        self.sources: Counter[str] = Counter()

    def point(self, truth: Cell, read: Cell, conf: float, source: str) -> None:
        """``truth``/``read``: (colour or None, count), colours in one shared naming."""
        self.sources[source] += 1
        b = _bin(conf)
        kind = error_kind(truth, read)
        if kind is None:
            self.ok[b] += 1
            self.conf_ok.append(conf)
        else:
            self.wrong[b] += 1
            self.kinds[kind] += 1
            self.conf_wrong.append(conf)

    def bar(self, truth: int, read: int) -> None:
        kind = error_kind(("x", truth) if truth else (None, 0), ("x", read) if read else (None, 0))
        if kind is None:
            self.bar_ok += 1
        else:
            self.bar_kinds[kind] += 1


def _cell(colour: str | None, count: int) -> Cell:
    return (colour, int(count)) if count else (None, 0)


def renders(tally: Tally, n: int, seed0: int) -> None:
    from vision.reader import read_board
    from vision.render.geometry import Camera
    from vision.render.scene import render
    from vision.render.spec import STYLES, random_spec

    rng = np.random.default_rng(seed0)
    for k in track(range(n), description="rendered boards", console=Console(stderr=True)):
        seed = seed0 + k
        style = STYLES[k % len(STYLES)]
        spec = random_spec(seed, style=style, variant=None, home=str(rng.choice(["right", "left"])))
        cam = Camera.random(rng, portrait=bool(rng.random() < 0.2))
        r = render(
            spec,
            size=(1280, 720),
            camera=cam,
            seed=seed,
            lighting=float(rng.uniform(0.1, 0.6)),
            noise=float(rng.uniform(1.0, 6.0)),
            blur=float(rng.choice([0.0, 0.0, 0.8, 1.5])),
            jpeg_quality=int(rng.choice([70, 85, 95])),
            glare=float(rng.choice([0.0, 0.0, 0.4])),
        )
        reading = read_board(r.image)
        if len(reading.points) != 24 or reading.occluded:
            tally.sources["render: no reading"] += 1
            continue
        for t, p in zip(r.truth.points, reading.points, strict=True):
            tally.point(_cell(t.colour, t.count), _cell(p.colour, p.count), float(p.confidence), "render")
        if style != "paper":
            for colour in ("light", "dark"):
                tally.bar(int(r.truth.bar.get(colour, 0)), int(reading.bar.get(colour, 0)))


def photos(tally: Tally, folder: Path, console: Console) -> None:
    from vision.eval.boards import parse_cell, read_labels, rows_from_points
    from vision.reader import read_board

    labels = folder / "labels.jsonl"
    if not labels.exists():
        console.print(f"[yellow]note:[/] {labels} absent: fitted on renders only")
        return
    lines = read_labels(labels)
    for label in track(lines, description=f"{folder.name} photos", console=Console(stderr=True)):
        if label.get("occluded") or label.get("board") is False:
            continue
        image = cv2.imread(str(folder / label["image"]))
        if image is None:
            continue
        reading = read_board(image).to_json()
        if not reading.get("board_found"):
            tally.sources[f"{folder.name}: no board"] += 1
            continue
        rows = rows_from_points(reading.get("points", []), str(label["layout"]))
        if rows is None:
            continue
        truth = [parse_cell(c) for c in list(label["rowA"]) + list(label["rowB"])]
        names = sorted({str(p["colour"]) for p in rows if p.get("colour")})
        letters = sorted({t[0] for t in truth if t and t[0]})
        letters += [x for x in "grwd" if x not in letters][: max(0, len(names) - len(letters))]
        # the colour names that agree with the label on most points (as the acceptance scoring does)
        best: dict[str, str] = {}
        best_ok = -1
        for perm in itertools.permutations(letters, min(len(letters), len(names))):
            m = dict(zip(names, perm, strict=False))
            ok = sum(
                1
                for p, t in zip(rows, truth, strict=True)
                if t is not None and _cell(m.get(str(p.get("colour"))), int(p.get("count", 0))) == t
            )
            if ok > best_ok:
                best, best_ok = m, ok
        for p, t in zip(rows, truth, strict=True):
            if t is None:
                continue
            read = _cell(best.get(str(p.get("colour")), "?"), int(p.get("count", 0)))
            tally.point(t, read, float(p.get("confidence", 1.0)), folder.name)


def fitted(tally: Tally, command: str) -> dict[str, Any]:
    p_ok = [(o + 1) / (o + w + 2) for o, w in zip(tally.ok, tally.wrong, strict=True)]
    total = sum(tally.kinds.values()) + 0.5 * len(KINDS)
    kinds = {k: (tally.kinds[k] + 0.5) / total for k in KINDS}
    bar_n = tally.bar_ok + sum(tally.bar_kinds.values())
    bar_total = sum(tally.bar_kinds.values()) + 0.5 * len(KINDS)
    hist_edges = [i / 20 for i in range(21)]
    return {
        "made_by": command,
        "sources": dict(sorted(tally.sources.items())),
        "bin_edges": list(BIN_EDGES),
        "right": tally.ok,
        "wrong": tally.wrong,
        "p_right": [round(p, 6) for p in p_ok],
        "error_counts": {k: tally.kinds[k] for k in KINDS},
        "error_kinds": {k: round(v, 6) for k, v in kinds.items()},
        "bar_right": tally.bar_ok,
        "bar_error_counts": {k: tally.bar_kinds[k] for k in KINDS},
        "bar_p_right": round((tally.bar_ok + 1) / (bar_n + 2), 6),
        "bar_error_kinds": {k: round((tally.bar_kinds[k] + 0.5) / bar_total, 6) for k in KINDS},
        # the reader's confidences on right and on wrong points: python -m bench prior draws from them
        "confidence_edges": hist_edges,
        "confidence_right": np.histogram(tally.conf_ok, bins=hist_edges)[0].tolist(),
        "confidence_wrong": np.histogram(tally.conf_wrong, bins=hist_edges)[0].tolist(),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.prior_fit", description=__doc__.split("\n")[0])
    ap.add_argument("--renders", type=int, default=240, help="rendered boards to read (default 240)")
    ap.add_argument("--seed", type=int, default=9000, help="first render seed (default 9000)")
    ap.add_argument("--write", action="store_true", help=f"write {OUT.relative_to(ROOT)}")
    args = ap.parse_args(argv)
    console = Console(stderr=True)
    cv2.setNumThreads(1)
    tally = Tally()
    renders(tally, args.renders, args.seed)
    photos(tally, REAL, console)
    command = f"python -m bench.prior_fit --renders {args.renders} --seed {args.seed} --write"
    model = fitted(tally, command)
    text = json.dumps(model, indent=1) + "\n"
    if args.write:
        OUT.write_text(text)
        console.print(f"wrote {OUT.relative_to(ROOT)}")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
