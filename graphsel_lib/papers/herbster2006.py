"""Herbster & Pontil, "Prediction on a graph with a perceptron" (NIPS 2006), as the slides state it.

The published items as data (:data:`CLAIMS`, :data:`SLIDE_KTT`): the bound on the kernel diagonal, the
mistake bound and its noisy form, and the grey-scaled K_tt of the graph the slides draw.
:func:`slide_vertices` computes the karate club's K_tt at the slides' vertices (the slides do not say
which graph they draw), :func:`claims` reads the tables chapters 02-03 write (they derive the bounds and
check them on random graphs, karate and digits) and says whether each claim holds. The scorecard's rows
for the slides are built from these two.
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import pandas as pd

import graphsel_lib as gs
from graphsel_lib.collection import tables

__all__ = ["CLAIMS", "SLIDE_KTT", "claims", "karate_kernel_diagonal", "slide_vertices"]

#: The slides' bounds, in their words, with the chapter table that checks each (chapters 02 and 03).
CLAIMS = {
    "K_tt bound": ("K_tt <= min(1/lambda_2, rho_t) for every vertex t", "02_kernel_bound_random_graphs"),
    "mistake bound": ("|M| <= 4 Phi max_t K_tt (Phi: edges joining different labels)", "03_mistake_bound"),
    "noisy bound": (
        "with flipped labels, |M| <= 2|M cap M_w| + ||w||^2 X^2 / 2 + sqrt(...)",
        "03_noisy_bound",
    ),
}
#: "Grey-scaled K_tt: K_30,30 = .21 (min), K_15,15 = .94 (max)": vertex (1-based) -> the slides' K_tt.
SLIDE_KTT = {30: 0.21, 15: 0.94}


def karate_kernel_diagonal(weighted: bool = False) -> np.ndarray:
    """K_tt = (L^+)_tt of Zachary's karate club (members 1..34 at index 0..33); ``weighted``: interaction counts."""
    if weighted:
        S = nx.to_scipy_sparse_array(nx.karate_club_graph(), weight="weight")
    else:
        S = gs.load_dataset("karate").adjacency
    return np.diag(gs.laplacian_pinv(S))


def slide_vertices() -> pd.DataFrame:
    """The slides' K_30,30 and K_15,15 beside the karate club's (plain and weighted) at the same vertices.

    Also, per graph, the vertex where K_tt is smallest and largest: the slides call 30 the minimum and
    15 the maximum of their graph.
    """
    graphs = {"karate": karate_kernel_diagonal(), "karate (weighted)": karate_kernel_diagonal(weighted=True)}
    rows = []
    for vertex, published in SLIDE_KTT.items():
        row = {"vertex": vertex, "slides": published}
        row.update({name: float(k[vertex - 1]) for name, k in graphs.items()})
        rows.append(row)
    rows.append({"vertex": "argmin", "slides": 30, **{n: int(np.argmin(k)) + 1 for n, k in graphs.items()}})
    rows.append({"vertex": "argmax", "slides": 15, **{n: int(np.argmax(k)) + 1 for n, k in graphs.items()}})
    return pd.DataFrame(rows)


def claims() -> pd.DataFrame:
    """Each bound of the slides against the chapters' tables: holds, and the largest (ours / bound) seen.

    Reads ``02_kernel_bound_random_graphs`` (K_tt / min(1/lambda_2, rho_t) per family of random graphs),
    ``03_mistake_bound`` (the worst order's mistakes per labelling) and ``03_noisy_bound``.
    """
    kb = tables.read_table(CLAIMS["K_tt bound"][1])
    mb = tables.read_table(CLAIMS["mistake bound"][1])
    nb = tables.read_table(CLAIMS["noisy bound"][1])
    worst = {
        "K_tt bound": (float(kb["max K_tt/bound"].max()), f"random graphs ({int(kb['graphs'].sum())})"),
        "mistake bound": (float((mb["mistakes_max"] / mb["bound_slides"]).max()), f"{len(mb)} labellings"),
        "noisy bound": (float(nb["max_mistakes_over_bound"].max()), f"{nb['graph'].nunique()} graphs"),
    }
    return pd.DataFrame(
        [
            {
                "claim": name,
                "statement": statement,
                "table": table,
                "on": worst[name][1],
                "largest ours/bound": worst[name][0],
                "holds": worst[name][0] <= 1 + 1e-9,
            }  # fmt: skip
            for name, (statement, table) in CLAIMS.items()
        ]
    )
