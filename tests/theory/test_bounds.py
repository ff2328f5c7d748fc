"""Herbster–Pontil bounds: K_tt ≤ min(1/λ2, ρ_t), mistake bound, resistance."""

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

import graphsel_lib as gs
from conftest import dense_embedding, random_connected_graph, smooth_labels


def _unweighted(rng, n):
    return random_connected_graph(rng, n, p=float(rng.uniform(0.01, 0.3)), weighted=False)


def test_eccentricity_matches_networkx(random_graphs):
    for S in random_graphs:
        G = nx.from_scipy_sparse_array(S)
        ref = nx.eccentricity(G)
        np.testing.assert_array_equal(gs.graph.eccentricity(S), [ref[i] for i in range(S.shape[0])])
        # resistance lengths = Dijkstra with length 1/w
        for *_, a in G.edges(data=True):
            a["len"] = 1.0 / a["weight"]
        ref_w = nx.eccentricity(G, weight="len")
        np.testing.assert_allclose(
            gs.graph.eccentricity(S, lengths="resistance", chunk=7),
            [ref_w[i] for i in range(S.shape[0])],
            rtol=1e-12,
        )


def test_algebraic_connectivity_matches_networkx(random_graphs):
    for S in random_graphs:
        ref = nx.algebraic_connectivity(nx.from_scipy_sparse_array(S), method="tracemin_lu", tol=1e-12)
        assert gs.theory.algebraic_connectivity(S) == pytest.approx(ref, rel=1e-6)


def test_kernel_diagonal_bound_holds_on_many_graphs():
    rng = np.random.default_rng(11)
    for _ in range(100):
        S = _unweighted(rng, int(rng.integers(3, 50)))
        K = gs.graph.kernel_diagonal(S)
        np.testing.assert_allclose(K, np.diag(np.linalg.pinv(gs.laplacian(S).toarray())), atol=1e-8)
        lam2 = np.linalg.eigvalsh(gs.laplacian(S).toarray())[1]
        ecc = nx.eccentricity(nx.from_scipy_sparse_array(S))
        ref = np.minimum(1 / lam2, [ecc[i] for i in range(S.shape[0])])
        bound = gs.theory.kernel_diagonal_bound(S)
        np.testing.assert_allclose(bound, ref, rtol=1e-8)
        assert np.all(K <= bound + 1e-10)


def test_kernel_diagonal_bound_weighted_resistance_lengths(random_graphs):
    for S in random_graphs:
        K = gs.graph.kernel_diagonal(S)
        assert np.all(K <= gs.theory.kernel_diagonal_bound(S, lengths="resistance") + 1e-10)


def test_kernel_diagonal_bound_rejects_weighted_hops():
    S = random_connected_graph(np.random.default_rng(0), 10, weighted=True)
    with pytest.raises(ValueError, match="unweighted"):
        gs.theory.kernel_diagonal_bound(S)


def test_effective_resistance_matches_networkx(random_graphs):
    for S in random_graphs[:8]:
        G = nx.from_scipy_sparse_array(S)
        n = S.shape[0]
        R = gs.graph.effective_resistance(S)
        pairs = np.array([[0, n - 1], [1, 2], [n - 1, 0], [3, 3]])
        Rp = gs.graph.effective_resistance(S, pairs)
        for k, (i, j) in enumerate(pairs):
            ref = (
                0.0
                if i == j
                else nx.resistance_distance(G, int(i), int(j), weight="weight", invert_weight=False)
            )
            assert R[i, j] == pytest.approx(ref, abs=1e-8)
            assert Rp[k] == pytest.approx(ref, abs=1e-8)
        # K_tt ≤ max_q r(t, q) (slides, "further improvement")
        assert np.all(gs.graph.kernel_diagonal(S) <= R.max(axis=1) + 1e-10)


def test_perceptron_mistake_bound_value():
    S = sp.csr_matrix(nx.to_scipy_sparse_array(nx.path_graph(6)))
    y = np.array([1, 1, 1, -1, -1, -1])
    K = np.linalg.pinv(gs.laplacian(S).toarray())
    assert gs.theory.perceptron_mistake_bound(S, y) == pytest.approx(4 * 1 * np.diag(K).max())
    with pytest.raises(ValueError, match=r"\{-1, \+1\}"):
        gs.theory.perceptron_mistake_bound(S, np.array([0, 1, 1, 1, 1, 1]))
    with pytest.raises(ValueError, match="shape"):
        gs.theory.perceptron_mistake_bound(S, y[:3])


