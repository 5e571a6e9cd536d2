"""More of Numba's kernel language, on every device: NumPy reductions on
arrays in kernels and device functions, recursion without a signature,
enums, and smaller constructs. Each program checks its results with asserts
against NumPy or Python and prints a last line that the test looks for."""
import os
import re
import shutil
import subprocess

import pytest

DEVICES = ["cpu", "sim"] + (["cuda"] if shutil.which("nvidia-smi") else [])


REDUCTIONS = r"""
import numpy as np
from kjit import cuda, literal_unroll

nan, inf = np.nan, np.inf
CASES = (
    np.float64([1.0, 0.0, inf, nan]),
    np.float64([[1.0, -1.5], [inf, nan]]),
    np.float64([nan, -1.5, 2.5, nan, 3.0]),
    np.float64([nan, nan]),
    np.int64([[1, 0, 3], [4, 5, 0]]),
    np.array([True, False, True]),
    np.float32([0.5, -0.0, 2.0]),
    np.array(3.0),  # 0-d arrays are globals too
)
REAL = CASES[:5]

@cuda.jit(device=True)
def spread(a):
    # Reductions work in device functions as in kernels.
    return np.std(a) + a.var()

@cuda.jit
def reduce_all(out):
    i = 0
    for a in literal_unroll(CASES):
        out[i, 0] = np.all(a)
        out[i, 1] = np.any(a)
        out[i, 2] = np.count_nonzero(a)
        out[i, 3] = np.nansum(a)
        out[i, 4] = np.nanprod(a)
        out[i, 5] = np.nanmean(a)
        out[i, 6] = np.var(a)
        out[i, 7] = np.std(a)
        out[i, 8] = a.all() + 2 * a.any()
        out[i, 9] = spread(a)
        i += 1

@cuda.jit
def nan_extremes(out):
    i = 0
    for a in literal_unroll(REAL):
        out[i, 0] = np.nanmin(a)
        out[i, 1] = np.nanmax(a)
        i += 1

import warnings
warnings.simplefilter("ignore")  # NumPy's (and the simulator's) warnings on NaNs
out = np.zeros((len(CASES), 10))
reduce_all[1, 1](out)
with np.errstate(all="ignore"):
    want = np.array([[np.all(a), np.any(a), np.count_nonzero(a), np.nansum(a), np.nanprod(a),
                      np.nanmean(a), np.var(a), np.std(a), a.all() + 2 * a.any(),
                      np.std(a) + a.var()] for a in CASES])
assert np.allclose(out, want, equal_nan=True, rtol=1e-6), (out, want)
ext = np.zeros((5, 2))
nan_extremes[1, 1](ext)
with np.errstate(all="ignore"):
    want = np.array([[np.nanmin(a), np.nanmax(a)] for a in CASES[:5]])
assert np.array_equal(ext, want, equal_nan=True), (ext, want)
print("reductions ok")
"""


@pytest.mark.parametrize("device", DEVICES)
def test_numpy_reductions_in_kernels(run_on_device, device):
    r = run_on_device(REDUCTIONS, device=device)
    assert "reductions ok" in r.stdout


RECURSION = r"""
import numpy as np
from kjit import cuda
from kjit.errors import TypingError

# No signature: the return type comes from the returns that do not recurse.
@cuda.jit(device=True)
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)

# Mutual recursion.
@cuda.jit(device=True)
def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)

@cuda.jit(device=True)
def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)

@cuda.jit
def kernel(r, x):
    r[0] = fib(x[0])
    r[1] = is_even(x[0])
    r[2] = is_odd(x[0] + 1)
    r[3] = fib(7)

r = np.zeros(4, np.int64)
kernel[1, 1](r, np.array([10]))
assert list(r) == [55, 1, 1, 13], r

from kjit import devices
if not devices.simulator():  # the simulator runs Python, which recurses without end
    @cuda.jit(device=True)
    def runaway(x):
        return runaway(x)

    @cuda.jit
    def calls_runaway(r):
        r[0] = runaway(1)

    try:
        calls_runaway[1, 1](r)
        raise AssertionError("runaway recursion compiled")
    except TypingError as e:
        assert "cannot type infer runaway recursion" in str(e), e

    @cuda.jit(device=True)
    def growing(n):
        if n <= 0:
            return None
        return (n, growing(n - 1))

    @cuda.jit
    def calls_growing(r):
        growing(3)

    try:
        calls_growing[1, 1](r)
        raise AssertionError("a growing tuple compiled")
    except TypingError as e:
        assert "Return type of recursive function does not converge" in str(e), e
print("recursion ok")
"""


