"""Your own graph from files: an edge CSV and a label CSV, or a GraphML file.

:meth:`Graph.read_csv <graphsel_lib.Graph.read_csv>` (implemented by :func:`read_csv`)
reads two small CSV files::

    edges.csv                    labels.csv
    source,target,weight         node,label
    alice,bob,1.0                alice,red
    bob,carol,2.5                bob,blue
    carol,alice,1.0              carol,

* **Header.** Both files need a header row; columns are found by name
  (``source``, ``target``, optional ``weight``; ``node``, ``label``), exactly
  or else ignoring case, so a Gephi edge table (``Source,Target,...,Weight``)
  reads as it is. Other names: ``source=``, ``target=``, ``node=``, ``label=``.
  Other columns are ignored. ``header=False`` reads files without a header by
  position (``source,target[,weight]`` and ``node,label``).
* **Node names** are strings, or integers when every name in the edge file is
  an integer written plainly (``7``, not ``007`` or ``-0``): then label rows match them by
  value. Nodes are numbered in sorted name order (independent of the order of
  the rows); ``g.node_names`` gives the name of every row of ``g.adjacency``.
* **Edges** are undirected: an edge listed as ``a,b``, as ``b,a`` or both (with
  the same weight) is one edge of that weight; an edge listed more than once
  otherwise adds its weights (:meth:`Graph.from_edges <graphsel_lib.Graph.from_edges>`).
  ``directed=True`` reads rows as ``a -> b`` and keeps ``max(S, S^T)``.
  Self-loops are dropped.
* **Weights** come from the ``weight`` column when there is one, or from the
  third column of a three-column file (``weight=False`` ignores them, ``weight="w"``
  names the column); otherwise every edge weighs 1. They must be non-negative
  finite numbers written plainly (``2.5``, ``1e-3``; ``1_000`` or ``1,000`` are refused).
* **Labels** are any strings (``g.class_names``, in sorted order; numerically
  sorted when all are plain non-negative integers). A node without a label
  row, with an empty label, or with a missing-value marker (``-1``, ``NaN``,
  ``NA``, ``None``, ``null``, ``n/a``, ... in any case:
  :data:`MISSING_LABELS`, the library's one definition, also used by
  :meth:`Graph.from_edges <graphsel_lib.Graph.from_edges>` and
  :meth:`Graph.from_networkx <graphsel_lib.Graph.from_networkx>`) is
  unlabelled; a warning counts them (and says how to keep a class named
  ``-1``: rename it). Unlabelled nodes are kept with their
  edges (``g.labels`` is -1 on them: they are what the methods predict);
  the largest connected component is kept (``lcc=False`` raises instead).
* **Look-alike names** in one file (nodes ``2`` and ``2.0``, or ``7`` and
  ``007``; labels ``1`` and ``1.0``, or ``Red`` and ``red``) are kept apart as
  written, and a :class:`~graphsel_lib._validation.LookalikeNamesWarning`
  names the pairs.

Whatever is dropped or merged (self-loops, repeated edges, label rows of nodes
that are in no edge, repeated label rows, nodes outside the
largest connected component), and the number of unlabelled nodes, is reported by a
:class:`~graphsel_lib.DataWarning` with counts, and the counts are kept in ``g.info["read"]``. A missing file, a
missing column, an empty file, an empty node name, a non-numeric or negative
weight and a node given two different labels raise ``FileNotFoundError`` /
``ValueError`` naming the file, line and value (and ``sep=`` when the file
looks separated by ``;``, tabs or ``|``).
"""

from __future__ import annotations

import io
import re
import warnings
from pathlib import Path

import numpy as np

from ._validation import (
    _DECIMAL,
    MISSING_LABELS,
    DataWarning,
    UnlabelledNodesWarning,
    check_weight_attribute,
    is_missing_label,
    read_utf8,
)

__all__ = ["MISSING_LABELS", "read_csv", "read_edge_csv", "read_label_csv", "read_graphml"]

