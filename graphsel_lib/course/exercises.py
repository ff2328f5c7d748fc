"""The exercises that close each chapter: their form, and running a chapter's setup or check elsewhere.

A chapter's ``## Exercises`` section has this form (the test suite checks it, the nbgrader
assignments are built from it, and the solutions notebook reuses its setup and checks):

* a code cell tagged ``exercise-setup``, first in the section: everything the exercises and
  their checks need (imports, data, constants), computed from ``profile`` and ``seed`` alone, so
  that the section runs without the rest of the chapter;
* per exercise, a Markdown statement opening with ``### Exercise k (kind: title)``, where kind is
  one of :data:`KINDS` (a qualifier may follow a comma: ``(implementation, NumPy only: ...)``);
* a Markdown cell tagged ``exercise-written`` for a written answer (``*Your answer to exercise k:* ...``);
* a code cell tagged ``exercise-answer`` with the stubs a student fills in (a function body
  ``...``, or a value ``None``);
* a code cell tagged ``exercise-check`` that opens with ``# Check of exercise k``: while the stub
  is empty it prints what to fill in (so the chapter still runs from top to bottom), then it
  asserts the answer.

The solutions notebook ``solutions/NN_solutions.ipynb`` has, for the k-th ``exercise-answer``
cell of the chapter, the k-th ``exercise-answer`` cell filled in, and for the k-th
``exercise-written`` cell the k-th ``exercise-written`` cell with the answer (or what a good
answer covers). It runs the chapter's setup with :func:`run_setup` and the chapter's checks on
its answers with :func:`run_check`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "ANSWER_TAG",
    "CHECK_TAG",
    "KINDS",
    "SETUP_TAG",
    "WRITTEN_TAG",
    "Exercise",
    "ExerciseSection",
    "answered",
    "chapter_path",
    "read_exercises",
    "run_check",
    "run_setup",
]

SETUP_TAG, ANSWER_TAG, CHECK_TAG, WRITTEN_TAG = (
    "exercise-setup",
    "exercise-answer",
    "exercise-check",
    "exercise-written",
)
KINDS = ("concept", "derivation", "prediction", "implementation", "open question")
_HEADING = re.compile(r"^### Exercise (\d+) \(([a-z ]+?)(?:,[^:]*)?: (.+)\)\s*$")
_CHECK = re.compile(r"^# Check of exercise (\d+)\b")


@dataclass
class Exercise:
    """One exercise: its number, kind and title, and the indices of its cells in the notebook."""

    number: int
    kind: str
    title: str
    statement: list = field(default_factory=list)  # Markdown cells of the statement
    written: list = field(default_factory=list)  # exercise-written cells
    answers: list = field(default_factory=list)  # exercise-answer cells
    checks: list = field(default_factory=list)  # exercise-check cells
    other: list = field(default_factory=list)  # any other cell inside the exercise


@dataclass
class ExerciseSection:
    """The ``## Exercises`` section of a chapter: where it starts, its setup cell, its exercises."""

    path: Path
    cells: list
    start: int
    setup: int | None
    exercises: list
    problems: list  # what does not follow the form, in words


def _source(cell):
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _tags(cell):
    return cell.get("metadata", {}).get("tags", [])