@pytest.mark.parametrize("device", DEVICES)
def test_recursion_without_a_signature(run_on_device, device):
    r = run_on_device(RECURSION, device=device)
    assert "recursion ok" in r.stdout


PTXAS = shutil.which("ptxas") or ("/usr/local/cuda/bin/ptxas" if os.path.exists("/usr/local/cuda/bin/ptxas") else None)

PTX_PROGRAM = r"""
import numpy as np
from kjit import cuda, float64, int64, complex128

@cuda.jit(device=True)
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)

def reductions(a, b, c, out):
    out[0] = np.all(a) + np.any(b) + np.count_nonzero(c) + fib(b[0, 0])
    out[1] = np.nansum(a) + np.nanprod(a) + np.nanmin(a) + np.nanmax(a) + np.nanmean(a)
    out[2] = np.var(a) + np.std(b) + c.std() + np.nanmean(c).real

def copies(a, out):
    # a.copy() in a kernel allocates from the device heap (malloc/free)
    b = a.reshape(2, -1).copy()
    out[0] = b[1, 0] + a.view(np.int64)[0]

def parts(z, x, out):
    cuda.atomic.add(z.real, 0, 1.0)
    out[0] = np.float16(x[0])  # int8 to float16: cvt.rn.f16.s8, as nvcc's
    out[1] = cuda.fp16.hsin(out[0]) + cuda.fp16.hexp10(out[0]) + cuda.fp16.hrsqrt(out[0])

from kjit import int8, float16
ptx, _ = cuda.compile_ptx(reductions, (float64[:], int64[:, :], complex128[:], float64[:]))
ptx3, _ = cuda.compile_ptx(parts, (complex128[:], int8[:], float16[:]))
assert "cvt.rn.f16.s8" in ptx3, ptx3
open("parts.ptx", "w").write(ptx3)
ptx2, _ = cuda.compile_ptx(copies, (float64[::1], float64[:]))
open("kernel.ptx", "w").write(ptx)
open("copies.ptx", "w").write(ptx2)
"""


@pytest.mark.skipif(PTXAS is None, reason="no ptxas to check the PTX")
def test_ptx_of_the_constructs_assembles(run_on_device, tmp_path):
    run_on_device(PTX_PROGRAM, device="cpu", cwd=tmp_path)
    for name in ("kernel.ptx", "copies.ptx", "parts.ptx"):
        r = subprocess.run([PTXAS, "-arch=sm_90", str(tmp_path / name), "-o", os.devnull],
                           capture_output=True, text=True)
        assert r.returncode == 0, (name, r.stderr)


SMALLER = r"""
import numpy as np
from kjit import cuda

@cuda.jit
def small(x, flag, byte_arr, m, ints, out):
    # int.bit_count(): the number of set bits (cuda.popc)
    ints[0] = x.bit_count()
    # `is` between values of one type is `==`; of different types, False
    ints[1] = (flag is True) + 2 * (x is 1.5) + 4 * (flag is not False)
    # view(): the same bytes as another dtype; reshape(): a view of a C array
    ints[2] = byte_arr[4:8].view(np.int32)[0]
    b = m.reshape(6).reshape(3, -1)
    # copy(): a new array (on a GPU, from the device heap, freed when the thread returns)
    c = b.copy()
    c[0, 0] = 100.0
    for i in range(3):
        for j in range(2):
            out[i, j] = b[i, j] + c[i, j] + np.copy(m)[j, i]

x = np.uint32(0xF0F0)
byte_arr = np.arange(16, dtype=np.uint8)
m = np.arange(6.0).reshape(2, 3)
ints = np.zeros(3, np.int64)
out = np.zeros((3, 2))
small[1, 1](x, True, byte_arr, m, ints, out)
assert ints[0] == 8, ints
assert ints[1] == 1 + 4, ints
assert ints[2] == byte_arr[4:8].view(np.int32)[0], ints
b = m.reshape(3, 2)
c = b.copy()
c[0, 0] = 100.0
assert np.array_equal(out, b + c + m.T), out
assert m[0, 0] == 0.0  # the copy was written, not the argument
print("smaller ok")
"""


