"""Helpers of chapters 07 (the low-rank kernel) and 08 (CMOG): the Eckart–Young table, the Theorem 1 row, two figures."""

import matplotlib

matplotlib.use("agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import graphsel_lib as gs  # noqa: E402
from conftest import random_connected_graph  # noqa: E402
from graphsel_lib.collection import plotting  # noqa: E402
from graphsel_lib.course import figures


@pytest.fixture(autouse=True)
def _close_figures_and_restore_style():
    with matplotlib.rc_context():
        yield
    plt.close("all")


def _exact(seed, n=30):
    S = random_connected_graph(np.random.default_rng(seed), n, p=0.2)
    emb = gs.spectral_embedding(S, n - 1, cache=False)
    return S, emb, gs.laplacian_pinv(S)


# --------------------------------------------------------------------------- chapter 07
def test_nystrom_kernel_reproduces_its_landmark_columns():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((6, 12))
    K = X.T @ X  # PSD, rank 6
    J = [0, 3, 7]
    N = gs.course.nystrom_kernel(K, J)
    np.testing.assert_allclose(N[:, J], K[:, J], atol=1e-10)  # exact on the landmark columns
    np.testing.assert_allclose(N, N.T, atol=1e-12)
    assert np.linalg.matrix_rank(N, tol=1e-8) <= len(J)
    assert np.min(np.linalg.eigvalsh(K - N)) > -1e-9  # the Schur complement: K - N is PSD
    # every column: the whole kernel when the landmarks span its range
    np.testing.assert_allclose(gs.course.nystrom_kernel(K, range(12)), K, atol=1e-9)


@pytest.mark.parametrize("seed", range(3))
def test_eckart_young_errors_meet_the_theorem(seed):
    S, emb, K = _exact(seed)
    inv = 1 / emb.eigenvalues
    ranks = [1, 3, 7, 15]
    ey = gs.course.eckart_young_errors(emb, K, ranks, n_competitors=3, rng=np.random.default_rng(seed))
    assert list(ey.columns[:6]) == ["d", "1/sigma_{d+1}", "||L+ - L_d+||_2 (Lanczos)", "||L+ - L_d+||_F",
                                    "best Nystrom ||.||_2", "best perturbed projection ||.||_2"]  # fmt: skip
    assert list(ey["d"]) == ranks
    np.testing.assert_allclose(ey["1/sigma_{d+1}"], inv[ranks], rtol=1e-12)
    np.testing.assert_allclose(ey["||L+ - L_d+||_2 (Lanczos)"], inv[ranks], rtol=1e-8)
    tail = np.sqrt([np.sum(inv[d:] ** 2) for d in ranks])
    np.testing.assert_allclose(ey["||L+ - L_d+||_F"], tail, rtol=1e-10)
    for kind in ("Nystrom", "perturbed projection"):
        assert np.all(ey[f"best {kind} ||.||_2"] >= inv[ranks] * (1 - 1e-9))
        assert np.all(ey[f"best {kind} ||.||_F"] >= tail * (1 - 1e-9))


def test_eckart_young_errors_best_of_brute_force_competitors():
    S, emb, K = _exact(5, n=20)
    n, d = K.shape[0], 4
    ey = gs.course.eckart_young_errors(emb, K, [d], n_competitors=2, rng=np.random.default_rng(1))
    rng = np.random.default_rng(1)  # the same draws, in the documented order
    rng.standard_normal(n)  # the Lanczos start
    nys, proj = [], []
    for _ in range(2):
        nys.append(gs.course.nystrom_kernel(K, rng.choice(n, size=d, replace=False)))
        Q, _ = np.linalg.qr(emb.eigenvectors[:, :d] + 0.5 * rng.standard_normal((n, d)) / np.sqrt(n))
        proj.append(Q @ (Q.T @ K @ Q) @ Q.T)
    for kind, Xs in (("Nystrom", nys), ("perturbed projection", proj)):
        assert ey[f"best {kind} ||.||_2"].iloc[0] == pytest.approx(
            min(np.linalg.norm(K - X, 2) for X in Xs), rel=1e-8
        )
        assert ey[f"best {kind} ||.||_F"].iloc[0] == pytest.approx(
            min(np.linalg.norm(K - X) for X in Xs), rel=1e-12
        )


# --------------------------------------------------------------------------- chapter 08
def _cmog_run(seed=0, n=60, K=3):
    rng = np.random.default_rng(seed)
    S = random_connected_graph(rng, n, p=0.1)
    y = rng.integers(0, K, n)
    y[:K] = np.arange(K)  # every class present
    M = gs.spectral_embedding(S, 8, cache=False).M
    tr = gs.online.run(gs.online.CMOG(gamma=1.0), M, y, seed=seed, record=("v",))
    Y = np.eye(K)[y]
    comps = {
        "graph": M @ (gs.laplacian(S) @ Y),
        "ridge": np.linalg.solve(np.eye(M.shape[0]) + M @ M.T, M @ Y),
    }
    return M, tr, comps


def test_cmog_theorem1_table_row_names_every_column():
    M, tr, comps = _cmog_run()
    th = gs.theory.cmog_theorem1(M, tr, comps, gamma=1.0)
    row = th.table_row()
    assert row["T"] == tr.n_rounds and row["mistakes"] == tr.n_mistakes
    assert row["sum_M r_t"] == th.sum_r and row["sum_all r_t"] == th.sum_r_all
    assert row["logdet A_M/gamma"] == th.logdet and row["d ln(1+R^2|M|/d)"] == th.d_log
    assert row["Lemma 2 rel. error, VAW f"] == th.lemma2_error
    for name, cb in th.comparators.items():
        assert row[f"{name}: paper bound"] == cb.paper_bound == cb.paper_h.min()
        assert row[f"{name}: our bound at that c"] == cb.our_bound
        assert row[f"{name}: c"] == cb.c and row[f"{name}: h"] == cb.h
        assert row[f"{name}: hinge (all t)"] + row[f"{name}: sqrt(2 tr sum r) (all t)"] == pytest.approx(
            cb.paper_bound
        )
        assert row[f"{name}: neg. margins"] == np.sum(cb.margins_all < 0)
    assert len(row) == 8 + 7 * len(comps)


def test_theorem1_terms_figure_draws_every_term(tmp_path):
    hs = np.logspace(-3, 2, 50)
    fig = figures.theorem1_terms_figure(hs, 100.0, 40.0, 30.0, mistakes=60, T=200, title="test")
    ax = fig.axes[0]
    labels = [h.get_label() for h in ax.get_legend_handles_labels()[0]]
    assert len(labels) == 6 and "bound (sum)" in labels and "$T$ = 200" in labels
    total = ax.get_lines()[3].get_ydata()
    np.testing.assert_allclose(total, 100 + 20 * hs + 30 / hs)
    assert min(t.get_fontsize() for t in ax.get_legend().get_texts()) >= 7
    plotting.savefig(fig, "t1", directory=tmp_path)
    assert (tmp_path / "t1.png").is_file()


def test_cumulative_error_panels_rates_offsets_and_legend():
    T = 100
    cum = np.cumsum(np.random.default_rng(0).random(T) < 0.3)
    panels = {"a": {"one": cum, "two": cum}, "b": {"one": cum, "two": cum}}
    styles = {
        "one": dict(color="C0", ls="-", marker="o", lw=3),
        "two": dict(color="C1", ls=":", marker="s", offset=1.6),
    }
    fig = figures.cumulative_error_panels(
        panels, styles, published={"a": (0.3, "published")}, titles={"a": "A", "b": "B"}
    )
    ax_a, ax_b = fig.axes
    one, two = ax_a.get_lines()[:2]
    np.testing.assert_allclose(one.get_ydata(), cum / np.arange(1, T + 1))
    assert list(one.get_markevery()) != list(
        two.get_markevery()
    )  # offset markers stay visible on a shared curve
    labels = ax_a.get_legend_handles_labels()[1]
    assert labels == ["one", "two", "published"] and ax_b.get_legend() is None
    assert ax_a.get_title() == "A" and ax_a.get_xscale() == "log"
    assert min(t.get_fontsize() for t in ax_a.get_legend().get_texts()) >= 7
