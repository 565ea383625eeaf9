"""How much a frame changed: the small grey thumbnails the stability gate and the still-camera reuse
path compare, and the change measures they use (brightness and contrast matched first, so a light's
flicker or the camera's auto-exposure is not motion)."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

__all__ = ["BoardThumbnail", "STILL_CHANGE", "cell_changes", "changed_cells", "frame_change", "merge_cells",
           "region_change", "thumbnail"]


def thumbnail(image: np.ndarray, width: int = 160) -> np.ndarray:
    """A small grey float32 copy of a BGR (H, W, 3) or grey (H, W) uint8 image, ``width`` pixels wide
    (area-averaged, so sensor noise mostly cancels), lightly blurred."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape[:2]
    tw = max(8, min(width, w))
    th = max(8, round(h * tw / w))
    small = cv2.resize(grey, (tw, th), interpolation=cv2.INTER_AREA).astype(np.float32)
    return cv2.GaussianBlur(small, (3, 3), 0)


def frame_change(a: np.ndarray, b: np.ndarray, pixel_threshold: float) -> tuple[float, int]:
    """Mean absolute difference of two thumbnails after matching their brightness and contrast, in
    grey levels, and how many pixels differ by more than ``pixel_threshold``: a camera's
    auto-exposure or a cloud changes every pixel alike and is not motion; a hand, a die or a bumped
    camera changes some pixels and not others."""
    ma, sa = cv2.meanStdDev(a)
    mb, sb = cv2.meanStdDev(b)
    sa_, sb_ = float(sa[0, 0]) or 1.0, float(sb[0, 0]) or 1.0
    scale = (sa_ + sb_) / 2
    za = (a - float(ma[0, 0])) * (scale / sa_)
    zb = (b - float(mb[0, 0])) * (scale / sb_)
    diff = cv2.absdiff(za, zb)
    return float(diff.mean()), int(cv2.countNonZero((diff > pixel_threshold).astype(np.uint8)))


# The reuse path of a still camera (issue 4 "Speed"): the board's thumbnail through the calibration,
# _THUMB_PX px per point width, reaching _REACH_ENDS point widths past the field's ends (the trays and
# the cube beside them: vision.cube.finder looks 3 out) and _REACH_SIDES above and below (dice and checkers on
# the frame), compared with the last read frame's in regions of _CELL x _CELL thumbnail pixels (a
# quarter point: a die's face is 0.3-0.7 point widths across, a checker 0.85).
_THUMB_PX = 16
_CELL = 4
_REACH_ENDS = 3.0
_REACH_SIDES = 0.8
# A frame has changed when some region's mean absolute grey difference to the last read frame's
# (brightness and contrast matched), less the median region's (the sensor noise every region shows),
# reaches STILL_CHANGE grey levels (see region_change). Measured (tests/vision/frames/test_pipeline.py):
# * still: the boards-webcam photos that show one scene twice (14 pairs of 480x360 frames, identical
#   labels, taken apart) give 1.4-2.7 (one more, 6.2: something moved on the table beyond the frame's
#   top edge); renders of one scene with fresh sensor noise (sigma 3) and JPEG
#   (quality 85) give 0.6-0.9 at 1280x720 and 1.0-4.4 at 640x360; with a 4 % gain and +2 offset on top
#   (a light's flicker, clipped at white) at most 4.3;
# * changed: every boards-webcam pair of one game whose labels differ, 23.7 at least (218 pairs); in
#   renders one checker moved gives 81-197, one die turned to its next face in place 14.5-58.
# STILL_CHANGE lies about midway (by ratio) between 4.4 and 14.5.
STILL_CHANGE = 8.0


