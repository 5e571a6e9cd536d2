"""The device ``kjit.cuda``'s names stand for, for the modules of kjit.cuda
that need them but cannot import the package ``kjit.cuda`` (it imports
them: tests/layering/check_py_imports.py forbids the circle).

    host_api()   the host API module (device arrays, streams, events,
                 devices): kjit.hostapi, one for every device (the
                 simulator's too)
    jit(...)     that device's @cuda.jit: the simulator's, else the compiler's

The package kjit.cuda chooses them (kjit.devices decides, once per process)
and binds them here when it is imported, which is before any module of it
runs: importing kjit.cuda.x imports kjit.cuda first. This module imports
nothing of kjit.
"""

__all__ = ["bind", "host_api", "jit"]

_host_api = None
_jit = None


def bind(host_api, jit):
    """Called by kjit.cuda: `host_api()` returns the host API module, `jit`
    is cuda.jit."""
    global _host_api, _jit
    _host_api, _jit = host_api, jit


def host_api():
    """The module of the host API kjit.cuda's names are (``cuda.to_device``,
    ``cuda.stream`` ...)."""
    return _host_api()


def jit(*args, **options):
    """``cuda.jit`` of the device kernels run on."""
    return _jit(*args, **options)
