r"""The weighted tree algorithm (WTA): nearest neighbour on a line drawn from a random spanning tree.

Cesa-Bianchi, Gentile, Vitale & Zappella, "Random spanning trees and the
prediction of weighted graphs", JMLR 14 (2013) 1251–1284 (ICML 2010). The
paper's text is not in the repository; the construction below follows its
description of WTA (the figure caption of the linearisation: a depth-first
visit stored in a line ``L'``, duplicates eliminated in the order of their
insertion) and is derived here step by step. The multiclass form and the
committees are this library's.

Algorithm
---------
1. **Random spanning tree** ``T`` of the (connected) graph by Wilson's
   algorithm (Wilson 1996, loop-erased random walks): a root ``r`` is drawn
   uniformly; for every node ``i`` not yet in the tree (in the order
   ``0..n-1``), a random walk from ``i`` runs until it hits the tree, each
   node remembering the edge it last left by; the loop-erased path (read by
   following the remembered edges from ``i``) joins the tree. The walk moves
   from ``u`` to ``v`` with probability ``S_uv / d_u``, so ``T`` is drawn with
   probability ``∝ Π_{e∈T} S_e`` (uniform for unweighted graphs).
   :func:`random_spanning_tree`, one :class:`SpanningTreeSampler` per graph.

   *Light edges.* A walk crosses a cut of total weight ``c`` out of a part of
   weight ``V`` after about ``V / c`` steps: a bridge of weight ``1e-6``
   between parts of unit weights costs millions of steps per tree, one of
   ``1e-300`` forever (below a share of about ``1e-16`` of ``d_u`` double
   precision cannot draw the edge at all). The sampler refuses at once a
   graph whose walks could never reach every node, and stops a tree after
   :data:`MAX_WALK_STEPS` steps, with a ValueError naming the lightest edge
   and the fix (strengthen or cut the light edges).
2. **Linearisation.** A depth-first visit of ``T`` from ``r`` (children in
   increasing node id) written down as it walks, backtracking steps
   included, is the line ``L'`` of ``2n − 1`` nodes in which each tree edge
   appears twice (down and up) with its weight. Each duplicate occurrence is
   then eliminated, left to right (the paper's order of insertion): an
   interior occurrence ``… a —w₁— j —w₂— b …`` becomes ``… a —min(w₁,w₂)— b …``,
   a trailing one is dropped with its edge. What remains is the line ``L``
   of the ``n`` nodes in depth-first (first-visit) order.

   *Derivation of the weights of L.* Between two consecutive first visits
   ``u`` then ``v`` the visit backtracks from ``u`` to an ancestor ``a`` and
   steps down to ``v``, a child of ``a`` (``a = u`` when ``v`` is a child of
   ``u``): that stretch of ``L'`` is exactly the tree path ``u → a → v``, each
   edge once, and every node of it but ``u`` and ``v`` is a duplicate. The
   eliminations replace it by one edge whose weight is the minimum over the
   stretch, so the weight of ``(u, v)`` in ``L`` is the **smallest weight on
   the tree path between u and v**. :func:`tree_line` computes it in one
   ``O(n)`` visit by keeping the minimum of the edges climbed since the last
   first visit.
3. **Prediction.** Position ``p`` on ``L`` gets the resistance coordinate
   ``R_p = Σ_{q<p} 1/w_q`` (``w_q`` the weight between positions ``q`` and
   ``q+1``), and the resistance distance along the line between positions
   ``p`` and ``q`` is ``|R_p − R_q|`` (a line is a series circuit). Node ``u``
   at position ``p`` is predicted with the label of the nearest revealed node
   on ``L``: the nearest revealed position to its left and to its right
   (``bisect`` in the sorted list of revealed positions), the smaller
   distance winning and **a tie going to the left** (the earlier position
   of the depth-first order). Before any label is revealed the prediction is
   class ``default`` (0). Every label is revealed (``wants_label`` is True,
   the paper's mistake-bound setting) and joins the sorted list.
4. **Committees** (the paper's experiments use them): ``n_trees = k``
   independent trees, each predicting as above; the majority vote, a tie to
   the lowest class (``numpy.argmax`` of the vote counts).

Speed: the tree costs one random walk (the mean hitting time of the graph,
well under a second for 20,000 nodes; the walk runs compiled,
:func:`~graphsel_lib.online.wta_loop.wilson_walks`); the line ``O(n)``. A round of the
per-round methods costs ``O(k log n)`` comparisons (``bisect``) plus the
insertion of one position in a Python list (a C ``memmove`` of at most ``n``
pointers). :func:`~graphsel_lib.online.run` plays a whole pass compiled
instead (``WTA.compiled_form()``, played by the
:class:`~graphsel_lib.online.protocol.CompiledPass` mixin as the other compiled
learners): every label is revealed and the order is known, so one backward
sweep per tree over a linked list of the revealed positions gives each
round's nearest earlier-revealed neighbours in ``O(1)``
(:func:`~graphsel_lib.online.wta_loop.play_wta`; ``benchmarks/bench_peers.py``).

The learner plays on node ids like :class:`~graphsel_lib.online.Relaxation`:
``run(WTA(S), node_ids(n), y)``. ``info`` per round: ``score`` (the (K,)
vote fractions, a one-hot vector for one tree), ``node``, ``nearest`` (the
revealed node each tree followed, −1 before any label) and ``distance``
(its resistance distance along that tree's line, ``inf`` before any label).
"""

