"""A GEMM written with tiles (kjit.cuda.tile): c = a @ b.T, with a fused
bias + ReLU variant. On an H100/H200 the program becomes the warp-specialised
Hopper kernel (TMA, mbarriers, wgmma: examples/gemm_hopper.py written by
hand); on other devices (the CPU device, the simulator, other GPUs) it runs
the generic translation, with the same numbers (float32 accumulation).

    a: M x K, b: N x K (as torch.nn.Linear's weight), c: M x N;
    float16 or bfloat16 inputs (any float type on the generic path).

    python examples/gemm_tile.py     # 4096^3 on a GPU, 200 x 300 x 72 elsewhere
"""
import sys

import numpy as np

import kjit
from kjit import cuda, float32
import kjit.cuda.tile as T

BM, BN, BK = 128, 256, 64


@T.jit(num_warps=4)
def matmul(a, b, c):
    grid_m = (a.shape[0] + BM - 1) // BM
    grid_n = (b.shape[0] + BN - 1) // BN
    for tile in T.persistent(grid_m * grid_n):          # launch one block per multiprocessor
        pm, pn = T.swizzle2d(tile, grid_m, grid_n, 8)    # tiles in groups of 8 rows: cache hits
        acc = T.zeros((BM, BN), float32)
        for k in T.range(0, a.shape[1], BK):
            ta = T.load(a, (pm * BM, k), (BM, BK))      # outside the arrays: zeros
            tb = T.load(b, (pn * BN, k), (BN, BK))
            acc = T.dot(ta, T.trans(tb), acc)
        T.store(c, (pm * BM, pn * BN), acc)             # only inside c; converted to c's type


@T.jit(num_warps=4)
def linear_relu(a, b, bias, c):
    """c = max(a @ b.T + bias, 0), the epilogue applied to the accumulator."""
    grid_m = (a.shape[0] + BM - 1) // BM
    grid_n = (b.shape[0] + BN - 1) // BN
    for tile in T.persistent(grid_m * grid_n):
        pm, pn = T.swizzle2d(tile, grid_m, grid_n, 8)
        acc = T.zeros((BM, BN), float32)
        for k in T.range(0, a.shape[1], BK):
            ta = T.load(a, (pm * BM, k), (BM, BK))
            tb = T.load(b, (pn * BN, k), (BN, BK))
            acc = T.dot(ta, T.trans(tb), acc)
        tbias = T.load(bias, (pn * BN,), (BN,))
        T.store(c, (pm * BM, pn * BN), T.maximum(acc + tbias[None, :], 0.0))


def main():
    on_gpu = cuda.device_kind() == "cuda"
    M, N, K = (4096, 4096, 4096) if on_gpu else (200, 300, 72)
    rng = np.random.default_rng(0)
    ai = rng.integers(-3, 4, (M, K)).astype(np.float64)
    bi = rng.integers(-3, 4, (N, K)).astype(np.float64)
    bias = rng.integers(-20, 20, N).astype(np.float32)
    a = cuda.to_device(kjit.float32_to_bf16(ai))
    b = cuda.to_device(kjit.float32_to_bf16(bi))
    c = cuda.device_array((M, N), np.float32)
    matmul[T.num_sms()](a, b, c)
    ok = np.array_equal(c.copy_to_host(), ai @ bi.T)
    linear_relu[T.num_sms()](a, b, cuda.to_device(bias), c)
    ok = ok and np.array_equal(c.copy_to_host(), np.maximum(ai @ bi.T + bias, 0))
    print(f"tile gemm {M}x{N}x{K} bfloat16 on {cuda.device_kind()} ({matmul.path_for(a, b, c)} path): "
          f"{'ok' if ok else 'WRONG'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
