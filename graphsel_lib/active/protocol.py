"""The pool-based active learning protocol: a strategy picks nodes to label, the harmonic function predicts the rest.

Unlike the online stream (:func:`graphsel_lib.online.run`, where nodes arrive
in an order the learner does not choose), here the whole graph is a pool:
in each of ``budget`` steps the strategy chooses any unlabelled node, its
label is revealed, and the labelled set so far is scored by the harmonic
function with class mass normalisation
(:func:`graphsel_lib.transductive.harmonic` with ``cmn=True``; Zhu,
Ghahramani & Lafferty 2003) on the nodes still unlabelled, its class prior
resolved by :func:`graphsel_lib.transductive.cmn_prior` as in notebook 50
(no CMN while a single node is unlabelled).

Strategy interface
------------------
A strategy is any object with::

    select(state) -> node
        An unlabelled node (an int in 0..n-1) to query next. ``state`` is the
        :class:`PoolState`: the graph, the labels revealed so far (−1 on the
        others), the labelled nodes in the order they were labelled, and the
        generator of the run (``state.rng``) for a randomised strategy.

and optionally ``reset(state)``, called once before the first ``select``
(e.g. to factorise a matrix). A strategy sees only the revealed labels.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph

from .._validation import DataWarning, Seed, check_integer, independent_generators
from ..graph import check_adjacency, check_labels
from ..transductive import cmn_prior, harmonic, predict

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from ..graph.types import Adjacency

__all__ = ["PoolState", "PoolTrace", "Strategy", "run_pool", "check_strategy", "check_pool_graph"]

#: CMN's class prior as :func:`run_pool` takes it: a name, the masses, ``{class: mass}``, or a rule asked
#: after each query with the labels revealed so far.
ClassPrior: TypeAlias = "str | ArrayLike | Mapping[int, float] | Callable[[Any, np.ndarray, int], Any] | None"


class Strategy(Protocol):
    """What :func:`run_pool` needs of a strategy: ``select(state) -> node`` (``reset(state)`` is optional)."""

    def select(self, state: PoolState) -> int: ...


def check_pool_graph(S: Adjacency) -> sp.csr_matrix:
    """``S`` validated (CSR float64, no self-loops) and connected; ValueError otherwise.

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n, n)
        Symmetric non-negative weights.

    Returns
    -------
    scipy.sparse.csr_matrix
        A copy, float64, without self-loops.

    Raises
    ------
    ValueError
        ``S`` is not a valid weight matrix, or the graph is not connected.

    Examples
    --------
    >>> check_pool_graph(np.array([[1.0, 2.0], [2.0, 0.0]])).diagonal()
    array([0., 0.])
    """
    S = check_adjacency(S, drop_loops=True)
    S = S.tocsr()
    k = csgraph.connected_components(S, directed=False)[0]
    if k != 1:
        raise ValueError(
            f"pool-based active learning needs a connected graph, got {k} connected components (the harmonic "
            "function is undefined on a component without a label); use graphsel_lib.largest_connected_component()"
        )
    return S


class PoolState:
    """What a strategy may read: the graph and the labels revealed so far.

    Attributes
    ----------
    S : scipy.sparse.csr_matrix (n, n)
        The validated graph (no self-loops).
    n, n_classes : int
    y_known : ndarray of int (n,)
        Revealed labels, −1 on the unlabelled nodes (read only).
    labelled : list of int
        Labelled nodes in the order they were labelled (``initial`` first).
    is_labelled : ndarray of bool (n,)  (read only)
    rng : numpy.random.Generator
        The run's generator for randomised strategies (seeded by ``run_pool``'s ``seed``).
    """

    def __init__(self, S: sp.csr_matrix, n_classes: int, rng: np.random.Generator) -> None:
        self.S = S
        self.n = S.shape[0]
        self.n_classes = int(n_classes)
        self.rng = rng
        self._y = np.full(self.n, -1, dtype=np.int64)
        self._mask = np.zeros(self.n, dtype=bool)
        self.labelled: list[int] = []

    @property
    def y_known(self) -> np.ndarray:
        """Revealed labels, −1 on the unlabelled nodes (a read-only view)."""
        v = self._y.view()
        v.flags.writeable = False
        return v

    @property
    def is_labelled(self) -> np.ndarray:
        """Boolean mask of the labelled nodes (a read-only view)."""
        v = self._mask.view()
        v.flags.writeable = False
        return v

    @property
    def unlabelled(self) -> np.ndarray:
        """Sorted unlabelled nodes."""
        return np.flatnonzero(~self._mask)

    def _reveal(self, node, label):
        self._y[node] = label
        self._mask[node] = True
        self.labelled.append(int(node))


@dataclass(eq=False)
class PoolTrace:
    """What happened in one pool-based run, per query.

    Attributes
    ----------
    initial : ndarray of int
        Nodes labelled before the first query (not counted in the budget).
    queries : ndarray of int (budget,)
        The node queried at each step.
    labels : ndarray of int (budget,)
        Their revealed labels.
    errors : ndarray of float (budget,)
        After each query, the error rate of the harmonic + CMN predictions on
        the nodes still unlabelled (the harmonic function alone on the last
        one: see ``run_pool``'s ``class_prior``).
    n_unlabelled : ndarray of int (budget,)
        How many nodes that error is measured on (``n − |initial| − step``).
    elapsed : ndarray of float (budget,)
        Cumulative time in seconds spent in the strategy's ``select`` (and ``reset``).
    strategy : str
    """

    initial: np.ndarray
    queries: np.ndarray
    labels: np.ndarray
    errors: np.ndarray
    n_unlabelled: np.ndarray
    elapsed: np.ndarray
    strategy: str = ""
    records: dict = field(default_factory=dict)

    @property
    def budget(self) -> int:
        """Number of queries."""
        return int(self.queries.size)

    def labelled_after(self, step: int) -> np.ndarray:
        """Sorted labelled nodes after query ``step`` (0-based): ``initial`` and ``queries[:step + 1]``.

        Parameters
        ----------
        step : int
            In ``0..budget - 1``.

        Returns
        -------
        ndarray of int

        Raises
        ------
        ValueError, TypeError
            ``step`` out of range, or not an integer.
        """
        step = check_integer(step, "step", minimum=0, maximum=self.budget - 1)
        return np.sort(np.concatenate([self.initial, self.queries[: step + 1]]))

    @property
    def labelled_sets(self) -> list[np.ndarray]:
        """The labelled set after each query (a list of sorted arrays)."""
        return [self.labelled_after(t) for t in range(self.budget)]

    def __repr__(self):
        last = f"{self.errors[-1]:.4f}" if self.errors.size else "-"
        return f"PoolTrace({self.strategy}, budget={self.budget}, initial={self.initial.size}, final error={last})"


def check_strategy(strategy: Any) -> Strategy:
    """Raise TypeError unless ``strategy`` has a callable ``select``.

    Parameters
    ----------
    strategy : object
        A strategy instance (not its class).

    Returns
    -------
    Strategy
        ``strategy`` itself.

    Raises
    ------
    TypeError
        ``strategy`` is a class, or has no callable ``select``.

    Examples
    --------
    >>> from graphsel_lib.active import RandomPool
    >>> check_strategy(RandomPool(seed=1))
    RandomPool(seed=1)
    """
    if isinstance(strategy, type):
        raise TypeError(
            f"{strategy.__name__} is a class, not a strategy: pass an instance, e.g. RandomPool()"
        )
    if not callable(getattr(strategy, "select", None)):
        raise TypeError(f"{type(strategy).__name__} is not a pool strategy: it has no select(state) method")
    return strategy


def _check_initial(initial, n, rng):
    if initial is None:
        return np.zeros(0, dtype=np.int64)
    if isinstance(initial, (int, np.integer)) and not isinstance(initial, (bool, np.bool_)):
        k = check_integer(initial, "initial", minimum=0, maximum=n - 1)
        return np.sort(rng.choice(n, size=k, replace=False)).astype(np.int64)
    arr = np.asarray(initial)
    if arr.ndim != 1 or (arr.size and not np.issubdtype(arr.dtype, np.integer)):
        raise ValueError(
            f"initial must be None, a number of random nodes, or a 1-D array of node ids, got {initial!r}"
        )
    arr = arr.astype(np.int64)
    if arr.size and (arr.min() < 0 or arr.max() >= n):
        raise ValueError(f"initial nodes must be in 0..{n - 1}")
    if np.unique(arr).size != arr.size:
        raise ValueError("initial nodes must be distinct")
    if arr.size >= n:
        raise ValueError("initial must leave at least one node unlabelled")
    return arr


def _error(S, y, state, class_prior="labelled"):
    """Error of harmonic + CMN on the unlabelled nodes (a class without a label yet is simply never predicted).

    The prior is resolved by :func:`~graphsel_lib.transductive.cmn_prior`, as
    in notebook 50: no CMN on the last unlabelled node (it would get the prior).
    """
    unl = state.unlabelled
    counts = np.bincount(state.y_known[state.is_labelled], minlength=state.n_classes)
    if callable(class_prior):  # a rule, asked with the labels revealed so far (-1: not yet)
        class_prior = class_prior(S, state.y_known.copy(), state.n_classes)
    q = cmn_prior(class_prior, counts, n_unlabelled=unl.size)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        F = harmonic(
            S,
            state.y_known,
            np.asarray(state.labelled),
            cmn=q is not None,
            n_classes=state.n_classes,
            class_prior=q,
        )
    return float(np.mean(predict(F[unl]) != y[unl]))


def run_pool(
    strategy: Strategy,
    S: Adjacency,
    y: ArrayLike,
    budget: int,
    seed: Seed = 0,
    *,
    initial: int | ArrayLike | None = None,
    n_classes: int | None = None,
    class_prior: ClassPrior = None,
) -> PoolTrace:
    """Run a pool-based active learner for ``budget`` queries and return its :class:`PoolTrace`.

    Parameters
    ----------
    strategy : object with ``select(state) -> node`` (and optionally ``reset(state)``)
    S : array or sparse matrix (n, n)
        Symmetric non-negative weights of a connected graph.
    y : array of int (n,)
        The true labels 0..K-1 of every node (the oracle); the strategy sees
        only those it queried.
    budget : int
        Number of queries, in ``1..n − |initial| − 1`` (at least one node stays
        unlabelled, where the error is measured).
    seed : int, numpy.random.Generator or None, default 0
        Seeds the random ``initial`` nodes and, independently, ``state.rng`` (two streams spawned from it:
        :func:`graphsel_lib._validation.independent_generators`).
    initial : None, int or array of int
        Labelled before the first query, not counted in the budget: none, that
        many nodes drawn uniformly, or these nodes.
    n_classes : int, optional
        K (default ``max(y) + 1``).
    class_prior : {"labelled", "uniform", "none"}, array of shape (K,), dict or callable, optional
        CMN's class masses, resolved after each query by
        :func:`graphsel_lib.transductive.cmn_prior` (the function notebook 50
        and :mod:`graphsel_lib.partial_labels` use). Default (None):
        ``"labelled"``, the class proportions among the labelled nodes, as Zhu
        et al. A strategy that does not sample uniformly (S² queries along
        class boundaries, EER) skews those proportions, and CMN then skews the
        predictions with them: pass the known shares, ``"uniform"``, or
        ``"none"`` (the harmonic function without CMN). While one node is
        left unlabelled (the last query of the largest budget), no CMN is
        applied: on one node it would predict the prior's top class whatever
        the edges say. A callable ``rule(S, labels, n_classes)`` is asked after each query
        with the labels revealed so far (−1: not yet) and returns one of the
        above: :func:`graphsel_lib.partial_labels.auto_prior` is the prior
        notebook 50 chooses, by cross-validation (one per query, so slower).

    Returns
    -------
    PoolTrace

    Raises
    ------
    ValueError
        ``budget`` out of range, a disconnected graph, labels with −1 (or
        another unlabelled mark) or outside ``0..K-1``, bad ``initial``, a
        strategy choosing a labelled or non-existent node.
    TypeError
        ``strategy`` without ``select``; ``budget`` not an integer; ``seed`` not a seed.

    Examples
    --------
    >>> import networkx as nx
    >>> from graphsel_lib.active import S2
    >>> S = nx.to_scipy_sparse_array(nx.path_graph(6))
    >>> trace = run_pool(S2(seed=0), S, [0, 0, 0, 1, 1, 1], budget=2, initial=[0, 5])
    >>> trace.queries.tolist(), float(trace.errors[-1])
    ([2, 3], 0.0)
    """
    check_strategy(strategy)
    S = check_pool_graph(S)
    n = S.shape[0]
    y = check_labels(y, n, n_classes=n_classes, name="y (the true label of every node, the oracle)")
    K = int(y.max()) + 1 if n_classes is None else check_integer(n_classes, "n_classes", minimum=1)
    init_rng, state_rng = independent_generators(seed, 2)
    start = _check_initial(initial, n, init_rng)
    budget = check_integer(budget, "budget")
    top = n - start.size - 1
    if top < 1:
        raise ValueError(
            f"no query is possible: {start.size} of the {n} nodes are labelled initially, and a query needs "
            "one node to ask and one left to measure the error on; pass fewer initial labels (initial=)"
        )
    if not 1 <= budget <= top:
        raise ValueError(
            f"budget must be in 1..{top} (n = {n} nodes, {start.size} labelled initially, one left to "
            f"measure the error on), got {budget}"
        )
    class_prior = "labelled" if class_prior is None else class_prior
    if not callable(class_prior):
        cmn_prior(class_prior, np.ones(K))  # a bad prior fails here, before any query
    state = PoolState(S, K, state_rng)
    for u in start:
        state._reveal(int(u), int(y[u]))
    queries, labels, errors, n_unl, elapsed = [], [], [], [], []
    clock = time.perf_counter
    spent = 0.0
    t0 = clock()
    reset = getattr(strategy, "reset", None)
    if callable(reset):
        reset(state)
    spent += clock() - t0
    for _ in range(budget):
        t0 = clock()
        node = strategy.select(state)
        spent += clock() - t0
        try:
            node = check_integer(node, f"the node chosen by {type(strategy).__name__}")
        except TypeError as exc:
            raise ValueError(str(exc)) from None
        if not 0 <= node < n:
            raise ValueError(f"{type(strategy).__name__} chose node {node}, not in 0..{n - 1}")
        if state._mask[node]:
            raise ValueError(f"{type(strategy).__name__} chose node {node}, which is already labelled")
        state._reveal(node, int(y[node]))
        queries.append(node)
        labels.append(int(y[node]))
        errors.append(_error(S, y, state, class_prior))
        n_unl.append(n - len(state.labelled))
        elapsed.append(spent)
    return PoolTrace(
        initial=start,
        queries=np.asarray(queries, dtype=np.int64),
        labels=np.asarray(labels, dtype=np.int64),
        errors=np.asarray(errors, dtype=float),
        n_unlabelled=np.asarray(n_unl, dtype=np.int64),
        elapsed=np.asarray(elapsed, dtype=float),
        strategy=repr(strategy),
    )
