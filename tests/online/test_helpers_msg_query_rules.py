"""Library helpers of chapters 09 (MSG) and 10 (BBQ, BBQ_ε, DGS): bounds and figures."""

import matplotlib
import numpy as np
import pandas as pd
import pytest

import graphsel_lib as gs
from conftest import dense_embedding, random_connected_graph, smooth_labels
from graphsel_lib.collection import plotting
from graphsel_lib.course import figures
from graphsel_lib.online import BBQ, CMOG, MSG, BBQEps, run
from graphsel_lib.online.cmog_msg import definition1_target


@pytest.fixture
def problem():
    """A connected graph of 80 nodes, its rank-10 embedding and three smooth classes."""
    rng = np.random.default_rng(7)
    S = random_connected_graph(rng, 80, p=0.08)
    M = np.asfortranarray(dense_embedding(S, 10))
    return M, smooth_labels(M, rng, 3)


# --------------------------------------------------------------------------- MSG (chapter 09)
def test_aggressive_threshold_is_the_root_of_theta():
    rng = np.random.default_rng(0)
    for K in (2, 3, 7):
        r, delta = rng.uniform(0, 1, 500), rng.uniform(0, 3, 500)
        theta = 0.5 * delta**2 + 2 * delta - K * r
        np.testing.assert_array_equal(theta < 0, delta < gs.theory.msg_aggressive_threshold(K, r))
        # yang2016's "r_t = 1" (its r_t is our v_t, so our r = 1/2) gives sqrt(4 + K) - 2
        assert gs.theory.msg_aggressive_threshold(K, 0.5) == pytest.approx(np.sqrt(4 + K) - 2)


def test_msg_records_the_threshold_rule(problem):
    M, y = problem
    tr = run(MSG(gamma=1.0, h=0.01), M, y, seed=3, record=gs.theory.MSG_RECORD)
    v = tr.records["v"]
    agg = tr.records["aggressive"].astype(bool)
    np.testing.assert_array_equal(
        agg, tr.records["margin"] < gs.theory.msg_aggressive_threshold(3, v / (1 + v))
    )


def test_progress_sums_to_lemma1_over_the_updates(problem):
    """Σ_M P_t = G* − 2|M| for CMOG (Lemma 1 by a direct solve), and P_t ≥ Θ_t on every mistake."""
    M, y = problem
    tr = run(CMOG(gamma=1.0), M, y, seed=1, record=("v",))
    P = gs.theory.msg_progress(tr.scores, tr.records["v"], tr.labels)
    idx = np.flatnonzero(tr.mistakes)
    Z = np.array([definition1_target(list(tr.scores[t]), int(tr.labels[t])) for t in idx])
    Xm = M[:, tr.order[idx]]
    A, B = np.eye(M.shape[0]) + Xm @ Xm.T, Xm @ Z
    G_star = np.sum(Z**2) - np.trace(B.T @ np.linalg.solve(A, B))
    assert P[idx].sum() == pytest.approx(G_star - 2 * idx.size, rel=1e-9, abs=1e-9)
    f, v = tr.scores[idx], tr.records["v"][idx]
    top = np.sort(f, axis=1)
    delta = top[:, -1] - top[:, -2]
    theta = 0.5 * delta**2 + 2 * delta - 3 * v / (1 + v)
    assert np.all(P[idx] >= theta - 1e-12)


def test_progress_validates_its_inputs():
    with pytest.raises(ValueError):
        gs.theory.msg_progress([[0.0, 1.0]], [1.0, 2.0], [0])
    with pytest.raises(ValueError):
        gs.theory.msg_progress([[0.0, 1.0]], [1.0], [2])


