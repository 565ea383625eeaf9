"""A small learned check on each die the classical reader finds: is it a die, and how many pips.

The classical pipeline (:mod:`vision.dice.photo`, :mod:`vision.dice.faces`) finds candidates and reads a
face; this module looks at a normalised crop of each candidate (centred on the face the classical
reader found, one die edge scaled to a fixed size) and gives class probabilities: 0 = not a die (a
tray wall, a shadow, glare, a second read of a die already found), 1-6 = pips of the top face.

Features: histograms of oriented gradients (Dalal & Triggs, "Histograms of oriented gradients for
human detection", 2005: 4 px cells, 9 unsigned bins, 2x2-cell blocks, L2-normalised) of two maps of the
32x32 crop: the CIE-Lab distance from the face's body colour (chroma weighted, so red pips on smoky
dice and white pips on black dice look alike) and the lightness. Written here in numpy because the
OpenCV wheel in use ships neither ``cv2.HOGDescriptor`` nor ``cv2.ml``. Classifier: a one-hidden-layer
ReLU perceptron (numpy), trained by ``python -m training.dice_mlp`` (see there for the data and the
held-out split); weights in ``vision/dice/assets/dice_mlp.npz``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

__all__ = ["CROP", "WEIGHTS", "DiceModel", "crop_die", "features", "load_model"]

# Crop side in pixels, and the crop's side in die edges.
CROP = 32
CROP_EDGES = 1.4
_CELL = 4
_BINS = 9
_CHROMA = 2.0
WEIGHTS = Path(__file__).with_name("assets") / "dice_mlp.npz"
# Die edge (px) below which the model is not asked: it was trained on dice of 20-60 px.
MIN_EDGE = 18.0
# Views of each crop averaged at reading time (the first of :func:`dihedral`: the crop, its mirror).
VIEWS = 2


def crop_die(image: np.ndarray, cx: float, cy: float, edge: float) -> np.ndarray:
    """A CROPxCROP uint8 BGR crop of ``image`` (HxWx3) centred on (cx, cy) px, ``CROP_EDGES`` die edges
    wide (``edge`` px); the border is replicated where the crop leaves the image."""
    s = max(2.0, CROP_EDGES * edge)
    k = CROP / s
    m = np.float32([[k, 0, CROP / 2 - cx * k], [0, k, CROP / 2 - cy * k]])
    interp = cv2.INTER_AREA if s > CROP else cv2.INTER_LINEAR
    return np.asarray(cv2.warpAffine(image, m, (CROP, CROP), flags=interp, borderMode=cv2.BORDER_REPLICATE))


def _maps(crop: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    q = CROP // 4
    body = np.median(lab[q : CROP - q, q : CROP - q].reshape(-1, 3), axis=0)
    d = lab - body
    d[:, :, 1:] *= _CHROMA
    dist = np.sqrt((d * d).sum(axis=2))
    dist = dist / (float(dist[2:-2, 2:-2].max()) + 1e-3) * 255.0
    light = lab[:, :, 0]
    light = (light - light.min()) / (float(np.ptp(light)) + 1e-3) * 255.0
    return np.clip(dist, 0, 255), light


_CELL_INDEX = (np.indices((CROP, CROP)) // _CELL).reshape(2, -1)
_NC = CROP // _CELL


def _hog(m: np.ndarray) -> np.ndarray:
    gx = cv2.Sobel(m, cv2.CV_32F, 1, 0, ksize=1)
    gy = cv2.Sobel(m, cv2.CV_32F, 0, 1, ksize=1)
    mag = np.sqrt(gx * gx + gy * gy).ravel()
    ang = ((np.arctan2(gy, gx) % np.pi) / np.pi * _BINS).ravel()
    b0 = np.floor(ang).astype(np.int64) % _BINS
    w1 = ang - np.floor(ang)
    cell = (_CELL_INDEX[0] * _NC + _CELL_INDEX[1]) * _BINS
    h = np.bincount(cell + b0, mag * (1 - w1), _NC * _NC * _BINS)
    h += np.bincount(cell + (b0 + 1) % _BINS, mag * w1, _NC * _NC * _BINS)
    h = h.reshape(_NC, _NC, _BINS)
    blocks = np.concatenate([h[:-1, :-1], h[:-1, 1:], h[1:, :-1], h[1:, 1:]], axis=2)
    blocks /= np.sqrt((blocks * blocks).sum(axis=2, keepdims=True) + 1e-3)
    return blocks.ravel()


def features(crop: np.ndarray) -> np.ndarray:
    """Feature vector (float32, 2 x 7 x 7 x 36 = 3528) of one CROPxCROP BGR crop."""
    return np.concatenate([_hog(m.astype(np.float32)) for m in _maps(crop)]).astype(np.float32)


def dihedral(crop: np.ndarray) -> list[np.ndarray]:
    """The 8 rotations and mirror images of a crop (a d6 face is the same face in all of them)."""
    out = []
    for k in range(4):
        r = np.rot90(crop, k)
        out += [np.ascontiguousarray(r), np.ascontiguousarray(r[:, ::-1])]
    return out


class DiceModel:
    """The trained perceptron: ``probabilities(X)`` (n x 3528 float32) -> n x 7 (class 0 = not a die)."""

    def __init__(self, params: dict[str, np.ndarray]) -> None:
        self.mu = params["mu"].astype(np.float32)
        self.sd = params["sd"].astype(np.float32)
        self.w1 = params["W1"].astype(np.float32)
        self.b1 = params["b1"].astype(np.float32)
        self.w2 = params["W2"].astype(np.float32)
        self.b2 = params["b2"].astype(np.float32)

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        h = np.maximum(((x - self.mu) / self.sd) @ self.w1 + self.b1, 0)
        z = h @ self.w2 + self.b2
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        return np.asarray(p / p.sum(axis=1, keepdims=True))

    def read(self, crops: list[np.ndarray]) -> np.ndarray:
        """Class probabilities (n x 7) of n CROPxCROP BGR crops, each averaged over the crop and its
        mirror image (``VIEWS``: a d6 face reads the same mirrored; more views cost time, not accuracy)."""
        views = [v for c in crops for v in dihedral(c)[:VIEWS]]
        p = self.probabilities(np.stack([features(v) for v in views]))
        return np.asarray(p.reshape(len(crops), VIEWS, -1).mean(axis=1))

    def save(self, path: Path) -> None:
        """Write the weights (float16: the file stays well under 2 MB)."""
        np.savez_compressed(
            path, mu=self.mu, sd=self.sd, W1=self.w1.astype(np.float16), b1=self.b1,
            W2=self.w2.astype(np.float16), b2=self.b2,
        )


@lru_cache(maxsize=2)
def load_model(path: Path = WEIGHTS) -> DiceModel | None:
    """The shipped model, or None when the weights file is absent or unreadable (the classical reading
    is then used alone)."""
    try:
        with np.load(path) as z:
            return DiceModel({k: z[k] for k in ("mu", "sd", "W1", "b1", "W2", "b2")})
    except (OSError, KeyError, ValueError):
        return None


# A candidate is dropped when the model gives "not a die" more than this probability.
NOT_A_DIE = 0.8
# Weight of the classical reading (times its confidence) against the model's pip-count probability
# when both are joined. Held out by photo (python -m training.dice_mlp), the model's pip counts did not
# beat the classical reading (82.08 -> 82.08 % on the odd photos, 82.97 -> 82.69 % on the even ones)
# while its "not a die" verdict cut the extra readings by two thirds and lost no die read right: so
# only the verdict is used (JOIN_VALUES False) and the value stays the classical one.
CLASSICAL_WEIGHT = 1.2
JOIN_VALUES = False


def decide(
    value: int, confidence: float, p: np.ndarray, join: bool = JOIN_VALUES
) -> tuple[int, float] | None:
    """Join a classical face reading (``value`` 1-6, ``confidence`` 0-1) and the model's 7 class
    probabilities ``p``: None when it is no die (``p[0]`` above ``NOT_A_DIE``), else (value,
    confidence 0-1). With ``join`` the value is the best of the model's pip counts plus
    ``CLASSICAL_WEIGHT`` x confidence for the classical value; without, the classical value is kept."""
    if float(p[0]) > NOT_A_DIE:
        return None
    if not join:
        return value, float(np.clip(confidence * (1.0 - float(p[0])), 0.0, 1.0))
    q = np.asarray(p[1:], np.float64) / max(1e-6, 1.0 - float(p[0]))
    q[value - 1] += CLASSICAL_WEIGHT * confidence
    q /= 1.0 + CLASSICAL_WEIGHT * confidence
    best = int(np.argmax(q))
    return best + 1, float(np.clip(q[best] * (1.0 - float(p[0])), 0.0, 1.0))
