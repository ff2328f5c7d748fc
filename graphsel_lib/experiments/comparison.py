"""Methods compared over the same orders: mean and standard deviation, paired t-tests (gu2013 uses 95 %)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from scipy import stats

from .evaluation import METRICS

if TYPE_CHECKING:
    from collections.abc import Hashable, Iterable

__all__ = ["summarize", "paired_ttest", "mean_std"]


def summarize(
    df: pd.DataFrame, metrics: Iterable[str] | None = None, by: str | list[str] = "method"
) -> pd.DataFrame:
    """Mean and standard deviation (ddof=1) of each metric per method, in first-seen order.

    Parameters
    ----------
    df : DataFrame
        One row per run, as :func:`evaluate` or :func:`sweep` return it (or
        several such frames concatenated).
    metrics : list of str, optional
        The metric columns to summarise (default :data:`METRICS`); those that
        are not columns of ``df`` are skipped.
    by : str or list of str, default "method"
        The column(s) naming a group.

    Returns
    -------
    DataFrame
        One row per group, in the order the groups first appear in ``df``: the
        ``by`` column(s), then ``<metric>_mean`` and ``<metric>_std`` for each
        metric in turn. The std of a group of one row is NaN.

    Examples
    --------
    >>> df = pd.DataFrame(
    ...     {"method": ["A", "A", "B", "B"], "order": [0, 1, 0, 1], "error_rate": [0.20, 0.22, 0.25, 0.26]}
    ... )
    >>> summarize(df).round(4)
      method  error_rate_mean  error_rate_std
    0      A            0.210          0.0141
    1      B            0.255          0.0071
    """
    metrics = [m for m in (metrics or METRICS) if m in df.columns]
    g = df.groupby(by, sort=False)[metrics]
    out = g.mean().add_suffix("_mean").join(g.std(ddof=1).add_suffix("_std"))
    return out[[f"{m}_{s}" for m in metrics for s in ("mean", "std")]].reset_index()


def paired_ttest(
    df: pd.DataFrame,
    a: Hashable,
    b: Hashable,
    metric: str = "error_rate",
    *,
    alpha: float = 0.05,
    by: str = "method",
) -> dict[str, Any]:
    """Paired t-test of ``metric`` between methods ``a`` and ``b`` over the same orders.

    Returns a dict with the mean difference (a − b), t, p and whether the
    difference is significant at level ``alpha`` (gu2013 uses 95 %).

    Parameters
    ----------
    df : DataFrame
        One row per run with the columns ``by``, ``order`` and ``metric``, as
        :func:`evaluate` returns it (or several such frames concatenated): one
        row per order id for each of the two methods. Rows are paired by
        order id.
    a, b : str
        The two methods, values of ``df[by]``; the difference is ``a − b``.
    metric : str, default "error_rate"
        The metric column compared.
    alpha : float, default 0.05
        The level of the test: the difference is significant if ``p < alpha``.
    by : str, default "method"
        The column naming the methods.

    Returns
    -------
    dict
        ``a``, ``b`` and ``metric`` as given; ``mean_diff``, the mean over the
        orders of ``a``'s value minus ``b``'s on the same order; ``t`` and
        ``p``, the statistic and two-sided p-value of
        :func:`scipy.stats.ttest_rel` (``0.0`` and ``1.0`` when the two agree
        on every order to :func:`numpy.allclose`, where the test is undefined);
        ``significant``, whether ``p < alpha``.

    Raises
    ------
    ValueError
        ``a`` or ``b`` is not in ``df[by]``; the two were not run on the same
        orders (other order ids, or an order id repeated within one method, so
        that the pairs are ambiguous); fewer than two orders (no test).

    Examples
    --------
    >>> df = pd.DataFrame(
    ...     {"method": ["A", "A", "B", "B"], "order": [0, 1, 0, 1], "error_rate": [0.20, 0.22, 0.25, 0.26]}
    ... )
    >>> r = paired_ttest(df, "A", "B")
    >>> round(r["mean_diff"], 4), round(r["t"], 4), r["significant"]
    (-0.045, -9.0, False)
    >>> paired_ttest(df, "A", "C")
    Traceback (most recent call last):
        ...
    ValueError: 'C' not in the 'method' column (it has 'A', 'B')
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


def mean_std(mean: float, std: float, digits: int = 4) -> str:
    """``"0.1838 ± 0.0021"``.

    A mean and its standard deviation as text, both in fixed point.

    Parameters
    ----------
    mean, std : float
        The mean and the standard deviation, e.g. from :func:`summarize`.
    digits : int, default 4
        Decimals of both.

    Returns
    -------
    str
        ``"<mean> ± <std>"``.

    Examples
    --------
    >>> mean_std(0.18384, 0.0021)
    '0.1838 ± 0.0021'
    >>> mean_std(0.18384, 0.0021, digits=2)
    '0.18 ± 0.00'
    """
    return f"{mean:.{digits}f} ± {std:.{digits}f}"
