"""gu2013, "Selective sampling on graphs for classification" (KDD 2013): Table 2 and Figs. 1-3 (Sec. 6).

The published numbers as data (:data:`PUBLISHED`, Table 2; the axes of Figs. 1-3), the protocol and its
grids (:func:`protocol`), the headline reading (:data:`HEADLINE`: mean binary error with the bias
feature), the learners and their tuning (:func:`make_ovr`, :func:`tuned_mu`), one function per table or
figure that returns its data (:func:`table2`, :func:`fig1`, :func:`fig2`, :func:`fig3`) and the figures
(:func:`draw_table2`, :func:`draw_fig1`, :func:`draw_fig2`, :func:`draw_fig3`). Notebooks 20-23 explain
the protocol and the results and call these. Each result object writes its tables (``.write()``) under
the names the notebooks always used (``figures/20_gu2013_*`` ...) and renders its reading
(``.reading*()``, Markdown).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd

import graphsel_lib as gs
from graphsel_lib import experiments as ex
from graphsel_lib.collection import plotting, scorecard
from graphsel_lib.collection.tables import write_table
from graphsel_lib.online import GPA, OLLGC, SSLGC, OneVsRest, RandomSampling, run
from graphsel_lib.papers.common import (
    IMDB_PAPER_NAME,
    N_JOBS,
    N_PUBLISHED,
    STAND_IN,
    ProfileProtocol,
    is_smoke,
    judge_at_budget,
    span,
)

__all__ = [
    "BIAS_B",
    "CONFIGS",
    "FIG1_AXES",
    "FIG2_ERROR_AXES",
    "FIG3_AXES",
    "HEADLINE",
    "KAPPA",
    "MAX_EXCESS",
    "MAX_RATIO",
    "METHODS",
    "PAPER_NAME",
    "PUBLISHED",
    "PUBLISHED_MACHINE",
    "Q_CLOSE",
    "STAND_IN",
    "TOL",
    "Fig1",
    "Fig2",
    "Fig3",
    "GpaOffsets",
    "Headline",
    "Protocol",
    "Table2",
    "check_definitions",
    "check_query_rule",
    "draw_fig1",
    "draw_fig2",
    "draw_fig3",
    "draw_table2",
    "features",
    "at_budget",
    "at_budget_verdicts",
    "fig1",
    "fig2",
    "fig3",
    "gpa_offsets",
    "make_ovr",
    "protocol",
    "published",
    "table2",
    "table2_times",
    "time_span",
    "tuned_mu",
]

# --------------------------------------------------------------------------- the data sets
PAPER_NAME = IMDB_PAPER_NAME  #: our data set -> the paper's name (CiteSeer stands in for IMDB)
#: The paper's name -> our data set, for the three graphs we have.
OURS_NAME = {v: k for k, v in PAPER_NAME.items() if k != STAND_IN}

# --------------------------------------------------------------------------- the published numbers
nan = np.nan
#: gu2013 Table 2 (Sec. 6.5), typed in from the paper: error, #queried and time (s), each mean and std over
#: 20 orders. GPA and OLLGC query every node, so their "#queried" is n without a standard deviation.
PUBLISHED = pd.DataFrame(
    [  # dataset, method, error, std, #queried, std, time (s), std
        ("Coauthor", "GPA", 0.2326, 0.0048, 1711, nan, 0.0104, 0.0012),
        ("Coauthor", "OLLGC", 0.1838, 0.0032, 1711, nan, 0.1273, 0.0087),
        ("Coauthor", "SSLGC", 0.1854, 0.0031, 1275.30, 21.91, 0.1215, 0.0181),
        ("Cora", "GPA", 0.1169, 0.0022, 2485, nan, 0.0135, 0.0009),
        ("Cora", "OLLGC", 0.0758, 0.0013, 2485, nan, 0.0929, 0.0035),
        ("Cora", "SSLGC", 0.0832, 0.0019, 1525.48, 19.32, 0.0821, 0.0061),
        ("IMDB", "GPA", 0.3362, 0.0025, 17046, nan, 0.1228, 0.0048),
        ("IMDB", "OLLGC", 0.2735, 0.0038, 17046, nan, 1.7451, 0.1141),
        ("IMDB", "SSLGC", 0.2709, 0.0064, 3453.55, 91.32, 0.6072, 0.0153),
        ("PubMed", "GPA", 0.2256, 0.0025, 19717, nan, 0.1363, 0.0128),
        ("PubMed", "OLLGC", 0.1804, 0.0014, 19717, nan, 1.4813, 0.1104),
        ("PubMed", "SSLGC", 0.1720, 0.0050, 5298.55, 186.91, 0.7646, 0.0197),
    ],
    columns=["dataset", "method", "error", "error_std", "queried", "queried_std", "time", "time_std"],
)
PUBLISHED_MACHINE = "Matlab, Intel Core i5 3.20G CPU, 48GB RAM"  #: gu2013 Sec. 6 (the times of Table 2)
#: gu2013 Fig. 1 (Cora, Sec. 6.4): the ranges of its linear axes (the figure gives no numbers).
FIG1_AXES = {"error rate": (0.06, 0.18), "time (s)": (0, 30)}
#: gu2013 Fig. 2 (a), (b) (Sec. 6.5): the ranges of its error axes.
FIG2_ERROR_AXES = {"IMDB": (0.25, 0.4), "PubMed": (0.15, 0.25)}
#: gu2013 Fig. 3 (Sec. 6.6): the first and last tick labels of its axes (no numbers are published for the curves).
FIG3_AXES = {
    "Coauthor": {"ratio": (0.4, 0.9), "error": (0.15, 0.25)},
    "Cora": {"ratio": (0.1, 0.9), "error": (0.05, 0.2)},
    "IMDB": {"ratio": (0.1, 0.9), "error": (0.25, 0.4)},
    "PubMed": {"ratio": (0.1, 0.9), "error": (0.15, 0.25)},
}


def published(dataset: str, method: str) -> tuple[float, float, float]:
    """(error, #queried, time in s) of Table 2 for the paper's ``dataset`` and ``method``."""
    r = PUBLISHED[(PUBLISHED.dataset == dataset) & (PUBLISHED.method == method)].iloc[0]
    return float(r.error), float(r.queried), float(r.time)


# --------------------------------------------------------------------------- our rules
#: Our tolerance on a mean error (notebook 20 Sec. 4): a few published stds on Cora and PubMed, more on
#: Coauthor, a graph we rebuild from the public DBLP four-area data.
TOL = {"coauthor": 0.03, "cora": 0.015, "pubmed": 0.015}
Q_CLOSE = 0.10  #: a query count within 10 % of the published mean is "close" (no tolerance is set)
MAX_RATIO, MAX_EXCESS = 0.80, 0.01  #: "comparable while querying fewer": ratio <= 0.8, error <= OLLGC + 0.01
KAPPA = 0.4  #: SSLGC's query exponent in Table 2 and Figs. 1-2 (gu2013 fixes 0.4)
BIAS_B = 1.0  #: the constant feature sqrt(b) of ``gs.add_bias``
METHODS = ["GPA", "OLLGC", "SSLGC"]
#: (bias, error definition) of the four configurations notebook 20 runs.
CONFIGS = [(True, "binary"), (False, "binary"), (True, "multiclass"), (False, "multiclass")]
ERROR_COLUMN = {"binary": "binary_error_rate", "multiclass": "error_rate"}


@dataclass(frozen=True)
class Headline:
    """The reading of Table 2 that notebooks 20-23 report (notebook 20 Sec. 5 finds it on the published scale)."""

    bias: bool
    bias_b: float
    definition: str
    queried: str
    reason: str


#: The headline reading: one-vs-rest, mean binary error, rank-d features with the constant feature.
HEADLINE = Headline(
    bias=True,
    bias_b=BIAS_B,
    definition="binary",
    queried="mean over the K binary learners of their query counts (trace.binary_n_queried)",
    reason=(
        "gu2013 does not say which error or query count of its one-vs-rest learners Table 2 reports, nor "
        "whether a constant feature is appended; of the four (definition, bias) configurations, the mean "
        "binary error with the bias lands closest to the published errors (notebook 20 Sec. 5, asserted "
        "under the full profile), and the mean per-learner query count closest to the published counts"
    ),
)

# --------------------------------------------------------------------------- the protocol (Sec. 6.3)


@dataclass(frozen=True)
class Protocol(ProfileProtocol):
    """Sizes and grids of one profile (gu2013 Sec. 6.3-6.6; ``smoke`` shrinks everything to run in seconds)."""

    datasets: tuple  #: Table 2 (CiteSeer stands in for IMDB)
    d: int  #: rank of the spectral features (gu2013: d = 100)
    n_orders: int  #: random node orders (gu2013: 20)
    mu_grid: tuple  #: OLLGC and SSLGC's mu, tuned on the held-out order
    ranks: tuple  #: Fig. 1 (Cora; the paper's grid of d)
    fig2_datasets: tuple  #: Fig. 2 (CiteSeer for IMDB, PubMed)
    fig3_datasets: tuple  #: Fig. 3 (the paper's panel order)
    kappas: tuple  #: Fig. 3 (the paper's grid of kappa)
    timing_orders: int  #: Table 2 times: orders timed alone
    repeats: int  #: Table 2 times: passes per order (the fastest is kept)


def protocol(profile: str = "full") -> Protocol:
    """The protocol of ``profile`` (``"full"``: the paper's sizes; ``"smoke"``: Cora only, tiny grids)."""
    if is_smoke(profile):
        return Protocol(
            profile, ("cora",), 20, 2, (0.1, 1.0), (10, 20), ("cora",), ("cora",), (0.2, 0.6, 1.0), 2, 2
        )
    return Protocol(
        profile,
        ("coauthor", "cora", "pubmed", STAND_IN),
        100,
        20,
        (1e-3, 1e-2, 1e-1, 1.0, 10.0),
        (10, 50, 100, 250, 500, 750, 1000),
        (STAND_IN, "pubmed"),
        ("coauthor", "cora", STAND_IN, "pubmed"),
        tuple(round(0.1 * i, 1) for i in range(1, 11)),
        5,
        20,
    )


def make_ovr(method: str, mu=None, kappa: float = KAPPA):
    """A fresh one-vs-rest GPA, OLLGC (Alg. 1) or SSLGC (Alg. 2) learner (picklable for joblib)."""
    if method == "GPA":
        return OneVsRest(GPA)
    if method == "OLLGC":
        return OneVsRest(partial(OLLGC, mu=mu))
    return OneVsRest(partial(SSLGC, mu=mu, kappa=kappa))


def _make_random(p):
    return OneVsRest(partial(RandomSampling, p=p))


def features(g, d: int, bias: bool = HEADLINE.bias):
    """Rank-d spectral features m_t of ``g`` (gu2013 Sec. 4.2), with the constant feature when ``bias``."""
    M = gs.spectral_embedding(g.adjacency, d).M
    return gs.add_bias(M, BIAS_B) if bias else M


def tuned_mu(method, X, g, p: Protocol, seed=0, metric="binary_error_rate", kappa=KAPPA):
    """mu with the lowest ``metric`` on the held-out order ``ex.tuning_order`` (Sec. 6.3; cached) and the table."""
    best, table = ex.tune(
        partial(make_ovr, method, kappa=kappa),
        {"mu": list(p.mu_grid)},
        X,
        g.labels,
        ex.tuning_order(g.n_nodes, seed),
        metric=metric,
        seed=seed,
        n_jobs=N_JOBS,
    )
    return best["mu"], table


def _print(df, width=250, fmt="%.4f", **kw):
    with pd.option_context("display.width", width, "display.max_colwidth", kw.pop("colwidth", 50)):
        print(df.to_string(index=False, float_format=lambda x: fmt % x, **kw))


def _listing(names):
    return ", ".join(names) if names else "no graph"


# =========================================================================== Table 2 (notebook 20)


def check_definitions(profile: str = "full", seed: int = 0) -> str:
    """Notebook 20 Sec. 1 on Cora: M 1 = 0, the kernel with the bias, and the two errors and counts.

    Checks that ``binary_error_rate``, ``n_queried`` and ``binary_n_queried`` are the formulas of the
    notebook, recomputed from the recorded per-learner predictions and queries of an SSLGC run, and that
    without the bias every w_k of a GPA pass sums to 0 over the graph.
    """
    p = protocol(profile)
    g0 = gs.load_dataset("cora")
    M0 = gs.spectral_embedding(g0.adjacency, p.d).M
    X0 = gs.add_bias(M0, BIAS_B)
    ones = np.ones(g0.n_nodes)
    assert np.allclose(M0 @ ones, 0, atol=1e-9)  # M 1 = 0
    assert np.allclose(X0.T @ X0, M0.T @ M0 + BIAS_B * np.outer(ones, ones))  # kernel L+_d + b 11^T
    tr = run(OneVsRest(partial(SSLGC, mu=1.0, kappa=KAPPA)), X0, g0.labels, seed=seed)
    K = g0.n_classes
    bp, bq = tr.records["binary_predictions"], tr.records["binary_queried"]  # (T, K) each
    target = np.where(tr.labels[:, None] == np.arange(K), 1, -1)
    assert np.isclose(tr.binary_error_rate, np.mean([(bp[:, k] != target[:, k]).mean() for k in range(K)]))
    assert np.isclose(tr.error_rate, np.mean(tr.scores.argmax(1) != tr.labels))  # argmax rule
    assert tr.n_queried == bq.any(axis=1).sum()
    assert np.isclose(tr.binary_n_queried, bq.sum(axis=0).mean())
    assert tr.binary_n_queried <= tr.n_queried <= g0.n_nodes
    assert tr.binary_error_rate < tr.error_rate  # the mean binary error is the smaller one (Sec. 1)
    ovr = OneVsRest(GPA)
    run(ovr, M0, g0.labels, seed=seed)
    col_sums = ovr.stack.W @ M0 @ ones  # zero-mean scores without the bias
    assert np.allclose(col_sums, 0, atol=1e-8)
    return (
        f"Cora, SSLGC(mu=1) with bias, one order: multiclass error {tr.error_rate:.4f}, "
        f"mean binary error {tr.binary_error_rate:.4f}; queried by any learner {tr.n_queried}, "
        f"mean per learner {tr.binary_n_queried:.1f} (T = {g0.n_nodes})\n"
        f"sum over all nodes of w_k^T m_t without bias: {np.round(col_sums, 10)}"
    )


def _reason_for(bias, definition, within):
    if within:
        return "within tolerance"
    if definition == "multiclass":
        return "different quantity: the K-way argmax error, not the published (mean binary) scale"
    if not bias:
        return "no bias feature: zero-mean scores cannot learn the class prior (Sec. 1)"
    return "target configuration misses: see Sec. 7 (mu sensitivity)"


@dataclass
class Table2:
    """Table 2 reproduced (gu2013 Sec. 6.5): every table of notebook 20, see :func:`table2`."""

    protocol: Protocol
    seed: int
    graphs: dict
    runs: pd.DataFrame  #: one row per dataset, bias, definition, method and order
    tuning: pd.DataFrame  #: every mu of the grid on the held-out order
    summary: pd.DataFrame = None  #: mean ± std over the orders of every configuration
    error_vs_published: pd.DataFrame = None  #: every configuration against every published error
    table: pd.DataFrame = None  #: Table 2 in the paper's layout (headline configuration)
    which_definition: pd.DataFrame = None  #: per configuration, the distance to the published errors
    ttests: pd.DataFrame = None  #: paired t-tests per dataset and configuration
    mu_sensitivity: pd.DataFrame = None  #: OLLGC and SSLGC at every mu (diagnostic)
    query_match: pd.DataFrame = None  #: the mu whose SSLGC count is nearest the paper's (diagnostic)
    label_efficiency: pd.DataFrame = None  #: SSLGC's "comparable while querying fewer", made concrete
    times: pd.DataFrame = None  #: set by :func:`table2_times`
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

    def write(self) -> None:
        """Write the tables ``figures/20_gu2013_*`` (or the smoke profile's folder)."""
        cols = [
            "dataset",
            "bias",
            "definition",
            "method",
            "mu",
            "error_rate",
            "binary_error_rate",
            "n_queried",
        ]
        write_table(self.tuning[cols + ["binary_n_queried"]], "20_gu2013_tuning", float_format="%.4f")
        write_table(self.summary, "20_gu2013_table2_ours", float_format="%.4f", na_rep="-")
        write_table(
            self.error_vs_published,
            "20_gu2013_error_vs_published",
            na_rep="-",
            float_format={c: "%.4f" for c in ["published", "ours", "ours std", "difference", "tolerance"]}
            | {"mu": "%g"},
        )
        write_table(self.table, "20_gu2013_table2", na_rep="-", float_format={"mu": "%g"})
        write_table(self.which_definition, "20_gu2013_which_definition", float_format="%.4f")
        write_table(
            self.ttests,
            "20_gu2013_ttests",
            float_format={"mean diff (a-b)": "%.4f", "t": "%.2f", "p": "%.2e"},
        )
        write_table(self.mu_sensitivity, "20_gu2013_mu_sensitivity", float_format="%.4f")
        write_table(self.query_match, "20_gu2013_sslgc_query_match", float_format="%.4g")
        write_table(self.label_efficiency, "20_gu2013_sslgc_label_efficiency", float_format="%.4f")
        if self.times is not None:
            write_table(self.times, "20_gu2013_times", float_format="%.4f")

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
    graphs, runs, tuning = {}, [], []
    t_runs = time.perf_counter()
    for name in p.datasets:
        g = gs.load_dataset(name)
        graphs[name] = g
        M = gs.spectral_embedding(g.adjacency, p.d).M
        orders = ex.random_orders(g.n_nodes, p.n_orders, seed)
        for bias in (True, False):
            X = gs.add_bias(M, BIAS_B) if bias else M
            for method in METHODS:
                for definition in ("binary", "multiclass"):
                    mu = None
                    if method != "GPA":
                        mu, table = tuned_mu(method, X, g, p, seed, metric=ERROR_COLUMN[definition])
                        tuning.append(
                            table.assign(dataset=name, bias=bias, definition=definition, method=method)
                        )
                    df = ex.evaluate(
                        partial(make_ovr, method, mu),
                        X,
                        g.labels,
                        orders,
                        seed=seed,
                        method=method,
                        n_jobs=N_JOBS,
                    )
                    runs.append(
                        df.assign(
                            dataset=name,
                            bias=bias,
                            definition=definition,
                            mu=mu,
                            error=df[ERROR_COLUMN[definition]],
                        )
                    )
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


def _summary(runs):
    keys = list(Table2.KEYS)
    summary = ex.summarize(runs, metrics=["error", "n_queried", "binary_n_queried", "time"], by=keys)
    summary = summary.merge(runs.groupby(keys, sort=False)["mu"].first().reset_index(), on=keys)
    return summary[keys + ["mu"] + [c for c in summary.columns if c not in keys + ["mu"]]]


#: The note of every CiteSeer row (the scorecard's words for a stand-in).
STAND_IN_NOTE = scorecard.STAND_IN_WORDS + ": CiteSeer for IMDB (not available to us)"
IMDB_NOTE = "IMDB is not available to us (notebook 00)"
#: The note of a headline SSLGC run whose label count misses the published by more than 25 %.
OWN_COUNT_NOTE = (
    "diagnostic (error@tuned), outside the tally: the run at the label count its held-out tuning gave; "
    "the headline error is judged at the published budget (20_gu2013_at_budget)"
)


def _verdict(res: Table2, p, s, bias, definition):
    """The scorecard's verdict of our summary row ``s`` against the published row ``p`` (z with both spreads)."""
    name = OURS_NAME[p.dataset]
    ratio = s.binary_n_queried_mean / p.queried if p.method == "SSLGC" else None
    headline = (bias, definition) == (HEADLINE.bias, HEADLINE.definition)
    return scorecard.error_verdict(s.error_mean - p.error, TOL[name], s.error_std, res.protocol.n_orders,
                                   p.error_std, N_PUBLISHED, budget_ratio=ratio, headline=headline)  # fmt: skip


def _error_vs_published(res: Table2) -> pd.DataFrame:
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


def _table_layout(res: Table2) -> pd.DataFrame:
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


def _which_definition(res: Table2) -> pd.DataFrame:
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


def _mu_sensitivity(res: Table2) -> pd.DataFrame:
    p, sens = res.protocol, []
    for name, g in res.graphs.items():
        X = features(g, p.d)
        orders = ex.random_orders(g.n_nodes, p.n_orders, res.seed)
        for method in ("OLLGC", "SSLGC"):
            for mu in p.mu_grid:
                df = ex.evaluate(
                    partial(make_ovr, method, mu),
                    X,
                    g.labels,
                    orders,
                    seed=res.seed,
                    method=method,
                    n_jobs=N_JOBS,
                )
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
                        "query ratio (mean/learner)": df.binary_n_queried.mean() / g.n_nodes,
                    }
                )
    return pd.DataFrame(sens)


