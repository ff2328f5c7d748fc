"""graphsel_lib.papers.yang2016 (notebooks 30-33): the published data, the protocol and every public function.

The functions run at the smoke profile (Cora only, rank 20 or ranks 10 and 20, two orders, two-point
grids: a few seconds each, results cached on disk like the notebooks'). Tables are written to a
temporary folder, never to ``figures/``.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from conftest import committed_rows
from graphsel_lib.papers import common
from graphsel_lib.papers import yang2016 as yang

# ----------------------------------------------------------------------------- the published data

#: Rows of figures/30_yang2016_table1.csv as notebook 30 printed them before the code moved into the module
#: (dataset, method, published error with its "±", sqrt of the "±", published #queried).
PRINTED_BEFORE = [
    ("Coauthor", "GPA", "0.5474 ± 0.00027", "0.0163", "1711"),
    ("Coauthor", "CMOG", "0.3096 ± 3.3e-05", "0.0057", "1711"),
    ("Coauthor", "MSG", "0.2956 ± 6.6e-05", "0.0081", "870.7 ± 251.9"),
    ("Cora", "BBQ", "0.1929 ± 1.7e-05", "0.0042", "1635.1 ± 294"),
    ("Cora", "MSG", "0.1926 ± 2.3e-05", "0.0048", "884.95 ± 289.15"),
    ("IMDB", "BBQ_eps", "0.5068 ± 9.9e-06", "0.0031", "16983 ± 801.3"),
    ("PubMed", "DGS", "0.2265 ± 1.5e-06", "0.0012", "19717"),
    ("PubMed", "MSG", "0.2158 ± 1.1e-05", "0.0033", "936.29 ± 210.07"),
]


def _as_printed(row):
    """A PUBLISHED row in the format of notebook 30's Table I (``_table_layout``)."""
    queried = f"{row.queried:g}" + ("" if np.isnan(row.queried_pm) else f" ± {row.queried_pm:g}")
    return (
        row.dataset,
        row.method,
        f"{row.error:.4f} ± {row.error_pm:.2g}",
        f"{row['sqrt(error_pm)']:.4f}",
        queried,
    )


def test_published_table_has_every_cell_of_table_1():
    p = yang.PUBLISHED
    assert len(p) == 24 and not p.duplicated(["dataset", "method"]).any()
    assert set(p.dataset) == {"Coauthor", "Cora", "IMDB", "PubMed"}
    assert set(p.method) == {"GPA", "BBQ", "BBQ_eps", "DGS", "CMOG", "MSG"}
    assert yang.published("Cora", "MSG") == (0.1926, 884.95)
    assert yang.published("Coauthor", "CMOG") == yang.published(
        "Coauthor", "DGS"
    )  # the coincidence of Sec. 6


@pytest.mark.parametrize("expected", PRINTED_BEFORE, ids=lambda r: f"{r[0]}-{r[1]}")
def test_published_constants_match_what_notebook_30_printed(expected):
    p = yang.PUBLISHED
    row = p[(p.dataset == expected[0]) & (p.method == expected[1])].iloc[0]
    assert _as_printed(row) == expected


def test_published_constants_match_the_committed_table():
    """Every published cell of figures/30_yang2016_table1.csv, as the last full run wrote it."""
    written = {(r["dataset"], r["method"]): r for r in committed_rows("30_yang2016_table1")}
    for _, row in yang.PUBLISHED.iterrows():
        r = written[(row.dataset, row.method)]
        printed = (
            r["dataset"],
            r["method"],
            r["published error"],
            r["sqrt(published ±)"],
            r["published #queried"],
        )
        assert printed == _as_printed(row)


def test_protocol_full_is_the_papers_and_smoke_is_small():
    full, smoke = yang.protocol("full"), yang.protocol("smoke")
    assert full.d == 100 and full.n_orders == 20  # yang2016 Sec. V-A
    assert full.h_grid == (1e-4, 1e-3, 1e-2, 1e-1, 1.0)  # Sec. V-C
    assert full.ranks == (10, 100, 250, 500, 750, 1000)  # Sec. V-D
    assert full.datasets == ("coauthor", "cora", "pubmed", yang.STAND_IN)
    assert not full.smoke and smoke.smoke
    assert smoke.datasets == ("cora",) and smoke.n_orders == 2 and smoke.d < full.d
    with pytest.raises(ValueError, match="profile"):
        yang.protocol("huge")


