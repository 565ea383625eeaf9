"""The per-frame board reader: one BGR frame in, one :class:`vision.reading.BoardReading` out.

A pure function of the image (and an optional calibration): find the board (or take it from the
calibration), rectify it, count the checkers on the 24 points, the bar and the trays, read the cube and
the dice, and say when a hand covers the board instead of guessing. Slots follow DESIGN.md "One
coordinate system"; ``image_xy`` is in the input image's pixels.

:func:`read_changed` is the same reading made incrementally over a camera's frames (the pipeline's
``CalibratedDetector``): given the stages of the last reading and where the frame changed since, the
stages whose places did not change answer from the last reading.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.board import appearance as look
from vision.board.calibration import Calibration, outline_weak, weak_covered
from vision.board.exposure import blown_out
from vision.board.finder import find_board_view
from vision.board.geometry import POINT_PX, BoardGeometry, per_geometry
from vision.board.view import FieldView
from vision.checkers.network import refine
from vision.checkers.occlusion import clear_of_hands, find_occlusion, foreign_mask, hide_points
from vision.checkers.sets import complete_sets
from vision.checkers.stacks import FieldLook, StackReading, count_stacks_kept, find_bar_checkers, name_colours
from vision.checkers.trays import (
    OffGroup,
    TrayStrip,
    find_off,
    name_by_off,
    name_off,
    off_inputs,
    tray_strips,
)
from vision.cube.finder import find_cube
from vision.dice.on_board import DiceScan, board_dice_places, find_board_dice
from vision.errors import ReaderInputError
from vision.reading import BoardReading, CubeReading, DieReading, FrameStatus, PointReading

__all__ = ["read_adapting", "read_board", "read_changed", "ReaderInputError", "Stages", "MIN_SIDE",
           "MAX_WORK_SIDE"]

# Smaller frames cannot show 24 points (a point would be a few pixels wide).
MIN_SIDE = 64
# Photos whose long side is over MAX_WORK_SIDE pixels (larger than any camera frame the stages were
# measured on: 640-1600 px) are read shrunk to a long side of WORK_SIDE; see _read_shrunk.
MAX_WORK_SIDE = 1920
WORK_SIDE = 1600
# No backgammon or nardy set has more checkers of a colour than this (some play with fewer).
SET_SIZE = 15
# Frames darker than this mean grey level (0-255) are reported as too dark.
_TOO_DARK = 12.0


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

    :param calibration: where the board is, from :func:`vision.board.calibration.calibrate`; when None the
        board is searched in this frame (slower). The calibration is trusted: a caller that keeps
        one over many frames checks :func:`vision.board.calibration.still_valid` now and then and
        calibrates again when the camera has moved.
    :returns: a :class:`BoardReading`; ``board_found=False`` with ``status`` ``no_board`` or
        ``too_dark`` when there is no readable board, ``occluded=True`` when something covers the
        playing area, ``status`` ``overexposed`` when the field is mostly clipped white (the counts
        are then not to be trusted).
    :raises ReaderInputError: (a ValueError) when ``image`` is not an image array at all.

    A calibration with a learned :class:`~vision.board.appearance.Appearance` (``tavla calibrate``)
    reads the frame in the calibration's light and names the stacks by the learned checker colours;
    :func:`read_adapting` also gives back the model updated by this frame.
    """
    return read_adapting(image, calibration)[0]


def read_adapting(image: np.ndarray,
                  calibration: Calibration | None = None) -> tuple[BoardReading, Calibration | None]:
    """:func:`read_board`, and ``calibration`` with its appearance model updated by this frame
    (:func:`vision.board.appearance.update`: the light measured, the checker colours moved a bounded
    step toward the stacks read confidently). Pure: the caller keeps the calibration it is given
    back for the next frame (the pipeline's ``CalibratedDetector`` does). ``calibration`` comes back
    as it was when it has no model, does not fit the frame, or the frame is not read (no board, a
    hand over it)."""
    reading, calibration, _ = read_changed(image, calibration)
    return reading, calibration


