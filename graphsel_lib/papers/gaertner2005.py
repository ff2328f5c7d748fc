"""gaertner2005, "Large-scale multiclass transduction": Tables 1 and 2 (Sec. 6) and the scaling claim (Sec. 2).

The published numbers as data (:data:`PUBLISHED_T1`, :data:`PUBLISHED_T2`,
:data:`PUBLISHED_EPINIONS`), the protocols (:func:`protocol` for notebook 42, :func:`scaling_protocol` for
notebook 43), the headline reading (:data:`HEADLINE`), one function per table or figure that returns its
data (:func:`table1`, :func:`table2`, :func:`webkb_homophily`, :func:`solver_checks`, :func:`vs_published`,
:func:`transduction_vs_induction`, :func:`scaling`), the readings (:func:`reading_tables`,
:meth:`Scaling.reading`) and the figures (:func:`draw_tables`, :func:`draw_scaling`). Every result object
writes its tables (``.write()``) under the names the notebooks always used (``figures/42_*``, ``43_*``).
The method itself is :func:`graphsel_lib.transductive.transductive_gp` (notebook 12 derives it).
"""

from __future__ import annotations

import time
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
from graphsel_lib.collection import plotting
from graphsel_lib.collection.tables import write_table
from graphsel_lib.papers import gaertner2005_table1 as t1r
from graphsel_lib.papers.common import N_JOBS, is_smoke, span
from graphsel_lib.transductive import (
    balance_epsilon,
    gp_kernel_inverse,
    gp_objective,
    harmonic,
    llgc,
    match_class_proportions,
    transductive_gp,
)

__all__ = [
    "FOUR",
    "HEADLINE",
    "OURS_NOTE",
    "PUBLISHED_EPINIONS",
    "PUBLISHED_T1",
    "PUBLISHED_T2",
    "SCALING_METHODS",
    "T1M",
    "Headline",
    "Homophily",
    "Protocol",
    "Scaling",
    "ScalingProtocol",
    "Table1",
    "Table2",
    "check_tables",
    "draw_scaling",
    "draw_tables",
    "median_time",
    "protocol",
    "published_t1_frame",
    "published_t1_markdown",
    "rbf_kinv",
    "reading_tables",
    "reading_transduction",
    "scaling",
    "scaling_protocol",
    "solver_checks",
    "stratified",
    "table1",
    "table2",
    "transduction_vs_induction",
    "voronoi_labels",
    "vs_published",
    "webkb_homophily",
    "table1_readings",
    "reading_assignments",
    "write_table1_readings",
    "write_transduction_vs_induction",
    "write_vs_published",
]

# --------------------------------------------------------------------------- the published numbers
#: gaertner2005 Table 1 at the headline reading of our garbled extraction (error in %, mean ± std over 10 folds;
#: ``ours`` = our data set, "" where we have none). Every candidate reading, why each is plausible from the
#: printed positions, and the cells they disagree on: :mod:`graphsel_lib.papers.gaertner2005_table1`.
PUBLISHED_T1 = t1r.assignment(t1r.HEADLINE)
#: gaertner2005 Table 2: error of the transductive GP (%) on the co-link graphs of the full WebKB crawl,
#: pages |V| and co-link edges |E|; misc, all and universities are subsets we do not have.
PUBLISHED_T2 = pd.DataFrame(
    [
        ("cornell", 10.0, 867, 1793),
        ("texas", 8.0, 827, 1683),
        ("washington", 10.0, 1205, 2368),
        ("wisconsin", 15.0, 1263, 3678),
        ("misc", 66.0, 4113, 4462),
        ("all", 53.0, 8275, 14370),
        ("universities", 12.0, 4162, 9591),
    ],
    columns=["university", "error", "pages", "edges"],
).set_index("university")
FOUR = ("cornell", "texas", "washington", "wisconsin")  #: Table 2's universities that LINQS also has
#: What gaertner2005 Sec. 6 reports about Epinions: its copy's size and the share of top reviewers it found.
PUBLISHED_EPINIONS = {"epinions people": 75_888, "epinions trust edges (directed)": 508_960,
                      "top reviewers right (%)": 12}  # fmt: skip


def _pub_t1() -> dict:
    """our data set -> ((ind, ind std), (transd, transd std)), in %, at the headline reading."""
    return {
        r.ours: ((r.ind, r.ind_std), (r.transd, r.transd_std)) for r in PUBLISHED_T1.itertuples() if r.ours
    }


def _cell_text(m, s):
    return f"{m}" if np.isnan(s) else f"{m} ± {s}"


def published_t1_frame() -> pd.DataFrame:
    """Table 1 under every candidate reading (one column of ``ind. / transd.`` cells per reading, %)."""
    agree = t1r.agreement()
    out = t1r.ROWS[["row", "inst", "attr"]].rename(columns={"inst": "#inst", "attr": "#attr"})
    for reading in t1r.READINGS:
        a = t1r.assignment(reading.name)
        out[reading.name] = [f"{_cell_text(r.ind, r.ind_std)} / {_cell_text(r.transd, r.transd_std)}"
                             for r in a.itertuples()]  # fmt: skip
    out["cells agree"] = ["both" if agree.loc[r].all() else "no" for r in out.row]
    return out


#: How notebook 42's reading of Table 1 names our data set for a row (default: the data set's name).
OURS_NOTE = {
    "cancer": "— (we do not have the original WBC: *not available*)",
    "cancer (progn.)": "`uci-breast-cancer` (WDBC 569 × 30, scikit-learn)",
    "housing": "`uci-housing` (binarised at the median)",
}


def published_t1_markdown() -> str:
    """Table 1 under every candidate reading as the Markdown table of notebook 42 (ind. / **transd.**, %;
    a cell the readings disagree on in italics), then each reading's argument."""
    agree = t1r.agreement()
    names = [r.name for r in t1r.READINGS]
    lines = ["| row (paper) | #inst / #attr | S3VM-MIP | " + " | ".join(names) + " | our dataset |",
             "|---" * (len(names) + 4) + "|"]  # fmt: skip
    frames = [t1r.assignment(n).set_index("row") for n in names]
    for r in t1r.ROWS.itertuples():
        cells = []
        for a in frames:
            ind, tr = (
                _cell_text(a.loc[r.row, "ind"], a.loc[r.row, "ind_std"]),
                _cell_text(a.loc[r.row, "transd"], a.loc[r.row, "transd_std"]),
            )
            ind = ind if agree.loc[r.row, "ind. GP"] else f"*{ind}*"
            tr = f"**{tr}**" if agree.loc[r.row, "transd. GP"] else f"***{tr}***"
            cells.append(f"{ind} / {tr}")
        s3 = "—" if np.isnan(r.s3vm_mip) else f"{r.s3vm_mip}"
        lines.append(f"| {r.row} | {r.inst} / {r.attr} | {s3} | " + " | ".join(cells)
                     + f" | {OURS_NOTE.get(r.row, f'`{r.ours}`')} |")  # fmt: skip
    lines.append("")
    lines += [
        f"* **{r.name}**{' (headline)' if r.name == t1r.HEADLINE else ''}: {r.why}." for r in t1r.READINGS
    ]
    return "\n".join(lines)


# --------------------------------------------------------------------------- headline and protocols


@dataclass(frozen=True)
class Headline:
    """The reading of Tables 1-2 that notebook 42 and the scorecard use."""

    table1_kernel: str
    tolerance: str
    balance: str
    binding_eps: float
    reason: str


#: The compared Table 1 column is our GP on the k-NN graph kernel (the paper's graph kernel, Eq. 15-16), the
#: RBF kernel a variant; the balance interval is the tail bound (Eq. 14); ``binding_eps`` is the half-width
#: of the interval that binds (notebook 42 Sec. 6).
HEADLINE = Headline(
    table1_kernel="kNN graph",
    tolerance="2 x our std over the folds or 0.03, whichever is larger",
    balance="tail bound, delta = 0.05 (balance_epsilon)",
    binding_eps=0.02,
    reason=(
        "the paper states neither its kernel on vector data nor its balance interval; the graph kernel is the "
        "one it defines, the tail bound the interval it derives. With nine of ten folds labelled the tail bound "
        "never binds, so the transduction claim is measured again at binding_eps around the training proportions"
    ),
)


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
    #: cmc's 24 fits per fold take about 85 s on one idle core); USPS (9,298) is out: dense n x n products
    rbf_max_n: int = 1500
    tight_eps: float = HEADLINE.binding_eps  #: a balance interval that binds

    @property
    def smoke(self) -> bool:
        return self.profile == "smoke"

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


