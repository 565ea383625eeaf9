"""Jellyfish ``.mat`` match text: a tolerant reader and a writer gnubg imports.

The reader accepts every dialect seen in the wild (``/work/shared/data/matches/README.md``):

* FIBS plain text and gnubg 1.08 exports: `` 12) 63: 13/7 8/5      51: 25/20 6/5``;
* Backgammon Galaxy ``; [Key "value"]`` headers, moves in any order, ``Losses N point`` lines;
* Backgammon Studio XG notation: ``bar``/``off``, merged hops (``13/5*``), ``(2)`` repeats,
  ``Cannot Move``, ``????`` for a roll never played, ``Wins`` on a numbered line;
* GammonView / HedgeHog: ``Name: 0`` score lines, dice written low-high, ``Resigns``;
* FIBS ``Illegal play (raw board)`` markers; ``Wins 100 points`` when a player left;
* gnubg 1.07's export of a roll never played: the result on the roll's own line
  (`` 23) 64: 13/7 7/3      51:  Wins 2 points``).

An action's column says whose it is: on a numbered line the first of two actions is the left
player's (player 0) and the second the right player's; a lone action is the right player's when
a wide gap separates it from the move number. On an unnumbered line (``Wins``, ``Losses``) the
column is compared with where the score line puts the right-hand name.

:func:`parse_mat` raises :class:`~controller.formats.record.RecordError` naming the file and the
line for anything it cannot read; it never lets another exception out. :func:`write_mat` writes
the layout gnubg's own export uses, and ``parse_mat(write_mat(r)) == r`` for every record the
reader produces.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

from controller.formats.record import (
    BAR,
    OFF,
    Action,
    Beaver,
    Double,
    Drop,
    Game,
    MatchRecord,
    PlayNote,
    RecordError,
    Resign,
    Roll,
    SetBoard,
    Step,
    Take,
    layout_numbers,
    read_match_text,
)

# A lone action this far (in spaces) after "12)" belongs to the right-hand column.
_RIGHT_GAP: Final = 6
# Width of the left column in what we write (gnubg's export uses about this).
_LEFT_WIDTH: Final = 28

_HEADER_RE: Final = re.compile(r'^\s*;\s*\[\s*([^"\]]*?)\s+"(.*)"\s*\]\s*$')
_LENGTH_RE: Final = re.compile(r"^\s*([0-9]{1,6})\s*point\s+match\s*$", re.IGNORECASE)
_UNLIMITED_RE: Final = re.compile(r"^\s*(unlimited|money)\s+(match|game|session)\s*$", re.IGNORECASE)
_GAME_RE: Final = re.compile(r"^\s*Game\s+([0-9]{1,6})\s*$", re.IGNORECASE)
_NAME: Final = r"([^\s:](?:[^:]*?[^\s:])?)"
_SCORE_RE: Final = re.compile(rf"^(\s*){_NAME}\s*:\s*([0-9]{{1,6}})(\s+){_NAME}\s*:\s*([0-9]{{1,6}})\s*$")
_NUMBERED_RE: Final = re.compile(r"^\s*([0-9]{1,6})\)(.*)$")
_TRAILING_GAME_RE: Final = re.compile(r"\s{2,}Game\s+([0-9]{1,6})\s*$", re.IGNORECASE)

_TOKEN_RE: Final = re.compile(
    r"""
      (?P<roll>[0-9][0-9]):
    | Doubles\s*=>\s*(?P<double>[0-9]{1,6})
    | Beavers?\s*=>\s*(?P<beaver>[0-9]{1,6})
    | (?P<take>Takes\b)
    | (?P<drop>Drops\b)
    | (?P<resign>Resigns\b)
    | Wins\s+(?P<wins>[0-9]{1,6})\s+points?(?P<match>\s+and\s+the\s+match)?
    | Losses\s+(?P<losses>[0-9]{1,6})\s+points?
    | (?P<cannot>Cannot\s+Move\b)
    | (?P<unplayed>\?\?\?\?)
    | Illegal\s+play\s*(?P<illegal>\([^)]*\))
    | (?P<step>(?:bar|[0-9]{1,2})\*?(?:/(?:bar|off|[0-9]{1,2})\*?)+)(?:\((?P<repeat>[0-9])\))?
    """,
    re.IGNORECASE | re.VERBOSE,
)
_HOP_RE: Final = re.compile(r"(bar|off|[0-9]{1,2})(\*?)", re.IGNORECASE)


class _Item:
    """One thing found on a line: an action start, a result (Wins/Losses), or a play token."""

    __slots__ = ("col", "kind", "value", "match", "steps", "note", "raw")

    def __init__(self, col: int, kind: str, value: int = 0) -> None:
        self.col = col
        self.kind = kind
        self.value = value
        self.match = False
        self.steps: list[Step] = []
        self.note = PlayNote.MOVES
        self.raw = ""


def _parse_steps(text: str, repeat: int, source: str, lineno: int) -> list[Step]:
    """``13/7*/5`` -> [13/7*, 7/5]; ``(2)`` repeats the whole chain."""
    hops = [(h.group(1).lower(), bool(h.group(2))) for h in _HOP_RE.finditer(text)]
    points: list[int] = []
    for i, (name, _) in enumerate(hops):
        if name == "bar":
            value = BAR
        elif name == "off":
            value = OFF
        else:
            value = int(name)
        first, last = i == 0, i == len(hops) - 1
        if name == "bar" and not first:
            raise RecordError(source, lineno, f"'{text}': 'bar' can only start a move")
        if name == "off" and not last:
            raise RecordError(source, lineno, f"'{text}': 'off' can only end a move")
        if first and not 1 <= value <= BAR:
            raise RecordError(source, lineno, f"'{text}': a move starts on a point 1-24 or the bar (25)")
        if not first and not (0 if last else 1) <= value <= 24:
            raise RecordError(source, lineno, f"'{text}': a move passes points 1-24 and ends on one or off")
        points.append(value)
    chain = [Step(points[i], points[i + 1], hops[i + 1][1]) for i in range(len(points) - 1)]
    if repeat < 1:
        raise RecordError(source, lineno, f"'{text}({repeat})': a repeat count must be 1 or more")
    return chain * repeat


def _scan(body: str, offset: int, source: str, lineno: int) -> list[_Item]:
    """Split a line's text into items; ``offset`` is the column where ``body`` starts."""
    items: list[_Item] = []
    pos = 0
    n = len(body)
    while pos < n:
        if body[pos].isspace():
            pos += 1
            continue
        m = _TOKEN_RE.match(body, pos)
        if m is None:
            bad = body[pos:].split()[0]
            raise RecordError(source, lineno, f"cannot read '{bad}' (expected dice like '63:', a move "
                                              "like '13/7', or Doubles/Takes/Drops/Wins)")
        col = offset + pos
        pos = m.end()
        if m.group("roll") is not None:
            d = m.group("roll")
            d1, d2 = int(d[0]), int(d[1])
            if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
                raise RecordError(source, lineno, f"dice '{d}' are not two numbers from 1 to 6")
            item = _Item(col, "roll", d1 * 10 + d2)
            items.append(item)
            continue
        for kind in ("double", "beaver", "wins", "losses"):
            value = m.group(kind)
            if value is not None:
                item = _Item(col, kind, int(value))
                item.match = kind == "wins" and m.group("match") is not None
                items.append(item)
                break
        else:
            for kind in ("take", "drop", "resign"):
                if m.group(kind) is not None:
                    items.append(_Item(col, kind))
                    break
            else:
                # a play token: belongs to the roll just read
                if not items or items[-1].kind != "roll":
                    raise RecordError(source, lineno, f"'{m.group(0)}' is not after any dice")
                roll = items[-1]
                if roll.note is not PlayNote.MOVES:
                    raise RecordError(source, lineno, f"'{m.group(0)}' after '{roll.note.value}'")
                if m.group("step") is not None:
                    rep = m.group("repeat")
                    roll.steps.extend(_parse_steps(m.group("step"), int(rep) if rep else 1, source, lineno))
                else:
                    if roll.steps:
                        raise RecordError(source, lineno, f"'{m.group(0)}' after checker moves")
                    if m.group("cannot") is not None:
                        roll.note = PlayNote.CANNOT_MOVE
                    elif m.group("unplayed") is not None:
                        roll.note = PlayNote.UNPLAYED
                    else:
                        roll.note = PlayNote.ILLEGAL_MARKER
                        roll.raw = m.group("illegal")
    return items