def _query_match(res: Table2) -> pd.DataFrame:
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


def _label_efficiency(res: Table2) -> pd.DataFrame:
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


def _timed_alone(res: Table2, name, method):
    """Seconds per pass at the target configuration: per order the fastest of ``repeats``, median over orders."""
    p, g = res.protocol, res.graphs[name]
    X = features(g, p.d)
    mu = None if method == "GPA" else res.target(name, method).mu
    fastest = [
        min(run(make_ovr(method, mu), X, g.labels, order=order, seed=res.seed).time for _ in range(p.repeats))
        for order in ex.random_orders(g.n_nodes, p.n_orders, res.seed)[: p.timing_orders]
    ]
    return float(np.median(fastest))


def table2_times(res: Table2) -> pd.DataFrame:
    """Table 2's times (Sec. 6.5): ours (mean, fastest order, timed alone) against the paper's; sets ``res.times``.

    Timed alone: the first ``timing_orders`` orders played one at a time in this process, each pass repeated
    ``repeats`` times and its fastest repeat kept, then the median over the orders.
    """
    rows, runs = [], res.runs
    for _, p in PUBLISHED.iterrows():
        name = OURS_NAME.get(p.dataset)
        if name is None or name not in res.graphs:
            continue
        s = res.target(name, p.method)
        fastest = runs[
            (runs.dataset == name) & runs.bias & (runs.definition == "binary") & (runs.method == p.method)
        ].time.min()
        rows.append(
            {
                "dataset": p.dataset,
                "method": p.method,
                "time paper (s)": p.time,
                "paper std": p.time_std,
                "time ours (s)": s.time_mean,
                "ours std": s.time_std,
                "ours fastest order (s)": fastest,
                "ours timed alone (s)": _timed_alone(res, name, p.method),
                "orders timed alone": res.protocol.timing_orders,
                "ours / paper": s.time_mean / p.time,
            }
        )
    res.times = pd.DataFrame(rows)
    return res.times


