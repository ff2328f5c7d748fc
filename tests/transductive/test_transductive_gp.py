"""Tests for gaertner2005 multiclass GP transduction (graphsel_lib.transductive.gp).

The naive twins live here: a dense L-BFGS solve of the objective written out
independently (no balance), a generic SLSQP solve of the q-step (paper Eq. 18)
in its m_test x K primal variables, and a generic SLSQP solve of the joint
problem over (t, q) with the balance constraints written literally (Eq. 12–14).
"""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import minimize
from scipy.special import logsumexp, softmax

import graphsel_lib as gs
from graphsel_lib.transductive._common import ConvergenceWarning
from graphsel_lib.transductive.gp import (
    GPFit,
    balance_bounds,
    balance_epsilon,
    gp_kernel_inverse,
    gp_objective,
    match_class_proportions,
    solve_balanced_q,
    transductive_gp,
    transductive_gp_fit,
)
from graphsel_lib.transductive.reference import balanced_q_slsqp

TIGHT = {"tol": 1e-10, "cg_iter": 500, "max_newton": 200}


def gp_and_fit(*args, **kwargs):
    """``(scores, GPFit)`` of one solve."""
    fit = transductive_gp_fit(*args, **kwargs)
    return fit.scores, fit


def _graph(n, seed, p=0.3):
    rng = np.random.default_rng(seed)
    A = np.triu((rng.random((n, n)) < p).astype(float) * rng.uniform(0.5, 2.0, (n, n)), 1)
    A[np.arange(n - 1), np.arange(1, n)] = 1.0  # a path keeps it connected
    return A + A.T


def _dense_kinv(A, kernel_eps):
    """Independent dense construction of L~ + eps I (paper Eq. 15-16)."""
    d = A.sum(1)
    return np.eye(len(A)) - A / np.sqrt(np.outer(d, d)) + kernel_eps * np.eye(len(A))


def _problem(seed=0, n=12, K=3, n_lab=5):
    rng = np.random.default_rng(seed)
    A = _graph(n, seed)
    y = rng.integers(0, K, n)
    lab = np.sort(rng.choice(n, n_lab, replace=False))
    y[lab[:K]] = np.arange(K)  # every class labelled
    return A, y, lab


# --------------------------------------------------------------------------- naive twins
def _dense_objective_no_balance(x, Kinv, y, lab, K, sigma2):
    t = x.reshape(-1, K)
    lse = logsumexp(t[lab], axis=1)
    Kt = Kinv @ t
    val = np.sum(lse - t[lab, y[lab]]) + 0.5 / sigma2 * np.sum(t * Kt)
    g = Kt / sigma2
    g[lab] += softmax(t[lab], axis=1)
    g[lab, y[lab]] -= 1
    return val, g.ravel()


def _lbfgs_no_balance(Kinv, y, lab, K, sigma2):
    n = Kinv.shape[0]
    res = minimize(
        _dense_objective_no_balance,
        np.zeros(n * K),
        args=(Kinv, y, lab, K, sigma2),
        jac=True,
        method="L-BFGS-B",
        options={"gtol": 1e-12, "ftol": 1e-15, "maxiter": 20000, "maxcor": 50},
    )
    return res.fun, res.x.reshape(n, K)


def _slsqp_q(T, rm, rp):
    """Generic solve of Eq. 18 in the u*K primal variables (the library's SLSQP twin), which must succeed."""
    q, success = balanced_q_slsqp(T, rm, rp)
    assert success
    return q


