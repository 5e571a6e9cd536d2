"""SAXPY with @cuda.jit: on the GPU when there is one, else on the CPU device.

    out[i] = a * x[i] + y[i]

    PYTHONPATH=python_bindings /usr/bin/python3 examples/saxpy.py

The same source runs everywhere: KJIT_DEVICE=cpu forces the CPU device (the
kernel compiled for the host, blocks over a thread pool), and
KJIT_ENABLE_CUDASIM=1 runs it in the Python interpreter (the simulator).
Look inside: build/bin/kjitc --emit=ast examples/saxpy.py:saxpy
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
    if cuda.get_current_device().name == "kjit simulator":
        n = 1 << 12  # the simulator runs one Python thread per GPU thread
        x, y = x[:n], y[:n]
    d_x, d_y = cuda.to_device(x), cuda.to_device(y)
    d_out = cuda.device_array_like(x)
    threads = 256
    saxpy[(n + threads - 1) // threads, threads](np.float32(2.0), d_x, d_y, d_out)
    out = d_out.copy_to_host()
    assert np.allclose(out, 2.0 * x + y)
    print(f"saxpy ok on {cuda.get_current_device().name}:", out[:4])
    if cuda.device_kind() == "cpu":
        ptx, _ = cuda.compile_ptx(saxpy, "void(float32, float32[::1], float32[::1], float32[::1])")
        print("no CUDA GPU here; for one, the kernel's PTX (sm_90) has the entry:")
        print("\n".join(line for line in ptx.splitlines() if ".entry" in line))
