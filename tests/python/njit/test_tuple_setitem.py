"""kjit.tuple_setitem(t, i, v): a copy of a tuple with one element replaced
(Numba's numba.cpython.unsafe.tuple.tuple_setitem), the way kernels update
a tuple of accumulators element by element."""
import pytest

import kjit
from kjit import errors, njit


def test_constant_and_negative_index():
    @njit
    def f(t):
        t = kjit.tuple_setitem(t, 0, 10)
        return kjit.tuple_setitem(t, -1, 2.5)  # (converted to the element's type)

    assert f((1, 2, 3)) == (10, 2, 2)
    assert f((1.0, 2.0)) == (10.0, 2.5)


def test_heterogeneous_tuple_with_a_constant_index():
    @njit
    def f(t):
        return kjit.tuple_setitem(t, 1, 7)

    assert f((1.5, 2, True)) == (1.5, 7, True)


def test_run_time_index_in_a_loop():
    @njit
    def scale(t, k):
        for i in range(len(t)):
            t = kjit.tuple_setitem(t, i, t[i] * k + i)
        return t

    assert scale((1.0, 2.0, 3.0, 4.0), 2.0) == (2.0, 5.0, 8.0, 11.0)

    @njit
    def at(t, i, v):
        return kjit.tuple_setitem(t, i, v)

    assert at((1, 2, 3), 1, 9) == (1, 9, 3)
    assert at((1, 2, 3), -3, 9) == (9, 2, 3)
    with pytest.raises(IndexError, match="tuple index out of range"):
        at((1, 2, 3), 3, 9)
    # the Python function behaves the same
    assert kjit.tuple_setitem((1, 2, 3), -1, 0) == (1, 2, 0)
    with pytest.raises(IndexError):
        kjit.tuple_setitem((1, 2, 3), 5, 0)


def test_misuse_is_located():
    @njit
    def mixed(t, i):
        return kjit.tuple_setitem(t, i, 0)

    with pytest.raises(errors.TypingError, match="a run-time index needs a tuple of one element type") as e:
        mixed((1, 2.0), 0)
    assert "test_tuple_setitem.py" in str(e.value)

    @njit
    def out_of_range(t):
        return kjit.tuple_setitem(t, 2, 0)

    with pytest.raises(errors.TypingError, match="index 2 is out of range for a tuple of 2 elements"):
        out_of_range((1, 2))

    @njit
    def not_a_tuple(x):
        return kjit.tuple_setitem(x, 0, 0)

    with pytest.raises(errors.TypingError, match="the first argument is a tuple"):
        not_a_tuple(3)
