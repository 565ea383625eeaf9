"""A real camera (opt-in: ``TAVLA_HARDWARE=1 pytest -m hardware``; camera index or device path from
``TAVLA_CAMERA``, default 0; ``picamera`` for a Raspberry Pi camera module). STYLE.md 9: the same code
paths as the fake-capture tests in test_sources.py, with the device."""

from __future__ import annotations

import os

import pytest

from vision.frames.sources import open_source

pytestmark = [
    pytest.mark.hardware,
    pytest.mark.skipif(os.environ.get("TAVLA_HARDWARE") != "1", reason="TAVLA_HARDWARE=1 uses a camera"),
]


def test_real_camera_gives_newest_frames() -> None:
    spec = os.environ.get("TAVLA_CAMERA", "0")
    with open_source(spec, size=(1280, 720), fps=30) as cam:
        frames = [cam.read(timeout=5) for _ in range(5)]
    assert all(f is not None for f in frames)
    assert [f.index for f in frames] == sorted({f.index for f in frames})
    assert all(f.image.ndim == 3 and f.image.shape[2] == 3 for f in frames)
