"""@vectorize and @guvectorize for the CPU (target 'cpu', the default, and
'parallel'): real NumPy ufuncs and generalized ufuncs whose loops are
compiled, as Numba makes them. With signatures
the decorator returns a ``numpy.ufunc``; without, a DUFunc that compiles a
loop for each new combination of input types. Everything after the loop
(broadcasting, casting, out=, where=, reduce, accumulate, outer, at) is
NumPy's own, so these tests compare with NumPy's results."""
import math
import re
import warnings

import numpy as np
import pytest

import kjit
from kjit import float32, float64, guvectorize, int64, vectorize, void


@vectorize(["float64(float64, float64)", "float32(float32, float32)", "int64(int64, int64)"], identity=0)
def add(a, b):
    return a + b


def test_signatures_make_a_numpy_ufunc():
    # A DUFunc around a numpy.ufunc (as Numba 0.56 returns), with these loops only.
    assert type(add).__name__ == "DUFunc" and isinstance(add.ufunc, np.ufunc)
    assert add.types == ["dd->d", "ff->f", "ll->l"]
    assert (add.nin, add.nout, add.nargs, add.ntypes) == (2, 1, 3, 3)
    assert add.__name__ == "add" and add.identity == 0


def test_results_follow_numpy_loop_selection():
    x = np.linspace(-3, 3, 1001)
    np.testing.assert_array_equal(add(x, x[::-1]), x + x[::-1])
    r = add(np.arange(5, dtype=np.int64), np.arange(5, dtype=np.int64))
    assert r.dtype == np.int64 and r.tolist() == [0, 2, 4, 6, 8]
    f = add(np.ones(3, np.float32), np.ones(3, np.float32))
    assert f.dtype == np.float32
    # int32 inputs: NumPy takes the first loop they cast to safely (dd->d).
    assert add(np.ones(2, np.int32), np.ones(2, np.int32)).dtype == np.float64
    assert add(1.5, 2.0) == 3.5


def test_broadcasting_strides_out_and_where():
    a = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(add(a, np.arange(4.0)), a + np.arange(4.0))
    np.testing.assert_array_equal(add(a.T, 1.0), a.T + 1.0)
    np.testing.assert_array_equal(add(a[:, ::2], a[:, 1::2]), a[:, ::2] + a[:, 1::2])
    out = np.full((3, 4), -1.0)
    r = add(a, a, out=out)
    assert r is out and np.array_equal(out, 2 * a)
    where = np.arange(12).reshape(3, 4) % 2 == 0
    out = np.full((3, 4), -1.0)
    add(a, a, out=out, where=where)
    np.testing.assert_array_equal(out, np.where(where, 2 * a, -1.0))


def test_reduce_accumulate_outer_at():
    x = np.arange(10.0)
    assert add.reduce(x) == 45.0
    assert add.reduce(np.zeros(0)) == 0.0  # the identity
    np.testing.assert_array_equal(add.accumulate(x), np.cumsum(x))
    np.testing.assert_array_equal(add.outer(np.arange(3.0), np.arange(2.0)),
                                  np.add.outer(np.arange(3.0), np.arange(2.0)))
    m = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(add.reduce(m, axis=1), m.sum(axis=1))
    y = np.zeros(4)
    add.at(y, [0, 0, 3], 1.0)
    assert y.tolist() == [2.0, 0.0, 0.0, 1.0]


