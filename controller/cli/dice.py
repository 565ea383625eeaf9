"""``tavla dice IMAGE``: the dice in any photo, as a JSON list (DESIGN.md "Contracts")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:  # the command's own imports stay inside it: `tavla --help` loads no vision code
    import numpy as np

    from vision.reading import DieReading

# Below this many pixels on its short side a photo cannot show a die's pips (vision.dice refuses it).
_MIN_SIDE = 16


# A photo whose board reading holds at least this many checkers on its points shows a game in play.
_GAME_CHECKERS = 15
# ... and so at least 24 - _GAME_CHECKERS = 9 points bare, each a whole triangle: a photo where the
# board search sees fewer than a third of those (vision.board.finder.field_triangles) shows none,
# and is not searched further. (Seen: 14 or more on every boards-real and boards-webcam photo, 20
# or more where a game is in play; at most 1 on the dice-d6 trays.)
_GAME_TRIANGLES = 3


def _board_dice(frame: np.ndarray) -> tuple[list[DieReading] | None, tuple[float, float] | None]:
    """The dice of a photo that shows a game in play: a board found (status ``ok``,
    ``too_many_checkers`` or ``occluded``), at least ``_GAME_CHECKERS`` checkers on its points. The
    board reader reads dice at the checkers' scale and only on the board and its margin, so it does
    not take a broadcast's lettering, the board's hinge, the cube's figures or the checkers' rims
    for dice, as the whole-photo reader (:func:`vision.dice.photo.find_dice`) can -- under a hand
    too, where a die it misses is a lesser error than the whole-photo reader's dice that are not
    there. None when the photo shows no such board (a tray, a table, an empty board). Also the
    cube's centre in the photo when the board reader found it, else None. A photo whose points do
    not show (``_GAME_TRIANGLES``) is not read: no game, no cube (the board search of a tray is
    most of the board reader's time on it)."""
    from vision.board.finder import field_triangles
    from vision.reader import read_board
    from vision.reading import FrameStatus

    in_play = (FrameStatus.OK, FrameStatus.TOO_MANY_CHECKERS, FrameStatus.OCCLUDED)
    bgr = frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == "uint8"  # (read_board converts others)
    if bgr and len(field_triangles(frame)) < _GAME_TRIANGLES:
        return None, None
    reading = read_board(frame)
    cube = reading.cube.image_xy if reading.board_found and reading.cube is not None else None
    # (a board read with more checkers of a colour than a set has, or under a hand, still shows a
    # game in play)
    if not reading.board_found or reading.status not in in_play:
        return None, cube
    if sum(n for _, n in reading.counts()) < _GAME_CHECKERS:
        return None, cube
    return list(reading.dice), cube


def photo_dice(frame: np.ndarray) -> list[DieReading]:
    """What ``tavla dice`` reads in a decoded photo (BGR uint8): the board reader's dice when it shows
    a game in play (:func:`_board_dice`), else the whole-photo reader's, clear of the cube.

    :raises vision.errors.DiceInputError: for an array the dice reader cannot take."""
    from vision.dice.photo import find_dice

    on_board, cube = _board_dice(frame)
    return on_board if on_board is not None else find_dice(frame, cube_xy=cube)


def _err(message: str) -> typer.Exit:
    typer.echo(f"tavla: {message}", err=True)
    return typer.Exit(2)


def register(app: typer.Typer) -> None:
    """Add the ``dice`` command to ``app``."""

    @app.command("dice")
    def dice(
        image: Path = typer.Argument(..., help="A photo (JPEG, PNG, ...) of dice on any surface."),
    ) -> None:
        """Print the dice in IMAGE as JSON: [{"value", "image_xy", "status", "confidence"}, ...].

        Each die gives its value (1-6, the pips of its top face), image_xy (its centre in pixels),
        status (flat or cocked; on a board in play also on_checker, off_board, on_bar...) and
        confidence (0-1); [] when there is none. A photo of a board in play is read by the board
        reader, any other photo by the whole-photo dice reader. Exit 2 when IMAGE cannot be read.
        """
        from vision.dice.photo import DiceInputError
        from vision.frames.images import ImageError, load_image

        try:  # the same checks and messages as `tavla read` (missing, a directory, empty, truncated)
            frame = load_image(image)
        except ImageError as exc:
            raise _err(str(exc)) from None
        h, w = frame.shape[:2]
        if min(h, w) < _MIN_SIDE:  # it decodes, so it is readable: it just holds no die
            typer.echo("[]")
            return
        try:
            found = photo_dice(frame)
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