@dataclass(frozen=True)
class Stages:
    """What the stages of one calibrated reading found, for the next frame's incremental reading
    (:func:`read_changed`) to take where their places did not change. ``gains``: the light
    correction the frame was read in (None without one: no learned look, or the light as learned);
    ``in_part``: True when this reading took places from an earlier one. ``stacks`` are the
    classical counter's, before the learned counter refines them."""

    stacks: tuple[StackReading, ...]
    cube: CubeReading | None
    off_groups: tuple[OffGroup, ...]
    off_key: tuple[object, ...]
    dice: tuple[DieReading, ...]
    dice_key: tuple[object, ...]
    outline: bool
    gains: object
    in_part: bool = False
    weak: np.ndarray | None = None  # the outline's weak samples (vision.board.calibration.outline_weak)
    foreign: np.ndarray | None = None  # the field's foreign mask (vision.checkers.occlusion.foreign_mask)
    strips: tuple[TrayStrip, ...] | None = None  # the trays' strips (vision.checkers.trays.tray_strips)
    field_look: FieldLook | None = None  # the stack counter's whole-field measures (count_stacks_kept)


def read_changed(image: np.ndarray, calibration: Calibration | None = None, last: Stages | None = None,
                 changed: np.ndarray | None = None,
                 ) -> tuple[BoardReading, Calibration | None, Stages | None]:
    """:func:`read_adapting`, and what its stages found (None when the frame was not read through
    the calibration). Incremental: given ``last``, the stages of an earlier frame read through the
    same calibration, and ``changed``, the rectified centres (float (N, 2)) of the places that
    changed since (:class:`vision.frames.motion.BoardThumbnail` regions, a quarter point across),
    each stage whose places did not change answers from ``last`` instead of reading the frame:
    the stacks of the points untouched (and the stack counter's measures of their colours), the
    cube, the trays, the outline's sides and the dice.
    The bar is read on every frame; the hand test compares only the changed places with the bare
    board, and the whole field when those suggest a hand."""
    img = _as_bgr(image)
    h, w = img.shape[:2]
    size = (w, h)
    calibrated = calibration is not None and tuple(calibration.geometry.image_size) == size
    if max(h, w) > MAX_WORK_SIDE and not calibrated:
        return _read_shrunk(img, WORK_SIDE / max(h, w)), calibration, None
    if min(h, w) < MIN_SIDE:
        return BoardReading(False, status=FrameStatus.NO_BOARD, image_size=size), calibration, None
    if _mean_level(img) < _TOO_DARK:
        return BoardReading(False, status=FrameStatus.TOO_DARK, image_size=size), calibration, None
    found: FieldView | None = None  # the finder's view of the field, when it made one
    if calibration is not None and tuple(calibration.geometry.image_size) == size:
        geom: BoardGeometry | None = calibration.geometry
    else:
        geom, found = find_board_view(img) or (None, None)
    if geom is None:
        return BoardReading(False, status=FrameStatus.NO_BOARD, image_size=size), calibration, None
    own = calibration is not None and geom is calibration.geometry
    model = calibration.appearance if calibration is not None and own else None
    gains = None
    light: object = None  # the correction the frame is read in (None: none)
    # a field mostly clipped white has lost its colours: read, but said so (the camera as it gave it)
    blown = blown_out(img, geom)
    if model is not None:
        # the frame brought back to the calibration's light, for every stage (the last light seen
        # when this frame's bare places do not agree on one)
        gains = look.estimate_gains(img, geom, model)
        corrected = look.correct(img, gains or model.gains)
        light = None if corrected is img else tuple(gains or model.gains)
        img = corrected
    if last is not None and (not own or changed is None or last.gains != light):
        last = None  # another board, or read in another light: every place is read again
    places = None if last is None or changed is None else _Places(geom, changed)
    known = calibration.checker_radius if calibration is not None and own else None
    # the frame's one warp of the field, with its colour conversions, shared by the field's readers
    # (read in part: the colour gradient only where the points read again and the bar sample it)
    bands = None if places is None or not known else places.gradient_bands(geom, known)
    # (the finder's, of this very frame: a found board is no calibration's, read whole in its light)
    rect = found if found is not None and found.image is img else FieldView.of_frame(img, geom, bands)
    if places is None or last is None:
        counted, field_look = count_stacks_kept(rect, geom, known or None)
    else:
        # the whole field's measures where no point changed: the last reading's
        counted, field_look = count_stacks_kept(rect, geom, known or None, only=places.points,
                                                previous=last.stacks, look=last.field_look)
    # where the learned counter is sure and the classical one is not, its count (vision.checkers.network),
    # on all 24 points every frame (its strips are standardised by the whole field's colours); the
    # hand tests and the next frame's partial read keep the classical stacks (the network saw no hand)
    stacks = refine(rect, geom, counted)
    scan = DiceScan(img)  # (the dice searches of this frame share its views)
    stacks = _dice_in_blots(img, geom, stacks, scan)
    radius = stacks[0].radius if stacks else 0.45 * POINT_PX
    if places is not None and last is not None and not places.cube_places:
        cube = last.cube
    else:
        cube = find_cube(img, geom, radius)
    on_bar = find_bar_checkers(rect, geom, radius, stacks)
    if cube is not None and cube.image_xy is not None and cube.value is not None:
        # the undoubled cube rests on the bar: its face is no checker's. An unread "cube" may be a
        # checker the cube finder fell back on (find_bar_checkers refuses square outlines itself)
        cx, cy = geom.to_rectified(np.array([cube.image_xy]))[0]
        on_bar = [b for b in on_bar
                  if (b.centres[0][0] - cx) ** 2 + (b.centres[0][1] - cy) ** 2 > (1.5 * radius) ** 2]
    # borne-off checkers in the trays (or beside a board without), clear of the cube lying there;
    # with one colour on the points (the other all off) they tell which of the two it is
    cube_at = [] if cube is None or cube.image_xy is None else [
        tuple(geom.to_rectified(np.array([cube.image_xy]))[0])]
    # (what find_off takes from the stacks, made once: its colour split draws on OpenCV's random
    # generator, and one more draw would change the next split's start)
    inputs = off_inputs(stacks + on_bar) if radius > 0 else None
    off_key = (radius, cube_at, None if inputs is None else (inputs[0].tobytes(), inputs[1]))
    # the strips beyond the field's ends, kept from the last reading while nothing changed there
    strips = last.strips if places is not None and last is not None and not places.trays else None
    if places is not None and last is not None and not places.trays and last.off_key == off_key:
        off_groups = list(last.off_groups)
    else:
        if strips is None and inputs is not None and inputs[0].size:
            strips = tray_strips(img, geom)
        off_groups = find_off(img, geom, radius, stacks + on_bar, cube_at, inputs, strips)
    learned = None if model is None else look.name_stacks([s.colour_lab for s in stacks + on_bar], model)
    # the learned colours name a stack whatever else the frame shows; without them the frame's
    # stacks are split in two, and the trays say which is which when one colour alone is on the points
    all_names = learned or name_by_off(off_groups, stacks + on_bar, name_colours(stacks + on_bar))
    names = all_names[: len(stacks)]
    bar: dict[str, int] = {}
    for name in all_names[len(stacks) :]:
        if name is not None:
            bar[name] = bar.get(name, 0) + 1
    # a field found only by completing an outline that something had joined and broken
    # (vision.board.finder._complete_corners) is under a hand even where the field itself looks clear; a
    # calibrated reading searches no outline, so it checks the calibrated one is still in plain view
    covered = False
    weak = None
    if calibration is not None and own:
        if places is not None and last is not None and not places.outline:
            covered, weak = last.outline, last.weak
        else:
            # read in part: only the sides a changed place lies near are measured again
            was = None if last is None else last.weak
            sides = None if places is None or was is None else places.sides
            weak = outline_weak(img, calibration, sides, was)
            covered = weak_covered(weak)
    occluded = geom.outline_broken or covered
    foreign = None  # the field's foreign mask: made once, for the occlusion test and the hidden points
    if not occluded and places is not None and last is not None and last.foreign is not None:
        # read in part: the field compared with its bare model only where it changed; a hand
        # seen in the mask so made has the whole field compared again. The last reading was clear:
        # with the frame beyond the field unchanged, only foreign regions reaching into the
        # changed places are weighed
        region = places.region(geom)
        foreign = foreign_mask(rect, geom, counted + on_bar, radius, only=region, previous=last.foreign)
        if not clear_of_hands(foreign, radius, None if places.beyond else region) and find_occlusion(
                rect, geom, counted + on_bar, radius, img, mask=foreign):
            foreign = None
    if not occluded and foreign is None:
        foreign = foreign_mask(rect, geom, counted + on_bar, radius)
        occluded = find_occlusion(rect, geom, counted + on_bar, radius, img, mask=foreign)
    points = _points(geom, stacks, names)
    if occluded:  # the points under the hand are not read: confidence 0
        points = hide_points(points, rect, geom, counted + on_bar, radius, mask=foreign)
    off = _within_a_set(name_off(off_groups, stacks + on_bar, all_names), points, bar)
    if not occluded:
        # a pile its point left open is read at the count that completes its colour's set
        stacks, names = complete_sets(stacks, names, bar, off)
        points = _points(geom, stacks, names)
    # an unread square may be a die the cube finder took for the cube (a die on the bar is a square
    # nearer the field than the cube in its tray): the dice reader looks there too, with its checks
    cube_xy = cube.image_xy if cube is not None and cube.value is not None else None
    dice_key = (radius, cube_xy)
    if places is not None and last is not None and _dice_hold(places, last, geom, counted, cube_xy, radius):
        dice = last.dice
    else:
        dice = _dice(img, geom, stacks + on_bar, radius, cube_xy, scan)
    if model is not None and calibration is not None and not occluded and not blown:
        read = [s for s in stacks + on_bar if s.count]
        kept = [n for s, n in zip(stacks + on_bar, all_names, strict=True) if s.count]
        calibration = replace(calibration, appearance=look.update(
            model, [s.colour_lab for s in read], kept, [s.confidence for s in read], gains))
    reading = BoardReading(
        board_found=True,
        occluded=occluded,
        points=points,
        bar=bar,
        off=off,
        dice=dice,
        cube=cube,
        status=_status(occluded, blown, points, bar, off),
        has_bar=geom.has_bar,
        image_size=size,
    )
    if not own:
        return reading, calibration, None
    return reading, calibration, Stages(tuple(counted), cube, tuple(off_groups), off_key, dice, dice_key,
                                        covered, light, places is not None, weak,
                                        None if occluded else foreign, strips, field_look)


