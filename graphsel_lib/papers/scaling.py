"""Scaling online learning: cost per round from a thousand to a million nodes (notebook 44).

The relaxation learner with FastONL's push (Zhou et al., ICML 2023; ``gs.online.Relaxation``) and its margin
sampling variant (notebook 35) against the spectral learners GPA, OLLGC and MSG (gu2013, yang2016) on generated
block-model graphs (``gs.datasets.sbm``) of growing size and on Epinions. Here: the protocol (:func:`protocol`),
the learners (:data:`PUSH`, :data:`TREE`, :data:`SPECTRAL`), one function per table or figure (:func:`generator`,
:func:`embedding_cost`, :func:`localisation`, :func:`approximate_embeddings`, :func:`per_round`,
:func:`distributed_sweep`) and the figure (:func:`draw_scaling`). Every time is
measured by the run; result objects write their tables (``.write()``) as ``figures/44_*`` and render their
reading (Markdown).
"""

from __future__ import annotations

import gc
import logging
import time
import tracemalloc
import warnings
from contextlib import nullcontext
from dataclasses import dataclass
from functools import partial

import numba
import numpy as np
import pandas as pd
from matplotlib.lines import Line2D
from matplotlib.ticker import NullFormatter

import graphsel_lib as gs
from graphsel_lib.collection import plotting, tables
from graphsel_lib.course.prose import Reading
from graphsel_lib.papers import scaling_texts as texts
from graphsel_lib.papers.common import ProfileProtocol, Result, is_smoke, table_field

try:
    from threadpoolctl import threadpool_limits  # installed with scikit-learn
except ImportError:  # then the BLAS runs with the threads it has
    threadpool_limits = None

__all__ = [
    "PUSH",
    "SBM",
    "SELECTIVE",
    "SPECTRAL",
    "TREE",
    "Approximations",
    "Embeddings",
    "Generated",
    "Localisation",
    "Protocol",
    "Scaling",
    "approximate_embeddings",
    "distributed_sweep",
    "draw_scaling",
    "embed",
    "embedding_cost",
    "generate",
    "generator",
    "localisation",
    "loglog_fit",
    "measure",
    "per_round",
    "protocol",
    "reading_summary",
    "traced_prefix_check",
    "warm_up",
]

SBM = dict(n_blocks=10, avg_degree=20, mixing=0.2)  #: the generator's parameters
BETA, EPS, B = 0.1, 1e-4, 0.1  #: relaxation: beta = BETA * n, push tolerance; margin sampling: b
BIAS_B = 1.0
#: Largest relative residual ``max_j ||L v_j - lambda_j v_j|| / lambda_j`` each eigensolver guarantees, below which
#: ``44_embedding_cost`` writes ``< floor``: dense ``eigh`` and shift-invert ARPACK (``tol=0``) are exact to rounding
#: (1e-12); block LOBPCG stops at ``||r_j|| <= 1e-8 theta_max`` (:data:`graphsel_lib.spectral.LOBPCG_RTOL`), i.e. a
#: relative residual up to ``1e-8 theta_max / lambda_2`` (a residual above its floor is written as its value;
#: :func:`embedding_cost` asserts every one below 1e-6).
RESIDUAL_FLOOR = {"dense": 1e-12, "shift-invert": 1e-12, "lobpcg-jacobi": 1e-7, "lobpcg-chebyshev": 1e-7}

#: Built on the graph, run on node ids.
PUSH = {
    "Relaxation (push)": lambda S, n: gs.online.Relaxation(S, beta=BETA * n, kernel="push", eps=EPS),
    "MarginSampling (push)": lambda S, n: gs.online.MarginSampling(
        gs.online.Relaxation(S, beta=BETA * n, kernel="push", eps=EPS), b=B, seed=0
    ),
}
#: Built on the graph, run on node ids: the weighted tree algorithm (a random spanning tree, no embedding).
TREE = {"WTA": lambda S, n: gs.online.WTA(S, seed=0)}
#: Run on M = [spectral features; 1], d = D + 1.
SPECTRAL = {
    "GPA": lambda: gs.online.OneVsRest(gs.online.GPA),
    "OLLGC": lambda: gs.online.OneVsRest(lambda: gs.online.OLLGC(mu=1.0)),
    "OLLGC, Python rounds": lambda: gs.online.OneVsRest(lambda: gs.online.OLLGC(mu=1.0), compiled=False),
    "SSLGC": lambda: gs.online.OneVsRest(lambda: gs.online.SSLGC(mu=1.0)),
    "MSG": lambda: gs.online.MSG(gamma=1.0, h=1e-3, seed=0),
}
SELECTIVE = ("MarginSampling (push)", "SSLGC", "MSG")


@dataclass(frozen=True)
class Protocol(ProfileProtocol):
    """Sizes of one profile (notebook 44; ``smoke``: graphs of a few thousand nodes, a few hundred rounds)."""

    sizes: tuple  #: nodes asked of the generator
    rounds: int  #: R_max: each size plays its first min(rounds, n) rounds
    mem_rounds: int  #: memory is traced over the first min(mem_rounds, R) rounds of a pass
    epinions: bool  #: also time the relaxation learner on Epinions (75,877 nodes; local data only)
    spectral_max: int  #: largest size embedded at rank d for the spectral learners (Sec. 2)
    approx_n: int  #: size of the approximate-embedding study (Sec. 2c): one of the embedded sizes
    tols: tuple  #: looser LOBPCG tolerances tried there
    fewer: tuple  #: and fewer eigenpairs d' < d (the first d' of the exact embedding)
    d: int = 100  #: spectral features (plus a bias row of 1)
    #: the block solver at approx_n, whose tolerance Sec. 2c loosens (Jacobi-preconditioned: at loose tolerances
    #: it was the cheaper of the two block solvers at 10^4 nodes, timed back to back on 2026-11-29)
    approx_solver: str = "lobpcg-jacobi"
    top: int = 3  #: log-log slopes are fitted over the ``top`` largest sizes of each series
    flat: float = 0.1  #: a cost is flat in n when its fitted slope is below this in absolute value
    n_orders: int = 4  #: orders of the distributed sweep (Sec. 4)


