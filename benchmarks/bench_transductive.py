"""Benchmark: offline (transductive) node classification, ours vs the public peers, in one run.

Run: python benchmarks/bench_transductive.py [--quick] [--seed 0] [--loohl-points 300]
                                             [--sizes 2000,5000,14000,33000,75877]

Prints, from one run on this machine:

1. **Peers** (Cora and PubMed; ``--quick``: Cora only): one seeded split with 20
   labelled nodes per class; accuracy on the unlabelled nodes and wall time of one
   fit, for our ``harmonic`` (exact sparse solve) against scikit-learn's
   ``LabelPropagation`` and networkx's ``harmonic_function``, and for our
   ``llgc(mu=alpha/(1-alpha), laplacian="normalized")`` against scikit-learn's
   ``LabelSpreading(alpha)`` and networkx's ``local_and_global_consistency(alpha)``
   (the same estimators: see notebook 41). scikit-learn gets our graph through
   ``kernel=callable`` returning the sparse matrix (``max_iter=1000, tol=1e-3``);
   networkx runs its default 30 iterations and its time includes building the
   networkx graph from the sparse matrix. Ratio = peer time / our time.
2. **LOOHL gradient**: ``gs.transductive.loo_objective`` (zhang2006 Eq. 5-7, one
   LU and the matrix-inversion lemma) against the naive twin
   ``reference.loo_objective_naive`` (one inverse per held-out node and a loop
   over the features) on ``--loohl-points`` images of the digits 3 and 8 (64
   pixels), 10 labelled per class; values and gradients are checked to agree.
3. **Scaling** of ``llgc`` (mu = 1, combinatorial), ``harmonic(cmn=True)`` and
   ``transductive_gp`` on nested subgraphs of Epinions grown by breadth-first
   search from one seeded node (each a connected, induced subgraph; the last is
   the whole largest component, 75,877 nodes). Epinions has no node classes: the
   labels are 2 fake classes drawn at random (seeded), and 1 % of the nodes are
   labelled; only the times mean something. The log-log slope of time vs nodes is
   fitted with ``np.polyfit``. ``--quick`` stops at 20,000 nodes. llgc and harmonic
   run with ``solver="auto"`` (sparse LU up to 5,000 unknowns, CG above) and with
   ``solver="cg"`` throughout (Jacobi-preconditioned CG), whose slope is not broken by
   the switch of algorithm.
"""

import argparse
import functools
import os
import platform
import time
import warnings

import networkx as nx
import numpy as np
import scipy.sparse as sp
import sklearn
from networkx.algorithms import node_classification as nxc
from sklearn.semi_supervised import LabelPropagation, LabelSpreading

import graphsel_lib as gs
from graphsel_lib.transductive import reference

print = functools.partial(print, flush=True)  # noqa: A001 - progress while it runs
T = gs.transductive


def timed(fn, *a, **k):
    t = time.perf_counter()
    out = fn(*a, **k)
    return out, time.perf_counter() - t


def best_of(repeats, fn, *a, **k):
    best = np.inf
    for _ in range(repeats):
        out, dt = timed(fn, *a, **k)
        best = min(best, dt)
    return out, best


def split(y, per_class, rng):
    K = int(y.max()) + 1
    return np.sort(
        np.concatenate([rng.choice(np.flatnonzero(y == k), per_class, replace=False) for k in range(K)])
    )


def sk_predict(cls, S, y, lab, **kw):
    n = S.shape[0]
    yy = np.full(n, -1)
    yy[lab] = y[lab]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = cls(kernel=lambda A, B: S.tocoo(copy=True), max_iter=1000, tol=1e-3, **kw)
        m.fit(np.arange(n)[:, None], yy)
    return m.transduction_, m.n_iter_


def nx_predict(fn, S, y, lab, **kw):
    G = nx.from_scipy_sparse_array(S)
    nx.set_node_attributes(G, {int(i): int(y[i]) for i in lab}, "label")
    return np.asarray(fn(G, **kw))


