"""Hopper's asynchronous operations (sm_90a): mbarriers, TMA tensor copies
(cuda.make_tensor_map, cuda.tma.load/store), wgmma (cuda.wgmma.*) and
setmaxnreg, as the warp-specialised GEMM of examples/gemm_hopper.py uses
them. The same programs on the CPU device, the simulator and (where there
is one) the GPU; the PTX targets sm_90a and assembles with no performance
warning from ptxas; misuse and other GPUs are located errors.
"""
import os
import re
import shutil
import subprocess

import pytest

from kjit import cuda, errors, uint64

from conftest import ROOT, assemble, find_ptxas

DEVICES = ["cpu", "sim"] + (["cuda"] if shutil.which("nvidia-smi") else [])
EXAMPLES = os.path.join(ROOT, "examples")

GEMM = "EXAMPLES = " + repr(EXAMPLES) + "\n" + r'''import sys; sys.path.insert(0, EXAMPLES)
import numpy as np, kjit
from kjit import cuda, uint64, float32, int32
import gemm_hopper as g

rng = np.random.default_rng(1)
M, N, K = 128, 256, 384     # 6 k tiles through 4 buffers
ai = rng.integers(-3, 4, (M, K)).astype(np.float64)
bi = rng.integers(-3, 4, (N, K)).astype(np.float64)
for conv, dt in ((lambda x: x.astype(np.float16), kjit.float16), (kjit.float32_to_bf16, kjit.bfloat16)):
    a, b = cuda.to_device(conv(ai)), cuda.to_device(conv(bi))
    c = cuda.device_array((M, N), np.float32)
    g.matmul(a, b, c, dt)
    assert np.array_equal(c.copy_to_host(), ai @ bi.T), dt
# the persistent kernel: 3 blocks walk 4 tiles (one takes two), the buffer
# ring's phases carried from tile to tile
M, N, K = 256, 512, 256
ai = rng.integers(-3, 4, (M, K)).astype(np.float64)
bi = rng.integers(-3, 4, (N, K)).astype(np.float64)
a, b = cuda.to_device(kjit.float32_to_bf16(ai)), cuda.to_device(kjit.float32_to_bf16(bi))
c = cuda.device_array((M, N), np.float32)
g.matmul(a, b, c, kjit.bfloat16, blocks=3)
assert np.array_equal(c.copy_to_host(), ai @ bi.T)
# K not a multiple of 64 (TMA reads zeros past it), and the fused bias + ReLU
# epilogue of the persistent kernel, c = max(a @ b.T + bias, 0)
M, N, K = 130, 300, 200
ai = rng.integers(-3, 4, (M, K)).astype(np.float64)
bi = rng.integers(-3, 4, (N, K)).astype(np.float64)
bias = rng.integers(-40, 40, N).astype(np.float32)
a, b = cuda.to_device(kjit.float32_to_bf16(ai)), cuda.to_device(kjit.float32_to_bf16(bi))
c = cuda.device_array((M, N), np.float32)
g.matmul(a, b, c, kjit.bfloat16)
assert np.array_equal(c.copy_to_host(), ai @ bi.T)
g.matmul(a, b, c, kjit.bfloat16, blocks=2, bias=cuda.to_device(bias))
assert np.array_equal(c.copy_to_host(), np.maximum(ai @ bi.T + bias, 0))
# ragged: M and N not multiples of the tile (TMA reads zeros outside, the
# store writes inside only), bfloat16 output (pairs of values stored at once)
M, N, K = 100, 200, 128
ai = rng.integers(-3, 4, (M, K)).astype(np.float64)
bi = rng.integers(-3, 4, (N, K)).astype(np.float64)
a, b = cuda.to_device(kjit.float32_to_bf16(ai)), cuda.to_device(kjit.float32_to_bf16(bi))
c = cuda.to_device(kjit.float32_to_bf16(np.full((M + 1, N + 3), 7.0)))
g.matmul(a, b, c[:M, :N], kjit.bfloat16)
got = kjit.bf16_to_float32(c.copy_to_host())
assert np.array_equal(got[:M, :N], kjit.bf16_to_float32(kjit.float32_to_bf16(ai @ bi.T)))
assert (got[M:] == 7).all() and (got[:, N:] == 7).all()
# the TMA-store epilogue (tiles staged in shared memory, stored by the copy
# engine, the store of one tile overlapping the next tile's products): 2
# blocks walk 6 tiles, M and N ragged (the store writes inside c only)
M, N, K = 300, 304, 192
ai = rng.integers(-3, 4, (M, K)).astype(np.float64)
bi = rng.integers(-3, 4, (N, K)).astype(np.float64)
a, b = cuda.to_device(kjit.float32_to_bf16(ai)), cuda.to_device(kjit.float32_to_bf16(bi))
c = cuda.to_device(kjit.float32_to_bf16(np.full((M, N), 7.0)))
g.matmul(a, b, c, kjit.bfloat16, blocks=2, tma_epilogue=True)
got = kjit.bf16_to_float32(c.copy_to_host())
assert np.array_equal(got, kjit.bf16_to_float32(kjit.float32_to_bf16(ai @ bi.T)))
# 8-bit floats (k32 products, buffers of 128 values in k), e4m3 and e5m2
M, N, K = 128, 256, 384
for name in ("float8_e4m3fn", "float8_e5m2"):
    ai = rng.integers(-4, 5, (M, K)).astype(np.float64)
    bi = rng.integers(-4, 5, (N, K)).astype(np.float64)
    a, b = cuda.to_device(kjit.to_float8(ai, name)), cuda.to_device(kjit.to_float8(bi, name))
    c = cuda.device_array((M, N), np.float32)
    g.matmul(a, b, c, getattr(kjit, name))
    assert np.array_equal(c.copy_to_host(), ai @ bi.T), name
print("pipeline ok")

'''

