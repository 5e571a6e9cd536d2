"""Device arrays follow Numba's rules for copies, views and the CUDA Array
Interface (numba-cuda's cudadrv/test_cuda_ndarray.py, test_array_attr.py,
test_cuda_array_slicing.py and cudapy/test_cuda_array_interface.py). Shown
on the CPU device's arrays (kjit.hostapi), the same class on every device."""
from unittest.mock import patch

import numpy as np
import pytest

from kjit import config
from kjit import hostapi as cuda
from kjit.cuda.cudadrv.devicearray import errmsg_contiguous_buffer


def test_numba_constructor_and_relaxed_strides():
    d = cuda.DeviceNDArray((1, 10), (800, 8), np.float64)
    assert d.flags["C_CONTIGUOUS"] and d.flags["F_CONTIGUOUS"]
    assert cuda.DeviceNDArray(shape=(0,), strides=(8,), dtype=np.int8).size == 0


def test_ravel_orders_and_non_contiguous():
    a = np.arange(60).reshape(2, 5, 2, 3)
    for order in "CAK":
        np.testing.assert_array_equal(cuda.to_device(a).ravel(order).copy_to_host(), a.ravel())
    f = np.asfortranarray(a)
    np.testing.assert_array_equal(cuda.to_device(f).ravel("A").copy_to_host(), f.ravel("A"))
    with pytest.raises(NotImplementedError):
        cuda.to_device(np.arange(60))[::2].ravel()


def test_transpose_is_for_2d_arrays():
    with pytest.raises(NotImplementedError, match="transposing a non-2D DeviceNDArray"):
        np.transpose(cuda.to_device(np.arange(12).reshape(3, 4, 1)))
    np.testing.assert_array_equal(cuda.to_device(np.ones((2, 3))).T.copy_to_host(), np.ones((3, 2)))


def test_copies_need_contiguous_compatible_arrays():
    d = cuda.to_device(np.arange(25).reshape(5, 5, order="F"))
    with pytest.raises(ValueError) as e:
        d[2].copy_to_device(np.full(5, 5))
    assert str(e.value) == errmsg_contiguous_buffer
    with pytest.raises(ValueError) as e:
        cuda.to_device(np.arange(20)).copy_to_device(cuda.to_device(np.arange(20))[::2])
    assert str(e.value) == errmsg_contiguous_buffer
    c = np.arange(8).reshape(2, 4)
    with pytest.raises(ValueError, match="incompatible strides"):
        cuda.to_device(c).copy_to_device(cuda.to_device(np.asfortranarray(c)))
    # Where kjit does more than Numba (docs/differences.md): a view with
    # negative strides copies to the host (Numba raises NotImplementedError).
    np.testing.assert_array_equal(cuda.to_device(np.arange(10.0))[::-1].copy_to_host(), np.arange(10.0)[::-1])


def test_broadcast_arrays_stay_broadcast():
    d = cuda.to_device(np.broadcast_to(np.array([1]), (10,)))
    assert d.strides == (0,) and d._numba_type_.layout == "A"
    np.testing.assert_array_equal(d.copy_to_host(), np.ones(10))


def test_setitem_synchronizes_without_a_stream():
    d = cuda.to_device(np.arange(5))
    with patch.object(cuda.Stream, "synchronize", return_value=None) as sync:
        d[0] = 10
    sync.assert_called_once()
    with patch.object(cuda.Stream, "synchronize", return_value=None) as sync:
        d.setitem(1, 11, stream=cuda.stream())
    sync.assert_not_called()
    assert list(d.copy_to_host()[:2]) == [10, 11]


class _Foreign:
    def __init__(self, arr):
        self.__cuda_array_interface__ = arr.__cuda_array_interface__


def test_cuda_array_interface_streams_and_sync():
    assert cuda.device_array(0).__cuda_array_interface__["data"][0] == 0
    assert cuda.device_array(10).__cuda_array_interface__["stream"] is None
    s = cuda.stream()
    f = _Foreign(cuda.device_array(10, stream=s))
    assert f.__cuda_array_interface__["stream"] == s.handle
    with patch.object(cuda.Stream, "synchronize", return_value=None) as sync:
        c = cuda.as_cuda_array(f)
    sync.assert_called_once_with()
    assert c.stream.external and c.stream.handle == s.handle
    old = config.CUDA_ARRAY_INTERFACE_SYNC
    config.CUDA_ARRAY_INTERFACE_SYNC = 0
    try:
        with patch.object(cuda.Stream, "synchronize", return_value=None) as sync:
            cuda.from_cuda_array_interface(f.__cuda_array_interface__)
        sync.assert_not_called()
    finally:
        config.CUDA_ARRAY_INTERFACE_SYNC = old
    desc = dict(cuda.to_device(np.arange(4.0)).__cuda_array_interface__, mask=object())
    with pytest.raises(NotImplementedError, match="Masked arrays are not supported"):
        cuda.from_cuda_array_interface(desc)
    assert cuda.to_device(np.arange(10.0))[::-1].alloc_size == 80


def test_gpu_device_arrays_follow_the_same_rules(fake_driver):
    """The GPU's DeviceNDArray (through the fake CUDA driver) gives the same
    answers: split, bind, ravel, 2-d transpose, alloc_size."""
    import os
    import subprocess
    import sys
    code = '''
import numpy as np
from kjit import cuda
d = cuda.to_device(np.arange(10.0))
assert [p.size for p in d.split(4)] == [4, 4, 2]
s = cuda.stream()
assert d.bind(s).stream is s and d[::-1].alloc_size == 80
assert cuda.device_array(0).__cuda_array_interface__["data"][0] == 0
for call, exc in ((lambda: d[::2].ravel(), NotImplementedError),
                  (lambda: cuda.device_array((2, 3, 4)).T, NotImplementedError)):
    try:
        call()
        raise SystemExit("no error")
    except exc:
        pass
print("ok")
'''
    env = dict(os.environ, KJIT_CUDA_DRIVER=fake_driver, KJIT_DEVICE="cuda",
               PYTHONPATH=os.path.join(os.path.dirname(__file__), "..", "..", "..", "python_bindings"))
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert r.returncode == 0 and "ok" in r.stdout, r.stdout + r.stderr
