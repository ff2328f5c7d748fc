"""Random spanning trees and WTA (chapter 13).

:func:`spanning_tree_count` (the matrix-tree theorem) and :func:`enumerate_spanning_trees` (brute
force, small graphs); :func:`edge_in_tree_probability` (Kirchhoff: ``P(e ∈ T) = w_e R_e``),
:func:`tree_edge_frequencies` (the same by Wilson's sampler), :func:`expected_tree_cut`;
:func:`tree_and_line_cuts`, :func:`wta_mistake_bound` and :func:`wta_expected_mistake_bound`
(the sweeps that run WTA and S² against these bounds are in :mod:`graphsel_lib.course.atlas`).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph

from ..graph import check_adjacency, effective_resistance, laplacian
from ..online.wta import SpanningTreeSampler


def _edge_list(S):
    """``(edges, weights)`` of ``S``: each edge once as ``(i, j)`` with ``i < j``, in row-major order."""
    C = sp.triu(check_adjacency(S), k=1).tocoo()
    keep = C.data != 0
    order = np.lexsort((C.col[keep], C.row[keep]))
    edges = np.column_stack([C.row[keep], C.col[keep]])[order].astype(np.int64)
    return edges, C.data[keep][order].astype(float)


def spanning_tree_count(S, *, log=False, node=None):
    """The matrix-tree theorem: ``Σ_T Π_{e∈T} S_e`` = any cofactor of ``L`` (Kirchhoff 1847).

    For an unweighted graph this is the number of spanning trees. Computed as
    ``det L`` with row and column ``node`` removed (default the last node; any
    node gives the same value) by a dense LU (``slogdet``), so for graphs of up
    to a few thousand nodes. ``log=True`` returns the natural logarithm, which
    does not overflow (Cora's count has more than a thousand digits). A
    disconnected graph has no spanning tree: 0 (``-inf`` with ``log``).

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Symmetric non-negative weights.
    log : bool, default False
        Return the natural logarithm of the sum.
    node : int, optional
        The row and column removed from ``L``; default ``n_nodes − 1``.

    Returns
    -------
    float
        ``Σ_T Π_{e∈T} S_e`` (1 for a single node), or its logarithm with ``log=True``.

    Raises
    ------
    ValueError
        ``S`` is not a valid weight matrix, or ``node`` is outside ``0..n_nodes − 1``.

    Examples
    --------
    Cayley: the complete graph on four nodes has ``4^(4−2) = 16`` spanning trees.

    >>> K4 = np.ones((4, 4)) - np.eye(4)
    >>> round(spanning_tree_count(K4)), round(spanning_tree_count(K4, log=True), 4)
    (16, 2.7726)
    """
    S = check_adjacency(S)
    n = S.shape[0]
    if n == 1:
        return 0.0 if log else 1.0
    node = n - 1 if node is None else int(node)
    if not 0 <= node < n:
        raise ValueError(f"node must be in 0..{n - 1}, got {node}")
    if csgraph.connected_components(S, directed=False)[0] != 1:
        return -np.inf if log else 0.0
    keep = np.arange(n) != node
    L = laplacian(S).toarray()[np.ix_(keep, keep)]
    sign, logdet = np.linalg.slogdet(L)
    if sign <= 0:
        return -np.inf if log else 0.0
    return float(logdet) if log else float(np.exp(logdet))


def enumerate_spanning_trees(S, *, max_subsets=2_000_000):
    """Every spanning tree of a small graph by brute force: ``(edges, trees)``.

    ``edges`` is the ``(m, 2)`` edge list (``i < j``), ``trees`` an array of
    shape ``(count, n − 1)`` of edge indices, one row per spanning tree: every
    subset of ``n − 1`` edges is tested for connectivity (a union–find), so
    ``C(m, n − 1)`` must stay below ``max_subsets``.

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Symmetric non-negative weights; only which entries are non-zero matters.
    max_subsets : int, default 2_000_000
        The most subsets ``C(m, n − 1)`` to test.

    Returns
    -------
    edges : ndarray of int of shape (m, 2)
        Every edge once, ``i < j``, in row-major order.
    trees : ndarray of int of shape (n_trees, n_nodes − 1)
        One spanning tree per row, as increasing indices into ``edges``; rows
        in lexicographic order.

    Raises
    ------
    ValueError
        ``C(m, n − 1) > max_subsets``.

    Examples
    --------
    >>> edges, trees = enumerate_spanning_trees(np.ones((3, 3)) - np.eye(3))
    >>> edges.tolist(), trees.tolist()
    ([[0, 1], [0, 2], [1, 2]], [[0, 1], [0, 2], [1, 2]])
    """

    edges, _ = _edge_list(S)
    n, m = S.shape[0], len(edges)
    if math.comb(m, n - 1) > max_subsets:
        raise ValueError(f"C({m}, {n - 1}) = {math.comb(m, n - 1)} subsets: too many to enumerate")

    def find(parent, a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    trees = []
    for subset in itertools.combinations(range(m), n - 1):
        parent = list(range(n))
        ok = True
        for k in subset:
            a, b = find(parent, int(edges[k, 0])), find(parent, int(edges[k, 1]))
            if a == b:  # a cycle: n - 1 edges with a cycle cannot span
                ok = False
                break
            parent[a] = b
        if ok:
            trees.append(subset)
    return edges, np.asarray(trees, dtype=np.int64).reshape(-1, n - 1)


@dataclass
class EdgeInTree:
    """Kirchhoff's edge probabilities of a graph, one entry per edge (``i < j``, row-major).

    Built by :func:`edge_in_tree_probability`.

    Parameters
    ----------
    edges : ndarray of int of shape (m, 2)
        The edges ``(i, j)``, ``i < j``, in row-major order.
    weight : ndarray of shape (m,)
        ``w_e = S_ij``.
    resistance : ndarray of shape (m,)
        ``R_e``, the effective resistance between the ends of ``e``.
    probability : ndarray of shape (m,)
        ``w_e R_e = P(e ∈ T)`` for ``T`` drawn with probability ``∝ Π_{e∈T} w_e``.
    """

    edges: np.ndarray  #: (m, 2)
    weight: np.ndarray  #: w_e
    resistance: np.ndarray  #: R_e, the effective resistance between the ends of e
    probability: np.ndarray  #: w_e R_e = P(e in T) for T drawn with probability ∝ Π w_e


def edge_in_tree_probability(S):
    """``P(e ∈ T) = w_e R_e`` for every edge (Kirchhoff 1847), ``T`` drawn ``∝ Π_{e∈T} w_e``.

    ``R_e`` is :func:`effective_resistance` between the ends of ``e`` (one
    sparse factorisation); for an unweighted graph ``T`` is a uniform spanning
    tree and ``P(e ∈ T) = R_e``. The probabilities sum to ``n − 1`` (Foster's
    theorem: every tree has ``n − 1`` edges). Returns an :class:`EdgeInTree`.

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Symmetric non-negative weights ``w_e`` of a connected graph.

    Returns
    -------
    EdgeInTree
        One entry per edge, ``i < j``, in row-major order.

    Raises
    ------
    ValueError
        ``S`` is not a valid weight matrix or is disconnected.

    Examples
    --------
    Each edge of a triangle is in two of its three spanning trees:

    >>> p = edge_in_tree_probability(np.ones((3, 3)) - np.eye(3))
    >>> p.probability.round(4).tolist(), round(float(p.probability.sum()), 10)
    ([0.6667, 0.6667, 0.6667], 2.0)
    """
    S = check_adjacency(S, require_connected=True)
    edges, w = _edge_list(S)
    R = effective_resistance(S, edges)
    return EdgeInTree(edges, w, R, w * R)


def tree_edge_frequencies(S, n_draws, seed=0):
    """Share of ``n_draws`` Wilson trees (:class:`~graphsel_lib.online.wta.SpanningTreeSampler`) holding each edge.

    Returns ``(edges, frequency)`` with the edges of :func:`edge_in_tree_probability`
    (``i < j``, row-major). Each count is binomial with ``n_draws`` trials and
    success probability ``w_e R_e``: its standard error is
    ``sqrt(p (1 − p) / n_draws)``.

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Symmetric non-negative weights of a connected graph.
    n_draws : int
        Number of trees drawn.
    seed : int, numpy.random.Generator or None, default 0
        Passed to ``numpy.random.default_rng``: a generator is used as given
        (its stream continues), a seed starts a new one.

    Returns
    -------
    edges : ndarray of int of shape (m, 2)
        Every edge once, ``i < j``, in row-major order.
    frequency : ndarray of shape (m,)
        The share of the ``n_draws`` trees that hold each edge.
    """
    S = check_adjacency(S, require_connected=True)
    edges, _ = _edge_list(S)
    n = S.shape[0]
    index = {(int(i), int(j)): k for k, (i, j) in enumerate(edges)}
    sampler = SpanningTreeSampler(S)
    rng = np.random.default_rng(seed)
    counts = np.zeros(len(edges))
    for _ in range(int(n_draws)):
        E = np.sort(sampler.draw(rng).edges(), axis=1)
        counts[[index[(int(a), int(b))] for a, b in E]] += 1
    assert counts.sum() == n_draws * (n - 1)
    return edges, counts / n_draws


def expected_tree_cut(S, labels, *, weighted=False):
    """Expected cut of ``labels`` on a random spanning tree (``∝ Π w_e``): ``Σ_{cut e} w_e R_e`` edges.

    By linearity, ``E[Φ⁰_T] = Σ_{e cut} P(e ∈ T) = Σ_{e cut} w_e R_e`` for the
    number of cut tree edges, at most the number of cut graph edges; with
    ``weighted=True`` the weighted cut ``E[Φ_T] = Σ_{e cut} w_e · w_e R_e ≤ Φ(y)``.
    For an unweighted graph both are ``Σ_{e cut} R_e``.

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Symmetric non-negative weights of a connected graph.
    labels : array-like of shape (n_nodes,)
        Any labelling; an edge is cut when its two ends carry different labels.
    weighted : bool, default False
        Weigh each cut tree edge by ``w_e`` (``E[Φ_T]``) instead of counting it (``E[Φ⁰_T]``).

    Returns
    -------
    float
        ``E[Φ⁰_T]``, or ``E[Φ_T]`` with ``weighted=True``.

    Raises
    ------
    ValueError
        ``S`` is not a valid weight matrix or is disconnected, or ``labels`` has the wrong shape.

    Examples
    --------
    On a triangle, the node labelled apart has two cut edges, each in a tree with probability 2/3:

    >>> round(expected_tree_cut(np.ones((3, 3)) - np.eye(3), [0, 0, 1]), 4)
    1.3333
    """
    p = edge_in_tree_probability(S)
    y = np.asarray(labels)
    if y.shape != (S.shape[0],):
        raise ValueError(f"labels must have shape ({S.shape[0]},), got {y.shape}")
    cut = y[p.edges[:, 0]] != y[p.edges[:, 1]]
    return float(np.sum((p.weight * p.probability if weighted else p.probability)[cut]))


def tree_and_line_cuts(tree, line, labels):
    """Cuts of ``labels`` on one spanning tree and on its WTA line (:func:`~graphsel_lib.online.wta.tree_line`).

    Returns a dict: ``tree`` and ``line`` count the cut edges (label changes),
    ``tree_weighted`` and ``line_weighted`` sum their weights (a line edge
    carries the smallest weight on the tree path it replaces).

    Parameters
    ----------
    tree : SpanningTree
        A spanning tree, e.g. ``SpanningTreeSampler(S).draw(rng)``.
    line : WTALine
        Its line, ``tree_line(tree)``.
    labels : array-like of shape (n_nodes,)
        Any labelling; an edge is cut when its two ends carry different labels.

    Returns
    -------
    dict
        ``{"tree": int, "line": int, "tree_weighted": float, "line_weighted": float}``.
    """
    y = np.asarray(labels)
    E = tree.edges()
    cut_t = y[E[:, 0]] != y[E[:, 1]]
    cut_l = y[line.nodes[1:]] != y[line.nodes[:-1]]
    return {
        "tree": int(cut_t.sum()),
        "line": int(cut_l.sum()),
        "tree_weighted": float(tree.weight[E[:, 0]][cut_t].sum()),
        "line_weighted": float(line.weights[cut_l].sum()),
    }


def wta_mistake_bound(line, labels):
    """``1 + Φ_L (1 + log₂(n − 1))``: the mistake bound of one-tree WTA on an unweighted graph.

    ``Φ_L`` is the number of label changes along the line. Our derivation
    (chapter 13 §5; the library's tests check it): with unit weights the
    nearest revealed position is the nearest in line order; the first round
    errs at most once; a later mistake falls in a stretch of the line between
    two revealed positions (or beyond the last) that holds a label change, and
    the nearest-neighbour rule makes it either uncover a new label change (at
    most ``Φ_L`` times) or halve the unrevealed gap around one (at most
    ``log₂(n − 1)`` times per change). Cesa-Bianchi et al. (2013) state the
    order ``E[Φ_T] log n`` of this bound.

    Parameters
    ----------
    line : WTALine
        The line of one spanning tree (:func:`~graphsel_lib.online.wta.tree_line`).
    labels : array-like of shape (n_nodes,)
        Any labelling of the nodes; ``n = len(labels)``.

    Returns
    -------
    float
        ``1 + Φ_L (1 + log₂ max(n − 1, 1))``.
    """

    y = np.asarray(labels)
    phi = int(np.sum(y[line.nodes[1:]] != y[line.nodes[:-1]]))
    return 1.0 + phi * (1.0 + math.log2(max(len(y) - 1, 1)))


def wta_expected_mistake_bound(S, labels):
    """``1 + 2 E[Φ_T] (1 + log₂(n − 1))``: one-tree WTA's mistake bound in expectation over the tree.

    :func:`wta_mistake_bound` bounds the mistakes on one line by
    ``1 + Φ_L (1 + log₂(n − 1))``; the line at most doubles the tree's cut
    (``Φ_L ≤ 2 Φ_T``, chapter 13 §4) and ``E[Φ_T] = Σ_{cut e} R_e``
    (:func:`expected_tree_cut`, Kirchhoff), so the expectation over the random
    tree is at most this number, for any labelling and order fixed before the
    tree is drawn. Unweighted graphs only, like the bound it averages.
    Cesa-Bianchi et al. (2013) state the order ``O(E[Φ_T] log n)``.

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Weights of a connected graph, all equal to 1.
    labels : array-like of shape (n_nodes,)
        Any labelling; an edge is cut when its two ends carry different labels.

    Returns
    -------
    float
        ``1 + 2 E[Φ_T] (1 + log₂ max(n − 1, 1))``.

    Raises
    ------
    ValueError
        A weighted or disconnected graph, or ``labels`` of the wrong shape.

    Examples
    --------
    >>> round(wta_expected_mistake_bound(np.ones((3, 3)) - np.eye(3), [0, 0, 1]), 4)  # 1 + 2 (4/3) 2
    6.3333
    """

    S = check_adjacency(S, require_connected=True)
    if S.nnz and not np.allclose(S.data, 1.0):
        raise ValueError(
            "wta_expected_mistake_bound needs an unweighted graph (the bound counts label changes)"
        )
    n = S.shape[0]
    return 1.0 + 2.0 * expected_tree_cut(S, labels) * (1.0 + math.log2(max(n - 1, 1)))
