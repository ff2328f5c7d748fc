"""Helpers of notebooks 11 and 12: reach, bandwidth comparisons, the GP's Hessian product, naive EM, figures."""

import matplotlib

matplotlib.use("agg")

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from scipy.special import softmax

from graphsel_lib import course as C
from graphsel_lib import transductive as T
from graphsel_lib.course import figures
from graphsel_lib.transductive import reference as R


def _blobs(n_per=10, seed=0):
    """Two separated Gaussian blobs in 3-D, binary labels."""
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal(0, 1, (n_per, 3)), rng.normal(4, 1, (n_per, 3))])
    return X, np.r_[np.zeros(n_per, int), np.ones(n_per, int)]


def _graph(n=24, K=3, seed=0):
    rng = np.random.default_rng(seed)
    A = np.triu((rng.random((n, n)) < 0.25) * rng.uniform(0.5, 2, (n, n)), 1)
    A[np.arange(n - 1), np.arange(1, n)] = 1.0
    S = sp.csr_matrix(A + A.T)
    y = np.arange(n) % K
    return S, y


# --------------------------------------------------------------------------- notebook 11
def test_draw_labelled_set_has_the_classes_and_is_reproducible():
    y = np.r_[np.zeros(30, int), np.ones(5, int)]
    a = C.draw_labelled_set(y, 6, np.random.default_rng(3))
    b = C.draw_labelled_set(y, 6, np.random.default_rng(3))
    assert np.array_equal(a, b) and a.size == 6 and np.all(np.diff(a) > 0)
    assert np.bincount(y[a], minlength=2).min() >= 2
    with pytest.raises(ValueError):
        C.draw_labelled_set(y, 3, np.random.default_rng(0))
    assert np.array_equal(C.draw_labelled_set(y, 6, 3), a)  # an integer seed draws as default_rng(seed)
    with pytest.warns(DeprecationWarning, match=r"the keyword n_labeled= is renamed n_labelled="):
        assert np.array_equal(C.draw_labelled_set(y, n_labeled=6, rng=np.random.default_rng(3)), a)


def test_the_panels_of_the_learned_graphs_figure_need_the_key_labelled():
    panel = {"title": "a", "i": [0], "j": [1], "w": [1.0], "labeled": [0], "stranded": [False, False]}
    with pytest.raises(KeyError, match="needs the key 'labelled'"):
        figures.learned_graphs_figure(np.zeros((2, 2)), [0, 1], [panel], class_names=["a", "b"], title="t")


def test_reach_probability_is_the_absorption_probability_of_the_walk():
    X, y = _blobs()
    lab = np.array([0, 1, 10, 11])
    sigma = np.array([1.5, 2.0, 1.0])
    eps = 0.05
    unl, r = C.reach_probability(X, lab, sigma, eps=eps)
    P = T.smoothed_transition(X, sigma, eps=0.0)
    Q = (1 - eps) * P[np.ix_(unl, unl)]
    step = (1 - eps) * P[np.ix_(unl, lab)].sum(1)
    acc, term = np.zeros(unl.size), step.copy()
    for _ in range(3000):  # sum_k Q^k step: the walk reaches L at step k+1 without a jump
        acc += term
        term = Q @ term
    assert np.array_equal(unl, np.setdiff1d(np.arange(len(y)), lab))
    np.testing.assert_allclose(r, acc, atol=1e-10)
    assert np.all((r > 0) & (r <= 1))
    _, r0 = C.reach_probability(X, lab, sigma, eps=0.0)  # no jumps: every node is reached
    np.testing.assert_allclose(r0, 1.0, atol=1e-10)


