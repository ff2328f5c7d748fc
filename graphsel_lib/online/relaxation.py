r"""Relaxation-based online node classification and FastONL (beyond the two papers).

The learner of Rakhlin & Sridharan (AISTATS 2017, "Efficient online multiclass
prediction on graphs via surrogate losses") with the graph kernel and the
local push approximation of FastONL (Zhou, Sun, Babanezhad Harikandeh, ICML
2023, "Fast Online Node Labeling for Very Large Graphs"; public code
``baojian/FastONL``, ``algo.py``/``utils.py``, read for the definitions, not
copied).

Kernel
------
With ``L_sym = I − D^{-1/2} S D^{-1/2}`` (the normalised Laplacian), ``n``
nodes and a scale ``β > 0``::

    K = (L_sym / (2β) + I / (2n))^{-1}                                   (n × n, SPD)

(FastONL's "kernel 2" with its λ = β; β is tuned as a fraction of n).

Its columns are personalised PageRank vectors, computed locally by the push
of :mod:`graphsel_lib.online.push`.

Learner (Rakhlin & Sridharan 2017; Zhou et al. 2023)
-----------------
State: ``G`` (one column ``g_s ∈ ℝ^C`` per revealed node, 0 for the others;
``C`` = number of classes), ``a = 0``, ``τ = τ₀`` (``trace K``). Round t, node u::

    v = G K[:, u]                      (C,)
    ψ = −v / sqrt(a + C τ)
    q = Π_Δ(ψ)                         Euclidean projection onto the simplex ("water filling")
    predict argmax q                   (smallest index on ties)
    reveal y_u;  g = ∇ℓ(ψ, y_u)        multiclass hinge surrogate below
    G[:, u] = g;  a += 2 gᵀv + K_uu ‖g‖²;  τ −= K_uu

``a`` is ``tr(G K Gᵀ)`` over the revealed nodes (each step adds the new
column's terms), and ``τ`` the trace of ``K`` over the nodes not yet seen.
With the push kernel ``trace K = 2n Σ_i Π_ii`` is not known before the pass
(it would need every diagonal entry); since ``Π_ii ≤ 1``, ``τ₀ = 2n²`` is an
upper bound (FastONL's public code starts from it), the default there. A
larger τ₀ only shrinks ψ (the relaxation stays admissible).

**Surrogate** (:func:`multiclass_hinge`, as FastONL's ``loss_grad_val``). Let
``q = Π_Δ(ψ) = max(ψ − θ, 0)`` and ``S = {i : q_i > 0}`` its support::

    y ∈ S:  ℓ = 1 − ψ_y + (Σ_{i∈S} ψ_i − 1)/|S|  (= 1 − q_y),       ∇ℓ = 1_S/|S| − e_y
    y ∉ S:  ℓ = c (1 + ψ_j − ψ_y), j = argmax_{i≠y} ψ_i, c = |S|/(|S|+1),   ∇ℓ = c (e_j − e_y)

In both cases ``ℓ ≥ 1 − q_y``, the probability that a draw from ``q`` is
wrong (if ``y ∉ S``: ``ψ_j − ψ_y ≥ max ψ − θ ≥ 1/|S|``, so ``ℓ ≥ 1``).

Node-id features
----------------
The protocol (:mod:`graphsel_lib.online.protocol`) hands a learner the column
``m_t`` of ``M``, not the node. This learner is built with the graph and
reads the node from a one-row feature matrix ``M = node_ids(n)`` (``M[0, u] = u``
as a float), so :func:`~graphsel_lib.online.run` works unchanged::

    learner = Relaxation(S, beta=0.1 * n, kernel="push", eps=1e-4)
    trace = run(learner, node_ids(n), y, seed=0)

``reset`` raises unless ``d == 1``; ``predict`` raises for a non-integer id,
one outside ``0..n-1`` or a node shown twice in a pass.

Speed
-----
``kernel="exact"``: one dense ``K`` (Cholesky, O(n³) once), then O(n C) per
round. ``kernel="push"``: O(1/(α ε)) per round for the push plus
O(support · C); the push loop runs in pure Python, or compiled by numba when
that optional package is importable (:class:`Pusher`, identical results).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
from numpy.typing import ArrayLike

from .._validation import check_integer, check_positive
from ._params import Params
from .protocol import CompiledRule, Info
from .push import Pusher, _check_graph

__all__ = [
    "Relaxation",
    "node_ids",
    "project_simplex",
    "multiclass_hinge",
    "relaxation_kernel",
    "relaxation_kernel_trace",
    "KERNELS",
    "MAX_DENSE_NODES",
    "kernel_for",
]

KERNELS = ("exact", "push")


# --------------------------------------------------------------------------- small pieces


def node_ids(n: int) -> np.ndarray:
    """The (1, n) float feature matrix ``[[0, 1, ..., n-1]]`` that :class:`Relaxation` reads node ids from.

    Parameters
    ----------
    n : int ≥ 1
        Number of nodes.

    Returns
    -------
    ndarray of shape (1, n)

    Examples
    --------
    >>> node_ids(3)
    array([[0., 1., 2.]])
    """
    n = check_integer(n, "n")
    if n < 1:
        raise ValueError(f"n must be a positive number of nodes, got {n}")
    return np.arange(n, dtype=np.float64)[None, :]


MAX_DENSE_NODES = 6000  #: the largest graph the exact (dense) kernel is built for


def kernel_for(n_nodes: int) -> str:
    """``"exact"`` up to :data:`MAX_DENSE_NODES` nodes (a dense K, built once), ``"push"`` beyond (FastONL)."""
    return "exact" if n_nodes <= MAX_DENSE_NODES else "push"


def read_node_id(x, n, seen):
    """The node id a round's feature ``x`` (a column of :func:`node_ids`) names; an error for any other or a repeat."""
    f = float(x[0])
    u = int(f)
    if u != f or not 0 <= u < n:
        raise ValueError(f"feature {f!r} is not a node id in 0..{n - 1}: run on M = node_ids(n)")
    if seen[u]:
        raise ValueError(f"node {u} shown twice in one pass")
    return u


