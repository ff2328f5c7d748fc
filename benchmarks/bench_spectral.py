"""Benchmark: the eigensolvers side by side on generated graphs, the time-vs-n curve, and the 10^6 line.

Run: python benchmarks/bench_spectral.py [--sizes 10000 20000 50000 100000]
        [--methods lobpcg-chebyshev lobpcg-jacobi shift-invert chebyshev-filter primme]
        [--big 1000000] [--timeout 900] [--big-timeout 600] [--threads 2] [--avg-degree 10] [--datasets cora,pubmed]

Graph: ``gs.datasets.sbm(n, n_blocks=10, avg_degree=10, mixing=0.2, seed=0)`` (``--avg-degree`` sets the
expected mean degree of the ``--sizes`` runs); the d = 100 smallest
non-zero Laplacian eigenpairs. Every run is a fresh process (its peak memory, ``ru_maxrss``, is its
own) with ``--threads`` BLAS and numba threads, stopped after ``--timeout`` seconds. Per size and method:
seconds (the library's ``spectral_embedding(..., cache=False)``: solver and its check of missed
eigenvalues), iterations, the largest relative residual ``‖Lv − λv‖/λ``, the peak memory and the
largest relative difference of the eigenvalues from the first method in ``--methods`` that finished.
Then the log-log slope of seconds against n per method (``np.polyfit`` over the sizes it finished).

``lobpcg-chebyshev-double`` and ``lobpcg-chebyshev-mixed`` are the library's ``"lobpcg-chebyshev"`` with
every iteration in float64, or with float32 iterations first (its default, ``blockeig.block_lobpcg(...,
mixed=True)``): the precision compared side by side. ``--threads`` sets numba's threads and the block
algebra's BLAS threads (``blockeig.DENSE_THREADS``; one in the library, where notebooks share the cores).

**Measured 2026-11-29, 07:51-08:16 UTC, idle machine (load average 0.2-2.1), 2 threads** (``--sizes 10000
--methods lobpcg-chebyshev lobpcg-chebyshev-double lobpcg-jacobi shift-invert --shift-invert-max 10000``;
``--sizes 30000 100000 300000 --methods lobpcg-chebyshev lobpcg-chebyshev-double``; ``--sizes --methods
lobpcg-chebyshev --big 1000000 --big-rtol 5e-7 --big-timeout 1200``)::

    n          mixed (default)      float64 alone      lobpcg-jacobi      shift-invert
    9,917       15.1 s  39 it        17.7 s  39 it      23.7 s  53 it       11.5 s
    29,735      22.6 s  35 it        25.2 s  35 it          -                  -
    99,005      61.0 s  39 it        75.2 s  39 it          -                  -
    297,013    178.2 s  34 it       202.4 s  33 it          -                  -
    990,456    533.5 s  39 it  (every pair's ‖Lv − λv‖/λ ≤ 8.1e-7; + complement probe 55.4 s = 588.9 s)

Eigenvalues equal to 2.8e-14 relative wherever two ran; the largest relative residual ``‖Lv − λv‖/λ``
of a pair ≤ 4.7e-8 (the stopping rule is ``‖Lv − θv‖ ≤ rtol · θ_max`` for every wanted pair, rtol = 1e-8
by default; at 10^6 the run stops at rtol = 5e-7, which puts every pair's ``‖Lv − λv‖/λ`` below 1e-6).
Log-log slope of the mixed solver's seconds 0.90 from 3·10^4 to 3·10^5 (0.91 from 3·10^5 to 10^6, the last at rtol 5e-7).
At 10^6 nodes: λ_1 = 0.182, σ_100 = 0.317, peak 15.0 GiB; **100 pairs to relative residual 1e-6 with the
missed-eigenvalue check in 588.9 s, the 600 s target met** (every pair below 1e-6 first after 514.7 s,
below 1e-4 after 317.0 s); the probe found 0.317614 ≥ σ_100. Float32 ran the first 29 iterations at about
11.5 s each (its floor there is about 4e-4 relative: ε₃₂ · λ_max with λ_max = 12,312), float64 the last
10 at 9-24 s (fewer active columns as pairs converge). Seconds by phase over the 39 iterations: projection
and orthonormalisation 169, preconditioner 103, Rayleigh–Ritz update 102 and Gram 80, products with L 51,
residuals 12. The same code run to rtol 1.5e-7 took 588.1 s in 42 iterations.

The same sizes at the previous commit (04:51-05:28 UTC, idle, not side by side): 18.6, 24.7, 74.3, 242.0 s
and 928.4 s at 10^6 (to 1.5e-7; 1e-6 after 817.6 s, peak 12.6 GiB; probe 90.7 s). The solver's change is
memory, not arithmetic: every iteration allocated about ten fresh n x k blocks, and at 10^6 nodes each cost 0.5-3.5
s of page faults and huge-page compaction here (``blockeig._Blocks``); the solver now keeps its work blocks,
takes column norms and projections by chunks of rows, and subtracts a one-column projection by a
broadcast. Paired, ``farm-bench -n 3`` of a 10^5-node solve to 1e-6 (the whole process: graph, solver):
median wall 42.3 s against 54.5 s for the previous commit (ratio 0.78, spread 0.75-0.81), system time 2.2
against 10.0 s, peak 1.76 against 1.46 GB. The eigenvalues equal the previous commit's to rounding (at
10^5 nodes θ_100 to the ten digits printed, the sum of the 100 to 2.5e-14 relative). Found on the way: the same run with glibc told to keep freed memory
(``MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=...``, no code change) took 137 s against 170 s at 3·10^5 nodes.
The complement probe now runs :func:`blockeig.block_lobpcg` with the Chebyshev–Jacobi preconditioner (was
Jacobi with scipy's single-threaded products): 78.9 s before, 60.3 and 55.4 s after at 10^6 nodes (three
runs, not side by side), and a lower (closer) Ritz value in its 50 iterations (0.317614 against 0.317938
at 10^6; at 10^5, 0.5421868 against 0.5424727, residual 2.0e-4 against 7.7e-3, 5.8 against 5.2 s).

``chebyshev-filter`` is a candidate measured and not kept: Chebyshev-filtered subspace iteration
(Zhou & Saad, J. Comput. Phys. 2007) with a degree-8 filter in ``L`` on ``[θ_k, λ_max]`` and one
Rayleigh–Ritz per filter; its rate is set by ``λ_max(L)``, the largest degree plus one (629 at 10^4
nodes, 12,312 at 10^6), so it is given ``--timeout`` and reports the residual it reached.
``primme`` runs if the package imports (``pip install primme`` offered only the source archive
primme-3.2.3.tar.gz here, no wheel, so it is reported as not installed).

``--big N`` runs ``lobpcg-chebyshev`` once at N nodes with ``--big-timeout`` seconds (``--big-rtol``: its
tolerance), printing every iteration's largest relative residual as it goes, the seconds until that residual
first fell below 1e-4, 1e-6 and 1e-8, then the complement probe.

``--profile N [N ...] [--degrees M ...]`` runs ``spectral_embedding(sbm(N), d=100, method="lobpcg-chebyshev",
cache=False)`` once per size (and Chebyshev degree) and prints the seconds spent in each phase.

``--datasets`` instead compares the library's choice with ``eigsh(which="SM")`` and dense ``eigh``
on real graphs, cold against cached (the former benchmark).

**Notebook 44's solver comparison** (moved here from the notebook, which times only the embeddings its
learners use): ``--avg-degree 20 --threads 1 --sizes 1000 2000 4000 10000 100000 --methods lobpcg-chebyshev
lobpcg-jacobi shift-invert --shift-invert-max 10000`` (notebook 44's graph, one BLAS thread). Notebook 44's
full run of 2026-11-28 (commit e69a56f, table ``44_embedding_cost``, load ~8, under ``tracemalloc``)
measured on that graph, seconds for d = 100::

    n          shift-invert  lobpcg-jacobi  lobpcg-chebyshev
    999                0.62           5.04              5.41
    2,000              2.45          10.87              7.39
    3,998             10.26          18.21             12.77
    9,997             70.31          59.64             59.93
    99,984                -         316.69            326.57   (25 and 31 iterations; probe check)

the same λ_2 and σ_d to 1e-6 wherever two ran; shift-invert's time grew fastest (its LU fills in on a
random-like graph), the two block solvers within 4 % of each other at 10^4 and 10^5 nodes.

Measured 2026-11-28 on 2 cores shared with other work (``uptime`` load average 7–10 during every run),
``--sizes 10000 20000 --timeout 300``::

    n=   9,917 shift-invert          81.9 s  rel. residual 3.8e-13  peak  304 MB
    n=   9,917 lobpcg-chebyshev     164.5 s  it 39  rel. residual 9.2e-09  peak  432 MB  |Δλ|/λ 2.7e-14
    n=   9,917 lobpcg-jacobi        248.5 s  it 53  rel. residual 2.1e-08  peak  337 MB  |Δλ|/λ 3.3e-14
    n=   9,917 chebyshev-filter     302.5 s  it 75  rel. residual 8.9e-01  (NOT converged)
    n=  19,837 shift-invert         231.1 s  rel. residual 4.1e-13  peak  728 MB
    n=  19,837 lobpcg-chebyshev     386.1 s  it 40  rel. residual 1.5e-08  peak  896 MB  |Δλ|/λ 2.9e-14
    n=  20,000 lobpcg-jacobi        timeout: did not finish in 420 s

Where the time goes (``--profile``, 2 cores shared; ``uptime`` load average at start -> end;
seconds, % of the total)::

    phase                       n = 29,735          n = 29,735          n = 99,005
                                2 BLAS threads      1 BLAS thread       1 BLAS thread
                                load 2.3 -> ~8      load 7.6 -> 12.2    load 9.0 -> 7.0
    total                       444.6 s  35 it      192.7 s  35 it      596.8 s  39 it  1.74 GiB
    project/orthonormalise      187.5  42 %          79.2  41 %         237.2  40 %
    Rayleigh-Ritz: Gram          83.3  19 %          19.9  10 %          49.2   8 %
    Rayleigh-Ritz: eigh          73.5  17 %           3.1   2 %           2.5   0 %
    Rayleigh-Ritz: update        36.3   8 %          28.6  15 %         133.0  22 %
    preconditioner (float32)     21.6   5 %          28.8  15 %          80.6  14 %
    products L·block (float64)    9.5   2 %          10.6   6 %          32.2   5 %
    complement probe             23.7   5 %          13.8   7 %          35.5   6 %
    residuals, set-up, canonical basis, checks: < 5 s (3·10^4), 24 s (10^5) together

The dense algebra was the cost, and most of it was OpenBLAS running 2 threads on a loaded 2-core machine
(next to ``spmm``'s 2 numba threads): side by side in one process at load ~8, the eigh of the 450 x 450
Rayleigh-Ritz matrix took 2.98 s on 2 threads against 0.073 s on one, ``ZᵀZ`` for Z of 10^5 x 300
2.9-4.9 s against 0.55 s. The block algebra now runs on ``blockeig.DENSE_THREADS = 1`` BLAS thread
(2.3x in total above, the second run under the heavier load; an idle machine, where 2 threads may win,
was not available to measure). The 303 s set-up at 10^6 below (load ~9, 2 BLAS threads) was expected to
be the same effect on the set-up's n x 150 Gram matrices, eighs and products (the 10^6 run prints its
phases). Then, at n = 29,735 (``--profile 30000 --guards ...``):

* n x k products in place by chunks of rows (no n x k temporaries): peak 0.76 -> 0.57 GiB, 102.3 s in
  35 iterations at load 7.0 -> 7.8 (not side by side with the 192.7 s: the load differed);
* a higher Chebyshev degree does not cut the iterations (35 at degree 4, 39 at 8: 220.0 s at load
  12.1 -> 9.0): the count is set by the gaps of the spectrum, not by the preconditioner; degree 4 stays;
* fewer guard vectors (``--guards``): at 3·10^4, one run each back to back at load 3.5 -> 3.4, 10 guards
  35.9 s (60 iterations), 20 guards 43.6 s (45), 50 guards 59.0 s (35), 100 guards 96.6 s (29, load
  5.8 -> 3.6); at 10^5, side by side at load 5.0 -> 5.2: 20 guards 165.2 s (58 iterations, 1.07 GiB),
  50 guards 171.6 s (39, 1.27 GiB). The gain shrinks with n (the iterations of 20 guards grow, 45 -> 58,
  those of 50 hardly, 35 -> 39), so the guard stays ``max(20, d/2)`` for the 10^6 line.

The time-vs-n curve, ``--sizes 10000 30000 100000 200000 --methods lobpcg-chebyshev shift-invert``
(20:09-20:14 UTC, load 2.4 -> 4.9; this run had 20 guard vectors; 2·10^5 stopped to free the machine)::

    n=   9,917 lobpcg-chebyshev      14.8 s  it   54  rel. residual 1.1e-08  peak  389 MB
    n=   9,917 shift-invert          21.9 s           rel. residual 3.8e-13  peak  303 MB  |Δλ|/λ 5.3e-14
    n=  29,735 lobpcg-chebyshev      32.0 s  it   45  rel. residual 3.0e-08  peak  507 MB
    n=  99,005 lobpcg-chebyshev     146.0 s  it   58  rel. residual 1.5e-08  peak 1085 MB

Log-log slope 1.00 over the three sizes (1.26 over the last two); extrapolated to 10^6 at that load,
a prediction, not a measurement: 1,300-2,700 s.

``--sizes --big 1000000`` (17:37 UTC, load average 9.95; 17:50, 8.08): graph 990,456 nodes, 4,963,410
edges in 40.8 s; set-up (iteration 0) 302.6 s, iteration 1 at 706.0 s (max relative residual 5.6),
peak 9.5 GiB; stopped by the 600 s budget (2 BLAS threads then).

``--sizes --big 1000000 --big-timeout 900`` on 2026-11-28, 20:23:54 UTC (load 1.44, 3.50, 4.89) to 20:39:16
(load 3.12, 2.55, 3.29), dense algebra on one BLAS thread, 150 vectors: graph 990,456 nodes, 4,963,410 edges
in 8.1 s; set-up (iteration 0) 28.8 s (start block 4, projection 9, product 5, Rayleigh-Ritz 4, residuals 6),
then about 55 s an iteration, peak 9.5 GiB::

    it   0     28.8 s  max rel. residual 3.9e+00       it   9    543.9 s  2.1e-01
    it   1     70.2 s  5.6e+00                         it  10    595.5 s  1.4e-01
    it   2    131.9 s  5.4e+00                         it  11    644.2 s  9.4e-02
    it   3    188.1 s  3.4e+00                         it  12    692.0 s  6.7e-02
    it   4    244.5 s  1.5e+00                         it  13    739.3 s  3.8e-02
    it   5    300.8 s  9.1e-01                         it  14    800.4 s  2.3e-02
    it   6    368.2 s  4.8e-01                         it  15    857.0 s  1.5e-02
    it   7    427.0 s  3.3e-01                         it  16    911.6 s  9.9e-03  (stopped: 900 s)
    it   8    488.1 s  2.9e-01

Per iteration (16 iterations): orthonormalisation 18.3 s, Rayleigh-Ritz update 10.3 s and Gram 6.8 s
(dense: 35.4 s, 64 %), preconditioner 10.1 s and products with L 8.3 s (sparse: 18.4 s, 33 %), residuals
1.4 s. The set-up's 303 s of the earlier run was the BLAS threading under load (28.8 s now, at a lighter
load: not side by side). **The 10^6 line (≤ 600 s) is not met**: the residual falls ~0.2 decades an
iteration, so 1e-8 needs about 45-50 iterations (a prediction from this run), about 2,500 s at 55 s
each. Closing the 4x: the dense part in float32 with a float64 polish (the float32 residual floor is
ε₃₂·λ_max ≈ 1.5e-3 relative here, so only the first ~3 decades), 2 BLAS threads on an idle machine, and
sparse products that scale (10x the nodes cost 30x per product from 10^5 to 10^6: memory-bound gathers).

**Why the iteration count is what it is, and what the 10^6 line costs.** At 2·10^4 nodes
(``sbm(20000)``, 19,837 nodes; block of 150, tolerance 1e-7) the largest relative residual of the
100 wanted pairs fell from 1e-2 (iteration 13) to 1e-6 (iteration 30): a factor 0.58 per iteration.
The Ritz values at the end, θ_100 = 0.7474 and θ_150 = 0.7901 (the last guard), give
r = θ_100/θ_150 = 0.946 and the rate of a method that is limited by the gap and not by its
preconditioner, (1 − √(1 − r))/(1 + √(1 − r)) = 0.62 per iteration (inverse iteration alone would
give 0.946). The preconditioner is already about as good as it needs to be (degree 8 did not cut the
iterations, above); the count is set by the spectrum near σ_100, and more guard vectors are the only
lever on it. A smoothed start block (three applications of the degree-8 preconditioner to the random
block) saved one iteration of 35 (34 against 35 at 2·10^4, side by side, 2026-11-28): not kept.
Each iteration does at least about 24·n·k² multiply-adds of dense algebra for a block of k vectors
(the projection and orthonormalisation of the 2k new directions, the Gram matrices of
Rayleigh–Ritz, the updates of X, LX and P): at n = 10^6, k = 150 that is 5.4·10^11, and the ~36
iterations that 1e-6 needs at 0.2 decades an iteration (the run above) make about 2·10^13, some
400 s at the full double-precision peak of two AVX2 cores and about twice that in practice, before
the sparse products (18 s an iteration above). So d = 100 at 10^6 nodes in 600 s on two cores is
out of reach for the block methods measured here; what is in reach is a smaller block:
rank 10 (``--sizes --big 1000000 --big-d 10``; k = 30, 25x less dense work per iteration): the same
solve through ``spectral_embedding(..., d=10, method="lobpcg-chebyshev")`` took 1,059.5 s on
2026-11-28 at 22:42-23:00 UTC under load average ~8 (not idle), 33 iterations, largest relative
residual 7.8e-9 (notebook 44 Sec. 3b uses that rank on its million-node graph).
"""