def test_math_booleans_and_complex():
    @vectorize(["float64(float64)", "float32(float32)"])
    def damped(v):
        return math.sin(v) * math.exp(-v)

    x = np.linspace(0, 10, 10001)
    np.testing.assert_allclose(damped(x), np.sin(x) * np.exp(-x), rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(damped(x.astype(np.float32)), np.sin(x) * np.exp(-x), rtol=1e-5, atol=1e-6)

    @vectorize(["boolean(float64, float64)"])
    def above(a, b):
        return a > b

    assert above(np.array([1.0, 3.0]), 2.0).tolist() == [False, True]

    @vectorize(["complex128(complex128, complex128)"])
    def fma(a, b):
        return a * b + 1j

    a, b = np.array([1 + 2j, -1j]), np.array([3j, 2 + 0j])
    np.testing.assert_array_equal(fma(a, b), a * b + 1j)


def test_division_by_zero_follows_numpy():
    # NumPy's error model, as in Numba's ufuncs: no ZeroDivisionError; inf
    # or nan for floats (with NumPy's warning), 0 for integers.
    @vectorize(["float64(float64, float64)", "int64(int64, int64)"])
    def div(a, b):
        return a / b if a < 0 else a // b

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = div(np.array([1.0, -1.0, 0.0]), np.array([0.0, 0.0, 0.0]))
    assert r[0] == np.inf and r[1] == -np.inf and np.isnan(r[2])
    assert any(issubclass(w.category, RuntimeWarning) for w in caught)
    assert div(np.array([7, 7]), np.array([2, 0])).tolist() == [3, 0]


def test_an_exception_raised_by_the_function_reaches_the_caller():
    @vectorize(["float64(float64)"])
    def root(v):
        if v < 0:
            raise ValueError("negative input")
        return v ** 0.5

    assert root(np.array([4.0, 9.0])).tolist() == [2.0, 3.0]
    with pytest.raises((ValueError, SystemError)) as e:
        root(np.array([4.0, -1.0]))
    err = e.value if isinstance(e.value, ValueError) else e.value.__cause__
    assert isinstance(err, ValueError) and "negative input" in str(err)
    assert root(np.array([16.0])).tolist() == [4.0]  # and it goes on


def test_parallel_target_splits_the_work():
    @vectorize(["float64(float64, float64)"], target="parallel")
    def hypot(a, b):
        return math.sqrt(a * a + b * b)

    assert isinstance(hypot.ufunc, np.ufunc)
    rng = np.random.default_rng(1)
    a, b = rng.random(1_000_003), rng.random(1_000_003)
    np.testing.assert_allclose(hypot(a, b), np.hypot(a, b), rtol=1e-15)
    np.testing.assert_allclose(hypot(a[::3], 2.0), np.hypot(a[::3], 2.0), rtol=1e-15)


def test_without_signatures_a_dufunc_compiles_per_input_types():
    @vectorize
    def scaled(a, b):
        return (a - b) / 2

    assert scaled.ufunc is None and scaled.types == []
    np.testing.assert_array_equal(scaled(np.arange(4.0), 1.0), (np.arange(4.0) - 1.0) / 2)
    assert scaled.types == ["dd->d"]
    r = scaled(np.arange(4, dtype=np.int64), 1)
    assert r.dtype == np.float64 and r.tolist() == [-0.5, 0.0, 0.5, 1.0]
    assert scaled.types == ["dd->d", "ll->d"]
    np.testing.assert_array_equal(scaled(np.arange(4.0), 1.0), (np.arange(4.0) - 1.0) / 2)
    assert scaled.ntypes == 2  # nothing new compiled
    assert isinstance(scaled.ufunc, np.ufunc)

    @vectorize(identity=0)
    def plus(a, b):
        return a + b

    assert plus.reduce(np.arange(5, dtype=np.int64)) == 10
    assert plus.types == ["ll->l"]
    np.testing.assert_array_equal(plus.accumulate(np.arange(4.0)), np.cumsum(np.arange(4.0)))
    assert plus.outer(np.arange(2), np.arange(3)).tolist() == [[0, 1, 2], [1, 2, 3]]


def test_signatures_as_kjit_types():
    @vectorize([float64(float64, int64), float32(float32, int64)])
    def power(a, n):
        r = a ** 0
        for _ in range(n):
            r = r * a
        return r

    assert power.types == ["dl->d", "fl->f"]
    np.testing.assert_allclose(power(np.array([2.0, 3.0]), 3), [8.0, 27.0])


def test_errors_name_the_line_and_bad_options_say_what_is_wanted():
    with pytest.raises(kjit.TypingError) as e:
        @vectorize(["float64(float64)"])
        def bad(a):
            return a.foo
    assert re.search(r"test_vectorize_cpu\.py:\d+:\d+", str(e.value)), str(e.value)

    @vectorize
    def lazy_bad(a):
        return a + "text"

    with pytest.raises(kjit.TypingError, match=r"test_vectorize_cpu\.py:\d+:\d+"):
        lazy_bad(np.arange(3))
    with pytest.raises(TypeError, match="signatures take 2 arguments, the function 1"):
        vectorize(["float64(float64, float64)"])(lambda a: a)
    with pytest.raises(ValueError, match="identity is 0, 1, None or 'reorderable'"):
        vectorize(["float64(float64)"], identity=5)(lambda a: a)
    with pytest.raises(TypeError, match="plain positional arguments"):
        vectorize(["float64(float64)"])(lambda a=1.0: a)
    with pytest.raises(TypeError, match="dtype <U1 are not supported"):
        vectorize(lambda a: a)(np.array(["x"]))


# ---- @guvectorize ------------------------------------------------------------------------


@guvectorize(["void(float64[:], float64, float64[:])", "void(float32[:], float32, float32[:])"], "(n),()->(n)")
def scale(x, a, out):
    for i in range(x.shape[0]):
        out[i] = a * x[i]


def test_guvectorize_makes_a_gufunc():
    assert scale.nin == 2 and scale.nout == 1 and scale.signature == "(n),()->(n)"
    assert scale.types == ["dd->d", "ff->f"] and not scale.is_dynamic
    assert isinstance(scale.ufunc, np.ufunc) and scale.ufunc.signature == "(n),()->(n)"
    x = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(scale(x, 2.0), 2 * x)
    # The loop dimensions broadcast as NumPy's: (2, 1) scalars with (2, 3) rows.
    factors = np.array([1.0, 10.0])[:, None]
    np.testing.assert_array_equal(scale(x, factors), factors[..., None] * x)
    out = np.zeros((2, 3))
    scale(x, 3.0, out)
    np.testing.assert_array_equal(out, 3 * x)
    # NumPy picks the loop: float32 operands take ff->f with NumPy 2 (2.5 on
    # the GPU machine), dd->d with NumPy 1.24 (the first loop they cast to).
    r = scale(np.arange(3, dtype=np.float32), np.float32(2))
    assert r.dtype == (np.float32 if int(np.__version__.split(".")[0]) >= 2 else np.float64)
    assert r.tolist() == [0.0, 2.0, 4.0]
    np.testing.assert_array_equal(scale(x[:, ::2], 1.0), x[:, ::2])  # strided cores


def test_guvectorize_matmul_in_parallel_and_a_reduction_to_a_scalar():
    @guvectorize([void(float64[:, :], float64[:, :], float64[:, :])], "(m,n),(n,p)->(m,p)", target="parallel")
    def matmul(a, b, c):
        for i in range(a.shape[0]):
            for j in range(b.shape[1]):
                s = 0.0
                for k in range(a.shape[1]):
                    s += a[i, k] * b[k, j]
                c[i, j] = s

    rng = np.random.default_rng(2)
    a, b = rng.random((9, 4, 5)), rng.random((9, 5, 3))
    np.testing.assert_allclose(matmul(a, b), a @ b, rtol=1e-14)
    np.testing.assert_allclose(matmul(a, b[0]), a @ b[0], rtol=1e-14)

    @guvectorize(["void(float64[:], float64[:])"], "(n)->()")
    def total(x, res):
        s = 0.0
        for v in x:
            s += v
        res[0] = s

    m = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(total(m), m.sum(axis=1))
    assert total(m, axis=0).tolist() == m.sum(axis=0).tolist()  # NumPy's axis= for a (n) core


def test_dynamic_guvectorize_compiles_per_operand_types():
    @guvectorize("(n)->(n)")
    def running(x, out):
        s = x[0] - x[0]
        for i in range(x.shape[0]):
            s += x[i]
            out[i] = s

    assert running.is_dynamic and running.ufunc is None
    r = np.zeros(5, np.int64)
    running(np.arange(5), r)
    assert r.tolist() == [0, 1, 3, 6, 10] and running.types == ["l->l"]
    f = np.zeros(3)
    running(np.ones(3), out=f)
    assert f.tolist() == [1.0, 2.0, 3.0] and running.types == ["l->l", "d->d"]
    with pytest.raises(TypeError, match="pass all 2 operands, the outputs included"):
        running(np.arange(5))


def test_guvectorize_errors():
    with pytest.raises(TypeError, match="outputs are arrays"):
        guvectorize(["void(float64[:], float64)"], "(n)->()")(lambda x, r: None)
    with pytest.raises(TypeError, match="argument 2 .* declared with 2 dimensions, the layout gives it 1"):
        guvectorize(["void(float64[:], float64[:, :])"], "(n)->(n)")(lambda x, r: None)
    with pytest.raises(TypeError, match="a layout is written"):
        guvectorize(["void(float64[:], float64[:])"], "(n)(n)")(lambda x, r: None)
    with pytest.raises(TypeError, match="must take 2 positional arguments"):
        guvectorize(["void(float64[:], float64[:])"], "(n)->(n)")(lambda x: None)
    with pytest.raises(TypeError, match="the layout \\(n\\)->\\(n\\) 2"):
        guvectorize(["void(float64[:])"], "(n)->(n)")(lambda x, r: None)
    with pytest.raises(kjit.TypingError, match=r"test_vectorize_cpu\.py:\d+:\d+"):
        @guvectorize(["void(float64[:], float64[:])"], "(n)->(n)")
        def bad(x, out):
            out[0] = x.nothing


# ---- found in review ----------------------------------------------------------------------


def test_parallel_reductions_run_their_aliased_loops_in_order():
    # NumPy's reduce and accumulate call the loop with the output aliasing an
    # input (a step of 0, or shifted by one): those loops are not split.
    @vectorize(["float64(float64, float64)"], target="parallel", identity=0)
    def padd(a, b):
        return a + b

    x = np.ones(1_000_003)
    assert padd.reduce(x) == 1_000_003
    assert padd.accumulate(x)[-1] == 1_000_003
    m = np.ones((3, 200_000))
    assert padd.reduce(m, axis=1).tolist() == [200_000.0] * 3
    y = np.arange(100_000.0)
    padd(y, y, out=y)  # exactly in place: may still be split
    assert y[-1] == 2 * 99_999.0


def test_parallel_floating_point_flags_reach_numpy():
    @vectorize(["float64(float64, float64)"], target="parallel")
    def div(a, b):
        return a / b

    b = np.ones(200_000)
    b[0] = b[-1] = 0.0  # a zero in the first and the last chunk
    with np.errstate(divide="raise"):
        with pytest.raises(FloatingPointError):
            div(np.ones(200_000), b)
    with np.errstate(divide="ignore"):
        assert np.isinf(div(np.ones(200_000), b)[-1])


def test_dufunc_bool_results_reductions_and_threads():
    import threading

    @vectorize
    def gt(a, b):
        return a > b

    assert gt(np.arange(3.0), 1.0).tolist() == [False, False, True]

    @vectorize
    def plus(a, b):
        return a + b

    # int16 + int16 is int64 in kjit's typing: the reduction runs int64.
    r = plus.reduce(np.arange(5, dtype=np.int16))
    assert r == 10 and r.dtype == np.int64

    @vectorize
    def mul(a, b):
        return a * b

    arrays = [np.ones(3, dt) for dt in (np.float64, np.float32, np.int64, np.int32)] * 3
    threads = [threading.Thread(target=mul, args=(a, a)) for a in arrays]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(mul.types) == sorted(set(mul.types)) and len(mul.types) == 4


def test_complex_results_do_not_fit_real_signatures_and_jit_functions_are_accepted():
    with pytest.raises(kjit.TypingError, match=r"cannot store a complex128 value into an element of array\(float64"):
        vectorize(["float64(float64)"])(lambda a: a * 1j + 1)

    @kjit.njit
    def twice(a):
        return 2 * a

    assert vectorize(["float64(float64)"])(twice)(np.array([1.5])).tolist() == [3.0]
    limit = 31 if int(np.__version__.split(".")[0]) < 2 else 63
    many = eval("lambda " + ", ".join(f"a{i}" for i in range(limit + 1)) + ": a0")  # noqa: S307
    with pytest.raises(TypeError, match=f"a ufunc here takes 1 to {limit}"):
        vectorize(many)


def test_jit_functions_call_cpu_ufuncs_on_scalars():
    @vectorize(["float64(float64, float64)"])
    def hyp(a, b):
        return math.sqrt(a * a + b * b)

    @vectorize
    def halve(a):
        return a / 2

    @kjit.njit
    def use(x, y):
        return hyp(x, y) + halve(x)

    assert use(3.0, 4.0) == 6.5

    @guvectorize(["void(float64[:], float64[:])"], "(n)->(n)")
    def copy(x, out):
        for i in range(x.shape[0]):
            out[i] = x[i]

    @kjit.njit
    def use_gufunc(x, out):
        copy(x, out)

    with pytest.raises(kjit.UnsupportedError, match="@guvectorize function copy .call it from Python."):
        use_gufunc(np.ones(2), np.ones(2))


CACHED_PROGRAM = """
import numpy as np
from kjit import guvectorize, vectorize

@vectorize(["float64(float64, float64)"], cache=True)
def hyp(a, b):
    return (a * a + b * b) ** 0.5

@guvectorize(["void(float64[:], float64[:])"], "(n)->()", cache=True)
def total(x, res):
    s = 0.0
    for v in x:
        s += v
    res[0] = s

print(hyp(np.array([3.0]), np.array([4.0]))[0], total(np.arange(4.0)))
"""


def test_cache_keeps_the_compiled_loops(tmp_path):
    import os
    import subprocess
    import sys
    prog = tmp_path / "prog.py"
    prog.write_text(CACHED_PROGRAM)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    env = dict(os.environ, PYTHONPATH=os.path.join(root, "python_bindings"), KJIT_CACHE_DIR=str(tmp_path / "cache"))

    def run():
        r = subprocess.run([sys.executable, str(prog)], capture_output=True, text=True, env=env, timeout=120)
        assert r.returncode == 0, r.stderr
        assert r.stdout.split() == ["5.0", "6.0"], r.stdout
        return {p.name: p.stat().st_mtime_ns for p in (tmp_path / "cache").iterdir()}

    first = run()
    loops = [n for n in first if n.startswith(("_ufunc_loop-", "_gufunc_loop-"))]
    assert len(loops) == 2, first
    assert run() == first  # a second process loads both loops, and rewrites nothing
