# Launch cost, alternating rounds in one process: kjit, CUDA C++ (runtime API, ctypes-loaded loop), CuPy RawKernel.
import ctypes, sys, time
import numpy as np
import cupy as cp
from kjit import cuda
lib = ctypes.CDLL(sys.argv[1]); lib.cpp_launch3_us.restype = ctypes.c_double
@cuda.jit
def e3(a, b, c):
    pass
a, b, c = (cuda.to_device(np.zeros(16, np.float32)) for _ in range(3))
ker = cp.RawKernel(r'extern "C" __global__ void empty3(float*a, float*b, float*c) {}', "empty3")
a3 = tuple(cp.zeros(16, cp.float32) for _ in range(3))
def py_loop(f, n=20000):
    t = time.perf_counter()
    for _ in range(n): f()
    r = (time.perf_counter() - t) / n * 1e6
    cuda.synchronize(); cp.cuda.Device().synchronize()
    return r
l = e3[1, 1]
res = {"kjit": [], "kjit cached launcher": [], "cpp": [], "cupy": []}
for _ in range(200): e3[1, 1](a, b, c); ker((1,), (1,), a3)
lib.cpp_launch3_us(1000)
for r in range(9):
    res["kjit"].append(py_loop(lambda: e3[1, 1](a, b, c)))
    res["kjit cached launcher"].append(py_loop(lambda: l(a, b, c)))
    res["cpp"].append(lib.cpp_launch3_us(20000))
    res["cupy"].append(py_loop(lambda: ker((1,), (1,), a3)))
med = {k: sorted(v)[4] for k, v in res.items()}
print("  ".join(f"{k} {v:.3f}" for k, v in med.items()), f" kjit/cpp {med['kjit'] / med['cpp']:.3f}  cupy/cpp {med['cupy'] / med['cpp']:.3f}")
