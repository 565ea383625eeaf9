"""Drawing primitives for the board renderer (`vision.render.scene`): board, checkers, dice, cube, hand.

All functions draw in place on a ``uint8`` BGR canvas (H, W, 3) with OpenCV's anti-aliased primitives
at 1/16-pixel precision (``shift=4``). Positions and sizes arrive in canvas pixels (floats).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.errors import RenderError

SHIFT = 4
_ONE = 1 << SHIFT
AA = cv2.LINE_AA

BGR = tuple[int, int, int]

# Palettes taken by eye from the boards in ../shared/data (paper: boards-webcam; wood: the leather
# and wooden boards of boards-real; tournament: the championship frames of boards-real).
PALETTES: dict[str, dict[str, BGR]] = {
    "paper": {
        "table": (28, 26, 26), "sheet": (236, 238, 238), "frame": (22, 22, 22), "field": (236, 238, 238),
        "point_a": (236, 238, 238), "point_b": (118, 118, 116), "outline": (40, 40, 40),
        "light": (80, 190, 110), "dark": (60, 45, 215), "bar": (236, 238, 238), "tray": (236, 238, 238),
    },
    "wood": {
        "table": (70, 80, 92), "sheet": (36, 52, 84), "frame": (36, 52, 84), "field": (120, 182, 212),
        "point_a": (34, 40, 74), "point_b": (70, 112, 112), "outline": (60, 80, 100),
        "light": (188, 226, 242), "dark": (32, 50, 92), "bar": (36, 52, 84), "tray": (96, 150, 186),
    },
    "tournament": {
        "table": (120, 96, 60), "sheet": (22, 22, 24), "frame": (22, 22, 24), "field": (214, 230, 236),
        "point_a": (36, 30, 196), "point_b": (24, 24, 26), "outline": (40, 40, 40),
        "light": (238, 238, 238), "dark": (28, 28, 30), "bar": (22, 22, 24), "tray": (30, 30, 32),
    },
}


# Further looks of the same layouts (BoardSpec.variant 1, 2, ...): boards differ far more than three
# palettes -- light beech frames round dark leather with black and white points (boards-real
# template2), green felt with gold and white checkers (test10), black and white points on paper.
VARIANTS: dict[str, list[dict[str, BGR]]] = {
    "paper": [
        {"point_b": (40, 40, 40), "light": (235, 235, 235), "dark": (40, 40, 40), "outline": (30, 30, 30)},
    ],
    "wood": [
        {"table": (60, 110, 70), "sheet": (120, 172, 214), "frame": (120, 172, 214), "field": (70, 86, 104),
         "point_a": (28, 28, 30), "point_b": (232, 234, 234), "outline": (60, 60, 60), "bar": (120, 172, 214),
         "tray": (110, 160, 205), "light": (225, 232, 236), "dark": (40, 40, 170)},
        {"table": (150, 150, 150), "sheet": (30, 30, 40), "frame": (30, 30, 40), "field": (200, 215, 225),
         "point_a": (40, 40, 150), "point_b": (30, 30, 30), "bar": (30, 30, 40), "tray": (40, 40, 50),
         "light": (225, 232, 236), "dark": (30, 30, 30)},
    ],
    "tournament": [
        {"field": (60, 110, 40), "point_a": (190, 215, 225), "point_b": (40, 40, 140),
         "light": (240, 240, 240), "dark": (60, 170, 210)},
    ],
}


def palette(style: str, variant: int = 0) -> dict[str, BGR]:
    """The colours of a board ``style`` in look ``variant`` (0 = the default look).

    :raises RenderError: (a ``ValueError``) for an unknown style or variant.
    """
    if style not in PALETTES:
        raise RenderError(f"unknown board style {style!r}")
    if not 0 <= variant <= len(VARIANTS.get(style, [])):
        raise RenderError(f"{style} boards have variants 0-{len(VARIANTS.get(style, []))}, not {variant}")
    pal = dict(PALETTES[style])
    if variant:
        pal.update(VARIANTS[style][variant - 1])
    return pal


def _pt(x: float, y: float) -> tuple[int, int]:
    return int(round(x * _ONE)), int(round(y * _ONE))


def poly(img: np.ndarray, pts: np.ndarray, colour: BGR) -> None:
    """Fill a convex polygon given as (N, 2) float canvas pixels."""
    cv2.fillConvexPoly(img, np.round(np.asarray(pts) * _ONE).astype(np.int32), colour, AA, SHIFT)


def outline(img: np.ndarray, pts: np.ndarray, colour: BGR, thickness: int = 1) -> None:
    """Draw a closed polygon outline, (N, 2) float canvas pixels."""
    p = np.round(np.asarray(pts) * _ONE).astype(np.int32)
    cv2.polylines(img, [p], True, colour, thickness, AA, SHIFT)


def disc(img: np.ndarray, x: float, y: float, r: float, colour: BGR, thickness: int = -1) -> None:
    """A filled (or, with ``thickness`` > 0, outlined) anti-aliased circle of radius ``r`` pixels."""
    cv2.circle(img, _pt(x, y), max(1, int(round(r * _ONE))), colour, thickness, AA, SHIFT)


def shade(colour: BGR, k: float) -> BGR:
    """``colour`` scaled by ``k`` (darker below 1, lighter above), clipped to 0-255."""
    return tuple(int(min(255, max(0, c * k))) for c in colour)  # type: ignore[return-value]


def checker(img: np.ndarray, x: float, y: float, r: float, colour: BGR, style: str) -> None:
    """One checker seen from above: paper checkers are flat discs; wooden and tournament ones have a
    rim, a turned inner ring and a soft shadow on the side away from the light."""
    disc(img, x + r * 0.10, y + r * 0.12, r * 1.02, shade(colour, 0.35) if style != "paper" else (30, 30, 30))
    if style == "paper":
        disc(img, x, y, r, colour)
        disc(img, x - r * 0.2, y - r * 0.2, r * 0.55, shade(colour, 1.06))
        return
    rim = (130, 130, 130) if style == "tournament" else shade(colour, 0.72)
    disc(img, x, y, r, rim)
    disc(img, x, y, r * 0.86, colour)
    disc(img, x, y, r * 0.62, shade(colour, 0.9 if sum(colour) > 300 else 1.25), max(1, int(r * 0.06)))
    disc(img, x - r * 0.25, y - r * 0.25, r * 0.25, shade(colour, 1.08))


def checker_edge(img: np.ndarray, x: float, y: float, w: float, h: float, colour: BGR,
                 rim: BGR | None = None) -> None:
    """A borne-off checker standing on its edge in a tray: a slab ``w`` by ``h`` pixels (its round
    side seen from above), edged by its faces' ``rim`` when it has one (tournament checkers: a silver
    ring on each face)."""
    x0, y0 = x - w / 2, y - h / 2
    cv2.rectangle(img, _pt(x0, y0), _pt(x0 + w, y0 + h), colour, -1, AA, SHIFT)
    if rim is not None:
        for yy in (y0 + h * 0.1, y0 + h * 0.9):
            cv2.line(img, _pt(x0, yy), _pt(x0 + w, yy), rim, 1, AA, SHIFT)
    cv2.rectangle(img, _pt(x0, y0), _pt(x0 + w, y0 + h), shade(colour, 0.6), 1, AA, SHIFT)


# Pip positions on a face, in units of the half side (-1..1).
PIPS = {
    1: [(0, 0)],
    2: [(-0.5, -0.5), (0.5, 0.5)],
    3: [(-0.5, -0.5), (0, 0), (0.5, 0.5)],
    4: [(-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)],
    5: [(-0.5, -0.5), (0.5, -0.5), (0, 0), (-0.5, 0.5), (0.5, 0.5)],
    6: [(-0.5, -0.5), (0.5, -0.5), (-0.5, 0), (0.5, 0), (-0.5, 0.5), (0.5, 0.5)],
}


def _rounded_square(half: float, k: float = 0.22, n: int = 4) -> np.ndarray:
    """A rounded square of half side ``half`` as an (M, 2) polygon centred on 0."""
    rad = half * k
    pts = []
    for cx, cy, a0 in ((half - rad, half - rad, 0), (-half + rad, half - rad, 90),
                       (-half + rad, -half + rad, 180), (half - rad, -half + rad, 270)):
        for i in range(n + 1):
            a = math.radians(a0 + 90 * i / n)
            pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    return np.array(pts, dtype=np.float64)


def die(
    img: np.ndarray, x: float, y: float, side: float, value: int, angle_deg: float,
    body: BGR = (236, 238, 240), pip: BGR = (25, 25, 25), tilt: float = 0.0, side_value: int | None = None,
) -> None:
    """A die seen from above, centre of its top face at (x, y), ``side`` pixels across, turned by
    ``angle_deg``. ``tilt`` in 0-1 foreshortens the top face along its local y axis and shows the side
    face below it (a cocked die resting on an edge); ``side_value`` is that side face's value."""
    half = side / 2
    a = math.radians(angle_deg)
    ca, sa = math.cos(a), math.sin(a)
    fy = 1.0 - 0.45 * tilt

    def to_img(p: np.ndarray) -> np.ndarray:
        q = np.column_stack([p[:, 0], p[:, 1] * fy])
        return np.column_stack([x + q[:, 0] * ca - q[:, 1] * sa, y + q[:, 0] * sa + q[:, 1] * ca])

    sq = _rounded_square(half)
    poly(img, to_img(sq) + side * 0.08, (20, 20, 20))  # shadow
    if tilt > 0:
        # the side face: the top face's lower edge swept down by the visible height of the side
        depth = side * 0.55 * tilt / fy
        side_face = np.array(
            [[-half, half * 0.7], [half, half * 0.7], [half, half + depth], [-half, half + depth]]
        )
        poly(img, to_img(side_face), shade(body, 0.62))
        if side_value is not None:
            for px, py in PIPS[side_value]:
                c = to_img(np.array([[px * half * 0.8, half + depth * (0.5 + py * 0.35)]]))[0]
                cv2.ellipse(img, _pt(*c), (max(1, int(side * 0.07 * _ONE)), max(1, int(side * 0.035 * _ONE))),
                            angle_deg, 0, 360, shade(pip, 1.0), -1, AA, SHIFT)
    poly(img, to_img(sq), body)
    r = side * 0.09
    for px, py in PIPS[value]:
        c = to_img(np.array([[px * half * 1.05, py * half * 1.05]]))[0]
        cv2.ellipse(img, _pt(*c), (max(1, int(r * _ONE)), max(1, int(r * fy * _ONE))), angle_deg, 0, 360,
                    pip, -1, AA, SHIFT)


