"""graphsel_lib.papers.scaling (notebook 44): the protocol and every public function on a tiny sweep.

The protocol is shrunk below the smoke profile (graphs of 300 and 1,200 nodes, 100 rounds) so that the whole
chain runs in seconds; the dask sweep runs when dask.distributed is installed. Tables go to a temporary folder.
"""

import dataclasses

import matplotlib.pyplot as plt
import numpy as np
import pytest

import graphsel_lib as gs
from conftest import assert_writes_as
from graphsel_lib.collection import tables
from graphsel_lib.papers import scaling as sc
from graphsel_lib.papers.scaling_million import _majority_error, checks, million_nodes

TINY = sc.Protocol("smoke", (300, 1_200), 100, 50, False, 1_200, 1_200, (1e-2,), (10,))


# The write() each result had before its table became a table field (the reference for the bytes).
def _old_embedding_cost(emb):
    t = emb.table
    residuals = tables.below_tolerance(t["max rel. residual"], t["solver"].map(sc.RESIDUAL_FLOOR), "%.1e")
    tables.write_table(emb.table.assign(**{"max rel. residual": residuals}), "44_embedding_cost",
                       float_format={"seconds": "%.2f", "peak MiB": "%.1f",
                                     "lambda_2": "%.6f", "sigma_d": "%.6f"})  # fmt: skip


def _old_approximate_embeddings(approx):
    tables.write_table(approx.table, "44_approximate_embeddings",
                       float_format={"solver s": "%.2f",
                                     "max rel. residual": tables.rounding_floor(1e-7, "%.1e"),
                                     "sin angle to exact": tables.rounding_floor(1e-6, "%.1e"),
                                     "OLLGC": "%.4f", "MSG": "%.4f", "OLLGC error change": "%+.4f",
                                     "MSG error change": "%+.4f", "time share": "%.2f"})  # fmt: skip


def _old_scaling(scl):
    tables.write_table(scl.table, "44_scaling_online_learning",
                       float_format={"pass s": "%.3f", "s per round": "%.3g", "s per round incl. embedding": "%.3g",
                                     "share of nodes seen": "%.4f", "embedding s": "%.2f", "set-up s": "%.3f",
                                     "generator s": "%.3f", "peak MiB": "%.1f", "error": "%.4f",
                                     "labels share": "%.4f"})  # fmt: skip


def _old_million_nodes(mil):
    tables.write_table(mil.passes, "44_million_nodes",
                       float_format={"s per round": "%.3g", "s per round incl. embedding": "%.3g",
                                     "pass s": "%.3g", "embedding s": "%.1f", "error": "%.4f",
                                     "labels share": "%.4f", "majority error": "%.4f"})  # fmt: skip


def test_protocol_and_helpers():
    full, smoke = sc.protocol("full"), sc.protocol("smoke")
    assert full.sizes == (1_000, 10_000, 100_000, 1_000_000) and full.rounds == 100_000 and full.epinions
    assert smoke.smoke and not smoke.epinions and full.d == 100 and full.top == 3
    s, c = sc.loglog_fit([10, 100, 1000], [2, 20, 200])
    assert np.isclose(s, 1.0) and np.isclose(c, np.log10(0.2))
    g, sec, dropped = sc.generate(300, 0)
    assert g.n_nodes == 300 - dropped and sec >= 0
    r = sc.measure(
        lambda: sc.SPECTRAL["GPA"](), gs.add_bias(np.eye(g.n_nodes)[:, :5].T, 1.0), g.labels, 50, 20
    )
    assert r["rounds"] == 50 and r["labels"] == 50 and r["peak MiB"] > 0
    with pytest.raises(ValueError, match="profile"):
        sc.protocol("huge")


def test_embedding_cost_writes_residuals_below_the_solvers_floor(figures, tmp_path):
    """44_embedding_cost: a residual below its solver's RESIDUAL_FLOOR is written as the floor (as committed:
    dense 3.7e-14, lobpcg-jacobi 4.6e-08, lobpcg-chebyshev 1.4e-08 become < 1e-12, < 1e-07, < 1e-07)."""
    import pandas as pd

    table = pd.DataFrame({
        "n": [1000] * 4, "nodes": [999] * 4, "solver": ["dense", "shift-invert", "lobpcg-jacobi", "lobpcg-chebyshev"],
        "seconds": [0.27, 0.53, 3.01, 3.51],
        "peak MiB": [16.8, 4.6, 14.7, 32.3], "max rel. residual": [3.7e-14, 5.5e-14, 4.6e-08, 2.0e-07],
        "lambda_2": [0.793579] * 4, "sigma_d": [3.692848] * 4, "iterations": [np.nan, np.nan, 21, 16],
        "check": ["exact", "inertia", "inertia", "inertia"],
    })  # fmt: skip
    emb = sc.Embeddings(sc.protocol("smoke"), {}, {}, table=table)
    assert emb.residuals == ["< 1e-12", "< 1e-12", "< 1e-07", "2.0e-07"]  # the last one missed its floor
    emb.write()
    written = (figures / "44_embedding_cost.csv").read_text().splitlines()
    assert [line.split(",")[5] for line in written] == ["max rel. residual", *emb.residuals]
    assert_writes_as(emb, _old_embedding_cost, "44_embedding_cost", tmp_path)


