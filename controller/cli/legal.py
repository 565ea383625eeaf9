"""``tavla legal POSITION D1 D2 [--variant backgammon|nardy]`` -- the legal plays of a roll.

Contract (DESIGN.md, rules-core issue): one line per distinct legal play -- the play in gnubg
notation, a TAB, the gnubg Position ID of the resulting position encoded in the *same frame* as
the input (the player who just moved is still gnubg's ``board[1]``) -- sorted by that Position ID.
No line on stdout when no play is possible (RULES.md B8, N7); a one-line note on stderr then says
why, and the exit code stays 0. Exit 2 with a one-line reason on a malformed position or dice.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable

import typer

from controller.cli.common import fail

_HELP = """Print every distinct legal play of the roll DIE1 DIE2: the play in
gnubg notation, a TAB, and the position after it in the same frame as
the input (the mover is still the player on roll).

POSITION takes one of two forms.

Backgammon: a 14-character gnubg Position ID, player on roll =
board[1], e.g. 4HPwATDgc/ABMA (the start), as gnubg prints it with
its label ("Position ID: 4HPwATDgc/ABMA", and "Match ID: cAkAAAAAAAAA"
too), or gnubg's combined PositionID:MatchID text
(4HPwATDgc/ABMA:cAkAAAAAAAAA).

Nardy (with --variant nardy): the text N:MOVER/OPPONENT, the player
on roll first. Each side is written in its owner's own numbering
(his head is his 24, his home 1-6) as POINT or POINTxCOUNT entries
joined by commas, or '-' when none of his checkers is on the board.
Checkers not written are BORNE OFF, so a side with fewer than 15
written must have all of them in its home (points 1-6).
Examples: N:24x15/24x15 (the start); N:24x14,4/24x15 (after 24/4).

