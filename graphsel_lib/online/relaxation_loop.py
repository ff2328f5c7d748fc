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
round (``tests/online/test_online_relaxation.py``).

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
from collections import namedtuple

import numba
import numpy as np

from ._kernels import fixed_order_dot, play_in_chunks, record_round
from ._prefetch import prefetch

__all__ = [
    "EVERY",
    "MARGIN",
    "RANDOM",
    "PushKernel",
    "QueryRule",
    "RelaxationRecords",
    "RelaxationState",
    "play_relaxation",
    "push",
    "relaxation_rounds",
]

EVERY, MARGIN, RANDOM = 0, 1, 2  # query rules: every label, margin sampling, random queries

_PUSH_ARRAYS = (
    "indptr", "indices", "data", "unit_weights", "lookahead",
    "residual_threshold", "estimate_degree", "node_state", "queue", "touched", "vals",
)  # fmt: skip
PushKernel = namedtuple("PushKernel", [*_PUSH_ARRAYS, "alpha", "eps", "kernel_scale"])
PushKernel.__doc__ = """The push kernel of one learner: the graph and scratch arrays of :func:`push`
(:meth:`~graphsel_lib.online.push.Pusher.kernel_args`), its ``alpha`` and
``eps``, and ``kernel_scale`` = 2n (``k_i = x_i · 2n sqrt(d_u) / sqrt(d_i)``).
"""

RelaxationState = namedtuple("RelaxationState", ["G", "seen", "a_tau"])
RelaxationState.__doc__ = """What a pass updates in place: ``G`` (n, C), ``seen`` (n,) the nodes whose
row of ``G`` is set, ``a_tau`` = ``[a, τ]``.
"""

QueryRule = namedtuple("QueryRule", ["code", "param"])
QueryRule.__doc__ = """``code`` EVERY, MARGIN (``param`` = b) or RANDOM (``param`` = p)."""

_RECORDED = ("psi", "v", "kuu", "support", "margin", "prob", "loss")
#: the ``info`` keys a pass records besides the learner's own, by query rule (``Relaxation.compiled_pass``)
RULE_RECORDS = {"every": frozenset({"loss"}), "margin": frozenset({"margin", "prob"}), "random": frozenset()}
RelaxationRecords = namedtuple("RelaxationRecords", ["predictions", "scores", "queried", *_RECORDED])
RelaxationRecords.__doc__ = """The outputs of a pass, one entry a round; a record of length 0 is not kept."""


@numba.njit(cache=True, nogil=True)
def push(
    indptr, indices, data, unit_weights, lookahead, alpha, eps, s,
    residual_threshold, estimate_degree, node_state, queue, touched, vals,
):  # fmt: skip
    """Forward push from ``s``; returns k: ``touched[:k]`` are the pushed nodes, ``vals[:k]`` their ``x``.

    ``residual_threshold[v] = (r_v, ε d_v)``: what a neighbour's visit reads and writes, 16
    bytes a node (on a 10⁶-node graph the whole array stays in a 32 MB cache);
    ``estimate_degree[v] = (x_v, d_v)``, read and written only for the nodes pushed.
    ``node_state[v]``: bits 0–1 are 0 untouched, 1 touched, 2 queued; bit 2 marks
    a node pushed at least once (one byte a node). A push adds its shares to
    the neighbours' residuals first (independent loads, which the processor
    overlaps) and then checks their thresholds. Residuals, estimates and
    states are reset where touched. ``unit_weights``: every weight is 1, so ``data``
    is not read (``r + share·1 = r + share``). The source is pushed first
    whatever its degree; any other node while ``r_v ≥ ε d_v``.

    Prefetch hints (they change when memory arrives, never a number): a
    node's ``indptr`` and ``estimate_degree`` entries when it is queued, the neighbour
    list of the node after next in the queue, and, with
    ``lookahead``, the residuals of the next node's neighbours (worth its
    extra loop only once the residual array outgrows the caches:
    :class:`~graphsel_lib.online.push.Pusher` turns it on from 2^18 nodes).
    """
    n = residual_threshold.shape[0]
    keep = 1.0 - alpha
    residual_threshold[s, 0] = 1.0
    touched[0] = s
    nt = 1
    queue[0] = s
    node_state[s] = 2
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
                prefetch(residual_threshold, indices[k])
        node_state[u] = (node_state[u] & 4) | 1
        ru = residual_threshold[u, 0]
        if ru < residual_threshold[u, 1] and not first:
            continue
        first = False
        node_state[u] = 5  # touched, pushed
        estimate_degree[u, 0] += alpha * ru
        residual_threshold[u, 0] = 0.0
        share = keep * ru / estimate_degree[u, 1]
        lo, hi = indptr[u], indptr[u + 1]
        if unit_weights:
            for k in range(lo, hi):
                residual_threshold[indices[k], 0] += share
        else:
            for k in range(lo, hi):
                residual_threshold[indices[k], 0] += share * data[k]
        for k in range(lo, hi):  # a simple graph: each neighbour once, so its residual is final here
            v = indices[k]
            st = node_state[v]
            if st == 0:
                touched[nt] = v
                nt += 1
                st = 1
                node_state[v] = 1
            if (st & 3) == 1 and residual_threshold[v, 0] >= residual_threshold[v, 1]:
                tail = head + size
                if tail >= n:
                    tail -= n
                queue[tail] = v
                size += 1
                node_state[v] = (st & 4) | 2
                prefetch(indptr, v)  # read when v is popped, as its estimate and degree
                prefetch(estimate_degree, v)
    # collect the pushed nodes in touch order and reset the scratch where it was touched
    k = 0
    for i in range(nt):
        v = touched[i]
        if node_state[v] & 4:
            x = estimate_degree[v, 0]
            estimate_degree[v, 0] = 0.0
            if x != 0.0:
                touched[k] = v
                vals[k] = x
                k += 1
        residual_threshold[v, 0] = 0.0
        node_state[v] = 0
    return k