import argparse
import functools
import multiprocessing as mp
import os
import platform
import queue
import resource
import subprocess
import sys
import time
import traceback

import numpy as np

print = functools.partial(print, flush=True)  # noqa: A001 - progress while it runs
D = 100


def _graph(n, avg_degree=10):
    import warnings

    import graphsel_lib as gs

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", gs.DataWarning)  # the LCC drop is counted in the node count
        return gs.datasets.sbm(n, n_blocks=10, avg_degree=avg_degree, mixing=0.2, seed=0)


def _peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _rel_residual(L, V, lam):
    return float(np.max(np.linalg.norm(L @ V - V * lam, axis=0) / lam))


def chebyshev_filter(L, d, seed=0, degree=8, guard=50, rtol=1e-8, max_seconds=np.inf):
    """Chebyshev-filtered subspace iteration (Zhou & Saad 2007, Alg. 4.1 with the scaled filter of Alg. 3.2).

    Returns the d smallest non-zero Ritz values, vectors, relative residuals and the iterations.
    """
    from graphsel_lib.blockeig import spmm

    t0 = time.perf_counter()
    n, k = L.shape[0], d + guard
    Y = np.full((n, 1), 1 / np.sqrt(n))
    b = float(abs(L).sum(axis=1).max())  # ≥ λ_max (Gershgorin)
    X = np.random.default_rng(seed).standard_normal((n, k))
    it = 0
    while True:
        X -= Y @ (Y.T @ X)
        X = np.linalg.qr(X)[0]
        LX = spmm(L, X)
        theta, C = np.linalg.eigh(X.T @ LX)
        X, LX = X @ C, LX @ C
        res = np.linalg.norm(LX - X * theta, axis=0) / theta
        if res[:d].max() <= rtol or time.perf_counter() - t0 > max_seconds:
            return theta[:d], X[:, :d], res[:d], it
        a, a0 = float(theta[-1]), float(theta[0])
        e, c = (b - a) / 2, (b + a) / 2
        sigma = e / (a0 - c)
        tau = 2 / sigma
        X0, X1 = X, (LX - c * X) * (sigma / e)
        for _ in range(2, degree + 1):
            s_new = 1 / (tau - sigma)
            X0, X1 = X1, (spmm(L, X1) - c * X1) * (2 * s_new / e) - (sigma * s_new) * X0
            sigma = s_new
        X = X1
        it += 1


