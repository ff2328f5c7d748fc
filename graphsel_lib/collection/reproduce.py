"""Run every notebook in order with papermill: ``python -m graphsel_lib.reproduce``.

::

    python -m graphsel_lib.reproduce [--profile smoke|full] [--only PATTERN] [--fail-fast]
                                     [--jobs N] [--seed S] [--list] [--timeout SECONDS]
                                     [--book] [--stale] [--compare DIR] [--blas-threads N]
                                     [--root DIR] [--notebooks-dir DIR] [--figures-dir DIR]
                                     [--build-dir DIR] [--kernel NAME]

What it does:

* runs ``notebooks/NN_*.ipynb`` in name order, headless (``MPLBACKEND=agg``),
  with papermill (kernel ``python3``, ``cwd`` = the notebooks folder), injecting
  the parameters ``profile`` and, when ``--seed`` is given, ``seed`` (otherwise
  each notebook keeps its own default seed);
* writes executed copies to ``build/<profile>/notebooks/`` (ignored by git),
  never over the sources;
* figures and tables go to ``figures/`` for the ``full`` profile and to
  ``build/smoke/figures/`` for the ``smoke`` profile, so that a smoke run can
  never overwrite the committed figures (asking for it is refused);
* each notebook writes into its own staging folder (``$GRAPHSEL_FIGURES`` of the
  kernel points there; ``$GRAPHSEL_FIGURES_TARGET`` names the real folder so that
  :func:`graphsel_lib.collection.tables.read_table` can read earlier notebooks' tables);
  only when the notebook succeeds are its files moved into the real folder,
  one ``os.replace`` per file. A failed notebook leaves the last good figures
  untouched; its partial output stays in ``build/<profile>/staging/<name>/``;
* on a failure it reports the notebook, the cell (counted from 1 in the
  source notebook, and as code cell k), the first line of that cell and the
  exception, continues with the other notebooks unless ``--fail-fast``, and
  exits with status 1;
* records, for every notebook that succeeds, which files it wrote with the
  hashes of the notebook and of the library, the profile, the seed and the
  BLAS thread count, in ``<figures>/PROVENANCE.json``
  (:mod:`graphsel_lib.collection.provenance`); files the notebook's previous run wrote and
  this run did not are removed, so no orphan figure survives;
* runs ``--jobs`` notebooks at once (default: one per core) and pins the BLAS and
  numba thread count of every kernel (``--blas-threads``, default: the cores
  divided among the jobs, at least 1), so that the machine is used and never
  oversubscribed; floating-point sums depend on how a product is split between
  threads, and an optimiser can carry that last-bit difference into a visible number;
* starts the notebooks that took longest in the previous run first (their
  ``seconds`` in the figures folder's provenance; a notebook without a recorded time
  counts as longest), so that a long notebook does not start last;
* keeps the executed copy of a failed or interrupted notebook out of
  ``build/<profile>/notebooks/`` (it goes to ``build/<profile>/failed/``), so that
  folder only ever holds complete runs;
* prints progress (notebook i/N, name, status, seconds), a final timing table,
  and writes it to ``build/<profile>/reproduce_summary.json`` and
  ``build/<profile>/timings.csv`` (``notebook,status,seconds``, run order, then
  a ``total`` row with the wall time: with ``--jobs`` > 1 it is less than the sum);
* with ``--book``, renders the executed notebooks into the static HTML book
  ``build/<profile>/book/index.html`` (:mod:`graphsel_lib.collection.book`).

``--stale`` runs nothing: it lists every notebook whose committed figures are
not what its current source makes (edited since, never recorded, another
profile or seed), every file of the figures folder that no recorded run made or
that changed since, and, separately and without failing, the notebooks whose
figures were made with another version of the library. Exit status 1 if
anything is stale.

``--compare DIR`` runs nothing either: it compares every table (CSV) that a
run wrote into ``DIR`` (e.g. ``--figures-dir DIR`` on another machine, or with
``--blas-threads 1``) with the figures folder of the profile, column by column,
and lists every cell that differs; cells of the time columns declared in
:mod:`graphsel_lib.collection.time_columns` are listed apart and do not count
(:mod:`graphsel_lib.collection.compare`). Exit status 1 if any other cell,
column or table differs.

``--only PATTERN`` (repeatable) selects by notebook number when PATTERN is all
digits (``--only 00`` is notebook 00 only, ``--only 4`` notebook 04), by glob when
it holds ``*``, ``?`` or ``[``, and otherwise by a case-insensitive substring
of the file name (``--only ollgc``). ``--jobs N`` runs up to N notebooks at once in separate
processes; notebooks numbered 90 and above (summaries that read the other
notebooks' tables) start only after all the others have finished.
``--root`` (or the finer ``--notebooks-dir``/``--figures-dir``/``--build-dir``)
points the runner at another project, which is how the tests use it.

Exit status: 0 all notebooks succeeded, 1 at least one failed (or, with
``--stale``, something is stale), 2 usage error
(nothing matched ``--only``, nothing to check for ``--stale``, smoke output aimed
at the committed figures),
130 interrupted.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import dataclasses
import errno
import fnmatch
import json
import os
import re
import shutil
import sys
import time
from pathlib import Path

from .._atomic import atomic_path, atomic_write
from ..paths import project_root
from . import compare, provenance
from .explore import HEADLESS_ENV  # set for every kernel: explorers draw one static figure

__all__ = ["RunConfig", "NotebookResult", "find_notebooks", "main", "matches", "run_notebook"]

PROFILES = ("smoke", "full")
FIGURES_ENV = "GRAPHSEL_FIGURES"
TARGET_ENV = "GRAPHSEL_FIGURES_TARGET"  # same name as graphsel_lib.collection.tables.TARGET_ENV
WORKERS_ENV = "GRAPHSEL_WORKERS"  # same name as graphsel_lib.papers.common.WORKERS_ENV
SUMMARY_FIRST = 90  # notebooks numbered >= this wait for all others when running in parallel
_BLAS_ENV = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS")


def available_cores() -> int:
    """Cores this process may run on (its CPU affinity where the system tells it, else ``os.cpu_count()``)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def default_threads(jobs: int, cores: int | None = None) -> int:
    """BLAS threads per kernel when ``jobs`` notebooks share ``cores``: the cores divided among them, at least 1.

    >>> default_threads(2, cores=2), default_threads(1, cores=2), default_threads(3, cores=8)
    (1, 2, 2)
    """
    return max(1, (available_cores() if cores is None else cores) // jobs)


def longest_first(notebooks, seconds: dict) -> list:
    """``notebooks`` ordered by the seconds of their previous run, longest first (list scheduling).

    A notebook with no recorded time counts as longest; ties keep the number order.

    >>> from pathlib import Path
    >>> [p.name for p in longest_first([Path("01_a.ipynb"), Path("02_b.ipynb"), Path("03_c.ipynb")],
    ...                                {"01_a": 5.0, "02_b": 50.0})]
    ['03_c.ipynb', '02_b.ipynb', '01_a.ipynb']
    """
    return sorted(notebooks, key=lambda nb: -seconds.get(nb.stem, float("inf")))


_ERROR_MARKER_TAG = "papermill-error-cell-tag"
_INJECTED_TAG = "injected-parameters"
_NOTEBOOK_RE = re.compile(r"^(\d+)_.*\.ipynb$")
SOLUTIONS = "solutions"  # notebooks/solutions/NN_solutions.ipynb: the exercises' solutions


@dataclasses.dataclass(frozen=True)
class RunConfig:
    """Everything a worker needs to run one notebook (picklable, absolute paths)."""

    profile: str
    notebooks_dir: Path
    figures_dir: Path
    profile_build_dir: Path  # build/<profile>
    seed: int | None = None
    kernel: str = "python3"
    timeout: float | None = None
    blas_threads: int | None = 1
    workers: int = 1  # worker processes of a notebook's sweeps (papers.common.N_JOBS): cores // jobs

    @property
    def executed_dir(self) -> Path:
        return self.profile_build_dir / "notebooks"

    @property
    def failed_dir(self) -> Path:
        return self.profile_build_dir / "failed"

    @property
    def staging_dir(self) -> Path:
        return self.profile_build_dir / "staging"


@dataclasses.dataclass
class NotebookResult:
    """Outcome of one notebook: ``status`` is ``"ok"``, ``"failed"`` or ``"skipped"``."""

    name: str
    status: str
    seconds: float = 0.0
    executed: str | None = None
    published: list = dataclasses.field(default_factory=list)
    failure: dict | None = None
    staging: str | None = None

    def describe_failure(self) -> str:
        """Human-readable lines naming the failing cell and the exception."""
        f = self.failure or {}
        lines = []
        if f.get("cell") is not None:
            where = f"cell {f['cell']}"
            if f.get("code_cell") is not None:
                where += f" (code cell {f['code_cell']})"
            if f.get("exec_count") is not None:
                where += f", In [{f['exec_count']}]"
            first = f.get("first_line") or ""
            lines.append(f"at {where}: {first}")
        lines.append(f"{f.get('ename', 'Error')}: {f.get('evalue', '')}".rstrip(": "))
        if self.executed:
            lines.append(f"executed copy: {self.executed}")
        if self.staging:
            lines.append(f"partial output kept in: {self.staging}")
        return "\n".join(lines)


def matches(name: str, pattern: str) -> bool:
    """Whether notebook file ``name`` is selected by ``pattern``.

    All digits: the notebook's number; with ``*?[``: a glob; else a substring.

    >>> matches("05_ollgc.ipynb", "ollgc"), matches("05_ollgc.ipynb", "0[0-4]_*"), matches("05_ollgc.ipynb", "05_*")
    (True, False, True)
    >>> matches("40_zhang.ipynb", "00"), matches("00_overview.ipynb", "00"), matches("04_llgc.ipynb", "4")
    (False, True, True)
    """
    name, pattern = name.lower(), pattern.strip().lower()
    if pattern.isdigit():
        m = _NOTEBOOK_RE.match(name)
        return bool(m) and int(m.group(1)) == int(pattern)
    if any(c in pattern for c in "*?["):
        return fnmatch.fnmatchcase(name, pattern) or fnmatch.fnmatchcase(Path(name).stem, pattern)
    return pattern in name


def find_notebooks(notebooks_dir, only=None) -> list[Path]:
    """``NN_*.ipynb`` files of ``notebooks_dir`` in name order, filtered by ``only`` (patterns, any match).

    The exercise solutions ``solutions/NN_solutions.ipynb`` run right after
    their chapter NN (so ``--only 05`` runs both): every solution is checked
    whenever the figures are made. They are kept out of the book.
    """
    notebooks_dir = Path(notebooks_dir)
    if not notebooks_dir.is_dir():
        return []
    chapters = [p for p in notebooks_dir.glob("*.ipynb") if _NOTEBOOK_RE.match(p.name)]
    solutions = [p for p in (notebooks_dir / SOLUTIONS).glob("*.ipynb") if _NOTEBOOK_RE.match(p.name)]
    found = sorted(
        chapters + solutions,
        key=lambda p: (int(_NOTEBOOK_RE.match(p.name).group(1)), p.parent.name == SOLUTIONS, p.name),
    )
    if only:
        found = [p for p in found if any(matches(p.name, pat) for pat in only)]
    return found


@contextlib.contextmanager
def _environ(updates: dict):
    """Temporarily set environment variables (the kernel inherits them at start-up)."""
    old = {k: os.environ.get(k) for k in updates}
    try:
        os.environ.update(updates)
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _kernel_env(cfg: RunConfig, staging: Path) -> dict:
    env = {
        FIGURES_ENV: str(staging),
        TARGET_ENV: str(cfg.figures_dir),
        "MPLBACKEND": "agg",
        HEADLESS_ENV: "1",
        "GRAPHSEL_PROFILE": cfg.profile,
        "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED", "0"),
        "SOURCE_DATE_EPOCH": os.environ.get("SOURCE_DATE_EPOCH", "0"),
        WORKERS_ENV: str(cfg.workers),
    }
    if cfg.blas_threads is not None:
        env.update(dict.fromkeys(_BLAS_ENV, str(cfg.blas_threads)))
    return env


