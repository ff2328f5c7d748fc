"""A partially labelled graph: folds, cross-validation, predictions for every node, the nodes to label next."""

import numpy as np
import pytest

import graphsel_lib as gs
from graphsel_lib import partial_labels as pl


def _partial(g, share, seed=0):
    """``g`` with labels kept on a seeded ``share`` of its nodes (at least one per class)."""
    rng = np.random.default_rng(seed)
    keep = rng.random(g.n_nodes) < share
    for k in range(g.n_classes):
        keep[np.flatnonzero(g.labels == k)[0]] = True
    labels = np.where(keep, g.labels, -1)
    return gs.Graph(g.adjacency, labels, g.class_names, g.name, None, g.node_ids)


@pytest.fixture(scope="module")
def graphs():
    full = gs.datasets.sbm(150, n_blocks=3, avg_degree=10, mixing=0.05, seed=2)
    return full, _partial(full, 0.2)


def test_stratified_folds_are_disjoint_cover_and_balanced(graphs):
    _, g = graphs
    folds = pl.stratified_folds(g.labels, g.labelled, 4, seed=1)
    joined = np.concatenate(folds)
    assert np.array_equal(np.sort(joined), np.flatnonzero(g.labelled))
    assert max(map(len, folds)) - min(map(len, folds)) <= 1
    for k in range(g.n_classes):  # each class spread over the folds as evenly as its size allows
        per = [np.count_nonzero(g.labels[f] == k) for f in folds]
        assert max(per) - min(per) <= 1
    again = pl.stratified_folds(g.labels, g.labelled, 4, seed=1)  # seeded: the same folds
    assert all(np.array_equal(a, b) for a, b in zip(folds, again, strict=True))


def test_harmonic_predictor_is_the_library_harmonic(graphs):
    _, g = graphs
    F = pl.harmonic_cmn().fit_predict(g, g.labelled)
    ref = gs.transductive.harmonic(g.adjacency, g.labels, g.labelled, cmn=True, n_classes=g.n_classes)
    np.testing.assert_allclose(F, ref, rtol=0, atol=1e-12)


def test_online_predictor_keeps_told_labels_and_scores_the_rest_in_its_final_state(graphs):
    _, g = graphs
    p = pl.relaxation_predictor(0.1, seed=3)
    F = p.fit_predict(g, g.labelled)
    np.testing.assert_array_equal(F[g.labelled].argmax(1), g.labels[g.labelled])
    learner, M = p.train(g, g.labelled)
    i = int(np.flatnonzero(~g.labelled)[0])
    np.testing.assert_array_equal(F[i], learner.predict(M[:, i].copy())[1]["score"])
    np.testing.assert_allclose(F[~g.labelled].sum(1), 1.0, atol=1e-12)  # points of the simplex


def test_cross_validation_estimates_the_error_on_hidden_labels(graphs):
    full, g = graphs
    cv = pl.cross_validate([pl.harmonic_cmn(), pl.relaxation_predictor(0.1)], g, n_folds=4, seed=0)
    assert list(cv["method"]) == ["harmonic + CMN", "relaxation learner"] and cv["chosen"].sum() == 1
    assert cv.loc[cv["chosen"], "error"].iloc[0] == cv["error"].min()
    # the estimate is near the error on the nodes nobody labelled (the truth is known for this graph)
    F = pl.harmonic_cmn().fit_predict(g, g.labelled)
    true_error = np.mean(F[~g.labelled].argmax(1) != full.labels[~g.labelled])
    assert abs(cv["error"].iloc[0] - true_error) < 0.15
    curve = pl.learning_curve([pl.harmonic_cmn()], g, [0.5, 1.0], n_folds=4)
    assert curve["labels"].iloc[0] < curve["labels"].iloc[1]


def test_one_class_or_no_label_is_said_not_a_traceback(graphs):
    full, _ = graphs
    one = np.where(full.labels == 0, 0, -1)
    one[np.flatnonzero(full.labels == 0)[5:]] = -1
    g1 = gs.Graph(full.adjacency, one, full.class_names, "one-class", None, None)
    ok, why = pl.learnable(g1)
    assert not ok and "labels of one class only ('block 0')" in why
    with pytest.raises(ValueError, match="at least 2 classes.*one class only"):
        pl.cross_validate([pl.harmonic_cmn()], g1)
    table = pl.predictions_table([g1], None)
    assert set(table["prediction"]) == {"block 0"} and table["note"].str.contains("only class").all()
    ranked = pl.to_label_table(
        [g1], pl.relaxation_predictor(0.1), lambda lr: gs.online.MarginSampling(lr, b=0.1)
    )
    assert len(ranked) == g1.n_nodes - g1.n_labelled and ranked["query_probability"].isna().all()


def test_predictions_and_to_label_cover_every_node_of_every_part(tmp_path):
    (tmp_path / "e.csv").write_text("source,target\na,b\nb,c\nc,d\nd,a\na,c\nx,y\np,q\nq,r\n")
    (tmp_path / "l.csv").write_text("node,label\na,red\nc,blue\np,red\n")
    with pytest.warns(gs.DataWarning, match="unlabelled"):
        parts = gs.Graph.read_csv_components(tmp_path / "e.csv", tmp_path / "l.csv")
    table = pl.predictions_table(parts, pl.harmonic_cmn())
    assert sorted(table["node"]) == sorted("abcdxypqr")
    row = table.set_index("node")
    assert row.loc["a", "given"] == "red" and row.loc["b", "given"] == ""
    assert row.loc["b", "prediction"] in {"red", "blue"} and 0.5 <= row.loc["b", "confidence"] <= 1
    assert row.loc["x", "prediction"] == "" and "no labelled node" in row.loc["x", "note"]
    assert row.loc["q", "prediction"] == "red" and "only class 'red'" in row.loc["q", "note"]
    ranked = pl.to_label_table(
        parts, pl.relaxation_predictor(0.1), lambda lr: gs.online.MarginSampling(lr, b=0.1)
    )
    assert sorted(ranked["node"]) == sorted("bdxyqr") and list(ranked["rank"]) == list(range(1, 7))
    main = ranked[ranked["part"] == 1]
    assert list(main["node"])[:2] and (np.diff(main["query_probability"].to_numpy()) <= 0).all()
    learner, M = pl.relaxation_predictor(0.1).train(parts[0], parts[0].labelled)
    sampler = gs.online.MarginSampling(learner, b=0.1)
    nodes = [list(parts[0].node_names).index(v) for v in main["node"]]
    _, prob = gs.online.query_probabilities(sampler, M, nodes, t=3)
    np.testing.assert_allclose(main["query_probability"], np.round(prob, 6))


def test_labelled_homophily():
    g = gs.Graph.from_edges([[0, 1], [1, 2], [2, 3]], [0, 0, 1, -1])
    h, chance = pl.labelled_homophily(g)  # labelled edges 0-1 (same), 1-2 (different); 2-3 not counted
    assert h == 0.5 and np.isclose(chance, (2 / 3) ** 2 + (1 / 3) ** 2)