def _binds(info):
    return bool(np.any(np.abs(info["gamma"]) > 1e-10))


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


def _tune(fit, configs, y, train, rs):
    """Best config by 3-fold CV inside ``train`` (held-out third unlabelled); a tie goes to the first."""
    inner = list(StratifiedKFold(3, shuffle=True, random_state=rs).split(train, y[train]))
    scores = [np.mean([_error(fit(c, np.sort(train[a])), y, train[b]) for a, b in inner]) for c in configs]
    return configs[ex.pick_best(scores).index]


# =========================================================================== Table 1 (notebook 42 Sec. 1)


def _one_dataset(name, p: Protocol, seed):
    """Every method on every outer fold of one UCI set: (rows, bind_rows)."""
    rows, bind_rows = [], []
    g = gs.load_dataset(name)
    S, y, K = g.adjacency, g.labels, g.n_classes
    use_rbf = g.n_nodes <= p.rbf_max_n
    widths = dict(p.grid_rbf)["width"]
    Kinv_rbf = ({w: rbf_kinv(g.features, w, p.rbf_jitter, zscore=name != "uci-tictactoe") for w in widths}
                if use_rbf else {})  # fmt: skip

    def fit_graph(c, lab, **kw):
        return transductive_gp(S, y, lab, sigma2=c[0], kernel_eps=c[1], n_classes=K, **kw)

    def fit_rbf(c, lab, **kw):
        return transductive_gp(Kinv_rbf[c[0]], y, lab, kind="kinv", sigma2=c[1], n_classes=K, **kw)

    for f, (train, test) in enumerate(_folds(y, p, seed)):
        if f >= p.outer:
            break
        cg = _tune(fit_graph, p.graph_configs, y, train, seed + f)
        knn_setting = f"sigma2={cg[0]:g}, eps={cg[1]:g}"
        res = {T1M["knn"]: (fit_graph(cg, train, return_info=True), knn_setting),
               p.tight_knn: (fit_graph(cg, train, eps=p.tight_eps, return_info=True), knn_setting)}  # fmt: skip
        if use_rbf:
            cr = _tune(fit_rbf, p.rbf_configs, y, train, seed + f)
            setting = f"w={cr[0]:g}, sigma2={cr[1]:g}"
            res[T1M["rbf"]] = (fit_rbf(cr, train, return_info=True), setting)
            res[T1M["ind"]] = (fit_rbf(cr, train, balance=False, return_info=True), setting)
            res[p.tight] = (fit_rbf(cr, train, eps=p.tight_eps, return_info=True), setting)
        # how far the stratified test fold's class shares are from the training shares the interval centres on
        share_gap = float(np.max(np.abs(np.bincount(y[test], minlength=K) / test.size
                                        - np.bincount(y[train], minlength=K) / train.size)))  # fmt: skip
        ind_pred = res[T1M["ind"]][0][0][test].argmax(1) if use_rbf else None
        for method, ((F, info), setting) in res.items():
            rows.append({"dataset": name, "fold": f, "method": method, "error": _error(F, y, test),
                         "setting": setting})  # fmt: skip
            bind_rows.append({
                "dataset": name, "fold": f, "method": method, "binds": _binds(info), "eps": info["eps"],
                "converged": info["converged"], "newton": info["iterations"],
                "changed vs inductive": (int(np.sum(F[test].argmax(1) != ind_pred)) if "RBF" in method else -1),
                "test points": test.size, "share gap": share_gap,
            })  # fmt: skip
        for method, F in (("LLGC (mu=1)", llgc(S, y, train, mu=1.0, n_classes=K)),
                          ("harmonic + CMN", harmonic(S, y, train, cmn=True, n_classes=K))):  # fmt: skip
            rows.append({"dataset": name, "fold": f, "method": method, "error": _error(F, y, test),
                         "setting": "kNN graph"})  # fmt: skip
    return rows, bind_rows