def read_exercises(path) -> ExerciseSection:
    """Parse the ``## Exercises`` section of a chapter (or solutions) notebook; ``problems`` lists departures."""
    path = Path(path)
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    starts = [
        i
        for i, c in enumerate(cells)
        if c["cell_type"] == "markdown" and _source(c).startswith("## Exercises")
    ]
    problems = []
    if not starts:
        return ExerciseSection(path, cells, -1, None, [], ["no '## Exercises' section"])
    start = starts[0]
    setup = None
    exercises: list[Exercise] = []
    for i in range(start + 1, len(cells)):
        cell, src, tags = cells[i], _source(cells[i]), _tags(cells[i])
        if cell["cell_type"] == "markdown" and src.startswith("## ") and not src.startswith("## Exercises"):
            break  # a later section (none is expected)
        if SETUP_TAG in tags:
            if exercises or setup is not None:
                problems.append(f"cell {i}: the {SETUP_TAG} cell must come once, before the first exercise")
            setup = i
            continue
        first = src.lstrip().splitlines()[0] if src.strip() else ""
        m = _HEADING.match(first) if cell["cell_type"] == "markdown" else None
        if m:
            kind = m.group(2)
            if kind not in KINDS:
                problems.append(f"cell {i}: exercise kind {kind!r} is not one of {KINDS}")
            exercises.append(Exercise(int(m.group(1)), kind, m.group(3)))
            exercises[-1].statement.append(i)
            continue
        if not exercises:
            if cell["cell_type"] == "code" and src.strip() and SETUP_TAG not in tags:
                problems.append(f"cell {i}: code before the first exercise must be the {SETUP_TAG} cell")
            continue
        ex = exercises[-1]
        if WRITTEN_TAG in tags:
            ex.written.append(i)
        elif ANSWER_TAG in tags:
            ex.answers.append(i)
        elif CHECK_TAG in tags:
            m = _CHECK.match(src)
            if not m or int(m.group(1)) != ex.number:
                problems.append(f"cell {i}: a check cell opens with '# Check of exercise {ex.number}'")
            ex.checks.append(i)
        elif cell["cell_type"] == "markdown" and not ex.answers and not ex.written and not ex.checks:
            ex.statement.append(i)
        elif cell["cell_type"] == "code" and _is_closing(src):
            continue  # the chapter's run-time and versions cells after the last exercise
        else:
            ex.other.append(i)
    numbers = [e.number for e in exercises]
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append(f"exercises are numbered {numbers}, not 1..{len(numbers)}")
    return ExerciseSection(path, cells, start, setup, exercises, problems)


def _is_closing(src):
    return "show_versions()" in src or "notebook run time" in src


def chapter_path(chapter: int, notebooks_dir=None) -> Path:
    """``notebooks/NN_*.ipynb`` of chapter ``chapter`` (default: this checkout's notebooks)."""
    from ..paths import project_root

    folder = Path(notebooks_dir) if notebooks_dir is not None else project_root() / "notebooks"
    found = sorted(folder.glob(f"{int(chapter):02d}_*.ipynb"))
    if len(found) != 1:
        raise LookupError(
            f"expected one chapter notebook {int(chapter):02d}_*.ipynb in {folder}, found {len(found)}"
        )
    return found[0]


def run_setup(namespace: dict, chapter: int, notebooks_dir=None) -> None:
    """Run chapter ``chapter``'s ``exercise-setup`` cell in ``namespace`` (it needs ``profile`` and ``seed``)."""
    section = read_exercises(chapter_path(chapter, notebooks_dir))
    if section.setup is None:
        raise LookupError(f"chapter {int(chapter):02d} has no {SETUP_TAG} cell in its exercises")
    for name in ("profile", "seed"):
        if name not in namespace:
            raise NameError(f"run_setup: define {name!r} first (the parameters cell)")
    exec(
        compile(
            _source(section.cells[section.setup]), f"<chapter {int(chapter):02d} exercise setup>", "exec"
        ),
        namespace,
    )


def run_check(namespace: dict, chapter: int, exercise: int, notebooks_dir=None) -> None:
    """Run the check cell(s) of exercise ``exercise`` of chapter ``chapter`` on the answers in ``namespace``."""
    section = read_exercises(chapter_path(chapter, notebooks_dir))
    found = [e for e in section.exercises if e.number == exercise]
    if not found or not found[0].checks:
        raise LookupError(f"chapter {int(chapter):02d} has no check cell for exercise {exercise}")
    for i in found[0].checks:
        exec(
            compile(
                _source(section.cells[i]),
                f"<chapter {int(chapter):02d} check of exercise {exercise}>",
                "exec",
            ),
            namespace,
        )


def answered(*values) -> bool:
    """Whether every stub value is filled in (not ``None`` or ``...``): a check cell's first question.

    >>> answered(None), answered(1.0, [2]), answered(..., 3)
    (False, True, False)
    """
    return all(v is not None and v is not Ellipsis for v in values)
