"""@vectorize for the CPU: a scalar function made into a real NumPy ufunc
with compiled loops, as Numba's @vectorize makes it.

    /usr/bin/python3 examples/vectorize_cpu.py
"""
import math

import numpy as np

from kjit import vectorize


# With signatures: a numpy.ufunc, one compiled loop per signature. NumPy
# picks the loop, broadcasts, casts, and gives reduce/accumulate/outer.
@vectorize(["float64(float64, float64)", "float32(float32, float32)"], identity=0)
def add(a, b):
    return a + b


print(type(add).__name__, add.types)
x = np.arange(6.0).reshape(2, 3)
print("broadcast:", add(x, np.array([10.0, 20.0, 30.0])).tolist())
print("reduce:", add.reduce(x, axis=1).tolist(), "accumulate:", add.accumulate(np.arange(4.0)).tolist())


# target='parallel': the elements are split among threads (KJIT_NUM_THREADS).
@vectorize(["float64(float64)"], target="parallel")
def damped(t):
    return math.exp(-t) * math.sin(10 * t)


t = np.linspace(0, 1, 1_000_000)
assert np.allclose(damped(t), np.exp(-t) * np.sin(10 * t))
print("parallel:", damped(t[::250000]).round(4).tolist())


# Without signatures: a DUFunc, which compiles a loop for each new
# combination of input types. Division follows NumPy: x / 0 is inf.
@vectorize
def ratio(a, b):
    return a / b


with np.errstate(divide="ignore"):
    print("ratio:", ratio(np.array([1.0, 2.0]), np.array([4.0, 0.0])).tolist(), ratio(7, 2), ratio.types)
print("ok")
