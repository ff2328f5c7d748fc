"""BBQ and BBQ_ε (Cesa-Bianchi, Gentile & Orabona, ICML 2009), yang2016's baselines.

:func:`bbq_r_cap` and :func:`bbq_first_query` give the scale bound of BBQ's query rule,
:func:`bbq_eps_formulas` checks the ``O(d²)`` formulas of BBQ_ε (chapter 10).
"""

from __future__ import annotations

import numpy as np

from .._validation import as_real_matrix, check_positive
from ._checks import check_features, check_shape


def bbq_r_cap(norm_sq, gamma):
    """The largest ``r_t`` a node of squared norm ``||x_t||²`` can have: ``||x_t||²/(γ + ||x_t||²)``.

    Since ``A_{t−1} ⪰ γI``, ``v_t = x_tᵀA_{t−1}^{−1}x_t ≤ ||x_t||²/γ``, and
    ``r_t = v_t/(1 + v_t)`` grows with ``v_t`` (notebook 10 §3). BBQ queries iff
    ``r_t > t^{−κ}``, so round ``t`` cannot be queried while ``t^{−κ}`` is at
    least this cap (Cesa-Bianchi, Gentile & Orabona 2009, the BBQ rule).

    Parameters
    ----------
    norm_sq : float or array
        ``||x_t||² ≥ 0``.
    gamma : float > 0
        ``A_0 = γI``.

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> float(bbq_r_cap(1.0, 1.0))
    0.5
    """
    gamma = check_positive(gamma, "gamma")
    norm_sq = np.asarray(norm_sq, dtype=float)
    if np.any(norm_sq < 0) or not np.all(np.isfinite(norm_sq)):
        raise ValueError("norm_sq must hold finite non-negative numbers")
    return norm_sq / (gamma + norm_sq)


def bbq_first_query(norm_sq, gamma, kappa):
    """BBQ's first query on a stream whose nodes all have ``||x_t||² = norm_sq``, and its distance from a tie.

    Until the first query ``A = γI``, so every round has the same
    ``r = bbq_r_cap(norm_sq, γ)`` and BBQ queries the first integer ``t`` with
    ``t^{−κ} < r`` (notebook 10 §3): ``t = ⌊r^{−1/κ}⌋ + 1``. At ``||x||² = γ``
    (``r = ½``) and an integer ``2^{1/κ}`` the round ``t = 2^{1/κ}`` is an
    exact tie ``r = t^{−κ}``, which the last bit of ``||x_t||²`` decides; the
    returned ``gap`` measures how far the decisions are from any such tie.

    Parameters
    ----------
    norm_sq : float > 0
    gamma : float > 0
    kappa : float > 0

    Returns
    -------
    t : int
        The round (counted from 1) of the first query.
    gap : float
        ``min(|t^{−κ} − r|, |(t − 1)^{−κ} − r|) / r``: the relative change of
        ``r`` or of the threshold that would move the first query (0 at a tie).

    Examples
    --------
    >>> bbq_first_query(0.5, 1.0, 1.0)[0]  # r = 1/3: the first t with 1/t < 1/3
    4
    >>> bbq_first_query(1.0, 1.0, 0.5)[1]  # r = 1/2 = 4^(-1/2): a tie at t = 4
    0.0
    """
    norm_sq, kappa = check_positive(norm_sq, "norm_sq"), check_positive(kappa, "kappa")
    r = float(bbq_r_cap(norm_sq, gamma))
    t = int(np.floor(r ** (-1 / kappa))) + 1
    while t > 1 and (t - 1) ** -kappa < r:  # correct the floor for rounding, both ways
        t -= 1
    while t**-kappa >= r:
        t += 1
    gap = min(abs(t**-kappa - r), abs((t - 1) ** -kappa - r) if t > 1 else np.inf) / r
    return t, gap


def bbq_eps_formulas(X, S, nodes, gamma):
    """Largest deviations of BBQ_ε's ``O(d²)`` formulas from direct solves at one learner state.

    With ``A = γI + S Sᵀ`` (``S`` the queried inputs as columns, notebook 10's
    ``X_Q``), ``a = A^{−1}x`` and ``v = xᵀa``, Sherman–Morrison gives
    (Orabona & Cesa-Bianchi 2011, BBQ_ε; notebook 10 §2)::

        r = xᵀ(A + xxᵀ)^{−1}x = v/(1+v),  s = ||(A + xxᵀ)^{−1}x|| = ||a||/(1+v),
        q = ||Sᵀ(A + xxᵀ)^{−1}x|| = sqrt(aᵀ(S Sᵀ)a)/(1+v).

    Each is compared with a direct solve with ``A + xxᵀ`` for every column
    ``x`` of ``X[:, nodes]``; the shortcut ``aᵀ(S Sᵀ)a = v − γ||a||²`` (exact
    in real arithmetic) is compared with ``aᵀ(S Sᵀ)a``.

    Parameters
    ----------
    X : array of shape (d, n)
    S : array of shape (d, k)
        The queried inputs (``k = 0`` allowed).
    nodes : array of int
        Columns of ``X`` to test.
    gamma : float > 0

    Returns
    -------
    dict
        ``"r"``, ``"s"``, ``"q"``: largest absolute deviations; ``"shortcut"``:
        largest relative error of the shortcut (``nan`` when ``k = 0``).
    """
    X = check_features(X)
    S = check_shape(as_real_matrix(S, "S", sparse=False, copy=False), (X.shape[0], np.shape(S)[1]), "S")
    gamma = check_positive(gamma, "gamma")
    Xs = X[:, np.asarray(nodes, dtype=int)]
    C = S @ S.T
    A = gamma * np.eye(X.shape[0]) + C
    A_inc = A[None, :, :] + np.einsum("in,jn->nij", Xs, Xs)  # A + x xᵀ for each node
    Z = np.linalg.solve(A_inc, Xs.T[:, :, None])[:, :, 0]  # rows: (A + x xᵀ)^{-1} x
    U = np.linalg.solve(A, Xs).T  # rows: a = A^{-1} x
    v = np.einsum("nd,dn->n", U, Xs)
    aCa = np.sum((U @ C) * U, axis=1)
    return {
        "r": np.abs(np.einsum("nd,dn->n", Z, Xs) - v / (1 + v)).max(),
        "s": np.abs(np.linalg.norm(Z, axis=1) - np.linalg.norm(U, axis=1) / (1 + v)).max(),
        "q": np.abs(np.linalg.norm(Z @ S, axis=1) - np.sqrt(np.maximum(aCa, 0)) / (1 + v)).max(),
        "shortcut": np.max(np.abs((v - gamma * np.sum(U**2, axis=1)) - aCa) / aCa) if S.shape[1] else np.nan,
    }
