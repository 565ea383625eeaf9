"""Dice scenes without a board (vision.render_dice): truth is self-consistent; the dice reader
(vision.dice.find_dice) reads them."""

from __future__ import annotations

import numpy as np
import pytest

from vision.reading import DieStatus
from vision.render import RenderError
from vision.render_dice import render_dice_scene


@pytest.mark.parametrize("seed", range(6))
def test_scene_truth(seed: int) -> None:
    values = [1 + (seed + k) % 6 for k in range(4)]
    cocked = [k == seed % 4 for k in range(4)]
    sc = render_dice_scene(values, size=(480, 360), seed=seed, cocked=cocked)
    assert sc.image.shape == (360, 480, 3) and sc.image.dtype == np.uint8
    assert sorted(d.value for d in sc.dice) == sorted(values)
    assert sum(d.status == DieStatus.COCKED for d in sc.dice) == 1
    xs = [d.image_xy[0] for d in sc.dice]
    assert xs == sorted(xs)
    for d, s in zip(sc.dice, sc.side_px, strict=True):
        x, y = d.image_xy
        assert s <= x <= 480 - s and s <= y <= 360 - s
        # the die's face is brighter or darker than the cloth around it: something is drawn there
        patch = sc.image[int(y) - 2 : int(y) + 3, int(x) - int(s) // 3 : int(x) + int(s) // 3]
        cloth = np.median(sc.image.reshape(-1, 3), axis=0)
        assert np.abs(patch.astype(int).mean(axis=(0, 1)) - cloth).max() > 15
    again = render_dice_scene(values, size=(480, 360), seed=seed, cocked=cocked)
    assert np.array_equal(again.image, sc.image)


def test_bad_scenes_are_refused() -> None:
    with pytest.raises(RenderError, match="1-6"):
        render_dice_scene([0, 3])
    with pytest.raises(RenderError, match="fit"):
        render_dice_scene([1] * 40, size=(120, 90), side=30)


# Measured at 13:25 UTC: vision.dice (the dice engineer's, in progress) reads 21 of these 24 dice's
# values and 20 statuses right (the cocked ones are read as flat).
@pytest.mark.xfail(reason="vision.dice reads 21/24 values and 20/24 statuses of these scenes (13:25 UTC)",
                   strict=False)
def test_dice_reader_reads_scenes() -> None:
    dice = pytest.importorskip("vision.dice", reason="vision.dice is not written yet")
    misses = []
    for seed in range(8):
        sc = render_dice_scene([1 + (seed * 5 + k) % 6 for k in range(3)], seed=seed,
                               cocked=[False, seed % 2 == 1, False])
        got = dice.find_dice(sc.image)
        for t in sc.dice:
            near = [g for g in got if g.image_xy and np.hypot(g.image_xy[0] - t.image_xy[0],
                                                              g.image_xy[1] - t.image_xy[1]) < sc.side_px[0]]
            if not near or near[0].value != t.value or near[0].status != t.status:
                misses.append((seed, t.value, t.status.value, [(g.value, g.status.value) for g in near]))
    assert not misses, misses
