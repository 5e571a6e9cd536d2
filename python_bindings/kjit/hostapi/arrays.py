"""Device arrays (``cuda.to_device``, ``cuda.device_array`` ...) and host
arrays kernels can take (pinned, mapped, managed), written once over the
device layer: a CUDA GPU's memory, an AMD GPU's, or the CPU device's (host
memory, which kernels on the CPU device read in place).

``DeviceNDArray`` extends the C++ ``_kjit.DeviceArrayBase`` (address, shape,
strides, dtype), which the launch paths read without calling Python. Views
(slicing, ``reshape``, ``ravel``, ``T``) are computed by NumPy over a stand-in
array whose data pointer is the device address: NumPy computes the offsets
and never reads the memory (indices that would make it read, such as
integer arrays, are refused, on every device alike). Copies go through the
device layer (``to_device``/``to_host``/``on_device``); transfers are copies
on the CPU device too (``to_device`` never aliases the host array).
"""
import contextlib
import ctypes
import operator

import numpy as np

from kjit import _kjit
from kjit import bfloat16_host as _bf16
from kjit import types as _kt
from kjit.cuda import copy_rules
from kjit.cuda.copy_rules import c_strides as _c_strides, f_strides as _f_strides, shape_tuple as _shape_tuple
from kjit.hostapi import layer
from kjit.hostapi.streams import default_stream as _default_stream, event as _event, external_stream as _external_stream

_INDEX_TYPES = (slice, type(Ellipsis), type(None))
# DLPack's device types (dlpack.h): kjit's arrays export their device's.
_DLPACK = {"cuda": 2, "hip": 10, "cpu": 1}
_DLPACK_ACCEPTED = {"cuda": (2, 3, 13), "hip": (10, 11), "cpu": (1,)}


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
        if dtype.name == "bfloat16":
            return _bf16.dtype()
        if dtype.name in ("float8_e4m3fn", "float8_e5m2"):
            from kjit import float8_host
            return float8_host.dtype(dtype.name)
        return np.dtype(dtype.name)
    if type(dtype).__module__.startswith("numba"):
        return np.dtype(str(dtype))
    return np.dtype(dtype)


def _stream_given(stream):
    """Whether a stream argument names a stream (0 and None do not)."""
    return stream is not None and not (isinstance(stream, int) and not isinstance(stream, _kjit.Stream)
                                       and stream == 0)


def _span(shape, strides, itemsize):
    """(lowest byte offset, bytes spanned) of an array's elements."""
    if any(n == 0 for n in shape):
        return 0, 0
    lo = sum((n - 1) * s for n, s in zip(shape, strides) if s < 0)
    hi = sum((n - 1) * s for n, s in zip(shape, strides) if s > 0)
    return lo, hi - lo + itemsize


class _Interface:
    def __init__(self, ptr, shape, strides, dtype, owner=None, readonly=False):
        self.owner = owner
        self.__array_interface__ = {"shape": tuple(shape), "typestr": dtype.str, "descr": dtype.descr,
                                    "data": (ptr, readonly), "strides": tuple(strides), "version": 3}


def _stand_in(ptr, shape, strides, dtype):
    """A NumPy array at the device address, for computing views only."""
    return np.asarray(_Interface(ptr or 1 << 40, shape, strides, dtype))


