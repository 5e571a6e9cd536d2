"""Numba's Python API names that kjit provides for ported code: the type
names of ``numba.types``, ``numba.np.numpy_support``, ``numba.typeof``,
Numba's error and warning names, and the small host-API names of
``numba.cuda`` (profiler calls, ``is_float16_supported``,
``mapped_array_like``, ``cuda.cudadrv``, ``kernel.forall(0)``)."""
import collections

import numpy as np
import pytest

import kjit
from kjit import types
from kjit.errors import NumbaNotImplementedError, NumbaPerformanceWarning, NumbaWarning, PerformanceWarning
from kjit.np import numpy_support


# ---- kjit.types: Numba's names ----------------------------------------------------------
def test_scalar_aliases_are_numbas():
    assert types.intp is types.int64 and types.uintp is types.uint64
    assert types.longlong is types.int64 and types.ulonglong is types.uint64
    assert types.intc is types.int32 and types.uintc is types.uint32
    assert types.short is types.int16 and types.ushort is types.uint16
    assert types.byte is types.uint8 and types.ubyte is types.uint8 and types.uchar is types.uint8
    assert types.char is types.int8
    assert types.float_ is types.float32 and types.double is types.float64
    assert types.boolean is types.bool_ is types.b1 and str(types.boolean) == "bool"
    assert [str(t) for t in (types.i1, types.u8, types.f2, types.c8, types.c16)] == \
        ["int8", "uint64", "float16", "complex64", "complex128"]


def test_type_classes():
    assert isinstance(types.int32, types.Integer) and types.int32.bitwidth == 32 and types.int32.signed
    assert not types.uint8.signed
    assert isinstance(types.float32, types.Float) and isinstance(types.float32, types.Number)
    assert isinstance(types.complex64, types.Complex) and types.complex64.underlying_float is types.float32
    assert isinstance(types.boolean, types.Boolean) and not isinstance(types.boolean, types.Integer)
    assert types.int64 in types.integer_domain and types.float32 in types.real_domain


def test_array_types_print_as_numba_and_compile_by_name():
    a = types.float32[:]
    assert str(a) == "array(float32, 1d, A)" and a.name == "float32[:]"
    assert str(types.float32[::1]) == "array(float32, 1d, C)"
    assert str(types.float64[:, ::1]) == "array(float64, 2d, C)"
    assert str(types.float64[::1, :]) == "array(float64, 2d, F)"
    assert types.Array(types.int32, 2, "F") == types.int32[::1, :]
    ro = types.Array(types.int32, 1, "C", readonly=True)
    assert str(ro) == "readonly array(int32, 1d, C)" and ro != types.int32[::1]
    # A signature is spelled with the names, which the signature parser reads.
    assert str(types.void(types.float32[::1], types.Array(types.int64, 2, "F"))) == \
        "void(float32[::1], int64[::1, :])"


def test_tuple_and_pointer_types():
    assert str(types.UniTuple(types.int64, 2)) == "UniTuple(int64 x 2)"
    assert types.Tuple((types.int64, types.int64)) == types.UniTuple(types.int64, 2)
    t = types.Tuple((types.int32, types.float32))
    assert str(t) == "Tuple(int32, float32)" and t.name == "Tuple(int32, float32)" and len(t) == 2
    p = types.CPointer(types.float32)  # can be named; kjit compiles no pointer arguments
    assert str(p) == "float32*"


def test_signature_of_numba_types_compiles():
    @kjit.jit(types.float64(types.double[::1], types.intp))
    def get(a, i):
        return a[i]

    assert get(np.arange(3.0), 2) == 2.0


# ---- numpy_support, typeof -------------------------------------------------------------
def test_from_dtype_and_as_dtype():
    assert numpy_support.from_dtype(np.dtype(np.float32)) is types.float32
    assert numpy_support.from_dtype(np.int16) is types.int16
    assert numpy_support.from_dtype(np.dtype(">f8")) is types.float64
    assert str(numpy_support.from_dtype(np.float32)[::1]) == "array(float32, 1d, C)"
    assert numpy_support.as_dtype(types.intp) == np.dtype(np.int64)
    assert numpy_support.as_dtype(types.boolean) == np.dtype(bool)
    for unsupported in (np.dtype([("a", np.int32), ("s", "U3")]), np.dtype("U3"),
                        np.dtype("datetime64[D]")):
        with pytest.raises(NumbaNotImplementedError):
            numpy_support.from_dtype(unsupported)
    with pytest.raises(NotImplementedError):
        numpy_support.as_dtype(types.UniTuple(types.int64, 2))


