"""gaertner2005, "Large-scale multiclass transduction": Tables 1 and 2 (Sec. 6) and the scaling claim (Sec. 2).

The published numbers as data (:data:`PUBLISHED_T1`, :data:`PUBLISHED_T2`,
:data:`PUBLISHED_EPINIONS`), the protocols (:func:`protocol` for notebook 42, :func:`scaling_protocol` for
notebook 43), the headline reading (:data:`HEADLINE`), one function per table or figure that returns its
data (:func:`table1`, :func:`table2`, :func:`webkb_homophily`, :func:`solver_checks`, :func:`vs_published`,
:func:`transduction_vs_induction`, :func:`scaling`), the readings as
:class:`~graphsel_lib.course.prose.Reading` values and claims (:func:`published_t1_markdown`,
:func:`reading_transduction`, :func:`reading_tables`, :meth:`Scaling.reading`; their words in
:mod:`~graphsel_lib.papers.gaertner2005.texts`) and the figures (:func:`draw_tables`, :func:`draw_scaling`). Every result object
writes its tables (``.write()``) under the names the notebooks always used (``figures/42_*``, ``43_*``).
The method itself is :func:`graphsel_lib.transductive.transductive_gp` (notebook 12 derives it).
"""

from __future__ import annotations

from .comparison import (  # noqa: F401
    reading_assignments,
    reading_transduction,
    table1_readings,
    transduction_vs_induction,
    vs_published,
    write_table1_readings,
    write_transduction_vs_induction,
    write_vs_published,
)
from .published import (  # noqa: F401
    FOUR,
    HEADLINE,
    OURS_NOTE,
    PUBLISHED_EPINIONS,
    PUBLISHED_T1,
    PUBLISHED_T2,
    Headline,
    published_t1_frame,
    published_t1_markdown,
)
from .readings import (  # noqa: F401
    check_tables,
    draw_tables,
    reading_tables,
)
from .scaling_claim import (  # noqa: F401
    SCALING_METHODS,
    Scaling,
    ScalingProtocol,
    draw_scaling,
    median_time,
    scaling,
    scaling_protocol,
    stratified,
    voronoi_labels,
)
from .tables import (  # noqa: F401
    T1M,
    UCI_FULL,
    Homophily,
    Protocol,
    Table1,
    Table2,
    protocol,
    rbf_kinv,
    solver_checks,
    table1,
    table2,
    webkb_homophily,
)

__all__ = [
    "FOUR",
    "HEADLINE",
    "OURS_NOTE",
    "PUBLISHED_EPINIONS",
    "PUBLISHED_T1",
    "PUBLISHED_T2",
    "SCALING_METHODS",
    "T1M",
    "Headline",
    "Homophily",
    "Protocol",
    "Scaling",
    "ScalingProtocol",
    "Table1",
    "Table2",
    "check_tables",
    "draw_scaling",
    "draw_tables",
    "median_time",
    "protocol",
    "published_t1_frame",
    "published_t1_markdown",
    "rbf_kinv",
    "reading_tables",
    "reading_transduction",
    "scaling",
    "scaling_protocol",
    "solver_checks",
    "stratified",
    "table1",
    "table2",
    "transduction_vs_induction",
    "voronoi_labels",
    "vs_published",
    "webkb_homophily",
    "table1_readings",
    "reading_assignments",
    "write_table1_readings",
    "write_transduction_vs_induction",
    "write_vs_published",
]