# A lone checker whose ring is less complete than this may be a die (:func:`_dice_in_blots`): the
# completeness asked of a checker of its point's own colour (vision.checkers.stacks).
_DIE_RING = 0.85
# Half a changed region's side, in point widths (BoardThumbnail regions are a quarter point across).
_HALF_CELL = 0.125


class _Places:
    """Which stages' places hold changed regions (rectified centres ``changed``, float (N, 2)):
    ``points`` the (column, top) stacks to read again, ``cube_places`` (the bar, beyond the field's
    ends), ``trays`` (beyond the ends), ``outline`` (near the field's edge; ``sides`` which of its four), and
    ``xy`` them all."""

    # A region touches a point within this many point widths of its axis (a stack's rings are
    # searched a quarter point to each side, and a neighbour's disc is judged against it).
    _REACH = 1.0
    # ... and the field's outline within this many (the outline test's strip, blurred).
    _EDGE = 0.5

    def __init__(self, geom: BoardGeometry, changed: np.ndarray) -> None:
        xy = np.asarray(changed, np.float64).reshape(-1, 2)
        self.xy = xy
        width, height = geom.size
        pw = float(POINT_PX)
        x, y = xy[:, 0], xy[:, 1]
        inside = (x >= 0) & (x <= width) & (y >= 0) & (y <= height)
        cols = np.asarray(geom.columns, np.float64)
        near = np.abs(x[:, None] - cols[None, :]) <= self._REACH * pw  # (N, 12)
        half = 0.5 * height
        tops = inside & (y <= half + pw)
        bottoms = inside & (y >= half - pw)
        self.points = frozenset(
            [(int(c), True) for c in np.flatnonzero((near & tops[:, None]).any(axis=0))]
            + [(int(c), False) for c in np.flatnonzero((near & bottoms[:, None]).any(axis=0))])
        ends = (x < 0) | (x > width)  # (the regions' edges fall on the field's ends)
        bar = np.zeros_like(ends)
        if geom.bar is not None:
            bar = (x + _HALF_CELL * pw >= geom.bar[0]) & (x - _HALF_CELL * pw <= geom.bar[1])
        self.trays = bool(ends.any())
        self.beyond = not bool(inside.all())  # (the frame round the field: a hand reaching in)
        self.cube_places = bool((ends | bar).any())
        edge = self._EDGE * pw
        # (the sides as vision.board.calibration.outline_profile numbers them: top, right, bottom, left)
        by_side = [np.abs(y) <= edge, np.abs(x - width) <= edge, np.abs(y - height) <= edge,
                   np.abs(x) <= edge]
        self.sides = frozenset(i for i, m in enumerate(by_side) if bool(m.any()))
        self.outline = bool(self.sides)

    # A changed region is compared with the bare model this many point widths round its centre
    # (its own half side, and the model's slack and the mask's opening beyond it).
    _AROUND = 0.3

    def region(self, geom: BoardGeometry) -> np.ndarray:
        """bool (rectified H, W): the field's pixels near a changed region."""
        width, height = geom.size
        out = np.zeros((height, width), np.uint8)
        reach = self._AROUND * POINT_PX
        for x, y in self.xy:
            cv2.rectangle(out, (int(np.floor(x - reach)), int(np.floor(y - reach))),
                          (int(np.ceil(x + reach)), int(np.ceil(y + reach))), 1, -1)
        return out > 0

    def gradient_bands(self, geom: BoardGeometry, radius: float) -> list[tuple[float, float]]:
        """Where (x-ranges, rectified pixels) the stacks of ``points`` (and their neighbours, which
        they are judged against: :func:`vision.checkers.stacks.count_stacks`) and the bar's
        checkers sample the colour gradient, for checkers of ``radius``: a ring of the radius
        round centres up to a quarter point off a point's axis, and on the bar rings and outlines
        up to twice the radius off its middle."""
        cols = sorted({c + dc for c, _ in self.points for dc in (-1, 0, 1)} & set(range(12)))
        reach = radius + 0.25 * POINT_PX + 2.0
        out = [(geom.columns[c] - reach, geom.columns[c] + reach) for c in cols]
        if geom.bar is not None:
            out.append((geom.bar[0] - 3.0 * radius, geom.bar[1] + 3.0 * radius))
        return out


