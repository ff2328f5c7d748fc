"""The collection's tooling: what turns the algorithms into notebooks, figures, a scorecard and a book.

``reproduce`` (the papermill runner), ``book`` (the static HTML book), ``provenance`` (which run made
which figure), ``compare`` (a run's tables against the committed ones), ``scorecard`` (the verdict
rules), ``tables`` (CSV + Markdown tables in the figures folder), ``plotting`` (the one module that
imports matplotlib), ``report`` (Markdown output in a kernel), ``explore`` (ipywidgets explorers) and
``course`` (the course's plan and chapter map). The algorithm packages (``graph``, ``spectral``,
``online``, ``transductive``, ``active``, ...) never import this package; the reproduction content
(``graphsel_lib.papers``) and the notebooks do.

``python -m graphsel_lib.reproduce`` and ``python -m graphsel_lib.book`` run the two commands here.
"""
