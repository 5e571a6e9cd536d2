"""Numba's CUDA host API over the HIP runtime: what ``kjit.cuda`` offers
(``cuda.to_device``, ``cuda.device_array``, streams, events ...) when kernels
run on an AMD GPU (``KJIT_DEVICE=hip``, or by default with an AMD GPU and no
CUDA GPU), and what ``kjit.hip`` exports.

Device arrays are strided views of HIP allocations: slicing makes views
(no copy), ``copy_to_host`` reads any view back. They carry
``__cuda_array_interface__`` (CuPy on ROCm reads and writes it under that
name) and DLPack with the ROCm device type (10), for PyTorch-ROCm and
CuPy-ROCm tensors. Launches take them, host NumPy arrays (copied in and back)
and numbers.

Not on AMD GPUs yet (each a clear error): mapped and managed arrays,
external streams, IPC handles.
"""
import contextlib
import operator

import numpy as np

from kjit import _kjit
from kjit.cuda.copy_rules import c_strides as _c_strides, f_strides as _f_strides, shape_tuple as _shape_tuple

__all__ = ["is_available", "gpus", "list_devices", "select_device", "get_current_device", "current_context",
           "synchronize", "close", "detect", "to_device", "device_array", "device_array_like", "pinned_array",
           "pinned_array_like", "mapped_array", "mapped_array_like", "managed_array", "pinned", "mapped", "stream",
           "default_stream", "legacy_default_stream", "per_thread_default_stream", "external_stream", "event",
           "event_elapsed_time", "as_cuda_array", "from_cuda_array_interface", "is_cuda_array", "from_dlpack",
           "DeviceNDArray", "Stream", "Event", "Device"]

DLPACK_ROCM = 10  # kDLROCM in dlpack.h


def _require():
    if not _kjit.hip_available():
        from kjit.cuda.errors import CudaSupportError
        raise CudaSupportError(_kjit.hip_why())


def _unsupported(what):
    return NotImplementedError(f"{what} is not supported on AMD GPUs yet (kjit's HIP device): "
                               "docs/amdgpu.md lists what is")


def _contiguous(shape, strides, itemsize, order):
    if any(n == 0 for n in shape):
        return True
    want = _c_strides(shape, itemsize) if order == "C" else _f_strides(shape, itemsize)
    return all(n == 1 or s == w for n, s, w in zip(shape, strides, want))


# ---- streams and events ---------------------------------------------------------------

class Stream:
    """A HIP stream (``cuda.stream()``); the default stream is ``Stream(None)``."""

    def __init__(self, handle=None):
        self._stream = handle  # _kjit.HipStream, or None: the default stream

    @property
    def handle(self):
        return 0 if self._stream is None else self._stream.handle

    def synchronize(self):
        """Waits for the stream's work; raises what a kernel recorded."""
        if self._stream is None:
            synchronize()
        else:
            _kjit.hip_stream_synchronize(self._stream)

    @contextlib.contextmanager
    def auto_synchronize(self):
        yield self
        self.synchronize()

    def __int__(self):
        return self.handle

    def __repr__(self):
        return "<kjit HIP default stream>" if self._stream is None else f"<kjit HIP stream {self.handle:#x}>"


def _stream_of(s):
    """The _kjit.HipStream of a launch's or copy's stream argument (None: the default)."""
    if s in (0, None):
        return None
    if isinstance(s, Stream):
        return s._stream
    raise TypeError(f"a stream on an AMD GPU is a kjit.cuda.stream(), not {s!r}")


def stream():
    _require()
    return Stream(_kjit.hip_stream_create())


def default_stream():
    return Stream(None)


legacy_default_stream = per_thread_default_stream = default_stream


def external_stream(ptr):
    raise _unsupported("cuda.external_stream")


class Event:
    """A HIP event (``cuda.event()``): record on a stream, synchronize,
    elapsed_time in milliseconds."""

    def __init__(self, timing=True):
        _require()
        self.timing = timing
        self._event = _kjit.hip_event_create()

    def record(self, stream=0):
        _kjit.hip_event_record(self._event, _stream_of(stream))

    def synchronize(self):
        _kjit.hip_event_synchronize(self._event)

    def wait(self, stream=0):
        # (No hipStreamWaitEvent in kjit's table yet: waiting on the host
        # orders the work too, with less overlap.)
        self.synchronize()

    def query(self):
        self.synchronize()
        return True

    def elapsed_time(self, evtend):
        return event_elapsed_time(self, evtend)


