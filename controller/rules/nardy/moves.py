"""Checker moves, plays and the legal-play generator of long nardy (RULES.md N4-N8).

Numbering is the mover's own (RULES.md "Numbering", :mod:`controller.rules.nardy.position`):
points 1-24, his head is 24, his home 1-6; ``0`` = off as a destination. There is no bar.

:func:`legal_plays` walks single-die steps depth first, on one mutable board, remembering every
(board, dice left) node it has seen so transpositions are walked once; every node is a candidate
play, and the rules that concern a whole play are applied to the candidates at the end:

* RULES.md N4 -- each die a separate step, so one checker plays both numbers only through an
  intermediate point free of opposing checkers, and a die is never split between two checkers; a
  checker never lands on a point holding any opposing checker (no hitting); doubles four times.
* RULES.md N5 -- one checker leaves the head (point 24) per turn. The first-roll exception: with
  6-6, 4-4 or 3-3 on a player's first roll, when one checker off the head is stopped by the
  *opponent's head* (the player's 12-point) before the whole roll is played, a second checker may
  leave the head, to play the numbers the first one could not (SV 3.1 "if the only checker that may
  leave the head does not pass, you may take the second"; CS 3.1). So 6-6 is 24/18(2), 4-4 is
  24/16(2), 3-3 is 24/15 24/21 (not 24/18(2): the first checker must go as far as it can); a checker
  stopped by anything else (White 5-5 then Black 4-4) gives no exception (SV/CS notes).
* RULES.md N6 -- six points in a row held by the mover along the opponent's path, with no opposing
  checker past them (and, in the after-home setting, none home yet), are forbidden: after every
  step (strict, after-home) or only at the end of the turn (transient). A block the position
  already held before the turn (only after an illegal move was accepted, N11) does not count
  against the mover.
* RULES.md N7 -- as many dice as possible; with one die only, the larger if either can play.
* RULES.md N8 -- bear off only with all 15 home; a die bears off from its own point, or from the
  highest occupied point when no checker stands on its point or higher.
"""

from __future__ import annotations

from typing import NamedTuple

from controller.rules.nardy.position import (
    CHECKERS,
    HEAD,
    MIRROR,
    OPP_HEAD,
    NardyPosition,
    allowed_block_windows,
    full_block_windows,
)
from controller.rules.nardy.settings import BlockRule, NardySettings

#: Destination number of "off" in a :class:`NardyMove`.
OFF_POINT = 0
#: The doubles that may open with two checkers off the head (RULES.md N5).
HEAD_EXCEPTION_DOUBLES = (3, 4, 6)

_DEFAULT_SETTINGS = NardySettings()


class NardyMove(NamedTuple):
    """One checker moved by one die; the same fields as :class:`controller.rules.moves.Move`.

    :param src: the mover's point 1-24.
    :param dst: the mover's point 1-24, or 0 for off.
    :param hit: always False: nardy has no hitting (RULES.md N4); kept so both variants' moves read
        alike.
    """

    src: int
    dst: int
    hit: bool = False


class NardyPlay(NamedTuple):
    """A whole play for one roll: its single-die steps in an order that is legal, and the result.

    ``result`` is seen from the mover still (``result.me`` is the player who just moved); call
    ``result.swapped()`` to hand the turn over.
    """

    moves: tuple[NardyMove, ...]
    result: NardyPosition


def check_dice(d1: object, d2: object) -> tuple[int, int]:
    """Validate two die values.

    :raises ValueError: when either is not an int from 1 to 6; the message quotes both.
    """
    for d in (d1, d2):
        if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6:
            raise ValueError(f"die {d!r} is not a number from 1 to 6 (dice {d1!r} {d2!r})")
    assert isinstance(d1, int) and isinstance(d2, int)
    return d1, d2


def is_first_roll(position: NardyPosition) -> bool:
    """True when all 15 of the mover's checkers stand on his head.

    In a game played by the rules this happens exactly on a player's first roll: White's first
    roll always moves a checker (nothing of Black's stands within six points of White's head), and
    after White's first move no White checker stands on White's 6-11, the only points that could
    stop every die of Black's first roll (White's single checker ends on his 24 minus the roll, and
    6-6, 4-4, 3-3 leave it on his 18, 16, 15/21) -- so every first roll takes a checker off the head.
    """
    return len(position.me) == 24 and position.me[HEAD - 1] == CHECKERS and sum(position.me) == CHECKERS


def head_exception_stop(position: NardyPosition, die: int) -> int | None:
    """Where one checker off the head stops when the opponent's head blocks it (RULES.md N5).

    For a double ``die`` in 6, 4, 3 with all 15 of the mover's checkers on his head: the point the
    single checker reaches before the opponent's head (the mover's 12-point, held) stops it, or
    None when something else stops it first or nothing does (then no exception applies).
    """
    if die not in HEAD_EXCEPTION_DOUBLES or not is_first_roll(position):
        return None
    opp = position.opp
    point = HEAD
    for _ in range(4):
        nxt = point - die
        if nxt < 1:
            return None
        if opp[MIRROR[nxt] - 1] > 0:
            return point if nxt == OPP_HEAD else None
        point = nxt
    return None


