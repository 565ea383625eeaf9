"""``tavla vision-eval LABELS ROOT``: score the board reader on a labelled folder of photos.

Prints the failures of each image, then one summary: points exactly right, boards exactly right, dice
rolls right, bar and off right, occlusion flagged right, and the reader's mean milliseconds per frame.
Exit 0 after a complete run (the figures are the result), 2 when LABELS cannot be read.
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

        from controller.cli.read import ImageLoadError, load_image
        from vision.evaluate import ImageScore, Tally, score_reading
        from vision.reader import read_board

        console = Console()
        try:
            lines = [json.loads(x) for x in labels.read_text().splitlines() if x.strip()]
        except OSError as exc:
            typer.echo(f"tavla: cannot read {labels}: {exc.strerror}", err=True)
            raise typer.Exit(2) from None
        except ValueError as exc:
            typer.echo(f"tavla: {labels} is not JSON lines ({exc}): give a labels.jsonl file", err=True)
            raise typer.Exit(2) from None
        lines = [x for x in lines if isinstance(x, dict) and x.get("board") is not False and "image" in x]
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
                except ImageLoadError as exc:
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
