"""Launches one variant of examples/attention_hopper.py a few times, for a
profiler (ncu) to read; and, with --sass DIR, writes each variant's cubin
(ptxas -arch=sm_90a) there for cuobjdump --dump-sass.

    python benchmarks/gpu/probes/attention_variant.py float16 128 full pipelined|nopp|unpipelined [seq]
    python benchmarks/gpu/probes/attention_variant.py --sass DIR
"""
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "examples"))

import attention_hopper as A  # noqa: E402

import kjit  # noqa: E402
from kjit import cuda, float32  # noqa: E402

VARIANTS = {"pipelined": (True, True), "nopp": (True, False), "unpipelined": (False, False)}


def sass(out):
    os.makedirs(out, exist_ok=True)
    for dtype in ("float16",):
        for causal in (False, True):
            for name, (pipe, pp) in VARIANTS.items():
                k = A.make_attention(getattr(kjit, dtype), 128, causal, pipe, pp)
                sig = f"void(uint64[::1], uint64[::1], uint64[::1], {dtype}[:, ::1], int64, float32)"
                ptx, _ = cuda.compile_ptx(k, sig, cc=(9, 0))
                base = os.path.join(out, f"{dtype}_{'causal' if causal else 'full'}_{name}")
                with open(base + ".ptx", "w") as f:
                    f.write(ptx)
                r = subprocess.run(["ptxas", "-arch=sm_90a", "-v", base + ".ptx", "-o", base + ".cubin"],
                                   capture_output=True, text=True)
                print(base, r.returncode, r.stderr.strip().splitlines()[-2:])
                d = subprocess.run(["cuobjdump", "--dump-sass", base + ".cubin"], capture_output=True, text=True)
                with open(base + ".sass", "w") as f:
                    f.write(d.stdout)


def main():
    if sys.argv[1] == "--sass":
        return sass(sys.argv[2])
    import torch
    dtype, d, mode, variant = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    seq = int(sys.argv[5]) if len(sys.argv) > 5 else 8192
    causal = mode == "causal"
    hb = 64
    q, k, v = (torch.randn(hb * seq, d, device="cuda", dtype=getattr(torch, dtype)) for _ in range(3))
    o = torch.empty_like(q)
    tq, tk, tv = (cuda.make_tensor_map(x, (A.BM, 64)) for x in (q, k, v))
    pipe, pp = VARIANTS[variant]
    kern = A.make_attention(getattr(kjit, dtype), d, causal, pipe, pp)[(seq // A.BM, hb), A.THREADS, 0,
                                                                      A.shared_bytes(d)]
    for _ in range(3):
        kern(tq, tk, tv, o, seq, float32(1 / math.sqrt(d) * A.LOG2E))
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