from __future__ import annotations

import bisect
import math
from typing import Any, NamedTuple, cast

import numpy as np

from .._validation import check_integer, check_seed
from ..graph import check_adjacency, n_components
from . import line_walk
from ._params import Params
from .protocol import CompiledPass, CompiledRule, Info, Seed, learner_rng
from .relaxation import node_ids, read_node_id

__all__ = [
    "WTA", "SpanningTree", "SpanningTreeSampler", "random_spanning_tree", "tree_line", "WTALine", "MAX_WALK_STEPS",
]  # fmt: skip

#: Steps of Wilson's random walks allowed for one tree (a few seconds compiled): beyond, a cut of light edges
#: makes the walk too slow to be of use (``V / c`` steps to cross a cut of weight ``c`` out of weight ``V``).
MAX_WALK_STEPS = 10**9
_BUFFER = 4096  # uniforms drawn from the generator at a time (the order of the draws is part of the tree)


class SpanningTree(NamedTuple):
    """A rooted spanning tree: ``parent[v]`` (−1 at ``root``) and ``weight[v] = S[v, parent[v]]`` (0 at the root)."""

    parent: np.ndarray
    weight: np.ndarray
    root: int

    def edges(self) -> np.ndarray:
        """``(n − 1, 2)`` array of the tree's edges ``(v, parent[v])``."""
        child = np.flatnonzero(self.parent >= 0)
        return np.column_stack([child, self.parent[child]])


class WTALine(NamedTuple):
    """The line ``L`` of one tree: ``nodes[p]`` at position ``p``, ``weights[p]`` between ``p`` and ``p + 1``.

    ``position[u]`` is the position of node ``u``; ``R[p] = Σ_{q<p} 1/weights[q]`` its resistance coordinate.
    """

    nodes: np.ndarray
    weights: np.ndarray
    position: np.ndarray
    R: np.ndarray


def _check_connected_graph(S):
    S = check_adjacency(S, drop_loops=True)
    k = n_components(S)
    if k != 1:
        raise ValueError(
            f"WTA needs a connected graph (a spanning tree), got {k} connected components; "
            "use graphsel_lib.largest_connected_component() or Graph(..., lcc=True)"
        )
    return S.tocsr()


