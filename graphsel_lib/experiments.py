"""The experiment protocol of gu2013 Sec. 6.3 and yang2016 Sec. V.

* ``n_orders`` (20) random node orders drawn from one seed, plus a separate
  held-out *tuning* order drawn from an independent stream of the same seed;
* hyper-parameters chosen on the tuning order over the paper's grid, a tie
  (scores within a relative ``TIE_RTOL`` = 1e-9, i.e. equal but for rounding)
  going to the first setting in grid order (:func:`pick_best`; grids list the
  smallest value first), and the margin that decided reported;
* a selective sampler run at a given label budget has its query parameter
  set on the same held-out order (:func:`tune_to_budget`, bisection);
* mean ± std over the orders, paired t-test between methods (95 %);
* orders run in parallel with joblib (local processes by default; a Dask
  cluster through joblib's ``"dask"`` backend when a ``distributed.Client`` is
  active and ``backend="dask"``): the same numbers either way, because every
  order carries its own seed;
* finished configurations are cached on disk (``paths.cache_dir()/results``),
  keyed by :func:`learner_key` (the learner's class, its ``__init__``
  parameters, nested learners, and the code of any learner class written
  outside the library, e.g. in a notebook), the data, the orders and
  :func:`library_code_hash` of the library code the learner runs (its modules and
  what they import, docstrings left out: editing an update rule invalidates its
  results, a docstring or another learner does not), so re-running a notebook
  does not redo them. On request (``keep_curves``, ``curves``) the per-round
  arrays of the passes are kept beside the rows, so that a figure of the curves
  of passes another notebook ran reads them instead of replaying them. Cached rows keep the
  wall times measured when they were computed, and a checksum of the rows:
  a cache file whose rows were edited is refused with a warning and
  recomputed. A cache folder that cannot be written gives a warning, not an error.
"""

from __future__ import annotations

import ast
import contextvars
import functools
import hashlib
import json
import math
import re
import warnings
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import stats

from . import paths
from ._results_files import CACHE_VERSION as _CACHE_VERSION
from ._results_files import CURVES
from ._results_files import cached_rows_problem as _cached_rows_problem
from ._results_files import digest as _digest
from ._results_files import read_curves as _read_curves
from ._results_files import rows_checksum as _rows_checksum
from ._results_files import write_curves as _write_curves
from ._results_files import write_rows as _write_rows
from .online import learner_description, run

__all__ = [
    "random_orders",
    "tuning_order",
    "order_seeds",
    "evaluate",
    "sweep",
    "tune",
    "pick_best",
    "tuning_note",
    "tune_to_budget",
    "Budget",
    "Pick",
    "TIE_RTOL",
    "learner_key",
    "summarize",
    "paired_ttest",
    "mean_std",
    "METRICS",
    "CURVES",
]

METRICS = ("error_rate", "n_queried", "time", "binary_error_rate", "binary_n_queried")
TIE_RTOL = 1e-9  # scores this close (relative) are a tie: rounding, not the data, would decide them
_TUNING_STREAM = 10_007  # any fixed constant: separates the tuning order from the test orders


def random_orders(n, n_orders=20, seed=0) -> np.ndarray:
    """``(n_orders, n)`` array: row k is the k-th random node order of ``seed``."""
    rng = np.random.default_rng(seed)
    return np.stack([rng.permutation(n) for _ in range(n_orders)]) if n_orders else np.empty((0, n), int)


def tuning_order(n, seed=0) -> np.ndarray:
    """A held-out random order for hyper-parameter tuning, independent of :func:`random_orders`."""
    return np.random.default_rng([seed, _TUNING_STREAM]).permutation(n)


def order_seeds(n_orders, seed=0) -> list[int]:
    """Per-order seeds for randomised learners (order k gets the k-th)."""
    return [int(s.generate_state(1)[0]) for s in np.random.SeedSequence(seed).spawn(n_orders)]


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


LIBRARY_ROOT = Path(__file__).parent


def _module_file(name, root):
    rel = Path(*name.split(".")[1:])
    for path in (root / rel.with_suffix(".py"), root / rel / "__init__.py"):
        if path.is_file():
            return path
    return None


