"""``cuda.cudadrv.devicearray``: Numba's device-array helpers.

``DeviceNDArray`` is the device array class of the device kernels run on
(``kjit.cuda.DeviceNDArray``)."""
import numpy as np

from kjit.cuda.active import host_api
from kjit.cuda.copy_rules import _sentry_contiguous

__all__ = ["DeviceNDArray", "is_contiguous", "array_core", "auto_device", "verify_cuda_ndarray_interface",
           "errmsg_contiguous_buffer"]

errmsg_contiguous_buffer = ("Array contains non-contiguous buffer and cannot be transferred as a single "
                            "memory region. Please ensure contiguous buffer with numpy "
                            ".ascontiguousarray()")


def __getattr__(name):
    if name == "DeviceNDArray":
        return host_api().DeviceNDArray
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def is_contiguous(ary):
    """Whether the array's elements are one block of memory, ignoring
    broadcast (zero-stride) and length-1 axes (Numba's rule)."""
    size = ary.dtype.itemsize
    for shape, stride in zip(reversed(ary.shape), reversed(ary.strides)):
        if shape > 1 and stride != 0:
            if size != stride:
                return False
            size *= shape
    return True


def array_core(ary):
    """The array without its broadcast (zero-stride) axes: the part of it
    that holds distinct elements."""
    if not ary.strides or not ary.size:
        return ary
    return ary[tuple(0 if s == 0 else slice(None) for s in ary.strides)]


def verify_cuda_ndarray_interface(obj):
    """Raises AttributeError unless `obj` has the attributes of a device
    array (shape, strides, dtype, size)."""
    for attr, typ in (("shape", tuple), ("strides", tuple), ("dtype", np.dtype), ("size", int)):
        if not hasattr(obj, attr):
            raise AttributeError(f"`{attr}` attribute is missing")
        if not isinstance(getattr(obj, attr), typ):
            raise AttributeError(f"`{attr}` must be of type {typ}")


def auto_device(obj, stream=0, copy=True, user_explicit=False):
    """(a device array of `obj`, whether it was copied): a device array is
    returned as it is, anything else is copied to the device."""
    cuda = host_api()
    if cuda.is_cuda_array(obj):
        return cuda.as_cuda_array(obj), False
    if not isinstance(obj, np.ndarray):
        obj = np.asarray(obj)
    _sentry_contiguous(obj)  # Numba's rule: one block of memory (broadcast axes aside)
    return cuda.to_device(obj, stream=stream, copy=copy), True