class DeviceNDArray(_kjit.DeviceArrayBase):
    """An array in the device's memory (``cuda.to_device``, ``cuda.device_array``)."""

    __cuda_memory__ = True
    __cuda_ndarray__ = True

    def __init__(self, shape, strides=None, dtype=np.float64, stream=0, gpu_data=None, *, _ptr=None, _owner=None,
                 _readonly=False, order="C"):
        super().__init__()
        self._kind = layer.kind()
        fill = None
        if isinstance(shape, np.ndarray):
            # The simulator's DeviceNDArray(ary, stream): on the CPU device a
            # view of the array's memory, elsewhere a device copy.
            ary, stream = shape, (strides if strides is not None else stream)
            shape, strides, dtype = ary.shape, ary.strides, ary.dtype
            if self._kind == "cpu":
                _ptr, _owner, _readonly = ary.__array_interface__["data"][0], ary, not ary.flags.writeable
            else:
                strides, fill = None, ary
        dtype = as_dtype(dtype if dtype is not None else np.float64)
        shape = _shape_tuple(shape)
        if strides is None:
            strides = _f_strides(shape, dtype.itemsize) if order == "F" else _c_strides(shape, dtype.itemsize)
        strides = tuple(int(s) for s in strides)
        if len(strides) != len(shape):
            raise ValueError(f"strides {strides} do not match shape {shape}")
        if gpu_data is None and _ptr is None:
            lo, nbytes = _span(shape, strides, dtype.itemsize)
            gpu_data = self._dev().alloc(nbytes, "device")
            _ptr = gpu_data.device_pointer - lo
        elif _ptr is None:
            _ptr = gpu_data.device_pointer
        self._setup(gpu_data, _owner, _ptr, shape, strides, dtype, stream, _readonly)
        if fill is not None:
            self._write(fill, stream)

    @classmethod
    def _fresh(cls, shape, strides, dtype, nbytes):
        """A new array of a layout the caller has checked (shape and strides
        tuples of ints, a NumPy dtype, nbytes its span): the short way, for
        results made in a loop (@vectorize)."""
        self = cls.__new__(cls)
        _kjit.DeviceArrayBase.__init__(self)
        self._kind = layer.kind()
        mem = self._dev().alloc(nbytes, "device")
        self._setup(mem, None, mem.device_pointer, shape, strides, dtype, 0, False)
        return self

    def _dev(self):
        """The device layer of the device the array is on."""
        return _kjit.device(self._kind)

    # ---- what NumPy arrays have ------------------------------------------------
    @property
    def size(self):
        n = 1
        for s in self.shape:
            n *= s
        return n

    @property
    def itemsize(self):
        return self.dtype.itemsize

    @property
    def nbytes(self):
        return self.size * self.dtype.itemsize

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d device array")
        return self.shape[0]

    def _layout_standin(self):
        return copy_rules.layout_standin(self.shape, self.strides, self.dtype)

    # NumPy's rules (relaxed strides: an axis of length 1 has any stride), as Numba's.
    def is_c_contiguous(self):
        return self._layout == "C" or self._layout_standin().flags.c_contiguous

    def is_f_contiguous(self):
        return self._layout == "F" or self._layout_standin().flags.f_contiguous

    @property
    def flags(self):
        return {"C_CONTIGUOUS": self.is_c_contiguous(), "F_CONTIGUOUS": self.is_f_contiguous(),
                "WRITEABLE": not self._readonly}

    @property
    def gpu_data(self):
        return self._memory

    @property
    def device_ctypes_pointer(self):
        return ctypes.c_void_p(self._ptr)

    @property
    def _ary(self):
        """On the CPU device: the NumPy array viewing this memory (what its
        kernels and the simulator read and write in place)."""
        if self._kind != "cpu":
            raise TypeError("a GPU's device array has no host view: copy_to_host() copies it")
        return self._host_view()

    @property
    def __array_interface__(self):
        if self._kind != "cpu":
            raise AttributeError("__array_interface__")
        return self._host_view().__array_interface__

    def __repr__(self):
        return f"<kjit DeviceNDArray shape={self.shape} dtype={self.dtype} at 0x{self._ptr:x}>"

    # ---- views -------------------------------------------------------------------
    def _view(self, ptr, shape, strides, dtype=None, stream=None):
        with layer.on(self._kind):
            return DeviceNDArray(shape, strides, dtype if dtype is not None else self.dtype,
                                 self.stream if stream is None else stream, self._memory, _ptr=ptr,
                                 _owner=self._owner, _readonly=self._readonly)

    def _stand_in(self):
        return _stand_in(self._ptr, self.shape, self.strides, self.dtype)

    @staticmethod
    def _from_stand_in(a):
        return a.__array_interface__["data"][0], a.shape, a.strides

    def _index(self, idx):
        """(pointer, shape, strides) of self[idx]."""
        items = idx if isinstance(idx, tuple) else (idx,)
        clean = []
        for it in items:
            if isinstance(it, _INDEX_TYPES):
                clean.append(it)
                continue
            try:
                clean.append(operator.index(it))
            except TypeError:
                raise TypeError("device arrays are indexed by ints, slices, None and Ellipsis (not "
                                f"{type(it).__name__}): copy to the host for fancy indexing") from None
        # A trailing new axis keeps NumPy from reading an element.
        if not any(it is Ellipsis for it in clean):
            clean.append(Ellipsis)
        v = self._stand_in()[tuple(clean) + (None,)]
        ptr, shape, strides = self._from_stand_in(v)
        return ptr, shape[:-1], strides[:-1]

    def __getitem__(self, idx):
        ptr, shape, strides = self._index(idx)
        if not shape:  # one element: to the host, as Numba does
            out = np.empty(1, self.dtype)
            self._dev().to_host(out, ptr, self.dtype.itemsize, self.stream)
            return out[0]
        return self._view(ptr, shape, strides)

    def getitem(self, item, stream=0):
        return self[item]

    def __setitem__(self, idx, value):
        self.setitem(idx, value)

    def setitem(self, key, value, stream=0):
        """``self[key] = value`` queued on ``stream`` (else the array's own);
        with neither, on the default stream, synchronized after (Numba's
        rule)."""
        s = stream if _stream_given(stream) else self.stream
        synchronous = not _stream_given(s)
        if synchronous:
            s = _default_stream()
        self._assign(key, value, s)
        if synchronous:
            s.synchronize()

    def _assign(self, idx, value, stream):
        ptr, shape, strides = self._index(idx)
        view = self._view(ptr, shape, strides) if shape else None
        if isinstance(value, DeviceNDArray):
            if view is None or value.shape != view.shape or not (view.is_c_contiguous() and value.is_c_contiguous()):
                value = value.copy_to_host()
            else:
                self._dev().on_device(ptr, value._ptr, view.nbytes, stream)
                return
        if view is None:
            host = np.asarray(value, dtype=self.dtype).reshape(())
            self._dev().to_device(ptr, np.ascontiguousarray(host), self.dtype.itemsize, stream)
            return
        host = np.empty(shape, self.dtype)
        host[...] = value  # NumPy's broadcasting, and its message when it cannot
        view._write(host, stream)

    def _write(self, host, stream=None):
        """Copies a host array of this shape into this (possibly strided) view."""
        stream = self.stream if stream is None else stream
        d = self._dev()
        if self.is_c_contiguous():
            d.to_device(self._ptr, np.ascontiguousarray(host), self.nbytes, stream)
        elif self.is_f_contiguous():
            d.to_device(self._ptr, np.asfortranarray(host), self.nbytes, stream)
        else:  # strided: through the host, over the bytes it spans
            lo, nbytes = _span(self.shape, self.strides, self.itemsize)
            buf = np.empty(nbytes, np.uint8)
            d.to_host(buf, self._ptr + lo, nbytes, stream)
            np.ndarray(self.shape, self.dtype, buffer=buf, offset=-lo, strides=self.strides)[...] = host
            d.to_device(self._ptr + lo, buf, nbytes, stream)

    def reshape(self, *newshape, order="C"):
        if len(newshape) == 1 and not isinstance(newshape[0], (int, np.integer)):
            newshape = tuple(newshape[0])
        if order not in ("C", "F"):
            raise ValueError("order is 'C' or 'F'")
        a = self._stand_in()
        try:  # NumPy >= 2.1: refuses (ValueError) where a copy would be needed
            v = a.reshape(newshape, order=order, copy=False)
        except TypeError:  # older NumPy: the shape setter never copies
            try:
                if order == "C":
                    v = a.view()
                    v.shape = newshape
                else:
                    v = a.T.view()
                    v.shape = tuple(reversed(_shape_tuple(newshape)))
                    v = v.T
            except AttributeError:
                raise NotImplementedError("this reshape would need a copy of a non-contiguous device array") from None
        except ValueError as e:
            if "copy" in str(e):
                raise NotImplementedError("this reshape would need a copy of a non-contiguous device array") from None
            raise
        return self._view(*self._from_stand_in(v))

    def ravel(self, order="C", stream=0):
        """Numba's rule: 'C' of a C-contiguous array, 'F' of an F-contiguous
        one, 'A' and 'K' of either; others raise NotImplementedError."""
        if order not in ("C", "F", "A", "K"):
            raise ValueError("order not C|F|A")
        fl = self._stand_in().flags
        if order in "CAK" and fl.c_contiguous:
            v = self.reshape(-1, order="C")
        elif order in "FAK" and fl.f_contiguous:
            v = self.reshape(-1, order="F")
        else:
            raise NotImplementedError("ravel on non-contiguous array")
        return v.bind(stream) if _stream_given(stream) else v

    def squeeze(self, axis=None, stream=0):
        v = self._view(*self._from_stand_in(self._stand_in().squeeze(axis)))
        return v.bind(stream) if _stream_given(stream) else v

    def bind(self, stream=0):
        """The same array with ``stream`` as its stream."""
        return self._view(self._ptr, self.shape, self.strides, stream=stream)

    def split(self, section, stream=0):
        """1-d arrays of unit stride: views of ``section`` elements each."""
        if self.ndim != 1:
            raise ValueError("only support 1d array")
        if self.strides[0] != self.itemsize:
            raise ValueError("only support unit stride")
        return [self[i:i + section].bind(stream or self.stream) for i in range(0, self.size, section)]

    @property
    def alloc_size(self):
        """The bytes the array spans (Numba's ``alloc_size``)."""
        return _span(self.shape, self.strides, self.itemsize)[1]

    @property
    def T(self):
        return self.transpose()

    def transpose(self, axes=None):
        """Numba's rule: the identity permutation, or 2-d arrays only."""
        if axes and tuple(axes) == tuple(range(self.ndim)):
            return self
        if self.ndim != 2:
            raise NotImplementedError("transposing a non-2D DeviceNDArray isn't supported")
        if axes is not None and set(axes) != set(range(self.ndim)):
            raise ValueError(f"invalid axes list {axes!r}")
        return self._view(*self._from_stand_in(self._stand_in().transpose(axes)))

    def view(self, dtype):
        dtype = as_dtype(dtype)
        return self._view(*self._from_stand_in(self._stand_in().view(dtype)), dtype=dtype)

    # ---- copies ------------------------------------------------------------------
    def copy_to_host(self, ary=None, stream=0):
        """To a NumPy array (``ary``, or a new one); waits for the copy."""
        stream = stream or self.stream
        if isinstance(ary, DeviceNDArray):
            raise TypeError("copy_to_host takes a host array; use copy_to_device between device arrays")
        d = self._dev()
        if ary is not None:
            if ary.dtype != self.dtype:
                raise copy_rules._IncompatibleArrays(f"incompatible dtype: {ary.dtype} vs. {self.dtype}")
            if ary.shape != self.shape and ary.size != self.size:
                raise copy_rules._IncompatibleArrays(f"incompatible shape: {ary.shape} vs. {self.shape}")
        if self.is_c_contiguous() or self.is_f_contiguous():
            order = "C" if self.is_c_contiguous() else "F"
            out = ary if ary is not None else np.empty(self.shape, self.dtype, order=order)
            target = out if (out.flags.c_contiguous if order == "C" else out.flags.f_contiguous) else \
                np.empty(self.shape, self.dtype, order=order)
            d.to_host(target, self._ptr, self.nbytes, stream)
            if target is not out:
                out[...] = target.reshape(out.shape)
            return out
        lo, nbytes = _span(self.shape, self.strides, self.itemsize)
        buf = np.empty(nbytes, np.uint8)
        d.to_host(buf, self._ptr + lo, nbytes, stream)
        src = np.ndarray(self.shape, self.dtype, buffer=buf, offset=-lo, strides=self.strides)
        if ary is None:
            return src.copy()
        ary[...] = src.reshape(ary.shape)
        return ary

    def copy_to_host_like(self):
        return self.copy_to_host()

    def copy_to_device(self, ary, stream=0):
        """From a host array (or another device array) of the same shape.
        Numba's rules: both must be one block of memory (broadcast axes
        aside); a device array must also have the same strides."""
        stream = stream or self.stream
        if self.size == 0:
            return
        copy_rules._sentry_contiguous(self._layout_standin())
        if isinstance(ary, DeviceNDArray) or (not isinstance(ary, np.ndarray)
                                              and hasattr(ary, "__cuda_array_interface__")):
            src = as_cuda_array(ary)
            copy_rules._sentry_contiguous(src._layout_standin())
            copy_rules._check_compatible(copy_rules._array_core(self._layout_standin()),
                                         copy_rules._array_core(src._layout_standin()))
            if src.nbytes != self.nbytes or not (src.is_c_contiguous() or src.is_f_contiguous()):
                raise NotImplementedError("device-to-device copies of broadcast arrays")
            self._dev().on_device(self._ptr, src._ptr, self.nbytes, stream)
            return
        host = np.asarray(ary)
        dst = copy_rules._array_core(self._layout_standin())
        # The host array's core, in this array's order (a copy where needed).
        src = np.asarray(copy_rules._array_core(host), order="C" if dst.flags.c_contiguous else "F")
        copy_rules._check_compatible(dst, src)
        if host.dtype != self.dtype:
            host = host.astype(self.dtype)
        self._write(host.reshape(self.shape) if host.shape != self.shape else host, stream)

    def copy_to_host_async(self, stream=0):
        return self.copy_to_host(stream=stream)

    # ---- interop -----------------------------------------------------------------
    @property
    def _numba_type_(self):
        """The array's kjit type (``array(float32, 1d, C)``), as ``typeof``."""
        from kjit.np.numpy_support import from_dtype
        layout = "C" if self.is_c_contiguous() else "F" if self.is_f_contiguous() else "A"
        return _kt.Array(from_dtype(self.dtype), len(self.shape), layout, readonly=bool(self._readonly))

    @property
    def __cuda_array_interface__(self):
        c = self.is_c_contiguous()
        s = self.stream
        handle = getattr(s, "handle", s) if s else None
        return {"shape": self.shape, "strides": None if c else self.strides, "typestr": _typestr(self.dtype),
                "data": (self._ptr if self.size else 0, self._readonly), "version": 3,
                "stream": handle if handle not in (0, None) else None}

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        k = self._kind
        if k == "cuda" and stream not in (None, -1) and self.stream:
            # The consumer's stream waits for this array's work.
            ev = _event(timing=False)
            ev.record(self.stream)
            ev.wait(stream if stream not in (1, 2) else 0)
        elif k == "hip" and self.stream:
            self.stream.synchronize()
        return self._dlpack(_DLPACK[k], self._dev().current())

    def __dlpack_device__(self):
        k = self._kind
        return (_DLPACK[k], self._dev().current())


