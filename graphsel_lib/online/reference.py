"""Naive twins of the online learners: the papers' pseudo-code, literally.

Plain numpy, no incremental inverse: every round solves its linear systems
with ``np.linalg.solve``. They are slow (O(d³) per round) and exist to be
compared round by round with the fast learners (tests, ``benchmarks/``).
They follow the same interface and tie rule (``sign(0) = +1``) and are run by
the same :func:`graphsel_lib.online.run`.
"""

from __future__ import annotations

import numpy as np

from ._params import Params
from .protocol import learner_rng

__all__ = ["ReferenceGPA", "ReferenceRandomSampling", "ReferenceOLLGC", "ReferenceSSLGC"]


def _sign(s):
    return 1 if s >= 0 else -1


class ReferenceGPA(Params):
    """Herbster–Pontil's kernel perceptron, in its kernel form.

    ``ŷ_t = sign(Σ_{s ∈ mistakes} y_s K(s, t))`` with ``K(s, t) = m_sᵀ m_t``
    (``K = MᵀM = L_d^+``); a mistake adds ``t`` to the expansion.
    """

    multiclass = False

    def reset(self, d, n_classes, rng):
        self.support = np.zeros((0, d))  # m_s of the mistaken rounds, one per row
        self.alpha = np.zeros(0)  # their labels y_s

    def predict(self, x):
        score = float(self.alpha @ (self.support @ x)) if self.alpha.size else 0.0
        return _sign(score), {"score": score}

    def wants_label(self, x, t, info):
        return True

    def update(self, x, y, label, info):
        if label != y:
            self.support = np.vstack([self.support, x])
            self.alpha = np.append(self.alpha, y)


class ReferenceRandomSampling(ReferenceGPA):
    """:class:`ReferenceGPA` querying each label with probability ``p`` (one uniform per round)."""

    def __init__(self, p, seed=None):
        self.p = float(p)
        self.seed = seed

    def reset(self, d, n_classes, rng):
        super().reset(d, n_classes, rng)
        self.rng = learner_rng(self.seed, rng)

    def wants_label(self, x, t, info):
        return self.rng.random() < self.p


class ReferenceOLLGC(Params):
    """gu2013 Alg. 1 as printed: keep ``A`` and ``b``, solve ``A w = b`` each round.

    Initialize ``A_0 = µI, b_0 = 0``. Predict ``ŷ_t = sign(w_{t-1}ᵀ m_t)`` with
    ``w_{t-1} = A_{t-1}^{-1} b_{t-1}``. If ``ŷ_t ≠ y_t``:
    ``A_t = A_{t-1} + m_t m_tᵀ``, ``b_t = b_{t-1} + y_t m_t``.
    """

    multiclass = False

    def __init__(self, mu=1.0):
        self.mu = float(mu)

    def reset(self, d, n_classes, rng):
        self.A = self.mu * np.eye(d)
        self.b = np.zeros(d)

    def predict(self, x):
        w = np.linalg.solve(self.A, self.b)
        score = float(w @ x)
        return _sign(score), {"score": score}

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

    def __init__(self, mu=1.0, kappa=0.4, *, include_current=True):
        super().__init__(mu)
        self.kappa = float(kappa)
        self.include_current = bool(include_current)

    def wants_label(self, x, t, info):
        A = self.A + np.outer(x, x) if self.include_current else self.A
        r = float(x @ np.linalg.solve(A, x))
        info["r"] = r
        info["threshold"] = t ** (-self.kappa)
        return r > t ** (-self.kappa)
