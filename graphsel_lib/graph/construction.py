"""The helpers of :class:`Graph`'s constructors: edge lists, node selection, labelled/unlabelled splits."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph

if TYPE_CHECKING:
    pass
from .._validation import (
    UNLABELLED,
    DataWarning,
    as_real_matrix,
)
from .components import largest_connected_component, n_components


def _adjacency_kwargs(kwargs):
    """The keyword arguments of :meth:`Graph.from_adjacency`, with its defaults; unknown ones raise."""
    out = dict(
        class_names=None, name="graph", lcc=True, symmetrize=False, features=None, node_ids=None, info=None
    )
    unknown = sorted(set(kwargs) - set(out))
    if unknown:
        raise TypeError(
            f"unexpected keyword argument(s) {unknown}; Graph.from_adjacency accepts {sorted(out)}"
        )
    out.update(kwargs)
    return out


def _pair_sums(r, c, w, n):
    """CSR matrices of the summed weights and of the counts of the rows ``(r, c)``."""
    A = sp.coo_matrix((w, (r, c)), shape=(n, n)).tocsr()
    C = sp.coo_matrix((np.ones(r.size), (r, c)), shape=(n, n)).tocsr()
    A.sort_indices()
    C.sort_indices()
    return A, C


def _example(C, mask, names=None):
    """``{i, j}`` of the first marked entry of ``C``, by node name when ``names`` is given."""
    Ccoo = C.tocoo()
    k = int(np.flatnonzero(mask)[0])
    i, j = int(Ccoo.row[k]), int(Ccoo.col[k])
    if names is None:
        return f"{{{i}, {j}}}"
    return f"{{{names[i]!r}, {names[j]!r}}}"


def _directed_edges(r, c, w, n, names=None):
    """``max(A, A^T)`` of the directed edge list; notes on repeated rows."""
    A, C = _pair_sums(r, c, w, n)
    notes = []
    rep = C.data > 1
    if np.any(rep):
        notes.append(
            f"{int(rep.sum())} directed edge(s) are listed more than once (e.g. {_example(C, rep, names)}): "
            "their weights were added"
        )
    return A.maximum(A.T).tocsr(), notes


def _undirected_edges(r, c, w, n, names=None):
    """Undirected ``S`` of an edge list, reading ``i j`` and ``j i`` with equal weight as one edge.

    Per unordered pair ``{i, j}`` (``i < j``): with ``a`` (``b``) the summed
    weight and ``p`` (``q``) the number of rows listing it as ``i j``
    (``j i``), ``S_ij = a`` if both directions are listed equally (``p = q``,
    ``a = b``: a symmetric listing), else ``S_ij = a + b``.
    """
    lo, hi = np.minimum(r, c), np.maximum(r, c)
    fwd = r < c
    A, P = _pair_sums(lo[fwd], hi[fwd], w[fwd], n)
    B, Q = _pair_sums(lo[~fwd], hi[~fwd], w[~fwd], n)
    notes = []
    if B.nnz == 0 or A.nnz == 0:  # one direction only: no pair can be a reverse duplicate
        U = A if B.nnz == 0 else B
        counts = P if B.nnz == 0 else Q
    else:
        # align the two on the union of pairs (explicit zeros kept by the sum of structures)
        ones_a = A.copy()
        ones_a.data[:] = 1.0
        ones_b = B.copy()
        ones_b.data[:] = 1.0
        union = (ones_a + ones_b).tocsr()
        union.sort_indices()
        a, b = _on(union, A), _on(union, B)
        p, q = _on(union, P), _on(union, Q)
        both = (p > 0) & (q > 0)
        mirror = both & (p == q) & np.isclose(a, b, rtol=1e-12, atol=0.0)
        if np.any(mirror):
            pattern = union.copy()
            pattern.data = mirror.astype(float)
            notes.append(
                f"{int(mirror.sum())} edge(s) are listed in both directions with the same weight "
                f"(i j and j i, e.g. {_example(pattern, mirror, names)}; the format of np.argwhere(A) and PyTorch "
                "Geometric): kept one weight per undirected edge, not their sum"
            )
        vals = np.where(mirror, a, a + b)
        U = union.copy()
        U.data = vals
        counts = union.copy()
        counts.data = np.where(mirror, p, p + q)
    rep = counts.data > 1
    if np.any(rep):
        notes.append(
            f"{int(rep.sum())} edge(s) are listed more than once (e.g. {_example(counts, rep, names)}): "
            "their weights were added"
        )
    U = sp.csr_matrix(U)
    return (U + U.T).tocsr(), notes


def _on(pattern, M):
    """Values of ``M`` at the stored entries of the CSR ``pattern`` (0 where ``M`` has none)."""
    return np.asarray(M[pattern.tocoo().row, pattern.tocoo().col]).ravel()


# --------------------------------------------------------------------------- Graph
def _check_features(features, n):
    """``features`` as a 2-D real array or CSR matrix with ``n`` rows (dtype kept), or None."""
    if features is None:
        return None
    X = as_real_matrix(features, "features", finite=False, dtype=None, copy=False)
    if X.shape[0] != n:
        raise ValueError(f"features must have {n} rows (one per node), got shape {X.shape}")
    return X


def _check_node_ids(node_ids, n):
    if node_ids is None:
        return None
    ids = np.asarray(node_ids)
    if ids.shape != (n,):
        raise ValueError(f"node_ids must have length {n}, got shape {ids.shape}")
    return ids


def _require_a_label(labelled):
    if not labelled.any():
        raise ValueError(
            f"no node has a label: all {labelled.size} labels mark unlabelled nodes (-1, NaN, None, or text such as "
            "'', 'NaN' or 'null': graphsel_lib._validation.MISSING_LABELS); give at least "
            "one node a label, or pass class_names=[...] to start from no label (e.g. to label by hand)"
        )


def _renumber_labelled(codes, names):
    """Codes ``0..K-1`` over the classes the labelled nodes hold (sorted as ``names``), and those classes' names."""
    labelled = codes != UNLABELLED
    present, inverse = np.unique(codes[labelled], return_inverse=True)
    codes = codes.copy()
    codes[labelled] = inverse
    return codes, [names[c] for c in present]


