"""Read one die: find its pips, keep those of the top face, count them, tell whether it is cocked.

Input is a small crop around one die (CIE-Lab, OpenCV 8-bit scaling), the die's mask and the die edge
in pixels. Pips are blobs at the pip scale found by the determinant of the Hessian summed over the
three Lab channels (:func:`vision.dice.blobs.blob_map`, the board reader's detector too), so pips
of any colour on any body are found (white on red, black on white, red on black, yellow on green)
while edges and the die outline are not. The top face
is the best centrally symmetric d6 pip layout among them (:func:`select_face`): pips of side faces
seen in perspective, glare and marbling rarely fit one.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.dice.blobs import PHOTO_WEIGHTS, blob_map, peaks
from vision.dice.layout import PHOTO_LAYOUT, Pip, layout_ok, mirror_pairs

__all__ = ["FaceRead", "Pip", "find_pips", "odd_size", "read_face", "select_face"]

# Pips of one face: max ratio of contrasts, max Lab distance between their colours.
_CONTRAST_RATIO = 1.8
_COLOUR_SPREAD = 45.0
# Weight of the pips a layout leaves unexplained within its face, against those it explains.
_UNEXPLAINED = 1.0
# Pip centres closer than this (die edges) to the die's outline are rim artefacts (corners).
_RIM = 0.1
# Blob detector scale (pip radius ~0.09 die edges -> sigma ~ radius / 1.5), in die edges; peaks must
# reach _DOH_MIN and _DOH_REL of the die's strongest blob.
_DOH_SIGMA = 0.06
_DOH_MIN = 20.0
_DOH_REL = 0.55
# Cocked: outline centroid this far (die edges) from the face centre, or outline aspect above this.
_COCK_OFFSET = 0.45
_COCK_ASPECT = 1.75


@dataclass(frozen=True)
class FaceRead:
    """The top face of one die: ``value`` 1-6, ``centre`` (x, y) in crop pixels, cocked, confidence."""

    value: int
    centre: tuple[float, float]
    cocked: bool
    confidence: float
    pips: tuple[Pip, ...] = ()


def odd_size(v: float, lo: int = 3) -> int:
    """The odd filter size nearest ``v`` (at least ``lo``): OpenCV's median and box filters want one."""
    k = max(lo, int(round(v)))
    return k if k % 2 else k + 1


def _alike(pips: list[Pip]) -> bool:
    """Pips of one face are printed alike: similar colour and contrast (glare and marbling are not)."""
    top = max(pips, key=lambda p: p.contrast)
    for p in pips:
        if p.contrast < top.contrast / _CONTRAST_RATIO:
            return False
        if float(np.linalg.norm(np.subtract(p.colour, top.colour))) > _COLOUR_SPREAD:
            return False
    return True


def select_face(pips: list[Pip], size: float) -> tuple[list[Pip], tuple[float, float], float] | None:
    """The pips of the top face: the best centrally symmetric subset that forms a d6 layout.

    Every d6 layout is symmetric about the face centre, so the face centre is either a pip (1, 3, 5)
    or the midpoint of two pips (2, 4, 6); noise (glare, marbling) and pips of side faces seen in
    perspective rarely are. Each candidate centre keeps the pips whose mirror image is also a pip
    (tolerance 0.09 die edges); a hypothesis scores the contrast of the pips it explains minus the
    contrast of pips it leaves unexplained within the face. Returns (pips, centre, confidence) or None;
    confidence (0-1) is the best score's margin over the best score of any other pip count.
    """
    if not pips:
        return None
    pips = sorted(pips, key=lambda p: -p.contrast)[:10]
    tol = 0.09 * size
    centres: list[tuple[float, float]] = [(p.x, p.y) for p in pips]
    for i in range(len(pips)):
        for j in range(i + 1, len(pips)):
            centres.append(((pips[i].x + pips[j].x) / 2, (pips[i].y + pips[j].y) / 2))
    best: tuple[float, int, list[Pip], tuple[float, float]] | None = None
    by_value: dict[int, float] = {}
    px, py, pc = [p.x for p in pips], [p.y for p in pips], [p.contrast for p in pips]
    every = range(len(pips))
    for cx, cy in centres:
        centre_pip, paired = mirror_pairs(px, py, pc, every, cx, cy, tol)
        used = set() if centre_pip is None else {centre_pip}
        for pair in paired:
            used.update(pair)
        vec = [np.array([pips[j].x - pips[i].x, pips[j].y - pips[i].y]) for i, j in paired]
        if not layout_ok(vec, centre_pip is not None, size, PHOTO_LAYOUT):
            continue
        chosen = [pips[i] for i in sorted(used)]
        if not _alike(chosen):
            continue
        reach = max([float(np.hypot(p.x - cx, p.y - cy)) for p in chosen] + [0.2 * size]) + tol
        left = [p for i, p in enumerate(pips) if i not in used and np.hypot(p.x - cx, p.y - cy) < reach]
        score = sum(p.contrast for p in chosen) - _UNEXPLAINED * sum(p.contrast for p in left)
        n = len(chosen)
        by_value[n] = max(by_value.get(n, -np.inf), score)
        if best is None or score > best[0] + 1e-6 or (abs(score - best[0]) <= 1e-6 and n > best[1]):
            best = (score, n, chosen, (cx, cy))
    if best is None:
        return None
    rival = max((v for k, v in by_value.items() if k != best[1]), default=0.0)
    conf = 1.0 if best[0] <= 0 else float(np.clip((best[0] - max(rival, 0.0)) / best[0], 0.0, 1.0))
    return best[2], best[3], 0.5 + 0.5 * conf


