"""yang2016's multiclass learners (CMOG, MSG) and the baselines BBQ, BBQ_ε, DGS.

Each fast learner (one shared Sherman–Morrison ``RidgeState``) equals its naive
twin in ``graphsel_lib.online.reference`` (``np.linalg.solve`` every
round) round by round: the same predictions, mistakes and queries, scores to
1e-8. Both run through the same ``run``.
"""

import numpy as np
import pytest

import graphsel_lib as gs
from conftest import assert_same_trace, dense_embedding, smooth_labels
from graphsel_lib.online import BBQ, CMOG, DGS, MSG, BBQEps, run
from graphsel_lib.online import reference as ref
from graphsel_lib.online.cmog_msg import definition1_target
from graphsel_lib.online.scores import top_two


@pytest.fixture(scope="module")
def problems():
    """(M, y) on random connected graphs: exact and truncated kernels, with/without bias, K = 3..5."""
    from conftest import random_connected_graph

    rng = np.random.default_rng(2016)
    out = []
    for n, d, bias, weighted, K in [(40, 39, None, True, 3), (70, 12, 1.0, False, 4), (90, 25, 0.5, True, 5)]:
        S = random_connected_graph(rng, n, p=0.08, weighted=weighted)
        M = dense_embedding(S, d)
        if bias is not None:
            M = gs.add_bias(M, bias)
        out.append((M, smooth_labels(M, rng, K)))
    return out


def check_twins(fast, slow, problems, record=(), seed0=0):
    traces = []
    for i, (M, y) in enumerate(problems):
        a = run(fast, M, y, seed=seed0 + i, record=record)
        b = run(slow, M, y, seed=seed0 + i, record=record)
        assert_same_trace(a, b)
        for key in record:
            np.testing.assert_allclose(a.records[key], b.records[key], rtol=1e-8, atol=1e-10, err_msg=key)
        traces.append(a)
    return traces


# --------------------------------------------------------------------------- twins on random graphs


@pytest.mark.parametrize("gamma", [0.1, 1.0, 10.0])
@pytest.mark.parametrize("targets", ["definition1", "onehot"])
def test_cmog_equals_naive_twin(problems, gamma, targets):
    traces = check_twins(
        CMOG(gamma=gamma, targets=targets), ref.ReferenceCMOG(gamma=gamma, targets=targets), problems
    )
    assert all(tr.queried.all() for tr in traces)


@pytest.mark.parametrize("gamma", [0.1, 1.0])
@pytest.mark.parametrize("h", [1e-3, 0.1, 10.0])
@pytest.mark.parametrize("targets", ["definition1", "onehot"])
def test_msg_equals_naive_twin(problems, gamma, h, targets):
    record = ("r", "margin", "theta", "prob", "aggressive")
    traces = check_twins(
        MSG(gamma=gamma, h=h, targets=targets),
        ref.ReferenceMSG(gamma=gamma, h=h, targets=targets),
        problems,
        record,
        seed0=7,
    )
    aggressive = np.concatenate([tr.records["aggressive"] for tr in traces])
    queried = np.concatenate([tr.queried for tr in traces])
    assert aggressive.any() and not aggressive.all()  # both branches of Alg. 2 are exercised
    assert queried[aggressive].all()
    if h <= 0.1:
        assert not queried.all()


@pytest.mark.parametrize("targets", ["definition1", "onehot"])
def test_variants_equal_naive_twins(problems, targets):
    """CMOG(conservative=False) updates every round; MSG(aggressive=False) is yang2016 Thm. 3's sampler."""
    every = check_twins(
        CMOG(gamma=1.0, targets=targets, conservative=False),
        ref.ReferenceCMOG(gamma=1.0, targets=targets, conservative=False),
        problems,
    )
    plain = check_twins(
        CMOG(gamma=1.0, targets=targets), ref.ReferenceCMOG(gamma=1.0, targets=targets), problems
    )
    assert any((a.predictions != b.predictions).any() for a, b in zip(every, plain, strict=True))
    record = ("aggressive",)
    cons = check_twins(
        MSG(gamma=1.0, h=0.01, targets=targets, aggressive=False),
        ref.ReferenceMSG(gamma=1.0, h=0.01, targets=targets, aggressive=False),
        problems,
        record,
        seed0=7,
    )
    for tr in cons:  # it never updates on a correct prediction
        assert tr.queried[tr.records["aggressive"].astype(bool)].all()
    assert "conservative=False" in repr(CMOG(conservative=False))
    assert "aggressive=False" in repr(MSG(h=0.1, aggressive=False))


