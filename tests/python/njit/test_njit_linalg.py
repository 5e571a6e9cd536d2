"""np.linalg in @njit functions, through the system's LAPACK (liblapack3,
loaded at first use), checked against NumPy: solve, inv, det, cholesky,
norm (every order), eigh, eig, svd, qr, lstsq, matrix_rank, pinv,
slogdet, matrix_power, cond, and their errors."""
import numpy as np
import pytest

from kjit import njit

A = np.array([[4.0, 1.0, 2.0], [1.0, 5.0, 3.0], [2.0, 3.0, 6.0]])
B = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])


def test_solve_inv_det_cholesky_norm_match_numpy():
    @njit
    def la(a, b):
        return (np.linalg.solve(a, b[:, 0]), np.linalg.solve(a, b), np.linalg.inv(a),
                np.linalg.det(a), np.linalg.cholesky(a), np.linalg.norm(b), np.linalg.norm(b[:, 0]))
    got = la(A, B)
    want = (np.linalg.solve(A, B[:, 0]), np.linalg.solve(A, B), np.linalg.inv(A), np.linalg.det(A),
            np.linalg.cholesky(A), np.linalg.norm(B), np.linalg.norm(B[:, 0]))
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12)


def test_integer_matrices_and_permuted_determinants():
    @njit
    def det(a):
        return np.linalg.det(a)
    p = np.array([[0, 1, 0], [0, 0, 1], [1, 0, 0]])  # an even permutation: det 1
    assert det(p) == pytest.approx(1.0)
    q = np.array([[0.0, 1.0], [1.0, 0.0]])  # odd: -1
    assert det(q) == pytest.approx(-1.0)
    assert det(np.ones((3, 3))) == 0.0


def test_linalg_errors_are_numpys():
    @njit
    def solve(a, b):
        return np.linalg.solve(a, b)

    @njit
    def chol(a):
        return np.linalg.cholesky(a)

    @njit
    def inv(a):
        return np.linalg.inv(a)
    with pytest.raises(np.linalg.LinAlgError, match="singular"):
        solve(np.ones((2, 2)), np.ones(2))
    with pytest.raises(np.linalg.LinAlgError, match="positive definite"):
        chol(-np.eye(2))
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        inv(np.ones((2, 3)))


def test_matmul_of_float64_matrices_uses_blas_and_matches_numpy():
    # float64 matrices go to BLAS's dgemm (C copies of strided views first);
    # other dtypes keep the library's loops. Both give NumPy's product.
    @njit
    def mm(a, b):
        return a @ b, np.dot(a.T, a), np.dot(a[::2], b)

    rng = np.random.default_rng(3)
    a, b = rng.random((6, 4)), rng.random((4, 5))
    for got, want in zip(mm(a, b), (a @ b, a.T @ a, a[::2] @ b)):
        np.testing.assert_allclose(got, want, rtol=1e-12)
    ai, bi = np.arange(12).reshape(3, 4), np.arange(8).reshape(4, 2)
    got = njit(lambda x, y: x @ y)(ai, bi)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, ai @ bi)


def test_eigh_matches_numpy():
    # The same LAPACK routine as NumPy's (dsyevd), so the same signs.
    @njit
    def eig(a):
        return np.linalg.eigh(a), np.linalg.eigvalsh(a)
    (w, v), w2 = eig(A)
    want_w, want_v = np.linalg.eigh(A)
    np.testing.assert_allclose(w, want_w, rtol=1e-12)
    np.testing.assert_allclose(w2, want_w, rtol=1e-12)
    np.testing.assert_allclose(v, want_v, atol=1e-12)  # the signs too
    np.testing.assert_allclose(A @ v, v * w, atol=1e-12)
    # Only the lower triangle is read, as NumPy's UPLO='L'.
    L = np.tril(A) + np.triu(np.full((3, 3), 99.0), 1)
    (wl, vl), _ = eig(L)
    np.testing.assert_allclose(wl, np.linalg.eigh(L)[0], rtol=1e-12)
    np.testing.assert_allclose(vl, np.linalg.eigh(L)[1], atol=1e-12)


@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (3, 5)])
def test_svd_and_qr_match_numpy(shape):
    # gesdd and geqrf/orgqr on the matrix as NumPy passes it: the same
    # vectors, signs included.
    @njit
    def decompose(a):
        return np.linalg.svd(a), np.linalg.svd(a, False), np.linalg.qr(a)

    a = np.random.default_rng(1).random(shape)
    full, reduced, (q, r) = decompose(a)
    for got, want in zip(full + reduced, np.linalg.svd(a) + np.linalg.svd(a, False)):
        np.testing.assert_allclose(got, want, atol=1e-12)
    want_q, want_r = np.linalg.qr(a)
    np.testing.assert_allclose(q, want_q, atol=1e-12)
    np.testing.assert_allclose(r, want_r, atol=1e-12)
    np.testing.assert_allclose(q @ r, a, atol=1e-12)


