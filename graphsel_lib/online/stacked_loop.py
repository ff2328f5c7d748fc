"""The stacked one-vs-rest learners (K class-vs-rest GPA, RandomSampling, OLLGC or SSLGC) compiled by numba.

:func:`~graphsel_lib.online.run` plays a pass one round at a time in Python,
calling the learner's ``predict``, ``wants_label`` and ``update``. For K
one-vs-rest learners on d ≈ 100 features the interpreter then costs more than
the arithmetic. A stacked learner keeps its whole state in arrays — the rows
``w_k`` of ``W`` (K, d) and, for the ridge learners, ``A_k^{-1}`` (K, d, d) —
so many rounds can be played inside one compiled call
(``CompiledStack.compiled_pass``, which ``run`` uses). The stacked forms
build their compiled rule themselves (``compiled_form()`` of
:class:`~graphsel_lib.online.perceptron.GPAOneVsRest`,
:class:`~graphsel_lib.online.perceptron.RandomSamplingOneVsRest` and
:class:`~graphsel_lib.online.ollgc_sslgc.RidgeOneVsRest`) with their own
parameters; this module imports no learner. The rules are the
learners' own, in the same order; round t (1-based), node x = m_{order[t]},
true class y, ``z_k = +1 if y = k else −1``::

    s_k = w_k · x;   binary prediction sign(s_k) (sign(0) = +1);   ŷ = argmax_k s_k (ties: smallest k)
    GPA, OLLGC:  every learner is told the label
    RandomSampling: learner k is told it iff its own coin U_k < p (one draw of its generator a round)
    SSLGC:       u_k = A_k^{-1} x,  v_k = x · u_k,  r_k = v_k/(1+v_k)  (or v_k),  queried_k = r_k > t^{-κ}
    learner k updates iff queried_k and sign(s_k) ≠ z_k:
        GPA:          w_k += z_k x
        OLLGC/SSLGC:  c = 1/(1+v_k);  w_k += c (z_k − w_k · x) u_k;  A_k^{-1} −= c u_k u_kᵀ   (Sherman–Morrison)

From rank 200 a pass of SSLGC decides most queries without ``u_k``: the learners' Woodbury factors certify
``r_k > t^{-κ}`` (:mod:`~graphsel_lib.online.query_certificate`; :func:`certified_query_round`), and only a
learner that updates, or whose ``r_k`` is too near the threshold to certify, computes ``u_k``, by the same code.
The pass is the same bit for bit; on Cora at d = 1000 it takes 1.0 s instead of 4.8 s.

One piece of compiled code per phase (:func:`predict_round`,
:func:`query_round`, :func:`update_round`) serves both drivers: the chunked
loop :func:`stacked_rounds` that ``run`` calls, and the per-round methods
that an ask/tell :class:`~graphsel_lib.online.Session` calls. So a session
told the true labels equals ``run`` bit for bit.

The loop takes three records (namedtuples, which numba compiles as tuples),
as the other compiled loops do: :class:`StackRule`, the rule and its
parameters, which a stacked form builds in its ``compiled_form()``
(:func:`stack_rule`); :class:`StackState`, the arrays it updates in place;
and :class:`StackRecords`, the per-round outputs. :func:`play_stacked`
plays a whole pass.

Rounding. Every sum is a loop with a fixed order (the primitives of
:mod:`~graphsel_lib.online._kernels`), so learners with equal states get equal
numbers, which the tie rule needs (all K start at zero). The numbers differ
from the BLAS path of :class:`~graphsel_lib.online.one_vs_rest.StackedOneVsRest`
(``OneVsRest(..., compiled=False)``) in the last bits only: predictions,
queries and mistakes are tested equal round by round, scores to 1e-10.

Threads. The chunked loops release the GIL (``nogil``): passes over
different orders run in parallel in threads of one process
(:func:`~graphsel_lib.experiments.evaluate` does so for a learner whose
``pass_releases_gil`` is true), with no worker processes to start.

Timing. A compiled loop cannot read the clock every round cheaply: ``run``
reads it every ``CHUNK_ROUNDS`` rounds and interpolates ``elapsed`` linearly in
between (:func:`~graphsel_lib.online._kernels.play_in_chunks`).

This module imports numba; the learners import it only when asked for their
compiled form, and keep the BLAS path if numba cannot be imported.
"""