@pytest.mark.parametrize("gamma", [0.1, 1.0])
@pytest.mark.parametrize("kappa", [0.2, 0.4, 1.0])
def test_bbq_equals_naive_twin(problems, gamma, kappa):
    traces = check_twins(
        BBQ(kappa=kappa, gamma=gamma),
        ref.ReferenceBBQ(kappa=kappa, gamma=gamma),
        problems,
        ("r", "threshold"),
    )
    assert 0 < sum(tr.n_queried for tr in traces) < sum(tr.n_rounds for tr in traces)


@pytest.mark.parametrize("gamma", [0.1, 1.0])
@pytest.mark.parametrize("eps", [1e-3, 0.3, 1.0, 10.0])
def test_bbq_eps_equals_naive_twin(problems, gamma, eps):
    check_twins(
        BBQEps(eps=eps, delta=0.1, gamma=gamma),
        ref.ReferenceBBQEps(eps=eps, delta=0.1, gamma=gamma),
        problems,
        ("r", "s", "q"),
    )


@pytest.fixture(scope="module")
def long_stream():
    """4000 points around 3 directions in the plane: DGS's θ_t falls below the margin only after ~3000 queries."""
    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, 4000)
    angles = 2 * np.pi * np.arange(3) / 3
    centres = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    return (centres[y] + 0.1 * rng.standard_normal((y.size, 2))).T, y


@pytest.mark.parametrize("gamma", [0.01, 1.0])
@pytest.mark.parametrize("delta", [0.1, 0.9])
def test_dgs_equals_naive_twin(problems, long_stream, gamma, delta):
    traces = check_twins(
        DGS(delta=delta, gamma=gamma),
        ref.ReferenceDGS(delta=delta, gamma=gamma),
        problems,
        ("theta", "margin"),
    )
    if gamma == 0.01:  # the clipping projection is exercised: some queried round had a score beyond ±1
        assert any((np.abs(tr.scores[tr.queried]) > 1).any() for tr in traces)
    # on small graphs θ_t ∝ sqrt(36 ln(t/δ)) keeps DGS querying everything (yang2016 Table I: all
    # labels queried); the long stream also exercises the other branch of the rule
    (tr,) = check_twins(
        DGS(delta=delta, gamma=gamma),
        ref.ReferenceDGS(delta=delta, gamma=gamma),
        [long_stream],
        ("theta", "margin"),
    )
    assert 0 < tr.n_queried < 0.99 * tr.n_rounds
    np.testing.assert_array_equal(tr.queried, tr.records["margin"] <= 2 * tr.records["theta"])


# --------------------------------------------------------------------------- the rules themselves


def test_top_two_and_definition1_target_tie_rules():
    assert top_two([0.0, 0.0, 0.0]) == (0, 1)
    assert top_two([1.0, 3.0, 3.0, 2.0]) == (1, 2)
    assert top_two([5.0, 1.0]) == (0, 1)
    # mistake (ŷ = 1): the -1 goes to the predicted class; correct (ŷ = 0): to the second best
    assert definition1_target([0.2, 0.9, 0.1], 2).tolist() == [0.0, -1.0, 1.0]
    assert definition1_target([0.9, 0.2, 0.5], 0).tolist() == [1.0, 0.0, -1.0]
    assert definition1_target([0.0, 0.0, 0.0], 0).tolist() == [1.0, -1.0, 0.0]  # tie: smallest wrong index


