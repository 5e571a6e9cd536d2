"""CUDA's vector types in kernels (cuda.float32x4, cuda.float4, cuda.short2
...): a value with fields x, y, z, w, made from numbers or from smaller
vectors of the same base type; the same on every device."""
import shutil
import subprocess

import numpy as np
import pytest

from kjit import cuda, errors

from conftest import find_ptxas

PTXAS = find_ptxas()

DEVICES = ["cpu", "sim"] + (["cuda"] if shutil.which("nvidia-smi") else [])

PROGRAM = r"""
import numpy as np
from kjit import cuda

@cuda.jit
def make(out):
    a = cuda.float32x4(1.0, 2.0, 3.0, 4.0)
    b = cuda.float2(5.0, 6.0)                    # CUDA C's name: float32x2
    c = cuda.float32x4(b, a.x, 7)                # a vector's fields spread
    d = cuda.short2(-3, 9)                       # int16 elements
    e = cuda.double3(cuda.float64x1(0.5), 1.5, 2.5)
    i = 0
    for v in tuple((a, c)):                      # a tuple of vectors (tuple() of a tuple is it)
        out[i] = v.x + 10 * v.y + 100 * v.z + 1000 * v.w
        i += 1
    out[2] = d.x * d.y
    out[3] = e.x + e.y + e.z

out = np.zeros(4)
make[1, 1](out)
assert list(out) == [4321.0, 7165.0, -27.0, 4.5], out
print("vectors ok")
"""


@pytest.mark.parametrize("device", DEVICES)
def test_vector_types_in_kernels(run_on_device, device):
    r = run_on_device(PROGRAM, device=device)
    assert "vectors ok" in r.stdout


def test_names_and_host_values():
    from kjit.cuda.vector_types import vector_types

    assert cuda.float4 is cuda.float32x4 and cuda.double2 is cuda.float64x2
    assert cuda.short3 is cuda.int16x3 and cuda.ulonglong4 is cuda.uint64x4
    assert len(vector_types) == 40
    vt = vector_types["int8x3"]
    assert (vt.num_elements, vt.attr_names, vt.base_type) == (3, ("x", "y", "z"), cuda.int8x3._vtype.base_type)
    # On the host the constructors make values too.
    v = cuda.float32x3(cuda.float32x2(1.0, 2.0), 3.0)
    assert (v.x, v.y, v.z) == (1.0, 2.0, 3.0)
    with pytest.raises(TypeError, match="takes 3 elements, 2 given"):
        cuda.float32x3(1.0, 2.0)


def test_a_wrong_number_of_elements_is_located():
    def k(out):
        v = cuda.float32x4(1.0, 2.0, 3.0)
        out[0] = v.x

    with pytest.raises(errors.TypingError) as e:
        cuda.compile_ptx(k, "void(float32[:])")
    msg = str(e.value)
    assert "cuda.float32x4() takes 4 elements (3 given)" in msg, msg
    assert "test_vector_types.py" in msg, msg


def test_a_vector_of_another_base_type_is_refused():
    def k(out):
        v = cuda.float64x2(cuda.float32x1(1.0), 2.0)
        out[0] = v.x

    with pytest.raises(errors.TypingError, match="takes float64 elements or vectors of them, not float32x1"):
        cuda.compile_ptx(k, "void(float64[:])")


@pytest.mark.skipif(PTXAS is None, reason="no ptxas to check the PTX")
def test_ptx_of_vector_types_assembles(tmp_path):
    def k(out):
        v = cuda.float32x4(cuda.float32x2(1.0, 2.0), out[0], 4.0)
        out[1] = v.x + v.y * v.z - v.w

    ptx, _ = cuda.compile_ptx(k, "void(float32[:])")
    src = tmp_path / "k.ptx"
    src.write_text(ptx)
    r = subprocess.run([PTXAS, "-arch=sm_90", str(src), "-o", str(tmp_path / "k.cubin")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
