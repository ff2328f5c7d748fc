"""Notebook 42's protocol and runs: Table 1 (UCI, graph vs RBF kernel, 10 folds), Table 2 (WebKB co-links),
the WebKB homophily and the solver checks of the transductive GP (gaertner2005 Sec. 6).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from itertools import product

import numpy as np
import pandas as pd
from joblib import Parallel, delayed, parallel_config
from scipy.spatial.distance import pdist, squareform
from sklearn.model_selection import StratifiedKFold

import graphsel_lib as gs
from graphsel_lib import experiments as ex
from graphsel_lib._validation import as_symmetric_matrix
from graphsel_lib.papers.common import N_JOBS, Result, is_smoke, table_field
from graphsel_lib.transductive import (
    balance_epsilon,
    dense_kinv_matmul,
    gp_kernel_inverse,
    gp_objective,
    harmonic,
    llgc,
    match_class_proportions,
    transductive_gp,
    transductive_gp_fit,
)

from .published import FOUR, HEADLINE, PUBLISHED_T2, _pub_t1


@dataclass(frozen=True)
class Protocol:
    """Sizes and grids of notebook 42 (``smoke``: wine and heart, two folds, Cornell)."""

    profile: str
    uci: tuple  #: Table 1
    webkb: tuple  #: Table 2
    n_folds: int = 10
    outer: int = 10  #: outer folds actually run (smoke: the first two)
    grid_graph: tuple = (("sigma2", (1.0, 10.0, 100.0)), ("kernel_eps", (0.01, 0.1)))  #: kNN-graph kernel
    grid_rbf: tuple = (
        ("width", (0.25, 1.0, 4.0)),
        ("sigma2", (1.0, 10.0)),
    )  #: width^2 = w * median sq. distance
    rbf_jitter: float = 0.1  #: K = RBF + 0.1 I (the GP's noise / jitter), K^-1 formed densely
    #: dense K^-1: the RBF runs on the sets up to 1,500 points (tic-tac-toe, 958, and cmc, 1,473, included;
    #: one outer fold of cmc, both kernels tuned, takes about 40 s on one core with dense_kinv_matmul's
    #: products, 110 s with the sparse product); USPS (9,298) is out:
    #: dense n x n products
    rbf_max_n: int = 1500
    tight_eps: float = HEADLINE.binding_eps  #: a balance interval that binds

    @property
    def smoke(self) -> bool:
        return self.profile == "smoke"

    @property
    def outer_folds(self) -> range:
        """The outer folds run (the first ``outer`` of the ``n_folds``)."""
        return range(min(self.outer, self.n_folds))

    @property
    def graph_configs(self) -> list:
        return list(product(*(v for _, v in self.grid_graph)))

    @property
    def rbf_configs(self) -> list:
        return list(product(*(v for _, v in self.grid_rbf)))

    @property
    def tight(self) -> str:
        """The method name of the GP at the binding interval."""
        return f"transductive GP (RBF, eps={self.tight_eps:g})"

    @property
    def tight_knn(self) -> str:
        """The method name of the kNN-graph GP at the binding interval (the balance-interval reading)."""
        return f"transductive GP (kNN graph, eps={self.tight_eps:g})"


UCI_FULL = ("uci-breast-cancer", "uci-heart", "uci-housing", "uci-ionosphere", "uci-pima", "uci-sonar",
            "uci-glass", "uci-wine", "uci-tictactoe", "uci-cmc", "usps")  # fmt: skip


def protocol(profile: str = "full") -> Protocol:
    """Notebook 42's protocol (Sec. 6 of the paper: 10-fold CV, inner 3-fold tuning; inverse CV on WebKB)."""
    if is_smoke(profile):
        return Protocol(profile, ("uci-wine", "uci-heart"), ("cornell",), outer=2)
    return Protocol(profile, UCI_FULL, FOUR)


T1M = {"knn": "transductive GP (kNN graph)", "rbf": "transductive GP (RBF)", "ind": "inductive GP (RBF)"}


