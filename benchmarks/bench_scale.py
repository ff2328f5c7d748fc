"""Benchmark: online learning on large generated graphs (degree-corrected block model up to 10^6 nodes).

Run: python benchmarks/bench_scale.py [--sizes 10000 100000 1000000] [--rounds 100000] [--progress]
                                      [--eig-sizes 100000] [--eig-timeout 600] [--skip-ovr]

Prints, from one run (every measurement in a fresh process, so that its peak
memory is its own; BLAS limited to 2 threads):

1. the generator ``gs.datasets.sbm(n, n_blocks=10, avg_degree=20, mixing=0.2)``
   at every size: seconds, nodes and edges kept, peak memory;
2. the relaxation learner with FastONL's push (β = 0.1 n, ε = 1e-4) on the
   first ``--rounds`` rounds of a random order at every size (all n rounds
   where n ≤ ``--rounds``: a full pass at 10^4 and 10^5 nodes, the first 10^5
   rounds at 10^6): seconds per round, error, peak memory of the process (the
   graph included), and the ratio t(largest)/t(smallest) (the
   per-round cost should not grow with n); the same for its margin-sampling
   selective variant (b = 0.1), with the number of labels it asked for; then
   where the time goes: the compiled push alone on 3,000 sources, without
   and with its look-ahead prefetch (``Pusher(lookahead=...)``; "auto" turns
   it on from 2^18 nodes), the edges it scans (the neighbour lists of the
   nodes it pushes), the time per edge, and the memory floor: the same
   residual updates replayed in the same order with nothing else (no
   queue, no thresholds, no prefetch hints), whose growth with n is the
   memory hierarchy's;
3. the 100 smallest non-zero Laplacian eigenpairs (``gs.spectral_embedding``,
   method chosen by size, no cache) at ``--eig-sizes``: the solver ("auto":
   lobpcg-jacobi on this random-like graph above 2·10^4 nodes), seconds,
   iterations, peak memory, the
   largest residual ``‖L v − λ v‖``, ``λ_2`` and ``σ_d``, and the check that
   no eigenvalue below ``σ_d`` was missed (the complement probe: the smallest
   Ritz value an independent LOBPCG run finds orthogonal to the 100 vectors,
   which must be ≥ ``σ_d``); a size that runs longer than ``--eig-timeout``
   seconds is reported as such;
4. 20 orders of OneVsRest(SSLGC) on PubMed (d = 100, bias b = 1): the
   Python round loop (``compiled=False``, the learner's methods called every
   round) against the compiled stacked loop (``compiled=True``, the default),
   one order after the other, through ``evaluate(n_jobs=2, backend="loky")``
   (two worker processes: the first sweep includes their start-up, the second
   is timed again with the workers up, as a notebook's later sweeps run), and,
   for the compiled loop, through ``evaluate(n_jobs=2)`` as notebooks call it
   (two threads of the process: the compiled loop releases the GIL), with a
   check that every way makes the same predictions and queries on every order.
"""

import argparse
import multiprocessing as mp
import os
import platform
import queue
import resource
import time
import traceback

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


def task_push(n, rounds, selective, progress=False):
    from graphsel_lib import online as ol

    g = _graph(n)
    learner = ol.Relaxation(g.adjacency, beta=0.1 * g.n_nodes, kernel="push", eps=1e-4)
    if selective:
        learner = ol.MarginSampling(learner, b=0.1, seed=0)
    R = min(rounds, g.n_nodes)
    trace = ol.run(learner, ol.node_ids(g.n_nodes), g.labels, seed=0, rounds=R, progress=progress)
    pusher = (learner.learner if selective else learner)._pusher
    return dict(
        lookahead=pusher.lookahead,
        per_round_ms=1e3 * trace.elapsed[-1] / R,
        rounds=R,
        error=trace.error_rate,
        queried=int(trace.n_queried),
        peak_mb=_peak_mb(),
    )