@dataclass
class Table1:
    """Table 1 reproduced (gaertner2005 Sec. 6, 10-fold CV on UCI data): :func:`table1`."""

    protocol: Protocol
    folds: pd.DataFrame  #: one row per dataset, fold, method (error, chosen setting)
    bind: pd.DataFrame  #: one row per GP fit: does the balance constraint bind, eps, convergence
    summary: pd.DataFrame  #: mean ± std over the folds (the written table)

    def write(self) -> None:
        """Write ``figures/42_gaertner2005_table1``."""
        write_table(self.summary, "42_gaertner2005_table1", float_format="%.4f")

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

    The data sets run in :data:`N_JOBS` worker processes with one BLAS thread each (the same seed gives the
    same numbers), results in the order of the protocol.
    """
    p = protocol(profile)
    with parallel_config(backend="loky", inner_max_num_threads=1):
        done = Parallel(n_jobs=N_JOBS)(delayed(_one_dataset)(name, p, seed) for name in p.uci)
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


# =========================================================================== Table 2 (notebook 42 Sec. 2)


@dataclass
class Table2:
    """Table 2 (WebKB, inverse 10-fold CV): :func:`table2`."""

    protocol: Protocol
    folds: pd.DataFrame
    summary: pd.DataFrame  #: the written table

    def write(self) -> None:
        """Write ``figures/42_gaertner2005_table2``."""
        write_table(self.summary, "42_gaertner2005_table2", float_format="%.4f")


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
class Homophily:
    """Why our WebKB cannot match (notebook 42 Sec. 3): :func:`webkb_homophily`."""

    table: pd.DataFrame
    class_names: list

    def write(self) -> None:
        """Write ``figures/42_webkb_homophily``."""
        write_table(self.table, "42_webkb_homophily", float_format="%.3f")


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
    return Homophily(pd.DataFrame(ev), list(g.class_names))


# =========================================================================== checks (notebook 42 Sec. 4)


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
        F, info = transductive_gp(S, y, lab, n_classes=K, return_info=True, tol=1e-8, **kw)
        frac = info["q"].mean(0)
        rm, rp, gam = info["r_minus"], info["r_plus"], info["gamma"]
        viol = max(float(np.max(rm - frac)), float(np.max(frac - rp)), 0.0)
        slack = max([abs(frac[j] - rp[j]) for j in range(K) if gam[j] > 1e-10]
                    + [abs(frac[j] - rm[j]) for j in range(K) if gam[j] < -1e-10] + [0.0])  # fmt: skip
        obj = info["objective"]
        steps = np.diff(obj)
        _, grad, _ = gp_objective(gp_kernel_inverse(S, 0.01), y, lab, info["t"], sigma2=100.0, balance=(rm, rp),
                                  n_classes=K)  # fmt: skip
        checks.append({
            "problem": f"cornell colinks, {label}", "eps": info["eps"],
            "binding classes": int(np.sum(np.abs(gam) > 1e-10)), "max bound violation": viol,
            "max KKT slack": slack, "max |row sum - 1|": float(np.max(np.abs(info["q"].sum(1) - 1))),
            "Newton steps": info["iterations"], "max objective increase": float(max(steps.max(), 0.0)),
            "objective first -> last": f"{obj[0]:.4f} -> {obj[-1]:.4f}",
            "max |grad| (recomputed)": float(np.max(np.abs(grad))),
        })  # fmt: skip
        assert info["converged"], label
        assert viol <= 1e-8 and slack <= 1e-8, (label, viol, slack)
        assert np.all(steps <= 1e-12 * max(1.0, abs(obj[0]))), f"{label}: the objective increased"
        assert np.max(np.abs(grad)) <= 1e-7, f"{label}: gradient at the solution {np.max(np.abs(grad)):.2e}"
        if label.startswith("tight"):
            assert np.any(np.abs(gam) > 1e-10), "the tight interval was meant to bind"
        else:
            assert np.isclose(info["eps"], np.sqrt(np.log(2 * K / 0.05) * n / (2 * l * u)))
            assert np.isclose(info["eps"], balance_epsilon(l, u, K, 0.05))
    # inductive GP = conditional mean, and = transductive GP when the constraint does not bind
    gh = gs.load_dataset("uci-heart")
    train = _folds(gh.labels, p, seed, X=gh.features)[0][0]
    Ki = rbf_kinv(gh.features, 1.0)
    Fi, ii = transductive_gp(Ki, gh.labels, train, kind="kinv", sigma2=10.0, balance=False, output="t",
                             return_info=True, tol=1e-10)  # fmt: skip
    U, Lset = ii["unlabeled"], np.sort(train)
    t_cond = -np.linalg.solve(Ki[np.ix_(U, U)], Ki[np.ix_(U, Lset)] @ Fi[Lset])
    Ft, it_ = transductive_gp(Ki, gh.labels, train, kind="kinv", sigma2=10.0, return_info=True, tol=1e-10)
    Fq = transductive_gp(Ki, gh.labels, train, kind="kinv", sigma2=10.0, balance=False, tol=1e-10)
    checks.append({"problem": "heart RBF: |t_U - conditional mean|",
                   "max |grad| (recomputed)": float(np.max(np.abs(Fi[U] - t_cond)))})  # fmt: skip
    checks.append({"problem": "heart RBF: |q transd. - q ind.| (not binding)", "eps": it_["eps"],
                   "binding classes": int(np.sum(np.abs(it_["gamma"]) > 1e-10)),
                   "max |grad| (recomputed)": float(np.max(np.abs(Ft - Fq)))})  # fmt: skip
    assert np.max(np.abs(Fi[U] - t_cond)) < 1e-6
    assert not _binds(it_) and np.max(np.abs(Ft - Fq)) < 1e-8
    # proportion matching assigns the rounded labelled-fold class counts
    Fm = transductive_gp(S, y, lab, n_classes=K)
    prop = np.bincount(y[lab], minlength=K) / l
    m = match_class_proportions(Fm[test], prop)
    counts, target = np.bincount(m, minlength=K), prop * test.size
    assert counts.sum() == test.size and np.all(np.abs(counts - target) < 1), (counts, target)
    checks.append({"problem": f"cornell colinks, matched counts {counts.tolist()}",
                   "max |grad| (recomputed)": float(np.max(np.abs(counts - target)))})  # fmt: skip
    return pd.DataFrame(checks)


# =========================================================================== vs published (notebook 42 Sec. 5)


def vs_published(t1: Table1, t2: Table2, ev: Homophily) -> pd.DataFrame:
    """Every Table 1 GP cell at the headline reading (both kernels, and the inductive GP) and Table 2
    (co-links, matched) beside ours. Tolerance: 2 x our std over the folds or 0.03, whichever is larger;
    *within* means |ours - published| <= tolerance; *not available* where we have no data. The other
    readings of Table 1: :func:`table1_readings`."""
    outer = t1.protocol.outer
    vs = []

    def add(dataset, method, setting, pub, ours, std, reason_if_differs, unavailable=None, pub_std=np.nan):
        tol = max(2 * std, 0.03)
        diff = ours - pub
        ok = bool(abs(diff) <= tol)
        if unavailable is not None:
            verdict, reason = "not available", unavailable
        else:
            verdict, reason = ("within", "within tolerance") if ok else ("differs", reason_if_differs(diff))
        vs.append({"dataset": dataset, "method": method, "setting": setting, "published": pub,
                   "published std": pub_std, "ours": ours, "ours std": std, "folds": outer, "difference": diff,
                   "tolerance": tol, "verdict": verdict, "reason": reason})  # fmt: skip

    agree = t1r.agreement()
    for r in PUBLISHED_T1.itertuples():
        ip, ips, tp, tps, name = r.ind, r.ind_std, r.transd, r.transd_std, r.ours
        if not name:  # a row of the paper we have no data for
            for method, col, pub, pub_s in (("transductive GP", "transd. GP", tp, tps),
                                            ("inductive GP", "ind. GP", ip, ips)):  # fmt: skip
                add(f"{r.row} (paper)", method, f"Table 1 {col}, 10-fold CV", pub / 100, np.nan, np.nan, None,
                    pub_std=pub_s / 100, unavailable=t1r.WHY_NA["cancer"])  # fmt: skip
            continue
        knn, rbf, ind = (t1.row(name, T1M[k]) for k in ("knn", "rbf", "ind"))
        if knn is None:
            continue

        def cell(col, row=r.row):
            return (
                "every reading" if agree.loc[row, col] else f"{t1r.HEADLINE} reading; other readings differ"
            )

        rbf_ok = rbf is not None and abs(rbf.error - tp / 100) <= max(2 * rbf.error_std, 0.03)
        setting = f"Table 1 transd. GP, 10-fold CV (cell: {cell('transd. GP')})"
        add(name, T1M["knn"], setting, tp / 100, knn.error, knn.error_std,
            lambda d, rbf_ok=rbf_ok, rbf=rbf: (
                f"ours {'worse' if d > 0 else 'better'}; kernel: our k=10 kNN graph, the paper's is not stated"
                + ("" if rbf is None else "; the RBF-kernel GP is within, so the graph is the cause" if rbf_ok
                   else "; the RBF-kernel GP differs too")),
            pub_std=tps / 100)  # fmt: skip
        if rbf is None:
            continue
        add(name, T1M["rbf"], setting, tp / 100, rbf.error, rbf.error_std,
            lambda d: (
                f"ours {'worse' if d > 0 else 'better'}; the paper's kernel and parameter grid are not stated, "
                "and its balance interval is not given (ours does not bind, so ours = inductive GP)"),
            pub_std=tps / 100)  # fmt: skip
        add(name, T1M["ind"], f"Table 1 ind. GP, 10-fold CV (cell: {cell('ind. GP')})", ip / 100, ind.error,
            ind.error_std, lambda d: f"ours {'worse' if d > 0 else 'better'}; the paper's kernel and parameter grid "
            "are not stated", pub_std=ips / 100)  # fmt: skip
    homo = ev.table.set_index(["university", "graph"])["edge homophily"]
    four = PUBLISHED_T2.loc[list(FOUR), "pages"]
    s2 = t2.summary
    for r in s2[(s2.graph == "colinks") & (s2.method == "transductive GP")].itertuples():
        add(f"webkb-{r.university}", "transductive GP", "Table 2, inverse 10-fold CV, co-links, matched proportions",
            r.published, r.error_matched, r.error_matched_std,
            lambda d, r=r: (
                f"different data: LINQS subset ({r.nodes} pages, 5 classes, co-link homophily "
                f"{homo[(r.university, 'colinks')]:.2f}) vs the paper's crawl ({four.min()}-{four.max()} pages, "
                "7 classes)"))  # fmt: skip
    return pd.DataFrame(vs)


def write_vs_published(vs: pd.DataFrame) -> None:
    """Write ``figures/42_gaertner2005_vs_published`` (the schema every ``*_vs_published`` table shares)."""
    write_table(vs, "42_gaertner2005_vs_published", float_format="%.4f")


def table1_readings(t1: Table1) -> pd.DataFrame:
    """Table 1 under every candidate reading of the extraction beside ours, with the scorecard's verdict
    (:func:`graphsel_lib.papers.gaertner2005_table1.readings_table`): the ind. GP column against our
    inductive RBF GP, the transd. column against the kNN-graph GP (headline), the RBF GP (kernel reading)
    and the kNN-graph GP at the binding interval (balance reading)."""
    methods = {"ind. GP": [T1M["ind"]], "transd. GP": [T1M["knn"], T1M["rbf"], t1.protocol.tight_knn]}
    rt = t1r.readings_table(t1.summary, methods)
    rt["verdict"] = t1r.verdicts(rt)
    return rt


def write_table1_readings(rt: pd.DataFrame) -> None:
    """Write ``figures/42_gaertner2005_table1_readings``."""
    write_table(rt, t1r.READINGS_TABLE, float_format="%.4f")


def reading_assignments(rt: pd.DataFrame) -> str:
    """The Table 1 verdicts over the readings (headline methods), in words: which cells agree."""
    grid = t1r.verdict_grid(rt)
    if grid.empty:
        return "* **Table 1 readings.** No compared cell in this run."
    dep = grid[grid["over the readings"] == "reading-dependent"]
    settled = grid[grid["over the readings"] != "reading-dependent"]
    counts = settled["over the readings"].value_counts()
    return (
        f"* **Table 1 readings.** Of our {len(grid)} compared cells (both GP columns, headline methods), "
        f"{len(settled)} get one verdict under all {len(t1r.READINGS)} readings ("
        + ", ".join(f"{v} {k}" for k, v in counts.items())
        + f") and {len(dep)} {'is' if len(dep) == 1 else 'are'} reading-dependent"
        + (" (" + ", ".join(f"{row} {col}: " + " / ".join(r[n] for n in grid.columns[:-1])
                            for (row, col), r in dep.iterrows()) + ")" if len(dep) else "")
        + "; a reading-dependent cell gets no verdict of its own in the scorecard "
        "(`42_gaertner2005_table1_readings`)."
    )  # fmt: skip


# =========================================================================== transduction vs induction


def transduction_vs_induction(t1: Table1) -> pd.DataFrame:
    """gaertner2005's claim "transduction beats induction (typically a 10 % reduction)", measured on the UCI
    sets where the RBF GP runs: inductive GP, transductive GP at the tail-bound interval and at the binding
    interval ``p_train ± tight_eps`` (same tuned parameters, same folds); in how many folds the constraint
    binds (a multiplier gamma_j != 0) and changes a prediction; the relative error reduction against the
    inductive GP, ours and (where Table 1 reads) the paper's.

    Written as ``figures/42_transduction_vs_induction`` (:func:`write_transduction_vs_induction`).
    """
    p, errors, b = t1.protocol, t1.errors, t1.bind
    pub = _pub_t1()
    rows = []
    for name in [
        d
        for d in p.uci
        if d in errors.index and T1M["ind"] in errors and np.isfinite(errors.loc[d, T1M["ind"]])
    ]:
        e = errors.loc[name]
        tail = b[(b.dataset == name) & (b.method == T1M["rbf"])]
        tight = b[(b.dataset == name) & (b.method == p.tight)]
        ind, tgt = e[T1M["ind"]], e[p.tight]
        pub_red = (pub[name][0][0] - pub[name][1][0]) / pub[name][0][0] if name in pub else np.nan
        rows.append({
            "dataset": name, "folds": len(tight), "inductive GP": ind, "transductive GP (tail bound)": e[T1M["rbf"]],
            "tail-bound eps": span(tail.eps.min(), tail.eps.max(), ".3f"),
            "tail bound binds (folds)": int(tail.binds.sum()),
            f"transductive GP (eps={p.tight_eps:g})": tgt,
            f"eps={p.tight_eps:g} binds (folds)": int(tight.binds.sum()),
            "predictions changed": int(tight["changed vs inductive"].sum()),
            "test points": int(tight["test points"].sum()),
            "max |test - train share|": float(tight["share gap"].max()),
            "relative reduction": (ind - tgt) / ind if ind > 0 else np.nan,
            "published relative reduction": pub_red,
        })  # fmt: skip
    return pd.DataFrame(rows)


def write_transduction_vs_induction(tvi: pd.DataFrame) -> None:
    """Write ``figures/42_transduction_vs_induction``."""
    write_table(tvi, "42_transduction_vs_induction", float_format="%.4f", na_rep="-")


def reading_transduction(tvi: pd.DataFrame, tight_eps: float = HEADLINE.binding_eps) -> str:
    """Notebook 42 Sec. 6: what the binding constraint did, rendered from :func:`transduction_vs_induction`."""
    col = f"transductive GP (eps={tight_eps:g})"
    red = tvi["relative reduction"]
    down, up = tvi[red > 1e-12], tvi[red < -1e-12]
    flat = tvi[red.abs() <= 1e-12]
    pub = tvi["published relative reduction"].dropna()
    bind_col = f"eps={tight_eps:g} binds (folds)"
    gap = tvi["max |test - train share|"]
    same = bool((tvi["transductive GP (tail bound)"] == tvi["inductive GP"]).all())
    return (
        f"**What the constraint did.** At the tail-bound interval it binds in {int(tvi['tail bound binds (folds)'].sum())} "
        f"of {int(tvi.folds.sum())} fits, and the transductive GP "
        + (
            "returns the inductive GP's errors on every set. "
            if same
            else "differs from the inductive GP on some set. "
        )
        + "At "
        f"$r^\\pm = \\hat p_{{train}} \\pm {tight_eps:g}$ it binds in {int(tvi[bind_col].sum())} of "
        f"{int(tvi.folds.sum())} fits and changes {int(tvi['predictions changed'].sum())} of "
        f"{int(tvi['test points'].sum())} test predictions; the error falls on {len(down)} of {len(tvi)} sets ("
        + ", ".join(
            f"{r.dataset.replace('uci-', '')} {r['inductive GP']:.3f} → {r[col]:.3f} ({r['relative reduction']:.0%})"
            for _, r in down.iterrows()
        )  # fmt: skip
        + f"), is unchanged on {len(flat)}"
        + (f" ({', '.join(d.replace('uci-', '') for d in flat.dataset)})" if len(flat) else "")
        + (f" and rises on {', '.join(d.replace('uci-', '') for d in up.dataset)}" if len(up) else "")
        + f". Median relative reduction {red.median():.0%} (mean {red.mean():.0%})"
        + (f"; the paper's readable rows give {pub.min():.0%} to {pub.max():.0%}" if len(pub) else "")
        + ". Where it binds, the constraint moves test points across the decision boundary toward the class "
        "shares of the training folds; it does not use the labels of the test points. But it is not information "
        "from the unlabelled points alone: the folds are stratified, so the class shares of a test fold are within "
        f"{span(gap.min(), gap.max(), '.3f')} of those of its training folds (largest gap per set), and an interval "
        f"of half-width {tight_eps:g} around them tells the GP close to the true class counts of the test fold, "
        "which the inductive GP does not use. The paper's interval is not given; ours is chosen to bind, not "
        "tuned, so these reductions show what the constraint can do, not what the paper measured.\n"
    )


# =========================================================================== the figure and the reading


def draw_tables(t1: Table1, t2: Table2, ev: Homophily):
    """Published and ours side by side per row (a dot plot; bars = ± one std over the folds): Table 1 (UCI)
    left, Table 2 (WebKB, with the majority-class and neighbour-vote errors) right."""
    C = plotting.COLOR_CYCLE
    fig, axes = plotting.subplots(1, 2, size=(7.5, 3.9), gridspec_kw={"width_ratios": [1.35, 1]})
    ax = axes[0]
    rows_t1 = [r for r in PUBLISHED_T1.itertuples() if r.ours and r.ours in set(t1.summary.dataset)]
    agree = t1r.agreement()
    series = (
        (T1M["knn"], "o", C[0], "ours: transd. GP, kNN graph", 0.30),
        (T1M["rbf"], "D", C[1], "ours: transd. GP, RBF kernel", 0.15),
        (T1M["ind"], "^", C[2], "ours: ind. GP, RBF kernel", -0.15),
    )
    for method, mk, col, label, dy in series:
        xs, ys, es = [], [], []
        for k, r in enumerate(rows_t1):
            row = t1.row(r.ours, method)
            if row is not None:
                xs.append(row.error), ys.append(k + dy), es.append(row.error_std)
        ax.errorbar(xs, ys, xerr=es, fmt=mk, color=col, ms=4, capsize=2, lw=0.9, label=label)
    ax.scatter([r.transd / 100 for r in rows_t1], np.arange(len(rows_t1)) + 0.0, marker="*", s=55, color="black",
               label="published transd. GP", zorder=3)  # fmt: skip
    ax.scatter([r.ind / 100 for r in rows_t1], np.arange(len(rows_t1)) - 0.30, marker="*", s=55, facecolor="white",
               edgecolor="black", label="published ind. GP", zorder=3)  # fmt: skip
    ax.set_yticks(np.arange(len(rows_t1)),
                  [r.row.replace(" (progn.)", "\n(progn.)") + ("" if agree.loc[r.row].all() else "\n(reading-dep.)")
                   for r in rows_t1], fontsize=7)  # fmt: skip
    ax.invert_yaxis()
    ax.set(xlabel="error (10-fold CV)", ylabel="Table 1 row", title="Table 1: UCI", xlim=(0, None))
    ax = axes[1]
    s2, e2 = t2.summary, ev.table
    unis = [u for u in t2.protocol.webkb if u in set(s2.university)]
    gp2 = s2[(s2.graph == "colinks") & (s2.method == "transductive GP")].set_index("university")
    evc = e2[e2.graph == "colinks"].set_index("university")
    yk = np.arange(len(unis))
    ax.errorbar(gp2.loc[unis, "error_matched"], yk - 0.15, xerr=gp2.loc[unis, "error_matched_std"], fmt="s",
                color=C[3], ms=4, capsize=2, lw=0.9, label="ours: transd. GP, co-links, matched")  # fmt: skip
    ax.scatter(evc.loc[unis, "majority error"], yk + 0.05, marker="|", s=90, color=C[4],
               label="ours: majority-class error")  # fmt: skip
    ax.scatter(evc.loc[unis, "neighbour-vote error"], yk + 0.2, marker="x", s=25, color=C[5],
               label="ours: vote of true neighbour labels")  # fmt: skip
    ax.scatter(
        [PUBLISHED_T2.loc[u, "error"] / 100 for u in unis],
        yk - 0.3,
        marker="*",
        s=55,
        color="black",
        zorder=3,
    )
    ax.set_yticks(yk, unis, fontsize=7)
    ax.invert_yaxis()
    ax.set(xlabel="error (inverse 10-fold CV)", ylabel="university (WebKB)", title="Table 2: WebKB (LINQS subset)",
           xlim=(0, 0.75))  # fmt: skip
    h0, l0 = axes[0].get_legend_handles_labels()
    h1, l1 = axes[1].get_legend_handles_labels()
    fig.legend(h0 + h1, l0 + l1, loc="outside lower center", ncol=3, fontsize=7)
    if t1.protocol.smoke:
        fig.suptitle("smoke profile: 2 folds, numbers meaningless", fontsize=8)
    return fig


def check_tables(t1: Table1, t2: Table2, ev: Homophily, vs: pd.DataFrame) -> str:
    """Notebook 42 Sec. 6 (asserted): co-links heterophilous; the tail bound binds in no Table 1 fit, so the
    transductive and inductive RBF GP have equal errors; (full) WebKB far above the paper."""
    colinks = ev.table[ev.table.graph == "colinks"]
    assert (colinks["edge homophily"] < 0.6).all()
    b = t1.tail
    assert not b.binds.any(), "the tail-bound constraint binds in Table 1: update the text"
    same = t1.errors.dropna(subset=[T1M["ind"]])
    assert (same[T1M["rbf"]] == same[T1M["ind"]]).all()
    if not t1.protocol.smoke:
        w = vs[vs.setting.str.startswith("Table 2")]
        assert (w["difference"] > 0.2).all(), "WebKB: ours is close to the paper after all: update the text"
    return (
        f"co-link homophily: {colinks['edge homophily'].min():.3f}-{colinks['edge homophily'].max():.3f}; "
        f"neighbour-vote error {colinks['neighbour-vote error'].min():.3f}-"
        f"{colinks['neighbour-vote error'].max():.3f}\n"
        f"tail-bound constraint binds in {int(b.binds.sum())} of {len(b)} Table 1 transductive fits\n"
        + t1.errors.to_string(float_format=lambda x: f"{x:.4f}")
    )


def _rng(v, fmt=".3f"):
    v = np.asarray(list(v), float)
    v = v[np.isfinite(v)]
    if v.size == 0:
        return "—"
    return f"{v.min():{fmt}}" if np.isclose(v.min(), v.max()) else f"{v.min():{fmt}}–{v.max():{fmt}}"


def _short(d):
    return d.replace("uci-", "").replace("webkb-", "")


def reading_tables(t1: Table1, t2: Table2, ev: Homophily, vs: pd.DataFrame) -> str:
    """Notebook 42 Sec. 7: the reading of Tables 1 and 2, rendered from this run's tables."""
    p = t1.protocol
    tight = p.tight
    cmp1 = vs[vs.setting.str.startswith("Table 1") & (vs.verdict != "not available")]
    out = ["(Every number below is this run's; the tables above are the authority.)", ""]
    if p.smoke:
        out.insert(0, "*Smoke profile: two folds of two UCI sets and Cornell only; the words follow the numbers "
                      "but mean little.*\n")  # fmt: skip

    def verdicts(method):
        c = cmp1[cmp1.method == method]
        if c.empty:
            return "no compared row in this run"
        text = (f"within tolerance on {int((c.verdict == 'within').sum())} of the {len(c)} compared rows "
                f"(differences {c.difference.min():+.3f} to {c.difference.max():+.3f}, tolerances "
                f"{_rng(c.tolerance, '.2f')})")  # fmt: skip
        bad = c[c.verdict != "within"]
        if len(bad):
            text += "; differs on " + ", ".join(
                f"{_short(r.dataset)} ({r.ours:.3f} vs {r.published:.3f}, {'worse' if r.difference > 0 else 'better'})"
                for r in bad.itertuples())  # fmt: skip
        return text

    s1 = t1.summary
    out.append(f"* **Table 1, transd. GP column.** With the RBF kernel our transductive GP is {verdicts(T1M['rbf'])}; "
               f"with our k-NN graph kernel it is {verdicts(T1M['knn'])}. A tolerance of 2 × the fold standard "
               "deviation is wide: *within* means \"not contradicted\", not \"confirmed\". The paper's \"cancer\" row "
               f"(no data) has the verdict *not available*. These comparisons use the {t1r.HEADLINE} reading of the "
               "extraction; the next item counts what the other readings change.")  # fmt: skip
    out.append(reading_assignments(table1_readings(t1)))
    if "uci-pima" in set(s1.dataset):
        pima = s1[(s1.dataset == "uci-pima")]
        out.append(f"  Pima errs {_rng(pima.error)} with every method and kernel against the published "
                   f"{_pub_t1()['uci-pima'][1][0] / 100:.3f} (transd. GP, {t1r.HEADLINE} reading).")  # fmt: skip
    out.append(
        f"* **Table 1, ind. GP column.** The inductive GP (RBF, `balance=False`) is {verdicts(T1M['ind'])}."
    )
    gain = PUBLISHED_T1.ind - PUBLISHED_T1.transd
    b_tail, b_tight = t1.tail, t1.bind[t1.bind.method == tight]
    piv1 = t1.errors
    has_tight = piv1.dropna(subset=[tight]) if tight in piv1 else piv1.iloc[:0]
    down = [d for d in has_tight.index if has_tight.loc[d, tight] < has_tight.loc[d, T1M["ind"]] - 1e-12]
    flat = [
        d for d in has_tight.index if abs(has_tight.loc[d, tight] - has_tight.loc[d, T1M["ind"]]) <= 1e-12
    ]
    up = [d for d in has_tight.index if d not in down and d not in flat]
    out.append(
        f"* **Ind. vs transd. GP.** The paper's transductive GP is {gain.min():.1f}–{gain.max():.1f} points better "
        f"than its inductive GP in each of its {len(gain)} rows ({t1r.HEADLINE} reading). With the tail-bound interval ($\\epsilon$ = "
        f"{_rng(b_tail.eps, '.2f')} when nine of ten folds are labelled) the balance constraint binds in "
        f"{int(b_tail.binds.sum())} of our {len(b_tail)} Table 1 fits, so our \"transductive\" GP gives the inductive "
        f"GP's errors there (asserted in §6; §4 checks the identity). Only a binding constraint separates them: with "
        f"$\\epsilon = {p.tight_eps:g}$ (binds in {int(b_tight.binds.sum())} of {len(b_tight)} fits) the error falls "
        f"on {len(down)} of {len(has_tight)} sets ("
        + ", ".join(f"{_short(d)} {has_tight.loc[d, T1M['ind']]:.3f} → {has_tight.loc[d, tight]:.3f}" for d in down)
        + f"), is unchanged on {len(flat)}" + (f" ({', '.join(_short(d) for d in flat)})" if flat else "")
        + (f" and rises on {', '.join(_short(d) for d in up)}" if up else "")
        + ". The paper does not give its interval; if its gain came from the constraint, the interval was much "
        "tighter than the tail bound (§6 measures it)."
    )  # fmt: skip
    both = piv1.dropna(subset=[T1M["knn"]])
    cmn_gap = both["harmonic + CMN"] - both[T1M["knn"]]
    cmn_better = cmn_gap[cmn_gap < 0]
    worst = both[[T1M["knn"], "LLGC (mu=1)", "harmonic + CMN"]].idxmax(axis=1)
    rbf_both = piv1.dropna(subset=[T1M["rbf"]]) if T1M["rbf"] in piv1 else piv1.iloc[:0]
    line = (f"* **Baselines, same folds, k-NN graph.** Harmonic + CMN is within {cmn_gap.abs().max():.3f} of the GP "
            "on every set (lower on "
            + (", ".join(f"{_short(d)} ({both.loc[d, 'harmonic + CMN']:.3f} vs {both.loc[d, T1M['knn']]:.3f})"
                         for d in cmn_better.index) or "none")
            + f"); untuned LLGC ($\\mu = 1$) is the worst of the three on {int((worst == 'LLGC (mu=1)').sum())} "
            f"of {len(both)} sets.")  # fmt: skip
    if "uci-tictactoe" in both.index:
        ytt = gs.load_dataset("uci-tictactoe").labels
        line += (f" On tic-tac-toe LLGC errs {both.loc['uci-tictactoe', 'LLGC (mu=1)']:.3f}, the majority-class rate "
                 f"{1 - np.bincount(ytt).max() / ytt.size:.3f}.")  # fmt: skip
    line += (f" The kernel matters more than the method: the RBF GP beats the k-NN-graph GP on "
             f"{int((rbf_both[T1M['rbf']] < rbf_both[T1M['knn']]).sum())} of the {len(rbf_both)} sets where both "
             "run.")  # fmt: skip
    out.append(line)
    s2, e2 = t2.summary, ev.table
    co = s2[s2.graph == "colinks"]
    gp_co = co[co.method == "transductive GP"].set_index("university")
    others = co[co.method != "transductive GP"]
    lk = s2[s2.graph == "links"]
    evc, evl = e2[e2.graph == "colinks"], e2[e2.graph == "links"]
    worse_m = gp_co[gp_co.error_matched > gp_co.error_argmax + 1e-12]
    four = PUBLISHED_T2.loc[list(FOUR)]
    out.append(
        f"* **Table 2.** On the LINQS WebKB subset our co-link errors with proportion matching are "
        f"{_rng(gp_co.error_matched, '.2f')} (argmax {_rng(gp_co.error_argmax, '.2f')}) against the published "
        f"{four.error.min():.0f}–{four.error.max():.0f} %; LLGC and harmonic + CMN on the same splits "
        f"give {_rng(others.error_matched, '.2f')}, and plain hyperlinks {_rng(lk.error_matched, '.2f')}. §3 shows "
        f"why no graph method comes near the published numbers on these graphs: co-link homophily is "
        f"{_rng(evc['edge homophily'], '.2f')}, plain-link homophily {_rng(evl['edge homophily'], '.2f')}; the "
        f"majority class alone errs {_rng(evc['majority error'], '.2f')}, and even the vote of *all true* neighbour "
        f"labels errs {_rng(evc['neighbour-vote error'], '.2f')} on co-links ({_rng(evl['neighbour-vote error'], '.2f')} "
        f"on links). The paper's crawl kept every page ({four.pages.min():,}–{four.pages.max():,} per university, "
        "7 classes): a different data set, so Table 2 is not reproduced and we do not claim it is."
        + (" Proportion matching makes our GP worse on " + ", ".join(
            f"{u.capitalize()} ({r.error_matched:.2f} vs {r.error_argmax:.2f})" for u, r in worse_m.iterrows())
           + ": the class fractions of one labelled fold are themselves noisy." if len(worse_m) else "")
    )  # fmt: skip
    return "## 7. Reading\n\n" + "\n".join(out)


