"""try/except/else in @njit functions. Numba 0.56 (Debian's) catches with
`except Exception:` and bare `except:`; those cases are checked against it.
Clauses that name classes (Numba 0.56 cannot type them on this Python) are
checked against Python's own results for the same function."""

import numpy as np
import pytest

from kjit import errors, njit

numba = pytest.importorskip("numba")


def catch_all(n):
    try:
        if n > 3:
            raise ValueError("big")
        r = n
    except Exception:
        r = -1
    return r


def bare_except_in_a_loop(n):
    total = 0
    for i in range(n):
        try:
            if i % 3 == 0:
                raise ValueError("multiple of 3")
            total += i
        except:  # noqa: E722
            total -= 1
    return total


@pytest.mark.parametrize("fn, args", [
    (catch_all, (5,)), (catch_all, (1,)), (bare_except_in_a_loop, (10,)),
])
def test_same_as_numba(fn, args):
    assert njit(fn)(*args) == numba.njit(fn)(*args)


def ratio(x):
    try:
        return 1.0 / x
    except ZeroDivisionError:
        return -1.0


@njit
def checked_get(a, i):
    if i >= a.shape[0]:
        raise IndexError("too far")
    return a[i]


def lookup(a, i):
    try:
        v = checked_get(a, i)
    except (KeyError, IndexError):
        v = -99
    else:
        v += 1000
    return v


def partial_list(n):
    out = []
    try:
        for i in range(n):
            out.append(10 // (3 - i))
    except ZeroDivisionError:
        out.append(-1)
    return out


def nested(n):
    try:
        try:
            if n > 0:
                raise KeyError("k")
            return 0
        except ValueError:
            return 1
    except LookupError:  # KeyError's base class
        return 2


@pytest.mark.parametrize("fn, args", [
    (ratio, (0.0,)), (ratio, (4.0,)), (partial_list, (5,)), (partial_list, (2,)),
    (nested, (1,)), (nested, (0,)),
])
def test_same_as_python(fn, args):
    assert njit(fn)(*args) == fn(*args)


def test_a_callees_exception_is_caught():
    assert njit(lookup)(np.arange(3), 1) == 1001
    assert njit(lookup)(np.arange(3), 7) == -99


def test_an_exception_no_clause_matches_goes_on():
    @njit
    def f(n):
        try:
            raise ValueError("not caught here")
        except ZeroDivisionError:
            return 1
    with pytest.raises(ValueError, match="not caught here"):
        f(1)


def test_after_a_caught_exception_the_next_one_is_reported():
    @njit
    def f(n):
        try:
            raise ValueError("first")
        except ValueError:
            pass
        if n > 0:
            raise KeyError("second")
        return 0
    with pytest.raises(KeyError, match="second"):
        f(1)
    assert f(0) == 0


def test_binding_the_exception_is_a_located_error():
    from kjit import frontend
    src = "def f(x):\n    try:\n        pass\n    except ValueError as e:\n        pass\n"
    with pytest.raises(errors.UnsupportedError, match="exception object cannot be bound") as info:
        frontend.parse(src, "f.py")
    assert (info.value.lineno, info.value.col) == (4, 23)
