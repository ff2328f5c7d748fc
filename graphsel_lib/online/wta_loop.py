"""The compiled pass of WTA (:class:`~graphsel_lib.online.wta.WTA`): nearest earlier-revealed positions, backwards.

WTA reveals every label, so the labels known at round ``t`` are those of the
rounds before it, and the whole order is given to :func:`~graphsel_lib.online.run`
in advance. Read backwards, the pass only *removes* positions from the line:
start from the doubly linked list of every position the pass reveals (in line
order) and, for ``t = T, T−1, …, 1``, unlink round ``t``'s position; its two
neighbours in the list are then the nearest positions to its left and right
revealed in rounds ``1..t−1``. Each round costs O(1) (no search, no insertion),
against ``bisect`` + ``insort`` in the per-round methods; the predictions are the
same (tests compare them round by round). :func:`play_wta` plays the whole
pass on the :class:`WTARule` and :class:`WTAState` records, the
``compiled_form()`` of :class:`~graphsel_lib.online.wta.WTA` as the other
compiled learners (:class:`~graphsel_lib.online.protocol.CompiledPass`).

:func:`wilson_walks` is the random walk of Wilson's algorithm behind
:class:`~graphsel_lib.online.wta.SpanningTreeSampler`, compiled: the same
steps on the same uniforms as the sampler's Python walk (it stops when its
buffer of uniforms runs out and the sampler refills it from the generator, as
the Python walk does), about fifty times faster.

This module imports numba and no learner.
"""

from __future__ import annotations

import math
import time
from collections import namedtuple

import numba
import numpy as np

from . import line_walk

__all__ = [
    "WTARule", "WTAState", "depth_first_line", "nearest_revealed_before", "play_wta", "row_cumsum", "wilson_walks",
]  # fmt: skip

WTARule = namedtuple("WTARule", ["n", "default"])
WTARule.__doc__ = (
    """WTA's rule: ``n`` nodes (node ids ``0..n-1``) and the ``default`` class predicted before any label."""
)

WTAState = namedtuple("WTAState", ["position", "R", "seen", "label", "n_classes"])
WTAState.__doc__ = """The arrays a pass reads and updates: ``position`` (n_trees, n) each node's position on each
tree's line, ``R`` (n_trees, n) the resistance coordinates of the positions, ``seen`` (n,) and ``label`` (n,) the
revealed nodes and their labels (updated in place), ``n_classes`` K.
"""

WALK_DONE, WALK_NEEDS_UNIFORMS, WALK_OVER_BUDGET = 0, 1, 2


@numba.njit(cache=True)
def nearest_revealed_before(positions, n_positions):
    """For each round ``t``, the nearest positions revealed in rounds before ``t`` on each side.

    ``positions[t]``: the line position of round ``t``'s node (distinct, in ``0..n_positions-1``).
    Returns ``(left, right)``: ``left[t]`` the largest earlier-revealed position below ``positions[t]``,
    ``right[t]`` the smallest above it, ``-1`` where there is none.
    """
    T = positions.shape[0]
    present = np.zeros(n_positions, dtype=np.bool_)
    for t in range(T):
        present[positions[t]] = True
    prev = np.full(n_positions, -1, dtype=np.int64)
    nxt = np.full(n_positions, -1, dtype=np.int64)
    last = -1
    for p in range(n_positions):  # link every revealed position to its neighbours in line order
        if present[p]:
            prev[p] = last
            if last >= 0:
                nxt[last] = p
            last = p
    left = np.empty(T, dtype=np.int64)
    right = np.empty(T, dtype=np.int64)
    for t in range(T - 1, -1, -1):  # unlink round t: what remains was revealed before it
        p = positions[t]
        a, b = prev[p], nxt[p]
        left[t], right[t] = a, b
        if a >= 0:
            nxt[a] = b
        if b >= 0:
            prev[b] = a
    return left, right


depth_first_line = numba.njit(cache=True)(line_walk.depth_first_line)
depth_first_line.__doc__ = line_walk.depth_first_line.__doc__


@numba.njit(cache=True)
def row_cumsum(indptr, data):
    """Cumulative sums of ``data`` within each CSR row (each row starts from 0)."""
    out = np.empty_like(data)
    for u in range(indptr.shape[0] - 1):
        total = 0.0
        for j in range(indptr[u], indptr[u + 1]):
            total += data[j]
            out[j] = total
    return out


