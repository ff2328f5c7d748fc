"""The library's modules stay small, and the names the notebooks call stay where they call them.

A module split into a package re-exports what its callers use, so
``from graphsel_lib.papers import gu2013 as gu; gu.table2(...)`` keeps working: the notebooks'
(and solutions') uses are read from their code cells with a regex, so a name that disappears fails
here, not in a notebook run.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LIB = ROOT / "graphsel_lib"
MAX_LINES = 1_000


def _long_modules(lib: Path = LIB):
    out = {}
    for path in sorted(lib.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MAX_LINES:
            out[path.relative_to(lib.parent).as_posix()] = n
    return out


def test_no_library_module_over_a_thousand_lines():
    long = _long_modules()
    assert not long, f"modules over {MAX_LINES} lines (split them into a package): {long}"


def test_the_line_count_sees_a_long_module(tmp_path):
    (tmp_path / "lib" / "sub").mkdir(parents=True)
    (tmp_path / "lib" / "sub" / "long.py").write_text("x = 1\n" * (MAX_LINES + 1))
    (tmp_path / "lib" / "short.py").write_text("x = 1\n" * MAX_LINES)
    assert _long_modules(tmp_path / "lib") == {"lib/sub/long.py": MAX_LINES + 1}


ALGORITHMS = ("graph", "spectral", "online", "transductive", "active", "datasets", "theory")
_FROM = re.compile(r"^\s*from graphsel_lib(\.papers)? import (\w+)(?: as (\w+))?\s*$", re.M)
_GS = re.compile(r"^\s*import graphsel_lib as (\w+)\s*$", re.M)


def _code(path: Path) -> str:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")


def _notebook_uses():
    """``(notebook, module, attribute)`` for each ``alias.attribute`` on a library module."""
    out = set()
    notebooks = [*ROOT.glob("notebooks/*.ipynb"), *ROOT.glob("notebooks/solutions/*.ipynb")]
    for path in sorted(notebooks):
        code = _code(path)
        aliases = {}
        for papers, module, alias in _FROM.findall(code):
            dotted = f"graphsel_lib{papers}.{module}"
            if importlib.util.find_spec(dotted) is not None:
                aliases[alias or module] = dotted
        for gs in _GS.findall(code):
            for module in ALGORITHMS:
                aliases[f"{gs}.{module}"] = f"graphsel_lib.{module}"
        for alias, dotted in aliases.items():
            for name in re.findall(rf"(?<![\w.]){re.escape(alias)}\.(\w+)", code):
                out.add((path.name, dotted, name))
    return sorted(out)


USES = _notebook_uses()


def test_the_notebook_uses_are_read():
    modules = {m for _, m, _ in USES}
    papers = {f"graphsel_lib.papers.{p}" for p in ("gu2013", "yang2016", "gaertner2005")}
    assert papers | {"graphsel_lib.graph"} <= modules
    assert ("20_gu2013_table2.ipynb", "graphsel_lib.papers.gu2013", "protocol") in USES


@pytest.mark.parametrize("module", sorted({m for _, m, _ in USES}))
def test_every_name_a_notebook_uses_exists(module):
    mod = importlib.import_module(module)
    missing = sorted({(nb, name) for nb, m, name in USES if m == module and not hasattr(mod, name)})
    assert not missing, f"{module} lacks names the notebooks use: {missing}"


#: The modules split into packages: each re-exports every name of its ``__all__``.
SPLIT = (
    "graphsel_lib.graph",
    "graphsel_lib.papers.gaertner2005",
    "graphsel_lib.papers.gu2013",
    "graphsel_lib.papers.yang2016",
)


@pytest.mark.parametrize("module", SPLIT)
def test_a_split_package_has_every_name_of_its_all(module):
    mod = importlib.import_module(module)
    assert not [name for name in mod.__all__ if not hasattr(mod, name)]


def test_tests_mirror_the_package():
    """Each folder of tests/ is named after a package of graphsel_lib, and holds that package's tests."""
    packages = {p.parent.name for p in (ROOT / "graphsel_lib").glob("*/__init__.py")}
    folders = {p.name for p in (ROOT / "tests").iterdir() if p.is_dir() and not p.name.startswith((".", "_"))}
    assert folders and folders <= packages, sorted(folders - packages)