from __future__ import annotations

from collections import namedtuple

import numba
import numpy as np

from . import query_certificate
from ._kernels import fixed_order_dot, play_in_chunks, rank_one_downdate, symmetric_matvec
from .protocol import CompiledPass, CompiledRule
from .query_certificate import certified_v, decide, extend, shared_dots

__all__ = [
    "GPA_RULE",
    "RIDGE_RULE",
    "CompiledStack",
    "StackRecords",
    "StackRule",
    "StackState",
    "certified_query_round",
    "play_stacked",
    "predict_round",
    "query_round",
    "stack_rule",
    "stacked_rounds",
    "update_round",
]

GPA_RULE, RIDGE_RULE = 0, 1  # update rules of update_round

StackRule = namedtuple("StackRule", ["code", "mu", "selective", "kappa", "include_current", "p"])
StackRule.__doc__ = """A stacked form's rule: ``code`` (``GPA_RULE``: ``w_k += z_k x``; ``RIDGE_RULE``: Sherman–Morrison)
and its parameters: ``mu`` (``A_k = µI + Σ m_s m_sᵀ``), ``selective``, ``kappa`` and
``include_current`` (SSLGC's query rule ``r_k > t^{-κ}``; not selective, every label is told) and
``p`` (random sampling: learner k is told the label iff its coin is ``< p``). Build it with :func:`stack_rule`.
"""

StackState = namedtuple("StackState", ["W", "Ainv", "U", "V", "n_updates"])
StackState.__doc__ = """The arrays a pass updates in place: ``W`` (K, d) the rows ``w_k``; ``Ainv`` (K, d, d) the K
inverses ``A_k^{-1}`` (full, symmetric; (0, 0, 0) for the GPA rule); ``U`` (K, d), ``V`` (K,) scratch for
``A_k^{-1} x`` and ``x · A_k^{-1} x``; ``n_updates`` (K,) each learner's number of updates.
"""

StackRecords = namedtuple(
    "StackRecords",
    ["predictions", "scores", "binary_predictions", "binary_queried", "queried", "r", "threshold"],
)
StackRecords.__doc__ = """The outputs of a pass, one entry a round: predictions, scores (T, K), the K binary
predictions and queries (T, K), queried, and SSLGC's ``r`` (T, K) and ``threshold`` (T,) ((0, K) and (0,)
when not selective).
"""


def stack_rule(rule, *, mu=1.0, selective=False, kappa=0.0, include_current=True, p=1.0):
    """A :class:`StackRule` (``rule`` ``"gpa"`` or ``"ridge"``) with every field of the type the loop is compiled for.

    The parameters are the learner's, validated when it was built; this only converts them.
    """
    code = {"gpa": GPA_RULE, "ridge": RIDGE_RULE}[rule]
    return StackRule(code, float(mu), bool(selective), float(kappa), bool(include_current), float(p))


@numba.njit(cache=True)
def predict_round(W, x, s, b):
    """Scores ``s_k = w_k · x`` and binary predictions ``b_k`` (into ``s``, ``b``); returns argmax_k s_k."""
    best = 0
    for k in range(W.shape[0]):
        s[k] = fixed_order_dot(W[k], x)
        b[k] = 1 if s[k] >= 0.0 else -1
        if s[k] > s[best]:
            best = k
    return best


