"""Chapter 03's experiments: GPA's mistakes on real runs against the perceptron's bounds.

:func:`perceptron_bound_runs` (equal and unequal classes), :func:`noisy_label_runs` (flipped
labels, the hinge-loss bound) and :func:`bias_feature_runs` (a bias feature), each with the table
the chapter prints. The bounds themselves are in :mod:`graphsel_lib.theory.perceptron`.
"""

from __future__ import annotations

import numpy as np

from .._validation import as_real_matrix, check_positive
from ..graph import check_adjacency, cut_size, laplacian
from ..online import GPA, OneVsRest, run
from ..spectral import add_bias
from ..theory.perceptron import perceptron_hinge_bound


def _checked_problem(S, M, labels, name):
    """A connected graph, its exact features and a ``±1`` labelling of its nodes: ``(S, n, M, labels)``."""
    S = check_adjacency(S, require_connected=True)
    n = S.shape[0]
    M = _exact_features(M, n)
    labels = np.asarray(labels)
    if labels.shape != (n,) or not np.all(np.isin(labels, (-1, 1))):
        raise ValueError(f"{name} must be an array of shape ({n},) in {{-1, +1}}")
    return S, n, M, labels


def _exact_features(M, n_nodes):
    M = as_real_matrix(M, "M (shape (n - 1, n), column t is m_t)", sparse=False, copy=False)
    if M.shape != (n_nodes - 1, n_nodes):
        raise ValueError(
            f"M must hold the exact kernel's features, shape ({n_nodes - 1}, {n_nodes}) "
            f"(spectral_embedding(S, n - 1).M), got {M.shape}"
        )
    return M


def perceptron_bound_runs(M, S, y, orders, *, b=1.0):
    """GPA's mistakes against the perceptron mistake bounds of chapter 03 §2, one row per node order.

    Novikoff's bound (margin 1): if ``y_t⟨u, x_t⟩ ≥ 1`` on every round, the
    perceptron makes ``|𝓜| ≤ ||u||² R²`` mistakes, ``R = max_t ||x_t||``. On the
    features ``m_t`` of the exact kernel (``MᵀM = L^+``, so ``R² = max_t K_tt``)
    the comparator ``u = M L y`` has ``||u||² = yᵀLy = 4Φ(y)`` and margin
    ``1 − y_t ȳ ≥ 1 − |ȳ|`` (Herbster & Pontil 2006; ``ȳ`` the mean label). Per
    order this returns the mistakes of GPA on ``M`` and on ``add_bias(M, b)``
    beside

    * ``4 Φ(y) max_t K_tt`` (column ``"4 Phi max K_tt"``), the slides' form, a
      theorem when ``ȳ = 0``;
    * ``4 Φ(y) max_t K_tt / (1 − |ȳ|)²`` (``"margin-corrected"``), a theorem for
      every ``y`` (the comparator ``u/(1 − |ȳ|)`` has margin 1);
    * the same with ``R²`` the largest ``K_tt`` of the mistaken rounds only
      (``"data-dependent"``; the proof only uses those rounds);
    * ``(4Φ(y) + ȳ²/b)(max_t K_tt + b)`` (``"bias bound"``) for the features
      ``(m_t, √b)``, kernel ``L^+ + b𝟙𝟙ᵀ``: ``u = (M L y, ȳ/√b)`` reproduces
      ``y`` with margin 1; its mistakes are ``"mistakes (bias b=B)"``.

    Parameters
    ----------
    M : array of shape (n - 1, n)
        The exact kernel's features, ``spectral_embedding(S, n - 1).M``.
    S : weight matrix of the connected graph (n × n).
    y : array of shape (n,) in {-1, +1}
    orders : array of shape (n_orders, n)
        The node orders, one GPA pass each.
    b : float > 0, default 1.0
        The bias constant.

    Returns
    -------
    pandas.DataFrame
        One row per order: ``order, n, share`` (of the class ``+1``), ``Phi,
        max K_tt, mistakes``, the four bounds and the mistakes with the bias.
        It asserts nothing: chapter 03 asserts the theorems on it.
    """
    import pandas as pd

    S, n, M, y = _checked_problem(S, M, y, "y")
    b = check_positive(b, "bias b")
    Kd = (M**2).sum(axis=0)  # ||m_t||^2 = K_tt (exact kernel)
    Mb = add_bias(M, b)
    phi, ybar = cut_size(S, y), y.mean()
    slides = 4 * phi * Kd.max()
    margin = slides / (1 - abs(ybar)) ** 2
    bias = (4 * phi + ybar**2 / b) * (Kd.max() + b)
    rows = []
    for k, order in enumerate(np.asarray(orders)):
        tr = run(GPA(), M, y, order=order)
        trb = run(GPA(), Mb, y, order=order)
        data_dependent = 4 * phi * Kd[order[tr.mistakes]].max(initial=0.0) / (1 - abs(ybar)) ** 2
        rows.append({"order": k, "n": n, "share": (y == 1).mean(), "Phi": phi, "max K_tt": Kd.max(),
                     "mistakes": tr.n_mistakes, "4 Phi max K_tt": slides, "margin-corrected": margin,
                     "data-dependent": data_dependent, f"mistakes (bias b={b:g})": trb.n_mistakes,
                     "bias bound": bias})  # fmt: skip
    return pd.DataFrame(rows)


