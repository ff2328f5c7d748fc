"""Helpers that the paper notebooks share: the ``profile`` switch, number spans in prose, run time and machine.

Small and free of any paper's content; each paper module (``yang2016``, ...) imports them.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import platform
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ..collection import scorecard
from ..collection.tables import DEFAULT_FLOAT_FORMAT, write_table
from ..spectral import Split, add_bias

__all__ = [
    "IMDB_PAPER_NAME",
    "N_JOBS",
    "N_PUBLISHED",
    "PROFILES",
    "STAND_IN",
    "ProfileProtocol",
    "Result",
    "at_rank",
    "bias_variants",
    "table_field",
    "cpu_model",
    "is_smoke",
    "judge_at_budget",
    "machine_note",
    "run_time_note",
    "span",
    "split_note",
]

#: The two sizes every paper notebook runs at: ``smoke`` (small and fast, tests the code) and ``full``
#: (paper scale, writes ``figures/``).
PROFILES = ("smoke", "full")


def is_smoke(profile: str) -> bool:
    """``True`` for ``"smoke"``, ``False`` for ``"full"``; anything else is an error.

    >>> is_smoke("smoke"), is_smoke("full")
    (True, False)
    """
    if profile not in PROFILES:
        raise ValueError(f"profile must be 'smoke' or 'full', got {profile!r}")
    return profile == "smoke"


WORKERS_ENV = "GRAPHSEL_WORKERS"  #: set by the notebook runner: the cores divided among the notebooks it runs


def _workers(default: int = 2) -> int:
    """Worker processes for the papers' sweeps: ``$GRAPHSEL_WORKERS`` (the runner's cores // jobs), else ``default``."""
    value = os.environ.get(WORKERS_ENV, "")
    if not value:
        return default
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"{WORKERS_ENV} must be a positive integer (worker processes), got {value!r}")
    return int(value)


#: Worker processes for the papers' sweeps (each task seeded, on one BLAS thread: the count never changes a
#: number). Two when run by hand; under the runner the cores divided among its notebooks, so that two notebooks
#: on two cores run one process each instead of a kernel and two workers each.
N_JOBS = _workers()

N_PUBLISHED = 20  #: gu2013 and yang2016 average their published errors over 20 random orders

STAND_IN = "citeseer"  #: stands in for IMDB (not available to us) in gu2013's and yang2016's tables
#: Our data set -> the paper's name (CiteSeer is compared with nothing: it stands in for IMDB).
IMDB_PAPER_NAME = {"coauthor": "Coauthor", "cora": "Cora", "pubmed": "PubMed", STAND_IN: "IMDB"}


@dataclass(frozen=True)
class ProfileProtocol:
    """What every paper's protocol starts with: the profile it was built for (``smoke`` or ``full``)."""

    profile: str

    @property
    def smoke(self) -> bool:
        return is_smoke(self.profile)


def span(lo, hi, fmt: str = ".4f") -> str:
    """``"lo to hi"`` in format ``fmt``, or a single value when both print the same.

    >>> span(0.1, 0.25, ".2f"), span(0.1234, 0.12341), span(-0.01, 0.02, "+.2f")
    ('0.10 to 0.25', '0.1234', '-0.01 to +0.02')
    """
    a, b = format(lo, fmt), format(hi, fmt)
    return a if a == b else f"{a} to {b}"


def run_time_note(t_start: float, profile: str) -> str:
    """The line a notebook ends with: wall time since ``t_start`` (``time.perf_counter()``) and the profile."""
    return f"notebook run time: {time.perf_counter() - t_start:.1f} s (profile={profile})"


def cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo`` on Linux, else :func:`platform.processor`), or ``"unknown"``."""
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine_note() -> str:
    """One line on the machine a time was measured on: platform, CPU, logical cores, load and Python."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (
        f"machine: {platform.platform()}, CPU {cpu_model()}, {os.cpu_count()} logical cores, "
        f"load average {load:.2f}, python {platform.python_version()}"
    )


def judge_at_budget(at, tolerance, published_std, own_ratio=None):
    """An at-the-published-budget table with the scorecard's ``verdict`` and each row's ``role``.

    ``at``: one row per (dataset, method) with ``published``, ``ours``, ``ours std``, ``orders``,
    ``#queried`` and ``published #queried``; ``tolerance``, ``published_std``: per row; ``own_ratio``:
    per row, the headline run's label count over the published. Where that count misses the
    published by more than 25 %, this run is the headline error verdict (the headline run is the
    ``error@tuned`` diagnostic); elsewhere it is a check beside the headline run.
    """
    out = at.copy()
    ratio = out["#queried"] / out["published #queried"]
    out["verdict"] = [
        scorecard.error_verdict(o - p, t, s, n, ps, N_PUBLISHED, budget_ratio=r)
        for o, p, t, s, n, ps, r in zip(out.ours, out.published, tolerance, out["ours std"], out.orders,
                                        published_std, ratio, strict=True)
    ]  # fmt: skip
    if own_ratio is None:
        return out
    out["role"] = [
        f"headline error (its tuned count is {r - 1:+.0%} from the published; that run: error@tuned)"
        if abs(r - 1) > scorecard.QUERY_BUDGET
        else "check (its tuned count is within 25 % of the published: that run is the headline)"
        for r in own_ratio
    ]
    return out


