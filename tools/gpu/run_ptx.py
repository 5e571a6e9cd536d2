"""Runs kjit's PTX of the seed kernels on the GPU through CuPy, checks each
against NumPy (float64) and times SAXPY and the tiled matmul against the same
kernels built by nvcc (benchmarks/gpu/cuda/kernels.cu) in the same run.

    python3 tools/gpu/run_ptx.py PTX_DIR [OUT_DIR]

kjit's kernel ABI: each array argument is passed flattened as
(data pointer, shape..., strides in bytes...); scalars as themselves.
"""
import json
import os
import subprocess
import sys

import cupy as cp
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ptx_dir = sys.argv[1]
out_dir = sys.argv[2] if len(sys.argv) > 2 else os.environ.get("OUT", ".")
results = {"checks": {}, "timings": {}}
rng = np.random.default_rng(0)


def flat(*args):
    """Kernel arguments in kjit's ABI."""
    out = []
    for a in args:
        if isinstance(a, cp.ndarray):
            out.append(a)
            out += [np.int64(n) for n in a.shape]
            out += [np.int64(s) for s in a.strides]
        else:
            out.append(a)
    return tuple(out)


def kernel(name):
    # RawModule(path=) loads PTX (code= would compile CUDA C).
    return cp.RawModule(path=os.path.join(ptx_dir, name + ".ptx")).get_function(name)


def check(name, ok, detail=""):
    results["checks"][name] = bool(ok)
    print(f"{'PASS' if ok else 'FAIL'} {name} {detail}", flush=True)


def time_kernel(fn, grid, block, args, shared=0, reps=20):
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    for _ in range(3):
        fn(grid, block, args, shared_mem=shared)
    times = []
    for _ in range(reps):
        start.record()
        fn(grid, block, args, shared_mem=shared)
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop) * 1e3)
    return float(np.median(times))


# ---- correctness ------------------------------------------------------------
n = 1 << 20
x = rng.random(n, dtype=np.float32)
y = rng.random(n, dtype=np.float32)
dx, dy = cp.asarray(x), cp.asarray(y)
out = cp.zeros(n, np.float32)
kernel("add_kernel")((128,), (256,), flat(dx, dy, out))
check("add_kernel", np.allclose(out.get(), x + y))

