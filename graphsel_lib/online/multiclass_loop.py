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

Rules. The loop computes ``u``, ``v`` and ``p`` and plays the Sherman–Morrison
update; everything else is the rule's: one jitted *round function* per rule
(scores into ``f``, then the prediction, query and update decisions, the
target into ``z``, the rule's own records and extra state), registered in
:data:`RULES` with the names of its parameters, extra state arrays and
records. Adding a compiled rule is that one function and its one entry::

    @numba.njit(cache=True)
    def toy_round(t, x, u, v, p, f, z, y, W, params, extra, rng, records):
        (scale,) = params                   # the entry's params, in its order
        ...                                 # fill f, decide, fill z if updating
        return label, ask, update

    RULES["toy"] = RuleEntry(toy_round, params={"scale": float})

``t`` is the round's 0-based index (the index of its records; the papers'
round is ``t + 1``), ``y`` its true class, ``W`` the rows ``w_k`` (the rule
may move them before its update, as DGS does, then refreshing ``p``); the loop
plays the update iff ``ask and update``. ``params``, ``extra`` (the state
arrays the rule declares, updated in place)
and ``records`` (its per-round records, length 0 when not kept, see
:func:`~graphsel_lib.online._kernels.record_round`) are plain tuples in the
entry's order. Each rule gets its own compiled loop (:func:`rounds_for`),
built once from one template with the rule as a global, so the rule is a
direct call, numba's on-disk cache keeps it between processes (a jitted
function passed as an argument, or held in a closure, is keyed by its
address and never hits the cache), and the loop tests no rule code per round.

The loop takes three records (namedtuples, which numba compiles as tuples):
:class:`MulticlassRule`, the rule's name and parameters, which each learner
builds in its ``compiled_form()`` (:func:`multiclass_rule`);
:class:`MulticlassState`, the arrays it updates in place; and
:class:`MulticlassRecords`, the per-round outputs. :func:`play_multiclass`
plays a whole pass. This module imports no learner.
"""

from __future__ import annotations

import hashlib
import math
import types
from collections import namedtuple

import numba
import numpy as np

from ._kernels import (
    downdate_then_matvec,
    fixed_order_dot,
    play_in_chunks,
    rank_one_downdate,
    record_round,
    symmetric_matvec,
)

__all__ = [
    "RULES",
    "MulticlassRecords",
    "MulticlassRule",
    "MulticlassState",
    "RuleEntry",
    "first_max",
    "multiclass_rounds",
    "multiclass_rule",
    "play_multiclass",
    "rounds_for",
    "set_target",
    "vaw_scores",
]

RuleEntry = namedtuple("RuleEntry", ["round", "params", "state", "records"], defaults=((), {}))
RuleEntry.__doc__ = """One compiled rule of :data:`RULES`: its jitted round function (module docstring) and
``params`` (name → type, ``bool`` or ``float``: what :func:`multiclass_rule` converts each value to), ``state``
(names of the extra state arrays the learner hands over, beyond ``A^{-1}``, ``W`` and the update count) and
``records`` (name → dtype of its per-round records, ``info`` keys of the learner).
"""

MulticlassRule = namedtuple("MulticlassRule", ["name", "params"])
MulticlassRule.__doc__ = """A learner's rule: ``name`` (a key of :data:`RULES`) and its parameters, a tuple in the
entry's order; build it with :func:`multiclass_rule`.
"""

MulticlassState = namedtuple("MulticlassState", ["Ainv", "W", "n_updates", "extra"])
MulticlassState.__doc__ = """The arrays a pass updates in place.

