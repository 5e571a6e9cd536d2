"""Numba's CUDA host API over host memory.

The "device" of the simulator (``KJIT_ENABLE_CUDASIM=1``) and of kjit's CPU
device is this process's memory: a ``DeviceNDArray`` wraps a NumPy array
(``_ary``) that kernels read and write in place. Transfers are copies, as
on a GPU (``to_device`` never aliases the host array; ``copy_to_host``
returns a new array), so code written for a GPU behaves the same.

All work is synchronous: a kernel launch or a copy is finished when the
call returns. That is a valid implementation of CUDA streams (any order
is allowed within the rules), so streams and events are accepted and
keep their meaning; events record host time (``time.perf_counter``).
"""
import contextlib
import ctypes
import itertools
import operator
import os
import time
from collections import namedtuple

import numpy as np

from kjit import types as _kt
from kjit.cuda.copy_rules import (_IncompatibleArrays, _array_core, _check_compatible, _sentry_contiguous,
                                   layout_like, shape_tuple as _shape_tuple)
from kjit.cuda.errors import CudaAPIError

__all__ = ["is_available", "gpus", "list_devices", "select_device", "get_current_device", "current_context",
           "synchronize", "close", "detect", "to_device", "device_array", "device_array_like", "pinned_array",
           "pinned_array_like", "mapped_array", "mapped_array_like", "managed_array", "pinned", "mapped", "stream", "default_stream",
           "legacy_default_stream", "per_thread_default_stream", "external_stream", "event", "event_elapsed_time",
           "as_cuda_array", "from_cuda_array_interface", "is_cuda_array", "from_dlpack", "DeviceNDArray", "Stream", "Event", "Device"]

_device_name = "kjit host device"


def _set_device_name(name):
    """The name the device reports (``cuda.get_current_device().name``):
    set by the backend that uses this module ("kjit simulator", "kjit CPU device")."""
    global _device_name
    _device_name = str(name)


def as_dtype(dtype):
    """A NumPy dtype from a NumPy dtype or scalar type, a kjit type
    (``kjit.float32``), a Numba type or a name."""
    if isinstance(dtype, np.dtype):
        return dtype
    if isinstance(dtype, _kt.Record):
        return dtype.dtype
    if isinstance(dtype, _kt.Type):
        if isinstance(dtype, (_kt.Array, _kt.UniTuple, _kt.Tuple)) or dtype.name in ("void", "none"):
            raise TypeError(f"{dtype} is not a scalar type")
        return np.dtype(dtype.name)
    if type(dtype).__module__.startswith("numba"):
        return np.dtype(str(dtype))
    return np.dtype(dtype)


def _new_array(shape, dtype, strides=None, order="C"):
    """A zeroed host array ("device memory") of this shape, dtype and strides."""
    dtype = as_dtype(dtype)
    shape = _shape_tuple(shape)
    if order not in ("C", "F"):
        raise ValueError("order must be 'C' or 'F'")
    if strides is None:
        return np.zeros(shape, dtype, order=order)
    strides = tuple(int(s) for s in strides)
    if len(strides) != len(shape):
        raise ValueError(f"strides {strides} do not match shape {shape}")
    if any(n == 0 for n in shape):
        return np.zeros(shape, dtype)
    lo = sum((n - 1) * s for n, s in zip(shape, strides) if s < 0)
    hi = sum((n - 1) * s for n, s in zip(shape, strides) if s > 0)
    buf = np.zeros(hi - lo + dtype.itemsize, np.uint8)
    return np.ndarray(shape, dtype, buffer=buf, offset=-lo, strides=strides)


def _stream_given(stream):
    """Whether a stream argument names a stream (0 and None do not)."""
    return stream is not None and not (isinstance(stream, int) and not isinstance(stream, Stream) and stream == 0)


