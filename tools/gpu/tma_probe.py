"""Which TMA form fails on the GPU:
python tools/gpu/tma_probe.py load0|load128|store0|store128|edge0|edge128 (edge: the box at (30, 60) of a
40 x 104 array, partly outside it, as tests/python/kernels/test_hopper.py copies it)."""
import sys

import numpy as np

import kjit
from kjit import cuda, uint64

mode = sys.argv[1]
swz = 128 if mode.endswith("128") else 0


@cuda.jit
def load(tm, raw):
    tile = cuda.shared.array((16, 64), kjit.float16)
    bars = cuda.shared.array(1, uint64)
    if cuda.threadIdx.x == 0:
        cuda.mbarrier.init(bars, 0, 1)
        cuda.fence_mbarrier_init()
    cuda.syncthreads()
    if cuda.threadIdx.x == 0:
        cuda.mbarrier.arrive_expect_tx(bars, 0, 16 * 64 * 2)
        cuda.tma.load(tile, tm, (8, 0), bars, 0)
    cuda.mbarrier.wait(bars, 0, 0)
    for i in range(cuda.threadIdx.x, 16 * 64, cuda.blockDim.x):
        raw[i // 64, i % 64] = tile[i // 64, i % 64]


@cuda.jit
def store(om):
    tile = cuda.shared.array((16, 64), kjit.float16)
    for i in range(cuda.threadIdx.x, 16 * 64, cuda.blockDim.x):
        tile[i // 64, i % 64] = i
    cuda.fence_proxy_async()
    cuda.syncthreads()
    if cuda.threadIdx.x == 0:
        cuda.tma.store(om, (8, 0), tile)
        cuda.tma.commit_group()
        cuda.tma.wait_group(0)


big = np.arange(40 * 64, dtype=np.float16).reshape(40, 64)
d = cuda.to_device(big)


@cuda.jit
def edge(tm, raw, coords):
    tile = cuda.shared.array((16, 64), kjit.float16)
    bars = cuda.shared.array(1, uint64)
    if cuda.threadIdx.x == 0:
        cuda.mbarrier.init(bars, 0, 1)
        cuda.fence_mbarrier_init()
        cuda.mbarrier.arrive_expect_tx(bars, 0, 16 * 64 * 2)
        cuda.tma.load(tile, tm, (coords[0], coords[1]), bars, 0)
    cuda.syncthreads()
    cuda.mbarrier.wait(bars, 0, 0)
    for i in range(cuda.threadIdx.x, 16 * 64, cuda.blockDim.x):
        raw[i // 64, i % 64] = tile[i // 64, i % 64]


if mode.startswith("edge"):
    e = cuda.to_device(np.arange(40 * 104, dtype=np.float16).reshape(40, 104))
    tm = cuda.make_tensor_map(e, (16, 64), swizzle=swz)
    raw = cuda.device_array((16, 64), np.float16)
    edge[1, 64](tm, raw, np.array([30, 60], np.int64))
    print(mode, "ok", raw.copy_to_host()[0, :4])
elif mode.startswith("load"):
    tm = cuda.make_tensor_map(d, (16, 64), swizzle=swz)
    raw = cuda.device_array((16, 64), np.float16)
    load[1, 64](tm, raw)
    r = raw.copy_to_host()
    print(mode, "ok", r[0, :4], r[1, :4])
else:
    om = cuda.make_tensor_map(d, (16, 64), swizzle=swz)
    store[1, 64](om)
    print(mode, "ok", d.copy_to_host()[8, :4])