@numba.njit(cache=True, inline="always")
def numpy_order_sum(a, m):
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
        loss = 1.0 - psi[y] + (numpy_order_sum(work, m) - 1.0) / m
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
def relaxation_rounds(kernel, state, order, y, start, stop, query, rng, out):
    """Rounds ``start..stop-1`` of the relaxation learner with the push kernel (module docstring).

    ``kernel`` a :class:`PushKernel`, ``state`` a :class:`RelaxationState`
    (updated in place), ``query`` a :class:`QueryRule` drawing its coins from
    ``rng``, ``out`` a :class:`RelaxationRecords`; ``out.loss`` is NaN on
    rounds without a label.
    """
    indptr, indices, data, unit_weights, lookahead = (
        kernel.indptr, kernel.indices, kernel.data, kernel.unit_weights, kernel.lookahead
    )  # fmt: skip
    residual_threshold, estimate_degree, node_state = (
        kernel.residual_threshold, kernel.estimate_degree, kernel.node_state
    )  # fmt: skip
    queue, touched, vals = kernel.queue, kernel.touched, kernel.vals
    alpha, eps, kernel_scale = kernel.alpha, kernel.eps, kernel.kernel_scale
    G, seen, a_tau = state.G, state.seen, state.a_tau
    rule, param = query.code, query.param
    pred, scores, queried = out.predictions, out.scores, out.queried
    C = G.shape[1]
    v = np.empty(C)
    psi = np.empty(C)
    q = np.empty(C)
    g = np.empty(C)
    work = np.empty(C)
    for t in range(start, stop):
        u = order[t]
        k = push(
            indptr, indices, data, unit_weights, lookahead, alpha, eps, u,
            residual_threshold, estimate_degree, node_state, queue, touched, vals,
        )  # fmt: skip
        for i in range(k):  # ask for the rows of G the sum below reads (prefetch hints; no number changes)
            if seen[touched[i]]:
                prefetch(G, touched[i])
        c = kernel_scale * math.sqrt(estimate_degree[u, 1])  # sqrt(d_u) as np.sqrt rounds it
        kuu = 0.0
        for m in range(C):
            v[m] = 0.0
        for i in range(k):
            j = touched[i]
            w = vals[i] * (c / math.sqrt(estimate_degree[j, 1]))
            if j == u:
                kuu = w
            if seen[j]:  # G[j] = 0 until node j's label is revealed: skip the row (and its cache miss)
                row = G[j]
                for m in range(C):
                    v[m] += w * row[m]
        denom = a_tau[0] + C * a_tau[1]
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
            record_round(out.margin, t, margin)
            record_round(out.prob, t, prob)
            ask = rng.random() < prob
        else:
            ask = rng.random() < param
        queried[t] = ask
        record_round(out.psi, t, psi)
        record_round(out.v, t, v)
        record_round(out.kuu, t, kuu)
        record_round(out.support, t, k)
        if not ask:
            record_round(out.loss, t, np.nan)
            continue
        loss = _hinge(psi, y[t], q, g, work)
        record_round(out.loss, t, loss)
        G[u] = g
        seen[u] = True
        a_tau[0] += 2.0 * fixed_order_dot(g, v) + kuu * fixed_order_dot(g, g)
        a_tau[1] -= kuu


def play_relaxation(kernel, state, query, rng, order, y, keys, progress=None):
    """Play every round of ``order`` (:func:`relaxation_rounds` in chunks); ``state`` ends updated.

    Returns ``(predictions, scores, queried, elapsed, records)`` as a
    learner's ``compiled_pass``, with ``records`` the kept ``keys`` among
    ``psi, v, kuu, support, margin, prob, loss`` (and ``score``, ``node``).
    """
    order = np.asarray(order, dtype=np.intp)
    y = np.asarray(y, dtype=np.int64)
    T, C = order.size, state.G.shape[1]
    full = {
        "psi": np.zeros((T, C)), "v": np.zeros((T, C)), "kuu": np.zeros(T),
        "support": np.zeros(T, dtype=np.int64), "margin": np.zeros(T), "prob": np.zeros(T), "loss": np.zeros(T),
    }  # fmt: skip
    recorded = {k: a if k in keys else a[:0] for k, a in full.items()}
    out = RelaxationRecords(
        np.zeros(T, dtype=np.int64), np.zeros((T, C)), np.zeros(T, dtype=bool), **recorded
    )

    def step(start, stop):
        relaxation_rounds(kernel, state, order, y, start, stop, query, rng, out)

    elapsed = play_in_chunks(step, T, progress=progress)
    recorded.update(node=order.copy(), score=out.scores)
    return out.predictions, out.scores, out.queried, elapsed, {k: recorded[k] for k in keys}
