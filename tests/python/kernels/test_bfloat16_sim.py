"""bfloat16 in kernels run by the CUDA simulator (KJIT_ENABLE_CUDASIM=1),
and the same programs on the CPU device: results bit for bit as NumPy
computes them through kjit.bfloat16_host (float32 arithmetic rounded once
to nearest even; float64 and integers rounded once), NaNs compared as NaNs.

Without ml_dtypes (the programs hide it, so that this path is the one
tested wherever they run) bfloat16 host arrays are uint16 arrays of bits,
which the simulator gives kernels as bfloat16 arrays
(kjit/cuda/simulator/bfloat16_values.py); with ml_dtypes they are ml_dtypes arrays, which the simulator
passes as they are (test_elementwise_arithmetic_with_ml_dtypes)."""
import importlib.util
import math
import textwrap

import numpy as np
import pytest

DEVICES = ("sim", "cpu")

PRELUDE = """
import math, sys, warnings
if {hide_ml_dtypes}:
    sys.modules["ml_dtypes"] = None  # import ml_dtypes fails: host bfloat16 arrays are tagged uint16 bits
import numpy as np
import kjit
from kjit import (cuda, bfloat16, bfloat16_host as bh, float16, float32, float64, int8, int16, int32, int64, uint8,
                  uint16)
warnings.simplefilter("ignore")
assert bh.ml_dtypes_present() == (not {hide_ml_dtypes})
rng = np.random.default_rng(11)
BF = bh.dtype()

def bf(bits):
    return np.asarray(bits, np.uint16).view(BF)

def bits(a):
    return np.asarray(a).view(np.uint16)

def rounded(values):
    # the bfloat16 bits of values (float32: rounded from float32; float64 or integers: rounded once)
    with np.errstate(all="ignore"):
        return bits(bh.from_float(values))

def f32(a):
    return bh.to_float32(a)

def nan16(b):
    return (b & 0x7FFF) > 0x7F80

def check_bits(name, got, want, *inputs):
    got, want = bits(got), np.asarray(want, np.uint16)
    ok = (got == want) | (nan16(got) & nan16(want))
    bad = np.nonzero(~ok.ravel())[0][:5]
    shown = [np.asarray(i).ravel()[bad].tolist() for i in inputs]
    assert ok.all(), (f"{{name}}: {{(~ok).sum()}} of {{ok.size}} differ; at {{bad.tolist()}}: got "
                      f"{{[hex(v) for v in got.ravel()[bad]]}}, want {{[hex(v) for v in want.ravel()[bad]]}}, "
                      f"inputs {{shown}}")

def check_values(name, got, want):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    ok = (got.view(np.uint64) == want.view(np.uint64)) | (np.isnan(got) & np.isnan(want))
    bad = np.nonzero(~ok.ravel())[0][:5]
    assert ok.all(), (f"{{name}}: {{(~ok).sum()}} differ; at {{bad.tolist()}}: got {{got.ravel()[bad]}}, "
                      f"want {{want.ravel()[bad]}}")

# bfloat16 bit patterns: random ones, and zeros, subnormals, the largest, infinities, NaNs
SPECIAL = [0x0000, 0x8000, 0x0001, 0x8001, 0x0003, 0x007F, 0x0080, 0x8080, 0x3F80, 0x3F81, 0x3FC0, 0x3B80,
           0x7F7F, 0xFF7F, 0x7F80, 0xFF80, 0x7FC0, 0xFFC0, 0x7F81, 0x3F00, 0x4040, 0x0040, 0x0100]

def patterns(n):
    b = rng.integers(0, 1 << 16, n, dtype=np.uint16)
    b[:len(SPECIAL)] = SPECIAL
    return b
"""


def program(code, hide_ml_dtypes=True):
    return textwrap.dedent(PRELUDE).format(hide_ml_dtypes=hide_ml_dtypes) + textwrap.dedent(code)


