"""Tile kernels (kjit.cuda.tile): block-level programs of loads, T.dot,
element-wise operations, reductions and stores, translated to the kernel
language. The same programs on the CPU device, the simulator and (where
there is one) the GPU, checked against NumPy; every misuse is an error at the
user's line.
"""
import inspect
import shutil

import numpy as np
import pytest

import kjit
from kjit import cuda, errors, float32
import kjit.cuda.tile as T

DEVICES = ["cpu", "sim"] + (["cuda"] if shutil.which("nvidia-smi") else [])

# A GEMM with ragged edges (M, N, K not multiples of the tile): elements
# outside the arrays read zeros and are not written. Integer-valued inputs:
# every device's float32 sums are exact and equal NumPy's.
GEMM = r'''
import numpy as np, kjit
from kjit import cuda, float32
import kjit.cuda.tile as T

BM, BN, BK = 32, 32, 16

@T.jit(num_warps=2)
def matmul(a, b, c):
    pm = T.program_id(1)
    pn = T.program_id(0)
    acc = T.zeros((BM, BN), float32)
    for k in T.range(0, a.shape[1], BK):
        ta = T.load(a, (pm * BM, k), (BM, BK))
        tb = T.load(b, (k, pn * BN), (BK, BN))
        acc = T.dot(ta, tb, acc)
    T.store(c, (pm * BM, pn * BN), acc)

@T.jit(num_warps=4)
def matmul_bt(a, b, c, alpha):
    """c = alpha * a @ b.T (b as torch.nn.Linear's weight), a persistent
    grid walking the tiles in groups of 2 rows, and `@`."""
    grid_m = (a.shape[0] + BM - 1) // BM
    grid_n = (b.shape[0] + BN - 1) // BN
    for tile in T.persistent(grid_m * grid_n):
        pm, pn = T.swizzle2d(tile, grid_m, grid_n, 2)
        acc = T.zeros((BM, BN), float32)
        for k in T.range(0, a.shape[1], BK, stages=3):
            ta = T.load(a, (pm * BM, k), (BM, BK))
            tb = T.load(b, (pn * BN, k), (BN, BK))
            acc += ta @ tb.T
        T.store(c, (pm * BM, pn * BN), (acc * alpha).astype(c.dtype))

@T.jit(num_warps=4, path="sm80")
def matmul_nn(a, b, c):
    """The sm80 translation: T.dot by mma.sync m16n8k16, fragments by
    ldmatrix (a and b as stored)."""
    acc = T.zeros((BM, BN), float32)
    for k in T.range(0, a.shape[1], BK):
        acc = T.dot(T.load(a, (T.program_id(1) * BM, k), (BM, BK)),
                    T.load(b, (k, T.program_id(0) * BN), (BK, BN)), acc)
    T.store(c, (T.program_id(1) * BM, T.program_id(0) * BN), acc)

@T.jit(num_warps=2, path="sm80")
def matmul_tt(at, bt, c):
    """c = at.T @ bt.T on the sm80 translation: both fragments read
    transposed (ldmatrix .trans for a, plain for b)."""
    acc = T.zeros((BM, BN), float32)
    for k in T.range(0, at.shape[0], BK):
        ta = T.load(at, (k, T.program_id(1) * BM), (BK, BM))
        tb = T.load(bt, (T.program_id(0) * BN, k), (BN, BK))
        acc += T.trans(ta) @ tb.T
    T.store(c, (T.program_id(1) * BM, T.program_id(0) * BN), acc)

rng = np.random.default_rng(0)
M, N, K = 70, 50, 40
a = rng.integers(-3, 4, (M, K)).astype(np.float64)
b = rng.integers(-3, 4, (K, N)).astype(np.float64)
for conv in (lambda x: x.astype(np.float32), lambda x: x.astype(np.float16), kjit.float32_to_bf16):
    c = cuda.device_array((M, N), np.float32)
    matmul[(N + BN - 1) // BN, (M + BM - 1) // BM](cuda.to_device(conv(a)), cuda.to_device(conv(b)), c)
    assert np.array_equal(c.copy_to_host(), a @ b)
bt = np.ascontiguousarray(b.T)
c = cuda.device_array((M, N), np.float32)
matmul_bt[3](cuda.to_device(kjit.float32_to_bf16(a)), cuda.to_device(kjit.float32_to_bf16(bt)), c, 0.5)
assert np.array_equal(c.copy_to_host(), 0.5 * (a @ b))
c16 = cuda.device_array((M, N), np.float16)
matmul_bt[T.num_sms()](cuda.to_device(a.astype(np.float16)), cuda.to_device(bt.astype(np.float16)), c16, 1.0)
assert np.array_equal(c16.copy_to_host(), (a @ b).astype(np.float16))
grid = ((N + BN - 1) // BN, (M + BM - 1) // BM)
for conv in (lambda x: x.astype(np.float16), kjit.float32_to_bf16):
    c = cuda.device_array((M, N), np.float32)
    matmul_nn[grid](cuda.to_device(conv(a)), cuda.to_device(conv(b)), c)
    assert np.array_equal(c.copy_to_host(), a @ b)
    c = cuda.device_array((M, N), np.float32)
    matmul_tt[grid](cuda.to_device(conv(np.ascontiguousarray(a.T))), cuda.to_device(conv(bt)), c)
    assert np.array_equal(c.copy_to_host(), a @ b)
    assert matmul_nn.path_for(cuda.to_device(conv(a)), cuda.to_device(conv(b)), c) == "sm80"
print("gemm ok")
'''

