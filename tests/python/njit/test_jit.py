"""@jit on the CPU: real programs, each compared with the same function run by
plain Python/NumPy on fresh random inputs."""
import math

import numpy as np
import pytest

import kjit
from kjit import float32, float64, int32, int64, jit, njit

rng = np.random.default_rng()


def both(fn, *args):
    """The compiled result and the interpreted one."""
    return njit(fn)(*args), fn(*args)


# ---- scalars and control flow ------------------------------------------------

def poly(x, n):
    acc = 0.0
    p = 1.0
    for i in range(n):
        acc += p / (i + 1)
        p *= x
    return acc


def collatz(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n //= 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def branches(a, b):
    if a > b and b > 0:
        r = a - b
    elif a == b or a < -b:
        r = a * b
    else:
        r = -a
    return r if r > -100 else -100


def loop_else(n):
    found = -1
    for i in range(2, n):
        if n % i == 0:
            found = i
            break
    else:
        found = 0
    return found


def test_scalar_programs():
    for _ in range(20):
        x = float(rng.uniform(-2, 2))
        n = int(rng.integers(0, 30))
        c, p = both(poly, x, n)
        assert c == pytest.approx(p, rel=1e-12)
        m = int(rng.integers(1, 10000))
        assert both(collatz, m)[0] == collatz(m)
        a, b = (int(v) for v in rng.integers(-50, 50, 2))
        assert both(branches, a, b)[0] == branches(a, b)
        assert both(loop_else, m)[0] == loop_else(m)


@pytest.mark.parametrize("a", [-7, 7, 0, -1, 2**40 + 3, -(2**40) - 5])
@pytest.mark.parametrize("b", [2, -2, 3, -3, 1, -1, 7])
def test_integer_floor_division_and_modulo_follow_python(a, b):
    f = njit(lambda a, b: (a // b, a % b, divmod(a, b)))
    q, r, dm = f(a, b)
    assert (q, r) == (a // b, a % b)
    assert dm == divmod(a, b)


@pytest.mark.parametrize("a", [-7.5, 7.5, 0.0, -0.0, 1e300, 3.0])
@pytest.mark.parametrize("b", [2.0, -2.0, 0.5, -3.25])
def test_float_floor_division_and_modulo_follow_python(a, b):
    f = njit(lambda a, b: (a // b, a % b))
    q, r = f(a, b)
    assert q == a // b and r == a % b
    assert math.copysign(1, r) == math.copysign(1, a % b)


def test_division_by_zero_raises():
    f = njit(lambda a, b: a // b)
    with pytest.raises(ZeroDivisionError, match="integer division by zero"):
        f(1, 0)
    g = njit(lambda a, b: a % b)
    with pytest.raises(ZeroDivisionError, match="integer modulo by zero"):
        g(1, 0)
    h = njit(lambda a, b: a / b)
    with pytest.raises(ZeroDivisionError, match="division by zero"):
        h(1.0, 0.0)
    # The process goes on.
    assert f(7, 2) == 3


def test_integer_power():
    f = njit(lambda a, b: a ** b)
    assert f(3, 4) == 81
    assert f(-2, 5) == -32
    assert f(2, 0) == 1
    assert f(2, -1) == 0  # Numba's integer semantics
    assert f(-1, -3) == -1
    with pytest.raises(ZeroDivisionError):
        f(0, -1)
    assert f(2.0, 0.5) == pytest.approx(math.sqrt(2))


def test_typing_rules_match_numba():
    # True division of ints is a float; float32 * int64 is float64.
    assert njit(lambda a, b: a / b)(7, 2) == 3.5
    r = njit(lambda x, k: x * k)(np.float32(1.5), 3)
    assert r == 4.5
    assert isinstance(njit(lambda a: a // 2)(7), int)
    assert njit(lambda a, b: a < b < 10)(1, 5) is True
    assert njit(lambda a, b: a < b < 10)(1, 50) is False


def test_bool_and_or_return_operands():
    f = njit(lambda a, b: a or b)
    assert f(0, 5) == 5 and f(3, 5) == 3
    g = njit(lambda a, b: a and b)
    assert g(0, 5) == 0 and g(3, 5) == 5


def test_builtins():
    f = njit(lambda a, b, c: (abs(a), min(a, b, c), max(a, b), int(c), float(a), round(c), bool(a)))
    for _ in range(10):
        a, b = (int(v) for v in rng.integers(-100, 100, 2))
        c = float(rng.uniform(-100, 100))
        assert f(a, b, c) == (abs(a), min(a, b, c), max(a, b), int(c), float(a), round(c), bool(a))
    assert njit(lambda x: round(x))(2.5) == 2 and njit(lambda x: round(x))(3.5) == 4
    assert njit(lambda x: round(x, 2))(3.14159) == pytest.approx(3.14)


def test_math_functions():
    names = ["sqrt", "exp", "log", "sin", "cos", "tan", "atan", "sinh", "cosh", "tanh", "expm1",
             "log1p", "log10", "log2", "fabs", "erf", "erfc", "gamma", "lgamma"]
    for name in names:
        fn = getattr(math, name)
        f = njit(lambda x: fn(x))
        x = float(rng.uniform(0.1, 3))
        assert f(x) == pytest.approx(fn(x), rel=1e-13), name
    f2 = njit(lambda y, x: (math.atan2(y, x), math.hypot(y, x), math.pow(x, y), math.copysign(x, -y)))
    assert f2(1.5, 2.0) == pytest.approx((math.atan2(1.5, 2.0), math.hypot(1.5, 2.0), math.pow(2.0, 1.5), math.copysign(2.0, -1.5)))
    g = njit(lambda x: (math.floor(x), math.ceil(x), math.isnan(x), math.isinf(x), math.pi * x))
    assert g(2.5) == (2, 3, False, False, math.pi * 2.5)
    assert g(float("nan"))[2] is True


def test_float32_math_stays_float32():
    f = njit(lambda x: math.sqrt(x))
    f(np.float32(2.0))
    assert f.signatures == ["(float32) -> float32"]


def test_complex_arithmetic():
    f = njit(lambda a, b: (a + b, a - b, a * b, a / b, abs(a), a.real, a.imag, a == b))
    a, b = complex(1.5, -2), complex(-0.5, 3)
    got = f(a, b)
    want = (a + b, a - b, a * b, a / b, abs(a), a.real, a.imag, a == b)
    for g_, w in zip(got, want):
        assert g_ == pytest.approx(w)


# ---- calls between jitted functions and globals ------------------------------

@njit
def _square(x):
    return x * x


@njit
def _sum_squares(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += _square(a[i])
    return s


SCALE = 2.5
OFFSETS = (1, 2, 3)


@njit
def _uses_globals(x):
    return x * SCALE + OFFSETS[1] + len(OFFSETS)


def test_calls_between_jitted_functions():
    a = rng.random(100)
    assert _sum_squares(a) == pytest.approx(np.sum(a * a))
    assert _square(3) == 9  # the callee is also callable itself


def test_globals_are_frozen_constants():
    assert _uses_globals(2.0) == 2.0 * 2.5 + 2 + 3


def test_closure_variables():
    k = 7

    @njit
    def add_k(x):
        return x + k

    assert add_k(3) == 10


def test_recursion_with_signature():
    @njit("int64(int64)")
    def fib(n):
        if n < 2:
            return n
        return fib(n - 1) + fib(n - 2)

    assert fib(20) == 6765


# ---- arrays --------------------------------------------------------------------

def matmul(a, b):
    n, k = a.shape
    m = b.shape[1]
    out = np.zeros((n, m), dtype=np.float64)
    for i in range(n):
        for j in range(m):
            acc = 0.0
            for p in range(k):
                acc += a[i, p] * b[p, j]
            out[i, j] = acc
    return out


def stencil3d(u):
    out = np.empty_like(u)
    nx, ny, nz = u.shape
    for i in range(nx):
        for j in range(ny):
            for k in range(nz):
                out[i, j, k] = u[i, j, k] * 2.0 - u[i - 1, j, k] + u[i, j - 1, k] * 0.5
    return out


def test_2d_and_3d_arrays():
    a, b = rng.random((7, 5)), rng.random((5, 9))
    c, p = both(matmul, a, b)
    np.testing.assert_allclose(c, p)
    assert c.dtype == np.float64 and c.flags.c_contiguous
    u = rng.random((4, 5, 6))
    c, p = both(stencil3d, u)
    np.testing.assert_allclose(c, p)


def test_negative_indices_wrap():
    f = njit(lambda a: (a[-1], a[-2], a[0]))
    a = rng.random(10)
    assert f(a) == (a[-1], a[-2], a[0])
    g = njit(lambda a, i: a[i, -1])
    m = rng.random((3, 4))
    assert g(m, -1) == m[-1, -1]


def test_strided_and_fortran_inputs():
    f = njit(lambda a: a.sum())
    m = rng.random((6, 8))
    for arr in (m, m.T, m[::2, 1::3], np.asfortranarray(m)):
        assert f(arr) == pytest.approx(arr.sum())


def test_array_attributes_and_reductions():
    f = njit(lambda a: (a.shape, a.size, a.ndim, a.sum(), a.min(), a.max(), a.mean(), np.sum(a), np.prod(a[0])))
    a = rng.random((3, 4))
    got = f(a)
    assert got[:3] == (a.shape, a.size, a.ndim)
    np.testing.assert_allclose(got[3:], (a.sum(), a.min(), a.max(), a.mean(), np.sum(a), np.prod(a[0])))


def test_reduction_of_empty_array_raises():
    f = njit(lambda a: a.min())
    with pytest.raises(ValueError, match="zero-size array to reduction operation minimum"):
        f(np.zeros(0))


def test_slices_make_views():
    f = njit(lambda a: a[1:-1:2])
    a = rng.random(11)
    v = f(a)
    np.testing.assert_array_equal(v, a[1:-1:2])
    v[0] = 42.0
    assert a[1] == 42.0  # a view of the argument, not a copy
    g = njit(lambda m: m[2])
    m = rng.random((4, 3))
    np.testing.assert_array_equal(g(m), m[2])
    h = njit(lambda m: m[:, 1])
    np.testing.assert_array_equal(h(m), m[:, 1])
    r = njit(lambda a: a[::-1])
    np.testing.assert_array_equal(r(a), a[::-1])


def test_allocation_and_return():
    def make(n):
        z = np.zeros((n, 2), dtype=np.float32)
        o = np.ones(n, dtype=np.int64)
        e = np.empty(n)
        r = np.arange(n)
        for i in range(n):
            z[i, 1] = i
            e[i] = 0.5 * i
        return z, o, e, r, np.arange(1.0, 2.0, 0.25), np.zeros_like(e), np.full(3, 7)

    got, want = both(make, 5)
    for g_, w in zip(got, want):
        np.testing.assert_array_equal(g_, w)
        assert g_.dtype == w.dtype, (g_.dtype, w.dtype)


def test_returned_arrays_own_their_memory():
    f = njit(lambda n: np.arange(n))
    arrays = [f(1000) for _ in range(200)]
    for a in arrays:
        np.testing.assert_array_equal(a, np.arange(1000))
    del arrays


def test_iteration_over_arrays():
    def total(a):
        s = 0.0
        for row in a:
            for v in row:
                s += v
        return s

    a = rng.random((5, 3))
    c, p = both(total, a)
    assert c == pytest.approx(p)


def test_tuples():
    def swap(a, b):
        a, b = b, a
        t = (a, b, a + b)
        x, y, z = t
        return t[0] * 10 + t[-1], z, (x, y)

    assert both(swap, 1, 2)[0] == swap(1, 2)
    f = njit(lambda t: t[0] + t[1])
    assert f((1, 2.5)) == 3.5


def test_boundscheck_raises_index_error():
    f = njit(boundscheck=True)(lambda a, i: a[i])
    a = np.arange(5.0)
    assert f(a, 4) == 4.0 and f(a, -5) == 0.0
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 0 with size 5"):
        f(a, 5)


def test_exceptions():
    @njit
    def check(x):
        if x < 0:
            raise ValueError("negative input")
        assert x != 3, "three is not allowed"
        return x

    assert check(2) == 2
    with pytest.raises(ValueError, match="negative input") as info:
        check(-1)
    assert any("test_jit.py" in n for n in getattr(info.value, "__notes__", []))
    with pytest.raises(AssertionError, match="three is not allowed"):
        check(3)


# ---- dispatch ----------------------------------------------------------------

def test_lazy_compilation_per_type():
    f = njit(lambda x: x + 1)
    assert f(1) == 2 and f(1.5) == 2.5
    assert f.signatures == ["(int64) -> int64", "(float64) -> float64"]


def test_eager_signatures():
    @jit("float32(float32, float32)")
    def add(a, b):
        return a + b

    assert add.signatures == ["(float32, float32) -> float32"]
    assert add(1.5, 2) == 3.5  # numbers convert to the signature's types
    with pytest.raises(TypeError, match="No matching definition"):
        add(np.zeros(3), 1.0)

    @jit(int32(int32, int32))
    def mul(a, b):
        return a * b

    assert mul(6, 7) == 42
    assert mul.signatures == ["(int32, int32) -> int32"]

    @jit([float64(float64[:]), "int64(int64[::1])"])
    def first(a):
        return a[0]

    assert first(np.array([2.5])) == 2.5 and first(np.array([3])) == 3


def test_keyword_arguments_and_defaults():
    @njit
    def f(a, b=2, c=3.5):
        return a * b + c

    assert f(1) == 5.5
    assert f(1, c=0.5) == 2.5
    assert f(b=3, a=2) == 9.5
    with pytest.raises(TypeError, match="unexpected keyword argument 'd'"):
        f(1, d=2)


def test_options():
    with pytest.raises(TypeError, match="forceobj"):
        jit(forceobj=True)(lambda x: x)
    with pytest.raises(TypeError, match="unknown @jit option"):
        jit(bogus=True)(lambda x: x)
    f = njit(nogil=True, fastmath=True)(lambda a: a.sum())
    assert f(np.ones(10)) == 10.0


def test_error_model():
    # 'python' (the default): division by zero raises, as in Python.
    # 'numpy': it gives NumPy's results (as Numba's error_model='numpy').
    def ratio(a, b):
        return a / b, a // b, a % b

    with pytest.raises(ZeroDivisionError, match="division by zero"):
        njit(ratio)(1.0, 0.0)
    with pytest.raises(ZeroDivisionError, match="integer division by zero"):
        njit(error_model="python")(lambda a, b: a // b)(1, 0)
    q, fq, m = njit(error_model="numpy")(ratio)(-1.0, 0.0)
    assert q == -np.inf and fq == -np.inf and math.isnan(m)
    assert njit(error_model="numpy")(ratio)(7, 0)[1:] == (0, 0)
    assert njit(error_model="numpy")(lambda a, b: a / b)(1 + 1j, 0j) != 0  # nan or inf, no exception
    with pytest.raises(ValueError, match="error_model is 'python'.*or 'numpy'"):
        njit(error_model="c")(ratio)


def test_introspection():
    f = njit(lambda a, b: a + b)
    f(1, 2)
    assert f.py_func(1, 2) == 3
    llvm = f.inspect_llvm("(int64, int64) -> int64")
    assert "add i64" in llvm
    asm = f.inspect_asm()
    assert any(("add" in a or "lea" in a) for a in asm.values())


def test_unsupported_argument_type():
    f = njit(lambda x: x)
    with pytest.raises(TypeError, match="argument 1 .* type kernels cannot take: set"):
        f({1, 2})


def test_cmath():
    import cmath

    f = njit(lambda z: (cmath.sqrt(z), cmath.exp(z), cmath.log(z), cmath.phase(z), cmath.polar(z),
                        cmath.rect(2.0, 0.5), cmath.isnan(z), cmath.isfinite(z)))
    for z in (complex(1.5, -2.0), complex(-3.0, 0.5), complex(0.25, 4.0)):
        got = f(z)
        want = (cmath.sqrt(z), cmath.exp(z), cmath.log(z), cmath.phase(z), cmath.polar(z),
                cmath.rect(2.0, 0.5), cmath.isnan(z), cmath.isfinite(z))
        for g_, w in zip(got, want):
            assert g_ == pytest.approx(w, rel=1e-12)
    assert njit(lambda x: cmath.sqrt(x))(-4.0) == pytest.approx(2j)


def test_print(capfd):
    @njit
    def show(i, x, b):
        print("i =", i, "x =", x, b, 1.0, None)

    show(3, 2.5, True)
    assert capfd.readouterr().out == "i = 3 x = 2.5 True 1.0 None\n"


COEFFS = np.array([1.0, -2.0, 0.5])
TABLE = np.arange(12, dtype=np.int32).reshape(3, 4)


def test_global_arrays_are_frozen_constants():
    @njit
    def horner(x):
        acc = 0.0
        for c in COEFFS:
            acc = acc * x + c
        return acc + TABLE[2, 3] + TABLE.sum()

    assert horner(2.0) == (1.0 * 2 - 2.0) * 2 + 0.5 + 11 + 66

    @njit
    def table():
        return TABLE

    t = table()
    np.testing.assert_array_equal(t, TABLE)
    assert not t.flags.writeable  # read-only, as in Numba

    @njit
    def write():
        COEFFS[0] = 1.0

    with pytest.raises(kjit.TypingError, match="read-only"):
        write()


def test_fastmath_flag_sets():
    def dot(a, b):
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i] * b[i]
        return s

    a, b = rng.random(1000), rng.random(1000)
    f = njit(fastmath={"reassoc", "contract"})(dot)
    assert f(a, b) == pytest.approx(np.dot(a, b))
    llvm = f.inspect_llvm("(array(float64, 1d, C), array(float64, 1d, C)) -> float64")
    assert "reassoc contract" in llvm and "nnan" not in llvm
    with pytest.raises(ValueError, match="unknown fastmath flag 'fastest'"):
        njit(fastmath={"fastest"})(dot)


def test_float_power_of_integer_variable():
    h = njit(lambda x, k: x ** k)
    for x, k in ((0.5, 3), (2.0, -2), (1.5, 0), (0.5, 2**32), (-2.0, 5)):
        assert h(x, k) == pytest.approx(x ** k, rel=1e-14), (x, k)
    g = njit(lambda x, k: x ** k)
    assert g(np.float32(1.5), 3) == pytest.approx(3.375)
    assert g.signatures == ["(float32, int64) -> float32"]


def test_many_and_large_arguments():
    # Past the per-argument slot size (a tuple of large arrays) and many arguments.
    f = njit(lambda t: t[0][0, 0, 0, 0, 0, 0, 0, 0, 0] + t[1][0, 0, 0, 0, 0, 0, 0, 0, 0])
    a = np.ones((1,) * 9)
    assert f((a, a)) == 2.0

    src = "def many(" + ", ".join(f"a{i}" for i in range(40)) + "):\n    return " + " + ".join(f"a{i}" for i in range(40)) + "\n"
    ns = {}
    exec(compile(src, "<many>", "exec"), ns)
    import linecache
    linecache.cache["<many>"] = (len(src), None, src.splitlines(True), "<many>")
    g = njit(ns["many"])
    assert g(*range(40)) == sum(range(40))
    with pytest.raises(TypeError, match="at most 64 arguments"):
        big = "def big(" + ", ".join(f"a{i}" for i in range(70)) + "):\n    return a0\n"
        exec(compile(big, "<big>", "exec"), ns)
        linecache.cache["<big>"] = (len(big), None, big.splitlines(True), "<big>")
        njit(ns["big"])(*range(70))


def test_two_views_of_one_allocation_share_its_owner():
    @njit
    def halves(n):
        a = np.arange(n)
        return a, a[n // 2:]

    whole, half = halves(10)
    del whole  # the second view must keep the memory alive on its own
    import gc
    gc.collect()
    np.testing.assert_array_equal(half, np.arange(5, 10))
    assert half.base is not None


def test_non_native_byte_order_is_refused():
    f = njit(lambda a: a[0])
    big = np.arange(3, dtype=">f8")
    with pytest.raises(TypeError, match="type kernels cannot take: ndarray"):
        f(big)
    assert f(big.astype("<f8")) == 0.0


def test_tuples_looped_over_and_indexed_at_run_time():
    @njit
    def f(x):
        s = 0
        for m in (16, 8, 4, 2, 1):
            s += m * x
        t = (1.5, 2.5, 3.5)
        return s, t[x % 3], t[-x]

    assert f(2) == (62, 3.5, 2.5)

    @njit
    def at(i):
        return (10, 20, 30)[i]

    with pytest.raises(IndexError, match="tuple index out of range"):
        at(3)

    @njit
    def mixed(i):
        return (1, 2.0)[i]

    with pytest.raises(kjit.UnsupportedError, match="indexed by a constant integer, or by any integer when"):
        mixed(0)


def test_enumerate_zip_keywords_and_defaults_in_calls():
    @njit
    def helper(x, y=2.0, scale=-1, flag=True):
        return (x + y) * scale if flag else x

    @njit
    def use(a):
        return helper(a) + helper(a, 3.0) + helper(a, scale=2) + helper(y=1.0, x=a) + helper(a, flag=False)

    assert use(1.0) == (1 + 2) * -1 + (1 + 3) * -1 + (1 + 2) * 2 + (1 + 1) * -1 + 1.0

    @njit
    def unknown_keyword():
        return helper(1.0, z=3)

    with pytest.raises(kjit.TypingError, match="helper\\(\\) got an unexpected keyword argument 'z'"):
        unknown_keyword()

    @njit
    def walk(a, b, m):
        s = 0.0
        for i, x in enumerate(a):
            s += i * x
        for x, y in zip(a, b):  # as long as the shorter
            s += x * y
        for i, (x, y) in enumerate(zip(a, b), 10):
            s += i
        for i, row in enumerate(m):
            for j, v in enumerate(row):
                s += i * j * v
        for k, c in enumerate((1, 2, 3), start=1):
            s += k * c
        return s

    a, b, m = np.arange(5.0), np.ones(3), np.arange(6.0).reshape(2, 3)
    want = (sum(i * x for i, x in enumerate(a)) + sum(x * y for x, y in zip(a, b))
            + sum(i for i, _ in enumerate(zip(a, b), 10))
            + sum(i * j * m[i, j] for i in range(2) for j in range(3)) + 1 + 4 + 9)
    assert walk(a, b, m) == want

    @njit
    def outside(a):
        return zip(a, a)

    with pytest.raises(kjit.UnsupportedError, match="zip\\(\\) can only be used as the iterable of a for loop"):
        outside(a)


def test_negative_literal_powers_and_sizes_too_big():
    @njit
    def milli(x):
        return x * 10 ** -3, 2 ** 3, 2 ** -1

    assert milli(5) == (0.005, 8, 0.5)

    @njit
    def alloc(n, m):
        return np.ones((n, m)).size

    assert alloc(3, 4) == 12
    for n, m in ((2 ** 32, 2 ** 32), (2 ** 61, 1), (2 ** 62 + 1, 1)):
        with pytest.raises(ValueError, match="array is too big"):
            alloc(n, m)


def test_arrays_a_variable_owns_are_freed_when_it_takes_the_next(tmp_path):
    # Each iteration's np.ones is freed when `t` takes the next one (2000
    # arrays of 800 KB would be 1.6 GB held to the end of the call); a view
    # kept past the iteration keeps its array alive, and stays right.
    import subprocess
    import sys
    prog = tmp_path / "churn.py"
    prog.write_text(
        "import numpy as np\n"
        "from kjit import njit\n"
        "@njit\n"
        "def churn(n, m):\n"
        "    s = 0.0\n"
        "    for i in range(n):\n"
        "        t = np.ones(m)\n"
        "        u = t.copy()\n"
        "        u[0] = i\n"
        "        s += t[0] + u[0] + u.sum()\n"
        "    return s\n"
        "@njit\n"
        "def keeps(n, m):\n"
        "    last = np.zeros(1)\n"
        "    for i in range(n):\n"
        "        t = np.full(m, float(i))\n"
        "        last = t[:2]\n"
        "    return last.sum()\n"
        "print(churn(2000, 100_000), keeps(50, 1000))\n"
        # VmHWM: this process's own peak (ru_maxrss also counts the parent's
        # memory before exec, as Linux keeps it across execve).
        "print([int(l.split()[1]) // 1024 for l in open('/proc/self/status') if l.startswith('VmHWM')][0])\n")
    import os
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    env = dict(os.environ, PYTHONPATH=os.path.join(root, "python_bindings"))
    r = subprocess.run([sys.executable, str(prog)], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    values, peak_mb = r.stdout.split("\n")[:2]
    n, m = 2000, 100_000
    assert values.split() == [str(float(n + sum(range(n)) + n * (m - 1) + sum(range(n)))), "98.0"]
    assert int(peak_mb) < 800, f"peak {peak_mb} MB"


def test_range_with_a_zero_step_at_run_time_raises():
    @njit
    def total(n, s):
        t = 0
        for i in range(0, n, s):
            t += i
        return t

    assert total(10, 3) == 18 and total(10, -1) == 0
    with pytest.raises(ValueError, match="range\\(\\) arg 3 must not be zero"):
        total(10, 0)


def test_review_mends_parameter_widening_and_enumerate_start():
    @njit
    def halve(x):
        x = x * 0.5  # the int parameter's name now holds floats
        return x

    assert halve(3) == 1.5

    @njit
    def starts_once():
        k = 10
        out = 0
        for i, x in enumerate(np.arange(5.0), k):
            k = 100
            out = out * 1000 + i
        return out

    assert starts_once() == 10011012013014


def test_lambdas_on_one_line_with_the_same_parameters_are_told_apart():
    # The text alone cannot say which of these a function object is: kjit
    # reads such a lambda from its bytecode (each gives its own result).
    ops = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b}
    got = {k: njit(f)(3, 2) for k, f in ops.items()}
    assert got == {"+": 5, "-": 1, "*": 6}
    assert njit(ops["-"])._frontend == "bytecode"
