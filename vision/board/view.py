"""One frame's rectified field, made once and shared by every stage that reads the field.

Before, each stage warped and colour-converted its own copy of the same field (the stacks, the bar
and the hand test each ran the warp, the exposure gain, the blur, the Lab conversion and the colour
gradient again). A :class:`FieldView` is made per frame by the reader and passed to the stages;
each derived image is computed on first use and kept for the others.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

import cv2
import numpy as np

from vision.arrays import scratch
from vision.board.exposure import normalise_exposure
from vision.board.geometry import BoardGeometry

__all__ = ["FieldView", "colour_gradient"]


def colour_gradient(lab: np.ndarray, lab_bytes: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The colour gradient as one vector per pixel: float32 (H, W) x and y components.

    Di Zenzo's colour gradient ("A note on the gradient of a multi-image", CVGIP 1986): the direction
    and strength of the largest change of the Lab colour, from the 2x2 structure tensor of the three
    channels' Sobel gradients. A red disc on a grey point of the same lightness still has an edge.
    ``lab_bytes``: ``lab``'s very values as uint8 (a view's :attr:`FieldView.lab_bytes`), when known:
    the channels' Sobel is then taken in whole numbers, the same values (sums of a few bytes, exact
    in float32 too) from a quarter of the planes' bytes.
    """
    # (each channel made contiguous once: Sobel reads a strided channel several times slower.) The
    # intermediate planes are this thread's scratch arrays (vision.arrays.scratch): a frame's dozen
    # fresh planes cost their page faults on every frame; the two returned are fresh
    lab = np.asarray(lab, np.float32)
    shape = lab.shape[:2]
    if lab_bytes is None:
        planes = cv2.split(lab, [scratch(f"view.gradient.lab{c}", shape) for c in range(3)])
        gx = [cv2.Sobel(p, cv2.CV_32F, 1, 0, dst=scratch(f"view.gradient.gx{c}", shape), ksize=3)
              for c, p in enumerate(planes)]
        gy = [cv2.Sobel(p, cv2.CV_32F, 0, 1, dst=scratch(f"view.gradient.gy{c}", shape), ksize=3)
              for c, p in enumerate(planes)]
    else:
        bytes_ = cv2.split(lab_bytes, [scratch(f"view.gradient.bytes{c}", shape, np.uint8) for c in range(3)])
        gx, gy = [], []
        for c, p in enumerate(bytes_):
            for name, dx, out in (("gx", 1, gx), ("gy", 0, gy)):
                ints = scratch(f"view.gradient.s{name}", shape, np.int16)
                whole = cv2.Sobel(p, cv2.CV_16S, dx, 1 - dx, dst=ints, ksize=3)
                plane = scratch(f"view.gradient.{name}{c}", shape)
                np.copyto(plane, whole)
                out.append(plane)
    tmp = scratch("view.gradient.tmp", shape)
    # float32 throughout, in place where the operations' order and rounding are kept: the tensor's
    # sums start from +0 (as a sum() of the products does: a -0 product stays no -0 sum)
    jxx = _sum_of_products(gx, gx, None, tmp)  # (becomes the returned y component)
    jyy = _sum_of_products(gy, gy, scratch("view.gradient.jyy", shape), tmp)
    jxy = _sum_of_products(gx, gy, scratch("view.gradient.jxy", shape), tmp)
    diff = np.subtract(jxx, jyy, out=scratch("view.gradient.diff", shape))
    theta = np.arctan2(np.multiply(2.0, jxy, out=tmp), diff, out=scratch("view.gradient.theta", shape))
    theta *= 0.5
    diff *= diff
    jxy *= np.multiply(4.0, jxy, out=tmp)  # (4 jxy) jxy, as written out: 4.0 * jxy * jxy
    diff += jxy
    root = np.sqrt(diff, out=diff)
    jxx += jyy
    jxx += root
    jxx *= 0.5
    mag = np.sqrt(jxx, out=jxx)
    return mag * np.cos(theta, out=tmp), np.multiply(mag, np.sin(theta, out=theta), out=mag)