def protocol(profile: str = "full") -> Protocol:
    """The protocol of ``profile`` (``"full"``: 10^3 to 10^6 nodes, 10^5 rounds; ``"smoke"``: tiny)."""
    if is_smoke(profile):
        return Protocol(profile, (500, 2_000), 300, 100, False, 2_000, 2_000, (1e-2,), (10, 25))  # fmt: skip
    return Protocol(profile, (1_000, 10_000, 100_000, 1_000_000), 100_000, 5_000, True, 10_000, 10_000,
                    (1e-2, 1e-1), (10, 25, 50))  # fmt: skip


def loglog_fit(x, t):
    """Least-squares line through (log10 x, log10 t): slope and intercept.

    >>> [f"{v:.2f}" for v in loglog_fit([10, 100, 1000], [1, 10, 100])]
    ['1.00', '-1.00']
    """
    s, c = np.polyfit(np.log10(np.asarray(x, float)), np.log10(np.asarray(t, float)), 1)
    return float(s), float(c)


def generate(n: int, seed: int = 0):
    """The block-model graph of size n, its generation time and the nodes dropped outside the largest component."""
    t = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", gs.DataWarning)
        g = gs.datasets.sbm(n, **SBM, seed=seed)
    sec = time.perf_counter() - t
    for w in caught:
        if not issubclass(w.category, gs.DataWarning):  # only the announced drop is silenced
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    dropped = int(sum(g.info["nodes_dropped"].values()))
    assert g.n_nodes == n - dropped
    assert dropped == 0 or any(
        issubclass(w.category, gs.DataWarning) for w in caught
    )  # a drop is always said
    return g, sec, dropped


def _fmt(df, fmt=".4g", **kw):
    return df.to_string(float_format=lambda x: format(x, fmt), **kw)


# =========================================================================== Sec. 1: the generator


@dataclass
class Generated:
    """Notebook 44 Sec. 1: every graph of the sweep, generated once, with its generation time."""

    graphs: dict  #: n asked -> graph
    table: pd.DataFrame
    slope: float  #: log-log slope of the generator's seconds over the ``top`` largest sizes
    top: int

    def report(self) -> str:
        return (
            _fmt(self.table, ".3f", index=False)
            + f"\ngenerator: log-log slope of seconds vs nodes over the {min(self.top, len(self.table))} largest "
            f"sizes: {self.slope:.2f}"
        )


def generator(profile: str = "full", seed: int = 0) -> Generated:
    """Sec. 1: the block-model graph of every size (asserted: under 1 % of the nodes outside the LCC)."""
    p = protocol(profile)
    graphs, rows = {}, []
    for n in p.sizes:
        g, sec, dropped = generate(n, seed)
        graphs[n] = g
        rows.append({"n": n, "nodes": g.n_nodes, "edges": g.n_edges, "dropped (outside LCC)": dropped,
                     "mean degree": 2 * g.n_edges / g.n_nodes, "mixing realised": g.info["mixing_realised"],
                     "generator s": sec})  # fmt: skip
    gen = pd.DataFrame(rows)
    assert (
        gen["dropped (outside LCC)"] < 0.01 * gen["n"]
    ).all()  # the largest component is nearly everything
    s_gen = loglog_fit(gen["nodes"].iloc[-p.top :], gen["generator s"].iloc[-p.top :])[0]
    return Generated(graphs, gen, s_gen, p.top)


# =========================================================================== Sec. 2: the embedding


def embed(g, d: int, method: str, seed: int = 0):
    """One embedding with its wall time (one BLAS thread), traced peak memory and largest relative residual."""
    gc.collect()
    threads = numba.get_num_threads()
    numba.set_num_threads(1)  # lobpcg-chebyshev's sparse products: one thread too
    tracemalloc.start()
    try:
        with (
            threadpool_limits(limits=1) if threadpool_limits else nullcontext()
        ):  # one BLAS thread, as the passes
            t = time.perf_counter()
            emb = gs.spectral_embedding(g.adjacency, d, method=method, cache=False, seed=seed)
            sec = time.perf_counter() - t
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        numba.set_num_threads(threads)
    V, lam = emb.eigenvectors, emb.eigenvalues
    rel = float(np.max(np.linalg.norm(gs.laplacian(g.adjacency) @ V - V * lam, axis=0) / lam))
    return emb, {"seconds": sec, "peak MiB": peak / 2**20, "max rel. residual": rel, "lambda_2": float(lam[0]),
                 "sigma_d": float(lam[-1]), "iterations": emb.info.get("iterations", np.nan),
                 "check": emb.info.get("check", "inertia" if emb.method == "shift-invert" else "exact")}  # fmt: skip


def _residual_cells(table: pd.DataFrame) -> list:
    """The residual column as written: ``< floor`` below the solver's :data:`RESIDUAL_FLOOR`."""
    return tables.below_tolerance(table["max rel. residual"], table["solver"].map(RESIDUAL_FLOOR), "%.1e")


