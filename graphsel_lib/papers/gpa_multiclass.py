"""yang2016's GPA read as a multiclass perceptron (one more reading before calling Table I's GPA irreproducible).

Table I lists GPA among multiclass learners without saying how it handles K > 2
classes; notebook 30 runs it one-vs-rest. The other natural reading is the
multiclass perceptron on the same rank-d spectral features m_t (yang2016
Sec. II-C), with K weight vectors::

    ŷ_t = argmax_k w_k^T m_t  (ties: the lowest k);   on a mistake  w_{y_t} += m_t,  w_{ŷ_t} -= m_t.

Its error is the paper's: mistakes over all T rounds, averaged over the same
random orders as notebook 30 (``experiments.random_orders(n, n_orders, seed)``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

import graphsel_lib as gs

from .. import experiments as ex
from . import yang2016

__all__ = ["TABLE", "multiclass_perceptron_error", "readings"]

#: The table notebook 90 writes and the scorecard reads (a GPA reading tried).
TABLE = "90_yang2016_gpa_multiclass"


def multiclass_perceptron_error(X, y, order) -> float:
    """Mistakes over all rounds of the multiclass perceptron on the rows ``X[t]`` in ``order``.

    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
    >>> multiclass_perceptron_error(X, np.array([0, 1, 0, 1]), [0, 1, 2, 3])  # only round 2 (w = 0 says 0)
    0.25
    """
    X, y, order = np.asarray(X, float), np.asarray(y), np.asarray(order)
    if X.ndim != 2 or len(X) != len(y):
        raise ValueError(f"X must be (n, d) with one row per label; got {X.shape} for {len(y)} labels")
    W = np.zeros((int(y.max()) + 1, X.shape[1]))
    mistakes = 0
    for t in order:
        x = X[t]
        p = int(np.argmax(W @ x))
        if p != y[t]:
            mistakes += 1
            W[y[t]] += x
            W[p] -= x
    return mistakes / len(order)


def readings(datasets, n_orders, *, d=100, seed=0) -> pd.DataFrame:
    """Per data set and bias setting: the multiclass perceptron's mean error beside Table I's GPA."""
    rows = []
    for name in datasets:
        g = gs.load_dataset(name)
        orders = ex.random_orders(g.n_nodes, n_orders, seed)
        for bias in (False, True):
            X = yang2016.features(g, min(d, g.n_nodes - 1), bias=bias).T.copy()
            err = np.array([multiclass_perceptron_error(X, g.labels, o) for o in orders])
            rows.append(dict(dataset=yang2016.PAPER_NAME.get(name, name), bias=bias,
                             published=yang2016.published(yang2016.PAPER_NAME.get(name, name), "GPA")[0],
                             ours=err.mean(), ours_std=err.std(ddof=1) if len(err) > 1 else np.nan,
                             orders=len(err)))  # fmt: skip
    return pd.DataFrame(rows)
