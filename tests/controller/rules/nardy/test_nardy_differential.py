"""The real nardy generator against the naive reference (tests/controller/rules/nardy/nardy_reference.py).

Issue 7's second opinion: on random reachable positions (1,000 here, 100,000 in the slow run), on
every first roll of both players, and on made-up positions dense in six-point blocks (the random
games rarely reach the N6 cases), both must give the same set of results. Every disagreement is a
bug in one of the two; the rule texts decide which.
"""

from __future__ import annotations

import random

import pytest

from controller.rules.nardy import (
    BlockRule,
    NardyPosition,
    NardySettings,
    NardyStatus,
    legal_plays,
    legal_results,
)
from controller.rules.nardy.randomgame import random_positions
from tests.controller.rules.nardy.nardy_reference import naive_results

SETTINGS = [NardySettings(block_rule=rule) for rule in BlockRule]


def _mine(q: int) -> int:
    return q - 12 if q > 12 else q + 12


def block_heavy_position(rng: random.Random) -> NardyPosition:
    """A possible position (no shared point, 15 or fewer a side) with a run of 4-7 of my points (mostly 5).

    The run lies along the opponent's path; his checkers are put behind it, past it, or home, so
    each clause of RULES.md N6 is met often.
    """
    while True:
        me = [0] * 24
        opp = [0] * 24
        start = rng.randint(1, 19)
        length = rng.choice([4, 5, 5, 5, 6, 7])
        run = [_mine(q) for q in range(start, min(start + length, 25))]
        for p in run:
            me[p - 1] += 1
        mine_left = rng.choice([15, 15, 15, 14, 12]) - len(run)
        if rng.random() < 0.4:
            head = rng.randint(0, max(0, mine_left))
            me[23] += head
            mine_left -= head
        for _ in range(max(0, mine_left)):
            me[rng.choice(run + [rng.randint(1, 24)]) - 1] += 1
        where = rng.random()
        theirs = rng.choice([15, 15, 14, 10])
        for _ in range(theirs):
            if where < 0.6:
                q = rng.randint(min(start + length, 24), 24)  # behind the run
            elif where < 0.8:
                q = rng.randint(1, 24)
            else:
                q = rng.choice([rng.randint(1, 6), rng.randint(7, 24)])
            opp[q - 1] += 1
        position = NardyPosition(tuple(me), tuple(opp))
        if sum(me) <= 15 and position.status() & ~(NardyStatus.BLOCK_ME | NardyStatus.BLOCK_OPP) == 0:
            return position


def _compare(position: NardyPosition, d1: int, d2: int, settings: NardySettings) -> str | None:
    real = legal_results(position, d1, d2, settings)
    naive = naive_results(position, d1, d2, settings)
    if real == naive:
        return None
    return (
        f"{position!r} {d1}-{d2} {settings.block_rule}: real only {sorted(p.me for p in real - naive)}, "
        f"naive only {sorted(p.me for p in naive - real)}"
    )


def _run_reachable(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    bad: list[str] = []
    per_rule = count // len(SETTINGS)
    for i, settings in enumerate(SETTINGS):
        n = per_rule if i else count - per_rule * (len(SETTINGS) - 1)
        for position in random_positions(n, seed + i, settings, block_bias=0.5):
            message = _compare(position, rng.randint(1, 6), rng.randint(1, 6), settings)
            if message:
                bad.append(message)
    return bad


@pytest.mark.slow
def test_real_equals_naive_on_1000_random_reachable_positions() -> None:
    bad = _run_reachable(1000, 7)
    assert not bad, f"{len(bad)} disagreements, first: {bad[0]}"


@pytest.mark.slow
@pytest.mark.timeout(3600)  # minutes on a loaded 2-core machine
def test_real_equals_naive_on_100000_random_reachable_positions() -> None:
    bad = _run_reachable(100_000, 2026)
    assert not bad, f"{len(bad)} disagreements, first: {bad[0]}"


def test_real_equals_naive_on_every_first_roll_of_both_players() -> None:
    # RULES.md N5: White's 36 first rolls from the start; Black's 36 after each of White's plays.
    start = NardyPosition.initial()
    bad = []
    for w1 in range(1, 7):
        for w2 in range(1, 7):
            if _compare(start, w1, w2, SETTINGS[0]):
                bad.append(("white", w1, w2))
            for white in legal_plays(start, w1, w2):
                black = white.result.swapped()
                for b1 in range(1, 7):
                    for b2 in range(1, 7):
                        if _compare(black, b1, b2, SETTINGS[0]):
                            bad.append(("black", w1, w2, b1, b2))
    assert not bad


@pytest.mark.slow
@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: s.block_rule)
def test_real_equals_naive_on_block_heavy_positions(settings: NardySettings) -> None:
    rng = random.Random(11)
    bad = []
    for _ in range(300):
        position = block_heavy_position(rng)
        message = _compare(position, rng.randint(1, 6), rng.randint(1, 6), settings)
        if message:
            bad.append(message)
    assert not bad, f"{len(bad)} disagreements, first: {bad[0]}"


def test_block_heavy_positions_do_exercise_the_block_rule() -> None:
    # Guard against a sampler that never reaches N6: the three settings must disagree sometimes.
    rng = random.Random(11)
    differ = 0
    for _ in range(300):
        position = block_heavy_position(rng)
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        results = [legal_results(position, d1, d2, s) for s in SETTINGS]
        differ += results[0] != results[1] or results[0] != results[2]
    assert differ >= 10
