"""AMD GPUs through the HIP runtime (libamdhip64.so, loaded at run time).

The spelling of Numba-HIP users: ``from kjit import hip`` and ``@hip.jit``,
launched as ``kernel[grid, block](args)``; the kernel language is
``kjit.cuda``'s (``cuda.grid``, shared arrays, atomics ...), compiled for the
device's processor (docs/amdgpu.md). Host NumPy arrays are copied to the
device for the launch and back after it, as Numba does for host arrays.

    from kjit import cuda, hip

    @hip.jit
    def saxpy(a, x, y, out):
        i = cuda.grid(1)
        if i < x.shape[0]:
            out[i] = a * x[i] + y[i]

    saxpy[blocks, 256](2.0, x, y, out)

Device arrays keep data on the GPU between launches: ``hip.to_device(a)``,
``hip.device_array(shape, dtype)``, ``hip.device_array_like(a)``, slices of
them (views), and ``d.copy_to_host()``; ``hip.stream()`` and ``hip.event()``
order and time work; ``hip.from_dlpack`` and ``hip.as_cuda_array`` view
PyTorch-ROCm and CuPy-ROCm memory (kjit/hostapi, the host API every device
shares; its names work on the AMD GPU when that is where kernels launch:
``KJIT_DEVICE=hip``, or an AMD GPU and no CUDA GPU). The same names
are ``kjit.cuda``'s on the HIP device (``KJIT_DEVICE=hip``), where
``@cuda.jit`` kernels run unchanged.

``hip.is_available()`` says whether an AMD GPU is there, ``hip.why()`` why
not. ``KJIT_HIP_RUNTIME`` names another HIP library (tests use a fake one),
``KJIT_HIP_ARCH`` overrides the processor the runtime reports.
"""
from kjit import _kjit
import functools

from kjit import hostapi as _hostapi
from kjit.hostapi import DeviceNDArray, Event, Stream, layer as _layer  # noqa: F401


def _on_hip(f):
    """``f`` of the host API, on the AMD GPU whatever device kjit.cuda uses."""
    @functools.wraps(f)
    def on_hip(*args, **kwargs):
        with _layer.on("hip"):
            return f(*args, **kwargs)
    return on_hip


class Device(_hostapi.Device):
    """An AMD GPU (``hip.get_current_device()``): id, name, processor
    ("gfx90a"), WARP_SIZE (the wavefront), total_memory."""

    def __init__(self, ordinal=0):
        with _layer.on("hip"):
            super().__init__(ordinal)


for _n in ("as_cuda_array", "default_stream", "device_array", "device_array_like", "event",
           "event_elapsed_time", "from_cuda_array_interface", "from_dlpack", "get_current_device", "is_available",
           "is_cuda_array", "select_device", "stream", "synchronize", "to_device"):
    globals()[_n] = _on_hip(getattr(_hostapi, _n))

__all__ = ["jit", "is_available", "why", "list_devices", "compile_amdgcn", "synchronize", "HipKernel",
           "DeviceNDArray", "to_device", "device_array", "device_array_like", "stream", "default_stream", "event",
           "event_elapsed_time", "from_dlpack", "as_cuda_array", "from_cuda_array_interface", "is_cuda_array",
           "get_current_device", "select_device", "Device", "Stream", "Event"]


def why():
    """Why there is no AMD GPU ("" when there is one)."""
    return _kjit.hip_why()


def list_devices():
    """The AMD GPUs: dicts of ordinal, name, arch (the runtime's name),
    processor (what kjit compiles for), wavefront and total_memory."""
    return [dict(d) for d in _kjit.hip_devices()] if _kjit.hip_available() else []


def compile_amdgcn(pyfunc, sig, device=False, fastmath=False, arch="gfx90a", output="asm", lineinfo=False):
    """cuda.compile_amdgcn (no AMD GPU needed)."""
    from kjit.cuda.compiler import compile_amdgcn as compile_
    if isinstance(pyfunc, HipKernel):
        pyfunc = pyfunc.py_func
    return compile_(pyfunc, sig, device=device, fastmath=fastmath, arch=arch, output=output, lineinfo=lineinfo)


class HipKernel:
    """A @hip.jit kernel: a @cuda.jit kernel that always launches on the AMD
    GPU (kjit/hip/launch.py), whatever KJIT_DEVICE says."""

    def __init__(self, py_func, **options):
        from kjit import cuda
        self._kernel = cuda.jit(**options)(py_func) if options else cuda.jit(py_func)
        self.py_func = py_func
        self.__name__ = py_func.__name__
        self.__doc__ = py_func.__doc__

    def __getitem__(self, config):
        from kjit.hip.launch import Launcher
        return Launcher(self._kernel, config)

    def inspect_asm(self, signature=None):
        """The AMDGCN assembly of what the launches compiled: {argument types
        (a tuple of their names): assembly}, or that of one signature
        (a tuple of kjit types, or of their names)."""
        return self._kernel._hip_loader().inspect_asm(signature)


def jit(func=None, **options):
    """@hip.jit / @hip.jit(**options): a kernel for AMD GPUs (options as
    @cuda.jit's: debug, fastmath, lineinfo, boundscheck ...)."""
    if func is None:
        return lambda f: HipKernel(f, **options)
    return HipKernel(func, **options)
