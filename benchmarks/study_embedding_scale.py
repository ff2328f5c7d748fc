"""Study: the 100 smallest non-zero Laplacian eigenpairs of the degree-corrected block model at scale.

Run: python benchmarks/study_embedding_scale.py [--parts solvers large localization approx]
        [--sizes 2000 5000 10000 20000] [--methods shift-invert lobpcg lobpcg-jacobi]
        [--large-sizes 100000 1000000] [--large-maxiter 1000]
        [--loc-size 10000] [--approx-sizes 10000 30000] [--timeout 900] [--smoke]

Graph: ``gs.datasets.sbm(n, n_blocks=10, avg_degree=20, mixing=0.2, seed=0)``;
d = 100. Every solver run is in a fresh process (its peak memory is its own);
BLAS is limited to one thread. Prints three tables:

1. ``solvers``: per size and method, seconds split into phases (shift-invert:
   sparse LU, Lanczos, Sylvester inertia count; lobpcg (pyamg): AMG setup,
   LOBPCG, inertia count; lobpcg-jacobi: LOBPCG, then the inertia count and
   the complement probe that replaces it above 2·10^4 nodes), iterations, the
   largest residual ``‖Lv − λv‖`` and the peak memory; then the log-log slope
   of the time between the two largest sizes.
1b. ``large`` (not in the default parts): lobpcg-jacobi alone at
   ``--large-sizes``, optionally capped at ``--large-maxiter`` iterations to
   measure the cost of one iteration where the whole run is too long.
2. ``localization``: why the combinatorial-Laplacian features are weak on
   this heavy-tailed graph: range of the eigenvalues, inverse participation
   ratio ``IPR = Σ v_i⁴`` of the eigenvectors (1/IPR ≈ the number of nodes
   carrying the vector), the degrees of the nodes that carry them, and the
   share of the class signal (centred class indicators) that the 100
   eigenvectors capture, next to the Rayleigh quotient of that signal.
3. ``approx``: online error of ``OneVsRest(OLLGC(mu=1))`` and
   ``MSG(gamma=1, h=1e-3)`` on ``add_bias(M, 1)`` (one full pass, seed 0) for
   the exact embedding and cheaper ones (lobpcg-jacobi stopped at a looser
   relative tolerance or after a fixed number of iterations; fewer pairs d'),
   with solver seconds, the largest relative residual ``‖Lv − θv‖/θ`` and the
   sine of the largest principal angle to the exact subspace; and the
   relaxation learner (push, β = 0.1 n, ε = 1e-4) on the same graph.

``--smoke`` runs everything on small sizes in about a minute.
"""

import argparse
import functools
import multiprocessing as mp
import os
import time

for _k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_k] = "1"

import numpy as np  # noqa: E402
from bench_scale import _graph, _peak_mb  # noqa: E402 - the same graph and memory reading as bench_scale

print = functools.partial(print, flush=True)  # noqa: A001 - progress while it runs
D = 100


def _timed(fn, *a, **k):
    t = time.perf_counter()
    out = fn(*a, **k)
    return out, time.perf_counter() - t