class SpanningTreeSampler:
    """Wilson's algorithm on one graph: ``sampler.draw(rng)`` returns a :class:`SpanningTree`.

    The tree has probability ``∝ Π_{e∈T} S_e`` (uniform over spanning trees for
    an unweighted graph). Random numbers drawn from ``rng``, in this order:
    one integer for the root, then one uniform per step of the walks (a step
    from ``u`` picks the neighbour whose cumulative weight interval along row
    ``u`` of ``S``, summed within the row, holds ``U · d_u``). The walks run
    compiled (:func:`~graphsel_lib.online.wta_loop.wilson_walks`; the same steps
    in Python if numba is missing, ``compiled=False``).

    Parameters
    ----------
    S : sparse matrix or array of shape (n, n)
        Symmetric non-negative weights of a connected graph.
    max_steps : int, default :data:`MAX_WALK_STEPS`
        Steps of the walks allowed for one tree.

    Raises
    ------
    ValueError
        ``S`` is not a valid weight matrix or is disconnected; an edge so much
        lighter than its end's other edges that the walk can never take it is
        all that joins some nodes to the others (here, naming it); at ``draw``,
        a tree that needs more than ``max_steps`` steps (a cut of light edges:
        the message names the lightest edge and the fix).
    """

    def __init__(self, S: Any, *, max_steps: int = MAX_WALK_STEPS, compiled: bool = True) -> None:
        self._setup(_check_connected_graph(S), max_steps, compiled)

    @classmethod
    def of_checked(cls, S: Any, *, max_steps: int = MAX_WALK_STEPS) -> SpanningTreeSampler:
        """The compiled sampler of ``S`` as :func:`_check_connected_graph` returned it (not validated again)."""
        sampler = cls.__new__(cls)
        sampler._setup(S, max_steps, True)
        return sampler

    def _setup(self, S, max_steps, compiled):
        self.n = S.shape[0]
        self.data = S.data
        self.unweighted = bool(S.nnz == 0 or np.all(S.data == S.data[0]))
        self.max_steps = check_integer(max_steps, "max_steps", minimum=1)
        self.S = S
        loop = _wta_loop() if compiled else None
        self._walks = (loop.row_cumsum, loop.wilson_walks) if loop is not None else None
        cum = self._walks[0](S.indptr, S.data) if self._walks else _row_cumsum(S.indptr, S.data)
        # cumulative weights within each row: a row's rounding is its own, not that of the rows before it
        self.cum_array = cum
        self._lists = None  # the CSR arrays as Python lists, made for the Python walks only
        if not self.unweighted:
            _check_walkable(S, cum)

    def draw(self, rng: np.random.Generator) -> SpanningTree:
        n = self.n
        root = int(rng.integers(n))
        if self._walks is not None:
            parent, slot, steps = self._draw_compiled(rng, root)
        else:
            parent, slot, steps = self._draw_python(rng, root)
        if steps is None:
            raise ValueError(_over_budget(self.S, self.max_steps))
        parent = np.asarray(parent, dtype=np.int64)
        slot = np.asarray(slot, dtype=np.int64)
        weight = np.where(parent >= 0, self.data[np.maximum(slot, 0)], 0.0)
        return SpanningTree(parent, weight, root)

    def _draw_compiled(self, rng, root):
        from .wta_loop import WALK_DONE, WALK_OVER_BUDGET

        S, n = self.S, self.n
        in_tree = np.zeros(n, dtype=np.bool_)
        in_tree[root] = True
        parent = np.full(n, -1, dtype=np.int64)
        slot = np.full(n, -1, dtype=np.int64)
        if not hasattr(self, "_csr64"):
            self._csr64 = (S.indptr.astype(np.int64), S.indices.astype(np.int64))
        indptr, indices = self._csr64
        buf, k, i, u, walking, steps = rng.random(_BUFFER), 0, 0, 0, False, 0
        walk = self._walks[1]
        while True:
            i, u, k, walking, steps, status = walk(
                indptr, indices, self.cum_array, self.unweighted, in_tree, slot, parent, buf, k, i, u, walking,
                steps, self.max_steps,
            )  # fmt: skip
            if status == WALK_DONE:
                return parent, slot, steps
            if status == WALK_OVER_BUDGET:
                return parent, slot, None
            buf, k = rng.random(_BUFFER), 0  # out of uniforms: the next ones, as the Python walk draws them

    def _draw_python(self, rng, root):
        """The walks in Python: the reference of :func:`~graphsel_lib.online.wta_loop.wilson_walks` (same steps)."""
        n = self.n
        parent = [-1] * n
        slot = [-1] * n  # CSR index of the edge (u, parent[u])
        in_tree = [False] * n
        in_tree[root] = True
        if self._lists is None:
            self._lists = (self.S.indptr.tolist(), self.S.indices.tolist(), self.cum_array.tolist())
        indptr, indices, cum = self._lists
        unweighted = self.unweighted
        random = rng.random
        buf, k = random(_BUFFER).tolist(), 0
        steps, max_steps = 0, self.max_steps
        for i in range(n):
            u = i
            while not in_tree[u]:  # the walk: remember the last edge left by
                if k == len(buf):
                    buf, k = random(_BUFFER).tolist(), 0
                if steps >= max_steps:
                    return parent, slot, None
                x = buf[k]
                k += 1
                steps += 1
                s, e = indptr[u], indptr[u + 1]
                if unweighted:
                    j = s + int(x * (e - s))
                    j = j if j < e else e - 1
                else:
                    j = bisect.bisect_right(cum, x * cum[e - 1], s, e - 1)
                slot[u] = j
                u = indices[j]
            u = i
            while not in_tree[u]:  # the loop-erased path joins the tree
                in_tree[u] = True
                parent[u] = indices[slot[u]]
                u = parent[u]
        return parent, slot, steps


