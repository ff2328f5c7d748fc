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
  of iterations: see ``benchmarks/bench_spectral.py``). Used up to 2·10^5
  nodes, except on large random-like graphs (below): the LU fill-in is small
  on real graphs with small separators (PubMed, 19,717 nodes: 7 s; Epinions,
  75,877 nodes, 10.7 neighbours on average: 158 s, against 140 s and 651 s
  for ``"lobpcg-jacobi"``) but grows like n² on random graphs, which have no
  small separators (``datasets.sbm``, 18 neighbours on average, d = 100, one
  core: 1.6·10^7 nonzeros and 21 s at 10^4 nodes, 6.3·10^7 and 127 s at
  2·10^4, plus as much again for the inertia count; out of reach at 10^5).
* ``"lobpcg-jacobi"`` — block LOBPCG (Knyazev, SIAM J. Sci. Comput. 23, 2001)
  with the Jacobi preconditioner ``D^{-1}``, ``d + max(20, d/2)`` vectors
  (the guard vectors widen the gap that sets the convergence rate), soft
  locking, and a stop as soon as the ``d`` wanted pairs (not the guards) have
  relative residuals ``‖Lv − λv‖ ≤ 10^-8 λ_{max,block}``. Memory linear in
  ``n`` (a few block vectors of ``n × (d + guard)``), time dominated by the
  dense Rayleigh–Ritz algebra, O(n (d + guard)²) per iteration; 30–50
  iterations on ``datasets.sbm`` (one core, d = 100: 24 s at 10^4 nodes, 37 s
  at 2·10^4, about 3 min and 1.3 GB at 10^5; about 80 s per iteration and
  11 GB at 10^6), but 100–200 on the real graphs above, whose small
  eigenvalues are closer together.
* ``"lobpcg-chebyshev"`` — the same block LOBPCG (guards, soft locking, the
  same stopping rule and checks) with a degree-4 Chebyshev polynomial in
  ``D^{-1}L`` as preconditioner, leaner dense algebra, sparse products on
  every core, and its first iterations in float32 until float32's rounding
  stops them (:mod:`graphsel_lib.blockeig`). On ``datasets.sbm(n, avg_degree=10)``,
  d = 100, 2 threads, idle machine (``benchmarks/bench_spectral.py``, 2026-11-29):
  61.0 s and 39 iterations at 10^5 nodes against 75.2 s in float64 alone
  (``"lobpcg-jacobi"``: 208.3 s and 93 iterations, measured with the previous
  version); at 10^6 nodes 533.5 s, 39 iterations and 15.0 GiB to relative residual
  1e-6, 588.9 s with the complement probe. The block algebra
  runs on ``blockeig.DENSE_THREADS`` = 1 BLAS thread (notebooks share the cores:
  on a loaded machine two threads were 2.3x slower at 3·10^4 nodes). Chosen above 2·10^5 nodes, and above
  2·10^4 nodes when the mean number of neighbours is ≥ 15 (random-like:
  ``benchmarks/study_embedding_scale.py``, ``benchmarks/bench_scale.py``).
* ``"lobpcg"`` — scipy's LOBPCG preconditioned by smoothed-aggregation
  algebraic multigrid (``pyamg``) with the constant vector as a constraint,
  kept for comparison (not chosen by ``"auto"``).

Lanczos can silently miss copies of a repeated eigenvalue (real graphs have
many: two leaves on one node give the eigenvalue 1). Every sparse result
(the block methods: on up to 2·10^4 nodes) is therefore checked by counting
the eigenvalues below the largest one found with Sylvester's law of inertia
(:func:`count_eigenvalues_below`); if one is missing, the dense solver (or,
for large graphs, the other sparse solver) is tried, then an error is raised.
Above 2·10^4 nodes the count needs a sparse LU that no longer fits (see
above), so the block methods check instead by a *complement probe*
(:func:`complement_probe`): an independent LOBPCG run, from another random
start, on the orthogonal complement of the constant vector and the ``d``
vectors found. An eigenvalue below ``σ_d`` that was missed lies in that
complement, so a probe Ritz value below ``σ_d`` proves a miss (and raises);
a probe that finds none is evidence, not a proof.

**The canonical basis.** Inside a repeated eigenvalue the eigenvectors are
not unique (any orthonormal basis of the eigenspace serves), and each solver,
start vector, thread count and BLAS build returns another one. A rank that
cuts through a repeated eigenvalue (``σ_d = σ_{d+1}``: Cora's eigenvalue 1
has 82 copies, of which ``d = 500`` keeps 76) is worse: any subspace of that
eigenspace of the kept dimension is as valid, and the rank-``d`` kernel
``M^T M`` itself depends on the choice. :func:`canonical_basis` makes the
choice depend on the eigenspace only: for the copies ``σ_{s+1} = … = σ_{s+m}``
(equal to 1e-8 of ``w + σ``, ``w`` the median edge weight: relative to the
graph's scale, so that multiplying every weight by ``c`` multiplies the
eigenvalues by ``c`` and groups them the same way) with computed orthonormal basis ``U`` (n × m), take
the fixed reference vectors ``g_{s+1}, …, g_{s+m}`` (standard normal, seeded by
``CANONICAL_SEED`` and their index alone), project them onto the eigenspace,
``P g_j = U (U^T g_j)``, and orthonormalise in index order (Gram–Schmidt, i.e.
``U^T G = Q R`` with ``diag(R) > 0``, basis ``U Q``). Another basis ``U W``
(``W`` orthogonal) gives ``W^T U^T G = (W^T Q) R`` and the same ``U Q``; a
rank that keeps ``k`` copies keeps the span of ``P g_{s+1}, …, P g_{s+k}``, so
the solver first completes the eigenspace (it asks for the remaining copies).
A simple eigenvalue (``m = 1``) gets the sign that makes ``g_j^T v_j > 0``.
Different solvers then return the same ``M`` to rounding (1e-10 on Cora at
``d = 500`` and on the political blogs at ``d = 100``, dense against
shift-invert, 1 or 2 BLAS threads; ``tests/test_determinism.py``).

