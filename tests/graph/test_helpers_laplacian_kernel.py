"""Helpers of chapters 01 (the Laplacian) and 02 (the kernel L^+ and its bounds), moved out of the notebooks."""

import matplotlib

matplotlib.use("agg")

import matplotlib.pyplot as plt  # noqa: E402
import networkx as nx  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import scipy.sparse as sp  # noqa: E402
from scipy.sparse import csgraph  # noqa: E402

import graphsel_lib as gs  # noqa: E402
from graphsel_lib import graph  # noqa: E402
from graphsel_lib.course import figures


def _adj(G):
    return nx.to_scipy_sparse_array(G, nodelist=range(G.number_of_nodes()), weight=None, format="csr").astype(
        float
    )


# --------------------------------------------------------------------------- graph
def test_cut_sizes_along_matches_cut_size_of_every_prefix():
    rng = np.random.default_rng(0)
    S = graph.random_connected_graph(rng, 15, 0.2)
    order = rng.permutation(15)
    cuts = graph.cut_sizes_along(S, order)
    assert cuts.shape == (16,) and cuts[0] == 0 and cuts[-1] == 0
    for k in range(16):
        f = -np.ones(15)
        f[order[:k]] = 1
        assert cuts[k] == gs.cut_size(S, f)
    with pytest.raises(ValueError, match="permutation"):
        graph.cut_sizes_along(S, np.arange(14))


def test_fiedler_vector_is_the_signed_unit_eigenvector_of_lambda_2():
    S = _adj(nx.path_graph(9))
    v = graph.fiedler_vector(S)
    L = gs.laplacian(S).toarray()
    lam2 = np.linalg.eigvalsh(L)[1]
    assert np.allclose(L @ v, lam2 * v, atol=1e-12)
    assert np.isclose(np.linalg.norm(v), 1) and abs(v.sum()) < 1e-12 and v[0] <= 0
    assert np.all(np.diff(v) > 0)  # on a path: monotone along it (a threshold cuts one edge)


def test_random_connected_graph_is_connected_symmetric_and_reproducible():
    for seed in range(5):
        S = graph.random_connected_graph(np.random.default_rng(seed), 30, 0.1)
        assert csgraph.connected_components(S, directed=False)[0] == 1
        assert abs(S - S.T).max() == 0 and np.all(S.diagonal() == 0)
        assert 0.1 <= S.data.min() and S.data.max() <= 3.0
        T = graph.random_connected_graph(np.random.default_rng(seed), 30, 0.1)
        assert (S != T).nnz == 0
        assert (graph.random_connected_graph(seed, 30, 0.1) != S).nnz == 0  # a seed: default_rng(seed)
    ones = graph.random_connected_graph(np.random.default_rng(1), 12, 0.0, weights=None)
    assert ones.nnz == 2 * 11 and np.all(ones.data == 1)  # p = 0: exactly the spanning tree
    with pytest.raises(ValueError):
        graph.random_connected_graph(np.random.default_rng(0), 1, 0.5)


@pytest.mark.parametrize("family", graph.RANDOM_GRAPH_FAMILIES)
def test_random_family_graph_is_connected_unweighted_and_reproducible(family):
    G, S = graph.random_family_graph(family, np.random.default_rng(3))
    assert S.shape[0] == G.number_of_nodes() >= 5 and S.shape[0] <= 80
    assert csgraph.connected_components(S, directed=False)[0] == 1
    assert np.all(S.data == 1) and abs(S - S.T).max() == 0
    _, S2 = graph.random_family_graph(family, np.random.default_rng(3))
    assert (S != S2).nnz == 0
    if family in ("random tree", "Barabasi-Albert") and S.nnz == 2 * (S.shape[0] - 1):
        assert nx.is_tree(G)


def test_random_family_graph_refuses_an_unknown_family():
    with pytest.raises(ValueError, match="family"):
        graph.random_family_graph("hypercube", np.random.default_rng(0))