def _embedding_cost_written(table: pd.DataFrame) -> pd.DataFrame:
    """``44_embedding_cost`` as written: the residuals as :func:`_residual_cells`."""
    return table.assign(**{"max rel. residual": _residual_cells(table)})


@dataclass
class Embeddings(Result):
    """Notebook 44 Sec. 2: the learners' embeddings, one timing each (``44_embedding_cost``), and their features.

    The eigensolvers side by side and their time against n are measured by ``benchmarks/bench_spectral.py``.
    """

    protocol: Protocol
    features: dict  #: n -> (M with its bias row, embedding seconds)
    exact: dict  #: approx_n -> (its embedding, its seconds): Sec. 2b and 2c's exact reference
    #: one row per embedded size: its solver (the library's choice; ``approx_solver`` at ``approx_n``)
    table: pd.DataFrame = table_field(
        "embedding_cost", formats={"seconds": "%.2f", "peak MiB": "%.1f", "lambda_2": "%.6f", "sigma_d": "%.6f"},
        view=_embedding_cost_written, required=True,
    )  # fmt: skip
    PREFIX = "44_"

    @property
    def spectral_sizes(self) -> list:
        return sorted(self.features)

    @property
    def not_embedded(self) -> list:
        return [n for n in self.protocol.sizes if n not in self.features]

    @property
    def residuals(self) -> list:
        """The residual column as written (:func:`_residual_cells`)."""
        return _residual_cells(self.table)

    def report(self) -> str:
        return (
            _fmt(self.table, index=False)
            + f"\nspectral learners at n = {self.spectral_sizes}; not embedded: {self.not_embedded}"
        )

    def reading(self) -> Reading:
        """Sec. 2's reading: each embedding the learners use, and the sizes left without one."""
        t, residuals = self.table, self.residuals
        rows = [texts.reading("embedding.row", dict(has_iterations=not np.isnan(r.iterations),
                                                     has_check=isinstance(r.check, str)),
                              nodes=r.nodes, solver=r.solver, seconds=r.seconds, peak=r["peak MiB"],
                              residual=residuals[i], check=r.check,
                              iterations=None if np.isnan(r.iterations) else int(r.iterations))
                for i, (_, r) in enumerate(t.iterrows())]  # fmt: skip
        return texts.reading(
            "embedding", dict(not_embedded=bool(self.not_embedded)), d=self.protocol.d, rows=rows,
            missing=self.not_embedded,
        )  # fmt: skip


def embedding_cost(gen: Generated, profile: str = "full", seed: int = 0, verbose: bool = True) -> Embeddings:
    """Sec. 2: the library's own eigensolver (``method="auto"``, ``cache=False``) at each size up to
    ``spectral_max``, ``approx_solver`` at ``approx_n``: the learners' features, timed once each (the eigenvectors
    are in the canonical basis, the same to rounding whatever solver made them).

    Asserted: every relative residual is below 1e-6 (the table writes it as ``< floor`` below its solver's
    :data:`RESIDUAL_FLOOR`) and ``approx_n`` (Sec. 2b, 2c) is one of the embedded sizes.
    """
    p = protocol(profile)
    if p.approx_n not in p.sizes or p.approx_n > p.spectral_max:
        raise ValueError(f"approx_n = {p.approx_n} must be one of the sizes {p.sizes} up to spectral_max = "
                         f"{p.spectral_max}: Sec. 2c reuses that embedding as its exact reference")  # fmt: skip
    rows, feats, exact = [], {}, {}
    for n in (n for n in p.sizes if n <= p.spectral_max):
        g = gen.graphs[n]
        emb, r = embed(g, p.d, p.approx_solver if n == p.approx_n else "auto", seed)
        feats[n] = (gs.add_bias(emb.M, BIAS_B), r["seconds"])
        rows.append({"n": n, "nodes": g.n_nodes, "solver": emb.method, **r})
        if n == p.approx_n:
            exact[n] = (emb, r["seconds"])
        del emb
        if verbose:
            print(f"n={n:>9,}: {rows[-1]['solver']} {r['seconds']:.1f} s, peak {r['peak MiB']:.0f} MiB, "
                  f"residual {r['max rel. residual']:.1e}", flush=True)  # fmt: skip
    emb_df = pd.DataFrame(rows)
    assert (emb_df["max rel. residual"] < 1e-6).all()
    out = Embeddings(p, feats, exact, table=emb_df)
    sizes = out.spectral_sizes
    assert sizes and sizes == list(p.sizes[: len(sizes)])  # the embedded sizes are the smallest ones
    return out


@dataclass
class Localisation:
    """Sec. 2b: how localised the smallest eigenvectors are, and how much class structure their span holds."""

    table: pd.DataFrame
    captured: float  #: share of the centred class indicators in the span of the d eigenvectors
    rayleigh: float  #: mean Rayleigh quotient of the centred class indicators
    text: str

    def report(self) -> str:
        return self.text

    @property
    def localised(self) -> float:
        """Share of the d eigenvectors living on five nodes or fewer (1/IPR <= 5)."""
        return float(self.table["share on <= 5 nodes (1/IPR <= 5)"].iloc[1])


