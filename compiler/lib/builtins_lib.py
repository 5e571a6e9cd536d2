# compiler/lib/builtins_lib.py - Python's lists and the builtins over
# sequences (sum, sorted, min, max, any, all, list), written in kjit's
# kernel language (compiler/NumpyLib.h). The typer calls `_list_<method>`
# for list.<method>() and list operators, and `_builtin_<name>` for the
# builtins; each follows Python's results and messages (and Numba's where
# Numba differs). Lists are read and written through the typer's
# primitives: np._lget(l, i) and np._lset(l, i, v) (an index in range),
# np._lresize(l, n) (new elements are zero), np._lof(x, n) (a new list of n
# zeroed elements of x's type), np._lnew(l, n) (a new list of
# l's type with n zero elements; given a value that is not a list, a list
# of that value's type) and np._ldtype(l) (the element type as a
# dtype).
#
# This text is compiled into kjit: keep it to the kernel language.
import math
import numpy as np

from kjit import literal_unroll


# ---- making lists ----------------------------------------------------------------------

def _list_from_tuple(t):
    # [a, b, c]: the display's elements, converted to one type, as a tuple.
    n = len(t)
    out = np._lof(t[0], n)
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


def _list___delitem__(l, i):
    # del l[i]
    n = len(l)
    if i < 0:
        i += n
    if i < 0 or i >= n:
        raise IndexError("list assignment index out of range")
    for k in range(i, n - 1):
        np._lset(l, k, np._lget(l, k + 1))
    np._lresize(l, n - 1)


def _list___delslice__(l, start, stop, step):
    # del l[start:stop:step]
    lo, count, st = _slice_bounds(len(l), start, stop, step)
    if count == 0:
        return
    if st < 0:  # the same elements, walked upwards
        lo = lo + (count - 1) * st
        st = -st
    n = len(l)
    k = lo  # where the next kept element goes
    for i in range(lo, n):
        if i >= lo + (count - 1) * st + 1 or (i - lo) % st != 0:
            np._lset(l, k, np._lget(l, i))
            k += 1
    np._lresize(l, k)


def _list_setslice(l, start, stop, step, items):
    # l[start:stop:step] = items (items read first: they may be l itself).
    new = np._lnew(l, 0)
    for x in items:
        _list_append(new, x)
    m = len(new)
    n = len(l)
    lo, count, st = _slice_bounds(n, start, stop, step)
    if st == 1:
        end = n - count + m
        if m > count:
            np._lresize(l, end)
            k = n - 1
            while k >= lo + count:
                np._lset(l, k + m - count, np._lget(l, k))
                k -= 1
        elif m < count:
            for k in range(lo + count, n):
                np._lset(l, k + m - count, np._lget(l, k))
            np._lresize(l, end)
        for k in range(m):
            np._lset(l, lo + k, np._lget(new, k))
        return
    if m != count:
        raise ValueError("attempt to assign sequence of wrong size to extended slice")
    for k in range(m):
        np._lset(l, lo + k * st, np._lget(new, k))


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
    _list_permute(l, _sort_positions(l, reverse))


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


def _builtin_sorted_key(seq, key, reverse=False):
    out = _builtin_list(seq)
    _list_sort_key(out, key, reverse)
    return out


def _list_sort_key(l, key, reverse=False):
    # sort(key=f): f once per element, then the positions sorted by their
    # keys (stable; equal keys keep their order, reversed too).
    n = len(l)
    if n < 2:
        return
    keys = [key(np._lget(l, 0))]
    for i in range(1, n):
        keys.append(key(np._lget(l, i)))
    _list_permute(l, _sort_positions(keys, reverse))


def _list_permute(l, order):
    # l[i] = the old l[order[i]] for every i.
    n = len(l)
    vals = np._lnew(l, n)
    for i in range(n):
        np._lset(vals, i, np._lget(l, order[i]))
    for i in range(n):
        np._lset(l, i, np._lget(vals, i))


