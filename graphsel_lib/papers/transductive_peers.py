"""Our transductive classifiers beside scikit-learn's and networkx's label propagation (notebook 41).

Ours (``gs.transductive``) solve the linear systems of the harmonic function (Zhu, Ghahramani & Lafferty 2003)
and of LLGC (Zhou et al. 2003) directly; scikit-learn's ``LabelPropagation``/``LabelSpreading`` and networkx's
``harmonic_function``/``local_and_global_consistency`` iterate to the same fixed points. Here: the protocol
(:func:`protocol`, :func:`split`), the peers wrapped on our sparse graph (:func:`sk_fit`, :func:`nx_fit`,
:func:`methods`), one function per table or figure (:func:`agreement`, :func:`peers`, :func:`collapse`) and the
figure (:func:`draw_peers`). No paper publishes these numbers: nothing is compared with published values.
Result objects write their tables (``.write()``) as ``figures/41_*`` and return their readings as
:class:`~graphsel_lib.course.prose.Reading` (templates in :mod:`graphsel_lib.papers.beyond_texts`).
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field

import networkx as nx
import numpy as np
import pandas as pd
from matplotlib.lines import Line2D
from matplotlib.ticker import FormatStrFormatter, LogLocator, NullFormatter
from networkx.algorithms import node_classification as nxc
from sklearn.semi_supervised import LabelPropagation, LabelSpreading

import graphsel_lib as gs
from graphsel_lib.collection import plotting
from graphsel_lib.course.prose import Reading, Span
from graphsel_lib.papers.beyond_texts import reading
from graphsel_lib.papers.common import ProfileProtocol, Result, is_smoke, table_field

T = gs.transductive

__all__ = [
    "Agreement",
    "Collapse",
    "Peers",
    "Protocol",
    "agreement",
    "collapse",
    "draw_peers",
    "methods",
    "nx_fit",
    "one_hot_argmax",
    "peers",
    "protocol",
    "sk_fit",
    "split",
    "split_seeds",
]

LLGC_NORM = "LLGC normalized, alpha=0.99"  #: the method name of the normalised-Laplacian LLGC
NAME = {"cora": "Cora", "pubmed": "PubMed"}


@dataclass(frozen=True)
class Protocol(ProfileProtocol):
    """Sizes and settings of one profile (notebook 41; ``smoke``: Cora only, two splits)."""

    datasets: tuple
    n_splits: int
    collapse_splits: int  #: PubMed harmonic only: cheap, so the smoke profile shows it too
    per_class: int = 20  #: labelled nodes per class
    mu_comb: float = 10.0  #: our gu2013 LLGC (combinatorial Laplacian): a stated value, not tuned
    alpha: float = 0.99  #: Zhou et al.'s value, networkx's default; scikit-learn's default is 0.2
    sk_max_iter: int = 1000  #: scikit-learn's default is 30: it stops early on PubMed
    sk_tol: float = 1e-3  #: scikit-learn's default

    @property
    def mu_norm(self) -> float:
        """The mu of our normalised LLGC that matches alpha: mu = alpha / (1 - alpha)."""
        return self.alpha / (1 - self.alpha)


def protocol(profile: str = "full") -> Protocol:
    """The protocol of ``profile`` (``"full"``: Cora and PubMed, 10 splits; ``"smoke"``: Cora, 2 splits)."""
    if is_smoke(profile):
        return Protocol(profile, ("cora",), 2, 2)
    return Protocol(profile, ("cora", "pubmed"), 10, 10)


def split(y, seed_s: int, per_class: int = 20):
    """``per_class`` labelled nodes drawn uniformly in every class (seeded), sorted."""
    rng = np.random.default_rng(seed_s)
    K = int(y.max()) + 1
    return np.sort(
        np.concatenate([rng.choice(np.flatnonzero(y == k), per_class, replace=False) for k in range(K)])
    )


def split_seeds(n_splits: int, seed: int = 0) -> list:
    """The seeds of the ``n_splits`` splits of notebook 41."""
    return [1000 * seed + s for s in range(n_splits)]


# --------------------------------------------------------------------------- the peers, wrapped


def sk_fit(cls, S, y, lab, *, max_iter=1000, tol=1e-3, iters=None, **kw):
    """scikit-learn fit on the precomputed graph ``S`` -> (label distributions (n, K), n_iter).

    Node indices are passed as X and a kernel callable returns ``S`` (a COO copy: ``LabelSpreading`` masks
    the diagonal by ``row == col``, ``LabelPropagation`` divides in place). ``iters`` collects
    ``(estimator, n, max_iter, n_iter)``.
    """
    n = S.shape[0]
    yy = np.full(n, -1)
    yy[lab] = y[lab]
    kernel = lambda A, B: S.tocoo(copy=True)  # noqa: E731
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # max_iter warnings: n_iter is reported instead
        m = cls(kernel=kernel, max_iter=max_iter, tol=tol, **kw)
        m.fit(np.arange(n)[:, None], yy)
    if iters is not None:
        iters.append((cls.__name__, n, max_iter, int(m.n_iter_)))
    return m.label_distributions_, m.n_iter_


def nx_graph(S, y, lab):
    """A networkx graph of ``S`` with a ``label`` attribute on the labelled nodes."""
    G = nx.from_scipy_sparse_array(S)
    nx.set_node_attributes(G, {int(i): int(y[i]) for i in lab}, "label")
    return G


def nx_fit(fn, S, y, lab, **kw):
    """A networkx node classifier on ``S`` -> (predictions, seconds spent building the networkx graph)."""
    t = time.perf_counter()
    G = nx_graph(S, y, lab)
    t_build = time.perf_counter() - t
    return np.asarray(fn(G, **kw)), t_build


def one_hot_argmax(pred, K):
    F = np.zeros((pred.size, K))
    F[np.arange(pred.size), pred] = 1.0
    return F


def methods(p: Protocol, iters=None) -> list:
    """``(method, implementation, fit(S, y, lab) -> scores (n, K))`` for the accuracy table, ours first."""
    sk = {"max_iter": p.sk_max_iter, "tol": p.sk_tol, "iters": iters}

    def nx_scores(fn, **kw):
        return lambda S, y, lab: one_hot_argmax(nx_fit(fn, S, y, lab, **kw)[0], int(y.max()) + 1)

    return [
        ("LLGC combinatorial, mu=10", "ours", lambda S, y, lab: T.llgc(S, y, lab, mu=p.mu_comb)),
        (LLGC_NORM, "ours", lambda S, y, lab: T.llgc(S, y, lab, mu=p.mu_norm, laplacian="normalized")),
        (LLGC_NORM, "scikit-learn LabelSpreading",
         lambda S, y, lab: sk_fit(LabelSpreading, S, y, lab, alpha=p.alpha, **sk)[0]),
        (LLGC_NORM, "networkx local_and_global_consistency (30 it.)",
         nx_scores(nxc.local_and_global_consistency, alpha=p.alpha)),
        ("harmonic", "ours", lambda S, y, lab: T.harmonic(S, y, lab)),
        ("harmonic + CMN", "ours", lambda S, y, lab: T.harmonic(S, y, lab, cmn=True)),
        ("harmonic", "scikit-learn LabelPropagation", lambda S, y, lab: sk_fit(LabelPropagation, S, y, lab, **sk)[0]),
        ("harmonic", "networkx harmonic_function (30 it.)", nx_scores(nxc.harmonic_function)),
        ("transductive GP", "ours", lambda S, y, lab: T.transductive_gp(S, y, lab)),
    ]  # fmt: skip


# =========================================================================== Sec. 2: agreement


@dataclass
class Agreement:
    """Notebook 41 Sec. 2: the peers against our direct solutions on one Cora split (asserted)."""

    lines: list  #: what was checked, one line each
    agree30: dict  #: networkx function -> share of predictions equal to the fixed point at 30 iterations
    protocol: Protocol = None

    def report(self) -> str:
        return "\n".join(self.lines)

    def reading(self) -> Reading:
        """Sec. 2: the peers equal ours at convergence; at networkx's default 30 iterations they do not."""
        a, p = self.agree30, self.protocol
        return reading(
            "peers.agreement",
            agree_harmonic=a["harmonic_function"],
            agree_llgc=a["local_and_global_consistency"],
            sk_max_iter=p.sk_max_iter,
            sk_tol=p.sk_tol,
        )


