"""The one plotting style and ``savefig`` of every notebook, re-exported from :mod:`graphsel_lib.course.style`.

``from graphsel_lib.collection import plotting`` then ``plotting.savefig(fig, "NAME")``: every figure
goes through it (atomic writes, date-free metadata; see :mod:`graphsel_lib.course.style`). The
chapters' figure functions are in :mod:`graphsel_lib.course.figures`; the papers' in their
``graphsel_lib.papers`` modules.
"""

from __future__ import annotations

import matplotlib.pyplot as plt  # noqa: F401  (plotting.plt: pyplot, for the papers' legends)

from ..course.style import (
    ALGORITHM_STYLES,
    COLOR_CYCLE,
    FIGSIZES,
    RC_PARAMS,
    SAVE_FORMATS,
    algorithm_style,
    apply_style,
    canonical_name,
    figure_path,
    savefig,
    show,
    style,
    subplots,
)

__all__ = [
    "ALGORITHM_STYLES",
    "COLOR_CYCLE",
    "FIGSIZES",
    "RC_PARAMS",
    "SAVE_FORMATS",
    "algorithm_style",
    "apply_style",
    "canonical_name",
    "figure_path",
    "savefig",
    "show",
    "style",
    "subplots",
]
