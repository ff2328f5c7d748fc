"""Spectral embedding: exactness, truncation, solvers, cache."""

import warnings
from contextlib import contextmanager

import numpy as np
import pytest
import scipy.sparse as sp

import graphsel_lib as gs
from conftest import random_connected_graph


def test_full_rank_embedding_gives_pinv(random_graphs, tmp_path):
    for S in random_graphs:
        n = S.shape[0]
        emb = gs.spectral_embedding(S, n - 1, cache_dir=tmp_path)
        np.testing.assert_allclose(emb.M.T @ emb.M, np.linalg.pinv(gs.laplacian(S).toarray()), atol=1e-8)


def test_rank_d_truncation_matches_numpy(random_graphs, tmp_path):
    for S in random_graphs:
        n = S.shape[0]
        w, V = np.linalg.eigh(gs.laplacian(S).toarray())
        for d in {1, 2, max(1, n // 3), n - 2}:
            if d < 1:
                continue
            emb = gs.spectral_embedding(S, d, cache_dir=tmp_path)
            np.testing.assert_allclose(emb.eigenvalues, w[1 : d + 1], atol=1e-8)
            assert np.all(emb.eigenvalues > 0)
            # the kernel is basis-free except inside a degenerate eigenvalue at the cut
            if d == n - 2 or w[d + 1] - w[d] > 1e-6:
                Kd = (V[:, 1 : d + 1] / w[1 : d + 1]) @ V[:, 1 : d + 1].T
                np.testing.assert_allclose(emb.kernel(), Kd, atol=1e-8)
            assert emb.M.shape == (d, n)
            np.testing.assert_allclose(emb.M.sum(axis=1), 0, atol=1e-8)  # orthogonal to 1


def test_eckart_young_best_rank_d(random_graphs, tmp_path):
    """||L^+ - L_d^+||_2 = 1/σ_{d+1}: the truncation error is the first dropped term."""
    S = random_graphs[4]
    n = S.shape[0]
    full = gs.laplacian_pinv(S)
    emb = gs.spectral_embedding(S, n - 1, cache_dir=tmp_path)
    for d in (1, 3, n // 2):
        err = np.linalg.norm(full - emb.truncate(d).kernel(), 2)
        assert err == pytest.approx(1 / emb.eigenvalues[d], rel=1e-8)


@pytest.mark.parametrize("method", ["shift-invert", "lobpcg"])
def test_sparse_solvers_agree_with_dense(method, tmp_path):
    rng = np.random.default_rng(7)
    S = random_connected_graph(rng, 400, p=0.01)
    dense = gs.spectral_embedding(S, 12, method="dense", cache=False)
    other = gs.spectral_embedding(S, 12, method=method, cache=False)
    np.testing.assert_allclose(other.eigenvalues, dense.eigenvalues, rtol=1e-7)
    # same subspace: projector distance
    P1 = dense.eigenvectors @ dense.eigenvectors.T
    P2 = other.eigenvectors @ other.eigenvectors.T
    assert np.linalg.norm(P1 - P2, 2) < 1e-5


def test_deterministic_signs(random_graphs):
    """A simple eigenvalue's vector has the sign with g_j^T v > 0 (g_j the seeded reference vector)."""
    from graphsel_lib.spectral import _reference_vector

    S = random_graphs[2]
    a = gs.spectral_embedding(S, 5, cache=False)
    b = gs.spectral_embedding(S, 5, cache=False)
    np.testing.assert_array_equal(a.eigenvectors, b.eigenvectors)
    n = S.shape[0]
    for j in np.flatnonzero(np.diff(a.eigenvalues, prepend=-1, append=np.inf)[:-1] > 1e-6):
        assert _reference_vector(n, j) @ a.eigenvectors[:, j] > 0


def _rotate_within_eigenspaces(vals, vecs, rng):
    """Another orthonormal basis of every eigenspace (a random orthogonal mix inside each run of copies)."""
    from graphsel_lib.spectral import _groups

    out = vecs.copy()
    for s, e in _groups(vals):
        W = np.linalg.qr(rng.standard_normal((e - s, e - s)))[0]
        out[:, s:e] = vecs[:, s:e] @ W
    return out


def test_canonical_basis_depends_on_the_eigenspace_only():
    """Any basis of each eigenspace (K_6: 6 five times; C_8: three double eigenvalues) gives one answer."""
    from graphsel_lib.spectral import canonical_basis

    rng = np.random.default_rng(5)
    for S in (np.ones((6, 6)) - np.eye(6), _cycle(8).toarray(), _pendant_graph().toarray()):
        w, V = np.linalg.eigh(gs.laplacian(S).toarray())
        w, V = w[1:], V[:, 1:]
        ref = canonical_basis(w, V)
        for _ in range(3):
            other = canonical_basis(w, _rotate_within_eigenspaces(w, V, rng))
            np.testing.assert_allclose(other, ref, atol=1e-12)
        np.testing.assert_allclose(ref.T @ ref, np.eye(w.size), atol=1e-12)  # still orthonormal
        np.testing.assert_allclose(gs.laplacian(S) @ ref, ref * w, atol=1e-10)  # still eigenvectors


def test_canonical_basis_rejects_bad_input():
    from graphsel_lib.spectral import canonical_basis

    with pytest.raises(ValueError, match="ascending"):
        canonical_basis(np.array([2.0, 1.0]), np.eye(2))
    with pytest.raises(ValueError, match="shape"):
        canonical_basis(np.array([1.0, 2.0]), np.eye(3))


def test_a_split_rank_keeps_the_canonical_subspace_of_the_whole_eigenspace(tmp_path):
    """Rank d inside a run of copies keeps the first columns of the canonical basis of the whole run."""
    S = _pendant_graph()  # 38 copies of the eigenvalue 1
    w = np.linalg.eigvalsh(gs.laplacian(S).toarray())
    first = int(np.searchsorted(w, 1.0 - 1e-6)) - 1  # index, among the non-zero pairs, of the first copy
    whole, _ = _splits(lambda: gs.spectral_embedding(S, first + 38, method="dense", cache=False))
    for method in ("dense", "shift-invert", "lobpcg-jacobi"):
        part, caught = _splits(lambda m=method: gs.spectral_embedding(S, first + 9, method=m, cache=False))
        assert part.info["split"][1:] == (9, 38) and len(caught) == 1
        tol = 1e-9 if part.method != "lobpcg-jacobi" else 1e-5  # the block solver converges to a residual
        truncated, _ = _splits(lambda: whole.truncate(first + 9))
        np.testing.assert_allclose(part.M, truncated.M, atol=tol)


def test_cache_roundtrip_and_corruption(random_graphs, tmp_path):
    S = random_graphs[5]
    a = gs.spectral_embedding(S, 4, cache_dir=tmp_path)
    files = list(tmp_path.glob("*.npz"))
    assert len(files) == 1
    b = gs.spectral_embedding(S, 4, cache_dir=tmp_path)
    np.testing.assert_array_equal(a.eigenvectors, b.eigenvectors)
    # truncated file -> detected, recomputed, rewritten
    data = files[0].read_bytes()
    files[0].write_bytes(data[: len(data) // 2])
    with pytest.warns(RuntimeWarning, match="corrupted"):
        c = gs.spectral_embedding(S, 4, cache_dir=tmp_path)
    np.testing.assert_array_equal(a.eigenvectors, c.eigenvectors)
    # a flipped value with an intact zip container -> caught by the digest
    with np.load(files[0]) as z:
        fields = dict(z)
    fields["eigenvectors"] = fields["eigenvectors"].copy()
    fields["eigenvectors"][0, 0] += 1.0
    np.savez(files[0], **fields)
    with pytest.warns(RuntimeWarning, match="corrupted"):
        d = gs.spectral_embedding(S, 4, cache_dir=tmp_path)
    np.testing.assert_array_equal(a.eigenvectors, d.eigenvectors)
    assert not [p for p in tmp_path.iterdir() if ".tmp" in p.name]


def test_cache_key_depends_on_weights(tmp_path):
    rng = np.random.default_rng(3)
    S = random_connected_graph(rng, 30)
    T = S.copy()
    T.data = T.data * 2
    a = gs.spectral_embedding(S, 3, cache_dir=tmp_path)
    b = gs.spectral_embedding(T, 3, cache_dir=tmp_path)
    np.testing.assert_allclose(b.eigenvalues, 2 * a.eigenvalues)


@pytest.mark.parametrize("d", [0, -1, 10, 11])
def test_bad_rank_raises(d):
    S = np.ones((10, 10)) - np.eye(10)
    with pytest.raises(ValueError, match="rank d"):
        gs.spectral_embedding(S, d, cache=False)


def test_non_integer_rank_raises():
    with pytest.raises(TypeError, match="integer"):
        gs.spectral_embedding(np.ones((4, 4)) - np.eye(4), 2.5, cache=False)


def test_disconnected_raises():
    S = sp.block_diag([np.ones((3, 3)) - np.eye(3)] * 2)
    with pytest.raises(ValueError, match="disconnected"):
        gs.spectral_embedding(S, 2, cache=False)


def test_add_bias():
    M = np.arange(6.0).reshape(2, 3)
    X = gs.add_bias(M, b=4.0)
    assert X.shape == (3, 3)
    np.testing.assert_allclose(X.T @ X, M.T @ M + 4.0)
    with pytest.raises(ValueError, match="non-negative"):
        gs.add_bias(M, b=-1)


def test_inertia_count_matches_numpy(random_graphs):
    from graphsel_lib.spectral import count_eigenvalues_below

    for S in random_graphs[:10]:
        L = gs.laplacian(S)
        w = np.linalg.eigvalsh(L.toarray())
        for tau in (0.01, np.median(w) + 1e-3, w.max() + 1):
            assert count_eigenvalues_below(L, tau) == np.sum(w < tau)


def test_shift_invert_does_not_miss_repeated_eigenvalues():
    """Many pendant pairs make the eigenvalue 1 highly repeated; Lanczos alone can miss copies."""
    import networkx as nx

    G = nx.star_graph(60)  # centre 0 and 60 leaves: eigenvalue 1 with multiplicity 59
    G.add_edges_from((i, i + 1) for i in range(61, 100))
    G.add_edge(60, 61)
    S = nx.to_scipy_sparse_array(G, format="csr")
    n = S.shape[0]
    w = np.linalg.eigvalsh(gs.laplacian(S).toarray())
    d = int(np.searchsorted(w, 1.0 + 1e-6)) + 3  # cut just above the repeated block
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        emb = gs.spectral_embedding(S, d, method="shift-invert", cache=False)
    np.testing.assert_allclose(emb.eigenvalues, w[1 : d + 1], atol=1e-8)
    assert n > d


def test_unwritable_cache_warns_and_returns_the_embedding(random_graphs, tmp_path):
    S = random_graphs[5]
    truth = gs.spectral_embedding(S, 4, cache=False)
    blocker = tmp_path / "a_file"
    blocker.write_text("in the way")
    with pytest.warns(RuntimeWarning, match="not cached"):
        emb = gs.spectral_embedding(S, 4, cache_dir=blocker / "spectral")
    np.testing.assert_array_equal(truth.eigenvectors, emb.eigenvectors)


# --------------------------------------------------------------------------- lobpcg-jacobi
def _pendant_graph():
    """A star with 40 leaves (eigenvalue 1, multiplicity 38) joined to a random graph by a path."""
    import networkx as nx

    rng = np.random.default_rng(11)
    G = nx.star_graph(40)
    G.add_edges_from((i, j) for i, j in rng.integers(41, 200, size=(600, 2)) if i != j)
    G.add_edges_from((i, i + 1) for i in range(40, 199))  # a path through the rest: connected
    return nx.to_scipy_sparse_array(G, format="csr", dtype=float)


def test_lobpcg_jacobi_agrees_with_dense():
    rng = np.random.default_rng(7)
    S = random_connected_graph(rng, 400, p=0.01)
    dense = gs.spectral_embedding(S, 12, method="dense", cache=False)
    other = gs.spectral_embedding(S, 12, method="lobpcg-jacobi", cache=False)
    assert other.method == "lobpcg-jacobi" and other.info["check"] == "inertia"
    np.testing.assert_allclose(other.eigenvalues, dense.eigenvalues, atol=1e-8)
    P1 = dense.eigenvectors @ dense.eigenvectors.T
    P2 = other.eigenvectors @ other.eigenvectors.T
    assert np.linalg.norm(P1 - P2, 2) < 1e-6
    np.testing.assert_allclose(other.eigenvectors.T @ other.eigenvectors, np.eye(12), atol=1e-12)


def test_lobpcg_jacobi_finds_repeated_eigenvalues():
    S = _pendant_graph()
    w = np.linalg.eigvalsh(gs.laplacian(S).toarray())
    d = int(np.searchsorted(w, 1.0 + 1e-6)) + 2  # cut just above the 38 copies of 1
    assert np.sum(np.abs(w[1 : d + 1] - 1) < 1e-9) == 38
    emb = gs.spectral_embedding(S, d, method="lobpcg-jacobi", cache=False)
    np.testing.assert_allclose(emb.eigenvalues, w[1 : d + 1], atol=1e-8)
    # the same subspace when the cut is in a gap
    if w[d + 1] - w[d] > 1e-6:
        V = np.linalg.eigh(gs.laplacian(S).toarray())[1][:, 1 : d + 1]
        assert np.linalg.norm(V @ V.T - emb.eigenvectors @ emb.eigenvectors.T, 2) < 1e-6


def test_lobpcg_jacobi_is_deterministic():
    S = _pendant_graph()
    with pytest.warns(gs.SplitEigenvalueWarning):  # rank 10 keeps 9 of the 38 copies of 1
        a = gs.spectral_embedding(S, 10, method="lobpcg-jacobi", cache=False)
        b = gs.spectral_embedding(S, 10, method="lobpcg-jacobi", cache=False)
    np.testing.assert_array_equal(a.eigenvectors, b.eigenvectors)


@pytest.fixture
def size_limits_of_100(monkeypatch):
    """The solver's size limits scaled down so that the pendant graph counts as large: no shift-invert,
    no inertia count (the complement probe instead)."""
    from graphsel_lib import spectral

    monkeypatch.setattr(spectral, "SMALL_NODES", 10)
    monkeypatch.setattr(spectral, "SHIFT_INVERT_MAX_NODES", 100)
    monkeypatch.setattr(spectral, "INERTIA_MAX_NODES", 100)


def test_lobpcg_jacobi_probe_on_large_graphs(size_limits_of_100):
    """Above INERTIA_MAX_NODES the inertia count is replaced by the complement probe."""
    S = _pendant_graph()
    w = np.linalg.eigvalsh(gs.laplacian(S).toarray())
    with pytest.warns(gs.SplitEigenvalueWarning, match="at least 8 copies; 7 kept"):
        emb = gs.spectral_embedding(S, 8, method="lobpcg-jacobi", cache=False)
    assert emb.method == "lobpcg-jacobi" and emb.info["check"] == "probe"
    np.testing.assert_allclose(emb.eigenvalues, w[1:9], atol=1e-8)
    assert emb.info["probe_min"] >= emb.eigenvalues[-1] - 1e-8


def test_complement_probe_detects_a_missed_eigenvalue():
    from graphsel_lib.spectral import complement_probe

    S = _pendant_graph()
    L = gs.laplacian(S)
    w, V = np.linalg.eigh(L.toarray())
    mu, res = complement_probe(L, V[:, 1:6])  # all found: the complement starts at w[6]
    assert mu == pytest.approx(w[6], abs=1e-7) and res < 1e-6
    mu, _ = complement_probe(L, V[:, 2:6])  # w[1] missing
    assert mu == pytest.approx(w[1], abs=1e-7) and mu < w[5] - 0.9
    with pytest.raises(ValueError, match="rows"):
        complement_probe(L, V[:-1, 1:6])


def test_auto_rule_by_size():
    from graphsel_lib.spectral import _choose_method

    assert _choose_method(500, 10, 4.0) == "dense"
    assert _choose_method(19_717, 100, 4.5) == "shift-invert"  # PubMed
    assert _choose_method(19_999, 100, 18.1) == "shift-invert"  # sbm at 2·10^4: unchanged up to there
    assert _choose_method(75_877, 100, 10.7) == "shift-invert"  # Epinions: sparse enough for the LU
    assert _choose_method(99_984, 100, 19.2) == "lobpcg-chebyshev"  # sbm at 10^5: random-like
    assert _choose_method(1_000_000, 100, 5.0) == "lobpcg-chebyshev"  # too large for an LU


def test_unknown_method_raises():
    with pytest.raises(ValueError, match="unknown method"):
        gs.spectral_embedding(np.ones((5, 5)) - np.eye(5), 2, method="arnoldi", cache=False)


def test_lobpcg_jacobi_tolerance_gives_an_approximate_embedding(tmp_path):
    """tol loosens the stopping rule only: fewer iterations, residuals within tol, a cache entry of its own."""
    rng = np.random.default_rng(11)
    S = random_connected_graph(rng, 400, p=0.01)
    L = gs.laplacian(S)
    exact = gs.spectral_embedding(S, 12, method="lobpcg-jacobi", cache_dir=tmp_path)
    rough = gs.spectral_embedding(S, 12, method="lobpcg-jacobi", tol=1e-3, cache_dir=tmp_path)
    assert rough.info["iterations"] < exact.info["iterations"]
    lam_max = rough.info["guard_min"]  # ≤ the block's largest Ritz value, which the rule scales by
    res = np.linalg.norm(L @ rough.eigenvectors - rough.eigenvectors * rough.eigenvalues, axis=0)
    assert res.max() <= 1e-3 * 10 * lam_max
    np.testing.assert_allclose(rough.eigenvalues, exact.eigenvalues, rtol=1e-3)
    assert len(list(tmp_path.glob("*_tol0.001.npz"))) == 1 and len(list(tmp_path.glob("*.npz"))) == 2
    again = gs.spectral_embedding(S, 12, method="lobpcg-jacobi", tol=1e-3, cache_dir=tmp_path)
    np.testing.assert_array_equal(again.eigenvectors, rough.eigenvectors)  # from its own cache file


@pytest.mark.parametrize(
    "method, tol, match",
    [
        ("dense", 1e-3, "only, not"),
        ("lobpcg-jacobi", 1.0, "below 1"),
        ("lobpcg-jacobi", 0.0, "tol"),
        ("lobpcg-jacobi", float("nan"), "tol"),
    ],
)
def test_bad_tolerance_raises(method, tol, match):
    S = random_connected_graph(np.random.default_rng(0), 30, p=0.2)
    with pytest.raises(ValueError, match=match):
        gs.spectral_embedding(S, 3, method=method, tol=tol, cache=False)


def _cycle(n):
    i = np.arange(n)
    A = sp.coo_matrix((np.ones(n), (i, (i + 1) % n)), shape=(n, n))
    return (A + A.T).tocsr()


def _splits(call):
    """``call()``'s result and the SplitEigenvalueWarnings it raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = call()
    return out, [w for w in caught if issubclass(w.category, gs.SplitEigenvalueWarning)]


@pytest.mark.parametrize("method", ["dense", "shift-invert", "lobpcg-jacobi"])
def test_a_rank_that_splits_a_repeated_eigenvalue_warns(method, tmp_path):
    """The cycle C_n: σ_k = 2 − 2cos(2πk/n) twice; rank 1 keeps one of two copies, rank 2 both."""
    n = 40
    S = _cycle(n)
    sigma = 2 - 2 * np.cos(2 * np.pi / n)
    emb, caught = _splits(lambda: gs.spectral_embedding(S, 1, method=method, cache_dir=tmp_path))
    assert emb.info["split"][1:] == (1, 2) and abs(emb.info["split"][0] - sigma) < 1e-10
    assert len(caught) == 1 and "multiplicity 2 (1 of its copies kept)" in str(caught[0].message)
    assert "d = 0 or d = 2" in str(caught[0].message)
    hit, caught = _splits(lambda: gs.spectral_embedding(S, 1, method=method, cache_dir=tmp_path))
    assert hit.info["split"] == emb.info["split"] and len(caught) == 1  # the cache remembers
    for d in (2, 4):
        emb, caught = _splits(lambda d=d: gs.spectral_embedding(S, d, method=method, cache_dir=tmp_path))
        assert emb.info["split"] is None and not caught


def test_complete_graph_split_counts_every_copy(tmp_path):
    """K_6: the eigenvalue 6 five times; rank 3 keeps three."""
    S = sp.csr_matrix(np.ones((6, 6)) - np.eye(6))
    emb, caught = _splits(lambda: gs.spectral_embedding(S, 3, cache_dir=tmp_path))
    assert emb.info["split"][1:] == (3, 5) and len(caught) == 1
    assert "d = 0 or d = 5" in str(caught[0].message)


def test_truncate_warns_where_it_splits():
    S = _cycle(8)  # 0, a, a, 2, 2, b, b, 4
    emb, caught = _splits(lambda: gs.spectral_embedding(S, 4, cache=False))
    assert emb.info["split"] is None and not caught
    for d, split in [(1, (1, 2)), (2, None), (3, (1, 2)), (4, None)]:
        t, caught = _splits(lambda d=d: emb.truncate(d))
        assert (t.info["split"] is None) == (split is None) and len(caught) == (split is not None)
        if split:
            assert t.info["split"][1:] == split
    # the run of copies reaching the embedding's own cut: its multiplicity comes from the embedding
    K = sp.csr_matrix(np.ones((6, 6)) - np.eye(6))
    emb, _ = _splits(lambda: gs.spectral_embedding(K, 3, cache=False))
    t, caught = _splits(lambda: emb.truncate(2))
    assert t.info["split"][1:] == (2, 5) and len(caught) == 1
    bare = gs.SpectralEmbedding(emb.eigenvalues, emb.eigenvectors)  # nothing known past its cut
    t, caught = _splits(lambda: bare.truncate(2))
    assert t.info["split"][1:] == (2, -3) and "at least 3 copies; 2 kept" in str(caught[0].message)


def test_probe_path_reports_a_split_without_a_count(monkeypatch):
    from graphsel_lib import spectral

    monkeypatch.setattr(spectral, "INERTIA_MAX_NODES", 10)
    emb, caught = _splits(lambda: gs.spectral_embedding(_cycle(40), 1, method="lobpcg-jacobi", cache=False))
    assert emb.info["check"] == "probe" and emb.info["split"][1:] == (1, -2) and len(caught) == 1
    assert "at least 2 copies; 1 kept" in str(caught[0].message)


def test_algebraic_connectivity_of_a_cycle_does_not_warn():
    """λ_2 of a cycle is repeated, but only its value is asked for."""
    lam, caught = _splits(lambda: gs.theory.algebraic_connectivity(_cycle(12)))
    assert abs(lam - (2 - 2 * np.cos(2 * np.pi / 12))) < 1e-10 and not caught


def test_split_at_and_the_note_for_a_reader():
    """split_at finds the cut repeated eigenvalues; the papers' note (papers.common.split_note) names them."""
    from graphsel_lib.papers.common import split_note

    emb, _ = _splits(lambda: gs.spectral_embedding(_cycle(8), 7, cache=False))  # 0, a, a, 2, 2, b, b, 4
    splits = {d: emb.split_at(d) for d in (1, 2, 3, 7)}
    assert splits[1][1:] == (1, 2) and splits[3][1:] == (1, 2) and splits[2] is None and splits[7] is None
    text = split_note(splits)
    assert "$d = 1$ cuts" in text and "$d = 3$ cuts" in text and "(1 of its 2 copies kept)" in text
    assert "$d = 2$" not in text and "other ranks fall in gaps" in text
    assert "falls in a gap" in split_note({2: None, 4: None})
    with pytest.raises(ValueError, match="d must be in 1..7"):
        emb.split_at(8)


def test_a_cache_file_of_an_older_format_is_recomputed_quietly(tmp_path):
    from graphsel_lib import spectral

    S = _cycle(10)
    gs.spectral_embedding(S, 2, cache_dir=tmp_path)
    (path,) = tmp_path.glob("*.npz")
    with np.load(path) as z:
        fields = {k: z[k] for k in z.files if k != "split"}
    fields["version"] = spectral._CACHE_VERSION - 1
    np.savez(path, **fields)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        emb = gs.spectral_embedding(S, 2, cache_dir=tmp_path)
    assert emb.info["split"] is None and not caught  # no "corrupted" warning either
    with np.load(path) as z:
        assert int(z["version"]) == spectral._CACHE_VERSION  # rewritten in the current format


def test_the_seed_may_be_a_generator_and_does_not_change_the_embedding():
    S = random_connected_graph(np.random.default_rng(2), 60, p=0.1)
    a = gs.spectral_embedding(S, 5, method="shift-invert", cache=False, seed=0)
    b = gs.spectral_embedding(S, 5, method="shift-invert", cache=False, seed=np.random.default_rng(7))
    np.testing.assert_allclose(b.eigenvalues, a.eigenvalues, rtol=1e-9)
    np.testing.assert_allclose(b.eigenvectors, a.eigenvectors, atol=1e-8)  # the canonical basis
    with pytest.raises(TypeError, match="seed must be an integer"):
        gs.spectral_embedding(S, 5, cache=False, seed=0.5)


def test_any_basis_silences_only_the_split_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with gs.spectral.any_basis():
            gs.spectral_embedding(_cycle(8), 1, cache=False)
            warnings.warn("another", RuntimeWarning, stacklevel=1)
    assert [w.category for w in caught] == [RuntimeWarning]


def test_tiny_weights_are_a_scale_not_a_disconnection():
    """Weights x 1e-20 were 'disconnected'; a 1e-11 bridge between unit weights is connected but unresolvable."""
    S = _cycle(12).toarray()
    small = gs.spectral_embedding(S * 1e-20, 3, cache=False)
    np.testing.assert_allclose(
        small.eigenvalues, 1e-20 * gs.spectral_embedding(S, 3, cache=False).eigenvalues
    )
    path = np.diag(np.ones(5), 1)
    path[2, 3] = 1e-11
    with pytest.raises(ValueError, match="connected, but its algebraic connectivity"):
        gs.spectral_embedding(path + path.T, 2, cache=False)


def test_tiny_weights_group_and_embed_as_the_same_graph_at_unit_scale():
    """Weights ≤ 1e-8: an absolute tolerance made distinct eigenvalues "copies" (kernel off by tens of %)."""
    import networkx as nx

    from graphsel_lib.spectral import _groups

    rng = np.random.default_rng(3)
    S = random_connected_graph(rng, 40, p=0.15)  # weights in [0.1, 3]: every eigenvalue simple
    K = sp.csr_matrix(nx.to_scipy_sparse_array(nx.karate_club_graph(), weight=None))  # σ = 2 five times
    for graph, d in ((S, 10), (K, 10), (K, 20)):
        with warnings.catch_warnings(record=True) as unit_w:
            warnings.simplefilter("always")
            unit = gs.spectral_embedding(graph, d, cache=False)
        with warnings.catch_warnings(record=True) as tiny_w:
            warnings.simplefilter("always")
            tiny = gs.spectral_embedding(graph * 1e-9, d, cache=False)
        np.testing.assert_allclose(tiny.eigenvalues, 1e-9 * unit.eigenvalues, rtol=1e-9)
        scale = 1e9 * np.abs(unit.kernel()).max()
        np.testing.assert_allclose(tiny.kernel(), 1e9 * unit.kernel(), rtol=1e-6, atol=1e-8 * scale)
        assert len(tiny_w) == len(unit_w)  # no warning about a multiplicity that does not exist
        splits = [(tiny.split_at(k) is None, unit.split_at(k) is None) for k in range(1, d + 1)]
        assert all(a == b for a, b in splits)
        assert list(_groups(tiny.eigenvalues, tiny.info["weight_scale"])) == list(
            _groups(unit.eigenvalues, unit.info["weight_scale"])
        )
        if unit.info["split"] is not None:
            sigma, kept, mult = tiny.info["split"]
            assert (kept, mult) == unit.info["split"][1:] and sigma == pytest.approx(
                1e-9 * unit.info["split"][0]
            )


def test_canonical_basis_refuses_nan_and_non_orthonormal_input():
    from graphsel_lib.spectral import canonical_basis

    w, V = np.linalg.eigh(gs.laplacian(_cycle(8)).toarray())
    w, V = w[1:], V[:, 1:]
    bad = V.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="must be finite"):
        canonical_basis(w, bad)
    with pytest.raises(ValueError, match="must be finite"):
        canonical_basis(np.where(np.arange(w.size) == 2, np.nan, w), V)
    with pytest.raises(ValueError, match=r"orthonormal columns .*column (\d)·column \1 is off by 3"):
        canonical_basis(w, 2 * V)  # unnormalised
    skew = V.copy()
    skew[:, 1] += 0.1 * skew[:, 0]
    with pytest.raises(ValueError, match="orthonormal columns"):
        canonical_basis(w, skew)


# --------------------------------------------------------------------------- lobpcg-chebyshev
def test_spmm_matches_scipy():
    from graphsel_lib.blockeig import spmm

    rng = np.random.default_rng(3)
    A = sp.random(300, 300, density=0.02, random_state=3, format="csr")
    X = rng.standard_normal((300, 7))
    np.testing.assert_allclose(spmm(A, X), A @ X, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(spmm(A, np.asfortranarray(X)), A @ X, rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError, match="shape"):
        spmm(A, X[:-1])


def test_chebyshev_jacobi_preconditioner_is_symmetric_positive_definite():
    """T = p_m(D⁻¹L) D⁻¹ is a fixed SPD operator on the complement of 1; m = 0 is D⁻¹."""
    from graphsel_lib.blockeig import chebyshev_jacobi

    rng = np.random.default_rng(5)
    L = gs.laplacian(random_connected_graph(rng, 120, p=0.05)).tocsr()
    n = L.shape[0]
    np.testing.assert_allclose(chebyshev_jacobi(L, 0)(np.eye(n)), np.diag(1 / L.diagonal()), rtol=1e-6)
    for m in (2, 4, 9):
        T = chebyshev_jacobi(L, m, dtype=np.float64)(np.eye(n))
        np.testing.assert_allclose(T, T.T, atol=1e-10)
        Q = np.linalg.qr(np.hstack([np.ones((n, 1)), rng.standard_normal((n, n - 1))]))[0][:, 1:]
        assert np.linalg.eigvalsh(Q.T @ T @ Q).min() > 0
    with pytest.raises(ValueError, match="0 < a < b"):
        chebyshev_jacobi(L, 3, a=3.0)


def _chebyshev_jacobi_naive(L, m, R):
    """The Chebyshev semi-iteration for L W = R preconditioned by D, from W = 0, as written (Saad Alg. 12.1)."""
    a, b = 2.0 / (m + 1) ** 2, 2.0
    theta, delta = (b + a) / 2, (b - a) / 2
    sigma = theta / delta
    Dinv = np.diag(1 / L.diagonal())
    Ld = L.toarray()
    res = Dinv @ R
    step = res / theta
    W = step.copy()
    rho = 1 / sigma
    for _ in range(m - 1):
        res = res - Dinv @ (Ld @ step)
        rho_new = 1 / (2 * sigma - rho)
        step = rho_new * rho * step + 2 * rho_new / delta * res
        W = W + step
        rho = rho_new
    return W


def test_fused_chebyshev_steps_equal_the_recurrence_as_written():
    """The compiled fused step (product, residual and updates in one pass) is the textbook recurrence."""
    from graphsel_lib.blockeig import chebyshev_jacobi

    rng = np.random.default_rng(21)
    L = gs.laplacian(random_connected_graph(rng, 200, p=0.04)).tocsr()
    R = rng.standard_normal((L.shape[0], 7))
    for m in (1, 2, 4, 7):
        want = _chebyshev_jacobi_naive(L, m, R)
        np.testing.assert_allclose(chebyshev_jacobi(L, m, dtype=np.float64)(R), want, rtol=1e-12, atol=1e-12)
        single = chebyshev_jacobi(L, m)(R.astype(np.float32))
        assert single.dtype == np.float32  # a float32 block stays float32 (the mixed-precision phase)
        np.testing.assert_allclose(single, want, rtol=1e-4, atol=1e-4 * np.abs(want).max())


def test_gram_by_chunks_in_float64_equals_the_product(monkeypatch):
    from graphsel_lib import blockeig

    rng = np.random.default_rng(22)
    A, B = rng.standard_normal((1000, 5)), rng.standard_normal((1000, 3))
    np.testing.assert_array_equal(blockeig._gram(A, B), A.T @ B)  # float64: the plain product
    monkeypatch.setattr(blockeig, "ROWS", 64)  # 16 chunks, the last one short
    G = blockeig._gram(A.astype(np.float32), B.astype(np.float32))
    assert G.dtype == np.float64
    np.testing.assert_allclose(G, A.astype(np.float32).astype(float).T @ B.astype(np.float32), rtol=1e-5)


def _lobpcg_problem(seed, n, p):
    """A random connected graph's Laplacian (CSR) and the orthonormal constant vector, with the generator."""
    rng = np.random.default_rng(seed)
    L = gs.laplacian(random_connected_graph(rng, n, p=p)).tocsr()
    return rng, L, np.full((L.shape[0], 1), 1 / np.sqrt(L.shape[0]))


def test_mixed_precision_lobpcg_equals_double_and_runs_float32_first():
    """mixed=True: float32 iterations (seen by the product), then float64; the same eigenpairs."""
    from graphsel_lib import blockeig

    rng, L, Y = _lobpcg_problem(23, 600, 0.01)
    n = L.shape[0]
    X0 = rng.standard_normal((n, 18))
    dtypes = []

    def matmul(A, X, out=None):
        dtypes.append(X.dtype)
        return blockeig.spmm(A, X, out=out)

    args = (L, X0, Y, 12, 500, 1e-10, blockeig.chebyshev_jacobi(L, 4))
    double = blockeig.block_lobpcg(*args)
    mixed = blockeig.block_lobpcg(*args, matmul=matmul, mixed=True)
    assert dtypes[0] == np.float32 and dtypes[-1] == np.float64 and mixed[1].dtype == np.float64
    w = np.linalg.eigvalsh(L.toarray())[1:13]
    np.testing.assert_allclose(mixed[0][:12], w, rtol=1e-9)
    np.testing.assert_allclose(mixed[0][:12], double[0][:12], rtol=1e-9)
    assert np.max(mixed[2][:12]) <= 1e-10 * mixed[0][-1] + 1e-12
    V = mixed[1][:, :12]
    np.testing.assert_allclose(V.T @ V, np.eye(12), atol=1e-10)


def test_block_lobpcg_reuses_its_work_blocks_between_iterations():
    """The n x k blocks of an iteration (Z, L·Z) are the same memory every iteration: a fresh block at
    10⁶ nodes costs seconds of page faults. The answer is still the dense one."""
    from graphsel_lib import blockeig

    rng, L, Y = _lobpcg_problem(5, 500, 0.01)
    n = L.shape[0]
    seen = []

    def matmul(A, X, out=None):
        seen.append(
            (X.__array_interface__["data"][0], None if out is None else out.__array_interface__["data"][0])
        )
        return blockeig.spmm(A, X, out=out)

    theta, *_ = blockeig.block_lobpcg(
        L, rng.standard_normal((n, 15)), Y, 10, 500, 1e-10, blockeig.chebyshev_jacobi(L, 4), matmul=matmul
    )
    np.testing.assert_allclose(theta[:10], np.linalg.eigvalsh(L.toarray())[1:11], rtol=1e-9)
    loop = seen[2:]  # after the set-up's product and the first iteration's (no P yet: Z grows once)
    assert len(loop) > 5 and len(set(loop)) == 1, set(loop)


def test_work_blocks_grow_once_and_preconditioner_out_is_a_copy():
    from graphsel_lib import blockeig

    blocks = blockeig._Blocks(7, np.float32)
    a = blocks("Z", 3)
    assert a.shape == (7, 3) and a.flags.c_contiguous and a.dtype == np.float32
    assert np.shares_memory(blocks("Z", 2), a) and not np.shares_memory(blocks("R", 2), a)
    assert blocks("Z", 5).shape == (7, 5)  # grown

    rng = np.random.default_rng(2)
    L = gs.laplacian(random_connected_graph(rng, 80, p=0.05)).tocsr()
    apply = blockeig.chebyshev_jacobi(L, 4, dtype=np.float64)
    R1, R2 = rng.standard_normal((80, 4)), rng.standard_normal((80, 6))
    W1 = apply(R1)
    W1_again = W1.copy()
    apply(R2)  # the work blocks are reused: an answer without out= must not change
    np.testing.assert_array_equal(W1, W1_again)
    out = np.empty((80, 9))[:, 2:6]  # any layout
    assert apply(R1, out=out) is out
    np.testing.assert_array_equal(out, W1)
    with pytest.raises(ValueError, match="C-ordered"):
        blockeig.spmm(L, R1, out=np.empty((80, 4), dtype=np.float32))


def test_column_norms_by_chunks_equal_numpy(monkeypatch):
    from graphsel_lib import blockeig

    monkeypatch.setattr(blockeig, "ROWS", 7)
    Z = np.random.default_rng(3).standard_normal((50, 4))
    np.testing.assert_allclose(blockeig._column_norms(Z), np.linalg.norm(Z, axis=0), rtol=1e-14)
    np.testing.assert_allclose(
        blockeig._column_norms(Z.astype(np.float32)), np.linalg.norm(Z, axis=0), rtol=1e-6
    )


def test_lobpcg_chebyshev_agrees_with_dense():
    rng = np.random.default_rng(7)
    S = random_connected_graph(rng, 400, p=0.01)
    dense = gs.spectral_embedding(S, 12, method="dense", cache=False)
    other = gs.spectral_embedding(S, 12, method="lobpcg-chebyshev", cache=False)
    assert other.method == "lobpcg-chebyshev" and other.info["check"] == "inertia"
    np.testing.assert_allclose(other.eigenvalues, dense.eigenvalues, atol=1e-8)
    np.testing.assert_allclose(other.eigenvectors, dense.eigenvectors, atol=1e-6)  # the canonical basis
    np.testing.assert_allclose(other.eigenvectors.T @ other.eigenvectors, np.eye(12), atol=1e-12)


def test_lobpcg_chebyshev_finds_repeated_eigenvalues_and_is_deterministic():
    S = _pendant_graph()
    w = np.linalg.eigvalsh(gs.laplacian(S).toarray())
    d = int(np.searchsorted(w, 1.0 + 1e-6)) + 2  # cut just above the 38 copies of 1
    emb = gs.spectral_embedding(S, d, method="lobpcg-chebyshev", cache=False)
    np.testing.assert_allclose(emb.eigenvalues, w[1 : d + 1], atol=1e-8)
    with pytest.warns(gs.SplitEigenvalueWarning):  # rank 10 keeps 9 of the 38 copies of 1
        a = gs.spectral_embedding(S, 10, method="lobpcg-chebyshev", cache=False)
        b = gs.spectral_embedding(S, 10, method="dense", cache=False)
    np.testing.assert_allclose(a.eigenvectors, b.eigenvectors, atol=1e-6)  # the same canonical choice


def test_lobpcg_chebyshev_probe_and_auto_choice_on_large_graphs(size_limits_of_100):
    """Above INERTIA_MAX_NODES the complement probe checks it, as for lobpcg-jacobi; "auto" picks it."""
    S = _pendant_graph()
    w = np.linalg.eigvalsh(gs.laplacian(S).toarray())
    with pytest.warns(gs.SplitEigenvalueWarning, match="at least 8 copies; 7 kept"):
        emb = gs.spectral_embedding(S, 8, method="auto", cache=False)
    assert emb.method == "lobpcg-chebyshev" and emb.info["check"] == "probe"
    np.testing.assert_allclose(emb.eigenvalues, w[1:9], atol=1e-8)


def test_block_lobpcg_runs_its_dense_algebra_on_dense_threads_and_times_its_phases():
    """The n x k algebra runs under the BLAS limit DENSE_THREADS; a timer sees every phase, same result."""
    from threadpoolctl import threadpool_info

    from graphsel_lib import blockeig

    rng, L, Y = _lobpcg_problem(11, 300, 0.03)
    n = L.shape[0]
    seen = []

    def matmul(A, X, out=None):
        seen.append({i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"})
        return blockeig.spmm(A, X, out=out)

    phases = []

    @contextmanager
    def timer(phase):
        phases.append(phase)
        yield

    args = (L, rng.standard_normal((n, 8)), Y, 5, 200, 1e-8, blockeig.chebyshev_jacobi(L, 4))
    plain = blockeig.block_lobpcg(*args, matmul=matmul)
    timed = blockeig.block_lobpcg(*args, timer=timer)
    assert seen and all(s == {blockeig.DENSE_THREADS} for s in seen if s)
    np.testing.assert_array_equal(plain[0], timed[0])
    assert {"preconditioner", "project/orthonormalise", "Rayleigh-Ritz: eigh", "residuals"} <= set(phases)


def test_block_lobpcg_in_place_row_chunks_match_whole_products(monkeypatch):
    """The n x k products made in place by chunks of ROWS rows give the whole-block result."""
    from graphsel_lib import blockeig

    rng, L, Y = _lobpcg_problem(12, 300, 0.03)
    n = L.shape[0]
    X0 = rng.standard_normal((n, 10))
    args = (L, X0, Y, 6, 300, 1e-9, blockeig.chebyshev_jacobi(L, 4))
    whole = blockeig.block_lobpcg(*args)
    monkeypatch.setattr(blockeig, "ROWS", 7)  # 43 chunks, the last one short
    chunked = blockeig.block_lobpcg(*args)
    np.testing.assert_allclose(chunked[0], whole[0], rtol=1e-12)
    np.testing.assert_allclose(np.abs(chunked[1].T @ whole[1]).diagonal()[:6], 1, atol=1e-9)
    np.testing.assert_array_equal(X0, args[1])  # the start block is not overwritten
    B = np.linalg.qr(rng.standard_normal((n, 3)))[0]
    Z = rng.standard_normal((n, 5))
    np.testing.assert_allclose(blockeig._subtract_projection(Z.copy(), B), Z - B @ (B.T @ Z), atol=1e-12)


def test_cache_is_keyed_by_method(tmp_path):
    """A cached result of one block method is never returned for the other."""
    rng = np.random.default_rng(7)
    S = random_connected_graph(rng, 400, p=0.01)
    a = gs.spectral_embedding(S, 12, method="lobpcg-chebyshev", cache_dir=tmp_path)
    b = gs.spectral_embedding(S, 12, method="lobpcg-jacobi", cache_dir=tmp_path)
    assert "iterations" in b.info and b.method == "lobpcg-jacobi"  # computed, not read from a's file
    assert len(list(tmp_path.glob("*_lobpcg-chebyshev.npz"))) == 1
    assert len(list(tmp_path.glob("*_lobpcg-jacobi.npz"))) == 1
    hit = gs.spectral_embedding(S, 12, method="lobpcg-chebyshev", cache_dir=tmp_path)
    assert "iterations" not in hit.info and hit.method == "lobpcg-chebyshev"
    np.testing.assert_array_equal(hit.eigenvectors, a.eigenvectors)


@pytest.mark.slow
def test_lobpcg_chebyshev_matches_shift_invert_on_a_10k_node_sbm():
    """The new solver's 30 eigenvalues equal shift-invert's to 1e-8 relative on datasets.sbm(10^4, avg_degree=10)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", gs.DataWarning)
        g = gs.datasets.sbm(10_000, n_blocks=10, avg_degree=10, mixing=0.2, seed=0)
    L = gs.laplacian(g.adjacency)
    # d = 30, not the learners' 100: the same code path at a third of the CI time (bench_spectral.py measures d = 100)
    si = gs.spectral_embedding(g.adjacency, 30, method="shift-invert", cache=False)
    ch = gs.spectral_embedding(g.adjacency, 30, method="lobpcg-chebyshev", cache=False)
    np.testing.assert_allclose(ch.eigenvalues, si.eigenvalues, rtol=1e-8)
    V, lam = ch.eigenvectors, ch.eigenvalues
    assert np.max(np.linalg.norm(L @ V - V * lam, axis=0) / lam) <= 1e-6


def test_no_cut_reported_when_sigma_d_is_above_the_next_eigenvalue():
    """A loose solve (tol 0.1) can return σ_d above σ_{d+1}: the inertia count then finds more than d
    eigenvalues below it, and no cut is reported (it gave "at least 0 copies; -2 kept")."""
    from graphsel_lib import spectral as S

    n = 30
    A = sp.diags([np.ones(n - 1), np.ones(n - 1)], [-1, 1]).tocsr()
    L = sp.csr_matrix(sp.diags(np.asarray(A.sum(axis=1)).ravel()) - A)
    exact = np.linalg.eigvalsh(L.toarray())[1:6]
    assert S._split_at_cut(L, exact, {}) is None  # simple eigenvalues: no cut
    assert S._split_at_cut(L, exact + np.array([0, 0, 0, 0, 0.2]), {}) is None  # σ_5 past σ_7


@pytest.mark.parametrize("method", ["dense", "shift-invert"])
def test_nested_embeddings_equal_direct_solves(method):
    """A prefix of the largest rank equals a solve at that rank (1e-10), with and without a cut repeated eigenvalue."""
    from graphsel_lib.spectral import nested_embeddings

    S = _pendant_graph()  # the eigenvalue 1 has 38 copies
    w = np.linalg.eigvalsh(gs.laplacian(S).toarray())
    first = int(np.searchsorted(w, 1.0 - 1e-6)) - 1  # index, among the non-zero pairs, of the first copy
    cut, past, below = first + 9, first + 38, first  # cuts the run; just past it; just before it
    ranks = [past + 20, below, cut, past, past + 5]
    embs, caught = _splits(lambda: nested_embeddings(S, ranks, method=method, cache=False))
    assert list(embs) == ranks and len(caught) == 1  # the one warning: the cut rank, solved on its own
    assert embs[cut].info["split"][1:] == (9, 38)
    for d in ranks:
        one, _ = _splits(lambda d=d: gs.spectral_embedding(S, d, method=method, cache=False))
        np.testing.assert_allclose(embs[d].eigenvalues, one.eigenvalues, rtol=0, atol=1e-10)
        np.testing.assert_allclose(embs[d].M, one.M, rtol=0, atol=1e-10)
        assert embs[d].split_at(d) == one.info["split"]
    # a prefix of a dense solve against a shift-invert solve at the rank: the same, to rounding
    assert not np.shares_memory(embs[past].eigenvectors, embs[past + 20].eigenvectors)  # a copy, not a view
    S2 = random_connected_graph(np.random.default_rng(3), 300, p=0.03)
    top = nested_embeddings(S2, [4, 20], method="dense", cache=False)[4]
    np.testing.assert_allclose(
        top.M, gs.spectral_embedding(S2, 4, method="shift-invert", cache=False).M, atol=1e-10
    )


def test_nested_embeddings_direct_ranks_and_the_cache(tmp_path):
    """Ranks in ``direct`` are solved (and cached) on their own; prefixes are not written to the cache."""
    from graphsel_lib.spectral import nested_embeddings

    S = random_connected_graph(np.random.default_rng(4), 200, p=0.05)
    embs = nested_embeddings(S, [10, 5, 2], direct=[5], cache_dir=tmp_path)
    assert sorted(int(f.name.split("_d")[1].split("_")[0]) for f in tmp_path.glob("*.npz")) == [5, 10]
    np.testing.assert_array_equal(embs[5].M, gs.spectral_embedding(S, 5, cache_dir=tmp_path).M)
    np.testing.assert_array_equal(embs[2].eigenvalues, embs[10].eigenvalues[:2])


def test_nested_embeddings_rejects_bad_ranks():
    from graphsel_lib.spectral import nested_embeddings

    S = _cycle(10)
    with pytest.raises(ValueError, match="ranks is empty"):
        nested_embeddings(S, [])
    with pytest.raises(TypeError, match="integers"):
        nested_embeddings(S, [2, 3.0])
    with pytest.raises(ValueError, match="at least 1"):
        nested_embeddings(S, [0, 4], cache=False)
    with pytest.raises(ValueError, match="1..n-1"):
        nested_embeddings(S, [2, 10], cache=False)
