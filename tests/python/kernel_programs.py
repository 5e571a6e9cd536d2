"""Kernel programs that must give the same results on every device.

Run as a script, on whatever device the environment selects (KJIT_DEVICE=cpu
or cuda, KJIT_ENABLE_CUDASIM=1 for the simulator), it runs every program and
prints one JSON object: {program name: "ok" or what went wrong}.
tests/python/kernels/test_kernels_devices.py runs it once per device present.

The sizes are small so that the simulator (one Python thread per GPU thread)
runs them in seconds; each program checks its result against NumPy.
"""
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "gpu"))

from kjit import cuda, float32, float64, int32, int64, literal_unroll  # noqa: E402
from kjit.cuda.random import (create_xoroshiro128p_states, init_xoroshiro128p_states,  # noqa: E402
                              xoroshiro128p_dtype, xoroshiro128p_normal_float64,
                              xoroshiro128p_uniform_float32, xoroshiro128p_uniform_float64)
import seed_kernels as S  # noqa: E402

import program_runner  # noqa: E402

rng = np.random.default_rng(7)
PROGRAMS = {}


def program(fn):
    PROGRAMS[fn.__name__] = fn
    return fn


def check(got, want, rtol=1e-5, atol=1e-6):
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        raise AssertionError(f"shape {got.shape} != {want.shape}")
    if not np.allclose(got, want, rtol=rtol, atol=atol, equal_nan=True):
        bad = np.argwhere(~np.isclose(got, want, rtol=rtol, atol=atol, equal_nan=True))
        i = tuple(bad[0])
        raise AssertionError(f"{len(bad)} elements differ, first at {i}: {got[i]!r} != {want[i]!r}")


# ---- the seed kernels --------------------------------------------------------------------

@program
def seed_add_kernel():
    x = rng.random(1000).astype(np.float32)
    y = rng.random(1000).astype(np.float32)
    out = cuda.device_array_like(x)
    S.add_kernel[4, 64](cuda.to_device(x), cuda.to_device(y), out)
    check(out.copy_to_host(), x + y)


@program
def seed_increment_2d():
    a = rng.integers(0, 10, (20, 30)).astype(np.int64)
    d = cuda.to_device(a)
    S.increment_a_2D_array[(3, 4), (8, 8)](d)
    check(d.copy_to_host(), a + 1)


@program
def seed_saxpy_host_arrays():
    x = rng.random(300).astype(np.float32)
    y = rng.random(300).astype(np.float32)
    out = np.zeros_like(x)
    S.saxpy[3, 128](np.float32(2.5), x, y, out)  # NumPy arrays: copied in and back out
    check(out, np.float32(2.5) * x + y)


@program
def seed_fast_matmul():
    n = 40
    a = rng.random((n, n)).astype(np.float32)
    b = rng.random((n, n)).astype(np.float32)
    c = cuda.device_array((n, n), np.float32)
    bpg = (n + S.TPB - 1) // S.TPB
    S.fast_matmul[(bpg, bpg), (S.TPB, S.TPB)](cuda.to_device(a), cuda.to_device(b), c)
    check(c.copy_to_host(), a @ b, rtol=1e-4)


@program
def seed_histogram():
    x = rng.random(2000).astype(np.float32)
    h = cuda.to_device(np.zeros(16, np.int32))
    S.histogram[4, 64](cuda.to_device(x), np.float32(0), np.float32(1), h)
    check(h.copy_to_host(), np.histogram(x, 16, (0, 1))[0])


@program
def seed_block_sum():
    a = rng.random(1000).astype(np.float32)
    out = cuda.to_device(np.zeros(1, np.float32))
    S.block_sum[4, 256](cuda.to_device(a), out)
    check(out.copy_to_host()[0], a.sum(dtype=np.float64), rtol=1e-4)


@program
def seed_sinexp():
    x = rng.random(200).astype(np.float32)
    out = np.zeros_like(x)
    S.sinexp[2, 128](x, out)
    want = x.astype(np.float64)
    for _ in range(64):
        want = np.sin(want) * np.exp(-want * 0.01)
    check(out, want, rtol=1e-4)


@program
def seed_warp_ops():
    a = rng.integers(-20, 20, 64).astype(np.int32)
    out = np.zeros(64, np.int32)
    S.warp_ops[2, 32](a, out)
    want = np.zeros(64, np.int64)
    for w in range(2):
        v = a[w * 32:(w + 1) * 32].astype(np.int64)
        s = v.copy()
        s[:16] += v[16:]
        s[16:] += v[16:]  # shfl_down past the warp's end: a lane's own value
        want[w * 32:(w + 1) * 32] = s + (s > 0).sum() + np.arange(32)
    check(out, want)


# ---- the kernel language -----------------------------------------------------------------

