"""Experiment engine: seeded orders, tuning, summaries, t-tests, caching, backends."""

import json
import re
from functools import partial

import numpy as np
import pandas as pd
import pytest

import graphsel_lib as gs
from graphsel_lib import experiments as ex
from graphsel_lib.experiments import cache_key
from graphsel_lib.experiments import evaluation as ev
from graphsel_lib.online import GPA, OLLGC, SSLGC, OneVsRest, RandomSampling


@pytest.fixture(scope="module")
def karate():
    g = gs.load_dataset("karate")
    M = gs.add_bias(gs.spectral_embedding(g.adjacency, 10, cache=False).M)
    return M, g.labels


def test_orders_are_seeded_permutations_and_tuning_order_is_separate():
    a, b = ex.random_orders(50, 5, seed=3), ex.random_orders(50, 5, seed=3)
    np.testing.assert_array_equal(a, b)
    assert all(np.array_equal(np.sort(o), np.arange(50)) for o in a)
    assert not np.array_equal(ex.random_orders(50, 5, seed=4), a)
    t = ex.tuning_order(50, seed=3)
    assert all(not np.array_equal(t, o) for o in a)
    np.testing.assert_array_equal(t, ex.tuning_order(50, seed=3))


def test_evaluate_matches_direct_runs(karate, tmp_path):
    M, y = karate
    orders = ex.random_orders(len(y), 4, seed=1)
    make = partial(OneVsRest, partial(OLLGC, mu=1.0))
    df = ex.evaluate(make, M, y, orders, n_jobs=1, cache_dir=tmp_path, method="OLLGC")
    seeds = ex.order_seeds(4, 0)
    for k, o in enumerate(orders):
        tr = gs.online.run(make(), M, y, order=o, seed=seeds[k])
        assert df.loc[k, "error_rate"] == tr.error_rate
        assert df.loc[k, "binary_error_rate"] == tr.binary_error_rate
        assert df.loc[k, "n_queried"] == tr.n_queried
    assert list(df["method"].unique()) == ["OLLGC"]


def test_same_seed_same_numbers_and_cache_reuse(karate, tmp_path):
    M, y = karate
    orders = ex.random_orders(len(y), 3, seed=2)
    make = partial(OneVsRest, partial(RandomSampling, p=0.5, seed=None))
    a = ex.evaluate(make, M, y, orders, n_jobs=1, cache=False)
    b = ex.evaluate(make, M, y, orders, n_jobs=1, cache=False)
    cols = ["error_rate", "n_queried", "binary_error_rate"]
    pd.testing.assert_frame_equal(a[cols], b[cols])
    c = ex.evaluate(make, M, y, orders, n_jobs=1, cache_dir=tmp_path)
    assert len(list(tmp_path.glob("*.json"))) == 1
    d = ex.evaluate(make, M, y, orders, n_jobs=1, cache_dir=tmp_path)
    pd.testing.assert_frame_equal(c, d)  # cached, including the stored times
    pd.testing.assert_frame_equal(a[cols], c[cols])


def test_parallel_local_equals_sequential(karate):
    M, y = karate
    orders = ex.random_orders(len(y), 4, seed=5)
    make = partial(OneVsRest, GPA)
    seq = ex.evaluate(make, M, y, orders, n_jobs=1, cache=False)
    par = ex.evaluate(make, M, y, orders, n_jobs=2, cache=False)
    pd.testing.assert_frame_equal(seq.drop(columns="time"), par.drop(columns="time"))


@pytest.mark.parametrize("binary", [GPA, partial(OLLGC, mu=0.1), partial(SSLGC, mu=0.1, kappa=0.4)])
def test_compiled_passes_run_in_threads_and_equal_sequential(karate, monkeypatch, binary):
    """A learner whose compiled pass releases the GIL runs its orders in threads: no worker processes."""
    import threading

    M, y = karate
    orders = ex.random_orders(len(y), 5, seed=7)
    make = partial(OneVsRest, binary)
    seq = ex.evaluate(make, M, y, orders, n_jobs=1, cache=False)
    before = _blas_threads()
    names = []
    real_pass = ev._one_pass

    def spy(*args, **kwargs):
        names.append(threading.current_thread().name)
        return real_pass(*args, **kwargs)

    def no_processes(*args, **kwargs):
        raise AssertionError("worker processes started for a pass that releases the GIL")

    monkeypatch.setattr(ev, "_one_pass", spy)
    monkeypatch.setattr(ev, "_parallel", no_processes)
    thr = ex.evaluate(make, M, y, orders, n_jobs=2, cache=False)
    pd.testing.assert_frame_equal(seq.drop(columns="time"), thr.drop(columns="time"))
    assert len(names) == 5 and "MainThread" not in names
    assert _blas_threads() == before  # the BLAS limit around the threads is undone


def test_python_passes_and_explicit_backends_still_use_joblib(karate, monkeypatch):
    M, y = karate
    orders = ex.random_orders(len(y), 3, seed=8)
    used = []
    real = ev._parallel
    monkeypatch.setattr(
        ev, "_parallel", lambda jobs, n, backend, **k: used.append(backend) or real(jobs, n, backend, **k)
    )
    ex.evaluate(partial(OneVsRest, GPA, compiled=False), M, y, orders, n_jobs=2, cache=False)
    ex.evaluate(partial(OneVsRest, GPA), M, y, orders, n_jobs=2, backend="loky", cache=False)
    assert used == [None, "loky"]
    assert not OneVsRest(GPA, compiled=False).pass_releases_gil  # before reset: no stack yet