The same inertia count (or, above 2·10^4 nodes with a block method, the
first guard and the probe) finds a cut through a repeated eigenvalue;
``spectral_embedding`` then warns with a :class:`SplitEigenvalueWarning` (the
kernel is reproducible but is one choice among many) and records
``info["split"]``, also on a cache hit; :meth:`SpectralEmbedding.split_at`
answers it for any rank.

Results are cached under ``paths.cache_dir()/spectral`` keyed by a SHA-256 of
the graph, ``d`` and the method (a result of one method is never read for another; atomic write; a corrupted or mismatching cache file is
detected by a checksum and recomputed).
"""

from __future__ import annotations

import hashlib
import os
import warnings
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from . import paths
from ._atomic import atomic_path
from ._validation import Seed, as_real_matrix, check_positive, check_seed
from .eigensolvers import (  # noqa: F401 - the solvers' names stay reachable as spectral.<name>
    _BLOCK,
    _SOLVERS,
    CHEBYSHEV_DEGREE,
    LOBPCG_RTOL,
    _block_lobpcg,
    _lobpcg_chebyshev,
    _lobpcg_jacobi,
    complement_probe,
)
from .graph import check_adjacency, laplacian

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from .graph.types import Adjacency, Laplacian

#: ``(σ_d, kept, multiplicity)``: a rank ``d`` that cuts a repeated eigenvalue (:meth:`SpectralEmbedding.split_at`).
Split = tuple[float, int, int]

__all__ = [
    "SplitEigenvalueWarning",
    "SpectralEmbedding",
    "any_basis",
    "canonical_basis",
    "spectral_embedding",
    "nested_embeddings",
    "add_bias",
    "graph_hash",
    "weight_scale",
    "count_eigenvalues_below",
    "complement_probe",
]

_CACHE_VERSION = 3  # 2: the split of the eigenvalue at the cut is stored; 3: the canonical basis
CANONICAL_SEED = 20_130_811  # seeds the reference vectors g_j of canonical_basis (any fixed number serves)
SMALL_NODES = 1000  # below this, dense is as fast as anything
DENSE_MAX_NODES = 12_000  # dense L: 1.2 GB
SHIFT_INVERT_MAX_NODES = 200_000  # above: "lobpcg-chebyshev" (LU fill-in, inertia count)
RANDOM_LIKE_MIN_NODES = 20_000  # above this size and ...
RANDOM_LIKE_MEAN_DEGREE = 15.0  # ... this mean number of neighbours: "lobpcg-chebyshev"
INERTIA_MAX_NODES = 20_000  # block methods above: complement probe instead of the inertia count


class SplitEigenvalueWarning(UserWarning):
    """The rank ``d`` cuts through a repeated eigenvalue: the rank-``d`` kernel is one choice of many.

    If ``σ_d = σ_{d+1}``, any subspace of that eigenspace with as many
    dimensions as copies kept gives an equally valid embedding (and a
    different rank-``d`` kernel). The library keeps the canonical one
    (:func:`canonical_basis`), so the numbers are the same on every machine;
    another rule, or another library, would keep another subspace and get
    other numbers at that rank.
    """


@contextmanager
def any_basis() -> Iterator[None]:
    """Silence :class:`SplitEigenvalueWarning` where only basis-free quantities are used.

    For code that reads eigenvalues, norms of ``L^+ − L_d^+`` or other
    quantities every valid embedding shares: there a rank that splits a
    repeated eigenvalue does not matter, and saying so is the reason to use it.

    Examples
    --------
    >>> import warnings
    >>> with any_basis():
    ...     warnings.warn("a split", SplitEigenvalueWarning)  # silenced
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SplitEigenvalueWarning)
        yield


def _tie(sigma, scale=1.0):
    """Eigenvalues within this distance of ``sigma`` count as copies of it: 1e-8 of ``scale + |σ|``.

    ``scale`` is the graph's weight scale (:func:`weight_scale`, the median edge
    weight; 1 for an unweighted graph, where this is the former ``1e-8 (1 + |σ|)``).
    An absolute floor of 1e-8 made every eigenvalue of a graph whose weights are
    ≤ 1e-8 a "copy" of its neighbours; relative to the weights, multiplying
    them by ``c`` multiplies every eigenvalue and every tolerance by ``c``.
    """
    return 1e-8 * (scale + abs(sigma))


def weight_scale(S: Adjacency) -> float:
    """The graph's weight scale for the eigenvalue tolerances: the median edge weight (off the diagonal).

    1 for an unweighted graph (every dataset of :func:`graphsel_lib.load_dataset`
    has median weight 1); ``c`` times larger when every weight is.

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        The weights, or the Laplacian ``L = D - S`` (its off-diagonal entries are ``-S``).

    Returns
    -------
    float
        The median of the absolute non-zero entries above the diagonal; 1.0 for a graph without edges.

    Examples
    --------
    >>> weight_scale(np.array([[0.0, 2.0, 4.0], [2.0, 0.0, 0.0], [4.0, 0.0, 0.0]]))
    3.0
    """
    U = sp.triu(sp.csr_matrix(S), k=1).tocsr()
    w = np.abs(U.data[U.data != 0])
    return float(np.median(w)) if w.size else 1.0