@pytest.mark.parametrize("aggressive", [True, False])
def test_msg_theorems_on_a_small_graph(problem, aggressive):
    M, y = problem
    U0 = np.linalg.solve(np.eye(M.shape[0]) + M @ M.T, M @ np.eye(3)[y])
    order = np.random.default_rng(2).permutation(y.size)
    th = gs.theory.msg_theorems(M, y, order, [1, 2, 3], U0, gamma=1.0, h=0.05, aggressive=aggressive)
    assert len(th.runs) == 3 and th.aggressive is aggressive
    assert min(s for k, s in th.min_slack.items() if k != "(*)") >= -1e-12 and th.min_slack["(*)"] >= -1e-8
    assert th.lemma1_error < 1e-9
    assert th.bound_ours <= th.bound_paper + 1e-9  # ours never exceeds the printed form
    for q in th.runs:  # per run as well, at every c
        assert np.all(q.ours <= q.paper + 1e-9)
        assert q.expected_queries >= q.n_deterministic and q.queried >= q.n_deterministic
        assert q.n_deterministic_mistakes <= q.n_deterministic
    if not aggressive:
        assert th.n_aggressive_correct == 0
    row = th.table_row()
    assert (
        list(row)[:3] == ["E|M|", "bound (ours)", "bound (as printed)"] and row["4 s.e."] == 4 * th.query_se
    )
    # the same numbers as a run by hand
    tr = run(MSG(gamma=1.0, h=0.05, aggressive=aggressive), M, y, order=order, seed=1)
    assert th.runs[0].mistakes == tr.n_mistakes and th.runs[0].queried == tr.n_queried


def test_msg_theorems_rejects_bad_input(problem):
    M, y = problem
    U0 = np.zeros((M.shape[0], 3))
    with pytest.raises(ValueError):
        gs.theory.msg_theorems(M, y, np.arange(y.size), [], U0, gamma=1.0, h=0.1)
    with pytest.raises(ValueError):
        gs.theory.msg_theorems(M, y, np.arange(y.size), [0], U0[:, :2], gamma=1.0, h=0.1)
    with pytest.raises(ValueError):
        gs.theory.msg_theorems(M, y, np.arange(y.size), [0], U0, gamma=1.0, h=0.1, c_grid=[-1.0])


# --------------------------------------------------------------------------- BBQ and BBQ_ε (chapter 10)
def test_bbq_r_is_below_its_cap(problem):
    M, y = problem
    for gamma in (0.5, 1.0, 4.0):
        tr = run(BBQ(kappa=0.6, gamma=gamma), M, y, seed=0, record=("r",))
        cap = gs.theory.bbq_r_cap(np.sum(M[:, tr.order] ** 2, axis=0), gamma)
        assert np.all(tr.records["r"] <= cap + 1e-12)
    assert gs.theory.bbq_r_cap(1.0, 1.0) == 0.5
    with pytest.raises(ValueError):
        gs.theory.bbq_r_cap(-1.0, 1.0)


@pytest.mark.parametrize("norm_sq", [0.3, 2.0, (1 - 1e-6) ** 2])
def test_bbq_first_query_on_constant_norm_features(problem, norm_sq):
    M, y = problem
    X = np.asfortranarray(M / np.linalg.norm(M, axis=0) * np.sqrt(norm_sq))
    for kappa in (0.2, 0.3, 0.5, 0.8, 1.0):
        t, gap = gs.theory.bbq_first_query(norm_sq, 1.0, kappa)
        if t > y.size:
            continue
        assert gap > 1e-9  # no tie: the run cannot depend on rounding
        tr = run(BBQ(kappa=kappa, gamma=1.0), X, y, seed=0)
        assert int(np.flatnonzero(tr.queried)[0]) + 1 == t


def test_bbq_first_query_sees_the_unit_norm_tie():
    assert gs.theory.bbq_first_query(1.0, 1.0, 0.5) == (5, 0.0)  # r = 1/2 = 4^(-1/2) exactly
    assert gs.theory.bbq_first_query(1.0, 1.0, 1.0)[1] == 0.0
    t, gap = gs.theory.bbq_first_query((1 - 1e-6) ** 2, 1.0, 0.5)
    assert t == 5 and gap == pytest.approx(1e-6, rel=1e-3)
    assert gs.theory.bbq_first_query(1.0, 1.0, 0.4)[0] == 6  # 2^2.5 = 5.66


