"""Table I's comparisons: each cell against the paper, the t-tests, the stand-in notes, the layout."""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

import graphsel_lib as gs
from graphsel_lib import experiments as ex
from graphsel_lib.collection import scorecard
from graphsel_lib.online import GPA, OneVsRest
from graphsel_lib.papers.common import (
    N_JOBS,
    N_PUBLISHED,
    STAND_IN,
)

from .paper_numbers import PAPER_NAME, PUBLISHED, TOL, TOL_OTHER
from .protocols import methods, paper_method


def _pub_error() -> pd.Series:
    return PUBLISHED.set_index(["dataset", "method"]).error


def _reason_for(method, variant, bias, diff, tol):
    if abs(diff) <= tol:
        return "within tolerance"
    if method == "GPA":
        return "published GPA far worse than our one-vs-rest perceptron; Sec. 7 sets it beside trivial predictors"
    if method == "CMOG" and variant != "CMOG every round":
        return "published CMOG equals DGS / every-round RLS, not Alg. 1 as written (Sec. 6)"
    side = "lower (better)" if diff < 0 else "higher (worse)"
    other = "with" if not bias else "without"
    return f"ours {side} than published; see the row {other} the bias and Sec. 10"


#: The selective samplers of Table I (DGS, as GPA and CMOG, asks for every label there).
SELECTIVE = ("BBQ", "BBQ_eps", "MSG")


#: The note of every CiteSeer row (the scorecard's words for a stand-in).
STAND_IN_NOTE = scorecard.STAND_IN_WORDS + ": CiteSeer for IMDB (not available to us)"


IMDB_NOTE = "IMDB is not available to us (notebook 00)"


#: The note of a headline sampler run whose label count misses the published by more than 25 %.
OWN_COUNT_NOTE = (
    "diagnostic (error@tuned), outside the tally: the run at the label count its held-out tuning gave; "
    "the headline error is judged at the published budget (32_yang2016_at_budget)"
)


GPA_NOT_REPRODUCIBLE = (
    "no GPA reading of Sec. 7 (bias or not, b = 1e4, d = 10) comes within the tolerance; the published error "
    "lies near the majority-class error (the scorecard also tries the multiclass perceptron)"
)


def _gpa_unreached(res, name: str, published: float, tol: float) -> bool:
    """``True`` when no GPA reading of :func:`_gpa` (Sec. 7) comes within ``tol`` of the published error."""
    row = res.gpa.set_index("dataset").loc[name]
    tried = row[[c for c in row.index if c.startswith("ours GPA")]].astype(float)
    return bool((tried - published).abs().min() > tol)


def _error_vs_published(res) -> pd.DataFrame:
    """Every method, feature setting and CMOG rule against the published error, with the scorecard's verdict."""
    reverse = {v: k for k, v in PAPER_NAME.items() if k != STAND_IN}
    meths = methods(res.protocol, variants=True)
    rows = []
    for _, pr in PUBLISHED.iterrows():
        name = reverse.get(pr.dataset)
        variants = [m for m in meths if paper_method(m) == pr.method]
        for bias in (True, False):
            for variant in variants:
                row = {
                    "dataset": pr.dataset,
                    "method": pr.method,
                    "variant": variant,
                    "bias": bias,
                    "headline": bool(bias == res.headline_bias and variant == pr.method),
                    "published #queried": pr.queried,
                    "published pm (variance)": pr.error_pm,
                    "published": pr.error,
                }
                if name is None or name not in res.graphs:
                    row["verdict"] = "not available" if pr.dataset == "IMDB" else "not run in this profile"
                    row["reason"] = IMDB_NOTE if pr.dataset == "IMDB" else "-"
                    rows.append(row)
                    continue
                s = res.ours(name, bias, variant)
                tol = TOL.get(pr.method, TOL_OTHER)
                diff = s.error_rate_mean - pr.error
                not_rep = pr.method == "GPA" and _gpa_unreached(res, name, pr.error, tol)
                verdict = scorecard.error_verdict(
                    diff, tol, s.error_rate_std, res.protocol.n_orders, np.sqrt(pr.error_pm), N_PUBLISHED,
                    budget_ratio=s.n_queried_mean / pr.queried if pr.method in SELECTIVE else None,
                    headline=row["headline"], not_reproducible=not_rep,
                )  # fmt: skip
                reason = _reason_for(pr.method, variant, bias, diff, tol)
                if verdict == "diagnostic":
                    reason = OWN_COUNT_NOTE
                elif verdict == "not reproducible":
                    reason = GPA_NOT_REPRODUCIBLE
                row.update(
                    {
                        "tuned": s.tuned,
                        "ours #queried": s.n_queried_mean,
                        "ours": s.error_rate_mean,
                        "ours std": s.error_rate_std,
                        "difference": diff,
                        "tolerance": tol,
                        "verdict": verdict,
                        "reason": reason,
                    }
                )
                rows.append(row)
    if STAND_IN in res.graphs:
        for _, s in res.summary[res.summary.dataset == STAND_IN].iterrows():
            rows.append(
                {
                    "dataset": f"{STAND_IN} (IMDB stand-in)",
                    "method": paper_method(s.method),
                    "variant": s.method,
                    "bias": s.bias,
                    "headline": bool(s.bias == res.headline_bias and s.method == paper_method(s.method)),
                    "tuned": s.tuned,
                    "ours #queried": s.n_queried_mean,
                    "ours": s.error_rate_mean,
                    "ours std": s.error_rate_std,
                    "verdict": "stand-in",
                    "reason": STAND_IN_NOTE,
                }
            )
    cols = [
        "dataset", "method", "variant", "bias", "headline", "tuned", "published #queried", "ours #queried",
        "published pm (variance)", "published", "ours", "ours std", "difference", "tolerance", "verdict", "reason",
    ]  # fmt: skip
    return pd.DataFrame(rows)[cols]