# --------------------------------------------------------------------------- online bounds (gu2013, yang2016)
def _binary_problem(seed, n=40, d=8, bias=True):
    """A random graph, its rank-d features (with the bias row) and smooth ±1 labels."""
    rng = np.random.default_rng(seed)
    S = random_connected_graph(rng, n, p=0.15, weighted=seed % 2 == 0)
    M = dense_embedding(S, d)
    y = np.where(smooth_labels(M, rng, 2) == 1, 1, -1)
    X = np.asfortranarray(gs.add_bias(M, 1.0) if bias else M)
    return S, M, X, y, rng


def _naive_ollgc_terms(X, trace, mu):
    """e_t and v_t on the mistakes, from a fresh solve of A w = b in every mistaken round."""
    d = X.shape[0]
    A, b, e, v = mu * np.eye(d), np.zeros(d), [], []
    for t in np.flatnonzero(trace.mistakes):
        m, yt = X[:, trace.order[t]], trace.labels[t]
        e.append(yt - np.linalg.solve(A, b) @ m)
        v.append(m @ np.linalg.solve(A, m))
        A += np.outer(m, m)
        b += yt * m
    return np.array(e), np.array(v)


def _ridge_min(Xs, ys, mu):
    """min_u mu/2 ||u||² + ½ ||Xsᵀu − ys||², as a least-squares problem on the stacked system."""
    d = Xs.shape[0]
    lhs = np.vstack([Xs.T, np.sqrt(mu) * np.eye(d)])
    rhs = np.concatenate([ys, np.zeros(d)])
    u = np.linalg.lstsq(lhs, rhs, rcond=None)[0]
    return 0.5 * np.sum((lhs @ u - rhs) ** 2)


def test_ollgc_bounds_by_hand():
    # d = 1, m = (1, 1), y = (-1, -1): round 1 predicts sign(0) = +1 (a mistake), round 2 is right
    X, y, mu = np.array([[1.0, 1.0]]), np.array([-1, -1]), 1.0
    tr = gs.online.run(gs.online.OLLGC(mu=mu), X, y, order=[0, 1])
    assert tr.mistakes.tolist() == [True, False]
    res = gs.theory.ollgc_bounds(X, tr, mu=mu, u=np.array([-1.0]))
    assert res.n_mistakes == 1 and res.n_rounds == 2
    assert res.e.tolist() == [-1.0] and res.v.tolist() == [1.0] and res.r.tolist() == [0.5]
    assert res.J_star == pytest.approx(0.25) and res.lemma_lhs == pytest.approx(0.25)  # µ/(2(µ+1))
    assert res.J_all == pytest.approx(1 / 3)  # µ/(µ+2)
    assert res.logdet == pytest.approx(np.log(2)) and res.d_log == pytest.approx(np.log(2))
    assert res.B == 1.0 and res.gamma == 1.0 and res.half_norm == 0.5
    assert res.regret == pytest.approx(0.5) and res.thm4_data == pytest.approx(0.75)
    assert res.thm4 == pytest.approx(0.5 + 0.5 * np.log(2))
    assert res.cor5_data == pytest.approx(1.0)  # tight: one mistake
    assert res.cor5 == pytest.approx(2 / 3 + np.log(2))
    # all T rounds: the learner's scores 0 and -1/2 against u's -1 and -1
    assert res.regret_all == pytest.approx(0.5 + 0.125)