def _typestr(dtype):
    # bfloat16 and the 8-bit floats as ml_dtypes spells them ("<V2", "|V1"):
    # a tagged uint16/uint8 array is not integers to a consumer
    from kjit import float8_host
    if _bf16.is_bfloat16(dtype):
        return "<V2"
    return "|V1" if float8_host.kind_of(dtype) else dtype.str


def from_cuda_array_interface(desc, owner=None, sync=True):
    """A DeviceNDArray viewing the memory a ``__cuda_array_interface__``
    dictionary describes, kept alive by ``owner``. A stream in ``desc``
    becomes the array's stream (an external stream), synchronized first when
    ``sync`` and ``config.CUDA_ARRAY_INTERFACE_SYNC`` are true (Numba's rule)."""
    from kjit.cuda.interface import consumer_stream
    if layer.kind() == "hip":
        stream = 0
        if sync and desc.get("stream") not in (None, 0):
            layer.dev().synchronize()
    else:
        stream = consumer_stream(desc, sync, _external_stream)
    dtype = _bf16.dtype_of_typestr(desc["typestr"], owner)
    shape = tuple(desc["shape"])
    strides = desc.get("strides") or _c_strides(shape, dtype.itemsize)
    ptr, readonly = desc["data"]
    return DeviceNDArray(shape, strides, dtype, stream, _ptr=ptr or 0, _owner=owner, _readonly=bool(readonly))