def _sort_positions(keys, reverse):
    # The positions of `keys` in stable sorted order (descending when
    # reverse, equal keys still in their order): a bottom-up merge sort.
    n = len(keys)
    order = list(range(n))
    tmp = list(range(n))
    width = 1
    in_tmp = False
    while width < n:
        src = tmp if in_tmp else order
        dst = order if in_tmp else tmp
        lo = 0
        while lo < n:
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            i = lo
            j = mid
            k = lo
            while i < mid and j < hi:
                a = keys[src[i]]
                b = keys[src[j]]
                if (a < b) if reverse else (b < a):
                    dst[k] = src[j]
                    j += 1
                else:
                    dst[k] = src[i]
                    i += 1
                k += 1
            while i < mid:
                dst[k] = src[i]
                i += 1
                k += 1
            while j < hi:
                dst[k] = src[j]
                j += 1
                k += 1
            lo += 2 * width
        in_tmp = not in_tmp
        width *= 2
    return tmp if in_tmp else order


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
    if isinstance(x, str):
        return _str_hash(x)
    elif isinstance(x, tuple):
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
        fl = np.floor(f)
        if f == fl and abs(f) < 9.2e18:
            return np.int64(f)
        if np.isnan(f) or np.isinf(f):
            return 0
        # (python_bindings/src/py_values.cpp: libraryHash computes the same)
        return np.int64(fl) * 31 + np.int64((f - fl) * 4503599627370496.0)


def _dict_from_tuples(ks, vs):
    # {k: v, ...}: the display's keys and values, each converted to one type.
    d = _dict_new(ks[0], vs[0])
    for i in range(len(ks)):
        _dict_setitem(d, ks[i], vs[i])
    return d


def _dict_new(k, v):
    table = np._lnew(0, 10)
    return np._dmake(np._lof(k, 0), np._lof(v, 0), np._lnew(True, 0), table)


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


# ---- sets -------------------------------------------------------------------------------
# A set is Numba's hash table (numba/cpython/setobj.py), so that it iterates
# in the order Numba's does: four lists (np._dparts(s), np._smake(...)), of
# which two are used: the keys, one per slot, and table = [used, fill,
# finger, slot states...]. A slot's state is 0 (empty), 1 (deleted) or the
# key's hash (Python's hash; 0 and 1 stored as -1 and -2, which no key
# hashes to). The table has at least 16 slots, a power of two; it grows
# fourfold when half its slots are used and shrinks when an eighth are.

def _pyhash(x):
    # Python's hash() of a number or a tuple of numbers (a str: _str_hash).
    if isinstance(x, str):
        return _str_hash(x)
    elif isinstance(x, tuple):
        acc = np.uint64(2870177450012600261)
        for e in literal_unroll(x):
            lane = np.uint64(_pyhash(e))
            acc += lane * np.uint64(14029467366897019727)
            acc = (acc << np.uint64(31)) | (acc >> np.uint64(33))
            acc *= np.uint64(11400714785074694791)
        acc += np.uint64(len(x)) ^ np.uint64(2870177450013471926)
        if acc == np.uint64(18446744073709551615):
            return 1546275796
        return np.int64(acc)
    elif isinstance(x, bool) or isinstance(x, int):
        v = np.int64(x)
        if v == -9223372036854775808:
            return -4
        h = v % 2305843009213693951 if v >= 0 else -((-v) % 2305843009213693951)
        return -2 if h == -1 else h
    else:
        f = np.float64(x)
        if np.isinf(f):
            return 314159 if f > 0 else -314159
        if np.isnan(f):
            return 0
        m, e = math.frexp(f)
        sign = 1
        if m < 0:
            sign = -1
            m = -m
        h = np.uint64(0)
        while m != 0.0:
            h = ((h << np.uint64(28)) & np.uint64(2305843009213693951)) | (h >> np.uint64(33))
            m *= 268435456.0
            e -= 28
            y = np.uint64(m)
            m -= np.float64(y)
            h += y
            if h >= np.uint64(2305843009213693951):
                h -= np.uint64(2305843009213693951)
        e = e % 61 if e >= 0 else 60 - ((-1 - e) % 61)
        h = ((h << np.uint64(e)) & np.uint64(2305843009213693951)) | (h >> np.uint64(61 - e))
        r = np.int64(h) * sign
        return -2 if r == -1 else r


