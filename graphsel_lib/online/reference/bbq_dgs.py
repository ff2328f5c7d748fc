"""Naive twins of the BBQ, BBQ_ε and DGS baselines; ``BBQ_ε`` keeps the matrix of queried instances, DGS keeps ``W``."""

from __future__ import annotations

import numpy as np

from .._params import Params
from ._rules import second

__all__ = ["ReferenceBBQ", "ReferenceBBQEps", "ReferenceDGS"]


class ReferenceBBQ(Params):
    """Multiclass BBQ: ``p = (A^{-1}B)ᵀ m``; query iff ``mᵀ(A + m mᵀ)^{-1} m > t^{-κ}``; ``A += m mᵀ, B += m e_yᵀ``."""

    multiclass = True

    def __init__(self, *, gamma=1.0, kappa=0.4):
        self.kappa = float(kappa)
        self.gamma = float(gamma)

    def reset(self, d, n_classes, rng):
        self.K = int(n_classes)
        self.A = self.gamma * np.eye(d)
        self.B = np.zeros((d, self.K))

    def predict(self, x):
        p = np.linalg.solve(self.A, self.B).T @ x
        return int(np.argmax(p)), {"score": p}

    def wants_label(self, x, t, info):
        r = float(x @ np.linalg.solve(self.A + np.outer(x, x), x))
        info["r"] = r
        info["threshold"] = t ** (-self.kappa)
        return r > t ** (-self.kappa)

    def update(self, x, y, label, info):
        self.A = self.A + np.outer(x, x)
        self.B = self.B + np.outer(x, np.eye(self.K)[y])


class ReferenceBBQEps(ReferenceBBQ):
    """Multiclass BBQ_ε: with ``A_t = A + m mᵀ`` and ``S`` the queried instances (columns),
    query iff ``ε − r − s < q sqrt(2 ln(t(t+1)/(2δ)))``, ``r = mᵀA_t^{-1}m``, ``s = ‖A_t^{-1}m‖``,
    ``q = ‖Sᵀ A_t^{-1} m‖``."""

    def __init__(self, *, gamma=1.0, eps, delta=0.1):
        super().__init__(gamma=gamma, kappa=0.0)
        self.eps = float(eps)
        self.delta = float(delta)

    def reset(self, d, n_classes, rng):
        super().reset(d, n_classes, rng)
        self.S = np.zeros((d, 0))

    def wants_label(self, x, t, info):
        a = np.linalg.solve(self.A + np.outer(x, x), x)
        r = float(x @ a)
        s = float(np.linalg.norm(a))
        q = float(np.linalg.norm(self.S.T @ a))
        bound = np.sqrt(2 * np.log(t * (t + 1) / (2 * self.delta)))
        info.update(r=r, s=s, q=q, bound=bound)
        return self.eps - r - s < q * bound

    def update(self, x, y, label, info):
        super().update(x, y, label, info)
        self.S = np.column_stack([self.S, x])


class ReferenceDGS(Params):
    """Multiclass DGS: ``θ² = v(1 + 4Σ + 36 ln(t/δ))``, query iff the clipped top-two gap ``≤ 2θ``;
    on a query project every score into [−1, 1], then ``W = (A + m mᵀ)^{-1}(A W' + m e_yᵀ)``."""

    multiclass = True

    def __init__(self, *, gamma=1.0, delta=0.1):
        self.delta = float(delta)
        self.gamma = float(gamma)

    def reset(self, d, n_classes, rng):
        self.K = int(n_classes)
        self.A = self.gamma * np.eye(d)
        self.W = np.zeros((d, self.K))
        self.sum_r = 0.0

    def predict(self, x):
        p = self.W.T @ x
        return int(np.argmax(p)), {"score": p}

    def wants_label(self, x, t, info):
        v = float(x @ np.linalg.solve(self.A, x))
        theta = np.sqrt(v * (1 + 4 * self.sum_r + 36 * np.log(t / self.delta)))
        clipped = np.clip(info["score"], -1.0, 1.0)
        first = int(np.argmax(clipped))
        margin = float(clipped[first] - clipped[second(clipped, first)])
        info.update(theta=theta, margin=margin)
        return margin <= 2 * theta

    def update(self, x, y, label, info):
        p = self.W.T @ x
        u = np.linalg.solve(self.A, x)
        W_proj = self.W - np.outer(u, np.sign(p) * np.maximum(np.abs(p) - 1, 0)) / float(x @ u)
        A_new = self.A + np.outer(x, x)
        # exact RLS step from W': argmin_W ||W - W'||²_A + ||Wᵀx - e_y||²
        self.W = np.linalg.solve(A_new, self.A @ W_proj + np.outer(x, np.eye(self.K)[y]))
        self.sum_r += float(x @ np.linalg.solve(A_new, x))
        self.A = A_new
