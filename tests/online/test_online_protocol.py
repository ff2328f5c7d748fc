"""The online protocol ``run``: input validation, the Trace, reproducibility."""

import numpy as np
import pytest

import graphsel_lib.online as online
from graphsel_lib.online import GPA, OLLGC, SSLGC, OneVsRest, RandomSampling, Trace, run


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    M = rng.standard_normal((4, 50))
    y = np.where(M[0] + 0.5 * rng.standard_normal(50) > 0, 1, -1)
    classes = np.digitize(M[0], [-0.5, 0.5])  # 0, 1, 2
    return M, y, classes


class Recorder:
    """A binary learner that logs every call, to check what run() does."""

    multiclass = False

    def __init__(self, query_every=2):
        self.query_every = query_every

    def reset(self, d, n_classes, rng):
        self.calls = [("reset", d, n_classes)]
        self.rng = rng

    def predict(self, x):
        self.calls.append(("predict", x.copy()))
        return (1 if x[0] >= 0 else -1), {"score": float(x[0]), "u": self.rng.random()}

    def wants_label(self, x, t, info):
        self.calls.append(("wants", t))
        return t % self.query_every == 0

    def update(self, x, y, label, info):
        self.calls.append(("update", y, label))


# --------------------------------------------------------------------------- the loop


def test_run_follows_the_protocol_literally(data):
    M, y, _ = data
    order = np.random.default_rng(1).permutation(50)
    learner = Recorder()
    tr = run(learner, M, y, order=order, record=("u",))
    assert learner.calls[0] == ("reset", 4, 2)
    expected_pred, queried = [], []
    calls = iter(learner.calls[1:])
    for t, node in enumerate(order, start=1):
        kind, x = next(calls)
        assert kind == "predict"
        np.testing.assert_array_equal(x, M[:, node])
        label = 1 if M[0, node] >= 0 else -1
        expected_pred.append(label)
        assert next(calls) == ("wants", t)
        queried.append(t % 2 == 0)
        if t % 2 == 0:
            assert next(calls) == ("update", y[node], label)  # only on queried rounds
    assert next(calls, None) is None
    np.testing.assert_array_equal(tr.order, order)
    np.testing.assert_array_equal(tr.labels, y[order])
    np.testing.assert_array_equal(tr.predictions, expected_pred)
    np.testing.assert_array_equal(tr.mistakes, np.array(expected_pred) != y[order])
    np.testing.assert_array_equal(tr.queried, queried)
    np.testing.assert_array_equal(tr.scores, M[0, order])
    assert tr.records["u"].shape == (50,)


def test_trace_fields_and_summaries(data):
    M, y, classes = data
    tr = run(SSLGC(mu=0.5), M, y, seed=3)
    T = 50
    for name in ("order", "labels", "predictions", "scores", "mistakes", "queried", "elapsed"):
        assert getattr(tr, name).shape == (T,), name
    assert tr.mistakes.dtype == bool and tr.queried.dtype == bool
    assert tr.error_rate == tr.mistakes.sum() / T  # over all rounds, queried or not
    assert tr.n_queried == tr.queried.sum() and tr.n_rounds == T
    assert np.all(np.diff(tr.elapsed) >= 0) and tr.elapsed[0] >= 0 and tr.time == tr.elapsed[-1]
    np.testing.assert_array_equal(tr.cumulative("mistakes"), np.cumsum(tr.mistakes))
    assert "SSLGC" in repr(tr) and isinstance(tr, Trace)
    with pytest.raises(AttributeError, match="OneVsRest"):
        _ = tr.binary_error_rate

    mc = run(OneVsRest(GPA), M, classes, seed=3)
    assert mc.scores.shape == (T, 3) and mc.records["binary_predictions"].shape == (T, 3)
    assert 0 <= mc.binary_error_rate <= 1 and mc.binary_n_queried == T


def test_default_order_and_seeds(data):
    M, y, classes = data
    tr = run(GPA(), M, y, seed=7)
    np.testing.assert_array_equal(tr.order, np.random.default_rng(7).permutation(50))
    assert not np.array_equal(tr.order, run(GPA(), M, y, seed=8).order)