@pytest.mark.parametrize("device", DEVICES)
def test_bit_count_is_view_reshape_copy(run_on_device, device):
    r = run_on_device(SMALLER, device=device)
    assert "smaller ok" in r.stdout


ENUMS = r"""
import enum
import numpy as np
from kjit import cuda, int16, vectorize

class Color(enum.Enum):
    red = 1
    green = 2

class Planet(enum.Enum):  # values of any type kernels take: tuples here
    EARTH = (5.976e24, 6.37814e6)
    MARS = (6.421e23, 3.3972e6)

class Shape(enum.IntEnum):
    circle = 2
    square = 500

class Error(enum.IntEnum):
    two = 2
    not_found = 404

@cuda.jit(device=True)
def pick(pred):
    # members are returned from device functions
    return Color.red if pred else Color.green

@cuda.jit
def compare(a, b, out):
    # members as arguments: ==, !=, is, is not
    out[0] = a == b
    out[1] = a != b
    out[2] = a is b
    out[3] = a is not b

@cuda.jit
def members(x, out):
    out[0] = Color.red == Color["green"]          # members of the class, by attribute or name
    out[1] = pick(True) == Color.red
    out[2] = Planet.MARS.value[1]                 # .value
    out[3] = x - Error.not_found if x > Shape.square else x + Shape.circle  # IntEnum are ints
    out[4] = int16(Error.not_found)

pairs = [(Color.red, Color.red), (Color.red, Color.green), (Planet.EARTH, Planet.EARTH),
         (Planet.EARTH, Planet.MARS), (Shape.circle, Error.two)]
for a, b in pairs:
    got = np.zeros(4, np.bool_)
    compare[1, 1](a, b, got)
    want = [a == b, a != b, a is b, a is not b]
    assert list(got) == want, (a, b, got, want)
out = np.zeros(5)
members[1, 1](550, out)
assert list(out) == [0.0, 1.0, 3.3972e6, 550 - 404, 404], out

@vectorize("int64(int64)", target="cuda")
def classify(x):
    if x != Error.not_found:
        return Shape["square"]
    return Error.two

assert list(classify(np.array([1, 404, 3]))) == [500, 2, 500]
print("enums ok")
"""


@pytest.mark.parametrize("device", DEVICES)
def test_enums_in_kernels(run_on_device, device):
    r = run_on_device(ENUMS, device=device)
    assert "enums ok" in r.stdout


def test_enum_members_from_jit_functions_are_members():
    import enum

    from kjit import njit

    class Mood(enum.Enum):
        happy = 1
        sad = 2

    @njit
    def flip(m):
        return Mood.sad if m == Mood.happy else Mood.happy

    assert flip(Mood.happy) is Mood.sad
    assert flip(Mood.sad) is Mood.happy


NAMED_TUPLES = r"""
from collections import namedtuple
import numpy as np
from kjit import cuda

Point = namedtuple("Point", ("x", "y", "r"))

@cuda.jit
def use(out, p):
    # fields by name, by index, unpacking, len()
    out[0] = p.x + 10 * p.y
    out[1] = p.r
    x, y, r = p
    out[2] = x + y + r + p[2] + len(p)

out = np.zeros(3)
use[1, 1](out, Point(1, 2, 2.5))
assert list(out) == [21.0, 2.5, 1 + 2 + 2.5 + 2.5 + 3], out
print("named tuples ok")
"""


@pytest.mark.parametrize("device", DEVICES)
def test_named_tuples_as_kernel_arguments(run_on_device, device):
    r = run_on_device(NAMED_TUPLES, device=device)
    assert "named tuples ok" in r.stdout


