r"""Pool-based query strategies: random, expected error reduction (EER) and S².

RandomPool
----------
A node drawn uniformly among the unlabelled ones.

EER (Zhu, Lafferty & Ghahramani 2003)
-------------------------------------
"Combining active learning and semi-supervised learning using Gaussian
fields and harmonic functions" (ICML 2003 workshop), Sec. 3–4. With
``L = D − W``, the labelled set ``ℓ``, the unlabelled set ``U``, the one-hot
labels ``Y_ℓ`` (n_ℓ × K) and ``G = (L_UU)^{-1}``, the harmonic function is
``F_U = G W_Uℓ Y_ℓ`` (rows: probability vectors over the K classes). The
estimated risk of querying ``k ∈ U`` is

    R(k) = Σ_c P(y_k = c) · Σ_{i∈U} (1 − max_{c'} F^{+(k,c)}_i(c')),      P(y_k = c) = F_k(c),

``F^{+(k,c)}`` the harmonic function after adding ``(k, c)`` to the labels
(node ``k`` itself then contributes 0); EER queries ``argmin_k R(k)``.

*Rank-one update (the paper's Eq. for f^{+(x_k, y_k)}, here with K columns).*
Adding ``(k, c)`` clamps row ``k`` to ``e_c`` and leaves ``F`` harmonic on
``U' = U ∖ {k}``. Take ``F' = F_U + g r`` with ``g = G e_k`` (column ``k`` of
``G``) and a row vector ``r ∈ ℝ^K``: then ``L_UU F' = W_Uℓ Y_ℓ + e_k r``, whose
rows ``i ∈ U'`` are exactly the harmonic equations of the enlarged problem
(node ``k``'s term ``−W_ik F'_k`` moved to the left-hand side), and row ``k``
of ``F'`` is ``F_k + G_kk r``. Choosing ``r = (e_c − F_k)/G_kk`` clamps it:

    F^{+(k,c)}_U = F_U + G[:, k] (e_c − F_k) / G_kk,

and by uniqueness of the harmonic solution (``L_{U'U'}`` is positive definite
on a connected graph with a label) its rows ``U'`` are the new harmonic
function. Evaluating every ``(k, c)`` costs ``O(|U|² K²)`` with no solve.
After the true label ``c`` of the queried ``k`` is revealed, ``F`` is updated
by the same formula and ``G`` by the matching rank-one downdate of the
inverse (the Schur complement of ``G_kk``):

    (L_{U'U'})^{-1} = G_{U'U'} − G_{U'k} G_{kU'} / G_kk,

so ``L_UU`` is inverted once, in ``reset`` (dense, ``n ≤ max_nodes``).

Ties: the risks within ``1e-9 · max(1, |min R|)`` of the smallest tie, and
go to the smallest node id (the efficient and naive forms round differently).
EER scores with the plain harmonic function (no CMN), as the paper; it
needs a labelled node to start (``run_pool(..., initial=...)``).

S² (Dasarathy, Nowak & Zhu, COLT 2015)
---------------------------------------
"S²: An efficient graph based active learning algorithm with application to
nonparametric classification", Algorithm 1. Every edge whose two ends are
labelled with different labels is removed from the graph (a cut edge found).
If some path still joins two nodes with different labels, the "shortest
shortest path" is the shortest among all such paths (length ``ℓ*`` in hops;
the weights are ignored, as in the paper's unweighted setting) and S²
queries its midpoint; otherwise it queries a node drawn uniformly among the
unlabelled ones (the paper's random phase, which also covers the start, with
fewer than two labels).

*K classes.* Used as in the paper with "different labels" for "opposite
labels": cut edges join any two different classes and the shortest shortest
path runs between any two differently labelled nodes (not one-vs-rest: S²
then bisects the boundary between whichever two classes are closest, and K
one-vs-rest copies would query each boundary twice). For K = 2 it is the
paper's algorithm.

*Midpoint, and ties.* A node ``v`` is a midpoint of a shortest shortest path
when it lies on such a path at distance ``⌊ℓ*/2⌋`` or ``⌈ℓ*/2⌉`` from one
end; among all midpoints of all shortest shortest paths, S² takes the
smallest node id. Computed with one multi-source BFS per class in the pruned
graph (``D_c(v)``: hops from ``v`` to the nearest node labelled ``c``):
``ℓ* = min_{v, c≠c'} D_c(v) + D_{c'}(v)``, and the midpoints are the
unlabelled ``v`` with ``D_c(v) + D_{c'}(v) = ℓ*`` and ``|D_c(v) − D_{c'}(v)| ≤ 1``
for some ``c ≠ c'``. (At ``ℓ*`` every interior node of such a path is
unlabelled, else a sub-path would be shorter; ``ℓ* ≥ 2`` as the cut edges
are gone.) Cost per query ``O(K (n + m))``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph

from .._validation import Seed, as_generator, check_integer, check_seed

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from .protocol import PoolState

__all__ = ["RandomPool", "EER", "S2", "RISK_TIE_RTOL", "pick_smallest", "random_unlabelled", "pruned_graph"]

#: Risks within ``RISK_TIE_RTOL · max(1, |min|)`` of the smallest one tie (smallest node id wins).
RISK_TIE_RTOL = 1e-9


def pick_smallest(nodes: ArrayLike, risk: ArrayLike, rtol: float = RISK_TIE_RTOL) -> int:
    """The node of smallest ``risk``, near-ties (``rtol``) to the smallest node id (``nodes`` sorted)."""
    r = np.asarray(risk, dtype=float)
    best = float(r.min())
    return int(np.asarray(nodes)[np.flatnonzero(r <= best + rtol * max(1.0, abs(best)))[0]])


def random_unlabelled(state: PoolState, rng: np.random.Generator) -> int:
    """A node drawn uniformly among ``state``'s unlabelled nodes (one ``rng.integers`` draw)."""
    unl = state.unlabelled
    return int(unl[rng.integers(unl.size)])


