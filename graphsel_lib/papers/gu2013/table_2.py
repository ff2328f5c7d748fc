"""Table 2 of gu2013 (Sec. 6.5): the runs over the data sets, biases, definitions and orders, and the summary."""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd

import graphsel_lib as gs
from graphsel_lib import experiments as ex
from graphsel_lib.papers.common import (
    N_JOBS,
    Result,
    bias_variants,
    span,
    table_field,
)

from .paper_numbers import (
    BIAS_B,
    ERROR_COLUMN,
    METHODS,
    OURS_NAME,
    PAPER_NAME,
    PUBLISHED,
    Q_CLOSE,
    TOL,
)
from .protocols import Protocol, _listing, _print, mu_key, protocol, tuned_mu, tuned_ovr
from .table_2_checks import (
    _error_vs_published,
    _label_efficiency,
    _mu_sensitivity,
    _query_match,
    _table_layout,
    _ttests,
    _which_definition,
)


def _tuning_columns(tuning: pd.DataFrame) -> pd.DataFrame:
    """The tuning table as written: the configuration, mu and the metrics (not the tie margins)."""
    cols = ["dataset", "bias", "definition", "method", "mu", "error_rate", "binary_error_rate", "n_queried"]
    return tuning[cols + ["binary_n_queried"]]


