"""The host API of kjit.cuda (Numba's): devices, memory, streams, events."""
import contextlib

import numpy as np

from kjit import _kjit
from kjit.cuda.devicearray import (DeviceNDArray, ManagedNDArray, MappedNDArray, as_cuda_array,
                                   from_cuda_array_interface, from_dlpack,
                                   host_array, is_cuda_array)
from kjit.cuda.streams import (Event, Stream, _require, default_stream, event, event_elapsed_time,  # noqa: F401
                               external_stream, is_available, legacy_default_stream, per_thread_default_stream, stream)


# ---- devices -----------------------------------------------------------------------
class Device:
    """A GPU: ``id``, ``name``, ``compute_capability`` and the driver's
    attributes by name (``MAX_THREADS_PER_BLOCK``, ``MULTIPROCESSOR_COUNT`` ...)."""

    def __init__(self, ordinal):
        self._info = _kjit.cuda_device_info(ordinal)
        self.id = ordinal

    @property
    def name(self):
        return self._info["name"]

    @property
    def compute_capability(self):
        return self._info["compute_capability"]

    @property
    def pci_bus_id(self):
        return self._info["pci_bus_id"]

    @property
    def supports_float16(self):
        """Whether the device has float16 arithmetic (compute capability 5.3 and later)."""
        return tuple(self.compute_capability) >= (5, 3)

    def __getattr__(self, attr):
        info = self.__dict__.get("_info", {})
        if attr in info:
            return info[attr]
        raise AttributeError(attr)

    def __enter__(self):
        self._previous = _kjit.cuda_current()
        select_device(self.id)
        return self

    def __exit__(self, *exc):
        select_device(self._previous)

    def reset(self):
        close()

    def __repr__(self):
        return f"<CUDA device {self.id} '{self.name}'>"


class _Gpus:
    """``cuda.gpus``: the GPUs, indexable; ``cuda.gpus.current``."""

    def __len__(self):
        return _kjit.cuda_device_count()

    def __getitem__(self, i):
        if not 0 <= i < len(self):
            raise IndexError(f"there is no CUDA device {i} ({len(self)} found)")
        return Device(i)

    def __iter__(self):
        return (Device(i) for i in range(len(self)))

    @property
    def current(self):
        return get_current_device()

    @property
    def lst(self):
        """The devices, as a list (Numba's ``cuda.gpus.lst``)."""
        return list(self)

    def __repr__(self):
        return f"<{len(self)} CUDA device(s)>"


gpus = _Gpus()


def list_devices():
    return list(gpus)


def select_device(device_id):
    """Makes GPU ``device_id`` current (its primary context); returns it."""
    _require()
    _kjit.cuda_select(int(device_id))
    return Device(int(device_id))


def get_current_device():
    _require()
    _kjit.cuda_activate()
    return Device(_kjit.cuda_current())


class Context:
    def __init__(self, device):
        self.device = device

    def get_memory_info(self):
        free, total = _kjit.cuda_mem_info()
        return free, total

    def synchronize(self):
        synchronize()

    def reset(self):
        close()


def current_context():
    return Context(get_current_device())


def synchronize():
    """Waits for every kernel and copy on the current GPU; a kernel's fault
    surfaces here as an exception."""
    _require()
    _kjit.cuda_synchronize()


def close():
    """Gives back the primary contexts; device arrays made before are gone."""
    _kjit.cuda_close()


def detect():
    """Prints the GPUs found and whether kjit can use them (numba.cuda.detect)."""
    if not _kjit.cuda_available():
        print(f"kjit: no CUDA GPU: {_kjit.cuda_why()}")
        return False
    v = _kjit.cuda_driver_version()
    print(f"Found {len(gpus)} CUDA device(s) (driver API {v // 1000}.{v % 1000 // 10})")
    for d in gpus:
        cc = d.compute_capability
        print(f"id {d.id}    {d.name}    [SUPPORTED]")
        print(f"                      Compute Capability: {cc[0]}.{cc[1]}")
        print(f"                           PCI Bus ID: {d.pci_bus_id}")
    print(f"Summary:\n\t{len(gpus)}/{len(gpus)} devices are supported")
    return True


# ---- memory ------------------------------------------------------------------------
def _host(ary):
    a = np.asarray(ary)
    if not (a.flags.c_contiguous or a.flags.f_contiguous):
        a = np.ascontiguousarray(a)
    return a


