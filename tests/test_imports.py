"""The import graph of ``graphsel_lib``, read from the source with ``ast`` (nothing is imported).

Every ``import`` and ``from … import`` statement counts, relative or absolute,
at module level or inside a function (a lazy import is still an edge). Rules:

(a) no import circle: no strongly connected component of more than one
    module, where a package's ``__init__`` importing its own submodules is
    allowed (a downward edge, left out of the circle search); a submodule
    importing a package ``__init__`` above it (its own package's, or
    ``graphsel_lib/__init__``) is an upward import and fails, except for
    ``graphsel_lib.papers``, content that sits above the package as the
    notebooks do (``graphsel_lib/__init__`` never imports it);
(b) every module sits in one layer of :data:`LAYERS` (the root ``graphsel_lib/__init__``, the
    package's face, excepted) and imports only from its own layer and the layers below it:
    algorithms -> theory -> experiments -> course -> tooling -> papers;
(c) no ``_private`` name (one leading underscore, not a dunder) is imported
    from another subpackage, except from ``graphsel_lib._validation`` and
    ``graphsel_lib._atomic`` (the shared private helpers).

``KNOWN`` lists the violations in the tree today: the test passes with them
and fails on any new one (and on a listed one that is gone, so the list
shrinks as they are fixed).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "graphsel_lib"
LIB = "graphsel_lib"

#: The layers, from the ground up: a module imports only from its own layer and the ones below.
LAYERS = {
    # the algorithms and what they share: graphs, eigenvectors, learners, data
    "algorithms": (
        "graph", "readers", "spectral", "eigensolvers", "blockeig", "knn", "online", "transductive", "active", "datasets",
        "_validation", "_atomic", "paths", "about",
    ),
    # the theorem evaluators, by paper: they run the learners and evaluate the bounds on the runs
    "theory": ("theory",),
    # the experiment protocols over the learners: orders, tuning, evaluation, cross-validation
    "experiments": ("experiments", "partial_labels"),
    # the chapters' content: runners, tables, figures, the atlas, checks, quizzes, exercises
    "course": ("course",),
    # the tooling that runs and renders: runner, book, provenance, tables, scorecard, the labelling
    # panel, and ``bounds`` (deprecated re-export of theory, graph and course, kept for one release)
    "tooling": ("collection", "reproduce", "book", "label", "bounds"),
    # the papers' content: above the whole package, as the notebooks are (it uses the tooling's tables)
    "papers": ("papers",),
}  # fmt: skip
LAYER_OF = {unit: rank for rank, units in enumerate(LAYERS.values()) for unit in units}
LAYER_NAMES = list(LAYERS)
SHARED_PRIVATE = ("graphsel_lib._validation", "graphsel_lib._atomic")

#: Content that sits above the whole package, as the notebooks do: it may import ``graphsel_lib`` itself
#: (``import graphsel_lib as gs``) because nothing below imports it (a circle would still fail).
ABOVE_THE_PACKAGE = ("graphsel_lib.papers",)

# Violations in today's tree (importer, imported module, name), each to be fixed where it lives:
KNOWN = set()


def _module_name(path):
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(ROOT.rglob("*.py")) if "__pycache__" not in p.parts}
PACKAGES = {name for name, p in MODULES.items() if p.name == "__init__.py"}


def _package_of(module):
    """The package whose namespace ``module``'s relative imports start from."""
    return module if module in PACKAGES else module.rpartition(".")[0]


