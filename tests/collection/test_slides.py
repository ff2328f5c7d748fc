"""Lecture slides from a chapter: the slide-type rule, and a deck that loads nothing from the network."""

import re

import nbformat
import pytest

from graphsel_lib.collection import slides


def _md(text, **meta):
    return nbformat.v4.new_markdown_cell(text, metadata=meta)


def _code(text, outputs=()):
    cell = nbformat.v4.new_code_cell(text)
    cell.outputs = list(outputs)
    return cell


FIGURE = nbformat.v4.new_output("display_data", data={"image/png": "iVBORw0KGgo=", "text/plain": "<Figure>"})
QUIZ = nbformat.v4.new_output("display_data", data={"text/markdown": "**Q1.** Why?", "text/plain": "Q1"})


def _chapter():
    return nbformat.v4.new_notebook(
        cells=[
            _md("# 07 · A chapter\n\nIntro $x$."),  # slide
            _md("**Learning objectives.** After this chapter you can\n\n1. derive"),  # slide
            _code("profile = 'full'"),  # skip
            _md("## 1. A section"),  # slide
            _md("A paragraph with $$a = b$$."),  # subslide
            _md("> **Engineering note.** Ties go to the smallest class."),  # skip
            _code("fig = draw()", [FIGURE]),  # subslide (figure)
            _code("x = 1"),  # skip
            _md("## Self-check quiz"),  # slide
            _code("quiz.show()", [QUIZ]),  # shown on the quiz slide
            _md("## Exercises"),  # slide
            _code("import numpy as np"),  # skip
            _md("### Exercise 1 (concept: why)\n\nSay why."),  # subslide
            _md("*Your answer to exercise 1:* ..."),  # skip
            _md("Own choice", slideshow={"slide_type": "notes"}),  # the cell's own setting wins
        ]
    )


def test_the_rule_gives_each_cell_its_slide_type():
    assert slides.slide_types(_chapter()) == [
        "slide",
        "slide",
        "skip",
        "slide",
        "subslide",
        "skip",
        "subslide",
        "skip",
        "slide",
        "-",
        "slide",
        "skip",
        "subslide",
        "skip",
        "notes",
    ]


def test_a_deck_needs_no_network(tmp_path):
    pytest.importorskip("sphinx_revealjs")
    path = tmp_path / "07_a_chapter.ipynb"
    nbformat.write(_chapter(), path)
    (deck,) = slides.build_slides(
        [path], tmp_path / "slides", reveal_prefix="../revealjs", mathjax_url="../mathjax/tex-svg.js"
    )
    html = deck.read_text(encoding="utf-8")
    assert not re.findall(r'(?:src|href)="(?:https?:)?//', html), "a deck must load nothing from the network"
    assert 'src="../revealjs/dist/reveal.js"' in html and 'src="../mathjax/tex-svg.js"' in html
    assert "fig = draw()" not in html, "a figure's code is hidden on its slide"
    assert "Ties go to the smallest class" not in html, "asides stay in the book"
    revealjs = slides.copy_revealjs(tmp_path / "revealjs")
    assert (revealjs / "dist" / "reveal.js").is_file() and (
        revealjs / "plugin" / "notes" / "notes.js"
    ).is_file()
