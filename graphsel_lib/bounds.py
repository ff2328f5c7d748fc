"""Bounds of the online learners on graphs, evaluated on real runs.

Herbster & Pontil (NIPS 2006), the graph perceptron. With ``L^+`` the
reproducing kernel of ``H = {g : Σ g = 0}`` under ``<f, g> = f^T L g``, its
columns ``K_t = L^+ e_t`` and entries ``K_st``:

* ``K_tt = ||K_t||^2 ≤ min(1/λ_2, ρ_t)`` (slides, "Bound # of mistakes"),
  ``ρ_t`` the eccentricity of ``t``;
* the perceptron on ``x_t = K_t`` makes ``|M| ≤ ||y||^2 max_t K_tt
  = 4 Φ(y) max_t K_tt`` mistakes for ``y ∈ {-1,+1}^n`` (``Φ`` = cut size);
  :func:`perceptron_bound_runs`, :func:`noisy_label_runs` (the hinge-loss
  form :func:`perceptron_hinge_bound`) and :func:`bias_feature_runs` evaluate
  it, its unequal-class, noisy-label and bias versions on GPA runs (chapter 03);
* ``K_tt ≤ max_q r_eff(t, q)`` with ``r_eff`` the effective resistance
  (:func:`kernel_bound_tightness` and :func:`kernel_bound_table` compare the
  two on a graph; :func:`low_rank_kernel_errors` measures the rank-``d`` kernel).
* Eckart–Young–Mirsky for ``L^+``: :func:`eckart_young_errors` sets the
  rank-``d`` kernel against random Nyström approximations
  (:func:`nystrom_kernel`) and perturbed projections of the same rank (chapter 07).

gu2013 (OLLGC and SSLGC) and yang2016 (CMOG), each evaluated term by term on
the :class:`~graphsel_lib.online.Trace` of a run (notebooks 05, 06 and 08
derive them; where the printed statements cannot be proved, these functions
compute the versions that can, beside the printed ones):

* :func:`ollgc_bounds` — the regret bound (gu2013 Thm 4) and the mistake
  bound (Cor. 5) of OLLGC, from the exact online-ridge identity
  ``Σ_M ½ ξ_t² (1 − r_t) = J*``, with the graph comparator of
  :func:`graph_comparator`;
* :func:`sslgc_bias_variance` — the bias ``bias_t`` and variance bound ``r_t``
  of SSLGC's margin estimate (gu2013 Eq. 20);
* :func:`sslgc_label_complexity` and :func:`sslgc_label_bound` — the
  label-complexity bound ``N_T ≤ T^κ d ln(1 + N_T/(µd))`` (gu2013 Thm 7,
  Eq. 26) and the version that holds for SSLGC; :func:`vacuous_from` reads
  from which ``κ`` on a bound exceeds ``T``;
* :func:`cmog_theorem1` and :func:`multiclass_margins` — yang2016 Thm 1
  (with Lemma 1, Lemma 2 and Remark 2) for CMOG with Definition 1 targets;
* :func:`msg_theorems`, :func:`msg_progress` and :func:`msg_aggressive_threshold`
  — yang2016 Thm 3 and Thm 5 (MSG) in expectation over the query coins, with
  the deterministic inequalities of their proofs on every run (notebook 09);
* :func:`bbq_r_cap`, :func:`bbq_first_query` and :func:`bbq_eps_formulas` —
  the scale bound of BBQ and the ``O(d²)`` formulas of BBQ_ε (notebook 10).

Random spanning trees and WTA (chapter 13): :func:`spanning_tree_count` (the
matrix-tree theorem) and :func:`enumerate_spanning_trees` (brute force, small
graphs); :func:`edge_in_tree_probability` (Kirchhoff: ``P(e ∈ T) = w_e R_e``),
:func:`tree_edge_frequencies` (the same by Wilson's sampler),
:func:`expected_tree_cut`; :func:`tree_and_line_cuts`, :func:`wta_mistake_bound`
(the sweeps that run WTA and S² against these bounds are in :mod:`graphsel_lib.atlas`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from scipy.optimize import brentq
from scipy.sparse import csgraph

from ._validation import as_real_array, as_real_matrix, check_class_labels, check_positive
from .graph import check_adjacency, cut_size, laplacian, laplacian_pinv
from .online import RidgeState, Trace
from .spectral import any_basis, spectral_embedding

__all__ = [
    "algebraic_connectivity",
    "eccentricity",
    "kernel_diagonal",
    "kernel_diagonal_bound",
    "perceptron_mistake_bound",
    "perceptron_bound_runs",
    "perceptron_bound_table",
    "perceptron_hinge_bound",
    "noisy_label_runs",
    "noisy_bound_table",
    "bias_feature_runs",
    "bias_feature_table",
    "effective_resistance",
    "kernel_bound_tightness",
    "kernel_bound_table",
    "low_rank_kernel_errors",
    "nystrom_kernel",
    "eckart_young_errors",
    "OLLGCBounds",
    "ollgc_bounds",
    "graph_comparator",
    "SSLGCBiasVariance",
    "sslgc_bias_variance",
    "SSLGCLabelComplexity",
    "sslgc_label_complexity",
    "sslgc_label_bound",
    "vacuous_from",
    "Theorem1Comparator",
    "CMOGTheorem1",
    "cmog_theorem1",
    "multiclass_margins",
    "MSG_RECORD",
    "msg_aggressive_threshold",
    "msg_progress",
    "MSGRunTerms",
    "MSGTheorems",
    "msg_theorems",
    "bbq_r_cap",
    "bbq_first_query",
    "bbq_eps_formulas",
    "spanning_tree_count",
    "enumerate_spanning_trees",
    "EdgeInTree",
    "edge_in_tree_probability",
    "tree_edge_frequencies",
    "expected_tree_cut",
    "tree_and_line_cuts",
    "wta_mistake_bound",
    "wta_expected_mistake_bound",
]


def algebraic_connectivity(S) -> float:
    """``λ_2``, the smallest non-zero eigenvalue of ``L`` of a connected graph."""
    with any_basis():  # only the eigenvalue is used: a repeated λ_2 is no concern
        return float(spectral_embedding(S, 1, cache=False).eigenvalues[0])


def eccentricity(S, *, lengths="hops", chunk=512) -> np.ndarray:
    """Eccentricity ``ρ_t = max_q dist(t, q)`` of every node.

    ``lengths="hops"`` counts edges (the slides' definition, unweighted);
    ``lengths="resistance"`` gives edge ``(i, j)`` the length ``1/S_ij``, the
    series resistance of a path, which makes the bound ``K_tt ≤ ρ_t`` hold on
    weighted graphs too (Cauchy–Schwarz along the path; equal to "hops" when
    all weights are 1). Computed by breadth-first / Dijkstra searches in chunks
    of ``chunk`` sources (memory ``O(chunk · n)``).
    """
    S = check_adjacency(S, require_connected=True)
    S.setdiag(0)
    S.eliminate_zeros()
    if lengths == "hops":
        G, unweighted = S, True
    elif lengths == "resistance":
        G = S.copy()
        G.data = 1.0 / G.data
        unweighted = False
    else:
        raise ValueError(f"lengths must be 'hops' or 'resistance', got {lengths!r}")
    n = S.shape[0]
    ecc = np.empty(n)
    for start in range(0, n, chunk):
        idx = np.arange(start, min(n, start + chunk))
        dist = csgraph.shortest_path(G, directed=False, unweighted=unweighted, indices=idx)
        ecc[idx] = dist.max(axis=1)
    return ecc


def kernel_diagonal(S) -> np.ndarray:
    """Exact ``K_tt = (L^+)_tt`` (dense pseudo-inverse: small graphs)."""
    return np.diag(laplacian_pinv(S)).copy()


def kernel_diagonal_bound(S, *, lengths="hops") -> np.ndarray:
    """``min(1/λ_2, ρ_t)`` for every node ``t`` (Herbster & Pontil; slides' theorem).

    The slides state it for unweighted graphs with ``ρ_t`` in hops; for a
    weighted graph pass ``lengths="resistance"`` (edge length ``1/S_ij``), for
    which the same proof goes through. With ``lengths="hops"`` the graph must be
    unweighted (all weights 1), otherwise the bound need not hold: ``ValueError``.
    """
    S = check_adjacency(S, require_connected=True)
    if lengths == "hops" and S.nnz and not np.allclose(S.data[S.data != 0], 1.0):
        raise ValueError(
            "kernel_diagonal_bound with lengths='hops' needs an unweighted graph; "
            "use lengths='resistance' for weighted graphs"
        )
    lam2 = algebraic_connectivity(S)
    return np.minimum(1.0 / lam2, eccentricity(S, lengths=lengths))


def perceptron_mistake_bound(S, y, *, K_diag=None) -> float:
    """``4 Φ(y) max_t K_tt``: Herbster–Pontil's bound on the graph perceptron's mistakes.

    Parameters
    ----------
    S : weight matrix of a connected graph
    y : array of shape (n,) in {-1, +1}
    K_diag : array of shape (n,), optional
        Kernel diagonal to use, e.g. ``kernel_diagonal_bound(S)`` or the
        rank-d ``(M^T M)_tt``; default: the exact ``diag(L^+)`` (dense, small graphs).

    Notes
    -----
    ``y^T L y = 4 Φ(y)`` for ``y ∈ {±1}^n``: each cut edge adds ``w (1-(-1))^2 = 4w``.
    """
    S = check_adjacency(S, require_connected=True)
    y = np.asarray(y)
    if y.shape != (S.shape[0],):
        raise ValueError(f"y must have shape ({S.shape[0]},), got {y.shape}")
    if not np.all(np.isin(y, (-1, 1))):
        raise ValueError("y must take values in {-1, +1}")
    if K_diag is None:
        K_diag = kernel_diagonal(S)
    K_diag = np.asarray(K_diag, dtype=float)
    if K_diag.shape != y.shape:
        raise ValueError(f"K_diag must have shape {y.shape}, got {K_diag.shape}")
    return 4.0 * cut_size(S, y) * float(K_diag.max())


# --------------------------------------------------------------------------- the graph perceptron on runs (chapter 03)
def _exact_features(M, n_nodes):
    M = _check_features(M)
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

    from .online import GPA, run
    from .spectral import add_bias

    S = check_adjacency(S, require_connected=True)
    n = S.shape[0]
    M = _exact_features(M, n)
    y = np.asarray(y)
    if y.shape != (n,) or not np.all(np.isin(y, (-1, 1))):
        raise ValueError(f"y must be an array of shape ({n},) in {{-1, +1}}")
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


def perceptron_hinge_bound(loss, a):
    """The perceptron's mistake bound for any comparator ``u`` (chapter 03 §5, ``(∗)``).

    ``|𝓜| ≤ ℓ + a/2 + sqrt(ℓ a + a²/4)`` with ``ℓ = ℓ_𝓜(u) = Σ_{t∈𝓜} max(0, 1 − y_t⟨u, x_t⟩)``,
    the comparator's hinge loss on the learner's mistakes, and ``a = ||u||² R²``:
    the root of ``z² − √a z − ℓ ≤ 0`` in ``z = sqrt(|𝓜|)`` (the standard
    non-separable perceptron argument; Herbster & Pontil 2006 state it with
    ``ℓ = 2|𝓜 ∩ 𝓜_u|`` for a ``±1`` comparator). With ``ℓ = 0`` it is Novikoff's
    ``a``. Works elementwise on arrays.

    >>> float(perceptron_hinge_bound(0.0, 45.0)), float(perceptron_hinge_bound(4.0, 0.0))
    (45.0, 4.0)
    """
    loss, a = np.asarray(loss, dtype=float), np.asarray(a, dtype=float)
    return loss + a / 2 + np.sqrt(loss * a + a**2 / 4)


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
    """
    import pandas as pd

    from .online import GPA, run

    S = check_adjacency(S, require_connected=True)
    n = S.shape[0]
    M = _exact_features(M, n)
    f = np.asarray(f)
    if f.shape != (n,) or not np.all(np.isin(f, (-1, 1))):
        raise ValueError(f"f must be an array of shape ({n},) in {{-1, +1}}")
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

    from .online import OneVsRest, run
    from .spectral import add_bias

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
    """Chapter 03's table ``03_bias_cora``: mean and standard deviation over the orders of :func:`bias_feature_runs`."""
    cols = ["mean binary error", "multiclass error"]
    table = runs.groupby(["learner", "d", "b"], sort=False)[cols].agg(["mean", "std"]).reset_index()
    table.columns = [" ".join(c).strip() for c in table.columns]
    return table


def effective_resistance(S, pairs=None):
    """Effective resistance ``r(i, j) = K_ii + K_jj - 2 K_ij`` with ``K = L^+``.

    ``pairs=None`` returns the dense n × n matrix (small graphs). Otherwise
    ``pairs`` is an (m, 2) array of node indices and the m resistances are
    computed from one sparse factorisation of the grounded Laplacian (node
    ``n-1`` removed): ``r(i, j) = (e_i - e_j)^T L_g^{-1} (e_i - e_j)``.
    """
    S = check_adjacency(S, require_connected=True)
    n = S.shape[0]
    if pairs is None:
        K = laplacian_pinv(S)
        dg = np.diag(K)
        return dg[:, None] + dg[None, :] - 2 * K
    pairs = np.asarray(pairs)
    if pairs.ndim != 2 or pairs.shape[1] != 2:
        raise ValueError(f"pairs must have shape (m, 2), got {pairs.shape}")
    if pairs.size and (pairs.min() < 0 or pairs.max() >= n):
        raise ValueError(f"pair indices must be in 0..{n - 1}")
    if n == 1:
        return np.zeros(len(pairs))
    Lg = laplacian(S)[: n - 1, : n - 1].tocsc()
    lu = spla.splu(Lg, permc_spec="MMD_AT_PLUS_A")
    out = np.empty(len(pairs))
    for k, (i, j) in enumerate(pairs):
        b = np.zeros(n)
        b[i] += 1.0
        b[j] -= 1.0
        x = lu.solve(b[: n - 1])
        out[k] = b[: n - 1] @ x
    return out


def kernel_bound_tightness(K_diag, bound, r_max, inv_lambda2, rho, *, rel_margin=1e-9) -> dict:
    """How close ``K_tt`` comes to its two bounds on one graph: one row of chapter 02's tables.

    The bounds are ``K_tt ≤ min(1/λ_2, ρ_t)`` (``bound``; Herbster & Pontil,
    the slides' theorem) and ``K_tt ≤ max_q r_eff(t, q)`` (``r_max``; the mean-
    resistance identity ``K_tt = (1/n) Σ_q r_eff(t, q) − tr L^+ / n``), with
    ``max_q r_eff(t, q) ≤ ρ_t`` (Rayleigh monotonicity). Returns the largest and
    the mean ratio ``K_tt / bound``, the mean ``K_tt / max_q r_eff``, the share of
    nodes where the spectral half binds (``1/λ_2 < ρ_t``) and the share where
    the resistance bound is below the minimum of both halves.

    The two shares count a node only where the inequality holds by more than
    ``rel_margin`` (relative): on a tree ``max_q r_eff(t, q) = ρ_t`` exactly, and
    a plain ``<`` would count whichever way the last bits of rounding fall.
    """
    K_diag, bound, r_max, rho = (np.asarray(a, dtype=float) for a in (K_diag, bound, r_max, rho))
    inv_lambda2 = float(inv_lambda2)
    return {
        "max K_tt / bound": float((K_diag / bound).max()),
        "mean K_tt / bound": float((K_diag / bound).mean()),
        "1/lambda_2 binds": float(np.mean(inv_lambda2 < rho * (1 - rel_margin))),
        "mean K_tt / max_q r": float((K_diag / r_max).mean()),
        "resistance tighter": float(np.mean(r_max < bound * (1 - rel_margin))),
    }


def kernel_bound_table(rows, *, by="family"):
    """Chapter 02's table of the bound ``K_tt ≤ min(1/λ_2, ρ_t)``: the rows of :func:`kernel_bound_tightness` by group.

    ``rows`` are dicts with the keys of :func:`kernel_bound_tightness` plus
    ``by`` and ``"n"`` (nodes of the graph). Per group (in order of first
    appearance): the number of graphs, the smallest and largest, the largest
    ratio ``K_tt / bound`` and the means over the group's graphs of the other
    four columns (a share is first taken per graph, then averaged).
    """
    import pandas as pd

    per_graph = pd.DataFrame(rows)
    summary = per_graph.groupby(by, sort=False).agg(
        graphs=("n", "size"), min_nodes=("n", "min"), max_nodes=("n", "max"),
        max_ratio=("max K_tt / bound", "max"), mean_ratio=("mean K_tt / bound", "mean"),
        spectral_half_binds=("1/lambda_2 binds", "mean"), mean_ratio_resistance=("mean K_tt / max_q r", "mean"),
        resistance_tighter=("resistance tighter", "mean"),
    ).reset_index()  # fmt: skip
    summary.columns = [by, "graphs", "min nodes", "max nodes", "max K_tt/bound", "mean K_tt/bound",
                       "share where 1/lambda_2 < rho_t", "mean K_tt/max_q r", "share where max_q r < bound"]  # fmt: skip
    return summary


def low_rank_kernel_errors(emb, K, ranks, *, rng):
    """The error of the rank-``d`` kernel ``L_d^+ = M_d^T M_d`` against ``L^+ = K`` at each rank in ``ranks``.

    ``L^+ − L_d^+ = Σ_{i>d} σ_i^{-1} v_i v_i^T ⪰ 0``, so ``‖L^+ − L_d^+‖_2 =
    1/σ_{d+1}`` (the largest discarded term; Eckart–Young: no rank-``d`` matrix
    does better). Per rank: the spectral norm measured by Lanczos (ARPACK,
    start vector from ``rng``, one draw per rank) beside ``1/σ_{d+1}``, the share
    of ``tr L^+`` kept, ``Σ_{i≤d} σ_i^{-1} / Σ_i σ_i^{-1}``, and the largest loss on
    the diagonal, ``max_t (K_tt − ‖m_t‖²)``. ``emb`` is the embedding with all
    ``n − 1`` pairs (``spectral_embedding(S, n - 1)``). A rank that cuts a
    repeated eigenvalue warns (``SplitEigenvalueWarning``): only the last
    column depends on the basis kept there. Returns a DataFrame.
    """
    import pandas as pd

    K = np.asarray(K, dtype=float)
    n = K.shape[0]
    inv = 1.0 / emb.eigenvalues
    rows = []
    for d in ranks:
        E = K - emb.truncate(d).kernel()
        top = spla.eigsh(E, k=1, which="LA", v0=rng.standard_normal(n), return_eigenvectors=False)[0]
        rows.append({"d": d, "||L+ - L_d+||_2 (Lanczos)": top, "1/sigma_{d+1}": inv[d],
                     "share of tr L+ kept": np.sum(inv[:d]) / np.sum(inv), "max_t K_tt - ||m_t||^2": np.max(np.diag(E))})  # fmt: skip
    return pd.DataFrame(rows)


def nystrom_kernel(K, landmarks):
    """The Nyström approximation ``K_{:J} K_{JJ}^+ K_{J:}`` of a PSD kernel from its landmark columns ``J``.

    Williams & Seeger (NIPS 2000): the kernel reproduced exactly on the
    columns ``J`` and extended to the rest through them; its rank is at most
    ``|J|``, so Eckart–Young bounds its error from below (notebook 07 §1).

    Examples
    --------
    >>> K = np.array([[2.0, 1.0], [1.0, 2.0]])
    >>> nystrom_kernel(K, [0]).tolist()
    [[2.0, 1.0], [1.0, 0.5]]
    """
    K = as_real_matrix(K, "K", sparse=False, copy=False)
    idx = np.asarray(landmarks, dtype=np.intp)
    C = K[:, idx]
    return C @ np.linalg.pinv(K[np.ix_(idx, idx)]) @ C.T


def _spectral_norm(E):
    """``‖E‖_2`` of a symmetric matrix: its largest ``|eigenvalue|``, by Lanczos from the all-ones start."""
    return float(abs(spla.eigsh(E, k=1, which="LM", v0=np.ones(E.shape[0]), return_eigenvectors=False)[0]))


def eckart_young_errors(emb, K, ranks, *, n_competitors, rng, noise=0.5):
    """The rank-``d`` kernel against random rank-``d`` competitors: notebook 07's table ``07_eckart_young``.

    Eckart–Young–Mirsky (Eckart & Young 1936; Mirsky 1960): every ``X`` of
    rank at most ``d`` has ``‖L^+ − X‖_2 ≥ σ_{d+1}^{-1}`` and
    ``‖L^+ − X‖_F ≥ (Σ_{i>d} σ_i^{-2})^{1/2}``, with equality for ``X = L_d^+``.
    Per rank ``d``: ``‖L^+ − L_d^+‖_2`` by Lanczos on the error matrix (start
    vector from ``rng``) and ``‖L^+ − L_d^+‖_F``; then ``n_competitors`` times a
    Nyström approximation from ``d`` random landmark columns
    (:func:`nystrom_kernel`) and a *perturbed projection* ``QQ^T L^+ QQ^T``,
    ``Q`` an orthonormal basis of ``V_d + noise·G/√n`` (``G`` standard
    normal, ``V_d`` the optimal eigenvectors), and the smallest error of each
    kind in both norms. ``rng`` is drawn in this order per rank: the Lanczos
    start, then per competitor the landmarks and ``G``.

    Parameters
    ----------
    emb : SpectralEmbedding
        All ``n − 1`` non-zero pairs (``spectral_embedding(S, n - 1)``).
    K : ndarray of shape (n, n)
        The exact kernel ``L^+`` (``laplacian_pinv``).
    ranks : iterable of int
        Ranks ``1 ≤ d < n − 1``.
    n_competitors : int ≥ 1
    rng : numpy.random.Generator
    noise : float, default 0.5

    Returns
    -------
    DataFrame
        Columns ``d``, ``1/sigma_{d+1}``, ``||L+ - L_d+||_2 (Lanczos)``,
        ``||L+ - L_d+||_F``, ``best Nystrom ||.||_2``, ``best perturbed projection
        ||.||_2`` (the table) and ``best Nystrom ||.||_F``, ``best perturbed
        projection ||.||_F``.
    """
    import pandas as pd

    K = np.asarray(K, dtype=float)
    n = K.shape[0]
    inv = 1.0 / emb.eigenvalues
    rows = []
    for d in ranks:
        with any_basis():  # L^+ - L_d^+ has the eigenvalues 1/sigma_{d+1}, ... in every basis: norms only
            E = K - emb.truncate(d).kernel()
        top = spla.eigsh(E, k=1, which="LA", v0=rng.standard_normal(n), return_eigenvectors=False)[0]
        best = {"nys2": np.inf, "proj2": np.inf, "nysF": np.inf, "projF": np.inf}
        for _ in range(n_competitors):
            nys = nystrom_kernel(K, rng.choice(n, size=d, replace=False))
            Q, _ = np.linalg.qr(emb.eigenvectors[:, :d] + noise * rng.standard_normal((n, d)) / np.sqrt(n))
            proj = Q @ (Q.T @ K @ Q) @ Q.T
            for kind, X in (("nys", nys), ("proj", proj)):
                best[kind + "2"] = min(best[kind + "2"], _spectral_norm(K - X))
                best[kind + "F"] = min(best[kind + "F"], np.linalg.norm(K - X, "fro"))
        rows.append({"d": d, "1/sigma_{d+1}": inv[d], "||L+ - L_d+||_2 (Lanczos)": top,
                     "||L+ - L_d+||_F": np.linalg.norm(E, "fro"), "best Nystrom ||.||_2": best["nys2"],
                     "best perturbed projection ||.||_2": best["proj2"], "best Nystrom ||.||_F": best["nysF"],
                     "best perturbed projection ||.||_F": best["projF"]})  # fmt: skip
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- online learners: shared checks
def _check_features(X):
    """``X`` (d, n), column ``t`` the feature vector of node ``t``: a finite real matrix, not copied."""
    return as_real_matrix(X, "X (shape (d, n), column t is m_t)", sparse=False, copy=False)


def _check_run(trace, X, *, multiclass, record=()):
    """``trace`` a :class:`Trace` of a pass over the columns of ``X`` (binary or multiclass scores)."""
    if not isinstance(trace, Trace):
        raise TypeError(
            f"trace must be the Trace that graphsel_lib.online.run returns, got {type(trace).__name__}"
        )
    if trace.order.size and trace.order.max() >= X.shape[1]:
        raise ValueError(
            f"the trace shows node {trace.order.max()} but X has {X.shape[1]} columns: pass the X of the run"
        )
    if trace.scores.ndim != (2 if multiclass else 1):
        kind = "a multiclass learner (scores of shape (T, K))" if multiclass else "a binary learner"
        raise ValueError(f"expected the trace of {kind}, got scores of shape {trace.scores.shape}")
    if not multiclass and not np.all(np.isin(trace.labels, (-1, 1))):
        raise ValueError("expected -1/+1 labels (the trace of a binary learner)")
    for key in record:
        if key not in trace.records:
            raise ValueError(f"the trace has no recorded {key!r}: run it with record=({key!r},)")


def _check_shape(a, shape, name):
    if a.shape != shape:
        raise ValueError(f"{name} must have shape {shape}, got {a.shape}")
    return a


def _ridge_value(Xs, ys, reg):
    """``min_u reg/2 ||u||² + ½ ||Xsᵀu − ys||²`` and its minimiser (one d × d solve)."""
    u = np.linalg.solve(Xs @ Xs.T + reg * np.eye(Xs.shape[0]), Xs @ ys)
    return 0.5 * reg * u @ u + 0.5 * np.sum((Xs.T @ u - ys) ** 2), u


def _max_sq_norm(X, nodes):
    """``max_t ||m_t||²`` over the columns ``nodes`` (column norms computed on ``X`` as given)."""
    return np.max(np.sum(X**2, axis=0)[nodes])


# --------------------------------------------------------------------------- gu2013: OLLGC
@dataclass(frozen=True)
class OLLGCBounds:
    """Every term of gu2013 Thm 4 and Cor. 5 on one OLLGC run (see :func:`ollgc_bounds`).

    Arrays are over the mistaken rounds ``M`` in round order.

    Attributes
    ----------
    n_rounds, n_mistakes : int
        ``T`` and ``|M|``.
    e, v, r : ndarray
        The residuals ``ξ_t = y_t − w_{t−1}ᵀm_t`` (field ``e``), ``v_t = m_tᵀA_{t−1}^{−1}m_t``
        and ``r_t = v_t/(1 + v_t)``.
    lemma_lhs, J_star : float
        ``Σ_M ½ ξ_t²(1 − r_t)`` and ``J* = min_u [µ/2 ||u||² + Σ_M ½(uᵀm_t − y_t)²]``
        (equal: the online-ridge identity).
    logdet, logdet_state, sum_log1p_v : float
        ``Σ_i ln(1 + ν_i/µ)`` from the eigenvalues ``ν_i`` of ``Σ_M m_t m_tᵀ``, ``ln det(A_T/µ)``
        from the replayed state and ``Σ_M ln(1 + v_t)`` (equal: the determinant lemma).
    B, d_log : float
        ``R² = max_t ||m_t||²`` (field ``B``, gu2013's letter) and the worst case
        ``d ln(1 + |M| R²/(dµ))`` of ``logdet``.
    gamma : float
        ``ξ²_max = max_M ξ_t²`` (field ``gamma``, gu2013's letter; 0 without mistakes).
    half_norm : float
        ``µ/2 ||u||²`` of the comparator.
    regret, regret_all : float
        ``Σ [ℓ_t(w_{t−1}) − ℓ_t(u)]`` over ``M`` (Thm 4) and over all ``T`` rounds
        (gu2013 Eq. 9; no theorem covers it for a mistake-driven learner).
    thm4_data, thm4 : float
        ``µ/2 ||u||² + ½ Σ_M ξ_t² r_t`` and ``µ/2 ||u||² + ξ²_max/2 · logdet``.
    J_all : float
        ``J`` of the offline ridge problem on all ``T`` rounds (every label known).
    cor5_data, cor5, cor5_d : float
        ``2J* + Σ_M r_t``, ``2J + logdet`` and ``2J + d_log``.
    """

    n_rounds: int
    n_mistakes: int
    e: np.ndarray
    v: np.ndarray
    r: np.ndarray
    lemma_lhs: float
    J_star: float
    logdet: float
    logdet_state: float
    sum_log1p_v: float
    B: float
    d_log: float
    gamma: float
    half_norm: float
    regret: float
    regret_all: float
    thm4_data: float
    thm4: float
    J_all: float
    cor5_data: float
    cor5: float
    cor5_d: float

    @property
    def sum_r(self) -> float:
        """``Σ_M r_t``."""
        return np.sum(self.r)


def _replay_ollgc(X, trace, mu):
    """``e_t, v_t`` on the mistaken rounds and the final state, replaying the mistakes of ``trace``."""
    state = RidgeState(X.shape[0], mu)
    idx = np.flatnonzero(trace.mistakes)
    e, v = np.empty(idx.size), np.empty(idx.size)
    for j, t in enumerate(idx):
        x = X[:, trace.order[t]]
        u, v[j] = state.variance(x)
        s = float(state.w @ x)
        if not abs(s - trace.scores[t]) <= 1e-8 * max(1.0, abs(s)):
            raise ValueError(
                f"replaying the mistakes does not reproduce the recorded score of round {t + 1} "
                f"({s:.6g} against {trace.scores[t]:.6g}): the trace is not a run of OLLGC(mu={mu:g}) on X"
            )
        e[j] = trace.labels[t] - s
        state.update(x, trace.labels[t], u, v[j])
    return idx, e, v, state


def ollgc_bounds(X, trace, *, mu, u):
    """Evaluate gu2013's regret bound (Thm 4) and mistake bound (Cor. 5) on an OLLGC run.

    gu2013 Sec. 3.4, in the form that can be proved (notebook 05): with the
    mistaken rounds ``M``, the residual ``ξ_t = y_t − s_t``, ``r_t = v_t/(1 + v_t)`` and
    ``J* = min_u [µ/2 ||u||² + Σ_M ℓ_t(u)]``, ``ℓ_t(u) = ½(uᵀm_t − y_t)²``,
    the identity ``Σ_M ½ ξ_t²(1 − r_t) = J*`` gives

    * Thm 4: ``Σ_M [ℓ_t(w_{t−1}) − ℓ_t(u)] ≤ µ/2 ||u||² + ½ Σ_M ξ_t² r_t
      ≤ µ/2 ||u||² + ξ²_max/2 Σ_i ln(1 + ν_i/µ)``, ``ξ²_max = max_M ξ_t²``;
    * Cor. 5: ``|M| ≤ 2J* + Σ_M r_t ≤ 2J + Σ_i ln(1 + ν_i/µ)
      ≤ 2J + d ln(1 + |M|R²/(dµ))``, ``J`` the offline problem on all rounds;

    ``ν_i`` the eigenvalues of ``Σ_M m_t m_tᵀ``, ``R² = max_t ||m_t||²`` (gu2013
    writes ``e_t``, ``λ_i``, ``γ`` and ``B``; the result fields keep ``e``, ``gamma``
    and ``B``). This function computes every term; it asserts nothing (the notebook does).

    Parameters
    ----------
    X : array of shape (d, n)
        The features of the run (column ``t`` is ``m_t``, with the bias row if any).
    trace : Trace
        ``gs.online.run(gs.online.OLLGC(mu=mu), X, y, ...)``.
    mu : float > 0
        The OLLGC regularisation ``A_0 = µI`` of the run.
    u : array of shape (d,)
        The comparator, e.g. ``M L y`` (gu2013 Lemma 3; notebook 05), as
        :func:`graph_comparator` builds it.

    Returns
    -------
    OLLGCBounds

    Raises
    ------
    ValueError
        Shapes that do not match, or a trace that replaying its mistakes with
        ``mu`` on ``X`` does not reproduce (another learner, ``mu`` or ``X``).
    """
    X = _check_features(X)
    mu = check_positive(mu, "mu")
    _check_run(trace, X, multiclass=False)
    u = _check_shape(as_real_array(u, "u", ndim=1), (X.shape[0],), "the comparator u")
    idx, e, v, state = _replay_ollgc(X, trace, mu)
    nodes = trace.order[idx]
    d = X.shape[0]
    r = v / (1 + v)
    Xm, ym = X[:, nodes], trace.labels[idx].astype(float)
    J_star, _ = _ridge_value(Xm, ym, mu)
    lam = np.clip(np.linalg.eigvalsh(Xm @ Xm.T), 0, None)
    logdet = np.sum(np.log1p(lam / mu))
    _, logdet_state = np.linalg.slogdet(np.linalg.inv(state.inverse()) / mu)
    B = _max_sq_norm(X, trace.order)
    d_log = d * np.log1p(idx.size * B / (d * mu))
    half_norm = 0.5 * mu * u @ u
    regret = np.sum(0.5 * e**2 - 0.5 * (Xm.T @ u - ym) ** 2)
    gamma = np.max(e**2) if e.size else 0.0
    regret_all = np.sum(
        0.5 * (trace.scores - trace.labels) ** 2 - 0.5 * (X[:, trace.order].T @ u - trace.labels) ** 2
    )
    # the offline problem on every round shown, summed in node order
    shown = np.sort(trace.order)
    y_shown = np.empty(X.shape[1])
    y_shown[trace.order] = trace.labels
    if shown.size == X.shape[1]:
        J_all, _ = _ridge_value(X, y_shown, mu)
    else:
        J_all, _ = _ridge_value(X[:, shown], y_shown[shown], mu)
    return OLLGCBounds(
        n_rounds=trace.n_rounds,
        n_mistakes=idx.size,
        e=e,
        v=v,
        r=r,
        lemma_lhs=0.5 * np.sum(e**2 * (1 - r)),
        J_star=J_star,
        logdet=logdet,
        logdet_state=logdet_state,
        sum_log1p_v=np.sum(np.log1p(v)),
        B=B,
        d_log=d_log,
        gamma=gamma,
        half_norm=half_norm,
        regret=regret,
        regret_all=regret_all,
        thm4_data=half_norm + 0.5 * np.sum(e**2 * r),
        thm4=half_norm + 0.5 * gamma * logdet,
        J_all=J_all,
        cor5_data=2 * J_star + np.sum(r),
        cor5=2 * J_all + logdet,
        cor5_d=2 * J_all + d_log,
    )


def graph_comparator(M, S, y, *, b=0.0):
    """The comparator ``u = M L y`` of the graph form of gu2013 Thm 4 (with the bias coordinate ``ȳ/√b``).

    gu2013 Lemma 3 (notebook 05, §3): on the features ``M`` (``MᵀM = L_d^+``)
    the labelling ``y`` is represented by ``u = M L y``, since
    ``Mᵀu = L_d^+ L y``, which is ``y − ȳ𝟙`` for the exact kernel, and

        ``||u||² = yᵀ L L_d^+ L y ≤ yᵀ L y = 4 Φ(y)``  for ``y ∈ {−1, +1}^n``,

    with equality for the exact kernel (``Φ`` the cut size, each edge once).
    With the bias feature ``√b`` (:func:`~graphsel_lib.spectral.add_bias`) the
    extra coordinate ``ȳ/√b`` restores the mean: ``(M; √b 𝟙ᵀ)ᵀ u = y`` for the
    exact kernel, and ``µ/2 ||u||² ≤ 2µΦ(y) + µȳ²/(2b)``.

    Parameters
    ----------
    M : array of shape (d, n)
        The features without the bias row (``spectral_embedding(S, d).M``).
    S : sparse or dense array of shape (n, n)
        The weights of the graph.
    y : array of shape (n,)
        The labels (``±1`` in the bound; any real vector is accepted).
    b : float >= 0, default 0.0
        The bias constant of the features; 0 means no bias row.

    Returns
    -------
    ndarray of shape (d,) or (d + 1,)

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> S = sp.csr_array(np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]], dtype=float))
    >>> M = spectral_embedding(S, 2).M
    >>> y = np.array([1.0, 1.0, -1.0])
    >>> u = graph_comparator(M, S, y, b=1.0)
    >>> bool(np.allclose(np.vstack([M, np.ones(3)]).T @ u, y)), round(float(u[:2] @ u[:2]), 6)
    (True, 4.0)
    """
    M = _check_features(M)
    S = check_adjacency(S)
    y = _check_shape(as_real_array(y, "y", ndim=1), (M.shape[1],), "the labels y")
    b = check_positive(b, "bias b", allow_zero=True)
    if S.shape[0] != M.shape[1]:
        raise ValueError(f"S has {S.shape[0]} nodes but M has {M.shape[1]} columns")
    u = M @ (laplacian(S) @ y)
    return np.append(u, y.mean() / np.sqrt(b)) if b > 0 else u


# --------------------------------------------------------------------------- gu2013: SSLGC
@dataclass(frozen=True)
class SSLGCBiasVariance:
    """Bias and variance bound of SSLGC's margin estimate (see :func:`sslgc_bias_variance`).

    Attributes
    ----------
    bias : ndarray of shape (k,)
        ``bias_t = uᵀ(µI + m_t m_tᵀ) A_t^{-1} m_t`` per candidate: ``E[Δ̂_t] = Δ⋆_t − bias_t``.
    r : ndarray of shape (k,)
        ``r_t = m_tᵀ A_t^{-1} m_t``, an upper bound on ``Var[Δ̂_t]``.
    coef : ndarray of shape (k, d)
        ``coef[j] = A_t^{-1} m_t`` of candidate ``j``:
        ``Δ̂_t = m_tᵀA_t^{-1}b_{t−1} = (X_𝒰ᵀ coef[j]) · y_𝒰``.
    """

    bias: np.ndarray
    r: np.ndarray
    coef: np.ndarray


def sslgc_bias_variance(A, X, *, mu, u, nodes=None):
    """Bias ``bias_t`` and variance bound ``r_t`` of SSLGC's margin estimate (gu2013 Eq. 20).

    Under gu2013's label model ``E[y_t] = Δ⋆_t = uᵀm_t`` (the Bayes margin), with
    ``A = µI + X_𝒰X_𝒰ᵀ`` the matrix of the update rounds ``𝒰`` so far (columns
    ``X_𝒰 = [m_s]_{s∈𝒰}``) and ``A_t = A + m_t m_tᵀ``, the Vovk–Azoury–Warmuth
    estimate ``Δ̂_t = m_tᵀA_t^{-1}b_{t−1}`` (``b_{t−1} = X_𝒰 y_𝒰``) has
    ``E[Δ̂_t] = Δ⋆_t − bias_t`` with ``bias_t = uᵀ(µI + m_t m_tᵀ)A_t^{-1}m_t``
    (gu2013 writes ``B_t``, ``Δ_t``, ``Y_t`` and ``µ = 1``), ``Var[Δ̂_t] ≤ r_t =
    m_tᵀA_t^{-1}m_t`` and ``|bias_t| ≤ √((µ||u||² + Δ⋆_t²) r_t)`` (notebook 06, §2).

    Parameters
    ----------
    A : array of shape (d, d)
        ``µI + X_𝒰X_𝒰ᵀ``, without the candidates.
    X : array of shape (d, n)
        Features, column ``t`` is ``m_t``.
    mu : float > 0
        The ``µ`` inside ``A``.
    u : array of shape (d,)
        The Bayes comparator of the label model.
    nodes : array of int, optional
        The candidate columns ``t``, each evaluated on its own (default: all).

    Returns
    -------
    SSLGCBiasVariance
        Entry ``j`` belongs to ``nodes[j]``.
    """
    mu = check_positive(mu, "mu")
    A = as_real_matrix(A, "A", sparse=False, square=True, copy=False)
    X = _check_shape(_check_features(X), (A.shape[0], np.shape(X)[1]), "X")
    u = _check_shape(as_real_array(u, "u", ndim=1), (A.shape[0],), "the comparator u")
    if nodes is None:
        nodes = np.arange(X.shape[1])
    else:
        nodes = np.asarray(nodes)
        if nodes.ndim != 1 or (nodes.size and not np.issubdtype(nodes.dtype, np.integer)):
            raise ValueError(f"nodes must be a 1-D array of column indices, got {nodes!r}")
        if nodes.size and (nodes.min() < 0 or nodes.max() >= X.shape[1]):
            raise ValueError(f"nodes must be column indices in 0..{X.shape[1] - 1}")
    bias, r, coef = np.empty(nodes.size), np.empty(nodes.size), np.empty((nodes.size, A.shape[0]))
    for j, t in enumerate(nodes):
        m = X[:, t]
        At_inv_m = np.linalg.solve(A + np.outer(m, m), m)
        coef[j] = At_inv_m
        bias[j] = u @ (mu * At_inv_m + m * (m @ At_inv_m))
        r[j] = m @ At_inv_m
    return SSLGCBiasVariance(bias=bias, r=r, coef=coef)


@dataclass(frozen=True)
class SSLGCLabelComplexity:
    """Every term of gu2013's label-complexity argument on one SSLGC run (see :func:`sslgc_label_complexity`).

    Attributes
    ----------
    n_rounds, d : int
        ``T`` and the dimension.
    n_queried, n_updates, n_queried_correct : int
        ``N_T = |𝒬|`` (queried rounds), ``|𝒰|`` (queried mistakes: the updates) and
        ``|C| = |𝒬 \\ 𝒰|``.
    sum_r_queried, sum_r_updates, sum_r_correct : float
        ``Σ r_t`` over ``𝒬``, ``𝒰`` and ``C``.
    logdet, B : float
        ``Σ_i ln(1 + ν_i/µ)`` (``ν_i`` the eigenvalues of ``Σ_𝒰 m_t m_tᵀ``) and
        ``R² = max_t ||m_t||²`` (field ``B``, gu2013's letter).
    step1 : float
        ``T^κ Σ_𝒬 r_t`` (gu2013 Eq. 26, first step: ``N_T`` is below it).
    bound : float
        ``T^κ [d ln(1 + |𝒰|R²/(µd)) + Σ_C r_t]``, the bound that holds for SSLGC.
    paper_bound, paper_bound_B : float
        ``T^κ d ln(1 + N_T/(µd))`` (gu2013 Thm 7) and the same with ``N_T R²`` in the log.
    """

    n_rounds: int
    d: int
    n_queried: int
    n_updates: int
    n_queried_correct: int
    sum_r_queried: float
    sum_r_updates: float
    sum_r_correct: float
    logdet: float
    B: float
    step1: float
    bound: float
    paper_bound: float
    paper_bound_B: float

    @property
    def paper_holds(self) -> bool:
        """Whether ``N_T ≤ T^κ d ln(1 + N_T/(µd))`` on this run (not a theorem for SSLGC)."""
        return bool(self.n_queried <= self.paper_bound)

    @property
    def paper_B_holds(self) -> bool:
        """Whether ``N_T ≤ T^κ d ln(1 + N_T R²/(µd))`` on this run."""
        return bool(self.n_queried <= self.paper_bound_B)


def sslgc_label_complexity(X, trace, *, mu, kappa):
    """Evaluate gu2013's label-complexity bound (Thm 7, Eq. 26) on an SSLGC run.

    A queried round has ``r_t > t^{-κ} ≥ T^{-κ}``, so ``N_T < T^κ Σ_𝒬 r_t`` (``𝒬`` the
    queried rounds). gu2013 then bounds ``Σ_𝒬 r_t ≤ d ln(1 + N_T/(µd))`` by the
    log-determinant lemma, which needs every queried round in ``A`` and ``||m_t|| ≤ 1``;
    SSLGC adds only the queried mistakes ``𝒰``. What holds (notebook 06, §3), with
    ``C = 𝒬 \\ 𝒰`` and ``R² = max_t ||m_t||²``:

    ``N_T < T^κ [Σ_𝒰 r_t + Σ_C r_t] ≤ T^κ [d ln(1 + |𝒰|R²/(µd)) + Σ_C r_t]``.

    Parameters
    ----------
    X : array of shape (d, n)
        The features of the run.
    trace : Trace
        ``gs.online.run(gs.online.SSLGC(mu=mu, kappa=kappa), X, y, ..., record=("r",))``
        with the default ``r_t = v_t/(1 + v_t)``.
    mu : float > 0
        ``A_0 = µI`` of the run.
    kappa : float >= 0
        The query exponent of the run.

    Returns
    -------
    SSLGCLabelComplexity

    Raises
    ------
    ValueError
        No recorded ``r``; ``r_t`` outside ``[0, 1)`` (not the default convention);
        queries that break the rule "query iff ``r_t > t^{-κ}``" for this ``kappa``.
    """
    X = _check_features(X)
    mu = check_positive(mu, "mu")
    kappa = check_positive(kappa, "kappa", allow_zero=True)
    _check_run(trace, X, multiclass=False, record=("r",))
    r = trace.records["r"]
    T, d = trace.n_rounds, X.shape[0]
    if not np.all((r >= 0) & (r < 1)):
        raise ValueError("recorded r_t outside [0, 1): run SSLGC with include_current=True (the default)")
    threshold = np.array([t ** (-kappa) for t in range(1, T + 1)])  # as SSLGC computes it
    Q = trace.queried
    if not np.array_equal(Q, r > threshold):
        t = int(np.flatnonzero(Q != (r > threshold))[0])
        raise ValueError(
            f"round {t + 1} breaks the query rule r_t > t^(-kappa) for kappa = {kappa:g}: "
            f"the trace is not a run of SSLGC(kappa={kappa:g})"
        )
    U = Q & trace.mistakes
    Cq = Q & ~trace.mistakes
    N = int(Q.sum())
    B = float(_max_sq_norm(X, trace.order))
    Xu = X[:, trace.order[U]]
    logdet = float(np.sum(np.log1p(np.clip(np.linalg.eigvalsh(Xu @ Xu.T), 0, None) / mu)))
    return SSLGCLabelComplexity(
        n_rounds=T,
        d=d,
        n_queried=N,
        n_updates=int(U.sum()),
        n_queried_correct=int(Cq.sum()),
        sum_r_queried=r[Q].sum(),
        sum_r_updates=r[U].sum(),
        sum_r_correct=r[Cq].sum(),
        logdet=logdet,
        B=B,
        step1=T**kappa * r[Q].sum(),
        bound=T**kappa * (d * np.log1p(U.sum() * B / (mu * d)) + r[Cq].sum()),
        paper_bound=T**kappa * d * np.log1p(N / (mu * d)),
        paper_bound_B=T**kappa * d * np.log1p(N * B / (mu * d)),
    )


def sslgc_label_bound(T, d, *, mu, kappa):
    """The largest ``N ≥ 0`` allowed by gu2013's label-complexity bound ``N ≤ T^κ d ln(1 + N/(µd))``.

    gu2013 Thm 7 (Eq. 26) bounds the number of queries ``N_T`` only implicitly.
    ``g(N) = T^κ d ln(1 + N/(µd)) − N`` is concave with ``g(0) = 0`` and
    ``g'(0) = T^κ/µ − 1``: if ``T^κ ≤ µ`` only ``N = 0`` satisfies the bound,
    otherwise every ``N`` up to the positive root of ``g``, returned here (the
    bound as an explicit number; it grows with ``T``, ``d`` and ``κ`` and falls with ``µ``).

    Parameters
    ----------
    T : float > 0
        Number of rounds.
    d : float > 0
        Dimension of the features.
    mu : float > 0
        ``A_0 = µI``.
    kappa : float >= 0
        The query exponent.

    Returns
    -------
    float

    Examples
    --------
    >>> N = sslgc_label_bound(1000, 10, mu=1.0, kappa=0.4)
    >>> round(N, 2), bool(abs(1000**0.4 * 10 * np.log1p(N / 10) - N) < 1e-9 * N)
    (668.37, True)
    """
    T = check_positive(T, "T")
    d = check_positive(d, "d")
    mu = check_positive(mu, "mu")
    kappa = check_positive(kappa, "kappa", allow_zero=True)
    ca = T**kappa / mu  # in x = N/(µd): N ≤ bound  <=>  x ≤ ca ln(1 + x)
    if ca <= 1.0:
        return 0.0

    def g(x):
        return ca * np.log1p(x) - x

    lo = (ca - 1.0) / ca  # g(x) ≥ x ((ca - 1) - ca x / 2) > 0 here, by ln(1 + x) ≥ x - x²/2
    hi = 2.0 * ca
    while g(hi) > 0:  # ln(1 + x) grows slower than x: doubling brackets the root
        hi *= 2.0
    return float(mu * d * brentq(g, lo, hi, xtol=1e-14, rtol=1e-15))


def vacuous_from(kappa, bound, T):
    """The smallest ``κ`` from which a label-complexity bound exceeds ``T`` for that ``κ`` and every larger one.

    A bound on the number of queries ``N_T ≤ T`` says nothing once it exceeds
    ``T``. gu2013's bound ``T^κ d ln(1 + N_T/(µd))`` (Thm 7, Eq. 26) and the one
    that holds for SSLGC (:func:`sslgc_label_complexity`, notebook 06 §3) both
    carry the factor ``T^κ``, so they grow with ``κ``; this reads, from a
    bound evaluated on a grid of ``κ``, where it becomes vacuous for good.

    Parameters
    ----------
    kappa : array of shape (k,)
        The grid of exponents (any order; ties not allowed).
    bound : array of shape (k,)
        The bound at each ``kappa`` (e.g. a mean over runs).
    T : float > 0
        The number of rounds.

    Returns
    -------
    float or None
        The smallest ``kappa[j]`` with ``bound > T`` at ``kappa[j]`` and at every
        larger ``κ`` of the grid; ``None`` if the bound at the largest ``κ`` is ``≤ T``.

    Examples
    --------
    >>> vacuous_from([0.1, 0.2, 0.3, 0.4], [50.0, 120.0, 90.0, 400.0], T=100)
    0.4
    >>> vacuous_from([0.1, 0.2], [50.0, 60.0], T=100) is None
    True
    """
    kappa = as_real_array(kappa, "kappa", ndim=1)
    bound = _check_shape(as_real_array(bound, "bound", ndim=1), kappa.shape, "bound")
    T = check_positive(T, "T")
    if np.unique(kappa).size != kappa.size:
        raise ValueError("kappa must not repeat a value")
    order = np.argsort(kappa)
    above = bound[order] > T
    if not above.size or not above[-1]:
        return None
    j = above.size - np.argmin(above[::-1]) if not above.all() else 0  # first index of the final run of True
    return float(kappa[order][j])


# --------------------------------------------------------------------------- yang2016: CMOG
def multiclass_margins(U, X, labels):
    """Margins ``(Uᵀm_t)(y_t) − max_{j≠y_t} (Uᵀm_t)(j)`` of a comparator ``U`` (yang2016 Eq. 4).

    Parameters
    ----------
    U : array of shape (d, K)
    X : array of shape (d, k)
        One column per node.
    labels : array of shape (k,)
        Classes ``0..K-1`` of the columns.

    Returns
    -------
    ndarray of shape (k,)

    Examples
    --------
    >>> multiclass_margins(np.eye(3), np.array([[3.0], [1.0], [2.0]]), [0]).tolist()
    [1.0]
    """
    U = as_real_matrix(U, "U", sparse=False, copy=False)
    X = _check_shape(_check_features(X), (U.shape[0], np.shape(X)[1]), "X")
    labels = check_class_labels(labels, X.shape[1], n_classes=U.shape[1], require_all=True)
    S = X.T @ U
    true = S[np.arange(len(labels)), labels]
    S[np.arange(len(labels)), labels] = -np.inf
    return true - S.max(axis=1)


@dataclass(frozen=True)
class Theorem1Comparator:
    """yang2016 Thm 1 for one comparator ``cU_0`` over a grid of scales ``c`` and ``h`` (see :func:`cmog_theorem1`).

    Attributes
    ----------
    trace_term : float
        ``tr(U_0ᵀ A_M U_0)``.
    margins_mistakes, margins_all : ndarray
        Margins of ``U_0`` on the mistaken rounds and on all rounds.
    hinge_mistakes, hinge_all : ndarray of shape (n_c,)
        ``Σ L_t(cU_0)`` over ``M`` and over all rounds, per ``c``.
    ours, paper : ndarray of shape (n_c, n_h)
        ``Σ_M L_t + h/2 c² tr + Σ_M r_t / h`` and the printed right-hand side
        (sums over all rounds), per ``(c, h)``.
    ours_h, paper_h : ndarray of shape (n_c,)
        Both at the best ``h``: ``hinge + c sqrt(2 tr Σ r_t)``.
    c, h : float
        The ``c`` of the grid minimising ``paper_h`` and its best ``h``.
    hinge, sqrt_term, paper_bound, our_bound : float
        At that ``c``: ``Σ_all L_t``, ``c sqrt(2 tr Σ_all r_t)``, ``paper_h`` and ``ours_h``.
    n_negative_margins : int
        Rounds where ``U_0`` has a negative margin (a hinge loss no ``c`` removes).
    """

    trace_term: float
    margins_mistakes: np.ndarray
    margins_all: np.ndarray
    hinge_mistakes: np.ndarray
    hinge_all: np.ndarray
    ours: np.ndarray
    paper: np.ndarray
    ours_h: np.ndarray
    paper_h: np.ndarray
    c: float
    h: float
    hinge: float
    sqrt_term: float
    paper_bound: float
    our_bound: float
    n_negative_margins: int


@dataclass(frozen=True)
class CMOGTheorem1:
    """Every quantity of yang2016 Thm 1 on one CMOG run (see :func:`cmog_theorem1`).

    Attributes
    ----------
    n_rounds, n_mistakes : int
        ``T`` and ``|M|``.
    lemma2_error, lemma2_error_raw : float
        Largest relative error of Lemma 2 over the updates with the VAW scores
        (≈ 0: it holds) and with the printed scores ``B_{t−1}ᵀA_{t−1}^{−1}m_t`` (it fails).
    r, brace : ndarray
        ``r_t = v_t/(1 + v_t)`` and ``(1 + v_t)||f_t||² − 2 y_t·f_t`` (``≥ 0``) per mistake
        (yang2016 writes ``r_t`` for our ``v_t``, so its ``r_t/(1 + r_t)`` is our ``r_t``).
    G_star : float
        Lemma 1's minimum over the mistakes, by an independent solve.
    sum_r, sum_r_all : float
        ``Σ r_t``, ``r_t = v_t/(1 + v_t)``, over the mistakes and over all rounds.
    sum_log1p_v, logdet, d_log : float
        Remark 2: ``Σ_M ln(1 + v_t) = ln det(A_M/γ) ≤ d ln(1 + R²|M|/(dγ))``.
    comparators : dict of str -> Theorem1Comparator
    """

    n_rounds: int
    n_mistakes: int
    lemma2_error: float
    lemma2_error_raw: float
    r: np.ndarray
    brace: np.ndarray
    G_star: float
    sum_r: float
    sum_r_all: float
    sum_log1p_v: float
    logdet: float
    d_log: float
    comparators: dict

    @property
    def telescoped(self) -> float:
        """``Σ_M (brace_t − 2r_t)``: Lemma 2 summed, equal to ``G* − 2|M|`` by Lemma 1."""
        return np.sum(self.brace - 2 * self.r)

    def table_row(self) -> dict:
        """The columns of notebook 08's table ``08_cmog_theorem1`` (graph and rank apart), per comparator.

        ``sum_M r_t`` and ``sum_all r_t`` are ``Σ r_t`` over the mistakes and
        over all rounds; per comparator name ``C``: ``C: c`` and ``C: h`` (the
        best scale of the grid and its best ``h``), ``C: hinge (all t)``,
        ``C: sqrt(2 tr sum r) (all t)``, ``C: paper bound``, ``C: our bound at
        that c`` and ``C: neg. margins`` (:class:`Theorem1Comparator`).
        """
        out = {
            "T": self.n_rounds,
            "mistakes": self.n_mistakes,
            "Lemma 2 rel. error, VAW f": self.lemma2_error,
            "Lemma 2 rel. error, f = B^T A^-1 m": self.lemma2_error_raw,
            "sum_M r_t": self.sum_r,
            "sum_all r_t": self.sum_r_all,
            "logdet A_M/gamma": self.logdet,
            "d ln(1+R^2|M|/d)": self.d_log,
        }
        for name, cb in self.comparators.items():
            out |= {
                f"{name}: c": cb.c,
                f"{name}: h": cb.h,
                f"{name}: hinge (all t)": cb.hinge,
                f"{name}: sqrt(2 tr sum r) (all t)": cb.sqrt_term,
                f"{name}: paper bound": cb.paper_bound,
                f"{name}: our bound at that c": cb.our_bound,
                f"{name}: neg. margins": cb.n_negative_margins,
            }
        return out


def _definition1_targets(scores, labels):
    from .online.cmog_msg import definition1_target

    return np.array([definition1_target(list(f), int(y)) for f, y in zip(scores, labels, strict=True)])


def cmog_theorem1(X, trace, comparators, *, gamma, c_grid=None, h_grid=None):
    """Evaluate yang2016's Theorem 1 (mistake bound of CMOG) term by term on a run.

    yang2016 Sec. III, as re-derived in notebook 08 §5: for every ``U`` and
    ``h > 0``, with ``L_t(U) = [1 − ((Uᵀm_t)(y_t) − max_{j≠y_t}(Uᵀm_t)(j))]_+``,
    ``A_M = γI + Σ_M m_t m_tᵀ`` and ``r_t = v_t/(1 + v_t)`` (yang2016's ``r_t/(1 + r_t)``),

    ``|M| ≤ Σ_M L_t(U) + h/2 tr(UᵀA_M U) + 1/h Σ_M r_t``
    ``≤ Σ_t L_t(U) + h/2 tr(UᵀA_M U) + 1/h Σ_t r_t`` (the printed form);

    at the best ``h`` both read ``hinge + sqrt(2 tr Σ r_t)``. Each comparator
    ``U_0`` is scaled by every ``c`` of ``c_grid`` and evaluated at every ``h``
    of ``h_grid``. Also computed: Lemma 2 round by round while replaying the
    mistakes (for the VAW scores and for the printed ones), Lemma 1's value by
    an independent solve, and Remark 2's ``Σ_M r_t ≤ ln det(A_M/γ) ≤ d ln(1 + R²|M|/(dγ))``.

    Parameters
    ----------
    X : array of shape (d, n)
        The features of the run.
    trace : Trace
        ``gs.online.run(gs.online.CMOG(gamma=gamma), X, y, ..., record=("v",))``
        (Definition 1 targets, conservative: Alg. 1).
    comparators : dict of str -> array of shape (d, K)
        The comparators ``U_0``, e.g. ``M L Y`` or the offline ridge solution.
    gamma : float > 0
        ``A_0 = γI`` of the run.
    c_grid, h_grid : 1-D arrays of positive numbers, optional
        Scales of the comparator and values of ``h``; default
        ``np.logspace(-2, 3, 101)`` and ``np.logspace(-3, 3, 25)``.

    Returns
    -------
    CMOGTheorem1

    Raises
    ------
    ValueError
        Shapes that do not match, no recorded ``v``, or a trace that replaying
        its mistakes with Definition 1 targets does not reproduce.
    """
    X = _check_features(X)
    gamma = check_positive(gamma, "gamma")
    _check_run(trace, X, multiclass=True, record=("v",))
    c_grid = np.logspace(-2, 3, 101) if c_grid is None else as_real_array(c_grid, "c_grid", ndim=1)
    h_grid = np.logspace(-3, 3, 25) if h_grid is None else as_real_array(h_grid, "h_grid", ndim=1)
    for grid, name in ((c_grid, "c_grid"), (h_grid, "h_grid")):
        if grid.size == 0 or np.any(grid <= 0):
            raise ValueError(f"{name} must hold positive numbers")
    K = trace.scores.shape[1]
    comparators = {
        name: _check_shape(as_real_matrix(U0, f"comparator {name!r}", sparse=False), (X.shape[0], K), name)
        for name, U0 in comparators.items()
    }
    idx = np.flatnonzero(trace.mistakes)
    Xm = X[:, trace.order[idx]]
    f, v = trace.scores[idx], trace.records["v"][idx]
    Z = _definition1_targets(f, trace.labels[idx])
    # replay the mistakes: recorded scores, Lemma 2 round by round
    state, Bacc, G_prev = RidgeState(X.shape[0], gamma, n_outputs=K), np.zeros((X.shape[0], K)), 0.0
    worst_lemma2 = worst_raw = 0.0
    for j in range(idx.size):
        x = Xm[:, j]
        u, vv = state.variance(x)
        f_raw = x @ state.w  # B^T A_{t-1}^{-1} m: not the VAW form
        if not (np.allclose((x @ state.w) / (1 + vv), f[j], rtol=1e-9, atol=1e-12) and np.isclose(vv, v[j])):
            raise ValueError(
                f"replaying the mistakes does not reproduce the recorded scores of round {idx[j] + 1}: "
                f"the trace is not a run of CMOG(gamma={gamma:g}) with Definition 1 targets on X"
            )
        state.update(x, Z[j], u, vv)
        Bacc += np.outer(x, Z[j])
        G_now = np.sum(Z[: j + 1] ** 2) - np.sum(Bacc * state.w)  # Lemma 1 after this update
        rt = vv / (1 + vv)
        lemma2 = np.sum((Z[j] - f[j]) ** 2) - 2 * rt + vv * np.sum(f[j] ** 2)
        worst_lemma2 = max(worst_lemma2, abs((G_now - G_prev) - lemma2) / max(1.0, abs(lemma2)))
        lemma2_raw = np.sum((Z[j] - f_raw) ** 2) - 2 * rt + vv * np.sum(f_raw**2)
        worst_raw = max(worst_raw, abs((G_now - G_prev) - lemma2_raw) / max(1.0, abs(lemma2_raw)))
        G_prev = G_now
    A = gamma * np.eye(X.shape[0]) + Xm @ Xm.T
    Bm = Xm @ Z
    G_star = np.sum(Z**2) - np.trace(Bm.T @ np.linalg.solve(A, Bm))  # Lemma 1, independent solve
    rt = v / (1 + v)
    brace = (1 + v) * np.sum(f**2, axis=1) - 2 * np.einsum("tk,tk->t", Z, f)
    # Remark 2
    logdet = np.linalg.slogdet(A / gamma)[1]
    R2 = _max_sq_norm(X, trace.order)
    d_log = X.shape[0] * np.log1p(R2 * idx.size / (X.shape[0] * gamma))
    v_all = trace.records["v"]
    rt_all = v_all / (1 + v_all)
    results = {}
    for cname, U0 in comparators.items():
        marg_M = multiclass_margins(U0, Xm, trace.labels[idx])
        marg_all = multiclass_margins(U0, X[:, trace.order], trace.labels)
        trace_term = np.trace(U0.T @ A @ U0)
        hinge_M = np.maximum(0.0, 1.0 - np.outer(c_grid, marg_M)).sum(axis=1)
        hinge_all = np.maximum(0.0, 1.0 - np.outer(c_grid, marg_all)).sum(axis=1)
        # every (c, h) of the grid: ours (sums over M) and the paper's (sums over all t)
        ours = (
            hinge_M[:, None] + 0.5 * h_grid[None, :] * c_grid[:, None] ** 2 * trace_term + np.sum(rt) / h_grid
        )
        paper = (
            hinge_all[:, None]
            + 0.5 * h_grid[None, :] * c_grid[:, None] ** 2 * trace_term
            + np.sum(rt_all) / h_grid
        )
        # h optimised in closed form, for both forms
        ours_h = hinge_M + c_grid * np.sqrt(2 * trace_term * np.sum(rt))
        paper_h = hinge_all + c_grid * np.sqrt(2 * trace_term * np.sum(rt_all))
        i = int(np.argmin(paper_h))
        results[cname] = Theorem1Comparator(
            trace_term=trace_term,
            margins_mistakes=marg_M,
            margins_all=marg_all,
            hinge_mistakes=hinge_M,
            hinge_all=hinge_all,
            ours=ours,
            paper=paper,
            ours_h=ours_h,
            paper_h=paper_h,
            c=c_grid[i],
            h=np.sqrt(2 * np.sum(rt_all) / (c_grid[i] ** 2 * trace_term)),
            hinge=hinge_all[i],
            sqrt_term=c_grid[i] * np.sqrt(2 * trace_term * np.sum(rt_all)),
            paper_bound=paper_h[i],
            our_bound=ours_h[i],
            n_negative_margins=int(np.sum(marg_all < 0)),
        )
    return CMOGTheorem1(
        n_rounds=trace.n_rounds,
        n_mistakes=idx.size,
        lemma2_error=worst_lemma2,
        lemma2_error_raw=worst_raw,
        r=rt,
        brace=brace,
        G_star=G_star,
        sum_r=np.sum(rt),
        sum_r_all=np.sum(rt_all),
        sum_log1p_v=np.sum(np.log1p(v)),
        logdet=logdet,
        d_log=d_log,
        comparators=results,
    )


# --------------------------------------------------------------------------- yang2016: MSG (Thm 3 and Thm 5)
#: What :func:`msg_theorems` records of every MSG run (``v`` is yang2016's ``r_t``).
MSG_RECORD = ("v", "margin", "theta", "aggressive", "prob")


def msg_aggressive_threshold(n_classes, r):
    """yang2016's aggressive threshold ``Δ_agg(K, r) = 2 sqrt(1 + K r / 2) − 2``.

    MSG's confidence (yang2016 Eq. 10, notebook 09 §1) is ``Θ = ½Δ² + 2Δ − K r``
    with ``r = v/(1 + v)``; for a margin ``Δ ≥ 0`` it is negative iff ``Δ`` lies
    below the positive root of this quadratic, so a round is aggressive iff
    ``Δ_t < Δ_agg(K, r_t)`` (the "Discussion" after Thm 5, where yang2016 writes
    ``θ(K, r_t)`` with its ``r_t`` = our ``v_t``).

    Parameters
    ----------
    n_classes : int
        ``K``.
    r : float or array
        ``r_t = v_t/(1 + v_t)`` in ``[0, 1)``.

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> float(msg_aggressive_threshold(5, 0.5))  # yang2016's "r_t = 1": sqrt(4 + K) - 2
    1.0
    """
    r = np.asarray(r, dtype=float)
    return 2 * np.sqrt(1 + n_classes * r / 2) - 2


def msg_progress(scores, v, labels):
    """Progress ``P_t = (1 + v_t)||f_t||² − 2 𝐲_t·f_t − 2 r_t`` of an update on round ``t``.

    yang2016 Lemma 2 with Definition 1 targets ``𝐲_t`` (``||𝐲_t||² = 2``), as
    re-derived in notebooks 08 §5 and 09 §1: an update on round ``t`` lowers the
    objective of Lemma 1 by ``2 − P_t``, so that summed over the updates
    ``Σ P_t = G*_T − 2 #updates``. On a mistake ``P_t ≥ Θ_t`` (Eq. 10).

    Parameters
    ----------
    scores : array of shape (T, K)
        The VAW scores ``f_t`` (``trace.scores`` of CMOG or MSG).
    v : array of shape (T,)
        ``v_t = m_tᵀA_{t−1}^{−1}m_t`` (recorded as ``"v"``).
    labels : array of shape (T,)
        ``y_t`` of the rounds.

    Returns
    -------
    ndarray of shape (T,)

    Examples
    --------
    >>> msg_progress([[0.0, 0.0]], [1.0], [0]).tolist()  # f = 0: P = -2 r = -2 * 1/2
    [-1.0]
    """
    f = as_real_matrix(scores, "scores", sparse=False)
    v = _check_shape(as_real_array(v, "v", ndim=1), (f.shape[0],), "v")
    labels = check_class_labels(labels, f.shape[0], n_classes=f.shape[1])
    Z = _definition1_targets(f, labels).reshape(f.shape)
    return (1 + v) * np.sum(f**2, axis=1) - 2 * np.einsum("tk,tk->t", Z, f) - 2 * (v / (1 + v))


@dataclass(frozen=True)
class MSGRunTerms:
    """yang2016 Thm 3 / Thm 5 on one run of MSG (see :func:`msg_theorems`).

    Attributes
    ----------
    mistakes, queried, n_updates : int
        ``|M|``, ``#Q`` and the number of updates.
    expected_queries, query_variance : float
        ``|D| + Σ_S p_t`` (the conditional mean of ``#Q``) and ``Σ_S p_t(1 − p_t)``.
    n_deterministic, n_deterministic_mistakes, n_aggressive_correct : int
        ``|D|`` (rounds with ``Θ_t < 0``), ``|D ∩ M|`` and ``|𝒱|`` (aggressive
        updates on correct predictions; 0 for the conservative sampler).
    error : float
        ``|M| / T``.
    ours, paper : ndarray of shape (n_c,)
        The right-hand sides (our re-derivation and the printed one) per scale ``c``.
    slack : dict of str -> float
        The deterministic inequalities as "right side minus left side",
        ``≥ 0`` when they hold: ``"P - Theta on D&M"``, ``"C on V"``,
        ``"P + 2Kr on V"`` (minima over the rounds, ``inf`` when there are
        none) and ``"(*)"`` (minimum over ``c``).
    lemma1_error : float
        ``|Σ P_t − (G* − 2 #updates)| / max(1, |G* − 2 #updates|)``, ``G*`` by an independent solve.
    """

    mistakes: int
    queried: int
    n_updates: int
    expected_queries: float
    query_variance: float
    n_deterministic: int
    n_deterministic_mistakes: int
    n_aggressive_correct: int
    error: float
    ours: np.ndarray
    paper: np.ndarray
    slack: dict
    lemma1_error: float


@dataclass(frozen=True)
class MSGTheorems:
    """yang2016 Thm 3 or Thm 5 in expectation over the query coins of one order (see :func:`msg_theorems`).

    Attributes
    ----------
    h : float
    aggressive : bool
        ``True``: MSG (Thm 5); ``False``: the conservative sampler (Thm 3).
    mistakes, error : float
        Means of ``|M|`` and of the error rate over the coins.
    best_c : float
        The scale ``c`` (comparator ``c U_0``) minimising the mean of our bound.
    bound_ours, bound_paper : float
        The means of both bounds at ``best_c``.
    n_deterministic, n_deterministic_mistakes, n_aggressive_correct : float
        Means of ``|D|``, ``|D ∩ M|`` and ``|𝒱|``.
    queried, expected_queries : float
        Means of ``#Q`` and of ``|D| + Σ_S p_t``.
    query_gap, query_se : float
        Mean of ``#Q − (|D| + Σ_S p_t)`` and its standard error
        ``sqrt(mean Σ_S p_t(1 − p_t) / n_coins)``.
    realized_fail : float
        Share of the runs whose own ``|M|`` exceeds their own bound at ``best_c``.
    min_slack : dict of str -> float
        The smallest slack of each deterministic inequality over the runs (see :class:`MSGRunTerms`).
    lemma1_error : float
        The largest ``lemma1_error`` over the runs.
    runs : tuple of MSGRunTerms
    """

    h: float
    aggressive: bool
    mistakes: float
    error: float
    best_c: float
    bound_ours: float
    bound_paper: float
    n_deterministic: float
    n_deterministic_mistakes: float
    n_aggressive_correct: float
    queried: float
    expected_queries: float
    query_gap: float
    query_se: float
    realized_fail: float
    min_slack: dict
    lemma1_error: float
    runs: tuple

    def table_row(self) -> dict:
        """The columns of notebook 09's table ``09_msg_theorems`` (graph, h and theorem apart)."""
        return {
            "E|M|": self.mistakes,
            "bound (ours)": self.bound_ours,
            "bound (as printed)": self.bound_paper,
            "best c": self.best_c,
            "E[V]": self.n_aggressive_correct,
            "E|D|": self.n_deterministic,
            "E|D n M|": self.n_deterministic_mistakes,
            "E[#Q]": self.queried,
            "E[|D| + sum_S p]": self.expected_queries,
            "4 s.e.": 4 * self.query_se,
            "realized bound fails": self.realized_fail,
            "error": self.error,
        }


def _msg_run_terms(X, trace, learner, U0, c_grid, gamma):
    """:class:`MSGRunTerms` of one traced run of ``learner`` (an MSG)."""
    K, h, aggressive = trace.scores.shape[1], learner.h, learner.aggressive
    f, v = trace.scores, trace.records["v"]
    r, theta, delta = v / (1 + v), trace.records["theta"], trace.records["margin"]
    agg, p = trace.records["aggressive"].astype(bool), trace.records["prob"]
    mis = trace.mistakes
    upd = trace.queried & (mis | agg) if aggressive else trace.queried & mis
    if learner.state.n_updates != upd.sum():
        raise ValueError(f"{learner!r} made {learner.state.n_updates} updates, its trace implies {upd.sum()}")
    idx = np.flatnonzero(upd)
    Z = _definition1_targets(f[idx], trace.labels[idx]).reshape(-1, K)
    P = (1 + v[idx]) * np.sum(f[idx] ** 2, axis=1) - 2 * np.einsum("tk,tk->t", Z, f[idx]) - 2 * r[idx]
    Xu = X[:, trace.order[idx]]
    A = gamma * np.eye(X.shape[0]) + Xu @ Xu.T
    B = Xu @ Z
    target = np.sum(Z**2) - np.trace(B.T @ np.linalg.solve(A, B)) - 2 * idx.size  # Lemma 1: G* - 2 #updates
    DM, V = agg & mis, agg & ~mis & upd
    C = 0.5 * delta[V] ** 2 - 2 * delta[V] + K * r[V]  # the quadratic of the root argument
    S = X[:, trace.order].T @ U0  # margins of U0 (yang2016 Eq. 4)
    rows = np.arange(len(trace.labels))
    true = S[rows, trace.labels]
    S[rows, trace.labels] = -np.inf
    hinge = np.maximum(0.0, 1.0 - np.outer(c_grid, true - S.max(axis=1)))  # (c, t)
    hinge_upd, hinge_all = hinge[:, upd].sum(axis=1), hinge.sum(axis=1)
    tr_term = np.trace(U0.T @ A @ U0)
    sum_DM, sum_V, sum_D = K * r[DM].sum(), K * r[V].sum(), K * r[agg].sum()
    quad = 0.5 * h * c_grid**2 * tr_term
    if aggressive:
        ours = hinge_upd + quad + (sum_DM + 2 * sum_V) / (2 * h) - V.sum()
        paper = hinge_upd + quad + sum_D / h - V.sum()
    else:
        ours = hinge_upd + quad + sum_DM / (2 * h)
        paper = hinge_all + quad + sum_DM / (2 * h)

    def least(a):
        return float(np.min(a)) if a.size else np.inf

    slack = {
        "P - Theta on D&M": least(P[DM[idx]] - theta[idx][DM[idx]]),
        "C on V": least(C),
        "P + 2Kr on V": least(P[V[idx]] + 2 * K * r[idx][V[idx]]),
        "(*)": least(2 * h * hinge_upd + h**2 * c_grid**2 * tr_term - np.sum(P + 2 * h)),
    }
    return MSGRunTerms(
        mistakes=mis.sum(),
        queried=trace.n_queried,
        n_updates=idx.size,
        expected_queries=agg.sum() + p[~agg].sum(),
        query_variance=np.sum(p[~agg] * (1 - p[~agg])),
        n_deterministic=agg.sum(),
        n_deterministic_mistakes=DM.sum(),
        n_aggressive_correct=V.sum(),
        error=trace.error_rate,
        ours=ours,
        paper=paper,
        slack=slack,
        lemma1_error=abs(P.sum() - target) / max(1.0, abs(target)),
    )


def msg_theorems(X, labels, order, coins, U0, *, gamma, h, aggressive=True, c_grid=None):
    """Evaluate yang2016's Theorem 5 (MSG) or Theorem 3 (conservative sampler) on real runs.

    yang2016 Sec. IV, as re-derived in notebook 09 §4. With ``D`` the rounds with
    ``Θ_t < 0`` (always queried), ``S`` the others, ``M`` the mistakes,
    ``𝒱 = D \\ M`` the aggressive updates on correct rounds, ``r_t = v_t/(1 + v_t)``
    and the comparator ``U = c U_0``:

    * Thm 3: ``E|M| ≤ E[Σ_upd L_t(U)] + h/2 tr(UᵀE[A_U]U) + 1/(2h) E[Σ_{D∩M} K r_t]``;
    * Thm 5: ``E|M| ≤ E[Σ_upd L_t(U)] + h/2 tr(UᵀE[A_U]U)
      + 1/(2h) E[Σ_{D∩M} K r_t + 2 Σ_𝒱 K r_t] − E|𝒱|``;

    each beside its printed form (Thm 3 sums the hinge over all rounds; Thm 5
    has ``1/h Σ_D K r_t``). MSG runs once per coin seed on one order; every run
    is also checked deterministically (:class:`MSGRunTerms` ``slack``: ``P_t ≥ Θ_t``
    on ``D ∩ M``, ``C ≥ 0`` and ``P_t ≥ −2K r_t`` on ``𝒱``, Lemma 1, and the
    summed inequality ``(*)`` ``Σ_upd (P_t + 2h) ≤ 2h Σ_upd L_t(U) + h² tr(UᵀA_U U)``
    for every ``c``); the caller asserts them.

    Parameters
    ----------
    X : array of shape (d, n)
    labels : array of shape (n,)
        Classes ``0..K-1`` of the nodes.
    order : array of shape (n,)
    coins : sequence of int
        Seeds of the query coin, one run each.
    U0 : array of shape (d, K)
        The unscaled comparator, e.g. the offline ridge solution with all labels.
    gamma, h : float > 0
        ``A_0 = γI`` and MSG's ``h``.
    aggressive : bool, default True
        ``False`` evaluates Thm 3 on the conservative sampler ``MSG(aggressive=False)``.
    c_grid : 1-D array of non-negative numbers, optional
        Scales of the comparator; default ``0`` and ``np.logspace(-2, 3, 101)``.

    Returns
    -------
    MSGTheorems

    Raises
    ------
    ValueError
        Shapes that do not match, no coins, or a run whose updates its trace does not explain.
    """
    from .online import MSG, run

    X = _check_features(X)
    gamma, h = check_positive(gamma, "gamma"), check_positive(h, "h")
    c_grid = (
        np.concatenate([[0.0], np.logspace(-2, 3, 101)])
        if c_grid is None
        else as_real_array(c_grid, "c_grid", ndim=1)
    )
    if c_grid.size == 0 or np.any(c_grid < 0):
        raise ValueError("c_grid must hold non-negative numbers")
    coins = list(coins)
    if not coins:
        raise ValueError("coins must name at least one seed")
    labels = check_class_labels(labels, X.shape[1])
    U0 = _check_shape(as_real_matrix(U0, "U0", sparse=False), (X.shape[0], int(labels.max()) + 1), "U0")
    runs = []
    for coin in coins:
        learner = MSG(gamma=gamma, h=h, aggressive=aggressive)
        trace = run(learner, X, labels, order=order, seed=coin, record=MSG_RECORD)
        runs.append(_msg_run_terms(X, trace, learner, U0, c_grid, gamma))
    ours = np.mean([q.ours for q in runs], axis=0)
    i = int(np.argmin(ours))
    var = np.mean([q.query_variance for q in runs])
    return MSGTheorems(
        h=h,
        aggressive=bool(aggressive),
        mistakes=np.mean([q.mistakes for q in runs]),
        error=np.mean([q.error for q in runs]),
        best_c=c_grid[i],
        bound_ours=ours[i],
        bound_paper=np.mean([q.paper for q in runs], axis=0)[i],
        n_deterministic=np.mean([q.n_deterministic for q in runs]),
        n_deterministic_mistakes=np.mean([q.n_deterministic_mistakes for q in runs]),
        n_aggressive_correct=np.mean([q.n_aggressive_correct for q in runs]),
        queried=np.mean([q.queried for q in runs]),
        expected_queries=np.mean([q.expected_queries for q in runs]),
        query_gap=np.mean([q.queried - q.expected_queries for q in runs]),
        query_se=np.sqrt(var / len(coins)),
        realized_fail=np.mean([q.mistakes > q.ours[i] for q in runs]),
        min_slack={k: min(q.slack[k] for q in runs) for k in runs[0].slack},
        lemma1_error=max(q.lemma1_error for q in runs),
        runs=tuple(runs),
    )


# --------------------------------------------------------------------------- yang2016's baselines: BBQ and BBQ_ε
def bbq_r_cap(norm_sq, gamma):
    """The largest ``r_t`` a node of squared norm ``||x_t||²`` can have: ``||x_t||²/(γ + ||x_t||²)``.

    Since ``A_{t−1} ⪰ γI``, ``v_t = x_tᵀA_{t−1}^{−1}x_t ≤ ||x_t||²/γ``, and
    ``r_t = v_t/(1 + v_t)`` grows with ``v_t`` (notebook 10 §3). BBQ queries iff
    ``r_t > t^{−κ}``, so round ``t`` cannot be queried while ``t^{−κ}`` is at
    least this cap (Cesa-Bianchi, Gentile & Orabona 2009, the BBQ rule).

    Parameters
    ----------
    norm_sq : float or array
        ``||x_t||² ≥ 0``.
    gamma : float > 0
        ``A_0 = γI``.

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> float(bbq_r_cap(1.0, 1.0))
    0.5
    """
    gamma = check_positive(gamma, "gamma")
    norm_sq = np.asarray(norm_sq, dtype=float)
    if np.any(norm_sq < 0) or not np.all(np.isfinite(norm_sq)):
        raise ValueError("norm_sq must hold finite non-negative numbers")
    return norm_sq / (gamma + norm_sq)


def bbq_first_query(norm_sq, gamma, kappa):
    """BBQ's first query on a stream whose nodes all have ``||x_t||² = norm_sq``, and its distance from a tie.

    Until the first query ``A = γI``, so every round has the same
    ``r = bbq_r_cap(norm_sq, γ)`` and BBQ queries the first integer ``t`` with
    ``t^{−κ} < r`` (notebook 10 §3): ``t = ⌊r^{−1/κ}⌋ + 1``. At ``||x||² = γ``
    (``r = ½``) and an integer ``2^{1/κ}`` the round ``t = 2^{1/κ}`` is an
    exact tie ``r = t^{−κ}``, which the last bit of ``||x_t||²`` decides; the
    returned ``gap`` measures how far the decisions are from any such tie.

    Parameters
    ----------
    norm_sq : float > 0
    gamma : float > 0
    kappa : float > 0

    Returns
    -------
    t : int
        The round (counted from 1) of the first query.
    gap : float
        ``min(|t^{−κ} − r|, |(t − 1)^{−κ} − r|) / r``: the relative change of
        ``r`` or of the threshold that would move the first query (0 at a tie).

    Examples
    --------
    >>> bbq_first_query(0.5, 1.0, 1.0)[0]  # r = 1/3: the first t with 1/t < 1/3
    4
    >>> bbq_first_query(1.0, 1.0, 0.5)[1]  # r = 1/2 = 4^(-1/2): a tie at t = 4
    0.0
    """
    norm_sq, kappa = check_positive(norm_sq, "norm_sq"), check_positive(kappa, "kappa")
    r = float(bbq_r_cap(norm_sq, gamma))
    t = int(np.floor(r ** (-1 / kappa))) + 1
    while t > 1 and (t - 1) ** -kappa < r:  # correct the floor for rounding, both ways
        t -= 1
    while t**-kappa >= r:
        t += 1
    gap = min(abs(t**-kappa - r), abs((t - 1) ** -kappa - r) if t > 1 else np.inf) / r
    return t, gap


def bbq_eps_formulas(X, S, nodes, gamma):
    """Largest deviations of BBQ_ε's ``O(d²)`` formulas from direct solves at one learner state.

    With ``A = γI + S Sᵀ`` (``S`` the queried inputs as columns, notebook 10's
    ``X_Q``), ``a = A^{−1}x`` and ``v = xᵀa``, Sherman–Morrison gives
    (Orabona & Cesa-Bianchi 2011, BBQ_ε; notebook 10 §2)::

        r = xᵀ(A + xxᵀ)^{−1}x = v/(1+v),  s = ||(A + xxᵀ)^{−1}x|| = ||a||/(1+v),
        q = ||Sᵀ(A + xxᵀ)^{−1}x|| = sqrt(aᵀ(S Sᵀ)a)/(1+v).

    Each is compared with a direct solve with ``A + xxᵀ`` for every column
    ``x`` of ``X[:, nodes]``; the shortcut ``aᵀ(S Sᵀ)a = v − γ||a||²`` (exact
    in real arithmetic) is compared with ``aᵀ(S Sᵀ)a``.

    Parameters
    ----------
    X : array of shape (d, n)
    S : array of shape (d, k)
        The queried inputs (``k = 0`` allowed).
    nodes : array of int
        Columns of ``X`` to test.
    gamma : float > 0

    Returns
    -------
    dict
        ``"r"``, ``"s"``, ``"q"``: largest absolute deviations; ``"shortcut"``:
        largest relative error of the shortcut (``nan`` when ``k = 0``).
    """
    X = _check_features(X)
    S = _check_shape(as_real_matrix(S, "S", sparse=False, copy=False), (X.shape[0], np.shape(S)[1]), "S")
    gamma = check_positive(gamma, "gamma")
    Xs = X[:, np.asarray(nodes, dtype=int)]
    C = S @ S.T
    A = gamma * np.eye(X.shape[0]) + C
    A_inc = A[None, :, :] + np.einsum("in,jn->nij", Xs, Xs)  # A + x xᵀ for each node
    Z = np.linalg.solve(A_inc, Xs.T[:, :, None])[:, :, 0]  # rows: (A + x xᵀ)^{-1} x
    U = np.linalg.solve(A, Xs).T  # rows: a = A^{-1} x
    v = np.einsum("nd,dn->n", U, Xs)
    aCa = np.sum((U @ C) * U, axis=1)
    return {
        "r": np.abs(np.einsum("nd,dn->n", Z, Xs) - v / (1 + v)).max(),
        "s": np.abs(np.linalg.norm(Z, axis=1) - np.linalg.norm(U, axis=1) / (1 + v)).max(),
        "q": np.abs(np.linalg.norm(Z @ S, axis=1) - np.sqrt(np.maximum(aCa, 0)) / (1 + v)).max(),
        "shortcut": np.max(np.abs((v - gamma * np.sum(U**2, axis=1)) - aCa) / aCa) if S.shape[1] else np.nan,
    }


# --------------------------------------------------------------------------- random spanning trees and WTA (chapter 13)
def _edge_list(S):
    """``(edges, weights)`` of ``S``: each edge once as ``(i, j)`` with ``i < j``, in row-major order."""
    C = sp.triu(check_adjacency(S), k=1).tocoo()
    keep = C.data != 0
    order = np.lexsort((C.col[keep], C.row[keep]))
    edges = np.column_stack([C.row[keep], C.col[keep]])[order].astype(np.int64)
    return edges, C.data[keep][order].astype(float)


def spanning_tree_count(S, *, log=False, node=None):
    """The matrix-tree theorem: ``Σ_T Π_{e∈T} S_e`` = any cofactor of ``L`` (Kirchhoff 1847).

    For an unweighted graph this is the number of spanning trees. Computed as
    ``det L`` with row and column ``node`` removed (default the last node; any
    node gives the same value) by a dense LU (``slogdet``), so for graphs of up
    to a few thousand nodes. ``log=True`` returns the natural logarithm, which
    does not overflow (Cora's count has more than a thousand digits). A
    disconnected graph has no spanning tree: 0 (``-inf`` with ``log``).
    """
    S = check_adjacency(S)
    n = S.shape[0]
    if n == 1:
        return 0.0 if log else 1.0
    node = n - 1 if node is None else int(node)
    if not 0 <= node < n:
        raise ValueError(f"node must be in 0..{n - 1}, got {node}")
    if csgraph.connected_components(S, directed=False)[0] != 1:
        return -np.inf if log else 0.0
    keep = np.arange(n) != node
    L = laplacian(S).toarray()[np.ix_(keep, keep)]
    sign, logdet = np.linalg.slogdet(L)
    if sign <= 0:
        return -np.inf if log else 0.0
    return float(logdet) if log else float(np.exp(logdet))


def enumerate_spanning_trees(S, *, max_subsets=2_000_000):
    """Every spanning tree of a small graph by brute force: ``(edges, trees)``.

    ``edges`` is the ``(m, 2)`` edge list (``i < j``), ``trees`` an array of
    shape ``(count, n − 1)`` of edge indices, one row per spanning tree: every
    subset of ``n − 1`` edges is tested for connectivity (a union–find), so
    ``C(m, n − 1)`` must stay below ``max_subsets``.
    """
    import itertools
    import math

    edges, _ = _edge_list(S)
    n, m = S.shape[0], len(edges)
    if math.comb(m, n - 1) > max_subsets:
        raise ValueError(f"C({m}, {n - 1}) = {math.comb(m, n - 1)} subsets: too many to enumerate")

    def find(parent, a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    trees = []
    for subset in itertools.combinations(range(m), n - 1):
        parent = list(range(n))
        ok = True
        for k in subset:
            a, b = find(parent, int(edges[k, 0])), find(parent, int(edges[k, 1]))
            if a == b:  # a cycle: n - 1 edges with a cycle cannot span
                ok = False
                break
            parent[a] = b
        if ok:
            trees.append(subset)
    return edges, np.asarray(trees, dtype=np.int64).reshape(-1, n - 1)


@dataclass
class EdgeInTree:
    """Kirchhoff's edge probabilities of a graph, one entry per edge (``i < j``, row-major)."""

    edges: np.ndarray  #: (m, 2)
    weight: np.ndarray  #: w_e
    resistance: np.ndarray  #: R_e, the effective resistance between the ends of e
    probability: np.ndarray  #: w_e R_e = P(e in T) for T drawn with probability ∝ Π w_e


def edge_in_tree_probability(S):
    """``P(e ∈ T) = w_e R_e`` for every edge (Kirchhoff 1847), ``T`` drawn ``∝ Π_{e∈T} w_e``.

    ``R_e`` is :func:`effective_resistance` between the ends of ``e`` (one
    sparse factorisation); for an unweighted graph ``T`` is a uniform spanning
    tree and ``P(e ∈ T) = R_e``. The probabilities sum to ``n − 1`` (Foster's
    theorem: every tree has ``n − 1`` edges). Returns an :class:`EdgeInTree`.
    """
    S = check_adjacency(S, require_connected=True)
    edges, w = _edge_list(S)
    R = effective_resistance(S, edges)
    return EdgeInTree(edges, w, R, w * R)


def tree_edge_frequencies(S, n_draws, seed=0):
    """Share of ``n_draws`` Wilson trees (:class:`~graphsel_lib.online.wta.SpanningTreeSampler`) holding each edge.

    Returns ``(edges, frequency)`` with the edges of :func:`edge_in_tree_probability`
    (``i < j``, row-major). Each count is binomial with ``n_draws`` trials and
    success probability ``w_e R_e``: its standard error is
    ``sqrt(p (1 − p) / n_draws)``.
    """
    from .online.wta import SpanningTreeSampler

    S = check_adjacency(S, require_connected=True)
    edges, _ = _edge_list(S)
    n = S.shape[0]
    index = {(int(i), int(j)): k for k, (i, j) in enumerate(edges)}
    sampler = SpanningTreeSampler(S)
    rng = np.random.default_rng(seed)
    counts = np.zeros(len(edges))
    for _ in range(int(n_draws)):
        E = np.sort(sampler.draw(rng).edges(), axis=1)
        counts[[index[(int(a), int(b))] for a, b in E]] += 1
    assert counts.sum() == n_draws * (n - 1)
    return edges, counts / n_draws


def expected_tree_cut(S, labels, *, weighted=False):
    """Expected cut of ``labels`` on a random spanning tree (``∝ Π w_e``): ``Σ_{cut e} w_e R_e`` edges.

    By linearity, ``E[Φ⁰_T] = Σ_{e cut} P(e ∈ T) = Σ_{e cut} w_e R_e`` for the
    number of cut tree edges, at most the number of cut graph edges; with
    ``weighted=True`` the weighted cut ``E[Φ_T] = Σ_{e cut} w_e · w_e R_e ≤ Φ(y)``.
    For an unweighted graph both are ``Σ_{e cut} R_e``.
    """
    p = edge_in_tree_probability(S)
    y = np.asarray(labels)
    if y.shape != (S.shape[0],):
        raise ValueError(f"labels must have shape ({S.shape[0]},), got {y.shape}")
    cut = y[p.edges[:, 0]] != y[p.edges[:, 1]]
    return float(np.sum((p.weight * p.probability if weighted else p.probability)[cut]))


def tree_and_line_cuts(tree, line, labels):
    """Cuts of ``labels`` on one spanning tree and on its WTA line (:func:`~graphsel_lib.online.wta.tree_line`).

    Returns a dict: ``tree`` and ``line`` count the cut edges (label changes),
    ``tree_weighted`` and ``line_weighted`` sum their weights (a line edge
    carries the smallest weight on the tree path it replaces).
    """
    y = np.asarray(labels)
    E = tree.edges()
    cut_t = y[E[:, 0]] != y[E[:, 1]]
    cut_l = y[line.nodes[1:]] != y[line.nodes[:-1]]
    return {
        "tree": int(cut_t.sum()),
        "line": int(cut_l.sum()),
        "tree_weighted": float(tree.weight[E[:, 0]][cut_t].sum()),
        "line_weighted": float(line.weights[cut_l].sum()),
    }


def wta_mistake_bound(line, labels):
    """``1 + Φ_L (1 + log₂(n − 1))``: the mistake bound of one-tree WTA on an unweighted graph.

    ``Φ_L`` is the number of label changes along the line. Our derivation
    (chapter 13 §5; the library's tests check it): with unit weights the
    nearest revealed position is the nearest in line order; the first round
    errs at most once; a later mistake falls in a stretch of the line between
    two revealed positions (or beyond the last) that holds a label change, and
    the nearest-neighbour rule makes it either uncover a new label change (at
    most ``Φ_L`` times) or halve the unrevealed gap around one (at most
    ``log₂(n − 1)`` times per change). Cesa-Bianchi et al. (2013) state the
    order ``E[Φ_T] log n`` of this bound.
    """
    import math

    y = np.asarray(labels)
    phi = int(np.sum(y[line.nodes[1:]] != y[line.nodes[:-1]]))
    return 1.0 + phi * (1.0 + math.log2(max(len(y) - 1, 1)))


def wta_expected_mistake_bound(S, labels):
    """``1 + 2 E[Φ_T] (1 + log₂(n − 1))``: one-tree WTA's mistake bound in expectation over the tree.

    :func:`wta_mistake_bound` bounds the mistakes on one line by
    ``1 + Φ_L (1 + log₂(n − 1))``; the line at most doubles the tree's cut
    (``Φ_L ≤ 2 Φ_T``, chapter 13 §4) and ``E[Φ_T] = Σ_{cut e} R_e``
    (:func:`expected_tree_cut`, Kirchhoff), so the expectation over the random
    tree is at most this number, for any labelling and order fixed before the
    tree is drawn. Unweighted graphs only, like the bound it averages.
    Cesa-Bianchi et al. (2013) state the order ``O(E[Φ_T] log n)``.
    """
    import math

    S = check_adjacency(S, require_connected=True)
    if S.nnz and not np.allclose(S.data, 1.0):
        raise ValueError(
            "wta_expected_mistake_bound needs an unweighted graph (the bound counts label changes)"
        )
    n = S.shape[0]
    return 1.0 + 2.0 * expected_tree_cut(S, labels) * (1.0 + math.log2(max(n - 1, 1)))
