"""The method atlas (notebook 45): the collection's methods side by side, in two panels never mixed.

* The **stream** panel (:func:`stream_panel`): online learners of
  :mod:`graphsel_lib.online`, each node predicted once, on arrival, in a
  random order; the error is the share of mistakes over the whole pass and
  the labels used are the rounds whose label the learner saw (all of them for
  a fully supervised learner). Every learner runs on the same seeded orders
  (:func:`graphsel_lib.experiments.random_orders`).
* The **pool** panel (:func:`pool_panel`): strategies of
  :mod:`graphsel_lib.active`, which choose any node of the graph to label;
  after each query the harmonic function with class mass normalisation
  predicts the nodes still unlabelled, and the error is measured there
  (:func:`graphsel_lib.active.run_pool`).

The two errors are not the same quantity (mistakes made while learning,
against the error of a final prediction on the nodes not asked), so the
panels share the graphs but never an axis. :func:`draw_atlas` draws both.

Hyper-parameters are those the reproduction notebooks chose on their held-out
tuning order (:data:`CHOSEN`, with the notebook that chose each); for a graph
those notebooks do not run, the same grid is tuned here on
:func:`graphsel_lib.experiments.tuning_order` with
:func:`graphsel_lib.experiments.tune` (:func:`hyper_parameters`).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from functools import partial

import matplotlib.ticker as mticker
import numpy as np
import pandas as pd
import scipy.sparse as sp

from .. import experiments as ex
from .._validation import DataWarning
from ..active import EER, S2, RandomPool, run_pool
from ..datasets import load_dataset
from ..graph import check_adjacency
from ..online import (
    BBQ,
    CMOG,
    GPA,
    MSG,
    OLLGC,
    SSLGC,
    WTA,
    MarginSampling,
    OneVsRest,
    Relaxation,
    node_ids,
    run,
)
from ..spectral import add_bias, spectral_embedding
from ..theory.trees import tree_and_line_cuts, wta_mistake_bound
from ..transductive import harmonic, predict
from .figures.graphs import graph_label
from .style import algorithm_style, subplots

__all__ = [
    "CHOSEN",
    "GRIDS",
    "VARIANTS",
    "Protocol",
    "protocol",
    "hyper_parameters",
    "stream_panel",
    "pool_panel",
    "draw_atlas",
    "wta_bound_runs",
    "s2_path_queries",
]

BIAS_B = 1.0  #: the constant feature of ``add_bias`` (gu2013 and yang2016 headline readings)
PUSH_EPS = 1e-4  #: the relaxation learner's push tolerance (notebook 34)
SSLGC_KAPPA = 0.4  #: gu2013 fixes kappa = 0.4

#: Hyper-parameters the reproduction notebooks chose on their held-out tuning order: OLLGC's and SSLGC's mu
#: (notebook 20, table ``20_gu2013_tuning``, bias feature, binary error), BBQ's kappa and MSG's h (notebook 30,
#: ``30_yang2016_tuned``, bias feature), the relaxation learner's beta / n (notebook 34, ``34_relaxation_vs_selective``).
CHOSEN = {
    "cora": {"mu_ollgc": 1.0, "mu_sslgc": 0.1, "kappa_bbq": 1.0, "h_msg": 0.01, "beta_fraction": 0.1},
    "coauthor": {"mu_ollgc": 0.1, "mu_sslgc": 1.0, "kappa_bbq": 0.7, "h_msg": 1e-4},
}
#: Where each chosen value comes from (for the notebook's table).
SOURCE = {"mu_ollgc": "notebook 20", "mu_sslgc": "notebook 20", "kappa_bbq": "notebook 30", "h_msg": "notebook 30",
          "beta_fraction": "notebook 34"}  # fmt: skip
#: The reproduction notebooks' grids, tuned here where :data:`CHOSEN` has no value.
GRIDS = {
    "mu_ollgc": (1e-3, 1e-2, 1e-1, 1.0, 10.0),
    "mu_sslgc": (1e-3, 1e-2, 1e-1, 1.0, 10.0),
    "kappa_bbq": (0.5, 0.6, 0.7, 0.8, 0.9, 1.0),
    "h_msg": (1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0, 10.0),
    "beta_fraction": (0.01, 0.05, 0.1, 0.3),
}

#: The atlas's variants of a learner's look (the learners' own: :data:`graphsel_lib.course.style.ALGORITHM_STYLES`).
VARIANTS = {
    "WTA (7 trees)": ("WTA", {"color": "#006D4F", "marker": "X"}),
    "relaxation + margin": ("relaxation", {"linestyle": ":"}),
    "random + harmonic (no CMN)": ("RandomPool", {"color": "#bdbdbd", "marker": "+", "linestyle": ":"}),
}


@dataclass(frozen=True)
class Protocol:
    """Sizes of one profile (``smoke``: the karate club, a few orders and queries, seconds)."""

    profile: str
    datasets: tuple
    d: int  #: rank of the spectral features (plus the bias) of the feature learners
    n_orders: int  #: stream: random node orders, shared by every learner
    sslgc_kappas: tuple  #: SSLGC's query exponents (the curve; gu2013's 0.4 among them)
    msg_hs: tuple  #: MSG's h (the curve)
    bbq_kappas: tuple  #: BBQ's kappa (the curve)
    margin_bs: tuple  #: the margin rule's b around the relaxation learner
    pool_runs: int  #: pool: runs per strategy (seeds of the initial node and of the random choices)
    budget: int  #: pool: queries per run
    checkpoints: tuple  #: pool: labels at which the error is reported
    eer_max_cost: float  #: EER runs where n² K² is at most this (its cost per query)
    eer_runs: int
    n_jobs: int = 2

    @property
    def smoke(self) -> bool:
        return self.profile == "smoke"


def protocol(profile: str = "full") -> Protocol:
    """The atlas's sizes: ``"full"`` (Cora, Coauthor, the political blogs) or ``"smoke"`` (karate)."""
    if profile == "smoke":
        return Protocol("smoke", ("karate",), 8, 2, (0.4,), (1e-2,), (1.0,), (0.01, 0.1), 2, 10, (2, 5, 11),
                        1e6, 1, n_jobs=1)  # fmt: skip
    if profile != "full":
        raise ValueError(f"profile must be 'smoke' or 'full', got {profile!r}")
    return Protocol(
        "full", ("cora", "coauthor", "polblogs"), 100, 10, (0.2, 0.4, 0.6), (1e-4, 1e-2, 1.0), (0.5, 0.7, 1.0),
        (1e-3, 1e-2, 0.1), 5, 100, (5, 10, 20, 50, 101), 1e7, 2,
    )  # fmt: skip


