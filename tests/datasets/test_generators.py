"""The degree-corrected block model: seeded, sparse, labelled, with the mixing and degrees asked for."""

import warnings

import numpy as np
import pytest

import graphsel_lib as gs


def _sbm(**kw):
    args = dict(n_blocks=4, avg_degree=12, mixing=0.25, seed=3)
    args.update(kw)
    with pytest.warns(gs.DataWarning, match="dropped"):  # a few low-propensity nodes fall outside the LCC
        return gs.datasets.sbm(20_000, **args)


def test_same_seed_same_graph_other_seed_other_graph():
    a, b, c = _sbm(), _sbm(), _sbm(seed=4)
    assert (a.adjacency != b.adjacency).nnz == 0 and np.array_equal(a.labels, b.labels)
    assert a.adjacency.shape != c.adjacency.shape or (a.adjacency != c.adjacency).nnz > 0


def test_degrees_mixing_and_blocks_are_what_was_asked():
    g = _sbm()
    deg = np.asarray(g.adjacency.sum(axis=1)).ravel()
    assert g.n_classes == 4 and np.all(np.bincount(g.labels) > 4_500)
    assert 10.5 < deg.mean() < 12.5  # asked 12; repeated pairs and the LCC lose a little
    assert deg.max() > 10 * deg.mean()  # heavy tail: hubs, not a flat degree distribution
    assert abs(g.info["mixing_realised"] - 0.25) < 0.02
    upper = g.adjacency.tocoo()
    crossing = np.mean(g.labels[upper.row] != g.labels[upper.col])
    assert crossing == pytest.approx(g.info["mixing_realised"], abs=1e-12)
    assert g.info["nodes_dropped"]["outside_lcc"] == 20_000 - g.n_nodes
    assert set(np.unique(g.adjacency.data)) == {1.0} and g.adjacency.diagonal().sum() == 0


def test_mixing_zero_keeps_blocks_apart_and_lcc_is_one_block():
    with pytest.warns(gs.DataWarning, match="vanished|dropped"):
        g = gs.datasets.sbm(2_000, n_blocks=2, avg_degree=8, mixing=0.0, seed=0)
    assert g.info["mixing_realised"] == 0.0 and g.n_classes == 1  # no crossing edge: one block survives, said


@pytest.mark.parametrize(
    "kw, match",
    [
        (dict(n_blocks=1), "n_blocks"),
        (dict(avg_degree=0), "avg_degree"),
        (dict(mixing=1.0), "mixing"),
        (dict(mixing=-0.1), "mixing"),
        (dict(degree_exponent=2.0), "degree_exponent"),
        (dict(seed=-1), "seed"),
        (dict(n_blocks=600), "2 \\* n_blocks"),
    ],
)
def test_bad_parameters_are_named(kw, match):
    args = dict(n_blocks=4, avg_degree=10, mixing=0.2, seed=0)
    args.update(kw)
    with pytest.raises(ValueError, match=match):
        gs.datasets.sbm(1_000, **args)


def test_parameters_are_keyword_only():
    with pytest.raises(TypeError):
        gs.datasets.sbm(1_000, 4, 10, 0.2, 0)


def test_sbm_says_when_it_cannot_deliver_the_mean_degree():
    """avg_degree close to n: most drawn pairs repeat; the realised mean degree is reported and warned about."""
    with pytest.raises(ValueError, match="below n_nodes - 1"):
        gs.datasets.sbm(20, n_blocks=2, avg_degree=19, mixing=0.2, seed=0)
    with pytest.warns(gs.DataWarning, match="less than half the avg_degree"):
        g = gs.datasets.sbm(20, n_blocks=2, avg_degree=15, mixing=0.2, seed=0)
    assert g.info["avg_degree_realised"] < 7.5
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g = gs.datasets.sbm(2000, n_blocks=4, avg_degree=10, mixing=0.2, seed=0)  # most pairs are new
    assert not [w for w in caught if "less than half" in str(w.message)]
    assert abs(g.info["avg_degree_realised"] - 2 * g.n_edges / g.n_nodes) < 1e-12