# FlashAttention's online softmax, written with tiles: scores by T.dot with
# k transposed, row maxima and sums by reductions, broadcast by [:, None],
# columns past the sequence masked with T.arange and T.where.
ATTENTION = r'''
import math
import numpy as np, kjit
from kjit import cuda, float32
import kjit.cuda.tile as T

BM, BN, D = 16, 16, 32

@T.jit(num_warps=2)
def attention(q, k, v, o, scale):
    start = T.program_id(0) * BM
    tq = T.load(q, (start, 0), (BM, D))
    m = T.full((BM,), -math.inf, float32)
    l = T.zeros((BM,), float32)
    acc = T.zeros((BM, D), float32)
    for n in T.range(0, k.shape[0], BN):
        tk = T.load(k, (n, 0), (BN, D))
        tv = T.load(v, (n, 0), (BN, D))
        s = T.dot(tq, T.trans(tk)) * scale
        cols = n + T.arange(BN)
        s = T.where(cols[None, :] < k.shape[0], s, -math.inf)
        m_new = T.maximum(m, T.max(s, 1))
        alpha = T.exp2((m - m_new) * 1.4426950408889634)
        p = T.exp(s - m_new[:, None])
        l = l * alpha + T.sum(p, 1)
        acc = T.dot(p.astype(kjit.bfloat16), tv, acc * alpha[:, None])
        m = m_new
    T.store(o, (start, 0), acc / l[:, None])

S = 40
rng = np.random.default_rng(1)
q, k, v = (rng.standard_normal((S, D)) for _ in range(3))
conv = kjit.float32_to_bf16
outs = []
for kernel in (attention, T.jit(attention.func, num_warps=2, path="sm80")):  # T.dot by fma, by mma.sync
    o = cuda.to_device(np.zeros((S, D), np.float32))
    kernel[(S + BM - 1) // BM](cuda.to_device(conv(q)), cuda.to_device(conv(k)), cuda.to_device(conv(v)), o,
                               1 / math.sqrt(D))
    outs.append(o.copy_to_host())
q, k, v = (kjit.bf16_to_float32(conv(x)).astype(np.float64) for x in (q, k, v))
s = q @ k.T / math.sqrt(D)
p = np.exp(s - s.max(1, keepdims=True))
want = (p / p.sum(1, keepdims=True)) @ v
for o in outs:
    err = np.abs(o - want).max()
    assert err < 2e-2, err          # p is rounded to bfloat16 for the product
print("attention ok", err)
'''

