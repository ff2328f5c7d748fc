"""The eigensolvers behind :func:`graphsel_lib.spectral_embedding`: the smallest eigenpairs of a Laplacian.

``_SOLVERS`` maps a method name to ``solver(L, d, seed, ...)``, which returns the ``d + 1`` smallest pairs
(the null pair first): ``"dense"`` (LAPACK on the dense matrix), ``"shift-invert"`` (ARPACK on a sparse LU),
``"lobpcg"`` (scipy's LOBPCG with an algebraic-multigrid preconditioner), and the two block LOBPCGs with
guard vectors and soft locking: ``"lobpcg-jacobi"`` (Jacobi preconditioner, here) and
``"lobpcg-chebyshev"`` (a Chebyshev–Jacobi polynomial preconditioner, :mod:`graphsel_lib.blockeig`).
:func:`complement_probe` estimates the smallest eigenvalue a block solver might have missed. How the method
is chosen by size, and the checks on what it returns, are in :mod:`graphsel_lib.spectral`.
"""

from __future__ import annotations

import warnings
from contextlib import nullcontext
from typing import TYPE_CHECKING

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from threadpoolctl import threadpool_limits

from . import blockeig
from ._validation import Seed, as_real_matrix, check_integer, check_seed

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from .graph.types import Laplacian

__all__ = ["CHEBYSHEV_DEGREE", "LOBPCG_RTOL", "complement_probe"]

CHEBYSHEV_DEGREE = 4  # "lobpcg-chebyshev": degree of the polynomial preconditioner
# "lobpcg-chebyshev" runs its first iterations in float32 (blockeig.block_lobpcg, mixed=True). datasets.sbm,
# d = 100, 2 threads, against float64 alone (benchmarks/bench_spectral.py, 2026-11-29, idle machine): 15.1 s vs
# 17.7 s at 9,917 nodes, 22.6 vs 25.2 at 29,735, 61.0 vs 75.2 at 99,005, 178.2 vs 202.4 at 297,013.
MIXED_PRECISION = True
LOBPCG_RTOL = 1e-8  # block methods: residual ≤ LOBPCG_RTOL · largest Ritz value of the block


def _dense(L, d, seed):
    w, V = sla.eigh(L.toarray(), subset_by_index=[0, d], driver="evr")
    return w, V


def _shift_invert(L, d, seed):
    n = L.shape[0]
    k = d + 1
    if k >= n - 1:
        raise ValueError(f"shift-invert needs d + 2 < n; use method='dense' (n={n}, d={d})")
    # A small negative shift keeps L - σI positive definite (L ⪰ 0) while
    # mapping the eigenvalues next to zero to the largest ones of (L - σI)^-1.
    sigma = -1e-3 * float(L.diagonal().mean())
    # Symmetric fill-reducing ordering: ~4x less fill and ~4x faster than
    # SuperLU's default COLAMD on citation graphs (PubMed: 2.4M vs 9.5M nnz).
    lu = spla.splu((L - sigma * sp.identity(n)).tocsc(), permc_spec="MMD_AT_PLUS_A")
    OPinv = spla.LinearOperator((n, n), matvec=lu.solve, dtype=np.float64)
    v0 = np.random.default_rng(seed).standard_normal(n)
    ncv = min(n, max(2 * k + 1, k + 32))
    w, V = spla.eigsh(L, k=k, sigma=sigma, which="LM", v0=v0, ncv=ncv, tol=0, OPinv=OPinv)
    return w, V


def _lobpcg(L, d, seed):
    import pyamg

    n = L.shape[0]
    rng = np.random.default_rng(seed)
    shift = 1e-6 * float(L.diagonal().mean())
    ml = pyamg.smoothed_aggregation_solver((L + shift * sp.identity(n)).tocsr())
    P = ml.aspreconditioner()
    Y = np.full((n, 1), 1.0 / np.sqrt(n))  # constraint: orthogonal to the null space
    X = rng.standard_normal((n, d))
    X -= Y @ (Y.T @ X)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        w, V = spla.lobpcg(L, X, M=P, Y=Y, largest=False, tol=1e-9, maxiter=2000)
    # prepend the known null pair so that every solver returns d + 1 pairs
    return np.concatenate([[0.0], w]), np.hstack([Y, V])


