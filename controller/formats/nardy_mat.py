"""Long nardy matches as Jellyfish ``.mat`` text, the flavour nardy tournament apps export.

The layout is the backgammon one of :mod:`controller.formats.mat`, read and written by the same
code; what differs is what the moves mean, said by one header::

    ; [Variation "LongNardy"]
    ; [Site "Tavla station"]

     5 point match

     Game 1
     White : 0                      Black : 0
      1) 63: 24/18 18/15               54: 24/20 20/15
      2) 66: 24/18(2) 18/12(2) ...
     ...
     14) 21: 2/0 1/0
          Wins 2 points

* each player numbers the points from his own head: his 24-point is the head, 1-6 his home, ``0``
  (or ``off``) borne off (RULES.md N2, "Numbering"); there is no bar, no hit mark and no cube;
* the left column is the player who had White in game 1 (RULES.md N3 alternates colours, so the
  first move of a game may be either column's);
* ``Wins 1 point`` is oin, ``Wins 2 points`` mars, ``Wins 3 points`` koks where that setting is on
  (RULES.md N9). A drawn game (the N9 "draw" setting) has no Jellyfish line and is not written.

:func:`check_nardy` replays such a record through the long nardy rules core (the head rule, blocks,
using the whole roll, bearing off: RULES.md N4-N8) and scores each game (N9).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from controller.formats.mat import write_mat
from controller.formats.record import OFF, Game, MatchRecord, PlayNote, Roll
from controller.rules.nardy import NardyPosition, legal_plays
from controller.rules.nardy.result import score
from controller.rules.nardy.settings import NardySettings

#: The ``Variation`` header value of a long nardy record.
VARIATION: Final = "LongNardy"


def is_nardy(record: MatchRecord) -> bool:
    """True when the record's ``Variation`` header says long nardy."""
    return (record.header("Variation") or "").replace(" ", "").lower() == VARIATION.lower()


def as_nardy(record: MatchRecord) -> MatchRecord:
    """``record`` with the ``Variation`` header first, as :func:`write_nardy_mat` writes it."""
    headers = tuple((k, v) for k, v in record.headers if k.lower() != "variation")
    return replace(record, headers=(("Variation", VARIATION), *headers))


def write_nardy_mat(record: MatchRecord) -> str:
    """The long nardy record as ``.mat`` text (the flavour in the module docstring).

    :raises ValueError: for an action nardy has no place for (a cube action, a bar move) or a
        drawn game, naming the game.
    """
    for game in record.games:
        for action in game.actions:
            if not isinstance(action, Roll):
                raise ValueError(f"game {game.number}: long nardy has no {action} (no cube, RULES.md N)")
            if any(s.src > 24 or s.hit for s in action.steps):
                raise ValueError(f"game {game.number}: {action} is no long nardy move (no bar, no hits)")
        if game.winner is None and game.points:
            raise ValueError(f"game {game.number}: a drawn game has no Jellyfish result line")
    return write_mat(as_nardy(record))


@dataclass(frozen=True, slots=True)
class NardyProblem:
    """One finding of :func:`check_nardy`: game, move number (0 for the game), one line."""

    game: int
    move: int
    message: str

    def __str__(self) -> str:
        return f"game {self.game}" + (f", move {self.move}" if self.move else "") + f": {self.message}"


def _sides(position: NardyPosition, mover: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return (position.me, position.opp) if mover == 0 else (position.opp, position.me)


def check_game(game: Game, settings: NardySettings | None = None) -> list[NardyProblem]:
    """Replay one long nardy game: every play legal (RULES.md N4-N8), the result as N9 scores it.

    After an illegal play the position follows the record (RULES.md N11: the opponent accepted it).
    """
    rules = settings or NardySettings()
    problems: list[NardyProblem] = []
    sides = [NardyPosition.initial().me, NardyPosition.initial().opp]
    for action in game.actions:
        if not isinstance(action, Roll):
            problems.append(NardyProblem(game.number, action.number, f"'{action}': long nardy has no cube"))
            continue
        p = action.player
        position = NardyPosition(sides[p], sides[1 - p])
        plays = legal_plays(position, *action.dice, rules)
        board = list(position.me)
        ok = action.note in (PlayNote.MOVES, PlayNote.CANNOT_MOVE)
        for step in action.steps:
            if not 1 <= step.src <= 24 or not board[step.src - 1] or not OFF <= step.dst < step.src:
                ok = False
                break
            board[step.src - 1] -= 1
            if step.dst != OFF:
                board[step.dst - 1] += 1
        result = NardyPosition(tuple(board), position.opp)
        if not ok:
            problems.append(NardyProblem(game.number, action.number, f"'{action}' cannot be played here"))
            continue
        if plays and result not in {play.result for play in plays}:
            problems.append(NardyProblem(game.number, action.number,
                                         f"'{action}' is not one of the {len(plays)} legal plays"))
        elif not plays and action.steps:
            problems.append(NardyProblem(game.number, action.number, f"'{action}': nothing can be played"))
        sides[p] = result.me
    final = score(NardyPosition(sides[0], sides[1]), rules)
    if game.winner is not None:
        if final is None:
            problems.append(NardyProblem(game.number, 0, "a winner is named but nobody bore off all 15"))
        elif (0 if final.winner == "me" else 1) != game.winner or final.points != game.points:
            problems.append(NardyProblem(game.number, 0, f"the record gives {game.points} points; the rules "
                                                         f"give {final.kind.value} ({final.points})"))
    return problems


def check_nardy(record: MatchRecord, settings: NardySettings | None = None) -> list[NardyProblem]:
    """:func:`check_game` for every game, and each game's score following from the one before."""
    problems: list[NardyProblem] = []
    for i, game in enumerate(record.games):
        problems += check_game(game, settings)
        if i + 1 < len(record.games) and game.winner is not None:
            final = list(game.score)
            final[game.winner] += game.points
            if tuple(final) != record.games[i + 1].score:
                after = record.games[i + 1].score
                message = f"the next game starts {after}, not {tuple(final)}"
                problems.append(NardyProblem(game.number, 0, message))
    return problems
