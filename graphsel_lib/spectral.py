"""Low-rank spectral embedding of a graph Laplacian, cached on disk.

gu2013 Sec. 5 (Eq. 28) and yang2016 Sec. III approximate the Laplacian kernel
``L^+`` by its ``d`` leading terms::

    L^+ ≈ L_d^+ = sum_{i=1..d} v_i v_i^T / σ_i = M^T M,   M = diag(σ^{-1/2}) V^T,

where ``σ_1 ≤ … ≤ σ_d`` are the ``d`` smallest **non-zero** eigenvalues of
``L = D - S`` of a connected graph and ``v_i`` their unit eigenvectors. Column
``m_t`` of ``M`` is the feature vector of node ``t`` seen by the online learners.
With ``d = n - 1`` the kernel is exact: ``M^T M = L^+``.

Eigensolver, chosen by size (``method="auto"``):

* ``"dense"`` — LAPACK ``eigh`` on the dense ``L`` (subset by index) for
  ``n ≤ 1000``, or when ``d > n/8`` and ``n ≤ 12000`` (many wanted pairs, where
  Lanczos is slow and prone to miss repeated eigenvalues): exact, no
  convergence questions, O(n^3) time and O(n^2) memory.
* ``"shift-invert"`` — ARPACK Lanczos on ``(L - σ I)^{-1}`` with a small negative
  shift ``σ`` (``L - σI`` is positive definite, so its sparse LU exists). The
  wanted eigenvalues sit next to 0, where ``(L-σI)^{-1}`` is largest, so Lanczos
  converges in a few restarts (``which="SM"`` without the shift needs thousands
  of iterations: see ``benchmarks/bench_spectral.py``). The LU fill-in grows
  quickly with ``n`` on real graphs, which is why it is used up to 2·10^5 nodes.
* ``"lobpcg"`` — LOBPCG preconditioned by smoothed-aggregation algebraic
  multigrid (``pyamg``) with the constant vector as a constraint, for larger
  graphs: memory linear in ``n``.

Lanczos can silently miss copies of a repeated eigenvalue (real graphs have
many: two leaves on one node give the eigenvalue 1). Every sparse result is
therefore checked by counting the eigenvalues below the largest one found
with Sylvester's law of inertia (:func:`count_eigenvalues_below`); if one is
missing, the dense solver (or, for large graphs, the other sparse solver) is
tried, then an error is raised.

Results are cached under ``paths.cache_dir()/spectral`` keyed by a SHA-256 of
the graph and ``d`` (atomic write; a corrupted or mismatching cache file is
detected by a checksum and recomputed).
"""

from __future__ import annotations

import hashlib
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from . import paths
from ._atomic import atomic_path
from ._validation import as_real_matrix, check_positive
from .graph import check_adjacency, laplacian

__all__ = ["SpectralEmbedding", "spectral_embedding", "add_bias", "graph_hash", "count_eigenvalues_below"]

_CACHE_VERSION = 1
SMALL_NODES = 1000  # below this, dense is as fast as anything
DENSE_MAX_NODES = 12_000  # dense L: 1.2 GB
SHIFT_INVERT_MAX_NODES = 200_000


@dataclass(frozen=True, eq=False)
class SpectralEmbedding:
    """The ``d`` smallest non-zero Laplacian eigenpairs and the feature matrix ``M``.

    Attributes
    ----------
    eigenvalues : ndarray of shape (d,)
        ``σ_1 ≤ … ≤ σ_d``, all > 0.
    eigenvectors : ndarray of shape (n, d)
        Orthonormal columns; the sign of each is fixed so that its largest
        entry in absolute value is positive (deterministic output).
    method : str
        The eigensolver used.
    """

    eigenvalues: np.ndarray
    eigenvectors: np.ndarray
    method: str = ""

    @property
    def d(self) -> int:
        return self.eigenvalues.shape[0]

    @property
    def n(self) -> int:
        return self.eigenvectors.shape[0]

    @property
    def M(self) -> np.ndarray:
        """``diag(σ^{-1/2}) V^T`` of shape (d, n); column ``t`` is ``m_t`` (gu2013 Eq. 28)."""
        return np.ascontiguousarray(self.eigenvectors.T / np.sqrt(self.eigenvalues)[:, None])

    def kernel(self) -> np.ndarray:
        """The rank-``d`` kernel ``L_d^+ = M^T M`` (dense n × n: small graphs only)."""
        M = self.M
        return M.T @ M

    def truncate(self, d: int) -> "SpectralEmbedding":
        """The embedding of the ``d`` smallest pairs of this one."""
        if not 1 <= d <= self.d:
            raise ValueError(f"d must be in 1..{self.d}, got {d}")
        return SpectralEmbedding(self.eigenvalues[:d].copy(), self.eigenvectors[:, :d].copy(), self.method)


