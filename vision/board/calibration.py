"""Calibration without markers: find the board once, keep it in a file, notice when the camera moves.

A :class:`Calibration` is the board geometry of :mod:`vision.board.finder` (the homography from the camera
image to the rectified field, the point columns, the bar) plus the image size it belongs to. It is
saved as JSON so a station can start without searching again; :func:`still_valid` re-checks the
triangle pattern where the calibration says the points are, so a bumped camera is noticed (the
pattern score drops) and :func:`calibrate` can be run again. For a board whose triangles the camera
cannot make out, four optional ArUco markers on the field's corners calibrate it instead
(:func:`calibrate_markers`; :func:`calibrate` uses them whenever all four are in view).
A calibration made on a known layout (:func:`vision.board.learn.calibrate_known`, ``tavla calibrate``)
also holds the board's learned look (:class:`vision.board.appearance.Appearance`, the file's
``appearance`` object, added only: files without it load with none).
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.board.appearance import Appearance
from vision.board.finder import (
    border_energy,
    colour_gradient,
    find_board,
    geometry_from_corners,
    pattern_score_at,
)
from vision.board.geometry import POINT_PX, BoardGeometry
from vision.checkers.stacks import count_stacks
from vision.errors import CalibrationError

__all__ = [
    "Calibration", "CalibrationError", "MARKER_IDS", "calibrate", "calibrate_markers", "find_markers",
    "outline_covered", "outline_profile", "outline_weak", "weak_covered", "still_valid", "load", "save",
]

FORMAT = "tavla-calibration/1"
# A calibration is still valid while the pattern where it puts the points scores at least this.
_VALID_SCORE = 0.2
_VALID_RATIO = 0.6
# ArUco markers (OpenCV's 4x4 dictionary of 50) whose centres mark the field's corners, in the
# order top-left, top-right, bottom-right, bottom-left as the players see the board from the
# camera (any order works: the corners are sorted).
MARKER_DICT = "DICT_4X4_50"
MARKER_IDS = (0, 1, 2, 3)
# A marker moved by more than this share of a point's width means the camera (or board) moved.
_MARKER_MOVE = 0.25
# The field's outline is sampled at OUTLINE_SAMPLES places along each side (see outline_profile). A
# sample is covered when its edge strength falls below _COVERED of what it was at calibration (that
# reference capped at _REF_CAP times its side's median: a hand's own edge lying along the outline in
# the calibration frame must not make the clear outline look weak later); the outline is covered when
# _COVERED_RUN samples in a row on one side are. Measured on the real webcam games with one camera
# (calibrated on a clear frame, every other frame of the game checked): clear frames, checkers moved
# and dice thrown, have runs of 0-2 covered samples; frames with a hand over the board's edge 6-27.
# On the broadcast frames of boards-real (calibrated on frame0): the clear frame1 has 3, the
# occluded frame2 7.
OUTLINE_SAMPLES = 48
_COVERED = 0.35
_REF_CAP = 1.5
_COVERED_RUN = 5


@dataclass(frozen=True)
class Calibration:
    """Where the board is in the camera image. ``geometry``: see :class:`vision.board.geometry.BoardGeometry`;
    ``home``: where the light player's home board lies (``"bottom-right"`` etc.) when known, else None."""

    geometry: BoardGeometry
    home: str | None = None
    border: float = 0.0  # the field outline's edge strength when calibrated (see still_valid)
    checker_radius: float = 0.0  # rectified pixels; 0 = unknown (chosen on every frame)
    # the corner markers' centres (image pixels) when calibrated from markers (calibrate_markers)
    markers: tuple[tuple[float, float], ...] = ()
    # the field outline's edge strength at calibration, OUTLINE_SAMPLES per side (outline_profile);
    # () = not measured (a marker calibration, or a file from before), and outline_covered is False
    outline: tuple[tuple[float, ...], ...] = ()
    # the board's look learned from a known layout (vision.board.learn); None = not learned (a plain
    # calibration, or a file from before): the reader then guesses the colours on every frame
    appearance: Appearance | None = None

    def to_json(self) -> dict[str, object]:
        g = self.geometry
        return {
            "format": FORMAT,
            "image_size": list(g.image_size),
            "homography": [[float(v) for v in row] for row in g.homography],
            "size": list(g.size),
            "point_px": POINT_PX,
            "columns": [float(c) for c in g.columns],
            "bar": list(g.bar) if g.bar else None,
            "corners": [list(c) for c in g.corners],
            "score": float(g.score),
            "home": self.home,
            "border": float(self.border),
            "checker_radius": float(self.checker_radius),
            "markers": [list(m) for m in self.markers],
            "outline": [[round(float(v), 2) for v in side] for side in self.outline],
        } | ({"appearance": self.appearance.to_json()} if self.appearance is not None else {})

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Calibration:
        """Inverse of :meth:`to_json`; raises :class:`CalibrationError` on a malformed object."""
        try:
            if data.get("format") != FORMAT:
                raise CalibrationError(f"not a {FORMAT} file (format={data.get('format')!r})")
            if int(data["point_px"]) != POINT_PX:  # type: ignore[call-overload]
                raise CalibrationError("calibration made with another point width: calibrate again")
            hmg = np.array(data["homography"], dtype=np.float64)
            if hmg.shape != (3, 3) or not np.isfinite(hmg).all():
                raise CalibrationError("homography must be a finite 3x3 matrix")
            size = tuple(int(v) for v in data["size"])  # type: ignore[attr-defined]
            cols = tuple(float(v) for v in data["columns"])  # type: ignore[attr-defined]
            if len(cols) != 12 or len(size) != 2:
                raise CalibrationError("need 12 columns and a (width, height) size")
            bar = data.get("bar")
            geom = BoardGeometry(
                homography=hmg,
                size=(size[0], size[1]),
                columns=cols,
                bar=(float(bar[0]), float(bar[1])) if bar else None,  # type: ignore[index]
                image_size=tuple(int(v) for v in data["image_size"]),  # type: ignore[arg-type, attr-defined]
                score=float(data.get("score", 0.0)),  # type: ignore[arg-type]
                corners=tuple((float(x), float(y)) for x, y in data.get("corners", [])),  # type: ignore[attr-defined]
            )
        except CalibrationError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, OverflowError) as exc:
            raise CalibrationError(f"malformed calibration: {exc}") from exc
        home = data.get("home")
        try:
            border = float(data.get("border", 0.0))  # type: ignore[arg-type]
            radius = float(data.get("checker_radius", 0.0))  # type: ignore[arg-type]
            markers = tuple((float(x), float(y)) for x, y in data.get("markers") or [])  # type: ignore[attr-defined]
            outline = tuple(tuple(float(v) for v in side) for side in data.get("outline") or [])  # type: ignore[attr-defined]
        except (TypeError, ValueError, OverflowError) as exc:  # OverflowError: an integer past a float
            raise CalibrationError(f"malformed calibration: {exc}") from exc
        if outline and (len(outline) != 4 or any(len(side) != OUTLINE_SAMPLES for side in outline)):
            raise CalibrationError(f"outline must be 4 sides of {OUTLINE_SAMPLES} samples")
        look = data.get("appearance")
        appearance = Appearance.from_json(look) if look is not None else None
        return cls(geom, home if isinstance(home, str) else None, border, radius, markers, outline,
                   appearance)


