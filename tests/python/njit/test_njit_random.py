"""np.random in @njit functions: one Mersenne Twister per thread, as in
Numba. After np.random.seed(s) inside jitted code the stream is Numba's:
random() and randn() give NumPy's legacy RandomState values, randint,
shuffle, permutation and choice Numba's algorithms (checked against
Debian's numba)."""
import numpy as np
import pytest

from kjit import njit

numba = pytest.importorskip("numba")


def draws():
    np.random.seed(42)
    return (np.random.random(), np.random.randn(), np.random.randint(0, 10), np.random.random(3),
            np.random.normal(2.0, 3.0), np.random.uniform(1.0, 2.0), np.random.rand(2, 2),
            np.random.randn(3), np.random.exponential(2.0), np.random.randint(0, 2 ** 40),
            np.random.standard_normal(2), np.random.random_sample(), np.random.randint(7))


def shuffles():
    np.random.seed(1)
    a = np.arange(10)
    np.random.shuffle(a)
    m = np.arange(12.0).reshape(4, 3)
    np.random.shuffle(m)
    return (a, m, np.random.permutation(5), np.random.permutation(np.arange(4.0)),
            np.random.choice(np.arange(10.0)), np.random.choice(np.arange(10), 3),
            np.random.choice(np.arange(10), 4, False))


@pytest.mark.parametrize("fn", [draws, shuffles])
def test_seeded_streams_match_numba(fn):
    got, want = njit(fn)(), numba.njit(fn)()
    assert len(got) == len(want)
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)


def test_random_and_randn_follow_numpys_legacy_stream():
    @njit
    def f():
        np.random.seed(2024)
        return np.random.random(), np.random.randn(), np.random.randn()
    np.random.seed(2024)
    assert f() == (np.random.random(), np.random.randn(), np.random.randn())


def test_monte_carlo_pi():
    # The example on Numba's front page.
    @njit
    def monte_carlo_pi(nsamples):
        acc = 0
        for i in range(nsamples):
            x = np.random.random()
            y = np.random.random()
            if (x ** 2 + y ** 2) < 1.0:
                acc += 1
        return 4.0 * acc / nsamples
    assert abs(monte_carlo_pi(200_000) - np.pi) < 0.02


def test_randint_errors():
    @njit
    def bad():
        return np.random.randint(5, 5)
    with pytest.raises(ValueError, match="low >= high"):
        bad()
