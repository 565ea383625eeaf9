"""The candidate faces of vision.dice.board_faces worked out for many centres at once: the same faces,
scores and order as one centre at a time (:func:`face_at`), on drawn dice among random blobs."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from tests.vision.dice.layouts import LAYOUTS
from vision.dice import board_faces as bf
from vision.dice.layout import Pip


def _die(value: int, centre: tuple[float, float], edge: float, angle: float, dark: bool,
         rng: random.Random) -> list[Pip]:
    step = 0.28 * edge
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    return [Pip(centre[0] + step * (c * u - s * v) + rng.uniform(-0.4, 0.4),
                centre[1] + step * (s * u + c * v) + rng.uniform(-0.4, 0.4),
                rng.uniform(60.0, 110.0), dark, rng.uniform(0.3, 1.0))
            for u, v in LAYOUTS[value]]


def _field(seed: int) -> list[Pip]:
    """A few dice of any value, polarity and turn among random blobs (grain, print), strongest first."""
    rng = random.Random(seed)
    pips: list[Pip] = []
    for _ in range(rng.randint(1, 4)):
        pips += _die(rng.randint(1, 6), (rng.uniform(20, 180), rng.uniform(20, 130)), rng.uniform(14, 28),
                     rng.uniform(0, 90), rng.random() < 0.7, rng)
    for _ in range(rng.randint(0, 60)):
        pips.append(Pip(rng.uniform(0, 200), rng.uniform(0, 150), rng.uniform(25.0, 120.0),
                        rng.random() < 0.6, rng.uniform(0.25, 1.0)))
    return sorted(pips, key=lambda p: -p.contrast)


def _one_at_a_time(pips: list[Pip], edges: tuple[float, ...], one_round: float) -> list[bf.Face]:
    """The candidates as first written: each centre's face by :func:`face_at`, the best of each set
    of pips kept in a dict, sorted by score (ties in the dict's order)."""
    centres: dict[tuple[int, int], tuple[float, float, bool]] = {}
    for p in pips:
        centres[(round(2 * p.x), round(2 * p.y))] = (p.x, p.y, p.dark)
    hyps: dict[tuple[int, ...], bf.Face] = {}
    for edge in edges:
        at = dict(centres)
        for i, p in enumerate(pips):
            for q in pips[i + 1:]:
                d = math.dist((p.x, p.y), (q.x, q.y))
                alike = max(p.contrast, q.contrast) <= bf._ALIKE_CROWDED * min(p.contrast, q.contrast)
                if p.dark == q.dark and alike and bf._SPAN[0] * edge <= d <= bf._SPAN[1] * edge:
                    mx, my = (p.x + q.x) / 2, (p.y + q.y) / 2
                    at.setdefault((round(2 * mx), round(2 * my)), (mx, my, p.dark))
        for cx, cy, dark in at.values():
            near = [i for i, p in enumerate(pips)
                    if p.dark == dark and (p.x - cx) ** 2 + (p.y - cy) ** 2 <= (0.65 * edge) ** 2]
            f = bf.face_at(pips, near, cx, cy, edge) if near else None
            if f is None or (len(f.members) == 1 and pips[f.members[0]].roundness < one_round):
                continue
            if f.members not in hyps or hyps[f.members].score < f.score:
                hyps[f.members] = f
    return sorted(hyps.values(), key=lambda f: (-f.score, -len(f.members)))


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("few", [0, 10**6])
def test_candidates_are_those_of_one_centre_at_a_time(seed: int, few: int,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The same faces, scores and order as one centre at a time, on arrays or not."""
    monkeypatch.setattr(bf, "_FEW_CENTRES", few)
    pips = _field(seed)
    for one_round in (0.0, 0.6):
        got = bf.face_hypotheses(pips, (14.0, 20.0, 28.0), one_round)
        assert got == _one_at_a_time(pips, (14.0, 20.0, 28.0), one_round)
        assert got  # faces were found at all


@pytest.mark.parametrize("seed", range(8))
def test_find_faces_is_its_candidates_taken_greedily(seed: int) -> None:
    pips = _field(100 + seed)
    edges = (14.0, 20.0, 28.0)
    hyps = bf.face_hypotheses(pips, edges, 0.6)
    assert [(-f.score, -len(f.members)) for f in hyps] == sorted((-f.score, -len(f.members)) for f in hyps)
    assert len({f.members for f in hyps}) == len(hyps)  # the best face of each set of pips
    faces = bf.find_faces(pips, edges, lambda f: len(f.members) != 5, 0.6)
    assert faces == bf.take_faces(pips, hyps, edges, lambda f: len(f.members) != 5, 0.6)
    taken = [i for f in faces for i in f.members]
    assert len(taken) == len(set(taken))  # no pip in two faces


def test_a_blob_too_elongated_is_no_one() -> None:
    rng = random.Random(3)
    one = _die(1, (50.0, 50.0), 20.0, 0.0, True, rng)[0]
    flat = Pip(one.x, one.y, one.contrast, True, 0.4)
    assert [len(f.members) for f in bf.find_faces([one], (20.0,), one_round=0.6)] == [1]
    assert bf.find_faces([flat], (20.0,), one_round=0.6) == []
    beside = [flat, *_die(2, (90.0, 50.0), 20.0, 0.0, True, rng)]
    assert all(f.members != (0,) for f in bf.face_hypotheses(beside, (20.0,), 0.6))
    assert any(f.members == (0,) for f in bf.face_hypotheses(beside, (20.0,), 0.0))


def test_centres_are_each_place_once_pips_first() -> None:
    xy = np.array([[10.0, 10.0], [10.2, 10.1], [30.0, 10.0]])
    dark = np.array([True, False, True])
    mid = np.array([[20.0, 10.0], [10.1, 10.0], [20.1, 10.1]])
    cxy, pol = bf._centres(xy, dark, bf._pip_places(bf._grid_keys(xy)), mid, np.array([True, True, False]))
    # (10, 10) and (10.2, 10.1) share a half-pixel place: the later pip gives it; the midpoint
    # there is dropped, the last midpoint shares the first midpoint's place
    assert cxy.tolist() == [[10.2, 10.1], [30.0, 10.0], [20.0, 10.0]]
    assert pol.tolist() == [False, True, True]


def test_square_gaps_are_the_summed_squares() -> None:
    xy = np.random.default_rng(3).uniform(-50.0, 900.0, (40, 2))
    want = ((xy[:, None, :] - xy[None, :, :]) ** 2).sum(axis=2)
    got = bf._square_gaps(xy)
    assert got.dtype == want.dtype and np.array_equal(got, want)


@pytest.mark.parametrize("seed", range(4))
def test_within_pairs_are_the_dense_tests_nonzero(seed: int) -> None:
    rng = np.random.default_rng(seed)
    # (whole and half pixels: many pips lie exactly a reach from a centre, or at one x)
    xy = rng.integers(0, 80, (60, 2)) / 2.0
    dark = rng.random(60) < 0.5
    cxy = np.concatenate([xy[:20], rng.integers(0, 80, (30, 2)) / 2.0])
    pol = rng.random(50) < 0.5
    reach2 = np.full(50, 9.0) if seed % 2 else rng.integers(1, 40, 50).astype(np.float64)
    dx, dy = xy[None, :, 0] - cxy[:, :1], xy[None, :, 1] - cxy[:, 1:]
    want = np.nonzero((dx * dx + dy * dy <= reach2[:, None]) & (dark[None, :] == pol[:, None]))
    rows, cols = bf._within(xy, dark, cxy, pol, reach2)
    assert np.array_equal(rows, want[0]) and np.array_equal(cols, want[1])