``Ainv`` (d, d) is ``A^{-1}`` (full, symmetric), ``W`` (K, d) the rows
``w_k``, ``n_updates`` (1,) the number of updates, ``extra`` the rule's own
state arrays by name (a dict with the names of its :data:`RULES` entry, e.g.
BBQ_ε's ``C = Σ_queried x xᵀ``; the loop gets them as a tuple in that order).
"""

MulticlassRecords = namedtuple("MulticlassRecords", ["predictions", "scores", "queried", "v", "own"])
MulticlassRecords.__doc__ = """The outputs of a pass, one entry a round: predictions, scores (T, K), queried,
``v`` and the rule's own records (a tuple in its entry's order); a record of length 0 is not kept.
"""


def multiclass_rule(name, **params):
    """The :class:`MulticlassRule` of the rule ``name`` with every parameter of the type the loop is compiled for.

    ``params`` are exactly the names of the rule's :data:`RULES` entry.
    """
    if name not in RULES:
        raise ValueError(
            f"no compiled multiclass rule {name!r}: the rules are {sorted(RULES)}; register it in RULES"
        )
    declared = RULES[name].params
    if set(params) != set(declared):
        raise TypeError(
            f"the {name!r} rule takes the parameters {list(declared)}, got {sorted(params)}: "
            "pass exactly the names of its RULES entry"
        )
    return MulticlassRule(name, tuple(kind(params[k]) for k, kind in declared.items()))


# --------------------------------------------------------------------------- helpers of the round functions


@numba.njit(cache=True, inline="always")
def first_max(s, skip):
    """Index of the largest entry of ``s`` other than ``skip`` (−1: none skipped); ties: smallest index."""
    best = -1
    for k in range(s.shape[0]):
        if k != skip and (best < 0 or s[k] > s[best]):
            best = k
    return best


@numba.njit(cache=True, inline="always")
def vaw_scores(p, v, f):
    """``f = p / (1 + v)``, the Vovk–Azoury–Warmuth scores of CMOG and MSG (yang2016 Alg. 1 lines 7–9)."""
    c = 1.0 + v
    for k in range(p.shape[0]):
        f[k] = p[k] / c


@numba.njit(cache=True, inline="always")
def set_target(z, f, y, definition1):
    """``z = e_y``, or yang2016's Definition-1 target (also −1 at the best class of ``f`` other than ``y``)."""
    for k in range(z.shape[0]):
        z[k] = 0.0
    if definition1:
        z[first_max(f, y)] = -1.0
    z[y] = 1.0


@numba.njit(cache=True, inline="always")
def _rls_update(Ainv, W, x, u, v, z, p, x_next, u_next):
    """``w_k += c (z_k − p_k) u`` and ``A^{-1} −= c u uᵀ`` with ``c = 1/(1+v)``, ``p_k = w_k · x``.

    With a next instance (``x_next`` not empty), ``u_next = A^{-1} x_next`` of the updated inverse in the
    same sweep (:func:`~graphsel_lib.online._kernels.downdate_then_matvec`: the same bits as computed next round).
    """
    d = x.shape[0]
    c = 1.0 / (1.0 + v)
    for k in range(W.shape[0]):
        a = c * (z[k] - p[k])
        w = W[k]
        for i in range(d):
            w[i] += u[i] * a
    if x_next.shape[0] > 0:
        downdate_then_matvec(Ainv, u, c, x_next, u_next)
    else:
        rank_one_downdate(Ainv, u, c)


# --------------------------------------------------------------------------- the rules


@numba.njit(cache=True, inline="always")
def cmog_round(t, x, u, v, p, f, z, y, W, params, extra, rng, records):
    """CMOG (yang2016 Alg. 1): VAW scores, every label, update on mistakes (or every round if not conservative)."""
    definition1, conservative = params
    vaw_scores(p, v, f)
    label = first_max(f, -1)
    update = label != y or not conservative
    if update:
        set_target(z, f, y, definition1)
    return label, True, update


@numba.njit(cache=True, inline="always")
def msg_round(t, x, u, v, p, f, z, y, W, params, extra, rng, records):
    """MSG (yang2016 Alg. 2): query if Θ < 0 (aggressive), else w.p. 2h/(2h + Θ); update then or on mistakes."""
    definition1, aggressive, h = params
    r_rec, margin_rec, theta_rec, aggressive_rec, prob_rec = records
    vaw_scores(p, v, f)
    label = first_max(f, -1)
    K = f.shape[0]
    margin = f[label] - f[first_max(f, label)]  # label is the first maximum of f
    theta = 0.5 * margin * margin + 2.0 * margin - K * v / (1.0 + v)
    ask = True
    if theta < 0.0:
        aggr, prob = True, 1.0
    else:
        aggr, prob = False, 2.0 * h / (2.0 * h + theta)
        ask = rng.random() < prob
    update = (aggressive and aggr) or label != y
    record_round(r_rec, t, v)
    record_round(margin_rec, t, margin)
    record_round(theta_rec, t, theta)
    record_round(aggressive_rec, t, aggr)
    record_round(prob_rec, t, prob)
    if ask and update:
        set_target(z, f, y, definition1)
    return label, ask, update


@numba.njit(cache=True, inline="always")
def bbq_round(t, x, u, v, p, f, z, y, W, params, extra, rng, records):
    """BBQ (Cesa-Bianchi, Gentile & Orabona 2009): query if v/(1 + v) > t^{−κ}; one-hot update on every query."""
    (kappa,) = params
    r_rec, threshold_rec = records
    f[:] = p
    r = v / (1.0 + v)
    threshold = float(t + 1) ** (-kappa)
    record_round(r_rec, t, r)
    record_round(threshold_rec, t, threshold)
    ask = r > threshold
    if ask:
        set_target(z, f, y, False)
    return first_max(f, -1), ask, True


