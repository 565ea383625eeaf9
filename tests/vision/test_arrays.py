"""vision.arrays: the channel sums are numpy's reductions bit for bit (the readers' results must not
change with them), and scratch arrays are reused per key and shape."""

from __future__ import annotations

import numpy as np
import pytest

from vision.arrays import byte_median, channel_norm, channel_sq, channel_sum, median, nonzero2d, scratch


def test_channel_sums_equal_numpys_reductions_bit_for_bit() -> None:
    rng = np.random.default_rng(0)
    for dtype in (np.float32, np.float64):
        x = rng.normal(0.0, 60.0, (300, 400, 3)).astype(dtype)
        assert np.array_equal(channel_sum(np.abs(x)), np.abs(x).sum(axis=2))
        assert np.array_equal(channel_norm(x), np.linalg.norm(x, axis=-1))
        rows = x.reshape(-1, 3)  # a list of colours, as the dice checks sample them
        assert np.array_equal(channel_norm(rows), np.linalg.norm(rows, axis=1))
        # (the check can fail: the other order of the same sum differs on many pixels)
        other = x[..., 0] * x[..., 0] + (x[..., 1] * x[..., 1] + x[..., 2] * x[..., 2])
        assert not np.array_equal(np.sqrt(other), np.linalg.norm(x, axis=-1))


def test_scratch_is_reused_for_one_key_and_shape() -> None:
    a = scratch("test.a", (4, 5))
    assert scratch("test.a", (4, 5)) is a and a.dtype == np.float32
    assert scratch("test.b", (4, 5)) is not a
    b = scratch("test.a", (5, 4), np.uint8)
    assert b.shape == (5, 4) and b.dtype == np.uint8


# (short axes of few medians are partitioned, of many sorted by the network: both are checked)
@pytest.mark.parametrize("shape,axis", [((7, 24), 1), ((3, 5, 16), 2), ((4, 25, 3), 1), ((6, 3), 0),
                                        ((4000, 5), 1), ((3, 3000), 0), ((2, 1600, 4), 2),
                                        ((300, 9, 3), 1), ((1000, 9, 3), 1)])
def test_median_equals_numpys_in_value_and_dtype(shape: tuple[int, ...], axis: int) -> None:
    rng = np.random.default_rng(len(shape) + axis)
    values = (rng.random(shape) * 255).astype(np.float32)
    for v in (values, values.astype(np.float64), np.round(values / 64)):  # (ties: few distinct values)
        got, want = median(v, axis), np.median(v, axis=axis)
        assert got.dtype == want.dtype and np.array_equal(got, want)


@pytest.mark.parametrize("n", [1, 2, 7, 8, 1001, 1002])
@pytest.mark.parametrize("span", [(0, 256), (120, 123), (255, 256)])
def test_byte_median_equals_the_float_median(n: int, span: tuple[int, int]) -> None:
    rng = np.random.default_rng(n)
    values = rng.integers(span[0], span[1], (3, n), dtype=np.uint8)
    got, want = byte_median(values), np.median(values.astype(np.float32), axis=1)
    assert got.dtype == want.dtype and np.array_equal(got, want)


def test_channel_sq_equals_einsum_bit_for_bit() -> None:
    dtype = np.float32
    rng = np.random.default_rng(3)
    x = ((rng.random((61, 47, 3)) - 0.5) * 300).astype(dtype)
    x[::5] = np.round(x[::5])  # (integer Lab differences, as the readers' are)
    want = np.einsum("ijk,ijk->ij", x, x)
    assert np.array_equal(channel_sq(x), want)
    out = np.empty(x.shape[:2], dtype)
    assert channel_sq(x, out=out) is out and np.array_equal(out, want)


@pytest.mark.parametrize("shape", [(1, 1), (3, 7), (480, 640), (5, 0), (0, 4)])
def test_nonzero2d_equals_numpys(shape: tuple[int, int]) -> None:
    mask = np.random.default_rng(1).random(shape) < 0.01
    for m in (mask, np.zeros(shape, bool), np.ones(shape, bool)):
        got, want = nonzero2d(m), np.nonzero(m)
        assert all(np.array_equal(g, w) and g.dtype == w.dtype for g, w in zip(got, want, strict=True))