def _warn_split(d, split, stacklevel=3):
    """Warn if ``split = (σ, kept, multiplicity)`` says that rank ``d`` cuts a repeated eigenvalue."""
    if split is None:
        return
    sigma, kept, mult = split
    if mult > 0:
        what = f"of multiplicity {mult} ({kept} of its copies kept)"
        ranks = f"; d = {d - kept} or d = {d - kept + mult} keeps none or all of them"
    else:  # only a lower bound on the number of copies is known
        what = f"(at least {max(-mult, kept + 1)} copies; {kept} kept)"
        ranks = ""
    warnings.warn(
        f"rank d={d} splits the repeated eigenvalue σ = {sigma:.6g} {what}: the rank-d kernel is one "
        f"choice of many (any subspace of that eigenspace with as many dimensions as copies kept serves; "
        f"graphsel keeps the canonical one, see graphsel_lib.spectral.canonical_basis){ranks}",
        SplitEigenvalueWarning,
        stacklevel=stacklevel,
    )


@dataclass(frozen=True, eq=False)
class SpectralEmbedding:
    """The ``d`` smallest non-zero Laplacian eigenpairs and the feature matrix ``M``.

    Attributes
    ----------
    eigenvalues : ndarray of shape (d,)
        ``σ_1 ≤ … ≤ σ_d``, all > 0.
    eigenvectors : ndarray of shape (n, d)
        Orthonormal columns in the canonical basis (:func:`canonical_basis`):
        the same, to rounding, whatever solver, start vector or BLAS made them.
    method : str
        The eigensolver used.
    info : dict
        ``split``: ``(σ_d, kept, multiplicity)`` if ``σ_{d+1} = σ_d`` (to
        1e-8 of ``weight_scale + σ``; the embedding is then not unique and a
        :class:`SplitEigenvalueWarning` says so), else None; a multiplicity
        ``-m`` means "at least m" (no inertia count was affordable);
        ``weight_scale``: the graph's median edge weight, the scale of the
        tolerance that decides which eigenvalues are copies (1 if absent). Diagnostics
        of the solver that computed it (absent on a cache hit):
        for the block methods the ``iterations``, ``block`` size,
        ``max_residual``, ``guard_min`` (the first guard's Ritz value, an
        upper bound of ``σ_{d+1}``) and the check of missed eigenvalues
        (``check``: ``"inertia"`` or ``"probe"``; ``probe_min``, the smallest
        Ritz value found in the complement, and ``probe_residual``, its
        residual).

    Examples
    --------
    The path on four nodes: all three non-zero pairs give the exact kernel, ``Mᵀ M = L⁺``.

    >>> import networkx as nx
    >>> import graphsel_lib as gs
    >>> S = nx.to_scipy_sparse_array(nx.path_graph(4))
    >>> emb = spectral_embedding(S, 3, cache=False)
    >>> emb.d, emb.n, emb.M.shape, emb.method, emb.eigenvalues.round(4).tolist()
    (3, 4, (3, 4), 'dense', [0.5858, 2.0, 3.4142])
    >>> bool(np.allclose(emb.M.T @ emb.M, gs.laplacian_pinv(S))), emb.truncate(2).d
    (True, 2)
    """

    eigenvalues: np.ndarray
    eigenvectors: np.ndarray
    method: str = ""
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def d(self) -> int:
        """The rank: number of eigenpairs."""
        return int(self.eigenvalues.shape[0])

    @property
    def n(self) -> int:
        """Number of nodes."""
        return int(self.eigenvectors.shape[0])

    @property
    def M(self) -> np.ndarray:
        """``diag(σ^{-1/2}) V^T`` of shape (d, n); column ``t`` is ``m_t`` (gu2013 Eq. 28)."""
        return np.ascontiguousarray(self.eigenvectors.T / np.sqrt(self.eigenvalues)[:, None])

    def kernel(self) -> np.ndarray:
        """The rank-``d`` kernel ``L_d^+ = M^T M`` (dense n × n: small graphs only)."""
        M = self.M
        return M.T @ M

    def split_at(self, d: int) -> Split | None:
        """``(σ_d, kept, multiplicity)`` if rank ``d`` cuts through a repeated eigenvalue, else None.

        Counted among this embedding's eigenvalues (to 1e-8 of
        ``info["weight_scale"] + σ``); where
        the copies of ``σ_d`` run on to its own cut, its ``info["split"]``
        gives the multiplicity (``-m``, "at least m", if that is unknown).

        Parameters
        ----------
        d : int
            A rank in ``1..self.d``.

        Returns
        -------
        (float, int, int) or None
            ``σ_d``, the copies kept at rank ``d`` and the multiplicity; None if ``σ_d < σ_{d+1}``.

        Raises
        ------
        ValueError
            ``d`` outside ``1..self.d``.
        """
        if not 1 <= d <= self.d:
            raise ValueError(f"d must be in 1..{self.d}, got {d}")
        if d == self.d:
            return self.info.get("split")
        w = self.eigenvalues
        sigma = float(w[d - 1])
        copies = np.flatnonzero(np.abs(w - sigma) <= _tie(sigma, self.info.get("weight_scale", 1.0)))
        if copies[-1] < d:  # no copy of σ_d beyond the cut
            return None
        mult = copies.size  # all of them here, unless the run reaches this embedding's own cut
        if copies[-1] == self.d - 1:  # then the copies past it are counted by info["split"]
            if "split" not in self.info:  # nothing known past the cut: at least these
                mult = -copies.size
            elif self.info["split"] is not None:
                mult = self.info["split"][2]
        return (sigma, int(d - copies[0]), int(mult))

    def truncate(self, d: int) -> SpectralEmbedding:
        """The embedding of the ``d`` smallest pairs of this one (warns if ``d`` splits a repeated eigenvalue).

        Parameters
        ----------
        d : int
            The new rank, in ``1..self.d``.

        Returns
        -------
        SpectralEmbedding
            Copies of the first ``d`` eigenpairs; ``info`` keeps ``split`` (of rank ``d``) and ``weight_scale``.

        Raises
        ------
        ValueError
            ``d`` outside ``1..self.d``.
        """
        split = self.split_at(d)
        if d < self.d:
            _warn_split(d, split)
        info = {"split": split, "weight_scale": self.info.get("weight_scale", 1.0)}
        return SpectralEmbedding(
            self.eigenvalues[:d].copy(), self.eigenvectors[:, :d].copy(), self.method, info
        )


