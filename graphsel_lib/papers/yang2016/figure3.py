"""Fig. 3 of yang2016: error against the rank of the low-rank approximation, and its reading."""

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
from graphsel_lib.papers.common import N_JOBS, Result, at_rank, split_note, table_field

from .paper_numbers import BIAS_B, HEADLINE, LABEL, SHOWN
from .protocols import Protocol, _setting, methods, protocol, tuned_key, tuned_learner, tuned_params
from .texts import reading


@dataclass
class Fig3(Result):
    """yang2016 Fig. 3 reproduced: error and #queried of the six methods over the rank d (Coauthor, Cora)."""

    protocol: Protocol
    n_nodes: dict
    #: one row per dataset, rank and method
    results: pd.DataFrame = table_field("rank", float_format="%.4g", required=True)
    runs: pd.DataFrame = None  #: one row per dataset, rank, method and order
    split_notes: dict = None  #: dataset -> which ranks cut a repeated eigenvalue (Markdown)
    repeated: dict = None  #: dataset -> eigenvalues among the largest rank's equal to their predecessor
    monotone: pd.DataFrame = table_field(float_format="%.4f")  #: claim 1: higher rank, lower error
    ttests: pd.DataFrame = table_field(
        float_format="%.4g"
    )  #: claim 2: MSG against each other method at each rank
    balance: pd.DataFrame = table_field(float_format="%.4g")  #: claim 3: d = 100 as a balance
    PREFIX = "33_yang2016_fig3_"

    def pivot(self, values: str, fmt: str = ".4f", columns=None) -> str:
        t = self.results.pivot_table(
            index=["dataset", "d"], columns="method", values=values, aggfunc="first", sort=False
        )
        t = t[columns] if columns else t
        return t.to_string(float_format=lambda x: format(x, fmt))

    def reading(self) -> Reading:
        """The reading of the paper's four claims: values and claims from the tables."""
        return _fig3_reading(self)


def fig3(profile: str = "full", seed: int = 0, verbose: bool = True) -> Fig3:
    """yang2016 Fig. 3 (Sec. V-D): the six methods at each rank d, re-tuned at every rank, headline setting.

    The rank-d eigenvalues are the d smallest of the largest rank (nested spectra, Eckart-Young; asserted);
    the rank-d pairs are its prefix where no repeated eigenvalue is cut
    (:func:`graphsel_lib.spectral.nested_embeddings`).
    """
    p = protocol(profile)
    ranks = list(p.ranks)
    meths, params, runs, notes, repeated, n_nodes = methods(p), {}, [], {}, {}, {}
    t_runs = time.perf_counter()
    for name in p.rank_datasets:
        g = gs.load_dataset(name)
        n_nodes[name] = g.n_nodes
        # one solve at the largest rank; p.d solved on its own, as notebooks 30-32 do (shared passes)
        embs = gs.spectral.nested_embeddings(g.adjacency, ranks, direct=[p.d])
        big = embs[max(ranks)]
        repeated[name] = int((np.diff(big.eigenvalues) <= 1e-8 * big.eigenvalues[1:]).sum())
        notes[name] = split_note({d: big.split_at(d) for d in ranks})
        if verbose:
            print(
                f"{name}: {repeated[name]} eigenvalues among the {max(ranks)} smallest equal their predecessor"
            )
        X_of = {}
        for d in ranks:
            emb = embs[d]
            # nested spectra: the rank-d eigenvalues are the d smallest of the largest rank
            assert np.allclose(emb.eigenvalues, big.eigenvalues[:d], rtol=1e-8, atol=1e-10)
            X_of[d] = gs.add_bias(emb.M, BIAS_B) if HEADLINE.bias else emb.M
            for method in meths:  # re-tuned at every rank
                params[tuned_key(name, method, d=d)] = tuned_params(method, X_of[d], g, p, seed, verbose)
        runs.append(
            ex.sweep(
                partial(tuned_learner, meths, params),
                {"d": ranks, "method": list(meths)},
                {name: partial(at_rank, X_of, g.labels)},
                ex.random_orders(g.n_nodes, p.n_orders, seed),
                seed=seed,
                n_jobs=N_JOBS,
            )
        )
        if verbose:
            print(f"{name:>9s}: {time.perf_counter() - t_runs:6.1f} s")
    runs = pd.concat(runs, ignore_index=True)
    rows = []
    for (name, d, method), df in runs.groupby(["dataset", "d", "method"], sort=False):
        rows.append(
            {
                "dataset": name,
                "d": d,
                "method": method,
                "tuned": _setting(params[tuned_key(name, method, d=d)]),
                "error": df.error_rate.mean(),
                "error std": df.error_rate.std(),
                "#queried": df.n_queried.mean(),
                "#queried std": df.n_queried.std(),
                "query ratio": df.n_queried.mean() / n_nodes[name],
                "time per pass (s)": df.time.mean(),
            }
        )
    if verbose:
        print(f"all runs: {time.perf_counter() - t_runs:.1f} s")
    res = Fig3(p, n_nodes, pd.DataFrame(rows), runs, notes, repeated)
    res.monotone, res.ttests, res.balance = _fig3_claims(res)
    return res


