"""The bare colours' consensus taken for several sample sets at once equals each set's alone (the
count takes both rows' and parities' in one call)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.checkers.stacks import _consensus


@pytest.mark.parametrize("k", [6, 12])
def test_consensus_of_stacked_sets_equals_each_alone(k: int) -> None:
    rng = np.random.default_rng(k)
    # whole-number Lab colours as the view gives them, a few repeated (ties in the distances)
    sets = rng.integers(0, 256, (4, 90, k, 3)).astype(np.float32)
    sets[:, ::3, : k // 2] = sets[:, ::3, :1]
    sets[1, 5:40] = np.float32([200.0, 128.0, 130.0]) + rng.integers(-8, 9, (35, k, 3))
    stacked = _consensus(sets)
    for i in range(4):
        # (each set as the count made it alone: a strided view of the points by depths)
        alone = np.ascontiguousarray(sets[i].swapaxes(0, 1)).swapaxes(0, 1)
        assert np.array_equal(stacked[i], _consensus(alone))
