r"""Large-scale multiclass transduction with Gaussian processes (gaertner2005).

Gärtner, Le, Burton, Smola, Vishwanathan. *Large-Scale Multiclass Transduction*.
NIPS 2005. Notation: the paper writes ``m`` nodes and ``n`` classes; here, as in
the rest of the library, there are ``n`` nodes, ``K`` classes, ``l`` labelled
nodes ``L`` and ``u = n - l`` unlabelled nodes ``U``.

**Model (paper Eq. 1–7).** A multiclass GP with isotropic classes gives latent
scores ``t = K alpha`` (n x K) and, for a label distribution ``mu`` (one-hot
on ``L``), the negative log joint likelihood (Eq. 6 written in ``t``)

    P(t) = sum_i lse(t_i) - tr mu^T t + 1/(2 sigma^2) tr t^T K^-1 t,

``lse(t_i) = log sum_j exp t_ij``. On a graph the *inverse* kernel is sparse: we
use the regularised Laplacian of Eq. 16, ``K^-1 = L~ + kernel_eps I`` with the
normalised Laplacian ``L~ = I - D^-1/2 S D^-1/2`` (Eq. 15; the combinatorial
``L = D - S`` is an option), so every product ``K^-1 v`` is one sparse
matrix–vector product and no ``n x n`` dense matrix is ever formed.

**Transduction (Sec. 3).** The unknown labels get a factorising distribution
``q`` (``q_ij = q(y_i = j)``, ``i`` in ``U``) and the variational bound (10),
by (11)–(13), is

    J(t, q) = sum_{i in L} [lse(t_i) - t_{i,y_i}] + sum_{i in U} [lse(t_i) - q_i.t_i + sum_j q_ij log q_ij]
              + 1/(2 sigma^2) tr t^T K^-1 t
            = sum_{i in L} [lse(t_i) - t_{i,y_i}] + sum_{i in U} KL(q_i || softmax(t_i)) + prior,

minimised over ``t`` and over ``q`` in the balanced set (14)

    C = {q >= 0 : sum_j q_ij = 1 for i in U,  r-_j <= (1/u) sum_{i in U} q_ij <= r+_j}.

Without the balance constraint the best ``q`` is ``softmax(t_i)`` and every
unlabelled term vanishes: plain GP classification on the labelled nodes (the
kernel alone carries the graph). With it, ``q`` is the I-projection of the
model's predictions onto ``C``.

**Closed-form q (Sec. 5, Eq. 18).** For fixed ``t``, minimising ``J`` over
``q`` in ``C`` is a convex problem whose Lagrangian gives
``q_ij = exp(t_ij - gamma_j) / sum_l exp(t_il - gamma_l)``, one multiplier
``gamma_j = lambda+_j - lambda-_j`` per class: ``K`` dual variables (the
paper's "n variables", ``n`` being its number of classes). **Sign:** the paper
writes ``q_ij ∝ exp(-tau_ij) c_j`` with ``tau = (K alpha)_test``, but the linear
term of (12) is ``-tr mu(q)^T t``, so the minimiser is ``∝ exp(+t_ij) c_j``; the
paper's formula holds with ``tau = -t_U`` (``c_j = exp(-gamma_j)``). We use the
sign that makes ``q = softmax(t)`` when no constraint binds (tested). The dual
is the convex, piecewise-smooth problem in ``gamma`` in R^K

    min_gamma  h(gamma) = sum_{i in U} lse(t_i - gamma) + sum_j rho_j(gamma_j),
    rho_j(g) = u r+_j g  (g >= 0),   u r-_j g  (g < 0),

with optimality ``s_j = sum_i q_ij = u r+_j`` if ``gamma_j > 0``, ``= u r-_j`` if
``gamma_j < 0`` and ``u r-_j <= s_j <= u r+_j`` if ``gamma_j = 0``. We solve it
by projected Newton steps on ``gamma`` (Hessian ``diag(s) - Q^T Q``, K x K),
started as the paper says from the column rescaling that matches the class
totals while ignoring the per-node normalisation.

**Optimisation in t (Sec. 5).** The paper alternates Newton–CG in ``t`` (``q``
fixed) with the ``q`` update. That is a majorise–minimise scheme with the slow
linear rate of EM when most nodes are unlabelled (thousands of rounds where
Newton needs about ten, both ending at the same ``t*``;
tests/transductive/test_transductive_gp.py checks it). We therefore take the Newton–CG steps on the
*reduced* objective ``phi(t) = min_{q in C} J(t, q)``, i.e. ``q`` is updated in
closed form at every trial point. By Danskin's theorem its gradient is the
paper's Eq. 7 with ``mu = mu(q*)``,

    grad phi = pi - mu(q*) + sigma^-2 K^-1 t,   pi = softmax(t) row-wise,

and its Hessian is the paper's Eq. 8b on every row, minus on the unlabelled rows
the response of ``q*`` to ``t``: ``(diag q_i - q_i q_i^T)(v_i - dgamma)``, with
``dgamma`` solving ``(diag s - Q^T Q)_AA dgamma_A = (sum_i (diag q_i - q_i q_i^T) v_i)_A``
on the classes ``A`` whose constraint is active (``dgamma_j = 0`` elsewhere).
``phi`` is not convex in general once a constraint binds (a difference of
convex functions), so the CG solve of each Newton system is truncated at
``cg_iter`` iterations, at negative curvature (Steihaug) and when the decrease
of CG's quadratic model over its last iterations stalls (Nash and Sofer 1990; the
model is monotone where CG's residual is not, and noise of 1e-13 in ``t`` leaves
the counts in place where the residual test moved them, as tested), and an
Armijo line search on ``phi`` whose decreases must clear the objective's
rounding floor makes every step a descent step. Each CG iteration costs one
sparse product with ``K^-1`` and O(nK) work.

**Balance bounds from the tail bound (Eq. 14, garbled in our copy).** The
paper sets ``r-_j = p_emp(j) - eps``, ``r+_j = p_emp(j) + eps`` with ``p_emp``
the class frequencies on ``L`` and ``eps`` such that
``Pr(|mean_L xi - mean_U xi'| > eps) <= delta`` for iid Bernoulli labels.
Hoeffding's inequality for the difference of means (summands with ranges
``1/l`` and ``1/u``, sum of squared ranges ``1/l + 1/u = n/(l u)``) gives
``2 exp(-2 eps^2 l u / n)`` per class; a union bound over the ``K`` classes and
solving for ``eps`` gives

    eps = sqrt( log(2 K / delta) * n / (2 l u) ),

which is the paper's (partly legible) ``eps <= sqrt(log(2n/delta) m / (2 m_train m_test))``.
The paper does not state ``delta``; we use ``delta = 0.05``. Bounds are clipped
to ``[0, 1]``. NB: the paper uses the letter epsilon twice, for this
half-width and for the ridge of the regularised Laplacian ``K^-1 = L~ + eps I``;
here they are ``eps`` (balance) and ``kernel_eps`` (kernel).

**Not in the paper, chosen and documented:** ``sigma2`` and ``kernel_eps``
(the paper tuned "a few parameter sets on Cornell" without reporting them).
Defaults ``kernel_eps = 0.01``, ``sigma2 = 100``: on Cornell (inverse 10-fold
CV) every ``sigma2`` in {1, 10, 100} gave the same error within 0.015, and on
Cora the larger ``sigma2`` keeps the probabilities confident enough for the
balance constraint not to hurt (see Calibration below). The returned scores are
probabilities: ``q`` on ``U`` (the transductive posterior, satisfying the
balance constraint) and ``softmax(t)`` on ``L``. The paper's WebKB rule that
re-assigns test labels to match the training class proportions is
:func:`match_class_proportions`.

**Calibration (cf. the paper's remark on WebKB).** The balance constraint only
helps when the GP's probabilities are confident. Far from the labelled nodes
the prior pulls ``t`` to 0 and ``softmax(t)`` is nearly uniform; meeting a
binding class total then moves all these nodes together by the class offsets
``gamma``, which can cost accuracy (notebook 12 shows the balance at work). With the default
tail-bound ``eps`` the constraint rarely binds, and the result equals plain GP
classification.
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, fields
from functools import partial
from typing import TYPE_CHECKING, Any, Callable

import numpy as np
import scipy.sparse as sp

from .. import graph as _graph
from .._validation import (
    RenamedKeys,
    as_real_matrix,
    as_symmetric_matrix,
    check_integer,
    check_positive,
    renamed_parameter,
)
from ._common import ConvergenceWarning, check_targets, scores_or_deprecated_pair, warn_unlabelled_classes
from ._truncated_cg import DECISION_BAND
from ._truncated_cg import steihaug_cg as _steihaug_cg
from .balance import _check_bounds, balance_bounds, balance_epsilon, solve_balanced_q
from .balance import lse_rows as _lse_rows
from .balance import softmax_rows as _softmax

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from ..graph.types import Adjacency

__all__ = [
    "gp_hessp",
    "gp_kernel_inverse",
    "gp_objective",
    "match_class_proportions",
    "GPFit",
    "transductive_gp",
    "transductive_gp_fit",
]

_LAPLACIANS = ("normalized", "combinatorial")
_KINDS = ("auto", "adjacency", "kinv")
_OUTPUTS = ("q", "pi", "t")


def gp_kernel_inverse(S: Adjacency, kernel_eps: float, *, laplacian: str = "normalized") -> sp.csr_matrix:
    """Sparse inverse kernel ``K^-1 = L~ + kernel_eps I`` (gaertner2005 Eq. 15–16).

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Symmetric, non-negative, finite weights (self-loops ignored).
    kernel_eps : float
        Ridge ``> 0`` that makes ``K^-1`` positive definite (the regularised
        Laplacian's ``epsilon``).
    laplacian : {"normalized", "combinatorial"}, default "normalized"
        ``L~ = I - D^-1/2 S D^-1/2`` (the paper's choice) or ``L = D - S``.

    Returns
    -------
    scipy.sparse.csr_matrix of shape (n_nodes, n_nodes)

    Raises
    ------
    ValueError
        Bad ``S`` (see :func:`graphsel_lib.check_adjacency`), non-positive
        ``kernel_eps``, unknown ``laplacian``, or (normalised) an isolated node.

    Examples
    --------
    A path of 3 nodes: ``L = D - S`` plus ``0.5 I``.

    >>> S = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 1.0], [0.0, 1.0, 0.0]])
    >>> gp_kernel_inverse(S, 0.5, laplacian="combinatorial").toarray().tolist()
    [[1.5, -1.0, 0.0], [-1.0, 2.5, -1.0], [0.0, -1.0, 1.5]]
    """
    kernel_eps = check_positive(kernel_eps, "kernel_eps")
    if laplacian not in _LAPLACIANS:
        raise ValueError(f"laplacian must be one of {_LAPLACIANS}, got {laplacian!r}")
    L = _graph.normalized_laplacian(S) if laplacian == "normalized" else _graph.laplacian(S)
    return (L + kernel_eps * sp.identity(L.shape[0], format="csr")).tocsr()


# --------------------------------------------------------------------------- the objective in t
class _Objective:
    """phi(t) = min_{q in C} J(t, q), its gradient and Hessian–vector products."""

    def __init__(self, Kinv, labelled, y_labelled, n_classes, sigma2, bounds, matmul=None):
        self.Kinv = Kinv
        self.matmul = matmul  # None: the sparse product Kinv @ V
        self.n = Kinv.shape[0]
        self.K = n_classes
        self.L = labelled
        mask = np.ones(self.n, dtype=bool)
        mask[labelled] = False
        self.U = np.flatnonzero(mask)
        self.yL = y_labelled
        self.inv_s2 = 1.0 / sigma2
        self.bounds = bounds  # None: no balance (q = softmax(t) on U)
        self.diagK = Kinv.diagonal()

    def evaluate(self, t, gamma0=None):
        P, lse = _softmax(t)
        Kt = self._prod(t)
        L, U = self.L, self.U
        tKt = t * Kt
        value = 0.5 * self.inv_s2 * np.sum(tKt)
        value += np.sum(lse[L] - t[L, self.yL])
        # sum of the magnitudes of the summands: the value's rounding error is a few eps times this
        scale = (
            0.5 * self.inv_s2 * np.sum(np.abs(tKt)) + np.sum(np.abs(lse[L])) + np.sum(np.abs(t[L, self.yL]))
        )
        grad = self.inv_s2 * Kt
        grad[L] += P[L]
        grad[L, self.yL] -= 1.0
        st = {"P": P, "gamma": None, "Q": None}
        if self.bounds is not None and U.size:
            Q, gamma = solve_balanced_q(t[U], *self.bounds, gamma0=gamma0)
            lse_shift = _lse_rows(t[U] - gamma)
            Qg = Q @ gamma
            value += np.sum(lse[U] - lse_shift - Qg)  # sum_U KL(q_i || pi_i)
            scale += np.sum(np.abs(lse[U])) + np.sum(np.abs(lse_shift)) + np.sum(np.abs(Qg))
            grad[U] += P[U] - Q
            s = Q.sum(axis=0)
            active = np.abs(gamma) > 1e-12
            st.update(Q=Q, gamma=gamma, active=active, M=np.diag(s) - Q.T @ Q)
        st["value"], st["scale"] = float(value), float(scale)
        st["grad"] = grad
        return st

    def _prod(self, V):
        return self.Kinv @ V if self.matmul is None else self.matmul(V)

    @staticmethod
    def _block(P, V):
        """Row-wise ``(diag p_i - p_i p_i^T) v_i``."""
        PV = P * V
        return PV - P * PV.sum(axis=1, keepdims=True)

    def hessp(self, st, V):
        out = self.inv_s2 * self._prod(V)
        L, U = self.L, self.U
        out[L] += self._block(st["P"][L], V[L])
        if st["Q"] is not None and np.any(st["gamma"] != 0):  # gamma = 0: q = softmax(t), terms cancel
            Q, VU = st["Q"], V[U]
            out[U] += self._block(st["P"][U], VU)
            dgamma = np.zeros(self.K)
            A = np.flatnonzero(st["active"])
            if A.size:
                b = self._block(Q, VU).sum(axis=0)
                dgamma[A] = np.linalg.lstsq(st["M"][np.ix_(A, A)], b[A], rcond=1e-13)[0]
            out[U] -= self._block(Q, VU - dgamma)
        return out

    def precond(self, st):
        d = self.inv_s2 * self.diagK
        d = np.repeat(d[:, None], self.K, axis=1)
        PL = st["P"][self.L]
        d[self.L] += PL * (1 - PL)
        return d


@renamed_parameter("labeled", "labelled")
def gp_objective(
    Kinv: Adjacency,
    y: ArrayLike,
    labelled: ArrayLike,
    t: ArrayLike,
    *,
    sigma2: float = 1.0,
    balance: tuple[ArrayLike, ArrayLike] | None = None,
    n_classes: int | None = None,
) -> tuple[float, np.ndarray, np.ndarray | None]:
    """Value and gradient of ``phi(t) = min_{q in C} J(t, q)`` (gaertner2005 Eq. 7, 12–14).

    Parameters
    ----------
    Kinv : array-like or sparse matrix of shape (n, n)
        The inverse kernel.
    y, labelled
        As in :func:`transductive_gp`.
    t : array-like of shape (n, K)
        Latent scores.
    sigma2 : float, default 1.0
        Prior variance.
    balance : (r_minus, r_plus) or None
        Class-fraction bounds on the unlabelled nodes; ``None`` = no constraint.
    n_classes : int, optional
        ``K``; default ``max(y) + 1``.

    Returns
    -------
    value : float
    grad : ndarray of shape (n, K)
    q : ndarray of shape (u, K) or None
        The closed-form balanced ``q`` at ``t`` (``None`` without balance).

    Raises
    ------
    ValueError
        Bad ``Kinv``, ``y`` or ``labelled`` (as in :func:`transductive_gp`), non-positive ``sigma2``,
        malformed or infeasible bounds.

    Examples
    --------
    At ``t = 0`` the value is ``2 log 2`` (two labelled nodes at probability 1/2) and only the labelled rows
    have a gradient, ``pi - y``:

    >>> S = np.diag([1.0, 1.0, 1.0], 1); Kinv = gp_kernel_inverse(S + S.T, 0.5)
    >>> value, grad, q = gp_objective(Kinv, [0, -1, -1, 1], [0, 3], np.zeros((4, 2)))
    >>> round(value, 4), grad.tolist(), q is None
    (1.3863, [[-0.5, 0.5], [0.0, 0.0], [0.0, 0.0], [0.5, -0.5]], True)
    """
    Kinv = as_real_matrix(Kinv, "Kinv", sparse=True, square=True)
    idx, y_l, K = check_targets(y, labelled, Kinv.shape[0], n_classes=n_classes)
    bounds = None if balance is None else _check_bounds(*balance, K)
    obj = _Objective(Kinv, idx, y_l, K, check_positive(sigma2, "sigma2"), bounds)
    st = obj.evaluate(np.asarray(t, dtype=np.float64))
    return st["value"], st["grad"], st["Q"]


# --------------------------------------------------------------------------- public API
def _detect_kind(A):
    diag = A.diagonal()
    if np.all(diag == 0):
        return "adjacency"
    off = A - sp.diags(diag)
    if np.all(diag > 0) and (off.nnz == 0 or off.data.max() <= 0):
        return "kinv"
    return "adjacency"


@dataclass(frozen=True)
class GPFit:
    """What :func:`transductive_gp_fit` found: the scores and the Newton search's report (gaertner2005).

    Parameters
    ----------
    scores : ndarray of shape (n_nodes, K)
        What :func:`transductive_gp` returns (``output`` selects ``q``, ``pi`` or ``t``).
    iterations, cg_iterations : int
        Newton steps, and CG iterations over all of them.
    objective, grad_norm : ndarray of shape (iterations + 1,)
        ``phi`` and ``max |grad phi|`` at every iterate.
    converged : bool
        ``max |grad phi| <= tol`` at the last iterate.
    gamma : ndarray of shape (K,)
        The dual variables of the balance constraint (zeros without it);
        :attr:`lambda_plus` and :attr:`lambda_minus` are its two sides.
    r_minus, r_plus : ndarray of shape (K,) or None
        The balance bounds on the predicted class fractions (None without them).
    eps : float or None
        The half-width of the balance interval, when it was set by ``eps``/``delta``.
    t : ndarray of shape (n_nodes, K)
        The latent scores at the last iterate.
    q : ndarray of shape (u, K)
        The distribution on the unlabelled nodes, rows in the order of ``unlabelled``.
    unlabelled : ndarray of int of shape (u,)
    elapsed : float
        Seconds of the solve.

    Examples
    --------
    >>> import numpy as np
    >>> S = np.diag([1.0, 1.0, 1.0], 1); S = S + S.T
    >>> fit = transductive_gp_fit(S, [0, -1, -1, 1], [0, 3], balance=False, tol=1e-10)
    >>> fit.scores.argmax(1).tolist(), fit.converged, fit.unlabelled.tolist()
    ([0, 0, 1, 1], True, [1, 2])
    """

    scores: np.ndarray
    iterations: int
    cg_iterations: int
    objective: np.ndarray
    grad_norm: np.ndarray
    converged: bool
    gamma: np.ndarray
    r_minus: np.ndarray | None
    r_plus: np.ndarray | None
    eps: float | None
    t: np.ndarray
    q: np.ndarray
    unlabelled: np.ndarray
    elapsed: float

    @property
    def lambda_plus(self) -> np.ndarray:
        """``max(gamma, 0)``: the multipliers of the upper balance bounds."""
        return np.maximum(self.gamma, 0.0)

    @property
    def lambda_minus(self) -> np.ndarray:
        """``max(-gamma, 0)``: the multipliers of the lower balance bounds."""
        return np.maximum(-self.gamma, 0.0)


@renamed_parameter("labeled", "labelled")
def transductive_gp(
    S_or_Kinv: Adjacency,
    y: ArrayLike,
    labelled: ArrayLike,
    *,
    return_info: bool = False,
    **options: Any,
) -> np.ndarray | tuple[np.ndarray, dict[str, Any]]:
    """Multiclass GP transduction with balancing constraints (gaertner2005): the scores of :func:`transductive_gp_fit`.

    Parameters
    ----------
    S_or_Kinv, y, labelled, **options
        As in :func:`transductive_gp_fit` (``eps``, ``balance``, ``delta``, ``sigma2``,
        ``kernel_eps``, ``laplacian``, ``kind``, ``n_classes``, ``output``, ``max_newton``,
        ``cg_iter``, ``tol``, ``kinv_matmul``).
    return_info : bool, default False
        Deprecated: also return the search's report as a dict. Call :func:`transductive_gp_fit`,
        whose :class:`GPFit` holds the scores and the report.

    Returns
    -------
    F : ndarray of shape (n_nodes, K)
        Scores; the prediction is ``F.argmax(axis=1)``.

    Examples
    --------
    A path of 4 nodes, the ends labelled 0 and 1; no balance constraint:

    >>> import numpy as np
    >>> S = np.diag([1.0, 1.0, 1.0], 1); S = S + S.T
    >>> F = transductive_gp(S, [0, -1, -1, 1], [0, 3], balance=False, tol=1e-10)
    >>> F.argmax(1).tolist(), bool(np.allclose(F.sum(1), 1))
    ([0, 0, 1, 1], True)
    """
    fit = transductive_gp_fit(S_or_Kinv, y, labelled, **options)
    return scores_or_deprecated_pair(fit.scores, partial(_info_dict, fit), return_info, "transductive_gp")


def _info_dict(fit: GPFit) -> dict[str, Any]:
    """The dict ``return_info=True`` gave before :class:`GPFit` (with the old key ``unlabeled``, for one release)."""
    info = {f.name: getattr(fit, f.name) for f in fields(fit) if f.name != "scores"}
    info.update(lambda_plus=fit.lambda_plus, lambda_minus=fit.lambda_minus)
    return RenamedKeys("transductive_gp(return_info=True)", {"unlabeled": "unlabelled"}, info)


@renamed_parameter("labeled", "labelled")
def transductive_gp_fit(
    S_or_Kinv: Adjacency,
    y: ArrayLike,
    labelled: ArrayLike,
    *,
    eps: float | None = None,
    balance: bool | tuple[ArrayLike, ArrayLike] = True,
    delta: float = 0.05,
    sigma2: float = 100.0,
    kernel_eps: float = 0.01,
    laplacian: str = "normalized",
    kind: str = "auto",
    n_classes: int | None = None,
    output: str = "q",
    max_newton: int = 200,
    cg_iter: int = 50,
    tol: float = 1e-6,
    kinv_matmul: Callable[[np.ndarray], np.ndarray] | None = None,
) -> GPFit:
    r"""Multiclass GP transduction with balancing constraints (gaertner2005), with the search's report.

    Minimises ``phi(t) = min_{q in C} J(t, q)`` (module docstring: paper Eq.
    6/12/13 with the balance set (14)) by Newton steps whose systems are solved
    by at most ``cg_iter`` CG iterations using sparse products with ``K^-1``
    only; ``q`` is updated in closed form from ``K`` dual variables (Eq. 18).

    Parameters
    ----------
    S_or_Kinv : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Either a weight matrix ``S`` (symmetric, non-negative; then
        ``K^-1 = L~ + kernel_eps I``, :func:`gp_kernel_inverse`) or an inverse
        kernel ``K^-1`` (symmetric positive definite, sparse for speed).
    y : array-like of int of shape (n_nodes,)
        Labels ``0..K-1``; only ``y[labelled]`` is used.
    labelled : array-like of int of shape (l,) or of bool of shape (n_nodes,)
        Labelled nodes (distinct indices or a boolean mask).
    eps : float, optional
        Half-width of the balance interval ``r-/+ = p_emp -/+ eps`` (fractions of
        the unlabelled nodes). Default: the tail bound
        :func:`balance_epsilon` at confidence ``delta``. Only with ``balance=True``.
    balance : bool or (r_minus, r_plus), default True
        ``True``: bounds from the labelled class frequencies and ``eps``;
        ``False``: no constraint (inductive GP on the labelled nodes with the
        graph kernel); a pair of arrays of shape (K,): explicit bounds on the
        class fractions among the unlabelled nodes (``r_minus == r_plus`` is
        the exact matching constraint).
    delta : float, default 0.05
        Confidence of the tail bound (not given in the paper).
    sigma2 : float, default 100.0
        Prior variance ``sigma^2`` of Eq. 2 (not given in the paper).
    kernel_eps : float, default 0.01
        Ridge of the regularised Laplacian (adjacency input only).
    laplacian : {"normalized", "combinatorial"}, default "normalized"
        Laplacian in ``K^-1`` (adjacency input only).
    kind : {"auto", "adjacency", "kinv"}, default "auto"
        What ``S_or_Kinv`` is. ``"auto"``: ``K^-1`` if its diagonal is positive
        and no off-diagonal entry is positive (a regularised Laplacian),
        otherwise an adjacency matrix. Pass ``"kinv"`` for other inverse kernels.
    n_classes : int, optional
        ``K``; default ``max(y) + 1``. A class may have no labelled node.
    output : {"q", "pi", "t"}, default "q"
        Returned scores: ``"q"`` — ``q`` on unlabelled rows (the balanced
        transductive posterior) and ``softmax(t)`` on labelled rows;
        ``"pi"`` — ``softmax(t)`` on every row; ``"t"`` — latent scores ``t``.
    max_newton : int, default 200
        Newton iteration cap.
    cg_iter : int, default 50
        CG iterations per Newton step (cap; also stops when the quadratic model's
        decrease stalls at the forcing ``min(0.5, sqrt(||g||))``, Nash & Sofer 1990,
        or at negative curvature; ``_truncated_cg.steihaug_cg``).
    tol : float, default 1e-6
        Stop when ``max |grad phi| <= tol``.
    kinv_matmul : callable, optional
        ``V -> K^-1 V`` for every product of the solver, in place of the sparse product of the validated
        ``K^-1`` (CSR), which it must equal: e.g. :func:`dense_kinv_matmul` of a dense ``K^-1``, the same
        sums in the same order, faster. Default: the sparse product.

    Returns
    -------
    GPFit
        ``scores`` (the prediction is ``scores.argmax(axis=1)``), the Newton search's traces, the
        balance's bounds and dual variables, ``t`` and ``q``.

    Raises
    ------
    ValueError
        Invalid matrix (non-square, non-symmetric, non-finite, negative weights
        for an adjacency, non-positive diagonal for ``K^-1``), isolated node with
        the normalised Laplacian, bad ``y``/``labelled`` (wrong length, out of
        range, repeated, empty), no unlabelled node, non-positive ``sigma2``,
        ``kernel_eps``, ``tol``, infeasible or malformed bounds, ``eps`` given
        without ``balance=True``, unknown ``laplacian``/``kind``/``output``.
    TypeError
        Non-numeric matrix, non-integer ``labelled``, non-integer iteration caps.

    Warns
    -----
    ConvergenceWarning
        If ``max_newton`` steps end with ``max |grad| > tol``.
    DataWarning
        If a class ``0..K-1`` has no labelled node (with one labelled class the
        GP predicts it everywhere).

    References
    ----------
    Gärtner, Le, Burton, Smola, Vishwanathan. Large-Scale Multiclass
    Transduction. NIPS 2005, Eq. 6–8, 12–18.

    Examples
    --------
    A path of 6 nodes, the ends labelled 0 and 1; the four unlabelled nodes must give class 1 a share of
    at least 0.6, and the bound binds (a non-zero dual variable):

    >>> import numpy as np
    >>> S = np.diag(np.ones(5), 1); S = S + S.T
    >>> fit = transductive_gp_fit(S, [0, -1, -1, -1, -1, 1], [0, 5], balance=([0.0, 0.6], [0.4, 1.0]))
    >>> fit.converged, fit.q.mean(0).round(3).tolist(), bool(fit.gamma[1] < 0)
    (True, [0.4, 0.6], True)
    """
    t0 = time.perf_counter()
    if kind not in _KINDS:
        raise ValueError(f"kind must be one of {_KINDS}, got {kind!r}")
    if output not in _OUTPUTS:
        raise ValueError(f"output must be one of {_OUTPUTS}, got {output!r}")
    sigma2 = check_positive(sigma2, "sigma2")
    tol = check_positive(tol, "tol")
    max_newton = check_integer(max_newton, "max_newton", minimum=1)
    cg_iter = check_integer(cg_iter, "cg_iter", minimum=1)

    A = as_symmetric_matrix(S_or_Kinv, "S_or_Kinv")
    if kind == "auto":
        kind = _detect_kind(A)
    if kind == "adjacency":
        Kinv = gp_kernel_inverse(A, kernel_eps, laplacian=laplacian)
    else:
        if np.any(A.diagonal() <= 0):
            raise ValueError("K^-1 must have a positive diagonal (it must be positive definite)")
        Kinv = A
    n = Kinv.shape[0]
    idx, y_l, K = check_targets(y, labelled, n, n_classes=n_classes)
    u = n - idx.size
    if u == 0:
        raise ValueError("every node is labelled: there is nothing to transduce")
    warn_unlabelled_classes(
        y_l, K, "transductive_gp", "the prior and the balance constraint alone decide whether they are ever "
        "predicted (with one labelled class, every node goes to it); label a node of every class", stacklevel=2,
    )  # fmt: skip

    if isinstance(balance, (bool, np.bool_)):
        if balance:
            if eps is None:
                eps = balance_epsilon(idx.size, u, K, delta)
            bounds = _check_bounds(*balance_bounds(y_l, K, eps), K)
        else:
            if eps is not None:
                raise ValueError(
                    "eps is the half-width of the balance interval: pass it only with balance=True"
                )
            bounds = None
    else:
        if eps is not None:
            raise ValueError(
                "pass either eps (with balance=True) or explicit bounds balance=(r_minus, r_plus)"
            )
        try:
            r_minus, r_plus = balance
        except (TypeError, ValueError) as exc:
            raise TypeError("balance must be True, False or a pair (r_minus, r_plus)") from exc
        bounds = _check_bounds(r_minus, r_plus, K)

    obj = _Objective(Kinv, idx, y_l, K, sigma2, bounds, kinv_matmul)
    t = np.zeros((n, K))
    st = obj.evaluate(t)
    trace, gtrace = [st["value"]], [float(np.max(np.abs(st["grad"])))]
    total_cg, converged, it = 0, gtrace[0] <= tol, 0
    while not converged and it < max_newton:
        it += 1
        g = st["grad"]
        gn = np.sqrt(np.sum(g * g))
        d, ncg, _neg = _steihaug_cg(
            partial(obj.hessp, st), g, obj.precond(st), cg_iter, min(0.5, np.sqrt(gn))
        )
        total_cg += ncg
        slope = np.sum(g * d)
        if not slope < 0:
            d = -g / obj.precond(st)
            slope = np.sum(g * d)
        # the rounding floor of the objective (64 eps times the magnitudes summed into it): a change below it
        # is not measured
        floor = 64 * np.finfo(float).eps * max(st["scale"], 1.0)
        alpha, accepted = 1.0, False
        while alpha >= 1e-10:
            new = obj.evaluate(t + alpha * d, gamma0=st["gamma"])
            change = new["value"] - st["value"]
            # Armijo with a margin: the decrease must clear the floor, so no acceptance rests on rounding
            if change <= 1e-4 * alpha * slope - floor:
                accepted = True
                break
            # a change within the floor is not measured; accept the step if it halves max|grad|
            # (a ratio within DECISION_BAND of 1/2 does not count as halving)
            if change <= floor and np.max(np.abs(new["grad"])) <= 0.5 * (1.0 - DECISION_BAND) * gtrace[-1]:
                accepted = True
                break
            alpha *= 0.5
        if not accepted:
            break  # no descent at this precision: the objective is at its floating-point floor
        t, st = t + alpha * d, new
        trace.append(st["value"])
        gtrace.append(float(np.max(np.abs(st["grad"]))))
        converged = gtrace[-1] <= tol
    if not converged:
        warnings.warn(
            f"transductive_gp stopped after {it} Newton steps with max|grad| = {gtrace[-1]:.2e} > tol={tol:g}; "
            "raise max_newton or cg_iter",
            ConvergenceWarning,
            stacklevel=2,
        )

    P = st["P"]
    Q = st["Q"] if st["Q"] is not None else P[obj.U]
    if output == "t":
        F = t.copy()
    elif output == "pi":
        F = P.copy()
    else:
        F = P.copy()
        F[obj.U] = Q
    gamma = st["gamma"] if st["gamma"] is not None else np.zeros(K)
    return GPFit(
        scores=F,
        iterations=it,
        cg_iterations=total_cg,
        objective=np.array(trace),
        grad_norm=np.array(gtrace),
        converged=bool(converged),
        gamma=gamma.copy(),
        r_minus=None if bounds is None else bounds[0],
        r_plus=None if bounds is None else bounds[1],
        eps=None
        if bounds is None or eps is None or not isinstance(balance, (bool, np.bool_))
        else float(eps),
        t=t,
        q=Q.copy(),
        unlabelled=obj.U,
        elapsed=time.perf_counter() - t0,
    )


def match_class_proportions(P: ArrayLike, proportions: ArrayLike) -> np.ndarray:
    """The paper's WebKB prediction rule (gaertner2005 Sec. 6, "inverse" CV).

    "For each class the instances that are most likely to be in this class are
    picked (if they haven't been picked for a class with lower index) such that
    the fraction of instances assigned to this class is the same on the
    training and test set." Counts are ``proportions * m`` rounded by largest
    remainders so that they sum to ``m``; ties are broken by the smaller row
    index (stable sort). Scores are compared at 1e-9 of the largest one: nodes
    the graph cannot tell apart have equal scores in exact arithmetic, but in
    floating point they differ in the last bits, which depend on the BLAS
    thread count, and their order would too.

    Parameters
    ----------
    P : ndarray of shape (m, K)
        Class scores of the ``m`` test nodes (e.g. ``F[unlabelled]``).
    proportions : array-like of shape (K,)
        Target class fractions (e.g. those of the labelled nodes); normalised.

    Returns
    -------
    labels : ndarray of int of shape (m,)

    Raises
    ------
    ValueError
        ``P`` not a real matrix, or ``proportions`` not ``K`` non-negative finite numbers with a positive sum.

    Examples
    --------
    One node of class 0 and two of class 1; the node most likely in class 0 is picked first:

    >>> match_class_proportions(np.array([[0.9, 0.1], [0.8, 0.2], [0.7, 0.3]]), [1/3, 2/3]).tolist()
    [0, 1, 1]
    """
    scores = as_real_matrix(P, "P (the (m, K) score matrix)", sparse=False, finite=False, copy=False)
    m, K = scores.shape
    p = np.asarray(proportions, dtype=np.float64)
    if p.shape != (K,) or not np.all(np.isfinite(p)) or np.any(p < 0) or p.sum() <= 0:
        raise ValueError(f"proportions must be {K} non-negative finite numbers with a positive sum")
    target = p / p.sum() * m
    counts = np.floor(target).astype(np.int64)
    rest = m - counts.sum()
    counts[np.argsort(-(target - counts), kind="stable")[:rest]] += 1
    scale = float(np.abs(scores).max()) if scores.size else 1.0
    key = np.round(scores / (scale or 1.0), 9)
    labels = np.full(m, -1, dtype=np.int64)
    for j in range(K):
        free = np.flatnonzero(labels < 0)
        order = free[np.argsort(-key[free, j], kind="stable")]
        labels[order[: counts[j]]] = j
    return labels


# --------------------------------------------------------------------------- the pieces chapter 12 derives
@renamed_parameter("labeled", "labelled")
def gp_hessp(
    Kinv: Adjacency,
    y: ArrayLike,
    labelled: ArrayLike,
    t: ArrayLike,
    V: ArrayLike,
    *,
    sigma2: float = 1.0,
    balance: tuple[ArrayLike, ArrayLike] | None = None,
    n_classes: int | None = None,
) -> np.ndarray:
    """The Hessian–vector product of ``phi`` at ``t`` along ``V`` that Newton–CG uses (gaertner2005 Eq. 8b).

    ``sigma2^-1 K^-1 V`` plus, on the labelled rows, ``pi_i * v_i - pi_i (pi_i . v_i)``
    (Eq. 8b); with a binding balance constraint the unlabelled rows add the
    same block at ``pi`` minus the response of the balanced ``q*`` (through
    ``dgamma`` on the active classes; module docstring).

    Parameters
    ----------
    Kinv, y, labelled, t, sigma2, balance, n_classes
        As in :func:`gp_objective`.
    V : array-like of shape (n, K)
        The direction.

    Returns
    -------
    ndarray of shape (n, K)
        ``H(t) V``.

    Raises
    ------
    ValueError
        As :func:`gp_objective`.

    Examples
    --------
    A shift of every row by one constant leaves the softmax unchanged, so only the prior's term remains:

    >>> S = np.diag([1.0, 1.0, 1.0], 1); Kinv = gp_kernel_inverse(S + S.T, 0.5)
    >>> HV = gp_hessp(Kinv, [0, -1, -1, 1], [0, 3], np.zeros((4, 2)), np.ones((4, 2)), sigma2=2.0)
    >>> bool(np.allclose(HV, Kinv @ np.ones((4, 2)) / 2))
    True
    """
    Kinv = as_real_matrix(Kinv, "Kinv", sparse=True, square=True)
    idx, y_l, K = check_targets(y, labelled, Kinv.shape[0], n_classes=n_classes)
    bounds = None if balance is None else _check_bounds(*balance, K)
    obj = _Objective(Kinv, idx, y_l, K, check_positive(sigma2, "sigma2"), bounds)
    return obj.hessp(obj.evaluate(np.asarray(t, dtype=np.float64)), np.asarray(V, dtype=np.float64))
