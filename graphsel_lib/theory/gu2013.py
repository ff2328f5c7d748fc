"""gu2013 (OLLGC and SSLGC): the regret, mistake, bias-variance and label-complexity bounds.

Each is evaluated term by term on the :class:`~graphsel_lib.online.Trace` of a run (chapters 05
and 06 derive them; where the printed statements cannot be proved, these functions compute the
versions that can, beside the printed ones):

* :func:`ollgc_bounds` — the regret bound (Thm 4) and the mistake bound (Cor. 5) of OLLGC, from
  the exact online-ridge identity ``Σ_M ½ ξ_t² (1 − r_t) = J*``, with the graph comparator of
  :func:`graph_comparator`;
* :func:`sslgc_bias_variance` — the bias ``bias_t`` and variance bound ``r_t`` of SSLGC's margin
  estimate (Eq. 20);
* :func:`sslgc_label_complexity` and :func:`sslgc_label_bound` — the label-complexity bound
  ``N_T ≤ T^κ d ln(1 + N_T/(µd))`` (Thm 7, Eq. 26) and the version that holds for SSLGC;
  :func:`vacuous_from` reads from which ``κ`` on a bound exceeds ``T``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq

from .._validation import as_real_array, as_real_matrix, check_positive
from ..graph import check_adjacency, laplacian
from ..online import RidgeState
from ._checks import check_features, check_run, check_shape, max_sq_norm, ridge_value


@dataclass(frozen=True)
class OLLGCBounds:
    """Every term of gu2013 Thm 4 and Cor. 5 on one OLLGC run (see :func:`ollgc_bounds`).

    Arrays are over the mistaken rounds ``M`` in round order.

    Parameters
    ----------
    n_rounds, n_mistakes : int
        ``T`` and ``|M|``.
    e, v, r : ndarray
        The residuals ``ξ_t = y_t − w_{t−1}ᵀm_t`` (field ``e``), ``v_t = m_tᵀA_{t−1}^{−1}m_t``
        and ``r_t = v_t/(1 + v_t)``.
    lemma_lhs, J_star : float
        ``Σ_M ½ ξ_t²(1 − r_t)`` and ``J* = min_u [µ/2 ||u||² + Σ_M ½(uᵀm_t − y_t)²]``
        (equal: the online-ridge identity).
    logdet, logdet_state, sum_log1p_v : float
        ``Σ_i ln(1 + ν_i/µ)`` from the eigenvalues ``ν_i`` of ``Σ_M m_t m_tᵀ``, ``ln det(A_T/µ)``
        from the replayed state and ``Σ_M ln(1 + v_t)`` (equal: the determinant lemma).
    B, d_log : float
        ``R² = max_t ||m_t||²`` (field ``B``, gu2013's letter) and the worst case
        ``d ln(1 + |M| R²/(dµ))`` of ``logdet``.
    gamma : float
        ``ξ²_max = max_M ξ_t²`` (field ``gamma``, gu2013's letter; 0 without mistakes).
    half_norm : float
        ``µ/2 ||u||²`` of the comparator.
    regret, regret_all : float
        ``Σ [ℓ_t(w_{t−1}) − ℓ_t(u)]`` over ``M`` (Thm 4) and over all ``T`` rounds
        (gu2013 Eq. 9; no theorem covers it for a mistake-driven learner).
    thm4_data, thm4 : float
        ``µ/2 ||u||² + ½ Σ_M ξ_t² r_t`` and ``µ/2 ||u||² + ξ²_max/2 · logdet``.
    J_all : float
        ``J`` of the offline ridge problem on all ``T`` rounds (every label known).
    cor5_data, cor5, cor5_d : float
        ``2J* + Σ_M r_t``, ``2J + logdet`` and ``2J + d_log``.

    Attributes
    ----------
    sum_r : float
        ``Σ_M r_t`` (a property).
    """

    n_rounds: int
    n_mistakes: int
    e: np.ndarray
    v: np.ndarray
    r: np.ndarray
    lemma_lhs: float
    J_star: float
    logdet: float
    logdet_state: float
    sum_log1p_v: float
    B: float
    d_log: float
    gamma: float
    half_norm: float
    regret: float
    regret_all: float
    thm4_data: float
    thm4: float
    J_all: float
    cor5_data: float
    cor5: float
    cor5_d: float

    @property
    def sum_r(self) -> float:
        """``Σ_M r_t``."""
        return np.sum(self.r)


def _replay_ollgc(X, trace, mu):
    """``e_t, v_t`` on the mistaken rounds and the final state, replaying the mistakes of ``trace``."""
    state = RidgeState(X.shape[0], mu)
    idx = np.flatnonzero(trace.mistakes)
    e, v = np.empty(idx.size), np.empty(idx.size)
    for j, t in enumerate(idx):
        x = X[:, trace.order[t]]
        u, v[j] = state.variance(x)
        s = float(state.w @ x)
        if not abs(s - trace.scores[t]) <= 1e-8 * max(1.0, abs(s)):
            raise ValueError(
                f"replaying the mistakes does not reproduce the recorded score of round {t + 1} "
                f"({s:.6g} against {trace.scores[t]:.6g}): the trace is not a run of OLLGC(mu={mu:g}) on X"
            )
        e[j] = trace.labels[t] - s
        state.update(x, trace.labels[t], u, v[j])
    return idx, e, v, state


def ollgc_bounds(X, trace, *, mu, u):
    """Evaluate gu2013's regret bound (Thm 4) and mistake bound (Cor. 5) on an OLLGC run.

    gu2013 Sec. 3.4, in the form that can be proved (notebook 05): with the
    mistaken rounds ``M``, the residual ``ξ_t = y_t − s_t``, ``r_t = v_t/(1 + v_t)`` and
    ``J* = min_u [µ/2 ||u||² + Σ_M ℓ_t(u)]``, ``ℓ_t(u) = ½(uᵀm_t − y_t)²``,
    the identity ``Σ_M ½ ξ_t²(1 − r_t) = J*`` gives

    * Thm 4: ``Σ_M [ℓ_t(w_{t−1}) − ℓ_t(u)] ≤ µ/2 ||u||² + ½ Σ_M ξ_t² r_t
      ≤ µ/2 ||u||² + ξ²_max/2 Σ_i ln(1 + ν_i/µ)``, ``ξ²_max = max_M ξ_t²``;
    * Cor. 5: ``|M| ≤ 2J* + Σ_M r_t ≤ 2J + Σ_i ln(1 + ν_i/µ)
      ≤ 2J + d ln(1 + |M|R²/(dµ))``, ``J`` the offline problem on all rounds;

    ``ν_i`` the eigenvalues of ``Σ_M m_t m_tᵀ``, ``R² = max_t ||m_t||²`` (gu2013
    writes ``e_t``, ``λ_i``, ``γ`` and ``B``; the result fields keep ``e``, ``gamma``
    and ``B``). This function computes every term; it asserts nothing (the notebook does).

    Parameters
    ----------
    X : array of shape (d, n)
        The features of the run (column ``t`` is ``m_t``, with the bias row if any).
    trace : Trace
        ``gs.online.run(gs.online.OLLGC(mu=mu), X, y, ...)``.
    mu : float > 0
        The OLLGC regularisation ``A_0 = µI`` of the run.
    u : array of shape (d,)
        The comparator, e.g. ``M L y`` (gu2013 Lemma 3; notebook 05), as
        :func:`graph_comparator` builds it.

    Returns
    -------
    OLLGCBounds

    Raises
    ------
    ValueError
        Shapes that do not match, or a trace that replaying its mistakes with
        ``mu`` on ``X`` does not reproduce (another learner, ``mu`` or ``X``).
    """
    X = check_features(X)
    mu = check_positive(mu, "mu")
    check_run(trace, X, multiclass=False)
    u = check_shape(as_real_array(u, "u", ndim=1), (X.shape[0],), "the comparator u")
    idx, e, v, state = _replay_ollgc(X, trace, mu)
    nodes = trace.order[idx]
    d = X.shape[0]
    r = v / (1 + v)
    Xm, ym = X[:, nodes], trace.labels[idx].astype(float)
    J_star, _ = ridge_value(Xm, ym, mu)
    lam = np.clip(np.linalg.eigvalsh(Xm @ Xm.T), 0, None)
    logdet = np.sum(np.log1p(lam / mu))
    _, logdet_state = np.linalg.slogdet(np.linalg.inv(state.inverse()) / mu)
    B = max_sq_norm(X, trace.order)
    d_log = d * np.log1p(idx.size * B / (d * mu))
    half_norm = 0.5 * mu * u @ u
    regret = np.sum(0.5 * e**2 - 0.5 * (Xm.T @ u - ym) ** 2)
    gamma = np.max(e**2) if e.size else 0.0
    regret_all = np.sum(
        0.5 * (trace.scores - trace.labels) ** 2 - 0.5 * (X[:, trace.order].T @ u - trace.labels) ** 2
    )
    # the offline problem on every round shown, summed in node order
    shown = np.sort(trace.order)
    y_shown = np.empty(X.shape[1])
    y_shown[trace.order] = trace.labels
    if shown.size == X.shape[1]:
        J_all, _ = ridge_value(X, y_shown, mu)
    else:
        J_all, _ = ridge_value(X[:, shown], y_shown[shown], mu)
    return OLLGCBounds(
        n_rounds=trace.n_rounds,
        n_mistakes=idx.size,
        e=e,
        v=v,
        r=r,
        lemma_lhs=0.5 * np.sum(e**2 * (1 - r)),
        J_star=J_star,
        logdet=logdet,
        logdet_state=logdet_state,
        sum_log1p_v=np.sum(np.log1p(v)),
        B=B,
        d_log=d_log,
        gamma=gamma,
        half_norm=half_norm,
        regret=regret,
        regret_all=regret_all,
        thm4_data=half_norm + 0.5 * np.sum(e**2 * r),
        thm4=half_norm + 0.5 * gamma * logdet,
        J_all=J_all,
        cor5_data=2 * J_star + np.sum(r),
        cor5=2 * J_all + logdet,
        cor5_d=2 * J_all + d_log,
    )


def graph_comparator(M, S, y, *, b=0.0):
    """The comparator ``u = M L y`` of the graph form of gu2013 Thm 4 (with the bias coordinate ``ȳ/√b``).

    gu2013 Lemma 3 (notebook 05, §3): on the features ``M`` (``MᵀM = L_d^+``)
    the labelling ``y`` is represented by ``u = M L y``, since
    ``Mᵀu = L_d^+ L y``, which is ``y − ȳ𝟙`` for the exact kernel, and

        ``||u||² = yᵀ L L_d^+ L y ≤ yᵀ L y = 4 Φ(y)``  for ``y ∈ {−1, +1}^n``,

    with equality for the exact kernel (``Φ`` the cut size, each edge once).
    With the bias feature ``√b`` (:func:`~graphsel_lib.spectral.add_bias`) the
    extra coordinate ``ȳ/√b`` restores the mean: ``(M; √b 𝟙ᵀ)ᵀ u = y`` for the
    exact kernel, and ``µ/2 ||u||² ≤ 2µΦ(y) + µȳ²/(2b)``.

    Parameters
    ----------
    M : array of shape (d, n)
        The features without the bias row (``spectral_embedding(S, d).M``).
    S : sparse or dense array of shape (n, n)
        The weights of the graph.
    y : array of shape (n,)
        The labels (``±1`` in the bound; any real vector is accepted).
    b : float >= 0, default 0.0
        The bias constant of the features; 0 means no bias row.

    Returns
    -------
    ndarray of shape (d,) or (d + 1,)

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from graphsel_lib.spectral import spectral_embedding
    >>> S = sp.csr_array(np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]], dtype=float))
    >>> M = spectral_embedding(S, 2).M
    >>> y = np.array([1.0, 1.0, -1.0])
    >>> u = graph_comparator(M, S, y, b=1.0)
    >>> bool(np.allclose(np.vstack([M, np.ones(3)]).T @ u, y)), round(float(u[:2] @ u[:2]), 6)
    (True, 4.0)
    """
    M = check_features(M)
    S = check_adjacency(S)
    y = check_shape(as_real_array(y, "y", ndim=1), (M.shape[1],), "the labels y")
    b = check_positive(b, "bias b", allow_zero=True)
    if S.shape[0] != M.shape[1]:
        raise ValueError(f"S has {S.shape[0]} nodes but M has {M.shape[1]} columns")
    u = M @ (laplacian(S) @ y)
    return np.append(u, y.mean() / np.sqrt(b)) if b > 0 else u


# --------------------------------------------------------------------------- gu2013: SSLGC
@dataclass(frozen=True)
class SSLGCBiasVariance:
    """Bias and variance bound of SSLGC's margin estimate (see :func:`sslgc_bias_variance`).

    Parameters
    ----------
    bias : ndarray of shape (k,)
        ``bias_t = uᵀ(µI + m_t m_tᵀ) A_t^{-1} m_t`` per candidate: ``E[Δ̂_t] = Δ⋆_t − bias_t``.
    r : ndarray of shape (k,)
        ``r_t = m_tᵀ A_t^{-1} m_t``, an upper bound on ``Var[Δ̂_t]``.
    coef : ndarray of shape (k, d)
        ``coef[j] = A_t^{-1} m_t`` of candidate ``j``:
        ``Δ̂_t = m_tᵀA_t^{-1}b_{t−1} = (X_𝒰ᵀ coef[j]) · y_𝒰``.
    """

    bias: np.ndarray
    r: np.ndarray
    coef: np.ndarray


def sslgc_bias_variance(A, X, *, mu, u, nodes=None):
    """Bias ``bias_t`` and variance bound ``r_t`` of SSLGC's margin estimate (gu2013 Eq. 20).

    Under gu2013's label model ``E[y_t] = Δ⋆_t = uᵀm_t`` (the Bayes margin), with
    ``A = µI + X_𝒰X_𝒰ᵀ`` the matrix of the update rounds ``𝒰`` so far (columns
    ``X_𝒰 = [m_s]_{s∈𝒰}``) and ``A_t = A + m_t m_tᵀ``, the Vovk–Azoury–Warmuth
    estimate ``Δ̂_t = m_tᵀA_t^{-1}b_{t−1}`` (``b_{t−1} = X_𝒰 y_𝒰``) has
    ``E[Δ̂_t] = Δ⋆_t − bias_t`` with ``bias_t = uᵀ(µI + m_t m_tᵀ)A_t^{-1}m_t``
    (gu2013 writes ``B_t``, ``Δ_t``, ``Y_t`` and ``µ = 1``), ``Var[Δ̂_t] ≤ r_t =
    m_tᵀA_t^{-1}m_t`` and ``|bias_t| ≤ √((µ||u||² + Δ⋆_t²) r_t)`` (notebook 06, §2).

    Parameters
    ----------
    A : array of shape (d, d)
        ``µI + X_𝒰X_𝒰ᵀ``, without the candidates.
    X : array of shape (d, n)
        Features, column ``t`` is ``m_t``.
    mu : float > 0
        The ``µ`` inside ``A``.
    u : array of shape (d,)
        The Bayes comparator of the label model.
    nodes : array of int, optional
        The candidate columns ``t``, each evaluated on its own (default: all).

    Returns
    -------
    SSLGCBiasVariance
        Entry ``j`` belongs to ``nodes[j]``.
    """
    mu = check_positive(mu, "mu")
    A = as_real_matrix(A, "A", sparse=False, square=True, copy=False)
    X = check_shape(check_features(X), (A.shape[0], np.shape(X)[1]), "X")
    u = check_shape(as_real_array(u, "u", ndim=1), (A.shape[0],), "the comparator u")
    if nodes is None:
        nodes = np.arange(X.shape[1])
    else:
        nodes = np.asarray(nodes)
        if nodes.ndim != 1 or (nodes.size and not np.issubdtype(nodes.dtype, np.integer)):
            raise ValueError(f"nodes must be a 1-D array of column indices, got {nodes!r}")
        if nodes.size and (nodes.min() < 0 or nodes.max() >= X.shape[1]):
            raise ValueError(f"nodes must be column indices in 0..{X.shape[1] - 1}")
    bias, r, coef = np.empty(nodes.size), np.empty(nodes.size), np.empty((nodes.size, A.shape[0]))
    for j, t in enumerate(nodes):
        m = X[:, t]
        At_inv_m = np.linalg.solve(A + np.outer(m, m), m)
        coef[j] = At_inv_m
        bias[j] = u @ (mu * At_inv_m + m * (m @ At_inv_m))
        r[j] = m @ At_inv_m
    return SSLGCBiasVariance(bias=bias, r=r, coef=coef)


@dataclass(frozen=True)
class SSLGCLabelComplexity:
    """Every term of gu2013's label-complexity argument on one SSLGC run (see :func:`sslgc_label_complexity`).

    Parameters
    ----------
    n_rounds, d : int
        ``T`` and the dimension.
    n_queried, n_updates, n_queried_correct : int
        ``N_T = |𝒬|`` (queried rounds), ``|𝒰|`` (queried mistakes: the updates) and
        ``|C| = |𝒬 \\ 𝒰|``.
    sum_r_queried, sum_r_updates, sum_r_correct : float
        ``Σ r_t`` over ``𝒬``, ``𝒰`` and ``C``.
    logdet, B : float
        ``Σ_i ln(1 + ν_i/µ)`` (``ν_i`` the eigenvalues of ``Σ_𝒰 m_t m_tᵀ``) and
        ``R² = max_t ||m_t||²`` (field ``B``, gu2013's letter).
    step1 : float
        ``T^κ Σ_𝒬 r_t`` (gu2013 Eq. 26, first step: ``N_T`` is below it).
    bound : float
        ``T^κ [d ln(1 + |𝒰|R²/(µd)) + Σ_C r_t]``, the bound that holds for SSLGC.
    paper_bound, paper_bound_B : float
        ``T^κ d ln(1 + N_T/(µd))`` (gu2013 Thm 7) and the same with ``N_T R²`` in the log.

    Attributes
    ----------
    paper_holds, paper_B_holds : bool
        Whether ``N_T`` is at most ``paper_bound`` and ``paper_bound_B`` on this run (properties).
    """

    n_rounds: int
    d: int
    n_queried: int
    n_updates: int
    n_queried_correct: int
    sum_r_queried: float
    sum_r_updates: float
    sum_r_correct: float
    logdet: float
    B: float
    step1: float
    bound: float
    paper_bound: float
    paper_bound_B: float

    @property
    def paper_holds(self) -> bool:
        """Whether ``N_T ≤ T^κ d ln(1 + N_T/(µd))`` on this run (not a theorem for SSLGC)."""
        return bool(self.n_queried <= self.paper_bound)

    @property
    def paper_B_holds(self) -> bool:
        """Whether ``N_T ≤ T^κ d ln(1 + N_T R²/(µd))`` on this run."""
        return bool(self.n_queried <= self.paper_bound_B)


def sslgc_label_complexity(X, trace, *, mu, kappa):
    """Evaluate gu2013's label-complexity bound (Thm 7, Eq. 26) on an SSLGC run.

    A queried round has ``r_t > t^{-κ} ≥ T^{-κ}``, so ``N_T < T^κ Σ_𝒬 r_t`` (``𝒬`` the
    queried rounds). gu2013 then bounds ``Σ_𝒬 r_t ≤ d ln(1 + N_T/(µd))`` by the
    log-determinant lemma, which needs every queried round in ``A`` and ``||m_t|| ≤ 1``;
    SSLGC adds only the queried mistakes ``𝒰``. What holds (notebook 06, §3), with
    ``C = 𝒬 \\ 𝒰`` and ``R² = max_t ||m_t||²``:

    ``N_T < T^κ [Σ_𝒰 r_t + Σ_C r_t] ≤ T^κ [d ln(1 + |𝒰|R²/(µd)) + Σ_C r_t]``.

    Parameters
    ----------
    X : array of shape (d, n)
        The features of the run.
    trace : Trace
        ``gs.online.run(gs.online.SSLGC(mu=mu, kappa=kappa), X, y, ..., record=("r",))``
        with the default ``r_t = v_t/(1 + v_t)``.
    mu : float > 0
        ``A_0 = µI`` of the run.
    kappa : float >= 0
        The query exponent of the run.

    Returns
    -------
    SSLGCLabelComplexity

    Raises
    ------
    ValueError
        No recorded ``r``; ``r_t`` outside ``[0, 1)`` (not the default convention);
        queries that break the rule "query iff ``r_t > t^{-κ}``" for this ``kappa``.
    """
    X = check_features(X)
    mu = check_positive(mu, "mu")
    kappa = check_positive(kappa, "kappa", allow_zero=True)
    check_run(trace, X, multiclass=False, record=("r",))
    r = trace.records["r"]
    T, d = trace.n_rounds, X.shape[0]
    if not np.all((r >= 0) & (r < 1)):
        raise ValueError("recorded r_t outside [0, 1): run SSLGC with include_current=True (the default)")
    threshold = np.array([t ** (-kappa) for t in range(1, T + 1)])  # as SSLGC computes it
    Q = trace.queried
    if not np.array_equal(Q, r > threshold):
        t = int(np.flatnonzero(Q != (r > threshold))[0])
        raise ValueError(
            f"round {t + 1} breaks the query rule r_t > t^(-kappa) for kappa = {kappa:g}: "
            f"the trace is not a run of SSLGC(kappa={kappa:g})"
        )
    U = Q & trace.mistakes
    Cq = Q & ~trace.mistakes
    N = int(Q.sum())
    B = float(max_sq_norm(X, trace.order))
    Xu = X[:, trace.order[U]]
    logdet = float(np.sum(np.log1p(np.clip(np.linalg.eigvalsh(Xu @ Xu.T), 0, None) / mu)))
    return SSLGCLabelComplexity(
        n_rounds=T,
        d=d,
        n_queried=N,
        n_updates=int(U.sum()),
        n_queried_correct=int(Cq.sum()),
        sum_r_queried=r[Q].sum(),
        sum_r_updates=r[U].sum(),
        sum_r_correct=r[Cq].sum(),
        logdet=logdet,
        B=B,
        step1=T**kappa * r[Q].sum(),
        bound=T**kappa * (d * np.log1p(U.sum() * B / (mu * d)) + r[Cq].sum()),
        paper_bound=T**kappa * d * np.log1p(N / (mu * d)),
        paper_bound_B=T**kappa * d * np.log1p(N * B / (mu * d)),
    )


def sslgc_label_bound(T, d, *, mu, kappa):
    """The largest ``N ≥ 0`` allowed by gu2013's label-complexity bound ``N ≤ T^κ d ln(1 + N/(µd))``.

    gu2013 Thm 7 (Eq. 26) bounds the number of queries ``N_T`` only implicitly.
    ``g(N) = T^κ d ln(1 + N/(µd)) − N`` is concave with ``g(0) = 0`` and
    ``g'(0) = T^κ/µ − 1``: if ``T^κ ≤ µ`` only ``N = 0`` satisfies the bound,
    otherwise every ``N`` up to the positive root of ``g``, returned here (the
    bound as an explicit number; it grows with ``T``, ``d`` and ``κ`` and falls with ``µ``).

    Parameters
    ----------
    T : float > 0
        Number of rounds.
    d : float > 0
        Dimension of the features.
    mu : float > 0
        ``A_0 = µI``.
    kappa : float >= 0
        The query exponent.

    Returns
    -------
    float

    Examples
    --------
    >>> N = sslgc_label_bound(1000, 10, mu=1.0, kappa=0.4)
    >>> round(N, 2), bool(abs(1000**0.4 * 10 * np.log1p(N / 10) - N) < 1e-9 * N)
    (668.37, True)
    """
    T = check_positive(T, "T")
    d = check_positive(d, "d")
    mu = check_positive(mu, "mu")
    kappa = check_positive(kappa, "kappa", allow_zero=True)
    ca = T**kappa / mu  # in x = N/(µd): N ≤ bound  <=>  x ≤ ca ln(1 + x)
    if ca <= 1.0:
        return 0.0

    def g(x):
        return ca * np.log1p(x) - x

    lo = (ca - 1.0) / ca  # g(x) ≥ x ((ca - 1) - ca x / 2) > 0 here, by ln(1 + x) ≥ x - x²/2
    hi = 2.0 * ca
    while g(hi) > 0:  # ln(1 + x) grows slower than x: doubling brackets the root
        hi *= 2.0
    return float(mu * d * brentq(g, lo, hi, xtol=1e-14, rtol=1e-15))


def vacuous_from(kappa, bound, T):
    """The smallest ``κ`` from which a label-complexity bound exceeds ``T`` for that ``κ`` and every larger one.

    A bound on the number of queries ``N_T ≤ T`` says nothing once it exceeds
    ``T``. gu2013's bound ``T^κ d ln(1 + N_T/(µd))`` (Thm 7, Eq. 26) and the one
    that holds for SSLGC (:func:`sslgc_label_complexity`, notebook 06 §3) both
    carry the factor ``T^κ``, so they grow with ``κ``; this reads, from a
    bound evaluated on a grid of ``κ``, where it becomes vacuous for good.

    Parameters
    ----------
    kappa : array of shape (k,)
        The grid of exponents (any order; ties not allowed).
    bound : array of shape (k,)
        The bound at each ``kappa`` (e.g. a mean over runs).
    T : float > 0
        The number of rounds.

    Returns
    -------
    float or None
        The smallest ``kappa[j]`` with ``bound > T`` at ``kappa[j]`` and at every
        larger ``κ`` of the grid; ``None`` if the bound at the largest ``κ`` is ``≤ T``.

    Examples
    --------
    >>> vacuous_from([0.1, 0.2, 0.3, 0.4], [50.0, 120.0, 90.0, 400.0], T=100)
    0.4
    >>> vacuous_from([0.1, 0.2], [50.0, 60.0], T=100) is None
    True
    """
    kappa = as_real_array(kappa, "kappa", ndim=1)
    bound = check_shape(as_real_array(bound, "bound", ndim=1), kappa.shape, "bound")
    T = check_positive(T, "T")
    if np.unique(kappa).size != kappa.size:
        raise ValueError("kappa must not repeat a value")
    order = np.argsort(kappa)
    above = bound[order] > T
    if not above.size or not above[-1]:
        return None
    j = above.size - np.argmin(above[::-1]) if not above.all() else 0  # first index of the final run of True
    return float(kappa[order][j])