def _blas_threads():
    import scipy.linalg  # noqa: F401 - load scipy's BLAS too
    from threadpoolctl import threadpool_info

    return sorted({i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"})


def test_local_workers_run_one_blas_thread_whatever_the_parent_says(monkeypatch):
    """Workers inheriting OPENBLAS_NUM_THREADS=2 (the notebook runner's setting) oversubscribe two cores."""
    import threading

    from joblib import Parallel, delayed, parallel_config

    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.setenv(var, "2")
    jobs = [delayed(_blas_threads)() for _ in range(2)]
    with parallel_config(backend="loky"):  # what the workers would get without the limit: the test can fail
        assert Parallel(n_jobs=2)(jobs) == [[2], [2]]
    assert ev._parallel(jobs, 2, None) == [[1], [1]]
    assert ev._parallel(jobs, 2, "loky") == [[1], [1]]
    with parallel_config(backend="threading"):  # a joblib context around evaluate is still honoured
        names = ev._parallel([delayed(lambda: threading.current_thread().name)() for _ in range(2)], 2, None)
        assert all(name != "MainThread" for name in names)


def test_dask_backend_gives_the_same_table(karate):
    distributed = pytest.importorskip("distributed")
    M, y = karate
    orders = ex.random_orders(len(y), 4, seed=6)
    make = partial(OneVsRest, partial(OLLGC, mu=0.1))
    local = ex.evaluate(make, M, y, orders, n_jobs=1, cache=False)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
    ):
        remote = ex.evaluate(make, M, y, orders, backend="dask", cache=False)
    pd.testing.assert_frame_equal(local.drop(columns="time"), remote.drop(columns="time"))


def test_tune_picks_the_grid_minimum(karate):
    M, y = karate
    order = ex.tuning_order(len(y), seed=0)
    best, table = ex.tune(
        lambda mu: OneVsRest(partial(OLLGC, mu=mu)),
        {"mu": [0.01, 0.1, 1.0, 10.0]},
        M,
        y,
        order,
        n_jobs=1,
        cache=False,
    )
    assert len(table) == 4
    assert best["mu"] == table.loc[table["error_rate"].idxmin(), "mu"]


def test_summarize_and_paired_ttest():
    df = pd.DataFrame(
        {
            "method": ["A"] * 4 + ["B"] * 4,
            "order": [0, 1, 2, 3] * 2,
            "error_rate": [0.10, 0.12, 0.11, 0.13, 0.20, 0.21, 0.23, 0.22],
        }
    )
    s = ex.summarize(df)
    assert list(s["method"]) == ["A", "B"]
    assert s.loc[0, "error_rate_mean"] == pytest.approx(0.115)
    assert s.loc[0, "error_rate_std"] == pytest.approx(np.std([0.10, 0.12, 0.11, 0.13], ddof=1))
    r = ex.paired_ttest(df, "A", "B")
    from scipy import stats

    assert r["p"] == pytest.approx(stats.ttest_rel(df.error_rate[:4], df.error_rate[4:]).pvalue)
    assert r["significant"] and r["mean_diff"] == pytest.approx(-0.1)
    with pytest.raises(ValueError, match="same orders"):
        ex.paired_ttest(df.iloc[:7], "A", "B")
    assert ex.mean_std(0.18384, 0.0021) == "0.1838 ± 0.0021"


# --------------------------------------------------------------------------- honest cache keys


class _AlwaysPlusOne(OLLGC):
    """Inherits OLLGC's parameters (and, before the generic repr, its repr) but predicts +1 always."""

    def predict(self, x):
        return 1, {"score": 1.0}


class _AlwaysPlusOneSSLGC(SSLGC):
    def predict(self, x):
        return 1, {"score": 1.0}


def _user_learner(body):
    """A learner class named ``Mine`` defined from source text in ``__main__``, as a notebook cell would."""
    import textwrap

    namespace = {"__name__": "__main__", "SSLGC": SSLGC, "np": np}
    exec(compile(textwrap.dedent(body), "<notebook cell>", "exec"), namespace)
    return namespace["Mine"]


def _mean_error(make, karate, orders, **kw):
    M, y = karate
    return ex.evaluate(make, M, y, orders, n_jobs=1, **kw).error_rate.mean()


@pytest.mark.parametrize("parent, child", [(OLLGC, _AlwaysPlusOne), (SSLGC, _AlwaysPlusOneSSLGC)])
def test_cache_tells_a_subclass_from_its_parent(karate, tmp_path, parent, child):
    orders = ex.random_orders(len(karate[1]), 3, seed=1)
    first = _mean_error(partial(OneVsRest, parent), karate, orders, cache_dir=tmp_path)
    cached = _mean_error(partial(OneVsRest, child), karate, orders, cache_dir=tmp_path)
    truth = _mean_error(partial(OneVsRest, child), karate, orders, cache=False)
    assert truth != first
    assert cached == truth
    assert len(list(tmp_path.glob("*.json"))) == 2


def test_cache_tells_an_edited_user_learner_from_its_old_version(karate, tmp_path):
    old = _user_learner(
        """
        class Mine(SSLGC):
            def predict(self, x):
                s = float(np.dot(self.state.w, x))
                return (1 if s >= 0.0 else -1), {"score": s}
        """
    )
    new = _user_learner(  # same name and module, one line edited
        """
        class Mine(SSLGC):
            def predict(self, x):
                s = float(np.dot(self.state.w, x)) - 0.5
                return (1 if s >= 0.0 else -1), {"score": s}
        """
    )
    assert (old.__module__, old.__qualname__, repr(old())) == (new.__module__, new.__qualname__, repr(new()))
    orders = ex.random_orders(len(karate[1]), 3, seed=1)
    first = _mean_error(partial(OneVsRest, old), karate, orders, cache_dir=tmp_path)
    cached = _mean_error(partial(OneVsRest, new), karate, orders, cache_dir=tmp_path)
    truth = _mean_error(partial(OneVsRest, new), karate, orders, cache=False)
    assert truth != first
    assert cached == truth
    assert ex.learner_key(old()) != ex.learner_key(new())


def test_cache_key_changes_with_any_parameter(karate, tmp_path):
    from graphsel_lib.online.reference import ReferenceCMOG

    # ReferenceCMOG's hand-written repr left out ``conservative``
    orders = ex.random_orders(len(karate[1]), 3, seed=2)  # orders on which the two variants differ
    first = _mean_error(partial(ReferenceCMOG, conservative=True), karate, orders, cache_dir=tmp_path)
    cached = _mean_error(partial(ReferenceCMOG, conservative=False), karate, orders, cache_dir=tmp_path)
    truth = _mean_error(partial(ReferenceCMOG, conservative=False), karate, orders, cache=False)
    assert truth != first
    assert cached == truth
    assert len(list(tmp_path.glob("*.json"))) == 2
    for a, b in [
        (SSLGC(mu=0.1), SSLGC(mu=0.2)),
        (SSLGC(mu=0.1), SSLGC(mu=0.1, include_current=False)),
        (OneVsRest(partial(OLLGC, mu=0.1)), OneVsRest(partial(OLLGC, mu=0.2))),
        (OneVsRest(GPA), OneVsRest(GPA, stacked=False)),
    ]:
        assert ex.learner_key(a) != ex.learner_key(b), (a, b)


def test_same_learner_twice_hits_the_cache(karate, tmp_path, monkeypatch):
    orders = ex.random_orders(len(karate[1]), 3, seed=1)
    first = ex.evaluate(
        partial(OneVsRest, partial(OLLGC, mu=0.5)), *karate, orders, n_jobs=1, cache_dir=tmp_path
    )

    def no_recompute(*args, **kwargs):
        raise AssertionError("recomputed a cached configuration")

    monkeypatch.setattr(ev, "_one_pass", no_recompute)
    again = ex.evaluate(
        lambda: OneVsRest(lambda: OLLGC(mu=0.5)), *karate, orders, n_jobs=1, cache_dir=tmp_path
    )
    pd.testing.assert_frame_equal(first, again)
    assert len(list(tmp_path.glob("*.json"))) == 1
    assert ex.learner_key(OneVsRest(partial(OLLGC, mu=0.5))) == ex.learner_key(
        OneVsRest(lambda: OLLGC(mu=0.5))
    )


def test_unwritable_cache_warns_and_returns_the_result(karate, tmp_path, monkeypatch):
    orders = ex.random_orders(len(karate[1]), 3, seed=1)
    make = partial(OneVsRest, partial(OLLGC, mu=0.5))
    truth = ex.evaluate(make, *karate, orders, n_jobs=1, cache=False)
    blocker = tmp_path / "a_file"
    blocker.write_text("in the way")
    with pytest.warns(RuntimeWarning, match="not cached"):
        blocked = ex.evaluate(make, *karate, orders, n_jobs=1, cache_dir=blocker / "results")
    pd.testing.assert_frame_equal(truth.drop(columns="time"), blocked.drop(columns="time"))

    def read_only(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    from graphsel_lib.experiments import results_files  # the files of the results cache

    monkeypatch.setattr(results_files, "atomic_write", read_only)
    with pytest.warns(RuntimeWarning, match="not cached"):
        denied = ex.evaluate(make, *karate, orders, n_jobs=1, cache_dir=tmp_path / "ro")
    pd.testing.assert_frame_equal(truth.drop(columns="time"), denied.drop(columns="time"))


# --------------------------------------------------------------------------- paired t-test


def _two_methods(orders_a=(0, 1, 2, 3), orders_b=(0, 1, 2, 3)):
    return pd.DataFrame(
        {
            "method": ["A"] * len(orders_a) + ["B"] * len(orders_b),
            "order": list(orders_a) + list(orders_b),
            "error_rate": np.linspace(0.1, 0.3, len(orders_a) + len(orders_b)),
        }
    )


def test_paired_ttest_raises_on_absent_names():
    df = _two_methods()
    with pytest.raises(ValueError, match=r"'C'.*not in the 'method' column.*'A', 'B'"):
        ex.paired_ttest(df, "A", "C")
    with pytest.raises(ValueError, match=r"'X', 'Y'.*not in the 'method' column"):
        ex.paired_ttest(df, "X", "Y")


def test_paired_ttest_raises_on_fewer_than_two_orders():
    with pytest.raises(ValueError, match="at least two"):
        ex.paired_ttest(_two_methods((0,), (0,)), "A", "B")


def test_paired_ttest_raises_on_mismatched_orders():
    with pytest.raises(ValueError, match="same orders"):
        ex.paired_ttest(_two_methods((0, 1, 2, 3), (0, 1, 2, 4)), "A", "B")
    with pytest.raises(ValueError, match="same orders"):
        ex.paired_ttest(_two_methods((0, 1, 2, 3), (0, 1, 2)), "A", "B")
    # the same order ids twice (e.g. two datasets in one table): the pairs are ambiguous
    with pytest.raises(ValueError, match="repeat"):
        ex.paired_ttest(_two_methods((0, 1, 0, 1), (0, 1, 0, 1)), "A", "B")


# --------------------------------------------------------------------------- get_params and the generic repr


def _all_learners():
    from graphsel_lib.online import (
        BBQ,
        CMOG,
        DGS,
        MSG,
        BBQEps,
        MarginSampling,
        RandomQueries,
        Relaxation,
    )
    from graphsel_lib.online import reference as r
    from graphsel_lib.online import reference as rm
    from graphsel_lib.online import reference as rr

    S = gs.load_dataset("karate").adjacency
    return [
        GPA(),
        RandomSampling(p=0.3, seed=4),
        OLLGC(mu=0.1),
        SSLGC(mu=0.1, include_current=False),
        OneVsRest(partial(SSLGC, mu=0.5), stacked=False),
        CMOG(conservative=False),
        MSG(gamma=2.0, h=0.1, aggressive=False, seed=3),
        BBQ(kappa=0.3),
        BBQEps(eps=0.1),
        DGS(),
        MarginSampling(CMOG(gamma=2.0), b=0.1, seed=3),
        RandomQueries(CMOG(targets="onehot"), p=0.5),
        Relaxation(S, beta=3.0, kernel="push"),
        r.ReferenceGPA(),
        r.ReferenceRandomSampling(p=0.2),
        r.ReferenceOLLGC(),
        r.ReferenceSSLGC(include_current=False),
        rm.ReferenceCMOG(conservative=False),
        rm.ReferenceMSG(h=0.01, aggressive=False),
        rm.ReferenceBBQ(),
        rm.ReferenceBBQEps(eps=0.1),
        rm.ReferenceDGS(),
        rr.ReferenceRelaxation(S, beta=3.0),
    ]


def test_get_params_reads_every_init_parameter_and_rebuilds_the_learner():
    import inspect

    learners = _all_learners()
    for learner in learners:
        init = type(learner).__init__
        names = [] if init is object.__init__ else list(inspect.signature(init).parameters)[1:]
        params = learner.get_params(deep=False)
        assert list(params) == names, learner
        twin = type(learner)(**params)
        assert repr(twin) == repr(learner) and ex.learner_key(twin) == ex.learner_key(learner)
    assert len({ex.learner_key(learner) for learner in learners}) == len(learners)
    assert OneVsRest(partial(SSLGC, mu=0.5)).get_params()["make_binary_learner__mu"] == 0.5


def test_generic_repr_names_the_class_and_every_parameter():
    assert repr(_AlwaysPlusOneSSLGC(mu=0.5)) == "_AlwaysPlusOneSSLGC(mu=0.5, kappa=0.4)"  # was "SSLGC(...)"
    assert (
        repr(OneVsRest(lambda: SSLGC(mu=0.5), stacked=False))
        == "OneVsRest(SSLGC(mu=0.5, kappa=0.4), stacked=False)"
    )
    from graphsel_lib.online.reference import ReferenceCMOG

    assert repr(ReferenceCMOG(conservative=False)).endswith("conservative=False)")  # was left out


def test_learners_with_hidden_parameters_are_keyed_by_their_state():
    class Forwarding(SSLGC):  # parameters hidden behind *args/**kwargs
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)

    class Hiding(SSLGC):  # ``shift`` kept under another name
        def __init__(self, mu=1.0, shift=0.0):
            super().__init__(mu=mu)
            self._offset = shift

    assert ex.learner_key(Forwarding(mu=0.1)) != ex.learner_key(Forwarding(mu=1.0))
    assert ex.learner_key(Hiding(shift=0.0)) != ex.learner_key(Hiding(shift=0.5))
    assert repr(Hiding(0.5)) == "Hiding(mu=0.5, shift=?)"  # repr never raises (run() stores it in the Trace)
    assert repr(Forwarding(mu=0.5)).startswith("Forwarding(mu=0.5, kappa=0.4")
    with pytest.raises(AttributeError, match="shift"):
        Hiding().get_params()


def test_pick_best_breaks_ties_by_order_and_reports_the_margin():
    p = ex.pick_best([0.30, 0.20 * (1 + 1e-12), 0.20, 0.25])  # equal but for rounding: the first wins
    assert p == ex.Pick(1, 2, 0.0) and p.tied  # a tie: the order chose (margin 0), not the scores
    assert ex.pick_best([0.30, 0.20, 0.25]) == ex.Pick(1, 1, pytest.approx(0.05))
    assert ex.pick_best([0.30, 0.20 * (1 + 1e-6), 0.20]).index == 2  # a real difference decides
    assert ex.pick_best([np.nan, 2.0, 1.0], maximize=True) == (1, 1, 1.0)
    assert ex.pick_best([0.5]).margin == np.inf
    with pytest.raises(ValueError, match="no score"):
        ex.pick_best([np.nan, np.nan])


def test_tune_marks_the_choice_and_its_margin(karate):
    M, y = karate
    best, table = ex.tune(
        lambda mu: OneVsRest(lambda: OLLGC(mu=mu)),
        {"mu": [1e-3, 1e-2, 1e-1, 1.0]},
        M,
        y,
        ex.tuning_order(len(y), 0),
        cache=False,
        n_jobs=1,
    )
    assert table["chosen"].sum() == 1 and table.loc[table["chosen"], "mu"].item() == best["mu"]
    assert table.loc[table["chosen"], "margin"].item() == 0 and (table["margin"] >= 0).all()
    tied = ex.tune(
        lambda mu: OneVsRest(lambda: OLLGC(mu=1.0)),
        {"mu": [3.0, 1.0, 2.0]},
        M,
        y,
        ex.tuning_order(len(y), 0),
        cache=False,
        n_jobs=1,
    )[0]
    assert tied == {"mu": 3.0}  # every point scores the same: the first in grid order


def test_tuning_note_says_how_the_choice_was_made(karate):
    M, y = karate
    order = ex.tuning_order(len(y), 0)
    _, table = ex.tune(
        lambda mu: OneVsRest(lambda: OLLGC(mu=mu)), {"mu": [1e-2, 1.0]}, M, y, order, cache=False, n_jobs=1
    )
    note = ex.tuning_note(table)
    chosen = table[table.chosen].iloc[0]
    assert note.startswith(f"mu={chosen.mu:g} (error_rate {chosen.error_rate:.4g}; ")
    _, tied = ex.tune(
        lambda mu: OneVsRest(lambda: OLLGC(mu=1.0)), {"mu": [3.0, 1.0]}, M, y, order, cache=False, n_jobs=1
    )
    assert ex.tuning_note(tied).endswith("; tied with mu=1: the first in grid order)")


def test_a_cache_file_with_missing_or_bad_rows_is_recomputed(karate, tmp_path):
    M, y = karate
    orders = ex.random_orders(len(y), 2, seed=4)
    first = ex.evaluate(GPA, M, np.where(y == 0, -1, 1), orders, n_jobs=1, cache_dir=tmp_path)
    (path,) = tmp_path.glob("*.json")
    stored = json.loads(path.read_text())
    for bad in (stored["rows"][:1], [stored["rows"][0], {"error_rate": 0.1}], [stored["rows"][0], None]):
        path.write_text(json.dumps({**stored, "rows": bad}))
        with pytest.warns(RuntimeWarning, match="recomputing"):
            again = ex.evaluate(GPA, M, np.where(y == 0, -1, 1), orders, n_jobs=1, cache_dir=tmp_path)
        pd.testing.assert_frame_equal(again.drop(columns="time"), first.drop(columns="time"))


def test_cache_key_follows_the_code_a_learner_runs(tmp_path):
    """A docstring or another learner's edit keeps the cached results; a change of the update rule does not."""
    import shutil

    from graphsel_lib import experiments as ex
    from graphsel_lib.online import MSG, learner_description

    root = tmp_path / "graphsel_lib"
    shutil.copytree(cache_key.LIBRARY_ROOT, root, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    modules = cache_key._modules_of(learner_description(MSG(gamma=1.0, h=0.1))) | {
        "graphsel_lib.online.protocol"
    }
    base = ex.library_code_hash(modules, root=root)
    assert base == ex.library_code_hash(modules)  # the copy is the library
    cmog = root / "online" / "cmog_msg.py"
    text = cmog.read_text()
    cmog.write_text(text.replace('"""', '"""An edited docstring. ', 1))
    assert ex.library_code_hash(modules, root=root) == base
    session = root / "online" / "session.py"  # not run by a pass of MSG
    session.write_text(session.read_text() + "\nX = 1\n")
    assert ex.library_code_hash(modules, root=root) == base
    assert "2.0 * self.h / (2.0 * self.h + theta)" in text
    cmog.write_text(text.replace("2.0 * self.h / (2.0 * self.h + theta)", "self.h / (self.h + theta)"))
    assert ex.library_code_hash(modules, root=root) != base
    cmog.write_text(text)
    kernels = root / "online" / "_kernels.py"  # a compiled primitive the pass calls (imported by the loop)
    kernels.write_text(kernels.read_text() + "\nY = 2\n")
    assert ex.library_code_hash(modules, root=root) != base


def test_tune_to_budget_hits_the_target_count_on_the_tuning_order():
    g = gs.load_dataset("cora")
    M = gs.add_bias(gs.spectral_embedding(g.adjacency, 20).M)
    order = ex.tuning_order(g.n_nodes, seed=0)
    make = gs.online.BBQ
    lo, hi = (gs.online.run(make(kappa=k), M, g.labels, order=order).n_queried for k in (0.05, 1.0))
    target = (lo + hi) / 2
    b = ex.tune_to_budget(make, "kappa", (0.05, 1.0), M, g.labels, order, target, cache=False)
    assert b.hit and abs(b.count - target) <= 0.02 * target and b.steps <= 40
    # the count the run reports is the learner's own on that order and value
    assert gs.online.run(make(kappa=b.value), M, g.labels, order=order).n_queried == b.count
    # a decreasing knob (BBQ_eps: a smaller eps queries more) is found the same way
    e = ex.tune_to_budget(gs.online.BBQEps, "eps", (1e-5, 1.0), M, g.labels, order, target, cache=False)
    assert e.hit and abs(e.count - target) <= 0.02 * target


def test_tune_to_budget_says_when_the_target_is_out_of_reach(karate):
    M, y = karate
    order = ex.tuning_order(len(y), seed=0)
    b = ex.tune_to_budget(gs.online.BBQ, "kappa", (0.1, 0.2), M, y, order, len(y) + 5, cache=False)
    assert not b.hit and b.steps == 2  # both ends tried, the target above either: nothing to bisect
    with pytest.raises(ValueError, match="lo < hi"):
        ex.tune_to_budget(gs.online.BBQ, "kappa", (0.2, 0.1), M, y, order, 10)
    with pytest.raises(ValueError, match="lo > 0"):
        ex.tune_to_budget(gs.online.BBQ, "kappa", (0.0, 1.0), M, y, order, 10)
    with pytest.raises(ValueError, match="not a metric"):
        ex.tune_to_budget(gs.online.BBQ, "kappa", (0.1, 1.0), M, y, order, 10, count="n_asked", cache=False)


def test_pick_best_reports_a_tie_as_a_tie_and_refuses_infinite_scores():
    """All scores tied gave margin inf (as if nothing could change the choice); ±inf scores raised IndexError."""
    p = ex.pick_best([0.2, 0.2, 0.2])
    assert p == ex.Pick(0, 3, 0.0) and p.tied
    single = ex.pick_best([0.5])
    assert single.margin == np.inf and not single.tied
    for bad in ([-np.inf, 1.0], [np.inf, 0.3], [0.2, np.inf]):
        with pytest.raises(ValueError, match="scores must be finite numbers"):
            ex.pick_best(bad)


def test_tune_refuses_a_metric_it_does_not_measure(karate):
    """tune(metric="accuracy") raised a bare KeyError after running the whole grid."""
    M, y = karate
    with pytest.raises(ValueError, match="metric must be one of error_rate, n_queried"):
        ex.tune(lambda mu: OneVsRest(lambda: OLLGC(mu=mu)), {"mu": [1.0]}, M, y, ex.tuning_order(len(y)),
                metric="accuracy", n_jobs=1, cache=False)  # fmt: skip
    with pytest.raises(ValueError, match="'binary_error_rate' is not measured for this learner"):
        ex.tune(lambda mu: OLLGC(mu=mu), {"mu": [1.0]}, M, np.where(y == 0, -1, 1), ex.tuning_order(len(y)),
                metric="binary_error_rate", n_jobs=1, cache=False)  # fmt: skip


def test_an_edited_results_cache_is_refused_and_recomputed(karate, tmp_path):
    """The cache checked row counts and NaN, not content: an edited error rate was returned as measured."""
    M, y = karate
    yb = np.where(y == 0, -1, 1)
    orders = ex.random_orders(len(y), 2, seed=4)
    first = ex.evaluate(GPA, M, yb, orders, n_jobs=1, cache_dir=tmp_path)
    (path,) = tmp_path.glob("*.json")
    stored = json.loads(path.read_text())
    stored["rows"][0]["error_rate"] = 0.0123  # a plausible, finite, edited value
    path.write_text(json.dumps(stored))
    with pytest.warns(RuntimeWarning, match="was edited: its rows no longer match the checksum"):
        again = ex.evaluate(GPA, M, yb, orders, n_jobs=1, cache_dir=tmp_path)
    assert again.loc[0, "error_rate"] == first.loc[0, "error_rate"] != 0.0123
    del stored["checksum"]  # a file written before rows were checksummed: read as it is, then sealed
    stored["rows"][0]["error_rate"] = first.loc[0, "error_rate"]
    path.write_text(json.dumps(stored))
    ex.evaluate(GPA, M, yb, orders, n_jobs=1, cache_dir=tmp_path)
    assert "checksum" in json.loads(path.read_text())


def test_sweep_equals_the_hand_written_loop(karate, tmp_path):
    """sweep = the nested loop over graphs, grid points and evaluate it replaces: same rows, same numbers."""
    M, y = karate
    graphs = {"karate": (M, y), "karate-nobias": (M[:-1], y)}
    orders = ex.random_orders(len(y), 3, seed=4)
    grid = {"method": ["OLLGC", "SSLGC"], "mu": [0.1, 1.0]}

    def make(method, mu):
        return OneVsRest(partial(OLLGC if method == "OLLGC" else SSLGC, mu=mu))

    got = ex.sweep(make, grid, graphs, orders, seed=5, n_jobs=1, cache_dir=tmp_path)
    rows = []
    for name, (X, yy) in graphs.items():
        for method in grid["method"]:
            for mu in grid["mu"]:
                df = ex.evaluate(partial(make, method, mu), X, yy, orders, seed=5, method=method, n_jobs=1,
                                 cache=False)  # fmt: skip
                rows.append(df.assign(dataset=name, mu=mu))
    want = pd.concat(rows, ignore_index=True)
    assert list(got.columns) == ["dataset", "method", "mu", "order", *[m for m in ex.METRICS if m in want]]
    cols = [c for c in got.columns if c != "time"]
    pd.testing.assert_frame_equal(got[cols], want[cols])
    again = ex.sweep(make, grid, graphs, orders, seed=5, n_jobs=1, cache_dir=tmp_path)
    pd.testing.assert_frame_equal(again, got)  # the second sweep reads the cache, times included


def test_sweep_per_point_data_per_graph_make_and_metric_choice(karate, tmp_path):
    M, y = karate
    seen = []

    def make(h, dataset):  # takes h and the graph, not the bias
        seen.append(dataset)
        return gs.online.MSG(h=h)

    def data(bias, h):
        return (M if bias else M[:-1]), y

    df = ex.sweep(
        make, {"bias": [True, False], "h": [0.1]}, {"k": data}, 2, ["error_rate"], n_jobs=1, cache=False
    )
    assert list(df.columns) == ["dataset", "bias", "h", "order", "error_rate"]
    assert df.bias.tolist() == [True, True, False, False] and set(seen) == {"k"}
    direct = ex.evaluate(
        partial(gs.online.MSG, h=0.1), M[:-1], y, ex.random_orders(len(y), 2), n_jobs=1, cache=False
    )
    np.testing.assert_array_equal(df.error_rate[2:], direct.error_rate)


@pytest.mark.parametrize(
    ("grid", "words"),
    [
        ({}, "non-empty mapping"),
        ([("h", [1.0])], "non-empty mapping"),
        ({"h": []}, "has no values"),
        ({"h": 0.1}, "write [0.1] for one value"),
        ({"kind": "push"}, "write ['push'] for one value"),
        ({"order": [1, 2]}, "is a column of the result"),
        ({"error_rate": [1]}, "is a column of the result"),
    ],
)
def test_sweep_refuses_a_bad_grid(karate, grid, words):
    M, y = karate
    with pytest.raises(ValueError, match=re.escape(words)):
        ex.sweep(gs.online.MSG, grid, {"k": (M, y)}, 1, n_jobs=1, cache=False)


def test_sweep_refuses_unknown_metrics_and_missing_orders(karate):
    M, y = karate
    with pytest.raises(ValueError, match="unknown metric"):
        ex.sweep(gs.online.MSG, {"h": [0.1]}, {"k": (M, y)}, 1, ["accuracy"], cache=False)
    with pytest.raises(ValueError, match="one-vs-rest learners only"):
        ex.sweep(gs.online.MSG, {"h": [0.1]}, {"k": (M, y)}, 1, ["binary_error_rate"], n_jobs=1, cache=False)
    with pytest.raises(ValueError, match=r"no orders for graph 'k'"):
        ex.sweep(
            gs.online.MSG, {"h": [0.1]}, {"k": (M, y)}, {"other": ex.random_orders(len(y), 1)}, cache=False
        )


def test_sweep_refuses_a_grid_parameter_nobody_takes(karate):
    M, y = karate
    with pytest.raises(ValueError, match=r"\['hh'\] are taken neither by make nor by the data of 'k'"):
        ex.sweep(gs.online.MSG, {"hh": [0.1]}, {"k": (M, y)}, 1, cache=False)


def _one_of(method, **params):
    return {"MSG": gs.online.MSG, "BBQ": gs.online.BBQ}[method](**params)


def test_sweep_over_a_list_of_grids_runs_each_method_on_its_own_grid(karate):
    """A list of grids = the loop over methods, each over its own parameter; **kwargs gets the point, not dataset."""
    M, y = karate
    grids = [{"method": ["MSG"], "h": [0.1, 1.0]}, {"method": ["BBQ"], "kappa": [0.5]}]
    df = ex.sweep(_one_of, grids, {"k": (M, y)}, 2, ["n_queried"], n_jobs=1, cache=False)
    assert list(df.columns) == ["dataset", "method", "h", "kappa", "order", "n_queried"]
    assert df.method.tolist() == ["MSG"] * 4 + ["BBQ"] * 2
    assert (
        df.h.isna().tolist() == [False] * 4 + [True] * 2
        and df.kappa.notna().tolist() == [False] * 4 + [True] * 2
    )
    orders = ex.random_orders(len(y), 2)
    bbq = ex.evaluate(partial(gs.online.BBQ, kappa=0.5), M, y, orders, n_jobs=1, cache=False)
    np.testing.assert_array_equal(df.n_queried[4:], bbq.n_queried)


def test_evaluate_curves_are_the_passes_per_round_arrays(karate, tmp_path, monkeypatch):
    """evaluate_curves: each order's per-round arrays (those of ``run``), kept in the cache beside the rows."""
    M, y = karate
    orders = ex.random_orders(len(y), 3, seed=2)
    make = partial(OneVsRest, partial(SSLGC, mu=0.1, kappa=0.4))
    df, arrays = ex.evaluate_curves(make, M, y, orders, n_jobs=1, cache_dir=tmp_path)
    assert set(arrays) == set(ex.CURVES) and all(a.shape == orders.shape for a in arrays.values())
    for k, (o, s) in enumerate(zip(orders, ex.order_seeds(3, 0), strict=True)):
        tr = gs.online.run(make(), M, y, order=o, seed=s)
        np.testing.assert_array_equal(arrays["mistakes"][k], tr.mistakes)
        np.testing.assert_array_equal(arrays["queried"][k], tr.queried)
        target = np.where(tr.labels[:, None] == np.arange(tr.records["binary_predictions"].shape[1]), 1, -1)
        np.testing.assert_array_equal(
            arrays["binary_mistakes"][k], (tr.records["binary_predictions"] != target).sum(axis=1)
        )
        np.testing.assert_array_equal(arrays["binary_queried"][k], tr.records["binary_queried"].sum(axis=1))
    assert np.all(np.diff(arrays["elapsed"], axis=1) >= 0)
    np.testing.assert_allclose(arrays["elapsed"][:, -1], df.time)  # the time of a pass is its last round's
    K = int(y.max()) + 1
    np.testing.assert_allclose(arrays["binary_mistakes"].mean(axis=1) / K, df.binary_error_rate)
    np.testing.assert_allclose(arrays["binary_queried"].sum(axis=1) / K, df.binary_n_queried)
    plain = ex.evaluate(make, M, y, orders, n_jobs=1, cache_dir=tmp_path)  # the rows, from the cache
    pd.testing.assert_frame_equal(plain, df)

    # a second call reads both from the cache: no pass runs
    monkeypatch.setattr(ev, "_one_pass", lambda *a, **k: pytest.fail("a pass ran despite the cache"))
    again, cached = ex.evaluate_curves(make, M, y, orders, n_jobs=1, cache_dir=tmp_path)
    pd.testing.assert_frame_equal(again, df)
    assert all(np.array_equal(cached[k], arrays[k]) and cached[k].dtype == arrays[k].dtype for k in arrays)


def test_sweep_keeps_curves_and_rows_cached_without_them_run_once_for_them(karate, tmp_path, monkeypatch):
    M, y = karate
    orders = ex.random_orders(len(y), 2, seed=3)
    make = partial(OneVsRest, GPA)
    ex.evaluate(make, M, y, orders, n_jobs=1, cache_dir=tmp_path)  # rows only
    calls = []
    real_pass = ev._one_pass

    def counted(*args, **kwargs):
        calls.append(kwargs.get("curves"))
        return real_pass(*args, **kwargs)

    monkeypatch.setattr(ev, "_one_pass", counted)
    df, arrays = ex.evaluate_curves(make, M, y, orders, n_jobs=1, cache_dir=tmp_path)
    assert calls == [True, True]  # the rows had no curves: the passes ran again, once
    ex.evaluate_curves(make, M, y, orders, n_jobs=1, cache_dir=tmp_path)
    assert len(calls) == 2
    # a damaged curves file is recomputed, not trusted
    (side,) = tmp_path.glob("*.curves.npz")
    side.write_bytes(side.read_bytes()[:100])
    _, again = ex.evaluate_curves(make, M, y, orders, n_jobs=1, cache_dir=tmp_path)
    assert len(calls) == 4 and np.array_equal(again["mistakes"], arrays["mistakes"])
    # sweep(keep_curves=True) stores them for a later evaluate_curves and returns the plain frame
    other = tmp_path / "other"
    out = ex.sweep(
        lambda method: make(),
        {"method": ["GPA"]},
        {"g": (M, y)},
        orders,
        n_jobs=1,
        cache_dir=other,
        keep_curves=True,
    )
    cols = ["dataset", "method", "order", "error_rate", "binary_error_rate"]
    pd.testing.assert_frame_equal(out[cols], df.assign(dataset="g", method="GPA")[cols])
    _, stored = ex.evaluate_curves(make, M, y, orders, n_jobs=1, cache_dir=other)
    assert len(calls) == 6 and np.array_equal(stored["queried"], arrays["queried"])  # read, not run
    # keep_curves: rows cached without curves are returned as they are, no pass runs for the curves
    bare = tmp_path / "bare"
    ex.evaluate(make, M, y, orders, n_jobs=1, cache_dir=bare)
    n = len(calls)
    kept = ex.evaluate(make, M, y, orders, n_jobs=1, cache_dir=bare, keep_curves=True)
    assert len(calls) == n and isinstance(kept, pd.DataFrame) and not list(bare.glob("*.curves.npz"))


def test_tune_reads_cached_points_here_and_sends_only_the_others_to_workers(karate, tmp_path, monkeypatch):
    """A grid already cached starts no worker process (each start costs seconds); the table is the same."""
    M, y = karate
    monkeypatch.setenv("GRAPHSEL_CACHE", str(tmp_path))
    make, order = (lambda mu: OneVsRest(partial(OLLGC, mu=mu))), ex.tuning_order(len(y), 0)
    first, fresh = ex.tune(make, {"mu": [0.1, 1.0]}, M, y, order, n_jobs=1)
    sent = []
    real_parallel = ev._parallel

    def spy(jobs, *args, **kwargs):
        jobs = list(jobs)
        sent.append(len(jobs))
        return real_parallel(jobs, *args, **kwargs)

    monkeypatch.setattr(ev, "_parallel", spy)
    best, table = ex.tune(make, {"mu": [0.1, 1.0]}, M, y, order, n_jobs=2)
    assert sent == [] and best == first
    pd.testing.assert_frame_equal(table, fresh)
    best, table = ex.tune(make, {"mu": [0.01, 0.1, 1.0, 10.0]}, M, y, order, n_jobs=2)
    assert sent == [2]  # mu = 0.01 and 10 only
    same = [c for c in fresh.columns if c not in ("chosen", "margin")]
    pd.testing.assert_frame_equal(table.iloc[[1, 2]][same].reset_index(drop=True), fresh[same])
    assert not ev._LOOKUP_ONLY.get()  # the look-up mode ends with the look-up


def test_evaluate_curves_true_still_answers_with_a_deprecation_warning(karate):
    """``evaluate(..., curves=True)``, the flag evaluate_curves replaces, returns the same pair for one release."""
    M, y = karate
    orders = ex.random_orders(len(y), 2, seed=5)
    make = partial(OneVsRest, GPA)
    frame, arrays = ex.evaluate_curves(make, M, y, orders, n_jobs=1, cache=False)
    with pytest.warns(DeprecationWarning, match="call evaluate_curves") as record:
        old_frame, old_arrays = ex.evaluate(make, M, y, orders, n_jobs=1, cache=False, curves=True)
    assert record[0].filename == __file__  # the warning points at the caller's line
    pd.testing.assert_frame_equal(old_frame.drop(columns="time"), frame.drop(columns="time"))
    assert old_arrays.keys() == arrays.keys()
    assert all(np.array_equal(old_arrays[k], arrays[k]) for k in arrays if k != "elapsed")
    plain = ex.evaluate(make, M, y, orders, n_jobs=1, cache=False)
    assert isinstance(plain, pd.DataFrame)  # after evaluate_curves, evaluate returns the frame alone again
