"""Values that may be None in @njit functions (Numba's OptionalType): a
variable assigned None on one path and a value on another, a function that
returns a value or None, `is None` / `is not None` tested at run time, and
the value read where a number is needed (TypeError when it is None, with
Numba's message). Checked against Numba where Numba compiles the function."""
import numpy as np
import pytest

from kjit import njit

numba = pytest.importorskip("numba")


def none_or_double(n):
    x = None
    if n > 5:
        x = n * 2
    if x is None:
        return 0
    return x


def value_or_none(n):
    if n > 0:
        return n * 1.5
    return None


def first_index(a, v):
    idx = None
    for i in range(a.shape[0]):
        if a[i] == v:
            idx = i
            break
    return idx


def is_not_none(n):
    best = None
    for i in range(n):
        if best is None or i * i % 7 > best:
            best = i * i % 7
    if best is not None:
        return best + 100
    return -1


def arithmetic_on_the_value(n):
    x = None
    if n > 0:
        x = n
    return x + 1


@pytest.mark.parametrize("fn, args", [
    (none_or_double, (7,)), (none_or_double, (3,)), (value_or_none, (2,)), (value_or_none, (-1,)),
    (first_index, (np.arange(5), 3)), (first_index, (np.arange(5), 9)),
    (is_not_none, (0,)), (is_not_none, (10,)), (arithmetic_on_the_value, (4,)),
])
def test_same_as_numba(fn, args):
    got = njit(fn)(*args)
    ref = numba.njit(fn)(*args)
    assert type(got) is type(ref) and got == ref, (fn.__name__, args, got, ref)


def test_the_value_of_none_is_a_type_error():
    # Numba's message, at run time.
    with pytest.raises(TypeError, match="expected int64, got None"):
        njit(arithmetic_on_the_value)(-1)
    with pytest.raises(TypeError, match="expected int64, got None"):
        numba.njit(arithmetic_on_the_value)(-1)


def test_truth_of_a_value_or_none_is_pythons():
    # (Numba 0.56 cannot type `if x:` of an optional; Python's result.)
    def truthy(n):
        x = None
        if n > 2:
            x = n - 3
        if x:
            return 1
        if not x:
            return 2
        return 3
    f = njit(truthy)
    assert [f(n) for n in (5, 3, 1)] == [truthy(n) for n in (5, 3, 1)] == [1, 2, 2]