# Element-wise operations, broadcasting, reductions along either axis and to
# one value, masks on loads and stores, padding, astype and transposes.
ELEMENTWISE = r'''
import numpy as np, kjit
from kjit import cuda, float32, int32
import kjit.cuda.tile as T

R, C = 8, 24

@T.jit(num_warps=1)
def kernel(x, y, rows, cols, total, mask_out, t_out):
    t = T.load(x, (0, 0), (R, C), padding=-1.0)
    row_max = T.max(t, 1)
    col_min = T.min(t, axis=0)
    y0 = T.where(t > 0, T.exp(t), t * 2) + row_max[:, None] - col_min[None, :]
    T.store(y, (0, 0), T.maximum(y0, -3.0))
    T.store(rows, (0,), T.sum(T.abs(t), 1) + T.arange(R).astype(float32))
    T.store(cols, (0,), T.sum(t, 0))
    total[0] = T.sum(t) + T.max(row_max)
    keep = (T.arange(C) % 3 == 0)[None, :] & (t < 0.5)
    tm = T.load(x, (0, 0), (R, C), mask=keep, padding=7.0)
    T.store(mask_out, (0, 0), tm, mask=T.arange(R)[:, None] < 5)
    T.store(t_out, (0, 0), t.T)

rng = np.random.default_rng(2)
x = rng.standard_normal((6, 20)).astype(np.float32)        # smaller than the tile: padding
xp = np.full((R, C), -1.0, np.float32); xp[:6, :20] = x
y = cuda.device_array((6, 20), np.float32)
rows, cols, total = (cuda.to_device(np.zeros(n, np.float32)) for n in (R, C, 1))
mask_out = cuda.to_device(np.full((R, C), 9.0, np.float32))
t_out = cuda.device_array((C, R), np.float32)
kernel[1](cuda.to_device(x), y, rows, cols, total, mask_out, t_out)
want = np.maximum(np.where(xp > 0, np.exp(xp.astype(np.float64)), xp * 2) + xp.max(1)[:, None] - xp.min(0)[None, :], -3)
assert np.allclose(y.copy_to_host(), want[:6, :20], rtol=1e-6, atol=1e-6)
assert np.allclose(rows.copy_to_host(), np.abs(xp).sum(1) + np.arange(R), rtol=1e-6)
assert np.allclose(cols.copy_to_host(), xp.sum(0), rtol=1e-5, atol=1e-6)
assert np.allclose(total.copy_to_host()[0], xp.sum() + xp.max(), rtol=1e-5)
keep = (np.arange(C) % 3 == 0)[None, :] & (xp < 0.5)
tm = np.where(keep, np.pad(x, ((0, 2), (0, 4)), constant_values=7.0), 7.0)
want_mask = np.full((R, C), 9.0, np.float32); want_mask[:5] = tm[:5]
assert np.array_equal(mask_out.copy_to_host(), want_mask)
assert np.array_equal(t_out.copy_to_host(), xp.T)
print("elementwise ok")
'''


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("program", ["GEMM", "ATTENTION", "ELEMENTWISE"])
def test_tile_programs(run_on_device, device, program):
    r = run_on_device(globals()[program], device=device, timeout=900)
    assert " ok" in r.stdout


def _line(func, marker):
    """The file line of `func`'s source line holding `marker`."""
    lines, first = inspect.getsourcelines(func)
    return first + next(i for i, text in enumerate(lines) if marker in text)


def _compile_error(kernel, *args):
    with pytest.raises(errors.CompileError) as info:
        kernel[1](*args)
    return info.value


def test_thread_index_is_refused_at_its_line():
    @T.jit
    def k(x):
        t = T.load(x, (cuda.threadIdx.x, 0), (4, 4))  # marker: threadIdx
        T.store(x, (0, 0), t)

    e = _compile_error(k, np.zeros((4, 4), np.float32))
    assert isinstance(e, errors.UnsupportedError)
    assert "block-level program" in str(e) and e.lineno == _line(k.func, "marker: threadIdx")
    assert e.filename == __file__


def test_shape_mismatch_in_dot_is_a_typing_error_at_its_line():
    @T.jit
    def k(a, c):
        x = T.load(a, (0, 0), (16, 8))
        y = T.load(a, (0, 0), (16, 8))
        T.store(c, (0, 0), T.dot(x, y))  # marker: dot

    e = _compile_error(k, np.zeros((16, 8), np.float32), np.zeros((16, 16), np.float32))
    assert isinstance(e, errors.TypingError)
    assert "(M, K) tile by a (K, N) tile" in e.msg and e.lineno == _line(k.func, "marker: dot")


def test_shapes_must_be_constants():
    @T.jit
    def k(a, n):
        x = T.load(a, (0, 0), (n, 8))  # marker: shape
        T.store(a, (0, 0), x)

    e = _compile_error(k, np.zeros((16, 8), np.float32), 16)
    assert "must be a constant integer" in e.msg and e.lineno == _line(k.func, "marker: shape")


def test_tiles_have_no_truth_value_and_no_element_indexing():
    @T.jit
    def k(a):
        x = T.load(a, (0, 0), (4, 4))
        if x > 0:  # marker: if
            T.store(a, (0, 0), x)

    e = _compile_error(k, np.zeros((4, 4), np.float32))
    assert "condition must be a scalar" in e.msg and e.lineno == _line(k.func, "marker: if")

    @T.jit
    def k2(a):
        x = T.load(a, (0, 0), (4, 4))
        a[0, 0] = x[1, 1]  # marker: index

    e = _compile_error(k2, np.zeros((4, 4), np.float32))
    assert e.lineno == _line(k2.func, "marker: index")


