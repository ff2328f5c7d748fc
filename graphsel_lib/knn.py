"""k-nearest-neighbour graphs from feature vectors (rows of a matrix)."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ._validation import as_real_matrix, check_integer

__all__ = ["knn_adjacency"]


def knn_adjacency(X, k, *, block_size=512):
    """Symmetrised, unweighted k-nearest-neighbour graph of the rows of ``X``.

    ``S_ij = 1`` if ``j`` is among the ``k`` nearest rows of ``i`` (Euclidean,
    excluding ``i`` itself) or ``i`` among those of ``j`` (``S = max(A, A^T)``).
    Ties at the ``k``-th distance go to the smaller index, so the graph is
    deterministic. Squared distances are computed as
    ``|x|^2 + |y|^2 - 2 x.y`` in float64: for integer-valued ``X`` (as the
    loaders pass) every intermediate value is an exact integer, so the graph is
    the same on every machine and BLAS.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    k : int, 1 <= k < n_samples

    Returns
    -------
    scipy.sparse.csr_matrix of shape (n_samples, n_samples)
    """
    X = as_real_matrix(X, "X", sparse=False)
    n = X.shape[0]
    k = check_integer(k, "k")
    if not 1 <= k < n:
        raise ValueError(f"k must be in 1..n_samples-1 = 1..{n - 1}, got {k}")
    sq = np.einsum("ij,ij->i", X, X)
    rows, cols = [], []
    for start in range(0, n, block_size):
        stop = min(n, start + block_size)
        D = sq[start:stop, None] + sq[None, :] - 2.0 * (X[start:stop] @ X.T)
        D[np.arange(stop - start), np.arange(start, stop)] = np.inf  # not your own neighbour
        kth = np.partition(D, k - 1, axis=1)[:, k - 1 : k]
        lt = D < kth
        eq = D == kth
        need = k - lt.sum(axis=1, keepdims=True)
        sel = lt | (eq & (np.cumsum(eq, axis=1) <= need))
        r, c = np.nonzero(sel)
        rows.append(r + start)
        cols.append(c)
    r = np.concatenate(rows)
    A = sp.coo_matrix((np.ones(r.size), (r, np.concatenate(cols))), shape=(n, n)).tocsr()
    return A.maximum(A.T).tocsr()
