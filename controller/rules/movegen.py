"""The fast path of the legal-play generator (RULES.md B4-B8), on plain lists and ints.

:func:`generate` walks single-die steps depth first in gnubg's own order (``GenerateMovesSub`` in
gnubg's ``eval.c``): the first die first, then (for a non-double) the dice swapped; sources from the
highest point down; each later step starts no higher than the step before (the bar resets that to
the 24-point). A finished walk is ranked by dice used, then pips used (RULES.md B5: as many dice as
possible, the larger die when only one plays), and only the first walk found for each resulting
position is kept -- so each result carries the steps gnubg lists.

Why our own loop instead of a library: this *is* the product's rules core (no pure-Python library
is exact, see bench/rules.py). Speed comes from three habits: the board is two lists mutated and
restored in place (no board per step); each resulting position is keyed by one int (a byte per
point, both sides) updated incrementally, so a leaf costs a dict lookup, not two tuples; and the
non-double case, most rolls, is two flat loops without recursion.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress
from typing import Final

from controller.rules.position import Position
from controller.rules.steps import STEP_TABLE, Move, Play

#: A step is a shared :class:`Move` from :data:`STEP_TABLE` (1-based points, 25 bar, 0 off).
Step = Move
#: The leaf callback: (result key, steps, pips used).
Save = Callable[[int, tuple[Step, ...], int], None]

_BAR: Final = 24
_T: Final = STEP_TABLE  # _T[s * 52 + d * 2 + 2 + hit]: the step from index s to d (-1 = off)
# One byte per point, both sides, in one int: the key of a position, exact for counts 0-255.
_ME: Final = tuple(1 << (8 * i) for i in range(25))
_OPP: Final = tuple(1 << (200 + 8 * i) for i in range(25))


_Kept = tuple[tuple[Step, ...], tuple[int, ...], tuple[int, ...]]


def _plays(found: dict[int, _Kept]) -> list[Play]:
    """The plays kept, as :class:`Play` values."""
    new = tuple.__new__  # the named tuples' own __new__, minus a Python-level call per play
    return [new(Play, (steps, new(Position, (me, opp)))) for steps, me, opp in found.values()]


def generate(me_side: tuple[int, ...], opp_side: tuple[int, ...], d1: int, d2: int) -> list[Play]:
    """Every legal play of ``d1``-``d2`` for ``me_side`` (gnubg board[1]) against ``opp_side``.

    :param me_side: 25 counts, the mover's points 1-24 (indices 0-23) and bar (24).
    :param opp_side: 25 counts in the opponent's own numbering.
    :returns: one :class:`Play` per distinct resulting position; empty when nothing can be
        played. Dice are not validated here.
    :raises ValueError: when a side has not 25 counts from 0 to 255.
    """
    me = list(me_side)
    if len(me) != 25 or len(opp_side) != 25:
        raise ValueError(f"a side has {len(me)} and {len(opp_side)} entries, not 25")
    try:  # the position as one int: byte i = me[i], byte 25 + i = opp[i]; exact for counts 0-255
        key0 = int.from_bytes(bytes(me) + bytes(opp_side), "little")
    except ValueError:
        raise ValueError(f"a checker count is negative or above 255 in {me_side} / {opp_side}") from None
    if d1 != d2:
        if me[24] or sum(me[6:24]) >= 2:
            # Most rolls: two dice, and no bear-off possible after either step.
            return _two_steps(me, opp_side, d1, d2, 0)
        return _two_home(me, opp_side, d1, d2)
    if d1 == d2 and (me[24] or sum(me[6:24]) >= 4):
        # A double where no bear-off is possible in any of its four steps.
        return _four_steps(me, opp_side, d1, 0)
    return _walk(me, opp_side, d1, d2, key0)


def _walk(me: list[int], opp_side: tuple[int, ...], d1: int, d2: int, key0: int) -> list[Play]:
    """:func:`generate` by the general walk (bar entries, bear-offs, doubles); ``me`` is a copy
    of the mover's side to mutate, ``key0`` the key of the position."""
    opp = list(opp_side)
    found: dict[int, _Kept] = {}
    hits = [0]  # hits made by the steps on the walk so far: while 0, `opp` is still opp_side
    best = [0, 0]  # dice used, pips used, of the plays kept
    T, ME, OPP = _T, _ME, _OPP
    full = 4 if d1 == d2 else 2

    def save(key: int, steps: tuple[Step, ...], pips: int) -> None:
        """Keep a play (the lists hold its result) unless a play using more dice/pips is known."""
        n = len(steps)
        if n < best[0] or pips < best[1]:
            return
        if n > best[0] or pips > best[1]:
            found.clear()
            best[0] = n
            best[1] = pips
        if key not in found:
            found[key] = (steps, tuple(me), tuple(opp) if hits[0] else opp_side)

    def last_steps(
        die: int,
        start: int,
        key: int,
        outside: int,
        before: tuple[Step, ...],
        cands: tuple[int, ...],
        extra: int,
    ) -> bool:
        """Every final step of ``die`` (the lists hold the position after ``before``). A final step
        uses all the dice, so it always ranks best; its result is built only when new. Any order of
        ``cands`` (+ ``extra`` when >= 0) will do: each final step gives a different result.
        True when no step was possible."""
        used = False
        for s in (*cands, extra) if extra >= 0 else cands:
            if s > start or not me[s]:
                continue
            d = s - die
            if d >= 0:
                j = 23 - d
                hit = opp[j] == 1
                k = key - ME[s] + ME[d]
                if hit:
                    k += OPP[24] - OPP[j]
                t = s * 52 + d * 2 + 2 + hit
            else:
                # RULES.md B8: all home; exact, or no checker above the source.
                if outside or (d != -1 and any(me[s + 1 : 6])):
                    continue
                hit = False
                k = key - ME[s]
                t = s * 52
            if not used:
                used = True
                if best[0] != full:
                    found.clear()
                    best[0] = full
                    best[1] = die * 4 if full == 4 else d1 + d2
            if k in found:
                continue
            me[s] -= 1
            if d < 0:
                found[k] = ((*before, T[t]), tuple(me), tuple(opp) if hits[0] else opp_side)
            else:
                me[d] += 1
                if hit:
                    opp[j] = 0
                    opp[24] += 1
                    found[k] = ((*before, T[t]), tuple(me), tuple(opp))
                    opp[24] -= 1
                    opp[j] = 1
                else:
                    found[k] = ((*before, T[t]), tuple(me), tuple(opp) if hits[0] else opp_side)
                me[d] -= 1
            me[s] += 1
        return not used

    def walk(
        dice: tuple[int, ...],
        depth: int,
        start: int,
        key: int,
        outside: int,
        before: tuple[Step, ...],
        cands: tuple[int, ...],
        pips: int,
    ) -> bool:
        """Steps of ``dice[depth]`` and on (gnubg's GenerateMovesSub); the last die only for a bar
        entry (else :func:`last_steps`). True when no step is possible.

        ``cands``: the points, highest first, that may move ``dice[depth]`` (held by the mover at
        some time, not blocked for that die); emptied ones are skipped on the way.
        """
        die = dice[depth]
        pips += die
        if depth + 1 == full:
            # Only reached with checkers still on the bar: the last die must enter too (RULES.md B7).
            j = die - 1
            if opp[j] >= 2:
                return True
            d = 24 - die
            hit = opp[j] == 1
            me[24] -= 1
            me[d] += 1
            k = key - ME[24] + ME[d]
            if hit:
                opp[j] = 0
                opp[24] += 1
                k += OPP[24] - OPP[j]
                hits[0] += 1
            save(k, (*before, T[1250 + d * 2 + hit]), pips)
            if hit:
                hits[0] -= 1
                opp[24] -= 1
                opp[j] = 1
            me[d] -= 1
            me[24] += 1
            return False
        nxt_die = dice[depth + 1]
        to_last = depth + 2 == full
        base = occupied[nxt_die] if nxt_die != die else cands
        ok = movable[nxt_die]
        if me[24]:
            # RULES.md B7: enter first, on the opponent's point `die`.
            j = die - 1
            if opp[j] >= 2:
                return True
            d = 24 - die
            hit = opp[j] == 1
            me[24] -= 1
            me[d] += 1
            k = key - ME[24] + ME[d]
            if hit:
                opp[j] = 0
                opp[24] += 1
                k += OPP[24] - OPP[j]
                hits[0] += 1
            steps = (*before, T[1250 + d * 2 + hit])
            new = me[d] == 1 and ok[d]
            if me[24] or not to_last:
                done = walk(dice, depth + 1, 23, k, outside, steps, _with(base, d) if new else base, pips)
            else:
                done = last_steps(nxt_die, 23, k, outside, steps, base, d if new else -1)
            if done:
                save(k, steps, pips)
            if hit:
                hits[0] -= 1
                opp[24] -= 1
                opp[j] = 1
            me[d] -= 1
            me[24] += 1
            return False
        used = False
        for s in cands:
            if s > start or not me[s]:
                continue
            d = s - die
            if d >= 0:
                j = 23 - d
                hit = opp[j] == 1
                me[s] -= 1
                me[d] += 1
                k = key - ME[s] + ME[d]
                if hit:
                    opp[j] = 0
                    opp[24] += 1
                    k += OPP[24] - OPP[j]
                    hits[0] += 1
                steps = (*before, T[s * 52 + d * 2 + 2 + hit])
                out = outside - 1 if s >= 6 and d < 6 else outside
                new = me[d] == 1 and ok[d]
                if to_last:
                    done = last_steps(nxt_die, s, k, out, steps, base, d if new else -1)
                else:
                    done = walk(dice, depth + 1, s, k, out, steps, _with(base, d) if new else base, pips)
                if done:
                    save(k, steps, pips)
                if hit:
                    hits[0] -= 1
                    opp[24] -= 1
                    opp[j] = 1
                me[d] -= 1
                me[s] += 1
            else:
                if outside or (d != -1 and any(me[s + 1 : 6])):
                    continue
                me[s] -= 1
                k = key - ME[s]
                steps = (*before, T[s * 52])
                if to_last:
                    done = last_steps(nxt_die, s, k, outside, steps, base, -1)
                else:
                    done = walk(dice, depth + 1, s, k, outside, steps, base, pips)
                if done:
                    save(k, steps, pips)
                me[s] += 1
            used = True
        return not used

    outside0 = sum(me[6:25])
    # A point the opponent holds stays held all turn (hits only empty his blots), so whether a
    # source's step is blocked is fixed per die; the walk carries the mover's points that may move.
    open_ = [n < 2 for n in reversed(opp[:24])]  # open_[d]: the mover may land on index d
    mine = [s for s in range(23, -1, -1) if me[s]]
    movable = {die: [True] * die + open_[: 24 - die] for die in (d1, d2)}
    occupied = {die: tuple([s for s in mine if movable[die][s]]) for die in (d1, d2)}
    if d1 != d2:
        walk((d1, d2), 0, 23, key0, outside0, (), occupied[d1], 0)
        walk((d2, d1), 0, 23, key0, outside0, (), occupied[d2], 0)
    else:
        walk((d1, d1, d1, d1), 0, 23, key0, outside0, (), occupied[d1], 0)
    return _plays(found)