def to_device(obj, stream=0, copy=True, to=None):
    """A device copy of a host array (``copy=False``: the allocation only);
    with ``to=``, copies into that device array."""
    _require()
    if to is not None:
        to.copy_to_device(obj, stream=stream)
        return to
    a = np.asarray(obj)
    if a.size and any(st == 0 and n > 1 for n, st in zip(a.shape, a.strides)):
        # As Numba: broadcast (zero-stride) axes stay broadcast on the
        # device; only the distinct elements are copied.
        keep = tuple(0 if (st == 0 and n > 1) else slice(None) for n, st in zip(a.shape, a.strides))
        core = np.ascontiguousarray(a[keep])
        strides, k = [], 0
        for n, st in zip(a.shape, a.strides):
            if st == 0 and n > 1:
                strides.append(0)
            else:
                strides.append(core.strides[k])
                k += 1
        d = DeviceNDArray(a.shape, tuple(strides), a.dtype, stream=stream)
        if copy:
            _kjit.cuda_memcpy_htod(d._ptr, core, core.nbytes, stream)
        return d
    a = _host(a)
    d = DeviceNDArray(a.shape, a.strides, a.dtype, stream=stream)
    if copy and a.nbytes:
        _kjit.cuda_memcpy_htod(d._ptr, a, a.nbytes, stream)
    return d


def device_array(shape, dtype=np.float64, strides=None, order="C", stream=0):
    """An uninitialised device array."""
    _require()
    return DeviceNDArray(shape, strides, dtype, stream=stream, order=order)


def _like(ary):
    """(shape, dtype, strides, order) of a new array like ``ary`` (NumPy's
    empty_like, as Numba's ``*_array_like``)."""
    from kjit.cuda.copy_rules import layout_like
    a = ary if isinstance(ary, DeviceNDArray) else np.asarray(ary)
    strides, order = layout_like(a.shape, a.strides, a.dtype)
    return a.shape, a.dtype, strides, order


def device_array_like(ary, stream=0):
    shape, dtype, strides, order = _like(ary)
    return device_array(shape, dtype, strides=strides, order=order, stream=stream)


def pinned_array(shape, dtype=np.float64, strides=None, order="C"):
    """A NumPy array in page-locked host memory (faster copies)."""
    _require()
    return host_array("pinned", shape, dtype, strides, order)


def pinned_array_like(ary):
    shape, dtype, strides, order = _like(ary)
    return pinned_array(shape, dtype, strides, order)


def mapped_array(shape, dtype=np.float64, strides=None, order="C", stream=0, portable=False, wc=False):
    """A NumPy array in page-locked host memory mapped into the GPU's
    address space: kernels read and write it directly."""
    _require()
    return host_array("mapped", shape, dtype, strides, order, MappedNDArray, stream)


def mapped_array_like(ary, stream=0, portable=False, wc=False):
    """A mapped array (``mapped_array``) of the shape, dtype and order of ``ary``."""
    shape, dtype, strides, order = _like(ary)
    return mapped_array(shape, dtype, strides, order, stream=stream, portable=portable, wc=wc)


def managed_array(shape, dtype=np.float64, strides=None, order="C", stream=0, attach_global=True):
    """A NumPy array in managed (unified) memory, usable by host and kernels."""
    _require()
    return host_array("managed", shape, dtype, strides, order, ManagedNDArray, stream)


@contextlib.contextmanager
def pinned(*arylist):
    """Page-locks the memory of existing host arrays for the block."""
    _require()
    regs = [_kjit.CudaHostRegistration(np.asarray(a)) for a in arylist]
    try:
        yield
    finally:
        for r in regs:
            r.release()


@contextlib.contextmanager
def mapped(*arylist, stream=0):
    """Maps existing host arrays for the block: yields device views of them
    (page-locked and mapped memory)."""
    _require()
    views = [to_device(a, stream=stream) for a in arylist]
    try:
        yield views[0] if len(views) == 1 else views
    finally:
        for a, v in zip(arylist, views):
            v.copy_to_host(np.asarray(a), stream=stream)


__all__ = ["is_available", "gpus", "list_devices", "select_device", "get_current_device", "current_context",
           "synchronize", "close", "detect", "to_device", "device_array", "device_array_like", "pinned_array",
           "pinned_array_like", "mapped_array", "mapped_array_like", "managed_array", "pinned", "mapped", "stream", "default_stream",
           "legacy_default_stream", "per_thread_default_stream", "external_stream", "event", "event_elapsed_time",
           "as_cuda_array", "is_cuda_array", "from_dlpack", "DeviceNDArray", "Stream", "Event", "Device"]
