"""The CUDA simulator (KJIT_ENABLE_CUDASIM=1) and the host API over host
memory (kjit.hostapi).

The simulator is chosen when kjit is imported, so its tests run programs in
new processes on the device "sim" (the run_on_device fixture, conftest.py);
each program runs many kernels and checks each result with check(NAME,
condition, details...), an assert, and ends by asserting that every check
the test names ran (checks_reached). The host API is also tested here, in
this process."""
import os
import textwrap

import numpy as np
import pytest

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tests/python
ROOT = os.path.dirname(os.path.dirname(HERE))
SEEDS = os.path.join(ROOT, "tools", "gpu")

PRELUDE = f"""
import math, sys, time, warnings
import numpy as np
sys.path.insert(0, {SEEDS!r})
warnings.simplefilter("ignore")
from kjit import cuda, float32, float64, int32, int64, uint32

_checked = set()

def check(name, cond, *info):
    assert cond, " ".join(["check failed:", name] + [str(i) for i in info])
    _checked.add(name)

def checks_reached(names):
    missing = [n for n in names if n not in _checked]
    assert not missing, f"checks that did not run: {{missing}}"
"""


def program(code, reached=()):
    """PRELUDE, then `code`, then the assert that the checks named in
    `reached` all ran."""
    return (textwrap.dedent(PRELUDE) + textwrap.dedent(code)
            + (f"checks_reached({list(reached)!r})\n" if reached else ""))


# ---- the seed kernels ---------------------------------------------------------------------------

def test_seed_kernels(run_on_device):
    run_on_device(program("""
        import seed_kernels as s
        rng = np.random.default_rng(0)
        check("device name", cuda.get_current_device().name == "kjit simulator", cuda.get_current_device().name)
        check("available", cuda.is_available() is True)

        n = 1000
        x = rng.random(n, dtype=np.float32); y = rng.random(n, dtype=np.float32); out = np.zeros(n, np.float32)
        s.add_kernel[4, 64](x, y, out)                       # grid-stride loop: 256 threads, 1000 elements
        check("add_kernel", np.array_equal(out, x + y))

        a = np.zeros((20, 30))
        s.increment_a_2D_array[(2, 2), (16, 16)](a)
        check("increment_a_2D_array", (a == 1).all())

        d_x, d_y = cuda.to_device(x), cuda.to_device(y)
        d_out = cuda.device_array_like(x)
        s.saxpy[(n + 127) // 128, 128](np.float32(2.5), d_x, d_y, d_out)
        check("saxpy", np.allclose(d_out.copy_to_host(), np.float32(2.5) * x + y))

        A = rng.random((40, 30), dtype=np.float32); B = rng.random((30, 20), dtype=np.float32)
        C = np.zeros((40, 20), np.float32)
        s.fast_matmul[(2, 3), (16, 16)](A, B, C)
        check("fast_matmul", np.allclose(C, A @ B, rtol=1e-5, atol=1e-5))

        xs = rng.random(5000)
        d_h = cuda.to_device(np.zeros(10, np.int32))
        s.histogram[8, 128](cuda.to_device(xs), 0.0, 1.0, d_h)
        check("histogram", np.array_equal(d_h.copy_to_host(), np.histogram(xs, 10, (0.0, 1.0))[0]))

        a = rng.random(1000, dtype=np.float32); o = np.zeros(1, np.float32)
        s.block_sum[4, 256](a, o)
        check("block_sum", np.isclose(o[0], a.astype(np.float64).sum(), rtol=1e-5), o[0], a.sum())

        x = rng.random(300, dtype=np.float32); out = np.zeros(300, np.float32)
        s.sinexp[3, 128](x, out)
        v = x.astype(np.float64)
        for k in range(64):
            v = np.sin(v) * np.exp(-v * 0.01)
        check("sinexp", np.allclose(out, v, rtol=1e-5))

        a = (rng.random(64, dtype=np.float32) - 0.5); o = np.zeros(64, np.float32)
        s.warp_ops[2, 32](a, o)
        exp = np.zeros(64, np.float32)
        for w in range(2):
            seg = a[w * 32:(w + 1) * 32]
            v = seg.copy()
            v[:16] += seg[16:]          # shfl_down by 16: lanes 16..31 get their own value
            v[16:] += seg[16:]
            exp[w * 32:(w + 1) * 32] = v + (v > 0).sum() + np.arange(32)
        check("warp_ops", np.allclose(o, exp), o, exp)

        out = np.zeros(10, np.float32)
        try:
            s.checked_copy[1, 32](np.arange(12, dtype=np.float32), out, 3)
            check("checked_copy raises", False)
        except IndexError as e:
            msg = str(e)
            check("checked_copy raises", True)
            check("checked_copy message", msg.startswith("In function 'checked_copy', file ")
               and "seed_kernels.py, line " in msg and "tid=[9, 0, 0] ctaid=[0, 0, 0]: index 12 is out of bounds" in msg,
               msg)
        s.checked_copy[1, 32](np.arange(13, dtype=np.float32), out, 3)
        check("checked_copy in bounds", np.array_equal(out, np.arange(3, 13, dtype=np.float32)))
    """, ["device name", "available", "add_kernel", "increment_a_2D_array", "saxpy", "fast_matmul",
                 "histogram", "block_sum", "sinexp", "warp_ops", "checked_copy raises", "checked_copy message",
                 "checked_copy in bounds"]), device="sim")


