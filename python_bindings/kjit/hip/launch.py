"""Launching a kernel on an AMD GPU: the one path of ``@hip.jit`` kernels
and of ``@cuda.jit`` kernels on the HIP device (``KJIT_DEVICE=hip``).

The arguments are typed as for a CUDA launch (the dispatcher's typing: a
host NumPy array by its dtype, dimensions and layout, a device array as the
same, a declared signature's conversions of numbers), the kernel is compiled for the device's
processor once per argument types, and its parameters are packed in kjit's
AMD kernel ABI: the numbers and the arrays' data pointers in the arguments'
order, then each array's shape and strides (compiler/LoweringCuda.cpp,
emitKernelEntry). Host arrays are copied to the device for the launch and
back after it (synchronising), as Numba does; launches with device arrays
only return at once, as on NVIDIA GPUs.
"""
import struct

import numpy as np

from kjit import _kjit
from kjit import types as _kt
from kjit.hip import hostapi

_NUMBERS = (_kt.Integer, _kt.Float, _kt.Complex, _kt.Boolean)


def _holds_nothing(t):
    return isinstance(t, _kt.BaseTuple) and all(_holds_nothing(e) for e in t.types)


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


def argument_types(kernel, args):
    """(values, types): device arrays for the objects that export
    ``__cuda_array_interface__``, and each value's kjit type as the
    dispatcher resolves it for a CUDA launch (NumPy's typing of host arrays
    and numbers, a declared signature's conversions)."""
    values, stand_ins = [], []
    for a in args:
        if hasattr(a, "__cuda_array_interface__") and not isinstance(a, (hostapi.DeviceNDArray, np.ndarray)):
            a = hostapi.as_cuda_array(a)
        values.append(a)
        stand_ins.append(_stand_in(a) if isinstance(a, hostapi.DeviceNDArray) else a)
    d = kernel._dispatcher
    key = d._argument_key(tuple(stand_ins))
    return values, d._cuda_argument_types(key)


def _by_value_dtype(name, t):
    """The NumPy dtype laid out as the kernel takes a number or a tuple of
    numbers by value: LLVM's struct layout, which is C's (each member at its
    natural alignment; align=True)."""
    if isinstance(t, _kt.Boolean):
        return np.dtype(np.bool_)
    if isinstance(t, _NUMBERS):
        return np.dtype(t.name)
    if isinstance(t, _kt.BaseTuple) and t.types and not _holds_nothing(t):
        return np.dtype([(f"f{k}", _by_value_dtype(name, e)) for k, e in enumerate(t.types)], align=True)
    raise TypeError(f"kernel '{name}': an argument of type {t} cannot be passed to an AMD GPU kernel yet "
                    "(arrays, device arrays, numbers and tuples of numbers can: docs/amdgpu.md)")


def _nested(v):
    return tuple(_nested(e) for e in v) if isinstance(v, tuple) else v


def pack(name, values, types):
    """(parameters as bytes, [(host array, its device copy)])."""
    params, extents, copies = [], [], []
    for v, t in zip(values, types):
        if isinstance(t, _kt.Array):
            if isinstance(v, hostapi.DeviceNDArray):
                d = v
            else:  # a host array: a device copy for the launch
                d = hostapi.to_device(v)
                copies.append((v, d))
            params.append(struct.pack("<Q", d._ptr))
            extents += [struct.pack("<q", n) for n in d.shape]
            extents += [struct.pack("<q", s) for s in d.strides]
        elif _holds_nothing(t):
            continue
        else:
            dtype = _by_value_dtype(name, t)
            value = (_nested(tuple(v)),) if dtype.names else v  # (a structured scalar takes a tuple)
            params.append(np.array(value[0] if dtype.names else value, dtype=dtype).tobytes())
    return params + extents, copies


def launch(name, loaded, grid, block, stream, shared, values, types):
    """Launches the loaded kernel; copies host arrays back (after waiting
    for the launch) when there were any."""
    params, copies = pack(name, values, types)
    s = hostapi._stream_of(stream)
    _kjit.hip_launch(loaded, list(grid), list(block), int(shared), params, s)
    if copies:  # the launch finishes before its copies are read back (or freed)
        hostapi._sync_for_copy(stream)
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
        key = (tuple(str(t) for t in types), processor, _kjit.hip_current())
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
        k = self._kernel
        hostapi._require()
        # The limits every GPU shares (1024 threads a block ...), as NVIDIA's
        # launches check them: a LaunchConfigError naming the kernel.
        _kjit.check_launch(k.__name__, hostapi.get_current_device().name, self.griddim, self.blockdim,
                           self.sharedmem, k._launch_annotations()[1])
        values, types = argument_types(k, args)
        loaded = k._hip_loader().code(types)
        launch(k.__name__, loaded, self.griddim, self.blockdim, self.stream, self.sharedmem, values, types)
