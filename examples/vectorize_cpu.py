"""@vectorize and @guvectorize for the CPU: Python functions made into real
NumPy ufuncs with compiled loops, as Numba makes them.

    /usr/bin/python3 examples/vectorize_cpu.py
"""
import math

import numpy as np

from kjit import guvectorize, vectorize


# With signatures: a DUFunc around a numpy.ufunc (add.ufunc), one compiled
# loop per signature. NumPy picks the loop, broadcasts, casts, and gives
# reduce/accumulate/outer.
@vectorize(["float64(float64, float64)", "float32(float32, float32)"], identity=0)
def add(a, b):
    return a + b


print(type(add).__name__, type(add.ufunc).__name__, add.types)
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


# @guvectorize: a function over core dimensions ("(n),()->(n)"), looped by
# NumPy over the rest, with broadcasting. The output is the last argument.
@guvectorize(["void(float64[:], float64, float64[:])"], "(n),()->(n)", target="parallel")
def shift(row, by, out):
    for i in range(row.shape[0]):
        out[i] = row[i] + by


rows = np.arange(6.0).reshape(2, 3)
print("gufunc:", shift(rows, np.array([100.0, 200.0])).tolist())
print("ok")
