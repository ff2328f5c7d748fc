"""The relaxation learner (Rakhlin & Sridharan 2017) and FastONL (Zhou et al., ICML 2023) beside the selective samplers.

Notebooks 34 and 35 go beyond gu2013 and yang2016: the fully supervised relaxation learner
(``gs.online.Relaxation``, FastONL's push kernel) against CMOG and MSG on the rank-d features
(notebook 34), and the relaxation learner given a margin query rule (Cesa-Bianchi, Gentile & Zaniboni,
JMLR 2006; notebook 35). Here: FastONL's numbers as data (:data:`REFERENCE_RUNS`: a run of its public
code, *not* a table of the paper), the protocol and its grids (:func:`protocol`), one function per
table or figure returning its data (:func:`compare`, :func:`push_vs_exact`, :func:`vs_reference`,
:func:`msg_curve`, :func:`check_limits`, :func:`sweep`) and the figures (:func:`draw_error_vs_labels`,
:func:`draw_selective`). Result objects write their tables (``.write()``) under the names the notebooks
always used (``figures/34_*``, ``figures/35_*``) and return their readings (``reading*``) as
:class:`~graphsel_lib.course.prose.Reading` s (templates in :mod:`graphsel_lib.papers.beyond_texts`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import partial

import matplotlib.ticker as mticker
import numpy as np
import pandas as pd

import graphsel_lib as gs
from graphsel_lib import experiments
from graphsel_lib.collection import plotting
from graphsel_lib.collection.tables import write_table
from graphsel_lib.course.prose import Reading, Span
from graphsel_lib.experiments import evaluate, random_orders, tune, tuning_order
from graphsel_lib.online import CMOG, MSG, MarginSampling, RandomQueries, Relaxation, node_ids, run
from graphsel_lib.papers.beyond_texts import reading
from graphsel_lib.papers.common import N_JOBS, ProfileProtocol, Result, is_smoke, table_field

__all__ = [
    "EPS",
    "FULL_TOL_FLOOR",
    "NAME",
    "REFERENCE_QUOTED",
    "REFERENCE_RUNS",
    "Comparison",
    "Limits",
    "Protocol",
    "PushVsExact",
    "Sweep",
    "check_limits",
    "compare",
    "draw_error_vs_labels",
    "draw_selective",
    "msg_curve",
    "protocol",
    "push_vs_exact",
    "reading_compare",
    "reading_selective",
    "reading_vs_reference",
    "reference_run",
    "relaxation_maker",
    "sweep",
    "vs_reference",
    "write_vs_reference",
]

#: A reference run of FastONL's public code (github.com/baojian/FastONL; Zhou, Sun, Babanezhad Harikandeh,
#: ICML 2023): online error over one random order, beta tuned. Not a table of the paper: "reference runs".
REFERENCE_RUNS = pd.DataFrame(
    [("cora", 0.16), ("pubmed", 0.18)], columns=["dataset", "error"]
)  # fmt: skip
NAME = {"cora": "Cora", "pubmed": "PubMed"}  #: how a data set is named in titles and prose
EPS = 1e-4  #: push tolerance epsilon of the relaxation learner (FastONL's local push)
BIAS_B = 1.0  #: the constant feature of ``gs.add_bias`` for CMOG and MSG
FULL_TOL_FLOOR = 0.002  #: notebook 35: "within one std of full supervision" means within max(std, this)
REFERENCE_QUOTED = (
    0.005  #: the reference runs are quoted to two decimals: within this counts as reaching them
)
REF_LABEL = "FastONL code, reference run (1 order)"


def reference_run(dataset: str) -> float:
    """The error of the reference run of FastONL's public code on ``dataset`` (``"cora"``, ``"pubmed"``).

    >>> reference_run("cora"), reference_run("pubmed")
    (0.16, 0.18)
    """
    return float(REFERENCE_RUNS.set_index("dataset").error[dataset])


# --------------------------------------------------------------------------- the protocol


@dataclass(frozen=True)
class Protocol(ProfileProtocol):
    """Sizes and grids of one profile (notebooks 34 and 35; ``smoke`` runs in seconds)."""

    datasets: tuple  #: notebooks 34 and 35
    n_orders: int  #: notebook 34's random orders (the paper notebooks use 20; a PubMed push pass is slow)
    d: int  #: rank of CMOG's and MSG's spectral features (plus the bias)
    beta_fractions: tuple  #: the relaxation learner's beta / n, notebook 34
    h_grid: tuple  #: MSG
    selective_orders: dict  #: notebook 35: orders per data set
    selective_beta_fractions: tuple  #: notebook 35's beta / n
    b_grid: dict  #: notebook 35: the margin rule's b per data set


def protocol(profile: str = "full") -> Protocol:
    """The protocol of ``profile`` (``"full"``: Cora and PubMed; ``"smoke"``: Cora, d = 20, tiny grids)."""
    if is_smoke(profile):
        return Protocol(
            profile, ("cora",), 2, 20, (0.05, 0.3), (1e-3, 1e-1), {"cora": 2, "pubmed": 1}, (0.05, 0.1),
            {"cora": (0.01, 0.1)},
        )  # fmt: skip
    return Protocol(
        profile,
        ("cora", "pubmed"),
        10,
        100,
        (0.01, 0.05, 0.1, 0.3),
        (1e-4, 1e-3, 1e-2, 1e-1, 1.0),
        {"cora": 10, "pubmed": 4},
        (0.01, 0.05, 0.1, 0.3),
        {"cora": (1e-3, 3e-3, 1e-2, 3e-2, 0.1, 0.3, 1.0), "pubmed": (1e-3, 1e-2, 0.1)},
    )


def relaxation_maker(S, kernel: str = "push"):
    """The relaxation learner on graph ``S`` as a factory of ``beta`` (push tolerance :data:`EPS`)."""
    return partial(Relaxation, S, kernel=kernel, eps=EPS)


def _features(g, d):
    return gs.add_bias(gs.spectral_embedding(g.adjacency, d).M, BIAS_B)


def _print(df):
    print(df.to_string(index=False, float_format=lambda x: f"{x:.4f}"))


def _error_vs_labels_axes(ax, name):
    """The axes 34's and 35's figures share: FastONL's reference run dotted, log labels axis, titles."""
    ax.axhline(reference_run(name), color="0.4", ls=":", lw=1.2, label=REF_LABEL)
    ax.set(
        xscale="log",
        xlabel="labels queried (% of nodes)",
        ylabel="online error rate",
        title=NAME.get(name, name),
    )
    _style_log_labels(ax)