def test_a_tile_variable_keeps_its_shape():
    @T.jit
    def k(a):
        x = T.load(a, (0, 0), (4, 4))
        x = T.load(a, (0, 0), (4, 2))  # marker: reassigned
        T.store(a, (0, 0), x)

    e = _compile_error(k, np.zeros((4, 4), np.float32))
    assert "keeps its shape and type" in e.msg and e.lineno == _line(k.func, "marker: reassigned")


def test_errors_in_scalar_code_point_at_the_users_line():
    @T.jit
    def k(a):
        n = undefined_name + 1  # noqa: F821  marker: undefined
        x = T.load(a, (0, 0), (4, 4))
        T.store(a, (n, 0), x)

    e = _compile_error(k, np.zeros((4, 4), np.float32))
    assert "undefined_name" in e.msg
    assert e.filename == __file__ and e.lineno == _line(k.func, "marker: undefined")


def test_a_launch_finds_its_translation_by_the_arguments_types():
    """Launches look their translation up by a cheap fingerprint of each
    argument (dtype, shape, strides, read-only flag; a scalar's Python
    type): arrays of another dtype or layout, or a float scale instead of
    an int, get their own translation, and the same ones reuse it."""
    @T.jit(num_warps=1)
    def scale(x, y, alpha):
        t = T.load(x, (T.program_id(0) * 8,), (8,))
        T.store(y, (T.program_id(0) * 8,), t * alpha)

    base = np.arange(32, dtype=np.float32)
    x, y = cuda.to_device(base), cuda.device_array(32, np.float32)
    scale[4](x, y, 2)
    assert np.array_equal(y.copy_to_host(), base * 2)
    scale[4](x, y, 3)  # the same types: no new translation
    assert len(scale._kernels) == 1 and np.array_equal(y.copy_to_host(), base * 3)
    scale[4](x, y, 0.5)  # float64 scale
    assert len(scale._kernels) == 2 and np.array_equal(y.copy_to_host(), base * 0.5)
    wide = cuda.to_device(np.arange(64, dtype=np.float32))
    scale[4](wide[::2], y, 2)  # strided: layout A
    assert len(scale._kernels) == 3 and np.array_equal(y.copy_to_host(), np.arange(0, 64, 2) * 2)
    y64 = cuda.device_array(32, np.float64)
    scale[4](cuda.to_device(base.astype(np.float64)), y64, 2)
    assert len(scale._kernels) == 4 and np.array_equal(y64.copy_to_host(), base * 2)


def test_tile_functions_are_not_called_from_python():
    with pytest.raises(errors.KjitError, match="part of tile kernels"):
        T.load(np.zeros(4), (0,), (4,))
    with pytest.raises(TypeError, match="launched with a grid"):
        T.jit(lambda a: None)(np.zeros(4))


def test_source_shows_the_translated_kernel():
    @T.jit(num_warps=1)
    def k(a, b):
        T.store(b, (0,), T.load(a, (0,), (32,)) * 2.0)

    a = np.arange(32, dtype=np.float32)
    b = np.zeros(32, np.float32)
    text = k.source(a, b)
    assert "def k(a, b):" in text and "cuda.threadIdx.x" in text
    k[1](a, b)
    assert np.array_equal(b, a * 2)


