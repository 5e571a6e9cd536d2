"""Two kjit trees timed side by side in one run, rounds alternating, medians:
the figures a change must not make slower. Run by tools/gpu/compare.sh, which
builds each tree's binding first.

    python3 benchmarks/gpu/compare_trees.py BEFORE_DIR AFTER_DIR [--rounds N] [--out DIR] [--gpu 0|1]

Each round runs, for BEFORE then AFTER, fresh processes with the tree's
python_bindings on PYTHONPATH; the first round is dropped (its imports read
the files from disk). The measuring code is bench_gpu.py's (median, fresh,
launch_time, its KJIT_FIRST program), the same for both trees. Rows:
- GPU (--gpu 1): import + context + first SAXPY call, eager compile of SAXPY
  (bench_gpu.py's program); host wall time per launch with 0, 3 and 16
  device arrays, 20,000 launches a round, median of 5 rounds;
- CPU, always: import + first call of an @njit function; the call overhead
  of a trivial @njit function, 1,000,000 calls a round, median of 3 rounds.
Prints figure, before, after, after/before; writes compare.json to --out.
"""
import argparse
import ast
import json
import os
import subprocess
import sys
import textwrap
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def bench_gpu_helpers(**env):
    """bench_gpu.py's helpers and its first-call program, without running its
    benchmark (that runs at import): its top-level functions and KJIT_FIRST,
    in a namespace whose ROOT and OUT are given here."""
    with open(os.path.join(HERE, "bench_gpu.py")) as f:
        tree = ast.parse(f.read())
    keep = [n for n in tree.body
            if isinstance(n, ast.FunctionDef) and n.name in ("median", "fresh", "launch_time")
            or isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "KJIT_FIRST"]
    ns = dict(os=os, sys=sys, subprocess=subprocess, textwrap=textwrap, time=time, **env)
    exec(compile(ast.Module(keep, type_ignores=[]), "bench_gpu.py", "exec"), ns)
    return ns


NJIT_FIRST = """
    import time
    t0 = time.perf_counter()
    from kjit import njit
    @njit
    def inc(x):
        return x + 1
    inc(1)
    print(time.perf_counter() - t0)
"""

ARGS16 = ", ".join(f"a{i}" for i in range(16))
CPU_LOOPS = ["@njit call overhead, int -> int (us)"]
GPU_LOOPS = ["launch, no arguments (us)", "launch, 3 device arrays (us)", "launch, 16 device arrays (us)"]
# Calls and launches in one process, printed in the order of the names above.
# The functions are in a file of their own, as kjit reads a function's source.
LOOPS = f"""
    import sys
    import numpy as np
    sys.path.append({HERE!r})
    from compare_trees import bench_gpu_helpers
    t = bench_gpu_helpers()["launch_time"]
    from kjit import njit
    @njit
    def inc(x):
        return x + 1
    inc(1)
    print(t("inc(1)", dict(inc=inc), lambda: None, n=1_000_000, rounds=3))
    if GPU:
        from kjit import cuda
        @cuda.jit
        def e0():
            pass
        @cuda.jit
        def e3(a, b, c):
            pass
        @cuda.jit
        def e16({ARGS16}):
            pass
        a = {{f"a{{i}}": cuda.device_array(16, np.float32) for i in range(16)}}
        print(t("e0[1, 1]()", dict(e0=e0), cuda.synchronize),
              t("e3[1, 1](a0, a1, a2)", dict(a, e3=e3), cuda.synchronize),
              t("e16[1, 1]({ARGS16})", dict(a, e16=e16), cuda.synchronize))
"""


def one_round(tree, out, gpu):
    """The figures of one round for one tree: {figure: value}."""
    h = bench_gpu_helpers(ROOT=tree, OUT=out)
    rows = {}
    r = h["fresh"](NJIT_FIRST)
    if r:
        rows["import + first @njit call (s)"] = r[0]
    r = h["fresh"](f"GPU = {bool(gpu)}\n" + textwrap.dedent(LOOPS))
    if r:
        rows.update(zip(CPU_LOOPS + GPU_LOOPS, r))
    if gpu:
        r = h["fresh"](h["KJIT_FIRST"])  # import + context, first call, eager compile, numpy's import
        if r:
            rows["import + first SAXPY call (s)"] = r[0] + r[1]
            rows["first call of SAXPY (s)"] = r[1]
            rows["eager compile of SAXPY (s)"] = r[2]
    return rows


def main():
    p = argparse.ArgumentParser()
    p.add_argument("before")
    p.add_argument("after")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--out", default=os.environ.get("OUT", "."))
    p.add_argument("--gpu", type=int, default=1)
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    trees = {"before": os.path.abspath(a.before), "after": os.path.abspath(a.after)}
    got = {k: [] for k in trees}
    for i in range(a.rounds + 1):  # round 0 warms the file cache and is dropped
        for k, tree in trees.items():
            r = one_round(tree, a.out, a.gpu)
            print(f"round {i} {k}: " + ", ".join(f"{n} {v:.4g}" for n, v in r.items()), flush=True)
            if i:
                got[k].append(r)
    median = bench_gpu_helpers()["median"]
    figures = list(dict.fromkeys(n for rs in got.values() for r in rs for n in r))
    table = {}
    for n in figures:
        vals = {k: [r[n] for r in rs if n in r] for k, rs in got.items()}
        table[n] = {k: (median(v) if v else None) for k, v in vals.items()}
        table[n]["rounds"] = vals
    with open(os.path.join(a.out, "compare.json"), "w") as f:
        json.dump(dict(trees=trees, rounds=a.rounds, gpu=bool(a.gpu), figures=table), f, indent=2)
    print(f"\n{'figure (median of ' + str(a.rounds) + ' rounds)':44s} {'before':>10s} {'after':>10s}  after/before")
    for n, t in table.items():
        b, af = t["before"], t["after"]
        ratio = f"{af / b:12.3f}" if b and af else ""
        fmt = lambda v: f"{v:10.4g}" if v is not None else f"{'-':>10s}"  # noqa: E731
        print(f"{n:44s} {fmt(b)} {fmt(af)}  {ratio}")


if __name__ == "__main__":
    main()