out[:] = 0
kernel("saxpy")(((n + 255) // 256,), (256,), flat(np.float32(2.5), dx, dy, out))
check("saxpy", np.allclose(out.get(), 2.5 * x.astype(np.float64) + y, rtol=1e-6))

a2 = rng.random((300, 200), dtype=np.float32)
d2 = cp.asarray(a2)
kernel("increment_a_2D_array")(((300 + 15) // 16, (200 + 15) // 16), (16, 16), flat(d2))
check("increment_a_2D_array", np.allclose(d2.get(), a2 + 1))

M, K, N = 300, 200, 100
A = rng.random((M, K), dtype=np.float32)
B = rng.random((K, N), dtype=np.float32)
dA, dB, dC = cp.asarray(A), cp.asarray(B), cp.zeros((M, N), np.float32)
bpg = (N + 15) // 16, (M + 15) // 16  # blocks in x (columns), y (rows)
# The seed kernel loops over gridDim.x tiles of K: launch a square grid.
g = max(bpg[0], bpg[1], (K + 15) // 16)
kernel("fast_matmul")((g, g), (16, 16), flat(dA, dB, dC))
check("fast_matmul", np.allclose(dC.get(), A.astype(np.float64) @ B, rtol=1e-4, atol=1e-4))

vals = rng.random(n, dtype=np.float32) * 10
hist = cp.zeros(16, np.int32)
kernel("histogram")((128,), (256,), flat(cp.asarray(vals), np.float32(0), np.float32(10), hist))
want = np.histogram(vals, bins=16, range=(0, 10))[0]
check("histogram", (hist.get() == want).all() or np.abs(hist.get() - want).max() <= 1,
      f"max diff {np.abs(hist.get() - want).max()}")

m = 256 * 64
v = rng.random(m, dtype=np.float32)
total = cp.zeros(1, np.float32)
kernel("block_sum")((64,), (256,), flat(cp.asarray(v), total))
check("block_sum", abs(float(total.get()[0]) - v.astype(np.float64).sum()) < 1e-3 * m)

sx = rng.random(4096, dtype=np.float32)
sout = cp.zeros(4096, np.float32)
kernel("sinexp")((16,), (256,), flat(cp.asarray(sx), sout))
ref = sx.astype(np.float64)
for _ in range(64):
    ref = np.sin(ref) * np.exp(-ref * np.float32(0.01))
check("sinexp (libdevice)", np.allclose(sout.get(), ref, rtol=1e-4, atol=1e-5))

wa = rng.integers(-5, 5, 1024).astype(np.int32)
wout = cp.zeros(1024, np.int32)
kernel("warp_ops")((4,), (256,), flat(cp.asarray(wa), wout))
exp = np.empty(1024, np.int64)
for w in range(0, 1024, 32):
    lanes = wa[w:w + 32].astype(np.int64)
    vv = lanes + np.where(np.arange(32) < 16, lanes[(np.arange(32) + 16) % 32], lanes)
    ballot = int(np.sum(vv > 0))
    exp[w:w + 32] = vv + ballot + np.arange(32)
check("warp_ops (shfl, ballot, popc, laneid)", (wout.get() == exp).all())

# ---- speed: kjit's PTX against nvcc's, same kernels, same run -------------------
nv_ptx = os.path.join(out_dir, "nvcc_kernels.ptx")
subprocess.run(["nvcc", "-O3", "-arch=sm_90", "-ptx", os.path.join(ROOT, "benchmarks/gpu/cuda/kernels.cu"),
                "-o", nv_ptx], check=True)
nv = cp.RawModule(path=nv_ptx)
n = 1 << 24
dx, dy = cp.asarray(rng.random(n, dtype=np.float32)), cp.asarray(rng.random(n, dtype=np.float32))
out = cp.zeros(n, np.float32)
grid, block = ((n + 255) // 256,), (256,)
t_kjit = time_kernel(kernel("saxpy"), grid, block, flat(np.float32(2.0), dx, dy, out))
t_nvcc = time_kernel(nv.get_function("saxpy"), grid, block, (np.float32(2.0), dx, dy, out, np.int64(n)))
gbps = 3 * 4 * n / (t_kjit * 1e-6) / 1e9
results["timings"]["saxpy 16M f32"] = {"kjit_us": t_kjit, "nvcc_us": t_nvcc, "ratio": t_kjit / t_nvcc}
print(f"saxpy 16M float32: kjit {t_kjit:.1f} us ({gbps:.0f} GB/s), nvcc {t_nvcc:.1f} us, ratio {t_kjit / t_nvcc:.3f}")

M, K, N = 1024, 2048, 512
A = cp.asarray(rng.random((M, K), dtype=np.float32))
B = cp.asarray(rng.random((K, N), dtype=np.float32))
C1, C2 = cp.zeros((M, N), np.float32), cp.zeros((M, N), np.float32)
# Both kernels loop over gridDim.x tiles of K; a (K/16, M/16) grid covers
# C's columns with the first N/16 columns of blocks, as the seed program does.
grid = (K // 16, M // 16)
t_kjit = time_kernel(kernel("fast_matmul"), grid, (16, 16), flat(A, B, C1))
t_nvcc = time_kernel(nv.get_function("fast_matmul"), grid, (16, 16),
                     (A, B, C2, np.int32(M), np.int32(K), np.int32(N)))
same = bool(cp.allclose(C1, C2, rtol=1e-4, atol=1e-3))
check("fast_matmul 1024x2048 @ 2048x512 equals nvcc's", same)
results["timings"]["tiled matmul 1024x2048x512"] = {"kjit_us": t_kjit, "nvcc_us": t_nvcc, "ratio": t_kjit / t_nvcc}
print(f"tiled matmul: kjit {t_kjit:.1f} us, nvcc {t_nvcc:.1f} us, ratio {t_kjit / t_nvcc:.3f}")

# ---- boundscheck: the failing thread records and returns (no trap) ---------------
# In a subprocess, in case the kernel faults after all.
CHECK = r"""
import ctypes, sys
import cupy as cp, numpy as np
m = cp.RawModule(path=sys.argv[1])
rt = cp.cuda.runtime
host = rt.hostAlloc(64, 2)                 # cudaHostAllocMapped
rec = (ctypes.c_uint32 * 16).from_address(host)
ctypes.memset(host, 0, 64)
dev = host  # unified addressing: a mapped host allocation has the same address on the device
g = m.get_global("kjit_error_record")
value = ctypes.c_uint64(dev)  # kept alive while it is copied
g.copy_from_host(ctypes.addressof(value), 8)
cp.cuda.Device().synchronize()
n = 1000
a, out = cp.zeros(n, np.float32), cp.zeros(n, np.float32)
f = m.get_function("checked_copy")
args = (a, np.int64(n), np.int64(4), out, np.int64(n), np.int64(4), np.int64(7))
try:
    f((4,), (256,), args)
    cp.cuda.Device().synchronize()
    print("NO ERROR")
except Exception as e:
    print("launch failed:", type(e).__name__, str(e)[:80])
r = list(rec)
index = r[4] | (r[5] << 32)
size = r[6] | (r[7] << 32)
print("record", r[0], "line", r[1], "col", r[2], "axis", r[3], "index", index, "size", size,
      "thread", r[8:11], "block", r[11:14], "file", r[14])
ok = r[0] == 1 and index >= size == n and index == r[11] * 256 + r[8] + 7
print("RECORD_OK" if ok else "RECORD_BAD")
"""
r = subprocess.run([sys.executable, "-c", CHECK, os.path.join(ptx_dir, "checked_copy.ptx")],
                   capture_output=True, text=True, timeout=120)
print(r.stdout.strip(), r.stderr.strip()[-300:])
line = next(i + 1 for i, text in enumerate(open(os.path.join(HERE, "seed_kernels.py")))
            if "out[i] = a[i + k]" in text)
check("boundscheck record (line, index, thread) read, the launch not failed",
      "RECORD_OK" in r.stdout and f"line {line} " in r.stdout and "NO ERROR" in r.stdout)

with open(os.path.join(out_dir, "run_ptx.json"), "w") as f:
    json.dump(results, f, indent=2)
failed = [k for k, ok in results["checks"].items() if not ok]
print(f"{len(results['checks']) - len(failed)} passed, {len(failed)} failed")
sys.exit(1 if failed else 0)
