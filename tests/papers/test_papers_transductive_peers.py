"""graphsel_lib.papers.transductive_peers (notebook 41): protocol, the wrapped peers and every public function.

Smoke profile (Cora, two splits; PubMed's harmonic collapse on two splits). Tables go to a temporary folder.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import graphsel_lib as gs
from graphsel_lib.papers import transductive_peers as tp


def test_protocol_and_splits():
    full, smoke = tp.protocol("full"), tp.protocol("smoke")
    assert full.datasets == ("cora", "pubmed") and full.n_splits == 10 and full.per_class == 20
    assert np.isclose(full.mu_norm, 99.0) and smoke.datasets == ("cora",) and smoke.smoke
    y = np.repeat(np.arange(3), 30)
    lab = tp.split(y, 5, per_class=4)
    assert len(lab) == 12 and (np.bincount(y[lab]) == 4).all() and (np.diff(lab) > 0).all()
    assert tp.split_seeds(3, 2) == [2000, 2001, 2002]
    with pytest.raises(ValueError, match="profile"):
        tp.protocol("huge")


def test_wrapped_peers_on_a_small_graph():
    g = gs.load_dataset("cora")
    lab = tp.split(g.labels, 0)
    iters = []
    from sklearn.semi_supervised import LabelSpreading

    F, n_iter = tp.sk_fit(LabelSpreading, g.adjacency, g.labels, lab, alpha=0.99, iters=iters)
    assert F.shape == (g.n_nodes, g.n_classes) and iters == [("LabelSpreading", g.n_nodes, 1000, int(n_iter))]
    from networkx.algorithms import node_classification as nxc

    pred, t_build = tp.nx_fit(nxc.harmonic_function, g.adjacency, g.labels, lab)
    assert pred.shape == (g.n_nodes,) and t_build >= 0
    assert (tp.one_hot_argmax(pred, g.n_classes).argmax(1) == pred).all()
    assert [m[1] for m in tp.methods(tp.protocol("smoke"))].count("ours") == 5


def test_agreement_peers_and_collapse(figures):
    agree = tp.agreement("smoke", 0)
    assert set(agree.agree30) == {"harmonic_function", "local_and_global_consistency"}
    assert "max |dF|" in agree.report() and "30 iterations" in agree.reading().render()
    # networkx's default 30 iterations stop before the fixed point (any seed: asserted in agreement too)
    values = agree.reading().values
    assert 0.5 < values["agree_harmonic"] < 1 and 0.5 < values["agree_llgc"] < 1
    pe = tp.peers("smoke", 0, verbose=False)
    assert len(pe.runs) == 2 * 9 and len(pe.table) == 9
    assert list(pe.table.columns) == ["dataset", "method", "implementation", "accuracy", "error", "time mean (s)",
                                      "time ratio vs ours"]  # fmt: skip
    assert "LabelSpreading" in pe.converged() and "Smoke profile" in pe.reading_intro().render()
    assert not pe.reading_intro().claims["has_pubmed"] and "Below, per split" in pe.reading_intro().render()
    assert "full profile only" in pe.reading_truncated(agree).render()
    pe.write()
    plt.close(tp.draw_peers(pe))
    col = tp.collapse("smoke", 0)
    assert len(col.table) == 2 and col.n_nodes == 19_717 and len(col.ratio) == 2
    col.write()
    assert (figures / "41_harmonic_collapse.csv").is_file() and (figures / "41_peers_accuracy.csv").is_file()
    assert "PubMed has 19,717 nodes" in col.reading().render() and "harmonic error" in col.report()
    values = col.reading().values  # a collapse onto one PubMed class errs 0.60 to 0.79
    assert values["n_splits"] == 2 and f"{values['collapse_error']:.2f}" == "0.60 to 0.79"


def test_full_profile_readings_render_from_the_accuracy_table():
    """Sec. 4's readings at full scale, from a made-up accuracy table (the full run takes minutes)."""
    p = tp.protocol("full")
    rows = [dict(dataset=d, split=s, method=m, implementation=i, accuracy=0.5 + 0.01 * s, time=0.1)
            for d in p.datasets for s in range(3) for m, i, _ in tp.methods(p)]  # fmt: skip
    pe = tp.Peers(p, pd.DataFrame(rows), sk_iters=[("LabelPropagation", 19_717, 1000, 1000)] * 2)
    pe.table, pe.agg = tp._peers_table(pe.runs)
    intro = pe.reading_intro()
    assert intro.claims["has_pubmed"] and intro.render().startswith(
        "In the accuracy table the plain harmonic function reaches 0.510 ± 0.010 on PubMed (mean ± std over 10"
    )
    agree = tp.Agreement([], {"harmonic_function": 0.981, "local_and_global_consistency": 0.955}, p)
    text = pe.reading_truncated(agree).render()
    assert "without reaching `tol=0.001` on 2 of 2 PubMed fits" in text and "on 1.9% of the nodes" in text
    assert (
        "to $10^{-6}$ or better" in agree.reading().render() and "`max_iter=1000`" in agree.reading().render()
    )
