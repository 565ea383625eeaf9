"""Train the per-point stack counter (:mod:`vision.checkers.network`). Needs the ``train`` extra
(PyTorch, ONNX) in its own venv: ``make train-stacks``.

``python -m training.stacks_cnn [--data build/stacks] [--epochs 20] [--tune 6] [--write]``
(``make train-stacks`` passes ``--epochs 10``: over its 2,500 renders that is more steps than 20
passes over 1,000.)

1. Strips come from ``python -m training.stacks_data`` (``renders.npz``: randomised renders;
   ``real.npz``: the labelled photos of ../shared/data, where the reader's finder puts the field).
2. The network is trained on the renders first (``--epochs``), then fine-tuned (``--tune`` epochs)
   on at most ``FINE_RENDERS`` renders together with the real strips of the photos allowed
   (:func:`fit`); each batch is mirrored left-right at random, shifted sideways by up to a sample,
   and its colours scaled and offset per channel (a standardised strip of another board's light).
3. Strips are read as they are and mirrored, the two readings averaged (:func:`predict`, as the
   runtime's :class:`~vision.checkers.network.StackNet` does).
4. ``--write`` exports the network fine-tuned on every real photo to
   ``vision/checkers/assets/stacks_cnn.onnx``. The leave-one-board-out figures come from
   ``python -m training.stacks_lobo`` (the same :func:`fit`, one board family held out at a time).

Seeded (numpy, torch): a run is repeatable on one machine. CPU only, one thread by default.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

try:
    import torch
    from torch import nn
except ImportError as exc:  # pragma: no cover - the runtime never imports this module
    raise SystemExit("training needs PyTorch: install the train extra (pip install -e '.[train]')") from exc

from training.stacks_data import Strips
from vision.checkers.network import N_COUNTS, STRIP_H, STRIP_W, WEIGHTS

__all__ = ["StackCNN", "export", "fit", "pretrain", "predict"]

DATA = Path("build/stacks")
# Real strips are few beside the renders' and most come from one webcam board: each strip of the
# other photos is drawn this many times as often as a webcam or render strip.
REAL_WEIGHT = 6.0
# Fine-tuning passes over the real strips and at most this many rendered ones (a seeded sample):
# enough renders that the network keeps what it learnt on them, few enough that each of the
# leave-one-board-out folds stays a short run however many renders pretraining had.
FINE_RENDERS = 12_000


class StackCNN(nn.Module):
    """Four 3x3 conv layers (batch norm, ReLU; the first of stride 2, two 2x poolings) and two dense
    layers: a strip of (3, STRIP_H, STRIP_W) in, N_COUNTS count logits out. The dense head keeps
    where along the strip a disc lies, which a count needs. Sized so that 24 strips run in about
    2 ms on one core under OpenCV's dnn."""

    def __init__(self, widths: tuple[int, int, int, int] = (8, 16, 24, 32)) -> None:
        super().__init__()

        def conv(i: int, o: int, stride: int = 1) -> list[nn.Module]:
            return [nn.Conv2d(i, o, 3, stride=stride, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU()]

        a, b, c, d = widths
        self.features = nn.Sequential(*conv(3, a, 2), *conv(a, b), nn.MaxPool2d(2),
                                      *conv(b, c), nn.MaxPool2d(2), *conv(c, d))
        flat = d * (STRIP_H // 8) * (STRIP_W // 8)
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(flat, 48), nn.ReLU(),
                                  nn.Linear(48, N_COUNTS))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))


def _augment(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A batch (B, 3, H, W) float32 mirrored, shifted sideways and recoloured at random."""
    x = x.copy()
    flip = rng.random(len(x)) < 0.5
    x[flip] = x[flip][..., ::-1]
    shift = rng.integers(-1, 2, len(x))
    for s in (-1, 1):
        m = shift == s
        x[m] = np.roll(x[m], s, axis=3)
    gain = rng.uniform(0.75, 1.3, (len(x), 3, 1, 1)).astype(np.float32)
    offset = rng.normal(0, 0.2, (len(x), 3, 1, 1)).astype(np.float32)
    x = x * gain + offset
    grey = rng.random(len(x)) < 0.1  # a colourless look: the count must not lean on colour alone
    x[grey] = x[grey].mean(axis=1, keepdims=True)
    return x


def _train(model: StackCNN, x: np.ndarray, y: np.ndarray, weight: np.ndarray, epochs: int, lr: float,
           seed: int, log: bool = True) -> StackCNN:
    """``epochs`` passes (each ``len(x)`` strips drawn with probability ``weight``) of AdamW with a
    cosine learning rate."""
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    batch = 128
    steps = max(1, epochs * len(x) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    p = weight / weight.sum()
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.02)
    model.train()
    t0, run = time.time(), 0.0
    for step in range(steps):
        idx = rng.choice(len(x), batch, p=p)
        xb = torch.from_numpy(_augment(x[idx].astype(np.float32), rng))
        yb = torch.from_numpy(y[idx].astype(np.int64))
        loss = loss_fn(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        run = 0.98 * run + 0.02 * loss.item() if step else loss.item()
        if log and (step + 1) % max(1, steps // 8) == 0:
            print(f"  step {step + 1}/{steps} loss {run:.3f} ({time.time() - t0:.0f} s)", flush=True)
    model.eval()
    return model


def predict(model: StackCNN, x: np.ndarray, mirror: bool = True) -> np.ndarray:
    """Count probabilities float32 (N, N_COUNTS); with ``mirror``, the mean of each strip's and its
    left-right mirror's, as :class:`vision.checkers.network.StackNet` reads them."""
    model.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(x), 512):
            xb = torch.from_numpy(x[i:i + 512].astype(np.float32))
            p = torch.softmax(model(xb), 1)
            if mirror:
                p = 0.5 * (p + torch.softmax(model(torch.flip(xb, (3,))), 1))
            out.append(p.numpy())
    return np.concatenate(out) if out else np.zeros((0, N_COUNTS), np.float32)


