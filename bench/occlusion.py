"""Say so rather than guess: how often the reader flags a real photo that something covers, and how
often it flags one that nothing covers (issue 14).

Inputs: the unoccluded labelled photos of ../shared/data/boards-real and boards-webcam (skipped with
a note when absent), read at their own size without a calibration, as ``tavla read`` reads them. On
each, occluders are pasted (`vision.render.occluders`, seeded by the photo's index, nothing written
to disk): a hand, a skin-coloured blob and a cup over a stack and over a bare point; a hand with its
forearm and a sleeve reaching in from the frame's nearest edge; and the whole photo over-exposed
(gain 2.2-3.2, clipped) and under-exposed (gain 0.2-0.35, with sensor noise).

Rows, per kind: flagged (status not ``ok``) of the frames so made; ``ok`` but misread (status ``ok``
with a point's count or colour other than on the untouched photo: a guess); and, the peer, false
flags on the untouched photos. ``BENCH_OCCLUSION_LIMIT``: read only the first N photos of each set;
``BENCH_OCCLUSION_MISSED=1``: list the occluded frames read ``ok``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from rich.console import Console
from rich.table import Table

from vision.board.finder import find_board
from vision.board.geometry import BoardGeometry
from vision.eval.boards import read_labels
from vision.reader import read_board
from vision.reading import BoardReading, FrameStatus
from vision.render.occluders import expose, paste_occluder

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
SETS = ("boards-real", "boards-webcam")
# the kinds of frame made from each photo: (name, occluder, where)
KINDS = (
    ("hand over a stack", "hand", "stack"),
    ("hand over a bare point", "hand", "bare"),
    ("hand and arm from the edge", "hand", "edge"),
    ("blob over a stack", "blob", "stack"),
    ("blob over a bare point", "blob", "bare"),
    ("sleeve from the edge", "sleeve", "edge"),
    ("cup over a stack", "cup", "stack"),
    ("cup over a bare point", "cup", "bare"),
    ("over-exposed", "over", ""),
    ("under-exposed", "under", ""),
)


def photos(name: str) -> Iterator[tuple[str, np.ndarray]]:
    """The labelled photos of set ``name`` with a board and nothing over it."""
    folder = DATA / name
    for lab in read_labels(folder / "labels.jsonl"):
        if lab.get("occluded") or lab.get("board") is False:
            continue
        img = cv2.imread(str(folder / lab["image"]))
        if img is not None:
            yield lab["image"], img


def _radius(geom: BoardGeometry, xy: tuple[float, float]) -> float:
    """A checker's radius in image pixels at rectified ``xy``."""
    r = 0.45 * geom.point_w
    a, b = geom.to_image(np.array([xy, (xy[0] + r, xy[1])]))
    c = geom.to_image(np.array([(xy[0], xy[1] + r)]))[0]
    return float(0.5 * (np.hypot(*(b - a)) + np.hypot(*(c - a))))


def place(geom: BoardGeometry, counts: list[int], where: str,
          rng: np.random.Generator) -> tuple[tuple[float, float], float, tuple[float, float] | None]:
    """Where to paste: an image point over a stack (``stack``), a bare point (``bare``) or anywhere
    on the field (``edge``: then also an entry point beyond the nearest image edge), and a checker's
    radius there. ``counts``: the 24 points' counts on the untouched photo (slot order)."""
    d = 0.9 * geom.point_w  # a checker's diameter, rectified
    slots = [s for s in range(24) if (counts[s] > 0) == (where == "stack")]
    w, h = geom.size
    if where == "edge" or not slots:
        xy = (rng.uniform(geom.point_w, w - geom.point_w), rng.uniform(0.15 * h, 0.85 * h))
    else:
        slot = int(rng.choice(slots))
        col, top = geom.slot_column(slot)
        depth = d * rng.uniform(0.5, max(1.0, min(counts[slot], 5) - 0.5) if where == "stack" else 2.5)
        xy = (geom.columns[col], depth if top else h - depth)
    at = geom.to_image(np.array([xy]))[0]
    entry = None
    if where == "edge":
        iw, ih = geom.image_size
        gaps = [at[1], ih - at[1], at[0], iw - at[0]]
        side = int(np.argmin(gaps))
        entry = [(at[0], -20.0), (at[0], ih + 20.0), (-20.0, at[1]), (iw + 20.0, at[1])][side]
    return (float(at[0]), float(at[1])), _radius(geom, xy), entry


