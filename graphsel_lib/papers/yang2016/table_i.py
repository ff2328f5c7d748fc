"""Table I of yang2016 (Sec. V-B): the runs, the comparison with the published cells and its figure."""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from functools import partial

import pandas as pd

import graphsel_lib as gs
from graphsel_lib import experiments as ex
from graphsel_lib.collection import plotting
from graphsel_lib.papers.common import (
    N_JOBS,
    STAND_IN,
    Result,
    bias_variants,
    span,
    table_field,
)

from .paper_numbers import (
    BIAS_B,
    LABEL,
    PAPER_NAME,
    PUBLISHED,
    RULE_METHODS,
    SHOWN,
    TOL,
    TOL_OTHER,
)
from .protocols import Protocol, _print, _setting, methods, paper_method, protocol, tuned_key, tuned_learner
from .table_i_checks import (
    _cmog_dgs,
    _error_vs_published,
    _gpa,
    _pub_error,
    _spec_check,
    _table_layout,
    _ttests,
)


def _tuning_columns(tuning: pd.DataFrame) -> pd.DataFrame:
    """The tuning table as written: the configuration, its grid parameters and the metrics."""
    cols = ["dataset", "bias", "method"] + [c for c in ("kappa", "eps", "h") if c in tuning]
    return tuning[cols + ["error_rate", "n_queried"]]


def _tuned_wide(tuned: pd.DataFrame) -> pd.DataFrame:
    """The tuned settings, one row per dataset and bias, one column per tuned method."""
    return (
        tuned[tuned.tuned != "-"]
        .pivot_table(index=["dataset", "bias"], columns="method", values="tuned", aggfunc="first", sort=False)
        .reset_index()
    )


def _counts_as_counts(evp: pd.DataFrame) -> pd.DataFrame:
    """Label counts written as counts, not in the 4-significant-digit format of the errors."""
    return evp.assign(
        **{
            "published #queried": evp["published #queried"].round().astype("Int64"),
            "ours #queried": evp["ours #queried"].map(lambda v: "-" if pd.isna(v) else f"{v:.1f}"),
        }
    )


