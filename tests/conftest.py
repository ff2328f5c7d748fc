"""Shared fixtures: small random graphs with a fixed seed."""

import matplotlib

matplotlib.use("agg")

import networkx as nx  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import scipy.sparse as sp  # noqa: E402


def random_connected_graph(rng, n, p=0.2, weighted=True):
    """A connected random graph: a random spanning tree plus Erdős–Rényi edges.

    Weights are uniform in [0.1, 2] when ``weighted`` (else all ones).
    Returns a symmetric CSR matrix with a zero diagonal.
    """
    perm = rng.permutation(n)
    rows = [perm[i] for i in range(1, n)]
    cols = [perm[rng.integers(0, i)] for i in range(1, n)]
    extra = np.argwhere(np.triu(rng.random((n, n)) < p, k=1))
    r = np.concatenate([rows, extra[:, 0]]).astype(int)
    c = np.concatenate([cols, extra[:, 1]]).astype(int)
    w = rng.uniform(0.1, 2.0, size=r.size) if weighted else np.ones(r.size)
    S = sp.coo_matrix((w, (r, c)), shape=(n, n)).tocsr()
    S = S.maximum(S.T).tocsr()  # symmetrise
    S.setdiag(0)
    S.eliminate_zeros()
    if not weighted:
        S.data[:] = 1.0  # repeated draws of one edge were summed
    assert nx.is_connected(nx.from_scipy_sparse_array(S))
    return S.tocsr()


@pytest.fixture(scope="session")
def smoke_run(tmp_path_factory):
    """Run every notebook once in the smoke profile; shared by the pipeline, the book and the any-seed tests.

    The chapters 00-13 and their solutions run with ``seed = 1`` (a student's other seed: only claims made
    for every run are asserted there, and in the smoke profile no number quoted from the default run is),
    the paper notebooks with their own seed. One run of each notebook serves the three tests.

    Returns ``(build_dir, figures_dir, exit_status, source_bytes_before)``.
    """
    from graphsel_lib.collection import reproduce
    from graphsel_lib.paths import project_root

    notebooks = sorted((project_root() / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    before = {p: p.read_bytes() for p in notebooks}
    tmp = tmp_path_factory.mktemp("smoke")
    build, figures = tmp / "build", tmp / "figures"
    # two notebooks at once, each on one BLAS thread: 183 s for the 46 smoke runs against 228 s with two
    # BLAS threads each (idle 2-core machine, 2026-11-28); nothing of the smoke profile is committed
    common = ["--profile", "smoke", "--build-dir", str(build), "--figures-dir", str(figures), "--jobs", "2"]
    common += ["--blas-threads", "1"]
    seed = ["--seed", str(SMOKE_CHAPTER_SEED)]
    chapters = reproduce.main([*common, *seed, "--only", "0[0-9]_*", "--only", "1[0-3]_*"])
    papers = reproduce.main([*common, "--only", "[2-9][0-9]_*"])
    return build, figures, max(chapters, papers), before


#: The seed the smoke pipeline gives the chapters and solutions (not the default 0).
SMOKE_CHAPTER_SEED = 1


@pytest.fixture
def figures(tmp_path, monkeypatch):
    """A figures folder of the test's own (``$GRAPHSEL_FIGURES``): nothing is written to the committed one."""
    monkeypatch.setenv("GRAPHSEL_FIGURES", str(tmp_path))
    return tmp_path


def written_files(write, folder):
    """``{file name: bytes}`` of what ``write()`` writes with ``folder`` (created) as ``$GRAPHSEL_FIGURES``.

    The variable is set only while ``write`` runs, so a test may compare two writers on one result.
    """
    folder.mkdir(parents=True)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GRAPHSEL_FIGURES", str(folder))
        write()
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def assert_writes_as(result, old, name, folder):
    """``result.write()`` writes ``NAME.csv`` and ``NAME.md`` only, byte for byte what ``old(result)`` writes.

    ``old``: the writer the result's table fields replace (the reference); both write into subfolders of ``folder``.
    """
    new = written_files(result.write, folder / "new")
    assert list(new) == [f"{name}.csv", f"{name}.md"], list(new)
    assert new == written_files(lambda: old(result), folder / "old")


def committed_rows(name):
    """The rows of the committed ``figures/<name>.csv`` as dicts of strings (the test is skipped if it is missing)."""
    import csv

    from graphsel_lib.paths import project_root

    path = project_root() / "figures" / f"{name}.csv"
    if not path.is_file():
        pytest.skip(f"{path} not written yet")
    with open(path, encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@pytest.fixture
def rng():
    return np.random.default_rng(12345)


@pytest.fixture
def random_graphs():
    """Twenty-five random connected graphs, weighted and unweighted, 5 to 60 nodes."""
    rng = np.random.default_rng(2026)
    graphs = []
    for i in range(25):
        n = int(rng.integers(5, 61))
        graphs.append(random_connected_graph(rng, n, p=float(rng.uniform(0.02, 0.4)), weighted=i % 2 == 0))
    return graphs


# --------------------------------------------------------------------------- online learner helpers


def dense_embedding(S, d):
    """``M = diag(σ^{-1/2}) Vᵀ`` from a dense eigh of ``L = D - S`` (d smallest non-zero pairs)."""
    S = sp.csr_matrix(S).toarray()
    L = np.diag(S.sum(1)) - S
    sigma, V = np.linalg.eigh(L)
    return V[:, 1 : d + 1].T / np.sqrt(sigma[1 : d + 1])[:, None]


def smooth_labels(M, rng, n_classes, flip=0.1):
    """Classes from quantiles of the first coordinate (the Fiedler direction), ``flip`` of them random."""
    f = M[0] + 0.3 * M[min(1, M.shape[0] - 1)]
    y = np.searchsorted(np.quantile(f, np.linspace(0, 1, n_classes + 1)[1:-1]), f)
    noisy = rng.random(y.size) < flip
    y[noisy] = rng.integers(0, n_classes, noisy.sum())
    return y


def assert_same_trace(fast, slow, *, rtol=1e-8):
    np.testing.assert_array_equal(fast.order, slow.order)
    np.testing.assert_array_equal(fast.predictions, slow.predictions)
    np.testing.assert_array_equal(fast.mistakes, slow.mistakes)
    np.testing.assert_array_equal(fast.queried, slow.queried)
    scale = max(1.0, float(np.abs(slow.scores).max()))
    np.testing.assert_allclose(fast.scores, slow.scores, rtol=rtol, atol=rtol * scale)
