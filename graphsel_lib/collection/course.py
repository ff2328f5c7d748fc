"""The course layer of the chapters 00–13: each chapter's header, and the chapter map drawn from them.

Every chapter of the course ``notebooks/NN_*.ipynb`` (00–13) opens, right after its
title cell, with a Markdown cell in this form (the test suite checks it)::

    **Learning objectives.** After this chapter you can

    1. derive ...
    2. check ...

    **Prerequisites.** Chapters 01 and 02; linear algebra (eigenvalues of symmetric matrices).
    **Time.** About 3 h 5 min of study: 45 min of reading, 120 min of exercises, 12 min of quiz, 5 min to run the full profile.
    **Difficulty.** Intermediate.

    [Notation](notation.md) · [Bibliography](bibliography.md) · [Course overview](README.md)

and ends, before ``## Exercises``, with a ``## Key takeaways`` cell of 3–6
bullets. :func:`read_chapter` parses both; :func:`chapter_map_layout` places
which chapter needs which (the arrows of the prerequisites, without the ones
implied by a longer path) for the figure of the course overview
(:func:`graphsel_lib.course.figures.chapter_map`).

The *Time* line is computed by one rule (:func:`study_time`; the course overview states it):

* reading: the Markdown before the exercises at :data:`WORDS_PER_MINUTE` words a minute (an
  inline formula counts as a word), plus :data:`MINUTES_PER_DISPLAY` minutes for each displayed
  equation, which a reader works through rather than reads;
* exercises: :data:`EXERCISE_MINUTES` by the kind of each exercise;
* quiz: :data:`QUIZ_MINUTES_PER_QUESTION` per question;
* run: the full-profile wall time of the chapter and its solutions, as the last run recorded it
  in ``figures/PROVENANCE.json``, rounded up to a multiple of 5 minutes.

The total is rounded to the nearest 5 minutes. ``python -m graphsel_lib.collection.course
--update-time`` writes every chapter's line from the rule; the test suite checks them.
"""

from __future__ import annotations

import json
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from ..paths import project_root

__all__ = [
    "DIFFICULTIES",
    "EXERCISE_MINUTES",
    "MINUTES_PER_DISPLAY",
    "QUIZ_MINUTES_PER_QUESTION",
    "THEORY",
    "WORDS_PER_MINUTE",
    "Chapter",
    "StudyTime",
    "chapter_map_layout",
    "chapters",
    "read_chapter",
    "reading_minutes",
    "run_minutes",
    "study_time",
    "time_line",
    "update_time_lines",
]

WORDS_PER_MINUTE = 120
MINUTES_PER_DISPLAY = 2
EXERCISE_MINUTES = {
    "concept": 15,
    "prediction": 20,
    "derivation": 30,
    "open question": 30,
    "implementation": 45,
}
QUIZ_MINUTES_PER_QUESTION = 2
DIFFICULTIES = ("Introductory", "Intermediate", "Advanced")
THEORY = range(0, 14)  # the course: chapters 00-13

_OBJECTIVES = re.compile(r"\*\*Learning objectives\.\*\*(.*?)(?=\n\s*\*\*Prerequisites\.\*\*)", re.S)
_PREREQ = re.compile(r"\*\*Prerequisites\.\*\*\s*(.+)")
_TIME = re.compile(
    r"\*\*Time\.\*\*\s*About (\d+) h (\d+) min of study: (\d+) min of reading, (\d+) min of exercises, "
    r"(\d+) min of quiz, (\d+) min to run the full profile\."
)
_TIME_LINE = re.compile(r"\*\*Time\.\*\*[^\n]*")
_DISPLAY = re.compile(r"\$\$.*?\$\$", re.S)
_DIFFICULTY = re.compile(r"\*\*Difficulty\.\*\*\s*(\w+)")
_ITEM = re.compile(r"^\s*(?:\d+\.|[-*])\s+(.+)$", re.M)
_CHAPTER_NO = re.compile(r"\b(\d{2})\b")


@dataclass
class Chapter:
    """What a theory chapter's header and takeaways say (``None``/empty where a part is missing)."""

    number: int
    path: Path
    title: str = ""
    objectives: list = field(default_factory=list)
    prerequisites: list = field(default_factory=list)  # chapter numbers
    prerequisites_text: str = ""
    minutes: tuple | None = None  # (total, reading, exercises, quiz, run) as stated, in minutes
    difficulty: str | None = None
    header_links: str = ""
    takeaways: list = field(default_factory=list)
    takeaways_before_exercises: bool = False
    words: int = 0


def _cells(path):
    with open(path, encoding="utf-8") as fh:
        nb = json.load(fh)
    for cell in nb["cells"]:
        src = cell.get("source", "")
        yield cell["cell_type"], "".join(src) if isinstance(src, list) else src, cell.get("metadata", {})


