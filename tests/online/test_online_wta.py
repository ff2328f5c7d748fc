"""WTA (Cesa-Bianchi, Gentile, Vitale & Zappella, JMLR 2013): tree, line, nearest neighbour, twin.

Wilson's sampler draws spanning trees with probability ∝ Π weights (uniform
on K4's 16 trees), the line visits every node once with the minimum tree-path
weight between neighbours (as the paper's duplicate elimination on L'), and
the fast learner (bisect on the revealed positions) equals its naive twin
(a scan over all revealed nodes) round by round.
"""

import itertools
import math

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph
from scipy.stats import chi2

from conftest import random_connected_graph
from graphsel_lib.online import run
from graphsel_lib.online.reference.wta import ReferenceWTA, reference_line
from graphsel_lib.online.relaxation import node_ids
from graphsel_lib.online.wta import WTA, SpanningTreeSampler, random_spanning_tree, tree_line


def path_graph(n):
    return sp.diags([np.ones(n - 1), np.ones(n - 1)], [1, -1]).tocsr()


def tree_networkx(tree):
    T = nx.Graph()
    T.add_nodes_from(range(tree.parent.size))
    for v, p in tree.edges():
        T.add_edge(int(v), int(p), weight=float(tree.weight[v]))
    return T


# --------------------------------------------------------------------------- the tree


def test_spanning_tree_is_a_spanning_tree_of_the_graph(random_graphs):
    rng = np.random.default_rng(0)
    for S in random_graphs:
        n = S.shape[0]
        tree = random_spanning_tree(S, rng)
        E = tree.edges()
        assert E.shape == (n - 1, 2) and tree.parent[tree.root] == -1
        T = sp.coo_matrix((np.ones(n - 1), (E[:, 0], E[:, 1])), shape=(n, n))
        assert csgraph.connected_components(T, directed=False)[0] == 1  # n - 1 edges + connected = tree
        np.testing.assert_array_equal(tree.weight[E[:, 0]], np.asarray(S[E[:, 0], E[:, 1]]).ravel())
        assert np.all(tree.weight[E[:, 0]] > 0)


def _k4_trees():
    edges = list(itertools.combinations(range(4), 2))
    trees = []
    for T in itertools.combinations(edges, 3):
        if nx.is_connected(nx.Graph(list(T))) and len(nx.Graph(list(T))) == 4:
            trees.append(frozenset(T))
    assert len(trees) == 16  # Cayley: 4^(4-2)
    return trees


def _tree_key(tree):
    return frozenset(tuple(sorted(map(int, e))) for e in tree.edges())


@pytest.mark.parametrize("weighted", [False, True])
def test_wilson_draws_trees_with_probability_proportional_to_the_weight_product(weighted):
    trees = _k4_trees()
    W = np.ones((4, 4)) - np.eye(4)
    if weighted:
        W = np.array([[0, 1, 3, 0.5], [1, 0, 2, 1], [3, 2, 0, 4], [0.5, 1, 4, 0]], dtype=float)
    p = np.array([np.prod([W[e] for e in T]) for T in trees])
    p /= p.sum()
    sampler = SpanningTreeSampler(W)
    rng = np.random.default_rng(2013)
    draws = 4000
    index = {T: i for i, T in enumerate(trees)}
    counts = np.zeros(16)
    for _ in range(draws):
        counts[index[_tree_key(sampler.draw(rng))]] += 1
    stat = float(np.sum((counts - draws * p) ** 2 / (draws * p)))
    assert chi2.sf(stat, df=15) > 1e-3, (stat, counts)


def test_trees_are_reproducible_and_seed_dependent():
    rng = np.random.default_rng(3)
    S = random_connected_graph(rng, 40, p=0.2, weighted=False)
    a, b, c = (WTA(S, seed=s).trees[0] for s in (7, 7, 8))
    np.testing.assert_array_equal(a.parent, b.parent)
    assert not np.array_equal(a.parent, c.parent)