def test_eig_of_a_general_matrix():
    @njit
    def eig(a):
        return np.linalg.eig(a), np.linalg.eigvals(a)

    a = np.array([[2.0, 1.0, 0.0], [0.5, 3.0, 1.0], [0.0, 0.25, 4.0]])  # real eigenvalues
    (w, v), w2 = eig(a)
    want_w, want_v = np.linalg.eig(a)
    np.testing.assert_allclose(w, want_w, rtol=1e-12)
    np.testing.assert_allclose(w2, want_w, rtol=1e-12)
    np.testing.assert_allclose(v, want_v, atol=1e-12)
    # Complex eigenvalues: Numba's error, not complex results.
    with pytest.raises(ValueError, match="domain change"):
        eig(np.array([[0.0, -1.0], [1.0, 0.0]]))


@pytest.mark.parametrize("shape,rhs", [((6, 3), (6,)), ((6, 3), (6, 2)), ((3, 6), (3,)), ((5, 5), (5, 3))])
def test_lstsq_matches_numpy(shape, rhs):
    # Numba's lstsq (gelsd) with its default rcond=-1 (machine precision).
    @njit
    def lstsq(a, b):
        return np.linalg.lstsq(a, b)
    rng = np.random.default_rng(3)
    a, b = rng.random(shape), rng.random(rhs)
    got = lstsq(a, b)
    want = np.linalg.lstsq(a, b, rcond=-1)
    for g, w in zip(got, want):
        assert np.shape(g) == np.shape(w)
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)


def test_lstsq_rank_deficient_and_rcond():
    @njit
    def lstsq(a, b, r):
        return np.linalg.lstsq(a, b, rcond=r)
    a = np.ones((4, 3))
    b = np.arange(4.0)
    x, res, rank, s = lstsq(a, b, -1.0)
    assert rank == 1 and res.shape == (0,)  # no residuals below full rank (as NumPy)
    np.testing.assert_allclose(x, np.linalg.lstsq(a, b, rcond=-1)[0])
    with pytest.raises(np.linalg.LinAlgError, match="must not contain infs or NaNs"):
        lstsq(np.array([[np.nan, 1.0], [1.0, 1.0]]), np.ones(2), -1.0)
    with pytest.raises(np.linalg.LinAlgError, match="not dimensionally valid"):
        lstsq(a, np.ones(3), -1.0)


@pytest.mark.parametrize("order", [None, 1, -1, 2, -2, np.inf, -np.inf, "fro", "nuc"])
def test_matrix_norm_orders(order):
    @njit
    def norm(a, o):
        return np.linalg.norm(a, o)
    a = np.array([[1.0, -2.0, 3.0], [-4.0, 5.0, 0.5], [0.0, 7.0, -1.0], [2.0, 2.0, 2.0]])
    assert norm(a, order) == pytest.approx(np.linalg.norm(a, order), rel=1e-12)


@pytest.mark.parametrize("order", [None, 0, 1, 2, 3, 0.5, -1, np.inf, -np.inf])
def test_vector_norm_orders(order):
    @njit
    def norm(a, o):
        return np.linalg.norm(a, o)
    v = np.array([3.0, -4.0, 0.25, 1.5])
    assert norm(v, order) == pytest.approx(np.linalg.norm(v, order), rel=1e-12)
    assert norm(v[:0], order) == 0.0  # Numba's norm of an empty vector


def test_bad_norm_order_is_a_value_error():
    @njit
    def norm(a, o):
        return np.linalg.norm(a, o)
    with pytest.raises(ValueError, match="Invalid norm order for matrices"):
        norm(np.eye(2), 3)


def test_rank_pinv_slogdet_matrix_power_cond_match_numpy():
    @njit
    def la(a, sq):
        return (np.linalg.matrix_rank(a), np.linalg.matrix_rank(np.ones((4, 3))), np.linalg.pinv(a),
                np.linalg.slogdet(sq), np.linalg.matrix_power(sq, 5), np.linalg.matrix_power(sq, -2),
                np.linalg.matrix_power(sq, 0), np.linalg.cond(sq), np.linalg.cond(sq, 1))
    rng = np.random.default_rng(5)
    a, sq = rng.random((4, 3)), rng.random((3, 3))
    got = la(a, sq)
    want = (np.linalg.matrix_rank(a), 1, np.linalg.pinv(a), np.linalg.slogdet(sq),
            np.linalg.matrix_power(sq, 5), np.linalg.matrix_power(sq, -2), np.eye(3),
            np.linalg.cond(sq), np.linalg.cond(sq, 1))
    assert got[0] == want[0] and got[1] == want[1]
    for g, w in zip(got[2:], want[2:]):
        np.testing.assert_allclose(g, w, rtol=1e-9, atol=1e-12)
    sign, logdet = njit(lambda m: np.linalg.slogdet(m))(np.ones((3, 3)))
    assert sign == 0.0 and logdet == -np.inf
