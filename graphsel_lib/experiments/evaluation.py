"""One learner on every order of a graph: :func:`evaluate`, in parallel and cached (gu2013 Sec. 6.3).

Orders run in threads when the learner's compiled pass releases the GIL, else in joblib workers (local
processes, or a Dask cluster through joblib's ``"dask"`` backend); every order carries its own seed, so
the numbers are the same either way. A finished configuration is cached on disk (``cache_key`` names it,
``results_files`` writes it).
"""

from __future__ import annotations

import contextvars
import json
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .. import paths
from ..online import learner_description, run
from .cache_key import _modules_of, learner_key, library_code_hash
from .orders import order_seeds
from .results_files import CACHE_VERSION as _CACHE_VERSION
from .results_files import CURVES
from .results_files import cached_rows_problem as _cached_rows_problem
from .results_files import digest as _digest
from .results_files import read_curves as _read_curves
from .results_files import rows_checksum as _rows_checksum
from .results_files import write_curves as _write_curves
from .results_files import write_rows as _write_rows

if TYPE_CHECKING:
    import os
    from collections.abc import Callable

    from numpy.typing import ArrayLike

__all__ = ["evaluate", "evaluate_curves", "METRICS", "CURVES"]

METRICS = ("error_rate", "n_queried", "time", "binary_error_rate", "binary_n_queried")


def _one_pass(make_learner, M, y, order, seed, n_classes, blas_threads=1, curves=False):
    trace = run(make_learner(), M, y, order=order, seed=seed, n_classes=n_classes, blas_threads=blas_threads)
    row = {"error_rate": trace.error_rate, "n_queried": trace.n_queried, "time": trace.time}
    if "binary_predictions" in trace.records:
        row["binary_error_rate"] = trace.binary_error_rate
        row["binary_n_queried"] = trace.binary_n_queried
    if not curves:
        return row
    arrays = {"mistakes": trace.mistakes, "queried": trace.queried, "elapsed": trace.elapsed}
    if "binary_predictions" in trace.records:
        bp, bq = trace.records["binary_predictions"], trace.records["binary_queried"]  # (T, K) each
        target = np.where(trace.labels[:, None] == np.arange(bp.shape[1]), 1, -1)
        arrays["binary_mistakes"] = (bp != target).sum(axis=1)
        arrays["binary_queried"] = bq.sum(axis=1)
    return row, {k: np.asarray(v, dtype=CURVES[k]) for k, v in arrays.items()}


#: True while :func:`tune` looks its grid up in the cache: :func:`evaluate` then returns None for a
#: configuration not cached instead of running it.
_LOOKUP_ONLY: contextvars.ContextVar[bool] = contextvars.ContextVar("lookup_only", default=False)
#: True while :func:`evaluate_curves` runs :func:`evaluate`: the pass's per-round arrays are returned too.
_WITH_CURVES: contextvars.ContextVar[bool] = contextvars.ContextVar("with_curves", default=False)