# =========================================================================== scaling (notebook 43)


@dataclass(frozen=True)
class ScalingProtocol:
    """Sizes of notebook 43 (``smoke``: balls of 300-3,000 nodes, Cora, one repeat)."""

    profile: str
    sizes: tuple  #: nested Epinions balls (the last: the whole graph)
    labelled: tuple  #: graphs with real labels, timed once each
    repeats: int  #: median of this many runs per call
    n_fake: int = 4  #: synthetic (graph Voronoi) classes on Epinions
    frac: float = 0.01  #: labelled share of each class on Epinions
    top: int = 3  #: slopes also over the ``top`` largest balls

    @property
    def smoke(self) -> bool:
        return self.profile == "smoke"


def scaling_protocol(profile: str = "full") -> ScalingProtocol:
    """Notebook 43's protocol."""
    if is_smoke(profile):
        return ScalingProtocol(profile, (300, 1_000, 3_000), ("cora",), 1)
    return ScalingProtocol(profile, (1_000, 2_500, 6_000, 15_000, 35_000, 75_877),
                           ("cora", "citeseer", "coauthor", "pubmed"), 3)  # fmt: skip


#: The three methods timed: one sparse solve (LLGC, gu2013 Eq. 2), one sparse solve on the unlabelled block
#: then CMN (harmonic), gaertner2005's Newton-CG with the balance constraint (transductive GP).
SCALING_METHODS = {
    "LLGC": lambda S, y, lab: llgc(S, y, lab, mu=1.0),
    "harmonic + CMN": lambda S, y, lab: harmonic(S, y, lab, cmn=True),
    "transductive GP": lambda S, y, lab: transductive_gp(S, y, lab, return_info=True),
}


