
import numpy as np

def sum_squares(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * a[i]
    return s

def sum_squares_par(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i] * a[i]
    return s

def saxpy(a, x, y, out):
    for i in range(x.shape[0]):
        out[i] = a * x[i] + y[i]

def inc(x):
    return x + 1

def pairwise(x, y, out):
    n = x.shape[0]
    for i in range(n):
        acc = 0.0
        for j in range(n):
            d = x[i] - y[j]
            acc += d * d
        out[i] = acc