def evaluate(
    make_learner: Callable[..., Any],
    M: ArrayLike,
    y: ArrayLike,
    orders: ArrayLike,
    *,
    seed: int | None = 0,
    method: str | None = None,
    n_classes: int | None = None,
    n_jobs: int | None = None,
    backend: str | None = None,
    cache: bool = True,
    cache_dir: str | os.PathLike[str] | None = None,
    progress: bool = False,
    curves: bool = False,
    keep_curves: bool = False,
) -> pd.DataFrame:  # deprecated curves=True: the pair; None only inside tune's look-up of the cache
    """Run a learner on every order; one row per order.

    Parameters
    ----------
    make_learner : callable
        Returns a fresh learner (a class, ``functools.partial`` or lambda; it
        must pickle with cloudpickle for parallel runs).
    M, y : the inputs of :func:`graphsel_lib.online.run`.
    orders : array of shape (n_orders, n)
    seed : int
        Order k runs with ``order_seeds(n_orders, seed)[k]``.
    method : str, optional
        Name in the ``method`` column (default: the learner's ``repr``).
    n_jobs : int, optional
        Parallel workers (default: all cores; 1 runs in this process; −1 all
        cores, as in joblib). A learner whose compiled pass releases the GIL
        (``pass_releases_gil``, e.g. a one-vs-rest GPA, OLLGC or SSLGC) runs
        its orders in threads of this process; any other in joblib worker
        processes.
    backend : str, optional
        joblib backend, e.g. ``"loky"`` or ``"dask"``; given, it is always
        used (no threads). Default: threads as above, else loky processes.
    cache : bool
        Reuse/store the result of this exact configuration on disk, keyed by
        :func:`learner_key` of ``make_learner()``, the data, the orders and
        the seeds. If the folder cannot be written, warn and return the result.
    cache_dir : path, optional
        Default ``paths.cache_dir()/results``.
    curves : bool
        Deprecated: call :func:`evaluate_curves`, which returns the frame with the passes'
        per-round arrays; ``curves=True`` still returns that pair, for one release, with a
        ``DeprecationWarning``.
    keep_curves : bool
        Keep the per-round arrays of the passes that run (for a later
        :func:`evaluate_curves`) and return the frame alone; rows already cached are
        returned as they are, without running their passes for the curves.

    Returns
    -------
    DataFrame with columns ``method, order, error_rate, n_queried, time`` (and
    ``binary_error_rate, binary_n_queried`` for one-vs-rest learners).
    """
    from joblib import delayed

    if curves:
        warnings.warn(
            "evaluate(..., curves=True) is deprecated and goes in the next release: call evaluate_curves(...), "
            "which returns the frame and the per-round arrays",
            DeprecationWarning,
            stacklevel=2,
        )
    curves = curves or _WITH_CURVES.get()
    orders = np.asarray(orders)
    if orders.ndim != 2:
        raise ValueError(f"orders must have shape (n_orders, n), got {orders.shape}")
    M = np.ascontiguousarray(M, dtype=np.float64)
    y = np.asarray(y)
    learner = make_learner()
    name = repr(learner)
    method = name if method is None else method
    seeds = order_seeds(len(orders), seed)

    path = None
    if cache:
        try:
            description = learner_description(learner)
            described = learner_key(learner)
            code = library_code_hash(_modules_of(description) | {"graphsel_lib.online.protocol"})
        except Exception as exc:  # noqa: BLE001 - a learner we cannot describe is run, not cached
            warnings.warn(
                f"results of {method} not cached: cannot describe {name} ({exc!r})", RuntimeWarning, 2
            )
            cache = False
    if cache:
        key = _digest(
            f"v{_CACHE_VERSION}",
            described,
            code,
            str(n_classes),
            str(seeds),
            M,
            y,
            orders,
        )
        folder = Path(cache_dir) if cache_dir is not None else paths.cache_dir() / "results"
        path = folder / f"{key[:32]}.json"
        if path.is_file():
            try:
                stored = json.loads(path.read_text())
                if stored["version"] == _CACHE_VERSION:
                    problem = _cached_rows_problem(stored["rows"], len(orders))
                    sealed = "checksum" in stored  # files written before rows were checksummed are sealed now
                    if problem is None and sealed and stored["checksum"] != _rows_checksum(stored["rows"]):
                        problem = "was edited: its rows no longer match the checksum stored with them"
                    if problem is None:
                        if not sealed:
                            _write_rows(path, name, stored["rows"], method)
                        if not curves:  # with keep_curves too: only passes that run keep curves
                            return _frame(stored["rows"], method)
                        arrays = _read_curves(path, orders.shape)
                        if arrays is not None:
                            return _frame(stored["rows"], method), arrays
                        # rows without their curves: the passes run again, once, for them
                    else:
                        warnings.warn(
                            f"results cache {path} {problem}: recomputing {method}",
                            RuntimeWarning,
                            stacklevel=2,
                        )
            except (OSError, ValueError, KeyError, TypeError):
                pass  # unreadable or corrupted: recompute and overwrite

    if _LOOKUP_ONLY.get():
        return None  # inside tune's look-up of the cache: nothing cached, nothing run
    jobs = [
        delayed(_one_pass)(make_learner, M, y, o, s, n_classes, curves=curves or keep_curves)
        for o, s in zip(orders, seeds, strict=True)
    ]
    if n_jobs == 1 or len(orders) <= 1:
        rows = [f(*a, **k) for f, a, k in _progress(jobs, progress, method, len(jobs))]
    elif backend is None and _default_backend() and _releases_gil(learner, M, y, n_classes):
        rows = _threaded(jobs, n_jobs, progress=(method if progress else None))
    else:
        rows = _parallel(jobs, n_jobs, backend, progress=(method if progress else None))
    if curves or keep_curves:
        rows, per_pass = [r for r, _ in rows], [a for _, a in rows]
        arrays = {k: np.stack([a[k] for a in per_pass]) for k in per_pass[0]} if per_pass else {}
        if path is not None:
            _write_curves(path, arrays)
    if path is not None:
        _write_rows(path, name, rows, method)
    return (_frame(rows, method), arrays) if curves else _frame(rows, method)


