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
        variants = ((True, True),) if sim else ((True, True), (True, False), (False, False))
        for pipelined, pingpong in variants:
            A.attention(cuda.to_device(q), cuda.to_device(k), cuda.to_device(v), o, dtype, hb, seq, causal,
                        pipelined=pipelined, pingpong=pingpong)
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
    # two heads, causal and not, the three kernels (the simulator: the smaller
    # case, the default kernel)
    r = run_on_device(ATTENTION, device=device, timeout=900)
    assert "attention ok" in r.stdout


# Named barriers: two warpgroups take turns (barrier 1: warpgroup 0's turn,
# barrier 2: warpgroup 1's), each appending its number to a shared log 4
# times; the log must alternate. Then a barrier nothing completes: a
# deadlock with its line on the CPU device and in the simulator.
NAMED = r"""
import numpy as np
from kjit import cuda, int32

@cuda.jit
def turns(log):
    slots = cuda.shared.array(9, int32)
    tid = cuda.threadIdx.x
    wg = tid // 128
    if tid == 0:
        slots[8] = 0
    cuda.syncthreads()
    if wg == 1:
        cuda.named_barrier_arrive(1, 256)  # warpgroup 0 goes first
    for r in range(4):
        cuda.named_barrier_sync(1 + wg, 256)  # my turn: my 128 threads and the other's arrival
        if tid % 128 == 0:
            slots[slots[8]] = wg
            slots[8] += 1
        cuda.named_barrier_arrive(2 - wg, 256)  # the other's turn
    cuda.syncthreads()
    if tid < 8:
        log[tid] = slots[tid]

@cuda.jit
def stuck(out):
    if cuda.threadIdx.x < 64:
        cuda.named_barrier_sync(3, 128)   # 128 threads expected, 64 come
    out[0] = 1

log = cuda.to_device(np.full(8, -1, np.int32))
turns[1, 256](log)
assert list(log.copy_to_host()) == [0, 1] * 4, log.copy_to_host()
try:
    stuck[1, 64](cuda.to_device(np.zeros(1, np.int32)))
except Exception as e:
    # (the CPU device: RuntimeError "deadlock ... waits at named_barrier_sync() at <file>:<line>";
    # the simulator: BarrierError "... cuda.named_barrier_sync() at <file>:<line>")
    assert "named_barrier_sync()" in str(e) and "a GPU would hang" in str(e), str(e)
    assert ".py:" in str(e), str(e)
    print("deadlock reported:", type(e).__name__)
else:
    raise AssertionError("a barrier nothing completes was not reported")
print("named ok")
"""


@pytest.mark.parametrize("device", ["cpu", "sim"])  # (the deadlock would hang a GPU)
def test_named_barriers_take_turns_and_report_deadlock(run_on_device, device):
    r = run_on_device(NAMED, device=device, timeout=600)
    assert "named ok" in r.stdout and "deadlock reported" in r.stdout


def test_named_barrier_ptx_and_misuse(tmp_path):
    def handoff(o):
        cuda.named_barrier_sync(1, 256)
        cuda.named_barrier_arrive(cuda.threadIdx.x // 128 + 1, 256)
        o[0] = 1

    ptx, _ = cuda.compile_ptx(handoff, "void(int32[::1])", cc=(8, 0))
    assert "barrier.sync.aligned" in ptx and "barrier.arrive.aligned" in ptx
    assemble(ptx, tmp_path, arch="sm_80")

    def bad_id(o):
        cuda.named_barrier_sync(16, 128)

    def bad_count(o):
        cuda.named_barrier_arrive(1, 100)

    with pytest.raises(errors.TypingError, match="the barrier is 16; a block has barriers 0 to 15"):
        cuda.compile_ptx(bad_id, "void(int32[::1])", cc=(9, 0))
    with pytest.raises(errors.TypingError, match="the thread count is 100; it is a multiple of 32"):
        cuda.compile_ptx(bad_count, "void(int32[::1])", cc=(9, 0))


def _attention(dtype, d, causal, pipelined):
    import sys
    sys.path.insert(0, EXAMPLES)
    import attention_hopper
    import kjit
    return attention_hopper.make_attention(getattr(kjit, dtype), d, causal, pipelined, pipelined)


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
    # The pipelined (causal) kernel has both three times: the first tile's
    # scores before its loop, the loop's step, the masked last step peeled
    # off the loop, and the last tile's p @ v after it.
    from_shared = re.findall(rf"wgmma\.mma_async\.sync\.aligned\.m64n128k16\.f32\.{t}\.{t} \{{[^}}]*\}}, %rd\d+, %rd\d+, p, 1, 1, 0, 0;", ptx)
    from_registers = re.findall(rf"wgmma\.mma_async\.sync\.aligned\.m64n{d}k16\.f32\.{t}\.{t} \{{[^}}]*\}}, \{{%r\d+, %r\d+, %r\d+, %r\d+\}}, %rd\d+, p, 1, 1, 1;", ptx)
    times = 3 if pipelined else 1
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
