"""The HIP runtime path (runtime/hip, kjit.hip) without an AMD GPU.

Against tests/python/fake_hip/fake_hip.c (a stand-in libamdhip64.so that
runs no kernel but answers as one gfx90a device would and logs launches):
@hip.jit kernels compile for the device's processor, their code object
loads, the launch passes every parameter as kjit's ABI lays it out (an
array as its device pointer, shape and strides), host arrays go to the
device and back, and an exception a kernel recorded is raised at the
synchronisation with its kernel and place. Against Debian's real
libamdhip64.so.5 on this machine (no AMD GPU): a clean "no AMD GPU" and a
process that goes on. Each case runs in its own process: the runtime is
loaded once per process."""
import os
import subprocess
import sys
import textwrap

import pytest

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tests/python
ROOT = os.path.join(HERE, "..", "..")


def run(code, env):
    full = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python_bindings"), KJIT_DEVICE="cpu")
    full.update(env)
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                       env=full, timeout=300)
    return r


SAXPY = """
import numpy as np
from kjit import cuda, hip

@hip.jit
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = a * x[i] + y[i]
"""


def test_a_kernel_compiles_loads_and_launches_with_kjits_parameters(fake_hip, tmp_path):
    log = tmp_path / "launches"
    r = run(SAXPY + """
print(hip.is_available(), repr(hip.why()))
d = hip.list_devices()[0]
print(d["name"], d["processor"], d["wavefront"])
x = np.arange(8, dtype=np.float32)
out = np.full(8, -1.0, np.float32)
saxpy[2, 4](np.float32(2.0), x, x, out)
print("out", out.tolist())
""", {"KJIT_HIP_RUNTIME": fake_hip, "FAKE_HIP_LOG": str(log), "FAKE_HIP_PARAMS": "10"})
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "True ''"
    assert lines[1] == "Fake AMD Instinct gfx90a 64"
    # (The fake runs no kernel: the output comes back as it went.)
    assert lines[2] == "out " + str([-1.0] * 8)
    launch = log.read_text().split()
    assert launch[:9] == ["launch", "saxpy", "2", "1", "1", "4", "1", "1", "0"]
    params = [int(p, 16) for p in launch[9:]]
    # a (2.0f), the pointers of x, y and out, then their shapes and strides (8, 4)
    assert params[0] & 0xffffffff == 0x40000000
    assert params[4:] == [8, 4] * 3
    assert 0 not in params[1:4] and len(set(params[1:4])) == 3


