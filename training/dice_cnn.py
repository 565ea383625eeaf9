"""Train the dice network (:mod:`vision.dice.cnn`) on labelled photos and measure it on photos it has not
seen. Needs the ``train`` extra (PyTorch, ONNX): ``pip install -e '.[train]'`` in a separate venv, or
``make train-dice``.

``python -m training.dice_cnn [--data ../shared/data/dice-d6] [--folds 4] [--epochs 24] [--write]``

1. Photos and YOLO labels (``CLASS CX CY W H``, CLASS = pips - 1) are read from ``--data``; never
   copied. A photo's die edge is the median of its boxes' sqrt(w h) / (4 / pi) (the mean of
   ``|cos t| + |sin t|``: an axis-aligned box around a square turned by a random angle t).
2. Each training step draws patches of ``PATCH`` px: a photo, scaled so its dice are ``EDGE_PX`` px
   times a random factor (0.67-1.5), turned by any angle, mirrored at random, centred on a die or
   anywhere; hue shift, saturation, brightness, contrast, gamma, negative image, grey, channel order,
   blur, noise and JPEG artefacts. Targets (CenterNet, Zhou et al. 2019): a Gaussian heat bump per
   die centre, pips and log size at the cells near it.
3. ``--folds K`` (K >= 2): photos are split by photo (sorted name, index mod K); a network trained on
   K - 1 parts reads the held-out part through the real reader (:func:`vision.dice.photo.read_dice_with`,
   OpenCV dnn), scored as ``../shared/tools/eval_dice.py`` scores ``tavla dice``. Then (``--write``)
   a network trained on all photos is exported to ``vision/dice/assets/dice_cnn.onnx``.

4. The crop classifier is trained from scratch on crops of the labelled dice (value 1-6) and on
   "not a die" crops: beside dice, noise and texture (``--noise``; uniform RGB noise otherwise yields
   phantom dice), and dice seen at the wrong scale (``--wrong-scale``: magnified so that a pip fills
   the crop, or shrunk; what lets :func:`vision.dice.cnn.find` choose between scales), with drawn dice
   as volume (``--drawn``). ``--cls-only`` keeps the detector files; ``--init FILE.onnx`` fine-tunes
   an exported classifier instead (batch norm folded in the file, so it stays frozen). Shipped
   2026-12-01 (2 cores shared by several jobs, one thread each, ~45-55 min a run)::

       python -m training.dice_cnn --folds 2 --only-fold 0 --cls-only --threads 1  # held out
       python -m training.dice_cnn --folds 0 --write --cls-only --threads 1        # ship

   (width 24, 360 epochs of 2048 crops = 5,760 steps. Held out, read by the same reader: 1,008
   steps gave 96.29 %, 2,496 steps 98.35 %, 5,760 steps 98.90 %, and 99.59 % once
   :func:`vision.dice.cnn.find` looked for pips out to ``PIP_REACH``; the former 16-wide classifier
   93.82 %. On this data the classifier was undertrained, not small.)

Seeded (numpy, torch): a run is repeatable on one machine. CPU only; ``torch.set_num_threads``.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

try:
    import torch
    from torch import nn
except ImportError as exc:  # pragma: no cover - the runtime never imports this module
    raise SystemExit("training needs PyTorch: install the train extra (pip install -e '.[train]')") from exc

from vision.dice.cnn import (
    CLASSIFIER,
    CROP,
    CROP_EDGE,
    EDGE_PX,
    STRIDE,
    WEIGHTS,
    DiceClassifier,
    DiceNet,
    face_angle,
)
from vision.render.draw import PIPS

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "dice-d6"
PATCH = 96
_BOX_PER_EDGE = 4.0 / math.pi


@dataclass
class Photo:
    """One labelled photo: BGR uint8 image, dice as rows (pips, cx, cy, edge) in px, its median edge."""

    name: str
    image: np.ndarray
    dice: np.ndarray
    edge: float


def load_photos(data: Path) -> list[Photo]:
    """Every photo of ``data/images`` with a label file in ``data/labels``, sorted by name."""
    out = []
    for p in sorted((data / "images").iterdir()):
        lab = data / "labels" / (p.stem + ".txt")
        img = cv2.imread(str(p), cv2.IMREAD_COLOR)
        if img is None or not lab.exists():
            continue
        h, w = img.shape[:2]
        rows = []
        for line in lab.read_text().splitlines():
            f = line.split()
            if len(f) == 5:
                c, cx, cy, bw, bh = int(f[0]), *map(float, f[1:])
                rows.append((c + 1, cx * w, cy * h, math.sqrt(bw * w * bh * h) / _BOX_PER_EDGE))
        dice = np.array(rows, np.float64).reshape(-1, 4)
        edge = float(np.median(dice[:, 3])) if len(dice) else 30.0
        out.append(Photo(p.name, img, dice, edge))
    return out


def _photometric(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Colour and quality changes of a uint8 BGR patch (see the module docstring)."""
    if rng.random() < 0.6:
        hsv = cv2.cvtColor(x, cv2.COLOR_BGR2HSV).astype(np.int32)
        hsv[..., 0] = (hsv[..., 0] + rng.integers(0, 180)) % 180
        hsv[..., 1] = np.clip(hsv[..., 1] * rng.uniform(0.4, 1.6), 0, 255)
        x = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)
    f = x.astype(np.float32)
    if rng.random() < 0.2:
        f = f[..., rng.permutation(3)]
    if rng.random() < 0.1:
        f[:] = f.mean(axis=2, keepdims=True)
    mean = f.mean()
    f = (f - mean) * rng.uniform(0.6, 1.4) + mean * rng.uniform(0.6, 1.4)
    f = 255.0 * (np.clip(f, 0, 255) / 255.0) ** rng.uniform(0.7, 1.4)
    if rng.random() < 0.15:
        f = 255.0 - f
    if rng.random() < 0.3:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.3, 1.2))
    f = f + rng.normal(0, rng.uniform(0, 6), f.shape)
    x = np.clip(f, 0, 255).astype(np.uint8)
    if rng.random() < 0.2:
        ok, buf = cv2.imencode(".jpg", x, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 90))])
        x = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return x