def add_bias(M: ArrayLike, b: float = 1.0) -> np.ndarray:
    """Append the constant feature ``√b`` to every column of ``M``: shape (d+1, n).

    The kernel becomes ``M^T M + b 11^T`` (Herbster–Pontil's ``L^+ + b 11^T``),
    which lets a linear learner on ``m_t`` represent a non-zero mean, i.e. a
    class prior.

    Parameters
    ----------
    M : array-like of shape (d, n)
        Feature matrix, one column per node (:attr:`SpectralEmbedding.M`).
    b : float >= 0, default 1.0
        The bias: the kernel gains ``b`` on every entry.

    Returns
    -------
    ndarray of shape (d + 1, n)

    Raises
    ------
    TypeError, ValueError
        ``M`` not a real 2-D matrix; ``b`` negative, infinite or not a number.

    Examples
    --------
    >>> add_bias(np.zeros((2, 3)), b=4.0)[-1]
    array([2., 2., 2.])
    """
    F = as_real_matrix(M, "M (d, n)", sparse=False, finite=False, copy=False)
    b = check_positive(b, "bias b", allow_zero=True)
    return np.vstack([F, np.full((1, F.shape[1]), np.sqrt(b))])


def graph_hash(S: Adjacency) -> str:
    """SHA-256 of a validated weight matrix (structure and weights): the key of the embedding cache.

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)

    Returns
    -------
    str
        64 hexadecimal digits; equal for a dense and a sparse copy of one matrix.

    Raises
    ------
    TypeError, ValueError
        ``S`` is not a valid weight matrix (:func:`graphsel_lib.check_adjacency`).

    Examples
    --------
    >>> A = np.array([[0.0, 1.0], [1.0, 0.0]])
    >>> import scipy.sparse as sp
    >>> graph_hash(A) == graph_hash(sp.csr_matrix(A)) and len(graph_hash(A)) == 64
    True
    """
    S = check_adjacency(S)
    h = hashlib.sha256()
    h.update(np.asarray(S.shape, dtype=np.int64).tobytes())
    h.update(S.indptr.astype(np.int64).tobytes())
    h.update(S.indices.astype(np.int64).tobytes())
    h.update(S.data.astype(np.float64).tobytes())
    return h.hexdigest()


