"""Board renderer: synthetic frames of a backgammon board with exact ground truth.

Used by the demo of ``tavla run`` (frames that need no third-party photos) and by the vision tests
for volume and for cases no real photo covers (stacks of 15, every die status, the cube, both set-ups).

API
---
``render(spec, *, size=(1280, 720), view="perspective", camera=None, seed=0, lighting=0.35,
noise=3.0, blur=0.0, occluder=None) -> Render``

* ``spec`` -- a `BoardSpec`: per slot 0-23 (DESIGN.md: 0-11 along the bottom edge right to left,
  12-23 along the top edge left to right, in the rectified view) a ``(colour, count)`` with colour
  ``"light"``/``"dark"``/None and count 0-15; ``bar`` and ``off`` counts per colour; ``dice`` (`DieSpec`:
  value, status from `vision.reading.DieStatus`, optional position); the cube (value, position
  ``"centre"``/``"top"``/``"bottom"`` or None for no cube); ``style`` ``"paper"`` (printed paper, no bar,
  white/grey points, red/green flat checkers -- like boards-webcam), ``"wood"`` (wooden board with a
  bar and off trays, cream/brown checkers) or ``"tournament"`` (black frame and bar, red/black points,
  white/black checkers); ``checker_colours`` overrides the (light, dark) checker colours (BGR);
  ``variant`` picks another look of the style (0 default; see `vision.render_draw.VARIANTS`: light
  beech and leather with black/white points, green felt with gold checkers, ...);
  ``home`` ``"right"`` or ``"left"`` (where the light player's home board lies on the bottom edge;
  RULES.md B2 allows the mirror set-up); ``roller`` ``"bottom"``/``"top"`` (who rolled: his right-hand
  half is where flat dice land); ``pile`` ``"layer"``/``"beside"`` (how stacks above five are piled).
  `starting_spec` and `random_spec` build specs.
* ``view`` -- ``"rectified"`` (the top view, long side horizontal, board centred) or ``"perspective"``
  (a pinhole `Camera`: tilt, yaw, roll -- ``roll_deg=90`` is a portrait board -- random from ``seed``
  when ``camera`` is None).
* ``lighting`` (0-1: strength of a random brightness gradient and vignette), ``noise`` (sensor noise
  sigma, grey levels), ``blur`` (Gaussian sigma, pixels), ``occluder`` (None or ``"hand"``: a hand and
  arm over the board; the truth is then ``occluded=True``, status ``occluded``), ``jpeg_quality``
  (None, or 1-100: pass the frame through JPEG as a webcam does), ``clutter`` (perspective view: a
  clock, a score card and a dice cup on the table beside the board; use a small ``Camera.fill``).

Returns a `Render`: ``image`` (np.uint8, shape (H, W, 3), BGR), ``truth`` (a `BoardReading` whose
``image_xy`` are pixel positions in ``image``), ``homography`` (3x3 float64, board units -> image
pixels; board units: the outer board edge spans (0, 0)-(1000, board_h), see `vision.render_geometry`),
``point_quads`` (24, 4, 2) each point's region in the image, ``board_corners`` (4, 2) outer corners
TL, TR, BR, BL of the rectified board in the image, ``hand_mask`` (H, W) uint8 or None, ``regions``
(the field, bar and trays as (4, 2) image quads).

The same arguments and seed give the same image, bit for bit. Stacks above five are piled as players
pile them: the sixth to tenth checkers form a second layer over the gaps of the first five, the
eleventh to fifteenth a third (``pile="layer"``), or the extra checkers lean beside the column
(``pile="beside"``). A 1280x720 render takes a few milliseconds (see bench/vision.py).

Helpers: `vision.render_sequence.game_frames` (a still camera over a game: still frames, a hand
between positions -- the stability gate's and the demo's input), `vision.render_dataset` (labelled
folders for ../shared/tools/eval_boards.py), `vision.render_dice` (dice without a board).

:raises RenderError: (a ``ValueError``) for an impossible spec -- more than 15 checkers of a colour,
    a count without a colour, a die on the bar of a board without one, an unknown style or view.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision import render_draw as draw
from vision.reading import (
    DARK,
    LIGHT,
    BoardReading,
    CubeReading,
    DieReading,
    DieStatus,
    FrameStatus,
    PointReading,
)
from vision.render_geometry import (
    BOARD_W,
    Camera,
    Layout,
    apply_h,
    camera_homography,
    layout_for,
    rectified_homography,
)

__all__ = [
    "BoardSpec", "Camera", "DieSpec", "Render", "RenderError", "random_spec", "render", "starting_spec",
]

STYLES = ("paper", "wood", "tournament")
COLOURS = (LIGHT, DARK)


class RenderError(ValueError):
    """An impossible board description (the message names the bad field and value)."""


@dataclass(frozen=True)
class DieSpec:
    """One die to draw. ``xy`` is its centre in board units (None: chosen from ``status`` and the
    seed -- e.g. ``wrong_half`` lands on the roller's left half, ``off_board`` on the table);
    ``angle`` its turn in degrees (None: random); ``body``/``pip`` its colours (BGR)."""

    value: int
    status: DieStatus = DieStatus.FLAT
    xy: tuple[float, float] | None = None
    angle: float | None = None
    body: tuple[int, int, int] = (236, 238, 240)
    pip: tuple[int, int, int] = (25, 25, 25)


@dataclass(frozen=True)
class BoardSpec:
    """What lies on the board (see the module docstring for every field's meaning)."""

    points: tuple[tuple[str | None, int], ...]
    bar: Mapping[str, int] = field(default_factory=dict)
    off: Mapping[str, int] = field(default_factory=dict)
    dice: tuple[DieSpec, ...] = ()
    cube_value: int = 64
    cube_position: str | None = "centre"
    style: str = "wood"
    home: str = "right"
    roller: str = "bottom"
    pile: str = "layer"
    checker_colours: tuple[tuple[int, int, int], tuple[int, int, int]] | None = None
    variant: int = 0

    def validate(self) -> None:
        """:raises RenderError: when the spec describes an impossible board."""
        if self.style not in STYLES:
            raise RenderError(f"style {self.style!r}: use one of {', '.join(STYLES)}")
        if self.home not in ("right", "left"):
            raise RenderError(f"home {self.home!r}: use 'right' or 'left'")
        if self.roller not in ("bottom", "top"):
            raise RenderError(f"roller {self.roller!r}: use 'bottom' or 'top'")
        n_var = len(draw.VARIANTS.get(self.style, []))
        if not 0 <= self.variant <= n_var:
            raise RenderError(f"variant {self.variant}: {self.style} boards have variants 0-{n_var}")
        if self.pile not in ("layer", "beside"):
            raise RenderError(f"pile {self.pile!r}: use 'layer' or 'beside'")
        if len(self.points) != 24:
            raise RenderError(f"points has {len(self.points)} entries; a board has 24 (slots 0-23)")
        totals = {LIGHT: 0, DARK: 0}
        for slot, (colour, count) in enumerate(self.points):
            if not 0 <= count <= 15:
                raise RenderError(f"slot {slot}: count {count} is outside 0-15")
            if (colour is None) != (count == 0):
                raise RenderError(f"slot {slot}: colour {colour!r} with count {count}")
            if colour is not None:
                if colour not in COLOURS:
                    raise RenderError(f"slot {slot}: colour {colour!r}; use 'light' or 'dark'")
                totals[colour] += count
        for name, table in (("bar", self.bar), ("off", self.off)):
            for colour, count in table.items():
                if colour not in COLOURS or count < 0:
                    raise RenderError(f"{name}: {colour!r}={count}")
                totals[colour] += count
        for colour, n in totals.items():
            if n > 15:
                raise RenderError(f"{n} {colour} checkers; a side has at most 15")
        if self.style == "paper" and any(d.status == DieStatus.ON_BAR for d in self.dice):
            raise RenderError("a die 'on_bar' on a paper board: paper boards have no bar")
        for d in self.dice:
            if not 1 <= d.value <= 6:
                raise RenderError(f"die value {d.value} is outside 1-6")
        if self.cube_position not in (None, "centre", "top", "bottom"):
            raise RenderError(f"cube_position {self.cube_position!r}: use 'centre', 'top', 'bottom' or None")
        if self.cube_value not in (1, 2, 4, 8, 16, 32, 64):
            raise RenderError(f"cube_value {self.cube_value}: use 2-64 (64 when centred means 1)")


@dataclass(frozen=True)
class Render:
    """A rendered frame and its ground truth (see the module docstring)."""

    image: np.ndarray
    truth: BoardReading
    homography: np.ndarray
    point_quads: np.ndarray
    board_corners: np.ndarray
    hand_mask: np.ndarray | None
    spec: BoardSpec
    regions: dict[str, np.ndarray] = field(default_factory=dict)


# --- specs ---------------------------------------------------------------------------------------

# (body, pips) BGR of common dice: white/black, ivory/black, red/white, black/white, green/white.
DICE_COLOURS = (
    ((236, 238, 240), (25, 25, 25)), ((200, 228, 240), (30, 30, 30)), ((40, 30, 170), (235, 235, 235)),
    ((30, 30, 30), (235, 235, 235)), ((60, 120, 40), (235, 235, 235)),
)

# Standard start, light's points: 2 on 24, 5 on 13, 3 on 8, 5 on 6 (RULES.md B3).
_START = {24: 2, 13: 5, 8: 3, 6: 5}


def light_point_to_slot(point: int, home: str = "right") -> int:
    """Slot of the light player's point 1-24 when his home board is bottom-``home`` (DESIGN.md)."""
    if home == "right":
        return point - 1
    return 12 - point if point <= 12 else 36 - point


def starting_spec(style: str = "wood", home: str = "right", **kw: object) -> BoardSpec:
    """The opening position (RULES.md B3) for either set-up; light plays from the bottom edge."""
    pts: list[tuple[str | None, int]] = [(None, 0)] * 24
    for p, n in _START.items():
        pts[light_point_to_slot(p, home)] = (LIGHT, n)
        pts[light_point_to_slot(25 - p, home)] = (DARK, n)
    return BoardSpec(points=tuple(pts), style=style, home=home, **kw)  # type: ignore[arg-type]


def random_spec(
    seed: int, style: str = "wood", home: str = "right", max_stack: int = 15, with_dice: bool = True,
    variant: int | None = 0,
) -> BoardSpec:
    """A random plausible position: 15 checkers a side spread over points, bar and off (no point holds
    both colours), stacks up to ``max_stack``, two flat dice (of a colour from ``DICE_COLOURS``) on the
    roller's half and the cube.
    ``variant`` None picks a random look of the style."""
    rng = np.random.default_rng(seed)
    pts: list[tuple[str | None, int]] = [(None, 0)] * 24
    bar: dict[str, int] = {}
    off: dict[str, int] = {}
    has_bar = style != "paper"
    for colour in COLOURS:
        left = 15
        if has_bar and rng.random() < 0.25:
            bar[colour] = int(rng.integers(1, 3))
            left -= bar[colour]
        if rng.random() < 0.25:
            off[colour] = int(rng.integers(1, 6))
            left -= off[colour]
        while left > 0:
            free = [s for s in range(24) if pts[s][0] in (None, colour) and pts[s][1] < max_stack]
            s = int(rng.choice(free))
            n = int(min(left, rng.integers(1, 6), max_stack - pts[s][1]))
            pts[s] = (colour, pts[s][1] + n)
            left -= n
    body, pip = DICE_COLOURS[int(rng.integers(len(DICE_COLOURS)))]
    dice = tuple(DieSpec(int(rng.integers(1, 7)), body=body, pip=pip) for _ in range(2)) if with_dice else ()
    return BoardSpec(
        points=tuple(pts), bar=bar, off=off, dice=dice, style=style, home=home,
        cube_value=int(rng.choice([64, 2, 4])), cube_position=str(rng.choice(["centre", "top", "bottom"])),
        pile=str(rng.choice(["layer", "beside"])),
        variant=int(rng.integers(0, len(draw.VARIANTS.get(style, [])) + 1)) if variant is None else variant,
    )


# --- placing things on the board (board units) ---------------------------------------------------


def stack_positions(lay: Layout, slot: int, count: int, pile: str = "layer") -> list[tuple[float, float]]:
    """Centres of ``count`` checkers on ``slot`` in drawing order (board units).

    The first five stand in a column from the point's base. With ``pile="layer"`` the rest are piled
    as a pyramid, the way players stack a tall point: four over the gaps of the first five, three over
    those, then two and one (5+4+3+2+1 = 15), each layer nudged sideways a little as hands leave it;
    with ``pile="beside"`` the sixth to tenth form a second column leaning beside the first (half over
    the neighbouring point, towards the middle of its half) and the eleventh to fifteenth over the
    seam between those two columns."""
    x, yb, d = lay.slot_column(slot)
    cd = lay.checker_d
    step = min(cd, lay.point_h * 1.2 / 5)
    out = []
    if pile == "layer":
        sizes, nudge = (5, 4, 3, 2, 1), (0.0, 0.06, 0.2, -0.2, 0.1)
        k = 0
        for layer, n in enumerate(sizes):
            for i in range(n):
                if k == count:
                    return out
                along = (i + 0.5 + 0.5 * layer) * step
                out.append((x + nudge[layer] * cd, yb + d * (along + cd * 0.04)))
                k += 1
        return out
    # lean towards the middle of the half the point lies in, never over the frame or the bar
    half = lay.half_x("right" if x > (lay.field[0] + lay.field[2]) / 2 else "left")
    toward = 1.0 if x < (half[0] + half[1]) / 2 else -1.0
    for k in range(count):
        col, i = divmod(k, 5)
        dx, da = ((0.0, 0.0), (0.55, 0.5), (0.27, 0.75))[col]
        out.append((x + toward * dx * cd, yb + d * ((i + 0.5 + da * (col > 0)) * step + cd * 0.04)))
    return out


def bar_positions(lay: Layout, colour: str, count: int, home: str) -> list[tuple[float, float]]:
    """Centres of ``count`` hit checkers of ``colour`` (board units): light's on the upper half of the
    bar, dark's on the lower (a convention of this renderer; readers must not rely on it), closing up
    when many; on a paper board (no bar) on the centre line between the two halves."""
    fx0, fy0, fx1, fy1 = lay.field
    mx = (fx0 + fx1) / 2
    my = (fy0 + fy1) / 2
    cd = lay.checker_d
    sign = -1 if colour == LIGHT else 1
    # a long row of hit checkers closes up (overlapping) rather than run off the board
    step = min(cd * 0.9, (my - fy0 - cd * 1.3) / max(1, count - 1)) if count > 1 else cd * 0.9
    return [(mx, my + sign * (cd * 0.75 + k * step)) for k in range(count)]


def off_positions(lay: Layout, colour: str, count: int, home: str) -> list[tuple[float, float, bool]]:
    """Where borne-off checkers lie: ``(x, y, on_edge)``. On boards with trays they stand on edge in
    the home side's tray (light bottom half, dark top half); on paper they lie flat in a row on the
    table beside the home board."""
    cd = lay.checker_d
    bottom = colour == LIGHT
    if lay.trays:
        (tx0, ty0, tx1, ty1), _ = next(t for t in lay.trays if t[1] == home)
        slab = cd * 0.22
        tx = (tx0 + tx1) / 2
        if bottom:
            return [(tx, ty1 - cd * 0.3 - k * slab * 1.05, True) for k in range(count)]
        return [(tx, ty0 + cd * 0.3 + k * slab * 1.05, True) for k in range(count)]
    x = BOARD_W + cd * 0.65 if home == "right" else -cd * 0.65
    y0 = lay.board_h - cd * 0.6 if bottom else cd * 0.6
    return [(x, y0 + (-1 if bottom else 1) * k * cd * 0.45, False) for k in range(count)]


def cube_xy(lay: Layout, position: str, home: str = "right") -> tuple[float, float]:
    """Centre of the cube: on the bar (or beside a paper board) when centred; otherwise at the owner's
    edge (bottom or top) of the tray away from the home side (the home side's tray holds the borne-off
    checkers), or beside a paper board on that side."""
    fx0, fy0, fx1, fy1 = lay.field
    cd = lay.checker_d
    away = "left" if home == "right" else "right"
    beside = -cd * 0.9 if away == "left" else BOARD_W + cd * 0.9
    if position == "centre":
        if lay.bar is not None:
            return (lay.bar[0] + lay.bar[1]) / 2, (fy0 + fy1) / 2
        return beside, lay.board_h / 2
    if lay.trays:
        (tx0, ty0, tx1, ty1), _ = next(t for t in lay.trays if t[1] == away)
        return (tx0 + tx1) / 2, (ty1 - cd if position == "bottom" else ty0 + cd)
    return beside, (lay.board_h * (0.8 if position == "bottom" else 0.2))


def _die_xy(lay: Layout, spec: BoardSpec, d: DieSpec, rng: np.random.Generator,
            taken: list[tuple[float, float]], checkers: list[tuple[float, float]]) -> tuple[float, float]:
    fx0, fy0, fx1, fy1 = lay.field
    cd = lay.checker_d
    right = "right" if spec.roller == "bottom" else "left"
    wrong = "left" if right == "right" else "right"
    my = (fy0 + fy1) / 2
    for _ in range(200):
        if d.status in (DieStatus.FLAT, DieStatus.WRONG_HALF, DieStatus.COCKED):
            hx0, hx1 = lay.half_x(right if d.status != DieStatus.WRONG_HALF else wrong)
            x = rng.uniform(hx0 + cd, hx1 - cd)
            y = my + rng.uniform(-0.9, 0.9) * (my - fy0 - lay.point_h) * 0.8
        elif d.status == DieStatus.ON_BAR:
            assert lay.bar is not None
            x = (lay.bar[0] + lay.bar[1]) / 2
            y = rng.uniform(fy0 + cd * 1.5, fy1 - cd * 1.5)
        elif d.status == DieStatus.OFF_BOARD:
            y = rng.uniform(lay.board_h * 0.2, lay.board_h * 0.8)
            x = -cd * 1.1 if rng.random() < 0.5 else BOARD_W + cd * 1.1
        else:  # ON_CHECKER
            hx0, hx1 = lay.half_x(right)
            mine = [c for c in checkers if hx0 <= c[0] <= hx1] or checkers
            if not mine:
                raise RenderError("a die 'on_checker' needs a checker on the board")
            x, y = mine[int(rng.integers(len(mine)))]
        if all(math.hypot(x - a, y - b) > cd * 1.1 for a, b in taken) or d.status == DieStatus.ON_CHECKER:
            return float(x), float(y)
    return float(x), float(y)


# --- rendering -----------------------------------------------------------------------------------


def _filled(h: int, w: int, colour: tuple[int, int, int]) -> np.ndarray:
    """A (h, w, 3) uint8 image of one colour (cv2 fills ~50x faster than numpy broadcasting here)."""
    img = np.empty((h, w, 3), np.uint8)
    cv2.rectangle(img, (0, 0), (w, h), colour, -1)
    return img


def _lighting(img: np.ndarray, rng: np.random.Generator, strength: float) -> None:
    """Multiply by a smooth random gain (a gradient from one side plus a vignette), in place."""
    if strength <= 0:
        return
    h, w = img.shape[:2]
    gy, gx = np.mgrid[0:9, 0:16].astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)
    grad = (np.cos(a) * (gx / 15 - 0.5) + np.sin(a) * (gy / 8 - 0.5)) * strength
    vig = ((gx / 15 - 0.5) ** 2 + (gy / 8 - 0.5) ** 2) * strength * 0.8
    base = rng.uniform(1.0 - 0.3 * strength, 1.0 + 0.1 * strength)
    gain = np.clip((base + grad - vig) * 128, 0, 255).astype(np.uint8)
    gain = cv2.resize(np.repeat(gain[:, :, None], 3, axis=2), (w, h), interpolation=cv2.INTER_LINEAR)
    cv2.multiply(img, gain, dst=img, scale=1 / 128)


def _noise(img: np.ndarray, rng: np.random.Generator, sigma: float) -> np.ndarray:
    """Add Gaussian sensor noise (``sigma`` grey levels) from a seeded tile, saturating."""
    if sigma <= 0:
        return img
    h, w = img.shape[:2]
    field = _noise_field(h, w, round(float(sigma), 2))
    oy, ox = int(rng.integers(0, 64)), int(rng.integers(0, 64))
    return cv2.add(img, field[oy : oy + h, ox : ox + w], dtype=cv2.CV_8U)


@functools.lru_cache(maxsize=8)
def _noise_field(h: int, w: int, sigma: float) -> np.ndarray:
    """A fixed (h+64, w+64, 3) int16 Gaussian noise field, made once per size: each render takes a
    seeded window of it, which is deterministic and ~10x cheaper than drawing fresh noise."""
    field = np.random.default_rng(12345).normal(0, sigma, (h + 64, w + 64, 3)).astype(np.int16)
    field.setflags(write=False)
    return field


def _draw_clutter(canvas: np.ndarray, s2c: np.ndarray, lay: Layout, rng: np.random.Generator) -> None:
    """What stands beside a board at a club (boards-real): a chess clock and score cards on one side,
    a dice cup on the other -- on the table, clear of the board, the off piles and off-board dice."""
    sc = s2c[0, 0]
    bh = lay.board_h

    def box(x0: float, y0: float, x1: float, y1: float, colour: tuple[int, int, int]) -> None:
        pts = apply_h(s2c, np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], dtype=np.float64))
        draw.poly(canvas, pts + sc * 4, (15, 15, 15))
        draw.poly(canvas, pts, colour)

    def text(x: float, y: float, s: str, size: float, colour: tuple[int, int, int]) -> None:
        (px, py), = apply_h(s2c, np.array([(x, y)], dtype=np.float64))
        cv2.putText(canvas, s, (int(px), int(py)), cv2.FONT_HERSHEY_SIMPLEX, size * sc / 30, colour,
                    max(1, int(size * sc / 12)), draw.AA)

    left = rng.random() < 0.5
    sgn, edge = (-1.0, 0.0) if left else (1.0, BOARD_W)
    x_near = edge + sgn * 175
    cy = bh * float(rng.uniform(0.25, 0.45))
    x0, x1 = sorted((x_near, x_near + sgn * 120))
    box(x0, cy - 40, x1, cy + 40, (40, 50, 70))  # the clock's body
    for k in (0, 1):
        dx0 = x0 + 10 + k * 55
        box(dx0, cy - 22, dx0 + 48, cy + 8, (120, 190, 200))
        text(dx0 + 4, cy, f"{int(rng.integers(0, 3))}:{int(rng.integers(10, 59))}", 14, (30, 30, 30))
    ys = bh * float(rng.uniform(0.55, 0.7))
    xs0, xs1 = sorted((x_near, x_near + sgn * 70))
    box(xs0, ys, xs1, ys + 95, (235, 235, 235))  # a score card
    text(xs0 + 12, ys + 70, str(int(rng.integers(0, 14))), 40, (40, 40, 180))
    (cx, cy2), = apply_h(s2c, np.array([(BOARD_W - edge - sgn * 190, bh * float(rng.uniform(0.3, 0.7)))]))
    r = 55 * sc
    draw.disc(canvas, cx + r * 0.12, cy2 + r * 0.12, r, (15, 15, 15))  # a dice cup seen from above
    draw.disc(canvas, cx, cy2, r, (45, 45, 50))
    draw.disc(canvas, cx, cy2, r * 0.78, (25, 25, 28))