# --------------------------------------------------------------------------- the line


def test_line_visits_every_node_once_with_the_min_weight_on_the_tree_path(random_graphs):
    rng = np.random.default_rng(1)
    for S in random_graphs:
        n = S.shape[0]
        tree = random_spanning_tree(S, rng)
        line = tree_line(tree)
        np.testing.assert_array_equal(np.sort(line.nodes), np.arange(n))  # every node exactly once
        assert line.nodes[0] == tree.root and line.weights.shape == (n - 1,)
        np.testing.assert_array_equal(line.position[line.nodes], np.arange(n))
        T = tree_networkx(tree)
        for p in range(n - 1):
            path = nx.shortest_path(T, int(line.nodes[p]), int(line.nodes[p + 1]))
            low = min(T.edges[a, b]["weight"] for a, b in zip(path[:-1], path[1:], strict=True))
            assert line.weights[p] == low
        nodes, weights = reference_line(tree)  # the paper's elimination on L' (2n - 1 nodes)
        assert nodes == line.nodes.tolist() and weights == line.weights.tolist()
        np.testing.assert_allclose(np.diff(line.R), 1.0 / line.weights)


def test_line_cut_is_at_most_twice_the_tree_cut(random_graphs):
    rng = np.random.default_rng(2)
    for S in random_graphs:
        n = S.shape[0]
        y = rng.integers(0, 3, n)
        tree = random_spanning_tree(S, rng)
        line = tree_line(tree)
        E = tree.edges()
        tree_cut = float(tree.weight[E[:, 0]][y[E[:, 0]] != y[E[:, 1]]].sum())
        line_cut = float(line.weights[y[line.nodes[1:]] != y[line.nodes[:-1]]].sum())
        assert line_cut <= 2 * tree_cut + 1e-12


# --------------------------------------------------------------------------- the learner


@pytest.mark.parametrize("n_trees", [1, 3])
def test_wta_equals_its_naive_twin(random_graphs, n_trees):
    rng = np.random.default_rng(4)
    for i, S in enumerate(random_graphs[:14]):  # weighted and unweighted alternate
        n = S.shape[0]
        y = rng.integers(0, int(rng.integers(2, 5)), n)
        for seed in (i, None):
            a = run(WTA(S, n_trees=n_trees, seed=seed), node_ids(n), y, seed=i)
            b = run(ReferenceWTA(S, n_trees=n_trees, seed=seed), node_ids(n), y, seed=i)
            np.testing.assert_array_equal(a.predictions, b.predictions)
            np.testing.assert_array_equal(a.scores, b.scores)
            assert a.queried.all()


def test_wta_on_equal_resistances_breaks_ties_to_the_left():
    w = WTA(path_graph(5), seed=0)
    line = w.lines[0].nodes  # unit weights: the resistance coordinate is the position
    y = np.zeros(5, dtype=int)
    y[line[2:]] = 1
    order = line[[0, 4, 3, 2, 1]]
    trace = run(w, node_ids(5), y, order=order, record=("distance",))
    # the last round: positions 0 and 2 both at distance 1, the left one wins
    assert trace.predictions.tolist() == [0, 0, 1, 1, 0]
    assert trace.records["distance"].tolist() == [math.inf, 4.0, 1.0, 1.0, 1.0]


def test_committee_votes_fractions_and_lowest_class_on_ties():
    rng = np.random.default_rng(5)
    S = random_connected_graph(rng, 30, p=0.15, weighted=True)
    y = rng.integers(0, 3, 30)
    trace = run(WTA(S, n_trees=4, seed=1), node_ids(30), y, seed=2, record=("nearest",))
    np.testing.assert_allclose(trace.scores.sum(axis=1), 1.0)
    assert set(np.unique(trace.scores * 4)) <= {0.0, 1.0, 2.0, 3.0, 4.0}
    np.testing.assert_array_equal(trace.predictions, np.argmax(trace.scores, axis=1))
    assert trace.records["nearest"].shape == (30, 4) and np.all(trace.records["nearest"][0] == -1)
    assert trace.predictions[0] == 0  # the default class before any label


