"""Readings at the published label budget."""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

import graphsel_lib as gs
from graphsel_lib import experiments as ex
from graphsel_lib.course.prose import Reading
from graphsel_lib.papers.common import (
    N_JOBS,
    STAND_IN,
    judge_at_budget,
)

from .paper_numbers import OURS_NAME, PAPER_NAME, PUBLISHED, TOL, published
from .protocols import KAPPA, features, make_ovr, protocol, tuned_mu
from .table_2 import Table2
from .texts import reading


def at_budget(
    profile: str = "full", seed: int = 0, verbose: bool = True, *, tuning_seed=None, only=None
) -> pd.DataFrame:
    """SSLGC at Table 2's published number of queried labels (notebook 20 Sec. 9).

    Table 2 fixes kappa = 0.4; here kappa is set on the held-out order by bisection so that SSLGC asks
    for the published mean per-learner label count (``ex.tune_to_budget`` on ``binary_n_queried``,
    within 2 %), with mu as tuned for Table 2, then run on the random orders. The headline reading
    throughout (bias, mean binary error). ``hit`` is False when no kappa in (0.001, 2) gets there.
    ``tuning_seed``: the seed of the held-out order kappa is set on (default ``seed``; mu stays as tuned
    for Table 2); ``only``: the (paper's data set name, "SSLGC") pairs to run (default all).
    """
    p = protocol(profile)
    rows = []
    tuning_seed = seed if tuning_seed is None else tuning_seed
    for name in [n for n in p.datasets if n != STAND_IN]:
        if only is not None and (PAPER_NAME[name], "SSLGC") not in only:
            continue
        g = gs.load_dataset(name)
        X = features(g, p.d)
        mu, _ = tuned_mu("SSLGC", X, g, p, seed)
        make = partial(make_ovr, "SSLGC", mu)
        pe, pq, _ = published(PAPER_NAME[name], "SSLGC")
        b = ex.tune_to_budget(make, "kappa", (1e-3, 2.0), X, g.labels, ex.tuning_order(g.n_nodes, tuning_seed),
                              pq, count="binary_n_queried", seed=seed)  # fmt: skip
        df = ex.evaluate(partial(make, kappa=b.value), X, g.labels, ex.random_orders(g.n_nodes, p.n_orders, seed),
                         seed=seed, method="SSLGC", n_jobs=N_JOBS)  # fmt: skip
        if verbose:
            print(f"{g.name}: kappa={b.value:.4g} asks {b.count:.1f} labels per learner on the held-out order "
                  f"(target {pq:g}, {b.steps} runs{'' if b.hit else ', not reached'})")  # fmt: skip
        rows.append({"dataset": PAPER_NAME[name], "method": "SSLGC", "mu": mu, "kappa": b.value,
                     "published #queried": pq, "held-out #queried": b.count, "hit": b.hit,
                     "#queried": df.binary_n_queried.mean(), "#queried std": df.binary_n_queried.std(),
                     "published": pe, "ours": df.binary_error_rate.mean(), "ours std": df.binary_error_rate.std(),
                     "orders": len(df)})  # fmt: skip
    return pd.DataFrame(rows)


def at_budget_verdicts(at: pd.DataFrame, res: Table2) -> pd.DataFrame:
    """:func:`at_budget`'s table with the scorecard's verdict and role of each run (notebook 20 Sec. 7)."""
    pub = PUBLISHED.set_index(["dataset", "method"])
    keys = list(zip(at.dataset, at.method, strict=True))
    own = [res.target(OURS_NAME[d], m).binary_n_queried_mean / pub.loc[(d, m), "queried"] for d, m in keys]
    return judge_at_budget(at, [TOL[OURS_NAME[d]] for d, _ in keys], [pub.loc[k, "error_std"] for k in keys],
                           own)  # fmt: skip


def reading_at_budget(at: pd.DataFrame, res: Table2) -> Reading:
    """Notebook 20 Sec. 7: SSLGC at the published budget (``at_budget_verdicts``' table) against Table 2's runs."""
    moved = at[at.role.str.startswith("headline")]
    stay = at[~at.role.str.startswith("headline")]
    gaps = (at.ours - at.published).abs()

    def moved_reading(r):
        head, tol = res.target(OURS_NAME[r.dataset], "SSLGC"), TOL[OURS_NAME[r.dataset]]
        extra = head.binary_n_queried_mean / r["published #queried"] - 1
        claims = dict(more=bool(extra > 0), within_tol=bool(abs(r.ours - r.published) <= tol),
                      close=r.verdict == "close")  # fmt: skip
        return reading("table2.at_budget.moved", claims, dataset=r.dataset, cost=r.ours - head.error_mean,
                       kappa=KAPPA, tuned_count=head.binary_n_queried_mean, tuned_error=head.error_mean,
                       extra=100 * abs(extra), verdict=r.verdict, tol=tol)  # fmt: skip

    claims = dict(several=len(at) > 1, all_reached=bool(at.hit.all()), some_moved=bool(len(moved)), some_stay=bool(len(stay)),
                  stay_reproduced=bool((stay.verdict == "reproduced").all()))  # fmt: skip
    return reading(
        "table2.at_budget",
        claims,
        bound=np.ceil(gaps.max() * 1000) / 1000,
        n=len(at),
        missed=at.dataset[~at.hit].tolist(),
        graphs=[
            reading("table2.at_budget.graph", ours=r.ours, dataset=r.dataset, published=r.published)
            for _, r in at.iterrows()
        ],  # fmt: skip
        kappas=at.kappa.tolist(),
        counts=at["#queried"].tolist(),
        published_counts=at["published #queried"].tolist(),
        moved=[moved_reading(r) for _, r in moved.iterrows()],
        stay=stay.dataset.tolist(),
        stay_verdicts=stay.verdict.tolist(),
    )
