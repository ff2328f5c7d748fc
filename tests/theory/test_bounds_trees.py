"""Chapter 13's helpers in ``graphsel_lib.theory.trees``: the matrix-tree theorem, Kirchhoff's edge probabilities,
the expected tree cut, the line's cut, WTA's mistake bound and S²'s queries on a path.

Identities to 1e-10 on random graphs (weighted and unweighted); the sampling checks are seeded and use a
tolerance from the binomial standard error.
"""

import math

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.stats import chi2

import graphsel_lib as gs
from conftest import random_connected_graph
from graphsel_lib.course import atlas
from graphsel_lib.graph import cut_size
from graphsel_lib.online.wta import random_spanning_tree, tree_line


def small_graphs(count=8, seed=13):
    rng = np.random.default_rng(seed)
    return [
        random_connected_graph(rng, int(rng.integers(4, 8)), p=0.35, weighted=i % 2 == 0)
        for i in range(count)
    ]


def test_matrix_tree_theorem_against_enumeration_and_cayley():
    for S in small_graphs():
        edges, trees = gs.theory.enumerate_spanning_trees(S)
        w = np.asarray(S[edges[:, 0], edges[:, 1]]).ravel()
        weighted = float(np.sum(np.prod(w[trees], axis=1)))
        n = S.shape[0]
        for node in range(n):  # every cofactor
            assert math.isclose(gs.theory.spanning_tree_count(S, node=node), weighted, rel_tol=1e-10)
        assert math.isclose(gs.theory.spanning_tree_count(S, log=True), math.log(weighted), rel_tol=1e-10)
    for n in (3, 5, 7):  # Cayley: n^(n-2) trees of the complete graph
        K = nx.to_scipy_sparse_array(nx.complete_graph(n), format="csr").astype(float)
        assert math.isclose(gs.theory.spanning_tree_count(K), n ** (n - 2), rel_tol=1e-10)
        assert len(gs.theory.enumerate_spanning_trees(K)[1]) == n ** (n - 2)
    two = sp.block_diag([K, K]).tocsr()
    assert (
        gs.theory.spanning_tree_count(two) == 0.0 and gs.theory.spanning_tree_count(two, log=True) == -np.inf
    )


def test_kirchhoff_probabilities_are_exact_on_small_graphs(random_graphs):
    for S in small_graphs():  # P(e in T) from the enumeration, T drawn with probability ∝ Π w_e
        edges, trees = gs.theory.enumerate_spanning_trees(S)
        w = np.asarray(S[edges[:, 0], edges[:, 1]]).ravel()
        pt = np.prod(w[trees], axis=1)
        exact = np.array([pt[(trees == k).any(axis=1)].sum() for k in range(len(edges))]) / pt.sum()
        p = gs.theory.edge_in_tree_probability(S)
        np.testing.assert_array_equal(p.edges, edges)
        np.testing.assert_allclose(p.probability, exact, rtol=1e-10, atol=1e-12)
    for S in random_graphs:  # Foster: the probabilities sum to n - 1
        assert abs(gs.theory.edge_in_tree_probability(S).probability.sum() - (S.shape[0] - 1)) < 1e-9


@pytest.mark.parametrize("weighted", [False, True])
def test_wilson_frequencies_match_kirchhoff(weighted):
    rng = np.random.default_rng(5)
    S = random_connected_graph(rng, 12, p=0.4, weighted=weighted)
    draws = 3000
    edges, freq = gs.theory.tree_edge_frequencies(S, draws, seed=1)
    p = gs.theory.edge_in_tree_probability(S).probability
    se = np.sqrt(p * (1 - p) / draws)
    inner = p < 1 - 1e-12  # a bridge is in every tree (p = 1, no variance)
    assert np.all(freq[~inner] == 1.0)
    stat = float(np.sum(((freq - p)[inner] / se[inner]) ** 2))  # roughly chi-square (dependent edges)
    assert np.abs((freq - p)[inner] / se[inner]).max() < 4.5 and chi2.sf(stat, df=inner.sum()) > 1e-4


