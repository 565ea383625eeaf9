"""One frame's dice searches sharing their views (vision.dice.on_board.DiceScan): searched again
with other discs masked, a frame reads what a fresh search of it reads."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.board.finder import find_board
from vision.checkers.stacks import count_stacks
from vision.dice import on_board as bd
from vision.dice.board_faces import face_hypotheses
from vision.render.scene import Camera, random_spec, render


@pytest.mark.parametrize("whole", [False, True])
def test_a_shared_scan_reads_what_fresh_searches_read(whole: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if whole:
        monkeypatch.setattr(bd, "_GATE_SIGMA", np.inf)  # never gated: the whole view, in scratch arrays
    seen = 0
    for seed, style in enumerate(("paper", "wood", "tournament")):
        r = render(random_spec(seed, style=style), size=(1280, 720), camera=Camera(tilt_deg=6, roll_deg=2),
                   seed=seed)
        geom = find_board(r.image)
        assert geom is not None
        stacks = count_stacks(geom.rectify(r.image), geom)
        discs = [(x, y, s.radius) for s in stacks for x, y in s.centres]
        radius = stacks[0].radius
        scan = bd.DiceScan(r.image)
        # the lone checkers unmasked first (as the reader's check of them), then every disc
        fewer = [(x, y, s.radius) for s in stacks if s.count != 1 for x, y in s.centres]
        for masked in (fewer, discs, fewer):
            fresh = bd.find_board_dice(r.image, geom, masked, radius)
            assert bd.find_board_dice(r.image, geom, masked, radius, scan=scan) == fresh, (seed, style)
            assert sorted(bd.board_dice_places(r.image, geom, masked, radius, scan=scan)) == sorted(
                d.image_xy for d in fresh if d.image_xy is not None), (seed, style)
            seen += len(fresh)
        assert scan.views and scan.faces  # the views and their candidate faces were kept and shared
    assert seen  # some dice were read at all


def test_a_scan_of_another_frame_is_not_used() -> None:
    r = render(random_spec(1, style="wood"), size=(1280, 720), camera=Camera(tilt_deg=6, roll_deg=2), seed=1)
    geom = find_board(r.image)
    assert geom is not None
    stacks = count_stacks(geom.rectify(r.image), geom)
    discs = [(x, y, s.radius) for s in stacks for x, y in s.centres]
    other = bd.DiceScan(np.zeros_like(r.image))
    assert bd.find_board_dice(r.image, geom, discs, stacks[0].radius, scan=other) == bd.find_board_dice(
        r.image, geom, discs, stacks[0].radius)
    assert not other.views and not other.gates and not other.faces


def test_grid_is_ogrid() -> None:
    yy, xx = bd._grid(3, 7, -2, 5)
    want_y, want_x = np.ogrid[3:7, -2:5]
    assert yy.dtype == want_y.dtype and np.array_equal(yy, want_y) and np.array_equal(xx, want_x)


def test_searches_with_other_discs_masked_measure_no_face_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    # the whole view (no gate): many candidate faces, among pips that differ between the masks
    monkeypatch.setattr(bd, "_GATE_SIGMA", np.inf)
    r = render(random_spec(2, style="tournament"), size=(1280, 720), camera=Camera(tilt_deg=6, roll_deg=2),
               seed=2)
    geom = find_board(r.image)
    assert geom is not None
    stacks = count_stacks(geom.rectify(r.image), geom)
    discs = [(x, y, s.radius) for s in stacks for x, y in s.centres]
    fewer = [(x, y, s.radius) for s in stacks if s.count != 1 for x, y in s.centres]
    measured: list[object] = []
    body = bd._body

    def counted(lab: np.ndarray, face: bd.Face, pips: list[bd.Pip], *rest: float) -> object:
        measured.append((face.centre, face.edge, tuple(pips[i] for i in face.members)))
        return body(lab, face, pips, *rest)

    monkeypatch.setattr(bd, "_body", counted)
    scan = bd.DiceScan(r.image)
    for masked in (fewer, discs):
        bd.find_board_dice(r.image, geom, masked, stacks[0].radius, scan=scan)
    assert measured and len(set(measured)) == len(measured)


@pytest.mark.parametrize("shape", [(1, 1), (1, 6), (6, 1), (2, 2), (9, 13)])
def test_mean3x3_is_the_mean_of_the_cut_window(shape: tuple[int, int]) -> None:
    h, w = shape
    lab = np.random.default_rng(h * 31 + w).integers(0, 256, (h, w, 3), dtype=np.uint8)
    ys, xs = np.nonzero(np.ones(shape, bool))
    want = np.array([lab[max(0, y - 1) : y + 2, max(0, x - 1) : x + 2].reshape(-1, 3).mean(axis=0)
                     for y, x in zip(ys, xs, strict=True)])
    got = bd._mean3x3(lab, xs, ys)
    assert got.dtype == np.float64 and np.array_equal(got, want)
    inner = (ys > 0) & (ys < h - 1) & (xs > 0) & (xs < w - 1)  # (no window cut: the image read as it is)
    assert np.array_equal(bd._mean3x3(lab, xs[inner], ys[inner]), want[inner])


@pytest.mark.parametrize("style", ["paper", "wood", "tournament"])
def test_the_cheap_checks_on_arrays_judge_every_candidate_alike(style: str) -> None:
    r = render(random_spec(4, style=style), size=(1280, 720), camera=Camera(tilt_deg=6, roll_deg=2), seed=4)
    geom = find_board(r.image)
    assert geom is not None
    stacks = count_stacks(geom.rectify(r.image), geom)
    radius = stacks[0].radius * bd._view_frame(geom, stacks[0].radius).k  # (in view px)
    lab = cv2.cvtColor(bd.dice_view(r.image, geom, stacks[0].radius).image, cv2.COLOR_BGR2LAB)
    sigmas = bd._sigmas(radius)
    pips = bd.board_pips(lab, sigmas)
    edges = tuple(e * radius for e in bd._EDGES_OF_RADIUS)
    hyps = face_hypotheses(pips, edges, bd._ONE_ROUND)
    # (a field a little inside the view: some candidates lie off it)
    h, w = lab.shape[:2]
    field = (0.1 * w, 0.1 * h, 0.9 * w, 0.9 * h)
    one_by_one = bd._accept(lab, pips, sigmas[0], radius, field=field, min_edge=8.0)
    at_once = bd._accept(lab, pips, sigmas[0], radius, field=field, min_edge=8.0, hyps=hyps)
    verdicts = [one_by_one(f) for f in hyps]
    assert len(hyps) > 20 and any(verdicts)
    assert verdicts == [at_once(f) for f in hyps]


@pytest.mark.parametrize("n", [1, 2, 6, 7, 200, 701])
def test_colour_median_is_numpys(n: int) -> None:
    raw = np.random.default_rng(n).integers(0, 256, (n, 3), dtype=np.uint8)
    want = np.median(raw.astype(np.float32), axis=0)
    got = bd._colour_median(raw)
    assert got.dtype == want.dtype and np.array_equal(got, want)


@pytest.mark.parametrize("seed", range(6))
def test_the_byte_percentile_is_numpys(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for n in (1, 2, 3, 7, 20, 21, 400, 1001):
        lo = int(rng.integers(0, 200))
        grey = rng.integers(lo, lo + int(rng.integers(1, 57)), n).astype(np.uint8)
        for pct in (0, 5, 50, 95, 99.5, 100):
            assert bd._byte_percentile(grey, pct) == float(np.percentile(grey, pct))
    strided = rng.integers(0, 256, (31, 45)).astype(np.uint8)[::2, ::3]
    assert bd._byte_percentile(strided, 95) == float(np.percentile(strided, 95))


def _keep_on_planes(shape: tuple[int, int], discs: list[tuple[float, float, float]],
                    cube: tuple[float, float, float] | None) -> np.ndarray:
    """_keep drawn plainly: every disc on a whole plane of its own."""
    block = np.zeros(shape, np.uint8)
    near = np.zeros(shape, np.int32)
    for x, y, r in discs:
        c = (int(round(x)), int(round(y)))
        cv2.circle(block, c, int(round(bd._RIM * r)), 1, -1)
        one = np.zeros(shape, np.uint8)
        cv2.circle(one, c, int(round(1.4 * r)), 1, -1)
        near += one
    if cube is not None:
        cv2.circle(block, (int(round(cube[0])), int(round(cube[1]))), int(np.ceil(cube[2])), 1, -1)
    return (block == 0) & (near < 2)


@pytest.mark.parametrize("seed", range(4))
def test_the_keep_mask_is_the_discs_drawn_on_whole_planes(seed: int) -> None:
    rng = np.random.default_rng(seed)
    # (small and large discs, cut by the plane's sides or off it, overlapping, with and without a cube)
    for shape, big in (((60, 90), 9.0), ((37, 23), 9.0), ((210, 170), 30.0)):
        h, w = shape
        reach = 1.4 * big
        discs = [(float(rng.uniform(-reach, w + reach)), float(rng.uniform(-reach, h + reach)),
                  float(rng.uniform(0.2, big))) for _ in range(12)]
        cube = (float(rng.uniform(0, w)), float(rng.uniform(0, h)), float(rng.uniform(1, 2 * big / 3)))
        for c in (None, cube):
            want = _keep_on_planes(shape, discs, c)
            assert np.array_equal(bd._keep(shape, discs, c), want)
            assert np.array_equal(bd._keep(shape, discs, c, "test"), want)  # (on scratch planes)
