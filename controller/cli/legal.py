"""``tavla legal POSITION D1 D2 [--variant backgammon|nardy]`` -- the legal plays of a roll.

Contract (DESIGN.md, rules-core issue): one line per distinct legal play -- the play in gnubg
notation, a TAB, the gnubg Position ID of the resulting position encoded in the *same frame* as
the input (the player who just moved is still gnubg's ``board[1]``) -- sorted by that Position ID.
No line when no play is possible. Exit 2 with a one-line reason on a malformed ID or dice.
"""

from __future__ import annotations

import importlib

import typer


def _fail(message: str) -> typer.Exit:
    # controller.cli imports this module at import time, so its `fail` helper is not used here.
    typer.echo(f"tavla: {message}", err=True)
    return typer.Exit(2)


def _parse_die(text: str) -> int:
    if not text.strip().isdigit() or not 1 <= int(text) <= 6:
        raise _fail(f"die {text!r} is not a number from 1 to 6; give two dice, e.g. `tavla legal ID 3 1`")
    return int(text)


def backgammon_lines(position_text: str, d1: int, d2: int) -> list[str]:
    """The output lines for standard backgammon (RULES.md B4-B8), sorted by result Position ID.

    :raises controller.formats.FormatError: on a malformed Position ID.
    """
    from controller.formats import format_play, position_from_id, position_id
    from controller.rules import legal_plays

    position = position_from_id(position_text)
    lines = [(position_id(play.result), format_play(play)) for play in legal_plays(position, d1, d2)]
    return [f"{text}\t{pid}" for pid, text in sorted(lines)]


def register(app: typer.Typer) -> None:
    """Add the ``legal`` command to ``app``."""

    @app.command("legal")
    def legal(
        position: str = typer.Argument(..., help="gnubg Position ID, player on roll = board[1]"),
        die1: str = typer.Argument(..., help="first die, 1-6"),
        die2: str = typer.Argument(..., help="second die, 1-6"),
        variant: str = typer.Option("backgammon", "--variant", help="backgammon or nardy"),
    ) -> None:
        """Print every distinct legal play: notation, TAB, Position ID of the result (same frame)."""
        from controller.formats import FormatError

        d1, d2 = _parse_die(die1), _parse_die(die2)
        if variant == "backgammon":
            try:
                lines = backgammon_lines(position, d1, d2)
            except FormatError as exc:
                raise _fail(f"{exc}; give a 14-character gnubg Position ID such as 4HPwATDgc/ABMA") from None
        elif variant == "nardy":
            try:
                nardy = importlib.import_module("controller.rules.nardy")
                cli_lines = nardy.cli_lines
            except (ModuleNotFoundError, AttributeError):
                message = "the long nardy rules are not available in this build; use --variant backgammon"
                raise _fail(message) from None
            try:
                lines = cli_lines(position, d1, d2)
            except ValueError as exc:
                raise _fail(f"{exc}") from None
        else:
            raise _fail(f"variant {variant!r} is unknown; use --variant backgammon or --variant nardy")
        for line in lines:
            typer.echo(line)