@dataclass
class GpaOffsets:
    """Why GPA's multiclass error is higher with the bias (notebook 20 Sec. 5): the offsets c_{k,t} on Cora."""

    multiclass: pd.DataFrame  #: GPA's multiclass error per dataset, with and without the bias
    offsets: list  #: the values the offsets take in the Cora pass
    offset_spread: float  #: median spread of the K offsets over the rounds
    graph_size: float  #: median |graph part of a score|
    argmax_changed: float  #: share of rounds whose argmax the offsets change
    err_graph_part: float  #: multiclass error of the argmax of the graph part alone
    error: float  #: multiclass error with the offsets
    error_nobias: float  #: multiclass error without the bias feature
    binary: float  #: mean binary error with the bias
    binary_nobias: float  #: mean binary error without

    @property
    def bias_hurts(self) -> pd.Series:
        return self.multiclass["multiclass error, bias"] > self.multiclass["multiclass error, no bias"]

    def report(self) -> str:
        return (
            self.multiclass.to_string(float_format="%.4f")
            + f"\n\nCora, GPA, one order: offsets take the values {self.offsets}; median spread of the "
            f"K offsets {self.offset_spread:.3f}, median |graph part of a score| {self.graph_size:.4f}\n"
            f"argmax changed by the offsets in {self.argmax_changed:.1%} of the rounds; multiclass error "
            f"{self.error:.4f} (with offsets), {self.err_graph_part:.4f} (argmax of the graph part alone), "
            f"{self.error_nobias:.4f} (no bias feature)\n"
            f"mean binary error {self.binary:.4f} with the bias, {self.binary_nobias:.4f} without"
        )

    def reading(self) -> str:
        hurts = self.bias_hurts
        hurt = [n for n in self.multiclass.index if hurts[n]]
        return (
            "GPA's multiclass error is higher with the bias on "
            + (
                "every graph"
                if hurts.all()
                else f"{', '.join(hurt) or 'no graph'} (of {', '.join(self.multiclass.index)})"
            )
            + ". In the Cora pass the offsets differ between the learners by "
            f"{self.offset_spread:g} in the median round, while the part of a score that comes from the graph "
            f"features has a median size of {self.graph_size:.3f}: the offsets "
            + ("dominate" if self.offset_spread > 2 * self.graph_size else "do not dominate")
            + f" the argmax, which they change in {self.argmax_changed:.0%} of the rounds. The argmax of the "
            f"graph part alone would err {self.err_graph_part:.4f}, against {self.error:.4f} with the offsets "
            f"and {self.error_nobias:.4f} without the bias feature. The mean binary error only compares "
            "each learner's own score with 0, and there the offset helps: "
            f"{self.binary:.4f} with the bias against {self.binary_nobias:.4f} without."
        )


