"""Benchmark: online passes on PubMed (T = 19,717, d = 100) against the naive twins (SPEC §6).

Run: python benchmarks/bench_online.py [--dataset pubmed] [--d 100] [--mu 0.1] [--orders 20]

Prints, from one run and on one core (BLAS limited to one thread for every
pass, ours and naive):

1. one pass of OLLGC (class 0 vs rest, binary) and of one-vs-rest OLLGC
   (K classes), ours (Sherman–Morrison) vs the naive twin (``np.linalg.solve``
   every round), with the ratio and a check that both made the same mistakes;
2. the wall time of all ``--orders`` orders, one after the other, for
   binary OLLGC and for GPA, OLLGC and SSLGC one-vs-rest (what gu2013
   Table 2 times); with ``--jobs 2`` also OneVsRest(OLLGC) over joblib workers.

Pass time is ``trace.time``: the online loop only (SPEC §5), as the
published times; "call" adds the set-up of ``run`` (input checks, copying M
into round order). Features: ``add_bias(spectral_embedding(S, d).M, b)``;
if the dataset cannot be loaded, a random (d, 19717) M with random labels is
used and the output says so.
"""

import argparse
import os
import platform
import time

import numpy as np
from threadpoolctl import threadpool_limits

import graphsel_lib as gs
from graphsel_lib.online import GPA, OLLGC, SSLGC, OneVsRest, run
from graphsel_lib.online.reference import ReferenceOLLGC


def features(name, d, bias):
    try:
        g = gs.load_dataset(name)
        t = time.perf_counter()
        emb = gs.spectral_embedding(g.adjacency, d)
        t = time.perf_counter() - t
        M = gs.add_bias(emb.M, bias) if bias > 0 else emb.M
        print(
            f"data: {name}, n = {g.n_nodes}, K = {g.n_classes}, d = {d} (+bias b = {bias}); embedding {t:.2f} s"
        )
        return M, g.labels
    except Exception as exc:  # noqa: BLE001 - any failure: fall back, and say so
        print(f"data: RANDOM (could not load {name!r}: {type(exc).__name__}: {exc})")
        rng = np.random.default_rng(0)
        n = 19_717
        M = rng.standard_normal((d, n)) / np.sqrt(d)
        return (gs.add_bias(M, bias) if bias > 0 else M), rng.integers(0, 3, n)


def best_of(repeats, learner, M, y, order):
    """Best pass time and call time over ``repeats`` runs, and the last trace."""
    passes, calls = [], []
    for _ in range(repeats):
        t = time.perf_counter()
        trace = run(learner, M, y, order=order)
        calls.append(time.perf_counter() - t)
        passes.append(trace.time)
    return min(passes), min(calls), trace


def compare(label, fast, slow, M, y, order, repeats):
    t_fast, c_fast, a = best_of(repeats, fast, M, y, order)
    t_slow, c_slow, b = best_of(max(1, repeats // 3), slow, M, y, order)
    same = np.array_equal(a.mistakes, b.mistakes) and np.array_equal(a.queried, b.queried)
    print(
        f"  {label:<28} ours {t_fast:7.3f} s (call {c_fast:.3f}) | naive {t_slow:7.3f} s | "
        f"naive/ours {t_slow / t_fast:6.1f}x | error {a.error_rate:.4f} | same mistakes: {same}"
    )


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dataset", default="pubmed")
    p.add_argument("--d", type=int, default=100)
    p.add_argument("--mu", type=float, default=0.1)
    p.add_argument("--bias", type=float, default=1.0)
    p.add_argument("--orders", type=int, default=20)
    p.add_argument("--repeats", type=int, default=5, help="best of this many passes (naive: a third)")
    p.add_argument(
        "--jobs", type=int, default=1, help="also time the 20 orders of OneVsRest(OLLGC) with joblib"
    )
    args = p.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"machine: {platform.machine()} {platform.processor()}, {os.cpu_count()} cores, "
        f"load average {load:.2f}, numpy {np.__version__}, python {platform.python_version()}"
    )
    M, labels = features(args.dataset, args.d, args.bias)
    M = np.asfortranarray(M)  # rows of M.T contiguous: run() needs no copy per call
    K = int(labels.max()) + 1
    order = np.random.default_rng(0).permutation(labels.size)
    mu = args.mu

    with threadpool_limits(limits=1):
        print(
            f"\n1. one pass, T = {labels.size}, mu = {mu} (best of {args.repeats}; naive best of "
            f"{max(1, args.repeats // 3)})"
        )
        y0 = np.where(labels == 0, 1, -1)
        compare("OLLGC, class 0 vs rest", OLLGC(mu), ReferenceOLLGC(mu), M, y0, order, args.repeats)
        compare(
            f"OneVsRest(OLLGC), K = {K}",
            OneVsRest(lambda: OLLGC(mu)),
            OneVsRest(lambda: ReferenceOLLGC(mu)),
            M,
            labels,
            order,
            args.repeats,
        )

        print(f"\n2. {args.orders} orders, one after the other on one core (gu2013 Table 2 setting)")
        rng = np.random.default_rng(1)
        orders = [rng.permutation(labels.size) for _ in range(args.orders)]
        y0 = np.where(labels == 0, 1, -1)
        cases = [
            ("OLLGC, class 0 vs rest", lambda: OLLGC(mu), y0),
            (repr(OneVsRest(lambda: OLLGC(mu))), lambda: OneVsRest(lambda: OLLGC(mu)), labels),
            (repr(OneVsRest(lambda: SSLGC(mu, 0.4))), lambda: OneVsRest(lambda: SSLGC(mu, 0.4)), labels),
            (repr(OneVsRest(GPA)), lambda: OneVsRest(GPA), labels),
        ]
        for name, make, y in cases:
            t = time.perf_counter()
            traces = [run(make(), M, y, order=o) for o in orders]
            wall = time.perf_counter() - t
            passes = np.array([tr.time for tr in traces])
            if "binary_predictions" in traces[0].records:
                errs = np.array([tr.binary_error_rate for tr in traces])
                q = np.array([tr.binary_n_queried for tr in traces])
                what = "mean binary error"
            else:
                errs = np.array([tr.error_rate for tr in traces])
                q = np.array([tr.n_queried for tr in traces])
                what = "error"
            print(
                f"  {name:<38} wall {wall:6.2f} s | pass {passes.mean():.3f} ± {passes.std():.3f} s | "
                f"{what} {errs.mean():.4f} ± {errs.std():.4f} | #queried {q.mean():.0f}"
            )

    if args.jobs > 1:
        from joblib import Parallel, delayed

        def one(o):
            return run(OneVsRest(lambda: OLLGC(mu)), M, labels, order=o).time

        t = time.perf_counter()
        Parallel(n_jobs=args.jobs)(delayed(one)(o) for o in orders)
        print(
            f"  {'OneVsRest(OLLGC), joblib n_jobs=' + str(args.jobs):<38} wall {time.perf_counter() - t:6.2f} s "
            "(includes starting the workers and sending M)"
        )


if __name__ == "__main__":
    main()
