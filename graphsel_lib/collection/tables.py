"""Tables behind the figures: ``NAME.csv`` (for machines) and ``NAME.md`` (for readers).

:func:`write_table` formats every cell once, then writes the same strings as
CSV and as a GitHub-flavoured Markdown table, each atomically (temporary file
+ rename: an interrupted run never leaves a half-written file) and byte-deterministically (fixed ``\\n`` line ends, fixed
float format), so that the same numbers give the same bytes. The Markdown is
rendered here (no ``tabulate`` dependency).

While the pipeline runner (:mod:`graphsel_lib.collection.reproduce`) executes a notebook,
``$GRAPHSEL_FIGURES`` points at a per-notebook staging folder and
``$GRAPHSEL_FIGURES_TARGET`` at the real figures folder; :func:`read_table`
looks in both, so a summary notebook can read the tables written by earlier
notebooks.

Examples
--------
>>> import pandas as pd
>>> df = pd.DataFrame({"method": ["GPA", "OLLGC|b"], "error": [0.25, 1 / 3], "queried": [100, 7]})
>>> print(render_markdown(df, float_format="%.3f"), end="")
| method   | error | queried |
| :------- | ----: | ------: |
| GPA      | 0.250 |     100 |
| OLLGC\\|b | 0.333 |       7 |
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from .._atomic import atomic_write
from ..paths import figures_dir

__all__ = [
    "format_table",
    "list_tables",
    "read_table",
    "render_markdown",
    "below_tolerance",
    "rounding_floor",
    "table_path",
    "write_csv",
    "write_table",
]

#: Environment variable naming a second folder :func:`read_table` searches (set by the runner).
TARGET_ENV = "GRAPHSEL_FIGURES_TARGET"
DEFAULT_FLOAT_FORMAT = "%.6g"
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+=-]*$")


def table_path(name: str, ext: str, *, directory=None) -> Path:
    """Where :func:`write_table` writes ``name`` with extension ``ext`` (``"csv"`` or ``"md"``)."""
    if not isinstance(name, str) or not _NAME_RE.match(name) or ".." in name:
        raise ValueError(
            f"table name must be a plain file name (letters, digits, _ . + = -), without folder: got {name!r}"
        )
    if name.lower().endswith((".csv", ".md")):
        raise ValueError(f"give the table name without extension: {name!r}")
    return Path(figures_dir() if directory is None else directory) / f"{name}.{ext}"


def _formatter(fmt) -> Callable[[float], str]:
    if callable(fmt):
        return fmt
    if isinstance(fmt, str):
        if "{" in fmt:
            return fmt.format
        if "%" in fmt:
            return lambda x: fmt % x
    raise TypeError(f"float_format must be a %-format, a {{}}-format or a callable, got {fmt!r}")


def rounding_floor(floor, fmt=DEFAULT_FLOAT_FORMAT):
    """A float format that writes ``|x| < floor`` as ``"< floor"``: rounding noise is not a result.

    For columns that measure a discrepancy (an identity checked to 1e-15, a
    solver's residual): its exact size below ``floor`` depends on the machine,
    the thread count and the BLAS kernels, so a table that wrote it would
    differ between machines. Use it as a ``float_format`` (per column).

    >>> f = rounding_floor(1e-12, "%.4g")
    >>> f(4.619e-15), f(0.8323), f(-2e-13)
    ('< 1e-12', '0.8323', '< 1e-12')
    """
    base = _formatter(fmt)
    return lambda x: f"< {floor:g}" if abs(x) < floor else base(x)


def below_tolerance(values, tolerances, fmt=DEFAULT_FLOAT_FORMAT) -> list[str]:
    """Each value formatted, or ``"< tol"`` when below its own row's tolerance: :func:`rounding_floor` per row.

    For a residual column whose rows come from solvers with different
    tolerances (a direct solver exact to rounding, an iterative one stopped
    at its tolerance): below that tolerance the value says only "converged",
    and its digits depend on the machine.

    >>> below_tolerance([3.7e-14, 4.6e-08, 2.4e-01], [1e-12, 1e-07, 1e-07], "%.1e")
    ['< 1e-12', '< 1e-07', '2.4e-01']
    """
    values, tolerances = list(values), list(tolerances)
    if len(values) != len(tolerances):
        raise ValueError(
            f"one tolerance per value: got {len(values)} values and {len(tolerances)} tolerances"
        )
    bad = [t for t in tolerances if not (isinstance(t, (int, float)) and 0 < t < float("inf"))]
    if bad:
        raise ValueError(
            f"tolerances must be positive finite numbers, got {bad[0]!r}: give each row its solver's"
        )
    return [rounding_floor(t, fmt)(v) for v, t in zip(values, tolerances, strict=True)]


def format_table(
    df: pd.DataFrame, *, float_format=DEFAULT_FLOAT_FORMAT, index: bool = False, na_rep: str = ""
):
    """Format every cell of ``df`` as a string, once, for both the CSV and the Markdown.

    Parameters
    ----------
    df : pandas.DataFrame
    float_format : str, callable or mapping, default "%.6g"
        ``"%.4f"``-style or ``"{:.4f}"``-style format or a callable for float
        cells; a mapping ``{column: format}`` sets it per column (other
        columns use the default).
    index : bool, default False
        Write the index as leading column(s) (named after the index, else ``"index"``).
    na_rep : str, default ""
        Text for missing values.

    Returns
    -------
    header : list of str
    rows : list of list of str
    numeric : list of bool
        Whether each column is numeric (right-aligned in Markdown).
    """
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"write_table needs a pandas DataFrame, got {type(df).__name__}")
    if index:
        df = df.reset_index(names=[n if n is not None else "index" for n in df.index.names])
    columns = [
        " ".join(str(c) for c in col if str(c)) if isinstance(col, tuple) else str(col) for col in df.columns
    ]
    if len(set(columns)) != len(columns):
        raise ValueError(f"table columns must have unique names, got {columns}")
    if isinstance(float_format, Mapping):
        unknown = set(map(str, float_format)) - set(columns)
        if unknown:
            raise ValueError(f"float_format names unknown columns: {sorted(unknown)}")
        per_col = {str(k): _formatter(v) for k, v in float_format.items()}
        default = _formatter(DEFAULT_FLOAT_FORMAT)
        fmts = [per_col.get(c, default) for c in columns]
    else:
        fmts = [_formatter(float_format)] * len(columns)

    def cell(x, fmt):
        if x is None or x is pd.NA or x is pd.NaT or (isinstance(x, (float, np.floating)) and np.isnan(x)):
            return na_rep
        if isinstance(x, (bool, np.bool_)):
            return str(bool(x))
        if isinstance(x, (int, np.integer)):
            return str(int(x))
        if isinstance(x, (float, np.floating)):
            return fmt(float(x))
        return str(x)

    rows = [
        [cell(x, fmt) for x, fmt in zip(row, fmts, strict=True)]
        for row in df.itertuples(index=False, name=None)
    ]
    numeric = [
        pd.api.types.is_numeric_dtype(df.iloc[:, j]) and not pd.api.types.is_bool_dtype(df.iloc[:, j])
        for j in range(df.shape[1])
    ]
    return columns, rows, numeric


def _md_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\r\n", "<br>").replace("\n", "<br>")


def render_markdown(
    df: pd.DataFrame, *, float_format=DEFAULT_FLOAT_FORMAT, index: bool = False, na_rep: str = ""
) -> str:
    """A GitHub-flavoured Markdown table of ``df``: text left-aligned, numbers right-aligned.

    Columns are padded to equal width so that the raw file reads as a table
    too; ``|`` in a cell is escaped and a line break becomes ``<br>``.
    Arguments as in :func:`format_table`.
    """
    return _markdown(*format_table(df, float_format=float_format, index=index, na_rep=na_rep))


def _markdown(header, rows, numeric) -> str:
    if not header:
        return ""
    header = [_md_escape(h) for h in header]
    rows = [[_md_escape(c) for c in row] for row in rows]
    widths = [max([3, len(h)] + [len(r[j]) for r in rows]) for j, h in enumerate(header)]

    def line(cells):
        return (
            "| "
            + " | ".join(
                c.rjust(w) if num else c.ljust(w) for c, w, num in zip(cells, widths, numeric, strict=True)
            )
            + " |"
        )

    rule = (
        "| "
        + " | ".join(
            ("-" * (w - 1) + ":") if num else (":" + "-" * (w - 1))
            for w, num in zip(widths, numeric, strict=True)
        )
        + " |"
    )
    return "\n".join([line(header), rule, *(line(r) for r in rows)]) + "\n"


def write_table(
    df: pd.DataFrame,
    name: str,
    *,
    float_format=DEFAULT_FLOAT_FORMAT,
    index: bool = False,
    na_rep: str = "",
    directory=None,
) -> list[Path]:
    """Write ``df`` as ``NAME.csv`` and ``NAME.md`` in :func:`~graphsel_lib.paths.figures_dir`.

    Both files hold the same formatted strings; each is written to a
    temporary file and renamed when complete, so an interrupted run leaves
    the previous version intact; the same data give the same bytes.

    Parameters
    ----------
    df : pandas.DataFrame
    name : str
        File name without extension or folder, e.g. ``"gu2013_table2"``.
    float_format : str, callable or mapping, default "%.6g"
        See :func:`format_table`.
    index : bool, default False
        Also write the index as leading column(s).
    na_rep : str, default ""
        Text for missing values.
    directory : path-like, optional
        Target folder; default ``$GRAPHSEL_FIGURES`` or ``<project>/figures``.

    Returns
    -------
    list of pathlib.Path
        ``[NAME.csv, NAME.md]``.

    Raises
    ------
    TypeError
        ``df`` is not a DataFrame or ``float_format`` is not a format.
    ValueError
        Bad ``name``, duplicate column names, or ``float_format`` naming unknown columns.
    """
    csv_path = table_path(name, "csv", directory=directory)
    md_path = table_path(name, "md", directory=directory)
    formatted = format_table(df, float_format=float_format, index=index, na_rep=na_rep)
    header, rows, _ = formatted
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    with atomic_write(csv_path, "w", encoding="utf-8", newline="") as fh:
        fh.write(buf.getvalue())
    with atomic_write(md_path, "w", encoding="utf-8", newline="") as fh:
        fh.write(_markdown(*formatted))
    return [csv_path, md_path]


def write_csv(frame: pd.DataFrame, path) -> Path:
    """Write ``frame`` to ``path`` as CSV (no index, ``\\n`` line ends), atomically: a file a user asked for by name.

    Unlike :func:`write_table` the name and folder are the caller's and no Markdown twin is written; an
    interrupted run leaves the previous file (or none), never half of one.
    """
    path = Path(path)
    with atomic_write(path, newline="") as fh:
        frame.to_csv(fh, index=False, lineterminator="\n")
    return path


def read_table(name: str, *, directory=None, **read_csv_kwargs) -> pd.DataFrame:
    """Read ``NAME.csv`` written by :func:`write_table` back into a DataFrame.

    Empty cells become NaN; other strings (``"NA"``, ``"nan"``) stay as they are.
    Without ``directory`` it searches :func:`~graphsel_lib.paths.figures_dir`,
    then ``$GRAPHSEL_FIGURES_TARGET`` (set by the pipeline runner).

    Raises
    ------
    FileNotFoundError
        No such table in any searched folder (the message lists them).
    """
    if directory is not None:
        candidates = [table_path(name, "csv", directory=directory)]
    else:
        candidates = [table_path(name, "csv")]
        target = os.environ.get(TARGET_ENV)
        if target:
            candidates.append(table_path(name, "csv", directory=target))
    for path in candidates:
        if path.is_file():
            kwargs = {"keep_default_na": False, "na_values": [""], **read_csv_kwargs}
            return pd.read_csv(path, **kwargs)
    raise FileNotFoundError(f"table {name!r} not found; looked for " + ", ".join(str(p) for p in candidates))


def list_tables(pattern: str = "*", *, directory=None) -> list[str]:
    """Sorted names of the tables (``NAME.csv``) matching the glob ``pattern``.

    Searches the same folders as :func:`read_table` (``directory``, or the
    figures folder and ``$GRAPHSEL_FIGURES_TARGET``); a name found in both is
    listed once.

    >>> list_tables("*_vs_published", directory="/nonexistent")
    []
    """
    if directory is not None:
        folders = [Path(directory)]
    else:
        folders = [figures_dir()] + ([Path(os.environ[TARGET_ENV])] if os.environ.get(TARGET_ENV) else [])
    names = {p.stem for folder in folders if folder.is_dir() for p in folder.glob(f"{pattern}.csv")}
    return sorted(names)
