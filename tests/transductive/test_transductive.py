"""LLGC, harmonic functions and CMN: efficient solvers against their naive dense twins ."""

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

import graphsel_lib as gs
from conftest import random_connected_graph
from graphsel_lib import transductive as T
from graphsel_lib.transductive import reference as R


def _random_labels(rng, n, K, n_labelled):
    """Labels 0..K-1 (every class present) and a random labelled set."""
    y = rng.permutation(np.arange(n) % K)
    labelled = np.sort(rng.choice(n, size=n_labelled, replace=False))
    return y, labelled


# --------------------------------------------------------------------------- efficient == naive
def test_llgc_matches_dense_twin(random_graphs):
    rng = np.random.default_rng(0)
    for S in random_graphs:
        n = S.shape[0]
        K = int(rng.integers(2, 5))
        y, lab = _random_labels(rng, n, K, int(rng.integers(1, n)))
        for mu in (1e-3, 0.7, 50.0):
            for kind in ("combinatorial", "normalized"):
                F = T.llgc(S, y, lab, mu=mu, laplacian=kind)
                F0 = R.llgc_dense(S, y, lab, mu=mu, laplacian=kind)
                np.testing.assert_allclose(F, F0, atol=1e-8, rtol=0)


def test_harmonic_matches_dense_twin_both_forms(random_graphs):
    rng = np.random.default_rng(1)
    for S in random_graphs:
        n = S.shape[0]
        K = int(rng.integers(2, 5))
        y, lab = _random_labels(rng, n, K, int(rng.integers(1, n)))
        F = T.harmonic(S, y, lab)
        for form in ("energy", "random_walk"):
            np.testing.assert_allclose(F, R.harmonic_dense(S, y, lab, form=form), atol=1e-8, rtol=0)
        # rows are probability vectors, labelled rows are one-hot
        np.testing.assert_allclose(F.sum(1), 1.0, atol=1e-10)
        assert F.min() >= -1e-12
        np.testing.assert_array_equal(F[lab], np.eye(K)[y[lab]])
        Fc = T.harmonic(S, y, lab, cmn=True)
        np.testing.assert_allclose(Fc, R.cmn_dense(F, lab, y), atol=1e-8, rtol=0)
        q = rng.uniform(0.1, 1.0, K)
        Fq = T.harmonic(S, y, lab, cmn=True, class_prior=q)
        np.testing.assert_allclose(Fq, R.cmn_dense(F, lab, y, class_prior=q), atol=1e-8, rtol=0)
        unl = np.setdiff1d(np.arange(n), lab)
        reached = F[unl].sum(0) > 0  # a class whose labelled nodes touch no unlabelled node has no mass
        np.testing.assert_allclose(Fq[unl].sum(0), np.where(reached, q / q.sum(), 0.0), atol=1e-10)


