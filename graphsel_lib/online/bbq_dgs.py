"""The query-rule baselines of yang2016 (its refs [1], [5], [11]) on the shared multiclass ridge state.

==========  ================================  ==================================
learner     scores (prediction = argmax)      queries (and updates)
==========  ================================  ==================================
``BBQ``     ``p = Wᵀm``                       ``v/(1+v) > t^{-κ}``
``BBQEps``  ``p = Wᵀm``                       bias bound ``> ε``
``DGS``     ``p = Wᵀm``                       clipped margin ``≤ 2θ_t``
==========  ================================  ==================================

with ``v = mᵀ A^{-1} m`` (the current ``m`` NOT in ``A``), one-hot targets
``e_y`` and an exact regularised-least-squares step on every queried label.
Naive twins: :mod:`graphsel_lib.online.reference`.
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Any

import numpy as np
from scipy.linalg.blas import dsymv, dsyr

from .._validation import check_positive, check_probability
from .protocol import Info
from .ridge_state import SharedRidge, full_symmetric
from .scores import top_two

__all__ = ["BBQ", "BBQEps", "DGS"]


class _OneHotRidge(SharedRidge):
    """Scores ``p = W^T m`` (no VAW factor), one-hot targets, exact RLS step on every query."""

    selective = True  # update reads wants_label's u, v: no query rule (MarginSampling) can wrap it

    def predict(self, x: np.ndarray) -> tuple[int, Info]:
        p = self._raw_scores(x)
        return self._argmax(p), {"score": p}

    def update(self, x: np.ndarray, y: int, label: int, info: Info) -> None:
        self.state.update(x, self._eye[y], info["u"], info["v"])


class BBQ(_OneHotRidge):
    """Bound-on-Bias Query (Cesa-Bianchi, Gentile, Orabona, ICML 2009), multiclass.

    One shared ``A = γI + Σ_{queried} m mᵀ`` and ``W = A^{-1}B`` with one-hot
    targets ``B = Σ_{queried} m_s e_{y_s}ᵀ``; ``ŷ_t = argmax W_{t-1}ᵀ m_t``.
    Round t queries iff::

        r_t = m_tᵀ (A_{t-1} + m_t m_tᵀ)^{-1} m_t = v_t / (1 + v_t)  >  t^{-κ}

    and every queried label updates (no mistake condition):
    ``W ← W + A^{-1}m (e_y − Wᵀm)ᵀ / (1 + v)``, ``A ← A + m mᵀ``.

    Parameters
    ----------
    gamma : float > 0, default 1.0
        ``A_0 = γI``.
    kappa : float >= 0, default 0.4
        Threshold exponent (larger κ queries more).

    Notes
    -----
    ``r_t < 1 = 1^{-κ}``: round 1 is never queried, and with ``‖m‖² ≤ 1`` (so
    ``r_t ≤ ½`` at the start) nothing is queried before ``t > 2^{1/κ}``. We do
    not rescale ``m``: the scale of the embedding is the one the caller passes.

    ``info``: ``score`` (``W_{t-1}ᵀ m_t``), ``u``, ``v``, ``r``, ``threshold``.

    Examples
    --------
    >>> import numpy as np
    >>> from graphsel_lib.online import run
    >>> from graphsel_lib.online import BBQ
    >>> M = np.array([[1.0, 0.9, -1.0, -0.8, 0.7, -0.9], [0.1, -0.1, 0.2, 0.0, 0.3, -0.2]])  # (d, n): a column a node
    >>> trace = run(BBQ(kappa=1.0), M, [0, 0, 1, 1, 0, 1], order=range(6))
    >>> trace.queried.tolist()  # asks while v/(1+v) > t^(-kappa)
    [False, False, True, False, True, True]
    """

    def __init__(self, *, gamma: float = 1.0, kappa: float = 0.4) -> None:
        self.kappa = check_positive(kappa, "kappa", allow_zero=True)
        self.gamma = check_positive(gamma, "gamma")

    def compiled_rule(self, loop: ModuleType) -> tuple:
        """The compiled form's rule (:mod:`~graphsel_lib.online.multiclass_loop`)."""
        return loop.multiclass_rule("bbq", kappa=self.kappa)

    def wants_label(self, x: np.ndarray, t: int, info: Info) -> bool:
        u, v = self.state.variance(x)
        r = v / (1.0 + v)
        threshold = t ** (-self.kappa)
        info.update(u=u, v=v, r=r, threshold=threshold)
        return r > threshold


