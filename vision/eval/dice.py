"""Score the dice reader against labelled real photos (used by the tests and ``bench/vision_dice.py``).

Two label formats:

* a YOLO folder (``dice-d6``): ``labels/NAME.txt`` lines ``CLASS CX CY W H`` (CLASS = pips - 1, box
  normalised). Scored exactly as ``../shared/tools/eval_dice.py`` scores ``tavla dice``: a predicted
  die matches the first unused labelled box containing its ``image_xy``; accuracy = labelled dice read
  right / all labelled dice.
* a ``labels.jsonl`` of board frames (``boards-webcam``): ``dice`` lists the values left to right with
  no positions, so a frame's dice are matched as a multiset (a labelled value counts as read when the
  reader returns it; every reading beyond the matched ones is an extra).
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.dice.photo import find_dice
from vision.reading import DieReading

__all__ = ["DiceScore", "score_yolo_folder", "score_board_labels"]

Reader = Callable[[np.ndarray], list[DieReading]]


@dataclass
class DiceScore:
    """Counts over a labelled set; ``ms`` is the reader's time per image (decoding excluded)."""

    images: int = 0
    labelled: int = 0
    right: int = 0
    wrong_value: int = 0
    missed: int = 0
    extra: int = 0
    ms: float = 0.0
    failures: list[str] = field(default_factory=list)

    @property
    def accuracy(self) -> float:
        """Labelled dice read right / all labelled dice, in percent (100.0 for an empty set)."""
        return 100.0 * self.right / self.labelled if self.labelled else 100.0

    def summary(self) -> str:
        """One line in the form eval_dice.py prints."""
        return (
            f"dice right {self.right}/{self.labelled} = {self.accuracy:.2f}%, wrong value "
            f"{self.wrong_value}, missed {self.missed}, extra {self.extra}"
        )


def _yolo_boxes(path: Path, w: int, h: int) -> list[tuple[int, float, float, float, float]]:
    boxes = []
    for line in path.read_text().splitlines():
        p = line.split()
        if len(p) != 5:
            continue
        c, cx, cy, bw, bh = int(p[0]), *map(float, p[1:])
        boxes.append((c + 1, (cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h))
    return boxes


def _timed(reader: Reader, image: np.ndarray, score: DiceScore) -> list[DieReading]:
    t0 = time.perf_counter()
    dice = reader(image)
    score.ms += (time.perf_counter() - t0) * 1000.0
    return dice


def _finish(score: DiceScore) -> DiceScore:
    if score.images:
        score.ms /= score.images
    return score


def _yolo_pairs(images: Path, labels: Path, every: int) -> Iterator[tuple[Path, Path]]:
    photos = sorted(p for p in images.iterdir() if p.suffix.lower() in {".jpg", ".jpeg", ".png"})
    for i, img in enumerate(photos):
        lab = labels / (img.stem + ".txt")
        if i % every == 0 and lab.exists():
            yield img, lab


def score_yolo_folder(images: Path, labels: Path, reader: Reader = find_dice, every: int = 1) -> DiceScore:
    """Score ``reader`` on a YOLO-labelled folder (every ``every``-th image, sorted by name).

    :raises FileNotFoundError: when ``images`` is not a folder.
    """
    score = DiceScore()
    for img_path, lab_path in _yolo_pairs(Path(images), Path(labels), every):
        image = cv2.imread(str(img_path), cv2.IMREAD_COLOR)
        if image is None:
            continue
        h, w = image.shape[:2]
        boxes = _yolo_boxes(lab_path, w, h)
        dice = _timed(reader, image, score)
        score.images += 1
        score.labelled += len(boxes)
        used: set[int] = set()
        for d in dice:
            if d.image_xy is None:
                continue
            x, y = d.image_xy
            hit = [
                i for i, b in enumerate(boxes) if i not in used and b[1] <= x <= b[3] and b[2] <= y <= b[4]
            ]
            if not hit:
                score.extra += 1
                continue
            used.add(hit[0])
            if d.value == boxes[hit[0]][0]:
                score.right += 1
            else:
                score.wrong_value += 1
                want = boxes[hit[0]][0]
                score.failures.append(f"VALUE {img_path.name}: want {want} got {d.value} at {x:.0f},{y:.0f}")
        missed = len(boxes) - len(used)
        if missed:
            score.missed += missed
            score.failures.append(f"MISSED {missed} {img_path.name}")
    return _finish(score)


def score_board_labels(labels: Path, root: Path, reader: Reader = find_dice) -> DiceScore:
    """Score ``reader`` on the dice of a board ``labels.jsonl`` (multiset match per frame; see module).

    Frames marked ``occluded`` are skipped (a hand may hide a die). ``wrong_value`` stays 0: without
    positions a wrong value is counted as one missed die and one extra.

    :raises FileNotFoundError: when ``labels`` does not exist.
    """
    score = DiceScore()
    for line in Path(labels).read_text().splitlines():
        if not line.strip():
            continue
        rec = json.loads(line)
        if rec.get("occluded"):
            continue
        image = cv2.imread(str(Path(root) / rec["image"]), cv2.IMREAD_COLOR)
        if image is None:
            continue
        want = Counter(int(d["value"]) for d in rec.get("dice", []))
        dice = _timed(reader, image, score)
        got = Counter(d.value for d in dice if d.value is not None)
        matched = sum((want & got).values())
        score.images += 1
        score.labelled += sum(want.values())
        score.right += matched
        score.missed += sum(want.values()) - matched
        score.extra += sum(got.values()) - matched
        if matched < sum(want.values()):
            wanted, seen = sorted(want.elements()), sorted(got.elements())
            score.failures.append(f"{rec['image']}: want {wanted} got {seen}")
    return _finish(score)
