"""Match export (issue 6 item 7): the games the referee recorded, as gnubg ``.sgf`` and Jellyfish ``.mat``
files written by the rules-core formats (controller.formats.record, mat, sgf).

Player 0 of the record is light, player 1 dark. A move that was accepted as played although illegal
(RULES.md B17) has no legal steps to write; it is written as the formats' "illegal play" marker with the
note ``(accepted as played)``. Long nardy has no such formats: its games are not exported.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

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
    write_record,
)

PLAYERS = ("light", "dark")


def match_record(state: Any) -> MatchRecord:
    """The record of every finished game in ``state.records`` (controller.game.State)."""
    games = []
    cube = 1
    for rec in state.records:
        actions: list[Any] = []
        cube = 1
        for turn in rec.turns:
            if turn.cube == "double":
                cube *= 2
                actions.append(Double(turn.player, cube))
            elif turn.cube == "take":
                actions.append(Take(turn.player))
            elif turn.cube == "drop":
                actions.append(Drop(turn.player))
            elif turn.cube == "beaver":
                cube *= 2
                actions.append(Beaver(turn.player, cube))
            elif turn.dice is not None:
                if turn.illegal:
                    actions.append(
                        Roll(turn.player, turn.dice, (), PlayNote.ILLEGAL_MARKER, "(accepted as played)")
                    )
                else:
                    steps = tuple(Step(src, dst) for src, dst in turn.moves)
                    actions.append(Roll(turn.player, turn.dice, steps))
        length = state.settings.match_length
        games.append(
            Game(
                number=rec.number,
                score=rec.score_before,
                actions=tuple(actions),
                winner=rec.winner,
                points=rec.points,
                match_won=bool(length) and rec.score_before[rec.winner] + rec.points >= length,
                crawford=rec.crawford if length else None,
            )
        )
    return MatchRecord(state.settings.match_length, PLAYERS, tuple(games), (("Site", "Tavla station"),))


def export_match(state: Any, folder: str | Path, stem: str = "tavla-match") -> list[Path]:
    """Write ``<stem>.sgf`` and ``<stem>.mat`` in ``folder``; returns their paths ([] for nardy or no game).

    :raises OSError: when the files cannot be written.
    """
    if state.settings.variant != "backgammon" or not state.records:
        return []
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    record = match_record(state)
    out = []
    for suffix in (".sgf", ".mat"):
        path = folder / f"{stem}{suffix}"
        write_record(record, path)
        out.append(path)
    return out