def test_cmog_updates_on_mistakes_and_solves_the_ridge_problem(problems, long_stream):
    """W = A^{-1}B with A, B rebuilt from the trace (mistake rounds, recorded scores) for both targets."""
    M, y = problems[1]
    K, gamma = int(y.max()) + 1, 0.5
    traces = {}
    for targets in ("definition1", "onehot"):
        learner = CMOG(gamma=gamma, targets=targets)
        tr = traces[targets] = run(learner, M, y, seed=4)
        assert learner.state.n_updates == tr.n_mistakes
        A, B = gamma * np.eye(M.shape[0]), np.zeros((M.shape[0], K))
        for t in np.flatnonzero(tr.mistakes):
            m, label = M[:, tr.order[t]], tr.labels[t]
            z = (
                definition1_target(list(tr.scores[t]), label)
                if targets == "definition1"
                else np.eye(K)[label]
            )
            A += np.outer(m, m)
            B += np.outer(m, z)
        np.testing.assert_allclose(learner.state.w, np.linalg.solve(A, B), rtol=1e-9, atol=1e-12)
        X, labels = long_stream
        assert (
            run(CMOG(gamma=gamma, targets=targets), X[:, :1000], labels[:1000]).error_rate < 0.02
        )  # both learn
    d1, oh = traces["definition1"], traces["onehot"]
    # Definition-1 targets sum to 0, so the K scores sum to 0 in every round; one-hot ones do not
    np.testing.assert_allclose(d1.scores.sum(axis=1), 0.0, atol=1e-12)
    assert np.abs(oh.scores.sum(axis=1)).max() > 1e-3
    assert (d1.predictions != oh.predictions).any()


def test_msg_query_and_update_rule(problems):
    M, y = problems[2]
    K = int(y.max()) + 1
    learner = MSG(gamma=1.0, h=0.01)
    tr = run(learner, M, y, seed=5, record=("r", "margin", "theta", "prob", "aggressive"))
    rec = tr.records
    v = rec["r"]
    np.testing.assert_allclose(rec["theta"], 0.5 * rec["margin"] ** 2 + 2 * rec["margin"] - K * v / (1 + v))
    assert (rec["margin"] >= 0).all()
    agg = rec["aggressive"]
    np.testing.assert_array_equal(agg, rec["theta"] < 0)
    calm = ~agg
    np.testing.assert_allclose(rec["prob"][calm], 0.02 / (0.02 + rec["theta"][calm]))
    assert tr.queried[agg].all() and agg[0]  # round 1: f = 0, so Δ = 0 and Θ < 0: queried
    # updates: every aggressive round, and queried mistakes otherwise
    assert learner.state.n_updates == (agg | (tr.queried & tr.mistakes)).sum()
    assert (agg & ~tr.mistakes).any()  # some updates on correct predictions (aggressive)


def test_msg_h_controls_the_query_rate(problems, long_stream):
    for M, y in problems:
        big = run(MSG(gamma=1.0, h=1e12), M, y, seed=1)
        tiny = run(MSG(gamma=1.0, h=1e-12), M, y, seed=1, record=("aggressive",))
        assert big.queried.all()
        # h → 0: only the deterministic (Θ < 0) rounds are queried
        np.testing.assert_array_equal(tiny.queried, tiny.records["aggressive"])
    # on an easy stream the query count grows with h, from a handful to everything
    X, y = long_stream[0][:, :1000], long_stream[1][:1000]
    counts = [run(MSG(gamma=1.0, h=h), X, y, seed=2).n_queried for h in (1e-12, 1e-2, 1.0, 1e12)]
    assert counts == sorted(counts) and counts[0] < 20 and counts[-1] == 1000


def test_same_seed_same_trace(problems):
    M, y = problems[2]
    a, b = run(MSG(gamma=1.0, h=0.05), M, y, seed=11), run(MSG(gamma=1.0, h=0.05), M, y, seed=11)
    np.testing.assert_array_equal(a.queried, b.queried)
    np.testing.assert_array_equal(a.scores, b.scores)
    # a learner built with its own seed ignores run's generator: same order, different run seeds
    order = np.random.default_rng(3).permutation(len(y))
    c = run(MSG(gamma=1.0, h=0.05, seed=8), M, y, order=order, seed=1)
    d = run(MSG(gamma=1.0, h=0.05, seed=8), M, y, order=order, seed=2)
    e = run(MSG(gamma=1.0, h=0.05), M, y, order=order, seed=1)
    f = run(MSG(gamma=1.0, h=0.05), M, y, order=order, seed=2)
    np.testing.assert_array_equal(c.queried, d.queried)
    assert (e.queried != f.queried).any()
    for learner in (
        CMOG(),
        BBQ(),
        BBQEps(eps=0.5),
        DGS(),
    ):  # deterministic learners: seed only picks the order
        np.testing.assert_array_equal(run(learner, M, y, seed=3).scores, run(learner, M, y, seed=3).scores)