def task_push_alone(n, sources=3000):
    """Where a round's time goes: the compiled push alone on ``sources`` random sources, and its memory floor.

    The floor replays the same memory accesses with nothing else: for every
    source, one residual update per edge of the pushed nodes' neighbour
    lists, in the same order (no queue, no thresholds, no bookkeeping).
    What it costs at 10^6 nodes over 10^4 is the part of the growth that the
    memory hierarchy, not the algorithm, sets.
    """
    import numba

    from graphsel_lib.online import relaxation_loop
    from graphsel_lib.online.push import Pusher

    kernel = relaxation_loop.push

    @numba.njit(nogil=True)
    def sweep(indptr, indices, data, unit, ahead, alpha, eps, src, hot, cold, state, queue, touched, vals):
        for s in src:  # the pushes called from compiled code, as the relaxation rounds call them
            kernel(indptr, indices, data, unit, ahead, alpha, eps, s, hot, cold, state, queue, touched, vals)

    @numba.njit(nogil=True)
    def replay(indices, visits, hot):
        for k in range(visits.size):
            hot[indices[visits[k]], 0] += 1e-300

    g = _graph(n)
    pusher = Pusher(g.adjacency)
    alpha = 0.1 * g.n_nodes / (g.n_nodes + 0.1 * g.n_nodes)  # beta = 0.1 n
    src = np.random.default_rng(0).permutation(g.n_nodes)[:sources]
    args = pusher.kernel_args(1e-4)
    indptr, indices = args[0], args[1]

    def push(s):
        return relaxation_loop.push(*args[:5], alpha, 1e-4, int(s), *args[5:])

    best = {}
    for ahead in (False, True):  # compile both outside the timing
        sweep(*args[:4], ahead, alpha, 1e-4, src[:1], *args[5:])
    for _ in range(3):  # the fastest of three sweeps each: other work on the machine only adds time
        for ahead in (False, True):
            t = time.perf_counter()
            sweep(*args[:4], ahead, alpha, 1e-4, src, *args[5:])
            best[ahead] = min(best.get(ahead, np.inf), (time.perf_counter() - t) / len(src))
    # the visits: positions in `indices` of every edge the pushes scan (pushed nodes' lists, touch order)
    visits, edges = [], []
    for s in src:
        nodes = args[9][: push(s)].copy()  # `touched`: the pushed nodes
        spans = [np.arange(indptr[u], indptr[u + 1]) for u in nodes]
        edges.append(sum(len(a) for a in spans))
        visits.extend(spans)
    visits = np.concatenate(visits)
    hot = np.zeros((g.n_nodes, 2))
    replay(indices, visits[:10], hot)
    floor = np.inf
    for _ in range(3):
        t = time.perf_counter()
        replay(indices, visits, hot)
        floor = min(floor, (time.perf_counter() - t) / len(src))
    deg = np.diff(indptr)
    return dict(
        plain_us=1e6 * best[False],
        ahead_us=1e6 * best[True],
        push_us=1e6 * best[pusher.lookahead],  # as "auto" runs it at this size
        auto=pusher.lookahead,
        floor_us=1e6 * floor,
        edges=float(np.mean(edges)),
        max_degree=int(deg.max()),
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
    return dict(
        seconds=seconds,
        method=emb.method,
        info=emb.info,
        residual=residual,
        lambda_2=float(lam[0]),
        sigma_d=float(lam[-1]),
        peak_mb=_peak_mb(),
    )


def task_ovr(compiled, how):
    """20 orders of OneVsRest(SSLGC) on PubMed: ``how`` = "sequential", "loky" (processes) or "threads"."""
    from functools import partial

    import graphsel_lib as gs
    from graphsel_lib import online as ol
    from graphsel_lib.experiments import evaluate, random_orders

    g = gs.load_dataset("pubmed", download=False)
    M = np.asfortranarray(gs.add_bias(gs.spectral_embedding(g.adjacency, 100).M, 1.0))
    orders = random_orders(g.n_nodes, 20, seed=0)
    make = partial(ol.OneVsRest, partial(ol.SSLGC, mu=0.1, kappa=0.4), compiled=compiled)
    ol.run(make(), M, g.labels, order=orders[0], rounds=300)  # numba: load (or compile) outside the timing
    t = time.perf_counter()
    warm = None
    if how == "sequential":
        traces = [ol.run(make(), M, g.labels, order=o) for o in orders]
        seconds = time.perf_counter() - t
        errors, queried = [tr.error_rate for tr in traces], [tr.n_queried for tr in traces]
    else:  # first sweep: start-up included (loky workers); second: as a notebook's later sweeps
        backend = "loky" if how == "loky" else None
        table = evaluate(make, M, g.labels, orders, n_jobs=2, backend=backend, cache=False)
        seconds = time.perf_counter() - t
        t = time.perf_counter()
        evaluate(make, M, g.labels, orders, n_jobs=2, backend=backend, cache=False)
        warm = time.perf_counter() - t
        errors, queried = table.error_rate.tolist(), table.n_queried.tolist()
        if how == "loky":  # idle workers would otherwise hold this process for minutes at exit
            from joblib.externals.loky import get_reusable_executor

            get_reusable_executor().shutdown(wait=True)
    return dict(
        seconds=seconds,
        warm=warm,
        mean_error=float(np.mean(errors)),
        mean_queried=float(np.mean(queried)),
        fingerprint=(errors, queried),
        peak_mb=_peak_mb(),
    )


def _call(out, fn, args):
    try:
        out.put(("ok", fn(*args)))
    except BaseException:  # noqa: BLE001 - report it in the parent
        out.put(("error", traceback.format_exc()))


def _in_fresh_process(fn, *args, timeout=None):
    """``fn(*args)`` in a new (non-daemonic, so it may start joblib workers) process; None after ``timeout`` s."""
    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    proc = ctx.Process(target=_call, args=(out, fn, args))
    proc.start()
    try:
        status, value = out.get(timeout=timeout)
    except queue.Empty:
        proc.terminate()
        proc.join()
        return None
    proc.join()
    if status == "error":
        raise RuntimeError(f"{fn.__name__}{args} failed in its process:\n{value}")
    return value


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    p.add_argument("--rounds", type=int, default=100_000)
    p.add_argument("--progress", action="store_true", help="progress bars of the push passes (stderr)")
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
            r = _in_fresh_process(task_push, n, args.rounds, selective, args.progress)
            per_round[n] = r["per_round_ms"]
            extra = f", labels asked {r['queried']:,} of {r['rounds']:,}" if selective else ""
            print(
                f"   n = {n:>9,}: {r['per_round_ms']:.3f} ms per round (look-ahead {'on' if r['lookahead'] else 'off'}), "
                f"error {r['error']:.3f}{extra}, "
                f"peak {r['peak_mb']:,.0f} MB"
            )
        lo, hi = min(per_round), max(per_round)
        print(f"   t({hi:,}) / t({lo:,}) = {per_round[hi] / per_round[lo]:.2f}")

    print(
        "\n2c. where a round's time goes: the compiled push alone on 3,000 random sources (beta = 0.1 n,"
        " eps = 1e-4),\n    without and with its look-ahead prefetch (* = as lookahead='auto' runs it at that size),\n"
        "    and its memory floor (the same residual updates, in the same order, with nothing else)"
    )
    alone = {}
    for n in args.sizes:
        r = alone[n] = _in_fresh_process(task_push_alone, n)
        print(
            f"   n = {n:>9,}: {r['plain_us']:6.1f}{' ' if r['auto'] else '*'} / {r['ahead_us']:6.1f}{'*' if r['auto'] else ' '} "
            f"us per push (x{r['ahead_us'] / r['plain_us']:.2f} with it), {r['edges']:,.0f} edges scanned per push "
            f"(largest degree {r['max_degree']:,}), {1e3 * r['push_us'] / r['edges']:.1f}* ns per edge; "
            f"floor {r['floor_us']:6.1f} us, {1e3 * r['floor_us'] / r['edges']:.1f} ns per edge"
        )
    lo, hi = min(alone), max(alone)
    if hi > lo:
        per_edge = {n: 1e3 * r["push_us"] / r["edges"] for n, r in alone.items()}  # ns
        floor_edge = {n: 1e3 * r["floor_us"] / r["edges"] for n, r in alone.items()}
        print(
            f"   per edge, n = {hi:,} over n = {lo:,}: push x{per_edge[hi] / per_edge[lo]:.2f}, "
            f"floor x{floor_edge[hi] / floor_edge[lo]:.2f}; the floor's growth is {floor_edge[hi] - floor_edge[lo]:.1f} "
            f"of the push's {per_edge[hi] - per_edge[lo]:.1f} ns per edge"
        )

    if args.eig_sizes:
        print(
            f"\n3. 100 smallest non-zero Laplacian eigenpairs (method by size, no cache, timeout {args.eig_timeout:.0f} s)"
        )
    for n in args.eig_sizes:
        r = _in_fresh_process(task_eigen, n, timeout=args.eig_timeout)
        if r is None:
            print(f"   n = {n:>9,}: did not finish in {args.eig_timeout:.0f} s")
        else:
            i = r["info"]
            if i.get("check") == "probe":
                ok = "none missed" if i["probe_min"] >= r["sigma_d"] - 1e-8 * (1 + r["sigma_d"]) else "MISSED"
                check = (
                    f"complement probe min {i['probe_min']:.8f} >= sigma_d: {ok} "
                    f"(first guard Ritz value {i['guard_min']:.8f})"
                )
            else:
                check = "Sylvester inertia count: none missed"  # spectral_embedding raises otherwise
            its = f", {i['iterations']} iterations (block {i['block']})" if "iterations" in i else ""
            print(
                f"   n = {n:>9,}: {r['method']}, {r['seconds']:7.1f} s{its}, max residual {r['residual']:.1e}, "
                f"lambda_2 = {r['lambda_2']:.6f}, sigma_d = {r['sigma_d']:.8f}, peak {r['peak_mb']:,.0f} MB; {check}"
            )

    if not args.skip_ovr:
        print("\n4. OneVsRest(SSLGC(mu=0.1, kappa=0.4)), PubMed, d = 100 + bias, 20 orders")
        res = {}
        for compiled, how in [
            (False, "sequential"), (True, "sequential"), (False, "loky"), (True, "loky"), (True, "threads")
        ]:  # fmt: skip
            r = res[compiled, how] = _in_fresh_process(task_ovr, compiled, how)
            loop = "compiled round loop" if compiled else "Python round loop  "
            where = {
                "sequential": "one after the other                 ",
                "loky": 'evaluate(n_jobs=2, backend="loky")  ',
                "threads": "evaluate(n_jobs=2): 2 threads       ",
            }[how]
            again = "" if r["warm"] is None else f" (again, started: {r['warm']:.2f} s)"
            print(
                f"   {loop}, {where}: {r['seconds']:6.2f} s{again} (mean error {r['mean_error']:.4f}, "
                f"mean queried {r['mean_queried']:,.1f}, peak {r['peak_mb']:,.0f} MB)"
            )
        same = len({repr(r["fingerprint"]) for r in res.values()}) == 1
        print(
            f"   compiled vs Python, one after the other: x{res[False, 'sequential']['seconds'] / res[True, 'sequential']['seconds']:.1f}; "
            f"a notebook's sweep before (Python loop, loky, start-up included) vs now (compiled, threads): "
            f"{res[False, 'loky']['seconds']:.2f} s -> {res[True, 'threads']['seconds']:.2f} s "
            f"(x{res[False, 'loky']['seconds'] / res[True, 'threads']['seconds']:.1f}); "
            f"errors and queries of the 20 orders {'identical in every way' if same else 'DIFFER'}"
        )


if __name__ == "__main__":
    main()