class _GameBuilder:
    def __init__(self, number: int, line: int) -> None:
        self.number = number
        self.line = line
        self.score: tuple[int, int] | None = None
        self.right_col = 0
        self.actions: list[Action] = []
        self.winner: int | None = None
        self.points = 0
        self.match_won = False
        self.loser_noted = False

    def add(self, item: _Item, player: int, number: int, source: str, lineno: int) -> None:
        if self.winner is not None and item.kind not in ("losses", "wins"):
            raise RecordError(source, lineno, f"game {self.number} already ended; unexpected '{item.kind}'")
        action: Action
        if item.kind == "roll":
            action = Roll(player, (item.value // 10, item.value % 10), tuple(item.steps), item.note,
                          item.raw, number, lineno)
        elif item.kind == "double":
            action = Double(player, item.value, number, lineno)
        elif item.kind == "beaver":
            action = Beaver(player, item.value, number, lineno)
        elif item.kind == "take":
            action = Take(player, number, lineno)
        elif item.kind == "drop":
            action = Drop(player, number, lineno)
        elif item.kind == "resign":
            action = Resign(player, number, lineno)
        elif item.kind == "losses":
            self.loser_noted = True
            return
        else:  # wins
            if self.winner is not None:
                raise RecordError(source, lineno, f"game {self.number} has two 'Wins' lines")
            if item.value < 1:
                raise RecordError(source, lineno, "'Wins 0 points' cannot end a game")
            self.winner = player
            self.points = item.value
            self.match_won = item.match
            return
        self.actions.append(action)

    def build(self, source: str) -> Game:
        if self.score is None:
            raise RecordError(
                source, self.line, f"game {self.number} has no score line ('Name : 0   Name : 0')"
            )
        actions = tuple(self.actions)
        return Game(
            number=self.number,
            score=self.score,
            actions=actions,
            winner=self.winner,
            points=self.points,
            match_won=self.match_won,
            resigned=any(isinstance(a, Resign) for a in actions),
            loser_noted=self.loser_noted and self.winner is not None,  # a truncated file may stop between
            crawford=None,
            line=self.line,
        )


def parse_mat(text: str, source: str = "<text>") -> MatchRecord:
    """Read Jellyfish ``.mat`` text (any dialect listed in the module docstring).

    :param text: the whole file.
    :param source: the file name used in error messages.
    :returns: the record; a game the file stops in the middle of has ``winner is None``.
    :raises RecordError: (a ``ValueError``) naming ``source`` and the line that cannot be read:
        an unknown token, dice outside 1-6, a move off the board, a game without a score line,
        no ``N point match`` line, or no game at all.
    """
    headers: list[tuple[str, str]] = []
    length: int | None = None
    players: tuple[str, str] | None = None
    games: list[Game] = []
    game: _GameBuilder | None = None
    for lineno, raw_line in enumerate(text.splitlines(), start=1):
        line = raw_line.replace("\t", "    ").rstrip()
        if not line.strip():
            continue
        if line.lstrip().startswith(";"):
            m = _HEADER_RE.match(line)
            if m is not None and game is None:
                headers.append((m.group(1).strip(), m.group(2)))
            continue  # other comment lines carry nothing we keep
        m = _LENGTH_RE.match(line)
        if m is not None:
            if length is not None or game is not None:
                raise RecordError(source, lineno, "a second 'point match' line")
            length = int(m.group(1))
            continue
        if _UNLIMITED_RE.match(line):
            if length is not None or game is not None:
                raise RecordError(source, lineno, "a second match length line")
            length = 0
            continue
        m = _GAME_RE.match(line)
        if m is not None:
            if length is None:
                raise RecordError(source, lineno, "'Game' before the 'N point match' line")
            if game is not None:
                games.append(game.build(source))
            game = _GameBuilder(int(m.group(1)), lineno)
            continue
        m = _NUMBERED_RE.match(line)
        if m is not None:
            if game is None or game.score is None:
                raise RecordError(source, lineno, "a move line before any 'Game N' and score line")
            number = int(m.group(1))
            body = m.group(2)
            # gnubg 1.07 sometimes writes the next game's header at the end of the last move line
            # when it wrote no result for a game (" 23) 45: 5/0 2/0        Game 2")
            next_game = _TRAILING_GAME_RE.search(body)
            if next_game is not None:
                body = body[: next_game.start()]
            items = _scan(body, m.start(2), source, lineno)
            # gnubg ends a game on the roll's line when nothing was played after it
            # (" 23) 64: 13/7 7/3      51:  Wins 2 points"): the result's column says whose it is.
            results: list[_Item] = []
            while items and items[-1].kind in ("wins", "losses") and len(items) > 1:
                results.insert(0, items.pop())
            if len(items) > 2:
                raise RecordError(source, lineno, "more than two actions on one move line")
            if len(items) == 2:
                sides = [0, 1]
            elif len(items) == 1:
                gap = items[0].col - m.start(2)
                sides = [1 if gap > _RIGHT_GAP else 0]
            else:
                continue  # an empty numbered line (Backgammon Studio ends games with one)
            threshold = max(12, game.right_col // 2)
            for item, side in zip(items, sides, strict=True):
                game.add(item, side, number, source, lineno)
            for item in results:
                game.add(item, 1 if item.col >= threshold else 0, number, source, lineno)
            if next_game is not None:
                games.append(game.build(source))
                game = _GameBuilder(int(next_game.group(1)), lineno)
            continue
        if game is not None and game.score is None:
            s = _SCORE_RE.match(line)
            if s is None:
                raise RecordError(source, lineno, f"expected the score line ('Name : 0   Name : 0'), got "
                                                  f"'{line.strip()}'")
            names = (s.group(2), s.group(5))
            if players is None:
                players = names
            elif names != players:
                if names == (players[1], players[0]):
                    raise RecordError(source, lineno, "the players changed columns; such files are not "
                                                      "supported")
                raise RecordError(source, lineno, f"players {names} differ from the first game's {players}")
            game.score = (int(s.group(3)), int(s.group(6)))
            if length and max(game.score) >= length:  # a match ends when a score reaches its length
                raise RecordError(source, lineno, f"score {game.score[0]}-{game.score[1]} is not below the "
                                                  f"match length {length}")
            game.right_col = s.start(5)
            continue
        if game is not None:
            items = _scan(line, 0, source, lineno)
            threshold = max(12, game.right_col // 2)
            for item in items:
                if item.kind not in ("wins", "losses", "resign", "take", "drop"):
                    raise RecordError(source, lineno, f"'{line.strip()}' outside a numbered move line")
                game.add(item, 1 if item.col >= threshold else 0, 0, source, lineno)
            continue
        raise RecordError(source, lineno, f"cannot read '{line.strip()}' before the first game")
    if game is not None:
        games.append(game.build(source))
    if length is None:
        raise RecordError(source, 0, "no 'N point match' line: not a Jellyfish .mat file")
    if not games or players is None:
        raise RecordError(source, 0, "no game in the file")
    return MatchRecord(length=length, players=players, games=tuple(games), headers=tuple(headers))


def read_mat(path: str | Path) -> MatchRecord:
    """:func:`parse_mat` of a file (UTF-8, or Latin-1 when it is not valid UTF-8).

    :raises RecordError: as :func:`parse_mat`, or when the file cannot be read.
    """
    return parse_mat(*read_match_text(path))


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _action_text(action: Action) -> str:
    """Jellyfish's own notation, as gnubg exports it: ``25`` for the bar, ``0`` for off, and a space
    before cube actions (`` 22)  Doubles => 4        Drops``)."""
    if isinstance(action, Roll):
        if action.note is PlayNote.MOVES:
            moves = " ".join(f"{s.src}/{s.dst}{'*' if s.hit else ''}" for s in action.steps)
            return f"{action.dice[0]}{action.dice[1]}: {moves}".rstrip()
        return str(action)
    return f" {action}"


def write_mat(record: MatchRecord) -> str:
    """The record as Jellyfish ``.mat`` text, in the layout of gnubg's own export.

    Moves are written as gnubg writes them (``25/20``, ``6/0``, ``13/7*``), one step per die.
    Headers are written as ``; [Key "value"]`` lines. ``parse_mat(write_mat(r)) == r`` for every
    record :func:`parse_mat` returns. Player names must not contain ``:`` or line breaks.

    :raises ValueError: when a player name cannot be written.
    """
    for name in record.players:
        if not name or ":" in name or "\n" in name or name != name.strip():
            raise ValueError(f"player name {name!r} cannot be written to a .mat file")
    out: list[str] = []
    for key, value in record.headers:
        out.append(f'; [{key} "{value}"]')
    if record.headers:
        out.append("")
    out.append(f" {record.length} point match")
    out.append("")
    left_name, right_name = record.players
    for game in record.games:
        out.append(f" Game {game.number}")
        left = f" {left_name} : {game.score[0]}"
        out.append(f"{left:<33} {right_name} : {game.score[1]}")
        lines: dict[int, list[str]] = {}
        # .mat has no way to set the board (format_losses names it): gnubg's export drops it too
        actions = tuple(a for a in game.actions if not isinstance(a, SetBoard))
        for action, (number, player) in zip(actions, layout_numbers(actions), strict=True):
            cells = lines.setdefault(number, ["", ""])
            cells[player] = _action_text(action)
        wins = ""
        if game.winner is not None:
            wins = f"Wins {_points(game.points)}" + (" and the match" if game.match_won else "")
            last = lines[max(lines)] if lines else None
            if game.winner == 1 and last is not None and not last[1]:
                last[1], wins = f" {wins}", ""  # as FIBS and gnubg: "Drops   Wins 2 points" on one line
        for number in sorted(lines):
            left_cell, right_cell = lines[number]
            head = f"{number:3d}) "
            if right_cell:
                pad = max(_LEFT_WIDTH, len(left_cell) + 2)
                out.append(f"{head}{left_cell:<{pad}}{right_cell}")
            else:
                out.append(f"{head}{left_cell}".rstrip())
        if game.winner is not None:
            if game.loser_noted:
                text = f"Losses {_points(game.points)}"
                out.append(f"      {text}" if game.winner == 1 else f"{'':34}{text}")
            if wins:
                out.append(f"      {wins}" if game.winner == 0 else f"{'':34}{wins}")
        elif game.loser_noted:
            raise ValueError(f"game {game.number}: a 'Losses' note without a winner cannot be written")
        out.append("")
    return "\n".join(out) + "\n"