def _draw_board(
    canvas: np.ndarray, s2c: np.ndarray, lay: Layout, spec: BoardSpec, rng: np.random.Generator
) -> tuple[list[DieReading], CubeReading | None, list[tuple[float, float]]]:
    """Draw the board, checkers, dice and cube onto ``canvas`` (board units -> canvas by ``s2c``).
    Returns dice truth and cube truth in *board units* (image_xy converted by the caller)."""
    pal = draw.palette(spec.style, spec.variant)
    if spec.checker_colours is not None:  # e.g. black checkers on black points, gold and white
        pal[LIGHT], pal[DARK] = spec.checker_colours
    sc = s2c[0, 0]

    def c(pts: np.ndarray | Sequence[tuple[float, float]]) -> np.ndarray:
        return apply_h(s2c, np.asarray(pts, dtype=np.float64))

    def rect(r: tuple[float, float, float, float]) -> np.ndarray:
        return c([(r[0], r[1]), (r[2], r[1]), (r[2], r[3]), (r[0], r[3])])

    ox0, oy0, ox1, oy1 = lay.outer
    draw.poly(canvas, rect(lay.outer) + sc * 6, (12, 12, 12))  # board shadow on the table
    draw.poly(canvas, rect(lay.outer), pal["sheet"])
    if spec.style == "paper":  # white sheet, black printed frame line, white field
        m = BOARD_W * 0.018
        draw.poly(canvas, rect((m, m, ox1 - m, oy1 - m)), pal["frame"])
    for tr, _side in lay.trays:
        draw.poly(canvas, rect(tr), pal["tray"])
    draw.poly(canvas, rect(lay.field), pal["field"])
    if lay.bar is not None:
        draw.poly(canvas, rect((lay.bar[0], lay.field[1], lay.bar[1], lay.field[3])), pal["bar"])
    for slot in range(24):
        x, yb, d = lay.slot_column(slot)
        hw = lay.point_w / 2 * 0.97
        tri = c([(x - hw, yb), (x + hw, yb), (x, yb + d * lay.point_h)])
        colour = pal["point_a"] if slot % 2 == 0 else pal["point_b"]
        draw.poly(canvas, tri, colour)
        if spec.style == "paper":
            draw.outline(canvas, tri, pal["outline"])

    r = lay.checker_d / 2 * sc
    checkers_on_board: list[tuple[float, float]] = []
    for slot, (colour, count) in enumerate(spec.points):
        if not count:
            continue
        for cx, cy in stack_positions(lay, slot, count, spec.pile):
            (px, py), = c([(cx, cy)])
            draw.checker(canvas, px, py, r, pal[colour], spec.style)  # type: ignore[index]
            checkers_on_board.append((cx, cy))
    for colour, count in spec.bar.items():
        for cx, cy in bar_positions(lay, colour, count, spec.home):
            (px, py), = c([(cx, cy)])
            draw.checker(canvas, px, py, r, pal[colour], spec.style)
    off_flat: list[tuple[float, float]] = []
    for colour, count in spec.off.items():
        for cx, cy, on_edge in off_positions(lay, colour, count, spec.home):
            if not on_edge:
                off_flat.append((cx, cy))
            (px, py), = c([(cx, cy)])
            if on_edge:
                cd = lay.checker_d * sc
                draw.checker_edge(canvas, px, py, cd * 0.9, cd * 0.2, pal[colour])
            else:
                draw.checker(canvas, px, py, r, pal[colour], spec.style)

    cube_truth = None
    if spec.cube_position is not None:
        cx, cy = cube_xy(lay, spec.cube_position, spec.home)
        (px, py), = c([(cx, cy)])
        draw.cube(canvas, px, py, lay.checker_d * 0.7 * sc, spec.cube_value, float(rng.uniform(-8, 8)))
        cube_truth = CubeReading(spec.cube_value, spec.cube_position, (cx, cy))

    dice_truth: list[DieReading] = []
    # dice land clear of the cube and of borne-off checkers lying beside a paper board
    taken: list[tuple[float, float]] = off_flat + ([] if cube_truth is None else [cube_truth.image_xy])  # type: ignore[list-item]
    side = lay.checker_d * 0.62
    for d in spec.dice:
        x, y = d.xy if d.xy is not None else _die_xy(lay, spec, d, rng, taken, checkers_on_board)
        taken.append((x, y))
        angle = d.angle if d.angle is not None else float(rng.uniform(0, 90))
        tilt = 0.0
        if d.status == DieStatus.COCKED:
            tilt = float(rng.uniform(0.5, 0.9))
        elif d.status == DieStatus.ON_CHECKER:
            tilt = float(rng.uniform(0.3, 0.6))
        side_value = (d.value % 6) + 1 if d.value + (d.value % 6) + 1 != 7 else ((d.value + 1) % 6) + 1
        (px, py), = c([(x, y)])
        draw.die(canvas, px, py, side * sc, d.value, angle, d.body, d.pip, tilt, side_value)
        dice_truth.append(DieReading(d.value, (x, y), d.status, 1.0))
    return dice_truth, cube_truth, checkers_on_board


