"""Streams and events (``cuda.stream()``, ``cuda.event()`` ...), written once
over the device layer: a CUDA stream, a HIP stream, or on the CPU device a
stream that is always idle (work is done when its call returns, a valid
order for CUDA's rules; its events note the host's time)."""
import contextlib

from kjit import _kjit
from kjit.hostapi import layer

__all__ = ["Stream", "stream", "default_stream", "legacy_default_stream", "per_thread_default_stream",
           "external_stream", "Event", "event", "event_elapsed_time"]

_SPECIAL = {0: "default stream", 1: "legacy default stream", 2: "per-thread default stream"}


class Stream(_kjit.Stream):
    """A stream; kernels and copies on one stream run in order.
    ``Stream()`` makes one, ``Stream(handle)`` names an existing handle (0:
    the default stream; 1 and 2: CUDA's legacy and per-thread ones)."""

    external = False  # True for external_stream's (not owned by kjit)

    def __init__(self, handle=None):
        if handle is None:
            super().__init__(layer.kind())
        else:
            super().__init__(layer.kind(), int(handle))

    def __int__(self):
        return self.handle

    def __index__(self):
        return self.handle

    def __bool__(self):
        return self.handle != 0

    def __eq__(self, other):
        return isinstance(other, Stream) and other.handle == self.handle

    def __hash__(self):
        return hash(self.handle)

    def __repr__(self):
        what = _SPECIAL.get(self.handle) or f"stream 0x{self.handle:x}"
        return f"<kjit {what} on '{_device_name()}'>"

    @contextlib.contextmanager
    def auto_synchronize(self):
        """Synchronizes the stream when the block ends."""
        yield self
        self.synchronize()

    def add_callback(self, callback, arg=None):
        """Calls ``callback(stream, status, arg)`` once the work queued so far
        is done (here: after waiting for it)."""
        self.synchronize()
        callback(self, None, arg)

    def async_done(self):
        """A future (of the running asyncio loop) done when the stream is."""
        import asyncio
        self.synchronize()
        fut = asyncio.get_event_loop().create_future()
        fut.set_result((self, None))
        return fut


def _device_name():
    from kjit.hostapi.devices import get_current_device
    try:
        return get_current_device().name
    except Exception:  # (a repr must not fail)
        return layer.kind()


def stream():
    layer.require()
    return Stream()


def default_stream():
    layer.require()
    return Stream(0)


def legacy_default_stream():
    layer.require()
    return Stream(0 if layer.kind() == "hip" else 1)


def per_thread_default_stream():
    layer.require()
    return Stream(0 if layer.kind() == "hip" else 2)


def external_stream(ptr):
    """A stream another library made (its handle): kjit never destroys it."""
    layer.require()
    if layer.kind() == "hip":
        raise layer.unsupported("cuda.external_stream")
    s = Stream(int(ptr))
    s.external = True
    return s


class Event(_kjit.Event):
    """An event: ``record(stream)``, ``synchronize()``, ``wait(stream)``,
    ``query()``, ``elapsed_time(end)`` in milliseconds."""

    def __init__(self, timing=True):
        super().__init__(layer.kind(), bool(timing))

    def elapsed_time(self, evtend):
        return event_elapsed_time(self, evtend)

    def __repr__(self):
        return f"<kjit event on '{_device_name()}'>"


def event(timing=True):
    layer.require()
    return Event(timing)


def event_elapsed_time(evtstart, evtend):
    """Milliseconds between two recorded events (both made with timing=True)."""
    for what, e in (("start", evtstart), ("end", evtend)):
        if not isinstance(e, _kjit.Event):
            raise TypeError(f"event_elapsed_time: the {what} event is a {type(e).__name__}, not an Event")
    return _kjit.Event.elapsed_time(evtstart, evtend)
