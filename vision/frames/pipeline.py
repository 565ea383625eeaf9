"""The vision pipeline: frame source -> per-frame detector -> stability gate -> settled readings.

``run_pipeline(source)`` yields one `PipelineResult` per frame: the frame's status (why it gave no
reading: ``moving``, ``too_dark``, ``no_board``, ``occluded``, ``overexposed``; or ``ok``), its own
reading when the detector ran, and the settled `BoardReading` when this frame completed a still run
(DESIGN.md data flow; STYLE.md 12). A result unpacks as ``status, settled``::

    for status, settled in run_pipeline(open_source("game.mp4")):
        if settled is not None:
            print(settled.counts())

The detector is injected (default: `vision.reader.read_board`, imported lazily); it is skipped on frames
the gate already knows are moving or too dark, which keeps a slow detector off frames nobody will use.
A detector that raises on a corrupt frame does not stop the pipeline: the frame is reported as
``no_board`` with the error's one-line message in ``error``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from vision.frames.motion import STILL_CHANGE, BoardThumbnail, cell_changes, merge_cells
from vision.frames.sources import Frame, FrameSource, open_source
from vision.frames.stability import GateConfig, StabilityGate
from vision.reading import BoardReading, FrameStatus

__all__ = [
    "CalibratedDetector", "Detector", "MAX_REUSE", "PipelineResult", "default_detector", "run_pipeline",
]

Detector = Callable[[np.ndarray], BoardReading]


@dataclass(frozen=True)
class PipelineResult:
    """One frame through the pipeline: the ``frame``, its ``status``, its own ``reading`` (None when
    the detector was skipped or failed), the ``settled`` reading (None unless this frame completed a
    still run), the ``motion`` measured (mean absolute grey difference to the previous frame) and
    ``error``, the detector's message when it failed on this frame."""

    frame: Frame
    status: FrameStatus
    reading: BoardReading | None
    settled: BoardReading | None
    motion: float
    error: str | None = None

    def __iter__(self) -> Iterator[Any]:
        """Unpacks as ``(status, settled)``."""
        return iter((self.status, self.settled))


def default_detector() -> Detector:
    """`vision.reader.read_board` (imported on first use, so the pipeline loads without it)."""
    from vision.reader import read_board

    return read_board


# A reading is reused for at most this many frames in a row before the frame is read again anyway
# (3 s at 30 fps: a change too small for the thumbnail, if any, is still read within that).
MAX_REUSE = 90


