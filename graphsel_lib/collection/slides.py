"""Lecture slides from the executed chapters: reveal.js, built offline beside the book.

A chapter becomes a slide deck by a rule on its cells (a cell's own ``slideshow`` metadata, set
in JupyterLab's property inspector, always wins):

* the title, each ``##`` section and the header (objectives) open a slide; each ``###``
  heading and every further Markdown cell of the main line a sub-slide (reveal.js's vertical
  slides: a section reads top to bottom);
* asides (reproduction and engineering notes) are left out, as are code cells without a
  figure; a code cell that draws a figure shows the figure, not the code;
* the quiz is one slide with its questions (answers folded); of the exercises only the
  statements are kept, one sub-slide each (no stubs, no checks).

:func:`build_slides` writes ``NN_name.slides.html`` for each executed chapter with nbconvert's
reveal.js exporter, a template that loads nothing from the network: reveal.js from the copy the
``sphinx-revealjs`` package ships and MathJax 3 from ``sphinx-mathjax-offline`` (both on PyPI).
The book copies both into its ``_static`` folder and links each deck from its chapter.
"""

from __future__ import annotations

import copy
import importlib.util
import re
import shutil
from pathlib import Path

__all__ = ["build_slides", "revealjs_dir", "slide_types"]

_SLIDE_TEMPLATE = r"""{%- extends 'index.html.j2' -%}
{%- block html_head_js -%}{%- endblock html_head_js -%}
{%- block jupyter_widgets -%}{%- endblock jupyter_widgets -%}
{%- block html_head_js_mathjax -%}
<script>
window.MathJax = {
  tex: {inlineMath: [["$", "$"], ["\\(", "\\)"]], displayMath: [["$$", "$$"], ["\\[", "\\]"]],
        processEscapes: true},
  svg: {fontCache: "global"},
  options: {enableMenu: false}
};
</script>
<script src="{{ resources.mathjax_url }}"></script>
{%- endblock html_head_js_mathjax -%}
{%- block footer_js -%}
<script src="{{ resources.reveal.url_prefix }}/dist/reveal.js"></script>
<script src="{{ resources.reveal.url_prefix }}/plugin/notes/notes.js"></script>
<script>
Reveal.initialize({controls: true, progress: true, history: true, slideNumber: true,
                   transition: "none", plugins: [RevealNotes], width: 1100, height: 760});
Reveal.on("slidechanged", function () {
  if (window.MathJax && MathJax.typesetPromise) { MathJax.typesetPromise([Reveal.getCurrentSlide()]); }
});
</script>
{%- endblock footer_js -%}
"""

_ASIDES = ("> **Reproduction note.**", "> **Engineering note.**")


def revealjs_dir() -> Path:
    """reveal.js (``dist/`` and ``plugin/``) as shipped by the PyPI package ``sphinx-revealjs``."""
    spec = importlib.util.find_spec("sphinx_revealjs")
    for loc in list(spec.submodule_search_locations or []) if spec else []:
        path = Path(loc) / "_static" / "revealjs"
        if (path / "dist" / "reveal.js").is_file():
            return path
    raise RuntimeError("the slides need the package sphinx-revealjs (reveal.js without a network)")


def _source(cell) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _has_figure(cell) -> bool:
    return any(
        "image/png" in o.get("data", {}) or "image/svg+xml" in o.get("data", {})
        for o in cell.get("outputs", [])
    )


def _has_markdown_output(cell) -> bool:
    return any("text/markdown" in o.get("data", {}) for o in cell.get("outputs", []))


def slide_types(nb: dict) -> list[str]:
    """The reveal.js slide type of every cell of the chapter ``nb`` by the rule of the module docstring."""
    out, section = [], ""
    for cell in nb.get("cells", []):
        own = cell.get("metadata", {}).get("slideshow", {}).get("slide_type")
        src = _source(cell).lstrip()
        kind = cell.get("cell_type")
        if kind == "markdown" and src.startswith("## "):
            section = src.splitlines()[0][3:].strip().lower()
        if own:
            out.append(own)
        elif kind == "markdown":
            if src.startswith(_ASIDES) or not src:
                out.append("skip")
            elif src.startswith(("# ", "## ")) or "**Learning objectives.**" in src:
                out.append("slide")
            elif section.startswith("exercises"):
                out.append("subslide" if src.startswith("### Exercise") else "skip")
            else:
                out.append("subslide")
        elif kind == "code" and section.startswith("self-check quiz") and _has_markdown_output(cell):
            out.append("-")
        elif kind == "code" and _has_figure(cell) and not section.startswith("exercises"):
            out.append("subslide")
        else:
            out.append("skip")
    return out


def _deck(nb: dict) -> dict:
    """A copy of ``nb`` with slide types set and the code of the shown cells hidden."""
    nb = copy.deepcopy(nb)
    for cell, kind in zip(nb.get("cells", []), slide_types(nb), strict=True):
        cell.setdefault("metadata", {})["slideshow"] = {"slide_type": kind}
        if cell.get("cell_type") == "code":
            cell["metadata"]["tags"] = [*cell["metadata"].get("tags", []), "remove_input"]
            cell["outputs"] = [o for o in cell.get("outputs", []) if o.get("output_type") != "stream"]
    return nb


def build_slides(executed_notebooks, out_dir, *, reveal_prefix: str, mathjax_url: str) -> list[Path]:
    """Write ``out_dir/NN_name.slides.html`` for every executed chapter notebook (paths) given.

    ``reveal_prefix`` and ``mathjax_url`` are the URLs (relative to ``out_dir``) of the reveal.js folder
    and of MathJax's ``tex-svg.js``.
    """
    import jinja2
    import nbformat
    from nbconvert import SlidesExporter
    from nbconvert.preprocessors import TagRemovePreprocessor
    from traitlets.config import Config

    config = Config()
    config.SlidesExporter.reveal_url_prefix = reveal_prefix
    config.SlidesExporter.reveal_theme = "white"
    config.SlidesExporter.mathjax_url = mathjax_url
    config.TagRemovePreprocessor.remove_input_tags = {"remove_input"}
    config.TagRemovePreprocessor.enabled = True
    exporter = SlidesExporter(
        config=config,
        extra_loaders=[jinja2.DictLoader({"graphsel_slides.html.j2": _SLIDE_TEMPLATE})],
        template_file="graphsel_slides.html.j2",
    )
    exporter.register_preprocessor(TagRemovePreprocessor(config=config), enabled=True)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for path in executed_notebooks:
        path = Path(path)
        nb = nbformat.from_dict(_deck(nbformat.read(path, as_version=4)))
        resources = {"metadata": {"name": re.sub(r"^\d+_", "", path.stem).replace("_", " ")}}
        body, _ = exporter.from_notebook_node(nb, resources=resources)
        target = out_dir / f"{path.stem}.slides.html"
        target.write_text(body, encoding="utf-8")
        written.append(target)
    return written


def copy_revealjs(target: Path) -> Path:
    """Copy reveal.js's ``dist`` and the notes plugin to ``target`` (what the decks load)."""
    source = revealjs_dir()
    shutil.copytree(source / "dist", target / "dist", dirs_exist_ok=True)
    shutil.copytree(source / "plugin" / "notes", target / "plugin" / "notes", dirs_exist_ok=True)
    return target
