"""The one pip detector of both dice readers: the scale-normalised determinant of the Hessian.

For a round blob (a pip) both Hessian eigenvalues share a sign in every channel where the pip differs
from the face, whatever the colours, so ``det`` is large; along an edge one eigenvalue vanishes
(``det`` ~ 0), at a saddle it is negative. Scale-normalised (sigma^2 * sqrt(det)) so the value reads
as a colour contrast in the image's units. Source: Lindeberg, "Feature detection with automatic
scale selection" (1998), determinant-of-Hessian blob detector.

:mod:`vision.dice.faces` (a die's crop in a photo) sums it over the three Lab channels, chroma
weighted (:data:`PHOTO_WEIGHTS`): the photo reader does not know the dice's colours. The board reader
(:mod:`vision.dice.on_board`) reads the lightness alone (:data:`BOARD_WEIGHTS`): a field's grain and
print differ in chroma far more than its dice's pips, and the lightness's Hessian gives each blob's
polarity and roundness.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.arrays import nonzero2d, scratch

__all__ = ["BOARD_WEIGHTS", "PHOTO_WEIGHTS", "BlobMap", "blob_map", "peaks", "roundness"]

# Chroma (a, b) differences count this many times a lightness difference in a photo: texture of
# marbled and translucent dice is mostly in lightness, coloured pips differ in chroma too.
_CHROMA = 2.5
PHOTO_WEIGHTS = (1.0, _CHROMA**2, _CHROMA**2)
BOARD_WEIGHTS = (1.0,)


@dataclass(frozen=True)
class BlobMap:
    """:func:`blob_map`'s result, float32 (H, W): ``strength`` (scale-normalised sqrt of the weighted
    sum of each channel's positive det), ``dxx``, ``dyy``, ``dxy`` (the first channel's Hessian,
    scaled by sigma squared: its sign tells a dark blob from a light one) and ``smoothed`` (the
    image at the blob scale, (H, W) or (H, W, C))."""

    strength: np.ndarray
    dxx: np.ndarray
    dyy: np.ndarray
    dxy: np.ndarray
    smoothed: np.ndarray


def blob_map(image: np.ndarray, sigma: float, weights: Sequence[float] = BOARD_WEIGHTS,
             slot: str | None = None, root: bool = True) -> BlobMap:
    """The blob measure of a float32 image (H, W) or (H, W, C) at scale ``sigma`` px, its channels
    weighted by ``weights`` (one per channel; the first channel's Hessian is kept).

    ``slot``: the arrays are this slot's scratch space (:mod:`vision.arrays`), valid until the next
    call with that slot on this thread; None = fresh arrays. ``root`` False: ``strength`` is left
    squared (the weighted sum of the positive dets, before its root), for a caller taking the
    strongest of several scales first (the root is monotonic: the root of the largest square is
    the largest root, bit for bit)."""
    shape = image.shape[:2]
    channels = 1 if image.ndim == 2 else image.shape[2]
    if len(weights) != channels:
        raise ValueError(f"blob_map: {len(weights)} weights for {channels} channels")
    s2 = sigma * sigma

    def buf(name: str) -> np.ndarray | None:
        return None if slot is None else scratch(f"dice.blobs.{slot}.{name}", shape)

    smoothed = cv2.GaussianBlur(image, (0, 0), sigma,
                                dst=None if slot is None or channels > 1 else buf("g"))
    planes = [smoothed] if channels == 1 else cv2.split(smoothed)
    total: np.ndarray | None = None
    first: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
    for plane, wt in zip(planes, weights, strict=True):
        own = first is None  # the first channel's arrays are kept: scratch space when asked
        dxx = cv2.Sobel(plane, cv2.CV_32F, 2, 0, dst=buf("dxx") if own else None, ksize=3, scale=s2)
        dyy = cv2.Sobel(plane, cv2.CV_32F, 0, 2, dst=buf("dyy") if own else None, ksize=3, scale=s2)
        dxy = cv2.Sobel(plane, cv2.CV_32F, 1, 1, dst=buf("dxy") if own else None, ksize=3, scale=s2)
        det = cv2.multiply(dxx, dyy, dst=buf("det") if own else None)
        cv2.subtract(det, cv2.multiply(dxy, dxy, dst=buf("sq") if own else None), dst=det)
        cv2.threshold(det, 0.0, 0.0, cv2.THRESH_TOZERO, dst=det)
        if wt != 1.0:
            np.multiply(det, wt, out=det)
        if total is None:
            first, total = (dxx, dyy, dxy), det
        else:
            total += det
    assert first is not None and total is not None
    strength = cv2.sqrt(total, dst=buf("strength")) if root else total
    return BlobMap(strength, *first, smoothed)


def roundness(dxx: np.ndarray, dyy: np.ndarray, dxy: np.ndarray) -> np.ndarray:
    """The Hessian's eigenvalue ratio (0-1) at blobs: 1 for a round dot, low for a line's end or a
    triangle's tip. Arrays of the Hessian's entries at the blobs, any shape."""
    a, b, c = dxx, dyy, dxy
    root = np.sqrt((a - b) ** 2 + 4 * c * c)
    return np.asarray(np.maximum(0.0, np.abs(a + b) - root) / np.maximum(np.abs(a + b) + root, 1e-6))


def peaks(strength: np.ndarray, window: int, floor: float, where: np.ndarray | None = None,
          slot: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(ys, xs) of the local maxima of ``strength`` over a ``window`` x ``window`` square above
    ``floor``, where ``where`` (bool, optional) is True; ``slot`` as :func:`blob_map`'s."""
    shape = strength.shape

    def buf(name: str, dtype: type = np.float32) -> np.ndarray | None:
        return None if slot is None else scratch(f"dice.peaks.{slot}.{name}", shape, dtype)

    dilated = cv2.dilate(strength, np.ones((window, window), np.uint8), dst=buf("dilated"))
    top = np.greater_equal(strength, dilated, out=buf("top", np.bool_))
    top &= np.greater(strength, floor, out=buf("strong", np.bool_))
    if where is not None:
        top &= where
    return nonzero2d(top)

