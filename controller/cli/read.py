"""``tavla read IMAGE [--calibration FILE]``: read a board photo, print the JSON of DESIGN.md "Contracts".

Exit 0 when a board was found, 3 when not, 2 when IMAGE (or the calibration file) cannot be used --
with one line on stderr saying what to do, never a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    """Add the ``read`` command to ``app``."""

    @app.command("read")
    def read(
        image: Path = typer.Argument(..., help="A photo (JPEG, PNG, ...) of a backgammon board from above."),
        calibration: Path | None = typer.Option(
            None, "--calibration", help="A calibration file (JSON) saved by `--save-calibration`."
        ),
        save_calibration: Path | None = typer.Option(
            None, "--save-calibration", help="Write where the board was found to this JSON file."
        ),
    ) -> None:
        """Print the board in IMAGE as one JSON object: points, bar, off, dice, cube, occluded.

        Exit 0 when a board was found, 3 when none was, 2 when IMAGE cannot be read.
        """
        from vision.board import calibration as calib_mod
        from vision.frames.images import ImageError, load_image
        from vision.reader import read_board

        def fail(message: str) -> typer.Exit:
            typer.echo(f"tavla: {message}", err=True)
            return typer.Exit(2)

        try:
            frame = load_image(image)
        except ImageError as exc:
            raise fail(str(exc)) from None
        calib = None
        if calibration is not None:
            try:
                calib = calib_mod.load(calibration)
            except calib_mod.CalibrationError as exc:
                hint = ("run `tavla calibrate IMAGE -o FILE` (the board in the opening position, or empty) "
                        "or `tavla read IMAGE --save-calibration FILE` to make one")
                raise fail(f"{exc}: {hint}") from None
            h, w = frame.shape[:2]
            if tuple(calib.geometry.image_size) != (w, h):
                cw, ch = calib.geometry.image_size
                raise fail(f"calibration is for {cw}x{ch} images, {image} is {w}x{h}: calibrate again")
            if not calib_mod.still_valid(frame, calib):
                # issue #4 item 1: a moved camera (or another board) is noticed and the board found again
                typer.echo(f"tavla: note: the board is not where {calibration} says (camera moved?): "
                           "searching the photo again; --save-calibration FILE keeps a new place", err=True)
                calib = None
        if calib is None and save_calibration is not None:
            calib = calib_mod.calibrate(frame)
        reading = read_board(frame, calib)
        if save_calibration is not None and calib is not None:
            try:
                calib_mod.save(calib, save_calibration)
            except OSError as exc:
                raise fail(f"cannot write {save_calibration}: {exc.strerror}") from None
        typer.echo(json.dumps(reading.to_json()))
        if save_calibration is not None and calib is None:
            typer.echo(f"tavla: note: no board found, {save_calibration} not written: aim the camera at "
                       "the whole board and read again", err=True)
        if not reading.board_found:
            raise typer.Exit(3)