def _orthonormalize(Z, *bases):
    """``Z`` made orthonormal and orthogonal to the orthonormal ``bases`` (two passes: "twice is enough").

    Each pass projects out the bases, then applies SVQB (Stathopoulos & Wu,
    SIAM J. Sci. Comput. 23, 2002): ``Z ← Z U Σ^{-1/2}`` from ``ZᵀZ = U Σ Uᵀ``,
    dropping the directions with ``Σ < 10^-14 max Σ`` (numerically dependent).
    ``Z`` is overwritten.
    """
    for _ in range(2):
        for X in bases:
            Z -= X @ (X.T @ Z)
        s, U = np.linalg.eigh(Z.T @ Z)
        keep = s > 1e-14 * s.max()
        Z = Z @ (U[:, keep] / np.sqrt(s[keep]))
    return Z


def _block_lobpcg(L, X, Y, n_wanted, maxiter, rtol=LOBPCG_RTOL):
    """LOBPCG (Knyazev 2001) for the smallest eigenpairs of ``L`` on the complement of ``Y``.

    Jacobi preconditioner ``D^{-1}``, Rayleigh–Ritz on the orthonormal basis
    ``[X, W, P]`` (``W`` the preconditioned residuals and ``P`` the previous
    search directions of the columns not yet converged: soft locking). Stops
    when the first ``n_wanted`` columns have ``‖Lx − θx‖ ≤ rtol · θ_max``
    (plus a rounding floor); the others are guard vectors. Returns Ritz
    values (ascending), vectors, residual norms and the iteration count.
    """
    with threadpool_limits(limits=blockeig.DENSE_THREADS, user_api="blas"):  # see blockeig
        return _block_lobpcg_body(L, X, Y, n_wanted, maxiter, rtol)


def _block_lobpcg_body(L, X, Y, n_wanted, maxiter, rtol):
    k = X.shape[1]
    T = 1.0 / L.diagonal()[:, None]
    floor = 100 * np.finfo(float).eps * float(abs(L).sum(axis=1).max())  # ≥ ‖L‖₂ ε
    X = _orthonormalize(X, Y)
    theta, C = np.linalg.eigh(X.T @ (L @ X))
    X = X @ C
    LX = L @ X
    P = np.empty((X.shape[0], 0))
    for it in range(maxiter + 1):
        R = LX - X * theta
        res = np.linalg.norm(R, axis=0)
        tol = max(rtol * theta[-1], floor)
        if res[:n_wanted].max() <= tol or it == maxiter:
            break
        active = res > tol
        Z = np.hstack([T * R[:, active], P])
        R = P = None  # free them: memory is a few n × k blocks at a time
        Z = _orthonormalize(Z, Y, X)
        LZ = L @ Z
        XLZ = X.T @ LZ
        H = np.block([[np.diag(theta), XLZ], [XLZ.T, Z.T @ LZ]])
        theta, C = sla.eigh((H + H.T) / 2, subset_by_index=[0, k - 1])
        Cx, Cz = C[:k], C[k:]
        P = Z @ Cz[:, active]
        X = X @ Cx
        X += Z @ Cz
        LX = LX @ Cx
        LX += LZ @ Cz
        del Z, LZ
    return theta, X, res, it