def fields(tr):
    return {k: v for k, v in vars(tr).items() if k not in ("elapsed", "records")} | tr.records


@pytest.mark.parametrize(
    "make, labels",
    [
        (lambda: RandomSampling(p=0.5), "binary"),
        (lambda: SSLGC(mu=0.1, kappa=0.3), "binary"),
        (lambda: OneVsRest(lambda: RandomSampling(p=0.3)), "classes"),
        (lambda: OneVsRest(lambda: OLLGC(mu=1.0)), "classes"),
    ],
)
def test_same_seed_same_trace(data, make, labels):
    M, y, classes = data
    y = y if labels == "binary" else classes
    learner = make()
    a, b, c = run(learner, M, y, seed=5), run(make(), M, y, seed=5), run(learner, M, y, seed=5)
    for other in (b, c):  # a fresh learner, and the same learner run again (reset)
        fa, fo = fields(a), fields(other)
        assert fa.keys() == fo.keys()
        for k in fa:
            np.testing.assert_array_equal(fa[k], fo[k], err_msg=k)
    if "RandomSampling" in repr(learner):  # the coin depends on the seed, also with a fixed order
        d = run(learner, M, y, order=a.order, seed=6)
        assert not np.array_equal(a.queried, d.queried)


def test_blas_thread_limit_is_optional(data):
    M, y, _ = data
    a = run(OLLGC(mu=0.1), M, y, blas_threads=None)
    b = run(OLLGC(mu=0.1), M, y, blas_threads=1)
    np.testing.assert_array_equal(a.predictions, b.predictions)


def test_public_api():
    for name in ("run", "Trace", "GPA", "OLLGC", "SSLGC", "RandomSampling", "OneVsRest", "RidgeState"):
        assert name in online.__all__ and hasattr(online, name)


# --------------------------------------------------------------------------- validation


def test_rejects_bad_M(data):
    M, y, _ = data
    with pytest.raises(ValueError, match="2-D"):
        run(GPA(), M[0], y)
    with pytest.raises(ValueError, match="2-D"):
        run(GPA(), M[None], y)
    with pytest.raises(ValueError, match="n = 49 columns"):
        run(GPA(), M[:, :49], y)
    for bad in (np.nan, np.inf):
        M2 = M.copy()
        M2[1, 3] = bad
        with pytest.raises(ValueError, match="NaN or infinite"):
            run(GPA(), M2, y)
    with pytest.raises(TypeError, match="numeric"):
        run(GPA(), M.astype(str), y)
    with pytest.raises(TypeError, match="real"):
        run(GPA(), M + 1j, y)
    with pytest.raises(TypeError, match="2-D array"):
        run(GPA(), "M", y)
    with pytest.raises(ValueError, match="non-empty"):
        run(GPA(), np.zeros((0, 50)), y)


def test_rejects_bad_labels(data):
    M, y, classes = data
    with pytest.raises(ValueError, match="-1/\\+1"):
        run(GPA(), M, (y > 0).astype(int))  # 0/1 labels for a binary learner
    with pytest.raises(ValueError, match="-1/\\+1"):
        run(OLLGC(), M, classes)
    with pytest.raises(ValueError, match="0..K-1"):
        run(OneVsRest(GPA), M, y)  # ±1 labels for a multiclass learner
    with pytest.raises(ValueError, match="0..1"):
        run(OneVsRest(GPA), M, classes, n_classes=2)
    with pytest.raises(ValueError, match="at least 2 classes"):
        run(OneVsRest(GPA), M, np.zeros(50, dtype=int))
    with pytest.raises(ValueError, match="integer"):
        run(GPA(), M, y * 0.5)
    with pytest.raises(ValueError, match="NaN, the mark of an unlabelled node.*needs every label"):
        run(GPA(), M, y.astype(float) + np.r_[np.nan, np.zeros(49)])
    partial = classes.copy()
    partial[:5] = -1  # a partially labelled graph's labels (g.labels): run() says what to use instead
    with pytest.raises(
        ValueError, match=r"-1, the mark of an unlabelled node \(5 of 50\).*harmonic.*Session"
    ):
        run(OneVsRest(GPA), M, partial)
    with pytest.raises(ValueError, match="length 49"):
        run(GPA(), M, y[:49])
    with pytest.raises(ValueError, match="1-D"):
        run(GPA(), M, y[None])
    with pytest.raises(TypeError, match="numeric"):
        run(GPA(), M, y.astype(str))
    # float labels holding integers are fine
    np.testing.assert_array_equal(run(GPA(), M, y.astype(float)).labels, run(GPA(), M, y).labels)