def _device_copy(a):
    """The device's copy of host array ``a``: as Numba, broadcast
    (zero-stride) axes stay broadcast, only the distinct elements are copied."""
    if a.size and any(s == 0 and n > 1 for n, s in zip(a.shape, a.strides)):
        keep = tuple(0 if (s == 0 and n > 1) else slice(None) for n, s in zip(a.shape, a.strides))
        core = np.array(a[keep], copy=True, order="K")
        it = iter(core.strides)
        strides = tuple(0 if k == 0 else next(it) for k in keep)
        return np.lib.stride_tricks.as_strided(core, a.shape, strides)
    return np.array(a, copy=True, order="K")


# ---- device arrays -------------------------------------------------------------------
class DeviceNDArray:
    """An array in the device's memory, which here is host memory.

    ``_ary`` is the NumPy array holding the memory: kernels take it and
    write into it; views (slices, ``reshape``, ``T``) share it."""

    __cuda_memory__ = True
    __cuda_ndarray__ = True

    def __init__(self, shape, strides=None, dtype=None, stream=0, gpu_data=None):
        """Numba's constructor, ``DeviceNDArray(shape, strides, dtype, stream=0)``
        (new zeroed memory); ``DeviceNDArray(ndarray, stream)`` wraps that memory."""
        if isinstance(shape, np.ndarray):
            ary = shape
            if strides is not None:  # DeviceNDArray(ary, stream)
                stream = strides
            if type(ary) is not np.ndarray:
                ary = ary.view(np.ndarray)
        elif gpu_data is not None:
            raise TypeError("DeviceNDArray: gpu_data is not supported on this device")
        else:
            ary = _new_array(shape, np.float64 if dtype is None else dtype, strides)
        self._ary = ary
        self.stream = stream

    # ---- what NumPy arrays have ----------------------------------------------------
    @property
    def __array_interface__(self):
        return self._ary.__array_interface__

    @property
    def __cuda_array_interface__(self):
        """Version 3 of the CUDA Array Interface, as Numba's simulator gives
        it: the data pointer is a host address (this device's memory)."""
        a = self._ary
        return {"shape": a.shape, "strides": None if a.flags.c_contiguous else a.strides,
                "typestr": a.dtype.str,
                "data": (a.__array_interface__["data"][0] if a.size else 0, not a.flags.writeable),
                "version": 3, "stream": int(self.stream) if _stream_given(self.stream) else None}

    @property
    def _numba_type_(self):
        """The array's kjit type (``array(float32, 1d, C)``), as ``typeof``."""
        from kjit.typeof import typeof
        return typeof(self._ary)

    @property
    def shape(self):
        return self._ary.shape

    @property
    def dtype(self):
        return self._ary.dtype

    @property
    def size(self):
        return self._ary.size

    @property
    def ndim(self):
        return self._ary.ndim

    @property
    def nbytes(self):
        return self._ary.nbytes

    @property
    def alloc_size(self):
        """The bytes the array spans (Numba's ``alloc_size``)."""
        a = self._ary
        if not a.size:
            return 0
        return sum((n - 1) * abs(s) for n, s in zip(a.shape, a.strides)) + a.itemsize

    @property
    def strides(self):
        return self._ary.strides

    @property
    def itemsize(self):
        return self._ary.itemsize

    def __len__(self):
        if not self._ary.shape:
            raise TypeError("len() of a 0-d device array")
        return self._ary.shape[0]

    def is_c_contiguous(self):
        return bool(self._ary.flags.c_contiguous)

    def is_f_contiguous(self):
        return bool(self._ary.flags.f_contiguous)

    @property
    def flags(self):
        return self._ary.flags

    @property
    def device_ctypes_pointer(self):
        return ctypes.c_void_p(self._ary.__array_interface__["data"][0])

    @property
    def gpu_data(self):
        return self._ary

    def bind(self, stream=0):
        return DeviceNDArray(self._ary, stream)

    def __repr__(self):
        return f"<kjit DeviceNDArray shape={self.shape} dtype={self.dtype} on '{_device_name}'>"

    # ---- views ---------------------------------------------------------------------
    def _wrap(self, a):
        return DeviceNDArray(a, self.stream)

    @staticmethod
    def _basic_index(idx):
        # As the GPU's device arrays: ints, slices, None and Ellipsis only,
        # so that a program that runs here runs on a GPU too.
        for it in idx if isinstance(idx, tuple) else (idx,):
            if isinstance(it, (slice, type(Ellipsis), type(None))):
                continue
            try:
                operator.index(it)
            except TypeError:
                raise TypeError("device arrays are indexed by ints, slices, None and Ellipsis (not "
                                f"{type(it).__name__}): copy to the host for fancy indexing") from None
        return idx

    def __getitem__(self, idx):
        r = self._ary[self._basic_index(idx)]
        if isinstance(r, np.ndarray):
            return self._wrap(r)
        return r  # one element: a scalar, as Numba gives

    def __setitem__(self, idx, value):
        self.setitem(idx, value)

    def getitem(self, item, stream=0):
        return self[item]

    def setitem(self, key, value, stream=0):
        """``self[key] = value`` on ``stream``; with neither a stream given
        nor one bound to the array, synchronizes the default stream after,
        as Numba does."""
        if isinstance(value, DeviceNDArray):
            value = value._ary
        self._ary[self._basic_index(key)] = value
        if not _stream_given(stream) and not _stream_given(self.stream):
            default_stream().synchronize()

    def reshape(self, *newshape, order="C"):
        if len(newshape) == 1 and not isinstance(newshape[0], (int, np.integer)):
            newshape = tuple(newshape[0])
        if order not in ("C", "F"):
            raise ValueError("order is 'C' or 'F'")
        v = self._ary.reshape(newshape, order=order)
        if v.size and not np.may_share_memory(v, self._ary):
            raise NotImplementedError("this reshape would need a copy of a non-contiguous device array")
        return self._wrap(v)

    def ravel(self, order="C", stream=0):
        """A 1-d view (Numba's rule): order 'C' of a C-contiguous array, 'F'
        of an F-contiguous one, 'A' (and 'K') of either; other arrays raise
        NotImplementedError (a copy would be needed)."""
        if order not in ("C", "F", "A", "K"):
            raise ValueError("order not C|F|A")
        a = self._ary
        if order in "CAK" and a.flags.c_contiguous:
            v = a.reshape(-1, order="C")
        elif order in "FAK" and a.flags.f_contiguous:
            v = a.reshape(-1, order="F")
        else:
            raise NotImplementedError("ravel on non-contiguous array")
        return DeviceNDArray(v, stream or self.stream)

    @property
    def T(self):
        return self.transpose()

    def transpose(self, axes=None):
        """Numba's rule: the identity permutation, or 2-d arrays only."""
        a = self._ary
        if axes and tuple(axes) == tuple(range(a.ndim)):
            return self
        if a.ndim != 2:
            raise NotImplementedError("transposing a non-2D DeviceNDArray isn't supported")
        if axes is not None and set(axes) != set(range(a.ndim)):
            raise ValueError(f"invalid axes list {axes!r}")
        return self._wrap(a.transpose(axes) if axes is not None else a.T)

    def view(self, dtype):
        return self._wrap(self._ary.view(as_dtype(dtype)))

    def squeeze(self, axis=None, stream=0):
        return DeviceNDArray(self._ary.squeeze(axis), stream or self.stream)

    def split(self, section, stream=0):
        if self.ndim != 1:
            raise ValueError("only 1-d arrays can be split")
        return [DeviceNDArray(a, stream or self.stream)
                for a in np.split(self._ary, range(section, len(self), section))]

    # ---- copies --------------------------------------------------------------------
    def copy_to_host(self, ary=None, stream=0):
        """A new NumPy array with the contents, or the contents copied into
        ``ary`` (same shape, or same size, and same dtype), returned."""
        if ary is None:
            return np.array(self._ary, copy=True, order="K")
        if isinstance(ary, DeviceNDArray):
            raise TypeError("copy_to_host takes a host array; use copy_to_device between device arrays")
        if ary.dtype != self.dtype:
            raise _IncompatibleArrays(f"incompatible dtype: {ary.dtype} vs. {self.dtype}")
        src = self._ary
        if ary.shape != src.shape:
            if ary.size != src.size:
                raise _IncompatibleArrays(f"incompatible shape: {ary.shape} vs. {src.shape}")
            src = src.reshape(ary.shape)
        np.copyto(ary, src)
        return ary

    def copy_to_host_async(self, stream=0):
        return self.copy_to_host(stream=stream)

    def copy_to_device(self, ary, stream=0):
        """Copies a host array, or another device array, of the same shape
        (or the same shape without axes of length 1) and dtype into this one."""
        if self._ary.size == 0:
            return
        _sentry_contiguous(self._ary)
        dst = _array_core(self._ary)
        if isinstance(ary, DeviceNDArray) or (not isinstance(ary, np.ndarray)
                                              and hasattr(ary, "__cuda_array_interface__")):
            src = as_cuda_array(ary)._ary
            _sentry_contiguous(src)
            src = _array_core(src)
        else:  # a host array: its core, in this array's order (a copy where needed)
            src = np.asarray(_array_core(np.asarray(ary)), order="C" if dst.flags.c_contiguous else "F")
        _check_compatible(dst, src)
        np.copyto(dst, src.reshape(dst.shape))

    def copy_to_host_like(self):
        return self.copy_to_host()

    # ---- interop -------------------------------------------------------------------
    def __dlpack__(self, stream=None):
        return self._ary.__dlpack__()

    def __dlpack_device__(self):
        return self._ary.__dlpack_device__()


