"""The launch path as docs/architecture.md describes it: a kernel's first
launch makes its launcher, resolves the kernel's global names, compiles and
loads in C++, calling no Python function, unless ``_compile_for_args`` is
replaced (on the kernel object, as ``launchconfig.capture_compile_config``
does, or by a subclass), which is then called as numba-cuda calls it, with
the launch's configuration current.

The calls are counted with ``sys.setprofile``: every "call" event is a
Python function entered. The global names are classified in C++
(python_bindings/src/py_globals.cpp) with the same answers as
``_Resolver.classify``, which the last tests check value by value."""
import cmath
import enum
import gc
import math
import operator
import sys

import numpy as np
import pytest

import kjit
from kjit import _kjit, cuda, devices, jit, literal_unroll, prange
from kjit import types as kt
from kjit.cuda import launchconfig
from kjit.cuda.compiler import CUDAKernel
from kjit.dispatcher import _Resolver

SCALE = 3.0  # a module-level constant the kernels read


@cuda.jit(device=True)
def twice(x):
    return x * 2


def body(out, x):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = math.sqrt(x) * SCALE + twice(np.float32(i))


def expected(n, x):
    return math.sqrt(x) * SCALE + 2 * np.arange(n, dtype=np.float64)


needs_compiled_device = pytest.mark.skipif(
    devices.kind() not in ("cpu", "cuda"), reason="the C++ launch path is the CPU device's and the GPU's")

BLOCKS, THREADS = 128, 32  # (128 blocks: no low-occupancy warning)


def python_calls(action):
    """The Python functions (file, first line, name) called while action()
    runs, action itself aside."""
    calls = []

    def hook(frame, event, arg):
        if event == "call" and frame.f_code is not action.__code__:
            code = frame.f_code
            calls.append((code.co_filename, code.co_firstlineno, code.co_name))

    gc.collect()
    gc.disable()  # (no finaliser may run in between)
    sys.setprofile(hook)
    try:
        action()
    finally:
        sys.setprofile(None)
        gc.enable()
    return calls


def fresh_launch(kernel):
    """Launches `kernel` for the first time with the profile hook on:
    returns the Python functions it called, after checking its results."""
    devices.compiled_kind()  # (a process's first launch asks kjit.devices once)
    out = cuda.to_device(np.zeros(BLOCKS * THREADS, np.float64))
    calls = python_calls(lambda: kernel[BLOCKS, THREADS](out, 2.0))
    np.testing.assert_allclose(out.copy_to_host(), expected(BLOCKS * THREADS, 2.0), rtol=1e-6)
    return calls


@needs_compiled_device
def test_a_first_launch_calls_no_python_function():
    kernel = cuda.jit(body)
    calls = fresh_launch(kernel)
    assert calls == [], f"the launch called Python functions: {calls}"
    # ... and the kernel compiled for the launch is the one overloads lists.
    assert list(kernel.overloads) == [(kt.float64[::1], kt.float64)]


@needs_compiled_device
def test_a_first_launch_of_a_kernel_with_signatures_calls_no_python_function():
    kernel = cuda.jit("void(float64[::1], float64)")(body)
    assert fresh_launch(kernel) == []


@needs_compiled_device
def test_an_instance_override_of_compile_for_args_is_called_under_the_launch_config():
    kernel = cuda.jit(body)
    original = kernel._compile_for_args
    seen = []

    def traced(*args):
        seen.append(launchconfig.current_launch_config())
        return original(*args)

    kernel._compile_for_args = traced
    calls = fresh_launch(kernel)
    # The hook sees the Python path: it would see the same on every launch miss.
    assert {"_compile_for_launch", "traced", "_compile_for_args"} <= {name for _, _, name in calls}
    assert len(seen) == 1
    cfg = seen[0]
    assert cfg.dispatcher is kernel and cfg.griddim == (BLOCKS, 1, 1) and cfg.blockdim == (THREADS, 1, 1)
    assert launchconfig.current_launch_config() is None
    seen.clear()
    assert fresh_launch(kernel) == [] and seen == []  # compiled: nothing to call


class TracedKernel(CUDAKernel):
    """A subclass that replaces _compile_for_args (made once, at the class)."""

    configs = []

    def _compile_for_args(self, *args, **kws):
        TracedKernel.configs.append(launchconfig.ensure_current_launch_config())
        return super()._compile_for_args(*args, **kws)


@needs_compiled_device
def test_a_subclass_override_of_compile_for_args_is_called_under_the_launch_config():
    kernel = TracedKernel(body)
    TracedKernel.configs.clear()
    calls = fresh_launch(kernel)
    assert "_compile_for_args" in {name for _, _, name in calls}
    assert [(c.dispatcher, c.griddim, c.blockdim) for c in TracedKernel.configs] == [
        (kernel, (BLOCKS, 1, 1), (THREADS, 1, 1))]
    assert list(kernel.overloads) == [(kt.float64[::1], kt.float64)]