def _table_layout(res) -> pd.DataFrame:
    """Table I in the paper's layout, headline setting, CiteSeer appended."""
    reverse = {v: k for k, v in PAPER_NAME.items() if k != STAND_IN}
    hb, t1 = res.headline_bias, []
    for _, pr in PUBLISHED.iterrows():
        name = reverse.get(pr.dataset)
        r = {
            "dataset": pr.dataset,
            "method": pr.method,
            "published error": f"{pr.error:.4f} ± {pr.error_pm:.2g}",
            "sqrt(published ±)": pr["sqrt(error_pm)"],
            "published #queried": f"{pr.queried:g}"
            + ("" if np.isnan(pr.queried_pm) else f" ± {pr.queried_pm:g}"),
        }
        if name in res.graphs:
            s = res.ours(name, hb, pr.method)
            r.update(
                {
                    "ours error": ex.mean_std(s.error_rate_mean, s.error_rate_std),
                    "ours std": s.error_rate_std,
                    "ours #queried": f"{s.n_queried_mean:.1f} ± {s.n_queried_std:.1f}",
                    "tuned": s.tuned,
                }
            )
        t1.append(r)
    t1 = pd.DataFrame(t1)
    if STAND_IN in res.graphs:
        extra = []
        for m in ["GPA", "BBQ", "BBQ_eps", "DGS", "CMOG", "MSG"]:
            s = res.ours(STAND_IN, hb, m)
            extra.append(
                {
                    "dataset": f"{STAND_IN} (IMDB stand-in)",
                    "method": m,
                    "ours error": ex.mean_std(s.error_rate_mean, s.error_rate_std),
                    "ours std": s.error_rate_std,
                    "ours #queried": f"{s.n_queried_mean:.1f}",
                    "tuned": s.tuned,
                }
            )
        t1 = pd.concat([t1, pd.DataFrame(extra)], ignore_index=True)
    return t1


def _ttests(res) -> pd.DataFrame:
    """Sec. 5: paired t-tests (95 %) of MSG against each other method over the same orders."""
    tt, runs = [], res.runs
    for name in res.graphs:
        for bias in (res.headline_bias, not res.headline_bias):
            df = runs[(runs.dataset == name) & (runs.bias == bias)]
            for other in ["CMOG", "CMOG onehot", "CMOG every round", "DGS", "BBQ_eps", "BBQ", "GPA"]:
                r = ex.paired_ttest(df, "MSG", other)
                tt.append(
                    {
                        "dataset": name,
                        "bias": bias,
                        "MSG vs": other,
                        "mean diff": r["mean_diff"],
                        "t": r["t"],
                        "p": r["p"],
                        "significant (95 %)": r["significant"],
                        "MSG better": r["significant"] and r["mean_diff"] < 0,
                    }
                )
    return pd.DataFrame(tt)


