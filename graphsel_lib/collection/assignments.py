"""nbgrader assignments built from the chapters' exercises and the worked solutions.

::

    python -m graphsel_lib.collection.assignments COURSE_DIR [--chapters 04 05 ...]
    cd COURSE_DIR && nbgrader generate_assignment ch04     # release/ch04/: the student version

For every chapter with exercises (the form of :mod:`graphsel_lib.course.exercises`), this writes
``COURSE_DIR/source/chNN/chNN.ipynb``, an nbgrader *source* notebook, and ``COURSE_DIR/nbgrader_config.py``:

* the title and the exercises' introduction, the chapter's ``parameters`` cell and its
  ``exercise-setup`` cell: read-only cells (nbgrader locks them);
* each statement: read-only;
* each ``exercise-answer`` stub: an autograded *answer* cell holding the worked solution (the
  matching cell of ``solutions/NN_solutions.ipynb``) inside ``### BEGIN SOLUTION`` /
  ``### END SOLUTION``. A function stub keeps its signature and docstring outside the region and
  a value stub its comment, so the student version shows what to write; an answer that does not
  follow its stub statement by statement becomes one region under the stub's text as comments;
* each ``exercise-check`` cell: an autograder *test* cell with :data:`CHECK_POINTS` points;
* each ``exercise-written`` cell: a manually graded answer holding the solutions' answer, with
  :data:`WRITTEN_POINTS` points by the exercise's kind.

``nbgrader generate_assignment`` removes the solutions (a stub then raises
``NotImplementedError``, so every check of a blank notebook fails); ``nbgrader autograde`` gives the
worked solutions every autograded point. The rubrics of the written answers are in the
instructor guide.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
import textwrap
from pathlib import Path

from ..course import exercises as ex
from ..paths import project_root

__all__ = ["CHECK_POINTS", "WRITTEN_POINTS", "build_course", "main", "source_notebook", "solution_cell"]

#: Points of an autograded check cell, by the exercise's kind.
CHECK_POINTS = {"concept": 2, "derivation": 3, "prediction": 3, "implementation": 4, "open question": 2}
#: Points of a manually graded written answer, by the exercise's kind (the rubrics total 10; scaled here).
WRITTEN_POINTS = {"concept": 3, "derivation": 4, "prediction": 3, "implementation": 2, "open question": 5}
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"


def _source(cell) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _is_stub_value(node) -> bool:
    return isinstance(node, ast.Constant) and (node.value is None or node.value is Ellipsis)


def _stub_body(fn: ast.FunctionDef) -> bool:
    """A function stub: an optional docstring, then ``...``, ``pass`` or ``return None`` only."""
    body = list(fn.body)
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        body = body[1:]
    return len(body) == 1 and (
        isinstance(body[0], ast.Pass)
        or (isinstance(body[0], ast.Expr) and _is_stub_value(body[0].value))
        or (isinstance(body[0], ast.Return) and (body[0].value is None or _is_stub_value(body[0].value)))
    )


def _assigned_names(node) -> list[str] | None:
    if not isinstance(node, ast.Assign):
        return None
    names = []
    for target in node.targets:
        for t in target.elts if isinstance(target, ast.Tuple) else [target]:
            if not isinstance(t, ast.Name):
                return None
            names.append(t.id)
    return names


def _lines(src: str, node) -> list[str]:
    return src.splitlines()[node.lineno - 1 : node.end_lineno]


def _comments_before(src: str, node, previous_end: int) -> list[str]:
    """Comment and blank lines between the previous statement and ``node``."""
    return src.splitlines()[previous_end : node.lineno - 1]


def solution_cell(stub: str, answer: str) -> str:
    """The nbgrader answer cell for a chapter's stub cell and the solutions' filled-in cell.

    >>> stub = 'def f(x):\\n    \"\"\"Twice x.\"\"\"\\n    ...  # your code\\n\\n\\nc = None  # your value: a constant'
    >>> print(solution_cell(stub, 'def f(x):\\n    \"\"\"Twice x.\"\"\"\\n    return 2 * x\\n\\n\\nc = 3'))
    def f(x):
        \"\"\"Twice x.\"\"\"
        ### BEGIN SOLUTION
        return 2 * x
        ### END SOLUTION
    <BLANKLINE>
    <BLANKLINE>
    # your value: a constant
    ### BEGIN SOLUTION
    c = 3
    ### END SOLUTION
    """
    s_tree, a_tree = ast.parse(stub), ast.parse(answer)
    a_funcs = {n.name: n for n in a_tree.body if isinstance(n, ast.FunctionDef)}
    a_assign = {}
    for n in a_tree.body:
        names = _assigned_names(n)
        if names:
            a_assign[tuple(names)] = n
    used, out, prev_end = set(), [], 0
    for node in s_tree.body:
        out.extend(_comments_before(stub, node, prev_end))
        prev_end = node.end_lineno
        if isinstance(node, ast.FunctionDef) and _stub_body(node) and node.name in a_funcs:
            fn = a_funcs[node.name]
            used.add(id(fn))
            body = fn.body
            has_doc = (
                isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            )
            first_stub = node.body[1] if len(node.body) > 1 and has_doc else node.body[-1]
            head = stub.splitlines()[node.lineno - 1 : first_stub.lineno - 1]
            indent = " " * first_stub.col_offset
            code_nodes = body[1:] if has_doc else body
            code = answer.splitlines()[code_nodes[0].lineno - 1 : code_nodes[-1].end_lineno]
            out += head + [indent + BEGIN] + code + [indent + END]
            continue
        names = _assigned_names(node)
        if (
            names
            and _is_stub_value(node.value)
            or (
                names
                and isinstance(node.value, ast.Tuple)
                and all(_is_stub_value(e) for e in node.value.elts)
            )
        ):
            match = a_assign.get(tuple(names))
            if match is None:
                return _whole_cell(stub, answer)
            used.add(id(match))
            comment = stub.splitlines()[node.lineno - 1].partition("#")[2].strip()
            if comment:
                out.append(f"# {comment}")
            out += [BEGIN] + _lines(answer, match) + [END]
            continue
        # a given statement of the stub (data, a constant): the answer must repeat it
        same = [n for n in a_tree.body if ast.dump(n) == ast.dump(node)]
        if not same:
            return _whole_cell(stub, answer)
        used.add(id(same[0]))
        out += _lines(stub, node)
    rest = [n for n in a_tree.body if id(n) not in used]
    if rest:  # helpers or computations of the answer that the stub does not name
        return _whole_cell(stub, answer)
    return "\n".join(out).rstrip()


def _whole_cell(stub: str, answer: str) -> str:
    commented = ["# " + line if line.strip() else "#" for line in stub.rstrip().splitlines()]
    return "\n".join(["# The stub to fill in:"] + commented + [BEGIN, answer.rstrip(), END])


def _nbgrader(grade_id, *, grade=False, solution=False, locked=False, points=None):
    meta = {
        "grade": grade,
        "grade_id": grade_id,
        "locked": locked,
        "schema_version": 3,
        "solution": solution,
        "task": False,
    }
    if grade:
        meta["points"] = points
    return meta


def _cell(kind, source, meta):
    cell = {"cell_type": kind, "metadata": {"nbgrader": meta}, "source": source}
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def _tagged(cells, tag):
    return [c for c in cells if tag in c.get("metadata", {}).get("tags", [])]


def source_notebook(chapter: int, notebooks_dir=None) -> dict:
    """The nbgrader source notebook (a dict, nbformat 4) of chapter ``chapter``'s exercises."""
    path = ex.chapter_path(chapter, notebooks_dir)
    section = ex.read_exercises(path)
    if section.problems or not section.exercises or section.setup is None:
        raise ValueError(
            f"{path.name}: the exercises do not follow the form: {section.problems or 'no exercises'}"
        )
    folder = path.parent
    solutions_path = folder / "solutions" / f"{int(chapter):02d}_solutions.ipynb"
    sol = json.loads(solutions_path.read_text(encoding="utf-8"))["cells"]
    answers, written = _tagged(sol, ex.ANSWER_TAG), _tagged(sol, ex.WRITTEN_TAG)
    cells = section.cells
    n_answers = sum(len(e.answers) for e in section.exercises)
    n_written = sum(len(e.written) for e in section.exercises)
    if (len(answers), len(written)) != (n_answers, n_written):
        raise ValueError(
            f"{solutions_path.name}: {len(answers)} answer and {len(written)} written cells for the chapter's "
            f"{n_answers} and {n_written}"
        )
    title = _source(cells[0]).lstrip().splitlines()[0].lstrip("# ").strip()
    params = next(c for c in cells if "parameters" in c.get("metadata", {}).get("tags", []))
    out = [
        _cell(
            "markdown",
            f"# Exercises of chapter {title}\n\n{_source(cells[section.start]).split(chr(10), 1)[-1].strip()}",
            _nbgrader("intro", locked=True),
        ),
        _cell("code", _source(params), _nbgrader("parameters", locked=True)),
        _cell("code", _source(cells[section.setup]), _nbgrader("setup", locked=True)),
    ]
    k_answer = k_written = 0
    for e in section.exercises:  # every cell of the exercise, in the chapter's order
        tag = f"ex{e.number}"
        roles = (
            {i: "statement" for i in e.statement}
            | {i: "written" for i in e.written}
            | {i: "answer" for i in e.answers}
            | {i: "check" for i in e.checks}
            | {i: "other" for i in e.other}
        )
        for i in sorted(roles):
            role, gid = roles[i], f"{tag}-{roles[i]}{i}"
            kind, source, flags = cells[i]["cell_type"], _source(cells[i]), {"locked": True}
            if role == "written":
                kind, source = "markdown", _source(written[k_written])
                flags = {"grade": True, "solution": True, "points": WRITTEN_POINTS[e.kind]}
                k_written += 1
            elif role == "answer":
                kind, source = "code", solution_cell(source, _source(answers[k_answer]))
                flags = {"solution": True}
                k_answer += 1
            elif role == "check":
                kind, flags = "code", {"grade": True, "locked": True, "points": CHECK_POINTS[e.kind]}
            out.append(_cell(kind, source, _nbgrader(gid, **flags)))
    return {
        "cells": out,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


CONFIG = """c = get_config()  # noqa: F821  (nbgrader's configuration object)
c.CourseDirectory.course_id = "graphsel"
c.CourseDirectory.root = {root!r}
c.ExecutePreprocessor.timeout = 600
"""


def build_course(course_dir, chapters=None, notebooks_dir=None) -> list[Path]:
    """Write ``source/chNN/chNN.ipynb`` for each chapter (default: every chapter with exercises) and the config."""
    import nbformat

    course_dir = Path(course_dir).resolve()
    folder = Path(notebooks_dir) if notebooks_dir is not None else project_root() / "notebooks"
    if chapters is None:
        chapters = sorted(
            int(p.name[:2])
            for p in folder.glob("[0-9][0-9]_*.ipynb")
            if int(p.name[:2]) <= 19 and ex.read_exercises(p).exercises
        )
    written = []
    for chapter in chapters:
        nb = nbformat.from_dict(source_notebook(chapter, folder))
        for i, cell in enumerate(nb.cells):
            cell["id"] = f"ch{int(chapter):02d}-{i:03d}"
        nbformat.validate(nb)
        target = course_dir / "source" / f"ch{int(chapter):02d}" / f"ch{int(chapter):02d}.ipynb"
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, target)
        written.append(target)
    (course_dir / "nbgrader_config.py").write_text(CONFIG.format(root=str(course_dir)), encoding="utf-8")
    return written


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m graphsel_lib.collection.assignments",
        description="Build nbgrader source notebooks from the chapters' exercises and their worked solutions.",
        epilog=textwrap.dedent("""\
            then: cd COURSE_DIR && nbgrader generate_assignment chNN   (the student version, in release/)
            and, for submissions in submitted/<student>/chNN/: nbgrader autograde chNN"""),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "course_dir", help="the nbgrader course folder to write (source/ and nbgrader_config.py)"
    )
    parser.add_argument("--chapters", nargs="*", type=int, help="chapter numbers (default: every chapter)")
    args = parser.parse_args(argv)
    try:
        paths = build_course(args.course_dir, args.chapters)
    except (ValueError, LookupError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for p in paths:
        print("wrote", p)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
