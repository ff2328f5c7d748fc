"""``load_dataset``: raw files -> parser -> the gu2013 preprocessing -> a validated :class:`Graph`.

``load_dataset(name)`` returns a symmetric CSR float64 weight matrix with zero
diagonal, restricted to its largest connected component (gu2013 Sec. 6.1:
``S <- max(S, S^T)``, self-loops dropped, LCC), labels remapped to ``0..K-1``
over the classes present, class names, node ids, features where the raw data
have them, and an ``info`` dict with source, licence, citation, parameters and
raw-file checksums. Checksum verifications and parsed graphs are memoised
in-process (a fresh copy is returned each time); :func:`clear_cache` forgets both.
"""

from __future__ import annotations

import collections
import copy
import os
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from .._validation import DataWarning, as_real_matrix, check_class_labels
from ..graph import Graph, dropped_nodes_message, n_components, nodes_to_keep
from . import fetch
from .fetch import get_raw_file, stat_key
from .registry import RAW_FILES, DatasetSpec, dataset_info

__all__ = ["clear_cache", "fetch_dataset", "fetch_file", "load_dataset"]

_GRAPHS: collections.OrderedDict = collections.OrderedDict()  # LRU of parsed graphs
_GRAPH_CACHE_SIZE = 16


def clear_cache() -> None:
    """Forget memoised checksum verifications and parsed graphs (in-process only).

    The next :func:`load_dataset` hashes its raw files and parses them again (for a file changed on disk
    between two loads in one process).
    """
    fetch._VERIFIED.clear()
    _GRAPHS.clear()


def fetch_file(
    relpath: str, *, data_home: str | os.PathLike[str] | None = None, download: bool = True
) -> Path:
    """Path of the verified raw file ``"<subdir>/<filename>"`` (downloading it if needed).

    Parameters
    ----------
    relpath : str
        A key of :data:`RAW_FILES`, e.g. ``"karate/karate.gml"``.
    data_home : str or path, optional
        Download cache folder, instead of ``paths.cache_dir() / "raw"``.
    download : bool, default True
        Download a missing file; otherwise raise ``FileNotFoundError``.

    Returns
    -------
    pathlib.Path

    Raises
    ------
    KeyError
        If ``relpath`` is not in :data:`RAW_FILES`.
    FileNotFoundError
        If the file is absent everywhere and ``download=False``.
    DownloadError
        If the download fails (offline, HTTP error, timeout).
    ValueError
        On a checksum mismatch (of a local file or of the download).
    """
    if relpath not in RAW_FILES:
        raise KeyError(f"unknown raw file {relpath!r}; known: {sorted(RAW_FILES)}")
    return get_raw_file(RAW_FILES[relpath], data_home=data_home, download=download)


def fetch_dataset(
    name: str, *, data_home: str | os.PathLike[str] | None = None, download: bool = True
) -> dict[str, Path]:
    """Locate (and download if needed) every raw file of dataset ``name``.

    Parameters
    ----------
    name : str
        A name of :func:`list_datasets`.
    data_home : str or path, optional
        Download cache folder, instead of ``paths.cache_dir() / "raw"``.
    download : bool, default True
        Download missing files; otherwise raise ``FileNotFoundError``.

    Returns
    -------
    dict of str to pathlib.Path
        ``{relpath: path}``; empty for a generated dataset.

    Raises
    ------
    ValueError
        Unknown name, or a checksum mismatch.
    FileNotFoundError, DownloadError
        As :func:`fetch_file`.

    Examples
    --------
    >>> fetch_dataset("planted-partition")
    {}
    """
    spec = dataset_info(name)
    return {rp: fetch_file(rp, data_home=data_home, download=download) for rp in spec.files}


def _resolve_params(spec: DatasetSpec, params: dict) -> dict:
    unknown = sorted(set(params) - set(spec.params))
    if unknown:
        allowed = ", ".join(spec.params) if spec.params else "none"
        raise TypeError(
            f"load_dataset({spec.name!r}) got unexpected keyword argument(s) {unknown}; it accepts: {allowed}"
        )
    out = dict(spec.params)
    out.update(params)
    return out


