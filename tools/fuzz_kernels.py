"""Random CUDA kernels through every back end kjit has without a GPU.

Each kernel is a random well-typed @cuda.jit function over arrays of
float32, float64 and int32 (thread indexing, guarded reads and writes,
arithmetic, math functions, min/max, conditional expressions, if/else,
short loops, shared memory with syncthreads, integer atomics). Every kernel

  - compiles to PTX with ``cuda.compile_ptx`` for one of the compute
    capabilities kjit supports (they take turns), and ``ptxas`` of the CUDA
    toolkit assembles that PTX for the same target (where the toolkit still
    knows it): an error there is invalid PTX;
  - runs on the CPU device (compiled) and in the simulator (the kernel run
    by Python), whose results must agree: integers exactly, floats within
    float32's precision where a float32 array is involved (the simulator
    computes in float64), else to 1e-12.

Any exception other than a located compile error of kjit (there should be
none: the generator writes only what kjit supports), invalid PTX or a
different result is printed with its kernel; the exit status is 1 then.

    PYTHONPATH=python_bindings KJIT_DEVICE=cpu /usr/bin/python3 tools/fuzz_kernels.py --kernels 2000 --seed 1
"""
import argparse
import math
import os
import random
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np

PTXAS = os.environ.get("PTXAS", "/usr/local/cuda/bin/ptxas")
# (compute capability, whether this toolkit's ptxas still assembles it)
CCS = [((5, 0), False), ((6, 0), False), ((7, 0), False), ((7, 5), True), ((8, 0), True), ((8, 6), True),
       ((8, 9), True), ((9, 0), True)]
N = 96  # elements; two blocks of 64 threads (the second one partly idle)
ARRAYS = ("a", "b", "c")  # float64, float32, int32 inputs
DTYPES = {"a": np.float64, "b": np.float32, "c": np.int32}


