"""Table 2's comparisons: each cell against the paper, the layout, the t-tests, mu sensitivity, query match
and label efficiency.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from graphsel_lib import experiments as ex
from graphsel_lib.collection import scorecard
from graphsel_lib.papers.common import (
    N_JOBS,
    N_PUBLISHED,
    STAND_IN,
)

from .paper_numbers import (
    CONFIGS,
    HEADLINE,
    MAX_EXCESS,
    MAX_RATIO,
    METHODS,
    OURS_NAME,
    PUBLISHED,
    TOL,
)
from .protocols import _reason_for, features, make_ovr

#: The note of every CiteSeer row (the scorecard's words for a stand-in).
STAND_IN_NOTE = scorecard.STAND_IN_WORDS + ": CiteSeer for IMDB (not available to us)"


IMDB_NOTE = "IMDB is not available to us (notebook 00)"


#: The note of a headline SSLGC run whose label count misses the published by more than 25 %.
OWN_COUNT_NOTE = (
    "diagnostic (error@tuned), outside the tally: the run at the label count its held-out tuning gave; "
    "the headline error is judged at the published budget (20_gu2013_at_budget)"
)


def _verdict(res, p, s, bias, definition):
    """The scorecard's verdict of our summary row ``s`` against the published row ``p`` (z with both spreads)."""
    name = OURS_NAME[p.dataset]
    ratio = s.binary_n_queried_mean / p.queried if p.method == "SSLGC" else None
    headline = (bias, definition) == (HEADLINE.bias, HEADLINE.definition)
    return scorecard.error_verdict(s.error_mean - p.error, TOL[name], s.error_std, res.protocol.n_orders,
                                   p.error_std, N_PUBLISHED, budget_ratio=ratio, headline=headline)  # fmt: skip


def _error_vs_published(res) -> pd.DataFrame:
    """Every configuration against every published error, with the scorecard's verdict."""
    rows = []
    for _, p in PUBLISHED.iterrows():
        name = OURS_NAME.get(p.dataset)
        for bias, definition in CONFIGS:
            row = {"dataset": p.dataset, "method": p.method, "bias": bias, "error definition": definition}
            row["published"] = p.error
            if name is None or name not in res.graphs:
                row["verdict"] = "not available" if p.dataset == "IMDB" else "not run in this profile"
                row["reason"] = IMDB_NOTE if p.dataset == "IMDB" else "-"
                rows.append(row)
                continue
            s = res.ours(name, bias, definition, p.method)
            diff = s.error_mean - p.error
            verdict = _verdict(res, p, s, bias, definition)
            reason = _reason_for(bias, definition, abs(diff) <= TOL[name])
            row.update(
                {
                    "mu": s.mu,
                    "ours": s.error_mean,
                    "ours std": s.error_std,
                    "difference": diff,
                    "tolerance": TOL[name],
                    "verdict": verdict,
                    "reason": OWN_COUNT_NOTE if verdict == "diagnostic" else reason,
                }
            )
            rows.append(row)
    if STAND_IN in res.graphs:
        for _, s in res.summary[res.summary.dataset == STAND_IN].iterrows():
            rows.append(
                {
                    "dataset": f"{STAND_IN} (IMDB stand-in)",
                    "method": s.method,
                    "bias": s.bias,
                    "error definition": s.definition,
                    "mu": s.mu,
                    "ours": s.error_mean,
                    "ours std": s.error_std,
                    "verdict": "stand-in",
                    "reason": STAND_IN_NOTE,
                }
            )
    return pd.DataFrame(rows)


def _table_layout(res) -> pd.DataFrame:
    """Table 2 in the paper's layout, headline configuration, with the scorecard's verdicts."""
    rows = []
    for _, p in PUBLISHED.iterrows():
        name = OURS_NAME.get(p.dataset)
        row = {
            "dataset": p.dataset,
            "method": p.method,
            "error (paper)": ex.mean_std(p.error, p.error_std),
            "#queried (paper)": f"{p.queried:.2f}"
            + ("" if np.isnan(p.queried_std) else f" ± {p.queried_std:.2f}"),
        }
        if name is None or name not in res.graphs:
            row["error verdict"] = "not available" if p.dataset == "IMDB" else "not run"
            row["note"] = IMDB_NOTE if p.dataset == "IMDB" else "-"
            rows.append(row)
            continue
        s = res.target(name, p.method)
        diff = s.error_mean - p.error
        q_rel = s.binary_n_queried_mean / p.queried - 1
        verdict = _verdict(res, p, s, HEADLINE.bias, HEADLINE.definition)
        row.update(
            {
                "mu": s.mu,
                "error (ours)": ex.mean_std(s.error_mean, s.error_std),
                "error diff": f"{diff:+.4f}",
                "error verdict": verdict,
                "#queried mean/learner (ours)": ex.mean_std(
                    s.binary_n_queried_mean, s.binary_n_queried_std, 1
                ),
                "#queried any learner (ours)": ex.mean_std(s.n_queried_mean, s.n_queried_std, 1),
                "#queried diff": "-" if p.method != "SSLGC" else f"{q_rel:+.1%}",
                "#queried verdict": (
                    "exact (queries every label)"
                    if p.method != "SSLGC"
                    else scorecard.verdict(q_rel * p.queried, scorecard.QUERY_BUDGET * p.queried)
                ),
                "note": OWN_COUNT_NOTE if verdict == "diagnostic" else "-",
            }
        )
        rows.append(row)
    if STAND_IN in res.graphs:
        for method in METHODS:
            s = res.target(STAND_IN, method)
            rows.append(
                {
                    "dataset": f"{STAND_IN} (IMDB stand-in)",
                    "method": method,
                    "mu": s.mu,
                    "error (ours)": ex.mean_std(s.error_mean, s.error_std),
                    "#queried mean/learner (ours)": ex.mean_std(
                        s.binary_n_queried_mean, s.binary_n_queried_std, 1
                    ),
                    "#queried any learner (ours)": ex.mean_std(s.n_queried_mean, s.n_queried_std, 1),
                    "error verdict": "stand-in",
                    "note": STAND_IN_NOTE,
                }
            )
    return pd.DataFrame(rows)