def localisation(gen: Generated, emb: Embeddings) -> Localisation:
    """Sec. 2b on the exact embedding of ``approx_n`` nodes: IPR, degree at the largest entry, class signal."""
    p = emb.protocol
    g = gen.graphs[p.approx_n]
    emb_exact, _ = emb.exact[p.approx_n]
    V, D = emb_exact.eigenvectors, p.d
    deg = np.asarray(g.adjacency.sum(axis=1)).ravel()
    ipr = np.sum(V**4, axis=0)
    top_deg = deg[np.argmax(np.abs(V), axis=0)]
    Y = np.eye(g.n_classes)[g.labels]
    Y -= Y.mean(axis=0)  # centred class indicators
    captured = float(np.mean(np.sum((V.T @ Y) ** 2, axis=0) / np.sum(Y**2, axis=0)))
    rayleigh = float(np.mean(np.sum(Y * (gs.laplacian(g.adjacency) @ Y), axis=0) / np.sum(Y**2, axis=0)))
    loc = pd.DataFrame({"eigenpairs": ["1-10", f"1-{D}"],
                        "median IPR": [np.median(ipr[:10]), np.median(ipr)],
                        "share on <= 5 nodes (1/IPR <= 5)": [np.mean(1 / ipr[:10] <= 5), np.mean(1 / ipr <= 5)],
                        "median degree at the largest entry": [np.median(top_deg[:10]), np.median(top_deg)]})  # fmt: skip
    assert g.info["params"]["degree_exponent"] == 2.5  # the tail exponent the notebook names
    text = (
        f"n = {g.n_nodes:,}, eigenvalues {emb_exact.eigenvalues[0]:.3f} ... {emb_exact.eigenvalues[-1]:.3f}; "
        f"node degrees {deg.min():.0f} ... {deg.max():.0f} (median {np.median(deg):.0f})\n"
        + loc.to_string(index=False, float_format=lambda x: f"{x:.3f}")
        + f"\nclass signal in the span of the {D} eigenvectors: {captured:.1%}; Rayleigh quotient of the class "
        f"indicators {rayleigh:.2f} against sigma_{D} = {emb_exact.eigenvalues[-1]:.2f}"
    )
    return Localisation(loc, captured, rayleigh, text)


@dataclass
class Approximations(Result):
    """Sec. 2c: looser LOBPCG tolerances and fewer pairs against the exact embedding (``44_approximate_embeddings``)."""

    relax_error: float  #: the relaxation learner (push, no embedding) on the same pass
    table: pd.DataFrame = table_field(
        "approximate_embeddings", formats={"solver s": "%.2f", "max rel. residual": tables.rounding_floor(1e-7, "%.1e"),
                                           "sin angle to exact": tables.rounding_floor(1e-6, "%.1e"),
                                           "OLLGC": "%.4f", "MSG": "%.4f", "OLLGC error change": "%+.4f",
                                           "MSG error change": "%+.4f", "time share": "%.2f"},
        required=True,
    )  # fmt: skip
    PREFIX = "44_"

    def report(self) -> str:
        return (
            _fmt(self.table, index=False)
            + f"\nrelaxation learner (push), same pass: error {self.relax_error:.4f}"
        )

    def reading(self, loc: Localisation, d: int = 100) -> Reading:
        """Sec. 2c's reading: what each looser tolerance and each smaller rank costs the learners."""
        approx = self.table
        by_tol = approx[approx.embedding.str.startswith("tol")]
        worst = by_tol[["OLLGC error change", "MSG error change"]].abs().max(axis=1)
        fine = by_tol[worst <= 0.005]
        loose = fine["max rel. residual"].max() if len(fine) else np.nan
        fewer = approx[approx.embedding.str.startswith("d'")]
        tols = [texts.reading("approximate.tol", tol=r.embedding[4:], residual=r["max rel. residual"],
                              share=r["time share"], ollgc=r["OLLGC error change"], msg=r["MSG error change"])
                for _, r in by_tol.iterrows()]  # fmt: skip
        fewer_items = [texts.reading("approximate.fewer", embedding=r.embedding,
                                     ollgc=r["OLLGC error change"], msg=r["MSG error change"])
                       for _, r in fewer.iterrows()]  # fmt: skip
        claims = dict(
            fine=bool(np.isfinite(loose)), nodes_not_blocks=loc.localised > 0.5 and loc.captured < 0.5
        )
        return texts.reading(
            "approximate",
            claims,
            tols=tols,
            loose=loose,
            fewer=fewer_items,
            relax_error=self.relax_error,
            best_spectral=approx[["OLLGC", "MSG"]].iloc[0].min(),
            localised=loc.localised,
            d=d,
            captured=loc.captured,
        )


