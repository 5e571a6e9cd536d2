"""cmath in kernels: every function Numba's CUDA target offers, on every
device, against Python's own cmath (regular values, signed zeros and the
special values of infinities and NaNs that the implementations handle)."""
import shutil

import pytest

PROGRAM = r"""
import cmath, math
import numpy as np
from kjit import cuda

NAMES = ["sqrt", "exp", "log", "log10", "sin", "cos", "tan", "sinh", "cosh", "tanh",
         "asin", "acos", "atan", "asinh", "acosh", "atanh"]

@cuda.jit
def apply(z, out):
    i = cuda.grid(1)
    if i < z.shape[0]:
        out[i, 0] = cmath.sqrt(z[i])
        out[i, 1] = cmath.exp(z[i])
        out[i, 2] = cmath.log(z[i])
        out[i, 3] = cmath.log10(z[i])
        out[i, 4] = cmath.sin(z[i])
        out[i, 5] = cmath.cos(z[i])
        out[i, 6] = cmath.tan(z[i])
        out[i, 7] = cmath.sinh(z[i])
        out[i, 8] = cmath.cosh(z[i])
        out[i, 9] = cmath.tanh(z[i])
        out[i, 10] = cmath.asin(z[i])
        out[i, 11] = cmath.acos(z[i])
        out[i, 12] = cmath.atan(z[i])
        out[i, 13] = cmath.asinh(z[i])
        out[i, 14] = cmath.acosh(z[i])
        out[i, 15] = cmath.atanh(z[i])

@cuda.jit
def with_base(z, out):
    i = cuda.grid(1)
    if i < z.shape[0]:
        out[i] = cmath.log(z[i], 2.0 + 1j)

values = [0.5 + 0.25j, -1.5 + 2j, 3 - 0.5j, -0.75 - 1.25j, 2j, 0.1 + 0.9j, -2.5 + 0j]
z = np.array(values, np.complex128)
out = np.zeros((len(values), len(NAMES)), np.complex128)
apply[1, 32](z, out)
for i, v in enumerate(values):
    for j, name in enumerate(NAMES):
        want = getattr(cmath, name)(v)
        got = complex(out[i, j])
        assert cmath.isclose(got, want, rel_tol=1e-12, abs_tol=1e-14), (name, v, got, want)
b = np.zeros(len(values), np.complex128)
with_base[1, 32](z, b)
for v, got in zip(values, b):
    assert cmath.isclose(complex(got), cmath.log(v, 2.0 + 1j), rel_tol=1e-12), (v, got)

# Special values as CPython gives them, in compiled code (the simulator runs
# Python's cmath itself, which raises for some of these).
from kjit import devices
if not devices.simulator():
    special = np.array([complex(-math.inf, 0.0), complex(-math.inf, -math.inf)], np.complex128)
    s = np.zeros((2, len(NAMES)), np.complex128)
    apply[1, 32](special, s)
    r = complex(s[0, 0])  # sqrt(-inf+0j) is infj
    assert (r.real, r.imag) == (0.0, math.inf), r
    r = complex(s[1, 1])  # exp(-inf-infj) is 0j (signs aside)
    assert (abs(r.real), abs(r.imag)) == (0.0, 0.0), r

# complex64 computes through complex128 and gives complex64.
z32 = z.astype(np.complex64)
out32 = np.zeros((len(values), len(NAMES)), np.complex64)
apply[1, 32](z32, out32)
assert np.allclose(out32, out.astype(np.complex64), rtol=1e-5, atol=1e-6)
print("cmath ok")
"""


DEVICES = ["cpu", "sim"] + (["cuda"] if shutil.which("nvidia-smi") else [])


@pytest.mark.parametrize("device", DEVICES)
def test_cmath_functions_in_kernels_give_pythons_results(run_on_device, device):
    r = run_on_device(PROGRAM, device=device)
    assert "cmath ok" in r.stdout
