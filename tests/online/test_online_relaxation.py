"""Relaxation learner / FastONL (beyond the papers).

The fast learner equals its naive twin (dense ``np.linalg.inv``, per-round
recomputation of ``a`` and ``τ``, bisection projection) round by round; the
push kernel approaches the exact one; the PPR identity
``K = 2n D^{-1/2} Π D^{1/2}`` holds numerically.
"""

import numpy as np
import pytest
import scipy.sparse as sp

from conftest import random_connected_graph
from graphsel_lib.online import run
from graphsel_lib.online.push import Pusher, ppr_push, push_kernel_column
from graphsel_lib.online.reference.relaxation import (
    ReferenceRelaxation,
    reference_multiclass_hinge,
    reference_project_simplex,
)
from graphsel_lib.online.relaxation import (
    Relaxation,
    multiclass_hinge,
    node_ids,
    project_simplex,
    relaxation_kernel,
    relaxation_kernel_trace,
)


def smooth_labels(S, rng, n_classes, flip=0.15):
    """Classes from quantiles of the Fiedler vector, ``flip`` of them random (a learnable labelling)."""
    A = S.toarray()
    L = np.diag(A.sum(1)) - A
    f = np.linalg.eigh(L)[1][:, 1]
    y = np.searchsorted(np.quantile(f, np.linspace(0, 1, n_classes + 1)[1:-1]), f)
    noisy = rng.random(y.size) < flip
    y[noisy] = rng.integers(0, n_classes, noisy.sum())
    return y


# --------------------------------------------------------------------------- projection and surrogate


def test_project_simplex_matches_bisection_and_properties(rng):
    for _ in range(300):
        K = int(rng.integers(1, 9))
        psi = rng.normal(0, rng.choice([0.01, 0.3, 3.0]), K)
        q = project_simplex(psi)
        np.testing.assert_allclose(q, reference_project_simplex(psi), atol=1e-12)
        assert q.min() >= 0 and abs(q.sum() - 1) < 1e-12
        np.testing.assert_allclose(project_simplex(q), q, atol=1e-14)  # idempotent
        # optimality: no random point of the simplex is closer to psi
        P = rng.dirichlet(np.ones(K), size=50)
        assert np.linalg.norm(q - psi) <= np.linalg.norm(P - psi, axis=1).min() + 1e-12
        # order preserving, so argmax q = argmax psi
        assert np.argmax(q) == np.argmax(psi)


def test_project_simplex_examples_and_errors():
    np.testing.assert_allclose(project_simplex([0.0, 0.0, 0.0]), [1 / 3] * 3)
    np.testing.assert_allclose(project_simplex([0.6, 0.3, 0.1]), [0.6, 0.3, 0.1])  # already inside
    np.testing.assert_allclose(project_simplex([1.0, 0.5, -2.0]), [0.75, 0.25, 0.0])
    q, s = project_simplex([5.0, 0.0], return_support=True)
    assert q.tolist() == [1.0, 0.0] and s.tolist() == [True, False]
    with pytest.raises(ValueError, match="1-D"):
        project_simplex([[0.0, 1.0]])
    with pytest.raises(ValueError, match="NaN"):
        project_simplex([0.0, np.nan])


def test_multiclass_hinge_cases_and_upper_bound(rng):
    # y in the support: loss = 1 - q_y exactly
    psi = np.array([0.3, 0.2, -1.0])
    q = project_simplex(psi)
    loss, g = multiclass_hinge(psi, 1)
    assert loss == pytest.approx(1 - q[1])
    np.testing.assert_allclose(g, [0.5, -0.5, 0.0])
    # y outside the support: c (1 + psi_j - psi_y), c = |S|/(|S|+1)
    loss, g = multiclass_hinge(psi, 2)
    assert q[2] == 0
    assert loss == pytest.approx(2 / 3 * (1 + 0.3 + 1.0))
    np.testing.assert_allclose(g, [2 / 3, 0.0, -2 / 3])
    for _ in range(300):
        K = int(rng.integers(2, 8))
        psi = rng.normal(0, rng.choice([0.1, 1.0, 5.0]), K)
        y = int(rng.integers(K))
        q = project_simplex(psi)
        loss, g = multiclass_hinge(psi, y, q)
        ref_loss, ref_g = reference_multiclass_hinge(psi, y, q)
        assert loss == pytest.approx(ref_loss, abs=1e-12)
        np.testing.assert_allclose(g, ref_g, atol=1e-12)
        assert loss >= 1 - q[y] - 1e-12  # surrogate bounds the expected 0-1 loss of q
        assert abs(g.sum()) < 1e-12
    with pytest.raises(ValueError, match="label"):
        multiclass_hinge([0.0, 1.0], 2)


