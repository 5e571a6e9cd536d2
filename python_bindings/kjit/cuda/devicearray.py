"""Device arrays: GPU memory with NumPy's shape, dtype and strides.

``DeviceNDArray`` extends the C++ ``_kjit.DeviceArrayBase`` (pointer, shape,
strides, dtype), which the launch path reads without calling Python. Views
(slicing, ``reshape``, ``ravel``, ``T``) are computed by NumPy over a stand-in
array whose data pointer is the device pointer: NumPy computes the offsets
and never reads the memory (indices that would make it read, such as
integer arrays, are refused).
"""
import operator

import numpy as np

from kjit import _kjit
from kjit.cuda import copy_rules
from kjit.cuda.copy_rules import c_strides as _c_strides, f_strides as _f_strides, shape_tuple as _shape_tuple
from kjit.cuda.streams import default_stream as _default_stream, event as _event, external_stream as _external_stream

_INDEX_TYPES = (slice, type(Ellipsis), type(None))


def _stream_given(stream):
    """Whether a stream argument names a stream (0 and None do not)."""
    return stream is not None and not (isinstance(stream, int) and stream == 0)


def _span(shape, strides, itemsize):
    """(lowest byte offset, bytes spanned) of an array's elements."""
    if any(n == 0 for n in shape):
        return 0, 0
    lo = sum((n - 1) * s for n, s in zip(shape, strides) if s < 0)
    hi = sum((n - 1) * s for n, s in zip(shape, strides) if s > 0)
    return lo, hi - lo + itemsize


class _Interface:
    def __init__(self, ptr, shape, strides, dtype):
        self.__array_interface__ = {"shape": tuple(shape), "typestr": dtype.str, "data": (ptr, False),
                                    "strides": tuple(strides), "version": 3}


def _stand_in(ptr, shape, strides, dtype):
    """A NumPy array at the device address, for computing views only."""
    return np.asarray(_Interface(ptr or 1 << 40, shape, strides, dtype))


