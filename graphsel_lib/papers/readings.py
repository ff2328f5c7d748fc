"""Each paper's readings as a declared grid, and the tally of verdicts under each.

A *reading* settles a choice the paper leaves open (which error, a bias feature,
CMOG's update rule); a parameter the paper states (the rank d = 100, gu2013
Sec. 6.4 and yang2016 Sec. V-D: "we chose d = 100") is not a reading, and the
runs at other ranks go to a separate "beyond the paper" table. For each paper
:data:`GRID` records the a-priori reading (what the text says, quoted from the
paper) and the headline reading, and whether the headline was chosen because it
agrees with the published numbers. :func:`grid_tallies` re-counts the verdicts
of the headline error rows with one reading changed at a time (the rows a
reading does not re-read keep their headline verdict).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..collection import scorecard
from . import scorecard_rows
from .scorecard_texts import reading as _text

__all__ = ["GRID", "Reading", "beyond_the_paper", "grid_tallies", "split_stated", "STATED_PREFIX"]

STATED_PREFIX = scorecard_rows.STATED_PREFIX


@dataclass(frozen=True)
class Reading:
    """A paper's declared readings: the a-priori one (quoted) and the headline."""

    apriori: str  # the sensitivity-table reading that is the text's own, or "headline"
    quote: str  # what the paper says, verbatim from /work/shared/papers (text extraction)
    headline: str
    by_agreement: bool  # the headline was chosen (partly) because it agrees with the published numbers


GRID = {
    "gu2013": Reading(
        apriori="bias=False, multiclass error",
        quote='Algorithm 1: "Compute L = D − S and M from L" (no constant feature); Sec. 6.2: "cumulative error '
        'rate"; Sec. 6.3: "we use one vs rest scheme" (the error of the multi-class prediction)',
        headline="mean binary error of the one-vs-rest learners, bias feature appended",
        by_agreement=True,
    ),
    "yang2016": Reading(
        apriori="bias=False",
        quote="Sec. II-C: M = [v_1/sqrt(lambda_1), ..., v_n/sqrt(lambda_n)]^T (no constant feature); Sec. III-B: "
        '"The CMOG is a conservative algorithm that updates model whenever an error occurs"',
        headline="bias feature appended; CMOG as Alg. 1 (conservative); the published ± read as a variance "
        "(its square root is the size of our spread over the orders: read from our runs too)",
        by_agreement=True,
    ),
    "gaertner2005": Reading(
        apriori="headline",
        quote='Sec. 6: "The reported error rates are for 10-fold crossvalidations. Parameters were chosen by '
        'crossvalidation inside the training folds."',
        headline="10-fold CV, parameters by inner CV; graph kernel of a 10-nearest-neighbour graph",
        by_agreement=False,
    ),
    "herbster2006": Reading(
        apriori="headline",
        quote="the slides state bounds (K_tt <= min(1/lambda_2, rho_t); mistakes <= 4 Phi max_t K_tt)",
        headline="the bounds as stated, on the graphs of notebooks 02-03",
        by_agreement=False,
    ),
    "zhang2006": Reading(
        apriori="headline",
        quote="abstract: learning the graph by leave-one-out improves on the harmonic function (our copy "
        "stops after Sec. 3: no published number)",
        headline="LOOHL against the harmonic function at sigma0 on digit pairs, paired t-test",
        by_agreement=False,
    ),
}


def split_stated(alternatives: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(readings, beyond)``: alternatives split into readings and runs at a stated parameter (d != 100)."""
    stated = alternatives.reading.str.startswith(STATED_PREFIX)
    return alternatives[~stated], alternatives[stated]


def beyond_the_paper(sc, variants) -> pd.DataFrame:
    """The sensitivity table's shape for the runs at a parameter the paper states otherwise (d != 100)."""
    return scorecard_rows.reading_sensitivity(sc, variants, stated=True)


def _tally(verdicts) -> dict:
    v = pd.Series(list(verdicts)).value_counts()
    out = {k: int(v.get(k, 0)) for k in scorecard.TALLIED}
    n = sum(out.values())
    out["n"] = n
    out["within tolerance"] = (out["reproduced"] + out["close"]) / n if n else float("nan")
    return out


def grid_tallies(sc, variants) -> pd.DataFrame:
    """Per paper and reading (the headline, then each alternative, one changed at a time): the error tally.

    Columns: ``paper, reading, role`` (``headline`` / ``a-priori`` / ``alternative``), the counts of
    :data:`~graphsel_lib.collection.scorecard.TALLIED` verdicts, ``n`` and ``within tolerance`` (the share
    reproduced or close).
    """
    alt, _ = split_stated(scorecard_rows._alternatives(sc, variants))
    head = sc[(sc.quantity == "error") & sc.verdict.isin(scorecard.TALLIED)]
    rows = []
    for paper, h in head.groupby("paper", sort=False):
        base = dict(zip(zip(h.dataset, h.method, strict=True), h.verdict, strict=True))
        grid = GRID.get(paper)
        rows.append(dict(paper=paper, reading="headline", role="headline", **_tally(base.values())))
        for reading, g in alt[alt.paper == paper].groupby("reading", sort=False):
            changed = dict(base)
            changed.update({(r.dataset, r.method): r[5] for r in g.itertuples(index=False)})
            role = "a-priori" if grid is not None and grid.apriori == reading else "alternative"
            rows.append(dict(paper=paper, reading=reading, role=role, **_tally(changed.values())))
    cols = ["paper", "reading", "role", *scorecard.TALLIED, "n", "within tolerance"]
    return pd.DataFrame(rows, columns=cols)


def extremes(grid: pd.DataFrame, paper: str) -> dict:
    """The headline, a-priori, best and worst rows of ``paper`` in :func:`grid_tallies`' table."""
    g = grid[grid.paper == paper]
    if not len(g):
        return {}
    order = g.sort_values(["within tolerance", "reproduced"], kind="stable")
    apriori = g[g.role == "a-priori"]
    head = g[g.role == "headline"].iloc[0]
    return {
        "headline": head,
        "a-priori": apriori.iloc[0] if len(apriori) else head,
        "best": order.iloc[-1],
        "worst": order.iloc[0],
    }


def _counts(row):
    """'5 reproduced, 4 close of 9 errors': a grid row's tally (template ``grid.counts``)."""
    counts = [_text("tallies.count", n=int(row[k]), verdict=k) for k in scorecard.TALLIED if row[k]]
    return _text("grid.counts", counts=counts, n=int(row["n"]))


def grid_sentence(grid: pd.DataFrame, paper: str) -> str:
    """The readings of ``paper`` in words: a-priori (quoted), headline, best and worst over the grid
    (template ``grid`` of :mod:`.scorecard_texts`)."""
    ex, spec = extremes(grid, paper), GRID.get(paper)
    if spec is None:
        return ""
    if not ex:
        return _text("grid.none", quote=spec.quote).render()
    n = int((grid.paper == paper).sum())
    claims = dict(same=ex["a-priori"] is ex["headline"], by_agreement=spec.by_agreement, single=n == 1)
    return _text("grid", claims, quote=spec.quote, apriori=ex["a-priori"].reading, headline=spec.headline, n=n,
                 apriori_counts=_counts(ex["a-priori"]), head_counts=_counts(ex["headline"]),
                 best=ex["best"].reading, best_counts=_counts(ex["best"]), worst=ex["worst"].reading,
                 worst_counts=_counts(ex["worst"])).render()  # fmt: skip
