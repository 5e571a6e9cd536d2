"""CUDA streams and events (``cuda.stream()``, ``cuda.event()`` ...) on the
GPU, and whether there is one: the part of the host API (kjit.cuda.api)
that device arrays (kjit.cuda.devicearray) use too."""
import contextlib

from kjit import _kjit
from kjit.cuda.errors import CudaSupportError

__all__ = ["is_available", "Stream", "stream", "default_stream", "legacy_default_stream", "per_thread_default_stream",
           "external_stream", "Event", "event", "event_elapsed_time"]


def is_available():
    """Whether a CUDA GPU and its driver are usable here."""
    return _kjit.cuda_available()


def _require():
    if not _kjit.cuda_available():
        raise CudaSupportError(f"kjit: no CUDA GPU: {_kjit.cuda_why()}")


# ---- streams and events --------------------------------------------------------------
class Stream(_kjit.CudaStream):
    """A CUDA stream (``cuda.stream()``); kernels and copies on one stream
    run in order."""

    external = False  # True for external_stream's (not owned by kjit)

    def __int__(self):
        return self.handle

    def __bool__(self):
        return self.handle != 0

    def __repr__(self):
        return f"<kjit CUDA stream 0x{self.handle:x}>"

    @contextlib.contextmanager
    def auto_synchronize(self):
        """Synchronizes the stream when the block ends."""
        yield self
        self.synchronize()


def stream():
    _require()
    return Stream()


def default_stream():
    _require()
    return Stream(0)


def legacy_default_stream():
    _require()
    return Stream(1)


def per_thread_default_stream():
    _require()
    return Stream(2)


def external_stream(ptr):
    _require()
    s = Stream(int(ptr))
    s.external = True
    return s


class Event(_kjit.CudaEvent):
    """A CUDA event: ``record(stream)``, ``synchronize()``, ``wait(stream)``,
    ``elapsed_time(end)`` in milliseconds."""

    def elapsed_time(self, evtend):
        return _kjit.CudaEvent.elapsed_time(self, evtend)


def event(timing=True):
    _require()
    return Event(timing)


def event_elapsed_time(evtstart, evtend):
    """Milliseconds between two recorded events."""
    return _kjit.CudaEvent.elapsed_time(evtstart, evtend)