def add_bias(M, b=1.0):
    """Append the constant feature ``√b`` to every column of ``M``: shape (d+1, n).

    The kernel becomes ``M^T M + b 11^T`` (Herbster–Pontil's ``L^+ + b 11^T``),
    which lets a linear learner on ``m_t`` represent a non-zero mean, i.e. a
    class prior (Herbster & Pontil's kernel L⁺ + b·11ᵀ).
    """
    M = as_real_matrix(M, "M (d, n)", sparse=False, finite=False, copy=False)
    b = check_positive(b, "bias b", allow_zero=True)
    return np.vstack([M, np.full((1, M.shape[1]), np.sqrt(b))])


def graph_hash(S) -> str:
    """SHA-256 of a validated weight matrix (structure and weights)."""
    S = check_adjacency(S)
    h = hashlib.sha256()
    h.update(np.asarray(S.shape, dtype=np.int64).tobytes())
    h.update(S.indptr.astype(np.int64).tobytes())
    h.update(S.indices.astype(np.int64).tobytes())
    h.update(S.data.astype(np.float64).tobytes())
    return h.hexdigest()


def spectral_embedding(S, d, *, method="auto", cache=True, cache_dir=None, seed=0):
    """The ``d`` smallest non-zero eigenpairs of ``L = D - S`` (gu2013 Eq. 28).

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Weights of a connected undirected graph.
    d : int
        Number of non-zero eigenpairs, ``1 ≤ d ≤ n - 1``.
    method : {"auto", "dense", "shift-invert", "lobpcg"}
        Eigensolver; see the module docstring for the choice by size.
    cache : bool, default True
        Read/write the on-disk cache (``cache_dir`` or ``paths.cache_dir()/spectral``).
    seed : int
        Seed of the Krylov/LOBPCG start vectors (the output is deterministic).

    Returns
    -------
    SpectralEmbedding

    Raises
    ------
    ValueError
        If the graph is invalid or disconnected, or ``d`` is not in ``1..n-1``.
    """
    S = check_adjacency(S, require_connected=True)
    n = S.shape[0]
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)):
        raise TypeError(f"rank d must be an integer, got {type(d).__name__}")
    d = int(d)
    if not 1 <= d <= n - 1:
        raise ValueError(f"rank d must be in 1..n-1 = 1..{n - 1} (the graph has {n} nodes), got d={d}")
    if method == "auto":
        method = _choose_method(n, d)
    if method not in ("dense", "shift-invert", "lobpcg"):
        raise ValueError(f"unknown method {method!r}; use 'auto', 'dense', 'shift-invert' or 'lobpcg'")

    path = None
    if cache:
        key = graph_hash(S)
        folder = Path(cache_dir) if cache_dir is not None else paths.cache_dir() / "spectral"
        path = folder / f"{key[:24]}_d{d}_{method}.npz"
        hit = _read_cache(path, key, n, d)
        if hit is not None:
            return SpectralEmbedding(hit[0], hit[1], method)

    L = laplacian(S)
    vals, vecs = _SOLVERS[method](L, d, seed)
    if method != "dense" and not _none_missing(L, vals):
        # Krylov methods can miss copies of a repeated eigenvalue (e.g. the
        # eigenvalue 1 of pendant-node pairs). The block method does not.
        if n <= DENSE_MAX_NODES:
            fallback = "dense"
        else:
            fallback = "lobpcg" if method == "shift-invert" else "shift-invert"
        warnings.warn(
            f"{method} missed an eigenvalue below {vals.max():.6g}; retrying with {fallback}",
            RuntimeWarning,
            stacklevel=2,
        )
        vals, vecs = _SOLVERS[fallback](L, d, seed)
        if fallback != "dense" and not _none_missing(L, vals):
            raise RuntimeError(f"eigensolvers missed eigenvalues of L (d={d}); try method='dense'")
        method = fallback
    vals, vecs = _check_and_fix(L, vals, vecs, d, method)
    if path is not None:
        _write_cache(path, key, vals, vecs)
    return SpectralEmbedding(vals, vecs, method)