def _slsqp_joint(Kinv, y, lab, K, sigma2, rm, rp):
    """Generic constrained solve of min_{t,q} J(t, q) (Eq. 12 + 13 subject to 14)."""
    n = Kinv.shape[0]
    U = np.setdiff1d(np.arange(n), lab)
    u = U.size

    def J(x):
        t, q = x[: n * K].reshape(n, K), x[n * K :].reshape(u, K)
        lse = logsumexp(t, axis=1)
        Kt = Kinv @ t
        val = np.sum(lse[lab] - t[lab, y[lab]]) + 0.5 / sigma2 * np.sum(t * Kt)
        val += np.sum(lse[U]) - np.sum(q * t[U]) + np.sum(q * np.log(q))
        gt = Kt / sigma2 + softmax(t, axis=1)
        gt[lab, y[lab]] -= 1
        gt[U] -= q
        gq = np.log(q) + 1 - t[U]
        return val, np.concatenate([gt.ravel(), gq.ravel()])

    def qpart(x):
        return x[n * K :].reshape(u, K)

    cons = [
        {"type": "eq", "fun": lambda x: qpart(x).sum(1) - 1},
        {"type": "ineq", "fun": lambda x: qpart(x).mean(0) - rm},
        {"type": "ineq", "fun": lambda x: rp - qpart(x).mean(0)},
    ]
    q0 = np.tile((rm + rp) / np.sum(rm + rp), (u, 1))
    x0 = np.concatenate([np.zeros(n * K), q0.ravel()])
    bounds = [(None, None)] * (n * K) + [(1e-12, 1)] * (u * K)
    res = minimize(
        J,
        x0,
        jac=True,
        method="SLSQP",
        bounds=bounds,
        constraints=cons,
        options={"ftol": 1e-15, "maxiter": 5000},
    )
    assert res.success, res.message
    return res.fun, res.x[: n * K].reshape(n, K), qpart(res.x)


# --------------------------------------------------------------------------- derivatives
@pytest.mark.parametrize("balanced", [False, True])
def test_gradient_matches_finite_differences(balanced):
    A, y, lab = _problem(1)
    Kinv = gp_kernel_inverse(A, 0.1)
    K = 3
    bal = (np.array([0.3, 0.3, 0.2]), np.array([0.4, 0.35, 0.3])) if balanced else None
    T = np.random.default_rng(2).normal(scale=2.0, size=(A.shape[0], K))
    val, g, q = gp_objective(Kinv, y, lab, T, sigma2=2.0, balance=bal)
    if balanced:  # the point is one where constraints bind, else the check is the unbalanced one
        assert np.any(np.isclose(q.mean(0), bal[0]) | np.isclose(q.mean(0), bal[1]))
    h = 1e-6
    fd = np.zeros_like(T)
    for idx in np.ndindex(*T.shape):
        E = np.zeros_like(T)
        E[idx] = h
        fd[idx] = (
            gp_objective(Kinv, y, lab, T + E, sigma2=2.0, balance=bal)[0]
            - gp_objective(Kinv, y, lab, T - E, sigma2=2.0, balance=bal)[0]
        ) / (2 * h)
    np.testing.assert_allclose(g, fd, atol=1e-7)


def test_hessian_vector_product_matches_gradient_differences():
    from graphsel_lib.transductive.gp import _Objective

    A, y, lab = _problem(3)
    Kinv = gp_kernel_inverse(A, 0.1)
    rng = np.random.default_rng(4)
    T = rng.normal(scale=2.0, size=(A.shape[0], 3))
    obj = _Objective(Kinv, lab, y[lab], 3, 2.0, (np.array([0.3, 0.3, 0.2]), np.array([0.4, 0.35, 0.3])))
    st = obj.evaluate(T)
    assert np.any(st["active"])
    for _ in range(3):
        V = rng.normal(size=T.shape)
        h = 1e-6
        fd = (obj.evaluate(T + h * V)["grad"] - obj.evaluate(T - h * V)["grad"]) / (2 * h)
        np.testing.assert_allclose(obj.hessp(st, V), fd, atol=1e-7)


# --------------------------------------------------------------------------- the q step
def test_q_step_matches_generic_slsqp():
    rng = np.random.default_rng(5)
    T = rng.normal(scale=2.0, size=(9, 3))
    rm, rp = np.array([0.3, 0.3, 0.2]), np.array([0.4, 0.35, 0.3])
    q, gamma = solve_balanced_q(T, rm, rp)
    q_ref = _slsqp_q(T, rm, rp)
    np.testing.assert_allclose(q, q_ref, atol=2e-6)
    assert np.any(gamma != 0)
    # KKT: the sign of each dual variable says which bound is active
    s = q.mean(0)
    np.testing.assert_allclose(s[gamma > 0], rp[gamma > 0], atol=1e-12)
    np.testing.assert_allclose(s[gamma < 0], rm[gamma < 0], atol=1e-12)
    assert np.all((s >= rm - 1e-12) & (s <= rp + 1e-12))
    np.testing.assert_allclose(q.sum(1), 1.0, atol=1e-12)


