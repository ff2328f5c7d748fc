"""Benchmark: online learning on large generated graphs (degree-corrected block model up to 10^6 nodes).

Run: python benchmarks/bench_scale.py [--sizes 10000 100000 1000000] [--rounds 20000]
                                      [--eig-sizes 100000] [--eig-timeout 600] [--skip-ovr]

Prints, from one run (every measurement in a fresh process, so that its peak
memory is its own; BLAS limited to 2 threads):

1. the generator ``gs.datasets.sbm(n, n_blocks=10, avg_degree=20, mixing=0.2)``
   at every size: seconds, nodes and edges kept, peak memory;
2. the relaxation learner with FastONL's push (β = 0.1 n, ε = 1e-4) on the
   first ``--rounds`` rounds of a random order at every size: seconds per
   round, error, peak memory, and the ratio t(largest)/t(smallest) (the
   per-round cost should not grow with n); the same for its margin-sampling
   selective variant (b = 0.1), with the number of labels it asked for;
3. the 100 smallest non-zero Laplacian eigenpairs (``gs.spectral_embedding``,
   method chosen by size, no cache) at ``--eig-sizes``: seconds, peak memory,
   the largest residual ``‖L v − λ v‖``; a size that runs longer than
   ``--eig-timeout`` seconds is reported as such;
4. 20 orders of OneVsRest(SSLGC) on PubMed (d = 100, bias b = 1): seconds,
   the reference time for the stacked one-vs-rest loop.
"""

import argparse
import multiprocessing as mp
import os
import platform
import resource
import time

import numpy as np


def _peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _graph(n):
    import warnings

    import graphsel_lib as gs

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", gs.DataWarning)  # the LCC drop is reported in g.info
        return gs.datasets.sbm(n, n_blocks=10, avg_degree=20, mixing=0.2, seed=0)


def task_generator(n):
    t = time.perf_counter()
    g = _graph(n)
    return dict(seconds=time.perf_counter() - t, nodes=g.n_nodes, edges=g.n_edges, peak_mb=_peak_mb())


def task_push(n, rounds, selective):
    from graphsel_lib import online as ol

    g = _graph(n)
    learner = ol.Relaxation(g.adjacency, beta=0.1 * g.n_nodes, kernel="push", eps=1e-4)
    if selective:
        learner = ol.MarginSampling(learner, b=0.1, seed=0)
    R = min(rounds, g.n_nodes)
    trace = ol.run(learner, ol.node_ids(g.n_nodes), g.labels, seed=0, rounds=R)
    return dict(
        per_round_ms=1e3 * trace.elapsed[-1] / R,
        rounds=R,
        error=trace.error_rate,
        queried=int(trace.n_queried),
        peak_mb=_peak_mb(),
    )


def task_eigen(n):
    import graphsel_lib as gs

    g = _graph(n)
    t = time.perf_counter()
    emb = gs.spectral_embedding(g.adjacency, 100, cache=False)
    seconds = time.perf_counter() - t
    L = gs.laplacian(g.adjacency)
    V, lam = emb.eigenvectors, emb.eigenvalues
    residual = float(np.max(np.linalg.norm(L @ V - V * lam, axis=0)))
    return dict(seconds=seconds, residual=residual, lambda_2=float(lam[0]), peak_mb=_peak_mb())


def task_ovr():
    import graphsel_lib as gs
    from graphsel_lib import online as ol

    g = gs.load_dataset("pubmed", download=False)
    M = np.asfortranarray(gs.add_bias(gs.spectral_embedding(g.adjacency, 100).M, 1.0))
    orders = [np.random.default_rng(s).permutation(g.n_nodes) for s in range(20)]
    learner = ol.OneVsRest(lambda: ol.SSLGC(mu=0.1, kappa=0.4))
    t = time.perf_counter()
    errors = [ol.run(learner, M, g.labels, order=o).error_rate for o in orders]
    return dict(seconds=time.perf_counter() - t, mean_error=float(np.mean(errors)), peak_mb=_peak_mb())


def _in_fresh_process(fn, *args, timeout=None):
    with mp.get_context("spawn").Pool(1) as pool:
        res = pool.apply_async(fn, args)
        try:
            return res.get(timeout)
        except mp.TimeoutError:
            pool.terminate()
            return None


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    p.add_argument("--rounds", type=int, default=20_000)
    p.add_argument("--eig-sizes", type=int, nargs="*", default=[100_000])
    p.add_argument("--eig-timeout", type=float, default=600.0)
    p.add_argument("--skip-ovr", action="store_true")
    args = p.parse_args()
    for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(k, "2")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, load average {load:.2f}, numpy {np.__version__}"
    )

    print("\n1. generator: sbm(n, n_blocks=10, avg_degree=20, mixing=0.2, seed=0)")
    for n in args.sizes:
        r = _in_fresh_process(task_generator, n)
        print(
            f"   n = {n:>9,}: {r['seconds']:7.1f} s, kept {r['nodes']:,} nodes, {r['edges']:,} edges, peak {r['peak_mb']:,.0f} MB"
        )

    for selective in (False, True):
        name = (
            "MarginSampling(b = 0.1) around it"
            if selective
            else "relaxation learner, push (beta = 0.1 n, eps = 1e-4)"
        )
        print(f"\n2{'b' if selective else 'a'}. {name}, first {args.rounds:,} rounds")
        per_round = {}
        for n in args.sizes:
            r = _in_fresh_process(task_push, n, args.rounds, selective)
            per_round[n] = r["per_round_ms"]
            extra = f", labels asked {r['queried']:,} of {r['rounds']:,}" if selective else ""
            print(
                f"   n = {n:>9,}: {r['per_round_ms']:.3f} ms per round, error {r['error']:.3f}{extra}, "
                f"peak {r['peak_mb']:,.0f} MB"
            )
        lo, hi = min(per_round), max(per_round)
        print(f"   t({hi:,}) / t({lo:,}) = {per_round[hi] / per_round[lo]:.2f}")

    if args.eig_sizes:
        print(
            f"\n3. 100 smallest non-zero Laplacian eigenpairs (method by size, no cache, timeout {args.eig_timeout:.0f} s)"
        )
    for n in args.eig_sizes:
        r = _in_fresh_process(task_eigen, n, timeout=args.eig_timeout)
        if r is None:
            print(f"   n = {n:>9,}: did not finish in {args.eig_timeout:.0f} s")
        else:
            print(
                f"   n = {n:>9,}: {r['seconds']:7.1f} s, max residual {r['residual']:.1e}, "
                f"lambda_2 = {r['lambda_2']:.3g}, peak {r['peak_mb']:,.0f} MB"
            )

    if not args.skip_ovr:
        r = _in_fresh_process(task_ovr)
        print(
            f"\n4. OneVsRest(SSLGC(mu=0.1, kappa=0.4)), PubMed, d = 100 + bias, 20 orders: {r['seconds']:.2f} s "
            f"(mean error {r['mean_error']:.3f}, peak {r['peak_mb']:,.0f} MB)"
        )


if __name__ == "__main__":
    main()