def _words(markdown: str) -> int:
    """Words outside displayed equations; an inline formula ``$...$`` counts as one word."""
    text = re.sub(r"\$[^$]+\$", " formula ", _DISPLAY.sub(" ", markdown))
    return len(text.split())


def _main_text(path) -> list[str]:
    """The Markdown cells before ``## Exercises`` (the exercises are timed by their kind)."""
    out = []
    for kind, src, _ in _cells(path):
        if kind == "markdown" and src.startswith("## Exercises"):
            break
        if kind == "markdown":
            out.append(src)
    return out


def reading_minutes(path) -> int:
    """Minutes to read the main text: :data:`WORDS_PER_MINUTE` words a minute plus each displayed equation."""
    text = [_TIME_LINE.sub("", src) for src in _main_text(path)]  # the Time line does not time itself
    words = sum(_words(src) for src in text)
    displays = sum(len(_DISPLAY.findall(src)) for src in text)
    return max(1, round(words / WORDS_PER_MINUTE + MINUTES_PER_DISPLAY * displays))


def run_minutes(chapter: int, figures_dir=None) -> int | None:
    """The chapter's and its solutions' last full-profile wall time, rounded up to a multiple of 5 minutes."""
    import math

    from .provenance import load

    folder = Path(figures_dir) if figures_dir is not None else project_root() / "figures"
    runs = load(folder)["notebooks"]
    names = [n for n in runs if n[:2] == f"{int(chapter):02d}" and (n[2:3] == "_")]
    seconds = [runs[n].get("seconds") for n in names if runs[n].get("profile") == "full"]
    if not seconds or any(s is None for s in seconds):
        return None
    return 5 * max(1, math.ceil(sum(seconds) / 300))


@dataclass(frozen=True)
class StudyTime:
    """A chapter's study time by the rule of the module docstring, in minutes."""

    reading: int
    exercises: int
    quiz: int
    run: int

    @property
    def total(self) -> int:
        return 5 * round((self.reading + self.exercises + self.quiz + self.run) / 5)


def study_time(path, figures_dir=None) -> StudyTime:
    """The study time of the chapter notebook ``path`` by the rule (raises if a part cannot be computed)."""
    from ..course import exercises as ex
    from ..course import quiz

    path = Path(path)
    number = int(path.name[:2])
    section = ex.read_exercises(path)
    unknown = [e.kind for e in section.exercises if e.kind not in EXERCISE_MINUTES]
    if unknown or not section.exercises:
        raise ValueError(f"{path.name}: exercises of unknown kinds {unknown} or none")
    run = run_minutes(number, figures_dir)
    if run is None:
        raise ValueError(f"{path.name}: no full-profile run time recorded; run the chapter first")
    return StudyTime(
        reading=reading_minutes(path),
        exercises=sum(EXERCISE_MINUTES[e.kind] for e in section.exercises),
        quiz=QUIZ_MINUTES_PER_QUESTION * len(quiz.for_chapter(number).questions),
        run=run,
    )


def time_line(t: StudyTime) -> str:
    """The header's ``**Time.**`` line for ``t``."""
    return (
        f"**Time.** About {t.total // 60} h {t.total % 60} min of study: {t.reading} min of reading, "
        f"{t.exercises} min of exercises, {t.quiz} min of quiz, {t.run} min to run the full profile."
    )


def update_time_lines(notebooks_dir=None, figures_dir=None) -> list[Path]:
    """Rewrite every chapter's ``**Time.**`` line from the rule; returns the notebooks changed."""
    changed = []
    for ch in chapters(notebooks_dir):
        line = time_line(study_time(ch.path, figures_dir))
        nb = json.loads(ch.path.read_text(encoding="utf-8"))
        for cell in nb["cells"]:
            src = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            if cell["cell_type"] == "markdown" and "**Learning objectives.**" in src:
                new = _TIME_LINE.sub(line, src, count=1)
                if new != src:
                    lines = new.splitlines(keepends=True)
                    cell["source"] = lines
                    changed.append(ch.path)
                break
        if ch.path in changed:
            with open(ch.path, "w", encoding="utf-8") as fh:
                json.dump(nb, fh, indent=1, ensure_ascii=False)
                fh.write("\n")
    return changed