OPERATOR_MODULE = r"""
import operator
import numpy as np
from kjit import cuda

BINARY = (operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv,
          operator.mod, operator.pow, operator.iadd, operator.imul)
COMPARE = (operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne)

def kernel_for(op):
    @cuda.jit
    def apply(a, b, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = op(a[i], b[i])
    return apply

a = np.array([1.5, -2.0, 3.0, -0.0])
b = np.array([0.5, 3.0, -2.0, 1.0])
for op in BINARY + COMPARE:
    out = np.zeros(4)
    kernel_for(op)[1, 4](a, b, out)
    assert np.array_equal(out, op(a.copy(), b)), (op, out)  # iadd would change a

@cuda.jit
def unary(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i, 0] = operator.neg(a[i])
        out[i, 1] = operator.abs(a[i])
        out[i, 2] = operator.not_(a[i])
        out[i, 3] = operator.truth(a[i])

out = np.zeros((4, 4))
unary[1, 4](a, out)
want = np.stack([-a, np.abs(a), a == 0, a != 0], axis=1)
assert np.array_equal(out, want) and np.signbit(out[3, 0]) is np.False_, out
print("operator ok")
"""


@pytest.mark.parametrize("device", DEVICES)
def test_operator_module_functions_in_kernels(run_on_device, device):
    r = run_on_device(OPERATOR_MODULE, device=device)
    assert "operator ok" in r.stdout


COMPLEX_PARTS = r"""
import numpy as np
from kjit import cuda

@cuda.jit
def add_to_parts(values):
    i = cuda.grid(1)
    if i < values.size:
        # a.real and a.imag of a complex array are views: atomics work on them
        cuda.atomic.add(values.real, i, 1)
        cuda.atomic.add(values.imag, i, 2)

values = np.arange(8) + np.arange(8) * 1j
want = values + (1 + 2j)
add_to_parts[1, 8](values)
assert np.array_equal(values, want), values

@cuda.jit
def conj(z, out, f):
    out[0] = z[0].conjugate()
    f[0] = float(f[1])  # float() keeps float32 a float32, as Numba's

z = np.array([complex(-0.0, 0.0)], np.complex64)
out = np.zeros(1, np.complex64)
f = np.array([0.0, 1.5], np.float32)
conj[1, 1](z, out, f)
assert np.signbit(out[0].imag) and np.signbit(out[0].real), out  # -(+0.0) is -0.0
assert f[0] == 1.5

@cuda.jit
def rounding(x, n, out):
    out[0] = round(x[0], n)  # x itself when x * 10**n overflows, as Numba's

big = np.array([np.finfo(np.float32).max], np.float32)
r = np.zeros(1, np.float32)
from kjit import devices
if not devices.simulator():  # the simulator runs NumPy's round, which overflows
    rounding[1, 1](big, 300, r)
    assert r[0] == big[0], r
rounding[1, 1](np.array([1234.5678], np.float32), -2, r)
assert r[0] == 1200.0, r
print("complex parts ok")
"""


@pytest.mark.parametrize("device", DEVICES)
def test_complex_array_parts_and_conjugate(run_on_device, device):
    r = run_on_device(COMPLEX_PARTS, device=device)
    assert "complex parts ok" in r.stdout


def test_enum_members_and_named_tuples_reach_the_gpu_launch_path(run_on_device, fake_driver):
    # The GPU launcher takes the argument kinds the CPU device takes (the fake
    # driver runs no kernel: the launch itself must go through).
    r = run_on_device("""
        import collections, enum
        import numpy as np
        from kjit import cuda

        class Color(enum.IntEnum):
            red = 1
            blue = 2

        Point = collections.namedtuple("Point", ["x", "y"])

        @cuda.jit
        def use(out, c, p):
            out[0] = c + p.x + p.y

        out = cuda.device_array(1, np.int64)
        use[1, 1](out, Color.blue, Point(3, 4))
        print("launched")
    """, device="cuda", env={"KJIT_CUDA_DRIVER": fake_driver})
    assert r.stdout.strip() == "launched"