def project_simplex(psi: ArrayLike, *, return_support: bool = False) -> Any:
    """Euclidean projection of ``psi`` onto the probability simplex (sort-based water filling).

    ``q = argmin_{q ≥ 0, Σq = 1} ‖q − ψ‖`` is ``q = max(ψ − θ, 0)`` with the
    threshold θ chosen so that ``Σ q = 1`` (Held, Wolfe, Crowder 1974; Duchi et
    al. 2008): sort ``ψ`` decreasingly as ``s_1 ≥ … ≥ s_K``, take the largest
    ``ρ`` with ``s_ρ − (Σ_{j≤ρ} s_j − 1)/ρ > 0`` and ``θ = (Σ_{j≤ρ} s_j − 1)/ρ``.

    Parameters
    ----------
    psi : array-like of shape (K,)
        Finite scores, K ≥ 1.
    return_support : bool, default False
        Also return the boolean support ``q > 0``.

    Returns
    -------
    q : ndarray of shape (K,)
    support : ndarray of bool, shape (K,)  (only with ``return_support``)

    Raises
    ------
    ValueError
        If ``psi`` is not 1-D, empty or not finite.

    Examples
    --------
    >>> project_simplex([0.0, 0.0]).tolist()
    [0.5, 0.5]
    >>> project_simplex([2.0, 0.5, -1.0]).tolist()
    [1.0, 0.0, 0.0]
    """
    psi = np.asarray(psi, dtype=np.float64)
    if psi.ndim != 1 or psi.size == 0:
        raise ValueError(f"psi must be a non-empty 1-D array, got shape {psi.shape}")
    if not np.all(np.isfinite(psi)):
        raise ValueError("psi contains NaN or infinite entries")
    s = np.sort(psi)[::-1]
    css = np.cumsum(s) - 1.0
    ks = np.arange(1, psi.size + 1)
    rho = int(np.nonzero(s - css / ks > 0)[0][-1])  # s_1 - (s_1 - 1) = 1 > 0: never empty
    theta = css[rho] / (rho + 1)
    q = np.maximum(psi - theta, 0.0)
    if return_support:
        return q, q > 0
    return q