def _move(src: Path, dst: Path) -> None:
    """Move one file atomically; across file systems copy to a temporary name, then rename."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.replace(src, dst)
    except OSError as exc:
        if exc.errno != errno.EXDEV:
            raise
        with atomic_path(dst) as tmp:
            shutil.copyfile(src, tmp)
        src.unlink()


def _publish(staging: Path, target: Path) -> list[str]:
    """Move every file staged by a successful notebook into ``target`` (relative paths kept)."""
    moved = []
    for src in sorted(p for p in staging.rglob("*") if p.is_file()):
        if src.name.startswith(".") and ".tmp" in src.name:
            continue  # left by a killed writer; never published
        rel = src.relative_to(staging)
        _move(src, target / rel)
        moved.append(rel.as_posix())
    return moved


def _first_line(source: str) -> str:
    for line in source.splitlines():
        if line.strip():
            line = line.strip()
            return line if len(line) <= 100 else line[:97] + "..."
    return ""


def _locate_failure(exc: BaseException, executed: Path) -> dict:
    """Failing cell of the executed copy, mapped back to the source notebook (counted from 1)."""
    info = {
        "ename": getattr(exc, "ename", None) or type(exc).__name__,
        "evalue": getattr(exc, "evalue", None),
        "exec_count": getattr(exc, "exec_count", None),
        "cell": None,
        "code_cell": None,
        "first_line": None,
    }
    if info["evalue"] is None:
        info["evalue"] = (str(exc).strip().splitlines() or [""])[-1]
    try:
        import nbformat

        nb = nbformat.read(executed, as_version=4)
    except Exception:  # no executed copy (e.g. the kernel never started)
        source = getattr(exc, "source", None)
        if source:
            info["first_line"] = _first_line(source)
        return info
    cells = [c for c in nb.cells if _ERROR_MARKER_TAG not in c.get("metadata", {}).get("tags", [])]

    def failed(cell):
        pm = cell.get("metadata", {}).get("papermill", {})
        if pm.get("exception") is True or pm.get("status") == "failed":
            return True
        return any(
            o.get("output_type") == "error"
            and not (o.get("ename") == "SystemExit" and o.get("evalue") in ("", "0"))
            for o in cell.get("outputs", [])
        )

    bad = next((i for i, c in enumerate(cells) if failed(c)), None)
    if bad is None:  # timeout or dead kernel: the cell still marked as running
        bad = next(
            (
                i
                for i, c in enumerate(cells)
                if c.get("metadata", {}).get("papermill", {}).get("status") == "running"
            ),
            None,
        )
    if bad is None:
        return info
    cell_no = code_no = 0
    for i, c in enumerate(cells[: bad + 1]):
        if _INJECTED_TAG in c.get("metadata", {}).get("tags", []) and i != bad:
            continue
        cell_no += 1
        code_no += c.get("cell_type") == "code"
    cell = cells[bad]
    info["cell"] = cell_no
    info["code_cell"] = code_no if cell.get("cell_type") == "code" else None
    info["first_line"] = _first_line(cell.get("source", ""))
    if info["exec_count"] is None:
        info["exec_count"] = cell.get("execution_count")
    for o in cell.get("outputs", []):
        if o.get("output_type") == "error" and info["ename"] in (type(exc).__name__, "CellExecutionError"):
            info["ename"], info["evalue"] = o.get("ename"), o.get("evalue")
    return info


def _set_aside(executed: Path, failed_copy: Path) -> str | None:
    """Move a part-executed copy out of the folder of complete runs; return its new path."""
    if not executed.exists():
        return None
    _move(executed, failed_copy)
    return str(failed_copy)


#: Tries to start a notebook's kernel: with notebooks run in parallel, two kernels now and then pick the
#: same free TCP port (jupyter_client reserves none), and the loser dies before it answers.
KERNEL_START_ATTEMPTS = 3
_KERNEL_START_FAILURES = ("Kernel died before replying to kernel_info", "Address already in use")


def kernel_did_not_start(exc: BaseException) -> bool:
    """Whether ``exc`` is a kernel that failed to start (no cell ran), not a failure of the notebook.

    >>> kernel_did_not_start(RuntimeError("Kernel died before replying to kernel_info"))
    True
    >>> kernel_did_not_start(ValueError("a cell failed"))
    False
    """
    return any(text in str(exc) for text in _KERNEL_START_FAILURES)


def run_notebook(nb_path, cfg: RunConfig) -> NotebookResult:
    """Execute one notebook with papermill; publish its staged figures only if it succeeds.

    Runs in the calling process (it sets ``os.environ`` while the kernel starts,
    then restores it), so parallel callers must be separate processes.
    """
    import papermill as pm

    nb_path = Path(nb_path)
    name = nb_path.stem
    executed = cfg.executed_dir / nb_path.name
    staging = cfg.staging_dir / name
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    executed.parent.mkdir(parents=True, exist_ok=True)
    executed.unlink(missing_ok=True)  # never leave a stale copy that looks like this run's
    parameters = {"profile": cfg.profile}
    if cfg.seed is not None:
        parameters["seed"] = cfg.seed
    failed_copy = cfg.failed_dir / nb_path.name
    failed_copy.unlink(missing_ok=True)
    t0 = time.perf_counter()
    try:
        for attempt in range(1, KERNEL_START_ATTEMPTS + 1):
            try:
                with _environ(_kernel_env(cfg, staging)):
                    pm.execute_notebook(
                        str(nb_path),
                        str(executed),
                        parameters=parameters,
                        kernel_name=cfg.kernel,
                        progress_bar=False,
                        log_output=False,
                        cwd=str(nb_path.parent),
                        execution_timeout=cfg.timeout,
                    )
                break
            except Exception as exc:
                if attempt == KERNEL_START_ATTEMPTS or not kernel_did_not_start(exc):
                    raise
                executed.unlink(missing_ok=True)  # nothing ran: start the notebook again in a new kernel
    except Exception as exc:
        failure = _locate_failure(exc, executed)
        if cfg.timeout is not None and failure["ename"] in ("KeyboardInterrupt", "CellTimeoutError"):
            failure["evalue"] = f"cell interrupted after the time limit of {cfg.timeout:g} s (--timeout)"
        return NotebookResult(
            name,
            "failed",
            time.perf_counter() - t0,
            _set_aside(executed, failed_copy),
            [],
            failure,
            str(staging),
        )
    except BaseException:  # Ctrl-C: the part-executed copy must not look finished
        _set_aside(executed, failed_copy)
        raise
    seconds = time.perf_counter() - t0
    published = _publish(staging, cfg.figures_dir)
    shutil.rmtree(staging, ignore_errors=True)
    return NotebookResult(name, "ok", seconds, str(executed), published)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m graphsel_lib.reproduce",
        description="Execute the notebooks in order with papermill and regenerate figures and tables.",
    )
    p.add_argument(
        "--profile",
        choices=PROFILES,
        default="full",
        help="full: paper scale, figures/ (committed); smoke: small and fast, build/smoke/figures",
    )
    p.add_argument(
        "--only",
        action="append",
        metavar="PATTERN",
        help="run only notebooks whose name contains PATTERN or matches it as a glob (repeatable)",
    )
    p.add_argument("--fail-fast", action="store_true", help="stop at the first failing notebook")
    p.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=None,
        metavar="N",
        help="notebooks run in parallel (default: one per core)",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        help="inject this seed into every notebook (default: each notebook's own)",
    )
    p.add_argument("--list", action="store_true", help="list the selected notebooks and exit")
    p.add_argument("--timeout", type=float, default=None, metavar="SECONDS", help="per-cell time limit")
    p.add_argument("--kernel", default="python3", help="Jupyter kernel name (default python3)")
    p.add_argument("--root", type=Path, default=None, help="project root (default: this checkout)")
    p.add_argument("--notebooks-dir", type=Path, default=None, help="default ROOT/notebooks")
    p.add_argument(
        "--figures-dir",
        type=Path,
        default=None,
        help="default ROOT/figures (full) or BUILD/smoke/figures (smoke)",
    )
    p.add_argument("--build-dir", type=Path, default=None, help="default ROOT/build")
    p.add_argument(
        "--blas-threads",
        type=int,
        default=None,
        metavar="N",
        help="BLAS and numba threads of every kernel (default: cores // jobs, at least 1; 0 leaves the machine's default)",
    )
    p.add_argument(
        "--book", action="store_true", help="then render the executed notebooks into build/PROFILE/book/"
    )
    p.add_argument(
        "--compare",
        type=Path,
        default=None,
        metavar="DIR",
        help="run nothing; list every table cell of DIR that differs from the figures folder, time columns apart",
    )
    p.add_argument(
        "--stale",
        action="store_true",
        help="run nothing; list figures whose notebook or library changed since they were made (exit 1 if any)",
    )
    return p


def _config(args) -> RunConfig:
    root = (args.root or project_root()).resolve()
    build = (args.build_dir or root / "build").resolve()
    published = (root / "figures").resolve()
    if args.figures_dir is not None:
        figures = args.figures_dir.resolve()
    else:
        figures = published if args.profile == "full" else build / "smoke" / "figures"
    if args.profile == "smoke" and figures == published:
        raise ValueError(f"the smoke profile must not write to the published figures folder {published}")
    per_job = default_threads(args.jobs or available_cores())  # each notebook's share of the cores
    cfg = RunConfig(
        profile=args.profile,
        notebooks_dir=(args.notebooks_dir or root / "notebooks").resolve(),
        figures_dir=figures,
        profile_build_dir=build / args.profile,
        seed=args.seed,
        kernel=args.kernel,
        timeout=args.timeout,
        blas_threads=per_job if args.blas_threads is None else args.blas_threads or None,
        workers=per_job,
    )
    if cfg.executed_dir == cfg.notebooks_dir:
        raise ValueError("executed copies would overwrite the source notebooks: choose another --build-dir")
    return cfg


def _number(path: Path) -> int:
    return int(_NOTEBOOK_RE.match(path.name).group(1))


def _print_result(i: int, n: int, res: NotebookResult) -> None:
    status = {"ok": "ok", "failed": "FAILED", "skipped": "skipped"}[res.status]
    print(f"[{i}/{n}] {res.name}: {status} ({res.seconds:.1f} s)", flush=True)
    if res.status == "failed":
        for line in res.describe_failure().splitlines():
            print(f"        {line}", flush=True)


def _record(nb: Path, res: NotebookResult, cfg: RunConfig) -> None:
    """Write the provenance of a successful run; remove files its previous run made and this one did not."""
    if res.status != "ok":
        return
    gone = provenance.record(
        cfg.figures_dir,
        nb,
        res.published,
        profile=cfg.profile,
        seed=cfg.seed,
        blas_threads=cfg.blas_threads,
        seconds=res.seconds,
    )
    for name in gone:
        (cfg.figures_dir / name).unlink(missing_ok=True)
        print(f"        removed {name}: the notebook no longer writes it", flush=True)


def _run_sequential(notebooks, cfg, fail_fast) -> dict:
    results = {}
    n = len(notebooks)
    for i, nb in enumerate(notebooks, 1):
        if fail_fast and any(r.status == "failed" for r in results.values()):
            results[nb.stem] = NotebookResult(nb.stem, "skipped")
            continue
        print(f"[{i}/{n}] {nb.stem}: running", flush=True)
        res = run_notebook(nb, cfg)
        results[nb.stem] = res
        _print_result(i, n, res)
        _record(nb, res, cfg)
    return results


def _submit(pool, pending, nb, cfg, tag):
    print(f"{tag} {nb.stem}: queued", flush=True)
    pending[pool.submit(run_notebook, nb, cfg)] = nb


def _chapter_of(nb: Path, stage) -> Path | None:
    """The chapter in ``stage`` that the solutions notebook ``nb`` belongs to (None for a chapter)."""
    if nb.parent.name != SOLUTIONS:
        return None
    return next((c for c in stage if c.parent.name != SOLUTIONS and _number(c) == _number(nb)), None)


def previous_seconds(cfg: RunConfig) -> dict:
    """Each notebook's seconds in its last run of ``cfg.profile``, which :func:`longest_first` orders by.

    From the provenance of the folder written to; a notebook it has no time for (a fresh folder, such as
    ``--figures-dir build/mine``) takes its time from the project's committed ``figures/``, so that a first
    run is scheduled longest first too, not in number order.
    """
    seconds = {}
    for folder in dict.fromkeys((cfg.notebooks_dir.parent / "figures", cfg.figures_dir)):  # each read once
        for name, entry in provenance.load(folder)["notebooks"].items():
            if entry.get("seconds") is not None and entry.get("profile", cfg.profile) == cfg.profile:
                seconds[name] = entry["seconds"]
    return seconds


def _run_parallel(notebooks, cfg, fail_fast, jobs) -> dict:
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    index = {nb.stem: i for i, nb in enumerate(notebooks, 1)}
    n = len(notebooks)
    stages = [
        [nb for nb in notebooks if _number(nb) < SUMMARY_FIRST],
        [nb for nb in notebooks if _number(nb) >= SUMMARY_FIRST],
    ]
    seconds = previous_seconds(cfg)
    results = {}
    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        for stage in stages:
            if fail_fast and any(r.status == "failed" for r in results.values()):
                break
            # a solutions notebook starts once its chapter has finished (it may read the chapter's tables)
            chapter_of = {nb: _chapter_of(nb, stage) for nb in stage}
            waiting = [nb for nb in stage if chapter_of[nb] is not None]
            pending = {}
            for nb in longest_first(stage, seconds):
                if chapter_of[nb] is None:
                    _submit(pool, pending, nb, cfg, f"[{index[nb.stem]}/{n}]")
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    nb = pending.pop(fut)
                    if fut.cancelled():
                        continue
                    res = fut.result()
                    results[nb.stem] = res
                    _print_result(index[nb.stem], n, res)
                    _record(nb, res, cfg)
                    for sol in [w for w in waiting if chapter_of[w] == nb]:
                        waiting.remove(sol)
                        if not (fail_fast and res.status == "failed"):
                            _submit(pool, pending, sol, cfg, f"[{index[sol.stem]}/{n}]")
                    if fail_fast and res.status == "failed":
                        for other in list(pending):
                            if other.cancel():
                                pending.pop(other)
    for nb in notebooks:
        results.setdefault(nb.stem, NotebookResult(nb.stem, "skipped"))
    return results


def _summary(results: list[NotebookResult], total: float) -> str:
    width = max([len("notebook"), len("total")] + [len(r.name) for r in results])
    lines = [f"{'notebook':<{width}}  {'status':<7}  {'seconds':>8}  note", "-" * (width + 30)]
    for r in results:
        note = ""
        if r.status == "failed":
            f = r.failure or {}
            note = f"cell {f.get('cell')}: {f.get('ename')}" if f.get("cell") else str(f.get("ename"))
        elif r.status == "ok":
            note = f"{len(r.published)} file(s) published"
        lines.append(f"{r.name:<{width}}  {r.status:<7}  {r.seconds:>8.1f}  {note}".rstrip())
    lines.append(f"{'total':<{width}}  {'':<7}  {total:>8.1f}")
    return "\n".join(lines)


def main(argv=None) -> int:
    """Command-line entry point; returns the exit status (see the module docstring)."""
    args = _parser().parse_args(argv)
    if args.jobs is None:
        args.jobs = available_cores()
    if args.jobs < 1:
        print("error: --jobs must be at least 1", file=sys.stderr)
        return 2
    try:
        cfg = _config(args)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.stale:
        return _stale(cfg, args.only)
    if args.compare is not None:
        return _compare(args.compare, cfg.figures_dir)
    notebooks = find_notebooks(cfg.notebooks_dir, args.only)
    if not notebooks:
        what = f" matching {args.only}" if args.only else ""
        print(f"error: no notebooks NN_*.ipynb{what} in {cfg.notebooks_dir}", file=sys.stderr)
        return 2
    if args.list:
        for i, nb in enumerate(notebooks, 1):
            print(f"[{i}/{len(notebooks)}] {nb.name}")
        return 0

    print(f"profile {cfg.profile}: {len(notebooks)} notebook(s) from {cfg.notebooks_dir}", flush=True)
    print(f"figures and tables -> {cfg.figures_dir}", flush=True)
    print(f"executed notebooks -> {cfg.executed_dir}", flush=True)
    t0 = time.perf_counter()
    try:
        if args.jobs == 1 or len(notebooks) == 1:
            results = _run_sequential(notebooks, cfg, args.fail_fast)
        else:
            results = _run_parallel(notebooks, cfg, args.fail_fast, args.jobs)
    except KeyboardInterrupt:
        print("interrupted: figures of the unfinished notebook were not published", file=sys.stderr)
        return 130
    total = time.perf_counter() - t0
    ordered = [results[nb.stem] for nb in notebooks]
    print()
    print(_summary(ordered, total), flush=True)

    summary_path = cfg.profile_build_dir / "reproduce_summary.json"
    with atomic_write(summary_path, "w", encoding="utf-8") as fh:
        json.dump(
            {
                "profile": cfg.profile,
                "seed": cfg.seed,
                "total_seconds": round(total, 3),
                "notebooks": [dataclasses.asdict(r) for r in ordered],
            },
            fh,
            indent=1,
        )
        fh.write("\n")
    write_timings(cfg.profile_build_dir / "timings.csv", ordered, total)

    failed = [r for r in ordered if r.status == "failed"]
    if failed:
        print(f"\n{len(failed)} notebook(s) failed:", file=sys.stderr)
        for r in failed:
            print(f"  {r.name}", file=sys.stderr)
            for line in r.describe_failure().splitlines():
                print(f"      {line}", file=sys.stderr)
    if args.book:
        from . import book

        status = book.build(
            cfg.profile,
            root=cfg.notebooks_dir.parent,
            build_dir=cfg.profile_build_dir.parent,
            figures_dir=cfg.figures_dir,
        )
        if status:
            return status
    return 1 if failed else 0


def write_timings(path: Path, results: list[NotebookResult], total: float) -> None:
    """Write ``notebook,status,seconds`` per notebook in run order, then a ``total`` row (wall time)."""
    with atomic_write(path, "w", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh, lineterminator="\n")
        out.writerow(["notebook", "status", "seconds"])
        for r in results:
            out.writerow([r.name, r.status, f"{r.seconds:.1f}"])
        out.writerow(["total", "", f"{total:.1f}"])


def _compare(fresh: Path, committed: Path) -> int:
    """``--compare DIR``: print :func:`graphsel_lib.collection.compare.report`; 1 if a table differs outside time cells."""
    try:
        differences = compare.compare_tables(fresh, committed)
    except (FileNotFoundError, ValueError) as exc:  # no folder; a table that is not UTF-8 text
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(compare.report(differences, fresh_dir=fresh, committed_dir=committed))
    return 1 if any(d.fails for d in differences) else 0


def _stale(cfg: RunConfig, only=None) -> int:
    """``--stale``: print what :func:`graphsel_lib.collection.provenance.check` finds; 1 if anything is stale.

    2 (usage error) when there is nothing to check: no notebooks folder, no
    notebook matching ``--only``, or no figures folder; "every figure is
    current" must never be said of nothing.
    """
    notebooks = find_notebooks(cfg.notebooks_dir, only)
    if not cfg.notebooks_dir.is_dir() or not cfg.figures_dir.is_dir():
        missing = cfg.notebooks_dir if not cfg.notebooks_dir.is_dir() else cfg.figures_dir
        print(f"error: nothing to check: {missing} is not a folder (give --root PROJECT)", file=sys.stderr)
        return 2
    if not notebooks:
        what = f" matching {only}" if only else ""
        print(
            f"error: nothing to check: no notebooks NN_*.ipynb{what} in {cfg.notebooks_dir}", file=sys.stderr
        )
        return 2
    try:
        report = provenance.check(notebooks, cfg.figures_dir, profile=cfg.profile)
    except ValueError as exc:  # a damaged manifest: say which file and how to mend it
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if only:  # a selection: judge only the selected notebooks' entries and files
        keep = {nb.stem for nb in notebooks}
        manifest = provenance.load(cfg.figures_dir)["notebooks"]
        mine = {name for stem in keep for name in manifest.get(stem, {}).get("files", {})}
        report.stale = [s for s in report.stale if s[0] in keep]
        report.files = [f for f in report.files if f[0] in mine]
        report.other_library = [s for s in report.other_library if s in keep]
    print(f"figures: {cfg.figures_dir}")
    for line in report.lines():
        print(line)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