def _host_data(obj):
    if isinstance(obj, DeviceNDArray):
        return obj._ary
    return np.asarray(obj)


def to_device(obj, stream=0, copy=True, to=None):
    """A device copy of a host array (``copy=False``: the allocation only,
    zeroed); with ``to=``, copies into that device array and returns it."""
    if to is not None:
        to.copy_to_device(obj, stream=stream)
        return to
    a = _host_data(obj)
    if copy:
        d = _device_copy(a)
    else:
        d = np.zeros_like(a, order="K")
    if type(d) is not np.ndarray:
        d = d.view(np.ndarray)
    return DeviceNDArray(d, stream)


def device_array(shape, dtype=np.float64, strides=None, order="C", stream=0):
    """A new device array (zeroed: the contents of new device memory are
    unspecified on a GPU)."""
    return DeviceNDArray(_new_array(shape, dtype, strides, order), stream)


def _contiguous_strides_like(a):
    return layout_like(a.shape, a.strides, a.dtype)[0]


def _order_like(a):
    return layout_like(a.shape, a.strides, a.dtype)[1]


def device_array_like(ary, stream=0):
    a = _host_data(ary)
    return device_array(a.shape, a.dtype, _contiguous_strides_like(a), _order_like(a), stream)


def pinned_array(shape, dtype=np.float64, strides=None, order="C"):
    """A host array (page-locking means nothing here)."""
    return _new_array(shape, dtype, strides, order)