def agreement(profile: str = "full", seed: int = 0) -> Agreement:
    """Notebook 41 Sec. 2: networkx and scikit-learn at convergence equal ours; at 30 iterations they do not."""
    p = protocol(profile)
    g = gs.load_dataset("cora")
    S, y, n = g.adjacency, g.labels, g.n_nodes
    lab = split(y, split_seeds(1, seed)[0], p.per_class)
    unl = np.setdiff1d(np.arange(n), lab)
    lines = []

    def rownorm(F):
        return F / F.sum(axis=1, keepdims=True)

    F_h = T.harmonic(S, y, lab)
    p_nx, _ = nx_fit(nxc.harmonic_function, S, y, lab, max_iter=2000)
    agree_nx = np.mean(p_nx == F_h.argmax(1))
    top2 = np.sort(F_h, axis=1)[:, -2:]
    lines.append(
        f"networkx harmonic (2000 it.) vs ours: {agree_nx:.4%} of the predictions agree; "
        f"disagreements {np.sum(p_nx != F_h.argmax(1))}, nodes with a near tie (gap < 1e-6): "
        f"{np.sum(top2[:, 1] - top2[:, 0] < 1e-6)}"
    )
    assert agree_nx >= 0.999, agree_nx

    F_lp, it_lp = sk_fit(LabelPropagation, S, y, lab, max_iter=20000, tol=1e-9)
    d_lp = np.abs(F_lp - F_h).max()
    lines.append(
        f"sklearn LabelPropagation (tol 1e-9, {it_lp} it.) vs ours harmonic: max |dF| = {d_lp:.1e}, "
        f"predictions agree {np.mean(F_lp.argmax(1) == F_h.argmax(1)):.4%}"
    )
    assert d_lp < 1e-6 and np.all(F_lp.argmax(1) == F_h.argmax(1))

    F_ll = rownorm(T.llgc(S, y, lab, mu=p.mu_norm, laplacian="normalized"))
    F_ls, it_ls = sk_fit(LabelSpreading, S, y, lab, alpha=p.alpha, max_iter=20000, tol=1e-9)
    d_ls = np.abs(F_ls - F_ll).max()
    lines.append(
        f"sklearn LabelSpreading(alpha={p.alpha}, tol 1e-9, {it_ls} it.) vs ours llgc(mu={p.mu_norm:g}, "
        f"normalized): max |dF| = {d_ls:.1e}, predictions agree {np.mean(F_ls.argmax(1) == F_ll.argmax(1)):.4%}"
    )
    assert d_ls < 1e-6 and np.all(F_ls.argmax(1) == F_ll.argmax(1))

    F_ls3, it3 = sk_fit(LabelSpreading, S, y, lab, alpha=p.alpha, max_iter=p.sk_max_iter, tol=p.sk_tol)
    lines.append(
        f"  at scikit-learn's default tol=1e-3 ({it3} it.): max |dF| = {np.abs(F_ls3 - F_ll).max():.1e}, "
        f"predictions agree {np.mean(F_ls3.argmax(1) == F_ll.argmax(1)):.4%}"
    )

    agree30 = {}
    for fn, ours, kw in [
        (nxc.harmonic_function, F_h, {}),
        (nxc.local_and_global_consistency, F_ll, {"alpha": p.alpha}),
    ]:
        p30, _ = nx_fit(fn, S, y, lab, **kw)
        agree30[fn.__name__] = float(np.mean(p30 == ours.argmax(1)))
        lines.append(
            f"networkx {fn.__name__} at its default 30 iterations: predictions agree with the fixed point on "
            f"{np.mean(p30 == ours.argmax(1)):.2%}, accuracy {np.mean(p30[unl] == y[unl]):.4f} vs "
            f"{np.mean(ours.argmax(1)[unl] == y[unl]):.4f}"
        )
    assert max(agree30.values()) < 1.0  # the default budget stops before the fixed point
    return Agreement(lines, agree30, p)


