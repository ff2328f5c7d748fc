"""Every notebook of the project follows the house rules (parameters cell, no outputs, versions cell).

Stored without outputs or execution counts; the first code cell is tagged
``parameters`` and holds plain constant assignments including
``profile = "full"`` and ``seed = <int>``; the last code cell prints versions;
names ``NN_lower_case.ipynb`` sort in reading order; no ``sys.path`` tricks or
``%pip`` inside a notebook.
"""

import ast
import re

import nbformat
import pytest

from graphsel_lib.paths import project_root

NOTEBOOK_DIR = project_root() / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
SOLUTIONS = sorted((NOTEBOOK_DIR / "solutions").glob("*.ipynb"))  # the exercises' worked solutions
NAME_RE = re.compile(r"^(\d{2})_[a-z0-9]+(?:_[a-z0-9]+)*\.ipynb$")
THEORY = [p for p in NOTEBOOKS if 0 <= int(p.name[:2]) <= 13]  # the course: chapters that end with exercises

needs_notebooks = pytest.mark.skipif(not NOTEBOOKS, reason=f"no notebooks in {NOTEBOOK_DIR} yet")
per_notebook = pytest.mark.parametrize(
    "path",
    NOTEBOOKS + SOLUTIONS,
    ids=[p.stem for p in NOTEBOOKS] + [f"solutions/{p.stem}" for p in SOLUTIONS],
)


def _read(path):
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    return nb, code


@needs_notebooks
def test_names_sort_in_reading_order():
    names = [p.name for p in NOTEBOOKS]
    bad = [n for n in names if not NAME_RE.match(n)]
    assert not bad, f"notebook names must look like NN_lower_case.ipynb: {bad}"
    prefixes = [NAME_RE.match(n).group(1) for n in names]
    dupes = sorted({p for p in prefixes if prefixes.count(p) > 1})
    assert not dupes, f"two notebooks share a number prefix {dupes}: the reading order is ambiguous"
    assert prefixes == sorted(prefixes)


@needs_notebooks
@per_notebook
def test_valid_and_stored_without_outputs(path):
    nb, code = _read(path)
    nbformat.validate(nb)
    with_outputs = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and c.outputs]
    with_counts = [
        i for i, c in enumerate(nb.cells) if c.cell_type == "code" and c.execution_count is not None
    ]
    assert not with_outputs, f"{path.name}: cells {with_outputs} have outputs (clear them before committing)"
    assert not with_counts, f"{path.name}: cells {with_counts} have execution counts"
    injected = [i for i, c in enumerate(nb.cells) if "injected-parameters" in c.metadata.get("tags", [])]
    assert not injected, f"{path.name} is an executed copy (papermill injected-parameters cell {injected})"
    assert "papermill" not in nb.metadata, f"{path.name} is an executed copy (papermill metadata)"


@needs_notebooks
@per_notebook
def test_first_code_cell_is_plain_parameters(path):
    _, code = _read(path)
    assert code, f"{path.name} has no code cell"
    first = code[0]
    assert "parameters" in first.metadata.get("tags", []), (
        f"{path.name}: first code cell is not tagged 'parameters'"
    )
    tree = ast.parse(first.source)
    values = {}
    for stmt in tree.body:
        ok = isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
        if ok:
            try:
                values[stmt.targets[0].id] = ast.literal_eval(stmt.value)
            except ValueError:
                ok = False
        assert ok, (
            f"{path.name}: the parameters cell may hold only `name = constant` lines, got "
            f"{ast.get_source_segment(first.source, stmt)!r} (derive values in the next cell)"
        )
    assert values.get("profile") == "full", f'{path.name}: parameters must set profile = "full"'
    assert "seed" in values, f"{path.name}: parameters must set seed"
    assert isinstance(values["seed"], int) and not isinstance(values["seed"], bool), (
        f"{path.name}: seed must be an int, got {values['seed']!r}"
    )


@needs_notebooks
@per_notebook
def test_last_code_cell_prints_versions(path):
    _, code = _read(path)
    assert "version" in code[-1].source.lower(), f"{path.name}: the last code cell must print versions"