def _error(F, y, idx):
    return float(np.mean(F[idx].argmax(1) != y[idx]))


def _binds(fit):
    return bool(np.any(np.abs(fit.gamma) > 1e-10))


def _folds(y, p: Protocol, seed, X=None):
    with warnings.catch_warnings():  # glass, texas: a class too small for every fold
        warnings.filterwarnings("ignore", message="The least populated class")
        return list(StratifiedKFold(p.n_folds, shuffle=True, random_state=seed).split(
            np.zeros(y.size) if X is None else X, y))  # fmt: skip


def rbf_kinv(X, width, jitter=0.1, zscore=True):
    """Dense ``K^-1`` of ``K = exp(-|x_i - x_j|^2 / (2 w m)) + jitter I`` (``m`` the median squared distance
    of the z-scored rows when ``zscore``), symmetrised."""
    Z = (X - X.mean(0)) / np.where(X.std(0) > 0, X.std(0), 1.0) if zscore else X
    D2 = squareform(pdist(Z, "sqeuclidean"))
    K = np.exp(-D2 / (2 * width * np.median(D2[D2 > 0]))) + jitter * np.eye(len(Z))
    Kinv = np.linalg.inv(K)
    return (Kinv + Kinv.T) / 2


def kinv_csr(Kinv):
    """``K^-1`` as the canonical CSR matrix :func:`transductive_gp` turns its input into (``kind="kinv"``).

    Made once and passed to every fit, it spares each fit that conversion (of a dense ``n x n`` RBF
    ``K^-1``, the cost of several Newton-CG products); the fits multiply by the same matrix, so they are the
    same bit for bit.
    """
    return as_symmetric_matrix(Kinv, "Kinv")


def graph_kinvs(S, kernel_eps):
    """``{e: K^-1}`` of the kNN graph ``S`` for every ``kernel_eps`` ``e``, as :func:`transductive_gp` builds it
    from an adjacency (:func:`gp_kernel_inverse` of the canonical ``S``): pass it with ``kind="kinv"``."""
    A = as_symmetric_matrix(S, "S")
    return {e: kinv_csr(gp_kernel_inverse(A, e)) for e in kernel_eps}


def _tune(fit, configs, y, train, rs):
    """Best config by 3-fold CV inside ``train`` (held-out third unlabelled); a tie goes to the first."""
    inner = list(StratifiedKFold(3, shuffle=True, random_state=rs).split(train, y[train]))
    scores = [
        np.mean([_error(fit(c, np.sort(train[a])).scores, y, train[b]) for a, b in inner]) for c in configs
    ]
    return configs[ex.pick_best(scores).index]


