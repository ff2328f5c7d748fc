"""graphsel_lib.course.prose: the one renderer of the readings, and every template module and reading built on it."""

import ast
import inspect
import textwrap

import pytest

from graphsel_lib.course import prose
from graphsel_lib.course.prose import Reading, Span, render
from graphsel_lib.papers import (
    beyond_texts,
    budget_spread,
    conclusions,
    fastonl,
    gaertner2005,
    readings,
    report_page,
    scaling,
    scaling_million,
    scaling_texts,
    scorecard_rows,
    scorecard_texts,
    transductive_peers,
    yang2016,
    zhang2006,
)
from graphsel_lib.papers.gaertner2005 import texts as gaertner_texts
from graphsel_lib.papers.gu2013 import budget, figure1, figure2, figure3, table_2, texts, timing
from graphsel_lib.papers.yang2016 import texts as yang_texts


def test_values_claims_lists_and_math():
    r = Reading(
        "{n} graph{many?s} ({names*, * and }): {err:.3f}, {fine?within {tol}|off by {err:+.2f}}; $x_{i}$ {s:.1f}",
        dict(n=3, names=["a", "b", "c"], err=0.0123, tol=0.015, s=Span(1.04, 1.96)),
        dict(many=True, fine=True),
    )
    assert r.render() == "3 graphs (a, b and c): 0.012, within 0.015; $x_{i}$ 1.0 to 2.0"
    assert str(r) == r.render() == f"{r}" == r._repr_markdown_()
    items = [Reading("{k}={v:g}", dict(k=k, v=v)) for k, v in (("x", 1.0), ("y", 0.5))]
    assert render("{items*; }", dict(items=items), {}) == "x=1; y=0.5"
    assert render("{xs*, * and }|{ys*, * and }", dict(xs=["a"], ys=[]), {}) == "a|"
    assert render("{s:.2f}", dict(s=Span(0.101, 0.104)), {}) == "0.10"  # one value when both print the same
    assert render("{s:.2f}", dict(s=Span(0.42, 0.59, "–")), {}) == "0.42–0.59"
    assert render("c in {{{c:g*, }}}{ok?, {{x}}|}", dict(c=[0.5, 1.0]), dict(ok=True)) == "c in {0.5, 1}, {x}"


def test_unknown_value_or_claim_names_the_missing_key_and_the_fix():
    with pytest.raises(
        KeyError, match=r"fig9 quotes \{gap\} but has no value 'gap' \(values: err\): pass gap="
    ):
        render("{gap:.4f}", dict(err=1.0), {}, "fig9")
    with pytest.raises(KeyError, match=r"no claim 'below' \(claims: above\): pass below=True/False"):
        render("{below?below|above}", {}, dict(above=True))
    with pytest.raises(TypeError, match="claim 'below' must be a bool"):
        render("{below?below|above}", {}, dict(below=0.3))


def test_unbalanced_braces_are_refused_with_where():
    with pytest.raises(ValueError, match="unclosed"):
        render("error {err:.4f", dict(err=1.0), {})
    with pytest.raises(ValueError, match="a '}' with no '{'"):
        render("error err}", {}, {})


#: each module of reading templates, with what its ``reading`` says of an unknown key
TEXTS = {
    "gu2013": (texts, "no gu2013 reading 'nope'"),
    "yang2016": (yang_texts, "no yang2016 reading 'nope'"),
    "beyond": (beyond_texts, "no reading 'nope' for notebooks 34, 35, 40 and 41"),
    "gaertner2005": (gaertner_texts, "no gaertner2005 reading 'nope'"),
    "scorecard": (scorecard_texts, "no scorecard text 'nope'"),
    "scaling": (scaling_texts, "no notebook 44 reading 'nope'"),
}


@pytest.mark.parametrize(
    "module, key", [(name, key) for name, (mod, _) in TEXTS.items() for key in sorted(mod.TEMPLATES)]
)
def test_every_template_parses(module, key):
    assert prose._fields(TEXTS[module][0].TEMPLATES[key])  # balanced braces, math closed


@pytest.mark.parametrize("module", sorted(TEXTS))
def test_an_unknown_reading_names_the_module(module):
    mod, message = TEXTS[module]
    with pytest.raises(KeyError, match=message):
        mod.reading("nope")


