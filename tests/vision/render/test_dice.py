"""Dice scenes without a board (vision.render.dice): truth is self-consistent; the dice reader
(vision.dice.photo.find_dice) reads them."""

from __future__ import annotations

import numpy as np
import pytest

from vision.reading import DieStatus
from vision.render.dice import render_dice_scene
from vision.render.scene import RenderError


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


def _read_scenes(seeds: range) -> list[tuple[int, int, DieStatus, list[tuple[int, DieStatus]]]]:
    """(seed, true value, true status, [(value, status) read within one die edge]) for every die of
    three-dice scenes whose middle die is cocked on odd seeds."""
    from vision.dice.photo import find_dice

    out = []
    for seed in seeds:
        sc = render_dice_scene([1 + (seed * 5 + k) % 6 for k in range(3)], seed=seed,
                               cocked=[False, seed % 2 == 1, False])
        got = find_dice(sc.image)
        for t in sc.dice:
            near = [(g.value, g.status) for g in got if g.image_xy and np.hypot(
                g.image_xy[0] - t.image_xy[0], g.image_xy[1] - t.image_xy[1]) < sc.side_px[0]]
            out.append((seed, t.value, t.status, near))
    return out


def test_dice_reader_reads_scenes() -> None:
    """Every die of 8 scenes is found and its pips read (measured 17:40 UTC: 24/24, before 21/24)."""
    misses = [r for r in _read_scenes(range(8)) if not r[3] or r[3][0][0] != r[1]]
    assert not misses, misses


def test_dice_reader_tells_cocked_dice_in_scenes() -> None:
    """RULES.md B15/N10 (a cocked die forces a re-throw): no flat die of 8 scenes is read cocked (the
    worse error), and the cocked dice found are told (:mod:`vision.dice.tilt`). Judged on the dice the
    reader finds, whatever value it reads (finding and reading are the classifier's, tested above).
    Measured 17:40 UTC with the shipped networks: 4 of 4 cocked found, 3 told (before: 0), none of 20
    flat called cocked. The miss is a black die whose top face's lone pip the classical reader passes
    over for the side face's two (no top face to judge)."""
    rows = _read_scenes(range(8))
    flat_called = [r for r in rows if r[2] == DieStatus.FLAT and r[3] and r[3][0][1] != DieStatus.FLAT]
    assert not flat_called, flat_called
    found = [r for r in rows if r[2] == DieStatus.COCKED and r[3]]
    missed = [r for r in found if r[3][0][1] != DieStatus.COCKED]
    assert len(found) >= 2 and len(missed) <= 1, found


@pytest.mark.slow
def test_dice_reader_tells_cocked_dice_in_many_scenes() -> None:
    """As above over 40 scenes (RULES.md B15/N10). Measured 17:40 UTC: 13 of 20 cocked told (the
    misses: black dice whose side face is 13-15 Lab units from the top, a white die's side face the
    cloth's colour, a green die on green), no flat die called cocked."""
    rows = _read_scenes(range(40))
    assert not [r for r in rows if r[2] == DieStatus.FLAT and r[3] and r[3][0][1] != DieStatus.FLAT]
    told = [r for r in rows if r[2] == DieStatus.COCKED and r[3] and r[3][0][1] == DieStatus.COCKED]
    assert len(told) >= 13
