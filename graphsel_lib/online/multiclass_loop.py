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
:mod:`~graphsel_lib.online._kernels`), so the numbers differ from the
Python learners' BLAS calls in the last bits only; predictions, queries and
mistakes are tested equal round by round. The loop releases the GIL.

The loop takes three records (namedtuples, which numba compiles as tuples):
:class:`MulticlassRule`, the rule and its parameters, which each learner
builds in its ``compiled_form()`` (:func:`multiclass_rule`);
:class:`MulticlassState`, the arrays it updates in place; and
:class:`MulticlassRecords`, the per-round outputs. :func:`play_multiclass`
plays a whole pass. This module imports no learner.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numba
import numpy as np

from ._kernels import fixed_order_dot, play_in_chunks, rank_one_downdate, record_round, symmetric_matvec

__all__ = [
    "BBQEPS_RULE",
    "BBQ_RULE",
    "CMOG_RULE",
    "DGS_RULE",
    "MSG_RULE",
    "MulticlassRecords",
    "MulticlassRule",
    "MulticlassState",
    "multiclass_rounds",
    "multiclass_rule",
    "play_multiclass",
]

CMOG_RULE, MSG_RULE, BBQ_RULE, BBQEPS_RULE, DGS_RULE = 0, 1, 2, 3, 4

MulticlassRule = namedtuple(
    "MulticlassRule", ["code", "definition1", "conservative", "aggressive", "h", "kappa", "eps", "delta"]
)
MulticlassRule.__doc__ = """A learner's rule: ``code`` (``CMOG_RULE`` … ``DGS_RULE``) and its parameters.

``definition1`` (CMOG, MSG: yang2016's Definition-1 target, else one-hot),
``conservative`` (CMOG), ``aggressive`` and ``h`` (MSG), ``kappa`` (BBQ),
``eps`` (BBQ_ε), ``delta`` (BBQ_ε, DGS); build it with :func:`multiclass_rule`.
"""

MulticlassState = namedtuple("MulticlassState", ["Ainv", "W", "sum_xxT", "dgs_sum_r", "n_updates"])
MulticlassState.__doc__ = """The arrays a pass updates in place.

``Ainv`` (d, d) is ``A^{-1}`` (full, symmetric), ``W`` (K, d) the rows
``w_k``, ``sum_xxT`` (d, d) BBQ_ε's ``C = Σ_queried x xᵀ`` ((0, 0) for the
others), ``dgs_sum_r`` (1,) DGS's ``Σ v/(1 + v)`` over its updates (unused by
the others), ``n_updates`` (1,) the number of updates.
"""

_RECORDED = ("v", "r", "margin", "theta", "aggressive", "prob", "threshold", "s", "q", "bound")
MulticlassRecords = namedtuple("MulticlassRecords", ["predictions", "scores", "queried", *_RECORDED])
MulticlassRecords.__doc__ = """The outputs of a pass, one entry a round: predictions, scores (T, K), queried
and the ``info`` records (``aggressive`` bool, the others float); a record
of length 0 is not kept.
"""


def multiclass_rule(
    code, *, definition1=False, conservative=True, aggressive=True, h=0.0, kappa=0.0, eps=0.0, delta=0.5
):
    """A :class:`MulticlassRule` with every field of the type the compiled loop is compiled for."""
    return MulticlassRule(
        int(code), bool(definition1), bool(conservative), bool(aggressive),
        float(h), float(kappa), float(eps), float(delta),
    )  # fmt: skip


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
    rank_one_downdate(Ainv, u, c)


