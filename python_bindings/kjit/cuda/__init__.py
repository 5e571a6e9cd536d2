"""kjit.cuda: Numba's CUDA API (``numba.cuda``) on kjit's compiler.

    from kjit import cuda

    @cuda.jit
    def saxpy(a, x, y, out):
        i = cuda.grid(1)
        if i < x.shape[0]:
            out[i] = a * x[i] + y[i]

This module compiles kernels and device functions to PTX (``cuda.jit`` with
signatures, ``cuda.compile_ptx``, ``kernel.inspect_ptx()``). Launching needs
the CUDA runtime or the CPU device, which come with later issues: until then
a launch raises ``CudaSupportError`` saying so.

The names of the kernel language (``cuda.threadIdx``, ``cuda.grid``,
``cuda.shared.array``, ``cuda.atomic.add`` ...) are compiled, not run:
calling one outside a kernel raises.
"""
from kjit.cuda.compiler import (CUDAKernel, compile_ptx, compile_ptx_for_current_device, jit)
from kjit.cuda.errors import CudaSupportError
from kjit.cuda import kernel_language as _kl
from kjit.cuda.kernel_language import (activemask, all_sync, any_sync, atomic, ballot_sync, blockDim,
                                       blockIdx, brev, cbrt, clz, const, eq_sync, ffs, fma, grid,
                                       gridDim, gridsize, laneid, lanemask_lt, local, match_any_sync,
                                       popc, shared, shfl_down_sync, shfl_sync, shfl_up_sync,
                                       shfl_xor_sync, syncthreads, syncthreads_and, syncthreads_count,
                                       syncthreads_or, syncwarp, threadfence, threadfence_block,
                                       threadfence_system, threadIdx, warpsize)


def is_available():
    """Whether a CUDA GPU can run kernels here. The CUDA runtime is not part
    of this build yet, so: False."""
    return False


def detect():
    """Print what CUDA support there is, as numba.cuda.detect() does."""
    print("kjit: CUDA kernels compile to PTX here; no CUDA runtime is built in yet (no devices).")
    return False