def approximate_embeddings(gen: Generated, emb: Embeddings, seed: int = 0) -> Approximations:
    """Sec. 2c: per approximate embedding, solver seconds, residual, angle to the exact subspace and the
    online error of one-vs-rest OLLGC and MSG over one full pass."""
    p = emb.protocol
    g = gen.graphs[p.approx_n]
    emb_exact, exact_s = emb.exact[p.approx_n]
    L_a = gs.laplacian(g.adjacency)
    V_exact = emb_exact.eigenvectors
    passes = {"OLLGC": SPECTRAL["OLLGC"], "MSG": SPECTRAL["MSG"]}

    def variant(name, e, sec, d_):  # sec: NaN for a truncation (no solve)
        lam, V = e.eigenvalues, e.eigenvectors
        rel = float(np.max(np.linalg.norm(L_a @ V - V * lam, axis=0) / lam))
        s = np.linalg.svd(V.T @ V_exact[:, :d_], compute_uv=False)
        M = gs.add_bias(e.M, BIAS_B)
        errors = {k: gs.online.run(make(), M, g.labels, seed=seed).error_rate for k, make in passes.items()}
        return {"embedding": name, "d": d_, "solver s": sec, "max rel. residual": rel,
                "sin angle to exact": float(np.sqrt(max(0.0, 1.0 - s.min() ** 2))), **errors}  # fmt: skip

    rows = [variant("exact (tol 1e-8)", emb_exact, exact_s, p.d)]
    for tol in p.tols:
        t = time.perf_counter()
        e = gs.spectral_embedding(g.adjacency, p.d, method=p.approx_solver, tol=tol, cache=False, seed=seed)
        rows.append(variant(f"tol {tol:g}", e, time.perf_counter() - t, p.d))
    for d_ in p.fewer:  # the d' smallest pairs are the first d' of the exact d: no solve
        rows.append(variant(f"d' = {d_}", emb_exact.truncate(d_), np.nan, d_))
    relax_error = gs.online.run(PUSH["Relaxation (push)"](g.adjacency, g.n_nodes), gs.online.node_ids(g.n_nodes),
                                g.labels, seed=seed).error_rate  # fmt: skip
    approx = pd.DataFrame(rows)
    for name in passes:
        approx[f"{name} error change"] = approx[name] - approx[name].iloc[0]
    approx["time share"] = approx["solver s"] / approx["solver s"].iloc[0]
    return Approximations(relax_error, table=approx)


# =========================================================================== Sec. 3: seconds per round


def measure(make, M, y, R: int, mem_rounds: int, seed: int = 0, n_classes=None) -> dict:
    """Time one pass of R rounds untraced, then its first min(R, mem_rounds) rounds again under tracemalloc.

    The traced prefix must replay the timed pass exactly (asserted).
    """
    gc.collect()
    t0 = time.perf_counter()
    learner = make()
    t1 = time.perf_counter()
    trace = gs.online.run(learner, M, y, seed=seed, rounds=R, n_classes=n_classes)
    call = time.perf_counter() - t1
    del learner
    gc.collect()
    R_mem = min(R, mem_rounds)
    tracemalloc.start()
    try:
        again = gs.online.run(make(), M, y, seed=seed, rounds=R_mem, n_classes=n_classes)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert np.array_equal(again.predictions, trace.predictions[:R_mem])
    assert np.array_equal(again.queried, trace.queried[:R_mem])
    del again
    pass_s = float(trace.elapsed[-1])
    return {"rounds": R, "pass s": pass_s, "s per round": pass_s / R, "set-up s": (t1 - t0) + call - pass_s,
            "peak MiB": peak / 2**20, "error": trace.error_rate, "labels": int(trace.n_queried)}  # fmt: skip


def warm_up(gen: Generated, emb: Embeddings, seed: int = 0) -> None:
    """numba compiles (or loads from its cache) the push and the stacked loops on first use: keep it out of timings."""
    n0 = emb.protocol.sizes[0]
    g0 = gen.graphs[n0]
    for make in {**PUSH, **TREE}.values():
        gs.online.run(
            make(g0.adjacency, g0.n_nodes), gs.online.node_ids(g0.n_nodes), g0.labels, seed=seed, rounds=20
        )
    for make in SPECTRAL.values():
        gs.online.run(make(), emb.features[n0][0], g0.labels, seed=seed, rounds=20)


def traced_prefix_check(gen: Generated, profile: str = "full", seed: int = 0) -> str:
    """The traced prefix shows a push pass's peak: on the smallest graph with more nodes than ``mem_rounds``, the
    full pass's peak exceeds the prefix's by at most 1 kB per further round (asserted: ``run``'s records)."""
    p = protocol(profile)
    g_chk = gen.graphs[min([n for n in p.sizes if n > p.mem_rounds] or p.sizes)]
    N0, lines = g_chk.n_nodes, []
    for name, make in PUSH.items():
        peaks = []
        for R_ in (min(p.mem_rounds, N0), N0):
            tracemalloc.start()
            try:
                gs.online.run(
                    make(g_chk.adjacency, N0), gs.online.node_ids(N0), g_chk.labels, seed=seed, rounds=R_
                )
                peaks.append(tracemalloc.get_traced_memory()[1])
            finally:
                tracemalloc.stop()
        per_round = (peaks[1] - peaks[0]) / max(N0 - p.mem_rounds, 1)
        lines.append(f"{name}, n = {N0:,}: traced peak over {min(p.mem_rounds, N0):,} rounds {peaks[0] / 2**20:.2f} "
                     f"MiB, over all {N0:,} rounds {peaks[1] / 2**20:.2f} MiB: {per_round:,.0f} bytes per further round")  # fmt: skip
        # a round's record (K scores, prediction, query flag, time) is a few hundred bytes; state that grew with
        # the graph would cost at least 8 bytes per node (80 kB at n = 10^4) per round
        assert per_round <= 1024
    return "\n".join(lines)