def perceptron_bound_table(runs, *, b=1.0):
    """Chapter 03's table ``03_mistake_bound``: the runs of :func:`perceptron_bound_runs` per problem.

    ``runs`` carries the columns of :func:`perceptron_bound_runs` plus ``graph``
    and ``class``. Per problem (in order of first appearance): its size, class
    share, cut size and ``max_t K_tt``, the mean and largest mistakes over the
    orders, the three bounds that do not depend on the order, the largest
    mistakes with the bias ``b``, and whether the slides' bound is below ``n``
    (informative for one pass).

    Parameters
    ----------
    runs : pandas.DataFrame
        The rows of :func:`perceptron_bound_runs` with the columns ``graph`` and ``class``.
    b : float, default 1.0
        The bias constant of the runs (it names their column ``mistakes (bias b=...)``).

    Returns
    -------
    pandas.DataFrame
        One row per (graph, class): ``graph``, ``class``, ``n``, ``share``,
        ``Phi``, ``max_K_tt``, ``mistakes_mean``, ``mistakes_max``,
        ``bound_slides``, ``bound_margin``, ``mistakes_bias_max``, ``bound_bias``
        and ``informative (slides < n)``.
    """
    table = (
        runs.groupby(["graph", "class"], sort=False)
        .agg(n=("n", "first"), share=("share", "first"), Phi=("Phi", "first"), max_K_tt=("max K_tt", "first"),
             mistakes_mean=("mistakes", "mean"), mistakes_max=("mistakes", "max"),
             bound_slides=("4 Phi max K_tt", "first"), bound_margin=("margin-corrected", "first"),
             mistakes_bias_max=(f"mistakes (bias b={b:g})", "max"), bound_bias=("bias bound", "first"))
        .reset_index()
    )  # fmt: skip
    table["informative (slides < n)"] = table["bound_slides"] < table["n"]
    return table