def voronoi_labels(S, k, rng):
    """Synthetic classes: nearest of k random centres in hops (ties to the lower class)."""
    from scipy.sparse.csgraph import shortest_path

    centres = rng.choice(S.shape[0], k, replace=False)
    dist = shortest_path(S, unweighted=True, directed=False, indices=centres)
    assert np.isfinite(dist).all(), "the ball must be connected"
    return dist.argmin(axis=0)


def stratified(y, frac, rng):
    """frac of the nodes of each class (at least one), sorted."""
    return np.sort(np.concatenate([
        rng.choice(np.flatnonzero(y == k), max(1, round(frac * np.sum(y == k))), replace=False) for k in np.unique(y)
    ]))  # fmt: skip


def median_time(fn, *args, repeats=3):
    """(median seconds over ``repeats`` calls, the output, Newton / CG counts of a GP)."""
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn(*args)
        times.append(time.perf_counter() - t)
    if isinstance(out, tuple):  # transductive_gp(..., return_info=True)
        out, info = out
        return (
            float(np.median(times)),
            out,
            {"newton steps": info["iterations"], "cg iterations": info["cg_iterations"]},
        )
    return float(np.median(times)), out, {}


def _fit(x, t):
    x, t = np.log(np.asarray(x, float)), np.log(np.asarray(t, float))
    s, c = np.polyfit(x, t, 1)
    return s, c, 1 - np.sum((t - (s * x + c)) ** 2) / np.sum((t - t.mean()) ** 2)