def as_cuda_array(obj, sync=True):
    """A DeviceNDArray viewing the memory of an object with
    ``__cuda_array_interface__`` (CuPy, PyTorch, Numba), without a copy."""
    if isinstance(obj, DeviceNDArray):
        return obj
    iface = getattr(obj, "__cuda_array_interface__", None)
    if iface is None:
        raise TypeError(f"as_cuda_array: {type(obj).__name__} is not a device array and has no "
                        "__cuda_array_interface__ (use cuda.to_device for host arrays)")
    return from_cuda_array_interface(iface, owner=obj, sync=sync)


def is_cuda_array(obj):
    return isinstance(obj, DeviceNDArray) or hasattr(obj, "__cuda_array_interface__")


def from_dlpack(obj):
    """A DeviceNDArray viewing a DLPack tensor on this device (``__dlpack__``)."""
    if isinstance(obj, DeviceNDArray):
        return obj
    k = layer.kind()
    ptr, shape, strides, dtype, (dev_type, _dev_id), owner = _kjit.dlpack_import(obj, 1 if k != "cpu" else None)
    if dev_type not in _DLPACK_ACCEPTED[k]:
        where = {"cuda": "a CUDA device", "hip": "an AMD GPU (type 10)", "cpu": "the host"}[k]
        raise TypeError(f"from_dlpack: the tensor is on a device of DLPack type {dev_type}, not {where}")
    return DeviceNDArray(shape, strides, dtype, _ptr=ptr, _owner=owner)