TMA = "EXAMPLES = " + repr(EXAMPLES) + "\n" + r'''import sys; sys.path.insert(0, EXAMPLES)
import numpy as np, kjit
from kjit import cuda, uint64, float32, int32
import gemm_hopper as g

@cuda.jit
def tma_roundtrip(tm, out_map, raw, coords):
    tile = cuda.shared.array((16, 64), kjit.float16)
    bars = cuda.shared.array(1, uint64)
    if cuda.threadIdx.x == 0:
        cuda.mbarrier.init(bars, 0, 1)
        cuda.fence_mbarrier_init()
        cuda.mbarrier.arrive_expect_tx(bars, 0, 16 * 64 * 2)
        cuda.tma.load(tile, tm, (coords[0], coords[1]), bars, 0)
    cuda.syncthreads()
    cuda.mbarrier.wait(bars, 0, 0)
    for i in range(cuda.threadIdx.x, 16 * 64, cuda.blockDim.x):
        raw[i // 64, i % 64] = tile[i // 64, i % 64]
    cuda.syncthreads()
    if cuda.threadIdx.x == 0:
        cuda.fence_proxy_async()
        cuda.tma.store(out_map, (coords[0], coords[1]), tile)
        cuda.tma.commit_group()
        cuda.tma.wait_group(0)

src = np.arange(40 * 100, dtype=np.float16).reshape(40, 100)
# a row of 100 float16 = 200 bytes is not a multiple of 16: pad to 104
big = np.zeros((40, 104), np.float16); big[:, :100] = src
d = cuda.to_device(big)
dst = cuda.to_device(np.full((40, 104), -1, np.float16))
for swz in (0, 128):
    tm = cuda.make_tensor_map(d, (16, 64), swizzle=swz)
    om = cuda.make_tensor_map(dst, (16, 64), swizzle=swz)
    raw = np.zeros((16, 64), np.float16)
    # (the innermost coordinate, 56 values, is 112 bytes: a multiple of 16, as TMA needs)
    tma_roundtrip[1, 64](tm, om, raw, np.array([30, 56], np.int64))
    # the model: the box (rows 30..45, cols 56..119), zeros outside 40 x 104, swizzled by 16-byte chunks
    box = np.zeros((16, 64), np.float16)
    box[:10, :48] = big[30:40, 56:104]
    flat = box.reshape(-1).view(np.uint8)
    off = np.arange(flat.size)
    phys = off ^ (((off >> 7) & 7) << 4) if swz else off
    want = np.empty_like(flat); want[phys] = flat
    assert np.array_equal(raw.reshape(-1).view(np.uint8), want), swz
    back = dst.copy_to_host()
    assert np.array_equal(back[30:40, 56:104], big[30:40, 56:104]) and (back[:30] == -1).all()
    assert (back[30:40, :56] == -1).all()
print("tma ok")

'''

