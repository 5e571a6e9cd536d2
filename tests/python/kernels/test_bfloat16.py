"""bfloat16: float32's range in 16 bits, as a scalar and an array dtype of
@jit functions and kernels.

Arithmetic on two bfloat16 values is bfloat16, computed in float32 and
rounded once to nearest even (exact for + - * /: float32 has more than
twice bfloat16's precision); a float64 value converts to bfloat16 rounded
once, also where the GPU has no such instruction. Host arrays are
ml_dtypes' bfloat16 when it is installed, else uint16 arrays tagged as
bfloat16 (kjit.float32_to_bf16 makes one, kjit.bf16_to_float32 reads it).
Checked here bitwise against a NumPy reference, on the CPU, the CPU device,
the simulator and the GPU when there is one; the PTX for sm_75, sm_80 and
sm_90 assembles.
"""
import math
import re
import shutil

import numpy as np
import pytest

import kjit
from kjit import bfloat16, cuda, errors, float16, float32, float64, int8, int64, njit
from kjit import bfloat16_host as host

from conftest import assemble

DEVICES = ["cpu", "sim"] + (["cuda"] if shutil.which("nvidia-smi") else [])


def bits(a):
    return np.ascontiguousarray(a).view(np.uint16)


def all_patterns():
    return np.arange(65536, dtype=np.uint32).astype(np.uint16).view(host.dtype())


def same_bits(got, want):
    """Bitwise equality, any NaN matching any NaN."""
    g, w = host.to_float32(got), host.to_float32(want)
    both_nan = np.isnan(g) & np.isnan(w)
    return np.array_equal(bits(got)[~both_nan], bits(want)[~both_nan])


# ---- the host side ----------------------------------------------------------------


def test_host_conversions_round_once_to_nearest_even():
    a = all_patterns()
    f = host.to_float32(a)
    finite = np.isfinite(f)
    assert np.array_equal(bits(host.from_float(f))[finite], bits(a)[finite])  # exact values stay
    # Halfway between two neighbours (in float64, exactly) goes to the even one;
    # a little above or below it, to the nearer one.
    lo = bits(a)[:0x7F7F].astype(np.uint32)  # positive finite, each with a finite neighbour above
    x0 = (lo << 16).view(np.float32).astype(np.float64)
    x1 = ((lo + 1) << 16).view(np.float32).astype(np.float64)
    mid = (x0 + x1) / 2
    even = np.where(lo % 2 == 0, lo, lo + 1)
    assert np.array_equal(bits(host.from_float(mid)), even.astype(np.uint16))
    up = mid + (x1 - x0) * 2.0**-30  # below float32's resolution there: rounding twice would tie
    assert np.array_equal(bits(host.from_float(up)), (lo + 1).astype(np.uint16))
    assert np.array_equal(bits(host.from_float(mid - (x1 - x0) * 2.0**-30)), lo.astype(np.uint16))
    assert np.isnan(host.to_float32(host.from_float([np.nan]))[0])
    assert host.to_float32(host.from_float([1e39, -1e39])).tolist() == [math.inf, -math.inf]


def test_the_type_and_its_host_values():
    assert str(bfloat16) == "bfloat16" and bfloat16.bitwidth == 16
    assert bfloat16(1 / 3) == 0.333984375  # rounded once, to nearest even
    a = kjit.float32_to_bf16([1.5, -2.0])
    assert host.is_bfloat16(a.dtype) and kjit.typeof(a) == bfloat16[::1]
    assert not host.is_bfloat16(np.uint16)
    assert kjit.bf16_to_float32(a).tolist() == [1.5, -2.0]
    from kjit.np.numpy_support import as_dtype, from_dtype
    assert from_dtype(a.dtype) is bfloat16 and host.is_bfloat16(as_dtype(bfloat16))


# ---- @jit functions ----------------------------------------------------------------


@njit
def from_f64(x, out):
    for i in range(x.size):
        out[i] = bfloat16(x[i])


@njit
def from_f32(x, out):
    for i in range(x.size):
        out[i] = x[i]


@njit
def to_f32(a, out):
    for i in range(a.size):
        out[i] = float32(a[i])


@njit
def arith(a, b, out):
    for i in range(a.size):
        x, y = a[i], b[i]
        out[0, i] = x + y
        out[1, i] = x - y
        out[2, i] = x * y
        out[3, i] = x / y
        out[4, i] = -x


