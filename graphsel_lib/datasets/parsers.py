"""Parsers from raw files to ``dict(S, labels, class_names, [features, node_ids, info, diagonal])``.

A parser takes ``({relpath: Path}, **params)`` and returns ``S`` (sparse, may
be directed or have self-loops), ``labels`` (int, -1 = unlabelled),
``class_names``, and optionally ``features``, ``node_ids``, ``info`` and
``diagonal`` (self-weights that gu2013 counts in its "links", reported in
``info`` but not kept in the Graph). The loader symmetrises, drops self-loops
and reduces to the largest component.
"""

from __future__ import annotations

import collections
import gzip
import pickle
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from .._validation import check_integer, check_probability
from ..knn import knn_adjacency


def _edges_to_csr(rows, cols, n, weights=None):
    rows = np.asarray(rows, dtype=np.int64)
    cols = np.asarray(cols, dtype=np.int64)
    w = np.ones(rows.size) if weights is None else np.asarray(weights, dtype=np.float64)
    return sp.coo_matrix((w, (rows, cols)), shape=(n, n)).tocsr()


def _count_self_loops(S):
    return int(np.count_nonzero(sp.csr_matrix(S).diagonal()))


class _PlanetoidUnpickler(pickle.Unpickler):
    """Unpickler for the Planetoid Python-2 pickles that only builds known types.

    Defence in depth: the files are checksum-verified *before* they are
    unpickled (unpickling runs code), and this class additionally refuses any
    global that is not a numpy array/dtype, a scipy CSR matrix, a list or a
    defaultdict.
    """

    def find_class(self, module, name):
        if (module, name) in (("numpy", "dtype"), ("numpy", "ndarray")):
            return getattr(np, name)
        if name == "_reconstruct" and module in ("numpy.core.multiarray", "numpy._core.multiarray"):
            core = getattr(np, "_core", None)
            if core is None:  # numpy < 2
                from numpy.core import multiarray as core_ma  # pragma: no cover
            else:
                from numpy._core import multiarray as core_ma
            return core_ma._reconstruct
        if module in ("scipy.sparse.csr", "scipy.sparse._csr", "scipy.sparse") and name == "csr_matrix":
            return sp.csr_matrix
        if module in ("__builtin__", "builtins") and name == "list":
            return list
        if module == "collections" and name == "defaultdict":
            return collections.defaultdict
        raise pickle.UnpicklingError(f"refusing to unpickle {module}.{name} from a Planetoid file")


def _load_planetoid_pickle(path):
    # Only called on files whose SHA-256 has been verified (see _get_raw_file).
    with open(path, "rb") as fh:
        return _PlanetoidUnpickler(fh, encoding="latin1").load()


def _planetoid(files, name, *, with_features):
    """Planetoid graph + labels (+ features); unlabelled nodes get label -1."""
    get = {part: files[f"planetoid/ind.{name}.{part}"] for part in ("ally", "ty", "graph", "test.index")}
    ally = _load_planetoid_pickle(get["ally"])
    ty = _load_planetoid_pickle(get["ty"])
    graph = _load_planetoid_pickle(get["graph"])
    test_idx = np.loadtxt(get["test.index"], dtype=np.int64, ndmin=1)
    n = max(len(graph), int(max(graph)) + 1, int(test_idx.max()) + 1)
    labels = np.full(n, -1, dtype=np.int64)
    labels[: ally.shape[0]] = np.argmax(ally, axis=1)
    has = ty.sum(axis=1) > 0
    labels[test_idx[has]] = np.argmax(ty[has], axis=1)
    rows = np.fromiter((u for u, vs in graph.items() for _ in vs), dtype=np.int64)
    cols = np.fromiter((v for vs in graph.values() for v in vs), dtype=np.int64)
    n = max(n, int(cols.max()) + 1)
    if labels.shape[0] < n:
        labels = np.concatenate([labels, np.full(n - labels.shape[0], -1)])
    S = _edges_to_csr(rows, cols, n)
    S.data[:] = 1.0  # repeated adjacency-list entries are one link
    features = None
    if with_features:
        allx = sp.csr_matrix(_load_planetoid_pickle(files[f"planetoid/ind.{name}.allx"]))
        tx = sp.csr_matrix(_load_planetoid_pickle(files[f"planetoid/ind.{name}.tx"]))
        X = sp.lil_matrix((n, allx.shape[1]))
        X[: allx.shape[0]] = allx
        X = X.tocsr()
        # rows of tx belong to the nodes test_idx (in file order)
        P = sp.coo_matrix(
            (np.ones(len(test_idx)), (test_idx, np.arange(len(test_idx)))), shape=(n, tx.shape[0])
        )
        features = (X + P.tocsr() @ tx).astype(np.float64).tocsr()
    return S, labels, features