def _style_log_labels(ax):
    ax.xaxis.set_major_locator(mticker.LogLocator(subs=(1, 2, 3, 5)))
    ax.xaxis.set_major_formatter(mticker.FormatStrFormatter("%g"))
    ax.xaxis.set_minor_formatter(mticker.NullFormatter())


# =========================================================================== notebook 34


@dataclass
class Comparison(Result):
    """Notebook 34 Sec. 1: the relaxation learner (push), CMOG (one-hot) and MSG on the same orders."""

    protocol: Protocol
    seed: int
    results: pd.DataFrame  #: one row per dataset, method and order
    #: mean over the orders (``34_relaxation_vs_selective``)
    summary: pd.DataFrame = table_field("relaxation_vs_selective", float_format="%.4f", required=True)
    beta: dict = None  #: dataset -> tuned beta of the push learner
    n_nodes: dict = None
    #: MSG's h sweep (:func:`msg_curve`)
    curve: pd.DataFrame = table_field("msg_error_vs_labels", float_format="%.4f", optional=True)
    PREFIX = "34_"

    def row(self, name: str, method: str):
        s = self.summary
        return s[(s.dataset == name) & (s.method == method)].iloc[0]


def compare(profile: str = "full", seed: int = 0, verbose: bool = True) -> Comparison:
    """Notebook 34 Sec. 1: beta (push) and MSG's h tuned on the held-out order, then every method on the orders."""
    p = protocol(profile)
    per_order, betas, n_nodes = [], {}, {}
    for name in p.datasets:
        g = gs.load_dataset(name)
        n, y = g.n_nodes, g.labels
        n_nodes[name] = n
        orders = random_orders(n, p.n_orders, seed)
        hold = tuning_order(n, seed)
        ids = node_ids(n)
        # relaxation (push): beta tuned on the held-out order
        make = relaxation_maker(g.adjacency, "push")
        best, table = tune(make, {"beta": [f * n for f in p.beta_fractions]}, ids, y, hold, n_jobs=N_JOBS)
        if verbose:
            print(
                f"{name}: beta tuning (push)\n" + table[["beta", "error_rate", "time"]].to_string(index=False)
            )
        betas[name] = best["beta"]
        res = evaluate(
            partial(make, **best), ids, y, orders, seed=seed, method="Relaxation (push)", n_jobs=N_JOBS
        )
        res["setting"] = f"beta={best['beta'] / n:g}n, eps=1e-4"
        per_order.append(res.assign(dataset=name))
        # CMOG (one-hot targets: the better of the two, notebooks 08/30) and MSG with h tuned
        M = _features(g, p.d)
        res = evaluate(
            partial(CMOG, targets="onehot"), M, y, orders, seed=seed, method="CMOG (one-hot)", n_jobs=N_JOBS
        )
        res["setting"] = f"d={p.d}+bias"
        per_order.append(res.assign(dataset=name))
        best_h, _ = tune(partial(MSG, gamma=1.0), {"h": list(p.h_grid)}, M, y, hold, n_jobs=N_JOBS)
        res = evaluate(
            partial(MSG, gamma=1.0, **best_h), M, y, orders, seed=seed, method="MSG", n_jobs=N_JOBS
        )
        res["setting"] = f"d={p.d}+bias, h={best_h['h']:g}"
        per_order.append(res.assign(dataset=name))
    results = pd.concat(per_order, ignore_index=True)
    summary = (
        results.groupby(["dataset", "method", "setting"], sort=False)
        .agg(
            error=("error_rate", "mean"),
            error_std=("error_rate", "std"),
            labels=("n_queried", "mean"),
            time=("time", "mean"),
        )
        .reset_index()
    )
    summary["labels %"] = 100 * summary["labels"] / summary["dataset"].map(n_nodes)
    if verbose:
        _print(summary)
    return Comparison(p, seed, results, summary, betas, n_nodes)