@numba.njit(cache=True, inline="always")
def _ask(Ainv, x, k, thr, include_current, U, V, r, q):
    """Learner k's query: ``U[k] = A_k^{-1} x``, ``V[k] = x · U[k]``, ``r[k]``, ``q[k] = r[k] > thr``."""
    symmetric_matvec(Ainv[k], x, U[k])
    v = fixed_order_dot(x, U[k])
    V[k] = v
    r[k] = v / (1.0 + v) if include_current else v
    q[k] = r[k] > thr


@numba.njit(cache=True)
def query_round(Ainv, x, t, kappa, include_current, U, V, r, q):
    """SSLGC's query rule for the K learners at round ``t`` (1-based); returns ``(any queried, t^{-κ})``.

    Fills ``U[k] = A_k^{-1} x``, ``V[k] = x · U[k]``, ``r[k]`` and ``q[k] = r[k] > t^{-κ}``.
    """
    thr = float(t) ** (-kappa)
    anyq = False
    for k in range(Ainv.shape[0]):
        _ask(Ainv, x, k, thr, include_current, U, V, r, q)
        anyq = anyq or q[k]
    return anyq, thr


@numba.njit(cache=True)
def certified_query_round(Ainv, X, x, t, mu, kappa, include_current, U, V, r, q, have, cert):
    """:func:`query_round` where a certificate decides (:mod:`~graphsel_lib.online.query_certificate`).

    A learner whose decision its certificate settles gets ``q[k]`` without ``U[k]``, ``V[k]`` (``have[k]``
    false, ``r[k]`` NaN); any other computes them as :func:`query_round` does (``have[k]`` true). Returns
    ``(any queried, t^{-κ}, ‖x‖²)`` (``‖x‖²`` 0 when no learner is certified).
    """
    thr = float(t) ** (-kappa)
    xx = shared_dots(cert, X, x) if cert.active.any() else 0.0  # ‖x‖², read by extend if a learner updates
    anyq = False
    for k in range(Ainv.shape[0]):
        verdict = 0
        if cert.active[k]:
            verdict = decide(certified_v(cert, k, xx, mu), xx, mu, thr, include_current)
        if verdict == 0:
            _ask(Ainv, x, k, thr, include_current, U, V, r, q)
            have[k] = True
        else:
            q[k] = verdict > 0
            r[k] = np.nan
            have[k] = False
        anyq = anyq or q[k]
    return anyq, thr, xx


@numba.njit(cache=True)
def update_round(code, state, x, y, b, q, have_u, updated):
    """Update every learner k that was told the label (``q[k]``) and erred (``b[k] ≠ z_k``); ``updated[k]`` says which.

    ``code`` is ``GPA_RULE`` (``w_k += z_k x``) or ``RIDGE_RULE`` (Sherman–Morrison on
    ``w_k`` and ``A_k^{-1}``; ``state.U[k] = A_k^{-1} x`` and ``state.V[k]`` are reused where
    ``have_u[k]``, as SSLGC's query rule computed them). ``state`` a :class:`StackState`.
    """
    W, Ainv, U, V, n_updates = state.W, state.Ainv, state.U, state.V, state.n_updates
    d = x.shape[0]
    for k in range(W.shape[0]):
        z = 1 if y == k else -1
        updated[k] = q[k] and b[k] != z
        if not updated[k]:
            continue
        w = W[k]
        n_updates[k] += 1
        if code == GPA_RULE:
            for i in range(d):
                w[i] += z * x[i]
            continue
        u = U[k]
        if not have_u[k]:
            symmetric_matvec(Ainv[k], x, u)
            V[k] = fixed_order_dot(x, u)
        c = 1.0 / (1.0 + V[k])
        a = c * (z - fixed_order_dot(w, x))
        for i in range(d):
            w[i] += a * u[i]
        rank_one_downdate(Ainv[k], u, c)


