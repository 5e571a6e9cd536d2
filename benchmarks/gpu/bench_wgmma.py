"""The Hopper GEMM written in the kernel language (examples/gemm_hopper.py:
TMA, mbarriers, wgmma, warp specialisation) against cuBLAS (torch.matmul)
and Triton (tl.dot) in one process, on the same card, float16 and bfloat16
at 4096^3 and 8192^3. c = a @ b.T with a: M x K, b: N x K, c in the inputs'
type. Checked against torch.matmul first. Timing: CUDA events, median of
the runs after a warm-up. Writes $OUT/bench_wgmma.json and, with
cuobjdump, the count of HGMMA instructions in the kernel's SASS.

    python benchmarks/gpu/bench_wgmma.py      (on an H100 or H200)
"""
import json
import os
import shutil
import subprocess
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "examples"))
sys.path.insert(0, HERE)
OUT = os.environ.get("OUT", "/tmp")

import gemm_hopper  # noqa: E402
import gemm_tile  # noqa: E402  (the same GEMM written with tiles: kjit.cuda.tile)
from bench_wmma import time_ms  # noqa: E402  (events, median after a warm-up)

from kjit import bfloat16, cuda, float8_e4m3fn, float16  # noqa: E402


def triton_matmul():
    try:
        import triton
        import triton.language as tl
    except ImportError:
        return None

    @triton.jit
    def kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):
        pid = tl.program_id(0)
        grid_m = tl.cdiv(M, BM)
        grid_n = tl.cdiv(N, BN)
        width = GROUP * grid_n
        group = pid // width
        first = group * GROUP
        size = min(grid_m - first, GROUP)
        pm = first + (pid % width) % size
        pn = (pid % width) // size
        rm = pm * BM + tl.arange(0, BM)
        rn = pn * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        pa = a + rm[:, None] * K + rk[None, :]
        pb = b + rn[None, :] * K + rk[:, None]  # b is N x K: its transpose, K x N
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for _ in range(0, K, BK):
            acc = tl.dot(tl.load(pa), tl.load(pb), acc)
            pa += BK
            pb += BK
        tl.store(c + rm[:, None] * N + rn[None, :], acc.to(c.dtype.element_ty))

    def run(a, b, c):
        M, K = a.shape
        N = b.shape[0]
        grid = (triton.cdiv(M, 128) * triton.cdiv(N, 256),)
        kernel[grid](a, b, c, M, N, K, BM=128, BN=256, BK=64, GROUP=8, num_warps=8, num_stages=3)

    return run


def sass_hgmma(kern, dtype):
    """The number of HGMMA instructions in the kernel's SASS (cuobjdump)."""
    tool = shutil.which("cuobjdump") or "/usr/local/cuda/bin/cuobjdump"
    ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    if not (os.path.exists(tool) and os.path.exists(ptxas)):
        return None
    ptx, _ = cuda.compile_ptx(kern, f"void(uint64[::1], uint64[::1], {dtype}[:, ::1], int64, int64, int64, "
                                    f"float32[::1])", cc=(9, 0))
    src, cubin = os.path.join(OUT, "gemm_hopper.ptx"), os.path.join(OUT, "gemm_hopper.cubin")
    with open(src, "w") as f:
        f.write(ptx)
    v = subprocess.run([ptxas, "-arch=sm_90a", "-v", src, "-o", cubin], capture_output=True, text=True)
    sass = subprocess.run([tool, "--dump-sass", cubin], capture_output=True, text=True).stdout
    with open(os.path.join(OUT, "gemm_hopper.sass"), "w") as f:
        f.write(sass)
    return {"hgmma": sass.count("HGMMA"), "ptxas": v.stderr.strip()}


