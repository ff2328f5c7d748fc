"""The tiny graphs the quizzes compute their numeric answers on (a hand computation can follow them)."""

import numpy as np
import scipy.sparse as sp

from ...spectral import spectral_embedding

__all__ = ["path", "path_features"]


def path(n: int) -> sp.csr_matrix:
    """The adjacency of the path on ``n`` nodes, unit weights.

    >>> path(3).toarray()
    array([[0., 1., 0.],
           [1., 0., 1.],
           [0., 1., 0.]])
    """
    return sp.diags([np.ones(n - 1), np.ones(n - 1)], [-1, 1], format="csr")


def path_features(n: int = 3) -> np.ndarray:
    """The exact-kernel features ``M`` (``(n - 1) x n``, ``M^T M = L^+``) of the path on ``n`` nodes."""
    return spectral_embedding(path(n), n - 1, cache=False).M