# =========================================================================== Sec. 3: accuracy and time


@dataclass
class Peers(Result):
    """Notebook 41 Sec. 3: accuracy and wall time of every method on the same splits (``41_peers_accuracy``)."""

    protocol: Protocol
    runs: pd.DataFrame  #: one row per dataset, split, method and implementation
    agg: pd.DataFrame = None  #: mean and std over the splits
    #: the table as written
    table: pd.DataFrame = table_field(
        "peers_accuracy", formats={"error": "%.4f", "time mean (s)": "%.4f", "time ratio vs ours": "%.2f"}
    )
    sk_iters: list = field(
        default_factory=list
    )  #: (estimator, n, max_iter, n_iter) of every scikit-learn fit
    PREFIX = "41_"

    def acc(self, name, method, impl) -> pd.Series:
        return self.agg.set_index(["dataset", "method", "implementation"]).loc[(name, method, impl)]

    def converged(self) -> str:
        """The accuracy of a converged peer equals ours (same estimator; LLGC asserted within 0.005)."""
        lines = []
        for name in self.protocol.datasets:
            a = self.agg[self.agg.dataset == name].set_index(["method", "implementation"])["acc_mean"]
            h, hp = a[("harmonic", "ours")], a[("harmonic", "scikit-learn LabelPropagation")]
            ll, ls = a[(LLGC_NORM, "ours")], a[(LLGC_NORM, "scikit-learn LabelSpreading")]
            lines.append(f"{name} harmonic: ours {h:.4f} | LabelPropagation {hp:.4f}")
            lines.append(f"{name} LLGC normalized: ours {ll:.4f} | LabelSpreading {ls:.4f}")
            assert abs(ll - ls) < 0.005
        return "\n".join(lines)

    def reading_intro(self) -> Reading:
        """The opening of Sec. 4, rendered from the accuracy table (the smoke profile has no PubMed row)."""
        has_pubmed = "pubmed" in self.protocol.datasets
        if not has_pubmed:
            return reading("peers.intro", dict(has_pubmed=False))
        h = self.acc("pubmed", "harmonic", "ours")
        c = self.acc("pubmed", "harmonic + CMN", "ours")
        lp = self.acc("pubmed", "harmonic", "scikit-learn LabelPropagation")
        return reading(
            "peers.intro",
            dict(has_pubmed=True),
            h_mean=h.acc_mean,
            h_std=h.acc_std,
            n_splits=self.protocol.n_splits,
            cmn_mean=c.acc_mean,
            cmn_std=c.acc_std,
            lp_mean=lp.acc_mean,
        )

    def reading_truncated(self, agree: Agreement) -> Reading:
        """Sec. 4's last paragraph: networkx's 30 iterations avoid the collapse by not converging."""
        p = self.protocol
        if "pubmed" not in p.datasets:
            return reading("peers.truncated", dict(has_pubmed=False))
        lp = [it for name_, n_, mx, it in self.sk_iters if name_ == "LabelPropagation" and n_ > 10_000]
        return reading(
            "peers.truncated",
            dict(has_pubmed=True),
            nx30=self.acc("pubmed", "harmonic", "networkx harmonic_function (30 it.)").acc_mean,
            sk=self.acc("pubmed", "harmonic", "scikit-learn LabelPropagation").acc_mean,
            ours=self.acc("pubmed", "harmonic", "ours").acc_mean,
            sk_max_iter=p.sk_max_iter,
            sk_tol=p.sk_tol,
            n_capped=sum(it >= p.sk_max_iter for it in lp),
            n_fits=len(lp),
            disagree=1 - agree.agree30["harmonic_function"],
        )


