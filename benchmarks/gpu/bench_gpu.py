"""kjit against numba-cuda, CuPy and CUDA C++ (nvcc -O3 -arch=sm_90) on the
figures the project tracks (docs/benchmark_history.md), in one run on one GPU; prints the table
with ratios last and writes bench_gpu.json to OUT_DIR.

    python3 benchmarks/gpu/bench_gpu.py [OUT_DIR]

Kernels are checked against NumPy before they are timed. Kernel times are
CUDA-event medians after warm-up, each launch queued behind another so that
the GPU is busy and the window holds the kernel, not the host's launch (one
SAXPY row also times it from an idle GPU); launch costs are host wall time per launch
over 20,000 launches (median of 5 rounds); import and first-call figures are
measured in fresh processes (medians of 5, numba's of 3).
"""
import json
import math
import os
import subprocess
import sys
import textwrap
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("OUT", ".")
sys.path.insert(0, os.path.join(ROOT, "python_bindings"))
np.row_stack = getattr(np, "row_stack", np.vstack)  # numba-cuda under NumPy 2.5

from kjit import cuda, float32, int32  # noqa: E402

rows = {}
rng = np.random.default_rng(0)
N = 1 << 24


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def fresh(code, **extra_env):
    """Seconds printed by `code` run in a new Python."""
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python_bindings"), **extra_env)
    path = os.path.join(OUT, "_fresh.py")
    with open(path, "w") as f:
        f.write(textwrap.dedent(code))
    r = subprocess.run([sys.executable, path], capture_output=True, text=True, env=env, timeout=300)
    if r.returncode != 0:
        print(r.stderr[-2000:])
        return None
    return [float(v) for v in r.stdout.split()]


def events_time(launch, event, elapsed, sync, reps=20, idle=False):
    """Median CUDA-event time of one launch, in us.

    Each timed launch is queued behind a lead launch of the same work, so
    the GPU is busy while the host records the start event and queues the
    timed launch: the window holds the GPU's time for the work, and not the
    host's time to launch it (launches are timed in their own rows). The
    C++ side (cuda/bench.cu) times the same way. With idle=True the GPU is
    idle when the start event is recorded, and the window also holds the
    launch's latency (host call to the kernel's start).
    """
    for _ in range(3):
        launch()
    sync()
    ts = []
    for _ in range(reps):
        a, b = event(), event()
        if not idle:
            launch()
        a.record()
        launch()
        b.record()
        b.synchronize()
        ts.append(elapsed(a, b) * 1e3)
    return median(ts)


def launch_time(stmt, names, sync, n=20000, rounds=5):
    """Host wall time per launch, in us: `stmt` (a launch, as a program
    writes it, e.g. "k[1, 1](a, b, c)") in a loop of n, median of `rounds`.
    The names it uses are locals of the loop, as in a user's function."""
    args = "".join(f", {k}={k}" for k in names)
    src = f"def _loop(_n{args}):\n    for _ in range(_n):\n        {stmt}\n"
    ns = dict(names)
    exec(compile(src, "<launch loop>", "exec"), ns)
    loop = ns["_loop"]
    loop(100)
    sync()
    per = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        loop(n)
        t1 = time.perf_counter()
        sync()
        per.append((t1 - t0) / n * 1e6)
    return median(per)


def row(name, **vals):
    rows.setdefault(name, {}).update({k: v for k, v in vals.items() if v is not None})


# ---- CUDA C++ ----------------------------------------------------------------------------
exe = os.path.join(OUT, "bench_cu")
subprocess.run(["nvcc", "-O3", "-arch=sm_90", os.path.join(HERE, "cuda", "bench.cu"), "-o", exe], check=True)
# Three runs of the C++ program, a median for each figure: its launch figure
# alone moves by 15-25% from one process to the next on one machine.
_cpp_runs = [json.loads(subprocess.run([exe], capture_output=True, text=True, check=True).stdout) for _ in range(3)]
cpp = {k: (median([r[k] for r in _cpp_runs]) if isinstance(_cpp_runs[0][k], float) else _cpp_runs[0][k])
       for k in _cpp_runs[0]}