def _library_imports(name, tree, is_package, root):
    """The ``graphsel_lib`` modules that module ``name`` imports (at any depth of its code; packages only if needed)."""
    found = set()
    here = name.split(".") if is_package else name.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = ".".join(here[: len(here) - node.level + 1] + ([node.module] if node.module else []))
            module = module if node.level else (node.module or "")
            if not module.startswith("graphsel_lib"):
                continue
            subs = {f"{module}.{a.name}" for a in node.names if _module_file(f"{module}.{a.name}", root)}
            path = _module_file(module, root)
            if path is not None and not (path.name == "__init__.py" and len(subs) == len(node.names)):
                found.add(module)  # names taken from the module itself (not only submodules of a package)
            found |= subs
        elif isinstance(node, ast.Import):
            found |= {
                a.name for a in node.names if a.name.startswith("graphsel_lib") and _module_file(a.name, root)
            }
    return found


def _without_docstrings(tree):
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(getattr(body[0], "value", None), ast.Constant)
            ):
                if isinstance(body[0].value.value, str):
                    node.body = body[1:] or [ast.Pass()]
    return tree


def library_code_hash(modules, *, root=LIBRARY_ROOT) -> str:
    """SHA-256 of the code the results of a learner depend on: its modules and every library module they import.

    The modules (e.g. those :func:`learner_description` names, and
    ``graphsel_lib.online.protocol``) are followed through their imports inside
    ``graphsel_lib``, eager or lazy; each is hashed as its syntax tree without
    docstrings, so a comment or docstring edit keeps the cache and a change of an
    update rule, a compiled kernel or a helper they call does not.
    """
    seen, code, todo = set(), {}, sorted(modules)
    while todo:
        name = todo.pop()
        if name in seen or not name.startswith("graphsel_lib"):
            continue
        path = _module_file(name, root)
        if path is None:
            continue
        seen.add(name)
        stat = path.stat()
        imports, code[name] = _module_code(name, str(path), stat.st_mtime_ns, stat.st_size, str(root))
        todo += sorted(set(imports) - seen)
    h = hashlib.sha256()
    for name in sorted(seen):
        h.update(name.encode())
        h.update(code[name].encode())
    return h.hexdigest()


@functools.lru_cache(maxsize=512)
def _module_code(name, path, mtime_ns, size, root):
    """``(library modules it imports, its syntax tree without docstrings)`` of one file, read once per version."""
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    imports = tuple(sorted(_library_imports(name, tree, Path(path).name == "__init__.py", Path(root))))
    return imports, ast.dump(_without_docstrings(tree), include_attributes=False)


def _modules_of(description) -> set:
    """The ``graphsel_lib`` modules named in a :func:`learner_description` (classes along each learner's MRO)."""
    text = json.dumps(description)
    return set(re.findall(r'"(graphsel_lib(?:\.[A-Za-z0-9_]+)+)"', text))