# The sm_90 path: the GEMM pattern becomes the warp-specialised Hopper kernel
# (TMA, mbarriers, wgmma), here asked for with path="sm90" so that the CPU
# device and the simulator run it too (an H100/H200 picks it by itself).
# Ragged M, N and K; the program's epilogue (alpha, a bias vector, ReLU) on
# the accumulator registers; a block per tile (program ids) and persistent.
SM90 = r'''
import os
import numpy as np, kjit
from kjit import cuda, float32
import kjit.cuda.tile as T

BM, BK = 128, 64

@T.jit(path="sm90")
def linear(a, w, bias, c, alpha):
    grid_m = (a.shape[0] + BM - 1) // BM
    grid_n = (w.shape[0] + 128 - 1) // 128
    for tile in T.persistent(grid_m * grid_n):
        pm, pn = T.swizzle2d(tile, grid_m, grid_n, 8)
        acc = T.zeros((BM, 128), float32)
        for k in T.range(0, a.shape[1], BK):
            ta = T.load(a, (pm * BM, k), (BM, BK))
            tb = T.load(w, (pn * 128, k), (128, BK))
            acc = T.dot(ta, T.trans(tb), acc)
        tbias = T.load(bias, (pn * 128,), (128,))
        y = acc * alpha + tbias[None, :]
        T.store(c, (pm * BM, pn * 128), T.maximum(y, 0.0))

@T.jit(path="sm90")
def matmul(a, b, c):
    pm = T.program_id(1)
    pn = T.program_id(0)
    acc = T.zeros((BM, 256), float32)
    for k in T.range(0, a.shape[1], BK):
        ta = T.load(a, (pm * BM, k), (BM, BK))
        tb = T.load(b, (pn * 256, k), (256, BK))
        acc += ta @ tb.T
    T.store(c, (pm * BM, pn * 256), acc.astype(c.dtype))

@T.jit(path="sm90")
def matmul_kn(a, b, c):
    """b as (K, N), as NumPy's a @ b: N-major tiles, wgmma's transposed b."""
    acc = T.zeros((BM, 128), float32)
    for k in T.range(0, a.shape[1], BK):
        ta = T.load(a, (T.program_id(1) * BM, k), (BM, BK))
        tb = T.load(b, (k, T.program_id(0) * 128), (BK, 128))
        acc += ta @ tb
    T.store(c, (T.program_id(1) * BM, T.program_id(0) * 128), acc)

sim = os.environ.get("KJIT_ENABLE_CUDASIM") == "1"
M, N, K = (130, 200, 72) if sim else (200, 300, 136)
rng = np.random.default_rng(0)
a = rng.integers(-3, 4, (M, K)).astype(np.float64)
w = rng.integers(-3, 4, (N, K)).astype(np.float64)
bias = rng.integers(-20, 20, N).astype(np.float32)
for conv in (kjit.float32_to_bf16, lambda x: x.astype(np.float16)):
    da, dw = cuda.to_device(conv(a)), cuda.to_device(conv(w))
    c = cuda.device_array((M, N), np.float32)
    assert linear.path_for(da, dw, cuda.to_device(bias), c, 0.5) == "sm90"
    linear[3](da, dw, cuda.to_device(bias), c, 0.5)
    assert np.array_equal(c.copy_to_host(), np.maximum(0.5 * (a @ w.T) + bias, 0))
    c16 = cuda.device_array((M, N), np.float16)
    matmul[(N + 255) // 256, (M + 127) // 128](da, dw, c16)
    assert np.array_equal(c16.copy_to_host(), (a @ w.T).astype(np.float16))
# c of a 16-bit type with rows of a multiple of 16 bytes: stored through
# shared memory and TMA (clipped at c's edges), else from the registers
for n_out, by_tma in ((192, True), (N, N * 2 % 16 == 0)):
    c16 = cuda.device_array((M, n_out), np.float16)
    dw = cuda.to_device(kjit.float32_to_bf16(w[:n_out]))
    da = cuda.to_device(kjit.float32_to_bf16(a))
    assert ("_k_cuda.tma.store(" in matmul.source(da, dw, c16)) == by_tma
    matmul[(n_out + 255) // 256, (M + 127) // 128](da, dw, c16)
    assert np.array_equal(c16.copy_to_host(), (a @ w[:n_out].T).astype(np.float16)), n_out
wt = np.ascontiguousarray(w[:192].T)  # (K, 192)
for conv in (kjit.float32_to_bf16, lambda x: x.astype(np.float16)):
    c = cuda.device_array((M, 192), np.float32)
    da, dwt = cuda.to_device(conv(a)), cuda.to_device(conv(wt))
    assert matmul_kn.path_for(da, dwt, c) == "sm90"
    matmul_kn[2, (M + 127) // 128](da, dwt, c)
    assert np.array_equal(c.copy_to_host(), a @ wt)
# rows of 13 values (26 bytes: not a TMA row): the generic translation
a13 = cuda.to_device(kjit.float32_to_bf16(a[:, :13]))
w13 = cuda.to_device(kjit.float32_to_bf16(w[:, :13]))
c = cuda.device_array((M, N), np.float32)
assert linear.path_for(a13, w13, cuda.to_device(bias), c, 1.0) == "generic"
linear[2](a13, w13, cuda.to_device(bias), c, 1.0)
assert np.array_equal(c.copy_to_host(), np.maximum(a[:, :13] @ w[:, :13].T + bias, 0))
print("sm90 ok")
'''


@pytest.mark.parametrize("device", DEVICES)
def test_sm90_path(run_on_device, device):
    r = run_on_device(SM90, device=device, timeout=900)
    assert "sm90 ok" in r.stdout


