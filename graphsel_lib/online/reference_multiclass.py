"""Naive twins of the multiclass learners (yang2016 Alg. 1–2 and the baselines BBQ, BBQ_ε, DGS).

Plain numpy, literally the formulas: the learners keep ``A`` and ``B`` (or
``W`` for DGS, whose projection leaves the span of one-hot targets) and solve
every quantity from scratch with ``np.linalg.solve`` each round; ``BBQ_ε``
keeps the matrix ``S`` of queried instances. O(d³) per round: they exist to be
compared round by round with :mod:`graphsel_lib.online.multiclass_ridge`
(same interface, same tie rule, run by the same
:func:`graphsel_lib.online.run`).
"""

from __future__ import annotations

import numpy as np

from ._params import Params
from .protocol import learner_rng

__all__ = ["ReferenceCMOG", "ReferenceMSG", "ReferenceBBQ", "ReferenceBBQEps", "ReferenceDGS"]


def _second(f, first):
    """argmax over ``j != first`` (smallest index on ties)."""
    g = np.array(f, dtype=float)
    g[first] = -np.inf
    return int(np.argmax(g))


class ReferenceCMOG(Params):
    """yang2016 Alg. 1: ``f_t = B_{t-1}ᵀ (A_{t-1} + m mᵀ)^{-1} m``; on a mistake ``A += m mᵀ, B += m y_tᵀ``."""

    multiclass = True

    def __init__(self, gamma=1.0, targets="definition1", *, conservative=True):
        self.gamma = float(gamma)
        self.targets = targets
        self.conservative = conservative

    def reset(self, d, n_classes, rng):
        self.K = int(n_classes)
        self.A = self.gamma * np.eye(d)
        self.B = np.zeros((d, self.K))

    def target(self, f, y):
        z = np.zeros(self.K)
        if self.targets == "definition1":
            wrong = np.array(f, dtype=float)
            wrong[y] = -np.inf
            z[np.argmax(wrong)] = -1.0  # highest-scoring wrong class
        z[y] = 1.0
        return z

    def predict(self, x):
        f = self.B.T @ np.linalg.solve(self.A + np.outer(x, x), x)
        return int(np.argmax(f)), {"score": f}

    def wants_label(self, x, t, info):
        return True

    def learn(self, x, y, f):
        self.A = self.A + np.outer(x, x)
        self.B = self.B + np.outer(x, self.target(f, y))

    def update(self, x, y, label, info):
        if label != y or not self.conservative:  # conservative=False: every round (fully supervised RLS)
            self.learn(x, y, info["score"])


class ReferenceMSG(ReferenceCMOG):
    """yang2016 Alg. 2: ``r = mᵀA_{t-1}^{-1}m``, ``Θ = ½Δ² + 2Δ − K r/(1+r)``; aggressive if ``Θ < 0``."""

    def __init__(self, gamma=1.0, h=0.01, *, targets="definition1", aggressive=True, seed=None):
        super().__init__(gamma, targets)
        self.aggressive = aggressive
        self.h = float(h)
        self.seed = seed

    def reset(self, d, n_classes, rng):
        super().reset(d, n_classes, rng)
        self.rng = learner_rng(self.seed, rng)

    def predict(self, x):
        label, info = super().predict(x)
        f = info["score"]
        r = float(x @ np.linalg.solve(self.A, x))
        margin = float(f[label] - f[_second(f, label)])
        info["r"] = r
        info["margin"] = margin
        info["theta"] = 0.5 * margin**2 + 2 * margin - self.K * r / (1 + r)
        return label, info

    def wants_label(self, x, t, info):
        theta = info["theta"]
        info["aggressive"] = theta < 0
        info["prob"] = 1.0 if theta < 0 else 2 * self.h / (2 * self.h + max(0.0, theta))
        if info["aggressive"]:
            return True
        return self.rng.random() < info["prob"]

    def update(self, x, y, label, info):
        if (self.aggressive and info["aggressive"]) or label != y:  # aggressive=False: Thm. 3's sampler
            self.learn(x, y, info["score"])


class ReferenceBBQ(Params):
    """Multiclass BBQ: ``p = (A^{-1}B)ᵀ m``; query iff ``mᵀ(A + m mᵀ)^{-1} m > t^{-κ}``; ``A += m mᵀ, B += m e_yᵀ``."""

    multiclass = True

    def __init__(self, kappa=0.4, gamma=1.0):
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

    def __init__(self, eps, delta=0.1, gamma=1.0):
        super().__init__(0.0, gamma)
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

    def __init__(self, delta=0.1, gamma=1.0):
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
        margin = float(clipped[first] - clipped[_second(clipped, first)])
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