def pinned_array_like(ary):
    a = _host_data(ary)
    return pinned_array(a.shape, a.dtype, _contiguous_strides_like(a), _order_like(a))


class _MappedArray(np.ndarray):
    """What ``mapped_array`` and ``managed_array`` give: a NumPy array that
    kernels take directly (here, as every host array), exporting
    ``__cuda_array_interface__`` with the stream it was made on, as Numba's
    mapped and managed arrays do."""

    def __array_finalize__(self, obj):
        self._kjit_stream = getattr(obj, "_kjit_stream", 0)

    @property
    def __cuda_array_interface__(self):
        s = self._kjit_stream
        return {"shape": self.shape, "strides": None if self.flags.c_contiguous else self.strides,
                "typestr": self.dtype.str,
                "data": (self.__array_interface__["data"][0] if self.size else 0, not self.flags.writeable),
                "version": 3, "stream": int(s) if _stream_given(s) else None}


def _mapped(a, stream):
    a = a.view(_MappedArray)
    a._kjit_stream = stream
    return a


def mapped_array(shape, dtype=np.float64, strides=None, order="C", stream=0, portable=False, wc=False):
    """A host array that kernels also take directly (here, every host array)."""
    return _mapped(_new_array(shape, dtype, strides, order), stream)


def mapped_array_like(ary, stream=0, portable=False, wc=False):
    """A mapped array (``mapped_array``) of the shape, dtype and order of ``ary``."""
    a = _host_data(ary)
    return mapped_array(a.shape, a.dtype, _contiguous_strides_like(a), _order_like(a), stream=stream,
                        portable=portable, wc=wc)


