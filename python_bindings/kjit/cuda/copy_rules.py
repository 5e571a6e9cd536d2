"""Numba's rules for copies between host and device arrays, for kjit's
device arrays on every device (kjit/hostapi/arrays.py). They work on NumPy arrays; a GPU array brings a
stand-in of its shape and strides (DeviceNDArray._layout_standin)."""
import numpy as np


class _IncompatibleArrays(ValueError, TypeError):
    """Arrays of different shapes or dtypes (a ValueError, and a TypeError
    as Numba raises for dtypes)."""


_ERRMSG_CONTIGUOUS = ("Array contains non-contiguous buffer and cannot be transferred as a single "
                      "memory region. Please ensure contiguous buffer with numpy .ascontiguousarray()")


def _array_core(a):
    """The array without its broadcast (zero-stride) axes (Numba's array_core)."""
    if not a.strides or not a.size:
        return a
    return a[tuple(0 if s == 0 else slice(None) for s in a.strides)]


def _sentry_contiguous(a):
    """Numba's rule for a copy: the array's core is one block of memory."""
    core = _array_core(a)
    if not core.flags.c_contiguous and not core.flags.f_contiguous:
        raise ValueError(_ERRMSG_CONTIGUOUS)


def _check_compatible(a, b):
    """Numba's check before a copy: dtype, shape and strides (without
    length-1 axes) are the same."""
    asq, bsq = a.squeeze(), b.squeeze()
    if a.dtype != b.dtype:
        raise _IncompatibleArrays(f"incompatible dtype: {a.dtype} vs. {b.dtype}")
    if asq.shape != bsq.shape:
        raise _IncompatibleArrays(f"incompatible shape: {a.shape} vs. {b.shape}")
    if a.size and asq.strides != bsq.strides:
        raise ValueError(f"incompatible strides: {a.strides} vs. {b.strides}")


def shape_tuple(shape):
    """A shape as a tuple of ints: an int, or a sequence (a NumPy array
    too) of integers; anything else is a TypeError, as in Numba."""
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    out = []
    for s in shape:
        if not isinstance(s, (int, np.integer)):
            raise TypeError(f"array shapes are integers, not {type(s).__name__} ({s!r})")
        out.append(int(s))
    return tuple(out)


def layout_standin(shape, strides, dtype):
    """A NumPy array of this shape, strides and dtype over one element of
    memory: its flags and views follow NumPy's rules (relaxed strides);
    its elements are never read."""
    return np.lib.stride_tricks.as_strided(np.zeros(1, dtype), shape, strides, writeable=False)


def layout_like(shape, strides, dtype):
    """The (strides, order) of a new contiguous array like one of this
    layout, as NumPy's ``empty_like`` (order 'K': the axes keep the order of
    their strides); strides None when the order says it."""
    a = layout_standin(shape, strides, dtype)
    order = "F" if a.flags.f_contiguous and not a.flags.c_contiguous else "C"
    if a.flags.c_contiguous or a.flags.f_contiguous or a.ndim <= 1:
        return None, order
    perm = sorted(range(a.ndim), key=lambda i: abs(a.strides[i]))
    out = [0] * a.ndim
    s = a.dtype.itemsize
    for i in perm:
        out[i] = s
        s *= a.shape[i]
    return tuple(out), order


def c_strides(shape, itemsize):
    """The byte strides of a C-contiguous array of this shape."""
    strides, acc = [], itemsize
    for n in reversed(shape):
        strides.append(acc)
        acc *= max(n, 1)
    return tuple(reversed(strides))


def f_strides(shape, itemsize):
    """The byte strides of a Fortran-contiguous array of this shape."""
    strides, acc = [], itemsize
    for n in shape:
        strides.append(acc)
        acc *= max(n, 1)
    return tuple(strides)
