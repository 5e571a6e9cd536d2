"""Probe: the PTX that kjit and numba-cuda make for the benchmark's
float64 sin*exp kernel (benchmarks/gpu/bench_gpu.py: sinexp_promoted), and
each one's time on the GPU, to find why they differ. Writes kjit.ptx,
numba.ptx and times.txt to the folder given (default $OUT)."""
import math
import os
import sys

import numpy as np

out = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("OUT", ".")
np.row_stack = getattr(np, "row_stack", np.vstack)  # numba-cuda under NumPy 2.5
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sinexp_source import SRC  # noqa: E402

results = []
for lib in ("kjit", "numba"):
    path = os.path.join(out, f"_sinexp_{lib}.py")
    with open(path, "w") as f:
        f.write(SRC.replace("LIB", lib))
    sys.path.insert(0, out)
    mod = __import__(f"_sinexp_{lib}")
    k = mod.sinexp_promoted
    cuda = mod.cuda
    x = cuda.to_device(np.random.default_rng(0).random(1 << 24, dtype=np.float32))
    o = cuda.device_array(1 << 24, np.float32)
    grid = ((1 << 24) + 255) // 256
    k[grid, 256](x, o)
    cuda.synchronize()
    start, end = cuda.event(), cuda.event()
    ts = []
    for _ in range(7):
        start.record()
        k[grid, 256](x, o)
        end.record()
        end.synchronize()
        ts.append(cuda.event_elapsed_time(start, end) * 1000)
    ts.sort()
    results.append(f"{lib}: {ts[3]:.1f} us")
    sig = "void(float32[::1], float32[::1])"
    ptx = cuda.compile_ptx(mod.sinexp_promoted.py_func, sig, cc=(9, 0))[0]
    with open(os.path.join(out, f"{lib}.ptx"), "w") as f:
        f.write(ptx)
with open(os.path.join(out, "times.txt"), "w") as f:
    f.write("\n".join(results) + "\n")
print("\n".join(results))
