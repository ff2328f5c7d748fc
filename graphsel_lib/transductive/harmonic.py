"""Harmonic energy minimisation (HEM) and class mass normalisation (CMN).

Zhu, Ghahramani and Lafferty (ICML 2003) minimise the energy
``E(f) = 1/2 sum_ij w_ij (f_i - f_j)^2 = f^T L f`` with ``f`` clamped to the
labels on the labelled nodes ``L``. The minimiser is harmonic on the unlabelled
nodes ``U`` (``(L f)_U = 0``), i.e. zhang2006 Eq. 2:

    f_U = (D_UU - W_UU)^-1 W_UL f_L = (I - P_UU)^-1 P_UL f_L,   P = D^-1 W.

With ``K`` classes, ``f_L`` is the one-hot matrix ``Y_L`` and the ``K`` columns
share the matrix ``L_UU = D_UU - W_UU``. ``L_UU`` is symmetric positive definite
exactly when every connected component of the graph holds a labelled node.
Each row of ``F_U`` is then a probability vector: ``F_U[i, k]`` is the
probability that a random walk from ``i`` first hits a labelled node of class k.

CMN (Zhu et al. 2003, Sec. 2; zhang2006 Sec. 2.1) corrects the harmonic
function's bias towards the classes whose labelled nodes sit in the "large"
parts of the graph: it rescales column ``k`` so that its mass over ``U``
equals a class prior ``q_k``,

    F_U[:, k] <- q_k * F_U[:, k] / sum_{i in U} F_U[i, k],

by default with ``q_k`` the class proportions among the labelled nodes.

Which prior ``q`` CMN uses is a choice (:func:`cmn_prior`, the one function
that notebook 50, :mod:`graphsel_lib.partial_labels` and
:func:`graphsel_lib.active.run_pool` resolve it with): the labelled shares,
uniform shares, shares given by the user, or no CMN at all. With a single
unlabelled node CMN cannot follow the edges (its row becomes ``q``, see
:func:`cmn_prior`), so :func:`cmn_prior` turns CMN off there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .. import graph as _graph
from .._validation import renamed_parameter
from ._common import (
    _check_solver,
    check_components_labelled,
    check_problem,
    solve_spd,
    warn_unreached,
)

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from numpy.typing import ArrayLike

    from ._common import Adjacency

__all__ = [
    "CMN_PRIORS",
    "MIN_UNLABELLED_FOR_CMN",
    "harmonic",
    "class_mass_normalization",
    "cmn_prior",
]

CMN_PRIORS = ("labelled", "uniform", "none")
"""The named class priors of CMN (:func:`cmn_prior`); an array or a dict of class shares is the fourth choice."""

MIN_UNLABELLED_FOR_CMN = 2
"""Fewest unlabelled nodes CMN is applied to: with one, its row is the prior whatever the edges say."""


def _check_prior(class_prior, n_classes):
    q = np.asarray(class_prior, dtype=np.float64)
    if q.shape != (n_classes,):
        raise ValueError(f"class_prior must have shape ({n_classes},) (one entry per class), got {q.shape}")
    if not np.all(np.isfinite(q)) or np.any(q < 0):
        raise ValueError("class_prior must be finite and non-negative")
    if q.sum() <= 0:
        raise ValueError("class_prior must have a positive sum")
    return q / q.sum()


def _prior_from_mapping(prior, n_classes, class_names):
    if not prior:
        raise ValueError("prior is an empty dict: give every class a share, e.g. {class name: share, ...}")
    names = [str(c) for c in class_names] if class_names is not None else None
    q = np.full(n_classes, np.nan)
    for key, value in prior.items():
        if isinstance(key, (int, np.integer)) and not isinstance(key, bool) and 0 <= key < n_classes:
            k = int(key)
        elif names is not None and str(key) in names:
            k = names.index(str(key))
        else:
            known = ", ".join(repr(c) for c in names) if names is not None else f"codes 0..{n_classes - 1}"
            raise ValueError(f"prior names the class {key!r}, which is not a class; the classes are {known}")
        try:
            q[k] = float(value)
        except (TypeError, ValueError):
            raise ValueError(f"prior[{key!r}] must be a number (a class share), got {value!r}") from None
    missing = np.flatnonzero(np.isnan(q))
    if missing.size:
        which = [names[k] if names is not None else k for k in missing]
        raise ValueError(
            f"prior gives no share for the class(es) {which}: give every class a share (0 to never predict it)"
        )
    return q


def cmn_prior(
    prior: str | Mapping[Any, float] | ArrayLike,
    labelled_counts: ArrayLike,
    *,
    n_unlabelled: int | None = None,
    class_names: Sequence[str] | None = None,
) -> np.ndarray | None:
    """CMN's class masses ``q`` for a choice of prior, or None: no CMN (the harmonic function as it is).

    The one place where a class prior is resolved: :mod:`graphsel_lib.partial_labels`
    (and notebook 50) and :func:`graphsel_lib.active.run_pool` call it.

    Parameters
    ----------
    prior : {"labelled", "uniform", "none"}, array-like of shape (K,) or dict
        ``"labelled"``: ``q_k = l_k / l``, the class shares among the labelled
        nodes (Zhu et al. 2003's suggestion; biased when the labels were not
        drawn at random, e.g. mostly from one class). ``"uniform"``: ``q_k = 1/K``.
        ``"none"``: no CMN. An array (one share per class) or a dict
        ``{class name or code: share}`` naming every class: the user's shares
        (normalised to sum to one). ``"auto"`` is not resolved here: it means
        "chosen by cross-validation" (:func:`graphsel_lib.partial_labels.cross_validate`).
    labelled_counts : array-like of int of shape (K,)
        ``l_k``, the labelled nodes of each class.
    n_unlabelled : int, optional
        ``u``, the unlabelled nodes CMN would rescale. Below
        :data:`MIN_UNLABELLED_FOR_CMN` (2) the answer is None.
    class_names : sequence of str, optional
        Names a dict ``prior`` may use as keys.

    Returns
    -------
    ndarray of shape (K,) summing to one, or None
        None for ``"none"`` and when ``u < 2``.

    Notes
    -----
    Why no CMN on a single unlabelled node (Zhu, Ghahramani & Lafferty 2003;
    zhang2006 Sec. 2.1): CMN rescales column ``k`` of ``F_U`` to the mass
    ``q_k``, ``F_U[i, k] <- q_k F_U[i, k] / sum_{j in U} F_U[j, k]``. With
    ``U = {i}`` the sum is ``F_U[i, k]`` itself, so every reached class gets
    ``q_k F_U[i, k] / F_U[i, k] = q_k``: the row *is* the prior and the
    prediction ``argmax_k q_k`` is the same whatever the node's edges say (on
    karate with every label but node 33's, Mr. Hi, against the Officer's 0.83
    of the harmonic function). There is no mass to balance over one node, so
    the harmonic function is returned as it is. From two unlabelled nodes on,
    the rows differ through their edges; that CMN can still hurt on a handful
    of nodes (it imposes the prior's shares on them) is for cross-validation
    to see, in folds with as few unlabelled nodes as the real problem.

    Raises
    ------
    ValueError
        An unknown name (``"auto"`` included), a wrong shape, a negative or
        non-finite share, shares summing to zero, a dict naming an unknown
        class or leaving one out.

    Examples
    --------
    >>> cmn_prior("labelled", [3, 1]), cmn_prior("uniform", [3, 1])
    (array([0.75, 0.25]), array([0.5, 0.5]))
    >>> cmn_prior({"b": 1, "a": 3}, [3, 1], class_names=["a", "b"])
    array([0.75, 0.25])
    >>> cmn_prior("labelled", [3, 1], n_unlabelled=1) is None
    True
    """
    counts = np.asarray(labelled_counts, dtype=np.float64)
    if counts.ndim != 1 or counts.size < 1 or not np.all(np.isfinite(counts)) or np.any(counts < 0):
        raise ValueError(f"labelled_counts must be K >= 1 non-negative counts, got {labelled_counts!r}")
    K = counts.size
    if isinstance(prior, str):
        if prior not in CMN_PRIORS:
            hint = (
                ": 'auto' means chosen by cross-validation (graphsel_lib.partial_labels.choose_prior); "
                "resolve it there, or give active.run_pool the rule class_prior=partial_labels.auto_prior"
                if prior == "auto"
                else ""
            )
            raise ValueError(
                f"prior must be one of {', '.join(map(repr, CMN_PRIORS))}, an array of one share per class or a "
                f"dict {{class: share}}, got {prior!r}{hint}"
            )
        if prior == "none":
            return None
        if prior == "labelled":
            if counts.sum() <= 0:
                raise ValueError(
                    "prior='labelled' needs a labelled node (the shares of no label are undefined)"
                )
            q = counts
        else:
            q = np.ones(K)
    elif isinstance(prior, dict):
        q = _prior_from_mapping(prior, K, class_names)
    elif prior is None or isinstance(prior, (bool, np.bool_)):
        raise ValueError(
            f"prior must be one of {', '.join(map(repr, CMN_PRIORS))}, an array or a dict, got {prior!r}"
        )
    else:
        try:
            q = np.asarray(prior, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(
                f"prior must be a name, an array of one share per class or a dict, got {prior!r}"
            ) from None
    if q.shape != (K,):
        raise ValueError(f"prior must give one share per class ({K}), got shape {q.shape}")
    if not np.all(np.isfinite(q)) or np.any(q < 0) or q.sum() <= 0:
        raise ValueError(f"prior shares must be finite, non-negative and not all zero, got {q.tolist()}")
    q = q / q.sum()
    if n_unlabelled is not None and int(n_unlabelled) < MIN_UNLABELLED_FOR_CMN:
        return None
    return q


def class_mass_normalization(F_U: ArrayLike, class_prior: ArrayLike) -> np.ndarray:
    """Rescale each column of ``F_U`` to the mass ``class_prior[k]`` (CMN, Zhu et al. 2003 Sec. 2).

    Parameters
    ----------
    F_U : ndarray of shape (u, K)
        Non-negative scores of the unlabelled nodes (not modified).
    class_prior : array-like of shape (K,)
        Target masses ``q_k >= 0``; normalised to sum to one.

    Returns
    -------
    ndarray of shape (u, K)
        ``q_k * F_U[:, k] / sum_i F_U[i, k]``; a column of zero mass stays zero.

    Raises
    ------
    ValueError
        ``F_U`` is not a matrix; ``class_prior`` has not ``K`` entries, or is negative, non-finite or sums to zero.

    Examples
    --------
    >>> class_mass_normalization([[0.5, 0.5], [0.5, 0.0]], [0.5, 0.5]).tolist()
    [[0.25, 0.5], [0.25, 0.0]]
    """
    F_U = np.asarray(F_U, dtype=np.float64)
    if F_U.ndim != 2:
        raise ValueError(
            f"F_U must be a (u, K) matrix of class scores, got shape {F_U.shape}; "
            "for one class column write F_U[:, None]"
        )
    q = _check_prior(class_prior, F_U.shape[1])
    mass = F_U.sum(axis=0)
    scale = np.divide(q, mass, out=np.zeros_like(q), where=mass > 0)
    return F_U * scale


@renamed_parameter("labeled", "labelled")
def harmonic(
    S: Adjacency,
    y: ArrayLike,
    labelled: ArrayLike,
    *,
    cmn: bool = False,
    class_prior: ArrayLike | None = None,
    n_classes: int | None = None,
    solver: str = "auto",
    tol: float = 1e-10,
    maxiter: int | None = None,
) -> np.ndarray:
    """Harmonic function scores ``F`` (Zhu et al. 2003; zhang2006 Eq. 2), optionally with CMN.

    ``F_L = Y_L`` (one-hot) on the labelled nodes and
    ``F_U = L_UU^-1 W_UL Y_L`` on the others, by one sparse solve.

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Symmetric, non-negative, finite edge weights. May be disconnected only
        if every connected component holds a labelled node. Self-loops are
        ignored (zhang2006 fixes ``w_ii = 0``; the energy does not see them).
    y : array-like of shape (n_nodes,)
        Class labels ``0..K-1``; only ``y[labelled]`` is used. Other entries
        may be true labels or unlabelled marks (``-1``, ``NaN``, ``None``).
    labelled : array-like of int of shape (l,) or of bool of shape (n_nodes,)
        The labelled nodes, as distinct indices or a boolean mask.
    cmn : bool, default False
        Apply class mass normalisation to the unlabelled rows: column ``k`` of
        ``F_U`` is rescaled to total mass ``q_k``. ``F_L`` stays ``Y_L``. A
        column of zero harmonic mass (a class without a labelled node, or whose
        labelled nodes touch no unlabelled node) cannot be rescaled and stays zero.
    class_prior : array-like of shape (K,), optional
        The prior ``q`` used by CMN (normalised to sum to one). Default: the
        class proportions among the labelled nodes, ``q_k = l_k / l``, as Zhu
        et al. suggest. Ignored when ``cmn=False``. This is CMN as defined:
        with a single unlabelled node its row is ``q`` whatever the edges say;
        :func:`cmn_prior` resolves a named prior and turns CMN off there.
    n_classes : int, optional
        ``K``; default ``max(y) + 1`` over the whole ``y``. A class without a
        labelled node gets a column of zeros (a random walk never hits it) and
        is never predicted; a :class:`~graphsel_lib._validation.DataWarning` names it.
    solver : {"auto", "direct", "cg", "amg"}, default "auto"
        How ``L_UU X = W_UL Y_L`` is solved: sparse LU (once for the ``K``
        columns), Jacobi- or AMG-preconditioned conjugate gradient. ``"auto"``:
        LU up to 5,000 unlabelled nodes; above, Jacobi-CG, switching to AMG-CG
        if it has not converged in 300 iterations.
    tol, maxiter
        As in :func:`~graphsel_lib.transductive.llgc`.

    Returns
    -------
    F : ndarray of shape (n_nodes, K)
        Scores; the prediction is ``F.argmax(axis=1)``. Without CMN every row
        is a probability vector (non-negative, sums to one).

    Raises
    ------
    ValueError
        If no node is labelled, a connected component has no labelled node
        (``L_UU`` singular), a label
        of a labelled node is outside ``0..K-1``, ``labelled`` has indices out
        of range or repeated, ``y`` or a mask has the wrong length, ``S`` is
        not a valid weight matrix, ``class_prior`` is malformed, or ``solver``
        is unknown.
    TypeError
        As in :func:`~graphsel_lib.transductive.llgc`.

    Warns
    -----
    ConvergenceWarning
        If an iterative solve stops before ``tol``.
    DataWarning
        If a class has no labelled node.

    References
    ----------
    Zhu, Ghahramani, Lafferty. Semi-supervised learning using Gaussian fields
    and harmonic functions. ICML 2003. Zhang, Lee. Hyperparameter learning for
    graph based semi-supervised learning algorithms. NIPS 2006, Eq. 2.

    Examples
    --------
    The path 0 - 1 - 2 - 3 with node 0 in class 0 and node 3 in class 1: the
    harmonic function interpolates linearly.

    >>> import numpy as np
    >>> S = np.array([[0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 0]])
    >>> F = harmonic(S, [0, -1, -1, 1], [0, 3])
    >>> np.round(F * 3, 12)
    array([[3., 0.],
           [2., 1.],
           [1., 2.],
           [0., 3.]])
    """
    _check_solver(solver)
    prob = check_problem(S, y, labelled, n_classes=n_classes)
    check_components_labelled(prob)
    warn_unreached(prob, "harmonic")
    counts = np.bincount(prob.y_labelled, minlength=prob.n_classes)
    q = None
    if cmn:
        q = counts / counts.sum() if class_prior is None else _check_prior(class_prior, prob.n_classes)
    n, K = prob.n_nodes, prob.n_classes
    lab, unl = prob.labelled, prob.unlabelled
    F = np.zeros((n, K))
    F[lab, prob.y_labelled] = 1.0
    if unl.size == 0:
        return F
    L = _graph.laplacian(prob.S)  # D - W with the diagonal of W dropped
    L_UU = L[unl][:, unl]
    W_UL = -L[unl][:, lab]
    F_U = solve_spd(L_UU, W_UL @ prob.Y_labelled, solver=solver, tol=tol, maxiter=maxiter)
    if cmn:
        F_U = class_mass_normalization(F_U, q)  # type: ignore[arg-type]  # cmn set q above
    F[unl] = F_U
    return F
