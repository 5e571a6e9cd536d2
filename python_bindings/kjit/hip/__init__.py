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
``hip.device_array(shape, dtype)``, ``hip.device_array_like(a)``, and
``d.copy_to_host()``.

``hip.is_available()`` says whether an AMD GPU is there, ``hip.why()`` why
not. ``KJIT_HIP_RUNTIME`` names another HIP library (tests use a fake one),
``KJIT_HIP_ARCH`` overrides the processor the runtime reports.
"""
import struct

import numpy as np

from kjit import _kjit
from kjit import types as _kt
from kjit.typeof import typeof as _typeof

__all__ = ["jit", "is_available", "why", "list_devices", "compile_amdgcn", "synchronize", "HipKernel",
           "DeviceNDArray", "to_device", "device_array", "device_array_like"]


def is_available():
    """Whether the HIP runtime loaded and found an AMD GPU."""
    return _kjit.hip_available()


def why():
    """Why there is no AMD GPU ("" when there is one)."""
    return _kjit.hip_why()


_devices = None  # the runtime's answer, read once: devices do not change in a process


def list_devices():
    """The AMD GPUs: dicts of ordinal, name, arch (the runtime's name),
    processor (what kjit compiles for), wavefront and total_memory."""
    global _devices
    if _devices is None:
        _devices = _kjit.hip_devices()
    return [dict(d) for d in _devices]


def synchronize():
    """Waits for the device; raises what a kernel recorded."""
    _kjit.hip_synchronize()


def compile_amdgcn(pyfunc, sig, device=False, fastmath=False, arch="gfx90a", output="asm", lineinfo=False):
    """cuda.compile_amdgcn (no AMD GPU needed)."""
    from kjit.cuda.compiler import compile_amdgcn as compile_
    if isinstance(pyfunc, HipKernel):
        pyfunc = pyfunc.py_func
    return compile_(pyfunc, sig, device=device, fastmath=fastmath, arch=arch, output=output, lineinfo=lineinfo)


class DeviceNDArray:
    """A C-contiguous array in the AMD GPU's memory (Numba's DeviceNDArray
    API, as far as kjit.hip goes: shape, dtype, strides, size, nbytes,
    ndim, copy_to_host, copy_to_device)."""

    def __init__(self, shape, dtype):
        _require()
        self.dtype = np.dtype(dtype)
        self.shape = tuple(int(n) for n in (shape if isinstance(shape, tuple) else (shape,)))
        if any(n < 0 for n in self.shape):
            raise ValueError(f"negative dimensions are not allowed: {self.shape}")
        self.strides = tuple(int(s) for s in np.empty(0, self.dtype).itemsize *
                             np.array([int(np.prod(self.shape[k + 1:])) for k in range(len(self.shape))],
                                      dtype=np.int64))
        self.size = int(np.prod(self.shape))
        self.nbytes = self.size * self.dtype.itemsize
        self.ndim = len(self.shape)
        self._buffer = _kjit.hip_malloc(self.nbytes)

    def __len__(self):
        return self.shape[0]

    def __repr__(self):
        return f"<kjit.hip.DeviceNDArray shape={self.shape} dtype={self.dtype}>"

    def copy_to_device(self, ary):
        """Copies a host array of the same shape and dtype in."""
        a = np.ascontiguousarray(ary, dtype=self.dtype)
        if a.shape != self.shape:
            raise ValueError(f"copy_to_device: shape {a.shape} does not match the device array's {self.shape}")
        _kjit.hip_to_device(self._buffer, a.reshape(-1).view(np.uint8))

    def copy_to_host(self, ary=None):
        """The contents as a new NumPy array, or copied into `ary`."""
        out = np.empty(self.shape, self.dtype) if ary is None else ary
        if out.shape != self.shape or out.dtype != self.dtype or not out.flags.c_contiguous:
            raise ValueError("copy_to_host: the host array must be C-contiguous with the device array's "
                             f"shape {self.shape} and dtype {self.dtype}")
        _kjit.hip_synchronize()
        _kjit.hip_to_host(self._buffer, out.reshape(-1).view(np.uint8))
        return out


def to_device(ary):
    """A device array holding a copy of `ary`."""
    a = np.ascontiguousarray(ary)
    d = DeviceNDArray(a.shape, a.dtype)
    d.copy_to_device(a)
    return d


def device_array(shape, dtype=np.float64):
    """A device array, uninitialised."""
    return DeviceNDArray(shape, dtype)


def device_array_like(ary):
    return DeviceNDArray(np.shape(ary), np.asarray(ary).dtype)


def _require():
    if not _kjit.hip_available():
        from kjit.cuda.errors import CudaSupportError
        raise CudaSupportError(_kjit.hip_why())


def _dim3(v, what):
    if isinstance(v, (int, np.integer)):
        v = (int(v),)
    v = tuple(int(x) for x in v)
    if not 1 <= len(v) <= 3 or any(x < 1 for x in v):
        raise ValueError(f"the {what} of a launch is 1 to 3 positive integers, not {v}")
    return v + (1,) * (3 - len(v))


def _holds_nothing(t):
    return isinstance(t, _kt.BaseTuple) and all(_holds_nothing(e) for e in t.types)


class HipKernel:
    """A @hip.jit kernel: the kernel-language function, compiled for the
    AMD GPU at its first launch with each set of argument types."""

    def __init__(self, py_func, **options):
        from kjit import cuda
        self._kernel = cuda.jit(**options)(py_func) if options else cuda.jit(py_func)
        self.py_func = py_func
        self.__name__ = py_func.__name__
        self.__doc__ = py_func.__doc__
        self._loaded = {}
        self._assembly = {}  # (argument types, processor) -> AMDGCN assembly

    def __getitem__(self, config):
        if not isinstance(config, tuple) or not 2 <= len(config) <= 4:
            raise ValueError("a launch is kernel[grid, block] or kernel[grid, block, stream, shared bytes]")
        grid, block = _dim3(config[0], "grid"), _dim3(config[1], "block")
        shared = int(config[3]) if len(config) > 3 else 0
        return lambda *args: self._launch(grid, block, shared, args)

    def _code(self, types):
        list_devices()
        device = _devices[_kjit.hip_current()]
        key = (tuple(str(t) for t in types), device["processor"])
        if key not in self._loaded:  # (with the kernel's options: debug, boundscheck ...)
            _, hsaco, asm, _ = self._kernel._dispatcher._compile_amdgpu(_kt.signature_text(_kt.void(*types)), False,
                                                                        device["processor"])
            self._assembly[key] = asm
            self._loaded[key] = _kjit.hip_load(hsaco, self.py_func.__name__, self.py_func.__name__)
        return self._loaded[key]

    def inspect_asm(self, signature=None):
        """The AMDGCN assembly of what the launches compiled: {argument types
        (a tuple of their names): assembly}, or that of one signature
        (a tuple of kjit types, or of their names)."""
        out = {k[0]: asm for k, asm in self._assembly.items()}
        if signature is None:
            return out
        names = tuple(str(t) for t in signature)
        if names not in out:
            raise KeyError(f"kernel '{self.__name__}' was not launched with argument types {names}")
        return out[names]

    def _launch(self, grid, block, shared, args):
        _require()
        hosts, values = [], []
        for a in args:
            if isinstance(a, DeviceNDArray):
                values.append(a)
            elif isinstance(a, np.ndarray):
                c = np.ascontiguousarray(a)
                hosts.append((a, c))
                values.append(c)
            else:
                values.append(a)
        types = tuple(_kt.Array(_typeof(v.dtype.type(0)), v.ndim, "C") if isinstance(v, DeviceNDArray)
                      else _typeof(v) for v in values)
        # kjit's AMD kernel parameters: the numbers and the arrays' data
        # pointers in the arguments' order, then each array's shape and
        # strides (compiler/LoweringCuda.cpp, emitKernelEntry).
        params, extents, buffers = [], [], []
        for v, t in zip(values, types):
            if isinstance(v, DeviceNDArray):  # already there: no copy
                params.append(struct.pack("<Q", v._buffer.ptr))
                extents += [struct.pack("<q", n) for n in v.shape]
                extents += [struct.pack("<q", s) for s in v.strides]
            elif isinstance(t, _kt.Array):
                buf = _kjit.hip_malloc(v.nbytes)
                _kjit.hip_to_device(buf, v.reshape(-1).view(np.uint8))
                buffers.append((v, buf))
                params.append(struct.pack("<Q", buf.ptr))
                extents += [struct.pack("<q", n) for n in v.shape]
                extents += [struct.pack("<q", s) for s in v.strides]
            elif _holds_nothing(t):
                continue
            elif isinstance(t, (_kt.Integer, _kt.Float, _kt.Complex, _kt.Boolean)):
                params.append(np.array(v, dtype=np.dtype("bool" if isinstance(t, _kt.Boolean) else t.name)).tobytes())
            else:
                raise TypeError(f"kernel '{self.__name__}': an argument of type {t} cannot be passed to an AMD "
                                "GPU kernel yet (arrays and numbers can)")
        kernel = self._code(types)
        _kjit.hip_launch(kernel, list(grid), list(block), shared, params + extents)
        _kjit.hip_synchronize()
        for v, buf in buffers:
            _kjit.hip_to_host(buf, v.reshape(-1).view(np.uint8))
        for original, copy in hosts:
            if copy is not original and original.flags.writeable:
                original[...] = copy


def jit(func=None, **options):
    """@hip.jit / @hip.jit(**options): a kernel for AMD GPUs (options as
    @cuda.jit's: debug, fastmath, lineinfo, boundscheck ...)."""
    if func is None:
        return lambda f: HipKernel(f, **options)
    return HipKernel(func, **options)
