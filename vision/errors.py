"""Every error vision raises, in one family (STYLE.md 8, after gpiozero's ``exc.py``).

``except VisionError`` catches them all; each also subclasses the builtin it resembles, so a caller
that knows only builtins (``except ValueError``, ``except OSError``) keeps working. Messages quote the
bad input and say what to do next, in one line. Readings that are merely impossible (16 checkers on a
point) are statuses, not errors (STYLE.md 7).
"""

from __future__ import annotations

__all__ = [
    "CalibrationError", "DiceInputError", "GateError", "ImageError", "LayoutMismatch", "ReaderInputError",
    "RenderError",
    "SourceClosed", "SourceError", "SourceSpecError", "VisionError", "WeightsMissingError",
]


class VisionError(Exception):
    """Base of every error raised by vision."""


class SourceError(VisionError, OSError):
    """A frame source cannot be opened or read (the message says which and what to do next)."""


class SourceClosed(SourceError):
    """The source was used after ``close()``."""


class SourceSpecError(SourceError, ValueError):
    """``open_source`` was given something that names no camera, video, folder or frames."""


class ImageError(SourceError, ValueError):
    """An image file or its bytes are missing, empty, cut off or not an image. A `SourceError`, so a
    folder of frames skips such a file; a ``ValueError``, since the input is bad, not a device."""


class CalibrationError(VisionError, ValueError):
    """A calibration file is missing, malformed or for another image size."""


class LayoutMismatch(CalibrationError):
    """The board read at calibration is not in the layout it was said to be in. ``points``: one
    ``(slot, expected, read)`` per disagreeing point, each side a ``(colour, count)``."""

    def __init__(self, message: str,
                 points: tuple[tuple[int, tuple[str | None, int], tuple[str | None, int]], ...] = ()) -> None:
        super().__init__(message)
        self.points = points


class ReaderInputError(VisionError, ValueError):
    """The array given to the board reader is not an image (wrong dtype or shape)."""


class DiceInputError(VisionError, ValueError):
    """The array given to the dice reader cannot be read as a photo (wrong dtype, shape or size)."""


class RenderError(VisionError, ValueError):
    """An impossible board description for the renderer (the message names the bad field and value)."""


class GateError(VisionError, ValueError):
    """The stability gate was set up with impossible settings or fed out of order."""


class WeightsMissingError(VisionError, FileNotFoundError):
    """A learned model's weights file is not where the package keeps it (retrain or reinstall)."""
