"""One host API for every device (kjit/hostapi over the device layer,
runtime/device/Device.h): the same DeviceNDArray, Stream and Event classes,
and the same rules, on the CPU device, the simulator, a CUDA GPU (here the
fake driver) and an AMD GPU (the fake HIP runtime). What differs is the
device layer underneath: `_kjit.device(kind)`."""
import pytest

PROGRAM = """
import numpy as np
from kjit import _kjit, cuda, hostapi

kind = hostapi.layer.kind()
assert kind == {kind!r}, kind
# The names kjit.cuda exports are the one host API's.
assert cuda.DeviceNDArray is hostapi.DeviceNDArray and cuda.Stream is hostapi.Stream
assert cuda.to_device is hostapi.to_device and cuda.event is hostapi.event
x = np.arange(12, dtype=np.float32).reshape(3, 4)
d = cuda.to_device(x)
assert type(d) is hostapi.DeviceNDArray and d._kind == kind
assert isinstance(cuda.stream(), hostapi.Stream) and isinstance(cuda.event(), hostapi.Event)
# The device layer is the one below: its memory holds the array.
assert d._memory.kind == "device" and d._memory.size == x.nbytes
assert _kjit.device(kind).kind == kind
# The same rules on every device: views, strided reads, writes.
v = d[1:, ::2]
assert v.shape == (2, 2) and v.strides == (16, 8) and v._ptr - d._ptr == 16
assert (v.copy_to_host() == x[1:, ::2]).all()
d[0] = 7
want = x.copy(); want[0] = 7
assert (d.copy_to_host() == want).all()
try:
    d[:, 1] = np.zeros(5)
    raise AssertionError("assigned")
except ValueError as e:
    assert "could not broadcast" in str(e), e
s = cuda.stream()
e0, e1 = cuda.event(), cuda.event()
e0.record(s); e1.record(s); e1.synchronize()
assert cuda.event_elapsed_time(e0, e1) >= 0
print("one host API on", kind)
"""


@pytest.mark.parametrize("device,kind", [("cpu", "cpu"), ("sim", "cpu"), ("cuda", "cuda"), ("hip", "hip")])
def test_the_same_classes_and_rules_on_every_device(run_on_device, fake_driver, fake_hip, device, kind):
    env = {"KJIT_CUDA_DRIVER": fake_driver} if device == "cuda" else \
        {"KJIT_HIP_RUNTIME": fake_hip} if device == "hip" else None
    r = run_on_device(PROGRAM.format(kind=kind), device=device, env=env)
    assert f"one host API on {kind}" in r.stdout
