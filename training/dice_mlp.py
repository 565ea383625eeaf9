"""Train the learned die check (:mod:`vision.dice.learn`) and measure it on photos it has not seen.

``python -m training.dice_mlp [--data ../shared/data/dice-d6] [--epochs 20] [--write]``

1. The classical reader (:func:`vision.dice.photo.read_candidates`) runs on every labelled photo (YOLO
   labels: ``CLASS CX CY W H``, CLASS = pips - 1). Each candidate with a face becomes a normalised crop
   (:func:`vision.dice.photo.candidate_crop`), labelled with the pips of the labelled box holding its face
   centre, or 0 (not a die) when no box holds it. The photos are read, never copied.
2. Held-out by image: a model is trained on the even-numbered photos (sorted by name) and scored on
   the odd ones, and the reverse, with the same matching as ``../shared/tools/eval_dice.py``
   (first unused box containing the die's centre). Both halves are printed beside the classical
   reading alone.
3. ``--write``: a model trained on all photos is written to ``vision/dice/assets/dice_mlp.npz``.

Training: a one-hidden-layer (64 ReLU) perceptron, softmax cross-entropy, Adam (lr 1e-3), weight decay
1e-4, input dropout 0.2, mini-batches of 128, every crop in its 8 rotations/mirror images; seeded, so a
run is repeatable.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from rich.console import Console
from rich.progress import track

from vision.dice.learn import JOIN_VALUES, MIN_EDGE, VIEWS, WEIGHTS, DiceModel, decide, dihedral, features
from vision.dice.photo import _check_image, _working, candidate_crop, read_candidates

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "dice-d6"


@dataclass
class Sample:
    """One candidate: photo index, face centre (input px), classical value/confidence, truth (0 = no
    die), features of its 8 views (8 x 3528), die edge (working px)."""

    image: int
    xy: tuple[float, float]
    value: int
    confidence: float
    truth: int
    views: np.ndarray
    edge: float = 0.0


def _boxes(path: Path, w: int, h: int) -> list[tuple[int, float, float, float, float]]:
    out = []
    for line in path.read_text().splitlines():
        p = line.split()
        if len(p) == 5:
            c, cx, cy, bw, bh = int(p[0]), *map(float, p[1:])
            out.append((c + 1, (cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h))
    return out


def collect(data: Path) -> tuple[list[Sample], list[list[tuple[int, float, float, float, float]]]]:
    """Candidates of every labelled photo in ``data/images`` (see the module docstring), and each
    photo's labelled boxes (pips, x0, y0, x1, y1 in px)."""
    names = sorted(p for p in (data / "images").iterdir() if (data / "labels" / (p.stem + ".txt")).exists())
    samples: list[Sample] = []
    boxes: list[list[tuple[int, float, float, float, float]]] = []
    for k, path in enumerate(track(names, description="reading the photos")):
        img = _check_image(cv2.imread(str(path)))
        h, w = img.shape[:2]
        bx = _boxes(data / "labels" / (path.stem + ".txt"), w, h)
        boxes.append(bx)
        reads, scale, _ = read_candidates(img)
        work, _ = _working(img)
        for c, face in reads:
            if face is None:
                continue
            x, y = (c.x0 + face.centre[0]) / scale, (c.y0 + face.centre[1]) / scale
            hit = [b[0] for b in bx if b[1] <= x <= b[3] and b[2] <= y <= b[4]]
            views = np.stack([features(v) for v in dihedral(candidate_crop(work, c, face))])
            truth = hit[0] if hit else 0
            samples.append(Sample(k, (x, y), face.value, face.confidence, truth, views, c.size))
    return samples, boxes