def measure(fns, rounds=7, reps=10):
    """Median time (ms) of each function, the functions taking turns over
    `rounds` rounds of `reps` runs (clock changes then hit all of them), after
    about half a second of warm-up."""
    for f in fns.values():
        f()
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    start.record()
    while True:
        for f in fns.values():
            f()
        end = torch.cuda.Event(enable_timing=True)
        end.record()
        end.synchronize()
        if start.elapsed_time(end) > 500:
            break
    times = {k: [] for k in fns}
    for _ in range(rounds):
        for k, f in fns.items():
            times[k].append(time_ms(f, reps))
    return {k: sorted(v)[len(v) // 2] for k, v in times.items()}


def fp8_rows(gpu):
    """8-bit floats (e4m3, the block-per-tile kernel) against cuBLASLt's fp8 GEMM (torch._scaled_mm, unit scales, bfloat16 out)."""
    rows = []
    for n in (4096, 8192):
        torch.manual_seed(0)
        a = torch.randn(n, n, device="cuda").to(torch.float8_e4m3fn)
        b = torch.randn(n, n, device="cuda").to(torch.float8_e4m3fn)
        c = torch.empty(n, n, device="cuda", dtype=torch.bfloat16)
        one = torch.ones((), device="cuda")
        ref = a.float() @ b.float().T
        gm, gn = n // gemm_hopper.BM, n // gemm_hopper.BN
        ta = cuda.make_tensor_map(a, (gemm_hopper.BM, 128))
        tb = cuda.make_tensor_map(b, (gemm_hopper.BN, 128))
        tiled = gemm_hopper.make_gemm(float8_e4m3fn)[(gn, gm), gemm_hopper.THREADS, 0, gemm_hopper.SHARED_BYTES]
        fns = {"kjit_tiled": lambda: tiled(ta, tb, c, n // 128)}
        try:
            torch._scaled_mm(a, b.T, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
            fns["cublas"] = lambda: torch._scaled_mm(a, b.T, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
        except Exception as e:  # noqa: BLE001 - recorded
            print("torch._scaled_mm:", repr(e)[:200])
        c.fill_(float("nan"))
        fns["kjit_tiled"]()
        torch.cuda.synchronize()
        err = ((c.float() - ref).abs().max() / ref.abs().max()).item()
        ms = measure(fns)
        row = {"n": n, "dtype": "float8_e4m3fn", "gpu": gpu, "max_rel_err": err}
        for k, t in ms.items():
            row[k + "_ms"] = t
            row[k + "_tflops"] = 2 * n ** 3 / t / 1e9
        rows.append(row)
        line = f"float8_e4m3fn {n:5}^3  kjit {row['kjit_tiled_tflops']:6.1f}"
        if "cublas" in ms:
            line += f"  cuBLASLt {row['cublas_tflops']:6.1f} ({100 * ms['cublas'] / ms['kjit_tiled']:5.1f} %)"
        print(line + f"  err {err:.1e}", flush=True)
    return rows


def main():
    rows = []
    tri = triton_matmul()
    gpu = torch.cuda.get_device_name()
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    print(gpu, sms, "SMs")
    for n in (4096, 8192):
        for tname, tdt, kdt in (("float16", torch.float16, float16), ("bfloat16", torch.bfloat16, bfloat16)):
            torch.manual_seed(0)
            a = torch.randn(n, n, device="cuda").to(tdt)
            b = torch.randn(n, n, device="cuda").to(tdt)
            c = torch.empty(n, n, device="cuda", dtype=tdt)
            ref = (a @ b.T).float()
            out = torch.empty_like(c)
            no_bias = torch.zeros(1, device="cuda")  # (the kernel without the fused epilogue does not read it)
            ta = cuda.make_tensor_map(a, (gemm_hopper.BM, gemm_hopper.BK))
            tb = cuda.make_tensor_map(b, (gemm_hopper.BN, gemm_hopper.BK))
            gm, gn = n // gemm_hopper.BM, n // gemm_hopper.BN
            tiled = gemm_hopper.make_gemm(kdt)[(gn, gm), gemm_hopper.THREADS, 0, gemm_hopper.SHARED_BYTES]
            pers = gemm_hopper.make_persistent_gemm(kdt)[min(sms, gm * gn), gemm_hopper.THREADS, 0,
                                                          gemm_hopper.SHARED_BYTES]
            staged = gemm_hopper.make_persistent_gemm(kdt, False, True)[min(sms, gm * gn), gemm_hopper.THREADS, 0,
                                                                        gemm_hopper.TMA_SHARED_BYTES]
            tc = cuda.make_tensor_map(c, (64, 64))
            fns = {"cublas": lambda: torch.matmul(a, b.T, out=out),
                   "kjit_tiled": lambda: tiled(ta, tb, c, n // 64),
                   "kjit_persistent": lambda: pers(ta, tb, c, n // 64, gm, gn, no_bias),
                   "kjit_tma_epilogue": lambda: staged(ta, tb, tc, n // 64, gm, gn, no_bias),
                   "kjit_tile": lambda: gemm_tile.matmul[sms](a, b, c)}
            row = {"n": n, "dtype": tname, "gpu": gpu, "kjit_tile_path": gemm_tile.matmul.path_for(a, b, c)}
            kernels = ("kjit_tiled", "kjit_persistent", "kjit_tma_epilogue", "kjit_tile")
            for k in kernels:
                c.fill_(float("nan"))
                fns[k]()
                torch.cuda.synchronize()
                row[k + "_max_rel_err"] = ((c.float() - ref).abs().max() / ref.abs().max()).item()
            if tri is not None:
                ct = torch.empty_like(c)
                try:
                    tri(a, b, ct)
                    fns["triton"] = lambda: tri(a, b, ct)
                except Exception as e:  # noqa: BLE001 - recorded, not fatal
                    row["triton_error"] = repr(e)[:300]
            flops = 2 * n ** 3
            ms = measure(fns)
            for k, t in ms.items():
                row[k + "_ms"] = t
                row[k + "_tflops"] = flops / t / 1e9
            best = min(ms[k] for k in kernels)
            line = f"{tname:9} {n:5}^3  cuBLAS {row['cublas_tflops']:6.1f} TFLOP/s"
            for k in kernels:
                line += f"  {k} {row[k + '_tflops']:6.1f} ({100 * ms['cublas'] / ms[k]:5.1f} %)"
            if "triton" in ms:
                line += f"  Triton {row['triton_tflops']:6.1f} (kjit/Triton {ms['triton'] / best:.2f})"
            errs = max(row[k + "_max_rel_err"] for k in kernels)
            print(line + f"  err {errs:.1e}", flush=True)
            rows.append(row)
    # a ragged shape (M, N, K not multiples of the tile; K % 64 != 0) and the
    # fused bias + ReLU epilogue, bfloat16, persistent kernel
    for (M, N, K), fused in (((4000, 3000, 1000), False), ((4096, 4096, 4096), True)):
        torch.manual_seed(0)
        a = torch.randn(M, K, device="cuda").to(torch.bfloat16)
        b = torch.randn(N, K, device="cuda").to(torch.bfloat16)
        bias = torch.randn(N, device="cuda")
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        out = torch.empty_like(c)
        bias16 = bias.to(torch.bfloat16)
        if fused:
            ref = torch.relu(a.float() @ b.float().T + bias)
            base = lambda: torch.relu_(torch.addmm(bias16, a, b.T, out=out))  # noqa: E731
        else:
            ref = a.float() @ b.float().T
            base = lambda: torch.matmul(a, b.T, out=out)  # noqa: E731
        ta = cuda.make_tensor_map(a, (gemm_hopper.BM, gemm_hopper.BK))
        tb = cuda.make_tensor_map(b, (gemm_hopper.BN, gemm_hopper.BK))
        gm, gn = -(-M // gemm_hopper.BM), -(-N // gemm_hopper.BN)
        kern = gemm_hopper.make_persistent_gemm(bfloat16, fused)[min(sms, gm * gn), gemm_hopper.THREADS, 0,
                                                                  gemm_hopper.SHARED_BYTES]
        bias_arg = bias if fused else torch.zeros(1, device="cuda")
        run = lambda: kern(ta, tb, c, -(-K // 64), gm, gn, bias_arg)  # noqa: E731
        if fused:
            tile = lambda: gemm_tile.linear_relu[sms](a, b, bias, c)  # noqa: E731
        else:
            tile = lambda: gemm_tile.matmul[sms](a, b, c)  # noqa: E731
        errs = {}
        for name, fn in (("kjit", run), ("kjit_tile", tile)):
            c.fill_(float("nan"))
            fn()
            torch.cuda.synchronize()
            errs[name] = ((c.float() - ref).abs().max() / ref.abs().max()).item()
        ms = measure({"torch": base, "kjit": run, "kjit_tile": tile})
        flops = 2 * M * N * K
        row = {"shape": [M, N, K], "dtype": "bfloat16", "fused_bias_relu": fused, "gpu": gpu,
               "torch_ms": ms["torch"], "kjit_ms": ms["kjit"], "torch_tflops": flops / ms["torch"] / 1e9,
               "kjit_tflops": flops / ms["kjit"] / 1e9, "max_rel_err": errs["kjit"],
               "kjit_tile_ms": ms["kjit_tile"], "kjit_tile_tflops": flops / ms["kjit_tile"] / 1e9,
               "kjit_tile_max_rel_err": errs["kjit_tile"]}
        rows.append(row)
        print(f"bfloat16  {M}x{N}x{K}{' +bias+relu' if fused else ''}  torch {row['torch_tflops']:6.1f}  kjit "
              f"{row['kjit_tflops']:6.1f} ({100 * ms['torch'] / ms['kjit']:5.1f} %)  tile "
              f"{row['kjit_tile_tflops']:6.1f} ({100 * ms['torch'] / ms['kjit_tile']:5.1f} %)  err "
              f"{max(errs.values()):.1e}", flush=True)
    try:
        rows.extend(fp8_rows(gpu))
    except Exception as e:  # noqa: BLE001 - recorded, not fatal (an fp8 tensor kjit cannot take)
        print("fp8:", repr(e)[:300])
        rows.append({"fp8_error": repr(e)[:300]})
    rows.append({"sass": sass_hgmma(gemm_hopper.make_persistent_gemm(bfloat16), "bfloat16")})
    print(rows[-1])
    with open(os.path.join(OUT, "bench_wgmma.json"), "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
