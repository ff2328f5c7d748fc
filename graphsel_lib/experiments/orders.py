"""The seeded node orders of the protocol (gu2013 Sec. 6.3, yang2016 Sec. V).

``n_orders`` evaluation orders drawn from one seed (:func:`random_orders`), a seed per order for
randomised learners (:func:`order_seeds`), and a held-out tuning order from an independent stream of the
same seed (:func:`tuning_order`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .._validation import Seed

__all__ = ["random_orders", "tuning_order", "order_seeds"]

_TUNING_STREAM = 10_007  # any fixed constant: separates the tuning order from the test orders


def random_orders(n: int, n_orders: int = 20, seed: Seed = 0) -> np.ndarray:
    """``(n_orders, n)`` array: row k is the k-th random node order of ``seed``.

    The rows are drawn one after the other from one generator, so the first k
    rows do not depend on ``n_orders``: asking for more orders adds rows and
    leaves the earlier ones as they were.

    Parameters
    ----------
    n : int
        Number of nodes; each row is a permutation of ``0, …, n − 1``.
    n_orders : int, default 20
        Number of orders (rows); 0 gives an empty ``(0, n)`` array.
    seed : int, default 0
        Seed of the generator (:func:`numpy.random.default_rng`). The held-out
        order of :func:`tuning_order` comes from an independent stream of the
        same seed.

    Returns
    -------
    ndarray of int of shape (n_orders, n)
        Row k is the order in which the nodes arrive in the k-th pass.

    Examples
    --------
    >>> orders = random_orders(5, 2, seed=0)
    >>> orders.shape
    (2, 5)
    >>> all(sorted(row) == [0, 1, 2, 3, 4] for row in orders.tolist())
    True
    >>> np.array_equal(random_orders(5, 3, seed=0)[:2], orders)
    True
    >>> random_orders(5, 0).shape
    (0, 5)
    """
    rng = np.random.default_rng(seed)
    return np.stack([rng.permutation(n) for _ in range(n_orders)]) if n_orders else np.empty((0, n), int)


def tuning_order(n: int, seed: int = 0) -> np.ndarray:
    """A held-out random order for hyper-parameter tuning, independent of :func:`random_orders`.

    It is drawn from its own stream, ``numpy.random.default_rng([seed, 10007])``,
    not from the generator of :func:`random_orders`: it is independent of the
    evaluation orders of the same seed and does not change with their number.

    Parameters
    ----------
    n : int
        Number of nodes.
    seed : int, default 0
        The seed of the experiment, the same as given to :func:`random_orders`.

    Returns
    -------
    ndarray of int of shape (n,)
        A permutation of ``0, …, n − 1``.

    Examples
    --------
    >>> order = tuning_order(5, seed=0)
    >>> order.shape, sorted(order.tolist())
    ((5,), [0, 1, 2, 3, 4])
    >>> np.array_equal(tuning_order(5, seed=0), order)
    True
    """
    return np.random.default_rng([seed, _TUNING_STREAM]).permutation(n)


def order_seeds(n_orders: int, seed: int | None = 0) -> list[int]:
    """Per-order seeds for randomised learners (order k gets the k-th).

    Seed k is the first 32-bit word of the k-th child of
    ``numpy.random.SeedSequence(seed)``; as with :func:`random_orders`, the
    first k seeds do not depend on ``n_orders``. :func:`evaluate` runs order k
    of ``orders`` with ``order_seeds(len(orders), seed)[k]``, in whatever
    process or thread it runs.

    Parameters
    ----------
    n_orders : int
        Number of seeds, one per order.
    seed : int, default 0
        The seed of the experiment.

    Returns
    -------
    list of int
        ``n_orders`` seeds, each in ``[0, 2**32)``.

    Examples
    --------
    >>> order_seeds(3, seed=0)
    [3757552657, 673228719, 3241444873]
    >>> order_seeds(2, seed=0) == order_seeds(3, seed=0)[:2]
    True
    """
    return [int(s.generate_state(1)[0]) for s in np.random.SeedSequence(seed).spawn(n_orders)]
