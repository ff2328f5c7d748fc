"""graphsel_lib.papers.gu2013 (notebooks 20-23): the published data, the protocol and every public function.

The functions run at the smoke profile (Cora only, rank 20 or ranks 10 and 20, two orders, a two-point mu
grid: seconds each, results cached on disk like the notebooks'). Tables are written to a temporary
folder, never to ``figures/``.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from conftest import committed_rows
from graphsel_lib import experiments as ex
from graphsel_lib.papers import gu2013 as gu

# ----------------------------------------------------------------------------- the published data


def test_published_table_has_every_cell_of_table_2():
    p = gu.PUBLISHED
    assert len(p) == 12 and not p.duplicated(["dataset", "method"]).any()
    assert set(p.dataset) == {"Coauthor", "Cora", "IMDB", "PubMed"} and set(p.method) == set(gu.METHODS)
    # GPA and OLLGC query every node: #queried is n, without a spread
    full = p[p.method != "SSLGC"]
    assert full.queried_std.isna().all() and p[p.method == "SSLGC"].queried_std.notna().all()
    assert gu.published("Cora", "SSLGC") == (0.0832, 1525.48, 0.0821)
    assert gu.published("IMDB", "GPA") == (0.3362, 17046, 0.1228)


def test_published_constants_match_the_committed_table():
    """Every published cell of figures/20_gu2013_table2.csv (and of the times), as the last full run wrote it."""
    written = {(r["dataset"], r["method"]): r for r in committed_rows("20_gu2013_table2")}
    for _, row in gu.PUBLISHED.iterrows():
        r = written[(row.dataset, row.method)]
        queried = f"{row.queried:.2f}" + ("" if np.isnan(row.queried_std) else f" ± {row.queried_std:.2f}")
        assert r["error (paper)"] == ex.mean_std(row.error, row.error_std)
        assert r["#queried (paper)"] == queried
    times = {(r["dataset"], r["method"]): r for r in committed_rows("20_gu2013_times")}
    for (dataset, method), r in times.items():
        row = gu.PUBLISHED[(gu.PUBLISHED.dataset == dataset) & (gu.PUBLISHED.method == method)].iloc[0]
        assert (r["time paper (s)"], r["paper std"]) == (f"{row.time:.4f}", f"{row.time_std:.4f}")


def test_protocol_full_is_the_papers_and_smoke_is_small():
    full, smoke = gu.protocol("full"), gu.protocol("smoke")
    assert full.d == 100 and full.n_orders == 20  # gu2013 Sec. 6.1
    assert full.ranks == (10, 50, 100, 250, 500, 750, 1000)  # Fig. 1
    assert full.kappas == (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)  # Fig. 3
    assert full.datasets == ("coauthor", "cora", "pubmed", gu.STAND_IN)
    assert full.fig3_datasets == ("coauthor", "cora", gu.STAND_IN, "pubmed")  # the paper's panel order
    assert not full.smoke and smoke.smoke and smoke.datasets == ("cora",) and smoke.d < full.d
    with pytest.raises(ValueError, match="profile"):
        gu.protocol("huge")


def test_headline_and_learners():
    assert gu.HEADLINE.bias and gu.HEADLINE.definition == "binary" and gu.HEADLINE.reason
    with pytest.raises(AttributeError):
        gu.HEADLINE.bias = False  # frozen
    learners = [gu.make_ovr(m, 1.0) for m in gu.METHODS]
    assert len({ex.learner_key(x) for x in learners}) == 3
    assert ex.learner_key(gu.make_ovr("SSLGC", 1.0, 0.4)) == ex.learner_key(gu.make_ovr("SSLGC", 1.0))


# ----------------------------------------------------------------------------- the functions, smoke size


@pytest.fixture(scope="module")
def t2():
    return gu.table2("smoke", 0, verbose=False)


def test_checks_of_definitions_and_query_rule():
    assert "mean binary error" in gu.check_definitions("smoke", 0)
    assert "query rule reproduced" in gu.check_query_rule("smoke", 0)


def test_table2_smoke(t2, figures):
    p = t2.protocol
    assert len(t2.runs) == len(p.datasets) * len(gu.CONFIGS) * 3 * p.n_orders
    assert len(t2.summary) == len(p.datasets) * len(gu.CONFIGS) * 3
    evp = t2.error_vs_published
    assert (evp[evp.dataset == "IMDB"].verdict == "not available").all()  # the scorecard's word
    assert len(evp) == len(gu.PUBLISHED) * len(gu.CONFIGS) and len(t2.table) == len(gu.PUBLISHED)
    assert t2.which_definition.cells.tolist() == [3] * 4
    assert len(t2.ttests) == len(p.datasets) * 4 * 3 and len(t2.mu_sensitivity) == 2 * len(p.mu_grid)
    assert list(t2.query_match.dataset) == ["cora"] and list(t2.label_efficiency.dataset) == ["cora"]
    assert t2.target("cora", "GPA").bias and t2.target("cora", "GPA").definition == "binary"
    times = gu.table2_times(t2)
    assert (
        times is t2.times and list(times.method) == gu.METHODS and (times["ours timed alone (s)"] > 0).all()
    )
    t2.write()
    for name in ("tuning", "table2_ours", "error_vs_published", "table2", "which_definition", "ttests"):
        assert (figures / f"20_gu2013_{name}.csv").is_file(), name
    for name in ("mu_sensitivity", "sslgc_query_match", "sslgc_label_efficiency", "times"):
        assert (figures / f"20_gu2013_{name}.csv").is_file(), name
    t2.show_summary()
    t2.show_mu_sensitivity()
    assert t2.reading_tolerance().render().startswith("The **target configuration**")
    assert t2.reading_definition().render().startswith("On Cora our multiclass error")
    assert t2.reading_ttests().render().startswith("In the target configuration")
    assert t2.reading_mu().render().startswith("**What the $\\mu$ sweep shows.**")
    assert "cora" in t2.reading_efficiency().render() and "GPA" in t2.reading_times().render()
    assert "within our tolerance" in str(t2.verdict_lines()) and "not measured" in str(t2.speed_note())
    assert isinstance(t2.both_beat_gpa, bool) and isinstance(t2.sweep_claims_hold, bool)
    # the readings' claims that hold for any seed (checked on seeds 0-2 of the smoke profile)
    definition = t2.reading_definition()
    assert definition.claims["best_bias"] and definition.values["best_definition"] == "binary"  # Sec. 5
    assert t2.reading_ttests().claims["ollgc_beats_gpa_somewhere"]  # gu2013 Table 2: OLLGC beats GPA
    mu = t2.reading_mu().claims
    assert mu["count_falls_with_mu"] and mu["published_count_is_mean"]  # a larger mu queries less; n-bar
    assert t2.reading_efficiency().claims["meets_somewhere"]  # "comparable while querying fewer" (Cora)
    assert gu.time_span(t2) > 1
    plt.close(gu.draw_table2(t2))


def test_gpa_offsets(t2):
    off = gu.gpa_offsets(t2)
    assert list(off.multiclass.index) == ["cora"] and 0 <= off.argmax_changed <= 1
    assert "offsets take the values" in off.report() and "GPA's multiclass error" in off.reading().render()
    claims = (
        off.reading().claims
    )  # the offsets decide GPA's argmax; the bias hurts it and helps the binary error
    assert claims["offsets_dominate"] and claims["bias_hurts_everywhere"] and claims["bias_helps_binary"]


def test_fig1_smoke(figures):
    f1 = gu.fig1("smoke", 0, verbose=False)
    p = f1.protocol
    assert list(f1.spectra.d) == list(p.ranks) and len(f1.summary) == len(p.ranks) * 3
    assert len(f1.ttests) == len(p.ranks) * 2 and list(f1.claims.method) == gu.METHODS
    assert f1.d100 is None  # d = 100 is not a rank of the smoke profile
    f1.write()
    assert (figures / "21_gu2013_fig1_rank.csv").is_file() and (
        figures / "21_gu2013_fig1_ttests.csv"
    ).is_file()
    f1.show_summary()
    assert f1.reading().render().startswith("**Reading.**") and f1.time_ratio >= 1
    claims = f1.reading().claims  # gu2013 Fig. 1a: the error falls as d grows, on the published axis
    assert claims["error_falls_with_d"] and claims["errors_in_published_axis"] and not claims["has_d100"]
    plt.close(gu.draw_fig1(f1))


def test_fig2_smoke(figures):
    f2 = gu.fig2("smoke", 0, verbose=False)
    c = f2.curves["cora", "SSLGC"]
    assert len(c["binary error"]) == 2485 and np.all(np.diff(c["queried (mean/learner)"]) >= 0)
    assert list(f2.endpoints.dataset) == ["PubMed"] * 3 + ["IMDB"] * 3
    assert (f2.endpoints.verdict == "not run in this profile").sum() == 3
    assert len(f2.checkpoints) == 3 * 10 and f2.error_axes["cora"]["from round"] == int(0.05 * 2485)
    f2.write()
    assert (figures / "22_gu2013_fig2_endpoints.csv").is_file()
    assert "No published end point" in f2.reading_endpoints().render()
    assert f2.reading_axes().render().startswith("Error axes")
    assert f2.reading().render().startswith("**Reading.**")
    plt.close(gu.draw_fig2(f2))


def test_fig3_smoke(figures):
    f3 = gu.fig3("smoke", 0, verbose=False)
    p = f3.protocol
    assert len(f3.table) == len(p.kappas) and list(f3.verdict.dataset) == ["cora"]
    assert f3.random_ratio_deviation < 0.02 and isinstance(f3.not_better(), pd.DataFrame)
    f3.write()
    assert (figures / "23_gu2013_fig3_verdict.csv").is_file()
    assert f3.reading().render().startswith("**Reading.**")
    (cora,) = f3.reading().values["graphs"]  # SSLGC beats random sampling at some ratio; the ratio saturates
    assert cora.claims["better_somewhere"] and cora.claims["saturated"] and not cora.claims["worse_somewhere"]
    plt.close(gu.draw_fig3(f3))


def test_features_add_the_constant_feature(t2):
    g = t2.graphs["cora"]
    X, M = gu.features(g, 5), gu.features(g, 5, bias=False)
    assert X.shape == (M.shape[0] + 1, M.shape[1]) and np.allclose(X[-1], np.sqrt(gu.BIAS_B))
    mu, table = gu.tuned_mu("OLLGC", X, g, t2.protocol)
    assert mu in t2.protocol.mu_grid and len(table) == len(t2.protocol.mu_grid)


def test_at_budget_smoke(t2):
    """SSLGC's kappa set on the held-out order to the published count; mu is Table 2's."""
    at = gu.at_budget("smoke", verbose=False)
    r = at.iloc[0]
    assert list(at.dataset) == ["Cora"] and r.method == "SSLGC"
    read = gu.reading_at_budget(gu.at_budget_verdicts(at, t2), t2)
    assert read.claims["all_reached"] and read.render().startswith("Set to the published budget")
    assert r.published == gu.published("Cora", "SSLGC")[0] and r["published #queried"] == 1525.48
    assert r.hit and abs(r["held-out #queried"] / r["published #queried"] - 1) <= 0.02
    assert r.mu == t2.target("cora", "SSLGC").mu
    assert gu.at_budget("smoke", verbose=False, only={("PubMed", "SSLGC")}).empty  # not in the smoke profile
    other = gu.at_budget("smoke", verbose=False, tuning_seed=1)
    assert other.kappa.iloc[0] != r.kappa and other.mu.iloc[0] == r.mu  # kappa re-tuned, mu kept