def gpa_offsets(res: Table2) -> GpaOffsets:
    """Replay one Cora GPA pass with the bias and rebuild the offsets c_{k,t} from the recorded binary mistakes.

    On a mistake learner k adds y^(k)_t x_t: its bias weight moves by y^(k)_t sqrt(b), its offset by y^(k)_t b.
    """
    s, seed = res.summary, res.seed
    gpa_multi = s[(s.method == "GPA") & (s.definition == "multiclass")].pivot(
        index="dataset", columns="bias", values="error_mean"
    )
    gpa_multi.columns = ["multiclass error, " + ("bias" if b else "no bias") for b in gpa_multi.columns]
    gpa_multi = gpa_multi[["multiclass error, bias", "multiclass error, no bias"]]
    g0 = gs.load_dataset("cora")
    M0 = gs.spectral_embedding(g0.adjacency, res.protocol.d).M
    X0, K = gs.add_bias(M0, BIAS_B), g0.n_classes
    ovr = OneVsRest(GPA)
    tr = run(ovr, X0, g0.labels, seed=seed)
    target = np.where(tr.labels[:, None] == np.arange(K), 1, -1)
    step = np.where(tr.records["binary_predictions"] != target, target, 0) * BIAS_B
    offset = np.vstack([np.zeros(K), np.cumsum(step, axis=0)[:-1]])  # c_{k,t}, before the update of round t
    assert np.allclose(offset[-1] + step[-1], ovr.stack.W[:, -1] * np.sqrt(BIAS_B))  # the final bias weights
    graph_part = tr.scores - offset
    tr_nobias = run(OneVsRest(GPA), M0, g0.labels, seed=seed)
    return GpaOffsets(
        multiclass=gpa_multi,
        offsets=np.unique(offset).tolist(),
        offset_spread=np.median(offset.max(1) - offset.min(1)),
        graph_size=np.median(np.abs(graph_part)),
        argmax_changed=np.mean(graph_part.argmax(1) != tr.scores.argmax(1)),
        err_graph_part=np.mean(graph_part.argmax(1) != tr.labels),
        error=tr.error_rate,
        error_nobias=tr_nobias.error_rate,
        binary=tr.binary_error_rate,
        binary_nobias=tr_nobias.binary_error_rate,
    )


_CONFIG_STYLE = {
    (True, "binary"): ("o", "binary, bias"),
    (False, "binary"): ("s", "binary, no bias"),
    (True, "multiclass"): ("^", "multiclass, bias"),
    (False, "multiclass"): ("v", "multiclass, no bias"),
}


def draw_table2(res: Table2):
    """Table 2 as a figure: errors of every configuration, SSLGC's query ratio, and the times (log scale).

    Top row: the error per dataset for the four configurations (marker = configuration, filled = bias) with
    the published mean as a black bar; bottom left: SSLGC's query ratio, both counts, with the published
    ratio; bottom right: time per pass, ours (headline configuration) and the paper's (open markers).
    """
    from matplotlib.lines import Line2D

    graphs = res.graphs
    published_by = {(r.dataset, r.method): r for r in PUBLISHED.itertuples()}
    names = list(graphs)
    fig, ax0 = plotting.subplots(size=(7.0, 5.9))
    ax0.remove()
    sf_top, sf_bottom = fig.subfigures(2, 1, height_ratios=[1.15, 1.0])
    top = sf_top.subplots(1, max(len(names), 2), squeeze=False)[0]
    ax_q, ax_t = sf_bottom.subplots(1, 2)
    for ax in top[len(names) :]:
        ax.set_visible(False)
    for j, name in enumerate(names):
        ax = top[j]
        for i, method in enumerate(METHODS):
            color = plotting.algorithm_style(method)["color"]
            for c, (cfg, (marker, _)) in enumerate(_CONFIG_STYLE.items()):
                s = res.ours(name, cfg[0], cfg[1], method)
                ax.errorbar(
                    i + (c - 1.5) * 0.17,
                    s.error_mean,
                    yerr=s.error_std,
                    marker=marker,
                    color=color,
                    markerfacecolor=color if cfg[0] else "white",
                    linestyle="none",
                    capsize=1.5,
                )
            p = published_by.get((PAPER_NAME[name], method)) if name != STAND_IN else None
            if p is not None:
                ax.hlines(p.error, i - 0.4, i + 0.4, color="black", linewidth=1.6)
        ax.set_xticks(range(len(METHODS)), METHODS, fontsize=6.5)
        ax.set_xlim(-0.6, len(METHODS) - 0.4)
        ax.set_title(f"{name}" + ("\n(IMDB stand-in)" if name == STAND_IN else ""))
        ax.set_xlabel("method", fontsize=7.5)
        ax.set_ylabel("error rate", fontsize=7.5)
        ax.tick_params(axis="y", labelsize=7)
    handles = [
        Line2D(
            [],
            [],
            marker=m,
            color="0.3",
            linestyle="none",
            label=lab,
            markerfacecolor="0.3" if cfg[0] else "white",
        )
        for cfg, (m, lab) in _CONFIG_STYLE.items()
    ]
    handles.append(Line2D([], [], color="black", linewidth=1.6, label="gu2013 Table 2"))
    sf_top.legend(handles=handles, loc="outside upper center", ncol=5)

    x = np.arange(len(names))
    for k, (col, lab) in enumerate(
        [("binary_n_queried_mean", "ours: mean per learner"), ("n_queried_mean", "ours: any learner")]
    ):
        vals = [res.target(n, "SSLGC")[col] / graphs[n].n_nodes for n in names]
        ax_q.bar(
            x + (k - 1) * 0.27,
            vals,
            width=0.27,
            color=plotting.algorithm_style("SSLGC")["color"],
            alpha=1.0 if k == 0 else 0.45,
            label=lab,
        )
    pub_ratio = [
        published_by[(PAPER_NAME[n], "SSLGC")].queried / graphs[n].n_nodes if n != STAND_IN else np.nan
        for n in names
    ]
    ax_q.bar(x + 0.27, pub_ratio, width=0.27, color="black", label="gu2013")
    ax_q.set_xticks(x, names)
    ax_q.set_xlabel("dataset")
    ax_q.set_ylim(0, 1.35)
    ax_q.set_yticks(np.linspace(0, 1, 6))
    ax_q.set_ylabel("SSLGC queried / n")
    ax_q.legend(loc="upper center", ncol=2, fontsize=6.5)

    for i, method in enumerate(METHODS):
        st = plotting.algorithm_style(method)
        xs = x + (i - 1) * 0.2
        ours = [res.target(n, method).time_mean for n in names]
        ax_t.plot(xs, ours, marker=st["marker"], color=st["color"], linestyle="none")
        paper = [published_by[(PAPER_NAME[n], method)].time if n != STAND_IN else np.nan for n in names]
        ax_t.plot(
            xs,
            paper,
            marker=st["marker"],
            color=st["color"],
            markerfacecolor="none",
            markersize=7,
            linestyle="none",
        )
    ax_t.set_yscale("log")
    fastest = min(res.target(n, m).time_mean for n in names for m in METHODS)
    ax_t.set_ylim(min(4e-3, fastest / 2), 200)  # every point visible, however fast a pass of ours
    ax_t.set_xticks(x, names)
    ax_t.set_xlim(-0.5, len(names) - 0.5)
    ax_t.set_xlabel("dataset")
    ax_t.set_ylabel("time per pass (s)")
    time_handles = [
        Line2D(
            [],
            [],
            marker=plotting.algorithm_style(m)["marker"],
            color=plotting.algorithm_style(m)["color"],
            linestyle="none",
            label=m,
        )
        for m in METHODS
    ] + [
        Line2D([], [], marker="o", color="0.3", linestyle="none", label="ours"),
        Line2D(
            [],
            [],
            marker="o",
            color="0.3",
            markerfacecolor="none",
            markersize=7,
            linestyle="none",
            label="gu2013",
        ),
    ]
    ax_t.legend(handles=time_handles, loc="upper center", ncol=3, fontsize=6.5)
    return fig


