"""numba.typed's List and Dict (kjit.typed), and dicts passed to @njit
functions: List(), List(seq), List.empty_list(T), Dict(), Dict.empty(K, V)
in jitted code; typed containers and plain lists/dicts passed in, their
changes seen by the caller afterwards (Numba's typed containers are shared
with Python). Checked against Numba's typed containers."""
import pytest

from kjit import errors, njit, types
from kjit.typed import Dict, List

numba = pytest.importorskip("numba")
from numba import types as ntypes  # noqa: E402
from numba.typed import Dict as NDict  # noqa: E402
from numba.typed import List as NList  # noqa: E402


def test_made_in_jitted_code():
    @njit
    def f(n):
        squares = List()
        for i in range(n):
            squares.append(i * i)
        names = Dict.empty(key_type=types.unicode_type, value_type=types.int64)
        names["a"] = 1
        names["b"] = n
        weights = List.empty_list(types.float64)
        weights.append(0.5)
        counts = Dict()
        for x in squares:
            counts[x % 3] = counts.get(x % 3, 0) + 1
        return list(squares), dict(names), list(weights), dict(counts), len(List([1, 2, 3]))

    @numba.njit
    def ref(n):
        squares = NList()
        for i in range(n):
            squares.append(i * i)
        names = NDict.empty(key_type=ntypes.unicode_type, value_type=ntypes.int64)
        names["a"] = 1
        names["b"] = n
        weights = NList.empty_list(ntypes.float64)
        weights.append(0.5)
        counts = NDict.empty(key_type=ntypes.int64, value_type=ntypes.int64)
        for x in squares:
            counts[x % 3] = counts.get(x % 3, 0) + 1
        return squares, names, weights, counts, len(NList([1, 2, 3]))

    got = f(6)
    want = ref(6)
    assert got == (list(want[0]), dict(want[1]), list(want[2]), dict(want[3]), want[4])


def test_passed_in_and_changed():
    def update(d, l, k):
        d[k] = d.get(k, 0.0) + 1.5
        l.append(len(d))
        return d[k]

    d, l = Dict(), List()
    d[1] = 1.0
    d[2] = 2.0
    l.append(0)
    nd = NDict.empty(key_type=ntypes.int64, value_type=ntypes.float64)
    nd[1] = 1.0
    nd[2] = 2.0
    nl = NList([0])
    assert njit(update)(d, l, 2) == numba.njit(update)(nd, nl, 2)
    assert njit(update)(d, l, 7) == numba.njit(update)(nd, nl, 7)
    assert d == dict(nd) and l == list(nl)
    assert isinstance(d, Dict) and isinstance(l, List)


@pytest.mark.parametrize("keys", [
    [0.5 * i for i in range(40)],                      # floats (integral and not)
    [(i, -i) for i in range(30)],                       # tuples
    ["a", "bb", "é", "x y", ""],                        # strings
    list(range(-20, 200, 7)),                           # integers
])
def test_dict_argument_lookups(keys):
    # Keys hashed in Python when the dict is passed in are found by the
    # compiled lookups (the two hashes agree).
    @njit
    def find(d, probe):
        return d[probe], probe in d, len(d)

    d = {k: i for i, k in enumerate(keys)}
    for i, k in enumerate(keys):
        assert find(d, k) == (i, True, len(keys))


def test_empty_dict_argument():
    @njit
    def size(d):
        return len(d)

    with pytest.raises(TypeError, match="an empty dict"):
        size({})


def test_empty_list_needs_a_type():
    @njit
    def f():
        return List.empty_list(3)

    with pytest.raises(errors.TypingError, match="takes the item type"):
        f()


def test_items_unlike_the_first_are_refused():
    # A list's or dict's type comes from its first item; later items of
    # another shape are a TypeError, never a read past the first's layout.
    import numpy as np

    @njit
    def size(c):
        return len(c)

    bad = [{(1, 2): 1, (1,): 2}, [(1, 2), (1,)], [np.zeros(2), np.zeros((2, 2))],
           [np.zeros(2), np.zeros(2, np.int8)], [np.zeros(2), 3.0], {1: 2, "a": 3}]
    for c in bad:
        with pytest.raises(TypeError):
            size(c)
    assert size([(1, 2), (3, 4)]) == 2


F64_ANY = types.float64[:]
I64_C2 = types.int64[:, ::1]
NF64_ANY = ntypes.float64[:]
NI64_C2 = ntypes.int64[:, ::1]


def test_dict_of_arrays_with_array_value_types():
    # value_type an array type made outside the function (as Numba needs
    # it: types.float64[:] any layout, types.int64[:, ::1] C order).
    import numpy as np

    def rows(n):
        d = Dict.empty(key_type=types.int64, value_type=F64_ANY)
        for i in range(n):
            d[i] = np.arange(i + 1.0)
        grids = Dict.empty(key_type=types.unicode_type, value_type=I64_C2)
        grids["z"] = np.zeros((2, 2), np.int64)
        total = 0.0
        for k in d:
            total += d[k].sum()
        return len(d), total, grids["z"].shape

    @numba.njit
    def ref(n):
        d = NDict.empty(key_type=ntypes.int64, value_type=NF64_ANY)
        for i in range(n):
            d[i] = np.arange(i + 1.0)
        grids = NDict.empty(key_type=ntypes.unicode_type, value_type=NI64_C2)
        grids["z"] = np.zeros((2, 2), np.int64)
        total = 0.0
        for k in d:
            total += d[k].sum()
        return len(d), total, grids["z"].shape

    assert njit(rows)(5) == ref(5)

    @njit
    def inside(n):
        # kjit also reads the array type written in the function.
        d = Dict.empty(key_type=types.int64, value_type=types.float64[:])
        d[n] = np.ones(n)
        return d[n].sum()
    assert inside(3) == 3.0

    @njit
    def bad():
        return Dict.empty(key_type=types.int64, value_type=types.float64[1:])
    with pytest.raises(errors.TypingError, match=r"a bare ':' per dimension"):
        bad()