def _peers_table(runs):
    agg = (
        runs.groupby(["dataset", "method", "implementation"], sort=False)
        .agg(acc_mean=("accuracy", "mean"), acc_std=("accuracy", "std"), time_mean=("time", "mean"))
        .reset_index()
    )
    ours_time = {(r.dataset, r.method): r.time_mean for r in agg.itertuples() if r.implementation == "ours"}
    out = pd.DataFrame(
        {
            "dataset": agg["dataset"],
            "method": agg["method"],
            "implementation": agg["implementation"],
            "accuracy": [
                f"{m:.4f} ± {s:.4f}" for m, s in zip(agg["acc_mean"], agg["acc_std"].fillna(0), strict=True)
            ],
            "error": 1 - agg["acc_mean"],
            "time mean (s)": agg["time_mean"],
            "time ratio vs ours": [
                t / ours_time[(d, m)]
                for d, m, t in zip(agg["dataset"], agg["method"], agg["time_mean"], strict=True)
            ],
        }
    )
    return out, agg


def peers(profile: str = "full", seed: int = 0, verbose: bool = True) -> Peers:
    """Notebook 41 Sec. 3: every method of :func:`methods` on the same splits; wall time of one fit, this run."""
    p = protocol(profile)
    iters, rows = [], []
    t_start = time.perf_counter()
    for name in p.datasets:
        g = gs.load_dataset(name)
        S, y, n = g.adjacency, g.labels, g.n_nodes
        for s_i, s in enumerate(split_seeds(p.n_splits, seed)):
            lab = split(y, s, p.per_class)
            unl = np.setdiff1d(np.arange(n), lab)
            for method, impl, fit in methods(p, iters):
                t = time.perf_counter()
                F = fit(S, y, lab)
                dt = time.perf_counter() - t
                acc = float(np.mean(F.argmax(1)[unl] == y[unl]))
                rows.append(
                    dict(dataset=name, split=s_i, method=method, implementation=impl, accuracy=acc, time=dt)
                )
        if verbose:
            print(f"{name}: done ({time.perf_counter() - t_start:.0f} s)")
    res = Peers(p, pd.DataFrame(rows), sk_iters=iters)
    res.table, res.agg = _peers_table(res.runs)
    return res


