"""The kernel object's API, launch checks, errors and exceptions as
numba-cuda has them.

- Exceptions in kernels follow Numba's rule: without ``debug=True`` a
  ``raise`` (a user's raise, a tuple index out of range, a division by zero
  under the Python error model) ends the thread without a report; with
  ``debug=True`` the launch raises the exception's own class (a user's class
  too), its message after "In function 'k', file F, line L, tid=[x, y, z]
  ctaid=[x, y, z]". Failed bounds checks are reported either way. On a GPU
  the failing thread records the exception in host memory and returns (no
  trap: the CUDA context survives); the runtime raises it at the next
  synchronisation (right after the launch for a debug kernel).
- ``launch_bounds`` with 1 to 3 values (PTX .maxntid, .minnctapersm,
  .maxclusterrank); the dispatcher's internals numba-cuda's tests use
  (``_compile_for_args`` and ``kjit.cuda.launchconfig``,
  ``_type_annotation``, ``compile_device``); declared device-function
  signatures; Numba's words in error messages.

Programs run on the CPU device and in the simulator (run_on_device); PTX is
checked with ptxas when it is installed; the GPU's launch path runs on the
fake driver (tests/python/fake_cuda)."""
import os
import pickle
import subprocess
import warnings

import numpy as np
import pytest
from conftest import find_ptxas

from kjit import _kjit, cuda, errors, float32, float64, int32, int64, jit, types, void
from kjit.cuda import launchconfig

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
gpu = pytest.mark.skipif(not _kjit.cuda_available(), reason="no CUDA GPU here")


_ptxas = find_ptxas


