"""How the reader holds up when the labelled real photos are taken another way.

A user's board is photographed by another camera, from another angle, in another light. This bench
turns each labelled photo of ``../shared/data/boards-real`` (or ``BENCH_ROBUST_DATA``) into a family
of photos of the same position -- smaller, blurred, compressed, tilted, seen obliquely, darker, with a
colour cast -- and scores each family with the acceptance scorer
(``../shared/tools/eval_boards.py``), beside the untouched photos scored in the same run. A drop
against the untouched row says the reader leans on how our photos happen to be taken.

``BENCH_ROBUST_ONLY="oblique 12 %;half size"`` runs only those rows (the untouched row always runs).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from vision.eval.boards import read_labels

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
DATA = Path(os.environ.get("BENCH_ROBUST_DATA", SHARED / "data" / "boards-real"))
SCORER = SHARED / "tools" / "eval_boards.py"

Image = np.ndarray


def _keystone(image: Image, share: float) -> Image:
    """The far edge narrowed by ``share`` of the width on each side: a phone tilted toward the board."""
    h, w = image.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[w * share, 0], [w * (1 - share), 0], [w, h], [0, h]])
    matrix = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(image, matrix, (w, h), borderMode=cv2.BORDER_REPLICATE)


def _rotate(image: Image, degrees: float) -> Image:
    h, w = image.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    return cv2.warpAffine(image, matrix, (w, h), borderMode=cv2.BORDER_REPLICATE)


def _jpeg(image: Image, quality: int) -> Image:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def _gamma(image: Image, gamma: float) -> Image:
    lut = np.clip((np.arange(256) / 255.0) ** gamma * 255.0, 0, 255).astype(np.uint8)
    return cv2.LUT(image, lut)


def _cast(image: Image) -> Image:
    """A warm cast (tungsten light): blue down, red up."""
    return np.clip(image.astype(np.float32) * np.float32([0.8, 0.95, 1.15]), 0, 255).astype(np.uint8)


def _scale(image: Image, factor: float) -> Image:
    interpolation = cv2.INTER_AREA if factor < 1 else cv2.INTER_CUBIC
    return cv2.resize(image, None, fx=factor, fy=factor, interpolation=interpolation)


PERTURBATIONS: dict[str, Callable[[Image], Image]] = {
    "half size": lambda im: _scale(im, 0.5),
    "double size": lambda im: _scale(im, 2.0),
    "blur (sigma 2 px)": lambda im: cv2.GaussianBlur(im, (0, 0), 2.0),
    "JPEG quality 30": lambda im: _jpeg(im, 30),
    "turned 4° left": lambda im: _rotate(im, 4.0),
    "turned 4° right": lambda im: _rotate(im, -4.0),
    "oblique 6 %": lambda im: _keystone(im, 0.06),
    "oblique 12 %": lambda im: _keystone(im, 0.12),
    "darker (gamma 1.8)": lambda im: _gamma(im, 1.8),
    "brighter (gamma 0.6)": lambda im: _gamma(im, 0.6),
    "warm cast": _cast,
}

_SUMMARY = re.compile(r"points (\d+)/(\d+).*?boards (\d+)/(\d+).*?dice rolls (\d+)/(\d+)")


def _write_family(name: str, labels: list[dict], into: Path) -> Path:
    """The perturbed photos as PNG (no second compression) with their labels, under ``into``."""
    perturb = PERTURBATIONS.get(name)
    into.mkdir(parents=True, exist_ok=True)
    with (into / "labels.jsonl").open("w") as out:
        for label in labels:
            image = cv2.imread(str(DATA / label["image"]), cv2.IMREAD_COLOR)
            if image is None:
                continue
            if perturb is not None:
                image = perturb(image)
            stem = Path(label["image"]).stem + ".png"
            cv2.imwrite(str(into / stem), image)
            out.write(json.dumps({**label, "image": stem}) + "\n")
    return into


def _score(family: Path) -> tuple[int, int, int, int, int, int] | None:
    tavla = ROOT / ".venv" / "bin" / "tavla"
    run = subprocess.run(
        [sys.executable, str(SCORER), str(family / "labels.jsonl"), str(family), "--tavla", str(tavla)],
        capture_output=True, text=True, cwd=ROOT, env={**os.environ, "OMP_NUM_THREADS": "1"},
    )
    found = _SUMMARY.search(run.stdout)
    return tuple(int(g) for g in found.groups()) if found else None  # type: ignore[return-value]


def main() -> None:
    console = Console()
    if not (DATA / "labels.jsonl").exists() or not SCORER.exists():
        console.print(f"robustness: skipped, no {DATA / 'labels.jsonl'} or {SCORER} (needs ../shared)")
        return
    labels = [label for label in read_labels(DATA / "labels.jsonl") if label.get("board") is not False]
    only = {s.strip() for s in os.environ.get("BENCH_ROBUST_ONLY", "").split(";") if s.strip()}
    names = ["untouched"] + [n for n in PERTURBATIONS if not only or n in only]
    table = Table(title=f"The real photos taken another way ({len(labels)} photos, {DATA.name})")
    for column in ("photos", "points", "vs untouched", "boards", "dice rolls"):
        table.add_column(column, justify="left" if column == "photos" else "right")
    clean: float | None = None
    with tempfile.TemporaryDirectory() as tmp, Progress(console=console, transient=True) as progress:
        task = progress.add_task("scoring", total=len(names))
        for name in names:
            progress.update(task, description=f"scoring {name}")
            family = _write_family(name, labels, Path(tmp) / str(len(table.rows)))
            scored = _score(family)
            progress.advance(task)
            if scored is None:
                table.add_row(name, "scorer failed", "", "", "")
                continue
            pts, pts_n, boards, boards_n, dice, dice_n = scored
            share = 100.0 * pts / pts_n
            clean = share if clean is None else clean
            table.add_row(name, f"{pts}/{pts_n} = {share:.1f} %", f"{share - clean:+.1f}",
                          f"{boards}/{boards_n}", f"{dice}/{dice_n}")
    console.print(table)


if __name__ == "__main__":
    main()
