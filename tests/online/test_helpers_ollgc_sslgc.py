"""Helpers that notebooks 05 (OLLGC) and 06 (SSLGC) call: the graph comparator, the vacuity reading, two figure helpers."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import graphsel_lib as gs  # noqa: E402
from conftest import dense_embedding, random_connected_graph  # noqa: E402
from graphsel_lib.collection import plotting  # noqa: E402
from graphsel_lib.course import figures


def _labels(rng, n):
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    y[:2] = (1.0, -1.0)  # both classes, so the cut is not empty
    return y


@pytest.mark.parametrize("weighted", [False, True])
def test_graph_comparator_exact_kernel_represents_the_labels(weighted):
    rng = np.random.default_rng(5)
    for _ in range(10):
        n = int(rng.integers(4, 30))
        S = random_connected_graph(rng, n, weighted=weighted)
        M = dense_embedding(S, n - 1)
        y = _labels(rng, n)
        u = gs.theory.graph_comparator(M, S, y)
        L = gs.laplacian(S)
        # ||u||^2 = y^T L L^+ L y = y^T L y, which is 4 Phi(y) (Phi counts each cut edge once, with its weight)
        assert u @ u == pytest.approx(y @ (L @ y), rel=1e-9)
        assert u @ u == pytest.approx(4 * gs.cut_size(S, y), rel=1e-9)
        np.testing.assert_allclose(M.T @ u, y - y.mean(), atol=1e-9)
        for b in (0.5, 1.0, 4.0):
            ub = gs.theory.graph_comparator(M, S, y, b=b)
            assert ub.shape == (n,) and ub[-1] == pytest.approx(y.mean() / np.sqrt(b))
            np.testing.assert_allclose(gs.add_bias(M, b).T @ ub, y, atol=1e-9)  # the bias restores the mean


def test_graph_comparator_low_rank_norm_is_below_the_cut():
    rng = np.random.default_rng(8)
    for _ in range(10):
        n = int(rng.integers(6, 40))
        S = random_connected_graph(rng, n, weighted=True)
        y = _labels(rng, n)
        for d in (1, n // 2, n - 2):
            u = gs.theory.graph_comparator(dense_embedding(S, d), S, y)
            assert u @ u <= 4 * gs.cut_size(S, y) * (1 + 1e-9)


def test_graph_comparator_is_the_notebook_formula_bit_for_bit():
    # notebook 05 computed M @ (laplacian(S) @ y) inline; the committed tables rest on exactly these floats
    g = gs.load_dataset("karate")
    M = gs.spectral_embedding(g.adjacency, 8).M
    y = np.where(g.labels == 1, 1, -1)
    ref = M @ (gs.laplacian(g.adjacency) @ y)
    assert np.array_equal(gs.theory.graph_comparator(M, g.adjacency, y), ref)
    assert np.array_equal(gs.theory.graph_comparator(M, g.adjacency, y, b=1.0), np.append(ref, y.mean()))


def test_graph_comparator_bad_input():
    rng = np.random.default_rng(1)
    S = random_connected_graph(rng, 6)
    M = dense_embedding(S, 3)
    y = _labels(rng, 6)
    with pytest.raises(ValueError):
        gs.theory.graph_comparator(M, S, y[:-1])
    with pytest.raises(ValueError):
        gs.theory.graph_comparator(M[:, :-1], S, y[:-1])
    with pytest.raises(ValueError):
        gs.theory.graph_comparator(M, S, y, b=-1.0)
    with pytest.raises(TypeError):
        gs.theory.graph_comparator(M, S, y, 1.0)  # b is keyword-only


def test_vacuous_from_reads_the_final_run_above_T():
    f = gs.theory.vacuous_from
    assert f([0.1, 0.2, 0.3, 0.4], [50, 120, 90, 400], 100) == 0.4  # a dip below T resets
    assert f([0.1, 0.2, 0.3], [200, 300, 400], 100) == 0.1  # vacuous everywhere
    assert f([0.1, 0.2, 0.3], [20, 30, 40], 100) is None
    assert f([0.1, 0.2, 0.3], [20, 300, 40], 100) is None  # not above T at the largest kappa
    assert f([0.3, 0.1, 0.2], [400, 50, 300], 100) == 0.2  # any order of the grid
    assert f([0.1, 0.2], [50, 100], 100) is None  # equal to T is not above it
    assert f([], [], 100) is None


def test_vacuous_from_on_the_label_bound():
    # gu2013's implicit bound as a number, read on a grid of kappa: it grows with kappa, so one crossing
    T, d = 2485, 21
    kappas = np.round(np.arange(0.1, 1.01, 0.1), 1)
    vals = [gs.theory.sslgc_label_bound(T, d, mu=1.0, kappa=k) for k in kappas]
    k0 = gs.theory.vacuous_from(kappas, vals, T)
    assert all((v > T) == (k >= k0) for k, v in zip(kappas, vals, strict=True))


def test_vacuous_from_bad_input():
    with pytest.raises(ValueError):
        gs.theory.vacuous_from([0.1, 0.1], [1.0, 2.0], 10)
    with pytest.raises(ValueError):
        gs.theory.vacuous_from([0.1, 0.2], [1.0], 10)
    with pytest.raises(ValueError):
        gs.theory.vacuous_from([0.1, 0.2], [1.0, 2.0], 0)


def test_proxy_handles_styles():
    hs = figures.proxy_handles(
        [
            ("Cora", {"color": "#0072B2"}),
            ("bias", {"marker": "s"}),
            ("= bound", {"ls": "--", "color": "black"}),
        ]
    )
    assert [h.get_label() for h in hs] == ["Cora", "bias", "= bound"]
    assert hs[0].get_marker() == "o" and hs[0].get_linestyle() == "None" and hs[0].get_color() == "#0072B2"
    assert hs[1].get_marker() == "s" and hs[1].get_color() == "0.35"
    assert hs[2].get_linestyle() == "--" and hs[2].get_marker() == "None"


def test_node_score_map_draws_every_node_and_rings_the_mistakes():
    g = gs.load_dataset("karate")
    y = np.where(g.labels == 1, 1, -1)
    rng = np.random.default_rng(0)
    xy = rng.random((g.n_nodes, 2))
    ii, jj = g.adjacency.nonzero()
    edges = [(xy[i], xy[j]) for i, j in zip(ii, jj, strict=True) if i < j]
    scores = rng.standard_normal(g.n_nodes)
    fig, ax = plotting.subplots()
    sc = figures.node_score_map(ax, xy, edges, scores, y, class_names=g.class_names, mistakes=[0, 5, 7])
    sizes = [len(c.get_offsets()) for c in ax.collections[1:]]
    assert sizes == [int((y == -1).sum()), int((y == 1).sum()), 3]
    assert sc.norm.vmin == -sc.norm.vmax == -np.abs(scores).max()  # symmetric: the colour's side is the sign
    assert [t.get_text() for t in ax.legend().get_texts()][-1] == "mistake in the pass"
    plotting.plt.close(fig)
