"""Fig. 1 of yang2016: the cumulative error along the stream."""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd

import graphsel_lib as gs
from graphsel_lib import experiments as ex
from graphsel_lib.collection import plotting
from graphsel_lib.course.prose import Reading
from graphsel_lib.papers.common import (
    N_JOBS,
    STAND_IN,
    Result,
    table_field,
)

from .paper_numbers import LABEL, SHOWN
from .protocols import Protocol, _setting, features, methods, protocol, tuned_params
from .texts import reading


@dataclass
class Fig1(Result):
    """yang2016 Fig. 1 reproduced: per dataset and method the cumulative mistakes and queries per order."""

    protocol: Protocol
    curves: dict  #: (dataset, method) -> (cumulative mistakes, cumulative queries), each (orders, T)
    tuned: pd.DataFrame  #: dataset, method, tuned
    #: at the fractions 0.1, 0.25, 0.5, 1 of the stream
    checkpoints: pd.DataFrame = table_field(float_format="%.4f")
    #: MSG's queries per round in each quarter of the stream
    msg_query_rate: pd.DataFrame = table_field(float_format="%.4f")
    PREFIX = "31_yang2016_fig1_"

    @property
    def msg_rate_falls(self) -> bool:
        """MSG's query rate is lower in the last quarter of the stream than in the first, on every graph."""
        r = self.msg_query_rate
        return bool((r["quarter 4"] < r["quarter 1"]).all())

    def reading(self) -> Reading:
        """The reading under Fig. 1: who queries everything, MSG's falling rate, the order of the curves."""
        datasets, meths, table, rates = (
            self.protocol.datasets,
            list(methods(self.protocol)),
            self.checkpoints,
            self.msg_query_rate,
        )
        fin = table[table["fraction of stream"] == 1.0].set_index(["dataset", "method"])
        n_of = {name: self.curves[(name, "GPA")][0].shape[1] for name in datasets}
        ratio_end = {
            (n, m): fin.loc[(n, m), "cumulative #queried"] / n_of[n] for n in datasets for m in meths
        }
        all_label = [m for m in meths if all(ratio_end[(n, m)] == 1 for n in datasets)]
        order_kept, msg_lowest = [], []
        for name in datasets:
            cp = table[table.dataset == name].pivot(
                index="fraction of stream", columns="method", values="cumulative error"
            )
            # GPA highest and CMOG second at every checkpoint
            if ((cp.idxmax(axis=1) == "GPA") & (cp.rank(axis=1, ascending=False)["CMOG"] == 2)).all():
                order_kept.append(SHOWN[name])
            if cp.loc[1.0].idxmin() == "MSG":
                msg_lowest.append(SHOWN[name])
        rls = ["BBQ", "BBQ_eps", "DGS"]

        def fe(n, m):
            return fin.loc[(n, m), "cumulative error"]

        def ends(m):
            return [reading("fig1.end", dataset=SHOWN[n], ratio=ratio_end[(n, m)]) for n in datasets]

        claims = dict(
            msg_rate_falls=self.msg_rate_falls,
            order_kept_somewhere=bool(order_kept),
            msg_lowest_somewhere=bool(msg_lowest),
        )
        return reading(
            "fig1",
            claims,
            all_label=[LABEL.get(m, m) for m in all_label],
            bbq_end=ends("BBQ"),
            bbq_eps_end=ends("BBQ_eps"),
            rates=[
                reading("fig1.rate", dataset=SHOWN[r.dataset], first=r["quarter 1"], last=r["quarter 4"])
                for _, r in rates.iterrows()
            ],
            order_kept=order_kept,
            msg_lowest=msg_lowest,
            final=[
                reading(
                    "fig1.final",
                    dataset=SHOWN[n],
                    msg=fe(n, "MSG"),
                    rls_lo=min(fe(n, m) for m in rls),
                    rls_hi=max(fe(n, m) for m in rls),
                )
                for n in datasets
            ],
        )


