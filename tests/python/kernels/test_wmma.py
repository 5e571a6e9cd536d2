"""cuda.wmma: warp-wide 16x16x16 matrix products on tensor cores (float16 or
bfloat16 inputs, float32 accumulators), the same kernels on the CPU device,
the simulator and the GPU; the PTX assembles for each architecture claimed,
and misuse is a located error.

    a = cuda.wmma.load_matrix_sync("a", (16, 16, 16), ary, (row, col), "row")
    acc = cuda.wmma.fill_fragment((16, 16, 16), float32, 0.0)
    acc = cuda.wmma.mma_sync(a, b, acc)
    cuda.wmma.store_matrix_sync(out, (row, col), acc, "row")

A matrix is the 16x16 block of a 2-d C-contiguous array at (row, col);
"col" reads the block as the transpose of the matrix (the matrix stored
column by column).
"""
import re
import shutil

import pytest

from kjit import cuda, errors, float32

from conftest import assemble

DEVICES = ["cpu", "sim"] + (["cuda"] if shutil.which("nvidia-smi") else [])

PROGRAM = r"""
import numpy as np, kjit
from kjit import cuda, float32

@cuda.jit
def gemm(a, b, c):
    # one warp computes one 16x16 tile of c = a @ b
    tm = cuda.blockIdx.x * 16
    tn = cuda.blockIdx.y * 16
    acc = cuda.wmma.fill_fragment((16, 16, 16), float32, 0.0)
    for k in range(0, a.shape[1], 16):
        fa = cuda.wmma.load_matrix_sync("a", (16, 16, 16), a, (tm, k), "row")
        fb = cuda.wmma.load_matrix_sync("b", (16, 16, 16), b, (k, tn), "row")
        acc = cuda.wmma.mma_sync(fa, fb, acc)
    cuda.wmma.store_matrix_sync(c, (tm, tn), acc, "row")

@cuda.jit
def gemm_bt(a, bt, c_t, bias):
    # b given transposed ("col"), c written transposed, the accumulator
    # starting from c's old values
    tm = cuda.blockIdx.x * 16
    tn = cuda.blockIdx.y * 16
    acc = cuda.wmma.load_matrix_sync("accumulator", (16, 16, 16), bias, (tm, tn), "row")
    for k in range(0, a.shape[1], 16):
        fa = cuda.wmma.load_matrix_sync("a", (16, 16, 16), a, (tm, k), "row")
        fb = cuda.wmma.load_matrix_sync("b", (16, 16, 16), bt, (tn, k), "col")
        acc = cuda.wmma.mma_sync(fa, fb, acc)
    cuda.wmma.store_matrix_sync(c_t, (tn, tm), acc, "col")

@cuda.jit
def from_shared(a, b, total):
    # operands staged in shared memory; the accumulator's elements read one by
    # one: whichever lane holds which element, together they hold all 256
    sa = cuda.shared.array((16, 16), a.dtype)
    sb = cuda.shared.array((16, 16), b.dtype)
    t = cuda.threadIdx.x
    for i in range(t, 256, 32):
        sa[i // 16, i % 16] = a[i // 16, i % 16]
        sb[i // 16, i % 16] = b[i // 16, i % 16]
    cuda.syncthreads()
    acc = cuda.wmma.fill_fragment((16, 16, 16), float32, 0.5)
    acc = cuda.wmma.mma_sync(cuda.wmma.load_matrix_sync("a", (16, 16, 16), sa, (0, 0), "row"),
                             cuda.wmma.load_matrix_sync("b", (16, 16, 16), sb, (0, 0), "row"), acc)
    s = float32(0)
    for i in range(len(acc)):
        s += acc[i]
    cuda.atomic.add(total, 0, s)

rng = np.random.default_rng(7)
M, N, K = 64, 48, 96
for name in ("float16", "bfloat16"):
    ai = rng.integers(-4, 5, (M, K)).astype(np.float64)
    bi = rng.integers(-4, 5, (K, N)).astype(np.float64)
    if name == "float16":
        a, b, bt = ai.astype(np.float16), bi.astype(np.float16), np.ascontiguousarray(bi.T).astype(np.float16)
    else:
        a, b, bt = kjit.float32_to_bf16(ai), kjit.float32_to_bf16(bi), kjit.float32_to_bf16(np.ascontiguousarray(bi.T))
    want = ai @ bi                     # integers: exact in float32, on every device
    c = np.zeros((M, N), np.float32)
    gemm[(M // 16, N // 16), 32](a, b, c)
    assert np.array_equal(c, want), (name, np.abs(c - want).max())
    bias = rng.integers(-9, 9, (M, N)).astype(np.float32)
    c_t = np.zeros((N, M), np.float32)
    gemm_bt[(M // 16, N // 16), 32](a, bt, c_t, bias)
    assert np.array_equal(c_t, (want + bias).T), name
    total = np.zeros(1, np.float32)
    from_shared[1, 32](a[:16, :16].copy(), b[:16, :16].copy(), total)
    assert total[0] == (ai[:16, :16] @ bi[:16, :16]).sum() + 128, (name, total[0])

# random values: float32 accumulation, within rounding of a float64 product
x = rng.standard_normal((32, 64))
y = rng.standard_normal((64, 32))
c = np.zeros((32, 32), np.float32)
gemm[(2, 2), 32](x.astype(np.float16), y.astype(np.float16), c)
ref = x.astype(np.float16).astype(np.float64) @ y.astype(np.float16).astype(np.float64)
assert np.abs(c - ref).max() <= 1e-4 * np.abs(x).max() * np.abs(y).max() * 64, np.abs(c - ref).max()
print("wmma ok")
"""