MBARRIER = "EXAMPLES = " + repr(EXAMPLES) + "\n" + r'''import sys; sys.path.insert(0, EXAMPLES)
import numpy as np, kjit
from kjit import cuda, uint64, float32, int32
import gemm_hopper as g

@cuda.jit
def stuck(out):
    bars = cuda.shared.array(1, uint64)
    if cuda.threadIdx.x == 0:
        cuda.mbarrier.init(bars, 0, 2)
        cuda.mbarrier.arrive(bars, 0)
    cuda.syncthreads()
    cuda.mbarrier.wait(bars, 0, 0)
    out[0] = 1
try:
    stuck[1, 32](np.zeros(1, np.int32))
    raise AssertionError("a wait no arrival can end returned")
except AssertionError:
    raise
except Exception as e:
    msg = str(e)
    import os
    assert "mbarrier.wait()" in msg and "a GPU would hang" in msg and os.path.basename(__file__) in msg, msg

# try_wait and phases: two phases of a barrier of 32 arrivals
@cuda.jit
def phases(out):
    bars = cuda.shared.array(1, uint64)
    t = cuda.threadIdx.x
    if t == 0:
        cuda.mbarrier.init(bars, 0, 32)
    cuda.syncthreads()
    out[0, t] = cuda.mbarrier.try_wait(bars, 0, 0)   # nobody has arrived: phase 0 is open
    cuda.syncthreads()
    cuda.mbarrier.arrive(bars, 0)
    cuda.mbarrier.wait(bars, 0, 0)                   # all 32 arrived: phase 0 complete
    out[1, t] = cuda.mbarrier.try_wait(bars, 0, 0)
    out[2, t] = cuda.mbarrier.try_wait(bars, 0, 1)   # phase 1 is open
    cuda.syncthreads()
    cuda.mbarrier.arrive(bars, 0)
    cuda.mbarrier.wait(bars, 0, 1)
    out[3, t] = cuda.mbarrier.try_wait(bars, 0, 1)

o = np.zeros((4, 32), np.int32)
phases[1, 32](o)
assert (o[0] == 0).all() and (o[1] == 1).all() and (o[2] == 0).all() and (o[3] == 1).all(), o
print("hopper ok")
'''


@pytest.mark.parametrize("device", DEVICES)
def test_gemm_pipeline(run_on_device, device):
    # examples/gemm_hopper.py's kernels (a block per tile, and persistent) against NumPy
    r = run_on_device(GEMM, device=device, timeout=900)
    assert "pipeline ok" in r.stdout


@pytest.mark.parametrize("device", DEVICES)
def test_tma_copies(run_on_device, device):
    # a box partly outside the array: zeros read, nothing written outside; both swizzles
    r = run_on_device(TMA, device=device, timeout=900)
    assert "tma ok" in r.stdout


@pytest.mark.parametrize("device", ["cpu", "sim"])  # (a wait nothing ends hangs a GPU)
def test_mbarrier_phases_and_deadlock(run_on_device, device):
    r = run_on_device(MBARRIER, device=device, timeout=900)
    assert "hopper ok" in r.stdout


