"""Naive twin of :class:`~graphsel_lib.online.relaxation.Relaxation`: the learner's definition, literally.

Dense everything: ``L_sym = I − D^{-1/2} S D^{-1/2}`` built as a dense array,
``K = (L_sym/(2β) + I/(2n))^{-1}`` by ``np.linalg.inv``, and every round
recomputes its quantities from their definitions instead of updating them::

    v = G K[:, u],   a = tr(G K Gᵀ),   τ = τ₀ − Σ_{seen s} K_ss,   ψ = −v / sqrt(a + C τ),

with ``G`` the (C × n) matrix of surrogate gradients (0 for unseen nodes).
The projection onto the simplex solves ``Σ_i max(ψ_i − θ, 0) = 1`` for θ by
bisection (:func:`reference_project_simplex`), not by sorting, and the hinge
surrogate is written out from its two cases. Slow (O(n² C) per round); for
tests only.
"""

from __future__ import annotations

import numpy as np

from .._params import Params

__all__ = ["ReferenceRelaxation", "reference_project_simplex", "reference_multiclass_hinge"]


def reference_project_simplex(psi, *, iters=200):
    """Projection onto the simplex by bisection on θ in ``Σ max(ψ − θ, 0) = 1``.

    ``h(θ) = Σ max(ψ_i − θ, 0)`` decreases from ``h(max ψ − 1) ≥ 1`` to
    ``h(max ψ) = 0``, so θ lies in ``[max ψ − 1, max ψ]``.
    """
    psi = np.asarray(psi, dtype=np.float64)
    lo, hi = psi.max() - 1.0, psi.max()
    for _ in range(iters):
        mid = 0.5 * (lo + hi)
        if np.maximum(psi - mid, 0.0).sum() > 1.0:
            lo = mid
        else:
            hi = mid
    return np.maximum(psi - 0.5 * (lo + hi), 0.0)


def reference_multiclass_hinge(psi, y, q):
    """The two cases of the FastONL surrogate, written out (see ``relaxation.multiclass_hinge``)."""
    K = len(psi)
    S = [i for i in range(K) if q[i] > 1e-12]
    grad = np.zeros(K)
    if y in S:
        loss = 1.0 - psi[y] + (sum(psi[i] for i in S) - 1.0) / len(S)
        for i in S:
            grad[i] += 1.0 / len(S)
        grad[y] -= 1.0
    else:
        j = max((i for i in range(K) if i != y), key=lambda i: (psi[i], -i))
        c = len(S) / (len(S) + 1.0)
        loss = c * (1.0 + psi[j] - psi[y])
        grad[j] += c
        grad[y] -= c
    return loss, grad


class ReferenceRelaxation(Params):
    """The relaxation learner with a dense inverse and per-round recomputation.

    Same interface and node-id features as ``Relaxation`` (``kernel="exact"``).

    Parameters
    ----------
    S : array-like of shape (n, n)
    beta : float > 0
    tau0 : "trace", "bound" or float, default "trace"
    """

    multiclass = True

    def __init__(self, S, *, beta, tau0="trace"):
        S = np.asarray(S.toarray() if hasattr(S, "toarray") else S, dtype=float)
        n = S.shape[0]
        d = S.sum(axis=1)
        Dm = np.diag(1.0 / np.sqrt(d))
        L_sym = np.eye(n) - Dm @ S @ Dm
        self.K = np.linalg.inv(L_sym / (2.0 * beta) + np.eye(n) / (2.0 * n))
        self.S, self.n, self.beta = S, n, beta
        if tau0 == "trace":
            self.tau0 = float(np.trace(self.K))
        elif tau0 == "bound":
            self.tau0 = 2.0 * n * n
        else:
            self.tau0 = float(tau0)

    def reset(self, d, n_classes, rng):
        self.C = n_classes
        self.G = np.zeros((n_classes, self.n))
        self.seen = []

    def predict(self, x):
        u = int(x[0])
        K, G = self.K, self.G
        v = G @ K[:, u]
        a = np.trace(G @ K @ G.T)
        tau = self.tau0 - sum(K[s, s] for s in self.seen)
        psi = -v / np.sqrt(a + self.C * tau)
        q = reference_project_simplex(psi)
        return int(np.argmax(q)), {"score": q, "psi": psi, "v": v, "a": a, "tau": tau, "node": u}

    def wants_label(self, x, t, info):
        return True

    def update(self, x, y, label, info):
        loss, g = reference_multiclass_hinge(info["psi"], y, info["score"])
        self.G[:, info["node"]] = g
        self.seen.append(info["node"])
        info["loss"] = loss