SPLIT_VARIABLES = r"""
import numpy as np
from kjit import cuda

@cuda.jit
def retyped(res, arr, B):
    # A name whose assignments no read shares is several variables, each of
    # its own type (Numba's SSA): the loop's int t, then the array t.
    for t in range(1, 3):
        for idx in range(2):
            t = B
            res[idx] = t[0]
    # arr is 2-d, then 1-d inside the loop, then 2-d again.
    for i in range(1):
        arr = arr.reshape(arr.size)
        arr = arr.reshape(3, 2)
    res[2] = arr[2, 1]

res = np.zeros(3)
retyped[1, 1](res, np.arange(6.0).reshape(2, 3), np.array([7.0]))
assert list(res) == [7.0, 7.0, 5.0], res
print("split ok")
"""


@pytest.mark.parametrize("device", DEVICES)
def test_variables_retyped_in_separate_webs(run_on_device, device):
    r = run_on_device(SPLIT_VARIABLES, device=device)
    assert "split ok" in r.stdout


FP16_MATH = r"""
import numpy as np
from kjit import cuda

@cuda.jit
def half_math(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = cuda.fp16.hsin(x[i])
        out[i, 1] = cuda.fp16.hlog2(x[i])
        out[i, 2] = cuda.fp16.hexp10(x[i])
        out[i, 3] = cuda.fp16.hrsqrt(x[i])
        out[i, 4] = cuda.fp16.hrcp(x[i])
        out[i, 5] = cuda.fp16.hfloor(x[i])

x = np.array([0.5, 1.25, 2.0, 3.5], np.float16)
out = np.zeros((4, 6), np.float16)
half_math[1, 4](x, out)
f = x.astype(np.float32)
want = np.stack([np.sin(f), np.log2(f), 10 ** f, 1 / np.sqrt(f), 1 / f, np.floor(f)], axis=1)
assert np.allclose(out.astype(np.float32), want, rtol=1e-3), (out, want)
print("fp16 ok")
"""


@pytest.mark.parametrize("device", DEVICES)
def test_fp16_math_functions(run_on_device, device):
    r = run_on_device(FP16_MATH, device=device)
    assert "fp16 ok" in r.stdout


TUPLE_ARGUMENTS = r"""
import numpy as np
from kjit import cuda

@cuda.jit
def add(x):                       # a tuple of arrays: the first is written
    i = cuda.grid(1)
    if i < len(x[0]):
        x[0][i] = x[1][i] + x[2][i]

x0 = np.zeros(10)
add[1, 10]((x0, np.ones(10), np.full(10, 3.0)))
assert (x0 == 4.0).all(), x0

@cuda.jit
def mixed(r, x):                  # arrays, numbers and tuples nested
    r[0] = x[0][0]
    r[1] = x[0][1]
    r[2] = x[1]
    r[3] = x[2][0]
    r[4] = x[2][1]

r = np.zeros(5, dtype=np.int64)
mixed[1, 1](r, (np.array([7, 8]), 9, (10, 11)))
assert r.tolist() == [7, 8, 9, 10, 11], r

@cuda.jit
def lengths(r, x, y):             # empty tuples: no parameter at all on the GPU
    r[0] = len(x)
    r[1] = len(y)
    r[2] = len(y[0])

r = np.ones(3, dtype=np.int64)
lengths[1, 1](r, (), ((), (), ()))
assert r.tolist() == [0, 3, 0], r
print("tuples ok")
"""


@pytest.mark.parametrize("device", DEVICES)
def test_tuples_of_arrays_and_empty_tuples_as_kernel_arguments(run_on_device, device):
    r = run_on_device(TUPLE_ARGUMENTS, device=device)
    assert "tuples ok" in r.stdout


