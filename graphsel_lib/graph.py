"""Graphs, input validation, Laplacians and graph quantities.

Notation follows gu2013 Sec. 3 and the Herbster–Pontil slides: ``S`` is the
symmetric non-negative weight matrix of an undirected graph, ``D`` the diagonal
degree matrix and ``L = D - S`` the combinatorial Laplacian, so that

    f^T L f = 1/2 * sum_ij S_ij (f_i - f_j)^2.

Graph quantities of the bounds: :func:`eccentricity` ``ρ_t``, :func:`kernel_diagonal`
``K_tt = (L^+)_tt`` and :func:`effective_resistance` ``r(i, j)``.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from scipy.sparse import csgraph

if TYPE_CHECKING:
    from collections.abc import Sequence
    from os import PathLike

    import networkx as nx
    from numpy.typing import ArrayLike

    #: A weight matrix as the functions take it: a dense array or a SciPy sparse matrix, (n, n).
    Adjacency: TypeAlias = ArrayLike | sp.spmatrix | sp.sparray

from ._validation import (
    UNLABELLED,
    DataWarning,
    UnlabelledNodesWarning,
    as_real_array,
    as_real_matrix,
    as_symmetric_matrix,
    check_class_labels,
    check_integer,
    check_weight_attribute,
    encode_labels,
    warn_lookalikes,
)

__all__ = [
    "DataWarning",
    "Graph",
    "check_adjacency",
    "check_labels",
    "largest_connected_component",
    "bfs_ball",
    "n_components",
    "laplacian",
    "normalized_laplacian",
    "laplacian_pinv",
    "cut_size",
    "cut_sizes_along",
    "fiedler_vector",
    "RANDOM_GRAPH_FAMILIES",
    "random_connected_graph",
    "random_family_graph",
    "with_random_weights",
    "eccentricity",
    "kernel_diagonal",
    "effective_resistance",
]


# --------------------------------------------------------------------------- validation
def check_adjacency(
    S: Adjacency, *, require_connected: bool = False, name: str = "S", tol: float = 1e-10
) -> sp.csr_matrix:
    """Validate a weight matrix and return it as a CSR float64 matrix (a copy).

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Symmetric, non-negative, finite edge weights. Diagonal entries
        (self-loops) are allowed; they do not change ``L = D - S``.
    require_connected : bool, default False
        Raise if the graph has more than one connected component.
    tol : float, default 1e-10
        Relative symmetry tolerance: ``|S_ij - S_ji| <= tol * max(|S_ij|, |S_ji|)``
        for every pair, so an edge given in one direction only is refused
        however small its weight.

    Raises
    ------
    TypeError
        If ``S`` is not a matrix of real numbers (complex values are refused,
        not truncated), or is a :class:`Graph` (pass ``g.adjacency``).
    ValueError
        If ``S`` is not square, is empty, not symmetric (a directed graph), has
        negative or non-finite weights, or is disconnected while
        ``require_connected`` is set.
    """
    S = as_symmetric_matrix(S, name, tol=tol)
    if S.nnz and S.data.min() < 0:
        raise ValueError(f"{name} has negative edge weights (min {S.data.min():g})")
    if require_connected:
        k = n_components(S)
        if k != 1:
            raise ValueError(
                f"the graph is disconnected ({k} connected components); "
                "use largest_connected_component() or Graph(..., lcc=True)"
            )
    return S


def check_labels(y: ArrayLike, n: int, *, n_classes: int | None = None, name: str = "labels") -> np.ndarray:
    """Validate ground-truth class labels: an int array of length ``n`` with values in ``0..K-1``.

    Every node needs a label here: the library's marks of an unlabelled node
    (``-1``, ``NaN``, ``None``; see :mod:`graphsel_lib._validation`) raise,
    as do non-integers such as ``0.5``. Integer-valued floats are accepted.

    Raises
    ------
    ValueError
        If the length is not ``n``, values are not integers, are negative
        (unlabelled) or ``>= n_classes``.
    """
    return check_class_labels(y, n, n_classes=n_classes, name=name, require_all=True)


def n_components(S: Adjacency) -> int:
    """Number of connected components of the undirected graph ``S``."""
    return csgraph.connected_components(S, directed=False)[0]


def largest_connected_component(S: Adjacency) -> np.ndarray:
    """Indices (sorted) of the nodes in the largest connected component of ``S``.

    Ties between equally large components go to the one holding the smallest
    node index, so the choice is deterministic.
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

    Raises
    ------
    TypeError
        ``root`` or ``size`` is not an integer (``2.7`` is not truncated).
    ValueError
        ``root`` out of range, or ``size`` not in ``1..`` (size of the
        component of ``root``).
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


# --------------------------------------------------------------------------- Laplacians
def laplacian(S: Adjacency) -> sp.csr_matrix:
    """Combinatorial Laplacian ``L = D - S`` (sparse CSR), gu2013 Sec. 3.

    Self-loops cancel: they add the same amount to ``D`` and to ``S``.

    >>> import numpy as np
    >>> laplacian(np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]])).toarray()
    array([[ 1., -1.,  0.],
           [-1.,  2., -1.],
           [ 0., -1.,  1.]])
    """
    S = check_adjacency(S)
    S.setdiag(0)
    S.eliminate_zeros()
    deg = np.asarray(S.sum(axis=1)).ravel()
    return (sp.diags(deg) - S).tocsr()


