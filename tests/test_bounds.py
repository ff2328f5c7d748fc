"""Herbster–Pontil bounds: K_tt ≤ min(1/λ2, ρ_t), mistake bound, resistance."""

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

import graphsel_lib as gs
from conftest import random_connected_graph
from graphsel_lib import bounds


def _unweighted(rng, n):
    return random_connected_graph(rng, n, p=float(rng.uniform(0.01, 0.3)), weighted=False)


def test_eccentricity_matches_networkx(random_graphs):
    for S in random_graphs:
        G = nx.from_scipy_sparse_array(S)
        ref = nx.eccentricity(G)
        np.testing.assert_array_equal(bounds.eccentricity(S), [ref[i] for i in range(S.shape[0])])
        # resistance lengths = Dijkstra with length 1/w
        for *_, a in G.edges(data=True):
            a["len"] = 1.0 / a["weight"]
        ref_w = nx.eccentricity(G, weight="len")
        np.testing.assert_allclose(
            bounds.eccentricity(S, lengths="resistance", chunk=7),
            [ref_w[i] for i in range(S.shape[0])],
            rtol=1e-12,
        )


def test_algebraic_connectivity_matches_networkx(random_graphs):
    for S in random_graphs:
        ref = nx.algebraic_connectivity(nx.from_scipy_sparse_array(S), method="tracemin_lu", tol=1e-12)
        assert bounds.algebraic_connectivity(S) == pytest.approx(ref, rel=1e-6)


def test_kernel_diagonal_bound_holds_on_many_graphs():
    rng = np.random.default_rng(11)
    for _ in range(100):
        S = _unweighted(rng, int(rng.integers(3, 50)))
        K = bounds.kernel_diagonal(S)
        np.testing.assert_allclose(K, np.diag(np.linalg.pinv(gs.laplacian(S).toarray())), atol=1e-8)
        lam2 = np.linalg.eigvalsh(gs.laplacian(S).toarray())[1]
        ecc = nx.eccentricity(nx.from_scipy_sparse_array(S))
        ref = np.minimum(1 / lam2, [ecc[i] for i in range(S.shape[0])])
        bound = bounds.kernel_diagonal_bound(S)
        np.testing.assert_allclose(bound, ref, rtol=1e-8)
        assert np.all(K <= bound + 1e-10)


def test_kernel_diagonal_bound_weighted_resistance_lengths(random_graphs):
    for S in random_graphs:
        K = bounds.kernel_diagonal(S)
        assert np.all(K <= bounds.kernel_diagonal_bound(S, lengths="resistance") + 1e-10)


def test_kernel_diagonal_bound_rejects_weighted_hops():
    S = random_connected_graph(np.random.default_rng(0), 10, weighted=True)
    with pytest.raises(ValueError, match="unweighted"):
        bounds.kernel_diagonal_bound(S)


def test_effective_resistance_matches_networkx(random_graphs):
    for S in random_graphs[:8]:
        G = nx.from_scipy_sparse_array(S)
        n = S.shape[0]
        R = bounds.effective_resistance(S)
        pairs = np.array([[0, n - 1], [1, 2], [n - 1, 0], [3, 3]])
        Rp = bounds.effective_resistance(S, pairs)
        for k, (i, j) in enumerate(pairs):
            ref = (
                0.0
                if i == j
                else nx.resistance_distance(G, int(i), int(j), weight="weight", invert_weight=False)
            )
            assert R[i, j] == pytest.approx(ref, abs=1e-8)
            assert Rp[k] == pytest.approx(ref, abs=1e-8)
        # K_tt ≤ max_q r(t, q) (slides, "further improvement")
        assert np.all(bounds.kernel_diagonal(S) <= R.max(axis=1) + 1e-10)


def test_perceptron_mistake_bound_value():
    S = sp.csr_matrix(nx.to_scipy_sparse_array(nx.path_graph(6)))
    y = np.array([1, 1, 1, -1, -1, -1])
    K = np.linalg.pinv(gs.laplacian(S).toarray())
    assert bounds.perceptron_mistake_bound(S, y) == pytest.approx(4 * 1 * np.diag(K).max())
    with pytest.raises(ValueError, match=r"\{-1, \+1\}"):
        bounds.perceptron_mistake_bound(S, np.array([0, 1, 1, 1, 1, 1]))
    with pytest.raises(ValueError, match="shape"):
        bounds.perceptron_mistake_bound(S, y[:3])
