"""The claims census (graphsel_lib.papers.census) and yang2016's GPA as a multiclass perceptron."""

import numpy as np
import pandas as pd
import pytest

from graphsel_lib.papers import census, gpa_multiclass
from graphsel_lib.paths import project_root

CARD = project_root() / "figures" / "90_scorecard.csv"


def test_operation_count_and_resistance_bound():
    # more OLLGC mistakes -> more of its d^2 updates -> a smaller SSLGC / OLLGC ratio
    assert census.sslgc_ollgc_operations(100, 0.18) < census.sslgc_ollgc_operations(100, 0.076)
    assert census.sslgc_ollgc_operations(100, 0.0) == pytest.approx((200 + 2e4) / 200)
    # the count orders OLLGC and SSLGC above GPA but at ratios (15x, 96x on Cora) far from the published 6.9x, 6.1x
    assert census.method_gpa_operations("OLLGC", 100, 0.0761, 0.1105) > 1
    assert census.method_gpa_operations("SSLGC", 100, 0.08, 0.1105) > census.method_gpa_operations(
        "OLLGC", 100, 0.0761, 0.1105
    )
    with pytest.raises(ValueError, match="OLLGC and SSLGC"):
        census.method_gpa_operations("GPA", 100, 0.1, 0.1)
    worst, on = census.resistance_bound(seed=1, n_random=3)
    assert 0 < worst <= 1 and "3 random" in on


def test_multiclass_perceptron_counts_its_mistakes_and_refuses_bad_shapes():
    X = np.eye(3)[[0, 1, 2, 0, 1, 2]]
    y = np.array([0, 1, 2, 0, 1, 2])
    # first sight of each class is a mistake except class 0 (w = 0 predicts 0); then all correct
    assert gpa_multiclass.multiclass_perceptron_error(X, y, np.arange(6)) == pytest.approx(2 / 6)
    with pytest.raises(ValueError, match="one row per label"):
        gpa_multiclass.multiclass_perceptron_error(X.T[:2], y, np.arange(6))


@pytest.mark.skipif(not CARD.is_file(), reason="notebook 90 has not written its scorecard")
def test_census_rows_in_the_committed_scorecard():
    """Regression (issue 33): claims missing from the census, and verdicts stronger than their tests."""
    card = pd.read_csv(CARD)
    v = card.set_index(["paper", "item", "dataset", "method"]).verdict
    # SSLGC against OLLGC is a time claim within our code (one implementation): tested, and our SSLGC is slower
    # (its d^2 query test every round); it was `not comparable` before the issue 33 re-read
    assert (card[card.note == "g-time"].verdict == "fails").all() and (card.note == "g-time").sum() == 3
    assert v[("gu2013", "Fig. 2", "PubMed", "SSLGC/OLLGC")] == "fails"
    assert (card[card.note == "t1"].verdict == "not comparable").all()  # the authors' Matlab against ours
    for paper, thm in [("gu2013", "Thm 4"), ("gu2013", "Cor. 5"), ("gu2013", "Thm 7"), ("yang2016", "Thm 1"),
                       ("yang2016", "Thm 3"), ("yang2016", "Thm 5")]:  # fmt: skip
        assert set(card[(card.paper == paper) & (card["item"] == thm)].verdict) <= {"holds", "vacuous"}, thm
    # collapse: a possibility claim on unnamed data that runs on Cora cannot refute (issue 33 re-read)
    assert set(card[card.note.isin(["tvi", "tvi-b", "z1", "collapse"])].verdict) == {"inconclusive"}
    assert v[("gu2013", "Table 2", "PubMed", "SSLGC vs OLLGC")] == "holds"
    assert set(card[card.note.isin(["g8", "y8", "ep2", "z3", "h4"])].note) == {"g8", "y8", "ep2", "z3", "h4"}
    variants = pd.read_csv(CARD.with_name("90_variants.csv"))
    gpa = variants[variants.reading.str.contains("multiclass perceptron")]
    assert len(gpa) and (gpa.ours - gpa.published).abs().min() > 0.03  # tried, and still far off


@pytest.mark.skipif(
    not CARD.with_name("90_at_budget_tuning_orders.csv").is_file(), reason="notebook 90 not run"
)
def test_at_budget_spread_over_tuning_orders():
    """The headline at-budget rows are tuning order 0 of the spread table; each order has a verdict."""
    from graphsel_lib.collection import scorecard
    from graphsel_lib.papers import budget_spread

    table = pd.read_csv(CARD.with_name("90_at_budget_tuning_orders.csv"))
    card = pd.read_csv(CARD)
    head = card[(card.quantity == "error") & card.note.isin(["at-budget", "budget-near"])]
    zero = table[table.tuning == 0].set_index(["paper", "dataset", "method"])
    assert len(zero) == len(head) and table.tuning.nunique() >= 2
    for r in head.itertuples():
        assert zero.loc[(r.paper, r.dataset, r.method), "ours"] == pytest.approx(r.ours, abs=1e-4)
        assert zero.loc[(r.paper, r.dataset, r.method), "verdict"] == r.verdict
    assert set(table.verdict) <= set(scorecard.TALLIED)
    summ = budget_spread.summary(table)
    assert (summ.error_min <= summ.error_mean).all() and (summ.error_mean <= summ.error_max).all()
    assert "held-out orders" in budget_spread.sentence(summ, "yang2016")


def test_at_budget_spread_without_at_budget_rows_is_empty():
    """A profile whose samplers all hit the published count has no at-budget row: an empty table, no error."""
    from graphsel_lib.papers import budget_spread

    sc = pd.DataFrame([dict(paper="p", quantity="error", note="", dataset="d", method="m")])
    table = budget_spread.spread(sc, "smoke", 2)
    assert table.empty and list(table.columns) == budget_spread.COLUMNS
    assert (
        budget_spread.summary(table).empty and budget_spread.sentence(budget_spread.summary(table), "p") == ""
    )