def _use_threads(threads):
    """``threads`` for numba's products and for the block algebra (``blockeig.DENSE_THREADS``, one by
    default in the library: the notebooks share the cores; a benchmark run has them to itself)."""
    os.environ["NUMBA_NUM_THREADS"] = str(threads)
    from graphsel_lib import blockeig

    blockeig.DENSE_THREADS = threads


def _precision_solver(method):
    """``"lobpcg-chebyshev-double"`` / ``"-mixed"``: the library's solver with every iteration in float64
    (``mixed=False``) or with float32 iterations first (``mixed=True``), whatever the size."""
    from graphsel_lib import eigensolvers

    mixed = method.endswith("-mixed")
    eigensolvers._SOLVERS["lobpcg-chebyshev"] = functools.partial(eigensolvers._lobpcg_chebyshev, mixed=mixed)
    return "lobpcg-chebyshev"


def task(n, method, threads, timeout, avg_degree=10):
    _use_threads(threads)
    from threadpoolctl import threadpool_limits

    import graphsel_lib as gs

    g = _graph(n, avg_degree)
    L = gs.laplacian(g.adjacency).tocsr()
    out = {"n": n, "nodes": g.n_nodes}
    with threadpool_limits(limits=threads):
        t = time.perf_counter()
        if method == "chebyshev-filter":
            lam, V, res, it = chebyshev_filter(L, D, max_seconds=timeout)
            out.update(iterations=it, converged=bool(res.max() <= 1e-8))
        elif method == "primme":
            import primme  # noqa: F401 - reported as not installed when this fails

            Y = np.full((L.shape[0], 1), 1 / np.sqrt(L.shape[0]))
            lam, V = primme.eigsh(L, D, which="SA", tol=1e-8, lock=Y, method="PRIMME_DYNAMIC")
        else:
            if method in ("lobpcg-chebyshev-double", "lobpcg-chebyshev-mixed"):
                method = _precision_solver(method)
            emb = gs.spectral_embedding(g.adjacency, D, method=method, cache=False)
            lam, V = emb.eigenvalues, emb.eigenvectors
            out.update(iterations=emb.info.get("iterations", ""), check=emb.info.get("check", "inertia"))
        out["seconds"] = time.perf_counter() - t
    out.update(residual=_rel_residual(L, V, lam), peak_mb=_peak_mb(), eigenvalues=np.asarray(lam))
    return out