def _set_used(state):
    # Whether a slot of this state holds a key (not empty, not deleted).
    return state != 0 and state != 1


def _set_hash(x):
    h = _pyhash(x)
    return -43 if h == -1 or h == -2 else h


def _set_state(h):
    # The slot state of a hash.
    return -1 if h == 0 else -2 if h == 1 else h


def _set_unstate(s):
    return 0 if s == -1 else 1 if s == -2 else s


def _set_size_for(n):
    size = 16
    while size < 2 * n:
        size *= 2
    return size


def _set_new(k, n):
    size = _set_size_for(n)
    return np._smake(np._lof(k, size), np._lnew(True, 0), np._lnew(True, 0), np._lnew(0, 3 + size))


def _set_from_tuple(t):
    # {a, b, c}: Numba's set display adds its items last to first.
    s = _set_new(t[0], len(t))
    for i in range(len(t) - 1, -1, -1):
        _set_add(s, t[i])
    return s


def _set_lookup(s, key, h, for_insert):
    # The slot holding key, or -1 - the slot where it would go.
    keys, vals, alive, table = np._dparts(s)
    mask = len(table) - 4
    st = _set_state(h)
    i = h & mask
    perturb = h
    free = -1
    probes = 0
    while True:
        e = np._lget(table, 3 + i)
        if e == st and np._lget(keys, i) == key:
            return i
        if e == 0:
            if for_insert and free >= 0:
                return -1 - free
            return -1 - i
        if for_insert and e == 1 and free < 0:
            free = i
        if probes < 3:
            i = (i + 1) & mask
        else:
            perturb = (perturb >> 5) & 576460752303423487
            i = (1 + i * 5 + perturb) & mask
        probes += 1


def _set_store(s, i, key, h):
    # Stores key in free slot i; the number of keys after.
    keys, vals, alive, table = np._dparts(s)
    old = np._lget(table, 3 + i)
    np._lset(table, 3 + i, _set_state(h))
    np._lset(keys, i, key)
    used = np._lget(table, 0) + 1
    np._lset(table, 0, used)
    if old == 0:
        np._lset(table, 1, np._lget(table, 1) + 1)
    return used


def _set_put(s, i, key, h, resize):
    used = _set_store(s, i, key, h)
    if resize:
        _set_upsize(s, used)
    keys, vals, alive, table = np._dparts(s)
    if np._lget(table, 1) >= len(table) - 4:
        # No empty slot would be left, and a lookup stops at one: the same
        # size again, without the deleted slots. (Numba's sets loop forever.)
        _set_resize(s, len(table) - 3)


def _set_insert(s, key, h, resize):
    r = _set_lookup(s, key, h, True)
    if r < 0:
        _set_put(s, -1 - r, key, h, resize)


def _set_add(s, key):
    _set_insert(s, key, _set_hash(key), True)


def _set_resize(s, size):
    keys, vals, alive, table = np._dparts(s)
    n = len(table) - 3
    old_keys = np._lnew(keys, n)
    old_states = np._lnew(table, n)
    for j in range(n):
        np._lset(old_keys, j, np._lget(keys, j))
        np._lset(old_states, j, np._lget(table, 3 + j))
    np._lresize(keys, 0)
    np._lresize(keys, size)
    np._lresize(table, 0)
    np._lresize(table, 3 + size)
    for j in range(n):
        e = np._lget(old_states, j)
        if _set_used(e):
            key = np._lget(old_keys, j)
            h = _set_unstate(e)
            _set_store(s, -1 - _set_lookup(s, key, h, True), key, h)


def _set_upsize(s, used):
    keys, vals, alive, table = np._dparts(s)
    size = len(table) - 3
    if 2 * used >= size:
        new = size * 4
        while 2 * used >= new:
            new *= 4
        _set_resize(s, new)


def _set_downsize(s, used):
    keys, vals, alive, table = np._dparts(s)
    size = len(table) - 3
    least = max(2 * used, 16)
    if 4 * least <= size and size > 16:
        new = size
        while least <= new // 2:
            new //= 2
        _set_resize(s, new)


