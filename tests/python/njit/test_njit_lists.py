"""Python lists in @njit functions, checked against Numba (Debian's numba,
on the development machine and in CI): displays, `[]` typed by what is
appended to it, comprehensions, methods, operators, the builtins over
sequences, lists passed in (changes reach the caller's list, as Numba
reflects them) and returned (a Python list)."""
import warnings

import numpy as np
import pytest

from kjit import errors, njit

numba = pytest.importorskip("numba")

# The parser rewrites comprehensions; the bytecode frontend (functions
# without source text) does not read them yet.

def run_both(fn, *args, python=False):
    # The reference is Numba, or Python itself for what Numba 0.56 refuses.
    copy = lambda: [list(a) if isinstance(a, list) else a for a in args]  # noqa: E731
    kargs, nargs = copy(), copy()
    got = njit(fn)(*kargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Numba's reflected-list deprecation
        ref = fn(*nargs) if python else numba.njit(fn)(*nargs)
    return got, ref, kargs, nargs


def same(a, b):
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(a, b)
    return type(a) is type(b) and (a == b or (a != a and b != b))


def check(fn, *args, python=False):
    got, ref, kargs, nargs = run_both(fn, *args, python=python)
    assert same(got, ref), (fn.__name__, got, ref)
    assert same(kargs, nargs), (fn.__name__, "arguments after the call", kargs, nargs)


# ---- making lists --------------------------------------------------------------------------------

def squares(n):
    out = []
    for i in range(n):
        out.append(i * i)
    return out


def display_promotes(n):
    return [1, 2.5, n]


def nested(n):
    rows = []
    for i in range(n):
        rows.append([i, i + 1])
    return rows


def from_range(n):
    return list(range(n)), list(range(2, n)), list(range(n, 0, -2))


def comprehensions(n):
    i = 100  # the comprehension's i is its own
    a = [i * 2 for i in range(n)]
    b = [x + y for x in range(4) for y in range(x) if (x + y) % 2 == 1]
    c = [[i * j for j in range(3)] for i in range(n)]
    return i, a, b, c


def generator_arguments(n):
    # (Numba 0.56 refuses generator expressions as arguments; Python's
    # results are the reference.)
    return sum(x * x for x in range(n)), max(v for v in range(n)), any(v > 3 for v in range(n))


def array_from_list(n):
    return np.array([float(k) for k in range(n)]), np.asarray([1, 2, 3])


@pytest.mark.parametrize("fn, args", [
    (squares, (6,)), (squares, (0,)), (display_promotes, (3,)), (nested, (3,)),
    (from_range, (7,)),
])
def test_making_lists(fn, args):
    check(fn, *args)


@pytest.mark.parametrize("fn, args", [
    (comprehensions, (4,)), (generator_arguments, (6,)), (array_from_list, (4,)),
])
def test_comprehensions(fn, args):
    check(fn, *args, python=fn is generator_arguments)


# ---- reading, writing, methods ---------------------------------------------------------------------

def items(xs):
    return xs[0], xs[-1], xs[1:3], xs[::-1], xs[::2], xs[-2:], xs[5:1:-2], len(xs)


def writes(xs):
    xs[0] = 10
    xs[-1] += 5
    xs.append(7)
    xs.insert(1, -1)
    xs.insert(-100, -2)
    xs.insert(100, 99)
    p = xs.pop()
    q = xs.pop(0)
    xs.extend([8, 9])
    xs += [11]
    return p, q, len(xs)


def searching(xs):
    return 3 in xs, 42 in xs, 42 not in xs, xs.index(3), xs.count(3)


def ordering(xs):
    ys = xs[:]
    ys.sort()
    zs = sorted(xs, reverse=True)
    ws = xs[::1]
    ws.reverse()
    xs.remove(3)
    return ys, zs, ws, min(xs), max(xs), sum(xs)


def operators(xs):
    a = xs + [100, 200]
    b = [0] * 3
    c = 2 * xs
    return a, b, c, a == xs + [100, 200], a != xs, xs == xs


def iterate(xs):
    s = 0.0
    for x in xs:
        s += x
    t = 0.0
    for i, x in enumerate(xs):
        t += i * x
    return s, t


def clear_and_refill(xs):
    xs.clear()
    xs.append(1)
    return len(xs)


def stable_sort(pairs):
    # Tuples compare element by element; equal keys keep their order.
    pairs.sort()
    return pairs


LIST = [5, 3, 8, 3, 1, 9, 2]


@pytest.mark.parametrize("fn, args", [
    (items, (LIST,)), (writes, (LIST,)), (searching, (LIST,)), (ordering, (LIST,)),
    (operators, ([1, 2, 3],)), (iterate, ([0.5, 1.5, 2.5],)), (clear_and_refill, (LIST,)),
    (ordering, ([2.5, 3.0, -1.0, 3.0],)),
])
def test_methods_and_operators(fn, args):
    check(fn, *args)


def test_sort_agrees_with_python_on_random_lists():
    fn = njit(lambda xs: sorted(xs))
    rng = np.random.default_rng(3)
    for n in (0, 1, 2, 3, 7, 16, 33, 100):
        xs = [int(v) for v in rng.integers(-20, 20, max(n, 1))][:n] or [0]
        assert fn(xs) == sorted(xs)


def test_list_of_a_list_and_copy_copy_it():
    # (Numba 0.56 cannot lower list() or copy() of a reflected list; Python's
    # result.)
    @njit
    def f(xs):
        ys = list(xs)
        ys.append(0)
        zs = xs.copy()
        zs[0] = 9
        return ys, zs, xs
    assert f([1, 2]) == ([1, 2, 0], [9, 2], [1, 2])


# ---- reflection -------------------------------------------------------------------------------------

def test_changes_reach_the_callers_list():
    @njit
    def grow(xs):
        xs.append(len(xs))
        xs[0] = -1
    xs = [1, 2, 3]
    grow(xs)
    assert xs == [-1, 2, 3, 3]

    @njit
    def untouched(xs):
        return xs[0] + xs[1]
    ys = [1.5, 2.5]
    assert untouched(ys) == 4.0 and ys == [1.5, 2.5]


def test_a_list_of_floats_takes_ints_it_is_given():
    @njit
    def total(xs):
        return sum(xs)
    assert total([1.0, 2, 3]) == 6.0


# ---- errors -------------------------------------------------------------------------------------------

def test_index_errors_are_pythons():
    @njit
    def get(xs, i):
        return xs[i]

    @njit
    def pop_empty():
        xs = [1]
        xs.pop()
        return xs.pop()

    @njit
    def remove_missing(xs):
        xs.remove(42)

    with pytest.raises(IndexError, match="list index out of range"):
        get([1, 2], 2)
    with pytest.raises(IndexError, match="list index out of range"):
        get([1, 2], -3)
    assert get([1, 2], -2) == 1
    with pytest.raises(IndexError, match="pop from empty list"):
        pop_empty()
    with pytest.raises(ValueError, match="x not in list"):
        remove_missing([1, 2])

    @njit
    def min_of_empty():
        xs = [1.0]
        xs.pop()
        return min(xs)
    with pytest.raises(ValueError, match="min\\(\\) arg is an empty sequence"):
        min_of_empty()


def test_an_empty_list_argument_has_no_type():
    @njit
    def first(xs):
        return len(xs)
    with pytest.raises(TypeError, match="empty list"):
        first([])


def test_a_list_nothing_is_appended_to_is_a_located_error():
    def f(n):
        xs = []
        return len(xs) + n
    with pytest.raises(errors.TypingError, match=r"cannot infer the type of the list 'xs'") as info:
        njit(f)(1)
    assert info.value.lineno == f.__code__.co_firstlineno + 1


def test_lists_are_invariant():
    def f(n):
        xs = [1, 2]
        ys = [1.5]
        return xs + ys
    with pytest.raises(errors.TypingError, match=r"cannot concatenate list\(int64\) and list\(float64\)"):
        njit(f)(1)


def tuples_from_empty(n):
    # [] typed by its first append: the buffer holds 16-byte elements.
    pairs = []
    for i in range(n):
        pairs.append(((i * 7) % 5, float(i)))
    pairs.sort()
    return pairs


def test_a_list_of_tuples_grows_and_sorts_as_pythons():
    # (Numba 0.56 cannot sort a list of tuples here; Python's result.)
    assert njit(tuples_from_empty)(40) == tuples_from_empty(40)


def test_tuples_compare_in_pythons_order():
    @njit
    def order(a, b):
        return a < b, a <= b, a > b, a >= b
    for a, b in [((1, 2), (1, 3)), ((1, 2), (1, 2)), ((2, 0), (1, 9)), ((1.5, 2), (1.5, 1))]:
        assert order(a, b) == (a < b, a <= b, a > b, a >= b)

    @njit
    def prefix(n):
        return (1, 2, n) < (1, 2), (1, 2) < (1, 2, n)
    assert prefix(0) == (False, True)


def test_lists_in_a_list_argument_keep_their_identity():
    # Both the outer list and a list in it change: the caller's inner list
    # is the one updated and stays in the outer one (Numba 0.56 refuses to
    # reflect a list of lists). A list argument returned is the caller's.
    @njit
    def grow(ll):
        ll[0].append(9)
        ll.append([5])
        return ll

    outer = [[1], [2]]
    inner = outer[0]
    r = grow(outer)
    assert outer == [[1, 9], [2], [5]]
    assert outer[0] is inner and r is outer


def test_del_of_list_elements_and_dict_keys():
    # As Python: del l[i] (negative too), del d[k], several targets in order.
    def f(n):
        l = list(range(n))
        d = {}
        for i in range(n):
            d[i] = i * i
        del l[1]
        del l[-1], d[2]
        if n > 3: del d[3]  # noqa: E701
        try:
            del d[100]
        except KeyError:
            l.append(-1)
        return l, d

    assert njit(f)(6) == f(6) == ([0, 2, 3, 4, -1], {0: 0, 1: 1, 4: 16, 5: 25})


def test_del_of_a_list_argument_element():
    @njit
    def drop(l, i):
        del l[i]
        return len(l)
    xs = [1, 2, 3]
    assert drop(xs, 0) == 2 and xs == [2, 3]  # reflected back
    with pytest.raises(IndexError, match="list assignment index out of range"):
        drop([1, 2], 5)


def test_sort_and_sorted_with_key_and_lambdas():
    # key= a lambda, a jitted function or a builtin; stable, reverse too;
    # `name = lambda ...` defines a function, as in Python.
    def f(n):
        l = [(i * 7) % 5 for i in range(n)]
        pairs = [(3, 1.5), (1, 2.5), (2, 0.5), (1, 0.25)]
        pairs.sort(key=lambda t: t[0])
        s1 = sorted(l, key=lambda x: -x)
        s2 = sorted(l, key=lambda x: x % 3, reverse=True)
        sq = lambda x: x * x  # noqa: E731
        s3 = sorted([sq(i - 4) for i in range(n)], key=None)
        l.sort(key=abs, reverse=True)
        return pairs, s1, s2, s3, l

    assert njit(f)(9) == f(9)


def test_sort_with_a_jitted_key_function():
    @njit
    def second(t):
        return t[1]

    @njit
    def by_second(items):
        items.sort(key=second)
        return items
    assert by_second([(1, 3.0), (2, 1.0), (3, 2.0)]) == [(2, 1.0), (3, 2.0), (1, 3.0)]


def test_slice_assignment_and_del_of_slices_agree_with_python():
    # l[a:b:c] = items and del l[a:b:c] over every small slice, as Python:
    # a plain slice grows or shrinks the list, an extended one takes
    # exactly its own number of items.
    @njit
    def assign(l, lo, hi, step, items):
        l[lo:hi:step] = items
        return l

    @njit
    def assign_plain(l, lo, hi, items):
        l[lo:hi] = items
        return l

    @njit
    def delete(l, lo, hi, step):
        del l[lo:hi:step]
        return l

    bounds = [-7, -3, -1, 0, 1, 2, 4, 6, 9]
    checked = 0
    for lo in bounds:
        for hi in bounds:
            for m in (0, 1, 3):
                items = np.arange(100, 100 + m)  # (an empty list argument has no type)
                want = list(range(6))
                want[lo:hi] = items
                assert assign_plain(list(range(6)), lo, hi, items) == want
                for step in (1, 2, -1, -2, 3):
                    want = list(range(6))
                    try:
                        want[lo:hi:step] = items
                    except ValueError:
                        with pytest.raises(ValueError, match="extended slice"):
                            assign(list(range(6)), lo, hi, step, items)
                    else:
                        assert assign(list(range(6)), lo, hi, step, items) == want
                    checked += 1
            for step in (1, 2, -1, -3):
                want = list(range(6))
                del want[lo:hi:step]
                assert delete(list(range(6)), lo, hi, step) == want
    assert checked == len(bounds) ** 2 * 3 * 5


def test_slice_assignment_forms():
    # Missing bounds, the list itself as the items, a tuple, a list and an
    # array as items; the caller's list sees the change.
    def f(l):
        l[:2] = (7, 8, 9)
        l[len(l):] = list(range(3))
        l[::2] = l[1::2] + [0] * (len(l) % 2)
        m = [1.5, 2.5]
        m[1:] = np.arange(3.0)
        k = [1, 2, 3]
        k[:] = k
        del k[::-1]
        return l, m, k

    xs, ys = [1, 2, 3, 4], [1, 2, 3, 4]
    assert njit(f)(xs) == f(ys)
    assert xs == ys


def test_slice_assignment_errors_are_located():
    @njit
    def bad(l):
        l[1:2] = 3.5
        return l
    with pytest.raises(errors.TypingError, match="can only assign an iterable to a list's slice"):
        bad([1, 2])

    @njit
    def wrong_items(l):
        l[1:2] = (1j, 2j)
        return l
    with pytest.raises(errors.TypingError, match="cannot store complex128 items"):
        wrong_items([1, 2])


# A comprehension in a body written on its header's line runs there (issue 33:
# its statements were hoisted before the def or the loop).
def one_line(a): return sum(x for x in a)  # noqa: E704 - the body on the def's line


def loop_one_line(n):
    t = 0
    for i in range(n): t += sum([i * k for k in range(3)])  # noqa: E701
    return t


def test_comprehension_in_a_body_on_its_header_line():
    a = np.arange(4.0)
    assert njit(one_line)(a) == one_line(a)
    assert njit(loop_one_line)(4) == loop_one_line(4) == 18
