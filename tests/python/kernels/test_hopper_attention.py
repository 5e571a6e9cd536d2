"""wgmma with a in registers (an earlier product's accumulator, converted
with cuda.wgmma.convert) and b transposed (a 3-d tile whose rows are the k
index), and the attention kernel of examples/attention_hopper.py built on
them. The same programs on the CPU device, the simulator and (where there is
one) the GPU; the PTX targets sm_90a and assembles cleanly; misuse is a
located error.
"""
import os
import re
import shutil
import subprocess

import pytest

from kjit import cuda, errors

from conftest import ROOT, assemble, find_ptxas

DEVICES = ["cpu", "sim"] + (["cuda"] if shutil.which("nvidia-smi") else [])
EXAMPLES = os.path.join(ROOT, "examples")

# s = q @ k.T (both K-major in shared memory), p = s / 4 updated in
# registers with tuple_setitem, o = p @ v with p in registers and v's tiles
# transposed (two 64-wide blocks of 64 rows): integer-valued inputs, so every
# device's sums are exact and equal NumPy's.
PRODUCTS = r'''
import numpy as np, kjit
from kjit import cuda, uint64, float32

def make(dtype, registers_as):
    if registers_as == "16-bit":
        @cuda.jit(device=True)
        def operand(s):
            return cuda.wgmma.convert(s, dtype)
    else:
        @cuda.jit(device=True)
        def operand(s):
            return s

    @cuda.jit
    def two_products(tq, tk, tv, out):
        sq = cuda.shared.array((64, 64), dtype)
        sk = cuda.shared.array((64, 64), dtype)
        sv = cuda.shared.array((2, 64, 64), dtype)
        bars = cuda.shared.array(1, uint64)
        if cuda.threadIdx.x == 0:
            cuda.mbarrier.init(bars, 0, 1)
            cuda.fence_mbarrier_init()
        cuda.syncthreads()
        if cuda.threadIdx.x == 0:
            cuda.mbarrier.arrive_expect_tx(bars, 0, 4 * 64 * 64 * 2)
            cuda.tma.load(sq, tq, (0, 0), bars, 0)
            cuda.tma.load(sk, tk, (0, 0), bars, 0)
            cuda.tma.load(sv[0], tv, (0, 0), bars, 0)
            cuda.tma.load(sv[1], tv, (0, 64), bars, 0)
        cuda.mbarrier.wait(bars, 0, 0)
        s = cuda.wgmma.zeros(64)
        cuda.wgmma.fence()
        for k in range(4):
            s = cuda.wgmma.mma_async(s, sq, sk, k)
        cuda.wgmma.commit_group()
        s = cuda.wgmma.wait_group(0, s)
        for i in range(32):
            s = kjit.tuple_setitem(s, i, s[i] * float32(0.25))
        p = operand(s)
        o = cuda.wgmma.zeros(128)
        cuda.wgmma.fence()
        for k in range(4):
            o = cuda.wgmma.mma_async(o, p, sv, k)
        cuda.wgmma.commit_group()
        o = cuda.wgmma.wait_group(0, o)
        cuda.wgmma.store(out, (0, 0), o)
    return two_products

rng = np.random.default_rng(3)
q = rng.integers(-2, 3, (64, 64)).astype(np.float64)
k = rng.integers(-2, 3, (64, 64)).astype(np.float64)
v = rng.integers(-3, 4, (64, 128)).astype(np.float64)
want = (q @ k.T / 4) @ v          # p's values are multiples of 1/4 below 2^8: exact in 16 bits
for dtype, conv in ((kjit.float16, lambda x: x.astype(np.float16)), (kjit.bfloat16, kjit.float32_to_bf16)):
    for registers_as in ("float32", "16-bit"):
        dq, dk, dv = (cuda.to_device(conv(x)) for x in (q, k, v))
        out = cuda.device_array((64, 128), np.float32)
        maps = [cuda.make_tensor_map(x, (64, 64), swizzle=128) for x in (dq, dk, dv)]
        make(dtype, registers_as)[1, 128](*maps, out)
        assert np.array_equal(out.copy_to_host(), want), (dtype, registers_as)
print("products ok")
'''


@pytest.mark.parametrize("device", DEVICES)
def test_register_a_and_transposed_b(run_on_device, device):
    r = run_on_device(PRODUCTS, device=device, timeout=900)
    assert "products ok" in r.stdout


ATTENTION = "EXAMPLES = " + repr(EXAMPLES) + "\n" + r'''import sys; sys.path.insert(0, EXAMPLES)
import math, os
import numpy as np, kjit
from kjit import cuda
import attention_hopper as A

rng = np.random.default_rng(0)
sim = os.environ.get("KJIT_ENABLE_CUDASIM") == "1"
cases = [(2, 256, 128, kjit.bfloat16), (1, 256, 64, kjit.float16)]
for hb, seq, d, dtype in cases[1:] if sim else cases:
    for causal in (False, True):
        q, k, v = (rng.standard_normal((hb * seq, d)).astype(np.float32) for _ in range(3))
        if dtype is kjit.bfloat16:
            conv, back = kjit.float32_to_bf16, kjit.bf16_to_float32
        else:
            conv, back = (lambda x: x.astype(np.float16)), (lambda x: x.astype(np.float32))
        q, k, v = (conv(x) for x in (q, k, v))
        o = cuda.to_device(conv(np.zeros((hb * seq, d), np.float32)))
        want = A.reference(back(q), back(k), back(v), hb, seq, causal, 1 / math.sqrt(d))
        for pipelined in (True, False):
            A.attention(cuda.to_device(q), cuda.to_device(k), cuda.to_device(v), o, dtype, hb, seq, causal,
                        pipelined=pipelined)
            got = back(o.copy_to_host()).astype(np.float64)
            # p rounded to 16 bits and o stored in 16 bits: relative error of a few 2^-8 (bfloat16)
            tol = 3e-2 if dtype is kjit.bfloat16 else 4e-3
            err = np.abs(got - want).max()
            assert err < tol, (hb, seq, d, causal, pipelined, err)
print("attention ok")
'''