# A die is kept from the last reading only where no changed place lies within this many point
# widths of it (a die is at most 0.7 point widths across; one turned or taken changes its place).
_DIE_REACH = 1.5


def _dice_hold(places: _Places, last: Stages, geom: BoardGeometry, stacks: list[StackReading],
               cube_xy: tuple[float, float] | None, radius: float) -> bool:
    """True when the last reading's dice hold for this frame: every changed place lies on the
    field, on a point whose stack changed (a checker moved there or away: the change is the
    checker's, not a die's) and none near a die of the last reading; nothing changed on the bar or
    beyond the field's ends; the cube where it was."""
    if last.dice_key != (radius, cube_xy) or places.trays or places.cube_places:
        return False
    moved = [(s.column, s.top) for s, o in zip(stacks, last.stacks, strict=True)
             if (s.count, s.centres) != (o.count, o.centres)]
    if not moved:
        return False  # something changed that no stack explains: it may be a die
    width, height = geom.size
    pw = float(POINT_PX)
    x, y = places.xy[:, 0], places.xy[:, 1]
    on_moved = np.zeros(len(x), bool)
    for col, top in moved:
        side = y <= 0.5 * height + pw if top else y >= 0.5 * height - pw
        on_moved |= (np.abs(x - geom.columns[col]) <= 0.75 * pw) & side
    inside = (x >= 0) & (x <= width) & (y >= 0) & (y <= height)
    if not bool((on_moved & inside).all()):
        return False
    dice_xy = [d.image_xy for d in last.dice if d.image_xy is not None]
    if dice_xy:
        at = geom.to_rectified(np.array(dice_xy, np.float64))
        gap = np.hypot(x[:, None] - at[None, :, 0], y[:, None] - at[None, :, 1])
        if bool((gap <= _DIE_REACH * pw).any()):
            return False
    return True


