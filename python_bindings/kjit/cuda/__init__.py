"""kjit.cuda: Numba's CUDA API (``numba.cuda``) on kjit's compiler.

    from kjit import cuda

    @cuda.jit
    def saxpy(a, x, y, out):
        i = cuda.grid(1)
        if i < x.shape[0]:
            out[i] = a * x[i] + y[i]

    d_x = cuda.to_device(x)
    saxpy[blocks, threads](2.0, d_x, d_y, d_out)
    out = d_out.copy_to_host()

Kernels compile to PTX through LLVM, are linked by the CUDA driver (loaded
at run time: no CUDA SDK needed) and are launched from C++. Without a GPU,
``cuda.is_available()`` is False and GPU calls raise ``CudaSupportError``;
kernels still compile (``cuda.compile_ptx``, ``kernel.inspect_ptx()``).

The names of the kernel language (``cuda.threadIdx``, ``cuda.grid``,
``cuda.shared.array``, ``cuda.atomic.add`` ...) are compiled, not run:
calling one outside a kernel raises.
"""
import os as _os
from kjit import devices as _devices
_SIM = _devices.simulator()
if _SIM:
    # The simulator (docs/simulator.md): kernels run in the interpreter.
    import sys as _sys
    from kjit.cuda.simulator import *  # noqa: F401,F403
    from kjit.cuda.simulator import __all__  # noqa: F401
    from kjit.cuda.simulator import _install as _install_simulator
    _install_simulator(_sys.modules[__name__])
else:
    def _start():
        # The CUDA driver's start-up (cuInit and device 0's primary context,
        # 0.1-0.2 s together) begins first thing, on a thread of its own
        # (kjit._cuda_prestart), and overlaps the loading of kjit's compiler
        # (LLVM) and of NumPy, the rest of the import and the program's own
        # set-up (eager kernels compile at their decorators meanwhile). The
        # runtime, made on a C++ thread once _kjit is loaded, waits for it.
        # Not on the CPU device (KJIT_DEVICE=cpu), nor with KJIT_LAZY_CUDA=1
        # (for programs that fork after importing kjit.cuda and use CUDA in
        # the children, or set CUDA_VISIBLE_DEVICES later: the driver then
        # starts at its first use).
        import atexit
        env = _os.environ
        begin = env.get("KJIT_LAZY_CUDA", "0") in ("", "0") and _devices.requested(env) not in (_devices.CPU,
                                                                                             _devices.HIP)
        prestart = None
        if begin:
            try:
                from kjit import _cuda_prestart
            except ImportError:  # a build without it: the runtime's thread does it all
                pass
            else:
                if _cuda_prestart.start(env.get("KJIT_CUDA_DRIVER") or "libcuda.so.1"):
                    atexit.register(_cuda_prestart.wait)
                prestart = _cuda_prestart.api
        from kjit import _kjit
        # At exit the runtime frees nothing (arrays may outlive it), after
        # the start-up threads (joined first) have finished.
        atexit.register(_kjit.cuda_shutdown)
        if begin:
            _kjit.cuda_start(prestart)

    _start()
    from kjit.cuda.compiler import (CUDAKernel, compile_amdgcn, compile_ptx, compile_ptx_for_current_device,
                                    device_kind, jit)
    from kjit.cuda.errors import (CudaAPIError, CudaDriverError, CudaSupportError, LaunchConfigError,
                                  LaunchConfigTypeError)
    # The host API (device arrays, streams, events, devices) of the device
    # kernels launch on: the CUDA driver's, the HIP runtime's on an AMD GPU
    # (KJIT_DEVICE=hip), or, on the CPU device (KJIT_DEVICE=cpu, or no
    # GPU), the same over host memory. Bound at
    # first use (module __getattr__ below), so that importing kjit does not
    # wait for the driver's start-up.
    _HOST_API = ("Device", "DeviceNDArray", "Event", "Stream", "as_cuda_array", "close", "current_context",
                 "default_stream", "detect", "device_array", "device_array_like", "event", "event_elapsed_time",
                 "external_stream", "from_cuda_array_interface", "from_dlpack", "get_current_device", "gpus", "is_available", "is_cuda_array",
                 "legacy_default_stream", "list_devices", "managed_array", "mapped", "mapped_array", "mapped_array_like",
                 "per_thread_default_stream", "pinned", "pinned_array", "pinned_array_like", "select_device",
                 "stream", "synchronize", "to_device")

    def _bind_host_api():
        # One host API for every device (kjit/hostapi, over the device layer).
        from kjit import hostapi as api
        g = globals()
        for n in _HOST_API:
            g[n] = getattr(api, n)
        g["_api"] = api
        return api
    from kjit.cuda.reduce import Reduce, reduce
    from kjit.cuda import kernel_language as _kl
    from kjit.cuda.kernel_language import cg, ldca, ldcg, ldcs, ldcv, ldlu, stcg, stcs, stwb, stwt, wmma  # noqa: F401
    from kjit.cuda.kernel_language import (cp_async, cp_async_commit, cp_async_wait, ldmatrix,  # noqa: F401
                                           mfma, mma_sync)
    from kjit.cuda.kernel_language import (fence_mbarrier_init, fence_proxy_async, mbarrier,  # noqa: F401
                                           named_barrier_arrive, named_barrier_sync, setmaxnreg_dec,
                                           setmaxnreg_inc, tma, wgmma)
    from kjit.cuda.tensor_map import make_tensor_map  # noqa: F401
    from kjit.cuda.kernel_language import (activemask, all_sync, any_sync, atomic, ballot_sync, blockDim,
                                           blockIdx, brev, cbrt, clz, const, eq_sync, ffs, fma, grid,
                                           gridDim, gridsize, laneid, lanemask_lt, local, match_any_sync,
                                           popc, selp, shared, shfl_down_sync, shfl_sync, shfl_up_sync,
                                           shfl_xor_sync, syncthreads, syncthreads_and, syncthreads_count,
                                           syncthreads_or, syncwarp, threadfence, threadfence_block,
                                           threadfence_system, threadIdx, warpsize)