ARITHMETIC = """
n = 4096
A = patterns(n)
B = rng.permutation(patterns(n))
# pairs whose float32 result is a tie between two bfloat16 values (to even), or under- or overflows
TIES = [(0x3F80, 0x3B80), (0x3F81, 0x3B80), (0xBF81, 0xBB80), (0x3FC0, 0x3F81), (0x0001, 0x3F00),
        (0x0003, 0x3F00), (0x0080, 0x3F00), (0x7F7F, 0x7F7F), (0x7F80, 0x7F80), (0x0000, 0x0000),
        (0x7F80, 0x0000), (0x3F80, 0x0000), (0x0001, 0x0001), (0x4040, 0x3F80)]
for j, (x, y) in enumerate(TIES):
    A[len(SPECIAL) + j], B[len(SPECIAL) + j] = x, y
B[len(SPECIAL) + len(TIES):][:len(SPECIAL)] = SPECIAL  # every special value with every special value, in part
a, b = bf(A), bf(B)

@cuda.jit
def arith(a, b, add, sub, mul, div):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        add[i] = x + y
        sub[i] = x - y
        mul[i] = x * y
        div[i] = x / y

da, db = cuda.to_device(a), cuda.to_device(b)
outs = [cuda.device_array(n, dtype=BF) for _ in range(3)]
div = np.zeros(n, BF)  # a host array as an argument too
arith[(n + 127) // 128, 128](da, db, *outs, div)
got = [o.copy_to_host() for o in outs] + [div]
with np.errstate(all="ignore"):
    fa, fb = f32(a), f32(b)
    want = [rounded(fa + fb), rounded(fa - fb), rounded(fa * fb), rounded(fa / fb)]
for name, g, w in zip(("+", "-", "*", "/"), got, want):
    check_bits(name, g, w, A, B)
assert got[0].dtype == BF
print("arithmetic ok")
"""


@pytest.mark.parametrize("device", DEVICES)
def test_elementwise_arithmetic(run_on_device, device):
    r = run_on_device(program(ARITHMETIC), device=device)
    assert "arithmetic ok" in r.stdout


@pytest.mark.skipif(importlib.util.find_spec("ml_dtypes") is None, reason="ml_dtypes is not installed")
def test_elementwise_arithmetic_with_ml_dtypes(run_on_device):
    r = run_on_device(program(ARITHMETIC, hide_ml_dtypes=False), device="sim")
    assert "arithmetic ok" in r.stdout


@pytest.mark.parametrize("device", DEVICES)
def test_conversions(run_on_device, device):
    r = run_on_device(program("""
    n = 2048
    # float64 values of every size, and values that rounding through float32 first would round twice
    f64 = rng.normal(0, 1, n) * 10.0 ** rng.integers(-46, 40, n)
    edge = [1 + 2**-8, 1 + 2**-8 + 2**-30, -(1 + 2**-8 + 2**-30), 1 + 3 * 2**-8 - 2**-40, 3.3895313892515355e38,
            3.39e38, 1e39, -1e39, 2.0**-133, 2.0**-134, 2.0**-134 + 2.0**-160, 1e-46, -0.0, 0.0, math.inf,
            -math.inf, math.nan, 2.0**-126 * (1 - 2**-9)]
    f64[:len(edge)] = edge
    ints = rng.integers(-2**40, 2**40, n)
    ints[:8] = [255, 257, 259, -257, 2**63 - 1, -2**63, 0, 100001]
    f32s = patterns(n).astype(np.uint32) << 16 | rng.integers(0, 1 << 16, n).astype(np.uint32)
    f32s[:4] = [0x3F808000, 0x3F818000, 0x3F808001, 0x7F7FFFFF]  # ties, just above one, the largest float32
    f32s = f32s.view(np.float32)
    src = bf(patterns(n))

    @cuda.jit
    def conv(f64, ints, f32s, src, from64, fromint, from32, stored64, storedint, same, back32, trunc):
        i = cuda.grid(1)
        if i < f64.size:
            from64[i] = bfloat16(f64[i])
            fromint[i] = bfloat16(ints[i])
            from32[i] = bfloat16(f32s[i])
            stored64[i] = f64[i]          # a store rounds as bfloat16() does
            storedint[i] = ints[i]
            same[i] = bfloat16(src[i])
            back32[i] = float32(src[i])   # exact
            x = src[i]
            if abs(float32(x)) < float32(1e9):
                trunc[i] = int32(x)       # towards zero

    outs = [np.zeros(n, BF) for _ in range(6)] + [np.zeros(n, np.float32), np.zeros(n, np.int32)]
    conv[(n + 127) // 128, 128](f64, ints, f32s, src, *outs)
    check_bits("bfloat16(float64)", outs[0], rounded(f64), f64)
    check_bits("bfloat16(int64)", outs[1], rounded(ints), ints)
    check_bits("bfloat16(float32)", outs[2], rounded(f32s), f32s)
    check_bits("float64 stored", outs[3], rounded(f64), f64)
    check_bits("int64 stored", outs[4], rounded(ints), ints)
    check_bits("bfloat16(bfloat16)", outs[5], bits(src), bits(src))
    check_values("float32(bfloat16)", outs[6], f32(src))
    assert np.array_equal(outs[6].view(np.uint32), bits(src).astype(np.uint32) << 16)  # NaN payloads too
    fs = f32(src).astype(np.float64)
    small = np.abs(fs) < 1e9
    assert np.array_equal(outs[7][small], np.trunc(fs[small]).astype(np.int32)), "int32(bfloat16)"

    # a scalar argument of a declared bfloat16 parameter is rounded once, as bfloat16() rounds
    @cuda.jit("void(bfloat16[::1], bfloat16, float64[::1])")
    def scalar_arg(out, s, wide):
        out[0] = s
        out[1] = s * s
        wide[0] = float64(s)

    out, wide = np.zeros(2, BF), np.zeros(1)
    v = 1 + 2**-8 + 2**-30
    scalar_arg[1, 1](out, v, wide)
    s = f32(rounded(np.float64(v)).reshape(1).view(BF))
    check_bits("declared bfloat16 argument", out, np.concatenate([rounded(np.float64(v)).reshape(1), rounded(s * s)]))
    assert wide[0] == 1.0078125, wide
    print("conversions ok")
    """), device=device)
    assert "conversions ok" in r.stdout


