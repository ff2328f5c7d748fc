"""graphsel_lib.papers.zhang2006 (notebook 40): the protocol, the headline and every public function.

The run uses the smoke profile (one pair, one label count, one split: seconds). Tables are written to a
temporary folder, never to ``figures/``.
"""

import dataclasses

import matplotlib.pyplot as plt
import numpy as np
import pytest
from sklearn.datasets import load_digits

from conftest import committed_rows
from graphsel_lib.papers import zhang2006 as zh


def test_no_published_numbers_and_the_headline():
    assert zh.PUBLISHED.empty  # our copy of the paper stops after Sec. 3
    assert zh.HEADLINE.method in zh.METHODS and zh.HEADLINE.baseline in zh.METHODS
    assert zh.protocol("full").shrink == zh.HEADLINE.shrink == 0.01


def test_protocols():
    full, smoke = zh.protocol("full"), zh.protocol("smoke")
    assert full.pairs == ((4, 9), (3, 8), (1, 7)) and full.n_labels == (4, 8, 16, 32) and full.n_splits == 10
    assert smoke.smoke and not full.smoke and len(smoke.pairs) == smoke.n_splits == 1
    assert 1.0 in full.c_grid  # HEM CV can pick sigma0 itself
    with pytest.raises(ValueError):
        zh.protocol("medium")


def test_split_is_stratified_and_seeded():
    y = np.array([0] * 10 + [1] * 10)
    a = zh.split(y, 6, np.random.default_rng(1))
    assert np.array_equal(a, zh.split(y, 6, np.random.default_rng(1)))
    assert np.array_equal(np.bincount(y[a]), [3, 3]) and np.all(np.diff(a) > 0)


def test_hem_cv_picks_a_grid_factor():
    d = load_digits()
    keep = np.isin(d.target, [4, 9])
    X, y = d.data[keep].astype(float)[:120], (d.target[keep] == 9).astype(int)[:120]
    lab = zh.split(y, 8, np.random.default_rng(0))
    F, c = zh.hem_cv(X, y, lab)
    assert c in zh.Protocol.c_grid and F.shape == (y.size, 2) and np.allclose(F[lab].argmax(1), y[lab])


@pytest.fixture(scope="module")
def run():
    return zh.error_vs_labels("smoke", seed=0)


def test_error_vs_labels_smoke(run, figures):
    s = run.summary
    assert list(s.columns) == [
        "pair",
        "labels",
        "method",
        "error",
        "error_std",
        "seconds",
    ]  # scorecard reads it
    assert list(s.method) == list(zh.METHODS) and (s.error < 0.5).all()
    assert len(run.grid_runs) == len(zh.Protocol.c_grid)
    run.write()
    assert (figures / "40_zhang2006_error_vs_labels.csv").is_file()
    assert "HEM CV - HEM σ₀" in run.check()
    text = run.reading().render()
    assert "Smoke profile" in text and "No published comparison" in text


def test_reading_claims(run):
    """Notebook 40 Sec. 3 at smoke (hold for seeds 0-2): CV picks sigma0 on the split, so HEM CV is HEM σ₀."""
    read = run.reading()
    assert read.claims["smoke"] and not read.claims["bad_split"]  # one split: no worst split to quote
    assert read.values["picked"] == read.values["n_cv"] == 1 and read.values["same_cv"] == 0
    means = read.values["means"]  # every method, the mean errors in ascending order
    assert {m.values["method"] for m in means} == set(zh.METHODS)
    assert all(a.values["error"] <= b.values["error"] for a, b in zip(means, means[1:], strict=False))


@pytest.mark.parametrize("shift, words", [(-0.01, "lower on every pair"), (0.0, "equal on 1"),
                                          (0.01, "higher on 1 of the 1 pair")])  # fmt: skip
def test_prior_against_pure_is_read_not_asserted(run, shift, words):
    """zhang2006 names no margin by which the prior must win (Fig. 1, Sec. 1): a tie or a loss at the fewest labels
    (smoke seeds 2 and 5) passes check() and the reading says which it is."""
    s = run.summary.copy()
    pure = s.method == "LOOHL (pure)"
    s.loc[s.method == "LOOHL", "error"] = s.loc[pure, "error"].to_numpy() + shift
    tied = dataclasses.replace(run, summary=s, seed=2)
    tied.check()
    read = tied.reading()
    assert read.claims["prior_lower"] == (shift < 0) and words in read.render()
    assert ("is essential" in read.render()) == (shift < 0)


def test_error_vs_labels_is_deterministic(run):
    again = zh.error_vs_labels("smoke", seed=0)
    assert again.summary.drop(columns="seconds").equals(run.summary.drop(columns="seconds"))


def test_draw_error_vs_labels(run):
    fig = zh.draw_error_vs_labels(run)
    assert len(fig.axes) == 1 and fig.axes[0].get_xscale() == "log"
    plt.close(fig)


def test_committed_table_has_the_methods_and_no_published_column():
    rows = committed_rows("40_zhang2006_error_vs_labels")
    assert {r["method"] for r in rows} == set(zh.METHODS)
    assert not any("published" in c for c in rows[0])  # nothing to compare with (PUBLISHED is empty)