@dataclass
class Table2(Result):
    """Table 2 reproduced (gu2013 Sec. 6.5): every table of notebook 20, see :func:`table2`."""

    protocol: Protocol
    seed: int
    graphs: dict
    runs: pd.DataFrame  #: one row per dataset, bias, definition, method and order
    #: every mu of the grid on the held-out order
    tuning: pd.DataFrame = table_field(float_format="%.4f", view=_tuning_columns, required=True)
    #: mean ± std over the orders of every configuration
    summary: pd.DataFrame = table_field("table2_ours", float_format="%.4f", na_rep="-")
    #: every configuration against every published error
    error_vs_published: pd.DataFrame = table_field(
        na_rep="-", formats={c: "%.4f" for c in ["published", "ours", "ours std", "difference", "tolerance"]}
        | {"mu": "%g"}
    )  # fmt: skip
    table: pd.DataFrame = table_field(
        "table2", na_rep="-", formats={"mu": "%g"}
    )  #: Table 2 in the paper's layout
    #: per configuration, the distance to the published errors
    which_definition: pd.DataFrame = table_field(float_format="%.4f")
    #: paired t-tests per dataset and configuration
    ttests: pd.DataFrame = table_field(formats={"mean diff (a-b)": "%.4f", "t": "%.2f", "p": "%.2e"})
    mu_sensitivity: pd.DataFrame = table_field(
        float_format="%.4f"
    )  #: OLLGC and SSLGC at every mu (diagnostic)
    #: the mu whose SSLGC count is nearest the paper's (diagnostic)
    query_match: pd.DataFrame = table_field("sslgc_query_match", float_format="%.4g")
    #: SSLGC's "comparable while querying fewer", made concrete
    label_efficiency: pd.DataFrame = table_field("sslgc_label_efficiency", float_format="%.4f")
    times: pd.DataFrame = table_field(float_format="%.4f", optional=True)  #: set by :func:`table2_times`
    PREFIX = "20_gu2013_"
    KEYS = ("dataset", "bias", "definition", "method")

    def target(self, name, method):
        """The summary row of the headline configuration (bias, mean binary error) for ``name``, ``method``."""
        s = self.summary
        return s[(s.dataset == name) & s.bias & (s.definition == "binary") & (s.method == method)].iloc[0]

    def ours(self, name, bias, definition, method):
        s = self.summary
        return s[
            (s.dataset == name) & (s.bias == bias) & (s.definition == definition) & (s.method == method)
        ].iloc[0]

    @property
    def best_definition(self):
        """The row of :attr:`which_definition` closest to the published scale."""
        return self.which_definition.iloc[0]

    @property
    def target_tests(self) -> pd.DataFrame:
        t = self.ttests
        return t[t.bias & (t["error definition"] == "binary")]

    # ----------------------------------------------------------------- what the notebook shows
    def show_summary(self) -> None:
        s, keys = self.summary, list(self.KEYS)
        show = s.assign(
            error=[ex.mean_std(m, sd) for m, sd in zip(s.error_mean, s.error_std, strict=True)],
            q_any=[f"{m:.1f}" for m in s.n_queried_mean],
            q_mean=[f"{m:.1f}" for m in s.binary_n_queried_mean],
            time=[f"{m:.3f}" for m in s.time_mean],
        )[keys + ["mu", "error", "q_any", "q_mean", "time"]]
        print(show.to_string(index=False))

    def show_mu_sensitivity(self) -> None:
        sens = self.mu_sensitivity
        _print(self.sslgc_sensitivity)
        print()
        _print(sens[sens.method == "OLLGC"])

    @property
    def sslgc_sensitivity(self) -> pd.DataFrame:
        """SSLGC's rows of the mu sweep beside the published SSLGC error and count."""
        sens = self.mu_sensitivity
        return (
            sens[sens.method == "SSLGC"]
            .merge(
                PUBLISHED[PUBLISHED.method == "SSLGC"].assign(dataset=lambda p: p.dataset.map(OURS_NAME))[
                    ["dataset", "error", "queried"]
                ],
                on="dataset",
                how="left",
            )
            .rename(columns={"error": "paper error", "queried": "paper #queried"})
        )

    def reading_tolerance(self) -> str:
        """Sec. 4: the target configuration and our tolerance, in units of the published stds."""
        pub_std = PUBLISHED.loc[PUBLISHED.dataset.isin([PAPER_NAME[k] for k in TOL]), "error_std"]
        return (
            "The **target configuration** is the one Sec. 5 finds on the published scale: the **mean binary "
            "error with the bias feature**. Our tolerance on a mean error is an absolute difference of "
            f"{TOL['cora']} on Cora and PubMed, "
            f"{span(TOL['cora'] / pub_std.max(), TOL['cora'] / pub_std.min(), '.0f')} "
            f"times the published standard deviations over the orders "
            f"({span(pub_std.min(), pub_std.max(), '.4f')} on these three graphs), and {TOL['coauthor']} on "
            "Coauthor, a graph we rebuild from the public DBLP four-area data (notebook 00), so that small "
            "differences from the authors' copy do not count as a miss. The table gives every configuration "
            "anyway, each with its difference to the published mean and the scorecard's verdict (reproduced, "
            "close, differs; a headline SSLGC run whose label count misses the published by more than 25 % is a "
            "diagnostic, judged by its run at the published budget); a miss carries its reason. IMDB is printed "
            "with its published numbers only (not available); CiteSeer's rows are stand-ins: a replication on "
            "other data, no delta or z against the paper's number."
        )

    def reading_definition(self) -> str:
        """Sec. 5: the multiclass error against the published one on Cora; which configuration matches."""
        summary, scale = self.summary, self.which_definition
        cora_pub = PUBLISHED[PUBLISHED.dataset == "Cora"].set_index("method").error
        cora_multi = summary[(summary.dataset == "cora") & (summary.definition == "multiclass")]
        multi_ratio = cora_multi.error_mean.to_numpy() / cora_multi.method.map(cora_pub).to_numpy()
        best, second = scale.iloc[0], scale.iloc[1]
        return (
            f"On Cora our multiclass error is {span(multi_ratio.min(), multi_ratio.max(), '.1f')} times the "
            "published error of the same method (with and without the bias). Read as a multiclass error, the "
            f"published {cora_pub['OLLGC']:.4f} of OLLGC would mean a 7-way one-vs-rest argmax that is right "
            f"{1 - cora_pub['OLLGC']:.1%} of the time; the best multiclass error of our tuned Cora runs is "
            f"{cora_multi.error_mean.min():.4f} (right {1 - cora_multi.error_mean.min():.1%} of the time). The "
            f"**{best['error definition']} error {'with' if best['bias'] else 'without'} the bias** "
            + ("lands on" if best.within == best.cells else "comes closest to")
            + f" the published numbers: mean |difference| {best.mean_abs_diff:.4f}, largest "
            f"{best.max_abs_diff:.4f}, {best.within} of {best.cells} cells within tolerance; the next closest "
            f"configuration ({second['error definition']}, bias={second['bias']}) is off by "
            f"{second.mean_abs_diff:.4f} on average."
        )

    def _better(self, a, b):
        """Datasets where method a errs significantly less than b (target configuration), and the other rows."""
        tt = self.target_tests
        t = tt[(tt.a == a) & (tt.b == b)]
        yes = t[t["significant (95%)"] & (t["mean diff (a-b)"] < 0)]
        return yes.dataset.tolist(), t[~t.dataset.isin(yes.dataset)]

    @property
    def both_beat_gpa(self) -> bool:
        """gu2013's claim on its three graphs we have: OLLGC and SSLGC both err significantly less than GPA."""
        paper_graphs = {"coauthor", "cora", "pubmed"}
        return paper_graphs <= set(self._better("OLLGC", "GPA")[0]) and paper_graphs <= set(
            self._better("SSLGC", "GPA")[0]
        )

    def reading_ttests(self) -> str:
        """Sec. 6: who beats whom in the target configuration."""
        o_yes, o_no = self._better("OLLGC", "GPA")
        s_yes, s_no = self._better("SSLGC", "GPA")
        not_better = pd.concat([o_no, s_no])
        tt = self.target_tests
        os_t = tt[(tt.a == "OLLGC") & (tt.b == "SSLGC")]
        sig = os_t[os_t["significant (95%)"]]
        return (
            f"In the target configuration OLLGC errs significantly less than GPA on {_listing(o_yes)}, and SSLGC "
            f"on {_listing(s_yes)}"
            + (
                " (not: "
                + "; ".join(
                    f"{r.a} vs {r.b} on {r.dataset}, mean difference {r['mean diff (a-b)']:+.4f}, p = {r.p:.2g}"
                    for _, r in not_better.iterrows()
                )
                + ")"
                if len(not_better)
                else ""
            )
            + ". Between the two second-order learners, SSLGC errs significantly less than OLLGC on "
            f"{_listing(sig[sig['mean diff (a-b)'] > 0].dataset.tolist())}, significantly more on "
            f"{_listing(sig[sig['mean diff (a-b)'] < 0].dataset.tolist())}, and neither on "
            f"{_listing(os_t[~os_t['significant (95%)']].dataset.tolist())}."
        )

    def _sweep_numbers(self):
        sw = self.mu_sensitivity.sort_values(["dataset", "method", "mu"])
        steps = (
            sw[sw.method == "SSLGC"]
            .groupby("dataset", sort=False)["#queried mean/learner"]
            .apply(lambda q: q.to_numpy()[1:] / q.to_numpy()[:-1] - 1)
        )
        step_change = np.concatenate(steps.to_list())  # relative change of the count per step of mu by 10
        closest = self.query_match
        match_rel = closest["its #queried"] / closest["paper #queried"] - 1
        match_err = closest["its error"] - closest["paper error"]
        both_met = bool(((match_rel.abs() <= Q_CLOSE) & (match_err.abs() <= closest.dataset.map(TOL))).all())
        return sw, step_change, bool((step_change < 0).all()), both_met

    @property
    def sweep_claims_hold(self) -> bool:
        """Sec. 7: the SSLGC count falls at every step of mu, and one mu meets both published numbers on every graph."""
        _, _, monotone, both_met = self._sweep_numbers()
        return monotone and both_met

    def reading_mu(self) -> str:
        """Sec. 7: what the mu sweep shows (the diagnostic part marked as such)."""
        sw, step_change, monotone, both_met = self._sweep_numbers()
        closest = self.query_match
        # how much the error moves between the best mu and the second best, per dataset and method
        gap = sw.groupby(["dataset", "method"])["binary error"].apply(
            lambda e: np.sort(e.to_numpy())[1] - e.min()
        )

        def second_best_switch(df):
            """SSLGC: error and relative query-count change from the best to the second-best mu of the sweep."""
            best2 = df.sort_values("binary error").iloc[:2]
            return pd.Series(
                {
                    "error": best2["binary error"].iloc[1] - best2["binary error"].iloc[0],
                    "count": best2["#queried mean/learner"].iloc[1] / best2["#queried mean/learner"].iloc[0]
                    - 1,
                }
            )

        switch = (
            sw[sw.method == "SSLGC"]
            .groupby("dataset", sort=False)[["binary error", "#queried mean/learner"]]
            .apply(second_best_switch)
        )
        tuned_rel = closest["tuned #queried"] / closest["paper #queried"] - 1
        match_rel = closest["its #queried"] / closest["paper #queried"] - 1
        match_err = closest["its error"] - closest["paper error"]
        any_rel = closest["its #queried any"] / closest["paper #queried"] - 1
        same_mu = closest[closest["tuned mu"] == closest["mu matching the paper's #queried"]].dataset.tolist()
        mu_match = "mu matching the paper's #queried"

        def per_graph(fmt):
            rows = closest.assign(
                tuned_rel=tuned_rel, match_rel=match_rel, match_err=match_err, any_rel=any_rel
            )
            return "; ".join(fmt(r) for _, r in rows.iterrows())

        return (
            "**What the $\\mu$ sweep shows.** SSLGC's query count "
            + (
                "falls at every step of $\\mu$ by a factor 10"
                if monotone
                else "does not fall at every step of $\\mu$"
            )
            + f", by {span(-step_change.max(), -step_change.min(), '.0%')} per step. Near its best $\\mu$ the error "
            f"is flatter: the second-best $\\mu$ of the grid errs {span(gap.min(), gap.max(), '.4f')} more than the "
            "best (over the datasets and the two learners). For SSLGC, going from the best to the second-best $\\mu$ "
            f"changes the error by {span(switch.error.min(), switch.error.max(), '.4f')} but the query count by "
            f"{span(switch['count'].abs().min(), switch['count'].abs().max(), '.0%')}, so the $\\mu$ a single "
            "held-out order picks matters for the count. The tuned (headline) SSLGC queries "
            + per_graph(
                lambda r: (
                    f"{r['tuned #queried']:.0f} against the paper's {r['paper #queried']:.0f} on "
                    f"{r.dataset} ({r.tuned_rel:+.1%}, $\\mu$ = {r['tuned mu']:g})"
                )
            )
            + ".\n\n"
            "*Diagnostic, $\\mu$ chosen on the evaluation orders to hit the published query count: not a "
            "reproduction.* The $\\mu$ whose count is nearest the paper's gives "
            + per_graph(
                lambda r: (
                    f"{r.dataset}: $\\mu$ = {r[mu_match]:g}, count "
                    f"{r.match_rel:+.1%} and error {r.match_err:+.4f} from the paper's"
                )
            )
            + (f" (on {', '.join(same_mu)} it is the tuned $\\mu$ itself)" if same_mu else "")
            + ". "
            + (
                f"So at one $\\mu$ of the grid both published numbers are met at once (count within {Q_CLOSE:.0%}, "
                "error within our tolerance): the query-count gaps of Sec. 4 are consistent with a different "
                "choice of $\\mu$, with no need for a different algorithm or query rule (this does not show which "
                "$\\mu$ the paper used). "
                if both_met
                else "No $\\mu$ of the grid meets both published numbers at once on every graph. "
            )
            + "At these $\\mu$ the count of nodes queried by *any* learner, $n_{\\text{any}}$, is "
            f"{span(any_rel.min(), any_rel.max(), '+.0%')} off the published count, the mean per binary learner "
            f'$\\bar n$ {span(match_rel.min(), match_rel.max(), "+.1%")}: the published "#queried" '
            + (
                "is $\\bar n$."
                if any_rel.abs().min() > match_rel.abs().max()
                else "is not clearly $\\bar n$."
            )
        )

    def reading_efficiency(self) -> str:
        """Sec. 7: where SSLGC is "comparable while querying fewer" (and, as a diagnostic, where it could be)."""
        eff = self.label_efficiency
        meets = eff[eff["meets it (tuned mu)"]]
        misses = eff[~eff["meets it (tuned mu)"]]
        diag = eff[eff["meets it at that mu (diagnostic)"] & ~eff["meets it (tuned mu)"]]
        return (
            f"With the tuned $\\mu$ SSLGC meets the criterion on {', '.join(meets.dataset) or 'no graph'}"
            + (
                "; it misses on "
                + "; ".join(
                    f"{r.dataset} (query ratio {r['query ratio (mean/learner)']:.3f}, error "
                    f"{r['SSLGC - OLLGC error']:+.4f} from OLLGC)"
                    for _, r in misses.iterrows()
                )
                if len(misses)
                else ""
            )
            + "."
            + (
                " *Diagnostic (not a reproduction):* at a $\\mu$ chosen on the evaluation orders it would also "
                f"meet it on {', '.join(diag.dataset)}."
                if len(diag)
                else ""
            )
        )

    def speed_note(self, target: float = 0.25) -> str:
        """Our speed target: an OLLGC one-vs-rest pass on PubMed at d = 100 within ``target`` seconds."""
        if "pubmed" not in self.graphs or self.protocol.d != 100 or self.times is None:
            return "speed target: not measured in this profile (PubMed at d = 100 only)"
        times = self.times
        t_ollgc = self.target("pubmed", "OLLGC").time_mean
        t_fast = times[(times.dataset == "PubMed") & (times.method == "OLLGC")][
            "ours fastest order (s)"
        ].iloc[0]
        return (
            f"speed target: OLLGC one-vs-rest pass on PubMed, d=100: mean {t_ollgc:.3f} s, fastest {t_fast:.3f} s "
            f"per order ({'meets' if t_ollgc <= target else 'misses'} the {target:g} s target on the mean; measured at the "
            "load above)"
        )

    def reading_times(self) -> str:
        """Sec. 8: ours against the paper's times, and the ratios to GPA timed alone."""
        times = self.times
        order_ours = times.groupby("dataset", sort=False).apply(
            lambda d: " < ".join(d.sort_values("time ours (s)").method)
        )
        order_paper = times.groupby("dataset", sort=False).apply(
            lambda d: " < ".join(d.sort_values("time paper (s)").method)
        )
        ratio_by = times.groupby("method", sort=False)["ours / paper"].agg(["min", "max"])
        t_piv = times.pivot(index="dataset", columns="method", values="time ours (s)")
        sslgc_slowest = bool((t_piv["SSLGC"] > t_piv["OLLGC"]).all())
        alone = times.pivot(index="dataset", columns="method", values="ours timed alone (s)")
        paper = times.pivot(index="dataset", columns="method", values="time paper (s)")
        ratios = "; ".join(
            f"{d} {m}/GPA {alone.loc[d, m] / alone.loc[d, 'GPA']:.1f} (paper {paper.loc[d, m] / paper.loc[d, 'GPA']:.1f})"
            for d in alone.index
            for m in ("OLLGC", "SSLGC")
        )
        return (
            "Ours against the paper, mean time per pass: "
            + "; ".join(
                f"{m} {span(r['min'], r['max'], '.2f')} times the paper's" for m, r in ratio_by.iterrows()
            )
            + ". From fastest to slowest, ours: "
            + "; ".join(f"{d} {o}" for d, o in order_ours.items())
            + "; the paper's: "
            + "; ".join(f"{d} {o}" for d, o in order_paper.items())
            + f". Ratios to GPA, timed alone: {ratios}. "
            + (
                "Our SSLGC is slower than our OLLGC on every graph: it computes its confidence $r_t$ for every "
                "learner on every round, $O(Kd^2)$ (notebook 21), which costs more than it saves by updating less."
                if sslgc_slowest
                else "Our SSLGC is not slower than our OLLGC on every graph."
            )
        )

    def verdict_lines(self) -> str:
        """Sec. 10: per dataset and method, the target configuration against the published error."""
        evp = self.error_vs_published
        target = evp[(evp.bias == True) & (evp["error definition"] == "binary")]  # noqa: E712
        out = []
        for r in target.itertuples():
            if isinstance(r.verdict, str) and r.verdict.startswith("not"):
                out.append(f"{r.dataset:>9s} {r.method:>5s}: {r.verdict}")
            elif r.dataset in PUBLISHED.dataset.values:
                out.append(
                    f"{r.dataset:>9s} {r.method:>5s}: ours {r.ours:.4f} vs paper {r.published:.4f} "
                    f"({r.difference:+.4f}, tolerance {r.tolerance}) -> {r.verdict}"
                )
        n_within = int((target.difference.abs() <= target.tolerance).sum())
        n_cmp = int(target.difference.notna().sum())
        out.append(
            f"\ntarget configuration (mu tuned on the held-out order): {n_within} of {n_cmp} comparable error "
            "cells within our tolerance"
        )
        return "\n".join(out)