class CalibratedDetector:
    """A detector for a fixed camera: the board is found once (`vision.board.calibration.calibrate`) and the
    calibration reused for every frame (`vision.reader.read_board` with it), which skips the board
    search, the slowest stage (see bench/vision.py). Every ``recheck_every`` frames the calibration is
    checked (`vision.board.calibration.still_valid`); when the camera was moved, or a frame shows no board
    where the calibration says, the board is searched again on the next frame.

    ``reuse``: a still camera over an unchanged board gives the last reading again instead of reading
    the frame: when the frame's board thumbnail (:class:`BoardThumbnail`, ~0.5 ms) differs from the last
    read frame's by less than :data:`STILL_CHANGE` grey levels in every region (:func:`region_change`:
    sensor noise and flicker), the last reading is returned; where regions changed (a checker moved, a
    die thrown or turned, a hand), the frame is read in part (:func:`vision.reader.read_changed`): the
    stages whose places hold a changed region read the frame again, the others answer from the last
    reading (a frame that part-reading finds under a hand is read again in full). The regions not
    read again keep the thumbnail they were last read from (:func:`merge_cells`), so a change that
    creeps in over many frames still adds up to one. A reading is reused, in whole or in part, at
    most ``max_reuse`` frames in a row (then the frame is read in full), and only one of a board found.

    ``calibration``: one to start from (e.g. loaded from a file), else found on the first frame.
    ``layouts``: the layouts the board may show when the camera starts (a game's start: the opening
    position in each legal seating, or an empty board; :func:`vision.board.learn.calibrate_known`):
    a first calibration that matches one learns the board's look; one that matches none is kept for
    the geometry alone, ``learn_note`` says why (the points that differ), and the next calibrations
    try again. With a learned look each reading updates it (:func:`vision.reader.read_adapting`):
    the detector keeps the calibration it is given back.
    ``calibrations`` counts the searches made, ``reads`` the frames read (``partial`` of them in part)
    and ``reused`` the frames answered from the last reading; ``change`` is the last frame's
    :func:`region_change` (inf when it was not compared).
    """

    def __init__(self, calibration: Any = None, recheck_every: int = 30, reuse: bool = True,
                 max_reuse: int = MAX_REUSE, layouts: Any = None, what: str = "the known layout") -> None:
        self.calibration = calibration
        self.layouts = list(layouts) if layouts else []
        self.what = what
        self.learn_note: str | None = None
        self._look: Any = getattr(calibration, "appearance", None)  # the learned look, kept over searches
        self.recheck_every = max(1, recheck_every)
        self.reuse = reuse
        self.max_reuse = max(0, max_reuse)
        self.calibrations = 0
        self.reads = 0
        self.reused = 0
        self.change = float("inf")
        self._since_check = 0
        self._thumbs: tuple[Any, BoardThumbnail] | None = None  # (geometry, its thumbnailer)
        # the thumbnail the last reading's places were read from, the reading, and its stages
        self._last: tuple[np.ndarray, BoardReading, Any] | None = None
        self._run = 0  # frames answered from _last (in whole or in part) in a row
        self.partial = 0

    def __call__(self, image: np.ndarray) -> BoardReading:
        from vision.board.calibration import still_valid
        from vision.reader import read_changed

        if self.calibration is not None:
            self._since_check += 1
            if self._since_check >= self.recheck_every:
                self._since_check = 0
                if not still_valid(image, self.calibration):
                    self.calibration = None
        if self.calibration is None:
            self._last = None
            self.calibrations += 1
            self.calibration = self._calibrate(image)
            self._since_check = 0
        thumb = self._thumbnail(image)
        self.change = float("inf")
        cells = None
        if thumb is not None and self._last is not None:
            excess = cell_changes(self._last[0], thumb)
            self.change = float("inf") if excess is None else float(excess.max())
            if self.change < STILL_CHANGE and self._run < self.max_reuse:
                self._run += 1
                self.reused += 1
                return self._last[1]
            if self._run < self.max_reuse and self._last[2] is not None and excess is not None:
                cells = excess >= STILL_CHANGE
        last = None if cells is None or self._last is None else self._last[2]
        changed = None if cells is None or self._thumbs is None else self._thumbs[1].cell_centres(cells)
        reading, calib, stages = read_changed(image, self.calibration, last, changed)
        if stages is not None and stages.in_part and reading.status != FrameStatus.OK:
            # a hand over the board is judged on the whole frame, once
            reading, calib, stages = read_changed(image, self.calibration)
        self.calibration = calib
        if self.calibration is not None and self.calibration.appearance is not None:
            self._look = self.calibration.appearance
        self.reads += 1
        if stages is not None and stages.in_part and cells is not None and thumb is not None and self._last:
            # read in part: the places not read again keep the thumbnail they were read from, so a
            # change that creeps in over many frames still adds up to one
            self.partial += 1
            self._run += 1
            thumb = merge_cells(self._last[0], thumb, cells)
        else:
            self._run = 0
        self._last = (thumb, reading, stages) if thumb is not None and reading.board_found else None
        if not reading.board_found and reading.status == FrameStatus.NO_BOARD:
            self.calibration = None  # the board is not where we thought: search on the next frame
        return reading

    def _calibrate(self, image: np.ndarray) -> Any:
        """The board found in ``image``; with ``layouts``, its look learned when the board shows one
        (else the geometry alone, and ``learn_note`` says which points differ)."""
        from vision.board.calibration import calibrate
        from vision.board.learn import calibrate_known
        from vision.errors import CalibrationError

        if not self.layouts:
            calib = calibrate(image)
            # the look's places are in the rectified field: they hold for the board found again
            return replace(calib, appearance=self._look) if calib is not None and self._look else calib
        try:
            learned = calibrate_known(image, self.layouts, self.what)
        except CalibrationError as exc:
            self.learn_note = str(exc)
            return calibrate(image)
        self.learn_note = None
        self.layouts = []  # learned once: a later search (camera moved) keeps the look it learned
        self._look = learned.calibration.appearance
        return learned.calibration

    def _thumbnail(self, image: np.ndarray) -> np.ndarray | None:
        """This frame's board thumbnail, None when reuse is off or the frame does not fit the
        calibration (no calibration, another image size, not an image)."""
        calib = self.calibration
        if not self.reuse or calib is None or not isinstance(image, np.ndarray) or image.dtype != np.uint8:
            return None
        if image.ndim not in (2, 3) or (image.ndim == 3 and image.shape[2] != 3):
            return None
        if (image.shape[1], image.shape[0]) != tuple(calib.geometry.image_size):
            return None
        if self._thumbs is None or self._thumbs[0] is not calib.geometry:
            # (keyed by the geometry: a learned look gives a new calibration object every frame)
            self._thumbs = (calib.geometry, BoardThumbnail(calib.geometry))
        return self._thumbs[1](image)


def run_pipeline(
    source: FrameSource | Iterable[np.ndarray] | int | str,
    detector: Detector | None = None,
    gate: StabilityGate | GateConfig | None = None,
) -> Iterator[PipelineResult]:
    """Run ``source`` (anything `vision.frames.sources.open_source` accepts) through ``detector`` and the
    stability ``gate`` (a `StabilityGate`, a `GateConfig`, or None for the defaults; an image folder
    of separate photos wants ``GateConfig.for_stills()``).

    Yields one `PipelineResult` per frame until the source ends or is closed. Closes the source it
    opened itself when the iteration ends; a `FrameSource` passed in is left for the caller to close.

    :raises vision.frames.sources.SourceError: when the source cannot be opened.
    """
    own = not isinstance(source, FrameSource)
    src = open_source(source)
    detect = detector or default_detector()
    g = gate if isinstance(gate, StabilityGate) else StabilityGate(gate)
    try:
        for frame in src:
            motion = g.measure(frame.image)
            reading: BoardReading | None = None
            error = None
            if motion.status is None:
                try:
                    reading = detect(frame.image)
                except Exception as exc:  # noqa: BLE001 -- a corrupt frame must not stop the station
                    error = f"{type(exc).__name__}: {exc}".splitlines()[0]
                    reading = BoardReading(board_found=False, status=FrameStatus.NO_BOARD)
            result = g.update(reading)
            yield PipelineResult(
                frame, result.status, reading if error is None else None, result.settled, motion.value, error
            )
    finally:
        if own:
            src.close()
