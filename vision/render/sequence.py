"""Sequences of rendered frames, as a camera over a game would see them: each position held still for
a few frames (differing only by sensor noise), a hand moving over the board between positions.

Feeds the demo of ``tavla run`` and the stability-gate and pipeline tests (`vision.render.scene`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from vision.reading import BoardReading
from vision.render.scene import BoardSpec, Camera, render

__all__ = ["SequenceFrame", "game_frames"]


@dataclass(frozen=True)
class SequenceFrame:
    """One frame of a sequence: ``image`` uint8 (H, W, 3) BGR, its ground ``truth``, ``phase``
    (``"still"`` or ``"hand"``) and ``position``, the index of the spec it shows."""

    image: np.ndarray
    truth: BoardReading
    phase: str
    position: int


def game_frames(
    specs: Sequence[BoardSpec],
    *,
    still: int = 6,
    hand: int = 3,
    size: tuple[int, int] = (1280, 720),
    view: str = "perspective",
    camera: Camera | None = None,
    seed: int = 0,
    noise: float = 2.5,
    lighting: float = 0.3,
    blur: float = 0.0,
) -> Iterator[SequenceFrame]:
    """Frames for ``specs`` in order: before every position but the first, ``hand`` frames of a hand
    moving over the new position (occluded), then ``still`` frames of it undisturbed.

    One camera (``camera``, or a random one from ``seed``) and one lighting for the whole sequence, as
    with a camera on a stand. ``size`` (width, height) pixels; the other arguments as `render`.

    :raises vision.render.scene.RenderError: for an impossible spec.
    """
    cam = camera if camera is not None else Camera.random(np.random.default_rng(seed))
    frame_no = 0
    for pos, spec in enumerate(specs):
        phases = (["hand"] * hand if pos else []) + ["still"] * still
        for phase in phases:
            r = render(
                spec, size=size, view=view, camera=cam, seed=seed, lighting=lighting, noise=noise,
                blur=blur, occluder="hand" if phase == "hand" else None, noise_seed=seed * 7919 + frame_no,
                hand_seed=seed * 104729 + frame_no,
            )
            yield SequenceFrame(r.image, r.truth, phase, pos)
            frame_no += 1