def _set_remove_slot(s, i, resize):
    keys, vals, alive, table = np._dparts(s)
    np._lset(table, 3 + i, 1)
    used = np._lget(table, 0) - 1
    np._lset(table, 0, used)
    if resize:
        _set_downsize(s, used)


def _set_discard_found(s, key, resize):
    i = _set_lookup(s, key, _set_hash(key), False)
    if i < 0:
        return False
    _set_remove_slot(s, i, resize)
    return True


def _set_discard(s, key):
    _set_discard_found(s, key, True)


def _set_remove(s, key):
    if not _set_discard_found(s, key, True):
        raise KeyError("set.remove(): key not in set")


def _set_pop(s):
    keys, vals, alive, table = np._dparts(s)
    if np._lget(table, 0) == 0:
        raise KeyError("set.pop(): empty set")
    mask = len(table) - 4
    i = np._lget(table, 2)
    while True:
        i = (i + 1) & mask
        e = np._lget(table, 3 + i)
        if _set_used(e):
            break
    np._lset(table, 2, i)
    key = np._lget(keys, i)
    _set_remove_slot(s, i, True)
    return key


def _set_len(s):
    keys, vals, alive, table = np._dparts(s)
    return np._lget(table, 0)


def _set_contains(s, key):
    return _set_lookup(s, key, _set_hash(key), False) >= 0


def _set_items(s):
    # The keys in slot order (the order Numba's sets iterate in).
    keys, vals, alive, table = np._dparts(s)
    out = np._lnew(keys, 0)
    for i in range(len(table) - 3):
        e = np._lget(table, 3 + i)
        if _set_used(e):
            _list_append(out, np._lget(keys, i))
    return out


def _set_clear(s):
    keys, vals, alive, table = np._dparts(s)
    np._lresize(keys, 0)
    np._lresize(keys, 16)
    np._lresize(table, 0)
    np._lresize(table, 19)


def _set_copy(s):
    keys, vals, alive, table = np._dparts(s)
    used = np._lget(table, 0)
    if used == np._lget(table, 1):  # no deleted slot: the same table
        out = np._smake(np._lnew(keys, len(keys)), np._lnew(True, 0), np._lnew(True, 0),
                        np._lnew(table, len(table)))
        okeys, ovals, oalive, otable = np._dparts(out)
        for j in range(len(keys)):
            np._lset(okeys, j, np._lget(keys, j))
        for j in range(len(table)):
            np._lset(otable, j, np._lget(table, j))
        return out
    out = np._smake(np._lnew(keys, _set_size_for(used)), np._lnew(True, 0), np._lnew(True, 0),
                    np._lnew(table, 3 + _set_size_for(used)))
    for j in range(len(table) - 3):
        e = np._lget(table, 3 + j)
        if _set_used(e):
            key = np._lget(keys, j)
            h = _set_unstate(e)
            _set_store(out, -1 - _set_lookup(out, key, h, True), key, h)
    return out


def _set_fill(s, seq):
    # set(seq): s is set() of seq's element type.
    _set_resize(s, _set_size_for(len(seq)))
    for x in seq:
        _set_add(s, x)
    return s


def _set_update(s, seq):
    keys, vals, alive, table = np._dparts(s)
    _set_upsize(s, np._lget(table, 0) + len(seq))
    for x in seq:
        _set_add(s, x)
    keys, vals, alive, table = np._dparts(s)
    _set_downsize(s, np._lget(table, 0))


def _set_intersection_update(s, other):
    keys, vals, alive, table = np._dparts(s)
    for j in range(len(table) - 3):
        e = np._lget(table, 3 + j)
        if _set_used(e):
            if _set_lookup(other, np._lget(keys, j), _set_unstate(e), False) < 0:
                _set_remove_slot(s, j, False)
    _set_downsize(s, np._lget(table, 0))


def _set_difference_update(s, other):
    okeys, ovals, oalive, otable = np._dparts(other)
    for j in range(len(otable) - 3):
        e = np._lget(otable, 3 + j)
        if _set_used(e):
            i = _set_lookup(s, np._lget(okeys, j), _set_unstate(e), False)
            if i >= 0:
                _set_remove_slot(s, i, False)
    _set_downsize(s, _set_len(s))