# ---- barriers and warps ---------------------------------------------------------------------------

def test_block_barriers_and_warp_operations(run_on_device):
    run_on_device(program("""
        FULL = 0xffffffff

        @cuda.jit
        def block_votes(a, out):
            i = cuda.grid(1)
            p = a[i] > 0
            out[i, 0] = cuda.syncthreads_count(p)
            out[i, 1] = cuda.syncthreads_and(p)
            out[i, 2] = cuda.syncthreads_or(p)

        a = np.concatenate([np.ones(64), np.where(np.arange(64) % 3 == 0, 1.0, -1.0), -np.ones(64)])
        out = np.zeros((192, 3), np.int64)
        block_votes[3, 64](a, out)
        exp = np.repeat(np.array([[64, 1, 1], [22, 0, 1], [0, 0, 0]]), 64, axis=0)
        check("syncthreads_count/and/or", np.array_equal(out, exp), out[::64])

        @cuda.jit
        def shuffles(a, out):
            i = cuda.grid(1)
            v = a[i]
            out[i, 0] = cuda.shfl_sync(FULL, v, 3)
            out[i, 1] = cuda.shfl_up_sync(FULL, v, 2)
            out[i, 2] = cuda.shfl_down_sync(FULL, v, 5)
            out[i, 3] = cuda.shfl_xor_sync(FULL, v, 1)
            out[i, 4] = cuda.shfl_sync(FULL, v, cuda.laneid + 33)

        a = np.arange(64, dtype=np.int64) * 3 + 1
        out = np.zeros((64, 5), np.int64)
        shuffles[1, 64](a, out)
        exp = np.zeros((64, 5), np.int64)
        for i in range(64):
            base, l = i - i % 32, i % 32
            exp[i] = [a[base + 3], a[base + l - 2] if l >= 2 else a[i], a[base + l + 5] if l + 5 < 32 else a[i],
                      a[base + (l ^ 1)], a[base + (l + 1) % 32]]
        check("shfl_sync", np.array_equal(out[:, 0], exp[:, 0]), out[:, 0])
        check("shfl_up_sync", np.array_equal(out[:, 1], exp[:, 1]), out[:, 1])
        check("shfl_down_sync", np.array_equal(out[:, 2], exp[:, 2]), out[:, 2])
        check("shfl_xor_sync", np.array_equal(out[:, 3], exp[:, 3]), out[:, 3])
        check("shfl_sync lane modulo 32", np.array_equal(out[:, 4], exp[:, 4]), out[:, 4])

        @cuda.jit
        def warp_sum(a, out):
            i = cuda.grid(1)
            v = a[i]
            off = 16
            while off > 0:
                v += cuda.shfl_down_sync(FULL, v, off)
                off //= 2
            if cuda.laneid == 0:
                out[i // 32] = v

        a = np.random.default_rng(1).random(256)
        out = np.zeros(8)
        warp_sum[2, 128](a, out)
        check("warp reduction", np.allclose(out, a.reshape(8, 32).sum(axis=1)))

        @cuda.jit
        def votes(a, out):
            i = cuda.grid(1)
            p = a[i] > 0
            out[i, 0] = cuda.all_sync(FULL, p)
            out[i, 1] = cuda.any_sync(FULL, p)
            out[i, 2] = cuda.eq_sync(FULL, p)
            out[i, 3] = cuda.ballot_sync(FULL, p)
            out[i, 4] = -7
            if cuda.laneid < 16:
                out[i, 4] = cuda.ballot_sync(0xffff, p)

        a = np.concatenate([np.ones(32), np.where(np.arange(32) % 4 == 3, 1.0, -1.0), -np.ones(32)])
        out = np.zeros((96, 5), np.int64)
        votes[1, 96](a, out)
        def i32(v):
            return int(np.array([v & 0xffffffff], np.uint32).view(np.int32)[0])
        bal1 = sum(1 << l for l in range(32) if l % 4 == 3)
        exp = np.array([[1, 1, 1, i32(0xffffffff), 0xffff],
                        [0, 1, 0, i32(bal1), bal1 & 0xffff],
                        [0, 0, 1, 0, 0]])
        check("all/any/eq_sync", np.array_equal(out[::32, :3], exp[:, :3]), out[::32])
        check("ballot_sync", np.array_equal(out[::32, 3], exp[:, 3]), out[::32, 3])
        part = out[:, 4].reshape(3, 32)
        check("ballot_sync with a partial mask", np.array_equal(part[:, :16], np.repeat(exp[:, 4:5], 16, 1))
           and (part[:, 16:] == -7).all(), out[:, 4])

        @cuda.jit
        def matches(a, out):
            i = cuda.grid(1)
            v = a[i]
            out[i, 0] = cuda.match_any_sync(FULL, v)
            m, pred = cuda.match_all_sync(FULL, v)
            out[i, 1] = m
            out[i, 2] = pred

        a = np.concatenate([np.arange(32) % 3, np.full(32, 7)]).astype(np.int32)
        out = np.zeros((64, 3), np.int64)
        matches[1, 64](a, out)
        any_exp = [i32(sum(1 << l for l in range(32) if l % 3 == i % 3)) for i in range(32)] + [-1] * 32
        check("match_any_sync", list(out[:, 0]) == any_exp, out[:, 0])
        check("match_all_sync", (out[:32, 1:] == 0).all() and (out[32:, 1] == -1).all() and (out[32:, 2] == 1).all(),
           out[:, 1:])

        @cuda.jit
        def lanes(out):
            i = cuda.threadIdx.x + cuda.threadIdx.y * cuda.blockDim.x
            cuda.syncwarp()
            out[i, 0] = cuda.laneid
            out[i, 1] = cuda.activemask()
            out[i, 2] = cuda.lanemask_lt()
            cuda.syncwarp(0xffffffff)
            if cuda.laneid < 12:
                out[i, 3] = cuda.activemask()   # the lanes that took the branch

        out = np.zeros((40, 4), np.int64)
        lanes[1, (8, 5)](out)
        check("laneid in 2-d blocks", list(out[:, 0]) == [i % 32 for i in range(40)], out[:, 0])
        check("activemask", list(out[:, 1]) == [0xffffffff] * 32 + [0xff] * 8, out[:, 1])
        check("activemask in a branch", list(out[:, 3]) == [0xfff] * 12 + [0] * 20 + [0xff] * 8, out[:, 3])
        check("lanemask_lt", list(out[:, 2]) == [(1 << (i % 32)) - 1 for i in range(40)], out[:, 2])

        @cuda.jit
        def early_exit(a):
            i = cuda.threadIdx.x
            if i >= 16:
                return
            a[i] = 1
            cuda.syncthreads()
            a[i] += cuda.shfl_sync(0xffff, a[i], 0)

        a = np.zeros(64)
        early_exit[1, 64](a)
        check("exited threads leave barriers", list(a) == [2.0] * 16 + [0.0] * 48, a)

        @cuda.jit
        def add1(a):
            a[cuda.grid(1)] += 1

        @cuda.jit
        def shift4(a):
            t = cuda.threadIdx.x
            for k in range(4):
                v = a[(t + 1) % 256]
                cuda.syncthreads()
                a[t] = v
                cuda.syncthreads()

        a = np.zeros(256)
        add1[1, 256](a)
        add1[1, 256](a)
        check("a 1x256 launch, twice", (a == 2).all())
        a = np.arange(256.0)
        shift4[1, 256](a)
        shift4[1, 256](a)
        check("a 1x256 launch with 8 barriers, twice", np.array_equal(a, np.roll(np.arange(256.0), -8)))
    """, ["syncthreads_count/and/or", "shfl_sync", "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync",
                 "shfl_sync lane modulo 32", "warp reduction", "all/any/eq_sync", "ballot_sync",
                 "ballot_sync with a partial mask", "match_any_sync", "match_all_sync", "laneid in 2-d blocks",
                 "activemask", "activemask in a branch", "lanemask_lt", "exited threads leave barriers",
                 "a 1x256 launch, twice", "a 1x256 launch with 8 barriers, twice"]), device="sim")


