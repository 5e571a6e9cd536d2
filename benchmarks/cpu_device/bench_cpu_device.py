"""The CPU device's speed figures (issue 6), in one run:

  1. a barrier-free kernel (SAXPY, and a compute-heavier polynomial) on the
     CPU device against the same computation as a @jit(parallel=True) loop:
     the bar is 1.5x;
  2. the tiled (shared-memory) matmul of the seed kernels on the CPU device
     against Numba's simulator (NUMBA_ENABLE_CUDASIM=1) on the same matrices:
     the bar is 100x faster; kjit's own simulator is shown beside it.

    /usr/bin/python3 benchmarks/cpu_device/bench_cpu_device.py [--json out.json]

Each figure is the best of several runs after a warm-up (compilation is not
timed). The simulators run in their own processes (the simulator is chosen at
import). KJIT_NUM_THREADS sets the CPU device's and prange's threads alike.
"""
import json
import os
import subprocess
import sys
import textwrap
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
os.environ["KJIT_DEVICE"] = "cpu"
sys.path.insert(0, os.path.join(ROOT, "python_bindings"))
sys.path.insert(0, os.path.join(ROOT, "tools", "gpu"))

from kjit import cuda, njit, prange  # noqa: E402
import seed_kernels as S  # noqa: E402


def best(fn, repeat=7):
    fn()
    ts = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return min(ts)


@njit(parallel=True)
def saxpy_prange(a, x, y, out):
    for i in prange(x.shape[0]):
        out[i] = a * x[i] + y[i]


@cuda.jit
def poly_kernel(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        v = x[i]
        acc = v
        for k in range(32):
            acc = acc * v + 0.5
        out[i] = acc


@njit(parallel=True)
def poly_prange(x, out):
    for i in prange(x.shape[0]):
        v = x[i]
        acc = v
        for k in range(32):
            acc = acc * v + 0.5
        out[i] = acc


SIM_MATMUL = textwrap.dedent("""
    import os, sys, time
    import numpy as np
    n = int(sys.argv[1])
    use_kjit = sys.argv[2] == "kjit"
    sys.path.insert(0, sys.argv[3])
    sys.path.insert(0, sys.argv[4])
    if use_kjit:
        import seed_kernels as S
    else:
        # The same source, with Numba's cuda: the seed kernels' text, imported
        # from numba instead of kjit (Numba's simulator refuses boundscheck=).
        import types
        path = os.path.join(sys.argv[4], "seed_kernels.py")
        src = open(path).read().replace("from kjit import cuda, float32, int32",
                                        "from numba import cuda, float32, int32")
        src = src.replace("@cuda.jit(boundscheck=True)", "@cuda.jit")
        S = types.ModuleType("seed_kernels_numba")
        exec(compile(src, path, "exec"), S.__dict__)
    kernel, TPB = S.fast_matmul, S.TPB
    rng = np.random.default_rng(0)
    a = rng.random((n, n)).astype(np.float32)
    b = rng.random((n, n)).astype(np.float32)
    c = np.zeros((n, n), np.float32)
    bpg = (n + TPB - 1) // TPB
    kernel[(bpg, bpg), (TPB, TPB)](a, b, c)  # compiles (kjit checks types first)
    t = time.perf_counter()
    kernel[(bpg, bpg), (TPB, TPB)](a, b, c)
    dt = time.perf_counter() - t
    assert np.allclose(c, a @ b, rtol=1e-4), "wrong result"
    print("SECONDS", dt)
""")


def simulator_matmul(n, which):
    import tempfile
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1", KJIT_ENABLE_CUDASIM="1")
    env.pop("KJIT_DEVICE", None)
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(SIM_MATMUL)
    try:
        r = subprocess.run([sys.executable, f.name, str(n), which, os.path.join(ROOT, "python_bindings"),
                            os.path.join(ROOT, "tools", "gpu")], capture_output=True, text=True, env=env,
                           timeout=1800)
    finally:
        os.unlink(f.name)
    for line in r.stdout.splitlines():
        if line.startswith("SECONDS "):
            return float(line.split()[1])
    raise RuntimeError(f"{which} simulator matmul failed:\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}")


def main():
    rows = []
    rng = np.random.default_rng(0)

    n = 1 << 24
    x = rng.random(n).astype(np.float32)
    y = rng.random(n).astype(np.float32)
    out = np.zeros_like(x)
    a = np.float32(2.0)
    tpb = 256
    k = S.saxpy[(n + tpb - 1) // tpb, tpb]
    t_dev = best(lambda: k(a, x, y, out))
    assert np.allclose(out, a * x + y)
    t_jit = best(lambda: saxpy_prange(a, x, y, out))
    rows.append(("SAXPY 16M float32: CPU device / @jit(parallel=True)", t_dev, t_jit, "<= 1.5"))

    xp = rng.random(1 << 22)
    outp = np.zeros_like(xp)
    kp = poly_kernel[((1 << 22) + tpb - 1) // tpb, tpb]
    t_dev = best(lambda: kp(xp, outp))
    want = outp.copy()
    t_jit = best(lambda: poly_prange(xp, outp))
    assert np.allclose(want, outp)
    rows.append(("polynomial (32 fma) 4M float64: CPU device / @jit(parallel=True)", t_dev, t_jit, "<= 1.5"))

    m = 128  # Numba's simulator needs minutes beyond this
    am = rng.random((m, m)).astype(np.float32)
    bm = rng.random((m, m)).astype(np.float32)
    cm = np.zeros((m, m), np.float32)
    bpg = (m + S.TPB - 1) // S.TPB
    km = S.fast_matmul[(bpg, bpg), (S.TPB, S.TPB)]
    t_dev = best(lambda: km(am, bm, cm))
    assert np.allclose(cm, am @ bm, rtol=1e-4)
    t_numba_sim = simulator_matmul(m, "numba")
    t_kjit_sim = simulator_matmul(m, "kjit")
    rows.append((f"tiled matmul {m}x{m}: CPU device / Numba's simulator", t_dev, t_numba_sim, "<= 0.01"))
    rows.append((f"tiled matmul {m}x{m}: kjit's simulator / Numba's simulator", t_kjit_sim, t_numba_sim, ""))

    big = 512
    ab = rng.random((big, big)).astype(np.float32)
    bb = rng.random((big, big)).astype(np.float32)
    cb = np.zeros((big, big), np.float32)
    bpg = (big + S.TPB - 1) // S.TPB
    kb = S.fast_matmul[(bpg, bpg), (S.TPB, S.TPB)]
    t_big = best(lambda: kb(ab, bb, cb), repeat=3)
    assert np.allclose(cb, ab @ bb, rtol=1e-3)
    rows.append((f"tiled matmul {big}x{big} on the CPU device (fibers: 2 barriers x {bpg} tiles)", t_big, None, ""))

    print(f"threads: {os.environ.get('KJIT_NUM_THREADS', os.cpu_count())}")
    print(f"{'figure':<72} {'time':>11} {'against':>11} {'ratio':>8}  bar")
    table = []
    for name, t, ref, bar in rows:
        ratio = t / ref if ref else None
        print(f"{name:<72} {t * 1e3:>9.3f}ms {'' if ref is None else f'{ref * 1e3:9.3f}ms':>11} "
              f"{'' if ratio is None else f'{ratio:8.4f}':>8}  {bar}")
        table.append({"figure": name, "seconds": t, "against_seconds": ref, "ratio": ratio, "bar": bar})
    if "--json" in sys.argv:
        with open(sys.argv[sys.argv.index("--json") + 1], "w") as f:
            json.dump(table, f, indent=1)


if __name__ == "__main__":
    main()
