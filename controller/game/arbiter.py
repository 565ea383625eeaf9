"""Move inference: which play was made, from the position before, the dice and the reading seen now.

DESIGN.md "Data flow": the arbiter turns (position before, dice, settled reading) into one of

- :class:`Made` -- the legal play the reading shows (which one, and the points it overruled as
  misreads);
- :class:`Ambiguous` -- several legal plays explain the reading about equally well;
- :class:`Illegal` -- the reading contradicts every legal play: the closest legal plays and what
  differs (RULES.md B17, N11: the opponent then chooses; the station never guesses silently);
- :class:`Unreadable` -- the position seen cannot be a position at all (why).

The game is the prior (issue 14 item 4): the board after a turn is one of the legal results of the
known position and dice, so a reading is interpreted as the legal result the per-point readings
support best under the camera's observation model (controller.game.observation, fitted to the
reader's measured errors). One confidently misread point among 24 then no longer turns a correct turn
into a dispute, while a checker moved wrongly and seen clearly still is one: the reading itself,
taken as an illegal move, then explains the board far better than any legal play does.

Distinct legal plays end in distinct positions (the rules core keeps one play per result), so a
result names the play, even a combined move whose middle step the camera never saw, a hit or a bar
entry. The decision is a pure function of the journaled reading, so a replay gives the same rulings.

Pure: imports the rules core only. Positions are in the mover's frame (``me`` = the player who moves);
the :class:`~controller.rules.variant.Variant` numbers the opponent's points.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from controller.game import observation
from controller.game.observation import ObservationModel
from controller.rules.moves import Play
from controller.rules.variant import Backgammon, Variant

_BACKGAMMON = Backgammon()

#: Pseudo point number of the bar in ``uncertain`` sets (the mover's and the opponent's bar).
BAR = 25


@dataclass(frozen=True)
class Made:
    """The legal play made (``play.moves`` empty: no play was possible and none was made).
    ``overruled``: the mover's points (25 = the bar) the camera read otherwise than this play leaves
    them -- taken as misreads because the play explains the rest of the board (RULES.md B17)."""

    play: Any
    overruled: tuple[int, ...] = ()

    @property
    def ok(self) -> bool:
        return True


@dataclass(frozen=True)
class Ambiguous:
    """Several legal plays explain the reading about equally well; ``candidates`` best first,
    ``unsure``: the mover's points where they differ."""

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


#: How often a turn ends with an illegal move, or with none where one was possible (RULES.md B17): a
#: policy figure, not a reader measurement. It weighs "the board is as read: a wrong move" and
#: "nothing moved" against the legal plays.
ILLEGAL_PRIOR = 0.02

#: The boards an illegal move may leave, over which its prior is spread: one of the (up to four)
#: checkers of a play put one to five pips off, either way. Without the spread the board exactly as
#: read would take all of the illegal mass and outweigh every single misread.
ILLEGAL_BOARDS = 40

#: Log-odds by which the chosen play must beat every other explanation of the reading (e^2: 7 to 1).
MARGIN = 2.0


def _sides_at(pos: Any, variant: Variant) -> list[tuple[int, int]]:
    """(mover's count, opponent's count) on each of the mover's points 1-24."""
    at = [(0, 0)] * 24
    for p in range(24):
        at[p] = (pos.me[p], 0)
    for i in range(24):
        q = variant.opponent_point(i + 1)
        at[q - 1] = (at[q - 1][0], pos.opp[i])
    return at


def _cell(mine: int, theirs: int) -> tuple[str | None, int]:
    if mine:
        return ("me", mine)
    if theirs:
        return ("opp", theirs)
    return (None, 0)


def log_likelihood(
    truth: Any,
    seen: Any,
    confidence: Sequence[float],
    uncertain: frozenset[int],
    variant: Variant,
    model: ObservationModel,
    seen_at: list[tuple[int, int]] | None = None,
) -> float:
    """log P(the reading ``seen`` with ``confidence`` per mover's point | ``truth`` on the board).

    Points in ``uncertain`` (and the bar when :data:`BAR` is in it) are not read and add nothing."""
    t_at = _sides_at(truth, variant)
    s_at = seen_at if seen_at is not None else _sides_at(seen, variant)
    total = 0.0
    for p in range(24):
        if (p + 1) in uncertain:
            continue
        total += model.log_point(_cell(*t_at[p]), _cell(*s_at[p]), confidence[p])
    if BAR not in uncertain and len(truth.me) > 24:
        total += model.log_bar(truth.me[24], seen.me[24]) + model.log_bar(truth.opp[24], seen.opp[24])
    return total


@dataclass(frozen=True)
class Weighed:
    """The scores the decision compared (log prior + log likelihood): ``plays`` best first as
    (score, index into the legal plays), ``unchanged`` (the position before: nothing moved),
    ``as_read`` (the reading itself is the board: an illegal move, seen right)."""

    plays: tuple[tuple[float, int], ...]
    unchanged: float
    as_read: float


def weigh(
    before: Any,
    plays: Sequence[Any],
    seen: Any,
    confidence: Sequence[float],
    uncertain: frozenset[int],
    variant: Variant,
    model: ObservationModel,
) -> Weighed:
    """Each explanation of the reading, scored: every legal play's result (prior 1 - ILLEGAL_PRIOR),
    nothing moved (ILLEGAL_PRIOR) and the board as read (ILLEGAL_PRIOR / ILLEGAL_BOARDS). Ties among
    plays keep the legal plays' order, so the result is the same on every replay."""
    seen_at = _sides_at(seen, variant)
    legal = math.log(1.0 - ILLEGAL_PRIOR)
    wrong = math.log(ILLEGAL_PRIOR)
    as_read = math.log(ILLEGAL_PRIOR / ILLEGAL_BOARDS)

    def ll(pos: Any) -> float:
        return log_likelihood(pos, seen, confidence, uncertain, variant, model, seen_at)

    scored = sorted(
        ((legal + ll(p.result), i) for i, p in enumerate(plays)), key=lambda x: (-x[0], x[1])
    )
    return Weighed(tuple(scored), wrong + ll(before), as_read + ll(seen))


