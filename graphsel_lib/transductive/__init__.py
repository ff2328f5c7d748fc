"""Offline (transductive) node classification on a graph.

Every method takes a weight matrix ``S``, labels ``y`` (``0..K-1``, length
``n``; only the labelled entries are used) and the labelled nodes ``labeled``
(integer indices or a boolean mask), and returns an ``(n, K)`` score matrix
``F`` whose row-wise argmax is the prediction.

* :func:`llgc` — gu2013 Eq. 2: ``(I + mu L) F = Y``.
* :func:`transductive_gp` — gaertner2005: multiclass GP transduction with balancing
  constraints, Newton–CG on a sparse ``K^{-1}``.
* :func:`harmonic` — Zhu et al. 2003 / zhang2006 Eq. 2, optionally with class
  mass normalisation (``cmn=True``).
* :func:`loohl`, :func:`minent` — zhang2006: learn one RBF bandwidth per
  feature from features ``X`` (leave-one-out loss, or entropy), then the
  harmonic scores on the learned graph; return ``(F, BandwidthFit)``.

Dense, literal twins for testing live in :mod:`graphsel_lib.transductive.reference`.
"""

from ._common import ConvergenceWarning
from .gp import (
    balance_bounds,
    balance_epsilon,
    gp_kernel_inverse,
    gp_objective,
    match_class_proportions,
    solve_balanced_q,
    transductive_gp,
)
from .harmonic import class_mass_normalization, harmonic
from .llgc import llgc
from .loohl import (
    BandwidthFit,
    entropy_objective,
    harmonic_rbf,
    loo_objective,
    loohl,
    minent,
    mst_bandwidth,
    rbf_weights,
    smoothed_transition,
)

__all__ = [
    "BandwidthFit",
    "ConvergenceWarning",
    "balance_bounds",
    "balance_epsilon",
    "class_mass_normalization",
    "entropy_objective",
    "gp_kernel_inverse",
    "gp_objective",
    "harmonic",
    "harmonic_rbf",
    "llgc",
    "loo_objective",
    "loohl",
    "match_class_proportions",
    "minent",
    "mst_bandwidth",
    "rbf_weights",
    "smoothed_transition",
    "solve_balanced_q",
    "transductive_gp",
]
