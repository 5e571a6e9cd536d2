"""Resources: 100,000 allocations in a loop leave memory flat.

Device arrays (`cuda.device_array`, `cuda.to_device`: on the CPU device host
memory, on a GPU device memory), arrays that @jit code makes and returns, and
arrays made and dropped inside @jit code. The resident memory of the process
(and on a GPU the device's free memory) is read after a warm-up and after
the loop; what grows is the leak. The figures are in docs/supported.md."""
import gc
import os

import numpy as np

from kjit import cuda, njit

N = 100_000
SLACK = 24 << 20  # bytes: allocator caches and fragmentation, not a leak (one leaked 8 KB array per
# iteration would be 800 MB)


def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def growth(step, n=N):
    for k in range(1000):  # warm-up: compiles, pools, caches
        step(k)
    gc.collect()
    before = rss()
    for k in range(n):
        step(k)
    gc.collect()
    return rss() - before


def test_device_arrays_allocated_and_dropped_leave_memory_flat():
    host = np.arange(1024.0)

    def step(k):
        d = cuda.device_array(1024, dtype=np.float64)
        e = cuda.to_device(host)
        if k % 1000 == 0:
            assert e.copy_to_host()[5] == 5.0 and d.shape == (1024,)
    grew = growth(step)
    assert grew < SLACK, f"{grew / 1e6:.1f} MB more after {N} device arrays"


def test_arrays_made_in_jit_code_leave_memory_flat():
    @njit
    def make(n, k):
        a = np.empty(n)
        for i in range(n):
            a[i] = i + k
        return a

    @njit
    def churn(n):
        s = 0.0
        for j in range(4):
            b = np.zeros(n)  # made and dropped inside compiled code
            b[0] = j
            s += b.sum()
        return s

    def step(k):
        a = make(1024, k)
        assert a[1] == k + 1
        assert churn(1024) == 6.0
    grew = growth(step)
    assert grew < SLACK, f"{grew / 1e6:.1f} MB more after {N} calls making arrays"
