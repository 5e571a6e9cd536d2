"""Constants that the typer folds (issue 33): bool literals under `~`, uint64
comparisons known at compile time, NumPy-typed integers that wrap where
Python literals are exact, tuple indices computed from literals, and the
element type of float32 arrays under `**` and integer scalars. Each
expected value is Numba's (0.56) and, where they agree, NumPy's."""
import numpy as np
import pytest

from kjit import errors, njit


def invert_literals():
    return ~True, ~False, ~~True, ~(not True)


def invert_literal_in_if():
    if ~True:
        return 1
    return 0


def invert_bool_value(b):
    return ~b


def test_invert_of_a_bool_literal_is_an_int_as_in_python():
    # CPython folds ~True to -2 before Numba sees it; ~ of a bool value is
    # logical not (Numba's np.bool_ rule), as before.
    assert njit(invert_literals)() == (-2, -1, 1, -1) == invert_literals()
    assert njit(invert_literal_in_if)() == 1
    assert njit(invert_bool_value)(True) is False
    assert njit(invert_bool_value)(False) is True


def uint64_compare_in_if():
    if np.uint64(18446744073709551615) > np.uint64(1):
        return 1
    return 0


def uint64_compare_in_while():
    k = 0
    while np.uint64(18446744073709551615) > np.uint64(1) and k < 3:
        k += 1
    return k


def uint64_compare_values():
    big = np.uint64(18446744073709551615)
    return big > np.uint64(1), big < np.uint64(1), np.uint64(9223372036854775808) >= np.uint64(5)


def test_uint64_constants_compare_unsigned():
    assert njit(uint64_compare_in_if)() == 1
    assert njit(uint64_compare_in_while)() == 3
    assert njit(uint64_compare_values)() == (True, False, True)


def numpy_int_shift():
    return np.int64(4294967296) << 61


def numpy_int_product():
    return 1000 * np.int64(-4424087604200824248)


def numpy_uint_sum():
    return np.uint64(18446744073709551615) + np.uint64(5)


def numpy_int_chain():
    return np.int64(9223372036854775807) * 3 + 7, -np.int64(-9223372036854775807) - 2


def numpy_int_power():
    return np.int64(3037000500) ** 2


def test_numpy_typed_integer_constants_wrap_as_numpy():
    assert njit(numpy_int_shift)() == 0
    assert njit(numpy_int_product)() == 3130973489468139840
    assert njit(numpy_uint_sum)() == 4
    assert njit(numpy_int_chain)() == (-9223372036854775804, 9223372036854775805)
    # NumPy's wrapped square (Numba 0.56 goes through float64 here: ...248).
    assert njit(numpy_int_power)() == np.int64(3037000500) ** 2 == -9223372036709301616


def python_int_overflow():
    return 4294967296 << 61


def test_python_int_literals_stay_exact():
    # Nothing holds the exact value: a located error, as before.
    # (From the bytecode, CPython has folded it: the literal is refused.)
    with pytest.raises(errors.TypingError, match="9903520314283042199192993792"):
        njit(python_int_overflow)()


def tuple_index_mod():
    t = (1, 2.5, 3)
    return t[20 % 3], t[7 // 3], t[5 & 1], t[-4 % 3]


def test_tuple_index_from_folded_literals():
    assert njit(tuple_index_mod)() == (3, 3, 2.5, 3)


def power(a):
    return a ** 2


def power_float(a):
    return a ** 2.0


def plus_int(a):
    return a + 2


def mixed_arrays(a, b):
    return a + b


@pytest.mark.parametrize("fn, args, dtype", [
    (power, (np.float32([1.5, 2.0]),), np.float32),
    (power_float, (np.float32([1.5, 2.0]),), np.float64),
    (plus_int, (np.float32([1.5, 2.0]),), np.float32),
    (power, (np.complex64([1 + 1j]),), np.complex64),
    (power, (np.int32([3, 4]),), np.int64),
    (mixed_arrays, (np.float32([1.5]), np.int64([2])), np.float32),
], ids=["f32**2", "f32**2.0", "f32+2", "c64**2", "i32**2", "f32+i64-array"])
def test_array_operations_take_numbas_loop_types(fn, args, dtype):
    # Numba's ufunc loops: an integer meeting a float casts to it.
    r = njit(fn)(*args)
    assert r.dtype == dtype
    np.testing.assert_allclose(r, fn(*args), rtol=1e-6)