def managed_array(shape, dtype=np.float64, strides=None, order="C", stream=0, attach_global=True):
    """A host array in "managed" memory, usable by host and kernels."""
    return _mapped(_new_array(shape, dtype, strides, order), stream)


@contextlib.contextmanager
def pinned(*arylist):
    """Page-locks host arrays for the block (nothing to do here)."""
    yield


@contextlib.contextmanager
def mapped(*arylist, stream=0):
    """Maps host arrays for the block: yields device arrays viewing them
    (one, or a list)."""
    views = [DeviceNDArray(np.asarray(a).view(np.ndarray), stream) for a in arylist]
    yield views[0] if len(views) == 1 else views


def is_cuda_array(obj):
    """Whether ``obj`` is a device array: this device's, or an object with
    ``__cuda_array_interface__`` (whose pointer here is a host address)."""
    return isinstance(obj, DeviceNDArray) or hasattr(obj, "__cuda_array_interface__")


class _InterfaceHolder:
    # Gives NumPy a __cuda_array_interface__'s memory as __array_interface__
    # and keeps the object that owns it alive (the view's base).
    def __init__(self, owner, iface):
        self.owner = owner
        self.__array_interface__ = {"shape": tuple(iface["shape"]), "typestr": iface["typestr"],
                                    "data": tuple(iface["data"]), "strides": iface.get("strides"),
                                    "descr": iface.get("descr", [("", iface["typestr"])]), "version": 3}


def from_cuda_array_interface(desc, owner=None, sync=True):
    """A device array viewing the memory a ``__cuda_array_interface__``
    dictionary describes (here a host address), kept alive by ``owner``.
    A stream in ``desc`` becomes the array's stream (an external stream),
    synchronized first when ``sync`` and ``config.CUDA_ARRAY_INTERFACE_SYNC``
    are true, as Numba does."""
    from kjit.cuda.interface import consumer_stream
    stream = consumer_stream(desc, sync, external_stream)
    if desc["data"][0] == 0 or 0 in tuple(desc["shape"]):
        return DeviceNDArray(np.empty(tuple(desc["shape"]), np.dtype(desc["typestr"])), stream)
    return DeviceNDArray(np.asarray(_InterfaceHolder(owner, desc)), stream)


def as_cuda_array(obj, sync=True):
    """``obj`` as a device array without a copy: this device's arrays, and
    objects with ``__cuda_array_interface__`` (as in Numba's simulator, the
    pointer must be one of this process's memory)."""
    if isinstance(obj, DeviceNDArray):
        return obj
    iface = getattr(obj, "__cuda_array_interface__", None)
    if iface is None:
        raise TypeError(f"as_cuda_array: {type(obj).__name__} is not an array of the {_device_name} "
                        "and has no __cuda_array_interface__ (use cuda.to_device for host arrays)")
    return from_cuda_array_interface(iface, owner=obj, sync=sync)


def from_dlpack(obj):
    """A device array viewing a DLPack tensor in host memory."""
    if isinstance(obj, DeviceNDArray):
        return obj
    return DeviceNDArray(np.from_dlpack(obj))


# ---- devices -------------------------------------------------------------------------
_MemoryInfo = namedtuple("_MemoryInfo", "free,total")


def _meminfo():
    free = total = None
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                key, _, rest = line.partition(":")
                if key == "MemTotal":
                    total = int(rest.split()[0]) * 1024
                elif key == "MemAvailable":
                    free = int(rest.split()[0]) * 1024
    except OSError:
        pass
    if total is None:
        try:
            total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
            free = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_AVPHYS_PAGES")
        except (ValueError, OSError, AttributeError):
            total = free = 0
    return _MemoryInfo(free if free is not None else total, total)


