"""The nodes to label next: a selective sampler's query probability on every candidate, in its current state.

A selective sampler decides round by round whether to ask for a label, with a
probability it computes from its scores (:class:`MarginSampling`:
``b / (b + Δ)``, Δ the top-two margin; :class:`MSG`: ``2h / (2h + θ)``, 1 on an
aggressive round). Evaluated on nodes that have not arrived, without the coin
and without updating the learner, that probability ranks them: the node the
learner would most want labelled comes first.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["query_probabilities"]


def query_probabilities(learner: Any, M: Any, nodes: ArrayLike, *, t: int) -> tuple[np.ndarray, np.ndarray]:
    """Prediction and query probability of ``learner`` on each of ``nodes``, without changing it.

    Parameters
    ----------
    learner : selective sampler in its current state
        E.g. ``session.learner`` after some rounds. It needs a
        ``query_probability(x, t, info)`` method (MarginSampling,
        RandomQueries, MSG).
    M : array of shape (d, n)
        The features the learner plays on (``session.M``; node ids for
        :class:`Relaxation`).
    nodes : array of int
    t : int
        The round at which the nodes are imagined to arrive (``n_done + 1``).

    Returns
    -------
    predictions : ndarray of int, probabilities : ndarray of float

    Examples
    --------
    MSG after three labelled rounds ranks the nodes still to come:

    >>> import numpy as np
    >>> from graphsel_lib.online import MSG, Session
    >>> M = np.array([[1.0, 0.9, -1.0, -0.8, 0.7, -0.9], [0.1, -0.1, 0.2, 0.0, 0.3, -0.2]])
    >>> session = Session(MSG(h=0.1, seed=0), M, order=range(6), n_classes=2)
    >>> for label in (0, 0, 1):
    ...     node, predicted, wants = session.ask()
    ...     session.tell(label if wants else None)
    >>> predictions, probabilities = query_probabilities(session.learner, M, [3, 4, 5], t=4)
    >>> predictions.tolist(), probabilities.round(3).tolist()
    ([1, 0, 1], [0.182, 0.204, 0.184])
    """
    rule = getattr(learner, "query_probability", None)
    if rule is None:
        raise TypeError(
            f"{type(learner).__name__} has no query probability to rank nodes by; use a selective sampler "
            "with one: MarginSampling(learner, b=...), RandomQueries or MSG"
        )
    nodes = np.asarray(nodes, dtype=np.int64)
    predictions = np.empty(nodes.size, dtype=np.int64)
    probabilities = np.empty(nodes.size)
    for i, node in enumerate(nodes):
        x = np.ascontiguousarray(M[:, node])
        label, info = learner.predict(x)
        predictions[i] = int(label)
        probabilities[i] = float(rule(x, t, dict(info)))
    return predictions, probabilities
