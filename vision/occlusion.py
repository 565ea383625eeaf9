"""Is something (a hand, an arm, a cup) over the playing area? Say so rather than guess.

Two kinds of evidence, both measured in point widths of the rectified field:

* **skin**: pixels in the skin-tone range of the YCrCb chroma plane (Chai & Ngan, "Face segmentation
  using skin-color map in videophone applications", IEEE TCSVT 1999: Cr 133-173, Cb 77-127), in a
  blob larger than a few checkers, whose chroma is not that of a flat checker (checkers are uniform
  discs; a hand is a large irregular region);
* **not a stack**: a connected region differing from the bare board that is far wider than a point
  (stacks are one point wide).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.board import POINT_PX, BoardGeometry

__all__ = ["find_occlusion"]

# A skin blob covering more than this many checker areas over the field is a hand.
_SKIN_CHECKERS = 2.0


def skin_mask(bgr: np.ndarray) -> np.ndarray:
    """uint8 mask (H, W), 255 where the chroma is in the skin-tone box (see module docstring)."""
    ycc = cv2.cvtColor(bgr, cv2.COLOR_BGR2YCrCb)
    y, cr, cb = ycc[:, :, 0], ycc[:, :, 1], ycc[:, :, 2]
    mask = (cr >= 133) & (cr <= 173) & (cb >= 77) & (cb <= 127) & (y > 60)
    return mask.astype(np.uint8) * 255


def find_occlusion(image: np.ndarray, rectified: np.ndarray, geom: BoardGeometry) -> bool:
    """True when a hand or arm covers part of the rectified field (BGR uint8, ``geom.size``)."""
    mask = skin_mask(rectified)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    checker_area = np.pi * (0.47 * POINT_PX) ** 2
    for i in range(1, n):
        area = stats[i, cv2.CC_STAT_AREA]
        if area < _SKIN_CHECKERS * checker_area:
            continue
        # a stack of red checkers can be skin-toned: it is one point wide and its discs are flat
        bw = stats[i, cv2.CC_STAT_WIDTH]
        if bw <= 1.3 * POINT_PX:
            continue
        blob = rectified[labels == i]
        if float(blob.std(axis=0).mean()) < 6.0:
            continue
        return True
    return False
