"""Move notation as gnubg writes it (``24/18 13/11``, ``bar/22*``, ``6/off``, ``8/4(2)``, ``13/7*/5``).

Writer (:func:`format_play`) -- gnubg's conventions, checked against ``gnubg.movetupletostring``
on random positions (tests/controller/formats/test_notation.py):

1. The single-die steps are ordered by source point, highest first (then destination, highest
   first); the bar is 25, off 0.
2. Steps of one checker are joined (``24/21`` + ``21/20`` = ``24/20``): taking the steps in that order,
   each later step whose source is where an earlier chain ends extends that chain. A joined point
   where a blot was hit stays written, with a star (``13/7*/5``); other joined points disappear.
3. Identical chains are written once with a count: ``8/4(2)``.
4. A point where a blot was hit gets a star the first time it is written, and only then.

Reader (:func:`parse_play`) -- the variants seen in real match files: ``bar`` or ``25``, ``off`` or
``0``, hits with or without ``*``, ``(n)`` repeats, merged hops (``13/5*``), several hops in one
token (``24/18*/13``), dice high-low or low-high. Given the dice it returns the legal play the text
describes (with gnubg's steps); without dice, the literal hops.
"""

from __future__ import annotations

import re

from controller.formats.errors import FormatError
from controller.rules.moves import BAR_POINT, OFF_POINT, Move, Play, legal_plays
from controller.rules.nardy.moves import NardyPlay
from controller.rules.nardy.moves import format_play as format_nardy_play
from controller.rules.position import BAR, Position


class IllegalPlayError(FormatError):
    """Well-formed notation that is not a legal play for the given position and dice (RULES.md B17)."""


def _point(n: int) -> str:
    if n == BAR_POINT:
        return "bar"
    if n == OFF_POINT:
        return "off"
    return str(n)


def format_play(play: Play | NardyPlay | tuple[Move, ...] | list[Move]) -> str:
    """gnubg's text for a play (or a sequence of :class:`Move`), e.g. ``"24/18 13/11"``.

    Hits are taken from each move's ``hit`` flag. An empty play (the roll could not be played)
    is the empty string. A nardy play is written by its variant's writer, in the same notation
    (``6/off``, ``24/18(2)``; :func:`controller.rules.nardy.format_play`).
    """
    if isinstance(play, NardyPlay):
        return format_nardy_play(play)
    moves = play.moves if isinstance(play, Play) else tuple(play)
    hit_points = {m.dst for m in moves if m.hit}
    ordered = sorted(moves, key=lambda m: (m.src, m.dst), reverse=True)
    chains: list[list[int] | None] = [[m.src, m.dst] for m in ordered]
    for i, chain in enumerate(chains):
        if chain is None:
            continue
        for j in range(i + 1, len(chains)):
            other = chains[j]
            if other is not None and chain[-1] == other[0]:
                if chain[-1] in hit_points:
                    chain.append(other[1])
                else:
                    chain[-1] = other[1]
                chains[j] = None
    joined = [c for c in chains if c is not None]
    counted: list[tuple[list[int], int]] = []
    for chain in joined:
        for k, (seen, n) in enumerate(counted):
            if seen == chain:
                counted[k] = (seen, n + 1)
                break
        else:
            counted.append((chain, 1))
    parts = []
    starred: set[int] = set()
    for chain, n in counted:
        text = _point(chain[0])
        for p in chain[1:]:
            text += "/" + _point(p)
            if p in hit_points and p not in starred:
                text += "*"
                starred.add(p)
        if n > 1:
            text += f"({n})"
        parts.append(text)
    return " ".join(parts)


_TOKEN_RE = re.compile(r"(bar|off|[0-9]{1,2})(\*?)((?:/(?:bar|off|[0-9]{1,2})\*?)+)(?:\(([0-9])\))?\*?")
_HOP_RE = re.compile(r"/(bar|off|[0-9]{1,2})(\*?)")


