"""Large labelled graphs drawn at random, sparse from the start: a degree-corrected stochastic block model.

``sbm(n_nodes, n_blocks=…, avg_degree=…, mixing=…, seed=…)`` follows the
degree-corrected block model of Karrer & Newman (Phys. Rev. E 83, 2011):
node ``i`` of block ``b_i`` has a propensity ``θ_i`` (heavy-tailed: a Pareto
law with tail exponent ``degree_exponent``, scaled to mean 1 in every block),
and its expected degree is ``θ_i · avg_degree``. A share ``1 − mixing`` of the
edges stays inside the blocks and ``mixing`` crosses them, so ``mixing`` is
the expected fraction of a node's edges that leave its block.

Sampling is O(edges) in time and memory, never O(n²): the number of edges
inside block b is Poisson with mean ``(1 − mixing) · avg_degree · Σ_{i∈b} θ_i / 2``
and each of their two ends is drawn from block b with probability ∝ θ; the
crossing edges (Poisson, mean ``mixing · n · avg_degree / 2``) draw both ends
from all nodes ∝ θ and redraw the pairs that fall inside one block. Self-loops
and repeated pairs are dropped (the graph is unweighted), which lowers the
realised degree of the largest hubs slightly; nodes outside the largest
connected component are dropped with a :class:`~graphsel_lib.DataWarning`
saying how many.
"""

from __future__ import annotations

import warnings

import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph

from .._validation import DataWarning, Seed, as_generator, check_integer, check_positive, check_probability
from ..graph import Graph

__all__ = ["sbm"]


def _propensities(rng, sizes, exponent):
    """θ: Pareto(exponent − 1) + 1 draws (tail P(θ > x) ∝ x^{1−exponent}), mean 1 within each block."""
    theta = rng.pareto(exponent - 1.0, int(sizes.sum())) + 1.0
    start = 0
    for s in sizes:
        theta[start : start + s] /= theta[start : start + s].mean()
        start += s
    return theta


def _draw(rng, cdf, offset, size):
    """``size`` node ids ``offset + k`` with P(k) from the cumulative weights ``cdf`` (ending at 1)."""
    return offset + np.searchsorted(cdf, rng.random(size), side="right").clip(max=cdf.size - 1)