def calibrate(image: np.ndarray) -> Calibration | None:
    """Find the board in a BGR uint8 frame (H, W, 3); None when no board is seen.

    Corner markers, when all four are in view, are trusted first (:func:`calibrate_markers`: the
    players put them there for a board the finder cannot read); else the board is found by its
    triangles (:func:`vision.board.finder.find_board`).
    """
    marked = calibrate_markers(image)
    if marked is not None:
        return marked
    geom = find_board(image)
    if geom is None or geom.outline_broken:
        return None  # a field completed around a hand is a guess: calibrate on a clear frame
    # the checkers' size, measured once (on a board with checkers on it)
    stacks = count_stacks(geom.rectify(image), geom)
    radius = stacks[0].radius if any(st.count for st in stacks) else 0.0
    outline = tuple(tuple(float(v) for v in side) for side in outline_profile(image, geom))
    return Calibration(geom, border=border_energy(image, geom), checker_radius=radius, outline=outline)


def outline_profile(image: np.ndarray, geom: BoardGeometry,
                    sides: Collection[int] | None = None) -> np.ndarray:
    """The field outline's colour-gradient strength (Di Zenzo magnitude, Lab, as
    :func:`vision.board.finder.border_energy`) at ``OUTLINE_SAMPLES`` evenly spaced places along each of the
    four sides where ``geom`` puts them: float64 (4, OUTLINE_SAMPLES); zeros when ``geom`` has no
    corners. Each sample is the strongest within 2 px across the side, so a sub-pixel jitter of the
    camera does not read as a weaker edge. Only a thin strip along each side is filtered (about a
    millisecond for a 1280x720 frame), not the whole image. ``image``: BGR uint8 (H, W, 3).
    ``sides``: the sides (0 top, 1 right, 2 bottom, 3 left: from corner i to corner i + 1) to
    measure, the others left 0; None: all four.
    """
    out = np.zeros((4, OUTLINE_SAMPLES))
    if np.asarray(geom.corners).shape != (4, 2):
        return out
    h, w = image.shape[:2]
    plan = _outline_boxes(tuple((float(x), float(y)) for x, y in geom.corners), w, h)
    for i in range(4) if sides is None else sorted(set(sides) & {0, 1, 2, 3}):
        if plan[i] is None:
            continue
        (y0, y1, x0, x1), ys, xs = plan[i]
        strip = cv2.GaussianBlur(colour_gradient(image[y0:y1, x0:x1]), (5, 5), 1.0)
        out[i] = strip[ys, xs].max(axis=0)
    return out


