"""Occluders pasted onto any photo (vision.render.occluders): where they land, what they change."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.errors import RenderError
from vision.render.occluders import OCCLUDERS, expose, fabric_tone, paste_occluder, skin_tone


def _canvas() -> np.ndarray:
    img = np.full((240, 320, 3), 200, np.uint8)
    img[:, ::16] = 40  # some structure under the occluder
    return img


@pytest.mark.parametrize("kind", OCCLUDERS)
def test_an_occluder_covers_its_place_and_leaves_the_far_side_alone(kind: str) -> None:
    img = _canvas()
    before = img.copy()
    out, mask = paste_occluder(img, kind, (160.0, 120.0), 12.0, np.random.default_rng(3),
                               entry=(160.0, 260.0))
    assert np.array_equal(img, before)  # the input is not drawn on
    assert mask[108:133, 148:173].mean() > 127  # over its place (a hand's fingers part there)
    assert np.count_nonzero(mask) >= np.pi * 12.0**2  # at least a checker's area
    # far from the occluder (the top corners here) the photo is as it was
    far = cv2.dilate(mask, np.ones((15, 15), np.uint8)) == 0
    assert far[:20, :20].all() and np.array_equal(out[:20, :20], before[:20, :20])
    assert np.abs(out.astype(int) - before.astype(int))[mask > 0].mean() > 5


def test_a_hand_from_the_edge_reaches_back_to_it() -> None:
    _, mask = paste_occluder(_canvas(), "hand", (160.0, 100.0), 10.0, np.random.default_rng(0),
                             entry=(160.0, 260.0))
    assert mask[235:, 150:170].any()  # its forearm is drawn to the frame's bottom edge
    _, alone = paste_occluder(_canvas(), "hand", (160.0, 100.0), 10.0, np.random.default_rng(0))
    assert not alone[235:].any()


def test_bad_requests_are_refused() -> None:
    rng = np.random.default_rng(0)
    with pytest.raises(RenderError):
        paste_occluder(_canvas(), "hat", (10.0, 10.0), 5.0, rng)
    with pytest.raises(RenderError):
        paste_occluder(_canvas(), "sleeve", (10.0, 10.0), 5.0, rng)  # a sleeve needs its entry
    with pytest.raises(RenderError):
        paste_occluder(np.zeros((10, 10), np.uint8), "cup", (5.0, 5.0), 2.0, rng)
    with pytest.raises(RenderError):
        expose(_canvas(), 0.0)


def test_skin_tones_are_skin_coloured_and_fabrics_range_widely() -> None:
    rng = np.random.default_rng(1)
    skins = np.array([skin_tone(rng) for _ in range(50)], np.uint8)[None]
    lab = cv2.cvtColor(skins, cv2.COLOR_BGR2LAB)[0].astype(int)
    assert (lab[:, 1] > 128).all() and (lab[:, 2] > 128).all()  # red-yellow
    assert lab[:, 0].max() - lab[:, 0].min() > 60  # deep to pale
    fabrics = np.array([fabric_tone(rng) for _ in range(50)], np.uint8)[None]
    flab = cv2.cvtColor(fabrics, cv2.COLOR_BGR2LAB)[0].astype(int)
    assert (flab[:, 1] < 128).any() and (flab[:, 1] > 128).any()


def test_exposure_clips_bright_and_darkens_dim() -> None:
    img = _canvas()
    over = expose(img, 2.0)
    assert over.max() == 255 and (over[img >= 128] == 255).all()
    under = expose(img, 0.25, np.random.default_rng(0))
    assert abs(float(under.mean()) - 0.25 * float(img.mean())) < 2.0
