"""MarginSampling: the randomised margin query rule around a multiclass learner (Cesa-Bianchi et al. 2006)."""

import numpy as np
import pytest

from conftest import random_connected_graph
from graphsel_lib.online import (
    BBQ,
    CMOG,
    DGS,
    GPA,
    MSG,
    SSLGC,
    BBQEps,
    MarginSampling,
    OneVsRest,
    RandomQueries,
    run,
)
from graphsel_lib.online.reference import ReferenceRelaxation
from graphsel_lib.online.relaxation import Relaxation, node_ids


class FixedScores:
    """A stub multiclass learner: the same scores every round; counts updates."""

    multiclass = True

    def __init__(self, score):
        self.score = np.asarray(score, dtype=float)

    def reset(self, d, n_classes, rng):
        self.updates = 0

    def predict(self, x):
        return int(np.argmax(self.score)), {"score": self.score}

    def wants_label(self, x, t, info):  # pragma: no cover - MarginSampling must not call it
        raise AssertionError("the wrapped learner's query rule must not be used")

    def update(self, x, y, label, info):
        self.updates += 1


def problem(seed, n=40, K=3):
    rng = np.random.default_rng(seed)
    S = random_connected_graph(rng, n, p=0.15)
    return S, rng.integers(0, K, n)


@pytest.mark.parametrize("b, margin", [(0.1, 0.3), (1.0, 0.5), (0.02, 0.02)])
def test_query_probability_is_b_over_b_plus_margin(b, margin):
    T = 20_000
    stub = FixedScores([0.1, 0.1 + margin, 0.0])
    learner = MarginSampling(stub, b=b, seed=1)
    tr = run(
        learner, np.zeros((1, T)), np.zeros(T, dtype=int), seed=0, n_classes=3, record=("margin", "prob")
    )
    p = b / (b + margin)
    np.testing.assert_allclose(tr.records["margin"], margin, rtol=1e-12)
    np.testing.assert_allclose(tr.records["prob"], p, rtol=1e-12)
    # binomial count within 5 standard deviations
    assert abs(tr.n_queried - T * p) < 5 * np.sqrt(T * p * (1 - p))
    assert stub.updates == tr.n_queried  # update only on queried rounds


