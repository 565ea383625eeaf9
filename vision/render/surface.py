"""A board's surface beyond its palette, for training renders: wood grain, printed logos and lettering
on the field, other point colours, glossy checkers.

Real boards show all of these and the three flat palettes of :mod:`vision.render.draw` none (a walnut
board with red checkers on black points and a maker's logo on the field, boards-real ``test6``). A
:class:`Surface` is passed to :func:`vision.render.scene.render` as ``surface``; without one (the
default: the demo, the tests) a render is unchanged, bit for bit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.render import draw

__all__ = ["POINT_COLOURS", "Surface", "gloss", "grain", "prints"]

BGR = tuple[int, int, int]

# Point colours real boards use (BGR): black, red, dark and mid brown, green, cream, white, navy.
POINT_COLOURS: tuple[BGR, ...] = ((24, 24, 26), (36, 30, 170), (30, 45, 80), (60, 100, 140), (50, 100, 40),
                                  (170, 210, 225), (230, 232, 232), (90, 40, 30))
_FIELDS: tuple[BGR, ...] = ((40, 60, 95), (30, 40, 60), (120, 182, 212), (70, 86, 104), (60, 110, 40),
                            (200, 215, 225), (25, 25, 28))
_INKS: tuple[BGR, ...] = ((60, 170, 210), (235, 235, 235), (20, 20, 20), (40, 40, 170), (110, 150, 190))
_WORDS = ("BACKGAMMON", "TAVLA", "CLUB", "OPEN 2026", "WORLD", "CHAMPIONSHIP", "MASTERS", "VIP", "GAMMON")


@dataclass(frozen=True)
class Surface:
    """``grain`` 0-1: wood grain over the field and its points; ``prints``: logos and words printed
    on the field (drawn under the checkers); ``points`` / ``field``: colours replacing the palette's
    (None keeps them); ``gloss`` 0-1: each checker's glare spot; ``seed`` fixes the grain and prints."""

    grain: float = 0.0
    prints: int = 0
    points: tuple[BGR, BGR] | None = None
    field: BGR | None = None
    gloss: float = 0.0
    seed: int = 0

    @staticmethod
    def random(rng: np.random.Generator) -> Surface:
        """A random surface: grain on most, prints on half, other colours on half, gloss on a third."""
        pa, pb = rng.choice(len(POINT_COLOURS), 2, replace=False)
        recolour = rng.random() < 0.5
        return Surface(
            grain=float(rng.uniform(0.2, 1.0)) if rng.random() < 0.7 else 0.0,
            prints=int(rng.integers(1, 5)) if rng.random() < 0.5 else 0,
            points=(POINT_COLOURS[int(pa)], POINT_COLOURS[int(pb)]) if recolour else None,
            field=_FIELDS[int(rng.integers(len(_FIELDS)))] if recolour and rng.random() < 0.6 else None,
            gloss=float(rng.uniform(0.3, 1.0)) if rng.random() < 0.35 else 0.0,
            seed=int(rng.integers(1 << 30)),
        )


def _box(img: np.ndarray, quad: np.ndarray) -> tuple[int, int, int, int]:
    h, w = img.shape[:2]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int)
    return max(0, x0), max(0, y0), min(w, x1), min(h, y1)