def _set_symmetric_difference_update(s, other):
    okeys, ovals, oalive, otable = np._dparts(other)
    for j in range(len(otable) - 3):
        e = np._lget(otable, 3 + j)
        if _set_used(e):
            key = np._lget(okeys, j)
            h = _set_unstate(e)
            r = _set_lookup(s, key, h, True)
            if r >= 0:
                _set_remove_slot(s, r, False)
            else:
                _set_put(s, -1 - r, key, h, True)
    _set_downsize(s, _set_len(s))


def _set_union(a, b):
    if len(a) > len(b):
        s = _set_copy(a)
        _set_update(s, b)
        return s
    s = _set_copy(b)
    _set_update(s, a)
    return s


def _set_intersection(a, b):
    if len(a) < len(b):
        s = _set_copy(a)
        _set_intersection_update(s, b)
        return s
    s = _set_copy(b)
    _set_intersection_update(s, a)
    return s


def _set_difference(a, b):
    s = _set_copy(a)
    _set_difference_update(s, b)
    return s


def _set_symmetric_difference(a, b):
    if len(a) > len(b):
        s = _set_copy(a)
        _set_symmetric_difference_update(s, b)
        return s
    s = _set_copy(b)
    _set_symmetric_difference_update(s, a)
    return s


def _set_issubset(a, b, strict=False):
    if len(a) > len(b) or (strict and len(a) == len(b)):
        return False
    keys, vals, alive, table = np._dparts(a)
    for j in range(len(table) - 3):
        e = np._lget(table, 3 + j)
        if _set_used(e):
            if _set_lookup(b, np._lget(keys, j), _set_unstate(e), False) < 0:
                return False
    return True


def _set_issuperset(a, b):
    return _set_issubset(b, a)


def _set_isdisjoint(a, b):
    small, large = (b, a) if len(a) > len(b) else (a, b)
    keys, vals, alive, table = np._dparts(small)
    for j in range(len(table) - 3):
        e = np._lget(table, 3 + j)
        if _set_used(e):
            if _set_lookup(large, np._lget(keys, j), _set_unstate(e), False) >= 0:
                return False
    return True


def _set_eq(a, b):
    return len(a) == len(b) and _set_issubset(a, b)


# A set display of more than two constants is, in CPython 3.11's bytecode,
# a frozenset constant (built from the items, then rebuilt from its own
# order when the compiler merges constants) that Numba makes a set display
# of (added last to first), then adds to an empty set. The same steps give
# the same order of iteration.

def _cpy_place(keys, full, hashes, x, h, check):
    # CPython's set probe: the empty slot for x, or -1 when x is there.
    mask = len(keys) - 1
    i = h & mask
    perturb = h
    while True:
        j = i
        last = i + 9 if i + 9 <= mask else i
        while j <= last:
            if not np._lget(full, j):
                return j
            if check and np._lget(hashes, j) == h and np._lget(keys, j) == x:
                return -1
            j += 1
        perturb = (perturb >> 5) & 576460752303423487
        i = (i * 5 + 1 + perturb) & mask


def _cpy_set_order(items):
    # The order CPython's frozenset(items) iterates in.
    keys = np._lnew(items, 8)
    full = np._lnew(True, 8)
    hashes = np._lnew(0, 8)
    fill = 0
    for x in items:
        h = _pyhash(x)
        j = _cpy_place(keys, full, hashes, x, h, True)
        if j < 0:
            continue
        np._lset(keys, j, x)
        np._lset(full, j, True)
        np._lset(hashes, j, h)
        fill += 1
        if fill * 5 >= (len(keys) - 1) * 3:
            least = fill * 2 if fill > 50000 else fill * 4
            size = 8
            while size <= least:
                size *= 2
            old_keys = _list_copy(keys)
            old_full = _list_copy(full)
            old_hashes = _list_copy(hashes)
            np._lresize(full, 0)
            np._lresize(full, size)
            np._lresize(keys, size)
            np._lresize(hashes, size)
            for k in range(len(old_keys)):
                if np._lget(old_full, k):
                    y = np._lget(old_keys, k)
                    hy = np._lget(old_hashes, k)
                    p = _cpy_place(keys, full, hashes, y, hy, False)
                    np._lset(keys, p, y)
                    np._lset(full, p, True)
                    np._lset(hashes, p, hy)
    out = np._lnew(items, 0)
    for k in range(len(keys)):
        if np._lget(full, k):
            _list_append(out, np._lget(keys, k))
    return out


