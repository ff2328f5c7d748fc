"""The dual of the balanced ``q`` step of the transductive GP (gaertner2005 Eq. 18; ``transductive.gp``).

``h(gamma) = sum_{i in U} lse(t_i - gamma) + sum_j rho_j(gamma_j)`` over the ``K`` class offsets
``gamma``, minimised by projected Newton steps with exact coordinate sweeps as the fallback (the module
docstring of :mod:`graphsel_lib.transductive.gp` derives it).
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit

__all__ = ["dual_coordinate_sweeps", "dual_newton", "dual_residual", "lse_rows", "softmax_rows"]


def lse_rows(Z):
    """Row-wise ``log sum_j exp Z_ij`` (scipy's ``logsumexp`` is ~10x slower on (n, K))."""
    m = Z.max(axis=1)
    return m + np.log(np.exp(Z - m[:, None]).sum(axis=1))


def softmax_rows(Z):
    """Row-wise softmax of ``Z`` and the row-wise ``lse`` it divides by."""
    lse = lse_rows(Z)
    return np.exp(Z - lse[:, None]), lse


def _dual_h(T, gamma, Rm, Rp):
    return lse_rows(T - gamma).sum() + np.sum(np.where(gamma >= 0, Rp * gamma, Rm * gamma))


def dual_residual(s, gamma, Rm, Rp):
    """Optimality residual of the class totals ``s``: ``(s - target, target, gamma > 0, gamma < 0)``."""
    pos, neg = gamma > 0, gamma < 0
    target = np.where(pos, Rp, np.where(neg, Rm, np.clip(s, Rm, Rp)))
    return s - target, target, pos, neg


def _rho(gamma, Rm, Rp):
    return np.sum(np.where(gamma >= 0, Rp * gamma, Rm * gamma))


def _best_shift(gamma, h, u, Rm, Rp):
    """Exact minimisation of ``h(gamma + c 1) = h(gamma) - u c + rho(gamma + c) - rho(gamma)`` over c.

    The softmax is invariant to the shift, so only the piecewise-linear part
    moves; its minimum is at a breakpoint ``c = -gamma_k`` (or ``c = 0``).
    This removes the Hessian's null direction from the Newton iteration.
    """
    cands = np.concatenate([[0.0], -gamma])
    vals = np.array([-u * c + _rho(gamma + c, Rm, Rp) for c in cands]) - _rho(gamma, Rm, Rp)
    k = int(np.argmin(vals))
    if vals[k] < -1e-15 * max(abs(h), 1.0):
        c = cands[k]
        new = gamma + c
        new[np.isclose(new, 0.0, atol=1e-15)] = 0.0
        if k > 0:
            new[k - 1] = 0.0
        return new, h + vals[k]
    return gamma, h


def dual_newton(T, gamma, Rm, Rp, tol, max_iter):
    """Projected Newton on the dual; returns ``(gamma, converged)``."""
    K = T.shape[1]
    h = _dual_h(T, gamma, Rm, Rp)
    u = T.shape[0]
    for _ in range(max_iter + 1):
        gamma, h = _best_shift(gamma, h, u, Rm, Rp)
        Q, _lse = softmax_rows(T - gamma)
        s = Q.sum(axis=0)
        resid, target, pos, neg = dual_residual(s, gamma, Rm, Rp)
        if np.max(np.abs(resid)) <= tol:
            return gamma, True
        free = pos | neg | (resid != 0)
        # side of zero each free coordinate lives on (the projection keeps it there)
        side = np.where(pos, 1.0, np.where(neg, -1.0, np.sign(resid)))
        g = np.where(free, target - s, 0.0)  # gradient of h on the current piece
        H = np.diag(s) - Q.T @ Q
        F = np.flatnonzero(free)
        d = np.zeros(K)
        d[F] = -np.linalg.lstsq(H[np.ix_(F, F)], g[F], rcond=1e-13)[0]
        if g @ d >= 0:  # not a descent direction: scaled gradient step
            d = -g / np.maximum(np.diag(H), 1e-12)
        alpha = 1.0
        while alpha > 1e-14:
            new = gamma + alpha * d
            new = np.where(free & (side * new < 0), 0.0, new)
            h_new = _dual_h(T, new, Rm, Rp)
            if h_new <= h + 1e-4 * (g @ (new - gamma)) + 1e-15 * abs(h):
                break
            alpha *= 0.5
        else:
            return gamma, False
        if np.array_equal(new, gamma):
            return gamma, False
        gamma, h = new, h_new
    return gamma, False


def _solve_column_total(w, R):
    """Root ``x`` of ``sum_i sigmoid(-(x + w_i)) = R`` for ``0 < R < len(w)`` (decreasing in x)."""
    lo, hi = -np.max(w) - 50.0, -np.min(w) + 50.0
    while np.sum(expit(-(lo + w))) < R:
        lo -= 50.0
    while np.sum(expit(-(hi + w))) > R:
        hi += 50.0
    x = 0.5 * (lo + hi)
    for _ in range(200):
        p = expit(-(x + w))
        f = np.sum(p) - R
        if f > 0:
            lo = x
        else:
            hi = x
        if abs(f) <= 1e-13 * max(R, 1.0) or hi - lo <= 1e-15 * max(1.0, abs(x)):
            break
        dfdx = -np.sum(p * (1 - p))
        x_new = x - f / dfdx if dfdx < 0 else 0.5 * (lo + hi)
        x = x_new if lo < x_new < hi else 0.5 * (lo + hi)
    return x


def dual_coordinate_sweeps(T, gamma, Rm, Rp, n_sweeps):
    """Exact block-coordinate minimisation of the dual ``h``, one class at a time."""
    gamma = gamma.copy()
    u, K = T.shape
    for _ in range(n_sweeps):
        for j in range(K):
            others = np.delete(np.arange(K), j)
            Z = T[:, others] - gamma[others]
            w = lse_rows(Z) - T[:, j]  # s_j(x) = sum_i sigmoid(-(x + w_i))
            s0 = np.sum(expit(-w))
            if s0 > Rp[j] and Rp[j] < u:
                gamma[j] = max(_solve_column_total(w, Rp[j]), 0.0)
            elif s0 < Rm[j] and Rm[j] > 0:
                gamma[j] = min(_solve_column_total(w, Rm[j]), 0.0)
            else:
                gamma[j] = 0.0
    return gamma