def test_the_gpu_launcher_copies_the_arrays_inside_a_tuple(run_on_device, fake_driver, tmp_path):
    # The fake driver runs no kernel, so the values are checked on a GPU
    # (above); here: each host array of the tuple is copied to the device and
    # the launch happens, and the kernel's PTX takes the tuple as one
    # aggregate and the empty tuple not at all.
    log = tmp_path / "calls.log"
    r = run_on_device("""
        import numpy as np
        from kjit import cuda

        @cuda.jit
        def f(x, e):
            i = cuda.grid(1)
            if i < len(x[0]):
                x[0][i] = x[1][i] + len(e)

        f[1, 4]((np.zeros(4), np.ones(4)), ())
        ptx = next(iter(f.inspect_asm().values()))
        entry = ptx[ptx.index(".entry"):ptx.index(")")]
        assert entry.count(".param") == 1, entry
        print("launched")
    """, device="cuda", env={"KJIT_CUDA_DRIVER": fake_driver, "FAKE_CUDA_LOG": str(log)})
    assert "launched" in r.stdout
    calls = log.read_text().splitlines()
    assert sum(c.startswith("cuLaunchKernel") for c in calls) == 1, calls
    assert sum(c.startswith("cuMemAlloc") for c in calls) >= 2, calls


PRINT_TUPLES = r"""
import warnings
from kjit import cuda

@cuda.jit
def show(t):
    print(t)
    print("nested", (1, ((2, 4), 3.5), (4,), 5), ())

@cuda.jit
def where():
    print(cuda.threadIdx)

@cuda.jit
def many():
    print(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
          25, 26, 27, 28, 29, 30, 31, 32, 33)

show[1, 1]((1, 2))
cuda.synchronize()
where[1, (2, 1, 2)]()
cuda.synchronize()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    many[1, 1]()
    cuda.synchronize()
print("warned:", [str(w.message) for w in caught if "32 items" in str(w.message)])
"""


@pytest.mark.parametrize("device", DEVICES)
def test_print_of_tuples_and_dim3_as_python_prints_them(run_on_device, device):
    r = run_on_device(PRINT_TUPLES, device=device)
    lines = r.stdout.splitlines()
    assert "(1, 2)" in lines
    nested = [l for l in lines if l.startswith("nested")]
    assert len(nested) == 1 and re.fullmatch(r"nested \(1, \(\(2, 4\), 3\.50*\), \(4,\), 5\) \(\)", nested[0]), nested
    assert sorted(l for l in lines if l.startswith("(0") or l.startswith("(1,"))[:4] == \
        ["(0, 0, 0)", "(0, 0, 1)", "(1, 0, 0)", "(1, 0, 1)"], lines
    if device != "sim":  # the simulator prints with Python's print, which has no limit
        assert " ".join(["%lld"] * 33) in r.stdout, r.stdout
        warned = [l for l in lines if l.startswith("warned:")]
        assert "CUDA print() cannot print more than 32 items. The raw format string will be emitted by the " \
               "kernel instead." in warned[0], r.stdout


NESTED_AND_VARARGS = r"""
import numpy as np
from kjit import cuda

G = 123

@cuda.jit(device=True)
def consumer(func, *args):          # *args: the extra arguments, a tuple
    return func(*args)

@cuda.jit(device=True)
def total(*xs):
    s = 0
    for k in range(len(xs)):
        s += xs[k]
    return s + len(xs)

@cuda.jit(device=True)
def count(*xs):
    return len(xs)

@cuda.jit(device=True)
def impl(x):
    y = 10                          # a constant, assigned once: captured

    def inner(z):                   # a nested function is a function value
        return y + z + G

    def twice(f, v):
        return f(f(v))

    return consumer(inner, x) + twice(inner, 1) + consumer(count) + consumer(total, 1, 2, 3)

@cuda.jit
def kernel(out, x):
    t = (x, 2)
    out[0] = impl(x)
    out[1] = total(*t)              # f(*t): the tuple's elements
    out[2] = count()

out = np.zeros(3, dtype=np.int64)
kernel[1, 1](out, 5)
assert out.tolist() == [(10 + 5 + 123) + (10 + (10 + 1 + 123) + 123) + 0 + 9, 9, 0], out
print("nested ok")
"""


@pytest.mark.parametrize("device", DEVICES)
def test_nested_functions_as_values_and_star_args(run_on_device, device):
    r = run_on_device(NESTED_AND_VARARGS, device=device)
    assert "nested ok" in r.stdout