def test_compare_bandwidth_learners_table_and_fits():
    X, y = _blobs(8)
    runs, fitted = C.compare_bandwidth_learners(X, y, n_labelled=4, n_splits=2, seed=0, maxiter=3, shrink=0.1)
    names = [m.format(shrink=0.1) for m in C.BANDWIDTH_METHODS]
    assert list(runs["method"].unique()) == names and len(runs) == 8
    for (name, split), (lab, sig, r) in fitted.items():
        row = runs[(runs["method"] == name) & (runs["split"] == split)].iloc[0]
        assert row["stranded"] == np.mean(r < 0.5) and row["min reach"] == r.min()
        assert sig.shape == (3,) and lab.size == 4
    hem = runs[runs["method"] == names[0]]
    assert (hem["spread (decades)"] == 0).all()
    summary = C.summarise_bandwidth_learners(runs)
    assert list(summary["method"]) == names
    assert list(summary.columns[1:]) == ["error mean", "error std", "stranded mean", "stranded max", "lowest reach",
                                         "LOO loss median", "spread median"]  # fmt: skip


def test_walk_edge_weights_and_cross_class_mass():
    X, y = _blobs()
    sigma = 2.0
    i, j, w = C.walk_edge_weights(X, sigma, min_weight=0.05)
    P = T.smoothed_transition(X, sigma, eps=0.0)
    W = np.maximum(P, P.T)
    assert np.all(i < j) and np.all(w >= 0.05) and np.all(w <= 1)
    np.testing.assert_array_equal(w, W[i, j])
    assert len(w) == int(np.sum(np.triu(W >= 0.05, 1)))
    manual = np.mean([P[a, y != y[a]].sum() for a in range(len(y))])
    assert C.cross_class_mass(X, y, sigma) == pytest.approx(manual, rel=1e-12)
    assert C.cross_class_mass(X, np.zeros_like(y), sigma) == 0.0


def test_labelled_per_class_and_the_cmn_accuracy_table():
    y = np.array([0, 0, 0, 1, 1, 1, 2, 2])
    lab = C.labelled_per_class(y, 2, np.random.default_rng(1))
    assert np.array_equal(np.bincount(y[lab]), [2, 2, 2])
    lab2 = C.labelled_per_class(y, 1, [np.random.default_rng([0, k]) for k in range(3)])
    assert np.array_equal(np.bincount(y[lab2]), [1, 1, 1])
    with pytest.raises(ValueError):
        C.labelled_per_class(y, 1, [np.random.default_rng(0)])
    S, yk = _graph(18, 2)
    acc = C.harmonic_cmn_accuracy(S, yk, [1, 2], range(3), seed=5)
    assert list(acc.columns) == ["per class", "draw", "harmonic", "CMN"] and len(acc) == 6
    row = acc.iloc[4]  # per class 2, draw 1
    lab = C.labelled_per_class(yk, 2, np.random.default_rng([5, 1, 2]))
    unl = np.setdiff1d(np.arange(18), lab)
    assert row["CMN"] == np.mean(T.harmonic(S, yk, lab, cmn=True)[unl].argmax(1) == yk[unl])


# --------------------------------------------------------------------------- notebook 12
@pytest.mark.parametrize("balanced", [False, True])
def test_gp_hessp_matches_differences_of_the_gradient_and_is_symmetric(balanced):
    S, y = _graph()
    Kinv = T.gp_kernel_inverse(S, 0.1)
    lab = np.array([0, 4, 8, 13, 17, 21])
    rng = np.random.default_rng(2)
    t = rng.normal(0, 1, (24, 3))
    t[:, 0] += 1.0
    V, W = rng.normal(0, 1, (2, 24, 3))
    bal = (np.full(3, 0.3), np.array([0.34, 0.4, 0.4])) if balanced else None
    if balanced:
        _, gamma = T.solve_balanced_q(t[np.setdiff1d(np.arange(24), lab)], *bal)
        assert np.abs(gamma).max() > 1e-6  # the constraint binds

    def grad(x):
        return T.gp_objective(Kinv, y, lab, x, sigma2=2.0, balance=bal)[1]

    h = 1e-5
    fd = (grad(t + h * V) - grad(t - h * V)) / (2 * h)
    hv = T.gp_hessp(Kinv, y, lab, t, V, sigma2=2.0, balance=bal)
    assert np.abs(hv - fd).max() < 1e-5 * np.abs(fd).max()
    hw = T.gp_hessp(Kinv, y, lab, t, W, sigma2=2.0, balance=bal)
    assert abs(np.sum(W * hv) - np.sum(V * hw)) < 1e-10 * np.abs(hv).sum()


