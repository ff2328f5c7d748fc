"""Naive twins of GPA and RandomSampling: the graph perceptron on explicit weights."""

from __future__ import annotations

import numpy as np

from .._params import Params
from ..protocol import learner_rng
from ._rules import sign

__all__ = ["ReferenceGPA", "ReferenceRandomSampling"]


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
        return sign(score), {"score": score}

    def wants_label(self, x, t, info):
        return True

    def update(self, x, y, label, info):
        if label != y:
            self.support = np.vstack([self.support, x])
            self.alpha = np.append(self.alpha, y)


class ReferenceRandomSampling(ReferenceGPA):
    """:class:`ReferenceGPA` querying each label with probability ``p`` (one uniform per round)."""

    def __init__(self, *, p, seed=None):
        self.p = float(p)
        self.seed = seed

    def reset(self, d, n_classes, rng):
        super().reset(d, n_classes, rng)
        self.rng = learner_rng(self.seed, rng)

    def wants_label(self, x, t, info):
        return self.rng.random() < self.p