def test_typeof():
    assert kjit.typeof(1) is types.int64 and kjit.typeof(2**63) is types.uint64
    assert kjit.typeof(1.0) is types.float64 and kjit.typeof(1j) is types.complex128
    assert kjit.typeof(True) is types.boolean and kjit.typeof(None) is types.none
    assert kjit.typeof(np.float32(1)) is types.float32
    assert str(kjit.typeof(np.zeros(3, np.float32))) == "array(float32, 1d, C)"
    assert str(kjit.typeof(np.zeros((2, 3), order="F"))) == "array(float64, 2d, F)"
    assert str(kjit.typeof(np.zeros((2, 3))[:, ::2])) == "array(float64, 2d, A)"
    ro = np.zeros(3)
    ro.flags.writeable = False
    assert str(kjit.typeof(ro)) == "readonly array(float64, 1d, C)"
    assert str(kjit.typeof((1, 2))) == "UniTuple(int64 x 2)"
    assert str(kjit.typeof((1, 2.0))) == "Tuple(int64, float64)"
    Point = collections.namedtuple("Point", "x y")
    assert isinstance(kjit.typeof(Point(1, 2)), types.NamedTuple)
    with pytest.raises(ValueError):
        kjit.typeof(object())


def test_numba_error_names():
    assert NumbaPerformanceWarning is PerformanceWarning and issubclass(PerformanceWarning, NumbaWarning)
    assert issubclass(NumbaNotImplementedError, NotImplementedError)


# ---- kjit.cuda host API ----------------------------------------------------------------
@pytest.mark.parametrize("device", ["cpu", "sim"])
def test_cuda_host_api_names(run_on_device, device):
    run_on_device("""
        import numpy as np
        import kjit
        from kjit import cuda

        assert cuda.is_float16_supported()
        cuda.profile_start(); cuda.profile_stop()       # no-ops
        with cuda.profiling():
            pass

        f = cuda.mapped_array_like(np.zeros((2, 3), order="F"))
        assert f.shape == (2, 3) and f.flags.f_contiguous

        d = cuda.to_device(np.arange(6.0).reshape(2, 3))
        assert str(d._numba_type_) == "array(float64, 2d, C)" and kjit.typeof(d) == d._numba_type_
        cai = d.__cuda_array_interface__                # a host pointer on these devices
        assert cai["shape"] == (2, 3) and cai["typestr"] == "<f8" and cai["version"] == 3

        class Foreign:                                  # any object with the interface
            __cuda_array_interface__ = cai
        v = cuda.as_cuda_array(Foreign())               # a view, no copy
        v[0, 0] = 42.0
        assert d.copy_to_host()[0, 0] == 42.0 and cuda.is_cuda_array(Foreign())

        from kjit.cuda.cudadrv import devicearray, driver, runtime
        assert devicearray.DeviceNDArray is cuda.DeviceNDArray and isinstance(d, devicearray.DeviceNDArray)
        assert devicearray.is_contiguous(np.zeros((3, 4))) and not devicearray.is_contiguous(np.zeros((3, 4))[:, :2])
        assert driver.Stream is cuda.Stream and not driver._have_nvjitlink()
        # The CUDA driver's version (major, minor), or (0, 0) where there is no driver.
        from kjit import _kjit
        v = _kjit.cuda_driver_version() if _kjit.cuda_available() else 0
        assert runtime.get_version() == ((v // 1000, (v % 1000) // 10) if v > 0 else (0, 0))

        @cuda.jit
        def fill(a):
            i = cuda.grid(1)
            if i < a.shape[0]:
                a[i] = 1.0

        out = np.zeros(4)
        fill.forall(0)(out)                             # Numba: no launch, no error
        assert out.sum() == 0
        fill.forall(4)(out)
        assert out.sum() == 4
        print("ok")
    """, device=device)


def test_carray_and_farray_view_memory_at_a_pointer():
    import ctypes
    from kjit import types
    from kjit.np.numpy_support import carray, farray
    a = np.arange(6, dtype=np.float32)
    p = a.ctypes.data_as(ctypes.POINTER(ctypes.c_float))
    c = carray(p, (2, 3))                   # the pointer's type gives the dtype
    c[0, 0] = 9                             # a view: no copy
    assert a[0] == 9 and c.tolist() == [[9, 1, 2], [3, 4, 5]]
    f = farray(a.ctypes.data, (2, 3), dtype=types.float32)  # an address needs a dtype
    assert f.flags.f_contiguous and f.tolist() == [[9, 2, 4], [1, 3, 5]]
    with pytest.raises(TypeError, match="mismatching dtype"):
        carray(p, 3, dtype=np.int32)
    with pytest.raises(TypeError, match="a dtype is needed"):
        carray(a.ctypes.data, 3)


def test_auto_device_and_array_like_follow_numba(run_on_device):
    r = run_on_device("""
        import numpy as np
        from kjit import cuda
        d, copied = cuda.devicearray.auto_device(np.arange(4.0))
        assert copied and d.copy_to_host().tolist() == [0, 1, 2, 3]
        try:
            cuda.devicearray.auto_device(np.arange(10.0)[:-1:2])   # not one block of memory
            raise AssertionError("copied")
        except ValueError as e:
            assert "non-contiguous buffer" in str(e), e
        # *_array_like of a strided view: contiguous, the axes in the view's order (NumPy's empty_like)
        view = cuda.device_array((10, 12), order="F")[::2, ::2]
        for like in (cuda.device_array_like, cuda.pinned_array_like, cuda.mapped_array_like):
            assert like(view).strides == np.zeros((10, 12), order="F")[::2, ::2].copy(order="K").strides, like
        print("like ok")
    """, device="cpu")
    assert "like ok" in r.stdout