def _with(points: tuple[int, ...], p: int) -> tuple[int, ...]:
    """``points`` (highest first) with ``p`` inserted in its place (gnubg visits sources high to low)."""
    for i, q in enumerate(points):
        if q < p:
            return (*points[:i], p, *points[i:])
    return (*points, p)


# The fast paths key a result by its change from the start, in a small int (5 digits, not 15:
# cheaper to add and hash): 4 bits a slot for the mover's change there (at most 4 steps, so a
# digit in -4..4, and base-16 digits that small give one int per change) plus one bit per point
# where a blot was hit (bits 100-123; a point is hit at most once a turn).
#: ``_HIT[d]``: the key change when the mover hits the opponent's blot on the mover's index ``d``.
_HIT: Final = tuple(1 << (100 + d) for d in range(24))
#: ``_DK[die][s]``: the key change of a checker moving from index ``s`` (0-24) by ``die``, no hit.
_DK: Final = tuple(
    tuple((1 << 4 * (s - die)) - (1 << 4 * s) if s >= die else 0 for s in range(25)) for die in range(7)
)
#: ``_SI[die][s]``: :data:`_T` index of that step without a hit (add 1 for a hit).
_SI: Final = tuple(tuple(s * 52 + (s - die) * 2 + 2 for s in range(25)) for die in range(7))