def evaluate_curves(
    make_learner: Callable[..., Any], M: ArrayLike, y: ArrayLike, orders: ArrayLike, **options: Any
) -> tuple[pd.DataFrame, dict[str, np.ndarray]]:
    """:func:`evaluate`'s rows and every pass's per-round arrays, kept in the cache beside the rows.

    A notebook that draws the curves of passes another one ran (gu2013 Fig. 2, yang2016 Fig. 1)
    reads them from the cache instead of replaying the passes; rows cached without their curves
    are run again, once, for them.

    Parameters
    ----------
    make_learner, M, y, orders, **options
        As in :func:`evaluate` (``seed``, ``method``, ``n_classes``, ``n_jobs``, ``backend``,
        ``cache``, ``cache_dir``, ``progress``).

    Returns
    -------
    frame : DataFrame
        As :func:`evaluate` returns it.
    arrays : dict of str to ndarray of shape (n_orders, T)
        The arrays of :data:`CURVES` (mistakes, queries, elapsed time per round, and for one-vs-rest
        learners the binary mistakes and queries), one row per order.

    Examples
    --------
    >>> import numpy as np
    >>> from graphsel_lib.online import CMOG
    >>> M, orders = np.random.default_rng(0).normal(size=(3, 8)), [np.arange(8), np.arange(8)[::-1]]
    >>> frame, arrays = evaluate_curves(CMOG, M, np.arange(8) % 2, orders, n_jobs=1, cache=False)
    >>> len(frame), arrays["mistakes"].shape, bool(np.allclose(arrays["mistakes"].mean(1), frame.error_rate))
    (2, (2, 8), True)
    """
    token = _WITH_CURVES.set(True)
    try:
        return evaluate(make_learner, M, y, orders, **options)
    finally:
        _WITH_CURVES.reset(token)


def _progress(items, show, desc, total):
    """``items`` wrapped in a tqdm progress bar when ``show``."""
    if not show:
        return items
    from tqdm.auto import tqdm

    return tqdm(items, desc=desc, total=total, leave=False)


def _default_backend():
    """True if no joblib context chose a backend (e.g. Dask) around this call."""
    from joblib.parallel import get_active_backend

    return type(get_active_backend()[0]).__name__ == "LokyBackend"


def _releases_gil(learner, M, y, n_classes):
    """True if ``learner``, once reset for these data, plays its passes in compiled code without the GIL."""
    K = int(n_classes) if n_classes is not None else int(np.max(y)) + 1
    try:
        learner.reset(M.shape[0], K, np.random.default_rng(0))
    except Exception:  # noqa: BLE001 - a learner that cannot be reset here is run the usual way
        return False
    return bool(getattr(learner, "pass_releases_gil", False))


def _threaded(jobs, n_jobs, progress=None):
    """Run joblib jobs in threads of this process, in order (for passes that release the GIL).

    No worker process starts, so a sweep pays no start-up (about 2 s for two
    loky workers that import the library and load the compiled loop). The
    passes use no BLAS; one limit around all of them replaces ``run``'s own,
    whose enter/exit would race between threads.
    """
    import os
    from concurrent.futures import ThreadPoolExecutor

    from threadpoolctl import threadpool_limits

    jobs = list(jobs)
    cores = os.cpu_count() or 1
    workers = cores if n_jobs is None else int(n_jobs) if n_jobs > 0 else max(1, cores + 1 + int(n_jobs))
    with threadpool_limits(limits=1), ThreadPoolExecutor(max_workers=max(1, min(workers, len(jobs)))) as pool:
        results = pool.map(lambda job: job[0](*job[1], **{**job[2], "blas_threads": None}), jobs)
        return list(_progress(results, progress is not None, progress, len(jobs)))


def _parallel(jobs, n_jobs, backend, progress=None):
    """Run joblib jobs in order; ``parallel_config`` registers external backends such as ``"dask"``.

    ``progress``: a description to show a progress bar with, or None.

    Local worker processes (loky, the default) get one BLAS thread each: a
    pass is sequential (``run`` limits the BLAS to one thread anyway), and
    workers that inherit a larger setting from the parent (e.g.
    ``OPENBLAS_NUM_THREADS=2``, as the notebook runner sets) keep idle BLAS
    threads that spin against the other workers: measured on two cores, 20
    orders of a one-vs-rest learner on PubMed ran 4–7 times slower.
    """
    from contextlib import nullcontext

    from joblib import Parallel, parallel_config

    jobs = list(jobs)
    if backend is None and _default_backend():
        backend = "loky"  # the default (no joblib context around us): local processes
    config = {"backend": backend, "inner_max_num_threads": 1} if backend == "loky" else {"backend": backend}
    with parallel_config(**config) if backend else nullcontext():  # None: the caller's joblib context
        results = Parallel(n_jobs=-1 if n_jobs is None else n_jobs, return_as="generator")(jobs)
        return list(_progress(results, progress is not None, progress, len(jobs)))


def _frame(rows, method):
    df = pd.DataFrame(rows)
    df.insert(0, "order", np.arange(len(df)))
    df.insert(0, "method", method)
    return df
