"""NumPy ufuncs on arrays, in kernels and in @njit functions: np.sin(a, out)
loops over the output's shape, broadcasting the operands as NumPy does
(a dimension of 1 repeats, operands align on their last dimensions), and
stores each element converted to the output's dtype. Kernels cannot
allocate, so there the output array is required; @njit functions allocate
the result when it is left out. Also NumPy's scalar ufuncs kernels gained
with it (comparisons, logic, bitwise operations, NaN-aware minimum/maximum,
complex math) and math.exp2 / math.nextafter / math.modf."""
import math
import shutil
import subprocess

import numpy as np
import pytest

from kjit import cuda, errors, njit

from conftest import find_ptxas

PTXAS = find_ptxas()

DEVICES = ["cpu", "sim"] + (["cuda"] if shutil.which("nvidia-smi") else [])


UFUNCS = r"""
import numpy as np
from kjit import cuda

@cuda.jit
def trig(x, out):
    np.sin(x, out)                      # out is the last positional argument

@cuda.jit
def hyp(x, y, out):
    np.hypot(x, y, out=out)             # ... or the out= keyword

@cuda.jit
def compare(x, y, out):
    np.greater_equal(x, y, out)

@cuda.jit
def logic(x, y, a, b, c):
    np.logical_xor(x, y, a)
    np.bitwise_and(x, y, b)
    np.invert(x, c)

@cuda.jit
def extremes(x, y, a, b):
    np.maximum(x, y, a)                 # a NaN from either side wins
    np.fmin(x, y, b)                    # the number wins over a NaN

x = np.linspace(-1.0, 1.0, 12).reshape(3, 4)
out = np.zeros_like(x)
trig[1, 1](x, out)
assert np.allclose(out, np.sin(x)), out

# Broadcasting: a row against a 2-D array, a scalar against both.
row = np.arange(4.0)
hyp[1, 1](x, row, out)
assert np.allclose(out, np.hypot(x, row)), out
hyp[1, 1](x, 2.0, out)
assert np.allclose(out, np.hypot(x, 2.0)), out

# A scalar operation into a one-element array; F-ordered arrays; complex.
one = np.zeros(1)
trig[1, 1](0.5, one)
assert np.isclose(one[0], np.sin(0.5)), one
xf = np.asfortranarray(x)
outf = np.zeros_like(xf)
trig[1, 1](xf, outf)
assert np.allclose(outf, np.sin(xf)), outf
z = np.array([-0.5 - 0.5j, 0.0, 0.5 + 0.5j])
zout = np.zeros_like(z)
trig[1, 1](z, zout)
assert np.allclose(zout, np.sin(z)), zout

# Complex numbers compare as NumPy orders them: real part, then imaginary.
a = np.array([1 + 2j, 1 + 1j, 2 + 0j, 1 + 1j])
b = np.array([1 + 1j, 1 + 2j, 1 + 5j, 1 + 1j])
flags = np.zeros(4, np.bool_)
compare[1, 1](a, b, flags)
assert list(flags) == list(np.greater_equal(a, b)), flags

# The output's dtype decides what is stored (bools into integers here).
i = np.array([0, 1, 6, -3], np.int32)
j = np.array([0, 3, 3, 0], np.int32)
ra, rb, rc = (np.zeros(4, np.int32) for _ in range(3))
logic[1, 1](i, j, ra, rb, rc)
assert list(ra) == list(np.logical_xor(i, j)), ra
assert list(rb) == list(np.bitwise_and(i, j)), rb
assert list(rc) == list(np.invert(i)), rc

p = np.array([1.0, np.nan, 3.0, np.nan])
q = np.array([np.nan, 2.0, 1.0, np.nan])
mx, mn = np.zeros(4), np.zeros(4)
extremes[1, 1](p, q, mx, mn)
assert np.array_equal(mx, np.maximum(p, q), equal_nan=True), mx
assert np.array_equal(mn, np.fmin(p, q), equal_nan=True), mn
print("ufuncs ok")
"""


@pytest.mark.parametrize("device", DEVICES)
def test_ufuncs_on_arrays_in_kernels(run_on_device, device):
    r = run_on_device(UFUNCS, device=device)
    assert "ufuncs ok" in r.stdout


