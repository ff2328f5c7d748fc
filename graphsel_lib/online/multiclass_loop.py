"""CMOG, MSG, BBQ, BBQ_ε and DGS compiled by numba: whole rounds of the shared multiclass ridge learners.

:func:`~graphsel_lib.online.run` plays a pass one round at a time in Python;
for these learners (:mod:`~graphsel_lib.online.cmog_msg`,
:mod:`~graphsel_lib.online.bbq_dgs`) the interpreter then costs several times
the arithmetic at d ≈ 100. :func:`multiclass_rounds` plays many rounds in one
compiled call with each learner's rules in the same order (round t, 1-based;
node x = m_{order[t]}; true class y)::

    u = A^{-1} x,   v = x · u,   p_k = w_k · x                       (W = A^{-1} B, rows w_k)
    CMOG, MSG:  f = p / (1 + v);  ŷ = argmax f
                MSG: Δ = f₍₁₎ − f₍₂₎,  Θ = ½Δ² + 2Δ − K v/(1 + v);  query if Θ < 0 (aggressive),
                     else with probability 2h/(2h + Θ) (one draw of the learner's generator)
                update on a mistake (CMOG: also every round if not conservative; MSG: also if aggressive)
                with the Definition-1 target (+1 at y, −1 at the best other class of f) or one-hot
    BBQ, BBQ_ε, DGS:  ŷ = argmax p; update every queried round with the one-hot target
                BBQ:   query if v/(1 + v) > t^{−κ}
                BBQ_ε: c = 1 + v, query if ε − v/c − ‖u‖/c < sqrt(max(uᵀ C u, 0))/c · sqrt(2 ln(t(t+1)/(2δ))),
                       C = Σ_queried x xᵀ
                DGS:   θ = sqrt(v (1 + 4Σ + 36 ln(t/δ))), query if the clipped gap ≤ 2θ; before its
                       update every score is projected into [−1, 1]: w_k −= excess_k u / v; Σ += v/(1 + v)
    update (Sherman–Morrison):  c = 1/(1 + v);  w_k += c (z_k − w_k · x) u;  A^{-1} −= c u uᵀ

Ties go to the smallest class index, as in the Python learners. Rounding:
sums are loops in a fixed order (the dot products and ``A^{-1} x`` of
:mod:`~graphsel_lib.online.stacked_loop`), so the numbers differ from the
Python learners' BLAS calls in the last bits only; predictions, queries and
mistakes are tested equal round by round. The loop releases the GIL.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from .stacked_loop import _dot, _downdate, _sym_matvec, put

__all__ = ["CMOG_RULE", "MSG_RULE", "BBQ_RULE", "BBQEPS_RULE", "DGS_RULE", "multiclass_rounds"]

CMOG_RULE, MSG_RULE, BBQ_RULE, BBQEPS_RULE, DGS_RULE = 0, 1, 2, 3, 4


@numba.njit(cache=True, inline="always")
def _first_max(s, skip):
    """Index of the largest entry of ``s`` other than ``skip`` (−1: none skipped); ties: smallest index."""
    best = -1
    for k in range(s.shape[0]):
        if k != skip and (best < 0 or s[k] > s[best]):
            best = k
    return best


@numba.njit(cache=True, inline="always")
def _rls_update(Ainv, W, x, u, v, z, p):
    """``w_k += c (z_k − p_k) u`` and ``A^{-1} −= c u uᵀ`` with ``c = 1/(1+v)``, ``p_k = w_k · x``."""
    d = x.shape[0]
    c = 1.0 / (1.0 + v)
    for k in range(W.shape[0]):
        a = c * (z[k] - p[k])
        w = W[k]
        for i in range(d):
            w[i] += u[i] * a
    _downdate(Ainv, u, c)


@numba.njit(cache=True, nogil=True)
def multiclass_rounds(
    X, order, y, start, stop, rule, Ainv, W, C, acc, definition1, conservative, aggressive,
    h, kappa, eps, delta, rng, pred, scores, queried, n_updates,
    rec_v, rec_r, rec_margin, rec_theta, rec_aggressive, rec_prob, rec_threshold, rec_s, rec_q, rec_bound,
):  # fmt: skip
    """Rounds ``start..stop-1`` of the learner ``rule`` (module docstring); the state is updated in place.

    ``Ainv`` (d, d) is ``A^{-1}`` (full, symmetric), ``W`` (K, d) the rows
    ``w_k``, ``C`` (d, d) BBQ_ε's ``Σ x xᵀ`` (else unused), ``acc[0]`` DGS's Σ.
    Record arrays of length 0 are not written.
    """
    d = X.shape[1]
    K = W.shape[0]
    u = np.empty(d)
    p = np.empty(K)
    f = np.empty(K)
    z = np.empty(K)
    cu = np.empty(d)
    for t in range(start, stop):
        x = X[order[t]]
        tt = t + 1
        _sym_matvec(Ainv, x, u)
        v = _dot(x, u)
        for k in range(K):
            p[k] = _dot(W[k], x)
        if rule <= MSG_RULE:  # VAW-scaled scores
            c = 1.0 + v
            for k in range(K):
                f[k] = p[k] / c
        else:
            for k in range(K):
                f[k] = p[k]
        label = _first_max(f, -1)
        pred[t] = label
        for k in range(K):
            scores[t, k] = f[k]
        put(rec_v, t, v)
        yt = y[t]
        mistake = label != yt
        # --- query
        ask = True
        update = mistake
        if rule == CMOG_RULE:
            update = mistake or not conservative
        elif rule == MSG_RULE:
            margin = f[label] - f[_first_max(f, label)]  # label is the first maximum of f
            theta = 0.5 * margin * margin + 2.0 * margin - K * v / (1.0 + v)
            if theta < 0.0:
                aggr, prob = True, 1.0
            else:
                aggr, prob = False, 2.0 * h / (2.0 * h + theta)
                ask = rng.random() < prob
            update = (aggressive and aggr) or mistake
            put(rec_r, t, v)
            put(rec_margin, t, margin)
            put(rec_theta, t, theta)
            put(rec_aggressive, t, aggr)
            put(rec_prob, t, prob)
        elif rule == BBQ_RULE:
            r = v / (1.0 + v)
            threshold = float(tt) ** (-kappa)
            ask = r > threshold
            update = True
            put(rec_r, t, r)
            put(rec_threshold, t, threshold)
        elif rule == BBQEPS_RULE:
            c = 1.0 + v
            r = v / c
            s = math.sqrt(_dot(u, u)) / c
            _sym_matvec(C, u, cu)
            q = math.sqrt(max(_dot(u, cu), 0.0)) / c
            bound = math.sqrt(2.0 * math.log(tt * (tt + 1) / (2.0 * delta)))
            ask = eps - r - s < q * bound
            update = True
            put(rec_r, t, r)
            put(rec_s, t, s)
            put(rec_q, t, q)
            put(rec_bound, t, bound)
        else:  # DGS
            theta = math.sqrt(v * (1.0 + 4.0 * acc[0] + 36.0 * math.log(tt / delta)))
            for k in range(K):
                z[k] = min(max(p[k], -1.0), 1.0)  # clipped scores (z is free until the target below)
            i1 = _first_max(z, -1)
            margin = z[i1] - z[_first_max(z, i1)]
            ask = margin <= 2.0 * theta
            update = True
            put(rec_theta, t, theta)
            put(rec_margin, t, margin)
        queried[t] = ask
        if not (ask and update):
            continue
        # --- update
        if rule == DGS_RULE:  # project every score into [-1, 1] first, then recompute the scores
            moved = False
            for k in range(K):
                if abs(p[k]) > 1.0:
                    e = math.copysign(abs(p[k]) - 1.0, p[k])
                    w = W[k]
                    for i in range(d):
                        w[i] -= (u[i] / v) * e
                    moved = True
            if moved:
                for k in range(K):
                    p[k] = _dot(W[k], x)
            acc[0] += v / (1.0 + v)
        for k in range(K):
            z[k] = 0.0
        if rule <= MSG_RULE and definition1:
            z[_first_max(f, yt)] = -1.0
        z[yt] = 1.0
        _rls_update(Ainv, W, x, u, v, z, p)
        n_updates[0] += 1
        if rule == BBQEPS_RULE:
            for i in range(d):
                xi = x[i]
                row = C[i]
                for j in range(d):
                    row[j] += xi * x[j]