def _set_from_consts(t):
    order = _cpy_set_order(_cpy_set_order(_list_from_tuple(t)))
    b = _set_new(t[0], len(order))
    for k in range(len(order) - 1, -1, -1):  # (a display: last to first)
        _set_add(b, np._lget(order, k))
    s = _set_new(t[0], 0)
    _set_update(s, b)
    return s


# ---- strings ----------------------------------------------------------------------------
# A str is a list of its code points (uint32) that nothing writes once it
# is made: np._lnew(a_str, n) makes a new one to fill. Case mappings and
# character classes cover ASCII and Latin-1; other code points are left as
# they are (Python's full Unicode tables are not here).

def _str_new(n):
    e = ""
    return np._lnew(e, n)


def _str_getitem(s, i):
    n = len(s)
    j = i + n if i < 0 else i
    if j < 0 or j >= n:
        raise IndexError("string index out of range")
    r = _str_new(1)
    np._lset(r, 0, np._lget(s, j))
    return r


def _str_chars(s):
    # for c in s: its characters, strs of one.
    out = []
    for i in range(len(s)):
        c = _str_new(1)
        np._lset(c, 0, np._lget(s, i))
        out.append(c)
    return out


def _str_concat(a, b):
    na = len(a)
    nb = len(b)
    r = _str_new(na + nb)
    for i in range(na):
        np._lset(r, i, np._lget(a, i))
    for i in range(nb):
        np._lset(r, na + i, np._lget(b, i))
    return r


def _str_repeat(s, n):
    m = len(s)
    k = n if n > 0 else 0
    r = _str_new(m * k)
    for j in range(k):
        for i in range(m):
            np._lset(r, j * m + i, np._lget(s, i))
    return r


def _str_cmp(a, b):
    na = len(a)
    nb = len(b)
    for i in range(min(na, nb)):
        x = np._lget(a, i)
        y = np._lget(b, i)
        if x != y:
            return -1 if x < y else 1
    if na == nb:
        return 0
    return -1 if na < nb else 1


def _str_at(s, sub, i):
    # Whether sub occurs in s at i.
    for j in range(len(sub)):
        if np._lget(s, i + j) != np._lget(sub, j):
            return False
    return True


def _str_start(n, start):
    st = start + n if start < 0 else start
    return st if st > 0 else 0


def _str_find(s, sub, start=0):
    n = len(s)
    for i in range(_str_start(n, start), n - len(sub) + 1):
        if _str_at(s, sub, i):
            return i
    return -1


def _str_rfind(s, sub, start=0):
    n = len(s)
    st = _str_start(n, start)
    i = n - len(sub)
    while i >= st:
        if _str_at(s, sub, i):
            return i
        i -= 1
    return -1


def _str_index(s, sub, start=0):
    i = _str_find(s, sub, start)
    if i < 0:
        raise ValueError("substring not found")
    return i


def _str_contains(s, sub):
    return _str_find(s, sub, 0) >= 0


def _str_count(s, sub):
    n = len(s)
    m = len(sub)
    if m == 0:
        return n + 1
    c = 0
    i = 0
    while i <= n - m:
        if _str_at(s, sub, i):
            c += 1
            i += m
        else:
            i += 1
    return c


def _str_startswith(s, p):
    return len(p) <= len(s) and _str_at(s, p, 0)


def _str_endswith(s, p):
    return len(p) <= len(s) and _str_at(s, p, len(s) - len(p))


def _ch_lower(c):
    return (c >= 97 and c <= 122) or (c >= 223 and c <= 255 and c != 247) or c == 181


def _ch_upper(c):
    return (c >= 65 and c <= 90) or (c >= 192 and c <= 222 and c != 215)