def _child(q, fn, args):
    try:
        q.put(("ok", fn(*args)))
    except BaseException as exc:  # noqa: BLE001 - reported in the table
        q.put(("error", f"{type(exc).__name__}: {exc}".splitlines()[0][:120]))
        traceback.print_exc()


def run_isolated(fn, args, timeout):
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    p = ctx.Process(target=_child, args=(q, fn, args))
    p.start()
    try:
        status, value = q.get(timeout=timeout + 120)  # the filter stops itself at `timeout`
    except queue.Empty:
        status, value = "timeout", f"did not finish in {timeout + 120:.0f} s"
    p.join(5)
    if p.is_alive():
        p.terminate()
    return status, value


def big(n, threads, timeout, d=D, rtol=None):
    """lobpcg-chebyshev once at n nodes and rank d: every iteration printed, then the complement probe.

    ``rtol``: the solver's tolerance (``‖Lv − θv‖ ≤ rtol · θ_max``; the library's ``LOBPCG_RTOL`` if None).
    """
    _use_threads(threads)
    from threadpoolctl import threadpool_limits

    import graphsel_lib as gs
    from graphsel_lib import spectral

    t = time.perf_counter()
    g = _graph(n)
    L = gs.laplacian(g.adjacency).tocsr()
    print(f"  graph: {g.n_nodes:,} nodes, {g.n_edges:,} edges, {time.perf_counter() - t:.1f} s")
    t0 = time.perf_counter()

    timer, spent, _ = _phase_timer()
    first = {}

    def progress(it, theta, res):
        rel = float(np.max(res[:d] / theta[:d]))
        for level in (1e-4, 1e-6, 1e-8):
            if rel <= level and level not in first:
                first[level] = time.perf_counter() - t0
        phases = ", ".join(f"{k} {v:.0f}" for k, v in spent.items())
        print(f"  it {it:3d}  {time.perf_counter() - t0:7.1f} s  max rel. residual {rel:.1e}  "
              f"peak {_peak_mb() / 1024:.1f} GiB  (s so far: {phases})")  # fmt: skip
        if time.perf_counter() - t0 > timeout:
            raise TimeoutError(f"stopped after {timeout} s at iteration {it}: residual {rel:.1e}")

    with threadpool_limits(limits=threads):
        kw = {} if rtol is None else {"rtol": rtol}
        w, V, info = spectral._lobpcg_chebyshev(L, d, 0, callback=progress, timer=timer, **kw)
        t_solve = time.perf_counter() - t0
        (mu, _), t_probe = _timed(spectral.complement_probe, L, V[:, 1:], seed=1)
    lam, V = w[1:], V[:, 1:]
    rel = _rel_residual(L, V, lam)
    print(f"  n = {g.n_nodes:,}, d = {d}: lobpcg-chebyshev {t_solve:.1f} s ({info['iterations']} iterations), probe "
          f"{t_probe:.1f} s ({mu:.6f} {'>=' if mu >= lam[-1] - 1e-8 else '<'} sigma_d = {lam[-1]:.6f}), "
          f"max rel. residual {rel:.1e}, peak {_peak_mb() / 1024:.1f} GiB")  # fmt: skip
    print(
        "  solver seconds until the largest relative residual ‖Lv − λv‖/λ of the d pairs was first below: "
        + ", ".join(f"{level:g}: {s:.1f} s" for level, s in sorted(first.items(), reverse=True))
    )
    print(
        f"  lambda_1 = {lam[0]:.6f}, sigma_d = {lam[-1]:.6f}; phases: "
        + ", ".join(f"{k} {v:.0f} s" for k, v in sorted(spent.items(), key=lambda kv: -kv[1]))
    )