def _parse_cora(files):
    with np.load(files["cora/cora.npz"], allow_pickle=False) as z:
        A = sp.csr_matrix((z["adj_data"], z["adj_indices"], z["adj_indptr"]), shape=tuple(z["adj_shape"]))
        X = sp.csr_matrix((z["attr_data"], z["attr_indices"], z["attr_indptr"]), shape=tuple(z["attr_shape"]))
        labels = z["labels"].astype(np.int64)
        node_ids = z["node_names"].astype(str)
        class_names = [str(c) for c in z["class_names"]]
    return dict(
        S=A,
        labels=labels,
        class_names=class_names,
        features=X.astype(np.float64),
        node_ids=node_ids,
        info={"directed_links": int(A.nnz)},
    )


def _planetoid_dataset(S, labels, class_names, *, features=None, **notes):
    """The parsed data set of a Planetoid graph: every node (``-1`` unlabelled), self-loops counted, ``notes``."""
    out = dict(S=S, labels=labels, class_names=class_names, node_ids=np.arange(S.shape[0]))
    if features is not None:
        out["features"] = features
    out["info"] = {"self_loops_dropped": _count_self_loops(S), **notes}
    return out


def _parse_pubmed(files):
    S, labels, _ = _planetoid(files, "pubmed", with_features=False)
    return _planetoid_dataset(
        S,
        labels,
        ["0", "1", "2"],
        class_names_note=(
            "Planetoid one-hot index order; the LINQS classes are 'Diabetes Mellitus, Experimental', "
            "'Diabetes Mellitus Type 1' and 'Diabetes Mellitus Type 2', but which index is which could "
            "not be checked (Pubmed-Diabetes.NODE.paper.tab is unavailable)."
        ),
        features_note="no features: Planetoid ind.pubmed.allx is unavailable",
    )


# Planetoid CiteSeer one-hot index -> LINQS class, inferred from the class sizes
# (all distinct): 249 AI, 590 ML, 668 IR, 701 DB, 596 Agents, 508 HCI.
_CITESEER_CLASSES = ["AI", "ML", "IR", "DB", "Agents", "HCI"]


def _parse_citeseer(files):
    S, labels, X = _planetoid(files, "citeseer", with_features=True)
    return _planetoid_dataset(
        S,
        labels,
        _CITESEER_CLASSES,
        features=X,
        unlabelled_nodes_dropped=int(np.sum(labels < 0)),
        lcc_with_unlabelled_nodes="2120 nodes / 3679 edges (10 of them unlabelled), see notes",
        class_names_note="index -> LINQS class inferred from class sizes (249/590/668/701/596/508)",
    )


def _parse_polblogs(files):
    with np.load(files["fastonl/political-blog.npz"], allow_pickle=False) as z:
        S = sp.csr_matrix((z["data"], z["indices"], z["indptr"]), shape=tuple(z["shape"]))
        labels = z["labels"].astype(np.int64)
    S.data = (S.data > 0).astype(np.float64)
    return dict(
        S=S,
        labels=labels,
        class_names=["liberal", "conservative"],
        node_ids=np.arange(S.shape[0]),
        info={"self_loops_dropped": _count_self_loops(S)},
    )


_COAUTHOR_CLASSES = ["Database", "Data Mining", "AI/ML", "Information Retrieval"]


def _parse_coauthor(files):
    lab = np.loadtxt(
        files["dblp_four_area/author_label.txt"],
        dtype=np.int64,
        delimiter="\t",
        usecols=(0, 1),
        ndmin=2,
        encoding="latin-1",
    )
    pa = np.loadtxt(files["dblp_four_area/paper_author.txt"], dtype=np.int64, delimiter="\t", ndmin=2)
    authors, labels = lab[:, 0], lab[:, 1]
    if np.unique(authors).size != authors.size:
        raise ValueError("author_label.txt lists an author twice")
    pos = {int(a): i for i, a in enumerate(authors)}
    keep = np.array([int(a) in pos for a in pa[:, 1]])
    papers, pidx = np.unique(pa[keep, 0], return_inverse=True)
    aidx = np.array([pos[int(a)] for a in pa[keep, 1]], dtype=np.int64)
    # B[p, a] = 1 if paper p lists author a; (B^T B)_ij = number of shared papers,
    # (B^T B)_ii = number of papers of author i (gu2013 counts it in "links").
    B = sp.csr_matrix((np.ones(aidx.size), (pidx, aidx)), shape=(papers.size, authors.size))
    B.data[:] = 1.0
    C = (B.T @ B).tocsr()
    diag = C.diagonal()
    return dict(S=C, labels=labels, class_names=_COAUTHOR_CLASSES, node_ids=authors, diagonal=diag)


