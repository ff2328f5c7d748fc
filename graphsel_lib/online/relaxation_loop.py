"""The relaxation learner's loops compiled by numba: the forward push and whole rounds.

:func:`push` is the FIFO forward push of :class:`~graphsel_lib.online.push.Pusher`
(its ``backend="numba"``). :func:`relaxation_rounds` plays rounds of
:class:`~graphsel_lib.online.Relaxation` with the push kernel — push, kernel
column, ``v = G K[:, u]``, the projection onto the simplex, the query rule,
the hinge surrogate and the update — in one compiled call, with the rules of
the learner's ``predict``/``update`` (and of the query wrappers'
``wants_label``) in the same order. Round t, node u = ``order[t]``::

    x = push(u);  k_i = x_i · (2n sqrt(d_u)) / sqrt(d_i);   K_uu = k_u
    v = Σ_i k_i G[i]   (over the pushed nodes, in push order, skipping the rows still 0)
    ψ = −v / sqrt(a + C τ)  (0 if a + C τ ≤ 0);  q = Π_Δ(ψ);  ŷ = argmax q
    query:  every round (rule EVERY), with probability b/(b + Δ) (MARGIN, Δ = q₍₁₎ − q₍₂₎), or p (RANDOM)
    if queried:  ℓ, g = hinge(ψ, y, q);  G[u] = g;  a += 2 gᵀv + K_uu ‖g‖²;  τ −= K_uu

A query coin is ``rng.random()`` on the wrapper's own numpy ``Generator``
(numba draws the same stream and advances the same state). Every number is
the Python path's, except ``v``, which the Python path computes with BLAS
(``vals @ G[nodes]``): its sum runs in another order, so scores agree to the
last bits and predictions, queries and mistakes are tested equal round by
round (``tests/test_online_relaxation.py``).

Prefetch hints (:func:`~graphsel_lib.online._prefetch.prefetch`: the next
nodes' neighbour lists and residuals in the push, the rows of ``G`` before
the sum) ask for memory before it is read; they change no number, only how
long a round waits for memory on a graph that does not fit in the caches.

The round loop releases the GIL (passes over different orders can run in
threads). This module imports numba; the learner imports it only when its
compiled pass is asked for, and keeps the Python path if numba is missing.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from ._prefetch import prefetch
from .stacked_loop import _dot, put

__all__ = ["EVERY", "MARGIN", "RANDOM", "push", "relaxation_rounds"]

EVERY, MARGIN, RANDOM = 0, 1, 2  # query rules: every label, margin sampling, random queries


@numba.njit(cache=True, nogil=True)
def push(indptr, indices, data, unit, lookahead, alpha, eps, s, hot, cold, state, queue, touched, vals):
    """Forward push from ``s``; returns k: ``touched[:k]`` are the pushed nodes, ``vals[:k]`` their ``x``.

    ``hot[v] = (r_v, ε d_v)``: what a neighbour's visit reads and writes, 16
    bytes a node (on a 10⁶-node graph the whole array stays in a 32 MB cache);
    ``cold[v] = (x_v, d_v)``, read and written only for the nodes pushed.
    ``state[v]``: bits 0–1 are 0 untouched, 1 touched, 2 queued; bit 2 marks
    a node pushed at least once (one byte a node). A push adds its shares to
    the neighbours' residuals first (independent loads, which the processor
    overlaps) and then checks their thresholds. Residuals, estimates and
    states are reset where touched. ``unit``: every weight is 1, so ``data``
    is not read (``r + share·1 = r + share``). The source is pushed first
    whatever its degree; any other node while ``r_v ≥ ε d_v``.

    Prefetch hints (they change when memory arrives, never a number): a
    node's ``indptr`` and ``cold`` entries when it is queued, the neighbour
    list of the node after next in the queue, and, with
    ``lookahead``, the residuals of the next node's neighbours (worth its
    extra loop only once the residual array outgrows the caches:
    :class:`~graphsel_lib.online.push.Pusher` turns it on from 2^18 nodes).
    """
    n = hot.shape[0]
    keep = 1.0 - alpha
    hot[s, 0] = 1.0
    touched[0] = s
    nt = 1
    queue[0] = s
    state[s] = 2
    head = 0
    size = 1
    first = True
    while size > 0:
        u = queue[head]
        head = head + 1
        if head == n:
            head = 0
        size -= 1
        if size > 1:  # the neighbour list of the node after next: here when that node is popped
            after = head + 1
            if after == n:
                after = 0
            prefetch(indices, indptr[queue[after]])
        if lookahead and size > 0:  # the residuals the next node's push will add to
            nxt = queue[head]
            for k in range(indptr[nxt], indptr[nxt + 1]):
                prefetch(hot, indices[k])
        state[u] = (state[u] & 4) | 1
        ru = hot[u, 0]
        if ru < hot[u, 1] and not first:
            continue
        first = False
        state[u] = 5  # touched, pushed
        cold[u, 0] += alpha * ru
        hot[u, 0] = 0.0
        share = keep * ru / cold[u, 1]
        lo, hi = indptr[u], indptr[u + 1]
        if unit:
            for k in range(lo, hi):
                hot[indices[k], 0] += share
        else:
            for k in range(lo, hi):
                hot[indices[k], 0] += share * data[k]
        for k in range(lo, hi):  # a simple graph: each neighbour once, so its residual is final here
            v = indices[k]
            st = state[v]
            if st == 0:
                touched[nt] = v
                nt += 1
                st = 1
                state[v] = 1
            if (st & 3) == 1 and hot[v, 0] >= hot[v, 1]:
                tail = head + size
                if tail >= n:
                    tail -= n
                queue[tail] = v
                size += 1
                state[v] = (st & 4) | 2
                prefetch(indptr, v)  # read when v is popped, as its estimate and degree
                prefetch(cold, v)
    # collect the pushed nodes in touch order and reset the scratch where it was touched
    k = 0
    for i in range(nt):
        v = touched[i]
        if state[v] & 4:
            x = cold[v, 0]
            cold[v, 0] = 0.0
            if x != 0.0:
                touched[k] = v
                vals[k] = x
                k += 1
        hot[v, 0] = 0.0
        state[v] = 0
    return k


@numba.njit(cache=True, inline="always")
def _sum(a, m):
    """``a[:m].sum()`` as numpy adds up a short contiguous array (pairwise_sum: one run below 8, else 8 lanes)."""
    if m < 8:
        s = 0.0
        for i in range(m):
            s += a[i]
        return s
    r0, r1, r2, r3, r4, r5, r6, r7 = a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]
    i = 8
    while i + 8 <= m:
        r0 += a[i]
        r1 += a[i + 1]
        r2 += a[i + 2]
        r3 += a[i + 3]
        r4 += a[i + 4]
        r5 += a[i + 5]
        r6 += a[i + 6]
        r7 += a[i + 7]
        i += 8
    s = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < m:
        s += a[i]
        i += 1
    return s


@numba.njit(cache=True, inline="always")
def _project_simplex(psi, q, work):
    """``q = Π_Δ(ψ)`` by sorting, as :func:`~graphsel_lib.online.relaxation.project_simplex`."""
    C = psi.shape[0]
    s = np.sort(psi)[::-1]
    css = 0.0
    rho = 0
    theta = 0.0
    for j in range(C):
        css += s[j]
        work[j] = css - 1.0
        if s[j] - work[j] / (j + 1) > 0:
            rho = j
    theta = work[rho] / (rho + 1)
    for j in range(C):
        q[j] = max(psi[j] - theta, 0.0)


@numba.njit(cache=True, inline="always")
def _hinge(psi, y, q, g, work):
    """Loss and gradient (into ``g``) of the multiclass hinge surrogate, as ``relaxation.multiclass_hinge``."""
    C = psi.shape[0]
    m = 0
    for i in range(C):
        g[i] = 0.0
        if q[i] > 0:
            work[m] = psi[i]
            m += 1
    if q[y] > 0:
        loss = 1.0 - psi[y] + (_sum(work, m) - 1.0) / m
        for i in range(C):
            if q[i] > 0:
                g[i] = 1.0 / m
        g[y] -= 1.0
        return loss
    j = 0 if y != 0 else 1
    for i in range(C):
        if i != y and psi[i] > psi[j]:
            j = i
    c = m / (m + 1.0)
    loss = c * (1.0 + psi[j] - psi[y])
    g[j] = c
    g[y] = -c
    return loss


@numba.njit(cache=True, nogil=True)
def relaxation_rounds(
    indptr, indices, data, unit, lookahead, hot, cold, flags, queue, touched, vals, alpha, eps, two_n,
    G, seen, state, order, y, start, stop, rule, param, rng,
    pred, scores, queried, psi_out, v_out, kuu_out, support_out, margin_out, prob_out, loss_out,
):  # fmt: skip
    """Rounds ``start..stop-1`` of the relaxation learner with the push kernel (module docstring).

    ``state = [a, τ]`` is updated in place, as ``G`` and ``seen`` (the nodes whose row of ``G`` is set). Output arrays of length
    0 are not written (their keys are not recorded); ``loss_out`` is NaN on
    rounds without a label.
    """
    C = G.shape[1]
    v = np.empty(C)
    psi = np.empty(C)
    q = np.empty(C)
    g = np.empty(C)
    work = np.empty(C)
    for t in range(start, stop):
        u = order[t]
        k = push(
            indptr, indices, data, unit, lookahead, alpha, eps, u, hot, cold, flags, queue, touched, vals
        )
        for i in range(k):  # ask for the rows of G the sum below reads (prefetch hints; no number changes)
            if seen[touched[i]]:
                prefetch(G, touched[i])
        c = two_n * math.sqrt(cold[u, 1])  # sqrt(d) read beside the node's estimate, as np.sqrt rounds it
        kuu = 0.0
        for m in range(C):
            v[m] = 0.0
        for i in range(k):
            j = touched[i]
            w = vals[i] * (c / math.sqrt(cold[j, 1]))
            if j == u:
                kuu = w
            if seen[j]:  # G[j] = 0 until node j's label is revealed: skip the row (and its cache miss)
                row = G[j]
                for m in range(C):
                    v[m] += w * row[m]
        denom = state[0] + C * state[1]
        if denom > 0:
            root = np.sqrt(denom)
            for m in range(C):
                psi[m] = -v[m] / root
        else:
            for m in range(C):
                psi[m] = 0.0
        _project_simplex(psi, q, work)
        best = 0
        for m in range(C):
            scores[t, m] = q[m]
            if q[m] > q[best]:
                best = m
        pred[t] = best
        if rule == EVERY:
            ask = True
        elif rule == MARGIN:
            second = 1 if best == 0 else 0
            for m in range(C):
                if m != best and q[m] > q[second]:
                    second = m
            margin = q[best] - q[second]
            prob = param / (param + margin)
            put(margin_out, t, margin)
            put(prob_out, t, prob)
            ask = rng.random() < prob
        else:
            ask = rng.random() < param
        queried[t] = ask
        put(psi_out, t, psi)
        put(v_out, t, v)
        put(kuu_out, t, kuu)
        put(support_out, t, k)
        if not ask:
            put(loss_out, t, np.nan)
            continue
        loss = _hinge(psi, y[t], q, g, work)
        put(loss_out, t, loss)
        G[u] = g
        seen[u] = True
        state[0] += 2.0 * _dot(g, v) + kuu * _dot(g, g)
        state[1] -= kuu
