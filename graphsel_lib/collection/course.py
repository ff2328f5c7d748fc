"""The course layer of the theory chapters: each chapter's header, and the chapter map drawn from them.

Every theory chapter ``notebooks/NN_*.ipynb`` (01–13) opens, right after its
title cell, with a Markdown cell in this form (the test suite checks it)::

    **Learning objectives.** After this chapter you can

    1. derive ...
    2. check ...

    **Prerequisites.** Chapters 01 and 02; linear algebra (eigenvalues of symmetric matrices).
    **Time.** About 50 minutes: 45 to read, 5 to run the full profile.
    **Difficulty.** Intermediate.

    [Notation](notation.md) · [Bibliography](bibliography.md) · [Course overview](README.md)

and ends, before ``## Exercises``, with a ``## Key takeaways`` cell of 3–6
bullets. :func:`read_chapter` parses both; :func:`chapter_map_layout` places
which chapter needs which (the arrows of the prerequisites, without the ones
implied by a longer path) for the figure of the course overview
(:func:`graphsel_lib.collection.plotting.chapter_map`).

Reading time is the words of the Markdown cells at 150 words a minute
(:func:`reading_minutes`), the pace of a reader who follows the mathematics.
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
    "WORDS_PER_MINUTE",
    "Chapter",
    "chapter_map_layout",
    "chapters",
    "read_chapter",
    "reading_minutes",
]

WORDS_PER_MINUTE = 150
DIFFICULTIES = ("Introductory", "Intermediate", "Advanced")
THEORY = range(1, 14)  # chapters 01-13 carry the course header; 00 is the overview

_OBJECTIVES = re.compile(r"\*\*Learning objectives\.\*\*(.*?)(?=\n\s*\*\*Prerequisites\.\*\*)", re.S)
_PREREQ = re.compile(r"\*\*Prerequisites\.\*\*\s*(.+)")
_TIME = re.compile(r"\*\*Time\.\*\*\s*About (\d+) minutes: (\d+) to read, (\d+) to run")
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
    minutes: tuple | None = None  # (total, reading, running) as stated
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
    text = re.sub(r"\$\$.*?\$\$", " formula ", markdown, flags=re.S)  # a display formula reads as a few words
    return len(text.split())


def reading_minutes(path) -> int:
    """Minutes to read the Markdown of a notebook at :data:`WORDS_PER_MINUTE` words a minute (rounded)."""
    words = sum(_words(src) for kind, src, _ in _cells(path) if kind == "markdown")
    return max(1, round(words / WORDS_PER_MINUTE))


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
        ch.minutes = tuple(int(x) for x in m.groups()) if m else None
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
    """Every theory chapter (01–13) found in ``notebooks_dir`` (default: this checkout's), parsed."""
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
    implied by a longer path. Drawn by :func:`graphsel_lib.collection.plotting.chapter_map`.
    """
    chs = chapters() if chs is None else chs
    by_no = {c.number: c for c in chs}
    depth = {}
    for c in sorted(chs, key=lambda c: c.number):  # prerequisites come earlier
        depth[c.number] = 1 + max((depth[p] for p in c.prerequisites if p in depth), default=-1)
    if any(0 in c.prerequisites for c in chs):  # the overview, 00, has no header of its own
        depth = {no: dep + 1 for no, dep in depth.items()} | {0: 0}
    columns = {}
    for no, dep in sorted(depth.items()):
        columns.setdefault(dep, []).append(no)
    boxes = {}
    for dep, nos in columns.items():
        for i, no in enumerate(nos):
            title = by_no[no].title if no in by_no else "00 · Overview and datasets"
            short = re.sub(r"\$[^$]*\$|\(.*?\)", "", re.sub(r"^\d+\s*·\s*", "", title))
            short = re.split(r"[:;]", short)[0].strip(" ,")  # the topic, before any colon
            lines = textwrap.wrap(short, 22)
            short = "\n".join(lines[:2]) + ("…" if len(lines) > 2 else "")
            difficulty = by_no[no].difficulty if no in by_no else "Introductory"
            boxes[no] = (i - (len(nos) - 1) / 2, -dep, f"{no:02d}\n{short}", difficulty)
    edges = [(p, c.number) for c in chs for p in c.prerequisites if p in boxes]
    return boxes, _transitive_reduction(edges)