def test_the_path_is_sm90_on_hopper_sm80_on_other_tensor_core_gpus_generic_elsewhere_unless_asked():
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples"))
    import gemm_tile
    a = cuda.to_device(kjit.float32_to_bf16(np.ones((64, 64))))
    c = cuda.device_array((64, 64), np.float32)
    cc = tuple(cuda.get_current_device().compute_capability) if cuda.device_kind() == "cuda" else (0, 0)
    assert gemm_tile.matmul.path_for(a, a, c) == ("sm90" if cc == (9, 0) else "sm80" if cc >= (8, 0) else
                                                  "generic")
    for path in ("sm90", "sm80", "generic"):
        assert T.jit(gemm_tile.matmul.func, path=path).path_for(a, a, c) == path


def test_sm90_ptx_is_wgmma_and_assembles_cleanly(tmp_path):
    import re
    import subprocess
    from conftest import assemble, find_ptxas

    @T.jit(path="sm90")
    def k(a, b, c):
        acc = T.zeros((128, 256), float32)
        for kk in T.range(0, a.shape[1], 64):
            acc = T.dot(T.load(a, (T.program_id(1) * 128, kk), (128, 64)),
                        T.trans(T.load(b, (T.program_id(0) * 256, kk), (256, 64))), acc)
        T.store(c, (T.program_id(1) * 128, T.program_id(0) * 256), acc)

    e = _compile_error(k, np.zeros((4, 4), np.float32), np.zeros((4, 4), np.float32), np.zeros((4, 4)))
    assert "not the sm_90 GEMM pattern" in e.msg  # nested loads and float32 inputs

    @T.jit(path="sm90")
    def k2(a, b, c):
        acc = T.zeros((128, 256), float32)
        for kk in T.range(0, a.shape[1], 64):
            ta = T.load(a, (T.program_id(1) * 128, kk), (128, 64))
            tb = T.load(b, (T.program_id(0) * 256, kk), (256, 64))
            acc = T.dot(ta, T.trans(tb), acc)
        T.store(c, (T.program_id(1) * 128, T.program_id(0) * 256), acc)

    a = cuda.to_device(kjit.float32_to_bf16(np.ones((128, 64))))
    c = cuda.device_array((128, 256), np.float32)
    ptx = k2.inspect_ptx(a, a, c)
    assert ".target sm_90a" in ptx
    assert len(re.findall(r"wgmma\.mma_async\.sync\.aligned\.m64n256k16\.f32\.bf16\.bf16", ptx)) == 4
    assert "cp.async.bulk.tensor.2d" in ptx and "setmaxnreg" in ptx
    assemble(ptx, tmp_path, arch="sm_90a")
    (tmp_path / "t.ptx").write_text(ptx)
    r = subprocess.run([find_ptxas(), "-arch=sm_90a", "-v", str(tmp_path / "t.ptx"), "-o", str(tmp_path / "t.cubin")],
                       capture_output=True, text=True)
    assert " 0 bytes spill stores" in r.stderr and not re.search(r"C75\d\d", r.stderr), r.stderr
    # b as (K, N): N-major tiles, wgmma's transposed b (its last flag 1)

    @T.jit(path="sm90")
    def k3(a, b, c):
        acc = T.zeros((128, 256), float32)
        for kk in T.range(0, a.shape[1], 64):
            ta = T.load(a, (T.program_id(1) * 128, kk), (128, 64))
            tb = T.load(b, (kk, T.program_id(0) * 256), (64, 256))
            acc = T.dot(ta, tb, acc)
        T.store(c, (T.program_id(1) * 128, T.program_id(0) * 256), acc)

    bkn = cuda.to_device(kjit.float32_to_bf16(np.ones((64, 256))))
    ptx3 = k3.inspect_ptx(a, bkn, c)
    assert len(re.findall(r"wgmma\.mma_async\.sync\.aligned\.m64n256k16\.f32\.bf16\.bf16 \{[^}]*\}, %rd\d+, %rd\d+, "
                          r"p, 1, 1, 0, 1;", ptx3)) == 4
    assemble(ptx3, tmp_path, arch="sm_90a")
    # c of a 16-bit type: the kernel that stores through shared memory and TMA
    c16 = cuda.device_array((128, 256), np.float16)
    ptx = k2.inspect_ptx(a, a, c16)
    assert "cp.async.bulk.tensor.2d.global.shared" in ptx and "fence.proxy.async" in ptx
    (tmp_path / "t16.ptx").write_text(ptx)
    r = subprocess.run([find_ptxas(), "-arch=sm_90a", "-v", str(tmp_path / "t16.ptx"), "-o",
                        str(tmp_path / "t16.cubin")], capture_output=True, text=True)
    assert r.returncode == 0 and " 0 bytes spill stores" in r.stderr and not re.search(r"C75\d\d", r.stderr), \
        r.stderr


