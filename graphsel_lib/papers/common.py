"""Helpers that the paper notebooks share: the ``profile`` switch, number spans in prose, run time and machine.

Small and free of any paper's content; each paper module (``yang2016``, ...) imports them.
"""

from __future__ import annotations

import os
import platform
import time
from dataclasses import dataclass

from ..collection import scorecard

__all__ = [
    "IMDB_PAPER_NAME",
    "N_JOBS",
    "N_PUBLISHED",
    "PROFILES",
    "STAND_IN",
    "ProfileProtocol",
    "cpu_model",
    "is_smoke",
    "judge_at_budget",
    "machine_note",
    "run_time_note",
    "span",
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


#: Worker processes for the papers' sweeps (each with one BLAS thread: the same seed gives the same numbers).
N_JOBS = 2

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