def _cmog_dgs(res) -> pd.DataFrame:
    """Sec. 6: published CMOG - DGS beside ours for Alg. 1 (both targets), the every-round RLS and DGS."""
    reverse = {v: k for k, v in PAPER_NAME.items() if k != STAND_IN}
    pub, runs, cd = _pub_error(), res.runs, []
    for p_name in ["Coauthor", "Cora", "IMDB", "PubMed"]:
        r = {
            "dataset": p_name,
            "published CMOG": pub[(p_name, "CMOG")],
            "published DGS": pub[(p_name, "DGS")],
            "published CMOG - DGS": pub[(p_name, "CMOG")] - pub[(p_name, "DGS")],
        }
        name = reverse.get(p_name)
        if name in res.graphs:
            for bias in (res.headline_bias, not res.headline_bias):
                tag = "bias" if bias else "no bias"
                dgs = res.ours(name, bias, "DGS").error_rate_mean
                for m in ["CMOG", "CMOG onehot", "CMOG every round"]:
                    r[f"{m} - DGS ({tag})"] = res.ours(name, bias, m).error_rate_mean - dgs
                sub = runs[(runs.dataset == name) & (runs.bias == bias)]
                e_rls = sub[sub.method == "CMOG every round"].sort_values("order").error_rate.to_numpy()
                e_eps = sub[sub.method == "BBQ_eps"].sort_values("order").error_rate.to_numpy()
                q_eps = sub[sub.method == "BBQ_eps"].n_queried.to_numpy()
                if (q_eps == res.graphs[name].n_nodes).all():  # BBQ_eps queried everything: every-round RLS
                    assert np.array_equal(e_rls, e_eps)
                r[f"every-round = BBQ_eps per order ({tag})"] = bool(np.array_equal(e_rls, e_eps))
        cd.append(r)
    return pd.DataFrame(cd)


def _gpa(res) -> pd.DataFrame:
    """Sec. 7: GPA against majority-class and uniform-guess errors, and the readings tried (b = 1e4, d = 10)."""
    p, seed, pub, gp = res.protocol, res.seed, _pub_error(), []
    for name, g in res.graphs.items():
        shares = np.bincount(g.labels) / g.n_nodes
        M = gs.spectral_embedding(g.adjacency, p.d).M
        orders = ex.random_orders(g.n_nodes, p.n_orders, seed)
        r = {
            "dataset": name,
            "K": g.n_classes,
            "majority-class error": 1 - shares.max(),
            "uniform-guess error": 1 - 1 / g.n_classes,
            "published GPA": pub.get((PAPER_NAME[name], "GPA"), np.nan) if name != STAND_IN else np.nan,
            "ours GPA (no bias)": res.ours(name, False, "GPA").error_rate_mean,
            "ours GPA (bias b=1)": res.ours(name, True, "GPA").error_rate_mean,
        }
        make = partial(OneVsRest, GPA)
        r["ours GPA (b=1e4)"] = ex.evaluate(
            make, gs.add_bias(M, 1e4), g.labels, orders, seed=seed, n_jobs=N_JOBS
        ).error_rate.mean()
        d_small = min(10, p.d)
        M_small = gs.spectral_embedding(g.adjacency, d_small).M
        r[f"ours GPA (d={d_small}, no bias)"] = ex.evaluate(
            make, M_small, g.labels, orders, seed=seed, n_jobs=N_JOBS
        ).error_rate.mean()
        gp.append(r)
    return pd.DataFrame(gp)


def _spec_check(res) -> pd.DataFrame:
    """Sec. 8: our criteria for MSG (within 0.02; at most 50 % queried at no worse than CMOG + 0.01)."""
    pub, sc, hb = _pub_error(), [], res.headline_bias
    for name in [n for n in res.graphs if n != STAND_IN]:
        n_nodes = res.graphs[name].n_nodes
        for bias in (hb, not hb):
            m, c = res.ours(name, bias, "MSG"), res.ours(name, bias, "CMOG")
            rls = res.ours(name, bias, "CMOG every round")
            sc.append(
                {
                    "dataset": name,
                    "bias": bias,
                    "MSG h": m.tuned,
                    "MSG error": m.error_rate_mean,
                    "published MSG": pub[(PAPER_NAME[name], "MSG")],
                    "within 0.02": abs(m.error_rate_mean - pub[(PAPER_NAME[name], "MSG")]) <= 0.02,
                    "query ratio": m.n_queried_mean / n_nodes,
                    "MSG - CMOG": m.error_rate_mean - c.error_rate_mean,
                    "MSG - every-round RLS": m.error_rate_mean - rls.error_rate_mean,
                    "meets (<=50 %, <= CMOG+0.01)": bool(
                        m.n_queried_mean <= 0.5 * n_nodes and m.error_rate_mean <= c.error_rate_mean + 0.01
                    ),
                }
            )
    return pd.DataFrame(sc)
