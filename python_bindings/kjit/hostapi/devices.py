"""Devices and contexts (``cuda.gpus``, ``cuda.get_current_device()``,
``cuda.current_context()``), written once over the device layer.

A device's attributes are what its kind reports: a CUDA GPU's come from
the driver (``MAX_THREADS_PER_BLOCK``, ``MULTIPROCESSOR_COUNT`` ...), an AMD
GPU's from the HIP runtime (its processor, ``gfx90a``; ``WARP_SIZE`` is the
wavefront), and the CPU device's are those of a compute capability 9.0 GPU,
whose limits its kernels are checked against (its memory is the host's).
"""
import os
from collections import namedtuple

from kjit import _kjit
from kjit.hostapi import layer

_MemoryInfo = namedtuple("_MemoryInfo", "free,total")

# The CPU device's attributes: a compute capability 9.0 GPU's limits, this
# machine's processors.
_PRETEND_GPU = {
    "COMPUTE_CAPABILITY_MAJOR": 9, "COMPUTE_CAPABILITY_MINOR": 0, "MAX_THREADS_PER_BLOCK": 1024,
    "MAX_BLOCK_DIM_X": 1024, "MAX_BLOCK_DIM_Y": 1024, "MAX_BLOCK_DIM_Z": 64, "MAX_GRID_DIM_X": 2147483647,
    "MAX_GRID_DIM_Y": 65535, "MAX_GRID_DIM_Z": 65535, "WARP_SIZE": 32, "MAX_SHARED_MEMORY_PER_BLOCK": 49152,
    "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN": 232448, "MAX_SHARED_MEMORY_PER_MULTIPROCESSOR": 233472,
    "MAX_REGISTERS_PER_BLOCK": 65536, "MAX_REGISTERS_PER_MULTIPROCESSOR": 65536,
    "MAX_THREADS_PER_MULTI_PROCESSOR": 2048, "TOTAL_CONSTANT_MEMORY": 65536,
    "MULTIPROCESSOR_COUNT": os.cpu_count() or 1, "ASYNC_ENGINE_COUNT": 0, "CAN_MAP_HOST_MEMORY": 1,
    "UNIFIED_ADDRESSING": 1, "MANAGED_MEMORY": 1, "CONCURRENT_KERNELS": 0, "CONCURRENT_MANAGED_ACCESS": 1,
    "COOPERATIVE_LAUNCH": 0, "INTEGRATED": 1, "ECC_ENABLED": 0, "KERNEL_EXEC_TIMEOUT": 0, "COMPUTE_MODE": 0,
    "PCI_BUS_ID": 0, "PCI_DEVICE_ID": 0, "PCI_DOMAIN_ID": 0, "L2_CACHE_SIZE": 0, "CLOCK_RATE": 0,
    "MEMORY_CLOCK_RATE": 0, "GLOBAL_MEMORY_BUS_WIDTH": 0, "compute_capability": (9, 0),
    "uuid": "GPU-00000000-0000-0000-0000-000000000000", "pci_bus_id": "0000:00:00.0",
}

_hip_infos = None  # the HIP runtime's devices, read once: they do not change in a process


def _hip_info(ordinal):
    global _hip_infos
    if _hip_infos is None:
        _hip_infos = _kjit.hip_devices()
    d = _hip_infos[ordinal]
    return {"id": ordinal, "name": d["name"], "processor": d["processor"], "arch": d["arch"],
            "WARP_SIZE": d["wavefront"], "total_memory": d["total_memory"], "TOTAL_MEMORY": d["total_memory"]}


def _attributes(kind, ordinal):
    if kind == "cuda":
        return _kjit.cuda_device_info(ordinal)
    if kind == "hip":
        return _hip_info(ordinal)
    return dict(_PRETEND_GPU, id=0)


class Device:
    """A device: ``id``, ``name``, ``compute_capability`` and its attributes by
    name (``MAX_THREADS_PER_BLOCK``, ``WARP_SIZE`` ...). ``with device:``
    makes it current for the block."""

    def __init__(self, ordinal=0):
        self.id = int(ordinal)
        self._kind = layer.kind()
        self._info = _attributes(self._kind, self.id)

    @property
    def name(self):
        return layer.cpu_name() if self._kind == "cpu" else self._info["name"]

    @property
    def compute_capability(self):
        return tuple(self._info.get("compute_capability", (0, 0)))

    @property
    def supports_float16(self):
        """Whether the device has float16 arithmetic (compute capability 5.3
        and later; every AMD GPU kjit compiles for)."""
        return self._kind == "hip" or self.compute_capability >= (5, 3)

    @property
    def TOTAL_MEMORY(self):
        if "TOTAL_MEMORY" in self._info:
            return self._info["TOTAL_MEMORY"]
        return layer.dev().memory_info()[1]

    def __getattr__(self, attr):
        info = self.__dict__.get("_info", {})
        if attr in info:
            return info[attr]
        raise AttributeError(attr)

    def __enter__(self):
        self._previous = layer.dev().current()
        select_device(self.id)
        return self

    def __exit__(self, *exc):
        select_device(self._previous)
        return False

    def reset(self):
        close()

    def __eq__(self, other):
        return isinstance(other, Device) and (other._kind, other.id) == (self._kind, self.id)

    def __hash__(self):
        return hash(("kjit-device", self._kind, self.id))

    def __repr__(self):
        if self._kind == "hip":
            return f"<AMD GPU {self.id} '{self.name}' ({self.processor})>"
        return f"<CUDA device {self.id} '{self.name}'>"