def test_methods_and_headline():
    p = yang.protocol("smoke")
    assert list(yang.methods(p)) == ["GPA", "BBQ", "BBQ_eps", "DGS", "CMOG", "MSG"]
    assert list(yang.methods(p, variants=True))[5:7] == ["CMOG onehot", "CMOG every round"]
    assert yang.methods(p)["MSG"][1] == {"h": list(p.h_grid)}
    assert yang.HEADLINE.bias and yang.HEADLINE.cmog == "CMOG" and yang.HEADLINE.reason
    with pytest.raises(AttributeError):
        yang.HEADLINE.bias = False  # frozen


# ----------------------------------------------------------------------------- the functions, smoke size


@pytest.fixture(scope="module")
def t1():
    return yang.table1("smoke", 0, verbose=False)


@pytest.fixture(scope="module")
def f2():
    return yang.fig2("smoke", 0, verbose=False)


def test_check_rls_identity():
    assert "every-round CMOG" in yang.check_rls_identity("smoke", 0)


def test_table1_smoke(t1, figures):
    p = t1.protocol
    n_methods = len(yang.methods(p, variants=True))
    assert len(t1.runs) == len(p.datasets) * 2 * n_methods * p.n_orders
    assert len(t1.summary) == len(p.datasets) * 2 * n_methods
    assert set(t1.score) == {False, True} and t1.headline_bias == (t1.score[True] >= t1.score[False])
    evp = t1.error_vs_published
    assert (evp[evp.dataset == "IMDB"].verdict == "not available").all()  # the scorecard's word
    assert evp[(evp.dataset == "Cora") & evp.headline].method.tolist() == list(yang.methods(p))
    assert len(t1.table) == len(yang.PUBLISHED)
    assert t1.ttests.shape[0] == len(p.datasets) * 2 * 7
    assert list(t1.gpa.dataset) == list(p.datasets) and len(t1.spec_check) == 2
    assert t1.cmog_dgs.dataset.tolist() == ["Coauthor", "Cora", "IMDB", "PubMed"]
    t1.write()
    for name in (
        "tuning",
        "tuned",
        "table1_ours",
        "error_vs_published",
        "table1",
        "ttests",
        "cmog_dgs",
        "gpa",
    ):
        assert (figures / f"30_yang2016_{name}.csv").is_file(), name
    t1.show_summary()
    assert "headline" in t1.headline_note().render() and "within tolerance" in t1.verdict_lines().render()
    assert t1.reading_pm().render().startswith('The square root of the published "±"')
    for r in (t1.reading_cmog_dgs(), t1.reading_gpa(), t1.reading()):
        assert "Cora" in r.render()
    # the readings' claims that hold for any seed (checked on seeds 0-2 of the smoke profile)
    assert t1.reading_pm().claims["fits"]  # the published "±" read as variances fit our spread (Sec. 4)
    assert t1.reading_gpa().claims["between"]  # published GPA between ours and the majority class (Sec. 7)
    cmog = t1.reading_cmog_dgs().claims  # Alg. 1 beats GPA; MSG's lead over it exceeds the paper's (Sec. 6)
    assert cmog["beats_gpa_everywhere"] and cmog["larger_everywhere"]
    summary = t1.reading().claims
    assert summary["gpa_between"] and summary["pm_fits"] and not summary["stand_in_run"]  # Cora only
    plt.close(yang.draw_table1(t1))


def test_table1_runs_equal_the_hand_written_loop(t1):
    """The sweep behind Table I gives the rows and numbers of the loop it replaced (times aside)."""
    from functools import partial

    from graphsel_lib import experiments as ex

    p, rows = t1.protocol, []
    for name in p.datasets:
        g = t1.graphs[name]
        orders = ex.random_orders(g.n_nodes, p.n_orders, 0)
        for bias in (False, True):
            X = yang.features(g, p.d, bias)
            for method, (make, _) in yang.methods(p, variants=True).items():
                prm = yang.tuned_params(method, X, g, p, 0, verbose=False)
                df = ex.evaluate(partial(make, **prm), X, g.labels, orders, method=method, n_jobs=1)
                rows.append(
                    df.assign(
                        dataset=name,
                        bias=bias,
                        setting=", ".join(f"{k}={v:g}" for k, v in prm.items()) or "-",
                    )
                )
    old = pd.concat(rows, ignore_index=True)
    cols = [c for c in old.columns if c != "time"]
    pd.testing.assert_frame_equal(t1.runs[cols], old[cols])