# Cube faces (body, figures) BGR: an ivory cube with dark figures, a black cube with gold ones.
CUBE_INKS = {
    "dark_on_light": ((200, 225, 235), (30, 30, 60)),
    "light_on_dark": ((36, 36, 40), (70, 190, 225)),
    "logo": ((40, 40, 190), (235, 235, 235)),
}


def cube(img: np.ndarray, x: float, y: float, side: float, value: int, angle_deg: float,
         face: str = "dark_on_light") -> None:
    """The doubling cube from above, ``side`` pixels across, turned by ``angle_deg`` (figures and all),
    showing ``value`` (2-64) in the colours of ``face`` (`CUBE_INKS`); ``"logo"`` draws a maker's
    mark (a ring and a stroke) instead of a number."""
    half = side / 2
    a = math.radians(angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    sq = _rounded_square(half, 0.15) @ rot.T + (x, y)
    body, ink = CUBE_INKS[face]
    poly(img, sq + side * 0.07, (20, 20, 20))
    poly(img, sq, body)
    # the bevelled edge catches the light: a black cube on a black table still shows its outline
    outline(img, sq, shade(body, 2.4) if sum(body) < 200 else shade(body, 0.8), max(1, int(round(side / 24))))
    # the figures are drawn upright on a patch, turned with the cube and laid on it as a mask
    n = max(8, int(math.ceil(side * 1.5)))
    patch = np.zeros((n, n), np.uint8)
    c = n / 2
    thick = max(1, int(round(side / 16)))
    if face == "logo":
        cv2.circle(patch, _pt(c, c), int(side * 0.3 * _ONE), 255, thick, AA, SHIFT)
        a0, a1 = _pt(c - side * 0.2, c + side * 0.2), _pt(c + side * 0.25, c - side * 0.05)
        cv2.line(patch, a0, a1, 255, thick, AA, SHIFT)
    else:
        text = str(value)
        font = cv2.FONT_HERSHEY_DUPLEX
        (tw, th), _ = cv2.getTextSize(text, font, 1.0, thick)
        scale = min(0.62 * side / tw, 0.5 * side / th)
        (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
        org = (int(round(c - tw / 2)), int(round(c + th / 2)))
        cv2.putText(patch, text, org, font, scale, 255, thick, AA)
    m = cv2.getRotationMatrix2D((c, c), -angle_deg, 1.0)
    m[:, 2] += (x - c, y - c)
    h, w = img.shape[:2]
    x0, y0 = max(0, int(x - c) - 1), max(0, int(y - c) - 1)
    x1, y1 = min(w, int(x + c) + 2), min(h, int(y + c) + 2)
    if x1 <= x0 or y1 <= y0:
        return
    m[:, 2] -= (x0, y0)
    mask = cv2.warpAffine(patch, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
    mask = mask.astype(np.float32)[..., None] / 255
    roi = img[y0:y1, x0:x1].astype(np.float32)
    img[y0:y1, x0:x1] = np.round(roi * (1 - mask) + np.array(ink, np.float32) * mask).astype(np.uint8)


def hand(
    img: np.ndarray, tip: tuple[float, float], entry: tuple[float, float], width: float, skin: BGR
) -> np.ndarray:
    """A hand and forearm reaching from ``entry`` (a point on or beyond the image edge) to ``tip``
    (the fingertips), ``width`` pixels across the palm. Returns its mask (H, W) uint8 (255 = hand)."""
    mask = np.zeros(img.shape[:2], np.uint8)
    ex, ey = entry
    tx, ty = tip
    d = math.hypot(tx - ex, ty - ey) or 1.0
    ux, uy = (tx - ex) / d, (ty - ey) / d
    nx, ny = -uy, ux
    palm = (tx - ux * width * 0.9, ty - uy * width * 0.9)
    wa, wp = width * 0.45, width * 0.42
    arm = np.array([
        (ex + nx * wa, ey + ny * wa), (palm[0] + nx * wp, palm[1] + ny * wp),
        (palm[0] - nx * wp, palm[1] - ny * wp), (ex - nx * wa, ey - ny * wa),
    ])
    for target in (img, mask):
        colour = skin if target is img else 255
        if target is img:
            poly(img, arm + width * 0.12, (25, 25, 25))
        poly(target, arm, shade(skin, 0.9) if target is img else colour)
        cv2.ellipse(target, _pt(*palm), (int(width * 0.55 * _ONE), int(width * 0.5 * _ONE)),
                    math.degrees(math.atan2(uy, ux)), 0, 360, colour, -1, AA, SHIFT)
        for k in (-0.33, -0.11, 0.11, 0.33):
            fx0, fy0 = palm[0] + nx * width * k, palm[1] + ny * width * k
            ln = width * (0.85 - abs(k) * 0.6)
            cv2.line(target, _pt(fx0, fy0), _pt(fx0 + ux * ln, fy0 + uy * ln), colour,
                     max(2, int(width * 0.17)), AA, SHIFT)
    return mask