def test_variational_bound_at_softmax_and_at_one_hot():
    S, y = _graph()
    Kinv = T.gp_kernel_inverse(S, 0.1)
    lab = np.array([0, 4, 8, 13, 17, 21])
    unl = np.setdiff1d(np.arange(24), lab)
    t = np.random.default_rng(0).normal(0, 2, (24, 3))
    phi = T.gp_objective(Kinv, y, lab, t, sigma2=3.0)[0]
    assert C.variational_bound(Kinv, y, lab, t, softmax(t[unl], axis=1), sigma2=3.0) == pytest.approx(
        phi, rel=1e-12
    )
    y_hard = y.copy()
    y_hard[unl] = t[unl].argmax(1)
    full = T.gp_objective(Kinv, y_hard, np.arange(24), t, sigma2=3.0)[0]
    assert C.variational_bound(Kinv, y, lab, t, np.eye(3)[y_hard[unl]], sigma2=3.0) == pytest.approx(
        full, rel=1e-12
    )


def test_t_step_and_naive_em():
    S, y = _graph()
    Kinv = T.gp_kernel_inverse(S, 0.1)
    lab = np.array([0, 4, 8, 13, 17, 21])
    targets = softmax(np.random.default_rng(1).normal(0, 1, (24, 3)), axis=1)
    t, _ = C.gp_t_step(Kinv, targets, np.zeros((24, 3)), sigma2=5.0)
    assert np.abs(softmax(t, axis=1) - targets + (Kinv @ t) / 5.0).max() < 1e-6
    t_s, q_s, phi0, n_s = C.naive_em(Kinv, y, lab, np.zeros((24, 3)), hard=False, rounds=8, sigma2=5.0)
    assert n_s == 8 and len(phi0) == 8 and np.all(np.diff(phi0) <= 1e-9 * abs(phi0[0]))
    assert np.allclose(q_s.sum(1), 1)
    t_gp = T.transductive_gp(S, y, lab, balance=False, output="t", sigma2=5.0, kernel_eps=0.1, tol=1e-9)
    _, q_h, _, n_h = C.naive_em(Kinv, y, lab, t_gp, hard=True, rounds=30, sigma2=5.0)
    assert n_h < 30 and set(np.unique(q_h)) <= {0.0, 1.0}


def test_q_statistics():
    q = np.array([[0.8, 0.2], [0.6, 0.4], [0.3, 0.7]])
    st = C.q_statistics(q, truth=np.array([0.5, 0.5]), y_u=np.array([0, 1, 1]))
    assert st["majority mass"] == pytest.approx(1.7 / 3) and st["majority share"] == pytest.approx(2 / 3)
    assert st["TV to truth"] == pytest.approx(1 / 6) and st["accuracy"] == pytest.approx(2 / 3)


def test_q_collapse_runs_on_a_small_graph():
    S, y = _graph(30, 3, seed=4)
    runs, bounds = C.q_collapse_runs(S, y, rates=(0.3,), draws=2, seed=0, soft_rounds=5, hard_rounds=20,
                                     sigma2=10.0, kernel_eps=0.1)  # fmt: skip
    methods = C.q_collapse_methods(1.0)
    assert len(runs) == 10 and list(runs["method"].unique()) == list(methods)
    assert len(bounds) == 2 and bounds["true labels"].nunique() == 1  # one value for every labelled set
    assert (bounds["plain GP (free q)"] < bounds["best one-class q"]).all()
    assert (bounds["soft EM max rise"] <= 1e-9).all()
    summary = C.summarise_q_collapse(runs, 0.9)
    assert list(summary["runs"]) == [2] * 5


