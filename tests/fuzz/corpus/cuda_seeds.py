"""The seed kernels of the CUDA issues, in the kernel language (Numba style).

Compiled to PTX by tools/gpu/make_ptx.sh, run on the GPU machine by
tools/gpu/run_ptx.py; also a reading of what @cuda.jit supports.
"""
import math

from kjit import cuda, float32, int32

TPB = 16


@cuda.jit
def add_kernel(x, y, out):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        out[i] = x[i] + y[i]


@cuda.jit
def increment_a_2D_array(an_array):
    x, y = cuda.grid(2)
    if x < an_array.shape[0] and y < an_array.shape[1]:
        an_array[x, y] += 1


@cuda.jit
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = a * x[i] + y[i]


@cuda.jit
def fast_matmul(A, B, C):
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    bpg = cuda.gridDim.x
    tmp = float32(0.)
    for i in range(bpg):
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and (tx + i * TPB) < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * TPB]
        if x < B.shape[1] and (ty + i * TPB) < B.shape[0]:
            sB[ty, tx] = B[ty + i * TPB, x]
        cuda.syncthreads()
        for j in range(TPB):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp


@cuda.jit
def histogram(x, xmin, xmax, histogram_out):
    nbins = histogram_out.shape[0]
    bin_width = (xmax - xmin) / nbins
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        bin_number = int32((x[i] - xmin) / bin_width)
        if bin_number >= 0 and bin_number < histogram_out.shape[0]:
            cuda.atomic.add(histogram_out, bin_number, 1)


@cuda.jit
def block_sum(a, out):
    buf = cuda.shared.array(256, dtype=float32)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[tid] = a[i] if i < a.shape[0] else float32(0)
    cuda.syncthreads()
    s = 128
    while s > 0:
        if tid < s:
            buf[tid] += buf[tid + s]
        cuda.syncthreads()
        s //= 2
    if tid == 0:
        cuda.atomic.add(out, 0, buf[0])


@cuda.jit
def sinexp(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        v = x[i]
        for k in range(64):
            v = math.sin(v) * math.exp(-v * float32(0.01))
        out[i] = v


@cuda.jit
def warp_ops(a, out):
    i = cuda.grid(1)
    v = a[i]
    v += cuda.shfl_down_sync(0xffffffff, v, 16)
    b = cuda.ballot_sync(0xffffffff, v > 0)
    out[i] = v + cuda.popc(b) + cuda.laneid


@cuda.jit(boundscheck=True)
def checked_copy(a, out, k):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = a[i + k]