def _two_steps(me: list[int], opp_side: tuple[int, ...], d1: int, d2: int, key0: int) -> list[Play]:
    """:func:`generate` for a non-double where no step can bear off (RULES.md B8): a checker is on
    the bar, or at least two stand outside the home board.

    Same walk and order as :func:`generate` (``d1`` then ``d2``, then swapped; the second step from
    no higher than the first; bar entries first, RULES.md B7; first play found per result kept), but
    flat: a step is a table lookup of its key change, and a result's tuples are built only when its
    key is new. When no pair plays, the larger die's single steps are the plays, else the smaller's
    (RULES.md B5).
    """
    opp0 = opp_side
    rev = list(opp0[23::-1])  # rev[d]: the opponent's checkers on the mover's index d
    opp = list(opp0)
    T, HIT, new = _T, _HIT, tuple.__new__  # the named tuples' own __new__: no Python-level call
    board = list(compress(range(23, -1, -1), me[23::-1]))  # the mover's points, highest first
    bar = me[24]
    if bar:
        first1 = [24] if rev[24 - d1] < 2 else []
        first2 = [24] if rev[24 - d2] < 2 else []
        if bar > 1:  # RULES.md B7: a second checker on the bar must enter with the other die too.
            second1, second2 = first1, first2
        else:
            second1 = [s for s in board if s >= d1 and rev[s - d1] < 2]
            second2 = [s for s in board if s >= d2 and rev[s - d2] < 2]
    else:
        first1 = second1 = [s for s in board if s >= d1 and rev[s - d1] < 2]
        first2 = second2 = [s for s in board if s >= d2 and rev[s - d2] < 2]
    found: dict[int, Play] = {}
    for x, y, firsts, later in ((d1, d2, first1, second2), (d2, d1, first2, second1)):
        n2 = len(later)
        dkx, six, dky, siy = _DK[x], _SI[x], _DK[y], _SI[y]
        i = 0
        for a in firsts:
            da = a - x
            hit1 = rev[da] == 1
            k1 = key0 + dkx[a]
            if hit1:
                k1 += HIT[da]
                rev[da] = 0
                opp[23 - da] = 0
                opp[24] += 1
            step1 = T[six[a] + hit1]
            me[a] -= 1
            me[da] += 1
            # The second die: any source no higher than a (a itself if a checker is left there),
            # then the checker just moved when it landed on an empty point.
            while i < n2 and later[i] > a:
                i += 1
            cands = later[i + 1 :] if i < n2 and later[i] == a and not me[a] else later[i:]
            if me[da] == 1 and da >= y and rev[da - y] < 2 and bar < 2:
                cands.append(da)
            opp1 = tuple(opp) if hit1 else opp0
            for b in cands:
                db = b - y
                if rev[db] == 1:  # a hit: rarer, so the plain step below has no hit tests
                    k = k1 + dky[b] + HIT[db]
                    if k in found:
                        continue
                    j = 23 - db
                    me[b] -= 1
                    me[db] += 1
                    opp[j] = 0
                    opp[24] += 1
                    result = new(Position, (tuple(me), tuple(opp)))
                    opp[24] -= 1
                    opp[j] = 1
                    me[db] -= 1
                    me[b] += 1
                    found[k] = new(Play, ((step1, T[siy[b] + 1]), result))
                    continue
                k = k1 + dky[b]
                if k in found:
                    continue
                me[b] -= 1
                me[db] += 1
                result = new(Position, (tuple(me), opp1))
                me[db] -= 1
                me[b] += 1
                found[k] = new(Play, ((step1, T[siy[b]]), result))
            me[da] -= 1
            me[a] += 1
            if hit1:
                opp[24] -= 1
                opp[23 - da] = 1
                rev[da] = 1
    if found:
        return list(found.values())
    # RULES.md B5: only one die plays: the larger if it can.
    plays: list[Play] = []
    for x, firsts in ((d1, first1), (d2, first2)) if d1 > d2 else ((d2, first2), (d1, first1)):
        for a in firsts:
            da = a - x
            hit1 = rev[da] == 1
            me[a] -= 1
            me[da] += 1
            if hit1:
                opp[23 - da] = 0
                opp[24] += 1
                result = new(Position, (tuple(me), tuple(opp)))
                opp[24] -= 1
                opp[23 - da] = 1
            else:
                result = new(Position, (tuple(me), opp0))
            me[da] -= 1
            me[a] += 1
            plays.append(new(Play, ((T[_SI[x][a] + hit1],), result)))
        if plays:
            break
    return plays


