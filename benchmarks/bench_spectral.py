"""Benchmark: our spectral embedding vs scipy eigsh(which="SM") and dense eigh; cold vs cached.

Run: python benchmarks/bench_spectral.py [--d 100] [--datasets cora,pubmed]
Prints wall times measured side by side in one run and their ratios.
"""

import argparse
import functools
import os
import platform
import tempfile
import time

import numpy as np
import scipy.linalg as sla
import scipy.sparse.linalg as spla

import graphsel_lib as gs

print = functools.partial(print, flush=True)  # noqa: A001 - progress while it runs


def timed(fn, *a, **k):
    t = time.perf_counter()
    out = fn(*a, **k)
    return out, time.perf_counter() - t


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--d", type=int, default=100)
    p.add_argument("--datasets", default="coauthor,cora,pubmed")
    p.add_argument(
        "--eigsh-sm-max-nodes",
        type=int,
        default=5000,
        help="skip eigsh(which='SM') above this size (it needs thousands of Lanczos restarts)",
    )
    p.add_argument(
        "--dense-max-nodes",
        type=int,
        default=5000,
        help="skip dense eigh above this size (PubMed: 3 GB and many minutes)",
    )
    args = p.parse_args()
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"numpy {np.__version__}"
    )
    for name in args.datasets.split(","):
        g = gs.load_dataset(name)
        S, n, d = g.adjacency, g.n_nodes, args.d
        print(f"\n{name}: n={n}, edges={g.n_edges}, d={d}")
        with tempfile.TemporaryDirectory() as cache:
            ours, t_cold = timed(gs.spectral_embedding, S, d, cache_dir=cache)
            _, t_hot = timed(gs.spectral_embedding, S, d, cache_dir=cache)
        print(
            f"  ours ({ours.method}) cold {t_cold:8.3f} s | cached {t_hot:6.3f} s | cold/cached {t_cold / t_hot:7.1f}x"
        )
        L = gs.laplacian(S)
        if n <= args.eigsh_sm_max_nodes:
            v0 = np.random.default_rng(0).standard_normal(n)
            (w, _), t_sm = timed(spla.eigsh, L, k=d + 1, which="SM", v0=v0, tol=1e-10)
            err = np.abs(np.sort(w)[1:] - ours.eigenvalues).max()
            print(
                f"  eigsh(which='SM')  {t_sm:8.3f} s | ratio SM/ours {t_sm / t_cold:7.1f}x | max |Δλ| {err:.1e}"
            )
        else:
            print(f"  eigsh(which='SM')  skipped (n > {args.eigsh_sm_max_nodes})")
        if n <= args.dense_max_nodes:
            (w, _), t_de = timed(sla.eigh, L.toarray(), subset_by_index=[0, d], driver="evr")
            err = np.abs(w[1:] - ours.eigenvalues).max()
            print(
                f"  dense eigh         {t_de:8.3f} s | ratio dense/ours {t_de / t_cold:7.1f}x | max |Δλ| {err:.1e}"
            )
        else:
            print(f"  dense eigh         skipped (n > {args.dense_max_nodes})")


if __name__ == "__main__":
    main()
