"""Compare freshly written tables with the committed ones, column by column: ``reproduce --compare DIR``.

A reader on another machine, or a developer after a change, runs the notebooks
into another folder and asks which numbers moved::

    python -m graphsel_lib.reproduce --figures-dir build/fresh --blas-threads 1
    python -m graphsel_lib.reproduce --compare build/fresh

Every ``NAME.csv`` of the committed figures folder is read beside the fresh
``NAME.csv`` as strings (the tables are written byte-deterministically, so the
same numbers give the same strings) and every cell that differs is listed with
its row (named by the row's text cells) and column.

Rows are compared whole: a row cut short or made longer, a missing or extra
row and a missing or extra column are differences. A table that is not UTF-8
text is a :class:`ValueError` naming the file.

Times are not expected to repeat. Which cells are times is declared, never
guessed from a column's name, in :mod:`graphsel_lib.collection.time_columns`:
a declared time column of the table, or a declared time row (the
scorecard's rows whose ``quantity`` is ``time``). Their cells are listed
apart and never fail the comparison.

Exit status of ``--compare``: 0 if no table differs outside time cells, 1
otherwise (a table missing on either side counts as a difference).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from pathlib import Path

from .._validation import read_utf8
from . import time_columns as declared

__all__ = [
    "TableDifference",
    "compare_tables",
    "differing_images",
    "report",
]

MISSING = "(no cell)"
"""What a cell of a row cut short is shown as."""


@dataclass
class TableDifference:
    """How one table differs: cells outside and inside time columns, or why it could not be compared."""

    table: str
    problem: str = ""  # missing on one side, other columns, other row count
    cells: list = field(default_factory=list)  # (row label, column, committed, fresh)
    time_cells: list = field(default_factory=list)

    @property
    def fails(self) -> bool:
        return bool(self.problem or self.cells)


def _read(path: Path):
    fix = "write it again with the notebook that makes it (the tables are written in UTF-8)"
    try:
        rows = list(csv.reader(io.StringIO(read_utf8(path, "the table", fix=fix), newline="")))
    except OSError as err:  # a folder named NAME.csv, a file that cannot be read
        raise ValueError(f"{path} cannot be read as a table ({err.strerror}): remove or mend it") from None
    return (rows[0], rows[1:]) if rows else ([], [])


def _is_number(text: str) -> bool:
    try:
        float(text.replace("%", "").replace("±", "").strip() or "x")
    except ValueError:
        return False
    return True


def _row_label(header, row) -> str:
    """The row's text cells (dataset, method, ...), which name it better than its index."""
    parts = [f"{h}={v}" for h, v in zip(header, row, strict=False) if v and not _is_number(v)][:3]
    return ", ".join(parts)


def _time_rule(name, header, time_columns, time_rows):
    """``is_time(row, column index)`` for table ``name`` from the declared columns and rows."""
    cols = declared.time_columns(name) if time_columns is None else time_columns.get(name, ())
    rows = (declared.TIME_ROWS if time_rows is None else time_rows).get(name)
    timed_cols = {i for i, h in enumerate(header) if h in cols}
    key = header.index(rows[0]) if rows and rows[0] in header else None

    def is_time(row, i):
        timed_row = key is not None and key < len(row) and row[key].strip().lower() == rows[1]
        return timed_row or i in timed_cols

    return is_time


def compare_tables(fresh_dir, committed_dir, *, time_columns=None, time_rows=None) -> list[TableDifference]:
    """Every table of ``committed_dir`` and ``fresh_dir`` that differs, cell by cell (see the module docstring).

    Tables only on one side are returned with a ``problem``; tables that are
    identical are not returned. ``time_columns`` (table -> columns) and
    ``time_rows`` (table -> ``(column, value)``) replace the declared lists
    of :mod:`~graphsel_lib.collection.time_columns` (for tests).
    """
    fresh_dir, committed_dir = Path(fresh_dir), Path(committed_dir)
    for folder in (fresh_dir, committed_dir):
        if not folder.is_dir():
            raise FileNotFoundError(f"no such folder of figures and tables: {folder}")
    fresh = {p.stem: p for p in fresh_dir.glob("*.csv")}
    committed = {p.stem: p for p in committed_dir.glob("*.csv")}
    out = []
    for name in sorted(fresh.keys() | committed.keys()):
        if name not in fresh or name not in committed:
            where = "fresh run" if name not in fresh else "committed figures"
            out.append(TableDifference(name, f"not in the {where}"))
            continue
        (h_old, old), (h_new, new) = _read(committed[name]), _read(fresh[name])
        if h_old != h_new:
            out.append(TableDifference(name, f"other columns: {h_old} committed, {h_new} fresh"))
            continue
        diff = TableDifference(name)
        if len(old) != len(new):
            diff.problem = f"{len(old)} rows committed, {len(new)} fresh"
        is_time = _time_rule(name, h_old, time_columns, time_rows)
        for a, b in zip(old, new, strict=False):
            width = max(len(a), len(b), len(h_old))
            for i in range(width):
                x = a[i] if i < len(a) else MISSING
                y = b[i] if i < len(b) else MISSING
                if x != y:
                    col = h_old[i] if i < len(h_old) else f"(cell {i + 1}, past the header)"
                    timed = is_time(a, i) and is_time(b, i) and MISSING not in (x, y)
                    (diff.time_cells if timed else diff.cells).append((_row_label(h_old, a), col, x, y))
        if diff.problem or diff.cells or diff.time_cells:
            out.append(diff)
    return out


def differing_images(fresh_dir, committed_dir) -> list[str]:
    """Names of the PNG figures present on both sides whose bytes differ (informative: a plot may show times)."""
    fresh_dir, committed_dir = Path(fresh_dir), Path(committed_dir)
    return sorted(
        p.name
        for p in committed_dir.glob("*.png")
        if (fresh_dir / p.name).is_file() and (fresh_dir / p.name).read_bytes() != p.read_bytes()
    )


def report(differences, *, fresh_dir, committed_dir, limit=None) -> str:
    """The comparison as text: every difference outside time cells, then a count of time cells per table."""
    lines = [f"committed: {committed_dir}", f"fresh:     {fresh_dir}"]
    failing = [d for d in differences if d.fails]
    if not failing:
        lines.append("every table equals the committed one outside time cells")
    for d in failing:
        if d.problem:
            lines.append(f"{d.table}: {d.problem}")
        if not d.cells:
            continue
        lines.append(f"{d.table}: {len(d.cells)} cell(s) differ")
        for row, col, x, y in d.cells[:limit]:
            lines.append(f"    [{row}] {col}: {x} committed, {y} fresh")
        if limit is not None and len(d.cells) > limit:
            lines.append(f"    ... and {len(d.cells) - limit} more")
    images = differing_images(fresh_dir, committed_dir)
    if images:
        lines.append(f"PNG figures whose bytes differ (look at them; not counted): {', '.join(images)}")
    timed = [d for d in differences if d.time_cells]
    if timed:
        lines.append("time cells that differ (expected, not counted):")
        for d in timed:
            cols = sorted({c for _, c, _, _ in d.time_cells})
            lines.append(f"    {d.table}: {len(d.time_cells)} cell(s) in {', '.join(cols)}")
    return "\n".join(lines)