def _own_rng(seed: Seed, state: PoolState) -> np.random.Generator:
    return state.rng if seed is None else as_generator(seed)


class RandomPool:
    """Uniform over the unlabelled nodes.

    Parameters
    ----------
    seed : int, numpy.random.Generator or None, default None
        Its own generator (an integer restarts it at every ``reset``; a generator continues); None: the
        run's ``state.rng`` (seeded by :func:`run_pool`).

    Raises
    ------
    TypeError
        ``seed`` is not a seed (a float, a bool).

    Examples
    --------
    >>> import networkx as nx
    >>> from graphsel_lib.active import run_pool
    >>> S = nx.to_scipy_sparse_array(nx.cycle_graph(8))
    >>> a = run_pool(RandomPool(seed=3), S, [0] * 4 + [1] * 4, budget=3)
    >>> b = run_pool(RandomPool(seed=np.random.default_rng(3)), S, [0] * 4 + [1] * 4, budget=3)
    >>> a.queries.tolist() == b.queries.tolist()
    True
    """

    def __init__(self, seed: Seed = None) -> None:
        self.seed = check_seed(seed)

    def reset(self, state: PoolState) -> None:
        """Take the generator of this run (its own, or ``state.rng``)."""
        self._rng = _own_rng(self.seed, state)

    def select(self, state: PoolState) -> int:
        """A node drawn uniformly among the unlabelled ones."""
        if not hasattr(self, "_rng"):
            self.reset(state)
        return random_unlabelled(state, self._rng)

    def __repr__(self):
        return f"RandomPool(seed={self.seed!r})"