# --------------------------------------------------------------------------- kernel and push


def test_ppr_identity_and_push_converge(rng):
    n = 40
    S = random_connected_graph(rng, n, p=0.12)
    beta = 0.2 * n
    K = relaxation_kernel(S, beta)
    A = S.toarray()
    d = A.sum(1)
    alpha = beta / (n + beta)
    Pi = alpha * np.linalg.inv(np.eye(n) - (1 - alpha) * A / d[None, :])  # columns: PPR vectors
    np.testing.assert_allclose(Pi.sum(0), 1.0, atol=1e-10)
    np.testing.assert_allclose(K, 2 * n * np.diag(d**-0.5) @ Pi @ np.diag(d**0.5), rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(K, ReferenceRelaxation(S, beta=beta).K, rtol=1e-9, atol=1e-9)
    assert relaxation_kernel_trace(S, beta) == pytest.approx(np.trace(K), rel=1e-10)
    assert np.trace(K) <= 2 * n * n  # the "bound" tau0
    for u in (0, 7, 23):
        errs = []
        for eps in (1e-2, 1e-4, 1e-7):
            nodes, x = ppr_push(S, u, alpha, eps)
            full = np.zeros(n)
            full[nodes] = x
            assert np.all(full <= Pi[:, u] + 1e-12)  # push under-estimates
            l1 = np.abs(Pi[:, u] - full).sum()
            assert l1 < eps * d.sum()  # ‖Π e_u − x‖₁ < ε vol
            errs.append(l1)
        assert errs[0] > errs[1] > errs[2]
        nodes, col = push_kernel_column(S, u, beta, 1e-9)
        full = np.zeros(n)
        full[nodes] = col
        np.testing.assert_allclose(full, K[:, u], rtol=1e-6, atol=1e-6 * K[u, u])


def _reweighted(S, rng):
    """``S`` with symmetric weights in [0.5, 2]: a graph whose push reads the weights."""
    W = S.copy()
    W.data = rng.uniform(0.5, 2.0, W.nnz)
    return ((W + W.T) / 2).tocsr()


def test_push_backends_identical(rng):
    pytest.importorskip("numba")
    S = random_connected_graph(rng, 80, p=0.05)
    for graph in (S, _reweighted(S, rng)):
        py, nb = Pusher(graph, backend="python"), Pusher(graph, backend="numba")
        # the warm-up call left no trace
        assert not nb._residual_threshold[:, 0].any() and not nb._estimate_degree[:, 0].any()
        assert not nb._node_state.any()
        for s, alpha, eps in [(0, 0.1, 1e-4), (5, 0.5, 1e-2), (79, 0.02, 1e-6), (0, 0.1, 1e-4)]:
            n1, x1 = py(s, alpha, eps)
            n2, x2 = nb(s, alpha, eps)  # scratch space reused: repeated calls stay identical
            np.testing.assert_array_equal(n1, n2)
            np.testing.assert_array_equal(x1, x2)
        assert not nb._residual_threshold[:, 0].any() and not nb._estimate_degree[:, 0].any()
        assert not nb._node_state.any()
    n = 80
    y = smooth_labels(S, rng, 3)
    t1 = run(Relaxation(S, beta=8.0, kernel="push", push_backend="python"), node_ids(n), y, seed=2)
    t2 = run(Relaxation(S, beta=8.0, kernel="push", push_backend="numba"), node_ids(n), y, seed=2)
    np.testing.assert_array_equal(t1.predictions, t2.predictions)  # numba: the compiled pass (below)
    np.testing.assert_allclose(t1.scores, t2.scores, rtol=1e-12, atol=1e-15)


def test_push_lookahead_changes_no_number(rng, monkeypatch):
    """The prefetch hints of the compiled push (on from 2^18 nodes) leave every push and every round bit-identical."""
    pytest.importorskip("numba")
    from graphsel_lib.online import push as push_module

    S = random_connected_graph(rng, 120, p=0.05)
    for graph in (S, _reweighted(S, rng)):
        off, on = Pusher(graph, lookahead=False), Pusher(graph, lookahead=True)
        assert not off.lookahead and on.lookahead
        assert not Pusher(graph).lookahead  # auto: 120 nodes < 2^18
        for s, alpha, eps in [(0, 0.1, 1e-4), (7, 0.5, 1e-2), (119, 0.02, 1e-6)]:
            n1, x1 = off(s, alpha, eps)
            n2, x2 = on(s, alpha, eps)
            np.testing.assert_array_equal(n1, n2)
            np.testing.assert_array_equal(x1, x2)
    with pytest.raises(ValueError, match="lookahead"):
        Pusher(S, lookahead="yes")
    y = smooth_labels(S, rng, 3)
    t1 = run(Relaxation(S, beta=12.0, kernel="push"), node_ids(120), y, seed=3)
    monkeypatch.setattr(push_module, "LOOKAHEAD_NODES", 1)  # "auto" now turns it on
    learner = Relaxation(S, beta=12.0, kernel="push")
    assert learner._pusher.lookahead
    t2 = run(learner, node_ids(120), y, seed=3)
    np.testing.assert_array_equal(t1.predictions, t2.predictions)
    np.testing.assert_array_equal(t1.scores, t2.scores)


def test_prefetch_is_only_a_hint():
    """``prefetch`` compiles for 1-d and 2-d arrays of any dtype and changes nothing."""
    numba = pytest.importorskip("numba")
    from graphsel_lib.online._prefetch import prefetch

    @numba.njit
    def total(a, b):
        s = 0.0
        for i in range(a.shape[0]):
            prefetch(a, (i + 3) % a.shape[0])
            prefetch(b, i)
            s += a[i] + b[i, 1]
        return s

    a, b = np.arange(10.0), np.arange(20, dtype=np.int32).reshape(10, 2)
    assert total(a, b) == a.sum() + b[:, 1].sum()


def test_push_from_a_hub_pushes_the_source_first(rng):
    """A source with ε d_s > 1 is pushed anyway: x_s ≥ α, not the zero vector (and K_ss > 0)."""
    n = 60
    S = sp.lil_matrix((n, n))
    S[0, 1:] = 1.0  # star: the hub has degree 59
    S[1:, 0] = 1.0
    S = S.tocsr()
    for backend in ("python", "numba"):
        nodes, x = Pusher(S, backend=backend)(0, 0.2, 0.05)  # ε d_0 = 2.95 > 1 = r_0
        assert nodes.tolist() == [0] and x[0] == pytest.approx(0.2)
    learner = Relaxation(S, beta=5.0, kernel="push", eps=0.05)
    learner.reset(1, 2, np.random.default_rng(0))
    kuu = learner.predict(np.array([0.0]))[1]["kuu"]
    assert kuu == pytest.approx(2 * n * learner.alpha)  # 2n x_0 with x_0 = α


def _per_round(learner):
    """``learner`` with its compiled pass switched off: ``run`` plays it round by round in Python."""
    learner.compiled_pass = lambda *args, **kwargs: None
    return learner


@pytest.mark.parametrize("rule", ["every", "margin", "random"])
def test_compiled_pass_equals_the_rounds_in_python(rng, rule, monkeypatch):
    """Same predictions, queries, coins, records and state; scores and v to the last bits (v's sum order)."""
    pytest.importorskip("numba")
    from graphsel_lib.online import MarginSampling, RandomQueries, relaxation_loop

    calls = []
    compiled = relaxation_loop.relaxation_rounds
    monkeypatch.setattr(relaxation_loop, "relaxation_rounds", lambda *a: calls.append(a[4:6]) or compiled(*a))

    n = 150
    S = random_connected_graph(rng, n, p=0.04)
    S = S.multiply(sp.triu(rng.uniform(0.5, 2.0, (n, n)), 1)).tocsr()  # weighted: the push reads S_ij
    S = (S + S.T).tocsr()
    y = smooth_labels(S, rng, 4)

    def make():
        base = Relaxation(S, beta=0.1 * n, kernel="push", eps=1e-5)
        return {
            "every": base,
            "margin": MarginSampling(base, b=0.05, seed=1),
            "random": RandomQueries(base, p=0.4),
        }[rule]

    keys = ("psi", "v", "kuu", "node", "support") + {
        "every": ("loss",),
        "margin": ("margin", "prob"),
        "random": (),
    }[rule]
    fast, slow = make(), _per_round(make())
    a = run(fast, node_ids(n), y, seed=4, record=keys)
    assert calls and calls[-1][1] == n  # the fast pass ran compiled, to the last round
    del calls[:]
    b = run(slow, node_ids(n), y, seed=4, record=keys)
    assert not calls
    np.testing.assert_array_equal(a.predictions, b.predictions)
    np.testing.assert_array_equal(a.queried, b.queried)
    assert 0 < a.n_queried <= n and (rule == "every") == (a.n_queried == n)
    np.testing.assert_allclose(a.scores, b.scores, rtol=1e-12, atol=1e-15)
    for k in keys:
        np.testing.assert_allclose(a.records[k], b.records[k], rtol=1e-11, atol=1e-14, err_msg=k)
    inner_a, inner_b = getattr(fast, "learner", fast), getattr(slow, "learner", slow)
    np.testing.assert_allclose(inner_a.G, inner_b.G, atol=1e-14)
    assert inner_a.a == pytest.approx(inner_b.a, rel=1e-12) and inner_a.tau == pytest.approx(
        inner_b.tau, rel=1e-12
    )
    np.testing.assert_array_equal(inner_a._seen, inner_b._seen)
    if rule != "every":  # the coin's generator advanced alike
        assert fast.rng.random() == slow.rng.random()


def test_compiled_pass_declines_what_it_cannot_play(rng):
    pytest.importorskip("numba")
    n = 40
    S = random_connected_graph(rng, n, p=0.1)
    y = smooth_labels(S, rng, 3)
    learner = Relaxation(S, beta=4.0, kernel="push")
    learner.reset(1, 3, np.random.default_rng(0))
    X, order = node_ids(n).T, np.arange(n)
    assert learner.pass_releases_gil
    assert learner.compiled_pass(X, order, y, ("loss", "margin")) is None  # no margin without the rule
    assert learner.compiled_pass(X + 1, order, y, ()) is None  # not node ids: run's Python path raises
    python = Relaxation(S, beta=4.0, kernel="push", push_backend="python")
    python.reset(1, 3, np.random.default_rng(0))
    assert not python.pass_releases_gil and python.compiled_pass(X, order, y, ()) is None
    exact = Relaxation(S, beta=4.0)
    exact.reset(1, 3, np.random.default_rng(0))
    assert exact.compiled_pass(X, order, y, ()) is None


# --------------------------------------------------------------------------- learner vs twin


@pytest.mark.parametrize(
    "n, C, beta_frac, tau0", [(30, 3, 0.1, "trace"), (45, 4, 0.5, "trace"), (35, 2, 0.05, "bound")]
)
def test_exact_equals_naive_twin_round_by_round(rng, n, C, beta_frac, tau0):
    S = random_connected_graph(rng, n, p=0.1)
    y = smooth_labels(S, rng, C)
    beta = beta_frac * n
    fast = run(Relaxation(S, beta=beta, tau0=tau0), node_ids(n), y, seed=3, record=("psi", "loss"))
    slow = run(ReferenceRelaxation(S, beta=beta, tau0=tau0), node_ids(n), y, seed=3, record=("psi", "loss"))
    np.testing.assert_array_equal(fast.predictions, slow.predictions)
    np.testing.assert_allclose(fast.scores, slow.scores, atol=1e-9)
    np.testing.assert_allclose(fast.records["psi"], slow.records["psi"], rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(fast.records["loss"], slow.records["loss"], rtol=1e-8, atol=1e-12)
    assert fast.n_queried == n  # fully supervised
    assert fast.error_rate < 1 - 1 / C  # learns something on a smooth labelling


def test_push_with_tiny_eps_matches_exact(rng):
    n = 60
    S = random_connected_graph(rng, n, p=0.08)
    y = smooth_labels(S, rng, 3)
    exact = run(Relaxation(S, beta=0.2 * n), node_ids(n), y, seed=1)
    push = run(Relaxation(S, beta=0.2 * n, kernel="push", eps=1e-10, tau0="trace"), node_ids(n), y, seed=1)
    np.testing.assert_array_equal(push.predictions, exact.predictions)
    np.testing.assert_allclose(push.scores, exact.scores, atol=1e-6)
    # default tau0 for push is the 2n² bound; a numeric tau0 is accepted as is
    L = Relaxation(S, beta=0.2 * n, kernel="push")
    assert L.tau0 == "bound" and L.tau0_value == 2.0 * n * n
    assert Relaxation(S, beta=1.0, tau0=123.0).tau0_value == 123.0


def test_disconnected_graph_is_fine_and_push_is_local(rng):
    # two components: K stays SPD (I/(2n) term); a push never leaves the source's component
    A = sp.block_diag([random_connected_graph(rng, 12), random_connected_graph(rng, 9)]).tocsr()
    L = Relaxation(A, beta=5.0, kernel="push", eps=1e-8)
    nodes, _ = L.kernel_column(3)
    assert nodes.max() < 12
    y = rng.integers(0, 3, 21)
    t1 = run(Relaxation(A, beta=5.0), node_ids(21), y, seed=0)
    t2 = run(L, node_ids(21), y, seed=0)
    np.testing.assert_array_equal(t1.predictions, t2.predictions)


def test_same_seed_same_trace_and_reuse(rng):
    n = 40
    S = random_connected_graph(rng, n)
    y = smooth_labels(S, rng, 3)
    L = Relaxation(S, beta=4.0, kernel="push", eps=1e-5)
    t1 = run(L, node_ids(n), y, seed=7)
    t2 = run(L, node_ids(n), y, seed=7)  # reset: the same object runs again
    np.testing.assert_array_equal(t1.predictions, t2.predictions)
    np.testing.assert_array_equal(t1.scores, t2.scores)
    t3 = run(L, node_ids(n), y, seed=8)
    assert not np.array_equal(t1.order, t3.order)


# --------------------------------------------------------------------------- bad inputs


def test_bad_inputs_raise(rng):
    S = random_connected_graph(rng, 10)
    for beta in (0, -1.0, np.inf, np.nan):
        with pytest.raises(ValueError, match="beta"):
            Relaxation(S, beta=beta)
    with pytest.raises(TypeError, match="beta"):
        Relaxation(S, beta="big")
    with pytest.raises(ValueError, match="kernel"):
        Relaxation(S, beta=1.0, kernel="ppr")
    with pytest.raises(ValueError, match="eps"):
        Relaxation(S, beta=1.0, kernel="push", eps=0)
    with pytest.raises(ValueError, match="backend"):
        Relaxation(S, beta=1.0, kernel="push", push_backend="cuda")
    with pytest.raises(ValueError, match="tau0"):
        Relaxation(S, beta=1.0, tau0="huge")
    with pytest.raises(ValueError, match="tau0|beta|positive"):
        Relaxation(S, beta=1.0, tau0=-5.0)
    iso = sp.block_diag([S, sp.csr_matrix((1, 1))]).tocsr()
    with pytest.raises(ValueError, match="isolated"):
        Relaxation(iso, beta=1.0)
    with pytest.raises(ValueError, match="symmetric"):
        Relaxation(sp.triu(S).tocsr(), beta=1.0)
    with pytest.raises(ValueError, match="max_nodes"):
        Relaxation(S, beta=1.0, max_dense_nodes=5)
    y = rng.integers(0, 2, 10)
    with pytest.raises(ValueError, match="node_ids"):
        run(Relaxation(S, beta=1.0), np.ones((3, 10)), y)  # d != 1
    with pytest.raises(ValueError, match="node id"):
        run(Relaxation(S, beta=1.0), node_ids(10) + 0.5, y)
    with pytest.raises(ValueError, match="node id"):
        run(Relaxation(S, beta=1.0), node_ids(10) + 1, y)  # id 10 out of range
    with pytest.raises(ValueError, match="twice"):
        run(Relaxation(S, beta=1.0), np.zeros((1, 10)), y)
    with pytest.raises(ValueError, match="positive"):
        node_ids(0)


def test_numba_backend_without_numba_raises(rng, monkeypatch):
    import graphsel_lib.online.push as rel

    monkeypatch.setattr(rel, "_numba_available", lambda: False)
    S = random_connected_graph(rng, 10)
    with pytest.raises(ValueError, match="numba"):
        rel.Pusher(S, backend="numba")
    assert rel.Pusher(S, backend="auto").backend == "python"


def test_tau0_errors_name_tau0_and_come_first(rng, monkeypatch):
    """``Relaxation(tau0=-1)`` used to compute the kernel, then say "beta must be ..."."""
    import graphsel_lib.online.relaxation as rel

    S = random_connected_graph(rng, 10)

    def boom(*args, **kwargs):
        raise AssertionError("the kernel was computed before tau0 was checked")

    monkeypatch.setattr(rel, "relaxation_kernel", boom)
    for bad in (-1, 0.0, np.nan):
        with pytest.raises(ValueError, match="tau0 must be a positive finite number"):
            Relaxation(S, beta=1.0, tau0=bad)
    with pytest.raises(TypeError, match="tau0 must be a positive number"):
        Relaxation(S, beta=1.0, tau0=True)
    with pytest.raises(TypeError, match="max_dense_nodes must be an integer"):
        Relaxation(S, beta=1.0, max_dense_nodes=10.5)


def test_a_pusher_of_a_checked_graph_pushes_as_a_fresh_one():
    """The relaxation learner validates its graph once: its pusher, built from the checked matrix, gives the same vectors."""
    from graphsel_lib.online.push import _check_graph

    S = random_connected_graph(np.random.default_rng(3), 40)
    a, b = Pusher(S), Pusher.of_checked(*_check_graph(S))
    for s in (0, 7, 39):
        (na, xa), (nb, xb) = a(s, 0.1, 1e-4), b(s, 0.1, 1e-4)
        np.testing.assert_array_equal(na, nb)
        np.testing.assert_array_equal(xa, xb)
