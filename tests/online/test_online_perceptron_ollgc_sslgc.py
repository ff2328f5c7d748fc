"""Every online learner equals its naive twin round by round (the naive twin rule).

The twins in ``graphsel_lib.online.reference`` follow the papers literally
(kernel expansion for GPA, ``np.linalg.solve`` every round for OLLGC/SSLGC);
both run through the same ``run``. Identical means: the same predictions,
mistakes and queries in every round, and scores equal to 1e-8 (relative).
"""

import numpy as np
import pytest

import graphsel_lib as gs
from conftest import assert_same_trace, dense_embedding, smooth_labels
from graphsel_lib.online import (
    GPA,
    OLLGC,
    SSLGC,
    OneVsRest,
    RandomSampling,
    RidgeState,
    run,
)
from graphsel_lib.online import reference as ref

# --------------------------------------------------------------------------- helpers


@pytest.fixture(scope="module")
def problems():
    """(M, binary y, 3-class y) on random connected graphs: exact and truncated kernels, with/without bias."""
    from conftest import random_connected_graph

    rng = np.random.default_rng(4242)
    out = []
    for n, d, bias, weighted in [(40, 39, None, True), (70, 12, 1.0, False), (90, 25, 0.5, True)]:
        S = random_connected_graph(rng, n, p=0.08, weighted=weighted)
        M = dense_embedding(S, d)
        if bias is not None:
            M = gs.add_bias(M, bias)
        y3 = smooth_labels(M, rng, 3)
        y2 = np.where(smooth_labels(M, rng, 2) == 1, 1, -1)
        out.append((M, y2, y3))
    return out


MUS = [1e-3, 0.1, 1.0, 10.0]


# --------------------------------------------------------------------------- binary twins


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_gpa_equals_kernel_perceptron(problems, seed):
    for M, y, _ in problems:
        assert_same_trace(run(GPA(), M, y, seed=seed), run(ref.ReferenceGPA(), M, y, seed=seed))


@pytest.mark.parametrize("mu", MUS)
@pytest.mark.parametrize("seed", [0, 1])
def test_ollgc_equals_naive_twin(problems, mu, seed):
    for M, y, _ in problems:
        fast = run(OLLGC(mu=mu), M, y, seed=seed)
        assert_same_trace(fast, run(ref.ReferenceOLLGC(mu=mu), M, y, seed=seed))
        assert fast.queried.all()


@pytest.mark.parametrize("mu", MUS)
@pytest.mark.parametrize("kappa", [0.1, 0.4, 1.0])
@pytest.mark.parametrize("include_current", [True, False])
def test_sslgc_equals_naive_twin(problems, mu, kappa, include_current):
    for i, (M, y, _) in enumerate(problems):
        kw = dict(include_current=include_current)
        fast = run(SSLGC(mu=mu, kappa=kappa, **kw), M, y, seed=i, record=("r", "threshold"))
        slow = run(ref.ReferenceSSLGC(mu=mu, kappa=kappa, **kw), M, y, seed=i, record=("r", "threshold"))
        assert_same_trace(fast, slow)
        np.testing.assert_allclose(fast.records["r"], slow.records["r"], rtol=1e-8, atol=1e-12)
        np.testing.assert_allclose(fast.records["threshold"], np.arange(1, len(y) + 1) ** -kappa)