def _phase_timer():
    """``timer(phase)``, a context manager that adds its time to ``spent[phase]``; and ``spent``."""
    from collections import defaultdict
    from contextlib import contextmanager

    spent, calls = defaultdict(float), defaultdict(int)

    @contextmanager
    def timer(phase):
        t = time.perf_counter()
        try:
            yield
        finally:
            spent[phase] += time.perf_counter() - t
            calls[phase] += 1

    return timer, spent, calls


def profile(n, threads, degree=None, guard=None):
    """One ``spectral_embedding(sbm(n), d=100, method="lobpcg-chebyshev", cache=False)``, timed by phase."""
    _use_threads(threads)
    from threadpoolctl import threadpool_limits

    import graphsel_lib as gs
    from graphsel_lib import spectral

    timer, spent, calls = _phase_timer()

    def timed(name, fn):
        def run(*a, **k):
            with timer(name):
                return fn(*a, **k)

        return run

    def solver(L, d, seed, **kw):
        with timer("solver total"):
            m = degree or spectral.CHEBYSHEV_DEGREE
            return cheb(L, d, seed, timer=timer, degree=m, guard=guard, **kw)

    cheb = spectral._lobpcg_chebyshev
    t = time.perf_counter()
    g = _graph(n)
    print(f"  graph: {g.n_nodes:,} nodes, {g.n_edges:,} edges, {time.perf_counter() - t:.1f} s")
    spectral._SOLVERS["lobpcg-chebyshev"] = solver
    for name in ("laplacian", "complement_probe", "_check_and_fix", "_split_at_cut", "canonical_basis",
                 "check_adjacency", "weight_scale"):  # fmt: skip
        setattr(spectral, name, timed(name, getattr(spectral, name)))
    with threadpool_limits(limits=threads):
        emb, total = _timed(gs.spectral_embedding, g.adjacency, D, method="lobpcg-chebyshev", cache=False)
    print(f"  n = {g.n_nodes:,}, degree {emb.info['degree']}, block {emb.info['block']}: {total:.1f} s, "
          f"{emb.info['iterations']} iterations, "
          f"peak {_peak_mb() / 1024:.2f} GiB")  # fmt: skip
    for phase in sorted(spent, key=spent.get, reverse=True):
        share = 100 * spent[phase] / total
        print(f"  {phase:28s} {spent[phase]:8.1f} s  {share:5.1f} %  ({calls[phase]} calls)")


