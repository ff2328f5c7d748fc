r"""The words of notebook 90's verdict (``figures/90_verdict.md``): each paper's conclusion and tallies, what is
regenerated, what chance gives.

Filled by :func:`graphsel_lib.course.prose.render`: one template per sentence or paragraph, and one per repeated
item (a count, a data set, a reason). The fields are ``{value:fmt}``, lists ``{values*sep*last}``, and
``{claim?words if true|words if false}``. :func:`graphsel_lib.papers.conclusions.conclusion_text`,
:func:`~graphsel_lib.papers.conclusions.regenerated_sentence`,
:func:`~graphsel_lib.papers.conclusions.chance_sentence`,
:func:`graphsel_lib.papers.scorecard_rows.verdict_paragraph` and
:func:`~graphsel_lib.papers.scorecard_rows.verdict_text` compute the values and claims, never the words.
"""

from __future__ import annotations

from graphsel_lib.course.prose import Reading, templated_reading

__all__ = ["TEMPLATES", "reading"]

TEMPLATES = {
    # ------------------------------------------------------------------ a paper's conclusion (conclusions.py)
    "conclusion": (
        r"**{paper}: {conclusion}.** {has_numbers?At the headline reading {within} of {numbers} published numbers "
        r"(errors and label counts) are within tolerance ({counts*, })|No published number could be compared}"
        r"{has_claims?, and {holds} of {n_claims} decided claims hold{has_numbers?| (claims alone make a paper at "
        r"most partially reproduced)}.|; no claim was decided.}{has_why? {why*; }.|}"
    ),
    "conclusion.count": r"{n} {verdict}",
    "conclusion.apriori": (
        r"The headline reading was chosen because it agrees: at the text's own reading ({apriori}) {share:.0%} of "
        r"the errors are within tolerance"
    ),
    "conclusion.not_reproducible": r"{n} published numbers are reached by no reading we tried",
    "conclusion.not_available": (
        r"{n} published {one?item cannot|items cannot} be tested here ({datasets*, })"
    ),
    "conclusion.outside": r"{n} {one?row is|rows are} not counted: {kinds*; }",
    "conclusion.outside.kind": r"{n} {verdict} ({items*, })",
    "regenerated": (
        r"**{n} of {m} published items regenerated** (numbers and claims on the papers' own data; stand-in data "
        r"sets and diagnostics not counted). Cannot be regenerated here ({missing}): {where*; }; the reason of "
        r"each is its note in `figures/90_notes.csv`."
    ),
    "regenerated.paper": r"{paper}: {datasets*, }",
    "regenerated.dataset": r"{dataset} ({items})",
    "chance": (
        r"**Chance.** Of the {n} numeric cells tallied, {expected:.1f} would differ by sampling alone if every "
        r"published number were exactly right (|delta| > tolerance with the row's own standard error), and "
        r"{z_expected:.1f} would have |z| > 3; we find {found} that differ or are not reproducible and {z_found} "
        r"with |z| > 3 ({per*; }). That many or more has probability {significant?{p:.1g} by chance (Poisson): "
        r"the differences are not sampling noise.|{p:.2f} by chance (Poisson): chance alone could give them.}"
    ),
    "chance.paper": r"{paper} {expected:.1f} expected, {found} found",
    # ------------------------------------------------------------------ a paper's tallies (scorecard_rows.py)
    "tallies": (
        r"{under_conclusion?Tallies: |**{paper}**: }{parts*; }.{has_aside? On stand-in data sets (replications "
        r"on other data, no delta or z against the paper's numbers): {n_aside} rows shown{has_aside_claims?; "
        r"{n_aside_claims} claims tested there are inconclusive for the paper}.|}"
    ),
    "tallies.errors": (
        r"{within}/{n} errors within tolerance, {within_2s}/{n} within 2 σ; verdicts: {verdicts*, }"
    ),
    "tallies.count": r"{n} {verdict}",
    "tallies.dependent": (r"{n} reading-dependent (the readings of the published cell disagree: {cells*, })"),
    "tallies.cell": r"{dataset} {method}",
    "tallies.not_available": r"{n} published {one?item|items} not available ({datasets*, })",
    "tallies.queried": r"{method} label counts {counts* / } against the published",
    "tallies.queried.count": (
        r"{pct:+d} % ({dataset}{by_construction?, both query every node: not tallied|})"
    ),
    "tallies.at_budget": (
        r"judged at the published label budget (the query parameter tuned to the published count): {rows*, }"
    ),
    "tallies.at_budget.row": (
        r"{method} {delta:+.3f} ({dataset}, {verdict}; {own_delta:+.3f} at its own count, a diagnostic)"
    ),
    "tallies.times": (
        r"published time ratios: {n} not comparable (the authors' Matlab against our compiled code; ours shown "
        r"beside them, no verdict)"
    ),
    "tallies.claims": (
        r"claims: {holds}/{decided} decided hold{has_fails? (fails: {fails*; })|}"
        r"{has_other?; not decided: {other*, }|}"
    ),
    "tallies.claims.fail": r"{item} [{note}] on {dataset}",
    "tallies.robustness": (
        r"robustness: {n} alternative readings change {changed} of {compared} verdicts (table "
        r"90_reading_sensitivity; runs at a rank d other than the stated 100 are not readings: table "
        r"90_beyond_the_paper)"
    ),
    "tallies.with_after": r"{tally}{has_after? {after}|}",
    # ------------------------------------------------------------------ the verdict page (scorecard_rows.py)
    "verdict": (
        "{smoke?*Smoke profile: tiny data; the verdicts below test the pipeline, not the papers.*\n\n|}"
        "{lead*}{papers*\n\n}\n\n{footer}\n"
    ),
    "verdict.lead": "{paragraph}\n\n",
    "verdict.footer": (
        r"The rules, the readings and every row: notebook 90 (`figures/90_scorecard.csv`); claims and notes are "
        r"keyed in `figures/90_notes.csv`; how much each verdict depends on a reading: "
        r"`figures/90_reading_sensitivity.csv`."
    ),
}


def reading(key: str, claims: dict | None = None, **values) -> Reading:
    """The :class:`~graphsel_lib.course.prose.Reading` of template ``key`` with these ``values`` and ``claims``."""
    return templated_reading(
        TEMPLATES, key, claims, values, missing="no scorecard text {key!r}", name="scorecard"
    )