class BoardThumbnail:
    """The board's thumbnail through a calibration: grey float32 (H, W), the rectified field and its
    surroundings (:data:`_REACH_ENDS`, :data:`_REACH_SIDES`) at :data:`_THUMB_PX` px per point width.

    The frame is first shrunk by an integer factor (area average: the sensor noise of the pixels that
    make one thumbnail pixel mostly cancels), then warped by the calibration's homography. ~0.5 ms for
    a 1280x720 frame on one core. ``geom``: a :class:`vision.board.geometry.BoardGeometry`.
    """

    def __init__(self, geom: Any) -> None:
        from vision.board.geometry import POINT_PX

        w, h = geom.size
        k = _THUMB_PX / POINT_PX
        mx, my = _REACH_ENDS * POINT_PX, _REACH_SIDES * POINT_PX
        tw, th = int(round(k * (w + 2 * mx))), int(round(k * (h + 2 * my)))
        self.size = (tw - tw % _CELL, th - th % _CELL)
        # input pixels per thumbnail pixel along the field's long side: shrink by about that first
        corners = geom.to_image(np.array([[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]], np.float64))
        across = 0.5 * (np.linalg.norm(corners[1] - corners[0]) + np.linalg.norm(corners[2] - corners[3]))
        self.shrink = max(1, int(across / (k * w)))
        down = np.diag([1.0 / self.shrink, 1.0 / self.shrink, 1.0])
        # (a pixel's centre moves with the shrink: x_small = (x + 0.5) / s - 0.5)
        down[:2, 2] = 0.5 / self.shrink - 0.5
        to_thumb = np.array([[k, 0.0, k * mx], [0.0, k, k * my], [0.0, 0.0, 1.0]])
        self.homography = to_thumb @ geom.homography @ np.linalg.inv(down)
        self.image_size = tuple(geom.image_size)
        self._k, self._margin = k, (mx, my)

    def cell_centres(self, cells: np.ndarray) -> np.ndarray:
        """Where regions of :func:`changed_cells` lie in the rectified field: the centres of the
        regions ``cells`` (a bool (H // _CELL, W // _CELL) map) in rectified pixels, float (N, 2) x, y
        (beyond the field's own ``geom.size`` for the regions round it)."""
        rows, cols = np.nonzero(cells)
        xs = (cols + 0.5) * _CELL / self._k - self._margin[0]
        ys = (rows + 0.5) * _CELL / self._k - self._margin[1]
        return np.stack([xs, ys], axis=1).astype(np.float64)

    def __call__(self, image: np.ndarray) -> np.ndarray:
        """The thumbnail of a BGR (H, W, 3) or grey (H, W) uint8 frame of the calibration's size."""
        grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        if self.shrink > 1:
            h, w = grey.shape[:2]
            grey = cv2.resize(grey[: h - h % self.shrink, : w - w % self.shrink],
                              (w // self.shrink, h // self.shrink), interpolation=cv2.INTER_AREA)
        thumb = cv2.warpPerspective(grey, self.homography, self.size, flags=cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_REPLICATE)
        return thumb.astype(np.float32)


def _cell_diff(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Mean absolute grey difference per region of :data:`_CELL` x :data:`_CELL` pixels, brightness
    and contrast matched first (see :func:`region_change`)."""
    ma, sa = cv2.meanStdDev(a)
    mb, sb = cv2.meanStdDev(b)
    sa_, sb_ = float(sa[0, 0]) or 1.0, float(sb[0, 0]) or 1.0
    zb = (b - float(mb[0, 0])) * (sa_ / sb_) + float(ma[0, 0])
    diff = cv2.absdiff(a, zb)
    h, w = diff.shape
    return cv2.resize(diff, (w // _CELL, h // _CELL), interpolation=cv2.INTER_AREA)


def cell_changes(a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """How much each region of two board thumbnails changed: float32 (H // _CELL, W // _CELL), the
    region's difference less the median region's (its largest is :func:`region_change`); None when
    the shapes differ."""
    if a.shape != b.shape:
        return None
    cells = _cell_diff(a, b)
    return np.asarray(cells - np.median(cells))


def changed_cells(a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """Which regions of two board thumbnails changed: bool (H // _CELL, W // _CELL), True where
    :func:`cell_changes` reaches :data:`STILL_CHANGE` (the test of :func:`region_change`, region by
    region); None when the shapes differ."""
    excess = cell_changes(a, b)
    return None if excess is None else np.asarray(excess >= STILL_CHANGE)


def merge_cells(a: np.ndarray, b: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """Thumbnail ``a`` with the regions ``cells`` (as from :func:`changed_cells`) taken from ``b``."""
    out = a.copy()
    # (region by region: a changed frame changes few of them, and np.kron of the whole map costs more)
    for row, col in zip(*np.nonzero(cells), strict=True):
        at = np.s_[row * _CELL : (row + 1) * _CELL, col * _CELL : (col + 1) * _CELL]
        out[at] = b[at]
    return out


def region_change(a: np.ndarray, b: np.ndarray) -> float:
    """How much the most changed region of two board thumbnails (:class:`BoardThumbnail`) changed: the
    largest mean absolute grey difference over regions of :data:`_CELL` x :data:`_CELL` pixels less the
    median region's (the noise floor every region shows alike), after matching brightness and
    contrast (a light's flicker or the camera's auto-exposure changes every pixel alike and moves
    nothing). Grey levels 0-255; inf when the shapes differ."""
    if a.shape != b.shape:
        return float("inf")
    cells = _cell_diff(a, b)
    return float(cells.max() - np.median(cells))
