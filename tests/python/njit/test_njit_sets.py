"""Sets in @njit functions: `set()` typed by the first add, `set(seq)`,
`{a, b}` displays and set comprehensions, `add`/`discard`/`remove`/`pop`/
`update`/`copy`/`clear`, `in`, `len`, iteration, `| & - ^` and their
in-place forms, the subset comparisons, and a returned set (a Python set).
A kjit set is Numba's hash table, so it iterates in the order Numba's
does: checked against Numba 0.56."""
import os

import numpy as np
import pytest

from kjit import errors, njit

numba = pytest.importorskip("numba")

bytecode = os.environ.get("KJIT_FRONTEND") == "bytecode"
needs_source = pytest.mark.skipif(bytecode, reason="set displays (BUILD_SET) are read from "
                                  "source text only")


def unique_count(n):
    s = set()
    for i in range(n):
        s.add(i % 7)
    return len(s), 3 in s, 9 in s


def iteration_order(n):
    # Keys that collide in the table: the order is the table's.
    s = set()
    for i in range(n):
        s.add(i * 7919 % 1000)
    for i in range(0, n, 3):
        s.discard(i * 7919 % 1000)
    out = []
    for x in s:
        out.append(x)
    return out


def from_sequences(n):
    a = set(np.arange(n) % 5)
    b = set([1.5, 2.5, -3.0, 1e10, 2.5])
    b.add(7)
    return sorted(a), list(b), len(b)


def mutation(n):
    s = set(range(n))
    t = s.copy()
    t.remove(2)
    first = t.pop()
    t.update([100, 200, 3])
    s.clear()
    s.add(-1)
    return list(s), list(t), first


def operators(n):
    a = set(range(n))
    b = set(range(3, n + 3))
    return (sorted(a | b), sorted(a & b), sorted(a - b), sorted(a ^ b),
            a <= b, a < a | b, a | b >= b, a == set(range(n)), a != b,
            a.isdisjoint(b), a.issubset(a | b), (a | b).issuperset(b))


def in_place(n):
    a = set(range(n))
    b = set(range(0, 2 * n, 2))
    a |= b
    c = set(range(n))
    c &= b
    d = set(range(n))
    d -= b
    e = set(range(n))
    e ^= b
    return list(a), list(c), list(d), list(e)


def tuple_elements(n):
    s = set()
    for i in range(n):
        s.add((i % 3, i % 2))
    return len(s), (1, 1) in s, list(s)


def float_keys(n):
    s = set()
    for i in range(n):
        s.add(i * 0.37 - 5.0)
    s.add(0.0)
    return list(s)


def returned(n):
    s = set()
    for i in range(n):
        s.add(i * i % 11)
    return s


@pytest.mark.parametrize("fn", [unique_count, iteration_order, from_sequences, mutation,
                                operators, in_place, tuple_elements, float_keys, returned])
@pytest.mark.parametrize("n", [5, 40])
def test_same_as_numba(fn, n):
    assert njit(fn)(n) == numba.njit(fn)(n)


def display(n):
    s = {5, 3, 1, 40, 17, 33, 1}
    t = {n, 17, 33, 1}
    u = {-1, 2.5, (3)}
    return list(s), list(t), list(u), {1, n} == {n, 1}


def many_constants(n):
    s = {98, 240, 276, 281, 243, 203, 77, 118, 77, 267, 16, 32, 48, 64, 80, 96, 112}
    return list(s)


@needs_source
@pytest.mark.parametrize("fn", [display, many_constants])
def test_displays_as_numba(fn):
    # More than two constants are a frozenset in CPython's bytecode, which
    # Numba's set takes its order from: kjit follows the same steps.
    assert njit(fn)(4) == numba.njit(fn)(4)


@needs_source
def test_set_comprehension():
    # (Numba 0.56 cannot compile a set comprehension; Python's set is the
    # reference, and kjit's order is its table's.)
    @njit
    def f(n):
        return {i * i % 10 for i in range(n) if i != 3}

    assert f(12) == {i * i % 10 for i in range(12) if i != 3}


def test_python_hash_of_keys():
    # Keys hash as Python's hash() does (the order of a set depends on it).
    @njit
    def order(a):
        s = set()
        for x in a:
            s.add(x)
        return list(s)

    vals = np.array([2.0**61, -2.0**61 + 3, 1e300, -0.5, 7.25, 1e-300, 2.0**62 + 1024])
    assert order(vals) == numba.njit(order.py_func)(vals)
    ints = np.array([2**61 - 1, 2**62 + 5, -(2**63), 2**63 - 1, -2, -1, 0, 16, 32])
    assert order(ints) == numba.njit(order.py_func)(ints)


def test_errors():
    @njit
    def pop_empty(n):
        s = set()
        s.add(n)
        s.pop()
        return s.pop()

    with pytest.raises(KeyError, match="set.pop\\(\\): empty set"):
        pop_empty(1)

    @njit
    def remove_missing(n):
        s = set(range(n))
        s.remove(n + 1)
        return len(s)

    with pytest.raises(KeyError, match="key not in set"):
        remove_missing(3)

    @njit
    def subscript(n):
        s = set(range(n))
        return s[0]

    with pytest.raises(errors.TypingError, match="'set' object is not subscriptable"):
        subscript(3)

    @njit
    def never_added(n):
        s = set()
        return len(s)

    with pytest.raises(errors.TypingError, match="cannot infer the type of the set 's'"):
        never_added(3)

    @njit
    def mixed(n):
        a = set(range(n))
        b = set([1.5])
        return a | b

    with pytest.raises(errors.TypingError, match="unsupported operand types for \\|"):
        mixed(3)


def test_int64_min_literal():
    # -9223372036854775808 is one int64 constant (Python folds it), not the
    # negation of the uint64 2**63.
    def f(v):
        return -9223372036854775808, v == -9223372036854775808, -9223372036854775807

    assert njit(f)(-2**63) == numba.njit(f)(-2**63) == (-2**63, True, -2**63 + 1)
