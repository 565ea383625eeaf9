"""The demo's own renders read by the reader: frames whose points, bar, off or dice differ from the
renderer's truth (issue 14, "Demo"), per game, with the part that failed on each frame.

    python -m bench.demo_reading                       # backgammon and nardy, seed 7, 6 turns
    python -m bench.demo_reading --variant nardy --seed 1 --seed 2 --turns 6
    python -m bench.demo_reading --turns 0             # whole games (0: to the end)

Not a benchmark area of ``python -m bench`` (a reading takes about a second a frame); a sweep to run
by hand. Each wrong frame is printed with its differing points as ``slot: truth -> read``.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")


@dataclass(frozen=True)
class FrameDiff:
    """Where one frame's reading differs from the truth (empty lists: read exactly)."""

    index: int
    caption: str
    points: list[str]
    bar: str
    off: str
    dice: str

    @property
    def wrong(self) -> bool:
        return bool(self.points or self.bar or self.off or self.dice)

    def parts(self) -> str:
        out = []
        if self.points:
            out.append("points " + ", ".join(self.points))
        for name, text in (("bar", self.bar), ("off", self.off), ("dice", self.dice)):
            if text:
                out.append(f"{name} {text}")
        return "; ".join(out)


def _per_colour(counts: dict[str, int]) -> dict[str, int]:
    return {k: v for k, v in counts.items() if v}


def compare(index: int, caption: str, truth: Any, got: Any) -> FrameDiff:
    """The parts of ``got`` (a BoardReading) that differ from ``truth``."""
    if not got.board_found:
        return FrameDiff(index, caption, ["no board found"], "", "", "")
    points = [
        f"{s}: {tc or '-'} {tn} -> {gc or '-'} {gn}"
        for s, ((tc, tn), (gc, gn)) in enumerate(zip(truth.counts(), got.counts(), strict=True))
        if (tc, tn) != (gc, gn) and (tn or gn)
    ]
    bar = "" if _per_colour(truth.bar) == _per_colour(got.bar) else f"{truth.bar} -> {got.bar}"
    off = "" if _per_colour(truth.off) == _per_colour(got.off) else f"{truth.off} -> {got.off}"
    tdice = sorted(d.value or 0 for d in truth.dice)
    gdice = sorted(d.value or 0 for d in got.dice)
    dice = "" if tdice == gdice else f"{tdice} -> {gdice}"
    return FrameDiff(index, caption, points, bar, off, dice)


def sweep(variant: str, seed: int, turns: int | None, verbose: bool = True) -> list[FrameDiff]:
    """Every frame of one demo game read from scratch, as ``demo_events`` reads it."""
    import cv2

    from controller.station.demo import frames
    from vision.reader import read_board

    cv2.setNumThreads(1)
    out = []
    for i, (image, truth, caption) in enumerate(frames(seed=seed, turns=turns, variant=variant)):
        diff = compare(i, caption, truth, read_board(image))
        out.append(diff)
        if verbose and diff.wrong:
            print(f"  {variant} seed {seed} frame {i} ({caption}): {diff.parts()}", flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", choices=("backgammon", "nardy"))
    parser.add_argument("--seed", action="append", type=int)
    parser.add_argument("--turns", type=int, default=6, help="turns per game (0: the whole game)")
    parser.add_argument("-q", "--quiet", action="store_true", help="totals only")
    args = parser.parse_args()
    turns = args.turns or None
    total_wrong = total = 0
    for variant in args.variant or ["backgammon", "nardy"]:
        for seed in args.seed or [7]:
            diffs = sweep(variant, seed, turns, verbose=not args.quiet)
            wrong = [d for d in diffs if d.wrong]
            parts = {
                name: sum(1 for d in wrong if getattr(d, name))
                for name in ("points", "bar", "off", "dice")
            }
            print(
                f"{variant} seed {seed} turns {args.turns or 'all'}: {len(wrong)}/{len(diffs)} frames wrong"
                f" (points {parts['points']}, bar {parts['bar']}, off {parts['off']}, dice {parts['dice']})",
                flush=True,
            )
            total_wrong += len(wrong)
            total += len(diffs)
    print(f"total: {total_wrong}/{total} frames wrong")


if __name__ == "__main__":
    main()
