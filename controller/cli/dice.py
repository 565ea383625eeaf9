"""``tavla dice IMAGE``: the dice in any photo, as a JSON list (DESIGN.md "Contracts")."""

from __future__ import annotations

import json
from pathlib import Path

import typer

# Below this many pixels on its short side a photo cannot show a die's pips (vision.dice refuses it).
_MIN_SIDE = 16


def _err(message: str) -> typer.Exit:
    typer.echo(f"tavla: {message}", err=True)
    return typer.Exit(2)


def register(app: typer.Typer) -> None:
    """Add the ``dice`` command to ``app``."""

    @app.command("dice")
    def dice(
        image: Path = typer.Argument(..., help="A photo (JPEG, PNG, ...) of dice on any surface."),
    ) -> None:
        """Print the dice in IMAGE: [{"value", "image_xy", "status", "confidence"}, ...] ([] when none).

        ``value`` 1-6 (pips of the top face), ``image_xy`` the die's pixel centre in IMAGE, ``status``
        ``flat`` or ``cocked``, ``confidence`` 0-1. Exit 2 when IMAGE cannot be read.
        """
        import cv2
        import numpy as np

        from vision.dice import DiceInputError, find_dice

        if not image.is_file():
            raise _err(f"no image file {image}: give the path of a JPEG or PNG photo")
        data = np.fromfile(str(image), dtype=np.uint8)
        frame = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
        if frame is None:
            raise _err(f"cannot decode {image} as an image: check the file is a complete JPEG or PNG")
        h, w = frame.shape[:2]
        if min(h, w) < _MIN_SIDE:  # it decodes, so it is readable: it just holds no die
            typer.echo("[]")
            return
        try:
            found = find_dice(frame)
        except DiceInputError as exc:
            raise _err(f"{image}: {exc}") from None
        out = []
        for d in found:
            raw = d.to_json()
            if raw.get("image_xy") is not None:  # a die cut by the photo's edge: its centre stays inside
                x, y = raw["image_xy"]
                raw["image_xy"] = [min(max(float(x), 0.0), w - 1.0), min(max(float(y), 0.0), h - 1.0)]
            out.append(raw)
        typer.echo(json.dumps(out))