# --------------------------------------------------------------------------- 1. solvers
def task_solver(n, method):
    """One solver on sbm(n), timed by phase (the phases mirror graphsel_lib.spectral)."""
    import warnings

    import scipy.sparse as sp
    import scipy.sparse.linalg as spla

    import graphsel_lib as gs
    from graphsel_lib import spectral

    L = gs.laplacian(_graph(n).adjacency)
    n, d, ph, iters = L.shape[0], min(D, L.shape[0] - 2), {}, ""
    if method == "shift-invert":
        sigma = -1e-3 * float(L.diagonal().mean())
        lu, ph["LU"] = _timed(spla.splu, (L - sigma * sp.identity(n)).tocsc(), permc_spec="MMD_AT_PLUS_A")
        iters = f"LU nnz {(lu.L.nnz + lu.U.nnz) / 1e6:.1f}M"
        op = spla.LinearOperator((n, n), matvec=lu.solve, dtype=np.float64)
        v0 = np.random.default_rng(0).standard_normal(n)
        (w, V), ph["Lanczos"] = _timed(
            spla.eigsh,
            L,
            k=d + 1,
            sigma=sigma,
            which="LM",
            v0=v0,
            ncv=max(2 * d + 3, d + 33),
            tol=0,
            OPinv=op,
        )
    elif method == "lobpcg":
        import pyamg

        A = (L + 1e-6 * float(L.diagonal().mean()) * sp.identity(n)).tocsr()
        ml, ph["AMG setup"] = _timed(pyamg.smoothed_aggregation_solver, A)
        Y = np.full((n, 1), 1 / np.sqrt(n))
        X = np.random.default_rng(0).standard_normal((n, d))
        X -= Y @ (Y.T @ X)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            (w, V, hist), ph["LOBPCG"] = _timed(
                spla.lobpcg,
                L,
                X,
                M=ml.aspreconditioner(),
                Y=Y,
                largest=False,
                tol=1e-9,
                maxiter=2000,
                retResidualNormsHistory=True,
            )
        iters = f"{len(hist)} it"
        w, V = np.concatenate([[0.0], w]), np.hstack([Y, V])
    else:
        (w, V, info), ph["LOBPCG"] = _timed(spectral._lobpcg_jacobi, L, d, 0)
        iters = f"{info['iterations']} it, block {info['block']}"
        (mu, _), ph["probe"] = _timed(spectral.complement_probe, L, V[:, 1:], seed=1)
        iters += f", probe {mu:.6f} {'>=' if mu >= w.max() - 1e-8 else '<'} sigma_d"
    if n <= 20_000:
        ok, ph["inertia"] = _timed(spectral._none_missing, L, w)
        iters += f", inertia {'ok' if ok else 'MISSED'}"
    order = np.argsort(w)
    w, V = w[order][1:], V[:, order][:, 1:]
    res = float(np.linalg.norm(L @ V - V * w, axis=0).max())
    return dict(
        n=n, phases=ph, extra=iters, residual=res, lam2=float(w[0]), lamd=float(w[-1]), peak=_peak_mb()
    )


def part_solvers(sizes, methods, timeout):
    print(f"\n1. solvers on sbm(n), d = {D}: seconds by phase, one BLAS thread, fresh process each")
    times = {}
    for method in methods:
        for n in sizes:
            r = _fresh(task_solver, n, method, timeout=timeout)
            if r is None:
                print(f"   {method:13s} n = {n:>7,}: did not finish in {timeout:.0f} s")
                continue
            total = sum(r["phases"].values())
            checks = r["phases"].get("inertia", 0.0) + r["phases"].get("probe", 0.0)
            times.setdefault(method, {})[n] = (total, total - checks)
            phases = ", ".join(f"{k} {v:.1f}" for k, v in r["phases"].items())
            print(
                f"   {method:13s} n = {r['n']:>7,}: {total:7.1f} s ({phases}; {r['extra']}), "
                f"max residual {r['residual']:.1e}, lambda_2 {r['lam2']:.4f}, lambda_d {r['lamd']:.4f}, "
                f"peak {r['peak']:,.0f} MB"
            )
    for method, t in times.items():
        if len(t) >= 2:
            (n1, t1), (n2, t2) = sorted(t.items())[-2:]
            slope = [np.log(b / a) / np.log(n2 / n1) for a, b in zip(t1, t2, strict=True)]
            print(
                f"   {method}: log-log slope of the time between n = {n1:,} and {n2:,}: "
                f"{slope[0]:.2f} in all, {slope[1]:.2f} without the checks (inertia count, probe)"
            )


def task_large(n, maxiter):
    """lobpcg-jacobi alone (no inertia count), optionally capped at ``maxiter`` iterations."""
    import graphsel_lib as gs
    from graphsel_lib import spectral

    (g, t_gen) = _timed(_graph, n)
    L = gs.laplacian(g.adjacency)
    (w, V, info), sec = _timed(spectral._lobpcg_jacobi, L, D, 0, maxiter=maxiter)
    return dict(n=L.shape[0], sec=sec, gen=t_gen, info=info, lamd=float(w[-1]), peak=_peak_mb())


def part_large(sizes, maxiter, timeout):
    cap = f", capped at {maxiter} iterations" if maxiter < 1000 else ""
    print(f"\n1b. lobpcg-jacobi alone on large sbm(n), d = {D}{cap}, one BLAS thread")
    for n in sizes:
        r = _fresh(task_large, n, maxiter, timeout=timeout)
        if r is None:
            print(f"   n = {n:>9,}: did not finish in {timeout:.0f} s")
            continue
        i = r["info"]
        print(
            f"   n = {r['n']:>9,}: {r['sec']:7.1f} s for {i['iterations']} iterations "
            f"({r['sec'] / max(i['iterations'], 1):.1f} s each, block {i['block']}), "
            f"max residual {i['max_residual']:.1e}, lambda_d {r['lamd']:.6f}, peak {r['peak']:,.0f} MB "
            f"(generator {r['gen']:.1f} s)"
        )


