"""@guvectorize(target="cuda"): a function over core dimensions made into a
function over arrays, one thread per index of the loop dimensions (on the
GPU, or on the CPU device without one).

    /usr/bin/python3 examples/guvectorize_cuda.py
"""
import numpy as np

from kjit import cuda, guvectorize


@guvectorize(["void(float32[:, :], float32[:], float32[:], float32[:])"], "(m,n),(n),()->(m)", target="cuda")
def affine(w, x, bias, y):
    for i in range(w.shape[0]):
        s = bias[0]
        for j in range(w.shape[1]):
            s += w[i, j] * x[j]
        y[i] = s


w = np.arange(2 * 3, dtype=np.float32).reshape(2, 3)
xs = np.arange(4 * 3, dtype=np.float32).reshape(4, 3)       # 4 vectors: the loop dimension
bias = np.float32(0.5)
y = affine(w, xs, np.full(4, bias, np.float32))            # host arrays in: a NumPy array out
print("host arrays in:", y.shape, y[0])
assert np.allclose(y, xs @ w.T + bias)

d_y = affine(cuda.to_device(w), cuda.to_device(xs), np.full(4, bias, np.float32))
print("a device array in, a device array out:", type(d_y).__name__, d_y.copy_to_host()[1])
assert np.allclose(d_y.copy_to_host(), y)
print("ok on", cuda.device_kind())
