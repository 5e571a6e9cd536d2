"""Array expressions and array assignment in @njit functions, checked
against Numba (Debian's numba, on the development machine and in CI):
the same function compiled by both gives the same values and the same
dtype. Arrays are fused into one loop per expression (no temporaries); the
IR golden tests/lit/ir/array-expression.py shows the loop."""
import numpy as np
import pytest

from kjit import errors, njit, typeof

numba = pytest.importorskip("numba")

rng = np.random.default_rng(7)
F64 = rng.random(7)
F32 = rng.random(7).astype(np.float32)
I32 = np.arange(-3, 4, dtype=np.int32)
I8 = np.arange(1, 8, dtype=np.int8)
U8 = np.arange(250, 257, dtype=np.int64).astype(np.uint8)
M2 = rng.random((3, 4))
ROW = rng.random(4)
COL = rng.random((3, 1))


def same_as_numba(fn, *args):
    got = njit(fn)(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    ref = numba.njit(fn)(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    got, ref = (got if isinstance(got, tuple) else (got,)), (ref if isinstance(ref, tuple) else (ref,))
    assert len(got) == len(ref)
    for g, r in zip(got, ref):
        g, r = np.asarray(g), np.asarray(r)
        assert g.dtype == r.dtype, (fn.__name__, g.dtype, r.dtype)
        assert g.shape == r.shape
        np.testing.assert_allclose(g, r, rtol=1e-6, equal_nan=True)


def hypot(x, y):
    return np.sqrt(x * x + y * y)


def poly(a, b, c):
    return a * b + c - a / 2.0


def compare_and_sum(a):
    return (a > 0.5).sum(), (a <= 0.25), a != a


def promotion(i32, i8, f32, u8):
    # Numba's loops: Python ints and floats count as int64 and float64.
    return i32 + 1, f32 * 2.0, f32 * np.float32(2.0), i8 / i8, np.sqrt(i8), u8 + i8, i32 * 1.5, u8 - 300


def broadcast(m, row, col):
    return m + row, m * col, row + col


def unary(a):
    return -a, np.abs(-a), np.absolute(a - 0.5), +a


def ufuncs(a, b):
    return (np.exp(-a) * np.sin(b), np.arctan2(a, b), np.hypot(a, b), np.maximum(a, 0.5),
            np.minimum(a, b), np.power(a, 2), np.floor(a * 10), np.log1p(a))


def where(a):
    return np.where(a > 0.5, a, 0.0), np.where(a > 0.5, 1, 0)


def integers(a):
    return a // 2, a % 3, a * a - 1, a ** 2, a & 1, a << 1


def scalar_operand(a, s):
    return np.exp(-a * s) + s


@pytest.mark.parametrize("fn,args", [
    (hypot, (F64, F64[::-1])),
    (poly, (F64, F32, 3)),
    (compare_and_sum, (F64,)),
    (promotion, (I32, I8, F32, U8)),
    (broadcast, (M2, ROW, COL)),
    (unary, (F64,)),
    (ufuncs, (F64, F64[::-1])),
    (where, (F64,)),
    (integers, (I32,)),
    (scalar_operand, (M2, 0.5)),
])
def test_array_expressions_match_numba(fn, args):
    same_as_numba(fn, *args)


def test_operands_that_do_not_broadcast_raise_valueerror():
    @njit
    def add(a, b):
        return a + b
    with pytest.raises(ValueError, match="operands could not be broadcast together"):
        add(np.ones(3), np.ones(4))
    assert add(np.ones((2, 3)), np.ones(3)).shape == (2, 3)


def test_division_by_zero_in_arrays_gives_numpys_results():
    # Array expressions are NumPy ufunc loops: no ZeroDivisionError.
    @njit
    def div(a, b):
        return a / b, a // b
    with np.errstate(divide="ignore", invalid="ignore"):
        want = (np.array([1.0, 0.0]) / 0.0)
    got, floor = div(np.array([1.0, 0.0]), np.zeros(2))
    np.testing.assert_array_equal(got, want)


def slice_stencil(a, b):
    a[1:-1] = b[:-2] + b[2:]
    return a


def fill_and_row(m, row):
    m[:] = 7
    m[1] = row
    m[2, 1:] = -1
    return m


def overlapping(a):
    a[1:] = a[:-1]  # as if the right-hand side were read first
    return a


def in_place(a, b):
    a += b
    a *= 2
    a[::2] -= 1
    return a


@pytest.mark.parametrize("fn,args", [
    (slice_stencil, (np.zeros(6), np.arange(6.0))),
    (fill_and_row, (np.zeros((3, 4)), np.arange(4.0))),
    (overlapping, (np.arange(6.0),)),
    (in_place, (np.ones(5), np.arange(5.0))),
])
def test_array_assignment_matches_numba(fn, args):
    same_as_numba(fn, *args)


def test_augmented_assignment_changes_the_callers_array():
    @njit
    def bump(a):
        a += 1
        a[0] *= 10

    a = np.zeros(3)
    bump(a)
    np.testing.assert_array_equal(a, [10.0, 1.0, 1.0])


def test_parallel_array_expression():
    @njit(parallel=True)
    def f(x, y):
        return np.sqrt(x * x + y * y)

    x, y = rng.random(100_003), rng.random(100_003)
    np.testing.assert_allclose(f(x, y), np.sqrt(x * x + y * y))


def test_newaxis_and_none_in_subscripts_match_numpy():
    # Numba 0.56 has no None in subscripts: NumPy is the reference.
    def pairwise(a, b):
        return ((a[:, None] - b[None, :]) ** 2).sum(axis=1)

    def outer(a):
        return a[np.newaxis, :] * a[:, np.newaxis]

    def middle(m):
        return m[:, None, :] + m[1, None]
    a, b = rng.random(5), rng.random(3)
    np.testing.assert_allclose(njit(pairwise)(a, b), pairwise(a, b))
    np.testing.assert_allclose(njit(outer)(a), outer(a))
    assert njit(middle)(M2).shape == middle(M2).shape == (3, 1, 4)
    np.testing.assert_allclose(njit(middle)(M2), middle(M2))


def test_ellipsis_in_subscripts_matches_numpy():
    # `...` stands for the full slices the other indices leave (None too).
    def f(a):
        b = a[..., 0]
        c = a[0, ...]
        d = a[...]
        e = a[1, ..., 2]
        g = a[..., None, 1]
        a[..., 1] = 7.0
        a[0, ...] += 1.0
        return b.copy(), c.copy(), d.sum(), e.copy(), g.copy(), a

    a = np.arange(24.0).reshape(2, 3, 4)
    for got, want in zip(njit(f)(a.copy()), f(a.copy())):
        assert np.shape(got) == np.shape(want)
        np.testing.assert_array_equal(got, want)

    def two(a):
        return a[..., ...]
    with pytest.raises(errors.TypingError, match=r"an index can only have a single ellipsis"):
        njit(two)(a)


def _zero_dimensional(a, b):
    a[()] = a[()] + b[()]
    return a[()] * 2, b, a.shape, b.ndim


def test_zero_dimensional_arrays_as_arguments_and_results():
    # NumPy 0-d arrays: indexed with (), passed in, written through and
    # returned, as Numba does.
    a, b = np.array(1.5), np.array(2.0)
    got = njit(_zero_dimensional)(a, b)
    ref = numba.njit(_zero_dimensional)(np.array(1.5), np.array(2.0))
    assert got[0] == ref[0] == 7.0 and a[()] == 3.5
    assert isinstance(got[1], np.ndarray) and got[1].shape == () and got[1][()] == 2.0
    assert got[2] == ref[2] == () and got[3] == ref[3] == 0


def _walk_0d(x):
    for i in x:
        pass


def _enumerate_0d(x):
    for k, v in enumerate(x):
        pass


def _zip_0d(x, y):
    for v, w in zip(y, x):
        pass


def _comprehension_0d(x):
    return [v for v in x]


@pytest.mark.parametrize("func, args", [
    (_walk_0d, (np.array(1, np.int32),)),
    (_enumerate_0d, (np.array(1.5),)),
    (_zip_0d, (np.array(1.5), np.arange(3.0))),
    (_comprehension_0d, (np.array(2),)),
])
def test_walking_a_0d_array_is_a_typing_error(func, args):
    # A 0-d array has no first axis to walk: Numba's TypingError, naming the
    # line of the loop, lazily and eagerly (it used to crash the compiler).
    with pytest.raises(errors.TypingError, match="iteration over a 0-d array") as e:
        njit(func)(*args)
    assert "test_njit_arrays.py" in str(e.value)
    with pytest.raises(errors.TypingError, match="0-d array"):
        njit([tuple(typeof(a) for a in args)])(func)


def test_len_of_a_0d_array_is_a_typing_error():
    # NumPy: "len() of unsized object"; it used to crash the compiler.
    def length(x):
        return len(x)
    with pytest.raises(errors.TypingError, match=r"len\(\) of a 0-d array"):
        njit(length)(np.array(3.0))