def time_span(res: Table2) -> float:
    """Slowest over fastest time per pass in the figure of Table 2 (ours, headline, and the paper's)."""
    names = list(res.graphs)
    all_times = [res.target(n, m).time_mean for n in names for m in METHODS] + list(
        PUBLISHED[PUBLISHED.dataset.isin([PAPER_NAME[n] for n in names if n != STAND_IN])].time
    )
    return max(all_times) / min(all_times)


# =========================================================================== Fig. 1 (notebook 21)


@dataclass
class Fig1:
    """gu2013 Fig. 1 reproduced (Sec. 6.4): error and time against the rank d on Cora, see :func:`fig1`."""

    protocol: Protocol
    seed: int
    spectra: pd.DataFrame  #: per d: the largest eigenvalue used and the kernel diagonal
    split_note: str  #: ranks that cut a repeated eigenvalue (Markdown)
    runs: pd.DataFrame  #: one row per d, method and order
    summary: pd.DataFrame = None  #: mean ± std over the orders per d and method
    claims: pd.DataFrame = None  #: per method: error at the smallest and largest d, time growth
    ttests: pd.DataFrame = None  #: OLLGC and SSLGC against GPA at every d
    d100: pd.DataFrame = None  #: d = 100 against Table 2 (None when 100 is not a rank of the profile)

    def write(self) -> None:
        write_table(self.summary, "21_gu2013_fig1_rank", float_format="%.4f", na_rep="-")
        write_table(
            self.ttests, "21_gu2013_fig1_ttests", float_format={"mean diff (a-b)": "%.4f", "p": "%.2e"}
        )
        if self.d100 is not None:
            write_table(self.d100, "21_gu2013_fig1_d100_vs_table2", float_format="%.4f")

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

    def reading(self) -> str:
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
        n_better, n_tests = int(tests["a better (95%)"].sum()), len(tests)
        e_min, e_max = summary.binary_error_rate_mean.min(), summary.binary_error_rate_mean.max()
        in_axis = FIG1_AXES["error rate"][0] <= e_min and e_max <= FIG1_AXES["error rate"][1]
        growth = tim.loc[hi] / tim.loc[lo]
        n_down = int((np.diff(tim.to_numpy(), axis=0) < 0).sum())
        n_steps = (len(ranks) - 1) * len(METHODS)
        slowest = tim.idxmax(axis=1)
        text = (
            "**Reading.** "
            + (
                "The error falls at every step of $d$ for all three learners"
                if all(falls.values())
                else "The error does not fall at every step of $d$ for "
                + ", ".join(m for m, f in falls.items() if not f)
            )
            + f": from $d$ = {lo} to {mid} by {drop_early.min():.4f} to {drop_early.max():.4f}"
            + (
                f", from {mid} to {hi} by only {drop_late.min():.4f} to {drop_late.max():.4f}"
                if mid != hi
                else ""
            )
            + ". OLLGC and SSLGC err significantly less than "
            f"GPA in {n_better} of {n_tests} paired tests ({len(ranks)} ranks × 2). Our errors span "
            f"{e_min:.4f} to {e_max:.4f}, "
            + ("inside" if in_axis else "not inside")
            + f" the published axis ({FIG1_AXES['error rate'][0]} to {FIG1_AXES['error rate'][1]})"
        )
        if self.d100 is not None:
            d100, tol = self.d100, TOL["cora"]
            text += (
                "; at $d$ = 100 the differences to Table 2 are "
                + ", ".join(f"{r.method} {r.difference:+.4f}" for r in d100.itertuples())
                + f" ({int((d100.difference.abs() <= tol).sum())} of {len(d100)} within ±{tol})"
            )
        text += ".\n\n"
        text += (
            "The times differ in shape from the paper's. From $d$ = "
            f"{lo} to {hi} the time of a pass is multiplied by "
            + ", ".join(f"{growth[m]:.3g} for {m}" for m in METHODS)
            + "; SSLGC is the slowest learner at "
            + (
                "every $d$"
                if (slowest == "SSLGC").all()
                else f"{int((slowest == 'SSLGC').sum())} of {len(ranks)} ranks (not at $d$ = "
                + ", ".join(str(d) for d in slowest.index[slowest != "SSLGC"])
                + f", where a pass of any learner takes at most {1000 * tim.loc[slowest != 'SSLGC'].max().max():.0f} ms)"
            )
            + ". Here a GPA or OLLGC round costs $O(Kd)$ for the $K$ scores, plus $O(Kd^2)$ only on the rounds "
            "where a learner updates; SSLGC must compute $r_t = m_t^\\top A_k^{-1} m_t$ for all $K$ learners on "
            "*every* round, $O(Kd^2)$ per round. "
        )
        p = {m: published("Cora", m) for m in METHODS}
        text += (
            f"In the paper's Table 2 (Cora, $d$ = 100) SSLGC takes {p['SSLGC'][2]:.4f} s against OLLGC's "
            f"{p['OLLGC'][2]:.4f} s (it updates less often), and OLLGC costs {p['OLLGC'][2] / p['GPA'][2]:.1f} times "
            "its GPA already, which suggests that the paper's OLLGC also does $O(d^2)$ work on every round; the "
            "paper does not describe its implementation, so we cannot say more. Our times were measured with two "
            "passes at once on a shared machine (load average printed above), so their spread mostly measures "
            "the other jobs"
            + (
                f": in this run the mean time even falls from one rank to the next in {n_down} of {n_steps} steps"
                if n_down
                else ""
            )
            + "."
        )
        return text


def fig1(profile: str = "full", seed: int = 0, verbose: bool = True) -> Fig1:
    """gu2013 Fig. 1 (Sec. 6.4): GPA, OLLGC and SSLGC on Cora at every rank d, headline reading, mu tuned per d.

    Checks on the way that the spectra of the ranks are nested, ``M 1 = 0`` and the kernel diagonal grows
    with d (Eckart-Young: each M_d^T M_d is the best rank-d approximation of L^+).
    """
    p = protocol(profile)
    ranks = list(p.ranks)
    g = gs.load_dataset("cora")
    embs = {d: gs.spectral_embedding(g.adjacency, d) for d in ranks}
    d_max = max(ranks)
    for d, e in embs.items():
        assert e.M.shape == (d, g.n_nodes) and np.all(e.eigenvalues > 0)
        assert np.allclose(
            e.eigenvalues, embs[d_max].eigenvalues[:d], rtol=1e-8, atol=1e-10
        )  # nested spectra
        assert np.allclose(e.M @ np.ones(g.n_nodes), 0, atol=1e-8)  # M 1 = 0
    split_note = gs.spectral.split_note({d: embs[d_max].split_at(d) for d in ranks})
    spectra = pd.DataFrame(
        {
            "d": ranks,
            "sigma_d (largest used)": [embs[d].eigenvalues[-1] for d in ranks],
            "mean ||m_t||^2": [(embs[d].M ** 2).sum(0).mean() for d in ranks],
            "max ||m_t||^2": [(embs[d].M ** 2).sum(0).max() for d in ranks],
        }
    )
    assert np.all(np.diff(spectra["mean ||m_t||^2"]) > 0)  # the kernel diagonal grows with d
    orders = ex.random_orders(g.n_nodes, p.n_orders, seed)
    runs = []
    t_runs = time.perf_counter()
    for d in ranks:
        X = gs.add_bias(embs[d].M, BIAS_B)
        for method in METHODS:
            mu = None
            if method != "GPA":
                mu, table = tuned_mu(method, X, g, p, seed)
                if verbose:
                    print(f"d={d} {method}: {ex.tuning_note(table, 'binary_error_rate')}")
            df = ex.evaluate(
                partial(make_ovr, method, mu), X, g.labels, orders, seed=seed, method=method, n_jobs=N_JOBS
            )
            runs.append(df.assign(d=d, mu=mu))
        if verbose:
            print(f"d={d:>4d} done at {time.perf_counter() - t_runs:.1f} s")
    runs = pd.concat(runs, ignore_index=True)
    assert (runs.groupby(["d", "method"]).size() == p.n_orders).all()
    res = Fig1(p, seed, spectra, split_note, runs)
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
                ax.plot(
                    [100],
                    [v],
                    marker=pst["marker"],
                    color=pst["color"],
                    markerfacecolor="none",
                    markersize=8,
                    linestyle="none",
                    label=lab,
                )
    ax1.set_xlabel("rank $d$")
    ax1.set_ylabel("error rate (mean binary, bias)")
    ax1.set_title("(a) error rate, Cora")
    ax1.legend(ncol=2, fontsize=6.5)
    ax2.set_xlabel("rank $d$")
    ax2.set_ylabel("time per pass (s, log scale)")
    ax2.set_yscale("log")
    ax2.set_title("(b) time, Cora")
    return fig


