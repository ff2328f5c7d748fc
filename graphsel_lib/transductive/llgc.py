"""Learning with local and global consistency (LLGC) solved exactly.

The combinatorial-Laplacian variant of LLGC that gu2013 writes as its Eq. 2
(Zhou et al., NIPS 2003, use the normalized Laplacian ``I - D^-1/2 S D^-1/2``,
``laplacian="normalized"`` below):

    f = argmin_f  1/2 ||f - y||^2 + mu/2 f^T L f,   y_i = 0 on unlabelled nodes,
    L = D - S.

Setting the gradient to zero gives the linear system ``(I + mu L) f = y``. For
``K`` classes the targets are the one-hot rows ``Y`` (zero rows on unlabelled
nodes) and the ``K`` columns are independent problems sharing one matrix:

    (I + mu L) F = Y.

``I + mu L`` is symmetric positive definite for every ``mu > 0`` (L is positive
semi-definite), on any graph, connected or not: a component without a labelled
node gets ``F = 0`` (undetermined: :func:`llgc` warns, see
:func:`._common.warn_unreached`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

from .. import graph as _graph
from .._validation import check_integer, check_positive, renamed_parameter
from ._common import _check_solver, check_problem, solve_spd, warn_unreached

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from ..spectral import SpectralEmbedding
    from ._common import Adjacency

__all__ = ["llgc", "llgc_low_rank", "llgc_truncation_error"]

_LAPLACIANS = ("combinatorial", "normalized")


@renamed_parameter("labeled", "labelled")
def llgc(
    S: Adjacency,
    y: ArrayLike,
    labelled: ArrayLike,
    *,
    mu: float,
    n_classes: int | None = None,
    laplacian: str = "combinatorial",
    solver: str = "auto",
    tol: float = 1e-10,
    maxiter: int | None = None,
) -> np.ndarray:
    """LLGC scores: the exact solution ``F`` of ``(I + mu L) F = Y`` (gu2013 Eq. 2).

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Symmetric, non-negative, finite edge weights. The graph may be
        disconnected. Self-loops are ignored (they do not change ``L``).
    y : array-like of shape (n_nodes,)
        Class labels ``0..K-1``; only ``y[labelled]`` is used. Other entries
        may be true labels or unlabelled marks (``-1``, ``NaN``, ``None``);
        non-integers such as ``0.5`` raise anywhere.
    labelled : array-like of int of shape (l,) or of bool of shape (n_nodes,)
        The labelled nodes, as distinct indices or a boolean mask.
    mu : float
        Regularisation ``mu > 0``: weight of the smoothness term ``f^T L f``.
    n_classes : int, optional
        ``K``; default ``max(y) + 1`` over the whole ``y``. A class without a
        labelled node gets a column of zeros (never predicted; a
        :class:`~graphsel_lib._validation.DataWarning` names it).
    laplacian : {"combinatorial", "normalized"}, default "combinatorial"
        ``L = D - S`` (gu2013) or ``L_sym = I - D^-1/2 S D^-1/2`` (Zhou et al.
        2003, and networkx's ``local_and_global_consistency``: its fixed point
        ``(1 - alpha) (I - alpha D^-1/2 S D^-1/2)^-1 Y`` is this solution with
        ``alpha = mu / (1 + mu)``, i.e. ``mu = alpha / (1 - alpha)``).
    solver : {"auto", "direct", "cg", "amg"}, default "auto"
        Sparse LU (factorised once for the ``K`` columns), Jacobi-preconditioned
        or AMG-preconditioned conjugate gradient. ``"auto"``: LU up to 5,000
        nodes; above, Jacobi-CG, switching to AMG-CG if it has not converged
        in 300 iterations (see :func:`._common.solve_spd`). No dense
        ``n x n`` matrix is ever formed.
    tol : float, default 1e-10
        Relative residual at which CG stops (iterative solvers only).
    maxiter : int, optional
        CG iteration cap per column (iterative solvers only).

    Returns
    -------
    F : ndarray of shape (n_nodes, K)
        Scores; the prediction is ``F.argmax(axis=1)``.

    Raises
    ------
    ValueError
        If ``mu`` is not positive and finite, ``S`` is not a valid weight matrix
        (non-square, not symmetric, negative or non-finite weights), ``y`` has
        the wrong length or non-integer values, no node is labelled, ``labelled``
        has indices out of range or repeated, a label of a labelled node is
        outside ``0..K-1``, ``solver`` is unknown, or (normalized Laplacian
        only) a node is isolated.
    TypeError
        If ``labelled`` is neither integer nor boolean, or ``S`` is not numeric.

    Warns
    -----
    ConvergenceWarning
        If an iterative solve stops before ``tol``.
    DataWarning
        If a class has no labelled node, or a connected component of ``S``
        has none (its rows of ``F`` are 0: ``argmax`` would say class 0).

    References
    ----------
    Gu, Aggarwal, Liu, Han. Selective Sampling on Graphs for Classification.
    KDD 2013, Eq. 2. Zhou, Bousquet, Lal, Weston, Schölkopf. Learning with
    Local and Global Consistency. NIPS 2003.

    Examples
    --------
    Two nodes joined by an edge, node 0 labelled with class 0 and node 1 with
    class 1, ``mu = 1``: ``(I + L) F = I`` with ``I + L = [[2, -1], [-1, 2]]``.

    >>> import numpy as np
    >>> F = llgc(np.array([[0, 1], [1, 0]]), [0, 1], [0, 1], mu=1.0)
    >>> np.round(F * 3, 12)
    array([[2., 1.],
           [1., 2.]])
    """
    mu = check_positive(mu, "mu")
    if laplacian not in _LAPLACIANS:
        raise ValueError(f"laplacian must be one of {_LAPLACIANS}, got {laplacian!r}")
    _check_solver(solver)
    prob = check_problem(S, y, labelled, n_classes=n_classes)
    n = prob.n_nodes
    if laplacian == "combinatorial":
        L = _graph.laplacian(prob.S)
    else:
        L = _graph.normalized_laplacian(prob.S)
    warn_unreached(prob, "llgc")
    A = (sp.identity(n, format="csr") + mu * L).tocsr()
    Y = np.zeros((n, prob.n_classes))
    Y[prob.labelled, prob.y_labelled] = 1.0
    cols = np.flatnonzero(Y.any(axis=0))  # classes without a labelled node: F[:, k] = 0
    F = np.zeros((n, prob.n_classes))
    if cols.size:
        F[:, cols] = solve_spd(A, Y[:, cols], solver=solver, tol=tol, maxiter=maxiter)
    return F


# --------------------------------------------------------------------------- LLGC as ridge regression (chapter 04)


def llgc_low_rank(
    emb: SpectralEmbedding, Y: ArrayLike, mu: float, d: int, *, form: str = "ridge"
) -> np.ndarray:
    """LLGC with the rank-``d`` kernel ``L_d^+ = M_dᵀM_d``, plus the mean (chapter 04 §4).

    ``form="ridge"`` solves the ``d × d`` ridge problem ``(M_dM_dᵀ + µI)W = M_dY``
    and returns ``M_dᵀW + 𝟙Ȳ`` (``Ȳ`` the column means of ``Y``); ``form="spectral"``
    evaluates the same scores as the truncated filter
    ``𝟙Ȳ + Σ_{i≤d} v_i (v_iᵀY)/(1 + µσ_i)`` (``M_dM_dᵀ = diag(1/σ_1, …, 1/σ_d)``).
    At ``d = n − 1`` both are LLGC itself (gu2013 Eq. 2 with ``L = D − S``).

    Parameters
    ----------
    emb : SpectralEmbedding
        At least ``d`` eigenpairs of ``L = D − S``.
    Y : array-like of shape (n, K) or (n,)
        The targets (zero rows on unlabelled nodes).
    mu : float
        Regularisation ``µ > 0``.
    d : int
        The rank (``emb.truncate(d)``; a rank that cuts a repeated
        eigenvalue warns, ``SplitEigenvalueWarning``).
    form : {"ridge", "spectral"}, default "ridge"

    Returns
    -------
    ndarray of the shape of ``Y``

    Raises
    ------
    ValueError
        ``form`` is unknown, ``mu`` is not positive and finite, or ``d`` exceeds the pairs of ``emb``.

    Examples
    --------
    On the 4-node path at full rank ``d = 3`` it is LLGC, ``21 F = [[13, 1], [5, 2], [2, 5], [1, 13]]``:

    >>> from graphsel_lib.spectral import spectral_embedding
    >>> path = np.array([[0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 0]])
    >>> emb = spectral_embedding(path, 3, cache=False)
    >>> Y = np.array([[1, 0], [0, 0], [0, 0], [0, 1]])
    >>> (llgc_low_rank(emb, Y, 1.0, 3) * 21).round(6).tolist()
    [[13.0, 1.0], [5.0, 2.0], [2.0, 5.0], [1.0, 13.0]]
    """
    if form not in ("ridge", "spectral"):
        raise ValueError(f"form must be 'ridge' or 'spectral', got {form!r}")
    mu = check_positive(mu, "mu")
    Y = np.asarray(Y, dtype=float)
    e = emb.truncate(d)
    if form == "ridge":
        Md = e.M
        W = np.linalg.solve(Md @ Md.T + mu * np.eye(d), Md @ Y)  # rank-d ridge regression
        return Md.T @ W + Y.mean(axis=0)
    coef = e.eigenvectors.T @ Y
    filt = 1 / (1 + mu * e.eigenvalues)
    return Y.mean(axis=0) + e.eigenvectors @ (coef * (filt[:, None] if Y.ndim == 2 else filt))


def llgc_truncation_error(emb: SpectralEmbedding, Y: ArrayLike, mu: float, d: int) -> float:
    """``||F* − F_d||²_F = Σ_{i>d} ||v_iᵀY||² / (1 + µσ_i)²``: what the rank-``d`` kernel drops (chapter 04 §4).

    ``F*`` is LLGC with the kernel of ``emb`` (all ``n − 1`` pairs: the exact
    LLGC) and ``F_d`` its rank-``d`` version :func:`llgc_low_rank`; the
    directions ``v_i``, ``i > d``, are cut off instead of damped by
    ``1/(1 + µσ_i)``.

    Parameters
    ----------
    emb : SpectralEmbedding
        The eigenpairs of ``L = D − S`` (all ``n − 1`` for the exact LLGC).
    Y : array-like of shape (n, K) or (n,)
        The targets (zero rows on unlabelled nodes).
    mu : float
        Regularisation ``µ > 0``.
    d : int
        The rank kept.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        ``mu`` is not positive and finite, or ``d`` is not in ``0 … len(emb.eigenvalues)``.

    Examples
    --------
    >>> from graphsel_lib.spectral import spectral_embedding
    >>> path = np.array([[0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 0]])
    >>> emb = spectral_embedding(path, 3, cache=False)
    >>> Y = np.array([[1, 0], [0, 0], [0, 0], [0, 1]])
    >>> round(llgc_truncation_error(emb, Y, 1.0, 1), 6), llgc_truncation_error(emb, Y, 1.0, 3)
    (0.063071, 0.0)
    """
    mu = check_positive(mu, "mu")
    d = check_integer(d, "d", minimum=0, maximum=emb.eigenvalues.shape[0])
    Y = np.asarray(Y, dtype=float)
    tail = emb.eigenvectors[:, d:].T @ (Y if Y.ndim == 2 else Y[:, None])
    return float(np.sum(tail**2 / (1 + mu * emb.eigenvalues[d:, None]) ** 2))
