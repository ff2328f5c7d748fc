"""Same numbers on any machine: the embedding does not depend on the solver, its start or the BLAS threads.

A rank that cuts a repeated eigenvalue (the political blogs at d = 100 keep 14
of the 50 copies of the eigenvalue 1; Cora at d = 500 keeps 76 of 82) used to
keep whatever subspace the solver returned. The canonical basis makes ``M`` a
function of the graph alone. What remains is rounding amplified by the
conditioning of close, *distinct* eigenvalues (an eigenvector is determined to
about ε‖L‖/gap): the political blogs have two eigenvalues 2.8e-5 apart, which
leaves differences of about 1e-10 between thread counts, hence the tolerance.
"""

import os
import subprocess
import sys
import warnings

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

import graphsel_lib as gs
from graphsel_lib import eigensolvers, spectral

TOL = 1e-9  # on M, whose entries reach about 2 on these graphs


def _embed(S, d, *, method, seed=0, threads=1):
    with threadpool_limits(threads), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the split warning and the Krylov fallback's
        return gs.spectral_embedding(S, d, method=method, seed=seed, cache=False)


def _evd(L, d, seed):
    """Another LAPACK algorithm (divide and conquer), which returns another basis of a repeated eigenvalue."""
    import scipy.linalg as sla

    w, V = sla.eigh(L.toarray(), driver="evd")
    return w[: d + 1], V[:, : d + 1]


def _rotated(solver):
    """``solver``'s pairs with every eigenspace's basis mixed by a random rotation: another solver's answer."""

    def solve(L, d, seed):
        w, V = solver(L, d, seed)
        rng = np.random.default_rng(1234 + d)
        V = V.copy()
        for s, e in spectral._groups(np.asarray(w)):
            V[:, s:e] = V[:, s:e] @ np.linalg.qr(rng.standard_normal((e - s, e - s)))[0]
        return w, V

    return solve


@pytest.mark.slow
@pytest.mark.parametrize("name, d", [("polblogs", 100), ("cora", 500)])
def test_the_embedding_is_the_same_whatever_solver_start_or_threads(name, d, monkeypatch):
    S = gs.load_dataset(name).adjacency
    ref = _embed(S, d, method="dense")
    assert ref.info["split"] is not None  # the rank cuts a repeated eigenvalue: the hard case
    runs = {
        "dense, 2 threads": _embed(S, d, method="dense", threads=2),
        "shift-invert, start 0": _embed(S, d, method="shift-invert", seed=0),
        "shift-invert, start 1, 2 threads": _embed(S, d, method="shift-invert", seed=1, threads=2),
    }
    monkeypatch.setitem(spectral._SOLVERS, "dense", _evd)
    runs["LAPACK divide and conquer"] = _embed(S, d, method="dense")
    monkeypatch.setitem(spectral._SOLVERS, "dense", _rotated(eigensolvers._dense))
    runs["rotated eigenspaces"] = _embed(S, d, method="dense")
    for what, emb in runs.items():
        assert emb.info["split"][1:] == ref.info["split"][1:], what
        assert np.abs(emb.M - ref.M).max() < TOL, what


def test_a_rotated_basis_gives_the_same_embedding_on_a_small_graph(monkeypatch):
    """The same check without real data: a cycle (every eigenvalue but one double) cut inside a pair."""
    n = 30
    i = np.arange(n)
    S = np.zeros((n, n))
    S[i, (i + 1) % n] = S[(i + 1) % n, i] = 1.0
    ref = _embed(S, 5, method="dense")
    assert ref.info["split"][1:] == (1, 2)
    monkeypatch.setitem(spectral._SOLVERS, "dense", _rotated(eigensolvers._dense))
    np.testing.assert_allclose(_embed(S, 5, method="dense").M, ref.M, atol=1e-12)
    np.testing.assert_allclose(_embed(S, 5, method="shift-invert", seed=3).M, ref.M, atol=1e-10)


@pytest.mark.slow
def test_another_blas_kernel_family_gives_the_same_embedding(tmp_path):
    """OpenBLAS picks its kernels by CPU; OPENBLAS_CORETYPE forces another family (ignored by other BLAS)."""
    code = (
        "import sys, warnings, numpy as np, graphsel_lib as gs; warnings.simplefilter('ignore');"
        "S = gs.load_dataset('polblogs').adjacency;"
        "np.save(sys.argv[1], gs.spectral_embedding(S, 100, method='dense', cache=False).M)"
    )
    out = {}
    for core in ("", "Sandybridge"):  # the machine's own kernels (SkylakeX here), then Sandy Bridge's
        env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_CORETYPE"}
        if core:
            env["OPENBLAS_CORETYPE"] = core
        path = tmp_path / f"M{core}.npy"
        subprocess.run([sys.executable, "-c", code, str(path)], env=env, check=True, timeout=300)
        out[core] = np.load(path)
    assert np.abs(out[""] - out["Sandybridge"]).max() < TOL