class DeviceNDArray(_kjit.DeviceArrayBase):
    """An array in GPU memory (``cuda.to_device``, ``cuda.device_array``)."""

    __cuda_memory__ = True

    def __init__(self, shape, strides=None, dtype=np.float64, stream=0, gpu_data=None, *, _ptr=None, _owner=None,
                 _readonly=False, order="C"):
        super().__init__()
        dtype = np.dtype(dtype)
        shape = _shape_tuple(shape)
        if strides is None:
            strides = _f_strides(shape, dtype.itemsize) if order == "F" else _c_strides(shape, dtype.itemsize)
        strides = tuple(int(s) for s in strides)
        if gpu_data is None and _ptr is None:
            lo, nbytes = _span(shape, strides, dtype.itemsize)
            gpu_data = _kjit.cuda_alloc(nbytes, "device")
            _ptr = gpu_data.device_pointer - lo
        elif _ptr is None:
            _ptr = gpu_data.device_pointer
        self._setup(gpu_data, _owner, _ptr, shape, strides, dtype, stream, _readonly)

    @classmethod
    def _fresh(cls, shape, strides, dtype, nbytes):
        """A new array of a layout the caller has checked (shape and strides
        tuples of ints, a NumPy dtype, nbytes its span): the short way, for
        results made in a loop (@vectorize)."""
        self = cls.__new__(cls)
        _kjit.DeviceArrayBase.__init__(self)
        mem = _kjit.cuda_alloc(nbytes, "device")
        self._setup(mem, None, mem.device_pointer, shape, strides, dtype, 0, False)
        return self

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
        import ctypes
        return ctypes.c_void_p(self._ptr)

    def __repr__(self):
        return f"<kjit DeviceNDArray shape={self.shape} dtype={self.dtype} at 0x{self._ptr:x}>"

    # ---- views -------------------------------------------------------------------
    def _view(self, ptr, shape, strides, dtype=None):
        return DeviceNDArray(shape, strides, dtype if dtype is not None else self.dtype, self.stream,
                             self._memory, _ptr=ptr, _owner=self._owner, _readonly=self._readonly)

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
            _kjit.cuda_memcpy_dtoh(out, ptr, self.dtype.itemsize, self.stream)
            return out[0]
        return self._view(ptr, shape, strides)

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
                _kjit.cuda_memcpy_dtod(ptr, value._ptr, view.nbytes, stream)
                return
        if view is None:
            host = np.asarray(value, dtype=self.dtype).reshape(())
            _kjit.cuda_memcpy_htod(ptr, np.ascontiguousarray(host), self.dtype.itemsize, stream)
            return
        view._write(np.broadcast_to(np.asarray(value, dtype=self.dtype), shape), stream)

    def _write(self, host, stream=None):
        """Copies a host array of this shape into this (possibly strided) view."""
        stream = self.stream if stream is None else stream
        if self.is_c_contiguous():
            _kjit.cuda_memcpy_htod(self._ptr, np.ascontiguousarray(host), self.nbytes, stream)
        elif self.is_f_contiguous():
            _kjit.cuda_memcpy_htod(self._ptr, np.asfortranarray(host), self.nbytes, stream)
        else:  # strided: through the host, over the bytes it spans
            lo, nbytes = _span(self.shape, self.strides, self.itemsize)
            buf = np.empty(nbytes, np.uint8)
            _kjit.cuda_memcpy_dtoh(buf, self._ptr + lo, nbytes, stream)
            np.ndarray(self.shape, self.dtype, buffer=buf, offset=-lo, strides=self.strides)[...] = host
            _kjit.cuda_memcpy_htod(self._ptr + lo, buf, nbytes, stream)

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
        """Numba's rule (as the CPU device's arrays): 'C' of a C-contiguous
        array, 'F' of an F-contiguous one, 'A' and 'K' of either."""
        if order not in ("C", "F", "A", "K"):
            raise ValueError("order not C|F|A")
        fl = self._stand_in().flags
        if order in "CAK" and fl.c_contiguous:
            return self.reshape(-1, order="C")
        if order in "FAK" and fl.f_contiguous:
            return self.reshape(-1, order="F")
        raise NotImplementedError("ravel on non-contiguous array")

    def bind(self, stream=0):
        """The same array with ``stream`` as its stream."""
        return DeviceNDArray(self.shape, self.strides, self.dtype, stream, self._memory, _ptr=self._ptr,
                             _owner=self._owner, _readonly=self._readonly)

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
        return self._view(*self._from_stand_in(self._stand_in().view(dtype)), dtype=np.dtype(dtype))

    # ---- copies ------------------------------------------------------------------
    def copy_to_host(self, ary=None, stream=0):
        """To a NumPy array (``ary``, or a new one); waits for the copy."""
        stream = stream or self.stream
        if self.is_c_contiguous() or self.is_f_contiguous():
            order = "C" if self.is_c_contiguous() else "F"
            out = ary if ary is not None else np.empty(self.shape, self.dtype, order=order)
            if out.shape != self.shape and out.size != self.size:
                raise ValueError(f"copy_to_host: the array has shape {out.shape}, not {self.shape}")
            if out.dtype != self.dtype:
                raise TypeError(f"copy_to_host: the array's dtype is {out.dtype}, not {self.dtype}")
            target = out if (out.flags.c_contiguous if order == "C" else out.flags.f_contiguous) else \
                np.empty(self.shape, self.dtype, order=order)
            _kjit.cuda_memcpy_dtoh(target, self._ptr, self.nbytes, stream)
            if target is not out:
                out[...] = target
            return out
        lo, nbytes = _span(self.shape, self.strides, self.itemsize)
        buf = np.empty(nbytes, np.uint8)
        _kjit.cuda_memcpy_dtoh(buf, self._ptr + lo, nbytes, stream)
        src = np.ndarray(self.shape, self.dtype, buffer=buf, offset=-lo, strides=self.strides)
        if ary is None:
            return src.copy()
        ary[...] = src
        return ary

    def copy_to_device(self, ary, stream=0):
        """From a host array (or another device array) of the same shape.
        Numba's rules: both must be one block of memory (broadcast axes
        aside); a device array must also have the same strides."""
        stream = stream or self.stream
        if self.size == 0:
            return
        copy_rules._sentry_contiguous(self._layout_standin())
        if isinstance(ary, DeviceNDArray) or hasattr(ary, "__cuda_array_interface__"):
            src = as_cuda_array(ary)
            copy_rules._sentry_contiguous(src._layout_standin())
            copy_rules._check_compatible(copy_rules._array_core(self._layout_standin()),
                                         copy_rules._array_core(src._layout_standin()))
            if src.nbytes != self.nbytes or not (src.is_c_contiguous() or src.is_f_contiguous()):
                raise NotImplementedError("device-to-device copies of broadcast arrays")
            _kjit.cuda_memcpy_dtod(self._ptr, src._ptr, self.nbytes, stream)
            return
        host = np.asarray(ary)
        if host.size != self.size:
            raise ValueError(f"copy_to_device: the array has {host.size} elements, not {self.size}")
        if host.dtype != self.dtype:
            host = host.astype(self.dtype)
        self._write(host.reshape(self.shape) if host.shape != self.shape else host)

    def copy_to_host_async(self, stream):
        return self.copy_to_host(stream=stream)

    # ---- interop -----------------------------------------------------------------
    @property
    def _numba_type_(self):
        """The array's kjit type (``array(float32, 1d, C)``), as ``typeof``."""
        from kjit import types
        from kjit.np.numpy_support import from_dtype
        layout = "C" if self.is_c_contiguous() else "F" if self.is_f_contiguous() else "A"
        return types.Array(from_dtype(self.dtype), len(self.shape), layout, readonly=bool(self._readonly))

    @property
    def __cuda_array_interface__(self):
        c = self.is_c_contiguous()
        s = self.stream
        handle = getattr(s, "handle", s) if s else None
        return {"shape": self.shape, "strides": None if c else self.strides, "typestr": self.dtype.str,
                "data": (self._ptr if self.size else 0, self._readonly), "version": 3,
                "stream": handle if handle not in (0, None) else None}

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        if stream not in (None, -1) and self.stream:
            # The consumer's stream waits for this array's work.
            ev = _event(timing=False)
            ev.record(self.stream)
            ev.wait(stream if stream not in (1, 2) else 0)
        return self._dlpack(2, _kjit.cuda_current())

    def __dlpack_device__(self):
        return (2, _kjit.cuda_current())