# =========================================================================== Fig. 2 (notebook 22)

#: The datasets of Fig. 2 in the paper's order of Table 2's end points: (paper's name, ours).
_FIG2_PAPER = (("PubMed", "pubmed"), ("IMDB", STAND_IN))


def _curves(method, mu, X, y, order, run_seed):
    """The cumulative curves of one pass (Fig. 2): mean binary and multiclass error, both query counts, time."""
    tr = run(make_ovr(method, mu), X, y, order=order, seed=run_seed, blas_threads=None)
    K = tr.records["binary_predictions"].shape[1]
    target = np.where(tr.labels[:, None] == np.arange(K), 1, -1)
    rounds = np.arange(1, tr.n_rounds + 1)
    binary_mistakes = (tr.records["binary_predictions"] != target).mean(axis=1)
    return {
        "binary error": np.cumsum(binary_mistakes) / rounds,
        "multiclass error": tr.cumulative("mistakes") / rounds,
        "queried (mean/learner)": tr.records["binary_queried"].sum(axis=1).cumsum() / K,
        "queried (any learner)": tr.cumulative("queried"),
        "time": tr.elapsed,
        "final": {
            "binary_error_rate": tr.binary_error_rate,
            "error_rate": tr.error_rate,
            "binary_n_queried": tr.binary_n_queried,
            "n_queried": tr.n_queried,
        },
    }


def _first_round_below_for_good(a, b):
    """First round from which curve a stays strictly below curve b (None if it is not below at the end)."""
    not_below = np.flatnonzero(a >= b)
    if len(not_below) and not_below[-1] == len(a) - 1:
        return None
    return 1 if not len(not_below) else int(not_below[-1]) + 2


