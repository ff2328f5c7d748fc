"""Theorem evaluators: the bounds of the papers, evaluated term by term on graphs and on real runs.

One module per source; every function cites its theorem and equation:

* :mod:`.perceptron` — Herbster & Pontil (NIPS 2006), the graph perceptron:
  ``K_tt ≤ min(1/λ_2, ρ_t)`` (:func:`kernel_diagonal_bound`), ``|M| ≤ 4 Φ(y) max_t K_tt``
  (:func:`perceptron_mistake_bound`) and its hinge-loss form (:func:`perceptron_hinge_bound`);
* :mod:`.gu2013` — OLLGC's regret and mistake bounds (Thm 4, Cor. 5; :func:`ollgc_bounds`,
  :func:`graph_comparator`), SSLGC's bias and variance (Eq. 20; :func:`sslgc_bias_variance`) and
  label complexity (Thm 7, Eq. 26; :func:`sslgc_label_complexity`, :func:`sslgc_label_bound`,
  :func:`vacuous_from`);
* :mod:`.yang2016` — CMOG's Thm 1 (:func:`cmog_theorem1`, :func:`multiclass_margins`) and MSG's
  Thm 3 and Thm 5 (:func:`msg_theorems`, :func:`msg_progress`, :func:`msg_aggressive_threshold`);
* :mod:`.bbq` — the scale bound of BBQ and the ``O(d²)`` formulas of BBQ_ε (yang2016's baselines);
* :mod:`.trees` — random spanning trees and WTA: the matrix-tree theorem, Kirchhoff's
  ``P(e ∈ T) = w_e R_e``, the expected tree cut and WTA's mistake bound.

Where a printed statement cannot be proved, the evaluator computes the version that can, beside
the printed one. This layer sits above the algorithms (it runs the learners of
:mod:`graphsel_lib.online`) and below the course and paper content; the algorithms never import it.
"""

from .bbq import bbq_eps_formulas, bbq_first_query, bbq_r_cap
from .gu2013 import (
    OLLGCBounds,
    SSLGCBiasVariance,
    SSLGCLabelComplexity,
    graph_comparator,
    ollgc_bounds,
    sslgc_bias_variance,
    sslgc_label_bound,
    sslgc_label_complexity,
    vacuous_from,
)
from .perceptron import (
    algebraic_connectivity,
    kernel_diagonal_bound,
    perceptron_hinge_bound,
    perceptron_mistake_bound,
)
from .trees import (
    EdgeInTree,
    edge_in_tree_probability,
    enumerate_spanning_trees,
    expected_tree_cut,
    spanning_tree_count,
    tree_and_line_cuts,
    tree_edge_frequencies,
    wta_expected_mistake_bound,
    wta_mistake_bound,
)
from .yang2016 import (
    MSG_RECORD,
    CMOGTheorem1,
    MSGRunTerms,
    MSGTheorems,
    Theorem1Comparator,
    cmog_theorem1,
    msg_aggressive_threshold,
    msg_progress,
    msg_theorems,
    multiclass_margins,
)

__all__ = [
    "algebraic_connectivity",
    "kernel_diagonal_bound",
    "perceptron_mistake_bound",
    "perceptron_hinge_bound",
    "OLLGCBounds",
    "ollgc_bounds",
    "graph_comparator",
    "SSLGCBiasVariance",
    "sslgc_bias_variance",
    "SSLGCLabelComplexity",
    "sslgc_label_complexity",
    "sslgc_label_bound",
    "vacuous_from",
    "Theorem1Comparator",
    "CMOGTheorem1",
    "cmog_theorem1",
    "multiclass_margins",
    "MSG_RECORD",
    "msg_aggressive_threshold",
    "msg_progress",
    "MSGRunTerms",
    "MSGTheorems",
    "msg_theorems",
    "bbq_r_cap",
    "bbq_first_query",
    "bbq_eps_formulas",
    "spanning_tree_count",
    "enumerate_spanning_trees",
    "EdgeInTree",
    "edge_in_tree_probability",
    "tree_edge_frequencies",
    "expected_tree_cut",
    "tree_and_line_cuts",
    "wta_mistake_bound",
    "wta_expected_mistake_bound",
]
