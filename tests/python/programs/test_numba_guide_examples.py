"""The nopython examples of Numba's "5 minute guide" and "Performance Tips"
pages, unchanged but for the import (`from kjit import ...`), with the
results the pages state or NumPy's. (The guide's pandas example needs
object mode, which kjit does not have: see docs/differences.md.)"""
import numpy as np
import pytest

from kjit import jit, njit, prange

# ---- 5 minute guide ----

x = np.arange(100).reshape(10, 10)


@jit
def go_fast(a):  # Function is compiled to machine code when called the first time
    trace = 0.0
    for i in range(a.shape[0]):  # Numba likes loops
        trace += np.tanh(a[i, i])  # Numba likes NumPy functions
    return a + trace  # Numba likes NumPy broadcasting


@jit(nopython=True)
def go_fast_nopython(a):  # Function is compiled and runs in machine code
    trace = 0.0
    for i in range(a.shape[0]):
        trace += np.tanh(a[i, i])
    return a + trace


def test_five_minute_guide_go_fast():
    want = x + sum(np.tanh(x[i, i]) for i in range(10))
    np.testing.assert_allclose(go_fast(x), want, rtol=1e-15)
    np.testing.assert_allclose(go_fast_nopython(x), want, rtol=1e-15)
    assert go_fast(x).dtype == np.float64


# ---- Performance Tips ----

big = np.arange(1.e7)


@njit
def ident_np(x):
    return np.cos(x) ** 2 + np.sin(x) ** 2


@njit
def ident_loops(x):
    r = np.empty_like(x)
    n = len(x)
    for i in range(n):
        r[i] = np.cos(x[i]) ** 2 + np.sin(x[i]) ** 2
    return r


@njit(fastmath=False)
def do_sum(A):
    acc = 0.
    # without fastmath, this loop must accumulate in strict order
    for x in A:
        acc += np.sqrt(x)
    return acc


@njit(fastmath=True)
def do_sum_fast(A):
    acc = 0.
    # with fastmath, the reduction can be vectorized as floating point
    # reassociation is permitted.
    for x in A:
        acc += np.sqrt(x)
    return acc


def add_assoc(x, y):
    return (x - y) + y


@njit(parallel=True)
def ident_parallel(x):
    return np.cos(x) ** 2 + np.sin(x) ** 2


@njit(parallel=True)
def do_sum_parallel(A):
    # each thread can accumulate its own partial sum, and then a cross
    # thread reduction is performed to obtain the result to return
    n = len(A)
    acc = 0.
    for i in prange(n):
        acc += np.sqrt(A[i])
    return acc


@njit(parallel=True, fastmath=True)
def do_sum_parallel_fast(A):
    n = len(A)
    acc = 0.
    for i in prange(n):
        acc += np.sqrt(A[i])
    return acc


def test_performance_tips_loops_and_parallel_identity():
    for f in (ident_np, ident_loops, ident_parallel):
        np.testing.assert_allclose(f(big), 1.0, rtol=1e-15)


def test_performance_tips_sums():
    strict = 0.0
    for v in np.sqrt(big[:1000]):
        strict += v
    assert do_sum(big[:1000]) == strict  # in order: bit for bit Python's sum
    want = np.sqrt(big).sum()
    for f in (do_sum, do_sum_fast, do_sum_parallel, do_sum_parallel_fast):
        assert f(big) == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("flags,want", [(False, "nan"), (True, 0.0), ({'reassoc', 'nsz'}, 0.0),
                                        ({'reassoc'}, "nan"), ({'nsz'}, "nan")])
def test_performance_tips_fastmath_flags(flags, want):
    # The page's table: (0 - inf) + inf is nan unless both reassoc and nsz
    # let LLVM fold it to 0.
    got = njit(fastmath=flags)(add_assoc)(0, np.inf)
    if want == "nan":
        assert np.isnan(got)
    else:
        assert got == want