def _mean_level(img: np.ndarray) -> float:
    """``float(img.mean())`` of a uint8 image, from OpenCV's per-channel sums (exact integers in
    doubles, so the same quotient): several times faster on a camera frame."""
    return float(sum(cv2.sumElems(img)[: img.shape[2] if img.ndim == 3 else 1])) / img.size


def _read_shrunk(img: np.ndarray, k: float) -> BoardReading:
    """A photo far larger than a camera frame (a 24-megapixel still, an upscaled picture) is read at
    ``k`` times its size: the stages' scales were measured on frames of 640-1600 px and a checker's
    rim in a 6000 px photo is a soft ramp many pixels wide (seen: 9 stacks miscounted, a made-up bar).
    Every ``image_xy`` is given back in the input's pixels."""
    h, w = img.shape[:2]
    small = cv2.resize(img, (max(1, round(w * k)), max(1, round(h * k))), interpolation=cv2.INTER_AREA)
    r = read_board(small)
    sx, sy = w / small.shape[1], h / small.shape[0]

    def up(xy: tuple[float, float] | None) -> tuple[float, float] | None:
        return None if xy is None else (float(xy[0]) * sx, float(xy[1]) * sy)

    return replace(
        r,
        points=tuple(replace(p, image_xy=up(p.image_xy)) for p in r.points),
        dice=tuple(replace(d, image_xy=up(d.image_xy)) for d in r.dice),
        cube=None if r.cube is None else replace(r.cube, image_xy=up(r.cube.image_xy)),
        image_size=(w, h),
    )