def test_iterative_solvers_match_direct(random_graphs):
    rng = np.random.default_rng(2)
    for S in random_graphs[:8]:
        n = S.shape[0]
        y, lab = _random_labels(rng, n, 3, max(1, n // 4))
        for solver in ("cg", "amg"):
            np.testing.assert_allclose(
                T.llgc(S, y, lab, mu=2.0, solver=solver),
                T.llgc(S, y, lab, mu=2.0, solver="direct"),
                atol=1e-8,
            )
            np.testing.assert_allclose(
                T.harmonic(S, y, lab, solver=solver), T.harmonic(S, y, lab, solver="direct"), atol=1e-8
            )


def test_llgc_and_harmonic_on_big_graph_take_the_iterative_path():
    """Above DIRECT_MAX_NODES "auto" runs CG; its answer satisfies the linear system."""
    rng = np.random.default_rng(3)
    n = T._common.DIRECT_MAX_NODES + 500
    # a ring plus random chords: connected and sparse
    chords = rng.integers(0, n, size=(2 * n, 2))
    rows = np.concatenate([np.arange(n), chords[:, 0]])
    cols = np.concatenate([(np.arange(n) + 1) % n, chords[:, 1]])
    S = sp.coo_matrix((np.ones(rows.size), (rows, cols)), shape=(n, n)).tocsr()
    S = S.maximum(S.T).tocsr()
    S.setdiag(0)
    S.eliminate_zeros()
    y, lab = _random_labels(rng, n, 3, 300)
    F = T.llgc(S, y, lab, mu=1.0)
    Y = np.zeros((n, 3))
    Y[lab, y[lab]] = 1
    resid = F + gs.laplacian(S) @ F - Y
    assert np.linalg.norm(resid) <= 1e-8 * np.linalg.norm(Y)
    H = T.harmonic(S, y, lab)
    L = gs.laplacian(S)
    unl = np.setdiff1d(np.arange(n), lab)
    assert np.abs(L[unl] @ H).max() < 1e-8
    np.testing.assert_allclose(H.sum(1), 1.0, atol=1e-8)


def test_auto_skips_lu_on_a_dense_mid_size_graph(monkeypatch):
    """Below DIRECT_MAX_NODES but with many entries per row, "auto" runs CG (LU fills in badly there)."""
    rng = np.random.default_rng(5)
    n = 1_500
    S = sp.random(n, n, density=40 / n, random_state=rng, format="csr")
    S = (S + S.T).tocsr()
    S.setdiag(0)
    S.eliminate_zeros()
    assert S.nnz > T._common.DIRECT_MAX_ROW_NNZ * n
    y, lab = _random_labels(rng, n, 3, 150)
    expected = T.llgc(S, y, lab, mu=1.0, solver="direct")

    def no_lu(*args, **kwargs):
        raise AssertionError("auto factorised a dense mid-size matrix")

    monkeypatch.setattr(T._common.spla, "splu", no_lu)
    np.testing.assert_allclose(T.llgc(S, y, lab, mu=1.0), expected, atol=1e-8)


# --------------------------------------------------------------------------- inputs
def test_dense_and_sparse_input_agree_and_inputs_not_modified(random_graphs):
    rng = np.random.default_rng(4)
    S = random_graphs[0]
    n = S.shape[0]
    y, lab = _random_labels(rng, n, 3, 4)
    mask = np.zeros(n, dtype=bool)
    mask[lab] = True
    D = S.toarray()
    S_copy, D_copy, y_copy, lab_copy, mask_copy = S.copy(), D.copy(), y.copy(), lab.copy(), mask.copy()
    for method, kw in ((T.llgc, {"mu": 0.5}), (T.harmonic, {}), (T.harmonic, {"cmn": True})):
        F_sparse = method(S, y, lab, **kw)
        np.testing.assert_allclose(method(D, y, lab, **kw), F_sparse, atol=1e-12)
        np.testing.assert_allclose(method(S, y, mask, **kw), F_sparse, atol=1e-12)
        np.testing.assert_allclose(method(S.tocoo(), y, lab[::-1], **kw), F_sparse, atol=1e-12)
        np.testing.assert_allclose(method(S, y.astype(float), list(lab), **kw), F_sparse, atol=1e-12)
    assert (S != S_copy).nnz == 0
    np.testing.assert_array_equal(D, D_copy)
    np.testing.assert_array_equal(y, y_copy)
    np.testing.assert_array_equal(lab, lab_copy)
    np.testing.assert_array_equal(mask, mask_copy)


def test_unlabelled_entries_of_y_are_ignored(random_graphs):
    rng = np.random.default_rng(5)
    S = random_graphs[2]
    n = S.shape[0]
    y, lab = _random_labels(rng, n, 3, 6)
    y2 = np.full(n, -1)
    y2[lab] = y[lab]
    for method, kw in ((T.llgc, {"mu": 0.5}), (T.harmonic, {"cmn": True})):
        np.testing.assert_array_equal(method(S, y, lab, **kw), method(S, y2, lab, n_classes=3, **kw))


def test_self_loops_are_ignored(random_graphs):
    rng = np.random.default_rng(6)
    S = random_graphs[4]
    n = S.shape[0]
    y, lab = _random_labels(rng, n, 2, 5)
    S_loop = S + sp.diags(rng.uniform(0.5, 3.0, n))
    np.testing.assert_allclose(T.harmonic(S_loop, y, lab), T.harmonic(S, y, lab), atol=1e-12)
    np.testing.assert_allclose(T.llgc(S_loop, y, lab, mu=1.0), T.llgc(S, y, lab, mu=1.0), atol=1e-12)


# --------------------------------------------------------------------------- exact small cases
def test_path_graph_exact():
    # path 0-1-2-3-4, unit weights; node 0 is class 0, node 4 is class 1
    S = nx.to_scipy_sparse_array(nx.path_graph(5))
    y = np.array([0, -1, -1, -1, 1])
    F = T.harmonic(S, y, [0, 4])
    np.testing.assert_allclose(F[:, 1], [0, 0.25, 0.5, 0.75, 1], atol=1e-14)
    np.testing.assert_allclose(F[:, 0], 1 - F[:, 1], atol=1e-14)
    # LLGC, mu = 1, only node 0 labelled: (I + L) f = e_0 on the path of 3 nodes
    S3 = nx.to_scipy_sparse_array(nx.path_graph(3))
    F3 = T.llgc(S3, [0, -1, -1], [0], mu=1.0, n_classes=1)
    # I + L = [[2,-1,0],[-1,3,-1],[0,-1,2]]; its inverse's first column is (5, 2, 1)/8
    np.testing.assert_allclose(F3[:, 0], np.array([5, 2, 1]) / 8, atol=1e-14)
    # CMN on the path: classes get equal mass over U = {1,2,3}
    Fc = T.harmonic(S, y, [0, 4], cmn=True)
    np.testing.assert_allclose(Fc[1:4, 1], np.array([0.25, 0.5, 0.75]) / 1.5 * 0.5, atol=1e-14)


def test_cmn_changes_the_decision_on_an_unbalanced_graph():
    """A star centred on a class-0 labelled node pulls everything to class 0; CMN rebalances."""
    G = nx.Graph()
    G.add_edges_from([(0, i) for i in range(1, 8)] + [(7, 8), (8, 9)])
    S = nx.to_scipy_sparse_array(G, nodelist=range(10))
    y = np.array([0] + [-1] * 8 + [1])
    F = T.harmonic(S, y, [0, 9])
    Fc = T.harmonic(S, y, [0, 9], cmn=True)
    assert F[8].argmax() == 1 and F[7].argmax() == 0
    assert Fc[7].argmax() == 1  # mass normalisation moves node 7 to class 1


def test_class_without_label():
    S = nx.to_scipy_sparse_array(nx.path_graph(4))
    y = np.array([0, 0, 1, 1])
    F = T.harmonic(S, y, [0, 1], n_classes=3)
    np.testing.assert_array_equal(F[:, 1:], 0)
    np.testing.assert_allclose(T.llgc(S, y, [0, 1], mu=1.0)[:, 1], 0)
    # CMN cannot give mass to a class that no walk reaches: its column stays zero
    Fc = T.harmonic(S, y, [0, 1], cmn=True, class_prior=[0.5, 0.5], n_classes=2)
    np.testing.assert_allclose(Fc[2:], [[0.25, 0], [0.25, 0]], atol=1e-14)


def test_llgc_normalized_matches_closed_form_of_networkx_fixed_point(random_graphs):
    """networkx iterates F <- alpha N F + (1 - alpha) Y; its fixed point is llgc(normalized, mu=alpha/(1-alpha))."""
    rng = np.random.default_rng(7)
    for S in random_graphs[:10]:
        n = S.shape[0]
        y, lab = _random_labels(rng, n, 3, max(2, n // 3))
        alpha = 0.6
        d = np.asarray(S.sum(1)).ravel()
        N = S.toarray() / np.sqrt(np.outer(d, d))
        Y = np.zeros((n, 3))
        Y[lab, y[lab]] = 1
        Fit = np.zeros((n, 3))
        for _ in range(2000):
            Fit = alpha * N @ Fit + (1 - alpha) * Y
        np.testing.assert_allclose(
            T.llgc(S, y, lab, mu=alpha / (1 - alpha), laplacian="normalized"), Fit, atol=1e-10
        )


def _labelled_nx_graph(S, y, lab):
    G = nx.from_scipy_sparse_array(S)
    for i in lab:
        G.nodes[int(i)]["label"] = int(y[i])
    return G


def _agree_where_decisive(F, pred, margin=1e-6):
    top2 = np.sort(F, axis=1)[:, -2:]
    decisive = top2[:, 1] - top2[:, 0] > margin
    assert decisive.mean() > 0.5
    np.testing.assert_array_equal(F.argmax(1)[decisive], np.asarray(pred)[decisive])


def test_networkx_cross_check(random_graphs):
    """networkx returns labels only, after a fixed number of iterations: compare decisions."""
    from networkx.algorithms import node_classification as nc

    rng = np.random.default_rng(8)
    for S in random_graphs[:12]:
        n = S.shape[0]
        y, lab = _random_labels(rng, n, 3, max(3, n // 4))
        if len(np.unique(y[lab])) < 3:
            continue  # networkx renumbers the labels it sees
        G = _labelled_nx_graph(S, y, lab)
        _agree_where_decisive(T.harmonic(S, y, lab), nc.harmonic_function(G, max_iter=5000))
        alpha = 0.9
        _agree_where_decisive(
            T.llgc(S, y, lab, mu=alpha / (1 - alpha), laplacian="normalized"),
            nc.local_and_global_consistency(G, alpha=alpha, max_iter=5000),
        )


# --------------------------------------------------------------------------- gu2013 Eq. 2–5
def test_llgc_equals_ridge_regression_on_spectral_embedding():
    """gu2013 Eq. 2–5. Write f = M^T w + c 1 (M = the d = n-1 embedding, M^T M = L^+, M 1 = 0).

    f^T L f = w^T M L M^T w = ||w||^2 (M L M^T = I_d), so LLGC becomes
    min 1/2 sum_{labelled i} (m_i^T w + c - y_i)^2 + 1/2 sum_{unlabelled} (m_i^T w + c)^2 + mu/2 ||w||^2,
    a ridge regression on the columns of M with an unpenalised intercept; with the constant
    direction included its minimiser reproduces (I + mu L)^-1 y exactly.
    """
    rng = np.random.default_rng(9)
    n = 30
    S = random_connected_graph(rng, n, p=0.2)
    y, lab = _random_labels(rng, n, 2, 8)
    mu = 0.8
    emb = gs.spectral_embedding(S, n - 1)
    M = emb.M
    np.testing.assert_allclose(M.T @ M, gs.laplacian_pinv(S), atol=1e-10)
    F = T.llgc(S, y, lab, mu=mu)
    for k in range(2):
        t = np.zeros(n)
        t[lab[y[lab] == k]] = 1.0
        # ridge regression on the features (m_i, 1): Gram and penalty (no penalty on the intercept)
        Xf = np.vstack([M, np.ones((1, n))])
        pen = np.diag(np.r_[np.full(n - 1, mu), 0.0])
        w = np.linalg.solve(Xf @ Xf.T + pen, Xf @ t)
        np.testing.assert_allclose(Xf.T @ w, F[:, k], atol=1e-9)
        # and the intercept is the mean of the targets (M 1 = 0, L 1 = 0)
        np.testing.assert_allclose(w[-1], t.mean(), atol=1e-10)


# --------------------------------------------------------------------------- bad inputs
BAD_S = [
    (np.ones((3, 4)), ValueError, "square"),
    (np.array([[0, 1, 0], [0, 0, 1], [0, 1, 0]]), ValueError, "symmetric"),
    (np.array([[0, -1, 0], [-1, 0, 1], [0, 1, 0]]), ValueError, "negative"),
    (np.array([[0, np.nan, 0], [np.nan, 0, 1], [0, 1, 0]]), ValueError, "non-finite"),
    (np.array([["a", "b", "c"]] * 3), TypeError, "real numbers"),
]


@pytest.mark.parametrize("method", ["llgc", "harmonic"])
@pytest.mark.parametrize(("S", "exc", "msg"), BAD_S)
def test_bad_weight_matrix(method, S, exc, msg):
    kw = {"mu": 1.0} if method == "llgc" else {}
    with pytest.raises(exc, match=msg):
        getattr(T, method)(S, [0, 1, 0], [0, 1], **kw)


@pytest.mark.parametrize("method", ["llgc", "harmonic"])
@pytest.mark.parametrize(
    ("y", "labelled", "exc", "msg"),
    [
        ([0, 1, 0], [], ValueError, "no node is labelled"),
        ([0, 1, 0], np.zeros(3, dtype=bool), ValueError, "no node is labelled"),
        ([0, 1], [0, 1], ValueError, "length n_nodes=3"),
        ([0, 1, 0, 1], [0, 1], ValueError, "length n_nodes=3"),
        ([0, -1, 0], [0, 1], ValueError, r"must be in 0\.\.0, found y\[1\] = -1"),
        ([0, 1.5, 0], [0, 1], ValueError, "non-integer"),
        ([0, 1, 0], [0, 3], ValueError, r"indices must be in 0\.\.2"),
        ([0, 1, 0], [0, -1], ValueError, r"indices must be in 0\.\.2"),
        ([0, 1, 0], [0, 0], ValueError, "distinct"),
        ([0, 1, 0], np.array([True, False]), ValueError, "mask labelled must have length"),
        ([0, 1, 0], [0.0, 1.0], TypeError, "integer node indices"),
        ([0, 1, 0], [[0, 1]], ValueError, "1-D"),
    ],
)
def test_bad_labels(method, y, labelled, exc, msg):
    S = nx.to_scipy_sparse_array(nx.path_graph(3))
    kw = {"mu": 1.0} if method == "llgc" else {}
    with pytest.raises(exc, match=msg):
        getattr(T, method)(S, y, labelled, **kw)


def test_labels_out_of_range_for_n_classes():
    S = nx.to_scipy_sparse_array(nx.path_graph(3))
    with pytest.raises(ValueError, match=r"must be in 0\.\.1, found y\[2\] = 2"):
        T.llgc(S, [0, 1, 2], [0, 2], mu=1.0, n_classes=2)
    with pytest.raises(ValueError, match="n_classes must be >= 1"):
        T.harmonic(S, [0, 1, 0], [0, 2], n_classes=0)
    with pytest.raises(TypeError, match="n_classes must be an integer"):
        T.harmonic(S, [0, 1, 0], [0, 2], n_classes=2.0)


def test_harmonic_component_without_label_is_named():
    S = sp.block_diag(
        [nx.to_scipy_sparse_array(nx.path_graph(3)), nx.to_scipy_sparse_array(nx.path_graph(2))]
    )
    y = np.array([0, 1, 0, 1, 1])
    with pytest.raises(ValueError, match=r"1 of the 2 connected components.*node 3.*2 node\(s\).*singular"):
        T.harmonic(S, y, [0, 2])
    # an isolated unlabelled node is such a component too
    S1 = sp.block_diag([nx.to_scipy_sparse_array(nx.path_graph(3)), sp.csr_matrix((1, 1))])
    with pytest.raises(ValueError, match="node 3 and has 1 node"):
        T.harmonic(S1, [0, 1, 0, 0], [0, 2])
    # LLGC is well-posed there: the component without labels gets F = 0
    F = T.llgc(S, y, [0, 2], mu=1.0)
    np.testing.assert_array_equal(F[3:], 0)


@pytest.mark.parametrize("mu", [0, -1, np.inf, np.nan])
def test_llgc_bad_mu(mu):
    with pytest.raises(ValueError, match="mu must be a positive finite number"):
        T.llgc(np.array([[0, 1], [1, 0]]), [0, 1], [0], mu=mu)
    with pytest.raises(TypeError, match="mu must be a positive number"):
        T.llgc(np.array([[0, 1], [1, 0]]), [0, 1], [0], mu="a")


def test_bad_options():
    S = np.array([[0, 1], [1, 0]])
    with pytest.raises(ValueError, match="solver must be one of"):
        T.harmonic(S, [0, 1], [0], solver="magic")
    with pytest.raises(ValueError, match="laplacian must be one of"):
        T.llgc(S, [0, 1], [0], mu=1.0, laplacian="random_walk")
    with pytest.raises(ValueError, match="normalized Laplacian undefined"):
        T.llgc(np.zeros((2, 2)), [0, 1], [0], mu=1.0, laplacian="normalized")
    with pytest.raises(ValueError, match=r"class_prior must have shape \(2,\)"):
        T.harmonic(S, [0, 1], [0, 1], cmn=True, class_prior=[1.0])
    with pytest.raises(ValueError, match="non-negative"):
        T.harmonic(S, [0, 1], [0, 1], cmn=True, class_prior=[1.0, -1.0])


# --------------------------------------------------------------------------- no silent wrong answers (issue 12)
@pytest.mark.parametrize("method", ["llgc", "harmonic"])
def test_nan_and_none_mark_unlabelled_nodes_like_minus_one(method):
    """One convention everywhere: -1, NaN and None are "unlabelled" (NaN and None used to raise)."""
    S = nx.to_scipy_sparse_array(nx.path_graph(5))
    kw = {"mu": 1.0} if method == "llgc" else {}
    ref = getattr(T, method)(S, [0, -1, -1, -1, 1], [0, 4], **kw)
    for y in ([0, np.nan, np.nan, np.nan, 1], [0, None, None, None, 1], [0, -1, None, np.nan, 1]):
        np.testing.assert_array_equal(getattr(T, method)(S, y, [0, 4], **kw), ref)
    with pytest.raises(ValueError, match=r"y\[2\] = -1 \(an unlabelled mark"):
        getattr(T, method)(S, [0, None, None, None, 1], [0, 2, 4], **kw)


@pytest.mark.parametrize("bad", [0.5, 2.7, -2])
def test_non_integer_label_is_named_even_where_unused(bad):
    S = nx.to_scipy_sparse_array(nx.path_graph(4))
    with pytest.raises(ValueError, match=rf"{bad!r} at node\(s\) 2"):
        T.llgc(S, np.array([0, 1, bad, 1], dtype=float), [0, 1], mu=1.0)


def test_llgc_warns_about_a_component_without_labels():
    """Before: the component's rows were 0 and argmax silently said class 0 there."""
    S = sp.block_diag(
        [nx.to_scipy_sparse_array(nx.path_graph(3)), nx.to_scipy_sparse_array(nx.path_graph(2))]
    )
    with pytest.warns(
        gs.DataWarning, match=r"1 of the 2 connected components \(2 node\(s\); first nodes \[3\]\)"
    ):
        F = T.llgc(S, [0, 1, 0, 1, 1], [0, 1], mu=1.0)
    np.testing.assert_array_equal(F[3:], 0)


@pytest.mark.parametrize("method", ["llgc", "harmonic"])
def test_class_without_labelled_node_is_named(method):
    """Before: class 2 silently got a zero column and was never predicted."""
    S = nx.to_scipy_sparse_array(nx.path_graph(4))
    kw = {"mu": 1.0} if method == "llgc" else {}
    with pytest.warns(gs.DataWarning, match=r"class\(es\) \[2\] of K = 3 have no labelled node"):
        F = getattr(T, method)(S, [0, 1, 2, 1], [0, 1], **kw)
    assert F.shape == (4, 3) and not F[:, 2].any()


def test_graph_instead_of_matrix_says_pass_adjacency():
    g = gs.load_dataset("karate")
    with pytest.raises(TypeError, match=r"pass its weight matrix, e\.g\. g\.adjacency"):
        T.llgc(g, g.labels, [0, 33], mu=1.0)


# --------------------------------------------------------------------------- the renamed keyword
@pytest.mark.parametrize("method", ["llgc", "harmonic", "loohl", "transductive_gp"])
def test_keyword_labeled_still_works_with_a_deprecation_warning_naming_labelled(method):
    """`labeled` became `labelled`: positional calls are unchanged, the old keyword warns for one release."""
    S = nx.to_scipy_sparse_array(nx.path_graph(8), format="csr", dtype=float)
    X = np.arange(16.0).reshape(8, 2)
    first = X if method == "loohl" else S
    y, lab = np.array([0, 0, 0, 0, 1, 1, 1, 1]), np.array([0, 1, 6, 7])
    kw = {"llgc": {"mu": 1.0}, "loohl": {"sigma0": 3.0, "maxiter": 5}}.get(method, {})
    f = getattr(T, method)
    new = f(first, y, labelled=lab, **kw)
    with pytest.warns(DeprecationWarning, match=rf"{method}\(\): the keyword labeled= is renamed labelled="):
        old = f(first, y, labeled=lab, **kw)
    np.testing.assert_array_equal(old, new)
    np.testing.assert_array_equal(f(first, y, lab, **kw), new)
    with pytest.raises(TypeError, match="pass labelled= only"):
        f(first, y, labeled=lab, labelled=lab, **kw)


def test_renamed_parameter_keeps_the_name_and_docstring():
    assert T.llgc.__name__ == "llgc" and "labelled" in T.llgc.__doc__
    import inspect

    assert "labelled" in inspect.signature(T.harmonic).parameters


def test_truncation_error_and_cmn_refuse_malformed_input():
    """A rank outside the embedding and a 1-D score vector are named, not answered by slicing."""
    from graphsel_lib.spectral import spectral_embedding
    from graphsel_lib.transductive import class_mass_normalization, llgc_truncation_error

    path = np.array([[0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 0]])
    emb = spectral_embedding(path, 3, cache=False)
    Y = np.array([[1, 0], [0, 0], [0, 0], [0, 1]])
    with pytest.raises(ValueError, match="d"):
        llgc_truncation_error(emb, Y, 1.0, -1)
    with pytest.raises(ValueError, match="d"):
        llgc_truncation_error(emb, Y, 1.0, 99)
    with pytest.raises(ValueError, match=r"F_U\[:, None\]"):
        class_mass_normalization([0.5, 0.5], [1.0])
