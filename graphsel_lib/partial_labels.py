"""A partially labelled graph of your own: predict every node, estimate the error, pick the nodes to label next.

A user's graph arrives in parts (:meth:`Graph.read_csv_components
<graphsel_lib.Graph.read_csv_components>`: one connected component each,
largest first, with the same class names) and with labels on some nodes only.

* A **predictor** turns a part and the mask of its labelled nodes into scores
  ``F`` of shape ``(n, K)`` for every node: :func:`harmonic_cmn` (offline,
  Zhu et al. 2003, with class mass normalisation under a class prior of your
  choice: the labelled shares, uniform, given, or no CMN; zhang2006 Sec. 2.1)
  or :func:`online_predictor` (an online learner plays the labelled nodes in
  a seeded random order, each label told, then scores every node in its final
  state). :func:`harmonic_predictors` with ``prior="auto"`` lists the three
  priors, for cross-validation to choose from.
* :func:`cross_validate` estimates each predictor's error on the labelled
  nodes, in folds shaped like the real problem (:func:`problem_folds`: the
  share of the labels hidden in a fold is the graph's unlabelled share, down
  to leave-one-out when one node is unlabelled), reports the spread over
  folds, and chooses the lowest mean error among the eligible predictors (a
  tie goes to the first listed and is said as a tie). CMN with a single
  unlabelled node is never eligible: its row would be the prior
  (:func:`graphsel_lib.transductive.cmn_prior`). The chosen predictor's
  error is optimistic (the best of several on the same folds);
  :func:`nested_cross_validate` estimates the error of the whole procedure
  (the choice included) on folds it did not choose on.
* :func:`predictions_table` predicts every node of every part: the chosen
  predictor on the largest part, harmonic with the chosen prior on the
  smaller parts with two or more labelled classes; a part with one labelled
  class gets that class (said in ``note``), a part with no labelled node an
  empty prediction (said).
* :func:`to_label_table` ranks the unlabelled nodes of the largest part by a
  selective sampler's query probability in the state the labelled nodes left
  it in (:func:`graphsel_lib.online.query_probabilities`).

Confidence is the share of the top class in a node's scores,
``F[i, top] / sum_k F[i, k]`` (1/K: no preference; 1: only one class).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, replace
from typing import Callable

import numpy as np
import pandas as pd

from . import online, transductive
from ._validation import UNLABELLED, DataWarning, check_class_labels, check_seed
from .experiments import TIE_RTOL
from .graph import Graph
from .online.relaxation import kernel_for
from .transductive import MIN_UNLABELLED_FOR_CMN, cmn_prior

__all__ = [
    "AUTO_PRIORS",
    "parts_summary",
    "labelled_homophily",
    "learnable",
    "learning_curve",
    "Predictor",
    "check_prior",
    "harmonic_cmn",
    "harmonic_predictors",
    "online_predictor",
    "relaxation_predictor",
    "eligible",
    "problem_folds",
    "cross_validate",
    "nested_cross_validate",
    "chosen_predictor",
    "chosen_prior",
    "choose_prior",
    "auto_prior",
    "harmonic_scores",
    "selection_report",
    "confidence",
    "predictions_table",
    "to_label_table",
]

AUTO_PRIORS = ("uniform", "labelled", "none")
"""The priors ``prior="auto"`` puts before cross-validation, in this order (a tie goes to the first).