@dataclass
class PushVsExact:
    """Notebook 34 Sec. 2: the push kernel against the exact dense kernel on Cora, same orders and beta."""

    beta_fraction: float
    build_s: float  #: the dense inverse, once per graph
    exact: pd.DataFrame
    push: pd.DataFrame

    @property
    def gap(self) -> float:
        return abs(self.exact.error_rate.mean() - self.push.error_rate.mean())

    def report(self) -> str:
        e, p = self.exact, self.push
        return (
            f"beta = {self.beta_fraction:g} n; dense kernel build {self.build_s:.2f} s (once per graph, outside "
            f"the pass)\nexact: error {e.error_rate.mean():.4f} ± {e.error_rate.std():.4f}, pass "
            f"{e.time.mean():.2f} s\npush : error {p.error_rate.mean():.4f} ± {p.error_rate.std():.4f}, pass "
            f"{p.time.mean():.2f} s"
        )

    def reading(self) -> Reading:
        """Sec. 2: the push kernel's error and pass time beside the exact kernel's."""
        e_x, e_p = self.exact.error_rate.mean(), self.push.error_rate.mean()
        return reading(
            "fastonl.push_vs_exact",
            beta_fraction=self.beta_fraction,
            push_error=e_p,
            exact_error=e_x,
            gap=abs(e_p - e_x),
            push_s=self.push.time.mean(),
            exact_s=self.exact.time.mean(),
            build_s=self.build_s,
        )


def push_vs_exact(cmp: Comparison, seed: int = 0) -> PushVsExact:
    """Notebook 34 Sec. 2: the exact kernel (dense, fits for Cora) at the push learner's tuned beta."""
    g = gs.load_dataset("cora")
    n = g.n_nodes
    orders = random_orders(n, cmp.protocol.n_orders, seed)
    beta = cmp.beta["cora"]
    t0 = time.perf_counter()
    Relaxation(g.adjacency, beta=beta, kernel="exact")
    t_build = time.perf_counter() - t0
    exact = evaluate(
        partial(Relaxation, g.adjacency, beta=beta, kernel="exact"), node_ids(n), g.labels, orders, seed=seed,
        method="Relaxation (exact)", n_jobs=N_JOBS,
    )  # fmt: skip
    r = cmp.results
    push = r[(r.dataset == "cora") & (r.method == "Relaxation (push)")]
    return PushVsExact(beta / n, t_build, exact, push)


