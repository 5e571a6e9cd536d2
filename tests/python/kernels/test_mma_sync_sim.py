"""cuda.mma_sync, cuda.ldmatrix and cuda.cp_async in the CUDA simulator
(KJIT_ENABLE_CUDASIM=1): the PTX instructions mma.sync.aligned.m16n8k16,
ldmatrix.sync.aligned.m8n8 and cp.async, each lane holding its part of the
warp's fragments as PTX lays them out (g = lane >> 2, t = lane & 3):

    d = cuda.mma_sync("m16n8k16", a, b, c)   # a: 8 float16/bfloat16, b: 4, c and d: 4 float32
    r = cuda.ldmatrix(smem, (row, col), 4, trans=False)
    cuda.cp_async(dst, (i, j), src, (k, l), 16); cuda.cp_async_commit(); cuda.cp_async_wait(0)

Each program builds the fragments from arrays by the layout formulas and
checks what comes back against NumPy (integer-valued data: exact in
float32). Kept small: the simulator runs every GPU thread in Python."""
import numpy as np
import pytest

from kjit.cuda.simulator import mma_sim

# The fragment layouts as device functions: element i of lane l's a, b and c.
LAYOUTS = """
import numpy as np, kjit
from kjit import cuda, float32

@cuda.jit(device=True)
def a_at(a, lane, i):
    return a[(lane >> 2) + 8 * ((i >> 1) & 1), 2 * (lane & 3) + (i & 1) + 8 * (i >> 2)]

@cuda.jit(device=True)
def b_at(b, lane, i):
    return b[2 * (lane & 3) + (i & 1) + 8 * (i >> 1), lane >> 2]

@cuda.jit(device=True)
def c_row(lane, i):
    return (lane >> 2) + 8 * (i >> 1)

@cuda.jit(device=True)
def c_col(lane, i):
    return 2 * (lane & 3) + (i & 1)

@cuda.jit(device=True)
def mma_tile(a, b, c, lane):
    fa = (a_at(a, lane, 0), a_at(a, lane, 1), a_at(a, lane, 2), a_at(a, lane, 3),
          a_at(a, lane, 4), a_at(a, lane, 5), a_at(a, lane, 6), a_at(a, lane, 7))
    fb = (b_at(b, lane, 0), b_at(b, lane, 1), b_at(b, lane, 2), b_at(b, lane, 3))
    return cuda.mma_sync("m16n8k16", fa, fb, c)
"""

MMA = LAYOUTS + """
@cuda.jit
def mma(a, b, c, d):
    # one warp: d = a @ b + c for a 16x16 a, a 16x8 b and c
    lane = cuda.threadIdx.x
    fc = (c[c_row(lane, 0), c_col(lane, 0)], c[c_row(lane, 1), c_col(lane, 1)],
          c[c_row(lane, 2), c_col(lane, 2)], c[c_row(lane, 3), c_col(lane, 3)])
    r = mma_tile(a, b, fc, lane)
    for i in range(4):
        d[c_row(lane, i), c_col(lane, i)] = r[i]

@cuda.jit
def gemm(a, b, d):
    # one warp per 16x8 tile of d = a @ b, k in steps of 16
    lane = cuda.threadIdx.x
    tm = cuda.blockIdx.x * 16
    tn = cuda.blockIdx.y * 8
    acc = (float32(0), float32(0), float32(0), float32(0))
    for k in range(0, a.shape[1], 16):
        acc = mma_tile(a[tm:tm + 16, k:k + 16], b[k:k + 16, tn:tn + 8], acc, lane)
    for i in range(4):
        d[tm + c_row(lane, i), tn + c_col(lane, i)] = acc[i]

rng = np.random.default_rng(5)
for name in ("float16", "bfloat16"):
    conv = (lambda x: x.astype(np.float16)) if name == "float16" else kjit.float32_to_bf16
    ai = rng.integers(-4, 5, (16, 16)).astype(np.float64)
    bi = rng.integers(-4, 5, (16, 8)).astype(np.float64)
    ci = rng.integers(-9, 10, (16, 8)).astype(np.float32)
    d = np.zeros((16, 8), np.float32)
    mma[1, 32](conv(ai), conv(bi), ci, d)
    assert np.array_equal(d, ai @ bi + ci), (name, d, ai @ bi + ci)

    ai = rng.integers(-3, 4, (32, 32)).astype(np.float64)
    bi = rng.integers(-3, 4, (32, 16)).astype(np.float64)
    d = np.zeros((32, 16), np.float32)
    gemm[(2, 2), 32](conv(ai), conv(bi), d)
    assert np.array_equal(d, ai @ bi), (name, d - ai @ bi)
print("mma ok")
"""