def learner_key(learner) -> str:
    """SHA-256 naming what ``learner`` computes, for the results cache.

    It covers the learner's class (module and qualified name along its MRO),
    its ``__init__`` parameters read back as scikit-learn's ``get_params``
    (nested learners recursively; a factory parameter such as
    :class:`~graphsel_lib.online.OneVsRest`'s by the learner it built; arrays by
    digest) and, for classes and functions written outside ``graphsel_lib`` and
    installed packages, their code (methods, defaults, closures, the globals
    they read): a subclass or an edited notebook learner gets a key of its own,
    where ``repr`` may not tell them apart. The library's own code enters the
    cache key through :func:`library_code_hash` of the modules it runs.
    """
    text = json.dumps(learner_description(learner), separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


#: True while :func:`tune` looks its grid up in the cache: :func:`evaluate` then returns None for a
#: configuration not cached instead of running it.
_LOOKUP_ONLY: contextvars.ContextVar[bool] = contextvars.ContextVar("lookup_only", default=False)


def evaluate(
    make_learner,
    M,
    y,
    orders,
    *,
    seed=0,
    method=None,
    n_classes=None,
    n_jobs=None,
    backend=None,
    cache=True,
    cache_dir=None,
    progress=False,
    curves=False,
    keep_curves=False,
):
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
        Also keep every pass's per-round arrays (:data:`CURVES`: mistakes,
        queries, elapsed time, and for one-vs-rest learners the binary
        mistakes and queries per round) in the cache beside the rows, and
        return them: a notebook that draws the curves of passes another one
        ran (gu2013 Fig. 2, yang2016 Fig. 1) reads them instead of replaying
        the passes. Rows cached without curves are recomputed once.
    keep_curves : bool
        Keep the per-round arrays of the passes that run (for a later
        ``curves=True``) and return the frame alone; rows already cached are
        returned as they are, without running their passes for the curves.

    Returns
    -------
    DataFrame with columns ``method, order, error_rate, n_queried, time`` (and
    ``binary_error_rate, binary_n_queried`` for one-vs-rest learners); with
    ``curves``, the pair ``(frame, arrays)``, ``arrays[name]`` of shape
    ``(n_orders, T)``.
    """
    from joblib import delayed

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


def sweep(
    make,
    grid,
    graphs,
    orders,
    metrics=None,
    *,
    seed=0,
    n_classes=None,
    n_jobs=None,
    backend=None,
    cache=True,
    cache_dir=None,
    progress=False,
    keep_curves=False,
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
        a later ``evaluate(..., curves=True)`` of the same configuration; the frame returned is the same.

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


class Pick(NamedTuple):
    """What :func:`pick_best` chose: the index, how many scores tied with the best, and the margin.

    ``margin`` is the change a score would need to alter the choice: how much
    worse the next best score is, ``0.0`` on a tie (``n_tied > 1``, :attr:`tied`:
    the order of the candidates chose, not the scores), ``inf`` with a single
    candidate (nothing else could be chosen).
    """

    index: int
    n_tied: int
    margin: float

    @property
    def tied(self) -> bool:
        """True if other scores equal the best (to the relative tolerance): the first of them was taken."""
        return self.n_tied > 1


def pick_best(scores, *, maximize=False, rtol=TIE_RTOL) -> Pick:
    """The best of ``scores``, a tie going to the first in order (list a grid from its smallest setting).

    Scores within ``rtol · max(|best|, 1e-300)`` of the best count as tied
    (rounding, not the data, separates them), so that last-bit differences
    between machines cannot move the choice; among tied scores the first in
    the given order wins, and the margin is 0 (:attr:`Pick.tied`). NaN scores
    are never chosen; infinite scores are refused (a ValueError naming them).

    >>> pick_best([0.3, 0.2 + 1e-17, 0.2, 0.25])
    Pick(index=1, n_tied=2, margin=0.0)
    >>> pick_best([0.3, 0.2, 0.25])
    Pick(index=1, n_tied=1, margin=0.04999999999999999)
    >>> pick_best([1.0, 3.0], maximize=True).index
    1
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
    make_learner,
    grid,
    M,
    y,
    order,
    *,
    metric="error_rate",
    seed=0,
    n_classes=None,
    n_jobs=None,
    backend=None,
    cache=True,
):
    """Pick hyper-parameters on a held-out order (gu2013 Sec. 6.3).

    ``make_learner(**params)`` builds a learner; ``grid`` maps each parameter
    name to its candidate values. The smallest ``metric`` wins; a tie (within
    a relative ``TIE_RTOL``) goes to the first point in grid order
    (:func:`pick_best`).

    Returns
    -------
    best : dict
        The parameters chosen.
    table : DataFrame
        One row per grid point with the parameters and all metrics, and
        ``chosen`` (bool) and ``margin`` (``metric`` minus the chosen point's):
        the smallest positive margin is how much the choice was won by.
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
        df = evaluate(
            partial(make_learner, **p), M, y, order, seed=seed, n_classes=n_classes, n_jobs=1, cache=cache
        )
        return None if df is None else df.iloc[0]

    rows = [None] * len(points)
    if cache:  # the cached points are read here: worker processes start only for the others
        token = _LOOKUP_ONLY.set(True)
        try:
            rows = [one(p) for p in points]
        finally:
            _LOOKUP_ONLY.reset(token)
    todo = [i for i, r in enumerate(rows) if r is None]
    if n_jobs == 1 or len(todo) <= 1:
        done = [one(points[i]) for i in todo]
    else:
        done = _parallel((delayed(one)(points[i]) for i in todo), n_jobs, backend)
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
    """

    value: float
    count: float
    target: float
    hit: bool
    steps: int


