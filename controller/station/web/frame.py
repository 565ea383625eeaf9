"""The camera's last frame for the page, with the reader's overlay drawn on it: each point's centre
as read, its count and confidence, unsure points in red, each die's value and status.

The frame sources call a :class:`FrameTap` with (image, reading) on their own thread; it encodes at
most ``per_second`` frames a second as JPEG (a camera gives 30, the page needs a glance) and keeps the
newest for ``GET /api/frame.jpg``.
"""

from __future__ import annotations

import threading
import time
from typing import Any

UNSURE = 0.5  # a point read less surely than this is marked: the referee weighs it as less reliable
_GREEN, _RED, _WHITE, _BLACK = (80, 220, 80), (60, 60, 255), (255, 255, 255), (0, 0, 0)


def overlay(image: Any, reading: Any) -> Any:
    """A copy of ``image`` (BGR) with the reading drawn on it."""
    import cv2

    out = image.copy()
    font = cv2.FONT_HERSHEY_SIMPLEX
    for p in getattr(reading, "points", ()):
        if p.image_xy is None:
            continue
        x, y = int(p.image_xy[0]), int(p.image_xy[1])
        unsure = p.confidence < UNSURE
        colour = _RED if unsure else _GREEN
        cv2.circle(out, (x, y), 7 if unsure else 4, colour, 2 if unsure else -1)
        letter = {"light": "L", "dark": "D"}.get(p.colour or "", "")
        label = f"{p.count}{letter} {p.confidence:.2f}"
        cv2.putText(out, label, (x + 6, y - 6), font, 0.4, _BLACK, 3, cv2.LINE_AA)
        cv2.putText(out, label, (x + 6, y - 6), font, 0.4, colour if unsure else _WHITE, 1, cv2.LINE_AA)
    for d in getattr(reading, "dice", ()):
        if d.image_xy is None:
            continue
        x, y = int(d.image_xy[0]), int(d.image_xy[1])
        cv2.rectangle(out, (x - 14, y - 14), (x + 14, y + 14), (0, 200, 255), 2)
        status = getattr(d.status, "value", d.status)
        label = f"{d.value or '?'} {status}"
        cv2.putText(out, label, (x - 14, y + 28), font, 0.45, (0, 200, 255), 1, cv2.LINE_AA)
    return out


class FrameTap:
    """Keeps the newest overlaid frame as JPEG bytes (any thread); ``latest`` is None until one came."""

    def __init__(self, per_second: float = 2.0, quality: int = 75) -> None:
        self.gap = 1.0 / per_second
        self.quality = quality
        self.latest: bytes | None = None
        self._last = 0.0
        self._lock = threading.Lock()

    def __call__(self, image: Any, reading: Any) -> None:
        now = time.monotonic()
        with self._lock:
            if now - self._last < self.gap:
                return
            self._last = now
        import cv2

        try:
            ok, jpeg = cv2.imencode(".jpg", overlay(image, reading), [cv2.IMWRITE_JPEG_QUALITY, self.quality])
        except Exception:  # a frame that cannot be drawn must not stop its source; the last one stays
            return
        if ok:
            self.latest = jpeg.tobytes()