def test_bbq_rules(problems):
    M, y = problems[0]
    learner = BBQ(kappa=0.4)
    tr = run(learner, M, y, seed=2, record=("r", "v", "threshold"))
    v = tr.records["v"]
    np.testing.assert_allclose(tr.records["r"], v / (1 + v))  # current instance included
    assert not tr.queried[0]  # r_1 < 1 = 1^{-κ}
    assert learner.state.n_updates == tr.n_queried  # every queried label updates
    np.testing.assert_array_equal(tr.queried, tr.records["r"] > tr.records["threshold"])


def test_bbq_eps_rules(problems):
    M, y = problems[1]
    T = len(y)
    small = run(BBQEps(eps=1e-6), M, y, seed=0, record=("q",))
    assert small.queried.all()  # ε → 0: every bias bound exceeds ε
    assert small.records["q"][0] == 0.0 and (small.records["q"][1:] > 0).all()  # S empty only in round 1
    large = run(BBQEps(eps=100.0), M, y, seed=0, record=("q",))
    assert large.n_queried == 0 and (large.records["q"] == 0).all()  # r + s < 100 and S stays empty
    mid = [run(BBQEps(eps=eps), M, y, seed=0).n_queried for eps in (1e-3, 0.3, 1.0, 3.0)]
    assert mid == sorted(mid, reverse=True) and 0 < mid[-2] < T


def test_dgs_projection_clips_the_scores():
    """After the projection W'ᵀm = clip(Wᵀm, −1, 1); checked on a state with large scores."""
    rng = np.random.default_rng(0)
    d, K = 6, 4
    learner = DGS(delta=0.1, gamma=0.01)
    learner.reset(d, K, rng)
    for _ in range(5):
        x = rng.standard_normal(d)
        learner.state.update(x, 5 * rng.standard_normal(K))
    x = rng.standard_normal(d)
    label, info = learner.predict(x)
    assert np.abs(info["score"]).max() > 1
    learner.wants_label(x, 10, info)
    twin = ref.ReferenceDGS(delta=0.1, gamma=0.01)
    twin.reset(d, K, rng)
    twin.W = learner.state.w.copy()
    twin.A = np.linalg.inv(learner.state.inverse())
    np.testing.assert_allclose(np.linalg.solve(twin.A, x), info["u"])
    learner.update(x, 2, label, info)
    twin.update(x, 2, label, {})
    np.testing.assert_allclose(learner.state.w, twin.W, rtol=1e-8, atol=1e-10)
    # the RLS step from the projected W' moves its score on x towards e_y: W_newᵀx = W'ᵀx + v/(1+v)(e_y − W'ᵀx)
    v = info["v"]
    clipped = np.clip(info["score"], -1, 1)
    np.testing.assert_allclose(x @ learner.state.w, clipped + v / (1 + v) * (np.eye(K)[2] - clipped))


def test_bad_hyperparameters_raise():
    for bad in (0, -1.0, np.inf, np.nan):
        with pytest.raises(ValueError, match="gamma"):
            CMOG(gamma=bad)
        with pytest.raises(ValueError, match="gamma"):
            MSG(gamma=bad, h=0.1)
        with pytest.raises(ValueError, match="h must"):
            MSG(gamma=1.0, h=bad)
        with pytest.raises(ValueError, match="eps"):
            BBQEps(eps=bad)
        with pytest.raises(ValueError, match="gamma"):
            BBQ(kappa=0.4, gamma=bad)
        with pytest.raises(ValueError, match="gamma"):
            DGS(delta=0.1, gamma=bad)
    with pytest.raises(TypeError, match="'h'"):  # required: yang2016 tunes it, no default stands in
        MSG()
    for bad in ("Definition1", "one-hot", None):
        with pytest.raises(ValueError, match="targets"):
            CMOG(targets=bad)
        with pytest.raises(ValueError, match="targets"):
            MSG(h=0.1, targets=bad)
    for bad in (-0.1, np.inf, np.nan):
        with pytest.raises(ValueError, match="kappa"):
            BBQ(kappa=bad)
    for bad in (0.0, 1.0, -0.5, 2.0, np.nan):
        with pytest.raises(ValueError, match="delta"):
            DGS(delta=bad)
        with pytest.raises(ValueError, match="delta"):
            BBQEps(eps=0.1, delta=bad)
    with pytest.raises(ValueError):
        MSG(h=0.1, seed=-1)
    with pytest.raises(TypeError):
        MSG(h=0.1, seed="abc")


