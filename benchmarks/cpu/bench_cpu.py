"""kjit @jit against Numba @njit on the CPU, same functions, same run.

    PYTHONPATH=python_bindings /usr/bin/python3 benchmarks/cpu/bench_cpu.py [--out DIR]

Rows: import time, first-call (compile) time, call overhead of an int -> int
function, the run time of loops over 10M float64 (serial and prange),
@vectorize ufuncs over 10M float64 (cpu and parallel targets), and array
expressions over 10M float64 (serial and parallel=True; each call makes a
new result array, and one row keeps every result so that each call writes
memory never touched before).
Each kernel's result is checked against NumPy in float64 before it is
timed. Times are medians of repeated runs; the ratio column is kjit / Numba
(below 1 means kjit is faster). This is a benchmark: it asserts nothing
about speed.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

KERNELS = '''
import math

import numpy as np

def sum_squares(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * a[i]
    return s

def sum_squares_par(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i] * a[i]
    return s

def saxpy(a, x, y, out):
    for i in range(x.shape[0]):
        out[i] = a * x[i] + y[i]

def inc(x):
    return x + 1

def pairwise(x, y, out):
    n = x.shape[0]
    for i in range(n):
        acc = 0.0
        for j in range(n):
            d = x[i] - y[j]
            acc += d * d
        out[i] = acc

def vadd(a, b):
    return a + b

def damped(v):
    return math.sin(v) * math.exp(-v)

def hypot_expr(x, y):
    return np.sqrt(x * x + y * y)

def axpb_expr(a, b, c):
    return a * b + c

def masked_sum(x):
    return x[x > 0.5].sum()
'''


def load(kind):
    """The kernels compiled by `kind` ('kjit' or 'numba')."""
    ns = {}
    if kind == "kjit":
        import kjit as lib
        ns["prange"] = lib.prange
        jit = lib.njit
        par = lambda f: lib.njit(parallel=True)(f)  # noqa: E731
    else:
        import numba as lib
        ns["prange"] = lib.prange
        jit = lib.njit
        par = lambda f: lib.njit(parallel=True)(f)  # noqa: E731
    path = os.path.join(HERE, f"_kernels_{kind}.py")
    with open(path, "w") as f:
        f.write(KERNELS)
    code = compile(KERNELS, path, "exec")
    exec(code, ns)
    out = {}
    for name in ("sum_squares", "saxpy", "inc", "pairwise"):
        fn = ns[name]
        fn.__module__ = "__main__"
        out[name] = jit(fn)
    out["sum_squares_par"] = par(ns["sum_squares_par"])
    for name in ("hypot_expr", "axpb_expr", "masked_sum"):
        out[name] = jit(ns[name])
        out[name + "_par"] = par(ns[name])
    out["vadd"] = lib.vectorize(["float64(float64, float64)"])(ns["vadd"])
    out["damped"] = lib.vectorize(["float64(float64)"])(ns["damped"])
    out["damped_par"] = lib.vectorize(["float64(float64)"], target="parallel")(ns["damped"])
    return out


def median_time(fn, repeat=7, number=1):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t) / number)
    return statistics.median(times)


def import_time(module):
    # `from M import njit`: for kjit that loads the compiler too (a bare
    # `import kjit` defers it to the first use).
    code = f"import time; t=time.perf_counter(); from {module} import njit; print(time.perf_counter()-t)"
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python_bindings"))
    vals = []
    for _ in range(3):
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
        vals.append(float(r.stdout.strip()))
    return statistics.median(vals)


def measure(kind):
    k = load(kind)
    rng = np.random.default_rng(1)
    a = rng.random(10_000_000)
    x, y = rng.random(10_000_000), rng.random(10_000_000)
    out = np.empty_like(x)
    px, py, pout = rng.random(3000), rng.random(3000), np.empty(3000)
    res = {}
    # First call: compile + run (a small input, so that the call is compile time).
    t = time.perf_counter()
    k["sum_squares"](a[:10])
    res["first call (compile) of sum_squares"] = time.perf_counter() - t
    # Correctness before timing.
    assert abs(k["sum_squares"](a) - float(np.dot(a, a))) < 1e-6 * float(np.dot(a, a))
    assert abs(k["sum_squares_par"](a) - float(np.dot(a, a))) < 1e-6 * float(np.dot(a, a))
    k["saxpy"](2.0, x, y, out)
    np.testing.assert_allclose(out, 2.0 * x + y)
    k["pairwise"](px, py, pout)
    np.testing.assert_allclose(pout, ((px[:, None] - py[None, :]) ** 2).sum(axis=1), rtol=1e-10)
    assert k["inc"](41) == 42
    np.testing.assert_allclose(k["vadd"](x, y), x + y)
    np.testing.assert_allclose(k["damped"](x), np.sin(x) * np.exp(-x), rtol=1e-13)
    np.testing.assert_allclose(k["damped_par"](x), np.sin(x) * np.exp(-x), rtol=1e-13)
    np.testing.assert_allclose(k["hypot_expr"](x, y), np.sqrt(x * x + y * y))
    np.testing.assert_allclose(k["hypot_expr_par"](x, y), np.sqrt(x * x + y * y))
    np.testing.assert_allclose(k["axpb_expr"](x, y, a), x * y + a)
    np.testing.assert_allclose(k["masked_sum"](x), x[x > 0.5].sum())
    res["call overhead, int -> int"] = median_time(lambda: k["inc"](1), repeat=7, number=200_000)
    # Memory-bound rows vary run to run on a shared machine: more repeats.
    res["sum of squares, 10M float64"] = median_time(lambda: k["sum_squares"](a), repeat=15)
    res["sum of squares, prange"] = median_time(lambda: k["sum_squares_par"](a), repeat=15)
    res["saxpy, 10M float64"] = median_time(lambda: k["saxpy"](2.0, x, y, out), repeat=15)
    res["pairwise distances, 3000^2"] = median_time(lambda: k["pairwise"](px, py, pout), repeat=5)
    res["@vectorize a + b, 10M float64"] = median_time(lambda: k["vadd"](x, y, out=out), repeat=15)
    res["@vectorize sin*exp, 10M float64"] = median_time(lambda: k["damped"](x, out=out), repeat=7)
    res["the same, target='parallel'"] = median_time(lambda: k["damped_par"](x, out=out), repeat=7)
    # Array expressions (one fused loop each; a new result array per call).
    res["np.sqrt(x*x + y*y), 10M float64"] = median_time(lambda: k["hypot_expr"](x, y), repeat=9)
    res["the same, parallel=True"] = median_time(lambda: k["hypot_expr_par"](x, y), repeat=9)
    kept = []  # every result kept: each call's result in memory never touched before
    res["the same, every result kept"] = median_time(lambda: kept.append(k["hypot_expr"](x, y)),
                                                     repeat=5)
    del kept
    res["a*b + c, 10M float64"] = median_time(lambda: k["axpb_expr"](x, y, a), repeat=9)
    res["the same, parallel=True "] = median_time(lambda: k["axpb_expr_par"](x, y, a), repeat=9)
    res["x[x > 0.5].sum(), 10M float64"] = median_time(lambda: k["masked_sum"](x), repeat=9)
    return res


def fmt(v):
    if v < 1e-6:
        return f"{v * 1e9:.0f} ns"
    if v < 1e-3:
        return f"{v * 1e6:.1f} us"
    if v < 1:
        return f"{v * 1e3:.2f} ms"
    return f"{v:.2f} s"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.environ.get("OUT"))
    args = ap.parse_args()
    sys.path.insert(0, os.path.join(ROOT, "python_bindings"))
    rows = {"from ... import njit": {"kjit": import_time("kjit"), "numba": import_time("numba")}}
    kj = measure("kjit")
    nb = measure("numba")
    for key in kj:
        rows[key] = {"kjit": kj[key], "numba": nb[key]}
    print(f"{'row':42s} {'kjit':>12s} {'numba':>12s} {'kjit/numba':>11s}")
    for key, r in rows.items():
        print(f"{key:42s} {fmt(r['kjit']):>12s} {fmt(r['numba']):>12s} {r['kjit'] / r['numba']:>10.2f}x")
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "bench_cpu.json"), "w") as f:
            json.dump(rows, f, indent=2)


if __name__ == "__main__":
    main()