# ---- memory, device functions, atomics ------------------------------------------------------------

def test_memory_functions_and_atomics(run_on_device):
    run_on_device(program("""
        @cuda.jit
        def dyn(a, out, bits):
            f = cuda.shared.array(0, dtype=float32)
            u = cuda.shared.array(0, dtype=int32)
            t = cuda.threadIdx.x
            f[t] = a[t]
            cuda.syncthreads()
            out[t] = f[f.shape[0] - 1 - t]
            bits[t] = u[t]

        a = np.arange(64, dtype=np.float32) * 1.5
        out = np.zeros(64, np.float32); bits = np.zeros(64, np.int32)
        dyn[1, 64, 0, 64 * 4](a, out, bits)
        check("dynamic shared memory", np.array_equal(out, a[::-1]), out)
        check("dynamic shared arrays alias", np.array_equal(bits, a.view(np.int32)), bits)

        @cuda.jit(device=True)
        def square(x):
            return x * x

        @cuda.jit(device=True)
        def sum_sq(x, y):
            return square(x) + square(y)

        @cuda.jit(device=True)
        def block_reverse(buf, t):
            buf[t] = t * 10
            cuda.syncthreads()
            v = buf[buf.shape[0] - 1 - t]
            cuda.syncthreads()
            return v

        @cuda.jit
        def use_dev(a, b, out, rev):
            i = cuda.grid(1)
            sm = cuda.shared.array(32, dtype=int64)
            rev[i] = block_reverse(sm, cuda.threadIdx.x)
            if i < out.shape[0]:
                out[i] = sum_sq(a[i], b[i])

        a = np.arange(50.0); b = np.arange(50.0) * 2
        out = np.zeros(50); rev = np.zeros(64, np.int64)
        use_dev[2, 32](a, b, out, rev)
        check("device functions", np.array_equal(out, a * a + b * b))
        check("device functions with barriers and shared arrays",
           list(rev) == [(31 - t) * 10 for t in range(32)] * 2, rev)
        check("device functions from Python", sum_sq(3, 4) == 25)

        COEF = np.array([1.0, -2.0, 3.0, 4.0])

        @cuda.jit
        def poly(x, out):
            c = cuda.const.array_like(COEF)
            i = cuda.grid(1)
            if i < x.shape[0]:
                acc = 0.0
                for k in range(c.shape[0]):
                    acc = acc * x[i] + c[k]
                out[i] = acc

        x = np.linspace(-1, 1, 40); out = np.zeros(40)
        poly[1, 64](x, out)
        check("const.array_like", np.allclose(out, np.polyval(COEF, x)))

        @cuda.jit
        def loc(out):
            i = cuda.grid(1)
            tmp = cuda.local.array(4, dtype=int64)
            for k in range(4):
                tmp[k] = i * k
            s = 0
            for k in range(4):
                s += tmp[k]
            out[i] = s

        out = np.zeros(64, np.int64)
        loc[2, 32](out)
        check("local.array", np.array_equal(out, np.arange(64) * 6))

        @cuda.jit
        def idx3(out, dims):
            x, y, z = cuda.grid(3)
            out[x, y, z] = x * 100 + y * 10 + z
            if x == 0 and y == 0 and z == 0:
                gx, gy, gz = cuda.gridsize(3)
                dims[0] = gx; dims[1] = gy; dims[2] = gz
                dims[3] = cuda.blockDim.z; dims[4] = cuda.gridDim.y; dims[5] = cuda.gridsize(1)
            cuda.atomic.add(dims, 6, cuda.blockIdx.z + cuda.threadIdx.z)

        out = np.zeros((4, 6, 2), np.int64); dims = np.zeros(7, np.int64)
        idx3[(2, 3, 1), (2, 2, 2)](out, dims)
        g = np.indices((4, 6, 2))
        check("3-d grid", np.array_equal(out, g[0] * 100 + g[1] * 10 + g[2]))
        check("3-d sizes", list(dims[:6]) == [4, 6, 2, 2, 3, 4] and dims[6] == 24, dims)

        @cuda.jit
        def atomics(ai, af, au, first):
            i = cuda.grid(1)
            cuda.atomic.add(ai, 0, 1)
            cuda.atomic.sub(ai, 1, 2)
            cuda.atomic.max(ai, 2, i)
            cuda.atomic.min(ai, 3, i)
            cuda.atomic.and_(ai, 4, ~(1 << (i % 8)))
            cuda.atomic.or_(ai, 5, 1 << (i % 16))
            cuda.atomic.xor(ai, 6, 1)
            cuda.atomic.exch(ai, 7, 5)
            cuda.atomic.add(af, (0, 0), 0.5)
            cuda.atomic.nanmax(af, (1, 0), i * 1.0)
            cuda.atomic.inc(au, 0, 9)
            cuda.atomic.dec(au, 1, 9)
            if cuda.atomic.compare_and_swap(first, 0, i + 1) == 0:
                cuda.atomic.add(first, 1, 1)
            cuda.atomic.cas(first, 2, i, i + 1)

        ai = np.array([0, 0, -1, 1000, 0xff, 0, 0, 0], np.int64)
        af = np.array([[0.0, 0.0], [np.nan, 0.0]])
        au = np.array([0, 0], np.uint32)
        first = np.zeros(3, np.int64)
        atomics[2, 32](ai, af, au, first)
        check("atomic add/sub/max/min", list(ai[:4]) == [64, -128, 63, 0], ai)
        check("atomic and/or/xor/exch", list(ai[4:]) == [0, 0xffff, 0, 5], ai)
        check("atomic on 2-d arrays, nanmax", af[0, 0] == 32.0 and af[1, 0] == 63.0, af)
        check("atomic inc/dec", list(au) == [64 % 10, (0 - 64) % 10], au)
        check("compare_and_swap", first[0] > 0 and first[1] == 1, first)
        check("cas", 1 <= first[2] <= 64, first)

        @cuda.jit
        def nan_atomics(f, v, olds):
            olds[0] = cuda.atomic.max(f, 0, 1.0)
            olds[1] = cuda.atomic.nanmax(f, 1, 1.0)
            olds[2] = cuda.atomic.max(f, 2, v)
            olds[3] = cuda.atomic.nanmin(f, 3, v)
            olds[4] = cuda.atomic.min(f, 4, 2.0)

        f = np.array([np.nan, np.nan, 5.0, 5.0, 3.0]); olds = np.zeros(5)
        nan_atomics[1, 1](f, np.nan, olds)
        # max/min keep a stored NaN and ignore a NaN value (Numba's rule);
        # nanmax/nanmin replace a stored NaN.
        check("atomic NaN semantics", np.isnan(f[0]) and f[1] == 1.0 and f[2] == 5.0 and f[3] == 5.0 and f[4] == 2.0,
           f)
        check("atomics return the old value", np.isnan(olds[0]) and np.isnan(olds[1]) and list(olds[2:]) == [5, 5, 3],
           olds)

        @cuda.jit
        def scale(a, k):
            i = cuda.grid(1)
            if i < a.shape[0]:
                a[i] *= k

        d = cuda.to_device(np.arange(10.0))
        scale.forall(10)(d, 3.0)
        check("forall and device arrays", np.array_equal(d.copy_to_host(), np.arange(10.0) * 3))
        d2 = cuda.to_device(np.arange(20.0).reshape(4, 5))
        scale[1, 32](d2[1], 2.0)
        check("device array views as arguments", np.array_equal(d2.copy_to_host()[1], np.arange(5, 10) * 2.0)
           and np.array_equal(d2.copy_to_host()[2], np.arange(10, 15)))

        @cuda.jit("void(float32[::1], float32)")
        def eager(a, k):
            i = cuda.grid(1)
            if i < a.shape[0]:
                a[i] = a[i] * k

        a = np.ones(8, np.float32)
        eager[1, 8](a, 2.5)
        check("eager signatures", np.array_equal(a, np.full(8, 2.5, np.float32)) and len(eager.signatures) == 1)

        @cuda.jit
        def bits(x, out):
            i = cuda.grid(1)
            if i < x.shape[0]:
                v = x[i]
                out[i, 0] = cuda.popc(v)
                out[i, 1] = cuda.clz(v)
                out[i, 2] = cuda.ffs(v)
                out[i, 3] = cuda.brev(v)

        x = np.array([0, 1, 6, -1, 1 << 20], np.int32); out = np.zeros((5, 4), np.int64)
        bits[1, 8](x, out)
        def brev32(v):
            return int(format(v & 0xffffffff, "032b")[::-1], 2)
        exp = [[bin(v & 0xffffffff).count("1"), 32 - (v & 0xffffffff).bit_length(),
                ((v & 0xffffffff) & -(v & 0xffffffff)).bit_length(), brev32(v)] for v in x.tolist()]
        check("popc/clz/ffs/brev", out.tolist() == exp, out.tolist(), exp)

        @cuda.jit
        def arith(x, out):
            i = cuda.grid(1)
            if i < x.shape[0]:
                out[i, 0] = cuda.fma(x[i], x[i], x[i])
                out[i, 1] = cuda.cbrt(x[i])

        x = np.array([1.0, 8.0, 27.0]); out = np.zeros((3, 2))
        arith[1, 4](x, out)
        check("fma/cbrt", np.allclose(out[:, 0], x * x + x) and np.allclose(out[:, 1], [1, 2, 3]))
    """, ["dynamic shared memory", "dynamic shared arrays alias", "device functions",
                 "device functions with barriers and shared arrays", "device functions from Python",
                 "const.array_like", "local.array", "3-d grid", "3-d sizes", "atomic add/sub/max/min",
                 "atomic and/or/xor/exch", "atomic on 2-d arrays, nanmax", "atomic inc/dec", "compare_and_swap",
                 "cas", "atomic NaN semantics", "atomics return the old value", "forall and device arrays",
                 "device array views as arguments", "eager signatures", "popc/clz/ffs/brev", "fma/cbrt"]), device="sim")


