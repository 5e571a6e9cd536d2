"""kjit.cuda through the Python API: @cuda.jit kernels and device functions
compile to PTX (eagerly with signature strings or kjit types, lazily with
.compile), cuda.compile_ptx returns (ptx, return type), the seed kernels of
Numba's CUDA documentation compile and their PTX assembles with ptxas (when
ptxas is installed: otherwise those tests are skipped, never passed), compile
errors are kjit.errors exceptions with the right line, and what needs a GPU
(launching, calling a device function from Python) raises clearly."""
import inspect
import re
import math
import os
import shutil
import subprocess
import textwrap

import numpy as np
import pytest

import kjit
from kjit import _kjit, cuda, errors, float16, float32, float64, int32, int64, uint32
from conftest import assemble, find_ptxas

HERE = os.path.abspath(__file__)


PTXAS = find_ptxas()


def flat(ptx):
    """PTX with each run of spaces and tabs made one space (ptxas's
    formatting separates operands with tabs)."""
    return "\n".join(" ".join(line.split()) for line in ptx.splitlines())


def line_of(fn, marker):
    """The file line of the first line of `fn`'s source containing `marker`."""
    fn = getattr(fn, "py_func", fn)
    lines, first = inspect.getsourcelines(fn)
    for k, text in enumerate(lines):
        if marker in text:
            return first + k
    raise AssertionError(f"{marker!r} is not in the source of {fn.__name__}")


# ---- the seed kernels ---------------------------------------------------------

TPB = 16
THREADS = 128


def add_kernel(x, y, out):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        out[i] = x[i] + y[i]


def increment_a_2D_array(an_array):
    x, y = cuda.grid(2)
    if x < an_array.shape[0] and y < an_array.shape[1]:
        an_array[x, y] += 1


def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = a * x[i] + y[i]


def fast_matmul(A, B, C):
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    bpg = cuda.gridDim.x
    tmp = float32(0.)
    for i in range(bpg):
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and (tx + i * TPB) < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * TPB]
        if x < B.shape[1] and (ty + i * TPB) < B.shape[0]:
            sB[ty, tx] = B[ty + i * TPB, x]
        cuda.syncthreads()
        for j in range(TPB):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp


def histogram(x, xmin, xmax, histogram_out):
    nbins = histogram_out.shape[0]
    bin_width = (xmax - xmin) / nbins
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        bin_number = int32((x[i] - xmin) / bin_width)
        if bin_number >= 0 and bin_number < histogram_out.shape[0]:
            cuda.atomic.add(histogram_out, bin_number, 1)


def block_sum(a, partial):
    tmp = cuda.shared.array(THREADS, dtype=float32)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    tmp[tid] = 0
    if i < a.shape[0]:
        tmp[tid] = a[i]
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if tid < s:
            tmp[tid] += tmp[tid + s]
        cuda.syncthreads()
        s //= 2
    if tid == 0:
        partial[cuda.blockIdx.x] = tmp[0]


@cuda.jit(device=True)
def rel_diff(x, y):
    return abs(x - y) / (abs(x) + abs(y))