row("import + context (s)", cpp=cpp["context_s"])
try:
    import ctypes
    lib_path = os.path.join(OUT, "liblaunch.so")
    subprocess.run(["nvcc", "-O3", "-arch=sm_90", "-shared", "-Xcompiler", "-fPIC",
                    os.path.join(HERE, "cuda", "launch_lib.cu"), "-o", lib_path], check=True)
    cpplib = ctypes.CDLL(lib_path)
    cpplib.cpp_launch3_us.restype = cpplib.cpp_launch0_us.restype = ctypes.c_double
except (OSError, subprocess.CalledProcessError) as e:
    print("the C++ launch library failed:", e)
    cpplib = None
row("launch, 3 device arrays (us)", cpp=cpp["launch3_us"])
row("launch, no arguments (us)", cpp=cpp["launch0_us"])
row("SAXPY 16M f32 (us)", cpp=cpp["saxpy_us"])
row("  the same, idle GPU: launch latency inside (us)", cpp=cpp["saxpy_idle_us"])
row("tiled matmul 1024x2048x512 (us)", cpp=cpp["matmul_us"])
row("histogram 16M, atomics (us)", cpp=cpp["histogram_us"])
row("64 sin*exp, float32 (us)", cpp=cpp["sinexp_f32_us"])
row("device-to-device copy 64 MB (us)", cpp=cpp["d2d_64MB_us"])

# ---- import, first call, eager compile: fresh processes -----------------------------------
KJIT_FIRST = """
    import time
    t0 = time.perf_counter()
    import numpy as np
    tn = time.perf_counter()
    from kjit import cuda
    cuda.get_current_device()
    t1 = time.perf_counter()
    @cuda.jit
    def saxpy(a, x, y, out):
        i = cuda.grid(1)
        if i < x.shape[0]:
            out[i] = a * x[i] + y[i]
    x = cuda.to_device(np.ones(1 << 20, np.float32))
    t2 = time.perf_counter()
    saxpy[4096, 256](np.float32(2.0), x, x, x)
    cuda.synchronize()
    t3 = time.perf_counter()
    @cuda.jit("void(float32, float32[::1], float32[::1], float32[::1])")
    def saxpy2(a, x, y, out):
        i = cuda.grid(1)
        if i < x.shape[0]:
            out[i] = a * x[i] + y[i]
    t4 = time.perf_counter()
    print(t1 - t0, t3 - t2, t4 - t3, tn - t0)
"""
NUMBA_FIRST = KJIT_FIRST.replace("from kjit import cuda", "np.row_stack = np.vstack\n    from numba import cuda")
# The same program importing kjit before numpy, as `from numba import cuda`
# first and `import numpy as np` after would.
KJIT_FIRST_KJIT_ORDER = (KJIT_FIRST.replace("    import numpy as np\n", "")
                         .replace("    from kjit import cuda\n", "    from kjit import cuda\n    import numpy as np\n"))


def fresh_runs(code, runs, **extra_env):
    """The figures of `runs` fresh processes, after one more whose figures
    are dropped (its imports read files from disk the first time)."""
    if fresh(code, **extra_env) is None:
        return None
    got = [fresh(code, **extra_env) for _ in range(runs)]
    return None if any(g is None for g in got) else got


def per_run(runs, f):
    """The median over the processes of a figure computed in each."""
    return median([f(r) for r in runs]) if runs else None


# Each process prints: import + context, first call, eager compile, numpy's import.
k = fresh_runs(KJIT_FIRST, 5)
k2 = fresh_runs(KJIT_FIRST_KJIT_ORDER, 5)
nb = fresh_runs(NUMBA_FIRST, 3)
if k:
    row("import + context (s)", kjit=per_run(k, lambda r: r[0]), numba=per_run(nb, lambda r: r[0]))
    row("first call of SAXPY (s)", kjit=per_run(k, lambda r: r[1]), numba=per_run(nb, lambda r: r[1]))
    row("import + first SAXPY call (s)", kjit=per_run(k, lambda r: r[0] + r[1]),
        numba=per_run(nb, lambda r: r[0] + r[1]))
    row("  the same less numpy's import (s)", kjit=per_run(k, lambda r: r[0] + r[1] - r[3]),
        numba=per_run(nb, lambda r: r[0] + r[1] - r[3]))
    row("  numpy's import alone (s)", kjit=per_run(k, lambda r: r[3]), numba=per_run(nb, lambda r: r[3]))
    row("eager compile of SAXPY (s)", kjit=per_run(k, lambda r: r[2]), numba=per_run(nb, lambda r: r[2]))
