"""gnubg's SGF match files (``GM[6]``): a reader and a writer gnubg imports.

gnubg saves one SGF game tree per game. The root node carries the match: ``MI[length:7][game:0]
[ws:0][bs:0]`` (length, 0-based game number, white's and black's score), ``PW``/``PB`` (players),
``RU[Crawford]`` or ``RU[Crawford:CrawfordGame]``, ``RE[W+2R]`` (winner, points, ``R`` when the
loser resigned), ``DT``, ``PC``, ``EV``, ``RO``. Each later node holds one move: ``B[41lpab]``
(dice ``41``, then two letters per checker move), ``W[double]``, ``B[take]``, ``B[drop]``.

Letters: gnubg numbers the points from white's side, so for ``W`` (our player 0, the left column
of a ``.mat`` file) ``a`` is point 1 and ``x`` point 24, and for ``B`` (player 1) ``a`` is point 24
and ``x`` point 1; ``y`` is the bar and ``z`` off (gnubg ``sgf.c``, ``Point()``).

Analysis properties (``A``, ``DA``, ``LU``, ``GS``, ...) and comments are skipped; only the main line
of a tree is read (gnubg does the same). ``parse_sgf(write_sgf(r)) == r`` for every record the reader
returns.
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
    RecordError,
    Resign,
    Roll,
    Step,
    Take,
    crawford_flags,
    layout_numbers,
    read_match_text,
)

_RESULT_RE: Final = re.compile(r"^\s*([WB])\+(\d+)(R?)\s*$")
_ROLL_RE: Final = re.compile(r"^([1-6])([1-6])([a-z]*)$")
_DATE_SGF: Final = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_DATE_MAT: Final = re.compile(r"^\d{4}\.\d{2}\.\d{2}$")
# SGF root property <-> .mat header, in the order the reader produces headers.
_HEADER_PROPS: Final = (("PC", "Site"), ("EV", "Event"), ("RO", "Round"), ("DT", "EventDate"))

# gnubg writes no variations; a bound keeps a hand-made file from exhausting the stack.
_MAX_DEPTH: Final = 200

_Prop = tuple[str, list[str], int]  # identifier, values, 1-based line
_Node = list[_Prop]


class _Scanner:
    """SGF's tree syntax: ``(`` nodes ``;`` ``ID[value][value]`` ... ``)``, with ``\\`` escapes."""

    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self.pos = 0
        self.line = 1

    def error(self, reason: str) -> RecordError:
        return RecordError(self.source, self.line, reason)

    def _advance(self, n: int) -> None:
        self.line += self.text.count("\n", self.pos, self.pos + n)
        self.pos += n

    def _skip_ws(self) -> None:
        text, n = self.text, len(self.text)
        start = self.pos
        while self.pos < n and text[self.pos].isspace():
            self.pos += 1
        self.line += text.count("\n", start, self.pos)

    def collection(self) -> list[list[_Node]]:
        """Every top-level tree's main line (a list of nodes)."""
        trees: list[list[_Node]] = []
        while True:
            self._skip_ws()
            if self.pos >= len(self.text):
                break
            if self.text[self.pos] != "(":
                got = self.text[self.pos : self.pos + 20]
                raise self.error(f"expected '(' to start a game tree, got {got!r}")
            trees.append(self._tree(0))
        return trees

    def _tree(self, depth: int) -> list[_Node]:
        if depth > _MAX_DEPTH:
            raise self.error(f"variations nested deeper than {_MAX_DEPTH}")
        self._advance(1)  # "("
        nodes: list[_Node] = []
        first_child: list[_Node] | None = None
        while True:
            self._skip_ws()
            if self.pos >= len(self.text):
                raise self.error("the file ends inside a game tree (a ')' is missing): truncated?")
            ch = self.text[self.pos]
            if ch == ";":
                if first_child is not None:
                    raise self.error("a node after a variation")
                self._advance(1)
                nodes.append(self._node())
            elif ch == "(":
                child = self._tree(depth + 1)
                if first_child is None:
                    first_child = child
            elif ch == ")":
                self._advance(1)
                if not nodes:
                    raise self.error("an empty game tree '()'")
                return nodes + (first_child or [])
            else:
                raise self.error(f"unexpected {self.text[self.pos:self.pos + 20]!r} in a game tree")

    def _node(self) -> _Node:
        props: _Node = []
        text, n = self.text, len(self.text)
        while True:
            self._skip_ws()
            start = self.pos
            while self.pos < n and (text[self.pos].isalpha()):
                self.pos += 1
            ident = text[start : self.pos]
            if not ident:
                return props
            line = self.line
            values: list[str] = []
            while True:
                self._skip_ws()
                if self.pos >= n or text[self.pos] != "[":
                    break
                values.append(self._value())
            if not values:
                raise self.error(f"property {ident} has no [value]")
            props.append(("".join(c for c in ident if c.isupper()), values, line))

    def _value(self) -> str:
        text, n = self.text, len(self.text)
        start_line = self.line
        self._advance(1)  # "["
        out: list[str] = []
        while True:
            if self.pos >= n:
                raise RecordError(self.source, start_line, "a property value has no closing ']': truncated?")
            ch = text[self.pos]
            if ch == "\\" and self.pos + 1 < n:
                out.append(text[self.pos + 1])
                self._advance(2)
                continue
            if ch == "]":
                self._advance(1)
                return "".join(out)
            out.append(ch)
            self._advance(1)


