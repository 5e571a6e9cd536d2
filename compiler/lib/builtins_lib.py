# compiler/lib/builtins_lib.py - Python's lists and the builtins over
# sequences (sum, sorted, min, max, any, all, list), written in kjit's
# kernel language (compiler/NumpyLib.h). The typer calls `_list_<method>`
# for list.<method>() and list operators, and `_builtin_<name>` for the
# builtins; each follows Python's results and messages (and Numba's where
# Numba differs). Lists are read and written through the typer's
# primitives: np._lget(l, i) and np._lset(l, i, v) (an index in range),
# np._lresize(l, n) (new elements are zero), np._lnew(l, n) (a new list of
# l's type with n zero elements; given a value that is not a list, a list
# of that value's type) and np._ldtype(l) (the element type as a
# dtype).
#
# This text is compiled into kjit: keep it to the kernel language.
import numpy as np

from kjit import literal_unroll


# ---- making lists ----------------------------------------------------------------------

def _list_from_tuple(t):
    # [a, b, c]: the display's elements, converted to one type, as a tuple.
    n = len(t)
    out = np._lnew(t[0], n)
    for i in range(n):
        np._lset(out, i, t[i])
    return out


# ---- items ------------------------------------------------------------------------------

def _list_index_of(l, i, what):
    n = len(l)
    if i < 0:
        i += n
    if i < 0 or i >= n:
        raise IndexError(what)
    return i


def _list_getitem(l, i):
    return np._lget(l, _list_index_of(l, i, "list index out of range"))


def _list_setitem(l, i, v):
    np._lset(l, _list_index_of(l, i, "list assignment index out of range"), v)


def _slice_bounds(n, start, stop, step):
    # Python's slice.indices(n): (first, count, step).
    if step is None:
        st = 1
    else:
        st = step
    if st == 0:
        raise ValueError("slice step cannot be zero")
    if st > 0:
        lo_default = 0
        hi_default = n
    else:
        lo_default = n - 1
        hi_default = -1
    if start is None:
        lo = lo_default
    else:
        lo = start
        if lo < 0:
            lo += n
            if lo < 0:
                lo = 0 if st > 0 else -1
        elif lo >= n:
            lo = n if st > 0 else n - 1
    if stop is None:
        hi = hi_default
    else:
        hi = stop
        if hi < 0:
            hi += n
            if hi < 0:
                hi = 0 if st > 0 else -1
        elif hi >= n:
            hi = n if st > 0 else n - 1
    count = 0
    if st > 0 and hi > lo:
        count = (hi - lo + st - 1) // st
    elif st < 0 and lo > hi:
        count = (lo - hi - st - 1) // (-st)
    return lo, count, st


def _list_slice(l, start, stop, step):
    # l[start:stop:step]: a new list.
    lo, count, st = _slice_bounds(len(l), start, stop, step)
    out = np._lnew(l, count)
    for k in range(count):
        np._lset(out, k, np._lget(l, lo + k * st))
    return out


def _list_delitem(l, i):
    _list_pop(l, i)


# ---- methods ----------------------------------------------------------------------------

def _list_append(l, v):
    n = len(l)
    np._lresize(l, n + 1)
    np._lset(l, n, v)


def _list_extend(l, items):
    # (The length is read once: l.extend(l) doubles l, as in Python.)
    for x in items:
        _list_append(l, x)


def _list_insert(l, i, v):
    n = len(l)
    if i < 0:
        i += n
        if i < 0:
            i = 0
    elif i > n:
        i = n
    np._lresize(l, n + 1)
    k = n
    while k > i:
        np._lset(l, k, np._lget(l, k - 1))
        k -= 1
    np._lset(l, i, v)


def _list_pop(l, i=-1):
    n = len(l)
    if n == 0:
        raise IndexError("pop from empty list")
    if i < 0:
        i += n
    if i < 0 or i >= n:
        raise IndexError("pop index out of range")
    v = np._lget(l, i)
    for k in range(i, n - 1):
        np._lset(l, k, np._lget(l, k + 1))
    np._lresize(l, n - 1)
    return v


