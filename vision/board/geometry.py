"""Where the board lies in an image: the field's homography to the rectified view (long side
horizontal, DESIGN.md "One coordinate system") and where the 24 points lie in it, in point widths."""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, TypeVar

import cv2
import numpy as np

__all__ = ["BoardGeometry", "POINT_PX", "per_geometry", "point_centres_u", "point_edges_u"]

# Width of one point in the rectified view, pixels: every reader measures in point widths.
POINT_PX = 32


@dataclass(frozen=True)
class BoardGeometry:
    """Where the board lies in an image and where its points are in the rectified view.

    ``homography``: float64 (3, 3), maps input-image pixels ``(x, y, 1)`` to rectified pixels.
    ``size``: rectified (width, height) in pixels; the field spans the whole rectified image, bar
    included; points are ``POINT_PX`` wide. ``columns``: the 12 point centres' x (rectified pixels),
    left to right, shared by the top and bottom rows. ``bar``: the bar's x-extent (rectified) or None.
    ``image_size``: (width, height) of the image the geometry belongs to. ``score``: pattern score.
    """

    homography: np.ndarray
    size: tuple[int, int]
    columns: tuple[float, ...]
    bar: tuple[float, float] | None
    image_size: tuple[int, int]
    score: float
    corners: tuple[tuple[float, float], ...]  # field corners in the image: TL, TR, BR, BL
    # True when the field was found only by completing an outline that something (a hand, an
    # arm) had joined and broken: the reader then reports the frame occluded.
    outline_broken: bool = False

    @property
    def point_w(self) -> float:
        """Width of one point in rectified pixels."""
        return float(POINT_PX)

    @property
    def has_bar(self) -> bool:
        return self.bar is not None

    def to_image(self, xy: np.ndarray) -> np.ndarray:
        """Map rectified points, float (N, 2), to input-image pixels, float (N, 2)."""
        inv = np.linalg.inv(self.homography)
        pts = np.asarray(xy, dtype=np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, inv).reshape(-1, 2)

    def to_rectified(self, xy: np.ndarray) -> np.ndarray:
        """Map input-image pixels, float (N, 2), to rectified pixels, float (N, 2)."""
        pts = np.asarray(xy, dtype=np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def rectify(self, image: np.ndarray) -> np.ndarray:
        """The rectified field, uint8 (size[1], size[0], 3), from an image of ``image_size``."""
        return cv2.warpPerspective(image, self.homography, self.size, flags=cv2.INTER_LINEAR)

    def slot_column(self, slot: int) -> tuple[int, bool]:
        """(column index 0-11 left to right, is top row) of a slot (DESIGN.md slots)."""
        if slot < 12:
            return 11 - slot, False
        return slot - 12, True


def point_edges_u(gap: float) -> np.ndarray:
    """The 12 points' base intervals along a row in unit coordinates, float (12, 2).

    ``gap`` is the bar's share of the field's width (0 for a board without a bar); the two halves
    of six points each share the rest equally.
    """
    half = 0.5 * (1.0 - gap)
    i = np.arange(6, dtype=np.float64)
    left = np.stack([half * i / 6, half * (i + 1) / 6], axis=1)
    return np.concatenate([left, left + (1.0 - half)])


def point_centres_u(gap: float) -> np.ndarray:
    """The 12 point centres along a row in unit coordinates, float (12,)."""
    return point_edges_u(gap).mean(axis=1)


_R = TypeVar("_R")


class _ByValue:
    """A geometry hashed and compared by its values (its homography's bytes, sizes, columns, bar and
    corners): two calibrations' equal geometries are one cache entry, an array's identity is none."""

    __slots__ = ("geom", "key")

    def __init__(self, geom: BoardGeometry) -> None:
        self.geom = geom
        self.key = (np.asarray(geom.homography, np.float64).tobytes(), tuple(geom.size),
                    tuple(geom.columns), geom.bar, tuple(geom.image_size), tuple(geom.corners))

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _ByValue) and self.key == other.key


def per_geometry(maxsize: int = 8) -> Callable[[Callable[..., _R]], Callable[..., _R]]:
    """Decorator: ``fn(geom, *args)`` (``args`` hashable) made once per geometry's values and
    ``args``, for the last ``maxsize`` of them (a calibrated camera's frames share one geometry:
    what depends on it alone need not be made per frame). The results are shared: read only."""

    def wrap(fn: Callable[..., _R]) -> Callable[..., _R]:
        @functools.lru_cache(maxsize=maxsize)
        def by_value(geom: _ByValue, *args: Hashable) -> _R:
            return fn(geom.geom, *args)

        @functools.wraps(fn)
        def cached(geom: BoardGeometry, *args: Any) -> _R:
            return by_value(_ByValue(geom), *args)

        return cached

    return wrap