def _sum_of_products(a: Sequence[np.ndarray], b: Sequence[np.ndarray], out: np.ndarray | None = None,
                     tmp: np.ndarray | None = None) -> np.ndarray:
    """``sum(x * y for x, y in zip(a, b))`` of float32 arrays, the same values, in one array:
    ``out`` (fresh when None), each further product made in ``tmp`` (when given)."""
    out = np.multiply(a[0], b[0], out=out)
    out += 0.0  # (0 + x: a -0 product is +0, as sum() starts from 0)
    for x, y in zip(a[1:], b[1:], strict=True):
        out += np.multiply(x, y, out=tmp)
    return out


class FieldView:
    """The rectified field of one frame (``rect``, BGR uint8 of ``geom.size``) and what the readers
    derive from it, each made once: ``exposed`` (an under-exposed camera's gain undone,
    :func:`normalise_exposure`), ``lab`` (``exposed`` blurred 3x3, Lab float32; ``lab_bytes`` and
    ``lab_words`` the same values as uint8, and packed a pixel a word) and ``gradients``
    (:func:`colour_gradient` of ``lab``). ``image``: the input frame, when the view was made from one.

    A per-frame context, not a value: it is read-only for the stages and dropped after the frame.
    """

    def __init__(self, rect: np.ndarray, geom: BoardGeometry, image: np.ndarray | None = None,
                 bands: Sequence[tuple[float, float]] | None = None) -> None:
        self.rect = rect
        self.geom = geom
        self.image = image
        self.bands = None if bands is None else tuple(bands)

    @classmethod
    def of_frame(cls, image: np.ndarray, geom: BoardGeometry,
                 bands: Sequence[tuple[float, float]] | None = None) -> FieldView:
        """The view of ``image`` (BGR uint8 of ``geom.image_size``): the one warp of the frame's field.

        ``bands``: the x-ranges (rectified pixels) the frame's readers sample the ``gradients`` in,
        when they read only part of the field (the incremental reader); the gradients are then made
        there alone, each value as in the whole field's, and are 0 elsewhere. None: everywhere."""
        return cls(geom.rectify(image), geom, image, bands)

    @classmethod
    def of(cls, field: np.ndarray | FieldView, geom: BoardGeometry) -> FieldView:
        """``field`` itself when it is a view, else a view of the rectified array ``field``."""
        return field if isinstance(field, FieldView) else cls(field, geom)

    @cached_property
    def exposed(self) -> np.ndarray:
        return normalise_exposure(self.rect)

    @cached_property
    def lab_bytes(self) -> np.ndarray:
        """``lab`` as OpenCV's 8-bit Lab gives it, uint8 (H, W, 3): ``lab`` holds these very values."""
        return cv2.cvtColor(cv2.GaussianBlur(self.exposed, (3, 3), 0), cv2.COLOR_BGR2LAB)

    @cached_property
    def lab(self) -> np.ndarray:
        return self.lab_bytes.astype(np.float32)

    @cached_property
    def lab_words(self) -> np.ndarray:
        """Each pixel's ``lab_bytes`` and a fourth byte (255) as one uint32, (H, W): a pixel is then
        gathered as one element, and its bytes viewed as ``(..., 4)`` uint8 again."""
        return cv2.cvtColor(self.lab_bytes, cv2.COLOR_BGR2BGRA).view(np.uint32)[..., 0]

    @cached_property
    def gradients(self) -> tuple[np.ndarray, np.ndarray]:
        if self.bands is None:
            return colour_gradient(self.lab, self.lab_bytes)
        lab = self.lab
        width = lab.shape[1]
        gx = np.zeros(lab.shape[:2], np.float32)
        gy = np.zeros(lab.shape[:2], np.float32)
        for x0, x1 in _merged(self.bands, width):
            # one pixel more each side (the Sobel's reach), dropped after: the band's values are the
            # whole field's, the field's own ends filtered as the whole field's are
            a, b = max(0, x0 - 1), min(width, x1 + 1)
            bx, by = colour_gradient(lab[:, a:b], self.lab_bytes[:, a:b])
            gx[:, x0:x1] = bx[:, x0 - a : x1 - a]
            gy[:, x0:x1] = by[:, x0 - a : x1 - a]
        return gx, gy


def _merged(bands: Sequence[tuple[float, float]], width: int) -> list[tuple[int, int]]:
    """``bands`` as whole pixel columns within ``[0, width)``, overlapping ones joined."""
    spans = sorted((max(0, int(np.floor(a))), min(width, int(np.ceil(b)) + 1)) for a, b in bands)
    out: list[tuple[int, int]] = []
    for a, b in spans:
        if b <= a:
            continue
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out