def table2(profile: str = "full", seed: int = 0, verbose: bool = True) -> Table2:
    """gu2013 Table 2 (Sec. 6.5): GPA, OLLGC and SSLGC, every (bias, error definition), mu tuned, compared.

    For every dataset, with and without the bias feature: GPA, and OLLGC and SSLGC with mu tuned on the
    held-out order separately for each error definition (the tuning metric is the error reported), then
    run on the orders of ``ex.random_orders`` (cached). Also the paired t-tests, the mu sweep and SSLGC's
    label efficiency (Sec. 7 of notebook 20); the times are :func:`table2_times`.
    """
    p = protocol(profile)
    graphs, runs, tuning, mus = {}, [], [], {}
    grid = {"bias": (True, False), "method": METHODS, "definition": ("binary", "multiclass")}
    t_runs = time.perf_counter()
    for name in p.datasets:
        g = gs.load_dataset(name)
        graphs[name] = g
        M = gs.spectral_embedding(g.adjacency, p.d).M
        data = bias_variants(M, BIAS_B, g.labels)
        for bias, method, definition in itertools.product(*grid.values()):
            if method != "GPA":
                mu, table = tuned_mu(method, data(bias)[0], g, p, seed, metric=ERROR_COLUMN[definition])
                mus[mu_key(name, method, bias=bias, definition=definition)] = mu
                tuning.append(table.assign(dataset=name, bias=bias, definition=definition, method=method))
        df = ex.sweep(
            partial(tuned_ovr, mus),
            grid,
            {name: data},
            ex.random_orders(g.n_nodes, p.n_orders, seed),
            seed=seed,
            n_jobs=N_JOBS,
        )
        keys = zip(df.dataset, df.method, df.bias, df.definition, strict=True)
        mu = [mus.get(mu_key(n, m, bias=b, definition=d)) for n, m, b, d in keys]
        mu = pd.Series(mu, index=df.index, dtype=object)  # None for GPA (untuned)
        runs.append(df.assign(mu=mu, error=_error_of(df)))
        if verbose:
            print(f"{name:>9s}: n={g.n_nodes}, K={g.n_classes}, done at {time.perf_counter() - t_runs:.1f} s")
    runs = pd.concat(runs, ignore_index=True)
    tuning = pd.concat(tuning, ignore_index=True)
    assert (runs.groupby(list(Table2.KEYS)).size() == p.n_orders).all()
    full = runs[runs.method != "SSLGC"]  # GPA and OLLGC query every label; SSLGC never more than T
    assert (full.n_queried == full.dataset.map(lambda s: graphs[s].n_nodes)).all()
    assert (runs.binary_n_queried <= runs.n_queried).all()
    res = Table2(p, seed, graphs, runs, tuning)
    res.summary = _summary(runs)
    res.error_vs_published = _error_vs_published(res)
    res.table = _table_layout(res)
    res.which_definition = _which_definition(res)
    res.ttests = _ttests(runs)
    res.mu_sensitivity = _mu_sensitivity(res)
    res.query_match = _query_match(res)
    res.label_efficiency = _label_efficiency(res)
    return res


def _error_of(runs) -> np.ndarray:
    """The reported error of every run: the metric its error definition names (:data:`ERROR_COLUMN`)."""
    return np.select([runs.definition == d for d in ERROR_COLUMN], [runs[c] for c in ERROR_COLUMN.values()])


def _summary(runs):
    keys = list(Table2.KEYS)
    summary = ex.summarize(runs, metrics=["error", "n_queried", "binary_n_queried", "time"], by=keys)
    summary = summary.merge(runs.groupby(keys, sort=False)["mu"].first().reset_index(), on=keys)
    return summary[keys + ["mu"] + [c for c in summary.columns if c not in keys + ["mu"]]]