@dataclass
class Table1(Result):
    """Table I reproduced (yang2016 Sec. V-B): every table of notebook 30, see :func:`table1`."""

    protocol: Protocol
    seed: int
    graphs: dict
    runs: pd.DataFrame  #: one row per dataset, bias, method and order
    #: every grid point on the held-out order
    tuning: pd.DataFrame = table_field(float_format="%.4g", na_rep="-", view=_tuning_columns, required=True)
    #: the chosen setting per dataset, bias, method (written one row per dataset and bias)
    tuned: pd.DataFrame = table_field(view=_tuned_wide, required=True)
    summary: pd.DataFrame = table_field("table1_ours", float_format="%.4f")  #: mean ± std over the orders
    score: dict = field(default_factory=dict)  #: bias -> rule cells within tolerance
    headline_bias: bool = True
    error_vs_published: pd.DataFrame = table_field(float_format="%.4g", na_rep="-", view=_counts_as_counts)
    #: Table I in the paper's layout (headline setting)
    table: pd.DataFrame = table_field("table1", float_format="%.4f", na_rep="-")
    ttests: pd.DataFrame = table_field(float_format="%.4g")
    cmog_dgs: pd.DataFrame = table_field(float_format="%.4f", na_rep="-")
    gpa: pd.DataFrame = table_field(float_format="%.4f", na_rep="-")
    spec_check: pd.DataFrame = table_field(float_format="%.4f")
    PREFIX = "30_yang2016_"

    KEYS = ("dataset", "bias", "method")

    def ours(self, name, bias, method):
        s = self.summary
        return s[(s.dataset == name) & (s.bias == bias) & (s.method == method)].iloc[0]

    @property
    def tuned_wide(self) -> pd.DataFrame:
        return _tuned_wide(self.tuned)

    @property
    def pm_ratio(self) -> pd.Series:
        """sqrt(published "±") / our std, per cell of the headline setting (Sec. 4)."""
        cmp = self.table.dropna(subset=["ours std", "sqrt(published ±)"])
        return cmp["sqrt(published ±)"] / cmp["ours std"].clip(lower=1e-4)

    # ----------------------------------------------------------------- what the notebook shows
    def show_summary(self) -> None:
        s = self.summary
        show = s.assign(
            error=[ex.mean_std(m, sd) for m, sd in zip(s.error_rate_mean, s.error_rate_std, strict=True)],
            queried=[f"{m:.1f} ± {sd:.1f}" for m, sd in zip(s.n_queried_mean, s.n_queried_std, strict=True)],
            time=[f"{m:.3f}" for m in s.time_mean],
        )[[*self.KEYS, "tuned", "error", "queried", "time"]]
        _print(show)

    def headline_note(self) -> str:
        return (
            f"cells within tolerance (BBQ, BBQ_eps, DGS, MSG): without bias {self.score[False]}, with bias "
            f"{self.score[True]} -> headline: {'with' if self.headline_bias else 'without'} the bias feature"
        )

    def verdict_lines(self) -> str:
        """Sec. 10: per cell of the headline setting, ours against the published error; the counts."""
        evp = self.error_vs_published
        head = evp[evp.headline]
        out = []
        for _, r in head.iterrows():
            if r.verdict in ("not available", "not run in this profile", "stand-in"):
                out.append(f"{r.dataset:>26s} {r.method:>8s}: {r.verdict}")
            else:
                out.append(
                    f"{r.dataset:>26s} {r.method:>8s}: ours {r.ours:.4f} vs paper {r.published:.4f} "
                    f"({r.difference:+.4f}, tol {r.tolerance}) -> {r.verdict}; #queried ours "
                    f"{r['ours #queried']:.0f} vs paper {r['published #queried']:g}"
                )
        cmp = head[head.difference.notna()]
        out.append(
            f"\nheadline ({'with' if self.headline_bias else 'without'} bias): "
            f"{int((cmp.difference.abs() <= cmp.tolerance).sum())} of {len(cmp)} comparable error cells within "
            "tolerance"
        )
        other = evp[(evp.bias != self.headline_bias) & (evp.variant == evp.method)]
        other = other[other.difference.notna()]
        out.append(
            f"other setting: {int((other.difference.abs() <= other.tolerance).sum())} of {len(other)} within "
            "tolerance"
        )
        return "\n".join(out)

    @property
    def pm_fits(self) -> bool:
        """The square root of the published "±" is of the size of our std (within a factor 4): a variance."""
        return bool(0.25 < self.pm_ratio.median() < 4)

    def reading_pm(self) -> str:
        """Sec. 4: the published "±" read as variances."""
        r, s = self.pm_ratio, self.summary
        return (
            f'The square root of the published "±" is {r.median():.2f} times our standard deviation in the median '
            f'(from {r.min():.2f} to {r.max():.2f} times over the {len(r)} cells), while the "±" '
            f"itself is {PUBLISHED.error_pm.min():.1e} to {PUBLISHED.error_pm.max():.1e} against our standard "
            f"deviations of {s.error_rate_std.min():.4f} to {s.error_rate_std.max():.4f}: "
            + (
                "read as a variance it fits, read as a standard deviation it does not."
                if self.pm_fits
                else 'in this run the comparison does not settle what the "±" is.'
            )
        )

    def _cd_col(self, col):
        cd = self.cmog_dgs
        return cd.set_index("dataset")[col].dropna() if col in cd else pd.Series(dtype=float)

    @property
    def cmog_pattern(self) -> bool:
        """Sec. 6: Alg. 1 errs more than DGS, one-hot targets close part of the gap, every-round RLS = DGS."""
        tag = "bias" if self.headline_bias else "no bias"
        d1, oh, er = (self._cd_col(f"{m} - DGS ({tag})") for m in ("CMOG", "CMOG onehot", "CMOG every round"))
        return bool((d1 > 0).all() and ((oh > 0) & (oh < d1)).all() and (er.abs() < 0.01).all())

    def reading_cmog_dgs(self) -> str:
        """Sec. 6: the published CMOG = DGS coincidence."""
        hb, cd, tt, pub = self.headline_bias, self.cmog_dgs, self.ttests, _pub_error()

        def _list(s, fmt="{:+.4f}"):
            return ", ".join(f"{k} {fmt.format(v)}" for k, v in s.items())

        def _span(v):
            return span(v.min(), v.max(), "+.4f")

        tag, other_tag = ("bias", "no bias") if hb else ("no bias", "bias")
        d1, oh, er = (self._cd_col(f"{m} - DGS ({tag})") for m in ("CMOG", "CMOG onehot", "CMOG every round"))
        d1_other = self._cd_col(f"CMOG - DGS ({other_tag})")
        pub_gap = cd.set_index("dataset")["published CMOG - DGS"]
        imdb_gap = pub_gap["IMDB"]
        ours_gaps = pd.concat([d1, d1_other])
        head_tt = tt[(tt.bias == hb) & (tt["MSG vs"] == "CMOG") & (tt.dataset != STAND_IN)]
        pattern = self.cmog_pattern
        variant_name = {"CMOG": "Alg. 1 (Definition 1)", "CMOG onehot": "Alg. 1 (one-hot)"}
        gpa_beaten = {
            bias: [
                (SHOWN[n], variant_name.get(m, m))
                for n in self.graphs
                for m in ("CMOG", "CMOG onehot", "CMOG every round")
                if self.ours(n, bias, m).error_rate_mean >= self.ours(n, bias, "GPA").error_rate_mean
            ]
            for bias in (True, False)
        }
        text = (
            f"**Reading** (headline setting, {tag}). CMOG − DGS in our runs: Alg. 1 with Definition-1 targets "
            f"{_list(d1)}; with one-hot targets {_list(oh)}; the every-round RLS {_list(er)} (what is left there "
            f"is DGS's clipping). Published CMOG − DGS: {_list(pub_gap[pub_gap.index != 'IMDB'])}. "
        )
        if pattern:
            text += (
                "So Alg. 1 as written errs more than DGS on every graph, one-hot targets close part of the gap, "
                "and only the every-round RLS lands where DGS lands — which is where the published CMOG is. "
            )
        else:
            text += (
                "In this run the numbers do not show the full-profile pattern (Alg. 1 above DGS, every-round "
                "RLS on it). "
            )
        text += (
            f"On IMDB, where we have no data, the published CMOG ({pub[('IMDB', 'CMOG')]:.4f}) is not DGS "
            f"({pub[('IMDB', 'DGS')]:.4f}) but {imdb_gap:.4f} worse, "
            + ("inside" if ours_gaps.min() <= imdb_gap <= ours_gaps.max() else "outside")
            + f" the range of the gaps between Alg. 1 and DGS in our runs ({_span(d1)} with the headline "
            f"features, {_span(d1_other)} with the other). "
        )
        if pattern:
            text += (
                "Our conclusion: the published CMOG on Coauthor, Cora and PubMed is not Alg. 1 — most likely "
                "the DGS (or a fully supervised RLS) column copied into the CMOG row. "
            )

        def pub_gap_msg(ds):
            return pub[(PAPER_NAME[ds], "MSG")] - pub[(PAPER_NAME[ds], "CMOG")]

        text += (
            'The paper\'s "CMOG improves significantly over GPA" '
            + (
                "holds in our headline setting for every CMOG variant on every graph"
                if not gpa_beaten[hb]
                else "fails in our headline setting for "
                + ", ".join(f"{m} on {n}" for n, m in gpa_beaten[hb])
            )
            + (
                ""
                if not gpa_beaten[not hb]
                else "; in the other setting GPA has a lower mean error than "
                + ", ".join(f"{m} on {n}" for n, m in gpa_beaten[not hb])
            )
            + " (Sec. 3 and 7). MSG − CMOG (Alg. 1), ours against published: "
            + ", ".join(
                f"{SHOWN[r.dataset]} {r['mean diff']:+.4f} against {pub_gap_msg(r.dataset):+.4f}"
                for _, r in head_tt.iterrows()
            )
            + ": MSG's advantage over the real Alg. 1 is "
            + (
                "larger than the paper's table shows"
                if all(r["mean diff"] < pub_gap_msg(r.dataset) for _, r in head_tt.iterrows())
                else "not larger than the paper's table shows on every graph"
            )
            + " (Sec. 5)."
        )
        return text

    def _gpa_reading_parts(self):
        pg = self.gpa.dropna(subset=["published GPA"]).set_index("dataset")
        to_major = pg["majority-class error"] - pg["published GPA"]
        between = bool(
            (to_major > 0).all()
            and (pg["published GPA"] > pg["ours GPA (bias b=1)"]).all()
            and (pg["published GPA"] > pg["ours GPA (no bias)"]).all()
        )
        d_small = min(10, self.protocol.d)
        tried = {
            "$b = 10^4$": pg["ours GPA (b=1e4)"],
            f"$d = {d_small}$": pg[f"ours GPA (d={d_small}, no bias)"],
        }
        reached = {
            k: [SHOWN[n] for n in pg.index if abs(v[n] - pg["published GPA"][n]) <= TOL_OTHER]
            for k, v in tried.items()
        }
        return pg, to_major, between, tried, reached

    @property
    def gpa_between(self) -> bool:
        """Sec. 7: the published GPA lies between ours and the majority-class error on every graph."""
        return self._gpa_reading_parts()[2]

    @property
    def gpa_reached_everywhere(self) -> bool:
        """Sec. 7: some reading we tried (b = 1e4, d = 10) reaches the published GPA on every graph."""
        pg, _, _, _, reached = self._gpa_reading_parts()
        return all(len(v) == len(pg) for v in reached.values())

    def reading_gpa(self) -> str:
        """Sec. 7: the published GPA against trivial predictors and the readings we tried."""
        pg, to_major, between, tried, reached = self._gpa_reading_parts()
        idx = pg.index
        return (
            "Published GPA: "
            + ", ".join(
                f"{SHOWN[n]} {pg['published GPA'][n]:.4f} (majority class {pg['majority-class error'][n]:.4f})"
                for n in idx
            )
            + f": {span(to_major.min(), to_major.max())} below the majority-class error"
            + (", between ours and that trivial level. " if between else ". ")
            + "Ours without the bias: "
            + ", ".join(f"{SHOWN[n]} {pg['ours GPA (no bias)'][n]:.4f}" for n in idx)
            + "; with it: "
            + ", ".join(f"{SHOWN[n]} {pg['ours GPA (bias b=1)'][n]:.4f}" for n in idx)
            + ". The readings we tried: "
            + "; ".join(
                f"{k} gives "
                + ", ".join(f"{SHOWN[n]} {v[n]:.4f}" for n in idx)
                + f", within {TOL_OTHER} of the published GPA on "
                + (", ".join(reached[k]) if reached[k] else "no graph")
                for k, v in tried.items()
            )
            + ". We conclude that the published GPA is not a correct graph perceptron on these features — "
            "possibly a different prediction rule or a bug — and cannot reproduce it; the verdict rows say so."
        )

    def reading(self) -> str:
        """Sec. 10: the summary of the evidence, rendered from the tables."""
        hb, graphs, tt, pub, o = self.headline_bias, self.graphs, self.ttests, _pub_error(), self.ours
        three = [n for n in graphs if n != STAND_IN]
        PQ = PUBLISHED.set_index(["dataset", "method"]).queried
        RLS = ["BBQ", "BBQ_eps", "DGS"]

        def _q(n, m, bias=hb):
            return o(n, bias, m).n_queried_mean

        def _e(n, m, bias=hb):
            return o(n, bias, m).error_rate_mean

        def _d(n, m, bias=hb):
            return _e(n, m, bias) - pub[(PAPER_NAME[n], m)]

        msg_within = {b: [n for n in three if abs(_d(n, "MSG", b)) <= TOL["MSG"]] for b in (True, False)}
        msg_best = [n for n in three if tt[(tt.dataset == n) & (tt.bias == hb)]["MSG better"].all()]
        ratios = [_q(n, m) / graphs[n].n_nodes for n in three for m in ("BBQ", "BBQ_eps")]
        rls_within = [(n, m) for n in three for m in RLS if abs(_d(n, m)) <= TOL_OTHER]
        pm_ratio = self.pm_ratio
        bullets = [
            f"**MSG** is within {TOL['MSG']} of the published error on {len(msg_within[hb])} of {len(three)} "
            "graphs in the headline setting ("
            + ", ".join(f"{SHOWN[n]} {_d(n, 'MSG'):+.4f}" for n in three)
            + f") and on {len(msg_within[not hb])} of {len(three)} in the other; in the headline setting it is "
            f"significantly better than every other method on {', '.join(SHOWN[n] for n in msg_best) or 'none of them'}"
            " (Sec. 5). Its query count depends on the tuned $h$: "
            + "; ".join(
                f"{SHOWN[n]} ({o(n, hb, 'MSG').tuned}) {_q(n, 'MSG'):.0f} against the paper's "
                f"{PQ[(PAPER_NAME[n], 'MSG')]:g} ({_q(n, 'MSG') / PQ[(PAPER_NAME[n], 'MSG')]:.2f} times)"
                for n in three
            )
            + "; in the other setting "
            + ", ".join(f"{SHOWN[n]} ({o(n, not hb, 'MSG').tuned}) {_q(n, 'MSG', not hb):.0f}" for n in three)
            + ". Notebook 32 shows the whole error/query trade-off.",
            f"**BBQ, BBQ$_\\epsilon$, DGS** land within {TOL_OTHER} in {len(rls_within)} of {3 * len(three)} "
            f"cells of the headline setting. Tuned by error they query {min(ratios):.0%} to {max(ratios):.0%} "
            "of the labels: "
            + "; ".join(
                f"{SHOWN[n]}: BBQ {o(n, hb, 'BBQ').tuned} queries {_q(n, 'BBQ') / graphs[n].n_nodes:.0%}, "
                f"BBQ$_\\epsilon$ {o(n, hb, 'BBQ_eps').tuned} {_q(n, 'BBQ_eps') / graphs[n].n_nodes:.0%}"
                for n in three
            )
            + ". The paper's BBQ query counts against ours: "
            + ", ".join(f"{SHOWN[n]} {PQ[(PAPER_NAME[n], 'BBQ')]:g} vs {_q(n, 'BBQ'):.0f}" for n in three)
            + "; BBQ$_\\epsilon$: "
            + ", ".join(
                f"{SHOWN[n]} {PQ[(PAPER_NAME[n], 'BBQ_eps')]:g} vs {_q(n, 'BBQ_eps'):.0f}" for n in three
            )
            + ". Notebook 32 reads our error at the paper's query counts (its Sec. 4) and, as a diagnostic only "
            "(a ridge constant fitted to the published points, not a result), how much a weaker ridge than the "
            "stated $\\gamma = 1$ would move BBQ (its Sec. 5).",
            "**Which feature map.** The RLS baselines (BBQ, BBQ$_\\epsilon$, DGS) minus published, without / "
            "with the bias: "
            + "; ".join(
                f"{SHOWN[n]} {min(_d(n, m, False) for m in RLS):+.4f} to {max(_d(n, m, False) for m in RLS):+.4f}"
                f" / {min(_d(n, m, True) for m in RLS):+.4f} to {max(_d(n, m, True) for m in RLS):+.4f}"
                for n in three
            )
            + ". The paper's text does not let us decide between the two; the headline rule picked "
            f"{'the bias' if hb else 'no bias'} ({self.score[hb]} against {self.score[not hb]} of the "
            f"{4 * len(three)} BBQ, BBQ$_\\epsilon$, DGS and MSG cells within tolerance).",
            "**CMOG** as Alg. 1 does not reproduce the published CMOG; the every-round RLS does (Sec. 6).",
            "**GPA** is not reproducible: the published numbers "
            + ("lie between ours and the majority-class error" if self.gpa_between else "are far from ours")
            + " (Sec. 7).",
            f'**The "±"** {"are variances" if self.pm_fits else "may be variances"}: their square roots are '
            f"{pm_ratio.median():.2f} times our standard deviations in the median (Sec. 4).",
        ]
        if STAND_IN in graphs:
            st = tt[
                (tt.dataset == STAND_IN) & (tt.bias == hb) & tt["MSG vs"].isin(RLS + ["CMOG every round"])
            ]
            worse = st[st["significant (95 %)"] & (st["mean diff"] > 0)]
            bullets.append(
                f"On the **CiteSeer stand-in**, MSG ({_q(STAND_IN, 'MSG') / graphs[STAND_IN].n_nodes:.0%} of the "
                "labels) against the RLS baselines, MSG − other: "
                + ", ".join(f"{r['MSG vs']} {r['mean diff']:+.4f}" for _, r in st.iterrows())
                + f"; significantly worse against {len(worse)} of {len(st)}"
                + (
                    ' — the paper\'s "MSG outperforms all baselines" does not carry over to every graph.'
                    if len(worse)
                    else "."
                )
            )
        return "**Summary of the evidence** (rendered from the tables above).\n\n" + "\n".join(
            f"* {b}" for b in bullets
        )