_Box = tuple[tuple[int, int, int, int], np.ndarray, np.ndarray]


@functools.lru_cache(maxsize=16)
def _outline_boxes(corners: tuple[tuple[float, float], ...], w: int, h: int) -> tuple[_Box | None, ...]:
    """Per side of the field (``corners``, in a ``w`` x ``h`` frame), what :func:`outline_profile`
    filters and reads: the box round the side's samples (rows y0-y1, columns x0-x1, 4 pixels beyond
    them, within the frame) and the samples' rows and columns in it (int (5, OUTLINE_SAMPLES): 2 px
    each way across the side); None for a side shorter than a pixel. Made once per calibration."""
    c = np.asarray(corners, dtype=np.float64)
    t = np.linspace(0.03, 0.97, OUTLINE_SAMPLES)
    plan: list[_Box | None] = []
    for i in range(4):
        a, b = c[i], c[(i + 1) % 4]
        length = float(np.linalg.norm(b - a))
        if length < 1.0:
            plan.append(None)
            continue
        along = (b - a) / length
        across = np.array([-along[1], along[0]])
        pts = a[None, :] + t[:, None] * (b - a)[None, :]
        offsets = np.arange(-2, 3)[:, None, None] * across[None, None, :]  # (5, 1, 2)
        xy = np.rint(pts[None, :, :] + offsets)  # (5, n, 2)
        x0 = int(np.clip(xy[..., 0].min() - 4, 0, w - 1))
        x1 = int(np.clip(xy[..., 0].max() + 5, x0 + 1, w))
        y0 = int(np.clip(xy[..., 1].min() - 4, 0, h - 1))
        y1 = int(np.clip(xy[..., 1].max() + 5, y0 + 1, h))
        xs = np.clip(xy[..., 0].astype(np.intp) - x0, 0, x1 - x0 - 1)
        ys = np.clip(xy[..., 1].astype(np.intp) - y0, 0, y1 - y0 - 1)
        xs.setflags(write=False)
        ys.setflags(write=False)
        plan.append(((y0, y1, x0, x1), ys, xs))
    return tuple(plan)


def outline_covered(image: np.ndarray, calib: Calibration) -> bool:
    """True when something lies over the field's outline where ``calib`` saw it clear: a hand or an
    arm reaching over the board's edge (issue 4, item 5: a hand over the board is reported, not read).

    A fixed camera sees the outline the same in every frame; where a hand crosses it the strong edge
    between field and frame is gone for a stretch (``_COVERED_RUN`` samples in a row on one side under
    ``_COVERED`` of their strength at calibration). The board finder notices the same thing when it
    searches a frame (``BoardGeometry.outline_broken``); a calibrated reading does not search, so this
    is its check. False when the calibration holds no outline profile or is for another image size.
    ``image``: BGR uint8 (H, W, 3).
    """
    return weak_covered(outline_weak(image, calib))


def outline_weak(image: np.ndarray, calib: Calibration, sides: Collection[int] | None = None,
                 last: np.ndarray | None = None) -> np.ndarray | None:
    """Where the outline is weaker than ``calib`` saw it (the samples of :func:`outline_covered`):
    bool (4, OUTLINE_SAMPLES); None when the calibration holds no outline profile or is for another
    image size. ``sides`` with ``last`` (this function's result for an earlier frame): only those
    sides are measured again, the others are taken from ``last`` (the incremental reader's sides
    where nothing changed)."""
    h, w = image.shape[:2]
    if not calib.outline or (w, h) != tuple(calib.geometry.image_size):
        return None
    if last is None or sides is None:
        sides = None
    weak = outline_profile(image, calib.geometry, sides) < _weak_below(calib.outline)
    if sides is not None and last is not None:
        keep = [i for i in range(4) if i not in set(sides)]
        weak[keep] = last[keep]
    return weak


@functools.lru_cache(maxsize=16)
def _weak_below(outline: tuple[tuple[float, ...], ...]) -> np.ndarray:
    """The strength (4, OUTLINE_SAMPLES) under which a sample of the calibration's ``outline`` is
    weak: ``_COVERED`` of its reference, that capped at ``_REF_CAP`` times its side's median."""
    ref = np.asarray(outline, dtype=np.float64)
    ref = np.minimum(ref, _REF_CAP * np.median(ref, axis=1, keepdims=True))
    out = _COVERED * ref
    out.setflags(write=False)
    return out


