"""nbgrader assignments from the chapters: the source notebooks, the student release, the autograder.

The slow test does what a lecturer does: build the source notebooks, ``nbgrader generate_assignment``
(the student version must contain no solution), then ``nbgrader autograde`` on two submissions per
chapter, the worked solutions (every autograded point) and the blank release (zero).
"""

import json
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from graphsel_lib.collection import assignments
from graphsel_lib.course import exercises
from graphsel_lib.paths import project_root

NB = project_root() / "notebooks"
CHAPTERS = sorted(int(p.name[:2]) for p in NB.glob("[0-9][0-9]_*.ipynb") if int(p.name[:2]) <= 13)


def test_a_function_stub_keeps_its_signature_outside_the_region():
    stub = 'def f(x):\n    """Twice x."""\n    ...  # your code'
    cell = assignments.solution_cell(stub, 'def f(x):\n    """Twice x."""\n    y = 2 * x\n    return y')
    lines = cell.splitlines()
    assert lines[:2] == ["def f(x):", '    """Twice x."""']
    assert lines[2:] == ["    ### BEGIN SOLUTION", "    y = 2 * x", "    return y", "    ### END SOLUTION"]


def test_an_answer_that_does_not_follow_its_stub_is_one_region_under_the_stub():
    stub = "total = None  # your value: the sum of 1..10"
    answer = "total = 0\nfor k in range(1, 11):\n    total += k"
    cell = assignments.solution_cell(stub, answer)
    assert cell.startswith("# The stub to fill in:\n# total = None  # your value")
    assert cell.count("### BEGIN SOLUTION") == 1 and answer in cell
    namespace = {}
    exec(cell, namespace)
    assert namespace["total"] == 55


def test_given_statements_of_a_stub_stay_outside_the_regions():
    stub = "N = 5  # given\nsquares = None  # your value"
    cell = assignments.solution_cell(stub, "N = 5  # given\nsquares = [k * k for k in range(N)]")
    assert cell.splitlines()[0] == "N = 5  # given"
    namespace = {}
    exec(cell, namespace)
    assert namespace["squares"] == [0, 1, 4, 9, 16]


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: f"{c:02d}")
def test_every_chapter_builds_an_assignment_with_every_exercise(chapter):
    section = exercises.read_exercises(exercises.chapter_path(chapter))
    assert not section.problems, section.problems
    nb = assignments.source_notebook(chapter)
    meta = [c["metadata"]["nbgrader"] for c in nb["cells"]]
    ids = [m["grade_id"] for m in meta]
    assert len(ids) == len(set(ids)), "grade ids must be unique"
    checks = [m for m in meta if m["grade"] and not m["solution"]]
    assert checks and all(m["points"] > 0 and m["locked"] for m in checks), "autograded tests with points"
    answers = [
        c for c, m in zip(nb["cells"], meta, strict=True) if m["solution"] and c["cell_type"] == "code"
    ]
    assert all("### BEGIN SOLUTION" in "".join(c["source"]) for c in answers)
    assert len(answers) == sum(len(e.answers) for e in section.exercises)


def test_a_chapter_off_the_form_is_refused(tmp_path):
    (tmp_path / "solutions").mkdir()
    nb = {
        "cells": [{"cell_type": "markdown", "metadata": {}, "source": "# 07 · A chapter\n"}],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (tmp_path / "07_a_chapter.ipynb").write_text(json.dumps(nb))
    with pytest.raises(ValueError, match="do not follow the form"):
        assignments.source_notebook(7, tmp_path)


def _nbgrader(course, *args):
    proc = subprocess.run(
        [sys.executable, "-m", "nbgrader", *args], cwd=course, capture_output=True, text=True, timeout=1800
    )
    assert proc.returncode == 0, (
        f"nbgrader {' '.join(args)} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    )


def _grade_chapters(course, chapters):
    """What a lecturer does, for ``chapters``: release each assignment, autograde two submissions."""
    for chapter in chapters:
        name = f"ch{chapter:02d}"
        _nbgrader(course, "generate_assignment", name, "--force")
        release = (course / "release" / name / f"{name}.ipynb").read_text(encoding="utf-8")
        assert "BEGIN SOLUTION" not in release and "YOUR CODE HERE" in release
        for student, source in (("blank", course / "release"), ("solutions", course / "source")):
            target = course / "submitted" / student / name
            target.mkdir(parents=True)
            shutil.copy(source / name / f"{name}.ipynb", target)
        _nbgrader(course, "autograde", name, "--force")


@pytest.mark.slow
def test_nbgrader_gives_the_solutions_full_marks_and_the_blank_release_zero(tmp_path):
    pytest.importorskip("nbgrader")
    from nbgrader.api import Gradebook

    # two courses (even and odd chapters), graded side by side: each nbgrader call uses one core
    halves = {course: CHAPTERS[k::2] for k, course in enumerate((tmp_path / "even", tmp_path / "odd"))}
    for course in halves:
        written = assignments.build_course(course)
        assert [int(p.parent.name[2:]) for p in written] == CHAPTERS
    with ThreadPoolExecutor(len(halves)) as pool:
        list(pool.map(_grade_chapters, halves, halves.values()))  # list(): re-raise a failure
    for course, chapters in halves.items():
        with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
            for chapter in chapters:
                name = f"ch{chapter:02d}"
                solved, blank = gb.find_submission(name, "solutions"), gb.find_submission(name, "blank")
                assert solved.max_code_score > 0
                assert solved.code_score == solved.max_code_score, (
                    f"{name}: the solutions lose autograded points"
                )
                assert blank.code_score == 0, f"{name}: the blank release scores {blank.code_score}"
