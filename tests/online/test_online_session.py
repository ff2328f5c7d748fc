"""The ask/tell Session: equal to run() when told the true labels, refusals, save and resume."""

import copy
import functools
import io
import pickle

import numpy as np
import pytest

import graphsel_lib as gs
from conftest import random_connected_graph
from graphsel_lib import online as ol
from graphsel_lib.online.protocol import Trace
from graphsel_lib.online.session import UNKNOWN, Session

N = 30
LEARNER_METHODS = ("reset", "predict", "wants_label", "update")


@pytest.fixture(scope="module")
def graph():
    """A small connected graph, its spectral features (with bias), ±1 labels and 3 classes."""
    rng = np.random.default_rng(7)
    S = random_connected_graph(rng, N, p=0.15)
    M = gs.add_bias(gs.spectral_embedding(S, 5, cache=False).M)
    noise = rng.standard_normal(N)
    y = np.where(M[0] + 0.3 * noise * np.abs(M[0]).mean() > 0, 1, -1)
    classes = np.digitize(M[1], np.quantile(M[1], [1 / 3, 2 / 3]))
    assert set(y) == {-1, 1} and set(classes) == {0, 1, 2}
    return S, M, y, classes


# name -> (factory(S), "binary" | "classes", "ids" for node-id features)
CASES = {
    "GPA": (lambda S: ol.GPA(), "binary", False),
    "RandomSampling": (lambda S: ol.RandomSampling(p=0.5), "binary", False),
    "OLLGC": (lambda S: ol.OLLGC(mu=1.0), "binary", False),
    "SSLGC": (lambda S: ol.SSLGC(mu=1.0, kappa=0.3), "binary", False),
    "OneVsRest-stacked": (lambda S: ol.OneVsRest(lambda: ol.SSLGC(mu=0.5)), "classes", False),
    "OneVsRest-separate": (lambda S: ol.OneVsRest(lambda: ol.RandomSampling(p=0.4)), "classes", False),
    "CMOG": (lambda S: ol.CMOG(gamma=1.0), "classes", False),
    "MSG": (lambda S: ol.MSG(gamma=1.0, h=0.1), "classes", False),
    "MSG-own-seed": (lambda S: ol.MSG(gamma=1.0, h=0.1, seed=0), "classes", False),
    "BBQ": (lambda S: ol.BBQ(kappa=0.3), "classes", False),
    "BBQEps": (lambda S: ol.BBQEps(eps=0.2), "classes", False),
    "DGS": (lambda S: ol.DGS(delta=0.1), "classes", False),
    "Relaxation": (lambda S: ol.Relaxation(S, beta=0.2 * N), "classes", True),
    "Relaxation-push": (
        lambda S: ol.Relaxation(S, beta=0.2 * N, kernel="push", push_backend="python"),
        "classes",
        True,
    ),
    "MarginSampling": (lambda S: ol.MarginSampling(ol.CMOG(gamma=1.0), b=0.2), "classes", False),
    "RandomQueries": (lambda S: ol.RandomQueries(ol.CMOG(gamma=1.0), p=0.4), "classes", False),
    "WTA": (lambda S: ol.WTA(S, seed=3), "classes", True),
    "WTA-committee": (lambda S: ol.WTA(S, n_trees=3), "classes", True),
}


def setup(graph, name):
    S, M, y, classes = graph
    make, kind, ids = CASES[name]
    labels = y if kind == "binary" else classes
    features = ol.node_ids(N) if ids else M
    return (lambda: make(S)), features, labels, (None if kind == "binary" else 3)


def answer(session, truth, stop=None):
    """Tell the true label when asked, None otherwise, until done (or ``stop`` rounds done)."""
    while not session.done and (stop is None or session.n_done < stop):
        node, _, wants = session.ask()
        assert node == session.order[session.n_done]
        session.tell(truth[node] if wants else None)
    return session