def test_sslgc_query_rule_conventions(problems):
    M, y, _ = problems[1]
    a = run(SSLGC(mu=0.1, kappa=0.4), M, y, record=("r", "v"))
    b = run(SSLGC(mu=0.1, kappa=0.4, include_current=False), M, y, record=("r",))
    v = a.records["v"]
    np.testing.assert_allclose(a.records["r"], v / (1 + v))  # BBQ: current m_t included in A
    assert (a.records["r"] < 1).all() and not a.queried[0]  # r_1 < 1 = 1^-κ: round 1 never queried
    assert b.n_queried >= a.n_queried  # v > v/(1+v): the other convention queries more (same prefix)
    # an update happens only on a queried mistake
    updated = a.queried & a.mistakes
    learner = SSLGC(mu=0.1, kappa=0.4)
    run(learner, M, y)
    assert learner.state.n_updates == updated.sum()
    # gu2013 Eq. 26, first step: every queried round has r_t > t^-κ ≥ T^-κ, so N_T ≤ T^κ Σ_queried r_t
    T = len(y)
    assert a.n_queried <= T**0.4 * a.records["r"][a.queried].sum()
    # matrix determinant lemma: ln det A_T − d ln µ = Σ_updates ln(1 + v_t), and v/(1+v) ≤ ln(1+v)
    _, logdet_inv = np.linalg.slogdet(learner.state.inverse())
    log_ratio = -logdet_inv - M.shape[0] * np.log(0.1)
    np.testing.assert_allclose(log_ratio, np.log1p(v[updated]).sum(), rtol=1e-9)
    assert a.records["r"][updated].sum() <= log_ratio


@pytest.mark.parametrize("p", [0.0, 0.3, 1.0])
def test_random_sampling_equals_naive_twin(problems, p):
    for i, (M, y, _) in enumerate(problems):
        for seed in (None, 11):  # the run's generator, or the learner's own seed
            fast = run(RandomSampling(p=p, seed=seed), M, y, seed=i)
            assert_same_trace(fast, run(ref.ReferenceRandomSampling(p=p, seed=seed), M, y, seed=i))
    M, y, _ = problems[0]
    if p == 1.0:
        assert_same_trace(run(RandomSampling(p=1.0), M, y), run(GPA(), M, y))
    if p == 0.0:
        tr = run(RandomSampling(p=0.0), M, y)
        assert tr.n_queried == 0 and (tr.predictions == 1).all()  # never updated: w = 0, sign(0) = +1


@pytest.mark.parametrize("p", [0.1, 0.5])
def test_random_sampling_query_rate(p):
    n = 20_000
    M = np.random.default_rng(0).standard_normal((3, n))
    y = np.where(M[0] > 0, 1, -1)
    tr = run(RandomSampling(p=p), M, y, seed=5)
    assert abs(tr.query_rate - p) < 4 * np.sqrt(p * (1 - p) / n)
    # the queried rounds are exactly the coin flips of the run's learner generator
    assert not np.array_equal(tr.queried, run(RandomSampling(p=p), M, y, seed=6).queried)


def test_tie_rule_sign_zero_is_plus_one():
    M = np.zeros((2, 5))
    y = np.array([1, -1, 1, -1, 1])
    for learner in (GPA(), OLLGC(mu=1.0), SSLGC(mu=1.0), ref.ReferenceGPA(), ref.ReferenceOLLGC(mu=1.0)):
        tr = run(learner, M, y, order=np.arange(5))
        assert (tr.predictions == 1).all(), learner
    tr = run(OneVsRest(OLLGC), M, np.array([2, 1, 0, 2, 1]))
    assert (tr.predictions == 0).all()  # all scores 0: smallest class index


# --------------------------------------------------------------------------- shared core