def peers_part(args):
    alpha = 0.99
    mu = alpha / (1 - alpha)
    print(
        f"\n1. Peers: one split, 20 labels/class, best of {args.repeats} fits; "
        f"alpha={alpha} <-> mu={mu:g} (normalized Laplacian)"
    )
    print(
        f"   scikit-learn {sklearn.__version__} (sparse kernel callable, max_iter=1000, tol=1e-3), "
        f"networkx {nx.__version__} (max_iter=30, time includes the networkx graph)"
    )
    for name in ["cora"] if args.quick else ["cora", "pubmed"]:
        peers_one(name, args, alpha, mu)


def peers_one(name, args, alpha, mu):
    g = gs.load_dataset(name)
    S, y, n = g.adjacency, g.labels, g.n_nodes
    lab = split(y, 20, np.random.default_rng(args.seed))
    unl = np.setdiff1d(np.arange(n), lab)
    acc = lambda p: np.mean(p[unl] == y[unl])  # noqa: E731
    print(f"\n   {name}: n={n}, edges={g.n_edges}, K={g.n_classes}, labelled={lab.size}")
    groups = [
        (
            "harmonic",
            lambda: T.harmonic(S, y, lab).argmax(1),
            [
                ("scikit-learn LabelPropagation", lambda: sk_predict(LabelPropagation, S, y, lab)),
                ("networkx harmonic_function", lambda: (nx_predict(nxc.harmonic_function, S, y, lab), 30)),
            ],
        ),
        (
            "LLGC normalized",
            lambda: T.llgc(S, y, lab, mu=mu, laplacian="normalized").argmax(1),
            [
                ("scikit-learn LabelSpreading", lambda: sk_predict(LabelSpreading, S, y, lab, alpha=alpha)),
                (
                    "networkx local_and_global_consistency",
                    lambda: (nx_predict(nxc.local_and_global_consistency, S, y, lab, alpha=alpha), 30),
                ),
            ],
        ),
    ]
    for method, ours, peers in groups:
        p0, t0 = best_of(args.repeats, ours)
        print(f"   {method:16s} {'ours':38s} acc {acc(p0):.4f}  {t0:8.4f} s  ratio  1.0x")
        for impl, fit in peers:
            (p, it), t = best_of(args.repeats, fit)
            print(
                f"   {'':16s} {impl:38s} acc {acc(p):.4f}  {t:8.4f} s  ratio {t / t0:5.1f}x  "
                f"({it} it., agrees with ours on {np.mean(p == p0):.2%})"
            )
    p, t = best_of(args.repeats, lambda: T.harmonic(S, y, lab, cmn=True).argmax(1))
    print(f"   {'harmonic + CMN':16s} {'ours':38s} acc {acc(p):.4f}  {t:8.4f} s")
    p, t = best_of(args.repeats, lambda: T.transductive_gp(S, y, lab).argmax(1))
    print(f"   {'transductive GP':16s} {'ours':38s} acc {acc(p):.4f}  {t:8.4f} s")


def loohl_part(args):
    g = gs.load_dataset("digits-3-8")
    X, y = g.features, g.labels
    rng = np.random.default_rng(args.seed)
    keep = np.sort(rng.choice(X.shape[0], min(args.loohl_points, X.shape[0]), replace=False))
    X, y = X[keep], y[keep]
    X = X[:, X.std(axis=0) > 0]  # constant pixels carry no bandwidth
    lab = split(y, 10, rng)
    sigma = np.full(X.shape[1], T.mst_bandwidth(X, y, lab))
    eps = 0.01
    print(
        f"\n2. LOOHL objective + gradient: digits 3 vs 8, n={X.shape[0]}, features={X.shape[1]}, "
        f"labelled={lab.size}, eps={eps}"
    )
    (v, gr), t_fast = best_of(args.repeats, T.loo_objective, X, y, lab, sigma, eps=eps)
    (v0, g0), t_naive = timed(reference.loo_objective_naive, X, y, lab, sigma, eps=eps)
    rel = np.abs(gr - g0).max() / np.abs(g0).max()
    print(
        f"   efficient {t_fast:8.4f} s | naive {t_naive:8.3f} s | naive/efficient {t_naive / t_fast:7.1f}x | "
        f"|dQ| {abs(v - v0):.1e}, max rel |d grad| {rel:.1e}"
    )
    assert abs(v - v0) <= 1e-8 * max(1.0, abs(v0)) and rel < 1e-6, "efficient and naive LOOHL disagree"