# ---- reduce, streams, events, print, errors -------------------------------------------------------

def test_reduce_streams_print_and_errors(run_on_device):
    r = run_on_device(program("""
        sum_reduce = cuda.reduce(lambda a, b: a + b)
        a = np.arange(1000, dtype=np.float64)
        check("reduce", sum_reduce(a) == a.sum())
        check("reduce init and size", sum_reduce(a, init=10) == a.sum() + 10 and sum_reduce(a, size=10) == 45)

        @cuda.jit(device=True)
        def bigger(x, y):
            return x if x > y else y

        max_reduce = cuda.reduce(bigger)
        res = cuda.device_array(1, np.int64)
        vals = np.random.default_rng(3).integers(-1000, 1000, 500)
        check("reduce of a device function into res", max_reduce(cuda.to_device(vals), res=res) is None
           and res.copy_to_host()[0] == vals.max())
        check("reduce of nothing", sum_reduce(np.zeros(0), init=5) == 5)

        @cuda.jit
        def plus1(a):
            i = cuda.grid(1)
            if i < a.shape[0]:
                a[i] += 1

        s = cuda.stream()
        d = cuda.to_device(np.zeros(100), stream=s)
        e0, e1 = cuda.event(), cuda.event()
        e0.record(s)
        with s.auto_synchronize():
            plus1[1, 128, s](d)
            plus1[1, 128, s, 0](d)
        e1.record(s)
        e1.synchronize()
        ms = cuda.event_elapsed_time(e0, e1)
        check("streams", (d.copy_to_host(stream=s) == 2).all() and s.query() and bool(s))
        check("events", ms >= 0 and e0.elapsed_time(e1) == ms and e1.query())
        try:
            cuda.event_elapsed_time(cuda.event(), e1)
            check("unrecorded event", False)
        except cuda.CudaAPIError as err:
            check("unrecorded event", "not been recorded" in str(err))
        for st in (cuda.default_stream(), cuda.legacy_default_stream(), cuda.per_thread_default_stream(),
                   cuda.external_stream(0x1234)):
            plus1[1, 128, st](d)
        check("default and external streams", (d.copy_to_host() == 6).all())

        @cuda.jit
        def hello(n):
            i = cuda.grid(1)
            if i < n:
                print("hello from thread", i)

        hello[2, 4](3)
        sys.stdout.flush()

        @cuda.jit
        def fails(a):
            i = cuda.grid(1)
            if i == 37:
                raise ValueError("bad value")
            a[i] = i

        try:
            fails[2, 32](np.zeros(64))
            check("exception in a kernel", False)
        except ValueError as err:
            msg = str(err)
            check("exception in a kernel", msg.startswith("In function 'fails', file ") and
               msg.endswith("tid=[5, 0, 0] ctaid=[1, 0, 0]: bad value") and err.thread == (5, 0, 0) and
               err.block == (1, 0, 0) and str(err.__cause__) == "bad value", msg)
            print("LINE", err.lineno)

        @cuda.jit
        def fails_at_barrier(a):
            i = cuda.threadIdx.x
            sm = cuda.shared.array(32, dtype=float64)
            sm[i] = a[i + 1] if i == 31 else a[i]
            cuda.syncthreads()
            a[i] = sm[31 - i]

        try:
            fails_at_barrier[2, 32](np.zeros(32))
            check("exception while others wait", False)
        except IndexError as err:
            msg = str(err)
            check("exception while others wait", msg.startswith("In function 'fails_at_barrier', file ")
               and "tid=[31, 0, 0] ctaid=[0, 0, 0]: " in msg and err.lineno > 0, msg)
        a = np.arange(33.0)
        fails_at_barrier[1, 32](a)
        sm = np.arange(32.0)
        sm[31] = 32.0
        check("no exception", np.array_equal(a[:32], sm[::-1]), a)

        @cuda.jit
        def divergent(a):
            i = cuda.threadIdx.x
            if i < 16:
                cuda.syncthreads()
            else:
                cuda.syncthreads()
            a[i] = 1

        try:
            divergent[1, 32](np.zeros(32))
            check("divergent syncthreads", False)
        except cuda.simulator.BarrierError as err:
            print("DIVERGENT", err)
            check("divergent syncthreads", True)

        @cuda.jit
        def warp_deadlock(a):
            i = cuda.threadIdx.x
            if i < 16:
                a[i] = cuda.shfl_sync(0xffffffff, a[i], 0)
            cuda.syncthreads()

        try:
            warp_deadlock[1, 32](np.zeros(32))
            check("warp deadlock", False)
        except cuda.simulator.BarrierError as err:
            print("DEADLOCK", err)
            check("warp deadlock", True)

        try:
            plus1[1, 2048](np.zeros(4))
            check("2048 threads", False)
        except cuda.LaunchConfigError as err:
            check("2048 threads", "kernel 'plus1' on kjit simulator" in str(err) and "2048 threads" in str(err)
               and isinstance(err, ValueError), str(err))
        try:
            plus1[1, (64, 32)](np.zeros(4))
            check("2048 threads per block", False)
        except cuda.LaunchConfigError as err:
            check("2048 threads per block", "kernel 'plus1'" in str(err) and
               "2048 threads per block (64 x 32 x 1) is more than the limit of 1024" in str(err), str(err))
        for cfg in ((0, 32), (1, (32, 0)), (1, (2000, 1, 1)), (1, (1, 1, 65))):
            try:
                plus1[cfg](np.zeros(4))
                check(f"launch config {cfg}", False)
            except cuda.LaunchConfigError as err:
                pass
        check("bad launch configurations", True)
        try:
            plus1(np.zeros(4))
        except ValueError as err:
            check("kernels need a configuration", "plus1[blocks, threads]" in str(err))
        plus1[1, 32](np.zeros(4))    # the launch state is clean after the failures
        check("launches after failures", True)
    """, ["reduce", "reduce init and size", "reduce of a device function into res", "reduce of nothing",
                 "streams", "events", "unrecorded event", "default and external streams", "exception in a kernel",
                 "exception while others wait", "no exception",
                 "divergent syncthreads", "warp deadlock", "2048 threads", "2048 threads per block",
                 "bad launch configurations",
                 "kernels need a configuration", "launches after failures"]), device="sim")
    out = r.stdout
    for i in range(3):
        assert f"hello from thread {i}\n" in out
    assert "hello from thread 3" not in out
    lines = [line for line in out.splitlines() if line.startswith("DIVERGENT")]
    # Both sites are named: the two syncthreads() lines of `divergent`.
    assert len(lines) == 1 and lines[0].count("cuda.syncthreads() at ") == 2, out
    assert "16 threads" in lines[0]
    dl = [line for line in out.splitlines() if line.startswith("DEADLOCK")]
    assert len(dl) == 1 and "cuda.shfl_sync() at " in dl[0] and "cuda.syncthreads() at " in dl[0], out


