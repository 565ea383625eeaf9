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

Pure: imports the rules core only. Positions are in the mover's frame (``me`` = the player who moves);
the :class:`~controller.rules.variant.Variant` numbers the opponent's points.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from controller.rules.moves import Play
from controller.rules.variant import Backgammon, Variant

_BACKGAMMON = Backgammon()

#: Pseudo point number of the bar in ``uncertain`` sets (the mover's and the opponent's bar).
BAR = 25


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


def _opp_point(i: int, variant: Variant) -> int:
    """The mover's number for the opponent's tuple index ``i`` (25 = the bar)."""
    return BAR if i == 24 else variant.opponent_point(i + 1)


def _diff(a: Any, b: Any, uncertain: frozenset[int], variant: Variant) -> int:
    total = 0
    for i in range(len(a.me)):
        if (i + 1) in uncertain:
            continue
        total += abs(a.me[i] - b.me[i])
    for i in range(len(a.opp)):
        if _opp_point(i, variant) in uncertain:
            continue
        total += abs(a.opp[i] - b.opp[i])
    return total


def describe(seen: Any, expected: Any, variant: Variant = _BACKGAMMON) -> tuple[str, ...]:
    """Plain-words lines for every point where ``seen`` differs from ``expected`` (mover's numbering)."""
    lines = []
    for i in range(len(seen.me)):
        name = "the bar" if i == 24 else f"point {i + 1}"
        if seen.me[i] != expected.me[i]:
            lines.append(f"mover on {name}: seen {seen.me[i]}, legal play gives {expected.me[i]}")
    for i in range(len(seen.opp)):
        q = _opp_point(i, variant)
        name = "the bar" if q == BAR else f"point {q}"
        if seen.opp[i] != expected.opp[i]:
            lines.append(f"opponent on {name}: seen {seen.opp[i]}, legal play gives {expected.opp[i]}")
    return tuple(lines)


def infer(
    before: Any,
    plays: Sequence[Any],
    seen: Any,
    uncertain: Iterable[int] = (),
    variant: Variant = _BACKGAMMON,
    keep: int = 3,
    tolerate: Any = None,
) -> Inference:
    """Which of ``plays`` (the legal plays of the dice from ``before``) ended in ``seen``.

    :param before: the position at the start of the turn (rules-core position, mover = ``me``).
    :param plays: the legal plays (``Play.moves``, ``Play.result``); empty when the roll cannot be played.
    :param seen: the position read now, in the same frame.
    :param uncertain: mover's point numbers (1-24, 25 = both bars) the reading is unsure of.
    :param variant: the game's variant (how the opponent's points are numbered).
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
        return Unreadable(f"the board seen is impossible ({flag_names(flags)})")
    if not plays:
        if _diff(seen, before, unsure, variant) == 0:
            return Made(_empty_play(before))
        return Illegal(
            (),
            _diff(seen, before, frozenset(), variant),
            False,
            ("the roll cannot be played, but checkers moved",) + describe(seen, before, variant),
        )
    exact = [p for p in plays if p.result == seen]
    if exact:
        return Made(exact[0])
    if unsure:
        fitting = [p for p in plays if _diff(p.result, seen, unsure, variant) == 0]
        if len(fitting) == 1:
            return Made(fitting[0])
        if fitting:
            return Ambiguous(tuple(fitting), tuple(sorted(unsure)))
    if flags:
        return Unreadable(f"the board seen is impossible ({flag_names(flags)})")
    ranked = sorted(plays, key=lambda p: _diff(p.result, seen, frozenset(), variant))
    best = _diff(ranked[0].result, seen, frozenset(), variant)
    nearest = (p for p in ranked[:keep] if _diff(p.result, seen, frozenset(), variant) == best)
    closest = tuple(nearest) or (ranked[0],)
    unchanged = _diff(seen, before, frozenset(), variant) == 0
    return Illegal(closest, best, unchanged, describe(seen, closest[0].result, variant))


def _empty_play(before: Any) -> Any:
    return Play((), before)


def flag_names(flags: Any) -> str:
    names = [f.name.lower().replace("_", " ") for f in type(flags) if f and f in flags and f.name]
    return ", ".join(names) or str(flags)