def test_the_processor_the_runtime_reports_is_the_one_compiled_for(fake_hip):
    # An RDNA device: 32-lane wavefronts, so cuda.warpsize is 32 there and a
    # 32-lane mask compiles.
    r = run("""
import numpy as np
from kjit import cuda, hip

@hip.jit
def warp(out):
    out[0] = cuda.ballot_sync(0xffffffff, True) + cuda.warpsize
print(hip.list_devices()[0]["processor"], hip.list_devices()[0]["wavefront"])
warp[1, 32](np.zeros(1, np.int64))
print("launched")
""", {"KJIT_HIP_RUNTIME": fake_hip, "FAKE_HIP_ARCH": "gfx1030"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["gfx1030", "32", "launched"]
    # The same kernel on a 64-lane device is the located error.
    r = run("""
import numpy as np
from kjit import cuda, hip

@hip.jit
def warp(out):
    out[0] = cuda.ballot_sync(0xffffffff, True)
warp[1, 64](np.zeros(1, np.uint64))
""", {"KJIT_HIP_RUNTIME": fake_hip})
    assert r.returncode == 1
    assert "TypingError" in r.stderr and "the mask 0xffffffff names 32 lanes" in r.stderr and \
        "<string>:7:" in r.stderr


def test_a_recorded_bounds_check_is_raised_at_the_synchronisation(fake_hip):
    r = run("""
import numpy as np
from kjit import cuda, hip

@hip.jit(boundscheck=True)
def copy(a, out, k):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = a[i + k]
try:
    copy[1, 4](np.zeros(5), np.zeros(4), 0)
except IndexError as e:
    print("IndexError", e)
copy[1, 4](np.zeros(5), np.zeros(4), 0)  # the record was cleared: the next launch may record again
""", {"KJIT_HIP_RUNTIME": fake_hip, "FAKE_HIP_RAISE": "1"})
    assert r.returncode == 1, r.stdout + r.stderr
    first = r.stdout.splitlines()[0]
    assert first.startswith("IndexError") and "index 9 is out of bounds for axis 0 with size 5" in first
    assert "In function 'copy', tid=[3, 0, 0] ctaid=[1, 0, 0]" in first, first  # (Numba's words)
    assert "IndexError" in r.stderr


def test_without_an_amd_gpu_the_error_is_clean_and_the_process_goes_on(fake_hip):
    r = run(SAXPY + """
print(hip.is_available())
print(hip.why())
try:
    saxpy[1, 1](np.float32(1), np.zeros(1, np.float32), np.zeros(1, np.float32), np.zeros(1, np.float32))
except cuda.CudaSupportError as e:
    print("CudaSupportError", e)
print("still running")
""", {"KJIT_HIP_RUNTIME": fake_hip, "FAKE_HIP_DEVICES": "0"})
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    assert out[0] == "False"
    assert out[1].startswith("no AMD GPU: the HIP runtime") and "hipErrorNoDevice" in out[1]
    assert out[2].startswith("CudaSupportError no AMD GPU") and out[3] == "still running"


def test_a_missing_hip_library_is_a_message():
    r = run("""
from kjit import hip
print(hip.is_available())
print(hip.why())
""", {"KJIT_HIP_RUNTIME": "/nonexistent/libamdhip64.so"})
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    assert out[0] == "False" and "could not be loaded" in out[1] and "/nonexistent/libamdhip64.so" in out[1]


REAL_HIP = next((p for p in ("/usr/lib/x86_64-linux-gnu/libamdhip64.so.5", "/opt/rocm/lib/libamdhip64.so")
                 if os.path.exists(p)), None)


@pytest.mark.skipif(REAL_HIP is None, reason="the HIP runtime (libamdhip64-dev) is not installed")
def test_the_real_hip_runtime_without_a_device():
    r = run("""
from kjit import hip
print(hip.is_available())
print(hip.why())
print("still running")
""", {"KJIT_HIP_RUNTIME": REAL_HIP})
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    if out[0] == "True":
        pytest.skip("this machine has an AMD GPU")
    assert out[0] == "False" and out[1].startswith("no AMD GPU: the HIP runtime") and out[-1] == "still running", \
        r.stdout


def test_device_arrays_stay_on_the_device_between_launches(fake_hip, tmp_path):
    # to_device / device_array_like / copy_to_host round trips (the fake's
    # memory is host memory, copied as the real runtime copies), and a launch
    # passes a device array's own buffer, with its shape and byte strides.
    log = tmp_path / "launches"
    r = run("""
import numpy as np
from kjit import cuda, hip

@hip.jit
def double(a, b):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        b[i, j] = a[i, j] * 2

host = np.arange(6.0).reshape(2, 3)
d = hip.to_device(host)
o = hip.device_array_like(host)
print(d.shape, d.strides, d.dtype, d.nbytes, (d.copy_to_host() == host).all())
double[(1, 1), (2, 3)](d, o)
print(hex(d._memory.device_pointer), hex(o._memory.device_pointer))
asm = double.inspect_asm()
print(list(asm), "global_store_dwordx2" in asm[("array(float64, 2d, C)",) * 2])
into = np.empty((2, 3))
print(d.copy_to_host(into) is into)
try:
    d.copy_to_device(np.zeros(4))
except ValueError as e:
    print("ValueError", e)
""", {"KJIT_HIP_RUNTIME": fake_hip, "FAKE_HIP_LOG": str(log), "FAKE_HIP_PARAMS": "6"})
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    assert out[0] == "(2, 3) (24, 8) float64 48 True"
    ptr_a, ptr_b = (p[2:] for p in out[1].split())
    assert log.read_text().split()[9:] == [ptr_a, ptr_b, "2", "3", "18", "8"]
    # inspect_asm: the assembly of what the launches compiled, by argument types
    assert out[2] == "[('array(float64, 2d, C)', 'array(float64, 2d, C)')] True"
    assert out[3] == "True" and out[4].startswith("ValueError incompatible shape: (2, 3) vs. (4,)")
