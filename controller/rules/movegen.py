"""The legal-play generator of standard backgammon (RULES.md B4-B8), on plain lists and ints.

:func:`generate` enumerates single-die steps in gnubg's own order (``GenerateMovesSub`` in gnubg's
``eval.c``): the first die first, then (for a non-double) the dice swapped; bar entries first; sources
from the highest point down; each later step starts no higher than the step before (the bar resets
that to the 24-point). Plays are ranked by dice used, then pips used (RULES.md B5: as many dice as
possible, the larger die when only one plays), and only the first play found for each resulting
position is kept -- so each result carries the steps gnubg lists, in gnubg's list order.

Why our own loops instead of a library: this *is* the product's rules core (no pure-Python library
is exact, see bench/rules.py). The walk is unrolled into four flat functions, one per kind of roll
(non-double or double; with or without a bear-off possible), because a Python call per step costs
more than the step. Habits that make it fast: the board is two lists mutated and restored in place
(no board per step); away from the bear-off the pairs (or multisets) of steps that repeat a result
are known in advance, so every other one is a new play with no lookup; in the bear-off a result is
keyed by one small int updated by table lookups, so a repeat costs a dict lookup and its tuples and
:class:`Play` are built only when new; and a point the opponent holds stays held all turn, so which
points can move a die is computed once.
"""

from __future__ import annotations

from itertools import compress
from typing import Final

from controller.rules.position import Position
from controller.rules.steps import STEP_TABLE, Move, Play

#: A step is a shared :class:`Move` from :data:`STEP_TABLE` (1-based points, 25 bar, 0 off).
Step = Move

_T: Final = STEP_TABLE  # _T[s * 52 + d * 2 + 2 + hit]: the step from index s to d (-1 = off)


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
    try:
        # A negative count is not a board; counts above 255 have never been accepted (ValueError).
        bytes(me) + bytes(opp_side)
    except ValueError:
        raise ValueError(f"a checker count is negative or above 255 in {me_side} / {opp_side}") from None
    if d1 != d2:
        if me[24] or sum(me[6:24]) >= 2:
            # Most rolls: two dice, and no bear-off possible after either step.
            return _two_steps(me, opp_side, d1, d2)
        return _two_home(me, opp_side, d1, d2)
    if me[24] or sum(me[6:24]) >= 4:
        # A double where no bear-off is possible in any of its four steps.
        return _four_steps(me, opp_side, d1)
    return _four_home(me, opp_side, d1)


def _with(points: tuple[int, ...], p: int) -> tuple[int, ...]:
    """``points`` (highest first) with ``p`` inserted in its place (gnubg visits sources high to low)."""
    for i, q in enumerate(points):
        if q < p:
            return (*points[:i], p, *points[i:])
    return (*points, p)


# The bear-off paths key a result by its change from the start, in a small int (5 digits, not 15:
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