@needs_compiled_device
def test_capture_compile_config_records_the_launch_config():
    kernel = cuda.jit(body)
    out = cuda.to_device(np.zeros(BLOCKS * THREADS, np.float64))
    with launchconfig.capture_compile_config(kernel) as capture:
        kernel[BLOCKS, THREADS](out, 2.0)
    cfg = capture["config"]
    assert cfg is not None and cfg.dispatcher is kernel and cfg.griddim == (BLOCKS, 1, 1)
    assert "_compile_for_args" not in kernel.__dict__
    with launchconfig.capture_compile_config(kernel) as capture:
        kernel[BLOCKS, THREADS](out, 2.0)  # compiled already
    assert capture["config"] is None
    np.testing.assert_allclose(out.copy_to_host(), expected(BLOCKS * THREADS, 2.0), rtol=1e-6)


@needs_compiled_device
def test_a_new_configuration_makes_its_launcher_without_python():
    kernel = cuda.jit(body)
    fresh_launch(kernel)
    out = cuda.to_device(np.zeros(BLOCKS * THREADS, np.float64))
    assert python_calls(lambda: kernel[BLOCKS * 2, THREADS // 2](out, 2.0)) == []
    assert (BLOCKS * 2, THREADS // 2) in kernel._launchers
    np.testing.assert_allclose(out.copy_to_host(), expected(BLOCKS * THREADS, 2.0), rtol=1e-6)


def test_the_gpu_launch_path_calls_no_python_function(run_on_device, fake_driver):
    """The same on the GPU's launch path (the fake driver: PTX compiled and
    loaded, nothing run)."""
    run_on_device("""
        import gc, math, sys
        import numpy as np
        from kjit import cuda, devices

        SCALE = 3.0

        @cuda.jit(device=True)
        def twice(x):
            return x * 2

        @cuda.jit
        def body(out, x):
            i = cuda.grid(1)
            if i < out.shape[0]:
                out[i] = math.sqrt(x) * SCALE + twice(np.float32(i))

        assert devices.compiled_kind() == "cuda"
        out = cuda.to_device(np.zeros(4096))
        calls = []

        def hook(frame, event, arg):
            if event == "call" and frame.f_code.co_name != "<lambda>":
                calls.append((frame.f_code.co_filename, frame.f_code.co_name))

        launch = lambda: body[128, 32](out, 2.0)
        gc.disable()
        sys.setprofile(hook)
        launch()
        sys.setprofile(None)
        assert calls == [], calls
        assert len(body.overloads) == 1
    """, device="cuda", env={"KJIT_CUDA_DRIVER": fake_driver})


# ---- the global names' classification: C++ and Python agree ---------------

class Color(enum.Enum):
    RED = 1


class Level(enum.IntEnum):
    LOW = 1


@jit
def host_function(x):
    return x + 1


def plain_function(x):
    return x


class Plain:
    pass


COMMON = [None, True, False, np.bool_(True), 3, -5, 2**70, np.int32(4), np.uint64(7), 2.5, np.float32(1.5),
          np.float64(2.0), 1 + 2j, np.complex64(1j), "text", (1, 2.5, "a"), ((1, 2), (3.0,)), math, cmath, np,
          operator, cuda, kjit, kt, math.sqrt, math.pi, cmath.exp, np.sqrt, np.add, np.empty, np.sum, abs, len, min,
          range, int, float, bool, complex, tuple, operator.add, np.float32, np.int64, np.complex128, np.bool_,
          np.dtype("f4"), np.dtype(">i8"), np.dtype("c16"), np.dtype("?"), kt.float32, kt.int64, kt.boolean,
          cuda.grid, cuda.syncthreads, cuda.shared, cuda.threadIdx, cuda.atomic, twice, host_function, prange,
          literal_unroll, Plain]
RARE = [Color, Color.RED, Level, Level.LOW, np.arange(3), ValueError, kt.float32[:], kt.UniTuple(kt.int64, 2),
        np.dtype([("a", "f8")]), Plain(), plain_function, np.generic, np.integer, np.dtype("U3"), cuda.laneid]


@pytest.mark.parametrize("value", COMMON, ids=lambda v: repr(v)[:40])
def test_the_cpp_classifier_answers_as_the_python_one(value):
    r = _Resolver(body)
    in_cpp = _kjit._classify_in_cpp(r, value)
    assert in_cpp is not None, f"{value!r} is classified in Python"
    assert in_cpp == r.classify(value)


def test_rare_values_are_left_to_the_python_classifier():
    r = _Resolver(body)
    for value in RARE:
        in_cpp = _kjit._classify_in_cpp(r, value)
        assert in_cpp is None or in_cpp == r.classify(value), value
    assert _kjit._classify_in_cpp(r, Color.RED) is None
    assert _kjit._classify_in_cpp(r, ValueError) is None


def test_a_subclass_of_the_resolver_is_asked_in_python():
    class Mine(_Resolver):
        def classify(self, v):
            return ("int", 7)

    assert _kjit._classify_in_cpp(Mine(body), 3) is None


def test_a_vectorize_ufunc_is_classified_as_its_scalar_function():
    from kjit import vectorize

    @vectorize(["float64(float64)"])
    def inc(x):
        return x + 1

    r = _Resolver(body)
    in_cpp = _kjit._classify_in_cpp(r, inc)
    if isinstance(inc, np.ufunc):
        assert in_cpp is not None and in_cpp[0] == "jit"
    assert in_cpp is None or in_cpp == r.classify(inc)
    assert _kjit._classify_in_cpp(r, np.sqrt) == ("function", "numpy.sqrt")