def _wta_loop():
    """:mod:`~graphsel_lib.online.wta_loop` (numba), or None if numba cannot be imported (the Python walk and line)."""
    try:
        from . import wta_loop
    except ImportError:  # numba missing or broken
        return None
    return wta_loop


def _row_cumsum(indptr, data):
    """Cumulative sums of ``data`` within each CSR row (Python; :func:`~.wta_loop.row_cumsum` compiled)."""
    out = np.empty_like(data, dtype=np.float64)
    for u in range(indptr.size - 1):
        s, e = indptr[u], indptr[u + 1]
        out[s:e] = np.cumsum(data[s:e])
    return out


def _lightest(S):
    """``(u, v, w, share)`` of the edge with the smallest share ``w / d_u`` of its end's weighted degree."""
    deg = np.asarray(S.sum(axis=1)).ravel()
    rows = np.repeat(np.arange(S.shape[0]), np.diff(S.indptr))
    share = S.data / deg[rows]
    j = int(np.argmin(share))
    return int(rows[j]), int(S.indices[j]), float(S.data[j]), float(share[j])


_FIX = (
    "strengthen the light edges (e.g. S.data = np.maximum(S.data, 1e-3 * S.data.max())), or cut them and run "
    "WTA on each connected part"
)


def _check_walkable(S, cum):
    """ValueError if some edge has no chance to be drawn and the walks, without such edges, cannot reach every node.

    An entry of row ``u`` whose cumulative interval is empty in double precision (a weight below about
    1e-16 of ``d_u``) is never taken from ``u``: if the edges that can be taken do not join every node to
    every other, Wilson's walk from some node never reaches the root (the tree would never be drawn).
    """
    from scipy.sparse import csgraph

    start = np.repeat(S.indptr[:-1], np.diff(S.indptr))
    previous = np.where(np.arange(cum.size) > start, np.concatenate([[0.0], cum[:-1]]), 0.0)
    takeable = cum > previous
    if takeable.all():
        return
    C = S.copy()
    C.data = takeable.astype(np.float64)
    C.eliminate_zeros()
    if csgraph.connected_components(C, directed=True, connection="strong")[0] == 1:
        return
    u, v, w, share = _lightest(S)
    raise ValueError(
        f"WTA cannot draw a random spanning tree of this graph: the edge ({u}, {v}) weighs {w:.3g}, a share "
        f"{share:.1e} of node {u}'s weighted degree, below what double precision can draw (about 1e-16), so "
        "Wilson's random walk never takes it, and the edges it can take do not join every node to every other "
        f"(the walk would never end); {_FIX}"
    )


def _over_budget(S, max_steps):
    """The message of a tree whose walks took more than ``max_steps`` steps: light edges, or a long thin graph."""
    head = f"Wilson's random walk took more than {max_steps:,} steps to draw one spanning tree for WTA"
    ratio = float(S.data.max() / S.data.min())
    if ratio > 1e3:
        u, v, w, share = _lightest(S)
        return (
            f"{head}: the graph's weights span a factor {ratio:.1e} (the edge ({u}, {v}) weighs {w:.3g}, a share "
            f"{share:.1e} of node {u}'s weighted degree), and a walk crosses a cut of light edges only after about "
            f"(weight of the part it leaves) / (weight of the cut) steps; {_FIX}"
        )
    return (
        f"{head}: the graph is long and thin (a walk covers a path of n nodes in about n^2 steps; real graphs of "
        f"{S.shape[0]:,} nodes take about {10 * S.shape[0]:,}); draw the trees with SpanningTreeSampler(S, "
        "max_steps=...) if the wait is worth it"
    )


