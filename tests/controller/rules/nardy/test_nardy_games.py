"""Random legal nardy games played to the end, with every invariant checked at every turn.

Hypothesis draws the game (its dice and choices, through a seed) and the settings; the invariants
(tests/controller/rules/nardy/nardy_games.py): 15 checkers a side always (on the board plus borne off,
counted from the plays), never two colours on a point (N4), no illegal block in the strict and
after-home settings at any step nor in any setting at the end of a turn (N6), at most one checker
off the head (two on a first 6-6, 4-4, 3-3) (N5), every step a die of the roll (N4, N8), and a
correct oin/mars/koks/draw at the end (N9).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.rules.nardy import BlockRule, NardySettings, ResultKind
from controller.rules.nardy.settings import FirstMove
from tests.controller.rules.nardy.nardy_games import play_game

SETTINGS = st.builds(
    NardySettings,
    block_rule=st.sampled_from(list(BlockRule)),
    first_move=st.sampled_from(list(FirstMove)),
    koks=st.booleans(),
    draw=st.booleans(),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), game_settings=SETTINGS, bias=st.sampled_from([0.0, 0.3, 0.9]))
def test_random_games_keep_every_invariant_to_the_end(seed: int, game_settings: NardySettings,
                                                      bias: float) -> None:
    record = play_game(random.Random(seed), game_settings, bias)
    assert record.kind in set(ResultKind)
    assert record.white_off == 15 or record.black_off == 15


@pytest.mark.slow
@pytest.mark.timeout(3600)  # minutes on a loaded 2-core machine
def test_self_play_10000_games_breaks_no_invariant() -> None:
    rng = random.Random(2026)
    kinds: Counter[str] = Counter()
    turns = 0
    configs = [
        NardySettings(),
        NardySettings(block_rule=BlockRule.TRANSIENT, koks=True),
        NardySettings(block_rule=BlockRule.AFTER_HOME, draw=True),
        NardySettings(first_move=FirstMove.OPENING_DICE, draw=True, koks=True),
    ]
    for game in range(10_000):
        record = play_game(rng, configs[game % len(configs)], block_bias=(0.0, 0.3, 0.9)[game % 3])
        kinds[record.kind] += 1
        turns += record.turns
    print(f"\n10,000 nardy games, {turns} turns, results {dict(kinds)}")
    assert sum(kinds.values()) == 10_000
