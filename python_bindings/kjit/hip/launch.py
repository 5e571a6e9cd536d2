"""Launching a kernel on an AMD GPU: the one path of ``@hip.jit`` kernels
and of ``@cuda.jit`` kernels on the HIP device (``KJIT_DEVICE=hip``).

The arguments are typed as for a CUDA launch (the dispatcher's typing: a
host NumPy array by its dtype, dimensions and layout, a device array as the
same, a declared signature's conversions of numbers), the kernel is compiled
for the device's processor once per argument types, and ``_kjit.hip_launch``
packs its parameters in kjit's AMD kernel ABI with the packer every device
uses (runtime/device/Params.h: the numbers and the arrays' data pointers in
the arguments' order, then each array's shape and strides;
compiler/LoweringCuda.cpp, emitKernelEntry). Host arrays are copied to the
device for the launch and back after it (synchronising), as Numba does;
launches with device arrays only return at once, as on NVIDIA GPUs.
"""
import numpy as np

from kjit import _kjit
from kjit import hostapi
from kjit import types as _kt


def _stand_in(d):
    """A small host array typed as the device array ``d`` is (its dtype,
    dimensions, layout and writability), for the dispatcher's typing."""
    n = max(d.ndim, 1)
    layout = d._layout
    if layout == "C":
        a = np.empty((1,) * d.ndim, d.dtype)
    elif layout == "F":
        a = np.empty((2,) * d.ndim, d.dtype, order="F")
    else:
        a = np.empty((2,) * (d.ndim - 1) + (4,), d.dtype)[..., ::2] if n else np.empty((), d.dtype)
    if d._readonly:
        a.flags.writeable = False
    return a


def argument_key(kernel, args):
    """(values, key): device arrays for the objects that export
    ``__cuda_array_interface__``, and the argument type key the dispatcher
    gives the launch (NumPy's typing of host arrays and numbers)."""
    values, stand_ins = [], []
    for a in args:
        if hasattr(a, "__cuda_array_interface__") and not isinstance(a, (hostapi.DeviceNDArray, np.ndarray)):
            a = hostapi.as_cuda_array(a)
        values.append(a)
        stand_ins.append(_stand_in(a) if isinstance(a, hostapi.DeviceNDArray) else a)
    return values, kernel._dispatcher._argument_key(tuple(stand_ins))


def argument_types(kernel, args):
    """(values, types): as argument_key, with each value's kjit type."""
    values, key = argument_key(kernel, args)
    return values, kernel._dispatcher._cuda_argument_types(key)


def launch(kernel, loaded, key, grid, block, stream, shared, values):
    """Launches the loaded kernel; host arrays go to the device for it and
    back after it (waiting for the launch) when there were any."""
    copies = []
    for k, v in enumerate(values):
        if isinstance(v, np.ndarray) and not isinstance(v, hostapi.DeviceNDArray):
            d = hostapi.to_device(v)
            copies.append((v, d))
            values[k] = d
    if stream not in (0, None) and not isinstance(stream, hostapi.Stream):
        raise TypeError(f"a stream on an AMD GPU is a kjit.cuda.stream(), not {stream!r}")
    _kjit.hip_launch(kernel._dispatcher, key, loaded, list(grid), list(block), int(shared), tuple(values),
                     stream if stream not in (0, None) else None)
    if copies:  # the launch finishes before its copies are read back (or freed)
        (stream if stream not in (0, None) else hostapi.default_stream()).synchronize()
    for host, dev in copies:
        if host.flags.writeable:
            dev.copy_to_host(host, stream=stream)


class Loader:
    """A kernel's code on AMD GPUs: compiled once per argument types and
    processor, loaded once per device; the AMDGCN assembly kept for
    ``inspect_asm``."""

    def __init__(self, dispatcher, name):
        self._dispatcher = dispatcher
        self._name = name
        self._loaded = {}
        self.assembly = {}  # (argument type names, processor) -> AMDGCN assembly

    def code(self, types):
        processor = hostapi.current_processor()
        key = (tuple(str(t) for t in types), processor, _kjit.device("hip").current())
        if key not in self._loaded:
            _, hsaco, asm, _ = self._dispatcher._compile_amdgpu(_kt.signature_text(_kt.void(*types)), False,
                                                                processor)
            self.assembly[key[:2]] = asm
            self._loaded[key] = _kjit.hip_load(hsaco, self._name, self._name)
        return self._loaded[key]

    def inspect_asm(self, signature=None):
        out = {k[0]: asm for k, asm in self.assembly.items()}
        if signature is None:
            return out
        names = tuple(str(t) for t in signature)
        if names not in out:
            raise KeyError(f"kernel '{self._name}' was not launched on an AMD GPU with argument types {names}")
        return out[names]


class Launcher:
    """``kernel[grid, block, stream, shared]`` of a @cuda.jit kernel on the
    HIP device."""

    def __init__(self, kernel, config):
        grid, block, stream, shared = _kjit.launch_config(kernel.__name__, config)
        self.griddim, self.blockdim, self.stream, self.sharedmem = tuple(grid), tuple(block), stream, shared
        self._kernel = kernel

    def __call__(self, *args):
        with hostapi.layer.on("hip"):
            self._launch(args)

    def _launch(self, args):
        k = self._kernel
        hostapi.layer.require()
        # The limits every GPU shares (1024 threads a block ...), as NVIDIA's
        # launches check them: a LaunchConfigError naming the kernel.
        _kjit.check_launch(k.__name__, hostapi.get_current_device().name, self.griddim, self.blockdim,
                           self.sharedmem, k._launch_annotations()[1])
        values, key = argument_key(k, args)
        loaded = k._hip_loader().code(k._dispatcher._cuda_argument_types(key))
        launch(k, loaded, key, self.griddim, self.blockdim, self.stream, self.sharedmem, values)
