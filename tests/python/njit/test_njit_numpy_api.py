"""NumPy functions in @njit functions, checked against Numba (Debian's
numba): values and dtypes alike. Most are written in kjit's own kernel
language (compiler/lib/numpy/*.kjit); indexing with masks and index arrays
goes through the same library."""
import numpy as np
import pytest

from kjit import errors, njit

numba = pytest.importorskip("numba")

X = np.array([0.3, 0.9, 0.1, 0.7, np.nan, 0.5])
I = np.array([3, 1, 2, 3, 0, 1])
I32 = I.astype(np.int32)
BINS = np.array([0.0, 0.25, 0.5, 1.0])


def same(got, ref):
    if isinstance(ref, tuple):
        assert isinstance(got, tuple) and len(got) == len(ref)
        for g, r in zip(got, ref):
            same(g, r)
        return
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.dtype == ref.dtype and got.shape == ref.shape, (got, ref)
    np.testing.assert_allclose(got, ref, equal_nan=True)


def copies(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def mask_sum(a):
    return a[a > 0.4].sum(), a[~(a > 0.4)]


def mask_set(a):
    a[a > 0.4] = 0
    a[a < 0.2] = np.array([-1.0])
    return a


def take(a, i):
    b = a.copy()
    b[i[:2]] = -5.0
    return a[i], np.outer(a, a)[i[:3]], b


def creation(n):
    return (np.linspace(0, 1, 5), np.linspace(-2.0, 3.0, n), np.eye(3), np.eye(3, 4, 1),
            np.identity(2), np.array([1, 2, 3]), np.array([[1.0, 2.0], [3.0, 4.0]]),
            np.array((n, 2.5)))


def cumulative(a, i):
    return np.cumsum(a), a.cumsum(), np.cumsum(i), np.cumprod(i), np.diff(a), np.diff(i, 2)


def searching(a, i):
    return (np.argmax(a), a.argmin(), np.argmax(i), np.argmin(i), np.searchsorted(np.sort(a), 0.55),
            np.nonzero(i), np.flatnonzero(i))


def sorting(a, i):
    b = a.copy()
    b.sort()
    return np.sort(a), np.argsort(i), b, np.unique(i), np.sort(i)


def products(a):
    return np.outer(a, a[:2]), np.trace(np.outer(a, a)), np.diag(a), np.diag(np.outer(a, a), 1)


def misc(a, i, bins):
    return (np.clip(a, 0.2, 0.8), np.digitize(a, bins), np.bincount(i), np.convolve(a[:4], a[:2]),
            np.interp(a, bins, bins * 2), np.outer(a, a).ravel(), np.outer(a, a).T.flatten(),
            a.astype(np.float32))


@pytest.mark.parametrize("fn,args", [
    (mask_sum, (X,)), (mask_set, (X,)), (take, (X, I)), (creation, (7,)),
    (cumulative, (X, I32)), (searching, (X, I)), (sorting, (X, I)), (products, (X[:4],)),
    (misc, (np.nan_to_num(X), I, BINS)),
])
def test_numpy_functions_match_numba(fn, args):
    same(njit(fn)(*copies(args)), numba.njit(fn)(*copies(args)))


def test_histogram_places_values_as_numpy_does():
    # Numba 0.56 puts 0.7 of [0.3, 0.9, 0.1, 0.7] in the last of 4 bins; NumPy
    # (and kjit) in the bin whose edges hold it (docs/differences.md).
    @njit
    def h(a, n):
        return np.histogram(a, n)
    a = np.array([0.3, 0.9, 0.1, 0.7])
    counts, edges = h(a, 4)
    want_counts, want_edges = np.histogram(a, 4)
    np.testing.assert_array_equal(counts, want_counts)
    np.testing.assert_allclose(edges, want_edges)


def test_isclose_and_allclose():
    @njit
    def close(a, b):
        return np.isclose(a, b), np.allclose(a, b), np.allclose(a, b + 1.0)
    a = np.array([1.0, 2.0, np.nan])
    got = close(a, a + 1e-9)
    np.testing.assert_array_equal(got[0], np.isclose(a, a + 1e-9))
    assert got[1] == np.allclose(a, a + 1e-9) and got[2] is False


def test_index_errors():
    @njit
    def bad_mask(a, m):
        return a[m]

    @njit
    def bad_take(a, i):
        return a[i]
    with pytest.raises(IndexError, match="boolean index did not match"):
        bad_mask(np.ones(3), np.ones(4, np.bool_))
    with pytest.raises(IndexError, match="out of bounds"):
        bad_take(np.ones(3), np.array([5]))


def test_argmax_of_empty_raises():
    @njit
    def f(a):
        return np.argmax(a)
    with pytest.raises(ValueError, match="empty sequence"):
        f(np.zeros(0))


M = np.arange(12.0).reshape(3, 4) ** 1.5
C3 = np.arange(24.0).reshape(2, 3, 4)


def test_reductions_along_an_axis_match_numpy():
    # Numba 0.56 has few of these: NumPy is the reference.
    @njit
    def red2(a):
        return (a.sum(axis=0), a.sum(1), np.sum(a, axis=-1), a.mean(axis=0), a.max(axis=1),
                a.argmax(axis=1), np.std(a, axis=0), a.min(0), np.prod(a, 1))

    @njit
    def red3(a):
        return a.sum(axis=0), a.min(axis=2), a.mean(1)

    @njit
    def red1(a):
        return a.sum(axis=0), np.mean(a, axis=-1)
    for got, want in zip(red2(M), (M.sum(axis=0), M.sum(1), np.sum(M, axis=-1), M.mean(axis=0),
                                   M.max(axis=1), M.argmax(axis=1), np.std(M, axis=0), M.min(0),
                                   np.prod(M, 1))):
        np.testing.assert_allclose(got, want)
        assert np.asarray(got).dtype == np.asarray(want).dtype
    for got, want in zip(red3(C3), (C3.sum(axis=0), C3.min(axis=2), C3.mean(1))):
        np.testing.assert_allclose(got, want)
    assert red1(M[0]) == (M[0].sum(), M[0].mean())
    with pytest.raises(ValueError, match="axis"):
        njit(lambda a: a.sum(axis=2))(M)


def test_median_and_percentiles_match_numpy():
    @njit
    def stats(a):
        return np.median(a), np.percentile(a, 30), np.quantile(a, 0.3), np.nanmedian(a)
    a = M.ravel()
    got = stats(a)
    np.testing.assert_allclose(got, (np.median(a), np.percentile(a, 30), np.quantile(a, 0.3),
                                     np.nanmedian(a)))


def joining(a, b, m):
    return (np.concatenate((a, b)), np.hstack((a, b)), np.vstack((a, b)), np.stack((a, b)),
            np.concatenate((m, m)), np.hstack((m, m)))


def products(a, b):
    return np.dot(a, b[:, 0]), np.dot(b[:, 0], b[:, 0]), np.dot(a, b), a @ b, np.dot(a[:, 0], a)


def reshuffle(a):
    o = np.outer(a, a)
    return (np.roll(a, 2), np.repeat(a, 2), np.fliplr(o), np.flipud(o), np.triu(o), np.tril(o, -1),
            np.cross(a[:3], a[1:]), np.average(a), np.average(a, weights=a), np.ptp(a),
            np.transpose(o))


@pytest.mark.parametrize("fn,args", [
    (joining, (M[0], M[1], M)), (products, (M, M.T.copy())), (reshuffle, (M[0],)),
])
def test_joining_and_products_match_numba(fn, args):
    same(njit(fn)(*copies(args)), numba.njit(fn)(*copies(args)))


def nonzero_nd(a):
    return np.nonzero(a), np.where(a > 0.5), np.argwhere(a > 0.5), np.flatnonzero(a > 0.5)


def flip_only(a):
    return np.flip(a)


def flips(a):
    return np.flip(a), np.flipud(a), np.fliplr(a)


@pytest.mark.parametrize("shape", [(7,), (3, 4), (2, 3, 4), (2, 2, 3, 2)])
def test_nonzero_where_and_argwhere_of_any_dimension_match_numpy(shape):
    # One index array per dimension, in C order (np.where(cond) is
    # np.nonzero(cond)); argwhere has one row per element found.
    a = np.round(np.random.default_rng(len(shape)).random(shape), 1)
    got, want = njit(nonzero_nd)(a), nonzero_nd(a)
    same(got, want)
    assert len(got[0]) == a.ndim and got[2].shape == (np.count_nonzero(a > 0.5), a.ndim)


@pytest.mark.parametrize("shape", [(5,), (3, 4), (2, 3, 4)])
def test_flip_reverses_every_axis_as_numpy(shape):
    a = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
    if a.ndim == 1:
        same(njit(flip_only)(a), np.flip(a))
        return
    same(njit(flips)(a), flips(a))


def test_sign_matches_numpy_on_numbers_and_arrays():
    # np.sign is one row of the NumPy family (compiler/builtins/NumpyUfuncs.cpp):
    # the same typing serves a number, an array expression and the ufunc loop.
    @njit
    def sign(x):
        return np.sign(x)

    @njit
    def sign_expr(a):
        return np.sign(a * 2.0) + 1.0

    for v in (-3, 0, 5, np.int8(-4), np.uint8(7), -2.5, 0.0, -0.0, np.float32(-1.5)):
        got = sign(v)
        assert got == np.sign(v) and type(got) is type(np.sign(v).item()), (v, got)
    assert np.isnan(sign(float("nan")))
    # Complex numbers as NumPy 1.x and Numba: the real part's sign, else the imaginary part's.
    assert sign(3 + 4j) == 1 + 0j and sign(-2j) == -1 + 0j and sign(0j) == 0j
    for z in (complex(1, np.nan), complex(-np.inf, np.nan), complex(np.nan, 1)):  # unordered: NaN
        assert np.isnan(sign(z).real) and sign(z).imag == 0, z
    a = np.array([-1.5, 0.0, 2.0, np.nan])
    np.testing.assert_array_equal(sign(a), np.sign(a))
    np.testing.assert_array_equal(sign_expr(a), np.sign(a * 2.0) + 1.0)
    n = np.array([-3, 0, 4], np.int32)
    assert sign(n).dtype == np.int32
    np.testing.assert_array_equal(sign(n), np.sign(n))


def test_sign_of_bool_is_an_error_as_in_numpy():
    @njit
    def sign(x):
        return np.sign(x)

    with pytest.raises(errors.TypingError, match=r"np.sign\(\) does not accept bool"):
        sign(True)
