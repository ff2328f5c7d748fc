"""The :class:`Graph` container: weights, labels, features and names, with its constructors and readers."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import scipy.sparse as sp

if TYPE_CHECKING:
    from collections.abc import Sequence
    from os import PathLike

    import networkx as nx
    from numpy.typing import ArrayLike

    from .types import Adjacency
from .._validation import (
    UNLABELLED,
    DataWarning,
    UnlabelledNodesWarning,
    as_real_array,
    as_real_matrix,
    check_class_labels,
    check_integer,
    check_weight_attribute,
    encode_labels,
    warn_lookalikes,
)
from .checks import check_adjacency
from .construction import (
    _adjacency_kwargs,
    _check_features,
    _check_node_ids,
    _directed_edges,
    _renumber_labelled,
    _split,
    _undirected_edges,
    dropped_nodes_message,
    nodes_to_keep,
)


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

    Parameters
    ----------
    adjacency : scipy.sparse.csr_matrix of shape (n_nodes, n_nodes)
        Symmetric non-negative finite weights, zero diagonal, connected, at least one edge.
    labels : ndarray of int of shape (n_nodes,)
        Values ``0..n_classes-1``, ``-1`` for an unlabelled node.
    class_names : list of str, optional
        One per class; default ``"0", "1", ...`` up to the largest label.
    name : str, default "graph"
    features : ndarray or sparse matrix of shape (n_nodes, n_features), optional
    node_ids : ndarray of shape (n_nodes,), optional
        The original identifiers (also :attr:`node_names`).
    info : dict, optional
        Provenance notes of the constructors and readers.

    Raises
    ------
    ValueError
        The adjacency is invalid, disconnected, has self-loops or no edge, or
        the labels are not in ``0..n_classes-1`` or ``-1``.

    Examples
    --------
    >>> g = Graph.from_edges([[0, 1], [1, 2], [2, 3]], ["a", "a", "b", "b"])
    >>> g, g.class_names, g.labels.tolist()
    (Graph(name='graph', n_nodes=4, n_edges=3, n_classes=2), ['a', 'b'], [0, 0, 1, 1])
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

        Self-loops are dropped. Sizes (labels, ``features`` rows, ``node_ids``)
        are checked against ``S`` before any work.

        Parameters
        ----------
        S : array-like or sparse matrix of shape (n_nodes, n_nodes)
            Real non-negative weights (a complex matrix or a ``Graph`` is refused).
        labels : array-like of shape (n_nodes,)
            The library's convention: ``-1``, ``NaN`` and ``None`` mark an
            unlabelled node (kept with its edges, ``-1`` in the Graph); other
            numbers must be integers (``0.5`` raises); strings and other objects
            are class names. Remapped to ``0..K-1`` over the classes of the kept
            labelled nodes, in sorted order, unless ``class_names`` is given.
        class_names : sequence of str, optional
            The classes; labels must then index into it, and every class is
            kept. Needed when no node is labelled (e.g. to label by hand from
            scratch); otherwise that is an error.
        name : str, default "graph"
        lcc : bool or "split", default True
            ``True`` keeps the largest connected component (labels, features
            and node ids follow) and warns (:class:`DataWarning`) with the number
            of nodes dropped and the classes whose every labelled node goes with
            them; ``False`` raises on a disconnected graph; ``"split"`` returns
            every component with an edge, largest first.
        symmetrize : bool, default False
            Apply ``S <- max(S, S^T)`` (gu2013 Sec. 6.1); otherwise a directed
            ``S`` is an error.
        features : array-like or sparse matrix of shape (n_nodes, n_features), optional
        node_ids : array-like of shape (n_nodes,), optional
            The nodes' original names.
        info : dict, optional
            Provenance notes, kept in ``info``.

        Returns
        -------
        Graph, or list of Graph with ``lcc="split"``

        Raises
        ------
        TypeError
            ``S`` is not a real matrix, or is a Graph.
        ValueError
            ``S`` is invalid or directed (without ``symmetrize``), disconnected
            with ``lcc=False``, a size does not match, a label is not an integer
            or a class name, or no node is labelled and ``class_names`` is not given.

        Examples
        --------
        >>> S = np.array([[0, 2, 0], [0, 0, 1], [0, 1, 0]])
        >>> g = Graph.from_adjacency(S, ["x", "y", "x"], symmetrize=True)
        >>> g, g.labels.tolist(), g.adjacency.toarray().tolist()
        (Graph(name='graph', n_nodes=3, n_edges=2, n_classes=2), [0, 1, 0], [[0.0, 2.0, 0.0], [2.0, 0.0, 1.0], [0.0, 1.0, 0.0]])
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

        Self-loops are dropped.

        Parameters
        ----------
        edges : array-like of int of shape (m, 2)
            Undirected (default): each row is the edge ``{i, j}``. An edge
            listed in both directions with the same weight (``i j`` and ``j i``,
            the format of ``np.argwhere(A)`` and PyTorch Geometric) counts once;
            an edge listed more than once otherwise adds its weights. Both are
            reported by a :class:`DataWarning`.
        labels : array-like of shape (n_nodes,)
            One entry per node (nodes ``0..len(labels)-1``), with the
            conventions of :meth:`from_adjacency`.
        weights : array-like of shape (m,), optional
            Non-negative finite edge weights; default all 1.
        n_nodes : int, optional
            Number of nodes; must equal ``len(labels)``.
        directed : bool, default False
            Read each row as ``i -> j`` (repeated rows add, with a warning) and
            symmetrise with ``max(S, S^T)``.
        **kwargs
            Passed to :meth:`from_adjacency` (``lcc``, ``class_names``, ``name``, ...).

        Returns
        -------
        Graph

        Raises
        ------
        TypeError
            ``edges`` are not integers.
        ValueError
            ``edges`` is not ``(m, 2)`` or names a node out of range, ``labels``
            is not 1-D or its length is not ``n_nodes``, a weight is negative or
            not finite, or as :meth:`from_adjacency`.

        Examples
        --------
        >>> g = Graph.from_edges([[0, 1], [1, 2]], [0, 1, 0], weights=[2.0, 0.5])
        >>> g.n_edges, g.adjacency.toarray().tolist()
        (2, [[0.0, 2.0, 0.0], [2.0, 0.0, 0.5], [0.0, 0.5, 0.0]])
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
        from ..readers import read_csv

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
        from ..readers import read_csv

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
        from ..readers import read_graphml

        return read_graphml(path, label_attr, weight=weight, graph_cls=cls, **kwargs)

    @classmethod
    def from_networkx(
        cls, G: nx.Graph, label_attr: str = "label", *, weight: str | None = "weight", **kwargs: Any
    ) -> Graph:
        """Build a Graph from a networkx graph whose nodes carry ``label_attr``.

        Self-loops are dropped. Node order follows ``G.nodes``; the original
        node names are kept in ``node_ids``.

        Parameters
        ----------
        G : networkx.Graph
            Undirected, or directed with ``symmetrize=True`` (then ``S <- max(S, S^T)``).
        label_attr : str, default "label"
            The node attribute holding the class. A node whose label is ``None``,
            ``NaN`` or ``-1`` (also as text, and the other missing-value markers
            ``""``, ``"NaN"``, ``"None"``, ``"null"``, ``"NA"``, ... in any case:
            :data:`graphsel_lib._validation.MISSING_LABELS`), or that lacks the
            attribute, is unlabelled and kept, as in :meth:`from_adjacency` (the
            number without the attribute is said in a :class:`DataWarning`).
        weight : str or None, default "weight"
            The edge attribute holding the weight, a number (text such as
            ``"2.5"`` is refused, naming an edge); ``None``: all 1.
        **kwargs
            Passed to :meth:`from_adjacency` (``symmetrize``, ``lcc``, ``class_names``, ``name``, ...).

        Returns
        -------
        Graph
            Its nodes in the order of ``G.nodes``, their names in ``node_ids``.

        Raises
        ------
        TypeError
            ``G`` is not a networkx graph, or a weight is not a number.
        ValueError
            ``G`` has no node, is directed without ``symmetrize``, no node has
            ``label_attr``, or as :meth:`from_adjacency`.

        Examples
        --------
        >>> import networkx as nx
        >>> G = nx.Graph([("a", "b", {"weight": 2.0}), ("b", "c", {})])
        >>> nx.set_node_attributes(G, {"a": "x", "b": "y", "c": "x"}, "label")
        >>> g = Graph.from_networkx(G)
        >>> g.node_names.tolist(), g.class_names, g.labels.tolist()
        (['a', 'b', 'c'], ['x', 'y'], [0, 1, 0])
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
        """The graph as ``networkx.Graph`` with a ``label`` attribute on every labelled node.

        Returns
        -------
        networkx.Graph
            Nodes ``0..n_nodes-1``, edge attribute ``weight``, graph name :attr:`name`.

        Examples
        --------
        >>> G = Graph.from_edges([[0, 1], [1, 2]], [0, 1, 1], weights=[2.0, 0.5]).to_networkx()
        >>> dict(G.nodes(data="label")), list(G.edges(data="weight"))
        ({0: 0, 1: 1, 2: 1}, [(0, 1, 2.0), (1, 2, 0.5)])
        """
        import networkx as nx

        G = nx.from_scipy_sparse_array(self.adjacency)
        nx.set_node_attributes(G, {i: int(c) for i, c in enumerate(self.labels) if c != UNLABELLED}, "label")
        G.name = self.name
        return G
