# compiler/lib/numpy_lib.py - NumPy functions written in kjit's kernel
# language (compiler/NumpyLib.h). `np.<name>` in a jitted function is the
# function of that name here when the typer has no builtin typing for it.
# Each follows NumPy's (and Numba's) results and errors; arrays of any
# dimension are read through ravel(), which is a view of a C-contiguous
# array and a copy of another. Names that start with an underscore are the
# typer's helpers for the language itself (a[mask], a[index_array]).
#
# This text is compiled into kjit: keep it to the kernel language.
import numpy as np


# ---- indexing helpers ---------------------------------------------------------------------

def _mask_get(a, mask):
    # a[mask]: the elements where mask is true, in C order, as a new 1-d array.
    if a.shape != mask.shape:
        raise IndexError("boolean index did not match indexed array")
    fa = a.ravel()
    fm = mask.ravel()
    n = 0
    for i in range(fm.shape[0]):
        if fm[i]:
            n += 1
    out = np.empty(n, a.dtype)
    j = 0
    for i in range(fm.shape[0]):
        if fm[i]:
            out[j] = fa[i]
            j += 1
    return out


def _mask_set(a, mask, value):
    # a[mask] = value (a number): every element where mask is true.
    if a.shape != mask.shape:
        raise IndexError("boolean index did not match indexed array")
    fm = mask.ravel()
    fa = a.reshape(-1)
    for i in range(fm.shape[0]):
        if fm[i]:
            fa[i] = value


def _mask_set_array(a, mask, values):
    # a[mask] = values: the values in order, one per true element.
    if a.shape != mask.shape:
        raise IndexError("boolean index did not match indexed array")
    fm = mask.ravel()
    fa = a.reshape(-1)
    fv = values.ravel()
    n = 0
    for i in range(fm.shape[0]):
        if fm[i]:
            n += 1
    if fv.shape[0] != n and fv.shape[0] != 1:
        raise ValueError("NumPy boolean array indexing assignment cannot assign values to the elements where the mask is true: the counts differ")
    j = 0
    for i in range(fm.shape[0]):
        if fm[i]:
            fa[i] = fv[j if fv.shape[0] != 1 else 0]
            j += 1


def _take1(a, index):
    # a[index] for a 1-d a and an integer array index (of any shape).
    n = a.shape[0]
    fi = index.ravel()
    out = np.empty(fi.shape[0], a.dtype)
    for k in range(fi.shape[0]):
        i = fi[k]
        if i < 0:
            i += n
        if i < 0 or i >= n:
            raise IndexError("index out of bounds")
        out[k] = a[i]
    return out.reshape(index.shape)


def _take_rows(a, index):
    # a[index] for a 2-d a and a 1-d integer array: those rows.
    n = a.shape[0]
    m = a.shape[1]
    out = np.empty((index.shape[0], m), a.dtype)
    for k in range(index.shape[0]):
        i = index[k]
        if i < 0:
            i += n
        if i < 0 or i >= n:
            raise IndexError("index out of bounds")
        for j in range(m):
            out[k, j] = a[i, j]
    return out


def _put1(a, index, value):
    # a[index] = value (a number) for a 1-d a and an integer array index.
    n = a.shape[0]
    fi = index.ravel()
    for k in range(fi.shape[0]):
        i = fi[k]
        if i < 0:
            i += n
        if i < 0 or i >= n:
            raise IndexError("index out of bounds")
        a[i] = value


# ---- creation ----------------------------------------------------------------------------

def linspace(start, stop, num=50, endpoint=True):
    if num < 0:
        raise ValueError("Number of samples, -1, must be non-negative.")
    out = np.empty(num, np.float64)
    if num == 0:
        return out
    div = num - 1 if endpoint else num
    step = (stop - start) / div if div > 0 else 0.0
    for i in range(num):
        out[i] = start + i * step
    if endpoint and num > 1:
        out[num - 1] = stop
    return out


def identity(n):
    out = np.zeros((n, n), np.float64)
    for i in range(n):
        out[i, i] = 1.0
    return out


def eye(N, M=None, k=0):
    m = N
    if M is not None:
        m = M
    out = np.zeros((N, m), np.float64)
    for i in range(N):
        j = i + k
        if j >= 0 and j < m:
            out[i, j] = 1.0
    return out


def diag(v, k=0):
    # A 1-d v: the square matrix with v on diagonal k; a 2-d v: diagonal k.
    if v.ndim == 1:
        n = v.shape[0] + abs(k)
        out = np.zeros((n, n), v.dtype)
        for i in range(v.shape[0]):
            if k >= 0:
                out[i, i + k] = v[i]
            else:
                out[i - k, i] = v[i]
        return out
    else:
        rows = v.shape[0]
        cols = v.shape[1]
        if k >= 0:
            n = min(rows, cols - k)
        else:
            n = min(rows + k, cols)
        n = max(n, 0)
        d = np.empty(n, v.dtype)
        for i in range(n):
            if k >= 0:
                d[i] = v[i, i + k]
            else:
                d[i] = v[i - k, i]
        return d