def _list_remove(l, v):
    for i in range(len(l)):
        if np._lget(l, i) == v:
            _list_pop(l, i)
            return
    raise ValueError("list.remove(x): x not in list")


def _list_index(l, v):
    for i in range(len(l)):
        if np._lget(l, i) == v:
            return i
    raise ValueError("list.index(x): x not in list")


def _list_count(l, v):
    c = 0
    for i in range(len(l)):
        if np._lget(l, i) == v:
            c += 1
    return c


def _list_clear(l):
    np._lresize(l, 0)


def _list_copy(l):
    n = len(l)
    out = np._lnew(l, n)
    for i in range(n):
        np._lset(out, i, np._lget(l, i))
    return out


def _list_reverse(l):
    n = len(l)
    for i in range(n // 2):
        t = np._lget(l, i)
        np._lset(l, i, np._lget(l, n - 1 - i))
        np._lset(l, n - 1 - i, t)


def _list_sort(l, reverse=False):
    # A stable merge sort, as Python's sort is stable; reverse keeps equal
    # elements in their order too.
    n = len(l)
    if n < 2:
        return
    tmp = np._lnew(l, n)
    width = 1
    in_tmp = False  # where the runs of `width` elements are now
    while width < n:
        src = tmp if in_tmp else l
        dst = l if in_tmp else tmp
        lo = 0
        while lo < n:
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            i = lo
            j = mid
            k = lo
            while i < mid and j < hi:
                a = np._lget(src, i)
                b = np._lget(src, j)
                if (a < b) if reverse else (b < a):
                    np._lset(dst, k, b)
                    j += 1
                else:
                    np._lset(dst, k, a)
                    i += 1
                k += 1
            while i < mid:
                np._lset(dst, k, np._lget(src, i))
                i += 1
                k += 1
            while j < hi:
                np._lset(dst, k, np._lget(src, j))
                j += 1
                k += 1
            lo += 2 * width
        in_tmp = not in_tmp
        width *= 2
    if in_tmp:
        for i in range(n):
            np._lset(l, i, np._lget(tmp, i))


# ---- operators --------------------------------------------------------------------------

def _list_contains(l, v):
    for i in range(len(l)):
        if np._lget(l, i) == v:
            return True
    return False


def _list_concat(a, b):
    n = len(a)
    m = len(b)
    out = np._lnew(a, n + m)
    for i in range(n):
        np._lset(out, i, np._lget(a, i))
    for i in range(m):
        np._lset(out, n + i, np._lget(b, i))
    return out


def _list_repeat(l, times):
    n = len(l)
    if times < 0:
        times = 0
    out = np._lnew(l, n * times)
    for r in range(times):
        for i in range(n):
            np._lset(out, r * n + i, np._lget(l, i))
    return out


def _list_eq(a, b):
    if len(a) != len(b):
        return False
    for i in range(len(a)):
        if not (np._lget(a, i) == np._lget(b, i)):
            return False
    return True


def _list_range(start, stop, step):
    # list(range(start, stop, step))
    if step == 0:
        raise ValueError("range() arg 3 must not be zero")
    count = 0
    if step > 0 and stop > start:
        count = (stop - start + step - 1) // step
    elif step < 0 and start > stop:
        count = (start - stop - step - 1) // (-step)
    out = np._lnew(start, count)
    for i in range(count):
        np._lset(out, i, start + i * step)
    return out


def _array_from_list(l):
    # np.array(l) / np.asarray(l) of a list of numbers: a new 1-d array.
    n = len(l)
    out = np.empty(n, np._ldtype(l))
    for i in range(n):
        out[i] = np._lget(l, i)
    return out


# ---- builtins over sequences ------------------------------------------------------------

def _contains(seq, v):
    # `v in seq` for a tuple or an array: an element equal to v.
    for x in seq:
        if x == v:
            return True
    return False


def _builtin_sum(seq, start=0):
    s = start
    for x in seq:
        s = s + x
    return s


def _builtin_list(seq):
    out = []
    for x in seq:
        out.append(x)
    return out


def _builtin_sorted(seq, reverse=False):
    out = _builtin_list(seq)
    _list_sort(out, reverse)
    return out


def _builtin_min(seq):
    if len(seq) == 0:
        raise ValueError("min() arg is an empty sequence")
    best = seq[0]
    for x in seq:
        if x < best:
            best = x
    return best


def _builtin_max(seq):
    if len(seq) == 0:
        raise ValueError("max() arg is an empty sequence")
    best = seq[0]
    for x in seq:
        if x > best:
            best = x
    return best


def _builtin_any(seq):
    for x in seq:
        if x:
            return True
    return False


def _builtin_all(seq):
    for x in seq:
        if not x:
            return False
    return True


# ---- dicts ------------------------------------------------------------------------------
# A dict is four lists (np._dparts(d), np._dmake(...)): its keys and values
# in insertion order, whether each entry is alive (pop and del leave a hole),
# and an open-addressing table: table[0] is the number of live entries,
# table[1] the number of entries ever inserted, table[2:] the slots (0:
# empty, -1: deleted, k + 1: entry k). The table doubles when two thirds of
# its slots are taken.

def _hash(x):
    # A hash of a number or a tuple of numbers; equal numbers hash equally
    # (1 == 1.0 == True), as Python's do.
    if isinstance(x, tuple):
        h = 3430008
        for e in literal_unroll(x):
            h = (h ^ _hash(e)) * 1000003
        return h
    elif isinstance(x, bool):
        return np.int64(x)
    elif isinstance(x, int):
        return np.int64(x)
    else:
        f = np.float64(x)
        if f == np.floor(f) and abs(f) < 9.2e18:
            return np.int64(f)
        return np.int64(f * 4503599627370496.0)


def _dict_from_tuples(ks, vs):
    # {k: v, ...}: the display's keys and values, each converted to one type.
    d = _dict_new(ks[0], vs[0])
    for i in range(len(ks)):
        _dict_setitem(d, ks[i], vs[i])
    return d


def _dict_new(k, v):
    table = np._lnew(0, 10)
    return np._dmake(np._lnew(k, 0), np._lnew(v, 0), np._lnew(True, 0), table)


def _dict_slot(d, key):
    # The slot that holds key, or the free slot where it would go (-1 - slot).
    keys, vals, alive, table = np._dparts(d)
    size = len(table) - 2
    mask = size - 1
    i = _hash(key) & mask
    first_free = -1
    while True:
        e = np._lget(table, 2 + i)
        if e == 0:
            if first_free < 0:
                first_free = i
            return -1 - first_free
        if e < 0:
            if first_free < 0:
                first_free = i
        elif np._lget(keys, e - 1) == key:
            return i
        i = (i + 1) & mask


def _dict_grow(d):
    keys, vals, alive, table = np._dparts(d)
    size = len(table) - 2
    np._lresize(table, 2)
    np._lresize(table, 2 + 2 * size)
    mask = 2 * size - 1
    for k in range(len(keys)):
        if np._lget(alive, k):
            i = _hash(np._lget(keys, k)) & mask
            while np._lget(table, 2 + i) != 0:
                i = (i + 1) & mask
            np._lset(table, 2 + i, k + 1)


def _dict_setitem(d, key, value):
    keys, vals, alive, table = np._dparts(d)
    s = _dict_slot(d, key)
    if s >= 0:
        np._lset(vals, np._lget(table, 2 + s) - 1, value)
        return
    n = len(keys)
    _list_append(keys, key)
    _list_append(vals, value)
    _list_append(alive, True)
    np._lset(table, 2 - 1 - s, n + 1)
    np._lset(table, 0, np._lget(table, 0) + 1)
    np._lset(table, 1, np._lget(table, 1) + 1)
    if 3 * np._lget(table, 1) >= 2 * (len(table) - 2):
        _dict_compact(d)
        _dict_grow(d)


def _dict_compact(d):
    # Drops the dead entries (in order), so that the table counts live ones.
    keys, vals, alive, table = np._dparts(d)
    j = 0
    for k in range(len(keys)):
        if np._lget(alive, k):
            np._lset(keys, j, np._lget(keys, k))
            np._lset(vals, j, np._lget(vals, k))
            np._lset(alive, j, True)
            j += 1
    np._lresize(keys, j)
    np._lresize(vals, j)
    np._lresize(alive, j)
    np._lset(table, 1, j)
    size = len(table) - 2
    np._lresize(table, 2)
    np._lresize(table, 2 + size)
    mask = size - 1
    for k in range(j):
        i = _hash(np._lget(keys, k)) & mask
        while np._lget(table, 2 + i) != 0:
            i = (i + 1) & mask
        np._lset(table, 2 + i, k + 1)


def _dict_getitem(d, key):
    keys, vals, alive, table = np._dparts(d)
    s = _dict_slot(d, key)
    if s < 0:
        raise KeyError("key not found in the dict")
    return np._lget(vals, np._lget(table, 2 + s) - 1)


def _dict_get(d, key, default=None):
    keys, vals, alive, table = np._dparts(d)
    s = _dict_slot(d, key)
    if s < 0:
        return default
    return np._lget(vals, np._lget(table, 2 + s) - 1)


def _dict_contains(d, key):
    return _dict_slot(d, key) >= 0


def _dict_len(d):
    keys, vals, alive, table = np._dparts(d)
    return np._lget(table, 0)


def _dict_pop(d, key):
    keys, vals, alive, table = np._dparts(d)
    s = _dict_slot(d, key)
    if s < 0:
        raise KeyError("key not found in the dict")
    e = np._lget(table, 2 + s) - 1
    np._lset(table, 2 + s, -1)
    np._lset(alive, e, False)
    np._lset(table, 0, np._lget(table, 0) - 1)
    return np._lget(vals, e)


def _dict_pop_default(d, key, default):
    if _dict_slot(d, key) < 0:
        return default
    return _dict_pop(d, key)


def _dict_setdefault(d, key, default):
    if _dict_slot(d, key) < 0:
        _dict_setitem(d, key, default)
    return _dict_getitem(d, key)


def _live(items, alive):
    # The elements of `items` whose entry is alive, in order.
    out = np._lnew(items, 0)
    for k in range(len(items)):
        if np._lget(alive, k):
            _list_append(out, np._lget(items, k))
    return out


def _dict_keys(d):
    keys, vals, alive, table = np._dparts(d)
    return _live(keys, alive)


def _dict_values(d):
    keys, vals, alive, table = np._dparts(d)
    return _live(vals, alive)


def _dict_items(d):
    keys, vals, alive, table = np._dparts(d)
    out = []
    for k in range(len(keys)):
        if np._lget(alive, k):
            out.append((np._lget(keys, k), np._lget(vals, k)))
    return out


def _dict_clear(d):
    keys, vals, alive, table = np._dparts(d)
    np._lresize(keys, 0)
    np._lresize(vals, 0)
    np._lresize(alive, 0)
    np._lresize(table, 2)
    np._lresize(table, 10)
    np._lset(table, 0, 0)
    np._lset(table, 1, 0)


def _dict_copy(d):
    keys, vals, alive, table = np._dparts(d)
    out = np._dmake(np._lnew(keys, 0), np._lnew(vals, 0), np._lnew(True, 0), np._lnew(0, 10))
    for k in range(len(keys)):
        if np._lget(alive, k):
            _dict_setitem(out, np._lget(keys, k), np._lget(vals, k))
    return out


def _dict_update(d, other):
    keys, vals, alive, table = np._dparts(other)
    for k in range(len(keys)):
        if np._lget(alive, k):
            _dict_setitem(d, np._lget(keys, k), np._lget(vals, k))
