"""NumPy functions of the kernel-language library (compiler/lib/numpy/*.kjit)
against NumPy itself: spaces and grids (logspace, geomspace, vander,
meshgrid), differences and integrals (ediff1d, trapz), NaN-skipping
reductions (nanargmax/min, nancumsum/prod, nanvar, nanstd), comparison
(array_equal), reshaping (column_stack, rot90, append, atleast_2d), sets
(isin, union1d, intersect1d, setdiff1d), take, fill_diagonal, correlate and
partition.
Values must be NumPy's bit for bit, or within 2 ulp where NumPy and kjit
call different libm functions (pow(10, y) becomes exp10(y) under LLVM)."""
import numpy as np
import pytest

from kjit import njit

RNG = np.random.default_rng(0)
A = RNG.standard_normal(7)
AN = A.copy()
AN[[1, 4]] = np.nan
I32 = np.arange(5, dtype=np.int32)
F32 = np.linspace(0.5, 2, 4).astype(np.float32)
M = np.arange(12.0).reshape(3, 4)

CASES = [
    ("np.logspace(0.0, 2.0, 7)", ()),
    ("np.logspace(1, 3, 4, True, 2.0)", ()),
    ("np.logspace(0.0, 1.0, 5, False)", ()),
    ("np.geomspace(1, 1000, 4)", ()),
    ("np.geomspace(-2.0, -32.0, 5)", ()),
    ("np.geomspace(1.0, 10.0, 6, False)", ()),
    ("np.vander(x)", (A,)),
    ("np.vander(x, 3)", (I32,)),
    ("np.vander(x, 4, True)", (F32,)),
    ("np.ediff1d(x)", (M,)),
    ("np.ediff1d(x)", (I32,)),
    ("np.trapz(x)", (A,)),
    ("np.trapz(x, y)", (A, np.cumsum(np.abs(A)))),
    ("np.trapz(x, None, 0.5)", (A,)),
    ("np.array_equal(x, y)", (A, A.copy())),
    ("np.array_equal(x, y)", (A, A[::-1].copy())),
    ("np.array_equal(x, y)", (M, M[:2])),
    ("np.nanargmax(x)", (AN,)),
    ("np.nanargmin(x)", (AN,)),
    ("np.nancumsum(x)", (AN,)),
    ("np.nancumprod(x)", (AN,)),
    ("np.nancumsum(x)", (I32,)),
    ("np.nanvar(x)", (AN,)),
    ("np.nanstd(x)", (AN,)),
    ("np.nanstd(x)", (M,)),
    ("np.column_stack((x, y))", (A, A * 2)),
    ("np.column_stack((x, y))", (M, M)),
    ("np.rot90(x)", (M,)),
    ("np.rot90(x, 2)", (M,)),
    ("np.rot90(x, 3)", (M,)),
    ("np.rot90(x, 4)", (M,)),
    ("np.rot90(x, -1)", (M,)),
    ("np.append(x, y)", (A, M)),
    ("np.append(x, y)", (I32, F32)),
    ("np.atleast_2d(x)", (A,)),
    ("np.atleast_2d(x)", (M,)),
    ("np.take(x, y)", (A, np.array([[0, -1], [2, 4]]))),
    ("np.isin(x, y)", (A, np.array([2.0, 5.0, 3.0]))),
    ("np.union1d(x, y)", (A, I32)),
    ("np.intersect1d(x, y)", (np.array([3.0, -1.0, 2.0, 7.0, 2.0]), np.array([2.0, 5.0, 3.0]))),
    ("np.setdiff1d(x, y)", (np.array([3.0, -1.0, 2.0, 7.0, 2.0]), np.array([2.0, 5.0, 3.0]))),
    ("np.correlate(x, y)", (A, F32)),
    ("np.correlate(x, y)", (F32, A)),
    ("np.correlate(x, y)", (I32.astype(np.int64), I32.astype(np.int64))),
    ("np.partition(x, 3)[3]", (A,)),
]


def _function(expression, nargs):
    ns = {}
    params = ", ".join("xy"[:nargs])
    exec(f"def f({params}):\n    return {expression}\n", {"np": np}, ns)
    return ns["f"]


@pytest.mark.parametrize("expression, args", CASES, ids=[c[0] for c in CASES])
def test_against_numpy(expression, args):
    f = _function(expression, len(args))
    with np.errstate(all="ignore"):
        ref = np.asarray(f(*args))
    got = np.asarray(njit(f)(*args))
    assert got.shape == ref.shape and got.dtype == ref.dtype, (got, ref)
    if ref.dtype.kind == "f" and not np.array_equal(got, ref, equal_nan=True):
        ulp = np.spacing(np.abs(ref))
        assert np.all(np.abs(got - ref) <= 2 * ulp), (got, ref)
    else:
        assert np.array_equal(got, ref, equal_nan=True), (got, ref)


def test_meshgrid_gives_the_two_grids():
    # NumPy returns a list; kjit a tuple of the same two arrays.
    f = _function("np.meshgrid(x, y)", 2)
    xx, yy = njit(f)(A, I32)
    rx, ry = np.meshgrid(A, I32)
    assert np.array_equal(xx, rx) and np.array_equal(yy, ry)
    assert xx.dtype == rx.dtype and yy.dtype == ry.dtype


@pytest.mark.parametrize("expression, message", [
    ("np.nanargmax(x)", "All-NaN slice encountered"),
    ("np.geomspace(0.0, x[0])", "Geometric sequence cannot include zero"),
])
def test_errors_are_numpys(expression, message):
    f = _function(expression, 1)
    allnan = np.full(3, np.nan)
    with pytest.raises(ValueError, match=message):
        f(allnan)
    with pytest.raises(ValueError, match=message):
        njit(f)(allnan)


def test_fill_diagonal_writes_in_place():
    def fill(a):
        np.fill_diagonal(a, 5.0)
        return a
    for shape in ((3, 4), (4, 3), (3, 3)):
        assert np.array_equal(njit(fill)(np.zeros(shape)), fill(np.zeros(shape)))


def test_partition_puts_the_kth_element_in_place():
    f = _function("np.partition(x, 2)", 1)
    got = njit(f)(A)
    assert got[2] == np.sort(A)[2]
    assert np.all(got[:2] <= got[2]) and np.all(got[3:] >= got[2])
    with pytest.raises(ValueError, match="kth"):
        njit(_function("np.partition(x, 9)", 1))(A)
