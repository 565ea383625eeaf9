"""Move inference: which play was made, from the position before, the dice and the position seen now.

DESIGN.md "Data flow": the arbiter turns (position before, dice, settled position seen) into one of

- :class:`Made` -- exactly one legal play ends in the position seen (which one);
- :class:`Ambiguous` -- the reading is unsure of some points and several legal results fit them;
- :class:`Illegal` -- no legal play ends there: the closest legal plays and what differs (RULES.md
  B17, N11: the opponent then chooses; the station never guesses silently);
- :class:`Unreadable` -- the position seen cannot be a position at all (why).

Distinct legal plays end in distinct positions (the rules core keeps one play per result), so an exact
reading names the play, even a combined move whose middle step the camera never saw, a hit or a
bar entry. Points the reader is unsure of (low confidence, or the bar of a board without one) are left
out of the comparison and the remaining points decide.

Pure: imports the rules core only. Positions are in the mover's frame (``me`` = the player who moves).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

#: Pseudo point number of the bar in ``uncertain`` sets (the mover's and the opponent's bar).
BAR = 25


def legal_plays_for(variant: str, position: Any, d1: int, d2: int, **options: Any) -> list[Any]:
    """The variant's legal plays (rules core): ``controller.rules`` for backgammon, the nardy module
    for long nardy (``options`` go to the nardy generator, e.g. ``first_roll=True``).

    :raises ValueError: (the rules core's DiceError) on a bad die.
    """
    if variant == "nardy":
        from controller.rules.nardy.moves import legal_plays as nardy_plays
        from controller.rules.nardy.settings import BlockRule, NardySettings

        block = options.pop("block_rule", None)
        settings = NardySettings(block_rule=BlockRule(block)) if block else NardySettings()
        return list(nardy_plays(position, d1, d2, settings, **options))
    from controller.rules.moves import legal_plays

    return list(legal_plays(position, d1, d2))


def make_position(variant: str, me: Sequence[int], opp: Sequence[int]) -> Any:
    """A rules-core position of the variant from two 25-tuples (each side in its own numbering)."""
    if variant == "nardy":
        from controller.rules.nardy.position import NardyPosition

        return NardyPosition(tuple(me)[:24], tuple(opp)[:24])
    from controller.rules.position import Position

    return Position(tuple(me), tuple(opp))


@dataclass(frozen=True)
class Made:
    """The legal play made (``play.moves`` empty: no play was possible and none was made)."""

    play: Any

    @property
    def ok(self) -> bool:
        return True


@dataclass(frozen=True)
class Ambiguous:
    """Several legal plays fit the points the reading is sure of; ``candidates`` best first."""

    candidates: tuple[Any, ...]
    unsure: tuple[int, ...]

    @property
    def ok(self) -> bool:
        return False


@dataclass(frozen=True)
class Illegal:
    """No legal play ends in the position seen. ``closest``: the nearest legal plays (fewest checkers
    out of place, best first; empty when the roll allowed no play); ``distance`` their checker
    difference; ``unchanged`` when nothing moved yet; ``differences``: plain-words lines."""

    closest: tuple[Any, ...]
    distance: int
    unchanged: bool
    differences: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return False


@dataclass(frozen=True)
class Unreadable:
    """The reading cannot be a position (``reason`` in plain words)."""

    reason: str

    @property
    def ok(self) -> bool:
        return False


Inference = Made | Ambiguous | Illegal | Unreadable


def _opp_point(i: int, nardy: bool) -> int:
    """The mover's number for the opponent's tuple index ``i`` (25 = the bar)."""
    if i == 24:
        return BAR
    return (i + 12) % 24 + 1 if nardy else 24 - i


def _diff(a: Any, b: Any, uncertain: frozenset[int]) -> int:
    nardy = len(a.me) == 24
    total = 0
    for i in range(len(a.me)):
        if (i + 1) in uncertain:
            continue
        total += abs(a.me[i] - b.me[i])
    for i in range(len(a.opp)):
        if _opp_point(i, nardy) in uncertain:
            continue
        total += abs(a.opp[i] - b.opp[i])
    return total


def describe(seen: Any, expected: Any, variant: str = "backgammon") -> tuple[str, ...]:
    """Plain-words lines for every point where ``seen`` differs from ``expected`` (mover's numbering)."""
    lines = []
    for i in range(len(seen.me)):
        name = "the bar" if i == 24 else f"point {i + 1}"
        if seen.me[i] != expected.me[i]:
            lines.append(f"mover on {name}: seen {seen.me[i]}, legal play gives {expected.me[i]}")
    for i in range(len(seen.opp)):
        q = _opp_point(i, variant == "nardy")
        name = "the bar" if q == BAR else f"point {q}"
        if seen.opp[i] != expected.opp[i]:
            lines.append(f"opponent on {name}: seen {seen.opp[i]}, legal play gives {expected.opp[i]}")
    return tuple(lines)


def infer(
    before: Any,
    plays: Sequence[Any],
    seen: Any,
    uncertain: Iterable[int] = (),
    variant: str = "backgammon",
    keep: int = 3,
    tolerate: Any = None,
) -> Inference:
    """Which of ``plays`` (the legal plays of the dice from ``before``) ended in ``seen``.

    :param before: the position at the start of the turn (rules-core position, mover = ``me``).
    :param plays: the legal plays (``Play.moves``, ``Play.result``); empty when the roll cannot be played.
    :param seen: the position read now, in the same frame.
    :param uncertain: mover's point numbers (1-24, 25 = both bars) the reading is unsure of.
    :param keep: how many closest plays an :class:`Illegal` names.
    :param tolerate: status flags of ``seen`` that are possible here (e.g. nardy's ``BOTH_FINISHED``
        after black's last roll under the draw setting, RULES.md N9); None tolerates none.
    """
    unsure = frozenset(uncertain)
    status = getattr(seen, "status", None)
    flags = status() if status is not None else 0
    if flags and tolerate is not None:
        flags &= ~tolerate
    if flags and not unsure:
        return Unreadable(f"the board seen is impossible ({_flag_names(flags)})")
    if not plays:
        if _diff(seen, before, unsure) == 0:
            return Made(_empty_play(before))
        return Illegal(
            (),
            _diff(seen, before, frozenset()),
            False,
            ("the roll cannot be played, but checkers moved",) + describe(seen, before, variant),
        )
    exact = [p for p in plays if p.result == seen]
    if exact:
        return Made(exact[0])
    if unsure:
        fitting = [p for p in plays if _diff(p.result, seen, unsure) == 0]
        if len(fitting) == 1:
            return Made(fitting[0])
        if fitting:
            return Ambiguous(tuple(fitting), tuple(sorted(unsure)))
    if flags:
        return Unreadable(f"the board seen is impossible ({_flag_names(flags)})")
    ranked = sorted(plays, key=lambda p: _diff(p.result, seen, frozenset()))
    best = _diff(ranked[0].result, seen, frozenset())
    closest = tuple(p for p in ranked[:keep] if _diff(p.result, seen, frozenset()) == best) or (ranked[0],)
    unchanged = _diff(seen, before, frozenset()) == 0
    return Illegal(closest, best, unchanged, describe(seen, closest[0].result, variant))


def _empty_play(before: Any) -> Any:
    try:
        from controller.rules.moves import Play

        return Play((), before)
    except ImportError:  # pragma: no cover - the rules core is part of the package
        return None


def _flag_names(flags: Any) -> str:
    names = [f.name.lower().replace("_", " ") for f in type(flags) if f and f in flags and f.name]
    return ", ".join(names) or str(flags)