def test_sm80_ptx_is_mma_sync_from_ldmatrix_and_assembles(tmp_path):
    import re
    from conftest import assemble
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples"))
    import gemm_tile
    a = cuda.to_device(np.zeros((256, 64), np.float16))
    c = cuda.device_array((256, 256), np.float32)
    for cc, arch in (((8, 0), "sm_80"), ((8, 9), "sm_89")):
        ptx = gemm_tile.matmul.inspect_ptx(a, a, c, cc=cc)
        assert f".target {arch}" in ptx
        assert re.search(r"mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32", ptx)
        assert re.search(r"ldmatrix\.sync\.aligned\.m8n8\.x4(\.shared)?\.b16", ptx)
        assert re.search(r"ldmatrix\.sync\.aligned\.m8n8\.x2(\.shared)?\.b16", ptx)  # b as (N, K): no .trans
        assemble(ptx, tmp_path, arch=arch)
    # before sm_80 (no mma.sync m16n8k16): T.dot by fma
    assert "mma.sync" not in gemm_tile.matmul.inspect_ptx(a, a, c, cc=(7, 5))


def test_tile_dot_is_mfma_on_amd_cdna():
    """For AMD CDNA processors the block-wide translation's T.dot is MFMA
    (v_mfma_f32_16x16x16, a wavefront of 64 lanes); RDNA keeps fma.
    Compiled and read back here: no AMD GPU has run it."""
    import re
    from test_amdgpu_compile import DEVICE_LIBS, READELF
    if not (DEVICE_LIBS and READELF):
        pytest.skip("the ROCm device libraries or LLVM 19's tools are not installed")

    @T.jit(num_warps=4)
    def mm(a, b, c):
        acc = T.zeros((64, 64), float32)
        for k in T.range(0, a.shape[1], 32):
            ta = T.load(a, (T.program_id(1) * 64, k), (64, 32))
            tb = T.load(b, (T.program_id(0) * 64, k), (64, 32))
            acc += ta @ tb.T
        T.store(c, (T.program_id(1) * 64, T.program_id(0) * 64), acc)

    c = np.zeros((64, 64), np.float32)
    for dt, want in ((np.float16, "f16"), (kjit.float32_to_bf16, "bf16")):
        a = dt(np.zeros((64, 32))) if callable(dt) and not isinstance(dt, type) else np.zeros((64, 32), dt)
        for arch in ("gfx90a", "gfx940"):
            asm = mm.inspect_amdgcn(a, a, c, arch=arch)
            assert len(re.findall(rf"v_mfma_f32_16x16x16_?{want}", asm)) >= 2, arch
        assert "v_mfma" not in mm.inspect_amdgcn(a, a, c, arch="gfx1030")


def test_sm80_dots_of_two_types_and_a_broadcast_product():
    """float16 and bfloat16 dots in one sm80 kernel (their fragments are
    separate variables); acc + x @ w with x of one row broadcasts the
    product (it is not folded into a dot over the accumulator's rows)."""
    @T.jit(num_warps=2, path="sm80")
    def mixed(a16, b16, abf, bbf, c):
        acc = T.zeros((16, 16), float32)
        acc = T.dot(T.load(a16, (0, 0), (16, 16)), T.load(b16, (0, 0), (16, 16)), acc)
        acc = T.dot(T.load(abf, (0, 0), (16, 16)), T.load(bbf, (0, 0), (16, 16)), acc)
        T.store(c, (0, 0), acc)

    @T.jit(num_warps=2)
    def bcast(a16, b16, c):
        x = T.load(a16, (0, 0), (1, 16))
        T.store(c, (0, 0), T.zeros((16, 16), float32) + x @ T.load(b16, (0, 0), (16, 16)))

    rng = np.random.default_rng(0)
    a, b = (rng.integers(-3, 4, (16, 16)).astype(np.float64) for _ in range(2))
    a16, b16 = cuda.to_device(a.astype(np.float16)), cuda.to_device(b.astype(np.float16))
    c = cuda.device_array((16, 16), np.float32)
    mixed[1](a16, b16, cuda.to_device(kjit.float32_to_bf16(a)), cuda.to_device(kjit.float32_to_bf16(b)), c)
    assert np.array_equal(c.copy_to_host(), 2 * a @ b)
    bcast[1](a16, b16, c)
    assert np.array_equal(c.copy_to_host(), np.broadcast_to(a[:1] @ b, (16, 16)))