def assert_same_as_run(st, rt, rounding=False):
    """A session trace equals run's: all rounds for order/predictions/scores/queried, told rounds for labels.

    ``rounding``: run played the pass compiled, the session the Python rounds, so
    scores and float records agree to the last bits only (decisions exactly).
    """
    assert isinstance(st, Trace)
    assert st.n_rounds == rt.n_rounds
    for key in ("order", "predictions", "scores", "queried"):
        if rounding and key == "scores":
            np.testing.assert_allclose(st.scores, rt.scores, rtol=1e-10, atol=1e-13)
        else:
            np.testing.assert_array_equal(getattr(st, key), getattr(rt, key), err_msg=key)
        assert getattr(st, key).dtype == getattr(rt, key).dtype, key
    q = rt.queried
    np.testing.assert_array_equal(st.labels[q], rt.labels[q])
    np.testing.assert_array_equal(st.mistakes[q], rt.mistakes[q])
    assert np.all(st.labels[~q] == UNKNOWN) and not st.mistakes[~q].any()
    assert st.records.keys() == rt.records.keys()
    for key in rt.records:
        if rounding and rt.records[key].dtype.kind == "f":
            np.testing.assert_allclose(st.records[key], rt.records[key], rtol=1e-10, atol=1e-13, err_msg=key)
        else:
            np.testing.assert_array_equal(st.records[key], rt.records[key], err_msg=key)
    assert st.learner == rt.learner
    assert st.elapsed.shape == (st.n_rounds,) and np.all(np.diff(st.elapsed) >= 0)


def assert_same_trace(a, b):
    """Two session traces equal in every field but the timings."""
    for key in ("order", "labels", "predictions", "scores", "mistakes", "queried"):
        np.testing.assert_array_equal(getattr(a, key), getattr(b, key), err_msg=key)
    assert a.records.keys() == b.records.keys()
    for key in a.records:
        np.testing.assert_array_equal(a.records[key], b.records[key], err_msg=key)


# --------------------------------------------------------------------------- equal to run


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("seed", [0, 3])
def test_session_told_the_truth_equals_run(graph, name, seed):
    make, features, labels, K = setup(graph, name)
    session = answer(Session(make(), features, seed=seed, n_classes=K), labels)
    assert session.done and session.question is None
    learner = make()
    trace = ol.run(learner, features, labels, seed=seed)
    # the stacked one-vs-rest learners share their compiled rounds with the session: bit for bit
    rounding = bool(getattr(learner, "pass_releases_gil", False)) and name != "OneVsRest-stacked"
    assert_same_as_run(session.trace, trace, rounding=rounding)


def test_every_exported_learner_is_covered():
    exported = {
        name
        for name in ol.__all__
        if isinstance(getattr(ol, name), type)
        and all(callable(getattr(getattr(ol, name), m, None)) for m in LEARNER_METHODS)
    }
    covered = {name.split("-")[0] for name in CASES}
    assert exported - covered == set()
    assert {"GPA", "MSG", "Relaxation", "MarginSampling"} <= exported


def test_given_order_rounds_and_record(graph):
    make, features, labels, K = setup(graph, "MSG")
    order = np.random.default_rng(11).permutation(N)
    session = answer(Session(make(), features, order, 4, n_classes=K, rounds=12, record=("prob",)), labels)
    assert session.done and session.n_rounds == 12
    full = ol.run(make(), features, labels, order, 4, record=("prob",))
    assert_same_as_run(
        session.trace, ol.run(make(), features, labels, order, 4, rounds=12, record=("prob",)), rounding=True
    )
    np.testing.assert_array_equal(session.trace.predictions, full.predictions[:12])


def test_trace_of_a_session_in_progress(graph):
    make, features, labels, K = setup(graph, "SSLGC")
    session = Session(make(), features, seed=2, n_classes=K)
    empty = session.trace
    assert empty.n_rounds == 0 and empty.scores.shape == (0,) and empty.labels.dtype == np.int64
    answer(session, labels, stop=10)
    session.ask()  # a pending question is not part of the trace
    tr = session.trace
    assert tr.n_rounds == 10 and session.n_done == 10
    full = ol.run(make(), features, labels, seed=2)
    np.testing.assert_array_equal(tr.predictions, full.predictions[:10])
    np.testing.assert_array_equal(tr.queried, full.queried[:10])
    # untold labels are UNKNOWN, never a label; mistakes only where told
    assert np.all((tr.labels == UNKNOWN) == ~tr.queried)
    assert tr.n_mistakes == int((full.mistakes[:10] & full.queried[:10]).sum())

    mc = Session(ol.CMOG(gamma=1.0), features, n_classes=3).trace
    assert mc.scores.shape == (0, 3)


