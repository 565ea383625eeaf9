"""Dice reader benchmark: accuracy on the real photos and milliseconds per frame, with peers.

Peers measured in the same run (machines here are shared and noisy, so the ratios are the result):
the camera's frame interval at 30 fps (33.3 ms), and OpenCV's own JPEG decoding of the same photos
(a floor no reader of a camera stream can go under). ``python -m bench.vision_dice [--quick]``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import cv2
import numpy as np
from rich.console import Console
from rich.table import Table

from vision.dice.cnn import CLASSIFIER, WEIGHTS, load_net
from vision.dice.photo import find_dice, read_dice, read_dice_with
from vision.eval.dice import score_board_labels, score_yolo_folder

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
FRAME_MS = 1000.0 / 30.0



@contextmanager
def _stage(err: Console, text: str) -> Iterator[None]:
    """One plain status line on stderr before a stage: no spinner thread, so nothing else runs (or
    takes CPU) while the stage is timed."""
    err.print(f"[dim]{text}[/dim]")
    yield

def _ms(fn, items: list, repeat: int = 1) -> float:  # type: ignore[no-untyped-def, type-arg]
    t0 = time.perf_counter()
    for _ in range(repeat):
        for it in items:
            fn(it)
    return (time.perf_counter() - t0) * 1000.0 / (len(items) * repeat)


def main(quick: bool = False) -> None:
    """Print the dice table (accuracy on dice-d6 and boards-webcam; ms per frame at two sizes)."""
    console = Console()
    err = Console(stderr=True)  # status lines on stderr, each set before (not inside) a timed loop
    table = Table(title="vision: dice reader")
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_column("peer (same run)")
    table.add_column("ratio", justify="right")
    d6 = DATA / "dice-d6"
    if d6.is_dir():
        with _stage(err, "dice: scoring dice-d6 photos"):
            score = score_yolo_folder(d6 / "images", d6 / "labels", every=4 if quick else 1)
        table.add_row(
            f"dice-d6 pips right ({score.images} photos)",
            f"{score.accuracy:.2f} %",
            "issue goal 99 %",
            f"{score.accuracy / 99.0:.2f}",
        )
        table.add_row(
            "dice-d6 missed / extra", f"{score.missed} / {score.extra}", f"of {score.labelled} dice", ""
        )
        paths = sorted((d6 / "images").glob("*.jpg"))[:: 20 if quick else 10]
        blobs = [np.fromfile(str(p), np.uint8) for p in paths]
        frames = [cv2.imdecode(b, cv2.IMREAD_COLOR) for b in blobs]
        with _stage(err, f"dice: timing JPEG decode and find_dice on {len(frames)} photos"):
            decode = _ms(lambda b: cv2.imdecode(b, cv2.IMREAD_COLOR), blobs, 3)
            own = _ms(find_dice, frames)
        h, w = frames[0].shape[:2]
        interval = f"frame interval {FRAME_MS:.1f} ms"
        table.add_row(f"ms per photo {w}x{h}", f"{own:.1f}", interval, f"{own / FRAME_MS:.2f}")
        table.add_row("", "", f"JPEG decode {decode:.2f} ms", f"{own / max(decode, 1e-6):.0f}")
        with _stage(err, "dice: timing the classical reader alone"):
            plain = _ms(lambda f: read_dice_with(f), frames)
        table.add_row("", "", f"classical alone {plain:.1f} ms", f"{own / max(plain, 1e-6):.2f}")
        net = load_net()
        if net is not None:
            sized = [(f, read_dice(f).die_size or 30.0) for f in frames]
            with _stage(err, "dice: timing the network's detector pass alone"):
                fwd = _ms(lambda fs: net.scan(*fs), sized)
            table.add_row("", "", f"network scan alone {fwd:.1f} ms", f"{own / max(fwd, 1e-6):.2f}")
            kib = (WEIGHTS.stat().st_size + CLASSIFIER.stat().st_size) / 1024
            table.add_row("network weights", f"{kib:.0f} KiB", "goal < 2 MB", f"{kib / 2048:.2f}")
        hd = [cv2.resize(f, (1280, 720), interpolation=cv2.INTER_LINEAR) for f in frames]
        with _stage(err, "dice: timing find_dice at 1280x720"):
            own_hd = _ms(find_dice, hd)
        table.add_row("ms per frame 1280x720", f"{own_hd:.1f}", interval, f"{own_hd / FRAME_MS:.2f}")
    else:
        table.add_row("dice-d6", "absent", str(d6), "")
    web = DATA / "boards-webcam"
    if web.is_dir() and not quick:
        from vision.reader import read_board

        # the same frames through both readers: the board reader (what the station, and `tavla dice`
        # on a photo of a board in play, use: dice at the checkers' scale, on the board only) and the
        # whole-photo reader (what `tavla dice` uses on a photo with no board: it also reads the
        # board's printing and lettering as dice)
        with _stage(err, "dice: scoring boards-webcam frames (board reader, whole-photo reader)"):
            on_board = score_board_labels(web / "labels.jsonl", web, lambda img: list(read_board(img).dice))
            whole = score_board_labels(web / "labels.jsonl", web)
        for name, ws in (("board reader", on_board), ("whole-photo reader", whole)):
            table.add_row(
                f"boards-webcam dice right, {name} ({ws.images} frames)",
                f"{ws.accuracy:.2f} %",
                f"extra readings {ws.extra}",
                "",
            )
    console.print(table)


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