# A step while searching: (source point, destination point or 0 for off, die).
_Step = tuple[int, int, int]


class _Search:
    """Depth-first walk over single-die steps on one mutable board (index = the mover's point)."""

    __slots__ = (
        "board", "blocked", "outside", "windows_at", "steps", "seen", "found", "check_each",
    )

    def __init__(self, position: NardyPosition, settings: NardySettings) -> None:
        me, opp = position.me, position.opp
        self.board = [0, *me]
        # RULES.md N4: a point holding any opposing checker is closed, whatever their number.
        self.blocked = [False] + [opp[MIRROR[p] - 1] > 0 for p in range(1, 25)]
        self.outside = sum(me[6:])
        rule = settings.block_rule
        allowed = allowed_block_windows(me, opp, after_home=rule == BlockRule.AFTER_HOME)
        held_before = set(full_block_windows(me))
        forbidden = [q for q in range(1, 20) if not allowed[q] and q not in held_before]
        windows = [tuple(MIRROR[q + k] for k in range(6)) for q in forbidden]
        self.windows_at: list[list[tuple[int, ...]]] = [[] for _ in range(25)]
        for window in windows:
            for p in window:
                self.windows_at[p].append(window)
        self.check_each = rule != BlockRule.TRANSIENT
        self.steps: list[_Step] = []
        self.seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
        # board -> (steps, number of steps, pips of the dice used)
        self.found: dict[tuple[int, ...], tuple[tuple[_Step, ...], int, int]] = {}

    def makes_block(self, dst: int) -> bool:
        """True when the board (after a step to ``dst``) fills a forbidden window through ``dst``."""
        board = self.board
        for window in self.windows_at[dst]:
            if all(board[p] for p in window):
                return True
        return False

    def final_block(self) -> tuple[tuple[int, ...], ...]:
        """Every forbidden window (each once), for the end-of-turn check of the transient rule."""
        unique = {w for ws in self.windows_at for w in ws}
        return tuple(sorted(unique))

    def record(self, key: tuple[int, ...]) -> None:
        steps = self.steps
        n = len(steps)
        pips = sum(s[2] for s in steps)
        old = self.found.get(key)
        if old is None or (n, pips) > (old[1], old[2]):
            self.found[key] = (tuple(steps), n, pips)

    def walk(self, dice: tuple[int, ...], head_left: int) -> None:
        board = self.board
        bkey = tuple(board)
        key = (bkey, dice)
        if key in self.seen:
            return
        self.seen.add(key)
        self.record(bkey)
        if not dice:
            return
        blocked = self.blocked
        steps = self.steps
        tried: set[int] = set()
        for i, die in enumerate(dice):
            if die in tried:
                continue
            tried.add(die)
            rest = dice[:i] + dice[i + 1 :]
            for s in range(24, 0, -1):
                if not board[s]:
                    continue
                if s == HEAD and head_left == 0:
                    continue  # RULES.md N5
                d = s - die
                if d >= 1:
                    if blocked[d]:
                        continue  # RULES.md N4
                    board[s] -= 1
                    board[d] += 1
                    if self.check_each and board[d] == 1 and self.windows_at[d] and self.makes_block(d):
                        board[d] -= 1
                        board[s] += 1
                        continue  # RULES.md N6
                    came_home = s > 6 >= d
                    if came_home:
                        self.outside -= 1
                    steps.append((s, d, die))
                    self.walk(rest, head_left - (s == HEAD))
                    steps.pop()
                    if came_home:
                        self.outside += 1
                    board[d] -= 1
                    board[s] += 1
                else:
                    # RULES.md N8: all home; exact, or from the highest occupied point.
                    if self.outside or (d < 0 and any(board[s + 1 : 7])):
                        continue
                    board[s] -= 1
                    steps.append((s, OFF_POINT, die))
                    self.walk(rest, head_left)
                    steps.pop()
                    board[s] += 1