# --------------------------------------------------------------------------- refusals


class Counter:
    """A binary learner that queries every other round and counts its calls."""

    multiclass = False

    def reset(self, d, n_classes, rng):
        self.calls = {"predict": 0, "wants_label": 0, "update": 0}
        self.told = []

    def predict(self, x):
        self.calls["predict"] += 1
        return 1, {"score": 0.0}

    def wants_label(self, x, t, info):
        self.calls["wants_label"] += 1
        return t % 2 == 1

    def update(self, x, y, label, info):
        self.calls["update"] += 1
        self.told.append(y)


def test_ask_twice_returns_the_same_question(graph):
    _, M, _, _ = graph
    learner = Counter()
    s = Session(learner, M)
    first = s.ask()
    assert s.ask() == first == s.question
    assert learner.calls == {"predict": 1, "wants_label": 1, "update": 0}
    assert first[0] == s.order[0] and first[2] is True


def test_tell_refuses_bad_answers_and_changes_nothing(graph):
    _, M, y, _ = graph
    learner = Counter()
    s = Session(learner, M)
    with pytest.raises(RuntimeError, match=r"before ask\(\)"):
        s.tell(1)
    node, _, wants = s.ask()
    assert wants  # round 1 is queried
    for bad, error, match in [
        (None, ValueError, "asked for the label"),
        (0, ValueError, "-1/\\+1"),
        (2, ValueError, "-1/\\+1"),
        (0.5, ValueError, "integer"),
        (True, ValueError, "integer"),
        (np.nan, ValueError, "integer|NaN"),
        ("1", TypeError, "numeric"),
        ([1, 1], ValueError, "one label"),
    ]:
        with pytest.raises(error, match=match):
            s.tell(bad)
    assert learner.calls["update"] == 0 and s.n_done == 0 and s.question == (node, 1, True)
    s.tell(np.int64(-1))  # any integer type; a float holding an integer is fine as well
    assert learner.told == [-1] and s.n_done == 1

    node, _, wants = s.ask()
    assert not wants  # round 2 is not queried
    with pytest.raises(ValueError, match="did not ask"):
        s.tell(int(y[node]))
    s.tell(None)
    assert learner.calls["update"] == 1 and s.trace.labels.tolist() == [-1, UNKNOWN]


def test_multiclass_labels_must_be_in_range(graph):
    _, M, _, classes = graph
    s = Session(ol.CMOG(gamma=1.0), M, n_classes=3)
    s.ask()
    for bad in (3, -1, 7):
        with pytest.raises(ValueError, match=r"0\.\.(2|K-1)"):
            s.tell(bad)
    s.tell(2.0)
    assert s.trace.labels.tolist() == [2]


def test_nothing_after_done(graph):
    _, M, y, _ = graph
    s = answer(Session(ol.GPA(), M, rounds=3), y)
    assert s.done and "done" in repr(s)
    with pytest.raises(RuntimeError, match="done"):
        s.ask()
    with pytest.raises(RuntimeError, match="done"):
        s.tell(1)
    with pytest.raises(RuntimeError, match="done"):
        s.tell(None)


def test_constructor_validation(graph):
    S, M, y, _ = graph
    with pytest.raises(ValueError, match="n_classes"):
        Session(ol.MSG(gamma=1.0, h=0.1), M)  # the labels are not known in advance
    with pytest.raises(ValueError, match="at least 2 classes"):
        Session(ol.CMOG(gamma=1.0), M, n_classes=1)
    with pytest.raises(TypeError, match="n_classes must be an integer"):
        Session(ol.CMOG(gamma=1.0), M, n_classes=2.5)
    with pytest.raises(ValueError, match="-1/\\+1"):
        Session(ol.GPA(), M, n_classes=3)
    Session(ol.GPA(), M, n_classes=2)
    with pytest.raises(TypeError, match="pass an instance"):
        Session(ol.GPA, M)
    with pytest.raises(ValueError, match="permutation"):
        Session(ol.GPA(), M, order=np.arange(N - 1))
    with pytest.raises(ValueError, match="2-D"):
        Session(ol.GPA(), M[0])
    with pytest.raises(ValueError, match="rounds must be in 1..n"):
        Session(ol.GPA(), M, rounds=N + 1)


