"""Naive twins of OLLGC and SSLGC (gu2013 Alg. 1–2): ``A w = b`` solved from scratch every round."""

from __future__ import annotations

import numpy as np

from .._params import Params
from ._rules import sign

__all__ = ["ReferenceOLLGC", "ReferenceSSLGC"]


class ReferenceOLLGC(Params):
    """gu2013 Alg. 1 as printed: keep ``A`` and ``b``, solve ``A w = b`` each round.

    Initialize ``A_0 = µI, b_0 = 0``. Predict ``ŷ_t = sign(w_{t-1}ᵀ m_t)`` with
    ``w_{t-1} = A_{t-1}^{-1} b_{t-1}``. If ``ŷ_t ≠ y_t``:
    ``A_t = A_{t-1} + m_t m_tᵀ``, ``b_t = b_{t-1} + y_t m_t``.
    """

    multiclass = False

    def __init__(self, *, mu=1.0):
        self.mu = float(mu)

    def reset(self, d, n_classes, rng):
        self.A = self.mu * np.eye(d)
        self.b = np.zeros(d)

    def predict(self, x):
        w = np.linalg.solve(self.A, self.b)
        score = float(w @ x)
        return sign(score), {"score": score}

    def wants_label(self, x, t, info):
        return True

    def update(self, x, y, label, info):
        if label != y:
            self.A = self.A + np.outer(x, x)
            self.b = self.b + y * x


class ReferenceSSLGC(ReferenceOLLGC):
    """gu2013 Alg. 2 as printed: query iff ``r_t > t^{-κ}``; update on queried mistakes.

    ``r_t = m_tᵀ (A_{t-1} + m_t m_tᵀ)^{-1} m_t`` (``include_current=True``) or
    ``m_tᵀ A_{t-1}^{-1} m_t`` (False), each by its own ``np.linalg.solve``.
    """

    def __init__(self, *, mu=1.0, kappa=0.4, include_current=True):
        super().__init__(mu=mu)
        self.kappa = float(kappa)
        self.include_current = bool(include_current)

    def wants_label(self, x, t, info):
        A = self.A + np.outer(x, x) if self.include_current else self.A
        r = float(x @ np.linalg.solve(A, x))
        info["r"] = r
        info["threshold"] = t ** (-self.kappa)
        return r > t ** (-self.kappa)