@dataclass
class Scaling(Result):
    """Sec. 3: every learner at every size (``44_scaling_online_learning``) and the log-log slopes."""

    protocol: Protocol
    #: as written: the generated graphs and Epinions
    table: pd.DataFrame = table_field(
        "scaling_online_learning",
        formats={"pass s": "%.3f", "s per round": "%.3g", "s per round incl. embedding": "%.3g",
                 "share of nodes seen": "%.4f", "embedding s": "%.2f", "set-up s": "%.3f", "generator s": "%.3f",
                 "peak MiB": "%.1f", "error": "%.4f", "labels share": "%.4f"},
        required=True,
    )  # fmt: skip
    slopes: pd.DataFrame = None
    PREFIX = "44_"

    @property
    def results(self) -> pd.DataFrame:
        """The size sweep on the generated graphs."""
        return self.table[self.table.graph == "sbm"]

    @property
    def real(self) -> pd.DataFrame:
        """Epinions: timing only."""
        return self.table[self.table.graph == "epinions"]

    def report(self) -> str:
        return (_fmt(self.table.drop(columns=["edges", "generator s"]), index=False) + "\n"
                + self.slopes.to_string(float_format=lambda x: f"{x:.3f}"))  # fmt: skip

    def reading(self) -> Reading:
        """Sec. 3's reading: cost per round and its slope per learner; the compiled loop; Epinions."""
        results, slopes, p = self.results, self.slopes, self.protocol
        graph_learners, spectral = [], []
        for name in {**PUSH, **TREE}:
            grp, sl = results[results.learner == name], slopes.loc[name]
            graph_learners.append(texts.reading(
                "scaling.graph_learner", dict(push=name in PUSH), name=name,
                first_ms=1e3 * grp["s per round"].iloc[0], first_n=grp["nodes"].iloc[0],
                last_ms=1e3 * grp["s per round"].iloc[-1], last_n=grp["nodes"].iloc[-1],
                ratio=sl["ratio largest/smallest"], points=int(sl["points"]),
                trend=_flat_or_grows(sl["slope s/round"], p.flat), memory_slope=sl["slope peak memory"],
                peak=grp["peak MiB"].iloc[-1],
            ))  # fmt: skip
        for name in SPECTRAL:
            grp, sl = results[results.learner == name], slopes.loc[name]
            spectral.append(texts.reading(
                "scaling.spectral", name=name, d=p.d, last_ms=1e3 * grp["s per round"].iloc[-1],
                last_n=grp["nodes"].iloc[-1], trend=_flat_or_grows(sl["slope s/round"], p.flat),
                points=int(sl["points"]), rounds=int(grp["rounds"].iloc[-1]),
                incl_ms=1e3 * grp["s per round incl. embedding"].iloc[-1], incl_slope=sl["slope incl. embedding"],
            ))  # fmt: skip
        py, cp = results[results.learner == "OLLGC, Python rounds"], results[results.learner == "OLLGC"]
        assert np.array_equal(
            py["error"].to_numpy(), cp["error"].to_numpy()
        )  # the same learner, the same mistakes
        compiled = [texts.reading("scaling.compiled", ratio=a / c, n=n)
                    for n, a, c in zip(cp["nodes"], py["s per round"], cp["s per round"], strict=True)]  # fmt: skip
        values = dict(graph_learners=graph_learners, spectral=spectral, compiled=compiled)
        if len(self.real):
            r = self.real.iloc[0]
            same = results[results.learner == r.learner]
            near = same.iloc[int(np.argmin(np.abs(np.log(same["nodes"] / r.nodes))))]
            values.update(nodes=r.nodes, edges=r.edges, learner=r.learner, ms=1e3 * r["s per round"],
                          rounds=int(r.rounds), peak=r["peak MiB"], near_ms=1e3 * near["s per round"],
                          near_nodes=near.nodes)  # fmt: skip
        return texts.reading("scaling", dict(has_real=bool(len(self.real))), **values)


def _flat_or_grows(s, flat) -> Reading:
    """A cost's trend in n from its log-log slope ``s``: flat below ``flat`` in absolute value.

    Decided on the slope as printed (two decimals), so that 0.0996 never reads "0.10, below 0.1".
    """
    shown = round(float(s), 2)
    return texts.reading(
        "trend", dict(flat=bool(abs(shown) < flat), grows=bool(shown > 0)), slope=s, limit=flat
    )


def per_round(gen: Generated, emb: Embeddings, seed: int = 0, verbose: bool = True) -> Scaling:
    """Sec. 3: each learner plays the first min(rounds, n) rounds of one seeded order at every size; push
    learners everywhere, spectral ones where embedded; then the relaxation learner on Epinions (timing only)."""
    p = emb.protocol
    rows = []
    gen_s = gen.table.set_index("n")["generator s"]
    for n in p.sizes:
        g = gen.graphs[n]
        N, y = g.n_nodes, g.labels
        R = min(p.rounds, N)
        base = {"graph": "sbm", "n": n, "nodes": N, "edges": g.n_edges, "generator s": gen_s.loc[n]}
        jobs = [
            (name, "push", partial(make, g.adjacency, N), gs.online.node_ids(N))
            for name, make in PUSH.items()
        ] + [
            (name, "tree", partial(make, g.adjacency, N), gs.online.node_ids(N))
            for name, make in TREE.items()
        ]
        if n in emb.features:
            jobs += [(name, "spectral", make, emb.features[n][0]) for name, make in SPECTRAL.items()]
        for name, kind, make, M in jobs:
            r = measure(make, M, y, R, p.mem_rounds, seed)
            emb_s = emb.features[n][1] if kind == "spectral" else np.nan
            rows.append({**base, "learner": name, "kind": kind, **r, "share of nodes seen": R / N,
                         "embedding s": emb_s, "s per round incl. embedding": (r["pass s"] + emb_s) / R})  # fmt: skip
            if verbose:
                print(f"n={N:>9,} {name:22s} {1e3 * r['s per round']:7.3f} ms/round, set-up {r['set-up s']:6.2f} s, "
                      f"peak {r['peak MiB']:8.1f} MiB, error {r['error']:.4f}, labels {r['labels']:,} of {R:,}",
                      flush=True)  # fmt: skip
    if p.epinions:  # a real graph of the same order: timing only (Epinions has no node labels)
        ep = gs.load_dataset("epinions", download=False)
        y0 = np.zeros(ep.n_nodes, dtype=int)  # every node in class 0, played as a 10-class problem
        name = "Relaxation (push)"
        r = measure(partial(PUSH[name], ep.adjacency, ep.n_nodes), gs.online.node_ids(ep.n_nodes), y0,
                    min(p.rounds, ep.n_nodes), p.mem_rounds, seed, n_classes=10)  # fmt: skip
        rows.append({"graph": "epinions", "n": ep.n_nodes, "nodes": ep.n_nodes, "edges": ep.n_edges,
                     "generator s": np.nan, "learner": name, "kind": "push", **r, "error": np.nan,
                     "labels": r["rounds"], "share of nodes seen": r["rounds"] / ep.n_nodes, "embedding s": np.nan,
                     "s per round incl. embedding": np.nan})  # fmt: skip
        if verbose:
            print(f"Epinions, n={ep.n_nodes:,}: {name} {1e3 * r['s per round']:.3f} ms/round over {r['rounds']:,} "
                  f"rounds, peak {r['peak MiB']:.1f} MiB (timing only)")  # fmt: skip
    table = pd.DataFrame(rows)
    table["labels share"] = table["labels"] / table["rounds"]
    cols = ["graph", "n", "nodes", "edges", "learner", "kind", "rounds", "share of nodes seen", "pass s",
            "s per round", "s per round incl. embedding", "embedding s", "set-up s", "generator s", "peak MiB",
            "error", "labels", "labels share"]  # fmt: skip
    out = Scaling(p, table[cols])
    results = out.results
    assert len(results) == len(p.sizes) * (len(PUSH) + len(TREE)) + len(emb.spectral_sizes) * len(SPECTRAL)
    full_info = ~results.learner.isin(SELECTIVE)
    assert (results.loc[full_info, "labels"] == results.loc[full_info, "rounds"]).all()
    out.slopes = _slopes(results, p.top)
    return out


