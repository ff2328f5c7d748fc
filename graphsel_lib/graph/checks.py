"""Input validation of weight matrices and node labels."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from .types import Adjacency
from .._validation import (
    as_symmetric_matrix,
    check_class_labels,
)
from .components import n_components


# --------------------------------------------------------------------------- validation
def check_adjacency(
    S: Adjacency,
    *,
    require_connected: bool = False,
    name: str = "S",
    tol: float = 1e-10,
    drop_loops: bool = False,
) -> sp.csr_matrix:
    """Validate a weight matrix and return it as a CSR float64 matrix (a copy).

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Symmetric, non-negative, finite edge weights. Diagonal entries
        (self-loops) are allowed; they do not change ``L = D - S``.
    require_connected : bool, default False
        Raise if the graph has more than one connected component.
    name : str, default "S"
        The matrix's name in error messages.
    tol : float, default 1e-10
        Relative symmetry tolerance: ``|S_ij - S_ji| <= tol * max(|S_ij|, |S_ji|)``
        for every pair, so an edge given in one direction only is refused
        however small its weight.
    drop_loops : bool, default False
        Return the matrix without its self-loops (a zero diagonal, not stored).

    Returns
    -------
    scipy.sparse.csr_matrix of shape (n_nodes, n_nodes)

    Raises
    ------
    TypeError
        If ``S`` is not a matrix of real numbers (complex values are refused,
        not truncated), or is a :class:`Graph` (pass ``g.adjacency``).
    ValueError
        If ``S`` is not square, is empty, not symmetric (a directed graph), has
        negative or non-finite weights, or is disconnected while
        ``require_connected`` is set.

    Examples
    --------
    >>> check_adjacency([[0, 2], [2, 0]]).toarray().tolist()
    [[0.0, 2.0], [2.0, 0.0]]
    """
    S = as_symmetric_matrix(S, name, tol=tol)
    if S.nnz and S.data.min() < 0:
        raise ValueError(f"{name} has negative edge weights (min {S.data.min():g})")
    if require_connected:
        k = n_components(S)
        if k != 1:
            raise ValueError(
                f"the graph is disconnected ({k} connected components); "
                "use largest_connected_component() or Graph(..., lcc=True)"
            )
    return without_self_loops(S) if drop_loops else S


def without_self_loops(S: sp.csr_matrix) -> sp.csr_matrix:
    """``S`` with its diagonal entries (and any explicit zero) removed, the other entries in their order.

    What ``S.setdiag(0); S.eliminate_zeros()`` leaves of a CSR matrix with sorted indices, without the
    change of sparsity structure that makes ``setdiag`` slow on a large matrix (it goes through COO when a
    diagonal entry is missing). ``S`` itself is returned when it has nothing to remove.

    Parameters
    ----------
    S : scipy.sparse.csr_matrix of shape (n, n)

    Returns
    -------
    scipy.sparse.csr_matrix of shape (n, n)

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> without_self_loops(sp.csr_matrix([[1.0, 2.0], [2.0, 0.0]])).toarray().tolist()
    [[0.0, 2.0], [2.0, 0.0]]
    """
    n = S.shape[0]
    rows = np.repeat(np.arange(n, dtype=S.indices.dtype), np.diff(S.indptr))
    keep = (S.indices != rows) & (S.data != 0)
    if keep.all():
        return S
    indptr = np.zeros(n + 1, dtype=S.indptr.dtype)
    np.cumsum(np.bincount(rows[keep], minlength=n), out=indptr[1:])
    out = sp.csr_matrix((S.data[keep], S.indices[keep], indptr), shape=S.shape)
    out.has_sorted_indices = S.has_sorted_indices
    return out


def check_labels(y: ArrayLike, n: int, *, n_classes: int | None = None, name: str = "labels") -> np.ndarray:
    """Validate ground-truth class labels: an int array of length ``n`` with values in ``0..K-1``.

    Every node needs a label here: the library's marks of an unlabelled node
    (``-1``, ``NaN``, ``None``; see :mod:`graphsel_lib._validation`) raise,
    as do non-integers such as ``0.5``. Integer-valued floats are accepted.

    Parameters
    ----------
    y : array-like of shape (n,)
        Class labels ``0..K-1``.
    n : int
        Number of nodes.
    n_classes : int, optional
        ``K``; labels must be below it.
    name : str, default "labels"
        The labels' name in error messages.

    Returns
    -------
    ndarray of int of shape (n,)

    Raises
    ------
    ValueError
        If the length is not ``n``, values are not integers, are negative
        (unlabelled) or ``>= n_classes``.

    Examples
    --------
    >>> check_labels([0, 1.0, 2], 3).tolist()
    [0, 1, 2]
    """
    return check_class_labels(y, n, n_classes=n_classes, name=name, require_all=True)
