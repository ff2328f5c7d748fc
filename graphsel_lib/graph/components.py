"""Connected components and breadth-first balls of a weight matrix."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph

if TYPE_CHECKING:
    from .types import Adjacency
from .._validation import check_integer


def n_components(S: Adjacency) -> int:
    """Number of connected components of the undirected graph ``S``.

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Symmetric weights.

    Returns
    -------
    int

    Examples
    --------
    >>> n_components(np.array([[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]]))
    2
    """
    return csgraph.connected_components(S, directed=False)[0]


def largest_connected_component(S: Adjacency) -> np.ndarray:
    """Indices (sorted) of the nodes in the largest connected component of ``S``.

    Ties between equally large components go to the one holding the smallest
    node index, so the choice is deterministic.

    Parameters
    ----------
    S
        As in :func:`n_components`.

    Returns
    -------
    ndarray of int

    Examples
    --------
    Two edges ``0-1`` and ``2-3``: the tie goes to the component of node 0.

    >>> S = np.array([[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]])
    >>> largest_connected_component(S).tolist()
    [0, 1]
    """
    _, comp = csgraph.connected_components(S, directed=False)
    sizes = np.bincount(comp)
    biggest = np.flatnonzero(sizes == sizes.max())
    first_node = [np.flatnonzero(comp == c)[0] for c in biggest]
    keep = biggest[int(np.argmin(first_node))]
    return np.flatnonzero(comp == keep)


def bfs_ball(S: Adjacency, size: int, *, root: int) -> np.ndarray:
    """The first ``size`` nodes (sorted) reached by breadth-first search from ``root``.

    Nested in ``size`` and connected (each node enters through an edge to an
    earlier one), so ``S[nodes][:, nodes]`` is a connected subgraph: the
    growing graphs of a scaling experiment (notebook 43).

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Symmetric weights.
    size : int
        Number of nodes, ``1..`` (size of the component of ``root``).
    root : int
        The start node.

    Returns
    -------
    ndarray of int of shape (size,)

    Raises
    ------
    TypeError
        ``root`` or ``size`` is not an integer (``2.7`` is not truncated).
    ValueError
        ``root`` out of range, or ``size`` not in ``1..`` (size of the
        component of ``root``).

    Examples
    --------
    >>> path = np.array([[0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 0]])
    >>> bfs_ball(path, 3, root=3).tolist()
    [1, 2, 3]
    """
    S = sp.csr_matrix(S)
    n = S.shape[0]
    root, size = check_integer(root, "root"), check_integer(size, "size")
    if not 0 <= root < n:
        raise ValueError(f"root must be a node in 0..{n - 1}, got {root}")
    order = csgraph.breadth_first_order(S, root, directed=False, return_predecessors=False)
    if not 1 <= size <= order.size:
        raise ValueError(f"size must be in 1..{order.size} (the component of node {root}), got {size}")
    return np.sort(order[:size])
