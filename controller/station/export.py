"""Match export (issue 6 item 7): the games the referee recorded, as gnubg ``.sgf`` and Jellyfish ``.mat``
files written by the rules-core formats (controller.formats.record, mat, sgf).

Player 0 of the record is light, player 1 dark, named by the settings (RULES.md B18). A move that was
accepted as played although illegal (RULES.md B17) has no legal steps to write; it is written as the
formats' "illegal play" marker with the note ``(accepted as played)``. Long nardy is exported as
``.mat`` only, in the flavour of controller.formats.nardy_mat (gnubg's SGF has no long nardy).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

from controller.formats.matchfile import write_record
from controller.formats.nardy_mat import write_nardy_mat
from controller.formats.record import (
    Beaver,
    Double,
    Drop,
    Game,
    MatchRecord,
    PlayNote,
    Roll,
    Step,
    Take,
)
from controller.formats.replay import canonical_record
from controller.rules.variant import variant_named

#: The station's rulings, as comment lines, by where they fell in the record: ``(game number,
#: index of the game's action they came before)``; an index past the last action is the game's end.
Notes = dict[tuple[int, int], list[str]]


def collect_rulings(notes: Notes, state: Any, effects: Any) -> None:
    """Add the rulings among ``effects`` (one ``game.step``) to ``notes``, at the place in the record
    ``state`` (the state after the step) has reached: ``"re-throw both dice: a die is cocked (B15)"``."""
    from controller.game.effects import Announce

    for e in effects:
        if isinstance(e, Announce):
            where = (state.game_number, len(state.turns))
            notes.setdefault(where, []).append(f"{e.ruling.reason} ({e.ruling.rule})")


def _with_notes(game: Game, notes: Notes) -> Game:
    """The game with its rulings as SGF comments (``C``) on the action each came before (the last
    action for those at the game's end)."""
    if not game.actions:
        return game
    actions = list(game.actions)
    for (number, index), lines in sorted(notes.items()):
        if number == game.number:
            i = min(index, len(actions) - 1)
            actions[i] = replace(actions[i], props=actions[i].props + (("C", ("\n".join(lines),)),))
    return replace(game, actions=tuple(actions))


def match_record(state: Any, notes: Notes | None = None) -> MatchRecord:
    """The record of every finished game in ``state.records`` (controller.game.State), and of the
    game in progress, unfinished; with ``notes``, the rulings as comments on the actions.

    The values a double or beaver offers come from the rules core's cube (controller.rules.cube):
    the game's automatic doubles first (RULES.md B13), then each recorded cube action, in the
    match's stake progression (B10).
    """
    from controller.game import cube_settings
    from controller.rules.cube import Cube, beaver, cube_value, offer_double, take

    settings = cube_settings(state.settings)
    stakes = settings.stakes

    def actions_of(turns: Any, automatic: int) -> tuple[Any, ...]:
        actions: list[Any] = []
        cube = Cube(level=automatic, automatic=automatic)
        for turn in turns:
            p: Literal[0, 1] = 0 if turn.player == 0 else 1
            if turn.cube == "double":
                actions.append(Double(turn.player, cube_value(cube.level + 1, stakes)))
                cube = offer_double(cube, p)
            elif turn.cube == "take":
                actions.append(Take(turn.player))
                cube = take(cube, p)
            elif turn.cube == "drop":
                actions.append(Drop(turn.player))
            elif turn.cube == "beaver":
                cube = beaver(cube, p, settings)
                actions.append(Beaver(turn.player, cube_value(cube.level + 1, stakes)))
            elif turn.dice is not None:
                if turn.illegal:
                    actions.append(
                        Roll(turn.player, turn.dice, (), PlayNote.ILLEGAL_MARKER, "(accepted as played)")
                    )
                else:
                    steps = tuple(Step(src, dst) for src, dst in turn.moves)
                    actions.append(Roll(turn.player, turn.dice, steps))
        return tuple(actions)

    length = state.settings.match_length
    games = []
    for rec in state.records:
        games.append(
            Game(
                number=rec.number,
                score=rec.score_before,
                actions=actions_of(rec.turns, rec.automatic),
                winner=rec.winner,
                points=rec.points,
                match_won=bool(length) and rec.winner is not None
                and rec.score_before[rec.winner] + rec.points >= length,
                crawford=rec.crawford if length else None,
            )
        )
    if state.turns and all(rec.number != state.game_number for rec in state.records):
        # the game in progress, unfinished (gnubg loads a match that stops mid-game)
        games.append(Game(number=state.game_number, score=state.score,
                          actions=actions_of(state.turns, state.cube_state.automatic),
                          crawford=state.crawford_game if length else None))
    headers: tuple[tuple[str, str], ...] = (("Site", "Tavla station"),)
    if state.settings.team_format != "single":  # RULES.md B18: recorded as ordinary games, named sides
        headers += (("Event", f"{state.settings.team_format} backgammon"),)
    if state.settings.money:  # the agreements a money session was played under (RULES.md B11, B12)
        on = {True: "On", False: "Off"}
        headers += (("Jacoby", on[settings.jacobi]), ("Beaver", on[settings.beavers]))
    players = (state.settings.light_player, state.settings.dark_player)
    if notes:
        games = [_with_notes(g, notes) for g in games]
    return MatchRecord(state.settings.match_length, players, tuple(games), headers)


def export_match(
    state: Any, folder: str | Path, stem: str = "tavla-match", skipped: list[str] | None = None,
    notes: Notes | None = None,
) -> list[Path]:
    """Write ``<stem>.sgf`` and ``<stem>.mat`` in ``folder`` (long nardy: ``<stem>.mat``); returns the
    paths written ([] for no game). A format that cannot hold the match (gnubg's SGF has no beaver,
    RULES.md B11; .mat no nardy draw) is left out, its reason appended to ``skipped``.

    :raises OSError: when the files cannot be written.
    """
    if not state.records and not state.turns:
        return []
    nardy = not variant_named(state.settings.variant).gnubg  # gnubg reads no nardy: Jellyfish .mat only
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    # plays one step per die with hits marked, resignations as RE[..R]: as gnubg writes them
    record = match_record(state, notes) if nardy else canonical_record(match_record(state, notes))
    out = []
    for suffix in (".mat",) if nardy else (".sgf", ".mat"):
        path = folder / f"{stem}{suffix}"
        try:
            if nardy:
                path.write_text(write_nardy_mat(record), encoding="utf-8")
            else:
                write_record(record, path)
        except ValueError as exc:  # the format cannot express this match; the journal still holds it
            path.unlink(missing_ok=True)
            if skipped is not None:
                skipped.append(f"{path.name}: {exc}")
            continue
        out.append(path)
    return out
