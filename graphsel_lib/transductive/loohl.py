"""Learning RBF bandwidths for the harmonic function: LOOHL and MinEnt (zhang2006).

The graph is built from features ``X`` (n, m) with one bandwidth per dimension
(zhang2006 Eq. 3)::

    w_ij = exp(-sum_d (x_id - x_jd)^2 / sigma_d^2),   w_ii = 0,   P = D^-1 W,
    P~ = eps U + (1 - eps) P,   U_ij = 1/n   (so P~_ii = eps/n).

The harmonic function of ``P~`` clamps ``F_L = Y_L`` (one-hot) and solves
``(I - P~_UU) F_U = P~_UL Y_L`` (zhang2006 Eq. 2). Two ways to choose ``sigma``:

* **MinEnt** (Zhu, Lafferty, Ghahramani 2003; zhang2006 Eq. 4): minimise the
  entropy of the unlabelled scores, ``H = -sum_{i in U} sum_k F_ik log F_ik``
  (for K = 2 this is zhang2006's binary entropy of ``f_U``). ``eps > 0`` keeps
  every ``F_ik > 0`` so that ``log`` is finite.
* **LOOHL** (zhang2006 Sec. 3): hold out each labelled node ``t`` in turn, make
  it unlabelled, and score the harmonic value it receives for its own class,
  ``Q = sum_t h(f^t_t)`` (Eq. 5). For K = 2 the paper's pairs
  ``h+(x) = (1-x)^a, h-(x) = x^a`` and ``h+ = -log x, h- = -log(1-x)`` are
  exactly ``h`` applied to the score of the true class, because the two class
  scores of the harmonic function sum to one; so the multiclass form below is
  the paper's objective when K = 2.

Gradient (zhang2006 Eq. 6 and Algorithm 2, in matrix form). Write
``M = I - P~`` and, for held-out ``t``, ``U_t = {t} ∪ U``, ``A_t = M[U_t, U_t]``.
With ``gamma_t = A_t^-T e_t`` and ``f^t`` the LOO harmonic vector (labels on
``L \\ {t}``),

    dQ = sum_t h'(f^t_t) gamma_t^T dP~[U_t, :] f^t,
    d P_ij = P_ij (d log w_ij - sum_k P_ik d log w_ik),
    d log w_ij / d log sigma_d = 2 (x_id - x_jd)^2 / sigma_d^2,

so ``dQ/dlog sigma_d = 2 sum_ij B_ij (z_id - z_jd)^2`` with ``z = x / sigma`` and

    B_ij = P_ij (sum_t c^t_i f^t_j - sum_t c^t_i (P f^t)_i),   c^t = (1 - eps) h'(f^t_t) gamma_t.

``B`` does not depend on ``d`` (the paper's ``beta_ij``, Algorithm 2): it costs
one ``(n x l) (l x n)`` product, and all ``m`` partial derivatives then cost
one ``(n x n) (n x m)`` product. MinEnt and the regulariser have the same form
with ``gamma`` replaced by the adjoint ``M_UU^-T dH/dF_U`` of the full problem.

The ``l`` leave-one-out systems (zhang2006 Eq. 7). ``A_t`` differs from one
``t`` to the next only in its first row and column; the paper inverts
``A_1`` and applies the matrix inversion lemma twice per ``t`` (a rank-two
change). We use the same lemma in its bordered form: ``A_t`` is ``M_UU`` with
one row and column added, so with ``g_t = M_UU^-1 M[U, t]`` and the Schur
complement ``s_t = M_tt - M[t, U] g_t``,

    f^t_t = (v_t - M[t, U] (F_U[:, k] + g_t)) / s_t,   f^t_U = F_U[:, k] + g_t (1 - f^t_t),
    gamma_t = (1, -M_UU^-T M[t, U]^T) / s_t,

where ``k = y_t``, ``F_U`` is the harmonic solution with every label and
``v_t = M_tt - sum_{j in L} M_tj [y_j = k]``. One LU factorisation of
``M_UU`` and two solves with ``l`` right-hand sides give every ``f^t`` and
``gamma_t``: ``O(u^3 + l u^2)`` as in the paper, but no intermediate matrix
(``A_1`` plus a rank-one term) that might be singular. A literal Eq. 7 twin
is in :mod:`.reference` and the tests check both agree.

What the truncated paper text does not give, and we chose (documented):
``eps`` (default 1e-4: a walk on a sharp graph needs many steps to reach a
label and each step jumps uniformly with probability ``eps``, so a large
``eps`` washes ``F`` out to the label average; notebook 11 measures it on
digits), the loss (default ``"squared"``, ``h(x) = (1-x)^2``),
the start (one common bandwidth, Zhu et al.'s minimum-spanning-tree
heuristic ``d0 / 3``, :func:`mst_bandwidth`), the bounds of the search (``log sigma0 ± 7``), and the
regularisers. Pure LOOHL can learn degenerate graphs (zhang2006 Fig. 1, whose
regulariser is in the missing part of the text). We offer two: ``shrink > 0``
pulls ``log sigma`` towards the start, and ``reg > 0`` is a class
balance penalty on the full harmonic solution,

    R = reg * sum_k (mean_{i in U} F_ik - q_k)^2,   q_k = l_k / l,

which is zero unless the learned graph sends the unlabelled mass to the classes
far from their labelled proportions (the failure CMN also targets).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import scipy.linalg as sla
from scipy.sparse import csgraph
from scipy.spatial.distance import cdist
from threadpoolctl import threadpool_limits

from .._validation import as_real_matrix, check_positive, check_probability, renamed_parameter
from ._common import check_every_class_labelled, check_targets, one_hot, scores_or_deprecated_pair
from .harmonic import class_mass_normalization

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = [
    "LOSSES",
    "BandwidthFit",
    "mst_bandwidth",
    "rbf_weights",
    "smoothed_transition",
    "harmonic_rbf",
    "loo_objective",
    "entropy_objective",
    "loohl",
    "loohl_fit",
    "minent",
    "minent_fit",
]

#: Loss ``h`` of the held-out node's score for its own class, and its derivative.
LOSSES = {
    "squared": (lambda x: (1.0 - x) ** 2, lambda x: -2.0 * (1.0 - x)),
    "linear": (lambda x: 1.0 - x, lambda x: -np.ones_like(x)),
    "log": (lambda x: -np.log(x), lambda x: -1.0 / x),
}

#: Half-width, in log units, of the box the search (:func:`_descend`) keeps around ``log sigma0``.
LOG_SIGMA_RANGE = 7.0


# --------------------------------------------------------------------------- inputs
def _check_X(X) -> np.ndarray:
    X = as_real_matrix(X, "X (n_nodes, n_features)", sparse=False)
    if X.shape[0] < 2 or X.shape[1] < 1:
        raise ValueError(f"X needs at least 2 nodes and 1 feature, got shape {X.shape}")
    return X - X.mean(axis=0)  # distances are translation invariant; centring avoids cancellation


def _check_sigma(sigma, m) -> np.ndarray:
    s = np.asarray(sigma, dtype=np.float64)
    if s.ndim == 0:
        s = np.full(m, float(s))
    if s.shape != (m,):
        raise ValueError(
            f"sigma must be a scalar or have shape ({m},) (one bandwidth per feature), got {s.shape}"
        )
    if not np.all(np.isfinite(s)) or np.any(s <= 0):
        raise ValueError("sigma must be positive and finite")
    return s


def _check_eps(eps, *, positive=False):
    return check_probability(eps, "eps", low_open=positive, high_open=True)


def _check_loss(loss):
    if loss not in LOSSES:
        raise ValueError(f"loss must be one of {tuple(LOSSES)}, got {loss!r}")
    return LOSSES[loss]


def _check_loo(counts, loss):
    if counts.sum() < 2:
        raise ValueError("LOOHL needs at least 2 labelled nodes (one is held out at a time)")
    if loss == "log" and counts.min() < 2:
        raise ValueError(
            f"loss='log' needs 2 labelled nodes in every class: holding out the only labelled node of class "
            f"{int(np.argmin(counts))} scores it 0, an infinite loss"
        )


def _check_reg(reg, name="reg"):
    return check_positive(reg, name, allow_zero=True)


def _setup(
    X, y, labelled, n_classes
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, np.ndarray]:
    X = _check_X(X)
    n = X.shape[0]
    lab, y_l, K = check_targets(y, labelled, n, n_classes=n_classes)
    if lab.size == n:
        raise ValueError("every node is labelled: there is no unlabelled node to learn the graph from")
    counts = check_every_class_labelled(y_l, K)
    unl = np.setdiff1d(np.arange(n), lab)
    return X, lab, unl, y_l, K, counts


# --------------------------------------------------------------------------- graph
@renamed_parameter("labeled", "labelled")
def mst_bandwidth(X: ArrayLike, y: ArrayLike, labelled: ArrayLike) -> float:
    """Zhu's seed-free start ``sigma0 = d0 / 3`` (Zhu, Ghahramani, Lafferty, CMU-CS-03-175, Sec. 7).

    Grow a minimum spanning tree of the Euclidean distances by Kruskal's rule
    (shortest edges first); ``d0`` is the length of the first tree edge that
    joins two components holding labelled nodes of different classes, an
    estimate of the gap between class regions. With ``sigma = d0 / 3`` that edge
    weighs ``exp(-9)``: propagation stays mostly within classes.

    Parameters
    ----------
    X : array-like of shape (n_nodes, n_features)
        Node features.
    y : array-like of int of shape (n_nodes,)
        Labels ``0..K-1``; only ``y[labelled]`` is used.
    labelled : array-like of int of shape (l,) or of bool of shape (n_nodes,)
        The labelled nodes.

    Returns
    -------
    float
        ``d0 / 3``.

    Raises
    ------
    ValueError
        The labelled nodes hold fewer than two classes, or ``X``, ``y`` or ``labelled`` is invalid.

    Examples
    --------
    The tree edge ``1 - 2`` (length 3) is the first to join the two classes:

    >>> mst_bandwidth([[0.0], [1.0], [4.0], [5.0]], [0, 0, 1, 1], [0, 3])
    1.0
    """
    X = _check_X(X)
    lab, y_l, _ = check_targets(y, labelled, X.shape[0])
    if np.unique(y_l).size < 2:
        raise ValueError("mst_bandwidth needs labelled nodes of at least two classes")
    tree = csgraph.minimum_spanning_tree(cdist(X, X)).tocoo()  # duplicate points: a forest
    parent = np.arange(X.shape[0])
    classes = {int(i): {int(c)} for i, c in zip(lab, y_l, strict=True)}

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for k in np.argsort(tree.data, kind="stable"):
        a, b = root(tree.row[k]), root(tree.col[k])
        ca, cb = classes.pop(a, set()), classes.pop(b, set())
        if ca and cb and ca | cb != ca & cb:
            return float(tree.data[k]) / 3.0
        parent[b] = a
        classes[a] = ca | cb
    return float(tree.data.max()) / 3.0 if tree.nnz else 1.0  # only duplicates separate the classes


def rbf_weights(X: ArrayLike, sigma: ArrayLike) -> np.ndarray:
    """Dense RBF weights ``w_ij = exp(-sum_d (x_id - x_jd)^2 / sigma_d^2)``, zero diagonal (zhang2006 Eq. 3).

    Parameters
    ----------
    X : array-like of shape (n_nodes, n_features)
        Node features.
    sigma : float or array-like of shape (n_features,)
        Bandwidths ``sigma_d > 0``.

    Returns
    -------
    ndarray of shape (n_nodes, n_nodes)

    Raises
    ------
    ValueError
        ``X`` has fewer than 2 rows or is not finite, or ``sigma`` is not positive or has the wrong shape.

    Examples
    --------
    >>> rbf_weights([[0.0], [1.0], [2.0]], 1.0).round(4).tolist()
    [[0.0, 0.3679, 0.0183], [0.3679, 0.0, 0.3679], [0.0183, 0.3679, 0.0]]
    """
    X = _check_X(X)
    Z = X / _check_sigma(sigma, X.shape[1])
    W = np.exp(-cdist(Z, Z, "sqeuclidean"))
    np.fill_diagonal(W, 0.0)
    return W


def _transition(Z):
    """``P = D^-1 W`` computed row-wise as a softmax of ``-||z_i - z_j||^2`` (no underflow to 0/0)."""
    E = -cdist(Z, Z, "sqeuclidean")
    np.fill_diagonal(E, -np.inf)
    E -= E.max(axis=1, keepdims=True)
    P = np.exp(E)
    P /= P.sum(axis=1, keepdims=True)
    return P


def smoothed_transition(X: ArrayLike, sigma: ArrayLike, eps: float = 1e-4) -> np.ndarray:
    """Smoothed random walk ``P~ = eps/n + (1 - eps) D^-1 W`` on :func:`rbf_weights` (zhang2006 Sec. 2.2).

    Parameters
    ----------
    X : array-like of shape (n_nodes, n_features)
        Node features.
    sigma : float or array-like of shape (n_features,)
        Bandwidths ``sigma_d > 0``.
    eps : float in [0, 1), default 1e-4
        Probability of a uniform jump.

    Returns
    -------
    ndarray of shape (n_nodes, n_nodes)
        Row-stochastic.

    Raises
    ------
    ValueError
        Invalid ``X`` or ``sigma``, or ``eps`` outside ``[0, 1)``.

    Examples
    --------
    >>> smoothed_transition([[0.0], [1.0]], 1.0, eps=0.5).tolist()
    [[0.25, 0.75], [0.75, 0.25]]
    """
    X = _check_X(X)
    eps = _check_eps(eps)
    P = _transition(X / _check_sigma(sigma, X.shape[1]))
    return eps / X.shape[0] + (1.0 - eps) * P


def _harmonic_on(Pt, lab, unl, Y_L):
    """Harmonic solution on a dense transition matrix: ``F_U = (I - P~_UU)^-1 P~_UL Y_L``."""
    M_UU = np.eye(unl.size) - Pt[np.ix_(unl, unl)]
    lu = sla.lu_factor(M_UU)
    F_U = sla.lu_solve(lu, Pt[np.ix_(unl, lab)] @ Y_L)
    return lu, F_U


@renamed_parameter("labeled", "labelled")
def harmonic_rbf(
    X: ArrayLike,
    y: ArrayLike,
    labelled: ArrayLike,
    *,
    sigma: ArrayLike,
    eps: float = 1e-4,
    cmn: bool = False,
    n_classes: int | None = None,
) -> np.ndarray:
    """Harmonic scores ``F`` on the smoothed RBF walk ``P~`` (zhang2006 Eq. 2 and 3).

    With ``eps = 0`` this is :func:`graphsel_lib.transductive.harmonic` on
    :func:`rbf_weights`.

    Parameters
    ----------
    X : array-like of shape (n_nodes, n_features)
        Node features.
    y : array-like of int of shape (n_nodes,)
        Labels ``0..K-1``; only ``y[labelled]`` is used; every class needs a labelled node.
    labelled : array-like of int of shape (l,) or of bool of shape (n_nodes,)
        The labelled nodes; at least one node is not.
    sigma : float or array-like of shape (n_features,)
        Bandwidths ``sigma_d > 0``.
    eps : float in [0, 1), default 1e-4
        Smoothing of the walk, :func:`smoothed_transition`.
    cmn : bool, default False
        Class mass normalisation with the labelled class proportions.
    n_classes : int, optional
        ``K``; default ``max(y) + 1``.

    Returns
    -------
    ndarray of shape (n_nodes, K)

    Raises
    ------
    ValueError, TypeError
        Invalid ``X``, labels, ``labelled``, ``sigma`` or ``eps``; a class without a labelled node;
        no unlabelled node.

    Examples
    --------
    >>> harmonic_rbf([[0.0], [1.0], [2.0]], [0, -1, 1], [0, 2], sigma=1.0, eps=0.0).round(6).tolist()
    [[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]]
    """
    X, lab, unl, y_l, K, counts = _setup(X, y, labelled, n_classes)
    Pt = smoothed_transition(X, sigma, eps)
    _, F_U = _harmonic_on(Pt, lab, unl, one_hot(y_l, K))
    if cmn:
        F_U = class_mass_normalization(F_U, counts)
    F = np.zeros((X.shape[0], K))
    F[lab, y_l] = 1.0
    F[unl] = F_U
    return F


# --------------------------------------------------------------------------- objectives
def _weight_gradient(P, Z, C, Fm, eps):
    """``d/dlog sigma_d`` of ``sum_r sum_i C[i, r] (P~ Fm)[i, r]`` holding ``Fm`` fixed (see module doc)."""
    PF = P @ Fm
    B = P * ((1.0 - eps) * (C @ Fm.T - np.sum(C * PF, axis=1, keepdims=True)))
    r, c = B.sum(axis=1), B.sum(axis=0)
    return 2.0 * (((r + c)[:, None] * Z**2).sum(axis=0) - 2.0 * np.sum(Z * (B @ Z), axis=0))


def _full_adjoint(lu, unl, G_U, n):
    """Adjoint columns ``C`` (n, K) for an objective with gradient ``G_U = dJ/dF_U`` (u, K)."""
    C = np.zeros((n, G_U.shape[1]))
    C[unl] = sla.lu_solve(lu, G_U, trans=1)
    return C


def _balance(F_U, counts, reg):
    q = counts / counts.sum()
    gap = F_U.mean(axis=0) - q
    return reg * float(gap @ gap), np.broadcast_to(2.0 * reg * gap / F_U.shape[0], F_U.shape)


@renamed_parameter("labeled", "labelled")
def loo_objective(
    X: ArrayLike,
    y: ArrayLike,
    labelled: ArrayLike,
    sigma: ArrayLike,
    *,
    eps: float = 1e-4,
    loss: str = "squared",
    reg: float = 0.0,
    n_classes: int | None = None,
) -> tuple[float, np.ndarray]:
    """LOOHL objective ``Q(sigma) = sum_t h(f^t_t) + R`` and its gradient in ``log sigma`` (zhang2006 Eq. 5–7).

    Parameters
    ----------
    X : array-like of shape (n_nodes, n_features)
        Node features.
    y : array-like of int of shape (n_nodes,)
        Labels ``0..K-1``; only ``y[labelled]`` is used; every class needs a labelled node.
    labelled : array-like of int of shape (l,) or of bool of shape (n_nodes,)
        At least 2 labelled nodes, and at least one unlabelled node.
    sigma : float or array-like of shape (n_features,)
        Bandwidths ``sigma_d > 0``.
    eps : float in [0, 1), default 1e-4
        Smoothing of the transition matrix.
    loss : {"squared", "linear", "log"}, default "squared"
        ``h(x) = (1 - x)^2``, ``1 - x`` or ``-log x`` of the held-out node's
        score ``x`` for its own class. ``"log"`` needs 2 labelled nodes per class,
        and ``eps > 0``: without smoothing a held-out score can be ~1e-25, below the
        absolute precision of the solve, where ``-log`` is meaningless.
    reg : float, default 0
        Weight of the class balance regulariser (module docstring).
    n_classes : int, optional
        ``K``; default ``max(y) + 1``.

    Returns
    -------
    value : float
    grad : ndarray of shape (n_features,)
        ``dQ / d log sigma_d``.

    Raises
    ------
    ValueError, TypeError
        Invalid inputs (as :func:`harmonic_rbf`), fewer than 2 labelled nodes, an unknown
        ``loss``, ``loss="log"`` with a class of one labelled node, or a negative ``reg``.
    FloatingPointError
        A leave-one-out system is singular (``eps = 0``).

    Examples
    --------
    >>> X = [[0.0], [1.0], [2.0], [3.0], [4.0]]
    >>> value, grad = loo_objective(X, [0, 0, -1, 1, 1], [0, 1, 3, 4], 1.0, eps=0.0)
    >>> round(value, 4), grad.round(4).tolist()
    (0.2455, [0.1472])
    """
    X, lab, unl, y_l, K, counts = _setup(X, y, labelled, n_classes)
    sigma = _check_sigma(sigma, X.shape[1])
    eps, reg = _check_eps(eps), _check_reg(reg)
    h, dh = _check_loss(loss)
    n, l = X.shape[0], lab.size
    _check_loo(counts, loss)
    Z = X / sigma
    P = _transition(Z)
    M = np.eye(n) - (eps / n + (1.0 - eps) * P)
    Y_L = one_hot(y_l, K)
    lu, F_U = _harmonic_on(np.eye(n) - M, lab, unl, Y_L)
    M_UL, M_LU = M[np.ix_(unl, lab)], M[np.ix_(lab, unl)]
    Gm = sla.lu_solve(lu, M_UL)  # column a: g_t = M_UU^-1 M[U, t]
    Qm = sla.lu_solve(lu, M_LU.T, trans=1)  # column a: M_UU^-T M[t, U]^T
    a = np.arange(l)
    M_tt = M[lab, lab]
    s = M_tt - np.einsum("au,ua->a", M_LU, Gm)  # Schur complements
    FUk = F_U[:, y_l]  # (u, l): full solution, column of the held-out node's class
    v = M_tt - (M[np.ix_(lab, lab)] @ Y_L)[a, y_l]
    f_t = (v - np.einsum("au,ua->a", M_LU, FUk + Gm)) / s
    if not np.all(np.isfinite(f_t)):
        raise FloatingPointError("a leave-one-out system is singular (use eps > 0)")
    value = float(np.sum(h(f_t)))
    w = dh(f_t) / s  # h'(f^t_t) gamma_t[t]; the factor (1 - eps) is applied in _weight_gradient
    C = np.zeros((n, l))
    C[unl] = -Qm * w
    C[lab, a] = w
    Fm = np.empty((n, l))
    Fm[unl] = FUk + Gm * (1.0 - f_t)
    Fm[lab] = Y_L[:, y_l]
    Fm[lab, a] = f_t
    if reg > 0:
        r_val, r_grad = _balance(F_U, counts, reg)
        value += r_val
        C = np.hstack([C, _full_adjoint(lu, unl, r_grad, n)])
        Fm = np.hstack([Fm, np.vstack([Y_L, F_U])[np.argsort(np.r_[lab, unl])]])
    return value, _weight_gradient(P, Z, C, Fm, eps)


@renamed_parameter("labeled", "labelled")
def entropy_objective(
    X: ArrayLike,
    y: ArrayLike,
    labelled: ArrayLike,
    sigma: ArrayLike,
    *,
    eps: float = 1e-4,
    n_classes: int | None = None,
) -> tuple[float, np.ndarray]:
    """MinEnt objective ``H = -sum_{i in U, k} F_ik log F_ik`` and its gradient in ``log sigma``.

    Zhu, Lafferty, Ghahramani (2003); zhang2006 Eq. 4 (binary form when K = 2),
    with the smoothed ``P~``.

    Parameters
    ----------
    X, y, labelled, sigma, n_classes
        As in :func:`loo_objective` (one labelled node per class is enough here).
    eps : float in (0, 1), default 1e-4
        Smoothing of the transition matrix; positive, so that every ``F_ik > 0``.

    Returns
    -------
    value, grad
        ``H`` and ``dH / d log sigma_d``, shaped as in :func:`loo_objective`.

    Raises
    ------
    ValueError, TypeError
        Invalid inputs (as :func:`harmonic_rbf`), or ``eps`` not in ``(0, 1)``.

    Examples
    --------
    One unlabelled node halfway between the two classes: ``F_U = (1/2, 1/2)``, ``H = log 2``.

    >>> value, grad = entropy_objective([[0.0], [1.0], [2.0]], [0, -1, 1], [0, 2], 1.0)
    >>> round(value, 6), round(float(np.log(2)), 6)
    (0.693147, 0.693147)
    """
    X, lab, unl, y_l, K, _ = _setup(X, y, labelled, n_classes)
    sigma = _check_sigma(sigma, X.shape[1])
    eps = _check_eps(eps, positive=True)
    n = X.shape[0]
    Z = X / sigma
    P = _transition(Z)
    Y_L = one_hot(y_l, K)
    lu, F_U = _harmonic_on(eps / n + (1.0 - eps) * P, lab, unl, Y_L)
    logF = np.log(F_U)
    value = -float(np.sum(F_U * logF))
    C = _full_adjoint(lu, unl, -(logF + 1.0), n)
    F = np.vstack([Y_L, F_U])[np.argsort(np.r_[lab, unl])]
    return value, _weight_gradient(P, Z, C, F, eps)


# --------------------------------------------------------------------------- fitting
@dataclass(frozen=True)
class BandwidthFit:
    """Bandwidths learned by :func:`loohl_fit` or :func:`minent_fit` (zhang2006), the scores, the search's report.

    Parameters
    ----------
    scores : ndarray of shape (n_nodes, K)
        Harmonic scores on the learned graph (what :func:`loohl` and :func:`minent` return).
    method : {"loohl", "minent"}
        The objective minimised.
    sigma : ndarray of shape (n_features,)
        Learned bandwidths (a very large ``sigma_d`` switches feature ``d`` off).
    sigma0 : ndarray of shape (n_features,)
        Start of the search.
    objective, objective0 : float
        Objective (including the ``shrink`` term) at ``sigma`` and at ``sigma0``.
    n_iter, n_evaluations : int
        Iterations of the search (:func:`_descend`) and objective evaluations.
    success : bool
        The search converged (rather than reaching ``maxiter``).
    message : str
        Why the search stopped.

    Examples
    --------
    >>> X = [[0.0], [1.0], [2.0], [10.0], [11.0], [12.0]]
    >>> fit = minent_fit(X, [0, 0, -1, -1, 1, 1], [0, 1, 4, 5])
    >>> fit.method, fit.sigma.shape, bool(fit.objective < fit.objective0), fit.scores.shape
    ('minent', (1,), True, (6, 2))
    """

    scores: np.ndarray
    method: str
    sigma: np.ndarray
    sigma0: np.ndarray
    objective: float
    objective0: float
    n_iter: int
    n_evaluations: int
    success: bool
    message: str


#: A step must lower the objective by this fraction of its value to count (far above the ~1e-11 by which
#: BLAS kernels and thread counts move it): near a flat optimum no comparison is left to rounding.
RTOL_DECREASE = 1e-8
#: Pairs ``(s, y)`` the quasi-Newton direction remembers (as L-BFGS-B's default).
MEMORY = 10


def _two_loop(g, pairs):
    """L-BFGS direction ``-H g`` from the remembered pairs (Nocedal and Wright, Algorithm 7.4)."""
    q, alphas = g.copy(), []
    for s, y in reversed(pairs):
        a = float(s @ q) / float(s @ y)
        alphas.append(a)
        q -= a * y
    if pairs:
        s, y = pairs[-1]
        q *= float(s @ y) / float(y @ y)
    for (s, y), a in zip(pairs, reversed(alphas), strict=True):
        q += (a - float(y @ q) / float(s @ y)) * s
    return -q


def _descend(fun, x0, lo, hi, maxiter, gtol):
    """Projected L-BFGS in a box whose every decision has a margin against rounding.

    A step is accepted only if it lowers ``f`` by ``1e-4 * |g . step|`` (Armijo) plus
    :data:`RTOL_DECREASE` ``* |f|``; halving the step 20 times without that is convergence
    ("no relative decrease"). So near the optimum, where successive values differ by rounding,
    every comparison rejects, on any machine; L-BFGS-B compares such values at the last bits and
    its path, hence the learned graph, moved with the BLAS thread count (notebook 40). Stops also
    when the projected gradient is at most ``gtol`` or after ``maxiter`` steps. Returns
    ``(x, f, n_iter, n_evaluations, success, message)``.
    """
    x = x0.copy()
    f, g = fun(x)
    nfev, pairs = 1, []
    for it in range(maxiter):
        free = ~(((x <= lo) & (g > 0)) | ((x >= hi) & (g < 0)))  # bound variables pushed outwards stay
        pg = np.where(free, g, 0.0)
        if np.max(np.abs(pg)) <= gtol:
            return x, f, it, nfev, True, "projected gradient below tol"
        d = np.where(free, _two_loop(pg, pairs), 0.0)
        if not pg @ d < 0:  # not a descent direction: steepest descent, memory cleared
            d, pairs = -pg, []
        if not pairs:  # no curvature yet: at most one log unit per coordinate
            d = d / max(1.0, float(np.max(np.abs(d))))
        step = 1.0
        for _ in range(21):
            x_new = np.clip(x + step * d, lo, hi)
            f_new, g_new = fun(x_new)
            nfev += 1
            if f_new <= f + 1e-4 * float(g @ (x_new - x)) - RTOL_DECREASE * abs(f):
                break
            step *= 0.5
        else:
            return x, f, it, nfev, True, f"no relative decrease above {RTOL_DECREASE:g}"
        s, y = x_new - x, g_new - g
        if s @ y > 1e-10 * np.linalg.norm(s) * np.linalg.norm(y):  # positive curvature: remember the pair
            pairs = [*pairs, (s, y)][-MEMORY:]
        x, f, g = x_new, f_new, g_new
    return x, f, maxiter, nfev, False, f"iteration cap maxiter={maxiter} reached"


def _fit(
    method, objective, X, y, labelled, sigma0, shrink, maxiter, tol, *, eps, cmn, n_classes
) -> BandwidthFit:
    """The search of :func:`loohl_fit` and :func:`minent_fit`, then the harmonic scores on the learned graph."""
    m = np.shape(X)[1]
    s0 = _check_sigma(mst_bandwidth(X, y, labelled) if sigma0 is None else sigma0, m)
    shrink = _check_reg(shrink, "shrink")
    theta0 = np.log(s0)

    def fun(theta):  # objective + shrink * ||log sigma - log sigma0||^2
        value, grad = objective(np.exp(theta))
        return value + shrink * np.sum((theta - theta0) ** 2), grad + 2.0 * shrink * (theta - theta0)

    # one BLAS thread: the same sums in the same order whatever the caller's thread count (a long search over a
    # flat valley, e.g. MinEnt run to its cap, amplifies even margin-proof differences of 1e-11 continuously)
    with threadpool_limits(limits=1, user_api="blas"):
        f0 = fun(theta0)[0]
        x, f, nit, nfev, success, message = _descend(
            fun, theta0, theta0 - LOG_SIGMA_RANGE, theta0 + LOG_SIGMA_RANGE, maxiter, tol
        )
    sigma = np.exp(x)
    return BandwidthFit(
        scores=harmonic_rbf(X, y, labelled, sigma=sigma, eps=eps, cmn=cmn, n_classes=n_classes),
        method=method,
        sigma=sigma,
        sigma0=s0,
        objective=float(f),
        objective0=float(f0),
        n_iter=nit,
        n_evaluations=nfev,
        success=success,
        message=message,
    )


@renamed_parameter("labeled", "labelled")
def loohl_fit(
    X: ArrayLike,
    y: ArrayLike,
    labelled: ArrayLike,
    *,
    sigma0: ArrayLike | None = None,
    eps: float = 1e-4,
    loss: str = "squared",
    reg: float = 0.0,
    shrink: float = 0.0,
    cmn: bool = False,
    n_classes: int | None = None,
    maxiter: int = 200,
    tol: float = 1e-6,
) -> BandwidthFit:
    """Leave-one-out hyperparameter learning (zhang2006): bandwidths, then harmonic scores, with the search's report.

    Minimises :func:`loo_objective` over ``log sigma`` by projected L-BFGS
    (:func:`_descend`: no decision left to the last bits; evaluated on one BLAS
    thread, so the caller's thread count does not matter), started at
    ``sigma0``, then returns the harmonic scores on the learned graph.

    Parameters
    ----------
    X : array-like of shape (n_nodes, n_features)
        Node features; the graph is the dense RBF graph on them (O(n^2) memory).
    y : array-like of int of shape (n_nodes,)
        Labels ``0..K-1``; only ``y[labelled]`` is used; every class needs a labelled node.
    labelled : array-like of int of shape (l,) or of bool of shape (n_nodes,)
        At least 2 labelled nodes, and at least one unlabelled node.
    sigma0 : float or array-like of shape (n_features,), optional
        Start; default :func:`mst_bandwidth` (Zhu's ``d0 / 3``) for every feature.
    eps : float in [0, 1), default 1e-4
        Smoothing ``P~ = eps U + (1 - eps) P`` (used for learning and for the returned scores).
    loss : {"squared", "linear", "log"}, default "squared"
    reg : float, default 0
        Class balance regulariser (0: pure LOOHL, which can degenerate).
    shrink : float, default 0
        Adds ``shrink * sum_d (log sigma_d - log sigma0_d)^2`` to the objective
        (a Gaussian prior on the log bandwidths around the start): the second
        regulariser we offer against degenerate graphs.
    cmn : bool, default False
        Class mass normalisation of the returned scores.
    maxiter, tol : iteration cap and projected-gradient tolerance of the search.

    Returns
    -------
    BandwidthFit
        ``scores``: harmonic scores on the learned graph (prediction ``scores.argmax(1)``);
        ``sigma``: the learned bandwidths; and the search's report.

    Raises
    ------
    ValueError, TypeError
        Bad ``X`` (not 2-D, non-finite), bad labels or ``labelled`` (see
        :func:`graphsel_lib.transductive.harmonic`), a class without a labelled
        node, fewer than 2 labelled or no unlabelled node, bad ``sigma0``,
        ``eps``, ``loss`` or ``reg``.

    Examples
    --------
    Two groups of points on a line, two labelled points in each: the learned
    graph gives each unlabelled point its group's class.

    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0], [12.0]])
    >>> y = np.array([0, 0, -1, -1, 1, 1])
    >>> fit = loohl_fit(X, y, [0, 1, 4, 5])
    >>> fit.scores.argmax(axis=1)
    array([0, 0, 0, 1, 1, 1])
    >>> fit.scores.shape, fit.sigma.shape, bool(fit.success)
    ((6, 2), (1,), True)
    """
    counts = _setup(X, y, labelled, n_classes)[-1]  # fail fast, before the search
    _check_loss(loss)
    _check_loo(counts, loss)

    def objective(sigma):
        return loo_objective(X, y, labelled, sigma, eps=eps, loss=loss, reg=reg, n_classes=n_classes)

    return _fit(
        "loohl",
        objective,
        X,
        y,
        labelled,
        sigma0,
        shrink,
        maxiter,
        tol,
        eps=eps,
        cmn=cmn,
        n_classes=n_classes,
    )


@renamed_parameter("labeled", "labelled")
def minent_fit(
    X: ArrayLike,
    y: ArrayLike,
    labelled: ArrayLike,
    *,
    sigma0: ArrayLike | None = None,
    eps: float = 1e-4,
    shrink: float = 0.0,
    cmn: bool = False,
    n_classes: int | None = None,
    maxiter: int = 200,
    tol: float = 1e-6,
) -> BandwidthFit:
    """MinEnt (Zhu et al. 2003; zhang2006 Sec. 2.2): bandwidths minimising the entropy of ``F_U``, then harmonic scores.

    Minimises :func:`entropy_objective` by the search of :func:`loohl_fit`.

    Parameters
    ----------
    X, y, labelled, sigma0, shrink, cmn, n_classes, maxiter, tol
        As in :func:`loohl_fit`.
    eps : float in (0, 1), default 1e-4
        Smoothing of the walk; positive, so that the entropy is finite.

    Returns
    -------
    BandwidthFit
        Scores on the learned graph, bandwidths and the search's report.

    Raises
    ------
    ValueError, TypeError
        As :func:`loohl_fit`, and ``eps`` not in ``(0, 1)``.

    Examples
    --------
    >>> X = [[0.0], [1.0], [2.0], [10.0], [11.0], [12.0]]
    >>> minent_fit(X, [0, 0, -1, -1, 1, 1], [0, 1, 4, 5]).scores.argmax(axis=1).tolist()
    [0, 0, 0, 1, 1, 1]
    """
    _setup(X, y, labelled, n_classes)
    _check_eps(eps, positive=True)

    def objective(sigma):
        return entropy_objective(X, y, labelled, sigma, eps=eps, n_classes=n_classes)

    return _fit(
        "minent",
        objective,
        X,
        y,
        labelled,
        sigma0,
        shrink,
        maxiter,
        tol,
        eps=eps,
        cmn=cmn,
        n_classes=n_classes,
    )


@renamed_parameter("labeled", "labelled")
def loohl(
    X: ArrayLike, y: ArrayLike, labelled: ArrayLike, *, return_info: bool = False, **options: Any
) -> np.ndarray | tuple[np.ndarray, BandwidthFit]:
    """LOOHL's harmonic scores (zhang2006): ``loohl_fit(X, y, labelled, **options).scores``.

    Parameters
    ----------
    X, y, labelled, **options
        As in :func:`loohl_fit` (``sigma0``, ``eps``, ``loss``, ``reg``, ``shrink``, ``cmn``,
        ``n_classes``, ``maxiter``, ``tol``).
    return_info : bool, default False
        Deprecated: also return the fit. Call :func:`loohl_fit` instead.

    Returns
    -------
    ndarray of shape (n_nodes, K)
        Harmonic scores on the learned graph; prediction ``F.argmax(1)``.

    Examples
    --------
    >>> X = [[0.0], [1.0], [2.0], [10.0], [11.0], [12.0]]
    >>> loohl(X, [0, 0, -1, -1, 1, 1], [0, 1, 4, 5]).argmax(axis=1).tolist()
    [0, 0, 0, 1, 1, 1]
    """
    fit = loohl_fit(X, y, labelled, **options)
    return scores_or_deprecated_pair(fit.scores, lambda: fit, return_info, "loohl")


@renamed_parameter("labeled", "labelled")
def minent(
    X: ArrayLike, y: ArrayLike, labelled: ArrayLike, *, return_info: bool = False, **options: Any
) -> np.ndarray | tuple[np.ndarray, BandwidthFit]:
    """MinEnt's harmonic scores (zhang2006 Sec. 2.2): ``minent_fit(X, y, labelled, **options).scores``.

    Parameters
    ----------
    X, y, labelled, return_info, **options
        As in :func:`loohl`, with the options of :func:`minent_fit` (no ``loss``, no ``reg``).

    Returns
    -------
    ndarray of shape (n_nodes, K)

    Examples
    --------
    >>> minent([[0.0], [1.0], [2.0], [10.0]], [0, -1, -1, 1], [0, 3]).shape
    (4, 2)
    """
    fit = minent_fit(X, y, labelled, **options)
    return scores_or_deprecated_pair(fit.scores, lambda: fit, return_info, "minent")
