"""Type aliases of the public API (for the type checker only): what a weight matrix and a Laplacian may be."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    import scipy.sparse as sp
    from numpy.typing import ArrayLike

    #: A weight matrix as the functions take it: a dense array or a SciPy sparse matrix, (n, n).
    Adjacency: TypeAlias = ArrayLike | sp.spmatrix | sp.sparray

    #: A sparse symmetric matrix, e.g. a graph Laplacian ``D - S``.
    Laplacian: TypeAlias = sp.spmatrix | sp.sparray