BROADCAST_ERROR = r"""
import numpy as np
from kjit import cuda

# As any exception in a kernel, it reaches the caller under debug=True
# (Numba's rule); without it the thread stops at the raise, before reading
# out of bounds.
@cuda.jit(debug=True, opt=False)
def add(x, y, out):
    np.add(x, y, out)

x = np.zeros(3)
try:
    add[1, 1](x, np.zeros(4), np.zeros(3))   # 4 against 3: no broadcast
except ValueError as e:
    assert "could not be broadcast" in str(e), e
    print("raised ValueError")
"""


@pytest.mark.parametrize("device", DEVICES)
def test_shapes_that_do_not_broadcast_raise(run_on_device, device):
    r = run_on_device(BROADCAST_ERROR, device=device)
    assert "raised ValueError" in r.stdout


def test_njit_allocates_the_result():
    @njit
    def norm(x, y):
        return np.sqrt(np.add(np.multiply(x, x), np.multiply(y, y)))

    x = np.arange(6.0).reshape(2, 3)
    y = np.array([1.0, 2.0, 3.0])
    r = norm(x, y)
    assert r.shape == (2, 3)
    assert np.allclose(r, np.sqrt(x * x + y * y))

    @njit
    def less(a, b):
        return np.less(a, b)

    m = less(np.array([1, 5, 3]), 3)
    assert m.dtype == np.bool_ and list(m) == [True, False, False]


def test_a_kernel_must_give_the_output_array():
    def k(x):
        np.sin(x)

    with pytest.raises(errors.UnsupportedError) as e:
        cuda.compile_ptx(k, "void(float64[:])")
    msg = str(e.value)
    assert "needs an output array" in msg and "test_ufuncs.py" in msg, msg


def test_an_operand_the_ufunc_does_not_take_is_located():
    def k(x, out):
        np.bitwise_and(x, x, out)

    with pytest.raises(errors.TypingError) as e:
        cuda.compile_ptx(k, "void(float64[:], float64[:])")
    msg = str(e.value)
    assert "np.bitwise_and() takes integers or booleans, not float64" in msg, msg
    assert "test_ufuncs.py" in msg, msg


def test_scalar_ufuncs_follow_numpy():
    @njit
    def f(a, b):
        return (np.maximum(a, np.nan), np.fmax(a, np.nan), np.minimum(np.nan, b),
                np.fmin(np.nan, b), np.logical_and(a, 0.0), np.invert(True),
                np.less(1 + 2j, 1 + 3j), np.log2(complex(0.0, 0.0)))

    got = f(1.0, 2.0)
    with np.errstate(divide="ignore"):
        want = (np.maximum(1.0, np.nan), np.fmax(1.0, np.nan), np.minimum(np.nan, 2.0),
                np.fmin(np.nan, 2.0), np.logical_and(1.0, 0.0), np.invert(True),
                np.less(1 + 2j, 1 + 3j), np.log2(complex(0.0, 0.0)))
    for g, w in zip(got, want):
        assert g == w or (np.isnan(g) and np.isnan(w)), (got, want)


def test_math_exp2_nextafter_modf():
    @njit
    def f(x, y):
        return math.exp2(x), math.nextafter(x, y), math.modf(x), math.modf(-3.0), math.modf(-math.inf)

    got = f(1.5, 2.0)
    want = (math.exp2(1.5), math.nextafter(1.5, 2.0), math.modf(1.5), math.modf(-3.0),
            math.modf(-math.inf))
    assert got == want
    assert math.copysign(1.0, got[3][0]) == -1.0  # modf(-3.0) is (-0.0, -3.0)


@pytest.mark.skipif(PTXAS is None, reason="no ptxas to check the PTX")
def test_ptx_of_a_ufunc_loop_assembles(tmp_path):
    def k(x, y, out):
        np.arctan2(x, y, out)

    ptx, _ = cuda.compile_ptx(k, "void(float32[:, :], float32[:], float32[:, :])")
    src = tmp_path / "k.ptx"
    src.write_text(ptx)
    r = subprocess.run([PTXAS, "-arch=sm_90", str(src), "-o", str(tmp_path / "k.cubin")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
