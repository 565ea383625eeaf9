"""``tavla vision-eval LABELS ROOT``: score the board reader on a labelled folder of photos.

Prints the failures of each image, then one summary: points exactly right, boards exactly right, dice
rolls right, bar and off right, occlusion flagged right, and the reader's mean milliseconds per frame.
Exit 0 after a complete run (the figures are the result); 2 when LABELS cannot be read or labels no
photo, ROOT is not a folder, or not one labelled image could be read.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import typer

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    """Add the ``vision-eval`` command to ``app``."""

    @app.command("vision-eval")
    def vision_eval(
        labels: Path = typer.Argument(..., help="labels.jsonl of a labelled folder (see its README)."),
        root: Path = typer.Argument(..., help="Folder the labels' image paths are relative to."),
        verbose: bool = typer.Option(False, "--verbose", "-v", help="Also list the images read right."),
    ) -> None:
        """Read every labelled photo with the board reader and print how many points, boards, dice,
        bar/off counts and occlusion flags are right, with the failures of each image."""
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        from vision.eval.boards import ImageScore, Tally, score_reading
        from vision.frames.images import ImageError, load_image
        from vision.reader import read_board

        console = Console()

        def fail(message: str) -> typer.Exit:
            typer.echo(f"tavla: {message}", err=True)
            return typer.Exit(2)

        if not root.is_dir():
            raise fail(f"{root} is not a folder: give the folder the labels' image paths are relative to")
        try:
            text = labels.read_text()
        except OSError as exc:
            raise fail(f"cannot read {labels}: {exc.strerror}") from None
        lines = []
        for number, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    lines.append(json.loads(line))
                except ValueError as exc:
                    raise fail(f"{labels} line {number} is not JSON ({exc}): fix it or give a labels.jsonl "
                               "file") from None
        lines = [x for x in lines if isinstance(x, dict) and x.get("board") is not False and "image" in x]
        if not lines:
            raise fail(f"{labels} labels no board photo: give a labels.jsonl with \"image\" entries")
        tally = Tally()
        scores: list[ImageScore] = []
        ms: list[float] = []
        columns = (TextColumn("reading"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        with Progress(*columns, console=console, transient=True) as progress:
            task = progress.add_task("read", total=len(lines))
            for label in lines:
                path = root / str(label["image"])
                try:
                    frame = load_image(path)
                except ImageError as exc:
                    tally.errors += 1
                    console.print(f"[red]ERROR[/red] {label['image']}: {exc}")
                    progress.advance(task)
                    continue
                t0 = time.perf_counter()
                reading = read_board(frame).to_json()
                ms.append((time.perf_counter() - t0) * 1000.0)
                s = score_reading(label, reading)
                scores.append(s)
                tally.add(s)
                progress.advance(task)
        for s in scores:
            if s.failures:
                console.print(f"[yellow]{s.image}[/yellow]: " + " | ".join(s.failures), highlight=False)
            elif verbose:
                console.print(f"[green]ok[/green] {s.image}")
        pct = Tally.pct
        mean_ms = sum(ms) / max(len(ms), 1)
        console.print(
            f"points {tally.points_ok}/{tally.points_n} = {pct(tally.points_ok, tally.points_n):.1f}%, "
            f"boards {tally.boards_ok}/{tally.boards_n} = {pct(tally.boards_ok, tally.boards_n):.1f}%, "
            f"dice rolls {tally.dice_ok}/{tally.dice_n} = {pct(tally.dice_ok, tally.dice_n):.1f}%, "
            f"bar {tally.bar_ok}/{tally.bar_n}, off {tally.off_ok}/{tally.off_n}, "
            f"occluded flagged {tally.occ_ok}/{tally.occ_n}, unreadable {tally.errors}, "
            f"{mean_ms:.1f} ms/frame",
            highlight=False,
        )
        if not scores:
            raise fail(f"none of the {len(lines)} labelled images could be read under {root}: check ROOT")
