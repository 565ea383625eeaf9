"""The stability gate: a board reading is settled only when the board has been still, with nothing over
it, for a few frames; the readings of those frames are voted point by point (STYLE.md 12, issue 4 item 5).

Separate from the detectors and knowing nothing of them: it sees each frame's image only through a
small grey thumbnail (to measure motion) and each frame's `BoardReading`. Modelled on
camera_calibration's sample gate (ros-perception/image_pipeline): a sample is taken only when the
board has stopped moving.

Per frame (`StabilityGate.update`), in this order:

* ``too_dark`` -- the thumbnail's mean grey level is below ``too_dark_level`` (or the detector said so);
* ``moving`` -- the mean absolute difference between this thumbnail and the previous frame's exceeds
  ``motion_threshold`` grey levels (a hand passing, a die rolling, the camera bumped); brightness and
  contrast are matched first, so auto-exposure drifting or a cloud passing is not motion;
* ``no_board`` -- the detector found no board;
* ``occluded`` -- the detector saw something over the playing area;
* ``ok`` -- a usable reading: it joins the current still run.

Any frame that is not ``ok`` ends the still run. When the run reaches ``still_frames`` readings the
gate emits the vote of the last ``still_frames`` of them, once per run (and again within the run only
if the vote changes and most of the window agrees with the new vote). The motion test is cheap (a
160-pixel-wide thumbnail), so a pipeline can call `StabilityGate.measure` first and skip the detector
on frames that are moving or too dark.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from vision.errors import GateError
from vision.frames.motion import frame_change, thumbnail
from vision.reading import BoardReading, CubeReading, DieReading, FrameStatus, PointReading

__all__ = ["GateConfig", "GateResult", "StabilityGate", "Motion", "vote"]


@dataclass(frozen=True)
class GateConfig:
    """``still_frames``: readings a still run needs before it is settled (>= 1); ``motion_threshold``:
    mean absolute grey difference between consecutive thumbnails (0-255 levels) above which a frame is
    moving (None: no motion test -- for separate still photos); ``thumb_width``: thumbnail width in
    pixels; ``too_dark_level``: mean grey level (0-255) below which a frame is too dark to read;
    ``repeat``: emit the vote for every ok frame of a settled run, not only once per run;
    ``pixel_threshold`` (grey levels) and ``changed_pixels``: a frame is also moving when more than
    ``changed_pixels`` thumbnail pixels changed by more than ``pixel_threshold`` -- a die landing or a
    checker slid changes too small a part of the frame to move the mean, but changes it a lot.

    The first frame of a source counts as still (nothing to compare it with); the run it starts
    still needs ``still_frames`` readings."""

    still_frames: int = 4
    motion_threshold: float | None = 2.0
    thumb_width: int = 160
    too_dark_level: float = 18.0
    repeat: bool = False
    pixel_threshold: float = 30.0
    changed_pixels: int = 3

    def __post_init__(self) -> None:
        if self.still_frames < 1:
            raise GateError(f"still_frames={self.still_frames}: must be at least 1")
        if (self.motion_threshold is not None and self.motion_threshold <= 0) or self.thumb_width < 8:
            raise GateError("motion_threshold must be > 0 (or None) and thumb_width >= 8")

    @classmethod
    def for_stills(cls) -> GateConfig:
        """Each frame is its own photo (an image folder of separate shots): no motion test, every ok
        frame settled on its own."""
        return cls(still_frames=1, motion_threshold=None, repeat=True)


@dataclass(frozen=True)
class Motion:
    """What `StabilityGate.measure` found: ``value`` the mean absolute grey difference to the previous
    frame (inf for the first frame or a frame of another size), ``changed`` the number of thumbnail
    pixels that changed by more than the config's ``pixel_threshold``, ``brightness`` the mean grey
    level, ``status`` ``moving``/``too_dark`` when the frame need not be read at all, else None."""

    value: float
    brightness: float
    status: FrameStatus | None
    changed: int = 0


@dataclass(frozen=True)
class GateResult:
    """The gate's answer for one frame: its ``status``, the ``settled`` reading when this frame
    completed a still run (else None), the ``motion`` measured and the length of the still run."""

    status: FrameStatus
    settled: BoardReading | None
    motion: float
    still_count: int


class StabilityGate:
    """Feed it every frame in order; it says why a frame gives no reading and when the board settled.

    Not thread-safe (one pipeline owns one gate). ``reset()`` forgets everything (after the camera
    was lost, say).
    """

    def __init__(self, config: GateConfig | None = None) -> None:
        self.config = config or GateConfig()
        self.reset()

    def reset(self) -> None:
        self._prev: np.ndarray | None = None
        self._pending: Motion | None = None
        self._run: deque[BoardReading] = deque(maxlen=self.config.still_frames)
        self._run_len = 0
        self._emitted: BoardReading | None = None

    def measure(self, image: np.ndarray) -> Motion:
        """Measure motion and brightness of the next frame (uint8 BGR (H, W, 3)); call `update` next."""
        thumb = thumbnail(image, self.config.thumb_width)
        brightness = float(thumb.mean())
        prev = self._prev
        same = prev is not None and prev.shape == thumb.shape
        value, changed = float("inf"), 0
        if same:
            value, changed = frame_change(prev, thumb, self.config.pixel_threshold)  # type: ignore[arg-type]
        self._prev = thumb
        status = None
        threshold = self.config.motion_threshold
        if brightness < self.config.too_dark_level:
            status = FrameStatus.TOO_DARK
        elif threshold is not None and prev is not None and (
            value > threshold or changed > self.config.changed_pixels
        ):
            status = FrameStatus.MOVING  # (a frame of another size counts as moving: value is inf)
        self._pending = Motion(value, brightness, status, changed)
        return self._pending

    def update(self, reading: BoardReading | None, image: np.ndarray | None = None) -> GateResult:
        """Give the frame's reading (None when it was not read because `measure` said moving or too
        dark). ``image`` may be passed instead of calling `measure` first.

        :raises GateError: (a ``ValueError``) when neither `measure` was called nor ``image`` given.
        """
        if image is not None:
            self.measure(image)
        motion = self._pending
        if motion is None:
            raise GateError("call measure(image) first or pass image=")
        self._pending = None
        status = motion.status
        if status is None:
            if reading is None:
                raise GateError("a frame that is neither moving nor too dark needs its reading")
            status = _reading_status(reading)
        if status != FrameStatus.OK or reading is None:
            self._run.clear()
            self._run_len = 0
            return GateResult(status, None, motion.value, 0)
        self._run.append(reading)
        self._run_len += 1
        settled = None
        if len(self._run) >= self.config.still_frames:
            voted = vote(list(self._run))
            first_of_run = self._run_len == self.config.still_frames
            key = _key(voted)
            # a change within a run must be held by most of the window, not one flickering frame
            held = sum(_key(r) == key for r in self._run)
            changed = key != _key(self._emitted) and 2 * held > len(self._run)
            if first_of_run or self.config.repeat or changed:
                settled = voted
                self._emitted = voted
        return GateResult(FrameStatus.OK, settled, motion.value, self._run_len)


def _reading_status(reading: BoardReading) -> FrameStatus:
    if reading.status == FrameStatus.TOO_DARK:
        return FrameStatus.TOO_DARK
    if not reading.board_found or reading.status == FrameStatus.NO_BOARD:
        return FrameStatus.NO_BOARD
    if reading.status == FrameStatus.OVEREXPOSED:
        return FrameStatus.OVEREXPOSED  # (its own: a blown-out field is often "occluded" as well)
    if reading.occluded or reading.status == FrameStatus.OCCLUDED:
        return FrameStatus.OCCLUDED
    if reading.status == FrameStatus.MOVING:
        return FrameStatus.MOVING
    if reading.status == FrameStatus.TOO_MANY_CHECKERS:
        return FrameStatus.TOO_MANY_CHECKERS  # a misread frame settles nothing
    return FrameStatus.OK


def _key(r: BoardReading | None) -> object:
    if r is None:
        return None
    dice = tuple(sorted((d.value or 0, str(d.status)) for d in r.dice))
    cube = (r.cube.value, r.cube.position) if r.cube else None
    return (r.counts(), tuple(sorted(r.bar.items())), tuple(sorted(r.off.items())), dice, cube)


def vote(readings: Sequence[BoardReading]) -> BoardReading:
    """The per-point majority of several readings of a still board (pure).

    Each slot takes the most common ``(colour, count)`` (ties: the most recent reading's), with
    ``confidence`` = share of readings that agree x their mean confidence and ``image_xy`` the mean of
    the agreeing readings'. Bar, off, the dice (as a multiset of value and status) and the cube are
    voted whole the same way; the dice and cube positions come from the latest agreeing reading.

    :raises GateError: (a ``ValueError``) for an empty sequence.
    """
    if not readings:
        raise GateError("vote needs at least one reading")
    latest = readings[-1]
    n = len(readings)
    points: list[PointReading] = []
    n_slots = max(len(r.points) for r in readings)
    for slot in range(n_slots):
        cands = [r.points[slot] for r in readings if len(r.points) > slot]
        win = _majority([(p.colour, p.count) for p in cands])
        agree = [p for p in cands if (p.colour, p.count) == win]
        xys = [p.image_xy for p in agree if p.image_xy is not None]
        xy = (float(np.mean([x for x, _ in xys])), float(np.mean([y for _, y in xys]))) if xys else None
        conf = len(agree) / n * float(np.mean([p.confidence for p in agree]))
        points.append(PointReading(slot, xy, win[0], win[1], round(conf, 4)))
    bar = dict(_majority([tuple(sorted(r.bar.items())) for r in readings]))
    off = dict(_majority([tuple(sorted(r.off.items())) for r in readings]))
    dice_keys = [tuple(sorted((d.value or 0, str(d.status)) for d in r.dice)) for r in readings]
    dice_win = _majority(dice_keys)
    dice_src = next(r for r, k in zip(reversed(readings), reversed(dice_keys), strict=True) if k == dice_win)
    share = dice_keys.count(dice_win) / n
    dice = tuple(replace(d, confidence=round(d.confidence * share, 4)) for d in dice_src.dice)
    cube_keys = [(r.cube.value, r.cube.position) if r.cube else None for r in readings]
    cube_win = _majority(cube_keys)
    cube: CubeReading | None = next(
        (r.cube for r, k in zip(reversed(readings), reversed(cube_keys), strict=True) if k == cube_win), None
    )
    return BoardReading(
        board_found=True, occluded=False, points=tuple(points), bar=bar, off=off,
        dice=tuple(d for d in dice if isinstance(d, DieReading)), cube=cube, status=FrameStatus.OK,
        has_bar=latest.has_bar, image_size=latest.image_size,
    )


def _majority(keys: list) -> object:  # type: ignore[type-arg]
    """Most common key; ties go to the most recent of the tied keys."""
    counts = Counter(keys)
    best = max(counts.values())
    for k in reversed(keys):
        if counts[k] == best:
            return k
    raise AssertionError("unreachable")