def _imports(module):
    """``(target module, imported name or None, line)`` for every import of ``module`` into ``graphsel_lib``."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"), filename=str(MODULES[module]))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == LIB or alias.name.startswith(LIB + "."):
                    out.append((_deepest_module(alias.name), None, node.lineno))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = _package_of(module).split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if not (source == LIB or source.startswith(LIB + ".")):
                continue
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                if sub in MODULES:  # ``from package import submodule``
                    out.append((sub, None, node.lineno))
                else:
                    out.append((_deepest_module(source), alias.name, node.lineno))
    return out


def _deepest_module(dotted):
    while dotted not in MODULES:
        dotted = dotted.rpartition(".")[0]
    return dotted


EDGES = {m: _imports(m) for m in MODULES}


def _unit(module):
    """The subpackage a module belongs to: ``graphsel_lib.online`` for ``online/**``, else ``graphsel_lib``."""
    parts = module.split(".")
    if len(parts) >= 2 and f"{LIB}.{parts[1]}" in PACKAGES:
        return f"{LIB}.{parts[1]}"
    return LIB


def _layer(module):
    """The rank of ``module``'s layer in :data:`LAYERS`; None for the root ``graphsel_lib``."""
    rel = module.split(".")[1:2]
    return LAYER_OF.get(rel[0]) if rel else None


def _private(name):
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _violations():
    found = {}
    for module, imports in EDGES.items():
        for target, name, line in imports:
            where = f"{MODULES[module].relative_to(ROOT.parent)}:{line}"
            key = (module, target, name)
            # (a) upward: a submodule importing a package __init__ above it
            if target == LIB and module.startswith(ABOVE_THE_PACKAGE):
                pass
            elif (
                target in PACKAGES
                and module != target
                and module.startswith(target + ".")
                and name is not None
            ):
                found[key] = f"{where}: upward import of the package {target} (name {name})"
            elif target in PACKAGES and module != target and module.startswith(target + "."):
                found[key] = f"{where}: upward import of the package {target}"
            # (b) layers
            low, high = _layer(module), _layer(target)
            if low is not None and high is not None and high > low:
                found[key] = (
                    f"{where}: the {LAYER_NAMES[low]} layer imports {target} "
                    f"of the {LAYER_NAMES[high]} layer above it"
                )
            # (c) private names across subpackages
            if target in SHARED_PRIVATE or _unit(module) == _unit(target):
                continue
            hidden = [p for p in target.split(".")[1:] if _private(p)]
            if name is not None and _private(name):
                hidden.append(name)
            if hidden:
                found[key] = f"{where}: private {'.'.join(hidden)} of {target} from another subpackage"
    return found


def _circles():
    """Strongly connected components of more than one module (Tarjan), without package-to-own-submodule edges."""
    graph = {
        m: sorted({t for t, _, _ in imports if t != m and not (m in PACKAGES and t.startswith(m + "."))})
        for m, imports in EDGES.items()
    }
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_reader_sees_the_imports_it_must():
    """Relative, absolute, package-level and function-level imports all resolve (guards the parser itself)."""
    assert len(MODULES) > 50 and f"{LIB}.online.stacked_loop" in MODULES
    online = {t for t, _, _ in EDGES[f"{LIB}.online"]}
    assert f"{LIB}.online.session" in online  # package __init__ -> own submodule
    lazy = {t for t, _, _ in EDGES[f"{LIB}.online.ridge_state"]}
    assert f"{LIB}.online.multiclass_loop" in lazy  # imported inside a function
    source = (ROOT / "online" / "ridge_state.py").read_text().splitlines()
    line = source.index("from ._params import Params") + 1  # the reader reports the import's own line
    assert (f"{LIB}.online._params", "Params", line) in {
        (t, n, line) for t, n, line in EDGES[f"{LIB}.online.ridge_state"]
    }


def test_no_import_circle():
    circles = _circles()
    assert not circles, "import circles:\n" + "\n".join(" <-> ".join(c) for c in circles)


def test_layers_and_private_names():
    found = _violations()
    new = {k: v for k, v in found.items() if k not in KNOWN}
    assert not new, "new import violations (fix them; see the module docstring):\n" + "\n".join(
        sorted(new.values())
    )
    gone = KNOWN - set(found)
    assert not gone, f"fixed violations still listed in KNOWN (remove them): {sorted(gone)}"


@pytest.mark.parametrize(
    "module, target, name",
    [
        (f"{LIB}.online.cmog_msg", f"{LIB}.online", "run"),  # upward
        (f"{LIB}.online.cmog_msg", f"{LIB}", "load_dataset"),  # upward to the root
        (f"{LIB}.spectral", f"{LIB}.collection.tables", "latex_table"),  # layers
        (f"{LIB}.graph", f"{LIB}.experiments", None),  # layers: algorithms -> experiments
        (f"{LIB}.experiments", f"{LIB}.course.atlas", "stream_panel"),  # experiments -> course
        (f"{LIB}.course.atlas", f"{LIB}.collection.tables", "write_table"),  # course -> tooling
        (f"{LIB}.collection.scorecard", f"{LIB}.papers.gu2013", None),  # tooling -> papers
        (f"{LIB}.experiments", f"{LIB}.online._params", "learner_params"),  # a private module of online
        (f"{LIB}.theory.gu2013", f"{LIB}.transductive._common", "one_hot"),
        (f"{LIB}.online.wta", f"{LIB}.theory.trees", "wta_mistake_bound"),  # layers: algorithms -> theory
        (f"{LIB}.theory.trees", f"{LIB}.course.kernel", None),  # layers: theory -> course
        (
            f"{LIB}.knn",
            f"{LIB}.spectral",
            "_private_helper",
        ),  # private name, another subpackage? no: same unit
    ],
)
def test_the_rules_catch_what_they_should(monkeypatch, module, target, name):
    monkeypatch.setitem(EDGES, module, [*EDGES[module], (target, name, 0)])
    found = _violations()
    if module == f"{LIB}.knn":  # knn and spectral are both top-level modules: one subpackage
        assert (module, target, name) not in found
    else:
        assert (module, target, name) in found


def test_every_module_sits_in_one_layer():
    """A new top-level module or subpackage is placed in LAYERS, so the layer rules reach it."""
    units = {m.split(".")[1] for m in MODULES if m != LIB}
    assert not units - set(LAYER_OF), (
        f"modules in no layer (add them to LAYERS): {sorted(units - set(LAYER_OF))}"
    )
    assert not set(LAYER_OF) - units, f"LAYERS names what is gone: {sorted(set(LAYER_OF) - units)}"
    assert len(LAYER_OF) == sum(len(u) for u in LAYERS.values()), "a unit is in two layers"


def test_the_circle_search_finds_a_circle(monkeypatch):
    a, b = f"{LIB}.online.stacked_loop", f"{LIB}.online.perceptron"
    monkeypatch.setitem(EDGES, a, [*EDGES[a], (b, "GPA", 0)])
    assert any(a in c and b in c for c in _circles())


def test_the_package_never_imports_its_papers():
    """papers/ may import graphsel_lib because nothing below it imports papers/ (the package stays below)."""
    for module, imports in EDGES.items():
        if not module.startswith(ABOVE_THE_PACKAGE):
            assert not [t for t, _, _ in imports if t.startswith(ABOVE_THE_PACKAGE)], module