def test_ridge_state_tracks_inverse_and_solution():
    rng = np.random.default_rng(3)
    d, K = 6, 4
    X = rng.standard_normal((30, d))
    Z = rng.standard_normal((30, K))
    one = RidgeState(d, 0.5)
    multi = RidgeState(d, 0.5, n_outputs=K)
    row = np.full(d, 7.0)
    shared = RidgeState(d, 0.5, out=row)
    A, b, B = 0.5 * np.eye(d), np.zeros(d), np.zeros((d, K))
    for x, z in zip(X, Z, strict=True):
        u, v = one.variance(x)
        np.testing.assert_allclose(u, np.linalg.solve(A, x))
        np.testing.assert_allclose(v, x @ np.linalg.solve(A, x))
        one.update(x, z[0], u, v)
        shared.update(x, z[0])
        multi.update(x, z)
        A += np.outer(x, x)
        b += z[0] * x
        B += np.outer(x, z)
    np.testing.assert_allclose(one.inverse(), np.linalg.inv(A), atol=1e-12)
    np.testing.assert_allclose(one.w, np.linalg.solve(A, b), atol=1e-12)
    np.testing.assert_allclose(row, one.w, atol=1e-14)
    assert shared.w is row
    np.testing.assert_allclose(multi.w, np.linalg.solve(A, B), atol=1e-12)
    assert one.n_updates == 30
    with pytest.raises(ValueError, match="contiguous"):
        RidgeState(d, 1.0, out=np.zeros((d, 2))[:, 0])  # a strided view would be copied, not updated
    with pytest.raises(ValueError, match="single output"):
        RidgeState(d, 1.0, n_outputs=2, out=np.zeros(d))


def test_hyperparameters_are_validated():
    for bad in (0, -1, np.inf, np.nan):
        with pytest.raises(ValueError, match="mu"):
            OLLGC(mu=bad)
        with pytest.raises(ValueError, match="mu"):
            SSLGC(mu=bad)
    with pytest.raises(ValueError, match="kappa"):
        SSLGC(mu=1.0, kappa=-0.1)
    for bad in (-0.1, 1.5):
        with pytest.raises(ValueError, match="p must be in"):
            RandomSampling(p=bad)


# --------------------------------------------------------------------------- one-vs-rest


def separate_runs(make, M, y, K, seed):
    """K independent binary runs, class k vs rest, on the order of ``run(..., seed=seed)``."""
    order = np.random.default_rng(seed).permutation(len(y))
    return [run(make(k), M, np.where(y == k, 1, -1), order=order, seed=seed) for k in range(K)]


def check_one_vs_rest(tr, singles, y):
    K = len(singles)
    for k, single in enumerate(singles):
        np.testing.assert_array_equal(tr.records["binary_predictions"][:, k], single.predictions)
        np.testing.assert_array_equal(tr.records["binary_queried"][:, k], single.queried)
        np.testing.assert_allclose(tr.scores[:, k], single.scores, rtol=1e-12, atol=1e-12)
    scores = np.stack([s.scores for s in singles], axis=1)
    np.testing.assert_array_equal(tr.predictions, scores.argmax(axis=1))
    np.testing.assert_array_equal(tr.mistakes, tr.predictions != y[tr.order])
    np.testing.assert_array_equal(tr.queried, np.any([s.queried for s in singles], axis=0))
    assert tr.binary_error_rate == pytest.approx(np.mean([s.error_rate for s in singles]))
    assert tr.binary_n_queried == pytest.approx(np.mean([s.n_queried for s in singles]))
    np.testing.assert_allclose(tr.binary_errors, [s.error_rate for s in singles])
    assert tr.scores.shape == (len(y), K)


MAKERS = {
    "GPA": lambda k=None: GPA(),
    "OLLGC": lambda k=None: OLLGC(mu=0.1),
    "SSLGC": lambda k=None: SSLGC(mu=0.1, kappa=0.4),
    "SSLGC-v": lambda k=None: SSLGC(mu=1.0, kappa=0.6, include_current=False),
    "RandomSampling-seeded": lambda k=None: RandomSampling(p=0.6, seed=11),  # every learner: default_rng(11)
}