@needs_notebooks
@per_notebook
def test_no_path_tricks_or_installs(path):
    _, code = _read(path)
    for c in code:
        src = c.source
        assert not re.search(r"sys\.path\.(insert|append|extend)|sys\.path\s*\+?=", src), (
            f"{path.name}: import graphsel_lib from the installed package, not through sys.path"
        )
        assert not re.search(r"^\s*[%!]\s*(pip|conda)\b", src, re.M), (
            f"{path.name}: no %pip/!pip/%conda inside notebooks (use environment.yml)"
        )


@needs_notebooks
@pytest.mark.parametrize("path", THEORY, ids=[p.stem for p in THEORY])
def test_theory_chapters_end_with_exercises_and_have_solutions(path):
    """Each theory chapter ends with ``## Exercises``; its worked solutions are a separate notebook the pipeline runs."""
    nb, _ = _read(path)
    headings = [
        c.source.lstrip().splitlines()[0] for c in nb.cells if c.cell_type == "markdown" and c.source.strip()
    ]
    h2 = [h for h in headings if h.startswith("## ")]
    assert "## Exercises" in h2, f"{path.name} has no '## Exercises' section"
    assert h2[-1] == "## Exercises", (
        f"{path.name}: '## Exercises' should close the chapter, got sections {h2}"
    )
    solution = NOTEBOOK_DIR / "solutions" / f"{path.name[:2]}_solutions.ipynb"
    assert solution.is_file(), (
        f"{path.name}: no worked solutions at {solution.relative_to(NOTEBOOK_DIR.parent)}"
    )


@needs_notebooks
def test_at_least_four_chapters_have_an_explorer():
    """Explorers (sliders in Jupyter, one static figure headless) go through ``graphsel_lib.collection.explore``."""
    with_explorer = [p.stem for p in NOTEBOOKS if "explore(" in "".join(c.source for c in _read(p)[1])]
    assert len(with_explorer) >= 4, f"explorers only in {with_explorer}"


@needs_notebooks
@per_notebook
def test_every_code_cell_parses(path):
    """A syntax error (e.g. a backslash inside an f-string's braces before Python 3.12) fails here, not in a run."""
    _, code = _read(path)
    for i, cell in enumerate(code):
        lines = [ln for ln in cell.source.splitlines() if not ln.lstrip().startswith(("%", "!"))]
        try:
            ast.parse("\n".join(lines))
        except SyntaxError as exc:
            pytest.fail(f"{path.name}: code cell {i + 1} does not parse: {exc}")


# --------------------------------------------------------------------------- the reproduction notebooks are reports
REPORTS = [p for p in NOTEBOOKS if 20 <= int(p.name[:2]) <= 44 or p.name.startswith("90_")]
REPORT_CODE_LIMIT, REPORT_TOTAL_LIMIT = 40, 2200


def _code_lines(cell):
    return [line for line in cell.source.splitlines() if line.strip()]


@needs_notebooks
def test_reproduction_notebooks_are_thin_reports_over_the_library():
    """20-44 and 90 call graphsel_lib.papers: short cells, at most 2,200 code lines in all, no helper defined twice."""
    total, defined, long_cells = 0, {}, []
    for path in REPORTS:
        for i, cell in enumerate(_read(path)[1]):
            lines = _code_lines(cell)
            total += len(lines)
            if len(lines) > REPORT_CODE_LIMIT:
                long_cells.append(f"{path.stem} code cell {i}: {len(lines)} lines")
            for node in ast.walk(ast.parse(cell.source)):
                if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                    defined.setdefault(node.name, set()).add(path.stem)
    assert not long_cells, "code cells over 40 lines (move the code into graphsel_lib.papers): " + "; ".join(
        long_cells
    )
    twice = {name: sorted(where) for name, where in defined.items() if len(where) > 1}
    assert not twice, f"helpers defined in more than one notebook (define them once in the library): {twice}"
    assert total <= REPORT_TOTAL_LIMIT, (
        f"notebooks 20-44 and 90 hold {total} code lines (limit {REPORT_TOTAL_LIMIT})"
    )