def spectral_embedding(
    S: Adjacency,
    d: int,
    *,
    method: str = "auto",
    cache: bool = True,
    cache_dir: str | os.PathLike[str] | None = None,
    seed: Seed = 0,
    tol: float | None = None,
) -> SpectralEmbedding:
    """The ``d`` smallest non-zero eigenpairs of ``L = D - S`` (gu2013 Eq. 28).

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Weights of a connected undirected graph.
    d : int
        Number of non-zero eigenpairs, ``1 ≤ d ≤ n - 1``.
    method : {"auto", "dense", "shift-invert", "lobpcg-jacobi", "lobpcg-chebyshev", "lobpcg"}
        Eigensolver; see the module docstring for the choice by size.
    cache : bool, default True
        Read/write the on-disk cache.
    cache_dir : str or path, optional
        The cache's folder; default ``paths.cache_dir()/spectral``.
    seed : int, numpy.random.Generator or None, default 0
        Seed of the Krylov/LOBPCG start vectors. The eigenvectors are returned
        in the canonical basis, so the output does not depend on it (to rounding).
    tol : float in (0, 1), optional
        Only for the block methods ``"lobpcg-jacobi"`` and ``"lobpcg-chebyshev"``: stop when every wanted pair has
        ``‖Lv − λv‖ ≤ tol · λ_max`` (``λ_max`` the largest Ritz value of the
        block); default ``LOBPCG_RTOL`` = 1e-8. A looser ``tol`` gives an
        *approximate* embedding sooner (notebook 44 measures what it costs the
        online learners); the checks for missed eigenvalues and the residual
        check then allow the same slack, and the cache keeps it apart.

    Returns
    -------
    SpectralEmbedding

    Raises
    ------
    ValueError
        If the graph is invalid or disconnected, ``d`` is not in ``1..n-1``,
        ``method`` is unknown, or ``tol`` is given for a method it does not apply to.
    TypeError
        ``d`` is not an integer, or ``seed`` is not a seed.

    Examples
    --------
    The path on 4 nodes has the Laplacian eigenvalues ``2 - 2 cos(kπ/4)``:

    >>> import networkx as nx
    >>> emb = spectral_embedding(nx.to_scipy_sparse_array(nx.path_graph(4)), 2, cache=False)
    >>> np.round(emb.eigenvalues, 6), emb.M.shape
    (array([0.585786, 2.      ]), (2, 4))
    """
    seed = check_seed(seed)
    S = check_adjacency(S, require_connected=True)
    n = S.shape[0]
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)):
        raise TypeError(f"rank d must be an integer, got {type(d).__name__}")
    d = int(d)
    if not 1 <= d <= n - 1:
        raise ValueError(f"rank d must be in 1..n-1 = 1..{n - 1} (the graph has {n} nodes), got d={d}")
    if method == "auto":
        method = _choose_method(n, d, S.nnz / n)
    if method not in _SOLVERS:
        raise ValueError(
            f"unknown method {method!r}; use 'auto', 'dense', 'shift-invert', 'lobpcg-jacobi', "
            "'lobpcg-chebyshev' or 'lobpcg'"
        )
    if tol is not None:
        if method not in _BLOCK:
            raise ValueError(f"tol applies to the block methods {_BLOCK} only, not {method!r}")
        tol = check_positive(tol, "tol")
        if tol >= 1.0:
            raise ValueError(f"tol must be below 1 (a relative residual), got {tol}")
    slack = max(LOBPCG_RTOL, tol or 0.0)  # relative slack of the checks below
    scale = weight_scale(S)  # the tolerances on eigenvalues are relative to it (1 for unit weights)

    path = None
    if cache:
        key = graph_hash(S)
        folder = Path(cache_dir) if cache_dir is not None else paths.cache_dir() / "spectral"
        path = folder / f"{key[:24]}_d{d}_{method}{'' if tol is None else f'_tol{tol:.3g}'}.npz"
        hit = _read_cache(path, key, n, d)
        if hit is not None:
            _warn_split(d, hit[2])
            return SpectralEmbedding(hit[0], hit[1], method, {"split": hit[2], "weight_scale": scale})

    L = laplacian(S)
    vals, vecs, info, method = _solve(L, d, method, seed, tol, slack, scale)
    info["split"] = split = _split_at_cut(L, vals, info, scale)
    info["weight_scale"] = scale
    if split is not None:  # the canonical subspace of the cut eigenspace needs all of its copies
        vals, vecs, method = _complete_eigenspace(L, vals, vecs, split, method, seed, tol, slack, scale)
    vecs = canonical_basis(vals, vecs, scale=scale)[:, :d]
    vals = np.ascontiguousarray(vals[:d])
    _warn_split(d, split)
    if path is not None:
        _write_cache(path, key, vals, vecs, split)
    return SpectralEmbedding(vals, vecs, method, info)


def nested_embeddings(
    S: Adjacency,
    ranks: Iterable[int],
    *,
    direct: Iterable[int] = (),
    **kwargs: Any,
) -> dict[int, SpectralEmbedding]:
    """The embeddings of several ranks from one solve at the largest (gu2013 Fig. 1, yang2016 Fig. 3).

    Rank ``d`` is the first ``d`` pairs of the largest rank's embedding when ``σ_d < σ_{d+1}`` (by the
    tie rule of :meth:`SpectralEmbedding.split_at`): the same eigenspaces in the same canonical basis as a
    solve at ``d`` (:func:`canonical_basis` works eigenvalue run by run), equal to rounding. A rank that
    cuts a repeated eigenvalue, and every rank in ``direct`` (e.g. one that other computations solve on
    their own, so that their features and cached results are bit-identical), is solved by
    :func:`spectral_embedding`; so is the largest, with ``kwargs`` (``method``, ``cache``, ...).

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Symmetric non-negative weights of a connected graph.
    ranks : iterable of int
        The ranks ``d`` wanted.
    direct : iterable of int, default ()
        Ranks solved on their own whatever the spectrum.
    **kwargs
        Passed to :func:`spectral_embedding` for the solves.

    Returns
    -------
    dict
        ``{d: SpectralEmbedding}`` in the order of ``ranks``.

    Raises
    ------
    ValueError, TypeError
        No rank, a rank that is not an integer, or any error of :func:`spectral_embedding`.

    Examples
    --------
    >>> import networkx as nx
    >>> S = nx.to_scipy_sparse_array(nx.path_graph(6))
    >>> embs = nested_embeddings(S, [1, 3], cache=False)
    >>> {d: e.M.shape for d, e in embs.items()}, embs[3].eigenvalues.round(4).tolist()
    ({1: (1, 6), 3: (3, 6)}, [0.2679, 1.0, 2.0])
    """
    wanted = list(ranks)
    if not wanted:
        raise ValueError("ranks is empty: give at least one rank d")
    if any(isinstance(d, bool) or not isinstance(d, (int, np.integer)) for d in wanted):
        raise TypeError(f"ranks must be integers, got {wanted}")
    if min(wanted) < 1:
        raise ValueError(f"every rank d must be at least 1, got {min(wanted)}")
    keep = {int(d) for d in direct}
    top = spectral_embedding(S, max(wanted), **kwargs)
    out = {}
    for d in map(int, wanted):
        if d == top.d:
            out[d] = top
        elif d in keep or top.split_at(d) is not None:
            out[d] = spectral_embedding(S, d, **kwargs)
        else:
            out[d] = top.truncate(d)
    return out


