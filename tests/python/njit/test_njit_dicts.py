"""Dicts made in @njit functions: `{}` typed by the first item stored,
`{k: v}` displays, `dict()`, `d[k]`, `d[k] = v`, `d[k] += v`, `in`, `len`,
`get`, `pop`, `setdefault`, `keys`/`values`/`items`, iteration in insertion
order, keys that are numbers or tuples of numbers, and a returned dict (a
Python dict). Checked against Numba where Numba 0.56 compiles the function
here, else against Python."""

import numpy as np
import pytest

from kjit import errors, njit

numba = pytest.importorskip("numba")


def counts(a):
    d = {}
    for x in a:
        d[x] = d.get(x, 0) + 1
    return d[3], len(d), 3 in d, 99 in d


def display(n):
    d = {1: 1.5, 2: 2.5, n: 0.5}
    d[4] = 4.5
    d[1] += 10.0
    return d[1], d[2], d[n], len(d), d.get(7, -1.0)


def pops(n):
    d = {}
    for i in range(n):
        d[i] = i * i
    a = d.pop(3)
    b = d.pop(100, -1)
    c = d.setdefault(3, 33)
    e = d.setdefault(4, 44)
    return a, b, c, e, len(d)


@pytest.mark.parametrize("fn, args", [
    (display, (9,)), (display, (2,)), (pops, (6,)),
])
def test_same_as_numba(fn, args):
    assert njit(fn)(*args) == numba.njit(fn)(*args)


def order(n):
    d = dict()
    for i in range(n, 0, -1):
        d[i * 7 % 11] = float(i)
    del_key = d.pop(n * 7 % 11)
    ks = [k for k in d]
    return ks, list(d.keys()), list(d.values()), list(d.items()), del_key


def tuple_keys(n):
    d = {}
    for i in range(n):
        for j in range(3):
            d[(i % 2, j)] = d.get((i % 2, j), 0) + i
    return d


def growth(n):
    # Many inserts and deletes: the table grows and drops dead entries.
    d = {}
    for i in range(n):
        d[i] = i
        if i % 3 == 0:
            d.pop(i)
    total = 0
    for k in d:
        total += d[k]
    return total, len(d)


def float_keys(n):
    d = {0.5: 1, 1.0: 2}
    d[1] = 5  # 1 == 1.0: the same key
    return d, n


@pytest.mark.parametrize("fn, args", [
    (counts, (np.array([1, 3, 3, 2, 3, 1]),)),  # (Numba 0.56 cannot type d.get on `{}`)
    (order, (8,)), (tuple_keys, (5,)), (growth, (1000,)), (float_keys, (0,)),
])
def test_same_as_python(fn, args):
    assert njit(fn)(*args) == fn(*args)


def test_a_returned_dict_is_a_python_dict():
    @njit
    def squares(n):
        d = {}
        for i in range(n):
            d[i] = i * i
        return d
    assert squares(4) == {0: 0, 1: 1, 2: 4, 3: 9}
    assert type(squares(0)) is dict


def test_a_missing_key_is_a_key_error():
    @njit
    def get(n):
        d = {1: 2}
        return d[n]
    assert get(1) == 2
    with pytest.raises(KeyError):
        get(5)


def test_a_dict_nothing_is_stored_in_is_a_located_error():
    def f(n):
        d = {}
        return len(d) + n
    with pytest.raises(errors.TypingError, match="cannot infer the types of the dict 'd'"):
        njit(f)(1)


def test_an_empty_display_nothing_types_is_a_located_error_not_a_result():
    # len({}) once returned None (the call had no type and no error); Numba
    # says it cannot infer the dict's types. Lists are Python's: len([]) is 0.
    def f(n):
        return len({}) + n

    def g(n):
        return len(set()) + n
    for fn, what in ((f, "dict"), (g, "set")):
        with pytest.raises(errors.TypingError, match=f"cannot infer the types of this empty {what}") as info:
            njit(fn)(1)
        assert "return len(" in str(info.value) and "^" in str(info.value), str(info.value)  # the line, a caret


def test_dict_comprehension():
    # {k: v for ...} builds the dict in a loop before its statement, as a
    # list comprehension builds its list. (Numba 0.56 cannot compile one;
    # Python is the reference.)
    @njit
    def squares(n):
        d = {i: i * i for i in range(n) if i % 2 == 0}
        return d, {v: k for k, v in d.items()}

    assert squares(9) == ({0: 0, 2: 4, 4: 16, 6: 36, 8: 64}, {0: 0, 4: 2, 16: 4, 36: 6, 64: 8})