CAPTURES = r"""
import numpy as np
from kjit import cuda

@cuda.jit
def two_definitions(out, n):
    if n > 1:
        x = 3
    else:
        x = 6
    def inner():
        return x
    out[0] = inner()

@cuda.jit
def not_a_constant(out, n):
    x = n * 2
    def inner():
        return x
    out[0] = inner()

for k in (two_definitions, not_a_constant):
    try:
        k[1, 1](np.zeros(1, dtype=np.int64), 2)
    except Exception as e:
        print(type(e).__name__, e)
"""


def test_nested_functions_capture_constants_only(run_on_device):
    # Numba's rule for closures that may escape, with its messages.
    r = run_on_device(CAPTURES, device="cpu")
    assert "TypingError" in r.stdout
    assert "Cannot capture a constant value for variable 'x' as there are multiple definitions present." in r.stdout
    assert "Cannot capture the non-constant value associated with variable 'x' in a function that may " \
           "escape." in r.stdout


LATE_CLOSURE = r"""
import numpy as np
from kjit import cuda, njit

def make():
    @cuda.jit
    def k(out):
        out[0] = func(2.0)          # defined below, after the decorator ran

    @njit
    def h(x):
        return func(x) + 1

    @cuda.jit(device=True)
    def func(x):
        return 1.0 / x

    return k, h

k, h = make()
out = np.zeros(1)
k[1, 1](out)
assert out[0] == 0.5 and h(4.0) == 1.25, (out, h(4.0))
print("late ok")
"""


@pytest.mark.parametrize("device", DEVICES)
def test_closure_variables_assigned_after_the_decorator_are_read_at_compile_time(run_on_device, device):
    # As Numba: a kernel names a function of the enclosing scope defined later.
    r = run_on_device(LATE_CLOSURE, device=device)
    assert "late ok" in r.stdout


DEVICE_ARRAY_GLOBALS = r"""
import numpy as np
from kjit import cuda

table = cuda.to_device(np.array([1.0, 2.0, 3.0, 4.0], dtype=np.float32))
grid2 = cuda.to_device(np.arange(6, dtype=np.int64).reshape(2, 3))
counts = cuda.to_device(np.zeros(4, dtype=np.int32))

@cuda.jit(device=True)
def scaled(i):
    return table[i] * 2                 # a device array global, read

@cuda.jit
def kernel(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = scaled(i) + grid2[1, i % 3]
        counts[i] = i + 10              # ... and written: captured by reference

out = cuda.device_array(4, dtype=np.float32)
kernel[1, 4](out)
assert out.copy_to_host().tolist() == [5.0, 8.0, 11.0, 11.0], out.copy_to_host()
assert counts.copy_to_host().tolist() == [10, 11, 12, 13]
table.copy_to_device(np.array([0.0, 0.0, 0.0, 1.0], dtype=np.float32))
kernel[1, 4](out)                       # the same memory, new contents
assert out.copy_to_host().tolist() == [3.0, 4.0, 5.0, 5.0], out.copy_to_host()
print("captured ok")
"""


@pytest.mark.parametrize("device", [d for d in DEVICES if d != "sim"])
def test_device_arrays_as_globals_are_captured_by_reference(run_on_device, device):
    # Numba's rule; the simulator does not capture device arrays (as Numba's).
    r = run_on_device(DEVICE_ARRAY_GLOBALS, device=device)
    assert "captured ok" in r.stdout


def test_a_captured_device_array_is_its_address_in_the_ptx(run_on_device, fake_driver):
    r = run_on_device("""
        import numpy as np
        from kjit import cuda
        table = cuda.to_device(np.arange(4, dtype=np.float32))

        def k(out):
            out[0] = table[3]

        ptx, _ = cuda.compile_ptx(k, "void(float32[:])")
        address = table.__cuda_array_interface__["data"][0]
        assert str(address) in ptx or hex(address) in ptx or str(address + 12) in ptx, ptx
        print("address ok")
    """, device="cuda", env={"KJIT_CUDA_DRIVER": fake_driver})
    assert "address ok" in r.stdout