def _ovr(cls, **params):
    return OneVsRest(partial(cls, **params))


def _ovr_gpa():
    return OneVsRest(GPA)


def _relax(S, beta):
    return Relaxation(S, beta=beta, kernel="push", eps=PUSH_EPS)


def _margin(S, beta, b):
    return MarginSampling(_relax(S, beta), b=b)


def hyper_parameters(name, g, X, p: Protocol, seed=0) -> pd.DataFrame:
    """One row per hyper-parameter: its value and where it comes from (a notebook, or tuned here)."""
    chosen = CHOSEN.get(name, {})
    n, y = g.n_nodes, g.labels
    order = ex.tuning_order(n, seed)
    makers = {
        "mu_ollgc": (partial(_ovr, OLLGC), "mu", X),
        "mu_sslgc": (partial(_ovr, SSLGC, kappa=SSLGC_KAPPA), "mu", X),
        "kappa_bbq": (BBQ, "kappa", X),
        "h_msg": (MSG, "h", X),
        "beta_fraction": (partial(_relax, g.adjacency), "beta", node_ids(n)),
    }
    rows = []
    for key, (make, param, feats) in makers.items():
        if key in chosen:
            rows.append({"parameter": key, "value": chosen[key], "source": SOURCE[key]})
            continue
        grid = list(GRIDS[key]) if not p.smoke else list(GRIDS[key])[::2]
        scale = n if key == "beta_fraction" else 1
        best, _ = ex.tune(
            make, {param: [v * scale for v in grid]}, feats, y, order, seed=seed, n_jobs=p.n_jobs
        )
        rows.append({"parameter": key, "value": best[param] / scale, "source": "tuned here (same grid)"})
    return pd.DataFrame(rows)