def _one_dataset(name, p: Protocol, seed, folds=None):
    """Every method on the outer folds ``folds`` (default: every fold run) of one UCI set: (rows, bind_rows)."""
    folds = p.outer_folds if folds is None else folds
    rows, bind_rows = [], []
    g = gs.load_dataset(name)
    S, y, K = g.adjacency, g.labels, g.n_classes
    use_rbf = g.n_nodes <= p.rbf_max_n
    widths = dict(p.grid_rbf)["width"]
    # every K^-1 once per data set (not once per fit), in the form each fit would have made of it
    Kinv_graph = graph_kinvs(S, dict(p.grid_graph)["kernel_eps"])
    dense = (
        {w: rbf_kinv(g.features, w, p.rbf_jitter, zscore=name != "uci-tictactoe") for w in widths}
        if use_rbf
        else {}
    )
    Kinv_rbf = {w: kinv_csr(D) for w, D in dense.items()}
    # the dense K^-1's products, the CSR product's sums in its order (the same bits, a fifth of the time)
    rbf_products = {w: dense_kinv_matmul(D) for w, D in dense.items()}

    def fit_graph(c, lab, **kw):
        return transductive_gp_fit(Kinv_graph[c[1]], y, lab, kind="kinv", sigma2=c[0], n_classes=K, **kw)

    def fit_rbf(c, lab, **kw):
        return transductive_gp_fit(Kinv_rbf[c[0]], y, lab, kind="kinv", sigma2=c[1], n_classes=K,
                                   kinv_matmul=rbf_products[c[0]], **kw)  # fmt: skip

    splits = _folds(y, p, seed)
    for f in folds:
        train, test = splits[f]
        cg = _tune(fit_graph, p.graph_configs, y, train, seed + f)
        knn_setting = f"sigma2={cg[0]:g}, eps={cg[1]:g}"
        res = {T1M["knn"]: (fit_graph(cg, train), knn_setting),
               p.tight_knn: (fit_graph(cg, train, eps=p.tight_eps), knn_setting)}  # fmt: skip
        if use_rbf:
            cr = _tune(fit_rbf, p.rbf_configs, y, train, seed + f)
            setting = f"w={cr[0]:g}, sigma2={cr[1]:g}"
            res[T1M["rbf"]] = (fit_rbf(cr, train), setting)
            res[T1M["ind"]] = (fit_rbf(cr, train, balance=False), setting)
            res[p.tight] = (fit_rbf(cr, train, eps=p.tight_eps), setting)
        # how far the stratified test fold's class shares are from the training shares the interval centres on
        share_gap = float(np.max(np.abs(np.bincount(y[test], minlength=K) / test.size
                                        - np.bincount(y[train], minlength=K) / train.size)))  # fmt: skip
        ind_pred = res[T1M["ind"]][0].scores[test].argmax(1) if use_rbf else None
        for method, (fit, setting) in res.items():
            rows.append({"dataset": name, "fold": f, "method": method, "error": _error(fit.scores, y, test),
                         "setting": setting})  # fmt: skip
            bind_rows.append({
                "dataset": name, "fold": f, "method": method, "binds": _binds(fit), "eps": fit.eps,
                "converged": fit.converged, "newton": fit.iterations,
                "changed vs inductive": (int(np.sum(fit.scores[test].argmax(1) != ind_pred))
                                         if "RBF" in method else -1),
                "test points": test.size, "share gap": share_gap,
            })  # fmt: skip
        for method, F in (("LLGC (mu=1)", llgc(S, y, train, mu=1.0, n_classes=K)),
                          ("harmonic + CMN", harmonic(S, y, train, cmn=True, n_classes=K))):  # fmt: skip
            rows.append({"dataset": name, "fold": f, "method": method, "error": _error(F, y, test),
                         "setting": "kNN graph"})  # fmt: skip
    return rows, bind_rows


@dataclass
class Table1(Result):
    """Table 1 reproduced (gaertner2005 Sec. 6, 10-fold CV on UCI data): :func:`table1`."""

    protocol: Protocol
    folds: pd.DataFrame  #: one row per dataset, fold, method (error, chosen setting)
    bind: pd.DataFrame  #: one row per GP fit: does the balance constraint bind, eps, convergence
    #: mean ± std over the folds (written as ``42_gaertner2005_table1``)
    summary: pd.DataFrame = table_field("gaertner2005_table1", float_format="%.4f", required=True)
    PREFIX = "42_"

    def row(self, name, method):
        """The summary row of ``method`` on ``name``, or ``None``."""
        r = self.summary[(self.summary.dataset == name) & (self.summary.method == method)]
        return None if r.empty else r.iloc[0]

    @property
    def errors(self) -> pd.DataFrame:
        """Mean error, dataset x method."""
        return self.summary.pivot_table(index="dataset", columns="method", values="error")

    @property
    def bind_summary(self) -> pd.DataFrame:
        """Per GP method: folds, folds where the constraint binds, eps range, convergence, Newton steps."""
        return self.bind.groupby("method", sort=False).agg(
            folds=("binds", "size"), binding=("binds", "sum"), eps_min=("eps", "min"), eps_max=("eps", "max"),
            all_converged=("converged", "all"), newton_max=("newton", "max"))  # fmt: skip

    @property
    def settings(self) -> pd.DataFrame:
        """The setting chosen most often by the inner CV, dataset x GP method."""
        chosen = self.folds[self.folds.method.str.contains("GP")].groupby(["dataset", "method"])["setting"]
        return chosen.agg(lambda s: s.value_counts().idxmax()).unstack()

    @property
    def tail(self) -> pd.DataFrame:
        """The bind rows of the transductive fits at the tail-bound interval."""
        b = self.bind
        return b[~b.method.str.contains("eps=") & (b.method != T1M["ind"])]

    def check(self) -> str:
        """Every GP fit converged (asserted); the tail-bound eps range."""
        assert self.bind["converged"].all(), "a Table 1 GP fit did not converge"
        e = self.bind.loc[~self.bind.method.str.contains("eps="), "eps"]
        return f"tail-bound eps over the Table 1 fits: {e.min():.3f}-{e.max():.3f}"


