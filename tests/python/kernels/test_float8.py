"""The 8-bit floats float8_e4m3fn and float8_e5m2: storage types of @jit
functions and kernels (conversions in and out, no arithmetic), the same on
the CPU, the CPU device, the simulator and the GPU. Conversions to them
round to nearest even and saturate to the largest finite value (448,
57344), as PTX's cvt.rn.satfinite; NaN stays NaN. Host arrays are ml_dtypes'
when it is installed, else uint8 arrays tagged with the type's name
(kjit.to_float8(values, name) makes one, kjit.float8_to_float32(a) reads it).
"""
import shutil

import numpy as np
import pytest

import kjit
from kjit import cuda, errors, float32, float8_e4m3fn, float8_e5m2, njit
from kjit import float8_host as host

from conftest import assemble

DEVICES = ["cpu", "sim"] + (["cuda"] if shutil.which("nvidia-smi") else [])
NAMES = ["float8_e4m3fn", "float8_e5m2"]


def bits(a):
    return np.asarray(a).view(np.uint8)


def all_patterns(name):
    return np.arange(256, dtype=np.uint8).view(host.dtype(name))


@pytest.mark.parametrize("name", NAMES)
def test_host_values_and_rounding(name):
    f = host.to_float32(all_patterns(name))
    finite = np.isfinite(f)
    assert np.array_equal(bits(host.from_float(f[finite], name)), np.arange(256)[finite])
    largest = 448.0 if name == "float8_e4m3fn" else 57344.0
    assert f[finite].max() == largest
    # every midpoint between neighbours rounds to the even one
    pos = np.sort(f[finite & (f >= 0)].astype(np.float64))
    pos = np.unique(pos)
    mids = (pos[:-1] + pos[1:]) / 2
    got = host.to_float32(host.from_float(mids, name))
    lo_bits = bits(host.from_float(pos[:-1], name))
    want = np.where(lo_bits % 2 == 0, pos[:-1], pos[1:])
    assert np.array_equal(got, want.astype(np.float32))
    sat = host.to_float32(host.from_float([1e6, -np.inf, np.inf, np.nan], name))
    assert sat[:3].tolist() == [largest, -largest, largest] and np.isnan(sat[3])


@njit
def convert_in(x, out):
    for i in range(x.size):
        out[i] = x[i]


@njit
def convert_out(a, out):
    for i in range(a.size):
        out[i] = float32(a[i])


@njit
def cross(a, out):
    for i in range(a.size):
        out[i] = a[i]


@pytest.mark.parametrize("name", NAMES)
def test_conversions_in_jit_functions(name):
    pats = all_patterns(name)
    f = np.empty(256, np.float32)
    convert_out(pats, f)
    assert np.array_equal(f, host.to_float32(pats), equal_nan=True)
    rng = np.random.default_rng(3)
    x = np.concatenate([rng.standard_normal(4000) * 10.0 ** rng.uniform(-5, 5, 4000),
                        [0.0, -0.0, 1e9, -1e9, np.inf, -np.inf, np.nan]])
    out = host.from_float(np.zeros(x.size), name)
    convert_in(x, out)  # float64: rounded once
    assert np.array_equal(bits(out), bits(host.from_float(x, name)))
    convert_in(x.astype(np.float32), out)
    assert np.array_equal(bits(out), bits(host.from_float(x.astype(np.float32), name)))
    other = NAMES[1 - NAMES.index(name)]
    o2 = host.from_float(np.zeros(256), other)
    cross(pats, o2)
    assert np.array_equal(bits(o2), bits(host.from_float(host.to_float32(pats), other)))


def test_the_types_are_storage_only():
    @njit
    def add(a):
        return a[0] + a[1]

    with pytest.raises(errors.TypingError) as e:
        add(host.from_float([1.0, 2.0], "float8_e4m3fn"))
    msg = str(e.value)
    assert "float8_e4m3fn values are storage only" in msg and "float32(x)" in msg, msg
    assert "test_float8.py" in msg
    assert str(float8_e4m3fn) == "float8_e4m3fn" and float8_e5m2.bitwidth == 8
    assert float8_e4m3fn(500.0) == 448.0 and float8_e5m2(0.3) == 0.3125
    assert kjit.typeof(host.from_float([1.0], "float8_e5m2")) == float8_e5m2[::1]


KERNELS = r"""
import numpy as np, kjit
from kjit import cuda, float32, float8_e4m3fn
from kjit import float8_host as host

@cuda.jit
def quantize(x, scale, q, back):
    i = cuda.grid(1)
    if i < x.size:
        q[i] = float8_e4m3fn(x[i] * scale)
        back[i] = float32(q[i]) / scale

x = np.random.default_rng(5).standard_normal(1000).astype(np.float32)
q = cuda.device_array(1000, dtype=kjit.float8_dtype("float8_e4m3fn"))
back = cuda.device_array(1000, dtype=np.float32)
scale = np.float32(448.0 / np.abs(x).max())
quantize[4, 256](cuda.to_device(x), scale, q, back)
hq = q.copy_to_host()
assert np.array_equal(hq.view(np.uint8), host.from_float(x * scale, "float8_e4m3fn").view(np.uint8))
assert np.allclose(back.copy_to_host(), x, rtol=0.07, atol=1e-3)
print("float8 ok")
"""


@pytest.mark.parametrize("device", DEVICES)
def test_float8_kernels(run_on_device, device):
    r = run_on_device(KERNELS, device=device)
    assert "float8 ok" in r.stdout


def ptx_kernel(x, q, y):
    i = cuda.grid(1)
    if i < x.size:
        q[i] = x[i]
        y[i] = float32(q[i])


@pytest.mark.parametrize("cc", [(7, 5), (8, 9), (9, 0)])
@pytest.mark.parametrize("name", NAMES)
def test_ptx_assembles(tmp_path, cc, name):
    ptx, _ = cuda.compile_ptx(ptx_kernel, f"void(float32[::1], {name}[::1], float32[::1])", cc=cc)
    assemble(ptx, tmp_path, arch=f"sm_{cc[0]}{cc[1]}")


def test_constants_round_as_conversions_do():
    @njit
    def store(q):
        q[0] = float8_e4m3fn(0.3)  # a constant conversion, folded while typing
        q[1] = 1000.0              # a constant stored: saturated
        x = float8_e4m3fn(2)
        q[2] = x
        return float32(x) + float32(float8_e4m3fn(0.3))

    q = host.from_float(np.zeros(3), "float8_e4m3fn")
    assert store(q) == 2.3125
    assert host.to_float32(q).tolist() == [0.3125, 448.0, 2.0]