@numba.njit(cache=True, nogil=True)
def stacked_rounds(X, order, y, start, stop, rule, state, coins, out, cert):
    """Rounds ``start..stop-1`` of K class-vs-rest GPA, RandomSampling, OLLGC or SSLGC learners.

    ``rule`` a :class:`StackRule`, ``state`` a :class:`StackState` (updated in
    place), ``out`` a :class:`StackRecords`. With ``coins`` of shape (T, K)
    (random sampling), learner k is told the label of round t iff
    ``coins[t, k] < rule.p``; SSLGC asks by its query rule, where ``cert`` (a
    :class:`~graphsel_lib.online.query_certificate.Certificate`) may decide;
    otherwise every label is told.
    """
    K = state.W.shape[0]
    have = np.full(K, rule.selective)
    updated = np.zeros(K, dtype=np.bool_)
    r_scratch = np.empty(K)
    xx = 0.0
    for t in range(start, stop):
        x = X[order[t]]
        b, q = out.binary_predictions[t], out.binary_queried[t]
        out.predictions[t] = predict_round(state.W, x, out.scores[t], b)
        if rule.selective:
            r = out.r[t] if out.r.shape[0] > 0 else r_scratch
            out.queried[t], out.threshold[t], xx = certified_query_round(
                state.Ainv, X, x, t + 1, rule.mu, rule.kappa, rule.include_current, state.U, state.V, r, q,
                have, cert,
            )  # fmt: skip
        elif coins.shape[0] > 0:
            anyq = False
            for k in range(K):
                q[k] = coins[t, k] < rule.p
                anyq = anyq or q[k]
            out.queried[t] = anyq
        else:
            q[:] = True
            out.queried[t] = True
        update_round(rule.code, state, x, y[t], b, q, have, updated)
        for k in range(K):  # a certified learner that updated: one row more in its factor
            if cert.active[k] and updated[k]:
                extend(cert, k, order[t], xx, rule.mu)


def _certificate(rule, state, X, keys):
    """Certificates for SSLGC at rank ``CERT_MIN_D`` and more, from a fresh state, when ``r`` is not recorded."""
    K, d = state.W.shape
    fresh = not state.n_updates.any()  # A_k = µI: the Woodbury factors start empty
    if (
        rule.selective
        and rule.code == RIDGE_RULE
        and d >= query_certificate.CERT_MIN_D
        and fresh
        and "r" not in keys
    ):
        return query_certificate.new_certificate(K, d, X.shape[0])
    return query_certificate.off(K)


def play_stacked(rule, state, rngs, X, order, y, keys, progress=None):
    """Play every round of ``order`` (:func:`stacked_rounds` in chunks); ``state`` ends updated.

    ``rngs``: None, or random sampling's K coin generators (learner k's T
    coins drawn at once from its generator, as T single draws would be).
    ``X[i]`` is ``m_i``, ``y`` the labels in round order, ``keys`` the
    ``info`` keys to record. Returns ``(predictions, scores, queried,
    elapsed, records)`` as a learner's ``compiled_pass``.
    """
    order = np.asarray(order, dtype=np.intp)
    T, K = len(order), state.W.shape[0]
    out = StackRecords(
        np.zeros(T, dtype=np.int64), np.zeros((T, K)), np.zeros((T, K), dtype=np.int64),
        np.zeros((T, K), dtype=bool), np.zeros(T, dtype=bool), np.zeros((T if rule.selective else 0, K)),
        np.zeros(T),
    )  # fmt: skip
    coins = np.stack([r.random(T) for r in rngs], axis=1) if rngs is not None else np.zeros((0, K))
    cert = _certificate(rule, state, X, keys)

    def step(start, stop):
        stacked_rounds(X, order, y, start, stop, rule, state, coins, out, cert)

    elapsed = play_in_chunks(step, T, progress=progress)
    records = {
        "score": out.scores,
        "binary_predictions": out.binary_predictions,
        "binary_queried": out.binary_queried,
    }
    if rule.selective:
        records.update(r=out.r, threshold=out.threshold)
    return out.predictions, out.scores, out.queried, elapsed, {k: records[k] for k in keys}


