"""Board renderer: synthetic frames of a backgammon board with exact ground truth.

Used by the demo of ``tavla run`` (frames that need no third-party photos) and by the vision tests
for volume and for cases no real photo covers (stacks of 15, every die status, the cube, both set-ups).

API
---
``render(spec, *, size=(1280, 720), view="perspective", camera=None, seed=0, lighting=0.35,
noise=3.0, blur=0.0, occluder=None, noise_seed=None, hand_seed=None, jpeg_quality=None,
clutter=False, glare=0.0, surface=None) -> Render``

* ``spec`` -- a `BoardSpec`: per slot 0-23 (DESIGN.md: 0-11 along the bottom edge right to left,
  12-23 along the top edge left to right, in the rectified view) a ``(colour, count)`` with colour
  ``"light"``/``"dark"``/None and count 0-15; ``bar`` and ``off`` counts per colour; ``dice`` (`DieSpec`:
  value, status from `vision.reading.DieStatus`, optional position); the cube (value, position
  ``"centre"``/``"top"``/``"bottom"`` or None for no cube); ``style`` ``"paper"`` (printed paper, no bar,
  white/grey points, red/green flat checkers -- like boards-webcam), ``"wood"`` (wooden board with a
  bar and off trays, cream/brown checkers) or ``"tournament"`` (black frame and bar, red/black points,
  white/black checkers); ``checker_colours`` overrides the (light, dark) checker colours (BGR);
  ``variant`` picks another look of the style (0 default; see `vision.render.draw.VARIANTS`: light
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
  clock, a score card and a dice cup on the table beside the board; use a small ``Camera.fill``),
  ``glare`` (0-1: a lamp's bright spot on a glossy board), ``surface`` (None, or a
  `vision.render.surface.Surface`: wood grain, printed logos, other point colours, glossy checkers,
  for training renders; None leaves a render as it was).

Returns a `Render`: ``image`` (np.uint8, shape (H, W, 3), BGR), ``truth`` (a `BoardReading` whose
``image_xy`` are pixel positions in ``image``), ``homography`` (3x3 float64, board units -> image
pixels; board units: the outer board edge spans (0, 0)-(1000, board_h), see `vision.render.geometry`),
``point_quads`` (24, 4, 2) each point's region in the image, ``board_corners`` (4, 2) outer corners
TL, TR, BR, BL of the rectified board in the image, ``hand_mask`` (H, W) uint8 or None, ``regions``
(the field, bar and trays as (4, 2) image quads).

The same arguments and seed give the same image, bit for bit. Stacks above five are piled as players
pile them: a pyramid, four over the gaps of the first five, then three, two and one
(``pile="layer"``), or the extra checkers leaning in a second column beside the first
(``pile="beside"``); see `vision.render.place.stack_positions`. A 1280x720 render costs about 7 ms
of CPU for the top view and 14 ms in perspective (one core, this project's 2-core test machine).

Helpers: `vision.render.sequence.game_frames` (a still camera over a game: still frames, a hand
between positions -- the stability gate's and the demo's input), `training.render_dataset` (labelled
folders for ../shared/tools/eval_boards.py), `vision.render.dice` (dice without a board).

:raises RenderError: (a ``ValueError``) for an impossible spec -- more than 15 checkers of a colour,
    a count without a colour, a die on the bar of a board without one, an unknown style or view.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

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
from vision.render import draw
from vision.render import surface as surf
from vision.render.geometry import (
    BOARD_W,
    Camera,
    Layout,
    apply_h,
    camera_homography,
    layout_for,
    rectified_homography,
)
from vision.render.place import bar_positions, cube_xy, die_xy, off_positions, stack_positions
from vision.render.spec import (
    COLOURS,
    DICE_COLOURS,
    STYLES,
    BoardSpec,
    DieSpec,
    RenderError,
    light_point_to_slot,
    random_spec,
    starting_spec,
)

__all__ = [
    "BoardSpec", "COLOURS", "Camera", "DICE_COLOURS", "DieSpec", "Render", "RenderError", "STYLES",
    "bar_positions", "cube_xy", "light_point_to_slot", "off_positions", "random_spec", "render",
    "stack_positions", "starting_spec",
]


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


def _glare(img: np.ndarray, rng: np.random.Generator, strength: float) -> None:
    """Add the soft bright spot a lamp leaves on a glossy board (``strength`` 0-1: up to ~120 grey
    levels at its centre), in place."""
    if strength <= 0:
        return
    h, w = img.shape[:2]
    small = np.zeros((36, 64), np.float32)
    cx, cy = rng.uniform(8, 56), rng.uniform(6, 30)
    sx, sy = rng.uniform(3, 9), rng.uniform(2, 6)
    gy, gx = np.mgrid[0:36, 0:64].astype(np.float32)
    small[:] = np.exp(-(((gx - cx) / sx) ** 2 + ((gy - cy) / sy) ** 2) / 2) * 120 * strength
    spot = cv2.resize(small.astype(np.uint8), (w, h), interpolation=cv2.INTER_LINEAR)
    cv2.add(img, cv2.merge([spot, spot, spot]), dst=img)


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
    canvas: np.ndarray, s2c: np.ndarray, lay: Layout, spec: BoardSpec, rng: np.random.Generator,
    surface: surf.Surface | None = None,
) -> tuple[list[DieReading], CubeReading | None, list[tuple[float, float]]]:
    """Draw the board, checkers, dice and cube onto ``canvas`` (board units -> canvas by ``s2c``).
    Returns dice truth and cube truth in *board units* (image_xy converted by the caller)."""
    pal = draw.palette(spec.style, spec.variant)
    if spec.checker_colours is not None:  # e.g. black checkers on black points, gold and white
        pal[LIGHT], pal[DARK] = spec.checker_colours
    if surface is not None and surface.points is not None:
        pal["point_a"], pal["point_b"] = surface.points
    if surface is not None and surface.field is not None:
        pal["field"] = surface.field
    # the surface draws from its own generator: the scene's draws (dice, cube) stay as without it
    srng = np.random.default_rng(surface.seed) if surface is not None else None
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
        x, yb, grow = lay.slot_column(slot)
        hw = lay.point_w / 2 * 0.97
        tri = c([(x - hw, yb), (x + hw, yb), (x, yb + grow * lay.point_h)])
        draw.poly(canvas, tri, pal["point_a"] if slot % 2 == 0 else pal["point_b"])
        if spec.style == "paper":
            draw.outline(canvas, tri, pal["outline"])
    light = (-0.7, -0.7)
    if surface is not None and srng is not None:
        surf.grain(canvas, rect(lay.field), surface.grain, srng)
        surf.prints(canvas, rect(lay.field), surface.prints, lay.point_w * sc, srng)
        a = float(srng.uniform(0, 2 * math.pi))
        light = (math.cos(a), math.sin(a))

    r = lay.checker_d / 2 * sc
    checkers_on_board: list[tuple[float, float]] = []
    for slot, (owner, count) in enumerate(spec.points):
        if not count or owner is None:
            continue
        for cx, cy in stack_positions(lay, slot, count, spec.pile):
            (px, py), = c([(cx, cy)])
            draw.checker(canvas, px, py, r, pal[owner], spec.style)
            if surface is not None:
                surf.gloss(canvas, px, py, r, surface.gloss, light)
            checkers_on_board.append((cx, cy))
    for colour, count in spec.bar.items():
        for cx, cy in bar_positions(lay, colour, count, spec.home):
            (px, py), = c([(cx, cy)])
            draw.checker(canvas, px, py, r, pal[colour], spec.style)
    off_flat: list[tuple[float, float]] = []
    for colour, count in spec.off.items():
        for cx, cy, on_edge in off_positions(lay, colour, count, spec.home, spec.off_pose):
            if not on_edge:
                off_flat.append((cx, cy))
            (px, py), = c([(cx, cy)])
            if on_edge:
                cd = lay.checker_d * sc
                rim = (130, 130, 130) if spec.style == "tournament" else None
                draw.checker_edge(canvas, px, py, cd * 0.9, cd * 0.2, pal[colour], rim)
            else:
                draw.checker(canvas, px, py, r, pal[colour], spec.style)

    cube_truth = None
    if spec.cube_position is not None:
        cx, cy = cube_xy(lay, spec.cube_position, spec.home)
        (px, py), = c([(cx, cy)])
        angle = float(rng.uniform(-8, 8))  # drawn even when fixed: the seed's later draws stay the same
        if spec.cube_angle is not None:
            angle = float(spec.cube_angle)
        draw.cube(canvas, px, py, lay.checker_d * 0.7 * sc, spec.cube_value, angle, spec.cube_face)
        value = None if spec.cube_face == "logo" else spec.cube_value
        cube_truth = CubeReading(value, spec.cube_position, (cx, cy))

    dice_truth: list[DieReading] = []
    # dice land clear of the cube and of borne-off checkers lying beside a paper board
    taken: list[tuple[float, float]] = list(off_flat)
    if cube_truth is not None and cube_truth.image_xy is not None:
        taken.append(cube_truth.image_xy)
    side = lay.checker_d * 0.62
    for die in spec.dice:
        x, y = die.xy if die.xy is not None else die_xy(lay, spec, die, rng, taken, checkers_on_board)
        taken.append((x, y))
        angle = die.angle if die.angle is not None else float(rng.uniform(0, 90))
        tilt = 0.0
        if die.status == DieStatus.COCKED:
            tilt = float(rng.uniform(0.5, 0.9))
        elif die.status == DieStatus.ON_CHECKER:
            tilt = float(rng.uniform(0.3, 0.6))
        # the side face seen on a tilted die: a neighbour of the top face (never its opposite, 7 - top)
        v = die.value
        side_value = (v % 6) + 1 if v + (v % 6) + 1 != 7 else ((v + 1) % 6) + 1
        (px, py), = c([(x, y)])
        draw.die(canvas, px, py, side * sc, v, angle, die.body, die.pip, tilt, side_value)
        dice_truth.append(DieReading(v, (x, y), die.status, 1.0))
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
    glare: float = 0.0,
    surface: surf.Surface | None = None,
) -> Render:
    """Render ``spec`` to an image of ``size`` (width, height) pixels with its ground truth.

    See the module docstring for every argument and the returned `Render`. ``seed`` fixes the scene
    (camera, lighting, dice placement); ``noise_seed`` and ``hand_seed`` (default: derived from
    ``seed``) fix the sensor noise and the hand, so a sequence of frames of one still scene differs
    only by noise, and a hand can move over an unchanged board (`vision.render.sequence`).

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
        dice_truth, cube_truth, _ = _draw_board(img, b2i, lay, spec, rng, surface)
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
        dice_truth, cube_truth, _ = _draw_board(canvas, b2c, lay, spec, rng, surface)
        img = _filled(h, w, pal["table"])
        cv2.warpPerspective(canvas, b2i @ np.linalg.inv(b2c), (w, h), dst=img, flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_TRANSPARENT)

    hand_mask = None
    if occluder == "hand":
        hand_rng = np.random.default_rng(seed + 1_000_003 if hand_seed is None else hand_seed)
        hand_mask = _add_hand(img, b2i, lay, hand_rng)

    _lighting(img, np.random.default_rng(seed + 3_000_017), lighting)
    _glare(img, np.random.default_rng(seed + 5_000_011), glare)
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