@pytest.mark.parametrize("device", DEVICES)
def test_attention_example(run_on_device, device):
    # examples/attention_hopper.py against float64 attention: d = 64 and 128,
    # two heads, causal and not, both kernels (the simulator: the smaller case)
    r = run_on_device(ATTENTION, device=device, timeout=900)
    assert "attention ok" in r.stdout


def _attention(dtype, d, causal, pipelined):
    import sys
    sys.path.insert(0, EXAMPLES)
    import attention_hopper
    import kjit
    return attention_hopper.make_attention(getattr(kjit, dtype), d, causal, pipelined)


@pytest.mark.parametrize("dtype,d,pipelined", [("float16", 64, True), ("bfloat16", 128, True),
                                               ("bfloat16", 64, False), ("float16", 128, False)])
def test_attention_ptx_assembles_cleanly(tmp_path, dtype, d, pipelined):
    kernel = _attention(dtype, d, True, pipelined)
    sig = f"void(uint64[::1], uint64[::1], uint64[::1], {dtype}[:, ::1], int64, float32)"
    ptx, _ = cuda.compile_ptx(kernel, sig, cc=(9, 0))
    assert ".target sm_90a" in ptx
    t = "bf16" if dtype == "bfloat16" else "f16"
    # s = q @ k.T: d/16 products from shared memory; o += p @ v: 8 with p in
    # registers (four packed pairs) and v transposed (the last operand 1).
    # The pipelined kernel has both twice (the first tile's scores before its
    # loop, the last tile's p @ v after it).
    from_shared = re.findall(rf"wgmma\.mma_async\.sync\.aligned\.m64n128k16\.f32\.{t}\.{t} \{{[^}}]*\}}, %rd\d+, %rd\d+, p, 1, 1, 0, 0;", ptx)
    from_registers = re.findall(rf"wgmma\.mma_async\.sync\.aligned\.m64n{d}k16\.f32\.{t}\.{t} \{{[^}}]*\}}, \{{%r\d+, %r\d+, %r\d+, %r\d+\}}, %rd\d+, p, 1, 1, 1;", ptx)
    times = 2 if pipelined else 1
    assert (len(from_shared), len(from_registers)) == (times * d // 16, times * 8)
    # the first product of each score tile overwrites (its scale-d register is 0)
    preds = re.findall(rf"setp\.ne\.b32 p, (%r\d+), 0; wgmma\.mma_async\.sync\.aligned\.m64n128k16", ptx)
    zero = [r for r in preds if re.search(rf"mov\.(b|u)32\s+{r}, 0;", ptx)]
    assert len(zero) == times, (preds, zero)
    assert f"cvt.rn.{t}x2.f32" in ptx
    assemble(ptx, tmp_path, arch="sm_90a")
    # no wait or fence injected by ptxas (C7510/C7517/C7519), no spills
    (tmp_path / "a.ptx").write_text(ptx)
    r = subprocess.run([find_ptxas(), "-arch=sm_90a", "-v", str(tmp_path / "a.ptx"), "-o",
                        str(tmp_path / "a.cubin")], capture_output=True, text=True)
    assert r.returncode == 0 and not re.search(r"C75\d\d", r.stderr), r.stderr
    assert "0 bytes spill" in r.stderr, r.stderr


def compile_error(fn, sig):
    with pytest.raises(errors.TypingError) as e:
        cuda.compile_ptx(fn, sig, cc=(9, 0))
    assert "test_hopper_attention.py" in str(e.value), str(e.value)
    return str(e.value)


def test_misuse_is_located():
    import kjit

    def odd_registers(b, o):
        p = (o[0], o[1], o[2], o[3])
        acc = cuda.wgmma.mma_async(cuda.wgmma.zeros(64), p, b, 0)
        o[0] = acc[0]

    assert "a in registers is an accumulator" in compile_error(odd_registers, "void(float16[:, ::1], float32[::1])")

    def k_past_registers(b, o):
        acc = cuda.wgmma.mma_async(cuda.wgmma.zeros(64), cuda.wgmma.zeros(32), b, 2)
        o[0] = acc[0]

    assert "k is 2; the registers of a hold k = 0 to 1" in compile_error(
        k_past_registers, "void(float16[:, :, ::1], float32[::1])")

    def narrow_transposed(b, o):
        acc = cuda.wgmma.mma_async(cuda.wgmma.zeros(32), cuda.wgmma.zeros(32), b, 0)
        o[0] = acc[0]

    assert "a transposed b (3-d) takes n a multiple of 64" in compile_error(
        narrow_transposed, "void(float16[:, :, ::1], float32[::1])")

    def convert_to_float32(o):
        p = cuda.wgmma.convert(cuda.wgmma.zeros(64), kjit.float32)
        o[0] = p[0]

    assert "the type is float16 or bfloat16" in compile_error(convert_to_float32, "void(float32[::1])")

    def mixed_types(b, o):
        p = cuda.wgmma.convert(cuda.wgmma.zeros(64), kjit.bfloat16)
        acc = cuda.wgmma.mma_async(cuda.wgmma.zeros(64), p, b, 0)
        o[0] = acc[0]

    assert "a and b hold one type" in compile_error(mixed_types, "void(float16[:, ::1], float32[::1])")
