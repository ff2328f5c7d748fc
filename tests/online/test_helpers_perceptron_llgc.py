"""The library helpers of chapters 03 (the graph perceptron) and 04 (LLGC as ridge regression).

* :mod:`graphsel_lib.bounds`: ``perceptron_bound_runs``/``perceptron_bound_table`` (Novikoff's bound and
  its unequal-class and bias forms on GPA runs), ``perceptron_hinge_bound`` and
  ``noisy_label_runs``/``noisy_bound_table`` (the noisy-label bound), ``bias_feature_runs``/
  ``bias_feature_table`` (the bias feature on one-vs-rest learners);
* :mod:`graphsel_lib.transductive.llgc`: ``llgc_form_deviations``, ``llgc_low_rank`` and
  ``llgc_truncation_error`` (gu2013 Eq. 2–5 and the rank-``d`` kernel);
* :mod:`graphsel_lib.collection.plotting`: the figures of both chapters.
"""

import sys

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import graphsel_lib as gs
import graphsel_lib.transductive as T
from conftest import random_connected_graph
from graphsel_lib import course as C
from graphsel_lib.course import figures


def _graph(seed=0, n=14, p=0.25):
    rng = np.random.default_rng(seed)
    S = random_connected_graph(rng, n, p, weighted=False)
    emb = gs.spectral_embedding(S, n - 1, cache=False)
    return S, emb


def _perceptron_mistakes(M, y, order):
    w, mistakes = np.zeros(M.shape[0]), 0
    for t in order:
        if (1 if w @ M[:, t] >= 0 else -1) != y[t]:
            w, mistakes = w + y[t] * M[:, t], mistakes + 1
    return mistakes


# --------------------------------------------------------------------------- chapter 03: Novikoff on the graph
@pytest.mark.parametrize("n_plus", [7, 4])  # balanced (ybar = 0) and unbalanced labels
def test_perceptron_bound_runs_are_the_formulas_and_the_theorems_hold(n_plus):
    S, emb = _graph()
    n = S.shape[0]
    y = np.where(np.arange(n) < n_plus, 1, -1)
    orders = gs.experiments.random_orders(n, 6, seed=1)
    runs = gs.course.perceptron_bound_runs(emb.M, S, y, orders, b=0.5)
    assert len(runs) == 6 and list(runs["order"]) == list(range(6))
    Kd, phi, ybar = (emb.M**2).sum(axis=0), gs.cut_size(S, y), y.mean()
    assert np.allclose(runs["max K_tt"], gs.graph.kernel_diagonal(S).max())
    assert np.allclose(runs["4 Phi max K_tt"], gs.theory.perceptron_mistake_bound(S, y))
    assert np.allclose(runs["margin-corrected"], 4 * phi * Kd.max() / (1 - abs(ybar)) ** 2)
    assert np.allclose(runs["bias bound"], (4 * phi + ybar**2 / 0.5) * (Kd.max() + 0.5))
    assert (runs["data-dependent"] <= runs["margin-corrected"] * (1 + 1e-12)).all()
    # the mistakes are those of a plain perceptron, and the two theorems hold
    assert list(runs["mistakes"]) == [_perceptron_mistakes(emb.M, y, o) for o in orders]
    assert list(runs["mistakes (bias b=0.5)"]) == [
        _perceptron_mistakes(gs.add_bias(emb.M, 0.5), y, o) for o in orders
    ]
    assert (runs["mistakes"] <= runs["data-dependent"] * (1 + 1e-12)).all()
    assert (runs["mistakes (bias b=0.5)"] <= runs["bias bound"] * (1 + 1e-12)).all()
    if n_plus * 2 == n:  # ybar = 0: the slides' form is the margin-corrected one
        assert np.allclose(runs["4 Phi max K_tt"], runs["margin-corrected"])