# ---- device and host memory ----------------------------------------------------------
def _device_copy_layout(a):
    """(shape, strides, the host array to copy) of the device copy of host
    array ``a``: as Numba, broadcast (zero-stride) axes stay broadcast and
    only the distinct elements are copied; other arrays keep their order."""
    if a.size and any(s == 0 and n > 1 for n, s in zip(a.shape, a.strides)):
        keep = tuple(0 if (s == 0 and n > 1) else slice(None) for n, s in zip(a.shape, a.strides))
        core = np.ascontiguousarray(a[keep])
        it = iter(core.strides)
        strides = tuple(0 if k == 0 else next(it) for k in keep)
        return a.shape, strides, core
    if not (a.flags.c_contiguous or a.flags.f_contiguous):
        a = np.ascontiguousarray(a)
    return a.shape, a.strides, a


def to_device(obj, stream=0, copy=True, to=None):
    """A device array holding a copy of ``obj`` (``copy=False``: the
    allocation only); with ``to=``, copies into that device array and
    returns it."""
    if to is not None:
        to.copy_to_device(obj, stream=stream)
        return to
    if isinstance(obj, DeviceNDArray):
        return obj
    a = np.asarray(obj)
    shape, strides, src = _device_copy_layout(a)
    d = DeviceNDArray(shape, strides, a.dtype, stream)
    if copy and a.size:
        layer.dev().to_device(d._ptr + _span(shape, strides, a.itemsize)[0],
                              src if src.flags.c_contiguous or src.flags.f_contiguous else
                              np.ascontiguousarray(src), src.nbytes, stream)
    elif not copy and layer.kind() == "cpu":
        layer.dev().fill(d._ptr, 0, d.alloc_size, stream)
    return d