def fig1(profile: str = "full", seed: int = 0, verbose: bool = True) -> Fig1:
    """yang2016 Fig. 1 (Sec. V-B): cumulative error and #queried along the rounds, headline setting, tuned.

    The curves are the per-round arrays of Table I's passes (:func:`~graphsel_lib.experiments.evaluate_curves`: read from
    the results cache where notebook 30 kept them, else run once); the last point of each curve is Table I's
    number for that order (asserted).
    """
    p = protocol(profile)
    curves, params_used = {}, []
    t_runs = time.perf_counter()
    for name in p.datasets:
        g = gs.load_dataset(name)
        X = features(g, p.d)
        orders = ex.random_orders(g.n_nodes, p.n_orders, seed)
        for method, (make, _) in methods(p).items():
            prm = tuned_params(method, X, g, p, seed, verbose)
            mk = partial(make, **prm)
            # Table I's passes (notebook 30 keeps their per-round arrays in the results cache)
            ref, per_round = ex.evaluate_curves(
                mk, X, g.labels, orders, seed=seed, method=method, n_jobs=N_JOBS
            )
            cm = np.cumsum(per_round["mistakes"], axis=1, dtype=np.int32)  # (orders, T) cumulative mistakes
            cq = np.cumsum(per_round["queried"], axis=1, dtype=np.int32)  # (orders, T) cumulative queries
            assert np.allclose(cm[:, -1] / g.n_nodes, ref.error_rate.to_numpy())
            assert np.array_equal(cq[:, -1], ref.n_queried.to_numpy())
            curves[(name, method)] = (cm, cq)
            params_used.append({"dataset": name, "method": method, "tuned": _setting(prm)})
        if verbose:
            print(f"{name:>9s}: done at {time.perf_counter() - t_runs:.1f} s")
    res = Fig1(p, curves, pd.DataFrame(params_used))
    res.checkpoints, res.msg_query_rate = _fig1_tables(curves)
    return res


def _fig1_tables(curves):
    rows, rates = [], []
    for (name, method), (cm, cq) in curves.items():
        T = cm.shape[1]
        for frac in (0.1, 0.25, 0.5, 1.0):
            k = max(1, int(round(frac * T))) - 1
            rows.append(
                {
                    "dataset": name,
                    "method": method,
                    "fraction of stream": frac,
                    "round": k + 1,
                    "cumulative error": float((cm[:, k] / (k + 1)).mean()),
                    "std": float((cm[:, k] / (k + 1)).std(ddof=1)) if len(cm) > 1 else np.nan,
                    "cumulative #queried": float(cq[:, k].mean()),
                }
            )
        if method == "MSG":
            q = cq.mean(0)
            edges = [0] + [int(round(f * T)) for f in (0.25, 0.5, 0.75, 1.0)]
            r = {"dataset": name}
            for i in range(4):
                before = q[edges[i] - 1] if edges[i] else 0
                r[f"quarter {i + 1}"] = (q[edges[i + 1] - 1] - before) / (edges[i + 1] - edges[i])
            rates.append(r)
    return pd.DataFrame(rows), pd.DataFrame(rates)


def draw_fig1(res: Fig1):
    """Fig. 1: cumulative error rate (band ± one std) and cumulative query ratio #queried(t)/t per round."""
    datasets, meths = res.protocol.datasets, list(methods(res.protocol))
    fig, axes = plotting.subplots(2, len(datasets), size=(7.0, 5.4), squeeze=False)
    for j, name in enumerate(datasets):
        for k, method in enumerate(meths):
            cm, cq = res.curves[(name, method)]
            T = cm.shape[1]
            t = np.arange(1, T + 1)
            err = cm / t
            st = plotting.algorithm_style(method)
            sl = slice(min(20, T - 1), T, max(1, T // 400))
            npts = len(t[sl])
            every = (
                k * max(1, npts // 36),
                max(1, npts // 6),
            )  # staggered markers: overlapping lines stay visible
            mean, sd = err.mean(0)[sl], err.std(0)[sl]
            axes[0, j].plot(t[sl], mean, **st, markevery=every, ms=3.5, label=LABEL.get(method, method))
            axes[0, j].fill_between(t[sl], mean - sd, mean + sd, color=st["color"], alpha=0.15, lw=0)
            axes[1, j].plot(t[sl], cq.mean(0)[sl] / t[sl], **st, markevery=every, ms=3.5)
        axes[0, j].set_title(SHOWN[name] + ("\n(IMDB stand-in)" if name == STAND_IN else ""))
        axes[0, j].set_ylim(0, 0.8)
        axes[1, j].set_ylim(0, 1.05)
        for ax in axes[:, j]:
            ax.set_xlabel("round t")
    axes[0, 0].set_ylabel("cumulative error rate")
    axes[1, 0].set_ylabel("#queried(t) / t")
    fig.legend(*axes[0, 0].get_legend_handles_labels(), loc="outside lower center", ncol=len(meths))
    return fig