def frame(img: np.ndarray, geom: BoardGeometry, counts: list[int], occluder: str, where: str,
          rng: np.random.Generator) -> np.ndarray:
    """The photo with one occluder pasted (or its exposure pushed)."""
    if occluder == "over":
        return expose(img, rng.uniform(2.2, 3.2))
    if occluder == "under":
        return expose(img, rng.uniform(0.2, 0.35), rng)
    at, radius, entry = place(geom, counts, where, rng)
    return paste_occluder(img, occluder, at, radius, rng, entry)[0]


def _points(r: BoardReading) -> list[tuple[str | None, int]]:
    return [(p.colour, p.count) for p in r.points]


# the occluded frames read ``ok`` in the last :func:`measure` (kind: photo)
missed: list[str] = []


@dataclass
class Tally:
    frames: int = 0
    flagged: int = 0
    guessed: int = 0  # ok, but a point read otherwise than on the untouched photo


def measure(limit: int | None = None) -> tuple[dict[str, Tally], Tally, list[str]]:
    """The tallies per kind, the untouched photos' tally, and the false flags' names."""
    tallies = {name: Tally() for name, _, _ in KINDS}
    clean = Tally()
    false_flags: list[str] = []
    missed.clear()
    index = 0
    for set_name in SETS:
        for n, (name, img) in enumerate(photos(set_name)):
            if limit is not None and n >= limit:
                break
            index += 1
            base = read_board(img)
            clean.frames += 1
            if base.status != FrameStatus.OK:
                clean.flagged += 1
                false_flags.append(f"{set_name}/{name} ({FrameStatus(base.status).value})")
            geom = find_board(img)
            if geom is None:
                continue
            counts = [p.count for p in base.points] if base.points else [0] * 24
            for k, (kind, occluder, where) in enumerate(KINDS):
                rng = np.random.default_rng(1000 * index + k)
                got = read_board(frame(img, geom, counts, occluder, where, rng))
                t = tallies[kind]
                t.frames += 1
                if got.status != FrameStatus.OK:
                    t.flagged += 1
                elif _points(got) != _points(base):
                    t.guessed += 1
                if got.status == FrameStatus.OK:
                    missed.append(f"{kind}: {set_name}/{name}")
    return tallies, clean, false_flags


def main() -> None:
    cv2.setNumThreads(1)
    if not all((DATA / s / "labels.jsonl").exists() for s in SETS):
        Console().print(f"occlusion: {DATA} has no boards-real / boards-webcam: skipped")
        return
    limit = os.environ.get("BENCH_OCCLUSION_LIMIT")
    tallies, clean, false_flags = measure(int(limit) if limit else None)
    table = Table(title="Occluders pasted on the unoccluded real photos (issue 14)")
    for col in ("frames", "kind", "flagged (not ok)", "ok but misread"):
        table.add_column(col)
    total = Tally()
    for kind, t in tallies.items():
        total.frames += t.frames
        total.flagged += t.flagged
        total.guessed += t.guessed
        table.add_row(str(t.frames), kind, f"{t.flagged}/{t.frames}", f"{t.guessed}/{t.frames}")
    table.add_row(str(total.frames), "all occluded", f"{total.flagged}/{total.frames}",
                  f"{total.guessed}/{total.frames}")
    table.add_row(str(clean.frames), "untouched (peer: false flags)", f"{clean.flagged}/{clean.frames}", "-")
    Console().print(table)
    if false_flags:
        Console().print("false flags: " + ", ".join(false_flags))
    if os.environ.get("BENCH_OCCLUSION_MISSED"):
        Console().print("read ok: " + "; ".join(missed))


if __name__ == "__main__":
    main()