# ---- compile errors ----------------------------------------------------------------------------------

BAD_KERNELS = """
from kjit import cuda


def undefined_name(a):
    i = cuda.grid(1)
    a[i] = undefined_thing + 1


def array_plus_string(a):
    i = cuda.grid(1)
    a[i] = a + "text"


def scalar_plus_string(a):
    i = cuda.grid(1)
    a[i] = a[i] + "text"


def try_except(a):
    i = cuda.grid(1)
    try:
        a[i] = 1
    except Exception:
        pass


def bad_attribute(a):
    a[0] = cuda.threadIdx.w


def readonly_write(a):
    a[0] = 1
"""

NAMES = ["undefined_name", "array_plus_string", "scalar_plus_string", "try_except", "bad_attribute"]


def test_compile_errors_are_the_compilers(run_on_device, tmp_path):
    # Both processes compile the same file: the messages name it.
    (tmp_path / "badkernels.py").write_text(textwrap.dedent(BAD_KERNELS))
    sim = run_on_device(program(f"""
        import badkernels
        for name in {NAMES!r}:
            k = cuda.jit(getattr(badkernels, name))      # lazily compiled, as on a GPU
            try:
                k[1, 32](np.zeros(4))
                print("MSG", name, "no error")
            except Exception as e:
                print("MSG", name, type(e).__name__, repr(str(e)))
        ro = np.zeros(4)
        ro.flags.writeable = False
        try:
            cuda.jit(badkernels.readonly_write)[1, 1](ro)
            print("MSG readonly no error")
        except Exception as e:
            print("MSG readonly", type(e).__name__, repr(str(e)))
    """), device="sim", cwd=str(tmp_path))
    gpu = run_on_device(program(f"""
        import badkernels
        for name in {NAMES!r}:
            try:
                cuda.compile_ptx(getattr(badkernels, name), "void(float64[::1])")
                print("MSG", name, "no error")
            except Exception as e:
                print("MSG", name, type(e).__name__, repr(str(e)))
        try:
            cuda.compile_ptx(badkernels.readonly_write, "void(float64[::1])")
            print("MSG readonly compiles when writable")
        except Exception as e:
            print("MSG readonly writable", type(e).__name__, repr(str(e)))
    """), device=None, cwd=str(tmp_path))
    assert sim.returncode == 0, sim.stderr
    assert gpu.returncode == 0, gpu.stderr
    sim_msgs = [line for line in sim.stdout.splitlines() if line.startswith("MSG")]
    gpu_msgs = [line for line in gpu.stdout.splitlines() if line.startswith("MSG")]
    assert len(sim_msgs) == len(NAMES) + 1 and len(gpu_msgs) == len(NAMES) + 1
    for s, g in zip(sim_msgs[:-1], gpu_msgs[:-1]):
        assert "error:" in s and "no error" not in s, s
        assert s == g
    assert "undefined_thing" in sim_msgs[0] and "try/except" in sim_msgs[3]
    # A read-only array is typed read-only, as the GPU launch path types it.
    assert "TypingError" in sim_msgs[-1] and "read-only" in sim_msgs[-1], sim_msgs[-1]
    assert gpu_msgs[-1] == "MSG readonly compiles when writable"