def test_repr_names_every_parameter_and_round_trips():
    learners = [
        CMOG(),
        CMOG(gamma=0.5, targets="onehot"),
        MSG(gamma=2.0, h=1e-3, targets="onehot", seed=4),
        MSG(h=0.1),
        BBQ(kappa=0.3, gamma=2.0),
        BBQEps(eps=0.01, delta=0.2, gamma=3.0),
        DGS(delta=0.05, gamma=0.5),
    ]
    names = {c.__name__: c for c in (CMOG, MSG, BBQ, BBQEps, DGS)}
    reprs = [repr(learner) for learner in learners]
    assert len(set(reprs)) == len(reprs)
    for text in reprs:
        assert repr(eval(text, names)) == text
    assert repr(MSG(h=0.1)) == "MSG(gamma=1.0, h=0.1, targets='definition1', seed=None)"
    assert repr(BBQEps(eps=0.01)) == "BBQEps(gamma=1.0, eps=0.01, delta=0.1)"


# --------------------------------------------------------------------------- real graphs


@pytest.fixture(scope="module")
def real():
    """Cora and Coauthor at d = 50, with and without the bias feature (b = 1)."""
    out = {}
    for name in ("cora", "coauthor"):
        g = gs.load_dataset(name, download=False)
        M = gs.spectral_embedding(g.adjacency, 50).M
        out[name] = (M, g.labels)
        out[name + "+bias"] = (gs.add_bias(M, 1.0), g.labels)
    return out


REAL_PAIRS = [  # (fast, twin, an error rate each must beat: chance is 0.71 on Cora, 0.64 on Coauthor)
    (lambda: CMOG(), lambda: ref.ReferenceCMOG(), 0.45),
    (lambda: CMOG(targets="onehot"), lambda: ref.ReferenceCMOG(targets="onehot"), 0.45),
    (lambda: MSG(h=0.01), lambda: ref.ReferenceMSG(h=0.01), 0.45),
    (lambda: BBQ(), lambda: ref.ReferenceBBQ(), 0.6),  # queries only ~400 labels at κ = 0.4, d = 50
    (lambda: BBQEps(eps=0.1), lambda: ref.ReferenceBBQEps(eps=0.1), 0.45),
    (lambda: DGS(), lambda: ref.ReferenceDGS(), 0.45),
]


@pytest.mark.slow
@pytest.mark.parametrize("name, seed", [("cora", 0), ("coauthor+bias", 1), ("cora+bias", 2), ("coauthor", 3)])
def test_twins_agree_on_real_graphs(real, name, seed):
    M, y = real[name]
    for make_fast, make_slow, worst in REAL_PAIRS:
        a = run(make_fast(), M, y, seed=seed)
        assert_same_trace(a, run(make_slow(), M, y, seed=seed))
        assert a.error_rate < worst


@pytest.mark.parametrize("targets", ["definition1", "onehot"])
def test_msg_with_huge_h_and_no_aggressive_updates_is_cmog(problems, targets):
    """h → ∞ queries every round; without the aggressive (Θ < 0) updates MSG then updates exactly on
    CMOG's rounds (the mistakes), so the two are equal round by round. With them, MSG adds updates."""
    for M, y in problems:
        cmog = run(CMOG(gamma=1.0, targets=targets), M, y, seed=4)
        msg = run(MSG(gamma=1.0, h=1e300, targets=targets, aggressive=False), M, y, seed=4)
        assert msg.queried.all()
        np.testing.assert_array_equal(msg.predictions, cmog.predictions)
        aggressive = run(MSG(gamma=1.0, h=1e300, targets=targets), M, y, seed=4, record=("aggressive",))
        assert aggressive.queried.all() and aggressive.records["aggressive"].any()