def random_spanning_tree(S: Any, rng: Seed) -> SpanningTree:
    """A random spanning tree of ``S`` by Wilson's algorithm (``∝ Π S_e``; uniform if unweighted).

    ``rng``: a ``numpy.random.Generator`` or a seed. See :class:`SpanningTreeSampler`.
    """
    rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(check_seed(rng))
    return SpanningTreeSampler(S).draw(rng)


def tree_line(tree: SpanningTree) -> WTALine:
    """The line ``L`` of a :class:`SpanningTree` (module docstring, step 2) as a :class:`WTALine`.

    Depth-first visit from ``tree.root``, children in increasing node id; the
    weight between consecutive nodes of ``L`` is the smallest weight on the
    tree path between them.
    """
    parent, weight, root = tree.parent, tree.weight, int(tree.root)
    n = parent.size
    order = np.argsort(parent, kind="stable")  # children grouped by parent, increasing ids
    order = order[parent[order] >= 0]
    starts = np.searchsorted(parent[order], np.arange(n + 1))
    loop = _wta_loop()
    line_of = line_walk.depth_first_line if loop is None else loop.depth_first_line  # the same code, compiled
    line, gaps = line_of(
        order, starts, weight.astype(np.float64, copy=False), root
    )  # argsort, searchsorted: int64
    position = np.empty(n, dtype=np.int64)
    position[line] = np.arange(n)
    R = np.concatenate([[0.0], np.cumsum(1.0 / gaps)])
    return WTALine(line, gaps, position, R)