def _lobpcg_jacobi(L, d, seed, maxiter=1000, guard=None, rtol=LOBPCG_RTOL):
    n = L.shape[0]
    k = min(d + (max(20, d // 2) if guard is None else guard), n - 1)
    Y = np.full((n, 1), 1.0 / np.sqrt(n))  # the null space, known
    X = np.random.default_rng(seed).standard_normal((n, k))
    theta, X, res, it = _block_lobpcg(L, X, Y, d, maxiter, rtol)
    info = dict(iterations=it, block=k, max_residual=float(res[:d].max()))
    if k > d:  # the first guard's Ritz value: an upper bound of σ_{d+1}
        info["guard_min"] = float(theta[d])
    # prepend the known null pair so that every solver returns d + 1 pairs
    return np.concatenate([[0.0], theta[:d]]), np.hstack([Y, X[:, :d]]), info


def _lobpcg_chebyshev(
    L, d, seed, maxiter=1000, guard=None, rtol=LOBPCG_RTOL, degree=CHEBYSHEV_DEGREE, callback=None,
    timer=None, mixed=MIXED_PRECISION,
):  # fmt: skip
    """Block LOBPCG with the Chebyshev–Jacobi preconditioner (:mod:`graphsel_lib.blockeig`).

    ``callback``, ``timer`` and ``mixed`` (float32 iterations first) are passed to
    :func:`blockeig.block_lobpcg` (progress, profiling, precision).
    """
    n = L.shape[0]
    k = min(d + (max(20, d // 2) if guard is None else guard), n - 1)
    with (timer or (lambda phase: nullcontext()))("setup: start block, preconditioner"):
        L = sp.csr_matrix(L)
        Y = np.full((n, 1), 1.0 / np.sqrt(n))
        X = np.random.default_rng(seed).standard_normal((n, k))
        precond = blockeig.chebyshev_jacobi(L, degree)
    theta, X, res, it, cols = blockeig.block_lobpcg(
        L, X, Y, d, maxiter, rtol, precond, callback=callback, timer=timer, mixed=mixed
    )
    info = dict(iterations=it, block=k, max_residual=float(res[:d].max()), degree=degree, mixed=mixed)
    if k > d:
        info["guard_min"] = float(theta[d])
    return np.concatenate([[0.0], theta[:d]]), np.hstack([Y, X[:, :d]]), info


def complement_probe(
    L: Laplacian, V: ArrayLike, *, seed: Seed = 0, block: int = 8, maxiter: int = 50
) -> tuple[float, float]:
    """Smallest eigenvalue of ``L`` orthogonal to the constant vector and to ``V``, estimated by LOBPCG.

    The check of ``"lobpcg-jacobi"`` where no inertia count is affordable: if
    ``V`` holds eigenvectors of ``σ_1 ≤ … ≤ σ_d`` and an eigenvalue below
    ``σ_d`` was missed, its eigenvector lies in this complement, so a returned
    value below ``σ_d`` proves the miss (a Ritz value is an upper bound of the
    smallest eigenvalue of the complement). A value ``≥ σ_d`` is evidence, not
    proof: an independent random start of ``block`` vectors run for at most
    ``maxiter`` LOBPCG iterations (:func:`blockeig.block_lobpcg` with the
    Chebyshev–Jacobi preconditioner of degree ``CHEBYSHEV_DEGREE``, in float64)
    found nothing lower.

    Parameters
    ----------
    L : sparse matrix of shape (n, n)
        A graph Laplacian ``D - S``.
    V : array-like of shape (n, d)
        The eigenvectors found.
    seed : int, numpy.random.Generator or None, default 0
        Seed of the random start block.
    block : int, default 8
        Start vectors (fewer if the complement is smaller).
    maxiter : int, default 50

    Returns
    -------
    (float, float)
        The smallest Ritz value found and its residual norm ``‖Lx − θx‖``.

    Raises
    ------
    ValueError
        ``V`` has not ``n`` rows, or spans the whole space with the constant vector.
    """
    seed = check_seed(seed)
    block = check_integer(block, "block", minimum=1)
    maxiter = check_integer(maxiter, "maxiter", minimum=1)
    n = L.shape[0]
    found = as_real_matrix(V, "V (n, d)", sparse=False, copy=False)
    if found.shape[0] != n:
        raise ValueError(f"V must have {n} rows, got {found.shape[0]}")
    Y = _orthonormalize(np.hstack([np.full((n, 1), 1.0), found]))
    b = min(block, n - Y.shape[1])
    if b < 1:
        raise ValueError("V spans the whole space: nothing to probe")
    X = np.random.default_rng(seed).standard_normal((n, b))
    L = sp.csr_matrix(L)
    precond = blockeig.chebyshev_jacobi(L, CHEBYSHEV_DEGREE)
    theta, _, res, _, _ = blockeig.block_lobpcg(L, X, Y, 1, maxiter, LOBPCG_RTOL, precond)
    return float(theta[0]), float(res[0])


_SOLVERS = {
    "dense": _dense,
    "shift-invert": _shift_invert,
    "lobpcg-jacobi": _lobpcg_jacobi,
    "lobpcg-chebyshev": _lobpcg_chebyshev,
    "lobpcg": _lobpcg,
}
_BLOCK = ("lobpcg-jacobi", "lobpcg-chebyshev")  # block LOBPCG: guards, soft locking, tol, the probe