def render(
    spec: BoardSpec,
    *,
    size: tuple[int, int] = (1280, 720),
    view: str = "perspective",
    camera: Camera | None = None,
    seed: int = 0,
    lighting: float = 0.35,
    noise: float = 3.0,
    blur: float = 0.0,
    occluder: str | None = None,
    noise_seed: int | None = None,
    hand_seed: int | None = None,
    jpeg_quality: int | None = None,
    clutter: bool = False,
) -> Render:
    """Render ``spec`` to an image of ``size`` (width, height) pixels with its ground truth.

    See the module docstring for every argument and the returned `Render`. ``seed`` fixes the scene
    (camera, lighting, dice placement); ``noise_seed`` and ``hand_seed`` (default: derived from
    ``seed``) fix the sensor noise and the hand, so a sequence of frames of one still scene differs
    only by noise, and a hand can move over an unchanged board (`vision.render_sequence`).

    :raises RenderError: for an impossible spec or an unknown ``view``/``occluder``.
    """
    spec.validate()
    if view not in ("rectified", "perspective"):
        raise RenderError(f"view {view!r}: use 'rectified' or 'perspective'")
    if occluder not in (None, "hand"):
        raise RenderError(f"occluder {occluder!r}: use None or 'hand'")
    w, h = size
    rng = np.random.default_rng(seed)
    lay = layout_for(spec.style)
    pal = draw.palette(spec.style, spec.variant)

    if view == "rectified":
        b2i = rectified_homography(lay.board_h, size)
        img = _filled(h, w, pal["table"])
        dice_truth, cube_truth, _ = _draw_board(img, b2i, lay, spec, rng)
    else:
        cam = camera if camera is not None else Camera.random(rng)
        b2i = camera_homography(cam, lay.board_h, size)
        # Draw at roughly the resolution the board will have in the image, then warp once.
        corners = apply_h(b2i, np.array([[0, 0], [BOARD_W, 0], [BOARD_W, lay.board_h], [0, lay.board_h]]))
        edge = max(np.linalg.norm(corners[1] - corners[0]), np.linalg.norm(corners[2] - corners[3]))
        sc = float(np.clip(edge / BOARD_W * 1.1, 0.3, 3.0))
        margin = (0.34 if clutter else 0.14) * BOARD_W  # room on the table for what stands beside
        cw, ch = int((BOARD_W + 2 * margin) * sc), int((lay.board_h + 2 * margin) * sc)
        b2c = np.array([[sc, 0, margin * sc], [0, sc, margin * sc], [0, 0, 1]], dtype=np.float64)
        canvas = _filled(ch, cw, pal["table"])
        if clutter:
            _draw_clutter(canvas, b2c, lay, np.random.default_rng(seed + 4_000_037))
        dice_truth, cube_truth, _ = _draw_board(canvas, b2c, lay, spec, rng)
        img = _filled(h, w, pal["table"])
        cv2.warpPerspective(canvas, b2i @ np.linalg.inv(b2c), (w, h), dst=img, flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_TRANSPARENT)

    hand_mask = None
    if occluder == "hand":
        hand_rng = np.random.default_rng(seed + 1_000_003 if hand_seed is None else hand_seed)
        hand_mask = _add_hand(img, b2i, lay, hand_rng)

    _lighting(img, np.random.default_rng(seed + 3_000_017), lighting)
    if blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    img = _noise(img, np.random.default_rng(seed + 2_000_003 if noise_seed is None else noise_seed), noise)
    if jpeg_quality is not None:  # webcams hand over JPEG (MJPEG) frames: blocking and ringing included
        ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
        img = cv2.imdecode(enc, cv2.IMREAD_COLOR)

    def to_img(xy: tuple[float, float] | None) -> tuple[float, float] | None:
        if xy is None:
            return None
        (x, y), = apply_h(b2i, np.array([xy]))
        return float(x), float(y)

    points = tuple(
        PointReading(slot, to_img(lay.point_centre(slot)), colour, count, 1.0)
        for slot, (colour, count) in enumerate(spec.points)
    )
    dice = tuple(replace(d, image_xy=to_img(d.image_xy)) for d in dice_truth)
    cube = replace(cube_truth, image_xy=to_img(cube_truth.image_xy)) if cube_truth else None
    occluded = hand_mask is not None
    truth = BoardReading(
        board_found=True,
        occluded=occluded,
        points=points,
        bar={k: v for k, v in spec.bar.items() if v},
        off={k: v for k, v in spec.off.items() if v},
        dice=dice,
        cube=cube,
        status=FrameStatus.OCCLUDED if occluded else FrameStatus.OK,
        has_bar=lay.bar is not None,
        image_size=(w, h),
    )
    quads = np.stack([apply_h(b2i, lay.point_quad(s)) for s in range(24)])
    board_corners = apply_h(b2i, np.array([[0, 0], [BOARD_W, 0], [BOARD_W, lay.board_h], [0, lay.board_h]]))
    return Render(img, truth, b2i, quads, board_corners, hand_mask, spec, _regions(lay, b2i))