def test_repr(graph):
    _, M, y, _ = graph
    s = Session(ol.OLLGC(mu=1.0), M)
    assert repr(s).startswith("Session(OLLGC(mu=1.0), 0/30 rounds")
    node, _, _ = s.ask()
    assert f"asked node {node}, label wanted" in repr(s)
    s.tell(y[node])
    assert "1/30 rounds, 1 labels told, next: ask()" in repr(s)


# --------------------------------------------------------------------------- save and resume

RESUMABLE = {
    "OLLGC": "OLLGC",
    "SSLGC": "SSLGC",
    "MSG": "MSG",
    "MSG-own-seed": "MSG-own-seed",
    "Relaxation": "Relaxation",
    "MarginSampling": "MarginSampling",
}
PICKLABLE_OVR = {  # OneVsRest from importable factories (a lambda cannot be pickled)
    "OneVsRest-stacked": (lambda S: ol.OneVsRest(functools.partial(ol.OLLGC, mu=1.0)), "classes", False),
    "OneVsRest-separate": (
        lambda S: ol.OneVsRest(functools.partial(ol.RandomSampling, p=0.4)),
        "classes",
        False,
    ),
}


@pytest.fixture(params=list(RESUMABLE) + list(PICKLABLE_OVR))
def resumable(request, graph, monkeypatch):
    if request.param in PICKLABLE_OVR:
        monkeypatch.setitem(CASES, request.param, PICKLABLE_OVR[request.param])
    return setup(graph, request.param)


@pytest.mark.parametrize("stop, pending", [(0, True), (7, False), (7, True), (N - 1, True)])
def test_saved_and_loaded_gives_the_uninterrupted_trace(resumable, tmp_path, stop, pending):
    make, features, labels, K = resumable
    whole = answer(Session(make(), features, seed=5, n_classes=K), labels)

    first = answer(Session(make(), features, seed=5, n_classes=K), labels, stop=stop)
    if pending:
        question = first.ask()
    path = first.save(tmp_path / "session.npz")
    assert path.exists() and not list(tmp_path.glob(".*tmp*"))
    resumed = Session.load(path)
    assert resumed.n_done == stop and resumed.question == (question if pending else None)
    assert repr(resumed) == repr(first)
    assert_same_trace(resumed.trace, first.trace)
    np.testing.assert_array_equal(resumed.trace.elapsed, first.trace.elapsed)  # carried over

    answer(resumed, labels, stop=stop + 5)
    resumed = Session.load(resumed.save(path))  # a second interruption
    answer(resumed, labels)
    assert_same_trace(resumed.trace, whole.trace)
    answer(first, labels)  # the saved session was not disturbed by saving
    assert_same_trace(first.trace, whole.trace)


def test_pickle_and_deepcopy_rebuild_shared_arrays(graph):
    """The stacked one-vs-rest keeps its K weight vectors as rows of one matrix; a copy must too."""
    _, M, _, classes = graph
    make = lambda: ol.OneVsRest(functools.partial(ol.OLLGC, mu=1.0))  # noqa: E731
    whole = answer(Session(make(), M, n_classes=3), classes)
    for copier in (copy.deepcopy, copy.copy, lambda s: pickle.loads(pickle.dumps(s))):
        s = answer(Session(make(), M, n_classes=3), classes, stop=10)
        c = answer(copier(s), classes)
        assert c.learner is not s.learner
        assert_same_trace(c.trace, whole.trace)
        assert_same_trace(answer(s, classes).trace, whole.trace)  # the original goes on undisturbed


def test_load_refuses_other_files(tmp_path, graph):
    _, M, y, _ = graph
    other = tmp_path / "other.pkl"
    other.write_bytes(pickle.dumps({"version": 1}))
    with pytest.raises(ValueError, match="not a saved Session"):
        Session.load(other)
    (tmp_path / "empty").write_bytes(b"")
    with pytest.raises(ValueError, match="not a saved Session"):
        Session.load(tmp_path / "empty")

    good = answer(Session(ol.GPA(), M), y, stop=4).save(tmp_path / "good.pkl")
    data = good.read_bytes()
    (tmp_path / "cut.pkl").write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="damaged"):
        Session.load(tmp_path / "cut.pkl")