def _within_a_set(off: dict[str, int], points: tuple[PointReading, ...],
                  bar: dict[str, int]) -> dict[str, int]:
    """The borne-off counts, each cut to what a set of ``SET_SIZE`` checkers of its colour leaves once
    those read on the points and the bar are counted: a card or a clock beside a tray read as
    checkers cannot make a sixteenth (the points' counts are the surer reading)."""
    out = {}
    for colour, n in off.items():
        seen = sum(p.count for p in points if p.colour == colour) + bar.get(colour, 0)
        left = max(0, SET_SIZE - seen)
        if min(n, left):
            out[colour] = min(n, left)
    return out


def _status(occluded: bool, blown: bool, points: tuple[PointReading, ...], bar: dict[str, int],
            off: dict[str, int]) -> FrameStatus:
    """The frame's status: ``OVEREXPOSED`` (a field mostly clipped: the occlusion test itself sees
    the lost edges and colours there, and the light is what the user can fix) over ``OCCLUDED`` over
    the counts' own (:func:`_set_status`)."""
    if blown:
        return FrameStatus.OVEREXPOSED
    if occluded:
        return FrameStatus.OCCLUDED
    return _set_status(points, bar, off)


def _set_status(points: tuple[PointReading, ...], bar: dict[str, int], off: dict[str, int]) -> FrameStatus:
    """``TOO_MANY_CHECKERS`` when the points, the bar and off together hold more than ``SET_SIZE``
    checkers of one colour (no set has them: something was misread), else ``OK``."""
    for colour in {p.colour for p in points if p.colour} | set(bar) | set(off):
        seen = sum(p.count for p in points if p.colour == colour) + bar.get(colour, 0) + off.get(colour, 0)
        if seen > SET_SIZE:
            return FrameStatus.TOO_MANY_CHECKERS
    return FrameStatus.OK


