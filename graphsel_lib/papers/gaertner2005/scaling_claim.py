"""Notebook 43: gaertner2005's scaling claim (Sec. 2), times of the transductive GP against graph size."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

import graphsel_lib as gs
from graphsel_lib.collection import plotting
from graphsel_lib.course.prose import Reading
from graphsel_lib.papers.common import Result, is_smoke, table_field
from graphsel_lib.transductive import GPFit, harmonic, llgc, transductive_gp_fit

from .published import PUBLISHED_EPINIONS
from .texts import reading


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

    @property
    def top_column(self) -> str:
        """The column of the slopes table fitted over the ``top`` largest balls."""
        return f"slope, top {self.top}"


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
    "transductive GP": lambda S, y, lab: transductive_gp_fit(S, y, lab),
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
    if isinstance(out, GPFit):  # transductive_gp_fit: the scores and the search's counts
        return (
            float(np.median(times)),
            out.scores,
            {"newton steps": out.iterations, "cg iterations": out.cg_iterations},
        )
    return float(np.median(times)), out, {}


def _fit(x, t):
    x, t = np.log(np.asarray(x, float)), np.log(np.asarray(t, float))
    s, c = np.polyfit(x, t, 1)
    return s, c, 1 - np.sum((t - (s * x + c)) ** 2) / np.sum((t - t.mean()) ** 2)


@dataclass
class Scaling(Result):
    """Notebook 43: wall times on nested Epinions balls and the labelled graphs, and the log-log slopes."""

    protocol: ScalingProtocol
    graph: object  #: the whole Epinions graph
    #: one row per graph, method, size (the written table 43_gaertner2005_scaling)
    timing: pd.DataFrame = table_field("gaertner2005_scaling", float_format="%.4f", required=True)
    #: one row per method (the written table 43_scaling_slopes)
    slopes: pd.DataFrame = table_field("scaling_slopes", float_format="%.3f", required=True)
    log: list = None  #: one line per ball
    PREFIX = "43_"

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

    @property
    def asserted_claims(self) -> dict:
        """The claims the reading marks *asserted* (:meth:`check` asserts them in the full profile; on other
        runs the reading's words follow them): every slope below 2 (the paper's O(m^2) worst case; O(m^3) for
        a dense method), the GP's slope in the paper's range 1 to 2, its time per CG iteration about linear
        in m, iid labels a lower slope, every slope steeper against the edges than against the nodes."""
        sl = self.slopes.set_index("method")
        s_gp = sl.loc["transductive GP", "slope"]
        return dict(
            below_two=bool((sl["slope"] < 2.0).all()),
            in_range=bool(1 < s_gp < 2),
            per_cg_linear=bool(0.8 < sl.loc["transductive GP", "slope of s per CG iteration"] < 1.3),
            iid_lower=bool(sl.loc["transductive GP, iid labels", "slope"] < s_gp),
            edges_steeper=bool((sl["slope vs edges"] > sl["slope"]).all()),
        )

    @property
    def iid_fewer_newton(self) -> bool:
        """On the whole graph the GP needs fewer Newton steps on iid labels than on the structured ones
        (:meth:`check` asserts it in the full profile; the reading's words follow it on other runs)."""
        return bool(self.gp_iid["newton steps"].iloc[-1] < self.gp["newton steps"].iloc[-1])

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
        failed = [name for name, holds in self.asserted_claims.items() if not holds]
        assert not failed, f"the reading's asserted claims fail in the full profile: {failed}"
        assert sl.loc["transductive GP", "seconds at largest"] < 30  # whole Epinions in seconds
        assert (
            self.cg_growth < 0.2 * p.sizes[-1] / p.sizes[0]
        )  # iteration counts grow far slower than the graph
        assert self.iid_fewer_newton  # structured labels: more Newton steps
        assert self.edge_share > 0.5
        deg = self.degree
        assert deg.drop("epinions ball").max() < deg["epinions ball"]
        out += [f"the 15,000-node ball holds {self.edge_share:.0%} of all edges",
                f"edges per node: {deg.round(2).to_dict()}"]  # fmt: skip
        return "\n".join(out)

    def reading(self) -> Reading:
        """Sec. 3: what the paper reports and what we measure, from the tables (template ``scaling``)."""
        p, g, gp, gp_iid, ball = self.protocol, self.graph, self.gp, self.gp_iid, self.ball
        sizes, top_n, solvers = p.sizes, p.top, ["LLGC", "harmonic + CMN"]
        sl = self.slopes.set_index("method")
        top = sl[p.top_column]
        s_gp = sl.loc["transductive GP", "slope"]
        speed = gp["seconds"].iloc[-1] / gp_iid["seconds"].iloc[-1]
        flat = ball[ball.nodes.isin(sizes[:2])].pivot_table(index="method", columns="nodes", values="seconds")
        top_balls = gp.iloc[-top_n:]
        grow_n = top_balls["nodes"].iloc[-1] / top_balls["nodes"].iloc[0]
        grow_e = top_balls["edges"].iloc[-1] / top_balls["edges"].iloc[0]
        deg = self.degree
        values = dict(
            pub_people=PUBLISHED_EPINIONS["epinions people"],
            pub_edges=PUBLISHED_EPINIONS["epinions trust edges (directed)"],
            pub_top=PUBLISHED_EPINIONS["top reviewers right (%)"],
            n_nodes=g.n_nodes,
            n_edges=g.adjacency.nnz // 2,
            largest=sizes[-1],
            at_largest=[reading("scaling.at_largest", seconds=sl.loc[m, "seconds at largest"], method=m)
                        for m in sl.index],
            n_sizes=len(sizes),
            slopes=[reading("scaling.slope", slope=sl.loc[m, "slope"], method=m) for m in sl.index],
            top_n=top_n,
            top_slopes=list(top),
            s_gp=s_gp,
            s_gp_top=top["transductive GP"],
            per_cg=sl.loc["transductive GP", "slope of s per CG iteration"],
            newton_first=int(gp["newton steps"].iloc[0]),
            newton_last=int(gp["newton steps"].iloc[-1]),
            cg_first=int(gp["cg iterations"].iloc[0]),
            cg_last=int(gp["cg iterations"].iloc[-1]),
            cg_growth=self.cg_growth,
            growth=sizes[-1] / sizes[0],
            newton_iid=int(gp_iid["newton steps"].iloc[-1]),
            s_iid=sl.loc["transductive GP, iid labels", "slope"],
            speed=speed,
            solve_slopes=[sl.loc[m, "slope"] for m in solvers],
            size0=sizes[0],
            size1=sizes[1],
            first_steps=[reading("scaling.step", before=flat.loc[m].iloc[0], after=flat.loc[m].iloc[1])
                         for m in solvers],
            solve_top=[top[m] for m in solvers],
            below_one=[reading("scaling.below_one", dict(edges_slower=bool(grow_e < grow_n)), method=m,
                               grow_n=grow_n, grow_e=grow_e) for m in solvers if top[m] < 1],
            edge_share=self.edge_share,
            deg_epinions=deg["epinions ball"],
        )  # fmt: skip
        if not p.smoke:  # the labelled graphs beside Epinions: all four in the full profile
            deg_other = deg.drop("epinions ball")
            values.update(deg_lo=deg_other.min(), deg_hi=deg_other.max())
        claims = dict(
            smoke=p.smoke,
            iid_faster=bool(speed > 1),
            iid_fewer_newton=self.iid_fewer_newton,
            # time grows < sqrt(m) over the first two sizes
            overhead=all(
                flat.loc[m].iloc[1] / flat.loc[m].iloc[0] < (sizes[1] / sizes[0]) ** 0.5 for m in solvers
            ),
            **self.asserted_claims,
        )
        return reading("scaling", claims, **values)


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
            p.top_column: _fit(grp["nodes"].iloc[-p.top:], grp["seconds"].iloc[-p.top:])[0],
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