def tune_to_budget(
    make_learner,
    param,
    bounds,
    M,
    y,
    order,
    target,
    *,
    count="n_queried",
    log=True,
    rtol=0.02,
    max_steps=40,
    seed=0,
    n_classes=None,
    cache=True,
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
        row = evaluate(partial(make_learner, **{param: v}), M, y, order, seed=seed, n_classes=n_classes,
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


def tuning_note(table, metric="error_rate") -> str:
    """One line on a :func:`tune` table: the chosen point, its score and the margin that chose it.

    >>> t = pd.DataFrame({"h": [0.01, 0.1], "error_rate": [0.2131, 0.2140]})
    >>> t["chosen"], t["margin"] = [True, False], t["error_rate"] - 0.2131
    >>> tuning_note(t)
    'h=0.01 (error_rate 0.2131; next best h=0.1, 0.0009 worse)'
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


def summarize(df, metrics=None, by="method") -> pd.DataFrame:
    """Mean and standard deviation (ddof=1) of each metric per method, in first-seen order."""
    metrics = [m for m in (metrics or METRICS) if m in df.columns]
    g = df.groupby(by, sort=False)[metrics]
    out = g.mean().add_suffix("_mean").join(g.std(ddof=1).add_suffix("_std"))
    return out[[f"{m}_{s}" for m in metrics for s in ("mean", "std")]].reset_index()


def paired_ttest(df, a, b, metric="error_rate", *, alpha=0.05, by="method"):
    """Paired t-test of ``metric`` between methods ``a`` and ``b`` over the same orders.

    Returns a dict with the mean difference (a − b), t, p and whether the
    difference is significant at level ``alpha`` (gu2013 uses 95 %).

    Raises
    ------
    ValueError
        ``a`` or ``b`` is not in ``df[by]``; the two were not run on the same
        orders (other order ids, or an order id repeated within one method, so
        that the pairs are ambiguous); fewer than two orders (no test).
    """
    absent = [m for m in dict.fromkeys((a, b)) if not (df[by] == m).any()]
    if absent:
        known = ", ".join(repr(m) for m in pd.unique(df[by]))
        raise ValueError(
            f"{', '.join(map(repr, absent))} not in the {by!r} column (it has {known or 'nothing'})"
        )
    xa = df[df[by] == a].sort_values("order", kind="stable")
    xb = df[df[by] == b].sort_values("order", kind="stable")
    for m, x in ((a, xa), (b, xb)):
        repeated = x["order"][x["order"].duplicated()].unique()
        if len(repeated):
            raise ValueError(
                f"{a!r} and {b!r} cannot be paired on the same orders: order ids {repeated[:5].tolist()} repeat "
                f"within {m!r} (several settings or datasets in one table? select one first)"
            )
    if len(xa) != len(xb) or not np.array_equal(xa["order"].to_numpy(), xb["order"].to_numpy()):
        only_a = sorted(set(xa["order"]) - set(xb["order"]))[:5]
        only_b = sorted(set(xb["order"]) - set(xa["order"]))[:5]
        raise ValueError(
            f"{a!r} and {b!r} were not run on the same orders (only {a!r}: {only_a}, only {b!r}: {only_b})"
        )
    if len(xa) < 2:
        raise ValueError(f"a paired t-test needs at least two orders; {a!r} and {b!r} share {len(xa)}")
    va, vb = xa[metric].to_numpy(float), xb[metric].to_numpy(float)
    if np.allclose(va, vb):
        t, p = 0.0, 1.0
    else:
        t, p = stats.ttest_rel(va, vb)
    return {
        "a": a,
        "b": b,
        "metric": metric,
        "mean_diff": float(np.mean(va - vb)),
        "t": float(t),
        "p": float(p),
        "significant": bool(p < alpha),
    }


def mean_std(mean, std, digits=4) -> str:
    """``"0.1838 ± 0.0021"``."""
    return f"{mean:.{digits}f} ± {std:.{digits}f}"