def grain(img: np.ndarray, quad: np.ndarray, strength: float, rng: np.random.Generator) -> None:
    """Wood grain over the axis-aligned box of ``quad`` (canvas px), in place: long, wavy streaks
    of lighter and darker wood along the board's long side, up to about a quarter of the brightness."""
    if strength <= 0:
        return
    x0, y0, x1, y1 = _box(img, quad)
    w, h = x1 - x0, y1 - y0
    if w < 4 or h < 4:
        return
    # streaks: noise stretched along x, its rows bent by a slow wave (the growth rings' sweep)
    rows = max(8, h // 3)
    base = rng.normal(0, 1, (rows, 24)).astype(np.float32)
    tex = cv2.resize(base, (w, h), interpolation=cv2.INTER_CUBIC)
    fine = cv2.resize(rng.normal(0, 1, (max(8, h // 2), 64)).astype(np.float32), (w, h),
                      interpolation=cv2.INTER_LINEAR)
    yy = np.arange(h, dtype=np.float32)[:, None]
    xx = np.arange(w, dtype=np.float32)[None, :]
    period = float(rng.uniform(0.02, 0.08)) * h
    wave = np.sin((yy + 0.15 * h * np.sin(xx / w * math.tau * rng.uniform(0.5, 2.0))) / period * math.tau)
    tex = 0.5 * tex + 0.3 * fine + 0.4 * wave
    gain = 1.0 + strength * 0.12 * tex
    roi = img[y0:y1, x0:x1].astype(np.float32) * gain[..., None]
    img[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)


def prints(img: np.ndarray, quad: np.ndarray, n: int, point_px: float, rng: np.random.Generator) -> None:
    """``n`` logos or words printed inside the box of ``quad`` (canvas px), in place: gold, white,
    black or red ink, a ring emblem or a word about half to one and a half point widths tall."""
    x0, y0, x1, y1 = _box(img, quad)
    if x1 - x0 < 8 or y1 - y0 < 8 or n <= 0:
        return
    whole, img = img, img[y0:y1, x0:x1].copy()  # drawn on the field's box alone: no ink past its edge
    x1, y1, x0, y0 = x1 - x0, y1 - y0, 0, 0
    for _ in range(n):
        ink = _INKS[int(rng.integers(len(_INKS)))]
        cx, cy = float(rng.uniform(x0, x1)), float(rng.uniform(y0, y1))
        size = float(rng.uniform(0.5, 1.5)) * point_px
        thick = max(1, int(size / float(rng.uniform(6, 14))))
        if rng.random() < 0.4:  # an emblem: a ring, an inner ring or a star's strokes
            draw.disc(img, cx, cy, size * 0.8, ink, thick)
            if rng.random() < 0.5:
                draw.disc(img, cx, cy, size * 0.55, ink, max(1, thick // 2))
            for k in range(int(rng.integers(0, 6))):
                a = math.tau * k / 5
                cv2.line(img, (int(cx), int(cy)), (int(cx + 0.5 * size * math.cos(a)),
                                                   int(cy + 0.5 * size * math.sin(a))), ink, thick, draw.AA)
        else:
            word = _WORDS[int(rng.integers(len(_WORDS)))]
            font = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_SCRIPT_COMPLEX,
                    cv2.FONT_HERSHEY_DUPLEX)[int(rng.integers(4))]
            (tw, th), _ = cv2.getTextSize(word, font, 1.0, thick)
            scale = size / max(1, th)
            (tw, th), _ = cv2.getTextSize(word, font, scale, thick)
            cv2.putText(img, word, (int(cx - tw / 2), int(cy + th / 2)), font, scale, ink, thick, draw.AA)
    bx, by = _box(whole, quad)[:2]
    whole[by:by + y1, bx:bx + x1] = img


def gloss(img: np.ndarray, x: float, y: float, r: float, strength: float, light: tuple[float, float]) -> None:
    """A glossy checker's glare at (x, y), radius ``r`` canvas px, in place: a bright spot toward the
    light (``light``: unit offset) blended toward white by ``strength``."""
    if strength <= 0:
        return
    sx, sy = x + light[0] * 0.45 * r, y + light[1] * 0.45 * r
    k = max(2, int(math.ceil(0.35 * r)))
    x0, y0 = max(0, int(sx) - k), max(0, int(sy) - k)
    x1, y1 = min(img.shape[1], int(sx) + k + 1), min(img.shape[0], int(sy) + k + 1)
    if x1 <= x0 or y1 <= y0:
        return
    gy, gx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    a = np.exp(-(((gx - sx) ** 2 + (gy - sy) ** 2) / (2 * (0.15 * r) ** 2))) * strength
    roi = img[y0:y1, x0:x1].astype(np.float32)
    img[y0:y1, x0:x1] = np.clip(roi + (255.0 - roi) * a[..., None], 0, 255).astype(np.uint8)
