"""Laplacians (``L = D - S``, gu2013 Sec. 3), the pseudo-inverse, cut sizes and the Fiedler vector."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from .types import Adjacency
from .checks import check_adjacency


# --------------------------------------------------------------------------- Laplacians
def laplacian(S: Adjacency) -> sp.csr_matrix:
    """Combinatorial Laplacian ``L = D - S`` (sparse CSR), gu2013 Sec. 3.

    Self-loops cancel: they add the same amount to ``D`` and to ``S``.

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Symmetric non-negative weights.

    Returns
    -------
    scipy.sparse.csr_matrix of shape (n_nodes, n_nodes)

    Raises
    ------
    ValueError, TypeError
        ``S`` is not a valid weight matrix (see :func:`check_adjacency`).

    Examples
    --------
    >>> laplacian(np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]])).toarray()
    array([[ 1., -1.,  0.],
           [-1.,  2., -1.],
           [ 0., -1.,  1.]])
    """
    S = check_adjacency(S, drop_loops=True)
    deg = np.asarray(S.sum(axis=1)).ravel()
    return (sp.diags(deg) - S).tocsr()


def normalized_laplacian(S: Adjacency) -> sp.csr_matrix:
    """Symmetric normalised Laplacian ``I - D^{-1/2} S D^{-1/2}`` (sparse CSR), Zhou et al. 2004.

    Parameters
    ----------
    S
        As in :func:`laplacian`, with no isolated node.

    Returns
    -------
    scipy.sparse.csr_matrix of shape (n_nodes, n_nodes)
        Symmetric, with a unit diagonal.

    Raises
    ------
    ValueError
        A node is isolated (degree zero, where it is undefined), or ``S`` is not a valid weight matrix.

    Examples
    --------
    >>> P3 = np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]])
    >>> np.round(normalized_laplacian(P3).toarray(), 3).tolist()
    [[1.0, -0.707, 0.0], [-0.707, 1.0, -0.707], [0.0, -0.707, 1.0]]
    """
    S = check_adjacency(S, drop_loops=True)
    deg = np.asarray(S.sum(axis=1)).ravel()
    if np.any(deg <= 0):
        raise ValueError(f"normalized Laplacian undefined: {int(np.sum(deg <= 0))} isolated node(s)")
    dm = sp.diags(1.0 / np.sqrt(deg))
    n = S.shape[0]
    return (sp.identity(n, format="csr") - dm @ S @ dm).tocsr()


def laplacian_pinv(S: Adjacency, *, max_nodes: int = 20_000) -> np.ndarray:
    """Dense Moore–Penrose pseudo-inverse ``L^+`` of a connected graph.

    For a connected graph ``L^+ = (L + 11^T/n)^{-1} - 11^T/n`` (Herbster–Pontil):
    ``L`` and ``11^T/n`` act on orthogonal subspaces, so one dense solve gives it.

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Weights of a connected undirected graph.
    max_nodes : int, default 20000
        Largest graph accepted (the result is dense).

    Returns
    -------
    ndarray of shape (n_nodes, n_nodes)
        Symmetric; its rows sum to zero.

    Raises
    ------
    ValueError
        The graph is disconnected or has more than ``max_nodes`` nodes.

    Examples
    --------
    >>> path = np.array([[0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 0]])
    >>> (laplacian_pinv(path) * 8).round(6).tolist()
    [[7.0, 1.0, -3.0, -5.0], [1.0, 3.0, -1.0, -3.0], [-3.0, -1.0, 3.0, 1.0], [-5.0, -3.0, 1.0, 7.0]]
    """
    S = check_adjacency(S, require_connected=True)
    n = S.shape[0]
    if n > max_nodes:
        raise ValueError(f"laplacian_pinv is dense: {n} nodes > max_nodes={max_nodes}")
    L = laplacian(S).toarray()
    J = np.full((n, n), 1.0 / n)
    P = np.linalg.inv(L + J) - J
    return (P + P.T) / 2


def cut_size(S: Adjacency, f: ArrayLike) -> float:
    """Cut size Φ(f): total weight of the edges whose two ends carry different labels.

    For ``f ∈ {-1,+1}^n``, ``f^T L f = 4 Φ(f)`` (each cut edge contributes ``(1 - (-1))^2 = 4``).

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Symmetric non-negative weights.
    f : array-like of shape (n_nodes,)
        Any labelling (±1, ``0..K-1``, strings).

    Returns
    -------
    float
        ``Φ(f)``, a sum of edge weights.

    Raises
    ------
    ValueError
        ``f`` is not 1-D of length ``n_nodes``, or ``S`` is not a valid weight matrix.

    Examples
    --------
    >>> path = np.array([[0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 0]])
    >>> cut_size(path, ["a", "a", "b", "b"]), cut_size(path, [1, -1, 1, -1])
    (1.0, 3.0)
    """
    S = check_adjacency(S)
    f = np.asarray(f)
    if f.ndim != 1 or f.shape[0] != S.shape[0]:
        raise ValueError(f"f must be a 1-D array of length {S.shape[0]}, got shape {f.shape}")
    C = sp.triu(S, k=1).tocoo()
    return float(C.data[f[C.row] != f[C.col]].sum())


def cut_sizes_along(S: Adjacency, order: ArrayLike) -> np.ndarray:
    """Cut size ``Φ(f_k)`` of the labellings ``f_k`` that put ``+1`` on the first ``k`` nodes of ``order``.

    ``f_0 = -𝟙`` and ``f_n = +𝟙`` (both cut nothing); in between, ``Φ(f_k)``
    is :func:`cut_size` of the labelling that is ``+1`` on ``order[:k]`` and
    ``-1`` elsewhere (chapter 01's explorer: a threshold on the Fiedler vector
    against a random order). Cost ``O(n · |E|)``, for small graphs.

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Symmetric non-negative weights.
    order : array-like of int of shape (n_nodes,)
        A permutation of ``0..n_nodes-1``.

    Returns
    -------
    ndarray of shape (n_nodes + 1,)
        ``Φ(f_0), ..., Φ(f_n)``.

    Raises
    ------
    ValueError
        ``order`` is not a permutation of the nodes.

    Examples
    --------
    >>> path = np.array([[0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 0]])
    >>> cut_sizes_along(path, [0, 2, 1, 3]).tolist()
    [0.0, 1.0, 3.0, 1.0, 0.0]
    """
    S = check_adjacency(S)
    order = np.asarray(order)
    n = S.shape[0]
    if sorted(order.tolist()) != list(range(n)):
        raise ValueError(f"order must be a permutation of 0..{n - 1}")
    f = -np.ones(n)
    cuts = [cut_size(S, f)]
    for node in order:
        f[node] = 1.0
        cuts.append(cut_size(S, f))
    return np.array(cuts)


def fiedler_vector(S: Adjacency) -> np.ndarray:
    """The unit eigenvector of ``λ_2`` of ``L = D - S`` (dense), signed so that node 0 is not positive.

    [Fiedler 1973]: thresholding it gives labellings with a small cut. Where
    ``λ_2`` is repeated the vector is one of many (the eigensolver's choice).

    Parameters
    ----------
    S
        As in :func:`laplacian`.

    Returns
    -------
    ndarray of shape (n_nodes,)

    Raises
    ------
    ValueError, TypeError
        As in :func:`laplacian`.

    Examples
    --------
    On the path the Fiedler vector is ``cos(π(i + 1/2)/n)`` up to scale, increasing along the path:

    >>> path = np.array([[0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 0]])
    >>> np.round(fiedler_vector(path), 3).tolist()
    [-0.653, -0.271, 0.271, 0.653]
    """
    L = laplacian(S).toarray()
    v = np.linalg.eigh(L)[1][:, 1]
    return -v if v[0] > 0 else v