@dataclass
class Scaling:
    """Notebook 43: wall times on nested Epinions balls and the labelled graphs, and the log-log slopes."""

    protocol: ScalingProtocol
    graph: object  #: the whole Epinions graph
    timing: pd.DataFrame  #: one row per graph, method, size (the written table 43_gaertner2005_scaling)
    slopes: pd.DataFrame  #: one row per method (the written table 43_scaling_slopes)
    log: list  #: one line per ball

    def write(self) -> None:
        """Write ``figures/43_gaertner2005_scaling`` and ``figures/43_scaling_slopes``."""
        write_table(self.timing, "43_gaertner2005_scaling", float_format="%.4f")
        write_table(self.slopes, "43_scaling_slopes", float_format="%.3f")

    @property
    def ball(self) -> pd.DataFrame:
        return self.timing[self.timing.graph == "epinions ball"]

    @property
    def gp(self) -> pd.DataFrame:
        return self.ball[self.ball.method == "transductive GP"]

    @property
    def gp_iid(self) -> pd.DataFrame:
        return self.ball[self.ball.method == "transductive GP, iid labels"]

    @property
    def cg_growth(self) -> float:
        return float(self.gp["cg iterations"].iloc[-1] / self.gp["cg iterations"].iloc[0])

    @property
    def degree(self) -> pd.Series:
        """Edges per node of each graph (its largest row)."""
        return self.timing.groupby("graph")[["nodes", "edges"]].max().eval("edges / nodes")

    @property
    def edge_share(self) -> float:
        """The share of all edges inside the 15,000-node ball (full profile; NaN otherwise)."""
        gp = self.gp
        at = gp.loc[gp.nodes == 15_000, "edges"]
        return float(at.iloc[0] / gp["edges"].iloc[-1]) if len(at) else np.nan

    def check(self) -> str:
        """The published claim and the reading's claims, asserted in the full profile."""
        p, slopes, gp, gp_iid = self.protocol, self.slopes, self.gp, self.gp_iid
        sl = slopes.set_index("method")
        out = [
            f"nodes grow x{p.sizes[-1] / p.sizes[0]:.0f}, edges x{gp['edges'].iloc[-1] / gp['edges'].iloc[0]:.0f}; "
            f"GP Newton steps {gp['newton steps'].iloc[0]:.0f} -> {gp['newton steps'].iloc[-1]:.0f}, CG iterations "
            f"x{self.cg_growth:.1f} (iid labels: Newton {gp_iid['newton steps'].iloc[0]:.0f} -> "
            f"{gp_iid['newton steps'].iloc[-1]:.0f})"
        ]  # fmt: skip
        if p.smoke:
            return "\n".join(out)
        # the published claim: between O(m log m) and O(m^2), far from the O(m^3) of a dense method
        assert (slopes["slope"] < 2.0).all(), "a method scales worse than the paper's O(m^2) worst case"
        assert (
            1.0 < sl.loc["transductive GP", "slope"] < 2.0
        )  # the GP on structured labels: in the paper's range
        assert sl.loc["transductive GP", "seconds at largest"] < 30  # whole Epinions in seconds
        assert (
            self.cg_growth < 0.2 * p.sizes[-1] / p.sizes[0]
        )  # iteration counts grow far slower than the graph
        assert (
            gp["newton steps"].iloc[-1] > gp_iid["newton steps"].iloc[-1]
        )  # structured labels: more Newton steps
        assert sl.loc["transductive GP", "slope"] > sl.loc["transductive GP, iid labels", "slope"]
        assert (
            0.8 < sl.loc["transductive GP", "slope of s per CG iteration"] < 1.3
        )  # one CG step ~ linear in m
        assert self.edge_share > 0.5
        assert (slopes["slope vs edges"] > slopes["slope"]).all()
        deg = self.degree
        assert deg.drop("epinions ball").max() < deg["epinions ball"]
        out += [f"the 15,000-node ball holds {self.edge_share:.0%} of all edges",
                f"edges per node: {deg.round(2).to_dict()}"]  # fmt: skip
        return "\n".join(out)

    def reading(self) -> str:
        """Sec. 3: what the paper reports and what we measure, rendered from the tables."""
        p, g, gp, gp_iid, ball = self.protocol, self.graph, self.gp, self.gp_iid, self.ball
        sizes, top_n = p.sizes, p.top
        sl = self.slopes.set_index("method")
        per_cg = sl.loc["transductive GP", "slope of s per CG iteration"]
        top = sl[f"slope, top {top_n}"]
        g_n, g_e = gp["newton steps"].to_numpy(int), gp["cg iterations"].to_numpy(int)
        g_iid = int(gp_iid["newton steps"].iloc[-1])
        s_gp = sl.loc["transductive GP", "slope"]
        speed = gp["seconds"].iloc[-1] / gp_iid["seconds"].iloc[-1]
        flat = ball[ball.nodes.isin(sizes[:2])].pivot_table(index="method", columns="nodes", values="seconds")
        top_balls = gp.iloc[-top_n:]
        grow_n = top_balls["nodes"].iloc[-1] / top_balls["nodes"].iloc[0]
        grow_e = top_balls["edges"].iloc[-1] / top_balls["edges"].iloc[0]
        overhead = all(flat.loc[m_].iloc[1] / flat.loc[m_].iloc[0] < (sizes[1] / sizes[0]) ** 0.5
                       for m_ in ("LLGC", "harmonic + CMN"))  # fmt: skip # time grows < sqrt(m) over the first two sizes
        lo_slopes = ", ".join(f"{sl.loc[m_, 'slope']:.2f}" for m_ in ("LLGC", "harmonic + CMN"))
        deg = self.degree
        if not p.smoke:
            deg_other = deg.drop("epinions ball")
            rng_deg = f"{deg_other.min():.1f}–{deg_other.max():.1f}"
        pub = PUBLISHED_EPINIONS
        head = ("*Smoke profile: balls of a few thousand nodes and one repeat; the words follow the numbers but the "
                "published claim is checked in the full profile only.*\n\n" if p.smoke else "")  # fmt: skip
        return head + "\n".join([
            "## 3. Reading",
            "",
            "**What the paper reports.** gaertner2005 gives no timings: Sec. 2 argues $O(m)$ per CG step and \"overall "
            "time costs in the order of $O(m\\log m)$ to $O(m^2)$ worst case\", and Sec. 6 ran Epinions "
            f"({pub['epinions people']:,} people, {pub['epinions trust edges (directed)']:,} directed trust edges "
            f"in their copy; ours has {g.n_nodes:,} nodes and {g.adjacency.nnz // 2:,} undirected edges) only to show "
            f"that \"the algorithm can be run on very large graph datasets\" (it got {pub['top reviewers right (%)']} % "
            "of the top reviewers right; we have no such labels). The Discussion points to \"sparse $O(m^{1.3})$ "
            "solvers for graphs\" as future work. So the comparable number is the exponent.",
            "",
            "**What we measure** (tables above; the claims marked asserted are checked in the full profile):",
            "",
            f"* On the whole graph ({sizes[-1]:,} nodes) one fit takes "
            + ", ".join(f"{sl.loc[m_, 'seconds at largest']:.2f} s ({m_})" for m_ in sl.index)
            + f" on 2 shared cores. Fitted over all {len(sizes)} balls the slopes are "
            + ", ".join(f"{sl.loc[m_, 'slope']:.2f} ({m_})" for m_ in sl.index)
            + f"; over the {top_n} largest balls "
            + ", ".join(f"{top[m_]:.2f}" for m_ in sl.index)
            + ". Every slope is below 2 (asserted): the paper's claim holds.",
            f"* The GP on the structured (Voronoi) labels has slope {s_gp:.2f} over all sizes "
            f"and {top['transductive GP']:.2f} over the largest, "
            + ("inside the paper's range" if 1 < s_gp < 2 else "outside the paper's range of 1 to 2")
            + f". Its time per CG iteration grows with slope {per_cg:.2f} (asserted between 0.8 and 1.3: one CG step "
            f"is about linear in $m$), and the iteration counts grow from {g_n[0]} to {g_n[-1]} Newton steps and from "
            f"{g_e[0]} to {g_e[-1]} CG iterations (×{self.cg_growth:.1f}) while the graph grows "
            f"×{sizes[-1] / sizes[0]:.0f}"
            + (": Newton–CG with a sparse $K^{-1}$ behaves as the paper's argument says." if 1 < s_gp < 2 else "."),
            f"* **The labelling matters.** On iid random labels the GP needs {g_iid} Newton steps on "
            f"the whole graph instead of {g_n[-1]}, its slope is {sl.loc['transductive GP, iid labels', 'slope']:.2f} "
            f"instead of {s_gp:.2f} (asserted lower), and it is {speed:.1f}× faster on the whole graph. "
            "Our reading, not checked further: random labels are nearly uninformative, so the optimum stays near "
            "$t = 0$ where the objective is close to quadratic and Newton converges in a few steps, while labels that "
            "agree with the graph make the posterior confident over large regions and the softmax curvature varied. A "
            "scaling claim measured on random labels would flatter the method.",
            "* LLGC and harmonic + CMN are one sparse SPD solve each. "
            + f"Their slopes over all sizes are {lo_slopes}; from {sizes[0]:,} to {sizes[1]:,} nodes their time goes "
            + " and ".join(f"{flat.loc[m_].iloc[0]:.3f} → {flat.loc[m_].iloc[1]:.3f} s" for m_ in ("LLGC", "harmonic + CMN"))
            + (" (fixed overhead dominates the left end)" if overhead else "")
            + f". Over the {top_n} largest balls their slopes are {top['LLGC']:.2f} and "
            + f"{top['harmonic + CMN']:.2f}"
            + "".join(
                f"; {m_} stays below 1 there too, where the nodes grow ×{grow_n:.1f} but the edges only ×{grow_e:.1f}"
                for m_ in ("LLGC", "harmonic + CMN") if top[m_] < 1
            )
            + ".",
            "* Time is not a function of the edges alone. The balls of a social network grow denser before they grow "
            "wider"
            + (f" (the 15,000-node ball already holds {self.edge_share:.0%} of the edges, asserted above one half)"
               if not p.smoke else "")
            + ", so the outer balls add many low-degree nodes and few edges, yet the time keeps rising: every slope "
            "against the edges is steeper than against the nodes (asserted; right panel). The per-node work (vectors "
            "of length $m$ with $K$ columns, preconditioner set-up) counts as much as the sparse products. Accordingly "
            "the sparse citation "
            + (f"graphs ({rng_deg} edges per node against {deg['epinions ball']:.1f} for the whole of Epinions) "
               if not p.smoke else "graphs ")
            + "sit near the Epinions lines against nodes and far to their left against edges.",
            "* Timings on a shared machine are noisy; the tables record the run that wrote the figure.",
        ])  # fmt: skip