class Gen:
    def __init__(self, rng):
        self.rng = rng

    def index(self):
        r = self.rng
        return r.choice(("i", "i", f"(i + {r.randint(1, 9)}) % n", f"(n - 1 - i)", f"(i * {r.randint(2, 5)}) % n"))

    def fexpr(self, names, depth):
        """A float expression."""
        r = self.rng
        if depth <= 0 or r.random() < 0.3:
            return r.choice([f"a[{self.index()}]", f"b[{self.index()}]", "s", "x", f"{r.uniform(-3, 3):.3f}",
                             f"float(c[{self.index()}])", "float(i)"] + names)
        k = r.random()
        x, y = self.fexpr(names, depth - 1), self.fexpr(names, depth - 1)
        if k < 0.4:
            return f"({x} {r.choice(('+', '-', '*'))} {y})"
        if k < 0.5:
            return f"({x} / (abs({y}) + 1.0))"
        if k < 0.65:
            f = r.choice(("math.sin", "math.cos", "math.exp", "math.sqrt", "math.log1p", "math.tanh", "math.floor"))
            if f in ("math.exp",):
                return f"{f}(min({x}, 5.0))"
            if f in ("math.sqrt", "math.log1p"):
                return f"{f}(abs({x}))"
            return f"{f}({x})"
        if k < 0.75:
            return f"{r.choice(('min', 'max'))}({x}, {y})"
        if k < 0.9:
            return f"({x} if {self.cond(names, depth - 1)} else {y})"
        return f"(-{x})"

    def iexpr(self, depth):
        """An int expression (small values: no overflow)."""
        r = self.rng
        if depth <= 0 or r.random() < 0.4:
            return r.choice([f"c[{self.index()}]", "i", "t", str(r.randint(-9, 9))])
        x, y = self.iexpr(depth - 1), self.iexpr(depth - 1)
        return r.choice([f"({x} + {y})", f"({x} - {y})", f"({x} % 7)", f"({x} // 3)", f"min({x}, {y})",
                         f"max({x}, {y})", f"({x} & 15)", f"abs({x})"])

    def cond(self, names, depth):
        r = self.rng
        if r.random() < 0.6:
            return f"{self.fexpr(names, depth)} {r.choice(('<', '>', '<=', '>='))} {self.fexpr(names, 0)}"
        return f"{self.iexpr(depth)} {r.choice(('<', '>', '==', '!='))} {self.iexpr(0)}"

    def body(self, depth, names):
        r = self.rng
        lines = []
        for _ in range(r.randint(1, 4)):
            k = r.random()
            if k < 0.35:
                v = f"v{len(names)}"
                lines.append(f"{v} = {self.fexpr(names, 2)}")
                names = names + [v]
            elif k < 0.5 and depth > 0:
                lines.append(f"if {self.cond(names, 1)}:")
                lines += ["    " + ln for ln in self.body(depth - 1, names)]
                lines.append("else:")
                lines += ["    " + ln for ln in self.body(depth - 1, names)]
            elif k < 0.6 and depth > 0:
                lines.append(f"for j in range({r.randint(1, 4)}):")
                lines += ["    x = x * 0.5 + " + self.fexpr(names, 1)]
            elif k < 0.65 and depth > 0:
                # A loop left early, with code no path reaches after the jump.
                lines.append(f"for j in range({r.randint(1, 4)}):")
                lines.append(f"    x = x + {self.fexpr(names, 1)}")
                lines.append(f"    if j >= {r.randint(0, 2)}:")
                lines.append(f"        {r.choice(('break', 'continue'))}")
                lines += ["        " + ln for ln in self.dead()]
            elif k < 0.75:
                lines.append(f"x = {self.fexpr(names, 2)}")
            else:
                lines.append(f"m = m + {self.iexpr(2)}")
        return lines

    def dead(self):
        """Statements no path reaches: loops and joins after a jump."""
        r = self.rng
        return r.choice([["for q in range(3):", "    m = m + q"], ["while m > 0:", "    m -= 1"],
                         ["x = x if x > 1.0 else (x + 1.0 if x > 2.0 else -x)"],
                         ["if False:", "    for q in range(m):", "        x = x * 2.0"]])

    def kernel(self, name):
        r = self.rng
        shared = r.random() < 0.3
        atomics = r.random() < 0.3
        lines = [f"def {name}(a, b, c, s, fo, io, acc):",
                 "    i = cuda.grid(1)",
                 "    t = cuda.threadIdx.x",
                 "    n = a.shape[0]",
                 "    x = 0.0",
                 "    m = 0"]
        if shared:
            lines += ["    sm = cuda.shared.array(64, float32)",
                      "    sm[t] = b[i] if i < n else float32(0)",
                      "    cuda.syncthreads()"]
        lines.append("    if i < n:")
        if shared:
            lines.append("        x = float(sm[(t + 1) % 64])")
        lines += ["        " + ln for ln in self.body(2, [])]
        lines.append(f"        fo[i] = {self.fexpr([], 2)} + x")
        lines.append(f"        io[i] = m + {self.iexpr(2)}")
        if atomics:
            lines.append(f"        cuda.atomic.add(acc, {r.choice(('0', 'i % 4', 't % 2'))}, {self.iexpr(1)} % 5)")
            lines.append(f"        cuda.atomic.max(acc, 4, {self.iexpr(1)})")
        if r.random() < 0.3:
            lines.append("    return")
            lines += ["    " + ln for ln in self.dead()]
        return "\n".join(lines) + "\n"


def inputs(seed):
    rng = np.random.default_rng(seed)
    a = rng.uniform(-4, 4, N)
    b = rng.uniform(-4, 4, N).astype(np.float32)
    c = rng.integers(-20, 20, N).astype(np.int32)
    return a, b, c, float(rng.uniform(-2, 2))


def run_batch(device, batch):
    """Runs every (src, name, args) of `batch` on `device` ('cpu' or
    'sim', chosen per process by environment) in one child process."""
    import pickle
    env = dict(os.environ)
    env.pop("KJIT_ENABLE_CUDASIM", None)
    env.pop("NUMBA_ENABLE_CUDASIM", None)
    if device == "sim":
        env["KJIT_ENABLE_CUDASIM"] = "1"
    else:
        env["KJIT_DEVICE"] = "cpu"
    script = r"""
import math, sys, pickle, warnings
import numpy as np
from kjit import cuda, float32
warnings.simplefilter("ignore")
out = []
for src, name, args in pickle.loads(sys.stdin.buffer.read()):
    try:
        ns = {"cuda": cuda, "math": math, "float32": float32}
        exec(compile(src, "<kernel>", "exec"), ns)
        k = cuda.jit(ns[name])
        a, b, c, s = args
        fo = np.zeros(a.shape[0]); io = np.zeros(a.shape[0], dtype=np.int64); acc = np.zeros(5, dtype=np.int64)
        k[2, 64](a, b, c, s, fo, io, acc)
        out.append(("ok", (fo, io, acc)))
    except Exception as e:
        out.append(("error", f"{type(e).__name__}: {e}"))
sys.stdout.buffer.write(pickle.dumps(out))
"""
    r = subprocess.run([sys.executable, "-c", script], input=pickle.dumps(batch), capture_output=True, env=env,
                       timeout=1800)
    if r.returncode != 0:
        return [("crash", f"the {device} process ended with status {r.returncode}: "
                 f"{r.stderr.decode(errors='replace')[-2000:]}")] * len(batch)
    return pickle.loads(r.stdout)


