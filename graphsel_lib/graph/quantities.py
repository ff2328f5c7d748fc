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
    """Eccentricity ``ρ_t = max_q dist(t, q)`` of every node.

    ``lengths="hops"`` counts edges (the slides' definition, unweighted);
    ``lengths="resistance"`` gives edge ``(i, j)`` the length ``1/S_ij``, the
    series resistance of a path, which makes the bound ``K_tt ≤ ρ_t`` hold on
    weighted graphs too (Cauchy–Schwarz along the path; equal to "hops" when
    all weights are 1). Computed by breadth-first / Dijkstra searches in chunks
    of ``chunk`` sources (memory ``O(chunk · n)``).
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
    """Exact ``K_tt = (L^+)_tt`` (dense pseudo-inverse: small graphs)."""
    return np.diag(laplacian_pinv(S)).copy()


def effective_resistance(S: Adjacency, pairs: ArrayLike | None = None) -> np.ndarray:
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