@pytest.mark.parametrize("device", DEVICES)
def test_shared_local_and_dynamic_shared_arrays(run_on_device, device):
    r = run_on_device(program("""
    a = bf(rounded(rng.normal(0, 3, 64)))

    @cuda.jit
    def block(a, out, flipped):
        s = cuda.shared.array(64, bfloat16)
        d = cuda.shared.array(0, bfloat16)
        loc = cuda.local.array(2, bfloat16)
        t = cuda.threadIdx.x
        s[t] = a[t] * a[t]
        d[t] = a[t]
        cuda.syncthreads()
        loc[0] = s[(t + 1) % 64]
        loc[1] = s[t] + loc[0]
        out[t] = loc[1] / bfloat16(3)
        flipped[t] = d[63 - t] - a[t]

    out, flipped = np.zeros(64, BF), np.zeros(64, BF)
    block[1, 64, 0, 128](a, out, flipped)
    x = f32(a)
    sq = f32(bf(rounded(x * x)))
    total = f32(bf(rounded(sq + np.roll(sq, -1))))
    check_bits("shared and local arrays", out, rounded(total / np.float32(3)))
    check_bits("dynamic shared array", flipped, rounded(x[::-1] - x))
    print("shared arrays ok")
    """), device=device)
    assert "shared arrays ok" in r.stdout


