"""A Hopper GEMM in the kernel language: c = a @ b.T with TMA, mbarriers and
wgmma, warp-specialised as cuBLAS's and CUTLASS's sm_90 kernels are.

    a: M x K, b: N x K (K-major, as torch.nn.Linear's weight), c: M x N;
    float16 or bfloat16 in, float32 accumulation, c of any float type.

A block of 384 threads computes a 128 x 256 tile of c. Warpgroup 0 is the
producer: one thread issues TMA copies of the a and b tiles (128 x 64 and
256 x 64, 128-byte swizzle) into a ring of STAGES shared-memory buffers,
each with a `full` mbarrier (the copy's bytes land on it) and an `empty`
one (the consumers release the buffer). Warpgroups 1 and 2 are the
consumers: each multiplies its 64 rows of the a tile by the b tile with
four wgmma m64n256k16 per buffer, keeping one group of products in flight,
and stores its 64 x 256 accumulator at the end. setmaxnreg moves registers
from the producer (40) to the consumers (232).

Runs on an H100/H200 (sm_90a), on the CPU device and in the simulator (the
same numbers: float32 accumulation; small sizes there, it is slow):

    python examples/gemm_hopper.py            # 4096^3 on a GPU, 256 x 512 x 128 elsewhere
"""
import sys

import numpy as np

import kjit
from kjit import cuda, float32, uint64

BM, BN, BK, STAGES = 128, 256, 64, 4
THREADS = 384
SHARED_BYTES = STAGES * (BM + BN) * BK * 2  # the a and b buffers (16-bit values)

_kernels = {}


@cuda.jit(device=True)
def multiply_buffer(acc, sa, sb):
    """acc + sa @ sb.T for one buffer (a 64-wide k block): four wgmma steps of
    16 columns, issued by the warpgroup as one group."""
    cuda.wgmma.fence()
    acc = cuda.wgmma.mma_async(acc, sa, sb, 0)
    acc = cuda.wgmma.mma_async(acc, sa, sb, 1)
    acc = cuda.wgmma.mma_async(acc, sa, sb, 2)
    acc = cuda.wgmma.mma_async(acc, sa, sb, 3)
    cuda.wgmma.commit_group()
    return acc


def block_k(dtype):
    """The k extent of a buffer: 128 bytes of `dtype` (64 16-bit values, 128
    8-bit ones), one row of the 128-byte swizzle."""
    return 128 // (dtype.bitwidth // 8)