@numba.njit(cache=True)
def wilson_walks(
    indptr, indices, cum, unweighted, in_tree, slot, parent, buf, k, i, u, walking, steps, max_steps
):
    """Continue Wilson's walks (:class:`~graphsel_lib.online.wta.SpanningTreeSampler`) until done or out of uniforms.

    State: the start node ``i`` of the current walk, its position ``u`` (``walking``: a walk is under way),
    the next uniform ``buf[k]``, the ``steps`` taken so far. A step from ``u`` takes row ``u``'s entry ``j``:
    ``s + int(x (e - s))`` if ``unweighted``, else the first with ``cum[j] > x cum[e - 1]`` (``cum``: the
    within-row cumulative weights). Returns ``(i, u, k, walking, steps, status)``: status ``WALK_DONE``,
    ``WALK_NEEDS_UNIFORMS`` (refill ``buf`` and call again) or ``WALK_OVER_BUDGET`` (``steps > max_steps``).
    """
    n = in_tree.shape[0]
    while i < n:
        if not walking:
            u = i
            walking = True
        while not in_tree[u]:  # the walk: remember the last edge left by
            if k == buf.shape[0]:
                return i, u, k, walking, steps, WALK_NEEDS_UNIFORMS
            if steps >= max_steps:
                return i, u, k, walking, steps, WALK_OVER_BUDGET
            x = buf[k]
            k += 1
            steps += 1
            s, e = indptr[u], indptr[u + 1]
            if unweighted:
                j = s + int(x * (e - s))
                if j >= e:
                    j = e - 1
            else:  # bisect_right(cum, x * cum[e - 1], s, e - 1): the first j with cum[j] > val
                val = x * cum[e - 1]
                lo, hi = s, e - 1
                while lo < hi:
                    mid = (lo + hi) // 2
                    if val < cum[mid]:
                        hi = mid
                    else:
                        lo = mid + 1
                j = lo
            slot[u] = j
            u = indices[j]
        u = i
        while not in_tree[u]:  # the loop-erased path joins the tree
            in_tree[u] = True
            parent[u] = indices[slot[u]]
            u = parent[u]
        walking = False
        i += 1
    return i, u, k, walking, steps, WALK_DONE


def play_wta(rule, state, rng, X, order, y, keys, progress=None):
    """WTA's whole pass (:class:`~graphsel_lib.online.wta.WTA`), O(1) a round: :func:`nearest_revealed_before`.

    Every label is revealed and ``order`` is known, so the nearest revealed
    positions of every round come from one backward sweep per tree; the
    distances, tie rules and votes are those of ``WTA.predict``. Returns
    ``(predictions, scores, queried, elapsed, records)`` and marks every shown
    node revealed in ``state``, or None, ``state`` untouched (features that are
    not distinct node ids, or a node already revealed): ``run`` then plays the
    rounds in Python, whose errors say what is wrong. ``elapsed`` spreads the
    pass's time evenly over its rounds (each costs the same ``O(n_trees)``).
    ``rng`` is unused (WTA draws nothing).
    """
    n = rule.n
    order = np.asarray(order, dtype=np.int64)
    if X.ndim != 2 or X.shape[1] != 1 or state.seen.any():
        return None
    f = X[order, 0]
    u = f.astype(np.int64)
    if not (np.array_equal(u, f) and u.size and u.min() >= 0 and u.max() < n):
        return None
    if np.unique(u).size != u.size:
        return None
    clock = time.perf_counter
    t0 = clock()
    T, K, y = u.size, state.n_classes, np.asarray(y, dtype=np.int64)
    n_trees = state.position.shape[0]
    votes = np.zeros((T, K))
    rounds = np.arange(T)
    for b in range(n_trees):
        p = state.position[b, u]
        R = state.R[b]
        left, right = nearest_revealed_before(p, n)
        label_at = np.full(n, -1, dtype=np.int64)
        label_at[p] = y
        with np.errstate(invalid="ignore"):
            dl = np.where(left >= 0, R[p] - R[np.maximum(left, 0)], math.inf)
            dr = np.where(right >= 0, R[np.maximum(right, 0)] - R[p], math.inf)
        chosen = np.where(dl <= dr, left, right)  # a tie goes to the left
        votes[rounds, np.where(chosen >= 0, label_at[np.maximum(chosen, 0)], rule.default)] += 1.0
    predictions = votes.argmax(axis=1)
    state.seen[u] = True  # the state after the pass, as WTA.update leaves it
    state.label[u] = y
    total = clock() - t0
    if progress is not None:
        progress(T)
    elapsed = total * (rounds + 1) / T
    scores = votes / n_trees
    records = {"node": u, "score": scores}
    return predictions, scores, np.ones(T, dtype=bool), elapsed, {k: records[k] for k in keys}
