"""yang2016's protocol (Sec. V-A): data sets, learners and their grids, features and the tuning."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd

import graphsel_lib as gs
from graphsel_lib import experiments as ex
from graphsel_lib.online import BBQ, CMOG, DGS, GPA, MSG, BBQEps, OneVsRest, run
from graphsel_lib.papers.common import N_JOBS, STAND_IN, ProfileProtocol, is_smoke

from .paper_numbers import BIAS_B, HEADLINE


@dataclass(frozen=True)
class Protocol(ProfileProtocol):
    """Sizes and grids of one profile (yang2016 Sec. V-A; ``smoke`` shrinks everything to run in seconds)."""

    datasets: tuple  #: Table I, Figs. 1-2 (CiteSeer stands in for IMDB)
    d: int  #: rank of the spectral features (yang2016: d = 100)
    n_orders: int  #: random node orders (yang2016: 20)
    h_grid: tuple  #: MSG (the paper's grid)
    kappa_grid: tuple  #: BBQ (ours: the paper gives none)
    eps_grid: tuple  #: BBQ_eps (the paper's grid)
    rank_datasets: tuple  #: Fig. 3
    ranks: tuple  #: Fig. 3 (the paper's grid of d)
    gamma_kappa_grid: tuple  #: BBQ at the diagnostic ridge (notebook 32 Sec. 5)


def protocol(profile: str = "full") -> Protocol:
    """The protocol of ``profile`` (``"full"``: the paper's sizes; ``"smoke"``: Cora only, tiny grids)."""
    if is_smoke(profile):
        return Protocol(
            profile, ("cora",), 20, 2, (1e-3, 1e-2), (0.4, 0.8), (1e-3, 1e-1), ("cora",), (10, 20), (0.6, 0.8)
        )
    return Protocol(
        profile,
        ("coauthor", "cora", "pubmed", STAND_IN),
        100,
        20,
        (1e-4, 1e-3, 1e-2, 1e-1, 1.0),
        (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0),
        (1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0, 10.0),
        ("coauthor", "cora"),
        (10, 100, 250, 500, 750, 1000),
        (0.5, 0.6, 0.7, 0.8, 0.9),
    )


def methods(p: Protocol, variants: bool = False) -> dict:
    """The six methods of Table I as ``name -> (make, grid)``; gamma = 1, delta = 0.1 throughout.

    CMOG is the paper's Alg. 1 (Definition 1 targets); ``variants`` adds notebook 30's readings
    ``"CMOG onehot"`` and ``"CMOG every round"`` (the non-conservative RLS) before MSG.
    """
    out = {
        "GPA": (partial(OneVsRest, GPA), {}),
        "BBQ": (BBQ, {"kappa": list(p.kappa_grid)}),
        "BBQ_eps": (BBQEps, {"eps": list(p.eps_grid)}),
        "DGS": (DGS, {}),
        "CMOG": (partial(CMOG, targets="definition1"), {}),
    }
    if variants:
        out["CMOG onehot"] = (partial(CMOG, targets="onehot"), {})
        out["CMOG every round"] = (partial(CMOG, targets="onehot", conservative=False), {})
    out["MSG"] = (MSG, {"h": list(p.h_grid)})
    return out


def paper_method(method: str) -> str:
    """The paper's method a variant of ours stands for (``"CMOG onehot"`` -> ``"CMOG"``)."""
    return "CMOG" if method.startswith("CMOG") else method


def features(g, d: int, bias: bool = HEADLINE.bias):
    """Rank-d spectral features m_t of ``g`` (yang2016 Sec. II-C), with the constant feature when ``bias``."""
    M = gs.spectral_embedding(g.adjacency, d).M
    return gs.add_bias(M, BIAS_B) if bias else M


def _setting(params: dict) -> str:
    return ", ".join(f"{k}={v:g}" for k, v in params.items()) or "-"


def tuned_key(dataset: str, method: str, **point) -> tuple:
    """The key of a tuned setting: its dataset, method and sweep point (e.g. ``bias=True`` or ``d=100``)."""
    return (dataset, method, *sorted(point.items()))


def tuned_learner(meths: dict, params: dict, dataset: str, method: str, **point):
    """A fresh learner ``method`` of ``meths`` at the setting tuned for its dataset and point (``params``)."""
    return meths[method][0](**params[tuned_key(dataset, method, **point)])


def tuned_params(method: str, X, g, p: Protocol, seed: int = 0, verbose: bool = True) -> dict:
    """The grid point with the lowest error on the held-out order ``ex.tuning_order`` (Sec. V-A; cached)."""
    make, grid = methods(p, variants=True)[method]
    if not grid:
        return {}
    best, table = ex.tune(make, grid, X, g.labels, ex.tuning_order(g.n_nodes, seed), seed=seed, n_jobs=N_JOBS)
    if verbose:
        print(f"{g.name} {method}: {ex.tuning_note(table)}")  # the margin that chose it
    return best


def _print(df, width=200, fmt=".4f"):
    with pd.option_context("display.width", width, "display.max_colwidth", 60):
        print(df.to_string(index=False, float_format=lambda x: format(x, fmt)))


def check_rls_identity(profile: str = "full", seed: int = 0) -> str:
    """Every-round CMOG = BBQ_eps querying every label (same RLS, same argmax), round by round on Cora."""
    p = protocol(profile)
    g0 = gs.load_dataset("cora")
    M0 = gs.spectral_embedding(g0.adjacency, p.d).M
    a = run(CMOG(targets="onehot", conservative=False), M0, g0.labels, seed=seed, record=("score",))
    b = run(BBQEps(eps=1e-5), M0, g0.labels, seed=seed)
    assert b.n_queried == g0.n_nodes  # eps = 1e-5 queries every label
    assert np.array_equal(a.predictions, b.predictions)  # same RLS, same argmax
    assert np.isclose(a.error_rate, np.mean(a.predictions != a.labels))  # error = mistakes on all rounds / T
    assert np.array_equal(
        a.predictions, np.argmax(a.records["score"], axis=1)
    )  # argmax, ties to smallest index
    c = run(DGS(), M0, g0.labels, seed=seed)
    return (
        f"Cora, one order: every-round CMOG {a.error_rate:.4f} = BBQ_eps(1e-5) {b.error_rate:.4f}; "
        f"DGS {c.error_rate:.4f} (queried {c.n_queried}/{g0.n_nodes}), "
        f"predictions differ from RLS on {np.mean(a.predictions != c.predictions):.2%} of rounds"
    )
