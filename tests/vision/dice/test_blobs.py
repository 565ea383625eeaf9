"""The one pip detector of both dice readers (vision.dice.blobs): round blobs of any polarity and,
with the photo's weights, of any colour respond; straight edges do not; roundness tells a dot from a
line's end."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.dice.blobs import BOARD_WEIGHTS, PHOTO_WEIGHTS, blob_map, peaks, roundness


def _lab(pip: tuple[int, int, int], body: tuple[int, int, int] = (200, 128, 128)) -> np.ndarray:
    img = np.zeros((60, 60, 3), np.uint8)
    img[:] = body
    cv2.circle(img, (30, 30), 4, pip, -1)
    return img


@pytest.mark.parametrize("pip", [(40, 128, 128), (250, 128, 128)])
def test_a_dark_or_light_pip_is_one_peak(pip: tuple[int, int, int]) -> None:
    light = _lab(pip, (150, 128, 128))[:, :, 0].astype(np.float32)
    m = blob_map(light, 2.5, BOARD_WEIGHTS)
    ys, xs = peaks(m.strength, 3, 25.0)
    assert list(zip(xs.tolist(), ys.tolist(), strict=True)) == [(30, 30)]
    assert roundness(m.dxx[30, 30], m.dyy[30, 30], m.dxy[30, 30]) > 0.9
    # the lightness's Laplacian tells the polarity: positive at a dark blob
    assert (m.dxx[30, 30] + m.dyy[30, 30] > 0) == (pip[0] < 150)


def test_a_pip_of_another_colour_only_shows_in_the_photo_weights() -> None:
    """A red pip on a grey face of the same lightness: the chroma channels find it."""
    lab = _lab((200, 190, 170)).astype(np.float32)
    colour = blob_map(lab, 2.5, PHOTO_WEIGHTS)
    grey = blob_map(np.ascontiguousarray(lab[:, :, 0]), 2.5, BOARD_WEIGHTS)
    assert colour.strength[30, 30] > 25.0
    assert grey.strength.max() < 1.0
    assert colour.smoothed.shape == lab.shape


def test_a_straight_edge_is_no_blob() -> None:
    img = np.full((60, 60), 200.0, np.float32)
    img[:, 30:] = 40.0
    assert blob_map(img, 2.5).strength[5:-5, 5:-5].max() < 5.0


def test_a_line_end_is_less_round_than_a_dot() -> None:
    img = np.full((60, 60), 200.0, np.float32)
    cv2.line(img, (10, 30), (30, 30), 40.0, 3)
    m = blob_map(img, 1.5)
    ys, xs = peaks(m.strength, 3, 10.0)
    r = roundness(m.dxx[ys, xs], m.dyy[ys, xs], m.dxy[ys, xs])
    assert r.max() < 0.6


def test_scratch_space_gives_the_same_values() -> None:
    img = _lab((40, 128, 128))[:, :, 0].astype(np.float32)
    fresh, kept = blob_map(img, 2.0), blob_map(img, 2.0, slot="test")
    np.testing.assert_array_equal(fresh.strength, kept.strength)
    with pytest.raises(ValueError):
        blob_map(img, 2.0, PHOTO_WEIGHTS)


def test_an_unrooted_map_is_the_square_of_the_strength() -> None:
    light = _lab((40, 128, 128), (150, 128, 128))[:, :, 0].astype(np.float32)
    rooted, squared = blob_map(light, 1.8), blob_map(light, 1.8, root=False)
    assert np.array_equal(cv2.sqrt(squared.strength), rooted.strength)