def nodes_to_keep(S, codes, *, lcc, drop_unlabelled=False, allow_none=False):
    """Nodes a Graph keeps: (``drop_unlabelled``) the labelled ones, then (``lcc``) the largest connected component.

    Returns ``(keep, report)``: sorted node indices, and a dict with the
    numbers of ``unlabelled`` nodes (dropped with ``drop_unlabelled``, else
    kept; ``unlabelled_kept`` counts those inside the result) and of nodes
    ``outside_lcc``, the number of ``components`` and the classes (codes) whose
    every labelled node was outside the component (``vanished``).
    """
    n = S.shape[0]
    labelled = codes != UNLABELLED
    n_unlabelled = int(n - np.count_nonzero(labelled))
    keep = np.flatnonzero(labelled) if drop_unlabelled else np.arange(n)
    report = {
        "n_nodes": n,
        "unlabelled": n_unlabelled,
        "dropped_unlabelled": drop_unlabelled,
        "unlabelled_kept": 0,
        "outside_lcc": 0,
        "components": 1,
        "vanished": [],
    }
    if not allow_none:
        _require_a_label(labelled)
    if lcc:
        S_kept = S[keep][:, keep] if keep.size < n else S
        k = n_components(S_kept)
        if k > 1:
            sub = largest_connected_component(S_kept)
            before = np.unique(codes[keep][labelled[keep]])
            keep = keep[sub]
            report.update(
                outside_lcc=int(S_kept.shape[0] - sub.size),
                components=int(k),
                vanished=np.setdiff1d(before, codes[keep]).tolist(),
            )
    if not drop_unlabelled:
        report["unlabelled_kept"] = int(np.count_nonzero(~labelled[keep]))
    return keep, report


def dropped_nodes_message(report, class_names):
    """Sentences for a :class:`DataWarning` about the nodes a Graph dropped (empty if none)."""
    parts = []
    if report["unlabelled"] and report["dropped_unlabelled"]:
        parts.append(
            f"dropped {report['unlabelled']} of {report['n_nodes']} nodes that have no label (-1, NaN or None)"
        )
    if report["outside_lcc"]:
        n_before = report["n_nodes"] - (report["unlabelled"] if report["dropped_unlabelled"] else 0)
        msg = (
            f"kept the largest of {report['components']} connected components: dropped "
            f"{report['outside_lcc']} of {n_before} nodes"
        )
        if report["vanished"]:
            names = [class_names[c] for c in report["vanished"]]
            msg += f", and with them every labelled node of class(es) {names}"
        parts.append(msg + " (pass lcc=False to get an error instead)")
    return "; ".join(parts)


def _split(cls, S, codes, names, class_names, name, features, node_ids, info, stacklevel):
    """One Graph per connected component with an edge, largest first; every part shares the class names.

    The classes are those of every labelled node (not renumbered per part), so
    ``labels`` index the same ``class_names`` in each part. Nodes with no edge
    are in no part, said in a :class:`DataWarning`. ``info["component"]`` holds
    the part's index, ``info["n_components"]`` the number of parts.
    """
    if class_names is None:  # renumber over the classes of the labelled nodes, all parts together
        _require_a_label(codes != UNLABELLED)
        codes, names = _renumber_labelled(codes, names)
    _, comp = csgraph.connected_components(S, directed=False)
    sizes = np.bincount(comp)
    ranked = sorted(np.flatnonzero(sizes >= 2), key=lambda c: (-sizes[c], c))
    isolated = int(np.count_nonzero(sizes == 1))
    if isolated:
        warnings.warn(
            f"{name}: {isolated} node(s) have no edge (only self-loops, or none of positive weight): "
            "they are in no part",
            DataWarning,
            stacklevel=stacklevel,
        )
    parts = []
    for i, c in enumerate(ranked):
        keep = np.flatnonzero(comp == c)
        part_info = dict(info or {}, component=i, n_components=len(ranked))
        part_info["unlabelled"] = int(np.count_nonzero(codes[keep] == UNLABELLED))
        parts.append(
            cls(
                S[keep][:, keep].tocsr(),
                codes[keep],
                list(names),
                name if i == 0 else f"{name} [part {i + 1} of {len(ranked)}]",
                None if features is None else features[keep],
                None if node_ids is None else node_ids[keep],
                part_info,
            )
        )
    return parts