def test_rejects_bad_order(data):
    M, y, _ = data
    perm = np.arange(50)
    for bad in (perm[:49], np.r_[perm[:49], 0], np.r_[perm[:49], 50], np.r_[perm, 0], perm - 1):
        with pytest.raises(ValueError, match="permutation"):
            run(GPA(), M, y, order=bad)
    with pytest.raises(ValueError, match="integer"):
        run(GPA(), M, y, order=perm.astype(float))
    with pytest.raises(ValueError, match="1-D"):
        run(GPA(), M, y, order=perm.reshape(5, 10))


def test_rejects_non_learners(data):
    M, y, _ = data

    class Half:
        multiclass = False

        def predict(self, x):
            return 1, {"score": 0.0}

    with pytest.raises(TypeError, match="reset, wants_label, update"):
        run(Half(), M, y)
    with pytest.raises(TypeError, match="pass an instance"):
        run(GPA, M, y)  # the class, not an instance
    with pytest.raises(TypeError, match="not an online learner"):
        OneVsRest(lambda: object())


def test_inputs_are_not_modified_and_memory_order_does_not_matter(data):
    M, _, classes = data
    M0, c0 = M.copy(), classes.copy()
    order = np.random.default_rng(2).permutation(50)
    o0 = order.copy()
    a = run(OneVsRest(lambda: SSLGC(mu=0.2)), M, classes, order=order)
    b = run(OneVsRest(lambda: SSLGC(mu=0.2)), np.asfortranarray(M), classes, order=order)
    np.testing.assert_array_equal(M, M0)
    np.testing.assert_array_equal(classes, c0)
    np.testing.assert_array_equal(order, o0)
    np.testing.assert_array_equal(a.scores, b.scores)
    np.testing.assert_array_equal(a.queried, b.queried)


def test_non_integer_n_classes_raises_instead_of_truncating(data):
    """``n_classes=2.7`` used to run as K = 2."""
    M, _, classes = data
    for bad in (2.7, 3.0, True):
        with pytest.raises(TypeError, match="n_classes must be an integer"):
            run(OneVsRest(GPA), M, classes, n_classes=bad)
    assert run(OneVsRest(GPA), M, classes, n_classes=np.int64(3)).scores.shape == (50, 3)


def test_complex_features_are_refused(data):
    M, y, _ = data
    with pytest.raises(TypeError, match="complex values"):
        run(GPA(), M.astype(complex), y)


# --------------------------------------------------------------------------- rounds=


@pytest.mark.parametrize(
    "make, labels",
    [
        (lambda: SSLGC(mu=0.5, kappa=0.3), "binary"),
        (lambda: RandomSampling(p=0.5), "binary"),
        (lambda: OneVsRest(lambda: RandomSampling(p=0.3)), "classes"),
        (lambda: online.MSG(gamma=1.0, h=0.1), "classes"),
    ],
)
@pytest.mark.parametrize("rounds", [1, 17, 50])
def test_rounds_is_a_prefix_of_the_full_pass(data, make, labels, rounds):
    M, y, classes = data
    y = y if labels == "binary" else classes
    full = run(make(), M, y, seed=4, record=("score",))
    part = run(make(), M, y, seed=4, rounds=rounds, record=("score",))
    assert part.n_rounds == rounds and part.elapsed.shape == (rounds,)
    fp, ff = fields(part), fields(full)
    assert fp.keys() == ff.keys() and fp.pop("learner") == ff.pop("learner")
    for k in ff:
        np.testing.assert_array_equal(fp[k], ff[k][:rounds], err_msg=k)
        assert fp[k].dtype == ff[k].dtype, k


