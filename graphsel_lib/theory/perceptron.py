"""Herbster & Pontil (NIPS 2006), the graph perceptron: its kernel bound and mistake bounds.

With ``L^+`` the reproducing kernel of ``H = {g : Σ g = 0}`` under ``<f, g> = f^T L g`` and
``K_tt = (L^+)_tt``: ``K_tt ≤ min(1/λ_2, ρ_t)`` (slides, "Bound # of mistakes"; ``ρ_t`` the
eccentricity of ``t``) and the perceptron on ``x_t = K_t`` makes ``|M| ≤ ||y||² max_t K_tt
= 4 Φ(y) max_t K_tt`` mistakes for ``y ∈ {-1,+1}^n`` (``Φ`` the cut size); the hinge-loss form
bounds any comparator.
"""

from __future__ import annotations

import numpy as np

from ..graph import check_adjacency, cut_size, eccentricity, kernel_diagonal
from ..spectral import any_basis, spectral_embedding


def algebraic_connectivity(S) -> float:
    """``λ_2``, the smallest non-zero eigenvalue of ``L`` of a connected graph.

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Symmetric non-negative weights of a connected graph.

    Returns
    -------
    float
        ``λ_2`` of ``L = D − S``, from :func:`~graphsel_lib.spectral.spectral_embedding`
        with ``d = 1`` (not cached).

    Examples
    --------
    The path on five nodes: ``λ_2 = 2 − 2 cos(π/5)``.

    >>> P5 = np.diag(np.ones(4), 1)
    >>> round(algebraic_connectivity(P5 + P5.T), 4)
    0.382
    """
    with any_basis():  # only the eigenvalue is used: a repeated λ_2 is no concern
        return float(spectral_embedding(S, 1, cache=False).eigenvalues[0])


def kernel_diagonal_bound(S, *, lengths="hops") -> np.ndarray:
    """``min(1/λ_2, ρ_t)`` for every node ``t`` (Herbster & Pontil; slides' theorem).

    The slides state it for unweighted graphs with ``ρ_t`` in hops; for a
    weighted graph pass ``lengths="resistance"`` (edge length ``1/S_ij``), for
    which the same proof goes through. With ``lengths="hops"`` the graph must be
    unweighted (all weights 1), otherwise the bound need not hold: ``ValueError``.

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Symmetric non-negative weights of a connected graph.
    lengths : {"hops", "resistance"}, default "hops"
        How :func:`~graphsel_lib.graph.eccentricity` measures ``ρ_t``: in edges,
        or with edge ``(i, j)`` of length ``1/S_ij``.

    Returns
    -------
    ndarray of shape (n_nodes,)
        ``min(1/λ_2, ρ_t)`` per node, an upper bound on ``K_tt = (L^+)_tt``.

    Raises
    ------
    ValueError
        A disconnected graph, or a weighted one with ``lengths="hops"``.

    Examples
    --------
    The path on five nodes: ``1/λ_2 ≈ 2.618`` binds except at the centre, where ``ρ_t = 2``.

    >>> P5 = np.diag(np.ones(4), 1)
    >>> kernel_diagonal_bound(P5 + P5.T).round(4).tolist()
    [2.618, 2.618, 2.0, 2.618, 2.618]
    """
    S = check_adjacency(S, require_connected=True)
    if lengths == "hops" and S.nnz and not np.allclose(S.data[S.data != 0], 1.0):
        raise ValueError(
            "kernel_diagonal_bound with lengths='hops' needs an unweighted graph; "
            "use lengths='resistance' for weighted graphs"
        )
    lam2 = algebraic_connectivity(S)
    return np.minimum(1.0 / lam2, eccentricity(S, lengths=lengths))


def perceptron_mistake_bound(S, y, *, K_diag=None) -> float:
    """``4 Φ(y) max_t K_tt``: Herbster–Pontil's bound on the graph perceptron's mistakes.

    Parameters
    ----------
    S : weight matrix of a connected graph
    y : array of shape (n,) in {-1, +1}
    K_diag : array of shape (n,), optional
        Kernel diagonal to use, e.g. ``kernel_diagonal_bound(S)`` or the
        rank-d ``(M^T M)_tt``; default: the exact ``diag(L^+)`` (dense, small graphs).

    Returns
    -------
    float
        ``4 Φ(y) max_t K_tt``, with ``Φ(y)`` the total weight of the cut edges
        (:func:`~graphsel_lib.graph.cut_size`).

    Notes
    -----
    ``y^T L y = 4 Φ(y)`` for ``y ∈ {±1}^n``: each cut edge adds ``w (1-(-1))^2 = 4w``.
    """
    S = check_adjacency(S, require_connected=True)
    y = np.asarray(y)
    if y.shape != (S.shape[0],):
        raise ValueError(f"y must have shape ({S.shape[0]},), got {y.shape}")
    if not np.all(np.isin(y, (-1, 1))):
        raise ValueError("y must take values in {-1, +1}")
    if K_diag is None:
        K_diag = kernel_diagonal(S)
    K_diag = np.asarray(K_diag, dtype=float)
    if K_diag.shape != y.shape:
        raise ValueError(f"K_diag must have shape {y.shape}, got {K_diag.shape}")
    return 4.0 * cut_size(S, y) * float(K_diag.max())


def perceptron_hinge_bound(loss, a):
    """The perceptron's mistake bound for any comparator ``u`` (chapter 03 §5, ``(∗)``).

    ``|𝓜| ≤ ℓ + a/2 + sqrt(ℓ a + a²/4)`` with ``ℓ = ℓ_𝓜(u) = Σ_{t∈𝓜} max(0, 1 − y_t⟨u, x_t⟩)``,
    the comparator's hinge loss on the learner's mistakes, and ``a = ||u||² R²``:
    the root of ``z² − √a z − ℓ ≤ 0`` in ``z = sqrt(|𝓜|)`` (the standard
    non-separable perceptron argument; Herbster & Pontil 2006 state it with
    ``ℓ = 2|𝓜 ∩ 𝓜_u|`` for a ``±1`` comparator). With ``ℓ = 0`` it is Novikoff's
    ``a``. Works elementwise on arrays.

    Parameters
    ----------
    loss : float or array-like
        ``ℓ ≥ 0``, the comparator's hinge loss on the learner's mistakes.
    a : float or array-like
        ``||u||² R² ≥ 0``, with ``R = max_t ||x_t||``; broadcast against ``loss``.

    Returns
    -------
    float or ndarray
        ``ℓ + a/2 + sqrt(ℓ a + a²/4)``, of the broadcast shape of ``loss`` and ``a``.

    Examples
    --------
    >>> float(perceptron_hinge_bound(0.0, 45.0)), float(perceptron_hinge_bound(4.0, 0.0))
    (45.0, 4.0)
    """
    loss, a = np.asarray(loss, dtype=float), np.asarray(a, dtype=float)
    return loss + a / 2 + np.sqrt(loss * a + a**2 / 4)
