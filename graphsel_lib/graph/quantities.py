"""Graph quantities of the bounds: eccentricity ``ρ_t``, ``K_tt = (L^+)_tt``, effective resistance."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse.linalg as spla
from scipy.sparse import csgraph

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from .types import Adjacency
from .checks import check_adjacency
from .laplacians import laplacian, laplacian_pinv


# --------------------------------------------------------------------------- graph quantities
def eccentricity(S: Adjacency, *, lengths: str = "hops", chunk: int = 512) -> np.ndarray:
    """Eccentricity ``ρ_t = max_q dist(t, q)`` of every node (Herbster–Pontil slides, the bound ``K_tt ≤ ρ_t``).

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Weights of a connected undirected graph.
    lengths : {"hops", "resistance"}, default "hops"
        ``"hops"`` counts edges (the slides' definition, unweighted);
        ``"resistance"`` gives edge ``(i, j)`` the length ``1/S_ij``, the
        series resistance of a path, which makes ``K_tt ≤ ρ_t`` hold on
        weighted graphs too (Cauchy–Schwarz along the path; equal to
        ``"hops"`` when all weights are 1).
    chunk : int, default 512
        Sources per breadth-first / Dijkstra search (memory ``O(chunk · n)``).

    Returns
    -------
    ndarray of shape (n_nodes,)

    Raises
    ------
    ValueError
        The graph is disconnected, or ``lengths`` is unknown.

    Examples
    --------
    >>> path = np.array([[0, 2, 0, 0], [2, 0, 2, 0], [0, 2, 0, 2], [0, 0, 2, 0]])
    >>> eccentricity(path).tolist(), eccentricity(path, lengths="resistance").tolist()
    ([3.0, 2.0, 2.0, 3.0], [1.5, 1.0, 1.0, 1.5])
    """
    S = check_adjacency(S, require_connected=True, drop_loops=True)
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


def kernel_diagonal(S: Adjacency) -> np.ndarray:
    """Exact ``K_tt = (L^+)_tt``, the diagonal of the graph kernel (dense pseudo-inverse: small graphs).

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Weights of a connected undirected graph.

    Returns
    -------
    ndarray of shape (n_nodes,)
        ``K_tt`` for every node ``t``.

    Raises
    ------
    ValueError
        The graph is disconnected or too large for :func:`laplacian_pinv`.

    Examples
    --------
    >>> path = np.array([[0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 0]])
    >>> kernel_diagonal(path).round(6).tolist()
    [0.875, 0.375, 0.375, 0.875]
    """
    return np.diag(laplacian_pinv(S)).copy()


def effective_resistance(S: Adjacency, pairs: ArrayLike | None = None) -> np.ndarray:
    """Effective resistance ``r(i, j) = K_ii + K_jj - 2 K_ij`` with ``K = L^+``.

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Weights of a connected undirected graph.
    pairs : array-like of int of shape (m, 2), optional
        Node pairs; their resistances come from one sparse factorisation of
        the grounded Laplacian (node ``n-1`` removed):
        ``r(i, j) = (e_i - e_j)^T L_g^{-1} (e_i - e_j)``. Default: every pair,
        from the dense ``L^+`` (small graphs).

    Returns
    -------
    ndarray of shape (m,), or (n_nodes, n_nodes) without ``pairs``

    Raises
    ------
    ValueError
        The graph is disconnected, ``pairs`` is not ``(m, 2)`` or names a node out of range.

    Examples
    --------
    On the 4-cycle, neighbours are 1 Ω in parallel with 3 Ω, opposite nodes 2 Ω in parallel with 2 Ω:

    >>> cycle = np.array([[0, 1, 0, 1], [1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 1, 0]])
    >>> effective_resistance(cycle, [[0, 1], [0, 2]]).round(6).tolist()
    [0.75, 1.0]
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