@numba.njit(cache=True, nogil=True)
def multiclass_rounds(X, order, y, start, stop, rule, state, rng, out):
    """Rounds ``start..stop-1`` of the learner ``rule`` (module docstring); ``state`` is updated in place.

    ``rule`` a :class:`MulticlassRule`, ``state`` a :class:`MulticlassState`,
    ``out`` a :class:`MulticlassRecords`; ``rng`` the generator of MSG's coin
    (the others draw nothing).
    """
    Ainv, W, C, dgs_sum_r, n_updates = state.Ainv, state.W, state.sum_xxT, state.dgs_sum_r, state.n_updates
    code, definition1, conservative, aggressive = (
        rule.code,
        rule.definition1,
        rule.conservative,
        rule.aggressive,
    )
    h, kappa, eps, delta = rule.h, rule.kappa, rule.eps, rule.delta
    pred, scores, queried = out.predictions, out.scores, out.queried
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
        symmetric_matvec(Ainv, x, u)
        v = fixed_order_dot(x, u)
        for k in range(K):
            p[k] = fixed_order_dot(W[k], x)
        if code <= MSG_RULE:  # VAW-scaled scores
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
        record_round(out.v, t, v)
        yt = y[t]
        mistake = label != yt
        # --- query
        ask = True
        update = mistake
        if code == CMOG_RULE:
            update = mistake or not conservative
        elif code == MSG_RULE:
            margin = f[label] - f[_first_max(f, label)]  # label is the first maximum of f
            theta = 0.5 * margin * margin + 2.0 * margin - K * v / (1.0 + v)
            if theta < 0.0:
                aggr, prob = True, 1.0
            else:
                aggr, prob = False, 2.0 * h / (2.0 * h + theta)
                ask = rng.random() < prob
            update = (aggressive and aggr) or mistake
            record_round(out.r, t, v)
            record_round(out.margin, t, margin)
            record_round(out.theta, t, theta)
            record_round(out.aggressive, t, aggr)
            record_round(out.prob, t, prob)
        elif code == BBQ_RULE:
            r = v / (1.0 + v)
            threshold = float(tt) ** (-kappa)
            ask = r > threshold
            update = True
            record_round(out.r, t, r)
            record_round(out.threshold, t, threshold)
        elif code == BBQEPS_RULE:
            c = 1.0 + v
            r = v / c
            s = math.sqrt(fixed_order_dot(u, u)) / c
            symmetric_matvec(C, u, cu)
            q = math.sqrt(max(fixed_order_dot(u, cu), 0.0)) / c
            bound = math.sqrt(2.0 * math.log(tt * (tt + 1) / (2.0 * delta)))
            ask = eps - r - s < q * bound
            update = True
            record_round(out.r, t, r)
            record_round(out.s, t, s)
            record_round(out.q, t, q)
            record_round(out.bound, t, bound)
        else:  # DGS
            theta = math.sqrt(v * (1.0 + 4.0 * dgs_sum_r[0] + 36.0 * math.log(tt / delta)))
            for k in range(K):
                z[k] = min(max(p[k], -1.0), 1.0)  # clipped scores (z is free until the target below)
            i1 = _first_max(z, -1)
            margin = z[i1] - z[_first_max(z, i1)]
            ask = margin <= 2.0 * theta
            update = True
            record_round(out.theta, t, theta)
            record_round(out.margin, t, margin)
        queried[t] = ask
        if not (ask and update):
            continue
        # --- update
        if code == DGS_RULE:  # project every score into [-1, 1] first, then recompute the scores
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
                    p[k] = fixed_order_dot(W[k], x)
            dgs_sum_r[0] += v / (1.0 + v)
        for k in range(K):
            z[k] = 0.0
        if code <= MSG_RULE and definition1:
            z[_first_max(f, yt)] = -1.0
        z[yt] = 1.0
        _rls_update(Ainv, W, x, u, v, z, p)
        n_updates[0] += 1
        if code == BBQEPS_RULE:
            for i in range(d):
                xi = x[i]
                row = C[i]
                for j in range(d):
                    row[j] += xi * x[j]


def play_multiclass(rule, state, rng, X, order, y, keys, progress=None):
    """Play every round of ``order`` (:func:`multiclass_rounds` in chunks); ``state`` ends updated.

    ``X[i]`` is ``m_i``, ``y`` the labels in round order, ``keys`` the
    ``info`` keys to record. Returns ``(predictions, scores, queried,
    elapsed, records)`` as a learner's ``compiled_pass``.
    """
    order = np.asarray(order, dtype=np.intp)
    y = np.asarray(y, dtype=np.int64)
    T, K = order.size, state.W.shape[0]
    recorded = {
        k: np.zeros(T if k in keys else 0, dtype=bool if k == "aggressive" else np.float64) for k in _RECORDED
    }
    out = MulticlassRecords(
        np.zeros(T, dtype=np.int64), np.zeros((T, K)), np.zeros(T, dtype=bool), **recorded
    )

    def step(start, stop):
        multiclass_rounds(X, order, y, start, stop, rule, state, rng, out)

    elapsed = play_in_chunks(step, T, progress=progress)
    recorded["score"] = out.scores
    return out.predictions, out.scores, out.queried, elapsed, {k: recorded[k] for k in keys}
