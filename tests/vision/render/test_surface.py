"""Training surfaces (grain, printed logos, point colours, gloss) change a render's look, never its
truth, and a render without one is as before."""

from __future__ import annotations

import numpy as np

from vision.render.scene import random_spec, render
from vision.render.surface import Surface


def _spec():  # type: ignore[no-untyped-def]
    return random_spec(5, style="wood", max_stack=6)


def test_an_empty_surface_leaves_the_render_as_it_was() -> None:
    plain = render(_spec(), size=(640, 360), seed=3)
    same = render(_spec(), size=(640, 360), seed=3, surface=Surface(seed=9))
    assert np.array_equal(plain.image, same.image)


def test_a_surface_changes_the_look_and_keeps_the_truth() -> None:
    plain = render(_spec(), size=(640, 360), view="rectified", seed=3, noise=0.0)
    look = Surface(grain=1.0, prints=3, points=((24, 24, 26), (36, 30, 170)), gloss=1.0, seed=4)
    dressed = render(_spec(), size=(640, 360), view="rectified", seed=3, noise=0.0, surface=look)
    assert dressed.truth == plain.truth
    diff = np.abs(dressed.image.astype(int) - plain.image.astype(int)).sum(axis=2) > 0
    assert diff.mean() > 0.1
    # nothing drawn outside the board: the table round it is untouched
    x0, y0 = np.floor(plain.board_corners.min(axis=0)).astype(int)
    x1, y1 = np.ceil(plain.board_corners.max(axis=0)).astype(int)
    outside = np.ones(diff.shape, bool)
    outside[max(0, y0 - 12): y1 + 12, max(0, x0 - 12): x1 + 12] = False
    assert not diff[outside].any()


def test_prints_stay_on_the_field() -> None:
    """Logos and words are drawn on the field only: the frame round it is untouched."""
    plain = render(_spec(), size=(640, 360), view="rectified", seed=3, noise=0.0)
    dressed = render(_spec(), size=(640, 360), view="rectified", seed=3, noise=0.0,
                     surface=Surface(prints=6, seed=11))
    diff = np.abs(dressed.image.astype(int) - plain.image.astype(int)).sum(axis=2) > 0
    field = plain.regions["field"]
    x0, y0 = np.floor(field.min(axis=0)).astype(int)
    x1, y1 = np.ceil(field.max(axis=0)).astype(int)
    inside = np.zeros(diff.shape, bool)
    inside[y0 - 1: y1 + 2, x0 - 1: x1 + 2] = True
    assert diff.any() and not diff[~inside].any()


def test_random_surfaces_are_seeded() -> None:
    a = Surface.random(np.random.default_rng(1))
    assert a == Surface.random(np.random.default_rng(1))
    assert len({Surface.random(np.random.default_rng(s)) for s in range(20)}) == 20