def table1(profile: str = "full", seed: int = 0, verbose: bool = True) -> Table1:
    """yang2016 Table I (Sec. V-B): tune, run the 20 orders with and without the bias, compare (notebook 30).

    Every dataset and feature setting: each method's free parameter tuned on the held-out order, then
    ``ex.evaluate`` on the random orders (cached on disk). Returns every table notebook 30 shows.
    """
    p = protocol(profile)
    meths = methods(p, variants=True)
    graphs, runs, tuning, tuned, params = {}, [], [], [], {}
    grid = {"bias": (False, True), "method": list(meths)}
    t_runs = time.perf_counter()
    for name in p.datasets:
        g = gs.load_dataset(name)
        graphs[name] = g
        data = bias_variants(gs.spectral_embedding(g.adjacency, p.d).M, BIAS_B, g.labels)
        held_out = ex.tuning_order(g.n_nodes, seed)
        for bias, method in itertools.product(*grid.values()):
            make, method_grid = meths[method]
            prm = {}
            if method_grid:
                prm, table = ex.tune(
                    make, method_grid, data(bias)[0], g.labels, held_out, seed=seed, n_jobs=N_JOBS
                )
                tuning.append(table.assign(dataset=name, bias=bias, method=method))
            params[tuned_key(name, method, bias=bias)] = prm
            tuned.append({"dataset": name, "bias": bias, "method": method, "tuned": _setting(prm)})
        df = ex.sweep(
            partial(tuned_learner, meths, params),
            grid,
            {name: data},
            ex.random_orders(g.n_nodes, p.n_orders, seed),
            seed=seed,
            n_jobs=N_JOBS,
        )
        keys = zip(df.dataset, df.method, df.bias, strict=True)
        runs.append(df.assign(setting=[_setting(params[tuned_key(n, m, bias=b)]) for n, m, b in keys]))
        if verbose:
            print(f"{name:>9s}: n={g.n_nodes}, K={g.n_classes}, done at {time.perf_counter() - t_runs:.1f} s")
    runs = pd.concat(runs, ignore_index=True)
    keys = list(Table1.KEYS)
    assert (runs.groupby(keys).size() == p.n_orders).all()
    n_of = runs.dataset.map(lambda s: graphs[s].n_nodes)
    full_info = runs.method.isin(["GPA", "CMOG", "CMOG onehot", "CMOG every round"])
    assert (runs.n_queried[full_info] == n_of[full_info]).all()  # these query every label
    assert (runs.n_queried <= n_of).all()
    res = Table1(p, seed, graphs, runs, pd.concat(tuning, ignore_index=True), pd.DataFrame(tuned))
    summary = ex.summarize(runs, metrics=["error_rate", "n_queried", "time"], by=keys)
    res.summary = summary.merge(res.tuned, on=keys)
    res.score, res.headline_bias = _headline(res)
    res.gpa = _gpa(res)  # its readings decide whether the published GPA is called not reproducible
    res.error_vs_published = _error_vs_published(res)
    res.table = _table_layout(res)
    res.ttests = _ttests(res)
    res.cmog_dgs = _cmog_dgs(res)
    res.spec_check = _spec_check(res)
    return res


