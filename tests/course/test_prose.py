"""graphsel_lib.course.prose: the one renderer of the readings, and the gu2013 and yang2016 readings built on it."""

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
    with pytest.raises(KeyError, match="no gu2013 reading 'nope'"):
        texts.reading("nope")


def test_unbalanced_braces_are_refused_with_where():
    with pytest.raises(ValueError, match="unclosed"):
        render("error {err:.4f", dict(err=1.0), {})
    with pytest.raises(ValueError, match="a '}' with no '{'"):
        render("error err}", {}, {})


@pytest.mark.parametrize("key", sorted(texts.TEMPLATES))
def test_every_gu2013_template_parses(key):
    assert prose._fields(texts.TEMPLATES[key])  # balanced braces, math closed


def test_gu2013_readings_assemble_no_prose():
    """No reading method of gu2013 writes words: no f-string, no str.join, no string literal but a template key."""
    found = []
    for cls in (table_2.Table2, timing.GpaOffsets, figure1.Fig1, figure2.Fig2, figure3.Fig3, budget):
        for name, fn in inspect.getmembers(cls, inspect.isfunction):
            home = cls.__module__ if isinstance(cls, type) else cls.__name__
            if fn.__module__ != home or not (
                name.startswith(("reading", "verdict", "_graph_reading", "_shape_reading"))
                or name == "speed_note"
            ):
                continue
            found += _prose_assembly(fn, f"{getattr(cls, '__name__', cls)}.{name}")
    assert not found, found


def _prose_assembly(fn, label: str) -> list:
    """``label: f-string`` / ``label: join`` for each place ``fn`` builds text itself."""
    found = []
    for node in ast.walk(ast.parse(textwrap.dedent(inspect.getsource(fn)))):
        if isinstance(node, ast.JoinedStr):
            found.append(f"{label}: f-string")
        elif isinstance(node, ast.Attribute) and node.attr == "join":
            found.append(f"{label}: join")
    return found


@pytest.mark.parametrize("key", sorted(beyond_texts.TEMPLATES))
def test_every_beyond_template_parses(key):
    assert prose._fields(beyond_texts.TEMPLATES[key])


def test_beyond_readings_assemble_no_prose():
    """Notebooks 34, 35, 40 and 41: the reading methods of transductive_peers, fastonl and zhang2006 compute
    values, not words."""
    tp, fo = transductive_peers, fastonl
    converted = [tp.Agreement.reading, tp.Peers.reading_intro, tp.Peers.reading_truncated, tp.Collapse.reading,
                 fo.PushVsExact.reading, fo.reading_vs_reference, fo.reading_compare, fo.reading_selective,
                 zhang2006.ErrorVsLabels.reading]  # fmt: skip
    found = [issue for fn in converted for issue in _prose_assembly(fn, fn.__qualname__)]
    assert not found, found
    with pytest.raises(KeyError, match="no reading 'nope' for notebooks 34, 35, 40 and 41"):
        beyond_texts.reading("nope")


@pytest.mark.parametrize("key", sorted(yang_texts.TEMPLATES))
def test_every_yang2016_template_parses(key):
    assert prose._fields(yang_texts.TEMPLATES[key])  # balanced braces, math closed


def test_yang2016_readings_assemble_no_prose():
    """No reading or verdict method of yang2016 (nor the module functions they call) has an f-string or a join."""
    y = yang2016
    found = []
    for owner in (y.table_i.Table1, y.figure1.Fig1, y.figure2.Fig2, y.figure3.Fig3, y.figure2, y.figure3):
        home = owner.__module__ if isinstance(owner, type) else owner.__name__
        for name, fn in inspect.getmembers(owner, inspect.isfunction):
            if fn.__module__ != home or not name.startswith(
                ("reading", "verdict", "_fig2_reading", "_fig3_reading")
            ):
                continue
            for node in ast.walk(ast.parse(textwrap.dedent(inspect.getsource(fn)))):
                if isinstance(node, ast.JoinedStr):
                    found.append(f"{getattr(owner, '__name__', owner)}.{name}: f-string")
                elif isinstance(node, ast.Attribute) and node.attr == "join":
                    found.append(f"{getattr(owner, '__name__', owner)}.{name}: join")
    assert not found, found
    with pytest.raises(KeyError, match="no yang2016 reading 'nope'"):
        yang_texts.reading("nope")


@pytest.mark.parametrize("key", sorted(gaertner_texts.TEMPLATES))
def test_every_gaertner2005_template_parses(key):
    assert prose._fields(gaertner_texts.TEMPLATES[key])


def test_gaertner2005_readings_assemble_no_prose():
    """Notebooks 42 and 43: the reading functions of gaertner2005 (and the helpers that build their items)
    compute values and claims, not words."""
    g = gaertner2005
    converted = [g.readings.reading_tables, g.readings._verdicts, g.readings._range, g.comparison.reading_assignments,
                 g.comparison.moves, g.comparison.reading_transduction, g.published.published_t1_markdown,
                 g.Scaling.reading]  # fmt: skip
    found = [issue for fn in converted for issue in _prose_assembly(fn, fn.__qualname__)]
    assert not found, found
    with pytest.raises(KeyError, match="no gaertner2005 reading 'nope'"):
        gaertner_texts.reading("nope")


@pytest.mark.parametrize("key", sorted(scorecard_texts.TEMPLATES))
def test_every_scorecard_template_parses(key):
    assert prose._fields(scorecard_texts.TEMPLATES[key])


def test_scorecard_words_assemble_no_prose():
    """Notebook 90: the conclusion, regenerated and chance sentences, the readings grid and tuning-order spread,
    the verdict page and the report page compute values, not words."""
    rp = report_page
    converted = [conclusions.conclusion_text, conclusions.regenerated_sentence, conclusions.chance_sentence,
                 scorecard_rows.verdict_paragraph, scorecard_rows.verdict_text, rp._claims_by_key,
                 rp._published_items, rp._verdicts, rp.questions, rp._easy_hard, rp.report_markdown,
                 readings.grid_sentence, readings._counts, budget_spread.sentence]  # fmt: skip
    s = scorecard_rows  # the builders whose notes (cells of figures/90_notes.csv) quote numbers
    converted += [s._time_note, s._error_at_budget, s._collapse_claim, s._gu2013_claims, s._yang2016_claims,
                  s.gaertner2005, s.zhang2006, s.herbster2006]  # fmt: skip
    found = [issue for fn in converted for issue in _prose_assembly(fn, fn.__qualname__)]
    assert not found, found
    with pytest.raises(KeyError, match="no scorecard text 'nope'"):
        scorecard_texts.reading("nope")


@pytest.mark.parametrize("key", sorted(scaling_texts.TEMPLATES))
def test_every_scaling_template_parses(key):
    assert prose._fields(scaling_texts.TEMPLATES[key])


def test_scaling_readings_assemble_no_prose():
    """Notebook 44: the reading methods of scaling compute values, not words."""
    sc = scaling
    converted = [sc.Embeddings.reading, sc.Approximations.reading, sc.Scaling.reading, sc._flat_or_grows,
                 sc.reading_summary, scaling_million.Million.reading]  # fmt: skip
    found = [issue for fn in converted for issue in _prose_assembly(fn, fn.__qualname__)]
    assert not found, found
    with pytest.raises(KeyError, match="no notebook 44 reading 'nope'"):
        scaling_texts.reading("nope")