def _ch_space(c):
    return (c == 32 or (c >= 9 and c <= 13) or (c >= 28 and c <= 31) or c == 133 or c == 160
            or c == 5760 or (c >= 8192 and c <= 8202) or c == 8232 or c == 8233 or c == 8239
            or c == 8287 or c == 12288)


def _ch_digit(c):
    return c >= 48 and c <= 57


def _ch_alpha(c):
    return _ch_lower(c) or _ch_upper(c) or c == 170 or c == 186


def _ch_to_upper(c):
    if (c >= 97 and c <= 122) or (c >= 224 and c <= 254 and c != 247):
        return c - 32
    return c


def _ch_to_lower(c):
    if _ch_upper(c):
        return c + 32
    return c


def _str_map(s, how):
    # how: 0 upper, 1 lower, 2 swapcase, 3 capitalize
    n = len(s)
    r = _str_new(n)
    for i in range(n):
        c = np._lget(s, i)
        if how == 0 or (how == 3 and i == 0):
            c = _ch_to_upper(c)
        elif how == 1 or how == 3:
            c = _ch_to_lower(c)
        elif _ch_lower(c):
            c = _ch_to_upper(c)
        else:
            c = _ch_to_lower(c)
        np._lset(r, i, c)
    return r


def _str_upper(s):
    return _str_map(s, 0)


def _str_lower(s):
    return _str_map(s, 1)


def _str_swapcase(s):
    return _str_map(s, 2)


def _str_capitalize(s):
    return _str_map(s, 3)


def _str_all(s, what):
    # what: 0 digit, 1 alpha, 2 alnum, 3 space
    if len(s) == 0:
        return False
    for i in range(len(s)):
        c = np._lget(s, i)
        ok = (_ch_digit(c) if what == 0 else _ch_alpha(c) if what == 1 else
              (_ch_alpha(c) or _ch_digit(c)) if what == 2 else _ch_space(c))
        if not ok:
            return False
    return True


def _str_isdigit(s):
    return _str_all(s, 0)


def _str_isalpha(s):
    return _str_all(s, 1)


def _str_isalnum(s):
    return _str_all(s, 2)


def _str_isspace(s):
    return _str_all(s, 3)


def _str_isupper(s):
    cased = False
    for i in range(len(s)):
        c = np._lget(s, i)
        if _ch_lower(c):
            return False
        cased = cased or _ch_upper(c)
    return cased


def _str_islower(s):
    cased = False
    for i in range(len(s)):
        c = np._lget(s, i)
        if _ch_upper(c):
            return False
        cased = cased or _ch_lower(c)
    return cased


def _str_strip_in(c, chars):
    if chars is None:
        return _ch_space(c)
    else:
        for j in range(len(chars)):
            if np._lget(chars, j) == c:
                return True
        return False


def _str_bounds(s, chars, left, right):
    lo = 0
    hi = len(s)
    if left:
        while lo < hi and _str_strip_in(np._lget(s, lo), chars):
            lo += 1
    if right:
        while hi > lo and _str_strip_in(np._lget(s, hi - 1), chars):
            hi -= 1
    return _list_slice(s, lo, hi, None)


def _str_strip(s, chars=None):
    return _str_bounds(s, chars, True, True)


def _str_lstrip(s, chars=None):
    return _str_bounds(s, chars, True, False)


def _str_rstrip(s, chars=None):
    return _str_bounds(s, chars, False, True)


def _str_split(s, sep=None, maxsplit=-1):
    if sep is None:
        return _str_split_space(s, maxsplit)
    else:
        return _str_split_sep(s, sep, maxsplit)


def _str_split_space(s, maxsplit):
    # Runs of whitespace separate; none at the ends.
    out = [s]
    out.pop()
    n = len(s)
    i = 0
    while True:
        while i < n and _ch_space(np._lget(s, i)):
            i += 1
        if i >= n:
            break
        if maxsplit >= 0 and len(out) >= maxsplit:
            j = n
            while j > i and _ch_space(np._lget(s, j - 1)):
                j -= 1
            out.append(_list_slice(s, i, j, None))
            break
        j = i
        while j < n and not _ch_space(np._lget(s, j)):
            j += 1
        out.append(_list_slice(s, i, j, None))
        i = j
    return out


