"""Pool-based active learning: the protocol, and EER / S² against their naive twins.

EER's rank-one updates of the harmonic function choose the same nodes (and
compute the same risks) as a fresh solve per candidate and class; S²'s
per-class BFS chooses the same midpoints as networkx's shortest paths.
"""

import numpy as np
import pytest
import scipy.sparse as sp

import graphsel_lib as gs
from conftest import random_connected_graph
from graphsel_lib import partial_labels as pl
from graphsel_lib.active import EER, S2, PoolState, RandomPool, run_pool
from graphsel_lib.active.reference import ReferenceEER, ReferenceS2
from graphsel_lib.transductive import harmonic, predict


def smooth_labels(S, rng, n_classes, flip=0.1):
    """Classes from quantiles of the Fiedler vector, ``flip`` of them random (a learnable labelling)."""
    A = S.toarray()
    f = np.linalg.eigh(np.diag(A.sum(1)) - A)[1][:, 1]
    y = np.searchsorted(np.quantile(f, np.linspace(0, 1, n_classes + 1)[1:-1]), f)
    noisy = rng.random(y.size) < flip
    y[noisy] = rng.integers(0, n_classes, noisy.sum())
    return y


def one_per_class(y, rng):
    return np.array([rng.choice(np.flatnonzero(y == c)) for c in np.unique(y)])


def problems(seed, count):
    rng = np.random.default_rng(seed)
    for i in range(count):
        n = int(rng.integers(14, 36))
        S = random_connected_graph(rng, n, p=float(rng.uniform(0.03, 0.2)), weighted=i % 2 == 0)
        yield i, S, smooth_labels(S, rng, 2 + i % 2), rng


def path_graph(n):
    return sp.diags([np.ones(n - 1), np.ones(n - 1)], [1, -1]).tocsr()


# --------------------------------------------------------------------------- the protocol


def test_budget_no_repeats_initial_and_determinism():
    rng = np.random.default_rng(0)
    S = random_connected_graph(rng, 30, p=0.1)
    y = smooth_labels(S, rng, 3)
    for strategy in (RandomPool(), S2(), EER()):
        a = run_pool(strategy, S, y, 10, seed=3, initial=2)
        b = run_pool(strategy, S, y, 10, seed=3, initial=2)
        assert a.budget == 10 and a.queries.size == a.errors.size == 10 and a.initial.size == 2
        assert np.unique(np.concatenate([a.initial, a.queries])).size == 12  # no node labelled twice
        np.testing.assert_array_equal(a.labels, y[a.queries])
        np.testing.assert_array_equal(a.n_unlabelled, 30 - 2 - np.arange(1, 11))
        np.testing.assert_array_equal(a.queries, b.queries)
        np.testing.assert_array_equal(a.errors, b.errors)
        assert a.labelled_sets[-1].tolist() == sorted(a.initial.tolist() + a.queries.tolist())
    c = run_pool(RandomPool(), S, y, 10, seed=4, initial=2)
    assert not np.array_equal(c.queries, a.queries)
    own = [run_pool(RandomPool(seed=9), S, y, 10, seed=s).queries for s in (1, 2)]
    np.testing.assert_array_equal(*own)  # its own seed: the run's seed does not matter


def test_a_seed_may_be_a_generator_and_an_integer_keeps_its_numbers():
    """``seed: int | Generator | None``: an integer spawns the two streams it always did (initial nodes,
    ``state.rng``); a generator spawns them from its own state."""
    rng = np.random.default_rng(0)
    S = random_connected_graph(rng, 30, p=0.1)
    y = smooth_labels(S, rng, 3)
    a = run_pool(RandomPool(), S, y, 6, seed=5, initial=2)
    init_ss, state_ss = np.random.SeedSequence(5).spawn(2)  # the streams of an integer seed, by hand
    want = np.sort(np.random.default_rng(init_ss).choice(30, size=2, replace=False))
    np.testing.assert_array_equal(a.initial, want)
    unl = np.setdiff1d(np.arange(30), want)
    assert a.queries[0] == unl[np.random.default_rng(state_ss).integers(unl.size)]
    b = run_pool(RandomPool(), S, y, 6, seed=np.random.default_rng(5), initial=2)
    c = run_pool(RandomPool(), S, y, 6, seed=np.random.default_rng(5), initial=2)
    np.testing.assert_array_equal(b.queries, c.queries)  # a seeded generator: reproducible too
    own = run_pool(RandomPool(seed=np.random.default_rng(9)), S, y, 6, seed=1)
    np.testing.assert_array_equal(own.queries, run_pool(RandomPool(seed=9), S, y, 6, seed=2).queries)
    for bad in (1.5, True):
        with pytest.raises(TypeError, match="seed must be an integer"):
            run_pool(RandomPool(), S, y, 6, seed=bad)
        with pytest.raises(TypeError, match="seed must be an integer"):
            RandomPool(seed=bad)


