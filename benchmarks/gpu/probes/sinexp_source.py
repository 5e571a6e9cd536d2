"""The float64 sin*exp kernel of benchmarks/gpu/bench_gpu.py (sinexp_promoted)
as module text, `LIB` standing for the library (kjit or numba), for the
probes beside this file: each writes it out as a module per library, since
kjit reads a kernel's source.
"""

SRC = '''
import math
from LIB import cuda

@cuda.jit
def sinexp_promoted(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        v = x[i]
        acc = 0.0
        for k in range(64):
            acc += math.sin(v * k) * math.exp(-v * k * 0.01)
        out[i] = acc
'''