def vs_reference(cmp: Comparison) -> pd.DataFrame:
    """Notebook 34 Sec. 3 (``34_fastonl_vs_published``): our push learner against FastONL's reference run.

    The schema of every ``*_vs_published`` table; its column *published* holds the reference run's error.
    *within* (it reaches it): our mean is no worse than the reference value plus one of our std.
    """
    vs = []
    for name in cmp.protocol.datasets:
        r = cmp.row(name, "Relaxation (push)")
        ref = reference_run(name)
        diff = r.error - ref
        ok = diff <= r.error_std
        vs.append({"dataset": name, "method": "Relaxation (push)", "setting": r.setting, "published": ref,
                   "ours": r.error, "ours std": r.error_std, "difference": diff, "tolerance": r.error_std,
                   "verdict": "within" if ok else "differs",
                   "reason": "reaches the error of FastONL's reference run" if ok
                   else "worse than FastONL's reference run"})  # fmt: skip
    return pd.DataFrame(vs)


def write_vs_reference(vs: pd.DataFrame) -> None:
    write_table(vs, "34_fastonl_vs_published", float_format="%.4f")


def reading_vs_reference(vs: pd.DataFrame) -> Reading:
    """Sec. 3: per data set, our push learner's error against FastONL's reference run (table of :func:`vs_reference`)."""
    graphs = [
        reading(
            "fastonl.vs_reference.graph",
            dict(reaches=r.verdict == "within"),
            dataset=NAME.get(r.dataset, r.dataset),
            ours=r.ours,
            ours_std=r["ours std"],
            published=r.published,
            difference=r.difference,
        )
        for _, r in vs.iterrows()
    ]
    return reading("fastonl.vs_reference", graphs=graphs)


def msg_curve(cmp: Comparison, verbose: bool = True) -> pd.DataFrame:
    """Notebook 34 Sec. 4 (``34_msg_error_vs_labels``): MSG's error against its label share over the h grid."""
    p, rows = cmp.protocol, []
    graphs = {name: gs.load_dataset(name) for name in p.datasets}
    runs = experiments.sweep(
        partial(MSG, gamma=1.0),
        {"h": list(p.h_grid)},
        {name: (_features(g, p.d), g.labels) for name, g in graphs.items()},
        {name: random_orders(g.n_nodes, p.n_orders, cmp.seed) for name, g in graphs.items()},
        seed=cmp.seed,
        n_jobs=N_JOBS,
    )
    for (name, h), r in runs.groupby(["dataset", "h"], sort=False):
        rows.append({"dataset": name, "h": h, "labels %": 100 * r.n_queried.mean() / graphs[name].n_nodes,
                     "error": r.error_rate.mean(), "error std": r.error_rate.std()})  # fmt: skip
    curve = pd.DataFrame(rows)
    cmp.curve = curve
    if verbose:
        for name in p.datasets:
            relax = cmp.row(name, "Relaxation (push)").error
            c = curve[curve.dataset == name]
            hit = c[c.error <= relax]
            print(
                f"{name}: relaxation error {relax:.4f}; best MSG {c.error.min():.4f} at "
                f"{c.loc[c.error.idxmin(), 'labels %']:.1f}% labels; "
                + (f"MSG matches it with {hit['labels %'].min():.1f}% of the labels" if len(hit)
                   else "no h in the grid matches it")
            )  # fmt: skip
    return curve


def draw_error_vs_labels(cmp: Comparison):
    """Notebook 34's figure: MSG's h sweep, CMOG and the relaxation learner, FastONL's reference run dotted."""
    datasets = cmp.protocol.datasets
    fig, axes = plotting.subplots(1, len(datasets), size=(3.5 * len(datasets), 3.4), squeeze=False)
    for ax, name in zip(axes[0], datasets, strict=True):
        c = cmp.curve[cmp.curve.dataset == name]
        ax.errorbar(c["labels %"], c["error"], yerr=c["error std"], label="MSG (h sweep)",
                    **plotting.algorithm_style("MSG"))  # fmt: skip
        for method, style in (("CMOG (one-hot)", "CMOG"), ("Relaxation (push)", "relaxation")):
            r = cmp.row(name, method)
            ax.errorbar([r["labels %"]], [r.error], yerr=[r.error_std], label=method, capsize=3,
                        **{**plotting.algorithm_style(style), "linestyle": "none"})  # fmt: skip
        _error_vs_labels_axes(ax, name)
    fig.legend(*axes[0, 0].get_legend_handles_labels(), loc="outside lower center", ncol=2)
    return fig