def _headline(res: Table1):
    """The rule of :data:`HEADLINE`: count the BBQ, BBQ_eps, DGS, MSG cells within tolerance per setting."""
    reverse = {v: k for k, v in PAPER_NAME.items() if k != STAND_IN}
    score = {}
    for bias in (False, True):
        hits = 0
        for _, pr in PUBLISHED[PUBLISHED.method.isin(RULE_METHODS)].iterrows():
            name = reverse.get(pr.dataset)
            if name in res.graphs:
                diff = res.ours(name, bias, pr.method).error_rate_mean - pr.error
                hits += abs(diff) <= TOL.get(pr.method, TOL_OTHER)
        score[bias] = int(hits)
    return score, score[True] >= score[False]


def draw_table1(res: Table1):
    """Table I as a figure: error per method (filled: bias, open: none), query ratio; published in black."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    show = ["GPA", "BBQ", "BBQ_eps", "DGS", "CMOG", "CMOG onehot", "CMOG every round", "MSG"]
    names, graphs = list(res.graphs), res.graphs
    fig, axes = plotting.subplots(2, len(names), size=(7.0, 6.2), squeeze=False, sharey="row")
    for j, name in enumerate(names):
        ax, axq = axes[0, j], axes[1, j]
        for i, m in enumerate(show):
            st = plotting.algorithm_style(paper_method(m))
            for bias, dx in ((True, -0.15), (False, 0.15)):
                s = res.ours(name, bias, m)
                ax.errorbar(
                    i + dx,
                    s.error_rate_mean,
                    yerr=s.error_rate_std,
                    marker=st["marker"],
                    color=st["color"],
                    markerfacecolor=st["color"] if bias else "white",
                    linestyle="none",
                    capsize=1.5,
                )
            s = res.ours(name, res.headline_bias, m)
            axq.bar(i - 0.2, s.n_queried_mean / graphs[name].n_nodes, width=0.4, color=st["color"])
            if name != STAND_IN and m == paper_method(m):
                pr = PUBLISHED[(PUBLISHED.dataset == PAPER_NAME[name]) & (PUBLISHED.method == m)].iloc[0]
                ax.hlines(pr.error, i - 0.35, i + 0.35, color="black", linewidth=1.6)
                axq.bar(i + 0.2, pr.queried / graphs[name].n_nodes, width=0.4, color="black")
        ax.set_title(SHOWN[name] + ("\n(IMDB stand-in)" if name == STAND_IN else ""))
        for a in (ax, axq):
            a.set_xticks(range(len(show)), [LABEL.get(m, m) for m in show], rotation=90, fontsize=6)
            a.set_xlim(-0.6, len(show) - 0.4)
    axes[0, 0].set_ylabel("error rate")
    axes[1, 0].set_ylabel("#queried / n")
    axes[1, 0].set_ylim(0, 1.05)
    handles = [
        Line2D([], [], marker="o", color="0.3", linestyle="none", label="ours, bias b=1"),
        Line2D(
            [], [], marker="o", color="0.3", markerfacecolor="white", linestyle="none", label="ours, no bias"
        ),
        Line2D([], [], color="black", linewidth=1.6, label="yang2016 Table I"),
        Patch(color="black", label="yang2016 #queried / n"),
    ]
    fig.legend(handles=handles, loc="outside upper center", ncol=4)
    return fig