def _uptime():
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def _timed(fn, *a, **k):
    t = time.perf_counter()
    out = fn(*a, **k)
    return out, time.perf_counter() - t


def table(sizes, methods, threads, timeout, avg_degree=10):
    rows, ref = [], {}
    for n in sizes:
        for m in methods:
            status, r = run_isolated(task, (n, m, threads, timeout, avg_degree), timeout)
            if status != "ok":
                print(f"  n={n:>8,} {m:17s} {status}: {r}")
                continue
            lam = r.pop("eigenvalues")
            ref.setdefault(n, lam)
            r["dev"] = float(np.max(np.abs(lam / ref[n] - 1))) if lam.shape == ref[n].shape else np.nan
            rows.append({"method": m, **r})
            print(f"  n={r['nodes']:>8,} {m:17s} {r['seconds']:8.1f} s  it {str(r.get('iterations', '')):>4s}  "
                  f"rel. residual {r['residual']:.1e}  peak {r['peak_mb']:7.0f} MB  "
                  f"max |Δλ|/λ vs {methods[0] if n in ref else '-'} {r['dev']:.1e}"
                  + ("" if r.get("converged", True) else "  (NOT converged)"))  # fmt: skip
    print("\nseconds (rows: nodes asked; columns: methods) and the log-log slope of seconds against nodes:")
    for m in methods:
        pts = [(r["nodes"], r["seconds"]) for r in rows if r["method"] == m and r.get("converged", True)]
        line = "  ".join(f"{s:8.1f}" for _, s in pts)
        slope = f"slope {np.polyfit(*np.log10(np.array(pts).T), 1)[0]:.2f}" if len(pts) >= 2 else ""
        print(f"  {m:17s} {line}  {slope}")
    for n in sizes:
        here = {r["method"]: r["seconds"] for r in rows if r["n"] == n and r.get("converged", True)}
        if here:
            best = min(here, key=here.get)
            print(f"  n={n:>8,}: fastest {best}" + "".join(f"; {m} {s / here[best]:.2f}x" for m, s in here.items()
                                                            if m != best))  # fmt: skip