@numba.njit(cache=True, inline="always")
def bbq_eps_round(t, x, u, v, p, f, z, y, W, params, extra, rng, records):
    """BBQ_ε (Orabona & Cesa-Bianchi 2011): query if the bias bound exceeds ε; then ``C += x xᵀ``."""
    eps, delta = params
    (C,) = extra
    r_rec, s_rec, q_rec, bound_rec = records
    f[:] = p
    tt = t + 1
    c = 1.0 + v
    r = v / c
    s = math.sqrt(fixed_order_dot(u, u)) / c
    cu = np.empty(u.shape[0])
    symmetric_matvec(C, u, cu)
    q = math.sqrt(max(fixed_order_dot(u, cu), 0.0)) / c
    bound = math.sqrt(2.0 * math.log(tt * (tt + 1) / (2.0 * delta)))
    record_round(r_rec, t, r)
    record_round(s_rec, t, s)
    record_round(q_rec, t, q)
    record_round(bound_rec, t, bound)
    ask = eps - r - s < q * bound
    if ask:
        set_target(z, f, y, False)
        d = x.shape[0]
        for i in range(d):
            xi = x[i]
            row = C[i]
            for j in range(d):
                row[j] += xi * x[j]
    return first_max(f, -1), ask, True


@numba.njit(cache=True, inline="always")
def dgs_round(t, x, u, v, p, f, z, y, W, params, extra, rng, records):
    """DGS (Dekel, Gentile & Sridharan 2012): query if the clipped gap ≤ 2θ; project the scores into [−1, 1]."""
    (delta,) = params
    (sum_r,) = extra
    theta_rec, margin_rec = records
    f[:] = p
    K = p.shape[0]
    theta = math.sqrt(v * (1.0 + 4.0 * sum_r[0] + 36.0 * math.log((t + 1) / delta)))
    for k in range(K):
        z[k] = min(max(p[k], -1.0), 1.0)  # clipped scores (z is free until the target below)
    i1 = first_max(z, -1)
    margin = z[i1] - z[first_max(z, i1)]
    record_round(theta_rec, t, theta)
    record_round(margin_rec, t, margin)
    ask = margin <= 2.0 * theta
    if ask:  # project every score into [-1, 1] first, then recompute the scores
        moved = False
        for k in range(K):
            if abs(p[k]) > 1.0:
                e = math.copysign(abs(p[k]) - 1.0, p[k])
                w = W[k]
                for i in range(x.shape[0]):
                    w[i] -= (u[i] / v) * e
                moved = True
        if moved:
            for k in range(K):
                p[k] = fixed_order_dot(W[k], x)
        sum_r[0] += v / (1.0 + v)
        set_target(z, f, y, False)
    return first_max(f, -1), ask, True


#: The compiled rules: name → :class:`RuleEntry`. A learner names its rule in ``compiled_rule`` (its
#: ``compiled_form()``); the loop of a rule is built from this entry alone (:func:`rounds_for`).
RULES: dict[str, RuleEntry] = {
    "cmog": RuleEntry(cmog_round, params={"definition1": bool, "conservative": bool}),
    "msg": RuleEntry(
        msg_round,
        params={"definition1": bool, "aggressive": bool, "h": float},
        records={"r": float, "margin": float, "theta": float, "aggressive": bool, "prob": float},
    ),
    "bbq": RuleEntry(bbq_round, params={"kappa": float}, records={"r": float, "threshold": float}),
    "bbq_eps": RuleEntry(
        bbq_eps_round,
        params={"eps": float, "delta": float},
        state=("sum_xxT",),
        records={"r": float, "s": float, "q": float, "bound": float},
    ),
    "dgs": RuleEntry(
        dgs_round, params={"delta": float}, state=("sum_r",), records={"theta": float, "margin": float}
    ),
}


# --------------------------------------------------------------------------- the loop


