"""How much an error judged at the published label budget depends on the held-out order it was tuned on.

The headline rows of the selective samplers judged at the published budget (notebooks 20 and 32) set
the query parameter on one held-out order (``experiments.tuning_order(n, 0)``). Here the same bisection
runs on further held-out orders (seeds 1, 2, ...), each followed by the same evaluation orders; the
table gives, per sampler, the error and label count under every tuning order and the verdict each
would get by the scorecard's rules.
"""

from __future__ import annotations

import math

import pandas as pd

from ..collection import scorecard, tables
from . import gu2013, yang2016
from .scorecard_rows import AT_BUDGET, tolerance
from .scorecard_texts import reading as _text

__all__ = ["TABLE", "spread", "summary"]

#: The table notebook 90 writes.
TABLE = "90_at_budget_tuning_orders"
_RUNNERS = {"gu2013": gu2013.at_budget, "yang2016": yang2016.at_budget}
COLUMNS = ["paper", "dataset", "method", "tuning", "published", "ours", "ours_std", "queried", "published_queried",
           "delta", "z", "verdict"]  # fmt: skip


def spread(sc, profile, n_tuning, seed=0, verbose=False) -> pd.DataFrame:
    """One row per (paper, data set, method, tuning seed) for the scorecard's at-budget headline rows.

    Tuning seed 0 is read from the committed at-budget table (the headline); seeds 1 .. n_tuning-1 are
    run. Each run's verdict uses the scorecard's rules with the headline row's published spread (its part
    of the variance behind the headline z).
    """
    head = sc[(sc.quantity == "error") & sc.note.isin(["at-budget", "budget-near"])]
    rows = []
    for paper, g in head.groupby("paper", sort=False):
        only = set(zip(g.dataset, g.method, strict=True))
        first = tables.read_table(AT_BUDGET[paper][1])
        keep = [(d, m) in only for d, m in zip(first.dataset, first.method, strict=True)]
        runs = [first[keep].assign(tuning=0)]
        for s in range(1, n_tuning):
            runs.append(_RUNNERS[paper](profile, seed, verbose, tuning_seed=s, only=only).assign(tuning=s))
        for r in pd.concat(runs).to_dict("records"):
            h = head[
                (head.paper == paper) & (head.dataset == r["dataset"]) & (head.method == r["method"])
            ].iloc[0]
            pub_var = (h.delta / h.z) ** 2 - h.ours_std**2 / h.n_runs if math.isfinite(h.z) and h.z else 0.0
            delta, std, n = float(r["ours"]) - float(r["published"]), float(r["ours std"]), int(r["orders"])
            z = delta / math.sqrt(std**2 / n + max(pub_var, 0.0))
            ratio = float(r["#queried"]) / float(r["published #queried"])
            verdict = scorecard.verdict(delta, tolerance(paper, h.dataset, h.method), z=z, budget_ratio=ratio)
            rows.append(dict(paper=paper, dataset=r["dataset"], method=r["method"], tuning=int(r["tuning"]),
                             published=float(r["published"]), ours=float(r["ours"]), ours_std=std,
                             queried=float(r["#queried"]), published_queried=float(r["published #queried"]),
                             delta=delta, z=z, verdict=verdict))  # fmt: skip
    return pd.DataFrame(rows, columns=COLUMNS)


def summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per sampler: the error's mean, min and max over the tuning orders and the verdicts they give."""
    g = table.groupby(["paper", "dataset", "method"], sort=False)
    out = g.agg(tuning_orders=("tuning", "size"), error_mean=("ours", "mean"), error_min=("ours", "min"),
                error_max=("ours", "max"), queried_min=("queried", "min"), queried_max=("queried", "max"))  # fmt: skip
    out["verdicts"] = g.verdict.agg(lambda v: ", ".join(f"{n} {k}" for k, n in v.value_counts().items()))
    return out.reset_index()


def sentence(summ: pd.DataFrame, paper: str) -> str:
    """The spread over tuning orders of ``paper``'s at-budget rows, in words ('' when it has none; template
    ``budget.spread`` of :mod:`.scorecard_texts`)."""
    s = summ[summ.paper == paper]
    if not len(s):
        return ""
    rows = [_text("budget.spread.row", method=r.method, dataset=r.dataset, lo=r.error_min, hi=r.error_max,
                  verdicts=r.verdicts) for r in s.itertuples()]  # fmt: skip
    return _text("budget.spread", n=int(s.tuning_orders.max()), table=TABLE, rows=rows).render()