def pretrain(renders: Strips, epochs: int, seed: int = 0) -> StackCNN:
    """A network trained on rendered strips alone."""
    model = StackCNN()
    return _train(model, renders.x, renders.count, np.ones(len(renders.count)), epochs, 3e-3, seed)


def fit(base: StackCNN, renders: Strips, real: Strips, epochs: int, seed: int = 0,
        log: bool = True) -> StackCNN:
    """``base`` (a copy) fine-tuned on ``renders`` (at most ``FINE_RENDERS`` of them) and the
    ``real`` strips together."""
    model = StackCNN()
    model.load_state_dict(base.state_dict())
    if epochs <= 0:
        model.eval()
        return model
    if len(renders.count) > FINE_RENDERS:
        pick = np.zeros(len(renders.count), bool)
        pick[np.random.default_rng(seed + 2).choice(len(renders.count), FINE_RENDERS, replace=False)] = True
        renders = renders.take(pick)
    both = Strips.join([renders, real])
    weight = np.where(both.group == "render", 1.0, np.where(both.group == "webcam", 1.0, REAL_WEIGHT))
    return _train(model, both.x, both.count, weight, epochs, 1e-3, seed + 1, log)


def export(model: StackCNN, path: Path = WEIGHTS) -> None:
    """The network as ONNX (a batch of strips in, logits out), readable by ``cv2.dnn``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    model.eval()
    x = torch.zeros(24, 3, STRIP_H, STRIP_W)
    torch.onnx.export(model, (x,), str(path), input_names=["strips"], output_names=["logits"],
                      opset_version=17, dynamic_axes={"strips": {0: "n"}, "logits": {0: "n"}}, dynamo=False)


def load_data(folder: Path) -> tuple[Strips, Strips]:
    """(renders, real) strips written by ``python -m training.stacks_data``."""
    ren, real = sorted(folder.glob("renders-*.npz")), folder / "real.npz"
    if not ren or not real.exists():
        raise SystemExit(f"no strips in {folder}: run `python -m training.stacks_data --out {folder}` first")
    return Strips.join([Strips.load(p) for p in ren]), Strips.load(real)


def split_renders(renders: Strips, held: float = 0.15) -> tuple[Strips, Strips]:
    """(training, validation) renders, split by render: every ``1 / held``-th render of the sorted
    names, so every seed (each its own kind of render) gives its share to both."""
    names = np.unique(renders.image)
    cut = set(names[::max(1, round(1 / held))])
    val = np.array([n in cut for n in renders.image])
    return renders.take(~val), renders.take(val)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m training.stacks_cnn", description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--epochs", type=int, default=20, help="passes over the renders")
    ap.add_argument("--tune", type=int, default=6, help="passes over renders + real photos")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--write", action="store_true", help=f"export to {WEIGHTS}")
    a = ap.parse_args(argv)
    torch.set_num_threads(a.threads)
    renders, real = load_data(Path(a.data))
    train_r, val_r = split_renders(renders)
    print(f"{len(train_r.count)} rendered strips to train, {len(val_r.count)} to check; "
          f"{len(real.count)} real")
    base = pretrain(train_r, a.epochs)
    base_path = Path(a.data) / "pretrained.pt"
    torch.save(base.state_dict(), base_path)
    acc = float((predict(base, val_r.x).argmax(1) == val_r.count).mean())
    print(f"renders held out: {100 * acc:.2f} % of counts (renders only); saved {base_path}")
    model = fit(base, train_r, real, a.tune)
    acc = float((predict(model, val_r.x).argmax(1) == val_r.count).mean())
    print(f"renders held out: {100 * acc:.2f} % of counts (fine-tuned on every real photo)")
    if a.write:
        export(model)
        print(f"wrote {WEIGHTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
