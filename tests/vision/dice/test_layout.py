"""The pairing and layout test both dice readers share (vision.dice.layout)."""

from __future__ import annotations

import numpy as np

from vision.dice.layout import BOARD_LAYOUT, PHOTO_LAYOUT, layout_ok, mirror_pairs

# a d6's pip grid in die edges: corners 0.28 from the centre along each side
_G = 0.28
_SIX = [(-_G, -_G), (_G, -_G), (-_G, 0.0), (_G, 0.0), (-_G, _G), (_G, _G)]


def _pairs(points: list[tuple[float, float]], edge: float) -> tuple[int | None, list[tuple[int, int]]]:
    px = [edge * x + 50.0 for x, _ in points]
    py = [edge * y + 40.0 for _, y in points]
    return mirror_pairs(px, py, [100.0] * len(points), range(len(points)), 50.0, 40.0, 0.1 * edge)


def _vec(points: list[tuple[float, float]], pairs: list[tuple[int, int]], edge: float) -> list[np.ndarray]:
    return [edge * np.subtract(points[j], points[i]) for i, j in pairs]


def test_a_six_pairs_into_three_mirrored_pairs_and_is_a_six_for_both_readers() -> None:
    centre, pairs = _pairs(_SIX, 30.0)
    assert centre is None and len(pairs) == 3
    assert sorted(i for p in pairs for i in p) == list(range(6))
    vec = _vec(_SIX, pairs, 30.0)
    assert layout_ok(vec, False, 30.0, BOARD_LAYOUT) and layout_ok(vec, False, 30.0, PHOTO_LAYOUT)


def test_a_centre_pip_is_the_strongest_near_the_centre() -> None:
    px, py, pc = [0.0, 0.5, 5.0, -5.0], [0.0, 0.0, 5.0, -5.0], [50.0, 80.0, 100.0, 100.0]
    centre, pairs = mirror_pairs(px, py, pc, [0, 1, 2, 3], 0.0, 0.0, 1.0)
    assert centre == 1 and pairs == [(2, 3)]


def test_the_board_layout_is_tighter_than_the_photo_layout() -> None:
    # a diagonal of 0.4 edges: a pair the photo reader takes (its edge is only an estimate), the board
    # reader, whose edge comes from the checkers, does not
    vec = [np.array([0.4 * 30.0, 0.0])]
    assert layout_ok(vec, False, 30.0, PHOTO_LAYOUT)
    assert not layout_ok(vec, False, 30.0, BOARD_LAYOUT)
    # two diagonals at 50 degrees: too near parallel for the board, a sheared four for the photo
    d = 0.78 * 30.0
    four = [np.array([d, 0.0]), np.array([d * np.cos(np.radians(50)), d * np.sin(np.radians(50))])]
    assert layout_ok(four, False, 30.0, PHOTO_LAYOUT)
    assert not layout_ok(four, False, 30.0, BOARD_LAYOUT)


def test_no_layout_of_more_than_six_or_of_nothing() -> None:
    vec = [np.array([20.0, 20.0])] * 3
    assert not layout_ok(vec, True, 30.0, PHOTO_LAYOUT)  # 7 pips
    assert not layout_ok([], False, 30.0, BOARD_LAYOUT)
    assert layout_ok([], True, 30.0, BOARD_LAYOUT)  # a one


def test_vectors_as_pairs_of_floats_and_given_lengths_decide_as_arrays_do() -> None:
    # each face's pips (a d6 and skewed, stretched and oversized ones) tried at several edges
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(200):
        n = int(rng.integers(1, 7))
        points = [(float(x), float(y)) for x, y in rng.normal(0.0, 0.3, (n, 2))]
        points = points if rng.random() < 0.7 else _SIX[:n]
        for edge in (12.0, 20.0, 30.0):
            centre, pairs = _pairs(points, edge)
            vec = _vec(points, pairs, edge)
            if not vec:
                continue
            floats = [(float(v[0]), float(v[1])) for v in vec]
            lens = [float(np.hypot(v[0], v[1])) for v in vec]
            for limits in (BOARD_LAYOUT, PHOTO_LAYOUT):
                want = layout_ok(vec, centre is not None, edge, limits)
                assert layout_ok(floats, centre is not None, edge, limits) == want
                assert layout_ok(vec, centre is not None, edge, limits, lens) == want
                checked += want
    assert checked  # some layouts passed