def table1(profile: str = "full", seed: int = 0) -> Table1:
    """Table 1 (notebook 42 Sec. 1): per UCI set and outer fold, the GP on the kNN graph and (up to
    ``rbf_max_n`` points) on the RBF kernel, inductive, transductive (tail bound) and at the binding
    interval, tuned by an inner 3-fold CV; LLGC and harmonic + CMN on the same folds.

    The outer folds (one task each, so that the two largest sets do not leave a worker idle) run in
    :data:`N_JOBS` worker processes with one BLAS thread each (the same seed gives the same numbers), results
    in the order of the protocol.
    """
    p = protocol(profile)
    with parallel_config(backend="loky", inner_max_num_threads=1):
        done = Parallel(n_jobs=N_JOBS)(
            delayed(_one_dataset)(name, p, seed, folds=(f,)) for name in p.uci for f in p.outer_folds
        )
    folds = pd.DataFrame([r for ds_rows, _ in done for r in ds_rows])
    bind = pd.DataFrame([r for _, ds_binds in done for r in ds_binds])
    t1 = (
        folds.groupby(["dataset", "method"], sort=False)
        .agg(error=("error", "mean"), error_std=("error", "std"), folds=("error", "size"))
        .reset_index()
    )
    t1["nodes"] = t1["dataset"].map(lambda d: gs.load_dataset(d).n_nodes)
    pub = _pub_t1()
    t1["published transd. GP"] = t1["dataset"].map(lambda d: pub[d][1][0] / 100 if d in pub else np.nan)
    return Table1(p, folds, bind, t1)


@dataclass
class Table2(Result):
    """Table 2 (WebKB, inverse 10-fold CV): :func:`table2`."""

    protocol: Protocol
    folds: pd.DataFrame
    #: mean ± std over the folds (written as ``42_gaertner2005_table2``)
    summary: pd.DataFrame = table_field("gaertner2005_table2", float_format="%.4f", required=True)
    PREFIX = "42_"