# --------------------------------------------------------------------------- 2. localization
def task_localization(n):
    import graphsel_lib as gs

    g = _graph(n)
    emb = gs.spectral_embedding(g.adjacency, D, cache=False)
    V, lam = emb.eigenvectors, emb.eigenvalues
    ipr = np.sum(V**4, axis=0)
    deg = np.asarray(g.adjacency.sum(axis=1)).ravel()
    carrier = np.argmax(np.abs(V), axis=0)  # the node with the largest entry
    Yc = np.eye(g.n_classes)[g.labels]
    Yc -= Yc.mean(axis=0)  # centred class indicators: the class signal
    L = gs.laplacian(g.adjacency)
    captured = np.sum((V.T @ Yc) ** 2, axis=0) / np.sum(Yc**2, axis=0)
    rayleigh = np.sum(Yc * (L @ Yc), axis=0) / np.sum(Yc**2, axis=0)
    return dict(
        n=g.n_nodes,
        method=emb.method,
        lam=lam,
        ipr=ipr,
        carrier_deg=deg[carrier],
        captured=captured,
        rayleigh=rayleigh,
        mean_deg=float(deg.mean()),
        pendant=int(np.sum(deg == 1)),
    )


def part_localization(n):
    r = _fresh(task_localization, n)
    lam, ipr, cd = r["lam"], r["ipr"], r["carrier_deg"]
    print(f"\n2. localization of the {D} smallest non-zero eigenpairs, sbm n = {r['n']:,} ({r['method']})")
    print(
        f"   eigenvalues {lam[0]:.3f} ... {lam[-1]:.3f}; mean degree {r['mean_deg']:.1f}, {r['pendant']} degree-1 nodes"
    )
    for lo, hi in ((0, 10), (0, D)):
        sel = slice(lo, hi)
        print(
            f"   eigenvectors {lo + 1}-{hi}: IPR median {np.median(ipr[sel]):.2f} (min {ipr[sel].min():.2f}), "
            f"1/IPR median {np.median(1 / ipr[sel]):.1f} nodes; "
            f"share with 1/IPR <= 5 nodes: {np.mean(1 / ipr[sel] <= 5):.0%}; "
            f"degree of the largest entry: median {np.median(cd[sel]):.0f}"
        )
    print(
        f"   class signal captured by the {D} eigenvectors: {np.mean(r['captured']):.2%} on average "
        f"(max {np.max(r['captured']):.2%}); Rayleigh quotient of the class signal "
        f"{np.mean(r['rayleigh']):.2f} vs lambda_d = {lam[-1]:.2f}"
    )


# --------------------------------------------------------------------------- 3. approximate embeddings
def _errors(g, vals, vecs):
    import graphsel_lib as gs
    from graphsel_lib import online as ol

    M = gs.add_bias((vecs / np.sqrt(vals)).T, 1.0)
    e1 = ol.run(ol.OneVsRest(lambda: ol.OLLGC(mu=1.0)), M, g.labels, seed=0).error_rate
    e2 = ol.run(ol.MSG(gamma=1.0, h=1e-3, seed=0), M, g.labels, seed=0).error_rate
    return e1, e2


def _sin_angle(V, W):
    """Sine of the largest principal angle between span(V) and the first columns of span(W)."""
    s = np.linalg.svd(V.T @ W[:, : V.shape[1]], compute_uv=False)
    return float(np.sqrt(max(0.0, 1.0 - s.min() ** 2)))