class Device:
    """The one device: this machine's processors and memory, with the
    attributes of a compute capability 9.0 GPU (its limits are the ones
    kernels are checked against)."""

    id = 0
    compute_capability = (9, 0)
    supports_float16 = True  # what a 9.0 GPU reports
    COMPUTE_CAPABILITY_MAJOR = 9
    COMPUTE_CAPABILITY_MINOR = 0
    MAX_THREADS_PER_BLOCK = 1024
    MAX_BLOCK_DIM_X = 1024
    MAX_BLOCK_DIM_Y = 1024
    MAX_BLOCK_DIM_Z = 64
    MAX_GRID_DIM_X = 2147483647
    MAX_GRID_DIM_Y = 65535
    MAX_GRID_DIM_Z = 65535
    WARP_SIZE = 32
    MAX_SHARED_MEMORY_PER_BLOCK = 49152
    MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 232448
    MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 233472
    MAX_REGISTERS_PER_BLOCK = 65536
    MAX_REGISTERS_PER_MULTIPROCESSOR = 65536
    MAX_THREADS_PER_MULTI_PROCESSOR = 2048
    TOTAL_CONSTANT_MEMORY = 65536
    MULTIPROCESSOR_COUNT = os.cpu_count() or 1
    ASYNC_ENGINE_COUNT = 0
    CAN_MAP_HOST_MEMORY = 1
    UNIFIED_ADDRESSING = 1
    MANAGED_MEMORY = 1
    CONCURRENT_KERNELS = 0
    CONCURRENT_MANAGED_ACCESS = 1
    COOPERATIVE_LAUNCH = 0
    INTEGRATED = 1
    ECC_ENABLED = 0
    KERNEL_EXEC_TIMEOUT = 0
    COMPUTE_MODE = 0
    PCI_BUS_ID = 0
    PCI_DEVICE_ID = 0
    PCI_DOMAIN_ID = 0
    L2_CACHE_SIZE = 0
    CLOCK_RATE = 0
    MEMORY_CLOCK_RATE = 0
    GLOBAL_MEMORY_BUS_WIDTH = 0
    uuid = "GPU-00000000-0000-0000-0000-000000000000"
    pci_bus_id = "0000:00:00.0"

    def __init__(self, name=None):
        self._name = name

    @property
    def name(self):
        return self._name or _device_name

    @property
    def TOTAL_MEMORY(self):
        return _meminfo().total

    def reset(self):
        close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __eq__(self, other):
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self):
        return hash(("kjit-host-device", self.id))

    def __repr__(self):
        return f"<CUDA device {self.id} '{self.name}'>"


_device = Device()


class _Gpus:
    """``cuda.gpus``: the one device, indexable and iterable; ``.current``."""

    def __len__(self):
        return 1

    def __getitem__(self, i):
        if i not in (0, -1):
            raise IndexError(f"there is no CUDA device {i} (1 found: {_device.name})")
        return _device

    def __iter__(self):
        return iter((_device,))

    @property
    def current(self):
        return _device

    @property
    def lst(self):
        """The devices, as a list (Numba's ``cuda.gpus.lst``)."""
        return [_device]

    def __repr__(self):
        return f"<1 CUDA device(s): '{_device.name}'>"


gpus = _Gpus()


def is_available():
    return True


def list_devices():
    return [_device]


def select_device(device_id):
    if int(device_id) != 0:
        raise ValueError(f"there is no CUDA device {device_id}: the {_device.name} is device 0, the only one")
    return _device


def get_current_device():
    return _device


class Context:
    """The device's context: ``get_memory_info()`` is the host's
    (available, total) memory in bytes."""

    def __init__(self, device):
        self.device = device

    @property
    def id(self):
        return self.device.id

    @property
    def compute_capability(self):
        return self.device.compute_capability

    def get_memory_info(self):
        return _meminfo()

    def synchronize(self):
        synchronize()

    def reset(self):
        close()

    def __repr__(self):
        return f"<CUDA context of device 0 '{self.device.name}'>"


