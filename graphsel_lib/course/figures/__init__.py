"""The chapters' figures (00-13), one function per figure, each drawn in the one style of
:mod:`graphsel_lib.course.style` and returned for the chapter to save.

By chapter: :mod:`.graphs` (00-04: chapter map, data sets, spectra, labellings, the kernel bound,
the perceptron's bounds, LLGC's filter), :mod:`.online` (05-10: OLLGC and SSLGC on a graph, CMOG's
Theorem 1, MSG and the query rules) and :mod:`.transductive` (11-12: learned graphs, CMN, the GP).
"""

from .graphs import (
    DIFFICULTY_COLORS,
    GRAPH_LABELS,
    LABELLING_COLORS,
    bias_experiment_figure,
    bin_edges_between,
    chapter_map,
    datasets_overview,
    draw_labelling,
    graph_label,
    kernel_bound_panels,
    labelling_explorer,
    labelling_handles,
    laplacian_spectra,
    llgc_filter_figure,
    noisy_bound_figure,
    perceptron_bound_figure,
)
from .online import (
    bbq_scaling_figure,
    cumulative_error_panels,
    math_label,
    msg_h_sweep_figure,
    msg_query_anatomy_figure,
    msg_tradeoff_figure,
    node_score_map,
    proxy_handles,
    query_raster_figure,
    query_ratio_figure,
    theorem1_terms_figure,
)
from .transductive import (
    figure_pixels,
    gp_newton_and_balance_figure,
    harmonic_cmn_figure,
    learned_graphs_figure,
    q_collapse_figure,
)

__all__ = [
    "DIFFICULTY_COLORS",
    "GRAPH_LABELS",
    "LABELLING_COLORS",
    "bbq_scaling_figure",
    "bias_experiment_figure",
    "bin_edges_between",
    "chapter_map",
    "cumulative_error_panels",
    "datasets_overview",
    "draw_labelling",
    "figure_pixels",
    "gp_newton_and_balance_figure",
    "graph_label",
    "harmonic_cmn_figure",
    "kernel_bound_panels",
    "labelling_explorer",
    "labelling_handles",
    "laplacian_spectra",
    "learned_graphs_figure",
    "llgc_filter_figure",
    "math_label",
    "msg_h_sweep_figure",
    "msg_query_anatomy_figure",
    "msg_tradeoff_figure",
    "node_score_map",
    "noisy_bound_figure",
    "perceptron_bound_figure",
    "proxy_handles",
    "q_collapse_figure",
    "query_raster_figure",
    "query_ratio_figure",
    "theorem1_terms_figure",
]