@cuda.jit
def grid3d(out):
    x, y, z = cuda.grid(3)
    if x < out.shape[0] and y < out.shape[1] and z < out.shape[2]:
        out[x, y, z] = x * 10000 + y * 100 + z


@program
def grid_3d():
    out = cuda.device_array((9, 7, 5), np.int64)
    grid3d[(3, 2, 2), (4, 4, 4)](out)
    i, j, k = np.indices((9, 7, 5))
    check(out.copy_to_host(), i * 10000 + j * 100 + k)


@cuda.jit
def indices_kernel(out):
    t = cuda.threadIdx.x + cuda.threadIdx.y * cuda.blockDim.x
    b = cuda.blockIdx.x + cuda.blockIdx.y * cuda.gridDim.x
    i = b * (cuda.blockDim.x * cuda.blockDim.y) + t
    out[i, 0] = cuda.threadIdx.x
    out[i, 1] = cuda.threadIdx.y
    out[i, 2] = cuda.blockIdx.x
    out[i, 3] = cuda.blockIdx.y
    out[i, 4] = cuda.laneid
    out[i, 5] = cuda.warpsize


@program
def special_registers():
    out = np.zeros((2 * 3 * 8 * 6, 6), np.int32)
    indices_kernel[(2, 3), (8, 6)](out)
    want = []
    for by in range(3):
        for bx in range(2):
            for ty in range(6):
                for tx in range(8):
                    t = tx + ty * 8
                    want.append((tx, ty, bx, by, t % 32, 32))
    check(out, np.array(want))


@cuda.jit(device=True)
def clamp(v, lo, hi):
    return min(max(v, lo), hi)


@cuda.jit(device=True)
def poly(x):
    return clamp(x * x - 2.0 * x + 1.0, 0.0, 5.0)