if k2:
    row("import kjit.cuda, then numpy, + first SAXPY call (s)", kjit=per_run(k2, lambda r: r[0] + r[1]))

# ---- kjit's launch path alone: the fake driver of the tests, which runs nothing -----------------
HOST_PATH = """
    import time
    import numpy as np
    from kjit import cuda
    @cuda.jit
    def empty3(a, b, c):
        pass
    a, b, c = (cuda.to_device(np.zeros(16, np.float32)) for _ in range(3))
    per = []
    for _ in range(9):
        t0 = time.perf_counter()
        for _ in range(20000):
            empty3[1, 1](a, b, c)
        per.append((time.perf_counter() - t0) / 20000 * 1e6)
    print(sorted(per)[4])
"""
try:
    fake = os.path.join(OUT, "libfakecuda.so")
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", fake,
                    os.path.join(ROOT, "tests", "python", "fake_cuda", "fake_cuda.c")], check=True)
    h = fresh(HOST_PATH, KJIT_CUDA_DRIVER=fake, KJIT_DEVICE="cuda")
    if h:
        row("kjit's launch path, driver call excluded (us)", kjit=h[0])
except (OSError, subprocess.CalledProcessError) as e:
    print("the fake driver failed:", e)

# ---- kjit and numba kernels -------------------------------------------------------------------
try:
    from numba import cuda as ncuda
except Exception as e:  # noqa: BLE001
    print("numba-cuda unavailable:", e)
    ncuda = None
try:
    import cupy as cp
except Exception as e:  # noqa: BLE001
    print("cupy unavailable:", e)
    cp = None

# The kernels, one source for kjit and numba: the seed kernels
# (tools/gpu/seed_kernels.py: saxpy, fast_matmul, histogram) and those below,
# written out as a module per library (kjit reads a kernel's source from its
# file).
with open(os.path.join(ROOT, "tools", "gpu", "seed_kernels.py")) as _f:
    # (without checked_copy: numba-cuda refuses boundscheck=True)
    SEEDS = _f.read().split("@cuda.jit(boundscheck=True)")[0].replace("from kjit import", "from LIB import")
KERNELS = SEEDS + """
from LIB import vectorize  # noqa: E402


@cuda.jit
def empty3(a, b, c):
    pass


@cuda.jit
def empty0():
    pass


@cuda.jit
def sinexp_f32(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        v = x[i]
        acc = float32(0)
        for k in range(64):
            fk = float32(k)
            acc += math.sin(v * fk) * math.exp(-v * fk * float32(0.01))
        out[i] = acc


@vectorize(["float32(float32, float32)"], target="cuda")
def vadd(a, b):
    return a + b


@cuda.jit
def sinexp_promoted(x, out):  # v * k: float32 * int64 is float64 (NumPy's rules)
    i = cuda.grid(1)
    if i < x.shape[0]:
        v = x[i]
        acc = 0.0
        for k in range(64):
            acc += math.sin(v * k) * math.exp(-v * k * 0.01)
        out[i] = acc
"""


def build(libname):
    import importlib
    sys.path.insert(0, OUT)
    with open(os.path.join(OUT, f"_k_{libname}.py"), "w") as f:
        f.write(KERNELS.replace("LIB", libname))
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = importlib.import_module(f"_k_{libname}")
    return {n: getattr(m, n) for n in ("empty3", "empty0", "saxpy", "fast_matmul", "histogram", "sinexp_f32",
                                       "sinexp_promoted", "vadd")}


# Kernel sources for the kjit/numba builds must be real source (kjit reads
# it): define them in a module file.
x_h = (rng.random(N, dtype=np.float32) * 10).astype(np.float32)
y_h = rng.random(N, dtype=np.float32)
M, K, Nn = 1024, 2048, 512
A_h = rng.random((M, K), dtype=np.float32)
B_h = rng.random((K, Nn), dtype=np.float32)
ref_saxpy = 2.0 * x_h.astype(np.float64) + y_h
ref_hist = np.histogram(x_h, bins=16, range=(0, 10))[0]
sx = x_h[:4096].astype(np.float64)
ref_sinexp = sum(np.sin(sx * k) * np.exp(-sx * k * 0.01) for k in range(64))


