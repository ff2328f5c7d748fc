"""Deprecated: the contents of ``graphsel_lib.bounds`` moved, by what they hold, in version 0.2.

Kept for one release as a thin re-export; every attribute read warns (``DeprecationWarning``)
and names the new home:

* graph quantities — :func:`~graphsel_lib.graph.eccentricity`,
  :func:`~graphsel_lib.graph.kernel_diagonal`, :func:`~graphsel_lib.graph.effective_resistance`;
* theorem evaluators — :mod:`graphsel_lib.theory` (by paper: ``perceptron``, ``gu2013``,
  ``yang2016``, ``bbq``, ``trees``);
* the chapters' experiment runners and tables — :mod:`graphsel_lib.course`
  (``perceptron_runs``: chapter 03; ``kernel``: chapters 02 and 07).
"""

from __future__ import annotations

import importlib
import warnings

#: The new home of every name this module exported.
MOVED = {
    **dict.fromkeys(("eccentricity", "kernel_diagonal", "effective_resistance"), "graphsel_lib.graph"),
    **dict.fromkeys(
        (
            "perceptron_bound_runs",
            "perceptron_bound_table",
            "noisy_label_runs",
            "noisy_bound_table",
            "bias_feature_runs",
            "bias_feature_table",
        ),
        "graphsel_lib.course.perceptron_runs",
    ),
    **dict.fromkeys(
        (
            "kernel_bound_tightness",
            "kernel_bound_table",
            "low_rank_kernel_errors",
            "nystrom_kernel",
            "eckart_young_errors",
        ),
        "graphsel_lib.course.kernel",
    ),
    **dict.fromkeys(importlib.import_module("graphsel_lib.theory").__all__, "graphsel_lib.theory"),
}

__all__ = sorted(MOVED)


def __getattr__(name):
    if name not in MOVED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    home = MOVED[name]
    warnings.warn(
        f"graphsel_lib.bounds.{name} moved to {home}.{name}; graphsel_lib.bounds goes in the next release",
        DeprecationWarning,
        stacklevel=2,
    )
    return getattr(importlib.import_module(home), name)