def collect_rendered(scenes: int, seed: int = 1) -> list[Sample]:
    """Candidates of ``scenes`` dice scenes rendered by :func:`vision.render.dice.render_dice_scene`
    (4-8 dice of random values, colours, sizes 20-60 px, some cocked, blur 0-1.2 px), labelled with the
    rendered die within 0.6 edges of the face centre (0 when none). Always training data: renders cannot
    be over-fitted to the photos, and they hold the layouts of every value in every colour."""
    from vision.render.dice import render_dice_scene
    from vision.render.scene import RenderError

    rng = np.random.default_rng(seed)
    out: list[Sample] = []
    for k in track(range(scenes), description="rendering dice"):
        n = int(rng.integers(4, 9))
        values = [int(v) for v in rng.integers(1, 7, n)]
        colours = None
        if rng.random() < 0.4:  # any body colour with a pip colour far from it
            body = rng.integers(0, 256, 3)
            pip = np.where(body > 127, rng.integers(0, 60, 3), rng.integers(195, 256, 3))
            colours = (tuple(int(c) for c in body), tuple(int(c) for c in pip))
        try:
            scene = render_dice_scene(
                values, size=(640, 480), seed=seed * 100_000 + k, side=float(rng.uniform(20, 60)),
                cocked=[bool(rng.random() < 0.15) for _ in values], colours=colours,  # type: ignore[arg-type]
                noise=float(rng.uniform(1, 6)), blur=float(rng.uniform(0, 1.2)),
            )
        except RenderError:
            continue
        img = scene.image
        reads, scale, _ = read_candidates(img)
        work, _ = _working(img)
        for c, face in reads:
            if face is None:
                continue
            x, y = (c.x0 + face.centre[0]) / scale, (c.y0 + face.centre[1]) / scale
            truth = 0
            for d, side in zip(scene.dice, scene.side_px, strict=True):
                dx, dy = d.image_xy or (-1e9, -1e9)
                if np.hypot(dx - x, dy - y) <= 0.6 * side:
                    truth = d.value
            views = np.stack([features(v) for v in dihedral(candidate_crop(work, c, face))])
            out.append(Sample(-1, (x, y), face.value, face.confidence, truth, views, c.size))
    return out


def train(x: np.ndarray, y: np.ndarray, epochs: int = 20, hidden: int = 64, seed: int = 0) -> DiceModel:
    """Fit the perceptron to features ``x`` (n x d float32) and classes ``y`` (n, 0-6)."""
    rng = np.random.default_rng(seed)
    mu, sd = x.mean(axis=0), x.std(axis=0) + 1e-3
    xn = ((x - mu) / sd).astype(np.float32)
    d = x.shape[1]
    params = [
        rng.normal(0, np.sqrt(2 / d), (d, hidden)).astype(np.float32), np.zeros(hidden, np.float32),
        rng.normal(0, np.sqrt(2 / hidden), (hidden, 7)).astype(np.float32), np.zeros(7, np.float32),
    ]
    m1 = [np.zeros_like(p) for p in params]
    m2 = [np.zeros_like(p) for p in params]
    step, lr, decay = 0, 1e-3, 1e-4
    for _ in range(epochs):
        order = rng.permutation(len(xn))
        for s in range(0, len(order), 128):
            j = order[s : s + 128]
            xb = xn[j] * (rng.random((len(j), d)) > 0.2) / 0.8
            w1, b1, w2, b2 = params
            hid = np.maximum(xb @ w1 + b1, 0)
            z = hid @ w2 + b2
            z -= z.max(axis=1, keepdims=True)
            g = np.exp(z)
            g /= g.sum(axis=1, keepdims=True)
            g[np.arange(len(j)), y[j]] -= 1
            g /= len(j)
            gh = g @ w2.T
            gh[hid <= 0] = 0
            grads = [xb.T @ gh + decay * w1, gh.sum(axis=0), hid.T @ g + decay * w2, g.sum(axis=0)]
            step += 1
            for i, gr in enumerate(grads):
                m1[i] = 0.9 * m1[i] + 0.1 * gr
                m2[i] = 0.999 * m2[i] + 0.001 * gr * gr
                params[i] -= lr * (m1[i] / (1 - 0.9**step)) / (np.sqrt(m2[i] / (1 - 0.999**step)) + 1e-8)
    return DiceModel({"mu": mu, "sd": sd, "W1": params[0], "b1": params[1], "W2": params[2], "b2": params[3]})