When no play is possible nothing is printed on stdout, a one-line
note goes to stderr, and the exit code is 0. Exit 2 on a malformed
position or dice."""


_fail = fail


def _parse_die(text: str) -> int:
    if not text.strip().isdigit() or not 1 <= int(text) <= 6:
        raise _fail(f"die {text!r} is not a number from 1 to 6; give two dice, e.g. `tavla legal ID 3 1`")
    return int(text)


def _id_advice(message: str) -> str:
    """Advice that fits the Position ID error ``message``."""
    if "label" in message:
        return "copy gnubg's line whole, e.g. `Position ID: 4HPwATDgc/ABMA`"
    if "no Position ID" in message:
        return "give the Position ID too, as gnubg prints it (Position ID: 4HPwATDgc/ABMA)"
    if "match ID" in message:
        return "copy gnubg's Match ID whole, or leave it out: the Position ID alone will do"
    if "14 characters" in message:
        return "give a 14-character gnubg Position ID such as 4HPwATDgc/ABMA (the start)"
    if "stray bits" in message:
        return "check the ID was copied whole (the start is 4HPwATDgc/ABMA)"
    return "that is no possible backgammon position; check the ID (the start is 4HPwATDgc/ABMA)"


# gnubg's board shows "GNU Backgammon  Position ID: 4HPwATDgc/ABMA" over "Match ID   : cAkAAAAAAAAA"
_LABEL = re.compile(r"(Position|Match)\s*ID\s*:\s*(\S*)", re.IGNORECASE)
_GNUBG = re.compile(r"GNU\s+Backgammon\b", re.IGNORECASE)


def _position_part(text: str) -> str:
    """The Position ID of the text gnubg prints -- its board's ``Position ID: X`` and
    ``Match ID   : Y`` labels (either or both lines, its "GNU Backgammon" title too), or its combined
    ``PositionID:MatchID`` -- with the Match ID checked; or ``text`` itself.

    :raises controller.formats.FormatError: on a malformed Match ID, a label with no ID after it, or
        a Match ID without a Position ID.
    """
    from controller.formats import FormatError, match_from_id

    labels: list[tuple[str, str]] = _LABEL.findall(text)
    if labels and not _LABEL.sub("", _GNUBG.sub("", text)).strip():
        ids = {kind.lower(): value for kind, value in labels}
        if len(ids) < len(labels) or not all(ids.values()):
            raise FormatError(f"{text.strip()!r} has a label without its ID, or one label twice")
        if "position" not in ids:
            raise FormatError(f"{text.strip()!r} holds a match ID but no Position ID")
        if "match" in ids:
            match_from_id(ids["match"])  # a malformed Match ID is an error, not silently ignored
        return ids["position"]
    pos, sep, match = text.strip().partition(":")
    if not sep:
        return text
    match_from_id(match)  # a malformed Match ID is an error, not silently ignored
    return pos


def backgammon_lines(position_text: str, d1: int, d2: int) -> list[str]:
    """The output lines for standard backgammon (RULES.md B4-B8), sorted by result Position ID.

    :raises controller.formats.FormatError: on a malformed Position ID.
    """
    from controller.formats import format_play, position_from_id, position_id
    from controller.rules import legal_plays

    position = position_from_id(_position_part(position_text))
    if position.is_game_over():  # RULES.md B9: whichever side bore off last, nothing is played
        return []
    lines = [(position_id(play.result), format_play(play)) for play in legal_plays(position, d1, d2)]
    return [f"{text}\t{pid}" for pid, text in sorted(lines)]


def backgammon_no_play_reason(position_text: str, d1: int, d2: int) -> str:
    """Why a valid Position ID has no legal play with ``d1-d2`` (RULES.md B8), in plain words.

    :raises controller.formats.FormatError: on a malformed Position ID.
    """
    from controller.formats import position_from_id

    position = position_from_id(_position_part(position_text))
    if position.is_game_over():
        who = "the player on roll" if not any(position.me) else "the opponent"
        return f"no legal play: the game is over ({who} has borne off all 15 checkers)"
    if position.me[24] > 0:
        # The mover enters on the opponent's home points 1-6 (his own 24-19).
        if all(n >= 2 for n in position.opp[0:6]):
            return "no legal play: the player on roll is on the bar against a closed board"
        return f"no legal play: the player on roll cannot enter from the bar with {d1}-{d2}"
    return f"no legal play for {d1}-{d2}"


def nardy_problems(position_text: str) -> list[str]:
    """Plain-word problems with a nardy text that parses (RULES.md N1, N4, N8, N9); [] if none.

    Besides :func:`~controller.rules.nardy.position.status_messages`, a checker counts as borne
    off only when every other checker of that side stands in its home (RULES.md N8: there is no
    hitting in nardy, so a side that has borne off never has a checker outside 1-6 again).

    :raises controller.rules.nardy.text.NardyTextError: on malformed text.
    """
    from controller.rules.nardy.position import CHECKERS, NardyStatus, status_messages
    from controller.rules.nardy.text import parse_position_text

    position = parse_position_text(position_text)
    # A block an accepted illegal move left (RULES.md N11) is still a position to play from.
    problems = status_messages(position, ignore=NardyStatus.BLOCK_ME | NardyStatus.BLOCK_OPP)
    for whose, side in (("the player on roll", position.me), ("the opponent", position.opp)):
        off, outside = CHECKERS - sum(side), sum(side[6:])
        if 0 < off and outside and sum(side) <= CHECKERS:
            problems.append(
                f"{whose} has {off} checker{'s' if off > 1 else ''} borne off (not written) while "
                f"{outside} still stand{'s' if outside == 1 else ''} outside his home (points 7-24); "
                f"write all {CHECKERS}"
            )
    return problems


def _nardy_lines(position: str, d1: int, d2: int) -> list[str]:
    from controller.rules.nardy.text import NardyTextError, parse_position_text

    try:
        nardy = importlib.import_module("controller.rules.nardy")
        cli_lines = nardy.cli_lines
    except (ModuleNotFoundError, AttributeError):
        message = "the long nardy rules are not available in this build; use --variant backgammon"
        raise _fail(message) from None
    if re.fullmatch(r"[A-Za-z0-9+/]{14}", position.strip()):
        raise _fail(
            f"{position!r} is a gnubg Position ID (backgammon); leave out --variant nardy, or give "
            "a nardy text such as N:24x15/24x15"
        )
    try:
        problems = nardy_problems(position)
    except NardyTextError as exc:
        raise _fail(f"{exc}") from None
    if problems:
        raise _fail(f"{position!r} is not a possible nardy position: {'; '.join(problems)}")
    try:
        lines: list[str] = cli_lines(position, d1, d2)
    except ValueError as exc:
        raise _fail(f"{exc}") from None
    if not lines:
        over = parse_position_text(position).is_game_over()
        typer.echo("no legal play: the game is over" if over else f"no legal play for {d1}-{d2}", err=True)
    return lines


def _backgammon_lines(position: str, d1: int, d2: int) -> list[str]:
    from controller.formats import FormatError

    if position.strip()[:2] in ("N:", "n:"):
        raise _fail(f"{position!r} is a nardy position text; add --variant nardy")
    try:
        lines = backgammon_lines(position, d1, d2)
        if not lines:
            typer.echo(backgammon_no_play_reason(position, d1, d2), err=True)
    except FormatError as exc:
        raise _fail(f"{exc}; {_id_advice(str(exc))}") from None
    return lines


# Each variant's positions are written in their own text (formats/), hence one reader per name.
_LINES: dict[str, Callable[[str, int, int], list[str]]] = {
    "backgammon": _backgammon_lines,
    "nardy": _nardy_lines,
}


def register(app: typer.Typer) -> None:
    """Add the ``legal`` command to ``app``."""

    @app.command("legal", help=_HELP)
    def legal(
        position: str = typer.Argument(
            ..., help="gnubg Position ID (backgammon) or N:MOVER/OPPONENT text (nardy); see above"
        ),
        die1: str = typer.Argument(..., help="first die, 1-6"),
        die2: str = typer.Argument(..., help="second die, 1-6"),
        variant: str = typer.Option("backgammon", "--variant", help="backgammon or nardy"),
    ) -> None:

        d1, d2 = _parse_die(die1), _parse_die(die2)
        lines_for = _LINES.get(variant)
        if lines_for is None:
            raise _fail(f"variant {variant!r} is unknown; use --variant backgammon or --variant nardy")
        lines = lines_for(position, d1, d2)
        for line in lines:
            typer.echo(line)