def test_fig1_smoke(figures):
    f1 = yang.fig1("smoke", 0, verbose=False)
    cm, cq = f1.curves[("cora", "MSG")]
    assert cm.shape == cq.shape == (2, 2485) and (np.diff(cq, axis=1) >= 0).all()
    assert (f1.curves[("cora", "GPA")][1][:, -1] == 2485).all()  # GPA queries every label
    cp = f1.checkpoints
    assert sorted(cp["fraction of stream"].unique()) == [0.1, 0.25, 0.5, 1.0]
    assert list(f1.msg_query_rate.columns) == ["dataset"] + [f"quarter {i}" for i in range(1, 5)]
    f1.write()
    assert (figures / "31_yang2016_fig1_checkpoints.csv").is_file()
    assert "MSG's query rate" in f1.reading().render()
    claims = f1.reading().claims  # yang2016 Fig. 1: MSG's query rate flattens, MSG ends lowest
    assert claims["msg_rate_falls"] and claims["msg_lowest_somewhere"]
    plt.close(yang.draw_fig1(f1))


def test_fig2_smoke(f2, figures):
    p = f2.protocol
    assert len(f2.curve) == len(p.h_grid) + len(p.kappa_grid) + len(p.eps_grid)
    assert set(f2.matched.method) <= {"BBQ", "BBQ_eps"}
    assert list(f2.vs_published.method) == ["BBQ", "BBQ_eps", "MSG"]
    assert (f2.gamma_at_published.gamma == yang.GAMMA_DIAGNOSTIC).all()
    assert 0 <= f2.ratio("cora", "MSG", p.h_grid[0]) <= 1
    f2.write()
    assert (figures / "32_yang2016_fig2_vs_published.csv").is_file()
    assert "diagnostic" in f2.gamma_note().render() and "ridge diagnostic" in f2.reading().render()
    claims = f2.reading().claims  # smoke runs Cora only: no PubMed bullet, the ridge diagnostic runs
    assert claims["ridge_run"] and not claims["pubmed_run"]
    plt.close(yang.draw_fig2(f2))


def test_fig2_curves_equal_the_hand_written_loop(f2):
    """The grid sweeps behind Fig. 2 and its ridge diagnostic give the rows of the loops they replaced."""
    from functools import partial

    from graphsel_lib import experiments as ex

    p, meths = f2.protocol, yang.methods(f2.protocol)

    def loop(graphs, grids, **fixed):
        rows = []
        for name, g in graphs.items():
            X, orders = yang.features(g, p.d), ex.random_orders(g.n_nodes, p.n_orders, 0)
            for method, (param, grid) in grids.items():
                for v in grid:
                    df = ex.evaluate(
                        partial(meths[method][0], **fixed, **{param: v}), X, g.labels, orders, n_jobs=1
                    )
                    rows.append({"dataset": name, "method": method, "parameter": param, "value": v,
                                 "query ratio": df.n_queried.mean() / g.n_nodes,
                                 "query ratio std": df.n_queried.std() / g.n_nodes,
                                 "error": df.error_rate.mean(), "error std": df.error_rate.std()})  # fmt: skip
        return pd.DataFrame(rows)

    grids = {"MSG": ("h", p.h_grid), "BBQ": ("kappa", p.kappa_grid), "BBQ_eps": ("eps", p.eps_grid)}
    pd.testing.assert_frame_equal(f2.curve, loop(f2.graphs, grids))
    gamma = loop(
        f2.graphs, {"BBQ": ("kappa", p.gamma_kappa_grid), "MSG": ("h", p.h_grid)}, gamma=yang.GAMMA_DIAGNOSTIC
    )
    pd.testing.assert_frame_equal(f2.gamma_curve, gamma.drop(columns=["parameter", "query ratio std"]))


def test_fig3_results_equal_the_hand_written_loop():
    """The rank sweep behind Fig. 3 gives the rows and numbers of the loop it replaced (times aside)."""
    from functools import partial

    import graphsel_lib as gs
    from graphsel_lib import experiments as ex

    f3, rows = yang.fig3("smoke", 0, verbose=False), []
    p = f3.protocol
    for name in p.rank_datasets:
        g = gs.load_dataset(name)
        orders = ex.random_orders(g.n_nodes, p.n_orders, 0)
        for d in p.ranks:
            X = yang.features(g, d)
            for method, (make, _) in yang.methods(p).items():
                prm = yang.tuned_params(method, X, g, p, 0, verbose=False)
                df = ex.evaluate(partial(make, **prm), X, g.labels, orders, method=method, n_jobs=1)
                rows.append({"dataset": name, "d": d, "method": method, "error": df.error_rate.mean(),
                             "error std": df.error_rate.std(), "#queried": df.n_queried.mean(),
                             "#queried std": df.n_queried.std()})  # fmt: skip
    pd.testing.assert_frame_equal(f3.results[list(rows[0])], pd.DataFrame(rows))


