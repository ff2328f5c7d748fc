"""Fig. 2 of gu2013: the cumulative error along the stream."""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd

import graphsel_lib as gs
from graphsel_lib import experiments as ex
from graphsel_lib.collection import plotting
from graphsel_lib.course.prose import Reading, Span
from graphsel_lib.papers.common import (
    N_JOBS,
    STAND_IN,
    Result,
    _published_markers,
    table_field,
)

from .paper_numbers import FIG2_ERROR_AXES, METHODS, PAPER_NAME, TOL, published
from .protocols import Protocol, features, make_ovr, protocol, tuned_mu
from .texts import reading

#: The datasets of Fig. 2 in the paper's order of Table 2's end points: (paper's name, ours).
_FIG2_PAPER = (("PubMed", "pubmed"), ("IMDB", STAND_IN))


#: Each curve of :func:`_curves` and the metric of ``ex.evaluate`` its last point equals.
_ENDS = {
    "binary error": "binary_error_rate",
    "multiclass error": "error_rate",
    "queried (mean/learner)": "binary_n_queried",
    "queried (any learner)": "n_queried",
}


def _curves(per_round, rows, K):
    """The mean cumulative curves of the passes (Fig. 2): binary and multiclass error, both query counts, time.

    ``per_round``: the arrays of ``ex.evaluate_curves``, one row per order; ``rows`` its frame.
    """
    rounds = np.arange(1, per_round["mistakes"].shape[1] + 1)
    curves = {
        "binary error": np.cumsum(per_round["binary_mistakes"] / K, axis=1) / rounds,
        "multiclass error": np.cumsum(per_round["mistakes"], axis=1) / rounds,
        "queried (mean/learner)": np.cumsum(per_round["binary_queried"], axis=1) / K,
        "queried (any learner)": np.cumsum(per_round["queried"], axis=1),
        "time": per_round["elapsed"],
    }
    for key, last in _ENDS.items():  # the curves end at the rows of the same passes
        assert np.allclose(curves[key][:, -1], rows[last]), key
    return {k: np.mean(v, axis=0) for k, v in curves.items()}


def _first_round_below_for_good(a, b):
    """First round from which curve a stays strictly below curve b (None if it is not below at the end)."""
    not_below = np.flatnonzero(a >= b)
    if len(not_below) and not_below[-1] == len(a) - 1:
        return None
    return 1 if not len(not_below) else int(not_below[-1]) + 2