Patch = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def make_patch(photo: Photo, rng: np.random.Generator) -> Patch:
    """One augmented training patch and its targets.

    :returns: BGR uint8 PATCHxPATCHx3; heat float32 (n x n, n = PATCH / STRIDE, 1.0 at die centres);
        pips int64 (n x n, 0-5, -1 = not near a centre); log size float32 (n x n, NaN = not near).
    """
    s = EDGE_PX / photo.edge * math.exp(rng.uniform(-0.4, 0.4))
    ang = rng.uniform(0, 360)
    if len(photo.dice) and rng.random() < 0.75:
        d = photo.dice[rng.integers(len(photo.dice))]
        cx, cy = d[1] + rng.normal(0, 0.35 * PATCH / s), d[2] + rng.normal(0, 0.35 * PATCH / s)
    else:
        h, w = photo.image.shape[:2]
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    m = cv2.getRotationMatrix2D((cx, cy), ang, s)
    m[:, 2] += (PATCH / 2 - cx, PATCH / 2 - cy)
    if rng.random() < 0.5:  # mirror image: a d6 face keeps its pip count
        m = np.array([[-1.0, 0, PATCH], [0, 1, 0]]) @ np.vstack([m, [0, 0, 1]])
    border = tuple(float(v) for v in np.median(photo.image[::8, ::8].reshape(-1, 3), axis=0))
    interp = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
    patch = cv2.warpAffine(photo.image, m, (PATCH, PATCH), flags=interp, borderMode=cv2.BORDER_CONSTANT,
                           borderValue=border)
    patch = _photometric(patch, rng)
    n = PATCH // STRIDE
    heat = np.zeros((n, n), np.float32)
    pips = np.full((n, n), -1, np.int64)
    size = np.full((n, n), np.nan, np.float32)
    gy, gx = np.mgrid[0:n, 0:n].astype(np.float32)
    if len(photo.dice):
        pts = np.hstack([photo.dice[:, 1:3], np.ones((len(photo.dice), 1))]) @ m.T
        for (px, py), d in zip(pts, photo.dice, strict=True):
            e = d[3] * s / STRIDE  # die edge in cells
            ux, uy = px / STRIDE - 0.5, py / STRIDE - 0.5
            if not (-e <= ux <= n + e and -e <= uy <= n + e):
                continue
            d2 = (gx - ux) ** 2 + (gy - uy) ** 2
            sigma = max(0.6, 0.12 * e)
            heat = np.maximum(heat, np.exp(-d2 / (2 * sigma * sigma)))
            ix, iy = int(round(ux)), int(round(uy))
            if 0 <= ix < n and 0 <= iy < n:
                heat[iy, ix] = 1.0
            near = d2 <= max(1.0, 0.22 * e) ** 2
            pips[near] = int(d[0]) - 1
            size[near] = math.log(d[3] * s / EDGE_PX)
    return patch, heat, pips, size


