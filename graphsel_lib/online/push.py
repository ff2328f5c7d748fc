"""Local push for personalised PageRank and the relaxation kernel's columns (FastONL, Zhou et al. 2023).

**Identity with personalised PageRank.** Let ``P = S D^{-1}`` (column
stochastic random walk), ``α = β / (n + β)`` and
``Π = α (I − (1 − α) P)^{-1}``, whose column ``s`` is the PPR vector of
source ``s`` with teleport probability α (``Π[:, s] ≥ 0`` sums to 1). Then::

    K^{-1} = (1/(2β)) [(1 + β/n) I − D^{-1/2} S D^{-1/2}]
           = ((n + β)/(2nβ)) [I − (1 − α) D^{-1/2} S D^{-1/2}]          (1 − α = n/(n + β))

and ``D^{-1/2} S D^{-1/2} = D^{-1/2} P D^{1/2}``, so
``[I − (1−α) D^{-1/2} S D^{-1/2}]^{-1} = D^{-1/2} (I − (1−α)P)^{-1} D^{1/2} = D^{-1/2} Π D^{1/2} / α``.
With ``2nβ / ((n + β) α) = 2n``::

    K = 2n · D^{-1/2} Π D^{1/2},     K[i, u] = 2n · sqrt(d_u / d_i) · Π[i, u],     K_uu = 2n Π_uu.

:func:`ppr_push` approximates ``Π[:, u]`` by the local "forward push"
(Andersen, Chung, Lang 2006): a residual ``r = e_u`` is pushed from any node
``i`` with ``r_i ≥ ε d_i`` (``x_i += α r_i``, each neighbour ``j`` gets
``(1−α) r_i S_ij / d_i``, ``r_i = 0``) in FIFO order until no node qualifies;
the source itself is pushed first whatever its degree (so ``x_u ≥ α`` even for
a hub with ``ε d_u > 1``, which the rule alone would leave at ``x = 0``).
The invariant ``Π[:, u] = x + Π r`` gives ``0 ≤ Π[:, u] − x ≤ Π r`` entrywise
and ``‖Π[:, u] − x‖₁ = ‖r‖₁ < ε vol(S)``; the work is ``O(1/(α ε))``, independent
of ``n``. :func:`push_kernel_column` returns the scaled column.

The push loop runs in pure Python, or compiled by numba when that optional
package is importable (:class:`Pusher`, identical results).
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np
import scipy.sparse as sp

from .._validation import check_integer, check_positive, check_probability
from ..graph import check_adjacency

__all__ = ["LOOKAHEAD_NODES", "PUSH_BACKENDS", "Pusher", "ppr_push", "push_kernel_column"]


def _check_graph(S: Any) -> tuple[sp.csr_matrix, np.ndarray]:
    S = check_adjacency(S, drop_loops=True)
    deg = np.asarray(S.sum(axis=1)).ravel()
    if np.any(deg <= 0):
        raise ValueError(
            f"the relaxation kernel needs every node to have an edge: {int(np.sum(deg <= 0))} isolated node(s)"
        )
    return S.tocsr(), deg


PUSH_BACKENDS = ("auto", "python", "numba")
LOOKAHEAD_NODES = 2**18  # from this many nodes the compiled push prefetches ahead (see Pusher)


def _numba_available():
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def _numba_push():
    """The push loop compiled by numba (:func:`~graphsel_lib.online.relaxation_loop.push`; same operations in the same order)."""
    from .relaxation_loop import push

    return push


class Pusher:
    """Forward push (FIFO order) on one graph, with scratch space reused across sources.

    ``pusher(s, alpha, eps)`` returns ``(nodes, x)``, the non-zero entries of
    the approximate PPR vector ``x ≈ Π[:, s]`` (``nodes`` sorted). A node ``i``
    is pushed while ``r_i ≥ ε d_i``: ``x_i += α r_i``, every neighbour ``j`` gets
    ``(1 − α) r_i S_ij / d_i``, ``r_i = 0``; a node enters the queue when its
    residual reaches its threshold and is not queued already. The source is
    pushed first whatever its degree (a hub with ``ε d_s > 1`` would otherwise
    get the zero vector, and the relaxation learner ``K_ss = 0``); so ``x_s ≥ α``.

    ``backend="python"`` runs the loop on Python lists (no dependency);
    ``"numba"`` runs the same operations in the same order compiled by numba
    (a dependency of graphsel; identical results, much faster: see
    ``benchmarks/bench_online.py``); ``"auto"`` picks numba when importable. Both cost ``O(1/(α ε))`` per call, independent of ``n`` (the scratch
    arrays are reset only where touched).

    ``lookahead`` (numba backend): while a node is pushed, ask the processor
    for the residuals of the next node's neighbours (prefetch hints: the
    results are the same either way). ``"auto"`` turns it on from
    ``LOOKAHEAD_NODES`` = 2^18 nodes, where the 16-byte residual records
    (4 MiB) outgrow a core's caches. On the generated graphs of
    ``benchmarks/bench_scale.py`` (which prints both), in three runs, the
    extra loop cost a push 11–13% at 10^4 nodes and 0–9% at 10^5, and saved
    15–23% at 10^6.
    """

    def __init__(self, S: Any, *, backend: str = "auto", lookahead: bool | str = "auto") -> None:
        self._setup(*_check_graph(S), backend, lookahead)

    @classmethod
    def of_checked(
        cls, S: sp.csr_matrix, deg: np.ndarray, *, backend: str = "auto", lookahead: bool | str = "auto"
    ) -> Pusher:
        """The pusher of ``S`` and its degrees ``deg`` as ``_check_graph`` returned them (not validated again)."""
        pusher = cls.__new__(cls)
        pusher._setup(S, deg, backend, lookahead)
        return pusher

    def _setup(self, S: sp.csr_matrix, deg: np.ndarray, backend: str, lookahead: bool | str) -> None:
        if backend not in PUSH_BACKENDS:
            raise ValueError(f"backend must be one of {PUSH_BACKENDS}, got {backend!r}")
        if lookahead not in ("auto", True, False):
            raise ValueError(f"lookahead must be 'auto', True or False, got {lookahead!r}")
        if backend == "auto":
            backend = "numba" if _numba_available() else "python"
        elif backend == "numba" and not _numba_available():
            raise ValueError("backend='numba' needs the optional package numba (pip install numba)")
        self.backend = backend
        self.lookahead = False  # the numba backend's prefetch hints (below)
        self.n = n = S.shape[0]
        self.deg = deg
        if backend == "python":
            indices, data, bounds = S.indices.tolist(), S.data.tolist(), S.indptr.tolist()
            self._nbrs = [indices[bounds[i] : bounds[i + 1]] for i in range(n)]
            self._wts = [data[bounds[i] : bounds[i + 1]] for i in range(n)]
            self._deg = deg.tolist()
            self._r, self._x, self._inq = [0.0] * n, [0.0] * n, [False] * n
        else:
            # 32-bit node ids where they fit: half the memory traffic of a hub's neighbour list
            ids = np.int32 if n < 2**31 else np.int64
            data = S.data.astype(np.float64)
            unit_weights = bool(np.all(data == 1.0))  # unweighted: the push never reads the weights
            if lookahead == "auto":
                lookahead = n >= LOOKAHEAD_NODES
            self.lookahead = bool(lookahead)
            self._csr = (S.indptr.astype(np.int64), S.indices.astype(ids), data, unit_weights, self.lookahead)
            # a neighbour's visit reads and writes (residual, ε · degree), 16 bytes side by side: on a
            # large graph each separate array costs a cache miss of its own, and 16 bytes a node keep a
            # 10^6-node graph's residuals in a 32 MB cache; (estimate, degree) only for the pushed nodes
            self._residual_threshold = np.zeros((n, 2))
            self._estimate_degree = np.zeros((n, 2))
            self._estimate_degree[:, 1] = deg
            self._eps: float | None = None  # the ε of the thresholds in self._residual_threshold[:, 1]
            self._node_state = np.zeros(n, dtype=np.uint8)  # 0 untouched, 1 touched, 2 queued; +4 pushed
            self._queue = np.zeros(n, dtype=ids)
            self._touched = np.zeros(n, dtype=ids)
            self._vals = np.zeros(n)
            # compile the loop (or load it from numba's on-disk cache) now, not in the first timed call
            self(0, 0.5, 1e-4)

    def kernel_args(self, eps: float) -> tuple:
        """The graph and scratch arrays of the compiled push with tolerance ``eps`` (numba backend).

        ``(indptr, indices, data, unit_weights, lookahead, residual_threshold, estimate_degree,
        node_state, queue, touched, vals)`` in the order of
        :func:`~graphsel_lib.online.relaxation_loop.push`'s arguments (``alpha, eps, s`` go
        between ``lookahead`` and ``residual_threshold``), the fields of a
        :class:`~graphsel_lib.online.relaxation_loop.PushKernel` before ``alpha``.
        """
        if self.backend != "numba":
            raise ValueError("only the numba backend has compiled-kernel arrays")
        if eps != self._eps:  # thresholds ε d_v, computed as the Python path compares them
            self._residual_threshold[:, 1] = eps * self.deg
            self._eps = eps
        return (
            *self._csr,
            self._residual_threshold,
            self._estimate_degree,
            self._node_state,
            self._queue,
            self._touched,
            self._vals,
        )

    def __call__(self, s: int, alpha: float, eps: float) -> tuple[np.ndarray, np.ndarray]:
        if self.backend == "numba":
            graph = self.kernel_args(eps)
            k = _numba_push()(*graph[:5], alpha, eps, s, *graph[5:])
            order = np.argsort(self._touched[:k], kind="stable")
            return self._touched[:k][order].astype(np.int64), self._vals[:k][order]
        return self._python(s, alpha, eps)

    def _python(self, s, alpha, eps):
        nbrs, wts, deg = self._nbrs, self._wts, self._deg
        r, x, inq = self._r, self._x, self._inq
        keep = 1.0 - alpha
        r[s] = 1.0
        touched = [s]
        queue = deque([s])
        inq[s] = True
        pop, append, touch = queue.popleft, queue.append, touched.append
        first = True
        while queue:
            u = pop()
            inq[u] = False
            ru = r[u]
            du = deg[u]
            if ru < eps * du and not first:
                continue
            first = False
            x[u] += alpha * ru
            r[u] = 0.0
            share = keep * ru / du
            for v, w in zip(nbrs[u], wts[u], strict=True):
                rv = r[v]
                if rv == 0.0 and x[v] == 0.0:
                    touch(v)
                rv = rv + share * w
                r[v] = rv
                if not inq[v] and rv >= eps * deg[v]:
                    append(v)
                    inq[v] = True
        touched.sort()
        nodes, vals = [], []
        for v in touched:
            if x[v] != 0.0:
                nodes.append(v)
                vals.append(x[v])
            x[v] = 0.0
            r[v] = 0.0
        return np.array(nodes, dtype=np.intp), np.array(vals, dtype=np.float64)


def ppr_push(
    S: Any, s: int, alpha: float, eps: float, *, backend: str = "auto"
) -> tuple[np.ndarray, np.ndarray]:
    """Approximate personalised PageRank ``Π[:, s] = α (I − (1−α) S D^{-1})^{-1} e_s`` by forward push.

    Andersen–Chung–Lang push in FIFO order: push the source, then every node
    ``i`` with residual ``r_i ≥ ε d_i``; on return ``0 ≤ Π[:, s] − x`` and ``‖Π[:, s] − x‖₁ < ε vol(S)``.
    Work ``O(1/(α ε))``, independent of the number of nodes.

    Parameters
    ----------
    S : sparse matrix of shape (n, n)
        Symmetric non-negative weights, no isolated node.
    s : int
        Source node.
    alpha : float in (0, 1]
        Teleport probability.
    eps : float > 0
        Push tolerance (per unit of degree).
    backend : {"auto", "python", "numba"}
        See :class:`Pusher`.

    Returns
    -------
    nodes : ndarray of int, values : ndarray of float
        The non-zero entries of ``x`` (``nodes`` sorted).
    """
    return _ppr(*_check_graph(S), s, alpha, eps, backend)


def _ppr(S, deg, s, alpha, eps, backend):
    """:func:`ppr_push` on a graph :func:`_check_graph` returned (validated once)."""
    alpha = check_probability(alpha, "alpha", low_open=True)
    eps = check_positive(eps, "eps")
    s = check_integer(s, "s (the source node)")
    if not 0 <= s < S.shape[0]:
        raise ValueError(f"source node must be in 0..{S.shape[0] - 1}, got {s}")
    return Pusher.of_checked(S, deg, backend=backend)(s, alpha, eps)


def push_kernel_column(
    S: Any, u: int, beta: float, eps: float, *, backend: str = "auto"
) -> tuple[np.ndarray, np.ndarray]:
    """Push approximation of ``K[:, u]``: ``2n sqrt(d_u/d_i) x_i`` with ``x ≈ Π[:, u]``, ``α = β/(n+β)``.

    Returns ``(nodes, values)`` of the non-zero entries (``nodes`` sorted).
    """
    S, deg = _check_graph(S)
    beta = check_positive(beta, "beta")
    n = S.shape[0]
    nodes, x = _ppr(S, deg, u, beta / (n + beta), eps, backend)
    return nodes, 2.0 * n * np.sqrt(deg[u] / deg[nodes]) * x