@cuda.jit
def device_functions(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = poly(x[i])


@program
def device_function_calls():
    x = np.linspace(-3, 3, 100)
    out = np.zeros_like(x)
    device_functions[1, 128](x, out)
    check(out, np.clip(x * x - 2 * x + 1, 0, 5))


@cuda.jit
def local_and_const(x, out):
    i = cuda.grid(1)
    tmp = cuda.local.array(8, dtype=float64)
    weights = cuda.const.array_like(WEIGHTS)
    for k in range(8):
        tmp[k] = x[i] * weights[k]
    s = 0.0
    for k in range(8):
        s += tmp[7 - k] * (k + 1)
    out[i] = s


WEIGHTS = np.arange(1, 9, dtype=np.float64) / 8


@program
def local_and_const_arrays():
    x = rng.random(64)
    out = np.zeros_like(x)
    local_and_const[2, 32](x, out)
    want = np.array([sum(v * WEIGHTS[7 - k] * (k + 1) for k in range(8)) for v in x])
    check(out, want)


@cuda.jit
def dynamic_shared(x, out):
    buf = cuda.shared.array(0, dtype=float32)
    t = cuda.threadIdx.x
    buf[t] = x[cuda.grid(1)]
    cuda.syncthreads()
    out[cuda.grid(1)] = buf[cuda.blockDim.x - 1 - t] + buf.shape[0]


@program
def dynamic_shared_memory():
    x = rng.random(128).astype(np.float32)
    out = np.zeros_like(x)
    dynamic_shared[2, 64, 0, 64 * 4](x, out)
    want = np.concatenate([x[:64][::-1], x[64:][::-1]]) + 64
    check(out, want)


@cuda.jit
def sync_variants(x, out):
    t = cuda.threadIdx.x
    v = x[cuda.grid(1)]
    c = cuda.syncthreads_count(v > 0.5)
    a = cuda.syncthreads_and(v > -1.0)
    o = cuda.syncthreads_or(v > 0.99)
    out[cuda.grid(1), 0] = c
    out[cuda.grid(1), 1] = a
    out[cuda.grid(1), 2] = o
    out[cuda.grid(1), 3] = t


@program
def syncthreads_count_and_or():
    x = rng.random(96)
    x[5] = 0.995
    out = np.zeros((96, 4), np.int32)
    sync_variants[3, 32](x, out)
    want = np.zeros_like(out)
    for b in range(3):
        v = x[b * 32:(b + 1) * 32]
        want[b * 32:(b + 1) * 32] = [(v > 0.5).sum(), 1, int((v > 0.99).any()), 0]
    want[:, 3] = np.tile(np.arange(32), 3)
    check(out, want)


@cuda.jit
def shuffles(x, out):
    i = cuda.grid(1)
    v = x[i]
    out[i, 0] = cuda.shfl_sync(0xffffffff, v, 3)
    out[i, 1] = cuda.shfl_up_sync(0xffffffff, v, 2)
    out[i, 2] = cuda.shfl_down_sync(0xffffffff, v, 5)
    out[i, 3] = cuda.shfl_xor_sync(0xffffffff, v, 1)


@program
def warp_shuffles():
    x = rng.random(64)
    out = np.zeros((64, 4))
    shuffles[2, 32](x, out)
    want = np.zeros_like(out)
    for w in range(2):
        v = x[w * 32:(w + 1) * 32]
        lane = np.arange(32)
        want[w * 32:(w + 1) * 32, 0] = v[3]
        want[w * 32:(w + 1) * 32, 1] = np.where(lane >= 2, v[np.maximum(lane - 2, 0)], v)
        want[w * 32:(w + 1) * 32, 2] = np.where(lane + 5 < 32, v[np.minimum(lane + 5, 31)], v)
        want[w * 32:(w + 1) * 32, 3] = v[lane ^ 1]
    check(out, want)


@cuda.jit
def warp_reduce(x, out):
    i = cuda.grid(1)
    v = x[i]
    off = 16
    while off > 0:
        v += cuda.shfl_down_sync(0xffffffff, v, off)
        off //= 2
    if cuda.laneid == 0:
        out[i // 32] = v


@program
def warp_shuffle_reduction():
    x = rng.integers(0, 100, 128).astype(np.int32)
    out = np.zeros(4, np.int32)
    warp_reduce[2, 64](x, out)
    check(out, x.reshape(4, 32).sum(axis=1))


@cuda.jit
def votes(x, out):
    i = cuda.grid(1)
    v = x[i]
    out[i, 0] = cuda.all_sync(0xffffffff, v > 0)
    out[i, 1] = cuda.any_sync(0xffffffff, v > 90)
    out[i, 2] = cuda.eq_sync(0xffffffff, v > 50)
    out[i, 3] = cuda.ballot_sync(0xffffffff, v > 50)
    out[i, 4] = cuda.match_any_sync(0xffffffff, v % 4)
    m, p = cuda.match_all_sync(0xffffffff, v // 1000)
    out[i, 5] = m
    out[i, 6] = p
    out[i, 7] = cuda.activemask()
    out[i, 8] = cuda.lanemask_lt()


@program
def warp_votes_and_matches():
    x = rng.integers(1, 100, 64).astype(np.int64)
    x[32:] = 60
    out = np.zeros((64, 9), np.int64)
    votes[2, 32](x, out)
    u32 = int  # ballot, masks: uint32 values, as Numba types them
    want = np.zeros_like(out)
    for w in range(2):
        v = x[w * 32:(w + 1) * 32]
        ballot = sum(1 << k for k in range(32) if v[k] > 50)
        for lane in range(32):
            row = want[w * 32 + lane]
            row[0] = (v > 0).all()
            row[1] = (v > 90).any()
            row[2] = (v > 50).all() or not (v > 50).any()
            row[3] = u32(ballot)
            row[4] = u32(sum(1 << k for k in range(32) if v[k] % 4 == v[lane] % 4))
            row[5] = u32(0xffffffff)
            row[6] = 1
            row[7] = u32(0xffffffff)
            row[8] = (1 << lane) - 1
    check(out & 0xFFFFFFFF, want & 0xFFFFFFFF)  # the masks' 32 bits, however their type's sign


@cuda.jit
def atomics(out, fout, counters):
    i = cuda.grid(1)
    cuda.atomic.add(out, 0, 1)
    cuda.atomic.max(out, 1, i)
    cuda.atomic.min(out, 2, i)
    cuda.atomic.sub(out, 3, 2)
    cuda.atomic.or_(out, 4, 1 << (i % 16))
    cuda.atomic.xor(out, 5, 1)
    cuda.atomic.and_(out, 6, ~(1 << (i % 8)))
    cuda.atomic.inc(counters, 0, 9)
    cuda.atomic.dec(counters, 1, 1000)
    cuda.atomic.exch(counters, 2, 7)
    cuda.atomic.compare_and_swap(out[7:], 0, i + 100)
    cuda.atomic.add(fout, 0, 0.5)
    cuda.atomic.max(fout, 1, float64(i) * 0.25)


@program
def atomic_operations():
    out = np.array([0, -1, 10**6, 0, 0, 0, -1, 0], np.int64)
    fout = np.zeros(2)
    counters = np.array([0, 500, 0], np.uint32)
    atomics[4, 32](out, fout, counters)
    n = 128
    assert 100 <= out[7] < 100 + n, out  # one thread's value won the compare-and-swap
    check(out[:7], [n, n - 1, 0, -2 * n, 0xFFFF, 0, ~0xFF])
    check(counters, [n % 10, 500 - n, 7])  # inc wraps at 9 -> 0
    check(fout, [0.5 * n, (n - 1) * 0.25])


@cuda.jit
def math_kernel(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        v = x[i]
        out[i, 0] = math.sqrt(v) + math.exp(-v) + math.log(v + 1.0)
        out[i, 1] = math.sin(v) * math.cos(v) + math.tanh(v)
        out[i, 2] = math.atan2(v, 2.0) + math.pow(v, 1.5) + math.floor(v * 3.0)
        out[i, 3] = cuda.fma(v, v, 1.0) + cuda.cbrt(v)


@program
def math_functions():
    x = rng.random(100) * 4
    out = np.zeros((100, 4))
    math_kernel[1, 128](x, out)
    want = np.stack([np.sqrt(x) + np.exp(-x) + np.log(x + 1), np.sin(x) * np.cos(x) + np.tanh(x),
                     np.arctan2(x, 2) + x ** 1.5 + np.floor(x * 3), x * x + 1 + np.cbrt(x)], axis=1)
    check(out, want, rtol=1e-12, atol=1e-12)


@cuda.jit
def int_semantics(a, b, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i, 0] = a[i] // b[i]
        out[i, 1] = a[i] % b[i]
        out[i, 2] = cuda.popc(a[i]) + cuda.clz(a[i]) + cuda.ffs(a[i])
        out[i, 3] = cuda.brev(a[i])


@program
def integer_semantics():
    a = np.array([7, -7, 7, -7, 0, 123456, 9, -1], np.int32)
    b = np.array([2, 2, -2, -2, 3, 0, 0, 5], np.int32)
    out = np.zeros((8, 4), np.int64)  # brev is uint32: kept whole (no wrap on the store)
    int_semantics[1, 8](a, b, out)
    # CUDA's error model: x // 0 and x % 0 are 0 (no ZeroDivisionError).
    fd = np.array([7 // 2, -7 // 2, 7 // -2, -7 // -2, 0, 0, 0, -1 // 5])
    md = np.array([7 % 2, -7 % 2, 7 % -2, -7 % -2, 0, 0, 0, -1 % 5])
    check(out[:, 0], fd)
    check(out[:, 1], md)

    def bits(v):
        u = int(np.uint32(np.int32(v)))
        popc = bin(u).count("1")
        clz = 32 - u.bit_length()
        ffs = (u & -u).bit_length()
        rev = int(f"{u:032b}"[::-1], 2)
        return popc + clz + ffs, rev
    for k in range(8):
        s, r = bits(a[k])
        assert out[k, 2] == s and out[k, 3] == r, (k, out[k], s, r)


@cuda.jit
def loop_counters(x, n, out):
    i = cuda.grid(1)
    if i == 0:
        a = 0
        for k in range(64):                 # fits 32 bits: counted in 32 on a GPU
            a += x[k] * k
        out[0] = a
        f = float32(0)
        for k in range(-5, 60, 7):          # negative start, step 7
            f += float32(x[k + 5]) * float32(k)
        out[1] = int64(f)
        b = 0
        for k in range(60, -3, -4):         # counting down past zero
            b += x[k + 3] * k
        out[2] = b
        c = 0
        for k in range(2147483640, 2147483650):  # crosses 2**31: stays 64-bit
            c += x[k - 2147483640] * (k - 2147483600)
        out[3] = c
        d = 0
        for k in range(n, n + 10):          # bound unknown at compile time
            d += x[k - n] * k
        out[4] = d
        v = float32(x[0])
        g = float32(0)
        for k in range(1000):               # only converted: a 32-bit counter on a GPU
            g += float32(k) * v
        out[5] = int64(g)


@program
def loop_counter_values():
    x = rng.integers(1, 5, 64).astype(np.int64)
    out = np.zeros(6, np.int64)
    n = 3_000_000_000
    loop_counters[1, 32](x, n, out)
    want = [sum(int(x[k]) * k for k in range(64)), int(sum(float(x[k + 5]) * k for k in range(-5, 60, 7))),
            sum(int(x[k + 3]) * k for k in range(60, -3, -4)),
            sum(int(x[k - 2147483640]) * (k - 2147483600) for k in range(2147483640, 2147483650)),
            sum(int(x[k - n]) * k for k in range(n, n + 10)), int(x[0]) * sum(range(1000))]
    check(out, want)


@cuda.jit
def random_draws(states, out):
    i = cuda.grid(1)
    if i < states.shape[0]:
        out[i, 0] = xoroshiro128p_uniform_float64(states, i)
        out[i, 1] = xoroshiro128p_uniform_float32(states, i)
        out[i, 2] = xoroshiro128p_normal_float64(states, i)


@program
def random_numbers_are_numbas():
    # The values Numba's generators give for seed 7 (its CPU versions, run
    # once): the same seeding, jumps and conversions on every device.
    states = create_xoroshiro128p_states(40, seed=7)
    out = np.zeros((40, 3))
    random_draws[2, 32](states, out)
    check(out[[0, 1, 39], 0], [0.7796594967825431, 0.0963148077114454, 0.38729828244447084], rtol=0, atol=0)
    check(out[[0, 1, 39], 1], [0.9206832647323608, 0.05440890043973923, 0.6596339344978333], rtol=0, atol=0)
    check(out[[0, 1, 39], 2], [-1.3377329471864163, -1.6305773043678125, 0.3029661170831271], rtol=1e-6)
    later = create_xoroshiro128p_states(2, seed=7, subsequence_start=3)
    random_draws[1, 2](later, out[:2])
    check(out[1, 0], 0.18314153816243284, rtol=0, atol=0)
    # The states are Numba's: n records of two uint64 fields (s0, s1), and an
    # array allocated with that dtype is seeded in place, as Numba's docs do.
    host = create_xoroshiro128p_states(40, seed=7).copy_to_host()
    assert host.dtype == xoroshiro128p_dtype and host.shape == (40,), (host.dtype, host.shape)
    assert len(np.unique(host)) == 40
    mine = cuda.device_array(40, dtype=xoroshiro128p_dtype)
    init_xoroshiro128p_states(mine, seed=7)
    again = np.zeros((40, 3))
    random_draws[2, 32](mine, again)
    check(again[0, 0], 0.7796594967825431, rtol=0, atol=0)


@cuda.jit
def selp_kernel(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = cuda.selp(x[i] > 0.5, x[i], float64(-1))


@program
def selp_selects():
    x = rng.random(50)
    out = np.zeros_like(x)
    selp_kernel[1, 64](x, out)
    check(out, np.where(x > 0.5, x, -1.0))


@program
def reduce_sum_and_max():
    x = rng.random(5000)
    total = cuda.reduce(lambda p, q: p + q)(x)
    check(total, x.sum(), rtol=1e-9)
    m = cuda.reduce(lambda p, q: max(p, q))(cuda.to_device(x))
    check(m, x.max())


@program
def streams_and_events():
    s = cuda.stream()
    x = rng.random(256).astype(np.float32)
    d = cuda.to_device(x, stream=s)
    out = cuda.device_array_like(d, stream=s)
    e0, e1 = cuda.event(), cuda.event()
    e0.record(s)
    S.saxpy[2, 128, s](np.float32(1), d, d, out)
    e1.record(s)
    e1.synchronize()
    s.synchronize()
    assert cuda.event_elapsed_time(e0, e1) >= 0
    check(out.copy_to_host(stream=s), 2 * x)


@program
def device_array_views():
    a = np.arange(60, dtype=np.float64).reshape(6, 10)
    d = cuda.to_device(a)
    sub = d[2:5]
    S.increment_a_2D_array[(1, 1), (8, 16)](sub)
    want = a.copy()
    want[2:5] += 1
    check(d.copy_to_host(), want)
    check(d.reshape(60).copy_to_host(), want.reshape(60))


@program
def launch_config_error():
    try:
        S.saxpy[1, 2048](np.float32(1), np.zeros(1, np.float32), np.zeros(1, np.float32), np.zeros(1, np.float32))
    except cuda.LaunchConfigError as e:
        if "saxpy" not in str(e):
            raise AssertionError(f"the error does not name the kernel: {e}")
        return
    raise AssertionError("no LaunchConfigError")


# ---- @vectorize(target="cuda") ------------------------------------------------------------

@cuda.jit("void(float16[:], float16, float16)")
def add_half(out, a, b):
    out[0] = a + b


@program
def float16_scalar_arguments():
    # np.float16 scalars passed to a kernel, eager (float16 declared) and lazy.
    out = np.zeros(1, np.float16)
    add_half[1, 1](out, np.float16(1.5), np.float16(2.25))
    check(out, np.array([3.75], np.float16))
    add_half[1, 1](out, 0.5, 0.25)  # Python floats convert to the declared float16
    check(out, np.array([0.75], np.float16))


from kjit import vectorize  # noqa: E402


@vectorize(["float32(float32, float32)", "float64(float64, float64)"], target="cuda")
def vec_add(a, b):
    return a + b


@vectorize(["float64(float64, int64, float64)"], target="cuda")
def vec_fma_int(x, k, c):
    return x * k + math.sin(c)


@vectorize(target="cuda")
def vec_square_plus_one(x):
    return x * x + 1


@program
def vectorize_device_and_host_arrays():
    x = rng.random(1000).astype(np.float32)
    y = rng.random(1000).astype(np.float32)
    d = vec_add(cuda.to_device(x), cuda.to_device(y))  # device in: device out
    if not cuda.is_cuda_array(d) or d.dtype != np.float32:
        raise AssertionError(f"a device array of float32 was expected, got {type(d).__name__} {d.dtype}")
    check(d.copy_to_host(), x + y)
    h = vec_add(x, y)                                 # host in: host out
    if not isinstance(h, np.ndarray) or h.dtype != np.float32:
        raise AssertionError(f"a float32 NumPy array was expected, got {type(h).__name__}")
    check(h, x + y)
    out = cuda.device_array(1000, np.float32)
    vec_add(cuda.to_device(x), y, out=out)            # mixed, into out=
    check(out.copy_to_host(), x + y)
    again = vec_add(cuda.to_device(x), cuda.to_device(y))  # the cached plan
    check(again.copy_to_host(), x + y)
    check(vec_add(x.astype(np.float64), 2.5), x.astype(np.float64) + 2.5)  # the float64 loop, a scalar
    if vec_add.types != ["ff->f", "dd->d"]:
        raise AssertionError(f"types {vec_add.types}")


@program
def vectorize_broadcasting_and_conversion():
    a = rng.random((4, 5))
    row = rng.random(5)
    col = rng.random((4, 1))
    check(vec_add(a, row), a + row)
    check(vec_add(cuda.to_device(a), cuda.to_device(col)).copy_to_host(), a + col)
    check(vec_add(a.T, 1.0), a.T + 1.0)                 # not contiguous
    k = np.arange(20, dtype=np.int64).reshape(4, 5)
    got = vec_fma_int(a, cuda.to_device(k), 0.5)       # int64 stays int64, a scalar float
    check(got.copy_to_host(), a * k + math.sin(0.5))
    i32 = np.arange(6, dtype=np.int32)
    check(vec_add(i32, i32), (i32 + i32).astype(np.float64))  # int32 converts safely to float64
    try:
        vec_add(np.arange(3, dtype=np.complex128), 1.0)
    except TypeError as e:
        if "no signature" not in str(e):
            raise AssertionError(f"unclear error: {e}")
    else:
        raise AssertionError("complex inputs found a signature")
    try:
        vec_add(np.ones(3), np.ones(4))
    except ValueError as e:
        if "broadcast" not in str(e):
            raise AssertionError(f"unclear error: {e}")
    else:
        raise AssertionError("shapes (3,) and (4,) broadcast")


@program
def vectorize_lazy_and_reduce():
    check(vec_square_plus_one(np.arange(5)), np.arange(5) ** 2 + 1)
    f = np.linspace(0, 1, 7).astype(np.float32)
    got = vec_square_plus_one(f)
    check(got, f.astype(np.float64) * f + 1)  # 1 is an int literal: float64, as Numba types it
    x = rng.random(3000)
    total = vec_add.reduce(cuda.to_device(x))
    check(total, x.sum(), rtol=1e-9)
    check(vec_add.reduce(x[:1]), x[0])


# ---- @guvectorize(target="cuda") ----------------------------------------------------------
from kjit import guvectorize  # noqa: E402


@guvectorize(["void(float32[:, :], float32[:, :], float32[:, :])",
              "void(float64[:, :], float64[:, :], float64[:, :])"], "(m,n),(n,p)->(m,p)", target="cuda")
def gu_matmul(a, b, c):
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            s = 0.0
            for k in range(a.shape[1]):
                s += a[i, k] * b[k, j]
            c[i, j] = s


@guvectorize(["void(float32, float32[:], float32[:], float32[:], float32[:])"], "(),(t),(t)->(t),()",
             target="cuda")
def gu_saxpy_and_sum(a, x, y, out, total):
    s = 0.0
    for i in range(out.shape[0]):
        out[i] = a * x[i] + y[i]
        s += out[i]
    total[0] = s


@program
def guvectorize_cuda():
    a = rng.random((7, 3, 4)).astype(np.float32)
    b = rng.random((7, 4, 2)).astype(np.float32)
    check(gu_matmul(a, b), a @ b)                                   # host in: host out
    d = gu_matmul(cuda.to_device(a), b)                             # a device input: a device output
    if not cuda.is_cuda_array(d) or d.shape != (7, 3, 2):
        raise AssertionError(f"a device array (7, 3, 2) was expected, got {type(d).__name__}")
    check(d.copy_to_host(), a @ b)
    b1 = rng.random((4, 2))                                         # broadcast loop axes, the float64 loop
    check(gu_matmul(a.astype(np.float64).reshape(7, 1, 3, 4), b1), a.astype(np.float64).reshape(7, 1, 3, 4) @ b1)
    out = cuda.device_array((7, 3, 2), np.float32)
    stream = cuda.stream()
    gu_matmul(cuda.to_device(a, stream), cuda.to_device(b, stream), out=out, stream=stream)
    stream.synchronize()
    check(out.copy_to_host(), a @ b)
    x = rng.random((5, 6)).astype(np.float32)
    y = rng.random((5, 6)).astype(np.float32)
    r, total = gu_saxpy_and_sum(np.float32(2.0), x, y)              # a scalar input, a () output
    check(r, 2 * x + y)
    check(total, (2 * x + y).sum(axis=1))
    per_row = np.arange(5, dtype=np.float32)                        # the scalar operand per loop index
    r2 = np.zeros((5, 6), np.float32)
    t2 = np.zeros(5, np.float32)
    gu_saxpy_and_sum(per_row, x, y, r2, t2)                         # outputs given as positional arguments
    check(r2, per_row[:, None] * x + y)
    try:
        gu_saxpy_and_sum(x)
    except TypeError as e:
        if "accepts 3 positional arguments" not in str(e):
            raise AssertionError(f"unclear error: {e}")
    else:
        raise AssertionError("one argument was accepted")


@cuda.jit
def warp_sum_over_tuple(a, out):
    # A loop over a tuple of offsets, and a tuple indexed at run time.
    v = a[cuda.grid(1)]
    for off in (16, 8, 4, 2, 1):
        v += cuda.shfl_down_sync(0xFFFFFFFF, v, off)
    scale = (1.0, 2.0, 3.0)
    if cuda.laneid == 0:
        out[cuda.blockIdx.x] = v * scale[cuda.blockIdx.x % 3]


@program
def tuple_loops_and_run_time_tuple_index():
    a = rng.random(96).astype(np.float32)
    out = np.zeros(3, np.float32)
    warp_sum_over_tuple[3, 32](a, out)
    check(out, a.reshape(3, 32).sum(axis=1) * np.array([1.0, 2.0, 3.0]), rtol=1e-5)


@cuda.jit(device=True)
def _keep(n):
    return n


@cuda.jit(device=True)
def _shared_histogram(ary, idx, dtype, n, binop, cast, wrap):
    # dtype, binop and cast are compile-time arguments, n and wrap literals.
    tid = cuda.threadIdx.x
    sm = cuda.shared.array(n, dtype)
    sm[tid] = 0
    cuda.syncthreads()
    b = cast(idx[tid] % n)
    if wrap:
        b = b % n
    binop(sm, b, 1)
    cuda.syncthreads()
    ary[tid] = sm[tid]


@cuda.jit
def dtype_and_function_arguments_kernel(a, b, idx):
    _shared_histogram(a, idx, np.uint32, 32, cuda.atomic.add, _keep, False)
    _shared_histogram(b, idx, float64, 32, cuda.atomic.add, int64, True)


@program
def dtype_and_function_arguments():
    idx = rng.integers(0, 32, 32).astype(np.int64)
    a = np.zeros(32, np.uint32)
    b = np.zeros(32, np.float64)
    dtype_and_function_arguments_kernel[1, 32](a, b, idx)
    want = np.bincount(idx, minlength=32)
    check(a, want.astype(np.uint32))
    check(b, want.astype(np.float64))


@cuda.jit
def frexp_ldexp_remainder_kernel(m, e, out, a, b):
    i = cuda.grid(1)
    if i < a.size:
        m[i], e[i] = math.frexp(a[i])
        out[i, 0] = math.ldexp(m[i], 3)
        out[i, 1] = math.remainder(b[i] * 9, b[i] + 0.75)


@program
def frexp_ldexp_remainder():
    for dt in (np.float32, np.float64):
        a = np.array([3.1415, np.inf, np.nan, -0.0, -5.5, 1e-3, 7.5, 1e30], dt)
        b = np.array([2.0, 1.0, 1.0, 3.0, 2.0, 0.3, 2.0, 7.0], dt)
        m, e = np.zeros(8, dt), np.zeros(8, np.int32)
        out = np.zeros((8, 2), dt)
        frexp_ldexp_remainder_kernel[1, 8](m, e, out, a, b)
        want = [math.frexp(float(x)) for x in a]
        check(m, np.array([w[0] for w in want], dt), rtol=0, atol=0)
        check(e, np.array([w[1] for w in want], np.int32), rtol=0, atol=0)
        check(out[:, 0], np.ldexp(m, 3), rtol=0, atol=0)
        want = [math.remainder(float(y * dt(9)), float(y + dt(0.75))) for y in b]
        check(out[:, 1], np.array(want, dt))


UNROLLED = (np.float64([1.0, 2.5]), np.float64([[1.0, 1.5], [2.0, 3.0]]), np.int32([3, 4, 5]))


@cuda.jit
def literal_unroll_kernel(out, t):
    i = 0
    for arr in literal_unroll(UNROLLED):  # arrays of several types, a body per element
        out[i] = arr.sum()
        i += 1
    for x in literal_unroll(t):  # int64, float64, complex128, bool
        if i == 4:
            i += 1
            continue
        out[i] = abs(x) * 2
        i += 1


@program
def literal_unroll_tuples():
    out = np.zeros(7)
    literal_unroll_kernel[1, 1](out, (3, 2.5, 1 + 2j, True))
    check(out, np.array([a.sum() for a in UNROLLED] + [6, 0, abs(1 + 2j) * 2, 2]))


@cuda.jit
def complex_pow_kernel(r, x, y):
    i = cuda.grid(1)
    if i < r.shape[0]:
        r[i, 0] = x[i] ** y[i]
        r[i, 1] = pow(x[i], 2)
        r[i, 2] = x[i] ** 3
        v = x[i]
        v **= 0.5
        r[i, 3] = v


@program
def complex_pow():
    for dt in (np.complex64, np.complex128):
        x = (rng.random(8) - 0.5 + 1j * (rng.random(8) - 0.5)).astype(dt)
        y = (rng.random(8) * 3 - 1 + 1j * (rng.random(8) - 0.5)).astype(dt)
        x[0], y[0], y[1], y[2] = 0, 1.5, 0, 2
        r = np.zeros((8, 4), dt)
        complex_pow_kernel[1, 8](r, x, y)
        rtol = 1e-5 if dt == np.complex64 else 1e-12
        check(r[:, 0], np.array([complex(a) ** complex(b) for a, b in zip(x, y)], dt), rtol=rtol)
        check(r[:, 1], x * x, rtol=rtol)
        check(r[:, 2], x ** 3, rtol=rtol)
        check(r[:, 3], x ** 0.5, rtol=rtol)


@cuda.jit
def tuple_variable_index_kernel(out, a):
    gid = cuda.grid(2)
    if gid[0] < out.shape[0] and gid[1] < out.shape[1]:
        out[gid] = a[gid] * 2
        out[gid] += 1
        cuda.atomic.add(out, gid, 0.5)


@program
def array_indexed_by_tuple_variable():
    a = rng.random((6, 5))
    out = np.zeros_like(a)
    tuple_variable_index_kernel[(2, 2), (4, 4)](out, a)
    check(out, a * 2 + 1.5)


@cuda.jit
def zip_of_enumerate_kernel(x, y, out):
    # zip() of an enumerate() and a sequence, and of a sequence and an
    # enumerate() with a start: the enumerated element is (index, value).
    i = cuda.grid(1)
    if i == 0:
        for (k, xv), yv in zip(enumerate(x), y):
            out[k, 0] = k * 100 + xv + yv
        for xv, (k, yv) in zip(x, enumerate(y, start=10)):
            out[k - 10, 1] = k * 100 + xv * yv


@program
def zip_of_enumerate():
    x, y = np.arange(5.0), np.arange(7.0) * 2   # zip stops at the shorter
    out = np.zeros((5, 2))
    zip_of_enumerate_kernel[1, 32](x, y, out)
    k = np.arange(5)
    check(out[:, 0], k * 100 + x + y[:5])
    check(out[:, 1], (k + 10) * 100 + x * y[:5])


@cuda.jit
def zero_dimensional_kernel(out, x, total):
    # 0-d arrays as arguments: indexed with (), as NumPy's.
    i = cuda.grid(1)
    if i < x.shape[0]:
        cuda.atomic.add(total, (), x[i])
    if i == 0:
        out[()] = out[()] * 2.0 + x.shape[0]


@program
def zero_dimensional_arrays():
    x = np.arange(10.0)
    out = np.array(1.5)                     # a NumPy 0-d array, copied in and back
    total = cuda.to_device(np.zeros(()))    # a 0-d device array
    zero_dimensional_kernel[1, 32](out, x, total)
    check(out[()], 13.0)
    check(total.copy_to_host()[()], x.sum())


@cuda.jit
def sign_kernel(x, n, out, out_int, out_all):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = np.sign(x[i])          # one element
        out_int[i] = np.sign(n[i])
    if i == 0:
        np.sign(x, out_all)             # the whole array, into an output


@program
def numpy_sign():
    x = np.array([-2.5, -0.0, 0.0, 3.0, np.nan, -np.inf], np.float32)
    n = np.array([-7, 0, 9, -1, 1, 0], np.int32)
    out, out_all = np.zeros_like(x), np.zeros_like(x)
    out_int = np.zeros_like(n)
    sign_kernel[1, 32](x, n, out, out_int, out_all)
    check(out, np.sign(x))
    check(out_all, np.sign(x))
    check(out_int, np.sign(n))


# Last: on a GPU a failed bounds check is a kernel fault, after which CUDA
# gives the process no context (docs/cuda.md); the programs before it ran.
@program
def seed_checked_copy_raises_index_error():
    a = np.zeros(10, np.float32)
    out = np.zeros(16, np.float32)
    try:
        S.checked_copy[1, 16](a, out, 0)
    except IndexError as e:
        if "out of bounds" not in str(e) and "index" not in str(e):
            raise AssertionError(f"IndexError without the index: {e}")
        return
    raise AssertionError("no IndexError")


if __name__ == "__main__":
    program_runner.main(PROGRAMS)
