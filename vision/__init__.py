"""Camera side of Tavla: frame sources, calibration, checker / dice / cube detectors, stability gate.

Knows nothing of the rules, the controller or the LED link (import-linter contract, DESIGN.md).
Frames are numpy ``uint8`` arrays of shape ``(H, W, 3)`` in OpenCV's BGR order.

Sub-packages, one job each: ``frames`` (sources, image files, stability gate, pipeline), ``board``
(finding the field, calibration, the frame's shared field view), ``checkers`` (stacks, bar, trays,
hands), ``dice``, ``cube``, ``render`` (synthetic frames) and ``eval`` (scoring against labels).
``reader`` composes them into one reading (``reading``, pure data); ``errors`` is the one exception
family.

The entry points are importable from here (DESIGN.md "Contracts")::

    import vision
    calib = vision.calibrate(frame)          # None when no board is found
    reading = vision.read_board(frame, calib)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vision.errors import VisionError

if TYPE_CHECKING:
    from vision.board.calibration import calibrate
    from vision.frames.images import load_image
    from vision.reader import read_board

__all__ = ["VisionError", "calibrate", "load_image", "read_board"]


def __getattr__(name: str) -> Any:
    """The entry points, imported on first use: ``import vision.reading`` (all the controller needs to
    hold a reading) then loads no detector, and ``tavla --help`` no OpenCV stage."""
    if name == "read_board":
        from vision.reader import read_board

        return read_board
    if name == "calibrate":
        from vision.board.calibration import calibrate

        return calibrate
    if name == "load_image":
        from vision.frames.images import load_image

        return load_image
    raise AttributeError(f"module 'vision' has no attribute {name!r}")
