"""Shared input handling and sparse SPD solvers for the transductive methods.

Every offline method takes the same three inputs:

* ``S`` — a symmetric, non-negative weight matrix (dense or scipy sparse);
* ``y`` — class labels ``0..K-1``, one per node (length ``n``), under the
  library's convention (:mod:`graphsel_lib._validation`): ``-1``, ``NaN`` and
  ``None`` mark an unlabelled node, any other entry must be an integer
  ``>= 0`` (``0.5`` raises). Only the entries at the labelled nodes are used,
  so the others may be unlabelled marks or the true labels;
* ``labelled`` — the labelled nodes, as integer indices or as a boolean mask.

:func:`check_problem` validates them once and returns a :class:`Problem`; the
solvers in :func:`solve_spd` factorise or precondition a sparse symmetric
positive definite matrix once and solve for all ``K`` right-hand sides.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, NamedTuple, TypeAlias

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from scipy.sparse import csgraph

from .._validation import UNLABELLED, DataWarning, check_class_labels, check_integer, check_labelled
from ..graph import check_adjacency

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    #: What the methods take as a graph: a dense or sparse (n, n) weight matrix.
    Adjacency: TypeAlias = ArrayLike | sp.spmatrix | sp.sparray

__all__ = [
    "SOLVERS",
    "DIRECT_MAX_NODES",
    "AUTO_JACOBI_ITERATIONS",
    "DIRECT_MAX_ROW_NNZ",
    "ConvergenceWarning",
    "Problem",
    "check_problem",
    "check_targets",
    "check_every_class_labelled",
    "check_components_labelled",
    "warn_unlabelled_classes",
    "scores_or_deprecated_pair",
    "warn_unreached",
    "one_hot",
    "predict",
    "SCORE_TIE_RTOL",
    "solve_spd",
]

#: Two scores of a node closer than this times the largest |score| of the matrix are a tie (see :func:`predict`).
SCORE_TIE_RTOL = 1e-9


def predict(F: ArrayLike, *, rtol: float = SCORE_TIE_RTOL) -> np.ndarray:
    """The predicted class of every row of a score matrix ``F``: its argmax, a near-tie to the smallest class.

    Scores whose difference is below ``rtol · max|F|`` are equal but for
    rounding (the solver, the thread count and the BLAS kernels decide such a
    difference), so they tie, and a tie goes to the smallest class index, as
    NumPy's ``argmax`` does for exact ties. LLGC with a small ``µ`` leaves many
    such nodes (far from every label the scores differ by ~1e-14), whose plain
    argmax changes from one machine to the next.

    Parameters
    ----------
    F : array-like of shape (n, K)
        Scores, one row per node.
    rtol : float, default ``SCORE_TIE_RTOL`` (1e-9)
        Relative tie tolerance.

    Returns
    -------
    ndarray of int of shape (n,)
        The class of each row, in ``0..K-1``.

    Raises
    ------
    ValueError
        ``F`` is not 2-D with at least one column.

    Examples
    --------
    >>> predict(np.array([[0.2, 0.2 + 1e-15, 0.1], [0.1, 0.3, 0.2]]))
    array([0, 1])
    """
    F = np.asarray(F, dtype=float)
    if F.ndim != 2 or F.shape[1] == 0:
        raise ValueError(f"F must be a score matrix of shape (n, K), got shape {F.shape}")
    tol = rtol * float(np.max(np.abs(F))) if F.size else 0.0
    return np.argmax(F >= F.max(axis=1, keepdims=True) - tol, axis=1)


#: Accepted values of the ``solver`` keyword.
SOLVERS = ("auto", "direct", "cg", "amg")

#: ``solver="auto"`` factorises (sparse LU) up to this many unknowns; above it,
#: it runs Jacobi-preconditioned CG and switches to AMG-preconditioned CG (warm
#: start) on any column that has not converged after
#: :data:`AUTO_JACOBI_ITERATIONS` iterations. Sparse LU fills in around hubs
#: (small-world graphs), where Jacobi-CG converges in a few hundred iterations;
#: on grids and long paths Jacobi-CG needs O(n) iterations and AMG a few dozen
#: (benchmarks/bench_transductive.py times ``auto`` against CG up to Epinions).
DIRECT_MAX_NODES = 5_000
AUTO_JACOBI_ITERATIONS = 300
#: ... and only while the matrix is sparse: at most this many stored entries
#: per row on average (graphs of more than 1,000 nodes). A 5,000-node BFS core of
#: Epinions (hub-rich, 49 entries per row) took 1.05 s by LU and 0.02 s by CG.
DIRECT_MAX_ROW_NNZ = 16


class ConvergenceWarning(UserWarning):
    """An iterative solve stopped before reaching the requested tolerance.

    Examples
    --------
    >>> import warnings
    >>> A = sp.diags([-1.0, 2.01, -1.0], [-1, 0, 1], shape=(20, 20)).tocsr()
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     X = solve_spd(A, np.ones((20, 1)), solver="cg", maxiter=2)
    >>> caught[0].category.__name__
    'ConvergenceWarning'
    """


class Problem(NamedTuple):
    """Validated inputs of a transductive method.

    Attributes
    ----------
    S : scipy.sparse.csr_matrix of shape (n, n)
        Validated float64 copy of the weight matrix.
    labelled : ndarray of int of shape (l,)
        Sorted indices of the labelled nodes.
    y_labelled : ndarray of int of shape (l,)
        Their labels, in ``0..n_classes-1``.
    n_classes : int
        Number of classes ``K`` (columns of the score matrix).
    """

    S: sp.csr_matrix
    labelled: np.ndarray
    y_labelled: np.ndarray
    n_classes: int

    @property
    def n_nodes(self) -> int:
        return self.S.shape[0]

    @property
    def unlabelled(self) -> np.ndarray:
        mask = np.ones(self.n_nodes, dtype=bool)
        mask[self.labelled] = False
        return np.flatnonzero(mask)

    @property
    def Y_labelled(self) -> np.ndarray:
        """One-hot ``(l, K)`` matrix of the labelled nodes."""
        return one_hot(self.y_labelled, self.n_classes)


def one_hot(labels, n_classes):
    """``(len(labels), n_classes)`` float matrix with a 1 at ``[i, labels[i]]``."""
    labels = np.asarray(labels, dtype=np.int64)
    Y = np.zeros((labels.size, n_classes))
    Y[np.arange(labels.size), labels] = 1.0
    return Y


def check_problem(S, y, labelled, *, n_classes=None):
    """Validate the inputs shared by every transductive method.

    Parameters
    ----------
    S : array-like or sparse matrix of shape (n_nodes, n_nodes)
        Symmetric, non-negative, finite weights (see :func:`graphsel_lib.check_adjacency`).
    y : array-like of shape (n_nodes,)
        Labels ``0..K-1``; ``-1``, ``NaN`` or ``None`` mark unlabelled nodes.
        Only ``y[labelled]`` is used to fit (it must hold real labels); the
        other entries only matter for ``K`` when ``n_classes`` is not given.
    labelled : array-like of int of shape (l,) or of bool of shape (n_nodes,)
        Labelled nodes: distinct indices in ``0..n_nodes-1`` or a boolean mask.
    n_classes : int, optional
        ``K``. Default: ``max(y) + 1`` over the whole ``y`` (so passing the
        full ground-truth vector gives the true number of classes).

    Returns
    -------
    Problem

    Raises
    ------
    TypeError, ValueError
        With a message naming the problem: bad ``S`` (a ``Graph`` instead of
        ``g.adjacency``, complex values, ...), wrong lengths, no labelled node,
        indices out of range or repeated, a label that is neither an integer
        nor an unlabelled mark (``0.5``), labels of labelled nodes outside
        ``0..K-1`` or unlabelled.
    """
    S = check_adjacency(S)
    return Problem(S, *check_targets(y, labelled, S.shape[0], n_classes=n_classes))


def check_targets(y, labelled, n, *, n_classes=None):
    """Validate ``y`` and ``labelled`` for ``n`` nodes -> ``(labelled indices, their labels, K)``.

    The label part of :func:`check_problem`, for methods that do not take a
    weight matrix (e.g. :func:`graphsel_lib.transductive.loohl` takes features).
    """
    y = check_class_labels(y, n, name="y", length=f"n_nodes={n}")
    idx = check_labelled(labelled, n)
    y_l = y[idx]
    if n_classes is None:
        n_classes = max(int(y.max()) + 1, 1)
    else:
        n_classes = check_integer(n_classes, "n_classes", minimum=1)
    bad = np.flatnonzero((y_l < 0) | (y_l >= n_classes))
    if bad.size:
        node = idx[bad[0]]
        what = " (an unlabelled mark: -1, NaN or None)" if y_l[bad[0]] == UNLABELLED else ""
        raise ValueError(
            f"labels of labelled nodes must be in 0..{n_classes - 1}, found y[{node}] = {y_l[bad[0]]}{what}"
        )
    return idx, y_l, n_classes


def check_every_class_labelled(y_labelled, n_classes):
    """Return the class counts; raise ``ValueError`` if some class ``0..K-1`` has no labelled node."""
    counts = np.bincount(y_labelled, minlength=n_classes)
    missing = np.flatnonzero(counts == 0)
    if missing.size:
        raise ValueError(
            f"class(es) {missing.tolist()} have no labelled node (K = {n_classes}); "
            "label at least one node of every class or pass a smaller n_classes"
        )
    return counts


def _unlabelled_components(problem):
    """``(n_comp, comp, orphan, sizes)``: the components of ``S`` without a labelled node and their sizes."""
    n_comp, comp = csgraph.connected_components(problem.S, directed=False)
    if n_comp == 1:
        return n_comp, comp, np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    has_label = np.zeros(n_comp, dtype=bool)
    has_label[comp[problem.labelled]] = True
    orphan = np.flatnonzero(~has_label)
    return n_comp, comp, orphan, np.bincount(comp, minlength=n_comp)[orphan]


def check_components_labelled(problem):
    """Raise ``ValueError`` if a connected component of ``S`` has no labelled node.

    Such a component makes ``L_UU`` singular: the harmonic function is not
    determined on it.
    """
    n_comp, comp, orphan, sizes = _unlabelled_components(problem)
    if orphan.size:
        first = int(np.flatnonzero(comp == orphan[0])[0])
        raise ValueError(
            f"{orphan.size} of the {n_comp} connected components contain no labelled node "
            f"(the first holds node {first} and has {sizes[0]} node(s)): L_UU is singular there; "
            "label a node in every component or restrict S to the components that have labels"
        )


def warn_unlabelled_classes(y_labelled, n_classes, method, consequence, *, stacklevel=3):
    """Warn (:class:`DataWarning`) if some class ``0..K-1`` has no labelled node, saying what follows for ``method``."""
    missing = np.flatnonzero(np.bincount(y_labelled, minlength=n_classes) == 0)
    if missing.size:
        only = np.unique(y_labelled)
        alone = f" (every labelled node is in class {int(only[0])})" if only.size == 1 else ""
        warnings.warn(
            f"{method}: class(es) {missing.tolist()} of K = {n_classes} have no labelled node{alone}: {consequence}",
            DataWarning,
            stacklevel=stacklevel,
        )


def warn_unreached(problem, method, *, stacklevel=3):
    """Warn (:class:`DataWarning`) about what the labels cannot reach; return nothing.

    For methods that score a node by propagation from the labelled nodes
    (LLGC, the harmonic function): a class without a labelled node gets a
    zero column and is never predicted, and (LLGC) a connected component
    without a labelled node gets zero scores, so ``argmax`` would predict
    class 0 on all of it. Both are undetermined, not learned: the warning
    names the classes, and the components by size and a node.
    """
    warn_unlabelled_classes(
        problem.y_labelled, problem.n_classes, method, "their score column is 0 and they are never predicted",
        stacklevel=stacklevel + 1,
    )  # fmt: skip
    n_comp, comp, orphan, sizes = _unlabelled_components(problem)
    if orphan.size:
        firsts = [int(np.flatnonzero(comp == c)[0]) for c in orphan[:5]]
        warnings.warn(
            f"{method}: {orphan.size} of the {n_comp} connected components ({int(sizes.sum())} node(s); "
            f"first nodes {firsts}{', ...' if orphan.size > 5 else ''}) contain no labelled node: their "
            "scores are all 0 and argmax would predict class 0 there; label a node in every component "
            "or restrict S to the components that have labels",
            DataWarning,
            stacklevel=stacklevel,
        )


# --------------------------------------------------------------------------- solvers
def _check_solver(solver):
    if solver not in SOLVERS:
        raise ValueError(f"solver must be one of {SOLVERS}, got {solver!r}")


def _amg_preconditioner(A):
    import pyamg

    # Plain (unsmoothed) aggregation: smoothed aggregation converges faster on
    # meshes but its coarse operators fill in around hubs (operator complexity
    # 46-113 and setup > 30 s on Epinions); plain aggregation stays near 1.4.
    ml = pyamg.smoothed_aggregation_solver(A, symmetry="hermitian", smooth=None)
    return ml.aspreconditioner(cycle="V")


def solve_spd(A, B, *, solver="auto", tol=1e-10, maxiter=None):
    """Solve ``A X = B`` for a sparse symmetric positive definite ``A``.

    Parameters
    ----------
    A : sparse matrix of shape (m, m)
        Symmetric positive definite.
    B : ndarray of shape (m, K)
        Right-hand sides; ``A`` is factorised (or preconditioned) once for all.
    solver : {"auto", "direct", "cg", "amg"}, default "auto"
        ``"direct"``: sparse LU (SuperLU, symmetric mode, minimum-degree
        ordering of ``A + A^T``), accurate to machine precision.
        ``"cg"``: conjugate gradient with a Jacobi (diagonal) preconditioner.
        ``"amg"``: conjugate gradient preconditioned by one V-cycle of pyamg's
        plain-aggregation AMG. ``"auto"``: ``"direct"`` up to
        :data:`DIRECT_MAX_NODES` unknowns (above 1,000 of them only if ``A``
        has at most :data:`DIRECT_MAX_ROW_NNZ` entries per row); otherwise ``"cg"`` for at most
        :data:`AUTO_JACOBI_ITERATIONS` iterations, then ``"amg"`` from there on
        the columns that have not converged.
    tol : float, default 1e-10
        Relative residual ``||A x - b|| / ||b||`` at which CG stops, per column.
    maxiter : int, optional
        CG iteration cap per column (default ``max(1000, 10 m)``).

    Warns
    -----
    ConvergenceWarning
        If CG stops before reaching ``tol`` on some column.
    """
    _check_solver(solver)
    m = A.shape[0]
    B = np.asarray(B, dtype=np.float64)
    X = np.zeros_like(B)
    if m == 0:
        return X
    nnz = A.nnz if sp.issparse(A) else np.count_nonzero(A)
    if solver == "auto" and m <= DIRECT_MAX_NODES and (m <= 1_000 or nnz <= DIRECT_MAX_ROW_NNZ * m):
        solver = "direct"
    if solver == "direct":
        lu = spla.splu(
            sp.csc_matrix(A),
            permc_spec="MMD_AT_PLUS_A",
            diag_pivot_thresh=0.0,
            options={"SymmetricMode": True},
        )
        return lu.solve(B)
    A = sp.csr_matrix(A)
    if maxiter is None:
        maxiter = max(1000, 10 * m)
    jacobi = sp.diags(1.0 / A.diagonal())
    amg = _amg_preconditioner(A) if solver == "amg" else None
    for k in range(B.shape[1]):
        b = B[:, k]
        bnorm = np.linalg.norm(b)
        if bnorm == 0:
            continue
        if solver == "auto":
            x, _ = spla.cg(A, b, rtol=tol, maxiter=min(maxiter, AUTO_JACOBI_ITERATIONS), M=jacobi)
            if np.linalg.norm(A @ x - b) > tol * bnorm:
                amg = _amg_preconditioner(A) if amg is None else amg
                x, _ = spla.cg(A, b, x0=x, rtol=tol, maxiter=maxiter, M=amg)
        else:
            x, _ = spla.cg(A, b, rtol=tol, maxiter=maxiter, M=jacobi if solver == "cg" else amg)
        res = np.linalg.norm(A @ x - b) / bnorm
        if not res <= 10 * tol:
            warnings.warn(
                f"{solver} solve did not converge on column {k}: relative residual {res:.2e} > tol={tol:g} "
                f"after maxiter={maxiter}; raise maxiter or use solver='direct'",
                ConvergenceWarning,
                stacklevel=3,
            )
        X[:, k] = x
    return X


def scores_or_deprecated_pair(scores, report, return_info, name):
    """``scores``; or, for a caller still passing ``return_info=True``, ``(scores, report())`` and a warning.

    ``report`` is called only then. The warning names the ``{name}_fit`` that replaces the flag and points at
    the caller's line (``name`` is a public function behind :func:`~graphsel_lib._validation.renamed_parameter`).
    """
    if not return_info:
        return scores
    warnings.warn(
        f"{name}(..., return_info=True) is deprecated and goes in the next release: call {name}_fit(...), "
        "whose result holds the scores (.scores) and the report as attributes",
        DeprecationWarning,
        stacklevel=4,  # this function, the public function, its renamed-parameter wrapper, the caller
    )
    return scores, report()