MARK = {"ours": "o", "scikit-learn": "s", "networkx": "^"}
COLOR = {
    "LLGC combinatorial, mu=10": "C0",
    LLGC_NORM: "C1",
    "harmonic": "C2",
    "harmonic + CMN": "C3",
    "transductive GP": "C4",
}


def draw_peers(res: Peers):
    """Notebook 41's figure: accuracy against the wall time of one fit; filled markers ours, open the peers."""
    p, agg = res.protocol, res.agg
    fig, axes = plotting.subplots(
        1, len(p.datasets), size=(7.5 if len(p.datasets) > 1 else 4.5, 3.8), squeeze=False
    )
    for ax, name in zip(axes[0], p.datasets, strict=True):
        for r in agg[agg.dataset == name].itertuples():
            lib = r.implementation.split()[0]
            ax.errorbar(
                r.time_mean,
                r.acc_mean,
                yerr=r.acc_std,
                fmt=MARK[lib],
                color=COLOR[r.method],
                ms=6,
                capsize=2,
                mfc="none" if lib != "ours" else COLOR[r.method],
            )
        ax.set_xscale("log")
        ax.xaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))  # 1-2-5 ticks, plain numbers
        ax.xaxis.set_major_formatter(FormatStrFormatter("%g"))
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("wall time of one fit (s, log scale)")
        ax.set_ylabel("accuracy (unlabelled nodes)")
        ax.set_title(f"{name}: {p.per_class} labels/class, {p.n_splits} splits", fontsize=8)
    handles = [Line2D([], [], color=c, marker="o", ls="", label=m) for m, c in COLOR.items()]
    handles += [
        Line2D([], [], color="k", marker=mk, ls="", mfc="none" if lib != "ours" else "k", label=lib)
        for lib, mk in MARK.items()
    ]
    fig.legend(handles=handles, loc="outside lower center", ncol=4, fontsize=7)
    return fig


# =========================================================================== Sec. 4: the harmonic collapse