def _graph_name(spec, params):
    if not params:
        return spec.name
    return spec.name + "[" + ",".join(f"{k}={v}" for k, v in params.items()) + "]"


def load_dataset(
    name: str,
    *,
    lcc: bool = True,
    data_home: str | os.PathLike[str] | None = None,
    download: bool = True,
    **params: Any,
) -> Graph:
    """Load a dataset of :func:`list_datasets` as a validated :class:`Graph`.

    Parameters
    ----------
    name : str
        Dataset name, e.g. ``"cora"``, ``"pubmed"``, ``"coauthor"``, ``"usps"``.
    lcc : bool, default True
        Keep the largest connected component (gu2013 Sec. 6.1). With
        ``lcc=False`` a disconnected dataset raises ``ValueError``.
        Nodes without a label (``-1``, ``NaN`` or ``None``, the library's
        convention; CiteSeer has 15) are dropped first: a benchmark scores
        every node (a Graph of your own keeps them). The numbers dropped are in
        ``g.info["nodes_dropped"]``; a :class:`DataWarning` reports them when
        a class vanishes, or when the load is not the registry's (non-default
        parameters) whose sizes are checked against ``dataset_info(name).expected``.
    data_home : str or Path, optional
        Download cache folder, instead of ``paths.cache_dir() / "raw"``.
        ``$GRAPHSEL_DATA`` and ``../shared/data`` are searched first.
    download : bool, default True
        Download missing raw files; otherwise raise ``FileNotFoundError``.
    **params
        Dataset parameters with their defaults in ``dataset_info(name).params``:
        ``k`` for ``usps``/``digits``/``digits-3-8``; ``n_blocks``,
        ``block_size``, ``p_in``, ``p_out``, ``seed`` for ``planted-partition``.
        They are part of the graph's identity: ``g.name`` (e.g.
        ``"usps[k=10]"``) and ``g.info["params"]``.

    Returns
    -------
    Graph
        ``adjacency`` symmetric CSR float64, zero diagonal, connected;
        ``labels`` in ``0..K-1`` (classes absent after preprocessing are
        dropped and the rest renumbered in their original order);
        ``class_names``; ``features`` (or ``None``); ``node_ids`` (original
        identifiers); ``info`` with source, licence, citation, params, files.
        A fresh copy on every call (parsed graphs are memoised in-process).

    Raises
    ------
    ValueError
        Unknown name, checksum mismatch of a raw file, a graph whose size
        differs from the registry's expected size, or a disconnected graph
        with ``lcc=False``.
    TypeError
        Unknown keyword argument for this dataset.
    FileNotFoundError
        A raw file is missing and ``download=False``.
    DownloadError
        A download failed (offline, HTTP error, timeout).

    Examples
    --------
    >>> g = load_dataset("karate")
    >>> g.n_nodes, g.n_edges, g.class_names
    (34, 78, ['Mr. Hi', 'Officer'])
    """
    spec = dataset_info(name)
    params = _resolve_params(spec, params)
    files = {rp: get_raw_file(RAW_FILES[rp], data_home=data_home, download=download) for rp in spec.files}
    key = (
        spec.name,
        bool(lcc),
        tuple(sorted((k, repr(v)) for k, v in params.items())),
        tuple((rp, *stat_key(p)) for rp, p in sorted(files.items())),
    )
    g = _GRAPHS.get(key)
    if g is None:
        g = _build(spec, files, params, lcc=lcc)
        _GRAPHS[key] = g
        while len(_GRAPHS) > _GRAPH_CACHE_SIZE:
            _GRAPHS.popitem(last=False)
    else:
        _GRAPHS.move_to_end(key)
    return copy.deepcopy(g)


