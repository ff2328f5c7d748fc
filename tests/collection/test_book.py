"""The HTML book, read in a real browser with no network.

The smoke pipeline's executed notebooks (the session fixture ``smoke_run``) are
rendered with :func:`graphsel_lib.collection.book.build`, served on 127.0.0.1 and opened
in headless Chromium (Debian's ``chromium``, driven by playwright; no browser is
downloaded). Every request that leaves 127.0.0.1 is blocked and counted as a
failure. On every page: math rendered (no raw ``$...$`` or ``\\(...\\)`` left
in the text), every image loaded, no console error, no failed request; every
chapter's lecture slides start (reveal.js) with their formulas rendered.

Without a Chromium the test is skipped, unless ``GRAPHSEL_REQUIRE_BROWSER=1``
(set by ``.ci/run``), where it fails instead.
"""

import html as htmllib
import os
import re

import pytest
from book_check import check_book, find_chromium

from graphsel_lib.collection import book
from graphsel_lib.paths import project_root

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

NOTEBOOKS = sorted((project_root() / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def _chromium():
    found = find_chromium()
    if found:
        return found
    if os.environ.get("GRAPHSEL_REQUIRE_BROWSER") == "1":
        pytest.fail("no Chromium found (install Debian's chromium or set GRAPHSEL_CHROMIUM)")
    pytest.skip("no Chromium: install Debian's chromium to run the browser test")


@pytest.fixture(scope="module")
def smoke_book(smoke_run):
    build, figures, status, _ = smoke_run
    assert status == 0, "the smoke pipeline failed; the book would show failed notebooks"
    assert book.build("smoke", root=project_root(), build_dir=build, figures_dir=figures, quiet=True) == 0
    out = build / "smoke" / "book"
    log = (build / "smoke" / "book.log").read_text(encoding="utf-8")
    return out, log


def test_book_builds_without_errors(smoke_book):
    out, log = smoke_book
    assert (out / "index.html").is_file()
    bad = [line for line in log.splitlines() if "ERROR" in line or "CRITICAL" in line]
    assert not bad, "\n".join(bad)
    for nb in NOTEBOOKS:
        assert (out / "chapters" / f"{nb.stem}.html").is_file(), f"no page for {nb.name}"


def test_book_in_a_browser_offline(smoke_book):
    pytest.importorskip("playwright.sync_api")
    executable = _chromium()
    out, _ = smoke_book
    result = check_book(out, screenshot_dir=out.parent, executable=executable)
    pages = [
        p.rsplit(".", 1)[0] for p in book.PAGES if (project_root() / "notebooks" / p).is_file()
    ]  # course pages
    # notebook 90 writes the reproduction report, a page of its own beside the summary notebook
    extra = ["slides", "reproduction_report"]
    expected = sorted(f"chapters/{name}.html" for name in [nb.stem for nb in NOTEBOOKS] + pages + extra)
    assert result["chapters"] == expected, "the index must link every notebook's page and the course pages"
    course = [nb.stem for nb in NOTEBOOKS if int(nb.name[:2]) in book.COURSE_CHAPTERS]
    assert result["decks"] == [f"../_static/slides/{name}.slides.html" for name in course], (
        "a deck per chapter"
    )
    assert not result["blocked"], f"the book asked the network for: {result['blocked'][:10]}"
    assert result["n_math"] > 100, "the notebooks hold hundreds of formulas: MathJax did not find them"
    problems = result["problems"]
    assert not problems, "\n".join(problems[:40]) + (
        f"\n... and {len(problems) - 40} more" if len(problems) > 40 else ""
    )


def test_landing_page_opens_with_the_verdict(smoke_book):
    out, _ = smoke_book
    html = (out / "index.html").read_text(encoding="utf-8")
    text = htmllib.unescape(re.sub(r"<[^>]+>", "", html))  # code blocks are split into highlighted spans
    assert text.index("Reproduction verdict") < text.index("Chapters")
    assert "python -m graphsel_lib.reproduce" in text


def test_prepare_notebook_folds_long_code_and_links_sources():
    long_code = "\n".join(f"x{i} = {i}" for i in range(book.FOLD_LINES + 1))
    nb = {
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": "# Title"},
            {"cell_type": "code", "metadata": {"tags": ["parameters"]}, "source": "seed = 0", "outputs": []},
            {"cell_type": "code", "metadata": {}, "source": long_code, "outputs": []},
            {"cell_type": "code", "metadata": {"tags": ["remove-input"]}, "source": long_code, "outputs": []},
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    page = book.prepare_notebook(nb, name="07_x", executed=True)
    cells = page["cells"]
    assert cells[0]["source"] == "# Title" and "notebooks/07_x.ipynb" in cells[1]["source"]
    assert "executed copy" in cells[1]["source"]
    assert cells[2]["metadata"]["tags"] == ["parameters"]  # short: shown
    assert cells[3]["metadata"]["tags"] == ["hide-input"]  # long: folded
    assert cells[4]["metadata"]["tags"] == ["remove-input"]  # prose from values: output only
    assert nb["cells"][2]["metadata"].get("tags") is None  # the input is not modified
    assert "lecture slides" not in cells[1]["source"]
    with_deck = book.prepare_notebook(nb, name="07_x", executed=True, slides=True)["cells"][1]["source"]
    assert '<a href="../_static/slides/07_x.slides.html">lecture slides</a>' in with_deck
    page = book.prepare_notebook(nb, name="07_x", executed=False, status_note="failed at cell 3")
    assert (
        "not executed in this build" in page["cells"][1]["source"]
        and "failed at cell 3" in page["cells"][1]["source"]
    )