def event(timing=True):
    return Event(timing)


def event_elapsed_time(evtstart, evtend):
    """Milliseconds between two recorded events."""
    return _kjit.hip_event_elapsed(evtstart._event, evtend._event)


# ---- devices ----------------------------------------------------------------------------

class Device:
    """An AMD GPU: id, name, processor ("gfx90a"), WARP_SIZE (the
    wavefront: 64 on CDNA, 32 on RDNA), total_memory."""

    def __init__(self, info):
        self.id = info["ordinal"]
        self.name = info["name"]
        self.processor = info["processor"]
        self.arch = info["arch"]
        self.WARP_SIZE = info["wavefront"]
        self.total_memory = info["total_memory"]

    def __repr__(self):
        return f"<AMD GPU {self.id} '{self.name}' ({self.processor})>"


_devices = None  # the runtime's answer, read once: devices do not change in a process


def _device_infos():
    global _devices
    if _devices is None:
        _devices = _kjit.hip_devices()
    return _devices


def current_processor():
    """The processor kjit compiles for on the current AMD GPU ("gfx90a")."""
    _require()
    return _device_infos()[_kjit.hip_current()]["processor"]


def is_available():
    return _kjit.hip_available()


def list_devices():
    return [Device(d) for d in _device_infos()]


class _Gpus:
    """``cuda.gpus``: the AMD GPUs (len, iteration, indexing, ``current``)."""

    def __len__(self):
        return len(_device_infos()) if is_available() else 0

    def __iter__(self):
        return iter(list_devices() if is_available() else [])

    def __getitem__(self, i):
        return list_devices()[i]

    @property
    def current(self):
        return get_current_device()


gpus = _Gpus()


def select_device(device_id):
    _kjit.hip_select(int(device_id))
    return get_current_device()


def get_current_device():
    _require()
    return Device(_device_infos()[_kjit.hip_current()])


class _Context:
    def __init__(self, device):
        self.device = device

    def synchronize(self):
        synchronize()


def current_context(devnum=None):
    if devnum is not None:
        select_device(devnum)
    return _Context(get_current_device())


def synchronize():
    """Waits for the AMD GPU; raises what a kernel recorded."""
    _kjit.hip_synchronize()


def close():
    synchronize()


def detect():
    """Prints the AMD GPUs found; True when there is one."""
    if not is_available():
        print(f"no AMD GPU: {_kjit.hip_why()}")
        return False
    for d in list_devices():
        print(f"id {d.id} {d.name} {d.processor} (wavefront {d.WARP_SIZE})")
    return True


# ---- device arrays ----------------------------------------------------------------------

