"""Graphs, input validation and Laplacians.

Notation follows gu2013 Sec. 3 and the Herbster–Pontil slides: ``S`` is the
symmetric non-negative weight matrix of an undirected graph, ``D`` the diagonal
degree matrix and ``L = D - S`` the combinatorial Laplacian, so that

    f^T L f = 1/2 * sum_ij S_ij (f_i - f_j)^2.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph

__all__ = [
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
]


# --------------------------------------------------------------------------- validation
def check_adjacency(S, *, require_connected=False, name="S", tol=1e-10):
    """Validate a weight matrix and return it as a CSR float64 matrix (a copy).

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Symmetric, non-negative, finite edge weights. Diagonal entries
        (self-loops) are allowed; they do not change ``L = D - S``.
    require_connected : bool, default False
        Raise if the graph has more than one connected component.

    Raises
    ------
    TypeError
        If ``S`` is not a matrix of real numbers.
    ValueError
        If ``S`` is not square, is empty, not symmetric (a directed graph), has
        negative or non-finite weights, or is disconnected while
        ``require_connected`` is set.
    """
    if sp.issparse(S):
        S = sp.csr_matrix(S, copy=True)
    else:
        try:
            arr = np.asarray(S)
        except Exception as exc:  # pragma: no cover - exotic inputs
            raise TypeError(f"{name} must be a 2-D array or scipy sparse matrix") from exc
        if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == bool):
            raise TypeError(f"{name} must hold real numbers, got dtype {arr.dtype}")
        if np.iscomplexobj(arr):
            raise TypeError(f"{name} must hold real numbers, got complex values")
        if arr.ndim != 2:
            raise ValueError(f"{name} must be a 2-D matrix, got {arr.ndim} dimension(s)")
        S = sp.csr_matrix(arr)
    if np.iscomplexobj(S.data):
        raise TypeError(f"{name} must hold real numbers, got complex values")
    S = S.astype(np.float64)
    n, m = S.shape
    if n != m:
        raise ValueError(f"{name} must be square (an adjacency matrix), got shape {S.shape}")
    if n == 0:
        raise ValueError(f"{name} is empty: the graph has no nodes")
    if not np.all(np.isfinite(S.data)):
        raise ValueError(f"{name} has non-finite (NaN or infinite) edge weights")
    if S.nnz and S.data.min() < 0:
        raise ValueError(f"{name} has negative edge weights (min {S.data.min():g})")
    S.eliminate_zeros()
    S.sum_duplicates()
    S.sort_indices()
    asym = abs(S - S.T)
    if asym.nnz and asym.max() > tol * max(1.0, abs(S).max()):
        raise ValueError(
            f"{name} is not symmetric (a directed graph?); "
            "symmetrise it first, e.g. S = S.maximum(S.T) as gu2013 does"
        )
    if require_connected:
        k = n_components(S)
        if k != 1:
            raise ValueError(
                f"the graph is disconnected ({k} connected components); "
                "use largest_connected_component() or Graph(..., lcc=True)"
            )
    return S


def check_labels(y, n, *, n_classes=None, name="labels"):
    """Validate class labels: an int array of length ``n`` with values in ``0..K-1``.

    Raises
    ------
    ValueError
        If the length is not ``n``, values are not integers, are negative or
        ``>= n_classes``.
    """
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != n:
        raise ValueError(f"{name} must be a 1-D array of length {n}, got shape {y.shape}")
    if y.size and not np.issubdtype(y.dtype, np.integer):
        if not (np.issubdtype(y.dtype, np.floating) and np.all(np.isfinite(y)) and np.all(y == np.round(y))):
            raise ValueError(f"{name} must be integers 0..K-1, got dtype {y.dtype}")
    y = y.astype(np.int64)
    if y.size and y.min() < 0:
        raise ValueError(f"{name} must be in 0..K-1, found {y.min()}")
    if n_classes is not None and y.size and y.max() >= n_classes:
        raise ValueError(f"{name} must be in 0..{n_classes - 1}, found {y.max()}")
    return y


def n_components(S):
    """Number of connected components of the undirected graph ``S``."""
    return csgraph.connected_components(S, directed=False)[0]


def largest_connected_component(S):
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


def bfs_ball(S, size, *, root):
    """The first ``size`` nodes (sorted) reached by breadth-first search from ``root``.

    Nested in ``size`` and connected (each node enters through an edge to an
    earlier one), so ``S[nodes][:, nodes]`` is a connected subgraph: the
    growing graphs of a scaling experiment (notebook 43).

    Raises
    ------
    ValueError
        ``root`` out of range, or ``size`` not in ``1..`` (size of the
        component of ``root``).
    """
    S = sp.csr_matrix(S)
    n = S.shape[0]
    root, size = int(root), int(size)
    if not 0 <= root < n:
        raise ValueError(f"root must be a node in 0..{n - 1}, got {root}")
    order = csgraph.breadth_first_order(S, root, directed=False, return_predecessors=False)
    if not 1 <= size <= order.size:
        raise ValueError(f"size must be in 1..{order.size} (the component of node {root}), got {size}")
    return np.sort(order[:size])


# --------------------------------------------------------------------------- Laplacians
def laplacian(S):
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


def normalized_laplacian(S):
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


def laplacian_pinv(S, *, max_nodes=20_000):
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


def cut_size(S, f):
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


# --------------------------------------------------------------------------- Graph
@dataclass(eq=False)
class Graph:
    """A connected, undirected, weighted graph with one class label per node.

    Construct it through :meth:`from_edges`, :meth:`from_networkx` or
    :func:`graphsel_lib.load_dataset`; the constructor validates everything:
    symmetric non-negative finite weights, zero diagonal, connected,
    labels in ``0..K-1``.

    Attributes
    ----------
    adjacency : scipy.sparse.csr_matrix of shape (n_nodes, n_nodes)
    labels : ndarray of int of shape (n_nodes,), values ``0..n_classes-1``
    class_names : list of str, one per class
    name : str
    features : ndarray or sparse matrix of shape (n_nodes, n_features), optional
    node_ids : ndarray of shape (n_nodes,), the original identifiers, optional
    """

    adjacency: sp.csr_matrix
    labels: np.ndarray
    class_names: list = field(default_factory=list)
    name: str = "graph"
    features: object = None
    node_ids: object = None
    info: dict = field(default_factory=dict)

    def __post_init__(self):
        S = check_adjacency(self.adjacency, require_connected=True, name="adjacency")
        if S.diagonal().any():
            raise ValueError("adjacency must have a zero diagonal (no self-loops); drop them first")
        self.adjacency = S
        n = S.shape[0]
        if not self.class_names:
            k = int(np.max(self.labels)) + 1 if np.size(self.labels) else 0
            self.class_names = [str(i) for i in range(k)]
        self.class_names = [str(c) for c in self.class_names]
        self.labels = check_labels(self.labels, n, n_classes=len(self.class_names))
        if self.features is not None and self.features.shape[0] != n:
            raise ValueError(f"features must have {n} rows, got {self.features.shape[0]}")
        if self.node_ids is not None:
            self.node_ids = np.asarray(self.node_ids)
            if self.node_ids.shape != (n,):
                raise ValueError(f"node_ids must have length {n}, got shape {self.node_ids.shape}")

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

    def __repr__(self):
        return (
            f"Graph(name={self.name!r}, n_nodes={self.n_nodes}, n_edges={self.n_edges}, "
            f"n_classes={self.n_classes})"
        )

    # ---- constructors
    @classmethod
    def from_adjacency(
        cls,
        S,
        labels,
        *,
        class_names=None,
        name="graph",
        lcc=True,
        symmetrize=False,
        features=None,
        node_ids=None,
        info=None,
    ):
        """Build a Graph from a weight matrix, optionally keeping only its LCC.

        ``symmetrize=True`` applies ``S <- max(S, S^T)`` (gu2013 Sec. 6.1);
        otherwise a directed ``S`` is an error. Self-loops are dropped.
        ``lcc=True`` keeps the largest connected component (labels, features and
        node ids follow); ``lcc=False`` raises on a disconnected graph. Labels are
        remapped to ``0..K-1`` over the classes present, in sorted order, unless
        ``class_names`` is given (then labels must already index into it).
        """
        S = sp.csr_matrix(S, dtype=np.float64)
        if symmetrize:
            S = S.maximum(S.T).tocsr()
        S.setdiag(0)  # self-loops do not change L = D - S; the Graph keeps none
        S.eliminate_zeros()
        S = check_adjacency(S, name="adjacency")
        labels = np.asarray(labels)
        if labels.ndim != 1 or labels.shape[0] != S.shape[0]:
            raise ValueError(f"labels must have length {S.shape[0]}, got shape {labels.shape}")
        keep = np.arange(S.shape[0])
        if lcc:
            keep = largest_connected_component(S)
            S = S[keep][:, keep]
            labels = labels[keep]
            features = None if features is None else features[keep]
            node_ids = None if node_ids is None else np.asarray(node_ids)[keep]
        if class_names is None:
            uniq, labels = np.unique(labels, return_inverse=True)
            class_names = [str(u) for u in uniq]
        return cls(S.tocsr(), labels, list(class_names), name, features, node_ids, dict(info or {}))

    @classmethod
    def from_edges(cls, edges, labels, *, weights=None, n_nodes=None, directed=False, **kwargs):
        """Build a Graph from an ``(m, 2)`` integer edge list and per-node labels.

        ``directed=True`` symmetrises with ``max(S, S^T)``; otherwise every edge
        is undirected. Repeated edges add their weights. Keyword arguments go to
        :meth:`from_adjacency` (``lcc``, ``class_names``, ``name``, ...).
        """
        edges = np.asarray(edges)
        if edges.ndim != 2 or edges.shape[1] != 2:
            raise ValueError(f"edges must have shape (m, 2), got {edges.shape}")
        if edges.size and not np.issubdtype(edges.dtype, np.integer):
            raise TypeError(f"edges must be integer node indices, got dtype {edges.dtype}")
        n = int(n_nodes if n_nodes is not None else len(labels))
        if edges.size and (edges.min() < 0 or edges.max() >= n):
            raise ValueError(f"edge endpoints must be in 0..{n - 1}")
        w = np.ones(len(edges)) if weights is None else np.asarray(weights, dtype=float)
        if w.shape != (len(edges),):
            raise ValueError(f"weights must have length {len(edges)}, got shape {w.shape}")
        if not np.all(np.isfinite(w)):
            raise ValueError("edge weights must be finite")
        if np.any(w < 0):
            raise ValueError("edge weights must be non-negative")
        S = sp.coo_matrix((w, (edges[:, 0], edges[:, 1])), shape=(n, n)).tocsr()
        if directed:
            S = S.maximum(S.T)
        else:
            S = S + S.T - sp.diags(S.diagonal())
        S = sp.csr_matrix(S)
        S.setdiag(0)
        S.eliminate_zeros()
        return cls.from_adjacency(S, labels, **kwargs)

    @classmethod
    def from_networkx(cls, G, label_attr="label", *, weight="weight", **kwargs):
        """Build a Graph from a networkx graph whose nodes carry ``label_attr``.

        Directed graphs are rejected unless ``symmetrize=True`` is passed
        (then ``S <- max(S, S^T)``). Self-loops are dropped. Node order follows
        ``G.nodes``; the original node names are kept in ``node_ids``.
        """
        import networkx as nx

        if G.is_directed() and not kwargs.get("symmetrize", False):
            raise ValueError("G is directed; pass symmetrize=True to use max(S, S^T)")
        nodes = list(G.nodes)
        missing = [v for v in nodes if label_attr not in G.nodes[v]]
        if missing:
            raise ValueError(
                f"{len(missing)} node(s) lack the label attribute {label_attr!r}, e.g. {missing[0]!r}"
            )
        labels = np.array([G.nodes[v][label_attr] for v in nodes])
        S = nx.to_scipy_sparse_array(G, nodelist=nodes, weight=weight, format="csr")
        S = sp.csr_matrix(S, dtype=np.float64)
        S.setdiag(0)
        S.eliminate_zeros()
        kwargs.setdefault("name", str(G.name) if G.name else "graph")
        node_ids = np.empty(len(nodes), dtype=object)
        node_ids[:] = nodes
        return cls.from_adjacency(S, labels, node_ids=node_ids, **kwargs)

    def to_networkx(self):
        """The graph as ``networkx.Graph`` with a ``label`` attribute per node."""
        import networkx as nx

        G = nx.from_scipy_sparse_array(self.adjacency)
        nx.set_node_attributes(G, {i: int(c) for i, c in enumerate(self.labels)}, "label")
        G.name = self.name
        return G