def _two_home(me: list[int], opp_side: tuple[int, ...], d1: int, d2: int) -> list[Play]:
    """:func:`generate` for a non-double with nothing on the bar and at most one checker outside
    the home board: :func:`_two_steps` with bear-offs (RULES.md B8: only with all home after the
    steps before; a die above the point only when no checker stands higher).

    Same order and first-play-per-result as the walk of :func:`generate`.
    """
    opp0 = opp_side
    rev = list(opp0[23::-1])  # rev[d]: the opponent's checkers on the mover's index d
    opp = list(opp0)
    T, HIT, new = _T, _HIT, tuple.__new__
    outside0 = sum(me[6:24])
    board = list(compress(range(23, -1, -1), me[23::-1]))  # the mover's points, highest first
    src1 = [s for s in board if s < d1 or rev[s - d1] < 2]
    src2 = [s for s in board if s < d2 or rev[s - d2] < 2]
    found: dict[int, Play] = {}
    for x, y, firsts, later in ((d1, d2, src1, src2), (d2, d1, src2, src1)):
        dkx, six, dky, siy = _DK[x], _SI[x], _DK[y], _SI[y]
        for a in firsts:
            da = a - x
            if da >= 0:
                hit1 = rev[da] == 1
                k1 = dkx[a]
                out = outside0 - 1 if a >= 6 and da < 6 else outside0
                step1 = T[six[a] + hit1]
                me[a] -= 1
                me[da] += 1
                if hit1:
                    k1 += HIT[da]
                    rev[da] = 0
                    opp[23 - da] = 0
                    opp[24] += 1
            else:
                if outside0 or (da != -1 and any(me[a + 1 : 6])):
                    continue
                hit1 = False
                k1 = -(1 << 4 * a)
                out = 0
                step1 = T[a * 52]
                me[a] -= 1
            opp1 = tuple(opp) if hit1 else opp0
            cands = [b for b in later if b <= a]
            if da >= 0 and me[da] == 1 and (da < y or rev[da - y] < 2):
                cands.append(da)  # the checker just moved, landed on an empty point
            for b in cands:
                if not me[b]:
                    continue
                db = b - y
                if db >= 0:
                    if rev[db] == 1:
                        k = k1 + dky[b] + HIT[db]
                        if k in found:
                            continue
                        j = 23 - db
                        me[b] -= 1
                        me[db] += 1
                        opp[j] = 0
                        opp[24] += 1
                        result = new(Position, (tuple(me), tuple(opp)))
                        opp[24] -= 1
                        opp[j] = 1
                        me[db] -= 1
                        me[b] += 1
                        found[k] = new(Play, ((step1, T[siy[b] + 1]), result))
                        continue
                    k = k1 + dky[b]
                    if k in found:
                        continue
                    me[b] -= 1
                    me[db] += 1
                    result = new(Position, (tuple(me), opp1))
                    me[db] -= 1
                    me[b] += 1
                    found[k] = new(Play, ((step1, T[siy[b]]), result))
                else:
                    if out or (db != -1 and any(me[b + 1 : 6])):
                        continue
                    k = k1 - (1 << 4 * b)
                    if k in found:
                        continue
                    me[b] -= 1
                    result = new(Position, (tuple(me), opp1))
                    me[b] += 1
                    found[k] = new(Play, ((step1, T[b * 52]), result))
            if da >= 0:
                me[da] -= 1
                if hit1:
                    opp[24] -= 1
                    opp[23 - da] = 1
                    rev[da] = 1
            me[a] += 1
    if found:
        return list(found.values())
    # RULES.md B5: only one die plays: the larger if it can.
    plays: list[Play] = []
    for x, firsts in ((d1, src1), (d2, src2)) if d1 > d2 else ((d2, src2), (d1, src1)):
        for a in firsts:
            da = a - x
            me[a] -= 1
            if da >= 0:
                hit1 = rev[da] == 1
                me[da] += 1
                if hit1:
                    opp[23 - da] = 0
                    opp[24] += 1
                    result = new(Position, (tuple(me), tuple(opp)))
                    opp[24] -= 1
                    opp[23 - da] = 1
                else:
                    result = new(Position, (tuple(me), opp0))
                me[da] -= 1
                step = T[_SI[x][a] + hit1]
            elif outside0 or (da != -1 and any(me[a + 1 : 6])):
                me[a] += 1
                continue
            else:
                result = new(Position, (tuple(me), opp0))
                step = T[a * 52]
            me[a] += 1
            plays.append(new(Play, ((step,), result)))
        if plays:
            break
    return plays