def _letter_point(ch: str, player: int) -> int:
    if ch == "y":
        return BAR
    if ch == "z":
        return OFF
    index = ord(ch) - ord("a")
    return index + 1 if player == 0 else 24 - index


def _point_letter(point: int, player: int) -> str:
    if point == BAR:
        return "y"
    if point == OFF:
        return "z"
    return chr(ord("a") + point - 1) if player == 0 else chr(ord("a") + 24 - point)


def _first(node: _Node, ident: str) -> tuple[str, int] | None:
    for name, values, line in node:
        if name == ident:
            return values[0], line
    return None


def _game(nodes: list[_Node], source: str) -> tuple[Game, dict[str, str], int, tuple[str, str], int]:
    """One tree -> (game, root properties, match length, players, root line)."""
    root = nodes[0]
    root_line = root[0][2] if root else 0
    props: dict[str, str] = {}
    mi: list[str] = []
    for name, values, line in root:
        if name == "GM" and values[0].strip() != "6":
            raise RecordError(source, line, f"GM[{values[0]}] is not a backgammon game (GM[6])")
        if name == "MI":
            mi = values
        elif name in ("AB", "AW", "AE", "PL", "CV", "CP"):
            raise RecordError(source, line, f"{name}[...]: a set-up position is not supported, only games "
                                            "from the start position")
        props.setdefault(name, values[0])
    info: dict[str, int] = {}
    for item in mi:
        key, _, value = item.partition(":")
        if value.strip().lstrip("-").isdigit():
            info[key.strip()] = int(value)
    length = info.get("length", 0)
    if length < 0:
        raise RecordError(source, root_line, f"MI[length:{length}] is negative")
    score = (info.get("ws", 0), info.get("bs", 0))
    number = info.get("game", 0) + 1
    players = (props.get("PW", "White"), props.get("PB", "Black"))
    rules = [r.strip() for r in props.get("RU", "").split(":")]
    crawford_game = "CrawfordGame" in rules

    actions: list[Action] = []
    for node in nodes[1:]:
        for name, values, line in node:
            if name in ("AB", "AW", "AE", "PL", "CV", "CP"):
                raise RecordError(source, line, f"{name}[...]: an edited position is not supported")
            if name not in ("B", "W"):
                continue
            player = 0 if name == "W" else 1
            value = values[0].strip()
            if value == "double":
                actions.append(Double(player, 0, 0, line))
            elif value == "take":
                actions.append(Take(player, 0, line))
            elif value == "drop":
                actions.append(Drop(player, 0, line))
            else:
                m = _ROLL_RE.match(value)
                if m is None or len(m.group(3)) % 2:
                    raise RecordError(source, line, f"{name}[{value}] is not a move (dice 1-6 then letter "
                                                    "pairs a-z), nor double/take/drop")
                letters = m.group(3)
                steps = []
                for i in range(0, len(letters), 2):
                    src = _letter_point(letters[i], player)
                    dst = _letter_point(letters[i + 1], player)
                    if letters[i] == "z" or letters[i + 1] == "y" or src > BAR or not 0 <= dst <= 24:
                        raise RecordError(source, line, f"{name}[{value}]: '{letters[i:i + 2]}' is not a "
                                                        "checker move")
                    steps.append(Step(src, dst))
                actions.append(Roll(player, (int(m.group(1)), int(m.group(2))), tuple(steps), line=line))
    # cube values: each double doubles the cube (the file does not write them)
    cube = 1
    numbered: list[Action] = []
    for action, (move_number, _) in zip(actions, layout_numbers(tuple(actions)), strict=True):
        if isinstance(action, Double):
            cube *= 2
            numbered.append(Double(action.player, cube, move_number, action.line))
        elif isinstance(action, Roll):
            numbered.append(Roll(action.player, action.dice, action.steps, number=move_number,
                                 line=action.line))
        elif isinstance(action, Take):
            numbered.append(Take(action.player, move_number, action.line))
        elif isinstance(action, Drop):
            numbered.append(Drop(action.player, move_number, action.line))
    winner: int | None = None
    points = 0
    resigned = False
    result = _first(root, "RE")
    if result is not None and result[0].strip():
        m = _RESULT_RE.match(result[0])
        if m is None:
            raise RecordError(source, result[1], f"RE[{result[0]}] is not a result like 'W+2' or 'B+1R'")
        winner = 0 if m.group(1) == "W" else 1
        points = int(m.group(2))
        resigned = bool(m.group(3))
        if points < 1:
            raise RecordError(source, result[1], f"RE[{result[0]}]: a game is won by 1 point or more")
    match_won = winner is not None and length > 0 and score[winner] + points >= length
    game = Game(number, score, tuple(numbered), winner, points, match_won, resigned, False,
                crawford_game if length > 0 else None, root_line)
    return game, props, length, players, root_line


