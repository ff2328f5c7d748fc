"""A partially labelled graph of your own: predict every node, estimate the error, pick the nodes to label next.

A user's graph arrives in parts (:meth:`Graph.read_csv_components
<graphsel_lib.Graph.read_csv_components>`: one connected component each,
largest first, with the same class names) and with labels on some nodes only.

* A **predictor** turns a part and the mask of its labelled nodes into scores
  ``F`` of shape ``(n, K)`` for every node: :func:`harmonic_cmn` (offline,
  Zhu et al. 2003 with class mass normalisation) or :func:`online_predictor`
  (an online learner plays the labelled nodes in a seeded random order, each
  label told, then scores every node in its final state).
* :func:`cross_validate` estimates each predictor's error on the labelled
  nodes (k folds, stratified by class: a fold's labels are hidden, the rest
  are given) and chooses the lowest mean error (:func:`~graphsel_lib.experiments.pick_best`:
  a tie goes to the first predictor listed).
* :func:`predictions_table` predicts every node of every part: the chosen
  predictor on the largest part, harmonic + CMN on the smaller parts with two
  or more labelled classes; a part with one labelled class gets that class
  (said in ``note``), a part with no labelled node an empty prediction (said).
* :func:`to_label_table` ranks the unlabelled nodes of the largest part by a
  selective sampler's query probability in the state the labelled nodes left
  it in (:func:`graphsel_lib.online.query_probabilities`).

Confidence is the share of the top class in a node's scores,
``F[i, top] / sum_k F[i, k]`` (1/K: no preference; 1: only one class).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd

from . import online, transductive
from ._validation import UNLABELLED, DataWarning
from .experiments import pick_best
from .online.relaxation import kernel_for

__all__ = [
    "parts_summary",
    "labelled_homophily",
    "learnable",
    "learning_curve",
    "Predictor",
    "harmonic_cmn",
    "online_predictor",
    "relaxation_predictor",
    "stratified_folds",
    "cross_validate",
    "confidence",
    "predictions_table",
    "to_label_table",
]


@dataclass(frozen=True)
class Predictor:
    """A named way to score every node of a graph from the labels of some: ``fit_predict(g, labelled) -> F``.

    An online predictor also has ``train(g, labelled) -> (learner, M)``: the
    learner in its final state and its inputs.
    """

    method: str
    setting: str
    fit_predict: Callable
    train: Callable | None = None


def _harmonic_scores(g, labelled):
    with warnings.catch_warnings():  # a fold may hide every label of a small class: its column is zero
        warnings.simplefilter("ignore", DataWarning)
        return transductive.harmonic(g.adjacency, g.labels, labelled, cmn=True, n_classes=g.n_classes)


def harmonic_cmn() -> Predictor:
    """Harmonic function with class mass normalisation (Zhu et al. 2003; notebook 11), offline."""
    return Predictor("harmonic + CMN", "no parameter", _harmonic_scores)


def online_predictor(method, setting, make_learner, features=None, seed=0) -> Predictor:
    """An online learner as a predictor: it plays the labelled nodes (seeded order, every label told).

    ``make_learner(g)`` builds the learner for a graph; ``features(g)`` its
    inputs ``M`` (default: node ids, for :class:`~graphsel_lib.online.Relaxation`).
    The scores of every other node are the learner's ``info["score"]`` in its
    final state (a node it was told keeps its label: an online learner sees a
    node once).
    """

    def train(g, labelled):
        return _trained(g, labelled, make_learner, features, seed)

    def fit_predict(g, labelled):
        learner, M = train(g, labelled)
        F = np.eye(g.n_classes)[np.where(labelled, g.labels, 0)]  # a node it was told keeps its label
        for i in np.flatnonzero(~np.asarray(labelled, dtype=bool)):
            F[i] = learner.predict(_column(M, i))[1]["score"]
        return F

    return Predictor(method, setting, fit_predict, train)


def _column(M, i):
    return np.ascontiguousarray(M[:, i])


def _trained(g, labelled, make_learner, features, seed):
    """The learner after one online pass over the labelled nodes of ``g``, and its inputs ``M``."""
    labelled = np.asarray(labelled, dtype=bool)
    M = online.node_ids(g.n_nodes) if features is None else features(g)
    rng = np.random.default_rng(seed)
    train = rng.permutation(np.flatnonzero(labelled))
    order = np.concatenate([train, np.flatnonzero(~labelled)])
    y = np.where(labelled, g.labels, 0)  # the rounds stop before any unlabelled node: its entry is never read
    learner = make_learner(g)
    online.run(learner, M, y, order=order, rounds=train.size, seed=seed, n_classes=g.n_classes)
    return learner, M


def relaxation_predictor(beta_fraction, seed=0) -> Predictor:
    """The relaxation learner (notebooks 34–35) with ``beta = beta_fraction * n``, as a predictor."""

    def make(g):
        return online.Relaxation(g.adjacency, beta=beta_fraction * g.n_nodes, kernel=kernel_for(g.n_nodes))

    return online_predictor("relaxation learner", f"beta = {beta_fraction:g} n", make, seed=seed)


def stratified_folds(labels, labelled, n_folds, seed=0):
    """``n_folds`` disjoint arrays of labelled nodes, each class dealt round-robin over the folds (seeded)."""
    rng = np.random.default_rng(seed)
    folds = [[] for _ in range(n_folds)]
    start = 0
    for k in np.unique(labels[labelled]):
        nodes = rng.permutation(np.flatnonzero(labelled & (labels == k)))
        for j, node in enumerate(nodes):
            folds[(start + j) % n_folds].append(int(node))
        start += nodes.size
    return [np.sort(np.asarray(f, dtype=np.int64)) for f in folds]


def parts_summary(parts):
    """One row per part: ``part, nodes, edges, labelled, classes`` (the labelled classes, by name)."""
    rows = []
    for i, g in enumerate(parts, start=1):
        classes = [g.class_names[k] for k in np.unique(g.labels[g.labelled])]
        rows.append((i, g.n_nodes, g.n_edges, g.n_labelled, ", ".join(classes) if classes else "none"))
    return pd.DataFrame(rows, columns=["part", "nodes", "edges", "labelled", "classes labelled"])


def labelled_homophily(g):
    """``(h, chance)``: share of the edge weight between labelled nodes that joins one class, and ``Σ p_k²``.

    ``p_k`` are the class shares among the labelled nodes: what a labelling
    drawn at random with those shares would give. Only edges with both ends
    labelled count. NaN when no such edge exists.
    """
    lab = np.flatnonzero(g.labelled)
    W = g.adjacency[lab][:, lab].tocoo()
    total = W.data.sum()
    y = g.labels[lab]
    p = np.bincount(y, minlength=g.n_classes) / max(lab.size, 1)
    h = float(W.data[y[W.row] == y[W.col]].sum() / total) if total > 0 else float("nan")
    return h, float(np.sum(p**2))


def learnable(g):
    """``(True, "")`` when ``g`` has labelled nodes of two classes or more, else ``(False, why)``."""
    classes = np.unique(g.labels[g.labelled])
    if classes.size >= 2:
        return True, ""
    held = (
        "no labelled node"
        if classes.size == 0
        else f"labels of one class only ({g.class_names[classes[0]]!r})"
    )
    return False, (
        f"{g.name!r} has {held}: there is no other class to tell apart, so nothing can be learnt or "
        "cross-validated; every node of it is given that class (or none). Label a node of another class "
        "(to_label.csv lists the unlabelled nodes) and run again"
    )


def _check_learnable(g, what):
    ok, why = learnable(g)
    if not ok:
        raise ValueError(f"{what} needs labelled nodes of at least 2 classes: {why}")


def cross_validate(predictors, g, *, n_folds=5, seed=0, train_fraction=1.0):
    """Error of each predictor on the labelled nodes of ``g``, by ``n_folds``-fold cross-validation.

    Each fold's labels are hidden in turn; the predictor gets the others
    (a seeded ``train_fraction`` of them, for a learning curve) and is scored
    on the hidden ones. Returns a DataFrame: ``method, setting, labels``
    (given per fold, mean), ``error``, ``error std`` (over folds), ``chosen``
    (the lowest mean error, a tie to the first predictor listed) and
    ``margin`` (how much worse the next best is).
    """
    _check_learnable(g, "cross-validation")
    n_folds = int(min(n_folds, g.n_labelled))
    if n_folds < 2:
        raise ValueError(f"cross-validation needs at least 2 labelled nodes, {g.name!r} has {g.n_labelled}")
    folds = stratified_folds(g.labels, g.labelled, n_folds, seed)
    rng = np.random.default_rng([seed, 1])
    rows = []
    for p in predictors:
        errors, given = [], []
        for held in folds:
            train = np.setdiff1d(np.flatnonzero(g.labelled), held)
            train = rng.permutation(train)[: max(1, int(round(train_fraction * train.size)))]
            mask = np.zeros(g.n_nodes, dtype=bool)
            mask[train] = True
            F = p.fit_predict(g, mask)
            errors.append(float(np.mean(F[held].argmax(axis=1) != g.labels[held])))
            given.append(train.size)
        rows.append(
            {
                "method": p.method,
                "setting": p.setting,
                "labels": float(np.mean(given)),
                "error": float(np.mean(errors)),
                "error std": float(np.std(errors, ddof=1)),
            }
        )
    table = pd.DataFrame(rows)
    pick = pick_best(table["error"].to_numpy())
    table["chosen"] = np.arange(len(table)) == pick.index
    table["margin"] = pick.margin
    return table


def learning_curve(predictors, g, fractions, *, n_folds=5, seed=0):
    """:func:`cross_validate` with a fraction of the other folds' labels given: would more labels help?"""
    tables = []
    for f in fractions:
        t = cross_validate(predictors, g, n_folds=n_folds, seed=seed, train_fraction=f)
        tables.append(t.assign(fraction=f))
    return pd.concat(tables, ignore_index=True)