def rel_diff_kernel(x, y, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = rel_diff(x[i], y[i])


# name, function, signature, fragments the PTX must contain
SEEDS = [
    ("add_kernel", add_kernel, "void(float32[:], float32[:], float32[:])",
     ["%tid.x", "%ctaid.x", "%ntid.x", "%nctaid.x", "ld.global.f32", "st.global.f32"]),
    ("increment_a_2D_array", increment_a_2D_array, "void(float32[:, :])",
     ["%tid.y", "%ctaid.y", "%ntid.y", "ld.global.f32", "st.global.f32"]),
    ("saxpy", saxpy, "void(float32, float32[::1], float32[::1], float32[::1])",
     [".param .f32 saxpy_param_0", "fma.rn.f32"]),
    ("fast_matmul", fast_matmul, "void(float32[:, :], float32[:, :], float32[:, :])",
     [".shared .align 16 .b8", "[1024]", "bar.sync 0", "ld.shared.f32", "st.shared.f32"]),
    ("histogram", histogram, "void(float32[:], float32, float32, int32[:])",
     [".global.add.u32"]),
    ("block_sum", block_sum, "void(float32[:], float32[:])",
     ["[512]", "bar.sync 0", "ld.shared.f32", "st.shared.f32"]),
    ("rel_diff_kernel", rel_diff_kernel, "void(float32[:], float32[:], float32[:])",
     ["abs.f32", "div.rn.f32"]),
]


@pytest.mark.parametrize("name,fn,sig,fragments", SEEDS, ids=[s[0] for s in SEEDS])
def test_seed_kernel_compiles(name, fn, sig, fragments):
    k = cuda.jit(sig)(fn)
    assert k.signatures == [sig]
    ptx = flat(k.inspect_ptx())
    assert f".visible .entry {name}(" in ptx
    assert ".target sm_90" in ptx
    for f in fragments:
        assert f in ptx, f"{f!r} not in the PTX of {name}"
    assert ".extern" not in ptx


@pytest.mark.parametrize("name,fn,sig,fragments", SEEDS, ids=[s[0] for s in SEEDS])
def test_seed_kernel_ptx_assembles(name, fn, sig, fragments, tmp_path):
    k = cuda.jit(sig)(fn)
    assemble(k.inspect_ptx(), tmp_path, name=name)


def test_histogram_atomic_add():
    k = cuda.jit("void(float32[:], float32, float32, int32[:])")(histogram)
    ptx = flat(k.inspect_ptx())
    assert "atom.global.add.u32" in ptx or "red.global.add.u32" in ptx


def test_matmul_two_barriers():
    k = cuda.jit("void(float32[:, :], float32[:, :], float32[:, :])")(fast_matmul)
    ptx = flat(k.inspect_ptx())
    assert ptx.count("bar.sync 0;") == 2
    assert ptx.count(".shared .align 16 .b8") == 2


# ---- signatures: strings, kjit types, lists, lazy ------------------------------------

def test_signature_string_compiles_eagerly():
    @cuda.jit("void(float32[:], float32[:])")
    def copy(a, b):
        i = cuda.grid(1)
        if i < a.shape[0]:
            b[i] = a[i]

    assert copy.signatures == ["void(float32[:], float32[:])"]
    ptx = copy.inspect_ptx()
    assert ".visible .entry copy(" in ptx
    assert ptx == copy.inspect_ptx("void(float32[:], float32[:])")


def test_kjit_type_signature_compiles_eagerly():
    @cuda.jit(kjit.void(float32[:], int32))
    def fill(a, v):
        a[cuda.grid(1)] = v

    assert len(fill.signatures) == 1
    ptx = fill.inspect_ptx()
    assert ".visible .entry fill(" in ptx
    assert ".param .u32 fill_param_3" in ptx  # after the array's pointer, extent and stride


def test_several_signatures():
    @cuda.jit(["void(float32[:])", "void(float64[:])"])
    def twice(a):
        i = cuda.grid(1)
        a[i] = a[i] + a[i]

    assert twice.signatures == ["void(float32[:])", "void(float64[:])"]
    assert "ld.global.f32" in twice.inspect_ptx("void(float32[:])")
    assert "ld.global.f64" in twice.inspect_ptx("void(float64[:])")
    with pytest.raises(ValueError, match="name one"):
        twice.inspect_ptx()


def test_lazy_compile():
    @cuda.jit
    def negate(a):
        i = cuda.grid(1)
        a[i] = -a[i]

    assert negate.signatures == []
    ptx = negate.compile("void(int64[:])")
    assert ".visible .entry negate(" in ptx
    assert negate.signatures == ["void(int64[:])"]
    assert negate.inspect_ptx() == ptx


def test_compute_capability():
    @cuda.jit
    def k(a):
        a[0] = 1

    assert ".target sm_80" in k.compile("void(int32[:])", cc=(8, 0))
    ptx, _ = cuda.compile_ptx(k.py_func, "void(int32[:])", cc=(7, 5))
    assert ".target sm_75" in ptx


def test_inspect_types_and_llvm(capsys):
    @cuda.jit("void(float32[:])")
    def k(a):
        a[0] = cuda.threadIdx.x

    k.inspect_types()
    out = capsys.readouterr().out
    assert "threadIdx" in out and "int32" in out
    irs = k.inspect_llvm()                     # as Numba's: a dict by argument types
    assert list(irs) == [(float32[:],)]
    assert "llvm.nvvm.read.ptx.sreg.tid.x" in irs[(float32[:],)]
    assert "llvm.nvvm.read.ptx.sreg.tid.x" in k.inspect_llvm((float32[:],))
    assert list(k.inspect_asm()) == [(float32[:],)]
    with pytest.raises(RuntimeError, match="LTO is not enabled"):
        k.inspect_lto_ptx()


def test_inspect_lto_ptx_is_the_whole_program_ptx():
    # kjit compiles a kernel and the device functions it calls as one
    # module, so its PTX is the link-time-optimised program: the device
    # function is inlined and its float16 arithmetic is in the kernel.
    @cuda.jit(device=True)
    def twice(x):
        return cuda.fp16.hadd(x, x)

    @cuda.jit("void(float16[:], float16)", lto=True)
    def k(a, b):
        a[0] = twice(b)

    ptx = k.inspect_lto_ptx((float16[:], float16))
    assert ".visible .entry" in ptx
    assert "add.f16" in ptx
    assert "call.uni" not in ptx  # nothing left to link
    assert list(k.inspect_lto_ptx()) == [(float16[:], float16)]


# ---- compile_ptx and device functions ----------------------------------------------

def mul_add(x, y):
    return x * y + x


def test_compile_ptx_device_function(tmp_path):
    ptx, resty = cuda.compile_ptx(mul_add, (float32, float32), device=True)
    assert resty is kjit.float32
    assert ".visible .func" in ptx
    assert "mul_add(" in ptx
    assert ".entry" not in ptx
    assemble(ptx, tmp_path, relocatable=True, name="mul_add")


def test_compile_ptx_device_function_string_signature():
    ptx, resty = cuda.compile_ptx(mul_add, "float64(float64, float64)", device=True)
    assert resty is kjit.float64
    assert ".visible .func" in ptx


def test_compile_ptx_kernel(tmp_path):
    ptx, resty = cuda.compile_ptx(saxpy, "void(float32, float32[::1], float32[::1], float32[::1])")
    assert resty is kjit.void
    assert ".visible .entry saxpy(" in ptx
    assemble(ptx, tmp_path, name="saxpy")


def test_compile_ptx_fastmath():
    def divide(a, b, out):
        i = cuda.grid(1)
        out[i] = a[i] / b[i]

    sig = "void(float32[:], float32[:], float32[:])"
    precise, _ = cuda.compile_ptx(divide, sig)
    fast, _ = cuda.compile_ptx(divide, sig, fastmath=True)
    assert "div.rn.f32" in precise
    assert "div.approx.ftz.f32" in fast
    assert "div.rn.f32" not in fast
    # a @cuda.jit(fastmath=True) kernel keeps its option in compile_ptx
    # (max() of floats then one max.ftz.f32, exp2 ex2.approx.ftz)
    def softmaxish(a, out):
        i = cuda.grid(1)
        out[i] = math.exp2(max(a[i], out[i]))

    sig = "void(float32[:], float32[:])"
    fast, _ = cuda.compile_ptx(cuda.jit(fastmath=True)(softmaxish), sig)
    precise, _ = cuda.compile_ptx(cuda.jit(softmaxish), sig)
    assert "max.ftz.f32" in fast and "ex2.approx.ftz.f32" in fast
    assert "max.ftz.f32" not in precise and "ex2.approx.f32" in precise


@cuda.jit(device=True)
def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


@cuda.jit(device=True)
def clamp_add(x, y):
    return clamp(x + y, float32(0), float32(1))


def test_kernel_calls_device_function(tmp_path):
    @cuda.jit("void(float32[:], float32[:])")
    def k(a, out):
        i = cuda.grid(1)
        if i < a.shape[0]:
            out[i] = clamp_add(a[i], a[i])

    ptx = k.inspect_ptx()
    assert ".visible .entry k(" in ptx
    # The device functions are compiled with the kernel and inlined.
    assert ".func" not in ptx
    assert "call" not in ptx
    assemble(ptx, tmp_path, name="k")


def test_device_function_is_not_launchable():
    assert clamp.device
    assert "device function" in repr(clamp)
    with pytest.raises(RuntimeError, match="device function"):
        clamp(0.5, 0.0, 1.0)
    with pytest.raises(RuntimeError, match="Cannot compile a device function as a kernel: clamp is a device function"):
        clamp[1, 1]


def test_const_array_like(tmp_path):
    @cuda.jit("void(float32[:])")
    def lookup(out):
        table = cuda.const.array_like(LUT)
        t = cuda.threadIdx.x
        out[t] = table[t % 16]

    ptx = lookup.inspect_ptx()
    # The 16 float32 values are in the module, 64 bytes.
    assert "[64] = {0, 0, 0, 0, 0, 0, 128, 63," in ptx
    assemble(ptx, tmp_path, name="lookup")


LUT = np.arange(16, dtype=np.float32)


# ---- compile errors --------------------------------------------------------------

def returns_value(a):
    i = cuda.grid(1)
    a[i] = a[i] + a[i]
    return a[i]


def allocates(a):
    tmp = np.empty(10, np.float32)
    a[0] = tmp[0]


def grid4(a):
    i = cuda.grid(4)
    a[0] = i


def thread_w(a):
    a[0] = cuda.threadIdx.w


def inc_int32(a):
    cuda.atomic.inc(a, 0, 1)


def shared_from_argument(a, n):
    s = cuda.shared.array(n, dtype=float32)
    s[0] = a[0]


def test_kernel_returning_value_is_a_typing_error():
    k = cuda.jit(returns_value)
    with pytest.raises(errors.TypingError) as ei:
        k.compile("(float32[:],)")
    e = ei.value
    assert e.msg.startswith("a kernel cannot return a value (this one returns float32)")
    assert e.filename == HERE
    assert e.lineno == line_of(returns_value, "return a[i]")


def test_void_signature_with_return_value_is_a_typing_error():
    with pytest.raises(errors.TypingError) as ei:
        cuda.jit("void(float32[:])")(returns_value)
    assert ei.value.lineno == line_of(returns_value, "return a[i]")


def test_allocation_in_kernel_is_unsupported():
    with pytest.raises(errors.UnsupportedError) as ei:
        cuda.jit("void(float32[:])")(allocates)
    e = ei.value
    assert e.msg.startswith("np.empty() allocates memory, which kernels cannot do")
    assert e.lineno == line_of(allocates, "np.empty")
    assert "tmp = np.empty(10, np.float32)" in str(e)


@pytest.mark.parametrize("fn,sig,marker,message", [
    (grid4, "void(int32[:])", "cuda.grid(4)", "cuda.grid() takes a constant 1, 2 or 3"),
    (thread_w, "void(int32[:])", "threadIdx.w", "cuda.threadIdx has no attribute 'w'; use x, y or z"),
    (inc_int32, "void(int32[:])", "atomic.inc",
     "cuda.atomic.inc() does not support int32 arrays; it supports uint32 and uint64"),
    (shared_from_argument, "void(float32[:], int64)", "shared.array",
     "No implementation of function Function(<function shared.array>) found for signature:\n \n "
     ">>> array(shape=int64, dtype=class(float32))\n \n"  # Numba's words, then kjit's
     "the shape of cuda.shared.array() must be a constant integer or a tuple of constant integers "
     "(a literal, a global constant, or a variable assigned one once), not int64"),
], ids=["grid4", "threadIdx.w", "atomic.inc-int32", "shared-shape"])
def test_typing_errors(fn, sig, marker, message):
    with pytest.raises(errors.TypingError) as ei:
        cuda.jit(sig)(fn)
    e = ei.value
    assert e.msg == message
    assert e.filename == HERE
    assert e.lineno == line_of(fn, marker)


def test_error_does_not_poison_later_compiles():
    with pytest.raises(errors.TypingError):
        cuda.jit("void(int32[:])")(grid4)
    k = cuda.jit("void(float32[:], float32[:], float32[:])")(add_kernel)
    assert ".visible .entry add_kernel(" in k.inspect_ptx()


# ---- what needs a GPU ----------------------------------------------------------------

no_gpu = pytest.mark.skipif(_kjit.cuda_available(), reason="a CUDA GPU is present")


@no_gpu
def test_without_gpu_cuda_device_raises_cuda_support_error():
    """KJIT_DEVICE=cuda where there is no GPU: no fallback to the CPU
    device; launches and device queries raise CudaSupportError."""
    import subprocess
    import sys
    import tempfile
    code = textwrap.dedent("""
        import numpy as np
        from kjit import cuda, errors

        @cuda.jit("void(float32[:], float32[:], float32[:])")
        def add_kernel(x, y, out):
            i = cuda.grid(1)
            if i < x.shape[0]:
                out[i] = x[i] + y[i]

        print("available", cuda.is_available())
        x = np.ones(8, np.float32)
        try:
            add_kernel[1, 32](x, x, np.empty_like(x))
        except cuda.CudaSupportError as e:
            print("launch:", e, isinstance(e, errors.KjitError))
        try:
            cuda.compile_ptx_for_current_device(add_kernel, "void(float32[:], float32[:], float32[:])")
        except cuda.CudaSupportError as e:
            print("ptx:", e)
    """)
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(code)
    try:
        env = dict(os.environ, KJIT_DEVICE="cuda",
                   PYTHONPATH=os.path.join(os.path.dirname(__file__), "..", "..", "..", "python_bindings"))
        r = subprocess.run([sys.executable, f.name], capture_output=True, text=True, env=env, timeout=120)
    finally:
        os.unlink(f.name)
    assert r.returncode == 0, r.stderr
    assert "available False" in r.stdout
    assert "launch: cannot launch kernel 'add_kernel': no CUDA GPU" in r.stdout
    assert "launch:" in r.stdout and r.stdout.split("launch:")[1].split("\n")[0].strip().endswith("True")
    assert "ptx: " in r.stdout and "compile_ptx" in r.stdout.split("ptx: ")[1]


def test_kernel_call_without_configuration_raises():
    k = cuda.jit(add_kernel)
    with pytest.raises(ValueError, match=r"launch configuration was not specified: .*add_kernel\[blocks, threads\]"):
        k(np.ones(2, np.float32), np.ones(2, np.float32), np.ones(2, np.float32))


def test_kernel_language_outside_kernel_raises():
    with pytest.raises(RuntimeError, match="inside a @cuda.jit kernel"):
        cuda.grid(1)
    with pytest.raises(RuntimeError, match="inside a @cuda.jit kernel"):
        cuda.syncthreads()
    with pytest.raises(RuntimeError, match="inside a @cuda.jit kernel"):
        cuda.atomic.add(np.zeros(1), 0, 1)


def test_unknown_option_raises():
    with pytest.raises(TypeError, match="unknown @cuda.jit option"):
        cuda.jit(add_kernel, no_such_option=True)


# ---- options and the later additions ------------------------------------------


def test_fp16_arithmetic_and_cuda_fp16(tmp_path):
    from kjit import float16

    @cuda.jit("void(float16[::1], float16[::1], float16[::1], int32[::1])")
    def half_ops(a, b, out, flags):
        i = cuda.grid(1)
        if i < a.shape[0]:
            x = cuda.fp16.hadd(a[i], b[i])
            y = cuda.fp16.hfma(x, a[i], b[i])
            out[i] = cuda.fp16.hmax(cuda.fp16.habs(y), cuda.fp16.hneg(x)) + a[i] * b[i]
            flags[i] = 1 if cuda.fp16.hlt(a[i], b[i]) else 0

    ptx = half_ops.inspect_ptx()
    assert "fma.rn.f16" in ptx and "add.f16" in ptx
    assemble(ptx, tmp_path, name="half_ops")


def test_match_all_sync_returns_mask_and_predicate():
    @cuda.jit("void(int32[::1])")
    def k(out):
        i = cuda.grid(1)
        m, ok = cuda.match_all_sync(0xffffffff, i // 32)
        out[i] = m if ok else -1

    assert "match.all.sync" in k.inspect_ptx()


def test_boundscheck_records_the_failure_and_returns(tmp_path):
    @cuda.jit("void(float32[::1], int64)", boundscheck=True)
    def k(a, j):
        a[j] = 1.0

    ptx = flat(k.inspect_ptx())
    assert ".visible .global .align 8 .u64 kjit_error_record" in ptx  # where the runtime wants the record
    assert "kjit_error_files" in ptx and "kjit_error_claim" in ptx
    assert "trap;" not in ptx  # the thread returns: the CUDA context survives
    assert "kjit_error_raises" not in ptx  # no raise: only bounds checks
    assemble(k.inspect_ptx(), tmp_path, name="checked")


def test_launch_annotations():
    @cuda.jit("void(float32[::1])", max_registers=32, launch_bounds=(256, 2))
    def k(a):
        a[cuda.grid(1)] += 1.0

    ptx = flat(k.inspect_ptx())
    assert ".maxnreg 32" in ptx and ".maxntid 256, 1, 1" in ptx and ".minnctapersm 2" in ptx


def test_lineinfo_points_at_the_python_lines(tmp_path):
    import inspect

    @cuda.jit("void(float32[::1])", lineinfo=True)
    def k(a):
        i = cuda.grid(1)
        a[i] = a[i] * float32(2.0)

    first = inspect.getsourcelines(k.py_func)[1]
    ptx = k.inspect_ptx()
    assert f".loc 1 {first + 2} " in flat(ptx)  # `a[i] = a[i] * 2.0`
    assemble(ptx, tmp_path, name="lineinfo")


def test_float64_promotion_is_a_performance_warning_with_the_line():
    import math

    from kjit.errors import PerformanceWarning

    with pytest.warns(PerformanceWarning, match=r"math.sin\(\) computes in float64 here") as rec:
        @cuda.jit("void(float32[::1], float32[::1])")
        def numba_style(x, out):
            i = cuda.grid(1)
            acc = float32(0)
            for k in range(64):
                acc += math.sin(x[i] * k)  # float32 * int64 is float64
            out[i] = acc
    assert f"line {line_of(numba_style, 'math.sin')}" in str(rec[0].message)

    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # written in float32 throughout: no warning

        @cuda.jit("void(float32[::1], float32[::1])")
        def float32_style(x, out):
            i = cuda.grid(1)
            acc = float32(0)
            for k in range(64):
                acc += math.sin(x[i] * float32(k))
            out[i] = acc


def _float_of_index(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        acc = float32(0)
        for k in range(64):
            acc += x[i] * float32(k)
        out[i] = acc


def test_int64_index_to_float_converts_from_32_bits():
    # A loop index known to fit 32 bits converts with the full-rate
    # instruction (as nvcc's `int k`), not the slower 64-bit one.
    ptx, _ = cuda.compile_ptx(_float_of_index, "void(float32[::1], float32[::1])")
    assert "cvt.rn.f32.s32" in ptx
    assert "cvt.rn.f32.u64" not in ptx and "cvt.rn.f32.s64" not in ptx


def _sin_exp(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        v = x[i]
        acc = float32(0)
        for k in range(64):
            fk = float32(k)
            acc += math.sin(v * fk) * math.exp(-v * fk * float32(0.01))
        out[i] = acc


def test_range_counter_counts_in_32_bits():
    # `for k in range(64)` counts in int64 (Python's ints); on the GPU a
    # counter that provably fits counts in 32 bits, as nvcc's `int k`: one
    # add and one compare a step, and float32(k) converts from 32 bits.
    ptx, _ = cuda.compile_ptx(_sin_exp, "void(float32[::1], float32[::1])")
    body = ptx.split(".entry")[1]
    assert re.search(r"setp\.ne\.s32\s+%p\d+, %r\d+, 64;", body), body
    assert re.search(r"add\.s32\s+(%r\d+), \1, 1;", body), body
    # float32(k) straight from the 32-bit counter, no truncation of a 64-bit one first
    assert not re.search(r"cvt\.u32\.u64\s+(%r\d+), %rd\d+;\s+cvt\.rn\.f32\.s32\s+%f\d+, \1;", body), body
    assert "setp.ne.s64" not in body


def test_counter_that_may_not_fit_stays_64_bit():
    def sum_from(n, out):
        acc = 0
        for k in range(n, n + 10):
            acc += k
        out[0] = acc

    ptx, _ = cuda.compile_ptx(sum_from, "void(int64, int64[::1])")
    body = ptx.split(".entry")[1]
    assert "add.s64" in body and not re.search(r"setp\.\w+\.s32", body)


def test_negation_folds_into_the_product_it_shares():
    # sin(v * k) * exp(-v * k * 0.01): one product v * k, the negation folded
    # into the constant (v * k * -0.01), as nvcc computes it.
    ptx, _ = cuda.compile_ptx(_sin_exp, "void(float32[::1], float32[::1])")
    body = ptx.split(".entry")[1]
    assert "0fBC23D70A" in body      # * -0.01
    assert "0f3C23D70A" not in body  # no * +0.01 of a negated product


def _parity(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i] = float32(1) if a[i] & 1 == 0 else float32(-1)


def test_low_bit_test_compares_with_zero():
    # `x & 1 == 0` (and sin's quadrant test) compares the masked bit with 0,
    # which ptxas makes one LOP3 writing a predicate; NVPTX's own choice,
    # a compare with 1, costs ptxas a second instruction.
    for fn in (_parity, _sin_exp):
        sig = "void(int32[::1], float32[::1])" if fn is _parity else "void(float32[::1], float32[::1])"
        body = cuda.compile_ptx(fn, sig)[0].split(".entry")[1]
        masked = re.findall(r"and\.b32\s+(%r\d+), %r\d+, 1;", body)
        assert masked, body
        for r in masked:
            assert not re.search(rf"setp\.\w+\.[bsu]32\s+%p\d+, {r}, 1;", body), body
            assert re.search(rf"setp\.(eq|ne)\.b32\s+%p\d+, {r}, 0;", body), body