def test_error_is_harmonic_cmn_on_the_unlabelled_nodes_only():
    rng = np.random.default_rng(1)
    S = random_connected_graph(rng, 25, p=0.15)
    y = smooth_labels(S, rng, 2)
    initial = one_per_class(y, rng)
    trace = run_pool(RandomPool(), S, y, 8, seed=0, initial=initial)
    for t in range(trace.budget):
        lab = trace.labelled_after(t)
        unl = np.setdiff1d(np.arange(25), lab)
        y_known = np.full(25, -1)
        y_known[lab] = y[lab]
        F = harmonic(S, y_known, lab, cmn=True, n_classes=2)
        assert trace.errors[t] == np.mean(predict(F)[unl] != y[unl])
        assert trace.n_unlabelled[t] == unl.size


def test_strategies_see_only_revealed_labels():
    rng = np.random.default_rng(2)
    S = random_connected_graph(rng, 20, p=0.2)
    y = smooth_labels(S, rng, 2)
    seen = []

    class Spy:
        def select(self, state):
            assert isinstance(state, PoolState)
            assert np.all(state.y_known[~state.is_labelled] == -1)
            assert not state.y_known.flags.writeable
            seen.append(list(state.labelled))
            return int(state.unlabelled[-1])

    trace = run_pool(Spy(), S, y, 4, initial=[0])
    assert seen[-1] == [0] + trace.queries[:3].tolist()


def _karate():
    import networkx as nx

    G = nx.karate_club_graph()
    y = np.array([0 if G.nodes[v]["club"] == "Mr. Hi" else 1 for v in G])
    return nx.to_scipy_sparse_array(G, nodelist=range(34), weight=None, format="csr").astype(float), y


class _Ask:
    """A strategy that queries the given nodes in order."""

    def __init__(self, *nodes):
        self.nodes = list(nodes)

    def select(self, state):
        return self.nodes.pop(0)


def test_last_error_follows_the_edges_not_the_prior():
    """One node left (karate's 33, the Officer's leader): CMN made its row the prior, Mr. Hi (error 1)."""
    S, y = _karate()
    initial = np.setdiff1d(np.arange(34), [0, 33])
    trace = run_pool(_Ask(0), S, y, 1, initial=initial)
    assert trace.n_unlabelled.tolist() == [1] and trace.errors.tolist() == [0.0]
    for prior in ("labelled", "uniform", "none", pl.auto_prior, [1, 1], {0: 1, 1: 1}):
        assert run_pool(_Ask(0), S, y, 1, initial=initial, class_prior=prior).errors.tolist() == [0.0]
    # from two unlabelled nodes on, CMN with the prior chosen is applied (the same function as notebook 50)
    two = run_pool(_Ask(0), S, y, 1, initial=np.setdiff1d(np.arange(34), [0, 32, 33]), class_prior="uniform")
    lab = np.setdiff1d(np.arange(34), [32, 33])
    F = harmonic(S, np.where(np.isin(np.arange(34), lab), y, -1), lab, cmn=True, class_prior=[0.5, 0.5])
    assert two.errors[0] == np.mean(predict(F)[[32, 33]] != y[[32, 33]])


def test_run_pool_refuses_a_bad_prior_before_any_query():
    S, y = path_graph(6), np.array([0, 0, 0, 1, 1, 1])
    for bad, match in [("labeled", "must be one of"), ([1, 2, 3], "one share"), ({"x": 1}, "not a class")]:
        with pytest.raises(ValueError, match=match):
            run_pool(RandomPool(), S, y, 2, initial=1, class_prior=bad)


def test_run_pool_errors():
    S = path_graph(6)
    y = np.array([0, 0, 0, 1, 1, 1])
    for budget in (0, 6, 5):
        with pytest.raises(ValueError, match="budget"):
            run_pool(RandomPool(), S, y, budget, initial=1)
    with pytest.raises(TypeError):
        run_pool(RandomPool(), S, y, 2.0)
    with pytest.raises(ValueError, match="connected"):
        run_pool(RandomPool(), sp.block_diag([path_graph(3), path_graph(3)]).tocsr(), y, 2)
    with pytest.raises(ValueError, match="unlabelled"):
        run_pool(RandomPool(), S, [0, 0, -1, 1, 1, 1], 2)
    with pytest.raises(ValueError, match="distinct"):
        run_pool(RandomPool(), S, y, 2, initial=[1, 1])
    with pytest.raises(ValueError, match="at least one labelled"):
        run_pool(EER(), S, y, 2)
    with pytest.raises(TypeError, match="class"):
        run_pool(RandomPool, S, y, 2)
    with pytest.raises(TypeError, match="select"):
        run_pool(object(), S, y, 2)

    class Again:
        def select(self, state):
            return 0

    with pytest.raises(ValueError, match="already labelled"):
        run_pool(Again(), S, y, 2, initial=[0])


# --------------------------------------------------------------------------- EER