def current_context(devnum=None):
    return Context(_device)


def synchronize():
    """Nothing to wait for: work is done when its call returns."""


def close():
    """Nothing to give back (device arrays stay valid: they are host memory)."""


def detect():
    """Prints the device (numba.cuda.detect) and returns True."""
    cc = _device.compute_capability
    print("Found 1 CUDA device")
    print(f"id 0    {_device.name:>20}    [SUPPORTED]")
    print(f"                      Compute Capability: {cc[0]}.{cc[1]} (pretended)")
    print(f"                       Processors (SMs): {_device.MULTIPROCESSOR_COUNT}")
    print("Summary:\n\t1/1 devices are supported")
    return True


# ---- streams and events ----------------------------------------------------------------
_stream_ids = itertools.count(0x1000)


class Stream:
    """A stream. Work is synchronous (done when its call returns), so a
    stream is always idle: ``synchronize()`` returns at once and
    ``query()`` is True."""

    def __init__(self, handle=None, external=False):
        self.handle = next(_stream_ids) if handle is None else int(handle)
        self.external = bool(external)  # made by external_stream (not owned by kjit)

    def synchronize(self):
        pass

    def query(self):
        return True

    @contextlib.contextmanager
    def auto_synchronize(self):
        """Synchronizes the stream when the block ends."""
        yield self
        self.synchronize()

    def add_callback(self, callback, arg=None):
        """Calls ``callback(stream, status, arg)`` (all earlier work is done)."""
        callback(self, None, arg)

    def async_done(self):
        import asyncio
        fut = asyncio.get_event_loop().create_future()
        fut.set_result((self, None))
        return fut

    def __int__(self):
        return self.handle

    def __index__(self):
        return self.handle

    def __bool__(self):
        return self.handle != 0

    def __eq__(self, other):
        return isinstance(other, Stream) and other.handle == self.handle

    def __hash__(self):
        return hash(self.handle)

    def __repr__(self):
        kind = {0: "default stream", 1: "legacy default stream", 2: "per-thread default stream"}.get(self.handle)
        return f"<kjit {kind or f'stream 0x{self.handle:x}'} on '{_device.name}'>"


def stream():
    return Stream()


def default_stream():
    return Stream(0)


def legacy_default_stream():
    return Stream(1)


def per_thread_default_stream():
    return Stream(2)


def external_stream(ptr):
    return Stream(int(ptr), external=True)


class Event:
    """An event: ``record(stream)`` notes the host time (the work before it
    is already done); ``elapsed_time(end)`` is in milliseconds."""

    def __init__(self, timing=True):
        self.timing = bool(timing)
        self._time = None

    def record(self, stream=0):
        self._time = time.perf_counter()

    def synchronize(self):
        pass

    def wait(self, stream=0):
        pass

    def query(self):
        return True

    def elapsed_time(self, evtend):
        return event_elapsed_time(self, evtend)

    def __repr__(self):
        state = "recorded" if self._time is not None else "not recorded"
        return f"<kjit event ({state}) on '{_device.name}'>"


def event(timing=True):
    return Event(timing)


def event_elapsed_time(evtstart, evtend):
    """Milliseconds between two recorded events (as CUDA: both must have been
    recorded, and made with timing=True)."""
    for what, e in (("start", evtstart), ("end", evtend)):
        if not isinstance(e, Event):
            raise TypeError(f"event_elapsed_time: the {what} event is a {type(e).__name__}, not an Event")
        if not e.timing:
            raise CudaAPIError(f"event_elapsed_time: the {what} event was made with timing=False",
                               "cuEventElapsedTime", 400, "CUDA_ERROR_INVALID_HANDLE")
        if e._time is None:
            raise CudaAPIError(f"event_elapsed_time: the {what} event has not been recorded (call .record())",
                               "cuEventElapsedTime", 400, "CUDA_ERROR_INVALID_HANDLE")
    return (evtend._time - evtstart._time) * 1000.0