def test_pdb_in_a_kernel(run_on_device):
    """breakpoint() stops in the thread that reaches it; the compiler's
    refusal of that line is not an error under the simulator."""
    r = run_on_device(program("""
        @cuda.jit
        def k(a):
            i = cuda.grid(1)
            if i == 37:
                breakpoint()
            a[i] = i * 2

        a = np.zeros(64)
        k[2, 32](a)
        check("after the debugger", np.array_equal(a, np.arange(64) * 2.0))
    """, ["after the debugger"]), device="sim",
        stdin="p ('THREAD', i, cuda.threadIdx.x, cuda.blockIdx.x, cuda.laneid)\nc\n",
        env={"PYTHONBREAKPOINT": "pdb.set_trace"})
    assert "('THREAD', 37, 5, 1, 5)" in r.stdout, r.stdout


# ---- enabling -----------------------------------------------------------------------------------------

def test_numba_variable_enables_the_simulator(run_on_device):
    run_on_device(program("""
        import kjit.cuda
        check("simulator", cuda.get_current_device().name == "kjit simulator"
           and cuda.jit.__module__ == "kjit.cuda.simulator.kernel")
        import seed_kernels as s
        x = np.arange(100, dtype=np.float32); y = np.ones(100, np.float32); out = np.zeros(100, np.float32)
        s.saxpy[1, 128](np.float32(3.0), x, y, out)
        check("saxpy", np.array_equal(out, 3 * x + y))
        check("names", all(hasattr(cuda, n) for n in cuda.__all__) and "match_all_sync" in cuda.__all__)
    """, ["simulator", "saxpy", "names"]), device=None, env={"NUMBA_ENABLE_CUDASIM": "1"})
    off = run_on_device(program("""
        print("device kind", cuda.jit.__module__)
    """), device=None, env={"KJIT_ENABLE_CUDASIM": "0"})
    assert off.returncode == 0, off.stderr
    assert "device kind kjit.cuda.compiler" in off.stdout