def test_tie_is_always_queried():
    stub = FixedScores([0.5, 0.5, 0.0])
    tr = run(
        MarginSampling(stub, b=1e-9, seed=0),
        np.zeros((1, 500)),
        np.zeros(500, dtype=int),
        seed=0,
        n_classes=3,
    )
    assert tr.n_queried == 500


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_large_b_gives_back_the_wrapped_learner(seed):
    S, y = problem(seed)
    n = y.size
    plain = run(Relaxation(S, beta=0.2 * n), node_ids(n), y, seed=seed, record=("psi",))
    wrapped = run(
        MarginSampling(Relaxation(S, beta=0.2 * n), b=1e15), node_ids(n), y, seed=seed, record=("psi",)
    )
    assert wrapped.queried.all()
    np.testing.assert_array_equal(plain.predictions, wrapped.predictions)
    np.testing.assert_allclose(plain.records["psi"], wrapped.records["psi"], rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("seed, b", [(0, 0.05), (1, 0.2), (2, 1.0)])
def test_relaxation_and_its_naive_twin_agree_under_margin_sampling(seed, b):
    S, y = problem(seed)
    n = y.size
    fast = run(MarginSampling(Relaxation(S, beta=0.3 * n), b=b, seed=5), node_ids(n), y, seed=seed)
    slow = run(MarginSampling(ReferenceRelaxation(S, beta=0.3 * n), b=b, seed=5), node_ids(n), y, seed=seed)
    assert 0 < fast.n_queried < n  # the rule is active
    np.testing.assert_array_equal(fast.queried, slow.queried)
    np.testing.assert_array_equal(fast.predictions, slow.predictions)


def test_same_seed_same_trace_and_run_rng_when_no_seed():
    S, y = problem(3)
    n = y.size

    def go(seed, run_seed):
        return run(
            MarginSampling(Relaxation(S, beta=0.3 * n), b=0.2, seed=seed), node_ids(n), y, seed=run_seed
        )

    a, b = go(7, 0), go(7, 1)  # own seed for the coin; run's seed still draws the order
    np.testing.assert_array_equal(go(7, 0).queried, a.queried)
    assert a.n_queried > 0 and b.n_queried > 0
    c, d = go(None, 4), go(None, 4)  # no seed: run's generator, same run seed -> same trace
    np.testing.assert_array_equal(c.queried, d.queried)


def test_bad_arguments_raise():
    with pytest.raises(ValueError, match="b must be"):
        MarginSampling(CMOG(), b=0.0)
    with pytest.raises(ValueError, match="b must be"):
        MarginSampling(CMOG(), b=float("nan"))
    with pytest.raises(TypeError, match="multiclass"):
        MarginSampling(GPA(), b=1.0)
    with pytest.raises(TypeError, match="not an online learner"):
        MarginSampling(object(), b=1.0)


def test_repr_names_the_wrapped_learner():
    r = repr(MarginSampling(CMOG(gamma=2.0), b=0.1, seed=3))
    assert r == "MarginSampling(CMOG(gamma=2.0, targets='definition1'), b=0.1, seed=3)"


def test_random_queries_rate_and_identity_at_p_one():
    S, y = problem(4, n=60)
    n = y.size
    plain = run(Relaxation(S, beta=0.3 * n), node_ids(n), y, seed=0)
    full = run(RandomQueries(Relaxation(S, beta=0.3 * n), p=1.0), node_ids(n), y, seed=0)
    np.testing.assert_array_equal(plain.predictions, full.predictions)
    T, p = 20_000, 0.3
    stub = FixedScores([0.2, 0.7, 0.1])
    tr = run(RandomQueries(stub, p=p, seed=2), np.zeros((1, T)), np.zeros(T, dtype=int), seed=0, n_classes=3)
    assert abs(tr.n_queried - T * p) < 5 * np.sqrt(T * p * (1 - p))
    assert stub.updates == tr.n_queried
    for bad in (0.0, 1.5, float("nan")):
        with pytest.raises(ValueError, match="p must be"):
            RandomQueries(CMOG(), p=bad)
    with pytest.raises(TypeError, match="RandomQueries needs a multiclass"):
        RandomQueries(GPA(), p=0.5)


def test_query_probabilities_rank_without_changing_the_learner():
    """The ranking of the nodes to label next: the rule's probability, no coin, no update, same pass after."""
    import graphsel_lib as gs

    g = gs.datasets.sbm(120, n_blocks=3, avg_degree=8, mixing=0.1, seed=1)
    n, ids = g.n_nodes, gs.online.node_ids(g.n_nodes)
    y = g.labels

    def make():
        return gs.online.MarginSampling(gs.online.Relaxation(g.adjacency, beta=0.1 * n), b=0.05)

    s = gs.online.Session(make(), ids, seed=3, n_classes=g.n_classes)
    for _ in range(40):
        node, _, wants = s.ask()
        s.tell(int(y[node]) if wants else None)
    rest = s.order[40:]
    pred, prob = gs.online.query_probabilities(s.learner, ids, rest, t=41)
    for node, p_, q in zip(rest[:10], pred[:10], prob[:10], strict=True):
        label, info = s.learner.predict(ids[:, node].copy())
        f = np.sort(info["score"])[::-1]
        assert label == p_ and np.isclose(q, 0.05 / (0.05 + f[0] - f[1]), rtol=0, atol=1e-12)
    while not s.done:  # the ranking left the learner as it was: the session ends as run() does
        node, _, wants = s.ask()
        s.tell(int(y[node]) if wants else None)
    ref = gs.online.run(make(), ids, y, order=s.order, seed=3)
    np.testing.assert_array_equal(s.trace.predictions, ref.predictions)
    msg = gs.online.MSG(gamma=1.0, h=0.1)
    M = gs.spectral_embedding(g.adjacency, 10).M
    gs.online.run(msg, M, y, seed=0)
    _, p_msg = gs.online.query_probabilities(msg, M, np.arange(5), t=n + 1)
    assert np.all((p_msg > 0) & (p_msg <= 1))
    with pytest.raises(TypeError, match="no query probability.*MarginSampling"):
        gs.online.query_probabilities(gs.online.Relaxation(g.adjacency, beta=1.0), ids, [0], t=1)


@pytest.mark.parametrize("stacked", [True, False])
def test_a_query_rule_around_one_vs_rest(stacked):
    """MarginSampling(OneVsRest(GPA)) failed with KeyError '_q': the rule replaces the learner's wants_label."""
    import graphsel_lib as gs

    g = gs.datasets.sbm(90, n_blocks=3, avg_degree=8, mixing=0.1, seed=0)
    M = gs.spectral_embedding(g.adjacency, 8).M
    inner = OneVsRest(GPA, stacked=stacked)
    every = run(MarginSampling(inner, b=1e12), M, g.labels, seed=0)  # asks every round: the plain learner
    plain = run(OneVsRest(GPA, stacked=stacked), M, g.labels, seed=0)
    assert every.n_queried == g.n_nodes
    np.testing.assert_array_equal(every.predictions, plain.predictions)
    some = run(MarginSampling(OneVsRest(GPA, stacked=stacked), b=0.1), M, g.labels, seed=0)
    assert 0 < some.n_queried < g.n_nodes
    with pytest.raises(TypeError, match="OneVsRest.*is a selective sampler.*Wrap a fully supervised"):
        MarginSampling(OneVsRest(gs.online.SSLGC, stacked=stacked), b=0.1)


SELECTIVE = [
    lambda: MSG(h=0.1),
    lambda: MSG(h=0.1, aggressive=False),
    lambda: BBQ(),
    lambda: BBQEps(eps=0.1),
    lambda: DGS(),
    lambda: OneVsRest(SSLGC),
]


@pytest.mark.parametrize("make", SELECTIVE)
@pytest.mark.parametrize("wrap", [lambda l: MarginSampling(l, b=0.1), lambda l: RandomQueries(l, p=0.5)])
def test_a_selective_sampler_is_refused_at_construction_with_the_fix(make, wrap):
    """MarginSampling(MSG(...)) failed mid-pass with KeyError 'aggressive': MSG's update reads a key only its
    own wants_label sets, and a query rule replaces that step. The rules wrap fully supervised learners only."""
    learner = make()
    assert learner.selective
    with pytest.raises(
        TypeError,
        match=rf"{type(learner).__name__}\(.*is a selective sampler whose update needs its "
        r"own query step.*Wrap a fully supervised learner instead \(CMOG",
    ):
        wrap(learner)


@pytest.mark.parametrize(
    "make", [CMOG, lambda: CMOG(targets="onehot", conservative=False), lambda: OneVsRest(GPA)]
)
def test_fully_supervised_learners_are_wrapped(make):
    assert not getattr(make(), "selective", False)
    _, y = problem(3)
    M = np.random.default_rng(0).standard_normal((6, y.size))
    trace = run(MarginSampling(make(), b=0.05, seed=1), M, y, seed=0)
    assert 0 < trace.n_queried < y.size
