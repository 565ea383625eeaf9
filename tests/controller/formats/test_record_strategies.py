"""Hypothesis strategies for match records, used by the .mat, .sgf and replay tests (no tests here).

``mat_records()`` draws records in the domain of the ``.mat`` reader, ``sgf_records()`` in the
domain of the ``.sgf`` reader; ``mutated_texts()`` draws hand-edited or truncated match files.
"""

from __future__ import annotations

import functools
import string
from pathlib import Path

from hypothesis import strategies as st

from controller.formats.record import (
    Action,
    Beaver,
    Double,
    Drop,
    Game,
    MatchRecord,
    PlayNote,
    Resign,
    Roll,
    Step,
    Take,
)

FIXTURES = Path(__file__).resolve().parents[2] / "data" / "matches"

names = st.text(alphabet=string.ascii_letters + string.digits + "_-.", min_size=1, max_size=12)
dice = st.tuples(st.integers(1, 6), st.integers(1, 6))
players = st.integers(0, 1)


@st.composite
def steps(draw: st.DrawFn, hits: bool = True) -> Step:
    src = draw(st.integers(1, 25))
    dst = draw(st.integers(0, 24))
    return Step(src, dst, draw(st.booleans()) if hits else False)


@st.composite
def mat_actions(draw: st.DrawFn) -> Action:
    kind = draw(st.sampled_from(["roll", "roll", "roll", "double", "take", "drop", "beaver", "resign"]))
    player = draw(players)
    if kind == "roll":
        note = draw(st.sampled_from(list(PlayNote)))
        moves = tuple(draw(st.lists(steps(), max_size=4))) if note is PlayNote.MOVES else ()
        raw = ""
        if note is PlayNote.ILLEGAL_MARKER:
            raw = "(" + draw(st.text(alphabet=string.digits + ";-" + string.ascii_letters, max_size=30)) + ")"
        return Roll(player, draw(dice), moves, note, raw)
    if kind == "double":
        return Double(player, draw(st.integers(2, 4096)))
    if kind == "beaver":
        return Beaver(player, draw(st.integers(2, 4096)))
    if kind == "take":
        return Take(player)
    if kind == "drop":
        return Drop(player)
    return Resign(player)


header_keys = st.text(alphabet=string.ascii_letters + string.digits + " ", min_size=1, max_size=15).map(
    str.strip
).filter(bool)
header_values = st.text(alphabet=string.ascii_letters + string.digits + " .,:/-_", max_size=20)


def scores(length: int) -> st.SearchStrategy[tuple[int, int]]:
    """A game's score before it: below the match length (a match is over at it), any in money play."""
    top = length - 1 if length > 0 else 40
    return st.tuples(st.integers(0, top), st.integers(0, top))


@st.composite
def mat_games(draw: st.DrawFn, number: int, length: int = 0) -> Game:
    actions = tuple(draw(st.lists(mat_actions(), max_size=12)))
    winner = draw(st.one_of(st.none(), players))
    points = draw(st.integers(1, 200)) if winner is not None else 0
    return Game(
        number=number,
        score=draw(scores(length)),
        actions=actions,
        winner=winner,
        points=points,
        match_won=winner is not None and draw(st.booleans()),
        resigned=any(isinstance(a, Resign) for a in actions),
        loser_noted=winner is not None and draw(st.booleans()),
        crawford=None,
    )


@st.composite
def mat_records(draw: st.DrawFn) -> MatchRecord:
    """Any record :func:`controller.formats.mat.parse_mat` can return."""
    count = draw(st.integers(1, 4))
    first = draw(st.integers(1, 30))
    length = draw(st.integers(0, 25))
    games = tuple(draw(mat_games(first + i, length)) for i in range(count))
    headers = tuple(draw(st.lists(st.tuples(header_keys, header_values), max_size=4)))
    a = draw(names)
    b = draw(names)
    return MatchRecord(length=length, players=(a, b), games=games, headers=headers)


