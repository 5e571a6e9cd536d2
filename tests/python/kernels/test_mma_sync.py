"""sm_80's register-level tensor-core operations: cuda.mma_sync (m16n8k16,
float16 or bfloat16 inputs, float32 accumulators, in PTX's fragment
layouts), cuda.ldmatrix (8x8 matrices of 16-bit values from shared memory,
optionally transposed) and cuda.cp_async (global to shared copies of 4, 8 or
16 bytes, with commit and wait). The same kernels on the CPU device, the
simulator and the GPU; the PTX assembles; misuse is a located error.

Fragment layouts (g = lane // 4, t = lane % 4):
  a[i] = A[g + 8 * ((i >> 1) & 1)][2t + (i & 1) + 8 * (i >> 2)]   (16 x 16)
  b[i] = B[2t + (i & 1) + 8 * (i >> 1)][g]                        (16 x 8)
  c[i] = C[g + 8 * (i >> 1)][2t + (i & 1)]                        (16 x 8)
"""
import re
import shutil

import pytest

from kjit import cuda, errors

from conftest import assemble

DEVICES = ["cpu", "sim"] + (["cuda"] if shutil.which("nvidia-smi") else [])

PROGRAM = r"""
import numpy as np, kjit
from kjit import cuda, float32

@cuda.jit
def by_layout(a, b, c, d):
    # fragments gathered straight from global memory by the layout formulas
    lane = cuda.laneid
    g = lane >> 2
    t = lane & 3
    fa = (a[g, 2 * t], a[g, 2 * t + 1], a[g + 8, 2 * t], a[g + 8, 2 * t + 1],
          a[g, 2 * t + 8], a[g, 2 * t + 9], a[g + 8, 2 * t + 8], a[g + 8, 2 * t + 9])
    fb = (b[2 * t, g], b[2 * t + 1, g], b[2 * t + 8, g], b[2 * t + 9, g])
    fc = (c[g, 2 * t], c[g, 2 * t + 1], c[g + 8, 2 * t], c[g + 8, 2 * t + 1])
    r = cuda.mma_sync("m16n8k16", fa, fb, fc)
    d[g, 2 * t] = r[0]
    d[g, 2 * t + 1] = r[1]
    d[g + 8, 2 * t] = r[2]
    d[g + 8, 2 * t + 1] = r[3]

@cuda.jit
def staged(a, b, d):
    # d (M x 8) = a (M x K) @ b (K x 8): tiles copied to shared memory with
    # cp_async, fragments read with ldmatrix (b transposed on the way)
    sa = cuda.shared.array((16, 16), a.dtype)
    sb = cuda.shared.array((16, 8), b.dtype)
    lane = cuda.laneid
    g = lane >> 2
    t = lane & 3
    m0 = cuda.blockIdx.x * 16
    acc = (float32(0), float32(0), float32(0), float32(0))
    for k0 in range(0, a.shape[1], 16):
        # 16 rows of 16 values: 32 copies of 8 values (16 bytes); b: 16 of 8
        cuda.cp_async(sa, (lane >> 1, (lane & 1) * 8), a, (m0 + (lane >> 1), k0 + (lane & 1) * 8), 16)
        if lane < 16:
            cuda.cp_async(sb, (lane, 0), b, (k0 + lane, 0), 16)
        cuda.cp_async_commit()
        cuda.cp_async_wait(0)
        cuda.syncwarp()
        fa = cuda.ldmatrix(sa, ((lane & 7) + 8 * ((lane >> 3) & 1), 8 * (lane >> 4)), 4)
        fb = cuda.ldmatrix(sb, ((lane & 7) + 8 * ((lane >> 3) & 1), 0), 2, True)
        acc = cuda.mma_sync("m16n8k16", fa, fb, acc)
        cuda.syncwarp()
    d[m0 + g, 2 * t] = acc[0]
    d[m0 + g, 2 * t + 1] = acc[1]
    d[m0 + g + 8, 2 * t] = acc[2]
    d[m0 + g + 8, 2 * t + 1] = acc[3]

@cuda.jit
def ldm(src, out, trans):
    s = cuda.shared.array((32, 8), src.dtype)
    lane = cuda.laneid
    for j in range(8):
        s[lane, j] = src[lane, j]
    cuda.syncwarp()
    if trans:
        r = cuda.ldmatrix(s, (lane, 0), 4, True)
    else:
        r = cuda.ldmatrix(s, (lane, 0), 4)
    for j in range(8):
        out[lane, j] = r[j]

rng = np.random.default_rng(11)
for name in ("float16", "bfloat16"):
    conv = (lambda x: x.astype(np.float16)) if name == "float16" else kjit.float32_to_bf16
    ai = rng.integers(-4, 5, (16, 16)).astype(np.float64)
    bi = rng.integers(-4, 5, (16, 8)).astype(np.float64)
    ci = rng.integers(-9, 9, (16, 8)).astype(np.float32)
    d = np.zeros((16, 8), np.float32)
    by_layout[1, 32](conv(ai), conv(bi), ci, d)
    assert np.array_equal(d, ai @ bi + ci), (name, d, ai @ bi + ci)
    M, K = 48, 64
    ai = rng.integers(-4, 5, (M, K)).astype(np.float64)
    bi = rng.integers(-4, 5, (K, 8)).astype(np.float64)
    d = np.zeros((M, 8), np.float32)
    staged[M // 16, 32](conv(ai), conv(bi), d)
    assert np.array_equal(d, ai @ bi), (name, np.abs(d - ai @ bi).max())

# ldmatrix: lane l of 32 supplies row l (matrix l // 8, row l % 8); lane gets,
# for each matrix j, M_j[g][2t], M_j[g][2t + 1] (transposed: M_j[2t][g] ...)
src = np.arange(256, dtype=np.int16).reshape(32, 8)
for trans in (False, True):
    out = np.zeros((32, 8), np.int16)
    ldm[1, 32](src, out, trans)
    for lane in range(32):
        g, t = lane >> 2, lane & 3
        for j in range(4):
            for e in range(2):
                r, c = (2 * t + e, g) if trans else (g, 2 * t + e)
                assert out[lane, 2 * j + e] == src[8 * j + r, c], (trans, lane, j, e)
print("mma_sync ok")
"""