def noisy_label_runs(M, S, f, rates, orders, flip_draws):
    """GPA on labels with a share ``rate`` flipped, against the noisy-label bounds of chapter 03 §5.

    The comparator is the clean labelling ``f ∈ {−1, +1}^n`` seen in ``𝓗``:
    ``u = M L f``, ``||u||² = 4Φ(f)``, ``⟨u, m_t⟩ = f_t − f̄``. For each rate,
    draw ``k`` flips the first ``round(rate · n)`` nodes of ``flip_draws[k]``
    (nested: a higher rate flips a superset) and GPA runs in ``orders[k]`` on
    the flipped labels ``y``. With ``a = ||u||² R²`` (``R² = max_t K_tt``) and
    :func:`perceptron_hinge_bound` the row holds

    * ``"slides"``: the slides' form, ``ℓ = 2|𝓜 ∩ 𝓜_u|`` (mistakes on flipped nodes);
    * ``"a priori"``: ``ℓ = 2 ×`` the number of flipped labels (known before the run);
    * ``"hinge"``: ``(∗)`` with the measured hinge loss ``ℓ_𝓜(u)`` (a theorem);
    * ``"corrected"``: the margin-corrected slides' form, ``u/(1 − |f̄|)`` with
      ``a/(1 − |f̄|)²`` and loss ``2/(1 − |f̄|)`` per mistake on a flipped node (a theorem).

    The slides' and the a-priori forms are theorems when ``f̄ = 0`` (margins exactly
    ``±1``). ``"extra"`` (if ``0`` is among ``rates``) is the mistakes beyond
    the same order without noise. Returns a DataFrame, one row per (rate, order).

    Parameters
    ----------
    M : array of shape (n - 1, n)
        The exact kernel's features, ``spectral_embedding(S, n - 1).M``.
    S : array-like or sparse matrix of shape (n, n)
        Weights of the connected graph.
    f : array of shape (n,) in {-1, +1}
        The clean labelling.
    rates : iterable of float
        Shares of flipped labels.
    orders : array of int of shape (n_orders, n)
        The node orders; GPA runs once in each, for every rate.
    flip_draws : array of int of shape (n_orders, n)
        Permutations of the nodes: draw ``k`` flips the first ``round(rate · n)`` of row ``k``.

    Returns
    -------
    pandas.DataFrame
        Columns ``n``, ``Phi``, ``fbar``, ``max K_tt``, ``rate``, ``flipped``,
        ``order``, ``mistakes``, ``M cap M_u``, ``hinge loss``, ``noise-free``
        (``a``), the four bounds above, ``mistakes / slides`` and, if ``0`` is
        among ``rates``, ``extra``.

    Raises
    ------
    ValueError
        Shapes that do not match, a disconnected graph, or ``f`` not in ``{-1, +1}``.
    """
    import pandas as pd

    S, n, M, f = _checked_problem(S, M, f, "f")
    orders, flip_draws = np.asarray(orders), np.asarray(flip_draws)
    if orders.shape != flip_draws.shape or orders.ndim != 2 or orders.shape[1] != n:
        raise ValueError("orders and flip_draws must both have shape (n_orders, n)")
    phi, fbar = cut_size(S, f), f.mean()
    u = M @ (laplacian(S) @ f)  # f in H, in the coordinates of the m_t
    margins = M.T @ u  # <u, m_t> = f_t - fbar
    R2 = (M**2).sum(axis=0).max()  # R^2 = max_t ||m_t||^2 = max_t K_tt
    a = (u @ u) * R2  # ||u||^2 R^2, the noise-free bound
    a_corr, c_corr = a / (1 - abs(fbar)) ** 2, 2 / (1 - abs(fbar))  # the comparator u / (1 - |fbar|)
    rows = []
    for rate in rates:
        n_flip = int(round(rate * n))
        for k, (order, draw) in enumerate(zip(orders, flip_draws, strict=True)):
            flipped = np.zeros(n, bool)
            flipped[draw[:n_flip]] = True
            y = np.where(flipped, -f, f)  # the labels the learner sees
            tr = run(GPA(), M, y, order=order)
            wrong = tr.order[tr.mistakes]  # nodes of the mistaken rounds
            m, m_u = tr.n_mistakes, int(flipped[wrong].sum())  # |M| and |M cap M_u|
            loss = np.maximum(0.0, 1 - y * margins)[wrong].sum()  # l_M(u)
            rows.append({"n": n, "Phi": phi, "fbar": fbar, "max K_tt": R2, "rate": rate, "flipped": n_flip,
                         "order": k, "mistakes": m, "M cap M_u": m_u, "hinge loss": loss, "noise-free": a,
                         "slides": float(perceptron_hinge_bound(2 * m_u, a)),
                         "a priori": float(perceptron_hinge_bound(2 * n_flip, a)),
                         "hinge": float(perceptron_hinge_bound(loss, a)),
                         "corrected": float(perceptron_hinge_bound(c_corr * m_u, a_corr))})  # fmt: skip
    runs = pd.DataFrame(rows)
    runs["mistakes / slides"] = runs["mistakes"] / runs["slides"]
    if 0 in list(rates):
        base = runs[runs.rate == 0].set_index("order")["mistakes"]  # the same order without noise
        runs["extra"] = runs["mistakes"] - base.loc[runs["order"]].to_numpy()
    return runs