def reference(a, b):
    fa, fb = host.to_float32(a), host.to_float32(b)
    with np.errstate(all="ignore"):
        return [host.from_float(r) for r in (fa + fb, fa - fb, fa * fb, fa / fb, -fa)]


def random_pairs(n, seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 65536, n, dtype=np.uint32).astype(np.uint16)
    b = rng.integers(0, 65536, n, dtype=np.uint32).astype(np.uint16)
    # plus values near one another (cancellation) and small integers (ties)
    c = host.from_float(rng.integers(-40, 40, n).astype(np.float64))
    return np.concatenate([a, bits(c)]).view(host.dtype()), np.concatenate([b, bits(c)[::-1]]).view(host.dtype())


def test_every_conversion_in_a_jit_function():
    a = all_patterns()
    f32 = host.to_float32(a)
    out = host.from_float(np.zeros(a.size))
    got = np.empty(a.size, np.float32)
    to_f32(a, got)
    assert np.array_equal(got.view(np.uint32), f32.view(np.uint32))  # exact, NaN payloads too
    # float64 values between and beside every pair of neighbours
    rng = np.random.default_rng(5)
    with np.errstate(invalid="ignore", over="ignore"):
        x = f32.astype(np.float64) * (1 + rng.uniform(-2**-7, 2**-7, a.size))
    x = x[np.isfinite(x)]
    out = host.from_float(np.zeros(x.size))
    from_f64(x, out)
    assert same_bits(out, host.from_float(x))
    with np.errstate(over="ignore"):
        y = x.astype(np.float32)
    from_f32(y, out)
    assert same_bits(out, host.from_float(y))


def test_arithmetic_in_a_jit_function_matches_rounding_float32():
    a, b = random_pairs(20000, 1)
    b[host.to_float32(b) == 0] = host.from_float([1.0])[0]  # (x / 0 raises ZeroDivisionError, as in Numba)
    out = host.from_float(np.zeros((5, a.size)))
    arith(a, b, out)
    for row, want in zip(out, reference(a, b)):
        assert same_bits(row, want)


def test_promotions():
    def typ(*argtypes):
        def f(x, y):
            return x + y
        _, res = cuda.compile_ptx(f, tuple(argtypes), device=True)
        return str(res)

    assert typ(bfloat16, bfloat16) == "bfloat16"
    assert typ(bfloat16, int8) == "bfloat16"  # exact: 8 significant bits
    assert typ(bfloat16, float16) == "float32"  # neither holds the other
    assert typ(bfloat16, float32) == "float32"
    assert typ(bfloat16, float64) == "float64"
    assert typ(bfloat16, int64) == "float64"


# ---- kernels on every device ----------------------------------------------------------