def test_mma_sync(run_on_device):
    assert "mma ok" in run_on_device(MMA, device="sim").stdout


LDMATRIX = """
import numpy as np
from kjit import cuda, float16

# Matrix j (of 4) is the 8x8 block of the 16x16 shared array at rows
# 8 * (j & 1), columns 8 * (j >> 1); lane l supplies row l & 7 of matrix l >> 3.

@cuda.jit(device=True)
def fill(s, src):
    for e in range(cuda.threadIdx.x, 256, 32):
        s[e // 16, e % 16] = src[e // 16, e % 16]
    cuda.syncthreads()

@cuda.jit(device=True)
def row_of(lane):
    j = lane >> 3
    return 8 * (j & 1) + (lane & 7), 8 * (j >> 1)

@cuda.jit
def x1(src, out):
    s = cuda.shared.array((16, 16), float16)
    fill(s, src)
    r = cuda.ldmatrix(s, row_of(cuda.threadIdx.x), 1)
    for i in range(2):
        out[cuda.threadIdx.x, i] = r[i]

@cuda.jit
def x2(src, out):
    s = cuda.shared.array((16, 16), float16)
    fill(s, src)
    r = cuda.ldmatrix(s, row_of(cuda.threadIdx.x), 2)
    for i in range(4):
        out[cuda.threadIdx.x, i] = r[i]

@cuda.jit
def x4(src, out):
    s = cuda.shared.array((16, 16), float16)
    fill(s, src)
    r = cuda.ldmatrix(s, row_of(cuda.threadIdx.x), 4)
    for i in range(8):
        out[cuda.threadIdx.x, i] = r[i]

@cuda.jit
def x4_trans(src, out):
    s = cuda.shared.array((16, 16), float16)
    fill(s, src)
    r = cuda.ldmatrix(s, row_of(cuda.threadIdx.x), 4, trans=True)
    for i in range(8):
        out[cuda.threadIdx.x, i] = r[i]

src = np.arange(256, dtype=np.float16).reshape(16, 16)  # distinct values
for kernel, num, trans in ((x1, 1, False), (x2, 2, False), (x4, 4, False), (x4_trans, 4, True)):
    out = np.full((32, 8), -1, np.float16)
    kernel[1, 32](src, out)
    for lane in range(32):
        g, t = lane >> 2, lane & 3
        want = []
        for j in range(num):
            m = src[8 * (j & 1):8 * (j & 1) + 8, 8 * (j >> 1):8 * (j >> 1) + 8]
            want += [m[2 * t, g], m[2 * t + 1, g]] if trans else [m[g, 2 * t], m[g, 2 * t + 1]]
        assert out[lane, :2 * num].tolist() == want, (kernel, lane, out[lane], want)
        assert (out[lane, 2 * num:] == -1).all()
print("ldmatrix ok")
"""


def test_ldmatrix(run_on_device):
    assert "ldmatrix ok" in run_on_device(LDMATRIX, device="sim").stdout


CP_ASYNC = """
import numpy as np
from kjit import cuda, float16

@cuda.jit
def copy(src, out):
    # 16 bytes (8 float16) from src[1, 4] onward into s[2, 8] onward, then back out
    s = cuda.shared.array((4, 16), float16)
    t = cuda.threadIdx.x
    for e in range(t, 64, 32):
        s[e // 16, e % 16] = -1
    cuda.syncthreads()
    if t == 0:
        cuda.cp_async(s, (2, 8), src, (1, 4), 16)
    cuda.cp_async_commit()
    cuda.cp_async_wait(0)
    cuda.syncthreads()
    for e in range(t, 64, 32):
        out[e // 16, e % 16] = s[e // 16, e % 16]

src = np.arange(48, dtype=np.float16).reshape(3, 16)
out = np.zeros((4, 16), np.float16)
copy[1, 32](src, out)
want = np.full((4, 16), -1, np.float16)
want[2, 8:16] = src[1, 4:12]
assert np.array_equal(out, want), out
print("cp_async ok")
"""


def test_cp_async(run_on_device):
    assert "cp_async ok" in run_on_device(CP_ASYNC, device="sim").stdout


def test_mma_step_rounds_the_exact_sum_once():
    # 2**30 + 2**6 + 2**-24 is above the tie between two float32 neighbours;
    # float64 drops the 2**-24, and rounding that to float32 would go to even
    acc = np.array([2.0 ** 30])
    prod = np.array([2.0 ** 6 + 2.0 ** -24])
    assert mma_sim._fma_f32(acc, prod)[0] == 2.0 ** 30 + 2.0 ** 7
    assert mma_sim._fma_f32(acc, np.array([2.0 ** 6]))[0] == 2.0 ** 30  # an exact tie: to even
