"""The vision pipeline: frame source -> per-frame detector -> stability gate -> settled readings.

``run_pipeline(source)`` yields one `PipelineResult` per frame: the frame's status (why it gave no
reading: ``moving``, ``too_dark``, ``no_board``, ``occluded``; or ``ok``), its own reading when the
detector ran, and the settled `BoardReading` when this frame completed a still run (DESIGN.md data
flow; STYLE.md 12). A result unpacks as ``status, settled``::

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
from dataclasses import dataclass
from typing import Any

import numpy as np

from vision.reading import BoardReading, FrameStatus
from vision.sources import Frame, FrameSource, open_source
from vision.stability import GateConfig, StabilityGate

__all__ = ["CalibratedDetector", "Detector", "PipelineResult", "default_detector", "run_pipeline"]

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


class CalibratedDetector:
    """A detector for a fixed camera: the board is found once (`vision.calibration.calibrate`) and the
    calibration reused for every frame (`vision.reader.read_board` with it), which skips the board
    search, the slowest stage (see bench/vision.py). Every ``recheck_every`` frames the calibration is
    checked (`vision.calibration.still_valid`); when the camera was moved, or a frame shows no board
    where the calibration says, the board is searched again on the next frame.

    ``calibration``: one to start from (e.g. loaded from a file), else found on the first frame.
    ``calibrations`` counts the searches made (for reports and tests).
    """

    def __init__(self, calibration: Any = None, recheck_every: int = 30) -> None:
        self.calibration = calibration
        self.recheck_every = max(1, recheck_every)
        self.calibrations = 0
        self._since_check = 0

    def __call__(self, image: np.ndarray) -> BoardReading:
        from vision.calibration import calibrate, still_valid
        from vision.reader import read_board

        if self.calibration is not None:
            self._since_check += 1
            if self._since_check >= self.recheck_every:
                self._since_check = 0
                if not still_valid(image, self.calibration):
                    self.calibration = None
        if self.calibration is None:
            self.calibrations += 1
            self.calibration = calibrate(image)
            self._since_check = 0
        reading = read_board(image, self.calibration)
        if not reading.board_found and reading.status == FrameStatus.NO_BOARD:
            self.calibration = None  # the board is not where we thought: search on the next frame
        return reading


def run_pipeline(
    source: FrameSource | Iterable[np.ndarray] | int | str,
    detector: Detector | None = None,
    gate: StabilityGate | GateConfig | None = None,
) -> Iterator[PipelineResult]:
    """Run ``source`` (anything `vision.sources.open_source` accepts) through ``detector`` and the
    stability ``gate`` (a `StabilityGate`, a `GateConfig`, or None for the defaults; an image folder
    of separate photos wants ``GateConfig.for_stills()``).

    Yields one `PipelineResult` per frame until the source ends or is closed. Closes the source it
    opened itself when the iteration ends; a `FrameSource` passed in is left for the caller to close.

    :raises vision.sources.SourceError: when the source cannot be opened.
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
