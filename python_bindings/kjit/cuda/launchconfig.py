"""The launch configuration a kernel is compiled under (numba-cuda's
``numba.cuda.launchconfig``).

A launch whose argument types have no compiled kernel yet compiles in C++;
where the kernel's ``_compile_for_args`` is replaced (on the kernel, as
``capture_compile_config`` does, or by a subclass of CUDAKernel), the launch
calls it instead (``_compile_for_args(*args)`` compiles), with the launch's
configuration current on this thread until it returns: the wrapper sees
which launch caused the compile. Outside such a compile there is none.
"""
import contextlib
import threading
from functools import wraps
from types import MethodType

_current = threading.local()


class LaunchConfig:
    """A launch being compiled for: ``dispatcher`` (the kernel), ``griddim``
    and ``blockdim`` (3-tuples), ``stream``, ``sharedmem``, ``args``."""

    def __init__(self, dispatcher, griddim, blockdim, stream, sharedmem, args, key):
        self.dispatcher = dispatcher
        self.griddim, self.blockdim = tuple(griddim), tuple(blockdim)
        self.stream, self.sharedmem = stream, sharedmem
        self.args = args
        self._key = key  # the launch's argument type key (what _compile_for_args compiles)

    def __repr__(self):
        return (f"<LaunchConfig {getattr(self.dispatcher, '__name__', '?')}[{self.griddim}, {self.blockdim}, "
                f"{self.stream}, {self.sharedmem}]>")


def current_launch_config():
    """The launch configuration being compiled for on this thread, or None."""
    return getattr(_current, "config", None)


def ensure_current_launch_config():
    """The current launch configuration; RuntimeError when there is none."""
    config = current_launch_config()
    if config is None:
        raise RuntimeError("No launch config set for this thread")
    return config


@contextlib.contextmanager
def capture_compile_config(dispatcher):
    """Records, in the dict it yields (key ``"config"``), the launch
    configuration of a compile that a launch of ``dispatcher`` causes (None
    when the kernel was compiled already)."""
    if dispatcher is None:
        raise TypeError("dispatcher is required")
    record = {"config": None}
    missing = object()
    original_attr = dispatcher.__dict__.get("_compile_for_args", missing)
    original = dispatcher._compile_for_args

    @wraps(original)
    def wrapped(self, *args, **kws):
        record["config"] = current_launch_config()
        return original(*args, **kws)

    dispatcher._compile_for_args = MethodType(wrapped, dispatcher)
    try:
        yield record
    finally:
        if original_attr is missing:
            del dispatcher._compile_for_args
        else:
            dispatcher._compile_for_args = original_attr


def _compile_for_launch(kernel, key, griddim, blockdim, stream, sharedmem, args):
    """What a launch path calls when nothing is compiled for argument type
    key ``key``: ``kernel._compile_for_args(*args)`` under the launch's
    configuration."""
    previous = current_launch_config()
    _current.config = LaunchConfig(kernel, griddim, blockdim, stream, sharedmem, args, key)
    try:
        kernel._compile_for_args(*args)
    finally:
        _current.config = previous


__all__ = ["current_launch_config", "ensure_current_launch_config", "capture_compile_config"]
