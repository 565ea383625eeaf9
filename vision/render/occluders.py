"""Occluders pasted onto any photo (a real one too): hands, skin-coloured blobs, sleeves, cups, and
the camera's exposure pushed too far either way.

The occlusion test (`vision.checkers.occlusion`) is measured on real photos with these pasted over
their stacks, their bare points or reaching in from the frame's edge (``bench/occlusion.py``), so
its figure is not the renderer's alone. Each occluder is drawn as a soft-edged alpha mask and a
shaded colour layer (a real hand is lit from one side and out of focus at its rim), then blended.
Positions and sizes are image pixels; ``radius`` is a checker's radius there.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.errors import RenderError

__all__ = ["OCCLUDERS", "expose", "fabric_tone", "paste_occluder", "skin_tone"]

OCCLUDERS = ("hand", "blob", "sleeve", "cup")

BGR = tuple[int, int, int]
XY = tuple[float, float]


def _lab_to_bgr(lab: tuple[float, float, float]) -> BGR:
    px = np.array([[lab]], np.uint8)
    b, g, r = (int(v) for v in cv2.cvtColor(px, cv2.COLOR_LAB2BGR)[0, 0])
    return b, g, r


def skin_tone(rng: np.random.Generator) -> BGR:
    """A skin colour drawn over the range of human skin in Lab (OpenCV's 8-bit scale): lightness
    from deep brown to pale, red-yellow chroma of skin."""
    lightness = rng.uniform(30.0, 85.0) * 2.55
    return _lab_to_bgr((lightness, 128.0 + rng.uniform(6.0, 26.0), 128.0 + rng.uniform(8.0, 34.0)))


def fabric_tone(rng: np.random.Generator) -> BGR:
    """A sleeve's or a cup's colour: any hue, any lightness, moderate chroma."""
    hue = rng.uniform(0.0, 2 * math.pi)
    chroma = rng.uniform(0.0, 45.0)
    return _lab_to_bgr((rng.uniform(15.0, 90.0) * 2.55, 128.0 + chroma * math.cos(hue),
                        128.0 + chroma * math.sin(hue)))


def _blend(image: np.ndarray, alpha: np.ndarray, colour: BGR, rng: np.random.Generator,
           direction: XY, texture: float) -> np.ndarray:
    """``image`` with ``colour`` laid over it at ``alpha`` (float (H, W) 0-1), shaded along
    ``direction`` (light from one side) and with a little surface texture."""
    h, w = image.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    dx, dy = direction
    ramp = (xs * dx + ys * dy) / max(1.0, float(max(h, w)))
    shade = 1.0 + rng.uniform(0.2, 0.5) * (ramp - float(ramp.mean()))
    grain = cv2.GaussianBlur(rng.normal(0.0, texture, (h, w)).astype(np.float32), (0, 0), 1.5)
    layer = np.array(colour, np.float32)[None, None, :] * (shade + grain)[..., None]
    a = alpha[..., None]
    out = image.astype(np.float32) * (1.0 - a) + layer * a
    return np.clip(np.round(out), 0, 255).astype(np.uint8)


def _soft(mask: np.ndarray, sigma: float) -> np.ndarray:
    alpha = mask.astype(np.float32) / 255.0
    return cv2.GaussianBlur(alpha, (0, 0), max(0.5, sigma)) if sigma > 0 else alpha


def _pt(x: float, y: float) -> tuple[int, int]:
    return int(round(x)), int(round(y))


def _hand_mask(shape: tuple[int, int], at: XY, radius: float, entry: XY | None,
               rng: np.random.Generator) -> tuple[np.ndarray, XY]:
    """A palm (ellipse), four fingers and a thumb (thick lines) pointing at ``at``, with a forearm
    back to ``entry`` when given (else a wrist stub); and the unit direction the hand points."""
    mask = np.zeros(shape, np.uint8)
    palm_w = radius * rng.uniform(3.6, 5.0)  # a palm is about two checkers and a half across
    if entry is None:
        angle = rng.uniform(0.0, 2 * math.pi)
        ux, uy = math.cos(angle), math.sin(angle)
    else:
        d = math.hypot(at[0] - entry[0], at[1] - entry[1]) or 1.0
        ux, uy = (at[0] - entry[0]) / d, (at[1] - entry[1]) / d
    nx, ny = -uy, ux
    # the palm's centre sits behind the point the fingers reach over
    px, py = at[0] - ux * palm_w * 0.55, at[1] - uy * palm_w * 0.55
    cv2.ellipse(mask, _pt(px, py), (int(palm_w * 0.5), int(palm_w * 0.45)),
                math.degrees(math.atan2(uy, ux)), 0, 360, 255, -1, cv2.LINE_AA)
    thick = max(2, int(palm_w * rng.uniform(0.15, 0.2)))
    curl = rng.uniform(0.5, 1.0)  # fingers spread out or curled in
    for k in (-0.33, -0.11, 0.11, 0.33):
        fx, fy = px + nx * palm_w * k + ux * palm_w * 0.3, py + ny * palm_w * k + uy * palm_w * 0.3
        ln = palm_w * curl * (0.75 - abs(k) * 0.5)
        cv2.line(mask, _pt(fx, fy), _pt(fx + ux * ln, fy + uy * ln), 255, thick, cv2.LINE_AA)
    side = 1.0 if rng.random() < 0.5 else -1.0
    tx, ty = px + nx * side * palm_w * 0.45, py + ny * side * palm_w * 0.45
    cv2.line(mask, _pt(tx, ty), _pt(tx + (ux + nx * side) * palm_w * 0.35,
                                    ty + (uy + ny * side) * palm_w * 0.35), 255, thick, cv2.LINE_AA)
    back = entry if entry is not None else (px - ux * palm_w * 0.9, py - uy * palm_w * 0.9)
    arm_w = palm_w * rng.uniform(0.4, 0.5)
    far = arm_w * 1.2  # a forearm widens toward the elbow
    arm = np.array([(px + nx * arm_w, py + ny * arm_w), (back[0] + nx * far, back[1] + ny * far),
                    (back[0] - nx * far, back[1] - ny * far), (px - nx * arm_w, py - ny * arm_w)])
    cv2.fillPoly(mask, [np.round(arm).astype(np.int32)], 255, cv2.LINE_AA)
    return mask, (ux, uy)


def paste_occluder(image: np.ndarray, kind: str, at: XY, radius: float, rng: np.random.Generator,
                   entry: XY | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``image`` (BGR uint8, not changed) with an occluder of ``kind`` over ``at``, and its mask
    (uint8 (H, W), 255 where it is mostly opaque).

    ``hand``: a skin-toned hand reaching over ``at`` (from ``entry``, an image point on or beyond
    the edge, with its forearm; else a hand alone); ``blob``: a skin-coloured ellipse two to three
    checkers across; ``sleeve``: a fabric band three to four checkers wide from ``entry`` (required)
    to ``at``; ``cup``: a cup seen from above, a rimmed disc about two checkers across.
    """
    if kind not in OCCLUDERS:
        raise RenderError(f"occluder {kind!r}: use one of {', '.join(OCCLUDERS)}")
    if image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        raise RenderError("paste_occluder draws on a BGR uint8 image")
    h, w = image.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    direction: XY = (math.cos(rng.uniform(0, 2 * math.pi)), math.sin(rng.uniform(0, 2 * math.pi)))
    out = image
    if kind == "hand":
        mask, direction = _hand_mask((h, w), at, radius, entry, rng)
        out = _blend(image, _soft(mask, radius * rng.uniform(0.05, 0.25)), skin_tone(rng), rng,
                     (-direction[1], direction[0]), 0.03)
    elif kind == "blob":
        axes = (int(radius * rng.uniform(1.5, 2.5)), int(radius * rng.uniform(1.5, 2.5)))
        cv2.ellipse(mask, _pt(*at), axes, rng.uniform(0, 180), 0, 360, 255, -1, cv2.LINE_AA)
        soft = _soft(mask, radius * rng.uniform(0.05, 0.3))
        out = _blend(image, soft, skin_tone(rng), rng, direction, 0.02)
    elif kind == "sleeve":
        if entry is None:
            raise RenderError("a sleeve reaches in from the frame's edge: give its entry")
        half = radius * rng.uniform(3.0, 4.0)
        d = math.hypot(at[0] - entry[0], at[1] - entry[1]) or 1.0
        nx, ny = -(at[1] - entry[1]) / d, (at[0] - entry[0]) / d
        ox, oy = nx * half, ny * half
        band = np.array([(entry[0] + ox, entry[1] + oy), (at[0] + ox, at[1] + oy),
                         (at[0] - ox, at[1] - oy), (entry[0] - ox, entry[1] - oy)])
        cv2.fillPoly(mask, [np.round(band).astype(np.int32)], 255, cv2.LINE_AA)
        cv2.circle(mask, _pt(*at), int(half), 255, -1, cv2.LINE_AA)
        soft = _soft(mask, radius * rng.uniform(0.05, 0.3))
        out = _blend(image, soft, fabric_tone(rng), rng, (nx, ny), 0.06)
    else:  # cup: body, a darker inside within a rim, seen from above
        r = radius * rng.uniform(1.8, 2.4)
        cv2.circle(mask, _pt(*at), int(r), 255, -1, cv2.LINE_AA)
        colour = fabric_tone(rng)
        out = _blend(image, _soft(mask, radius * 0.08), colour, rng, direction, 0.01)
        inner = np.zeros((h, w), np.uint8)
        cv2.circle(inner, _pt(*at), int(r * rng.uniform(0.78, 0.88)), 255, -1, cv2.LINE_AA)
        drink = tuple(int(c * rng.uniform(0.25, 0.7)) for c in colour)
        out = _blend(out, _soft(inner, radius * 0.05), (drink[0], drink[1], drink[2]), rng, direction, 0.01)
    return out, np.where(mask >= 128, 255, 0).astype(np.uint8)


def expose(image: np.ndarray, gain: float, rng: np.random.Generator | None = None) -> np.ndarray:
    """``image`` as a camera set to ``gain`` times the exposure would take it: values scaled and
    clipped at 255 (over-exposed, ``gain`` > 1: highlights blown out), or scaled down with the
    sensor noise a dim frame carries (``gain`` < 1, when ``rng`` is given)."""
    if gain <= 0:
        raise RenderError(f"exposure gain {gain}: must be positive")
    out = image.astype(np.float32) * gain
    if gain < 1 and rng is not None:
        out += rng.normal(0.0, 2.0, out.shape).astype(np.float32)
    return np.clip(np.round(out), 0, 255).astype(np.uint8)