@dataclass
class Fig2:
    """gu2013 Fig. 2 reproduced (Sec. 6.5): cumulative curves averaged over the orders, see :func:`fig2`."""

    protocol: Protocol
    graphs: dict
    curves: dict  #: (dataset, method) -> curve name -> mean over the orders, one value per round
    mus: dict  #: (dataset, method) -> tuned mu
    finals: pd.DataFrame  #: the end points of the curves
    endpoints: pd.DataFrame = None  #: the end points against Table 2
    checkpoints: pd.DataFrame = None  #: the curves at ten checkpoints
    FROM = 0.05  #: the error axes show every curve from 5 % of the rounds on

    def write(self) -> None:
        write_table(self.endpoints, "22_gu2013_fig2_endpoints", float_format="%.4f", na_rep="-")
        write_table(self.checkpoints, "22_gu2013_fig2_cumulative", float_format="%.5g")

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

    def reading_endpoints(self) -> str:
        ep = (
            self.endpoints.dropna(subset=["difference"])
            if "difference" in self.endpoints
            else self.endpoints.iloc[:0]
        )
        if not len(ep):
            return "No published end point is run in this profile (PubMed is not in it)."
        s, tol = ep[ep.method == "SSLGC"].iloc[0], TOL["pubmed"]
        return (
            "On PubMed the end points differ from Table 2 by "
            + ", ".join(f"{r.method} {r.difference:+.4f}" for r in ep.itertuples())
            + f" ({int((ep.difference.abs() <= tol).sum())} of {len(ep)} within ±{tol}); SSLGC's end count of "
            f"queries is {s['#queried (ours, mean/learner)']:.0f} per learner against the paper's "
            f"{s['#queried (paper)']:.0f} ({s['#queried (ours, mean/learner)'] / s['#queried (paper)'] - 1:+.1%})."
        )

    def reading_axes(self) -> str:
        return (
            "Error axes: "
            + "; ".join(
                f"{n} {a['axis low']:.3f} to {a['axis high']:.3f}, which holds every curve from round "
                f"{a['from round']:.0f} ({self.FROM:.0%} of the rounds) on; before that the cumulative error reaches "
                f"{a['peak before']:.2f} and is cut off"
                for n, a in self.error_axes.items()
            )
            + ". The paper's error axes: "
            + ", ".join(f"{k} {lo} to {hi}" for k, (lo, hi) in FIG2_ERROR_AXES.items())
            + "."
        )

    def reading(self) -> str:
        """The reading of the curves: the error falls, who stays below GPA, SSLGC's query rate, the times."""
        parts, halves, time_ratio, names = [], [], {}, list(self.graphs)
        for name in names:
            c = {m: self.curves[name, m] for m in METHODS}
            T = len(c["GPA"]["time"])
            tenth = T // 10
            e = {m: c[m]["binary error"] for m in METHODS}
            fall = [e[m][tenth - 1] - e[m][-1] for m in METHODS]
            below = {m: _first_round_below_for_good(e[m], e["GPA"]) for m in ("OLLGC", "SSLGC")}
            q = c["SSLGC"]["queried (mean/learner)"]
            q_first, q_last = q[tenth - 1] / tenth, (q[-1] - q[-tenth - 1]) / tenth
            s_vs_o = e["SSLGC"][-1] - e["OLLGC"][-1]
            parts.append(
                f"On {name} the cumulative error falls by {span(min(fall), max(fall), '.4f')} between round {tenth} "
                "(a tenth of the rounds) and the end; "
                + "; ".join(
                    f"{m} stays below GPA from round {r} on"
                    + (f" ({r / T:.0%} of the rounds)" if r / T >= 0.01 else "")
                    if r is not None
                    else f"{m} ends {'level with' if abs(e[m][-1] - e['GPA'][-1]) < 5e-4 else 'above'} GPA "
                    f"({e[m][-1] - e['GPA'][-1]:+.4f})"
                    for m, r in below.items()
                )
                + f". SSLGC asks for {q_first:.0%} of the labels in the first tenth of the rounds and {q_last:.0%} "
                f"in the last tenth (mean per learner), and ends {abs(s_vs_o):.4f} "
                + ("below" if s_vs_o < 0 else "above")
                + " OLLGC's error."
            )
            halves += [c[m]["time"][T // 2 - 1] / c[m]["time"][-1] for m in METHODS]
            time_ratio[name] = c["SSLGC"]["time"][-1] / c["OLLGC"]["time"][-1]
        paper_ratio = {k: published(k, "SSLGC")[2] / published(k, "OLLGC")[2] for k, _ in _FIG2_PAPER}
        straight = all(0.4 <= h <= 0.6 for h in halves)
        pubmed_note = ""
        if "pubmed" in names:
            s_o = (
                self.curves["pubmed", "SSLGC"]["binary error"][-1]
                - self.curves["pubmed", "OLLGC"]["binary error"][-1]
            )
            p_o = published("PubMed", "SSLGC")[0] - published("PubMed", "OLLGC")[0]
            pubmed_note = (
                f" On PubMed SSLGC ends {'below' if s_o < 0 else 'above'} OLLGC, "
                + ("as in the paper" if (s_o < 0) == (p_o < 0) else "unlike the paper")
                + f" ({p_o:+.4f} there)."
            )
        return (
            "**Reading.** "
            + " ".join(parts)
            + pubmed_note
            + "\n\nThe time curves are "
            + ("close to straight lines" if straight else "not straight lines")
            + f": at half the rounds they have used {span(min(halves), max(halves), '.2f')} of the final time (0.5 "
            "for a straight line, i.e. every round costs about the same). They do not show the paper's ordering: "
            "its SSLGC takes "
            + " and ".join(f"{r:.2f} of its OLLGC's time on {k}" for k, r in paper_ratio.items())
            + ", ours "
            + " and ".join(f"{r:.2f} times our OLLGC's on {k}" for k, r in time_ratio.items())
            + (
                ". Here SSLGC's query rule costs $O(Kd^2)$ on every round (notebook 21), more than it saves by "
                "updating less"
                if all(r > 1 for r in time_ratio.values())
                else ""
            )
            + ". The absolute times depend on the load of the shared machine at the time of the run (printed above)."
        )


def fig2(profile: str = "full", seed: int = 0, verbose: bool = True) -> Fig2:
    """gu2013 Fig. 2 (Sec. 6.5): cumulative error, queries and time along the rounds, headline reading.

    Order k runs with ``ex.order_seeds(n_orders, seed)[k]`` exactly as ``ex.evaluate`` does, so the end
    points equal the cached runs of the same orders (asserted).
    """
    from joblib import Parallel, delayed

    p = protocol(profile)
    mean_curves, finals, mus, graphs = {}, [], {}, {}
    t_runs = time.perf_counter()
    for name in p.fig2_datasets:
        g = gs.load_dataset(name)
        graphs[name] = g
        X = features(g, p.d)
        orders = ex.random_orders(g.n_nodes, p.n_orders, seed)
        seeds = ex.order_seeds(p.n_orders, seed)
        for method in METHODS:
            mu = None
            if method != "GPA":
                mu, table = tuned_mu(method, X, g, p, seed)
                if verbose:
                    print(f"{name} {method}: {ex.tuning_note(table, 'binary_error_rate')}")
            mus[name, method] = mu
            # threads: the passes run compiled, without the GIL (no BLAS limit to race on)
            passes = Parallel(n_jobs=N_JOBS, prefer="threads")(
                delayed(_curves)(method, mu, X, g.labels, o, s) for o, s in zip(orders, seeds, strict=True)
            )
            mean_curves[name, method] = {
                k: np.mean([q[k] for q in passes], axis=0) for k in passes[0] if k != "final"
            }
            # the same orders through the experiment engine (cached): the end points must agree
            ref = ex.evaluate(
                partial(make_ovr, method, mu), X, g.labels, orders, seed=seed, method=method, n_jobs=N_JOBS
            )
            for key in ("binary_error_rate", "error_rate", "binary_n_queried", "n_queried"):
                assert np.allclose([q["final"][key] for q in passes], ref[key]), (name, method, key)
            c = mean_curves[name, method]
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
                    axes[i, j].plot(
                        [t[-1]],
                        [v],
                        marker=st["marker"],
                        color=st["color"],
                        markerfacecolor="none",
                        markersize=8,
                        linestyle="none",
                    )
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


# =========================================================================== Fig. 3 (notebook 23)


def check_query_rule(profile: str = "full", seed: int = 0, kappa: float = 0.5) -> str:
    """SSLGC's query rule (gu2013 Alg. 2): the recorded r_t and thresholds t^-kappa reproduce every query (Cora)."""
    p = protocol(profile)
    g0 = gs.load_dataset("cora")
    X0 = features(g0, p.d)
    tr = run(
        OneVsRest(partial(SSLGC, mu=1.0, kappa=kappa)), X0, g0.labels, seed=seed, record=("r", "threshold")
    )
    r, thr = tr.records["r"], tr.records["threshold"]  # (T, K) and (T,)
    assert np.allclose(thr, np.arange(1, g0.n_nodes + 1) ** -kappa)  # t^{-kappa}
    assert np.array_equal(r > thr[:, None], tr.records["binary_queried"])
    assert np.all((r > 0) & (r < 1))  # r_t = v/(1+v) in (0, 1)
    return (
        f"one pass, kappa={kappa}: query rule reproduced on all {r.size} (round, learner) pairs; "
        f"ratio mean/learner {tr.binary_n_queried / g0.n_nodes:.3f}, any {tr.n_queried / g0.n_nodes:.3f}"
    )


@dataclass
class Fig3:
    """gu2013 Fig. 3 reproduced (Sec. 6.6): SSLGC against random sampling at equal query ratio, see :func:`fig3`."""

    protocol: Protocol
    graphs: dict
    mus: dict  #: dataset -> SSLGC's mu (tuned at kappa = 0.4, as in Table 2)
    runs: pd.DataFrame  #: one row per dataset, kappa, method (SSLGC, Random) and order
    table: pd.DataFrame = None  #: per dataset and kappa: both ratios, both errors, the paired test
    verdict: pd.DataFrame = None  #: per dataset: cells where SSLGC is better, gaps, ratio range

    def write(self) -> None:
        t = self.table
        write_table(
            t,
            "23_gu2013_fig3_query_ratio",
            float_format={c: "%.4f" for c in t.columns if t[c].dtype == float} | {"p-value": "%.2e"},
        )
        write_table(self.verdict, "23_gu2013_fig3_verdict", float_format="%.4f")

    @property
    def random_ratio_deviation(self) -> float:
        """Largest |realised random-sampling ratio - p| (binomial: it should be far below 0.02)."""
        return float((self.table["Random ratio"] - self.table["p = SSLGC ratio"]).abs().max())

    def not_better(self) -> pd.DataFrame:
        """The (dataset, kappa) cells where SSLGC is not significantly better than random sampling."""
        t = self.table
        return t[~t["SSLGC better (95%)"]][
            ["dataset", "kappa", "p = SSLGC ratio", "SSLGC error", "Random error", "p-value"]
        ]

    def reading(self) -> str:
        """The reading: per dataset where SSLGC wins, the gap at the largest ratio, the shape of the ratios."""
        n_orders = self.protocol.n_orders

        def kappas(df):
            return ", ".join(f"{k:g}" for k in df.kappa)

        parts, holds, fails, shape, n_saturated = [], [], [], [], []
        for name, df in self.table.groupby("dataset", sort=False):
            gain = -df["SSLGC - Random"]  # > 0: SSLGC errs less
            better = df[df["SSLGC better (95%)"]]
            worse = df[(df["p-value"] < 0.05) & (df["SSLGC - Random"] > 0)]
            tie = df[df["p-value"] >= 0.05]
            if len(better) == len(df):
                holds.append(name)
                text = (
                    f"On {name} SSLGC errs significantly less than random sampling at every $\\kappa$, by "
                    f"{span(gain.min(), gain.max(), '.4f')} (median {gain.median():.4f})"
                )
            else:
                fails.append(name)
                text = f"On {name} SSLGC errs significantly less at {len(better)} of {len(df)} values of $\\kappa$"
                if len(better):
                    text += f" ($\\kappa$ = {kappas(better)})"
                if len(worse):
                    text += ", significantly more at " + ", ".join(
                        f"$\\kappa$ = {r.kappa:g} (ratio {r['p = SSLGC ratio']:.2f}, {r['SSLGC - Random']:+.4f})"
                        for _, r in worse.iterrows()
                    )
                if len(tie):
                    text += f", with no significant difference at $\\kappa$ = {kappas(tie)}"
            best = df.loc[df["SSLGC error"].idxmin()]
            last = df.iloc[-1]
            text += (
                f". At the largest ratio ({last['p = SSLGC ratio']:.3f}"
                + (
                    "; random sampling is then GPA on almost every label"
                    if last["p = SSLGC ratio"] >= 0.98
                    else ""
                )
                + f") the gap is {last['SSLGC - Random']:+.4f}."
            )
            if best.kappa != last.kappa and last["SSLGC error"] - best["SSLGC error"] > 2 * best[
                "SSLGC std"
            ] / np.sqrt(n_orders):
                text += (
                    f" SSLGC's lowest error, {best['SSLGC error']:.4f}, is reached at a ratio of "
                    f"{best['p = SSLGC ratio']:.2f} ($\\kappa$ = {best.kappa:g}); querying more makes it worse "
                    f"({last['SSLGC error']:.4f} at the largest ratio)"
                    + (
                        "; gu2013 Sec. 6.5 gives class imbalance as the reason why SSLGC can beat OLLGC on PubMed"
                        if name == "pubmed"
                        else ""
                    )
                    + "."
                )
            parts.append(text)
            sat = df[df["p = SSLGC ratio"] >= 0.98]
            n_saturated.append(len(sat))
            paper = FIG3_AXES.get(PAPER_NAME.get(name, ""), {}) if name != STAND_IN else {}
            shape.append(
                f"{name}: ratio ≥ 0.98 from $\\kappa$ = {sat.kappa.min():g}"
                if len(sat)
                else f"{name}: ratio below 0.98 at every $\\kappa$"
            )
            if paper and df["p = SSLGC ratio"].min() < paper["ratio"][0]:
                shape[-1] += (
                    f", smallest ratio {df['p = SSLGC ratio'].min():.2f} (the paper's axis starts at {paper['ratio'][0]})"
                )
        return (
            "**Reading.** "
            + " ".join(parts)
            + "\n\nThe paper's claim, SSLGC better than random sampling at every ratio, holds here on "
            + (", ".join(holds) or "no graph")
            + (f" and not on {', '.join(fails)}" if fails else "")
            + "."
            + (
                f" {STAND_IN.capitalize()} is a different graph, so it says nothing about the paper's IMDB panel, "
                "which we cannot check."
                if STAND_IN in fails
                else ""
            )
            + "\n\nShape: our query ratio saturates ("
            + "; ".join(shape)
            + f"), while the published ratio axes end at {max(a['ratio'][1] for a in FIG3_AXES.values())}"
            + (", so several $\\kappa$ give the same point here" if max(n_saturated) > 1 else "")
            + ". Both the saturation and the smallest ratio depend on $\\mu$ "
            "(notebook 20, Sec. 7: a larger $\\mu$ queries less), which the paper does not report per dataset."
        )


def fig3(profile: str = "full", seed: int = 0, verbose: bool = True) -> Fig3:
    """gu2013 Fig. 3 (Sec. 6.6): SSLGC at every kappa against random sampling at SSLGC's query ratio.

    Per dataset: SSLGC's mu is tuned at kappa = 0.4 (cached, Table 2's runs); for every kappa SSLGC runs on
    the orders, p is its mean per-learner query ratio, and random sampling (one-vs-rest GPA, each learner
    querying with probability p) runs on the same orders.
    """
    p = protocol(profile)
    runs, mus, graphs = [], {}, {}
    t_runs = time.perf_counter()
    for name in p.fig3_datasets:
        g = gs.load_dataset(name)
        graphs[name] = g
        X = features(g, p.d)
        orders = ex.random_orders(g.n_nodes, p.n_orders, seed)
        mu, table = tuned_mu("SSLGC", X, g, p, seed)
        if verbose:
            print(f"{name} SSLGC: {ex.tuning_note(table, 'binary_error_rate')}")
        mus[name] = mu
        for kappa in p.kappas:
            s = ex.evaluate(
                partial(make_ovr, "SSLGC", mu, kappa),
                X,
                g.labels,
                orders,
                seed=seed,
                method="SSLGC",
                n_jobs=N_JOBS,
            )
            q = float(s.binary_n_queried.mean() / g.n_nodes)
            rnd = ex.evaluate(
                partial(_make_random, q), X, g.labels, orders, seed=seed, method="Random", n_jobs=N_JOBS
            )
            runs.append(pd.concat([s, rnd]).assign(dataset=name, kappa=kappa, p=q, n=g.n_nodes))
        if verbose:
            print(f"{name}: mu={mu}, done at {time.perf_counter() - t_runs:.1f} s")
    runs = pd.concat(runs, ignore_index=True)
    runs["ratio"] = runs.binary_n_queried / runs.n
    runs["ratio any"] = runs.n_queried / runs.n
    res = Fig3(p, graphs, mus, runs)
    res.table = _fig3_table(res)
    res.verdict = _fig3_verdict(res.table)
    assert res.random_ratio_deviation < 0.02, res.random_ratio_deviation  # random sampling realises its p
    return res


def _fig3_table(res: Fig3) -> pd.DataFrame:
    rows = []
    for (name, kappa), df in res.runs.groupby(["dataset", "kappa"], sort=False):
        s, rnd = df[df.method == "SSLGC"], df[df.method == "Random"]
        t = ex.paired_ttest(df, "SSLGC", "Random", metric="binary_error_rate")
        rows.append(
            {
                "dataset": name,
                "kappa": kappa,
                "mu": res.mus[name],
                "p = SSLGC ratio": s.ratio.mean(),
                "SSLGC ratio (any)": s["ratio any"].mean(),
                "Random ratio": rnd.ratio.mean(),
                "SSLGC error": s.binary_error_rate.mean(),
                "SSLGC std": s.binary_error_rate.std(),
                "Random error": rnd.binary_error_rate.mean(),
                "Random std": rnd.binary_error_rate.std(),
                "SSLGC - Random": t["mean_diff"],
                "p-value": t["p"],
                "SSLGC better (95%)": t["significant"] and t["mean_diff"] < 0,
                "SSLGC multiclass error": s.error_rate.mean(),
                "Random multiclass error": rnd.error_rate.mean(),
            }
        )
    return pd.DataFrame(rows)


def _fig3_verdict(fig3_table) -> pd.DataFrame:
    return (
        fig3_table.groupby("dataset", sort=False)
        .agg(
            cells=("kappa", "size"),
            sslgc_better=("SSLGC better (95%)", "sum"),
            largest_gap=("SSLGC - Random", "min"),
            smallest_gap=("SSLGC - Random", "max"),
            ratio_min=("p = SSLGC ratio", "min"),
            ratio_max=("p = SSLGC ratio", "max"),
            ratio_monotone=("p = SSLGC ratio", lambda v: bool(np.all(np.diff(v.to_numpy()) >= 0))),
        )
        .reset_index()
    )


def draw_fig3(res: Fig3):
    """Fig. 3: error against the ratio of queried nodes, one panel per dataset in the paper's order.

    Each SSLGC point is one kappa, labelled at the end of its error bar away from the random-sampling curve
    (kappas whose points lie close together share a label, e.g. "0.7-1"); error bars = std over the orders.
    """
    names = list(res.graphs)
    ncols = 2 if len(names) > 1 else 1
    nrows = int(np.ceil(len(names) / ncols))
    fig, axes = plotting.subplots(
        nrows, ncols, size=(7.0, 2.9 * nrows) if ncols == 2 else "single", squeeze=False
    )
    for ax, name, letter in zip(axes.flat, names, "abcd"[: len(names)], strict=False):
        df = res.table[res.table.dataset == name]
        for method, col, std, ratio in [
            ("SSLGC", "SSLGC error", "SSLGC std", "p = SSLGC ratio"),
            ("Random", "Random error", "Random std", "Random ratio"),
        ]:
            ax.errorbar(
                df[ratio],
                df[col],
                yerr=df[std],
                capsize=2,
                label=method if method == "SSLGC" else "random sampling",
                **plotting.algorithm_style(method),
            )
        # kappas whose SSLGC points (nearly) lie on top of each other share one label, e.g. "0.7-1"
        x_span = max(df["p = SSLGC ratio"].max() - df["p = SSLGC ratio"].min(), 1e-9)
        y_span = max(df["SSLGC error"].max() - df["SSLGC error"].min(), 1e-9)
        groups = []
        for _, r in df.iterrows():
            prev = groups[-1][-1] if groups else None
            if (
                prev is not None
                and r["p = SSLGC ratio"] - prev["p = SSLGC ratio"] < 0.08 * x_span
                and abs(r["SSLGC error"] - prev["SSLGC error"]) < 0.05 * y_span
            ):
                groups[-1].append(r)
            else:
                groups.append([r])
        for grp in groups:
            label = f"{grp[0].kappa:g}" if len(grp) == 1 else f"{grp[0].kappa:g}-{grp[-1].kappa:g}"
            above = grp[0]["Random error"] < grp[0]["SSLGC error"]  # random sampling lies below: label above
            y = (
                max(g["SSLGC error"] + g["SSLGC std"] for g in grp)
                if above
                else min(g["SSLGC error"] - g["SSLGC std"] for g in grp)
            )
            ax.annotate(
                label,
                (np.mean([g["p = SSLGC ratio"] for g in grp]), y),
                textcoords="offset points",
                xytext=(0, 2 if above else -2),
                ha="center",
                va="bottom" if above else "top",
                fontsize=6,
                color=plotting.algorithm_style("SSLGC")["color"],
            )
        ax.set_title(f"({letter}) {name}" + (" (IMDB stand-in)" if name == STAND_IN else ""))
        ax.set_xlabel("ratio of queried nodes (mean per learner)")
        ax.set_ylabel("error rate")
        ax.margins(y=0.08)
    axes.flat[0].legend(loc="upper right")
    for ax in list(axes.flat)[len(names) :]:
        ax.set_visible(False)
    return fig


# =========================================================================== at the published label budget


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
