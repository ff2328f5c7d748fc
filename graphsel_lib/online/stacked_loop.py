"""The stacked one-vs-rest learners (K class-vs-rest GPA, RandomSampling, OLLGC or SSLGC) compiled by numba.

:func:`~graphsel_lib.online.run` plays a pass one round at a time in Python,
calling the learner's ``predict``, ``wants_label`` and ``update``. For K
one-vs-rest learners on d ≈ 100 features the interpreter then costs more than
the arithmetic. A stacked learner keeps its whole state in arrays — the rows
``w_k`` of ``W`` (K, d) and, for the ridge learners, ``A_k^{-1}`` (K, d, d) —
so many rounds can be played inside one compiled call
(:meth:`CompiledStack.compiled_pass`, which ``run`` uses). The stacked forms
build their compiled twin themselves (``compiled_form()`` of
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

One piece of compiled code per phase (:func:`predict_round`,
:func:`query_round`, :func:`update_round`) serves both drivers: the chunked
loops :func:`gpa_rounds` / :func:`ridge_rounds` that ``run`` calls, and the
per-round methods that an ask/tell :class:`~graphsel_lib.online.Session`
calls. So a session told the true labels equals ``run`` bit for bit.

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

import numba
import numpy as np

from ._kernels import fixed_order_dot, play_in_chunks, rank_one_downdate, symmetric_matvec

__all__ = [
    "GPA_RULE",
    "RIDGE_RULE",
    "CompiledStack",
    "gpa_rounds",
    "predict_round",
    "query_round",
    "ridge_rounds",
    "update_round",
]

GPA_RULE, RIDGE_RULE = 0, 1  # update rules of update_round
_RULES = {"gpa": GPA_RULE, "ridge": RIDGE_RULE}


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


@numba.njit(cache=True)
def query_round(Ainv, x, t, kappa, include_current, U, V, r, q):
    """SSLGC's query rule for the K learners at round ``t`` (1-based); returns ``(any queried, t^{-κ})``.

    Fills ``U[k] = A_k^{-1} x``, ``V[k] = x · U[k]``, ``r[k]`` and ``q[k] = r[k] > t^{-κ}``.
    """
    thr = float(t) ** (-kappa)
    anyq = False
    for k in range(Ainv.shape[0]):
        symmetric_matvec(Ainv[k], x, U[k])
        v = fixed_order_dot(x, U[k])
        V[k] = v
        r[k] = v / (1.0 + v) if include_current else v
        q[k] = r[k] > thr
        anyq = anyq or q[k]
    return anyq, thr


@numba.njit(cache=True)
def update_round(rule, W, Ainv, x, y, b, q, have_u, U, V, n_updates):
    """Update every learner k that was told the label (``q[k]``) and erred (``b[k] ≠ z_k``).

    ``rule`` is ``GPA_RULE`` (``w_k += z_k x``) or ``RIDGE_RULE`` (Sherman–Morrison on
    ``w_k`` and ``A_k^{-1}``; ``U[k] = A_k^{-1} x`` and ``V[k]`` are reused when
    ``have_u``, as SSLGC's query rule computed them).
    """
    d = x.shape[0]
    for k in range(W.shape[0]):
        z = 1 if y == k else -1
        if not q[k] or b[k] == z:
            continue
        w = W[k]
        n_updates[k] += 1
        if rule == GPA_RULE:
            for i in range(d):
                w[i] += z * x[i]
            continue
        u = U[k]
        if not have_u:
            symmetric_matvec(Ainv[k], x, u)
            V[k] = fixed_order_dot(x, u)
        c = 1.0 / (1.0 + V[k])
        a = c * (z - fixed_order_dot(w, x))
        for i in range(d):
            w[i] += a * u[i]
        rank_one_downdate(Ainv[k], u, c)


@numba.njit(cache=True, nogil=True)
def gpa_rounds(X, order, y, start, stop, W, coins, p, pred, scores, bpred, bquery, queried, n_updates):
    """Rounds ``start..stop-1`` of K class-vs-rest graph perceptrons.

    Every label is told, or, with ``coins`` of shape (T, K) (random sampling),
    learner k is told the label of round t iff ``coins[t, k] < p``.
    """
    no_A, no_U, no_V = np.zeros((0, 0, 0)), np.zeros((0, 0)), np.zeros(0)
    for t in range(start, stop):
        x = X[order[t]]
        pred[t] = predict_round(W, x, scores[t], bpred[t])
        if coins.shape[0] > 0:
            anyq = False
            for k in range(W.shape[0]):
                bquery[t, k] = coins[t, k] < p
                anyq = anyq or bquery[t, k]
            queried[t] = anyq
        else:
            bquery[t, :] = True
            queried[t] = True
        update_round(GPA_RULE, W, no_A, x, y[t], bpred[t], bquery[t], False, no_U, no_V, n_updates)


@numba.njit(cache=True, nogil=True)
def ridge_rounds(
    X, order, y, start, stop, W, Ainv, selective, kappa, include_current,
    pred, scores, bpred, bquery, queried, r, threshold, U, V, n_updates,
):  # fmt: skip
    """Rounds ``start..stop-1`` of K class-vs-rest OLLGC (``selective`` False) or SSLGC learners."""
    for t in range(start, stop):
        x = X[order[t]]
        pred[t] = predict_round(W, x, scores[t], bpred[t])
        if selective:
            queried[t], threshold[t] = query_round(
                Ainv, x, t + 1, kappa, include_current, U, V, r[t], bquery[t]
            )
        else:
            bquery[t, :] = True
            queried[t] = True
        update_round(RIDGE_RULE, W, Ainv, x, y[t], bpred[t], bquery[t], selective, U, V, n_updates)


class CompiledStack:
    """K class-vs-rest learners (GPA, RandomSampling, OLLGC or SSLGC) compiled: per-round methods and the whole pass.

    Built by a stacked form's ``compiled_form()`` with that form's rules:

    rule : ``"gpa"`` (``w_k += z_k x``) or ``"ridge"`` (Sherman–Morrison).
    mu : float
        Ridge rule: ``A_k = µI + Σ m_s m_sᵀ`` over learner k's updates.
    selective, kappa, include_current
        Ridge rule: SSLGC's query rule (``r_k > t^{-κ}``); not selective, every label is told.
    coin_generators : callable ``(K, rng) -> K generators``, optional
        Random sampling: learner k is told the label iff a draw of its generator is ``< p``.
    p : float
        The query probability of random sampling.

    After ``reset``: ``W`` (K, d) holds the rows ``w_k``; for the ridge rule
    ``Ainv`` (K, d, d) the K inverses ``A_k^{-1}`` (full, symmetric), else
    an empty array; ``n_updates`` (K,) counts each learner's updates.
    """

    multiclass = True
    record_keys = ("binary_predictions", "binary_queried")
    pass_releases_gil = True  # compiled_pass runs in gpa_rounds / ridge_rounds, compiled with nogil

    def __init__(
        self, rule, *, mu=1.0, selective=False, kappa=0.0, include_current=True, coin_generators=None, p=1.0
    ):
        self.rule = _RULES[rule]
        self.mu = float(mu)
        self.selective = bool(selective)
        self.kappa = float(kappa)
        self.include_current = bool(include_current)
        self.coin_generators = coin_generators
        self.p = float(p)

    def reset(self, d, n_classes, rng):
        K = int(n_classes)
        self.W = np.zeros((K, d))
        if self.rule == RIDGE_RULE:
            self.Ainv = np.broadcast_to(np.eye(d) / self.mu, (K, d, d)).copy()
        else:
            self.Ainv = np.zeros((0, 0, 0))
        self.rngs = None if self.coin_generators is None else self.coin_generators(K, rng)
        self.n_updates = np.zeros(K, dtype=np.int64)
        self._U, self._V = np.zeros((K, d)), np.zeros(K)

    @property
    def compiled_keys(self):
        base = {"score", "binary_predictions", "binary_queried"}
        return base | {"r", "threshold"} if self.selective else base

    # --- one round at a time (Session, or run with a record key the pass does not keep)
    def predict(self, x):
        K = self.W.shape[0]
        s, b = np.empty(K), np.empty(K, dtype=np.int64)
        best = predict_round(self.W, x, s, b)
        return best, {"score": s.tolist(), "binary_predictions": tuple(b.tolist()), "_b": b}

    def wants_label(self, x, t, info):
        K = self.W.shape[0]
        q = np.ones(K, dtype=bool)
        if self.rngs is not None:
            q[:] = [r.random() < self.p for r in self.rngs]
            anyq = bool(q.any())
        elif self.selective:
            r = np.empty(K)
            anyq, thr = query_round(self.Ainv, x, t, self.kappa, self.include_current, self._U, self._V, r, q)
            info["r"], info["threshold"] = r.tolist(), thr
        else:
            anyq = True
        info["_q"] = q
        info["binary_queried"] = tuple(q.tolist())
        return anyq

    def update(self, x, y, label, info):
        q = info.get("_q")
        if q is None:  # wants_label was not asked (a query rule wraps this learner): every class learns
            if self.selective:
                raise TypeError(
                    "a selective one-vs-rest learner (SSLGC) has its own query step, which its update needs; "
                    "a query rule (MarginSampling, RandomQueries) cannot replace it: wrap a fully supervised "
                    "learner instead (OneVsRest(GPA), OneVsRest(OLLGC), CMOG, Relaxation)"
                )
            q = np.ones(self.W.shape[0], dtype=bool)
        update_round(
            self.rule,
            self.W,
            self.Ainv,
            x,
            y,
            info["_b"],
            q,
            self.selective,
            self._U,
            self._V,
            self.n_updates,
        )

    # --- the whole pass (run)
    def compiled_pass(self, X, order, y, keys, progress=None):
        """Play every round of ``order`` in the compiled loop; None if a key in ``keys`` is not kept.

        ``X[i]`` is ``m_i``, ``order`` the nodes of the rounds, ``y`` their
        labels in round order; ``progress(n)``, if given, is told the rounds
        of every chunk played. Returns ``(predictions, scores, queried,
        elapsed, records)``, the state updated as the per-round methods would.
        """
        if not set(keys) <= self.compiled_keys:
            return None
        order = np.asarray(order, dtype=np.intp)
        T, K = len(order), self.W.shape[0]
        pred, queried = np.zeros(T, dtype=np.int64), np.zeros(T, dtype=bool)
        scores, bpred, bquery = (
            np.zeros((T, K)),
            np.zeros((T, K), dtype=np.int64),
            np.zeros((T, K), dtype=bool),
        )
        r, threshold = np.zeros((T if self.selective else 0, K)), np.zeros(T)

        # random sampling: learner k's T coins drawn at once from its generator, as T single draws would be
        coins = (
            np.stack([r.random(T) for r in self.rngs], axis=1) if self.rngs is not None else np.zeros((0, K))
        )

        def step(start, stop):
            if self.rule == GPA_RULE:
                gpa_rounds(
                    X, order, y, start, stop, self.W, coins, self.p, pred, scores, bpred, bquery, queried,
                    self.n_updates,
                )  # fmt: skip
            else:
                ridge_rounds(
                    X, order, y, start, stop, self.W, self.Ainv, self.selective, self.kappa,
                    self.include_current, pred, scores, bpred, bquery, queried, r, threshold,
                    self._U, self._V, self.n_updates,
                )  # fmt: skip

        elapsed = play_in_chunks(step, T, progress=progress)
        records = {"score": scores, "binary_predictions": bpred, "binary_queried": bquery}
        if self.selective:
            records.update(r=r, threshold=threshold)
        return pred, scores, queried, elapsed, {k: records[k] for k in keys}
