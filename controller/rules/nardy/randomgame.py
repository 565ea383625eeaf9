"""Random reachable long nardy positions: games played with random legal plays (tests, benchmarks).

Every position yielded arose in a game from :meth:`NardyPosition.initial` under RULES.md N3-N8
(by :func:`controller.rules.nardy.moves.legal_plays`), so it is a fair sample for the differential
test against the naive reference generator and for speed measurements.

Uniformly random plays rarely build six points in a row, so a share of the plays can be chosen
"greedy for blocks" (the play holding the longest run of points), which drives games through the
positions RULES.md N6 is about.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from controller.rules.nardy.moves import NardyPlay, legal_plays
from controller.rules.nardy.position import MIRROR, NardyPosition
from controller.rules.nardy.settings import NardySettings


def longest_run(side: tuple[int, ...]) -> int:
    """Longest run of consecutive points held by ``side`` along the *other* player's path.

    :param side: 24 counts in the holder's own numbering.
    """
    best = run = 0
    for q in range(1, 25):
        run = run + 1 if side[MIRROR[q] - 1] else 0
        best = max(best, run)
    return best


def choose_play(plays: list[NardyPlay], rng: random.Random, block_bias: float) -> NardyPlay:
    """One of ``plays``: with probability ``block_bias`` one holding the longest run, else uniform."""
    if rng.random() < block_bias:
        top = max(longest_run(p.result.me) for p in plays)
        return rng.choice([p for p in plays if longest_run(p.result.me) == top])
    return rng.choice(plays)


def random_positions(
    count: int,
    seed: int = 0,
    settings: NardySettings | None = None,
    block_bias: float = 0.3,
) -> Iterator[NardyPosition]:
    """``count`` positions, each the position before a roll, from random games (new game when one ends).

    Deterministic for a given ``seed``. Each yielded position has the player on roll as ``me``.
    """
    settings = settings or NardySettings()
    rng = random.Random(seed)
    produced = 0
    while produced < count:
        position = NardyPosition.initial()
        while produced < count:
            yield position
            produced += 1
            plays = legal_plays(position, rng.randint(1, 6), rng.randint(1, 6), settings)
            if plays:
                position = choose_play(plays, rng, block_bias).result
                if not any(position.me):
                    break
            position = position.swapped()