def _fig3_claims(res: Fig3):
    claims = []
    for (name, method), c in res.results.groupby(["dataset", "method"], sort=False):
        c = c.sort_values("d")
        e = c.error.to_numpy()
        claims.append(
            {
                "dataset": name,
                "method": method,
                "error d=min": e[0],
                "error d=max": e[-1],
                "lower at max rank": bool(e[-1] < e[0]),
                "monotone": bool((np.diff(e) <= 1e-3).all()),
                "best d": int(c.d.iloc[ex.pick_best(e).index]),  # a tie goes to the smaller d
            }
        )
    tt = []
    others = [m for m in methods(res.protocol) if m != "MSG"]
    for (name, d), df in res.runs.groupby(["dataset", "d"], sort=False):
        for other in others:
            r = ex.paired_ttest(df, "MSG", other)
            verdict = (
                "comparable"
                if not r["significant"]
                else ("MSG better" if r["mean_diff"] < 0 else "MSG worse")
            )
            tt.append({"dataset": name, "d": d, "MSG vs": other, "mean diff": r["mean_diff"], "p": r["p"],
                       "verdict": verdict})  # fmt: skip
    bal, res_ = [], res.results
    for name in res.protocol.rank_datasets:
        c = res_[(res_.dataset == name) & (res_.method == "MSG")].set_index("d")
        ref = 100 if 100 in c.index else c.index[0]
        bal.append(
            {
                "dataset": name,
                "MSG error d=100": c.error[ref],
                "best MSG error": c.error.min(),
                "at d": int(c.error.idxmin()),
                "#queried d=100": c["#queried"][ref],
                "#queried at best d": c["#queried"][c.error.idxmin()],
                "time per pass d=100 (s)": c["time per pass (s)"][ref],
                "time per pass d=max (s)": c["time per pass (s)"][max(res.protocol.ranks)],
            }
        )
    return pd.DataFrame(claims), pd.DataFrame(tt), pd.DataFrame(bal)


def draw_fig3(res: Fig3, dodge: float = 0.3):
    """Fig. 3: error (top) and #queried (bottom) against the rank on a square-root axis; methods dodged sideways."""
    ranks, meths = list(res.protocol.ranks), list(methods(res.protocol))
    datasets = res.protocol.rank_datasets
    fig, axes = plotting.subplots(2, len(datasets), size=(7.0, 5.2), squeeze=False)
    for j, name in enumerate(datasets):
        for k, method in enumerate(meths):
            c = res.results[(res.results.dataset == name) & (res.results.method == method)].sort_values("d")
            st = plotting.algorithm_style(method)
            x = (np.sqrt(c.d) + dodge * (k - 2.5)) ** 2
            axes[0, j].errorbar(
                x, c.error, yerr=c["error std"], **st, capsize=1.5, ms=4, label=LABEL.get(method, method)
            )
            axes[1, j].errorbar(x, c["#queried"], yerr=c["#queried std"], **st, capsize=1.5, ms=4)
        axes[0, j].set_title(SHOWN[name])
        for ax in axes[:, j]:
            ax.set_xscale("function", functions=(np.sqrt, np.square))  # square-root axis
            ax.set_xticks(ranks, [str(d) for d in ranks])
            ax.set_xlabel("rank d")
        axes[1, j].set_ylim(0, None)
    axes[0, 0].set_ylabel("error rate")
    axes[1, 0].set_ylabel("#queried")
    fig.legend(*axes[0, 0].get_legend_handles_labels(), loc="outside lower center", ncol=len(meths))
    return fig


