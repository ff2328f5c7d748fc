"""Which cells of the published tables are times: the explicit list ``reproduce --compare`` reads.

Times (and fits to times, memory peaks) never repeat from one run to the
next, so ``--compare`` lists their cells apart and does not fail on them.
Which columns they are is declared here, table by table, and never guessed
from words in a column's name (a guess took ``paper_R2_holds``, ``4 s.e.``,
``mu matching the paper's #queried`` and the text column ``scaling`` for
times, so edits there passed). A table not listed has no time cell.

* :data:`TIME_COLUMNS`: table (file stem) -> its time columns.
* :data:`TIME_ROWS`: table -> ``(column, value)``: a row whose cell in that
  column is that value measures a time in every column (the scorecard's
  time-ratio rows: their ``ours``, ``z`` and ``verdict`` follow the time).
* :data:`NOT_TIMES`: table -> columns whose *name* reads like a time but
  whose values are not (a published time, a count, a text): declared so
  that the completeness test (``tests/collection/test_reproduce.py``) knows they were
  looked at.

A notebook that adds a time column to a table adds it here; the test fails
on a committed table whose column has a time word in its name
(:func:`looks_like_time`) and is declared neither way.
"""

from __future__ import annotations

import re

__all__ = ["NOT_TIMES", "TIME_COLUMNS", "TIME_ROWS", "looks_like_time", "time_columns"]

TIME_COLUMNS: dict[str, frozenset] = {
    name: frozenset(cols)
    for name, cols in {
        "07_spectral_decay": ["seconds"],
        "08_cmog_twin_check": ["library s", "naive s"],
        "20_gu2013_table2_ours": ["time_mean", "time_std"],
        "20_gu2013_times": [
            "time ours (s)",
            "ours std",
            "ours fastest order (s)",
            "ours timed alone (s)",
            "ours / paper",
        ],
        "21_gu2013_fig1_d100_vs_table2": ["time (ours)"],
        "21_gu2013_fig1_rank": ["time_mean", "time_std"],
        "22_gu2013_fig2_cumulative": ["time (s)"],
        "22_gu2013_fig2_endpoints": ["time (ours)"],
        "30_yang2016_table1_ours": ["time_mean", "time_std"],
        "33_yang2016_fig3_balance": ["time per pass d=100 (s)", "time per pass d=max (s)"],
        "33_yang2016_fig3_rank": ["time per pass (s)"],
        "34_relaxation_vs_selective": ["time"],
        "35_selective_relaxation": ["time"],
        "40_zhang2006_error_vs_labels": ["seconds"],
        "41_peers_accuracy": ["time mean (s)", "time ratio vs ours"],
        "43_gaertner2005_scaling": ["seconds"],
        "43_scaling_slopes": [
            "slope",
            "slope, top 3",
            "intercept",
            "r2",
            "slope vs edges",
            "slope of s per CG iteration",
            "seconds at largest",
        ],
        "44_approximate_embeddings": ["solver s", "time share"],
        "44_embedding_cost": ["seconds", "peak MiB"],
        "44_scaling_online_learning": [
            "pass s",
            "s per round",
            "s per round incl. embedding",
            "embedding s",
            "set-up s",
            "generator s",
            "peak MiB",
        ],
        "44_million_nodes": ["pass s", "s per round", "embedding s", "s per round incl. embedding"],
        "45_pool_panel": ["select_time"],
        "45_stream_panel": ["time"],
    }.items()
}

TIME_ROWS: dict[str, tuple] = {"90_scorecard": ("quantity", "time")}

NOT_TIMES: dict[str, frozenset] = {
    name: frozenset(cols)
    for name, cols in {
        "06_sslgc_label_complexity": ["paper_R2_holds"],  # a 0/1 flag
        "09_msg_theorems": ["E[|D| + sum_S p]", "4 s.e."],  # an expectation, a standard error
        "10_bbq_scaling": ["scaling"],  # the feature scaling, a text
        "20_gu2013_sslgc_query_match": ["mu matching the paper's #queried"],
        # published times, a count
        "20_gu2013_times": ["time paper (s)", "paper std", "orders timed alone"],
        "21_gu2013_fig1_d100_vs_table2": ["time (paper)"],
        "22_gu2013_fig2_endpoints": ["time (paper)"],
    }.items()
}

_TIME_WORDS = {
    "time", "times", "timing", "seconds", "second", "s", "ms", "us", "minutes", "hours",
    "elapsed", "duration", "runtime", "wall", "clock", "mib", "gib", "memory",
    "slope", "intercept", "r2", "scaling",
}  # fmt: skip
_WORDS = re.compile(r"[a-z0-9]+")


def looks_like_time(column: str) -> bool:
    """True if ``column``'s name has a word of a time, a memory or a fit to times (a candidate).

    >>> [looks_like_time(c) for c in ("pass s", "time_mean", "peak MiB", "error", "4 s.e.")]
    [True, True, True, False, True]
    """
    return bool(set(_WORDS.findall(column.lower().replace("_", " "))) & _TIME_WORDS)


def time_columns(table: str) -> frozenset:
    """The declared time columns of ``table`` (file stem); empty for a table not listed."""
    return TIME_COLUMNS.get(table, frozenset())
