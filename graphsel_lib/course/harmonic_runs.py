"""Chapter 11's experiments: the harmonic function with and without CMN, and four ways to learn the graph.

:func:`harmonic_cmn_accuracy` (with :func:`labelled_per_class`) measures CMN on stratified
labelled sets; :func:`compare_bandwidth_learners` and :func:`summarise_bandwidth_learners` set
HEM, MinEnt and LOOHL (zhang2006) side by side on random labelled sets
(:func:`draw_labelled_set`); :func:`walk_edge_weights` and :func:`cross_class_mass` describe
the walk of a learned graph (§6), and :func:`reach_probability` finds the nodes it strands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._validation import as_generator, check_labelled, check_probability, renamed_parameter
from ..transductive import (
    harmonic,
    harmonic_rbf,
    loo_objective,
    loohl_fit,
    minent_fit,
    mst_bandwidth,
    smoothed_transition,
)

if TYPE_CHECKING:
    from numpy.typing import ArrayLike


def labelled_per_class(y, per_class, rng):
    """``per_class`` nodes of every class, drawn without replacement; sorted indices (a stratified labelled set).

    Parameters
    ----------
    y : array-like of int of shape (n_nodes,)
        Labels ``0..K-1`` of every node.
    per_class : int
        Labelled nodes drawn from each class.
    rng : int, numpy.random.Generator, None, or a sequence of K of them
        One generator (or seed) drawn from class after class, or one per class.

    Returns
    -------
    ndarray of int of shape (K · per_class,), sorted

    Examples
    --------
    >>> labelled_per_class([0, 0, 1, 1, 1], 1, np.random.default_rng(0)).size
    2
    """
    y = np.asarray(y, dtype=np.int64)
    K = int(y.max()) + 1
    one = rng is None or isinstance(rng, (int, np.integer, np.random.Generator, np.random.SeedSequence))
    rngs = [as_generator(rng, "rng")] * K if one else [as_generator(r, "rng") for r in rng]
    if len(rngs) != K:
        raise ValueError(
            f"rng must be one generator or seed, or {K} of them (one per class), got {len(rngs)}"
        )
    picks = [r.choice(np.flatnonzero(y == k), per_class, replace=False) for k, r in enumerate(rngs)]
    return np.sort(np.concatenate(picks))


def harmonic_cmn_accuracy(S, y, per_class_values, draws, seed=0):
    """Accuracy on the unlabelled nodes of the harmonic function with and without CMN, per labelled set.

    For each number of labels per class in ``per_class_values`` and each draw,
    the labelled set is :func:`labelled_per_class` with the generator
    ``default_rng([seed, draw, per_class])`` (notebook 11's explorer).

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Symmetric non-negative weights.
    y : array-like of int of shape (n_nodes,)
        Labels ``0..K-1`` of every node.
    per_class_values : iterable of int
        Numbers of labelled nodes per class.
    draws : iterable of int
        The draws, e.g. ``range(10)``; each enters the generator's seed.
    seed : int, default 0

    Returns
    -------
    pandas.DataFrame
        Columns ``per class``, ``draw``, ``harmonic``, ``CMN``.
    """
    import pandas as pd

    y = np.asarray(y)
    rows = []
    for p in per_class_values:
        for d in draws:
            lab = labelled_per_class(y, p, np.random.default_rng([seed, d, p]))
            unl = np.setdiff1d(np.arange(y.size), lab)
            acc = [float(np.mean(harmonic(S, y, lab, cmn=c)[unl].argmax(1) == y[unl])) for c in (False, True)]
            rows.append({"per class": p, "draw": d, "harmonic": acc[0], "CMN": acc[1]})
    return pd.DataFrame(rows)


#: The four graphs compared on each labelled set, in the order of the table; ``{shrink}`` is filled in.
BANDWIDTH_METHODS = ("HEM (ω₀)", "MinEnt", "LOOHL (pure)", "LOOHL (shrink={shrink})")


@renamed_parameter("n_labeled", "n_labelled")
def draw_labelled_set(y, n_labelled, rng, *, min_per_class=2):
    """``n_labelled`` distinct nodes drawn uniformly by ``rng``, redrawn until each class has ``min_per_class``.

    Parameters
    ----------
    y : array-like of int of shape (n_nodes,)
        Labels ``0..K-1`` of every node.
    n_labelled : int
        Size of the labelled set, at least ``K · min_per_class``.
    rng : int, numpy.random.Generator or None
        A generator (its stream continues) or a seed (``numpy.random.default_rng(rng)``).
    min_per_class : int, default 2
        LOOHL's ``loss="log"`` needs 2 (one labelled node of a class is held out at a time).

    Returns
    -------
    ndarray of int, sorted
    """
    y = np.asarray(y, dtype=np.int64)
    K = int(y.max()) + 1
    if n_labelled > y.size or n_labelled < K * min_per_class:
        raise ValueError(
            f"cannot draw {n_labelled} of {y.size} nodes with {min_per_class} in each of {K} classes"
        )
    rng = as_generator(rng, "rng")
    while True:
        lab = np.sort(rng.choice(y.size, n_labelled, replace=False))
        if np.bincount(y[lab], minlength=K).min() >= min_per_class:
            return lab


@renamed_parameter("labeled", "labelled")
def reach_probability(
    X: ArrayLike, labelled: ArrayLike, sigma: ArrayLike, *, eps: float = 1e-4
) -> tuple[np.ndarray, np.ndarray]:
    """Probability ``r_i`` that the smoothed walk from unlabelled node ``i`` hits a labelled node before it jumps.

    The walk ``P~ = (eps/n) 1 1^T + (1 - eps) P`` of :func:`~graphsel_lib.transductive.smoothed_transition`
    moves along ``P = D^-1 S`` with probability ``1 - eps`` and otherwise jumps
    uniformly. Conditioning on the first step,

        r_U = (1 - eps) (P_UU r_U + P_UL 1),

    one linear solve (notebook 11 §6). With ``eps = 1e-4`` a walk jumps once per
    ``10^4`` steps, so ``r_i`` is near 1 whenever a chain of strong edges joins
    ``i`` to a labelled node; a node with ``r_i < 1/2`` is *stranded*: its
    harmonic score is set by the uniform jump, i.e. washed out to the label
    average. zhang2006's degenerate graphs (Fig. 1) strand many nodes.

    Parameters
    ----------
    X : array-like of shape (n_nodes, n_features)
        Node features.
    labelled : array-like of int of shape (l,) or of bool of shape (n_nodes,)
        The labelled nodes.
    sigma : float or array-like of shape (n_features,)
        Bandwidths (the notebooks' ``omega_p``).
    eps : float in [0, 1), default 1e-4
        Probability of a uniform jump.

    Returns
    -------
    unlabelled : ndarray of int of shape (u,)
    r : ndarray of shape (u,)

    Raises
    ------
    ValueError, TypeError
        Invalid ``X``, ``labelled``, ``sigma`` or ``eps``.

    Examples
    --------
    Without jumps (``eps = 0``) every walk on a connected graph reaches the label:

    >>> unlabelled, r = reach_probability([[0.0], [1.0], [2.0]], [0], 1.0, eps=0.0)
    >>> unlabelled.tolist(), r.round(6).tolist()
    ([1, 2], [1.0, 1.0])
    """
    eps = check_probability(eps, "eps", high_open=True)
    P = smoothed_transition(X, sigma, 0.0)  # eps = 0: the walk D^-1 S itself
    n = P.shape[0]
    lab = check_labelled(labelled, n)
    unl = np.setdiff1d(np.arange(n), lab)
    A = np.eye(unl.size) - (1.0 - eps) * P[np.ix_(unl, unl)]
    return unl, (1.0 - eps) * np.linalg.solve(A, P[np.ix_(unl, lab)].sum(axis=1))


@renamed_parameter("n_labeled", "n_labelled")
def compare_bandwidth_learners(X, y, *, n_labelled, n_splits, seed, maxiter, shrink, eps=1e-4):
    """Learn the graph four ways on ``n_splits`` random labelled sets and measure each (notebook 11 §6).

    On each labelled set (:func:`draw_labelled_set` with the generator
    ``default_rng(seed + 1000 + split)``): HEM at the start ``sigma0`` of
    :func:`mst_bandwidth`, :func:`minent_fit`, pure :func:`loohl_fit` and
    :func:`loohl_fit` with the ``shrink`` prior, each searched (projected L-BFGS with
    a margin against rounding) for at most ``maxiter`` iterations. For each learned graph: the error of the
    harmonic scores (smoothing ``eps``) on the unlabelled nodes, the share of
    stranded unlabelled nodes (:func:`reach_probability` below 1/2), the
    smallest reach, the LOO loss (:func:`loo_objective`, zhang2006 Eq. 5) and
    the spread ``max_p - min_p`` of ``log10(sigma_p / sigma0)`` in decades.

    Parameters
    ----------
    X : array-like of shape (n_nodes, n_features)
        Node features of the RBF graph.
    y : array-like of int of shape (n_nodes,)
        Labels ``0..K-1`` of every node (those of the unlabelled nodes score the graphs).
    n_labelled : int
        Size of each labelled set, at least 2 per class.
    n_splits : int
        Number of labelled sets.
    seed : int
        Labelled set ``split`` is drawn with ``default_rng(seed + 1000 + split)``.
    maxiter : int
        The most iterations of each search.
    shrink : float
        Weight of the prior on the log bandwidths in the fourth method (``loohl_fit``'s ``shrink``).
    eps : float in [0, 1), default 1e-4
        Probability of a uniform jump of the smoothed walk.

    Returns
    -------
    runs : pandas.DataFrame
        One row per labelled set and method: ``split``, ``method``, ``error``,
        ``stranded``, ``min reach``, ``LOO loss``, ``spread (decades)``.
    fitted : dict
        ``(method, split) -> (labelled, sigma, r_U)``.
    """
    import pandas as pd

    names = [m.format(shrink=shrink) for m in BANDWIDTH_METHODS]
    rows, fitted = [], {}
    for split in range(n_splits):
        lab = draw_labelled_set(y, n_labelled, np.random.default_rng(seed + 1000 + split))
        unl = np.setdiff1d(np.arange(len(y)), lab)
        s0 = mst_bandwidth(X, y, lab)
        sigmas = (
            np.full(np.shape(X)[1], s0),
            minent_fit(X, y, lab, maxiter=maxiter).sigma,
            loohl_fit(X, y, lab, maxiter=maxiter).sigma,
            loohl_fit(X, y, lab, shrink=shrink, maxiter=maxiter).sigma,
        )
        for name, sig in zip(names, sigmas, strict=True):
            F = harmonic_rbf(X, y, lab, sigma=sig, eps=eps)
            _, r = reach_probability(X, lab, sig, eps=eps)
            spread = np.log10(sig / s0)
            rows.append({
                "split": split, "method": name,
                "error": float(np.mean(F[unl].argmax(1) != np.asarray(y)[unl])),
                "stranded": float(np.mean(r < 0.5)), "min reach": float(r.min()),
                "LOO loss": loo_objective(X, y, lab, sig, eps=eps)[0],
                "spread (decades)": float(spread.max() - spread.min()),
            })  # fmt: skip
            fitted[name, split] = (lab, sig, r)
    return pd.DataFrame(rows), fitted


def summarise_bandwidth_learners(runs):
    """One row per method of :func:`compare_bandwidth_learners`, each column at the precision it is stable to.

    Errors and stranded shares are counts over the unlabelled nodes (4
    decimals); the smallest reach is rounded to 2 decimals, the LOO loss and the
    spread are **medians** over the labelled sets at 2 and 1 decimals: these
    searches are ill-posed (notebook 11 checks the table against a one-thread run).

    Parameters
    ----------
    runs : pandas.DataFrame
        The first table of :func:`compare_bandwidth_learners`.

    Returns
    -------
    pandas.DataFrame
        One row per method, in order of first appearance: ``method``, ``error
        mean``, ``error std``, ``stranded mean``, ``stranded max``, ``lowest
        reach``, ``LOO loss median`` and ``spread median``.
    """
    import pandas as pd

    g = runs.groupby("method", sort=False)
    return pd.DataFrame({
        "error mean": g["error"].mean().round(4),
        "error std": g["error"].std().fillna(0).round(4),
        "stranded mean": g["stranded"].mean().round(4),
        "stranded max": g["stranded"].max().round(4),
        "lowest reach": g["min reach"].min().round(2),
        "LOO loss median": g["LOO loss"].median().round(2),
        "spread median": g["spread (decades)"].median().round(1),
    }).reset_index()  # fmt: skip


def walk_edge_weights(X, sigma, *, min_weight=0.01):
    """The edges of the learned walk to draw: ``(i, j, w_ij)`` with ``w_ij = max(P_ij, P_ji) >= min_weight``.

    ``P = D^-1 S`` is the unsmoothed walk on the RBF graph with bandwidths
    ``sigma``. Notebook 11 draws each edge with opacity ``w_ij``: the picture is
    continuous in the weights, so no edge appears or vanishes at a threshold
    that rounding could cross (an edge at ``min_weight = 0.01`` is drawn at 1 %
    opacity, invisible either way).

    Parameters
    ----------
    X : array-like of shape (n_nodes, n_features)
        Node features.
    sigma : float or array-like of shape (n_features,)
        Bandwidths.
    min_weight : float, default 0.01
        The smallest ``w_ij`` kept.

    Returns
    -------
    i, j : ndarray of int (``i < j``)
    w : ndarray of float

    Examples
    --------
    >>> i, j, w = walk_edge_weights([[0.0], [1.0], [2.0]], 1.0)
    >>> i.tolist(), j.tolist(), w.round(4).tolist()
    ([0, 0, 1], [1, 2, 2], [0.9526, 0.0474, 0.9526])
    """
    P = smoothed_transition(X, sigma, 0.0)  # eps = 0: the walk D^-1 S itself
    W = np.maximum(P, P.T)
    i, j = np.nonzero(np.triu(W >= min_weight, 1))
    return i, j, W[i, j]


def cross_class_mass(X, y, sigma):
    """Mean over the nodes of the walk's probability to step to a node of another class, ``mean_i sum_j P_ij [y_j != y_i]``.

    A continuous measure of how much a learned graph joins the classes (notebook 11 §6).

    Parameters
    ----------
    X : array-like of shape (n_nodes, n_features)
        Node features.
    y : array-like of shape (n_nodes,)
        Labels of every node.
    sigma : float or array-like of shape (n_features,)
        Bandwidths of the RBF graph; ``P = D^-1 S`` is its unsmoothed walk.

    Returns
    -------
    float
        In ``[0, 1]``.

    Examples
    --------
    >>> round(cross_class_mass([[0.0], [1.0], [2.0]], [0, 0, 1], 1.0), 4)
    0.5158
    """
    y = np.asarray(y)
    P = smoothed_transition(X, sigma, 0.0)  # eps = 0: the walk D^-1 S itself
    return float((P * (y[None, :] != y[:, None])).sum(axis=1).mean())