def _rewrite(path, change):
    """Edit the JSON stored in a session file and write it back with a valid checksum (a consistent forgery)."""
    from graphsel_lib.online import session_file

    meta, arrays = session_file.read(path)
    change(meta)
    session_file.write(path, meta, arrays)


def test_load_refuses_a_state_that_does_not_replay(tmp_path, graph):
    _, M, y, _ = graph
    path = answer(Session(ol.OLLGC(mu=1.0), M), y, stop=6).save(tmp_path / "s.npz")
    assert Session.load(path).n_done == 6

    def flip(meta):
        meta["predictions"][3] = -meta["predictions"][3]

    _rewrite(path, flip)
    with pytest.raises(RuntimeError, match="cannot resume: replaying round 4"):
        Session.load(path)

    _rewrite(path, lambda meta: meta.update(session_version=99))
    with pytest.raises(ValueError, match="version 99"):
        Session.load(path)


def test_a_session_file_is_data_and_refuses_any_edit(tmp_path, graph, monkeypatch):
    """No pickle anywhere; every one-byte change of the file is refused (checksum, zip CRC, format)."""
    S, M, _, classes = graph
    from graphsel_lib.online import session_file

    learner = ol.MarginSampling(ol.CMOG(gamma=1.0), b=0.2)
    s = answer(Session(learner, M, n_classes=3, seed=2), classes, stop=6)
    s.notes = {"who": "a", "answers": [1, 2]}  # the layout of format 3: skipped rounds and notes
    while s.n_done < 9:
        node, _, wants = s.ask()
        s.skip() if wants else s.tell(None)
    assert s.skipped
    path = s.save(tmp_path / "s.npz")
    head, digest, archive = path.read_bytes().split(b"\n", 2)
    assert head == b"graphsel session %d" % session_file.FORMAT_VERSION and digest.startswith(b"sha256 ")
    with np.load(io.BytesIO(archive), allow_pickle=False) as z:  # plain arrays and JSON only
        assert all(z[k].dtype != object for k in z.files) and "meta" in z.files

    def no_pickle(*args, **kwargs):
        raise AssertionError("loading a session must not unpickle anything")

    monkeypatch.setattr(pickle, "load", no_pickle)
    monkeypatch.setattr(pickle, "loads", no_pickle)
    back = Session.load(path)
    assert back.n_done == 9 and back.skipped == s.skipped and back.notes == s.notes
    data = path.read_bytes()
    for i in range(len(data)):  # every byte
        bad = bytearray(data)
        bad[i] ^= 0x01
        (tmp_path / "bad.npz").write_bytes(bytes(bad))
        with pytest.raises(ValueError):
            Session.load(tmp_path / "bad.npz")


def test_relaxation_session_keeps_its_graph(tmp_path, graph):
    S, _, _, classes = graph
    s = answer(Session(ol.Relaxation(S, beta=0.2 * N), ol.node_ids(N), n_classes=3), classes, stop=5)
    back = Session.load(s.save(tmp_path / "r.npz"))
    assert (back.learner.S != s.learner.S).nnz == 0 and back.n_done == 5


def test_save_refuses_what_a_file_cannot_name(tmp_path, graph):
    _, M, y, _ = graph

    class Mine(ol.GPA):
        pass

    with pytest.raises(TypeError, match="not one of the library's learners"):
        Session(Mine(), M).save(tmp_path / "x.npz")
    with pytest.raises(IsADirectoryError, match="it is a folder"):
        Session(ol.GPA(), M).save(tmp_path)


def test_a_learner_in_a_live_session_is_not_reset_elsewhere(graph):
    _, M, y, _ = graph
    learner = ol.OLLGC(mu=1.0)
    s = answer(Session(learner, M), y, stop=4)
    with pytest.raises(RuntimeError, match="belongs to a live Session"):
        ol.run(learner, M, y)
    with pytest.raises(RuntimeError, match="belongs to a live Session"):
        Session(learner, M)
    answer(s, y)  # the session finishes undisturbed ...
    assert ol.run(learner, M, y).n_rounds == N  # ... and then the learner is free again


