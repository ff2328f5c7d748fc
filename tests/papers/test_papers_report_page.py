"""The reproduction report page (graphsel_lib.papers.report_page) and CITATION.cff."""

import pytest
import yaml

from graphsel_lib.collection import book, scorecard
from graphsel_lib.papers import conclusions, readings, report_page
from graphsel_lib.papers import scorecard_rows as rows
from graphsel_lib.paths import project_root

ROOT = project_root()


def test_report_has_the_venue_sections_and_the_questions():
    sc, variants, notes = rows.build(20)
    grid = readings.grid_tallies(sc, variants)
    tallies = conclusions.paper_tallies(sc, grid)
    text = report_page.report_markdown(sc, notes, grid, tallies, scorecard.chance(sc))
    sections = ["## Summary", "## 1. Scope", "## 2. Methods and readings", "## 3. Results per claim",
                "## 4. What was easy, what was hard", "## 5. Questions for the original authors"]  # fmt: skip
    assert [text.index(s) for s in sections] == sorted(text.index(s) for s in sections)
    for topic in (
        "The IMDB graph",
        "The error definition",
        "The multiclass GPA",
        "BBQ's κ",
        "The balance interval",
    ):
        assert f"**{topic}**" in text
    for paper in dict.fromkeys(sc.paper):
        assert f"**{paper}: " in text  # its conclusion
    committed = ROOT / "figures" / report_page.REPORT
    if committed.is_file():
        assert committed.read_text(encoding="utf-8") == text  # notebook 90 wrote this very page
    assert book.REPORT_PAGE == report_page.REPORT


def test_citation_cff_is_cff_1_2_with_the_papers():
    path = ROOT / "CITATION.cff"
    if not path.is_file():
        pytest.skip("no CITATION.cff")
    cff = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert cff["cff-version"] == "1.2.0" and {"message", "title", "authors"} <= set(cff)
    assert all("name" in a or "family-names" in a for a in cff["authors"])
    titles = {r["title"] for r in cff["references"]}
    assert "Selective sampling on graphs for classification" in titles and len(titles) == 5


def test_report_words_follow_the_numbers():
    """Regression (issue 33 re-read): "BBQ differs on Cora and PubMed" was typed in; gu2013's headline tally was
    called easy without its chosen-by-agreement reading; the published GPA was said to lie "near" the majority
    class (0.585 against 0.708 on Cora)."""
    sc, variants, notes = rows.build(20)
    grid = readings.grid_tallies(sc, variants)
    tallies = conclusions.paper_tallies(sc, grid)
    text = report_page.report_markdown(sc, notes, grid, tallies, scorecard.chance(sc))
    assert "near the majority-class error" not in text and "a run at d = 10" in text
    assert "a reading chosen because it agrees" in text
    at = sc[(sc.quantity == "error") & (sc.note == "at-budget") & (sc.verdict == "differs")]
    for r in at.itertuples():
        assert r.dataset in text.split("judged at the published count instead, ")[1].split("\n")[0]
    assert "tolerance 50%" not in text and "run but not comparable" in text
