"""Numba's scalar semantics where users see them, table-driven: for each
operation and each operand type, kjit's @njit gives Numba's result type and
Numba's value (to the bit: -0.0 and NaN parts count). Each row here was a
difference once (found by trying programs as a user and by random
programs); the tables hold the neighbouring cases too."""
import cmath
import math
import struct

import numpy as np
import pytest

from kjit import njit

numba = pytest.importorskip("numba")

INTS = (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64)


def bits(v):
    """A value as comparable bits: floats and complex parts by their bytes
    (so -0.0 differs from 0.0 and NaN equals NaN), others as they are."""
    if isinstance(v, complex):
        return ("complex", struct.pack("<dd", v.real, v.imag))
    if isinstance(v, float):
        return ("float", struct.pack("<d", v))
    if isinstance(v, tuple):
        return tuple(bits(x) for x in v)
    return (type(v).__name__, v)


def outcome(jit, f, args):
    """(result bits, result type name) or ("raises", exception class name)."""
    j = jit(f)
    try:
        r = j(*args)
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        return ("raises", type(e).__name__)
    sig = j.nopython_signatures[0].return_type if hasattr(j, "nopython_signatures") else \
        j.signatures[0].split(" -> ")[1]
    return bits(r), str(sig)


def same_as_numba(f, *args):
    got, want = outcome(njit, f, args), outcome(numba.njit, f, args)
    if want == ("raises", "TypingError"):  # Numba 0.56 cannot type it: Python's value is the reference
        assert got[0] == bits(f(*args)), f"{f.__name__}{args}: kjit {got}, Python {f(*args)!r}"
        return
    assert got == want, f"{f.__name__}{args}: kjit {got}, Numba {want}"


def neg(x):
    return -x


def inv(x):
    return ~x


def pos(x):
    return +x


def as_int(x):
    return int(x)


def as_float(x):
    return float(x)


def as_complex(x):
    return complex(x)


def as_complex2(x, y):
    return complex(x, y)


def edges(t):
    if t is np.bool_:
        return [np.bool_(False), np.bool_(True)]
    info = np.iinfo(t)
    return [t(v) for v in sorted({info.min, info.min + 1, -1 if info.min else 0, 0, 1, 3, info.max})]


@pytest.mark.parametrize("op", [neg, inv, pos], ids=lambda f: f.__name__)
@pytest.mark.parametrize("t", (np.bool_,) + INTS, ids=lambda t: t.__name__)
def test_unary_operators_on_every_integer_type(op, t):
    # Numba computes -x and ~x in the operand's own type, then widens
    # (-int16(-32768) is -32768; -uint8(3) is 253); ~ of a bool is logical not.
    for v in edges(t):
        same_as_numba(op, v)


@pytest.mark.parametrize("conv", [as_int, as_float, as_complex], ids=lambda f: f.__name__)
@pytest.mark.parametrize("v", [np.int8(-5), np.uint8(200), np.int16(-300), np.uint32(4000000000), np.int64(-7),
                               np.uint64(2 ** 64 - 1), np.float32(2.5), -0.0, 2.75, True],
                         ids=lambda v: f"{type(v).__name__}({v})")
def test_int_float_and_complex_keep_numbas_types(conv, v):
    # int() of an integer keeps its type (int(uint64(2**64 - 1)) is 2**64 - 1);
    # float(float32) stays float32; complex(float32) is complex64.
    same_as_numba(conv, v)


@pytest.mark.parametrize("x,y", [(np.float32(1.5), np.float32(-2.0)), (1.5, -2.0), (np.float32(1.5), 2.0), (1, 2)],
                         ids=lambda v: type(v).__name__)
def test_complex_of_two_parts(x, y):
    same_as_numba(as_complex2, x, y)


def cdiv(a, b):
    return a / b


DIVISORS = [complex(math.inf, 5), complex(5, math.inf), complex(1e308, 1e308), complex(1e-320, 1e-320),
            complex(3, 4), complex(-2, 0.5), complex(0, 2), complex(2, 0), complex(math.nan, 1), complex(1, math.nan),
            complex(math.inf, math.inf), complex(0, 0)]


@pytest.mark.parametrize("b", DIVISORS, ids=repr)
@pytest.mark.parametrize("a", [14 + 0j, complex(1e308, -1e308), complex(-3, 7), complex(0, -0.0)], ids=repr)
def test_complex_division_is_cpythons(a, b):
    # CPython's _Py_c_quot (Numba's): scaled by the divisor's larger part.
    same_as_numba(cdiv, a, b)
    if b != 0:
        f32 = outcome(njit, cdiv, (np.complex64(a), np.complex64(b)))
        assert f32 == outcome(numba.njit, cdiv, (np.complex64(a), np.complex64(b)))


def pow_(x, e):
    return x ** e


def pow_literal(x):
    return x ** -2


def pow_literal_masked(x):
    return (x ** -1) & 63


@pytest.mark.parametrize("x,e", [(0.0, -1), (-0.0, -3), (0.0, -1.0), (np.float32(0), -2), (0.0, 0), (2.0, -2),
                                 (0, -1), (2, -1), (-1, -3), (1, -5), (3, 2)], ids=repr)
def test_powers_with_zero_and_negative_exponents(x, e):
    # float ** int with a zero base and a negative exponent raises
    # ZeroDivisionError; float ** float gives inf, as Numba's.
    same_as_numba(pow_, x, e)