def _solve(L, d, method, seed, tol, slack, scale=1.0):
    """The ``d`` smallest non-zero eigenpairs by ``method``, checked for misses: ``(vals, vecs, info, method)``.

    ``method`` may change to a fallback when a Krylov solver missed a copy of
    a repeated eigenvalue (see the module docstring).
    """
    n = L.shape[0]
    info = {}
    if method in _BLOCK:
        vals, vecs, info = _SOLVERS[method](L, d, seed, rtol=LOBPCG_RTOL if tol is None else tol)
        if n > INERTIA_MAX_NODES:  # no LU for an inertia count: probe the complement
            mu, res = complement_probe(L, vecs[:, 1 : d + 1], seed=seed + 1)
            info.update(check="probe", probe_min=mu, probe_residual=res)
            if mu < vals[d] - slack * (scale + vals[d]):
                raise RuntimeError(
                    f"{method} missed an eigenvalue: the complement probe found {mu:.8g} < σ_d = {vals[d]:.8g}"
                )
        else:
            info["check"] = "inertia"
    else:
        vals, vecs = _SOLVERS[method](L, d, seed)
    if method != "dense" and info.get("check") != "probe" and not _none_missing(L, vals, slack, scale):
        # Krylov methods can miss copies of a repeated eigenvalue (e.g. the
        # eigenvalue 1 of pendant-node pairs). The block method does not.
        if n <= DENSE_MAX_NODES:
            fallback = "dense"
        else:
            fallback = "lobpcg" if method == "shift-invert" else "shift-invert"
        warnings.warn(
            f"{method} missed an eigenvalue below {vals.max():.6g}; retrying with {fallback}",
            RuntimeWarning,
            stacklevel=3,
        )
        vals, vecs = _SOLVERS[fallback](L, d, seed)[:2]
        info = {}
        if fallback != "dense" and not _none_missing(L, vals, scale=scale):
            raise RuntimeError(f"eigensolvers missed eigenvalues of L (d={d}); try method='dense'")
        method = fallback
    vals, vecs = _check_and_fix(L, vals, vecs, d, method, slack)
    return vals, vecs, info, method


def _complete_eigenspace(L, vals, vecs, split, method, seed, tol, slack, scale=1.0, max_tries=4):
    """The pairs up to the last copy of the eigenvalue ``split[0]`` that rank ``d`` cuts, and the solver used.

    With a known multiplicity one more solve asks for exactly the missing
    copies; with only a lower bound (the complement probe), the request grows
    until a pair past the copies is seen. If that fails, the pairs found are
    returned with a warning: their basis is then canonical only within them.
    """
    n, d = L.shape[0], vals.shape[0]
    sigma, kept, mult = split
    if method == "shift-invert" and d + abs(mult) - kept + 2 >= n:
        method = "dense"  # ARPACK needs k + 1 < n
    extra = abs(mult) - kept if mult > 0 else max(abs(mult), 8)  # unknown: ask for more, doubling
    for _ in range(max_tries if mult < 0 else 1):
        d_ext = min(n - 1, d + extra)
        w, V, info, used = _solve(L, d_ext, method, seed, tol, slack, scale)
        copies = int(np.count_nonzero(np.abs(w[d:] - sigma) <= _tie(sigma, scale)))
        closed = mult > 0 or copies < d_ext - d or d_ext == n - 1 or _split_at_cut(L, w, info, scale) is None
        if closed:
            return w[: d + copies], V[:, : d + copies], used
        extra *= 2
    warnings.warn(
        f"could not find every copy of the eigenvalue {sigma:.6g} cut by rank d={d} in {max_tries} solves "
        f"(at least {d_ext - d + kept}): the basis of the kept copies is canonical only among those found",
        RuntimeWarning,
        stacklevel=3,
    )
    return w, V, used


def _groups(vals, scale=1.0):
    """``(start, stop)`` of each run of equal eigenvalues in the ascending ``vals`` (to 1e-8 of ``scale + σ``)."""
    start = 0
    for j in range(1, vals.shape[0] + 1):
        if j == vals.shape[0] or vals[j] - vals[start] > _tie(vals[start], scale):
            yield start, j
            start = j


def _reference_vector(n, j):
    """The fixed reference vector ``g_j`` of :func:`canonical_basis`: standard normal, seeded by ``j`` alone."""
    return np.random.default_rng([CANONICAL_SEED, j]).standard_normal(n)


