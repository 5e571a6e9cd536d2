"""The seed kernels on an AMD GPU: each launched through kjit.hip with host
arrays and checked against NumPy, then timed as kernels alone (device
buffers, the median of timed rounds of launches, each round ended by a
synchronisation). Prints one JSON object; tools/amd/check.sh runs it, and
times the HIP C++ twins (benchmarks/amdgpu/bench.hip, built by hipcc) the
same way.

    PYTHONPATH=python_bindings python3 benchmarks/amdgpu/run_seeds.py [OUT.json]
"""
import json
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "gpu"))

from kjit import hip  # noqa: E402
from kjit import types as kt  # noqa: E402

import seed_kernels as S  # noqa: E402

N = 1 << 24


def check(name, got, want, rtol=1e-5, atol=1e-5):
    ok = np.allclose(got, want, rtol=rtol, atol=atol)
    return {"kernel": name, "correct": bool(ok)}


def correctness():
    rng = np.random.default_rng(1)
    out = []
    x, y = rng.random(4096, dtype=np.float32), rng.random(4096, dtype=np.float32)
    r = np.empty_like(x)
    hip.jit(S.saxpy.py_func)[16, 256](np.float32(2), x, y, r)
    out.append(check("saxpy", r, 2 * x + y))
    hip.jit(S.add_kernel.py_func)[8, 256](x, y, r)
    out.append(check("add_kernel", r, x + y))
    a, b = rng.random((64, 64), dtype=np.float32), rng.random((64, 64), dtype=np.float32)
    c = np.zeros((64, 64), np.float32)
    hip.jit(S.fast_matmul.py_func)[(4, 4), (S.TPB, S.TPB)](a, b, c)
    out.append(check("fast_matmul", c, a @ b, rtol=1e-4, atol=1e-4))
    h = np.zeros(10, np.int32)
    hip.jit(S.histogram.py_func)[16, 256](x, np.float32(0), np.float32(1), h)
    out.append(check("histogram", h, np.histogram(x, 10, (0, 1))[0]))
    total = np.zeros(1, np.float32)
    hip.jit(S.block_sum.py_func)[16, 256](x, total)
    out.append(check("block_sum", total[0], x.sum(), rtol=1e-4))
    r2 = np.empty_like(x)
    hip.jit(S.sinexp.py_func)[16, 256](x, r2)
    v = x.astype(np.float64)
    for _ in range(64):
        v = np.sin(v) * np.exp(-v * 0.01)
    out.append(check("sinexp", r2, v, rtol=1e-4, atol=1e-5))
    return out


def timed(kernel, grid, block, args, rounds=10, per_round=20):
    """Median microseconds of one launch (kjit's launch path, device arrays
    only), over rounds of launches."""
    launch = kernel[grid, block]
    for _ in range(3):
        launch(*args)
    hip.synchronize()
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(per_round):
            launch(*args)
        hip.synchronize()
        times.append((time.perf_counter() - t0) / per_round * 1e6)
    return sorted(times)[len(times) // 2]


def kernel_times():
    """kjit's kernels launched on device arrays (no copies)."""
    f32 = kt.float32

    def load(k, sig):
        return hip.jit(sig)(k.py_func)

    def arr(n, shape=None):
        return hip.device_array(shape or (n,), np.float32)

    x, y, out = arr(N), arr(N), arr(N)
    rows = []
    k = load(S.saxpy, kt.void(f32, f32[::1], f32[::1], f32[::1]))
    rows.append(("saxpy 16M f32", timed(k, (N + 255) // 256, 256, (np.float32(2.0), x, y, out))))
    k = load(S.sinexp, kt.void(f32[::1], f32[::1]))
    rows.append(("64 sin*exp 16M f32", timed(k, (N + 255) // 256, 256, (x, out))))
    hist = hip.device_array(64, np.int32)
    k = load(S.histogram, kt.void(f32[::1], f32, f32, kt.int32[::1]))
    rows.append(("histogram 16M", timed(k, 1024, 256, (x, np.float32(0.0), np.float32(1.0), hist))))
    m = 1024
    A, B, C = arr(0, (m, m)), arr(0, (m, m)), arr(0, (m, m))
    k = load(S.fast_matmul, kt.void(f32[:, ::1], f32[:, ::1], f32[:, ::1]))
    g = m // S.TPB
    rows.append(("tiled matmul 1024^2", timed(k, (g, g), (S.TPB, S.TPB), (A, B, C))))
    return [{"figure": name, "kjit_us": round(us, 2)} for name, us in rows]


def main():
    if not hip.is_available():
        print(json.dumps({"error": hip.why()}))
        return 1
    result = {"device": hip.list_devices()[0], "correctness": correctness(), "times": kernel_times()}
    text = json.dumps(result, indent=1)
    print(text)
    if len(sys.argv) > 1:
        with open(sys.argv[1], "w") as f:
            f.write(text)
    return 0 if all(r["correct"] for r in result["correctness"]) else 1


if __name__ == "__main__":
    sys.exit(main())
