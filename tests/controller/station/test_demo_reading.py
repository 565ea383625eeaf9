"""The demo plays on what the reader reads (issue 14, "Demo"): every rendered frame of its game is read
exactly, so :func:`controller.station.session.demo_events` never falls back to the renderer's ground
truth. A reading takes about a second a frame, so the whole games run in ``make slow``; the frames
that once failed are read in the default run (tests/vision/test_render_reader.py)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from controller.station.session import demo_events

pytest.importorskip("cv2")

_FALLBACK = "using the renderer's ground truth"


def _fallbacks(variant: str) -> list[str]:
    """The demo's own notes (one a line) on the frames where the reader and the truth differ."""
    out = io.StringIO()
    console = Console(file=out, width=200)
    events = list(demo_events(console, turns=6, variant=variant))
    assert events, "the demo yielded no frame"
    return [line for line in out.getvalue().splitlines() if _FALLBACK in line or "reader failed" in line]


@pytest.mark.slow
def test_the_backgammon_demo_reads_every_frame_itself() -> None:
    assert _fallbacks("backgammon") == []


@pytest.mark.slow
def test_the_nardy_demo_reads_every_frame_itself() -> None:
    assert _fallbacks("nardy") == []