def make_gemm(dtype):
    """The GEMM kernel for inputs of `dtype` (kjit.float16, kjit.bfloat16,
    or an 8-bit float: kjit.float8_e4m3fn, kjit.float8_e5m2)."""
    if dtype in _kernels:
        return _kernels[dtype]
    bk = block_k(dtype)

    @cuda.jit(launch_bounds=(THREADS, 1))
    def gemm(ta, tb, c, k_tiles):
        smem = cuda.shared.array(0, dtype)  # the a tiles, then the b tiles
        sa_all = smem[:STAGES * BM * bk].reshape((STAGES, BM, bk))
        sb_all = smem[STAGES * BM * bk:STAGES * (BM + BN) * bk].reshape((STAGES, BN, bk))
        bars = cuda.shared.array(2 * STAGES, uint64)  # full[s], then empty[s]
        tid = cuda.threadIdx.x
        wg = tid // 128
        if tid == 0:
            for s in range(STAGES):
                cuda.mbarrier.init(bars, s, 1)  # the producer's arrival (+ the bytes)
                cuda.mbarrier.init(bars, STAGES + s, 2)  # one arrival per consumer
            cuda.fence_mbarrier_init()
        cuda.syncthreads()
        m0 = cuda.blockIdx.y * BM
        n0 = cuda.blockIdx.x * BN
        if wg == 0:
            cuda.setmaxnreg_dec(40)
            if tid == 0:
                for k in range(k_tiles):
                    s = k % STAGES
                    if k >= STAGES:  # the consumers have released this buffer's last use
                        cuda.mbarrier.wait(bars, STAGES + s, (k // STAGES - 1) & 1)
                    cuda.mbarrier.arrive_expect_tx(bars, s, (BM + BN) * 128)
                    cuda.tma.load(sa_all[s], ta, (m0, k * bk), bars, s)
                    cuda.tma.load(sb_all[s], tb, (n0, k * bk), bars, s)
        else:
            cuda.setmaxnreg_inc(232)
            row = (wg - 1) * 64
            acc = cuda.wgmma.zeros(BN)
            for k in range(k_tiles):
                s = k % STAGES
                cuda.mbarrier.wait(bars, s, (k // STAGES) & 1)
                acc = multiply_buffer(acc, sa_all[s, row:row + 64], sb_all[s])
                acc = cuda.wgmma.wait_group(1, acc)  # the previous buffer's products are done
                if k > 0 and tid % 128 == 0:
                    cuda.mbarrier.arrive(bars, STAGES + (k - 1) % STAGES)
            acc = cuda.wgmma.wait_group(0, acc)
            cuda.wgmma.store(c, (m0 + row, n0), acc)

    _kernels[dtype] = gemm
    return gemm


@cuda.jit(device=True)
def tile_origin(tile, grid_m, grid_n):
    """The first row and column of tile number `tile`, in groups of 8 tile
    rows (consecutive blocks share the tiles of b they read: L2 hits)."""
    width = 8 * grid_n
    first = tile // width * 8
    size = min(grid_m - first, 8)
    return (first + tile % width % size) * BM, tile % width // size * BN


@cuda.jit(device=True)
def store_bias_relu(c, m0, n0, acc, bias):
    """A fused epilogue: c = max(acc + bias[col], 0) for the thread's elements
    of the warpgroup's 64 x 256 tile (register 4j + i of warp w, lane 4g + t
    is row 16w + g + 8(i >> 1), column 8j + 2t + (i & 1)). The loop is
    unrolled by the compiler: acc stays in registers."""
    r = cuda.threadIdx.x % 128
    w = r // 32
    g = r % 32 // 4
    t = r % 4
    for i in range(BN // 2):
        row = m0 + 16 * w + g + 8 * ((i >> 1) & 1)
        col = n0 + 8 * (i >> 2) + 2 * t + (i & 1)
        if row < c.shape[0] and col < c.shape[1]:
            c[row, col] = max(acc[i] + bias[col], float32(0))


TMA_STAGES = 3  # the persistent kernel with a TMA-store epilogue: 3 buffers + the staging tile
TMA_SHARED_BYTES = TMA_STAGES * (BM + BN) * BK * 2 + BM * BN * 2


@cuda.jit(device=True)
def stage_tile(staging, acc):
    """The warpgroup's 64 x 256 tile into `staging` (4 blocks of 64 x 64,
    each as a TMA box with the 128-byte swizzle lays it out: byte o of a
    block at o ^ ((o >> 7) & 7) << 4), converted to its type."""
    r = cuda.threadIdx.x % 128
    row = 16 * (r // 32) + r % 32 // 4
    col = 2 * (r % 4)
    for i in range(BN // 2):
        rr = row + 8 * ((i >> 1) & 1)
        cc = col + 8 * (i >> 2) + (i & 1)
        o = rr * 128 + (cc % 64) * 2
        staging[cc // 64, (o ^ (((o >> 7) & 7) << 4)) // 2] = acc[i]


def make_persistent_gemm(dtype, bias_relu=False, tma_epilogue=False):
    """The same GEMM as a persistent kernel: a block per multiprocessor walks
    the tiles (blockIdx.x, + gridDim.x ...), and the producer loads the next
    tile's first buffers while the consumers store the last one. With
    `bias_relu`, c = max(a @ b.T + bias, 0), the epilogue fused. With
    `tma_epilogue` (c of a 16-bit type, given as a tensor map with 64 x 64
    boxes), each consumer writes its tile into shared memory and one thread
    stores it with TMA, so the consumers go on to the next tile while the
    copy engine writes (3 buffers then, for the staging tile's 64 KB)."""
    key = ("persistent", dtype, bias_relu, tma_epilogue)
    stages = TMA_STAGES if tma_epilogue else STAGES
    staged = 2 if tma_epilogue else 0  # the consumers' staging tiles (none without the TMA epilogue)
    if key in _kernels:
        return _kernels[key]

    @cuda.jit(launch_bounds=(THREADS, 1))
    def gemm(ta, tb, c, k_tiles, grid_m, grid_n, bias):
        smem = cuda.shared.array(0, dtype)
        sa_all = smem[:stages * BM * BK].reshape((stages, BM, BK))
        sb_all = smem[stages * BM * BK:stages * (BM + BN) * BK].reshape((stages, BN, BK))
        staging = smem[stages * (BM + BN) * BK:stages * (BM + BN) * BK + staged * 64 * BN].reshape(
            (staged, BN // 64, 64 * 64))
        bars = cuda.shared.array(2 * stages, uint64)
        tid = cuda.threadIdx.x
        wg = tid // 128
        if tid == 0:
            for s in range(stages):
                cuda.mbarrier.init(bars, s, 1)
                cuda.mbarrier.init(bars, stages + s, 2)
            cuda.fence_mbarrier_init()
        cuda.syncthreads()
        tiles = grid_m * grid_n
        it = 0  # buffers used so far: the ring's position and phase
        if wg == 0:
            cuda.setmaxnreg_dec(40)
            if tid == 0:
                for tile in range(cuda.blockIdx.x, tiles, cuda.gridDim.x):
                    m0, n0 = tile_origin(tile, grid_m, grid_n)
                    for k in range(k_tiles):
                        s = it % stages
                        if it >= stages:
                            cuda.mbarrier.wait(bars, stages + s, (it // stages - 1) & 1)
                        cuda.mbarrier.arrive_expect_tx(bars, s, (BM + BN) * BK * 2)
                        cuda.tma.load(sa_all[s], ta, (m0, k * BK), bars, s)
                        cuda.tma.load(sb_all[s], tb, (n0, k * BK), bars, s)
                        it += 1
        else:
            cuda.setmaxnreg_inc(232)
            row = (wg - 1) * 64
            for tile in range(cuda.blockIdx.x, tiles, cuda.gridDim.x):
                m0, n0 = tile_origin(tile, grid_m, grid_n)
                acc = cuda.wgmma.zeros(BN)
                for k in range(k_tiles):
                    s = it % stages
                    cuda.mbarrier.wait(bars, s, (it // stages) & 1)
                    acc = multiply_buffer(acc, sa_all[s, row:row + 64], sb_all[s])
                    acc = cuda.wgmma.wait_group(1, acc)
                    if k > 0 and tid % 128 == 0:
                        cuda.mbarrier.arrive(bars, stages + (it - 1) % stages)
                    it += 1
                acc = cuda.wgmma.wait_group(0, acc)
                if tid % 128 == 0:
                    cuda.mbarrier.arrive(bars, stages + (it - 1) % stages)
                if tma_epilogue:
                    # the staging tile is free once the last store has read it
                    lead = tid % 128 == 0
                    if lead:
                        cuda.tma.wait_group(0)
                    cuda.named_barrier_sync(wg, 128)
                    stage_tile(staging[wg - 1], acc)
                    cuda.fence_proxy_async()  # the writes, visible to the copy engine
                    cuda.named_barrier_sync(wg, 128)
                    if lead:
                        for q in range(BN // 64):
                            cuda.tma.store(c, (m0 + row, n0 + 64 * q), staging[wg - 1, q])
                        cuda.tma.commit_group()
                elif bias_relu:
                    store_bias_relu(c, m0 + row, n0, acc, bias)
                else:
                    cuda.wgmma.store(c, (m0 + row, n0), acc)
            if tma_epilogue and tid % 128 == 0:
                cuda.tma.wait_group(0)  # (the block's shared memory must outlive the stores)

    _kernels[key] = gemm
    return gemm


def matmul(a, b, c, dtype, blocks=None, bias=None, tma_epilogue=False):
    """c = a @ b.T on the current device: a (M x K) and b (N x K) device
    arrays (or tensors) of `dtype`, rows of a multiple of 16 bytes (TMA
    reads zeros past K in the last buffer). `blocks`: run the
    persistent kernel with that many blocks (the multiprocessors' count);
    with `bias` (N values), c = max(a @ b.T + bias, 0); with `tma_epilogue`
    (c of `dtype`), the tiles are stored through shared memory by TMA.
    8-bit floats (float8_e4m3fn, float8_e5m2) run in the block-per-tile
    kernel (buffers of 128 values in k)."""
    M, K = a.shape
    N = b.shape[0]
    bk = block_k(dtype)
    if K * dtype.bitwidth // 8 % 16:
        raise ValueError(f"K = {K}: the rows of a and b must be multiples of 16 bytes")
    ta = cuda.make_tensor_map(a, (BM, bk), swizzle=128)
    tb = cuda.make_tensor_map(b, (BN, bk), swizzle=128)
    grid_m, grid_n = (M + BM - 1) // BM, (N + BN - 1) // BN
    if blocks is None:
        make_gemm(dtype)[(grid_n, grid_m), THREADS, 0, SHARED_BYTES](ta, tb, c, (K + bk - 1) // bk)
    else:
        if bk != BK:
            raise ValueError("the persistent kernel takes 16-bit inputs")
        kernel = make_persistent_gemm(dtype, bias is not None, tma_epilogue)
        if bias is None:
            bias = cuda.device_array(1, np.float32)  # (not read)
        out, smem = c, SHARED_BYTES
        if tma_epilogue:
            out, smem = cuda.make_tensor_map(c, (64, 64), swizzle=128), TMA_SHARED_BYTES
        kernel[blocks, THREADS, 0, smem](ta, tb, out, (K + BK - 1) // BK, grid_m, grid_n, bias)
    return c


def main():
    on_gpu = cuda.device_kind() == "cuda"
    M, N, K = (4096, 4096, 4096) if on_gpu else (256, 512, 128)
    rng = np.random.default_rng(0)
    ai = rng.integers(-3, 4, (M, K)).astype(np.float64)
    bi = rng.integers(-3, 4, (N, K)).astype(np.float64)
    a = cuda.to_device(kjit.float32_to_bf16(ai))
    b = cuda.to_device(kjit.float32_to_bf16(bi))
    ok = True
    for blocks in (None, 3):  # a block per tile; 3 blocks walking the tiles
        c = cuda.device_array((M, N), np.float32)
        matmul(a, b, c, kjit.bfloat16, blocks)
        ok = ok and np.array_equal(c.copy_to_host(), ai @ bi.T)
    c = cuda.to_device(kjit.float32_to_bf16(np.zeros((M, N))))  # stored by TMA from shared memory
    matmul(a, b, c, kjit.bfloat16, 3, tma_epilogue=True)
    ok = ok and np.array_equal(kjit.bf16_to_float32(c.copy_to_host()),
                               kjit.bf16_to_float32(kjit.float32_to_bf16(ai @ bi.T)))
    print(f"gemm {M}x{N}x{K} bfloat16 on {cuda.device_kind()}: {'ok' if ok else 'WRONG'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
