"""cuda.declare_device and link=: the kernel's PTX calls the declared
function, the driver's linker gets the kernel's PTX and the linked code (the
fake CUDA driver logs its inputs), and the CPU device and the simulator
refuse with a clear error."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

PROGRAM = '''
import numpy as np
from kjit import cuda
times2 = cuda.declare_device("times2", "int32(int32)", link=cuda.PTXSource(PTX, name="times2ptx"))

@cuda.jit
def k(r, x):
    i = cuda.grid(1)
    if i < r.shape[0]:
        r[i] = times2(x[i])
'''
PTX = ".version 8.0\\n.target sm_90\\n.address_size 64\\n// times2's body\\n"


def test_declared_function_api():
    from kjit import cuda, float32, int32
    f = cuda.declare_device("f1", "int32(float32[:])")
    assert f.name == "f1" and f.sig.args == (float32[:],) and f.sig.return_type == int32
    with pytest.raises(TypeError, match="Return type"):
        cuda.declare_device("f1", "(float32[:],)")
    with pytest.raises(NotImplementedError):
        cuda.declare_device("f1", "int32(int32)", abi="x")


def test_ptx_calls_the_declared_function():
    from kjit import cuda
    ptx, _ = cuda.compile_ptx(_kernel_source(), "void(int32[::1], int32[::1])")
    assert ".extern .func  (.param .b32 func_retval0) times2" in ptx
    assert "call.uni (retval0)" in ptx and "times2," in ptx


def _kernel_source():
    from kjit import cuda
    global times2
    times2 = cuda.declare_device("times2", "int32(int32)")

    def k(r, x):
        i = cuda.grid(1)
        if i < r.shape[0]:
            r[i] = times2(x[i])
    return k


def _run(tmp_path, env, tail):
    script = tmp_path / "prog.py"
    script.write_text(f"PTX = {PTX!r}\n" + PROGRAM + tail)
    full = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python_bindings"))
    for v in ("KJIT_DEVICE", "KJIT_ENABLE_CUDASIM", "NUMBA_ENABLE_CUDASIM"):
        full.pop(v, None)
    full.update(env)
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=full,
                          timeout=300, cwd=tmp_path)


def test_link_gets_the_kernel_and_the_ptx(fake_driver, tmp_path):
    links = tmp_path / "links"
    links.mkdir()
    r = _run(tmp_path, dict(KJIT_CUDA_DRIVER=fake_driver, KJIT_DEVICE="cuda", FAKE_CUDA_LINK_DIR=str(links)), '''
d = cuda.to_device(np.arange(4, dtype=np.int32))
k[1, 4](d, d)
cuda.synchronize()
print("ok")
''')
    assert r.returncode == 0 and "ok" in r.stdout, r.stdout + r.stderr
    names = sorted(os.listdir(links))
    assert len(names) == 2, names
    kernel, lib = (links / names[0]).read_bytes(), (links / names[1]).read_bytes()
    assert names[0].startswith("link-0-1-") and b"times2" in kernel and b".extern .func" in kernel
    assert names[1] == "link-1-1-times2ptx" and b"times2's body" in lib


@pytest.mark.parametrize("env", [dict(KJIT_DEVICE="cpu"), dict(KJIT_ENABLE_CUDASIM="1")], ids=["cpu", "sim"])
def test_cpu_device_and_simulator_refuse(tmp_path, env):
    r = _run(tmp_path, env, '''
k[1, 4](np.zeros(4, np.int32), np.zeros(4, np.int32))
''')
    assert r.returncode != 0
    assert "'times2'" in r.stderr and "cuda.declare_device" in r.stderr and "GPU" in r.stderr, r.stderr