def noise_crop(rng: np.random.Generator, size: int = CROP) -> np.ndarray:
    """A ``size`` x ``size`` uint8 BGR "not a die" crop of noise or texture: uniform or Gaussian RGB
    (or grey) noise drawn at a random grain and scaled to the crop, sometimes blurred -- what
    the detector's peaks on a noisy or textured image look like to the classifier."""
    g = int(rng.integers(max(2, size // 6), 3 * size))
    ch = 3 if rng.random() < 0.8 else 1
    if rng.random() < 0.6:
        x = rng.integers(0, 256, (g, g, ch)).astype(np.float32)
    else:
        x = rng.normal(rng.uniform(40, 215), rng.uniform(10, 90), (g, g, ch)).astype(np.float32)
    x = np.repeat(x, 3, axis=2) if ch == 1 else x
    interp = cv2.INTER_AREA if g > size else cv2.INTER_LINEAR
    x = cv2.resize(np.clip(x, 0, 255).astype(np.uint8), (size, size), interpolation=interp)
    if rng.random() < 0.3:
        x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.3, 1.5))
    return np.asarray(x)


def drawn_crop(rng: np.random.Generator, size: int = CROP,
               edge_px: float = CROP_EDGE) -> tuple[np.ndarray, int]:
    """A ``size`` x ``size`` uint8 BGR crop of a die drawn by :func:`vision.render.draw.die` (random
    body and pip colours of enough contrast, cloth, turn within a few degrees of the crop's axes,
    sometimes cocked with a side face showing) and its pips: volume for dice styles the photos lack
    (flat-coloured, any colour pair), never a replacement for them."""
    from vision.render import draw as render_draw

    big = 2 * size
    cloth = rng.integers(30, 226, 3)
    img = np.empty((big, big, 3), np.uint8)
    img[:] = cloth
    tex = cv2.resize(rng.normal(0, 8, (big // 6, big // 6)).astype(np.float32), (big, big))
    img = np.clip(img + tex[..., None], 0, 255).astype(np.uint8)
    while True:
        body, pip = rng.integers(0, 256, 3), rng.integers(0, 256, 3)
        if abs(float(body.mean()) - float(pip.mean())) > 70:
            break
    side = edge_px * math.exp(rng.uniform(-0.2, 0.2)) * 2
    value = int(rng.integers(1, 7))
    tilt = float(rng.uniform(0.1, 0.5)) if rng.random() < 0.2 else 0.0
    side_value = next(v for v in (value % 6 + 1, (value + 1) % 6 + 1) if v + value != 7)
    c = big / 2 + rng.normal(0, 0.1 * side, 2)
    turn = float(rng.normal(0, 5) + 90 * rng.integers(4))
    render_draw.die(img, float(c[0]), float(c[1]), side, value, turn,
                    tuple(int(v) for v in body), tuple(int(v) for v in pip), tilt, side_value)
    # drawn at twice the size and shrunk: anti-aliased edges and pips, as a camera's would be
    crop = cv2.resize(img, (size, size), interpolation=cv2.INTER_AREA)
    return _photometric(crop, rng), value


def make_crop(photo: Photo, rng: np.random.Generator, size: int = CROP, edge_px: float = CROP_EDGE,
              noise: float = 0.0, wrong_scale: float = 0.0, drawn: float = 0.0) -> tuple[np.ndarray, int]:
    """One augmented crop for the classifier (:func:`vision.dice.cnn.die_crop` geometry, ``size`` px,
    die edge ``edge_px``) and its class: a die's pips (centre jittered by 0.1 edge), or 0 for a point
    at least 0.75 edge from every die centre (half of them next to a die, as a detector's second peak
    on a die would be), or (a ``noise`` fraction) 0 for :func:`noise_crop`, or (a ``wrong_scale``
    fraction) 0 for a point on a die seen at the wrong scale, or (a ``drawn`` fraction) a drawn die
    (:func:`drawn_crop`): magnified 2.5-6 times (one pip then
    fills the crop as a die would) or shrunk 2.2-4 times. Those teach the classifier the die's scale,
    which is what lets :func:`vision.dice.cnn.find` choose between candidate scales of a photo whose
    pips a size estimate took for dice."""
    if rng.random() < noise:
        return noise_crop(rng, size), 0
    if rng.random() < drawn:
        return drawn_crop(rng, size, edge_px)
    h, w = photo.image.shape[:2]
    e = photo.edge
    cls = 0
    if len(photo.dice) and rng.random() < wrong_scale:
        d = photo.dice[rng.integers(len(photo.dice))]
        big = rng.random() < 0.7
        r = rng.uniform(2.5, 6.0) if big else 1.0 / rng.uniform(2.2, 4.0)
        if big and rng.random() < 0.6:
            # on one of its pips, where a detector scanning at the pips' scale puts its peaks (PIPS
            # are in half-sides: a corner pip 0.25 edge from the centre along each axis).
            t = math.radians(face_angle(photo.image, (d[1], d[2]), d[3]))
            px, py = PIPS[int(d[0])][rng.integers(int(d[0]))]
            px, py = px * d[3] / 2, py * d[3] / 2
            cx = d[1] + px * math.cos(t) - py * math.sin(t) + rng.normal(0, 0.03 * d[3])
            cy = d[2] + px * math.sin(t) + py * math.cos(t) + rng.normal(0, 0.03 * d[3])
        else:
            a, off = rng.uniform(0, 2 * math.pi), rng.uniform(0.0, 0.45 if big else 0.1) * d[3]
            cx, cy = d[1] + off * math.cos(a), d[2] + off * math.sin(a)
        m = cv2.getRotationMatrix2D((cx, cy), rng.uniform(0, 360), edge_px * r / d[3])
        m[:, 2] += (size / 2 - cx, size / 2 - cy)
        interp = cv2.INTER_AREA if r < 1 else cv2.INTER_LINEAR
        crop = cv2.warpAffine(photo.image, m, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE)
        return _photometric(crop, rng), 0
    if len(photo.dice) and rng.random() < 0.6:
        d = photo.dice[rng.integers(len(photo.dice))]
        cx, cy = d[1] + rng.normal(0, 0.1 * e), d[2] + rng.normal(0, 0.1 * e)
        cls = int(d[0])
    else:
        for _ in range(20):
            if len(photo.dice) and rng.random() < 0.5:
                d = photo.dice[rng.integers(len(photo.dice))]
                a, r = rng.uniform(0, 2 * math.pi), rng.uniform(0.75, 1.3) * e
                cx, cy = d[1] + r * math.cos(a), d[2] + r * math.sin(a)
            else:
                cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            if not len(photo.dice) or np.hypot(photo.dice[:, 1] - cx, photo.dice[:, 2] - cy).min() > 0.75 * e:
                break
    k = edge_px / e * math.exp(rng.uniform(-0.25, 0.25))
    # turned as the reader turns it (the die's edges along the crop's), give or take a few degrees, and
    # by a random quarter turn (a d6 face reads the same)
    turn = face_angle(photo.image, (cx, cy), e) + rng.normal(0, 5.0) + 90.0 * rng.integers(4)
    m = cv2.getRotationMatrix2D((cx, cy), turn, k)
    m[:, 2] += (size / 2 - cx, size / 2 - cy)
    if rng.random() < 0.5:
        m = np.array([[-1.0, 0, size], [0, 1, 0]]) @ np.vstack([m, [0, 0, 1]])
    interp = cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR
    crop = cv2.warpAffine(photo.image, m, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE)
    return _photometric(crop, rng), cls


def build_classifier(width: int = 16) -> nn.Module:
    """The crop classifier: 3x3 convolutions (``width``, 2, 4 x ``width`` channels), three 2x2
    poolings, global average, 7 logits."""

    def block(cin: int, cout: int) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    w1, w2, w4 = width, 2 * width, 4 * width

    class Cls(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body = nn.Sequential(
                *block(3, w1), *block(w1, w1), nn.MaxPool2d(2), *block(w1, w2), *block(w2, w2),
                nn.MaxPool2d(2), *block(w2, w4), nn.MaxPool2d(2), *block(w4, w4),
                nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(w4, 7),
            )

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.body((x - 128.0) / 64.0)

    return Cls()


def load_classifier_onnx(model: nn.Module, path: Path) -> None:
    """Start ``model`` (:func:`build_classifier`) from an exported classifier: the ONNX file holds the
    convolutions with batch norm folded in, so each conv takes the folded weight, its batch norm
    becomes the identity plus the folded bias (mean 0, var 1, scale 1) and must stay in eval mode
    (:func:`train_classifier` keeps it there) for the network to compute what the file does."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    init = {t.name: np.array(numpy_helper.to_array(t)) for t in graph.initializer}
    conv_inputs = [n.input for n in graph.node if n.op_type == "Conv"]
    convs = [m for m in model.modules() if isinstance(m, nn.Conv2d)]
    bns = [m for m in model.modules() if isinstance(m, nn.BatchNorm2d)]
    lin = [m for m in model.modules() if isinstance(m, nn.Linear)][0]
    with torch.no_grad():
        for conv, bn, ins in zip(convs, bns, conv_inputs, strict=True):
            conv.weight.copy_(torch.from_numpy(init[ins[1]]))
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(init[ins[2]]))
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
        gemm = [t for t in init if t.endswith(".weight") and init[t].ndim == 2][0]
        lin.weight.copy_(torch.from_numpy(init[gemm]))
        lin.bias.copy_(torch.from_numpy(init[gemm.replace(".weight", ".bias")]))


def train_classifier(photos: list[Photo], epochs: int, seed: int, label: str,
                     per_epoch: int = 2048, size: int = CROP, edge_px: float = CROP_EDGE,
                     noise: float = 0.0, init: Path | None = None, minutes: float = 1e9,
                     width: int = 16, wrong_scale: float = 0.0, drawn: float = 0.0) -> nn.Module:
    """The crop classifier trained on ``photos``: ``epochs`` x ``per_epoch`` fresh crops
    (:func:`make_crop` with ``size``, ``edge_px``, ``noise``, ``wrong_scale``, ``drawn``), batches of
    128, for a
    network of ``width`` (:func:`build_classifier`); started from the ONNX
    classifier ``init`` when given (fine-tuned at a third of the learning rate, batch norm frozen);
    stopped after ``minutes`` of wall time."""
    rng = np.random.default_rng(seed + 1000)
    torch.manual_seed(seed + 1000)
    model = build_classifier(width)
    lr = 3e-3
    if init is not None:
        load_classifier_onnx(model, init)
        lr = 1e-3
    steps = epochs * (per_epoch // 128)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    model.train()
    if init is not None:
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.eval()
    def batch_loss() -> torch.Tensor:
        batch = [make_crop(photos[rng.integers(len(photos))], rng, size, edge_px, noise, wrong_scale, drawn)
                 for _ in range(128)]
        x = torch.from_numpy(np.stack([b[0] for b in batch]).transpose(0, 3, 1, 2).astype(np.float32))
        y = torch.tensor([b[1] for b in batch])
        return nn.functional.cross_entropy(model(x), y, label_smoothing=0.05)

    _fit(model, opt, sched, steps, batch_loss, f"classifier {label}", 0.97, time.time() + 60.0 * minutes)
    return model


def _fit(model: nn.Module, opt: Any, sched: Any, steps: int, batch_loss: Callable[[], torch.Tensor],
         label: str, smooth: float, deadline: float = math.inf) -> None:
    """``steps`` optimiser steps on ``batch_loss()`` (or until ``deadline``, time.time() seconds), with a
    rich progress bar showing the loss averaged with weight ``smooth``; leaves ``model`` in eval mode."""
    cols = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
            TextColumn("loss {task.fields[loss]:.3f}"))
    with Progress(*cols) as prog:
        task = prog.add_task(label, total=steps, loss=float("nan"))
        avg = None
        for _ in range(steps):
            if time.time() > deadline:
                break
            loss = batch_loss()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            avg = loss.item() if avg is None else smooth * avg + (1 - smooth) * loss.item()
            prog.update(task, advance=1, loss=avg)
    model.eval()


def build_model() -> nn.Module:
    """The network: 3x3 convolutions with batch norm, two stride-2 steps, dilated context at 1/4."""

    def block(cin: int, cout: int, stride: int = 1, dil: int = 1) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, 3, stride, padding=dil, dilation=dil, bias=False),
                nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body = nn.Sequential(
                *block(3, 16), *block(16, 24, 2), *block(24, 24), *block(24, 48, 2), *block(48, 48),
                *block(48, 48, dil=2), *block(48, 48, dil=4), *block(48, 48, dil=2),
            )
            self.head = nn.Conv2d(48, 8, 1)
            with torch.no_grad():
                self.head.bias.zero_()
                self.head.bias[0] = -2.2  # prior p(die centre) ~ 0.1

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.head(self.body((x - 128.0) / 64.0))

    return Net()


def _loss(out: torch.Tensor, heat: torch.Tensor, pips: torch.Tensor, size: torch.Tensor) -> torch.Tensor:
    """Focal heat loss (CenterNet: alpha 2, beta 4) per die + pip cross-entropy + L1 on log size."""
    p = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
    pos = heat >= 1.0
    lpos = -((1 - p) ** 2 * torch.log(p))[pos].sum()
    lneg = -((1 - heat) ** 4 * p**2 * torch.log(1 - p))[~pos].sum()
    focal = (lpos + lneg) / pos.sum().clamp(min=1)
    ce = nn.functional.cross_entropy(out[:, 1:7], pips, ignore_index=-1)
    ok = ~torch.isnan(size)
    l1 = (out[:, 7][ok] - size[ok]).abs().mean() if ok.any() else out.sum() * 0
    return focal + ce + 0.5 * l1


def train(photos: list[Photo], epochs: int, steps: int, seed: int, label: str) -> nn.Module:
    """A network trained on ``photos`` for ``epochs`` x ``steps`` batches of 32 patches."""
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    model = build_model()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    total = epochs * steps
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=total, pct_start=0.15)
    weights = np.array([len(p.dice) + 3.0 for p in photos])
    weights /= weights.sum()
    model.train()

    def batch_loss() -> torch.Tensor:
        batch = [make_patch(photos[rng.choice(len(photos), p=weights)], rng) for _ in range(32)]
        x = torch.from_numpy(np.stack([b[0] for b in batch]).transpose(0, 3, 1, 2).astype(np.float32))
        heat, pips, size = (torch.from_numpy(np.stack([b[k] for b in batch])) for k in (1, 2, 3))
        return _loss(model(x), heat, pips, size)

    _fit(model, opt, sched, total, batch_loss, f"training {label}", 0.98)
    return model


def export(model: nn.Module, path: Path) -> None:
    """Write the detector as ONNX (opset 17, batch norm folded, height and width free)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    x = torch.zeros(1, 3, 128, 160)
    torch.onnx.export(model, (x,), str(path), input_names=["image"], output_names=["out"], opset_version=17,
                      dynamic_axes={"image": {2: "h", 3: "w"}, "out": {2: "h4", 3: "w4"}}, dynamo=False)


def export_classifier(model: nn.Module, path: Path, size: int = CROP) -> None:
    """Write the classifier as ONNX (opset 17, batch size free, ``size`` x ``size`` crops)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    x = torch.zeros(4, 3, size, size)
    torch.onnx.export(model, (x,), str(path), input_names=["crops"], output_names=["logits"],
                      opset_version=17, dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, dynamo=False)


def score(net: DiceNet, cls: DiceClassifier, photos: list[Photo]) -> tuple[int, int, int, int, int]:
    """(right, labelled, wrong value, missed, extra) of the real reader with ``net`` on ``photos``,
    matched as ``eval_dice.py`` does (first unused labelled box holding the die's centre)."""
    from vision.dice.photo import read_dice_with

    right = wrong = missed = extra = total = 0
    for ph in photos:
        got = read_dice_with(ph.image, net=net, classifier=cls).dice
        boxes = []
        for d in ph.dice:
            half = d[3] * _BOX_PER_EDGE / 2
            boxes.append((int(d[0]), d[1] - half, d[2] - half, d[1] + half, d[2] + half))
        used: set[int] = set()
        for g in got:
            x, y = g.image_xy or (-1.0, -1.0)
            hit = [i for i, b in enumerate(boxes)
                   if i not in used and b[1] <= x <= b[3] and b[2] <= y <= b[4]]
            if not hit:
                extra += 1
                continue
            used.add(hit[0])
            right += int(g.value == boxes[hit[0]][0])
            wrong += int(g.value != boxes[hit[0]][0])
        total += len(boxes)
        missed += len(boxes) - len(used)
    return right, total, wrong, missed, extra


def _line(r: tuple[int, ...]) -> str:
    return (f"dice right {r[0]}/{r[1]} = {100 * r[0] / max(r[1], 1):.2f}%, wrong value {r[2]}, "
            f"missed {r[3]}, extra {r[4]}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--folds", type=int, default=4, help="K of the K-fold check by photo (0 = none)")
    ap.add_argument("--only-fold", type=int, default=-1, help="train and score only this fold")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--steps", type=int, default=40, help="batches of 32 patches per epoch")
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--write", action="store_true", help=f"train on all photos and write {WEIGHTS.name}")
    ap.add_argument("--cls-epochs", type=int, default=360, help="classifier epochs of 2048 crops")
    ap.add_argument("--cls-crops", type=int, default=2048, help="classifier crops per epoch")
    ap.add_argument("--crop", type=int, default=CROP, help="classifier crop side (px); ship only = CROP")
    ap.add_argument("--crop-edge", type=float, default=CROP_EDGE, help="die edge in the crop (px)")
    ap.add_argument("--noise", type=float, default=0.05, help="fraction of noise/texture negative crops")
    ap.add_argument("--wrong-scale", type=float, default=0.2,
                    help="fraction of dice seen at the wrong scale, as 'not a die' crops")
    ap.add_argument("--drawn", type=float, default=0.08,
                    help="fraction of drawn-die crops (vision.render.draw)")
    ap.add_argument("--width", type=int, default=24, help="classifier width (channels of its first layers)")
    ap.add_argument("--init", type=Path, default=None, help="ONNX classifier to fine-tune from")
    ap.add_argument("--cls-minutes", type=float, default=1e9, help="stop classifier training after this")
    ap.add_argument("--cls-only", action="store_true", help="retrain only the classifier (keep the detector)")
    ap.add_argument("--no-flips", action="store_true", help="score without the mirrored test-time views")
    ap.add_argument("--keep", type=Path, default=Path("build/dice_cnn_folds"), help="where fold networks go")
    ap.add_argument("--reuse", action="store_true", help="score fold networks already in --keep")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    console = Console()
    photos = load_photos(a.data)
    if not photos:
        raise SystemExit(f"no labelled photos under {a.data}: give --data a folder with images/ and labels/")
    console.print(f"{len(photos)} photos, {sum(len(p.dice) for p in photos)} dice")
    sums = np.zeros(5, int)
    for k in range(a.folds if a.folds >= 2 else 0):
        if a.only_fold >= 0 and k != a.only_fold:
            continue
        t0 = time.time()
        held = [p for i, p in enumerate(photos) if i % a.folds == k]
        train_on = [p for i, p in enumerate(photos) if i % a.folds != k]
        det, cls = a.keep / f"fold{k}_of{a.folds}_cnn.onnx", a.keep / f"fold{k}_of{a.folds}_cls.onnx"
        if not ((a.reuse or a.cls_only) and det.exists()):
            export(train(train_on, a.epochs, a.steps, a.seed + k, f"fold {k + 1}/{a.folds}"), det)
        if a.cls_only:
            cls = a.keep / f"fold{k}_of{a.folds}_cls{a.crop}.onnx"
        if not (a.reuse and cls.exists()):
            name = f"fold {k + 1}/{a.folds}"
            model = train_classifier(train_on, a.cls_epochs, a.seed + k, name, a.cls_crops, a.crop,
                                     a.crop_edge, a.noise, a.init, a.cls_minutes, a.width,
                                     a.wrong_scale, a.drawn)
            export_classifier(model, cls, a.crop)
        r = score(DiceNet(det), DiceClassifier(cls, a.crop, a.crop_edge, not a.no_flips), held)
        sums += r
        console.print(f"fold {k + 1}/{a.folds} ({len(held)} held-out photos, {time.time() - t0:.0f} s): "
                      f"{_line(r)}")
    if sums[1]:
        console.print(f"[bold]held out by photo: {_line(tuple(int(v) for v in sums))}[/bold]")
    if a.write:
        t0 = time.time()
        if (a.crop, a.crop_edge) != (CROP, CROP_EDGE):
            raise SystemExit(f"--write needs --crop {CROP} --crop-edge {CROP_EDGE} (vision.dice.cnn's CROP, "
                             "CROP_EDGE): set those first, the runtime reads crops at that size")
        if not a.cls_only:
            export(train(photos, a.epochs, a.steps, a.seed, "all photos"), WEIGHTS)
        model = train_classifier(photos, a.cls_epochs, a.seed, "all photos", a.cls_crops, a.crop, a.crop_edge,
                                 a.noise, a.init, a.cls_minutes, a.width, a.wrong_scale, a.drawn)
        export_classifier(model, CLASSIFIER, a.crop)
        kib = (WEIGHTS.stat().st_size + CLASSIFIER.stat().st_size) / 1024
        console.print(f"wrote {WEIGHTS} and {CLASSIFIER.name} ({kib:.0f} KiB) in {time.time() - t0:.0f} s")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # Ctrl-C: one line, never a traceback
        import sys

        print("train-dice: interrupted (Ctrl-C)", file=sys.stderr)
        sys.exit(130)