@pytest.mark.parametrize("device", DEVICES)
def test_mixed_promotions(run_on_device, device):
    # bfloat16 with bool, int8 or uint8: bfloat16; with float16, int16 or float32: float32; with
    # float64, Python numbers, uint16, int32 or int64: float64. Written to float64 arrays, the
    # values tell which: a division rounds differently in each.
    r = run_on_device(program("""
    n = 512
    a = bf(rounded(rng.normal(0, 4, n)))
    b = bf(rounded(rng.normal(0, 4, n)))
    h = rng.normal(0, 2, n).astype(np.float16)

    @cuda.jit
    def mixed(a, b, h, o):
        i = cuda.grid(1)
        if i < a.size:
            x = a[i]
            o[i, 0] = x / int8(3)
            o[i, 1] = x * uint8(200) + x
            o[i, 2] = x + True
            o[i, 3] = int8(-3) / x
            o[i, 4] = x / int16(3)
            o[i, 5] = x / h[i]
            o[i, 6] = x / float32(3)
            o[i, 7] = x / 3
            o[i, 8] = x / 3.0
            o[i, 9] = x / int32(3)
            o[i, 10] = x / uint16(3)
            o[i, 11] = x / int64(3)
            o[i, 12] = x < b[i]
            o[i, 13] = x == b[i]
            o[i, 14] = float32(x) / float32(3)
            o[i, 15] = (x + bfloat16(0.1)) * b[i]

    o = np.zeros((n, 16))
    mixed[(n + 63) // 64, 64](a, b, h, o)
    x, y = f32(a), f32(b)
    r = lambda v: f32(bf(rounded(np.asarray(v, np.float32))))
    x64 = x.astype(np.float64)
    with np.errstate(all="ignore"):
        want = [r(x / np.float32(3)), r(r(x * np.float32(200)) + x), r(x + np.float32(1)), r(np.float32(-3) / x),
                x / np.float32(3), x / h.astype(np.float32), x / np.float32(3), x64 / 3, x64 / 3, x64 / 3, x64 / 3,
                x64 / 3, x < y, x == y, x / np.float32(3), r(r(x + f32(bf(rounded(np.float64(0.1)).reshape(1)))) * y)]
    names = ["/ int8", "* uint8 +", "+ bool", "int8 /", "/ int16", "/ float16", "/ float32", "/ int", "/ float",
             "/ int32", "/ uint16", "/ int64", "<", "==", "float32()", "bfloat16(0.1)"]
    for j, (name, w) in enumerate(zip(names, want)):
        check_values(name, o[:, j], np.asarray(w, np.float64))
    print("promotions ok")
    """), device=device)
    assert "promotions ok" in r.stdout


# ---- the simulator and the CPU device agree ----------------------------------------------------------

AGREEMENT = """
n = 2048
A, B = patterns(n), rng.permutation(patterns(n))
a, b = bf(A), bf(B)
m, m2 = bf(rounded(rng.normal(0, 4, n))), bf(rounded(rng.normal(0, 4, n)))
ints = rng.integers(-6, 7, n)

@cuda.jit
def ops(a, b, m, m2, ints, out, obf):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        u = m[i]
        v = m2[i]
        out[i, 0] = x // y
        out[i, 1] = x % y
        out[i, 2] = u // v
        out[i, 3] = u % v
        out[i, 4] = x ** y
        out[i, 5] = u ** 3
        out[i, 6] = u ** ints[i]
        out[i, 7] = -x
        out[i, 8] = abs(x)
        out[i, 9] = x >= y
        out[i, 10] = x != y
        out[i, 11] = max(u, v)
        out[i, 12] = min(x, y)
        out[i, 13] = round(u)
        out[i, 14] = math.floor(u)
        out[i, 15] = bool(x)
        out[i, 16] = 2 ** u
        q, r = divmod(u, v)
        out[i, 17] = q
        out[i, 18] = r
        obf[i, 0] = u ** -2
        obf[i, 1] = x * y + bfloat16(0.5)
        obf[i, 2] = (u - v) * (u + v)
        obf[i, 3] = cuda.bf16.hadd(x, y)
        obf[i, 4] = cuda.bf16.hfma(x, y, u)
        obf[i, 5] = cuda.bf16.hmax(x, y)
        obf[i, 6] = cuda.bf16.hmin(x, y)
        obf[i, 7] = cuda.bf16.hsqrt(x)
        obf[i, 8] = cuda.bf16.hexp10(u)
        obf[i, 9] = cuda.bf16.hrcp(x)
        obf[i, 10] = cuda.bf16.hneg(x)
        obf[i, 11] = cuda.bf16.float64_to_bfloat16(float64(u) * 1.001)
        out[i, 19] = cuda.bf16.bfloat16_to_float32(x)
        out[i, 20] = cuda.bf16.hlt(x, y)

out = np.zeros((n, 21))
obf = np.zeros((n, 12), BF)
ops[(n + 127) // 128, 128](a, b, m, m2, ints, out, obf)
np.save({path!r}, np.concatenate([out.view(np.uint64).ravel(), bits(obf).astype(np.uint64).ravel()]))
print("saved")
"""


