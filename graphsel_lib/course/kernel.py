"""Chapters 02 and 07: the Laplacian kernel against its bounds and its low-rank approximations.

:func:`kernel_bound_tightness` and :func:`kernel_bound_table` compare ``K_tt`` with
``min(1/λ_2, ρ_t)`` and ``max_q r_eff(t, q)`` on a graph (chapter 02);
:func:`low_rank_kernel_errors` measures the rank-``d`` kernel, and :func:`eckart_young_errors`
sets it against random Nyström approximations (:func:`nystrom_kernel`) and perturbed
projections of the same rank (Eckart–Young–Mirsky for ``L^+``; chapter 07).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse.linalg as spla

from .._validation import as_generator, as_real_matrix
from ..spectral import any_basis


def kernel_bound_tightness(K_diag, bound, r_max, inv_lambda2, rho, *, rel_margin=1e-9) -> dict:
    """How close ``K_tt`` comes to its two bounds on one graph: one row of chapter 02's tables.

    The bounds are ``K_tt ≤ min(1/λ_2, ρ_t)`` (``bound``; Herbster & Pontil,
    the slides' theorem) and ``K_tt ≤ max_q r_eff(t, q)`` (``r_max``; the mean-
    resistance identity ``K_tt = (1/n) Σ_q r_eff(t, q) − tr L^+ / n``), with
    ``max_q r_eff(t, q) ≤ ρ_t`` (Rayleigh monotonicity). Returns the largest and
    the mean ratio ``K_tt / bound``, the mean ``K_tt / max_q r_eff``, the share of
    nodes where the spectral half binds (``1/λ_2 < ρ_t``) and the share where
    the resistance bound is below the minimum of both halves.

    The two shares count a node only where the inequality holds by more than
    ``rel_margin`` (relative): on a tree ``max_q r_eff(t, q) = ρ_t`` exactly, and
    a plain ``<`` would count whichever way the last bits of rounding fall.

    Parameters
    ----------
    K_diag : array-like of shape (n,)
        ``K_tt = (L^+)_tt``.
    bound : array-like of shape (n,)
        ``min(1/λ_2, ρ_t)`` (:func:`~graphsel_lib.theory.kernel_diagonal_bound`).
    r_max : array-like of shape (n,)
        ``max_q r_eff(t, q)``.
    inv_lambda2 : float
        ``1/λ_2``.
    rho : array-like of shape (n,)
        The eccentricities ``ρ_t``.
    rel_margin : float, default 1e-9

    Returns
    -------
    dict of str -> float
        ``"max K_tt / bound"``, ``"mean K_tt / bound"``, ``"1/lambda_2 binds"``,
        ``"mean K_tt / max_q r"`` and ``"resistance tighter"``, in that order.

    Examples
    --------
    >>> list(kernel_bound_tightness([1.0, 1.0], [2.0, 2.0], [2.0, 1.0], 3.0, [3.0, 4.0]).values())
    [0.5, 0.5, 0.5, 0.75, 0.5]
    """
    K_diag, bound, r_max, rho = (np.asarray(a, dtype=float) for a in (K_diag, bound, r_max, rho))
    inv_lambda2 = float(inv_lambda2)
    return {
        "max K_tt / bound": float((K_diag / bound).max()),
        "mean K_tt / bound": float((K_diag / bound).mean()),
        "1/lambda_2 binds": float(np.mean(inv_lambda2 < rho * (1 - rel_margin))),
        "mean K_tt / max_q r": float((K_diag / r_max).mean()),
        "resistance tighter": float(np.mean(r_max < bound * (1 - rel_margin))),
    }


def kernel_bound_table(rows, *, by="family"):
    """Chapter 02's table of the bound ``K_tt ≤ min(1/λ_2, ρ_t)``: the rows of :func:`kernel_bound_tightness` by group.

    ``rows`` are dicts with the keys of :func:`kernel_bound_tightness` plus
    ``by`` and ``"n"`` (nodes of the graph). Per group (in order of first
    appearance): the number of graphs, the smallest and largest, the largest
    ratio ``K_tt / bound`` and the means over the group's graphs of the other
    four columns (a share is first taken per graph, then averaged).

    Parameters
    ----------
    rows : iterable of dict
        One per graph.
    by : str, default "family"
        The key that groups the graphs.

    Returns
    -------
    pandas.DataFrame
        Columns ``by``, ``graphs``, ``min nodes``, ``max nodes``, ``max
        K_tt/bound``, ``mean K_tt/bound``, ``share where 1/lambda_2 < rho_t``,
        ``mean K_tt/max_q r`` and ``share where max_q r < bound``.
    """
    import pandas as pd

    per_graph = pd.DataFrame(rows)
    summary = per_graph.groupby(by, sort=False).agg(
        graphs=("n", "size"), min_nodes=("n", "min"), max_nodes=("n", "max"),
        max_ratio=("max K_tt / bound", "max"), mean_ratio=("mean K_tt / bound", "mean"),
        spectral_half_binds=("1/lambda_2 binds", "mean"), mean_ratio_resistance=("mean K_tt / max_q r", "mean"),
        resistance_tighter=("resistance tighter", "mean"),
    ).reset_index()  # fmt: skip
    summary.columns = [by, "graphs", "min nodes", "max nodes", "max K_tt/bound", "mean K_tt/bound",
                       "share where 1/lambda_2 < rho_t", "mean K_tt/max_q r", "share where max_q r < bound"]  # fmt: skip
    return summary


def _truncation_error(emb, K, d, rng):
    """``E = L^+ − L_d^+`` and its largest eigenvalue by Lanczos (ARPACK, start vector drawn from ``rng``)."""
    E = K - emb.truncate(d).kernel()
    return E, spla.eigsh(E, k=1, which="LA", v0=rng.standard_normal(K.shape[0]), return_eigenvectors=False)[0]


def low_rank_kernel_errors(emb, K, ranks, *, rng):
    """The error of the rank-``d`` kernel ``L_d^+ = M_d^T M_d`` against ``L^+ = K`` at each rank in ``ranks``.

    ``L^+ − L_d^+ = Σ_{i>d} σ_i^{-1} v_i v_i^T ⪰ 0``, so ``‖L^+ − L_d^+‖_2 =
    1/σ_{d+1}`` (the largest discarded term; Eckart–Young: no rank-``d`` matrix
    does better). Per rank: the spectral norm measured by Lanczos (ARPACK,
    start vector from ``rng``, one draw per rank) beside ``1/σ_{d+1}``, the share
    of ``tr L^+`` kept, ``Σ_{i≤d} σ_i^{-1} / Σ_i σ_i^{-1}``, and the largest loss on
    the diagonal, ``max_t (K_tt − ‖m_t‖²)``. ``emb`` is the embedding with all
    ``n − 1`` pairs (``spectral_embedding(S, n - 1)``). A rank that cuts a
    repeated eigenvalue warns (``SplitEigenvalueWarning``): only the last
    column depends on the basis kept there. ``rng``: a generator or a seed. Returns a DataFrame.

    Parameters
    ----------
    emb : SpectralEmbedding
        All ``n − 1`` non-zero pairs (``spectral_embedding(S, n - 1)``).
    K : ndarray of shape (n, n)
        The exact kernel ``L^+`` (``laplacian_pinv``).
    ranks : iterable of int
        Ranks ``1 ≤ d < n − 1``.
    rng : numpy.random.Generator or int
        A generator (its stream continues) or a seed.

    Returns
    -------
    pandas.DataFrame
        One row per rank: ``d``, ``||L+ - L_d+||_2 (Lanczos)``, ``1/sigma_{d+1}``,
        ``share of tr L+ kept`` and ``max_t K_tt - ||m_t||^2``.
    """
    rng = as_generator(rng, "rng")
    import pandas as pd

    K = np.asarray(K, dtype=float)
    inv = 1.0 / emb.eigenvalues
    rows = []
    for d in ranks:
        E, top = _truncation_error(emb, K, d, rng)
        rows.append({"d": d, "||L+ - L_d+||_2 (Lanczos)": top, "1/sigma_{d+1}": inv[d],
                     "share of tr L+ kept": np.sum(inv[:d]) / np.sum(inv), "max_t K_tt - ||m_t||^2": np.max(np.diag(E))})  # fmt: skip
    return pd.DataFrame(rows)


def nystrom_kernel(K, landmarks):
    """The Nyström approximation ``K_{:J} K_{JJ}^+ K_{J:}`` of a PSD kernel from its landmark columns ``J``.

    Williams & Seeger (NIPS 2000): the kernel reproduced exactly on the
    columns ``J`` and extended to the rest through them; its rank is at most
    ``|J|``, so Eckart–Young bounds its error from below (notebook 07 §1).

    Parameters
    ----------
    K : array-like of shape (n, n)
        A symmetric positive semi-definite kernel.
    landmarks : array-like of int of shape (k,)
        The landmark columns ``J``.

    Returns
    -------
    ndarray of shape (n, n)

    Examples
    --------
    >>> K = np.array([[2.0, 1.0], [1.0, 2.0]])
    >>> nystrom_kernel(K, [0]).tolist()
    [[2.0, 1.0], [1.0, 0.5]]
    """
    K = as_real_matrix(K, "K", sparse=False, copy=False)
    idx = np.asarray(landmarks, dtype=np.intp)
    C = K[:, idx]
    return C @ np.linalg.pinv(K[np.ix_(idx, idx)]) @ C.T


def _spectral_norm(E):
    """``‖E‖_2`` of a symmetric matrix: its largest ``|eigenvalue|``, by Lanczos from the all-ones start."""
    return float(abs(spla.eigsh(E, k=1, which="LM", v0=np.ones(E.shape[0]), return_eigenvectors=False)[0]))


def eckart_young_errors(emb, K, ranks, *, n_competitors, rng, noise=0.5):
    """The rank-``d`` kernel against random rank-``d`` competitors: notebook 07's table ``07_eckart_young``.

    Eckart–Young–Mirsky (Eckart & Young 1936; Mirsky 1960): every ``X`` of
    rank at most ``d`` has ``‖L^+ − X‖_2 ≥ σ_{d+1}^{-1}`` and
    ``‖L^+ − X‖_F ≥ (Σ_{i>d} σ_i^{-2})^{1/2}``, with equality for ``X = L_d^+``.
    Per rank ``d``: ``‖L^+ − L_d^+‖_2`` by Lanczos on the error matrix (start
    vector from ``rng``) and ``‖L^+ − L_d^+‖_F``; then ``n_competitors`` times a
    Nyström approximation from ``d`` random landmark columns
    (:func:`nystrom_kernel`) and a *perturbed projection* ``QQ^T L^+ QQ^T``,
    ``Q`` an orthonormal basis of ``V_d + noise·G/√n`` (``G`` standard
    normal, ``V_d`` the optimal eigenvectors), and the smallest error of each
    kind in both norms. ``rng`` is drawn in this order per rank: the Lanczos
    start, then per competitor the landmarks and ``G``.

    Parameters
    ----------
    emb, K, ranks
        As in :func:`low_rank_kernel_errors`.
    n_competitors : int ≥ 1
    rng : numpy.random.Generator or int
        A generator (its stream continues) or a seed.
    noise : float, default 0.5

    Returns
    -------
    DataFrame
        Columns ``d``, ``1/sigma_{d+1}``, ``||L+ - L_d+||_2 (Lanczos)``,
        ``||L+ - L_d+||_F``, ``best Nystrom ||.||_2``, ``best perturbed projection
        ||.||_2`` (the table) and ``best Nystrom ||.||_F``, ``best perturbed
        projection ||.||_F``.
    """
    import pandas as pd

    rng = as_generator(rng, "rng")
    K = np.asarray(K, dtype=float)
    n = K.shape[0]
    inv = 1.0 / emb.eigenvalues
    rows = []
    for d in ranks:
        with any_basis():  # L^+ - L_d^+ has the eigenvalues 1/sigma_{d+1}, ... in every basis: norms only
            E, top = _truncation_error(emb, K, d, rng)
        best = {"nys2": np.inf, "proj2": np.inf, "nysF": np.inf, "projF": np.inf}
        for _ in range(n_competitors):
            nys = nystrom_kernel(K, rng.choice(n, size=d, replace=False))
            Q, _ = np.linalg.qr(emb.eigenvectors[:, :d] + noise * rng.standard_normal((n, d)) / np.sqrt(n))
            proj = Q @ (Q.T @ K @ Q) @ Q.T
            for kind, X in (("nys", nys), ("proj", proj)):
                best[kind + "2"] = min(best[kind + "2"], _spectral_norm(K - X))
                best[kind + "F"] = min(best[kind + "F"], np.linalg.norm(K - X, "fro"))
        rows.append({"d": d, "1/sigma_{d+1}": inv[d], "||L+ - L_d+||_2 (Lanczos)": top,
                     "||L+ - L_d+||_F": np.linalg.norm(E, "fro"), "best Nystrom ||.||_2": best["nys2"],
                     "best perturbed projection ||.||_2": best["proj2"], "best Nystrom ||.||_F": best["nysF"],
                     "best perturbed projection ||.||_F": best["projF"]})  # fmt: skip
    return pd.DataFrame(rows)
