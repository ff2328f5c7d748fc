"""The line of a spanning tree by a depth-first visit (WTA, step 2), written once over numpy arrays.

:func:`graphsel_lib.online.wta.tree_line` runs it compiled by numba
(:data:`graphsel_lib.online.wta_loop.depth_first_line`), or as Python where numba is missing: the same
code either way. Its reference, by the paper's duplicate elimination, is
:func:`graphsel_lib.online.reference.wta.reference_line`.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["depth_first_line"]


def depth_first_line(order, starts, w, root):
    """The line of a tree by a depth-first visit from ``root``: ``(nodes, weights)``, n and n − 1 entries.

    ``order[starts[u]:starts[u + 1]]`` are the children of ``u`` in the order visited, ``w[v]`` the weight of
    the edge ``(v, parent[v])``. The weight between consecutive nodes of the line is the smallest weight
    climbed since the previous node's first visit, then that of the edge down to the next node
    (:func:`~graphsel_lib.online.wta.tree_line`, which prepares the arguments).
    """
    n = starts.shape[0] - 1
    nodes = np.empty(n, dtype=np.int64)
    weights = np.empty(max(n - 1, 0), dtype=np.float64)
    stack_u = np.empty(n, dtype=np.int64)
    stack_k = np.empty(n, dtype=np.int64)
    nodes[0], stack_u[0], stack_k[0] = root, root, starts[root]
    top, n_nodes, low = 0, 1, math.inf  # low: the smallest weight climbed since the last first visit
    while top >= 0:
        u, k = stack_u[top], stack_k[top]
        if k == starts[u + 1]:
            top -= 1
            if top >= 0:
                low = min(low, w[u])  # backtrack over the edge (u, parent[u])
            continue
        stack_k[top] = k + 1
        v = order[k]
        weights[n_nodes - 1] = min(low, w[v])
        low = math.inf
        nodes[n_nodes] = v
        n_nodes += 1
        top += 1
        stack_u[top], stack_k[top] = v, starts[v]
    return nodes[:n_nodes], weights[: n_nodes - 1]