@pytest.mark.parametrize("p", [0.0, 0.3, 1.0])
def test_stacked_random_sampling_equals_k_separate_learners(problems, p):
    """Stacked (Python or compiled): learner k's coins come from the k-th seed, as for K separate learners."""
    for i, (M, _, y) in enumerate(problems):
        sep = run(OneVsRest(lambda: RandomSampling(p=p), stacked=False), M, y, seed=i)
        for compiled in (False, True):
            ovr = OneVsRest(lambda: RandomSampling(p=p), compiled=compiled)
            tr = run(ovr, M, y, seed=i)
            assert ovr.stack is not None and ovr.learners is None
            assert_same_trace(tr, sep, rtol=1e-12)
            for key in ("binary_predictions", "binary_queried"):
                np.testing.assert_array_equal(tr.records[key], sep.records[key])
        if 0 < p < 1:
            assert 0 < tr.n_queried < len(y)


@pytest.mark.parametrize("name", sorted(MAKERS))
@pytest.mark.parametrize("stacked, compiled", [(True, True), (True, False), (False, False)])
def test_one_vs_rest_equals_k_separate_runs(problems, name, stacked, compiled):
    make = MAKERS[name]
    for i, (M, _, y) in enumerate(problems):
        tr = run(OneVsRest(make, stacked=stacked, compiled=compiled), M, y, seed=i)
        check_one_vs_rest(tr, separate_runs(make, M, y, 3, seed=i), y)


def _final_state(ovr):
    """(W, [A_k^{-1}], [n_updates]) of a stacked one-vs-rest learner after a pass, compiled or not."""
    st = ovr.stack
    if hasattr(st, "states"):  # RidgeOneVsRest
        return st.W.copy(), [s.inverse() for s in st.states], [s.n_updates for s in st.states]
    if hasattr(st, "Ainv") and len(st.Ainv):  # CompiledStack with the ridge rule
        return st.W.copy(), list(st.Ainv), st.n_updates.tolist()
    return st.W.copy(), [], []  # GPA


@pytest.mark.parametrize("name", sorted(MAKERS))
@pytest.mark.parametrize("rounds", [None, 1, 37])
def test_compiled_pass_equals_python_rounds(problems, name, rounds):
    """The compiled loop plays the learners' own rules: same trace, records and final state."""
    make = MAKERS[name]
    keys = ("r", "threshold") if name.startswith("SSLGC") else ()
    for i, (M, _, y) in enumerate(problems):
        fast, slow = OneVsRest(make), OneVsRest(make, compiled=False)
        a = run(fast, M, y, seed=i, rounds=rounds, record=keys)
        b = run(slow, M, y, seed=i, rounds=rounds, record=keys)
        assert_same_trace(a, b, rtol=1e-10)
        assert set(a.records) == set(b.records)
        for key in ("binary_predictions", "binary_queried"):
            np.testing.assert_array_equal(a.records[key], b.records[key])
            assert a.records[key].dtype == b.records[key].dtype
        for key in keys:
            np.testing.assert_allclose(a.records[key], b.records[key], rtol=1e-10, atol=1e-14)
        W_a, inv_a, n_a = _final_state(fast)
        W_b, inv_b, n_b = _final_state(slow)
        np.testing.assert_allclose(W_a, W_b, rtol=1e-10, atol=1e-12)
        for P, Q in zip(inv_a, inv_b, strict=True):
            np.testing.assert_allclose(P, Q, rtol=1e-10, atol=1e-12)
        assert n_a == n_b
        assert a.elapsed.shape == (a.n_rounds,) and np.all(np.diff(a.elapsed) >= 0) and a.elapsed[0] >= 0