def datasets(names, d):
    import tempfile

    import scipy.linalg as sla
    import scipy.sparse.linalg as spla

    import graphsel_lib as gs

    for name in names.split(","):
        g = gs.load_dataset(name)
        S, n = g.adjacency, g.n_nodes
        print(f"\n{name}: n={n}, edges={g.n_edges}, d={d}")
        with tempfile.TemporaryDirectory() as cache:
            ours, t_cold = _timed(gs.spectral_embedding, S, d, cache_dir=cache)
            _, t_hot = _timed(gs.spectral_embedding, S, d, cache_dir=cache)
        print(f"  ours ({ours.method}) cold {t_cold:8.3f} s | cached {t_hot:6.3f} s")
        L = gs.laplacian(S)
        if n <= 5000:
            v0 = np.random.default_rng(0).standard_normal(n)
            (w, _), t_sm = _timed(spla.eigsh, L, k=d + 1, which="SM", v0=v0, tol=1e-10)
            print(
                f"  eigsh(which='SM')  {t_sm:8.3f} s | max |Δλ| {np.abs(np.sort(w)[1:] - ours.eigenvalues).max():.1e}"
            )
            (w, _), t_de = _timed(sla.eigh, L.toarray(), subset_by_index=[0, d], driver="evr")
            print(
                f"  dense eigh         {t_de:8.3f} s | max |Δλ| {np.abs(w[1:] - ours.eigenvalues).max():.1e}"
            )


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", type=int, nargs="*", default=[10_000, 20_000, 50_000, 100_000])
    p.add_argument("--methods", nargs="+",
                   default=["shift-invert", "lobpcg-chebyshev", "lobpcg-jacobi", "chebyshev-filter", "primme"])  # fmt: skip
    p.add_argument(
        "--shift-invert-max", type=int, default=20_000, help="largest n for shift-invert (LU fill-in)"
    )
    p.add_argument("--big", type=int, default=0)
    p.add_argument("--timeout", type=float, default=900)
    p.add_argument("--big-timeout", type=float, default=600)
    p.add_argument("--big-d", type=int, default=D, help="--big: eigenpairs (default 100)")
    p.add_argument(
        "--big-rtol", type=float, default=None, help="--big: solver tolerance (default: the library's)"
    )
    p.add_argument("--threads", type=int, default=2)
    p.add_argument(
        "--avg-degree", type=int, default=10, help="--sizes: expected mean degree (notebook 44: 20)"
    )
    p.add_argument("--datasets", default="")
    p.add_argument("--profile", type=int, nargs="*", default=[], help="sizes to profile by phase")
    p.add_argument("--degrees", type=int, nargs="*", default=[0], help="--profile: Chebyshev degrees")
    p.add_argument("--guards", type=int, nargs="*", default=[-1], help="--profile: guard vectors")
    args = p.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, numpy {np.__version__}; "
          f"{args.threads} BLAS/numba threads; {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")  # fmt: skip
    if args.datasets:
        return datasets(args.datasets, D)
    for n, m, g in ((n, m, g) for n in args.profile for m in args.degrees for g in args.guards):
        g = None if g < 0 else g
        print(f"\nprofile at n = {n:,} (degree {m or 'default'}, guard {g or 'default'}): {_uptime()}")
        status, r = run_isolated(profile, (n, args.threads, m, g), args.timeout)
        if status != "ok":
            print(f"  {status}: {r}")
    methods = list(args.methods)
    if "primme" in methods:
        try:
            import primme  # noqa: F401
        except ImportError:
            print("primme: not installed (pip offers only the source archive, no wheel): skipped")
            methods.remove("primme")
    small = [n for n in args.sizes if n <= args.shift_invert_max]
    if args.sizes:
        print(
            f"\nd = {D}, sbm(n, 10 blocks, avg degree {args.avg_degree}, mixing 0.2, seed 0); "
            f"timeout {args.timeout:.0f} s per run"
        )
        table(small, methods, args.threads, args.timeout, args.avg_degree)
        rest = [n for n in args.sizes if n > args.shift_invert_max]
        if rest:
            table(
                rest, [m for m in methods if m != "shift-invert"], args.threads, args.timeout, args.avg_degree
            )
    if args.big:
        print(
            f"\nthe {args.big:,}-node line: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}"
        )
        status, r = run_isolated(
            big, (args.big, args.threads, args.big_timeout, args.big_d, args.big_rtol), args.big_timeout + 600
        )
        if status != "ok":
            print(f"  {status}: {r}")
        print(f"  after: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")


if __name__ == "__main__":
    sys.exit(main())