def _rounds_template(X, order, y, start, stop, params, state, rng, out):
    """Rounds ``start..stop-1`` of one rule (module docstring); ``state`` is updated in place.

    ``_RULE`` is the rule's round function, a global of the copy that :func:`rounds_for` compiles.
    """
    Ainv, W, n_updates, extra = state.Ainv, state.W, state.n_updates, state.extra
    pred, scores, queried = out.predictions, out.scores, out.queried
    d = X.shape[1]
    K = W.shape[0]
    u = np.empty(d)
    u_next = np.empty(d)  # A^{-1} m of the next round, made by an update's sweep over A^{-1}
    no_next = np.empty(0)
    have_next = False
    p = np.empty(K)
    f = np.empty(K)
    z = np.empty(K)
    for t in range(start, stop):
        x = X[order[t]]
        if have_next:
            u, u_next = u_next, u
        else:
            symmetric_matvec(Ainv, x, u)
        have_next = False
        v = fixed_order_dot(x, u)
        for k in range(K):
            p[k] = fixed_order_dot(W[k], x)
        label, ask, update = _RULE(t, x, u, v, p, f, z, y[t], W, params, extra, rng, out.own)  # noqa: F821
        pred[t] = label
        for k in range(K):
            scores[t, k] = f[k]
        record_round(out.v, t, v)
        queried[t] = ask
        if ask and update:
            have_next = t + 1 < stop
            _rls_update(Ainv, W, x, u, v, z, p, X[order[t + 1]] if have_next else no_next, u_next)
            n_updates[0] += 1


_LOOPS: dict = {}


def _code_digest(fn):
    """Eight hex digits of a function's bytecode, names and constants (its compiled loop's cache name)."""
    code = fn.__code__
    consts = [c for c in code.co_consts if not isinstance(c, types.CodeType)]
    text = repr((code.co_code, code.co_names, code.co_varnames, consts)).encode()
    return hashlib.sha256(text).hexdigest()[:8]


def rounds_for(name):
    """The compiled loop of the rule ``name``: the template with the rule's round function as ``_RULE``.

    Built once per process and rule, cached on disk by numba under its own
    name (the rule's name and a digest of its round function's code, so an
    edited rule gets a fresh loop even if it lives in another file).
    """
    entry = RULES[name]
    key = (name, entry.round)
    loop = _LOOPS.get(key)
    if loop is None:
        py = entry.round.py_func if hasattr(entry.round, "py_func") else entry.round
        fn = types.FunctionType(
            _rounds_template.__code__, {**globals(), "_RULE": entry.round}, "multiclass_rounds"
        )
        fn.__qualname__ = f"multiclass_rounds_{name}_{_code_digest(py)}"
        fn.__doc__ = _rounds_template.__doc__
        loop = _LOOPS[key] = numba.njit(cache=True, nogil=True)(fn)
    return loop


def multiclass_rounds(X, order, y, start, stop, rule, state, rng, out):
    """Rounds ``start..stop-1`` of the learner ``rule`` (a :class:`MulticlassRule`) by its compiled loop.

    ``state`` a :class:`MulticlassState` with ``extra`` as the loop's tuple,
    ``out`` a :class:`MulticlassRecords`; ``rng`` the generator of MSG's coin
    (the others draw nothing).
    """
    rounds_for(rule.name)(X, order, y, start, stop, rule.params, state, rng, out)


def play_multiclass(rule, state, rng, X, order, y, keys, progress=None):
    """Play every round of ``order`` (:func:`multiclass_rounds` in chunks); ``state`` ends updated.

    ``X[i]`` is ``m_i``, ``y`` the labels in round order, ``keys`` the
    ``info`` keys to record. Returns ``(predictions, scores, queried,
    elapsed, records)`` as a learner's ``compiled_pass``.
    """
    entry = RULES[rule.name]
    missing = set(entry.state) - set(state.extra)
    if missing:
        raise ValueError(
            f"the {rule.name!r} rule needs the state arrays {list(entry.state)} in MulticlassState.extra, "
            f"missing {sorted(missing)}: hand them over in the learner's compiled_state()"
        )
    compiled = state._replace(
        extra=tuple(state.extra[k] for k in entry.state)
    )  # same arrays, in the entry's order
    order = np.asarray(order, dtype=np.intp)
    y = np.asarray(y, dtype=np.int64)
    T, K = order.size, state.W.shape[0]
    own = {k: np.zeros(T if k in keys else 0, dtype=np.dtype(kind)) for k, kind in entry.records.items()}
    out = MulticlassRecords(
        np.zeros(T, dtype=np.int64), np.zeros((T, K)), np.zeros(T, dtype=bool),
        np.zeros(T if "v" in keys else 0), tuple(own.values()),
    )  # fmt: skip

    def step(start, stop):
        multiclass_rounds(X, order, y, start, stop, rule, compiled, rng, out)

    elapsed = play_in_chunks(step, T, progress=progress)
    recorded = {"score": out.scores, "v": out.v, **own}
    return out.predictions, out.scores, out.queried, elapsed, {k: recorded[k] for k in keys}