def _str_split_sep(s, sep, maxsplit):
    out = [s]
    out.pop()
    n = len(s)
    m = len(sep)
    if m == 0:
        raise ValueError("empty separator")
    start = 0
    i = 0
    while i <= n - m:
        if (maxsplit < 0 or len(out) < maxsplit) and _str_at(s, sep, i):
            out.append(_list_slice(s, start, i, None))
            i += m
            start = i
        else:
            i += 1
    out.append(_list_slice(s, start, n, None))
    return out


def _str_join(sep, items):
    k = len(items)
    total = len(sep) * (k - 1) if k > 0 else 0
    for t in range(k):
        total += len(items[t])
    r = _str_new(total)
    p = 0
    for t in range(k):
        if t > 0:
            for j in range(len(sep)):
                np._lset(r, p, np._lget(sep, j))
                p += 1
        w = items[t]
        for j in range(len(w)):
            np._lset(r, p, np._lget(w, j))
            p += 1
    return r


def _str_replace(s, old, new):
    n = len(s)
    m = len(old)
    if m == 0:
        # new before every character and at the end
        r = new
        for i in range(n):
            r = _str_concat(_str_concat(r, _str_getitem(s, i)), new)
        return r
    parts = [s]
    parts.pop()
    start = 0
    i = 0
    while i <= n - m:
        if _str_at(s, old, i):
            parts.append(_list_slice(s, start, i, None))
            i += m
            start = i
        else:
            i += 1
    parts.append(_list_slice(s, start, n, None))
    return _str_join(new, parts)


def _str_pad(s, width, left):
    # left: how much of the padding goes before
    n = len(s)
    if width <= n:
        return s
    r = _str_new(width)
    for i in range(width):
        np._lset(r, i, 32)
    for i in range(n):
        np._lset(r, left + i, np._lget(s, i))
    return r


def _str_ljust(s, width):
    return _str_pad(s, width, 0)


def _str_rjust(s, width):
    return _str_pad(s, width, width - len(s) if width > len(s) else 0)


def _str_center(s, width):
    marg = width - len(s)
    if marg <= 0:
        return s
    return _str_pad(s, width, marg // 2 + (marg & width & 1))


def _str_zfill(s, width):
    n = len(s)
    if width <= n:
        return s
    r = _str_pad(s, width, width - n)
    sign = n > 0 and (np._lget(s, 0) == 43 or np._lget(s, 0) == 45)
    for i in range(width - n + (1 if sign else 0)):
        np._lset(r, i, 48)
    if sign:
        np._lset(r, 0, np._lget(s, 0))
    return r


def _str_from_int(x):
    if isinstance(x, bool):
        return "True" if x else "False"
    v = np.int64(x)
    neg = v < 0
    u = np.uint64(-(v + 1)) + np.uint64(1) if neg else np.uint64(v)
    digits = 1
    t = u
    while t >= np.uint64(10):
        t = t // np.uint64(10)
        digits += 1
    r = _str_new(digits + (1 if neg else 0))
    if neg:
        np._lset(r, 0, 45)
    for k in range(digits):
        np._lset(r, len(r) - 1 - k, np.uint64(48) + u % np.uint64(10))
        u = u // np.uint64(10)
    return r


def _str_ord(s):
    if len(s) != 1:
        raise TypeError("ord() expected a character")
    return np.int64(np._lget(s, 0))


def _str_chr(i):
    if i < 0 or i > 1114111:
        raise ValueError("chr() arg not in range(0x110000)")
    r = _str_new(1)
    np._lset(r, 0, i)
    return r


def _str_hash(s):
    # FNV-1a of the code points (dict and set keys; Python's string hash is
    # salted per process, so no order of a set of strings is to be matched).
    h = np.uint64(14695981039346656037)
    for i in range(len(s)):
        h = (h ^ np.uint64(np._lget(s, i))) * np.uint64(1099511628211)
    return np.int64(h >> np.uint64(2))
