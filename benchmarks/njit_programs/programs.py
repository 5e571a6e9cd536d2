"""Typical @njit programs, as new users write them, in four groups (plain
loops, NumPy, containers, language features). benchmarks/njit_programs/run.py
compiles each with kjit and with Numba and compares the results. The set is
kjit's own (written 2026-11-28 from Numba's documentation and common
examples); it is not the 78-program set the issue was measured on."""
import math

import numpy as np

PROGRAMS = []


def program(group, *args):
    def deco(fn):
        PROGRAMS.append((group, fn, args))
        return fn
    return deco


rng = np.random.default_rng(0)
V = rng.random(1000)
W = rng.random(1000)
M = rng.random((40, 30))
I = rng.integers(0, 20, 500)

# ---- plain loops -------------------------------------------------------------------------------


@program("loops", V)
def loop_sum(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s


@program("loops", 30)
def fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


@program("loops", 2000)
def primes_count(n):
    count = 0
    for k in range(2, n):
        is_prime = True
        j = 2
        while j * j <= k:
            if k % j == 0:
                is_prime = False
                break
            j += 1
        if is_prime:
            count += 1
    return count


@program("loops", M)
def matrix_trace_loop(m):
    t = 0.0
    for i in range(min(m.shape[0], m.shape[1])):
        t += m[i, i]
    return t


@program("loops", V, W)
def dot_loop(a, b):
    acc = 0.0
    for i in range(a.shape[0]):
        acc += a[i] * b[i]
    return acc


@program("loops", 100, 100)
def mandel_count(w, h):
    total = 0
    for px in range(w):
        for py in range(h):
            c = complex(-2.0 + 3.0 * px / w, -1.5 + 3.0 * py / h)
            z = 0j
            n = 0
            while abs(z) <= 2.0 and n < 50:
                z = z * z + c
                n += 1
            total += n
    return total


@program("loops", V)
def running_max(a):
    out = np.empty_like(a)
    m = -np.inf
    for i in range(a.shape[0]):
        if a[i] > m:
            m = a[i]
        out[i] = m
    return out


@program("loops", M)
def transpose_loop(m):
    out = np.empty((m.shape[1], m.shape[0]))
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            out[j, i] = m[i, j]
    return out


@program("loops", 10000)
def collatz_max(n):
    best = 0
    for k in range(1, n):
        steps = 0
        x = k
        while x != 1:
            x = x // 2 if x % 2 == 0 else 3 * x + 1
            steps += 1
        best = max(best, steps)
    return best


@program("loops", V)
def bubble_sort_copy(a):
    b = a[:200].copy()
    n = b.shape[0]
    for i in range(n):
        for j in range(n - i - 1):
            if b[j] > b[j + 1]:
                b[j], b[j + 1] = b[j + 1], b[j]
    return b


# ---- NumPy -------------------------------------------------------------------------------------


@program("numpy", V, W)
def np_hypot(x, y):
    return np.sqrt(x * x + y * y)


@program("numpy", V)
def np_mask_sum(a):
    return a[a > 0.5].sum()


@program("numpy", M)
def np_normalize_rows(m):
    out = np.empty_like(m)
    for i in range(m.shape[0]):
        row = m[i]
        out[i] = (row - row.mean()) / row.std()
    return out


@program("numpy", V)
def np_stats(a):
    return a.mean(), a.std(), a.min(), a.max(), np.median(a)


@program("numpy", M)
def np_col_means(m):
    return m.mean(axis=0)


@program("numpy", V)
def np_cumsum_diff(a):
    return np.diff(np.cumsum(a))


@program("numpy", M, M.T.copy())
def np_matmul(a, b):
    return a @ b


@program("numpy", V)
def np_sort_argsort(a):
    return np.sort(a), np.argsort(a)


@program("numpy", V)
def np_where_clip(a):
    return np.where(a > 0.5, a, 0.0), np.clip(a, 0.2, 0.8)


@program("numpy", 50)
def np_linspace_sin(n):
    x = np.linspace(0.0, 2 * np.pi, n)
    return np.sin(x) ** 2 + np.cos(x) ** 2


@program("numpy", I)
def np_bincount_argmax(a):
    return np.bincount(a).argmax()


@program("numpy", V)
def np_histogram_counts(a):
    return np.histogram(a, 10)[0]


@program("numpy", 3)
def np_eye_outer(n):
    return np.eye(n) + np.outer(np.arange(n), np.arange(n))


@program("numpy", V)
def np_slice_stencil(a):
    out = np.zeros_like(a)
    out[1:-1] = (a[:-2] + a[1:-1] + a[2:]) / 3.0
    return out


@program("numpy", V, W)
def np_concat_unique(a, b):
    return np.unique(np.concatenate((a[:10], b[:10], a[:5])))


@program("numpy", 1000)
def np_random_walk(n):
    np.random.seed(0)
    steps = np.random.randn(n)
    return np.cumsum(steps)


@program("numpy", V)
def np_interp(a):
    xp = np.array([0.0, 0.5, 1.0])
    fp = np.array([1.0, 3.0, 2.0])
    return np.interp(a, xp, fp)


@program("numpy", M)
def np_reshape_transpose(m):
    return m.reshape(30, 40).T.copy()


@program("numpy", V)
def np_argsort_take(a):
    idx = np.argsort(a)[:10]
    return a[idx]


@program("numpy", M)
def np_dot_vector(m):
    v = np.ones(m.shape[1])
    return np.dot(m, v)


@program("numpy", V)
def np_percentile(a):
    return np.percentile(a, 90.0)


@program("numpy", V)
def np_inplace(a):
    b = a.copy()
    b *= 2.0
    b += 1.0
    b[b > 2.0] = 2.0
    return b


@program("numpy", 10)
def np_array_literal(n):
    a = np.array([[1.0, 2.0], [3.0, 4.0]])
    return a * n


@program("numpy", M[:, :5], M[:, 7])
def least_squares(a, b):
    x, res, rank, sv = np.linalg.lstsq(a, b)
    return x, res, rank, sv[0] / sv[-1]


@program("numpy", M[:6, :6])
def norms(a):
    return (np.linalg.norm(a, 1), np.linalg.norm(a, np.inf), np.linalg.norm(a[0], 3),
            np.linalg.matrix_rank(a), np.linalg.slogdet(a)[1])


# ---- containers --------------------------------------------------------------------------------


@program("containers", 10)
def list_append(n):
    out = []
    for i in range(n):
        out.append(i * i)
    return out


@program("containers", 10)
def list_comprehension(n):
    return [i * 2 for i in range(n)]


@program("containers", 10)
def list_sum(n):
    xs = [1.0, 2.0, 3.0]
    s = 0.0
    for x in xs:
        s += x
    return s * n


@program("containers", 5)
def tuple_unpack(n):
    t = (1, 2.0, 3)
    a, b, c = t
    return a + b + c + n


@program("containers", 5)
def dict_counts(n):
    d = {}
    for i in range(n):
        d[i % 3] = d.get(i % 3, 0) + 1
    return d[0]


@program("containers", 5)
def set_unique(n):
    s = set()
    for i in range(n):
        s.add(i % 3)
    return len(s)


@program("containers", V)
def tuple_of_arrays(a):
    t = (a[:3], a[3:6])
    return t[0] + t[1]


@program("containers", 4)
def string_len(n):
    s = "hello"
    return len(s) + n


@program("containers", 6)
def list_sort_pop(n):
    xs = [5, 3, 1, 4]
    xs.sort()
    xs.append(n)
    return xs.pop() + xs[0]


@program("containers", 4)
def nested_tuple(n):
    t = ((1, 2), (3, 4))
    return t[1][0] * n


@program("containers", 12)
def list_filter_comprehension(n):
    xs = [i * i for i in range(n) if i % 3 != 0]
    return sum(xs), len(xs), xs[-1]


@program("containers", 8)
def list_of_tuples_sorted(n):
    pairs = []
    for i in range(n):
        pairs.append(((i * 7) % 5, i))
    pairs.sort()
    return pairs[0][1] + pairs[-1][1] * 100


@program("containers", [3.0, 1.0, 2.0])
def reflected_list_argument(xs):
    xs.append(4.0)
    xs.sort()
    return xs[0] + xs[-1], len(xs)


@program("containers", 6)
def list_insert_remove(n):
    xs = list(range(n))
    xs.insert(2, 100)
    xs.remove(3)
    return xs.index(100) + xs.count(4) + (100 in xs)


@program("containers", 12)
def set_operations(n):
    a = set()
    for i in range(n):
        a.add(i * 37 % 50)
    b = {3, 40, 17, 33, 99}
    out = []
    for x in a | b:
        out.append(x)
    return out, len(a & b), sorted(a - b)[:3]


@program("containers", 3)
def string_words(n):
    text = "the quick brown fox jumps over the lazy dog"
    words = text.split()
    longest = ""
    for w in words:
        if len(w) > len(longest):
            longest = w
    return len(words) + n, longest.upper(), "-".join(words[:n])


@program("containers", 5)
def dict_string_keys(n):
    d = {"one": 1, "two": 2}
    d["three"] = 3 * n
    total = 0
    for k in d:
        total += d[k] * len(k)
    return total, "two" in d


# ---- language ----------------------------------------------------------------------------------


@program("language", 0.0)
def try_except(x):
    try:
        return 1.0 / x
    except ZeroDivisionError:
        return -1.0


@program("language", 10)
def recursion(n):
    if n < 2:
        return n
    return recursion(n - 1) + recursion(n - 2)


@program("language", 5)
def closure(n):
    k = 3

    def add(x):
        return x + k
    return add(n)


@program("language", 5)
def generator_sum(n):
    def gen(m):
        for i in range(m):
            yield i * i
    s = 0
    for v in gen(n):
        s += v
    return s


@program("language", 5)
def enumerate_zip(n):
    a = np.arange(n)
    b = np.arange(n) * 2
    s = 0
    for i, (x, y) in enumerate(zip(a, b)):
        s += i * x + y
    return s


@program("language", 7)
def optional_value(n):
    x = None
    if n > 5:
        x = n * 2
    if x is None:
        return 0
    return x


@program("language", 3.0)
def math_funcs(x):
    return math.gamma(x) + math.erf(x) + math.hypot(x, 4.0) + math.log1p(x)


@program("language", 7)
def while_else(n):
    i = 0
    while i < n:
        if i == 100:
            break
        i += 1
    else:
        i = -i
    return i


@program("language", 4)
def augmented_ops(n):
    x = n
    x **= 2
    x //= 3
    x %= 5
    x <<= 2
    return x


@program("language", 2.5)
def builtins_mix(x):
    return abs(-x), round(x), int(x), min(x, 1.0), max(x, 3, 4.5), divmod(7, 3)


@program("language", 5)
def raise_value_error(n):
    if n > 10:
        raise ValueError("too big")
    return n


@program("language", 6)
def literal_unroll_tuple(n):
    t = (1, 2.5, 3)
    s = 0.0
    for v in t:
        s += v
    return s + n


@program("language", 9)
def try_except_exception(n):
    total = 0
    for i in range(n):
        try:
            if i % 4 == 0:
                raise ValueError("skip")
            total += i
        except Exception:
            total -= 1
    return total


@program("language", V)
def optional_search(a):
    best = None
    for i in range(a.shape[0]):
        if a[i] > 0.99:
            best = i
            break
    if best is None:
        return -1
    return best