# --------------------------------------------------------------------------- the compiled pass


def _python_rounds(learner):
    """``learner`` with its compiled pass switched off: ``run`` plays it round by round in Python."""
    learner.compiled_pass = lambda *args, **kwargs: None
    return learner


COMPILED = [
    (lambda: CMOG(gamma=0.5), ("v",)),
    (lambda: CMOG(targets="onehot", conservative=False), ("v",)),
    (lambda: MSG(h=1e-2), ("v", "r", "margin", "theta", "aggressive", "prob")),
    (lambda: MSG(h=0.3, targets="onehot", aggressive=False, seed=4), ("theta", "prob")),
    (lambda: BBQ(kappa=0.3), ("v", "r", "threshold")),
    (lambda: BBQEps(eps=0.3, gamma=0.5), ("r", "s", "q", "bound")),
    (lambda: DGS(delta=0.5), ("theta", "margin", "v")),
]


@pytest.mark.parametrize("make, keys", COMPILED)
def test_compiled_pass_equals_the_python_rounds(problems, long_stream, make, keys, monkeypatch):
    """Same predictions, queries, coins and updates round by round; scores, records and state to the last bits."""
    from graphsel_lib.online import multiclass_loop

    calls = []
    compiled = multiclass_loop.multiclass_rounds
    monkeypatch.setattr(multiclass_loop, "multiclass_rounds", lambda *a: calls.append(a[4]) or compiled(*a))
    for i, (M, y) in enumerate([*problems, long_stream]):
        fast, slow = make(), _python_rounds(make())
        a = run(fast, M, y, seed=i, record=keys)
        assert calls and calls[-1] == len(y)  # compiled, to the last round
        del calls[:]
        b = run(slow, M, y, seed=i, record=keys)
        assert not calls
        np.testing.assert_array_equal(a.predictions, b.predictions)
        np.testing.assert_array_equal(a.queried, b.queried)
        np.testing.assert_allclose(a.scores, b.scores, rtol=1e-10, atol=1e-12)
        for key in keys:
            np.testing.assert_allclose(a.records[key], b.records[key], rtol=1e-10, atol=1e-12, err_msg=key)
        assert fast.state.n_updates == slow.state.n_updates
        np.testing.assert_allclose(fast.state.w, slow.state.w, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(fast.state.inverse(), slow.state.inverse(), rtol=1e-10, atol=1e-12)
        for attr in ("_C", "sum_r"):
            if hasattr(slow, attr):
                want = np.triu(getattr(slow, attr)) if attr == "_C" else getattr(slow, attr)
                got = np.triu(getattr(fast, attr)) if attr == "_C" else getattr(fast, attr)
                np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12 * np.abs(want).max())
        if hasattr(slow, "rng"):  # MSG's coin advanced alike
            assert fast.rng.random() == slow.rng.random()


def test_subclasses_and_unkept_keys_keep_the_python_rounds(problems):
    """A subclass may change a rule: it is never played by its parent's compiled loop."""

    class Other(MSG):
        def wants_label(self, x, t, info):
            info["aggressive"], info["prob"] = False, 0.0
            return t % 2 == 0

    M, y = problems[0]
    learner = Other(h=1.0)
    learner.reset(M.shape[0], int(y.max()) + 1, np.random.default_rng(0))
    assert not learner.pass_releases_gil
    assert learner.compiled_pass(np.ascontiguousarray(M.T), np.arange(len(y)), y, ()) is None
    trace = run(Other(h=1.0), M, y)
    np.testing.assert_array_equal(trace.queried, np.arange(1, len(y) + 1) % 2 == 0)
    plain = MSG(h=1.0)
    plain.reset(M.shape[0], int(y.max()) + 1, np.random.default_rng(0))
    assert plain.pass_releases_gil
    assert plain.compiled_pass(np.ascontiguousarray(M.T), np.arange(len(y)), y, ("u",)) is None  # u: a vector