@pytest.mark.parametrize("seed", range(6))
def test_ollgc_bounds_match_naive_and_bound_the_run(seed):
    S, M, X, y, rng = _binary_problem(seed, bias=seed % 3 != 0)
    mu = float(rng.choice([0.1, 1.0, 5.0]))
    tr = gs.online.run(gs.online.OLLGC(mu=mu), X, y, seed=seed)
    u = M @ (gs.laplacian(S) @ y)
    if X.shape[0] > M.shape[0]:
        u = np.append(u, y.mean())
    res = gs.theory.ollgc_bounds(X, tr, mu=mu, u=u)
    e, v = _naive_ollgc_terms(X, tr, mu)
    np.testing.assert_allclose(res.e, e, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(res.v, v, rtol=1e-9)
    idx = np.flatnonzero(tr.mistakes)
    Xm = X[:, tr.order[idx]]
    assert res.J_star == pytest.approx(_ridge_min(Xm, tr.labels[idx].astype(float), mu), rel=1e-9)
    assert res.J_all == pytest.approx(_ridge_min(X, y.astype(float), mu), rel=1e-9)
    d = X.shape[0]
    logdet = np.linalg.slogdet(mu * np.eye(d) + Xm @ Xm.T)[1] - d * np.log(mu)
    for value in (res.logdet, res.logdet_state, res.sum_log1p_v):
        assert value == pytest.approx(logdet, rel=1e-9)
    assert res.lemma_lhs == pytest.approx(res.J_star, rel=1e-9)
    # the bounds hold on the run (Thm 4 on M, Cor. 5)
    assert res.regret <= res.thm4_data + 1e-9 <= res.thm4 + 2e-9
    assert tr.n_mistakes <= res.cor5_data + 1e-9 <= res.cor5 + 2e-9 <= res.cor5_d + 3e-9
    assert res.half_norm <= 2 * mu * gs.cut_size(S, y) + 0.5 * mu * y.mean() ** 2 + 1e-9


def test_ollgc_bounds_on_part_of_a_pass():
    S, M, X, y, _ = _binary_problem(7)
    full = gs.online.run(gs.online.OLLGC(mu=1.0), X, y, seed=3)
    part = gs.online.run(gs.online.OLLGC(mu=1.0), X, y, seed=3, rounds=25)
    res = gs.theory.ollgc_bounds(X, part, mu=1.0, u=np.zeros(X.shape[0]))
    shown = np.sort(full.order[:25])
    assert res.n_rounds == 25 and res.J_all == pytest.approx(
        _ridge_min(X[:, shown], y[shown].astype(float), 1.0)
    )
    assert res.n_mistakes <= res.cor5_data + 1e-9 <= res.cor5 + 2e-9


def test_ollgc_bounds_bad_input():
    S, M, X, y, _ = _binary_problem(1)
    tr = gs.online.run(gs.online.OLLGC(mu=1.0), X, y, seed=0)
    u = np.zeros(X.shape[0])
    with pytest.raises(ValueError, match="not a run of OLLGC"):
        gs.theory.ollgc_bounds(X, tr, mu=10.0, u=u)
    with pytest.raises(ValueError, match="shape"):
        gs.theory.ollgc_bounds(X, tr, mu=1.0, u=u[:-1])
    with pytest.raises(ValueError, match="columns"):
        gs.theory.ollgc_bounds(X[:, :5], tr, mu=1.0, u=u)
    with pytest.raises(ValueError, match="positive"):
        gs.theory.ollgc_bounds(X, tr, mu=0.0, u=u)
    with pytest.raises(TypeError, match="mu"):
        gs.theory.ollgc_bounds(X, tr, mu=True, u=u)
    with pytest.raises(TypeError, match="Trace"):
        gs.theory.ollgc_bounds(X, {"mistakes": tr.mistakes}, mu=1.0, u=u)
    with pytest.raises(TypeError):
        gs.theory.ollgc_bounds(X, tr, 1.0, u)  # hyper-parameters are keyword-only
    multi = gs.online.run(gs.online.CMOG(gamma=1.0), X, (y > 0).astype(int), seed=0)
    with pytest.raises(ValueError, match="binary"):
        gs.theory.ollgc_bounds(X, multi, mu=1.0, u=u)


def test_sslgc_bias_variance_against_the_label_model():
    rng = np.random.default_rng(5)
    d, n_s, mu = 6, 30, 0.7
    X = rng.standard_normal((d, 50))
    S = X[:, :n_s]
    A = mu * np.eye(d) + S @ S.T
    u = rng.standard_normal(d)
    u /= np.abs(u @ X).max()  # |Δ_t| ≤ 1: a valid label model
    Delta = u @ X
    res = gs.theory.sslgc_bias_variance(A, X, mu=mu, u=u, nodes=np.arange(n_s, 50))
    for j, t in enumerate(range(n_s, 50)):
        m = X[:, t]
        c = S.T @ np.linalg.inv(A + np.outer(m, m)) @ m  # Δ̂_t = c · Y_S
        np.testing.assert_allclose(res.coef[j], np.linalg.inv(A + np.outer(m, m)) @ m, rtol=1e-10)
        assert c @ Delta[:n_s] == pytest.approx(Delta[t] - res.bias[j], abs=1e-10)  # E[Δ̂] = Δ − B_t
        assert np.sum(c**2 * (1 - Delta[:n_s] ** 2)) <= res.r[j] + 1e-12  # Var ≤ r_t
        assert res.r[j] == pytest.approx(m @ np.linalg.inv(A + np.outer(m, m)) @ m)
    # d = 1 by hand: A_t = a + m², B_t = u (µ + m²) m / (a + m²), r_t = m² / (a + m²)
    one = gs.theory.sslgc_bias_variance(np.array([[3.0]]), np.array([[2.0]]), mu=1.0, u=np.array([0.5]))
    assert one.bias[0] == pytest.approx(0.5 * 5 * 2 / 7) and one.r[0] == pytest.approx(4 / 7)
    assert gs.theory.sslgc_bias_variance(A, X, mu=mu, u=u).r.shape == (50,)  # default: every column


def test_sslgc_bias_variance_bad_input():
    A, X, u = np.eye(3), np.ones((3, 4)), np.zeros(3)
    with pytest.raises(ValueError, match="square"):
        gs.theory.sslgc_bias_variance(np.ones((3, 2)), X, mu=1.0, u=u)
    with pytest.raises(ValueError, match="shape"):
        gs.theory.sslgc_bias_variance(A, np.ones((2, 4)), mu=1.0, u=u)
    with pytest.raises(ValueError, match="shape"):
        gs.theory.sslgc_bias_variance(A, X, mu=1.0, u=np.zeros(2))
    with pytest.raises(ValueError, match="0..3"):
        gs.theory.sslgc_bias_variance(A, X, mu=1.0, u=u, nodes=[4])
    with pytest.raises(ValueError, match="positive"):
        gs.theory.sslgc_bias_variance(A, X, mu=-1.0, u=u)
    with pytest.raises(ValueError, match="non-finite"):
        gs.theory.sslgc_bias_variance(A, np.full((3, 4), np.nan), mu=1.0, u=u)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("kappa", [0.2, 0.6, 1.0])
def test_sslgc_label_complexity_matches_a_recount(seed, kappa):
    S, M, X, y, rng = _binary_problem(seed, n=60)
    mu = 0.5
    tr = gs.online.run(gs.online.SSLGC(mu=mu, kappa=kappa), X, y, seed=seed, record=("r",))
    lc = gs.theory.sslgc_label_complexity(X, tr, mu=mu, kappa=kappa)
    T, d = X.shape[1], X.shape[0]
    Q, U = tr.queried, tr.queried & tr.mistakes
    r = tr.records["r"]
    assert (lc.n_rounds, lc.d, lc.n_queried, lc.n_updates) == (T, d, Q.sum(), U.sum())
    assert lc.n_queried_correct == lc.n_queried - lc.n_updates
    assert lc.sum_r_queried == pytest.approx(lc.sum_r_updates + lc.sum_r_correct)
    Xu = X[:, tr.order[U]]
    assert lc.logdet == pytest.approx(np.linalg.slogdet(mu * np.eye(d) + Xu @ Xu.T)[1] - d * np.log(mu))
    B = max(np.sum(X**2, axis=0))
    assert lc.B == pytest.approx(B)
    assert lc.paper_bound == pytest.approx(T**kappa * d * np.log(1 + Q.sum() / (mu * d)))
    assert lc.paper_holds == (Q.sum() <= lc.paper_bound)
    # the proven chain holds on the run
    assert lc.n_queried <= lc.step1 + 1e-9
    assert r[U].sum() <= lc.logdet + 1e-9 <= d * np.log1p(U.sum() * B / (mu * d)) + 2e-9
    assert lc.n_queried <= lc.bound + 1e-9


def test_sslgc_label_complexity_bad_input():
    S, M, X, y, _ = _binary_problem(2, n=60)
    tr = gs.online.run(gs.online.SSLGC(mu=1.0, kappa=0.5), X, y, seed=0, record=("r",))
    with pytest.raises(ValueError, match="query rule"):
        gs.theory.sslgc_label_complexity(X, tr, mu=1.0, kappa=0.1)
    bare = gs.online.run(gs.online.SSLGC(mu=1.0, kappa=0.5), X, y, seed=0)
    with pytest.raises(ValueError, match="record"):
        gs.theory.sslgc_label_complexity(X, bare, mu=1.0, kappa=0.5)
    v_conv = gs.online.run(
        gs.online.SSLGC(mu=0.01, kappa=0.5, include_current=False), X, y, seed=0, record=("r",)
    )
    with pytest.raises(ValueError, match=r"\[0, 1\)"):
        gs.theory.sslgc_label_complexity(X, v_conv, mu=0.01, kappa=0.5)
    with pytest.raises(ValueError, match="kappa"):
        gs.theory.sslgc_label_complexity(X, tr, mu=1.0, kappa=-0.5)


def test_sslgc_label_bound_against_brute_force():
    for T, d, mu, kappa in [
        (1000, 10, 1.0, 0.4),
        (2708, 101, 1.0, 0.2),
        (50, 3, 0.1, 1.0),
        (200, 20, 2.0, 0.6),
    ]:
        N = gs.theory.sslgc_label_bound(T, d, mu=mu, kappa=kappa)
        grid = np.arange(0, 10 * T * d)
        ok = grid <= T**kappa * d * np.log1p(grid / (mu * d))
        assert np.all(ok[: int(np.floor(N)) + 1]) and not np.any(ok[int(np.floor(N)) + 1 :])
        assert T**kappa * d * np.log1p(N / (mu * d)) == pytest.approx(N, rel=1e-10)
    # T^κ ≤ µ: only N = 0 satisfies the bound; the bound grows with κ
    assert gs.theory.sslgc_label_bound(100, 5, mu=10.0, kappa=0.5) == 0.0
    ks = [gs.theory.sslgc_label_bound(2708, 100, mu=1.0, kappa=k) for k in (0.1, 0.4, 0.7, 1.0)]
    assert np.all(np.diff(ks) > 0)
    with pytest.raises(ValueError, match="T"):
        gs.theory.sslgc_label_bound(0, 5, mu=1.0, kappa=0.5)
    with pytest.raises(TypeError, match="kappa"):
        gs.theory.sslgc_label_bound(10, 5, mu=1.0, kappa="0.5")
    with pytest.raises(TypeError):
        gs.theory.sslgc_label_bound(10, 5, 1.0, 0.5)


def _multiclass_problem(seed, n=45, d=8, K=3):
    rng = np.random.default_rng(seed)
    S = random_connected_graph(rng, n, p=0.12, weighted=False)
    M = np.asfortranarray(dense_embedding(S, d))
    return S, M, smooth_labels(M, rng, K), rng


def test_multiclass_margins_against_loops():
    rng = np.random.default_rng(3)
    U, X = rng.standard_normal((5, 4)), rng.standard_normal((5, 30))
    labels = rng.integers(0, 4, 30)
    got = gs.theory.multiclass_margins(U, X, labels)
    for t in range(30):
        s = U.T @ X[:, t]
        assert got[t] == pytest.approx(s[labels[t]] - max(s[j] for j in range(4) if j != labels[t]))
    with pytest.raises(ValueError, match="0..3"):
        gs.theory.multiclass_margins(U, X, np.full(30, 4))
    with pytest.raises(ValueError, match="shape"):
        gs.theory.multiclass_margins(U, X[:3], labels)


@pytest.mark.parametrize("seed", range(4))
def test_cmog_theorem1_terms_and_bound(seed):
    S, M, y, rng = _multiclass_problem(seed)
    gamma, K = 1.0, 3
    tr = gs.online.run(gs.online.CMOG(gamma=gamma), M, y, seed=seed, record=("v",))
    Y = np.eye(K)[y]
    comps = {
        "graph": M @ (gs.laplacian(S) @ Y),
        "ridge": np.linalg.solve(gamma * np.eye(M.shape[0]) + M @ M.T, M @ Y),
    }
    th = gs.theory.cmog_theorem1(M, tr, comps, gamma=gamma)
    m = tr.n_mistakes
    assert th.n_mistakes == m and th.n_rounds == M.shape[1]
    # Lemma 2 holds for the VAW scores only; summed it telescopes to Lemma 1's value
    assert th.lemma2_error < 1e-8 and th.lemma2_error_raw > 1e-6
    assert th.telescoped == pytest.approx(th.G_star - 2 * m, rel=1e-8, abs=1e-8)
    assert np.all(th.brace >= -1e-12)
    # G* brute force: min_W ||Xmᵀ W − Z||² + γ||W||² by least squares on the stacked system
    idx = np.flatnonzero(tr.mistakes)
    Xm = M[:, tr.order[idx]]
    Z = np.zeros((idx.size, K))
    for j, t in enumerate(idx):  # Definition 1 on a mistake: +1 at the truth, −1 at the prediction
        Z[j, tr.labels[t]], Z[j, tr.predictions[t]] = 1.0, -1.0
    lhs = np.vstack([Xm.T, np.sqrt(gamma) * np.eye(M.shape[0])])
    rhs = np.vstack([Z, np.zeros((M.shape[0], K))])
    W = np.linalg.lstsq(lhs, rhs, rcond=None)[0]
    assert th.G_star == pytest.approx(np.sum((lhs @ W - rhs) ** 2), rel=1e-8)
    v = tr.records["v"]
    assert th.sum_r == pytest.approx(np.sum(v[idx] / (1 + v[idx]))) and th.sum_r_all == pytest.approx(
        np.sum(v / (1 + v))
    )
    assert th.sum_r <= th.logdet + 1e-9 <= th.d_log + 2e-9
    assert th.logdet == pytest.approx(np.linalg.slogdet(np.eye(M.shape[0]) + Xm @ Xm.T / gamma)[1])
    for cb in th.comparators.values():
        # the theorem: mistakes ≤ our form ≤ the printed form, at every (c, h); h optimised in closed form
        assert m <= cb.ours.min() + 1e-9 and np.all(cb.ours <= cb.paper + 1e-9)
        assert m <= cb.ours_h.min() + 1e-9 and np.all(cb.ours_h <= cb.paper_h + 1e-9)
        assert np.all(cb.ours_h <= cb.ours.min(axis=1) + 1e-9)  # the closed-form h beats the grid
        assert cb.paper_bound == cb.paper_h.min()
        assert cb.n_negative_margins == np.sum(cb.margins_all < 0)


def test_cmog_theorem1_bad_input():
    S, M, y, _ = _multiclass_problem(1)
    U = {"zero": np.zeros((M.shape[0], 3))}
    tr = gs.online.run(gs.online.CMOG(gamma=1.0), M, y, seed=0, record=("v",))
    onehot = gs.online.run(gs.online.CMOG(gamma=1.0, targets="onehot"), M, y, seed=0, record=("v",))
    with pytest.raises(ValueError, match="Definition 1"):
        gs.theory.cmog_theorem1(M, onehot, U, gamma=1.0)
    with pytest.raises(ValueError, match="Definition 1"):
        gs.theory.cmog_theorem1(M, tr, U, gamma=3.0)
    with pytest.raises(ValueError, match="record"):
        gs.theory.cmog_theorem1(M, gs.online.run(gs.online.CMOG(gamma=1.0), M, y, seed=0), U, gamma=1.0)
    with pytest.raises(ValueError, match="shape"):
        gs.theory.cmog_theorem1(M, tr, {"bad": np.zeros((M.shape[0], 2))}, gamma=1.0)
    with pytest.raises(ValueError, match="positive"):
        gs.theory.cmog_theorem1(M, tr, U, gamma=1.0, c_grid=[0.0, 1.0])
    binary = gs.online.run(gs.online.OLLGC(mu=1.0), M, np.where(y == 0, 1, -1), seed=0)
    with pytest.raises(ValueError, match="multiclass"):
        gs.theory.cmog_theorem1(M, binary, U, gamma=1.0)


# --------------------------------------------------------------------------- the deprecated module
def test_bounds_module_names_the_new_home_of_every_name():
    """``graphsel_lib.bounds`` re-exports its 49 names from graph, theory and course, each read warning."""
    import importlib

    from graphsel_lib import bounds

    assert len(bounds.__all__) == 49
    for name in bounds.__all__:
        with pytest.warns(DeprecationWarning, match=f"moved to {bounds.MOVED[name]}"):
            obj = getattr(bounds, name)
        assert obj is getattr(importlib.import_module(bounds.MOVED[name]), name)
    assert gs.bounds is bounds
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        bounds.__getattr__("nope")
