"""The device the host API works on: its kind ("cuda", "hip", "cpu"; the
simulator's is "cpu") and its device layer, ``_kjit.device(kind)``
(runtime/device/Device.h), which every class of kjit.hostapi calls."""
import contextlib
import threading

from kjit import _kjit, devices

_name = None  # the CPU device's name: "kjit CPU device", or "kjit simulator"


_forced = threading.local()


def kind():
    """Where kernels launch, as the host API sees it: the simulator works on
    the CPU device's memory; inside ``on(kind)``, that kind."""
    k = getattr(_forced, "kind", None)
    if k is not None:
        return k
    return "cpu" if devices.simulator() else devices.compiled_kind()


@contextlib.contextmanager
def on(kind):
    """The host API works on the device of ``kind`` for the block (kjit.hip's
    names on an AMD GPU, whatever device kjit.cuda launches on)."""
    before = getattr(_forced, "kind", None)
    _forced.kind = kind
    try:
        yield
    finally:
        _forced.kind = before


def dev():
    """The device layer of the device kernels launch on."""
    return _kjit.device(kind())


def set_device_name(name):
    """The name the CPU device reports (``cuda.get_current_device().name``):
    "kjit CPU device", or "kjit simulator" under the simulator."""
    global _name
    _name = str(name)


def cpu_name():
    return _name or ("kjit simulator" if devices.simulator() else "kjit CPU device")


def require():
    """Raises CudaSupportError unless the device can be used."""
    d = dev()
    if not d.available():
        from kjit.cuda.errors import CudaSupportError
        what = {"cuda": "no CUDA GPU", "hip": "no AMD GPU"}.get(d.kind, "no device")
        raise CudaSupportError(f"kjit: {what}: {d.why()}" if d.kind == "cuda" else d.why())
    return d


def unsupported(what):
    """What the device cannot do yet (an AMD GPU: IPC, external streams)."""
    return NotImplementedError(f"{what} is not supported on AMD GPUs yet (kjit's HIP device): "
                               "docs/amdgpu.md lists what is")