def test_expected_tree_cut_by_linearity_and_by_sampling():
    rng = np.random.default_rng(7)
    for weighted in (False, True):
        S = random_connected_graph(rng, 15, p=0.3, weighted=weighted)
        y = rng.integers(0, 3, 15)
        p = gs.theory.edge_in_tree_probability(S)
        cut = y[p.edges[:, 0]] != y[p.edges[:, 1]]
        assert abs(gs.theory.expected_tree_cut(S, y) - p.probability[cut].sum()) < 1e-12
        assert gs.theory.expected_tree_cut(S, y) <= cut.sum() + 1e-12
        assert gs.theory.expected_tree_cut(S, y, weighted=True) <= cut_size(S, y) + 1e-12
        draws = 800
        sample = np.array([gs.theory.tree_and_line_cuts(t, tree_line(t), y)["tree"]
                           for t in (random_spanning_tree(S, rng) for _ in range(draws))])  # fmt: skip
        assert abs(sample.mean() - gs.theory.expected_tree_cut(S, y)) < 4.5 * sample.std() / np.sqrt(draws)


def test_line_cut_at_most_twice_tree_cut_and_the_wta_bound(random_graphs):
    rng = np.random.default_rng(8)
    for S in random_graphs[:10]:
        y = rng.integers(0, 2, S.shape[0])
        t = random_spanning_tree(S, rng)
        c = gs.theory.tree_and_line_cuts(t, tree_line(t), y)
        assert c["line"] <= 2 * c["tree"] and c["line_weighted"] <= 2 * c["tree_weighted"] + 1e-12
        expected = 1 + c["line"] * (1 + math.log2(S.shape[0] - 1))
        assert abs(gs.theory.wta_mistake_bound(tree_line(t), y) - expected) < 1e-12
    S = (random_graphs[1] > 0).astype(float)
    y = rng.permutation(np.arange(S.shape[0]) % 2)  # both classes present
    runs = atlas.wta_bound_runs(S, y, 6, seed=3)
    assert len(runs) == 6 and (runs["mistakes"] <= runs["bound"]).all()
    assert (runs["line cut"] <= 2 * runs["tree cut"]).all()
    assert runs.equals(atlas.wta_bound_runs(S, y, 6, seed=3))  # seeded
    with pytest.raises(ValueError, match="unweighted"):
        atlas.wta_bound_runs(random_graphs[0], rng.integers(0, 2, random_graphs[0].shape[0]), 2)


def test_wta_expected_mistake_bound_averages_the_line_bound(random_graphs):
    rng = np.random.default_rng(9)
    for S in random_graphs[:6]:
        S = (S > 0).astype(float)  # the bound counts label changes: unweighted
        n = S.shape[0]
        y = rng.integers(0, 2, n)
        expected = 1 + 2 * gs.theory.expected_tree_cut(S, y) * (1 + math.log2(n - 1))
        assert abs(gs.theory.wta_expected_mistake_bound(S, y) - expected) < 1e-12 * expected
        for _ in range(20):  # on every tree the line's bound is at most the tree-cut form it averages
            t = random_spanning_tree(S, rng)
            per_tree = 1 + 2 * gs.theory.tree_and_line_cuts(t, tree_line(t), y)["tree"] * (
                1 + math.log2(n - 1)
            )
            assert gs.theory.wta_mistake_bound(tree_line(t), y) <= per_tree + 1e-12
    with pytest.raises(ValueError, match="unweighted"):
        W = random_graphs[0]
        gs.theory.wta_expected_mistake_bound(W, rng.integers(0, 2, W.shape[0]))


def test_s2_finds_the_cut_of_a_path_in_about_log2_n_bisections():
    for n in (32, 256):
        runs = atlas.s2_path_queries(n, 4, seed=0)
        assert len(runs) == 4 and (runs["queries"] == runs["random"] + runs["bisection"]).all()
        assert (runs["bisection"] <= math.ceil(math.log2(n)) + 1).all()
    assert atlas.s2_path_queries(64, 3, seed=2).equals(atlas.s2_path_queries(64, 3, seed=2))
    # a cut near an end needs a long random phase: past the first budget (4 log2 n + 40 = 68 queries
    # for n = 128), the budget doubles instead of failing
    runs = atlas.s2_path_queries(128, 5, seed=21)
    long = runs[runs["queries"] > 68]
    assert len(long) == 1 and long["cut"].iloc[0] == 6 and long["random"].iloc[0] > 68
