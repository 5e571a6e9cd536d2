"""@vectorize(target="cuda"): an element-wise function over arrays, run as a
kernel (on the GPU, or on the CPU device without one).

    /usr/bin/python3 examples/vectorize_cuda.py
"""
import math

import numpy as np

from kjit import cuda, vectorize


@vectorize(["float32(float32, float32)", "float64(float64, float64)"], target="cuda")
def damped(x, t):
    return math.exp(-t) * math.sin(x)


x = np.linspace(0, 2 * math.pi, 8, dtype=np.float32)
t = np.float32(0.5)
print("host arrays in, a NumPy array out:", damped(x, t))

d_x = cuda.to_device(x)
d_out = damped(d_x, t)                       # a device array: no copy back
print("device arrays in, a device array out:", type(d_out).__name__, d_out.copy_to_host()[:3])

grid = damped(x[:, None], np.array([0.0, 1.0, 2.0], np.float32))  # broadcasting, as NumPy
print("broadcast to", grid.shape)
assert np.allclose(grid, np.exp(-np.array([0.0, 1.0, 2.0])) * np.sin(x[:, None]), atol=1e-6)
print("ok on", cuda.device_kind())