def test_perceptron_bound_table_aggregates_per_problem():
    S, emb = _graph()
    n = S.shape[0]
    orders = gs.experiments.random_orders(n, 4, seed=2)
    parts = []
    for cls, k in (("a", 5), ("b", 3)):
        y = np.where(np.arange(n) < k, 1, -1)
        parts.append(gs.course.perceptron_bound_runs(emb.M, S, y, orders).assign(graph="g", **{"class": cls}))
    runs = pd.concat(parts, ignore_index=True)
    table = gs.course.perceptron_bound_table(runs)
    assert list(table["class"]) == ["a", "b"]
    assert list(table.columns) == [
        "graph", "class", "n", "share", "Phi", "max_K_tt", "mistakes_mean", "mistakes_max", "bound_slides",
        "bound_margin", "mistakes_bias_max", "bound_bias", "informative (slides < n)",
    ]  # fmt: skip
    first = runs[runs["class"] == "a"]
    assert table.loc[0, "mistakes_max"] == first["mistakes"].max()
    assert table.loc[0, "mistakes_mean"] == pytest.approx(first["mistakes"].mean())
    assert table.loc[0, "informative (slides < n)"] == (table.loc[0, "bound_slides"] < n)


def test_perceptron_bound_runs_reject_low_rank_features_and_bad_labels():
    S, emb = _graph()
    n = S.shape[0]
    orders = gs.experiments.random_orders(n, 1, seed=0)
    y = np.where(np.arange(n) < 7, 1, -1)
    with pytest.raises(ValueError, match="exact kernel"):
        gs.course.perceptron_bound_runs(emb.M[:5], S, y, orders)
    with pytest.raises(ValueError):
        gs.course.perceptron_bound_runs(emb.M, S, np.zeros(n), orders)


def test_perceptron_hinge_bound_is_the_root_of_the_quadratic():
    loss, a = np.array([0.0, 1.0, 6.0, 20.0]), np.array([10.0, 3.0, 0.5, 45.0])
    B = gs.theory.perceptron_hinge_bound(loss, a)
    z = np.sqrt(B)
    assert np.allclose(z**2 - np.sqrt(a) * z - loss, 0.0)  # z^2 - ||u|| R z - loss = 0 at the bound
    assert gs.theory.perceptron_hinge_bound(0.0, 7.0) == pytest.approx(7.0)  # Novikoff without noise
    assert gs.theory.perceptron_hinge_bound(3.0, 0.0) == pytest.approx(3.0)
    assert np.all(np.diff(gs.theory.perceptron_hinge_bound(np.arange(5.0), 2.0)) > 0)  # grows with the loss


