"""graphsel_lib.papers.herbster2006: the slides' published values and claims against the chapters' tables."""

import numpy as np

import graphsel_lib as gs
from graphsel_lib.papers import herbster2006 as herbster


def test_slide_values_and_the_karate_club_at_those_vertices():
    assert herbster.SLIDE_KTT == {30: 0.21, 15: 0.94}  # "K_30,30 = .21 (min), K_15,15 = .94 (max)"
    k = herbster.slide_vertices().set_index("vertex")
    L = gs.laplacian(gs.load_dataset("karate").adjacency).toarray()
    K = np.linalg.pinv(L)  # the naive pseudo-inverse
    assert abs(k.loc[30, "karate"] - K[29, 29]) < 1e-10 and abs(k.loc[15, "karate"] - K[14, 14]) < 1e-10
    assert (round(k.loc[30, "karate"], 3), round(k.loc[15, "karate"], 3)) == (0.334, 0.544)
    assert (k.loc["argmin", "karate"], k.loc["argmax", "karate"]) == (34, 12)  # not the slides' 30 and 15


def test_claims_read_the_chapter_tables():
    c = herbster.claims()
    assert list(c.claim) == list(herbster.CLAIMS) and c.holds.all()
    assert ((c["largest ours/bound"] > 0) & (c["largest ours/bound"] <= 1)).all()