# --------------------------------------------------------------------------- solvers
def _choose_method(n, d):
    if n <= SMALL_NODES or (d > n // 8 and n <= DENSE_MAX_NODES):
        return "dense"
    if n <= SHIFT_INVERT_MAX_NODES:
        return "shift-invert"
    return "lobpcg"


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


_SOLVERS = {"dense": _dense, "shift-invert": _shift_invert, "lobpcg": _lobpcg}


def count_eigenvalues_below(L, tau) -> int:
    """Number of eigenvalues of the symmetric ``L`` below ``tau`` (Sylvester's law of inertia).

    Factorises ``L - τI = P^T (L D L^T) P`` by sparse Gaussian elimination with
    a symmetric ordering and no row pivoting; the count is the number of
    negative pivots. Raises ``RuntimeError`` if SuperLU had to pivot off the
    diagonal (then the pivots no longer give the inertia).
    """
    n = L.shape[0]
    A = (L - tau * sp.identity(n)).tocsc()
    lu = spla.splu(A, permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0, options={"SymmetricMode": True})
    if not np.array_equal(lu.perm_r, lu.perm_c):
        raise RuntimeError("inertia count needs a symmetric factorisation; SuperLU pivoted")
    return int(np.count_nonzero(lu.U.diagonal() < 0))


def _none_missing(L, vals):
    """True if no eigenvalue of ``L`` below the largest computed one was skipped."""
    top = float(np.max(vals))
    tau = top - 1e-8 * (1.0 + top)
    found = int(np.count_nonzero(vals < tau))
    try:
        return count_eigenvalues_below(L, tau) == found
    except RuntimeError:  # pragma: no cover - cannot count: trust the solver
        return True


def _check_and_fix(L, vals, vecs, d, method):
    """Sort, drop the null pair, check residuals, fix signs."""
    order = np.argsort(vals)
    vals, vecs = vals[order], vecs[:, order]
    scale = max(1.0, float(abs(L).sum(axis=1).max()))  # ≥ ‖L‖₂
    if abs(vals[0]) > 1e-8 * scale:
        raise ValueError(f"smallest Laplacian eigenvalue is {vals[0]:.3g}, not 0: is the graph connected?")
    vals, vecs = vals[1 : d + 1], vecs[:, 1 : d + 1]
    if vals[0] <= 1e-10 * scale:
        raise ValueError("the Laplacian has a second zero eigenvalue: the graph is disconnected")
    resid = np.linalg.norm(L @ vecs - vecs * vals, axis=0).max()
    if not np.isfinite(resid) or resid > 1e-6 * scale:
        raise RuntimeError(f"{method} eigensolver did not converge (max residual {resid:.3g})")
    vecs = np.array(vecs, dtype=np.float64, order="F")
    idx = np.argmax(np.abs(vecs), axis=0)
    signs = np.sign(vecs[idx, np.arange(vecs.shape[1])])
    signs[signs == 0] = 1.0
    vecs *= signs
    return np.ascontiguousarray(vals, dtype=np.float64), vecs


# --------------------------------------------------------------------------- cache
def _digest(vals, vecs):
    h = hashlib.sha256()
    h.update(np.ascontiguousarray(vals).tobytes())
    h.update(np.ascontiguousarray(vecs).tobytes())
    return h.hexdigest()


def _read_cache(path, key, n, d):
    if not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as z:
            ok = (
                int(z["version"]) == _CACHE_VERSION
                and str(z["key"]) == key
                and z["eigenvalues"].shape == (d,)
                and z["eigenvectors"].shape == (n, d)
            )
            if ok:
                vals, vecs = z["eigenvalues"], z["eigenvectors"]
                ok = str(z["digest"]) == _digest(vals, vecs)
    except Exception:  # truncated zip, bad header, missing key, ...
        ok = False
    if not ok:
        warnings.warn(
            f"spectral cache {path} is corrupted or stale: recomputing", RuntimeWarning, stacklevel=3
        )
        return None
    return vals, vecs


def _write_cache(path, key, vals, vecs):
    """Store the embedding; a folder that cannot be written costs a warning, not the result."""
    try:
        with atomic_path(path) as tmp:
            np.savez(
                tmp,
                version=_CACHE_VERSION,
                key=key,
                eigenvalues=vals,
                eigenvectors=vecs,
                digest=_digest(vals, vecs),
            )
    except OSError as exc:
        warnings.warn(
            f"spectral embedding not cached: cannot write {path} ({exc}); returning it anyway",
            RuntimeWarning,
            stacklevel=3,
        )
