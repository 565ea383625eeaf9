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


def _key(me: list[int], opp: list[int]) -> int:
    """The position as one int: byte i = ``me[i]``, byte 25 + i = ``opp[i]``.

    :raises ValueError: when a count is outside 0-255 or a side has not 25 entries.
    """
    if len(me) != 25 or len(opp) != 25:
        raise ValueError(f"a side has {len(me)} and {len(opp)} entries, not 25")
    try:
        return int.from_bytes(bytes(me) + bytes(opp), "little")
    except ValueError:
        raise ValueError(f"a checker count is negative or above 255 in {me} / {opp}") from None


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

    key0 = _key(me, opp)
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
