"""kjit's AMDGCN code against clang's HIP for the same kernels, with no AMD GPU.

The seed kernels (tools/gpu/seed_kernels.py) are compiled by kjit
(cuda.compile_amdgcn, C-contiguous arrays) and their HIP C++ twins
(benchmarks/amdgpu/kernels.hip) by clang-19 with the same ROCm device
libraries; both code objects are disassembled with llvm-objdump and each
kernel's instructions are counted (to its s_endpgm: the padding after it is
not code). Prints a Markdown table (the one in docs/amdgpu.md) and, with
--json FILE, writes the counts.

    PYTHONPATH=python_bindings python3 benchmarks/amdgpu/parity.py [--arch gfx90a ...]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "tools", "gpu"))

DEVICE_LIBS = os.environ.get("KJIT_ROCM_DEVICE_LIBS", "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode")


def tool(name):
    for cand in (f"{name}-19", name, f"/usr/lib/llvm-19/bin/{name}"):
        path = shutil.which(cand) or (cand if os.path.isfile(cand) else None)
        if path:
            return path
    raise SystemExit(f"parity: {name} (LLVM 19) not found")


def counts(hsaco_path, arch):
    """{kernel: instructions to its s_endpgm} of a code object."""
    text = subprocess.run([tool("llvm-objdump"), "-d", f"--mcpu={arch}", hsaco_path], capture_output=True,
                          text=True, check=True).stdout
    out, cur, n, done = {}, None, 0, False
    for line in text.splitlines():
        m = re.match(r"^[0-9a-f]+ <([^>]+)>:$", line)
        if m:
            if cur is not None:
                out[cur] = n
            cur, n, done = m.group(1), 0, False
            continue
        if cur is None or done or not line.startswith("\t"):
            continue
        n += 1
        if line.split()[0] == "s_endpgm":
            done = True
    if cur is not None:
        out[cur] = n
    return out


def clang_counts(arch, work):
    path = os.path.join(work, f"hip-{arch}.hsaco")
    subprocess.run([tool("clang++"), "-x", "hip", f"--offload-arch={arch}", "--cuda-device-only",
                    "--no-gpu-bundle-output", "-O3", os.path.join(HERE, "kernels.hip"), "-o", path,
                    "--rocm-path=/usr", f"--rocm-device-lib-path={DEVICE_LIBS}"], check=True)
    return counts(path, arch)


KERNELS = [  # seed kernel, kjit signature
    ("add_kernel", "void(float32[::1], float32[::1], float32[::1])"),
    ("increment_a_2D_array", "void(float32[:, ::1])"),
    ("saxpy", "void(float32, float32[::1], float32[::1], float32[::1])"),
    ("fast_matmul", "void(float32[:, ::1], float32[:, ::1], float32[:, ::1])"),
    ("histogram", "void(float32[::1], float32, float32, int32[::1])"),
    ("block_sum", "void(float32[::1], float32[::1])"),
    ("sinexp", "void(float32[::1], float32[::1])"),
]


def kjit_counts(arch, work):
    import seed_kernels as S
    from kjit import cuda
    out = {}
    for name, sig in KERNELS:
        hsaco, _ = cuda.compile_amdgcn(getattr(S, name), sig, arch=arch, output="hsaco")
        path = os.path.join(work, f"kjit-{name}-{arch}.hsaco")
        with open(path, "wb") as f:
            f.write(hsaco)
        out[name] = counts(path, arch)[name]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arch", action="append", help="gfx90a, gfx940, gfx1030 (default: all three)")
    ap.add_argument("--json", help="write the counts here")
    args = ap.parse_args()
    archs = args.arch or ["gfx90a", "gfx940", "gfx1030"]
    rows, worst = [], 0.0
    with tempfile.TemporaryDirectory() as work:
        for arch in archs:
            ref, ours = clang_counts(arch, work), kjit_counts(arch, work)
            for name, _ in KERNELS:
                ratio = ours[name] / ref[name]
                worst = max(worst, abs(ratio - 1))
                rows.append({"arch": arch, "kernel": name, "kjit": ours[name], "clang": ref[name],
                             "ratio": round(ratio, 3)})
    print("| processor | kernel | kjit | clang (HIP) | kjit / clang |")
    print("|---|---|---:|---:|---:|")
    for r in rows:
        print(f"| {r['arch']} | {r['kernel']} | {r['kjit']} | {r['clang']} | {r['ratio']:.2f} |")
    print(f"\nlargest difference: {worst * 100:.1f} %")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "largest_difference": worst}, f, indent=1)


if __name__ == "__main__":
    main()