# MISSING_LABELS (imported above) are the label cells that mean "no label", in any case: empty, -1, and the
# missing-value markers of pandas and spreadsheets; graphsel_lib._validation holds the one definition.
_NON_FINITE = frozenset({"inf", "+inf", "-inf", "infinity", "+infinity", "-infinity", "nan", "+nan", "-nan"})
_OTHER_SEPARATORS = {";": "';'", "\t": "'\\t' (tab)", "|": "'|'"}
_INT = re.compile(r"^(0|-?[1-9][0-9]*)$")  # plain integers: not "007", not "-0" (which would merge with "0")
_CSV_OPTIONS = ("source", "target", "node", "label", "header", "sep")


# --------------------------------------------------------------------------- table reading
def _check_file(path, what):
    if not isinstance(path, (str, Path)) or str(path) == "":
        raise TypeError(f"{what} must be a file path (str or pathlib.Path), got {path!r}")
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{what} {str(path)!r} does not exist (working directory: {Path.cwd()})")
    if not path.is_file():
        raise ValueError(f"{what} {str(path)!r} is not a file")
    return path


def _read_table(path, what, *, header, sep):
    """Every cell of a CSV as a stripped string; ``(columns, rows, line_numbers)`` without blank lines."""
    import pandas as pd

    path = _check_file(path, what)
    text = read_utf8(path, what)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", pd.errors.ParserWarning)  # rows longer than the header: refuse
            df = pd.read_csv(
                io.StringIO(text),
                sep=sep,
                header=0 if header else None,
                dtype=str,
                keep_default_na=False,
                na_filter=False,
                skip_blank_lines=False,
                skipinitialspace=True,
                index_col=False,
                engine="c",
            )
    except pd.errors.EmptyDataError:
        raise ValueError(f"{what} {str(path)!r} is empty") from None
    except pd.errors.ParserError as exc:
        raise ValueError(f"{what} {str(path)!r} is not a well-formed CSV: {exc}") from None
    except pd.errors.ParserWarning:
        raise ValueError(
            f"{what} {str(path)!r} has rows with more fields than its header has columns: name every column in "
            "the header (e.g. source,target,weight), or the extra fields would be dropped"
        ) from None
    df = df.fillna("")
    columns = [str(c).strip() for c in df.columns] if header else None
    cells = df.to_numpy(dtype=object)
    cells = np.vectorize(lambda v: str(v).strip(), otypes=[object])(cells) if cells.size else cells
    blank = np.all(cells == "", axis=1) if cells.size else np.zeros(0, bool)
    lines = np.arange(cells.shape[0]) + (2 if header else 1)
    return columns, cells[~blank], lines[~blank]


def _column(columns, name, what, path, *, required=True, hint=""):
    """Index of column ``name``: exact match, else a unique case-insensitive one; ``None`` if absent."""
    if name in columns:
        return columns.index(name)
    folded = [i for i, c in enumerate(columns) if c.casefold() == str(name).casefold()]
    if len(folded) == 1:
        return folded[0]
    if not required:
        return None
    numeric = all(_looks_numeric(c) for c in columns)
    more = (
        " (the first row looks like data: pass header=False for a file without a header row)"
        if numeric
        else ""
    )
    sep = _separator_hint(columns)
    if sep:
        raise ValueError(f"{what} {str(path)!r} has no column {name!r}; its columns are {columns}{sep}")
    raise ValueError(f"{what} {str(path)!r} has no column {name!r}; its columns are {columns}{more}{hint}")


def _separator_hint(cells):
    """``": it looks separated by ';': pass sep=';'"`` when the cells of one row hold another separator, else ""."""
    text = "".join(str(c) for c in cells)
    for sep, shown in _OTHER_SEPARATORS.items():
        if sep in text:
            return f" (the file looks separated by {shown}, not by commas: pass sep={shown.split(' ')[0]})"
    return ""


