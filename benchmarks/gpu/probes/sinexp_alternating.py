"""Probe: kjit's and numba-cuda's float64 sin*exp kernel (the benchmark's
sinexp_promoted) timed in alternating rounds on one GPU, so that clock and
thermal drift fall on both alike. Prints each round's medians and the
median ratio kjit / numba-cuda.

    python3 benchmarks/gpu/probes/sinexp_alternating.py [OUT_DIR] [ROUNDS]
"""
import os
import sys

import numpy as np

np.row_stack = getattr(np, "row_stack", np.vstack)  # numba-cuda under NumPy 2.5
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sinexp_source import SRC  # noqa: E402
out = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("OUT", ".")
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 11

sys.path.insert(0, out)
kernels = {}
for lib in ("kjit", "numba"):
    with open(os.path.join(out, f"_alt_{lib}.py"), "w") as f:
        f.write(SRC.replace("LIB", lib))
    mod = __import__(f"_alt_{lib}")
    cuda = mod.cuda
    x = cuda.to_device(np.random.default_rng(0).random(1 << 24, dtype=np.float32))
    o = cuda.device_array(1 << 24, np.float32)
    grid = ((1 << 24) + 255) // 256
    mod.sinexp_promoted[grid, 256](x, o)
    cuda.synchronize()
    kernels[lib] = (mod, x, o, grid)


def median_us(lib, reps=7):
    mod, x, o, grid = kernels[lib]
    cuda = mod.cuda
    start, end = cuda.event(), cuda.event()
    ts = []
    for _ in range(reps):
        start.record()
        mod.sinexp_promoted[grid, 256](x, o)
        end.record()
        end.synchronize()
        ts.append(cuda.event_elapsed_time(start, end) * 1000)
    return sorted(ts)[reps // 2]


ratios = []
for r in range(rounds):
    a, b = (median_us("kjit"), median_us("numba")) if r % 2 == 0 else reversed((median_us("numba"), median_us("kjit")))
    ratios.append(a / b)
    print(f"round {r}: kjit {a:.1f} us, numba-cuda {b:.1f} us, ratio {a / b:.4f}")
print(f"median ratio kjit / numba-cuda: {sorted(ratios)[len(ratios) // 2]:.4f} over {rounds} rounds")