def _published_markers(ax, x, y, marker, color, *, markersize, **kwargs):
    """Draw published numbers beside ours on ``ax``: open markers of ``marker``, ``color``, no line (``kwargs``: e.g. ``label``)."""
    return ax.plot(
        x,
        y,
        marker=marker,
        color=color,
        markerfacecolor="none",
        markersize=markersize,
        linestyle="none",
        **kwargs,
    )


def bias_variants(M, b, labels):
    """``data(bias)`` for :func:`~graphsel_lib.experiments.sweep`: the spectral features without
    (``bias=False``) or with the constant feature ``b`` (``add_bias``; gu2013 Sec. 4.2, yang2016 Sec. V-A),
    and the labels."""
    return functools.partial(_bias_variant, {False: M, True: add_bias(M, b)}, labels)


def _bias_variant(X_of, labels, bias):
    return X_of[bias], labels


def at_rank(X_of, labels, d):
    """``data(d)`` for :func:`~graphsel_lib.experiments.sweep` over the rank (with ``functools.partial``):
    the rank-d features ``X_of[d]`` and the labels."""
    return X_of[d], labels


@dataclass(frozen=True)
class _Table:
    """How :meth:`Result.write` writes one table field (see :func:`table_field`)."""

    file: str | None
    float_format: Any
    formats: Mapping | None
    na_rep: str
    view: Callable | None
    optional: bool


def table_field(
    file: str | None = None,
    *,
    float_format=DEFAULT_FLOAT_FORMAT,
    formats: Mapping | None = None,
    na_rep: str = "",
    view: Callable | None = None,
    optional: bool = False,
    required: bool = False,
):
    """A dataclass field holding a table that :meth:`Result.write` writes.

    ``file``: the name after the class's ``PREFIX`` (default: the attribute's
    name); ``float_format``: every float column's format, ``formats``: some
    columns' own; ``view``: what is written, computed from the field (a column
    subset, a pivot); ``optional``: a table a run may leave ``None``, then not
    written; ``required``: a field without a default (set by the constructor).
    """
    spec = _Table(file, float_format, formats, na_rep, view, optional)
    extra = {} if required else {"default": None}
    return dataclasses.field(metadata={"table": spec}, **extra)


class Result:
    """A paper's result (a dataclass): :meth:`write` writes each :func:`table_field` field as ``PREFIX + name``.

    ``PREFIX`` is the notebook's prefix, e.g. ``"20_gu2013_"``; the tables go
    through :func:`~graphsel_lib.collection.tables.write_table` (``figures/``,
    or the smoke profile's folder).
    """

    PREFIX: ClassVar[str] = ""

    def write(self) -> None:
        """Write every table field to ``figures/PREFIX + name`` (``.csv`` and ``.md``)."""
        if not self.PREFIX:
            raise TypeError(
                f"{type(self).__name__} sets no PREFIX (the notebook prefix of its tables' files)"
            )
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            spec = f.metadata.get("table")
            if spec is None:
                continue
            frame = getattr(self, f.name)
            if frame is None:
                if spec.optional:
                    continue
                raise ValueError(
                    f"{type(self).__name__}.{f.name} is None: compute it (the function that builds the result "
                    "sets it) before write()"
                )
            frame = spec.view(frame) if spec.view is not None else frame
            fmt = spec.float_format
            if spec.formats:
                fmt = {str(c): spec.float_format for c in frame.columns} | dict(spec.formats)
            write_table(frame, self.PREFIX + (spec.file or f.name), float_format=fmt, na_rep=spec.na_rep)


def split_note(splits: Mapping[int, Split | None]) -> str:
    """A sentence for a reader: which ranks of ``splits`` cut a repeated eigenvalue.

    Parameters
    ----------
    splits : mapping of int to (float, int, int) or None
        ``{d: emb.split_at(d)}`` for the ranks a notebook uses
        (:meth:`graphsel_lib.spectral.SpectralEmbedding.split_at`).

    Returns
    -------
    str
        Markdown: that every rank falls in a gap of the spectrum, or which ranks cut which eigenvalue.

    Examples
    --------
    >>> split_note({10: None, 20: None})[:42]
    'Every rank used here ($d = 10$, $d = 20$) '
    """
    cut = {d: s for d, s in sorted(splits.items()) if s is not None}
    if not cut:
        return (
            f"Every rank used here ({', '.join(f'$d = {d}$' for d in sorted(splits))}) falls in a gap of the "
            "spectrum ($\\sigma_d < \\sigma_{d+1}$), so the rank-$d$ kernel $M^\\top M$, and every learner that "
            "sees the nodes only through it, is the same whatever eigenvector basis the solver returns."
        )

    def one(d, s):
        sigma, kept, mult = s
        copies = f"{kept} of its {mult} copies" if mult > 0 else f"{kept} of at least {-mult} copies"
        return f"$d = {d}$ cuts through the repeated eigenvalue $\\sigma = {sigma:.6g}$ ({copies} kept)"

    return (
        "; ".join(one(d, s) for d, s in cut.items())
        + ". At such a rank the rank-$d$ kernel $M^\\top M$ is one choice of many: any subspace of that "
        "eigenspace with as many dimensions as copies kept is as valid. The library keeps a canonical one (the "
        "projections of fixed seeded vectors onto the eigenspace, orthonormalised in order), so these numbers are "
        "the same on every machine, but another choice would move them by more than rounding (the library warns "
        "with a `SplitEigenvalueWarning`). "
        + ("The other ranks fall in gaps of the spectrum." if len(cut) < len(splits) else "")
    ).strip()
