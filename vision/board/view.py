"""One frame's rectified field, made once and shared by every stage that reads the field.

Before, each stage warped and colour-converted its own copy of the same field (the stacks, the bar
and the hand test each ran the warp, the exposure gain, the blur, the Lab conversion and the colour
gradient again). A :class:`FieldView` is made per frame by the reader and passed to the stages;
each derived image is computed on first use and kept for the others.
"""

from __future__ import annotations

from functools import cached_property

import cv2
import numpy as np

from vision.board.exposure import normalise_exposure
from vision.board.geometry import BoardGeometry

__all__ = ["FieldView", "colour_gradient"]


def colour_gradient(lab: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The colour gradient as one vector per pixel: float32 (H, W) x and y components.

    Di Zenzo's colour gradient ("A note on the gradient of a multi-image", CVGIP 1986): the direction
    and strength of the largest change of the Lab colour, from the 2x2 structure tensor of the three
    channels' Sobel gradients. A red disc on a grey point of the same lightness still has an edge.
    """
    gx = [cv2.Sobel(lab[:, :, c], cv2.CV_32F, 1, 0, ksize=3) for c in range(3)]
    gy = [cv2.Sobel(lab[:, :, c], cv2.CV_32F, 0, 1, ksize=3) for c in range(3)]
    jxx = sum(g * g for g in gx)
    jyy = sum(g * g for g in gy)
    jxy = sum(a * b for a, b in zip(gx, gy, strict=True))
    lam = 0.5 * (jxx + jyy + np.sqrt((jxx - jyy) ** 2 + 4.0 * jxy * jxy))
    theta = 0.5 * np.arctan2(2.0 * jxy, jxx - jyy)
    mag = np.sqrt(lam)
    return (mag * np.cos(theta)).astype(np.float32), (mag * np.sin(theta)).astype(np.float32)


class FieldView:
    """The rectified field of one frame (``rect``, BGR uint8 of ``geom.size``) and what the readers
    derive from it, each made once: ``exposed`` (an under-exposed camera's gain undone,
    :func:`normalise_exposure`), ``lab`` (``exposed`` blurred 3x3, Lab float32) and ``gradients``
    (:func:`colour_gradient` of ``lab``). ``image``: the input frame, when the view was made from one.

    A per-frame context, not a value: it is read-only for the stages and dropped after the frame.
    """

    def __init__(self, rect: np.ndarray, geom: BoardGeometry, image: np.ndarray | None = None) -> None:
        self.rect = rect
        self.geom = geom
        self.image = image

    @classmethod
    def of_frame(cls, image: np.ndarray, geom: BoardGeometry) -> FieldView:
        """The view of ``image`` (BGR uint8 of ``geom.image_size``): the one warp of the frame's field."""
        return cls(geom.rectify(image), geom, image)

    @classmethod
    def of(cls, field: np.ndarray | FieldView, geom: BoardGeometry) -> FieldView:
        """``field`` itself when it is a view, else a view of the rectified array ``field``."""
        return field if isinstance(field, FieldView) else cls(field, geom)

    @cached_property
    def exposed(self) -> np.ndarray:
        return normalise_exposure(self.rect)

    @cached_property
    def lab(self) -> np.ndarray:
        return cv2.cvtColor(cv2.GaussianBlur(self.exposed, (3, 3), 0), cv2.COLOR_BGR2LAB).astype(np.float32)

    @cached_property
    def gradients(self) -> tuple[np.ndarray, np.ndarray]:
        return colour_gradient(self.lab)