def _two_steps(me: list[int], opp_side: tuple[int, ...], d1: int, d2: int) -> list[Play]:
    """:func:`generate` for a non-double where no step can bear off (RULES.md B8): a checker is on
    the bar, or at least two stand outside the home board.

    gnubg's order, as the module docstring gives it (``d1`` then ``d2``, then swapped; the second
    step from no higher than the first; bar entries first, RULES.md B7; first play found per result
    kept), but flat, and without keys: the only pairs that repeat a result are known in advance
    (see below) and skipped. When no pair plays, the larger die's single steps are the plays, else
    the smaller's (RULES.md B5).
    """
    opp0 = opp_side
    rev = list(opp0[23::-1])  # rev[d]: the opponent's checkers on the mover's index d
    opp = list(opp0)
    T, new = _T, tuple.__new__  # the named tuples' own __new__: no Python-level call
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
    # No dict of results: every pair of steps below gives a new result. Within one order of the
    # dice a pair's checker changes differ unless it is one checker moved twice (found once); the
    # swapped order repeats the first only with two checkers off one point (skipped) or one checker
    # moved twice through an intermediate point, which repeats when neither intermediate point
    # held a blot (so the hits agree too; skipped then).
    plays: list[Play] = []
    add = plays.append
    for x, y, firsts, later, swapped in ((d1, d2, first1, second2, False), (d2, d1, first2, second1, True)):
        n2 = len(later)
        six, siy = _SI[x], _SI[y]
        i = 0
        for a in firsts:
            da = a - x
            hit1 = rev[da] == 1
            if hit1:
                rev[da] = 0
                opp[23 - da] = 0
                opp[24] += 1
                opp1 = tuple(opp)
            else:
                opp1 = opp0
            step1 = T[six[a] + hit1]
            me[a] -= 1
            me[da] += 1
            # The second die: any source no higher than a (a itself if a checker is left there),
            # then the checker just moved when it landed on an empty point.
            while i < n2 and later[i] > a:
                i += 1
            cands = later[i + 1 :] if i < n2 and later[i] == a and (swapped or not me[a]) else later[i:]
            if da >= y and rev[da - y] < 2 and bar < 2:
                if swapped and not hit1 and rev[a - y] == 0:  # the first order moved it via a - y
                    if me[da] > 1 and da in cands:
                        cands.remove(da)
                elif me[da] == 1:
                    cands.append(da)
            for b in cands:
                db = b - y
                me[b] -= 1
                me[db] += 1
                if rev[db] == 1:  # a hit
                    j = 23 - db
                    opp[j] = 0
                    opp[24] += 1
                    add(new(Play, ((step1, T[siy[b] + 1]), new(Position, (tuple(me), tuple(opp))))))
                    opp[24] -= 1
                    opp[j] = 1
                else:
                    add(new(Play, ((step1, T[siy[b]]), new(Position, (tuple(me), opp1)))))
                me[db] -= 1
                me[b] += 1
            me[da] -= 1
            me[a] += 1
            if hit1:
                opp[24] -= 1
                opp[23 - da] = 1
                rev[da] = 1
    if plays:
        return plays
    # RULES.md B5: only one die plays: the larger if it can.
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

    gnubg's order and the first play found per result kept, as the module docstring gives them.
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


def _four_steps(me: list[int], opp_side: tuple[int, ...], x: int) -> list[Play]:
    """:func:`generate` for a double ``x``-``x`` where no step can bear off (RULES.md B8): a checker
    is on the bar, or at least four stand outside the home board.

    gnubg's order (bar entries first, RULES.md B7; then sources from the highest
    down, each step from no higher than the one before; first play found per result kept) unrolled
    into four loops. Plays of fewer steps are kept, per depth, only while no four-step play is
    known, and the deepest level found is the answer (RULES.md B5: as many steps as possible).

    No dict of results: in that order each multiset of sources is visited once, and two different
    multisets never give one result (the mover's change is the sum over the sources s of
    ``z**(s - x) - z**s``, that is ``(z**-x - 1)`` times the multiset's own polynomial).
    """
    opp0 = opp_side
    opp = list(opp0)
    T, new = _T, tuple.__new__
    si = _SI[x]
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
    full: list[Play] = []
    add = full.append
    short: list[list[Play]] = [[], [], [], []]
    hits = 0

    def keep(depth: int, steps: tuple[Step, ...]) -> None:
        """A walk of ``depth`` steps that cannot go on: a play, while none uses all four dice."""
        short[depth].append(new(Play, (steps, new(Position, (tuple(me), tuple(opp) if hits else opp0)))))

    for i1, a in enumerate(bar_only if me[24] else cands0):
        da = a - x
        ja = 23 - da
        ha = opp[ja] == 1
        me[a] -= 1
        me[da] += 1
        if ha:
            opp[ja] = 0
            opp[24] += 1
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
            if hb:
                opp[jb] = 0
                opp[24] += 1
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
                if hc:
                    opp[jc] = 0
                    opp[24] += 1
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
                    add(new(Play, ((s1, s2, s3, T[si[d] + hd]), result)))
                if not full:  # no fourth step (else a play would be in `full`)
                    keep(3, (s1, s2, s3))
                if hc:
                    hits -= 1
                    opp[24] -= 1
                    opp[jc] = 1
                me[dc] -= 1
                me[c] += 1
            if not full:  # with a third step, a deeper play was kept, and this one is never used
                keep(2, (s1, s2))
            if hb:
                hits -= 1
                opp[24] -= 1
                opp[jb] = 1
            me[db] -= 1
            me[b] += 1
        if not full:
            keep(1, (s1,))
        if ha:
            hits -= 1
            opp[24] -= 1
            opp[ja] = 1
        me[da] -= 1
        me[a] += 1
    if full:
        return full
    for kept in short[3:0:-1]:
        if kept:
            return kept
    return []


