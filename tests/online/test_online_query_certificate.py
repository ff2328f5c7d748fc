"""SSLGC's certified query decisions (query_certificate): the same pass, bit for bit, with fewer products."""

from functools import partial

import numpy as np
import pytest

from graphsel_lib.online import SSLGC, OneVsRest, run
from graphsel_lib.online import query_certificate as qc
from graphsel_lib.online import stacked_loop as sl

_new = qc.new_certificate


def _play(X, y, order, mu, kappa, include_current, cert):
    """A whole SSLGC pass by stacked_rounds with ``cert``; the records (r kept: NaN where certified) and state."""
    T, d = len(order), X.shape[1]
    K = int(y.max()) + 1
    rule = sl.stack_rule("ridge", mu=mu, selective=True, kappa=kappa, include_current=include_current)
    Ainv = np.broadcast_to(np.eye(d) / mu, (K, d, d)).copy()
    state = sl.StackState(np.zeros((K, d)), Ainv, np.zeros((K, d)), np.zeros(K), np.zeros(K, dtype=np.int64))
    out = sl.StackRecords(
        np.zeros(T, dtype=np.int64), np.zeros((T, K)), np.zeros((T, K), dtype=np.int64),
        np.zeros((T, K), dtype=bool), np.zeros(T, dtype=bool), np.zeros((T, K)), np.zeros(T),
    )  # fmt: skip
    for start in range(0, T, 64):
        sl.stacked_rounds(
            X, order, y[order], start, min(start + 64, T), rule, state, np.zeros((0, K)), out, cert
        )
    return out, state


@pytest.mark.parametrize("trial", range(6))
def test_certified_pass_equals_the_pass_that_computes_every_product(trial):
    """Predictions, scores, queries, w_k and A_k^{-1} equal bit for bit; some decisions certified, some factors full."""
    rng = np.random.default_rng(trial)
    n, d, K = 300, 40, 4
    X = rng.standard_normal((n, d)) / np.sqrt(d) * (1 + trial)
    y = rng.integers(0, K, n)
    order = rng.permutation(n)
    mu, kappa, include_current = (0.1, 1.0, 0.01)[trial % 3], (0.2, 0.4, 0.8)[trial % 3], bool(trial % 2)
    plain, s_plain = _play(X, y, order, mu, kappa, include_current, qc.off(K))
    cert = qc.new_certificate(K, d, n, cap=15)
    fast, s_fast = _play(X, y, order, mu, kappa, include_current, cert)
    for field in ("predictions", "scores", "binary_predictions", "binary_queried", "queried", "threshold"):
        np.testing.assert_array_equal(getattr(fast, field), getattr(plain, field))
    for field in ("W", "Ainv", "n_updates"):
        np.testing.assert_array_equal(getattr(s_fast, field), getattr(s_plain, field))
    certified = np.isnan(fast.r)
    assert 0.05 < certified.mean() < 1  # decided without the product, the others computed
    assert not np.isnan(plain.r).any()
    np.testing.assert_array_equal(fast.r[~certified], plain.r[~certified])
    assert (cert.m == 15).all() and not cert.active.any()  # full factors leave the certificate


def test_woodbury_v_is_the_loops_v_to_rounding():
    """certified_v (Woodbury on the updates) equals x·A^{-1}x of the maintained inverse to 1e-12 of ‖x‖²/µ."""
    rng = np.random.default_rng(5)
    n, d, K, mu = 200, 30, 3, 0.5
    X = rng.standard_normal((n, d))
    y = rng.integers(0, K, n)
    order = rng.permutation(n)
    cert = qc.new_certificate(K, d, n, cap=d)
    _, state = _play(X, y, order, mu, 0.3, True, cert)
    for x in rng.standard_normal((5, d)):
        xx = qc.shared_dots(cert, X, x)
        for k in range(K):
            if cert.active[k]:
                exact = x @ state.Ainv[k] @ x
                assert abs(qc.certified_v(cert, k, xx, mu) - exact) <= 1e-12 * xx / mu


def test_run_uses_certificates_from_a_fresh_state_only(monkeypatch):
    """run(OneVsRest(SSLGC)) gives the same trace with certificates (rank >= CERT_MIN_D) as without (r recorded)."""
    rng = np.random.default_rng(1)
    n, d = 250, 24
    M = rng.standard_normal((d, n)) / 3
    y = rng.integers(0, 3, n)
    learner = partial(SSLGC, mu=0.3, kappa=0.5)
    monkeypatch.setattr(qc, "CERT_MIN_D", d + 1)
    plain = run(OneVsRest(learner), M, y, seed=2, record=("binary_queried",))
    monkeypatch.setattr(qc, "CERT_MIN_D", 1)
    made = []
    monkeypatch.setattr(
        qc, "new_certificate", lambda *a, **k: made.append(a) or qc.Certificate(*_new(*a, **k))
    )
    fast = run(OneVsRest(learner), M, y, seed=2, record=("binary_queried",))
    assert made == [(3, d, n)]  # the pass was played with a certificate
    exact_r = run(
        OneVsRest(learner), M, y, seed=2, record=("binary_queried", "r")
    )  # r recorded: no certificate
    for trace in (fast, exact_r):
        np.testing.assert_array_equal(trace.predictions, plain.predictions)
        np.testing.assert_array_equal(trace.queried, plain.queried)
        np.testing.assert_array_equal(trace.scores, plain.scores)
        np.testing.assert_array_equal(trace.records["binary_queried"], plain.records["binary_queried"])
    assert not np.isnan(exact_r.records["r"]).any()
    K, rule = 3, sl.stack_rule("ridge", mu=0.3, selective=True, kappa=0.5)
    state = sl.StackState(
        np.zeros((K, d)), np.zeros((K, d, d)), np.zeros((K, d)), np.zeros(K), np.ones(K, dtype=int)
    )
    assert not sl._certificate(
        rule, state, M.T, ()
    ).active.any()  # a learner that has updated: no certificate
    state = state._replace(n_updates=np.zeros(K, dtype=int))
    assert sl._certificate(rule, state, M.T, ()).active.all() and len(made) == 2
    assert not sl._certificate(rule, state, M.T, ("r",)).active.any()