def _prose_assembly(fn, label: str) -> list:
    """``label: f-string`` / ``label: join`` for each place ``fn`` builds text itself."""
    found = []
    for node in ast.walk(ast.parse(textwrap.dedent(inspect.getsource(fn)))):
        if isinstance(node, ast.JoinedStr):
            found.append(f"{label}: f-string")
        elif isinstance(node, ast.Attribute) and node.attr == "join":
            found.append(f"{label}: join")
    return found


def _methods(owners, prefixes, extra=()):
    """``(label, fn)`` for each function of ``owners`` (classes or modules) defined there whose name starts with
    one of ``prefixes`` or is in ``extra``."""
    for owner in owners:
        home = owner.__module__ if isinstance(owner, type) else owner.__name__
        for name, fn in inspect.getmembers(owner, inspect.isfunction):
            if fn.__module__ == home and (name.startswith(prefixes) or name in extra):
                yield f"{getattr(owner, '__name__', owner)}.{name}", fn


def test_gu2013_readings_assemble_no_prose():
    """No reading method of gu2013 writes words: no f-string, no str.join, no string literal but a template key."""
    owners = (table_2.Table2, timing.GpaOffsets, figure1.Fig1, figure2.Fig2, figure3.Fig3, budget)
    prefixes = ("reading", "verdict", "_graph_reading", "_shape_reading")
    found = [
        i for label, fn in _methods(owners, prefixes, ("speed_note",)) for i in _prose_assembly(fn, label)
    ]
    assert not found, found


def test_yang2016_readings_assemble_no_prose():
    """No reading or verdict method of yang2016 (nor the module functions they call) has an f-string or a join."""
    y = yang2016
    owners = (y.table_i.Table1, y.figure1.Fig1, y.figure2.Fig2, y.figure3.Fig3, y.figure2, y.figure3)
    prefixes = ("reading", "verdict", "_fig2_reading", "_fig3_reading")
    found = [i for label, fn in _methods(owners, prefixes) for i in _prose_assembly(fn, label)]
    assert not found, found


tp, fo, g, sc, s = transductive_peers, fastonl, gaertner2005, scaling, scorecard_rows
#: the functions, listed by name, that compute values and claims and leave the words to a template
CONVERTED = {
    # notebooks 34, 35, 40 and 41
    "beyond": [tp.Agreement.reading, tp.Peers.reading_intro, tp.Peers.reading_truncated, tp.Collapse.reading,
               fo.PushVsExact.reading, fo.reading_vs_reference, fo.reading_compare, fo.reading_selective,
               zhang2006.ErrorVsLabels.reading],
    # notebooks 42 and 43 (and the helpers that build their items)
    "gaertner2005": [g.readings.reading_tables, g.readings._verdicts, g.readings._range,
                     g.comparison.reading_assignments, g.comparison.moves, g.comparison.reading_transduction,
                     g.published.published_t1_markdown, g.Scaling.reading],
    # notebook 90: the conclusion, regenerated and chance sentences, the readings grid and tuning-order spread,
    # the verdict page, the report page, and the builders whose notes (cells of figures/90_notes.csv) quote numbers
    "scorecard": [conclusions.conclusion_text, conclusions.regenerated_sentence, conclusions.chance_sentence,
                  s.verdict_paragraph, s.verdict_text, report_page._claims_by_key, report_page._published_items,
                  report_page._verdicts, report_page.questions, report_page._easy_hard,
                  report_page.report_markdown, readings.grid_sentence, readings._counts, budget_spread.sentence,
                  s._time_note, s._error_at_budget, s._collapse_claim, s._gu2013_claims, s._yang2016_claims,
                  s.gaertner2005, s.zhang2006, s.herbster2006],
    # notebook 44
    "scaling": [sc.Embeddings.reading, sc.Approximations.reading, sc.Scaling.reading, sc._flat_or_grows,
                sc.reading_summary, scaling_million.Million.reading],
}  # fmt: skip


@pytest.mark.parametrize("group", sorted(CONVERTED))
def test_converted_readings_assemble_no_prose(group):
    found = [issue for fn in CONVERTED[group] for issue in _prose_assembly(fn, fn.__qualname__)]
    assert not found, found
