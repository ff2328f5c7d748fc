"""Experiment engine: seeded orders, tuning, summaries, t-tests, caching, backends."""

from functools import partial

import numpy as np
import pandas as pd
import pytest

import graphsel_lib as gs
from graphsel_lib import experiments as ex
from graphsel_lib.online import GPA, OLLGC, OneVsRest, RandomSampling


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
