"""A learner over a grid of settings on every graph and order: :func:`sweep`, one tidy row per run.

Each (graph, grid point) is one :func:`~graphsel_lib.experiments.evaluate` call: the cache, the
parallel orders and the per-order seeds are those of ``evaluate``.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np
import pandas as pd

from .evaluation import METRICS, evaluate
from .orders import random_orders

if TYPE_CHECKING:
    import os
    from collections.abc import Callable, Collection, Iterable, Mapping, Sequence

    from numpy.typing import ArrayLike

    #: Parameter name -> its values (iterated twice: a list, a tuple, an array, not a generator).
    Grid: TypeAlias = Mapping[str, Collection[Any]]
    #: ``(X, y)`` of a graph; ``len(y)`` counts its nodes when the orders are drawn.
    Data: TypeAlias = tuple[ArrayLike, np.ndarray | Sequence[Any]]

__all__ = ["sweep"]


def sweep(
    make: Callable[..., Any],
    grid: Grid | Sequence[Grid],
    graphs: Mapping[str, Data | Callable[..., Data]],
    orders: int | ArrayLike | Mapping[str, ArrayLike],
    metrics: Iterable[str] | None = None,
    *,
    seed: int | None = 0,
    n_classes: int | None = None,
    n_jobs: int | None = None,
    backend: str | None = None,
    cache: bool = True,
    cache_dir: str | os.PathLike[str] | None = None,
    progress: bool = False,
    keep_curves: bool = False,
) -> pd.DataFrame:
    """Run a learner over a grid of settings on every graph and order: one tidy row per run (gu2013 Sec. 6.3).

    Each (graph, grid point) is one :func:`evaluate` call, so the results cache,
    the parallel orders and the per-order seeds are those of :func:`evaluate`
    (a sweep reuses the cached runs of a loop that called it point by point).

    Parameters
    ----------
    make : callable
        ``make(**point)`` returns a fresh learner (called once per order). It
        and a ``data`` callable each get the point's parameters they name (all,
        if they take ``**kwargs``), and ``dataset=name`` if they name
        ``dataset`` (settings tuned per graph); every grid parameter must be
        taken by one.
    grid : mapping, or list of mappings
        Parameter name -> list of values; the points are their product, the
        first parameter varying slowest (as nested ``for`` loops). A list of
        grids runs each in turn (methods with grids of their own); a column
        is empty where a point has no such parameter.
    graphs : mapping
        Graph name -> ``(X, y)``, or -> ``data(**point)`` returning ``(X, y)``
        for data that depend on the point (e.g. a bias feature).
    orders : array of shape (n_orders, n), mapping name -> such array, or int
        The node orders of every graph; an int draws that many
        :func:`random_orders` of ``seed`` per graph.
    metrics : list of str, optional
        Metric columns to keep (default: all that :func:`evaluate` returns).
    seed, n_classes, n_jobs, backend, cache, cache_dir, progress
        As in :func:`evaluate`.
    keep_curves : bool
        Keep the per-round arrays of the passes that run in the cache too (as in :func:`evaluate`), for
        a later :func:`~graphsel_lib.experiments.evaluate_curves` of the same configuration; the frame returned is the same.

    Returns
    -------
    DataFrame
        Columns ``dataset``, one per grid parameter, ``order``, the metrics
        (``time``: the seconds of the pass); rows in loop order.

    Raises
    ------
    ValueError
        A grid that is empty, has a parameter without values (or a bare string
        where a list belongs), a name that is a column of the result or that
        neither ``make`` nor the data take; an unknown metric; orders missing
        for a graph.

    Examples
    --------
    >>> import graphsel_lib as gs
    >>> from graphsel_lib.online import MSG
    >>> g = gs.load_dataset("karate")
    >>> X = gs.spectral_embedding(g.adjacency, 5, cache=False).M
    >>> df = sweep(MSG, {"h": [0.01, 1.0]}, {"karate": (X, g.labels)}, 2, ["n_queried"], n_jobs=1, cache=False)
    >>> df[["dataset", "h", "order"]].to_numpy().tolist()
    [['karate', 0.01, 0], ['karate', 0.01, 1], ['karate', 1.0, 0], ['karate', 1.0, 1]]
    >>> list(df.columns)
    ['dataset', 'h', 'order', 'n_queried']
    """
    from collections.abc import Mapping

    points = _grid_points(grid)
    wanted = None if metrics is None else list(metrics)
    if wanted is not None and (unknown := [m for m in wanted if m not in METRICS]):
        raise ValueError(f"unknown metric(s) {unknown}; choose from {', '.join(METRICS)}")
    names = list(dict.fromkeys(k for point in points for k in point))
    takes = _taken(make)
    for name, data in graphs.items():
        unused = [
            k for k in names if not (_accepts(takes, k) or (callable(data) and _accepts(_taken(data), k)))
        ]
        if unused:
            raise ValueError(
                f"grid parameter(s) {unused} are taken neither by make nor by the data of {name!r}; "
                "a typo, or a parameter make should accept"
            )
    frames = []
    for name, data in graphs.items():
        for point in points:
            X, y = data(**_subset(point, name, _taken(data))) if callable(data) else data
            if isinstance(orders, Mapping):
                if name not in orders:
                    raise ValueError(
                        f"no orders for graph {name!r}: pass orders[{name!r}] or one array for all"
                    )
                graph_orders = orders[name]
            elif isinstance(orders, (int, np.integer)):
                graph_orders = random_orders(len(y), int(orders), seed)
            else:
                graph_orders = orders
            kw = _subset(point, name, takes)
            df = evaluate(
                functools.partial(make, **kw),
                X,
                y,
                graph_orders,
                seed=seed,
                method=str(point.get("method", "")) or None,
                n_classes=n_classes,
                n_jobs=n_jobs,
                backend=backend,
                cache=cache,
                cache_dir=cache_dir,
                progress=progress,
                keep_curves=keep_curves,
            )
            measured = [m for m in METRICS if m in df.columns]
            if wanted is not None and (absent := [m for m in wanted if m not in df.columns]):
                raise ValueError(
                    f"metric(s) {absent} not measured for {name!r} at {point} (it has {', '.join(measured)}); "
                    "the binary_* metrics exist for one-vs-rest learners only"
                )
            cols = wanted if wanted is not None else measured
            frames.append(df[["order", *cols]].assign(dataset=name, **point))
    if not frames:
        raise ValueError("no graph to sweep over: graphs is empty")
    out = pd.concat(frames, ignore_index=True)
    lead = ["dataset", *names]
    return out[lead + [c for c in out.columns if c not in lead]]


_ANY = "**"  # in a set of keyword names: the callable also takes **kwargs


def _taken(fn) -> set:
    """The keyword names ``fn`` accepts, with :data:`_ANY` if it takes ``**kwargs`` (or has no readable signature)."""
    import inspect

    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return {_ANY}
    names = {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return names | ({_ANY} if any(p.kind is p.VAR_KEYWORD for p in params) else set())


def _accepts(names, key) -> bool:
    return _ANY in names or key in names


def _subset(point, dataset, names) -> dict:
    """The entries of ``point`` that a callable taking ``names`` accepts, and ``dataset`` if it names it."""
    kw = dict(point) if _ANY in names else {k: v for k, v in point.items() if k in names}
    return {**kw, "dataset": dataset} if "dataset" in names else kw


def _grid_points(grid) -> list[dict]:
    """The points of ``grid`` (name -> values, or a list of such grids) in nested-loop order.

    A bad grid raises a ValueError naming the fix.
    """
    import itertools
    from collections.abc import Mapping

    if isinstance(grid, (list, tuple)) and grid and all(isinstance(g, Mapping) for g in grid):
        return [point for g in grid for point in _grid_points(g)]
    if not isinstance(grid, Mapping) or not grid:
        raise ValueError(
            "grid must be a non-empty mapping of parameter name -> list of values (or a list of such "
            f"mappings), got {grid!r}"
        )
    reserved = {"dataset", "order", *METRICS}
    for key, values in grid.items():
        if key in reserved:
            raise ValueError(
                f"grid parameter {key!r} is a column of the result; rename it (reserved: {sorted(reserved)})"
            )
        if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
            raise ValueError(
                f"grid[{key!r}] must be a list of values, got {values!r}; write [{values!r}] for one value"
            )
        if len(list(values)) == 0:
            raise ValueError(f"grid[{key!r}] has no values; give at least one")
    names = list(grid)
    return [
        dict(zip(names, vals, strict=True)) for vals in itertools.product(*(list(grid[k]) for k in names))
    ]