def _build(spec: DatasetSpec, files: dict, params: dict, *, lcc: bool) -> Graph:
    out = spec.parser(files, **params)
    info = dict(out.get("info") or {})
    diagonal = out.get("diagonal")
    S = as_real_matrix(out["S"], f"adjacency of {spec.name!r}", sparse=True, square=True, copy=False)
    class_names = list(out["class_names"])
    n_raw = S.shape[0]
    labels = check_class_labels(
        out["labels"], n_raw, n_classes=len(class_names), name=f"labels of {spec.name!r}"
    )
    features = out.get("features")
    node_ids = out.get("node_ids")

    # gu2013 Sec. 6.1: undirected S <- max(S, S^T), no self-loops.
    S = S.maximum(S.T).tocsr()
    S.setdiag(0)
    S.eliminate_zeros()

    # unlabelled nodes (CiteSeer: 15 isolated ones) are dropped, then (lcc) all but the largest component
    keep, report = nodes_to_keep(S, labels, lcc=lcc, drop_unlabelled=True)  # a benchmark scores every node
    S = S[keep][:, keep].tocsr()
    if not lcc:
        k = n_components(S)
        if k != 1:
            raise ValueError(
                f"dataset {spec.name!r} is disconnected ({k} connected components); "
                "load it with lcc=True to keep the largest component"
            )
    checked = spec.expected is not None and params == spec.params  # sizes checked by _check_expected
    message = dropped_nodes_message(report, class_names)
    if message and (report["vanished"] or not checked):
        warnings.warn(f"{_graph_name(spec, params)}: {message}", DataWarning, stacklevel=3)
    info["nodes_dropped"] = {"unlabelled": report["unlabelled"], "outside_lcc": report["outside_lcc"]}
    labels = labels[keep]
    features = None if features is None else features[keep]
    node_ids = None if node_ids is None else np.asarray(node_ids)[keep]

    present = np.flatnonzero(np.bincount(labels, minlength=len(class_names)))
    remap = np.full(len(class_names), -1, dtype=np.int64)
    remap[present] = np.arange(present.size)
    labels = remap[labels]
    class_names = [class_names[i] for i in present]

    info.update(
        dataset=spec.name,
        description=spec.description,
        params=dict(params),
        lcc=bool(lcc),
        n_nodes_raw=int(n_raw),
        source={
            rp: {
                "url": RAW_FILES[rp].url,
                "repo": RAW_FILES[rp].repo,
                "commit": RAW_FILES[rp].commit,
                "sha256": RAW_FILES[rp].sha256,
                "path": str(p),
            }
            for rp, p in files.items()
        },
        original_url=spec.original_url,
        licence=spec.licence,
        citation=spec.citation,
        redistributable=spec.redistributable,
        notes=spec.notes,
    )
    if diagonal is not None:
        diag_nnz = int(np.count_nonzero(np.asarray(diagonal)[keep]))
        info["nnz_plus_diagonal"] = int(S.nnz) + diag_nnz
        info["links_note"] = "nnz + diagonal (authors' own paper counts) = gu2013 Table 1 'links' (7507)"

    g = Graph(S, labels, class_names, _graph_name(spec, params), features, node_ids, info)
    if spec.expected is not None and params == spec.params:
        _check_expected(spec, g)
    return g


def _check_expected(spec: DatasetSpec, g: Graph):
    exp = spec.expected
    if exp is None:
        return
    got = (g.n_nodes, g.n_edges, g.n_classes)
    want = (exp.n_nodes, exp.n_edges, exp.n_classes)
    bad = [
        f"{lbl} {gv} (expected {wv})"
        for lbl, gv, wv in zip(("nodes", "edges", "classes"), got, want, strict=True)
        if wv is not None and gv != wv
    ]
    if bad:
        raise ValueError(
            f"dataset {spec.name!r} built with unexpected size: {', '.join(bad)}. The raw files passed their "
            "checksums, so the parser or a library (networkx, scikit-learn) changed; refusing to return a "
            "graph that differs from the registry."
        )
