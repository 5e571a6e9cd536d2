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


def _flat_nonzero(a):
    # The C-order positions of a's non-zero elements.
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
    return out


def nonzero(a):
    # One index array per dimension (NumPy's order: C order of a).
    flat = _flat_nonzero(a)
    if a.ndim == 1:
        return (flat,)
    elif a.ndim == 2:
        return (flat // a.shape[1], flat % a.shape[1])
    elif a.ndim == 3:
        s12 = a.shape[1] * a.shape[2]
        return (flat // s12, (flat // a.shape[2]) % a.shape[1], flat % a.shape[2])
    else:
        s123 = a.shape[1] * a.shape[2] * a.shape[3]
        s23 = a.shape[2] * a.shape[3]
        return (flat // s123, (flat // s23) % a.shape[1], (flat // a.shape[3]) % a.shape[2],
                flat % a.shape[3])


def argwhere(a):
    # An (n, a.ndim) array: the index of each non-zero element, one per row.
    flat = _flat_nonzero(a)
    out = np.empty((flat.shape[0], max(a.ndim, 1)), np.int64)
    for r in range(flat.shape[0]):
        rest = flat[r]
        for d in range(a.ndim - 1, -1, -1):
            out[r, d] = rest % a.shape[d]
            rest = rest // a.shape[d]
    return out


def flatnonzero(a):
    return _flat_nonzero(a)


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


# ---- reductions along an axis ----------------------------------------------------------------

def _reduce1(v, op):
    # The whole-array reduction `op` of v (a compile-time string).
    if op == "sum":
        return v.sum()
    elif op == "prod":
        return v.prod()
    elif op == "min":
        return v.min()
    elif op == "max":
        return v.max()
    elif op == "mean":
        return v.mean()
    elif op == "var":
        return v.var()
    elif op == "std":
        return v.std()
    elif op == "all":
        return v.all()
    elif op == "any":
        return v.any()
    elif op == "argmin":
        return argmin(v)
    elif op == "argmax":
        return argmax(v)
    elif op == "median":
        return median(v)
    elif op == "cumsum":
        return cumsum(v)
    else:
        return v.sum()


def _axis(axis, ndim):
    if axis < -ndim or axis >= ndim:
        raise ValueError("axis is out of bounds for array")
    return axis + ndim if axis < 0 else axis


def _reduce1d(a, axis, op):
    _axis(axis, 1)
    return _reduce1(a, op)


def _reduce2(a, axis, op):
    # A 2-d a reduced along axis 0 or 1: a 1-d array.
    ax = _axis(axis, 2)
    n = a.shape[1] if ax == 0 else a.shape[0]
    out = np.empty(n, type(_reduce1(a[:, 0], op)))
    for k in range(n):
        if ax == 0:
            out[k] = _reduce1(a[:, k], op)
        else:
            out[k] = _reduce1(a[k, :], op)
    return out


def _reduce3(a, axis, op):
    # A 3-d a reduced along one axis: a 2-d array.
    ax = _axis(axis, 3)
    if ax == 0:
        n0 = a.shape[1]
        n1 = a.shape[2]
    elif ax == 1:
        n0 = a.shape[0]
        n1 = a.shape[2]
    else:
        n0 = a.shape[0]
        n1 = a.shape[1]
    out = np.empty((n0, n1), type(_reduce1(a[:, 0, 0], op)))
    for i in range(n0):
        for j in range(n1):
            if ax == 0:
                out[i, j] = _reduce1(a[:, i, j], op)
            elif ax == 1:
                out[i, j] = _reduce1(a[i, :, j], op)
            else:
                out[i, j] = _reduce1(a[i, j, :], op)
    return out


def median(a):
    s = sort(a)
    n = s.shape[0]
    if n == 0:
        return np.nan
    if s[n - 1] != s[n - 1]:  # a NaN: the median is NaN
        return np.nan
    if n % 2 == 1:
        return s[n // 2] * 1.0
    return (s[n // 2 - 1] + s[n // 2]) / 2.0


def _quantile_sorted(s, q):
    # Linear interpolation between the closest ranks (NumPy's default).
    n = s.shape[0]
    if q < 0.0 or q > 1.0:
        raise ValueError("Quantiles must be in the range [0, 1]")
    if n == 0:
        return np.nan
    if s[n - 1] != s[n - 1]:
        return np.nan
    pos = q * (n - 1)
    lo = int(np.floor(pos))
    hi = min(lo + 1, n - 1)
    frac = pos - lo
    return s[lo] + (s[hi] - s[lo]) * frac


def quantile(a, q):
    return _quantile_sorted(sort(a), q)


def percentile(a, q):
    return _quantile_sorted(sort(a), q / 100.0)


def nanmedian(a):
    s = sort(a)
    n = 0
    for i in range(s.shape[0]):
        if s[i] == s[i]:
            n += 1
    if n == 0:
        return np.nan
    if n % 2 == 1:
        return s[n // 2] * 1.0
    return (s[n // 2 - 1] + s[n // 2]) / 2.0


def average(a, weights=None):
    if weights is None:
        return a.mean()
    else:
        return (a * weights).sum() / weights.sum()


def ptp(a):
    return a.max() - a.min()


# ---- joining and products ----------------------------------------------------------------------

def concatenate(arrays):
    # A tuple of 1-d arrays end to end, or of n-d arrays along axis 0.
    n = 0
    for x in arrays:
        n += x.shape[0]
    first = arrays[0]
    if first.ndim == 1:
        out = np.empty(n, first.dtype)
        at = 0
        for x in arrays:
            for i in range(x.shape[0]):
                out[at + i] = x[i]
            at += x.shape[0]
        return out
    elif first.ndim == 2:
        out = np.empty((n, first.shape[1]), first.dtype)
        at = 0
        for x in arrays:
            out[at:at + x.shape[0]] = x
            at += x.shape[0]
        return out
    else:
        out = np.empty((n, first.shape[1], first.shape[2]), first.dtype)
        at = 0
        for x in arrays:
            out[at:at + x.shape[0]] = x
            at += x.shape[0]
        return out


def hstack(arrays):
    if arrays[0].ndim == 1:
        return concatenate(arrays)
    else:
        n = 0
        for x in arrays:
            n += x.shape[1]
        out = np.empty((arrays[0].shape[0], n), arrays[0].dtype)
        at = 0
        for x in arrays:
            out[:, at:at + x.shape[1]] = x
            at += x.shape[1]
        return out


def vstack(arrays):
    if arrays[0].ndim == 1:
        out = np.empty((len(arrays), arrays[0].shape[0]), arrays[0].dtype)
        k = 0
        for x in arrays:
            out[k] = x
            k += 1
        return out
    else:
        return concatenate(arrays)


def stack(arrays):
    # 1-d arrays as the rows of a 2-d one (axis 0).
    return vstack(arrays)


def dot(a, b):
    # 1-d . 1-d: the inner product; 2-d . 1-d, 1-d . 2-d and 2-d . 2-d: the
    # matrix products.
    if a.ndim == 1:
        if b.ndim == 1:
            if a.shape[0] != b.shape[0]:
                raise ValueError("shapes not aligned")
            acc = type(a[:0].sum() * b[:0].sum())(0)
            for i in range(a.shape[0]):
                acc += a[i] * b[i]
            return acc
        else:
            if a.shape[0] != b.shape[0]:
                raise ValueError("shapes not aligned")
            out = np.zeros(b.shape[1], type(a[:0].sum() * b[:0, 0].sum()))
            for k in range(a.shape[0]):
                for j in range(b.shape[1]):
                    out[j] += a[k] * b[k, j]
            return out
    else:
        if b.ndim == 1:
            if a.shape[1] != b.shape[0]:
                raise ValueError("shapes not aligned")
            out = np.zeros(a.shape[0], type(a[:0, 0].sum() * b[:0].sum()))
            for i in range(a.shape[0]):
                acc = out[i]
                for k in range(a.shape[1]):
                    acc += a[i, k] * b[k]
                out[i] = acc
            return out
        else:
            if a.shape[1] != b.shape[0]:
                raise ValueError("shapes not aligned")
            if isinstance(a[0, 0], np.float64):
                if isinstance(b[0, 0], np.float64):
                    # float64 matrices: BLAS's dgemm, on C-contiguous
                    # copies where they are not already.
                    c = np.empty((a.shape[0], b.shape[1]), np.float64)
                    if np.linalg._gemm(_c_float64(a), _c_float64(b), c) == 0:
                        return c
            out = np.zeros((a.shape[0], b.shape[1]), type(a[:0, 0].sum() * b[:0, 0].sum()))
            for i in range(a.shape[0]):
                for k in range(a.shape[1]):
                    aik = a[i, k]
                    for j in range(b.shape[1]):
                        out[i, j] += aik * b[k, j]
            return out


def _c_float64(a):
    # a itself when it is a C-contiguous float64 matrix, else a C copy.
    return np.ascontiguousarray(a)


def matmul(a, b):
    return dot(a, b)


def vdot(a, b):
    return dot(a.ravel(), b.ravel())


def inner(a, b):
    return dot(a, b)


def transpose(a):
    return a.T


def fliplr(a):
    return a[:, ::-1]


def flipud(a):
    return a[::-1]


def flip(a):
    # Every axis reversed (NumPy's flip with no axis).
    if a.ndim == 1:
        return a[::-1]
    elif a.ndim == 2:
        return a[::-1, ::-1]
    elif a.ndim == 3:
        return a[::-1, ::-1, ::-1]
    else:
        return a[::-1, ::-1, ::-1, ::-1]


def roll(a, shift):
    fa = a.ravel()
    n = fa.shape[0]
    out = np.empty(n, a.dtype)
    if n == 0:
        return out.reshape(a.shape)
    s = shift % n
    for i in range(n):
        out[(i + s) % n] = fa[i]
    return out.reshape(a.shape)


def repeat(a, repeats):
    fa = a.ravel()
    out = np.empty(fa.shape[0] * repeats, a.dtype)
    for i in range(fa.shape[0]):
        for r in range(repeats):
            out[i * repeats + r] = fa[i]
    return out


def tile(a, reps):
    fa = a.ravel()
    n = fa.shape[0]
    out = np.empty(n * reps, a.dtype)
    for r in range(reps):
        for i in range(n):
            out[r * n + i] = fa[i]
    return out


def cross(a, b):
    out = np.empty(3, type(a[:0].sum() * b[:0].sum()))
    out[0] = a[1] * b[2] - a[2] * b[1]
    out[1] = a[2] * b[0] - a[0] * b[2]
    out[2] = a[0] * b[1] - a[1] * b[0]
    return out


def triu(m, k=0):
    out = m.copy()
    for i in range(m.shape[0]):
        for j in range(min(i + k, m.shape[1])):
            out[i, j] = 0
    return out


def tril(m, k=0):
    out = m.copy()
    for i in range(m.shape[0]):
        for j in range(max(i + k + 1, 0), m.shape[1]):
            out[i, j] = 0
    return out


def full_like(a, fill_value):
    out = np.empty(a.shape, a.dtype)
    out.fill(fill_value)
    return out


def nan_to_num(x, nan=0.0):
    out = x.copy()
    fo = out.reshape(-1)
    for i in range(fo.shape[0]):
        v = fo[i]
        if v != v:
            fo[i] = nan
        elif v == np.inf:
            fo[i] = 1.7976931348623157e308
        elif v == -np.inf:
            fo[i] = -1.7976931348623157e308
    return out


# ---- np.random -------------------------------------------------------------------------------
# Over the host runtime's per-thread Mersenne Twister (np.random._bits,
# _double, _gauss): NumPy's legacy stream for random() and the normal
# variates, Numba's algorithms for the integers and the rest.

def _draw(kind, p, q):
    # One variate of `kind` (a compile-time string) with parameters p, q.
    if kind == "double":
        return np.random._double()
    elif kind == "gauss":
        return np.random._gauss()
    elif kind == "normal":
        return p + q * np.random._gauss()
    elif kind == "uniform":
        return p + (q - p) * np.random._double()
    else:  # exponential, scale p
        return -np.log(1.0 - np.random._double()) * p


def _draws(size, kind, p, q):
    # One variate per element of a new float64 array of shape `size`, or one
    # number when size is None.
    if size is None:
        return _draw(kind, p, q)
    else:
        out = np.empty(size, np.float64)
        fo = out.reshape(-1)
        for i in range(fo.shape[0]):
            fo[i] = _draw(kind, p, q)
        return out


def random_random(size=None):
    return _draws(size, "double", 0.0, 0.0)


def random_random_sample(size=None):
    return random_random(size)


def random_sample(size=None):
    return random_random(size)


def random_ranf(size=None):
    return random_random(size)


def random_rand(*shape):
    if len(shape) == 0:
        return np.random._double()
    else:
        return _draws(shape, "double", 0.0, 0.0)


def random_standard_normal(size=None):
    return _draws(size, "gauss", 0.0, 0.0)


def random_randn(*shape):
    if len(shape) == 0:
        return np.random._gauss()
    else:
        return _draws(shape, "gauss", 0.0, 0.0)


def random_normal(loc=0.0, scale=1.0, size=None):
    return _draws(size, "normal", loc, scale)


def random_uniform(low=0.0, high=1.0, size=None):
    return _draws(size, "uniform", low, high)


def random_exponential(scale=1.0, size=None):
    return _draws(size, "exponential", scale, 0.0)


def _randrange(low, high):
    # An integer in [low, high): the fewest bits that hold high - low - 1,
    # drawn again while too large (Numba's np.random.randint).
    n = high - low
    if n <= 0:
        raise ValueError("low >= high")
    if n == 1:
        return low
    nbits = 0
    m = n - 1
    while m > 0:
        nbits += 1
        m >>= 1
    while True:
        if nbits <= 32:
            r = np.random._bits() & ((1 << nbits) - 1)
        else:
            hi = np.random._bits() & ((1 << (nbits - 32)) - 1)
            r = np.random._bits() | (hi << 32)
        if r < n:
            return low + r


def random_randint(low, high=None, size=None):
    lo = 0
    hi = low
    if high is not None:
        lo = low
        hi = high
    if size is None:
        return _randrange(lo, hi)
    else:
        out = np.empty(size, np.int64)
        fo = out.reshape(-1)
        for i in range(fo.shape[0]):
            fo[i] = _randrange(lo, hi)
        return out


def random_shuffle(arr):
    i = arr.shape[0] - 1
    while i > 0:
        j = _randrange(0, i + 1)
        if arr.ndim == 1:
            t = arr[i]
            arr[i] = arr[j]
            arr[j] = t
        else:
            t = arr[i].copy()
            arr[i] = arr[j]
            arr[j] = t
        i -= 1


def random_permutation(x):
    if isinstance(x, int):
        y = np.arange(x)
        random_shuffle(y)
        return y
    else:
        y = x.copy()
        random_shuffle(y)
        return y


def random_choice(a, size=None, replace=True):
    n = a.shape[0]
    if size is None:
        return a[_randrange(0, n)]
    else:
        if replace:
            out = np.empty(size, a.dtype)
            fo = out.reshape(-1)
            for i in range(fo.shape[0]):
                fo[i] = a[_randrange(0, n)]
            return out
        else:
            out = np.empty(size, a.dtype)
            fo = out.reshape(-1)
            if fo.shape[0] > n:
                raise ValueError("Cannot take a larger sample than population when replace=False")
            src = a.copy()
            random_shuffle(src)
            for i in range(fo.shape[0]):
                fo[i] = src[i]
            return out


# ---- np.linalg ---------------------------------------------------------------------------------
# Through the system's LAPACK (np.linalg._lapack: the host runtime's
# kjit_rt_lapack). A C-contiguous float64 copy is what LAPACK, column-major,
# reads as the transpose: LU factors of a^T solve a x = b with the
# transposed solve, and the inverse of a^T read back row-major is a's.

def _lapack(op, a, piv, b):
    info = np.linalg._lapack(op, a, piv, b)
    if info == -9999:
        raise RuntimeError("np.linalg needs the system's LAPACK (liblapack.so.3; on Debian: apt install liblapack3)")
    return info


def _square(a):
    if a.shape[0] != a.shape[1]:
        raise np.linalg.LinAlgError("Last 2 dimensions of the array must be square")


def linalg_det(a):
    _square(a)
    n = a.shape[0]
    lu = a.astype(np.float64)
    piv = np.empty(n, np.int32)
    info = _lapack(0, lu, piv, lu)
    if info > 0:
        return 0.0
    d = 1.0
    for i in range(n):
        d *= lu[i, i]
        if piv[i] != i + 1:
            d = -d
    return d


def linalg_solve(a, b):
    _square(a)
    n = a.shape[0]
    lu = a.astype(np.float64)
    piv = np.empty(n, np.int32)
    info = _lapack(0, lu, piv, lu)
    if info > 0:
        raise np.linalg.LinAlgError("Matrix is singular to machine precision.")
    if b.ndim == 1:
        if b.shape[0] != n:
            raise ValueError("solve: the right-hand side has the wrong number of rows")
        bt = b.astype(np.float64).reshape(1, n)
        _lapack(1, lu, piv, bt)
        return bt.reshape(n)
    else:
        if b.shape[0] != n:
            raise ValueError("solve: the right-hand side has the wrong number of rows")
        nrhs = b.shape[1]
        bt = np.empty((nrhs, n), np.float64)
        for i in range(n):
            for j in range(nrhs):
                bt[j, i] = b[i, j]
        _lapack(1, lu, piv, bt)
        x = np.empty((n, nrhs), np.float64)
        for i in range(n):
            for j in range(nrhs):
                x[i, j] = bt[j, i]
        return x


def linalg_inv(a):
    _square(a)
    n = a.shape[0]
    lu = a.astype(np.float64)
    piv = np.empty(n, np.int32)
    info = _lapack(0, lu, piv, lu)
    if info > 0:
        raise np.linalg.LinAlgError("Matrix is singular to machine precision.")
    _lapack(2, lu, piv, lu)
    return lu


def linalg_cholesky(a):
    _square(a)
    n = a.shape[0]
    c = a.astype(np.float64)
    piv = np.empty(0, np.int32)
    info = _lapack(3, c, piv, c)
    if info > 0:
        raise np.linalg.LinAlgError("Matrix is not positive definite")
    for i in range(n):
        for j in range(i + 1, n):
            c[i, j] = 0.0
    return c


def _norm2(fx):
    s = 0.0
    for i in range(fx.shape[0]):
        s += abs(fx[i]) ** 2
    return np.sqrt(s)


def _vector_norm(x, ord):
    # Numba's orders of a vector norm; an empty vector's norm is 0.
    n = x.shape[0]
    if n == 0:
        return 0.0
    if ord == 2:
        return _norm2(x)
    if ord == np.inf or ord == -np.inf:
        r = abs(x[0])
        for k in range(1, n):
            v = abs(x[k])
            if (ord > 0 and v > r) or (ord < 0 and v < r):
                r = v
        return r * 1.0
    if ord == 0:
        r = 0.0
        for k in range(n):
            if x[k] != 0:
                r += 1.0
        return r
    if ord == 1:
        r = 0.0
        for k in range(n):
            r += abs(x[k])
        return r
    r = 0.0
    for k in range(n):
        r += abs(x[k]) ** ord
    return r ** (1.0 / ord)


def _matrix_norm(a, ord):
    # Numba's orders of a matrix norm: +-1 (columns), +-inf (rows), +-2
    # (largest and smallest singular value); an empty matrix's norm is 0.
    m = a.shape[0]
    n = a.shape[1]
    if m * n == 0:
        return 0.0
    if ord == 2 or ord == -2:
        s = linalg_svd(a)[1]
        return s[0] if ord == 2 else s[s.shape[0] - 1]
    if ord != 1 and ord != -1 and ord != np.inf and ord != -np.inf:
        raise ValueError("Invalid norm order for matrices.")
    rows = ord == np.inf or ord == -np.inf
    outer = m if rows else n
    inner = n if rows else m
    best = 0.0
    for i in range(outer):
        t = 0.0
        for j in range(inner):
            t += abs(a[i, j]) if rows else abs(a[j, i])
        if i == 0 or (ord > 0 and t > best) or (ord < 0 and t < best):
            best = t
    return best


def linalg_norm(x, ord=None):
    # ord=None: the 2-norm of a vector, the Frobenius norm of a matrix.
    if ord is None:
        return _norm2(x.ravel())
    elif isinstance(ord, str):
        # NumPy's names of matrix norms (Numba takes numbers only).
        if x.ndim == 1:
            raise ValueError("Invalid norm order for vectors.")
        if ord == "fro":
            return _norm2(x.ravel())
        if ord == "nuc":
            return linalg_svd(x)[1].sum()
        raise ValueError("Invalid norm order for matrices.")
    elif x.ndim == 1:
        return _vector_norm(x, ord)
    else:
        return _matrix_norm(x, ord)


def linalg_eigh(a):
    # The eigenvalues (ascending) and eigenvectors (columns) of a symmetric
    # matrix, from its lower triangle (NumPy's UPLO='L'): LAPACK gets a's
    # transpose in C order, which it reads as a itself, as NumPy passes it,
    # so the eigenvectors come with NumPy's signs.
    _square(a)
    n = a.shape[0]
    z = a.T.astype(np.float64)
    w = np.empty((1, n), np.float64)
    piv = np.empty(0, np.int32)
    info = _lapack(4, z, piv, w)
    if info > 0:
        raise np.linalg.LinAlgError("Eigenvalues did not converge")
    v = np.empty((n, n), np.float64)
    for i in range(n):
        for j in range(n):
            v[i, j] = z[j, i]
    return w.reshape(n), v


def linalg_eigvalsh(a):
    return linalg_eigh(a)[0]


# SVD, QR, the general eigen-decomposition and least squares: kjit_rt_lapack's ops 5 to 8
# read a C-contiguous copy of a's transpose, which is a in LAPACK's column
# order (as NumPy and Numba pass it, so the vectors have their signs), and
# write their results, column-major, one after another into `out`.

def _colmajor(flat, start, rows, cols):
    # The rows x cols matrix stored column-major in flat[start:].
    m = np.empty((rows, cols), np.float64)
    for j in range(cols):
        for i in range(rows):
            m[i, j] = flat[start + j * rows + i]
    return m


def linalg_svd(a, full_matrices=True):
    m = a.shape[0]
    n = a.shape[1]
    k = min(m, n)
    at = a.T.astype(np.float64)
    out = np.empty((1, k + m * m + n * n), np.float64)
    piv = np.empty(0, np.int32)
    info = _lapack(5, at, piv, out)
    if info > 0:
        raise np.linalg.LinAlgError("SVD did not converge")
    flat = out.reshape(k + m * m + n * n)
    s = flat[:k].copy()
    u = _colmajor(flat, k, m, m)
    vh = _colmajor(flat, k + m * m, n, n)
    if not full_matrices:
        return u[:, :k].copy(), s, vh[:k, :].copy()
    return u, s, vh


def linalg_qr(a):
    m = a.shape[0]
    n = a.shape[1]
    k = min(m, n)
    at = a.T.astype(np.float64)
    out = np.empty((1, m * k + k * n), np.float64)
    piv = np.empty(0, np.int32)
    _lapack(6, at, piv, out)
    flat = out.reshape(m * k + k * n)
    return _colmajor(flat, 0, m, k), _colmajor(flat, m * k, k, n)


def linalg_eig(a):
    # Real eigenvalues and vectors of a general matrix; complex ones are
    # Numba's error ("domain change").
    _square(a)
    n = a.shape[0]
    at = a.T.astype(np.float64)
    out = np.empty((1, 2 * n + n * n), np.float64)
    piv = np.empty(0, np.int32)
    info = _lapack(7, at, piv, out)
    if info > 0:
        raise np.linalg.LinAlgError("Eigenvalues did not converge")
    flat = out.reshape(2 * n + n * n)
    for i in range(n):
        if flat[n + i] != 0.0:
            raise ValueError("eig() argument must not cause a domain change.")
    return flat[:n].copy(), _colmajor(flat, 2 * n, n, n)


def linalg_eigvals(a):
    return linalg_eig(a)[0]


def _check_finite(a):
    f = a.ravel()
    for i in range(f.shape[0]):
        if not np.isfinite(f[i]):
            raise np.linalg.LinAlgError("Array must not contain infs or NaNs.")


def linalg_lstsq(a, b, rcond=-1.0):
    # Numba's lstsq (LAPACK's gelsd): x, the residuals' sums of squares (empty
    # unless m > n and a has full rank), the rank, the singular values.
    m = a.shape[0]
    n = a.shape[1]
    if b.shape[0] != m:
        raise np.linalg.LinAlgError("Incompatible array sizes, system is not dimensionally valid.")
    if m == 0 or n == 0 or b.size == 0:
        raise np.linalg.LinAlgError("Arrays cannot be empty")
    _check_finite(a)
    _check_finite(b)
    k = min(m, n)
    big = max(m, n)
    nrhs = 1 if b.ndim == 1 else b.shape[b.ndim - 1]
    at = a.T.astype(np.float64)
    work = np.zeros((nrhs, big + k + 1), np.float64)
    if b.ndim == 1:
        for i in range(m):
            work[0, i] = b[i]
    else:
        for j in range(nrhs):
            for i in range(m):
                work[j, i] = b[i, j]
    work[0, big + k] = rcond
    piv = np.empty(0, np.int32)
    info = _lapack(8, at, piv, work)
    if info > 0:
        raise np.linalg.LinAlgError("SVD did not converge in Linear Least Squares")
    rank = int(work[0, big + k])
    s = work[0, big:big + k].copy()
    if rank < n or m <= n:
        res = np.empty(0, np.float64)
    else:
        res = np.zeros(nrhs, np.float64)
        for j in range(nrhs):
            for i in range(n, m):
                res[j] += work[j, i] ** 2
    if b.ndim == 1:
        return work[0, :n].copy(), res, rank, s
    else:
        x = np.empty((n, nrhs), np.float64)
        for i in range(n):
            for j in range(nrhs):
                x[i, j] = work[j, i]
        return x, res, rank, s


def linalg_matrix_rank(a, tol=None):
    if a.ndim == 1:
        for k in range(a.shape[0]):
            if a[k] != 0:
                return 1
        return 0
    else:
        s = linalg_svd(a)[1]
        # float64's machine epsilon
        t = s[0] * max(a.shape[0], a.shape[1]) * 2.220446049250313e-16 if tol is None else tol
        r = 0
        for k in range(s.shape[0]):
            if s[k] > t:
                r += 1
        return r


def linalg_pinv(a, rcond=1e-15):
    # V diag(1/s) U^T over the singular values above rcond * the largest.
    m = a.shape[0]
    n = a.shape[1]
    if m == 0 or n == 0:
        return np.zeros((n, m), np.float64)
    u, s, vh = linalg_svd(a, False)
    k = s.shape[0]
    cut = s[0] * rcond
    out = np.zeros((n, m), np.float64)
    for t in range(k):
        if s[t] > cut:
            inv = 1.0 / s[t]
            for i in range(n):
                for j in range(m):
                    out[i, j] += vh[t, i] * inv * u[j, t]
    return out


def linalg_slogdet(a):
    # (sign, log|det|) from the LU factors; (0, -inf) when singular.
    _square(a)
    n = a.shape[0]
    if n == 0:
        return 1.0, 0.0
    lu = a.astype(np.float64)
    piv = np.empty(n, np.int32)
    info = _lapack(0, lu, piv, lu)
    if info > 0:
        return 0.0, -np.inf
    sign = 1.0
    logdet = 0.0
    for i in range(n):
        d = lu[i, i]
        if d < 0:
            sign = -sign
        if piv[i] != i + 1:
            sign = -sign
        logdet += np.log(abs(d))
    return sign, logdet


def linalg_matrix_power(a, n):
    if n == 0:
        out = np.zeros(a.shape, np.float64)
        for k in range(a.shape[0]):
            out[k, k] = 1.0
        return out
    if a.shape[0] != a.shape[1]:
        raise ValueError("input must be a square array")
    base = a.astype(np.float64)
    if n < 0:
        base = linalg_inv(base)
        n = -n
    result = base.copy()
    n -= 1
    while n > 0:
        if n & 1:
            result = result @ base
        base = base @ base
        n >>= 1
    return result


def linalg_cond(x, p=None):
    if p is None:
        s = linalg_svd(x)[1]
        return s[0] / s[s.shape[0] - 1]
    else:
        return linalg_norm(x, p) * linalg_norm(linalg_inv(x), p)

