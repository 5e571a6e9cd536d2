"""@njit(parallel=True) with prange: each loop runs its iterations once, on
the thread pool, with the values Python's range gives; reductions combine
the chunks' partials. The reference is the same function run by Python
(prange is range there)."""
import numpy as np
import pytest

from kjit import njit, prange

rng = np.random.default_rng(7)


def fill_range(out, start, stop, step):
    for i in prange(start, stop, step):
        out[i] = i * 2 + 1


def fill_const_start(out):
    for i in prange(3, out.shape[0], 2):
        out[i] = i


def fill_backwards(out):
    for i in prange(out.shape[0] - 1, -1, -1):
        out[i] = out.shape[0] - i


def fill_negative_start(out):
    # Negative indices wrap around, as in Python.
    for i in prange(-4, 0):
        out[i] = i


def poly(x, out):
    for i in prange(x.shape[0]):
        v = x[i]
        acc = v
        for _ in range(32):
            acc = acc * v + 0.5
        out[i] = acc


def sum_and_max(x):
    s = 0.0
    m = -np.inf
    for i in prange(x.shape[0]):
        s += x[i]
        m = max(m, x[i])
    return s, m


@pytest.mark.parametrize("start,stop,step", [(0, 37, 1), (5, 37, 3), (36, 0, -1), (36, -1, -5), (10, 3, 1)])
def test_prange_visits_what_range_visits(start, stop, step):
    got, want = np.zeros(37, np.int64), np.zeros(37, np.int64)
    njit(parallel=True)(fill_range)(got, start, stop, step)
    fill_range(want, start, stop, step)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("fn", [fill_const_start, fill_backwards, fill_negative_start])
def test_prange_constant_bounds(fn):
    got, want = np.zeros(1001, np.int64), np.zeros(1001, np.int64)
    njit(parallel=True)(fn)(got)
    fn(want)
    np.testing.assert_array_equal(got, want)


def test_prange_inner_loop_matches_serial():
    # The benchmarks' polynomial row: an inner loop of 32 multiply-adds.
    x = rng.random(100_003)
    got, want = np.zeros_like(x), np.zeros_like(x)
    njit(parallel=True)(poly)(x, got)
    njit(poly)(x, want)
    np.testing.assert_array_equal(got, want)


def test_prange_reductions():
    x = rng.random(10_007)
    s, m = njit(parallel=True)(sum_and_max)(x)
    assert s == pytest.approx(x.sum(), rel=1e-12)
    assert m == x.max()