def assemble(ptx, tmp_path, arch="sm_90"):
    """ptxas accepts the PTX (skipped, never passed, without ptxas)."""
    ptxas = _ptxas()
    if not ptxas:
        pytest.skip("ptxas is not installed")
    src = tmp_path / "k.ptx"
    src.write_text(ptx)
    r = subprocess.run([ptxas, f"-arch={arch}", str(src), "-o", str(tmp_path / "k.cubin")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


# ---- exceptions in kernels: Numba's rule, on the CPU device and in the simulator ---------------

EXCEPTIONS = """
import numpy as np
from kjit import cuda

class MyError(Exception):
    pass

def user_raise(a, x):
    i = cuda.grid(1)
    if i == x:
        raise MyError("foo")
    a[i] = 1.0

def tuple_index(a):
    x = cuda.threadIdx.x
    if x == 2:
        a[0] = a.shape[-x]      # a 1-d array: index -2 is out of range
    a[x + 1] = 1.0

def divide(r, x, y):
    r[0] = y[0] / x[0]
    r[1] = y[0]

def report(what, f):
    try:
        f()
        print(what, "none")
    except Exception as e:
        print(what, type(e).__name__, "|", e, "|", getattr(e, "thread", None), getattr(e, "block", None))

debug = cuda.jit(debug=True, opt=False)
report("user", lambda: debug(user_raise)[2, 32](np.zeros(64), 37))
report("tuple", lambda: debug(tuple_index)[1, 3](np.zeros(4)))
r = np.zeros(2)
report("divide", lambda: debug(divide)[1, 1](r, np.zeros(1), np.ones(1)))
print("divide left", r.tolist())

a = np.zeros(64)
report("quiet user", lambda: cuda.jit(user_raise)[2, 32](a, 37))
print("quiet user left", a[36], a[37], a[38])
a = np.zeros(4)
report("quiet tuple", lambda: cuda.jit(tuple_index)[1, 3](a))
print("quiet tuple left", a.tolist())
r = np.zeros(2)
report("quiet divide", lambda: cuda.jit(divide)[1, 1](r, np.zeros(1), np.ones(1)))
print("quiet divide left", r.tolist())

@cuda.jit(device=True)
def checked(x):
    if x < 0:
        raise ValueError("negative")
    return x

@cuda.jit(debug=True)
def calls_device(a):
    a[0] = checked(a[1])

report("device function", lambda: calls_device[1, 1](np.array([0.0, -1.0])))

@cuda.jit(boundscheck=True)
def oob(a):
    a[cuda.threadIdx.x] = 1.0

report("bounds", lambda: oob[1, 8](np.zeros(5)))
"""


def _line(out, prefix):
    return next(ln for ln in out.splitlines() if ln.startswith(prefix + " "))


@pytest.mark.parametrize("device", ["cpu", "sim"])
def test_debug_kernels_raise_the_exception_with_numbas_words(run_on_device, device):
    out = run_on_device(EXCEPTIONS, device=device).stdout
    user = _line(out, "user")
    # The user's own class, its message after the thread's place, as Numba writes it.
    assert user.startswith("user MyError | In function 'user_raise', file "), user
    path = user.split("file ", 1)[1].split(",")[0]
    assert path.endswith(".py") and os.path.isabs(path)
    assert user.endswith(", line 11, tid=[5, 0, 0] ctaid=[1, 0, 0]: foo | (5, 0, 0) (1, 0, 0)"), user
    assert _line(out, "tuple").startswith(f"tuple IndexError | In function 'tuple_index', file {path}, line 17, "
                                          "tid=[2, 0, 0] ctaid=[0, 0, 0]: tuple index out of range")
    # debug=True is Python's error model: the division raises and the thread stops there. The simulator
    # divides with NumPy (errors raised), as Numba's simulator does: FloatingPointError.
    divide = _line(out, "divide")
    exc = "ZeroDivisionError" if device == "cpu" else "FloatingPointError"
    assert divide.startswith(f"divide {exc} | In function 'divide', file {path}, line 21, "), divide
    assert "divide left [0.0, 0.0]" in out
    assert _line(out, "device function").startswith(
        "device function ValueError | In function 'calls_device', file ") and ": negative |" in out
    assert _line(out, "bounds").startswith("bounds IndexError | In function 'oob', file ")
    assert "tid=[5, 0, 0] ctaid=[0, 0, 0]: index 5 is out of bounds for axis 0 with size 5" in out


def test_without_debug_a_raise_ends_the_thread_unreported(run_on_device):
    # Numba's rule on a GPU (and kjit's CPU device): the thread returns, the others go on.
    out = run_on_device(EXCEPTIONS, device="cpu").stdout
    assert "quiet user none" in out and "quiet user left 1.0 0.0 1.0" in out
    assert "quiet tuple none" in out and "quiet tuple left [0.0, 1.0, 1.0, 0.0]" in out
    # Without debug the error model is NumPy's: inf, and the thread goes on.
    assert "quiet divide none" in out and "quiet divide left [inf, 1.0]" in out


def test_the_simulator_raises_whatever_debug_says(run_on_device):
    # As Numba's simulator: exceptions in simulated threads are raised.
    out = run_on_device(EXCEPTIONS, device="sim").stdout
    assert _line(out, "quiet user").startswith("quiet user MyError | In function 'user_raise'")


# ---- exceptions in kernels: the GPU's code --------------------------------------------------------

class MyKernelError(Exception):
    pass


def test_debug_raise_records_and_returns_without_a_trap(tmp_path):
    @cuda.jit("void(int32, float64[::1])", debug=True)
    def k(x, a):
        if x == 1:
            raise MyKernelError("foo")
        a[0] = 1.0 / a[1]           # Python's error model: ZeroDivisionError
        a[2] = a.shape[x]           # IndexError: tuple index out of range

    ptx = k.inspect_ptx()
    assert "trap;" not in ptx
    for g in ("kjit_error_record", "kjit_error_claim", "kjit_error_files", "kjit_error_raises"):
        assert f" {g}" in ptx, g
    # The raise table: "Class:message" by number; a user's class by its module and name.
    table = ptx.split("kjit_error_raises[", 1)[1].split("{", 1)[1].split("}", 1)[0]
    text = bytes(int(b) for b in table.split(",")).decode()
    assert text.split("\0") == [f"{__name__}.MyKernelError:foo", "ZeroDivisionError:division by zero",
                                "IndexError:tuple index out of range"]
    assemble(ptx, tmp_path)


def test_without_debug_a_raise_is_a_plain_return(tmp_path):
    @cuda.jit("void(int32, float64[::1])")
    def k(x, a):
        if x == 1:
            raise ValueError("never reported")
        a[0] = 1.0

    ptx = k.inspect_ptx()
    assert "trap;" not in ptx and "kjit_error" not in ptx
    assemble(ptx, tmp_path)


FAKE_GPU = """
import numpy as np
from kjit import cuda
d = cuda.to_device(np.zeros(4))

@cuda.jit(debug=True)
def debug_kernel(a):
    a[0] = 1.0

try:
    debug_kernel[1, 32](d)        # a debug kernel: the launch waits and raises
    print("no raise")
except ValueError as e:
    print("launch:", type(e).__name__, e, e.thread, e.block)

@cuda.jit
def plain(a):
    a[0] = 1.0

plain[1, 32](d)                   # recorded again (the claim was cleared), reported at the next synchronisation
print("launched")
try:
    cuda.synchronize()
except ValueError as e:
    print("synchronize:", e)
cuda.synchronize()                # reported once
print("context alive:", d.copy_to_host().tolist())
"""


def test_recorded_exceptions_reach_python_on_the_gpu_launch_path(fake_driver, run_on_device):
    # The fake driver has every module hold an error record and has each launch record
    # raise 1 of its table, as a kernel's failing thread does.
    r = run_on_device(FAKE_GPU, device="cuda", env={
        "KJIT_CUDA_DRIVER": fake_driver, "FAKE_CUDA_RAISES": "ValueError:bad value;IndexError:x",
        "FAKE_CUDA_RAISE": "1"})
    out = r.stdout
    assert "launch: ValueError In function 'debug_kernel', file fake.py, line 7, tid=[3, 0, 0] " \
           "ctaid=[1, 0, 0]: bad value (3, 0, 0) (1, 0, 0)" in out, out
    assert "launched" in out and "synchronize: In function 'plain', file fake.py, line 7, " in out, out
    assert "context alive: [0.0, 0.0, 0.0, 0.0]" in out, out


def test_a_failed_bounds_check_is_reported_at_the_next_synchronisation(fake_driver, run_on_device):
    r = run_on_device("""
        import numpy as np
        from kjit import cuda
        @cuda.jit(boundscheck=True)
        def k(a):
            a[cuda.threadIdx.x] = 1.0
        d = cuda.to_device(np.zeros(5))
        k[1, 8](d)
        try:
            d.copy_to_host()
        except IndexError as e:
            print("copy:", e)
    """, device="cuda", env={"KJIT_CUDA_DRIVER": fake_driver, "FAKE_CUDA_RAISES": "", "FAKE_CUDA_RAISE": "0"})
    assert "copy: In function 'k', file fake.py, line 7, tid=[3, 0, 0] ctaid=[1, 0, 0]: index 9 is out of " \
           "bounds for axis 0 with size 5" in r.stdout, r.stdout


@gpu
def test_debug_raise_on_the_gpu():
    @cuda.jit(debug=True)
    def k(a, x):
        i = cuda.grid(1)
        if i == x:
            raise MyKernelError("foo")
        a[i] = 1.0

    a = cuda.to_device(np.zeros(64))
    with pytest.raises(MyKernelError, match=r"tid=\[5, 0, 0\] ctaid=\[1, 0, 0\]: foo"):
        k[2, 32](a, 37)
    k[2, 32](a, 100)  # the context goes on
    assert a.copy_to_host().sum() == 64


# ---- launch_bounds -------------------------------------------------------------------------------

@pytest.mark.parametrize("bounds, directives, absent", [
    (128, [".maxntid 128, 1, 1"], [".minnctapersm", ".maxclusterrank"]),
    ((128,), [".maxntid 128, 1, 1"], [".minnctapersm", ".maxclusterrank"]),
    ((128, 2), [".maxntid 128, 1, 1", ".minnctapersm 2"], [".maxclusterrank"]),
    ((128, 2, 4), [".maxntid 128, 1, 1", ".minnctapersm 2", ".maxclusterrank 4"], []),
])
def test_launch_bounds_are_ptx_directives(bounds, directives, absent, tmp_path):
    @cuda.jit("void()", launch_bounds=bounds)
    def f():
        pass

    ptx = f.inspect_ptx()
    for d in directives:
        assert d in ptx, d
    for d in absent:
        assert d not in ptx, d
    assemble(ptx, tmp_path)


def test_four_launch_bounds_are_refused():
    with pytest.raises(ValueError, match=r"Got 4 launch bounds: \(128, 2, 4, 8\)\. A maximum of three"):
        cuda.jit("void()", launch_bounds=(128, 2, 4, 8))(lambda: None)


def test_launching_more_threads_than_the_bound(run_on_device):
    # The driver refuses it (CUDA_ERROR_INVALID_VALUE); kjit checks first, on every device.
    r = run_on_device("""
        from kjit import cuda
        @cuda.jit(launch_bounds=128)
        def f():
            pass
        f[1, 128]()
        try:
            f[1, 256]()
        except cuda.LaunchConfigError as e:
            print(e.name, "|", e)
    """)
    assert "CUDA_ERROR_INVALID_VALUE | kernel 'f' on the CPU device: 256 threads per block (256 x 1 x 1) is " \
           "more than the limit of 128 for this kernel (its launch_bounds): CUDA_ERROR_INVALID_VALUE" in r.stdout


@pytest.mark.parametrize("device", ["cpu", "sim"])
def test_driver_errors_are_cuda_core_errors_for_numba_cuda_programs(run_on_device, device):
    # numba-cuda raises cuda.core's CUDAError; a program that imported it
    # catches kjit's driver errors with it (a stand-in module here).
    r = run_on_device("""
        import sys, types
        for name in ("cuda", "cuda.core", "cuda.core._utils", "cuda.core._utils.cuda_utils"):
            sys.modules[name] = types.ModuleType(name)
        class CUDAError(Exception):
            pass
        sys.modules["cuda.core._utils.cuda_utils"].CUDAError = CUDAError
        from kjit import cuda
        @cuda.jit(launch_bounds=128)
        def f():
            pass
        try:
            f[1, 256]()
        except CUDAError as e:
            assert isinstance(e, cuda.LaunchConfigError) and isinstance(e, ValueError), type(e).__mro__
            print("caught", type(e).__name__, e.name)
        import kjit.cuda.errors as ce
        assert ce.CUDAError is ce.CudaDriverError
    """, device=device)
    assert "caught LaunchConfigError CUDA_ERROR_INVALID_VALUE" in r.stdout


# ---- the dispatcher's internals ---------------------------------------------------------------------

def test_a_launch_that_compiles_calls_compile_for_args_under_its_configuration():
    @cuda.jit
    def f(x):
        x[0] = 1

    arr = np.zeros(1, dtype=np.int32)
    original = f._compile_for_args
    with launchconfig.capture_compile_config(f) as capture:
        f[1, 2](arr)
    cfg = capture["config"]
    assert cfg.dispatcher is f and cfg.griddim == (1, 1, 1) and cfg.blockdim == (2, 1, 1)
    assert "_compile_for_args" not in f.__dict__ and f._compile_for_args.__func__ is original.__func__
    assert launchconfig.current_launch_config() is None
    with pytest.raises(RuntimeError, match="No launch config set for this thread"):
        launchconfig.ensure_current_launch_config()
    # Compiled now: a launch compiles nothing, so nothing is captured.
    with launchconfig.capture_compile_config(f) as capture:
        f[1, 2](arr)
    assert capture["config"] is None
    assert f[1, 2].args is None


def test_mark_launch_config_sensitive():
    @cuda.jit
    def f(x):
        x[0] = 1

    orig = f._compile_for_args

    def wrapped(*args, **kws):
        launchconfig.ensure_current_launch_config().dispatcher.mark_launch_config_sensitive()
        return orig(*args, **kws)

    f._compile_for_args = wrapped
    f[1, 1](np.zeros(1, dtype=np.int32))
    assert next(iter(f.overloads.values())).launch_config_sensitive
    with pytest.raises(RuntimeError, match="must be called on the active dispatcher"):
        f.mark_launch_config_sensitive()


def test_type_annotation_gives_the_kernels_variables():
    @cuda.jit(void(int32[::1]))
    def f(x):
        s = cuda.shared.array(10, dtype="int32")
        t = (1, 2.5)
        s[0] = x[0]
        x[0] = s[0] + int32(t[0])

    typemap = next(iter(f.overloads.values()))._type_annotation.typemap
    assert typemap["s"].dtype == int32 and typemap["s"].ndim == 1
    assert str(typemap["t"]) == "Tuple(int64, float64)"


def test_compile_device_and_inspecting_device_functions():
    @cuda.jit(device=True)
    def foo(x, y):
        return x + y

    cres = foo.compile_device((int32, int32))
    assert "foo" in cres.fndesc.mangled_name
    assert cres.fndesc.mangled_name in foo.inspect_asm((int32, int32))
    assert cres.fndesc.mangled_name in foo.inspect_llvm((int32, int32))
    with pytest.raises(RuntimeError, match="Cannot inspect SASS of a device function"):
        foo.inspect_sass((int32, int32))
    with pytest.raises(RuntimeError, match="Cannot compile a device function as a kernel"):
        foo[1, 1]()


def add(x, y):
    return x + y


def test_declared_device_signatures_convert_the_arguments():
    def kernel_for(sigs):
        add_device = cuda.jit(sigs, device=True)(add)

        @cuda.jit
        def f(r, x, y):
            r[0] = add_device(x, y)
        return f

    f = kernel_for(["(int64, int64)"])
    r = np.zeros(1, dtype=np.int64)
    f[1, 1](r, 1.5, 2.5)             # converted to int64 (unsafely): 1 + 2
    assert r[0] == 3
    f = kernel_for(["(int64, int64)", "(float64, float64)"])
    r = np.zeros(1)
    f[1, 1](r, np.int32(1), 2.5)     # int32 -> float64 is safe
    assert r[0] == 3.5
    f = kernel_for(["(float32, float64)", "(float64, float32)"])
    f[1, 1](r, 1.5, 2.5)             # two alike: the first declared, as Numba
    assert r[0] == 4.0
    f = kernel_for(["(int64, int64)", "(float64, float64)"])
    with pytest.raises(errors.TypingError, match=r"Invalid use of type\(CUDADispatcher\(add\)\) with parameters "
                                                 r"\(complex128, complex128\)"):
        f[1, 1](np.zeros(1, np.complex128), 1j, 1j)


def test_a_jit_function_with_signatures_is_refused_in_kernels():
    @jit("(int32, int32)")
    def cpu_add(a, b):
        return a + b

    @cuda.jit
    def k(a):
        a[0] = cpu_add(a[0], 1)

    with pytest.raises(errors.TypingError, match="Untyped global name 'cpu_add':.*using cpu function on device"):
        k[1, 1](np.zeros(1, np.int32))


def test_constant_memory_of_print_formats_and_global_arrays(tmp_path):
    # Print formats live in constant memory, as Numba's do; the CPU device reports what a GPU's would hold.
    @cuda.jit
    def const_fmt_string(val, to_print):
        if to_print:
            print(val)

    const_fmt_string[1, 1](1, False)
    const_fmt_string[1, 1](1.0, False)
    sizes = const_fmt_string.get_const_mem_size()
    assert sizes[(int64, types.boolean)] >= 6                                                 # "%lld\n\0"
    assert const_fmt_string.get_const_mem_size(void(float64, types.boolean)) >= 4            # "%f\n\0"
    ptx = cuda.compile_ptx(const_fmt_string.py_func, "void(int64, boolean)")[0]
    assert ".const .align 1 .b8" in ptx and "cvta.const" in ptx
    assemble(ptx, tmp_path)

    arr = np.arange(32, dtype=np.int64)

    @cuda.jit(void(int64[::1]))
    def const_array_use(x):
        c = cuda.const.array_like(arr)
        x[cuda.grid(1)] = c[cuda.grid(1)]

    assert const_array_use.get_const_mem_size() >= arr.nbytes


# ---- Numba's words in error messages -----------------------------------------------------------------

def noop(x):
    pass


def test_launch_configuration_messages():
    k = cuda.jit(noop)
    with pytest.raises(ValueError, match=r"griddim must be a sequence of 1, 2 or 3 integers, got \[1, 2, 3, 4\]"):
        k[(1, 2, 3, 4), (5, 6)]
    with pytest.raises(ValueError, match=r"blockdim must be a sequence of 1, 2 or 3 integers, got \[3, 4, 5, 6\]"):
        k[(1, 2), (3, 4, 5, 6)]
    with pytest.raises(TypeError, match=r"griddim must be a sequence of integers, got \[2\.0\]") as ei:
        k[2.0, 3]
    assert isinstance(ei.value, cuda.LaunchConfigError)  # kjit's class, a ValueError too
    with pytest.raises(TypeError, match=r"blockdim must be a sequence of integers, got \[3\.0\]"):
        k[2, 3.0]
    with pytest.raises(ValueError, match=r"launch configuration was not specified: a kernel is launched as "
                                         r"noop\[blocks, threads\]"):
        k(0)
    with pytest.raises(ValueError, match="Can't create ForAll with negative task count"):
        k.forall(-1)
    cuda.jit(lto=True)(noop)[1, 1](0)  # accepted and ignored: one module, no link-time optimisation to do


def test_a_name_undefined_in_a_device_function():
    @cuda.jit(device=True)
    def dev_func(x):
        return floor(x)  # noqa: F821 - not imported, on purpose

    @cuda.jit
    def kernel_func():
        dev_func(1.5)

    with pytest.raises(errors.TypingError) as ei:
        kernel_func[1, 1]()
    text = str(ei.value)
    assert "NameError: name 'floor' is not defined" in text
    assert "resolving callee type: type(CUDADispatcher(<function dev_func>)), called here" in text
    assert f"{__file__}:" in text  # still kjit's located form


def test_shared_array_shape_and_dtype_messages():
    def non_constant(A):
        sa = cuda.shared.array(shape=(1, A[0]), dtype=float32)
        A[0, 0] = sa[0, 0]

    with pytest.raises(errors.TypingError) as ei:
        cuda.jit((float32[:, :],))(non_constant)
    assert "No implementation of function Function(<function shared.array" in str(ei.value)
    assert "found for signature:\n \n >>> array(shape=Tuple(Literal[int](1), array(float32, 1d, A)), " \
           "dtype=class(float32))" in str(ei.value)
    assert "must be a constant integer or a tuple of constant integers" in str(ei.value)

    def bad_dtype(x):
        s = cuda.shared.array(10, dtype="int33")
        s[0] = x[0]

    with pytest.raises(errors.TypingError, match="Invalid NumPy dtype specified: 'int33'"):
        cuda.jit(void(int32[::1]))(bad_dtype)


LITERAL_LOCALS = """
import numpy as np
from kjit import cuda, int32, float32

TPB = 16

@cuda.jit
def kernel(out):
    N = 100              # assigned once: Numba types it Literal[int](100)
    M = N                # so is a copy of it
    shape = (TPB, 4)     # a tuple of a global constant and a literal
    sm = cuda.shared.array(N, int32)
    tile = cuda.shared.array(shape, float32)
    loc = cuda.local.array((M, 2), int32)
    i = cuda.grid(1)
    if i == 0:
        for j in range(N):
            sm[j] = j
        loc[M - 1, 1] = 7
        tile[TPB - 1, 3] = 1.5
    cuda.syncthreads()
    if i == 0:
        out[0] = sm[10] + sm[N - 1] + loc[M - 1, 1] + tile[TPB - 1, 3]
        t = (1, 2.5)
        k = 1            # a literal index into a heterogeneous tuple
        out[1] = t[k]
        n = 8
        n = 2 * n        # two assignments, two variables (as Numba's SSA)
        out[2] = n

out = np.zeros(3)
kernel[1, 32](out)
assert out.tolist() == [10 + 99 + 7 + 1.5, 2.5, 16.0], out
print("ok")
"""


@pytest.mark.parametrize("device", ["cpu", "sim", None], ids=["cpu", "sim", "default"])
def test_a_local_assigned_a_constant_once_is_a_constant(run_on_device, device):
    # Numba types `N = 100` as a literal when N has one definition, so a
    # shared or local array's shape may be such a variable.
    assert run_on_device(LITERAL_LOCALS, device=device).stdout.strip() == "ok"


def test_a_local_changed_in_a_loop_or_read_from_an_argument_is_not_a_shape():
    def from_argument(out, n):
        m = n
        sm = cuda.shared.array(m, int32)
        out[0] = sm[0]

    def grown_in_a_loop(out):
        m = 4
        for _ in range(3):
            m += 1
        sm = cuda.shared.array(m, int32)
        out[0] = sm[0]

    def negative(out):
        n = -5
        sm = cuda.shared.array(n, int32)
        out[0] = sm[0]

    with pytest.raises(errors.TypingError, match="the dimensions of cuda.shared.array\\(\\) must be "
                                                   "positive \\(a shape of 0 alone is dynamic shared memory"):
        cuda.jit((int32[::1],))(negative)
    for fn, sig in ((from_argument, (int32[::1], int64)), (grown_in_a_loop, (int32[::1],))):
        with pytest.raises(errors.TypingError) as ei:
            cuda.jit(sig)(fn)
        assert ">>> array(shape=int64, dtype=class(int32))" in str(ei.value)
        assert "a variable assigned one once), not int64" in str(ei.value)

def add_kernel(r, x, y):
    r[0] = x + y


def test_ambiguous_overloads_in_numbas_words():
    f = cuda.jit(["(float64[::1], float32, float64)", "(float64[::1], float64, float32)",
                  "(float64[::1], int64, int64)"])(add_kernel)
    with pytest.raises(TypeError) as ei:
        f[1, 1](np.zeros(1), 1.0, 2.0)
    assert str(ei.value).startswith(
        "Ambiguous overloading for <function add_kernel (a kernel)> (Array(float64, 1, 'C', False, aligned=True), "
        "float64, float64):\n(Array(float64, 1, 'C', False, aligned=True), float32, float64) -> none\n"
        "(Array(float64, 1, 'C', False, aligned=True), float64, float32) -> none\n")


def test_cuda_vectorize_options():
    from kjit import vectorize

    with pytest.raises(KeyError, match="Unrecognized options"):
        vectorize(["float32(float32, float32)"], target="cuda", nonexistent=2)(add)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        vectorize(["float32(float32, float32)"], target="cuda", nopython=True)(add)
    assert [(w.category, str(w.message)) for w in caught] == [
        (RuntimeWarning, "nopython kwarg for cuda target is redundant")]


def test_low_occupancy_warning():
    from kjit import config

    @cuda.jit
    def fill(a):
        a[cuda.grid(1)] = 1.0

    a = cuda.to_device(np.zeros(128 * 32))
    with pytest.warns(errors.NumbaPerformanceWarning, match="Grid size 4 will likely result in GPU under-utilization "
                                                            "due to low occupancy"):
        fill[4, 32]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fill[128, 32](a)                # 128 blocks: no warning
        saved, config.CUDA_LOW_OCCUPANCY_WARNINGS = config.CUDA_LOW_OCCUPANCY_WARNINGS, 0
        try:
            fill[2, 64]
        finally:
            config.CUDA_LOW_OCCUPANCY_WARNINGS = saved


def test_devices_and_configured_launches():
    assert cuda.get_current_device().supports_float16
    assert len(cuda.gpus.lst) == len(cuda.gpus) >= 1

    @cuda.jit
    def foo(arr):
        arr[0] += 1

    cfg = foo[5, 8]
    seen = []
    cfg.pre_launch_callbacks.append(lambda kernel, launch: seen.append((kernel, launch)))
    a = cuda.to_device(np.zeros(1))
    cfg(a)
    assert seen == [(foo, cfg)]
    with pytest.raises(pickle.PicklingError, match="Cannot pickle configured launches with pre-launch callbacks"):
        pickle.dumps(cfg)
    cfg.pre_launch_callbacks.clear()
    # Without callbacks a configured launch pickles as kernel[configuration].
    assert (cfg.griddim, cfg.blockdim, cfg.sharedmem, cfg.stream) == ((5, 1, 1), (8, 1, 1), 0, 0)
    again = pickle.loads(pickle.dumps(cfg))
    assert (again.griddim, again.blockdim) == ((5, 1, 1), (8, 1, 1))

    @cuda.jit
    def mark(out):
        out[cuda.grid(1)] = 1

    launch = pickle.loads(pickle.dumps(mark[5, 8]))
    out = np.zeros(40)
    launch(out)
    assert out.sum() == 40


# ---- other libraries' arrays (__cuda_array_interface__) ------------------------------------------------

class Foreign:
    """Another library's device array: only its __cuda_array_interface__."""

    def __init__(self, arr):
        self._arr = arr

    @property
    def __cuda_array_interface__(self):
        return self._arr.__cuda_array_interface__


def test_mapped_and_managed_arrays_export_their_stream():
    s = cuda.stream()
    assert cuda.mapped_array(10).__cuda_array_interface__["stream"] is None
    assert cuda.mapped_array(10, stream=s).__cuda_array_interface__["stream"] == int(s.handle)
    assert cuda.managed_array(10, stream=s).__cuda_array_interface__["stream"] == int(s.handle)
    assert cuda.device_array(10, stream=s).__cuda_array_interface__["stream"] == int(s.handle)


def test_cuda_ufuncs_take_other_librarys_arrays():
    from kjit import vectorize

    @vectorize(["f8(f8, f8)"], target="cuda")
    def vadd(a, b):
        return a + b

    h = np.arange(10.0)
    np.testing.assert_array_equal(vadd(Foreign(cuda.to_device(h)), 6).copy_to_host(), h + 6)
    out = vadd(h, 1.0, out=Foreign(cuda.device_array(h.shape)))
    np.testing.assert_array_equal(out.copy_to_host(), h + 1)


def test_cpu_device_launches_take_other_librarys_arrays(run_on_device):
    # As Numba's consumers: a stream the producer names is synchronised first
    # (unless config.CUDA_ARRAY_INTERFACE_SYNC is 0).
    r = run_on_device("""
        from unittest.mock import patch
        import numpy as np
        from kjit import config, cuda

        class Foreign:
            def __init__(self, arr):
                self._arr = arr
            @property
            def __cuda_array_interface__(self):
                return self._arr.__cuda_array_interface__

        @cuda.jit
        def fill(x, y):
            x[0] = 1.0
            y[0] = 2.0

        s1, s2 = cuda.stream(), cuda.stream()
        a, b = cuda.device_array(4, stream=s1), cuda.device_array(4, stream=s2)
        with patch.object(cuda.cudadrv.driver.Stream, "synchronize", return_value=None) as sync:
            fill[1, 1](Foreign(a), Foreign(b))
        print("syncs", sync.call_count, a.copy_to_host()[0], b.copy_to_host()[0])
        config.CUDA_ARRAY_INTERFACE_SYNC = 0
        with patch.object(cuda.cudadrv.driver.Stream, "synchronize", return_value=None) as sync:
            fill[1, 1](Foreign(a), Foreign(b))
        print("syncs off", sync.call_count)
        with patch.object(cuda.cudadrv.driver.Stream, "synchronize", return_value=None) as sync:
            fill[1, 1](Foreign(cuda.device_array(4)), Foreign(cuda.device_array(4)))
        print("no streams", sync.call_count)
        empty = Foreign(cuda.device_array(0))
        @cuda.jit
        def nothing(x):
            pass
        nothing[1, 1](empty)
        print("empty ok")
    """)
    assert "syncs 2 1.0 2.0" in r.stdout and "syncs off 0" in r.stdout and "no streams 0" in r.stdout
    assert "empty ok" in r.stdout


def test_device_array_setitem_synchronizes_only_without_a_stream(run_on_device, fake_driver):
    # Numba's rule: `darr[k] = v` runs on the default stream and waits for it;
    # `darr.setitem(k, v, stream=s)` is queued on s and does not wait.
    r = run_on_device("""
        import numpy as np
        from unittest.mock import patch
        from kjit import cuda

        darr = cuda.to_device(np.arange(5))
        with patch.object(cuda.cudadrv.driver.Stream, "synchronize", return_value=None) as waited:
            darr[0] = 10
        waited.assert_called_once()
        for s in (cuda.stream(), cuda.default_stream(), cuda.legacy_default_stream(),
                  cuda.per_thread_default_stream()):
            with patch.object(cuda.cudadrv.driver.Stream, "synchronize", return_value=None) as waited:
                darr.setitem(1, 20, stream=s)
            waited.assert_not_called()
        darr[2:4] = 7
        assert darr.copy_to_host().tolist() == [10, 20, 7, 7, 4]
        print("setitem ok")
    """, device="cuda", env={"KJIT_CUDA_DRIVER": fake_driver})
    assert "setitem ok" in r.stdout


def test_gpu_device_arrays_follow_numbas_layout_and_copy_rules(run_on_device, fake_driver):
    # On the GPU launch path (the fake driver's memory is host memory).
    r = run_on_device("""
        import numpy as np
        from kjit import cuda
        from kjit.cuda.cudadrv import devicearray

        # NumPy's flags: an axis of length 1 has any stride.
        for shape in ((1, 4), (4, 1)):
            for order in "CF":
                a = np.ndarray(shape, order=order)
                d = cuda.to_device(a)
                assert (d.flags["C_CONTIGUOUS"], d.flags["F_CONTIGUOUS"]) == \\
                    (a.flags.c_contiguous, a.flags.f_contiguous), (shape, order)
        wide = devicearray.DeviceNDArray((1, 10), (800, 8), np.float64)
        assert wide.flags["C_CONTIGUOUS"] and wide.flags["F_CONTIGUOUS"]

        # A broadcast array stays broadcast on the device (layout A, stride 0).
        b = cuda.to_device(np.broadcast_to(np.array([7]), (10,)))
        assert b.strides == (0,) and b._numba_type_.layout == "A"
        assert b.copy_to_host().tolist() == [7] * 10

        # Copies need one block of memory and, between device arrays, equal strides.
        f = cuda.to_device(np.arange(25).reshape(5, 5, order="F"))
        for bad in (lambda: f[2].copy_to_device(np.full(5, 5)),
                    lambda: cuda.to_device(np.arange(20)).copy_to_device(cuda.to_device(np.arange(20))[::2])):
            try:
                bad()
                raise AssertionError("copied")
            except ValueError as e:
                assert str(e) == devicearray.errmsg_contiguous_buffer, e
        c = np.arange(125).reshape(5, 5, 5)
        try:
            cuda.to_device(c).copy_to_device(cuda.to_device(np.asfortranarray(c)))
            raise AssertionError("copied")
        except ValueError as e:
            assert str(e) == f"incompatible strides: {c.strides} vs. {np.asfortranarray(c).strides}", e

        # Shapes are integers.
        for shape in (np.array([1.1]), [1.1], (1.1, 2.2)):
            try:
                cuda.device_array(shape=shape)
                raise AssertionError("made")
            except TypeError:
                pass
        print("rules ok")
    """, device="cuda", env={"KJIT_CUDA_DRIVER": fake_driver})
    assert "rules ok" in r.stdout


ZERO_D_ON_THE_GPU_PATH = """
import numpy as np
from kjit import cuda

@cuda.jit
def k(out, x, total):
    if cuda.grid(1) == 0:
        out[()] = x[0] + total[()]

out = np.array(1.5)                      # a NumPy 0-d array: copied in and back
total = cuda.to_device(np.zeros(()))     # a 0-d device array
k[1, 1](out, np.arange(3.0), total)
k[1, 1](out, np.arange(3.0), total)      # the launcher cached for these types
print("launched", total.shape, total.copy_to_host().shape)
"""


def test_zero_dimensional_arrays_take_the_gpu_launch_path(run_on_device, fake_driver, tmp_path):
    # The launch path of a GPU (on the fake driver, which runs no kernel):
    # 0-d NumPy and device arrays are marshalled as their data pointer.
    log = tmp_path / "calls.log"
    r = run_on_device(ZERO_D_ON_THE_GPU_PATH, device="cuda",
                      env={"KJIT_CUDA_DRIVER": fake_driver, "FAKE_CUDA_LOG": str(log)})
    assert "launched () ()" in r.stdout
    calls = [c.split()[0] for c in log.read_text().splitlines()]
    assert calls.count("cuLaunchKernel") == 2, calls


def test_the_ptx_of_a_zero_dimensional_argument(tmp_path):
    def k(out, x):
        out[()] = x[()] * 2

    ptx, _ = cuda.compile_ptx(k, "void(float64[], float64[])", cc=(9, 0))
    entry = ptx[ptx.index(".entry"):ptx.index(")", ptx.index(".entry"))]
    assert entry.count(".param") == 2, entry  # a data pointer each: no shape, no strides
    ptxas = _ptxas()
    if ptxas is None:
        pytest.skip("ptxas is not installed: the PTX was checked, not assembled")
    path = tmp_path / "k.ptx"
    path.write_text(ptx)
    r = subprocess.run([ptxas, "-arch=sm_90", str(path), "-o", str(tmp_path / "k.o")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
