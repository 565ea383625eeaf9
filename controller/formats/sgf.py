"""gnubg's SGF match files (``GM[6]``): a reader and a writer gnubg imports.

gnubg saves one SGF game tree per game. The root node carries the match: ``MI[length:7][game:0]
[ws:0][bs:0]`` (length, 0-based game number, white's and black's score), ``PW``/``PB`` (players),
``RU[Crawford]`` or ``RU[Crawford:CrawfordGame]``, ``RE[W+2R]`` (winner, points, ``R`` when the
loser resigned), ``DT``, ``PC``, ``EV``, ``RO``. Each later node holds one move: ``B[41lpab]``
(dice ``41``, then two letters per checker move), ``W[double]``, ``B[take]``, ``B[drop]``.

Letters: gnubg numbers the points from white's side, so for ``W`` (our player 0, the left column
of a ``.mat`` file) ``a`` is point 1 and ``x`` point 24, and for ``B`` (player 1) ``a`` is point 24
and ``x`` point 1; ``y`` is the bar and ``z`` off (gnubg ``sgf.c``, ``Point()``).

Besides moves gnubg writes (and this module reads): a dice-only node ``;PL[W]DI[63]`` for a roll
never played (then a resignation, or the record stops); a set-board node
``;PL[W]AE[a:y]AW[a][a]...AB[x]...`` (on a root: a game from a set-up position; after a FIBS
``Illegal play`` line: the position gnubg recovered); a resignation only as the result's ``R``
(gnubg 1.07 writes no node for an offer, accepted or declined); headers it has no property for as
``[Key "value"]`` lines in the root's ``GC``. Comments and analysis (``C``, ``A``, ``DA``, ``LU``,
``MR``, ``GS``, marks) are kept on the action or game they belong to and written back
(:mod:`controller.formats.sgf_props`). Only the main line of a tree is read (gnubg does the same).
``parse_sgf(write_sgf(r)) == r`` for every record the reader returns.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Final

from controller.formats.record import (
    BAR,
    OFF,
    SGF_HEADERS,
    Action,
    Beaver,
    Double,
    Drop,
    Game,
    MatchRecord,
    PlayNote,
    Props,
    RecordError,
    Resign,
    Roll,
    SetBoard,
    Step,
    Take,
    crawford_flags,
    layout_numbers,
    read_match_text,
)

_MI_NUMBERS: Final = ("length", "game", "ws", "bs")
_MI_NUMBER_RE: Final = re.compile(r"[0-9]{1,5}")
_RESULT_RE: Final = re.compile(r"^\s*([WB])\+([0-9]{1,6})(R?)\s*$")
_ROLL_RE: Final = re.compile(r"^([1-6])([1-6])([a-z]*)$")
_DATE_SGF: Final = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
_DATE_MAT: Final = re.compile(r"^[0-9]{4}\.[0-9]{2}\.[0-9]{2}$")
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


# Root properties the reader turns into record fields; the writer writes them back from those.
_ROOT_FIELDS: Final = frozenset(
    {"FF", "GM", "CA", "AP", "MI", "PW", "PB", "RU", "RE", "DT", "PC", "EV", "RO"}
)
_SETUP: Final = frozenset({"AE", "AW", "AB"})
_GC_HEADER_RE: Final = re.compile(r'^\s*\[\s*([^"\]]*?)\s+"(.*)"\s*\]\s*$')


def _player_of(value: str, source: str, line: int) -> int:
    colour = value.strip().upper()
    if colour not in ("W", "B"):
        raise RecordError(source, line, f"PL[{value}] is not W or B")
    return 0 if colour == "W" else 1


def _setup_points(values: list[str], player: int, source: str, line: int) -> list[int]:
    """The points an ``AW``/``AB`` list names, one entry per checker (``a:c`` spans a range)."""
    points: list[int] = []
    for value in values:
        first, _, last = value.strip().partition(":")
        last = last or first
        if not (len(first) == len(last) == 1 and "a" <= first <= last <= "y"):
            raise RecordError(source, line, f"[{value}] is not a point a-x or the bar y")
        points.extend(_letter_point(chr(c), player) for c in range(ord(first), ord(last) + 1))
    return points


def _set_board(node: _Node, source: str) -> SetBoard:
    """A gnubg set-board node, ``PL[W]AE[a:y]AW[a][a]...AB[x]...``: the whole board, as gnubg writes it."""
    player = 0
    counts = [[0] * 25, [0] * 25]
    cleared = False
    line = node[0][2]
    for name, values, pline in node:
        if name == "PL":
            player = _player_of(values[0], source, pline)
        elif name == "AE":
            cleared = [v.strip() for v in values] == ["a:y"]
        elif name in ("AW", "AB"):
            side = 0 if name == "AW" else 1
            for point in _setup_points(values, side, source, pline):
                counts[side][24 if point == BAR else point - 1] += 1
    if not cleared:
        raise RecordError(source, line, "AW/AB without AE[a:y]: only a whole board set at once (as gnubg "
                                        "writes it) is supported")
    for side in (0, 1):
        if sum(counts[side]) > 15:
            raise RecordError(source, line, f"the set board gives {'WB'[side]} {sum(counts[side])} checkers, "
                                            "more than 15")
    return SetBoard(player, (tuple(counts[0]), tuple(counts[1])), line=line,
                    props=_extra(node, {"PL", "AE", "AW", "AB"}))


def _extra(node: _Node, used: set[str] | frozenset[str]) -> Props:
    return tuple((name, tuple(values)) for name, values, _ in node if name not in used)


def _move(node: _Node, source: str) -> Action | None:
    """One move node -> its action (or None for a node with nothing Tavla reads)."""
    idents = {name for name, _, _ in node}
    if idents & _SETUP:
        return _set_board(node, source)
    for name, values, line in node:
        if name in ("CV", "CP"):
            raise RecordError(source, line, f"{name}[{values[0]}]: setting the cube by hand is not supported")
        if name == "DI" and "B" not in idents and "W" not in idents:
            # gnubg's dice-only node: a roll never played (then a resignation, or the record stops)
            pl = _first(node, "PL")
            if pl is None:
                raise RecordError(source, line, f"DI[{values[0]}] without PL[W] or PL[B]: whose roll?")
            m = _ROLL_RE.match(values[0].strip())
            if m is None or m.group(3):
                raise RecordError(source, line, f"DI[{values[0]}] is not two dice 1-6")
            player = _player_of(pl[0], source, pl[1])
            return Roll(player, (int(m.group(1)), int(m.group(2))), note=PlayNote.UNPLAYED, line=line,
                        props=_extra(node, {"PL", "DI"}))
        if name not in ("B", "W"):
            continue
        player = 0 if name == "W" else 1
        value = values[0].strip()
        props = _extra(node, {name})
        if value == "double":
            return Double(player, 0, 0, line, props)
        if value == "take":
            return Take(player, 0, line, props)
        if value == "drop":
            return Drop(player, 0, line, props)
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
        return Roll(player, (int(m.group(1)), int(m.group(2))), tuple(steps), line=line, props=props)
    return None


def _numbered(actions: list[Action]) -> tuple[Action, ...]:
    """Move numbers as a ``.mat`` layout gives them, and cube values (SGF does not write them)."""
    cube = 1
    numbered: list[Action] = []
    for action, (move_number, _) in zip(actions, layout_numbers(tuple(actions)), strict=True):
        if isinstance(action, Double):
            cube *= 2
            numbered.append(replace(action, value=cube, number=move_number))
        else:
            numbered.append(replace(action, number=move_number))
    return tuple(numbered)


def _game(nodes: list[_Node], source: str) -> tuple[Game, dict[str, str], int, tuple[str, str], int]:
    """One tree -> (game, root properties, match length, players, root line)."""
    root = nodes[0]
    root_line = root[0][2] if root else 0
    props: dict[str, str] = {}
    mi: list[str] = []
    root_extra: list[tuple[str, tuple[str, ...]]] = []
    setup: list[_Prop] = []
    for name, values, line in root:
        if name == "GM" and values[0].strip() != "6":
            raise RecordError(source, line, f"GM[{values[0]}] is not a backgammon game (GM[6])")
        if name == "MI":
            mi = values
        elif name in _SETUP or name == "PL":
            setup.append((name, values, line))
            continue
        elif name not in _ROOT_FIELDS:
            root_extra.append((name, tuple(values)))
        props.setdefault(name, values[0])
    info: dict[str, int] = {}
    for item in mi:
        key, _, value = item.partition(":")
        if key.strip() not in _MI_NUMBERS:
            continue  # gnubg writes only these; others are kept by no one
        if not _MI_NUMBER_RE.fullmatch(value.strip()):  # ASCII digits only: '²'.isdigit() is True
            raise RecordError(source, root_line, f"MI[{item[:40]}]: {key.strip()} is no whole number 0-99999")
        info[key.strip()] = int(value)
    length = info.get("length", 0)
    score = (info.get("ws", 0), info.get("bs", 0))
    if length and max(score) >= length:  # a match ends when a score reaches its length
        raise RecordError(source, root_line, f"MI score {score[0]}-{score[1]} is not below the match length "
                                             f"{length}")
    number = info.get("game", 0) + 1
    players = (props.get("PW", "White"), props.get("PB", "Black"))
    rules = [r.strip() for r in props.get("RU", "").split(":")]
    crawford_game = "CrawfordGame" in rules

    actions: list[Action] = []
    if any(name in _SETUP for name, _, _ in setup):
        actions.append(_set_board(setup, source))  # a game from a set-up position
    for node in nodes[1:]:
        action = _move(node, source)
        if action is not None:
            actions.append(action)
        elif node and actions:  # a node of comments only: they belong with the move before
            actions[-1] = replace(actions[-1], props=actions[-1].props + _extra(node, {"PL"}))
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
    game = Game(number, score, _numbered(actions), winner, points, match_won, resigned, False,
                crawford_game if length > 0 else None, root_line, tuple(root_extra))
    return game, props, length, players, root_line


def _gc_headers(game: Game) -> tuple[list[tuple[str, str]], Game]:
    """``[Key "value"]`` lines of a root's ``GC`` (where gnubg keeps .mat headers it has no property
    for: ``ClockType``, ``CubeLimit``) as headers; the rest of the comment stays on the game."""
    headers: list[tuple[str, str]] = []
    kept: list[tuple[str, tuple[str, ...]]] = []
    for name, values in game.props:
        if name != "GC":
            kept.append((name, values))
            continue
        rest = []
        for text_line in "\n".join(values).splitlines():
            m = _GC_HEADER_RE.match(text_line)
            if m is not None:
                headers.append((m.group(1), m.group(2)))
            elif text_line.strip():
                rest.append(text_line)
        if rest:
            kept.append(("GC", ("\n".join(rest),)))
    return headers, replace(game, props=tuple(kept))


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
            gc_headers, game = _gc_headers(game)
            headers.extend(gc_headers)
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


def _props_text(props: Props) -> str:
    return "".join(name + "".join(f"[{_escape(v)}]" for v in values) for name, values in props)


def _board_text(board: SetBoard) -> str:
    """``PL[W]AE[a:y]AW[..]AB[..]`` as gnubg writes a set board (every checker named)."""
    parts = [f"PL[{'WB'[board.player]}]AE[a:y]"]
    for side, ident in ((0, "AW"), (1, "AB")):
        letters = [_point_letter(BAR if i == 24 else i + 1, side) for i, n in enumerate(board.sides[side])
                   for _ in range(n)]
        if letters:
            parts.append(ident + "".join(f"[{c}]" for c in letters))
    return "".join(parts)


def _node_text(action: Action) -> str:
    colour = "WB"[action.player]
    if isinstance(action, SetBoard):
        body = _board_text(action)
    elif isinstance(action, Roll) and action.note is PlayNote.UNPLAYED:
        body = f"PL[{colour}]DI[{action.dice[0]}{action.dice[1]}]"  # gnubg's dice-only node
    elif isinstance(action, Roll):
        letters = "".join(_point_letter(s.src, action.player) + _point_letter(s.dst, action.player)
                          for s in action.steps)
        body = f"{colour}[{action.dice[0]}{action.dice[1]}{letters}]"
    elif isinstance(action, Double):
        body = f"{colour}[double]"
    elif isinstance(action, Take):
        body = f"{colour}[take]"
    elif isinstance(action, Drop):
        body = f"{colour}[drop]"
    else:
        raise ValueError(f"{action} has no SGF node")
    return ";" + body + _props_text(action.props)


def _mat_only_headers(record: MatchRecord) -> list[tuple[str, str]]:
    """Headers SGF has no property for; gnubg keeps them as ``[Key "value"]`` lines in ``GC``."""
    implied = {("Variation", "Backgammon")} | {(f"Player {i}", n) for i in (1, 2) for n in record.players}
    return [(k, v) for k, v in record.headers if k not in SGF_HEADERS and (k, v) not in implied]


def write_sgf(record: MatchRecord) -> str:
    """The record as gnubg SGF text: one ``GM[6]`` tree per game, as gnubg 1.07 saves a match.

    A roll never played (``????``, or a roll then a resignation once :func:`canonical_record
    <controller.formats.replay.canonical_record>` has marked it) is gnubg's dice-only node
    ``;PL[W]DI[63]``; a set board is ``;PL[W]AE[a:y]AW[..]AB[..]``; a resignation is the result's
    ``R`` (gnubg writes no node for it, nor for a declined one); headers SGF has no property for
    (``Match ID``, ``ClockType``, ``CubeLimit``...) go into the first root's ``GC`` as gnubg puts
    them. Comments and analysis (:data:`~controller.formats.record.Props`) are written back where
    they were read. What SGF cannot hold is dropped: ``Resigns`` actions (the ``R`` says it), roll
    notes ``Cannot Move``, ``Losses`` lines, the ``Variation`` and ``Player N`` headers, which
    ``GM[6]``, ``PW`` and ``PB`` say. ``parse_sgf(write_sgf(r)) == r`` for every record
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
        props = game.props
        if index == 0:
            for prop, key in _HEADER_PROPS:
                value = record.header(key)
                if value is not None:
                    if key == "EventDate" and _DATE_MAT.match(value):
                        value = value.replace(".", "-")
                    root.append(f"{prop}[{_escape(value)}]")
            extra = "".join(f'[{k} "{v}"]\n' for k, v in _mat_only_headers(record))
            if extra:
                comment = next((v[0] for n, v in props if n == "GC"), "")
                props = (("GC", (extra + comment,)),) + tuple(p for p in props if p[0] != "GC")
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
        root.append(_props_text(props))
        lines = ["(;" + "".join(root)]
        for action in game.actions:
            if isinstance(action, Beaver):
                raise ValueError(f"game {game.number}: gnubg's SGF cannot record a beaver")
            if isinstance(action, Resign):
                if action.props:
                    lines.append(";" + _props_text(action.props))
                continue
            lines.append(_node_text(action))
        out.append("\n".join(lines) + ")\n")
    return "".join(out)