# ---- element-wise and cumulative -----------------------------------------------------------

def clip(a, a_min, a_max):
    out = np.empty(a.shape, a.dtype)
    fa = a.ravel()
    fo = out.reshape(-1)
    for i in range(fa.shape[0]):
        x = fa[i]
        if x < a_min:
            x = a_min
        if x > a_max:
            x = a_max
        fo[i] = x
    return out


def cumsum(a):
    fa = a.ravel()
    acc = fa[:0].sum()  # 0 of NumPy's accumulator type (int64 for small ints)
    out = np.empty(fa.shape[0], type(acc))
    for i in range(fa.shape[0]):
        acc += fa[i]
        out[i] = acc
    return out


def cumprod(a):
    fa = a.ravel()
    acc = fa[:0].prod()
    out = np.empty(fa.shape[0], type(acc))
    for i in range(fa.shape[0]):
        acc *= fa[i]
        out[i] = acc
    return out


def diff(a, n=1):
    if n < 0:
        raise ValueError("order must be non-negative but got -1")
    out = a.copy()
    m = a.shape[0]
    for _ in range(n):
        if m == 0:
            break
        for i in range(m - 1):
            out[i] = out[i + 1] - out[i]
        m -= 1
    return out[:m].copy()


def outer(a, b):
    fa = a.ravel()
    fb = b.ravel()
    out = np.empty((fa.shape[0], fb.shape[0]), type(fa[:0].sum() * fb[:0].sum()))
    for i in range(fa.shape[0]):
        for j in range(fb.shape[0]):
            out[i, j] = fa[i] * fb[j]
    return out


# ---- searching -----------------------------------------------------------------------------

def argmax(a):
    fa = a.ravel()
    if fa.shape[0] == 0:
        raise ValueError("attempt to get argmax of an empty sequence")
    best = 0
    for i in range(fa.shape[0]):
        if fa[i] != fa[i]:  # the first NaN wins
            return i
        if fa[i] > fa[best]:
            best = i
    return best


def argmin(a):
    fa = a.ravel()
    if fa.shape[0] == 0:
        raise ValueError("attempt to get argmin of an empty sequence")
    best = 0
    for i in range(fa.shape[0]):
        if fa[i] != fa[i]:
            return i
        if fa[i] < fa[best]:
            best = i
    return best


def _lt(x, y):
    # NumPy's sort order: NaN after every number.
    return x < y or (y != y and x == x)


def _merge_sort(keys, order):
    # Sorts `order` (indices into keys) stably by keys[order[i]]: insertion
    # sort for short runs, then bottom-up merges.
    n = order.shape[0]
    run = 16
    for lo in range(0, n, run):
        hi = min(lo + run, n)
        for i in range(lo + 1, hi):
            v = order[i]
            j = i - 1
            while j >= lo and _lt(keys[v], keys[order[j]]):
                order[j + 1] = order[j]
                j -= 1
            order[j + 1] = v
    buf = np.empty(n, order.dtype)
    width = run
    while width < n:
        for lo in range(0, n, 2 * width):
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            i = lo
            j = mid
            k = lo
            while i < mid and j < hi:
                if _lt(keys[order[j]], keys[order[i]]):
                    buf[k] = order[j]
                    j += 1
                else:
                    buf[k] = order[i]
                    i += 1
                k += 1
            while i < mid:
                buf[k] = order[i]
                i += 1
                k += 1
            while j < hi:
                buf[k] = order[j]
                j += 1
                k += 1
        for t in range(n):
            order[t] = buf[t]
        width *= 2


def argsort(a):
    fa = a.ravel()
    order = np.arange(fa.shape[0])
    _merge_sort(fa, order)
    return order


def sort(a):
    fa = a.ravel()
    order = argsort(fa)
    out = np.empty(fa.shape[0], a.dtype)
    for i in range(fa.shape[0]):
        out[i] = fa[order[i]]
    return out


def searchsorted(a, v, side="left"):
    # The index where v would go in the sorted 1-d a (v a number).
    lo = 0
    hi = a.shape[0]
    right = side == "right"
    while lo < hi:
        mid = (lo + hi) >> 1
        if (a[mid] <= v) if right else _lt(a[mid], v):
            lo = mid + 1
        else:
            hi = mid
    return lo


