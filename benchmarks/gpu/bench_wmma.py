"""Tensor cores through cuda.wmma and through cuda.mma_sync + ldmatrix +
cp_async: float16/bfloat16 GEMMs written as kjit kernels, checked against
PyTorch, timed against cuBLAS (torch.matmul) in the same process on the same
GPU. Informational: these warp-level paths cannot reach cuBLAS on Hopper
(docs/design/tensor-cores.md, section 5); the wgmma path is the one meant
to. Writes bench_wmma.json to OUT_DIR.

    python3 benchmarks/gpu/bench_wmma.py [OUT_DIR]
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "python_bindings"))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("OUT", ".")

import torch  # noqa: E402

from kjit import cuda, float32  # noqa: E402

BM, BN, BK = 64, 64, 32  # block tile; 8 warps, each a 32x16 strip (two 16x16 products)


def make_kernel(dtype):
    @cuda.jit
    def gemm(a, b, c):
        sa = cuda.shared.array((BM, BK), dtype)
        sb = cuda.shared.array((BK, BN), dtype)
        t = cuda.threadIdx.x
        warp = t // 32
        wm = (warp // 4) * 32  # this warp's rows in the block tile: wm, wm + 16
        wn = (warp % 4) * 16
        row0 = cuda.blockIdx.y * BM
        col0 = cuda.blockIdx.x * BN
        acc0 = cuda.wmma.fill_fragment((16, 16, 16), float32, 0.0)
        acc1 = cuda.wmma.fill_fragment((16, 16, 16), float32, 0.0)
        for k0 in range(0, a.shape[1], BK):
            for i in range(t, BM * BK, 256):
                sa[i // BK, i % BK] = a[row0 + i // BK, k0 + i % BK]
            for i in range(t, BK * BN, 256):
                sb[i // BN, i % BN] = b[k0 + i // BN, col0 + i % BN]
            cuda.syncthreads()
            for kk in range(0, BK, 16):
                fb = cuda.wmma.load_matrix_sync("b", (16, 16, 16), sb, (kk, wn), "row")
                fa0 = cuda.wmma.load_matrix_sync("a", (16, 16, 16), sa, (wm, kk), "row")
                acc0 = cuda.wmma.mma_sync(fa0, fb, acc0)
                fa1 = cuda.wmma.load_matrix_sync("a", (16, 16, 16), sa, (wm + 16, kk), "row")
                acc1 = cuda.wmma.mma_sync(fa1, fb, acc1)
            cuda.syncthreads()
        cuda.wmma.store_matrix_sync(c, (row0 + wm, col0 + wn), acc0, "row")
        cuda.wmma.store_matrix_sync(c, (row0 + wm + 16, col0 + wn), acc1, "row")

    return gemm


MBM, MBN, MBK = 64, 64, 32  # mma_sync kernel: 4 warps, each a 32x32 tile (2 x 4 m16n8k16 products)


def make_mma_kernel(dtype):
    @cuda.jit
    def gemm(a, b, c):
        sa = cuda.shared.array((MBM, MBK), dtype)
        sb = cuda.shared.array((MBK, MBN), dtype)
        t = cuda.threadIdx.x
        lane = t & 31
        warp = t >> 5
        wm = (warp >> 1) * 32
        wn = (warp & 1) * 32
        row0 = cuda.blockIdx.y * MBM
        col0 = cuda.blockIdx.x * MBN
        z = float32(0)
        c00 = c01 = c02 = c03 = c10 = c11 = c12 = c13 = (z, z, z, z)
        for k0 in range(0, a.shape[1], MBK):
            # 64 x 32 values of a and 32 x 64 of b: 256 copies of 16 bytes each, 2 a thread
            for q in range(t, 256, 128):
                cuda.cp_async(sa, (q >> 2, (q & 3) * 8), a, (row0 + (q >> 2), k0 + (q & 3) * 8), 16)
                cuda.cp_async(sb, (q >> 3, (q & 7) * 8), b, (k0 + (q >> 3), col0 + (q & 7) * 8), 16)
            cuda.cp_async_commit()
            cuda.cp_async_wait(0)
            cuda.syncthreads()
            for kk in range(0, MBK, 16):
                ac = kk + 8 * (lane >> 4)
                a0 = cuda.ldmatrix(sa, (wm + (lane & 15), ac), 4)
                a1 = cuda.ldmatrix(sa, (wm + 16 + (lane & 15), ac), 4)
                br = kk + (lane & 7) + 8 * ((lane >> 3) & 1)
                b01 = cuda.ldmatrix(sb, (br, wn + 8 * (lane >> 4)), 4, True)
                b23 = cuda.ldmatrix(sb, (br, wn + 16 + 8 * (lane >> 4)), 4, True)
                b0 = (b01[0], b01[1], b01[2], b01[3])
                b1 = (b01[4], b01[5], b01[6], b01[7])
                b2 = (b23[0], b23[1], b23[2], b23[3])
                b3 = (b23[4], b23[5], b23[6], b23[7])
                c00 = cuda.mma_sync("m16n8k16", a0, b0, c00)
                c01 = cuda.mma_sync("m16n8k16", a0, b1, c01)
                c02 = cuda.mma_sync("m16n8k16", a0, b2, c02)
                c03 = cuda.mma_sync("m16n8k16", a0, b3, c03)
                c10 = cuda.mma_sync("m16n8k16", a1, b0, c10)
                c11 = cuda.mma_sync("m16n8k16", a1, b1, c11)
                c12 = cuda.mma_sync("m16n8k16", a1, b2, c12)
                c13 = cuda.mma_sync("m16n8k16", a1, b3, c13)
            cuda.syncthreads()
        g = lane >> 2
        q2 = (lane & 3) * 2
        for (acc, mi, ni) in ((c00, 0, 0), (c01, 0, 1), (c02, 0, 2), (c03, 0, 3),
                              (c10, 1, 0), (c11, 1, 1), (c12, 1, 2), (c13, 1, 3)):
            r = row0 + wm + 16 * mi + g
            cc = col0 + wn + 8 * ni + q2
            c[r, cc] = acc[0]
            c[r, cc + 1] = acc[1]
            c[r + 8, cc] = acc[2]
            c[r + 8, cc + 1] = acc[3]

    return gemm


def time_ms(fn, reps=20):
    fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        e.synchronize()
        ts.append(s.elapsed_time(e))
    ts.sort()
    return ts[len(ts) // 2]


def main():
    from kjit import bfloat16, float16
    rows = []
    for n in (2048, 4096):
        for tname, tdt, kdt in (("float16", torch.float16, float16), ("bfloat16", torch.bfloat16, bfloat16)):
            a = torch.randn(n, n, device="cuda").to(tdt)
            b = torch.randn(n, n, device="cuda").to(tdt)
            c = torch.empty(n, n, device="cuda", dtype=torch.float32)
            ref = (a.float() @ b.float())
            flops = 2 * n ** 3
            t_cublas = time_ms(lambda: a @ b)
            for kind, k, grid, threads in (("wmma", make_kernel(kdt), (n // BN, n // BM), 256),
                                           ("mma_sync", make_mma_kernel(kdt), (n // MBN, n // MBM), 128)):
                run = lambda: k[grid, threads](a, b, c)  # noqa: E731
                c.zero_()
                run()
                torch.cuda.synchronize()
                err = ((c - ref).abs().max() / ref.abs().max()).item()
                assert err < 1e-2, (kind, err)
                t_k = time_ms(run)
                row = {"n": n, "dtype": tname, "kernel": kind, "kjit_ms": t_k, "cublas_ms": t_cublas,
                       "kjit_tflops": flops / t_k / 1e9, "cublas_tflops": flops / t_cublas / 1e9,
                       "max_rel_err": err, "gpu": torch.cuda.get_device_name()}
                rows.append(row)
                print(f"{tname:9} {n:5}^3  kjit {kind:8} {row['kjit_tflops']:7.1f} TFLOP/s   cuBLAS "
                      f"{row['cublas_tflops']:7.1f} TFLOP/s   ({100 * t_cublas / t_k:.1f} % of cuBLAS)")
    # the same mma_sync kernel through nvcc (benchmarks/gpu/cuda/mma_gemm.cu), float16
    import shutil
    import subprocess
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    if os.path.exists(nvcc):
        exe = os.path.join(OUT, "mma_gemm")
        subprocess.run([nvcc, "-O3", "-arch=sm_90", "-o", exe, os.path.join(HERE, "cuda", "mma_gemm.cu")],
                       check=True)
        for n in (2048, 4096):
            ms = float(subprocess.run([exe, str(n)], check=True, capture_output=True,
                                      text=True).stdout.split()[1])
            kj = next(r for r in rows if r["n"] == n and r["dtype"] == "float16" and r["kernel"] == "mma_sync")
            rows.append({"n": n, "dtype": "float16", "kernel": "mma_sync (nvcc)", "nvcc_ms": ms,
                         "kjit_ms": kj["kjit_ms"], "kjit_over_nvcc": kj["kjit_ms"] / ms})
            print(f"float16   {n:5}^3  the same mma_sync kernel: nvcc {ms:.4f} ms, kjit {kj['kjit_ms']:.4f} ms "
                  f"(kjit/nvcc {kj['kjit_ms'] / ms:.3f})")
    with open(os.path.join(OUT, "bench_wmma.json"), "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
