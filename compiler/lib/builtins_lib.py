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

