"""SAXPY for AMD GPUs: the same kernel language, compiled to an AMDGCN code
object (no AMD GPU needed to compile), and launched through the HIP runtime
when an AMD GPU is there.

    PYTHONPATH=python_bindings /usr/bin/python3 examples/amd_saxpy.py

Look inside: build/bin/kjitc --emit=amdgcn --target=gfx90a \\
    --sig="(float32, float32[::1], float32[::1], float32[::1])" examples/amd_saxpy.py:saxpy
"""
import numpy as np

from kjit import cuda, hip


def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = a * x[i] + y[i]


if __name__ == "__main__":
    sig = "void(float32, float32[::1], float32[::1], float32[::1])"
    for arch in ("gfx90a", "gfx1030"):
        hsaco, _ = cuda.compile_amdgcn(saxpy, sig, arch=arch, output="hsaco")
        asm, _ = cuda.compile_amdgcn(saxpy, sig, arch=arch)
        print(f"{arch}: a {len(hsaco)}-byte code object, {asm.count('global_load_dword')} global loads")
    if hip.is_available():
        kernel = hip.jit(saxpy)
        n = 1 << 20
        x = np.arange(n, dtype=np.float32)
        y = np.ones(n, dtype=np.float32)
        out = np.empty_like(x)
        kernel[(n + 255) // 256, 256](np.float32(2), x, y, out)
        assert np.allclose(out, 2 * x + y)
        print(f"saxpy ok on {hip.list_devices()[0]['name']}: {out[:4]}")
    else:
        print(f"not launched: {hip.why()}")