class BBQEps(_OneHotRidge):
    """BBQ_ε (Orabona & Cesa-Bianchi, ICML 2011), multiclass with one shared ``A``.

    With ``A_t = A_{t-1} + m_t m_tᵀ`` (current instance included) and
    ``S_{t-1}`` the queried instances as columns (so ``S Sᵀ = A_{t-1} − γI``)::

        r_t = m_tᵀ A_t^{-1} m_t,   s_t = ‖A_t^{-1} m_t‖,   q_t = ‖S_{t-1}ᵀ A_t^{-1} m_t‖,

    round t queries iff ``ε − r_t − s_t < q_t · sqrt(2 ln(t(t+1)/(2δ)))``, i.e.
    iff the bound ``r_t + s_t + q_t sqrt(·)`` on the bias of the RLS estimate
    exceeds ε. Every queried label updates (one-hot target, exact RLS step).

    Parameters
    ----------
    gamma : float > 0, default 1.0
        ``A_0 = γI``.
    eps : float > 0
        Tolerated bias (yang2016 tunes it on ``{1e-5, …, 10}``); smaller ε
        queries more.
    delta : float in (0, 1), default 0.1
        Confidence parameter of the width ``sqrt(2 ln(t(t+1)/(2δ)))`` (see Notes).

    Notes
    -----
    *Confidence.* At this width a sub-Gaussian noise term of scale ``q_t``
    exceeds ``q_t sqrt(·)`` with probability at most ``2δ/(t(t+1))`` per
    side; summed over ``t ≥ 1`` that telescopes to ``2δ`` per side, so the bound
    holds for all ``t`` at once with probability at least ``1 − 4δ``, not
    ``1 − δ`` (notebook 10 §1). ``delta=δ/4`` gives confidence ``1 − δ``.

    *Reading.* The paper is not available to us; our reading writes the rule as
    ``[ε − r_t − s_t]_+ < q_t sqrt(·)``. Taken literally that never queries
    while nothing has been queried (``S`` empty ⇒ ``q_t = 0`` and ``0 < 0`` is
    false), so no label would ever be revealed; we drop the ``[·]_+``, which
    changes the rule only when ``q_t = 0``.

    *Efficiency.* With ``u = A_{t-1}^{-1} m`` and ``v = mᵀu``, Sherman–Morrison
    gives ``A_t^{-1} m = u/(1+v)``, hence ``r_t = v/(1+v)``, ``s_t = ‖u‖/(1+v)``
    and ``q_t² = uᵀ(S Sᵀ)u / (1+v)²``. ``C = S Sᵀ`` is kept as a (d, d)
    matrix updated by one rank-one ``dsyr`` per query, so a round costs two
    symmetric matrix-vector products, O(d²), independent of the number of
    queries. (``uᵀCu = v − γ‖u‖²`` also holds but cancels catastrophically
    while ``C`` is small, which would flip the rule at ``q_t ≈ 0``.)

    ``info``: ``score``, ``u``, ``v``, ``r``, ``s``, ``q``, ``bound``
    (``sqrt(2 ln(t(t+1)/(2δ)))``).

    Examples
    --------
    >>> import numpy as np
    >>> from graphsel_lib.online import run
    >>> from graphsel_lib.online import BBQEps
    >>> M = np.array([[1.0, 0.9, -1.0, -0.8, 0.7, -0.9], [0.1, -0.1, 0.2, 0.0, 0.3, -0.2]])  # (d, n): a column a node
    >>> trace = run(BBQEps(eps=0.1), M, [0, 0, 1, 1, 0, 1], order=range(6))
    >>> trace.queried.tolist(), trace.n_mistakes
    ([True, True, True, True, True, True], 0)
    """

    def __init__(self, *, gamma: float = 1.0, eps: float, delta: float = 0.1) -> None:
        self.eps = check_positive(eps, "eps")
        self.delta = check_probability(delta, "delta", low_open=True, high_open=True)
        self.gamma = check_positive(gamma, "gamma")

    def reset(self, d: int, n_classes: int, rng: np.random.Generator) -> None:
        super().reset(d, n_classes, rng)
        self._C = np.zeros((d, d), order="F")  # upper triangle of S Sᵀ

    def compiled_rule(self, loop: ModuleType) -> tuple:
        """The compiled form's rule (:mod:`~graphsel_lib.online.multiclass_loop`)."""
        return loop.multiclass_rule("bbq_eps", eps=self.eps, delta=self.delta)

    def compiled_state(self) -> Any:
        return super().compiled_state()._replace(extra={"sum_xxT": full_symmetric(self._C)})

    def take_compiled_state(self, compiled: Any) -> None:
        super().take_compiled_state(compiled)
        self._C = np.asfortranarray(compiled.extra["sum_xxT"])

    def wants_label(self, x: np.ndarray, t: int, info: Info) -> bool:
        u, v = self.state.variance(x)
        c = 1.0 + v
        r = v / c
        s = math.sqrt(float(np.dot(u, u))) / c
        q = math.sqrt(max(float(np.dot(u, dsymv(1.0, self._C, u))), 0.0)) / c
        bound = math.sqrt(2.0 * math.log(t * (t + 1) / (2.0 * self.delta)))
        info.update(u=u, v=v, r=r, s=s, q=q, bound=bound)
        return self.eps - r - s < q * bound

    def update(self, x: np.ndarray, y: int, label: int, info: Info) -> None:
        super().update(x, y, label, info)
        self._C = dsyr(1.0, x, a=self._C, overwrite_a=True)