FLOAT64_TO_FLOAT16 = r"""
import numpy as np
from kjit import cuda, njit

@cuda.jit
def convert(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i]                   # float64 -> float16: rounded once, to nearest even

rng = np.random.default_rng(1)
vals = np.concatenate([rng.standard_normal(4000) * 10.0 ** rng.integers(-9, 6, 4000),
                       [0.0, np.inf, np.nan, 65504.0, 65519.99, 65520.0, 2.0**-24, 2.0**-25, 3 * 2.0**-26,
                        2.0**-14 * (1 - 2.0**-11), 1 + 2.0**-11, 1 + 3 * 2.0**-11, 5e-324]])
vals = np.concatenate([vals, -vals])
out = np.zeros(vals.size, np.float16)
convert[(vals.size + 127) // 128, 128](vals, out)
want = vals.astype(np.float16)
same = (out.view(np.uint16) == want.view(np.uint16)) | (np.isnan(out) & np.isnan(want))
assert same.all(), vals[~same][:5]

@njit
def half(x):
    return np.float16(x)                # a float16 result reaches Python as its value

assert half(1.0 + 3 * 2.0**-11) == float(np.float16(1.0 + 3 * 2.0**-11)) and half(70000.0) == np.inf
print("float16 ok")
"""


@pytest.mark.parametrize("device", DEVICES)
def test_float64_to_float16_rounds_as_numpy(run_on_device, device):
    r = run_on_device(FLOAT64_TO_FLOAT16, device=device)
    assert "float16 ok" in r.stdout


KERNEL_CALLS_KERNEL = r"""
import numpy as np
from kjit import cuda

@cuda.jit                   # no device=True: called from a kernel, it is a device function
def ten():
    return 10

@cuda.jit
def k(out):
    out[0] = ten() + 1

out = np.zeros(1, dtype=np.int64)
k[1, 1](out)
assert out[0] == 11, out
print("call ok")
"""


@pytest.mark.parametrize("device", DEVICES)
def test_a_kernel_object_called_from_a_kernel_is_a_device_function(run_on_device, device):
    r = run_on_device(KERNEL_CALLS_KERNEL, device=device)
    assert "call ok" in r.stdout


STRING_ARGUMENTS = r"""
import numpy as np
from kjit import cuda

@cuda.jit(device=True)
def load(out, mode):
    if mode == "ones":              # a constant string argument: decided at compile time
        out[cuda.threadIdx.x] = 1.0
    elif mode != "zeros" and mode < "z":
        out[cuda.threadIdx.x] = 2.0
    else:
        out[cuda.threadIdx.x] = 0.0

@cuda.jit
def kernel(a, b, c):
    load(a, "ones")
    load(b, "twos")
    load(c, "zeros")

a, b, c = (np.full(4, -1.0) for _ in range(3))
kernel[1, 4](a, b, c)
assert (a == 1).all() and (b == 2).all() and (c == 0).all(), (a, b, c)
print("strings ok")
"""


@pytest.mark.parametrize("device", DEVICES)
def test_constant_string_arguments_compare_at_compile_time(run_on_device, device):
    r = run_on_device(STRING_ARGUMENTS, device=device)
    assert "strings ok" in r.stdout


ROUND_AND_LDEXP = r"""
import math
import numpy as np
from kjit import cuda, float32, int32, void

@cuda.jit(void(float32[:], float32, int32))
def kernel(out, c, n):
    out[0] = round(c, n)            # float32, halfway at 3 digits: the devices' rounding
    out[1] = math.ldexp(c, n)       # an int32 exponent (Python's math refuses NumPy integers)

out = np.zeros(2, dtype=np.float32)
kernel[1, 1](out, 0.3425, 3)
assert out[0] == np.float32(0.343) and out[1] == np.float32(0.3425 * 8), out
print("round ok")
"""


@pytest.mark.parametrize("device", DEVICES)
def test_round_and_ldexp_agree_on_every_device(run_on_device, device):
    # The simulator runs these through kjit's compiled scalar functions.
    r = run_on_device(ROUND_AND_LDEXP, device=device)
    assert "round ok" in r.stdout
