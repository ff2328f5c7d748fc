"""Fig. 1 of gu2013: error against the rank of the low-rank approximation."""

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
from graphsel_lib.papers.common import N_JOBS, Result, _published_markers, at_rank, split_note, table_field

from .paper_numbers import BIAS_B, FIG1_AXES, METHODS, TOL, published
from .protocols import Protocol, mu_key, protocol, tuned_mu, tuned_ovr
from .texts import reading


@dataclass
class Fig1(Result):
    """gu2013 Fig. 1 reproduced (Sec. 6.4): error and time against the rank d on Cora, see :func:`fig1`."""

    protocol: Protocol
    seed: int
    spectra: pd.DataFrame  #: per d: the largest eigenvalue used and the kernel diagonal
    split_note: str  #: ranks that cut a repeated eigenvalue (Markdown)
    runs: pd.DataFrame  #: one row per d, method and order
    #: mean ± std over the orders per d and method
    summary: pd.DataFrame = table_field("rank", float_format="%.4f", na_rep="-")
    claims: pd.DataFrame = None  #: per method: error at the smallest and largest d, time growth
    #: OLLGC and SSLGC against GPA at every d
    ttests: pd.DataFrame = table_field(formats={"mean diff (a-b)": "%.4f", "p": "%.2e"})
    #: d = 100 against Table 2 (None when 100 is not a rank of the profile)
    d100: pd.DataFrame = table_field("d100_vs_table2", float_format="%.4f", optional=True)
    PREFIX = "21_gu2013_fig1_"

    def show_summary(self) -> None:
        s = self.summary
        show = pd.DataFrame(
            {
                "d": s.d,
                "method": s.method,
                "mu": s.mu,
                "binary error": [
                    ex.mean_std(m, sd)
                    for m, sd in zip(s.binary_error_rate_mean, s.binary_error_rate_std, strict=True)
                ],
                "multiclass error": [
                    ex.mean_std(m, sd) for m, sd in zip(s.error_rate_mean, s.error_rate_std, strict=True)
                ],
                "#queried (mean/learner)": s.binary_n_queried_mean.round(1),
                "time (s)": [ex.mean_std(m, sd, 3) for m, sd in zip(s.time_mean, s.time_std, strict=True)],
            }
        )
        print(show.to_string(index=False))

    @property
    def error(self) -> pd.DataFrame:
        return self.summary.pivot(index="d", columns="method", values="binary_error_rate_mean")

    @property
    def time(self) -> pd.DataFrame:
        return self.summary.pivot(index="d", columns="method", values="time_mean")

    @property
    def time_ratio(self) -> float:
        """Slowest over fastest mean time per pass, over every d and method."""
        return self.summary.time_mean.max() / self.summary.time_mean.min()

    @property
    def claims_hold(self) -> bool:
        """gu2013's claims: the error falls at every d, both beat GPA at every d, SSLGC slowest once d >= 50."""
        err, ranks = self.error, list(self.protocol.ranks)
        falls = all(bool(np.all(np.diff(err[m].to_numpy()) < 0)) for m in METHODS)
        big = [d for d in ranks if d >= 50]
        slowest = self.time.idxmax(axis=1)
        return (
            falls and bool(self.ttests["a better (95%)"].all()) and bool((slowest.loc[big] == "SSLGC").all())
        )

    def reading(self) -> Reading:
        """The reading under the figure: the error along d, the tests, Table 2 at d = 100, the times."""
        ranks, err, tim, tests, summary = (
            list(self.protocol.ranks),
            self.error,
            self.time,
            self.ttests,
            self.summary,
        )
        lo, hi = ranks[0], ranks[-1]
        mid = 250 if 250 in ranks else ranks[len(ranks) // 2]
        falls = {m: bool(np.all(np.diff(err[m].to_numpy()) < 0)) for m in METHODS}
        drop_early = err.loc[lo] - err.loc[mid]
        drop_late = err.loc[mid] - err.loc[hi]
        e_min, e_max = summary.binary_error_rate_mean.min(), summary.binary_error_rate_mean.max()
        axis_lo, axis_hi = FIG1_AXES["error rate"]
        growth = tim.loc[hi] / tim.loc[lo]
        n_down = int((np.diff(tim.to_numpy(), axis=0) < 0).sum())
        slowest = tim.idxmax(axis=1)
        not_slowest = slowest != "SSLGC"
        paper = {m: published("Cora", m)[2] for m in METHODS}
        d100 = self.d100
        claims = dict(
            error_falls_with_d=all(falls.values()),
            has_late=mid != hi,
            errors_in_published_axis=bool(axis_lo <= e_min and e_max <= axis_hi),
            has_d100=d100 is not None,
            sslgc_slowest_at_every_d=bool(not not_slowest.any()),
            time_falls_somewhere=bool(n_down),
        )
        if d100 is not None:
            d100_values = dict(
                d100=[
                    reading("fig1.d100", method=r.method, difference=r.difference) for r in d100.itertuples()
                ],
                d100_within=int((d100.difference.abs() <= TOL["cora"]).sum()),
                d100_n=len(d100),
                tol=TOL["cora"],
            )
        else:
            d100_values = {}
        return reading(
            "fig1",
            claims,
            not_falling=[m for m, f in falls.items() if not f],
            lo=lo,
            mid=mid,
            hi=hi,
            drop_early_min=drop_early.min(),
            drop_early_max=drop_early.max(),
            drop_late_min=drop_late.min(),
            drop_late_max=drop_late.max(),
            n_better=int(tests["a better (95%)"].sum()),
            n_tests=len(tests),
            n_ranks=len(ranks),
            e_min=e_min,
            e_max=e_max,
            axis_lo=axis_lo,
            axis_hi=axis_hi,
            growth=[reading("fig1.growth", growth=growth[m], method=m) for m in METHODS],
            n_slowest=int((~not_slowest).sum()),
            not_slowest=[str(d) for d in slowest.index[not_slowest]],
            max_ms=1000 * tim.loc[not_slowest].max().max() if not_slowest.any() else float("nan"),
            paper_sslgc=paper["SSLGC"],
            paper_ollgc=paper["OLLGC"],
            paper_ollgc_gpa=paper["OLLGC"] / paper["GPA"],
            n_down=n_down,
            n_steps=(len(ranks) - 1) * len(METHODS),
            **d100_values,
        )


def fig1(profile: str = "full", seed: int = 0, verbose: bool = True) -> Fig1:
    """gu2013 Fig. 1 (Sec. 6.4): GPA, OLLGC and SSLGC on Cora at every rank d, headline reading, mu tuned per d.

    The smaller ranks are prefixes of the largest where no repeated eigenvalue is cut
    (:func:`graphsel_lib.spectral.nested_embeddings`). Checks on the way that the spectra of the ranks
    are nested, ``M 1 = 0`` and the kernel diagonal grows with d (Eckart-Young: each M_d^T M_d is the
    best rank-d approximation of L^+).
    """
    p = protocol(profile)
    ranks = list(p.ranks)
    g = gs.load_dataset("cora")
    # one solve at the largest rank; p.d solved on its own, as notebooks 20, 22 and 23 do (shared passes)
    embs = gs.spectral.nested_embeddings(g.adjacency, ranks, direct=[p.d])
    d_max = max(ranks)
    for d, e in embs.items():
        assert e.M.shape == (d, g.n_nodes) and np.all(e.eigenvalues > 0)
        assert np.allclose(
            e.eigenvalues, embs[d_max].eigenvalues[:d], rtol=1e-8, atol=1e-10
        )  # nested spectra
        assert np.allclose(e.M @ np.ones(g.n_nodes), 0, atol=1e-8)  # M 1 = 0
    note = split_note({d: embs[d_max].split_at(d) for d in ranks})
    spectra = pd.DataFrame(
        {
            "d": ranks,
            "sigma_d (largest used)": [embs[d].eigenvalues[-1] for d in ranks],
            "mean ||m_t||^2": [(embs[d].M ** 2).sum(0).mean() for d in ranks],
            "max ||m_t||^2": [(embs[d].M ** 2).sum(0).max() for d in ranks],
        }
    )
    assert np.all(np.diff(spectra["mean ||m_t||^2"]) > 0)  # the kernel diagonal grows with d
    X_of, mus = {d: gs.add_bias(embs[d].M, BIAS_B) for d in ranks}, {}
    t_runs = time.perf_counter()
    for d in ranks:
        for method in [m for m in METHODS if m != "GPA"]:  # GPA has no mu
            mus[mu_key("cora", method, d=d)], table = tuned_mu(method, X_of[d], g, p, seed)
            if verbose:
                print(f"d={d} {method}: {ex.tuning_note(table, 'binary_error_rate')}")
    runs = ex.sweep(
        partial(tuned_ovr, mus),
        {"d": ranks, "method": METHODS},
        {"cora": partial(at_rank, X_of, g.labels)},
        ex.random_orders(g.n_nodes, p.n_orders, seed),
        seed=seed,
        n_jobs=N_JOBS,
    )
    mu = [mus.get(mu_key("cora", m, d=d)) for m, d in zip(runs.method, runs.d, strict=True)]
    runs["mu"] = pd.Series(mu, index=runs.index, dtype=object)  # None for GPA (untuned)
    if verbose:
        print(f"all ranks done at {time.perf_counter() - t_runs:.1f} s")
    assert (runs.groupby(["d", "method"]).size() == p.n_orders).all()
    res = Fig1(p, seed, spectra, note, runs)
    summary = ex.summarize(
        runs, metrics=["binary_error_rate", "error_rate", "binary_n_queried", "time"], by=["d", "method"]
    )
    res.summary = summary.merge(runs.groupby(["d", "method"])["mu"].first().reset_index(), on=["d", "method"])
    res.claims, res.ttests = _fig1_claims(res)
    res.d100 = _fig1_d100(res) if 100 in ranks else None
    return res


def _fig1_claims(res: Fig1):
    ranks, runs, err, tim = list(res.protocol.ranks), res.runs, res.error, res.time
    claims = []
    for method in METHODS:
        ups = 0
        for d0, d1 in zip(ranks[:-1], ranks[1:], strict=True):
            a = (
                runs[(runs.d == d0) & (runs.method == method)]
                .sort_values("order")
                .binary_error_rate.to_numpy()
            )
            b = (
                runs[(runs.d == d1) & (runs.method == method)]
                .sort_values("order")
                .binary_error_rate.to_numpy()
            )
            diff = b - a
            se = diff.std(ddof=1) / np.sqrt(len(diff)) if len(diff) > 1 else 0.0
            ups += int(diff.mean() > 2 * se and diff.mean() > 0)
        claims.append(
            {
                "method": method,
                f"error d={ranks[0]}": err.loc[ranks[0], method],
                f"error d={ranks[-1]}": err.loc[ranks[-1], method],
                "significant increases": ups,
                f"time d={ranks[-1]} / d={ranks[0]}": tim.loc[ranks[-1], method] / tim.loc[ranks[0], method],
            }
        )
    tests = []
    for d in ranks:
        df = runs[runs.d == d]
        for a in ("OLLGC", "SSLGC"):
            r = ex.paired_ttest(df, a, "GPA", metric="binary_error_rate")
            tests.append(
                {
                    "d": d,
                    "a": a,
                    "b": "GPA",
                    "mean diff (a-b)": r["mean_diff"],
                    "p": r["p"],
                    "a better (95%)": r["significant"] and r["mean_diff"] < 0,
                }
            )
    return pd.DataFrame(claims), pd.DataFrame(tests)


def _fig1_d100(res: Fig1) -> pd.DataFrame:
    rows, s_all, tol = [], res.summary, TOL["cora"]
    for method in METHODS:
        p_err, _, p_time = published("Cora", method)
        s = s_all[(s_all.d == 100) & (s_all.method == method)].iloc[0]
        diff = s.binary_error_rate_mean - p_err
        rows.append(
            {
                "method": method,
                "error (paper, Table 2)": p_err,
                "error (ours)": s.binary_error_rate_mean,
                "difference": diff,
                "verdict": f"within ±{tol}" if abs(diff) <= tol else "differs",
                "time (paper)": p_time,
                "time (ours)": s.time_mean,
            }
        )
    return pd.DataFrame(rows)


def draw_fig1(res: Fig1):
    """Fig. 1: (a) error against d (mean ± std), (b) time per pass against d on a log axis (bar: fastest to
    slowest order); open markers: Table 2 at d = 100."""
    summary, ranks = res.summary, list(res.protocol.ranks)
    t_range = res.runs.groupby(["d", "method"])["time"].agg(["min", "max"]).reset_index()
    fig, (ax1, ax2) = plotting.subplots(1, 2, size="wide")
    for method in METHODS:
        s = summary[summary.method == method].sort_values("d")
        r = t_range[t_range.method == method].sort_values("d")
        st = plotting.algorithm_style(method)
        ax1.errorbar(
            s.d, s.binary_error_rate_mean, yerr=s.binary_error_rate_std, capsize=2, label=method, **st
        )
        t_mean = s.time_mean.to_numpy()
        ax2.errorbar(
            s.d,
            t_mean,
            yerr=[t_mean - r["min"].to_numpy(), r["max"].to_numpy() - t_mean],
            capsize=2,
            label=method,
            **st,
        )
        if 100 in ranks:
            p_err, _, p_time = published("Cora", method)
            pst = plotting.algorithm_style(method, published=True)
            for ax, v, lab in ((ax1, p_err, f"{method}, gu2013 Table 2"), (ax2, p_time, None)):
                _published_markers(ax, [100], [v], pst["marker"], pst["color"], markersize=8, label=lab)
    ax1.set_xlabel("rank $d$")
    ax1.set_ylabel("error rate (mean binary, bias)")
    ax1.set_title("(a) error rate, Cora")
    ax1.legend(ncol=2, fontsize=6.5)
    ax2.set_xlabel("rank $d$")
    ax2.set_ylabel("time per pass (s, log scale)")
    ax2.set_yscale("log")
    ax2.set_title("(b) time, Cora")
    return fig