def test_simulator_exports_the_kjit_cuda_names(run_on_device):
    """Every public name of kjit.cuda (GPU) is in the simulator's kjit.cuda."""
    r = run_on_device(program("""
        import types
        names = sorted(n for n in dir(cuda) if not n.startswith("_")
                       and not isinstance(getattr(cuda, n), types.ModuleType))
        print("NAMES", " ".join(names))
    """), device=None)
    assert r.returncode == 0, r.stderr
    gpu_names = next(line for line in r.stdout.splitlines() if line.startswith("NAMES")).split()[1:]
    assert "jit" in gpu_names and "threadIdx" in gpu_names and "to_device" in gpu_names
    import kjit.cuda.simulator as simulator
    missing = [n for n in gpu_names if n not in simulator.__all__]
    assert not missing, missing


# ---- the host API, in this process ----------------------------------------------------------------

def test_hostapi_arrays():
    # The host API over the CPU device's memory (on a GPU machine too).
    from kjit import hostapi as h
    with h.layer.on("cpu"):
        _hostapi_arrays(h)


def _hostapi_arrays(h):
    a = np.arange(12.0).reshape(3, 4)
    d = h.to_device(a)
    assert isinstance(d, h.DeviceNDArray) and isinstance(d._ary, np.ndarray)
    assert not np.shares_memory(d._ary, a)             # a copy, as on a GPU
    a[0, 0] = 99
    assert d[0, 0] == 0.0 and isinstance(d[0, 0], np.float64)
    assert d.shape == (3, 4) and d.dtype == np.float64 and d.size == 12 and d.ndim == 2
    assert d.nbytes == 96 and d.strides == (32, 8) and d.itemsize == 8 and len(d) == 3
    assert d.is_c_contiguous() and not d.is_f_contiguous() and d.flags["C_CONTIGUOUS"]
    cai = d.__cuda_array_interface__  # as Numba's simulator: a host pointer
    assert cai["data"][0] == d._ary.__array_interface__["data"][0] and cai["typestr"] == "<f8"
    assert np.asarray(d).__array_interface__["data"][0] == d._ary.__array_interface__["data"][0]
    assert "kjit DeviceNDArray" in repr(d)
    h_out = d.copy_to_host()
    assert np.array_equal(h_out, np.arange(12.0).reshape(3, 4)) and not np.shares_memory(h_out, d._ary)
    buf = np.empty((3, 4))
    assert d.copy_to_host(buf) is buf and np.array_equal(buf, h_out)
    row = d[1]
    assert isinstance(row, h.DeviceNDArray) and np.shares_memory(row._ary, d._ary)
    row[:] = 7
    assert (d.copy_to_host()[1] == 7).all()
    d[2, 1:3] = np.array([-1.0, -2.0])
    assert list(d.copy_to_host()[2]) == [8.0, -1.0, -2.0, 11.0]
    assert d.T.shape == (4, 3) and d.transpose().is_f_contiguous()
    assert d.reshape(4, 3).shape == (4, 3) and d.ravel().shape == (12,)
    assert np.shares_memory(d.reshape(12)._ary, d._ary)
    with pytest.raises(NotImplementedError):
        d.T.reshape(12)
    assert d.view(np.int64).dtype == np.int64
    d.copy_to_device(np.ones((3, 4)))
    assert (d.copy_to_host() == 1).all()
    d.copy_to_device(h.to_device(np.full((3, 4), 2.0)))
    assert (d.copy_to_host() == 2).all()
    with pytest.raises(ValueError):
        d.copy_to_device(np.ones((4, 4)))
    with pytest.raises(ValueError):
        d.copy_to_device(np.ones((3, 4), np.float32))
    with pytest.raises(TypeError):
        d.copy_to_device(np.ones((3, 4), np.float32))
    with pytest.raises(ValueError):
        d.copy_to_host(np.empty(5))

    e = h.device_array((2, 3), np.float32, order="F")
    assert e.is_f_contiguous() and e.dtype == np.float32 and (e.copy_to_host() == 0).all()
    from kjit import int16
    assert h.device_array(4, int16).dtype == np.int16
    like = h.device_array_like(np.zeros((5, 2), order="F"))
    assert like.shape == (5, 2) and like.is_f_contiguous()
    strided = h.device_array((3, 3), np.int32, strides=(4, 12))
    assert strided.strides == (4, 12)
    assert h.to_device(np.arange(3), copy=False).shape == (3,)
    target = h.device_array(3)
    assert h.to_device(np.arange(3.0), to=target) is target and list(target.copy_to_host()) == [0, 1, 2]
    for f in (h.pinned_array, h.mapped_array, h.managed_array):
        p = f((2, 2), np.float32)
        assert isinstance(p, np.ndarray) and p.shape == (2, 2) and p.dtype == np.float32
    assert h.pinned_array_like(np.zeros((2, 3), order="F")).flags.f_contiguous
    host = np.zeros(4)
    with h.pinned(host):
        pass
    with h.mapped(host) as m:
        m[1] = 5
    assert host[1] == 5                                  # mapped memory is the host array
    assert h.is_cuda_array(d) and not h.is_cuda_array(a)
    assert h.as_cuda_array(d) is d
    with pytest.raises(TypeError):
        h.as_cuda_array(a)
    dl = h.from_dlpack(np.arange(4.0))
    assert isinstance(dl, h.DeviceNDArray) and list(dl.copy_to_host()) == [0, 1, 2, 3]
    assert [x for x in h.to_device(np.arange(3))] == [0, 1, 2]