def test_save_refuses_an_unpicklable_learner_and_keeps_the_old_file(tmp_path, graph):
    _, M, _, classes = graph
    path = tmp_path / "s.npz"
    answer(Session(ol.CMOG(gamma=1.0), M, n_classes=3), classes, stop=3).save(path)
    before = path.read_bytes()
    s = Session(ol.OneVsRest(lambda: ol.OLLGC(mu=1.0)), M, n_classes=3)
    with pytest.raises(TypeError, match="not a lambda"):
        s.save(path)
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["s.npz"]
    assert Session.load(path).n_done == 3


# --------------------------------------------------------------------------- skip


def test_skip_closes_an_asked_round_without_updating_the_learner(graph):
    _, M, y, _ = graph
    learner = Counter()
    s = Session(learner, M)
    with pytest.raises(RuntimeError, match=r"skip\(\) before ask\(\)"):
        s.skip()
    node, _, wants = s.ask()
    assert wants
    s.skip()
    assert learner.calls["update"] == 0 and s.n_done == 1 and s.skipped == [0] and s.question is None
    node, _, wants = s.ask()
    assert not wants  # round 2 is not asked: skip() is refused, naming tell(None)
    with pytest.raises(ValueError, match=r"tell\(None\)"):
        s.skip()
    assert s.n_done == 1 and s.question == (node, 1, False)
    s.tell(None)
    s.ask()
    s.tell(1)
    tr = s.trace
    assert tr.labels.tolist() == [UNKNOWN, UNKNOWN, 1]
    assert tr.queried.tolist() == [False, False, True] and not tr.mistakes.any()
    assert "1 labels told, 1 skipped" in repr(s)


def test_skip_equals_a_pass_without_that_label(graph):
    """Skipping the asked rounds gives the predictions of a learner that was never shown those labels."""
    _, M, _, classes = graph
    make = lambda: ol.MSG(gamma=1.0, h=0.1)  # noqa: E731
    hidden = set(range(0, N, 3))
    a = Session(make(), M, seed=1, n_classes=3)
    while not a.done:
        node, _, wants = a.ask()
        if wants and node in hidden:
            a.skip()
        else:
            a.tell(classes[node] if wants else None)
    assert a.skipped and all(a.order[t] in hidden for t in a.skipped)
    assert np.all(a.trace.labels[a.skipped] == UNKNOWN) and not a.trace.queried[a.skipped].any()
    with pytest.raises(RuntimeError, match="done"):
        a.skip()


def test_skipped_rounds_are_saved_and_replayed(tmp_path, graph):
    S, _, _, classes = graph
    make = lambda: ol.MarginSampling(ol.Relaxation(S, beta=0.2 * N), b=0.5)  # noqa: E731

    def play(s, stop=None):
        while not s.done and (stop is None or s.n_done < stop):
            node, _, wants = s.ask()
            if wants and node % 2:
                s.skip()
            else:
                s.tell(classes[node] if wants else None)
        return s

    whole = play(Session(make(), ol.node_ids(N), seed=3, n_classes=3))
    first = play(Session(make(), ol.node_ids(N), seed=3, n_classes=3), stop=15)
    first.notes["k"] = [1, "x"]
    first.ask()
    back = Session.load(first.save(tmp_path / "s.npz"))
    assert back.skipped == first.skipped and back.notes == {"k": [1, "x"]} and back.question == first.question
    assert repr(back) == repr(first)
    assert_same_trace(play(back).trace, whole.trace)
    assert back.skipped == whole.skipped


def test_notes_must_be_json(tmp_path, graph):
    _, M, _, _ = graph
    s = Session(ol.GPA(), M)
    for bad in ({"a": np.arange(2)}, {1: "x"}, {"t": (1, 2)}, {"f": float("nan")}, [1]):
        s.notes = bad
        with pytest.raises(TypeError, match="notes"):
            s.save(tmp_path / "s.npz")
    assert not (tmp_path / "s.npz").exists()


def test_every_exported_learner_may_be_named_in_a_saved_session():
    """Exporting a learner from graphsel_lib.online registers it: LEARNER_CLASSES follows __all__."""
    from graphsel_lib import online

    exported = {n for n in online.__all__ if isinstance(getattr(online, n), type)}
    assert set(online.LEARNER_CLASSES) == exported - {"RidgeState", "Session", "Trace"}
    assert all(online.LEARNER_CLASSES[n] is getattr(online, n) for n in online.LEARNER_CLASSES)
    twins = {n for n in online.reference.__all__ if n.startswith("Reference")}
    assert {"ReferenceDGS", "ReferenceWTA", "ReferenceRelaxation"} <= twins