class WTA(CompiledPass, Params):
    """Weighted tree algorithm (Cesa-Bianchi, Gentile, Vitale & Zappella, JMLR 2013), multiclass.

    Nearest revealed neighbour (resistance distance) on the line of a random
    spanning tree; see the module docstring for the tree, the line and the
    tie rules. Fully supervised: every label is revealed. Plays on node ids:
    ``run(WTA(S), node_ids(n), y)``.

    Parameters
    ----------
    S : sparse matrix or array of shape (n, n)
        Symmetric non-negative weights of a connected graph.
    n_trees : int ≥ 1, default 1
        Committee size: majority vote over this many independent trees (a tie
        to the lowest class).
    seed : int, optional
        Seeds the trees, drawn once in the constructor. None: the trees are
        drawn at each ``reset`` from the generator of the pass
        (``run(..., seed=s)``), so different ``run`` seeds give different trees.
    default : int, default 0
        The class predicted before any label is revealed.

    Raises
    ------
    ValueError
        Disconnected graph, invalid ``S``, ``n_trees < 1``; at run time,
        features that are not node ids, a node shown twice, ``default``
        outside ``0..K-1``.

    Examples
    --------
    >>> import numpy as np
    >>> S = np.diag(np.ones(3), 1) + np.diag(np.ones(3), -1)  # the path 0 - 1 - 2 - 3
    >>> from graphsel_lib.online import run
    >>> trace = run(WTA(S, seed=0), node_ids(4), [0, 0, 1, 1], order=[0, 3, 1, 2])
    >>> trace.predictions.tolist()  # class 0 first, then the nearest revealed node's label
    [0, 0, 0, 1]
    """

    multiclass = True
    _compiled_keys = frozenset({"score", "node"})  # the info keys the compiled pass records

    def __init__(self, S: Any, *, n_trees: int = 1, seed: Seed = None, default: int = 0) -> None:
        self.S = _check_connected_graph(S)
        self.n = self.S.shape[0]
        self.n_trees = check_integer(n_trees, "n_trees", minimum=1)
        self.seed = check_seed(seed)
        self.default = check_integer(default, "default", minimum=0)
        self._sampler = SpanningTreeSampler.of_checked(self.S)
        self.trees: list[SpanningTree] | None = None
        self.lines: list[WTALine] | None = None
        if seed is not None:
            self._draw(np.random.default_rng(seed))

    def _draw(self, rng):
        self.trees = [self._sampler.draw(rng) for _ in range(self.n_trees)]
        self.lines = [tree_line(t) for t in self.trees]
        self._pos = [ln.position.tolist() for ln in self.lines]
        self._R = [ln.R.tolist() for ln in self.lines]
        self._nodes = [ln.nodes.tolist() for ln in self.lines]

    def node_features(self) -> np.ndarray:
        """``node_ids(n)``: the feature matrix to run this learner on."""
        return node_ids(self.n)

    def reset(self, d: int, n_classes: int, rng: np.random.Generator) -> None:
        if d != 1:
            raise ValueError(
                f"WTA reads node ids: run it on M = node_ids(n) of shape (1, n), got d = {d} features"
            )
        self.n_classes = int(n_classes)
        if self.default >= self.n_classes:
            raise ValueError(f"default class {self.default} is not in 0..{self.n_classes - 1}")
        if self.seed is None:
            self._draw(learner_rng(None, rng))
        self._revealed: list[list[int]] = [
            [] for _ in range(self.n_trees)
        ]  # sorted revealed positions, one list per tree
        self._label = [0] * self.n  # revealed labels by node
        self._seen = [False] * self.n

    def _node(self, x):
        return read_node_id(x, self.n, self._seen)

    def _nearest(self, b, u):
        """(nearest revealed node, its distance) on tree ``b``'s line; (−1, inf) before any label."""
        revealed = self._revealed[b]
        if not revealed:
            return -1, math.inf
        p = self._pos[b][u]
        R = self._R[b]
        i = bisect.bisect_left(revealed, p)
        if i == 0:
            q = revealed[0]
            return self._nodes[b][q], R[q] - R[p]
        left = revealed[i - 1]
        dl = R[p] - R[left]
        if i == len(revealed):
            return self._nodes[b][left], dl
        right = revealed[i]
        dr = R[right] - R[p]
        if dl <= dr:  # a tie goes to the left
            return self._nodes[b][left], dl
        return self._nodes[b][right], dr

    def predict(self, x: np.ndarray) -> tuple[int, Info]:
        u = self._node(x)
        K = self.n_classes
        votes = np.zeros(K)
        nearest, distance = [], []
        for b in range(self.n_trees):
            v, dist = self._nearest(b, u)
            nearest.append(v)
            distance.append(dist)
            votes[self.default if v < 0 else self._label[v]] += 1.0
        score = votes / self.n_trees
        info = {"score": score, "node": u, "nearest": nearest[0], "distance": distance[0]}
        if self.n_trees > 1:
            info["nearest"], info["distance"] = np.asarray(nearest), np.asarray(distance)
        return int(np.argmax(votes)), info

    def wants_label(self, x: np.ndarray, t: int, info: Info) -> bool:
        return True

    # --- the whole pass (run), through CompiledPass.compiled_pass
    def compiled_form(self) -> CompiledRule | None:
        """:func:`~graphsel_lib.online.wta_loop.play_wta` and the rule's record, or None (numba missing)."""
        loop = _wta_loop()
        if loop is None:  # the per-round methods
            return None
        return CompiledRule(loop.play_wta, loop.WTARule(self.n, self.default))

    @property
    def pass_releases_gil(self) -> bool:
        """False: the pass is numpy between the compiled sweeps, so threads would wait on each other."""
        return False

    def compiled_state(self) -> Any:
        """The lines and the revealed labels as a :class:`~graphsel_lib.online.wta_loop.WTAState` of fresh arrays."""
        from .wta_loop import WTAState

        lines = cast("list[WTALine]", self.lines)  # drawn by reset
        return WTAState(
            position=np.stack([ln.position for ln in lines]),
            R=np.stack([ln.R for ln in lines]),
            seen=np.asarray(self._seen, dtype=bool),
            label=np.asarray(self._label, dtype=np.int64),
            n_classes=self.n_classes,
        )

    def take_compiled_state(self, state: Any) -> None:
        """Every node the pass showed revealed, as :meth:`update` leaves it (sorted positions per tree)."""
        shown = np.flatnonzero(state.seen)
        self._seen, self._label = state.seen.tolist(), state.label.tolist()
        self._revealed = [np.sort(state.position[b, shown]).tolist() for b in range(self.n_trees)]

    def update(self, x: np.ndarray, y: int, label: int, info: Info) -> None:
        u = info["node"]
        self._seen[u] = True
        self._label[u] = int(y)
        for b in range(self.n_trees):
            bisect.insort(self._revealed[b], self._pos[b][u])
