"""The balance constraint of the transductive GP (gaertner2005 Eq. 14-18; used by ``transductive.gp``).

Its interval: :func:`balance_epsilon` (the half-width from the tail bound, Eq. 14) and
:func:`balance_bounds` (the interval around the labelled class shares). Its ``q`` step:
:func:`solve_balanced_q` minimises the dual
``h(gamma) = sum_{i in U} lse(t_i - gamma) + sum_j rho_j(gamma_j)`` over the ``K`` class offsets
``gamma`` (Eq. 18) by projected Newton steps with exact coordinate sweeps as the fallback (the module
docstring of :mod:`graphsel_lib.transductive.gp` derives it).
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

import numpy as np
from scipy.special import expit

from .. import graph as _graph
from .._validation import as_real_matrix, check_integer, check_positive, check_probability, renamed_parameter
from ._common import ConvergenceWarning

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = [
    "balance_bounds",
    "balance_epsilon",
    "solve_balanced_q",
    "dual_coordinate_sweeps",
    "dual_newton",
    "dual_residual",
    "lse_rows",
    "softmax_rows",
]


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


@renamed_parameter("n_labeled", "n_labelled")
@renamed_parameter("n_unlabeled", "n_unlabelled")
def balance_epsilon(n_labelled: int, n_unlabelled: int, n_classes: int, delta: float = 0.05) -> float:
    """Half-width ``eps`` of the balance interval from the ghost-sample tail bound (Eq. 14).

    ``eps = sqrt(log(2 K / delta) * n / (2 l u))`` with ``n = l + u``: with
    probability ``>= 1 - delta`` the class frequencies on ``l`` labelled and
    ``u`` unlabelled iid nodes differ by at most ``eps`` for all ``K`` classes
    at once (Hoeffding + union bound; derivation in the module docstring).

    Parameters
    ----------
    n_labelled, n_unlabelled : int
        ``l >= 1`` and ``u >= 1``.
    n_classes : int
        ``K >= 1`` (the union bound runs over the classes).
    delta : float, default 0.05
        Failure probability in ``(0, 1)`` (the paper does not state it).

    Returns
    -------
    float
        ``eps``, a fraction of the nodes (may exceed 1 for tiny ``l`` or ``u``).

    Raises
    ------
    ValueError
        A count below 1, or ``delta`` outside ``(0, 1)``.
    TypeError
        A non-integer count.

    Examples
    --------
    >>> round(balance_epsilon(100, 900, 2, delta=0.05), 4)
    0.156
    """
    n_labelled = check_integer(n_labelled, "n_labelled", minimum=1)
    n_unlabelled = check_integer(n_unlabelled, "n_unlabelled", minimum=1)
    n_classes = check_integer(n_classes, "n_classes", minimum=1)
    delta = check_probability(delta, "delta", low_open=True, high_open=True)
    n = n_labelled + n_unlabelled
    return float(np.sqrt(np.log(2 * n_classes / delta) * n / (2.0 * n_labelled * n_unlabelled)))


@renamed_parameter("y_labeled", "y_labelled")
def balance_bounds(y_labelled: ArrayLike, n_classes: int, eps: float) -> tuple[np.ndarray, np.ndarray]:
    """Balance bounds ``(r_minus, r_plus)``: labelled class frequencies ``-/+ eps``, clipped to [0, 1].

    ``r-_j = p_emp(j) - eps``, ``r+_j = p_emp(j) + eps`` with ``p_emp`` the class frequencies on the
    labelled nodes (gaertner2005 Eq. 14; ``eps`` e.g. from :func:`balance_epsilon`).

    Parameters
    ----------
    y_labelled : array-like of int of shape (l,)
        Labels ``0..n_classes-1`` of the labelled nodes.
    n_classes : int
        ``K``.
    eps : float
        Half-width ``>= 0`` of the interval.

    Returns
    -------
    r_minus, r_plus : ndarray of shape (K,)

    Raises
    ------
    ValueError
        Negative or non-finite ``eps``; no labels, or a label outside ``0..n_classes-1``.

    Examples
    --------
    >>> r_minus, r_plus = balance_bounds([0, 0, 0, 1], 2, 0.1)
    >>> r_minus.round(2).tolist(), r_plus.round(2).tolist()
    ([0.65, 0.15], [0.85, 0.35])
    """
    eps = check_positive(eps, "eps", allow_zero=True)
    n_classes = check_integer(n_classes, "n_classes", minimum=1)
    y_labelled = np.asarray(y_labelled)
    if y_labelled.ndim != 1 or y_labelled.size == 0:
        raise ValueError(f"y_labelled must be a non-empty 1-D array of labels, got shape {y_labelled.shape}")
    y_labelled = _graph.check_labels(y_labelled, y_labelled.size, n_classes=n_classes, name="y_labelled")
    p = np.bincount(y_labelled, minlength=n_classes) / y_labelled.size
    return np.clip(p - eps, 0.0, 1.0), np.clip(p + eps, 0.0, 1.0)


def _check_bounds(r_minus, r_plus, n_classes):
    out = []
    for name, r in (("r_minus", r_minus), ("r_plus", r_plus)):
        r = np.asarray(r, dtype=np.float64)
        if r.shape != (n_classes,):
            raise ValueError(f"{name} must have shape ({n_classes},) (one fraction per class), got {r.shape}")
        if not np.all(np.isfinite(r)) or np.any(r < 0) or np.any(r > 1):
            raise ValueError(f"{name} must hold fractions in [0, 1]")
        out.append(r.copy())
    r_minus, r_plus = out
    if np.any(r_minus > r_plus):
        j = int(np.flatnonzero(r_minus > r_plus)[0])
        raise ValueError(f"r_minus must be <= r_plus, class {j}: {r_minus[j]} > {r_plus[j]}")
    if np.any(r_plus <= 0):
        raise ValueError(
            "r_plus must be > 0 for every class (q_ij = exp(t_ij - gamma_j)/Z is never exactly 0)"
        )
    if n_classes > 1 and np.any(r_minus >= 1):
        raise ValueError("r_minus must be < 1 when K > 1 (the other classes would need q_ij = 0 exactly)")
    if r_minus.sum() > 1 + 1e-12 or r_plus.sum() < 1 - 1e-12:
        raise ValueError(
            f"balance bounds are infeasible: need sum(r_minus) <= 1 <= sum(r_plus), "
            f"got {r_minus.sum():.6g} and {r_plus.sum():.6g}"
        )
    return r_minus, r_plus


# --------------------------------------------------------------------------- the q step (dual)
def solve_balanced_q(
    T_U: ArrayLike,
    r_minus: ArrayLike,
    r_plus: ArrayLike,
    *,
    gamma0: ArrayLike | None = None,
    tol: float | None = None,
    max_iter: int = 200,
) -> tuple[np.ndarray, np.ndarray]:
    """Closed-form balanced ``q`` (gaertner2005 Eq. 18) via its ``K`` dual variables.

    Minimises ``sum_ij q_ij log q_ij - sum_ij q_ij T_ij`` over ``q`` with unit
    row sums and column means ``r_minus_j <= mean_i q_ij <= r_plus_j``. The
    minimiser is ``q_ij = exp(T_ij - gamma_j) / sum_l exp(T_il - gamma_l)``
    (the paper's ``exp(-tau_ij) c_j`` with ``tau = -T``, ``c = exp(-gamma)``),
    ``gamma`` minimising the convex dual ``h`` of the module docstring.

    Parameters
    ----------
    T_U : ndarray of shape (u, K)
        Latent scores of the unlabelled nodes.
    r_minus, r_plus : array-like of shape (K,)
        Bounds on the class fractions among the ``u`` nodes.
    gamma0 : ndarray of shape (K,), optional
        Warm start. Default: the paper's initialisation, the column rescaling
        ``c_j = clip(s_j, u r-_j, u r+_j) / s_j`` of ``q = softmax(T)``.
    tol : float, optional
        Stop when every optimality residual (in counts) is below ``tol``;
        default ``1e-12 * max(u, 1)``.
    max_iter : int, default 200
        Newton iteration cap.

    Returns
    -------
    q : ndarray of shape (u, K)
    gamma : ndarray of shape (K,)
        ``gamma_j > 0``: upper bound active (``lambda+_j = gamma_j``);
        ``gamma_j < 0``: lower bound active (``lambda-_j = -gamma_j``).

    Raises
    ------
    ValueError
        ``T_U`` not a finite real matrix with a row, or malformed or infeasible bounds (shape, range,
        ``r_minus > r_plus``, ``r_plus = 0``, ``sum(r_minus) > 1`` or ``sum(r_plus) < 1``).

    Warns
    -----
    ConvergenceWarning
        If the dual solve ends with a class-total residual above ``1e-8 u``.

    Examples
    --------
    Two nodes that both prefer class 0, forced to split half and half:

    >>> q, gamma = solve_balanced_q(np.array([[2.0, 0.0], [1.0, 0.0]]), [0.5, 0.5], [0.5, 0.5])
    >>> q.round(3).tolist(), q.sum(axis=0).round(12).tolist()
    ([[0.622, 0.378], [0.378, 0.622]], [1.0, 1.0])
    """
    T = as_real_matrix(T_U, "T_U (the (u, K) latent scores)", sparse=False, copy=False)
    if T.shape[0] == 0:
        raise ValueError(f"T_U must be a (u, K) matrix with u >= 1, got shape {T.shape}")
    u, K = T.shape
    r_minus, r_plus = _check_bounds(r_minus, r_plus, K)
    Rm = np.asarray(r_minus, dtype=np.float64) * u
    Rp = np.asarray(r_plus, dtype=np.float64) * u
    if tol is None:
        tol = 1e-12 * max(u, 1)
    if gamma0 is None:
        s = softmax_rows(T)[0].sum(axis=0)
        gamma = np.log(np.maximum(s, 1e-300)) - np.log(np.maximum(np.clip(s, Rm, Rp), 1e-300))
    else:
        gamma = np.array(gamma0, dtype=np.float64)
    gamma, ok = dual_newton(T, gamma, Rm, Rp, tol, max_iter)
    for _ in range(50):
        if ok:
            break
        # Projected Newton can stall on a wrong sign pattern. Exact coordinate
        # minimisation (each step solves one monotone 1-D equation s_j = bound)
        # decreases h and converges (Tseng 2001); a few sweeps identify the
        # active set, then Newton finishes quadratically.
        gamma = dual_coordinate_sweeps(T, gamma, Rm, Rp, 10)
        gamma, ok = dual_newton(T, gamma, Rm, Rp, tol, max_iter)
    Q, _ = softmax_rows(T - gamma)
    if not ok:
        resid = dual_residual(Q.sum(axis=0), gamma, Rm, Rp)[0]
        if np.max(np.abs(resid)) > 1e-8 * max(u, 1):
            warnings.warn(
                f"balanced q: dual solve stopped with class-total residual {np.max(np.abs(resid)):.2e}",
                ConvergenceWarning,
                stacklevel=2,
            )
    return Q, gamma