def normalized_laplacian(S: Adjacency) -> sp.csr_matrix:
    """Symmetric normalised Laplacian ``I - D^{-1/2} S D^{-1/2}`` (sparse CSR).

    Raises ``ValueError`` for isolated nodes (degree zero), where it is undefined.
    """
    S = check_adjacency(S)
    S.setdiag(0)
    S.eliminate_zeros()
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
    Intended for small graphs: raises ``ValueError`` above ``max_nodes`` nodes.
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
    """Total weight of the edges whose two ends carry different labels, Φ(f).

    ``f`` may be any labelling (±1, 0..K-1, strings). For ``f ∈ {-1,+1}^n``,
    ``f^T L f = 4 Φ(f)`` (each cut edge contributes ``(1 - (-1))^2 = 4``).
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
    against a random order). Returns an array of length ``n + 1``; cost
    ``O(n · |E|)``, for small graphs.
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
    """
    L = laplacian(S).toarray()
    v = np.linalg.eigh(L)[1][:, 1]
    return -v if v[0] > 0 else v


# --------------------------------------------------------------------------- random graphs for the checks
#: The eight families of :func:`random_family_graph` (chapter 02's checks of the kernel bounds).
RANDOM_GRAPH_FAMILIES = (
    "Erdos-Renyi", "random tree", "path or cycle", "grid", "Watts-Strogatz", "Barabasi-Albert",
    "random geometric", "lollipop",
)  # fmt: skip


def random_connected_graph(
    rng: np.random.Generator, n: int, p: float, *, weights: tuple[float, float] | None = (0.1, 3.0)
) -> sp.csr_matrix:
    """A connected random graph: a random spanning tree plus Erdős–Rényi edges ([Erdős & Rényi 1959]).

    The nodes of a random permutation are attached one by one to a uniformly
    chosen earlier node (a spanning tree, so the graph is connected), then every
    pair ``i < j`` gets an extra edge with probability ``p``. Edge weights are
    uniform in ``weights = (low, high)``; ``weights=None`` gives all ones.
    Chapter 01 checks its identities on graphs drawn here; all randomness comes
    from ``rng`` (a ``numpy.random.Generator``), in a fixed order.

    Returns a symmetric CSR matrix with a zero diagonal, shape (n, n), ``n >= 2``.
    """
    n = check_integer(n, "n", minimum=2)
    perm = rng.permutation(n)
    tree = np.array([(perm[i], perm[rng.integers(i)]) for i in range(1, n)]).reshape(-1, 2)
    extra = np.argwhere(np.triu(rng.random((n, n)) < p, k=1))
    edges = np.unique(np.sort(np.vstack([tree, extra]), axis=1), axis=0)
    w = rng.uniform(weights[0], weights[1], len(edges)) if weights is not None else np.ones(len(edges))
    S = sp.coo_matrix((w, (edges[:, 0], edges[:, 1])), shape=(n, n)).tocsr()
    return (S + S.T).tocsr()