def _parse_point(word: str, text: str, first: bool) -> int:
    n = BAR_POINT if word == "bar" else OFF_POINT if word == "off" else int(word)
    if not 0 <= n <= 25:
        raise FormatError(f"point {n} in play {text!r} is outside 0-25")
    if first and n == OFF_POINT:
        raise FormatError(f"play {text!r} moves a checker from off")
    if not first and n == BAR_POINT:
        raise FormatError(f"play {text!r} moves a checker to the bar")
    return n


def parse_hops(text: str) -> list[tuple[int, int]]:
    """The hops written in ``text`` as ``(src, dst)`` pairs, repeats expanded, in written order.

    ``"13/7*/5 6/5(2)"`` gives ``[(13, 7), (7, 5), (6, 5), (6, 5)]``. Case, stars and extra blanks
    are ignored.

    :raises FormatError: quoting the text and the token when it is not notation.
    """
    hops: list[tuple[int, int]] = []
    for token in text.lower().split():
        m = _TOKEN_RE.fullmatch(token)
        if not m:
            raise FormatError(f"{token!r} in play {text!r} is not a move like 24/18, bar/22*, 6/off, 8/4(2)")
        points = [_parse_point(m.group(1), text, True)]
        points += [_parse_point(h.group(1), text, False) for h in _HOP_RE.finditer(m.group(3))]
        for p in points[1:-1]:
            if p == OFF_POINT:
                raise FormatError(f"{token!r} in play {text!r} goes on after bearing off")
        repeat = int(m.group(4)) if m.group(4) else 1
        if not 1 <= repeat <= 4:
            raise FormatError(f"{token!r} in play {text!r} repeats a move {repeat} times (1-4)")
        for _ in range(repeat):
            hops.extend(zip(points, points[1:], strict=False))
    if len(hops) > 8:
        raise FormatError(f"play {text!r} has {len(hops)} hops: too many for one roll")
    return hops


def _apply_literal(position: Position, hops: list[tuple[int, int]], text: str) -> Play:
    me = list(position.me)
    opp = list(position.opp)
    moves = []
    for src, dst in hops:
        s = BAR if src == BAR_POINT else src - 1
        if me[s] <= 0:
            raise IllegalPlayError(f"play {text!r}: no checker to move from {_point(src)}")
        me[s] -= 1
        hit = False
        if dst != OFF_POINT:
            d = dst - 1
            if opp[23 - d] >= 2:
                raise IllegalPlayError(f"play {text!r}: point {dst} is held by the opponent")
            if opp[23 - d] == 1:
                opp[23 - d] = 0
                opp[BAR] += 1
                hit = True
            me[d] += 1
        moves.append(Move(src, dst, hit))
    return Play(tuple(moves), Position(tuple(me), tuple(opp)))


def parse_play(text: str, position: Position, dice: tuple[int, int] | None = None) -> Play:
    """Read a play written in notation, for the player on roll in ``position``.

    Without ``dice``: the hops as written, each applied as one move (hitting a blot where it lands),
    unchecked for legality. With ``dice``: the legal play (as :func:`legal_plays` lists it) that
    reaches the same position; when the text omits hits (some files never write ``*``), the legal
    play that moves the same checkers is taken, the first in gnubg's order if several. An empty
    text is "no move".

    :raises FormatError: quoting the text when it is not notation.
    :raises IllegalPlayError: (a ``FormatError``) when the text cannot be applied, or with ``dice``
        when no legal play matches it (RULES.md B17).
    """
    if not isinstance(text, str):
        raise FormatError(f"play {text!r} is not text")
    literal = _apply_literal(position, parse_hops(text), text)
    if dice is None:
        return literal
    plays = legal_plays(position, dice[0], dice[1])
    if not plays:
        if literal.moves:
            raise IllegalPlayError(f"play {text!r} is illegal: {dice[0]}{dice[1]} cannot be played")
        return literal
    for play in plays:
        if play.result == literal.result:
            return play
    same_checkers = [p for p in plays if p.result.me == literal.result.me]
    if same_checkers:
        return same_checkers[0]
    raise IllegalPlayError(f"play {text!r} is not a legal play of {dice[0]}{dice[1]} here")