def table2(profile: str = "full", seed: int = 0) -> Table2:
    """Table 2 (notebook 42 Sec. 2): one stratified fold labelled, nine predicted, on the co-link and the
    link graph; the GP at its defaults, LLGC and harmonic + CMN; argmax and proportion matching."""
    p = protocol(profile)
    rows = []
    for uni in p.webkb:
        for kind in ("colinks", "links"):
            g = gs.load_dataset(f"webkb-{uni}", graph=kind)
            S, y, K = g.adjacency, g.labels, g.n_classes
            for f, (rest, one) in enumerate(_folds(y, p, seed)[: p.outer]):
                lab, test = np.sort(one), np.sort(rest)  # inverse: train on ONE fold
                prop = np.bincount(y[lab], minlength=K) / lab.size
                for method, F in (
                    ("transductive GP", transductive_gp(S, y, lab, n_classes=K)),
                    ("LLGC (mu=1)", llgc(S, y, lab, mu=1.0, n_classes=K)),
                    ("harmonic + CMN", harmonic(S, y, lab, cmn=True, n_classes=K)),
                ):
                    matched = match_class_proportions(F[test], prop)
                    rows.append({"university": uni, "graph": kind, "method": method, "nodes": g.n_nodes, "fold": f,
                                 "error_argmax": _error(F, y, test),
                                 "error_matched": float(np.mean(matched != y[test]))})  # fmt: skip
    folds = pd.DataFrame(rows)
    t2 = (
        folds.groupby(["university", "graph", "method"], sort=False)
        .agg(
            nodes=("nodes", "first"),
            error_matched=("error_matched", "mean"),
            error_matched_std=("error_matched", "std"),
            error_argmax=("error_argmax", "mean"),
            error_argmax_std=("error_argmax", "std"),
        )  # fmt: skip
        .reset_index()
    )
    t2["published"] = t2["university"].map(PUBLISHED_T2["error"]) / 100
    return Table2(p, folds, t2)


@dataclass
class Homophily(Result):
    """Why our WebKB cannot match (notebook 42 Sec. 3): :func:`webkb_homophily`."""

    class_names: list
    #: per university and graph (written as ``42_webkb_homophily``)
    table: pd.DataFrame = table_field("webkb_homophily", float_format="%.3f", required=True)
    PREFIX = "42_"


def webkb_homophily(profile: str = "full") -> Homophily:
    """Edge homophily, majority-class error and the error of the vote of the true neighbour labels, per
    university and graph (co-links, links)."""
    ev = []
    for uni in protocol(profile).webkb:
        for kind in ("colinks", "links"):
            g = gs.load_dataset(f"webkb-{uni}", graph=kind)
            S, y, K = g.adjacency.tocsr(), g.labels, g.n_classes
            A = S.tocoo()
            h = float(A.data[y[A.row] == y[A.col]].sum() / A.data.sum())
            share = np.bincount(y, minlength=K) / g.n_nodes
            votes = np.asarray(S @ np.eye(K)[y])  # weighted true-label counts of the neighbours
            ev.append({
                "university": uni, "graph": kind, "nodes": g.n_nodes, "edges": g.n_edges, "edge homophily": h,
                "majority error": 1 - share.max(), "neighbour-vote error": float(np.mean(votes.argmax(1) != y)),
                "published error": PUBLISHED_T2.loc[uni, "error"] / 100,
                "class shares": " / ".join(f"{x:.2f}" for x in share),
            })  # fmt: skip
    return Homophily(list(g.class_names), table=pd.DataFrame(ev))