def test_check_gamma_scaling():
    assert "identical queries" in yang.check_gamma_scaling(0, profile="smoke")


def test_fig3_smoke(figures):
    f3 = yang.fig3("smoke", 0, verbose=False)
    p = f3.protocol
    assert len(f3.results) == len(p.ranks) * len(yang.methods(p))
    assert list(f3.monotone.method) == list(yang.methods(p))
    assert len(f3.ttests) == len(p.ranks) * (len(yang.methods(p)) - 1) and len(f3.balance) == 1
    assert "cora" in f3.split_notes and f3.repeated["cora"] >= 0
    assert "MSG" in f3.pivot("error") and "kappa=" in f3.pivot("tuned", columns=["BBQ"])
    f3.write()
    assert (figures / "33_yang2016_fig3_rank.csv").is_file()
    assert "*Higher rank, lower error*" in f3.reading().render()
    claims = f3.reading().claims  # yang2016 Fig. 3: MSG never worse; d = 100 is not MSG's best rank
    assert not claims["msg_worse_somewhere"] and claims["cost_choice"] and claims["has_gain"]
    plt.close(yang.draw_fig3(f3))


def test_features_add_the_constant_feature(t1):
    g = t1.graphs["cora"]
    X, M = yang.features(g, 5), yang.features(g, 5, bias=False)
    assert X.shape == (M.shape[0] + 1, M.shape[1])
    assert np.allclose(X[:-1], M) and np.allclose(X[-1], np.sqrt(yang.BIAS_B))
    assert yang.tuned_params("DGS", M, g, t1.protocol) == {}


# ----------------------------------------------------------------------------- common helpers


def test_common_helpers():
    assert common.span(0.1, 0.25, ".2f") == "0.10 to 0.25" and common.span(1.00001, 1.00002) == "1.0000"
    assert common.is_smoke("smoke") and not common.is_smoke("full")
    with pytest.raises(ValueError):
        common.is_smoke("medium")
    assert common.run_time_note(0.0, "full").startswith("notebook run time:")
    assert "logical cores" in common.machine_note() and isinstance(common.cpu_model(), str)


def test_results_are_data_frames(t1, f2):
    for df in (t1.summary, t1.error_vs_published, f2.curve, f2.matched):
        assert isinstance(df, pd.DataFrame) and len(df)


def test_at_budget_smoke():
    """Each sampler set on the held-out order to the published label count, then run on the orders."""
    ab = yang.at_budget("smoke", verbose=False)
    assert list(ab.method) == list(yang.BUDGET_KNOB) and set(ab.dataset) == {"Cora"}
    hit = ab[ab.hit]
    assert len(hit) and ((hit["held-out #queried"] / hit["published #queried"] - 1).abs() <= 0.02).all()
    assert (ab.parameter == [yang.BUDGET_KNOB[m][0] for m in ab.method]).all()
    assert list(ab.published) == [yang.published("Cora", m)[0] for m in ab.method]
    assert (ab.orders == yang.protocol("smoke").n_orders).all()
    # another held-out order, one sampler only (the spread over tuning orders of notebook 90)
    other = yang.at_budget("smoke", verbose=False, tuning_seed=1, only={("Cora", "BBQ")})
    assert list(other.method) == ["BBQ"] and list(other.dataset) == ["Cora"] and bool(other.hit.iloc[0])


def test_gamma_tuned_smoke(t1):
    """gamma tuned jointly with each baseline's grid; the gamma = 1 column is Table I's own run."""
    gt = yang.gamma_tuned("smoke", verbose=False)
    assert list(gt.method) == list(yang.GAMMA_METHODS)
    gammas = gt.tuned.str.extract(r"gamma=([\d.e+-]+)")[0].astype(float)
    assert set(gammas) <= set(yang.GAMMA_GRID)
    for _, r in gt.iterrows():
        headline = t1.ours("cora", yang.HEADLINE.bias, r.method)  # gamma_tuned uses the headline features
        assert r["ours (gamma=1)"] == pytest.approx(headline.error_rate_mean)