@st.composite
def sgf_games(draw: st.DrawFn, number: int, length: int) -> Game:
    raw: list[Action] = []
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.sampled_from(["roll", "roll", "roll", "double", "take", "drop"]))
        player = draw(players)
        if kind == "roll":
            raw.append(Roll(player, draw(dice), tuple(draw(st.lists(steps(hits=False), max_size=4)))))
        elif kind == "double":
            raw.append(Double(player, 0))
        elif kind == "take":
            raw.append(Take(player))
        else:
            raw.append(Drop(player))
    cube = 1
    actions: list[Action] = []
    for action in raw:  # the SGF reader numbers the cube: each double doubles it
        if isinstance(action, Double):
            cube *= 2
            action = Double(action.player, cube)
        actions.append(action)
    winner = draw(st.one_of(st.none(), players))
    points = draw(st.integers(1, 200)) if winner is not None else 0
    score = draw(scores(length))
    return Game(
        number=number,
        score=score,
        actions=tuple(actions),
        winner=winner,
        points=points,
        match_won=winner is not None and length > 0 and score[winner] + points >= length,
        resigned=winner is not None and draw(st.booleans()),
        loser_noted=False,
        crawford=draw(st.booleans()) if length > 0 else None,
    )


@st.composite
def sgf_records(draw: st.DrawFn) -> MatchRecord:
    """Any record :func:`controller.formats.sgf.parse_sgf` can return."""
    length = draw(st.integers(0, 25))
    count = draw(st.integers(1, 4))
    first = draw(st.integers(1, 30))
    games = tuple(draw(sgf_games(first + i, length)) for i in range(count))
    any_name = st.text(alphabet=string.ascii_letters + " ]\\[;()", max_size=10)
    headers: list[tuple[str, str]] = []
    for key in ("Site", "Event", "Round"):
        if draw(st.booleans()):
            headers.append((key, draw(st.text(alphabet=string.ascii_letters + " ]\\", max_size=10))))
    if draw(st.booleans()):
        y, m, d = draw(st.integers(1990, 2099)), draw(st.integers(1, 12)), draw(st.integers(1, 28))
        headers.append(("EventDate", f"{y:04d}.{m:02d}.{d:02d}"))
    if length > 0:
        headers.append(("Crawford", draw(st.sampled_from(["On", "Off"]))))
    if draw(st.booleans()):
        headers.append(("Jacoby", "On"))
    return MatchRecord(length=length, players=(draw(any_name), draw(any_name)), games=games,
                       headers=tuple(headers))


_EDIT_ALPHABET = string.ascii_letters + string.digits + " \n/*:()[];=>?-\\"
_TOKENS = ["Wins 2 points", "Doubles => 2", "Takes", "Drops", "63:", "13/7*", "bar/20", "6/off",
           "(2)", " Game 2\n", " 5 point match\n", "Illegal play (1;2)", "????", "Cannot Move",
           "(;", ")", "[", "]", ";B[", "W[double]", "MI[length:5]", "RE[W+", "GM[6]", "\\"]


@functools.cache
def _fixture_text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


@st.composite
def mutated_texts(draw: st.DrawFn, suffixes: tuple[str, ...]) -> tuple[str, str]:
    """``(file name, text)``: one of our fixtures, truncated and hand-edited at random."""
    paths = sorted(p for p in FIXTURES.iterdir() if p.suffix in suffixes)
    path = draw(st.sampled_from(paths))
    text = _fixture_text(path)
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["truncate", "delete", "insert", "token", "swap_lines", "dup_line"]))
        if not text:
            break
        at = draw(st.integers(0, len(text)))
        if op == "truncate":
            text = text[:at]
        elif op == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 20)) :]
        elif op == "insert":
            text = text[:at] + draw(st.text(alphabet=_EDIT_ALPHABET, min_size=1, max_size=8)) + text[at:]
        elif op == "token":
            text = text[:at] + draw(st.sampled_from(_TOKENS)) + text[at:]
        else:
            lines = text.split("\n")
            i = draw(st.integers(0, len(lines) - 1))
            j = draw(st.integers(0, len(lines) - 1))
            if op == "swap_lines":
                lines[i], lines[j] = lines[j], lines[i]
            else:
                lines.insert(j, lines[i])
            text = "\n".join(lines)
    return path.name, text