def test_noisy_label_runs_on_a_balanced_labelling():
    S, emb = _graph(seed=3, n=16)
    n = S.shape[0]
    f = np.where(np.arange(n) < n // 2, 1, -1)  # fbar = 0: the slides' form is a theorem
    orders = gs.experiments.random_orders(n, 5, seed=4)
    draws = gs.experiments.random_orders(n, 5, seed=5)
    runs = gs.course.noisy_label_runs(emb.M, S, f, [0.0, 0.125, 0.25], orders, draws)
    assert len(runs) == 15 and set(runs["flipped"]) == {0, 2, 4}
    a = 4 * gs.cut_size(S, f) * gs.graph.kernel_diagonal(S).max()
    assert np.allclose(runs["noise-free"], a)
    clean = runs[runs.rate == 0]
    assert (clean["M cap M_u"] == 0).all() and np.allclose(clean["slides"], a) and (clean["extra"] == 0).all()
    assert np.allclose(runs["hinge loss"], 2 * runs["M cap M_u"])  # margins exactly +-1
    for col in ("slides", "a priori", "hinge", "corrected"):
        assert (runs["mistakes"] <= runs[col] * (1 + 1e-12)).all(), col
    assert (runs["slides"] <= runs["a priori"] * (1 + 1e-12)).all()
    table = gs.course.noisy_bound_table(runs.assign(graph="g"))
    assert len(table) == 3 and "M_cap_M_u_mean" in table
    assert table["max_mistakes_over_bound"].max() <= 1


def test_noisy_label_runs_on_an_unbalanced_labelling_assert_nothing_but_the_theorems_hold():
    S, emb = _graph(seed=6, n=15)
    n = S.shape[0]
    f = np.where(np.arange(n) < 5, 1, -1)
    orders = gs.experiments.random_orders(n, 4, seed=7)
    runs = gs.course.noisy_label_runs(emb.M, S, f, [0.0, 0.2], orders, orders[::-1])
    assert (runs["mistakes"] <= runs["hinge"] * (1 + 1e-12)).all()
    assert (runs["mistakes"] <= runs["corrected"] * (1 + 1e-12)).all()
    with pytest.raises(ValueError, match="flip_draws"):
        gs.course.noisy_label_runs(emb.M, S, f, [0.0], orders, orders[:2])


def test_bias_feature_runs_and_table():
    S, emb = _graph(seed=8, n=18)
    n = S.shape[0]
    labels = np.arange(n) % 3
    orders = gs.experiments.random_orders(n, 3, seed=9)
    configs = [("GPA", 5, 0.0), ("GPA", 5, 1.0), ("GPA", "exact", 1.0)]
    feats = {5: emb.truncate(5).M, "exact": emb.M}
    runs = gs.course.bias_feature_runs(
        feats, labels, configs, orders, learners={"GPA": gs.online.GPA}, n_classes=3
    )
    assert len(runs) == 9 and list(runs["d"].unique()) == ["5", "exact"]
    assert {"class 0 error", "class 2 error", "multiclass error", "mean binary error"} <= set(runs)
    # b = 0 runs on M itself, b > 0 on add_bias(M, b)
    ref = gs.online.run(gs.online.OneVsRest(gs.online.GPA), gs.add_bias(feats[5], 1.0), labels, order=orders[0],
                        n_classes=3)  # fmt: skip
    row = runs[(runs.d == "5") & (runs.b == 1.0) & (runs.order == 0)].iloc[0]
    assert row["multiclass error"] == ref.error_rate and row["mean binary error"] == ref.binary_error_rate
    table = gs.course.bias_feature_table(runs)
    assert list(table.columns) == ["learner", "d", "b", "mean binary error mean", "mean binary error std",
                                   "multiclass error mean", "multiclass error std"]  # fmt: skip
    assert len(table) == 3


# --------------------------------------------------------------------------- chapter 04: LLGC as ridge regression
def test_llgc_form_deviations_every_form_is_llgc():
    S, emb = _graph(seed=10, n=20, p=0.2)
    n = S.shape[0]
    labels = np.arange(n) % 3
    sets = [np.array([0, 1, 2, 7]), np.array([3, 4, 5, 11, 12])]
    dev = C.llgc_form_deviations(S, labels, sets, [0.01, 1.0], emb=emb, kernel=gs.laplacian_pinv(S))
    assert len(dev) == 2 * 2 * 3
    cols = [c for c in dev if c.startswith("dev ")]
    assert set(cols) == {
        f"dev {f}" for f in ("llgc", "spsolve", "primal", "dual", "spectral", "bias", "mean")
    }
    assert (dev[cols] < 1e-9).all().all()
    # the ridge form without the mean misses exactly |ybar| at every node
    assert np.allclose(dev["max |f* - ridge without mean|"], dev["mean label"].abs(), rtol=1e-6)
    assert dev["accuracy (unlabelled)"].between(0, 1).all()
    with pytest.raises(ValueError, match="n - 1"):
        C.llgc_form_deviations(S, labels, sets, [1.0], emb=emb.truncate(5), kernel=gs.laplacian_pinv(S))
    with pytest.warns(DeprecationWarning, match=r"the keyword labeled_sets= is renamed labelled_sets="):
        old = C.llgc_form_deviations(
            S, labels, labeled_sets=sets, mus=[1.0], emb=emb, kernel=gs.laplacian_pinv(S)
        )
    assert old.equals(C.llgc_form_deviations(S, labels, sets, [1.0], emb=emb, kernel=gs.laplacian_pinv(S)))


def test_llgc_low_rank_ridge_equals_spectral_and_full_rank_is_llgc():
    S, emb = _graph(seed=11, n=16)
    n = S.shape[0]
    labels = np.arange(n) % 2
    labelled = np.array([0, 1, 6, 9])
    Y = np.zeros((n, 2))
    Y[labelled, labels[labelled]] = 1.0
    F = T.llgc(S, labels, labelled, mu=0.5)
    for d in (1, 4, n - 1):
        ridge = T.llgc_low_rank(emb, Y, 0.5, d)
        assert np.allclose(ridge, T.llgc_low_rank(emb, Y, 0.5, d, form="spectral"), atol=1e-10)
        assert np.sum((F - ridge) ** 2) == pytest.approx(T.llgc_truncation_error(emb, Y, 0.5, d), abs=1e-12)
    assert np.allclose(T.llgc_low_rank(emb, Y, 0.5, n - 1), F, atol=1e-10)
    assert T.llgc_truncation_error(emb, Y, 0.5, n - 1) == 0.0
    y = Y[:, 1] - Y[:, 0]  # a vector target works too
    assert np.allclose(T.llgc_low_rank(emb, y, 0.5, 4), T.llgc_low_rank(emb, y, 0.5, 4, form="spectral"))
    with pytest.raises(ValueError, match="form"):
        T.llgc_low_rank(emb, Y, 0.5, 4, form="dual")


def test_llgc_module_names_the_variant():
    doc = sys.modules[
        T.llgc.__module__
    ].__doc__  # gu2013's combinatorial variant; Zhou et al.'s is normalized
    assert "combinatorial" in doc and "normalized" in doc and "Zhou" in doc


# --------------------------------------------------------------------------- the figures
def _texts(fig):
    out = []
    for ax in fig.axes:
        out += [ax.get_title(), ax.get_xlabel(), ax.get_ylabel()]
    for leg in fig.legends:
        out += [t.get_text() for t in leg.get_texts()]
    return out


def test_chapter_03_figures_show_names_not_code_names():
    S, emb = _graph()
    n = S.shape[0]
    orders = gs.experiments.random_orders(n, 3, seed=1)
    parts = []
    for name in ("karate", "digits-3-8"):
        y = np.where(np.arange(n) < 6, 1, -1)
        parts.append(
            gs.course.perceptron_bound_runs(emb.M, S, y, orders).assign(graph=name, **{"class": "x"})
        )
    fig = figures.perceptron_bound_figure(pd.concat(parts, ignore_index=True))
    texts = _texts(fig)
    assert len(fig.axes) == 2 and 'digits "3 vs 8", no bias' in texts and "digits-3-8, no bias" not in texts
    plt.close(fig)

    f = np.where(np.arange(n) < 7, 1, -1)
    noisy = gs.course.noisy_label_runs(emb.M, S, f, [0.0, 0.2], orders, orders).assign(graph="digits-3-8")
    fig = figures.noisy_bound_figure(noisy, [0.0, 0.2], n_orders=3)
    assert any('digits "3 vs 8"' in t for t in _texts(fig)) and len(fig.legends[0].get_texts()) == 5
    plt.close(fig)

    labels = np.arange(n) % 2
    runs = gs.course.bias_feature_runs({100: emb.M}, labels, [("GPA", 100, b) for b in (0.0, 0.1, 1.0)], orders,
                                    learners={"GPA": gs.online.GPA}, n_classes=2)  # fmt: skip
    fig = figures.bias_experiment_figure(runs, np.bincount(labels) / n, d=100)
    texts = _texts(fig)
    assert len(fig.axes) == 3 and "GPA without bias (a, b)" in texts and "always 'rest' (c)" in texts
    plt.close(fig)


def test_chapter_04_figure():
    S, emb = _graph(seed=12, n=16)
    low_rank = pd.DataFrame(
        [
            {"mu": mu, "d": d, "accuracy rank d": 0.5, "accuracy exact LLGC": 0.6}
            for mu in (0.1, 1.0)
            for d in (1, 5)
        ]
    )
    fig = figures.llgc_filter_figure(emb, low_rank, [0.1, 1.0], graph="cora", label_rate=0.1)
    texts = _texts(fig)
    assert len(fig.axes) == 2 and any("Cora" in t for t in texts) and not any("sigma_0" in t for t in texts)
    assert "exact LLGC, same colour (b)" in texts
    plt.close(fig)
    assert figures.graph_label("digits-3-8") == 'digits "3 vs 8"' and figures.graph_label("other") == "other"