@dataclass
class Fig2(Result):
    """gu2013 Fig. 2 reproduced (Sec. 6.5): cumulative curves averaged over the orders, see :func:`fig2`."""

    protocol: Protocol
    graphs: dict
    curves: dict  #: (dataset, method) -> curve name -> mean over the orders, one value per round
    mus: dict  #: (dataset, method) -> tuned mu
    finals: pd.DataFrame  #: the end points of the curves
    #: the end points against Table 2
    endpoints: pd.DataFrame = table_field(float_format="%.4f", na_rep="-")
    checkpoints: pd.DataFrame = table_field(
        "cumulative", float_format="%.5g"
    )  #: the curves at ten checkpoints
    FROM = 0.05  #: the error axes show every curve from 5 % of the rounds on
    PREFIX = "22_gu2013_fig2_"

    @property
    def error_axes(self) -> dict:
        """Per dataset: the error axis that holds every curve from round ``FROM * T`` on, and the peak cut off."""
        out = {}
        for name in self.graphs:
            c = {m: self.curves[name, m]["binary error"] for m in METHODS}
            t0 = max(int(self.FROM * len(c[METHODS[0]])), 1)
            lo = min(c[m][t0 - 1 :].min() for m in METHODS)
            hi = max(c[m][t0 - 1 :].max() for m in METHODS)
            pad = 0.06 * (hi - lo)
            peak = max(c[m].max() for m in METHODS)
            out[name] = {"from round": t0, "axis low": lo - pad, "axis high": hi + pad, "peak before": peak}
        return out

    def reading_endpoints(self) -> Reading:
        """Table 2's PubMed end points against the curves' ends, and SSLGC's end count of queries."""
        ep = (
            self.endpoints.dropna(subset=["difference"])
            if "difference" in self.endpoints
            else self.endpoints.iloc[:0]
        )
        if not len(ep):
            return reading("fig2.endpoints", dict(pubmed_run=False))
        s, tol = ep[ep.method == "SSLGC"].iloc[0], TOL["pubmed"]
        q_ours, q_paper = s["#queried (ours, mean/learner)"], s["#queried (paper)"]
        return reading(
            "fig2.endpoints",
            dict(pubmed_run=True),
            diffs=[
                reading("fig2.endpoints.diff", method=r.method, difference=r.difference)
                for r in ep.itertuples()
            ],
            n_within=int((ep.difference.abs() <= tol).sum()),
            n=len(ep),
            tol=tol,
            q_ours=q_ours,
            q_paper=q_paper,
            q_rel=q_ours / q_paper - 1,
        )

    def reading_axes(self) -> Reading:
        """The error axes of the figure (every curve from ``FROM`` of the rounds on) and the paper's."""
        return reading(
            "fig2.axes",
            axes=[
                reading(
                    "fig2.axes.ours",
                    dataset=n,
                    lo=a["axis low"],
                    hi=a["axis high"],
                    from_round=a["from round"],
                    share=self.FROM,
                    peak=a["peak before"],
                )
                for n, a in self.error_axes.items()
            ],  # fmt: skip
            paper_axes=[
                reading("fig2.axes.paper", name=k, lo=lo, hi=hi) for k, (lo, hi) in FIG2_ERROR_AXES.items()
            ],
        )

    def _graph_reading(self, name) -> Reading:
        """One graph's curves: how far the error falls, who stays below GPA, SSLGC's query rate."""
        c = {m: self.curves[name, m] for m in METHODS}
        T = len(c["GPA"]["time"])
        tenth = T // 10
        e = {m: c[m]["binary error"] for m in METHODS}
        fall = [e[m][tenth - 1] - e[m][-1] for m in METHODS]
        q = c["SSLGC"]["queried (mean/learner)"]
        s_vs_o = e["SSLGC"][-1] - e["OLLGC"][-1]
        below = []
        for m in ("OLLGC", "SSLGC"):
            r, diff = _first_round_below_for_good(e[m], e["GPA"]), e[m][-1] - e["GPA"][-1]
            claims = dict(
                stays_below=r is not None, visible=r is not None and r / T >= 0.01, level=abs(diff) < 5e-4
            )
            below.append(
                reading("fig2.graph.below", claims, method=m, round=r, share=(r or 0) / T, diff=diff)
            )
        return reading(
            "fig2.graph",
            dict(sslgc_below=bool(s_vs_o < 0)),
            dataset=name,
            fall=Span(min(fall), max(fall)),
            tenth=tenth,
            below=below,
            q_first=q[tenth - 1] / tenth,
            q_last=(q[-1] - q[-tenth - 1]) / tenth,
            gap=abs(s_vs_o),
        )

    def reading(self) -> Reading:
        """The reading of the curves: the error falls, who stays below GPA, SSLGC's query rate, the times."""
        names = list(self.graphs)
        halves = [
            self.curves[n, m]["time"][len(self.curves[n, m]["time"]) // 2 - 1] / self.curves[n, m]["time"][-1]
            for n in names
            for m in METHODS
        ]
        time_ratio = {
            n: self.curves[n, "SSLGC"]["time"][-1] / self.curves[n, "OLLGC"]["time"][-1] for n in names
        }
        paper_ratio = {k: published(k, "SSLGC")[2] / published(k, "OLLGC")[2] for k, _ in _FIG2_PAPER}
        claims = dict(
            pubmed_run="pubmed" in names,
            time_curves_straight=all(0.4 <= h <= 0.6 for h in halves),
            sslgc_slower_everywhere=all(r > 1 for r in time_ratio.values()),
        )
        values = {}
        if "pubmed" in names:
            s_o = (
                self.curves["pubmed", "SSLGC"]["binary error"][-1]
                - self.curves["pubmed", "OLLGC"]["binary error"][-1]
            )
            p_o = published("PubMed", "SSLGC")[0] - published("PubMed", "OLLGC")[0]
            claims |= dict(
                sslgc_below_ollgc_on_pubmed=bool(s_o < 0), as_in_paper=bool((s_o < 0) == (p_o < 0))
            )
            values["paper_diff"] = p_o
        return reading(
            "fig2",
            claims,
            graphs=[self._graph_reading(n) for n in names],
            halves=Span(min(halves), max(halves)),
            paper_ratio=[reading("fig2.paper_ratio", ratio=r, dataset=k) for k, r in paper_ratio.items()],
            time_ratio=[reading("fig2.our_ratio", ratio=r, dataset=k) for k, r in time_ratio.items()],
            **values,
        )


def fig2(profile: str = "full", seed: int = 0, verbose: bool = True) -> Fig2:
    """gu2013 Fig. 2 (Sec. 6.5): cumulative error, queries and time along the rounds, headline reading.

    The curves are the per-round arrays of Table 2's passes (:func:`~graphsel_lib.experiments.evaluate_curves`: read from
    the results cache where notebook 20 kept them, else run once); they end at the rows of the same passes
    (asserted).
    """
    p = protocol(profile)
    mean_curves, finals, mus, graphs = {}, [], {}, {}
    t_runs = time.perf_counter()
    for name in p.fig2_datasets:
        g = gs.load_dataset(name)
        graphs[name] = g
        X = features(g, p.d)
        orders = ex.random_orders(g.n_nodes, p.n_orders, seed)
        for method in METHODS:
            mu = None
            if method != "GPA":
                mu, table = tuned_mu(method, X, g, p, seed)
                if verbose:
                    print(f"{name} {method}: {ex.tuning_note(table, 'binary_error_rate')}")
            mus[name, method] = mu
            # Table 2's passes (notebook 20 keeps their per-round arrays in the results cache)
            ref, per_round = ex.evaluate_curves(
                partial(make_ovr, method, mu), X, g.labels, orders, seed=seed, method=method, n_jobs=N_JOBS
            )
            c = mean_curves[name, method] = _curves(per_round, ref, g.n_classes)
            assert np.isclose(c["binary error"][-1], ref.binary_error_rate.mean())
            assert np.isclose(c["queried (mean/learner)"][-1], ref.binary_n_queried.mean())
            assert np.all(np.diff(c["time"]) >= 0) and np.all(np.diff(c["queried (any learner)"]) >= 0)
            finals.append(
                {
                    "dataset": name,
                    "method": method,
                    "mu": mu,
                    "T": g.n_nodes,
                    "final binary error": c["binary error"][-1],
                    "final multiclass error": c["multiclass error"][-1],
                    "final queried (mean/learner)": c["queried (mean/learner)"][-1],
                    "final queried (any)": c["queried (any learner)"][-1],
                    "final time (s)": c["time"][-1],
                }
            )
        if verbose:
            print(f"{name}: done at {time.perf_counter() - t_runs:.1f} s")
    res = Fig2(p, graphs, mean_curves, mus, pd.DataFrame(finals))
    res.endpoints = _fig2_endpoints(res)
    res.checkpoints = _fig2_checkpoints(res)
    return res


def _fig2_endpoints(res: Fig2) -> pd.DataFrame:
    rows, finals, tol = [], res.finals, TOL["pubmed"]
    for paper_name, name in _FIG2_PAPER:
        for method in METHODS:
            p_err, p_q, p_t = published(paper_name, method)
            row = {
                "dataset": paper_name,
                "method": method,
                "error (paper)": p_err,
                "#queried (paper)": p_q,
                "time (paper)": p_t,
            }
            if paper_name == "IMDB" or name not in res.graphs:
                row["verdict"] = "not available" if paper_name == "IMDB" else "not run in this profile"
            else:
                f = finals[(finals.dataset == name) & (finals.method == method)].iloc[0]
                diff = f["final binary error"] - p_err
                row.update(
                    {
                        "error (ours)": f["final binary error"],
                        "difference": diff,
                        "#queried (ours, mean/learner)": f["final queried (mean/learner)"],
                        "#queried (ours, any)": f["final queried (any)"],
                        "time (ours)": f["final time (s)"],
                        "verdict": f"within ±{tol}" if abs(diff) <= tol else "differs",
                    }
                )
            rows.append(row)
    return pd.DataFrame(rows)


def _fig2_checkpoints(res: Fig2) -> pd.DataFrame:
    rows = []
    for (name, method), c in res.curves.items():
        T = len(c["time"])
        for frac in np.linspace(0.1, 1.0, 10):
            t = int(round(frac * T))
            rows.append(
                {
                    "dataset": name,
                    "method": method,
                    "round": t,
                    "binary error": c["binary error"][t - 1],
                    "multiclass error": c["multiclass error"][t - 1],
                    "queried (mean/learner)": c["queried (mean/learner)"][t - 1],
                    "queried (any learner)": c["queried (any learner)"][t - 1],
                    "time (s)": c["time"][t - 1],
                }
            )
    return pd.DataFrame(rows)


def draw_fig2(res: Fig2):
    """Fig. 2 in the paper's layout: rows = cumulative error, queried nodes, time; one column per dataset.

    Open markers at the right end: Table 2 (PubMed only); dotted: SSLGC's any-learner query count; the error
    axes are :attr:`Fig2.error_axes`.
    """
    names, err_axes = list(res.graphs), res.error_axes
    fig, axes = plotting.subplots(
        3, len(names), size=(7.0, 7.2) if len(names) > 1 else (3.6, 7.2), squeeze=False, sharex="col"
    )
    for j, name in enumerate(names):
        paper = (
            {m: published(PAPER_NAME[name], m) for m in METHODS}
            if name != STAND_IN and PAPER_NAME.get(name) in ("PubMed", "IMDB")
            else {}
        )
        for method in METHODS:
            c = res.curves[name, method]
            st = plotting.algorithm_style(method)
            line = {"color": st["color"], "linestyle": st["linestyle"]}
            t = np.arange(1, len(c["time"]) + 1)
            every = max(len(t) // 8, 1)
            axes[0, j].plot(t, c["binary error"], **line, marker=st["marker"], markevery=every, label=method)
            axes[1, j].plot(
                t, c["queried (mean/learner)"], **line, marker=st["marker"], markevery=every, label=method
            )
            if method == "SSLGC":
                axes[1, j].plot(
                    t,
                    c["queried (any learner)"],
                    color=st["color"],
                    linestyle=":",
                    label="SSLGC (any learner)",
                )
            axes[2, j].plot(t, c["time"], **line, marker=st["marker"], markevery=every, label=method)
            if method in paper:
                for i, v in enumerate(paper[method]):
                    _published_markers(axes[i, j], [t[-1]], [v], st["marker"], st["color"], markersize=8)
        axes[0, j].set_title(f"{name} (IMDB stand-in)" if name == STAND_IN else name)
        axes[0, j].set_ylim(err_axes[name]["axis low"], err_axes[name]["axis high"])
        for i in range(3):  # every panel gets its own x label and tick labels
            axes[i, j].set_xlabel("round $t$")
            axes[i, j].tick_params(labelbottom=True)
    for j in range(len(names)):
        axes[0, j].set_ylabel("cumulative error rate")
        axes[1, j].set_ylabel("cumulative queried nodes")
        axes[2, j].set_ylabel("cumulative time (s)")
    axes[0, 0].legend(loc="upper right")
    axes[1, 0].legend(loc="upper left", fontsize=6.5)
    return fig