def test_with_random_weights_keeps_the_edges_and_draws_symmetric_weights():
    _, S = graph.random_family_graph("grid", np.random.default_rng(4))
    W = graph.with_random_weights(S, np.random.default_rng(5), 0.5, 2.0)
    assert ((W != 0) != (S != 0)).nnz == 0
    assert abs(W - W.T).max() == 0 and 0.5 <= W.data.min() and W.data.max() <= 2.0
    assert len(np.unique(W.data)) == S.nnz // 2  # one draw per undirected edge


# --------------------------------------------------------------------------- bounds.py
def _tightness(S):
    K = gs.laplacian_pinv(S)
    R = gs.graph.effective_resistance(S)
    lam2 = gs.theory.algebraic_connectivity(S)
    rho = gs.graph.eccentricity(S)
    return gs.course.kernel_bound_tightness(
        np.diag(K), gs.theory.kernel_diagonal_bound(S), R.max(axis=1), 1 / lam2, rho
    )


def test_kernel_bound_tightness_counts_no_tie_on_a_tree():
    # on a tree max_q r_eff(t, q) = rho_t exactly: the resistance bound is never strictly below min(1/lambda_2, rho_t)
    for seed in range(3):
        S = _adj(nx.random_labeled_tree(30, seed=seed))
        row = _tightness(S)
        assert row["resistance tighter"] == 0
        assert 0 < row["mean K_tt / bound"] <= row["max K_tt / bound"] <= 1


def test_kernel_bound_tightness_on_a_cycle_and_by_hand():
    # r_eff(0, k) = k (n - k) / n < k: the resistance bound is tighter everywhere
    S = _adj(nx.cycle_graph(10))
    row = _tightness(S)
    assert row["resistance tighter"] == 1
    lam2 = 2 - 2 * np.cos(2 * np.pi / 10)
    assert row["1/lambda_2 binds"] == float(1 / lam2 < 5)
    # the shares count strict inequalities with a relative margin
    r = gs.course.kernel_bound_tightness([1.0, 1.0], [2.0, 2.0], [2.0, 1.0], 3.0, [3.0, 4.0])
    assert r == {"max K_tt / bound": 0.5, "mean K_tt / bound": 0.5, "1/lambda_2 binds": 0.5,
                 "mean K_tt / max_q r": 0.75, "resistance tighter": 0.5}  # fmt: skip


def test_kernel_bound_table_groups_in_order_of_appearance():
    rows = [
        {"family": "b", "n": 5} | gs.course.kernel_bound_tightness([1.0], [2.0], [1.5], 2.0, [3.0]),
        {"family": "a", "n": 9} | gs.course.kernel_bound_tightness([1.0], [4.0], [3.0], 4.0, [4.0]),
        {"family": "b", "n": 7} | gs.course.kernel_bound_tightness([1.0], [1.0], [2.0], 1.0, [1.0]),
    ]
    t = gs.course.kernel_bound_table(rows)
    assert list(t["family"]) == ["b", "a"]
    b = t.iloc[0]
    assert (b["graphs"], b["min nodes"], b["max nodes"]) == (2, 5, 7)
    assert b["max K_tt/bound"] == 1.0 and b["mean K_tt/bound"] == pytest.approx(0.75)
    assert b["share where max_q r < bound"] == 0.5 and b["share where 1/lambda_2 < rho_t"] == 0.5
    assert list(t.columns)[-1] == "share where max_q r < bound"


def test_low_rank_kernel_errors_measure_one_over_sigma_d_plus_1():
    _, S = graph.random_family_graph("Watts-Strogatz", np.random.default_rng(8))
    n = S.shape[0]
    emb = gs.spectral_embedding(S, n - 1, cache=False)
    K = gs.laplacian_pinv(S)
    with gs.spectral.any_basis():
        t = gs.course.low_rank_kernel_errors(emb, K, [1, 3, n - 2], rng=np.random.default_rng(0))
    assert np.allclose(t["||L+ - L_d+||_2 (Lanczos)"], 1 / emb.eigenvalues[[1, 3, n - 2]], rtol=1e-6)
    assert np.all(np.diff(t["share of tr L+ kept"]) > 0) and t["share of tr L+ kept"].iloc[-1] < 1
    assert np.all(t["max_t K_tt - ||m_t||^2"] >= -1e-12)