#: Fig. 3's reading: an error rise between neighbouring ranks counts above this; BBQ "queries every label"
#: from the rank at which it queries at least this share of the nodes.
RISE_TOL, ALL_LABELS = 1e-3, 0.995


def _fig3_reading(res: Fig3) -> Reading:
    """yang2016 Fig. 3's four claims (Sec. V-D) as values and claims, one bullet each."""
    ranks, datasets = list(res.protocol.ranks), res.protocol.rank_datasets
    r_, mono, tt, bal = res.results, res.monotone, res.ttests, res.balance
    lo_d, hi_d = min(ranks), max(ranks)
    mid_d = ranks[min(2, len(ranks) - 1)]
    rise, gain = [], []
    for (name, method), cc in r_.groupby(["dataset", "method"], sort=False):
        e = cc.set_index("d").error
        up = float(np.diff(e.to_numpy()).max())
        if up > RISE_TOL:
            rise.append(reading("fig3.rise", method=LABEL.get(method, method), dataset=SHOWN[name], up=up))
        if e[lo_d] > e[hi_d]:
            gain.append((e[lo_d] - e[mid_d]) / (e[lo_d] - e[hi_d]))
    queries = []
    for name in datasets:
        m = r_[(r_.dataset == name) & (r_.method == "MSG")].set_index("d")
        b = r_[(r_.dataset == name) & (r_.method == "BBQ")].set_index("d")
        n_nodes = res.n_nodes[name]
        all_from = [d for d in ranks if (b.loc[d:, "#queried"] >= ALL_LABELS * n_nodes).all()]
        queries.append(
            reading(
                "fig3.queries",
                dict(all_labels_somewhere=bool(all_from)),
                dataset=SHOWN[name],
                msg=[m["#queried"][d] for d in ranks],
                tuned=[m.tuned[d] for d in ranks],
                bbq=[b["#queried"][d] for d in ranks],
                n_nodes=n_nodes,
                share=100 * ALL_LABELS,
                all_from=all_from[0] if all_from else None,
            )
        )
    v = tt.groupby(["dataset", "verdict"]).size().unstack(fill_value=0)
    exc = tt[tt.verdict != "MSG better"]
    counts = [
        reading(
            "fig3.counts",
            dataset=SHOWN[n],
            better=int(r.get("MSG better", 0)),
            n=int(r.sum()),
            comparable=int(r.get("comparable", 0)),
            worse=int(r.get("MSG worse", 0)),
        )
        for n, r in v.iterrows()
    ]
    exceptions = [
        reading(
            "fig3.exception",
            dict(worse=r.verdict == "MSG worse"),
            method=LABEL.get(r["MSG vs"], r["MSG vs"]),
            d=r.d,
            dataset=SHOWN[r.dataset],
        )
        for _, r in exc.iterrows()
    ]
    bb = bal.set_index("dataset")
    balance = [
        reading(
            "fig3.balance",
            dataset=SHOWN[n],
            error=r["MSG error d=100"],
            diff=r["MSG error d=100"] - r["best MSG error"],
            best=r["best MSG error"],
            best_d=int(r["at d"]),
            share=r["#queried d=100"] / r["#queried at best d"],
            speedup=r["time per pass d=max (s)"] / r["time per pass d=100 (s)"],
            hi_d=hi_d,
        )
        for n, r in bb.iterrows()
    ]
    claims = dict(
        error_rises=bool(rise),
        has_gain=bool(gain),
        has_exceptions=bool(len(exc)),
        msg_worse_somewhere=bool((tt.verdict == "MSG worse").any()),
        cost_choice=bool((bb["at d"] != 100).all()),
    )
    return reading(
        "fig3",
        claims,
        hi_d=hi_d,
        lo_d=lo_d,
        mid_d=mid_d,
        n_lower=int(mono["lower at max rank"].sum()),
        n_pairs=len(mono),
        rise_tol=RISE_TOL,
        rise=rise,
        gain_min=min(gain, default=np.nan),
        gain_max=max(gain, default=np.nan),
        ranks=ranks,
        queries=queries,
        counts=counts,
        exceptions=exceptions,
        balance=balance,
    )
