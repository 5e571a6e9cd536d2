"""Generator functions in @njit: a call runs the generator to its end and
gives the values it yields, in order; jitted code iterates over them (for,
list, sum, unpacking), Python gets an iterator. The reference is the same
function run by Python. A generator that can never end, a return value,
`yield from` and generators in kernels are located errors."""

import numpy as np
import pytest

from kjit import cuda, errors, njit


def squares(n):
    for i in range(n):
        yield i * i


def count_up(n):
    i = 0
    while True:
        if i >= n:
            return
        yield i
        i += 1


def neighbours(a):
    for i in range(a.shape[0] - 1):
        yield a[i], a[i + 1]


def windows(a, w):
    for i in range(a.shape[0] - w + 1):
        yield a[i:i + w]


def test_a_jitted_loop_over_a_generator():
    gen = njit(squares)

    @njit
    def total(n):
        s = 0
        for v in gen(n):
            s += v
        return s
    assert total(10) == sum(squares(10))
    assert total(0) == 0


def test_python_gets_an_iterator():
    gen = njit(squares)
    it = gen(4)
    assert next(it) == 0 and next(it) == 1
    assert list(it) == [4, 9]
    assert list(njit(count_up)(5)) == list(count_up(5))


def test_tuples_unpacking_and_arrays():
    pairs = njit(neighbours)
    wins = njit(windows)

    @njit
    def dot_neighbours(a):
        t = 0.0
        for x, y in pairs(a):
            t += x * y
        return t

    @njit
    def window_sums(a):
        out = []
        for w in wins(a, 3):
            out.append(w.sum())
        return out
    a = np.arange(6.0)
    assert dot_neighbours(a) == sum(x * y for x, y in neighbours(a))
    assert window_sums(a) == [w.sum() for w in windows(a, 3)]


def test_generators_of_generators_and_builtins():
    gen = njit(squares)

    @njit
    def doubled(n):
        for v in gen(n):
            yield 2 * v

    @njit
    def use(n):
        return sum(doubled(n)), list(gen(n)), len(list(doubled(n)))
    assert list(doubled(5)) == [0, 2, 8, 18, 32]
    assert use(5) == (60, [0, 1, 4, 9, 16], 5)


def test_a_generator_that_never_ends_is_an_error():
    def forever():
        i = 0
        while True:
            yield i
            i += 1
    with pytest.raises(errors.UnsupportedError) as ei:
        njit(forever)()
    assert "this generator never ends" in ei.value.msg
    assert ei.value.lineno == forever.__code__.co_firstlineno + 2


def test_return_values_and_yield_from_are_errors():
    def returns_value(n):
        yield n
        return 5

    def delegates(n):
        yield from range(n)
    with pytest.raises(errors.UnsupportedError, match="a generator's return value"):
        njit(returns_value)(1)
    with pytest.raises(errors.UnsupportedError, match="'yield from' is not supported"):
        njit(delegates)(1)


def test_generators_in_kernels_are_refused():
    @cuda.jit(device=True)
    def dev_gen(n):
        yield n

    @cuda.jit
    def k(out):
        for v in dev_gen(3):
            out[0] = v
    with pytest.raises(errors.UnsupportedError, match=r"generators \('yield'\) are not supported in kernels"):
        k[1, 1](np.zeros(1))