Uniform first: the labelled shares are an estimate from a few labels, biased
when the labels were not drawn at random (a person labels what they know);
the uniform prior does not depend on how the labels were chosen.
"""


@dataclass(frozen=True)
class Predictor:
    """A named way to score every node of a graph from the labels of some: ``fit_predict(g, labelled) -> F``.

    An online predictor also has ``train(g, labelled) -> (learner, M)``: the
    learner in its final state and its inputs. A harmonic predictor has its
    class ``prior`` (see :func:`harmonic_cmn`); other predictors ``None``.
    """

    method: str
    setting: str
    fit_predict: Callable
    train: Callable | None = None
    prior: object = None

    @property
    def uses_cmn(self) -> bool:
        """Whether class mass normalisation is part of this predictor."""
        return self.prior is not None and not (isinstance(self.prior, str) and self.prior == "none")


def check_prior(prior, g=None, *, allow_auto=True):
    """``prior`` if it is a valid choice (for graph ``g``'s classes when given), else ValueError with the choices.

    Valid: ``"auto"`` (chosen by cross-validation, when ``allow_auto``),
    ``"labelled"``, ``"uniform"``, ``"none"``, an array of one share per class
    or a dict ``{class name: share}`` naming every class.
    """
    if isinstance(prior, str) and prior == "auto":
        if allow_auto:
            return prior
        raise ValueError(
            "prior='auto' is chosen by cross-validation: use harmonic_predictors('auto') and cross_validate"
        )
    if g is not None:
        cmn_prior(prior, np.ones(g.n_classes), class_names=g.class_names)
    elif isinstance(prior, dict):  # the shares are checked now, the class names against a graph at the fit
        cmn_prior(prior, np.ones(max(len(prior), 1)), class_names=[str(k) for k in prior])
    elif isinstance(prior, str) or prior is None or isinstance(prior, (bool, np.bool_)):
        cmn_prior(prior, [1])
    else:  # an array: its numbers now, its length against the classes at the fit
        cmn_prior(prior, np.ones(max(np.size(prior), 1)))
    return prior


def _prior_setting(prior):
    if isinstance(prior, str):
        return {"labelled": "prior: labelled shares", "uniform": "prior: uniform", "none": "no CMN"}[prior]
    if isinstance(prior, dict):
        total = sum(float(v) for v in prior.values()) or 1.0
        return "prior: given (" + ", ".join(f"{k} {float(v) / total:.2f}" for k, v in prior.items()) + ")"
    q = np.asarray(prior, dtype=float)
    return "prior: given (" + ", ".join(f"{v:.2f}" for v in q / (q.sum() or 1.0)) + ")"


def _harmonic_scores(g, labelled, prior, labels=None):
    labels = g.labels if labels is None else np.asarray(labels)
    labelled = np.asarray(labelled, dtype=bool)
    counts = np.bincount(labels[labelled], minlength=g.n_classes)
    q = cmn_prior(prior, counts, n_unlabelled=int(np.count_nonzero(~labelled)), class_names=g.class_names)
    with warnings.catch_warnings():  # a fold may hide every label of a small class: its column is zero
        warnings.simplefilter("ignore", DataWarning)
        return transductive.harmonic(
            g.adjacency, labels, labelled, cmn=q is not None, class_prior=q, n_classes=g.n_classes
        )


def harmonic_scores(g, labels, prior="labelled"):
    """Scores ``(n, K)`` of the harmonic function with CMN under ``prior`` from ``labels`` (-1: unknown).

    :func:`harmonic_cmn`'s scores for labels that are not ``g.labels`` (a
    labelling's answers added to them): the prediction a person is shown in
    :class:`graphsel_lib.label.Labelling`.
    """
    labels = check_class_labels(labels, g.n_nodes, n_classes=g.n_classes, name="labels")
    check_prior(prior, g, allow_auto=False)
    return _harmonic_scores(g, labels != UNLABELLED, prior, labels)


def choose_prior(prior, g, labels=None, *, n_folds=5, seed=0):
    """``prior`` itself, or for ``"auto"`` the prior notebook 50 chooses: by :func:`cross_validate`.

    ``"auto"``: :func:`harmonic_predictors` cross-validated on ``g`` with
    ``labels`` (default ``g.labels``; -1 unknown) and :func:`chosen_prior`;
    ``"labelled"`` when there is nothing to cross-validate (labels of one
    class, fewer than 2 labelled nodes), as notebook 50 does.
    """
    check_prior(prior, g)
    if not (isinstance(prior, str) and prior == "auto"):
        return prior
    labels = g.labels if labels is None else np.asarray(labels)
    labelled = labels != UNLABELLED
    if np.unique(labels[labelled]).size < 2 or np.count_nonzero(labelled) < 2:
        return "labelled"
    predictors = harmonic_predictors("auto")
    graph = g if labels is g.labels else replace(g, labels=labels)  # validated again
    cv = cross_validate(predictors, graph, n_folds=n_folds, seed=seed)
    return chosen_prior(cv, predictors)


def auto_prior(S, labels, n_classes):
    """The prior notebook 50 chooses (:func:`choose_prior` ``"auto"``, seed 0) on adjacency ``S`` with ``labels``
    (-1 unknown, classes ``0..n_classes-1``): a rule :func:`graphsel_lib.active.run_pool` takes as ``class_prior``."""
    labels = np.asarray(labels)
    names = [str(k) for k in range(int(n_classes))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        g = Graph(S, labels.copy(), names, "pool", None, None)
    return choose_prior("auto", g)


def harmonic_cmn(prior="labelled") -> Predictor:
    """Harmonic function (Zhu et al. 2003; notebook 11), offline, with class mass normalisation under ``prior``.

    ``prior``: ``"labelled"`` (the class shares among the labelled nodes,
    Zhu et al.'s suggestion), ``"uniform"``, an array or a dict ``{class: share}``
    of your own, or ``"none"`` (the harmonic function without CMN). Resolved
    at each fit by :func:`graphsel_lib.transductive.cmn_prior` (the function
    :func:`graphsel_lib.active.run_pool` uses too), from the labels given in
    that fit. With a single unlabelled node no CMN is applied (CMN would make
    its row the prior, whatever its edges say; see ``cmn_prior``), and
    :func:`cross_validate` does not choose a CMN predictor there.

    References: Zhu, Ghahramani, Lafferty, ICML 2003; zhang2006 (Zhang & Lee,
    NIPS 2006), Sec. 2.1.
    """
    check_prior(prior, allow_auto=False)
    method = "harmonic" if isinstance(prior, str) and prior == "none" else "harmonic + CMN"
    return Predictor(
        method, _prior_setting(prior), lambda g, labelled: _harmonic_scores(g, labelled, prior), prior=prior
    )


def harmonic_predictors(prior="auto") -> list:
    """The harmonic predictors to cross-validate: one per prior of :data:`AUTO_PRIORS` for ``"auto"``, else one."""
    check_prior(prior)
    priors = AUTO_PRIORS if isinstance(prior, str) and prior == "auto" else (prior,)
    return [harmonic_cmn(q) for q in priors]


def eligible(predictor, g, labelled=None):
    """``(True, "")`` when ``predictor`` may be chosen for the problem ``(g, labelled)``, else ``(False, why)``.

    CMN on fewer than :data:`~graphsel_lib.transductive.MIN_UNLABELLED_FOR_CMN`
    unlabelled nodes is not: with one, its row is the prior whatever the edges
    say, and cross-validation, which hides labels and so always leaves two or
    more nodes unlabelled, cannot see that.
    """
    labelled = g.labelled if labelled is None else np.asarray(labelled, dtype=bool)
    u = int(np.count_nonzero(~labelled))
    if predictor.uses_cmn and u < MIN_UNLABELLED_FOR_CMN:
        return False, f"CMN on {u} unlabelled node(s) would predict the prior, not the edges"
    return True, ""


def online_predictor(method, setting, make_learner, features=None, seed=0) -> Predictor:
    """An online learner as a predictor: it plays the labelled nodes (seeded order, every label told).

    ``make_learner(g)`` builds the learner for a graph; ``features(g)`` its
    inputs ``M`` (default: node ids, for :class:`~graphsel_lib.online.Relaxation`).
    The scores of every other node are the learner's ``info["score"]`` in its
    final state (a node it was told keeps its label: an online learner sees a
    node once).
    """

    seed = check_seed(seed, allow_none=False)

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
    if isinstance(beta_fraction, (bool, np.bool_)) or not isinstance(beta_fraction, (int, float, np.number)):
        raise ValueError(f"beta_fraction must be a positive number (beta / n), got {beta_fraction!r}")
    if not (np.isfinite(beta_fraction) and beta_fraction > 0):
        raise ValueError(f"beta_fraction must be a positive number (beta / n), got {beta_fraction!r}")

    def make(g):
        return online.Relaxation(g.adjacency, beta=beta_fraction * g.n_nodes, kernel=kernel_for(g.n_nodes))

    return online_predictor("relaxation learner", f"beta = {beta_fraction:g} n", make, seed=seed)


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


def _labelled_mask(g, labelled):
    return g.labelled.copy() if labelled is None else np.asarray(labelled, dtype=bool).copy()


def problem_folds(labels, labelled, *, n_folds=5, seed=0, max_folds=50, held_fraction=None):
    """Folds of labelled nodes to hide, shaped like the real problem: ``[held nodes of fold 1, ...]``.

    Each fold hides ``h = round(f * l)`` of the ``l`` labelled nodes, ``f``
    the unlabelled share ``u / n`` of the graph (or ``held_fraction``), at
    least one: a graph with one unlabelled node is cross-validated leave-one-out,
    a graph with four fifths unlabelled hides four fifths of its labels. A
    fold hides the classes in their labelled shares (the labelled nodes are
    dealt class by class, evenly spread, into a seeded cyclic sequence; a fold
    is ``h`` consecutive nodes of it) and never hides every label of a class
    labelled twice or more (the real problem has a label of every class it
    knows). There are ``ceil(l / h)`` folds (every labelled node hidden once:
    leave-one-out for ``h = 1``), at least ``n_folds`` (folds then overlap)
    and at most ``max_folds``, never two alike (at most ``l / gcd(l, h)``).

    Parameters
    ----------
    labels : array of int (n,)
    labelled : array of bool (n,)
    n_folds, max_folds : int
    seed : int
    held_fraction : float in (0, 1), optional
        The share of the labels to hide in a fold, instead of ``u / n``.
    """
    labels = np.asarray(labels)
    labelled = np.asarray(labelled, dtype=bool)
    n_folds = _check_count(n_folds, "n_folds", 2)
    max_folds = max(_check_count(max_folds, "max_folds", 1), n_folds)
    nodes = np.flatnonzero(labelled)
    n, l = labelled.size, nodes.size
    if l < 2:
        raise ValueError(f"cross-validation needs at least 2 labelled nodes, got {l}")
    f = (n - l) / n if held_fraction is None else _check_fraction(held_fraction, "held_fraction")
    h = int(min(max(round(f * l), 1), l - 1))
    rng = np.random.default_rng(check_seed(seed, allow_none=False))
    keys, order = [], []
    for k in np.unique(labels[nodes]):
        members = rng.permutation(nodes[labels[nodes] == k])
        keys.append((np.arange(members.size) + rng.random()) / members.size)  # evenly spread, seeded offset
        order.append(members)
    sequence = np.concatenate(order)[np.argsort(np.concatenate(keys), kind="stable")]
    counts = {int(k): int(np.count_nonzero(labels[nodes] == k)) for k in np.unique(labels[nodes])}
    m = int(min(max_folds, max(n_folds, -(-l // h)), l // math.gcd(l, h)))  # the last: distinct folds
    folds = []
    for j in range(m):
        held = sequence[(j * h + np.arange(h)) % l]
        for k, c in counts.items():  # keep a label of each class labelled twice or more
            mine = held[labels[held] == k]
            if c >= 2 and mine.size == c:
                held = held[held != mine[-1]]
        folds.append(np.sort(held).astype(np.int64))
    return folds


def _check_count(value, name, minimum):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be a whole number >= {minimum}, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return int(value)


def _check_fraction(value, name, *, closed=False):
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number in (0, 1{']' if closed else ')'}, got {value!r}") from None
    if not (0 < v < 1 or (closed and v == 1)):
        raise ValueError(f"{name} must be in (0, 1{']' if closed else ')'}, got {value!r}")
    return v


def _check_predictors(predictors):
    if isinstance(predictors, Predictor):
        raise TypeError("predictors must be a list of predictors: pass [predictor], not the predictor alone")
    predictors = list(predictors)
    if not predictors:
        raise ValueError(
            "no predictor to cross-validate: give at least one, e.g. harmonic_predictors('auto')"
        )
    for p in predictors:
        if not isinstance(p, Predictor):
            raise TypeError(
                f"{p!r} is not a Predictor: build one with harmonic_cmn(), relaxation_predictor(), ..."
            )
    return predictors


def _fold_errors(p, g, labelled, folds, train_fraction, rng):
    errors, given = [], []
    for held in folds:
        train = np.setdiff1d(np.flatnonzero(labelled), held)
        if train_fraction < 1:
            train = rng.permutation(train)[: max(1, int(round(train_fraction * train.size)))]
        mask = np.zeros(g.n_nodes, dtype=bool)
        mask[train] = True
        F = p.fit_predict(g, mask)
        errors.append(float(np.mean(F[held].argmax(axis=1) != g.labels[held])))
        given.append(train.size)
    return np.asarray(errors), np.asarray(given)


def cross_validate(
    predictors, g, *, n_folds=5, seed=0, train_fraction=1.0, labelled=None, max_folds=50, held_fraction=None
):
    """Error of each predictor on the labelled nodes of ``g``, in folds shaped like the problem (:func:`problem_folds`).

    Each fold's labels are hidden in turn; the predictor gets the others
    (a seeded ``train_fraction`` of them, for a learning curve) and is scored
    on the hidden ones. ``labelled`` (default ``g.labelled``) is the problem:
    the nodes whose labels may be given.

    Returns a DataFrame, one row per predictor: ``method, setting, labels``
    (given per fold, mean), ``held`` (hidden per fold, mean), ``folds``,
    ``error`` (mean over folds), ``error std`` (over folds), ``error min``,
    ``error max``, ``eligible`` (:func:`eligible`; the reason in ``note``),
    ``chosen`` (the lowest mean error among the eligible, a tie to the first
    listed), ``tied`` (the chosen row and the others within rounding of its
    error, when there are such others: a tie, not a choice the data made;
    all False otherwise) and ``margin`` (how much worse the best eligible
    predictor outside the tie is; 0 when others tie with the chosen one; NaN
    with a single eligible predictor).

    The chosen error is optimistic: it is the lowest of several estimates on
    the same folds (selection bias). :func:`nested_cross_validate` estimates
    the error of choosing, too.
    """
    predictors = _check_predictors(predictors)
    labelled = _labelled_mask(g, labelled)
    if np.array_equal(labelled, g.labelled):
        _check_learnable(g, "cross-validation")
    elif np.unique(g.labels[labelled]).size < 2:
        raise ValueError("cross-validation needs labelled nodes of at least 2 classes among the labels given")
    train_fraction = _check_fraction(train_fraction, "train_fraction", closed=True)
    folds = problem_folds(
        g.labels, labelled, n_folds=n_folds, seed=seed, max_folds=max_folds, held_fraction=held_fraction
    )
    rows = []
    for p in predictors:
        errors, given = _fold_errors(p, g, labelled, folds, train_fraction, np.random.default_rng([seed, 1]))
        ok, why = eligible(p, g, labelled)
        rows.append(
            {
                "method": p.method,
                "setting": p.setting,
                "labels": float(np.mean(given)),
                "held": float(np.mean([f.size for f in folds])),
                "folds": len(folds),
                "error": float(np.mean(errors)),
                "error std": float(np.std(errors, ddof=1)),
                "error min": float(errors.min()),
                "error max": float(errors.max()),
                "eligible": ok,
                "note": why,
            }
        )
    table = _choose(pd.DataFrame(rows))
    counts = {k: np.count_nonzero(g.labels[labelled] == k) for k in np.unique(g.labels[labelled])}
    table.attrs["folds hiding a whole class"] = sum(
        any(np.count_nonzero(g.labels[f] == k) == c for k, c in counts.items()) for f in folds
    )
    return table


def _choose(table):
    """Add ``chosen``, ``tied`` and ``margin`` to a table of ``error`` and ``eligible``."""
    err = np.where(table["eligible"], table["error"].to_numpy(dtype=float), np.nan)
    if np.all(np.isnan(err)):
        notes = "; ".join(sorted(set(table["note"])))
        raise ValueError(
            f"no predictor may be chosen here ({notes}): add harmonic_cmn('none') or an online one"
        )
    best = np.nanmin(err)
    tied = err <= best + TIE_RTOL * max(abs(best), 1e-300)
    tied &= ~np.isnan(err)
    pick = int(np.flatnonzero(tied)[0])
    rest = err[~tied & ~np.isnan(err)]
    margin = 0.0 if tied.sum() > 1 else (float(rest.min() - best) if rest.size else float("nan"))
    table["chosen"] = np.arange(len(table)) == pick
    table["tied"] = tied if tied.sum() > 1 else np.zeros(len(table), dtype=bool)
    table["margin"] = margin
    return table


def chosen_predictor(cv, predictors):
    """The predictor of the row ``cv["chosen"]`` (``predictors`` in the order given to :func:`cross_validate`)."""
    return list(predictors)[int(np.flatnonzero(cv["chosen"].to_numpy())[0])]


def chosen_prior(cv, predictors):
    """The prior of the best eligible harmonic predictor in ``cv`` (``"labelled"`` if none was listed).

    What the smaller parts of a graph are predicted with (:func:`predictions_table`).
    """
    predictors = list(predictors)
    rows = [i for i, p in enumerate(predictors) if p.prior is not None and cv["eligible"].iloc[i]]
    if not rows:
        return "labelled"
    err = cv["error"].to_numpy()[rows]
    return predictors[rows[int(np.argmin(err))]].prior


def nested_cross_validate(predictors, g, *, n_folds=5, seed=0, max_outer=None, max_folds=50):
    """The error of *choosing by cross-validation*, measured on labels the choice never saw.

    For each outer fold (:func:`problem_folds` of the problem, at most
    ``max_outer`` of them, default ``n_folds``), :func:`cross_validate` is run
    with that fold's labels removed, its chosen predictor is given the
    remaining labels and scored on the fold. The mean is an honest estimate
    of the whole procedure, free of the selection bias of the chosen row of
    :func:`cross_validate` (it describes a problem with the outer fold's
    labels fewer). Returns a DataFrame: ``fold, held, chosen`` (method and
    setting), ``error``.
    """
    predictors = _check_predictors(predictors)
    max_outer = n_folds if max_outer is None else _check_count(max_outer, "max_outer", 1)
    outer = problem_folds(g.labels, g.labelled, n_folds=n_folds, seed=seed, max_folds=max_folds)[:max_outer]
    rows = []
    for j, held in enumerate(outer, start=1):
        inner = g.labelled.copy()
        inner[held] = False
        if np.unique(g.labels[inner]).size < 2 or inner.sum() < 2:
            continue
        cv = cross_validate(
            predictors, g, n_folds=n_folds, seed=seed + j, labelled=inner, max_folds=max_folds
        )
        p = chosen_predictor(cv, predictors)
        F = p.fit_predict(g, inner)
        error = float(np.mean(F[held].argmax(axis=1) != g.labels[held]))
        rows.append({"fold": j, "held": held.size, "chosen": f"{p.method} ({p.setting})", "error": error})
    return pd.DataFrame(rows, columns=["fold", "held", "chosen", "error"])


def selection_report(cv, nested=None):
    """What :func:`cross_validate` chose, in words: the estimate, its spread over folds, ties, and its optimism.

    ``nested`` (:func:`nested_cross_validate`), when given, adds the estimate
    of the whole procedure.
    """
    row = cv[cv["chosen"]].iloc[0]
    name = lambda r: f"{r['method']} ({r['setting']})"  # noqa: E731
    lines = [
        f"chosen: {name(row)}, cross-validated error {row['error']:.3f} ± {row['error std']:.3f} (std over "
        f"{int(row['folds'])} folds; from {row['error min']:.3f} to {row['error max']:.3f}), each fold hiding "
        f"{row['held']:.3g} of the labels and giving {row['labels']:.3g}"
    ]
    others = cv[cv["tied"] & ~cv["chosen"]]
    if len(others):
        lines.append(
            f"tied with {', '.join(name(r) for _, r in others.iterrows())} at the same error: the folds do not "
            "tell them apart; the first listed is taken"
        )
    elif np.isfinite(row["margin"]):
        lines.append(f"the next best eligible predictor is {row['margin']:.3f} worse")
    barred = cv[~cv["eligible"]]
    if len(barred):
        lines.append("not eligible: " + "; ".join(f"{name(r)}: {r['note']}" for _, r in barred.iterrows()))
    if (cv["eligible"]).sum() > 1:
        lines.append(
            f"this error is optimistic: it is the lowest of {int(cv['eligible'].sum())} estimates on the same folds "
            "(selection bias)"
        )
    whole = cv.attrs.get("folds hiding a whole class", 0)
    if whole:
        lines.append(
            f"{whole} of {int(row['folds'])} folds hid every label of a class (a class labelled once): no "
            "predictor can name that class there, so the error overstates the error on your unlabelled nodes; "
            "label a second node of each class for an estimate"
        )
    if nested is not None and not len(nested):
        lines.append(
            "nested cross-validation: not possible (no outer fold leaves labels of two classes to choose with)"
        )
    if nested is not None and len(nested):
        e = nested["error"].to_numpy()
        spread = f" ± {np.std(e, ddof=1):.3f}" if e.size > 1 else ""
        lines.append(
            f"nested cross-validation (the choice made again without each of {e.size} outer folds, scored on it): "
            f"error {e.mean():.3f}{spread}"
        )
    return "\n".join(lines)


def learning_curve(predictors, g, fractions, *, n_folds=5, seed=0, held_fraction=None):
    """:func:`cross_validate` with a fraction of the other folds' labels given: would more labels help?

    The folds hide ``held_fraction`` of the labels, by default ``1 / n_folds``
    (k-fold): the curve asks how the error falls with the number of labels,
    so it runs up to nearly all of them, where the folds of
    :func:`cross_validate` (shaped like the problem) may give far fewer.
    """
    fractions = list(fractions)
    if not fractions:
        raise ValueError("no fraction of the labels to give: pass e.g. fractions=[0.5, 1.0]")
    fractions = [_check_fraction(f, "each of fractions", closed=True) for f in fractions]
    n_folds = _check_count(n_folds, "n_folds", 2)
    held_fraction = 1.0 / n_folds if held_fraction is None else held_fraction
    tables = []
    for f in fractions:
        t = cross_validate(
            predictors, g, n_folds=n_folds, seed=seed, train_fraction=f, held_fraction=held_fraction
        )
        tables.append(t.assign(fraction=f))
    return pd.concat(tables, ignore_index=True)


def confidence(F):
    """Share of the top class in each row of scores ``F`` (NaN where the scores sum to 0)."""
    F = np.clip(np.asarray(F, float), 0.0, None)
    total = F.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, F.max(axis=1) / total, np.nan)


def _some_parts(parts, caller):
    """``parts`` as a list, refused when empty: the connected parts of a graph, largest first."""
    parts = list(parts)
    if not parts:
        raise ValueError(
            f"{caller}: no part to predict: pass the connected parts of your graph, largest first "
            "(e.g. the list Graph.read_csv_components returns)"
        )
    return parts


def predictions_table(parts, chosen, *, prior="labelled"):
    """Every node of every part: ``node, prediction, confidence, given, part, note`` in the user's strings.

    ``chosen`` (a :class:`Predictor`) predicts the largest part when it holds
    two labelled classes; a smaller part with two labelled classes gets the
    harmonic function with CMN under ``prior`` (parameter-free; pass
    :func:`chosen_prior` of the cross-validation, and no CMN is applied to a
    part with one unlabelled node); a part with one labelled class gets that
    class, a part without a labelled node no prediction, each with a note.
    """
    parts = _some_parts(parts, "predictions_table")
    check_prior(prior, parts[0], allow_auto=False)
    frames = []
    for i, g in enumerate(parts):
        names = np.asarray(g.class_names, dtype=object)
        given = np.where(g.labelled, names[np.maximum(g.labels, 0)], "")
        classes = np.unique(g.labels[g.labelled])
        pred = np.full(g.n_nodes, "", dtype=object)
        conf = np.full(g.n_nodes, np.nan)
        if classes.size >= 2:
            if i == 0 and not isinstance(chosen, Predictor):
                raise ValueError(
                    f"the largest part has {classes.size} labelled classes: give the predictor to use "
                    f"(chosen by cross_validate), not {chosen!r}"
                )
            p = chosen if i == 0 else harmonic_cmn(prior)
            F = p.fit_predict(g, g.labelled)
            pred, conf = names[F.argmax(axis=1)], confidence(F)
            note = "" if i == 0 else f"a smaller part: {p.method} ({p.setting})"
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
    parts = _some_parts(parts, "to_label_table")
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