def read_chapter(path) -> Chapter:
    """Parse the course header and the key takeaways of the chapter notebook ``path``."""
    path = Path(path)
    ch = Chapter(number=int(path.name[:2]), path=path)
    kinds = list(_cells(path))
    ch.words = sum(_words(src) for kind, src, _ in kinds if kind == "markdown")
    for kind, src, _ in kinds:
        if kind == "markdown" and src.lstrip().startswith("# "):
            ch.title = src.lstrip()[2:].splitlines()[0].strip()
            break
    header = next(
        (src for kind, src, _ in kinds if kind == "markdown" and "**Learning objectives.**" in src), ""
    )
    if header:
        m = _OBJECTIVES.search(header)
        ch.objectives = _ITEM.findall(m.group(1)) if m else []
        m = _PREREQ.search(header)
        if m:
            ch.prerequisites_text = m.group(1).strip()
            before_maths = ch.prerequisites_text.split(";")[0]
            ch.prerequisites = sorted({int(x) for x in _CHAPTER_NO.findall(before_maths)})
        m = _TIME.search(header)
        if m:
            hours, mins, *parts = (int(x) for x in m.groups())
            ch.minutes = (60 * hours + mins, *parts)
        m = _DIFFICULTY.search(header)
        ch.difficulty = m.group(1) if m else None
        ch.header_links = header
    titles = [
        src.lstrip().splitlines()[0] if src.strip() else "" for kind, src, _ in kinds if kind == "markdown"
    ]
    take = [i for i, t in enumerate(titles) if t.startswith("## Key takeaways")]
    exer = [i for i, t in enumerate(titles) if t.startswith("## Exercises")]
    if take:
        md_cells = [src for kind, src, _ in kinds if kind == "markdown"]
        ch.takeaways = re.findall(r"^\s*[-*]\s+(.+)$", md_cells[take[0]], flags=re.M)
        ch.takeaways_before_exercises = bool(exer) and take[0] < exer[0]
    return ch


def chapters(notebooks_dir=None) -> list[Chapter]:
    """Every chapter of the course (00–13) found in ``notebooks_dir`` (default: this checkout's), parsed."""
    folder = Path(notebooks_dir) if notebooks_dir is not None else project_root() / "notebooks"
    paths = sorted(p for p in folder.glob("[0-9][0-9]_*.ipynb") if int(p.name[:2]) in THEORY)
    return [read_chapter(p) for p in paths]


def _transitive_reduction(edges):
    """The arrows ``(a, b)`` not implied by a longer path ``a -> ... -> b``."""
    import networkx as nx

    G = nx.DiGraph(edges)
    return sorted(nx.transitive_reduction(G).edges())


def chapter_map_layout(chs=None):
    """Where each chapter sits in the chapter map, and its arrows: ``(boxes, arrows)``.

    ``boxes`` maps a chapter number to ``(x, y, label, difficulty)``: the row
    ``-y`` is the length of the longest chain of prerequisites leading to the
    chapter (the spine of the course runs from top to bottom, the branches
    side by side); ``arrows`` are the prerequisite pairs ``(a, b)`` not
    implied by a longer path. Drawn by :func:`graphsel_lib.course.figures.chapter_map`.
    """
    chs = chapters() if chs is None else chs
    by_no = {c.number: c for c in chs}
    depth = {}
    for c in sorted(chs, key=lambda c: c.number):  # prerequisites come earlier
        depth[c.number] = 1 + max((depth[p] for p in c.prerequisites if p in depth), default=-1)
    if 0 not in by_no and any(0 in c.prerequisites for c in chs):  # 00 listed without a header of its own
        depth = {no: dep + 1 for no, dep in depth.items()} | {0: 0}
    columns = {}
    for no, dep in sorted(depth.items()):
        columns.setdefault(dep, []).append(no)
    boxes = {}
    for dep, nos in columns.items():
        for i, no in enumerate(nos):
            title = by_no[no].title if no in by_no else "00 · Overview and datasets"
            # a formula stays one word for the wrap and is drawn by matplotlib's mathtext ($L_d^+$)
            plain = re.sub(r"\$([^$]*)\$", lambda m: "$" + m.group(1).replace(" ", "") + "$", title)
            short = re.sub(r"\(.*?\)", "", re.sub(r"^\d+\s*·\s*", "", plain))
            short = re.split(r"[:;]", short)[0].strip(" ,")  # the topic, before any colon
            short = "\n".join(textwrap.wrap(short, 22))  # the whole topic, never cut
            difficulty = by_no[no].difficulty if no in by_no else "Introductory"
            boxes[no] = (i - (len(nos) - 1) / 2, -dep, f"{no:02d}\n{short}", difficulty)
    edges = [(p, c.number) for c in chs for p in c.prerequisites if p in boxes]
    return boxes, _transitive_reduction(edges)


def main(argv=None) -> int:
    """``python -m graphsel_lib.collection.course --update-time``: write every chapter's *Time* line."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m graphsel_lib.collection.course")
    parser.add_argument(
        "--update-time", action="store_true", help="rewrite the **Time.** lines from the rule"
    )
    args = parser.parse_args(argv)
    if args.update_time:
        for path in update_time_lines():
            print("updated", path.name)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
