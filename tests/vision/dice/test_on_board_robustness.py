"""The dice on a board under what another camera, room or compression does to a frame (issue 4 item 3:
frames of other games are kept back). Real webcam frames (../shared/data/boards-webcam; skipped when
absent) are perturbed in memory -- darker and brighter, warm and cool light, scaled 0.6-2x, turned,
JPEG quality 40-90, blurred -- and read by :func:`vision.reader.read_board`.

A wrong roll is worse than an unread one (RULES.md B15: the station asks the players when it sees no
whole roll, but would rule on a wrong one), so every case asserts no wrong roll; the right rolls
have a measured floor. The default run reads a sample (a few frames of each game, each perturbation
once); the full sweep (every labelled frame, every perturbation) is under ``-m slow``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np
import pytest

from tests.conftest import shared_data
from vision.reading import DieStatus


def _gain(k: float) -> Callable[[np.ndarray], np.ndarray]:
    return lambda img: cv2.convertScaleAbs(img, alpha=k)


def _tint(b: float, r: float) -> Callable[[np.ndarray], np.ndarray]:
    gains = np.array([b, 1.0, r], np.float32)
    return lambda img: np.clip(img.astype(np.float32) * gains, 0, 255).astype(np.uint8)


def _scale(k: float) -> Callable[[np.ndarray], np.ndarray]:
    how = cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR
    return lambda img: cv2.resize(img, None, fx=k, fy=k, interpolation=how)


def _jpeg(q: int) -> Callable[[np.ndarray], np.ndarray]:
    def f(img: np.ndarray) -> np.ndarray:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
        assert ok
        return cv2.imdecode(buf, cv2.IMREAD_COLOR)

    return f


def _blur(sigma: float) -> Callable[[np.ndarray], np.ndarray]:
    return lambda img: cv2.GaussianBlur(img, (0, 0), sigma)


def _turn(code: int) -> Callable[[np.ndarray], np.ndarray]:
    return lambda img: cv2.rotate(img, code)


PERTURBATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "dark55": _gain(0.55),
    "dark40": _gain(0.4),
    "bright": lambda img: cv2.convertScaleAbs(img, alpha=1.35, beta=10),
    "warm": _tint(0.8, 1.15),
    "cool": _tint(1.15, 0.8),
    "x0.6": _scale(0.6),
    "x0.75": _scale(0.75),
    "x1.5": _scale(1.5),
    "x2": _scale(2.0),
    "turn90": _turn(cv2.ROTATE_90_CLOCKWISE),
    "turn180": _turn(cv2.ROTATE_180),
    "turn270": _turn(cv2.ROTATE_90_COUNTERCLOCKWISE),
    "jpeg40": _jpeg(40),
    "jpeg60": _jpeg(60),
    "jpeg90": _jpeg(90),
    "blur1": _blur(1.0),
    "blur1.5": _blur(1.5),
}


@dataclass
class Tally:
    right: int = 0
    wrong: int = 0
    scored: int = 0
    cocked: int = 0

    def __post_init__(self) -> None:
        self.notes: list[str] = []


def _frames(every: int) -> list[tuple[str, list[int], np.ndarray]]:
    """Labelled webcam frames whose dice are all sure (and frames without dice): (name, roll, BGR)."""
    folder = shared_data("boards-webcam")
    out = []
    for line in (folder / "labels.jsonl").read_text().splitlines():
        label = json.loads(line)
        dice = label.get("dice", [])
        want = sorted(d["value"] for d in dice if d.get("sure") and d.get("value"))
        if label.get("occluded") or label.get("board") is False or len(want) != len(dice):
            continue
        image = cv2.imread(str(folder / label["image"]))
        assert image is not None, label["image"]
        out.append((label["image"], want, image))
    return out[::every]


def _sweep(frames: list[tuple[str, list[int], np.ndarray]], names: list[str], stride: int = 1
           ) -> dict[str, Tally]:
    """Read every frame under every perturbation named, or (``stride`` > 1) frame i under the
    perturbations j with (i + j) divisible by ``stride`` only."""
    from vision.reader import read_board

    tallies = {name: Tally() for name in names}
    for i, (image_name, want, image) in enumerate(frames):
        for j, name in enumerate(names):
            if (i + j) % stride:
                continue
            dice = read_board(PERTURBATIONS[name](image)).dice
            got = sorted(d.value for d in dice)
            t = tallies[name]
            # every die of these games lies flat: one read cocked would call a false re-throw
            t.cocked += sum(d.status == DieStatus.COCKED for d in dice)
            if not want:
                if got:
                    t.wrong += 1
                    t.notes.append(f"{image_name} {name}: no dice, got {got}")
                continue
            t.scored += 1
            if got == want:
                t.right += 1
            elif got and (len(got) > len(want) or any(got.count(v) > want.count(v) for v in got)):
                t.wrong += 1
                t.notes.append(f"{image_name} {name}: want {want} got {got}")
    return tallies


def test_no_wrong_roll_on_perturbed_webcam_frames_sample() -> None:
    """Each perturbation on a sample of frames (every third labelled frame, read under one
    perturbation in six, in turn: 35 rolls; the slow sweep below reads them all). Measured: 31
    right, none wrong."""
    tallies = _sweep(_frames(every=3), list(PERTURBATIONS), stride=6)
    wrong = [n for t in tallies.values() for n in t.notes]
    assert not wrong, wrong
    # RULES.md B15/N10: these dice all lie flat; none may be called cocked (a re-throw)
    assert not {k: t.cocked for k, t in tallies.items() if t.cocked}
    right = sum(t.right for t in tallies.values())
    scored = sum(t.scored for t in tallies.values())
    assert scored >= 35
    assert right >= FLOOR_SAMPLE, {k: (t.right, t.scored) for k, t in tallies.items()}


FLOOR_SAMPLE = 30


@pytest.mark.slow
@pytest.mark.parametrize("name", list(PERTURBATIONS))
def test_no_wrong_roll_on_perturbed_webcam_frames(name: str) -> None:
    """Every labelled webcam frame under one perturbation: no wrong roll, right rolls at least the
    floor (FLOORS: one under the rolls measured 12:42 UTC, of 28). Dice of 8-11 px edges (the
    2024 games) are not read at x0.6 (below 7.5 px a six's pips merge) nor their sixes under blur."""
    t = _sweep(_frames(every=1), [name])[name]
    assert t.wrong == 0, t.notes
    assert t.cocked == 0  # RULES.md B15/N10: every die of these games lies flat
    assert t.scored == 28
    assert t.right >= FLOORS[name], (t.right, t.scored)


# measured 12:42 UTC (right of 28): dark55 28, dark40 28, bright 28, warm 28, cool 28, x0.6 15,
# x0.75 23, x1.5 28, x2 28, turn90/180/270 28, jpeg40 21, jpeg60 27, jpeg90 28, blur1 15, blur1.5 15
FLOORS: dict[str, int] = {
    "dark55": 27, "dark40": 27, "bright": 27, "warm": 27, "cool": 27, "x0.6": 14, "x0.75": 22,
    "x1.5": 27, "x2": 27, "turn90": 27, "turn180": 27, "turn270": 27, "jpeg40": 20, "jpeg60": 26,
    "jpeg90": 27, "blur1": 14, "blur1.5": 14,
}
