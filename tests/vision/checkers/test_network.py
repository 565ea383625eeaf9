"""The learned stack counter: strips cut where the points are and the reader's rule for taking its
count (the shipped network itself: tests/training/test_stacks_data.py)."""

from __future__ import annotations

import numpy as np
import pytest

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
from vision.checkers.stacks import StackReading

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