def parse_sgf(text: str, source: str = "<text>") -> MatchRecord:
    """Read a gnubg SGF match (one ``GM[6]`` tree per game).

    :param text: the whole file.
    :param source: the file name used in error messages.
    :raises RecordError: (a ``ValueError``) naming ``source`` and the line: broken tree syntax or a
        truncated file, a tree that is not backgammon, a move that is not dice and letter pairs, a
        malformed ``RE``, games of different matches in one file, a set-up position.
    """
    trees = _Scanner(text, source).collection()
    if not trees:
        raise RecordError(source, 0, "no game tree: not an SGF file")
    games: list[Game] = []
    length = 0
    players: tuple[str, str] = ("", "")
    headers: list[tuple[str, str]] = []
    for i, nodes in enumerate(trees):
        game, props, glength, gplayers, line = _game(nodes, source)
        if i == 0:
            length, players = glength, gplayers
            for prop, key in _HEADER_PROPS:
                if prop in props:
                    value = props[prop]
                    if key == "EventDate" and _DATE_SGF.match(value):
                        value = value.replace("-", ".")
                    headers.append((key, value))
            rules = [r.strip() for r in props.get("RU", "").split(":")]
            if length > 0:
                headers.append(("Crawford", "On" if "Crawford" in rules else "Off"))
            if "Jacoby" in rules:
                headers.append(("Jacoby", "On"))
        elif (glength, gplayers) != (length, players):
            raise RecordError(source, line, f"game {game.number} belongs to another match "
                                            f"({glength} points, {gplayers})")
        games.append(game)
    return MatchRecord(length=length, players=players, games=tuple(games), headers=tuple(headers))


def read_sgf(path: str | Path) -> MatchRecord:
    """:func:`parse_sgf` of a file (UTF-8, or Latin-1 when it is not valid UTF-8).

    :raises RecordError: as :func:`parse_sgf`, or when the file cannot be read.
    """
    return parse_sgf(*read_match_text(path))


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def write_sgf(record: MatchRecord) -> str:
    """The record as gnubg SGF text: one ``GM[6]`` tree per game, no analysis.

    What SGF cannot hold is dropped: ``Resigns`` actions (the result's ``R`` says it), roll notes
    (``Cannot Move``, ``????``), ``Losses`` lines, and headers other than Site, Event, Round,
    EventDate, Crawford and Jacoby. ``parse_sgf(write_sgf(r)) == r`` for every record
    :func:`parse_sgf` returns.

    :raises ValueError: for a beaver (gnubg's SGF has no way to write one).
    """
    crawford = record.crawford_rule
    flags = crawford_flags(record)
    out: list[str] = []
    for index, game in enumerate(record.games):
        root = [
            "FF[4]GM[6]CA[UTF-8]AP[Tavla]",
            f"MI[length:{record.length}][game:{game.number - 1}][ws:{game.score[0]}][bs:{game.score[1]}]",
            f"PW[{_escape(record.players[0])}]PB[{_escape(record.players[1])}]",
        ]
        if index == 0:
            for prop, key in _HEADER_PROPS:
                value = record.header(key)
                if value is not None:
                    if key == "EventDate" and _DATE_MAT.match(value):
                        value = value.replace(".", "-")
                    root.append(f"{prop}[{_escape(value)}]")
        rules: list[str] = []
        if record.length > 0 and crawford:
            rules.append("Crawford")
        if record.length > 0 and (game.crawford if game.crawford is not None else flags[index]):
            rules.append("CrawfordGame")
        if (record.header("Jacoby") or "").lower() == "on":
            rules.append("Jacoby")
        if rules:
            root.append(f"RU[{':'.join(rules)}]")
        if game.winner is not None:
            root.append(f"RE[{'WB'[game.winner]}+{game.points}{'R' if game.resigned else ''}]")
        lines = ["(;" + "".join(root)]
        for action in game.actions:
            colour = "WB"[action.player]
            if isinstance(action, Roll):
                letters = "".join(_point_letter(s.src, action.player) + _point_letter(s.dst, action.player)
                                  for s in action.steps)
                lines.append(f";{colour}[{action.dice[0]}{action.dice[1]}{letters}]")
            elif isinstance(action, Double):
                lines.append(f";{colour}[double]")
            elif isinstance(action, Take):
                lines.append(f";{colour}[take]")
            elif isinstance(action, Drop):
                lines.append(f";{colour}[drop]")
            elif isinstance(action, Beaver):
                raise ValueError(f"game {game.number}: gnubg's SGF cannot record a beaver")
            elif isinstance(action, Resign):
                continue
        out.append("\n".join(lines) + ")\n")
    return "".join(out)