def scaling(profile: str = "full", seed: int = 0) -> Scaling:
    """Notebook 43 Secs. 1-3: time every method of :data:`SCALING_METHODS` on the nested Epinions balls
    (synthetic Voronoi labels, and the GP on iid labels) and on the labelled graphs (20 labels per class);
    fit log t = s log m + c per method (all balls, the ``top`` largest, against edges, per CG iteration)."""
    p = scaling_protocol(profile)
    g = gs.load_dataset("epinions")
    S_all = g.adjacency
    rng = np.random.default_rng(seed)
    root = int(rng.integers(g.n_nodes))
    rows, log, previous = [], [], np.array([], dtype=int)
    for m in p.sizes:
        nodes = gs.bfs_ball(S_all, m, root=root)
        assert nodes.size == m and np.isin(previous, nodes).all()  # nested balls
        previous = nodes
        S = S_all[nodes][:, nodes].tocsr()
        r = np.random.default_rng([seed, m])
        y = voronoi_labels(S, p.n_fake, r)  # synthetic: epinions has no node classes
        lab = stratified(y, p.frac, r)
        assert np.unique(y[lab]).size == p.n_fake
        for name, fn in SCALING_METHODS.items():
            sec, F, extra = median_time(fn, S, y, lab, repeats=p.repeats)
            assert F.shape == (m, p.n_fake) and np.isfinite(F).all()
            rows.append({"graph": "epinions ball", "method": name, "nodes": m, "edges": S.nnz // 2, "seconds": sec,
                         **extra})  # fmt: skip
        # the same GP on iid random labels (2 classes, no graph structure): does the labelling change the cost?
        y_iid = r.integers(0, 2, m)
        lab_iid = stratified(y_iid, p.frac, r)
        sec, F, extra = median_time(SCALING_METHODS["transductive GP"], S, y_iid, lab_iid, repeats=p.repeats)
        rows.append({"graph": "epinions ball", "method": "transductive GP, iid labels", "nodes": m,
                     "edges": S.nnz // 2, "seconds": sec, **extra})  # fmt: skip
        shares = np.bincount(y, minlength=p.n_fake) / m
        log.append(
            f"{m:6d} nodes, {S.nnz // 2:7d} edges, {lab.size:4d} labelled, class shares {np.round(shares, 2)}: "
            + ", ".join(f"{r_['method']} {r_['seconds']:.3f} s" for r_ in rows[-4:-1])
            + f" (GP: {rows[-2]['newton steps']} Newton, {rows[-2]['cg iterations']} CG;"
            + f" iid labels {rows[-1]['seconds']:.3f} s, {rows[-1]['newton steps']} Newton, "
            f"{rows[-1]['cg iterations']} CG)"
        )
    for name in p.labelled:
        gl = gs.load_dataset(name)
        r = np.random.default_rng([seed, 7])
        lab = np.sort(np.concatenate([r.choice(np.flatnonzero(gl.labels == k), 20, replace=False)
                                      for k in range(gl.n_classes)]))  # fmt: skip
        unl = np.setdiff1d(np.arange(gl.n_nodes), lab)
        for method, fn in SCALING_METHODS.items():
            sec, F, extra = median_time(fn, gl.adjacency, gl.labels, lab, repeats=p.repeats)
            acc = float(np.mean(F[unl].argmax(1) == gl.labels[unl]))
            assert acc > 0.5, f"{method} on {name}: accuracy {acc:.3f} — something is broken"
            rows.append({"graph": name, "method": method, "nodes": gl.n_nodes, "edges": gl.n_edges, "seconds": sec,
                         **extra, "accuracy": acc})  # fmt: skip
    timing = pd.DataFrame(rows)
    slopes = []
    ball = timing[timing.graph == "epinions ball"]
    for method, grp in ball.groupby("method", sort=False):
        s, c, r2 = _fit(grp["nodes"], grp["seconds"])
        per_cg = _fit(grp["nodes"], grp["seconds"] / grp["cg iterations"])[0] if "GP" in method else np.nan
        slopes.append({
            "method": method, "slope": s,
            f"slope, top {p.top}": _fit(grp["nodes"].iloc[-p.top:], grp["seconds"].iloc[-p.top:])[0],
            "intercept": c, "r2": r2, "slope vs edges": _fit(grp["edges"], grp["seconds"])[0],
            "slope of s per CG iteration": per_cg, "seconds at largest": grp["seconds"].iloc[-1],
            "largest nodes": int(grp["nodes"].iloc[-1]),
        })  # fmt: skip
    return Scaling(p, g, timing, pd.DataFrame(slopes), log)


def draw_scaling(res: Scaling):
    """Wall time of one fit against nodes (left) and edges (right), log-log: the Epinions balls as lines
    (slope in the legend), the labelled graphs as open markers, slope-1 and slope-2 references."""
    from matplotlib.ticker import NullFormatter

    timing, ball = res.timing, res.ball
    sl = res.slopes.set_index("method")
    style = {
        "LLGC": "LLGC",
        "harmonic + CMN": "CMN",
        "transductive GP": "TGP",
        "transductive GP, iid labels": "TGP",
    }
    labelled_names = "/".join(
        n.capitalize().replace("seer", "Seer").replace("med", "Med") for n in res.protocol.labelled
    )
    fig, axes = plotting.subplots(1, 2, size=(7.5, 4.2), squeeze=False, sharey=True)
    handles = []
    for k, xcol in enumerate(["nodes", "edges"]):
        ax = axes[0][k]
        for method, grp in ball.groupby("method", sort=False):
            st = plotting.algorithm_style(style[method])
            iid = "iid" in method
            if iid:  # the same method on other labels: its own colour and marker
                st = {**st, "color": plotting.COLOR_CYCLE[4], "marker": "X"}
            (h,) = ax.plot(grp[xcol], grp["seconds"], label=f"{method}, Epinions balls (slope {sl.loc[method, 'slope']:.2f})",
                           **{**st, "linestyle": ":" if iid else "-"})  # fmt: skip
            other = timing[(timing.graph != "epinions ball") & (timing.method == method)]
            if len(other):
                (h2,) = ax.plot(other[xcol], other["seconds"], ls="none", marker=st.get("marker", "o"),
                                color=st.get("color"), mfc="none", ms=7, mew=1.2,
                                label=f"{method}, {labelled_names} (real labels)")  # fmt: skip
            if k == 0:
                handles += [h] + ([h2] if len(other) else [])
        x = ball[xcol].to_numpy(float)
        m = np.array([x.min(), x.max()])
        t0 = ball["seconds"].min()
        for q, ls in ((1, (0, (1, 1))), (2, "--")):
            (h,) = ax.plot(m, t0 * (m / m[0]) ** q, color="0.6", ls=ls, lw=1, label=f"slope {q} (reference)")
            if k == 0:
                handles.append(h)
        ax.set(
            xscale="log",
            yscale="log",
            xlabel="nodes m" if xcol == "nodes" else "edges |E|",
            title=f"time vs {xcol}",
        )
        ax.set_ylabel("wall time of one fit (s)")
        ax.xaxis.set_minor_formatter(NullFormatter())  # decade labels only: no colliding minor labels
    fig.legend(handles=handles, loc="outside lower center", ncol=2, fontsize=6.5)
    return fig
