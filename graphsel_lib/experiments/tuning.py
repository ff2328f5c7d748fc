"""Hyper-parameters chosen on a held-out order (gu2013 Sec. 6.3): :func:`tune`, :func:`tune_to_budget`.

A tie (scores within a relative :data:`TIE_RTOL`, equal but for rounding) goes to the first setting in
grid order (:func:`pick_best`; grids list the smallest value first), and the margin that decided is
reported. A selective sampler run at a label budget has its query parameter set on the same held-out
order by bisection (:func:`tune_to_budget`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import pandas as pd

from . import evaluation as _evaluation  # through the module: a test may replace its runners
from .evaluation import METRICS

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping

    from numpy.typing import ArrayLike

__all__ = ["TIE_RTOL", "Pick", "pick_best", "tune", "Budget", "tune_to_budget", "tuning_note"]

TIE_RTOL = 1e-9  # scores this close (relative) are a tie: rounding, not the data, would decide them


class Pick(NamedTuple):
    """What :func:`pick_best` chose: the index, how many scores tied with the best, and the margin.

    ``margin`` is the change a score would need to alter the choice: how much
    worse the next best score is, ``0.0`` on a tie (``n_tied > 1``, :attr:`tied`:
    the order of the candidates chose, not the scores), ``inf`` with a single
    candidate (nothing else could be chosen).

    Attributes
    ----------
    index : int
        Position of the chosen score in the (flattened) scores.
    n_tied : int
        How many scores tied with the best, the chosen one included: 1 when
        there is no tie.
    margin : float
        How much worse the next best score is (a positive number); ``0.0`` on
        a tie; ``inf`` when no other score is a number (a single candidate, or
        the others NaN).

    Examples
    --------
    >>> p = pick_best([0.3, 0.1, 0.1])
    >>> p.index, p.n_tied, p.margin, p.tied
    (1, 2, 0.0, True)
    >>> pick_best([0.2]).margin
    inf
    """

    index: int  # type: ignore[assignment]  # the public field shadows tuple.index (kept: API)
    n_tied: int
    margin: float

    @property
    def tied(self) -> bool:
        """True if other scores equal the best (to the relative tolerance): the first of them was taken."""
        return self.n_tied > 1


def pick_best(scores: ArrayLike, *, maximize: bool = False, rtol: float = TIE_RTOL) -> Pick:
    """The best of ``scores``, a tie going to the first in order (list a grid from its smallest setting).

    Scores within ``rtol · max(|best|, 1e-300)`` of the best count as tied
    (rounding, not the data, separates them), so that last-bit differences
    between machines cannot move the choice; among tied scores the first in
    the given order wins, and the margin is 0 (:attr:`Pick.tied`). NaN scores
    are never chosen; infinite scores are refused (a ValueError naming them).

    Parameters
    ----------
    scores : array_like of float
        One score per candidate, flattened, in the order that breaks ties
        (a grid from its smallest setting). NaN marks a candidate that cannot
        be chosen (e.g. a setting that failed).
    maximize : bool, default False
        The largest score wins instead of the smallest (e.g. an accuracy).
    rtol : float, default TIE_RTOL
        Relative tolerance of a tie: a score within
        ``rtol · max(|best|, 1e-300)`` of the best ties with it; ``0`` makes
        only equal scores tie.

    Returns
    -------
    Pick
        The ``index`` of the chosen score, ``n_tied`` (the chosen one
        included) and the ``margin`` that decided (see :class:`Pick`).

    Raises
    ------
    ValueError
        ``scores`` is empty or all NaN; a score is infinite (``±inf``).

    Examples
    --------
    >>> pick_best([0.3, 0.1, 0.1])
    Pick(index=1, n_tied=2, margin=0.0)
    >>> pick_best([0.3, 0.2 + 1e-17, 0.2, 0.25])
    Pick(index=1, n_tied=2, margin=0.0)
    >>> pick_best([0.3, 0.2, 0.25])
    Pick(index=1, n_tied=1, margin=0.04999999999999999)
    >>> pick_best([1.0, 3.0], maximize=True).index
    1
    >>> pick_best([np.nan, 0.4, 0.5])
    Pick(index=1, n_tied=1, margin=0.09999999999999998)
    """
    s = np.asarray(scores, dtype=np.float64).ravel()
    if s.size == 0 or np.all(np.isnan(s)):
        raise ValueError("no score to choose from (empty, or all NaN)")
    infinite = np.flatnonzero(np.isinf(s))
    if infinite.size:
        raise ValueError(
            f"scores must be finite numbers (NaN: never chosen), got {s[infinite[0]]} at index {int(infinite[0])} "
            f"({infinite.size} infinite score(s)); a failed setting should score NaN, not ±inf"
        )
    s = -s if maximize else s
    best = np.nanmin(s)
    tied = s <= best + rtol * max(abs(best), 1e-300)
    index = int(np.flatnonzero(tied)[0])
    n_tied = int(tied.sum())
    rest = s[~tied & ~np.isnan(s)]
    if n_tied > 1:
        margin = 0.0  # a tie: the order chose, and the least change of a tied score would move the choice
    else:
        margin = float(rest.min() - best) if rest.size else float("inf")
    return Pick(index, n_tied, margin)


def tune(
    make_learner: Callable[..., Any],
    grid: Mapping[str, Iterable[Any]],
    M: ArrayLike,
    y: ArrayLike,
    order: ArrayLike,
    *,
    metric: str = "error_rate",
    seed: int | None = 0,
    n_classes: int | None = None,
    n_jobs: int | None = None,
    backend: str | None = None,
    cache: bool = True,
) -> tuple[dict[str, Any], pd.DataFrame]:
    """Pick hyper-parameters on a held-out order (gu2013 Sec. 6.3).

    ``make_learner(**params)`` builds a learner; ``grid`` maps each parameter
    name to its candidate values. The smallest ``metric`` wins; a tie (within
    a relative ``TIE_RTOL``) goes to the first point in grid order
    (:func:`pick_best`).

    Parameters
    ----------
    make_learner : callable
        ``make_learner(**point)`` returns a fresh learner for one grid point
        (a class, ``functools.partial`` or function; it must pickle with
        cloudpickle for points run in parallel).
    grid : mapping
        Parameter name -> list of candidate values, smallest setting first
        (a tie goes to the first point). The points are the product of the
        lists, the first parameter varying slowest (as nested ``for`` loops).
    M, y : the inputs of :func:`graphsel_lib.online.run`.
    order : array_like of int of shape (n,)
        The held-out node order every point is scored on, one pass each
        (:func:`tuning_order`, never an evaluation order).
    metric : str, default "error_rate"
        The metric to minimise, one of :data:`METRICS` (the ``binary_*``
        metrics exist for one-vs-rest learners only).
    seed : int, default 0
        As in :func:`evaluate`: every point runs with the seed
        ``order_seeds(1, seed)[0]``.
    n_classes : int, optional
        As in :func:`evaluate`.
    n_jobs : int, optional
        Parallel workers over the points, each running its single pass
        (default: all cores; 1 runs in this process; −1 all cores, as in
        joblib). A single point left to run runs in this process.
    backend : str, optional
        joblib backend of the workers, e.g. ``"loky"`` or ``"dask"``
        (default: local loky processes, or the joblib context around the call).
    cache : bool, default True
        Reuse/store each point as one :func:`evaluate` call would. The cached
        points are read in this process first; workers start only for the
        others.

    Returns
    -------
    best : dict
        The parameters chosen.
    table : DataFrame
        One row per grid point with the parameters and all metrics, and
        ``chosen`` (bool) and ``margin`` (``metric`` minus the chosen point's):
        the smallest positive margin is how much the choice was won by.

    Raises
    ------
    ValueError
        ``metric`` is not one of :data:`METRICS`, or is not measured for this
        learner; the grid has no point (a parameter without values); the
        scores are all NaN, or one is infinite (:func:`pick_best`).

    Examples
    --------
    Two settings of a selective sampler on 30 nodes with 3 features:

    >>> from graphsel_lib.experiments import tuning_order
    >>> from graphsel_lib.online import MSG
    >>> M = np.random.default_rng(0).standard_normal((3, 30))
    >>> y = (M[0] > 0).astype(int)
    >>> best, table = tune(MSG, {"h": [0.01, 1.0]}, M, y, tuning_order(30), n_jobs=1, cache=False)
    >>> best
    {'h': 1.0}
    >>> table[["h", "error_rate", "n_queried", "chosen", "margin"]]
          h  error_rate  n_queried  chosen  margin
    0  0.01         0.2          8   False     0.1
    1  1.00         0.1         23    True     0.0
    """
    import itertools
    from functools import partial

    from joblib import delayed

    if metric not in METRICS:
        raise ValueError(
            f"metric must be one of {', '.join(METRICS)} (the smallest wins), got {metric!r}; for an accuracy, "
            "tune the error_rate"
        )
    names = list(grid)
    points = [dict(zip(names, vals, strict=True)) for vals in itertools.product(*(grid[k] for k in names))]
    if not points:
        raise ValueError("empty hyper-parameter grid")
    order = np.asarray(order)[None, :]

    def one(p):
        df = _evaluation.evaluate(
            partial(make_learner, **p), M, y, order, seed=seed, n_classes=n_classes, n_jobs=1, cache=cache
        )
        return None if df is None else df.iloc[0]

    rows: list[Any] = [None] * len(points)  # a row (a Series) per point once read or run
    if cache:  # the cached points are read here: worker processes start only for the others
        token = _evaluation._LOOKUP_ONLY.set(True)
        try:
            rows = [one(p) for p in points]
        finally:
            _evaluation._LOOKUP_ONLY.reset(token)
    todo = [i for i, r in enumerate(rows) if r is None]
    if n_jobs == 1 or len(todo) <= 1:
        done = [one(points[i]) for i in todo]
    else:
        done = _evaluation._parallel((delayed(one)(points[i]) for i in todo), n_jobs, backend)
    for i, r in zip(todo, done, strict=True):
        rows[i] = r
    table = pd.DataFrame(
        [{**p, **{m: r[m] for m in METRICS if m in r}} for p, r in zip(points, rows, strict=True)]
    )
    if metric not in table.columns:
        raise ValueError(
            f"metric {metric!r} is not measured for this learner (it has {', '.join(c for c in table.columns if c in METRICS)}); "
            "the binary_* metrics exist for one-vs-rest learners only"
        )
    pick = pick_best(table[metric].to_numpy())
    table["chosen"] = np.arange(len(points)) == pick.index
    table["margin"] = table[metric] - table[metric].iloc[pick.index]
    return points[pick.index], table


class Budget(NamedTuple):
    """What :func:`tune_to_budget` chose: the value, its label count on the tuning order, the target, the steps.

    ``hit`` is whether the count is within the relative tolerance of the
    target; otherwise ``value`` is the tried value whose count came nearest
    (a jump in the count, or a target outside the range the bounds give).

    Attributes
    ----------
    value : float
        The value of the query parameter chosen: of the values tried, the one
        whose count came nearest the target (the first tried on a tie).
    count : float
        Its label count on the tuning order (the metric ``count`` of
        :func:`evaluate`).
    target : float
        The label count asked for.
    hit : bool
        Whether ``|count − target| ≤ rtol · target``.
    steps : int
        The passes run: the two ends of ``bounds`` and the bisection steps.
    """

    value: float
    count: float  # type: ignore[assignment]  # the public field shadows tuple.count (kept: API)
    target: float
    hit: bool
    steps: int


def tune_to_budget(
    make_learner: Callable[..., Any],
    param: str,
    bounds: tuple[float, float],
    M: ArrayLike,
    y: ArrayLike,
    order: ArrayLike,
    target: float,
    *,
    count: str = "n_queried",
    log: bool = True,
    rtol: float = 0.02,
    max_steps: int = 40,
    seed: int | None = 0,
    n_classes: int | None = None,
    cache: bool = True,
) -> Budget:
    """The query parameter at which a selective sampler asks for ``target`` labels on a held-out order.

    ``make_learner(**{param: v})`` builds the sampler; its label count
    (the metric ``count`` of :func:`evaluate`: ``n_queried``, or
    ``binary_n_queried`` for the mean over one-vs-rest learners) must be
    monotone in ``v`` on ``bounds = (lo, hi)``, increasing or decreasing:
    the direction is read from the two ends. Bisection (in ``log v`` when
    ``log``) stops when the count is within ``rtol · target`` or after
    ``max_steps`` runs; the value returned is the tried one nearest the
    target (a tie goes to the one tried first). Each run is one pass over
    ``order`` (use :func:`tuning_order`, never an evaluation order), cached
    like :func:`evaluate`.

    Parameters
    ----------
    make_learner : callable
        ``make_learner(**{param: v})`` returns a fresh sampler whose query
        parameter is ``v``.
    param : str
        The name of the query parameter, e.g. ``"h"``.
    bounds : (float, float)
        ``(lo, hi)`` with ``lo < hi`` (and ``lo > 0`` when ``log``): the range
        searched. Both ends are run first; if the target is not between their
        counts, nothing more is run and the nearer end is returned.
    M, y : the inputs of :func:`graphsel_lib.online.run`.
    order : array_like of int of shape (n,)
        The held-out node order each run passes over.
    target : float
        The label count wanted: a finite number ≥ 0.
    count : str, default "n_queried"
        The metric counted: ``"n_queried"``, or ``"binary_n_queried"`` (the
        mean over the one-vs-rest learners).
    log : bool, default True
        Bisect in ``log v`` (the next value run is the geometric mean of the
        ends of the current interval), else in ``v`` (their arithmetic mean).
        A count below the target moves the end on the side of fewer labels to
        that value, any other count the end on the side of more.
    rtol : float, default 0.02
        Stop once a count is within ``rtol · target`` of the target; the same
        tolerance decides ``hit``.
    max_steps : int, default 40
        Run at most this many passes, the two ends included (these run
        whatever ``max_steps``).
    seed : int, default 0
        As in :func:`evaluate`: every run has the seed ``order_seeds(1, seed)[0]``.
    n_classes : int, optional
        As in :func:`evaluate`.
    cache : bool, default True
        Reuse/store each run as one :func:`evaluate` call would.

    Returns
    -------
    Budget
        The value chosen, its count, the target, whether the count is within
        the tolerance (``hit``) and the passes run (see :class:`Budget`).

    Raises
    ------
    ValueError
        ``bounds`` is not ``(lo, hi)`` with ``lo < hi`` (and ``lo > 0`` when
        ``log``); ``target`` is not a finite number ≥ 0; ``count`` is not a
        metric of this learner.

    Examples
    --------
    The ``h`` at which a selective sampler on 30 nodes asks for 10 labels;
    30 nodes cannot give 100:

    >>> from graphsel_lib.experiments import tuning_order
    >>> from graphsel_lib.online import MSG
    >>> M = np.random.default_rng(0).standard_normal((3, 30))
    >>> y = (M[0] > 0).astype(int)
    >>> b = tune_to_budget(MSG, "h", (1e-3, 1e3), M, y, tuning_order(30), 10, cache=False)
    >>> b.count, b.hit, b.steps
    (10.0, True, 8)
    >>> tune_to_budget(MSG, "h", (1e-3, 1e3), M, y, tuning_order(30), 100, cache=False)
    Budget(value=1000.0, count=30.0, target=100.0, hit=False, steps=2)
    """
    from functools import partial

    lo, hi = (float(b) for b in bounds)
    if not (lo < hi) or (log and lo <= 0):
        raise ValueError(
            f"bounds must be (lo, hi) with lo < hi{' and lo > 0 (log scale)' if log else ''}; got {bounds}"
        )
    if not (np.isfinite(target) and target >= 0):
        raise ValueError(f"target must be a label count >= 0, got {target}")
    order = np.asarray(order)[None, :]
    tried = []

    def at(v):
        row = _evaluation.evaluate(partial(make_learner, **{param: v}), M, y, order, seed=seed, n_classes=n_classes,
                       n_jobs=1, cache=cache).iloc[0]  # fmt: skip
        if count not in row:
            raise ValueError(f"count {count!r} is not a metric of this learner; it has {list(row.index)}")
        tried.append((v, float(row[count])))
        return float(row[count])

    c_lo, c_hi = at(lo), at(hi)
    rising = c_hi >= c_lo
    inside = min(c_lo, c_hi) <= target <= max(c_lo, c_hi)
    a, b = (math.log(lo), math.log(hi)) if log else (lo, hi)
    while inside and len(tried) < max_steps and min(abs(c - target) for _, c in tried) > rtol * target:
        mid = (a + b) / 2
        c = at(math.exp(mid) if log else mid)
        if (c < target) == rising:
            a = mid
        else:
            b = mid
    gaps = [abs(c - target) for _, c in tried]
    k = int(np.argmin(gaps))
    return Budget(tried[k][0], tried[k][1], float(target), bool(gaps[k] <= rtol * target), len(tried))


def tuning_note(table: pd.DataFrame, metric: str = "error_rate") -> str:
    """One line on a :func:`tune` table: the chosen point, its score and the margin that chose it.

    Parameters
    ----------
    table : DataFrame
        As :func:`tune` returns it: the parameter columns (numbers, printed
        with ``:g``), the metric columns, ``chosen`` and ``margin``. Every
        column that is neither in :data:`METRICS` nor ``chosen`` or ``margin``
        is read as a parameter.
    metric : str, default "error_rate"
        The metric the table was tuned on.

    Returns
    -------
    str
        The chosen point and its score (4 significant digits), then either the
        points tied with it (a margin within ``TIE_RTOL`` of the score: the
        first in grid order won) or the next best point (the smallest margin
        of the others) and its margin (2 significant digits); with a single
        point, nothing more.

    Examples
    --------
    >>> t = pd.DataFrame({"h": [0.01, 0.1], "error_rate": [0.2131, 0.2140]})
    >>> t["chosen"], t["margin"] = [True, False], t["error_rate"] - 0.2131
    >>> tuning_note(t)
    'h=0.01 (error_rate 0.2131; next best h=0.1, 0.0009 worse)'
    >>> t["error_rate"], t["margin"] = [0.2131, 0.2131], [0.0, 0.0]
    >>> tuning_note(t)
    'h=0.01 (error_rate 0.2131; tied with h=0.1: the first in grid order)'
    """
    params = [c for c in table.columns if c not in (*METRICS, "chosen", "margin")]
    name = lambda row: ", ".join(f"{p}={row[p]:g}" for p in params)  # noqa: E731
    chosen = table[table["chosen"]].iloc[0]
    text = f"{name(chosen)} ({metric} {chosen[metric]:.4g}"
    tied = table[(table["margin"] <= TIE_RTOL * max(abs(chosen[metric]), 1e-300)) & ~table["chosen"]]
    rest = table[~table.index.isin(tied.index) & ~table["chosen"]]
    if len(tied):
        text += f"; tied with {', '.join(name(r) for _, r in tied.iterrows())}: the first in grid order"
    elif len(rest):
        runner = rest.loc[rest["margin"].idxmin()]
        text += f"; next best {name(runner)}, {runner['margin']:.2g} worse"
    return text + ")"
