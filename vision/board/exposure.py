"""Undo an under-exposed camera's gain, so that the readers' absolute thresholds hold in a dim room;
and tell an over-exposed field, whose clipped pixels no gain brings back."""

from __future__ import annotations

import cv2
import numpy as np

from vision.board.geometry import BoardGeometry, per_geometry

__all__ = ["FIELD_EXPOSED", "FRAME_EXPOSED", "blown_out", "clipped_share", "normalise_exposure"]

# The bright reference (95th percentile of the grey level) that the absolute thresholds (gradient
# strength, Lab distances, pattern contrast) were measured at: the labelled webcam frames sit at
# 137-151 (whole frame) and 143-155 (rectified field), the photos of wooden boards at 170-250.
FRAME_EXPOSED = 135.0
FIELD_EXPOSED = 150.0
# A field is never brightened more than this (noise would pass for edges).
_MAX_GAIN = 4.0
# A channel value at or above this is clipped: the sensor's ceiling, less a JPEG's ringing about it.
_CLIPPED = 250
# A field with at least this share of its pixels clipped in a channel is blown out: its checkers'
# and points' colours are lost there, and no reading of it is to be trusted.
_BLOWN = 1 / 3
# The field is sampled on a grid of this many points a point's width (rectified) for the clipped share.
_SAMPLES_PER_POINT = 4


def normalise_exposure(rectified: np.ndarray, level: float = FIELD_EXPOSED) -> np.ndarray:
    """The rectified field (or a whole frame) with an under-exposed camera's gain undone: uint8
    (H, W, 3) like the input.

    Under-exposure scales every pixel value by about the same factor (a camera's gain, a dim room,
    and the sRGB curve is a power law, so a gain in light is a gain in pixel values), and with them
    every gradient and colour distance the readers measure. The image's own bright reference, the
    95th percentile of its grey level, is brought up to ``level`` (``FIELD_EXPOSED`` for a rectified
    field, ``FRAME_EXPOSED`` for a whole frame, whose background is darker) by one gain common to
    the three channels (hue and white balance unchanged), at most ``_MAX_GAIN``. An image already as
    bright or brighter is returned as is: brighter frames only have clearer edges (and clip).
    """
    # (the grey level of the pixels sampled only: the same values as sampling a full grey image)
    sample = rectified[::2, ::2]
    if sample.ndim == 3 and sample.shape[2] == 3 and sample.dtype == np.uint8:
        # the channels' exact integer sum over 3: the values of sample.mean(axis=2), several times
        # faster on the strided sample
        grey = (sample[..., 0].astype(np.uint16) + sample[..., 1] + sample[..., 2]) / 3.0
    else:
        grey = sample.mean(axis=2) if sample.ndim == 3 else sample
    ref = float(np.percentile(grey, 95))
    if ref >= level or ref <= 0:
        return rectified
    gain = min(_MAX_GAIN, level / ref)
    return cv2.convertScaleAbs(rectified, alpha=gain)


def clipped_share(pixels: np.ndarray) -> float:
    """The share (0-1) of ``pixels`` (uint8, (..., 3) BGR or grey) with a channel clipped at the
    sensor's ceiling."""
    if pixels.size == 0:
        return 0.0
    if pixels.ndim >= 2 and pixels.shape[-1] == 3:
        # (the channels' maximum as two element-wise ones: numpy reduces an axis of three pixel by
        # pixel, several times slower)
        top = np.maximum(np.maximum(pixels[..., 0], pixels[..., 1]), pixels[..., 2])
    else:
        top = pixels
    return float(np.count_nonzero(top >= _CLIPPED)) / float(top.size)


def blown_out(image: np.ndarray, geom: BoardGeometry) -> bool:
    """True when the field of ``image`` (BGR uint8, the frame ``geom`` was found in, as the camera
    gave it) is over-exposed past reading: at least ``_BLOWN`` of it clipped (:func:`clipped_share`),
    sampled on a grid of the rectified field mapped into the frame (no warp). A bright but unclipped
    field keeps its colours and is read; an under-exposed one is brightened
    (:func:`normalise_exposure`)."""
    ys, xs = _field_samples(geom, image.shape[:2])
    return clipped_share(image[ys, xs]) >= _BLOWN


@per_geometry()
def _field_samples(geom: BoardGeometry, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The frame pixels (rows, columns: int arrays) of :func:`blown_out`'s grid over ``geom``'s field
    inside a frame of ``shape`` (H, W), made once per geometry and frame size."""
    w, h = geom.size
    step = geom.point_w / _SAMPLES_PER_POINT
    xs, ys = np.meshgrid(np.arange(0.5 * step, w, step), np.arange(0.5 * step, h, step))
    at = np.round(geom.to_image(np.stack([xs.ravel(), ys.ravel()], axis=1))).astype(np.intp)
    ih, iw = shape
    inside = (at[:, 0] >= 0) & (at[:, 0] < iw) & (at[:, 1] >= 0) & (at[:, 1] < ih)
    at = at[inside]
    at.setflags(write=False)  # (shared by every frame of the geometry)
    return at[:, 1], at[:, 0]
