"""Undo an under-exposed camera's gain, so that the readers' absolute thresholds hold in a dim room."""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["FIELD_EXPOSED", "FRAME_EXPOSED", "normalise_exposure"]

# The bright reference (95th percentile of the grey level) that the absolute thresholds (gradient
# strength, Lab distances, pattern contrast) were measured at: the labelled webcam frames sit at
# 137-151 (whole frame) and 143-155 (rectified field), the photos of wooden boards at 170-250.
FRAME_EXPOSED = 135.0
FIELD_EXPOSED = 150.0
# A field is never brightened more than this (noise would pass for edges).
_MAX_GAIN = 4.0


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