def multiclass_hinge(psi: ArrayLike, y: int, q: np.ndarray | None = None) -> tuple[float, np.ndarray]:
    """Multiclass hinge surrogate ``ℓ(ψ, y)`` and its gradient in ``ψ`` (FastONL, Rakhlin–Sridharan).

    With ``q = Π_Δ(ψ)`` (:func:`project_simplex`) and ``S`` its support::

        y ∈ S:  ℓ = 1 − ψ_y + (Σ_{i∈S} ψ_i − 1)/|S| = 1 − q_y,      ∇ = 1_S/|S| − e_y
        y ∉ S:  ℓ = c (1 + ψ_j − ψ_y),  j = argmax_{i≠y} ψ_i,  c = |S|/(|S|+1),   ∇ = c (e_j − e_y)

    (``j`` the smallest such index on ties). ``ℓ ≥ 1 − q_y`` always.

    Parameters
    ----------
    psi : array-like of shape (K,)
    y : int in 0..K-1
    q : ndarray of shape (K,), optional
        ``project_simplex(psi)`` if already computed.

    Returns
    -------
    loss : float
    grad : ndarray of shape (K,)
    """
    psi = np.asarray(psi, dtype=np.float64)
    K = psi.size
    y = int(y)
    if not 0 <= y < K:
        raise ValueError(f"label y must be in 0..{K - 1}, got {y}")
    if q is None:
        q = project_simplex(psi)
    support = q > 0
    m = int(support.sum())
    grad = np.zeros(K)
    if support[y]:
        loss = 1.0 - psi[y] + (float(psi[support].sum()) - 1.0) / m
        grad[support] = 1.0 / m
        grad[y] -= 1.0
    else:
        others = psi.copy()
        others[y] = -np.inf
        j = int(np.argmax(others))
        c = m / (m + 1.0)
        loss = c * (1.0 + psi[j] - psi[y])
        grad[j] = c
        grad[y] = -c
    return float(loss), grad


def _check_beta(beta):
    return check_positive(beta, "beta")


def _dense_normalised(S, deg, max_nodes, what):
    """Dense ``D^{-1/2} S D^{-1/2}``; ``what``, a dense computation, refuses more than ``max_nodes`` nodes."""
    n = S.shape[0]
    if n > max_nodes:
        raise ValueError(f"{what} needs n ≤ max_nodes={max_nodes}, got n = {n}")
    dm = 1.0 / np.sqrt(deg)
    return (sp.diags(dm) @ S @ sp.diags(dm)).toarray()


def relaxation_kernel(S: Any, beta: float, *, max_nodes: int = MAX_DENSE_NODES) -> np.ndarray:
    """Dense ``K = (L_sym/(2β) + I/(2n))^{-1}`` by a Cholesky factorisation (small graphs).

    Raises ``ValueError`` for ``β ≤ 0``, isolated nodes, or more than ``max_nodes`` nodes.
    """
    S, deg = _check_graph(S)
    return _dense_kernel(S, deg, _check_beta(beta), max_nodes)


def _dense_kernel(S, deg, beta, max_nodes):
    """:func:`relaxation_kernel` on a checked graph and β (the learner's, validated when it was built)."""
    n = S.shape[0]
    A = -_dense_normalised(S, deg, max_nodes, "the dense relaxation kernel")  # K^{-1} = L_sym/(2β) + I/(2n)
    A[np.diag_indices(n)] += 1.0
    A /= 2.0 * beta
    A[np.diag_indices(n)] += 1.0 / (2.0 * n)
    c = sla.cho_factor(A, lower=False)
    K = sla.cho_solve(c, np.eye(n))
    return (K + K.T) / 2


def relaxation_kernel_trace(S: Any, beta: float, *, max_nodes: int = MAX_DENSE_NODES) -> float:
    """``trace K = Σ_i 1/(λ_i/(2β) + 1/(2n))`` over the eigenvalues λ_i of ``L_sym`` (dense, small graphs)."""
    S, deg = _check_graph(S)
    return _dense_kernel_trace(S, deg, _check_beta(beta), max_nodes)