def test_q_step_sign_convention_and_exact_matching():
    """Loose bounds: q = softmax(t) (the sign of Eq. 18 we use); equal bounds: exact matching."""
    rng = np.random.default_rng(6)
    T = rng.normal(size=(10, 4))
    q, gamma = solve_balanced_q(T, np.zeros(4), np.ones(4))
    np.testing.assert_allclose(q, softmax(T, axis=1), atol=1e-14)
    assert np.all(gamma == 0)
    r = np.array([0.1, 0.2, 0.3, 0.4])
    q, gamma = solve_balanced_q(T, r, r)
    np.testing.assert_allclose(q.mean(0), r, atol=1e-12)
    np.testing.assert_allclose(q, _slsqp_q(T, r, r), atol=2e-6)


# --------------------------------------------------------------------------- the full solve
def test_no_balance_matches_dense_lbfgs():
    A, y, lab = _problem(7)
    sigma2, keps = 3.0, 0.05
    F, info = gp_and_fit(A, y, lab, balance=False, sigma2=sigma2, kernel_eps=keps, **TIGHT)
    assert info.converged
    fun, t_ref = _lbfgs_no_balance(_dense_kinv(A, keps), y, lab, 3, sigma2)
    assert abs(info.objective[-1] - fun) < 1e-10 * max(1, abs(fun))
    np.testing.assert_allclose(info.t, t_ref, atol=1e-6)
    np.testing.assert_allclose(F, softmax(t_ref, axis=1), atol=1e-7)


def test_balanced_matches_generic_constrained_solve():
    A, y, lab = _problem(8, n=10, K=3, n_lab=4)
    y[lab] = [0, 1, 2, 0]
    sigma2, keps = 2.0, 0.1
    rm, rp = np.array([0.15, 0.3, 0.3]), np.array([0.3, 0.45, 0.5])
    F, info = gp_and_fit(A, y, lab, balance=(rm, rp), sigma2=sigma2, kernel_eps=keps, **TIGHT)
    assert info.converged
    # the constraint holds at the solution, and binds (else the test would not test it)
    s = info.q.mean(0)
    assert np.all((s >= rm - 1e-10) & (s <= rp + 1e-10))
    assert np.any(np.abs(info.gamma) > 1e-3)
    np.testing.assert_allclose(F[info.unlabelled], info.q)
    fun, t_ref, q_ref = _slsqp_joint(_dense_kinv(A, keps), y, lab, 3, sigma2, rm, rp)
    assert abs(info.objective[-1] - fun) < 1e-10
    np.testing.assert_allclose(info.t, t_ref, atol=1e-6)
    np.testing.assert_allclose(info.q, q_ref, atol=1e-6)


def _alternating(Kinv, y, lab, K, sigma2, rm, rp, rounds):
    """The paper's literal scheme: exact t-step with q fixed (dense Newton), then the q-step."""
    n = Kinv.shape[0]
    U = np.setdiff1d(np.arange(n), lab)
    mu = np.zeros((n, K))
    mu[lab, y[lab]] = 1
    t = np.zeros((n, K))
    for _ in range(rounds):
        mu[U] = solve_balanced_q(t[U], rm, rp)[0]
        for _ in range(30):
            P = softmax(t, axis=1)
            g = P - mu + Kinv @ t / sigma2
            if np.abs(g).max() < 1e-13:
                break
            H = np.kron(Kinv / sigma2, np.eye(K))
            for i in range(n):
                H[i * K : (i + 1) * K, i * K : (i + 1) * K] += np.diag(P[i]) - np.outer(P[i], P[i])
            t = t - np.linalg.solve(H, g.ravel()).reshape(n, K)
    return t


def test_balanced_matches_paper_alternating_scheme():
    A, y, lab = _problem(8, n=10, K=3, n_lab=4)
    rm, rp = np.array([0.15, 0.3, 0.3]), np.array([0.3, 0.45, 0.5])
    F, info = gp_and_fit(A, y, lab, balance=(rm, rp), sigma2=2.0, kernel_eps=0.1, **TIGHT)
    assert np.any(info.gamma != 0)
    t_alt = _alternating(_dense_kinv(A, 0.1), y, lab, 3, 2.0, rm, rp, rounds=120)
    np.testing.assert_allclose(info.t, t_alt, atol=1e-9)