@dataclass
class Collapse(Result):
    """Notebook 41 Sec. 4: the plain harmonic function against CMN on PubMed, per split (``41_harmonic_collapse``)."""

    table: pd.DataFrame = table_field("harmonic_collapse", float_format="%.3f", required=True)
    n_nodes: int
    mean_degree: float
    true_p: np.ndarray
    PREFIX = "41_"

    @property
    def predicted_share(self) -> pd.Series:
        """Largest predicted class share without CMN, per split."""
        return self.table[[f"predicted p{k} (no CMN)" for k in range(len(self.true_p))]].max(axis=1)

    @property
    def predicted_share_cmn(self) -> pd.Series:
        return self.table[[f"predicted p{k} (CMN)" for k in range(len(self.true_p))]].max(axis=1)

    @property
    def collapsed(self) -> pd.Series:
        """Splits where one class takes more than 90 % of the plain predictions."""
        return self.predicted_share > 0.9

    @property
    def ratio(self) -> pd.Series:
        """Gap between the top two entries of the mean score over the median row deviation."""
        return self.table["top-2 gap of mean score"] / self.table["median row deviation"]

    def report(self) -> str:
        e0, e1, c = self.table["error (no CMN)"], self.table["error (CMN)"], self.collapsed
        return (
            f"pubmed: {self.n_nodes:,} nodes, mean degree {self.mean_degree:.2f}\n"
            f"PubMed, {len(self.table)} splits: harmonic error {e0.mean():.3f} ± {e0.std():.3f} (min {e0.min():.3f}, "
            f"max {e0.max():.3f}); with CMN {e1.mean():.3f} ± {e1.std():.3f}\n"
            f"splits where one class takes > 90 % of the predictions without CMN: {c.sum()} of {len(self.table)}\n"
            f"max predicted share with CMN: {self.predicted_share_cmn.max():.3f}\n"
            f"gap / median deviation on collapsed splits: {np.round(np.sort(self.ratio[c].to_numpy()), 2)}  on "
            f"the others: {np.round(np.sort(self.ratio[~c].to_numpy()), 2)}"
        )

    def reading(self) -> Reading:
        """Sec. 4: the collapse per split, CMN's repair, and the gap of the mean score against the row deviations."""
        e0, e1, c, ratio = self.table["error (no CMN)"], self.table["error (CMN)"], self.collapsed, self.ratio
        mixed = bool(c.any() and (~c).any())
        share = 1 - np.asarray(self.true_p, float)
        return reading(
            "peers.collapse",
            dict(mixed=mixed),
            n_nodes=self.n_nodes,
            mean_degree=self.mean_degree,
            collapse_error=Span(share.min(), share.max()),
            n_splits=len(self.table),
            e0_mean=e0.mean(),
            e0_std=e0.std(),
            e0_min=e0.min(),
            e0_max=e0.max(),
            e1_mean=e1.mean(),
            e1_std=e1.std(),
            n_collapsed=int(c.sum()),
            ratio_collapsed=Span(ratio[c].min(), ratio[c].max()) if mixed else None,
            ratio_other=Span(ratio[~c].min(), ratio[~c].max()) if mixed else None,
        )


def collapse(profile: str = "full", seed: int = 0) -> Collapse:
    """Notebook 41 Sec. 4: per PubMed split, errors without and with CMN, predicted and true class shares,
    the mean harmonic score of each class and the dispersion of the rows around it."""
    p = protocol(profile)
    g = gs.load_dataset("pubmed")
    S, y, n = g.adjacency, g.labels, g.n_nodes
    K = g.n_classes
    true_p = np.bincount(y, minlength=K) / n
    crow = []
    for s_i, s in enumerate(split_seeds(p.collapse_splits, seed)):
        lab = split(y, s, p.per_class)
        unl = np.setdiff1d(np.arange(n), lab)
        F = T.harmonic(S, y, lab)[unl]
        Fc = T.harmonic(S, y, lab, cmn=True)[unl]
        assert np.allclose(F.sum(1), 1.0, atol=1e-8)  # harmonic rows are probability vectors
        pred, predc = F.argmax(1), Fc.argmax(1)
        # dispersion of the rows around their common mean vector, relative to the gap between its top entries
        fbar = F.mean(0)
        top = np.sort(fbar)
        crow.append(
            dict(
                dataset="pubmed",
                split=s_i,
                **{"error (no CMN)": np.mean(pred != y[unl]), "error (CMN)": np.mean(predc != y[unl])},
                **{f"predicted p{k} (no CMN)": np.mean(pred == k) for k in range(K)},
                **{f"predicted p{k} (CMN)": np.mean(predc == k) for k in range(K)},
                **{f"true p{k}": true_p[k] for k in range(K)},
                **{f"mean score {k}": fbar[k] for k in range(K)},
                **{
                    "top-2 gap of mean score": top[-1] - top[-2],
                    "median row deviation": np.median(np.abs(F - fbar).max(axis=1)),
                },
            )
        )
    return Collapse(pd.DataFrame(crow), n, 2 * g.n_edges / n, true_p)