def _stream_methods(S, n, hp, p: Protocol):
    """``(method, setting, factory, features)`` of the stream panel: ``"M"`` spectral, ``"ids"`` node ids."""
    beta = hp["beta_fraction"] * n
    out = [("GPA", "-", _ovr_gpa, "M"),
           ("OLLGC", f"mu={hp['mu_ollgc']:g}", partial(_ovr, OLLGC, mu=hp["mu_ollgc"]), "M")]  # fmt: skip
    for k in p.sslgc_kappas:
        out.append(
            (
                "SSLGC",
                f"mu={hp['mu_sslgc']:g}, kappa={k:g}",
                partial(_ovr, SSLGC, mu=hp["mu_sslgc"], kappa=k),
                "M",
            )
        )
    out.append(("CMOG", "gamma=1", partial(CMOG, targets="definition1"), "M"))
    for h in sorted(set(p.msg_hs) | {hp["h_msg"]}):
        out.append(("MSG", f"h={h:g}", partial(MSG, h=h), "M"))
    for k in sorted(set(p.bbq_kappas) | {hp["kappa_bbq"]}):
        out.append(("BBQ", f"kappa={k:g}", partial(BBQ, kappa=k), "M"))
    out.append(("relaxation", f"beta={hp['beta_fraction']:g}n", partial(_relax, S, beta), "ids"))
    for b in p.margin_bs:
        out.append(
            (
                "relaxation + margin",
                f"beta={hp['beta_fraction']:g}n, b={b:g}",
                partial(_margin, S, beta, b),
                "ids",
            )
        )
    out.append(("WTA", "1 tree", partial(WTA, S), "ids"))
    out.append(("WTA (7 trees)", "7 trees", partial(WTA, S, n_trees=7), "ids"))
    return out


def stream_panel(profile: str = "full", seed: int = 0, verbose: bool = False):
    """The stream panel: every online learner on the same seeded orders of every data set.

    Returns ``(runs, hyper)``: ``runs`` one row per (data set, method, setting)
    with ``n, orders, labels`` (mean labels used), ``labels %``, ``error``
    (mean mistake rate over the pass), ``error std`` and ``time``; ``hyper``
    the hyper-parameters per data set with their source.
    """
    p = protocol(profile)
    rows, hyper = [], []
    for name in p.datasets:
        g = load_dataset(name)
        n, y = g.n_nodes, g.labels
        X = np.ascontiguousarray(add_bias(spectral_embedding(g.adjacency, p.d).M, BIAS_B))
        hp_table = hyper_parameters(name, g, X, p, seed)
        hyper.append(hp_table.assign(dataset=name))
        hp = dict(zip(hp_table["parameter"], hp_table["value"], strict=True))
        orders = ex.random_orders(n, p.n_orders, seed)
        for method, setting, make, kind in _stream_methods(g.adjacency, n, hp, p):
            feats = X if kind == "M" else node_ids(n)
            res = ex.evaluate(make, feats, y, orders, seed=seed, n_jobs=p.n_jobs, method=method)
            rows.append({"dataset": name, "method": method, "setting": setting, "n": n, "orders": len(res),
                         "labels": res.n_queried.mean(), "labels %": 100 * res.n_queried.mean() / n,
                         "error": res.error_rate.mean(), "error std": res.error_rate.std(ddof=1) if len(res) > 1 else 0.0,
                         "time": res.time.mean()})  # fmt: skip
            if verbose:
                print(
                    f"{name} {method} ({setting}): error {rows[-1]['error']:.4f}, labels {rows[-1]['labels %']:.1f} %"
                )
    hyper = pd.concat(hyper, ignore_index=True)[["dataset", "parameter", "value", "source"]]
    return pd.DataFrame(rows), hyper


def _harmonic_error(S, y, labelled, K, cmn, prior):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        y_known = np.full(y.size, -1)
        y_known[labelled] = y[labelled]
        F = harmonic(S, y_known, labelled, cmn=cmn, n_classes=K, class_prior=prior)
    unl = np.setdiff1d(np.arange(y.size), labelled)
    return float(np.mean(predict(F[unl]) != y[unl]))


