"""@jit on the CPU: the same decorators as Numba, compiled by kjit.

    PYTHONPATH=python_bindings /usr/bin/python3 examples/jit_basics.py
"""
import math
import time

import numpy as np

from kjit import float64, jit, njit, prange


@njit
def sum_of_squares(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * a[i]
    return s


@njit(parallel=True)
def sum_of_squares_parallel(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i] * a[i]
    return s


@jit(float64(float64[:], float64))  # compiled now, from the signature
def rms_above(a, threshold):
    total = 0.0
    count = 0
    for x in a:
        if x > threshold:
            total += x * x
            count += 1
    return math.sqrt(total / count) if count else 0.0


@njit
def pairwise_distances(points):
    n = points.shape[0]
    out = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            dx = points[i, 0] - points[j, 0]
            dy = points[i, 1] - points[j, 1]
            out[i, j] = math.sqrt(dx * dx + dy * dy)
    return out


if __name__ == "__main__":
    a = np.random.default_rng(0).random(5_000_000)
    t = time.perf_counter()
    s = sum_of_squares(a)
    print(f"sum_of_squares: {s:.6f} (first call, with compilation: {time.perf_counter() - t:.3f} s)")
    assert abs(s - np.dot(a, a)) < 1e-6 * s
    print(f"parallel:       {sum_of_squares_parallel(a):.6f}")
    print(f"rms_above(0.5): {rms_above(a, 0.5):.6f}")
    d = pairwise_distances(np.array([[0.0, 0.0], [3.0, 4.0], [6.0, 8.0]]))
    print("distances:\n", d)
    assert d[0, 2] == 10.0
    print("signatures:", sum_of_squares.signatures)