def task_approx(n):
    import graphsel_lib as gs
    from graphsel_lib import online as ol
    from graphsel_lib import spectral

    g = _graph(n)
    L = gs.laplacian(g.adjacency)
    rows = []

    def add(name, run):
        (vals, vecs, info), sec = _timed(run)
        vals, vecs = vals[1:], vecs[:, 1:]  # drop the null pair
        rel = float((np.linalg.norm(L @ vecs - vecs * vals, axis=0) / vals).max())
        rows.append(dict(name=name, sec=sec, rel=rel, vals=vals, vecs=vecs, it=info.get("iterations")))

    add("exact (rtol 1e-8)", lambda: spectral._lobpcg_jacobi(L, D, 0))
    for rtol in (1e-6, 1e-4, 1e-3, 1e-2, 1e-1):
        add(f"rtol {rtol:g}", functools.partial(spectral._lobpcg_jacobi, L, D, 0, rtol=rtol))
    for it in (3, 10):
        add(f"{it} iterations", functools.partial(spectral._lobpcg_jacobi, L, D, 0, maxiter=it))
    for dd in (10, 25, 50):
        add(f"d' = {dd} (exact)", functools.partial(spectral._lobpcg_jacobi, L, dd, 0))
    exact = rows[0]["vecs"]
    out = []
    for r in rows:
        e1, e2 = _errors(g, r["vals"], r["vecs"])
        out.append(
            dict(
                name=r["name"],
                sec=r["sec"],
                rel=r["rel"],
                it=r["it"],
                sin=_sin_angle(r["vecs"], exact),
                ollgc=e1,
                msg=e2,
            )
        )
    relax = ol.Relaxation(g.adjacency, beta=0.1 * g.n_nodes, kernel="push", eps=1e-4)
    (tr, sec) = _timed(ol.run, relax, ol.node_ids(g.n_nodes), g.labels, seed=0)
    return dict(n=g.n_nodes, rows=out, relax=tr.error_rate, relax_sec=sec, peak=_peak_mb())


def part_approx(sizes, timeout):
    for n in sizes:
        r = _fresh(task_approx, n, timeout=timeout)
        if r is None:
            print(f"\n3. approximate embeddings, sbm n = {n:,}: did not finish in {timeout:.0f} s")
            continue
        print(f"\n3. approximate embeddings, sbm n = {r['n']:,}, d = {D} + bias (one full pass, seed 0)")
        print(
            f"   {'embedding':18s} {'solver s':>8s} {'iter':>5s} {'max |Lv-θv|/θ':>14s} {'sin angle':>9s} {'OLLGC err':>9s} {'MSG err':>8s}"
        )
        ex = r["rows"][0]
        for row in r["rows"]:
            it = "" if row["it"] is None else str(row["it"])
            print(
                f"   {row['name']:18s} {row['sec']:8.1f} {it:>5s} {row['rel']:14.1e} {row['sin']:9.1e} "
                f"{row['ollgc']:9.4f} {row['msg']:8.4f}   (Δ {row['ollgc'] - ex['ollgc']:+.4f}, {row['msg'] - ex['msg']:+.4f})"
            )
        print(
            f"   relaxation (push, beta = 0.1 n, eps = 1e-4): error {r['relax']:.4f} ({r['relax_sec']:.1f} s); peak {r['peak']:,.0f} MB"
        )


# --------------------------------------------------------------------------- main
def _fresh(fn, *args, timeout=None):
    with mp.get_context("spawn").Pool(1) as pool:
        res = pool.apply_async(fn, args)
        try:
            return res.get(timeout)
        except mp.TimeoutError:
            pool.terminate()
            return None


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--parts", nargs="+", default=["solvers", "localization", "approx"])
    p.add_argument("--sizes", type=int, nargs="+", default=[2000, 5000, 10_000, 20_000])
    p.add_argument("--methods", nargs="+", default=["shift-invert", "lobpcg", "lobpcg-jacobi"])
    p.add_argument("--large-sizes", type=int, nargs="+", default=[100_000])
    p.add_argument("--large-maxiter", type=int, default=1000)
    p.add_argument("--loc-size", type=int, default=10_000)
    p.add_argument("--approx-sizes", type=int, nargs="+", default=[10_000, 30_000])
    p.add_argument("--timeout", type=float, default=900.0)
    p.add_argument("--smoke", action="store_true", help="small sizes only (about a minute)")
    a = p.parse_args()
    if a.smoke:
        a.sizes, a.loc_size, a.approx_sizes, a.large_sizes = [1500, 3000], 3000, [3000], [5000]
    if "solvers" in a.parts:
        part_solvers(a.sizes, a.methods, a.timeout)
    if "large" in a.parts:
        part_large(a.large_sizes, a.large_maxiter, a.timeout)
    if "localization" in a.parts:
        part_localization(a.loc_size)
    if "approx" in a.parts:
        part_approx(a.approx_sizes, a.timeout)


if __name__ == "__main__":
    main()
