"""Random reachable positions: play games with uniformly random legal plays (tests and benchmarks).

Every position returned arose in a game from :meth:`Position.initial` under RULES.md B3-B8, so it
is a fair sample for differential tests against gnubg and for speed measurements.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from controller.rules.moves import legal_plays
from controller.rules.position import Position


def random_positions(count: int, seed: int = 0) -> Iterator[Position]:
    """``count`` positions, each the position before a roll, from random games (new game when one ends).

    Deterministic for a given ``seed``. Each yielded position has the player on roll as ``me``.
    Games start with a random non-double opening roll (RULES.md B3).
    """
    rng = random.Random(seed)
    produced = 0
    while produced < count:
        position = Position.initial()
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        while d1 == d2:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        while produced < count:
            yield position
            produced += 1
            plays = legal_plays(position, d1, d2)
            if plays:
                position = rng.choice(plays).result
                if not any(position.me):
                    break
            position = position.swapped()
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
