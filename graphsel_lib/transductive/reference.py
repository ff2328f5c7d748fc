"""Naive dense twins of the transductive methods, for tests and notebooks only.

Each function is the formula written literally with dense numpy matrices and
``np.linalg.solve``: no factorisation reuse, no sparsity, minimal validation.
They cost O(n^3) time and O(n^2) memory and refuse graphs above ``max_nodes``.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .._validation import renamed_parameter

__all__ = [
    "llgc_dense",
    "harmonic_dense",
    "cmn_dense",
    "loo_objective_naive",
    "entropy_objective_naive",
    "sherman_morrison",
    "loo_inverse_eq7",
    "central_difference",
    "balanced_q_slsqp",
]


def _dense(S, max_nodes):
    W = S.toarray() if sp.issparse(S) else np.array(S, dtype=np.float64)
    W = W.astype(np.float64)
    if W.shape[0] > max_nodes:
        raise ValueError(f"dense reference: {W.shape[0]} nodes > max_nodes={max_nodes}")
    np.fill_diagonal(W, 0.0)  # self-loops do not enter L = D - W
    return W


def _labelled_mask(labelled, n):
    labelled = np.asarray(labelled)
    if labelled.dtype == bool:
        return labelled.copy()
    mask = np.zeros(n, dtype=bool)
    mask[labelled.astype(int)] = True
    return mask


def _dense_problem(S, y, labelled, n_classes, max_nodes):
    """``(W, n, y, mask, K)``: the dense weights, the integer labels, the labelled mask and the class count."""
    W = _dense(S, max_nodes)
    n = W.shape[0]
    y = np.asarray(y, dtype=int)
    K = int(y.max()) + 1 if n_classes is None else n_classes
    return W, n, y, _labelled_mask(labelled, n), K


@renamed_parameter("labeled", "labelled")
def llgc_dense(S, y, labelled, *, mu, n_classes=None, laplacian="combinatorial", max_nodes=5000):
    """``F = (I + mu L)^-1 Y`` with dense matrices (gu2013 Eq. 2).

    ``L = D - W`` or, with ``laplacian="normalized"``, ``I - D^-1/2 W D^-1/2``;
    ``Y[i, y_i] = 1`` on labelled rows, zero rows elsewhere.
    """
    W, n, y, mask, K = _dense_problem(S, y, labelled, n_classes, max_nodes)
    d = W.sum(axis=1)
    if laplacian == "combinatorial":
        L = np.diag(d) - W
    else:
        L = np.eye(n) - W / np.sqrt(np.outer(d, d))
    Y = np.zeros((n, K))
    for i in np.flatnonzero(mask):
        Y[i, y[i]] = 1.0
    return np.linalg.solve(np.eye(n) + mu * L, Y)


@renamed_parameter("labeled", "labelled")
def harmonic_dense(S, y, labelled, *, n_classes=None, form="energy", max_nodes=5000):
    """Harmonic function, zhang2006 Eq. 2, with dense matrices.

    ``form="energy"``: ``f_U = (D_UU - W_UU)^-1 W_UL f_L``;
    ``form="random_walk"``: ``f_U = (I - P_UU)^-1 P_UL f_L`` with ``P = D^-1 W``.
    ``f_L`` is the one-hot matrix of the labels; returns the full ``(n, K)`` F.
    """
    W, n, y, mask, K = _dense_problem(S, y, labelled, n_classes, max_nodes)
    Lb, U = np.flatnonzero(mask), np.flatnonzero(~mask)
    f_L = np.zeros((Lb.size, K))
    f_L[np.arange(Lb.size), y[Lb]] = 1.0
    D = np.diag(W.sum(axis=1))
    if form == "energy":
        f_U = np.linalg.solve(D[np.ix_(U, U)] - W[np.ix_(U, U)], W[np.ix_(U, Lb)] @ f_L)
    elif form == "random_walk":
        P = np.linalg.inv(D) @ W
        f_U = np.linalg.solve(np.eye(U.size) - P[np.ix_(U, U)], P[np.ix_(U, Lb)] @ f_L)
    else:
        raise ValueError(f"unknown form {form!r}")
    F = np.zeros((n, K))
    F[Lb] = f_L
    F[U] = f_U
    return F


@renamed_parameter("labeled", "labelled")
def cmn_dense(F, labelled, y, *, class_prior=None):
    """Class mass normalisation of a full score matrix, literally.

    For every unlabelled row i and class k: ``F[i, k] <- q_k F[i, k] / sum_{j in U} F[j, k]``,
    with ``q_k`` = proportion of class k among the labelled nodes unless given.
    Labelled rows are unchanged.
    """
    F = np.array(F, dtype=np.float64)
    n, K = F.shape
    y = np.asarray(y, dtype=int)
    mask = _labelled_mask(labelled, n)
    if class_prior is None:
        q = np.array([np.sum(y[mask] == k) for k in range(K)], dtype=float) / mask.sum()
    else:
        q = np.asarray(class_prior, dtype=float) / np.sum(class_prior)
    out = F.copy()
    for k in range(K):
        mass = sum(F[i, k] for i in range(n) if not mask[i])
        for i in range(n):
            if not mask[i] and mass > 0:
                out[i, k] = q[k] * F[i, k] / mass
    return out


# --------------------------------------------------------------------------- zhang2006 (LOOHL, MinEnt)
_H = {
    "squared": (lambda x: (1 - x) ** 2, lambda x: -2 * (1 - x)),
    "linear": (lambda x: 1 - x, lambda x: -1.0),
    "log": (lambda x: -np.log(x), lambda x: -1 / x),
}


def _rbf_and_derivatives(X, sigma, eps):
    """Literal zhang2006 Eq. 3 and the "two equations" of Sec. 3.1, with loops.

    Returns ``P~`` (n, n) and ``dP~/dlog sigma_d`` for every d, shape (m, n, n).
    """
    X = np.asarray(X, dtype=np.float64)
    n, m = X.shape
    sigma = np.broadcast_to(np.asarray(sigma, dtype=np.float64), (m,))
    W = np.zeros((n, n))
    dW = np.zeros((m, n, n))
    for i in range(n):
        for j in range(n):
            if i != j:
                W[i, j] = np.exp(-sum((X[i, d] - X[j, d]) ** 2 / sigma[d] ** 2 for d in range(m)))
                for d in range(m):
                    dW[d, i, j] = 2 * W[i, j] * (X[i, d] - X[j, d]) ** 2 / sigma[d] ** 2
    sw = W.sum(axis=1)
    P = W / sw[:, None]
    Pt = eps / n + (1 - eps) * P
    dPt = np.zeros((m, n, n))
    for d in range(m):
        for i in range(n):
            dPt[d, i] = (1 - eps) * (dW[d, i] - P[i] * dW[d, i].sum()) / sw[i]
    return Pt, dPt


def _targets(y, labelled, n, n_classes):
    y = np.asarray(y, dtype=int)
    mask = _labelled_mask(labelled, n)
    K = int(y.max()) + 1 if n_classes is None else n_classes
    return y, np.flatnonzero(mask), np.flatnonzero(~mask), K


@renamed_parameter("labeled", "labelled")
def loo_objective_naive(X, y, labelled, sigma, *, eps=0.01, loss="squared", reg=0.0, n_classes=None):
    """zhang2006 Algorithm 1 (naive LOOHL): every leave-one-out system inverted from scratch.

    For each labelled ``t``: ``U_t = [t] + U``, ``L_t = L \\ {t}``, ``f^t = (I - P~_{U_t U_t})^-1
    P~_{U_t L_t} f_{L_t}`` with ``f_L`` the indicator of ``y_t``'s class, loss ``h(f^t[0])`` and
    gradient ``h' * row 0 of the inverse @ (dP~_{U_t U_t} f^t + dP~_{U_t L_t} f_{L_t})`` per d.
    Plus the class balance regulariser on the full harmonic solution. Gradient in ``log sigma``.
    """
    X = np.asarray(X, dtype=np.float64)
    n, m = X.shape
    y, Lb, U, K = _targets(y, labelled, n, n_classes)
    h, dh = _H[loss]
    Pt, dPt = _rbf_and_derivatives(X, sigma, eps)
    Q, g = 0.0, np.zeros(m)
    for t in Lb:
        Ut = np.r_[t, U]
        Lt = Lb[Lb != t]
        fL = (y[Lt] == y[t]).astype(float)
        Ainv = np.linalg.inv(np.eye(Ut.size) - Pt[np.ix_(Ut, Ut)])
        fU = Ainv @ Pt[np.ix_(Ut, Lt)] @ fL
        Q += h(fU[0])
        for d in range(m):
            g[d] += dh(fU[0]) * Ainv[0] @ (dPt[d][np.ix_(Ut, Ut)] @ fU + dPt[d][np.ix_(Ut, Lt)] @ fL)
    if reg > 0:
        Ainv = np.linalg.inv(np.eye(U.size) - Pt[np.ix_(U, U)])
        for k in range(K):
            fL = (y[Lb] == k).astype(float)
            fU = Ainv @ Pt[np.ix_(U, Lb)] @ fL
            gap = fU.mean() - fL.mean()
            Q += reg * gap**2
            for d in range(m):
                dfU = Ainv @ (dPt[d][np.ix_(U, U)] @ fU + dPt[d][np.ix_(U, Lb)] @ fL)
                g[d] += 2 * reg * gap * dfU.mean()
    return Q, g


@renamed_parameter("labeled", "labelled")
def entropy_objective_naive(X, y, labelled, sigma, *, eps=0.01, n_classes=None):
    """MinEnt (Zhu et al. 2003; zhang2006 Eq. 4): ``H = -sum_{i in U, k} f_ik log f_ik``, literally.

    ``df_U = (I - P~_UU)^-1 (dP~_UU f_U + dP~_UL f_L)`` per class and dimension. Gradient in ``log sigma``.
    """
    X = np.asarray(X, dtype=np.float64)
    n, m = X.shape
    y, Lb, U, K = _targets(y, labelled, n, n_classes)
    Pt, dPt = _rbf_and_derivatives(X, sigma, eps)
    Ainv = np.linalg.inv(np.eye(U.size) - Pt[np.ix_(U, U)])
    H, g = 0.0, np.zeros(m)
    for k in range(K):
        fL = (y[Lb] == k).astype(float)
        fU = Ainv @ Pt[np.ix_(U, Lb)] @ fL
        H -= np.sum(fU * np.log(fU))
        for d in range(m):
            dfU = Ainv @ (dPt[d][np.ix_(U, U)] @ fU + dPt[d][np.ix_(U, Lb)] @ fL)
            g[d] -= np.sum((np.log(fU) + 1) * dfU)
    return H, g


def sherman_morrison(Ainv, a, b):
    """zhang2006 Eq. 7 for one rank-one term: ``(A + a b^T)^-1 = A^-1 - A^-1 a b^T A^-1 / (1 + b^T A^-1 a)``."""
    Aa = Ainv @ a
    bA = b @ Ainv
    return Ainv - np.outer(Aa, bA) / (1.0 + b @ Aa)


def loo_inverse_eq7(A1inv, A1, At):
    """``At^-1`` from ``A1^-1`` when ``At - A1`` lives in the first row and column (zhang2006 Sec. 3.1).

    ``At = A1 + alpha e^T + e beta^T`` with ``alpha`` the first column of the difference and
    ``beta`` its first row without the corner; Eq. 7 applied twice.
    """
    Delta = At - A1
    e = np.zeros(A1.shape[0])
    e[0] = 1.0
    alpha = Delta[:, 0].copy()
    beta = Delta[0].copy()
    beta[0] = 0.0
    return sherman_morrison(sherman_morrison(A1inv, alpha, e), e, beta)


def central_difference(fun, x, h=1e-6):
    """Central finite-difference gradient of a scalar ``fun`` at ``x`` (any shape), one coordinate at a time.

    ``(fun(x + h e_i) - fun(x - h e_i)) / (2h)``: error ``O(h^2)`` from the
    third derivative plus a rounding error of order ``eps_mach |fun| / h``.
    """
    x = np.asarray(x, dtype=np.float64)
    g = np.zeros_like(x)
    for idx in np.ndindex(*x.shape):
        e = np.zeros_like(x)
        e[idx] = h
        g[idx] = (fun(x + e) - fun(x - e)) / (2 * h)
    return g


def balanced_q_slsqp(T, r_minus, r_plus):
    """The balanced ``q``-step solved as a generic primal problem in all ``u K`` variables (SLSQP).

    ``min_q sum_ij q_ij log q_ij - q_ij T_ij`` subject to unit row sums and
    ``r_minus <= mean_i q_i <= r_plus`` (gaertner2005 Sec. 5): the literal
    twin of :func:`graphsel_lib.transductive.solve_balanced_q`, for small
    problems. Returns ``(q, success)``.
    """
    from scipy.optimize import minimize

    T = np.asarray(T, dtype=np.float64)
    u, K = T.shape

    def primal(x):
        Q = x.reshape(u, K)
        return np.sum(Q * np.log(Q)) - np.sum(Q * T), (np.log(Q) + 1 - T).ravel()

    cons = [
        {"type": "eq", "fun": lambda x: x.reshape(u, K).sum(1) - 1},
        {"type": "ineq", "fun": lambda x: x.reshape(u, K).mean(0) - r_minus},
        {"type": "ineq", "fun": lambda x: r_plus - x.reshape(u, K).mean(0)},
    ]
    res = minimize(primal, np.full(u * K, 1 / K), jac=True, method="SLSQP", bounds=[(1e-12, 1)] * (u * K),
                   constraints=cons, options={"ftol": 1e-15, "maxiter": 2000})  # fmt: skip
    return res.x.reshape(u, K), bool(res.success)