_made = {}  # (kind, ordinal) -> Device: one object a device, as Numba's


def _device(ordinal):
    key = (layer.kind(), int(ordinal))
    d = _made.get(key)
    if d is None:
        d = _made[key] = Device(ordinal)
    return d


class _Gpus:
    """``cuda.gpus``: the devices, indexable and iterable; ``.current``."""

    def __len__(self):
        d = layer.dev()
        return d.count() if d.available() else 0

    def __getitem__(self, i):
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"there is no CUDA device {i} ({n} found)")
        return _device(i)

    def __iter__(self):
        return (_device(i) for i in range(len(self)))

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


def is_available():
    """Whether the device kernels launch on can be used here."""
    return layer.dev().available()


def list_devices():
    return list(gpus)


def select_device(device_id):
    """Makes device ``device_id`` current; returns it."""
    d = layer.require()
    if d.kind == "cpu" and int(device_id) != 0:
        raise ValueError(f"there is no CUDA device {device_id}: the {layer.cpu_name()} is device 0, the only one")
    d.select(int(device_id))
    return _device(device_id)


def get_current_device():
    d = layer.require()
    if d.kind == "cuda":
        _kjit.cuda_activate()
    return _device(d.current())


def current_processor():
    """The processor kjit compiles for on the current AMD GPU ("gfx90a")."""
    return get_current_device().processor


class Context:
    """The current device's context: ``get_memory_info()`` is its (free,
    total) memory in bytes (the host's, on the CPU device)."""

    def __init__(self, device):
        self.device = device

    @property
    def id(self):
        return self.device.id

    @property
    def compute_capability(self):
        return self.device.compute_capability

    def get_memory_info(self):
        free, total = layer.dev().memory_info()
        return _MemoryInfo(free, total)

    def synchronize(self):
        synchronize()

    def reset(self):
        close()

    def __repr__(self):
        return f"<CUDA context of device {self.device.id} '{self.device.name}'>"


def current_context(devnum=None):
    if devnum is not None:
        select_device(devnum)
    return Context(get_current_device())


def synchronize():
    """Waits for every kernel and copy on the current device; what a kernel
    raised or a fault surfaces here as an exception. (On the CPU device work
    is done when its call returns.)"""
    layer.require().synchronize()


def close():
    """Gives back the device's contexts (CUDA: device arrays made before are
    gone); on the CPU device and AMD GPUs, waits for the device."""
    d = layer.dev()
    if d.kind == "cuda":
        _kjit.cuda_close()
    elif d.available():
        d.synchronize()


def detect():
    """Prints the devices found and whether kjit can use them
    (numba.cuda.detect); True when there is one."""
    d = layer.dev()
    if not d.available():
        print(f"kjit: no {'CUDA GPU' if d.kind == 'cuda' else 'AMD GPU'}: {d.why()}")
        return False
    if d.kind == "cuda":
        v = _kjit.cuda_driver_version()
        print(f"Found {len(gpus)} CUDA device(s) (driver API {v // 1000}.{v % 1000 // 10})")
    else:
        print(f"Found {len(gpus)} CUDA device(s)")
    for dv in gpus:
        cc = dv.compute_capability
        print(f"id {dv.id}    {dv.name:>20}    [SUPPORTED]")
        if d.kind == "hip":
            print(f"                      Processor: {dv.processor} (wavefront {dv.WARP_SIZE})")
        else:
            pretend = " (pretended)" if d.kind == "cpu" else ""
            print(f"                      Compute Capability: {cc[0]}.{cc[1]}{pretend}")
        if d.kind == "cuda":
            print(f"                           PCI Bus ID: {dv.pci_bus_id}")
        elif d.kind == "cpu":
            print(f"                       Processors (SMs): {dv.MULTIPROCESSOR_COUNT}")
    print(f"Summary:\n\t{len(gpus)}/{len(gpus)} devices are supported")
    return True