def _one_family_graph(family, rng, min_nodes, max_nodes):
    import networkx as nx

    n = int(rng.integers(min_nodes, max_nodes + 1))
    s = int(rng.integers(2**31))
    if family == "Erdos-Renyi":
        G = nx.gnp_random_graph(n, float(rng.uniform(1.2, 4.0)) * np.log(n) / n, seed=s)
    elif family == "random tree":
        G = nx.random_labeled_tree(n, seed=s)
    elif family == "path or cycle":
        G = nx.path_graph(n) if rng.random() < 0.5 else nx.cycle_graph(n)
    elif family == "grid":
        a = int(rng.integers(2, 9))
        G = nx.grid_2d_graph(a, max(2, n // a))
    elif family == "Watts-Strogatz":
        G = nx.connected_watts_strogatz_graph(n, 4, float(rng.uniform(0.02, 0.5)), seed=s)
    elif family == "Barabasi-Albert":
        G = nx.barabasi_albert_graph(n, int(rng.integers(1, 4)), seed=s)
    elif family == "random geometric":
        G = nx.random_geometric_graph(n, float(rng.uniform(0.2, 0.45)), seed=s)
    elif family == "lollipop":
        G = nx.lollipop_graph(int(rng.integers(3, 12)), int(rng.integers(1, 30)))
    else:
        raise ValueError(f"family must be one of {RANDOM_GRAPH_FAMILIES}, got {family!r}")
    G = nx.convert_node_labels_to_integers(G.subgraph(max(nx.connected_components(G), key=len)))
    return G, nx.to_scipy_sparse_array(G, nodelist=range(G.number_of_nodes()), weight=None, format="csr")


def random_family_graph(
    family: str, rng: np.random.Generator, *, min_nodes: int = 5, max_nodes: int = 80
) -> tuple[nx.Graph, sp.csr_matrix]:
    """A connected unweighted graph of one of :data:`RANDOM_GRAPH_FAMILIES`, drawn with ``rng``.

    ``n`` is uniform in ``min_nodes..max_nodes``; Erdős–Rényi with edge
    probability ``c log(n)/n``, ``c ∈ [1.2, 4]`` ([Erdős & Rényi 1959]);
    uniformly random labelled trees; a path or a cycle (probability ½ each);
    ``a × ⌊n/a⌋`` grids; Watts–Strogatz with 4 neighbours ([Watts & Strogatz
    1998]); Barabási–Albert with 1–3 edges per new node ([Barabási & Albert
    1999]); random geometric graphs of radius 0.2–0.45; lollipops (a clique of
    3–11 nodes and a path of 1–29). The largest component is kept, and a graph
    below ``min_nodes`` nodes is redrawn. Chapter 02 checks
    ``K_tt ≤ min(1/λ_2, ρ_t)`` on graphs drawn here.

    Returns ``(G, S)``: the networkx graph (nodes ``0..n-1``) and its CSR adjacency.
    """
    while True:
        G, S = _one_family_graph(family, rng, min_nodes, max_nodes)
        if S.shape[0] >= min_nodes:
            return G, S


def with_random_weights(
    S: Adjacency, rng: np.random.Generator, low: float = 0.1, high: float = 3.0
) -> sp.csr_matrix:
    """The graph ``S`` with each edge weight redrawn uniformly in ``[low, high]`` (symmetric CSR).

    The weights are drawn in the order of the upper triangle's entries. With
    weights in ``[0.1, 3]`` some edges are "long" (resistance ``1/S_ij`` up to
    10), which is where the hop-count bound ``K_tt ≤ ρ_t`` can fail and the
    resistance-length one is needed (chapter 02 §2).
    """
    C = sp.triu(check_adjacency(S), k=1).tocoo()
    w = rng.uniform(low, high, C.nnz)
    W = sp.coo_matrix((w, (C.row, C.col)), shape=C.shape).tocsr()
    return (W + W.T).tocsr()


def _adjacency_kwargs(kwargs):
    """The keyword arguments of :meth:`Graph.from_adjacency`, with its defaults; unknown ones raise."""
    out = dict(
        class_names=None, name="graph", lcc=True, symmetrize=False, features=None, node_ids=None, info=None
    )
    unknown = sorted(set(kwargs) - set(out))
    if unknown:
        raise TypeError(
            f"unexpected keyword argument(s) {unknown}; Graph.from_adjacency accepts {sorted(out)}"
        )
    out.update(kwargs)
    return out


def _pair_sums(r, c, w, n):
    """CSR matrices of the summed weights and of the counts of the rows ``(r, c)``."""
    A = sp.coo_matrix((w, (r, c)), shape=(n, n)).tocsr()
    C = sp.coo_matrix((np.ones(r.size), (r, c)), shape=(n, n)).tocsr()
    A.sort_indices()
    C.sort_indices()
    return A, C


def _example(C, mask, names=None):
    """``{i, j}`` of the first marked entry of ``C``, by node name when ``names`` is given."""
    Ccoo = C.tocoo()
    k = int(np.flatnonzero(mask)[0])
    i, j = int(Ccoo.row[k]), int(Ccoo.col[k])
    if names is None:
        return f"{{{i}, {j}}}"
    return f"{{{names[i]!r}, {names[j]!r}}}"


def _directed_edges(r, c, w, n, names=None):
    """``max(A, A^T)`` of the directed edge list; notes on repeated rows."""
    A, C = _pair_sums(r, c, w, n)
    notes = []
    rep = C.data > 1
    if np.any(rep):
        notes.append(
            f"{int(rep.sum())} directed edge(s) are listed more than once (e.g. {_example(C, rep, names)}): "
            "their weights were added"
        )
    return A.maximum(A.T).tocsr(), notes


def _undirected_edges(r, c, w, n, names=None):
    """Undirected ``S`` of an edge list, reading ``i j`` and ``j i`` with equal weight as one edge.

    Per unordered pair ``{i, j}`` (``i < j``): with ``a`` (``b``) the summed
    weight and ``p`` (``q``) the number of rows listing it as ``i j``
    (``j i``), ``S_ij = a`` if both directions are listed equally (``p = q``,
    ``a = b``: a symmetric listing), else ``S_ij = a + b``.
    """
    lo, hi = np.minimum(r, c), np.maximum(r, c)
    fwd = r < c
    A, P = _pair_sums(lo[fwd], hi[fwd], w[fwd], n)
    B, Q = _pair_sums(lo[~fwd], hi[~fwd], w[~fwd], n)
    notes = []
    if B.nnz == 0 or A.nnz == 0:  # one direction only: no pair can be a reverse duplicate
        U = A if B.nnz == 0 else B
        counts = P if B.nnz == 0 else Q
    else:
        # align the two on the union of pairs (explicit zeros kept by the sum of structures)
        ones_a = A.copy()
        ones_a.data[:] = 1.0
        ones_b = B.copy()
        ones_b.data[:] = 1.0
        union = (ones_a + ones_b).tocsr()
        union.sort_indices()
        a, b = _on(union, A), _on(union, B)
        p, q = _on(union, P), _on(union, Q)
        both = (p > 0) & (q > 0)
        mirror = both & (p == q) & np.isclose(a, b, rtol=1e-12, atol=0.0)
        if np.any(mirror):
            pattern = union.copy()
            pattern.data = mirror.astype(float)
            notes.append(
                f"{int(mirror.sum())} edge(s) are listed in both directions with the same weight "
                f"(i j and j i, e.g. {_example(pattern, mirror, names)}; the format of np.argwhere(A) and PyTorch "
                "Geometric): kept one weight per undirected edge, not their sum"
            )
        vals = np.where(mirror, a, a + b)
        U = union.copy()
        U.data = vals
        counts = union.copy()
        counts.data = np.where(mirror, p, p + q)
    rep = counts.data > 1
    if np.any(rep):
        notes.append(
            f"{int(rep.sum())} edge(s) are listed more than once (e.g. {_example(counts, rep, names)}): "
            "their weights were added"
        )
    U = sp.csr_matrix(U)
    return (U + U.T).tocsr(), notes


def _on(pattern, M):
    """Values of ``M`` at the stored entries of the CSR ``pattern`` (0 where ``M`` has none)."""
    return np.asarray(M[pattern.tocoo().row, pattern.tocoo().col]).ravel()


# --------------------------------------------------------------------------- Graph
def _check_features(features, n):
    """``features`` as a 2-D real array or CSR matrix with ``n`` rows (dtype kept), or None."""
    if features is None:
        return None
    X = as_real_matrix(features, "features", finite=False, dtype=None, copy=False)
    if X.shape[0] != n:
        raise ValueError(f"features must have {n} rows (one per node), got shape {X.shape}")
    return X


def _check_node_ids(node_ids, n):
    if node_ids is None:
        return None
    ids = np.asarray(node_ids)
    if ids.shape != (n,):
        raise ValueError(f"node_ids must have length {n}, got shape {ids.shape}")
    return ids


def _require_a_label(labelled):
    if not labelled.any():
        raise ValueError(
            f"no node has a label: all {labelled.size} labels mark unlabelled nodes (-1, NaN, None, or text such as "
            "'', 'NaN' or 'null': graphsel_lib._validation.MISSING_LABELS); give at least "
            "one node a label, or pass class_names=[...] to start from no label (e.g. to label by hand)"
        )


def _renumber_labelled(codes, names):
    """Codes ``0..K-1`` over the classes the labelled nodes hold (sorted as ``names``), and those classes' names."""
    labelled = codes != UNLABELLED
    present, inverse = np.unique(codes[labelled], return_inverse=True)
    codes = codes.copy()
    codes[labelled] = inverse
    return codes, [names[c] for c in present]


def nodes_to_keep(S, codes, *, lcc, drop_unlabelled=False, allow_none=False):
    """Nodes a Graph keeps: (``drop_unlabelled``) the labelled ones, then (``lcc``) the largest connected component.

    Returns ``(keep, report)``: sorted node indices, and a dict with the
    numbers of ``unlabelled`` nodes (dropped with ``drop_unlabelled``, else
    kept; ``unlabelled_kept`` counts those inside the result) and of nodes
    ``outside_lcc``, the number of ``components`` and the classes (codes) whose
    every labelled node was outside the component (``vanished``).
    """
    n = S.shape[0]
    labelled = codes != UNLABELLED
    n_unlabelled = int(n - np.count_nonzero(labelled))
    keep = np.flatnonzero(labelled) if drop_unlabelled else np.arange(n)
    report = {
        "n_nodes": n,
        "unlabelled": n_unlabelled,
        "dropped_unlabelled": drop_unlabelled,
        "unlabelled_kept": 0,
        "outside_lcc": 0,
        "components": 1,
        "vanished": [],
    }
    if not allow_none:
        _require_a_label(labelled)
    if lcc:
        S_kept = S[keep][:, keep] if keep.size < n else S
        k = n_components(S_kept)
        if k > 1:
            sub = largest_connected_component(S_kept)
            before = np.unique(codes[keep][labelled[keep]])
            keep = keep[sub]
            report.update(
                outside_lcc=int(S_kept.shape[0] - sub.size),
                components=int(k),
                vanished=np.setdiff1d(before, codes[keep]).tolist(),
            )
    if not drop_unlabelled:
        report["unlabelled_kept"] = int(np.count_nonzero(~labelled[keep]))
    return keep, report


def dropped_nodes_message(report, class_names):
    """Sentences for a :class:`DataWarning` about the nodes a Graph dropped (empty if none)."""
    parts = []
    if report["unlabelled"] and report["dropped_unlabelled"]:
        parts.append(
            f"dropped {report['unlabelled']} of {report['n_nodes']} nodes that have no label (-1, NaN or None)"
        )
    if report["outside_lcc"]:
        n_before = report["n_nodes"] - (report["unlabelled"] if report["dropped_unlabelled"] else 0)
        msg = (
            f"kept the largest of {report['components']} connected components: dropped "
            f"{report['outside_lcc']} of {n_before} nodes"
        )
        if report["vanished"]:
            names = [class_names[c] for c in report["vanished"]]
            msg += f", and with them every labelled node of class(es) {names}"
        parts.append(msg + " (pass lcc=False to get an error instead)")
    return "; ".join(parts)


def _split(cls, S, codes, names, class_names, name, features, node_ids, info, stacklevel):
    """One Graph per connected component with an edge, largest first; every part shares the class names.

    The classes are those of every labelled node (not renumbered per part), so
    ``labels`` index the same ``class_names`` in each part. Nodes with no edge
    are in no part, said in a :class:`DataWarning`. ``info["component"]`` holds
    the part's index, ``info["n_components"]`` the number of parts.
    """
    if class_names is None:  # renumber over the classes of the labelled nodes, all parts together
        _require_a_label(codes != UNLABELLED)
        codes, names = _renumber_labelled(codes, names)
    _, comp = csgraph.connected_components(S, directed=False)
    sizes = np.bincount(comp)
    ranked = sorted(np.flatnonzero(sizes >= 2), key=lambda c: (-sizes[c], c))
    isolated = int(np.count_nonzero(sizes == 1))
    if isolated:
        warnings.warn(
            f"{name}: {isolated} node(s) have no edge (only self-loops, or none of positive weight): "
            "they are in no part",
            DataWarning,
            stacklevel=stacklevel,
        )
    parts = []
    for i, c in enumerate(ranked):
        keep = np.flatnonzero(comp == c)
        part_info = dict(info or {}, component=i, n_components=len(ranked))
        part_info["unlabelled"] = int(np.count_nonzero(codes[keep] == UNLABELLED))
        parts.append(
            cls(
                S[keep][:, keep].tocsr(),
                codes[keep],
                list(names),
                name if i == 0 else f"{name} [part {i + 1} of {len(ranked)}]",
                None if features is None else features[keep],
                None if node_ids is None else node_ids[keep],
                part_info,
            )
        )
    return parts


@dataclass(eq=False)
class Graph:
    """A connected, undirected, weighted graph whose nodes carry a class label or none.

    Construct it through :meth:`read_csv` (your own files), :meth:`from_edges`,
    :meth:`from_networkx` or :func:`graphsel_lib.load_dataset`; the constructor validates everything:
    symmetric non-negative finite weights, zero diagonal, connected,
    labels in ``0..K-1`` or ``-1`` (unlabelled).

    A user's graph is usually partially labelled: its unlabelled nodes are
    kept with their edges (``labels == -1``, :attr:`labelled` is False), and
    are what the methods predict. The datasets of
    :func:`graphsel_lib.load_dataset` are labelled on every node (the
    benchmarks score every node). Functions that need every label, such as
    :func:`graphsel_lib.online.run` (it scores every round), say so and name
    the alternative (:class:`graphsel_lib.online.Session`, or the offline
    methods of :mod:`graphsel_lib.transductive`, which predict every node).

    Attributes
    ----------
    adjacency : scipy.sparse.csr_matrix of shape (n_nodes, n_nodes)
    labels : ndarray of int of shape (n_nodes,), values ``0..n_classes-1``, ``-1`` for an unlabelled node
    class_names : list of str, one per class
    name : str
    features : ndarray or sparse matrix of shape (n_nodes, n_features), optional
    node_ids : ndarray of shape (n_nodes,), the original identifiers, optional
        (also :attr:`node_names`)
    """

    adjacency: sp.csr_matrix
    labels: np.ndarray
    class_names: list = field(default_factory=list)
    name: str = "graph"
    features: object = None
    node_ids: np.ndarray | None = None
    info: dict = field(default_factory=dict)

    def __post_init__(self):
        S = check_adjacency(self.adjacency, require_connected=True, name="adjacency")
        if S.diagonal().any():
            raise ValueError("adjacency must have a zero diagonal (no self-loops); drop them first")
        self.adjacency = S
        n = S.shape[0]
        if n < 2 or S.nnz == 0:
            raise ValueError(
                f"a Graph needs at least one edge of positive weight, got {n} node(s) and no edge: every weight "
                "was 0, every edge a self-loop, or the largest connected component is a single node (a sparser "
                "generator setting, e.g. sbm with a tiny avg_degree, or edges not read from the file?)"
            )
        n_classes = len(self.class_names) if self.class_names else None
        self.labels = check_class_labels(self.labels, n, n_classes=n_classes, name="labels")
        if not self.class_names:
            k = int(self.labels.max()) + 1 if self.labels.size else 0
            self.class_names = [str(i) for i in range(k)]
        self.class_names = [str(c) for c in self.class_names]
        self.features = _check_features(self.features, n)
        self.node_ids = _check_node_ids(self.node_ids, n)

    # ---- sizes
    @property
    def n_nodes(self) -> int:
        return self.adjacency.shape[0]

    @property
    def n_edges(self) -> int:
        """Number of undirected edges (each counted once)."""
        return self.adjacency.nnz // 2

    @property
    def n_classes(self) -> int:
        return len(self.class_names)

    @property
    def labelled(self) -> np.ndarray:
        """Boolean mask of the nodes with a label (``labels >= 0``)."""
        return self.labels != UNLABELLED

    @property
    def n_labelled(self) -> int:
        return int(np.count_nonzero(self.labelled))

    @property
    def fully_labelled(self) -> bool:
        """True when every node has a label (as the benchmark datasets do)."""
        return self.n_labelled == self.n_nodes

    def require_labels(self, what: str) -> np.ndarray:
        """Raise a ValueError naming ``what`` when some node is unlabelled; return ``labels`` otherwise."""
        if not self.fully_labelled:
            raise ValueError(
                f"{what} needs the label of every node, but {self.n_nodes - self.n_labelled} of "
                f"{self.n_nodes} nodes of {self.name!r} are unlabelled: predict them with an offline method "
                "(graphsel_lib.transductive.harmonic(g.adjacency, g.labels, g.labelled)), ask for them with "
                "graphsel_lib.online.Session, or evaluate on the labelled nodes only"
            )
        return self.labels

    @property
    def node_names(self) -> np.ndarray:
        """The name of every node, aligned with the rows of ``adjacency``: ``node_ids``, or ``0..n-1`` without them.

        :meth:`read_csv` and :meth:`read_graphml` keep the names of the files
        (strings, or integers), for the nodes that survive the reduction to
        labelled nodes and to the largest connected component.
        """
        return np.arange(self.n_nodes) if self.node_ids is None else self.node_ids

    def __repr__(self):
        unlabelled = "" if self.fully_labelled else f", n_labelled={self.n_labelled}"
        return (
            f"Graph(name={self.name!r}, n_nodes={self.n_nodes}, n_edges={self.n_edges}, "
            f"n_classes={self.n_classes}{unlabelled})"
        )

    # ---- constructors
    @classmethod
    def from_adjacency(
        cls,
        S: Adjacency,
        labels: ArrayLike,
        *,
        class_names: Sequence[str] | None = None,
        name: str = "graph",
        lcc: bool | str = True,
        symmetrize: bool = False,
        features: ArrayLike | sp.spmatrix | sp.sparray | None = None,
        node_ids: ArrayLike | None = None,
        info: dict | None = None,
    ) -> Graph | list[Graph]:
        """Build a Graph from a weight matrix, keeping (``lcc``) only its largest connected component.

        ``S`` holds real weights (a complex matrix or a ``Graph`` is refused).
        ``symmetrize=True`` applies ``S <- max(S, S^T)`` (gu2013 Sec. 6.1);
        otherwise a directed ``S`` is an error. Self-loops are dropped.

        Labels follow the library's convention: ``-1``, ``NaN`` and ``None``
        mark an unlabelled node; other numbers must be integers (``0.5``
        raises); strings and other objects are class names (``None``
        unlabelled). Unlabelled nodes are kept with their edges (``labels``
        -1 in the Graph; :attr:`labelled`, :attr:`n_labelled`). With no
        labelled node at all, pass ``class_names`` (e.g. to label by hand
        from scratch); otherwise that is an error.

        ``lcc=True`` keeps the largest connected component (labels,
        features and node ids follow) and warns (:class:`DataWarning`) with
        the number of nodes dropped and the classes whose every labelled node
        goes with them;
        ``lcc=False`` raises on a disconnected graph. Labels are remapped to
        ``0..K-1`` over the classes of the kept labelled nodes, in sorted order, unless
        ``class_names`` is given (then labels must already index into it, and
        every class is kept).

        Sizes (labels, ``features`` rows, ``node_ids``) are checked against
        ``S`` before any work.
        """
        return cls._from_adjacency(
            S,
            labels,
            class_names=class_names,
            name=name,
            lcc=lcc,
            symmetrize=symmetrize,
            features=features,
            node_ids=node_ids,
            info=info,
            stacklevel=3,
        )

    @classmethod
    def _from_adjacency(
        cls, S, labels, *, class_names, name, lcc, symmetrize, features, node_ids, info, stacklevel
    ):
        S = as_real_matrix(S, "adjacency", sparse=True, square=True)
        n = S.shape[0]
        codes, names = encode_labels(labels, n, class_names=class_names)
        features = _check_features(features, n)
        node_ids = _check_node_ids(node_ids, n)
        # names that differ as text but not as numbers stay apart, as written, with a word (before any drop)
        warn_lookalikes(names, "class names", name, stacklevel=stacklevel + 1, ignore_case=True)
        if node_ids is not None:
            texts = [v for v in node_ids.tolist() if isinstance(v, str)]
            warn_lookalikes(texts, "node names", name, stacklevel=stacklevel + 1)
        if symmetrize:
            S = S.maximum(S.T).tocsr()
        S.setdiag(0)  # self-loops do not change L = D - S; the Graph keeps none
        S.eliminate_zeros()
        S = check_adjacency(S, name="adjacency")
        if lcc == "split":
            return _split(cls, S, codes, names, class_names, name, features, node_ids, info, stacklevel)
        keep, report = nodes_to_keep(S, codes, lcc=lcc, allow_none=class_names is not None)
        message = dropped_nodes_message(report, names)
        if message:
            warnings.warn(f"{name}: {message}", DataWarning, stacklevel=stacklevel)
        if report[
            "unlabelled_kept"
        ]:  # a warning of its own: the readers, which count them by kind, filter it
            warnings.warn(
                f"{name}: {report['unlabelled_kept']} of {keep.size} nodes are unlabelled (-1, NaN or None): "
                "kept with their edges (g.labelled marks the others)",
                UnlabelledNodesWarning,
                stacklevel=stacklevel,
            )
        if keep.size < n:
            S = S[keep][:, keep]
            codes = codes[keep]
            features = None if features is None else features[keep]
            node_ids = None if node_ids is None else node_ids[keep]
        if class_names is None:  # renumber over the classes still present among the labelled nodes
            codes, names = _renumber_labelled(codes, names)
        info = dict(info or {})
        info["unlabelled"] = int(report["unlabelled_kept"])
        return cls(S.tocsr(), codes, names, name, features, node_ids, info)

    @classmethod
    def from_edges(
        cls,
        edges: ArrayLike,
        labels: ArrayLike,
        *,
        weights: ArrayLike | None = None,
        n_nodes: int | None = None,
        directed: bool = False,
        **kwargs: Any,
    ) -> Graph:
        """Build a Graph from an ``(m, 2)`` integer edge list and per-node labels.

        ``labels`` gives one entry per node (nodes ``0..len(labels)-1``, or
        ``0..n_nodes-1``), with the conventions of :meth:`from_adjacency`.

        Undirected (default): each row is the edge ``{i, j}``. An edge listed
        in both directions with the same weight (``i j`` and ``j i``, the
        format of ``np.argwhere(A)`` and PyTorch Geometric) counts once; an
        edge listed more than once otherwise adds its weights. Both are
        reported by a :class:`DataWarning`. ``directed=True`` reads each row
        as ``i -> j`` (repeated rows add, with a warning) and symmetrises with
        ``max(S, S^T)``. Self-loops are dropped. Keyword arguments go to
        :meth:`from_adjacency` (``lcc``, ``class_names``, ``name``, ...).
        """
        edges = np.asarray(edges)
        if edges.ndim != 2 or edges.shape[1] != 2:
            raise ValueError(f"edges must have shape (m, 2), got {edges.shape}")
        if edges.size and not np.issubdtype(edges.dtype, np.integer):
            raise TypeError(f"edges must be integer node indices, got dtype {edges.dtype}")
        n_labels = np.shape(labels)[0] if np.ndim(labels) == 1 else None
        if n_labels is None:
            raise ValueError(
                f"labels must be a 1-D array with one entry per node, got shape {np.shape(labels)}"
            )
        if n_nodes is None:
            n = n_labels
        else:
            n = check_integer(n_nodes, "n_nodes", minimum=1)
            if n_labels != n:  # before allocating anything of size n
                raise ValueError(
                    f"labels must have one entry per node: n_nodes={n} but labels has length {n_labels}"
                )
        if n == 0:
            raise ValueError("the graph has no nodes: labels is empty")
        if edges.size and (edges.min() < 0 or edges.max() >= n):
            bad = int(edges.min()) if edges.min() < 0 else int(edges.max())
            hint = (
                "" if bad < 0 or n_nodes is not None else f" (labels has length {n}: give one label per node)"
            )
            raise ValueError(f"edge endpoints must be in 0..{n - 1}, found node {bad}{hint}")
        w = (
            np.ones(len(edges))
            if weights is None
            else as_real_array(weights, "weights", ndim=1, finite=False)
        )
        if w.shape != (len(edges),):
            raise ValueError(f"weights must have length {len(edges)}, got shape {w.shape}")
        if not np.all(np.isfinite(w)):
            raise ValueError("edge weights must be finite")
        if np.any(w < 0):
            raise ValueError("edge weights must be non-negative")
        name = kwargs.get("name", "graph")
        loop = edges[:, 0] == edges[:, 1]  # dropped: they do not change L = D - S
        r, c, w = edges[~loop, 0].astype(np.int64), edges[~loop, 1].astype(np.int64), w[~loop]
        names = _check_node_ids(kwargs.get("node_ids"), n)  # name the edges of the notes below
        names = None if names is None else [v.item() if hasattr(v, "item") else v for v in names]
        if directed:
            S, notes = _directed_edges(r, c, w, n, names)
        else:
            S, notes = _undirected_edges(r, c, w, n, names)
        for note in notes:
            warnings.warn(f"{name}: {note}", DataWarning, stacklevel=2)
        return cls._from_adjacency(S, labels, stacklevel=3, **_adjacency_kwargs(kwargs))

    @classmethod
    def read_csv(
        cls,
        edges_path: str | PathLike,
        labels_path: str | PathLike | None = None,
        *,
        weight: str | None = None,
        directed: bool = False,
        **kwargs: Any,
    ) -> Graph:
        """Read a Graph from an edge CSV (``source,target[,weight]``) and a label CSV (``node,label``).

        Both files need a header row (or pass ``header=False``: columns by
        position). Node names may be strings or integers and are kept in
        ``node_ids`` / :attr:`node_names`; label strings become
        ``class_names``. An edge listed in one or in both directions (same
        weight) is one edge, as in :meth:`from_edges`; self-loops are dropped.
        A node without a label row or with an empty label is unlabelled and
        kept with its edges; the largest connected component is kept; whatever
        is dropped, and the number of unlabelled nodes, is reported by a :class:`DataWarning` with counts (also in
        ``info["read"]``). ``weight``: ``None`` takes the ``weight`` column (or
        the third of three columns) if any, ``False`` ignores weights, a string
        names the column. Other options: ``source``, ``target``, ``node``,
        ``label`` (column names), ``header``, ``sep``; the rest go to
        :meth:`from_edges` (``lcc``, ``name``, ...). Details and errors:
        :mod:`graphsel_lib.readers`.
        """
        from .readers import read_csv

        return read_csv(edges_path, labels_path, weight=weight, directed=directed, graph_cls=cls, **kwargs)

    @classmethod
    def read_csv_components(
        cls, edges_path: str | PathLike, labels_path: str | PathLike | None = None, **kwargs: Any
    ) -> list[Graph]:
        """Read every connected component of a CSV graph: a list of Graphs, largest first.

        As :meth:`read_csv`, but nothing is dropped for being outside the
        largest component: each component with an edge is a Graph of its own
        (``info["component"]``), and every part shares ``class_names`` (a part
        may have no labelled node, or labels of one class only). Use it to
        predict every node of a file whose graph is disconnected.
        """
        if "lcc" in kwargs:
            raise TypeError("read_csv_components reads every component; do not pass lcc")
        from .readers import read_csv

        return read_csv(edges_path, labels_path, graph_cls=cls, lcc="split", **kwargs)

    @classmethod
    def read_graphml(
        cls, path: str | PathLike, label_attr: str = "label", *, weight: str | None = "weight", **kwargs: Any
    ) -> Graph:
        """Read a Graph from a GraphML file through networkx (see :func:`graphsel_lib.readers.read_graphml`).

        Node ids are kept in ``node_ids``; nodes without ``label_attr`` are
        unlabelled and kept; self-loops are dropped (both said in a :class:`DataWarning`).
        Keyword arguments go to :meth:`from_networkx`.
        """
        from .readers import read_graphml

        return read_graphml(path, label_attr, weight=weight, graph_cls=cls, **kwargs)

    @classmethod
    def from_networkx(
        cls, G: nx.Graph, label_attr: str = "label", *, weight: str | None = "weight", **kwargs: Any
    ) -> Graph:
        """Build a Graph from a networkx graph whose nodes carry ``label_attr``.

        Directed graphs are rejected unless ``symmetrize=True`` is passed
        (then ``S <- max(S, S^T)``). Self-loops are dropped. Node order follows
        ``G.nodes``; the original node names are kept in ``node_ids``. A node
        whose label is ``None``, ``NaN`` or ``-1`` (also as text, and the other
        missing-value markers ``""``, ``"NaN"``, ``"None"``, ``"null"``, ``"NA"``, ...
        in any case: :data:`graphsel_lib._validation.MISSING_LABELS`), or that
        lacks the attribute, is unlabelled and kept, as in :meth:`from_adjacency`
        (the number without the attribute is said in a :class:`DataWarning`; if
        no node has it, the attribute name is probably wrong and that is an
        error). Edge weights (the ``weight`` attribute; ``weight=None``: all 1)
        must be numbers: text such as ``"2.5"`` is refused, naming an edge.
        """
        import networkx as nx

        if not isinstance(G, (nx.Graph,)):
            raise TypeError(f"G must be a networkx graph, got {type(G).__name__}")
        if G.number_of_nodes() == 0:
            raise ValueError(
                "G has no nodes (an empty networkx graph): a Graph needs nodes joined by at least one edge; "
                "add the edges first, e.g. G.add_edge('a', 'b')"
            )
        if G.is_directed() and not kwargs.get("symmetrize", False):
            raise ValueError("G is directed; pass symmetrize=True to use max(S, S^T)")
        check_weight_attribute(G, weight, where="G")
        nodes = list(G.nodes)
        missing = [v for v in nodes if label_attr not in G.nodes[v]]
        if missing and len(missing) == len(nodes) and not kwargs.get("class_names"):
            found = sorted({k for v in nodes for k in G.nodes[v]})
            raise ValueError(
                f"no node has the label attribute {label_attr!r} (attributes found: {found[:8]}); "
                "pass label_attr=<the attribute holding the class>"
            )
        if missing:
            warnings.warn(
                f"{len(missing)} of {len(nodes)} node(s) lack the label attribute {label_attr!r} "
                f"(e.g. {missing[0]!r}): they are unlabelled",
                DataWarning,
                stacklevel=2,
            )
        labels = np.empty(len(nodes), dtype=object)
        labels[:] = [G.nodes[v].get(label_attr) for v in nodes]
        if all(isinstance(v, str) for v in labels):
            labels = labels.astype(str)
        S = nx.to_scipy_sparse_array(G, nodelist=nodes, weight=weight, format="csr")
        kwargs.setdefault("name", str(G.name) if G.name else "graph")
        node_ids = np.empty(len(nodes), dtype=object)
        node_ids[:] = nodes
        kwargs = _adjacency_kwargs(kwargs)
        if kwargs["node_ids"] is None:
            kwargs["node_ids"] = node_ids
        return cls._from_adjacency(S, labels, stacklevel=3, **kwargs)

    def to_networkx(self) -> nx.Graph:
        """The graph as ``networkx.Graph`` with a ``label`` attribute on every labelled node."""
        import networkx as nx

        G = nx.from_scipy_sparse_array(self.adjacency)
        nx.set_node_attributes(G, {i: int(c) for i, c in enumerate(self.labels) if c != UNLABELLED}, "label")
        G.name = self.name
        return G


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