def test_the_whole_sweep_tiny(figures, monkeypatch, tmp_path):
    monkeypatch.setattr(sc, "protocol", lambda profile="full": TINY)
    gen = sc.generator("smoke", 0)
    assert sorted(gen.graphs) == [300, 1_200] and "slope" in gen.report()
    emb = sc.embedding_cost(gen, "smoke", 0, verbose=False)
    assert emb.spectral_sizes == [300, 1_200] and not emb.not_embedded and 1_200 in emb.exact
    emb.write()
    assert_writes_as(emb, _old_embedding_cost, "44_embedding_cost", tmp_path / "emb")
    assert list(emb.table.n) == [300, 1_200] and "None is computed" not in emb.reading().render()
    wider = sc.Embeddings(
        dataclasses.replace(TINY, sizes=(300, 1_200, 5_000)), emb.features, emb.exact, table=emb.table
    )
    assert "None is computed at 5,000 nodes" in wider.reading().render()
    loc = sc.localisation(gen, emb)
    assert 0 <= loc.captured <= 1 and 0 <= loc.localised <= 1
    approx = sc.approximate_embeddings(gen, emb, 0)
    assert (
        emb.table.set_index("n").loc[1_200, "solver"] == TINY.approx_solver
    )  # at approx_n, the block solver
    assert list(approx.table.embedding) == ["exact (tol 1e-8)", "tol 0.01", "d' = 10"]
    truncated = approx.table.iloc[-1]  # the first 10 exact pairs: no solve, the exact subspace
    assert np.isnan(truncated["solver s"]) and truncated["sin angle to exact"] < 1e-6
    approx.write()
    assert_writes_as(approx, _old_approximate_embeddings, "44_approximate_embeddings", tmp_path / "approx")
    assert "relaxation learner" in approx.reading(loc, TINY.d).render()
    sc.warm_up(gen, emb, 0)
    assert "bytes per further round" in sc.traced_prefix_check(gen, "smoke", 0)
    scl = sc.per_round(gen, emb, 0, verbose=False)
    assert len(scl.results) == 2 * (len(sc.PUSH) + len(sc.TREE) + len(sc.SPECTRAL)) and scl.real.empty
    assert set(scl.results.learner) >= {"WTA", "SSLGC"}
    scl.write()
    assert_writes_as(scl, _old_scaling, "44_scaling_online_learning", tmp_path / "scl")
    assert (
        figures / "44_scaling_online_learning.csv"
    ).is_file() and "compiled round loop" in scl.reading().render()
    plt.close(sc.draw_scaling(scl))
    text = sc.reading_summary(gen, emb, scl, None).render()
    assert text.startswith("*Smoke profile") and "Skipped" in text
    mil = million_nodes(gen, emb, scl, 0)
    assert mil.embedding["d"] == 10 and mil.embedding["nodes"] == gen.graphs[1_200].n_nodes
    passes = mil.passes.set_index(["learner", "pass"])
    assert passes.loc[("OLLGC", "full pass"), "rounds"] == gen.graphs[1_200].n_nodes
    assert (
        passes.loc[("SSLGC", "first rounds"), "rounds"]
        == TINY.rounds
        == passes.loc[("WTA", "first rounds"), "rounds"]
    )
    assert mil.passes["majority error"].between(0, 0.9).all()  # ten blocks of nearly equal size
    mil.write()
    assert_writes_as(mil, _old_million_nodes, "44_million_nodes", tmp_path / "mil")
    assert (figures / "44_million_nodes.csv").is_file() and "embedding: n = " in mil.report()
    assert f"({gen.graphs[1_200].n_nodes:,} nodes) the rank-10 embedding" in mil.reading().render()
    table = checks(emb, approx, scl, mil)  # asserts every one holds
    assert set(table["kind"]) == {"identity", "claim"} and table["holds"].all()


def test_majority_error_is_that_of_run_s_order():
    """The baseline of Sec. 3b counts the classes among the nodes run() plays first for that seed."""
    y = np.array([0] * 70 + [1] * 30)
    order = np.random.default_rng(5).permutation(100)[:40]
    assert _majority_error(y, 40, 5) == 1 - np.bincount(y[order]).max() / 40
    assert _majority_error(y, 100, 5) == pytest.approx(0.30)


def test_the_approximate_study_must_reuse_an_embedded_size(monkeypatch):
    """Sec. 2c's exact reference is a learners' embedding: an approx_n that is not embedded is refused."""
    monkeypatch.setattr(sc, "protocol", lambda profile="full": dataclasses.replace(TINY, approx_n=600))
    with pytest.raises(ValueError, match="approx_n = 600 must be one of the sizes"):
        sc.embedding_cost(sc.Generated({}, None, 0.0, 3), "smoke")


def test_trend_is_decided_on_the_printed_slope():
    from graphsel_lib.papers.scaling import _flat_or_grows

    assert "flat" not in _flat_or_grows(0.0996, 0.1).render()  # prints 0.10: not "below 0.1"
    assert _flat_or_grows(0.094, 0.1).render().startswith("flat (slope 0.09")
    assert "falling" in _flat_or_grows(-0.3, 0.1).render()
