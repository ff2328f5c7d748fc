"""Chapter 04: every ridge form of LLGC against the direct sparse solve (gu2013 Eq. 2-5)."""

from __future__ import annotations

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from .._validation import check_positive, renamed_parameter
from ..graph import laplacian
from ..spectral import add_bias
from ..transductive import llgc


@renamed_parameter("labeled_sets", "labelled_sets")
def llgc_form_deviations(S, labels, labelled_sets, mus, *, emb, kernel, b=1.0, n_classes=None):
    """Every ridge form of LLGC against the direct sparse solve of ``(I + µL) f = y`` (chapter 04 §1–3).

    gu2013 Eq. 3–5: with ``f = L^+α``, a factor ``L^+ = MᵀM`` and ``w = Mα``,
    LLGC (Eq. 2, combinatorial ``L``) is the ridge regression
    ``min_w ½||Mᵀw − y||² + µ/2 ||w||²`` on the columns ``m_t`` of ``M``, up to the
    mean label: ``f* = ȳ𝟙 + Mᵀw*`` for the exact kernel. For each labelled set,
    each ``µ`` and each class-vs-rest target ``y`` (``±1`` on the labelled
    nodes, 0 elsewhere; class 1 only for two classes), the largest absolute
    deviation from the direct solution ``f*`` (sparse LU) of

    * ``"llgc"``: :func:`llgc` (one-hot targets; ``f = 2F_{:k} − Σ_j F_{:j}``);
    * ``"spsolve"``: scipy's ``spsolve`` on ``I + µL``;
    * ``"primal"``: ``Mᵀ(MMᵀ + µI)^{-1}My + ȳ𝟙`` (a d × d solve);
    * ``"dual"``: ``L^+(L^+ + µI)^{-1}y + ȳ𝟙`` with the dense ``kernel`` (no eigenvectors);
    * ``"spectral"``: ``ȳ𝟙 + Σ_i v_i (v_iᵀy)/(1 + µσ_i)``;
    * ``"bias"``: the ridge solution on ``add_bias(M, b)`` against
      ``f* − µȳ𝟙/(nb + µ)`` (§3: the bias feature shrinks the mean by that much);
    * ``"mean"``: ``𝟙ᵀf* − 𝟙ᵀy`` and ``𝟙ᵀMᵀw*`` (both 0).

    Parameters
    ----------
    S : weight matrix of a connected graph (n × n).
    labels : array of int of shape (n,), classes ``0..K-1``.
    labelled_sets : iterable of arrays of node indices, one per split.
    mus : iterable of float > 0
    emb : SpectralEmbedding with all ``n − 1`` pairs (``spectral_embedding(S, n - 1)``).
    kernel : array of shape (n, n), the dense ``L^+`` (``laplacian_pinv(S)``).
    b : float > 0, default 1.0
        The bias constant of the ``"bias"`` form.
    n_classes : int, optional
        ``K``; default ``max(labels) + 1``.

    Returns
    -------
    pandas.DataFrame
        One row per (split, µ, class): ``split, mu, class, mean label, max |f*|,
        max |f* - ridge without mean|, accuracy (unlabelled)`` (the sign of
        ``f*`` on the unlabelled nodes against class-vs-rest) and ``dev FORM``
        for each form above. It asserts nothing: chapter 04 asserts on it.
    """
    import pandas as pd

    labels = np.asarray(labels)
    n = labels.shape[0]
    K = int(labels.max()) + 1 if n_classes is None else int(n_classes)
    M, sig, V = emb.M, emb.eigenvalues, emb.eigenvectors
    if M.shape != (n - 1, n):
        raise ValueError(f"emb must hold all n - 1 = {n - 1} non-zero pairs, got d = {M.shape[0]}")
    b = check_positive(b, "bias b")
    MMt, Mb = M @ M.T, add_bias(M, b)
    MbMbt = Mb @ Mb.T
    L = laplacian(S).tocsc()
    I = sp.identity(n, format="csc")
    targets = [1] if K == 2 else range(K)
    rows = []
    for split, labelled in enumerate(labelled_sets):
        labelled = np.asarray(labelled)
        unlabelled = np.setdiff1d(np.arange(n), labelled)
        for mu in mus:
            F = llgc(S, labels, labelled, mu=mu, n_classes=K)
            A_mu = (I + mu * L).tocsc()
            lu = spla.splu(A_mu)
            # Cholesky factors, once for every target: L^+ + mu I, M M^T + mu I (d x d), and with the bias
            kernel_fac = sla.cho_factor(kernel + mu * np.eye(n))
            ridge_fac = sla.cho_factor(MMt + mu * np.eye(n - 1))
            bias_fac = sla.cho_factor(MbMbt + mu * np.eye(n))
            for k in targets:
                y = np.zeros(n)
                y[labelled] = np.where(labels[labelled] == k, 1.0, -1.0)
                ybar = y.mean()
                f_star = lu.solve(y)  # the direct sparse solve
                w = sla.cho_solve(ridge_fac, M @ y)  # (M M^T + mu I)^{-1} M y
                forms = {
                    "llgc": 2 * F[:, k] - F.sum(axis=1),
                    "spsolve": spla.spsolve(A_mu, y),
                    "primal": M.T @ w + ybar,
                    "dual": kernel @ sla.cho_solve(kernel_fac, y) + ybar,
                    "spectral": ybar + V @ ((V.T @ y) / (1 + mu * sig)),
                    "bias": Mb.T @ sla.cho_solve(bias_fac, Mb @ y) + mu / (n * b + mu) * ybar,
                }
                row = {"split": split, "mu": mu, "class": k, "mean label": ybar, "max |f*|": np.abs(f_star).max(),
                       "max |f* - ridge without mean|": np.abs(f_star - M.T @ w).max(),
                       "accuracy (unlabelled)": np.mean(np.sign(f_star + 1e-300)[unlabelled]
                                                        == np.where(labels == k, 1, -1)[unlabelled])}  # fmt: skip
                row.update({f"dev {key}": float(np.abs(f - f_star).max()) for key, f in forms.items()})
                row["dev mean"] = float(np.abs([f_star.sum() - y.sum(), (M.T @ w).sum()]).max())
                rows.append(row)
    return pd.DataFrame(rows)
