"""yang2016's published numbers as data (Table I), the tolerances and the headline feature setting."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from graphsel_lib.papers.common import (
    IMDB_PAPER_NAME,
    STAND_IN,
)

# --------------------------------------------------------------------------- the data sets
PAPER_NAME = IMDB_PAPER_NAME  #: our data set -> the paper's name (CiteSeer stands in for IMDB)


#: Our data set -> the name used in the prose.
SHOWN = {"coauthor": "Coauthor", "cora": "Cora", "pubmed": "PubMed", STAND_IN: "CiteSeer"}


#: How a method is labelled in figures.
LABEL = {"BBQ_eps": "BBQ$_\\epsilon$", "CMOG onehot": "CMOG-1hot", "CMOG every round": "CMOG-RLS"}


# --------------------------------------------------------------------------- the published numbers
_nan = np.nan


#: yang2016 Table I (Sec. V-B), typed in from the paper: error rate, its "±", #queried and its "±"
#: (GPA, DGS, CMOG and some BBQ_eps query every node: no spread given). The "±" are variances
#: (notebook 30 Sec. 2), so ``sqrt(error_pm)`` is compared with our standard deviation.
PUBLISHED = pd.DataFrame(
    [  # dataset, method, error, error "±", #queried, #queried "±"
        ("Coauthor", "GPA", 0.5474, 2.66e-4, 1711, _nan),
        ("Coauthor", "BBQ", 0.3013, 3.55e-5, 1371, 168.7),
        ("Coauthor", "BBQ_eps", 0.3028, 3.03e-5, 1711, _nan),
        ("Coauthor", "DGS", 0.3096, 3.29e-5, 1711, _nan),
        ("Coauthor", "CMOG", 0.3096, 3.29e-5, 1711, _nan),
        ("Coauthor", "MSG", 0.2956, 6.63e-5, 870.7, 251.9),
        ("Cora", "GPA", 0.5849, 2.03e-4, 2485, _nan),
        ("Cora", "BBQ", 0.1929, 1.73e-5, 1635.1, 294.0),
        ("Cora", "BBQ_eps", 0.1936, 1.95e-5, 2485, _nan),
        ("Cora", "DGS", 0.1941, 2.35e-5, 2485, _nan),
        ("Cora", "CMOG", 0.1940, 2.33e-5, 2485, _nan),
        ("Cora", "MSG", 0.1926, 2.34e-5, 884.95, 289.15),
        ("IMDB", "GPA", 0.6870, 4.6e-5, 17046, _nan),
        ("IMDB", "BBQ", 0.5468, 1.69e-6, 10033, 467.2),
        ("IMDB", "BBQ_eps", 0.5068, 9.9e-6, 16983, 801.3),
        ("IMDB", "DGS", 0.5066, 9.1e-6, 17046, _nan),
        ("IMDB", "CMOG", 0.5576, 6.88e-5, 17046, _nan),
        ("IMDB", "MSG", 0.5043, 7.46e-5, 3750.3, 255.1),
        ("PubMed", "GPA", 0.5795, 2.9e-6, 19717, _nan),
        ("PubMed", "BBQ", 0.2217, 1.9e-6, 10352, 2536.4),
        ("PubMed", "BBQ_eps", 0.2217, 3.1e-6, 8986.3, 838.3),
        ("PubMed", "DGS", 0.2265, 1.46e-6, 19717, _nan),
        ("PubMed", "CMOG", 0.2265, 1.5e-6, 19717, _nan),
        ("PubMed", "MSG", 0.2158, 1.07e-5, 936.29, 210.07),
    ],
    columns=["dataset", "method", "error", "error_pm", "queried", "queried_pm"],
)


PUBLISHED["sqrt(error_pm)"] = np.sqrt(PUBLISHED.error_pm)


def published(dataset: str, method: str) -> tuple[float, float]:
    """yang2016 Table I's (error, #queried) of ``method`` on ``dataset`` (the paper's name, e.g. ``"Cora"``).

    >>> published("Cora", "MSG")
    (0.1926, 884.95)
    """
    row = PUBLISHED[(PUBLISHED.dataset == dataset) & (PUBLISHED.method == method)].iloc[0]
    return float(row.error), float(row.queried)


# --------------------------------------------------------------------------- tolerances and the headline
#: Our tolerance for a reproduced mean error, fixed before the runs: MSG (the paper's method) within 0.02
#: absolute, every other method within :data:`TOL_OTHER` (or the gap explained).
TOL = {"MSG": 0.02}


TOL_OTHER = 0.03


RULE_METHODS = ["BBQ", "BBQ_eps", "DGS", "MSG"]  #: the query-rule methods that pick the headline setting


BIAS_B = 1.0  #: the constant feature sqrt(b) of ``gs.add_bias``


@dataclass(frozen=True)
class Headline:
    """The feature setting and CMOG reading that notebooks 30-33 report (notebook 30 Sec. 4)."""

    bias: bool
    bias_b: float
    cmog: str
    rule: str
    reason: str


#: The headline reading of Table I: rank-d spectral features with the constant feature, CMOG as Alg. 1.
HEADLINE = Headline(
    bias=True,
    bias_b=BIAS_B,
    cmog="CMOG",
    rule=(
        "the setting (with / without the constant feature) under which more of the query-rule methods "
        "BBQ, BBQ_eps, DGS and MSG land within tolerance of Table I on Coauthor, Cora and PubMed; "
        "a tie goes to the bias"
    ),
    reason=(
        "yang2016 neither mentions nor excludes a constant feature (its Sec. II-C 1/sqrt(lambda_1) is undefined "
        "for the constant eigenvector); under the full profile the rule picks the bias. CMOG is the paper's "
        "Alg. 1 with Definition 1 targets."
    ),
)
