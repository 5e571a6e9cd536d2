"""SAXPY with @cuda.jit, on the GPU when there is one.

    out[i] = a * x[i] + y[i]

    PYTHONPATH=python_bindings /usr/bin/python3 examples/saxpy.py

Without a GPU this compiles the kernel and prints its PTX instead (the CPU
device that runs kernels without a GPU is issue 6). Look inside:
build/bin/kjitc --emit=ast examples/saxpy.py:saxpy
"""
import numpy as np

from kjit import cuda


@cuda.jit
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = a * x[i] + y[i]


if __name__ == "__main__":
    n = 1 << 20
    x = np.arange(n, dtype=np.float32)
    y = np.ones(n, dtype=np.float32)
    if cuda.is_available():
        d_x, d_y = cuda.to_device(x), cuda.to_device(y)
        d_out = cuda.device_array_like(x)
        threads = 256
        saxpy[(n + threads - 1) // threads, threads](np.float32(2.0), d_x, d_y, d_out)
        out = d_out.copy_to_host()
        assert np.allclose(out, 2.0 * x + y)
        print(f"saxpy ok on {cuda.get_current_device().name}:", out[:4])
    else:
        ptx, _ = cuda.compile_ptx(saxpy, "void(float32, float32[::1], float32[::1], float32[::1])")
        print("no CUDA GPU here: the kernel's PTX (sm_90) is", len(ptx.splitlines()), "lines; its entry:")
        print("\n".join(line for line in ptx.splitlines() if ".entry" in line or "fma.rn" in line))