def _slopes(results, top_n):
    rows = []
    for name, grp in results.groupby("learner", sort=False):
        top = grp.tail(top_n)
        spectral = grp["kind"].iloc[0] == "spectral"
        rows.append({
            "learner": name, "kind": grp["kind"].iloc[0], "points": len(top),
            "from n": int(top["n"].iloc[0]), "to n": int(top["n"].iloc[-1]),
            "slope s/round": loglog_fit(top["nodes"], top["s per round"])[0] if len(top) > 1 else np.nan,
            "slope incl. embedding": (loglog_fit(top["nodes"], top["s per round incl. embedding"])[0]
                                      if spectral and len(top) > 1 else np.nan),
            "slope peak memory": loglog_fit(top["nodes"], top["peak MiB"])[0] if len(top) > 1 else np.nan,
            "ratio largest/smallest": grp["s per round"].iloc[-1] / grp["s per round"].iloc[0],
        })  # fmt: skip
    return pd.DataFrame(rows).set_index("learner")


def _styles():
    st = {name: plotting.algorithm_style("relaxation") for name in PUSH}
    st["MarginSampling (push)"] = {
        **st["MarginSampling (push)"],
        "color": plotting.COLOR_CYCLE[3],
        "marker": "X",
    }
    st.update({name: plotting.algorithm_style(name) for name in {**SPECTRAL, **TREE}})
    st["OLLGC, Python rounds"] = {
        **plotting.algorithm_style("OLLGC"),
        "markerfacecolor": "none",
    }  # dotted below
    return st


def draw_scaling(sc: Scaling):
    """Sec. 3's figure: seconds per round (spectral: also including the embedding) and the online error."""
    results, slopes, p, styles = sc.results, sc.slopes, sc.protocol, _styles()
    fig, axes = plotting.subplots(1, 2, size=(7.0, 3.6), squeeze=False)
    ax, ax2 = axes[0]
    for name, grp in results.groupby("learner", sort=False):
        st = {**styles[name], "linestyle": ":" if name == "OLLGC, Python rounds" else "-"}
        s = slopes.loc[name, "slope s/round"]
        ax.plot(
            grp["nodes"],
            grp["s per round"],
            **st,
            label=name + (f", slope {s:.2f}" if np.isfinite(s) else ""),
        )
        if grp["kind"].iloc[0] == "spectral":
            ax.plot(grp["nodes"], grp["s per round incl. embedding"],
                    **{**st, "linestyle": "--", "markerfacecolor": "none"})  # fmt: skip
        ax2.plot(grp["nodes"], grp["error"], **st)
    ax.set(xscale="log", yscale="log", xlabel="nodes n", ylabel="seconds per round", title="cost per round")
    ax2.set(xscale="log", xlabel="nodes n", ylabel="online error over the rounds played",
            title=f"error over the first min({p.rounds:,}, n) rounds")  # fmt: skip
    ax2.set_ylim(0, min(1.0, 1.1 * results["error"].max()))
    for a in (ax, ax2):
        a.xaxis.set_minor_formatter(NullFormatter())
    handles, labels = ax.get_legend_handles_labels()
    handles.append(Line2D([], [], color="0.4", ls="--", marker="o", mfc="none"))
    labels.append("spectral, incl. the embedding spread over the rounds")
    fig.legend(handles, labels, loc="outside lower center", ncol=2, fontsize=7)
    return fig


# =========================================================================== Sec. 4: beyond one machine