# --------------------------------------------------------------------------- plotting.py
def test_bin_edges_between_keeps_values_off_the_edges():
    vals = np.array([0.0, 1.0 - 1e-15, 1.0, 1.0 + 1e-15, 1.5, 1.97])
    edges = figures.bin_edges_between(vals, 0.025)
    assert edges[0] < vals.min() and edges[-1] > vals.max()
    assert np.allclose(np.diff(edges), 0.025)
    counts, _ = np.histogram(vals, edges)
    assert counts.max() == 3  # the three copies of 1 share a bar, whatever their last bits
    assert np.min(np.abs(vals[:, None] - edges[None, :])) > 1e-3
    # a value on the half-bin grid pushes the grid to another offset
    shifted = figures.bin_edges_between([0.0, 0.5], 1.0)
    assert np.min(np.abs(np.array([0.0, 0.5])[:, None] - shifted[None, :])) >= 1e-6
    with pytest.raises(ValueError):
        figures.bin_edges_between([np.nan], 1.0)
    with pytest.raises(ValueError):
        figures.bin_edges_between([1.0], 0.0)


def _fonts_at_least(fig, size=7):
    fig.canvas.draw()
    texts = [t for t in fig.findobj(matplotlib.text.Text) if t.get_text()]
    return min(t.get_fontsize() for t in texts) >= size


def test_chapter_01_figures():
    S = _adj(nx.barbell_graph(5, 0))
    lam_L = np.linalg.eigvalsh(gs.laplacian(S).toarray())
    lam_N = np.linalg.eigvalsh(gs.normalized_laplacian(S).toarray())
    fig = figures.laplacian_spectra(lam_L, lam_N, "barbell", spike_label="eigenvalue 1")
    assert len(fig.axes) == 2 and _fonts_at_least(fig)
    plt.close(fig)
    f = np.array([-1.0] * 5 + [1.0] * 5)
    pos = nx.circular_layout(nx.barbell_graph(5, 0))
    cuts = {"Fiedler": graph.cut_sizes_along(S, np.argsort(-graph.fiedler_vector(S), kind="stable")),
            "random": graph.cut_sizes_along(S, np.random.default_rng(0).permutation(10))}  # fmt: skip
    fig = figures.labelling_explorer(S, pos, f, cuts, graph="barbell", order="Fiedler", max_K=1.0)
    assert cuts["Fiedler"][5] == 1 and _fonts_at_least(fig)
    labels = [t.get_text() for t in fig.axes[1].get_legend().get_texts()]
    assert labels == ["Fiedler order", "random order", "this labelling", "bound $= n$"]
    plt.close(fig)
    fig, ax = plt.subplots()
    figures.draw_labelling(ax, S, pos, f)
    assert [h.get_label() for h in figures.labelling_handles()][2:] == ["cut edge", "uncut edge"]
    plt.close(fig)


def test_kernel_bound_panels_one_panel_per_graph_and_every_series_in_the_legend():
    panels = []
    for name, G in (("path", nx.path_graph(12)), ("cycle", nx.cycle_graph(12)), ("star", nx.star_graph(6))):
        S = _adj(G)
        R = gs.graph.effective_resistance(S)
        panels.append((name, gs.graph.kernel_diagonal(S), gs.theory.kernel_diagonal_bound(S), R.max(axis=1)))
    panels.append(("no resistance", panels[0][1], panels[0][2], None))
    panels.append(("fifth", panels[1][1], panels[1][2], panels[1][3]))
    fig = figures.kernel_bound_panels(panels, ncols=4)
    visible = [ax for ax in fig.axes if ax.axison]
    assert len(fig.axes) == 8 and len(visible) == 5
    assert [t.get_text() for t in fig.legends[0].get_texts()] == [
        r"$\min(1/\lambda_2,\ \rho_t)$", r"$\max_q r_{\rm eff}(t, q)$", r"$K_{tt}$ = bound"]  # fmt: skip
    assert _fonts_at_least(fig)
    plt.close(fig)
    assert sp.issparse(_adj(nx.path_graph(3)))
