"""A deliberately naive reference generator for long nardy: the second opinion (issue 7).

No public implementation can serve as a peer (the one nardy package on PyPI lacks the head rule and
the must-use-most-dice rule), so this one is written to be slow and obviously right, sharing no code
with :mod:`controller.rules.nardy.moves` (not even its point map or block helpers):

1. Enumerate every sequence of single-die steps for each order of the dice: a step takes a checker
   of the mover's from a point and moves it the die's number toward his 1; below 1 it is off.
2. Keep the sequences in which every step obeys the rules that concern one step: N4 (never land on
   a point holding an opposing checker), N8 (bear off only with all home; a die bears off from its
   own point, or from a lower point only when none of the mover's checkers stands higher), N5 (how
   many checkers leave the head), N6 strict/after-home (no block after any step). Each of these is
   true of a sequence exactly when it is true of each of its steps, so the enumeration may stop at
   the first step that breaks one -- the same as filtering afterwards, only faster.
3. Keep the sequences whose final position obeys N6 (transient: end of the turn only).
4. N7: keep the longest; with one die of a non-double, the larger if any sequence uses it.
5. The answer is the set of final positions.
"""

from __future__ import annotations

from controller.rules.nardy.position import NardyPosition
from controller.rules.nardy.settings import BlockRule, NardySettings


def _mine(q: int) -> int:
    """The mover's number of the opponent's point q: half a board on (RULES.md N2)."""
    return q - 12 if q > 12 else q + 12


def _illegal_blocks(me: tuple[int, ...], opp: tuple[int, ...], after_home: bool) -> frozenset[int]:
    """Windows q..q+5 of the opponent's points all held by the mover with no opposing checker past."""
    off = 15 - sum(opp)
    out = set()
    for q in range(1, 20):
        if all(me[_mine(r) - 1] > 0 for r in range(q, q + 6)):
            past = off + sum(opp[0 : q - 1])
            ok = past > 0
            if after_home and off == 0 and sum(opp[0:6]) == 0:
                ok = False
            if not ok:
                out.add(q)
    return frozenset(out)


def _exception_stop(position: NardyPosition, die: int, first_roll: bool | None) -> int | None:
    """N5: a single checker off the head, stopped by the opponent's head: where it stops."""
    me, opp = position.me, position.opp
    all_on_head = me[23] == 15 and sum(me) == 15
    if first_roll is False or not all_on_head or die not in (3, 4, 6):
        return None
    point = 24
    for _ in range(4):
        nxt = point - die
        if nxt < 1:
            return None
        # opponent's point r stands on my point _mine(r); is any opposing checker on nxt?
        if any(opp[r - 1] and _mine(r) == nxt for r in range(1, 25)):
            opp_head_here = _mine(24) == nxt and opp[23] > 0
            return point if opp_head_here else None
        point = nxt
    return None


def naive_results(
    position: NardyPosition,
    d1: int,
    d2: int,
    settings: NardySettings | None = None,
    first_roll: bool | None = None,
) -> set[NardyPosition]:
    """The set of legal results of ``d1``-``d2`` (mover's frame), by brute force (module docstring)."""
    settings = settings or NardySettings()
    opp = position.opp
    opp_on = {_mine(r) for r in range(1, 25) if opp[r - 1] > 0}
    after_home = settings.block_rule == BlockRule.AFTER_HOME
    each_step = settings.block_rule != BlockRule.TRANSIENT
    before = _illegal_blocks(position.me, opp, after_home)
    stop = _exception_stop(position, d1, first_roll) if d1 == d2 else None
    head_allowed = 1 if stop is None else 2
    orders = [(d1, d1, d1, d1)] if d1 == d2 else [(d1, d2), (d2, d1)]
    finals: list[tuple[tuple[int, ...], tuple[int, ...]]] = []  # (board, dice used)

    def step_ok(me: tuple[int, ...], src: int, die: int) -> tuple[int, ...] | None:
        if me[src - 1] == 0:
            return None
        dst = src - die
        new = list(me)
        new[src - 1] -= 1
        if dst >= 1:
            if dst in opp_on:
                return None  # N4
            new[dst - 1] += 1
        else:
            if any(me[6:]):
                return None  # N8: not all home
            if dst < 0 and any(me[src:6]):
                return None  # N8: a checker stands higher
        result = tuple(new)
        if each_step and not _illegal_blocks(result, opp, after_home) <= before:
            return None  # N6 strict / after-home
        return result

    def extend(me: tuple[int, ...], used: tuple[int, ...], left: tuple[int, ...], head_moves: int) -> None:
        finals.append((me, used))
        if not left:
            return
        die = left[0]
        for src in range(1, 25):
            nxt = step_ok(me, src, die)
            if nxt is None:
                continue
            moves_off_head = head_moves + (src == 24)
            if moves_off_head > head_allowed:
                continue  # N5
            extend(nxt, used + (die,), left[1:], moves_off_head)

    for order in orders:
        extend(position.me, (), order, 0)

    def head_ok(me: tuple[int, ...]) -> bool:
        # N5 exception: with two off the head, one of them went as far as it could (to `stop`).
        left_head = position.me[23] - me[23]
        return left_head < 2 or (stop is not None and me[stop - 1] > 0)

    legal = [(me, used) for me, used in finals if head_ok(me)]
    if not each_step:
        legal = [(me, used) for me, used in legal if _illegal_blocks(me, opp, after_home) <= before]
    longest = max(len(used) for _, used in legal)
    if longest == 0:
        return set()
    legal = [(me, used) for me, used in legal if len(used) == longest]
    if d1 != d2 and longest == 1 and any(used == (max(d1, d2),) for _, used in legal):
        legal = [(me, used) for me, used in legal if used == (max(d1, d2),)]
    return {NardyPosition(me, opp) for me, _ in legal}