def weak_covered(weak: np.ndarray | None) -> bool:
    """True when a side of :func:`outline_weak`'s samples is weak ``_COVERED_RUN`` samples in a row."""
    if weak is None:
        return False
    for side in weak:
        run = 0
        for covered in side:
            run = run + 1 if covered else 0
            if run >= _COVERED_RUN:
                return True
    return False


def find_markers(image: np.ndarray, ids: tuple[int, ...] = MARKER_IDS) -> np.ndarray | None:
    """The centres (float (4, 2), image pixels, in ``ids`` order) of the four corner markers in a BGR
    uint8 frame (H, W, 3), or None unless all four are seen once each. OpenCV's ArUco detector
    (``cv2.aruco``, dictionary ``MARKER_DICT``; Garrido-Jurado et al., "Automatic generation and
    detection of highly reliable fiducial markers under occlusion", Pattern Recognition 2014)."""
    aruco = cv2.aruco
    detector = aruco.ArucoDetector(aruco.getPredefinedDictionary(getattr(aruco, MARKER_DICT)),
                                   aruco.DetectorParameters())
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    corners, found, _ = detector.detectMarkers(grey)
    if found is None:
        return None
    seen = [int(i) for i in np.asarray(found).ravel()]
    if any(seen.count(i) != 1 for i in ids):
        return None
    return np.array([np.asarray(corners[seen.index(i)]).reshape(4, 2).mean(axis=0) for i in ids])


def calibrate_markers(image: np.ndarray, bar: float | None = None,
                      ids: tuple[int, ...] = MARKER_IDS) -> Calibration | None:
    """Calibrate from four ArUco markers centred on the field's corners (:func:`find_markers`), for a
    board whose triangles the camera cannot make out (issue 4, item 1: optional markers).

    ``bar``: the bar's share of the field's width when known (0: none); None reads it from the
    triangle pattern where it can be seen (:func:`vision.board.finder.geometry_from_corners`). Returns None
    unless all four markers are seen. ``image``: BGR uint8 (H, W, 3).
    """
    centres = find_markers(image, ids)
    if centres is None:
        return None
    geom = geometry_from_corners(image, centres, bar)
    stacks = count_stacks(geom.rectify(image), geom)
    radius = stacks[0].radius if any(st.count for st in stacks) else 0.0
    return Calibration(geom, border=0.0, checker_radius=radius,
                       markers=tuple((float(x), float(y)) for x, y in centres))


def still_valid(image: np.ndarray, calib: Calibration) -> bool:
    """True while the points are still where ``calib`` says (same image size, triangle pattern there).

    A moved or bumped camera shifts the points; the pattern score at the calibrated position drops.
    A calibration made from markers (:func:`calibrate_markers`) is valid while all four are seen
    within ``_MARKER_MOVE`` of a point's width of where they were.
    """
    h, w = image.shape[:2]
    if (w, h) != tuple(calib.geometry.image_size):
        return False
    if calib.markers:
        # calibrated from markers: they must still be where they were (a quarter of a point)
        centres = find_markers(image)
        if centres is None:
            return False
        c = np.asarray(calib.markers, dtype=np.float64)
        point = float(np.linalg.norm(c[1] - c[0])) / 12.0
        return bool(np.linalg.norm(centres - c, axis=1).max() <= _MARKER_MOVE * point)
    score = pattern_score_at(image, calib.geometry)
    # relative to the score at calibration: checkers moved since then lower it a little, a camera
    # moved by a fraction of a point lowers it a lot
    if score < max(_VALID_SCORE, _VALID_RATIO * calib.geometry.score):
        return False
    # the pattern repeats every two points; the field's outline does not
    return border_energy(image, calib.geometry) >= _VALID_RATIO * calib.border


def save(calib: Calibration, path: str | Path) -> None:
    """Write ``calib`` as JSON to ``path``."""
    Path(path).write_text(json.dumps(calib.to_json(), indent=1) + "\n")


def _no_constant(name: str) -> float:
    raise CalibrationError(f"{name} is not a number a calibration holds")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 reads as infinity
        raise CalibrationError(f"{text[:30]} is not a finite number")
    return value


def load(path: str | Path) -> Calibration:
    """Read a calibration file; raises :class:`CalibrationError` (a ValueError) when unusable: not
    JSON, NaN or infinity anywhere (a NaN column once read no board at all), or malformed."""
    try:
        data = json.loads(Path(path).read_text(), parse_constant=_no_constant, parse_float=_finite)
    except OSError as exc:
        raise CalibrationError(f"cannot read calibration {path}: {exc.strerror}") from exc
    except CalibrationError as exc:
        raise CalibrationError(f"calibration {path}: {exc}") from exc
    except (ValueError, RecursionError) as exc:
        raise CalibrationError(f"calibration {path} is not JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise CalibrationError(f"calibration {path} is not a JSON object")
    return Calibration.from_json(data)