def infer(
    before: Any,
    plays: Sequence[Any],
    seen: Any,
    uncertain: Iterable[int] = (),
    variant: Variant = _BACKGAMMON,
    keep: int = 3,
    tolerate: Any = None,
    confidence: Sequence[float] | None = None,
    model: ObservationModel | None = None,
) -> Inference:
    """Which of ``plays`` (the legal plays of the dice from ``before``) the reading ``seen`` shows.

    RULES.md B17 / N11: the reading is taken as the legal play whose result explains it best under
    the camera's observation model (controller.game.observation: how often a point read with that
    confidence is wrong, and how). That play is :class:`Made` when it beats every other legal play,
    the position before (nothing moved) and the reading itself (an illegal move, seen right) by
    :data:`MARGIN` -- even where some points were read otherwise (``overruled``). Two legal plays
    about equally supported are :class:`Ambiguous`; a reading that no legal play explains well
    enough is :class:`Illegal` (the dispute). A reading that equals a legal result is always Made.

    :param before: the position at the start of the turn (rules-core position, mover = ``me``).
    :param plays: the legal plays (``Play.moves``, ``Play.result``); empty when the roll cannot be played.
    :param seen: the position read now, in the same frame.
    :param uncertain: mover's point numbers (1-24, 25 = both bars) the reading did not see (a board
        without a bar: 25); they are left out of the comparison.
    :param variant: the game's variant (how the opponent's points are numbered).
    :param keep: how many closest plays an :class:`Illegal` names.
    :param tolerate: status flags of ``seen`` that are possible here (e.g. nardy's ``BOTH_FINISHED``
        after black's last roll under the draw setting, RULES.md N9); None tolerates none.
    :param confidence: the reader's confidence for each of the mover's points 1-24 (index p - 1);
        None: every point read with full confidence.
    :param model: the observation model; default the fitted one (:func:`observation.fitted`).
    """
    unsure = frozenset(uncertain)
    conf = tuple(confidence) if confidence is not None else (1.0,) * 24
    model = model or observation.fitted()
    status = getattr(seen, "status", None)
    flags = status() if status is not None else 0
    if flags and tolerate is not None:
        flags &= ~tolerate
    candidates = list(plays) if plays else [_empty_play(before)]
    w = weigh(before, candidates, seen, conf, unsure, variant, model)
    best, best_i = w.plays[0]
    rival = w.plays[1][0] if len(w.plays) > 1 else -math.inf
    wrong = max(w.as_read, w.unchanged if plays else -math.inf)
    exact = best >= w.as_read and _diff(candidates[best_i].result, seen, unsure, variant) == 0
    if best - wrong >= MARGIN or exact:
        if best - rival >= MARGIN:
            chosen = candidates[best_i]
            return Made(chosen, _overruled(seen, chosen.result, unsure, variant))
        close = tuple(candidates[i] for s, i in w.plays if best - s < MARGIN)
        differ = _differing(tuple(c.result for c in close), unsure, variant)
        return Ambiguous(close, differ)
    if flags:
        return Unreadable(f"the board seen is impossible ({flag_names(flags)})")
    if not plays:
        return Illegal(
            (),
            _diff(seen, before, frozenset(), variant),
            False,
            ("the roll cannot be played, but checkers moved",) + describe(seen, before, variant),
        )
    ranked = sorted(plays, key=lambda p: _diff(p.result, seen, frozenset(), variant))
    dist = _diff(ranked[0].result, seen, frozenset(), variant)
    likeliest = tuple(plays[i] for _, i in w.plays[:keep])
    nearest = tuple(p for p in ranked[:keep] if _diff(p.result, seen, frozenset(), variant) == dist)
    closest = nearest or (ranked[0],)
    if likeliest and likeliest[0] not in closest:
        closest = (likeliest[0],) + closest[: keep - 1]
    unchanged = _diff(seen, before, unsure, variant) == 0 or w.unchanged > best
    return Illegal(closest, dist, unchanged, describe(seen, closest[0].result, variant))


def _points_of(a: Any, b: Any, unsure: frozenset[int], variant: Variant) -> tuple[int, ...]:
    """The mover's points (25 = the bar) where ``a`` and ``b`` differ, outside ``unsure``."""
    a_at, b_at = _sides_at(a, variant), _sides_at(b, variant)
    pts = [p + 1 for p in range(24) if (p + 1) not in unsure and a_at[p] != b_at[p]]
    if BAR not in unsure and len(a.me) > 24 and (a.me[24], a.opp[24]) != (b.me[24], b.opp[24]):
        pts.append(BAR)
    return tuple(pts)


def _overruled(seen: Any, result: Any, unsure: frozenset[int], variant: Variant) -> tuple[int, ...]:
    return _points_of(seen, result, unsure, variant)


def _differing(results: tuple[Any, ...], unsure: frozenset[int], variant: Variant) -> tuple[int, ...]:
    pts: set[int] = set()
    for r in results[1:]:
        pts.update(_points_of(results[0], r, unsure, variant))
    return tuple(sorted(pts))


def _empty_play(before: Any) -> Any:
    return Play((), before)


def flag_names(flags: Any) -> str:
    names = [f.name.lower().replace("_", " ") for f in type(flags) if f and f in flags and f.name]
    return ", ".join(names) or str(flags)
