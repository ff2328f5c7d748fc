"""Checks shared by the theorem evaluators: features ``X`` (d, n) and the :class:`Trace` of a run."""

from __future__ import annotations

import numpy as np

from .._validation import as_real_matrix
from ..online import Trace


def check_features(X):
    """``X`` (d, n), column ``t`` the feature vector of node ``t``: a finite real matrix, not copied."""
    return as_real_matrix(X, "X (shape (d, n), column t is m_t)", sparse=False, copy=False)


def check_run(trace, X, *, multiclass, record=()):
    """``trace`` a :class:`Trace` of a pass over the columns of ``X`` (binary or multiclass scores)."""
    if not isinstance(trace, Trace):
        raise TypeError(
            f"trace must be the Trace that graphsel_lib.online.run returns, got {type(trace).__name__}"
        )
    if trace.order.size and trace.order.max() >= X.shape[1]:
        raise ValueError(
            f"the trace shows node {trace.order.max()} but X has {X.shape[1]} columns: pass the X of the run"
        )
    if trace.scores.ndim != (2 if multiclass else 1):
        kind = "a multiclass learner (scores of shape (T, K))" if multiclass else "a binary learner"
        raise ValueError(f"expected the trace of {kind}, got scores of shape {trace.scores.shape}")
    if not multiclass and not np.all(np.isin(trace.labels, (-1, 1))):
        raise ValueError("expected -1/+1 labels (the trace of a binary learner)")
    for key in record:
        if key not in trace.records:
            raise ValueError(f"the trace has no recorded {key!r}: run it with record=({key!r},)")


def check_shape(a, shape, name):
    if a.shape != shape:
        raise ValueError(f"{name} must have shape {shape}, got {a.shape}")
    return a


def ridge_value(Xs, ys, reg):
    """``min_u reg/2 ||u||² + ½ ||Xsᵀu − ys||²`` and its minimiser (one d × d solve)."""
    u = np.linalg.solve(Xs @ Xs.T + reg * np.eye(Xs.shape[0]), Xs @ ys)
    return 0.5 * reg * u @ u + 0.5 * np.sum((Xs.T @ u - ys) ** 2), u


def max_sq_norm(X, nodes):
    """``max_t ||m_t||²`` over the columns ``nodes`` (column norms computed on ``X`` as given)."""
    return np.max(np.sum(X**2, axis=0)[nodes])
