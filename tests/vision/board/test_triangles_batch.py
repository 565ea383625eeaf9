"""The triangle finder's pair search (`vision.board.triangles`): the ends compared only within the
longest reach in x give exactly the pairs of the full comparison, in its order."""

from __future__ import annotations

import numpy as np
import pytest

from vision.board.triangles import _TIP_MEET, _meeting_ends


@pytest.mark.parametrize("seed", range(4))
def test_meeting_ends_are_the_full_comparisons(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 300))
    ends = rng.uniform(0, 480, (n, 2))
    # clustered ends too, as a row of triangles' tips
    ends[: n // 3] = ends[0] + rng.normal(0, 3, (n // 3, 2))
    far = rng.uniform(0, 480, (n, 2))
    tips = np.concatenate([ends, far]).astype(np.float32)
    lens = np.tile(rng.uniform(10, 120, n), 2).astype(np.float32)
    which = np.concatenate([np.arange(n), np.arange(n)])
    dx = tips[:, None, 0] - tips[None, :, 0]
    dy = tips[:, None, 1] - tips[None, :, 1]
    reach = _TIP_MEET * np.minimum(lens[:, None], lens[None, :])
    want = np.nonzero((dx * dx + dy * dy < reach * reach) & (which[:, None] < which[None, :]))
    got = _meeting_ends(tips, lens, which)
    assert len(want[0]) > 0
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