@pytest.mark.parametrize("device", DEVICES)
def test_wmma_gemms(run_on_device, device):
    r = run_on_device(PROGRAM, device=device)
    assert "wmma ok" in r.stdout


def gemm_kernel(a, b, c):
    acc = cuda.wmma.fill_fragment((16, 16, 16), float32, 0.0)
    fa = cuda.wmma.load_matrix_sync("a", (16, 16, 16), a, (0, 0), "row")
    fb = cuda.wmma.load_matrix_sync("b", (16, 16, 16), b, (0, 0), "col")
    acc = cuda.wmma.mma_sync(fa, fb, acc)
    cuda.wmma.store_matrix_sync(c, (0, 0), acc, "row")


@pytest.mark.parametrize("dtype,cc", [("float16", (7, 5)), ("float16", (8, 0)), ("bfloat16", (8, 0)),
                                      ("float16", (9, 0)), ("bfloat16", (9, 0))])
def test_ptx_assembles(tmp_path, dtype, cc):
    sig = f"void({dtype}[:, ::1], {dtype}[:, ::1], float32[:, ::1])"
    ptx, _ = cuda.compile_ptx(gemm_kernel, sig, cc=cc)
    t = "bf16" if dtype == "bfloat16" else "f16"
    ops = set(re.findall(r"wmma\.[\w.]+", ptx))
    assert f"wmma.load.a.sync.aligned.row.m16n16k16.{t}" in ops, ops
    assert f"wmma.load.b.sync.aligned.col.m16n16k16.{t}" in ops, ops
    mma = "wmma.mma.sync.aligned.row.col.m16n16k16.f32" + (".bf16.bf16.f32" if t == "bf16" else ".f32")
    assert mma in ops and "wmma.store.d.sync.aligned.row.m16n16k16.f32" in ops, ops
    assemble(ptx, tmp_path, arch=f"sm_{cc[0]}{cc[1]}")


def compile_error(fn, sig, cc=(8, 0)):
    with pytest.raises(errors.TypingError) as e:
        cuda.compile_ptx(fn, sig, cc=cc)
    assert "test_wmma.py" in str(e.value), str(e.value)
    return str(e.value)


def test_bfloat16_needs_sm80():
    msg = compile_error(gemm_kernel, "void(bfloat16[:, ::1], bfloat16[:, ::1], float32[:, ::1])", cc=(7, 5))
    assert "with bfloat16 needs sm_80 or newer; this kernel is compiled for sm_75" in msg


def test_misuse_is_located():
    def wrong_shape(a, c):
        fa = cuda.wmma.load_matrix_sync("a", (32, 8, 16), a, (0, 0), "row")

    assert "the shape must be the constant (16, 16, 16)" in compile_error(
        wrong_shape, "void(float16[:, ::1], float32[:, ::1])")

    def wrong_layout(a, c):
        fa = cuda.wmma.load_matrix_sync("a", (16, 16, 16), a, (0, 0), "diagonal")

    assert 'the layout is the constant "row" or "col"' in compile_error(
        wrong_layout, "void(float16[:, ::1], float32[:, ::1])")

    def swapped(a, b, c):
        fa = cuda.wmma.load_matrix_sync("a", (16, 16, 16), a, (0, 0), "row")
        fb = cuda.wmma.load_matrix_sync("b", (16, 16, 16), b, (0, 0), "row")
        acc = cuda.wmma.fill_fragment((16, 16, 16), float32, 0.0)
        acc = cuda.wmma.mma_sync(fb, fa, acc)

    assert "argument 1 must be a matrix_a fragment, not wmma.matrix_b[16x16x16,float16,row]" in compile_error(
        swapped, "void(float16[:, ::1], float16[:, ::1], float32[:, ::1])")

    def mixed(a, b, c):
        fa = cuda.wmma.load_matrix_sync("a", (16, 16, 16), a, (0, 0), "row")
        fb = cuda.wmma.load_matrix_sync("b", (16, 16, 16), b, (0, 0), "row")
        acc = cuda.wmma.fill_fragment((16, 16, 16), float32, 0.0)
        acc = cuda.wmma.mma_sync(fa, fb, acc)

    assert "a and b must have one element type (float16 and bfloat16 given)" in compile_error(
        mixed, "void(float16[:, ::1], bfloat16[:, ::1], float32[:, ::1])")

    def strided(a, c):
        fa = cuda.wmma.load_matrix_sync("a", (16, 16, 16), a, (0, 0), "row")

    assert "the matrix is a 2-d C-contiguous array" in compile_error(strided, "void(float16[:, :], float32[:, ::1])")

    def float32_inputs(a, c):
        fa = cuda.wmma.load_matrix_sync("a", (16, 16, 16), a, (0, 0), "row")

    assert "a and b fragments are float16 or bfloat16, not float32" in compile_error(
        float32_inputs, "void(float32[:, ::1], float32[:, ::1])")

    def store_a(a, c):
        fa = cuda.wmma.load_matrix_sync("a", (16, 16, 16), a, (0, 0), "row")
        cuda.wmma.store_matrix_sync(c, (0, 0), fa, "row")

    assert "stores an accumulator fragment" in compile_error(store_a, "void(float16[:, ::1], float32[:, ::1])")