_WEBKB_CLASSES = ["course", "faculty", "student", "project", "staff"]


def _parse_webkb(files, university, *, graph="links"):
    content = files[f"webkb/{university}.content"]
    cites = files[f"webkb/{university}.cites"]
    ids, labels, rows = [], [], []
    with open(content, encoding="utf-8") as fh:
        for line in fh:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 3:
                continue
            ids.append(parts[0])
            labels.append(_WEBKB_CLASSES.index(parts[-1]))
            rows.append(np.array(parts[1:-1], dtype=np.int8))
    X = sp.csr_matrix(np.vstack(rows), dtype=np.float64)
    pos = {u: i for i, u in enumerate(ids)}
    r, c = [], []
    with open(cites, encoding="utf-8") as fh:
        for line in fh:
            parts = line.split()
            if len(parts) != 2:
                continue
            cited, citing = parts
            r.append(pos[citing])
            c.append(pos[cited])
    S = _edges_to_csr(r, c, len(ids))
    S.data[:] = 1.0
    if graph == "colinks":
        # gaertner2005 Sec. 6: pages are similar when they link to, or are linked from, the same pages;
        # S_ij = #common out-links + #common in-links (A A^T + A^T A, A_ij = 1 if i links to j)
        S.setdiag(0)
        S.eliminate_zeros()
        S = (S @ S.T + S.T @ S).tocsr()
    elif graph != "links":
        raise ValueError(f"graph must be 'links' or 'colinks', got {graph!r}")
    return dict(
        S=S,
        labels=np.array(labels),
        class_names=_WEBKB_CLASSES,
        features=X,
        node_ids=np.array(ids),
        info={"self_loops_dropped": _count_self_loops(S)},
    )


def _read_usps(path):
    with gzip.open(path, "rb") as fh:
        vals = np.array(fh.read().split(), dtype=np.float64)
    if vals.size % 257:
        raise ValueError(f"{path}: expected rows of 257 numbers (digit + 16x16 pixels)")
    return vals.reshape(-1, 257)


def _parse_usps(files, *, k):
    A = np.vstack([_read_usps(files["usps/zip.train.gz"]), _read_usps(files["usps/zip.test.gz"])])
    y = A[:, 0].astype(np.int64)
    X = A[:, 1:]
    # The file prints 4 decimals: scale to exact integers so k-NN ties are exact (see knn_adjacency).
    Xi = np.rint(X * 10_000)
    S = knn_adjacency(Xi, k)
    return dict(
        S=S,
        labels=y,
        class_names=[str(d) for d in range(10)],
        features=X,
        node_ids=np.arange(X.shape[0]),
        info={"n_train": 7291, "n_test": 2007},
    )


def _parse_epinions(files):
    import zipfile

    with zipfile.ZipFile(files["epinions/soc-Epinions1.txt.zip"]) as z:
        text = z.read("soc-Epinions1.txt").decode("ascii")
    E = np.loadtxt(text.splitlines(), dtype=np.int64, comments="#", ndmin=2)
    n = int(E.max()) + 1
    S = _edges_to_csr(E[:, 0], E[:, 1], n)
    S.data[:] = 1.0
    return dict(
        S=S,
        labels=np.zeros(n, dtype=np.int64),
        class_names=["unlabelled"],
        node_ids=np.arange(n),
        info={"directed_edges": int(E.shape[0]), "labels_note": "no node labels: all 0 (scaling only)"},
    )


def _standardize(X):
    """Columns to zero mean, unit variance (constant columns left at 0)."""
    X = np.asarray(X, dtype=np.float64)
    sd = X.std(axis=0)
    return (X - X.mean(axis=0)) / np.where(sd > 0, sd, 1.0)


def _read_csv_rows(path, *, skip_header=False):
    lines = Path(path).read_text().strip().splitlines()
    return [ln.strip().split(",") for ln in lines[1 if skip_header else 0 :] if ln.strip()]


