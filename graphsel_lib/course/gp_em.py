"""Naive EM on gaertner2005's variational bound ``J(t, q)`` (Eq. 10–13), without the balance constraint.

Chapter 12 (§5b) compares it with the reduced objective that
:func:`graphsel_lib.transductive.transductive_gp` minimises: :func:`variational_bound` is ``J``,
:func:`gp_t_step` its ``t``-step and :func:`naive_em` the alternation. Chapter content, not a
method: exported by :mod:`graphsel_lib.course`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._validation import renamed_parameter
from ..transductive import gp_objective

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from ..graph.types import Laplacian

__all__ = ["gp_t_step", "naive_em", "variational_bound"]


@renamed_parameter("labeled", "labelled")
def variational_bound(
    Kinv: np.ndarray | Laplacian,
    y: ArrayLike,
    labelled: ArrayLike,
    t: ArrayLike,
    q: np.ndarray,
    *,
    sigma2: float = 100.0,
) -> float:
    """The bound ``J(t, q)`` of gaertner2005 Eq. 10–13 for a factorising ``q`` on the unlabelled nodes.

        J = sum_i lse(t_i) - tr Y_q^T t + sum_{i in U, j} q_ij log q_ij + tr t^T K^-1 t / (2 sigma2),

    with ``Y_q`` one-hot on the labelled rows and ``q`` (rows in node order) on
    the others. At ``q = softmax(t_U)`` it equals :func:`gp_objective` without
    balance; at a one-hot ``q`` it is the plain GP objective with every node
    labelled (notebook 12 §5b checks both).

    Parameters
    ----------
    Kinv : ndarray or sparse matrix of shape (n, n)
        The inverse kernel (not validated).
    y : array-like of int of shape (n,)
        Labels; only ``y[labelled]`` is used.
    labelled : array-like of int of shape (l,)
        Labelled node indices.
    t : array-like of shape (n, K)
        Latent scores.
    q : ndarray of shape (u, K)
        Label distributions of the unlabelled nodes, in node order.
    sigma2 : float, default 100.0
        Prior variance.

    Returns
    -------
    float

    Examples
    --------
    At ``t = 0`` and ``q = softmax(t_U)`` the bound is :func:`gp_objective`'s value, ``2 log 2``:

    >>> from graphsel_lib.transductive import gp_kernel_inverse
    >>> S = np.diag([1.0, 1.0, 1.0], 1); Kinv = gp_kernel_inverse(S + S.T, 0.5)
    >>> value = variational_bound(Kinv, [0, -1, -1, 1], [0, 3], np.zeros((4, 2)), np.full((2, 2), 0.5))
    >>> print(round(value, 4))
    1.3863
    """
    t = np.asarray(t, dtype=np.float64)
    lab = np.asarray(labelled)
    unl = np.setdiff1d(np.arange(t.shape[0]), lab)
    Y = np.zeros_like(t)
    Y[lab, np.asarray(y)[lab]] = 1.0
    Y[unl] = q
    lse = np.log(np.exp(t - t.max(1, keepdims=True)).sum(1)) + t.max(1)
    neg_entropy = np.sum(q[q > 0] * np.log(q[q > 0]))
    return lse.sum() - np.sum(Y * t) + neg_entropy + np.sum(t * (Kinv @ t)) / (2 * sigma2)


def gp_t_step(
    Kinv: np.ndarray | Laplacian, targets: np.ndarray, t_init: np.ndarray, *, sigma2: float = 100.0
) -> tuple[np.ndarray, float]:
    """``argmin_t sum_i lse(t_i) - tr Y^T t + tr t^T K^-1 t / (2 sigma2)`` for targets ``Y`` on every row.

    The ``t``-step of EM on the bound ``J`` (notebook 12 §5b): a strictly convex
    problem, solved by a trust-region Newton–CG (``scipy.optimize``,
    ``trust-krylov``) with the product of Eq. 8b on every row.

    Parameters
    ----------
    Kinv : ndarray or sparse matrix of shape (n, n)
        The inverse kernel (not validated).
    targets : ndarray of shape (n, K)
        ``Y``: a label distribution on every row.
    t_init : ndarray of shape (n, K)
        Starting point.
    sigma2 : float, default 100.0
        Prior variance.

    Returns
    -------
    t : ndarray of shape (n, K)
    value : float
        The objective at ``t``.

    Raises
    ------
    RuntimeError
        If the solver fails and ends with ``max |grad| >= 1e-5``.

    Examples
    --------
    >>> from graphsel_lib.transductive import gp_kernel_inverse
    >>> S = np.diag([1.0, 1.0, 1.0], 1); Kinv = gp_kernel_inverse(S + S.T, 0.5)
    >>> t, value = gp_t_step(Kinv, np.eye(2)[[0, 0, 1, 1]], np.zeros((4, 2)), sigma2=1.0)
    >>> t.argmax(axis=1).tolist(), round(float(value), 4)
    ([0, 0, 1, 1], 2.1114)
    """
    from scipy.optimize import minimize
    from scipy.special import softmax

    nn, KK = targets.shape

    def fun(x):
        t = x.reshape(nn, KK)
        m = t.max(1)
        lse = m + np.log(np.exp(t - m[:, None]).sum(1))
        Kt = Kinv @ t
        grad = np.exp(t - lse[:, None]) - targets + Kt / sigma2
        return lse.sum() - np.sum(targets * t) + np.sum(t * Kt) / (2 * sigma2), grad.ravel()

    def hessp(x, v):  # Eq. 8b on every row (all rows have targets)
        P, V_ = softmax(x.reshape(nn, KK), axis=1), v.reshape(nn, KK)
        return (P * V_ - P * (P * V_).sum(1, keepdims=True) + (Kinv @ V_) / sigma2).ravel()

    res = minimize(fun, t_init.ravel(), jac=True, hessp=hessp, method="trust-krylov", options={"gtol": 1e-7})
    # near the optimum the trust-region model can fail on rounding: then require a small gradient instead
    if not (res.success or np.abs(res.jac).max() < 1e-5):
        raise RuntimeError(f"t-step did not converge: {res.message}")
    return res.x.reshape(nn, KK), res.fun


@renamed_parameter("labeled", "labelled")
def naive_em(
    Kinv: np.ndarray | Laplacian,
    y: ArrayLike,
    labelled: ArrayLike,
    t_init: np.ndarray,
    *,
    hard: bool,
    rounds: int,
    sigma2: float = 100.0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Naive EM on the bound ``J`` without a balance constraint (gaertner2005 Sec. 3; notebook 12 §5b).

    Alternates the ``q``-step, ``q_i = softmax(t_i)`` (soft: ``J`` with its
    entropy) or the one-hot ``argmax`` (hard: the likelihood alone), with
    :func:`gp_t_step`. Hard EM stops at a fixed point (no unlabelled label
    changes).

    Parameters
    ----------
    Kinv : ndarray or sparse matrix of shape (n, n)
        The inverse kernel.
    y : array-like of int of shape (n,)
        Labels; only ``y[labelled]`` is used.
    labelled : array-like of int of shape (l,)
        Labelled node indices.
    t_init : ndarray of shape (n, K)
        Starting point.
    hard : bool
        One-hot ``q`` (hard EM) or ``q = softmax(t_U)`` (soft EM).
    rounds : int
        Most rounds (``q``-step then ``t``-step).
    sigma2 : float, default 100.0
        Prior variance.

    Returns
    -------
    t : ndarray (n, K)
    q : ndarray (u, K)
    phi0 : ndarray
        ``phi_0(t) = min_q J(t, q)`` (:func:`gp_objective` without balance) before each round.
    n_rounds : int

    Raises
    ------
    RuntimeError
        If a ``t``-step fails (:func:`gp_t_step`).

    Examples
    --------
    From ``t = 0`` the argmax's tie sends both unlabelled nodes to class 0, a fixed point after one round:

    >>> from graphsel_lib.transductive import gp_kernel_inverse
    >>> S = np.diag([1.0, 1.0, 1.0], 1); Kinv = gp_kernel_inverse(S + S.T, 0.5)
    >>> t, q, phi0, n_rounds = naive_em(Kinv, [0, -1, -1, 1], [0, 3], np.zeros((4, 2)), hard=True, rounds=5)
    >>> q.tolist(), n_rounds
    ([[1.0, 0.0], [1.0, 0.0]], 1)
    """
    from scipy.special import softmax

    lab = np.asarray(labelled)
    y = np.asarray(y)
    unl = np.setdiff1d(np.arange(t_init.shape[0]), lab)
    KK = t_init.shape[1]
    Y = np.zeros_like(t_init)
    Y[lab, y[lab]] = 1.0
    t, phi0, n_rounds = t_init.copy(), [], 0
    q = softmax(t[unl], axis=1)
    for _ in range(rounds):
        phi0.append(gp_objective(Kinv, y, lab, t, sigma2=sigma2, n_classes=KK)[0])
        q_new = np.eye(KK)[q.argmax(1)] if hard else q
        if hard and n_rounds and np.array_equal(q_new, Y[unl]):
            break  # a fixed point of hard EM
        Y[unl] = q_new
        t, _ = gp_t_step(Kinv, Y, t, sigma2=sigma2)
        q = softmax(t[unl], axis=1)
        n_rounds += 1
    q = np.eye(KK)[q.argmax(1)] if hard else q
    return t, q, np.array(phi0), n_rounds