def test_inactive_balance_equals_no_balance():
    A, y, lab = _problem(9)
    F0 = transductive_gp(A, y, lab, balance=False, **TIGHT)
    F1, info = gp_and_fit(A, y, lab, balance=(np.zeros(3), np.ones(3)), **TIGHT)
    np.testing.assert_allclose(F1, F0, atol=1e-9)
    assert np.all(info.gamma == 0)


def test_default_balance_uses_tail_bound():
    A, y, lab = _problem(10, n=30, n_lab=10)
    F, info = gp_and_fit(A, y, lab, **TIGHT)
    eps = balance_epsilon(10, 20, 3, 0.05)
    assert info.eps == pytest.approx(eps)
    rm, rp = balance_bounds(y[lab], 3, eps)
    np.testing.assert_allclose(info.r_minus, rm)
    with pytest.warns(DeprecationWarning, match=r"balance_epsilon\(\): the keyword n_labeled= is renamed"):
        assert balance_epsilon(n_labeled=10, n_unlabelled=20, n_classes=3, delta=0.05) == eps
    with pytest.warns(DeprecationWarning, match=r"the keyword n_unlabeled= is renamed n_unlabelled="):
        assert balance_epsilon(10, n_unlabeled=20, n_classes=3, delta=0.05) == eps
    with pytest.warns(DeprecationWarning, match=r"balance_bounds\(\): the keyword y_labeled= is renamed"):
        np.testing.assert_array_equal(balance_bounds(y_labeled=y[lab], n_classes=3, eps=eps)[0], rm)
    np.testing.assert_allclose(info.r_plus, rp)
    np.testing.assert_allclose(F.sum(1), 1.0)


def test_tail_bound_formula_and_coverage():
    # Hoeffding + union bound: eps = sqrt(log(2K/delta) n / (2 l u))
    assert balance_epsilon(100, 900, 2, 0.05) == pytest.approx(np.sqrt(np.log(80) * 1000 / (2 * 100 * 900)))
    # Monte Carlo: the deviation of labelled vs unlabelled class frequencies exceeds eps
    # for some class with probability <= delta
    rng = np.random.default_rng(11)
    l, u, K, delta = 30, 270, 3, 0.2
    eps = balance_epsilon(l, u, K, delta)
    p = np.array([0.5, 0.3, 0.2])
    fails = 0
    for _ in range(2000):
        a = np.bincount(rng.choice(K, l, p=p), minlength=K) / l
        b = np.bincount(rng.choice(K, u, p=p), minlength=K) / u
        fails += np.any(np.abs(a - b) > eps)
    assert fails / 2000 <= delta


# --------------------------------------------------------------------------- input handling
def test_sparse_dense_and_kinv_inputs_agree():
    A, y, lab = _problem(12)
    kw = {"sigma2": 2.0, "kernel_eps": 0.05, **TIGHT}
    F_dense = transductive_gp(A, y, lab, **kw)
    F_sparse = transductive_gp(sp.csr_matrix(A), y, lab, **kw)
    F_kinv = transductive_gp(gp_kernel_inverse(A, 0.05), y, lab, sigma2=2.0, **TIGHT)  # auto-detected
    F_kinv_dense = transductive_gp(_dense_kinv(A, 0.05), y, lab, sigma2=2.0, kind="kinv", **TIGHT)
    mask = np.zeros(len(y), bool)
    mask[lab] = True
    F_mask = transductive_gp(A, y, mask, **kw)
    for F in (F_sparse, F_kinv, F_kinv_dense, F_mask):
        np.testing.assert_allclose(F, F_dense, atol=1e-9)


def test_combinatorial_laplacian_option():
    A, y, lab = _problem(13)
    F = transductive_gp(A, y, lab, balance=False, laplacian="combinatorial", kernel_eps=0.05, **TIGHT)
    L = np.diag(A.sum(1)) - A + 0.05 * np.eye(len(A))
    G = transductive_gp(L, y, lab, balance=False, kind="kinv", **TIGHT)
    np.testing.assert_allclose(F, G, atol=1e-9)


def test_inputs_not_modified_and_deterministic():
    A, y, lab = _problem(14)
    S = sp.csr_matrix(A)
    copies = (S.copy(), y.copy(), lab.copy())
    F1 = transductive_gp(S, y, lab)
    F2 = transductive_gp(S, y, lab)
    assert np.array_equal(F1, F2)
    assert (S != copies[0]).nnz == 0
    assert np.array_equal(y, copies[1]) and np.array_equal(lab, copies[2])


