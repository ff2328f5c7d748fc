"""Kernel and mistake bounds of the graph perceptron (Herbster & Pontil, NIPS 2006).

With ``K = L^+`` the reproducing kernel of ``H = {g : Σ g = 0}`` under the
inner product ``<f, g> = f^T L g``:

* ``K_tt = ||K_t||^2 ≤ min(1/λ_2, ρ_t)`` (slides, "Bound # of mistakes"),
  ``ρ_t`` the eccentricity of ``t``;
* the perceptron on ``x_t = K_t`` makes ``|M| ≤ ||y||^2 max_t K_tt
  = 4 Φ(y) max_t K_tt`` mistakes for ``y ∈ {-1,+1}^n`` (``Φ`` = cut size);
* ``K_tt ≤ max_q r(t, q)`` with ``r`` the effective resistance.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse.linalg as spla
from scipy.sparse import csgraph

from .graph import check_adjacency, cut_size, laplacian, laplacian_pinv
from .spectral import spectral_embedding

__all__ = [
    "algebraic_connectivity",
    "eccentricity",
    "kernel_diagonal",
    "kernel_diagonal_bound",
    "perceptron_mistake_bound",
    "effective_resistance",
]


def algebraic_connectivity(S) -> float:
    """``λ_2``, the smallest non-zero eigenvalue of ``L`` of a connected graph."""
    return float(spectral_embedding(S, 1, cache=False).eigenvalues[0])


def eccentricity(S, *, lengths="hops", chunk=512) -> np.ndarray:
    """Eccentricity ``ρ_t = max_q dist(t, q)`` of every node.

    ``lengths="hops"`` counts edges (the slides' definition, unweighted);
    ``lengths="resistance"`` gives edge ``(i, j)`` the length ``1/S_ij``, the
    series resistance of a path, which makes the bound ``K_tt ≤ ρ_t`` hold on
    weighted graphs too (Cauchy–Schwarz along the path; equal to "hops" when
    all weights are 1). Computed by breadth-first / Dijkstra searches in chunks
    of ``chunk`` sources (memory ``O(chunk · n)``).
    """
    S = check_adjacency(S, require_connected=True)
    S.setdiag(0)
    S.eliminate_zeros()
    if lengths == "hops":
        G, unweighted = S, True
    elif lengths == "resistance":
        G = S.copy()
        G.data = 1.0 / G.data
        unweighted = False
    else:
        raise ValueError(f"lengths must be 'hops' or 'resistance', got {lengths!r}")
    n = S.shape[0]
    ecc = np.empty(n)
    for start in range(0, n, chunk):
        idx = np.arange(start, min(n, start + chunk))
        dist = csgraph.shortest_path(G, directed=False, unweighted=unweighted, indices=idx)
        ecc[idx] = dist.max(axis=1)
    return ecc


def kernel_diagonal(S) -> np.ndarray:
    """Exact ``K_tt = (L^+)_tt`` (dense pseudo-inverse: small graphs)."""
    return np.diag(laplacian_pinv(S)).copy()


def kernel_diagonal_bound(S, *, lengths="hops") -> np.ndarray:
    """``min(1/λ_2, ρ_t)`` for every node ``t`` (Herbster & Pontil; slides' theorem).

    The slides state it for unweighted graphs with ``ρ_t`` in hops; for a
    weighted graph pass ``lengths="resistance"`` (edge length ``1/S_ij``), for
    which the same proof goes through. With ``lengths="hops"`` the graph must be
    unweighted (all weights 1), otherwise the bound need not hold: ``ValueError``.
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


def effective_resistance(S, pairs=None):
    """Effective resistance ``r(i, j) = K_ii + K_jj - 2 K_ij`` with ``K = L^+``.

    ``pairs=None`` returns the dense n × n matrix (small graphs). Otherwise
    ``pairs`` is an (m, 2) array of node indices and the m resistances are
    computed from one sparse factorisation of the grounded Laplacian (node
    ``n-1`` removed): ``r(i, j) = (e_i - e_j)^T L_g^{-1} (e_i - e_j)``.
    """
    S = check_adjacency(S, require_connected=True)
    n = S.shape[0]
    if pairs is None:
        K = laplacian_pinv(S)
        dg = np.diag(K)
        return dg[:, None] + dg[None, :] - 2 * K
    pairs = np.asarray(pairs)
    if pairs.ndim != 2 or pairs.shape[1] != 2:
        raise ValueError(f"pairs must have shape (m, 2), got {pairs.shape}")
    if pairs.size and (pairs.min() < 0 or pairs.max() >= n):
        raise ValueError(f"pair indices must be in 0..{n - 1}")
    if n == 1:
        return np.zeros(len(pairs))
    Lg = laplacian(S)[: n - 1, : n - 1].tocsc()
    lu = spla.splu(Lg, permc_spec="MMD_AT_PLUS_A")
    out = np.empty(len(pairs))
    for k, (i, j) in enumerate(pairs):
        b = np.zeros(n)
        b[i] += 1.0
        b[j] -= 1.0
        x = lu.solve(b[: n - 1])
        out[k] = b[: n - 1] @ x
    return out