def test_the_live_session_guard_sees_through_wrappers(graph):
    """run(inner) while Session(MarginSampling(inner)) was live reset inner under the session without a word."""
    _, M, _, classes = graph
    inner = ol.CMOG(gamma=1.0)
    s = answer(Session(ol.MarginSampling(inner, b=0.2), M, n_classes=3), classes, stop=4)
    with pytest.raises(RuntimeError, match=r"CMOG belongs to a live Session .*playing MarginSampling"):
        ol.run(inner, M, classes)
    with pytest.raises(RuntimeError, match=r"RandomQueries \(the CMOG inside it\) belongs to a live Session"):
        ol.run(ol.RandomQueries(inner, p=0.5), M, classes)  # another wrapper around the same learner
    answer(s, classes)
    assert ol.run(inner, M, classes).n_rounds == N  # free once the session is done
    outer_inner = ol.CMOG(gamma=1.0)
    s2 = answer(Session(outer_inner, M, n_classes=3), classes, stop=2)
    with pytest.raises(RuntimeError, match=r"the CMOG inside it"):
        Session(ol.MarginSampling(outer_inner, b=0.2), M, n_classes=3)  # the other way round
    assert not s2.done


@pytest.mark.parametrize(
    "change, match",
    [(lambda m: m.pop("rng_state"), "lacks the field 'rng_state'"),
     (lambda m: m.pop("queried"), "lacks the field 'queried'"),
     (lambda m: m.update(labels=m["labels"][:-1]), r"'labels' holds 5 rounds but 'predictions' holds 6"),
     (lambda m: m.update(skipped=[40]), "'skipped' rounds are not rounds played"),
     (lambda m: m.update(n_classes="2"), "'n_classes' of the session file is str")],
)  # fmt: skip
def test_load_names_a_missing_field_or_inconsistent_rounds(tmp_path, graph, change, match):
    """A file with a valid checksum but a missing field raised a bare KeyError; a short labels list zip()'s error."""
    _, M, y, _ = graph
    path = answer(Session(ol.OLLGC(mu=1.0), M), y, stop=6).save(tmp_path / "s.npz")
    _rewrite(path, change)
    with pytest.raises(ValueError, match=match):
        Session.load(path)


#: An example value (a constant, or built from the graph ``S``) for each required ``__init__`` parameter name
#: of the learner classes: :func:`example_learner` builds any class whose required parameters are named here,
#: so a new class in LEARNER_CLASSES is saved and loaded below without an entry of its own.
EXAMPLE_ARGUMENTS = {
    "S": lambda S: S,
    "beta": lambda S: 0.2 * N,
    "b": lambda S: 0.2,
    "eps": lambda S: 0.2,
    "h": lambda S: 0.1,
    "p": lambda S: 0.4,
    "learner": lambda S: ol.CMOG(gamma=1.0, conservative=False),
    "make_binary_learner": lambda S: functools.partial(ol.SSLGC, mu=0.5, kappa=0.3),
}


def example_learner(cls, S):
    """``cls`` built with its defaults and :data:`EXAMPLE_ARGUMENTS` for its required parameters."""
    from graphsel_lib.online._params import _parameters

    required = [p.name for p in _parameters(cls) if p.default is p.empty]
    missing = [name for name in required if name not in EXAMPLE_ARGUMENTS]
    assert not missing, f"{cls.__name__} requires {missing}: add an example value to EXAMPLE_ARGUMENTS"
    return cls(**{name: EXAMPLE_ARGUMENTS[name](S) for name in required})


