"""The per-frame board reader: one BGR frame in, one :class:`vision.reading.BoardReading` out.

A pure function of the image (and an optional calibration): find the board (or take it from the
calibration), rectify it, count the checkers on the 24 points, the bar and the trays, read the cube and
the dice, and say when a hand covers the board instead of guessing. Slots follow DESIGN.md "One
coordinate system"; ``image_xy`` is in the input image's pixels.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.board import POINT_PX, BoardGeometry, find_board
from vision.calibration import Calibration
from vision.checkers import StackReading, _field_colour, count_stacks, find_bar_checkers, name_colours
from vision.cube import find_cube
from vision.occlusion import find_occlusion
from vision.reading import BoardReading, DieReading, DieStatus, FrameStatus, PointReading

__all__ = ["read_board", "ReaderInputError", "MIN_SIDE"]

# Smaller frames cannot show 24 points (a point would be a few pixels wide).
MIN_SIDE = 64
# A die's edge in checker diameters (real and rendered sets: 0.5-0.8).
_DIE_OF_CHECKER = 0.6
# Dice are looked for this far past the field (1 = the field's own outline), from its centre.
_DIE_REACH = 1.0
# Checker discs are masked out to this many radii; triangles to this share of a point's width, from
# the base to this share of the field's height (the tips are left: a die often lies across one).
_DISC_MASK = 1.1
_TRIANGLE_MASK = 1.15
_TIP = 0.42
# A die's face: this share of its middle within _FACE_SAME (Lab) of its median colour, and that
# colour _FACE_APART from this share of a ring around it.
_FACE_AROUND = 0.8
_FACE_UNIFORM = 0.5
_FACE_SAME = 20.0
_FACE_APART = 25.0
# Frames darker than this mean grey level (0-255) are reported as too dark.
_TOO_DARK = 12.0


class ReaderInputError(ValueError):
    """The array is not an image (wrong dtype or shape)."""


def _as_bgr(image: np.ndarray) -> np.ndarray:
    if not isinstance(image, np.ndarray):
        raise ReaderInputError(f"expected a numpy image, got {type(image).__name__}")
    if image.dtype != np.uint8:
        raise ReaderInputError(f"expected a uint8 image, got dtype {image.dtype}")
    if image.ndim == 2:
        return np.repeat(image[:, :, None], 3, axis=2)
    if image.ndim == 3 and image.shape[2] == 3:
        return image
    if image.ndim == 3 and image.shape[2] == 4:
        return np.ascontiguousarray(image[:, :, :3])
    if image.ndim == 3 and image.shape[2] == 1:
        return np.repeat(image, 3, axis=2)
    raise ReaderInputError(f"expected an HxW or HxWx3 image, got shape {image.shape}")


def read_board(image: np.ndarray, calibration: Calibration | None = None) -> BoardReading:
    """Read one frame: BGR uint8 (H, W, 3) (grey (H, W) and BGRA are accepted too).

    :param calibration: where the board is, from :func:`vision.calibration.calibrate`; when None the
        board is searched in this frame (slower). The calibration is trusted: a caller that keeps
        one over many frames checks :func:`vision.calibration.still_valid` now and then and
        calibrates again when the camera has moved.
    :returns: a :class:`BoardReading`; ``board_found=False`` with ``status`` ``no_board`` or
        ``too_dark`` when there is no readable board, ``occluded=True`` when something covers the
        playing area (the counts are then not to be trusted).
    :raises ReaderInputError: (a ValueError) when ``image`` is not an image array at all.
    """
    img = _as_bgr(image)
    h, w = img.shape[:2]
    size = (w, h)
    if min(h, w) < MIN_SIDE:
        return BoardReading(False, status=FrameStatus.NO_BOARD, image_size=size)
    if float(img.mean()) < _TOO_DARK:
        return BoardReading(False, status=FrameStatus.TOO_DARK, image_size=size)
    if calibration is not None and tuple(calibration.geometry.image_size) == size:
        geom: BoardGeometry | None = calibration.geometry
    else:
        geom = find_board(img)
    if geom is None:
        return BoardReading(False, status=FrameStatus.NO_BOARD, image_size=size)
    rect = geom.rectify(img)
    known = calibration.checker_radius if calibration is not None and geom is calibration.geometry else None
    stacks = count_stacks(rect, geom, known or None)
    radius = stacks[0].radius if stacks else 0.45 * POINT_PX
    cube = find_cube(img, geom, radius)
    on_bar = find_bar_checkers(rect, geom, radius, stacks)
    if cube is not None and cube.image_xy is not None:
        # the undoubled cube rests on the bar: its face is no checker's
        cx, cy = geom.to_rectified(np.array([cube.image_xy]))[0]
        on_bar = [b for b in on_bar
                  if (b.centres[0][0] - cx) ** 2 + (b.centres[0][1] - cy) ** 2 > (1.5 * radius) ** 2]
    all_names = name_colours(stacks + on_bar)
    names = all_names[: len(stacks)]
    bar: dict[str, int] = {}
    for name in all_names[len(stacks) :]:
        if name is not None:
            bar[name] = bar.get(name, 0) + 1
    # a field found only by completing an outline that something had joined and broken
    # (vision.board._complete_corners) is under a hand even where the field itself looks clear
    occluded = geom.outline_broken or find_occlusion(rect, geom, stacks + on_bar, radius, img)
    points = _points(geom, stacks, names)
    field = _field_colour(cv2.cvtColor(rect, cv2.COLOR_BGR2LAB).astype(np.float32), geom)
    dice = _dice(img, geom, stacks + on_bar, radius, cube.image_xy if cube is not None else None, field)
    return BoardReading(
        board_found=True,
        occluded=occluded,
        points=points,
        bar=bar,
        off={},
        dice=dice,
        cube=cube,
        status=FrameStatus.OCCLUDED if occluded else FrameStatus.OK,
        has_bar=geom.has_bar,
        image_size=size,
    )


def _points(
    geom: BoardGeometry, stacks: list[StackReading], names: list[str | None]
) -> tuple[PointReading, ...]:
    height = geom.size[1]
    by_key = {(s.column, s.top): (s, n) for s, n in zip(stacks, names, strict=True)}
    out = []
    for slot in range(24):
        col, top = geom.slot_column(slot)
        s, name = by_key[(col, top)]
        # the checker column's centre: halfway along a five-checker stack from the base
        depth = min(2.5 * POINT_PX, 0.25 * height)
        y = depth if top else height - depth
        xy = geom.to_image(np.array([[geom.columns[col], y]]))[0]
        out.append(
            PointReading(
                slot=slot,
                image_xy=(float(xy[0]), float(xy[1])),
                colour=name if s.count else None,
                count=s.count,
                confidence=s.confidence,
            )
        )
    return tuple(out)


def _die_regions(image: np.ndarray, geom: BoardGeometry, discs: list[tuple[float, float, float]],
                 cube_xy: tuple[float, float] | None, radius: float) -> np.ndarray:
    """Where a die may be looked for: uint8 (H, W), 255 on the field (grown a little past its frame)
    except on the found checkers' discs, the printed triangles' inner parts and the cube -- the
    things of a board that pass for a die-sized blob of another colour than the field."""
    corners = np.array(geom.corners, dtype=np.float64)
    centre = corners.mean(axis=0)
    region = np.zeros(image.shape[:2], np.uint8)
    grown = centre + _DIE_REACH * (corners - centre)
    cv2.fillConvexPoly(region, np.round(grown).astype(np.int32), 255)
    height = geom.size[1]
    half_w = 0.5 * POINT_PX * _TRIANGLE_MASK
    for x in geom.columns:
        for base, tip in ((0.0, _TIP * height), (float(height), (1.0 - _TIP) * height)):
            tri = np.array([[x - half_w, base], [x + half_w, base], [x, tip]])
            cv2.fillConvexPoly(region, np.round(geom.to_image(tri)).astype(np.int32), 0)
    for cx, cy, r in discs:
        ring = geom.to_image(np.array([[cx, cy], [cx + r, cy], [cx, cy + r]]))
        rr = _DISC_MASK * max(np.linalg.norm(ring[1] - ring[0]), np.linalg.norm(ring[2] - ring[0]))
        cv2.circle(region, (int(round(ring[0][0])), int(round(ring[0][1]))), int(np.ceil(rr)), 0, -1)
    if cube_xy is not None:
        c = geom.to_rectified(np.array([cube_xy]))[0]
        ring = geom.to_image(np.array([c, c + [radius, 0.0], c + [0.0, radius]]))
        rr = max(np.linalg.norm(ring[1] - ring[0]), np.linalg.norm(ring[2] - ring[0]))
        cv2.circle(region, (int(round(cube_xy[0])), int(round(cube_xy[1]))), int(np.ceil(1.2 * rr)), 0, -1)
    return region


def _face_stands_out(lab: np.ndarray, xy: tuple[float, float], size: float,
                     field: np.ndarray | None = None) -> bool:
    """True when a die-sized face at ``xy`` (input pixels) is one uniform colour, unlike its
    surroundings: most of the face's middle (pips aside) within ``_FACE_SAME`` (Lab) of its median,
    and that median more than ``_FACE_APART`` from nearly all of a ring around the die. ``lab``:
    float32 (H, W, 3) of the input image; ``size``: the die's edge in pixels."""
    h, w = lab.shape[:2]
    x, y = xy
    k = max(1, int(round(0.3 * size)))
    xi, yi = int(round(x)), int(round(y))
    inner = lab[max(0, yi - k) : yi + k + 1, max(0, xi - k) : xi + k + 1].reshape(-1, 3)
    if inner.size == 0:
        return False
    face = np.median(inner, axis=0)
    same = float(np.mean(np.linalg.norm(inner - face, axis=1) < _FACE_SAME))
    if field is not None and float(np.linalg.norm(face - field)) <= _FACE_APART:
        return False  # the field itself, left between the masked triangles, checkers and bar
    ang = np.linspace(0, 2 * np.pi, 32, endpoint=False)
    ring = []
    for rr in (0.95 * size, 1.2 * size):
        xs = np.clip(np.rint(x + rr * np.cos(ang)), 0, w - 1).astype(np.intp)
        ys = np.clip(np.rint(y + rr * np.sin(ang)), 0, h - 1).astype(np.intp)
        ring.append(lab[ys, xs])
    # all round: a face cut from the field by the masked pattern has the field on some side
    apart = float(np.mean(np.linalg.norm(np.concatenate(ring) - face, axis=1) > _FACE_APART))
    return same >= _FACE_UNIFORM and apart >= _FACE_AROUND