class DGS(_OneHotRidge):
    """Dekel–Gentile–Sridharan selective sampler (COLT 2010 / JMLR 2012), multiclass.

    Scores ``p = W_{t-1}ᵀ m_t``, ``ŷ_t = argmax p``. With
    ``Σ_t = Σ_{queried s<t} v_s/(1+v_s)`` and::

        θ_t² = v_t (1 + 4 Σ_t + 36 ln(t/δ)),

    round t queries iff ``Δ̂_t ≤ 2 θ_t``, where ``Δ̂_t = p̂_(1) − p̂_(2)`` is the
    gap between the two largest scores clipped to ``[−1, 1]``
    (``p̂ = clip(p, −1, 1)``, the projection below). On a queried round the
    weights are first projected so that every score is clipped::

        W' = W − A^{-1} m ( sign(p) ⊙ [|p| − 1]_+ )ᵀ / v_t      (then W'ᵀm = p̂),

    followed by the exact RLS step from ``W'``:
    ``W ← W' + A^{-1}m (e_y − W'ᵀm)ᵀ/(1+v_t)``, ``A ← A + m mᵀ``.

    Parameters
    ----------
    gamma : float > 0, default 1.0
        ``A_0 = γI``.
    delta : float in (0, 1), default 0.1
        Confidence.

    Notes
    -----
    After a projection ``W`` is no longer ``A^{-1}B`` for the one-hot ``B``:
    the learner keeps ``W`` (``state.w``) itself. The binary rule (query iff
    ``Δ̂² ≤ θ²``) becomes ``Δ̂ ≤ 2θ`` for a gap between two classes, each
    score uncertain by θ (after Agarwal 2013).

    ``info``: ``score`` (``p``), ``u``, ``v``, ``theta``, ``margin`` (``Δ̂_t``).

    Examples
    --------
    >>> import numpy as np
    >>> from graphsel_lib.online import run
    >>> from graphsel_lib.online import DGS
    >>> M = np.array([[1.0, 0.9, -1.0, -0.8, 0.7, -0.9], [0.1, -0.1, 0.2, 0.0, 0.3, -0.2]])  # (d, n): a column a node
    >>> trace = run(DGS(), M, [0, 0, 1, 1, 0, 1], order=range(6))
    >>> trace.queried.tolist(), trace.n_mistakes
    ([True, True, True, True, True, True], 0)
    """

    def __init__(self, *, gamma: float = 1.0, delta: float = 0.1) -> None:
        self.delta = check_probability(delta, "delta", low_open=True, high_open=True)
        self.gamma = check_positive(gamma, "gamma")

    def reset(self, d: int, n_classes: int, rng: np.random.Generator) -> None:
        super().reset(d, n_classes, rng)
        self.sum_r = 0.0

    def compiled_rule(self, loop: ModuleType) -> tuple:
        """The compiled form's rule (:mod:`~graphsel_lib.online.multiclass_loop`)."""
        return loop.multiclass_rule("dgs", delta=self.delta)

    def compiled_state(self) -> Any:
        return super().compiled_state()._replace(extra={"sum_r": np.array([float(self.sum_r)])})

    def take_compiled_state(self, compiled: Any) -> None:
        super().take_compiled_state(compiled)
        self.sum_r = float(compiled.extra["sum_r"][0])

    def wants_label(self, x: np.ndarray, t: int, info: Info) -> bool:
        u, v = self.state.variance(x)
        theta = math.sqrt(v * (1.0 + 4.0 * self.sum_r + 36.0 * math.log(t / self.delta)))
        clipped = [min(max(p, -1.0), 1.0) for p in info["score"]]
        i1, i2 = top_two(clipped)
        margin = clipped[i1] - clipped[i2]
        info.update(u=u, v=v, theta=theta, margin=margin)
        return margin <= 2.0 * theta

    def update(self, x: np.ndarray, y: int, label: int, info: Info) -> None:
        u, v = info["u"], info["v"]
        excess = [math.copysign(abs(p) - 1.0, p) if abs(p) > 1.0 else 0.0 for p in info["score"]]
        if any(excess):
            self.state.w -= np.outer(u / v, excess)  # projection: every score into [-1, 1]
        super().update(x, y, label, info)
        self.sum_r += v / (1.0 + v)