ERRORS = r'''
import numpy as np, kjit
from kjit import cuda, uint64

@cuda.jit
def small_tile(out):
    # wgmma reads 64 rows of 64 values: a 32-row tile is too small
    sa = cuda.shared.array((32, 64), kjit.float16)
    sb = cuda.shared.array((64, 64), kjit.float16)
    acc = cuda.wgmma.mma_async(cuda.wgmma.zeros(64), sa, sb, 0)
    out[0] = acc[0]

@cuda.jit
def big_box(tm, out):
    tile = cuda.shared.array((8, 64), kjit.float16)   # 1 KB; the box is 16 x 64 (2 KB)
    bars = cuda.shared.array(1, uint64)
    if cuda.threadIdx.x == 0:
        cuda.mbarrier.init(bars, 0, 1)
        cuda.mbarrier.arrive_expect_tx(bars, 0, 2048)
        cuda.tma.load(tile, tm, (0, 0), bars, 0)
    cuda.syncthreads()
    cuda.mbarrier.wait(bars, 0, 0)
    out[0] = tile[0, 0]

@cuda.jit
def misaligned(tm, out):
    tile = cuda.shared.array((16, 64), kjit.float16)
    bars = cuda.shared.array(1, uint64)
    if cuda.threadIdx.x == 0:
        cuda.mbarrier.init(bars, 0, 1)
        cuda.mbarrier.arrive_expect_tx(bars, 0, 2048)
        cuda.tma.load(tile, tm, (0, 4), bars, 0)   # 4 float16 = 8 bytes into the row
    cuda.syncthreads()
    cuda.mbarrier.wait(bars, 0, 0)
    out[0] = tile[0, 0]

m16 = cuda.make_tensor_map(cuda.to_device(np.zeros((16, 64), np.float16)), (16, 64))
for launch, words in ((lambda: small_tile[1, 128](np.zeros(1, np.float32)), "a is a 32 x 64 tile"),
                      (lambda: misaligned[1, 32](m16, np.zeros(1, np.float16)),
                       "the innermost coordinate 4 is 8 bytes into a row"),
                      (lambda: big_box[1, 32](cuda.make_tensor_map(cuda.to_device(np.zeros((16, 64), np.float16)),
                                                                   (16, 64)), np.zeros(1, np.float16)),
                       "box is 2048 bytes; the shared tile holds 1024")):
    try:
        launch()
        raise AssertionError("no error: " + words)
    except RuntimeError as e:
        assert words in str(e), str(e)
print("errors ok")
'''


@pytest.mark.parametrize("device", ["cpu", "sim"])  # (a GPU reads what is there)
def test_tiles_too_small_are_errors(run_on_device, device):
    r = run_on_device(ERRORS, device=device)
    assert "errors ok" in r.stdout


def _gemm(dtype="bfloat16"):
    import sys
    sys.path.insert(0, EXAMPLES)
    import gemm_hopper
    import kjit
    return gemm_hopper.make_gemm(getattr(kjit, dtype))


GEMM_SIG = "void(uint64[::1], uint64[::1], {}[:, ::1], int64)"


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_gemm_ptx_targets_sm90a_and_assembles_cleanly(tmp_path, dtype):
    ptx, _ = cuda.compile_ptx(_gemm(dtype), GEMM_SIG.format("float32"), cc=(9, 0))
    assert ".target sm_90a" in ptx
    t = "bf16" if dtype == "bfloat16" else "f16"
    assert ptx.count(f"wgmma.mma_async.sync.aligned.m64n256k16.f32.{t}.{t}") == 4
    assert "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" in ptx
    assert "mbarrier.try_wait.parity.shared::cta.b64" in ptx and "mbarrier.arrive.expect_tx" in ptx
    assert "setmaxnreg.dec.sync.aligned.u32 40" in ptx and "setmaxnreg.inc.sync.aligned.u32 232" in ptx
    assert ".maxntid 384, 1, 1" in ptx and ".extern .shared .align 1024" in ptx
    assemble(ptx, tmp_path, arch="sm_90a")
    # ptxas's performance notes (C7508 setmaxnreg ignored, C7510/C7518 wgmma
    # serialised, C7517 an injected wait) would mean a slow kernel
    (tmp_path / "v.ptx").write_text(ptx)
    r = subprocess.run([find_ptxas(), "-arch=sm_90a", "-v", str(tmp_path / "v.ptx"), "-o",
                        str(tmp_path / "v.cubin")], capture_output=True, text=True)
    assert r.returncode == 0 and not re.search(r"C75\d\d", r.stderr), r.stderr
    assert "0 bytes spill" in r.stderr, r.stderr


def tma_only(tm, out):
    tile = cuda.shared.array((8, 64), out.dtype)
    bars = cuda.shared.array(1, uint64)
    if cuda.threadIdx.x == 0:
        cuda.mbarrier.init(bars, 0, 1)
        cuda.mbarrier.arrive_expect_tx(bars, 0, 1024)
        cuda.tma.load(tile, tm, (0, 0), bars, 0)
    cuda.syncthreads()
    cuda.mbarrier.wait(bars, 0, 0)
    out[0, 0] = tile[0, 0]


def test_tma_alone_targets_sm90(tmp_path):
    # TMA and mbarriers are sm_90's (not architecture-specific): plain sm_90
    ptx, _ = cuda.compile_ptx(tma_only, "void(uint64[::1], float16[:, ::1])", cc=(9, 0))
    assert ".target sm_90\n" in ptx or ".target sm_90\r" in ptx or re.search(r"\.target sm_90$", ptx, re.M)
    assemble(ptx, tmp_path, arch="sm_90")


