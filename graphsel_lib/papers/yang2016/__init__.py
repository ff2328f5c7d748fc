"""yang2016, "Efficient Multi-Class Selective Sampling on Graphs": Table I and Figs. 1-3 (Sec. V).

The published numbers as data (:data:`PUBLISHED`, Table I), the protocol and its grids
(:func:`protocol`, :func:`methods`), the headline feature setting (:data:`HEADLINE`), the tuning
(:func:`tuned_params`), one function per table or figure that returns its data (:func:`table1`,
:func:`fig1`, :func:`fig2`, :func:`fig3`), and the figures (:func:`draw_table1`, :func:`draw_fig1`,
:func:`draw_fig2`, :func:`draw_fig3`). Notebooks 30-33 explain the protocol and the results and call
these. Each result object writes its tables (``.write()``) under the names the notebooks always
used (``figures/30_yang2016_*`` ...) and returns its readings as data (``.reading*()``, a
:class:`~graphsel_lib.course.prose.Reading` whose templates are in :mod:`.texts`).
"""

from __future__ import annotations

from graphsel_lib.papers.common import STAND_IN

from .budget import (  # noqa: F401
    BUDGET_KNOB,
    GAMMA_GRID,
    GAMMA_METHODS,
    at_budget,
    at_budget_verdicts,
    gamma_tuned,
)
from .figure1 import (  # noqa: F401
    Fig1,
    draw_fig1,
    fig1,
)
from .figure2 import (  # noqa: F401
    GAMMA_DIAGNOSTIC,
    MAX_GAP,
    SWEEP_PARAM,
    Fig2,
    check_gamma_scaling,
    draw_fig2,
    fig2,
)
from .figure3 import (  # noqa: F401
    Fig3,
    draw_fig3,
    fig3,
)
from .paper_numbers import (  # noqa: F401
    BIAS_B,
    HEADLINE,
    LABEL,
    PAPER_NAME,
    PUBLISHED,
    RULE_METHODS,
    SHOWN,
    TOL,
    TOL_OTHER,
    Headline,
    published,
)
from .protocols import (  # noqa: F401
    Protocol,
    check_rls_identity,
    features,
    methods,
    paper_method,
    protocol,
    tuned_params,
)
from .table_i import (  # noqa: F401
    Table1,
    draw_table1,
    table1,
)
from .table_i_checks import (  # noqa: F401
    GPA_NOT_REPRODUCIBLE,
    IMDB_NOTE,
    OWN_COUNT_NOTE,
    SELECTIVE,
    STAND_IN_NOTE,
)

__all__ = [
    "BIAS_B",
    "BUDGET_KNOB",
    "GAMMA_GRID",
    "GAMMA_METHODS",
    "GAMMA_DIAGNOSTIC",
    "HEADLINE",
    "LABEL",
    "MAX_GAP",
    "PAPER_NAME",
    "PUBLISHED",
    "RULE_METHODS",
    "SHOWN",
    "STAND_IN",
    "TOL",
    "TOL_OTHER",
    "Fig1",
    "Fig2",
    "Fig3",
    "Headline",
    "Protocol",
    "Table1",
    "at_budget",
    "at_budget_verdicts",
    "check_gamma_scaling",
    "check_rls_identity",
    "draw_fig1",
    "draw_fig2",
    "draw_fig3",
    "draw_table1",
    "features",
    "fig1",
    "fig2",
    "fig3",
    "gamma_tuned",
    "methods",
    "protocol",
    "paper_method",
    "published",
    "table1",
    "tuned_params",
]