def device_array(shape, dtype=np.float64, strides=None, order="C", stream=0):
    """A new device array (uninitialised on a GPU; zeroed on the CPU device)."""
    dtype = as_dtype(dtype)
    if order not in ("C", "F"):
        raise ValueError("order must be 'C' or 'F'")
    d = DeviceNDArray(_shape_tuple(shape), strides, dtype, stream, order=order)
    if layer.kind() == "cpu":
        layer.dev().fill(d._ptr + _span(d.shape, d.strides, d.itemsize)[0], 0, d.alloc_size, stream)
    return d


def _like(ary):
    a = ary if isinstance(ary, DeviceNDArray) else np.asarray(ary)
    strides, order = copy_rules.layout_like(a.shape, a.strides, a.dtype)
    return a, strides, order


def device_array_like(ary, stream=0):
    a, strides, order = _like(ary)
    return device_array(a.shape, a.dtype, strides, order, stream)


class _HostMemoryArray(np.ndarray):
    """A NumPy array in memory that kernels can also take directly
    (``mapped_array``, ``managed_array``)."""

    def __array_finalize__(self, obj):
        self._kjit_memory = getattr(obj, "_kjit_memory", None)
        self._kjit_stream = getattr(obj, "_kjit_stream", 0)

    @property
    def __cuda_array_interface__(self):
        mem = self._kjit_memory
        offset = self.__array_interface__["data"][0] - mem.host_pointer
        s = self._kjit_stream  # the stream it was made on, as Numba exports it
        handle = getattr(s, "handle", s) if s else None
        return {"shape": self.shape, "strides": None if self.flags.c_contiguous else self.strides,
                "typestr": _typestr(self.dtype), "data": (mem.device_pointer + offset if self.size else 0,
                                                    not self.flags.writeable), "version": 3,
                "stream": handle if handle not in (0, None) else None}