def reading_compare(cmp: Comparison) -> Reading:
    """Notebook 34 Sec. 5: per data set, error, labels and time per pass, rendered from the tables."""
    graphs = []
    for name in cmp.protocol.datasets:
        rx, cm, ms = (cmp.row(name, m) for m in ("Relaxation (push)", "CMOG (one-hot)", "MSG"))
        c = cmp.curve[cmp.curve.dataset == name]
        best = c.loc[c.error.idxmin()]
        lowest = min((rx.error, 0), (cm.error, 1), (ms.error, 2))[1]  # ties: the order of the sentence
        graphs.append(
            reading(
                "fastonl.compare.graph",
                dict(
                    relax_lowest=lowest == 0,
                    cmog_lowest=lowest == 1,
                    no_h_reaches=bool((c.error > rx.error + rx.error_std).all()),
                ),
                dataset=NAME.get(name, name),
                relax_error=rx.error,
                cmog_error=cm.error,
                msg_error=ms.error,
                msg_h=ms.setting.split(", ")[-1],
                msg_labels=ms["labels %"],
                msg_minus_relax=ms.error - rx.error,
                best_error=best.error,
                best_labels=best["labels %"],
                relax_s=rx.time,
                relax_ms_per_round=1e3 * rx.time / cmp.n_nodes[name],
                msg_s=ms.time,
                cmog_s=cm.time,
            )
        )
    return reading("fastonl.compare", graphs=graphs)


# =========================================================================== notebook 35


@dataclass
class Limits:
    """Notebook 35 Sec. 1: the margin rule's two limits on one Cora order (b huge: every label; b tiny: ties)."""

    n: int
    plain_error: float
    tiny_labels: int
    tiny_ties: int
    tiny_error: float

    def report(self) -> str:
        return (
            f"b=1e15: all {self.n} labels, predictions identical to the relaxation learner (error "
            f"{self.plain_error:.4f})\nb=1e-12: {self.tiny_labels} labels ({self.tiny_ties} ties), error "
            f"{self.tiny_error:.4f}"
        )


def check_limits(seed: int = 0, beta_fraction: float = 0.1) -> Limits:
    """Asserts the limits of ``MarginSampling`` around the push learner on Cora, one order."""
    g = gs.load_dataset("cora")
    n = g.n_nodes
    beta0 = beta_fraction * n
    ids = node_ids(n)

    def relax():
        return Relaxation(g.adjacency, beta=beta0, kernel="push")

    plain = run(relax(), ids, g.labels, seed=seed)
    huge = run(MarginSampling(relax(), b=1e15, seed=seed), ids, g.labels, seed=seed)
    tiny = run(MarginSampling(relax(), b=1e-12, seed=seed), ids, g.labels, seed=seed, record=("margin",))
    assert huge.queried.all() and np.array_equal(huge.predictions, plain.predictions)
    ties = tiny.records["margin"] == 0
    assert tiny.queried[0] and np.array_equal(tiny.queried[ties], np.ones(ties.sum(), bool))
    return Limits(n, plain.error_rate, int(tiny.n_queried), int(ties.sum()), tiny.error_rate)


def _margin(relax, b):
    return MarginSampling(relax(), b=b)


def _random(relax, p):
    return RandomQueries(relax(), p=p)


@dataclass
class Sweep(Result):
    """Notebook 35 Secs. 2-4: the fully supervised learner, the margin rule over b, its random control, MSG."""

    protocol: Protocol
    summary: pd.DataFrame = table_field("selective_relaxation", float_format="%.4f", required=True)
    headline: pd.DataFrame = table_field("selective_relaxation_headline", float_format="%.4f")
    PREFIX = "35_"

    def rows(self, name: str, method: str) -> pd.DataFrame:
        s = self.summary
        return s[(s.dataset == name) & (s.method == method)].reset_index(drop=True)

    @property
    def random_minus_margin(self) -> pd.Series:
        """Random queries' error minus the margin rule's, per budget (the control runs at the rule's labels)."""
        pairs = self.summary[self.summary.method.str.startswith("Relaxation +")].copy()
        pairs["budget"] = np.arange(len(pairs)) // 2  # margin row, then its random control
        wins = pairs.pivot_table(index=["dataset", "budget"], columns="method", values="error")
        return wins["Relaxation + random queries"] - wins["Relaxation + margin queries"]