def _dense_kernel_trace(S, deg, beta, max_nodes):
    """:func:`relaxation_kernel_trace` on a checked graph and β."""
    n = S.shape[0]
    lam = np.linalg.eigvalsh(
        np.eye(n) - _dense_normalised(S, deg, max_nodes, "trace K (a dense eigendecomposition)")
    )
    return float(np.sum(1.0 / (lam / (2.0 * beta) + 1.0 / (2.0 * n))))


# --------------------------------------------------------------------------- the learner


def _relaxation_loop():
    """:mod:`~graphsel_lib.online.relaxation_loop` (numba), or None if numba cannot be imported (a static import: the cache key follows it)."""
    try:
        from . import relaxation_loop
    except ImportError:  # numba missing or broken: the learners run their Python rounds
        return None
    return relaxation_loop


class Relaxation(Params):
    r"""Relaxation-based multiclass online node classifier (Rakhlin–Sridharan 2017; FastONL 2023).

    See the module docstring for the kernel ``K = (L_sym/(2β) + I/(2n))^{-1}``,
    its PPR form ``K = 2n D^{-1/2} Π D^{1/2}``, the round and the surrogate.
    Fully supervised: every label is revealed (``wants_label`` is True), so it
    is an upper reference for the selective samplers, not a peer on queries.

    **Node-id features.** The learner holds the graph and reads the node of
    each round from its single feature, so run it on ``M = node_ids(n)``
    (shape (1, n), ``M[0, u] = u``), e.g.
    ``run(learner, learner.node_features(), y, seed=0)``.

    Parameters
    ----------
    S : sparse matrix or array of shape (n, n)
        Symmetric non-negative weights; every node needs an edge (the graph may
        be disconnected: ``K`` stays positive definite thanks to ``I/(2n)``).
    beta : float > 0
        Kernel scale β (FastONL's λ); tune it as a fraction of n. Teleport
        probability of the equivalent PPR: ``α = β/(n+β)``.
    kernel : {"exact", "push"}, default "exact"
        ``"exact"``: dense K computed once (Cholesky, n ≤ ``max_dense_nodes``),
        a round reads its row: O(n C). ``"push"``: FastONL, ``K[:, u]`` from a
        forward push with tolerance ``eps`` (:func:`push_kernel_column`), a
        round costs O(1/(α ε) + support · C), independent of n.
    eps : float > 0, default 1e-4
        Push tolerance (``"push"`` only).
    tau0 : {"trace", "bound"} or float, optional
        Initial τ. ``"trace"``: ``trace K`` (exact for ``"exact"``, from
        a dense eigendecomposition for ``"push"``, so n ≤ ``max_dense_nodes``).
        ``"bound"``: ``2n² ≥ trace K`` (as ``Π_uu ≤ 1``; FastONL's public code
        starts from this bound). Default: ``"trace"`` for ``"exact"``,
        ``"bound"`` for ``"push"``. A larger τ₀ keeps the relaxation admissible
        but shrinks ψ towards 0 (q towards uniform).
    push_backend : {"auto", "python", "numba"}, default "auto"
        Loop of the push (:class:`Pusher`): identical results, numba (optional,
        used when importable) is about 18× faster than pure Python.
    max_dense_nodes : int, default 6000

    Attributes
    ----------
    n, alpha, tau0_value : number of nodes, ``β/(n+β)``, the resolved τ₀.

    ``info`` per round: ``score`` (q, shape (C,)), ``psi``, ``v``, ``kuu``
    (``K_uu``), ``node``, ``support`` (size of the push support, n for
    ``"exact"``) and after the update ``loss``.

    Raises
    ------
    ValueError
        β ≤ 0, eps ≤ 0, unknown kernel or tau0, isolated nodes, a non-symmetric
        or negative S, a dense kernel on too large a graph; at run time, features
        that are not node ids.

    Examples
    --------
    >>> import numpy as np
    >>> from graphsel_lib.online import run
    >>> S = np.diag(np.ones(5), 1) + np.diag(np.ones(5), -1)  # the path 0 - 1 - ... - 5
    >>> trace = run(Relaxation(S, beta=1.0), node_ids(6), [0, 0, 0, 1, 1, 1], order=[0, 5, 1, 4, 2, 3])
    >>> trace.predictions.tolist(), trace.n_mistakes
    ([0, 0, 0, 1, 0, 0], 2)
    """

    multiclass = True

    def __init__(
        self,
        S: Any,
        *,
        beta: float,
        kernel: str = "exact",
        eps: float = 1e-4,
        tau0: str | float | None = None,
        push_backend: str = "auto",
        max_dense_nodes: int = MAX_DENSE_NODES,
    ) -> None:
        S, deg = _check_graph(S)
        self.beta = _check_beta(beta)
        if kernel not in KERNELS:
            raise ValueError(f"kernel must be one of {KERNELS}, got {kernel!r}")
        self.kernel = kernel
        self.eps = check_positive(eps, "eps")
        if tau0 is None:
            tau0 = "trace" if kernel == "exact" else "bound"
        if isinstance(tau0, str):
            if tau0 not in ("trace", "bound"):
                raise ValueError(f"tau0 must be 'trace', 'bound' or a positive number, got {tau0!r}")
        else:
            tau0_value = check_positive(tau0, "tau0")  # checked before the kernel is computed
        self.n = n = S.shape[0]
        self.S, self.push_backend = S, push_backend  # read back by get_params (repr, cache keys)
        self.alpha = self.beta / (n + self.beta)
        self.max_dense_nodes = check_integer(max_dense_nodes, "max_dense_nodes", minimum=1)
        self.tau0 = tau0
        if kernel == "exact":
            self._K = _dense_kernel(S, deg, self.beta, self.max_dense_nodes)
        else:
            self._pusher = Pusher.of_checked(S, deg, backend=push_backend)
            self._sqrt_deg = np.sqrt(deg)
        if isinstance(tau0, str):
            if tau0 == "trace":
                if kernel == "exact":
                    self.tau0_value = float(np.trace(self._K))
                else:
                    self.tau0_value = _dense_kernel_trace(S, deg, self.beta, self.max_dense_nodes)
            else:
                self.tau0_value = 2.0 * float(n) ** 2
        else:
            self.tau0_value = tau0_value

    def node_features(self) -> np.ndarray:
        """``node_ids(n)``: the feature matrix to run this learner on."""
        return node_ids(self.n)

    def kernel_column(self, u: int) -> tuple[np.ndarray, np.ndarray]:
        """``(nodes, values)`` of ``K[:, u]`` as this learner sees it (exact or pushed)."""
        if self.kernel == "exact":
            return np.arange(self.n), self._K[u].copy()
        nodes, vals = self._pusher(int(u), self.alpha, self.eps)
        vals *= (2.0 * self.n * self._sqrt_deg[u]) / self._sqrt_deg[nodes]
        return nodes, vals

    def reset(self, d: int, n_classes: int, rng: np.random.Generator) -> None:
        if d != 1:
            raise ValueError(
                f"Relaxation reads node ids: run it on M = node_ids(n) of shape (1, n), got d = {d} features"
            )
        self.n_classes = int(n_classes)
        self.G = np.zeros((self.n, self.n_classes))  # row u = g of node u (Gᵀ of the module docstring)
        self.a = 0.0
        self.tau = self.tau0_value
        self._seen = np.zeros(self.n, dtype=bool)

    def _node(self, x):
        return read_node_id(x, self.n, self._seen)

    def predict(self, x: np.ndarray) -> tuple[int, Info]:
        u = self._node(x)
        if self.kernel == "exact":
            k = self._K[u]  # row u = column u (K symmetric), contiguous
            v = k @ self.G
            kuu = float(k[u])
            size = self.n
        else:
            nodes, vals = self._pusher(u, self.alpha, self.eps)
            size = nodes.size
            vals *= (2.0 * self.n * self._sqrt_deg[u]) / self._sqrt_deg[nodes]
            v = vals @ self.G[nodes]
            kuu = float(vals[np.searchsorted(nodes, u)])  # = 2n x_u (x_u ≥ α: the source is always pushed)
        denom = self.a + self.n_classes * self.tau
        psi = -v / math.sqrt(denom) if denom > 0 else np.zeros(self.n_classes)
        q = project_simplex(psi)
        return int(np.argmax(q)), {"score": q, "psi": psi, "v": v, "kuu": kuu, "node": u, "support": size}

    def wants_label(self, x: np.ndarray, t: int, info: Info) -> bool:
        return True

    # --- the whole pass compiled (run, and the query wrappers around this learner)
    compiled_query_rules = ("every", "margin", "random")
    _compiled_keys = frozenset({"score", "psi", "v", "kuu", "node", "support"})

    @property
    def pass_releases_gil(self) -> bool:
        """True when passes run compiled without the GIL: the push kernel on numba's backend."""
        return self.kernel == "push" and self._pusher.backend == "numba"

    def compiled_form(self) -> CompiledRule | None:
        """The push kernel of the compiled rounds, or None.

        A :class:`~graphsel_lib.online.protocol.CompiledRule` of
        :func:`~graphsel_lib.online.relaxation_loop.play_relaxation` and the
        :class:`~graphsel_lib.online.relaxation_loop.PushKernel` (the graph,
        α, ε); None unless the kernel is ``"push"`` on numba's backend (or if
        numba cannot be imported). Its :meth:`compiled_pass` adds the query
        rule of a wrapper, so it plays the rule itself.
        """
        loop = _relaxation_loop() if self.pass_releases_gil else None
        if loop is None:
            return None
        graph = self._pusher.kernel_args(self.eps)
        return CompiledRule(loop.play_relaxation, loop.PushKernel(*graph, self.alpha, self.eps, 2.0 * self.n))

    def compiled_pass(
        self,
        X: np.ndarray,
        order: np.ndarray,
        y: np.ndarray,
        keys: tuple[str, ...],
        progress: Callable[[int], object] | None = None,
        *,
        query: tuple[str, float | None, np.random.Generator | None] = ("every", None, None),
    ) -> tuple | None:
        """Play every round of ``order`` in :func:`~graphsel_lib.online.relaxation_loop.relaxation_rounds`.

        The push kernel on numba's backend only; ``query = (rule, param, rng)``
        adds a query rule of :mod:`~graphsel_lib.online.query_wrappers`
        (``"margin"`` with ``b``, ``"random"`` with ``p``, drawing from
        ``rng``). Returns ``(predictions, scores, queried, elapsed, records)``
        with the state updated as the per-round methods would, or None
        (another kernel or backend, a key it does not record, features that
        are not the node ids ``0..n-1``, numba missing): ``run`` then plays
        the rounds in Python.
        """
        rule, param, rng = query
        form = self.compiled_form() if rule in self.compiled_query_rules else None
        if form is None:
            return None
        rl = _relaxation_loop()
        if not set(keys) <= self._compiled_keys | rl.RULE_RECORDS[rule]:
            return None
        if X.shape != (self.n, 1) or not np.array_equal(X[:, 0], np.arange(self.n)):
            return None  # not node ids: the Python path says what is wrong

        code = {"every": rl.EVERY, "margin": rl.MARGIN, "random": rl.RANDOM}[rule]
        query_rule = rl.QueryRule(code, 0.0 if param is None else float(param))
        rng = np.random.default_rng(0) if rng is None else rng  # EVERY draws nothing
        state = rl.RelaxationState(self.G, self._seen, np.array([self.a, self.tau]))
        out = form.play(form.rule, state, query_rule, rng, order, y, keys, progress)
        self.a, self.tau = float(state.a_tau[0]), float(state.a_tau[1])
        return out

    def update(self, x: np.ndarray, y: int, label: int, info: Info) -> None:
        loss, g = multiclass_hinge(info["psi"], y, info["score"])
        u, kuu = info["node"], info["kuu"]
        self.G[u] = g
        self._seen[u] = True
        self.a += 2.0 * float(g @ info["v"]) + kuu * float(g @ g)
        self.tau -= kuu
        info["loss"] = loss