class CompiledStack(CompiledPass):
    """K class-vs-rest learners (GPA, RandomSampling, OLLGC or SSLGC) compiled: per-round methods and the whole pass.

    Built by a stacked form's ``compiled_twin()`` from its ``compiled_form()``:

    rule : :class:`StackRule`
        The learners' rule and parameters.
    coin_generators : callable ``(K, rng) -> K generators``, optional
        Random sampling: learner k is told the label iff a draw of its generator is ``< rule.p``.

    After ``reset``: ``W`` (K, d) holds the rows ``w_k``; for the ridge rule
    ``Ainv`` (K, d, d) the K inverses ``A_k^{-1}`` (full, symmetric), else
    an empty array; ``n_updates`` (K,) counts each learner's updates; ``state``
    is the :class:`StackState` of these arrays.
    """

    multiclass = True
    record_keys = ("binary_predictions", "binary_queried")

    def __init__(self, rule, coin_generators=None):
        self.rule = rule
        self.coin_generators = coin_generators
        base = {"score", "binary_predictions", "binary_queried"}
        self._compiled_keys = frozenset(base | {"r", "threshold"} if rule.selective else base)

    def reset(self, d, n_classes, rng):
        K = int(n_classes)
        self.W = np.zeros((K, d))
        if self.rule.code == RIDGE_RULE:
            self.Ainv = np.broadcast_to(np.eye(d) / self.rule.mu, (K, d, d)).copy()
        else:
            self.Ainv = np.zeros((0, 0, 0))
        self.rngs = None if self.coin_generators is None else self.coin_generators(K, rng)
        self.n_updates = np.zeros(K, dtype=np.int64)
        self.state = StackState(self.W, self.Ainv, np.zeros((K, d)), np.zeros(K), self.n_updates)

    # --- one round at a time (Session, or run with a record key the pass does not keep)
    def predict(self, x):
        K = self.W.shape[0]
        s, b = np.empty(K), np.empty(K, dtype=np.int64)
        best = predict_round(self.W, x, s, b)
        return best, {"score": s.tolist(), "binary_predictions": tuple(b.tolist()), "_b": b}

    def wants_label(self, x, t, info):
        K, rule = self.W.shape[0], self.rule
        q = np.ones(K, dtype=bool)
        if self.rngs is not None:
            q[:] = [r.random() < rule.p for r in self.rngs]
            anyq = bool(q.any())
        elif rule.selective:
            r = np.empty(K)
            st = self.state
            anyq, thr = query_round(self.Ainv, x, t, rule.kappa, rule.include_current, st.U, st.V, r, q)
            info["r"], info["threshold"] = r.tolist(), thr
        else:
            anyq = True
        info["_q"] = q
        info["binary_queried"] = tuple(q.tolist())
        return anyq

    def update(self, x, y, label, info):
        q = info.get("_q")
        if q is None:  # wants_label was not asked (a query rule wraps this learner): every class learns
            if self.rule.selective:
                raise TypeError(
                    "a selective one-vs-rest learner (SSLGC) has its own query step, which its update needs; "
                    "a query rule (MarginSampling, RandomQueries) cannot replace it: wrap a fully supervised "
                    "learner instead (OneVsRest(GPA), OneVsRest(OLLGC), CMOG, Relaxation)"
                )
            q = np.ones(self.W.shape[0], dtype=bool)
        K = self.W.shape[0]
        have_u = np.full(K, self.rule.selective)  # the query rule computed every U[k]
        update_round(self.rule.code, self.state, x, y, info["_b"], q, have_u, np.zeros(K, dtype=bool))

    # --- the whole pass (run), through CompiledPass.compiled_pass
    def compiled_form(self):
        return CompiledRule(play_stacked, self.rule)

    def compiled_state(self):
        return self.state

    def compiled_coin(self):
        return self.rngs