def legal_plays(
    position: NardyPosition,
    d1: int,
    d2: int,
    settings: NardySettings = _DEFAULT_SETTINGS,
    *,
    first_roll: bool | None = None,
) -> list[NardyPlay]:
    """Every legal play of roll ``d1``-``d2``, one per distinct resulting position.

    Implements RULES.md N4-N8 (see the module docstring). When nothing can be played (RULES.md N7:
    the roll is lost) the list is empty. Plays come in the order found; sort them by ``result`` or
    by notation for a canonical order.

    :param position: the mover is ``position.me``; ``position.status()`` should be VALID (impossible
        positions give well-defined, non-crashing results: a point holding any opposing checker is
        closed, bearing off needs every checker of the mover in points 1-6).
    :param settings: the block rule (RULES.md N6) is the only setting that changes the legal plays.
    :param first_roll: whether this is the mover's first roll of the game, for the head-rule
        exception (RULES.md N5). ``None`` (default) works it out from the position: all 15 of the
        mover's checkers on his head (:func:`is_first_roll`, exact in any game played by the rules).
        ``False`` switches the exception off; ``True`` cannot switch it on for a position with a
        checker off the head (CS 3.1: no exception when other checkers can play). The exception's
        other condition -- the opponent's head blocks -- is read from ``position.opp``.
    :raises ValueError: when a die is not an int from 1 to 6, a side does not have 24 entries, or a
        count is not an int from 0 up (``NardyStatus.BAD_LENGTH`` / ``BAD_COUNT``). Any other
        impossible position (16 checkers, a shared point) is played, never raised on.
    """
    check_dice(d1, d2)
    if len(position.me) != 24 or len(position.opp) != 24:
        raise ValueError(f"a nardy position has 24 points a side, not {len(position.me)}/{len(position.opp)}")
    if not all(type(n) is int and n >= 0 for n in (*position.me, *position.opp)):
        raise ValueError(f"checker counts must be ints from 0 up in {position!r}")
    dice = (d1,) * 4 if d1 == d2 else (d1, d2)
    search = _Search(position, settings)
    search.walk(dice, 1)
    stop = head_exception_stop(position, d1) if d1 == d2 and first_roll is not False else None
    if stop is not None:
        # RULES.md N5 exception: the first checker goes as far as it can, a second may then leave.
        board = search.board
        k = (HEAD - stop) // d1
        board[HEAD] -= 1
        board[stop] += 1
        search.steps.extend((HEAD - i * d1, HEAD - (i + 1) * d1, d1) for i in range(k))
        search.seen = set()
        search.walk(dice[k:], 1)
    candidates = list(search.found.items())
    if not search.check_each:
        final_windows = search.final_block()
        candidates = [c for c in candidates if not any(all(c[0][p] for p in w) for w in final_windows)]
    best = max((c[1][1] for c in candidates), default=0)
    if best == 0:
        return []  # RULES.md N7: the roll is lost
    chosen = [c for c in candidates if c[1][1] == best]
    if d1 != d2 and best == 1:
        larger = max(d1, d2)
        with_larger = [c for c in chosen if c[1][0][0][2] == larger]
        if with_larger:
            chosen = with_larger  # RULES.md N7: either but not both -- the larger
    return [
        NardyPlay(tuple(NardyMove(s, d) for s, d, _ in steps), NardyPosition(board[1:], position.opp))
        for board, (steps, _, _) in chosen
    ]


def legal_results(
    position: NardyPosition,
    d1: int,
    d2: int,
    settings: NardySettings = _DEFAULT_SETTINGS,
    *,
    first_roll: bool | None = None,
) -> set[NardyPosition]:
    """The set of positions the legal plays of ``d1``-``d2`` lead to (mover still ``me``)."""
    return {p.result for p in legal_plays(position, d1, d2, settings, first_roll=first_roll)}


def find_play(
    position: NardyPosition,
    d1: int,
    d2: int,
    result: NardyPosition,
    settings: NardySettings = _DEFAULT_SETTINGS,
    *,
    first_roll: bool | None = None,
) -> NardyPlay | None:
    """The legal play of ``d1``-``d2`` that leads to ``result`` (mover's frame), or None if none does.

    :raises ValueError: on a bad die.
    """
    for play in legal_plays(position, d1, d2, settings, first_roll=first_roll):
        if play.result == result:
            return play
    return None


def _point(n: int) -> str:
    return "off" if n == OFF_POINT else str(n)


def format_play(moves: NardyPlay | tuple[NardyMove, ...] | list[NardyMove]) -> str:
    """gnubg-style text of a play, e.g. ``"24/15 24/21"``, ``"24/18(2)"``, ``"6/off 5/off"``.

    The conventions of :mod:`controller.formats.notation` without hits (nardy has none): steps in
    order of source then destination, highest first; a later step starting where an earlier chain
    ends extends it (``24/21`` + ``21/18`` = ``24/18``); identical chains once with a count. The
    empty play (a lost roll) is the empty string.
    """
    steps = moves.moves if isinstance(moves, NardyPlay) else tuple(moves)
    ordered = sorted(((m.src, m.dst) for m in steps), reverse=True)
    chains: list[list[int] | None] = [[s, d] for s, d in ordered]
    for i, chain in enumerate(chains):
        if chain is None:
            continue
        for j in range(i + 1, len(chains)):
            other = chains[j]
            if other is not None and chain[1] == other[0] and chain[1] != OFF_POINT:
                chain[1] = other[1]
                chains[j] = None
    counted: list[tuple[tuple[int, int], int]] = []
    for chain in chains:
        if chain is None:
            continue
        pair = (chain[0], chain[1])
        for k, (seen, n) in enumerate(counted):
            if seen == pair:
                counted[k] = (seen, n + 1)
                break
        else:
            counted.append((pair, 1))
    return " ".join(
        f"{_point(s)}/{_point(d)}" + (f"({n})" if n > 1 else "") for (s, d), n in counted
    )
