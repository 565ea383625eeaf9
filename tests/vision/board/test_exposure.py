"""normalise_exposure: an under-exposed field's gain undone, from its grey level's 95th percentile."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.board.exposure import FIELD_EXPOSED, normalise_exposure


@pytest.mark.parametrize("seed", range(5))
def test_the_gain_is_the_channel_means_percentile(seed: int) -> None:
    """The grey level is the mean of the three channels (made from their integer sum): the gain is
    the one the floating mean over the channels gives."""
    rng = np.random.default_rng(seed)
    dim = rng.integers(0, 60 + 20 * seed, size=(101, 157, 3), dtype=np.uint8)
    ref = float(np.percentile(dim[::2, ::2].mean(axis=2), 95))
    want = cv2.convertScaleAbs(dim, alpha=min(4.0, FIELD_EXPOSED / ref))
    assert np.array_equal(normalise_exposure(dim), want)


def test_a_bright_field_is_left_as_it_is() -> None:
    bright = np.full((40, 60, 3), 200, np.uint8)
    assert normalise_exposure(bright) is bright
