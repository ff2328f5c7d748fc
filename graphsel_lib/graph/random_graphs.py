"""Random connected graphs and graph families (with random weights) for the tests and chapters."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

if TYPE_CHECKING:
    import networkx as nx

    from .types import Adjacency
from .._validation import Seed, as_generator, check_integer
from .checks import check_adjacency

# --------------------------------------------------------------------------- random graphs for the checks
#: The eight families of :func:`random_family_graph` (chapter 02's checks of the kernel bounds).
RANDOM_GRAPH_FAMILIES = (
    "Erdos-Renyi", "random tree", "path or cycle", "grid", "Watts-Strogatz", "Barabasi-Albert",
    "random geometric", "lollipop",
)  # fmt: skip


def random_connected_graph(
    rng: Seed, n: int, p: float, *, weights: tuple[float, float] | None = (0.1, 3.0)
) -> sp.csr_matrix:
    """A connected random graph: a random spanning tree plus Erdős–Rényi edges ([Erdős & Rényi 1959]).

    The nodes of a random permutation are attached one by one to a uniformly
    chosen earlier node (a spanning tree, so the graph is connected), then every
    pair ``i < j`` gets an extra edge with probability ``p``. Chapter 01
    checks its identities on graphs drawn here.

    Parameters
    ----------
    rng : int, numpy.random.Generator or None
        All the randomness, drawn in a fixed order: a generator (its stream
        continues) or a seed for ``numpy.random.default_rng``.
    n : int
        Number of nodes, ``n >= 2``.
    p : float
        Probability of each extra edge.
    weights : (float, float) or None, default (0.1, 3.0)
        Edge weights are uniform in ``(low, high)``; ``None`` gives all ones.

    Returns
    -------
    scipy.sparse.csr_matrix of shape (n, n)
        Symmetric, zero diagonal, connected.

    Raises
    ------
    ValueError, TypeError
        ``n`` is not an integer ``>= 2``, or ``rng`` is not a seed.

    Examples
    --------
    >>> from graphsel_lib.graph import n_components
    >>> S = random_connected_graph(0, 6, 0.2, weights=None)
    >>> S.shape, n_components(S), S.nnz // 2
    ((6, 6), 1, 7)
    """
    rng = as_generator(rng, "rng")
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
    family: str, rng: Seed, *, min_nodes: int = 5, max_nodes: int = 80
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

    Parameters
    ----------
    family : str
        One of :data:`RANDOM_GRAPH_FAMILIES`.
    rng : int, numpy.random.Generator or None
        A generator (its stream continues) or a seed.
    min_nodes, max_nodes : int, default 5 and 80
        Range of the number of nodes.

    Returns
    -------
    G : networkx.Graph
        Nodes ``0..n-1``.
    S : scipy.sparse.csr_matrix of shape (n, n)
        Its adjacency (unit weights).

    Raises
    ------
    ValueError
        ``family`` is unknown.

    Examples
    --------
    >>> G, S = random_family_graph("path or cycle", 1, min_nodes=5, max_nodes=8)
    >>> G.number_of_nodes(), S.shape, S.nnz // 2
    (6, (6, 6), 6)
    """
    rng = as_generator(rng, "rng")
    while True:
        G, S = _one_family_graph(family, rng, min_nodes, max_nodes)
        if S.shape[0] >= min_nodes:
            return G, S


def with_random_weights(S: Adjacency, rng: Seed, low: float = 0.1, high: float = 3.0) -> sp.csr_matrix:
    """The graph ``S`` with each edge weight redrawn uniformly in ``[low, high]`` (symmetric CSR).

    The weights are drawn in the order of the upper triangle's entries. With
    weights in ``[0.1, 3]`` some edges are "long" (resistance ``1/S_ij`` up to
    10), which is where the hop-count bound ``K_tt ≤ ρ_t`` can fail and the
    resistance-length one is needed (chapter 02 §2).

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Symmetric non-negative weights; only the edges are used.
    rng : int, numpy.random.Generator or None
        A generator (its stream continues) or a seed.
    low, high : float, default 0.1 and 3.0
        Range of the new weights.

    Returns
    -------
    scipy.sparse.csr_matrix of shape (n_nodes, n_nodes)
        Symmetric, with the edges of ``S``.

    Raises
    ------
    ValueError, TypeError
        ``S`` is not a valid weight matrix, or ``rng`` is not a seed.

    Examples
    --------
    >>> path = np.array([[0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 0]])
    >>> W = with_random_weights(path, 0, low=1.0, high=2.0)
    >>> W.nnz, (W != W.T).nnz, bool(np.all((W.data >= 1) & (W.data <= 2)))
    (6, 0, True)
    """
    rng = as_generator(rng, "rng")
    C = sp.triu(check_adjacency(S), k=1).tocoo()
    w = rng.uniform(low, high, C.nnz)
    W = sp.coo_matrix((w, (C.row, C.col)), shape=C.shape).tocsr()
    return (W + W.T).tocsr()
