"""A labelled folder of rendered boards, in the label format of ../shared/data/boards-webcam and
boards-real, so the reader is scored on renders by the same tool as on photos::

    python -m training.render_dataset /tmp/renders --n 60
    python3 ../shared/tools/eval_boards.py /tmp/renders/labels.jsonl /tmp/renders

``labels.jsonl`` (one object a line): ``image``, ``layout`` (``landscape``/``portrait``), ``rowA``,
``rowB`` (12 cells each: ``""`` or ``w``/``d`` + count, ``w`` the light checkers, ``d`` the dark --
landscape: rowA the top row left to right, rowB the bottom row left to right; portrait: rowA the left
column top to bottom, rowB the right column), ``bar``, ``off`` (cells), ``dice`` (``value``, ``sure``,
``status``, left to right), ``occluded``, ``notes`` (how it was rendered). ``truth.jsonl`` holds the
full `BoardReading` of each image (``tavla read`` JSON: image_xy of every point, die statuses, cube).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.reading import DARK, LIGHT, BoardReading
from vision.render.scene import Camera, random_spec, render

__all__ = ["label_for", "write_dataset", "main"]

LETTER = {LIGHT: "w", DARK: "d"}


def _cell(colour: str | None, count: int) -> str:
    return f"{LETTER[colour]}{count}" if colour and count else ""


def label_for(truth: BoardReading, image: str, portrait: bool, notes: str = "") -> dict[str, Any]:
    """The boards-webcam style label of a render's ground ``truth`` (rows from the points' image_xy
    by the rule ../shared/tools/eval_boards.py applies to a reading)."""
    pts = sorted(truth.points, key=lambda p: p.image_xy[0 if portrait else 1])  # type: ignore[index]
    along = 1 if portrait else 0
    a = sorted(pts[:12], key=lambda p: p.image_xy[along])  # type: ignore[index]
    b = sorted(pts[12:], key=lambda p: p.image_xy[along])  # type: ignore[index]
    dice = sorted(truth.dice, key=lambda d: d.image_xy[0] if d.image_xy else 0.0)
    return {
        "image": image,
        "layout": "portrait" if portrait else "landscape",
        "rowA": [_cell(p.colour, p.count) for p in a],
        "rowB": [_cell(p.colour, p.count) for p in b],
        "bar": [_cell(c, n) for c, n in sorted(truth.bar.items()) if n],
        "off": [_cell(c, n) for c, n in sorted(truth.off.items()) if n],
        "dice": [{"value": d.value, "sure": True, "status": str(d.status.value)} for d in dice],
        "occluded": truth.occluded,
        "notes": notes,
    }


def write_dataset(
    folder: str | Path, n: int, *, seed: int = 0, styles: Sequence[str] = ("paper", "wood", "tournament"),
    size: tuple[int, int] = (1280, 720), hands: float = 0.1, portrait: float = 0.15,
    progress: Any = None,
) -> Path:
    """Render ``n`` random boards into ``folder`` (created) with labels.jsonl and truth.jsonl; returns
    the labels path. Each board: a style from ``styles`` in a random look, a random camera (portrait
    with probability ``portrait``, then rendered at ``size`` turned to portrait), random lighting,
    noise, blur and JPEG quality, a hand over it with probability ``hands``. Deterministic for a seed.
    ``progress``: an optional callable called with (done, n) after each image.
    """
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    labels, truths = [], []
    for i in range(n):
        style = str(styles[i % len(styles)])
        k = int(rng.integers(1 << 30))
        spec = random_spec(k, style=style, variant=None, max_stack=int(rng.choice([5, 8, 15])))
        is_portrait = bool(rng.random() < portrait)
        cam = Camera.random(np.random.default_rng(k), portrait=is_portrait)
        hand = bool(rng.random() < hands)
        w, h = size
        r = render(
            spec, size=(h, w) if is_portrait else (w, h), camera=cam, seed=k,
            lighting=float(rng.uniform(0.1, 0.6)), noise=float(rng.uniform(1, 5)),
            blur=float(rng.choice([0.0, 0.0, 0.7, 1.2])), occluder="hand" if hand else None,
            jpeg_quality=int(rng.integers(60, 95)), clutter=bool(rng.random() < 0.3),
            glare=float(rng.choice([0.0, 0.0, 0.4, 0.8])),
        )
        name = f"render{i:04d}.jpg"
        cv2.imwrite(str(out / name), r.image, [cv2.IMWRITE_JPEG_QUALITY, 95])
        notes = (f"rendered: style={style} variant={spec.variant} pile={spec.pile} seed={k} "
                 f"tilt={cam.tilt_deg:.0f} roll={cam.roll_deg:.0f}")
        labels.append(label_for(r.truth, name, is_portrait, notes))
        truths.append({"image": name, **r.truth.to_json()})
        if progress is not None:
            progress(i + 1, n)
    (out / "labels.jsonl").write_text("".join(json.dumps(x) + "\n" for x in labels))
    (out / "truth.jsonl").write_text("".join(json.dumps(x) + "\n" for x in truths))
    return out / "labels.jsonl"


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m training.render_dataset FOLDER [--n N] [--seed S] [--styles paper,wood]``."""
    ap = argparse.ArgumentParser(prog="python -m training.render_dataset",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("folder")
    ap.add_argument("--n", type=int, default=60)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--styles", default="paper,wood,tournament")
    ap.add_argument("--hands", type=float, default=0.1, help="share of frames with a hand over the board")
    a = ap.parse_args(argv)
    styles = [s.strip() for s in a.styles.split(",") if s.strip()]
    from rich.progress import Progress

    with Progress() as bar:
        task = bar.add_task(f"rendering {a.n} boards", total=a.n)
        path = write_dataset(a.folder, a.n, seed=a.seed, styles=styles, hands=a.hands,
                             progress=lambda done, _n: bar.update(task, completed=done))
    print(f"wrote {a.n} images and {path}; score the reader with: "
          f"python3 ../shared/tools/eval_boards.py {path} {a.folder}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