def test_compiled_pass_falls_back_to_python_rounds(problems, monkeypatch):
    """A key the compiled loop does not keep, or no numba: the Python loop, with the same trace."""
    import sys

    M, _, y = problems[1]
    make = lambda: SSLGC(mu=0.5, kappa=0.5)  # noqa: E731
    ref_trace = run(OneVsRest(make, compiled=False), M, y, seed=3)
    ovr = OneVsRest(make)
    ovr.reset(M.shape[0], 3, np.random.default_rng(0))
    assert type(ovr.stack).__name__ == "CompiledStack"
    assert ovr.compiled_pass(np.ascontiguousarray(M.T), np.arange(len(y)), y, ("uv",)) is None
    for name in ("stacked_loop", "_kernels"):
        monkeypatch.delitem(sys.modules, f"graphsel_lib.online.{name}", raising=False)
        monkeypatch.delattr(gs.online, name, raising=False)
    monkeypatch.setitem(sys.modules, "numba", None)  # import numba -> ImportError
    ovr.reset(M.shape[0], 3, np.random.default_rng(0))
    assert type(ovr.stack).__name__ == "RidgeOneVsRest"  # the BLAS path
    assert ovr.compiled_pass(np.ascontiguousarray(M.T), np.arange(len(y)), y, ()) is None
    assert_same_trace(run(OneVsRest(make), M, y, seed=3), ref_trace, rtol=0)


def test_compiled_loop_is_compiled_before_the_clock_starts(monkeypatch):
    """play_in_chunks() calls step(0, 0) (compile, no round) before its first clock reading, then the chunks."""
    pytest.importorskip("numba")
    from graphsel_lib.online import _kernels

    events = []
    ticks = iter(range(100))
    monkeypatch.setattr(_kernels.time, "perf_counter", lambda: events.append("clock") or float(next(ticks)))
    elapsed = _kernels.play_in_chunks(lambda a, b: events.append((a, b)), 5, chunk=2)
    assert events == [(0, 0), "clock", (0, 2), "clock", (2, 4), "clock", (4, 5), "clock"]
    np.testing.assert_allclose(elapsed, [0.5, 1, 1.5, 2, 3])


def test_one_vs_rest_random_sampling_equals_separate_runs(problems):
    M, _, y = problems[2]
    seeds = iter(range(100, 200))
    tr = run(OneVsRest(lambda: RandomSampling(p=0.4, seed=next(seeds))), M, y, seed=3)
    # the first call was OneVsRest's sample; reset drew seeds 101, 102, 103
    check_one_vs_rest(tr, separate_runs(lambda k: RandomSampling(p=0.4, seed=101 + k), M, y, 3, seed=3), y)
    assert tr.n_queried > tr.binary_n_queried  # a node counts once if any learner queried it


@pytest.mark.parametrize(
    "fast, slow",
    [
        (lambda: GPA(), lambda: ref.ReferenceGPA()),
        (lambda: OLLGC(mu=0.01), lambda: ref.ReferenceOLLGC(mu=0.01)),
        (lambda: SSLGC(mu=0.3, kappa=0.5), lambda: ref.ReferenceSSLGC(mu=0.3, kappa=0.5)),
    ],
)
def test_one_vs_rest_equals_naive_twins(problems, fast, slow):
    for i, (M, _, y) in enumerate(problems):
        a = run(OneVsRest(fast), M, y, seed=10 + i)
        b = run(OneVsRest(slow), M, y, seed=10 + i)
        assert_same_trace(a, b)
        for key in ("binary_predictions", "binary_queried"):
            np.testing.assert_array_equal(a.records[key], b.records[key])


def test_one_vs_rest_rejects_multiclass_learners():
    with pytest.raises(TypeError, match="binary"):
        OneVsRest(lambda: OneVsRest(GPA))
    with pytest.raises(TypeError, match="callable"):
        OneVsRest(GPA())


# --------------------------------------------------------------------------- real graphs


@pytest.fixture(scope="module")
def real():
    """(name, M with bias b = 1, labels) of Cora and Coauthor at d = 100."""
    out = {}
    for name in ("cora", "coauthor"):
        g = gs.load_dataset(name, download=False)
        out[name] = (gs.add_bias(gs.spectral_embedding(g.adjacency, 100).M, 1.0), g.labels)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("name, k, seed", [("cora", 0, 0), ("cora", 5, 1), ("coauthor", 1, 2)])