def sweep(profile: str = "full", seed: int = 0, verbose: bool = True) -> Sweep:
    """Notebook 35 Sec. 2: per data set beta tuned (as notebook 34), then every learner on the same orders."""
    p = protocol(profile)
    rows = []

    def add(name, method, setting, res, n):
        rows.append({"dataset": name, "method": method, "setting": setting, "error": res.error_rate.mean(),
                     "error std": res.error_rate.std(), "labels %": 100 * res.n_queried.mean() / n,
                     "time": res.time.mean(), "orders": len(res)})  # fmt: skip

    for name in p.datasets:
        g = gs.load_dataset(name)
        n, y = g.n_nodes, g.labels
        assert name != "pubmed" or n == 19_717
        ids = node_ids(n)
        orders = random_orders(n, p.selective_orders[name], seed)
        make = relaxation_maker(g.adjacency, "push")
        grid = {"beta": [f * n for f in p.selective_beta_fractions]}
        best, _ = tune(make, grid, ids, y, tuning_order(n, seed), n_jobs=N_JOBS)
        relax = partial(make, **best)
        beta_txt = f"beta={best['beta'] / n:g}n"
        add(
            name,
            "Relaxation (all labels)",
            beta_txt,
            evaluate(relax, ids, y, orders, seed=seed, n_jobs=N_JOBS),
            n,
        )
        for b in p.b_grid[name]:
            res = evaluate(partial(_margin, relax, b), ids, y, orders, seed=seed, n_jobs=N_JOBS,
                           method=f"margin b={b:g}")  # fmt: skip
            add(name, "Relaxation + margin queries", f"{beta_txt}, b={b:g}", res, n)
            q = min(1.0, res.n_queried.mean() / n)
            ctl = evaluate(partial(_random, relax, q), ids, y, orders, seed=seed, n_jobs=N_JOBS,
                           method=f"random p={q:.4f}")  # fmt: skip
            add(name, "Relaxation + random queries", f"{beta_txt}, p={q:.3f} (matches b={b:g})", ctl, n)
        M = _features(g, p.d)
        for h in p.h_grid:
            res = evaluate(partial(MSG, gamma=1.0, h=h), M, y, orders, seed=seed, n_jobs=N_JOBS)
            add(name, "MSG", f"d={p.d}+bias, h={h:g}", res, n)
    out = Sweep(p, pd.DataFrame(rows))
    out.headline = _headline(out)
    if verbose:
        _print(out.summary)
    return out


def _headline(sw: Sweep) -> pd.DataFrame:
    """Per data set: the fewest labels at which the margin rule is within one std (>= 0.002) of full supervision."""
    head = []
    for name in sw.protocol.datasets:
        full = sw.rows(name, "Relaxation (all labels)").iloc[0]
        margin = sw.rows(name, "Relaxation + margin queries")
        random_ = sw.rows(name, "Relaxation + random queries")
        msg = sw.rows(name, "MSG")
        tol = max(full["error std"], FULL_TOL_FLOOR)
        ok = margin[margin.error <= full.error + tol]
        i = ok["labels %"].idxmin() if len(ok) else margin.error.idxmin()
        best_msg = msg.loc[msg.error.idxmin()]
        head.append({"dataset": name, "full error": full.error, "full std": full["error std"],
                     "margin labels %": margin.loc[i, "labels %"], "margin error": margin.loc[i, "error"],
                     "random error (same labels)": random_.loc[i, "error"],
                     "best MSG error": best_msg.error, "MSG labels %": best_msg["labels %"],
                     "reaches full error": bool(len(ok))})  # fmt: skip
    return pd.DataFrame(head)


