"""gu2013, "Selective sampling on graphs for classification" (KDD 2013): Table 2 and Figs. 1-3 (Sec. 6).

The published numbers as data (:data:`PUBLISHED`, Table 2; the axes of Figs. 1-3), the protocol and its
grids (:func:`protocol`), the headline reading (:data:`HEADLINE`: mean binary error with the bias
feature), the learners and their tuning (:func:`make_ovr`, :func:`tuned_mu`), one function per table or
figure that returns its data (:func:`table2`, :func:`fig1`, :func:`fig2`, :func:`fig3`) and the figures
(:func:`draw_table2`, :func:`draw_fig1`, :func:`draw_fig2`, :func:`draw_fig3`). Notebooks 20-23 explain
the protocol and the results and call these. Each result object writes its tables (``.write()``) under
the names the notebooks always used (``figures/20_gu2013_*`` ...) and renders its reading
(``.reading*()``, Markdown).
"""

from __future__ import annotations

from graphsel_lib.papers.common import STAND_IN

from .budget import (  # noqa: F401
    at_budget,
    at_budget_verdicts,
    reading_at_budget,
)
from .figure1 import (  # noqa: F401
    Fig1,
    draw_fig1,
    fig1,
)
from .figure2 import (  # noqa: F401
    Fig2,
    draw_fig2,
    fig2,
)
from .figure3 import (  # noqa: F401
    Fig3,
    check_query_rule,
    draw_fig3,
    fig3,
)
from .paper_numbers import (  # noqa: F401
    BIAS_B,
    CONFIGS,
    ERROR_COLUMN,
    FIG1_AXES,
    FIG2_ERROR_AXES,
    FIG3_AXES,
    HEADLINE,
    KAPPA,
    MAX_EXCESS,
    MAX_RATIO,
    METHODS,
    OURS_NAME,
    PAPER_NAME,
    PUBLISHED,
    PUBLISHED_MACHINE,
    Q_CLOSE,
    TOL,
    Headline,
    nan,
    published,
)
from .protocols import (  # noqa: F401
    Protocol,
    check_definitions,
    features,
    make_ovr,
    protocol,
    tuned_mu,
)
from .table_2 import (  # noqa: F401
    Table2,
    table2,
)
from .table_2_checks import (  # noqa: F401
    IMDB_NOTE,
    OWN_COUNT_NOTE,
    STAND_IN_NOTE,
)
from .table_2_figure import draw_table2  # noqa: F401
from .timing import (  # noqa: F401
    GpaOffsets,
    gpa_offsets,
    table2_times,
    time_span,
)

__all__ = [
    "BIAS_B",
    "CONFIGS",
    "FIG1_AXES",
    "FIG2_ERROR_AXES",
    "FIG3_AXES",
    "HEADLINE",
    "KAPPA",
    "MAX_EXCESS",
    "MAX_RATIO",
    "METHODS",
    "PAPER_NAME",
    "PUBLISHED",
    "PUBLISHED_MACHINE",
    "Q_CLOSE",
    "STAND_IN",
    "TOL",
    "Fig1",
    "Fig2",
    "Fig3",
    "GpaOffsets",
    "Headline",
    "Protocol",
    "Table2",
    "check_definitions",
    "check_query_rule",
    "draw_fig1",
    "draw_fig2",
    "draw_fig3",
    "draw_table2",
    "features",
    "at_budget",
    "at_budget_verdicts",
    "reading_at_budget",
    "fig1",
    "fig2",
    "fig3",
    "gpa_offsets",
    "make_ovr",
    "protocol",
    "published",
    "table2",
    "table2_times",
    "time_span",
    "tuned_mu",
]
