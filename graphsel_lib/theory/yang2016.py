"""yang2016 (CMOG and MSG): Thm 1, Thm 3 and Thm 5 evaluated on runs.

* :func:`cmog_theorem1` and :func:`multiclass_margins` — Thm 1 (with Lemma 1, Lemma 2 and
  Remark 2) for CMOG with Definition 1 targets (chapter 08);
* :func:`msg_theorems`, :func:`msg_progress` and :func:`msg_aggressive_threshold` — Thm 3 and
  Thm 5 (MSG) in expectation over the query coins, with the deterministic inequalities of their
  proofs on every run (chapter 09).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import as_real_array, as_real_matrix, check_class_labels, check_positive
from ..online import MSG, RidgeState, run
from ..online.cmog_msg import definition1_target
from ._checks import check_features, check_run, check_shape, max_sq_norm


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
    X = check_shape(check_features(X), (U.shape[0], np.shape(X)[1]), "X")
    labels = check_class_labels(labels, X.shape[1], n_classes=U.shape[1], require_all=True)
    S = X.T @ U
    true = S[np.arange(len(labels)), labels]
    S[np.arange(len(labels)), labels] = -np.inf
    return true - S.max(axis=1)


@dataclass(frozen=True)
class Theorem1Comparator:
    """yang2016 Thm 1 for one comparator ``cU_0`` over a grid of scales ``c`` and ``h`` (see :func:`cmog_theorem1`).

    Parameters
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

    Parameters
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
        One entry per comparator given to :func:`cmog_theorem1`, under its name.

    Attributes
    ----------
    telescoped : float
        ``Σ_M (brace_t − 2r_t)`` (a property).
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
    X = check_features(X)
    gamma = check_positive(gamma, "gamma")
    check_run(trace, X, multiclass=True, record=("v",))
    c_grid = np.logspace(-2, 3, 101) if c_grid is None else as_real_array(c_grid, "c_grid", ndim=1)
    h_grid = np.logspace(-3, 3, 25) if h_grid is None else as_real_array(h_grid, "h_grid", ndim=1)
    for grid, name in ((c_grid, "c_grid"), (h_grid, "h_grid")):
        if grid.size == 0 or np.any(grid <= 0):
            raise ValueError(f"{name} must hold positive numbers")
    K = trace.scores.shape[1]
    comparators = {
        name: check_shape(as_real_matrix(U0, f"comparator {name!r}", sparse=False), (X.shape[0], K), name)
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
    R2 = max_sq_norm(X, trace.order)
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
    v = check_shape(as_real_array(v, "v", ndim=1), (f.shape[0],), "v")
    labels = check_class_labels(labels, f.shape[0], n_classes=f.shape[1])
    Z = _definition1_targets(f, labels).reshape(f.shape)
    return (1 + v) * np.sum(f**2, axis=1) - 2 * np.einsum("tk,tk->t", Z, f) - 2 * (v / (1 + v))


@dataclass(frozen=True)
class MSGRunTerms:
    """yang2016 Thm 3 / Thm 5 on one run of MSG (see :func:`msg_theorems`).

    Parameters
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

    Parameters
    ----------
    h : float
        MSG's ``h`` of the runs.
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
        One per coin, in the order of ``coins``.
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
    X = check_features(X)
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
    U0 = check_shape(as_real_matrix(U0, "U0", sparse=False), (X.shape[0], int(labels.max()) + 1), "U0")
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