def _regions(lay: Layout, b2i: np.ndarray) -> dict[str, np.ndarray]:
    """The board's areas as (4, 2) image quads, TL TR BR BL: ``field`` (inside the frame), ``bar``,
    ``tray_left``/``tray_right`` (those the style has)."""

    def quad(r: tuple[float, float, float, float]) -> np.ndarray:
        return apply_h(b2i, np.array([(r[0], r[1]), (r[2], r[1]), (r[2], r[3]), (r[0], r[3])]))

    out = {"field": quad(lay.field)}
    if lay.bar is not None:
        out["bar"] = quad((lay.bar[0], lay.field[1], lay.bar[1], lay.field[3]))
    for rect, side in lay.trays:
        out[f"tray_{side}"] = quad(rect)
    return out


def _add_hand(img: np.ndarray, b2i: np.ndarray, lay: Layout, rng: np.random.Generator) -> np.ndarray:
    """A hand reaching over the playing area from the nearest image edge; returns its mask."""
    h, w = img.shape[:2]
    fx0, fy0, fx1, fy1 = lay.field
    tip_b = (
        rng.uniform(fx0 + lay.point_w, fx1 - lay.point_w),
        rng.uniform(fy0 + lay.point_h * 0.5, fy1 - lay.point_h * 0.5),
    )
    (tx, ty), = apply_h(b2i, np.array([tip_b]))
    side = int(rng.integers(4))
    entry = [(rng.uniform(0, w), -40.0), (rng.uniform(0, w), h + 40.0),
             (-40.0, rng.uniform(0, h)), (w + 40.0, rng.uniform(0, h))][side]
    width = float(np.linalg.norm(apply_h(b2i, np.array([[0, 0], [lay.checker_d * 2.2, 0]]))[1]
                                 - apply_h(b2i, np.array([[0, 0]]))[0]))
    skins = [(150, 180, 225), (120, 150, 200), (80, 110, 160), (170, 195, 235)]
    return draw.hand(img, (float(tx), float(ty)), entry, width, skins[int(rng.integers(len(skins)))])