def draw_selective(sw: Sweep):
    """Notebook 35's figure: error against labels for the margin rule, its random control and MSG."""
    datasets = sw.protocol.datasets
    fig, axes = plotting.subplots(1, len(datasets), size=(3.5 * len(datasets), 3.4), squeeze=False)
    styles = {"Relaxation + margin queries": ("relaxation", "-"), "Relaxation + random queries": ("Random", "--"),
              "MSG": ("MSG", "-")}  # fmt: skip
    for ax, name in zip(axes[0], datasets, strict=True):
        s = sw.summary[sw.summary.dataset == name]
        for method, (style, ls) in styles.items():
            c = s[s.method == method].sort_values("labels %")
            ax.errorbar(c["labels %"], c["error"], yerr=c["error std"], label=method, capsize=2,
                        **{**plotting.algorithm_style(style), "linestyle": ls})  # fmt: skip
        full = s[s.method == "Relaxation (all labels)"].iloc[0]
        ax.errorbar([100], [full.error], yerr=[full["error std"]], label="Relaxation (all labels)", capsize=3,
                    color="black", marker="s", markerfacecolor="white", markersize=6, linestyle="none")  # fmt: skip
        _error_vs_labels_axes(ax, name)
    fig.legend(*axes[0, 0].get_legend_handles_labels(), loc="outside lower center", ncol=2)
    return fig


def reading_selective(sw: Sweep) -> Reading:
    """Notebook 35 Sec. 5, rendered from the tables (the reference run counts as reached within 0.005)."""
    reach, work, vs_msg, times, budgets, shrinks = [], [], [], [], [], []
    for name in sw.protocol.datasets:
        full = sw.rows(name, "Relaxation (all labels)").iloc[0]
        mg, rd, ms = (
            sw.rows(name, m) for m in ("Relaxation + margin queries", "Relaxation + random queries", "MSG")
        )
        h = sw.headline[sw.headline.dataset == name].iloc[0]
        near = mg[mg.error <= full.error + 0.01]
        ref = mg[mg.error <= reference_run(name) + REFERENCE_QUOTED]
        r_near = near.loc[near["labels %"].idxmin()] if len(near) else None
        r_ref = ref.loc[ref["labels %"].idxmin()] if len(ref) else None
        reach.append(
            reading(
                "fastonl.selective.reach",
                dict(
                    reaches_full=bool(h["reaches full error"]),
                    near=bool(len(near)),
                    reaches_reference=bool(len(ref)),
                ),
                dataset=NAME[name],
                full_error=full.error,
                full_std=full["error std"],
                reach_labels=h["margin labels %"],
                reach_error=h["margin error"],
                best_error=mg.error.min(),
                near_labels=None if r_near is None else r_near["labels %"],
                near_error=None if r_near is None else r_near.error,
                near_diff=None if r_near is None else r_near.error - full.error,
                reference=reference_run(name),
                ref_labels=None if r_ref is None else r_ref["labels %"],
                ref_error=None if r_ref is None else r_ref.error,
            )
        )
        gap = (
            rd.error - mg.error
        )  # same budget, row by row (the control ran at the margin rule's label fraction)
        low = gap[mg["labels %"] < 50]
        work.append(
            reading(
                "fastonl.selective.work",
                dict(below_half=bool(len(low))),
                dataset=NAME[name],
                gap_min=gap.min(),
                gap_max=gap.max(),
                gap_below_half=Span(low.min(), low.max()) if len(low) else None,
                gap_last=gap.iloc[-1],
                last_labels=mg["labels %"].iloc[-1],
            )
        )
        shrinks.append(bool(gap.iloc[-1] < gap.iloc[0]))
        few = mg[mg["labels %"] < 25]
        best = ms.loc[ms.error.idxmin()]
        if len(few):
            f = few.loc[few.error.idxmin()]
            vs_msg.append(
                reading(
                    "fastonl.selective.vs_msg",
                    dataset=NAME[name],
                    error=f.error,
                    labels=f["labels %"],
                    msg_error=best.error,
                    msg_labels=best["labels %"],
                )
            )
        times.append(
            reading(
                "fastonl.selective.time", dataset=NAME[name], msg_s=ms.time.mean(), margin_s=mg.time.mean()
            )
        )
        budgets.append(
            reading(
                "fastonl.selective.budget",
                dict(msg_lower=bool(ms["labels %"].min() < mg["labels %"].min())),
                dataset=NAME[name],
                msg_labels=ms["labels %"].min(),
                margin_labels=mg["labels %"].min(),
            )
        )
    return reading(
        "fastonl.selective",
        dict(gap_shrinks=all(shrinks), few_labels=bool(vs_msg)),
        reach=reach,
        work=work,
        vs_msg=vs_msg,
        times=times,
        budgets=budgets,
    )
