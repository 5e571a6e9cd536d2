"""np.linalg in @njit functions, through the system's LAPACK (liblapack3,
loaded at first use), checked against NumPy: solve, inv, det, cholesky,
norm, and their errors."""
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