def _pool_run(name, strategy, run, p: Protocol, seed):
    """One pool run: the error after each checkpoint's number of labels (the initial node counts as one)."""
    g = load_dataset(name)
    S, y, K = g.adjacency, g.labels, g.n_classes
    prior = np.bincount(y, minlength=K) / y.size  # CMN's class masses: the graph's class shares, known
    make = {"RandomPool": RandomPool, "S2": S2, "EER": EER, "random + harmonic (no CMN)": RandomPool}[
        strategy
    ]
    budget = min(p.budget, max(p.checkpoints) - 1)
    trace = run_pool(
        make(), S, y, budget, seed=int(ex.order_seeds(p.pool_runs, seed)[run]), initial=1, class_prior=prior
    )
    rows = []
    for labels in p.checkpoints:
        step = labels - 2  # labels = 1 initial + (step + 1) queries
        if strategy == "random + harmonic (no CMN)":
            err = _harmonic_error(S, y, trace.labelled_after(step), K, False, None)
        else:
            err = float(trace.errors[step])
        rows.append({"dataset": name, "strategy": strategy, "run": run, "labels": labels, "error": err,
                     "select time": float(trace.elapsed[step])})  # fmt: skip
    return rows


def pool_panel(profile: str = "full", seed: int = 0) -> pd.DataFrame:
    """The pool panel: RandomPool, S², EER (where ``n² K²`` is small enough) and random + plain harmonic.

    Every strategy starts from one random labelled node (the run's seed; EER
    needs one) and queries up to the last checkpoint; CMN uses the graph's
    class shares. Returns one row per (data set, strategy, labels) with the
    mean and standard deviation of the error on the unlabelled nodes over
    the runs.
    """
    from joblib import Parallel, delayed

    p = protocol(profile)
    jobs = []
    for name in p.datasets:
        g = load_dataset(name)
        strategies = ["RandomPool", "random + harmonic (no CMN)", "S2"]
        if g.n_nodes**2 * g.n_classes**2 <= p.eer_max_cost:
            strategies.append("EER")
        for strategy in strategies:
            runs = p.eer_runs if strategy == "EER" else p.pool_runs
            jobs += [delayed(_pool_run)(name, strategy, r, p, seed) for r in range(runs)]
    jobs.sort(key=lambda j: j[1][1] != "EER")  # the long EER runs first
    out = Parallel(n_jobs=p.n_jobs)(jobs) if p.n_jobs > 1 else [f(*a, **k) for f, a, k in jobs]
    runs = pd.DataFrame([r for rows in out for r in rows])
    table = (runs.groupby(["dataset", "strategy", "labels"], sort=False)
             .agg(runs=("run", "size"), error=("error", "mean"), error_std=("error", "std"),
                  select_time=("select time", "mean"))
             .reset_index())  # fmt: skip
    order = {n: i for i, n in enumerate(p.datasets)}
    return table.sort_values(["dataset", "strategy", "labels"], key=lambda c: c.map(order) if c.name == "dataset" else c,
                             kind="stable").reset_index(drop=True)  # fmt: skip


def _style(name):

    base, changes = VARIANTS.get(name, (name, {}))
    return {**algorithm_style(base), **changes}


def draw_atlas(stream: pd.DataFrame, pool: pd.DataFrame):
    """Two rows, one column per data set: the stream panel on top, the pool panel below (never on one axis)."""

    datasets = list(dict.fromkeys(stream["dataset"]))
    fig, axes = subplots(2, len(datasets), size=(7.0, 5.6), squeeze=False)
    handles_s, handles_p = {}, {}
    for j, name in enumerate(datasets):
        ax = axes[0, j]
        for method, grp in stream[stream["dataset"] == name].groupby("method", sort=False):
            st = _style(method)
            st["linestyle"] = (
                "-" if len(grp) > 1 and st.get("linestyle") in (None, "none") else st.get("linestyle", "-")
            )
            grp = grp.sort_values("labels %")
            (line,) = ax.plot(grp["labels %"], grp["error"], ms=6 if method.startswith("WTA") else 4, **st)
            handles_s.setdefault(method, line)
        ax.set(xscale="log", title=f"{graph_label(name)}: stream", xlabel="labels used (% of $n$)")
        ax.xaxis.set_major_locator(
            mticker.LogLocator(subs=(1.0, 3.0))
        )  # 1, 3, 10, 30, 100: no crowded labels
        ax.xaxis.set_major_formatter(mticker.FormatStrFormatter("%g"))
        ax.xaxis.set_minor_formatter(mticker.NullFormatter())
        ax = axes[1, j]
        for strategy, grp in pool[pool["dataset"] == name].groupby("strategy", sort=False):
            (line,) = ax.plot(grp["labels"], grp["error"], ms=4, **_style(strategy))
            handles_p.setdefault(strategy, line)
        ax.set(xscale="log", title=f"{graph_label(name)}: pool", xlabel="labels queried")
    axes[0, 0].set_ylabel("mistake rate over the pass")
    axes[1, 0].set_ylabel("error on the unlabelled nodes")
    fig.legend(list(handles_s.values()), list(handles_s), loc="outside right upper", title="stream (top row)")
    fig.legend(
        list(handles_p.values()), list(handles_p), loc="outside right lower", title="pool (bottom row)"
    )
    return fig


