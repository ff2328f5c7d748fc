"""The claims census: scorecard rows for the papers' statements the figure builders do not cover.

Theorems are scored on the runs of chapters 05-09 (tables written by the library's evaluators in
:mod:`graphsel_lib.bounds`: ``ollgc_bounds`` for gu2013 Thm 4 / Cor. 5, the label-complexity check for
Thm 7, the CMOG and MSG evaluators for yang2016 Thms 1, 3, 5): a bound ``holds`` when no run exceeds it
and is ``vacuous`` when it holds but is at least the trivial count (T rounds, i.e. every node) on every
run at the paper's setting. A time claim between the authors' Matlab and our compiled code is ``not
comparable`` unless an operation count decides it (:func:`method_gpa_operations` says why none
does); a time claim within our code (our SSLGC against our OLLGC) is tested, and
:func:`sslgc_ollgc_operations` says why it comes out as it does.
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import pandas as pd

import graphsel_lib as gs

from ..collection import tables
from .score_data import NAMES, num

__all__ = ["census", "method_gpa_operations", "resistance_bound", "sslgc_ollgc_operations"]


def _sizes():
    t1 = tables.read_table("00_gu2013_table1")
    return {str(d).lower(): float(n) for d, n in zip(t1.dataset, num(t1["nodes (ours)"]), strict=True)}


def sslgc_ollgc_operations(d, ollgc_error) -> float:
    """Multiply-adds of SSLGC over OLLGC per learner and round, gu2013's Algs. 1-2 with our O(d^2) update.

    OLLGC predicts with ``w^T m_t`` (``2d``) and on a mistake updates ``A^{-1}`` by Sherman-Morrison
    (``~4d^2``); SSLGC also computes ``r_t = m_t^T A^{-1} m_t`` (``2d^2``) in every round to decide the
    query, and updates (``~2d^2`` more) only on queried mistakes, taken as none here (a lower bound)::

        ratio >= (2d + 2d^2) / (2d + 4 d^2 e_OLLGC)

    >>> round(sslgc_ollgc_operations(100, 0.0761), 1)  # Cora: SSLGC does ~6x OLLGC's operations
    6.2
    """
    return (2 * d + 2 * d**2) / (2 * d + 4 * d**2 * ollgc_error)


def method_gpa_operations(method, d, error, gpa_error) -> float:
    """Multiply-adds of OLLGC or SSLGC over GPA's per learner and round (gu2013's Algs. 1-2, Herbster's GPA).

    GPA predicts with ``w^T m_t`` (``2d``) and adds ``m_t`` on a mistake (``d``); OLLGC as in
    :func:`sslgc_ollgc_operations` (``2d + 4d^2 e``, ``error`` its own); SSLGC at least ``2d + 2d^2`` (its
    query test, updates not counted: a lower bound, ``error`` unused)::

        OLLGC / GPA = (2d + 4 d^2 e) / (2d + d e_GPA),   SSLGC / GPA >= (2d + 2d^2) / (2d + d e_GPA)

    >>> round(method_gpa_operations("OLLGC", 100, 0.0761, 0.1105), 1)  # Cora
    15.4
    >>> round(method_gpa_operations("SSLGC", 100, 0.08, 0.1105), 1)
    95.7
    """
    work = {"OLLGC": 2 * d + 4 * d**2 * error, "SSLGC": 2 * d + 2 * d**2}
    if method not in work:
        raise ValueError(f"method {method!r}: the count knows OLLGC and SSLGC")
    return work[method] / (2 * d + d * gpa_error)


def resistance_bound(seed=0, n_random=20) -> tuple[float, str]:
    """The slides' ``K_pp <= max_q r(p, q)`` (K = L^+, r the effective resistance): the largest
    ``K_pp / max_q r(p, q)`` over the karate club (plain, weighted) and ``n_random`` connected random graphs."""
    rng = np.random.default_rng(seed)
    graphs = [nx.karate_club_graph(), nx.karate_club_graph()]
    weights = [None, "weight"]
    while len(graphs) < 2 + n_random:
        g = nx.gnp_random_graph(int(rng.integers(20, 80)), 0.1, seed=int(rng.integers(2**31)))
        if nx.is_connected(g):
            graphs.append(g)
            weights.append(None)
    worst = 0.0
    for g, w in zip(graphs, weights, strict=True):
        K = gs.laplacian_pinv(nx.to_scipy_sparse_array(g, weight=w))
        k = np.diag(K)
        r = k[:, None] + k[None, :] - 2 * K
        worst = max(worst, float((k / r.max(axis=1)).max()))
    return worst, f"karate, {n_random} random"


def _theorems(card, sizes):
    ob = tables.read_table("05_ollgc_bounds")
    ob = ob[ob.graph.isin(["cora", "coauthor"])]
    thm4 = num(ob["regret on M (u = MLy)"]) / num(ob["Thm 4: mu/2||u||^2 + 1/2 sum xi^2 r"])
    card.claim("gu2013", "Thm 4", "Cora, Coauthor", bool((thm4 <= 1 + 1e-9).all()), "th-g4",
               "gu2013 Thm 4 (regret of OLLGC on its mistake rounds against u = MLy): no run of chapter 05 "
               "exceeds it (every mu, with and without the bias feature); ours = the largest regret / bound",
               method="OLLGC", ours=float(thm4.max()))  # fmt: skip
    cor5 = num(ob["Cor 5"])
    T = ob.graph.map(sizes)
    ok = bool((num(ob["mistakes"]) <= cor5).all())
    card.claim("gu2013", "Cor. 5", "Cora, Coauthor", ok if not (cor5 >= T).all() else "vacuous", "th-g5",
               "gu2013 Cor. 5 (mistake bound of OLLGC): holds on every run of chapter 05, below the T rounds "
               "(not vacuous) but loose; ours = the largest mistakes / bound", method="OLLGC",
               ours=float((num(ob["mistakes"]) / cor5).max()))  # fmt: skip
    lc = tables.read_table("06_sslgc_label_complexity")
    lc = lc[lc.graph.isin(["cora", "coauthor"])]
    at = lc[np.isclose(num(lc.kappa), 0.4)]
    holds = bool((num(lc.paper_holds) == 1).all())
    vac = bool((num(at.paper_bound) >= at.graph.map(sizes)).all())
    card.claim("gu2013", "Thm 7", "Cora, Coauthor", "vacuous" if holds and vac else holds, "th-g7",
               "gu2013 Thm 7 (label complexity of SSLGC): no run of chapter 06 queries more than the bound, but at "
               "the paper's kappa = 0.4 the bound exceeds the number of nodes on every run (vacuous); ours = the "
               "smallest bound / n at kappa = 0.4", method="SSLGC",
               ours=float((num(at.paper_bound) / at.graph.map(sizes)).min()))  # fmt: skip
    c1 = tables.read_table("08_cmog_theorem1")
    c1 = c1[num(c1.d) == 100]
    r1 = num(c1["mistakes"]) / num(c1["graph U=MLY: paper bound"])
    vac1 = bool((num(c1["graph U=MLY: paper bound"]) >= num(c1["T"])).all())
    card.claim("yang2016", "Thm 1", "Cora, Coauthor",
               "vacuous" if vac1 and (r1 <= 1).all() else bool((r1 <= 1).all()), "th-y1",
               "yang2016 Thm 1 (expected mistakes of CMOG, comparator U = MLY, d = 100): holds on the runs of "
               "chapter 08, below T; ours = the largest mistakes / bound", method="CMOG", ours=float(r1.max()))  # fmt: skip
    mt = tables.read_table("09_msg_theorems")
    for thm, key, method in (("Thm 3", "th-y3", "cons. sampler"), ("Thm 5", "th-y5", "MSG")):
        g = mt[mt.theorem.str.startswith(thm)]
        holds = bool((num(g["realized bound fails"]) == 0).all())
        ratio = num(g["bound (as printed)"]) / g.graph.map(sizes)
        card.claim("yang2016", thm, "Cora, Coauthor",
                   "vacuous" if holds and (ratio >= 1).all() else holds, key,
                   f"yang2016 {thm} (expected mistakes of the {method}; chapter 09): no run of chapter 09 exceeds it, but the "
                   "printed bound is above the number of nodes at every h tried (vacuous); ours = the smallest "
                   "bound / n", method=method, ours=float(ratio.min()))  # fmt: skip


def _non_decreasing(table, by, column) -> pd.Series:
    """Per dataset: True if ``column`` never falls as ``by`` grows (the query-ratio claims)."""
    ordered = table.sort_values(by).groupby("dataset")[column]
    return ordered.apply(lambda s: bool(np.all(np.diff(s) >= 0)))


def _gu2013(card, sc):
    tt = tables.read_table("20_gu2013_ttests")
    r = tt[(tt.dataset == "pubmed") & (tt["bias"].astype(str) == "True") & (tt["error definition"] == "binary")
           & (tt.a == "OLLGC") & (tt.b == "SSLGC")]  # fmt: skip
    if len(r):
        r = r.iloc[0]
        card.claim("gu2013", "Table 2", "PubMed", bool(r["mean diff (a-b)"] > 0 and str(r["significant (95%)"]) == "True"),
                   "g7", "gu2013 Table 2 / abstract: on PubMed SSLGC errs less than OLLGC (paired t-test, 95 %); "
                   "ours = OLLGC - SSLGC", method="SSLGC vs OLLGC", ours=float(r["mean diff (a-b)"]))  # fmt: skip
    q = tables.read_table("23_gu2013_fig3_query_ratio")
    for ds, ok in _non_decreasing(q, "kappa", "p = SSLGC ratio").items():
        card.claim("gu2013", "Sec. 6.6", NAMES.get(ds, ds), bool(ok), "g8",
                   "gu2013 Sec. 6.6: the smaller kappa, the fewer nodes SSLGC queries (query ratio non-decreasing in "
                   "kappa over 0.1 ... 1, notebook 23)", method="SSLGC")  # fmt: skip
    times = tables.read_table("20_gu2013_times").set_index(["dataset", "method"])
    err = sc[(sc.paper == "gu2013") & (sc.quantity == "error") & (sc.method == "OLLGC")].set_index("dataset")
    ops = {ds: sslgc_ollgc_operations(100, float(err.loc[ds, "ours"])) for ds in err.index if ds in
           times.index.get_level_values(0)}  # fmt: skip
    words = ", ".join(f"{ds} {v:.1f}x" for ds, v in ops.items())
    note = ("gu2013 Table 2 / Sec. 6.5: SSLGC costs less time than OLLGC. Tested within our code (our SSLGC "
            "against our OLLGC, timed alone: one implementation; the authors' Matlab times are not compared). "
            "With the O(d^2) Sherman-Morrison update our code uses, SSLGC's query test m^T A^-1 m (d^2 every "
            f"round) puts SSLGC at about {words} OLLGC's multiply-adds (a lower bound), which our times follow; "
            "Algs. 1-2 as written (w_t = A_t^-1 b_t) also allow a fresh O(d^3) inverse per update, which OLLGC "
            "pays on every mistake and SSLGC only on queried ones, so the claim may hold for the authors' code: "
            "a fail here is a fail of our implementation; ours = our SSLGC / OLLGC time")  # fmt: skip
    for ds in ops:
        ratio = (
            times.loc[(ds, "SSLGC"), "ours timed alone (s)"]
            / times.loc[(ds, "OLLGC"), "ours timed alone (s)"]
        )
        card.claim("gu2013", "Table 2 (time)", ds, bool(ratio < 1), "g-time", note, method="SSLGC/OLLGC",
                   ours=float(ratio), quantity="time")  # fmt: skip


def _yang2016(card):
    q = tables.read_table("32_yang2016_fig2_query_ratio")
    q = q[(q.method == "MSG") & (q.parameter == "h")]
    for ds, ok in _non_decreasing(q, "value", "query ratio").items():
        card.claim("yang2016", "Sec. V-C", NAMES.get(ds, ds), bool(ok), "y8",
                   "yang2016 Sec. V-C: the smaller h, the fewer labels MSG queries (query ratio non-decreasing in h "
                   "over the paper's grid, notebook 32)", method="MSG")  # fmt: skip


def _gaertner2005(card):
    sc43 = tables.read_table("43_gaertner2005_scaling")
    big = sc43[sc43.method == "transductive GP"]
    nodes = float(num(big.nodes).max())
    card.claim("gaertner2005", "Sec. 6 Epinions", "Epinions (SNAP)", bool(nodes >= 75_000), "ep1",
               "gaertner2005 Sec. 6: the transductive GP runs on the Epinions trust graph (75,888 people); ours = "
               "the largest graph it ran on in notebook 43 (the SNAP copy has 75,879 nodes)", method="transd. GP",
               ours=nodes)  # fmt: skip
    card.claim("gaertner2005", "Sec. 6 Epinions", "Epinions (labels)", None, "ep2",
               "gaertner2005 Sec. 6: 12 % of the 185 top reviewers predicted correctly. Not available: the SNAP "
               "copy of Epinions has the trust edges only, not the top-reviewer labels", method="transd. GP")  # fmt: skip


def _zhang2006(card):
    text = ("zhang2006 Sec. 3: the naive LOO gradient costs O(lu(mn + u^2)); with the matrix inversion lemma and "
            "pre-computation O(u^3 + lu^2) and O(n^2 m~). Not available: chapter 11 implements the reduced form "
            "and checks it against the naive one numerically, but times neither, so the orders are not measured")  # fmt: skip
    card.claim("zhang2006", "Sec. 3 (cost)", "LOO gradient", None, "z3", text, method="LOOHL")


def _herbster2006(card):
    worst, on = resistance_bound()
    card.claim("herbster2006", "K_pp (resistance)", on, bool(worst <= 1 + 1e-9), "h4",
               "slides: K_pp <= max_q r(p, q), r the effective resistance (K = L^+); ours = the largest "
               "K_pp / max_q r(p, q)", method="-", ours=worst)  # fmt: skip


def census(card, sc: pd.DataFrame) -> None:
    """Append the census rows to ``card`` (``sc``: the rows built so far, for the errors the counts use)."""
    sizes = _sizes()
    _herbster2006(card)
    _gu2013(card, sc)
    _theorems(card, sizes)
    _yang2016(card)
    _gaertner2005(card)
    _zhang2006(card)
