"""The same board read right in other light, at other scales and turns (issue 4: "read any real board").

Real webcam frames (../shared/data/boards-webcam; skipped when absent) are perturbed in memory the way
other cameras and rooms differ -- exposure (dark, bright), white balance (warm, cool), scale (0.75,
1.5), the camera turned (90, 180, 270 degrees, labels turned with it) and a soft JPEG (quality 50) --
and scored as ../shared/tools/eval_boards.py scores. Floors a little under the measured figures. The
default run perturbs a sample of the frames; the whole folder runs under ``-m slow``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.conftest import shared_data
from vision.eval.boards import Tally, score_reading
from vision.frames.images import load_image
from vision.reader import read_board

Label = dict
Perturb = Callable[[np.ndarray, Label], tuple[np.ndarray, Label]]


def _gain(b: float, g: float, r: float) -> Perturb:
    """Per-channel gains on the pixel values (a dimmer room, another white balance), clipped."""
    def apply(img: np.ndarray, label: Label) -> tuple[np.ndarray, Label]:
        out = np.clip(img.astype(np.float32) * np.float32([b, g, r]), 0, 255).astype(np.uint8)
        return out, label
    return apply


def _scale(f: float) -> Perturb:
    def apply(img: np.ndarray, label: Label) -> tuple[np.ndarray, Label]:
        h, w = img.shape[:2]
        interp = cv2.INTER_AREA if f < 1 else cv2.INTER_CUBIC
        return cv2.resize(img, (round(w * f), round(h * f)), interpolation=interp), label
    return apply


def _turn(code: int) -> Perturb:
    """The camera turned: the rows are relabelled as the turned frame shows them (eval_boards.py:
    landscape rowA = top row left to right; portrait rowA = left column top to bottom)."""
    def apply(img: np.ndarray, label: Label) -> tuple[np.ndarray, Label]:
        a, b = list(label["rowA"]), list(label["rowB"])
        if code == cv2.ROTATE_180:
            new = {"layout": "landscape", "rowA": b[::-1], "rowB": a[::-1]}
        elif code == cv2.ROTATE_90_CLOCKWISE:  # the top row becomes the right column
            new = {"layout": "portrait", "rowA": b, "rowB": a}
        else:  # counter-clockwise: the top row becomes the left column, read bottom to top
            new = {"layout": "portrait", "rowA": a[::-1], "rowB": b[::-1]}
        return cv2.rotate(img, code), {**label, **new}
    return apply


def _jpeg(quality: int) -> Perturb:
    def apply(img: np.ndarray, label: Label) -> tuple[np.ndarray, Label]:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
        assert ok
        return cv2.imdecode(buf, cv2.IMREAD_COLOR), label
    return apply


PERTURBATIONS: dict[str, Perturb] = {
    "dark": _gain(0.55, 0.55, 0.55),
    "bright": _gain(1.3, 1.3, 1.3),
    "warm": _gain(0.8, 1.0, 1.15),
    "cool": _gain(1.15, 1.0, 0.85),
    "scale75": _scale(0.75),
    "scale150": _scale(1.5),
    "turn90": _turn(cv2.ROTATE_90_CLOCKWISE),
    "turn180": _turn(cv2.ROTATE_180),
    "turn270": _turn(cv2.ROTATE_90_COUNTERCLOCKWISE),
    "jpeg50": _jpeg(50),
}


def _labels(folder: Path) -> list[Label]:
    lines = [json.loads(x) for x in (folder / "labels.jsonl").read_text().splitlines() if x.strip()]
    return [x for x in lines if x.get("board") is not False]


def _sweep(folder: Path, labels: list[Label], names: list[str]) -> dict[str, Tally]:
    """One tally per perturbation over ``labels`` (each frame read from disk once)."""
    tallies = {name: Tally() for name in names}
    for label in labels:
        image = load_image(folder / label["image"])
        for name in names:
            img, lab = PERTURBATIONS[name](image, label)
            tallies[name].add(score_reading(lab, read_board(img).to_json()))
    return tallies


def _total(tallies: dict[str, Tally]) -> tuple[int, int]:
    return sum(t.points_ok for t in tallies.values()), sum(t.points_n for t in tallies.values())


def test_turned_labels_follow_the_frame() -> None:
    """The relabelling of a turned frame: turning 180 degrees twice gives the label back, and a
    quarter turn puts the top row's left end where the turned frame shows it."""
    label = {"layout": "landscape", "rowA": [f"a{i}" for i in range(12)],
             "rowB": [f"b{i}" for i in range(12)]}
    img = np.zeros((3, 4, 3), np.uint8)
    half = PERTURBATIONS["turn180"](*PERTURBATIONS["turn180"](img, label))
    assert half[1] == label and half[0].shape == img.shape
    img90, lab90 = PERTURBATIONS["turn90"](img, label)
    assert img90.shape[:2] == (4, 3) and lab90["layout"] == "portrait"
    # the top row's left end lands at the top of the right column
    assert lab90["rowB"][0] == "a0" and lab90["rowA"][-1] == "b11"
    _, lab270 = PERTURBATIONS["turn270"](img, label)
    assert lab270["rowA"][-1] == "a0" and lab270["rowB"][0] == "b11"


@pytest.mark.slow
def test_perturbed_webcam_sample_reads() -> None:
    """A sample of clear frames under every perturbation (ten perturbations of four frames):
    measured 959/960 points (one on a brightened frame); floor 99.5 % over all, no perturbation
    losing more than one whole board. (Files perturbed the same way and saved as JPEG q85 read
    1096/1152 points before a dark frame's gain was undone, 1150/1152 after.)"""
    folder = shared_data("boards-webcam")
    labels = [x for x in _labels(folder) if not x.get("occluded")][::10]
    tallies = _sweep(folder, labels, list(PERTURBATIONS))
    ok, n = _total(tallies)
    assert n >= 40 * 24 * 0.9
    assert ok / n >= 0.995, {k: (t.points_ok, t.points_n) for k, t in tallies.items()}
    for name, t in tallies.items():
        assert t.boards_ok >= t.boards_n - 1, name


def test_perturbed_hand_is_still_flagged() -> None:
    """A frame labelled occluded stays flagged when dark, warm, cool or small."""
    folder = shared_data("boards-webcam")
    labels = [x for x in _labels(folder) if x.get("occluded")][:1]
    tallies = _sweep(folder, labels, ["dark", "warm", "cool", "scale75"])
    assert all(t.occ_ok == t.occ_n == 1 for t in tallies.values()), {
        k: (t.occ_ok, t.occ_n) for k, t in tallies.items()}


@pytest.mark.slow
def test_perturbed_webcam_all_frames() -> None:
    """Every labelled webcam frame under every perturbation: measured 8859/8880 points (99.76 %;
    cool 874/888, bright 884/888, warm 886/888, turn90 887/888, the rest exact) and 63/70 hands
    flagged (dark 5/7; bright, cool, scale150 and the turns 6/7)."""
    folder = shared_data("boards-webcam")
    tallies = _sweep(folder, _labels(folder), list(PERTURBATIONS))
    ok, n = _total(tallies)
    assert ok / n >= 0.995, {k: (t.points_ok, t.points_n) for k, t in tallies.items()}
    occ_ok = sum(t.occ_ok for t in tallies.values())
    occ_n = sum(t.occ_n for t in tallies.values())
    assert occ_ok >= occ_n - 10