class DeviceNDArray:
    """An array in the AMD GPU's memory: Numba's DeviceNDArray API (shape,
    strides, dtype, size, nbytes, ndim, copy_to_host, copy_to_device,
    slicing into views, reshape/ravel of contiguous arrays)."""

    def __init__(self, shape, strides=None, dtype=np.float64, stream=0, *, _buffer=None, _ptr=None, _owner=None,
                 _readonly=False):
        self.dtype = np.dtype(dtype)
        self.shape = _shape_tuple(shape)
        if any(n < 0 for n in self.shape):
            raise ValueError(f"negative dimensions are not allowed: {self.shape}")
        self.strides = tuple(int(s) for s in strides) if strides is not None else \
            _c_strides(self.shape, self.dtype.itemsize)
        if len(self.strides) != len(self.shape):
            raise ValueError(f"strides {self.strides} do not match shape {self.shape}")
        self.ndim = len(self.shape)
        self.size = int(np.prod(self.shape, dtype=np.int64))
        self.nbytes = self.size * self.dtype.itemsize
        self.stream = stream
        self._readonly = _readonly
        if _ptr is None:  # a new allocation, large enough for the strides
            _require()
            _buffer = _kjit.hip_malloc(self._span()[1])
            _ptr = _buffer.ptr
        self._buffer = _buffer  # keeps the allocation alive (views share it)
        self._owner = _owner  # or the object whose memory this views
        self._ptr = int(_ptr)

    def _span(self):
        """(lowest byte offset from _ptr, bytes from there to the end of the last element)."""
        if self.size == 0:
            return 0, 0
        lo = sum((n - 1) * s for n, s in zip(self.shape, self.strides) if s < 0)
        hi = sum((n - 1) * s for n, s in zip(self.shape, self.strides) if s > 0)
        return lo, hi - lo + self.dtype.itemsize

    def _view(self, shape, strides, offset):
        return DeviceNDArray(shape, strides, self.dtype, self.stream, _buffer=self._buffer, _ptr=self._ptr + offset,
                             _owner=self._owner, _readonly=self._readonly)

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d device array")
        return self.shape[0]

    def __repr__(self):
        return f"<kjit HIP DeviceNDArray shape={self.shape} dtype={self.dtype}>"

    def is_c_contiguous(self):
        return _contiguous(self.shape, self.strides, self.dtype.itemsize, "C")

    def is_f_contiguous(self):
        return _contiguous(self.shape, self.strides, self.dtype.itemsize, "F")

    @property
    def flags(self):
        return {"C_CONTIGUOUS": self.is_c_contiguous(), "F_CONTIGUOUS": self.is_f_contiguous()}

    @property
    def _layout(self):
        return "C" if self.is_c_contiguous() else "F" if self.is_f_contiguous() else "A"

    @property
    def device_ctypes_pointer(self):
        import ctypes
        return ctypes.c_void_p(self._ptr)

    # -- copies --
    def copy_to_host(self, ary=None, stream=0):
        """The contents as a new NumPy array, or copied into ``ary`` (its
        shape and dtype)."""
        if ary is not None and (tuple(ary.shape) != self.shape or ary.dtype != self.dtype):
            raise ValueError(f"copy_to_host: the host array ({ary.shape}, {ary.dtype}) does not match the device "
                             f"array ({self.shape}, {self.dtype})")
        _sync_for_copy(stream)
        lo, span = self._span()
        if self.is_c_contiguous() or self.is_f_contiguous():
            order = "C" if self.is_c_contiguous() else "F"
            out = ary if ary is not None and ary.flags[order + "_CONTIGUOUS"] else np.empty(self.shape, self.dtype,
                                                                                               order=order)
            if span:
                _kjit.hip_copy_out(out.reshape(-1, order="A").view(np.uint8), self._ptr)
        else:  # a strided view: the bytes it spans, viewed with its strides
            raw = np.empty(span, np.uint8)
            if span:
                _kjit.hip_copy_out(raw, self._ptr + lo)
            out = np.ndarray(self.shape, self.dtype, buffer=raw, offset=-lo, strides=self.strides).copy()
        if ary is not None and out is not ary:
            ary[...] = out
            return ary
        return out

    def copy_to_device(self, ary, stream=0):
        """Copies a host array, or another device array, of the same shape in."""
        if self._readonly:
            raise ValueError("copy_to_device: the device array is read-only")
        if isinstance(ary, DeviceNDArray):
            if ary.shape != self.shape or ary.dtype != self.dtype:
                raise ValueError(f"copy_to_device: shape/dtype {ary.shape}/{ary.dtype} do not match "
                                 f"{self.shape}/{self.dtype}")
            if ary.strides == self.strides and (self.is_c_contiguous() or self.is_f_contiguous()):
                _kjit.hip_copy_device(self._ptr, ary._ptr, self.nbytes)
                return
            ary = ary.copy_to_host()
        a = np.asarray(ary)
        if a.dtype != self.dtype:
            a = a.astype(self.dtype)
        if a.shape != self.shape:
            try:
                a = np.broadcast_to(a, self.shape)
            except ValueError:
                raise ValueError(f"copy_to_device: shape {a.shape} does not match the device array's "
                                 f"{self.shape}") from None
        _sync_for_copy(stream)
        if self.size == 0:
            return
        if self.is_c_contiguous():
            _kjit.hip_copy_in(self._ptr, np.ascontiguousarray(a).reshape(-1).view(np.uint8))
        elif self.is_f_contiguous():
            _kjit.hip_copy_in(self._ptr, np.asfortranarray(a).reshape(-1, order="F").view(np.uint8))
        else:  # read the span, write the view's elements into it, write it back
            lo, span = self._span()
            raw = np.empty(span, np.uint8)
            _kjit.hip_copy_out(raw, self._ptr + lo)
            np.ndarray(self.shape, self.dtype, buffer=raw, offset=-lo, strides=self.strides)[...] = a
            _kjit.hip_copy_in(self._ptr + lo, raw)

    def copy_to_host_async(self, stream):
        return self.copy_to_host(stream=stream)

    # -- views --
    def __getitem__(self, index):
        shape, strides, offset = _index(self.shape, self.strides, index)
        view = self._view(shape, strides, offset)
        if not shape:  # one element: its value, as Numba gives
            return view.copy_to_host()[()]
        return view

    def __setitem__(self, index, value):
        shape, strides, offset = _index(self.shape, self.strides, index)
        self._view(shape, strides, offset).copy_to_device(value)

    def reshape(self, *newshape, order="C"):
        if len(newshape) == 1 and isinstance(newshape[0], (tuple, list)):
            newshape = tuple(newshape[0])
        shape = _reshaped(self.size, newshape)
        if shape == self.shape:
            return self
        if order == "C" and self.is_c_contiguous():
            return self._view(shape, _c_strides(shape, self.dtype.itemsize), 0)
        if order == "F" and self.is_f_contiguous():
            return self._view(shape, _f_strides(shape, self.dtype.itemsize), 0)
        raise NotImplementedError("reshape of a non-contiguous device array (Numba's rule): copy it first")

    def ravel(self, order="C"):
        return self.reshape(self.size, order=order)

    @property
    def T(self):
        return self._view(self.shape[::-1], self.strides[::-1], 0)

    def transpose(self, axes=None):
        if axes is None:
            return self.T
        return self._view(tuple(self.shape[a] for a in axes), tuple(self.strides[a] for a in axes), 0)

    # -- interchange --
    @property
    def __cuda_array_interface__(self):
        # CuPy on ROCm reads this name; the pointer is a HIP device pointer.
        return {"shape": self.shape, "strides": None if self.is_c_contiguous() else self.strides,
                "typestr": self.dtype.str, "data": (self._ptr if self.size else 0, self._readonly), "version": 3,
                "stream": None}

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        if stream not in (None, -1):
            synchronize()  # the consumer's stream sees this array's work
        return _kjit.dlpack_export(self, self._ptr, list(self.shape), list(self.strides), self.dtype, DLPACK_ROCM,
                                   _kjit.hip_current())

    def __dlpack_device__(self):
        return (DLPACK_ROCM, _kjit.hip_current())