def solver_checks(seed: int = 0, tight_eps: float = HEADLINE.binding_eps) -> pd.DataFrame:
    """The claims notebook 42 relies on, asserted on one problem each (Eqs. 14 and 18, the conditional mean,
    proportion matching); returns the measured slacks, one row per check."""
    g = gs.load_dataset("webkb-cornell", graph="colinks")
    S, y, K = g.adjacency, g.labels, g.n_classes
    p = protocol("full")
    rest, one = _folds(y, p, seed)[0]
    lab, test = np.sort(one), np.sort(rest)
    n, l, u = y.size, lab.size, y.size - lab.size
    checks = []
    for label, kw in ((f"tight eps={tight_eps:g}", {"eps": tight_eps}), ("tail-bound eps", {})):
        fit = transductive_gp_fit(S, y, lab, n_classes=K, tol=1e-8, **kw)
        frac = fit.q.mean(0)
        rm, rp, gam = fit.r_minus, fit.r_plus, fit.gamma
        viol = max(float(np.max(rm - frac)), float(np.max(frac - rp)), 0.0)
        slack = max([abs(frac[j] - rp[j]) for j in range(K) if gam[j] > 1e-10]
                    + [abs(frac[j] - rm[j]) for j in range(K) if gam[j] < -1e-10] + [0.0])  # fmt: skip
        obj = fit.objective
        steps = np.diff(obj)
        _, grad, _ = gp_objective(gp_kernel_inverse(S, 0.01), y, lab, fit.t, sigma2=100.0, balance=(rm, rp),
                                  n_classes=K)  # fmt: skip
        checks.append({
            "problem": f"cornell colinks, {label}", "eps": fit.eps,
            "binding classes": int(np.sum(np.abs(gam) > 1e-10)), "max bound violation": viol,
            "max KKT slack": slack, "max |row sum - 1|": float(np.max(np.abs(fit.q.sum(1) - 1))),
            "Newton steps": fit.iterations, "max objective increase": float(max(steps.max(), 0.0)),
            "objective first -> last": f"{obj[0]:.4f} -> {obj[-1]:.4f}",
            "max |grad| (recomputed)": float(np.max(np.abs(grad))),
        })  # fmt: skip
        assert fit.converged, label
        assert viol <= 1e-8 and slack <= 1e-8, (label, viol, slack)
        assert np.all(steps <= 1e-12 * max(1.0, abs(obj[0]))), f"{label}: the objective increased"
        assert np.max(np.abs(grad)) <= 1e-7, f"{label}: gradient at the solution {np.max(np.abs(grad)):.2e}"
        if label.startswith("tight"):
            assert np.any(np.abs(gam) > 1e-10), "the tight interval was meant to bind"
        else:
            assert np.isclose(fit.eps, np.sqrt(np.log(2 * K / 0.05) * n / (2 * l * u)))
            assert np.isclose(fit.eps, balance_epsilon(l, u, K, 0.05))
    # inductive GP = conditional mean, and = transductive GP when the constraint does not bind
    gh = gs.load_dataset("uci-heart")
    train = _folds(gh.labels, p, seed, X=gh.features)[0][0]
    Ki = rbf_kinv(gh.features, 1.0)
    fit_i = transductive_gp_fit(
        Ki, gh.labels, train, kind="kinv", sigma2=10.0, balance=False, output="t", tol=1e-10
    )
    Fi, U, Lset = fit_i.scores, fit_i.unlabelled, np.sort(train)
    t_cond = -np.linalg.solve(Ki[np.ix_(U, U)], Ki[np.ix_(U, Lset)] @ Fi[Lset])
    fit_t = transductive_gp_fit(Ki, gh.labels, train, kind="kinv", sigma2=10.0, tol=1e-10)
    Ft = fit_t.scores
    Fq = transductive_gp(Ki, gh.labels, train, kind="kinv", sigma2=10.0, balance=False, tol=1e-10)
    checks.append({"problem": "heart RBF: |t_U - conditional mean|",
                   "max |grad| (recomputed)": float(np.max(np.abs(Fi[U] - t_cond)))})  # fmt: skip
    checks.append({"problem": "heart RBF: |q transd. - q ind.| (not binding)", "eps": fit_t.eps,
                   "binding classes": int(np.sum(np.abs(fit_t.gamma) > 1e-10)),
                   "max |grad| (recomputed)": float(np.max(np.abs(Ft - Fq)))})  # fmt: skip
    assert np.max(np.abs(Fi[U] - t_cond)) < 1e-6
    assert not _binds(fit_t) and np.max(np.abs(Ft - Fq)) < 1e-8
    # proportion matching assigns the rounded labelled-fold class counts
    Fm = transductive_gp(S, y, lab, n_classes=K)
    prop = np.bincount(y[lab], minlength=K) / l
    m = match_class_proportions(Fm[test], prop)
    counts, target = np.bincount(m, minlength=K), prop * test.size
    assert counts.sum() == test.size and np.all(np.abs(counts - target) < 1), (counts, target)
    checks.append({"problem": f"cornell colinks, matched counts {counts.tolist()}",
                   "max |grad| (recomputed)": float(np.max(np.abs(counts - target)))})  # fmt: skip
    return pd.DataFrame(checks)
