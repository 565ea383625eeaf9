"""The learned stack counter: strips cut where the points are and the reader's rules for taking its
count (the shipped network itself: tests/training/test_stacks_data.py)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.board.finder import geometry_from_corners
from vision.board.geometry import POINT_PX, BoardGeometry
from vision.board.view import FieldView
from vision.checkers import network
from vision.checkers.network import (
    N_COUNTS,
    STRIP_H,
    STRIP_W,
    load_net,
    point_strips,
    refine,
)
from vision.checkers.stacks import StackReading, count_stacks
from vision.reading import DARK, LIGHT
from vision.render.geometry import layout_for
from vision.render.scene import BoardSpec, Render, render
from vision.render.surface import Surface

W, H = 12 * POINT_PX, 11 * POINT_PX


def _geometry() -> BoardGeometry:
    cols = tuple((i + 0.5) * POINT_PX for i in range(12))
    corners = ((0.0, 0.0), (float(W), 0.0), (float(W), float(H)), (0.0, float(H)))
    return BoardGeometry(np.eye(3), (W, H), cols, None, (W, H), 1.0, corners)


def test_strips_follow_the_points_base_first() -> None:
    """Strip i is the point of count_stacks' order i, its base in the strip's first rows: a patch
    at the base of top column 2 and of bottom column 7 shows there and nowhere else."""
    field = np.full((H, W, 3), 120, np.uint8)
    field[0:20, 2 * POINT_PX + 8: 3 * POINT_PX - 8] = 250
    field[H - 20: H, 7 * POINT_PX + 8: 8 * POINT_PX - 8] = 250
    strips = point_strips(FieldView(field, _geometry()), _geometry())
    assert strips.shape == (24, 3, STRIP_H, STRIP_W) and strips.dtype == np.float32
    bright = strips.mean(axis=(1, 3))  # (24, STRIP_H)
    base = bright[:, :4].mean(axis=1)
    assert set(np.flatnonzero(base > base.mean() + 1.0)) == {2, 12 + 7}
    assert bright[2, -10:].mean() < bright[2, :4].mean()  # far from the base: the plain field


@pytest.mark.parametrize("seed", [0, 1])
def test_some_points_strips_are_those_of_all(seed: int) -> None:
    """The strips of a few points (refine's unsure ones) are the very values of all 24's."""
    rng = np.random.default_rng(seed)
    field = rng.integers(0, 255, (H, W, 3), np.uint8)
    field[:, : W // 2] //= 3  # (a darker half: the field's mean and spread are the whole field's)
    view = FieldView(field, _geometry())
    every = point_strips(view, _geometry())
    for points in ([5], [0, 11, 12, 23], list(rng.permutation(24)[:7]), list(range(24))):
        assert np.array_equal(point_strips(view, _geometry(), points), every[points])
    assert point_strips(view, _geometry(), []).shape == (0, 3, STRIP_H, STRIP_W)


def test_strips_stop_at_the_middle() -> None:
    """Past the field's middle the other row's point lies: a strip is blank (0) there."""
    noise = np.random.default_rng(0).integers(0, 255, (H, W, 3), np.uint8)
    strips = point_strips(FieldView(noise, _geometry()), _geometry())
    depth = (np.arange(STRIP_H) + 0.5) * network.STRIP_STEP
    assert np.all(strips[:, :, depth > H / 2] == 0.0)
    assert np.abs(strips[:, :, depth < H / 2 - 2]).mean() > 0.3


class _Fixed:
    """A stand-in network giving every strip the same count probabilities."""

    def __init__(self, count: int, p: float) -> None:
        self.probs = np.full(N_COUNTS, (1.0 - p) / (N_COUNTS - 1), np.float32)
        self.probs[count] = p

    def probabilities(self, strips: np.ndarray) -> np.ndarray:
        return np.tile(self.probs, (len(strips), 1))


def _stacks(count: int, confidence: float) -> list[StackReading]:
    return [StackReading(c, top, count, (200.0, 128.0, 128.0) if count else None, confidence, radius=14.0)
            for top in (True, False) for c in range(12)]


@pytest.mark.parametrize(("conf", "p", "changed"),
                         [(0.2, 0.99, True), (0.95, 0.99, False), (0.2, 0.5, False)])
def test_refine_takes_a_sure_count_over_an_unsure_one(conf: float, p: float, changed: bool) -> None:
    field = np.full((H, W, 3), 120, np.uint8)
    view = FieldView(field, _geometry())
    out = refine(view, _geometry(), _stacks(2, conf), _Fixed(3, p))  # type: ignore[arg-type]
    assert [s.count for s in out] == [3 if changed else 2] * 24
    assert all(s.colour_lab is not None for s in out)


def test_refine_names_the_colour_of_a_stack_it_adds() -> None:
    field = np.full((H, W, 3), 120, np.uint8)
    view = FieldView(field, _geometry())
    out = refine(view, _geometry(), _stacks(0, 0.1), _Fixed(2, 0.99))  # type: ignore[arg-type]
    assert all(s.count == 2 and s.colour_lab is not None and len(s.centres) == 2 for s in out)
    cleared = refine(view, _geometry(), _stacks(2, 0.1), _Fixed(0, 0.99))  # type: ignore[arg-type]
    assert all(s.count == 0 and s.colour_lab is None for s in cleared)


def test_a_missing_weights_file_keeps_the_classical_counts(tmp_path) -> None:  # type: ignore[no-untyped-def]
    assert load_net(tmp_path / "none.onnx") is None


@pytest.mark.skipif(not network.WEIGHTS.exists(), reason="no shipped stack network (make train-stacks)")
def test_mirrored_reading_reads_a_strip_and_its_mirror_alike() -> None:
    """With ``mirror`` a strip and its left-right mirror get the same probabilities (the mean of
    both readings); without it, the plain network's."""
    strips = np.random.default_rng(2).normal(0, 1, (5, 3, STRIP_H, STRIP_W)).astype(np.float32)
    net = network.StackNet(network.WEIGHTS, mirror=True)
    p, q = net.probabilities(strips), net.probabilities(strips[..., ::-1].copy())
    assert p.shape == (5, N_COUNTS) and np.allclose(p, q, atol=1e-5)
    plain = network.StackNet(network.WEIGHTS, mirror=False)
    a, b = plain.probabilities(strips), plain.probabilities(strips[..., ::-1].copy())
    assert np.allclose(p, 0.5 * (a + b), atol=1e-5)
    assert net.probabilities(strips[:0]).shape == (0, N_COUNTS)


def _shown(count: int) -> list[StackReading]:
    """24 stacks of none, each with ``count`` discs of its point's colour seen on the part in view."""
    return [StackReading(c, top, 0, None, 0.7, radius=14.0, rim_only=False,
                         shown=tuple((16.0 + 32 * c, 15.0 + 29 * k) for k in range(count)),
                         shown_lab=(200.0, 128.0, 128.0))
            for top in (True, False) for c in range(12)]


@pytest.mark.parametrize(("count", "p", "taken"), [(1, 0.55, True), (0, 0.95, False), (2, 0.55, False)])
def test_refine_takes_discs_cut_by_the_view_where_the_network_reads_their_count(
        count: int, p: float, taken: bool) -> None:
    """Discs of their point's colour whose rims are complete only on the part in view are taken
    where the network's most likely count is theirs, however unsure it is; not where it reads the
    point bare or another count."""
    view = FieldView(np.full((H, W, 3), 120, np.uint8), _geometry())
    out = refine(view, _geometry(), _shown(1), _Fixed(count, p))  # type: ignore[arg-type]
    assert [s.count for s in out] == [1 if taken else 0] * 24
    if taken:
        assert all(s.colour_lab == (200.0, 128.0, 128.0) and len(s.centres) == 1 and s.rim_only for s in out)
        assert all(s.confidence == pytest.approx(p) for s in out)


# The two sets and the two triangle colours of the renders below: each set's checkers the colour
# of one triangle colour (BGR), as white on white and black on black points.
_LIGHT, _DARK = (226, 232, 236), (34, 34, 40)
# Slots holding one checker of its point's own colour (even slots carry the first point colour):
# light on light at 2 (bottom row) and 14 (top row), dark on dark at 5 (bottom) and 19 (top).
_OWN = {2: LIGHT, 14: LIGHT, 5: DARK, 19: DARK}


def _own_colour_spec(with_checkers: bool = True) -> BoardSpec:
    points: list[tuple[str | None, int]] = [(None, 0)] * 24
    if with_checkers:
        for slot, n in ((2, 1), (14, 1), (1, 5), (3, 4), (13, 3), (23, 1)):
            points[slot] = (LIGHT, n)
        for slot, n in ((5, 1), (19, 1), (0, 5), (22, 4), (10, 3), (20, 1)):
            points[slot] = (DARK, n)
    return BoardSpec(points=tuple(points), style="wood", checker_colours=(_LIGHT, _DARK), cube_position=None)


def _cut_field(spec: BoardSpec, seed: int, cut: float = 0.3) -> tuple[Render, BoardGeometry]:
    """A render of ``spec`` with the renderer's random materials (grain, prints, gloss; the point
    colours those of the two sets, a little off), and the field's geometry with its long sides
    ``cut`` checker diameters inside the true ones: a finder that ends the field inside the first
    checkers (training.stacks_data.finder_error makes such errors up to half a point)."""
    rng = np.random.default_rng(seed)
    look = Surface.random(rng)
    near = [tuple(int(v) for v in np.clip(np.array(c) + rng.integers(-6, 7, 3), 0, 255))
            for c in (_LIGHT, _DARK)]
    look = replace(look, points=(near[0], near[1]))  # type: ignore[arg-type]
    r = render(spec, size=(1280, 720), view="rectified", seed=seed, surface=look)
    lay = layout_for("wood")
    corners = np.asarray(r.regions["field"], dtype=np.float64)  # TL, TR, BR, BL
    d = lay.checker_d / (lay.field[3] - lay.field[1]) * float(np.linalg.norm(corners[3] - corners[0]))
    corners[:2, 1] += cut * d
    corners[2:, 1] -= cut * d
    assert lay.bar is not None
    gap = (lay.bar[1] - lay.bar[0]) / (lay.field[2] - lay.field[0])
    return r, geometry_from_corners(r.image, corners, bar=gap)


def _index(slot: int) -> int:
    """count_stacks' order (12 top, then 12 bottom, left to right) of a slot."""
    return slot - 12 if slot >= 12 else 23 - slot


needs_net = pytest.mark.skipif(not network.WEIGHTS.exists(),
                               reason="no shipped stack network (make train-stacks)")


@needs_net
@pytest.mark.parametrize(("seed", "slot"), [(2, 2), (3, 2), (5, 14), (8, 14), (11, 14)])
def test_a_light_checker_on_a_light_point_cut_by_the_fields_edge_is_counted(seed: int, slot: int) -> None:
    """A white checker on a white point, the field's edge found inside it (boards-real test6): the
    classical counter sees its rim complete only on the part in view, the network reads one."""
    r, geom = _cut_field(_own_colour_spec(), seed)
    view = FieldView.of_frame(r.image, geom)
    counted = count_stacks(view, geom)
    assert counted[_index(slot)].count == 0 and len(counted[_index(slot)].shown) == 1
    got = refine(view, geom, counted)[_index(slot)]
    assert got.count == 1 and got.colour_lab is not None and got.colour_lab[0] > 128


@needs_net
@pytest.mark.parametrize(("seed", "slot"), [(1, 19), (3, 19), (7, 5), (7, 19)])
def test_a_dark_checker_on_a_dark_point_cut_by_the_fields_edge_is_counted(seed: int, slot: int) -> None:
    r, geom = _cut_field(_own_colour_spec(), seed)
    view = FieldView.of_frame(r.image, geom)
    counted = count_stacks(view, geom)
    assert counted[_index(slot)].count == 0 and len(counted[_index(slot)].shown) == 1
    got = refine(view, geom, counted)[_index(slot)]
    assert got.count == 1 and got.colour_lab is not None and got.colour_lab[0] < 128


@needs_net
@pytest.mark.parametrize("seed", [1, 3, 7])
def test_bare_points_cut_by_the_fields_edge_stay_bare(seed: int) -> None:
    """An empty board of the same materials, its field cut as above: the bare triangles' sides and
    base fill the cut rings as a checker's rim would (the classical counter offers some), and the
    network reads them bare, so none is counted. (Seeds whose prints the reader takes for checkers
    elsewhere on the board, another defect, are not among these.)"""
    r, geom = _cut_field(_own_colour_spec(with_checkers=False), seed)
    view = FieldView.of_frame(r.image, geom)
    counted = count_stacks(view, geom)
    assert any(s.shown for s in counted)
    assert not any(s.count for s in refine(view, geom, counted))


@pytest.mark.skipif(not network.WEIGHTS.exists(), reason="no shipped stack network (make train-stacks)")
def test_a_strips_probabilities_do_not_depend_on_its_batch() -> None:
    """refine asks only about the unsure points: each strip must read the same, bit for bit, in a
    batch of 24 and in a batch of a few."""
    strips = np.random.default_rng(3).normal(0, 1, (24, 3, STRIP_H, STRIP_W)).astype(np.float32)
    net = network.StackNet(network.WEIGHTS)
    whole = net.probabilities(strips)
    for pick in ([5], [0, 23], [2, 9, 11, 17], list(range(0, 24, 3))):
        assert np.array_equal(net.probabilities(strips[pick]), whole[pick])


class _Asked(_Fixed):
    """:class:`_Fixed`, keeping how many strips each call asked about."""

    def __init__(self, count: int, p: float) -> None:
        super().__init__(count, p)
        self.asked: list[int] = []

    def probabilities(self, strips: np.ndarray) -> np.ndarray:
        self.asked.append(len(strips))
        return super().probabilities(strips)


def test_refine_asks_only_about_the_unsure_points() -> None:
    field = np.full((H, W, 3), 120, np.uint8)
    view = FieldView(field, _geometry())
    stacks = [s if i % 4 else StackReading(s.column, s.top, 2, s.colour_lab, 0.2, radius=14.0)
              for i, s in enumerate(_stacks(2, 0.95))]
    net = _Asked(3, 0.99)
    out = refine(view, _geometry(), stacks, net)  # type: ignore[arg-type]
    assert net.asked == [6]
    assert [s.count for s in out] == [3 if i % 4 == 0 else 2 for i in range(24)]


def test_refine_asks_about_sure_empty_points_with_cut_discs() -> None:
    """A point read as none, surely, whose cut discs wait for the network's word is asked too."""
    field = np.full((H, W, 3), 120, np.uint8)
    view = FieldView(field, _geometry())
    stacks = _shown(0)
    stacks[5] = replace(_shown(1)[5], confidence=0.95)
    net = _Asked(1, 0.55)
    out = refine(view, _geometry(), stacks, net)  # type: ignore[arg-type]
    assert net.asked == [1]
    assert [s.count for s in out] == [1 if i == 5 else 0 for i in range(24)]
