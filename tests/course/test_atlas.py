"""The method atlas (notebook 45) at smoke size: both panels, their columns, seeding, and the drawing."""

import numpy as np
import pytest

from graphsel_lib.course import atlas


@pytest.fixture(scope="module")
def panels():
    stream, hyper = atlas.stream_panel("smoke", seed=0)
    pool = atlas.pool_panel("smoke", seed=0)
    return stream, hyper, pool


def test_protocols():
    full, smoke = atlas.protocol("full"), atlas.protocol("smoke")
    assert full.datasets == ("cora", "coauthor", "polblogs") and smoke.datasets == ("karate",)
    assert 0.4 in full.sslgc_kappas and full.checkpoints[-1] == full.budget + 1
    with pytest.raises(ValueError, match="profile"):
        atlas.protocol("medium")


def test_stream_panel_runs_every_learner_on_the_same_orders(panels):
    stream, hyper, _ = panels
    methods = set(stream["method"])
    assert {"GPA", "OLLGC", "SSLGC", "CMOG", "MSG", "BBQ", "relaxation", "relaxation + margin", "WTA",
            "WTA (7 trees)"} <= methods  # fmt: skip
    assert (stream["orders"] == atlas.protocol("smoke").n_orders).all()
    assert stream["error"].between(0, 1).all() and stream["labels %"].between(0, 100).all()
    full = stream[stream["method"].isin(["GPA", "OLLGC", "CMOG", "relaxation", "WTA", "WTA (7 trees)"])]
    assert (full["labels"] == full["n"]).all()  # fully supervised learners see every label
    assert set(hyper["parameter"]) == set(atlas.GRIDS) and (hyper["source"] == "tuned here (same grid)").all()
    again, _ = atlas.stream_panel("smoke", seed=0)
    np.testing.assert_array_equal(stream["error"], again["error"])  # seeded


def test_pool_panel_and_the_drawing(panels):
    stream, _, pool = panels
    p = atlas.protocol("smoke")
    assert set(pool["strategy"]) == {"RandomPool", "S2", "EER", "random + harmonic (no CMN)"}
    assert set(pool["labels"]) == set(p.checkpoints) and pool["error"].between(0, 1).all()
    assert (pool.loc[pool["strategy"] == "EER", "runs"] == p.eer_runs).all()
    fig = atlas.draw_atlas(stream, pool)
    assert len(fig.axes) == 2 and len(fig.legends) == 2  # one column per data set, two panels never mixed
    titles = [ax.get_title() for ax in fig.axes]
    assert titles[0].endswith("stream") and titles[1].endswith("pool")


def test_chosen_hyper_parameters_name_their_source():
    for values in atlas.CHOSEN.values():
        for key, v in values.items():
            assert key in atlas.SOURCE and key in atlas.GRIDS and v in atlas.GRIDS[key]