def test_eer_risks_and_choices_equal_the_naive_twin():
    for i, S, y, rng in problems(10, 6):
        initial = one_per_class(y, rng)
        a = run_pool(EER(block=7), S, y, 6, seed=i, initial=initial)
        b = run_pool(ReferenceEER(), S, y, 6, seed=i, initial=initial)
        np.testing.assert_array_equal(a.queries, b.queries)
        np.testing.assert_array_equal(a.errors, b.errors)
        # the risks themselves, after the queries (the rank-one downdates accumulated)
        state = PoolState(sp.csr_matrix(S), int(y.max()) + 1, np.random.default_rng(0))
        for u in np.concatenate([initial, a.queries]):
            state._reveal(int(u), int(y[u]))
        eer = EER()
        eer.reset(_prefix(S, y, initial))  # then absorbs the queries by rank-one downdates
        unl, ref = ReferenceEER().risks(state)
        np.testing.assert_allclose(eer.risks(state), ref, rtol=1e-9, atol=1e-9)
        np.testing.assert_array_equal(eer._U, unl)


def _prefix(S, y, initial):
    state = PoolState(sp.csr_matrix(S), int(y.max()) + 1, np.random.default_rng(0))
    for u in initial:
        state._reveal(int(u), int(y[u]))
    return state


def test_eer_rank_one_update_is_the_fresh_harmonic_solution():
    rng = np.random.default_rng(3)
    S = random_connected_graph(rng, 25, p=0.15)
    y = smooth_labels(S, rng, 3)
    state = _prefix(S, y, one_per_class(y, rng))
    eer = EER()
    eer.reset(state)
    for u in rng.choice(state.unlabelled, 5, replace=False):
        state._reveal(int(u), int(y[u]))
        eer.risks(state)  # absorbs the new label
        F = harmonic(S, state.y_known, np.asarray(state.labelled), n_classes=3)
        np.testing.assert_allclose(eer._F, F[eer._U], atol=1e-10)


# --------------------------------------------------------------------------- S²


def test_s2_choices_equal_the_naive_twin():
    for i, S, y, _ in problems(20, 8):
        budget = S.shape[0] // 2
        a = run_pool(S2(), S, y, budget, seed=i)
        b = run_pool(ReferenceS2(), S, y, budget, seed=i)
        np.testing.assert_array_equal(a.queries, b.queries)
        a = run_pool(S2(), S, y, budget, seed=i, initial=3)
        b = run_pool(ReferenceS2(), S, y, budget, seed=i, initial=3)
        np.testing.assert_array_equal(a.queries, b.queries)


def test_s2_bisects_to_the_boundary_of_a_path():
    n = 64
    y = (np.arange(n) >= 40).astype(int)
    trace = run_pool(S2(), path_graph(n), y, 14, seed=0, initial=[0, n - 1])
    # from the two ends: the midpoints of 0..63 are 31 and 32 (the smaller wins), then halving to the cut 39 | 40
    assert trace.queries[:6].tolist() == [31, 47, 39, 43, 41, 40]
    assert np.all(trace.errors[5:] == 0.0)  # every unlabelled node now lies between two equal labels


def test_run_pool_with_one_node_left_says_no_query_is_possible():
    """n - 1 nodes labelled initially: the message was 'budget must be in 1..0'."""
    S = path_graph(6)
    with pytest.raises(ValueError, match="no query is possible: 5 of the 6 nodes are labelled initially"):
        run_pool(RandomPool(), S, np.array([0, 0, 0, 1, 1, 1]), 1, initial=np.arange(5))


def test_run_pool_auto_prior_is_notebook_50s_choice_after_each_query():
    """class_prior=partial_labels.auto_prior: the prior choose_prior picks from the labels revealed so far; with
    initial labels drawn mostly from the minority class, "labelled" shares skew every error."""
    import networkx as nx

    P = [[0.2, 0.01], [0.01, 0.2]]
    G = nx.stochastic_block_model([60, 20], P, seed=0)
    nx.add_path(G, range(80))
    S = nx.to_scipy_sparse_array(G, format="csr", dtype=float)
    y = np.repeat([0, 1], [60, 20])
    initial = np.array([0, 60, 61, 62, 63, 64, 65, 66])  # 1 of the big class, 7 of the small one
    order = [1, 67, 2, 68]
    auto = run_pool(_Ask(*order), S, y, 4, initial=initial, class_prior=pl.auto_prior)
    shares = run_pool(_Ask(*order), S, y, 4, initial=initial, class_prior="labelled")
    assert np.all(auto.errors <= shares.errors) and auto.errors.mean() < shares.errors.mean() - 0.1
    known = np.full(80, -1)
    known[[*initial, 1]] = y[[*initial, 1]]
    g = gs.Graph(S, known, ["0", "1"], "g", None, None)
    F = pl.harmonic_scores(g, known, pl.choose_prior("auto", g))  # notebook 50's choice, its predictor
    assert auto.errors[0] == np.mean(predict(F)[known < 0] != y[known < 0])