def scaling_part(args):
    g = gs.load_dataset("epinions")
    S = g.adjacency
    N = S.shape[0]
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.quick:
        sizes = [s for s in sizes if s <= 20_000]
    rng = np.random.default_rng(args.seed)
    start = int(rng.integers(N))
    fake = rng.integers(0, 2, size=N)  # epinions has no node classes: 2 fake classes, seeded
    print(
        f"\n3. Scaling on Epinions (n={N}, edges={g.n_edges}): nested BFS subgraphs from node {start}; "
        "2 fake classes (seeded random, epinions has no labels), 1 % labelled"
    )
    methods = [
        ("llgc mu=1", lambda S_, y_, l_: T.llgc(S_, y_, l_, mu=1.0)),
        ("llgc (cg)", lambda S_, y_, l_: T.llgc(S_, y_, l_, mu=1.0, solver="cg")),
        ("harmonic cmn", lambda S_, y_, l_: T.harmonic(S_, y_, l_, cmn=True)),
        ("harmonic cmn (cg)", lambda S_, y_, l_: T.harmonic(S_, y_, l_, cmn=True, solver="cg")),
        ("transductive_gp", lambda S_, y_, l_: T.transductive_gp(S_, y_, l_)),
    ]
    times = {m: [] for m, _ in methods}
    print(f"   {'nodes':>7s} {'edges':>8s} " + " ".join(f"{m:>17s}" for m, _ in methods))
    for m_nodes in sizes:
        nodes = gs.bfs_ball(S, m_nodes, root=start)
        Sm = sp.csr_matrix(S[nodes][:, nodes])
        ym = fake[nodes]
        lab = np.sort(rng.choice(m_nodes, max(2, m_nodes // 100), replace=False))
        ym_lab = ym[lab]
        if np.unique(ym_lab).size < 2:  # both fake classes labelled
            ym[lab[0]], ym[lab[1]] = 0, 1
        row = []
        for name, fn in methods:
            _, t = best_of(1 if m_nodes > 20_000 else args.repeats, fn, Sm, ym, lab)
            times[name].append(t)
            row.append(t)
        print(f"   {m_nodes:7d} {Sm.nnz // 2:8d} " + " ".join(f"{t:15.3f} s" for t in row))
    if len(sizes) >= 2:
        print(
            "   log-log slope of time vs nodes (np.polyfit, degree 1): "
            + ", ".join(f"{m} {np.polyfit(np.log(sizes), np.log(times[m]), 1)[0]:.2f}" for m in times)
        )


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(
        "--quick", action="store_true", help="Cora only, no PubMed, Epinions subgraphs <= 20,000 nodes"
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--repeats", type=int, default=3, help="best of this many fits (1 above 20,000 nodes)")
    p.add_argument("--loohl-points", type=int, default=300)
    p.add_argument("--sizes", default="2000,5000,13000,33000,75877")
    p.add_argument("--skip", default="", help="comma list of parts to skip: peers,loohl,scaling")
    args = p.parse_args()
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"numpy {np.__version__}, graphsel {gs.__version__ if hasattr(gs, '__version__') else ''}"
    )
    skip = set(filter(None, args.skip.split(",")))
    t0 = time.perf_counter()
    if "peers" not in skip:
        peers_part(args)
    if "loohl" not in skip:
        loohl_part(args)
    if "scaling" not in skip:
        scaling_part(args)
    print(f"\ntotal {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
