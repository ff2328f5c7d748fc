"""Compare freshly written tables with the committed ones, column by column: ``reproduce --compare DIR``.

A reader on another machine, or a developer after a change, runs the notebooks
into another folder and asks which numbers moved::

    python -m graphsel_lib.reproduce --figures-dir build/fresh --blas-threads 1
    python -m graphsel_lib.reproduce --compare build/fresh

Every ``NAME.csv`` of the committed figures folder is read beside the fresh
``NAME.csv`` as strings (the tables are written byte-deterministically, so the
same numbers give the same strings) and every cell that differs is listed with
its row (named by the row's text cells) and column.

Times are not expected to repeat. A cell counts as a *time* cell, listed apart
and never failing the comparison, when

* its column is named as a time (a word of the name is ``time``, ``times``,
  ``seconds``, ``s``, ``(s)``, ``ms``, ``elapsed``, ``MiB`` or names a fit to
  times: ``slope``, ``intercept``, ``r2``, ``scaling``), e.g. ``pass s``,
  ``time (ours)``, ``time_mean``;
* its row measures a time (a ``quantity`` column whose cell is ``time``, as in
  the scorecard's time-ratio rows);
* or its table measures times as a whole (a word of the table's name is
  ``times`` or ``timing``).

Exit status of ``--compare``: 0 if no table differs outside time cells, 1
otherwise (a table missing on either side counts as a difference).
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "TableDifference",
    "compare_tables",
    "differing_images",
    "is_time_column",
    "is_time_table",
    "report",
]

_TIME_WORDS = {
    "time",
    "times",
    "seconds",
    "second",
    "s",
    "ms",
    "elapsed",
    "mib",
    "slope",
    "intercept",
    "r2",
    "scaling",
}
_TIME_TABLE_WORDS = {"times", "timing"}
_WORDS = re.compile(r"[a-z0-9]+")


def _words(name: str) -> set[str]:
    return set(_WORDS.findall(name.lower().replace("_", " ")))


def is_time_column(name: str) -> bool:
    """True if the column ``name`` holds a time or a fit to times (see the module docstring).

    >>> [is_time_column(c) for c in ("pass s", "time_mean", "time ours (s)", "error", "#queried std", "slope")]
    [True, True, True, False, False, True]
    """
    return bool(_words(name) & _TIME_WORDS)


def is_time_table(name: str) -> bool:
    """True if the table ``name`` (file stem) measures times as a whole.

    >>> [is_time_table(t) for t in ("20_gu2013_times", "10_bbq_scaling", "06_sslgc_bound")]
    [True, False, False]
    """
    return bool(_words(name) & _TIME_TABLE_WORDS)


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
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
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


def compare_tables(fresh_dir, committed_dir) -> list[TableDifference]:
    """Every table of ``committed_dir`` and ``fresh_dir`` that differs, cell by cell (see the module docstring).

    Tables only on one side are returned with a ``problem``; tables that are
    identical are not returned.
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
        if len(old) != len(new):
            out.append(TableDifference(name, f"{len(old)} rows committed, {len(new)} fresh"))
            continue
        diff = TableDifference(name)
        whole_table = is_time_table(name)
        quantity = h_old.index("quantity") if "quantity" in h_old else None
        for a, b in zip(old, new, strict=True):
            timed_row = quantity is not None and a[quantity].strip().lower() == "time"
            for col, x, y in zip(h_old, a, b, strict=False):
                if x != y:
                    timed = whole_table or timed_row or is_time_column(col)
                    (diff.time_cells if timed else diff.cells).append((_row_label(h_old, a), col, x, y))
        if diff.cells or diff.time_cells:
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
