"""``tavla calibrate IMAGE -o CALIB.json [--layout opening|empty] [--variant backgammon|nardy]``.

Calibrates on a photo of the board in a known layout: the variant's start position (RULES.md B2,
N2; either seating and the mirror set-up) or an empty board. The board is found and read, the
reading checked against the layout, and the board's look (checker and point colours, light) learned
into the calibration file (:func:`vision.board.learn.calibrate_known`). When the reading does not
match, nothing is written and one line names the points that differ and what to do. Exit 0 when
saved, 2 on bad input or a refused calibration (one line on stderr, never a traceback).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import typer

from controller.cli.common import fail

__all__ = ["register"]

LAYOUTS = ("opening", "empty")


def register(app: typer.Typer) -> None:
    """Add the ``calibrate`` command to ``app``."""

    @app.command("calibrate")
    def calibrate(
        image: Path = typer.Argument(..., help="A photo of the board in the opening position (or empty)."),
        output: Path = typer.Option(..., "-o", "--output", help="Where to write the calibration (JSON)."),
        layout: str = typer.Option("opening", "--layout", help="What the board shows: opening or empty."),
        variant: str = typer.Option("backgammon", "--variant", help="backgammon or nardy (its opening)."),
    ) -> None:
        """Find the board in IMAGE, check it shows the --layout (opening or empty), learn its look and
        save the calibration to --output."""
        from controller.geometry import GeometryError, all_seatings, start_layout, start_layouts
        from controller.rules.variant import VARIANTS
        from vision.board import calibration as calib_mod
        from vision.board.learn import EMPTY, calibrate_known
        from vision.frames.images import ImageError, load_image

        if layout not in LAYOUTS:
            raise fail(f"--layout {layout!r}: use one of {', '.join(LAYOUTS)}")
        if variant not in VARIANTS:
            raise fail(f"--variant {variant!r}: use one of {', '.join(VARIANTS)}")
        try:
            frame = load_image(image)
        except ImageError as exc:
            raise fail(str(exc)) from None
        try:
            layouts = start_layouts(variant) if layout == "opening" else [EMPTY]
        except GeometryError as exc:
            raise fail(str(exc)) from None
        what = f"the {variant} opening position" if layout == "opening" else "an empty board"
        try:
            learned = calibrate_known(frame, layouts, what)
        except calib_mod.CalibrationError as exc:
            raise fail(f"{image}: calibration refused: {exc}") from None
        calib = learned.calibration
        home = None
        if layout == "opening":
            # the seating whose start layout matched: where the light player's home board lies
            matched = layouts[learned.layout]
            home = next(s.light_home() for s in all_seatings(variant) if start_layout(s) == matched)
            calib = replace(calib, home=home)
        try:
            calib_mod.save(calib, output)
        except OSError as exc:
            raise fail(f"cannot write {output}: {exc.strerror}") from None
        look = calib.appearance
        colours = ", ".join(f"{n} L{c.mean[0]:.0f}" for n, c in sorted(look.checkers.items())) if look else ""
        where = f"; light's home board {home}" if home else ""
        typer.echo(f"calibrated {image}: {what} checked{where}; checkers {colours or 'none'}; "
                   f"saved {output}")