def _looks_numeric(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def _fits_int64(values):
    return all(-(2**63) <= int(v) < 2**63 for v in values)


def _examples(values, k=3):
    vals = list(values[:k])
    return ", ".join(repr(v.item() if hasattr(v, "item") else v) for v in vals) + (
        ", ..." if len(values) > k else ""
    )


# --------------------------------------------------------------------------- edges
def read_edge_csv(path, *, weight=None, source="source", target="target", header=True, sep=","):
    """Read an edge CSV into ``(edges, weights, node_names, self_loops)``.

    ``edges`` is an ``(m, 2)`` int64 array of node indices into the sorted
    ``node_names`` (int64 when every name is a plain integer, else str);
    ``weights`` a float array of length ``m`` (all ones without a weight column);
    ``self_loops`` the number of rows ``a,a``, which are left out of ``edges``
    (a node seen only in a self-loop stays in ``node_names``). Use it for an
    unlabelled graph; :func:`read_csv` builds a :class:`~graphsel_lib.Graph`.
    See the module docstring for the format and the errors.
    """
    path = Path(path) if isinstance(path, (str, Path)) else path
    what = "edge file"
    columns, cells, lines = _read_table(path, what, header=header, sep=sep)
    n_cols = cells.shape[1] if cells.ndim == 2 else 0
    if header:
        i_src = _column(columns, source, what, path, hint="; name the columns or pass source=..., target=...")
        i_tgt = _column(columns, target, what, path, hint="; name the columns or pass source=..., target=...")
        if weight is None:
            i_w = _column(columns, "weight", what, path, required=False)
            if i_w is None and len(columns) == 3:
                i_w = ({0, 1, 2} - {i_src, i_tgt}).pop()
            elif i_w is None and len(columns) > 3:
                raise ValueError(
                    f"{what} {str(path)!r} has columns {columns}: name the weight column with weight='...', "
                    "or pass weight=False for an unweighted graph"
                )
        elif weight is False:
            i_w = None
        elif isinstance(weight, str):
            i_w = _column(columns, weight, what, path)
        else:
            raise TypeError(f"weight must be None, False or a column name, got {weight!r}")
    else:
        if n_cols not in (2, 3):
            raise ValueError(
                f"{what} {str(path)!r} without a header must have 2 or 3 columns (source,target[,weight]), "
                f"got {n_cols}{_separator_hint(cells[0]) if n_cols == 1 and cells.shape[0] else ''}"
            )
        i_src, i_tgt = 0, 1
        if weight is None or weight == "weight":
            i_w = 2 if n_cols == 3 else None
        elif weight is False:
            i_w = None
        else:
            raise ValueError(f"a file without a header has no column {weight!r}; use weight=None or False")
    if cells.shape[0] == 0:
        raise ValueError(f"{what} {str(path)!r} holds no edges (only a header row)")
    src, tgt = cells[:, i_src], cells[:, i_tgt]
    empty = (src == "") | (tgt == "")
    if np.any(empty):
        k = int(np.flatnonzero(empty)[0])
        raise ValueError(
            f"{what} {str(path)!r}, line {lines[k]}: empty node name "
            f"({int(empty.sum())} row(s) lack a source or a target)"
        )
    if i_w is None:
        w = np.ones(src.size)
    else:
        w = _weights(
            cells[:, i_w], lines, what, path, f"column {columns[i_w]!r}" if header else "the third column"
        )
    ends = np.concatenate([src, tgt]).astype(str)
    distinct = np.unique(ends)
    if all(_INT.match(v) for v in distinct) and _fits_int64(distinct):
        ends = ends.astype(np.int64)  # integer names: matched and sorted by value
    names, inverse = np.unique(ends, return_inverse=True)
    edges = inverse.reshape(2, -1).T.astype(np.int64)
    if names.dtype != np.int64:
        names = names.astype(object)
    loop = edges[:, 0] == edges[:, 1]
    return edges[~loop], w[~loop], names, int(loop.sum())


def _weights(col, lines, what, path, column):
    """The weights of ``col`` as floats: plain decimal numbers only (Python's ``float`` also takes ``1_000``)."""
    out = np.empty(col.size)
    for k, v in enumerate(col):
        if _DECIMAL.match(v):
            out[k] = float(v)
        elif v.casefold() in _NON_FINITE:
            out[k] = np.nan  # refused below, as not finite
        else:
            digits = v.replace("_", "").replace(",", "").replace(" ", "")
            fix = (
                f"; write it with digits only, {digits} (no '_', ',' or blank separating thousands)"
                if digits != v and _DECIMAL.match(digits)
                else ""
            )
            raise ValueError(
                f"{what} {str(path)!r}, line {lines[k]}: weight {v!r} is not a number{fix} (weights are read from "
                f"{column}; pass weight=False for an unweighted graph)"
            )
    bad = ~np.isfinite(out)
    if np.any(bad):
        k = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{what} {str(path)!r}, line {lines[k]}: weight {col[k]!r} is not a finite number")
    neg = out < 0
    if np.any(neg):
        k = int(np.flatnonzero(neg)[0])
        raise ValueError(
            f"{what} {str(path)!r}, line {lines[k]}: negative weight {col[k]!r} "
            f"({int(neg.sum())} negative weight(s); edge weights must be >= 0)"
        )
    return out


# --------------------------------------------------------------------------- labels
def read_label_csv(path, *, node="node", label="label", header=True, sep=",", what="label file"):
    """Read a label CSV into ``(nodes, labels, lines)``: stripped strings per row, ``""`` = no label.

    Rows are returned as written (repeats included); :func:`read_csv` matches
    them to the nodes of the edge file. The file is UTF-8 text; an empty file,
    or one whose header row does not name the ``node`` and ``label`` columns
    (a file without a header row needs ``header=False``), is a ``ValueError``.
    ``what`` names the file in the messages (``"answers file"`` for
    :meth:`Labelling.answer_from <graphsel_lib.label.Labelling.answer_from>`).
    """
    columns, cells, lines = _read_table(path, what, header=header, sep=sep)
    if header:
        hint = (
            f"; start the file with the header row {node},{label}, pass node=..., label=..., "
            "or pass header=False for a file without a header row"
        )
        i_node = _column(columns, node, what, Path(path), hint=hint)
        i_lab = _column(columns, label, what, Path(path), hint=hint)
    else:
        if cells.ndim != 2 or cells.shape[1] != 2:
            n_cols = cells.shape[1] if cells.ndim == 2 else 0
            raise ValueError(
                f"{what} {str(path)!r} without a header must have 2 columns (node,label), got {n_cols}"
                f"{_separator_hint(cells[0]) if n_cols == 1 and cells.shape[0] else ''}"
            )
        i_node, i_lab = 0, 1
    nodes, labels = cells[:, i_node], cells[:, i_lab]
    empty = nodes == ""
    if np.any(empty):
        k = int(np.flatnonzero(empty)[0])
        raise ValueError(f"{what} {str(path)!r}, line {lines[k]}: empty node name")
    return nodes.astype(str), labels.astype(str), lines


def _match_labels(names, int_names, nodes, labels, lines, path):
    """Per-node label strings (``None`` = unlabelled) and the counts of what was left out."""
    what = "label file"
    if int_names:
        plain = np.array([bool(_INT.match(v)) for v in nodes], dtype=bool)
        keys = np.full(nodes.size, -1, dtype=np.int64)
        keys[plain] = nodes[plain].astype(np.int64)
        pos = np.searchsorted(names, keys)
        pos = np.minimum(pos, names.size - 1)
        known = plain & (names[pos] == keys)
    else:
        pos = np.searchsorted(names.astype(str), nodes)
        pos = np.minimum(pos, names.size - 1)
        known = names[pos].astype(str) == nodes
    unknown = nodes[~known]
    pos, labs, lns = pos[known], labels[known], lines[known]
    out = np.full(names.size, None, dtype=object)
    seen_line, seen_text = {}, {}
    repeats = markers = minus_one = 0
    for p, lab, ln in zip(pos.tolist(), labs.tolist(), lns.tolist(), strict=True):
        missing = is_missing_label(lab)
        if p in seen_line:
            node = names[p].item() if hasattr(names[p], "item") else names[p]
            first, first_line = seen_text[p], seen_line[p]
            if out[p] is None and missing:  # two rows without a label ('' and 'NaN', say): no conflict
                repeats += 1
                continue
            if out[p] is None or missing:
                given, gline, none, nline = (lab, ln, first, first_line) if missing is False else (
                    first, first_line, lab, ln)  # fmt: skip
                raise ValueError(
                    f"{what} {str(path)!r}: node {node!r} has a label, {given!r} (line {gline}), and a row without "
                    f"one, {none!r} (line {nline}, a missing-value marker): keep the row you mean and delete the other"
                )
            if out[p] != lab:
                raise ValueError(
                    f"{what} {str(path)!r}: node {node!r} has two labels, {first!r} (line {first_line}) and "
                    f"{lab!r} (line {ln}): keep the row you mean and delete the other"
                )
            repeats += 1
            continue
        seen_line[p], seen_text[p] = ln, lab
        out[p] = None if missing else lab
        markers += missing and lab != ""
        minus_one += bool(_DECIMAL.match(lab)) and float(lab) == -1  # '-1', '-1.0': perhaps a class of ±1
    no_row = names.size - len(seen_line)
    empty = sum(1 for p in seen_line if out[p] is None)
    return out, {"unknown": unknown, "repeats": repeats, "no_row": no_row, "empty": empty, "markers": markers,
                 "minus_one": minus_one}  # fmt: skip


def _numeric_lookalikes(unknown, names, k=3):
    """Up to ``k`` pairs (label-row name, edge-file name) that differ as text but are equal as numbers ('01' and 1)."""
    by_value = {}
    for n in names.tolist():
        text = str(n)
        if _looks_numeric(text):
            by_value.setdefault(float(text), text)
    pairs = []
    for u in unknown.tolist():
        if _looks_numeric(u) and float(u) in by_value and by_value[float(u)] != u:
            pairs.append((u, by_value[float(u)]))
            if len(pairs) == k:
                break
    return pairs


def _class_codes(per_node, class_names=None, path=None):
    """Label strings -> labels for :meth:`Graph.from_edges`: ints when all are plain integers >= 0.

    With ``class_names`` (the classes in the order wanted), the index of each label in it.
    """
    given = [v for v in per_node if v is not None]
    if class_names is not None:
        index = {str(c): k for k, c in enumerate(class_names)}
        other = sorted(set(given) - set(index))
        if other:
            raise ValueError(
                f"label file {str(path)!r} has label(s) {other[:5]} that are not in class_names {list(index)}"
            )
        return np.array([-1 if v is None else index[v] for v in per_node], dtype=np.int64)
    if given and all(_INT.match(v) and not v.startswith("-") for v in given):
        out = np.full(per_node.size, None, dtype=object)
        for i, v in enumerate(per_node):
            if v is not None:
                out[i] = int(v)
        return out
    return per_node


# --------------------------------------------------------------------------- Graph


def _plural(k, word):
    return f"{k} {word}" + ("" if k == 1 else "s")


def read_csv(edges_path, labels_path=None, *, weight=None, directed=False, graph_cls=None, **kwargs):
    """Read a labelled graph from an edge CSV and a label CSV (see the module docstring).

    Parameters
    ----------
    edges_path, labels_path : str or pathlib.Path
        ``source,target[,weight]`` and ``node,label`` files with header rows.
    weight : None, False or str, default None
        ``None``: the ``weight`` column, or the third column of a
        three-column file, else unweighted; ``False``: unweighted; a string:
        that column.
    directed : bool, default False
        Read rows as ``a -> b`` and symmetrise with ``max(S, S^T)``.
    source, target, node, label : str
        Column names (defaults as written).
    header : bool, default True
        ``False`` reads both files by position.
    sep : str, default ","
        Field separator (``"\\t"`` for TSV).
    class_names : list of str, optional
        The classes in the order wanted (every label must be one of them;
        each is kept, even without a node). Default: the labels found, sorted.
    **kwargs
        Passed to :meth:`Graph.from_edges <graphsel_lib.Graph.from_edges>`
        (``lcc``, ``name``, ...); ``name`` defaults to the edge file's stem.

    Returns
    -------
    Graph
        With ``node_ids`` (also ``node_names``) the names of the kept nodes
        and ``class_names`` the label strings; ``info["read"]`` holds the
        counts of what was read and dropped.
    """
    if graph_cls is None:  # the readers build graphs through the class they are given: no import back
        raise TypeError(
            "graph_cls is required here: read a labelled graph with graphsel_lib.Graph.read_csv(...) or "
            "Graph.read_graphml(...), which pass it"
        )
    csv_opts = {k: kwargs.pop(k) for k in _CSV_OPTIONS if k in kwargs}
    if labels_path is None:
        raise ValueError(
            "labels_path is required: a Graph's classes come from a CSV with columns node,label, one row per "
            "node whose label you know (no row, or an empty label, marks an unlabelled node); to read the edges of an "
            "unlabelled graph use graphsel_lib.readers.read_edge_csv"
        )
    edge_opts = {k: csv_opts[k] for k in ("source", "target", "header", "sep") if k in csv_opts}
    label_opts = {k: csv_opts[k] for k in ("node", "label", "header", "sep") if k in csv_opts}
    edges, w, names, n_loops = read_edge_csv(edges_path, weight=weight, **edge_opts)
    nodes, labels, lines = read_label_csv(labels_path, **label_opts)
    int_names = names.dtype == np.int64
    per_node, counts = _match_labels(names, int_names, nodes, labels, lines, Path(labels_path))
    name = kwargs.pop("name", Path(edges_path).stem)
    if "node_ids" in kwargs:
        raise TypeError("read_csv takes the node names from the files; do not pass node_ids")

    parts = []
    if n_loops:
        parts.append(
            f"dropped {_plural(n_loops, 'self-loop')} (rows whose source is their target: they do not change L = D - S)"
        )
    unknown = counts["unknown"]
    lookalikes = _numeric_lookalikes(unknown, names)
    hint = (
        f": {', '.join(f'{a!r} in the label file is {b!r} in the edge file' for a, b in lookalikes)} only as a "
        "number; write each node's name the same way in both files"
        if lookalikes
        else ""
    )
    if lookalikes and all(v is None for v in per_node):
        raise ValueError(
            f"no node of {str(edges_path)!r} has a label: the label file names them differently{hint}"
        )
    if unknown.size:
        parts.append(
            f"ignored {_plural(unknown.size, 'label row')} naming nodes that are in no edge "
            f"(e.g. {_examples(unknown)}){hint}"
        )
    if counts["repeats"]:
        parts.append(f"ignored {_plural(counts['repeats'], 'repeated label row')} (same node, same label)")
    if counts["no_row"] or counts["empty"]:
        marked = (
            f", {counts['markers']} of them a missing-value marker such as NaN" if counts["markers"] else ""
        )
        parts.append(
            f"{counts['no_row'] + counts['empty']} of {names.size} nodes are unlabelled "
            f"({counts['no_row']} without a label row, {counts['empty']} with an empty label{marked}): "
            "kept with their edges, g.labels is -1 on them"
        )
    if counts["minus_one"]:
        parts.append(
            f"{_plural(counts['minus_one'], 'node')} labelled -1 are unlabelled: -1 marks a node without a label "
            "everywhere in the library (as do '', NaN, None, null, NA, ...: graphsel_lib.readers.MISSING_LABELS); "
            "if -1 is one of your classes (labels ±1), rename it in the file, e.g. to neg"
        )
    if parts:
        warnings.warn(f"{name}: " + "; ".join(parts), DataWarning, stacklevel=3)

    info = dict(kwargs.pop("info", None) or {})
    node_ids = names if int_names else names.astype(object)
    with warnings.catch_warnings():  # the unlabelled nodes were counted above, by kind
        warnings.simplefilter("ignore", UnlabelledNodesWarning)
        g = graph_cls.from_edges(
            edges,
            _class_codes(per_node, kwargs.get("class_names"), labels_path),
            weights=w,
            directed=directed,
            name=name,
            node_ids=node_ids,
            info=info,
            **kwargs,
        )
    unlabelled = counts["no_row"] + counts["empty"]
    parts = g if isinstance(g, list) else [g]  # lcc="split" (Graph.read_csv_components): one per component
    kept = sum(p.n_nodes for p in parts)
    for p in parts:
        p.info["read"] = {
            "edges_path": str(edges_path),
            "labels_path": str(labels_path),
            "edge_rows": int(edges.shape[0] + n_loops),
            "self_loops": int(n_loops),
            "nodes_in_edges": int(names.size),
            "label_rows": int(nodes.size),
            "unknown_label_rows": int(unknown.size),
            "repeated_label_rows": int(counts["repeats"]),
            "unlabelled_nodes": int(unlabelled),
            "outside_lcc": int(names.size - kept),
            "nodes": int(p.n_nodes),
            "unlabelled_kept": int(p.n_nodes - p.n_labelled),
        }
    return g


def read_graphml(path, label_attr="label", *, weight="weight", graph_cls=None, **kwargs):
    """Read a labelled graph from a GraphML file (through networkx).

    Nodes keep their GraphML ids (``g.node_names``). A node without the
    ``label_attr`` attribute, or with an empty one, is unlabelled and kept
    (said in a :class:`~graphsel_lib.DataWarning`, as are the self-loops dropped), as is a
    node whose label is a missing-value marker (:data:`MISSING_LABELS`: ``-1``, ``NaN``,
    ``None``, ... in any case); labels otherwise follow
    :meth:`Graph.from_networkx <graphsel_lib.Graph.from_networkx>` (strings are class
    names; numbers must be integers). A weight attribute of type string is refused
    (declare it ``attr.type="double"``, or pass ``weight=None``).
    A directed file is refused unless ``symmetrize=True`` (``max(S, S^T)``).
    Keyword arguments go to :meth:`Graph.from_networkx`.
    """
    import networkx as nx

    if graph_cls is None:  # the readers build graphs through the class they are given: no import back
        raise TypeError(
            "graph_cls is required here: read a labelled graph with graphsel_lib.Graph.read_csv(...) or "
            "Graph.read_graphml(...), which pass it"
        )
    path = _check_file(path, "GraphML file")
    try:
        G = nx.read_graphml(path)
    except Exception as exc:  # noqa: BLE001 - ParseError, NetworkXError, KeyError... all mean a bad file
        raise ValueError(f"GraphML file {str(path)!r} cannot be read: {exc}") from exc
    if G.number_of_nodes() == 0:
        raise ValueError(f"GraphML file {str(path)!r} holds no nodes")
    name = kwargs.pop("name", str(G.name) if G.graph.get("name") else path.stem)
    check_weight_attribute(
        G,
        weight,
        where=f"GraphML file {str(path)!r}",
        fix=f'declare the key of {weight!r} with attr.type="double" in the file, or pass weight=None to ignore '
        "the weights",
    )
    unlabelled = 0
    for _, data in G.nodes(data=True):
        if is_missing_label(data.get(label_attr)):  # no attribute, '', '-1', 'NaN', 'None', ...: unlabelled
            data[label_attr] = None
            unlabelled += 1
    loops = list(nx.selfloop_edges(G))
    parts = []
    if loops:
        parts.append(f"dropped {_plural(len(loops), 'self-loop')}")
    if unlabelled:
        parts.append(
            f"{unlabelled} of {G.number_of_nodes()} nodes have no {label_attr!r} (unlabelled, kept with their edges)"
        )
    if parts:
        warnings.warn(f"{name}: " + "; ".join(parts), DataWarning, stacklevel=3)
    G.remove_edges_from(loops)
    with warnings.catch_warnings():  # the unlabelled nodes were counted above
        warnings.simplefilter("ignore", UnlabelledNodesWarning)
        return graph_cls.from_networkx(G, label_attr, weight=weight, name=name, **kwargs)