def bench_lib(name, lib):
    ks = build("kjit" if lib is cuda else "numba")
    to_dev, dev_arr = lib.to_device, lib.device_array
    ev = lib.event
    elapsed = lib.event_elapsed_time
    sync = lib.synchronize
    x, y, out = to_dev(x_h), to_dev(y_h), dev_arr(N, np.float32)
    grid = (N + 255) // 256
    ks["saxpy"][grid, 256](np.float32(2.0), x, y, out)
    ok = np.allclose(out.copy_to_host(), ref_saxpy, rtol=1e-6)
    t = events_time(lambda: ks["saxpy"][grid, 256](np.float32(2.0), x, y, out), ev, elapsed, sync)
    row("SAXPY 16M f32 (us)", **{name: t if ok else None})
    t = events_time(lambda: ks["saxpy"][grid, 256](np.float32(2.0), x, y, out), ev, elapsed, sync, idle=True)
    row("  the same, idle GPU: launch latency inside (us)", **{name: t if ok else None})
    A, B, C = to_dev(A_h), to_dev(B_h), dev_arr((M, Nn), np.float32)
    g = (K // 16, M // 16)
    ks["fast_matmul"][g, (16, 16)](A, B, C)
    ok = np.allclose(C.copy_to_host(), A_h.astype(np.float64) @ B_h, rtol=1e-3, atol=1e-2)
    t = events_time(lambda: ks["fast_matmul"][g, (16, 16)](A, B, C), ev, elapsed, sync)
    row("tiled matmul 1024x2048x512 (us)", **{name: t if ok else None})
    hist = to_dev(np.zeros(16, np.int32))
    ks["histogram"][1024, 256](x, np.float32(0), np.float32(10), hist)
    ok = np.abs(hist.copy_to_host() - ref_hist).max() <= 1
    t = events_time(lambda: ks["histogram"][1024, 256](x, np.float32(0), np.float32(10), hist), ev, elapsed, sync)
    row("histogram 16M, atomics (us)", **{name: t if ok else None})
    ks["sinexp_f32"][grid, 256](x, out)
    ok = np.allclose(out.copy_to_host()[:4096], ref_sinexp, rtol=1e-3, atol=1e-3)
    t = events_time(lambda: ks["sinexp_f32"][grid, 256](x, out), ev, elapsed, sync, reps=10)
    row("64 sin*exp, float32 (us)", **{name: t if ok else None})
    ks["sinexp_promoted"][grid, 256](x, out)
    ok = np.allclose(out.copy_to_host()[:4096], ref_sinexp, rtol=1e-3, atol=1e-3)
    t = events_time(lambda: ks["sinexp_promoted"][grid, 256](x, out), ev, elapsed, sync, reps=5)
    row("64 sin*exp, as NumPy types it (us)", **{name: t if ok else None})
    vadd = ks["vadd"]
    got = vadd(x, y)
    ok = np.allclose(got.copy_to_host(), x_h + y_h)
    t = events_time(lambda: vadd(x, y, out=out), ev, elapsed, sync)
    row("@vectorize add 16M f32, device arrays, out= (us)", **{name: t if ok else None})
    t = events_time(lambda: vadd(x, y), ev, elapsed, sync)
    row("@vectorize add 16M f32, device arrays (us)", **{name: t if ok else None})
    if name == "kjit":
        # The bytes the add moves (two 64 MB reads, one 64 MB write) as one
        # device-to-device copy of 96 MB (96 MB read, 96 MB written).
        src, dst = dev_arr(3 * N // 2, np.float32), dev_arr(3 * N // 2, np.float32)
        t = events_time(lambda: dst.copy_to_device(src), ev, elapsed, sync)
        row("  a copy of the same bytes (96 MB D2D) (us)", kjit=t)
        del src, dst
    a, b, c = dev_arr(16, np.float32), dev_arr(16, np.float32), dev_arr(16, np.float32)
    e3, e0 = ks["empty3"], ks["empty0"]
    l3 = dict(e3=e3, a=a, b=b, c=c)
    row("launch, 3 device arrays (us)", **{name: launch_time("e3[1, 1](a, b, c)", l3, sync)})
    row("launch, no arguments (us)", **{name: launch_time("e0[1, 1]()", dict(e0=e0), sync)})
    if name == "kjit" and cpplib is not None:
        # The same launches as CUDA C++ (runtime API, <<<>>>) in this process,
        # in rounds alternating with kjit's, so that both see the same
        # machine state; medians of 9 rounds of 20,000.
        k3, c3, k0, c0 = [], [], [], []
        for _ in range(9):
            k3.append(launch_time("e3[1, 1](a, b, c)", l3, sync, rounds=1))
            c3.append(cpplib.cpp_launch3_us(20000))
            k0.append(launch_time("e0[1, 1]()", dict(e0=e0), sync, rounds=1))
            c0.append(cpplib.cpp_launch0_us(20000))
        if cpplib.cpp_last_error() == 0:
            row("launch, 3 device arrays, alternating rounds (us)", kjit=median(k3), cpp=median(c3))
            row("launch, no arguments, alternating rounds (us)", kjit=median(k0), cpp=median(c0))
    small = [np.ones(1 << 16, np.float32) for _ in range(3)]
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        row("launch, 3 NumPy arrays of 256 KB (us)", **{name: launch_time("e3[1, 1](p, q, r)", dict(e3=e3, p=small[0], q=small[1], r=small[2]),
                                                                   sync, n=2000)})
    red = lib.reduce(lambda p, q: p + q)
    r = red(x)
    ok = abs(float(r) - x_h.astype(np.float64).sum()) < 1e-4 * N
    ts = []
    for _ in range(23):
        t0 = time.perf_counter()
        red(x)
        ts.append((time.perf_counter() - t0) * 1e6)
    row("cuda.reduce sum 16M f32, to host (us)", **{name: median(ts[3:]) if ok else None})
    if name == "kjit":
        big = dev_arr(N, np.float32)
        t = events_time(lambda: big.copy_to_device(x), ev, elapsed, sync)
        row("device-to-device copy 64 MB (us)", kjit=t)


# The kernels are defined in this file, so kjit can read their source.
# BENCH_NUMBA_FIRST=1 runs numba-cuda's rows before kjit's, to see what the
# order does to a pair of figures.
def bench_numba():
    if ncuda is not None:
        try:
            bench_lib("numba", ncuda)
        except Exception as e:  # noqa: BLE001
            print("numba rows failed:", type(e).__name__, str(e)[:300])


if os.environ.get("BENCH_NUMBA_FIRST") == "1":
    bench_numba()
bench_lib("kjit", cuda)
if os.environ.get("BENCH_NUMBA_FIRST") != "1":
    bench_numba()
if cp is not None:
    xc = cp.asarray(x_h)
    float(cp.sum(xc))
    ts = []
    for _ in range(23):
        t0 = time.perf_counter()
        float(cp.sum(xc))
        ts.append((time.perf_counter() - t0) * 1e6)
    row("cuda.reduce sum 16M f32, to host (us)", cupy=median(ts[3:]))
    ker = cp.RawKernel(r'extern "C" __global__ void empty3(float*a, float*b, float*c) {}', "empty3")
    a3 = [cp.zeros(16, cp.float32) for _ in range(3)]
    row("launch, 3 device arrays (us)", cupy=launch_time("ker((1,), (1,), (a, b, c))",
                                                           dict(ker=ker, a=a3[0], b=a3[1], c=a3[2]),
                                                           cp.cuda.Device().synchronize))

# ---- the table -----------------------------------------------------------------------------------
with open(os.path.join(OUT, "bench_gpu.json"), "w") as f:
    json.dump(rows, f, indent=2)
print(f"\n{'figure':44s} {'kjit':>10s} {'numba':>10s} {'cupy':>10s} {'C++':>10s}  kjit/C++  kjit/other")
for name, r in rows.items():
    def fmt(k):
        v = r.get(k)
        return f"{v:10.4g}" if v is not None else f"{'-':>10s}"
    ref = r.get("cpp")
    other = r.get("cupy") if "reduce" in name else r.get("numba")
    ratio = f"{r['kjit'] / ref:8.3f}" if ref and "kjit" in r else f"{'':8s}"
    ratio2 = f"{r['kjit'] / other:8.3f}" if other and "kjit" in r else ""
    print(f"{name:44s} {fmt('kjit')} {fmt('numba')} {fmt('cupy')} {fmt('cpp')}  {ratio}  {ratio2}")
