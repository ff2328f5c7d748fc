"""The reproduction report, in the shape ReScience C and the ML Reproducibility Challenge ask for.

Scope (the claims), methods and readings, results per claim, what was easy and
what was hard, questions for the original authors. Every number is read from
the scorecard and the tables notebook 90 and the reproduction notebooks wrote;
the words around them are templates in :mod:`.scorecard_texts`. Notebook 90 writes the page to
``figures/90_report.md``; the book shows it beside the summary notebook.
"""

from __future__ import annotations

import pandas as pd

from .._atomic import atomic_write
from ..collection import scorecard, tables
from ..paths import figures_dir
from . import conclusions, readings
from .score_data import num
from .scorecard_texts import reading as _text

__all__ = ["REPORT", "questions", "report_markdown", "write_report"]

TITLES = {
    "herbster2006": "Herbster & Pontil, Prediction on a graph with a perceptron (NIPS 2006; the slides)",
    "gu2013": "Gu, Aggarwal, Liu & Han, Selective sampling on graphs for classification (KDD 2013)",
    "yang2016": "Yang, Zhao, Hai, Liu, Hoi & Li, Efficient multi-class selective sampling on graphs (UAI 2016)",
    "gaertner2005": "Gärtner, Le, Burton, Smola & Vishwanathan, Large-scale multiclass transduction (NIPS 2005)",
    "zhang2006": "Zhang & Lee, Hyperparameter learning for graph based semi-supervised learning (NIPS 2006)",
}


def _claims_by_key(sc, notes):
    """Per paper, one line per claim (note key): ``(statements, results)``, the text and the verdicts."""
    text = dict(zip(notes.note, notes.text, strict=True))
    c = sc[sc.published.isna() & sc.quantity.isin(["claim", "time"])]
    statements, results = {}, {}
    for (paper, key), g in c.groupby(["paper", "note"], sort=False):
        statements.setdefault(paper, []).append(_text("report.statement", note=key, text=text.get(key, "")))
        where = [_text("report.result.where", dict(has_ours=pd.notna(r.ours)), dataset=r.dataset,
                       verdict=r.verdict, ours=r.ours) for r in g.itertuples()]  # fmt: skip
        results.setdefault(paper, []).append(_text("report.result", note=key, where=where))
    return statements, results


def _published_items(sc):
    """Per paper: how many published numbers of each kind, and how many could be compared (a time measured on
    the authors' code is not compared)."""
    own = conclusions._own(sc)
    nums = own[own.quantity.isin(["error", "queried", "time", "error@budget"]) & own.published.notna()]
    lines = {}
    for paper, g in nums.groupby("paper", sort=False):
        lines[paper] = [
            _text("report.items", dict(has_nc=nc > 0), n=len(q), kind=kind, nc=nc,
                  compared=int((~q.verdict.isin(["not available", "not comparable"])).sum()))
            for kind, q in g.groupby("quantity", sort=False)
            for nc in [int((q.verdict == "not comparable").sum())]
        ]  # fmt: skip
    return lines


def _verdicts(rows):
    """'holds on 3 of 3' / 'fails on 4 of 4' / 'holds on 1, fails on 2 of 3': the decided claim rows."""
    d = rows[rows.verdict.isin(["holds", "fails"])]
    counts = [_text("report.decided.count", verdict=v, n=(d.verdict == v).sum()) for v in ("holds", "fails")
              if (d.verdict == v).any()]  # fmt: skip
    return _text("report.decided", dict(has_decided=len(d) > 0), counts=counts, n=len(d))


def _gpa_range():
    mc = tables.read_table("90_yang2016_gpa_multiclass")
    gp = tables.read_table("30_yang2016_gpa")
    tried = pd.concat([num(gp[c]) for c in gp.columns if c.startswith("ours GPA")] + [num(mc.ours)])
    pub = num(gp["published GPA"]).dropna()
    major = num(gp["majority-class error"])[num(gp["published GPA"]).notna()]
    return tried.min(), tried.max(), pub.min(), pub.max(), major.min(), major.max()


def _gpa_between():
    """Per data set with a published GPA: does it lie above every error we ran and below the majority class's?"""
    mc = tables.read_table("90_yang2016_gpa_multiclass")
    gp = tables.read_table("30_yang2016_gpa")
    cols = [c for c in gp.columns if c.startswith("ours GPA")] + ["published GPA", "majority-class error"]
    gp[cols] = gp[cols].apply(num)
    ok = []
    for r in gp[gp["published GPA"].notna()].to_dict("records"):
        ours = [r[c] for c in cols[:-2]] + list(num(mc[mc.dataset.str.lower() == r["dataset"].lower()].ours))
        ok.append(max(ours) < r["published GPA"] < r["majority-class error"])
    return bool(ok) and all(ok)


def _bbq(sc):
    k = sc.set_index(["paper", "dataset", "method", "quantity"])
    q, e = k.loc[("yang2016", "Cora", "BBQ", "queried")], k.loc[("yang2016", "Cora", "BBQ", "error")]
    return q.published, q.ours, e.published, e.ours


def _balance():
    tvi = tables.read_table("42_transduction_vs_induction")
    red = num(tvi["relative reduction"])
    return int(num(tvi["tail bound binds (folds)"]).sum()), int(num(tvi["folds"]).sum()), float(red.median())