def test_output_modes():
    A, y, lab = _problem(15)
    F, info = gp_and_fit(A, y, lab, **TIGHT)
    t = transductive_gp(A, y, lab, output="t", **TIGHT)
    pi = transductive_gp(A, y, lab, output="pi", **TIGHT)
    np.testing.assert_allclose(pi, softmax(t, axis=1), atol=1e-12)
    np.testing.assert_allclose(F[lab], pi[lab])
    np.testing.assert_allclose(t, info.t)


def test_bad_inputs_raise():
    A, y, lab = _problem(16)
    with pytest.raises(ValueError, match="square"):
        transductive_gp(A[:, :-1], y, lab)
    B = A.copy()
    B[0, 1] += 1
    with pytest.raises(ValueError, match="symmetric"):
        transductive_gp(B, y, lab)
    B = A.copy()
    B[0, 1] = B[1, 0] = np.nan
    with pytest.raises(ValueError, match="non-finite"):
        transductive_gp(B, y, lab)
    B = A.copy()
    B[0, 1] = B[1, 0] = -1.0
    with pytest.raises(ValueError, match="negative"):
        transductive_gp(B, y, lab)
    with pytest.raises(ValueError, match="length"):
        transductive_gp(A, y[:-1], lab)
    with pytest.raises(ValueError, match="labels of labelled nodes"):
        transductive_gp(A, y, lab, n_classes=1)
    with pytest.raises(ValueError, match="no node is labelled"):
        transductive_gp(A, y, [])
    with pytest.raises(ValueError, match="nothing to transduce"):
        transductive_gp(A, y, np.arange(len(y)))
    with pytest.raises(TypeError, match="labelled"):
        transductive_gp(A, y, np.array([0.5, 1.5]))
    with pytest.raises(ValueError, match="sigma2"):
        transductive_gp(A, y, lab, sigma2=0)
    with pytest.raises(ValueError, match="kernel_eps"):
        transductive_gp(A, y, lab, kernel_eps=-1)
    with pytest.raises(ValueError, match="infeasible"):
        transductive_gp(A, y, lab, balance=(np.full(3, 0.5), np.full(3, 0.6)))
    with pytest.raises(ValueError, match="r_minus must be <= r_plus"):
        transductive_gp(A, y, lab, balance=(np.array([0.5, 0.2, 0.2]), np.array([0.4, 0.4, 0.4])))
    with pytest.raises(ValueError, match="shape"):
        transductive_gp(A, y, lab, balance=(np.zeros(2), np.ones(2)))
    with pytest.raises(ValueError, match="r_minus must be < 1"):
        transductive_gp(A, y, lab, balance=(np.array([1.0, 0, 0]), np.ones(3)))
    with pytest.raises(ValueError, match="T_U"):
        solve_balanced_q(np.full((3, 2), np.nan), np.zeros(2), np.ones(2))
    with pytest.raises(ValueError, match="eps"):
        transductive_gp(A, y, lab, balance=False, eps=0.1)
    with pytest.raises(ValueError, match="kind"):
        transductive_gp(A, y, lab, kind="laplacian")
    with pytest.raises(ValueError, match="output"):
        transductive_gp(A, y, lab, output="labels")
    with pytest.raises(TypeError, match="cg_iter"):
        transductive_gp(A, y, lab, cg_iter=2.5)
    with pytest.raises(ValueError, match="positive diagonal"):
        transductive_gp(-gp_kernel_inverse(A, 0.1), y, lab, kind="kinv")
    B = A.copy()
    B[0, :] = B[:, 0] = 0
    with pytest.raises(ValueError, match="isolated"):
        transductive_gp(B, y, lab)
    with pytest.raises(TypeError, match="real numbers"):
        transductive_gp(np.array([["a", "b"], ["b", "a"]]), [0, 1], [0])


def test_convergence_warning():
    A, y, lab = _problem(17)
    with pytest.warns(ConvergenceWarning, match="Newton"):
        transductive_gp(A, y, lab, max_newton=1, tol=1e-14)


