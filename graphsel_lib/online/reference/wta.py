"""Naive twin of WTA: the paper's line ``L'`` built literally, the nearest revealed node found by a scan.

The tree comes from the same sampler (:class:`~graphsel_lib.online.wta.SpanningTreeSampler`,
so that the two learners play the same trees); everything after it is
recomputed here from the definitions (Cesa-Bianchi, Gentile, Vitale &
Zappella, JMLR 2013): the depth-first walk ``L'`` of ``2n − 1`` nodes with the
backtracking steps, the elimination of the duplicates one at a time (an
interior duplicate merges its two edges into one of weight the smaller of the
two, a trailing one is dropped), and in every round a scan over all revealed
nodes for the smallest resistance distance ``|R_p − R_q|`` along the line
(``R`` the running sum of ``1/w`` along the line), a tie to the earlier
position; the committee's vote a tie to the lowest class.
"""

from __future__ import annotations

import math

import numpy as np

from .._params import Params
from ..protocol import learner_rng
from ..wta import SpanningTreeSampler

__all__ = ["ReferenceWTA", "reference_line"]


def reference_line(tree):
    """``(nodes, weights)`` of the line ``L`` of a spanning tree, by the paper's duplicate elimination on ``L'``."""
    parent, weight, root = tree.parent.tolist(), tree.weight.tolist(), int(tree.root)
    n = len(parent)
    children = {u: [] for u in range(n)}
    for v in range(n):  # increasing v: children in increasing id
        if parent[v] >= 0:
            children[parent[v]].append(v)
    walk, edges = [root], []  # L' and its edge weights
    stack = [(root, 0)]
    while stack:  # depth-first walk, backtracking steps written down
        u, k = stack.pop()
        if k < len(children[u]):
            v = children[u][k]
            stack.append((u, k + 1))
            walk.append(v)
            edges.append(weight[v])
            stack.append((v, 0))
        elif stack:
            walk.append(stack[-1][0])
            edges.append(weight[u])
    assert len(walk) == 2 * n - 1
    i, seen = 0, set()
    while i < len(walk):  # eliminate the duplicates in their order of insertion
        if walk[i] not in seen:
            seen.add(walk[i])
            i += 1
        elif i == len(walk) - 1:
            del walk[i]
            del edges[i - 1]
        else:
            edges[i - 1 : i + 1] = [min(edges[i - 1], edges[i])]
            del walk[i]
    return walk, edges


class ReferenceWTA(Params):
    """:class:`~graphsel_lib.online.wta.WTA` by plain scans (same parameters, same trees, same ties)."""

    multiclass = True

    def __init__(self, S, *, n_trees=1, seed=None, default=0):
        self.S, self.n_trees, self.seed, self.default = S, int(n_trees), seed, int(default)
        self._sampler = SpanningTreeSampler(S)
        self.n = self._sampler.n
        if seed is not None:
            self._draw(np.random.default_rng(seed))

    def _draw(self, rng):
        self.lines = []
        for _ in range(self.n_trees):
            nodes, weights = reference_line(self._sampler.draw(rng))
            R = [0.0]
            for w in weights:
                R.append(R[-1] + 1.0 / w)
            self.lines.append((nodes, R))

    def reset(self, d, n_classes, rng):
        assert d == 1
        self.n_classes = int(n_classes)
        if self.seed is None:
            self._draw(learner_rng(None, rng))
        self.revealed = {}  # node -> label

    def predict(self, x):
        u = int(x[0])
        votes = np.zeros(self.n_classes)
        for nodes, R in self.lines:
            p = nodes.index(u)
            best, best_d = None, math.inf
            for q, v in enumerate(nodes):  # positions in increasing order: a tie stays with the earlier one
                if v in self.revealed:
                    dist = abs(R[p] - R[q])
                    if dist < best_d:
                        best, best_d = v, dist
            votes[self.default if best is None else self.revealed[best]] += 1
        return int(np.argmax(votes)), {"score": votes / self.n_trees, "node": u}

    def wants_label(self, x, t, info):
        return True

    def update(self, x, y, label, info):
        self.revealed[info["node"]] = int(y)