KERNELS = r"""
import numpy as np, kjit
from kjit import cuda, bfloat16, float32
from kjit import bfloat16_host as host

@cuda.jit
def ops(a, b, x64, out, conv, f32):
    i = cuda.grid(1)
    if i < a.size:
        p, q = a[i], b[i]
        out[0, i] = p + q
        out[1, i] = p - q
        out[2, i] = p * q
        out[3, i] = p / q
        out[4, i] = cuda.bf16.hmax(p, q)
        conv[0, i] = bfloat16(x64[i])           # float64 -> bfloat16, rounded once
        conv[1, i] = bfloat16(float32(x64[i]))
        conv[2, i] = bfloat16(i - 300)          # an integer
        f32[i] = float32(p)

@cuda.jit
def shared_reverse(a, out):
    s = cuda.shared.array(128, bfloat16)
    t = cuda.threadIdx.x
    s[t] = a[t]
    cuda.syncthreads()
    out[t] = s[127 - t] * bfloat16(2)

rng = np.random.default_rng(3)
n = 4096
a = rng.integers(0, 65536, n, dtype=np.uint32).astype(np.uint16).view(host.dtype())
b = rng.integers(0, 65536, n, dtype=np.uint32).astype(np.uint16).view(host.dtype())
fa, fb = host.to_float32(a), host.to_float32(b)
x64 = fa.astype(np.float64) * (1 + rng.uniform(-2**-7, 2**-7, n))
x64[~np.isfinite(x64)] = 1.0
out = cuda.device_array((5, n), dtype=kjit.bfloat16_dtype())
conv = cuda.device_array((3, n), dtype=kjit.bfloat16_dtype())
f32 = cuda.device_array(n, dtype=np.float32)
ops[(n + 127) // 128, 128](cuda.to_device(a), cuda.to_device(b), cuda.to_device(x64), out, conv, f32)

def same(got, want):
    g, w = host.to_float32(got), host.to_float32(want)
    nan = np.isnan(g) & np.isnan(w)
    bad = np.flatnonzero(got.view(np.uint16)[~nan] != want.view(np.uint16)[~nan])
    assert bad.size == 0, (bad[:5], got.view(np.uint16)[~nan][bad[:5]], want.view(np.uint16)[~nan][bad[:5]])

with np.errstate(all="ignore"):
    want = [fa + fb, fa - fb, fa * fb, fa / fb, np.where(np.isnan(fa), fb, np.where(np.isnan(fb), fa, np.maximum(fa, fb)))]
o = out.copy_to_host()
assert host.is_bfloat16(o.dtype)
for k in range(4):
    same(o[k], host.from_float(want[k]))
ok = ~(np.isnan(fa) | np.isnan(fb))
same(o[4][ok], host.from_float(want[4])[ok])
c = conv.copy_to_host()
same(c[0], host.from_float(x64))
same(c[1], host.from_float(x64.astype(np.float32)))
same(c[2], host.from_float(np.arange(n) - 300.0))
assert np.array_equal(f32.copy_to_host().view(np.uint32), fa.view(np.uint32))

r = cuda.device_array(128, dtype=kjit.bfloat16_dtype())
src = host.from_float(np.arange(128) * 0.25 - 7)
shared_reverse[1, 128](cuda.to_device(src), r)
same(r.copy_to_host(), host.from_float((np.arange(128) * 0.25 - 7)[::-1] * 2))

# __cuda_array_interface__ says bfloat16 as ml_dtypes does ("<V2"), and reads it back
cai = out.__cuda_array_interface__
assert cai["typestr"] == "<V2", cai
class Holder:
    def __init__(self, d): self.__cuda_array_interface__ = d
view = cuda.as_cuda_array(Holder(cai))
assert host.is_bfloat16(view.dtype) and view.shape == (5, n)
print("bfloat16 ok")
"""


@pytest.mark.parametrize("device", DEVICES)
def test_bfloat16_kernels(run_on_device, device):
    r = run_on_device(KERNELS, device=device)
    assert "bfloat16 ok" in r.stdout


# ---- PTX -------------------------------------------------------------------------------


def ptx_kernel(a, b, x, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i] * b[i]
        out[i + 1] = bfloat16(x[i])
        out[i + 2] = cuda.bf16.hsqrt(a[i])
        if a[i] < b[i]:
            out[i + 3] = a[i] - b[i]


@pytest.mark.parametrize("cc", [(7, 5), (8, 0), (9, 0)])
def test_ptx_assembles_for_each_architecture(tmp_path, cc):
    sig = "void(bfloat16[:], bfloat16[:], float64[:], bfloat16[:])"
    ptx, _ = cuda.compile_ptx(ptx_kernel, sig, cc=cc)
    if cc >= (9, 0):  # native bfloat16 arithmetic from sm_90
        assert re.search(r"mul(\.rn)?\.bf16", ptx), ptx
        assert re.search(r"setp\.\w+\.bf16", ptx), ptx
    elif cc == (8, 0):  # computed in float32, one conversion each way
        assert "cvt.rn.bf16.f32" in ptx and "cvt.f32.bf16" in ptx
    assemble(ptx, tmp_path, arch=f"sm_{cc[0]}{cc[1]}")


def test_bf16_functions_take_numbers_only():
    def k(out, z):
        out[0] = cuda.bf16.hadd(out[0], z)

    with pytest.raises(errors.TypingError, match=r"cuda.bf16.hadd\(\) takes bfloat16 values, not complex128") as e:
        cuda.compile_ptx(k, "void(bfloat16[:], complex128)")
    assert "test_bfloat16.py" in str(e.value)


def test_constants_take_the_precision_of_their_type():
    from kjit import float16

    @njit
    def scaled(x):
        return x * float16(1.1), bfloat16(0.3) + bfloat16(0), float16(1.1) * float16(3)

    a, b, c = scaled(np.float16(2.0))
    assert a == float(np.float16(2.0) * np.float16(1.1))  # not 2.2 rounded once
    assert b == 0.30078125
    assert c == float(np.float16(1.1) * np.float16(3))
