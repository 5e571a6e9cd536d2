"""Threads calling a function or a kernel for the first time at once: it is
compiled once (the compile holds the function's lock, and the second
caller finds the first one's result) and every thread gets the result."""
import threading

import numpy as np
import pytest

from kjit import cuda, njit

THREADS = 8


def at_once(work):
    """Runs work(k) in THREADS threads released together; their results."""
    start = threading.Barrier(THREADS)
    out = [None] * THREADS
    errors = []

    def one(k):
        try:
            start.wait()
            out[k] = work(k)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)
    threads = [threading.Thread(target=one, args=(k,)) for k in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    return out


def test_a_new_function_called_from_eight_threads_compiles_once():
    @njit
    def poly(a, k):
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i] * a[i] + k
        return s
    a = np.arange(10.0)
    got = at_once(lambda k: poly(a, float(k)))
    assert got == [sum(x * x + k for x in a) for k in range(THREADS)]
    assert len(poly.signatures) == 1  # one specialisation, compiled once, shared


@pytest.mark.filterwarnings("ignore::kjit.errors.PerformanceWarning")  # (a small grid, on purpose)
def test_a_new_kernel_launched_from_eight_threads_compiles_once():
    @cuda.jit
    def scale(x, out, k):
        i = cuda.grid(1)
        if i < x.shape[0]:
            out[i] = x[i] * k
    x = np.arange(64, dtype=np.float32)
    outs = [np.zeros_like(x) for _ in range(THREADS)]

    def work(k):
        scale[2, 32](x, outs[k], np.float32(k))
        return outs[k].copy()
    got = at_once(work)
    for k in range(THREADS):
        np.testing.assert_array_equal(got[k], x * k)
    assert len(scale.overloads) == 1
