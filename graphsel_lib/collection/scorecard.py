"""The reproduction scorecard: one row per published number, one verdict vocabulary, one rule per verdict.

Every row compares a number a paper publishes with ours at the paper's
headline reading (written down in the notebook that makes the number before
the verdict is computed)::

    paper, item, dataset, method, quantity, published, ours, ours_std, n_runs, delta, z, tolerance, verdict, note

``note`` is a short key into a footnote table (keeps the Markdown lines short). ``quantity`` is ``error``, ``queried`` (labels a selective sampler asked for),
``error@budget`` (a selective sampler's error with its query parameter set to
ask for the published number of labels), ``time`` (a ratio between two
methods' times: machines differ, ratios less so; a ``time`` row without a
published number is a claim about time, with the claim verdicts) or ``claim``
(a statement of a figure, e.g. "SSLGC beats random sampling at every κ"). The verdicts:

``reproduced``
    ``|delta| <= tolerance``, ``|z| <= 3`` where ``z`` is defined, and for the
    error of a selective sampler its number of queried labels within 25 % of
    the published one (else the two numbers are not at the same label budget).
``close``
    within tolerance, but at another label budget or with ``|z| > 3`` (the
    difference is small in absolute terms but larger than both spreads allow).
``differs``
    ``|delta| > tolerance``.
``not reproducible``
    the published number is not what the described method gives, with the
    evidence in the producing notebook (e.g. a published error at chance level).
``not available``
    we have no data (IMDB) or could not read the published number.
``stand-in``
    ours is computed on another data set standing in for the paper's (WebKB's
    LINQS subsets for the paper's crawl, CiteSeer for IMDB): shown, never
    counted as reproduced or differs.
``holds`` / ``fails``
    for ``claim`` rows.

``z = delta / sqrt(ours_std**2 / n_runs + published_std**2 / n_published)``,
with the published spread where the paper gives one (else ours alone).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

__all__ = [
    "COLUMNS",
    "CLAIM_VERDICTS",
    "QUANTITIES",
    "QUERY_BUDGET",
    "VERDICTS",
    "check",
    "claim_row",
    "verdict",
    "z_score",
]

COLUMNS = [
    "paper",
    "item",
    "dataset",
    "method",
    "quantity",
    "published",
    "ours",
    "ours_std",
    "n_runs",
    "delta",
    "z",
    "tolerance",
    "verdict",
    "note",
]
QUANTITIES = ("error", "queried", "error@budget", "time", "claim")
VERDICTS = ("reproduced", "close", "differs", "not reproducible", "not available", "stand-in", "reading-dependent")  # fmt: skip
CLAIM_VERDICTS = ("holds", "fails", "not available")
#: A selective sampler's error is compared at the published label budget only if ours is within 25 % of it.
QUERY_BUDGET = 0.25
#: Beyond this |z| a difference inside the tolerance is still called ``close``.
Z_LIMIT = 3.0
KEY = ["paper", "item", "dataset", "method", "quantity"]


def _finite(x) -> bool:
    return x is not None and not (isinstance(x, float) and math.isnan(x)) and np.isfinite(x)


def z_score(delta, ours_std, n_runs, published_std=None, n_published=None) -> float:
    """``delta / sqrt(ours_std²/n_runs + published_std²/n_published)``; NaN where it is undefined.

    >>> round(z_score(0.01, 0.004, 16), 6), round(z_score(0.01, 0.004, 16, 0.004, 16), 6)
    (10.0, 7.071068)
    >>> import math; math.isnan(z_score(0.01, 0.0, 20))
    True
    """
    var = 0.0
    if _finite(ours_std) and _finite(n_runs) and n_runs > 0:
        var += float(ours_std) ** 2 / float(n_runs)
    if _finite(published_std) and _finite(n_published) and n_published > 0:
        var += float(published_std) ** 2 / float(n_published)
    if not _finite(delta) or var <= 0:
        return float("nan")
    return float(delta) / math.sqrt(var)


def verdict(
    delta, tolerance, *, z=float("nan"), budget_ratio=None, not_reproducible=False, stand_in=False
) -> str:
    """The verdict of one numeric row (see the module docstring).

    ``budget_ratio``: ours / published number of queried labels, for the error
    of a selective sampler (``None`` for learners that see every label).

    >>> verdict(0.01, 0.015), verdict(0.01, 0.015, z=4.2), verdict(0.02, 0.015)
    ('reproduced', 'close', 'differs')
    >>> verdict(0.005, 0.02, budget_ratio=2085 / 936), verdict(float("nan"), 0.02)
    ('close', 'not available')
    >>> verdict(0.3, 0.03, stand_in=True)  # another data set: shown, never a verdict on the paper
    'stand-in'
    """
    if stand_in:
        return "stand-in"
    if not_reproducible:
        return "not reproducible"
    if not _finite(delta):
        return "not available"
    if abs(delta) > tolerance:
        return "differs"
    if budget_ratio is not None and abs(budget_ratio - 1.0) > QUERY_BUDGET:
        return "close"
    if _finite(z) and abs(z) > Z_LIMIT:
        return "close"
    return "reproduced"


def claim_row(paper, item, dataset, holds, *, method="-", ours=None, note="", quantity="claim") -> dict:
    """A ``claim`` row: the statement in ``item`` holds or fails on ``dataset`` (``None``: not available).

    ``quantity="time"`` for a claim whose number is a time (or a ratio or slope
    of times): it then moves with the machine, and ``reproduce --compare`` lists
    it with the time cells.
    """
    verdict_ = "not available" if holds is None else ("holds" if holds else "fails")
    return dict(
        paper=paper,
        item=item,
        dataset=dataset,
        method=method,
        quantity=quantity,
        published=np.nan,
        ours=np.nan if ours is None else ours,
        ours_std=np.nan,
        n_runs=np.nan,
        delta=np.nan,
        z=np.nan,
        tolerance=np.nan,
        verdict=verdict_,
        note=note,
    )


def check(df: pd.DataFrame) -> None:
    """Raise ``ValueError`` listing every row that breaks the scorecard's rules."""
    problems = []
    missing = [c for c in COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"scorecard lacks the columns {missing}")
    dup = df[df.duplicated(KEY, keep=False)]
    if len(dup):
        problems.append(f"{len(dup)} rows share a key {KEY}: {dup[KEY].head(4).to_dict('records')}")
    for i, row in df.iterrows():
        where = (
            f"row {i} ({row['paper']}, {row['item']}, {row['dataset']}, {row['method']}, {row['quantity']})"
        )
        if row["quantity"] not in QUANTITIES:
            problems.append(f"{where}: quantity {row['quantity']!r} not in {QUANTITIES}")
            continue
        is_claim = row["quantity"] == "claim" or (row["quantity"] == "time" and not _finite(row["published"]))
        allowed = CLAIM_VERDICTS if is_claim else VERDICTS
        if row["verdict"] not in allowed:
            problems.append(f"{where}: verdict {row['verdict']!r} not in {allowed}")
            continue
        if is_claim:
            continue
        pub, ours, delta = row["published"], row["ours"], row["delta"]
        if row["verdict"] in ("not available", "stand-in"):
            continue
        if not (_finite(pub) and _finite(ours)):
            problems.append(f"{where}: verdict {row['verdict']!r} without both numbers")
            continue
        # to the printed precision: a written card rounds each number (4 significant digits)
        if not np.isclose(delta, ours - pub, atol=1e-9 + 2e-3 * max(abs(pub), abs(ours)), rtol=0):
            problems.append(f"{where}: delta {delta} is not ours - published = {ours - pub}")
        if row["verdict"] == "reproduced":
            if abs(delta) > row["tolerance"] + 1e-12:
                problems.append(
                    f"{where}: reproduced but |delta| {abs(delta):.4g} > tolerance {row['tolerance']}"
                )
            if _finite(row["z"]) and abs(row["z"]) > Z_LIMIT:
                problems.append(f"{where}: reproduced but |z| = {abs(row['z']):.2f} > {Z_LIMIT}")
        if row["verdict"] == "differs" and abs(delta) <= row["tolerance"]:
            problems.append(f"{where}: differs but within tolerance")
    # a selective sampler's error is 'reproduced' only at the published label budget
    queried = df[df["quantity"] == "queried"].set_index(["paper", "item", "dataset", "method"])
    for i, row in df[(df["quantity"] == "error") & (df["verdict"] == "reproduced")].iterrows():
        key = (row["paper"], row["item"], row["dataset"], row["method"])
        if key in queried.index:
            q = queried.loc[key]
            if _finite(q["published"]) and _finite(q["ours"]) and q["published"] > 0:
                ratio = q["ours"] / q["published"]
                if abs(ratio - 1) > QUERY_BUDGET:
                    problems.append(
                        f"row {i} {key}: error reproduced at {ratio:.2f}x the published number of queried labels"
                    )
    if problems:
        raise ValueError("scorecard rules broken:\n  " + "\n  ".join(problems))