@pytest.mark.parametrize("device", DEVICES)
def test_mma_sync_ldmatrix_cp_async(run_on_device, device):
    r = run_on_device(PROGRAM, device=device)
    assert "mma_sync ok" in r.stdout


def kernel(a, b, d):
    sa = cuda.shared.array((16, 16), a.dtype)
    lane = cuda.laneid
    cuda.cp_async(sa, (lane >> 1, (lane & 1) * 8), a, (lane >> 1, (lane & 1) * 8), 16)
    cuda.cp_async_commit()
    cuda.cp_async_wait(0)
    fa = cuda.ldmatrix(sa, (lane & 15, 8 * (lane >> 4)), 4)
    fb = (b[0, lane], b[1, lane], b[2, lane], b[3, lane])
    r = cuda.mma_sync("m16n8k16", fa, fb, (d[0, lane], d[1, lane], d[2, lane], d[3, lane]))
    d[0, lane] = r[0]


@pytest.mark.parametrize("dtype,cc", [("float16", (8, 0)), ("bfloat16", (8, 0)), ("float16", (8, 9)),
                                      ("bfloat16", (9, 0))])
def test_ptx_assembles(tmp_path, dtype, cc):
    sig = f"void({dtype}[:, ::1], {dtype}[:, ::1], float32[:, ::1])"
    ptx, _ = cuda.compile_ptx(kernel, sig, cc=cc)
    t = "bf16" if dtype == "bfloat16" else "f16"
    assert f"mma.sync.aligned.m16n8k16.row.col.f32.{t}.{t}.f32" in ptx
    assert re.search(r"ldmatrix\.sync\.aligned\.m8n8\.x4(\.shared)?\.b16", ptx)
    assert re.search(r"cp\.async\.cg\.shared\.global \[", ptx)
    assert "cp.async.commit_group" in ptx and "cp.async.wait_group 0" in ptx
    assemble(ptx, tmp_path, arch=f"sm_{cc[0]}{cc[1]}")


def compile_error(fn, sig, cc=(8, 0)):
    with pytest.raises(errors.TypingError) as e:
        cuda.compile_ptx(fn, sig, cc=cc)
    assert "test_mma_sync.py" in str(e.value), str(e.value)
    return str(e.value)


def test_sm75_is_refused_where_llvm_would_abort():
    # (LLVM's NVPTX back end cannot select cp.async below sm_80: kjit refuses it first)
    msg = compile_error(kernel, "void(float16[:, ::1], float16[:, ::1], float32[:, ::1])", cc=(7, 5))
    assert "cuda.cp_async() needs sm_80 or newer; this kernel is compiled for sm_75" in msg


def test_misuse_is_located():
    def shape(a, d):
        x = a[0]
        d[0] = cuda.mma_sync("m16n8k8", (x, x, x, x, x, x, x, x), (x, x, x, x), (0.0, 0.0, 0.0, 0.0))[0]

    assert 'the shape is the constant "m16n8k16"' in compile_error(shape, "void(float16[::1], float32[::1])")

    def short_b(a, d):
        x = a[0]
        d[0] = cuda.mma_sync("m16n8k16", (x, x, x, x, x, x, x, x), (x, x, x), (0.0, 0.0, 0.0, 0.0))[0]

    assert "b is a tuple of 4 values" in compile_error(short_b, "void(float16[::1], float32[::1])")

    def mixed(a, b, d):
        x, y = a[0], b[0]
        d[0] = cuda.mma_sync("m16n8k16", (x, x, x, x, x, x, x, x), (y, y, y, y), (0.0, 0.0, 0.0, 0.0))[0]

    assert "b holds float16 values, not bfloat16" in compile_error(
        mixed, "void(float16[::1], bfloat16[::1], float32[::1])")

    def float32_inputs(a, d):
        x = a[0]
        d[0] = cuda.mma_sync("m16n8k16", (x, x, x, x, x, x, x, x), (x, x, x, x), (0.0, 0.0, 0.0, 0.0))[0]

    assert "a is a tuple of 8 float16 or bfloat16 values" in compile_error(
        float32_inputs, "void(float32[::1], float32[::1])")

    def ldm_num(s, d):
        r = cuda.ldmatrix(s, (0, 0), 3)

    assert "the number of 8x8 matrices is the constant 1, 2 or 4" in compile_error(
        ldm_num, "void(float16[:, ::1], float32[::1])")

    def ldm_float32(s, d):
        r = cuda.ldmatrix(s, (0, 0), 4)

    assert "of a 16-bit type" in compile_error(ldm_float32, "void(float32[:, ::1], float32[::1])")

    def copy_size(s, d):
        cuda.cp_async(s, (0,), d, (0,), 12)

    assert "the size is the constant 4, 8 or 16" in compile_error(copy_size, "void(float32[::1], float32[::1])")

    def wait_n(s, d):
        cuda.cp_async_wait(9)

    assert "n is a constant from 0 to 7" in compile_error(wait_n, "void(float32[::1], float32[::1])")
