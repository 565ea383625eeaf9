"""Photos from the command line: :func:`load_image` with one-line errors, for ``tavla read``, ``tavla
dice`` and ``tavla vision-eval`` alike (one set of checks and messages)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from controller.rules.errors import TavlaError


class ImageLoadError(TavlaError, ValueError):
    """An image file is missing, not an image, or truncated."""


def _complete(data: np.ndarray) -> bool:
    """False for a JPEG without its end marker or a PNG without its IEND chunk (a cut-off file)."""
    raw = data.tobytes()
    if raw[:2] == b"\xff\xd8":
        return b"\xff\xd9" in raw[-64:]
    if raw[:8] == b"\x89PNG\r\n\x1a\n":
        return b"IEND" in raw[-16:]
    return True


def load_image(path: Path) -> np.ndarray:
    """Decode ``path`` to a BGR uint8 array (H, W, 3).

    :raises ImageLoadError: with a one-line reason (missing, empty, truncated, not an image).
    """
    import cv2

    if path.is_dir():
        raise ImageLoadError(f"{path} is a directory: give the path of one JPEG or PNG photo")
    if not path.is_file():
        raise ImageLoadError(f"no image file {path}: give the path of a JPEG or PNG photo")
    data = np.fromfile(str(path), dtype=np.uint8)
    if data.size == 0:
        raise ImageLoadError(f"{path} is empty: give a complete JPEG or PNG photo")
    if not _complete(data):
        raise ImageLoadError(f"{path} is truncated (no end marker): copy the file again")
    frame = cv2.imdecode(data, cv2.IMREAD_COLOR)
    if frame is None:
        raise ImageLoadError(f"cannot decode {path} as an image: check the file is a JPEG or PNG photo")
    return frame