def _four_steps(me: list[int], opp_side: tuple[int, ...], x: int, key0: int) -> list[Play]:
    """:func:`generate` for a double ``x``-``x`` where no step can bear off (RULES.md B8): a checker
    is on the bar, or at least four stand outside the home board.

    The walk of :func:`generate` (bar entries first, RULES.md B7; then sources from the highest
    down, each step from no higher than the one before; first play found per result kept) unrolled
    into four loops. A result is built only when its key is new; plays of fewer steps are kept, per
    depth, only while no four-step play is known, and the deepest level found is the answer
    (RULES.md B5: as many steps as possible).
    """
    opp0 = opp_side
    opp = list(opp0)
    T, HIT, new = _T, _HIT, tuple.__new__
    dk, si = _DK[x], _SI[x]
    # A point the opponent holds stays held all turn, so which points can move is fixed.
    movable = [False] * x + list(map((2).__gt__, opp0[23 : x - 1 : -1]))  # opp0[23 - s + x] < 2
    cands0 = tuple([s for s in compress(range(23, x - 1, -1), movable[23 : x - 1 : -1]) if me[s]])
    bar_only: tuple[int, ...] = (24,)
    if me[24]:
        e = 24 - x
        if opp0[x - 1] >= 2:
            return []  # RULES.md B7: the entry point is held; nothing else may move
        if not me[e] and movable[e]:
            cands0 = _with(cands0, e)  # where the first entry puts a checker
        cands0 = (24, *cands0)
    full: dict[int, Play] = {}
    short: list[dict[int, Play]] = [{}, {}, {}, {}]
    hits = 0

    def keep(depth: int, key: int, steps: tuple[Step, ...]) -> None:
        """A walk of ``depth`` steps that cannot go on: a play, while none uses all four dice."""
        kept = short[depth]
        if key not in kept:
            kept[key] = new(Play, (steps, new(Position, (tuple(me), tuple(opp) if hits else opp0))))

    for i1, a in enumerate(bar_only if me[24] else cands0):
        da = a - x
        ja = 23 - da
        ha = opp[ja] == 1
        me[a] -= 1
        me[da] += 1
        k1 = key0 + dk[a]
        if ha:
            opp[ja] = 0
            opp[24] += 1
            k1 += HIT[da]
            hits += 1
        s1 = T[si[a] + ha]
        c2: tuple[int, ...]
        if me[24]:
            c2 = bar_only
        elif a == 24:
            c2 = cands0
        else:
            c2 = cands0[i1:]
            if me[da] == 1 and movable[da]:
                c2 = _with(c2, da)
        for i2, b in enumerate(c2):
            if not me[b]:
                continue
            db = b - x
            jb = 23 - db
            hb = opp[jb] == 1
            me[b] -= 1
            me[db] += 1
            k2 = k1 + dk[b]
            if hb:
                opp[jb] = 0
                opp[24] += 1
                k2 += HIT[db]
                hits += 1
            s2 = T[si[b] + hb]
            c3: tuple[int, ...]
            if me[24]:
                c3 = bar_only
            elif b == 24:
                c3 = cands0
            else:
                c3 = c2[i2:]
                if me[db] == 1 and movable[db]:
                    c3 = _with(c3, db)
            for i3, c in enumerate(c3):
                if not me[c]:
                    continue
                dc = c - x
                jc = 23 - dc
                hc = opp[jc] == 1
                me[c] -= 1
                me[dc] += 1
                k3 = k2 + dk[c]
                if hc:
                    opp[jc] = 0
                    opp[24] += 1
                    k3 += HIT[dc]
                    hits += 1
                s3 = T[si[c] + hc]
                c4: tuple[int, ...]
                if me[24]:
                    c4 = bar_only
                elif c == 24:
                    c4 = cands0
                else:
                    c4 = c3[i3:]
                    if me[dc] == 1 and movable[dc]:
                        c4 = (*c4, dc)  # any order gives the same plays; this one, gnubg's list order
                opp3 = tuple(opp) if hits else opp0
                for d in c4:
                    if not me[d]:
                        continue
                    dd = d - x
                    hd = opp[23 - dd] == 1
                    k = k3 + dk[d]
                    if hd:
                        k += HIT[dd]
                    if k in full:
                        continue
                    me[d] -= 1
                    me[dd] += 1
                    if hd:
                        jd = 23 - dd
                        opp[jd] = 0
                        opp[24] += 1
                        result = new(Position, (tuple(me), tuple(opp)))
                        opp[24] -= 1
                        opp[jd] = 1
                    else:
                        result = new(Position, (tuple(me), opp3))
                    me[dd] -= 1
                    me[d] += 1
                    full[k] = new(Play, ((s1, s2, s3, T[si[d] + hd]), result))
                if not full:  # no fourth step (else a play would be in `full`)
                    keep(3, k3, (s1, s2, s3))
                if hc:
                    hits -= 1
                    opp[24] -= 1
                    opp[jc] = 1
                me[dc] -= 1
                me[c] += 1
            if not full:  # with a third step, a deeper play was kept, and this one is never used
                keep(2, k2, (s1, s2))
            if hb:
                hits -= 1
                opp[24] -= 1
                opp[jb] = 1
            me[db] -= 1
            me[b] += 1
        if not full:
            keep(1, k1, (s1,))
        if ha:
            hits -= 1
            opp[24] -= 1
            opp[ja] = 1
        me[da] -= 1
        me[a] += 1
    if full:
        return list(full.values())
    for kept in short[3:0:-1]:
        if kept:
            return list(kept.values())
    return []
