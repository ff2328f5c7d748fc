"""Naive twins of CMOG and MSG (yang2016 Alg. 1–2): every quantity solved from ``A`` and ``B`` each round."""

from __future__ import annotations

import numpy as np

from .._params import Params
from ..protocol import learner_rng
from ._rules import second

__all__ = ["ReferenceCMOG", "ReferenceMSG"]


class ReferenceCMOG(Params):
    """yang2016 Alg. 1: ``f_t = B_{t-1}ᵀ (A_{t-1} + m mᵀ)^{-1} m``; on a mistake ``A += m mᵀ, B += m y_tᵀ``."""

    multiclass = True

    def __init__(self, *, gamma=1.0, targets="definition1", conservative=True):
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

    def __init__(self, *, gamma=1.0, h, targets="definition1", aggressive=True, seed=None):
        super().__init__(gamma=gamma, targets=targets)
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
        margin = float(f[label] - f[second(f, label)])
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
