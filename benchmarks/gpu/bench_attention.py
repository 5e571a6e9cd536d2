"""Forward attention written in the kernel language (examples/
attention_hopper.py: TMA, mbarriers, wgmma with p in registers) against
torch.nn.functional.scaled_dot_product_attention in one process, on the same
card: its flash and cuDNN backends each (sdpa_kernel), float16 and bfloat16,
causal and not, head dim 64 and 128, batch 4 x 16 heads, sequence 1k-16k.
Each output is checked against SDPA's first. TFLOP/s count 4 * seq^2 * d
per head (halved when causal), as FlashAttention's papers do. Timing: CUDA
events, median of interleaved rounds after a warm-up. Writes
$OUT/bench_attention.json.

    python benchmarks/gpu/bench_attention.py [seq ...]     (on an H100 or H200)
    KJIT_BENCH_D=128 python benchmarks/gpu/bench_attention.py 8192   (head dim 128 only)

kjit's three kernels: "kjit" (the example's default: overlap within a
warpgroup and ping-pong between the two), "kjit_no_pingpong",
"kjit_unpipelined" (each step after the other).
"""
import json
import math
import os
import sys

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "examples"))
sys.path.insert(0, HERE)
OUT = os.environ.get("OUT", "/tmp")

import attention_hopper as A  # noqa: E402
from bench_wgmma import measure  # noqa: E402  (interleaved medians)

from kjit import bfloat16, cuda, float16, float32  # noqa: E402


def sdpa_backends():
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel
    except ImportError:
        return {"sdpa": None}
    return {"sdpa_flash": (sdpa_kernel, SDPBackend.FLASH_ATTENTION),
            "sdpa_cudnn": (sdpa_kernel, SDPBackend.CUDNN_ATTENTION)}


def main():
    seqs = [int(s) for s in sys.argv[1:]] or [1024, 4096, 8192, 16384]
    batch, heads = 4, 16
    gpu = torch.cuda.get_device_name()
    print(gpu)
    rows = []
    heads_dims = [int(x) for x in os.environ.get("KJIT_BENCH_D", "128,64").split(",")]
    for d in heads_dims:
        for seq in seqs:
            for tname, tdt, kdt in (("float16", torch.float16, float16), ("bfloat16", torch.bfloat16, bfloat16)):
                for causal in (False, True):
                    torch.manual_seed(0)
                    q, k, v = (torch.randn(batch, heads, seq, d, device="cuda", dtype=tdt) for _ in range(3))
                    o = torch.empty_like(q)
                    hb = batch * heads
                    q2, k2, v2, o2 = (x.view(hb * seq, d) for x in (q, k, v, o))
                    tq = cuda.make_tensor_map(q2, (A.BM, 64))
                    tk = cuda.make_tensor_map(k2, (A.BN, 64))
                    tv = cuda.make_tensor_map(v2, (A.BN, 64))
                    launch = ((seq // A.BM, hb), A.THREADS, 0, A.shared_bytes(d))
                    kern = A.make_attention(kdt, d, causal, True, True)[launch]
                    nopp = A.make_attention(kdt, d, causal, True, False)[launch]
                    simple = A.make_attention(kdt, d, causal, False, False)[launch]
                    c = float32(1 / math.sqrt(d) * A.LOG2E)
                    fns = {"kjit": lambda: kern(tq, tk, tv, o2, seq, c),
                           "kjit_no_pingpong": lambda: nopp(tq, tk, tv, o2, seq, c),
                           "kjit_unpipelined": lambda: simple(tq, tk, tv, o2, seq, c)}
                    row = {"seq": seq, "d": d, "dtype": tname, "causal": causal, "gpu": gpu,
                           "batch": batch, "heads": heads}
                    ref = None
                    for name, be in sdpa_backends().items():
                        def run(be=be):
                            if be is None:
                                return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
                            with be[0](be[1]):
                                return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
                        try:
                            out = run()
                            torch.cuda.synchronize()
                        except Exception as e:  # noqa: BLE001 - a backend the card or shape lacks
                            row[name + "_error"] = repr(e)[:200]
                            continue
                        ref = out if ref is None else ref
                        fns[name] = run
                    for name in ("kjit", "kjit_no_pingpong", "kjit_unpipelined"):
                        o.fill_(float("nan"))
                        fns[name]()
                        torch.cuda.synchronize()
                        row[name + "_max_abs_err"] = (o.float() - ref.float()).abs().max().item()
                    ms = measure(fns, rounds=5, reps=5)
                    flops = 4 * batch * heads * seq * seq * d / (2 if causal else 1)
                    for name, t in ms.items():
                        row[name + "_ms"] = t
                        row[name + "_tflops"] = flops / t / 1e9
                    best = min(t for n, t in ms.items() if not n.startswith("kjit"))
                    row["kjit_vs_best_sdpa"] = best / ms["kjit"]
                    fastest = min((n for n in ms if n.startswith("kjit")), key=ms.get)
                    row["kjit_fastest"] = fastest
                    row["kjit_fastest_vs_best_sdpa"] = best / ms[fastest]
                    line = f"d {d:3} seq {seq:5} {tname:8} {'causal' if causal else 'full  '}"
                    for name in ms:
                        line += f"  {name} {row[name + '_tflops']:6.1f}"
                    print(line + f"  kjit/best {100 * row['kjit_vs_best_sdpa']:5.1f} %  fastest kjit/best "
                          f"{100 * row['kjit_fastest_vs_best_sdpa']:5.1f} %  err "
                          f"{max(row[n + '_max_abs_err'] for n in fns if n.startswith('kjit')):.1e}", flush=True)
                    rows.append(row)
                    with open(os.path.join(OUT, "bench_attention.json"), "w") as f:
                        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