def distributed_sweep(gen: Generated, emb: Embeddings, seed: int = 0, verbose: bool = True):
    """Sec. 4: the same orders of MSG (its coin from each order's seed) with local processes and on a two-worker
    Dask ``LocalCluster``; the tables must be equal but for the times (asserted). ``None`` without dask."""
    try:
        import distributed
    except ImportError:
        if verbose:
            print(
                "dask.distributed is not importable: section 4 is skipped (pip install 'dask[distributed]')"
            )
        return None
    from graphsel_lib.experiments import evaluate, random_orders

    p = emb.protocol
    n0 = p.sizes[0]
    g, M0 = gen.graphs[n0], emb.features[n0][0]
    orders = random_orders(g.n_nodes, p.n_orders, seed)
    make = partial(gs.online.MSG, gamma=1.0, h=1e-3)
    t = time.perf_counter()
    local = evaluate(make, M0, g.labels, orders, seed=seed, method="MSG", n_jobs=2, cache=False)
    t_local = time.perf_counter() - t
    t = time.perf_counter()
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                 silence_logs=logging.ERROR) as cluster,
        distributed.Client(cluster) as client,
    ):  # fmt: skip
        t_cluster = time.perf_counter() - t
        n_workers = len(client.scheduler_info()["workers"])
        t = time.perf_counter()
        remote = evaluate(make, M0, g.labels, orders, seed=seed, method="MSG", backend="dask", cache=False)
        t_remote = time.perf_counter() - t
    assert cluster.status.name == "closed"
    pd.testing.assert_frame_equal(local.drop(columns="time"), remote.drop(columns="time"))
    if verbose:
        print(local.assign(dask_time=remote.time).to_string(index=False, float_format=lambda x: f"{x:.4f}"))
        print(f"local processes: {t_local:.2f} s; cluster start {t_cluster:.2f} s, {n_workers} workers, "
              f"sweep {t_remote:.2f} s; identical tables (times excepted); cluster closed")  # fmt: skip
    return dict(n=g.n_nodes, orders=p.n_orders, workers=n_workers, t_local=t_local, t_cluster=t_cluster,
                t_remote=t_remote, error=local.error_rate.mean(), labels=local.n_queried.mean())  # fmt: skip


# =========================================================================== Sec. 5: what the numbers say


def reading_summary(gen: Generated, emb: Embeddings, sc: Scaling, dask_info=None) -> Reading:
    """Sec. 5, rendered from the tables of the run."""
    p, results, slopes = sc.protocol, sc.results, sc.slopes
    gp = results[results.kind == "push"]
    push_max = gp[gp.nodes == gp.nodes.max()]
    largest = max(emb.spectral_sizes)
    spec_max = results[(results.kind == "spectral") & (results.n == largest)]
    ms_push = slopes.loc[list(PUSH), "slope s/round"]
    selective = results[results.learner == "MarginSampling (push)"].set_index("n")
    full = results[results.learner == "Relaxation (push)"].set_index("n")
    emb_share = spec_max["embedding s"] / (spec_max["embedding s"] + spec_max["pass s"])
    push_at = gp.loc[gp.n == largest, "s per round"].min()
    claims = dict(smoke=p.smoke, push_flat=bool((ms_push.abs() < p.flat).all()),
                  cheap=bool(emb_share.min() > 0.5 and (spec_max["s per round"] < push_at).all()),
                  not_embedded=bool(emb.not_embedded), dask=bool(dask_info),
                  slower=bool(dask_info) and dask_info["t_remote"] > dask_info["t_local"])  # fmt: skip
    r = texts.reading
    values = dict(
        push_from=gp.nodes.min(), push_to=gp.nodes.max(),
        push_ratios=[r("summary.ratio", ratio=slopes.loc[k, "ratio largest/smallest"], name=k) for k in PUSH],
        push_trends=[r("summary.trend", name=k, trend=_flat_or_grows(slopes.loc[k, "slope s/round"], p.flat))
                     for k in PUSH],
        push_top=push_max.nodes.iloc[0],
        push_costs=[r("summary.push_cost", ms=1e3 * x["s per round"], name=x.learner) for _, x in push_max.iterrows()],
        gen_s=gen.table["generator s"].iloc[-1], gen_slope=gen.slope, gen_top=min(p.top, len(gen.table)),
        setup_s=push_max["set-up s"].max(),
        label_shares=[r("summary.share", share=selective.loc[n, "labels share"], nodes=selective.loc[n, "nodes"])
                      for n in selective.index],
        error_gaps=[selective.loc[n, "error"] - full.loc[n, "error"] for n in selective.index],
        spec_n=spec_max.nodes.iloc[0],
        spec_costs=[r("summary.spectral_cost", ms=1e3 * x["s per round"], name=x.learner)
                    for _, x in spec_max.iterrows()],
        push_at_ms=1e3 * push_at, embedding_s=spec_max["embedding s"].iloc[0], embedding_share=emb_share.min(),
        spec_rounds=int(spec_max["rounds"].iloc[0]),
        d=p.d,
        missing=emb.not_embedded,
        relax_errors=[r("summary.error", error=x.error, nodes=x.nodes, seen=x["share of nodes seen"])
                      for _, x in full.iterrows()],
        spec_errors=[r("summary.spectral_error", error=x.error, name=x.learner) for _, x in spec_max.iterrows()
                     if x.learner != "OLLGC, Python rounds"],
    )  # fmt: skip
    if dask_info:
        values.update(orders=dask_info["orders"], dask_n=dask_info["n"], t_local=dask_info["t_local"],
                      workers=dask_info["workers"], t_remote=dask_info["t_remote"], t_cluster=dask_info["t_cluster"])  # fmt: skip
    return r("summary", claims, **values)