def questions(sc, grid) -> list[str]:
    """The questions for the original authors, with the numbers that raise them (``grid``: the readings')."""
    imdb = tables.read_table("00_gu2013_table1").set_index("dataset").loc["IMDB"]
    gu = grid[(grid.paper == "gu2013") & (grid.role == "a-priori")].iloc[0]
    gh = grid[(grid.paper == "gu2013") & (grid.role == "headline")].iloc[0]
    lo, hi, plo, phi, mlo, mhi = _gpa_range()
    qp, qo, ep, eo = _bbq(sc)
    binds, folds, med = _balance()
    asked = [
        _text("report.question.imdb", nodes=imdb["nodes (paper)"], links=imdb["links (paper)"],
              classes=imdb["classes (paper)"]),
        _text("report.question.error", head_within=int(gh["reproduced"] + gh["close"]), head_n=int(gh["n"]),
              apriori_within=int(gu["reproduced"] + gu["close"]), apriori_n=int(gu["n"])),
        _text("report.question.gpa", dict(between=_gpa_between()), pub_lo=plo, pub_hi=phi, major_lo=mlo,
              major_hi=mhi, lo=lo, hi=hi),
        _text("report.question.bbq", q_pub=qp, q_ours=qo, e_pub=ep, e_ours=eo),
        _text("report.question.balance", binds=binds, folds=folds, reduction=100 * med),
    ]  # fmt: skip
    return [q.render() for q in asked]


def _easy_hard(sc, tallies):
    t = tallies.set_index("paper")
    own = conclusions._own(sc)
    th = own[own["item"].str.match(r"(Thm|Cor\.) ")]
    t1 = own[(own.paper == "gu2013") & (own["item"] == "Table 1") & (own.verdict != "not available")]
    msg = own[(own.paper == "yang2016") & (own.method == "MSG") & (own.quantity == "error")
              & own.verdict.isin(scorecard.TALLIED)]  # fmt: skip
    gu = t.loc["gu2013"]
    easy = [
        _text("report.easy.graphs", holds=(t1.verdict == "holds").sum(), n=len(t1)),
        _text("report.easy.gu2013", dict(has_apriori=pd.notna(gu["apriori_share"])), within=gu["within"],
              numbers=gu["numbers"], share=gu["apriori_share"]),
        _text("report.easy.msg", within=msg.verdict.isin(["reproduced", "close"]).sum(), n=len(msg)),
        _text("report.easy.theorems", hold=th.verdict.isin(["holds", "vacuous"]).sum(), n=len(th),
              vacuous=(th.verdict == "vacuous").sum()),
    ]  # fmt: skip
    sslgc = own[own.note.isin(["g-time", "g4"])]
    at = own[
        (own.quantity == "error") & own.note.isin(["at-budget", "budget-near"]) & (own.verdict == "differs")
    ]
    at_words = [_text("report.hard.budget.method", method=m, datasets=list(g.dataset))
                for m, g in at.groupby("method", sort=False)]  # fmt: skip
    hard = [
        _text("report.hard.readings"),
        _text("report.hard.budget", dict(has_at=bool(at_words)), at=at_words,
              missed=int(((own.quantity == "queried") & (own.verdict == "differs")).sum())),
        _text("report.hard.time", dict(sslgc_fails=bool((sslgc.verdict == "fails").any())), sslgc=_verdicts(sslgc),
              growth=_verdicts(own[own.note.isin(["g6", "s1", "s2"])])),
        _text("report.hard.missing", n=int(t["not_available"].sum())),
    ]  # fmt: skip
    return easy, hard


def report_markdown(sc, notes, grid, tallies, by_chance) -> str:
    """The report page (Markdown), from the scorecard, its notes, the readings grid, the tallies and chance
    (template ``report`` of :mod:`.scorecard_texts`)."""
    (claims, results), items = _claims_by_key(sc, notes), _published_items(sc)
    easy, hard = _easy_hard(sc, tallies)
    papers = list(dict.fromkeys(sc.paper))
    scope = [_text("report.scope", dict(has_items=p in items, has_claims=p in claims), paper=p,
                   title=TITLES.get(p, p), items=items.get(p, []), claims=claims.get(p, [])) for p in papers]  # fmt: skip
    shown = [_text("report.reading", paper=p, sentence=readings.grid_sentence(grid, p))
             for p in readings.GRID if p in set(sc.paper)]  # fmt: skip
    per_claim = [_text("report.results", dict(has_results=p in results), paper=p, results=results.get(p, []))
                 for p in papers]  # fmt: skip
    show = ["paper", "numbers", "within", *scorecard.TALLIED, "claims", "holds", "conclusion"]
    return _text(
        "report", regenerated=conclusions.regenerated_sentence(sc),
        conclusions=[_text("report.conclusion", text=conclusions.conclusion_text(r, sc)) for _, r in tallies.iterrows()],
        chance=conclusions.chance_sentence(by_chance), rule=scorecard.CONCLUSION_RULE, scope=scope, readings=shown,
        results=per_claim, tallies=tables.render_markdown(tallies[show]),
        easy=[_text("report.bullet", text=x) for x in easy], hard=[_text("report.bullet", text=x) for x in hard],
        questions=[_text("report.numbered", i=i, text=q) for i, q in enumerate(questions(sc, grid), 1)],
    ).render()  # fmt: skip


#: Where notebook 90 writes the page (the book shows it beside the summary notebook).
REPORT = "90_report.md"


def write_report(text: str) -> None:
    """Write the report page to ``figures/90_report.md`` (atomically)."""
    with atomic_write(figures_dir() / REPORT, "w", encoding="utf-8") as fh:
        fh.write(text)
