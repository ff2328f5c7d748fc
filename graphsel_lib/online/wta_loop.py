"""The compiled pass of WTA (:class:`~graphsel_lib.online.wta.WTA`): nearest earlier-revealed positions, backwards.

WTA reveals every label, so the labels known at round ``t`` are those of the
rounds before it, and the whole order is given to :func:`~graphsel_lib.online.run`
in advance. Read backwards, the pass only *removes* positions from the line:
start from the doubly linked list of every position the pass reveals (in line
order) and, for ``t = T, T−1, …, 1``, unlink round ``t``'s position; its two
neighbours in the list are then the nearest positions to its left and right
revealed in rounds ``1..t−1``. Each round costs O(1) (no search, no insertion),
against ``bisect`` + ``insort`` in the per-round methods; the predictions are the
same (tests compare them round by round).

This module imports numba and no learner.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["nearest_revealed_before"]


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
