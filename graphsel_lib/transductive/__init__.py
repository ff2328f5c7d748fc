"""Offline (transductive) node classification on a graph.

Every method takes a weight matrix ``S``, labels ``y`` (``0..K-1``, length
``n``; only the labelled entries are used) and the labelled nodes ``labelled``
(integer indices or a boolean mask), and returns an ``(n, K)`` score matrix
``F`` whose row-wise argmax is the prediction.

* :func:`llgc` — gu2013 Eq. 2: ``(I + mu L) F = Y`` (the combinatorial-Laplacian
  variant; Zhou et al.'s normalized one with ``laplacian="normalized"``), and its
  low-rank ridge form (:func:`llgc_low_rank`, :func:`llgc_truncation_error`).
* :func:`transductive_gp` — gaertner2005: multiclass GP transduction with balancing
  constraints, Newton–CG on a sparse ``K^{-1}`` (a dense one's products faster, the same bits:
  :func:`dense_kinv_matmul`); :func:`transductive_gp_fit` returns the scores with the search's
  report (a :class:`GPFit`).
* :func:`harmonic` — Zhu et al. 2003 / zhang2006 Eq. 2, optionally with class
  mass normalisation (``cmn=True``); :func:`cmn_prior` resolves CMN's class
  prior (labelled shares, uniform, given, or none).
* :func:`loohl`, :func:`minent` — zhang2006: learn one RBF bandwidth per
  feature from features ``X`` (leave-one-out loss, or entropy), then the
  harmonic scores on the learned graph; :func:`loohl_fit` and :func:`minent_fit` return the
  scores with the learned bandwidths (a :class:`BandwidthFit`).

Dense, literal twins for testing live in :mod:`graphsel_lib.transductive.reference`.
"""

from ._common import ConvergenceWarning, predict
from ._dense_kinv import dense_kinv_matmul
from .balance import balance_bounds, balance_epsilon, solve_balanced_q
from .gp import (
    GPFit,
    gp_hessp,
    gp_kernel_inverse,
    gp_objective,
    match_class_proportions,
    transductive_gp,
    transductive_gp_fit,
)
from .harmonic import (
    CMN_PRIORS,
    MIN_UNLABELLED_FOR_CMN,
    class_mass_normalization,
    cmn_prior,
    harmonic,
)
from .llgc import llgc, llgc_low_rank, llgc_truncation_error
from .loohl import (
    BandwidthFit,
    entropy_objective,
    harmonic_rbf,
    loo_objective,
    loohl,
    loohl_fit,
    minent,
    minent_fit,
    mst_bandwidth,
    rbf_weights,
    smoothed_transition,
)

__all__ = [
    "CMN_PRIORS",
    "MIN_UNLABELLED_FOR_CMN",
    "BandwidthFit",
    "GPFit",
    "ConvergenceWarning",
    "balance_bounds",
    "balance_epsilon",
    "class_mass_normalization",
    "cmn_prior",
    "dense_kinv_matmul",
    "entropy_objective",
    "gp_hessp",
    "gp_kernel_inverse",
    "gp_objective",
    "harmonic",
    "harmonic_rbf",
    "llgc",
    "predict",
    "llgc_low_rank",
    "llgc_truncation_error",
    "loo_objective",
    "loohl",
    "loohl_fit",
    "match_class_proportions",
    "minent",
    "minent_fit",
    "mst_bandwidth",
    "rbf_weights",
    "smoothed_transition",
    "solve_balanced_q",
    "transductive_gp",
    "transductive_gp_fit",
]