def test_scales_without_dense_matrices():
    """A 6,000-node sparse graph (a dense n x n would be 288 MB) solves in a few seconds."""
    rng = np.random.default_rng(18)
    n, K = 6000, 3
    i = np.concatenate([np.arange(n - 1), rng.integers(0, n, 3 * n)])
    j = np.concatenate([np.arange(1, n), rng.integers(0, n, 3 * n)])
    S = sp.coo_matrix((np.ones(i.size), (i, j)), shape=(n, n)).tocsr()
    S = S.maximum(S.T)
    S.setdiag(0)
    S.eliminate_zeros()
    y = (np.arange(n) * K // n).astype(int)  # three contiguous blocks along the path
    lab = rng.choice(n, 300, replace=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        F, info = gp_and_fit(S, y, lab, tol=1e-6)
    s = info.q.mean(0)
    assert np.all((s >= info.r_minus - 1e-9) & (s <= info.r_plus + 1e-9))
    assert info.elapsed < 20


# --------------------------------------------------------------------------- proportion matching
def _greedy_twin(P, counts):
    labels = -np.ones(len(P), int)
    for j, c in enumerate(counts):
        for _ in range(c):
            best = max((i for i in range(len(P)) if labels[i] < 0), key=lambda i: (P[i, j], -i))
            labels[best] = j
    return labels


def test_match_class_proportions():
    rng = np.random.default_rng(19)
    P = rng.random((17, 4))
    p = np.array([0.1, 0.2, 0.3, 0.4])
    lab = match_class_proportions(P, p)
    counts = np.bincount(lab, minlength=4)
    assert counts.sum() == 17 and np.all(np.abs(counts - 17 * p) < 1)
    assert np.array_equal(lab, _greedy_twin(P, counts))
    with pytest.raises(ValueError, match="proportions"):
        match_class_proportions(P, [1, 2])


def test_inverse_kernel_symmetry_is_the_library_check():
    """``K^-1`` goes through the one symmetric-matrix check: relative tolerance, Graph refused."""
    A, y, lab = _problem(16)
    Kinv = gp_kernel_inverse(A, 0.1).toarray()
    j = int(np.flatnonzero(Kinv[0] == 0)[0])
    Kinv[0, j] = 1e-12  # one direction only: not symmetric, however small
    with pytest.raises(ValueError, match=rf"S_or_Kinv is not symmetric.*S_or_Kinv\[0, {j}\]"):
        transductive_gp(Kinv, y, lab, kind="kinv")
    with pytest.raises(TypeError, match="complex"):
        transductive_gp(A.astype(complex), y, lab)


def test_a_class_without_a_labelled_node_is_said():
    """All labelled nodes in one class: the GP predicts it everywhere; harmonic and LLGC warned, the GP did not."""
    g = gs.load_dataset("karate")
    labelled = np.flatnonzero(g.labels == 0)[:4]
    with pytest.warns(
        gs.DataWarning, match=r"class\(es\) \[1\] of K = 2 have no labelled node \(every labelled"
    ):
        gs.transductive.transductive_gp(g.adjacency, g.labels, labelled)


def test_newton_cg_count_does_not_move_with_the_last_bits(monkeypatch):
    """Notebook 43's 6,000-node Epinions ball: noise of 1e-13 in t leaves the CG count in place.

    The residual-based CG stop moved it (62 -> 61 with this noise): CG's residual is not monotone and, in the
    last Newton step, crossed its tolerance one iteration earlier.
    """
    from graphsel_lib.papers.gaertner2005 import scaling_claim as sc
    from graphsel_lib.transductive import gp as gp_module

    g = gs.load_dataset("epinions", download=False)
    root = int(np.random.default_rng(0).integers(g.n_nodes))  # as sc.scaling(seed=0)
    nodes = gs.bfs_ball(g.adjacency, 6_000, root=root)
    S = g.adjacency[nodes][:, nodes].tocsr()
    r = np.random.default_rng([0, 6_000])
    y = sc.voronoi_labels(S, 4, r)
    lab = sc.stratified(y, 0.01, r)
    count = gp_and_fit(S, y, lab)[1].cg_iterations
    evaluate, noise = gp_module._Objective.evaluate, np.random.default_rng(3)

    def noisy(self, t, gamma0=None):
        return evaluate(self, t * (1 + 1e-13 * noise.standard_normal(t.shape)), gamma0)

    monkeypatch.setattr(gp_module._Objective, "evaluate", noisy)
    assert gp_and_fit(S, y, lab)[1].cg_iterations == count


def _sbm(seed, n=600, K=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, K, n)
    A = np.triu(rng.random((n, n)) < np.where(y[:, None] == y[None, :], 0.03, 0.004), 1).astype(float)
    A[np.arange(n - 1), np.arange(1, n)] = 1.0  # a path keeps it connected
    return sp.csr_matrix(A + A.T), y, np.sort(rng.choice(n, 30, replace=False))


# a 600-node SBM whose balance constraint binds: the residual-based CG stop this rule replaced moved its count (91 -> 83,
# 92 or 93) with these noise seeds
SBM_BOUNDS = (np.full(3, 0.3), np.full(3, 0.4))


def _counts(info):
    return info.iterations, info.cg_iterations


def test_newton_cg_counts_do_not_move_with_noise_in_t(monkeypatch):
    """Noise of 1e-13 in t at every evaluation leaves the Newton and CG counts, and the solution, in place."""
    from graphsel_lib.transductive import gp as gp_module

    S, y, lab = _sbm(1)
    F, info = gp_and_fit(S, y, lab, balance=SBM_BOUNDS)
    assert info.converged and np.any(info.gamma != 0)
    evaluate = gp_module._Objective.evaluate
    for seed in range(5):
        noise = np.random.default_rng(seed)

        def noisy(self, t, gamma0=None, noise=noise):
            return evaluate(self, t * (1 + 1e-13 * noise.standard_normal(t.shape)), gamma0)

        monkeypatch.setattr(gp_module._Objective, "evaluate", noisy)
        F2, info2 = gp_and_fit(S, y, lab, balance=SBM_BOUNDS)
        assert _counts(info2) == _counts(info), seed
        np.testing.assert_allclose(F2, F, atol=1e-8)


def test_newton_cg_counts_do_not_move_with_the_blas_thread_count():
    from threadpoolctl import threadpool_limits

    S, y, lab = _sbm(1)
    runs = []
    for threads in (1, 2):
        with threadpool_limits(limits=threads, user_api="blas"):
            runs.append(gp_and_fit(S, y, lab, balance=SBM_BOUNDS))
    assert _counts(runs[0][1]) == _counts(runs[1][1])
    np.testing.assert_allclose(runs[0][0], runs[1][0], atol=1e-8)


def test_cg_truncation_is_the_model_decrease_test():
    """The CG stop is Nash and Sofer's test on the quadratic model over CG_WINDOW iterations, not the residual."""
    from graphsel_lib.transductive._truncated_cg import CG_WINDOW, DECISION_BAND, steihaug_cg

    rng = np.random.default_rng(0)
    B = rng.normal(size=(40, 40))
    H = B @ B.T + np.diag(np.linspace(0.01, 10, 40))
    g = rng.normal(size=40)
    for forcing in (0.5, 0.05, 1e-3):
        d, it, neg = steihaug_cg(lambda v: H @ v, g, np.ones(40), 40, forcing)
        assert not neg and CG_WINDOW <= it < 40
        # replay: the model values of CG's first i iterates (the minimisers of m on the Krylov spaces)
        model = [0.0]
        for i in range(1, it + 1):
            V = np.linalg.qr(np.column_stack([np.linalg.matrix_power(H, k) @ g for k in range(i)]))[0]
            c = np.linalg.solve(V.T @ H @ V, -V.T @ g)
            model.append(0.5 * float(g @ V @ c))
        np.testing.assert_allclose(model[-1], g @ d + 0.5 * d @ H @ d, rtol=1e-8)
        assert np.all(np.diff(model) < 0)  # monotone

        ratio = [
            i * (model[i - CG_WINDOW] - model[i]) / (CG_WINDOW * -model[i]) for i in range(CG_WINDOW, it + 1)
        ]
        assert ratio[-1] <= forcing * (1 - DECISION_BAND)
        assert all(r > forcing * (1 - DECISION_BAND) for r in ratio[:-1])


@pytest.mark.parametrize("labels", [[0, 2], [], [0, -1], [0.5, 1.0]])
def test_balance_bounds_refuses_labels_outside_the_classes(labels):
    """A label >= n_classes lengthened the bounds and no label gave NaN; both are named now."""
    from graphsel_lib.transductive import balance_bounds

    with pytest.raises(ValueError, match="y_labelled"):
        balance_bounds(labels, 2, 0.1)


# --------------------------------------------------------------------------- kinv_matmul (dense K^-1 products)
def test_dense_kinv_matmul_is_the_csr_product_bit_for_bit():
    from graphsel_lib.transductive import dense_kinv_matmul

    rng = np.random.default_rng(3)
    for n, K in ((1, 1), (7, 2), (61, 3), (130, 10)):
        X = rng.normal(size=(n, 4))
        A = np.exp(-((X[:, None] - X[None]) ** 2).sum(-1) / 3.0) + 0.1 * np.eye(n)
        A = np.linalg.inv(A)
        A = (A + A.T) / 2
        V = rng.normal(size=(n, K)) * 10.0 ** rng.integers(-8, 8, size=(n, K))
        W = dense_kinv_matmul(A)(V)
        assert W.flags.c_contiguous and np.array_equal(W, sp.csr_matrix(A) @ V), (n, K)
        assert np.array_equal(dense_kinv_matmul(sp.csr_matrix(A))(V), W)
    with pytest.raises(ValueError, match="exactly symmetric"):
        dense_kinv_matmul(np.array([[1.0, 2.0], [2.0 + 1e-15, 1.0]]))
    with pytest.raises(ValueError, match="zero entries"):
        dense_kinv_matmul(np.eye(2))
    with pytest.raises(ValueError, match="shape"):
        dense_kinv_matmul(np.ones((2, 2)))(np.ones(2))


def test_transductive_gp_kinv_matmul_gives_the_default_fit():
    from graphsel_lib.transductive import dense_kinv_matmul

    rng = np.random.default_rng(4)
    n = 80
    X = rng.normal(size=(n, 3))
    y = (X[:, 0] + 0.3 * rng.normal(size=n) > 0).astype(int) + (X[:, 1] > 1)
    A = np.linalg.inv(np.exp(-((X[:, None] - X[None]) ** 2).sum(-1) / 2.0) + 0.1 * np.eye(n))
    A = (A + A.T) / 2
    lab = np.sort(rng.choice(n, 20, replace=False))
    for kw in ({}, {"balance": False}, {"eps": 0.02}):
        a, ia = gp_and_fit(A, y, lab, kind="kinv", sigma2=10.0, **kw)
        b, ib = gp_and_fit(A, y, lab, kind="kinv", sigma2=10.0,
                                kinv_matmul=dense_kinv_matmul(A), **kw)  # fmt: skip
        assert np.array_equal(a, b) and np.array_equal(ia.objective, ib.objective), kw
        assert (ia.iterations, ia.cg_iterations) == (ib.iterations, ib.cg_iterations)


def test_the_fit_is_the_scores_with_the_report_and_return_info_is_deprecated():
    """transductive_gp returns transductive_gp_fit's scores bit for bit; return_info=True still answers, with a warning."""
    A, y, lab = _problem(8, n=10, K=3, n_lab=4)
    y[lab] = [0, 1, 2, 0]
    rm, rp = np.array([0.15, 0.3, 0.3]), np.array([0.3, 0.45, 0.5])
    fit = transductive_gp_fit(A, y, lab, balance=(rm, rp), **TIGHT)
    assert isinstance(fit, GPFit)
    F = transductive_gp(A, y, lab, balance=(rm, rp), **TIGHT)
    assert np.array_equal(F, fit.scores)
    np.testing.assert_array_equal(fit.lambda_plus - fit.lambda_minus, fit.gamma)
    assert np.all(fit.lambda_plus >= 0) and np.all(fit.lambda_minus >= 0)
    with pytest.warns(DeprecationWarning, match=r"call transductive_gp_fit") as record:
        F_old, info = transductive_gp(A, y, lab, balance=(rm, rp), return_info=True, **TIGHT)
    assert record[0].filename == __file__  # the warning points at the caller's line
    assert np.array_equal(F_old, fit.scores)
    for key in ("iterations", "cg_iterations", "converged", "r_minus", "r_plus", "eps"):
        assert np.array_equal(info[key], getattr(fit, key)) or info[key] is getattr(fit, key), key
    for key in ("objective", "grad_norm", "gamma", "t", "q", "unlabelled", "lambda_plus", "lambda_minus"):
        np.testing.assert_array_equal(info[key], getattr(fit, key))
    with pytest.warns(DeprecationWarning, match=r"the key 'unlabeled' is renamed 'unlabelled'"):
        assert info["unlabeled"] is info["unlabelled"]  # the old key, for one release
