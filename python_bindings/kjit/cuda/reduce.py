"""``cuda.reduce``: a reduction of a 1-D array by a binary function.

    sum_reduce = cuda.reduce(lambda a, b: a + b)
    total = sum_reduce(device_or_host_array)       # a NumPy scalar
    sum_reduce(arr, res=device_out)                # the result into device_out[0]

Two launches of one kernel: the first reduces the array to one value per
block (each thread folds a grid-strided run of elements, then the block
folds its threads' values in shared memory); the second reduces those in a
single block and folds ``init`` in. The function must be associative and
commutative, as Numba requires.
"""
import numpy as np

from kjit import bfloat16_host
from kjit import types as kt
from kjit.types import bfloat16
from kjit.cuda import kernel_language as cuda  # the kernels' names (cuda.shared ...)
from kjit.cuda.active import host_api
from kjit.cuda.compiler import CUDAKernel, jit

_TPB = 256


class Reduce:
    def __init__(self, functor):
        self._functor = functor
        op = functor if isinstance(functor, CUDAKernel) else jit(device=True)(functor)
        self._op = op
        self._kernels = {}
        self._scratch = {}  # device buffers per (dtype, blocks) and per dtype for the result

    def _kernel(self, dtype):
        k = self._kernels.get(dtype)
        if k is not None:
            return k
        op = self._op
        tpb = _TPB
        elem = bfloat16 if bfloat16_host.is_bfloat16(dtype) else getattr(kt, np.dtype(dtype).name)

        def reduce_blocks(a, out, n, init, use_init):
            sm = cuda.shared.array(tpb, elem)
            tid = cuda.threadIdx.x
            block = cuda.blockIdx.x
            i = block * tpb + tid
            stride = cuda.gridDim.x * tpb
            if i < n:
                acc = a[i]
                i += stride
                while i < n:
                    acc = op(acc, a[i])
                    i += stride
                sm[tid] = acc
            cuda.syncthreads()
            active = min(tpb, n - block * tpb)
            s = tpb // 2
            while s > 0:
                if tid < s and tid + s < active:
                    sm[tid] = op(sm[tid], sm[tid + s])
                cuda.syncthreads()
                s //= 2
            if tid == 0:
                r = sm[0]
                if use_init:
                    r = op(r, init)
                out[block] = r

        k = jit(reduce_blocks)
        self._kernels[dtype] = k
        return k

    def __call__(self, arr, size=None, res=None, init=0, stream=0):
        api = host_api()  # the active device's host API (GPU or CPU device)
        if not api.is_cuda_array(arr):
            arr = api.as_cuda_array(arr) if hasattr(arr, "__cuda_array_interface__") else api.to_device(
                np.ascontiguousarray(arr), stream=stream)
        if arr.ndim != 1:
            raise ValueError("cuda.reduce takes a 1-D array")
        n = arr.shape[0] if size is None else int(size)
        dtype = arr.dtype
        bf16 = bfloat16_host.is_bfloat16(dtype)
        # (a bfloat16 init goes as a float: a tagged uint16 dtype's type is uint16)
        init = bfloat16(init) if bf16 else dtype.type(init)
        if n == 0:
            if res is not None:
                res[0] = init
            return init
        k = self._kernel(dtype)
        blocks = min((n + _TPB - 1) // _TPB, 1024)
        scratch = self._scratch
        partials = scratch.get((dtype, blocks))
        if partials is None:
            partials = scratch[(dtype, blocks)] = api.device_array(blocks, dtype)
        k[blocks, _TPB, stream](arr, partials, n, init, False)
        out = res if res is not None else scratch.get((dtype, "out"))
        if out is None:
            out = scratch[(dtype, "out")] = api.device_array(1, dtype)
        k[1, _TPB, stream](partials, out, blocks, init, True)
        if res is not None:
            return None
        host = np.empty(1, dtype)
        out.copy_to_host(host, stream=stream)
        return bfloat16(float(bfloat16_host.to_float32(host)[0])) if bf16 else host[0]


def reduce(functor):
    """A reduction by ``functor`` (a binary function, lambda or device
    function); see the module's text."""
    return Reduce(functor)
