"""FlashAttention-style forward attention on Hopper in the kernel language:
o = softmax(q @ k.T * scale [+ causal mask]) @ v, with TMA, mbarriers and
wgmma, the scores never leaving the registers.

    q, k, v, o: (batch * heads * seq, d) arrays (a contiguous (batch, heads,
    seq, d) tensor viewed as 2-d), float16 or bfloat16, d = 64 or 128;
    float32 accumulation and softmax.

A block of 384 threads computes 128 rows (queries) of one head's output.
Warpgroup 0 is the producer: one thread loads the q tile once, then the k
and v tiles of 128 keys into a ring of two buffers (TMA, 128-byte swizzle).
Warpgroups 1 and 2 are the consumers, 64 query rows each. Per tile of keys:

    s = q @ k_tile.T                 wgmma, both operands in shared memory
    m = max(m, rowmax(s))            the online softmax's running maximum
    p = exp2(s * c - m * c)          in registers (c = scale * log2(e))
    l = l * exp2(m_old * c - m * c) + rowsum(p);  o *= the same factor
    o += p @ v_tile                  wgmma with a (p) in registers and v's
                                     tile transposed (its rows are keys)

and at the end o / l, stored. kjit.tuple_setitem updates the accumulator
tuples element by element; the loops over them are unrolled by the compiler,
so they stay in registers.

Runs on an H100/H200 (sm_90a), on the CPU device and in the simulator
(float32 accumulation there too; small sizes, it is slow):

    python examples/attention_hopper.py
"""
import math
import sys

import numpy as np

import kjit
from kjit import cuda, float32, uint64

BM, BN = 128, 128  # query rows and keys of a block's tile
THREADS = 384
LOG2E = 1.4426950408889634
NEG_INF = -math.inf

_kernels = {}


@cuda.jit(device=True, fastmath=True)
def quad_max(x):
    """The maximum over the 4 threads that hold one row's values."""
    x = max(x, cuda.shfl_xor_sync(0xFFFFFFFF, x, 1))
    return max(x, cuda.shfl_xor_sync(0xFFFFFFFF, x, 2))


@cuda.jit(device=True, fastmath=True)
def quad_sum(x):
    x += cuda.shfl_xor_sync(0xFFFFFFFF, x, 1)
    return x + cuda.shfl_xor_sync(0xFFFFFFFF, x, 2)


