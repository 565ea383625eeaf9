"""The board search's batched arithmetic (`vision.board.finder`): each batched helper gives exactly
the values of its plain, one-at-a-time definition, so a faster search finds the same fields."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.arrays import median
from vision.board.finder import (
    _DEPTHS,
    _depth_rows,
    _edge_energies,
    _edge_y_at,
    _line_edge,
    _mostly_inside_many,
    _scores_rectified_many,
    _triangle_samples,
    colour_gradient,
    find_board,
    fit_triangles,
)
from vision.board.geometry import point_centres_u, point_edges_u
from vision.render.scene import Camera, render, starting_spec


@pytest.mark.parametrize("k", [1, 2, 3, 5, 6, 7, 9, 10, 13])
def test_median_is_numpys(k: int) -> None:
    rng = np.random.default_rng(k)
    for axis in range(3):
        shape = [4, 5, 3]
        shape[axis] = k
        a = rng.normal(0, 40, shape).astype(np.float32)
        a[..., 0] = a.flat[0]  # ties
        assert np.array_equal(median(a, axis), np.median(a, axis=axis))


def _plain_score(rect: np.ndarray, centres_x: np.ndarray) -> tuple[float, float]:
    """The pattern score as defined, one row and one depth set at a time (numpy's own medians)."""
    height, width = rect.shape[:2]
    n = len(centres_x)
    pw = float(np.median(np.diff(centres_x)))
    centres = np.clip(np.asarray(centres_x).astype(int), 0, width - 1)
    half = max(1, int(pw * 0.15))
    box = cv2.blur(rect, (2 * half + 1, 3))
    even = (np.arange(n) % 2 == 0)[None, :, None]
    scores = []
    for edge in (0, 1):
        ys = [int(d * height) if edge == 0 else int((1 - d) * height) - 1 for d in _DEPTHS]
        v = box[np.clip(ys, 0, height - 1)][:, centres]
        m_even = np.median(v[:, 0::2], axis=1)
        m_odd = np.median(v[:, 1::2], axis=1)
        c = np.linalg.norm(m_even - m_odd, axis=1)
        own = np.where(even, m_even[:, None, :], m_odd[:, None, :])
        other = np.where(even, m_odd[:, None, :], m_even[:, None, :])
        d_own = np.linalg.norm(v - own, axis=2)
        d_other = np.linalg.norm(v - other, axis=2)
        good = np.sum((d_own < 0.3 * c[:, None]) & (d_other > 0.7 * c[:, None]))
        scores.append(good / (len(ys) * n) * min(1.0, float(np.median(c)) / 25.0))
    return float(min(scores)), float(max(scores))


def test_batched_pattern_scores_are_the_plain_ones() -> None:
    """Fields of several sizes (striped like points, and noise), whole fields with several bar
    shares and halves of six, scored in one batch."""
    rng = np.random.default_rng(0)
    items = []
    for i in range(12):
        width, height = int(rng.integers(60, 150)), int(rng.integers(40, 260))
        rect = rng.integers(0, 255, (height, width, 3)).astype(np.float32)
        if i % 2:
            rect[:, :: max(2, width // 12)] += 60.0
        if i % 3:
            items.append((rect, [point_centres_u(g) * width for g in (0.0, 0.06, 0.16)]))
        else:
            items.append((rect, [(np.arange(6) + 0.5) * width / 6]))
    got = _scores_rectified_many(items)
    for (rect, sets), scores in zip(items, got, strict=True):
        assert scores == [_plain_score(rect, cx) for cx in sets]


def _plain_samples(gap: float, tip: float, per_edge: int = 9) -> np.ndarray:
    t = np.linspace(0.12, 0.92, per_edge)
    pts = []
    for b0, b1 in point_edges_u(gap):
        tip_u = 0.5 * (b0 + b1)
        for base_u in (b0, b1):
            u = base_u + t * (tip_u - base_u)
            pts.append(np.stack([u, t * tip], axis=1))
            pts.append(np.stack([u, 1.0 - t * tip], axis=1))
    return np.concatenate(pts)


def _plain_energy(mag: np.ndarray, quad: np.ndarray, samples: np.ndarray) -> float:
    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    hmg = cv2.getPerspectiveTransform(unit, quad.astype(np.float32))
    pts = cv2.perspectiveTransform(samples.reshape(-1, 1, 2).astype(np.float32), hmg).reshape(-1, 2)
    h, w = mag.shape
    x = np.clip(pts[:, 0], 0, w - 1.001)
    y = np.clip(pts[:, 1], 0, h - 1.001)
    x0, y0 = x.astype(np.intp), y.astype(np.intp)
    fx, fy = x - x0, y - y0
    v = (mag[y0, x0] * (1 - fx) * (1 - fy) + mag[y0, x0 + 1] * fx * (1 - fy)
         + mag[y0 + 1, x0] * (1 - fx) * fy + mag[y0 + 1, x0 + 1] * fx * fy)
    return float(np.sort(v)[len(v) // 3 :].mean())


def test_triangle_samples_and_energies_are_the_plain_ones() -> None:
    rng = np.random.default_rng(1)
    mag = (rng.random((270, 480)) * 60).astype(np.float32)
    for gap in (0.0, 0.0437, 0.16):
        assert np.array_equal(_triangle_samples(gap, 0.38), _plain_samples(gap, 0.38))
    base = np.float32([[50, 40], [420, 45], [430, 250], [40, 240]])
    quads = [base + rng.normal(0, 25, (4, 2)).astype(np.float32) for _ in range(20)]
    gaps, tips = rng.uniform(0, 0.2, 20), rng.choice([0.34, 0.46], 20)
    samples = [_triangle_samples(float(g), float(t)) for g, t in zip(gaps, tips, strict=True)]
    assert _edge_energies(mag, quads, samples) == [
        _plain_energy(mag, q, s) for q, s in zip(quads, samples, strict=True)]


def _plain_fit(mag: np.ndarray, quad: np.ndarray, gap: float, with_bar: bool) -> tuple[np.ndarray, float]:
    """The triangle fit's coordinate ascent as defined: one trial move scored at a time."""
    q = quad.astype(np.float64).copy()
    start = q.copy()
    size = min(float(np.hypot(*(q[0] - q[1]))), float(np.hypot(*(q[0] - q[3]))))
    h, w = mag.shape

    def ok(t: np.ndarray) -> bool:
        inside = (t[:, 0].min() >= -0.05 * w and t[:, 0].max() <= 1.05 * w
                  and t[:, 1].min() >= -0.05 * h and t[:, 1].max() <= 1.05 * h)
        return inside and bool(cv2.isContourConvex(t.astype(np.float32).reshape(-1, 1, 2)))

    def energy(qq: np.ndarray, gg: float, tip: float) -> float:
        return _plain_energy(mag, qq, _plain_samples(gg, tip))

    tip = max((0.34, 0.38, 0.42, 0.46), key=lambda t: energy(q, gap, t))
    best = energy(q, gap, tip)
    step, gstep = 0.02 * size, 0.01
    while step >= 0.25:
        improved, rounds = True, 0
        while improved and rounds < 6:
            improved, rounds = False, rounds + 1
            for k in range(9 if with_bar else 8):
                for sgn in (1.0, -1.0):
                    trial, tg = q.copy(), gap
                    if k < 8:
                        trial.reshape(-1)[k] += sgn * step
                        if np.abs(trial - start).max() > 0.15 * size or not ok(trial):
                            continue
                    else:
                        tg = min(0.4, max(0.0, gap + sgn * gstep))
                    e = energy(trial, tg, tip)
                    if e > best * 1.0005:
                        q, gap, best, improved = trial, tg, e, True
                        break
        step *= 0.5
        gstep *= 0.5
    return q.astype(np.float32), gap


@pytest.mark.parametrize("style", ["wood", "tournament"])
def test_batched_fit_is_the_plain_ascent(style: str) -> None:
    """A rendered board's found field, its corners pushed a few pixels off: the batched fit ends
    where the one-move-at-a-time ascent ends."""
    r = render(starting_spec(style), size=(960, 540), camera=Camera(tilt_deg=8, roll_deg=3), seed=3)
    geom = find_board(r.image)
    assert geom is not None and geom.bar is not None
    scale = 480 / 960
    work = cv2.resize(r.image, (480, 270), interpolation=cv2.INTER_AREA)
    mag = cv2.GaussianBlur(colour_gradient(work), (5, 5), 1.2)
    quad = np.float32(geom.corners) * scale + np.float32([[3, -2], [-2, 2], [2, 3], [-3, -2]])
    gap = 0.9 * (geom.bar[1] - geom.bar[0]) / geom.size[0]
    got_q, got_gap = fit_triangles(mag, quad, gap, True)
    want_q, want_gap = _plain_fit(mag, quad, gap, True)
    assert np.abs(got_q - quad).max() > 1.0  # (the fit moved the field: the ascent was exercised)
    assert np.array_equal(got_q, want_q) and got_gap == want_gap


def _plain_mostly_inside(q: np.ndarray, shape: tuple[int, ...], slack: float = 0.1) -> bool:
    """Every corner of quad ``q`` within the image grown by ``slack`` of the quad's extent, one quad."""
    h, w = shape[:2]
    ext = q.max(axis=0) - q.min(axis=0)
    return bool(np.all(q >= -slack * ext) and np.all(q <= np.array([w - 1, h - 1]) + slack * ext))


def test_batched_inside_test_is_the_plain_one() -> None:
    rng = np.random.default_rng(2)
    # quads round the frame's edges, some just inside the slack and some just beyond it
    qs = (rng.uniform(-80, 560, (400, 4, 2)) * np.float32([1.0, 0.6])).astype(np.float32)
    got = _mostly_inside_many(qs, (270, 480, 3))
    want = [_plain_mostly_inside(q, (270, 480, 3)) for q in qs]
    assert got.tolist() == want and 0 < sum(want) < len(want)


def _plain_line_edge(rect: np.ndarray, y0: float, y1: float) -> float:
    """The line's edge strength as first written: from the whole view's Sobel."""
    edge_y = np.abs(cv2.Sobel(rect, cv2.CV_32F, 0, 1, ksize=3)).sum(axis=2)
    h, w = edge_y.shape
    xs = np.arange(w)
    ys = y0 + (y1 - y0) * xs / max(w - 1, 1)
    vals = [edge_y[np.clip(np.rint(ys + dy).astype(np.intp), 0, h - 1), xs] for dy in (-1, 0, 1)]
    return float(np.max(vals, axis=0).mean())


def test_edge_y_at_is_opencvs_sobel() -> None:
    """The vertical Sobel's strength taken at a few pixels equals the whole view's, to the bit, on
    its first and last rows and columns too (whole-number pixels, as a warped uint8 view holds)."""
    rng = np.random.default_rng(3)
    for _ in range(20):
        height, width = int(rng.integers(2, 80)), int(rng.integers(2, 200))
        rect = rng.integers(0, 256, (height, width, 3)).astype(np.float32)
        want = np.abs(cv2.Sobel(rect, cv2.CV_32F, 0, 1, ksize=3)).sum(axis=2)
        rows, xs = np.meshgrid(np.arange(height), np.arange(width), indexing="ij")
        assert np.array_equal(_edge_y_at(rect, rows, xs), want)


def test_line_edge_is_the_whole_views() -> None:
    """Lines across the view, level, tilted and beyond its rows, score as on the whole view's Sobel."""
    rng = np.random.default_rng(4)
    for _ in range(30):
        height, width = int(rng.integers(8, 120)), int(rng.integers(8, 260))
        rect = rng.integers(0, 256, (height, width, 3)).astype(np.float32)
        y0, y1 = (float(v) for v in rng.uniform(-3, height + 3, 2))
        assert _line_edge(rect, y0, y1) == _plain_line_edge(rect, y0, y1)
        assert _line_edge(rect, y0, y0) == _plain_line_edge(rect, y0, y0)


@pytest.mark.parametrize("height", [40, 41, 57, 100, 333])
def test_depth_rows_are_the_sampled_rows(height: int) -> None:
    """The cached rows are those the pattern score samples at each depth from each edge."""
    want = np.clip([[int(d * height) for d in _DEPTHS], [int((1 - d) * height) - 1 for d in _DEPTHS]],
                   0, height - 1)
    assert np.array_equal(_depth_rows(height), want)
