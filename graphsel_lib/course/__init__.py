"""What the course chapters (00-13) use beside the algorithms: checks, quizzes and exercises.

``checks`` keeps a chapter's three kinds of checks apart (identities, claims for every run,
numbers quoted from the default run); ``quiz`` renders the self-check quiz that closes each
chapter and checks its numeric answers against the library; ``exercises`` says whether an
exercise stub has been answered; ``perceptron_runs`` (chapter 03) and ``kernel`` (chapters 02 and
07) run the chapters' experiments against the bounds of :mod:`graphsel_lib.theory` and make their
tables. The algorithm packages and the theory never import this package.
"""

from .checks import ChapterChecks, ClaimFailed
from .kernel import (
    eckart_young_errors,
    kernel_bound_table,
    kernel_bound_tightness,
    low_rank_kernel_errors,
    nystrom_kernel,
)
from .perceptron_runs import (
    bias_feature_runs,
    bias_feature_table,
    noisy_bound_table,
    noisy_label_runs,
    perceptron_bound_runs,
    perceptron_bound_table,
)

__all__ = [
    "ChapterChecks",
    "ClaimFailed",
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