from kjit.cuda.profiling import is_float16_supported, profile_start, profile_stop, profiling  # noqa: E402
from kjit.cuda.linking import (LTOIR, Archive, Cubin, CUSource, Fatbin, Object, PTXSource,  # noqa: E402
                               declare_device)
from kjit.cuda.vector_types import constructors as _vector_constructors  # noqa: E402
from kjit import serialize as _serialize  # noqa: E402
from kjit.cuda import active as _active  # noqa: E402

# cuda.float32x4, cuda.float4, ... (kjit/cuda/vector_types.py)
globals().update(_vector_constructors())


def _host_api():
    """The host API module of the device kernels run on (kjit.cuda.active)."""
    if _SIM:
        from kjit import hostapi  # the simulator's device is the CPU device
        return hostapi
    api = globals().get("_api")
    return api if api is not None else _bind_host_api()


# The modules of this package that need the device's host API or cuda.jit
# (cuda.random, cuda.reduce, cuda.cudadrv ...) reach them through
# kjit.cuda.active, which this module binds: they cannot import it.
_active.bind(_host_api, jit)


def _rebuild_kernel(key, func, options, sigs):
    """A pickled kernel, made again here by this device's cuda.jit (kjit/serialize.py)."""
    return _serialize.rebuild_kernel(jit, key, func, options, sigs)


_serialize.register_kernel_rebuild(_rebuild_kernel)


def __getattr__(name):
    # cuda.random (Numba's xoroshiro128+ generators) and cuda.cudadrv
    # (Numba's driver names), imported when first used.
    if name == "random":
        import importlib
        return importlib.import_module("kjit.cuda.random")
    if name == "cudadrv":
        import importlib
        return importlib.import_module("kjit.cuda.cudadrv")
    if name == "devicearray":  # Numba's cuda.devicearray (auto_device, DeviceNDArray ...) off the GPU
        import importlib
        return importlib.import_module("kjit.cuda.cudadrv.devicearray")
    if not _SIM and (name in _HOST_API or name == "_api"):
        _bind_host_api()
        return globals()[name]
    raise AttributeError(f"module 'kjit.cuda' has no attribute {name!r}")


def __dir__():
    names = set(globals()) | {"random", "cudadrv"}
    if not _SIM:
        names |= set(_HOST_API)
    return sorted(names)


if not _SIM:
    # `from kjit.cuda import *` takes the host API too (binding it then).
    __all__ = sorted({n for n in globals() if not n.startswith("_") and n not in ("os",)} | set(_HOST_API))
