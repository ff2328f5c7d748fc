"""Names and readers shared by the scorecard's row builders (:mod:`.scorecard_rows`, :mod:`.census`)."""

from __future__ import annotations

import pandas as pd

__all__ = ["NAMES", "num", "pm"]

NAMES = {"coauthor": "Coauthor", "cora": "Cora", "pubmed": "PubMed", "citeseer": "CiteSeer for IMDB"}


def num(series):
    """A column of a written table as numbers ('-' and blanks become NaN)."""
    return pd.to_numeric(series, errors="coerce")


def pm(text):
    """'0.2326 ± 0.0048' -> (0.2326, 0.0048); '1711' -> (1711.0, nan); '-' -> (nan, nan)."""
    mean, _, spread = str(text).partition("±")
    mean = pd.to_numeric(mean.strip(), errors="coerce")
    spread = pd.to_numeric(spread.strip() or "x", errors="coerce")
    return float(mean), float(spread)
