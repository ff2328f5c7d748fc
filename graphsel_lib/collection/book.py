"""Render the executed notebooks into a static, offline HTML book: ``python -m graphsel_lib.book``.

::

    python -m graphsel_lib.book [--profile smoke|full] [--root DIR] [--build-dir DIR] [--figures-dir DIR]

The sources in ``notebooks/`` stay without outputs; the book is the reading
view. It is built with Sphinx, myst-nb (notebooks as pages, without executing
them again) and sphinx-book-theme, all from PyPI, and renders math with the
MathJax 3 copy that the ``sphinx-mathjax-offline`` package ships (SVG output, its fonts inside the script), so a build and
a reader need no network at all.

* Chapters come in notebook order, grouped by number (:data:`GROUPS`); each page
  is the executed copy ``build/<profile>/notebooks/NN_*.ipynb`` with a line at its
  top linking to the source notebook and to the executed one. A notebook without
  an executed copy (not run yet, or failed) gets a page with its source and a
  banner saying so.
* Code cells longer than :data:`FOLD_LINES` lines are folded (``hide-input``);
  cells tagged ``remove-input`` (prose rendered from computed values with
  :func:`graphsel_lib.collection.report.md`) show only their output.
* The course pages of ``notebooks/`` (:data:`PAGES`: the course overview, the
  notation, the bibliography) come first, as Markdown pages beside the
  chapters (so a chapter's link ``notation.md`` works in the book as in
  JupyterLab); the figures they show are copied from the figures folder.
* The landing page says what the collection is and how to run it, then shows
  the reproduction verdict written by the summary notebook (``90_verdict.md`` in
  the profile's figures folder, when it exists); the reproduction report it
  writes (``90_report.md``) becomes a page of the Summary group.

Output: ``build/<profile>/book/index.html``; the Sphinx log goes to
``build/<profile>/book.log``. The book is built into a temporary folder and
renamed into place, so a failed build leaves the previous book untouched.
Exit status 0 on success, 1 if Sphinx failed, 2 on a usage error.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

from ..paths import project_root

__all__ = [
    "ASIDE",
    "ASIDES",
    "FOLD_LINES",
    "GROUPS",
    "PAGES",
    "build",
    "fold_aside",
    "main",
    "prepare_notebook",
]

#: Chapter groups: (caption, first notebook number, last notebook number).
GROUPS = [
    ("Theory: graphs, kernels and the learners", 0, 19),
    ("gu2013: selective sampling on graphs", 20, 29),
    ("yang2016: multiclass selective sampling, and beyond", 30, 39),
    ("Offline (transductive) methods and scale", 40, 49),
    ("Practice", 50, 89),
    ("Summary", 90, 99),
]
#: Markdown pages of ``notebooks/`` shown first: the course overview, the instructor guide, the notation,
#: the glossary and the bibliography (the slides page is written by the build).
PAGES = ("README.md", "instructor_guide.md", "notation.md", "glossary.md", "bibliography.md")
#: The reproduction report notebook 90 writes into the figures folder (ReScience C / MLRC shape).
REPORT_PAGE = "90_report.md"
#: Chapters of the course: each gets lecture slides (:mod:`graphsel_lib.collection.slides`).
COURSE_CHAPTERS = range(0, 14)
#: Code cells with more lines than this are folded in the reading view.
FOLD_LINES = 12
_NOTEBOOK_RE = re.compile(r"^(\d+)_.*\.ipynb$")
_PROFILES = ("smoke", "full")


def _mathjax_dir() -> Path:
    """MathJax 3 as shipped by the PyPI package ``sphinx-mathjax-offline`` (its folder name has hyphens)."""
    import importlib.util

    spec = importlib.util.find_spec("sphinx-mathjax-offline")
    locations = list(spec.submodule_search_locations or []) if spec else []
    for loc in locations:
        path = Path(loc) / "static" / "mathjax"
        if (path / "tex-svg.js").is_file():
            return path
    raise RuntimeError("the book needs the package sphinx-mathjax-offline (MathJax without a network)")


def _source(cell) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


#: A Markdown cell that starts with this is an aside (paper forensics, reading choices): a blockquote
#: in JupyterLab, a folded admonition in the book.
ASIDE = "> **Reproduction note.**"
#: The asides a chapter folds away from its main line: paper forensics (a reproduction note) and the
#: engineering that makes numbers repeat (ties, bases, rounding: an engineering note).
ASIDES = (ASIDE, "> **Engineering note.**")


def fold_aside(markdown: str) -> str:
    r"""A Markdown cell starting with one of :data:`ASIDES` as a folded admonition; any other cell unchanged.

    >>> print(fold_aside("> **Reproduction note.** The paper writes $r_t$\n> for our $v_t$."))
    :::{admonition} Reproduction note
    :class: dropdown
    The paper writes $r_t$
    for our $v_t$.
    :::
    >>> print(fold_aside("> **Engineering note.** Ties go to the smallest class."))
    :::{admonition} Engineering note
    :class: dropdown
    Ties go to the smallest class.
    :::
    """
    aside = next((a for a in ASIDES if markdown.startswith(a)), None)
    if aside is None:
        return markdown
    body = [line[2:] if line.startswith("> ") else line.lstrip(">") for line in markdown.splitlines()]
    body[0] = body[0][len(aside) - 2 :].lstrip()
    title = aside[len("> **") : -len(".**")]
    return f":::{{admonition}} {title}\n:class: dropdown\n" + "\n".join(body).strip() + "\n:::"


def prepare_notebook(
    nb: dict, *, name: str, executed: bool, status_note: str | None = None, slides: bool = False
) -> dict:
    """The page version of a notebook: links to its sources, long code folded, banners.

    ``nb`` is a notebook as a dict (nbformat 4); a modified copy is returned.
    """
    nb = json.loads(json.dumps(nb))
    cells = nb.get("cells", [])
    for cell in cells:
        if cell.get("cell_type") == "markdown":
            cell["source"] = fold_aside(_source(cell))
            continue
        if cell.get("cell_type") != "code":
            continue
        tags = cell.setdefault("metadata", {}).setdefault("tags", [])
        if "injected-parameters" in tags and "hide-input" not in tags:
            tags.append("hide-input")
        fold = len(_source(cell).strip().splitlines()) > FOLD_LINES
        if fold and not {"hide-input", "remove-input", "remove-cell", "hide-cell"} & set(tags):
            tags.append("hide-input")
    links = (
        f"*Source notebook:* {{download}}`notebooks/{name}.ipynb <../_notebooks/source/{name}.ipynb>` "
        f"(without outputs; open it in JupyterLab to run it) · "
    )
    if executed:
        links += f"{{download}}`executed copy <../_notebooks/executed/{name}.ipynb>` (this page)"
    else:
        links += "**not executed in this build**: the page shows the source only."
    if slides:
        links += f' · <a href="../_static/slides/{name}.slides.html">lecture slides</a>'
    if status_note:
        links += f"\n\n```{{warning}}\n{status_note}\n```"
    banner = {"cell_type": "markdown", "metadata": {}, "source": links}
    first_md = next((i for i, c in enumerate(cells) if c.get("cell_type") == "markdown"), None)
    cells.insert(0 if first_md is None else first_md + 1, banner)
    return nb


def _landing_page(profile: str, figures_dir: Path, groups: list, pages_present=()) -> str:
    verdict = figures_dir / "90_verdict.md"
    verdict_text = (
        verdict.read_text(encoding="utf-8").strip()
        if verdict.is_file()
        else "*The summary notebook (90) has not run in this build, so there is no verdict yet.*"
    )
    if profile == "smoke":
        verdict_text = (
            "```{warning}\nThis is the **smoke** build: every notebook ran on small data so that the "
            "whole book builds in minutes. Its numbers test the code, not the papers; the full build "
            "(`--profile full`) has the paper-scale numbers.\n```\n\n" + verdict_text
        )
    toc = []
    course = [
        f"chapters/{stem}" for stem in [Path(f).stem for f in PAGES] + ["slides"] if stem in pages_present
    ]
    if course:
        toc.append("```{toctree}\n:caption: The course\n:maxdepth: 1\n\n" + "\n".join(course) + "\n```")
    for caption, pages in groups:
        if pages:
            entries = "\n".join(f"chapters/{p}" for p in pages)
            toc.append(f"```{{toctree}}\n:caption: {caption}\n:maxdepth: 1\n\n{entries}\n```")
    intro = textwrap.dedent(
        """\
        # graphsel: online learning and selective sampling on graphs

        A reproducible notebook collection, backed by a small tested library (`graphsel_lib`), on
        **online learning and selective sampling (online active learning) for node classification
        on graphs**. It teaches the theory step by step (graph Laplacians, the Laplacian kernel,
        mistake and label-complexity bounds), derives every algorithm and checks it numerically,
        reruns the experiments of the source papers that the available data allow, and shows our
        number beside the published one. What can and cannot be regenerated, and each paper's
        conclusion, are below; the reproduction report (scope, methods, results per claim, questions
        for the authors) is a page of the Summary.

        **Run it yourself** (Python 3.11 or newer, from the project folder):

        ```bash
        pip install -e . && python -m graphsel_lib.reproduce --book     # every notebook, then this book
        python -m graphsel_lib.reproduce --profile smoke --book           # a small, fast pass
        ```

        The book opens at `build/<profile>/book/index.html`; the notebooks themselves are in
        `notebooks/` (open them in JupyterLab) and every figure and table in `figures/`.

        ## Reproduction verdict
        """
    )
    return intro + "\n" + verdict_text + "\n\n## Chapters\n\n" + "\n\n".join(toc) + "\n"


_CONF = """\
# Generated by graphsel_lib.collection.book; do not edit (rebuilt on every run).
project = "graphsel"
author = "graphsel developers"
copyright = "graphsel developers"
extensions = ["myst_nb", "sphinx_book_theme"]
html_theme = "sphinx_book_theme"
html_title = "graphsel ({profile} build)"
nb_execution_mode = "off"
nb_render_markdown_format = "myst"
nb_ipywidgets_js = {{}}
nb_merge_streams = True
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
myst_dmath_double_inline = True
mathjax_path = "mathjax/tex-svg.js"
mathjax3_config = {{
    "tex": {{"inlineMath": [["\\\\(", "\\\\)"]], "displayMath": [["\\\\[", "\\\\]"]], "processEscapes": True}},
    "svg": {{"fontCache": "global"}},
    "options": {{"enableMenu": False}},
}}
html_context = {{"default_mode": "light"}}
html_static_path = ["_static"]
html_favicon = "_static/favicon.svg"
html_copy_source = False
html_show_sourcelink = False
html_last_updated_fmt = None
html_theme_options = {{
    "use_download_button": False,
    "use_fullscreen_button": False,
    "use_repository_button": False,
    "home_page_in_toc": True,
    "show_toc_level": 2,
}}
exclude_patterns = ["_build", "_notebooks", "**.ipynb_checkpoints"]
suppress_warnings = ["myst.header", "mystnb.unknown_mime_type", "misc.highlighting_failure"]