@pytest.mark.parametrize("x", [-2, -1, 0, 1, 3], ids=repr)
def test_an_integer_to_a_negative_literal_power_is_an_integer(x):
    # As with an exponent in a variable (Numba's typing): 0 raises,
    # 1 and -1 keep magnitude 1, others give 0.
    same_as_numba(pow_literal, x)
    same_as_numba(pow_literal_masked, x)


def test_constant_powers_fold_as_python():
    # CPython folds 10 ** -3 to 0.001 before Numba sees it; kjit folds it too.
    assert njit(lambda: 10 ** -3)() == 0.001
    assert cmath.isclose(njit(lambda: (2 + 1j) ** 2)(), (2 + 1j) ** 2)


def complex64_literal(x):
    return np.complex64(0.1) + x


def complex64_parts(x):
    return np.complex64(0.1 + 0.2j) * x


def float32_literal(x):
    return np.float32(0.1) + x


@pytest.mark.parametrize("f", [complex64_literal, complex64_parts, float32_literal], ids=lambda f: f.__name__)
@pytest.mark.parametrize("x", [1.0, 1 + 1j, np.float32(2)], ids=repr)
def test_single_precision_constants_keep_their_precision(f, x):
    # np.complex64(0.1) is 0.1 rounded to float32 (it kept double precision
    # when it met float64 or complex128 values).
    same_as_numba(f, x)


def big_power(x):
    return x + 2 ** 100


def big_shift(x):
    return x * (1 << 70)


def big_product(x):
    return x + (2 ** 62) * 4


@pytest.mark.parametrize("f", [big_power, big_shift, big_product], ids=lambda f: f.__name__)
def test_a_constant_no_64_bit_integer_holds_is_a_located_error(f):
    # Python's integers are unbounded; kjit's constants are folded exactly and
    # one that fits no 64-bit integer is an error at its line (it wrapped to
    # 0 once: x + 2 ** 100 was x).
    from kjit import errors
    with pytest.raises(errors.TypingError, match="no 64-bit integer holds|does not fit in 64 bits") as info:
        njit(f)(1)
    assert "return x" in str(info.value) and "^" in str(info.value)


def max_int64(x):
    return (2 ** 63 - 1) + 0 * x


def folded_chain(x):
    return x + (1 << 62) * 2 - 2 ** 63


def past_int64(x):
    return 2 ** 63 + x


@pytest.mark.parametrize("f", [max_int64, folded_chain, past_int64], ids=lambda f: f.__name__)
def test_constant_expressions_fold_exactly(f):
    # As CPython folds them before Numba sees them: 2 ** 63 - 1 is int64's
    # largest value (its intermediate 2 ** 63 is a uint64 constant, as the
    # literal 9223372036854775808 is typed).
    same_as_numba(f, 1)


def either(c, a, b):
    return a if c else b


@pytest.mark.parametrize("t", INTS + (np.float32, np.float64), ids=lambda t: t.__name__)
def test_a_bool_and_a_number_unify_as_the_number(t):
    # (found by tools/fuzz_diff.py: a uint8 or a bool was a uint64)
    same_as_numba(either, True, t(3), False)
    same_as_numba(either, False, t(3), True)


def round_to(x, n):
    return round(x, n)


@pytest.mark.parametrize("t", [np.float32, np.float64])
@pytest.mark.parametrize("x", [2.675, 0.125, 1.005, -3.14159, 7.5, 12345.678, 1e-8, -0.0, 1e30, 3.4e38,
                               math.inf, math.nan])
def test_round_to_digits_rounds_in_the_arguments_type(t, x):
    # Numba rounds the scaled value in the argument's own type: float32's
    # round(np.float32(2.675), 2) is 2.68 (267.5 after scaling), not 2.67.
    for n in (-2, 0, 1, 2, 3, 7, 25):
        same_as_numba(round_to, t(x), n)


def add(a, b):
    return a + b


def sub(a, b):
    return a - b


def mul(a, b):
    return a * b


def div(a, b):
    return a / b


def floordiv(a, b):
    return a // b


def mod(a, b):
    return a % b


def less(a, b):
    return a < b


SCALARS = (np.bool_,) + INTS + (np.float32, np.float64, np.complex128)


@pytest.mark.parametrize("op", [add, sub, mul, div, floordiv, mod, less], ids=lambda f: f.__name__)
def test_the_binary_promotion_table_is_numbas(op):
    # Every pair of scalar types (bool, the eight integers, float32,
    # float64, complex128): Numba's result type and value.
    for a in SCALARS:
        for b in SCALARS:
            if op in (floordiv, mod, less) and np.complex128 in (a, b):
                continue  # (Numba cannot type these)
            same_as_numba(op, a(3), b(2))


def conj(z):
    return z.conjugate()


def csqrt(z):
    return cmath.sqrt(z)


def minmax(x, y):
    return np.minimum(x, y), np.maximum(x, y)


@pytest.mark.parametrize("z", [complex(1.0, 0.0), complex(-2.0, -0.0), complex(0.0, 3.5), complex(-1e-20, 1e-30),
                               complex(-4.0, 1e-300), complex(1e308, 1e308)])
def test_conjugate_and_sqrt_keep_signs_and_small_parts(z):
    # conjugate() of a zero imaginary part is -0.0; cmath.sqrt keeps the
    # small imaginary part under cancellation (CPython's algorithm).
    same_as_numba(conj, z)
    same_as_numba(csqrt, z)


@pytest.mark.parametrize("x,y", [(1.0, math.nan), (math.nan, 1.0), (math.nan, math.nan), (-0.0, 0.0), (0.0, -0.0)])
def test_minimum_and_maximum_propagate_nan_from_either_side(x, y):
    same_as_numba(minmax, x, y)