def test_hostapi_devices_streams_events(capsys):
    from kjit import hostapi as h
    with h.layer.on("cpu"):
        _hostapi_devices_streams_events(h, capsys)


def _hostapi_devices_streams_events(h, capsys):
    from kjit.cuda.errors import CudaAPIError
    old = h.layer.cpu_name()
    try:
        h._set_device_name("kjit test device")
        dev = h.get_current_device()
        assert dev.name == "kjit test device" and dev.id == 0 and dev.compute_capability == (9, 0)
        assert dev.MAX_THREADS_PER_BLOCK == 1024 and dev.WARP_SIZE == 32
        assert dev.MAX_SHARED_MEMORY_PER_BLOCK == 49152 and dev.MULTIPROCESSOR_COUNT == os.cpu_count()
        assert len(h.gpus) == 1 and h.gpus[0] is dev and list(h.gpus) == [dev] and h.gpus.current is dev
        assert h.list_devices() == [dev] and h.select_device(0) is dev
        with pytest.raises(ValueError):
            h.select_device(1)
        with h.gpus[0]:
            pass
        free, total = h.current_context().get_memory_info()
        assert 0 < free <= total
        h.current_context().reset()
        h.current_context().synchronize()
        h.synchronize()
        h.close()
        assert h.is_available() is True
        assert h.detect() is True
        assert "kjit test device" in capsys.readouterr().out
    finally:
        h._set_device_name(old)

    s = h.stream()
    assert s.query() and s.handle != 0 and h.stream().handle != s.handle
    assert h.default_stream().handle == 0 and h.legacy_default_stream().handle == 1
    assert h.per_thread_default_stream().handle == 2 and h.external_stream(0xabc).handle == 0xabc
    with s.auto_synchronize() as same:
        assert same is s
    s.synchronize()
    e0, e1 = h.event(), h.event()
    with pytest.raises(CudaAPIError, match="not been recorded"):
        e0.elapsed_time(e1)
    e0.record(s)
    e1.record()
    e1.synchronize()
    e1.wait(s)
    assert e0.query() and h.event_elapsed_time(e0, e1) >= 0
    with pytest.raises(CudaAPIError, match="timing=False"):
        h.event_elapsed_time(h.event(timing=False), e1)
