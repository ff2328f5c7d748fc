"""Benchmark: WTA, S2 and expected error reduction against their naive twins; WTA against GPA per round.

Run: python benchmarks/bench_peers.py [--sizes 10000 100000 1000000] [--twin-nodes 2000] [--pool-nodes 300]
                                      [--budget 20] [--trees 7] [--d 100] [--seed 0]

Prints, from one run, on one core (BLAS limited to one thread):

1. one pass of WTA (one tree, and a committee of ``--trees``; its compiled pass, one backward sweep per
   tree) against its own per-round methods (``bisect`` and ``insort`` on the revealed positions) and its
   naive twin ``ReferenceWTA`` (the nearest revealed node found by scanning the whole line every round) on a
   degree-corrected SBM of ``--twin-nodes`` nodes, same trees, with a check that all three predicted the same;
2. S2 and EER against ``ReferenceS2`` (shortest paths recomputed with networkx after every query) and
   ``ReferenceEER`` (the harmonic solution solved afresh for every candidate and label) on an SBM of
   ``--pool-nodes`` nodes, from the same 2 random labelled nodes to ``--budget`` labels, with a check that both asked for the
   same nodes;
3. WTA against GPA per round on SBMs of ``--sizes`` nodes (``gs.datasets.sbm``: 5 blocks, mean degree 10,
   mixing 0.1): WTA's set-up (Wilson's random spanning tree and its line) and its time per round, one tree
   and a committee; one-vs-rest GPA's time per round on d-dimensional features of the same n. GPA's round
   costs O(K d) whatever the graph, so its features here are random numbers of the shape of the rank-d
   spectral features (computing those for 10^6 nodes is not what is timed); WTA reads the graph itself.

Times are wall-clock: the online pass (``trace.time``, the fastest of ``--repeats``) or the whole pool run.
"""

import argparse
import platform
import time
import warnings

import numpy as np
from threadpoolctl import threadpool_limits

import graphsel_lib as gs
from graphsel_lib.active import EER, S2, run_pool
from graphsel_lib.active.reference import ReferenceEER, ReferenceS2
from graphsel_lib.online import GPA, WTA, OneVsRest, node_ids, run
from graphsel_lib.online.reference import ReferenceWTA


def sbm(n, seed):
    """The largest component of a 5-block SBM (the generator's note on the dropped nodes is silenced here)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", gs.DataWarning)
        return gs.datasets.sbm(n, n_blocks=5, avg_degree=10.0, mixing=0.1, seed=seed)


def fastest_pass(repeats, learner, M, y, order):
    """The trace of the fastest of ``repeats`` passes (``trace.time``: the online loop only)."""
    return min((run(learner, M, y, order=order) for _ in range(repeats)), key=lambda tr: tr.time)


def timed_pool(strategy, g, budget, seed):
    t = time.perf_counter()
    trace = run_pool(strategy, g.adjacency, g.labels, budget, seed=seed, initial=2)
    return trace, time.perf_counter() - t


def wta_vs_twin(n, trees, seed, repeats):
    g = sbm(n, seed)
    order = np.random.default_rng(seed).permutation(g.n_nodes)
    print(f"\n1. WTA vs its naive twin on an SBM of {g.n_nodes} nodes (one pass, same trees)")
    for k in (1, trees):
        fast = WTA(g.adjacency, n_trees=k, seed=seed)
        naive = ReferenceWTA(g.adjacency, n_trees=k, seed=seed)
        rounds = WTA(g.adjacency, n_trees=k, seed=seed)
        rounds.compiled_pass = lambda *args, **kw: None  # the per-round methods (bisect and insort)
        a = fastest_pass(repeats, fast, node_ids(g.n_nodes), g.labels, order)
        r = fastest_pass(repeats, rounds, node_ids(g.n_nodes), g.labels, order)
        b = fastest_pass(1, naive, node_ids(g.n_nodes), g.labels, order)
        same = np.array_equal(a.predictions, b.predictions) and np.array_equal(a.predictions, r.predictions)
        print(f"   {k} tree(s): ours {a.time:.4f} s (per-round methods {r.time:.4f} s, {r.time / a.time:.0f}x), "
              f"naive {b.time:.3f} s, naive/ours {b.time / a.time:.0f}x, same predictions: {same}")  # fmt: skip


def pool_vs_twins(n, budget, seed):
    g = sbm(n, seed)
    print(f"\n2. Pool strategies vs their naive twins on an SBM of {g.n_nodes} nodes, {budget} labels")
    for name, fast, naive in (("S2", S2(seed=seed), ReferenceS2(seed=seed)), ("EER", EER(), ReferenceEER())):
        a, ta = timed_pool(fast, g, budget, seed)
        b, tb = timed_pool(naive, g, budget, seed)
        same = np.array_equal(a.queries, b.queries)
        print(
            f"   {name}: ours {ta:.3f} s, naive {tb:.3f} s, naive/ours {tb / ta:.1f}x, same queries: {same}"
        )


def wta_vs_gpa(sizes, trees, d, seed, repeats):
    print(f"\n3. WTA vs one-vs-rest GPA per round (SBM, 5 blocks, mean degree 10; GPA on d = {d} features)")
    print(f"   {'n':>9s} {'WTA set-up (s)':>15s} {'WTA 1 tree (µs/round)':>22s} "
          f"{f'WTA {trees} trees (µs/round)':>23s} {'GPA (µs/round)':>15s} {'WTA/GPA':>8s}")  # fmt: skip
    rng = np.random.default_rng(seed)
    for n in sizes:
        g = sbm(n, seed)
        order = rng.permutation(g.n_nodes)
        ids = node_ids(g.n_nodes)
        t = time.perf_counter()
        one = WTA(g.adjacency, n_trees=1, seed=seed)
        setup = time.perf_counter() - t
        committee = WTA(g.adjacency, n_trees=trees, seed=seed)
        a = fastest_pass(repeats, one, ids, g.labels, order)
        c = fastest_pass(repeats, committee, ids, g.labels, order)
        p = fastest_pass(repeats, OneVsRest(GPA), rng.standard_normal((d, g.n_nodes)), g.labels, order)
        per = [x.time / g.n_nodes * 1e6 for x in (a, c, p)]
        print(f"   {g.n_nodes:>9d} {setup:>15.2f} {per[0]:>22.2f} {per[1]:>23.2f} {per[2]:>15.2f} "
              f"{per[0] / per[2]:>8.2f}")  # fmt: skip


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    ap.add_argument("--twin-nodes", type=int, default=2000)
    ap.add_argument("--pool-nodes", type=int, default=300)  # the naive EER solves n systems per query
    ap.add_argument("--budget", type=int, default=20)
    ap.add_argument("--trees", type=int, default=7)
    ap.add_argument("--d", type=int, default=100)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    print(
        f"graphsel {gs.__version__}, Python {platform.python_version()}, {platform.machine()}, one BLAS thread"
    )
    with threadpool_limits(1):
        wta_vs_twin(args.twin_nodes, args.trees, args.seed, args.repeats)
        pool_vs_twins(args.pool_nodes, args.budget, args.seed)
        wta_vs_gpa(args.sizes, args.trees, args.d, args.seed, args.repeats)


if __name__ == "__main__":
    main()