def noisy_bound_table(runs):
    """Chapter 03's table ``03_noisy_bound``: the runs of :func:`noisy_label_runs` per graph and rate.

    ``runs`` carries a ``graph`` column besides those of :func:`noisy_label_runs`.
    Per (graph, rate): the flips, ``f̄``, the noise-free bound, the mean and
    largest mistakes, the mean ``|𝓜 ∩ 𝓜_u|``, the mean slides', hinge and
    corrected bounds, the a-priori bound and the largest ratio mistakes/bound.

    Parameters
    ----------
    runs : pandas.DataFrame
        The rows of :func:`noisy_label_runs` with a ``graph`` column.

    Returns
    -------
    pandas.DataFrame
        One row per (graph, rate): ``graph``, ``rate``, ``n``, ``flipped``,
        ``fbar``, ``noise_free_bound``, ``mistakes_mean``, ``mistakes_max``,
        ``M_cap_M_u_mean``, ``bound_slides_mean``, ``bound_a_priori``,
        ``bound_hinge_mean``, ``bound_corrected_mean`` and
        ``max_mistakes_over_bound`` (the largest ``mistakes / slides``).
    """
    return (
        runs.groupby(["graph", "rate"], sort=False)
        .agg(n=("n", "first"), flipped=("flipped", "first"), fbar=("fbar", "first"),
             noise_free_bound=("noise-free", "first"), mistakes_mean=("mistakes", "mean"),
             mistakes_max=("mistakes", "max"), M_cap_M_u_mean=("M cap M_u", "mean"),
             bound_slides_mean=("slides", "mean"), bound_a_priori=("a priori", "first"),
             bound_hinge_mean=("hinge", "mean"), bound_corrected_mean=("corrected", "mean"),
             max_mistakes_over_bound=("mistakes / slides", "max"))
        .reset_index()
    )  # fmt: skip


def bias_feature_runs(features, labels, configs, orders, *, learners, n_classes=None):
    """One-vs-rest runs with and without the bias feature ``√b``: one row per (learner, rank, b, order).

    Herbster & Pontil's fix of the constant direction (chapter 03 §4): the
    features ``(m_t, √b)`` (:func:`~graphsel_lib.spectral.add_bias`), i.e. the
    kernel ``L_d^+ + b𝟙𝟙ᵀ``, give the learner an intercept; ``b = 0`` runs on
    ``m_t`` alone, whose scores sum to zero over the graph.

    Parameters
    ----------
    features : dict
        Rank label (e.g. ``100`` or ``"exact"``) -> features ``M`` of shape (d, n).
    labels : array of int of shape (n,), classes ``0..K-1``.
    configs : iterable of (learner name, rank label, b)
    orders : array of shape (n_orders, n)
    learners : dict
        Learner name -> factory of a fresh binary learner (run one-vs-rest).
    n_classes : int, optional

    Returns
    -------
    pandas.DataFrame
        Columns ``learner, d`` (the rank label as text), ``b, order,
        multiclass error, mean binary error`` and ``class k error`` per class.
    """
    import pandas as pd

    rows = []
    for learner, d, b in configs:
        X = np.asfortranarray(features[d] if b == 0 else add_bias(features[d], b))
        for k, order in enumerate(np.asarray(orders)):
            tr = run(OneVsRest(learners[learner]), X, labels, order=order, n_classes=n_classes)
            row = {"learner": learner, "d": str(d), "b": b, "order": k, "multiclass error": tr.error_rate,
                   "mean binary error": tr.binary_error_rate}  # fmt: skip
            row.update({f"class {c} error": e for c, e in enumerate(tr.binary_errors)})
            rows.append(row)
    return pd.DataFrame(rows)


def bias_feature_table(runs):
    """Chapter 03's table ``03_bias_cora``: mean and standard deviation over the orders of :func:`bias_feature_runs`.

    Parameters
    ----------
    runs : pandas.DataFrame
        The rows of :func:`bias_feature_runs`.

    Returns
    -------
    pandas.DataFrame
        One row per (learner, d, b): ``learner``, ``d``, ``b``, ``mean binary
        error mean``, ``mean binary error std``, ``multiclass error mean`` and
        ``multiclass error std``.
    """
    cols = ["mean binary error", "multiclass error"]
    table = runs.groupby(["learner", "d", "b"], sort=False)[cols].agg(["mean", "std"]).reset_index()
    table.columns = [" ".join(c).strip() for c in table.columns]
    return table