def _four_home(me: list[int], opp_side: tuple[int, ...], x: int) -> list[Play]:
    """:func:`generate` for a double ``x``-``x`` with nothing on the bar and at most three checkers
    outside the home board: :func:`_four_steps` with bear-offs (RULES.md B8: only with all home
    after the steps before; a die above the point only when no checker stands higher).

    gnubg's order and the first play found per result kept, as the module docstring gives them.
    """
    opp0 = opp_side
    opp = list(opp0)
    T, HIT, new = _T, _HIT, tuple.__new__
    dk, si = _DK[x], _SI[x]
    movable = [True] * x + list(map((2).__gt__, opp0[23 : x - 1 : -1]))  # bear off, or open point
    cands0 = tuple([s for s in range(23, -1, -1) if me[s] and movable[s]])
    full: dict[int, Play] = {}
    short: list[dict[int, Play]] = [{}, {}, {}, {}]
    hits = 0
    o0 = sum(me[6:24])

    def keep(depth: int, key: int, steps: tuple[Step, ...]) -> None:
        """A walk of ``depth`` steps that cannot go on: a play, while none uses all four dice."""
        kept = short[depth]
        if key not in kept:
            kept[key] = new(Play, (steps, new(Position, (tuple(me), tuple(opp) if hits else opp0))))

    for i1, a in enumerate(cands0):
        da = a - x
        ha = False
        if da >= 0:
            ja = 23 - da
            ha = opp[ja] == 1
            me[a] -= 1
            me[da] += 1
            k1 = dk[a]
            if ha:
                opp[ja] = 0
                opp[24] += 1
                k1 += HIT[da]
                hits += 1
            o1 = o0 - 1 if a >= 6 and da < 6 else o0
            s1 = T[si[a] + ha]
            c2 = cands0[i1:]
            if me[da] == 1 and movable[da]:
                c2 = _with(c2, da)
        else:
            if o0 or (da != -1 and any(me[a + 1 : 6])):
                continue
            me[a] -= 1
            k1 = -(1 << 4 * a)
            o1 = 0
            s1 = T[a * 52]
            c2 = cands0[i1:]
        for i2, b in enumerate(c2):
            if not me[b]:
                continue
            db = b - x
            hb = False
            if db >= 0:
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
                o2 = o1 - 1 if b >= 6 and db < 6 else o1
                s2 = T[si[b] + hb]
                c3 = c2[i2:]
                if me[db] == 1 and movable[db]:
                    c3 = _with(c3, db)
            else:
                if o1 or (db != -1 and any(me[b + 1 : 6])):
                    continue
                me[b] -= 1
                k2 = k1 - (1 << 4 * b)
                o2 = 0
                s2 = T[b * 52]
                c3 = c2[i2:]
            for i3, c in enumerate(c3):
                if not me[c]:
                    continue
                dc = c - x
                hc = False
                if dc >= 0:
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
                    o3 = o2 - 1 if c >= 6 and dc < 6 else o2
                    s3 = T[si[c] + hc]
                    c4 = c3[i3:]
                    if me[dc] == 1 and movable[dc]:
                        c4 = (*c4, dc)  # any order gives the same plays; this one, gnubg's list order
                else:
                    if o2 or (dc != -1 and any(me[c + 1 : 6])):
                        continue
                    me[c] -= 1
                    k3 = k2 - (1 << 4 * c)
                    o3 = 0
                    s3 = T[c * 52]
                    c4 = c3[i3:]
                opp3 = tuple(opp) if hits else opp0
                for d in c4:
                    if not me[d]:
                        continue
                    dd = d - x
                    if dd >= 0:
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
                    else:
                        if o3 or (dd != -1 and any(me[d + 1 : 6])):
                            continue
                        k = k3 - (1 << 4 * d)
                        if k in full:
                            continue
                        me[d] -= 1
                        full[k] = new(Play, ((s1, s2, s3, T[d * 52]), new(Position, (tuple(me), opp3))))
                        me[d] += 1
                if not full:  # no fourth step (else a play would be in `full`)
                    keep(3, k3, (s1, s2, s3))
                if dc >= 0:
                    if hc:
                        hits -= 1
                        opp[24] -= 1
                        opp[jc] = 1
                    me[dc] -= 1
                me[c] += 1
            if not full:  # with a third step, a deeper play was kept, and this one is never used
                keep(2, k2, (s1, s2))
            if db >= 0:
                if hb:
                    hits -= 1
                    opp[24] -= 1
                    opp[jb] = 1
                me[db] -= 1
            me[b] += 1
        if not full:
            keep(1, k1, (s1,))
        if da >= 0:
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