def test_rounds_with_a_given_order_and_node_ids():
    rng = np.random.default_rng(5)
    n = 20
    S = rng.random((n, n)) + 0.1
    S = np.triu(S, 1) + np.triu(S, 1).T
    classes = rng.integers(0, 3, size=n)
    order = rng.permutation(n)
    full = run(online.Relaxation(S, beta=4.0), online.node_ids(n), classes, order=order)
    part = run(online.Relaxation(S, beta=4.0), online.node_ids(n), classes, order=order, rounds=7)
    np.testing.assert_array_equal(part.order, order[:7])
    np.testing.assert_array_equal(part.scores, full.scores[:7])
    np.testing.assert_array_equal(part.mistakes, full.mistakes[:7])


def test_rounds_is_validated(data):
    M, y, _ = data
    for bad in (0, -1, 51, 10**6):
        with pytest.raises(ValueError, match=r"rounds must be in 1\.\.n = 1\.\.50"):
            run(GPA(), M, y, rounds=bad)
    for bad in (2.0, 2.5, True, "3"):
        with pytest.raises(TypeError, match="rounds must be an integer"):
            run(GPA(), M, y, rounds=bad)
    assert run(GPA(), M, y, rounds=np.int64(3)).n_rounds == 3


@pytest.mark.parametrize(
    "make, labels",
    [
        (GPA, "y"),
        (lambda: OneVsRest(lambda: SSLGC(mu=0.5)), "classes"),
        (lambda: OneVsRest(lambda: RandomSampling(p=0.5)), "classes"),
    ],
)
def test_progress_bar_changes_nothing_but_the_screen(data, make, labels, capsys, monkeypatch):
    """run(progress=True) shows a bar of the rounds (every 1,000 rounds, or every compiled chunk) and the same trace."""
    import graphsel_lib.online.protocol as protocol

    monkeypatch.setattr(protocol, "PROGRESS_EVERY", 7)
    M, y, classes = data
    target = y if labels == "y" else classes
    a = run(make(), M, target, seed=2, progress=True)
    err = capsys.readouterr().err
    b = run(make(), M, target, seed=2)
    for key in ("predictions", "scores", "queried", "mistakes"):
        np.testing.assert_array_equal(getattr(a, key), getattr(b, key))
    assert "50/50" in err  # the bar ends at T


@pytest.mark.parametrize("scale, what", [(1e160, "too large"), (1e-300, "too small")])
def test_features_whose_products_overflow_or_underflow_are_refused(scale, what):
    """M x 1e160 gave NaN scores and class 0 everywhere (CMOG, MSG, one-vs-rest OLLGC, BBQ), without a word."""
    rng = np.random.default_rng(0)
    M = rng.standard_normal((4, 20))
    y = rng.integers(0, 3, 20)
    for learner in (online.CMOG(gamma=1.0), online.MSG(h=0.1), online.BBQ(kappa=0.5)):
        with pytest.raises(ValueError, match=what):
            online.run(learner, M * scale, y)
    assert online.run(online.CMOG(gamma=1.0), M * 1e40, y).n_rounds == 20  # large, but representable


def test_an_unknown_record_key_names_the_keys_there_are():
    """record=('x',) raised a bare KeyError: 'x'."""
    rng = np.random.default_rng(1)
    M, y = rng.standard_normal((3, 12)), rng.integers(0, 2, 12)
    for learner in (online.CMOG(gamma=1.0), GPA()):
        labels = y if learner.multiclass else 2 * y - 1
        with pytest.raises(ValueError, match=r"reports no 'x' in its per-round info; it has .*'score'"):
            run(learner, M, labels, record=("x",))
    s = online.Session(online.CMOG(gamma=1.0), M, n_classes=2, record=("x",))
    with pytest.raises(ValueError, match="reports no 'x'"):
        s.ask()
    assert s.n_done == 0 and s.question is None
