"""Numba's CUDA host API (``cuda.to_device``, ``cuda.device_array``,
``cuda.stream()``, ``cuda.event()``, ``cuda.gpus`` ...), written once over
kjit's device layer (runtime/device/Device.h, ``_kjit.device(kind)``): the
same classes on a CUDA GPU, an AMD GPU and the CPU device (which the
simulator uses too). ``kjit.cuda`` and ``kjit.hip`` export these names.

    layer.py    which device, and its device layer
    devices.py  Device, cuda.gpus, contexts, synchronize, close, detect
    streams.py  Stream, Event
    arrays.py   DeviceNDArray, host arrays (pinned, mapped, managed),
                __cuda_array_interface__ and DLPack interchange
"""
from kjit.hostapi.arrays import (DeviceNDArray, ManagedNDArray, MappedNDArray, as_cuda_array, as_dtype,  # noqa: F401
                                 auto_device, device_array, device_array_like, from_cuda_array_interface,
                                 from_dlpack, host_array, is_cuda_array, managed_array, mapped, mapped_array,
                                 mapped_array_like, pinned, pinned_array, pinned_array_like, to_device)
from kjit.hostapi.devices import (Context, Device, close, current_context, current_processor, detect,  # noqa: F401
                                  get_current_device, gpus, is_available, list_devices, select_device, synchronize)
from kjit.hostapi.layer import set_device_name as _set_device_name  # noqa: F401
from kjit.hostapi.streams import (Event, Stream, default_stream, event, event_elapsed_time,  # noqa: F401
                                  external_stream, legacy_default_stream, per_thread_default_stream, stream)

__all__ = ["is_available", "gpus", "list_devices", "select_device", "get_current_device", "current_context",
           "synchronize", "close", "detect", "to_device", "device_array", "device_array_like", "pinned_array",
           "pinned_array_like", "mapped_array", "mapped_array_like", "managed_array", "pinned", "mapped", "stream",
           "default_stream", "legacy_default_stream", "per_thread_default_stream", "external_stream", "event",
           "event_elapsed_time", "as_cuda_array", "from_cuda_array_interface", "is_cuda_array", "from_dlpack",
           "DeviceNDArray", "Stream", "Event", "Device"]