def test_simulator_agrees_with_the_cpu_device(run_on_device, tmp_path):
    # Operations composed of several bfloat16 steps (//, %, divmod, ** of an integer: each step
    # rounded, as compiled), cuda.bf16's functions, and the rest: the simulator gives the CPU
    # device's bits.
    got = {}
    for device in DEVICES:
        path = str(tmp_path / f"{device}.npy")
        run_on_device(program(AGREEMENT.format(path=path)), device=device)
        got[device] = np.load(path)
    sim, cpu = got["sim"], got["cpu"]
    n, k = 2048, 21
    s64, c64 = sim[:n * k].view(np.float64).reshape(n, k), cpu[:n * k].view(np.float64).reshape(n, k)
    for j in range(k):
        ok = (s64[:, j].view(np.uint64) == c64[:, j].view(np.uint64)) | (np.isnan(s64[:, j]) & np.isnan(c64[:, j]))
        assert ok.all(), f"column {j}: {np.nonzero(~ok)[0][:5]} {s64[~ok, j][:5]} {c64[~ok, j][:5]}"
    s16, c16 = sim[n * k:].astype(np.uint16), cpu[n * k:].astype(np.uint16)
    nan = lambda v: (v & 0x7FFF) > 0x7F80
    assert ((s16 == c16) | (nan(s16) & nan(c16))).all()


# ---- the scalar type itself (in this process) -----------------------------------------------------------

def test_bfloat16_scalar_rounds_as_the_host_arrays():
    from kjit import bfloat16_host as bh
    from kjit.cuda.simulator import bfloat16_values as bf16
    rng = np.random.default_rng(3)
    f64 = rng.normal(0, 1, 20000) * 10.0 ** rng.integers(-48, 42, 20000)
    f64[:6] = [1 + 2**-8 + 2**-30, 2.0**-134, 3.3895313892515355e38, 3.3895314e38, -0.0, math.nan]
    f32 = (rng.integers(0, 1 << 32, 20000, dtype=np.uint64).astype(np.uint32)).view(np.float32)
    for values in (f64, f32, rng.integers(-2**62, 2**62, 2000)):
        want = np.asarray(bh.from_float(values)).view(np.uint16)
        got = np.array([bf16.bits_of(v) for v in values], np.uint16)
        nan = (want & 0x7FFF) > 0x7F80
        assert np.array_equal(got[~nan], want[~nan]) and ((got[nan] & 0x7FFF) > 0x7F80).all()

    x, y = bf16.BFloat16Scalar(1.5), bf16.BFloat16Scalar(1.0078125)
    assert type(x * y) is bf16.BFloat16Scalar and float(x * y) == 1.515625  # a tie: to even
    assert type(x + np.int8(1)) is bf16.BFloat16Scalar and type(np.uint8(1) + x) is bf16.BFloat16Scalar
    assert type(x + np.float32(1)) is np.float32 and type(np.float16(1) * x) is np.float32
    assert type(x + np.int16(1)) is np.float32
    assert type(x + 1) is np.float64 and type(1.0 - x) is np.float64 and type(x / np.int32(2)) is np.float64
    assert type(x ** 2) is bf16.BFloat16Scalar and type(x < y) is bool and (x > y) is True
    assert (-x).bits == 0xBFC0 and abs(-x).bits == 0x3FC0 and int(-x) == -1 and float(x) == 1.5
    assert np.float32(y) == np.float32(1.0078125) and np.int32(-x) == -1
    nan = bf16.BFloat16Scalar(math.nan)
    assert nan != nan and (nan * x).bits & 0x7FFF > 0x7F80
    assert hash(x) == hash(1.5) and str(x) == "1.5" and repr(x) == "bfloat16(1.5)"


def test_bfloat16_called_outside_kernels_is_unchanged():
    # kjit.bfloat16(x) on the host keeps its documented value (a float, or ml_dtypes'), even with the
    # simulator's module loaded.
    from kjit import bfloat16, bfloat16_host
    from kjit.cuda.simulator import bfloat16_values as bf16
    v = bfloat16(1 + 2**-8 + 2**-30)
    assert float(v) == 1.0078125
    assert type(v) is not bf16.BFloat16Scalar
    assert (type(v) is float) == (not bfloat16_host.ml_dtypes_present())