def digitize(x, bins, right=False):
    fx = x.ravel()
    out = np.empty(fx.shape[0], np.int64)
    increasing = bins.shape[0] < 2 or bins[bins.shape[0] - 1] >= bins[0]
    for i in range(fx.shape[0]):
        v = fx[i]
        lo = 0
        hi = bins.shape[0]
        if v != v:  # NaN sorts after every number
            out[i] = hi if increasing else 0
            continue
        while lo < hi:
            mid = (lo + hi) >> 1
            if increasing:
                go = (bins[mid] < v) if right else (bins[mid] <= v)
            else:
                go = (bins[mid] >= v) if right else (bins[mid] > v)
            if go:
                lo = mid + 1
            else:
                hi = mid
        out[i] = lo
    return out.reshape(x.shape)


def nonzero(a):
    fa = a.ravel()
    n = 0
    for i in range(fa.shape[0]):
        if fa[i] != 0:
            n += 1
    out = np.empty(n, np.int64)
    j = 0
    for i in range(fa.shape[0]):
        if fa[i] != 0:
            out[j] = i
            j += 1
    return (out,)


def flatnonzero(a):
    return nonzero(a.ravel())[0]


# ---- counting ------------------------------------------------------------------------------

def bincount(x, minlength=0):
    n = minlength
    for i in range(x.shape[0]):
        if x[i] < 0:
            raise ValueError("'list' argument must have no negative elements")
        if x[i] + 1 > n:
            n = x[i] + 1
    out = np.zeros(n, np.int64)
    for i in range(x.shape[0]):
        out[x[i]] += 1
    return out


def histogram(a, bins=10, range=None):
    # `bins` equal bins over [a.min(), a.max()] (or `range`): the counts and
    # the edges. A value goes in the bin its edges hold, as NumPy places it.
    if bins <= 0:
        raise ValueError("`bins` must be positive, when an integer")
    fa = a.ravel()
    lo = 0.0
    hi = 1.0
    if range is None:
        if fa.shape[0] > 0:
            lo = float(fa.min())
            hi = float(fa.max())
    else:
        lo = float(range[0])
        hi = float(range[1])
        if lo > hi:
            raise ValueError("max must be larger than min in range parameter.")
    if lo == hi:
        lo -= 0.5
        hi += 0.5
    edges = linspace(lo, hi, bins + 1)
    counts = np.zeros(bins, np.int64)
    norm = bins / (hi - lo)
    for i in np.arange(fa.shape[0]):
        v = fa[i]
        if not (v >= lo and v <= hi):
            continue
        k = int((v - lo) * norm)
        if k == bins:
            k -= 1
        if v < edges[k]:
            k -= 1
        elif k != bins - 1 and v >= edges[k + 1]:
            k += 1
        counts[k] += 1
    return counts, edges


def unique(a):
    s = sort(a)
    n = s.shape[0]
    if n == 0:
        return s
    k = 1
    for i in range(1, n):
        if s[i] != s[i - 1] and not (s[i] != s[i] and s[i - 1] != s[i - 1]):
            k += 1
    out = np.empty(k, s.dtype)
    out[0] = s[0]
    j = 1
    for i in range(1, n):
        if s[i] != s[i - 1] and not (s[i] != s[i] and s[i - 1] != s[i - 1]):
            out[j] = s[i]
            j += 1
    return out


# ---- interpolation and products -------------------------------------------------------------

def interp(x, xp, fp):
    fx = x.ravel()
    out = np.empty(fx.shape[0], np.float64)
    n = xp.shape[0]
    if n == 0:
        raise ValueError("array of sample points is empty")
    for i in range(fx.shape[0]):
        v = fx[i]
        if v != v:
            out[i] = v
        elif v <= xp[0]:
            out[i] = fp[0]
        elif v >= xp[n - 1]:
            out[i] = fp[n - 1]
        else:
            lo = 0
            hi = n - 1
            while hi - lo > 1:
                mid = (lo + hi) >> 1
                if xp[mid] <= v:
                    lo = mid
                else:
                    hi = mid
            t = (v - xp[lo]) / (xp[hi] - xp[lo])
            out[i] = fp[lo] + t * (fp[hi] - fp[lo])
    return out.reshape(x.shape)


def convolve(a, v):
    # mode='full': len(a) + len(v) - 1 values.
    n = a.shape[0]
    m = v.shape[0]
    if n == 0 or m == 0:
        raise ValueError("v cannot be empty")
    out = np.zeros(n + m - 1, type(a[:0].sum() * v[:0].sum()))
    for i in range(n):
        for j in range(m):
            out[i + j] += a[i] * v[j]
    return out


def trace(a):
    acc = a[:0, 0].sum()
    for i in range(min(a.shape[0], a.shape[1])):
        acc += a[i, i]
    return acc


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return np.where(a == b, True,
                    np.where((a != a) | (b != b), equal_nan & (a != a) & (b != b),
                             np.abs(a - b) <= atol + rtol * np.abs(b)))


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(isclose(a, b, rtol, atol, equal_nan).all())


def _sort_in_place(a):
    # a.sort(): the 1-d array sorted in place (NaN last).
    s = sort(a)
    for i in range(a.shape[0]):
        a[i] = s[i]
