"""Dice without a board: rendered scenes for `tavla dice` tests (a tray, a table, a cloth), with truth.

``render_dice_scene(values, *, size=(640, 480), seed=0, ...) -> DiceScene``: the dice ``values`` (1-6)
scattered on a plain or textured background, each turned at random, of one of the common dice colours
(`vision.render.scene.DICE_COLOURS`) or of ``colours``; ``cocked`` marks which lie tilted on an edge (the
side face shows). Dice never overlap. Deterministic for a seed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.reading import DieReading, DieStatus
from vision.render import draw
from vision.render.scene import DICE_COLOURS, RenderError

__all__ = ["DiceScene", "render_dice_scene"]

BACKGROUNDS = ((60, 110, 40), (40, 40, 40), (200, 200, 200), (90, 130, 170), (120, 80, 50))


@dataclass(frozen=True)
class DiceScene:
    """``image`` uint8 (H, W, 3) BGR; ``dice`` the truth (value, image_xy, status ``flat``/``cocked``),
    left to right; ``side_px`` each die's side length in pixels."""

    image: np.ndarray
    dice: tuple[DieReading, ...]
    side_px: tuple[float, ...]


def render_dice_scene(
    values: Sequence[int],
    *,
    size: tuple[int, int] = (640, 480),
    seed: int = 0,
    side: float | None = None,
    cocked: Sequence[bool] | None = None,
    colours: tuple[tuple[int, int, int], tuple[int, int, int]] | None = None,
    noise: float = 3.0,
    blur: float = 0.0,
) -> DiceScene:
    """Render dice on a background (see the module docstring). ``size`` (width, height) pixels; ``side``
    the dice side in pixels (None: random, 4-9 % of the shorter image side); ``colours`` (body, pips)
    BGR for every die; ``noise`` sigma in grey levels; ``blur`` Gaussian sigma in pixels.

    :raises RenderError: for a value outside 1-6, or when the dice do not fit in the image.
    """
    if any(not 1 <= v <= 6 for v in values):
        raise RenderError(f"die values {list(values)}: each must be 1-6")
    rng = np.random.default_rng(seed)
    w, h = size
    img = np.empty((h, w, 3), np.uint8)
    cv2.rectangle(img, (0, 0), (w, h), BACKGROUNDS[int(rng.integers(len(BACKGROUNDS)))], -1)
    tex = rng.normal(0, 6, (h // 8 + 1, w // 8 + 1)).astype(np.float32)
    tex = cv2.resize(tex, (w, h), interpolation=cv2.INTER_CUBIC)
    img = cv2.add(img, cv2.merge([tex, tex, tex]).astype(np.int16), dtype=cv2.CV_8U)
    s = side if side is not None else float(rng.uniform(0.04, 0.09)) * min(w, h)
    tilts = list(cocked) if cocked is not None else [False] * len(values)
    body, pip = colours if colours is not None else DICE_COLOURS[int(rng.integers(len(DICE_COLOURS)))]
    placed: list[tuple[float, float]] = []
    truth = []
    for value, tilt in zip(values, tilts, strict=True):
        for _ in range(500):
            x, y = float(rng.uniform(s, w - s)), float(rng.uniform(s, h - s * 1.5))
            if all(math.hypot(x - a, y - b) > s * 1.9 for a, b in placed):
                break
        else:
            raise RenderError(f"{len(values)} dice of {s:.0f} px do not fit in {w}x{h}")
        placed.append((x, y))
        t = float(rng.uniform(0.5, 0.9)) if tilt else 0.0
        side_value = next(v for v in (value % 6 + 1, (value + 1) % 6 + 1) if v + value != 7)
        draw.die(img, x, y, s, value, float(rng.uniform(0, 90)), body, pip, t, side_value)
        truth.append(DieReading(value, (x, y), DieStatus.COCKED if tilt else DieStatus.FLAT, 1.0))
    if blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    if noise > 0:
        n = rng.normal(0, noise, img.shape).astype(np.int16)
        img = cv2.add(img, n, dtype=cv2.CV_8U)
    order = sorted(range(len(truth)), key=lambda i: truth[i].image_xy[0])  # type: ignore[index]
    return DiceScene(img, tuple(truth[i] for i in order), tuple(s for _ in order))