def find_pips(lab: np.ndarray, mask: np.ndarray, size: float) -> list[Pip]:
    """Pips as peaks of :func:`vision.dice.blobs.blob_map` (the three Lab channels, chroma weighted)
    at the pip scale (pip radius ~0.09 die edges).

    :param lab: hxwx3 uint8 Lab crop; :param mask: hxw uint8 (255 = die); :param size: die edge, px.
    :returns: up to 12 pips, strongest first, at least ``_RIM`` die edges inside the mask and at least
        ``_DOH_MIN`` strong.
    """
    inside = mask > 0
    if inside.sum() < 9:
        return []
    sigma = max(0.7, _DOH_SIGMA * size)
    # outside the die the crop is filled with the body colour, so its outline makes no response
    f = lab.astype(np.float32)
    f[~inside] = np.median(lab[inside], axis=0)
    blobs = blob_map(f, sigma, PHOTO_WEIGHTS)
    resp, g = blobs.strength, blobs.smoothed
    dt = cv2.distanceTransform(np.pad(mask, 1), cv2.DIST_L2, 3)[1:-1, 1:-1]
    ys, xs = peaks(resp, odd_size(size * 0.14), _DOH_MIN, dt >= _RIM * size)
    if len(xs) == 0:
        return []
    strongest = np.argsort(-resp[ys, xs])[:12]
    top = float(resp[ys[strongest[0]], xs[strongest[0]]])
    order = [int(j) for j in strongest if resp[ys[j], xs[j]] >= _DOH_REL * top]
    out = []
    for j in order:
        y, x = int(ys[j]), int(xs[j])
        c0, c1, c2 = (float(v) for v in g[y, x])
        out.append(Pip(float(x), float(y), float(resp[y, x]), colour=(c0, c1, c2)))
    return out


def read_face(lab: np.ndarray, mask: np.ndarray, size: float, outline: bool = True) -> FaceRead | None:
    """Read the top face of one die, or None when no d6 face is found.

    :param lab: hxwx3 uint8 Lab crop around the die; :param mask: hxw uint8 (255 = die);
    :param size: die edge in pixels; :param outline: the mask is the die's own outline (not just a disc
        around its pips), so it can tell a cocked die.
    :returns: the face: value, centre (crop pixels, the centre of its pips), cocked, confidence.

    Cocked (tilted: side faces in view): the die's outline reaches much further on one side of its top
    face than on the other (outline centroid more than ``_COCK_OFFSET`` die edges from the face centre),
    or the outline is far from square (aspect above ``_COCK_ASPECT``).
    """
    pips = find_pips(lab, mask, size)
    if not pips:
        return None
    sel = select_face(pips, size)
    if sel is None:
        return None
    face, centre, confidence = sel
    cocked = False
    if outline:
        m = cv2.moments(mask, binaryImage=True)
        if m["m00"] > 0:
            off = np.hypot(m["m10"] / m["m00"] - centre[0], m["m01"] / m["m00"] - centre[1]) / size
            contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            (_, _), (rw, rh), _ = cv2.minAreaRect(max(contours, key=cv2.contourArea))
            aspect = max(rw, rh) / max(1e-6, min(rw, rh))
            cocked = bool(off > _COCK_OFFSET or aspect > _COCK_ASPECT)
    if cocked:
        confidence *= 0.8
    return FaceRead(len(face), centre, cocked, confidence, tuple(face))
