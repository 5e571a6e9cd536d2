"""Probe helper for ncu: kjit's and numba-cuda's float64 sin*exp kernel
(bench_gpu.py's sinexp_promoted), each warmed up, then launched twice in
alternation (kjit, numba-cuda, kjit, numba-cuda). Run it under ncu with
--launch-skip 2 to profile the four timed launches.

    python3 benchmarks/gpu/probes/sinexp_twice.py [OUT_DIR]
"""
import os
import sys

import numpy as np

np.row_stack = getattr(np, "row_stack", np.vstack)  # numba-cuda under NumPy 2.5
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sinexp_source import SRC  # noqa: E402
out = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("OUT", ".")

sys.path.insert(0, out)
runs = []
x_h = (np.random.default_rng(0).random(1 << 24, dtype=np.float32) * 10).astype(np.float32)
for lib in ("kjit", "numba"):
    with open(os.path.join(out, f"_twice_{lib}.py"), "w") as f:
        f.write(SRC.replace("LIB", lib))
    mod = __import__(f"_twice_{lib}")
    x = mod.cuda.to_device(x_h)
    o = mod.cuda.device_array(1 << 24, np.float32)
    grid = ((1 << 24) + 255) // 256
    mod.sinexp_promoted[grid, 256](x, o)  # compile and warm up
    mod.cuda.synchronize()
    runs.append((mod, x, o, grid))
results = {}
for _ in range(2):
    for lib, (mod, x, o, grid) in zip(("kjit", "numba"), runs):
        mod.sinexp_promoted[grid, 256](x, o)
        mod.cuda.synchronize()
        results[lib] = o.copy_to_host()
print("max |kjit - numba|:", float(np.max(np.abs(results["kjit"] - results["numba"]))))