def _fit(samples: list[Sample], epochs: int) -> DiceModel:
    x = np.concatenate([s.views for s in samples])
    y = np.repeat(np.array([s.truth for s in samples]), 8)
    return train(x, y, epochs)


def score(
    samples: list[Sample], boxes: list[list[tuple[int, float, float, float, float]]], images: set[int],
    model: DiceModel | None, join: bool = JOIN_VALUES,
) -> tuple[int, int, int, int, int]:
    """(right, labelled, wrong value, missed, extra) over ``images``, matched as eval_dice.py does."""
    right = labelled = wrong = missed = extra = 0
    by_image: dict[int, list[Sample]] = {}
    for s in samples:
        by_image.setdefault(s.image, []).append(s)
    probs = None
    for k in sorted(images):
        found = []
        mine = by_image.get(k, [])
        if model is not None and mine:
            x = np.concatenate([s.views[:VIEWS] for s in mine])
            probs = model.probabilities(x).reshape(len(mine), VIEWS, -1).mean(axis=1)
        for i, s in enumerate(mine):
            value: int | None = s.value
            if model is not None and probs is not None and s.edge >= MIN_EDGE:
                joined = decide(s.value, s.confidence, probs[i], join)
                value = None if joined is None else joined[0]
            if value is not None:
                found.append((s.xy, value))
        found.sort()
        used: set[int] = set()
        for (x, y), value in found:
            hit = [
                i for i, b in enumerate(boxes[k]) if i not in used and b[1] <= x <= b[3] and b[2] <= y <= b[4]
            ]
            if not hit:
                extra += 1
                continue
            used.add(hit[0])
            right += int(boxes[k][hit[0]][0] == value)
            wrong += int(boxes[k][hit[0]][0] != value)
        labelled += len(boxes[k])
        missed += len(boxes[k]) - len(used)
    return right, labelled, wrong, missed, extra


def _line(name: str, r: tuple[int, int, int, int, int]) -> str:
    right, total, wrong, missed, extra = r
    acc = 100.0 * right / max(total, 1)
    return (
        f"{name}: dice right {right}/{total} = {acc:.2f}%, wrong value {wrong}, missed {missed}, "
        f"extra {extra}"
    )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m training.dice_mlp", description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DATA, help="a YOLO-labelled folder (images/, labels/)")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--renders", type=int, default=300, help="rendered scenes added to every training set")
    ap.add_argument("--write", action="store_true", help=f"train on all photos and write {WEIGHTS}")
    a = ap.parse_args(argv)
    console = Console()
    if not (a.data / "images").is_dir():
        console.print(f"tavla: no {a.data}/images: give --data the dice-d6 folder")
        raise SystemExit(2)
    samples, boxes = collect(a.data)
    samples += collect_rendered(a.renders)
    n = len(boxes)
    for half, name in ((1, "odd"), (0, "even")):
        held = {k for k in range(n) if k % 2 == half}
        model = _fit([s for s in samples if s.image not in held], a.epochs)
        console.print(_line(f"held-out {name} photos, classical alone", score(samples, boxes, held, None)))
        console.print(_line(f"held-out {name} photos, model's verdict ", score(samples, boxes, held, model)))
        joined = score(samples, boxes, held, model, join=True)
        console.print(_line(f"held-out {name} photos, values joined  ", joined))
    if a.write:
        model = _fit(samples, a.epochs)
        WEIGHTS.parent.mkdir(exist_ok=True)
        model.save(WEIGHTS)
        console.print(f"wrote {WEIGHTS} ({WEIGHTS.stat().st_size // 1024} KiB), trained on all {n} photos")


if __name__ == "__main__":
    main()
