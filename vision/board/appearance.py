"""The look of one board, learned from a frame whose layout is known: checker and point colours, light.

A calibration on the opening position (or an empty board) knows where light checkers, dark checkers
and bare points of each colour are (:mod:`vision.board.learn`). From those pixels an
:class:`Appearance` keeps:

- each checker colour's Lab mean and spread (per channel), measured on every checker's disc;
- the two triangle colours and the field's colour (Lab);
- the light at calibration: BGR samples at places that were bare (point axes, the field between the
  points' tips, the bar), kept in rectified pixels so any later frame can be sampled there.

Using it on a later frame of the same camera (:mod:`vision.reader`):

1. **Light.** The frame's light relative to calibration is one gain per BGR channel (a dimmer lamp,
   a warmer bulb, the camera's white balance: von Kries' diagonal model of adaptation). It is the
   robust mean of the ratios now/then over the reference samples: checkers moved onto a sample, a
   die or a hand make outliers, and when fewer than ``_AGREE`` of the samples agree the last gains
   are kept. The frame is divided by its gains (:func:`correct`), so every stage reads it in the
   calibration's light.
2. **Naming.** A stack is named after the nearer checker colour (distance in spreads), instead of
   splitting the frame's stacks in two by k-means: one colour alone on the points, or two colours
   of nearly one lightness, are named right.
3. **Drift.** :func:`update` moves each checker colour a step toward the stacks read confidently in
   its colour, never further than ``_MAX_DRIFT`` spreads from where calibration put it: a hand, a
   die or a misread stack cannot pull the model away. It is pure: it returns the new model, and the
   caller keeps it (:func:`vision.reader.read_adapting`, the pipeline's ``CalibratedDetector``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.board.geometry import POINT_PX, BoardGeometry
from vision.errors import CalibrationError
from vision.reading import COLOURS

__all__ = ["Appearance", "CheckerColour", "correct", "estimate_gains", "learn", "name_stacks", "update"]

Lab = tuple[float, float, float]

# A checker colour's spread is never taken below this (Lab units): four or five discs of one
# colour can agree closer than the next frame's noise and shading.
_MIN_SPREAD = 4.0
# Reference samples agree with the frame's gains when their log-ratio is within this of the median.
_AGREE_LOG = 0.15
# ... and the gains are trusted when at least this share of the samples agree (else: last gains).
_AGREE = 0.4
# Gains are kept within these bounds (beyond, noise would be amplified into edges).
_GAIN_RANGE = (0.25, 4.0)
# A reference sample darker than this (grey level) at calibration gives no usable ratio.
_DARKEST = 12.0
# Running update: each confidently read frame moves a checker colour this share of the way ...
_RATE = 0.2
# ... from stacks at least this confident (ring score) and within this many spreads of it ...
_SURE = 0.8
_NEAR = 3.0
# ... and never further than this many spreads (at least _MIN_DRIFT Lab) from its calibrated value.
_MAX_DRIFT = 2.5
_MIN_DRIFT = 10.0


@dataclass(frozen=True)
class CheckerColour:
    """One checker colour: Lab ``mean`` now, ``spread`` (per channel std, at least ``_MIN_SPREAD``),
    ``anchor`` (the mean at calibration; :func:`update` stays near it) and ``discs`` measured."""

    mean: Lab
    spread: Lab
    anchor: Lab
    discs: int = 0

    def distance(self, lab: np.ndarray) -> np.ndarray:
        """Distance of Lab colours (float (..., 3)) from this colour, in spreads: float (...)."""
        z = (np.asarray(lab, np.float64) - np.asarray(self.mean)) / np.asarray(self.spread)
        return np.sqrt((z * z).sum(axis=-1))


@dataclass(frozen=True)
class Appearance:
    """A board's look (module docstring). ``checkers``: colour name -> :class:`CheckerColour`
    (empty when calibrated on an empty board); ``points``: the triangle colours of even and odd
    slots (Lab); ``field``: the field's colour (Lab); ``ref_xy``/``ref_bgr``: rectified places that
    were bare at calibration and their BGR colours there; ``gains``: the light of the last frame
    read relative to calibration (BGR); ``updates``: frames that moved the checker colours."""

    checkers: Mapping[str, CheckerColour]
    points: tuple[Lab, Lab]
    field: Lab
    ref_xy: tuple[tuple[float, float], ...]
    ref_bgr: tuple[tuple[float, float, float], ...]
    gains: tuple[float, float, float] = (1.0, 1.0, 1.0)
    updates: int = 0

    def to_json(self) -> dict[str, object]:
        def r(v: Sequence[float], nd: int = 2) -> list[float]:
            return [round(float(x), nd) for x in v]

        return {
            "checkers": {name: {"mean": r(c.mean), "spread": r(c.spread), "anchor": r(c.anchor),
                                "discs": int(c.discs)} for name, c in self.checkers.items()},
            "points": [r(p) for p in self.points],
            "field": r(self.field),
            "ref_xy": [r(xy, 1) for xy in self.ref_xy],
            "ref_bgr": [r(c, 1) for c in self.ref_bgr],
            "gains": r(self.gains, 4),
            "updates": int(self.updates),
        }

    @classmethod
    def from_json(cls, data: object) -> Appearance:
        """Inverse of :meth:`to_json`; :raises CalibrationError: on anything malformed."""
        try:
            if not isinstance(data, dict):
                raise CalibrationError("appearance must be a JSON object")
            checkers = {}
            for name, c in dict(data.get("checkers") or {}).items():
                if name not in COLOURS:
                    raise CalibrationError(f"appearance: unknown checker colour {name!r}")
                spread = _lab(c["spread"])
                if min(spread) <= 0:
                    raise CalibrationError("appearance: a checker colour's spread must be positive")
                checkers[name] = CheckerColour(_lab(c["mean"]), spread, _lab(c["anchor"]),
                                               int(c.get("discs", 0)))
            points = tuple(_lab(p) for p in data["points"])
            if len(points) != 2:
                raise CalibrationError("appearance: need the two triangle colours")
            ref_xy = tuple((float(x), float(y)) for x, y in data.get("ref_xy") or [])
            ref_bgr = tuple(_lab(c) for c in data.get("ref_bgr") or [])
            if len(ref_xy) != len(ref_bgr):
                raise CalibrationError("appearance: ref_xy and ref_bgr differ in length")
            gains = _lab(data.get("gains", [1.0, 1.0, 1.0]))
            if not all(_GAIN_RANGE[0] <= g <= _GAIN_RANGE[1] for g in gains):
                raise CalibrationError(f"appearance: gains {gains} outside {_GAIN_RANGE}")
            return cls(checkers, (points[0], points[1]), _lab(data["field"]), ref_xy, ref_bgr, gains,
                       int(data.get("updates", 0)))
        except CalibrationError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as exc:
            raise CalibrationError(f"malformed appearance: {exc!r}") from exc


def _lab(v: object) -> Lab:
    vals = [float(x) for x in v]  # type: ignore[attr-defined]
    if len(vals) != 3 or not np.isfinite(vals).all():
        raise CalibrationError(f"appearance: {v!r} is not 3 finite numbers")
    return (vals[0], vals[1], vals[2])


def _sample_bgr(image: np.ndarray, geom: BoardGeometry, xy: np.ndarray) -> np.ndarray:
    """Mean BGR of the 3x3 image pixels round each rectified place ``xy`` (float (N, 2)): (N, 3)."""
    h, w = image.shape[:2]
    pts = geom.to_image(xy) if len(xy) else np.zeros((0, 2))
    off = np.array([-1, 0, 1])
    xi = np.clip(np.rint(pts[:, 0])[:, None, None].astype(np.intp) + off[None, None, :], 0, w - 1)
    yi = np.clip(np.rint(pts[:, 1])[:, None, None].astype(np.intp) + off[None, :, None], 0, h - 1)
    return image[yi, xi].reshape(len(pts), 9, 3).astype(np.float64).mean(axis=1)


def _bare_places(geom: BoardGeometry, bare_slots: Sequence[int]) -> np.ndarray:
    """Rectified places that are bare when ``bare_slots`` hold no checker: along those points' axes
    (0.5-3 point widths from the base), the field between the points near the middle, the bar."""
    width, height = geom.size
    out = []
    for slot in bare_slots:
        col, top = geom.slot_column(slot)
        for depth in np.arange(0.5, 3.01, 0.5) * POINT_PX:
            out.append((geom.columns[col], depth if top else height - 1 - depth))
    cols = np.asarray(geom.columns)
    for x in 0.5 * (cols[1:] + cols[:-1]):
        for fy in (0.44, 0.56):
            out.append((float(x), fy * height))
    if geom.bar is not None:
        x_mid = 0.5 * (geom.bar[0] + geom.bar[1])
        for fy in np.linspace(0.1, 0.9, 9):
            out.append((x_mid, float(fy * height)))
    return np.clip(np.array(out, np.float64), 0, [width - 1, height - 1])


def learn(image: np.ndarray, lab: np.ndarray, geom: BoardGeometry,
          layout: Sequence[tuple[str | None, int]], discs: Mapping[str, Sequence[Lab]]) -> Appearance:
    """The board's look from a calibration frame whose points hold ``layout`` (24 ``(colour, count)``
    by slot, as read and checked).

    ``image``: the frame, BGR uint8 (H, W, 3); ``lab``: its rectified field in Lab (float32, the
    readers' :attr:`~vision.board.view.FieldView.lab`); ``discs``: colour name -> the Lab colour of
    each checker disc of that colour on the points (at least one; the spread needs two).
    """
    checkers = {}
    for name, cols in discs.items():
        arr = np.asarray(cols, np.float64).reshape(-1, 3)
        if not len(arr):
            continue
        mean = arr.mean(axis=0)
        spread = np.maximum(arr.std(axis=0) if len(arr) > 1 else 0.0, _MIN_SPREAD)
        m: Lab = (float(mean[0]), float(mean[1]), float(mean[2]))
        checkers[name] = CheckerColour(m, (float(spread[0]), float(spread[1]), float(spread[2])), m, len(arr))
    bare = [s for s in range(24) if not layout[s][1]]
    height = lab.shape[0]
    parity: list[list[np.ndarray]] = [[], []]
    for slot in bare:
        col, top = geom.slot_column(slot)
        x = int(np.clip(round(geom.columns[col]), 0, lab.shape[1] - 1))
        ys = (np.arange(1, 3) * POINT_PX) if top else (height - 1 - np.arange(1, 3) * POINT_PX)
        parity[slot % 2].append(np.median(lab[np.clip(ys, 0, height - 1), x], axis=0))
    places = _bare_places(geom, bare)
    cols = np.asarray(geom.columns)
    mids = np.clip(np.rint(0.5 * (cols[1:] + cols[:-1])).astype(np.intp), 0, lab.shape[1] - 1)
    field = np.median(lab[int(0.5 * height)][mids], axis=0)
    points = tuple(
        _as_lab(np.median(np.stack(p), axis=0)) if p else _as_lab(field) for p in parity
    )
    ref = _sample_bgr(image, geom, places)
    return Appearance(
        checkers=checkers,
        points=(points[0], points[1]),
        field=_as_lab(field),
        ref_xy=tuple((float(x), float(y)) for x, y in places),
        ref_bgr=tuple((float(b), float(g), float(r)) for b, g, r in ref),
    )


def _as_lab(v: np.ndarray) -> Lab:
    return (float(v[0]), float(v[1]), float(v[2]))


def estimate_gains(image: np.ndarray, geom: BoardGeometry,
                   model: Appearance) -> tuple[float, float, float] | None:
    """The frame's light relative to calibration, one gain per BGR channel, or None when too few
    reference samples agree (a hand, a cloth, most samples covered): then the caller keeps the last.

    The samples' log-ratios now/then; those within ``_AGREE_LOG`` of the median in every channel are
    averaged (weighted by their brightness: a dark point's ratio is the noisier). Clipped or too-dark
    samples do not vote.
    """
    if not model.ref_xy:
        return None
    ref = np.asarray(model.ref_bgr, np.float64)
    now = _sample_bgr(image, geom, np.asarray(model.ref_xy, np.float64))
    usable = (ref.min(axis=1) >= _DARKEST) & (now.max(axis=1) < 250) & (ref.max(axis=1) < 250) \
        & (now.min(axis=1) >= 2)
    if usable.sum() < max(6, _AGREE * len(ref)):
        return None
    logr = np.log(now[usable] / ref[usable])
    med = np.median(logr, axis=0)
    agree = (np.abs(logr - med) <= _AGREE_LOG).all(axis=1)
    if agree.sum() < _AGREE * len(ref):
        return None
    weight = ref[usable][agree].mean(axis=1)
    g = np.exp((logr[agree] * weight[:, None]).sum(axis=0) / weight.sum())
    g = np.clip(g, *_GAIN_RANGE)
    return (float(g[0]), float(g[1]), float(g[2]))


def correct(image: np.ndarray, gains: Sequence[float]) -> np.ndarray:
    """``image`` (BGR uint8 (H, W, 3)) as it would look in the calibration's light: each channel
    divided by its gain (one lookup table, about a millisecond for 1280x720). Unchanged at gains 1."""
    if all(abs(g - 1.0) < 0.02 for g in gains):
        return image
    lut = np.stack([np.clip(np.arange(256) / g, 0, 255) for g in gains], axis=1)
    return cv2.LUT(image, np.rint(lut).astype(np.uint8).reshape(256, 1, 3))


def name_stacks(colours: Sequence[Lab | None], model: Appearance) -> list[str | None] | None:
    """Each stack's colour name by the nearer learned checker colour (distance in spreads); None
    (use the frame's own split) when the model knows fewer than two checker colours."""
    if len(model.checkers) < 2:
        return None
    names = sorted(model.checkers)
    out: list[str | None] = []
    for c in colours:
        if c is None:
            out.append(None)
            continue
        d = [float(model.checkers[n].distance(np.asarray(c))) for n in names]
        out.append(names[int(np.argmin(d))])
    return out


def update(model: Appearance, colours: Sequence[Lab | None], names: Sequence[str | None],
           confidence: Sequence[float], gains: tuple[float, float, float] | None) -> Appearance:
    """The model after a frame read in it: each checker colour moved ``_RATE`` of the way toward the
    mean of the stacks named that colour with ring score at least ``_SURE`` and within ``_NEAR``
    spreads of it, and kept within ``_MAX_DRIFT`` spreads (``_MIN_DRIFT`` Lab at least) of its
    calibrated ``anchor``; ``gains``, when measured, kept as the last light seen. Pure."""
    checkers = dict(model.checkers)
    moved = False
    for name, cc in model.checkers.items():
        seen = [np.asarray(c, np.float64) for c, n, conf in zip(colours, names, confidence, strict=True)
                if c is not None and n == name and conf >= _SURE]
        seen = [c for c in seen if float(cc.distance(c)) <= _NEAR]
        if not seen:
            continue
        mean = np.asarray(cc.mean) + _RATE * (np.mean(seen, axis=0) - np.asarray(cc.mean))
        anchor = np.asarray(cc.anchor)
        step = mean - anchor
        limit = max(_MIN_DRIFT, _MAX_DRIFT * float(np.linalg.norm(cc.spread)))
        norm = float(np.linalg.norm(step))
        if norm > limit:
            mean = anchor + step * (limit / norm)
        checkers[name] = replace(cc, mean=_as_lab(mean))
        moved = True
    return replace(model, checkers=checkers, gains=gains if gains is not None else model.gains,
                   updates=model.updates + int(moved))