def from_cuda_array_interface(desc, owner=None, sync=True):
    """A DeviceNDArray viewing the memory a ``__cuda_array_interface__``
    dictionary describes, kept alive by ``owner``. A stream in ``desc``
    becomes the array's stream (an external stream), synchronized first when
    ``sync`` and ``config.CUDA_ARRAY_INTERFACE_SYNC`` are true (Numba's rule)."""
    from kjit.cuda.interface import consumer_stream
    stream = consumer_stream(desc, sync, _external_stream)
    dtype = np.dtype(desc["typestr"])
    shape = tuple(desc["shape"])
    strides = desc.get("strides") or _c_strides(shape, dtype.itemsize)
    ptr, readonly = desc["data"]
    return DeviceNDArray(shape, strides, dtype, stream, _ptr=ptr or 0, _owner=owner, _readonly=bool(readonly))


def as_cuda_array(obj, sync=True):
    """A DeviceNDArray viewing the memory of an object with
    ``__cuda_array_interface__`` (CuPy, PyTorch, Numba), without a copy."""
    if isinstance(obj, DeviceNDArray):
        return obj
    return from_cuda_array_interface(obj.__cuda_array_interface__, owner=obj, sync=sync)


def is_cuda_array(obj):
    return isinstance(obj, DeviceNDArray) or hasattr(obj, "__cuda_array_interface__")


def from_dlpack(obj):
    """A DeviceNDArray viewing a DLPack tensor on the GPU (``__dlpack__``)."""
    ptr, shape, strides, dtype, (dev_type, _dev_id), owner = _kjit.dlpack_import(obj, 1)
    if dev_type not in (2, 3, 13):
        raise TypeError(f"from_dlpack: the tensor is on a device of DLPack type {dev_type}, not a CUDA device")
    return DeviceNDArray(shape, strides, dtype, _ptr=ptr, _owner=owner)


class _HostMemoryArray(np.ndarray):
    """A NumPy array in page-locked host memory that kernels can also take
    directly (``mapped_array``, ``managed_array``)."""

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
                "typestr": self.dtype.str, "data": (mem.device_pointer + offset, False), "version": 3,
                "stream": handle if handle not in (0, None) else None}


class MappedNDArray(_HostMemoryArray):
    pass


class ManagedNDArray(_HostMemoryArray):
    pass


def host_array(kind, shape, dtype, strides, order, cls=None, stream=0):
    dtype = np.dtype(dtype)
    shape = _shape_tuple(shape)
    if strides is None:
        strides = _f_strides(shape, dtype.itemsize) if order == "F" else _c_strides(shape, dtype.itemsize)
    lo, nbytes = _span(shape, strides, dtype.itemsize)
    mem = _kjit.cuda_alloc(nbytes, kind)
    a = np.ndarray(shape, dtype, buffer=mem, offset=-lo, strides=strides)
    if cls is not None:
        a = a.view(cls)
        a._kjit_memory = mem
        a._kjit_stream = stream
    return a


def auto_device(obj, stream=0, copy=True, user_explicit=False):
    """Numba's ``cuda.devicearray.auto_device`` (kjit.cuda.cudadrv.devicearray)."""
    from kjit.cuda.cudadrv.devicearray import auto_device as auto
    return auto(obj, stream=stream, copy=copy, user_explicit=user_explicit)