def _die_size(geom: BoardGeometry, radius: float) -> float:
    """A die's edge in input pixels near the field's middle: ``_DIE_OF_CHECKER`` checker diameters."""
    w, h = geom.size
    pts = geom.to_image(np.array([[0.5 * w, 0.5 * h], [0.5 * w + 2 * radius, 0.5 * h],
                                  [0.5 * w, 0.5 * h + 2 * radius]]))
    d = 0.5 * (np.linalg.norm(pts[1] - pts[0]) + np.linalg.norm(pts[2] - pts[0]))
    return float(_DIE_OF_CHECKER * d)


def _dice(image: np.ndarray, geom: BoardGeometry, stacks: list[StackReading], radius: float,
          cube_xy: tuple[float, float] | None = None,
          field: np.ndarray | None = None) -> tuple[DieReading, ...]:
    """The dice on and around the board, with the board-relative status (RULES.md B15).

    :func:`vision.dice.find_dice` reads the pips and tells flat from cocked; it is asked at the die
    size the board gives (a die is about ``_DIE_OF_CHECKER`` checker diameters) and only where the
    board's own checkers, triangles and cube are not (:func:`_die_regions`). Here a die whose centre
    lies outside the field is ``off_board``, on the bar ``on_bar``, on a checker's disc
    ``on_checker``. A die's face must stand out from the board around it and, given ``field`` (the
    field's Lab colour, float (3,)), from the field (:func:`_face_stands_out`).
    Whether a die is on the roller's wrong half needs to know who rolled: the
    controller decides that from the positions given.
    """
    try:
        from vision.dice import find_dice
    except ImportError:  # the dice reader is optional for the board reader
        return ()
    discs = [(x, y, s.radius) for s in stacks for x, y in s.centres]
    region = _die_regions(image, geom, discs, cube_xy, radius)
    try:
        found = find_dice(image, region, _die_size(geom, radius))
    except Exception:  # noqa: BLE001 -- a failing dice reader must not cost the board reading
        return ()
    if not found:
        return ()
    width, height = geom.size
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    size = _die_size(geom, radius)
    out = []
    for die in found:
        if die.image_xy is None:
            out.append(die)
            continue
        if not _face_stands_out(lab, die.image_xy, size, field):
            continue  # a sliver of the board's pattern between the masked parts
        x, y = geom.to_rectified(np.array([die.image_xy]))[0]
        if any((x - cx) ** 2 + (y - cy) ** 2 < (0.6 * r) ** 2 for cx, cy, r in discs):
            continue  # a checker's face taken for a die: the stack counter explains it
        status = DieStatus(die.status)
        if not (0 <= x <= width and 0 <= y <= height):
            status = DieStatus.OFF_BOARD
        elif geom.bar is not None and geom.bar[0] <= x <= geom.bar[1]:
            status = DieStatus.ON_BAR
        elif any((x - cx) ** 2 + (y - cy) ** 2 < r * r for cx, cy, r in discs):
            status = DieStatus.ON_CHECKER
        out.append(DieReading(die.value, die.image_xy, status, die.confidence))
    return tuple(out)
