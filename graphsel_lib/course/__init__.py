"""The course chapters' content (00-13): experiment runners, tables, figures, the atlas, checks, quizzes.

The chapters' experiments and their tables: ``kernel`` (chapters 02 and 07) and ``perceptron_runs``
(chapter 03) against the bounds of :mod:`graphsel_lib.theory`, ``llgc_forms`` (chapter 04),
``harmonic_runs`` (chapter 11), and ``gp_runs`` with the naive EM of ``gp_em`` (chapter 12); ``figures`` draws the chapters'
figures in the one style of ``style`` (imported on use: it needs matplotlib); ``atlas`` runs every
method on the same graphs (notebook 45, chapter 13). ``checks`` keeps a chapter's three kinds of
checks apart (identities, claims for every run, numbers quoted from the default run); ``quiz``
renders the self-check quiz that closes each chapter and checks its numeric answers against the
library; ``exercises`` says whether an exercise stub has been answered. The algorithm packages
and the theory never import this package. ``prose`` holds
:class:`~graphsel_lib.course.prose.Reading` and the one renderer of the papers' readings.
"""

from .checks import ChapterChecks, ClaimFailed
from .gp_em import gp_t_step, naive_em, variational_bound
from .gp_runs import (
    BALANCE_SETTINGS,
    Q_COLLAPSE,
    compare_balance_settings,
    q_collapse_methods,
    q_collapse_runs,
    q_statistics,
    summarise_balance_settings,
    summarise_q_collapse,
)
from .harmonic_runs import (
    BANDWIDTH_METHODS,
    compare_bandwidth_learners,
    cross_class_mass,
    draw_labelled_set,
    harmonic_cmn_accuracy,
    labelled_per_class,
    reach_probability,
    summarise_bandwidth_learners,
    walk_edge_weights,
)
from .kernel import (
    eckart_young_errors,
    kernel_bound_table,
    kernel_bound_tightness,
    low_rank_kernel_errors,
    nystrom_kernel,
)
from .llgc_forms import llgc_form_deviations
from .perceptron_runs import (
    bias_feature_runs,
    bias_feature_table,
    noisy_bound_table,
    noisy_label_runs,
    perceptron_bound_runs,
    perceptron_bound_table,
)

__all__ = [
    "BALANCE_SETTINGS",
    "Q_COLLAPSE",
    "BANDWIDTH_METHODS",
    "ChapterChecks",
    "ClaimFailed",
    "compare_balance_settings",
    "compare_bandwidth_learners",
    "cross_class_mass",
    "draw_labelled_set",
    "harmonic_cmn_accuracy",
    "labelled_per_class",
    "llgc_form_deviations",
    "q_collapse_methods",
    "q_collapse_runs",
    "q_statistics",
    "summarise_balance_settings",
    "summarise_bandwidth_learners",
    "summarise_q_collapse",
    "walk_edge_weights",
    "reach_probability",
    "gp_t_step",
    "naive_em",
    "variational_bound",
    "bias_feature_runs",
    "bias_feature_table",
    "eckart_young_errors",
    "kernel_bound_table",
    "kernel_bound_tightness",
    "low_rank_kernel_errors",
    "noisy_bound_table",
    "noisy_label_runs",
    "nystrom_kernel",
    "perceptron_bound_runs",
    "perceptron_bound_table",
]
