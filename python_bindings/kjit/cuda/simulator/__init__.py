"""The CUDA simulator: ``kjit.cuda`` without a GPU, in the interpreter.

Enabled by ``KJIT_ENABLE_CUDASIM=1`` (or Numba's ``NUMBA_ENABLE_CUDASIM=1``)
in the environment before ``import kjit``; ``kjit.cuda`` is then this
module's names. A kernel's Python function runs in the interpreter, once per
GPU thread (``print``, ``pdb`` and breakpoints work): the threads of a block
run concurrently as Python threads, blocks one after another; shared arrays
are shared per block, atomics are atomic, barriers and warp operations
(shuffles, votes, ``match_*``) exchange values between the threads that take
part. Before its first launch for some argument types a kernel is compiled
by kjit's compiler, so compile errors are the same as on a GPU. An exception
in a kernel names the block, the thread and the line. See docs/simulator.md.
"""
import types as _types

from kjit import devices as _devices
from kjit import hostapi as _hostapi
from kjit.cuda.errors import (CudaAPIError, CudaDriverError, CudaSupportError, LaunchConfigError,
                              LaunchConfigTypeError)
from kjit.hostapi import (Device, DeviceNDArray, Event, Stream, as_cuda_array, close, from_cuda_array_interface, current_context,
                               default_stream, detect, device_array, device_array_like, event, event_elapsed_time,
                               external_stream, from_dlpack, get_current_device, gpus, is_available, is_cuda_array,
                               legacy_default_stream, list_devices, managed_array, mapped, mapped_array,
                               mapped_array_like, per_thread_default_stream, pinned, pinned_array, pinned_array_like,
                               select_device, stream, synchronize, to_device)
from kjit.cuda.simulator.kernel import CUDAKernel, compile_amdgcn, compile_ptx, compile_ptx_for_current_device, jit
from kjit.cuda.simulator.scheduler import BarrierError
from kjit.cuda.profiling import is_float16_supported, profile_start, profile_stop, profiling
from kjit.cuda.simulator.reduce import Reduce, reduce
from kjit.cuda.linking import LTOIR, Archive, Cubin, CUSource, Fatbin, Object, PTXSource, declare_device
from kjit.cuda.simulator import kernelapi as _kernelapi
from kjit.cuda.simulator.kernelapi import cg, ldca, ldcg, ldcs, ldcv, ldlu, stcg, stcs, stwb, stwt, wmma  # noqa: F401
from kjit.cuda.simulator.kernelapi import cp_async, cp_async_commit, cp_async_wait, ldmatrix, mfma, mma_sync  # noqa: F401
from kjit.cuda.simulator.kernelapi import (fence_mbarrier_init, fence_proxy_async, mbarrier,  # noqa: F401
                                           named_barrier_arrive, named_barrier_sync, setmaxnreg_dec,
                                           setmaxnreg_inc, tma, wgmma)
from kjit.cuda.simulator.kernelapi import (activemask, all_sync, any_sync, atomic, ballot_sync, bf16, blockDim,
                                           blockIdx, brev, cbrt, clz, const, eq_sync, ffs, fma, fp16, grid, gridDim,
                                           gridsize, selp,
                                           laneid, lanemask_lt, local, match_all_sync, match_any_sync, popc, shared,
                                           shfl_down_sync, shfl_sync, shfl_up_sync, shfl_xor_sync, syncthreads,
                                           syncthreads_and, syncthreads_count, syncthreads_or, syncwarp,
                                           threadfence, threadfence_block, threadfence_system, threadIdx, warpsize)


def device_kind():
    """Where kernels launch: "simulator" (the interpreter; kjit.devices
    decides, and says "cuda" or "cpu" for compiled kernels)."""
    return _devices.SIMULATOR


__all__ = [
    "declare_device", "cg", "ldca", "ldcg", "ldcs", "ldlu", "ldcv", "stcg", "stcs", "stwb", "stwt", "CUSource", "PTXSource", "Cubin", "Fatbin", "Object", "Archive", "LTOIR",
    "jit", "CUDAKernel", "device_kind", "compile_amdgcn", "compile_ptx", "compile_ptx_for_current_device",
    "CudaSupportError", "CudaDriverError", "CudaAPIError", "LaunchConfigError", "LaunchConfigTypeError", "BarrierError",
    "Device", "DeviceNDArray", "Event", "Stream", "as_cuda_array", "close", "from_cuda_array_interface", "current_context", "default_stream",
    "detect", "device_array", "device_array_like", "event", "event_elapsed_time", "external_stream", "from_dlpack",
    "get_current_device", "gpus", "is_available", "is_cuda_array", "legacy_default_stream", "list_devices",
    "managed_array", "mapped", "mapped_array", "mapped_array_like", "per_thread_default_stream", "pinned", "pinned_array",
    "pinned_array_like", "select_device", "stream", "synchronize", "to_device",
    "Reduce", "reduce", "is_float16_supported", "profile_start", "profile_stop", "profiling",
    "activemask", "all_sync", "any_sync", "atomic", "ballot_sync", "bf16", "blockDim", "blockIdx", "brev", "cbrt",
    "clz", "selp",
    "const", "cp_async", "cp_async_commit", "cp_async_wait", "eq_sync", "ffs", "fma", "fp16", "wmma", "grid",
    "gridDim", "gridsize", "laneid", "lanemask_lt", "ldmatrix", "local",
    "match_all_sync", "match_any_sync", "mfma", "mma_sync", "popc", "shared", "shfl_down_sync", "shfl_sync", "shfl_up_sync",
    "shfl_xor_sync", "syncthreads", "syncthreads_and", "syncthreads_count", "syncthreads_or", "syncwarp",
    "threadfence", "threadfence_block", "threadfence_system", "threadIdx", "warpsize",
    "fence_mbarrier_init", "fence_proxy_async", "mbarrier", "setmaxnreg_dec", "setmaxnreg_inc", "tma", "wgmma",
    "named_barrier_sync", "named_barrier_arrive",
    "make_tensor_map",
]


def make_tensor_map(ary, box, swizzle=128, l2_promotion=128, oob_fill="zero"):
    """cuda.make_tensor_map in the simulator: the CPU device's words over
    the array's host memory (kjit/cuda/tensor_map.py)."""
    from kjit.cuda.tensor_map import make_tensor_map as make
    return make(ary, box, swizzle, l2_promotion, oob_fill, _kind="cpu")

from kjit.cuda.vector_types import constructors as _vector_constructors  # noqa: E402

globals().update(_vector_constructors())  # cuda.float32x4, cuda.float4, ...
__all__ += sorted(_vector_constructors())


def _laneid(self):
    s = _kernelapi._tls.s
    return s.lane if s is not None else _kernelapi._LANEID


class _SimulatedCudaModule(_types.ModuleType):
    """kjit.cuda under the simulator: ``cuda.laneid`` is the lane of the
    simulated thread reading it (an int)."""

    laneid = property(_laneid)


def _install(module):
    """Makes ``module`` (kjit.cuda) the simulator's: the device is named
    "kjit simulator", and ``laneid`` is read per simulated thread."""
    _hostapi._set_device_name("kjit simulator")
    if isinstance(module, _types.ModuleType) and type(module) is _types.ModuleType:
        module.__class__ = _SimulatedCudaModule