def sbm(
    n_nodes: int,
    *,
    n_blocks: int,
    avg_degree: float,
    mixing: float,
    seed: Seed,
    degree_exponent: float = 2.5,
    name: str | None = None,
) -> Graph:
    """A degree-corrected stochastic block model as a labelled :class:`~graphsel_lib.Graph` (Karrer & Newman 2011).

    Parameters
    ----------
    n_nodes : int ≥ 2 · n_blocks
        Nodes before the reduction to the largest connected component.
    n_blocks : int ≥ 2
        Blocks = classes (as equal in size as possible; block k is class k).
    avg_degree : float > 0
        Expected mean degree (before self-loops and repeated pairs are dropped).
    mixing : float in [0, 1)
        Expected fraction of a node's edges that leave its block.
    seed : int >= 0, numpy.random.Generator or None
        Seeds every draw: the same integer gives the same graph (and appears in its name); a generator is
        drawn from (its stream continues; the name says ``seed=generator``); None draws fresh entropy.
    degree_exponent : float > 2, default 2.5
        Tail exponent of the degree propensities (a finite mean needs > 2).
    name : str, optional
        Default ``"sbm[n=…,K=…,deg=…,mix=…,seed=…]"``.

    Returns
    -------
    Graph
        Unweighted, connected (largest component), labels = blocks;
        ``info`` holds the parameters, the nodes dropped, the realised
        fraction of crossing edges (``mixing_realised``) and the realised mean
        degree (``avg_degree_realised``; a :class:`DataWarning` if it is below
        half of ``avg_degree``: repeated pairs are one edge).

    Raises
    ------
    ValueError, TypeError
        A parameter out of its range or of the wrong type.

    Examples
    --------
    >>> g = sbm(200, n_blocks=2, avg_degree=20, mixing=0.1, seed=0)
    >>> g.n_classes, g.name
    (2, 'sbm[n=200,K=2,deg=20,mix=0.1,seed=0]')
    >>> import numpy as np
    >>> h = sbm(200, n_blocks=2, avg_degree=20, mixing=0.1, seed=np.random.default_rng(0))
    >>> bool((h.adjacency != g.adjacency).nnz == 0), h.name
    (True, 'sbm[n=200,K=2,deg=20,mix=0.1,seed=generator]')
    """
    n = check_integer(n_nodes, "n_nodes", minimum=2)
    K = check_integer(n_blocks, "n_blocks", minimum=2)
    if n < 2 * K:
        raise ValueError(f"n_nodes must be at least 2 * n_blocks = {2 * K}, got {n}")
    avg_degree = check_positive(avg_degree, "avg_degree")
    if avg_degree >= n - 1:
        raise ValueError(
            f"avg_degree must be below n_nodes - 1 = {n - 1} (a simple graph on {n} nodes has no larger mean "
            f"degree), got {avg_degree:g}; a dense graph is better built directly"
        )
    mixing = check_probability(mixing, "mixing")
    if mixing >= 1.0:
        raise ValueError("mixing must be < 1 (with mixing = 1 no edge stays inside a block)")
    exponent = check_positive(degree_exponent, "degree_exponent")
    if exponent <= 2.0:
        raise ValueError(f"degree_exponent must be > 2 (a finite mean degree), got {exponent}")
    if not (seed is None or isinstance(seed, np.random.Generator)):
        seed = check_integer(seed, "seed", minimum=0)  # part of the graph's name
    rng = as_generator(seed)
    shown = "generator" if isinstance(seed, np.random.Generator) else seed

    sizes = np.full(K, n // K, dtype=np.int64)
    sizes[: n % K] += 1
    starts = np.concatenate([[0], np.cumsum(sizes)])
    block = np.repeat(np.arange(K), sizes)
    theta = _propensities(rng, sizes, exponent)

    rows, cols = [], []
    for b in range(K):  # edges inside block b: both ends ∝ θ within the block
        t = theta[starts[b] : starts[b + 1]]
        m = rng.poisson((1.0 - mixing) * avg_degree * t.sum() / 2.0)
        cdf = np.cumsum(t) / t.sum()
        rows.append(_draw(rng, cdf, starts[b], m))
        cols.append(_draw(rng, cdf, starts[b], m))
    m = rng.poisson(mixing * avg_degree * n / 2.0)  # crossing edges: both ends ∝ θ, redraw same-block pairs
    cdf = np.cumsum(theta) / theta.sum()
    u = np.empty(0, dtype=np.int64)
    v = np.empty(0, dtype=np.int64)
    while u.size < m:
        need = m - u.size
        a = _draw(rng, cdf, 0, need)
        c = _draw(rng, cdf, 0, need)
        keep = block[a] != block[c]
        u, v = np.concatenate([u, a[keep]]), np.concatenate([v, c[keep]])
    rows.append(u)
    cols.append(v)
    r, c = np.concatenate(rows), np.concatenate(cols)
    keep = r != c
    r, c = r[keep], c[keep]
    S = sp.csr_matrix((np.ones(r.size), (r, c)), shape=(n, n))
    S = (S + S.T).tocsr()
    S.data[:] = 1.0  # unweighted: repeated pairs are one edge

    n_comp, comp = csgraph.connected_components(S, directed=False)
    dropped = 0
    if n_comp > 1:
        largest = np.argmax(np.bincount(comp))
        keep_nodes = np.flatnonzero(comp == largest)
        dropped = n - keep_nodes.size
        S = S[keep_nodes][:, keep_nodes].tocsr()
        block = block[keep_nodes]
    upper = sp.triu(S, k=1).tocoo()
    crossing = float(np.mean(block[upper.row] != block[upper.col])) if upper.nnz else 0.0
    label = name or f"sbm[n={n},K={K},deg={avg_degree:g},mix={mixing:g},seed={shown}]"
    if dropped:
        warnings.warn(
            f"{label}: kept the largest of {n_comp} connected components: dropped {dropped} of {n} nodes "
            "(isolated or in small components; raise avg_degree to lose fewer)",
            DataWarning,
            stacklevel=2,
        )
    realised = 2.0 * upper.nnz / S.shape[0] if S.shape[0] else 0.0
    if realised < 0.5 * avg_degree:
        warnings.warn(
            f"{label}: the mean degree is {realised:.3g}, less than half the avg_degree = {avg_degree:g} asked for: "
            "pairs drawn twice are one edge, and with few nodes or heavy-tailed degrees many are (ask for fewer "
            "edges per node, more nodes or a larger degree_exponent)",
            DataWarning,
            stacklevel=2,
        )
    present = np.unique(block)
    if present.size < K:  # a block lost entirely (only on tiny graphs): renumber and say so
        warnings.warn(
            f"{label}: blocks {sorted(set(range(K)) - set(present.tolist()))} vanished", DataWarning, 2
        )
    labels = np.searchsorted(present, block)
    info = dict(
        generator="degree-corrected stochastic block model (Karrer & Newman 2011)",
        params=dict(
            n_nodes=n, n_blocks=K, avg_degree=avg_degree, mixing=mixing, seed=shown, degree_exponent=exponent
        ),
        nodes_dropped={"outside_lcc": int(dropped)},
        mixing_realised=crossing,
        avg_degree_realised=realised,
    )
    return Graph(S, labels, [f"block {k}" for k in present], label, None, None, info)