def canonical_basis(eigenvalues: ArrayLike, eigenvectors: ArrayLike, *, scale: float = 1.0) -> np.ndarray:
    """An eigenvector basis that depends only on the eigenspaces, not on the solver that found them.

    For each run of equal eigenvalues ``σ_{s+1} = … = σ_{s+m}`` (to 1e-8 of
    ``scale + σ``) with orthonormal eigenvectors ``U`` (columns ``s..s+m-1``): the
    fixed reference vectors ``G = [g_{s+1} … g_{s+m}]`` (standard normal,
    seeded by ``CANONICAL_SEED`` and the index) are projected onto the
    eigenspace and orthonormalised in index order: ``U^T G = Q R`` with
    ``diag(R) > 0`` and the basis is ``U Q``. Any other orthonormal basis
    ``U W`` of the same space gives ``W^T U^T G = (W^T Q) R``, hence the same
    ``U Q``; the first ``k`` columns span ``P g_{s+1}, …, P g_{s+k}`` (``P``
    the projector), a subspace that depends on the eigenspace alone, which is
    what a rank cutting through the run keeps. For ``m = 1`` this is the sign
    with ``g_{s+1}^T v > 0``.

    Parameters
    ----------
    eigenvalues : ndarray of shape (d,)
        Ascending; a run of copies must be complete for its basis to be canonical.
    eigenvectors : ndarray of shape (n, d)
        Orthonormal columns, ``eigenvectors[:, j]`` belonging to ``eigenvalues[j]``.
    scale : float, default 1.0
        The graph's weight scale (:func:`weight_scale`: its median edge
        weight, 1 for an unweighted graph), which sets the tolerance that
        decides copies: pass it for a weighted graph (``spectral_embedding`` does).

    Returns
    -------
    ndarray of shape (n, d), Fortran order
        The canonical basis (a new array).

    Raises
    ------
    ValueError
        Shapes that do not match, eigenvalues not ascending, NaN or infinite
        entries, columns that are not orthonormal (``|VᵀV − I| > 1e-6``: the
        projection onto an eigenspace needs an orthonormal basis of it), or a
        ``scale`` that is not a positive finite number.

    Examples
    --------
    Two bases of the double eigenvalue 3 of the triangle's Laplacian give one answer:

    >>> import numpy as np
    >>> U = np.linalg.qr(np.array([[1., 1.], [-1., 1.], [0., -2.]]))[0]
    >>> W = np.array([[0.6, -0.8], [0.8, 0.6]])
    >>> a = canonical_basis(np.array([3., 3.]), U)
    >>> b = canonical_basis(np.array([3., 3.]), U @ W)
    >>> bool(np.allclose(a, b, atol=1e-12))
    True
    """
    vals = np.asarray(eigenvalues, dtype=np.float64)
    vecs = np.array(eigenvectors, dtype=np.float64, order="F", copy=True)
    if vals.ndim != 1 or vecs.ndim != 2 or vecs.shape[1] != vals.shape[0]:
        raise ValueError(
            f"need eigenvalues of shape (d,) and eigenvectors of shape (n, d), got {vals.shape} and {vecs.shape}"
        )
    if not (np.all(np.isfinite(vals)) and np.all(np.isfinite(vecs))):
        raise ValueError(
            "eigenvalues and eigenvectors must be finite: NaN or infinite entries found (a failed eigensolve?)"
        )
    if np.any(np.diff(vals) < 0):
        raise ValueError("eigenvalues must be in ascending order (sort the pairs first)")
    scale = check_positive(scale, "scale (the graph's weight scale, e.g. weight_scale(S))")
    gram = vecs.T @ vecs
    gram[np.diag_indices_from(gram)] -= 1.0
    off = float(np.max(np.abs(gram))) if gram.size else 0.0
    if off > 1e-6:
        i, j = np.unravel_index(int(np.argmax(np.abs(gram))), gram.shape)
        raise ValueError(
            f"eigenvectors must have orthonormal columns (|VᵀV − I| ≤ 1e-6), but column {i}·column {j} is off by "
            f"{off:.3g}: normalise and orthogonalise them first (e.g. np.linalg.qr within each eigenspace), or pass "
            "the eigenvectors an eigensolver returned"
        )
    n = vecs.shape[0]
    for s, e in _groups(vals, scale):
        U = vecs[:, s:e]
        G = np.column_stack([_reference_vector(n, j) for j in range(s, e)])
        Q, R = np.linalg.qr(U.T @ G)
        signs = np.sign(np.diag(R))
        signs[signs == 0] = 1.0
        vecs[:, s:e] = U @ (Q * signs)
    return vecs


def _split_at_cut(L, vals, info, scale=1.0):
    """``(σ_d, kept, multiplicity)`` if ``σ_{d+1} = σ_d`` to 1e-8 of ``scale + σ_d``, else None.

    By the inertia count of ``L − (σ_d ± tie) I`` where an LU is affordable;
    else by the smallest Ritz value seen past ``σ_d`` (the first guard of the
    block, the complement probe), which proves a copy beyond the cut but not
    how many: the multiplicity is then returned as ``-m``, "at least m".
    """
    d = vals.shape[0]
    sigma = float(vals[-1])
    tie = _tie(sigma, scale)
    if info.get("check") == "probe":
        beyond = min(info.get("probe_min", np.inf), info.get("guard_min", np.inf))
        if beyond > sigma + tie:
            return None
        kept = int(np.count_nonzero(np.abs(vals - sigma) <= tie))
        return (sigma, kept, -(kept + 1))
    try:
        above = count_eigenvalues_below(L, sigma + tie)  # the null eigenvalue counts too
        if above <= d + 1:
            return None
        below = count_eigenvalues_below(L, sigma - tie)
    except RuntimeError:  # pragma: no cover - no symmetric factorisation: cannot tell
        return None
    if below > d:  # σ_d is above σ_{d+1} by more than the tie (a loose tol): no cut can be told
        return None
    return (sigma, d + 1 - below, above - below)