def setup(app):
    # MathJax on every page: chapter titles in the navigation hold math even where the page does not
    app.set_html_assets_policy("always")
"""


#: A three-node graph, so that the browser does not ask for a missing /favicon.ico.
_FAVICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">'
    '<path d="M3 12L8 3L13 12Z" fill="none" stroke="#0072B2" stroke-width="1.5"/>'
    '<circle cx="3" cy="12" r="2.2" fill="#D55E00"/><circle cx="8" cy="3" r="2.2" fill="#0072B2"/>'
    '<circle cx="13" cy="12" r="2.2" fill="#0072B2"/></svg>\n'
)


#: A list item opening with an HTML anchor (the bibliography's entries): a MyST target in the book, so
#: that a chapter's link ``bibliography.md#key`` resolves there as it does in JupyterLab.
_ANCHOR = re.compile(r'^- <a id="([A-Za-z0-9_-]+)"></a>', re.M)
_IMAGE = re.compile(r"!\[[^\]]*\]\(\.\./figures/([^)\s]+)\)")


def _copy_pages(notebooks_dir: Path, src: Path, figures_dir: Path) -> list[str]:
    """Copy the course pages into ``src/chapters`` and the figures they show into ``src/figures``; their stems."""
    present = []
    for name in PAGES:
        page = notebooks_dir / name
        if not page.is_file():
            continue
        text = _ANCHOR.sub(r"\n(\1)=\n", page.read_text(encoding="utf-8"))  # HTML anchors -> MyST targets
        (src / "chapters" / name).write_text(text, encoding="utf-8")
        for image in _IMAGE.findall(text):
            if (figures_dir / image).is_file():
                (src / "figures").mkdir(exist_ok=True)
                shutil.copyfile(figures_dir / image, src / "figures" / image)
        present.append(Path(name).stem)
    return present


def _write_slides(decks, src: Path) -> str:
    """Slides of the executed course chapters into ``_static/slides``, reveal.js beside them, and their page."""
    from .slides import build_slides, copy_revealjs

    copy_revealjs(src / "_static" / "revealjs")
    written = build_slides(
        decks, src / "_static" / "slides", reveal_prefix="../revealjs", mathjax_url="../mathjax/tex-svg.js"
    )
    rows = "\n".join(
        f'| {p.name[:2]} | <a href="../_static/slides/{p.name}">{p.name.split(".")[0][3:].replace("_", " ")}</a> |'
        for p in written
    )
    page = (
        "# Lecture slides\n\nOne reveal.js deck per chapter, made from the executed chapter itself: each section "
        "a slide, its paragraphs and figures the slides below it (arrow keys; `s` opens the speaker view, `Esc` "
        "the overview). Asides, code without a figure and the exercises' code are left out; the quiz is one "
        "slide. The decks need no network. A lecturer who wants other slides sets a cell's slide type in "
        "JupyterLab (the property inspector) and rebuilds the book: a cell's own setting wins.\n\n"
        f"| chapter | slides |\n|---|---|\n{rows}\n"
    )
    (src / "chapters" / "slides.md").write_text(page, encoding="utf-8")
    return "slides"


def _read_json(path: Path):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def _failures(profile_build: Path) -> dict:
    summary = profile_build / "reproduce_summary.json"
    if not summary.is_file():
        return {}
    try:
        rows = _read_json(summary).get("notebooks", [])
    except (OSError, ValueError):
        return {}
    return {r["name"]: r for r in rows if r.get("status") == "failed"}


def build(profile: str = "full", *, root=None, build_dir=None, figures_dir=None, quiet=False) -> int:
    """Build ``<build_dir>/<profile>/book/index.html`` from the executed notebooks; return 0 on success."""
    if profile not in _PROFILES:
        raise ValueError(f"profile must be one of {_PROFILES}, got {profile!r}")
    root = Path(root or project_root()).resolve()
    build_dir = Path(build_dir or root / "build").resolve()
    profile_build = build_dir / profile
    if figures_dir is None:
        figures_dir = root / "figures" if profile == "full" else profile_build / "figures"
    figures_dir = Path(figures_dir)
    sources = sorted(p for p in (root / "notebooks").glob("*.ipynb") if _NOTEBOOK_RE.match(p.name))
    if not sources:
        print(f"error: no notebooks NN_*.ipynb in {root / 'notebooks'}", file=sys.stderr)
        return 2
    executed_dir = profile_build / "notebooks"
    failed = _failures(profile_build)

    src = profile_build / "book_src"
    shutil.rmtree(src, ignore_errors=True)
    for sub in ("chapters", "_notebooks/source", "_notebooks/executed", "_static"):
        (src / sub).mkdir(parents=True, exist_ok=True)
    n_executed, decks = 0, []
    groups = [(caption, []) for caption, _, _ in GROUPS]
    for path in sources:
        name, number = path.stem, int(_NOTEBOOK_RE.match(path.name).group(1))
        shutil.copyfile(path, src / "_notebooks/source" / path.name)
        executed = executed_dir / path.name
        note = None
        if name in failed:
            f = failed[name].get("failure") or {}
            note = (
                f"This notebook failed in this build (cell {f.get('cell')}: {f.get('ename')}: "
                f"{f.get('evalue')}); the page shows its source."
            )
        if executed.is_file() and name not in failed:
            nb, ok = _read_json(executed), True
            shutil.copyfile(executed, src / "_notebooks/executed" / path.name)
            n_executed += 1
        else:
            nb, ok = _read_json(path), False
        deck = ok and number in COURSE_CHAPTERS
        if deck:
            decks.append(executed)
        page = prepare_notebook(nb, name=name, executed=ok, status_note=note, slides=deck)
        with open(src / "chapters" / path.name, "w", encoding="utf-8") as fh:
            json.dump(page, fh, indent=1, ensure_ascii=False)
        for (_, first, last), (_, pages) in zip(GROUPS, groups, strict=True):
            if first <= number <= last:
                pages.append(name)
                break
        else:
            groups[-1][1].append(name)
    report = figures_dir / REPORT_PAGE
    if report.is_file():  # the reproduction report notebook 90 writes: a page beside the summary notebook
        shutil.copyfile(report, src / "chapters" / "reproduction_report.md")
        groups[-1][1].append("reproduction_report")
    present = _copy_pages(root / "notebooks", src, figures_dir)
    if decks:
        present.append(_write_slides(decks, src))
    (src / "index.md").write_text(_landing_page(profile, figures_dir, groups, present), encoding="utf-8")
    (src / "conf.py").write_text(_CONF.format(profile=profile), encoding="utf-8")
    shutil.copytree(_mathjax_dir(), src / "_static" / "mathjax")
    (src / "_static" / "favicon.svg").write_text(_FAVICON, encoding="utf-8")

    out = profile_build / "book"
    tmp = profile_build / ".book.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    log = profile_build / "book.log"
    cmd = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-E", str(src), str(tmp)]
    env = {**os.environ, "SOURCE_DATE_EPOCH": os.environ.get("SOURCE_DATE_EPOCH", "0")}
    if not quiet:
        print(f"book: {len(sources)} notebooks ({n_executed} executed) -> {out / 'index.html'}", flush=True)
    with open(log, "w", encoding="utf-8") as fh:
        proc = subprocess.run(cmd, stdout=fh, stderr=subprocess.STDOUT, env=env, check=False)
    if proc.returncode != 0 or not (tmp / "index.html").is_file():
        print(f"error: the book failed to build (sphinx exit {proc.returncode}); see {log}", file=sys.stderr)
        shutil.rmtree(tmp, ignore_errors=True)
        return 1
    shutil.rmtree(out, ignore_errors=True)
    os.replace(tmp, out)
    if not quiet:
        warnings = sum(1 for line in log.read_text(encoding="utf-8").splitlines() if "WARNING" in line)
        print(f"book: built {out / 'index.html'} ({warnings} Sphinx warning(s), log {log})", flush=True)
    return 0


def main(argv=None) -> int:
    """Command-line entry point."""
    p = argparse.ArgumentParser(
        prog="python -m graphsel_lib.book",
        description="Render already-executed notebooks (build/PROFILE/notebooks) into a static HTML book.",
    )
    p.add_argument("--profile", choices=_PROFILES, default="full")
    p.add_argument("--root", type=Path, default=None, help="project root (default: this checkout)")
    p.add_argument("--build-dir", type=Path, default=None, help="default ROOT/build")
    p.add_argument(
        "--figures-dir", type=Path, default=None, help="default ROOT/figures or BUILD/smoke/figures"
    )
    args = p.parse_args(argv)
    return build(args.profile, root=args.root, build_dir=args.build_dir, figures_dir=args.figures_dir)


if __name__ == "__main__":
    sys.exit(main())