class EER:
    """Expected error reduction on the harmonic function (Zhu, Lafferty & Ghahramani 2003), by rank-one updates.

    See the module docstring for the risk, the update ``F^{+(k,c)} = F + G[:,k](e_c − F_k)/G_kk``
    and the downdate of ``G = L_UU^{-1}``.

    Parameters
    ----------
    max_nodes : int, default 5000
        Largest graph for the dense ``G``.
    block : int, default 256
        Candidates evaluated together (memory ``block · |U| · K`` floats).

    Raises
    ------
    TypeError, ValueError
        ``max_nodes`` or ``block`` not an integer ``>= 1``.

    Examples
    --------
    On a path whose ends are labelled, EER asks for the two middle nodes, where the classes meet:

    >>> import networkx as nx
    >>> from graphsel_lib.active import run_pool
    >>> S = nx.to_scipy_sparse_array(nx.path_graph(6))
    >>> trace = run_pool(EER(), S, [0, 0, 0, 1, 1, 1], budget=2, initial=[0, 5])
    >>> trace.queries.tolist(), float(trace.errors[-1])
    ([2, 3], 0.0)
    """

    def __init__(self, *, max_nodes: int = 5000, block: int = 256) -> None:
        self.max_nodes = check_integer(max_nodes, "max_nodes", minimum=1)
        self.block = check_integer(block, "block", minimum=1)

    def __repr__(self):
        return f"EER(max_nodes={self.max_nodes}, block={self.block})"

    def reset(self, state: PoolState) -> None:
        """Invert ``L_UU`` once and compute the harmonic ``F_U`` of the labels so far.

        Raises
        ------
        ValueError
            ``state.n > max_nodes``, or no node is labelled yet (pass ``run_pool(..., initial=...)``).
        """
        if state.n > self.max_nodes:
            raise ValueError(f"EER keeps a dense inverse: n = {state.n} > max_nodes = {self.max_nodes}")
        if not state.labelled:
            raise ValueError(
                "EER needs at least one labelled node to start from (the harmonic function is undefined "
                "without one): pass run_pool(..., initial=...)"
            )
        S = state.S
        deg = np.asarray(S.sum(axis=1)).ravel()
        Lap = (sp.diags(deg) - S).toarray()
        lab = np.asarray(state.labelled)
        unl = state.unlabelled
        self._U = unl
        self._G = np.linalg.inv(Lap[np.ix_(unl, unl)])
        self._G = (self._G + self._G.T) / 2
        Y = np.zeros((lab.size, state.n_classes))
        Y[np.arange(lab.size), state.y_known[lab]] = 1.0
        self._F = self._G @ (-Lap[np.ix_(unl, lab)] @ Y)
        self._done = len(state.labelled)

    def _absorb(self, k_node, c):
        """Clamp ``k_node`` to class ``c``: rank-one update of ``F``, downdate of ``G``, drop its row."""
        k = int(np.searchsorted(self._U, k_node))
        G, F = self._G, self._F
        g = G[:, k].copy()
        e = -F[k].copy()
        e[c] += 1.0
        F += np.outer(g / g[k], e)
        G -= np.outer(g, g / g[k])
        keep = np.arange(self._U.size) != k
        self._U = self._U[keep]
        self._F = F[keep]
        self._G = G[np.ix_(keep, keep)]

    def risks(self, state: PoolState) -> np.ndarray:
        """``R(k)`` for every unlabelled ``k`` (sorted as ``state.unlabelled``): the paper's estimated risk.

        Parameters
        ----------
        state : PoolState
            The labels revealed since the last call are absorbed first (rank-one updates).

        Returns
        -------
        ndarray of float of shape (|U|,)
        """
        if not hasattr(self, "_G"):
            self.reset(state)
        for u in state.labelled[self._done :]:
            self._absorb(u, int(state.y_known[u]))
        self._done = len(state.labelled)
        G, F = self._G, self._F
        m, K = F.shape
        scale = G / np.diag(G)[None, :]  # scale[i, k] = G_ik / G_kk
        risk = np.zeros(m)
        for c in range(K):
            if not F[:, c].any():
                continue  # P(y_k = c) = 0 for every k
            D = -F.copy()
            D[:, c] += 1.0  # row k: e_c - F_k
            for s in range(0, m, self.block):
                ks = slice(s, min(m, s + self.block))
                Fp = F[:, None, :] + scale[:, ks, None] * D[None, ks, :]  # (i, k, c')
                loss = (1.0 - Fp.max(axis=2)).sum(axis=0)
                risk[ks] += F[ks, c] * loss
        return risk

    def select(self, state: PoolState) -> int:
        """``argmin_k R(k)``; near-ties (:data:`RISK_TIE_RTOL`) go to the smallest node id."""
        risk = self.risks(state)
        return pick_smallest(self._U, risk)