def test_twins_agree_on_real_graphs(real, name, k, seed):
    M, labels = real[name]
    y = np.where(labels == k, 1, -1)  # class k vs the rest
    assert_same_trace(run(GPA(), M, y, seed=seed), run(ref.ReferenceGPA(), M, y, seed=seed))
    for mu in (0.01, 1.0):
        assert_same_trace(run(OLLGC(mu=mu), M, y, seed=seed), run(ref.ReferenceOLLGC(mu=mu), M, y, seed=seed))
    for inc in (True, False):
        a = run(SSLGC(mu=0.1, include_current=inc), M, y, seed=seed)
        assert_same_trace(a, run(ref.ReferenceSSLGC(mu=0.1, include_current=inc), M, y, seed=seed))
        assert 0 < a.n_queried < len(y)


@pytest.mark.slow
def test_one_vs_rest_on_cora(real):
    M, labels = real["cora"]
    a = run(OneVsRest(lambda: OLLGC(mu=0.1)), M, labels, seed=7)
    b = run(OneVsRest(lambda: ref.ReferenceOLLGC(mu=0.1)), M, labels, seed=7)
    assert_same_trace(a, b)
    # sanity of the scale (gu2013 Table 2, Cora OLLGC: 0.0758 mean binary error)
    assert a.binary_error_rate < 0.12 and a.error_rate < 0.35


@pytest.mark.parametrize("d", [5, 7, 33, 100, 101])
def test_one_vs_rest_ties_go_to_the_smallest_class(d):
    """Learners with the same history have equal scores; the smallest class must win, stacked or not."""
    rng = np.random.default_rng(d)
    M = rng.standard_normal((d, 60))
    y = np.full(60, 1)
    y[::7] = 0  # classes 2, 3 and 4 never occur: their learners stay identical
    for make in (GPA, lambda: OLLGC(mu=0.5), lambda: SSLGC(mu=0.5, kappa=0.9)):
        for stacked, compiled in ((True, True), (True, False), (False, False)):
            tr = run(OneVsRest(make, stacked=stacked, compiled=compiled), M, y, n_classes=5, seed=d)
            assert np.ptp(tr.scores[:, 2:], axis=1).max() == 0.0
            assert not np.isin(tr.predictions, [3, 4]).any()


def test_only_exact_types_are_stacked():
    class Shifted(OLLGC):  # a subclass with another rule must not be stacked as plain OLLGC
        def predict(self, x):
            s = float(self.state.w @ x) - 0.1
            return (1 if s >= 0 else -1), {"score": s}

    M = np.random.default_rng(0).standard_normal((3, 30))
    y = np.arange(30) % 3
    assert OLLGC().one_vs_rest() is not None and Shifted().one_vs_rest() is None
    assert GPA().one_vs_rest() is not None and RandomSampling(p=0.5).one_vs_rest() is not None

    class Rounded(RandomSampling):  # another coin rule: never stacked as plain RandomSampling
        def wants_label(self, x, t, info):
            return t % 2 == 0

    assert Rounded(p=0.5).one_vs_rest() is None
    ovr = OneVsRest(Shifted)
    tr = run(ovr, M, y)
    assert ovr.stack is None and len(ovr.learners) == 3
    np.testing.assert_array_equal(tr.records["binary_predictions"][0], [-1, -1, -1])  # -0.1 < 0
    ovr = OneVsRest(lambda: SSLGC(mu=0.5))
    run(ovr, M, y)
    assert ovr.learners is None and ovr.stack is not None


def test_booleans_and_strings_are_not_numbers():
    """``float(True)`` and ``float("0.1")`` used to pass as hyper-parameters."""
    for make in (
        lambda v: OLLGC(mu=v),
        lambda v: SSLGC(mu=v),
        lambda v: SSLGC(mu=1.0, kappa=v),
        lambda v: RandomSampling(p=v),
    ):
        for bad in (True, "0.1"):
            with pytest.raises(TypeError, match="must be a"):
                make(bad)