def _which_definition(res) -> pd.DataFrame:
    comparable = res.error_vs_published.dropna(subset=["difference"])
    return (
        comparable.assign(
            abs_diff=comparable.difference.abs(), within=comparable.difference.abs() <= comparable.tolerance
        )
        .groupby(["error definition", "bias"])
        .agg(
            mean_abs_diff=("abs_diff", "mean"),
            max_abs_diff=("abs_diff", "max"),
            cells=("abs_diff", "size"),
            within=("within", "sum"),
        )
        .reset_index()
        .sort_values("mean_abs_diff")
    )


def _ttests(runs) -> pd.DataFrame:
    tests = []
    for (name, bias, definition), df in runs.groupby(["dataset", "bias", "definition"], sort=False):
        for a, b in [("OLLGC", "SSLGC"), ("OLLGC", "GPA"), ("SSLGC", "GPA")]:
            r = ex.paired_ttest(df, a, b, metric="error")
            tests.append(
                {
                    "dataset": name,
                    "bias": bias,
                    "error definition": definition,
                    "a": a,
                    "b": b,
                    "mean diff (a-b)": r["mean_diff"],
                    "t": r["t"],
                    "p": r["p"],
                    "significant (95%)": r["significant"],
                }
            )
    return pd.DataFrame(tests)


def _mu_sensitivity(res) -> pd.DataFrame:
    """OLLGC and SSLGC at every mu of the grid on the evaluation orders (diagnostic; features with the bias)."""
    p, graphs = res.protocol, res.graphs
    runs = ex.sweep(
        make_ovr,
        {"method": ("OLLGC", "SSLGC"), "mu": p.mu_grid},
        {name: (features(g, p.d), g.labels) for name, g in graphs.items()},
        {name: ex.random_orders(g.n_nodes, p.n_orders, res.seed) for name, g in graphs.items()},
        seed=res.seed,
        n_jobs=N_JOBS,
    )
    sens = []
    for (name, method, mu), df in runs.groupby(["dataset", "method", "mu"], sort=False):
        sens.append(
            {
                "dataset": name,
                "method": method,
                "mu": mu,
                "binary error": df.binary_error_rate.mean(),
                "std": df.binary_error_rate.std(),
                "multiclass error": df.error_rate.mean(),
                "#queried mean/learner": df.binary_n_queried.mean(),
                "#queried any": df.n_queried.mean(),
                "query ratio (mean/learner)": df.binary_n_queried.mean() / graphs[name].n_nodes,
            }
        )
    return pd.DataFrame(sens)


def _query_match(res) -> pd.DataFrame:
    """DIAGNOSTIC: the mu whose SSLGC query count (on the evaluation orders) is closest to the published one."""
    closest = []
    for name, df in res.sslgc_sensitivity.dropna(subset=["paper #queried"]).groupby("dataset", sort=False):
        r = df.loc[(df["#queried mean/learner"] - df["paper #queried"]).abs().idxmin()]
        tuned = res.target(name, "SSLGC")
        closest.append(
            {
                "dataset": name,
                "tuned mu": tuned.mu,
                "tuned error": tuned.error_mean,
                "tuned #queried": tuned.binary_n_queried_mean,
                "mu matching the paper's #queried": r.mu,
                "its error": r["binary error"],
                "its #queried": r["#queried mean/learner"],
                "its #queried any": r["#queried any"],
                "paper error": r["paper error"],
                "paper #queried": r["paper #queried"],
            }
        )
    return pd.DataFrame(closest)


def _label_efficiency(res) -> pd.DataFrame:
    eff_rows, alt, sens = [], [], res.mu_sensitivity
    for name in res.graphs:
        o, s = res.target(name, "OLLGC"), res.target(name, "SSLGC")
        ratio = s.binary_n_queried_mean / res.graphs[name].n_nodes
        ratio_any = s.n_queried_mean / res.graphs[name].n_nodes
        eff_rows.append(
            {
                "dataset": name,
                "SSLGC mu (tuned)": s.mu,
                "query ratio (mean/learner)": ratio,
                "query ratio (any learner)": ratio_any,
                "SSLGC - OLLGC error": s.error_mean - o.error_mean,
                "meets it (tuned mu)": bool(ratio <= MAX_RATIO and s.error_mean - o.error_mean <= MAX_EXCESS),
            }
        )
    # DIAGNOSTIC, mu chosen on the evaluation orders: the lowest-error SSLGC of the sweep whose ratio is <= 0.8
    for name in res.graphs:
        o = res.target(name, "OLLGC")
        ok = sens[
            (sens.dataset == name)
            & (sens.method == "SSLGC")
            & (sens["query ratio (mean/learner)"] <= MAX_RATIO)
        ]
        r = ok.loc[ok["binary error"].idxmin()] if len(ok) else None
        alt.append(
            {
                "dataset": name,
                "diagnostic: best mu with ratio <= 0.8": np.nan if r is None else r.mu,
                "its ratio": np.nan if r is None else r["query ratio (mean/learner)"],
                "its error - OLLGC (tuned)": np.nan if r is None else r["binary error"] - o.error_mean,
                "meets it at that mu (diagnostic)": False
                if r is None
                else bool(r["binary error"] - o.error_mean <= MAX_EXCESS),
            }
        )
    return pd.DataFrame(eff_rows).merge(pd.DataFrame(alt), on="dataset")
