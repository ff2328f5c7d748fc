"""Score helpers shared by the learners: per-class scores with equal rounding, and the top two classes."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["row_scores", "top_two"]


try:  # einsum without its Python argument parsing (a third of its cost at K·d ≈ 300)
    from numpy._core.multiarray import c_einsum as _einsum
except ImportError:  # pragma: no cover - numpy < 2 or a future layout
    _einsum = np.einsum


def row_scores(W: np.ndarray, x: np.ndarray) -> list[float]:
    """``[w_k · x for k]`` as a list, the same rounding for equal rows.

    ``W @ x`` (BLAS gemv) may round two equal rows differently, which breaks
    exact ties between one-vs-rest learners that share a history (common in
    the first rounds, where all of them start at 0) and so the tie rule
    "smallest index wins". ``einsum`` computes every row alike.
    """
    return _einsum("kd,d->k", W, x).tolist()


def top_two(s: Sequence[float]) -> tuple[int, int]:
    """``(i1, i2)``: index of the largest entry of ``s`` and of the largest among the others.

    Ties go to the smallest index (``numpy.argmax``'s rule), in both places.

    >>> top_two([0.0, 2.0, 2.0, 1.0])
    (1, 2)
    """
    order = sorted(range(len(s)), key=s.__getitem__, reverse=True)  # stable: equal keys keep index order
    return order[0], order[1]