# --------------------------------------------------------------------------- chapter 13's sweeps
def wta_bound_runs(S, labels, n_runs, seed=0):
    """One-tree WTA on ``n_runs`` (tree, order) pairs: mistakes, tree and line cuts, the bound of each.

    Run ``k`` draws its tree from ``WTA(S, seed=s_k)`` and its order from
    ``random_orders(n, n_runs, seed)[k]`` (``s_k`` from ``order_seeds``). The
    graph must be unweighted (the bound is in label changes). Returns a
    DataFrame with one row per run: ``run, mistakes, tree cut, line cut,
    bound`` (:func:`wta_mistake_bound`).
    """
    S = check_adjacency(S, require_connected=True)
    if S.nnz and not np.allclose(S.data, 1.0):
        raise ValueError("wta_bound_runs needs an unweighted graph (the bound counts label changes)")
    y = np.asarray(labels)
    n = S.shape[0]
    orders = ex.random_orders(n, n_runs, seed)
    rows = []
    for k, (order, s) in enumerate(zip(orders, ex.order_seeds(n_runs, seed), strict=True)):
        w = WTA(S, seed=s)
        trace = run(w, node_ids(n), y, order=order)
        cuts = tree_and_line_cuts(w.trees[0], w.lines[0], y)
        rows.append({"run": k, "mistakes": trace.n_mistakes, "tree cut": cuts["tree"], "line cut": cuts["line"],
                     "bound": wta_mistake_bound(w.lines[0], y)})  # fmt: skip
    return pd.DataFrame(rows)


def _s2_cut_found(trace, cut, n):
    """``(queries until both ends of the cut edge are labelled, queries until two labels differ)``, or None."""
    known = np.zeros(n, dtype=bool)
    first_two = None
    for t, u in enumerate(trace.queries, start=1):
        known[u] = True
        if first_two is None and len(set(trace.labels[:t].tolist())) == 2:
            first_two = t
        if known[cut - 1] and known[cut]:
            return t, first_two
    return None


def s2_path_queries(n, n_runs, seed=0):
    """Queries S² needs to find the one cut edge of a path of ``n`` nodes labelled ``0…0 1…1``.

    The cut sits at a position drawn uniformly per run (away from the ends),
    ``run_pool(S2(), path, y, budget, seed)`` is played with no initial
    label, and the answer is the number of queries until both ends of the cut
    edge are labelled; ``random`` counts those of the random phase (before two
    different labels are known). Returns a DataFrame: ``n, run, cut, queries,
    random, bisection``.
    """
    S = sp.diags([np.ones(n - 1), np.ones(n - 1)], [1, -1]).tocsr()
    rng = np.random.default_rng([seed, n])
    rows = []
    for k in range(int(n_runs)):
        cut = int(rng.integers(1, n - 1))  # nodes 0..cut-1 are class 0, the cut edge is (cut - 1, cut)
        y = (np.arange(n) >= cut).astype(np.int64)
        run_seed = int(rng.integers(2**31))
        # a first budget of a few log2 n; a cut near an end of the path can need a long random phase
        # (the smaller class is hit by chance), so the budget doubles until the cut is found: the
        # queries of a larger budget begin with those of a smaller one (the same seed), so the
        # answer does not depend on the first budget
        budget = min(n - 2, 4 * int(np.ceil(np.log2(n))) + 40)
        while (
            found := _s2_cut_found(
                run_pool(S2(), S, y, budget, seed=run_seed, class_prior=np.full(2, 0.5)), cut, n
            )
        ) is None:
            if budget == n - 1:
                raise RuntimeError(f"S2 did not find the cut of a path of {n} nodes within {budget} queries")
            budget = min(n - 1, 2 * budget)
        t, first_two = found
        rows.append({"n": n, "run": k, "cut": cut, "queries": t, "random": first_two,
                     "bisection": t - first_two})  # fmt: skip
    return pd.DataFrame(rows)
