"""graphsel_lib.course.prose: the one renderer of the readings, and the gu2013 readings built on it."""

import ast
import inspect
import textwrap

import pytest

from graphsel_lib.course import prose
from graphsel_lib.course.prose import Reading, Span, render
from graphsel_lib.papers.gu2013 import budget, figure1, figure2, figure3, table_2, texts, timing


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
            for node in ast.walk(ast.parse(textwrap.dedent(inspect.getsource(fn)))):
                if isinstance(node, ast.JoinedStr):
                    found.append(f"{getattr(cls, '__name__', cls)}.{name}: f-string")
                elif isinstance(node, ast.Attribute) and node.attr == "join":
                    found.append(f"{getattr(cls, '__name__', cls)}.{name}: join")
    assert not found, found
