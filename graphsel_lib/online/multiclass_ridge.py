"""Multiclass second-order learners on one shared ridge state (yang2016 and its baselines).

Every learner here keeps one :class:`~graphsel_lib.online.ridge.RidgeState`
with ``K`` outputs (yang2016 Eq. 6)::

    A = γI + Σ_{updated s} m_s m_sᵀ,   B = Σ_{updated s} m_s z_sᵀ,   W = A^{-1} B   (d × K),

updated exactly by Sherman–Morrison (``RidgeState.update``), and differs only
in how it scores, queries and chooses the target ``z_s ∈ ℝ^K``:

==========  ================================  ==================================  ====================
learner     scores (prediction = argmax)      queries                             updates
==========  ================================  ==================================  ====================
``CMOG``    ``f = Wᵀm / (1 + v)`` (VAW form)  every label                         on mistakes
``MSG``     ``f`` as CMOG                     ``Θ < 0``, else w.p. ``2h/(2h+Θ)``  ``Θ < 0`` or mistake
``BBQ``     ``p = Wᵀm``                       ``v/(1+v) > t^{-κ}``                every query
``BBQEps``  ``p = Wᵀm``                       bias bound ``> ε``                  every query
``DGS``     ``p = Wᵀm``                       clipped margin ``≤ 2θ_t``           every query
==========  ================================  ==================================  ====================

with ``v = mᵀ A^{-1} m`` (the current ``m`` NOT in ``A``; by Sherman–Morrison
``mᵀ(A + m mᵀ)^{-1} m = v/(1+v)``). Targets: yang2016's Definition 1
(``+1`` at the true class, ``−1`` at the highest-scoring wrong class, 0
elsewhere) or one-hot ``e_y`` (the baselines). Ties go to the
smallest class index, as everywhere in the package. Naive twins (one
``np.linalg.solve`` per quantity per round) are in
:mod:`graphsel_lib.online.reference_multiclass`.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.linalg.blas import dsymv, dsyr

from .._validation import check_positive, check_probability, check_seed
from ._params import Params
from .protocol import learner_rng
from .ridge import RidgeState

__all__ = ["CMOG", "MSG", "BBQ", "BBQEps", "DGS", "top_two", "definition1_target", "TARGETS"]

TARGETS = ("definition1", "onehot")


def _check_targets(targets):
    if targets not in TARGETS:
        raise ValueError(f"targets must be one of {TARGETS}, got {targets!r}")
    return targets


def top_two(s):
    """``(i1, i2)``: index of the largest entry of ``s`` and of the largest among the others.

    Ties go to the smallest index (``numpy.argmax``'s rule), in both places.

    >>> top_two([0.0, 2.0, 2.0, 1.0])
    (1, 2)
    """
    order = sorted(range(len(s)), key=s.__getitem__, reverse=True)  # stable: equal keys keep index order
    return order[0], order[1]


def definition1_target(f, y):
    """yang2016 Definition 1 (Eq. 4): ``+1`` at ``y``, ``−1`` at ``argmax_{j≠y} f_j``, 0 elsewhere.

    On a mistake the ``−1`` goes to the predicted class; on a correct
    prediction to the second best. ``f`` is a list of K scores.

    >>> definition1_target([0.5, 0.1, 0.3], 0).tolist()
    [1.0, 0.0, -1.0]
    """
    K = len(f)
    z = np.zeros(K)
    z[max((j for j in range(K) if j != y), key=f.__getitem__)] = -1.0
    z[y] = 1.0
    return z


class _SharedRidge(Params):
    """One ``RidgeState`` with K outputs, reset per pass (base of the learners below)."""

    multiclass = True

    def reset(self, d, n_classes, rng):
        self.n_classes = int(n_classes)
        self.state = RidgeState(d, self.gamma, n_outputs=self.n_classes)
        self._classes = range(self.n_classes)
        self._eye = np.eye(self.n_classes)  # one-hot targets are its rows

    def _argmax(self, s):
        return max(self._classes, key=s.__getitem__)

    def _raw_scores(self, x):
        """``p = W^T x`` as a list.

        One BLAS product: columns of ``W`` that are exactly equal here are the
        untouched all-zero ones (every update gives two classes different
        targets), whose scores are exactly 0 however the product rounds.
        """
        return (x @ self.state.w).tolist()


# --------------------------------------------------------------------------- yang2016


class CMOG(_SharedRidge):
    """Conservative Multi-class Online learning on Graphs (yang2016 Alg. 1).

    ``A_0 = γI, B_0 = 0`` (d × K). Round t predicts with the Vovk–Azoury–Warmuth
    form (Alg. 1 lines 7–9)::

        f_t = B_{t-1}ᵀ (A_{t-1} + m_t m_tᵀ)^{-1} m_t = W_{t-1}ᵀ m_t / (1 + v_t),   ŷ_t = argmax_k f_t(k),

    queries every label and, on a mistake only, sets ``A_t = A_{t-1} + m_t m_tᵀ``,
    ``B_t = B_{t-1} + m_t y_tᵀ`` (lines 11–13) by Sherman–Morrison (O(d² + dK)).

    Parameters
    ----------
    gamma : float > 0, default 1.0
        ``A_0 = γI`` (yang2016 Eq. 6; its experiments use γ = 1).
    targets : {"definition1", "onehot"}, default "definition1"
        The label vector ``y_t ∈ ℝ^K`` added to ``B``: ``"definition1"`` is
        yang2016 Definition 1 (+1 at the true class, −1 at the highest-scoring
        wrong class, i.e. at ``ŷ_t`` on a mistake, 0 elsewhere); ``"onehot"``
        is ``e_{y_t}`` (the ridge-regression reading of Eq. 5).
    conservative : bool, default True
        Alg. 1 updates only on mistakes. ``False`` updates on every round: a
        fully supervised regularised least squares in VAW form (with one-hot
        targets it makes the predictions of :class:`DGS`/:class:`BBQEps` when
        those query every label; notebook 08 uses it to explain the published
        CMOG column).

    Notes
    -----
    The factor ``1/(1 + v_t) > 0`` never changes ``ŷ_t``, only the scale of
    the scores (``info["score"] = f_t``). ``info`` also holds ``u``
    (``A_{t-1}^{-1} m_t``) and ``v`` (``v_t = m_tᵀ A_{t-1}^{-1} m_t``).

    Examples
    --------
    >>> import numpy as np
    >>> from graphsel_lib.online import CMOG, run
    >>> M = np.array([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0]])
    >>> run(CMOG(), M, [1, 0, 1, 0], order=[0, 1, 2, 3]).predictions.tolist()
    [0, 0, 1, 0]
    """

    def __init__(self, gamma=1.0, targets="definition1", *, conservative=True):
        self.gamma = check_positive(gamma, "gamma")
        self.targets = _check_targets(targets)
        self.conservative = bool(conservative)

    def _target(self, f, y):
        return definition1_target(f, y) if self.targets == "definition1" else self._eye[y]

    def predict(self, x):
        u, v = self.state.variance(x)
        c = 1.0 + v
        f = [p / c for p in self._raw_scores(x)]
        return self._argmax(f), {"score": f, "u": u, "v": v}

    def wants_label(self, x, t, info):
        return True

    def update(self, x, y, label, info):
        if label != y or not self.conservative:
            self.state.update(x, self._target(info["score"], y), info["u"], info["v"])


class MSG(CMOG):
    """Multiclass Selective sampling on Graphs, the aggressive sampler of yang2016 (Alg. 2).

    Scores and prediction as :class:`CMOG`. With ``r_t = v_t = m_tᵀ A_{t-1}^{-1} m_t``
    (Eq. 7) and the margin ``Δ_t = f_t(ŷ_t) − f_t(y''_t)`` between the best and
    second-best class, the confidence is (Definition 2, Eq. 10)::

        Θ_t = ½ Δ_t² + 2 Δ_t − K r_t / (1 + r_t).

    If ``Θ_t < 0`` the label is queried and the model updated even when the
    prediction is correct (aggressive, Alg. 2 lines 9–10); otherwise the label
    is queried with probability ``2h / (2h + Θ_t)`` (one uniform per such round,
    from the rng of ``reset`` unless ``seed`` is given) and the model updated
    only on a mistake (lines 12–15). Updates use the Definition-1 target by
    default; on a correct prediction its −1 goes to the second-best class.

    Parameters
    ----------
    gamma : float > 0, default 1.0
        ``A_0 = γI``.
    h : float > 0
        Query parameter (required; yang2016 tunes it on ``{1e-4, …, 1}``):
        larger ``h`` queries more.
    targets : {"definition1", "onehot"}, default "definition1"
        As :class:`CMOG`.
    aggressive : bool, default True
        ``False`` keeps the query rule but updates only on queried mistakes:
        the conservative sampler of yang2016 Thm. 3 (notebook 09).
    seed : int, optional
        Seed of the query coin. None (default): the generator that
        :func:`~graphsel_lib.online.run` passes to ``reset``.

    Notes
    -----
    *Which f enters Δ.* Definition 2 and Alg. 2 (lines 6–8) define
    ``f_t = W_tᵀ m_t`` with ``W_t = A_t^{-1} B_{t-1}`` and
    ``A_t = A_{t-1} + m_t m_tᵀ``, i.e. the VAW-scaled scores
    ``W_{t-1}ᵀ m_t / (1 + v_t)``; we use exactly these (the proofs of Thm. 3/5
    bound ``‖f_t‖²`` and ``y_t·f_t`` of the same ``f_t``).

    *2h or h.* Definition 2, Thm. 3 and Alg. 2 write ``2h/(2h + max(0, Θ_t))``;
    one sentence after Definition 2 writes ``h/(h + max(0, Θ_t))``. We use
    ``2h/(2h + Θ_t)`` (our choice; yang2016 writes both); the other reading is this one with ``h/2``.

    ``info``: ``score`` (``f_t``), ``u``, ``v``, ``r``, ``margin`` (``Δ_t``),
    ``theta`` (``Θ_t``), and from ``wants_label`` ``aggressive`` (``Θ_t < 0``)
    and ``prob`` (the query probability, 1 when aggressive).
    """

    def __init__(self, gamma=1.0, h=None, *, targets="definition1", aggressive=True, seed=None):
        super().__init__(gamma, targets)
        self.aggressive = bool(aggressive)
        if h is None:
            raise ValueError("MSG needs the query parameter h > 0 (yang2016 tunes it on {1e-4, ..., 1})")
        self.h = check_positive(h, "h")
        self.seed = check_seed(seed)

    def reset(self, d, n_classes, rng):
        super().reset(d, n_classes, rng)
        self.rng = learner_rng(self.seed, rng)

    def predict(self, x):
        label, info = super().predict(x)
        f, v = info["score"], info["v"]
        i1, i2 = top_two(f)
        margin = f[i1] - f[i2]
        info["r"] = v
        info["margin"] = margin
        info["theta"] = 0.5 * margin * margin + 2.0 * margin - self.n_classes * v / (1.0 + v)
        return label, info

    def wants_label(self, x, t, info):
        theta = info["theta"]
        if theta < 0.0:
            info["aggressive"] = True
            info["prob"] = 1.0
            return True
        prob = 2.0 * self.h / (2.0 * self.h + theta)
        info["aggressive"] = False
        info["prob"] = prob
        return self.rng.random() < prob

    def update(self, x, y, label, info):
        if (self.aggressive and info["aggressive"]) or label != y:
            self.state.update(x, self._target(info["score"], y), info["u"], info["v"])


# --------------------------------------------------------------------------- baselines (yang2016 refs [1], [5], [11])


class _OneHotRidge(_SharedRidge):
    """Scores ``p = W^T m`` (no VAW factor), one-hot targets, exact RLS step on every query."""

    def predict(self, x):
        p = self._raw_scores(x)
        return self._argmax(p), {"score": p}

    def update(self, x, y, label, info):
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
    kappa : float >= 0, default 0.4
        Threshold exponent (larger κ queries more).
    gamma : float > 0, default 1.0
        ``A_0 = γI``.

    Notes
    -----
    ``r_t < 1 = 1^{-κ}``: round 1 is never queried, and with ``‖m‖² ≤ 1`` (so
    ``r_t ≤ ½`` at the start) nothing is queried before ``t > 2^{1/κ}``. We do
    not rescale ``m``: the scale of the embedding is the one the caller passes
    (on Cora/Coauthor/PubMed at d = 100 the mean ``‖m_t‖²`` is 0.29/0.56/0.06).

    ``info``: ``score`` (``W_{t-1}ᵀ m_t``), ``u``, ``v``, ``r``, ``threshold``.
    """

    def __init__(self, kappa=0.4, gamma=1.0):
        self.kappa = check_positive(kappa, "kappa", allow_zero=True)
        self.gamma = check_positive(gamma, "gamma")

    def wants_label(self, x, t, info):
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
    eps : float > 0
        Tolerated bias (yang2016 tunes it on ``{1e-5, …, 10}``); smaller ε
        queries more.
    delta : float in (0, 1), default 0.1
        Confidence.
    gamma : float > 0, default 1.0
        ``A_0 = γI``.

    Notes
    -----
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
    """

    def __init__(self, eps, delta=0.1, gamma=1.0):
        self.eps = check_positive(eps, "eps")
        self.delta = check_probability(delta, "delta", low_open=True, high_open=True)
        self.gamma = check_positive(gamma, "gamma")

    def reset(self, d, n_classes, rng):
        super().reset(d, n_classes, rng)
        self._C = np.zeros((d, d), order="F")  # upper triangle of S Sᵀ

    def wants_label(self, x, t, info):
        u, v = self.state.variance(x)
        c = 1.0 + v
        r = v / c
        s = math.sqrt(float(np.dot(u, u))) / c
        q = math.sqrt(max(float(np.dot(u, dsymv(1.0, self._C, u))), 0.0)) / c
        bound = math.sqrt(2.0 * math.log(t * (t + 1) / (2.0 * self.delta)))
        info.update(u=u, v=v, r=r, s=s, q=q, bound=bound)
        return self.eps - r - s < q * bound

    def update(self, x, y, label, info):
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
    delta : float in (0, 1), default 0.1
        Confidence.
    gamma : float > 0, default 1.0
        ``A_0 = γI``.

    Notes
    -----
    After a projection ``W`` is no longer ``A^{-1}B`` for the one-hot ``B``:
    the learner keeps ``W`` (``state.w``) itself. The binary rule (query iff
    ``Δ̂² ≤ θ²``) becomes ``Δ̂ ≤ 2θ`` for a gap between two classes, each
    score uncertain by θ (after Agarwal 2013).

    ``info``: ``score`` (``p``), ``u``, ``v``, ``theta``, ``margin`` (``Δ̂_t``).
    """

    def __init__(self, delta=0.1, gamma=1.0):
        self.delta = check_probability(delta, "delta", low_open=True, high_open=True)
        self.gamma = check_positive(gamma, "gamma")

    def reset(self, d, n_classes, rng):
        super().reset(d, n_classes, rng)
        self.sum_r = 0.0

    def wants_label(self, x, t, info):
        u, v = self.state.variance(x)
        theta = math.sqrt(v * (1.0 + 4.0 * self.sum_r + 36.0 * math.log(t / self.delta)))
        clipped = [min(max(p, -1.0), 1.0) for p in info["score"]]
        i1, i2 = top_two(clipped)
        margin = clipped[i1] - clipped[i2]
        info.update(u=u, v=v, theta=theta, margin=margin)
        return margin <= 2.0 * theta

    def update(self, x, y, label, info):
        u, v = info["u"], info["v"]
        excess = [math.copysign(abs(p) - 1.0, p) if abs(p) > 1.0 else 0.0 for p in info["score"]]
        if any(excess):
            self.state.w -= np.outer(u / v, excess)  # projection: every score into [-1, 1]
        super().update(x, y, label, info)
        self.sum_r += v / (1.0 + v)