def confidence(F):
    """Share of the top class in each row of scores ``F`` (NaN where the scores sum to 0)."""
    F = np.clip(np.asarray(F, float), 0.0, None)
    total = F.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, F.max(axis=1) / total, np.nan)


def predictions_table(parts, chosen):
    """Every node of every part: ``node, prediction, confidence, given, part, note`` in the user's strings.

    ``chosen`` (a :class:`Predictor`) predicts the largest part when it holds
    two labelled classes; a smaller part with two labelled classes gets
    harmonic + CMN (parameter-free); a part with one labelled class gets that
    class, a part without a labelled node no prediction, each with a note.
    """
    frames = []
    for i, g in enumerate(parts):
        names = np.asarray(g.class_names, dtype=object)
        given = np.where(g.labelled, names[np.maximum(g.labels, 0)], "")
        classes = np.unique(g.labels[g.labelled])
        pred = np.full(g.n_nodes, "", dtype=object)
        conf = np.full(g.n_nodes, np.nan)
        if classes.size >= 2:
            p = chosen if i == 0 else harmonic_cmn()
            F = p.fit_predict(g, g.labelled)
            pred, conf = names[F.argmax(axis=1)], confidence(F)
            note = "" if i == 0 else f"a smaller part: {p.method}"
        elif classes.size == 1:
            pred[:] = names[classes[0]]
            note = f"only class {names[classes[0]]!r} is labelled in this part: no evidence for another class"
        else:
            note = "no labelled node in this part (no edge path to a label): label one of its nodes"
        frames.append(
            pd.DataFrame(
                {
                    "node": g.node_names,
                    "prediction": pred,
                    "confidence": np.round(conf, 4),
                    "given": given,
                    "part": i + 1,
                    "note": np.where(g.labelled, "", note) if classes.size >= 2 else note,
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def to_label_table(parts, predictor, wrap):
    """The unlabelled nodes of the largest part, ranked by the sampler's query probability; then the others.

    ``wrap(learner)`` turns the learner of the online ``predictor`` trained on
    every labelled node of the largest part into a selective sampler (e.g.
    ``lambda l: MarginSampling(l, b=0.1)``); its query probability on each unlabelled
    node, in that state, orders them (highest first; ties in node order).
    Unlabelled nodes of the other parts follow, with a note and no probability.
    Columns: ``rank, node, query_probability, prediction, part, note``.
    """
    g = parts[0]
    rows = []
    unlabelled = np.flatnonzero(~g.labelled)
    if unlabelled.size and np.unique(g.labels[g.labelled]).size >= 2:
        learner, M = predictor.train(g, g.labelled)
        sampler = wrap(learner)
        pred, prob = online.query_probabilities(sampler, M, unlabelled, t=g.n_labelled + 1)
        by = np.lexsort((unlabelled, -prob))
        names = np.asarray(g.class_names, dtype=object)
        for j in by:
            rows.append((g.node_names[unlabelled[j]], round(float(prob[j]), 6), names[pred[j]], 1, ""))
    elif unlabelled.size:
        note = "the largest part has fewer than 2 labelled classes: no sampler state to rank by"
        rows += [(v, np.nan, "", 1, note) for v in g.node_names[unlabelled]]
    for i, part in enumerate(parts[1:], start=2):
        k = np.unique(part.labels[part.labelled]).size
        note = "no labelled node in this part" if k == 0 else f"a smaller part with {k} labelled class(es)"
        rows += [(v, np.nan, "", i, note) for v in part.node_names[part.labels == UNLABELLED]]
    table = pd.DataFrame(rows, columns=["node", "query_probability", "prediction", "part", "note"])
    table.insert(0, "rank", np.arange(1, len(table) + 1))
    return table