@cuda.jit(device=True, fastmath=True)
def mask_causal(s, first_row, first_col):
    """Scores of keys after their query set to -inf. The thread's value i of
    the 64 x 128 tile is row 16w + g + 8((i >> 1) & 1), column 8(i >> 2) +
    2t + (i & 1) (warp w, lane 4g + t)."""
    r = cuda.threadIdx.x % 128
    row = first_row + 16 * (r // 32) + r % 32 // 4
    col = first_col + 2 * (r % 4)
    for i in range(BN // 2):
        if col + 8 * (i >> 2) + (i & 1) > row + 8 * ((i >> 1) & 1):
            s = kjit.tuple_setitem(s, i, NEG_INF)
    return s


@cuda.jit(device=True, fastmath=True)
def online_softmax(s, m0, m1, l0, l1, c):
    """One tile's step of the online softmax over the thread's two rows (r0:
    values i with (i >> 1) & 1 == 0, r1: the others): s becomes p =
    exp2(s * c - max * c), the running maxima m and sums l are updated.
    Returns p, m0, m1, l0, l1 and the factors a0, a1 by which the rows of
    earlier sums (o) shrink. l stays the thread's part (summed over the
    row's four threads at the end)."""
    n0 = m0
    n1 = m1
    for i in range(BN // 2):
        if (i >> 1) & 1:
            n1 = max(n1, s[i])
        else:
            n0 = max(n0, s[i])
    n0 = quad_max(n0)
    n1 = quad_max(n1)
    a0 = math.exp2((m0 - n0) * c)
    a1 = math.exp2((m1 - n1) * c)
    b0 = n0 * c
    b1 = n1 * c
    l0 *= a0
    l1 *= a1
    for i in range(BN // 2):
        if (i >> 1) & 1:
            p = math.exp2(cuda.fma(s[i], c, -b1))
            l1 += p
        else:
            p = math.exp2(cuda.fma(s[i], c, -b0))
            l0 += p
        s = kjit.tuple_setitem(s, i, p)
    return s, n0, n1, l0, l1, a0, a1


@cuda.jit(device=True, fastmath=True)
def scale_rows(o, a0, a1):
    for i in range(len(o)):
        o = kjit.tuple_setitem(o, i, o[i] * (a1 if (i >> 1) & 1 else a0))
    return o


def make_attention(dtype, d, causal, pipelined=False, pingpong=False):
    """The kernel for inputs of `dtype` (kjit.float16 or kjit.bfloat16) and
    head dimension d (64 or 128). The default, each step after the other
    (the two consumers overlap each other), is the fastest measured (docs/
    tensor-cores.md). `pipelined`: each consumer issues the next
    tile's scores before this tile's p @ v, and computes their softmax while
    the tensor cores work on p @ v (FlashAttention-3's overlap within a
    warpgroup); otherwise the steps run one after the other. `pingpong`
    (with `pipelined`): the two consumers take turns issuing their products
    (named barriers 1 and 2), so that one's softmax runs while the other's
    products do."""
    key = (dtype, d, causal, pipelined, pingpong)
    if key in _kernels:
        return _kernels[key]
    H2 = d // 64  # 64-wide column blocks of q, k and v (one 128-byte swizzled box each)

    @cuda.jit(device=True)
    def scores(sq, row, sk):
        """q @ k.T for the warpgroup's 64 rows of q: H2 x 4 products of 16
        columns (fenced and committed by the caller). The first, on zeros
        made in the call, overwrites: no zeros are moved into registers."""
        sc = cuda.wgmma.mma_async(cuda.wgmma.zeros(BN), sq[0, row:row + 64], sk[0], 0)
        for h in range(H2):
            for kk in range(4):
                if h + kk > 0:
                    sc = cuda.wgmma.mma_async(sc, sq[h, row:row + 64], sk[h], kk)
        return sc

    @cuda.jit(device=True)
    def my_turn(wg):
        """Waits for this consumer's turn to issue products (named barrier
        wg: its 128 threads and the other consumer's arrival)."""
        if pingpong:
            cuda.named_barrier_sync(wg, 256)

    @cuda.jit(device=True)
    def your_turn(wg):
        """Gives the turn to the other consumer (barrier 3 - wg)."""
        if pingpong:
            cuda.named_barrier_arrive(3 - wg, 256)

    @cuda.jit(device=True)
    def times_v(o_acc, pa, sv):
        for kk in range(BN // 16):
            o_acc = cuda.wgmma.mma_async(o_acc, pa, sv, kk)
        return o_acc

    @cuda.jit(device=True, fastmath=True)
    def step(j, sq, sk, sv, bars, row, wg, first, o_acc, pa, m0, m1, l0, l1, c, masked):
        """One step of the pipelined loop: the scores of tile j + 1 (masked
        on the diagonal when `masked`) and p_j @ v_j in flight together,
        the softmax of j + 1 while p_j @ v_j runs, then o rescaled. Returns
        o, p of j + 1 (wgmma's a) and the softmax's state."""
        s = j % 2
        s1 = 1 - s
        cuda.mbarrier.wait(bars, 1 + s1, ((j + 1) // 2) & 1)
        my_turn(wg)
        cuda.wgmma.fence()
        sc = scores(sq, row, sk[s1])
        cuda.wgmma.commit_group()
        o_acc = times_v(o_acc, pa, sv[s])
        cuda.wgmma.commit_group()
        your_turn(wg)
        sc = cuda.wgmma.wait_group(1, sc)  # the scores; p_j @ v_j may still run
        if masked:
            sc = mask_causal(sc, row, 0)
        sc, m0, m1, l0, l1, a0, a1 = online_softmax(sc, m0, m1, l0, l1, c)
        o_acc = cuda.wgmma.wait_group(0, o_acc)
        if first:
            cuda.mbarrier.arrive(bars, 3 + s)
        # (p's registers are rewritten only now: p_j @ v_j read them until the wait)
        pa = cuda.wgmma.convert(sc, dtype)
        o_acc = scale_rows(o_acc, a0, a1)
        return o_acc, pa, m0, m1, l0, l1

    Q_ELEMS = BM * d
    KV_ELEMS = BN * d
    TILE_BYTES = 2 * KV_ELEMS * 2  # a k tile and a v tile

    @cuda.jit(launch_bounds=(THREADS, 1), fastmath=True)
    def attention(tq, tk, tv, o, seq, c):
        smem = cuda.shared.array(0, dtype)
        sq = smem[:Q_ELEMS].reshape((H2, BM, 64))
        sk = smem[Q_ELEMS:Q_ELEMS + 2 * KV_ELEMS].reshape((2, H2, BN, 64))
        sv = smem[Q_ELEMS + 2 * KV_ELEMS:Q_ELEMS + 4 * KV_ELEMS].reshape((2, H2, BN, 64))
        bars = cuda.shared.array(5, uint64)  # q, full[2], empty[2]
        tid = cuda.threadIdx.x
        wg = tid // 128
        tiles_q = seq // BM
        qt = tiles_q - 1 - cuda.blockIdx.x  # the longest rows (causal) first
        q0 = cuda.blockIdx.y * seq + qt * BM  # the block's first row of q and o
        kv0 = cuda.blockIdx.y * seq  # the head's first key
        n_kv = qt + 1 if causal else seq // BN
        if tid == 0:
            cuda.mbarrier.init(bars, 0, 1)
            for s in range(2):
                cuda.mbarrier.init(bars, 1 + s, 1)
                cuda.mbarrier.init(bars, 3 + s, 2)
            cuda.fence_mbarrier_init()
        cuda.syncthreads()
        if wg == 0:
            cuda.setmaxnreg_dec(24)
            if tid == 0:
                cuda.mbarrier.arrive_expect_tx(bars, 0, Q_ELEMS * 2)
                for h in range(H2):
                    cuda.tma.load(sq[h], tq, (q0, 64 * h), bars, 0)
                for j in range(n_kv):
                    s = j % 2
                    if j >= 2:
                        cuda.mbarrier.wait(bars, 3 + s, (j // 2 - 1) & 1)
                    cuda.mbarrier.arrive_expect_tx(bars, 1 + s, TILE_BYTES)
                    for h in range(H2):
                        cuda.tma.load(sk[s, h], tk, (kv0 + j * BN, 64 * h), bars, 1 + s)
                        cuda.tma.load(sv[s, h], tv, (kv0 + j * BN, 64 * h), bars, 1 + s)
        else:
            cuda.setmaxnreg_inc(240)
            row = (wg - 1) * 64
            o_acc = cuda.wgmma.zeros(d)
            m0 = float32(NEG_INF)
            m1 = float32(NEG_INF)
            l0 = float32(0)
            l1 = float32(0)
            cuda.mbarrier.wait(bars, 0, 0)
            first = tid % 128 == 0
            if not pipelined:
                for j in range(n_kv):
                    s = j % 2
                    cuda.mbarrier.wait(bars, 1 + s, (j // 2) & 1)
                    cuda.wgmma.fence()
                    sc = scores(sq, row, sk[s])
                    cuda.wgmma.commit_group()
                    sc = cuda.wgmma.wait_group(0, sc)
                    if causal and j == qt:
                        sc = mask_causal(sc, row, 0)
                    sc, m0, m1, l0, l1, a0, a1 = online_softmax(sc, m0, m1, l0, l1, c)
                    o_acc = scale_rows(o_acc, a0, a1)
                    pa = cuda.wgmma.convert(sc, dtype)  # p as wgmma's a, before the fence
                    cuda.wgmma.fence()
                    o_acc = times_v(o_acc, pa, sv[s])
                    cuda.wgmma.commit_group()
                    o_acc = cuda.wgmma.wait_group(0, o_acc)
                    if first:
                        cuda.mbarrier.arrive(bars, 3 + s)
            else:
                # tile 0's scores and softmax, then per tile j: issue the
                # scores of j + 1 and p_j @ v_j, softmax of j + 1 while
                # p_j @ v_j runs, then rescale o.
                if pingpong and wg == 2:
                    your_turn(wg)  # consumer 1 issues first
                cuda.mbarrier.wait(bars, 1, 0)
                my_turn(wg)
                cuda.wgmma.fence()
                sc = scores(sq, row, sk[0])
                cuda.wgmma.commit_group()
                your_turn(wg)
                sc = cuda.wgmma.wait_group(0, sc)
                if causal and qt == 0:
                    sc = mask_causal(sc, row, 0)
                sc, m0, m1, l0, l1, a0, a1 = online_softmax(sc, m0, m1, l0, l1, c)
                pa = cuda.wgmma.convert(sc, dtype)
                # causal: the last step's scores (tile qt) are the masked
                # ones; it is peeled off the loop, so that no branch sits
                # between a product's issue and its wait
                for j in range(n_kv - 2 if causal else n_kv - 1):
                    o_acc, pa, m0, m1, l0, l1 = step(j, sq, sk, sv, bars, row, wg, first, o_acc, pa,
                                                     m0, m1, l0, l1, c, False)
                if causal and n_kv >= 2:
                    o_acc, pa, m0, m1, l0, l1 = step(n_kv - 2, sq, sk, sv, bars, row, wg, first, o_acc,
                                                     pa, m0, m1, l0, l1, c, True)
                s = (n_kv - 1) % 2
                my_turn(wg)
                cuda.wgmma.fence()
                o_acc = times_v(o_acc, pa, sv[s])
                cuda.wgmma.commit_group()
                your_turn(wg)
                o_acc = cuda.wgmma.wait_group(0, o_acc)
                if first:
                    cuda.mbarrier.arrive(bars, 3 + s)
            o_acc = scale_rows(o_acc, float32(1) / quad_sum(l0), float32(1) / quad_sum(l1))
            cuda.wgmma.store(o, (q0 + row, 0), o_acc)

    _kernels[key] = attention
    return attention


def shared_bytes(d):
    return (BM + 4 * BN) * d * 2


def attention(q, k, v, o, dtype, heads_batch, seq, causal=False, scale=None, pipelined=False,
              pingpong=False):
    """o = softmax(q @ k.T * scale) @ v per head, on the current device: q,
    k, v, o (heads_batch * seq, d) device arrays (or tensors) of `dtype`,
    seq a multiple of 128, d 64 or 128."""
    d = q.shape[1]
    if d not in (64, 128) or seq % BM:
        raise ValueError(f"d = {d}, seq = {seq}: d is 64 or 128, seq a multiple of {BM}")
    scale = 1 / math.sqrt(d) if scale is None else scale
    tq = cuda.make_tensor_map(q, (BM, 64), swizzle=128)
    tk = cuda.make_tensor_map(k, (BN, 64), swizzle=128)
    tv = cuda.make_tensor_map(v, (BN, 64), swizzle=128)
    kernel = make_attention(dtype, d, causal, pipelined, pingpong and pipelined)
    kernel[(seq // BM, heads_batch), THREADS, 0, shared_bytes(d)](tq, tk, tv, o, seq,
                                                                   float32(scale * LOG2E))
    return o


def reference(q, k, v, heads_batch, seq, causal, scale):
    """float64 attention of float32 inputs, per head."""
    d = q.shape[1]
    out = np.empty((heads_batch * seq, d))
    for h in range(heads_batch):
        rows = slice(h * seq, (h + 1) * seq)
        s = q[rows].astype(np.float64) @ k[rows].astype(np.float64).T * scale
        if causal:
            s[np.triu_indices(seq, 1)] = -np.inf
        p = np.exp(s - s.max(axis=1, keepdims=True))
        out[rows] = p @ v[rows].astype(np.float64) / p.sum(axis=1, keepdims=True)
    return out


def main():
    on_gpu = cuda.device_kind() == "cuda"
    hb, seq, d = (8, 1024, 128) if on_gpu else (1, 256, 64)
    rng = np.random.default_rng(0)
    ok = True
    for causal in (False, True):
        q, k, v = (rng.standard_normal((hb * seq, d)).astype(np.float16) for _ in range(3))
        o = cuda.device_array((hb * seq, d), np.float16)
        attention(cuda.to_device(q), cuda.to_device(k), cuda.to_device(v), o, kjit.float16, hb, seq, causal)
        want = reference(q, k, v, hb, seq, causal, 1 / math.sqrt(d))
        err = np.abs(o.copy_to_host().astype(np.float64) - want).max()
        ok = ok and err < 2e-2
        print(f"attention {hb} x {seq} x {d} {'causal' if causal else 'full'} float16 on {cuda.device_kind()}: "
              f"max error {err:.2e} {'ok' if err < 2e-2 else 'WRONG'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