def test_bbq_eps_formulas_match_direct_solves(problem):
    M, y = problem
    tr = run(BBQEps(eps=0.3), M, y, seed=0)
    S = M[:, tr.order[tr.queried]]
    nodes = np.arange(0, y.size, 3)
    for k in (0, 1, 10, S.shape[1]):
        dev = gs.theory.bbq_eps_formulas(M, S[:, :k], nodes, 1.0)
        assert dev["r"] < 1e-12 and dev["s"] < 1e-12 and dev["q"] < 1e-10
        assert np.isnan(dev["shortcut"]) if k == 0 else dev["shortcut"] < 1e-6


# --------------------------------------------------------------------------- figures
def _smallest_font(fig):
    sizes = [t.get_fontsize() for t in fig.findobj(matplotlib.text.Text) if t.get_visible() and t.get_text()]
    fig.canvas.draw()
    plotting.plt.close(fig)
    return min(sizes)


def test_math_label():
    assert figures.math_label("BBQ, kappa=0.8") == r"BBQ, $\kappa$ = 0.8"
    assert figures.math_label("Random, p=0.319") == "Random, $p$ = 0.319"
    assert figures.math_label("MSG, 2h/(2h+Theta)") == r"MSG, 2h/(2h+$\Theta$)"
    assert figures.math_label("DGS") == "DGS"


def test_chapter_09_figures_have_readable_text(problem):
    M, y = problem
    T = y.size
    rows = [
        {"graph": g, "variant": v, "h": h, "error": 0.2 + 0.01 * i, "query ratio": 0.1 * (i + 1)}
        for g in ("a", "b")
        for v in ("MSG, 2h/(2h+Theta)", "other")
        for i, h in enumerate([1e-3, 1e-2, 1e-1])
    ]
    sweep = pd.DataFrame(rows)
    fig = figures.msg_h_sweep_figure(sweep, ["MSG, 2h/(2h+Theta)", "other"], {"a": (0.2, 30), "b": (0.3, 40)},
                                      {"a": T, "b": T})  # fmt: skip
    assert _smallest_font(fig) >= 7
    tr = run(MSG(gamma=1.0, h=0.01), M, y, seed=0, record=gs.theory.MSG_RECORD)
    assert _smallest_font(figures.msg_query_anatomy_figure(tr, 3, title="toy")) >= 7
    curve = pd.DataFrame({"error": [0.3, 0.25], "query ratio": [0.2, 0.6]}, index=[1e-3, 1e-1])
    fig = figures.msg_tradeoff_figure(curve, 1e-1, tr, (0.2, 30), name="toy", n_nodes=T, n_orders=2)
    assert _smallest_font(fig) >= 7


def test_chapter_10_figures_have_readable_text(problem):
    M, y = problem
    T = y.size
    stream = {m: run(L, M, y, seed=0) for m, L in
              {"BBQ, kappa=0.4": BBQ(kappa=0.4), "BBQ_eps, eps=0.3": BBQEps(eps=0.3)}.items()}  # fmt: skip
    fig = figures.query_raster_figure(stream, title="toy")
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert all("kappa=" not in s and "eps=" not in s and r"\kappa" in labels[0] for s in labels)
    assert _smallest_font(fig) >= 7
    curves = {("a", m): np.linspace(1, 0.5, T) for m in ("BBQ, kappa=0.4", "DGS", "MSG, h=1e-3")}
    fig = figures.query_ratio_figure(curves, ["a"], {"a": T}, n_orders=2, light=("BBQ, kappa=0.4",))
    assert _smallest_font(fig) >= 7
    table = pd.DataFrame(
        [
            {"graph": "a", "scaling": s, "kappa": k, "query ratio": 0.1 + k / 2}
            for s in ("raw", "unit")
            for k in (0.2, 0.4)
        ]
    )
    streams = {("a", s): (np.linspace(0.5, 0.01, T), np.arange(1, T + 1) ** -0.4) for s in ("raw", "unit")}
    fig = figures.bbq_scaling_figure(streams, table, {"a": 30}, {"a": T}, name="a", kappa=0.4,
                                      scalings={"raw": "raw", "unit": "unit norm"})  # fmt: skip
    assert _smallest_font(fig) >= 7