def _uci_table(name, files):
    """(X, labels, class_names, note) of one UCI set, as gaertner2005 Table 1 uses it."""
    f = {rp.split("/", 1)[1]: p for rp, p in files.items()}
    if name == "heart":
        rows = [r for r in _read_csv_rows(f["processed.cleveland.data"]) if "?" not in r]
        A = np.array(rows, dtype=np.float64)
        return (
            A[:, :-1],
            (A[:, -1] > 0).astype(np.int64),
            ["absent", "present"],
            "6 rows with '?' dropped; num > 0",
        )
    if name == "housing":
        A = np.loadtxt(f["housing.data"])
        cut = float(np.median(A[:, -1]))
        return (
            A[:, :-1],
            (A[:, -1] > cut).astype(np.int64),
            ["MEDV <= median", "MEDV > median"],
            (f"regression target MEDV binarised at its median {cut:g}"),
        )
    if name in ("ionosphere", "sonar", "pima"):
        fn = {"ionosphere": "ionosphere.csv", "sonar": "sonar.csv", "pima": "pima-indians-diabetes.data.csv"}[
            name
        ]
        rows = _read_csv_rows(f[fn])
        X = np.array([r[:-1] for r in rows], dtype=np.float64)
        raw = [r[-1] for r in rows]
        names = sorted(set(raw))
        return X, np.array([names.index(v) for v in raw]), names, ""
    if name == "glass":
        A = np.array(_read_csv_rows(f["glass.data"]), dtype=np.float64)
        types = sorted(set(A[:, -1].astype(int)))
        return (
            A[:, 1:-1],
            np.searchsorted(types, A[:, -1].astype(int)),
            [f"type {t}" for t in types],
            "Id dropped",
        )
    if name == "tictactoe":
        rows = _read_csv_rows(f["tic-tac-toe.data"], skip_header=True)
        X = np.array([[float(c == s) for c in r[:-1] for s in "xob"] for r in rows])
        names = ["negative", "positive"]
        return X, np.array([names.index(r[-1]) for r in rows]), names, "added header skipped; one-hot x/o/b"
    if name == "cmc":
        A = np.array(_read_csv_rows(f["cmc.data"], skip_header=True), dtype=np.float64)
        return (
            A[:, :-1],
            A[:, -1].astype(np.int64) - 1,
            ["no use", "long-term", "short-term"],
            "added header skipped",
        )
    from sklearn import datasets as skd

    d = {"wine": skd.load_wine, "breast-cancer": skd.load_breast_cancer}[name]()
    return d.data, d.target.astype(np.int64), [str(c) for c in d.target_names], "scikit-learn copy"


def _parse_uci(files, name, *, k):
    X, y, class_names, note = _uci_table(name, files)
    # z-score so that no attribute dominates the distances; tic-tac-toe's one-hot columns already share
    # one scale and keep integer distances, so its k-NN ties are exact (see knn_adjacency)
    Z = X if name == "tictactoe" else _standardize(X)
    return dict(
        S=knn_adjacency(Z, k),
        labels=y,
        class_names=class_names,
        features=X,
        node_ids=np.arange(X.shape[0]),
        info={"preprocessing": note},
    )


def _parse_karate(files):
    import networkx as nx

    G = nx.karate_club_graph()
    nodes = list(G.nodes)
    S = nx.to_scipy_sparse_array(G, nodelist=nodes, weight=None, format="csr")
    clubs = sorted({G.nodes[v]["club"] for v in nodes})
    labels = np.array([clubs.index(G.nodes[v]["club"]) for v in nodes])
    return dict(
        S=sp.csr_matrix(S, dtype=np.float64),
        labels=labels,
        class_names=clubs,
        node_ids=np.array(nodes),
        info={"weights_note": "unweighted (networkx's interaction-count weights ignored)"},
    )


def _parse_digits(files, *, k):
    from sklearn.datasets import load_digits

    d = load_digits()
    X = d.data.astype(np.float64)  # integers 0..16: exact distances
    return dict(
        S=knn_adjacency(X, k),
        labels=d.target.astype(np.int64),
        class_names=[str(c) for c in range(10)],
        features=X,
        node_ids=np.arange(X.shape[0]),
    )


def _parse_digits_3_8(files, *, k):
    from sklearn.datasets import load_digits

    d = load_digits()
    keep = np.flatnonzero(np.isin(d.target, [3, 8]))
    X = d.data[keep].astype(np.float64)
    y = (d.target[keep] == 8).astype(np.int64)
    return dict(S=knn_adjacency(X, k), labels=y, class_names=["3", "8"], features=X, node_ids=keep)


def _parse_planted_partition(files, *, n_blocks, block_size, p_in, p_out, seed):
    import networkx as nx

    n_blocks = check_integer(n_blocks, "n_blocks", minimum=1)
    block_size = check_integer(block_size, "block_size", minimum=1)
    p_in, p_out = check_probability(p_in, "p_in"), check_probability(p_out, "p_out")
    seed = check_integer(seed, "seed")  # part of the graph's name: an int, not any numpy seed
    G = nx.planted_partition_graph(n_blocks, block_size, p_in, p_out, seed=seed)
    n = G.number_of_nodes()
    labels = np.empty(n, dtype=np.int64)
    for b, block in enumerate(G.graph["partition"]):
        labels[list(block)] = b
    S = nx.to_scipy_sparse_array(G, nodelist=range(n), weight=None, format="csr")
    return dict(
        S=sp.csr_matrix(S, dtype=np.float64),
        labels=labels,
        class_names=[f"block {b}" for b in range(n_blocks)],
        node_ids=np.arange(n),
    )