def learner_state(obj, path="learner", seen=None):
    """``{path: value}`` of every array, number, string and generator state inside ``obj`` (recursively)."""
    seen = set() if seen is None else seen
    if isinstance(obj, (bool, int, float, str, type(None), np.generic)):
        return {path: obj}
    if isinstance(obj, np.ndarray):
        return {path: obj}
    if isinstance(obj, np.random.Generator):
        return {path: obj.bit_generator.state}
    if id(obj) in seen or callable(obj):
        return {}
    seen.add(id(obj))
    if isinstance(obj, (list, tuple)):
        items = enumerate(obj)
    elif isinstance(obj, dict):
        items = obj.items()
    elif hasattr(obj, "toarray"):  # a sparse graph
        return {path: obj.toarray()}
    elif hasattr(obj, "__dict__") and type(obj).__module__.startswith("graphsel_lib"):
        items = vars(obj).items()
    else:
        return {}
    out = {}
    for key, value in items:
        out.update(learner_state(value, f"{path}.{key}", seen))
    return out


def assert_same_state(a, b):
    sa, sb = learner_state(a), learner_state(b)
    assert sa.keys() == sb.keys()
    for key in sa:
        if isinstance(sa[key], np.ndarray):
            np.testing.assert_array_equal(sa[key], sb[key], err_msg=key)
            assert sa[key].dtype == sb[key].dtype, key
        else:
            assert sa[key] == sb[key], key


@pytest.mark.parametrize("cls", sorted(ol.LEARNER_CLASSES))
def test_every_learner_class_is_saved_and_loaded(cls, graph, tmp_path):
    """Each class a saved session may name, fitted on half the rounds, saved and loaded: the same state, and
    the same predictions, queries and scores over the rest of the pass as the learner never saved."""
    S, M, y, classes = graph
    make = functools.partial(example_learner, ol.LEARNER_CLASSES[cls], S)
    multiclass = bool(make().multiclass)
    labels, K = (classes, 3) if multiclass else (y, None)
    features = ol.node_ids(N) if "S" in make().get_params(deep=False) else M  # a graph learner reads node ids
    whole = answer(Session(make(), features, seed=5, n_classes=K), labels)
    first = answer(Session(make(), features, seed=5, n_classes=K), labels, stop=N // 2)
    first.ask()
    resumed = Session.load(first.save(tmp_path / f"{cls}.npz"))
    assert type(resumed.learner) is ol.LEARNER_CLASSES[cls] and resumed.n_done == N // 2
    assert_same_state(resumed.learner, first.learner)
    assert_same_trace(answer(resumed, labels).trace, whole.trace)
    assert_same_trace(answer(first, labels).trace, whole.trace)
    assert_same_state(resumed.learner, first.learner)


def test_every_learner_class_has_an_example():
    """The table of example arguments covers every class (a new class's new required parameter fails here)."""
    S = random_connected_graph(np.random.default_rng(0), N, p=0.15)
    for cls in ol.LEARNER_CLASSES.values():
        assert type(example_learner(cls, S)) is cls


@pytest.mark.parametrize("cls", sorted(ol.LEARNER_CLASSES))
def test_hyper_parameters_are_validated_once_at_construction(cls, graph, monkeypatch):
    """Each hyper-parameter is checked when the learner is built, once; a pass (reset, rounds) checks none."""
    import importlib
    import pkgutil

    from graphsel_lib import _validation

    S, M, y, classes = graph
    calls = []

    def counting(check):
        def counted(value, what="seed", *args, **kwargs):  # check_seed's name defaults to "seed"
            calls.append(what)
            return check(value, what, *args, **kwargs)

        return counted

    for info in pkgutil.iter_modules(ol.__path__):
        if info.name in ("protocol", "session"):  # run checks its own arguments (rounds, n_classes)
            continue
        module = importlib.import_module(f"graphsel_lib.online.{info.name}")
        for name in ("check_positive", "check_probability", "check_integer", "check_seed"):
            if getattr(module, name, None) is getattr(_validation, name):
                monkeypatch.setattr(module, name, counting(getattr(_validation, name)))
    learner = example_learner(ol.LEARNER_CLASSES[cls], S)
    own = {name.split("__")[-1] for name in learner.get_params(deep=True)}  # with a wrapped learner's
    checked = [what for what in calls if what.split()[-1] in own]  # "query probability p" names p
    assert len(checked) == len(set(checked)), f"{cls}: validated more than once: {checked}"
    features = ol.node_ids(N) if "S" in own else M
    del calls[:]
    labels = classes if learner.multiclass else y
    for seed in (0, 1):
        ol.run(learner, features, labels, seed=seed, n_classes=3 if learner.multiclass else None)
    assert not calls, f"{cls}: a pass validates {calls} again"