# --------------------------------------------------------------------------- solvers
def _choose_method(n, d, mean_degree=0.0):
    """The solver of ``method="auto"`` for ``n`` nodes with ``mean_degree`` neighbours on average."""
    if n <= SMALL_NODES or (d > n // 8 and n <= DENSE_MAX_NODES):
        return "dense"
    random_like = n > RANDOM_LIKE_MIN_NODES and mean_degree >= RANDOM_LIKE_MEAN_DEGREE
    if n <= SHIFT_INVERT_MAX_NODES and not random_like:
        return "shift-invert"
    return "lobpcg-chebyshev"


def count_eigenvalues_below(L: Laplacian, tau: float) -> int:
    """Number of eigenvalues of the symmetric ``L`` below ``tau`` (Sylvester's law of inertia).

    Factorises ``L - τI = P^T (L D L^T) P`` by sparse Gaussian elimination with
    a symmetric ordering and no row pivoting; the count is the number of
    negative pivots.

    Parameters
    ----------
    L : sparse matrix of shape (n, n)
        Symmetric (a graph Laplacian).
    tau : float
        Not an eigenvalue of ``L`` (``L - τI`` must be non-singular).

    Returns
    -------
    int

    Raises
    ------
    RuntimeError
        SuperLU had to pivot off the diagonal (then the pivots no longer give the inertia).

    Examples
    --------
    The star with three leaves has the Laplacian eigenvalues 0, 1, 1, 4:

    >>> import networkx as nx
    >>> from graphsel_lib import laplacian
    >>> L = laplacian(nx.to_scipy_sparse_array(nx.star_graph(3)))
    >>> count_eigenvalues_below(L, 0.5), count_eigenvalues_below(L, 1.5)
    (1, 3)
    """
    n = L.shape[0]
    A = (L - tau * sp.identity(n)).tocsc()
    lu = spla.splu(A, permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0, options={"SymmetricMode": True})
    if not np.array_equal(lu.perm_r, lu.perm_c):
        raise RuntimeError("inertia count needs a symmetric factorisation; SuperLU pivoted")
    return int(np.count_nonzero(lu.U.diagonal() < 0))


def _none_missing(L, vals, slack=1e-8, scale=1.0):
    """True if no eigenvalue of ``L`` below the largest computed one (less ``slack`` of ``scale + top``) was skipped."""
    top = float(np.max(vals))
    tau = top - slack * (scale + top)
    found = int(np.count_nonzero(vals < tau))
    try:
        return count_eigenvalues_below(L, tau) == found
    except RuntimeError:  # pragma: no cover - cannot count: trust the solver
        return True


def _check_and_fix(L, vals, vecs, d, method, slack=1e-8):
    """Sort, drop the null pair, check residuals (relative ``slack`` for an approximate solve)."""
    order = np.argsort(vals)
    vals, vecs = vals[order], vecs[:, order]
    scale = float(abs(L).sum(axis=1).max())  # ≥ ‖L‖₂: the checks are relative, so any scale of weights passes
    if abs(vals[0]) > 1e-8 * scale:
        raise ValueError(f"smallest Laplacian eigenvalue is {vals[0]:.3g}, not 0: is the graph connected?")
    vals, vecs = vals[1 : d + 1], vecs[:, 1 : d + 1]
    if vals[0] <= 1e-10 * scale:
        raise ValueError(
            f"the graph is connected, but its algebraic connectivity {vals[0]:.3g} is below what double precision "
            f"resolves at the scale of L (1e-10 of its largest absolute row sum, {scale:.3g}): a bridge of tiny weight "
            "between heavy parts, or weights of very different scales; strengthen or cut the weak edges, or "
            "rescale the weights (e.g. S / S.max())"
        )
    resid = np.linalg.norm(L @ vecs - vecs * vals, axis=0).max()
    if not np.isfinite(resid) or resid > max(1e-6 * scale, 10.0 * slack * float(vals[-1])):
        raise RuntimeError(f"{method} eigensolver did not converge (max residual {resid:.3g})")
    return np.ascontiguousarray(vals, dtype=np.float64), vecs


# --------------------------------------------------------------------------- cache
def _digest(vals, vecs, split):
    h = hashlib.sha256()
    for a in (vals, vecs, split):
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def _read_cache(path, key, n, d):
    if not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as z:
            if int(z["version"]) < _CACHE_VERSION:
                return None  # an older library's format: recomputed and overwritten, nothing is wrong
            ok = (
                int(z["version"]) == _CACHE_VERSION
                and str(z["key"]) == key
                and z["eigenvalues"].shape == (d,)
                and z["eigenvectors"].shape == (n, d)
            )
            if ok:
                vals, vecs = z["eigenvalues"], z["eigenvectors"]
                split = z["split"]
                ok = str(z["digest"]) == _digest(vals, vecs, split)
                split = (float(split[0]), int(split[1]), int(split[2])) if split.size == 3 else None
    except Exception:  # truncated zip, bad header, missing key, ...
        ok = False
    if not ok:
        warnings.warn(
            f"spectral cache {path} is corrupted or stale: recomputing", RuntimeWarning, stacklevel=3
        )
        return None
    return vals, vecs, split


def _write_cache(path, key, vals, vecs, split):
    """Store the embedding; a folder that cannot be written costs a warning, not the result."""
    stored = np.array(split if split is not None else [], dtype=np.float64)
    try:
        with atomic_path(path) as tmp:
            np.savez(
                tmp,
                version=_CACHE_VERSION,
                key=key,
                eigenvalues=vals,
                eigenvectors=vecs,
                split=stored,
                digest=_digest(vals, vecs, stored),
            )
    except OSError as exc:
        warnings.warn(
            f"spectral embedding not cached: cannot write {path} ({exc}); returning it anyway",
            RuntimeWarning,
            stacklevel=3,
        )