def compile_error(fn, sig, cc=(9, 0)):
    with pytest.raises(errors.TypingError) as e:
        cuda.compile_ptx(fn, sig, cc=cc)
    assert "test_hopper.py" in str(e.value) or "gemm_hopper.py" in str(e.value), str(e.value)
    return str(e.value)


@pytest.mark.parametrize("cc", [(8, 0), (8, 9), (10, 0)])
def test_wgmma_on_other_gpus_is_a_located_error(cc):
    msg = compile_error(_gemm(), GEMM_SIG.format("float32"), cc=cc)
    assert f"needs an sm_90 GPU (its sm_90a instructions run on no other); this kernel is compiled for " \
           f"sm_{cc[0]}{cc[1]}" in msg


def test_tma_before_sm90_is_a_located_error():
    msg = compile_error(tma_only, "void(uint64[::1], float16[:, ::1])", cc=(8, 0))
    assert "needs sm_90 or newer; this kernel is compiled for sm_80" in msg


def test_misuse_is_located():
    def zeros_12(o):
        acc = cuda.wgmma.zeros(12)
        o[0] = acc[0]

    assert "constant multiple of 8 from 8 to 256" in compile_error(zeros_12, "void(float32[::1])")

    def float32_tiles(a, o):
        acc = cuda.wgmma.mma_async(cuda.wgmma.zeros(64), a, a, 0)
        o[0] = acc[0]

    assert "a 2-d C-contiguous shared array of float16 or bfloat16" in compile_error(
        float32_tiles, "void(float32[:, ::1], float32[::1])")

    def k_out_of_range(a, o):
        acc = cuda.wgmma.mma_async(cuda.wgmma.zeros(64), a, a, 4)
        o[0] = acc[0]

    assert "k is 4; the 64 columns of a tile hold k = 0 to 3" in compile_error(
        k_out_of_range, "void(float16[:, ::1], float32[::1])")

    def mixed(a, b, o):
        acc = cuda.wgmma.mma_async(cuda.wgmma.zeros(64), a, b, 0)
        o[0] = acc[0]

    assert "a and b hold one type" in compile_error(mixed, "void(float16[:, ::1], bfloat16[:, ::1], float32[::1])")

    def registers(o):
        cuda.setmaxnreg_inc(30)

    assert "multiple of 8 from 24 to 256" in compile_error(registers, "void(float32[::1])")

    def float_bars(b):
        cuda.mbarrier.init(b, 0, 1)

    assert "the mbarriers are a 1-d shared uint64 array" in compile_error(float_bars, "void(float32[::1])")

    def bad_parity(b):
        cuda.mbarrier.wait(b, 0, 2)

    assert "parity is 2; it must be 0 or 1" in compile_error(bad_parity, "void(uint64[::1])")

    def map_not_array(b, x, t):
        cuda.tma.load(t, x, (0, 0), b, 0)

    assert "the tensor map is what cuda.make_tensor_map() makes" in compile_error(
        map_not_array, "void(uint64[::1], float64, float16[:, ::1])")

    def wait_n(o):
        cuda.wgmma.wait_group(9)

    assert "n is a constant from 0 to 7" in compile_error(wait_n, "void(float32[::1])")


def test_make_tensor_map_checks_its_arguments():
    import numpy as np
    a = cuda.to_device(np.zeros((64, 100), np.float16))  # 200-byte rows: not a multiple of 16
    with pytest.raises(ValueError, match="stride 0 is 200 bytes"):
        cuda.make_tensor_map(a, (8, 64))
    b = cuda.to_device(np.zeros((64, 128), np.float16))
    with pytest.raises(ValueError, match="more than the 64-byte swizzle span"):
        cuda.make_tensor_map(b, (8, 64), swizzle=64)
    with pytest.raises(ValueError, match="box\\[0\\] is 300"):
        cuda.make_tensor_map(b, (300, 64))
    with pytest.raises(ValueError, match="box has 1 extents"):
        cuda.make_tensor_map(b, (64,))
    with pytest.raises(ValueError, match="swizzle is 0, 32, 64 or 128"):
        cuda.make_tensor_map(b, (8, 64), swizzle=16)
    m = cuda.make_tensor_map(b, (8, 64))
    assert m.shape == (16,) and m.dtype == np.uint64
