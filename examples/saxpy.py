"""SAXPY on the GPU (or the CPU device when there is no GPU).

    out[i] = a * x[i] + y[i]

Look inside: build/bin/kjitc --emit=ast examples/saxpy.py:saxpy
Run it (once @cuda.jit and the runtime have landed; see the open issues):
    PYTHONPATH=python_bindings /usr/bin/python3 examples/saxpy.py
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
    out = np.empty_like(x)
    threads = 256
    saxpy[(n + threads - 1) // threads, threads](np.float32(2.0), x, y, out)
    assert np.allclose(out, 2.0 * x + y)
    print("saxpy ok:", out[:4])