def pruned_graph(state: PoolState) -> sp.csr_matrix:
    """``state.S`` (as 0/1 hops) without the edges whose two ends are labelled with different labels."""
    C = state.S.tocoo()
    y = state.y_known
    cut = (y[C.row] >= 0) & (y[C.col] >= 0) & (y[C.row] != y[C.col])
    keep = ~cut
    return sp.csr_matrix((np.ones(int(keep.sum())), (C.row[keep], C.col[keep])), shape=state.S.shape)


class S2:
    """S² (Dasarathy, Nowak & Zhu 2015): bisect the shortest shortest path between different labels.

    See the module docstring for the K-class rule and the midpoint ties.

    Parameters
    ----------
    seed : int, numpy.random.Generator or None, default None
        Generator of the random phase; None: the run's ``state.rng``.

    Raises
    ------
    TypeError
        ``seed`` is not a seed.

    Examples
    --------
    >>> import networkx as nx
    >>> from graphsel_lib.active import run_pool
    >>> S = nx.to_scipy_sparse_array(nx.path_graph(6))
    >>> trace = run_pool(S2(seed=0), S, [0, 0, 0, 1, 1, 1], budget=2, initial=[0, 5])
    >>> trace.queries.tolist()  # the midpoint of the path between the two labels, then the cut edge's other end
    [2, 3]
    """

    def __init__(self, seed: Seed = None) -> None:
        self.seed = check_seed(seed)

    def __repr__(self):
        return f"S2(seed={self.seed!r})"

    def reset(self, state: PoolState) -> None:
        """Take the generator of the random phase (its own, or ``state.rng``)."""
        self._rng = _own_rng(self.seed, state)

    def midpoint(self, state: PoolState) -> int | None:
        """The S² midpoint (smallest id), or None when no path joins two different labels.

        Examples
        --------
        >>> import networkx as nx
        >>> from graphsel_lib.active import PoolState
        >>> state = PoolState(nx.to_scipy_sparse_array(nx.path_graph(7), format="csr"), 2, None)
        >>> state._reveal(0, 0); state._reveal(6, 1)
        >>> S2().midpoint(state)
        3
        """
        y = state.y_known
        lab = np.flatnonzero(y >= 0)
        classes = np.unique(y[lab])
        if classes.size < 2:
            return None
        G = pruned_graph(state)
        D = np.vstack(
            [
                csgraph.dijkstra(G, directed=True, indices=lab[y[lab] == c], unweighted=True, min_only=True)
                for c in classes
            ]
        )
        unl = state.unlabelled
        Du = D[:, unl]  # (classes, |U|)
        best = np.inf
        for a in range(classes.size):
            for b in range(a + 1, classes.size):
                best = min(best, float((Du[a] + Du[b]).min()))
        if not np.isfinite(best):
            return None
        mid = np.zeros(unl.size, dtype=bool)
        with np.errstate(invalid="ignore"):  # inf - inf where neither class reaches a node
            for a in range(classes.size):
                for b in range(a + 1, classes.size):
                    mid |= (Du[a] + Du[b] == best) & (np.abs(Du[a] - Du[b]) <= 1)
        return int(unl[np.flatnonzero(mid)[0]])

    def select(self, state: PoolState) -> int:
        """The midpoint, or (no path between different labels) a node drawn uniformly among the unlabelled."""
        if not hasattr(self, "_rng"):
            self.reset(state)
        v = self.midpoint(state)
        return random_unlabelled(state, self._rng) if v is None else v