def test_compare_balance_settings_on_a_small_graph():
    S, y = _graph(30, 3, seed=1)
    sets = [C.labelled_per_class(y, 2, np.random.default_rng(d)) for d in range(2)]
    runs = C.compare_balance_settings(S, y, sets, narrow_eps=0.05)
    assert list(runs["setting"].unique()) == list(C.BALANCE_SETTINGS) and len(runs) == 8
    assert (runs["infeasibility"] < 1e-8).all() and (runs["slackness gap"] < 1e-6).all()
    assert runs.loc[runs["setting"] == "no balance", "eps"].isna().all()
    summary = C.summarise_balance_settings(runs)
    assert list(summary.columns) == ["setting", "accuracy", "accuracy_std", "eps", "binding"]


def test_central_difference_and_the_slsqp_twin():
    A = np.array([[2.0, 0.5], [0.5, 1.0]])
    x = np.array([[0.3, -1.2]])
    g = R.central_difference(lambda z: float((z @ A @ z.T)[0, 0]), x)
    np.testing.assert_allclose(g, 2 * x @ A, atol=1e-8)
    Tm = np.random.default_rng(0).normal(0, 1.5, (8, 3))
    Tm[:, 0] += 1.0
    rm, rp = np.full(3, 0.2), np.array([0.4, 0.5, 0.5])
    q_generic, ok = R.balanced_q_slsqp(Tm, rm, rp)
    q, _ = T.solve_balanced_q(Tm, rm, rp)
    assert ok and np.abs(q - q_generic).max() < 1e-5


# --------------------------------------------------------------------------- figures
def _small_fonts(fig):
    sizes = [t.get_fontsize() for t in fig.findobj(matplotlib.text.Text) if t.get_text()]
    return [s for s in sizes if s < 7]


def test_figures_of_11_and_12_render_with_readable_text():
    X, y = _blobs()
    i, j, w = C.walk_edge_weights(X, 2.0)
    xy = X[:, :2]
    panel = {
        "title": "a",
        "i": i,
        "j": j,
        "w": w,
        "labelled": np.array([0, 10]),
        "stranded": np.arange(20) < 3,
    }
    fig = figures.learned_graphs_figure(xy, y, [panel, panel], class_names=["a", "b"], title="t")
    px = figures.figure_pixels(fig)
    assert px.ndim == 3 and px.shape[2] == 3 and not _small_fonts(fig)
    assert np.array_equal(px, figures.figure_pixels(fig))
    S, yk = _graph(12, 2)
    lab = np.array([0, 1])
    mean = pd.DataFrame({"harmonic": [0.6, 0.8], "CMN": [0.9, 0.9]}, index=[1, 2])
    fig = figures.harmonic_cmn_figure(xy[:12], np.zeros((0, 2, 2)), yk, lab, T.harmonic(S, yk, lab),
                                       T.harmonic(S, yk, lab, cmn=True), mean, (0.6, 0.9), 1, class_name="b")  # fmt: skip
    assert not _small_fonts(fig)
    per_draw = pd.DataFrame([[0.7, 0.7, 0.69, 0.68], [0.72, 0.72, 0.7, 0.71]], columns=list("abcd"))
    fig = figures.gp_newton_and_balance_figure(np.array([10.0, 1.0, 0.5]), np.array([1.0, 1e-2, 1e-7]), per_draw,
                                                pd.DataFrame({"accuracy": per_draw.mean()}), tick_labels=list("abcd"))  # fmt: skip
    assert not _small_fonts(fig)
    methods = C.q_collapse_methods(1.0)
    runs = pd.DataFrame([{"labelled": r, "draw": 0, "method": m, "majority mass": 0.3, "majority share": 0.4}
                         for r in (0.01, 0.05) for m in methods])  # fmt: skip
    bounds = pd.DataFrame([{"labelled": r, "draw": 0, "plain GP (free q)": 3.0, "best one-class q": 20.0,
                            "hard-EM fixed point": 50.0, "true labels": 100.0} for r in (0.01, 0.05)])  # fmt: skip
    fig = figures.q_collapse_figure(runs, bounds, methods, list("abcde"), rates=(0.01, 0.05), collapse=0.9,
                                     largest_class=0.3)  # fmt: skip
    assert not _small_fonts(fig)