def _line_mistake_bound(line, y):
    """1 + Φ_L (1 + log2(n − 1)): Φ_L label changes along the (unweighted) line; each mistake between two
    revealed positions halves the revealed interval around a cut, each one beyond them uncovers a cut."""
    phi = int(np.sum(y[line.nodes[1:]] != y[line.nodes[:-1]]))
    return phi, 1 + phi * (1 + math.log2(len(y) - 1))


def test_path_with_two_halves():
    n = 64
    S = path_graph(n)
    y = (np.arange(n) >= n // 2).astype(int)
    rng = np.random.default_rng(6)
    for seed in range(40):
        w = WTA(S, seed=seed)
        line = w.lines[0]
        phi, bound = _line_mistake_bound(line, y)
        assert phi <= 2  # one cut on the path, the line's Φ ≤ 2 Φ_T
        trace = run(w, node_ids(n), y, order=rng.permutation(n))
        assert trace.n_mistakes <= bound
        # once both ends of every cut edge of the line are revealed, no more mistakes
        cut = np.flatnonzero(y[line.nodes[1:]] != y[line.nodes[:-1]])
        first = np.unique(np.concatenate([line.nodes[cut], line.nodes[cut + 1]]))
        rest = rng.permutation(np.setdiff1d(np.arange(n), first))
        trace = run(w, node_ids(n), y, order=np.concatenate([first, rest]))
        assert not trace.mistakes[first.size :].any() and trace.n_mistakes <= 2
    # "at most 2 mistakes after the first label of each side" fails for an adversarial order
    # (the nearest-neighbour rule can be made to halve the gap around the cut ~log2 n times)
    w = next(WTA(S, seed=s) for s in range(100) if WTA(S, seed=s).trees[0].root == 0)  # line = the path
    # 8 sets up the gap (8, 63); each later node falls on the wrong side of the gap's middle
    order = [0, 63, 8, 35, 22, 29, 32, 31]
    order += [u for u in range(n) if u not in order]
    trace = run(w, node_ids(n), y, order=order)
    assert trace.mistakes[:8].tolist() == [False, True, False, True, True, True, True, True]
    assert trace.n_mistakes == 6 <= _line_mistake_bound(w.lines[0], y)[1]


def test_mistake_bound_on_random_graphs(random_graphs):
    rng = np.random.default_rng(7)
    for i, S in enumerate(random_graphs):
        if i % 2 == 0:
            S = (S > 0).astype(float)  # the bound in hops: unweighted
        n = S.shape[0]
        y = rng.integers(0, 3, n)
        w = WTA(S, seed=i)
        trace = run(w, node_ids(n), y, seed=i)
        assert trace.n_mistakes <= _line_mistake_bound(w.lines[0], y)[1]


def test_wta_errors():
    S = path_graph(4)
    with pytest.raises(ValueError, match="connected"):
        WTA(sp.block_diag([path_graph(3), path_graph(2)]).tocsr())
    with pytest.raises(ValueError, match="n_trees"):
        WTA(S, n_trees=0)
    with pytest.raises(TypeError):
        WTA(S, seed=1.5)
    with pytest.raises(ValueError, match="node ids"):
        run(WTA(S, seed=0), np.ones((2, 4)), [0, 1, 0, 1])
    with pytest.raises(ValueError, match="not a node id"):
        run(WTA(S, seed=0), node_ids(4) + 0.5, [0, 1, 0, 1])
    with pytest.raises(ValueError, match="default class"):
        run(WTA(S, seed=0, default=2), node_ids(4), [0, 1, 0, 1])
    with pytest.raises(ValueError, match="-1"):
        run(WTA(S, seed=0), node_ids(4), [0, 1, -1, 1])
    assert repr(WTA(S, seed=3)).startswith("WTA(S=<sparse 4x4")


@pytest.mark.parametrize("n_trees", [1, 3])
def test_compiled_pass_equals_the_per_round_methods(random_graphs, n_trees, monkeypatch):
    """One backward sweep per tree gives the rounds' predictions, scores and final state of predict/update."""
    rng = np.random.default_rng(7)
    for i, S in enumerate(random_graphs[:10]):
        n = S.shape[0]
        y = rng.integers(0, 3, n)
        rounds = None if i % 2 else max(2, n // 2)  # a whole pass, or its first half
        fast = WTA(S, n_trees=n_trees, seed=i)
        a = run(fast, node_ids(n), y, seed=i, rounds=rounds, record=("node",))
        slow = WTA(S, n_trees=n_trees, seed=i)
        monkeypatch.setattr(slow, "compiled_pass", lambda *args, **kw: None)
        b = run(slow, node_ids(n), y, seed=i, rounds=rounds, record=("node",))
        np.testing.assert_array_equal(a.predictions, b.predictions)
        np.testing.assert_array_equal(a.scores, b.scores)
        np.testing.assert_array_equal(a.records["node"], b.records["node"])
        assert fast._revealed == slow._revealed and fast._label == slow._label and fast._seen == slow._seen
        assert a.elapsed[-1] == a.time and np.all(np.diff(a.elapsed) >= 0)


def test_compiled_pass_falls_back_when_it_cannot_play():
    S = path_graph(5)
    w = WTA(S, seed=0)
    w.reset(1, 2, np.random.default_rng(0))
    assert (
        w.compiled_pass(node_ids(5).T, np.arange(5), np.zeros(5, int), ("distance",)) is None
    )  # a key it lacks
    assert w.compiled_pass(node_ids(5).T + 0.5, np.arange(5), np.zeros(5, int), ()) is None  # not node ids
    assert not any(w._seen) and w._revealed == [[]]  # a declined pass leaves the state alone


def test_wta_has_the_compiled_form_of_the_other_compiled_learners(random_graphs, monkeypatch):
    """compiled_form() -> CompiledRule(play_wta, WTARule), played by the CompiledPass mixin; the state record
    goes out and back (compiled_state / take_compiled_state) as the per-round methods leave it."""
    from graphsel_lib.online import wta_loop
    from graphsel_lib.online.protocol import CompiledPass, CompiledRule

    S = random_graphs[0]
    n = S.shape[0]
    learner = WTA(S, n_trees=2, seed=5, default=1)
    assert isinstance(learner, CompiledPass) and not learner.pass_releases_gil
    form = learner.compiled_form()
    assert isinstance(form, CompiledRule) and form.play is wta_loop.play_wta
    assert form.rule == wta_loop.WTARule(n, 1)
    calls = []
    play = wta_loop.play_wta
    monkeypatch.setattr(wta_loop, "play_wta", lambda *a, **k: calls.append(a[0]) or play(*a, **k))
    y = np.random.default_rng(0).integers(0, 3, n)
    a = run(learner, node_ids(n), y, seed=1, rounds=n // 2, record=("score", "node"))
    assert calls == [form.rule]
    np.testing.assert_array_equal(a.records["score"], a.scores)
    slow = WTA(S, n_trees=2, seed=5, default=1)
    monkeypatch.setattr(slow, "compiled_pass", lambda *args, **kw: None)
    b = run(slow, node_ids(n), y, seed=1, rounds=n // 2, record=("score", "node"))
    np.testing.assert_array_equal(a.records["score"], b.records["score"])
    state = learner.compiled_state()
    assert state.position.shape == state.R.shape == (2, n) and state.seen.sum() == n // 2
    learner.take_compiled_state(state)
    assert (
        learner._revealed == slow._revealed and learner._label == slow._label and learner._seen == slow._seen
    )


# --------------------------------------------------------------------------- issue 34: light bridges
def _two_triangles(bridge):
    S = np.zeros((6, 6))
    for a, b in [(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5)]:
        S[a, b] = S[b, a] = 1.0
    S[2, 3] = S[3, 2] = bridge
    return sp.csr_matrix(S)


def test_a_bridge_too_light_to_draw_is_refused_at_once():
    """A bridge of 1e-300 made Wilson's walk run forever (double precision never draws it): refused, named."""
    with pytest.raises(
        ValueError, match=r"the edge \(2, 3\) weighs 1e-300.*never takes it.*strengthen the light"
    ):
        SpanningTreeSampler(_two_triangles(1e-300))
    with pytest.raises(ValueError, match="never takes it"):
        WTA(_two_triangles(1e-300))


def test_a_walk_over_its_step_budget_stops_with_the_fix():
    """A bridge of 1e-6 took seconds a tree (1e-8, minutes): a tree is refused past max_steps, the cause named."""
    sampler = SpanningTreeSampler(_two_triangles(1e-6), max_steps=10**5)
    with pytest.raises(
        ValueError, match=r"more than 100,000 steps.*span a factor 1\.0e\+06.*\(2, 3\) weighs 1e-06"
    ):
        for seed in range(20):  # a tree rooted in the other triangle needs ~1e6 steps: some seed draws one
            sampler.draw(np.random.default_rng(seed))
    path = sp.diags([np.ones(199), np.ones(199)], [-1, 1], format="csr")
    with pytest.raises(ValueError, match="long and thin"):
        SpanningTreeSampler(path, max_steps=1000).draw(np.random.default_rng(0))
    assert SpanningTreeSampler(_two_triangles(1e-6)).draw(np.random.default_rng(0)).parent.size == 6


@pytest.mark.parametrize("weighted", [False, True])
def test_the_compiled_walk_draws_the_trees_of_the_python_walk(random_graphs, weighted):
    """The walk runs compiled; it takes the same steps on the same uniforms as the Python walk."""
    for S in random_graphs:
        S = S if weighted else (S > 0).astype(float)
        fast, slow = SpanningTreeSampler(S), SpanningTreeSampler(S, compiled=False)
        assert fast._walks is not None and slow._walks is None
        for seed in range(3):
            a, b = fast.draw(np.random.default_rng(seed)), slow.draw(np.random.default_rng(seed))
            np.testing.assert_array_equal(a.parent, b.parent)
            np.testing.assert_array_equal(a.weight, b.weight)
            assert a.root == b.root


def test_a_sampler_of_a_checked_graph_draws_the_same_trees(random_graphs):
    """WTA validates its graph once: the sampler it builds from the checked matrix draws the trees of a fresh one."""
    from graphsel_lib.online.wta import _check_connected_graph

    for S in random_graphs:
        a = SpanningTreeSampler(S)
        b = SpanningTreeSampler.of_checked(_check_connected_graph(S))
        for seed in range(3):
            ta, tb = a.draw(np.random.default_rng(seed)), b.draw(np.random.default_rng(seed))
            np.testing.assert_array_equal(ta.parent, tb.parent)
            np.testing.assert_array_equal(ta.weight, tb.weight)


def test_the_compiled_line_is_its_python_code(random_graphs):
    """``tree_line`` runs the depth-first visit compiled: the same nodes and weights as the same code in Python."""
    from graphsel_lib.online import line_walk, wta_loop

    for S in random_graphs:
        tree = random_spanning_tree(S, 0)
        parent = tree.parent
        order = np.argsort(parent, kind="stable")
        order = order[parent[order] >= 0]
        starts = np.searchsorted(parent[order], np.arange(parent.size + 1))
        args = (order.astype(np.int64), starts.astype(np.int64), tree.weight, int(tree.root))
        for a, b in zip(wta_loop.depth_first_line(*args), line_walk.depth_first_line(*args), strict=True):
            np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(tree_line(tree).nodes, wta_loop.depth_first_line(*args)[0])