def _reshaped(size, newshape):
    """``newshape`` with its -1 resolved; NumPy's error when it does not hold ``size`` elements."""
    shape = [operator.index(n) for n in newshape]
    known = int(np.prod([n for n in shape if n != -1], dtype=np.int64))
    if shape.count(-1) > 1:
        raise ValueError("can only specify one unknown dimension")
    if -1 in shape and known and size % known == 0:
        shape[shape.index(-1)] = size // known
    if -1 in shape or int(np.prod(shape, dtype=np.int64)) != size or any(n < 0 for n in shape):
        raise ValueError(f"cannot reshape array of size {size} into shape {tuple(newshape)}")
    return tuple(shape)


def _index(shape, strides, index):
    """(shape, strides, byte offset) of a basic index (integers, slices,
    Ellipsis, None) of an array; NumPy's rules and errors."""
    if not isinstance(index, tuple):
        index = (index,)
    if any(isinstance(i, (np.ndarray, list, DeviceNDArray)) for i in index):
        raise _unsupported("indexing a device array with an array (advanced indexing)")
    n_real = sum(1 for i in index if i is not None and i is not Ellipsis)
    if sum(1 for i in index if i is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if n_real > len(shape):
        raise IndexError(f"too many indices for array: array is {len(shape)}-dimensional, but {n_real} were indexed")
    expanded = []
    for i in index:
        if i is Ellipsis:
            expanded += [slice(None)] * (len(shape) - n_real)
        else:
            expanded.append(i)
    if Ellipsis not in index:
        expanded += [slice(None)] * (len(shape) - n_real)
    out_shape, out_strides, offset, axis = [], [], 0, 0
    for i in expanded:
        if i is None:
            out_shape.append(1)
            out_strides.append(0)
            continue
        n, s = shape[axis], strides[axis]
        if isinstance(i, slice):
            start, stop, step = i.indices(n)
            out_shape.append(len(range(start, stop, step)))
            out_strides.append(s * step)
            offset += start * s
        else:
            k = operator.index(i)
            if not -n <= k < n:
                raise IndexError(f"index {k} is out of bounds for axis {axis} with size {n}")
            offset += (k % n) * s
        axis += 1
    return tuple(out_shape), tuple(out_strides), offset


def _sync_for_copy(stream):
    # Copies are synchronous: the work before them on their stream (or
    # the whole device) finishes first, and recorded exceptions surface.
    s = _stream_of(stream)
    if s is None:
        synchronize()
    else:
        _kjit.hip_stream_synchronize(s)


def to_device(obj, stream=0, copy=True, to=None):
    """A device array holding a copy of ``obj`` (or ``obj`` copied into ``to``)."""
    if to is not None:
        to.copy_to_device(obj, stream=stream)
        return to
    if isinstance(obj, DeviceNDArray):
        return obj
    a = np.asarray(obj)
    if not (a.flags.c_contiguous or a.flags.f_contiguous):
        a = np.ascontiguousarray(a)
    strides = _f_strides(a.shape, a.itemsize) if (a.flags.f_contiguous and not a.flags.c_contiguous) else None
    d = DeviceNDArray(a.shape, strides, a.dtype, stream)
    if copy:
        d.copy_to_device(a, stream=stream)
    return d


def device_array(shape, dtype=np.float64, strides=None, order="C", stream=0):
    """A device array, uninitialised."""
    from kjit.cuda.hostapi import as_dtype
    dtype = as_dtype(dtype)
    shape = _shape_tuple(shape)
    if strides is None and order == "F":
        strides = _f_strides(shape, dtype.itemsize)
    elif order not in ("C", "F"):
        raise ValueError("order must be 'C' or 'F'")
    return DeviceNDArray(shape, strides, dtype, stream)


def device_array_like(ary, stream=0):
    a = ary if isinstance(ary, DeviceNDArray) else np.asarray(ary)
    order = "F" if (a.is_f_contiguous() if isinstance(a, DeviceNDArray) else
                    a.flags.f_contiguous and not a.flags.c_contiguous) and a.ndim > 1 else "C"
    return device_array(a.shape, a.dtype, order=order, stream=stream)


def pinned_array(shape, dtype=np.float64, strides=None, order="C"):
    """A host array (pageable memory on AMD GPUs: copies work the same)."""
    from kjit.cuda.hostapi import as_dtype
    if strides is not None:
        raise _unsupported("pinned_array with strides")
    return np.empty(shape, as_dtype(dtype), order=order)


def pinned_array_like(ary):
    return np.empty_like(ary)


@contextlib.contextmanager
def pinned(*arylist):
    yield


def mapped_array(*args, **kwargs):
    raise _unsupported("cuda.mapped_array")


mapped_array_like = mapped = mapped_array


def managed_array(*args, **kwargs):
    raise _unsupported("cuda.managed_array")


# ---- interchange --------------------------------------------------------------------------

def is_cuda_array(obj):
    return isinstance(obj, DeviceNDArray) or hasattr(obj, "__cuda_array_interface__")


def from_cuda_array_interface(desc, owner=None, sync=True):
    """A device array viewing the memory a ``__cuda_array_interface__``
    dictionary describes (on the AMD GPU: CuPy-ROCm exports one), kept alive
    by ``owner``."""
    dtype = np.dtype(desc["typestr"])
    shape = tuple(desc["shape"])
    strides = desc.get("strides") or _c_strides(shape, dtype.itemsize)
    ptr, readonly = desc["data"]
    if sync and desc.get("stream") not in (None, 0):
        synchronize()
    return DeviceNDArray(shape, strides, dtype, _ptr=ptr or 0, _owner=owner, _readonly=bool(readonly))


def as_cuda_array(obj, sync=True):
    if isinstance(obj, DeviceNDArray):
        return obj
    return from_cuda_array_interface(obj.__cuda_array_interface__, owner=obj, sync=sync)


def from_dlpack(obj):
    """A device array viewing a DLPack tensor on the AMD GPU (a
    PyTorch-ROCm or CuPy-ROCm tensor: DLPack device type 10)."""
    ptr, shape, strides, dtype, (dev_type, _dev_id), owner = _kjit.dlpack_import(obj, 1)
    if dev_type not in (DLPACK_ROCM, 11):  # kDLROCM, kDLROCMHost
        raise TypeError(f"from_dlpack: the tensor is on a device of DLPack type {dev_type}, not an AMD GPU "
                        f"(type {DLPACK_ROCM})")
    return DeviceNDArray(shape, strides, dtype, _ptr=ptr, _owner=owner)