def _points(
    geom: BoardGeometry, stacks: list[StackReading], names: list[str | None]
) -> tuple[PointReading, ...]:
    by_key = {(s.column, s.top): (s, n) for s, n in zip(stacks, names, strict=True)}
    out = []
    for slot, (where, xy) in enumerate(_point_places(geom)):
        s, name = by_key[where]
        out.append(
            PointReading(
                slot=slot,
                image_xy=xy,
                colour=name if s.count else None,
                count=s.count,
                confidence=s.confidence,
            )
        )
    return tuple(out)


@per_geometry()
def _point_places(geom: BoardGeometry) -> tuple[tuple[tuple[int, bool], tuple[float, float]], ...]:
    """Per slot, its (column, top) and its checker column's centre in the image: halfway along a
    five-checker stack from the base. Made once per geometry."""
    height = geom.size[1]
    where = [geom.slot_column(slot) for slot in range(24)]
    depth = min(2.5 * POINT_PX, 0.25 * height)
    at = geom.to_image(np.array([[geom.columns[c], depth if top else height - depth] for c, top in where]))
    return tuple((w, (float(xy[0]), float(xy[1]))) for w, xy in zip(where, at, strict=True))


def _dice_in_blots(image: np.ndarray, geom: BoardGeometry, stacks: list[StackReading],
                   scan: DiceScan | None = None) -> list[StackReading]:
    """``stacks`` less each lone checker that is a die: a disc of one checker whose ring is less
    complete than ``_DIE_RING``, in which the dice reader finds a die once that disc is not masked.
    A small die at a bare point's base closes a partial ring from the triangle's sides and the base
    line, and the dice reader masks it as a checker; a die lying on a checker leaves most of the
    checker's ring in view."""
    blots = [i for i, s in enumerate(stacks)
             if s.count == 1 and len(s.centres) == 1 and s.confidence < _DIE_RING]
    if not blots:
        return stacks
    others = [s for i, s in enumerate(stacks) if i not in blots]
    discs = [(x, y, s.radius) for s in others for x, y in s.centres]
    try:
        found = board_dice_places(image, geom, discs, stacks[0].radius, None, scan)
    except Exception:  # noqa: BLE001 -- a failing dice reader must not cost the board reading
        found = []
    if not found:
        return stacks
    at = geom.to_rectified(np.array(found, np.float64))
    out = list(stacks)
    for i in blots:
        (x, y), r = stacks[i].centres[0], stacks[i].radius
        if bool((np.hypot(at[:, 0] - x, at[:, 1] - y) <= r).any()):
            out[i] = replace(stacks[i], count=0, colour_lab=None, centres=(),
                             confidence=1.0 - stacks[i].confidence)
    return out


def _dice(image: np.ndarray, geom: BoardGeometry, stacks: list[StackReading], radius: float,
          cube_xy: tuple[float, float] | None = None, scan: DiceScan | None = None) -> tuple[DieReading, ...]:
    """The dice on the board (:func:`vision.dice.on_board.find_board_dice`); () when that reader fails."""
    discs = [(x, y, s.radius) for s in stacks for x, y in s.centres]
    try:
        return find_board_dice(image, geom, discs, radius, cube_xy, scan)
    except Exception:  # noqa: BLE001 -- a failing dice reader must not cost the board reading
        return ()
