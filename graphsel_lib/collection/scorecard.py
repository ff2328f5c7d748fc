"""The reproduction scorecard: one row per published number, one verdict vocabulary, one rule per verdict.

Every row compares a number a paper publishes with ours at the paper's
headline reading (written down in the notebook that makes the number before
the verdict is computed)::

    paper, item, dataset, method, quantity, published, ours, ours_std, n_runs, delta, z, tolerance, verdict, note

``note`` is a short key into a footnote table (keeps the Markdown lines short). ``quantity`` is ``error``, ``queried`` (labels a selective sampler asked for),
``error@budget`` (a selective sampler's error with its query parameter set to
ask for the published number of labels, where no setting reaches it: not
available; where one does, the headline ``error`` row is that run), ``error@tuned``
(the run at the label count its own tuning gave: a ``diagnostic``), ``time`` (a ratio between two
methods' times; a published one was measured on the authors' implementation, so its row is ``not
comparable``: ours is printed beside it, without delta, z or tolerance; a ``time`` row without a
published number is a claim about our code's time, with the claim verdicts) or ``claim``
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
    LINQS subsets for the paper's crawl, CiteSeer for IMDB): a replication on
    other data, shown without ``delta`` or ``z`` against the paper's number and
    never counted as reproduced or differs.
``reading-dependent``
    the readings of the published cell (or of the paper's protocol) disagree on
    the verdict: both numbers are in the note, no single verdict is claimed.
``inconclusive``
    the test cannot decide (p > 0.05, or a claim tested only on a stand-in).
``diagnostic``
    a run kept to explain another row (a selective sampler's run at the label
    count its own tuning gave, e.g. every node): shown, outside the tally.
``by construction``
    a label count that agrees only because both sides query every node:
    flagged, outside the tally.
``holds`` / ``fails`` / ``vacuous`` / ``not comparable``
    for ``claim`` rows (``vacuous``: a bound that holds but says nothing on the
    data, e.g. above the trivial count; ``not comparable``: a time claim
    between two implementations that no operation count decides; also the
    verdict of every published time), and
    ``inconclusive`` as above.

``z = delta / sqrt(ours_std**2 / n_runs + published_std**2 / n_published)``,
with the published spread where the paper gives one (else ours alone).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

__all__ = [
    "COLUMNS",
    "ACROSS_VERDICTS",
    "CLAIM_VERDICTS",
    "CONCLUSIONS",
    "chance",
    "CONCLUSION_RULE",
    "conclusion",
    "QUANTITIES",
    "OWN_BUDGET",
    "QUERY_BUDGET",
    "TALLIED",
    "VERDICTS",
    "check",
    "claim_row",
    "error_verdict",
    "STAND_IN_WORDS",
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
#: A selective sampler's run at the label count its own tuning gave, kept beside a headline judged at the
#: published budget (a ``diagnostic``, outside the tally).
OWN_BUDGET = "error@tuned"
QUANTITIES = ("error", "queried", "error@budget", OWN_BUDGET, "time", "claim")
VERDICTS = (
    "reproduced",
    "close",
    "differs",
    "not reproducible",
    "not available",
    "stand-in",
    "reading-dependent",
    "inconclusive",
    "diagnostic",
    "by construction",
)
#: The verdicts a paper's tally counts (the others are shown, outside it).
TALLIED = ("reproduced", "close", "differs", "not reproducible")
CLAIM_VERDICTS = ("holds", "fails", "inconclusive", "vacuous", "not comparable", "not available")
#: The verdicts of a published time (the authors' implementation against ours): shown beside the published
#: number, never a delta or a tolerance (an operation count that decides it is a ``claim`` row instead).
ACROSS_VERDICTS = ("not comparable", "not available")
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


#: The words every stand-in row uses, in the scorecard and in the per-experiment tables (one phrase).
STAND_IN_WORDS = "stand-in: a replication on other data, no delta or z against the paper's number"


def error_verdict(
    delta,
    tolerance,
    ours_std,
    n_runs,
    published_std=None,
    n_published=None,
    *,
    budget_ratio=None,
    headline=False,
    not_reproducible=False,
) -> str:
    """:func:`verdict` of one compared mean error, ``z`` from both spreads (:func:`z_score`).

    ``headline=True``: the row is a selective sampler's headline run; if its label count misses
    the published by more than :data:`QUERY_BUDGET`, it is a ``diagnostic`` (the headline error is
    then judged on a run at the published budget). The per-experiment tables and the scorecard
    share this rule, so their verdicts agree.

    >>> error_verdict(0.001, 0.015, 0.002, 20, 0.002, 20), error_verdict(0.002, 0.015, 0.001, 20)
    ('reproduced', 'close')
    >>> error_verdict(0.002, 0.015, 0.002, 20, budget_ratio=1.5, headline=True)
    'diagnostic'
    """
    if headline and budget_ratio is not None and abs(budget_ratio - 1.0) > QUERY_BUDGET:
        return "diagnostic"
    z = z_score(delta, ours_std, n_runs, published_std, n_published)
    if not_reproducible and _finite(delta) and abs(delta) <= tolerance:
        not_reproducible = False  # a run within tolerance is evidence against it
    return verdict(delta, tolerance, z=z, budget_ratio=budget_ratio, not_reproducible=not_reproducible)


def claim_row(paper, item, dataset, holds, *, method="-", ours=None, note="", quantity="claim") -> dict:
    """A ``claim`` row: the statement in ``item`` holds or fails on ``dataset`` (``None``: not available).

    ``holds`` may also be a claim verdict by name (``"inconclusive"``, ``"vacuous"``,
    ``"not comparable"``). ``quantity="time"`` for a claim whose number is a time
    (or a ratio or slope of times): it then moves with the machine, and
    ``reproduce --compare`` lists it with the time cells.

    >>> claim_row("p", "Thm 1", "d", "vacuous")["verdict"]
    'vacuous'
    """
    if isinstance(holds, str):
        if holds not in CLAIM_VERDICTS:
            raise ValueError(
                f"claim verdict {holds!r} is not one of {CLAIM_VERDICTS}; pass True/False or one of them"
            )
        verdict_ = holds
    else:
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
        if row["quantity"] == "time" and _finite(row["published"]):  # a published time: the authors' code
            if row["verdict"] not in ACROSS_VERDICTS:
                problems.append(f"{where}: a published time is judged {row['verdict']!r}; across "
                                f"implementations it is one of {ACROSS_VERDICTS}")  # fmt: skip
            if any(_finite(row[c]) for c in ("delta", "z", "tolerance")):
                problems.append(f"{where}: a time across implementations carries delta, z or a tolerance")
            continue
        is_claim = row["quantity"] == "claim" or (row["quantity"] == "time" and not _finite(row["published"]))
        allowed = CLAIM_VERDICTS if is_claim else VERDICTS
        if row["verdict"] not in allowed:
            problems.append(f"{where}: verdict {row['verdict']!r} not in {allowed}")
            continue
        if is_claim:
            continue
        pub, ours, delta = row["published"], row["ours"], row["delta"]
        if row["verdict"] == "stand-in" and (_finite(delta) or _finite(row["z"])):
            problems.append(f"{where}: a stand-in row carries delta or z against another data set's number")
        if row["verdict"] in ("not available", "stand-in", "reading-dependent", "inconclusive"):
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
    # a selective sampler's error is 'reproduced' only at the published label budget (a headline error with a
    # diagnostic run beside it was run at that budget: its own label count is not the queried row's)
    queried = df[df["quantity"] == "queried"].set_index(["paper", "item", "dataset", "method"])
    at_budget = set(
        df[df["quantity"] == OWN_BUDGET][["paper", "item", "dataset", "method"]].itertuples(index=False)
    )
    for i, row in df[(df["quantity"] == "error") & (df["verdict"] == "reproduced")].iterrows():
        key = (row["paper"], row["item"], row["dataset"], row["method"])
        if key in queried.index and key not in at_budget:
            q = queried.loc[key]
            if _finite(q["published"]) and _finite(q["ours"]) and q["published"] > 0:
                ratio = q["ours"] / q["published"]
                if abs(ratio - 1) > QUERY_BUDGET:
                    problems.append(
                        f"row {i} {key}: error reproduced at {ratio:.2f}x the published number of queried labels"
                    )
    if problems:
        raise ValueError("scorecard rules broken:\n  " + "\n  ".join(problems))


# --------------------------------------------------------------------------- the per-paper conclusion
CONCLUSIONS = ("reproduced", "partially reproduced", "not reproduced", "not testable here")
#: A share of the published numbers (or of the decided claims) at or above this is "most of them".
CONCLUDE_HIGH = 0.8
#: Below this share, "fewer than half".
CONCLUDE_LOW = 0.5
#: The rule, in the words notebook 90 prints above the tallies.
CONCLUSION_RULE = (
    "The numbers of a paper are its published errors and label counts with a tallied verdict (reproduced, "
    "close, differs, not reproducible; stand-ins, diagnostics, counts matched by construction and time "
    "ratios between implementations are outside); within tolerance = reproduced or close. Its claims are "
    "the claim rows that hold or fail (inconclusive, vacuous, not comparable and not available are "
    f"outside). **reproduced**: at least {CONCLUDE_HIGH:.0%} of the numbers within tolerance, none not "
    f"reproducible, at least {CONCLUDE_HIGH:.0%} of the claims hold, and, where the headline reading was "
    f"chosen because it agrees, at least {CONCLUDE_HIGH:.0%} of the errors within tolerance at the "
    f"a-priori reading too. **not reproduced**: fewer than {CONCLUDE_LOW:.0%} of the numbers within "
    f"tolerance and fewer than {CONCLUDE_LOW:.0%} of the claims hold (counting only the parts that exist). "
    "**not testable here**: no number and no claim decided. **partially reproduced**: every other case, "
    "including a paper with claims but no number compared. (Written when the conclusions were introduced, after "
    "the tallies it decides had been seen: it was not fixed in advance of these runs, only in advance of any "
    "later ones.)"
)


def conclusion(within, numbers, not_reproducible, holds, claims, apriori_share=None) -> str:
    """A paper's conclusion by :data:`CONCLUSION_RULE`.

    ``within`` of ``numbers`` published numbers within tolerance (``not_reproducible`` of them so
    judged), ``holds`` of ``claims`` decided claims; ``apriori_share``: the share of errors within
    tolerance at the a-priori reading, where the headline was chosen because it agrees (else ``None``).

    >>> conclusion(9, 9, 0, 12, 12), conclusion(9, 9, 0, 12, 12, apriori_share=0.0)
    ('reproduced', 'partially reproduced')
    >>> conclusion(4, 12, 0, 0, 2), conclusion(0, 0, 0, 3, 3), conclusion(0, 0, 0, 0, 0)
    ('not reproduced', 'partially reproduced', 'not testable here')
    """
    if numbers == 0 and claims == 0:
        return "not testable here"
    n_share = within / numbers if numbers else None
    c_share = holds / claims if claims else None
    high = (
        n_share is not None
        and n_share >= CONCLUDE_HIGH
        and not_reproducible == 0
        and (c_share is None or c_share >= CONCLUDE_HIGH)
        and (apriori_share is None or apriori_share >= CONCLUDE_HIGH)
    )
    if high:
        return "reproduced"
    if all(s is None or s < CONCLUDE_LOW for s in (n_share, c_share)):
        return "not reproduced"
    return "partially reproduced"


# --------------------------------------------------------------------------- how many verdicts chance alone makes
def chance(df: pd.DataFrame) -> pd.DataFrame:
    """Per paper: ``differs`` expected if every published number were exactly right, against the count.

    For each tallied numeric row (errors and label counts with a verdict in :data:`TALLIED`), ``delta`` is
    then normal with mean 0 and the standard error ``s`` the row's ``z`` uses (``|delta / z|``; a label
    count, with no ``z``, ``ours_std / sqrt(n_runs)``), so ``P(differs) = 2 (1 - Phi(tolerance / s))`` and
    ``P(|z| > 3) = 2 (1 - Phi(3))``. Columns: ``paper, cells, differs expected, differs or not
    reproducible, |z| > 3 expected, |z| > 3``.

    >>> row = dict(paper="p", quantity="error", verdict="differs", delta=0.04, z=4.0, tolerance=0.03,
    ...            ours_std=0.01, n_runs=20)
    >>> chance(pd.DataFrame([row]))[["cells", "differs expected", "|z| > 3"]].to_dict("records")
    [{'cells': 1, 'differs expected': 0.0027, '|z| > 3': 1}]
    """
    from scipy.stats import norm

    rows = df[df["quantity"].isin(["error", "queried"]) & df["verdict"].isin(TALLIED)].copy()
    se = (rows["delta"] / rows["z"]).abs()
    fallback = rows["ours_std"] / np.sqrt(rows["n_runs"])
    rows["se"] = se.where(np.isfinite(se) & (se > 0), fallback)
    rows["p_differs"] = 2 * norm.sf(rows["tolerance"] / rows["se"])
    out = []
    for paper, g in rows.groupby("paper", sort=False):
        ok = np.isfinite(g["p_differs"])
        out.append({
            "paper": paper,
            "cells": int(len(g)),
            "differs expected": round(float(g["p_differs"][ok].sum()), 4),
            "differs or not reproducible": int((g["verdict"].isin(["differs", "not reproducible"])).sum()),
            "|z| > 3 expected": round(float(2 * norm.sf(Z_LIMIT) * np.isfinite(g["z"]).sum()), 4),
            "|z| > 3": int((g["z"].abs() > Z_LIMIT).sum()),
        })  # fmt: skip
    cols = [
        "paper",
        "cells",
        "differs expected",
        "differs or not reproducible",
        "|z| > 3 expected",
        "|z| > 3",
    ]
    return pd.DataFrame(out, columns=cols)