def ptx_check(src, name, cc, assemble):
    """None, or what went wrong compiling `src` to PTX for `cc` (and
    assembling it with ptxas)."""
    from kjit import cuda, float32
    ns = {"cuda": cuda, "math": math, "float32": float32}
    exec(compile(src, "<kernel>", "exec"), ns)  # noqa: S102 - generated kernels
    sig = "void(float64[::1], float32[::1], int32[::1], float64, float64[::1], int64[::1], int64[::1])"
    try:
        ptx, _ = cuda.compile_ptx(ns[name], sig, cc=cc)
    except Exception as e:  # noqa: BLE001 - reported
        return f"compile_ptx for sm_{cc[0]}{cc[1]}: {type(e).__name__}: {e}"
    if not assemble or not os.path.exists(PTXAS):
        return None
    with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as f:
        f.write(ptx)
    try:
        r = subprocess.run([PTXAS, f"-arch=sm_{cc[0]}{cc[1]}", f.name, "-o", os.devnull], capture_output=True,
                           text=True, timeout=120)
    finally:
        os.unlink(f.name)
    if r.returncode != 0:
        return f"ptxas -arch=sm_{cc[0]}{cc[1]} refuses the PTX: {r.stderr[-1500:]}"
    return None


def agree(x, y):
    fo1, io1, acc1 = x
    fo2, io2, acc2 = y
    if not (np.array_equal(io1, io2) and np.array_equal(acc1, acc2)):
        return False
    both_nan = np.isnan(fo1) & np.isnan(fo2)
    close = np.isclose(fo1, fo2, rtol=2e-5, atol=1e-5) | both_nan
    return bool(close.all())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kernels", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batch", type=int, default=100, help="kernels per child process")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    rng = random.Random(args.seed)
    t0 = time.time()
    bad = 0
    counts = {"kernels": 0, "ptx": 0, "ptxas": 0, "agree": 0}
    for start in range(0, args.kernels, args.batch):
        batch = []
        for k in range(start, min(args.kernels, start + args.batch)):
            name = f"k{k}"
            src = Gen(rng).kernel(name)
            batch.append((src, name, inputs(args.seed * 100003 + k)))
        for j, (src, name, _) in enumerate(batch):
            cc, assemble = CCS[(start + j) % len(CCS)]
            why = ptx_check(src, name, cc, assemble)
            counts["kernels"] += 1
            if why is not None:
                bad += 1
                print(f"--- {name} (seed {args.seed}): {why}\n{src}", flush=True)
                continue
            counts["ptx"] += 1
            counts["ptxas"] += bool(assemble and os.path.exists(PTXAS))
        cpu, sim = run_batch("cpu", batch), run_batch("sim", batch)
        for (src, name, _), x, y in zip(batch, cpu, sim):
            if x[0] != "ok" or y[0] != "ok":
                bad += 1
                print(f"--- {name} (seed {args.seed}): cpu {x[0]}, sim {y[0]}: "
                      f"{x[1] if x[0] != 'ok' else y[1]}\n{src}", flush=True)
            elif not agree(x[1], y[1]):
                bad += 1
                print(f"--- {name} (seed {args.seed}): the CPU device and the simulator differ\n{src}"
                      f"cpu: {x[1]}\nsim: {y[1]}", flush=True)
            else:
                counts["agree"] += 1
    print(f"{counts['kernels']} kernels (seed {args.seed}): {counts['ptx']} compiled to PTX, {counts['ptxas']} "
          f"assembled by ptxas, {counts['agree']} the same on the CPU device and the simulator; {bad} failures; "
          f"{time.time() - t0:.0f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