def test_a_dot_the_sm80_path_cannot_take_is_a_located_error():
    @T.jit(path="sm80")
    def k(a, c):
        ta = T.load(a, (0, 0), (16, 16))
        T.store(c, (0, 0), T.dot(ta, ta))  # marker: float32 dot

    e = _compile_error(k, np.zeros((16, 16), np.float32), np.zeros((16, 16), np.float32))
    assert isinstance(e, errors.UnsupportedError) and "mma.sync m16n8k16" in e.msg and "float32" in e.msg
    assert e.filename == __file__ and e.lineno == _line(k.func, "marker: float32 dot")

    @T.jit(path="sm80")
    def k2(a, c):
        ta = T.load(a, (0, 0), (16, 24))
        T.store(c, (0, 0), ta @ T.trans(ta))  # marker: k 24

    e = _compile_error(k2, np.zeros((16, 24), np.float16), np.zeros((16, 16), np.float32))
    assert "multiples of 16" in e.msg and e.lineno == _line(k2.func, "marker: k 24")


def test_stores_are_seen_by_later_reads_and_warnings_name_the_users_line():
    import warnings

    @T.jit(num_warps=1)
    def k(a, b, s):
        T.store(b, (0,), T.load(a, (0,), (32,)))
        b[0] = b[31] * s  # marker: float64

    a = np.arange(32, dtype=np.float32)
    b = np.zeros(32, np.float32)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        k[1](a, b, np.float64(2.0))
    assert b[0] == 62 and np.array_equal(b[1:], a[1:])  # thread 0 reads what thread 31 stored
    # Warnings name the user's file, never the translation or kjit's own:
    # the float64 one the marked line, a launch's (the grid's occupancy, where
    # an earlier test turned that warning on) the launch. (An earlier test may
    # also have turned kjit's performance warnings off.)
    mine = [w for w in caught if issubclass(w.category, errors.PerformanceWarning)]
    for w in mine:
        assert w.filename == __file__, (w.filename, w.lineno, str(w.message))
        if "float64" in str(w.message):
            assert w.lineno == _line(k.func, "marker: float64"), (w.lineno, str(w.message))


def _bad_programs():
    """(kernel, what the message says): each misuse on the line marked `# <-`."""
    def indexed(a):
        x = T.load(a, (0, 0), (4, 4))
        a[0, 0] = x[0]  # <-

    def attribute(a):
        x = T.load(a, (0, 0), (4, 4))
        T.store(a, (0, 0), x.foo)  # <-

    def offsets(a):
        T.store(a, (0, 0), T.load(a, (0,), (4, 4)))  # <-

    def three_d(a):
        x = T.zeros((4, 4, 4))  # <-

    def returns(a):
        return T.load(a, (0, 0), (4, 4))  # <-

    def broadcast(a):
        T.store(a, (0, 0), T.load(a, (0, 0), (4, 4)) + T.load(a, (0, 0), (2, 4)))  # <-

    def with_block(a):
        with open("x"):  # <-
            pass

    def python_math(a):
        T.store(a, (0, 0), math.exp(T.load(a, (0, 0), (4, 4))))  # <-

    def axis(a):
        T.store(a, (0,), T.sum(T.load(a, (0, 0), (4, 4)), 3))  # <-

    def kind_changes(a):
        x = T.load(a, (0, 0), (4, 4))
        x = 3  # <-

    def tile_truth(a):
        x = T.load(a, (0, 0), (4, 4))
        T.store(a, (0, 0), x if x else x)  # <-

    def tuple_of_tiles(a):
        x, y = T.load(a, (0, 0), (4, 4)), 3  # <-

    def not_an_array(a):
        x = T.load(5, (0, 0), (4, 4))  # <-

    def bad_keyword(a):
        x = T.load(a, (0, 0), (4, 4), bogus=3)  # <-

    import math
    return [(f, None) for f in (indexed, attribute, offsets, three_d, returns, broadcast, with_block, python_math,
                                axis, kind_changes, tile_truth, tuple_of_tiles, not_an_array, bad_keyword)]


@pytest.mark.parametrize("func", [f for f, _ in _bad_programs()], ids=lambda f: f.__name__)
def test_misuse_is_a_located_error(func):
    with pytest.raises(errors.CompileError) as info:
        T.jit(func)[1](np.zeros((4, 4), np.float32))
    e = info.value
    assert e.filename == __file__ and e.lineno == _line(func, "# <-"), str(e)