class MappedNDArray(_HostMemoryArray):
    pass


class ManagedNDArray(_HostMemoryArray):
    pass


def host_array(kind, shape, dtype, strides, order, cls=None, stream=0):
    """A NumPy array in the device's host memory of `kind` (pinned, mapped,
    managed); zeroed."""
    dtype = as_dtype(dtype)
    shape = _shape_tuple(shape)
    if order not in ("C", "F"):
        raise ValueError("order must be 'C' or 'F'")
    if strides is None:
        strides = _f_strides(shape, dtype.itemsize) if order == "F" else _c_strides(shape, dtype.itemsize)
    strides = tuple(int(s) for s in strides)
    if len(strides) != len(shape):
        raise ValueError(f"strides {strides} do not match shape {shape}")
    lo, nbytes = _span(shape, strides, dtype.itemsize)
    mem = layer.dev().alloc(nbytes, kind)
    buf = np.frombuffer(mem, np.uint8)
    buf[:] = 0
    a = np.ndarray(shape, dtype, buffer=buf, offset=-lo, strides=strides)
    if cls is not None:
        a = a.view(cls)
        a._kjit_memory = mem
        a._kjit_stream = stream
    return a


def pinned_array(shape, dtype=np.float64, strides=None, order="C"):
    """A host array in page-locked memory (faster copies to and from a GPU)."""
    layer.require()
    return host_array("pinned", shape, dtype, strides, order)


def pinned_array_like(ary):
    a, strides, order = _like(ary)
    return pinned_array(a.shape, a.dtype, strides, order)


def mapped_array(shape, dtype=np.float64, strides=None, order="C", stream=0, portable=False, wc=False):
    """A host array the device maps: kernels take it directly."""
    layer.require()
    if layer.kind() == "hip":
        raise layer.unsupported("cuda.mapped_array")
    return host_array("mapped", shape, dtype, strides, order, MappedNDArray, stream)


def mapped_array_like(ary, stream=0, portable=False, wc=False):
    a, strides, order = _like(ary)
    return mapped_array(a.shape, a.dtype, strides, order, stream=stream, portable=portable, wc=wc)


def managed_array(shape, dtype=np.float64, strides=None, order="C", stream=0, attach_global=True):
    """An array in managed memory, usable by host and kernels."""
    layer.require()
    return host_array("managed", shape, dtype, strides, order, ManagedNDArray, stream)


@contextlib.contextmanager
def pinned(*arylist):
    """Page-locks host arrays for the block (CUDA; nothing to do elsewhere)."""
    if layer.kind() != "cuda":
        yield
        return
    regs = [_kjit.CudaHostRegistration(np.asarray(a)) for a in arylist]
    try:
        yield
    finally:
        for r in regs:
            r.release()


@contextlib.contextmanager
def mapped(*arylist, stream=0):
    """Maps host arrays for the block: yields device arrays for them (one, or
    a list). On a CUDA GPU they are device copies, copied back when the block
    ends; on the CPU device, views of the arrays' own memory."""
    k = layer.kind()
    if k == "hip":
        raise layer.unsupported("cuda.mapped")
    layer.require()
    if k == "cpu":
        views = [_wrap_host(np.asarray(a), stream) for a in arylist]
        yield views[0] if len(views) == 1 else views
        return
    views = [to_device(a, stream=stream) for a in arylist]
    try:
        yield views[0] if len(views) == 1 else views
    finally:
        for a, v in zip(arylist, views):
            v.copy_to_host(np.asarray(a), stream=stream)


def _wrap_host(a, stream):
    """A CPU device array viewing host array ``a``'s own memory."""
    return DeviceNDArray(a.shape, a.strides, a.dtype, stream, _ptr=a.__array_interface__["data"][0] if a.size else 0,
                         _owner=a, _readonly=not a.flags.writeable)


def auto_device(obj, stream=0, copy=True, user_explicit=False):
    """Numba's ``cuda.devicearray.auto_device`` (kjit.cuda.cudadrv.devicearray)."""
    from kjit.cuda.cudadrv.devicearray import auto_device as auto
    return auto(obj, stream=stream, copy=copy, user_explicit=user_explicit)
