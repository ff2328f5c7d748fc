"""Naive twins of the pool strategies: every candidate solved from scratch.

* :class:`ReferenceEER` — for every unlabelled ``k`` and class ``c``, a fresh
  dense solve of the harmonic problem with ``(k, c)`` added to the labels
  (``np.linalg.solve`` on ``L_{U'U'}``), the risk
  ``Σ_c F_k(c) Σ_{i∈U'} (1 − max_{c'} F^{+(k,c)}_i(c'))`` and the same tie rule
  as :class:`~graphsel_lib.active.strategies.EER`.
* :class:`ReferenceS2` — networkx: the graph without the edges between
  differently labelled nodes, shortest path lengths from every labelled node,
  and the midpoints (positions ``⌊ℓ*/2⌋`` and ``⌈ℓ*/2⌉``) of every shortest
  path (``networkx.all_shortest_paths``) between every differently labelled
  pair at the smallest distance ``ℓ*``; the smallest such node, else a random
  unlabelled node drawn as :class:`~graphsel_lib.active.strategies.S2` draws it.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from .strategies import pick_smallest, random_unlabelled

__all__ = ["ReferenceEER", "ReferenceS2", "reference_harmonic"]


def reference_harmonic(A, labelled, labels, n_classes):
    """Dense harmonic function: ``(unlabelled nodes, F_U)`` with ``L_UU F_U = W_Uℓ Y_ℓ`` solved afresh."""
    n = A.shape[0]
    Lap = np.diag(A.sum(axis=1)) - A
    lab = np.asarray(labelled)
    unl = np.setdiff1d(np.arange(n), lab)
    Y = np.zeros((lab.size, n_classes))
    Y[np.arange(lab.size), np.asarray(labels)] = 1.0
    F = np.linalg.solve(Lap[np.ix_(unl, unl)], A[np.ix_(unl, lab)] @ Y)
    return unl, F


class ReferenceEER:
    """EER by a fresh harmonic solve for every candidate and class (see the module docstring)."""

    def __repr__(self):
        return "ReferenceEER()"

    def risks(self, state):
        """``(unlabelled nodes, R(k))``: the risk of each candidate, one fresh solve per (k, c)."""
        A = state.S.toarray()
        A[np.diag_indices_from(A)] = 0.0
        K = state.n_classes
        lab = list(state.labelled)
        labels = [int(state.y_known[u]) for u in lab]
        unl, F = reference_harmonic(A, lab, labels, K)
        risk = np.zeros(unl.size)
        for j, k in enumerate(unl):
            for c in range(K):
                _, Fp = reference_harmonic(A, lab + [int(k)], labels + [c], K)
                risk[j] += F[j, c] * float(np.sum(1.0 - Fp.max(axis=1)))
        return unl, risk

    def select(self, state):
        return pick_smallest(*self.risks(state))


class ReferenceS2:
    """S² with networkx shortest paths from scratch (see the module docstring)."""

    def __init__(self, seed=None):
        self.seed = seed

    def __repr__(self):
        return f"ReferenceS2(seed={self.seed!r})"

    def reset(self, state):
        self._rng = state.rng if self.seed is None else np.random.default_rng(self.seed)

    def select(self, state):
        y = state.y_known
        G = nx.from_scipy_sparse_array(state.S)
        G.remove_edges_from([(u, v) for u, v in list(G.edges()) if y[u] >= 0 and y[v] >= 0 and y[u] != y[v]])
        lab = [int(u) for u in np.flatnonzero(y >= 0)]
        dist = {a: nx.single_source_shortest_path_length(G, a) for a in lab}
        pairs = [(a, b) for a in lab for b in lab if a < b and y[a] != y[b] and b in dist[a]]
        if not pairs:
            return random_unlabelled(state, self._rng)
        best = min(dist[a][b] for a, b in pairs)
        mids = set()
        for a, b in pairs:
            if dist[a][b] == best:
                for path in nx.all_shortest_paths(G, a, b):
                    mids.update((path[best // 2], path[(best + 1) // 2]))
        assert all(y[v] < 0 for v in mids)
        return min(mids)
