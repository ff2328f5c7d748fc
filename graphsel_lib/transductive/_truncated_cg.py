"""Truncated preconditioned CG for the Newton steps of the transductive GP (:mod:`graphsel_lib.transductive.gp`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["CG_WINDOW", "DECISION_BAND", "steihaug_cg"]

#: CG iterations over which the truncation test measures the decrease of the quadratic model. One iteration is
#: not enough: when a Ritz value sits in a gap of the spectrum, CG splits a decrease between two consecutive
#: iterations in a ratio that noise of 1e-13 in ``t`` moves up to tenfold (notebook 43's Epinions ball), while
#: their sum stays put.
CG_WINDOW = 3
#: Relative band around a threshold: a compared quantity that lands inside it goes the documented way
#: (CG continues, a line-search step is judged by the gradient test), so a tie is never left to rounding.
DECISION_BAND = 1e-3


def steihaug_cg(
    hessp: Callable[[np.ndarray], np.ndarray], g: np.ndarray, Mdiag: np.ndarray, maxiter: int, forcing: float
) -> tuple[np.ndarray, int, bool]:
    """Approximately solve ``H d = -g`` by preconditioned CG, truncated on the model decrease (Nash & Sofer 1990).

    Each iteration lowers the quadratic model ``m(d) = g.d + d.Hd / 2`` by ``(r.z)^2 / (2 p.Hp) > 0``, so
    ``m_i`` is monotone by construction. Stop at iteration ``i`` once the average decrease of the last
    ``w =`` :data:`CG_WINDOW` iterations is at most ``forcing`` times the average decrease so far,
    ``i (m_{i-w} - m_i) / (w |m_i|) <= forcing (1 - DECISION_BAND)`` (Nash & Sofer, "Assessing a search direction
    within a truncated-Newton method", Oper. Res. Lett. 9, 1990, with their single step widened to ``w``; a ratio
    within :data:`DECISION_BAND` of ``forcing`` continues). Stops also after ``maxiter`` iterations and at
    non-positive curvature (Steihaug; at the first iteration the preconditioned steepest descent direction is
    returned). Returns ``(d, iterations, negative_curvature)``.
    """
    d = np.zeros_like(g)
    r = -g
    z = r / Mdiag
    p = z.copy()
    rz = np.sum(r * z)
    model = [0.0]  # m_0, m_1, ...: the model's value after each iteration
    it = 0
    for it in range(1, maxiter + 1):
        Hp = hessp(p)
        curv = np.sum(p * Hp)
        if curv <= 1e-14 * np.sum(p * p):
            if it == 1:
                d = p  # preconditioned steepest descent
            return d, it, True
        a = rz / curv
        d = d + a * p
        model.append(model[-1] - 0.5 * a * rz)
        if it >= CG_WINDOW:
            ratio = it * (model[-1 - CG_WINDOW] - model[-1]) / (CG_WINDOW * -model[-1])
            if ratio <= forcing * (1.0 - DECISION_BAND):
                return d, it, False
        r = r - a * Hp
        z = r / Mdiag
        rz_new = np.sum(r * z)
        p = z + (rz_new / rz) * p
        rz = rz_new
    return d, it, False
