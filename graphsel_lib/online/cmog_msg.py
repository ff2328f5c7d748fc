"""CMOG (yang2016 Alg. 1) and MSG (yang2016 Alg. 2), with the BBQ/BBQ_ε/DGS baselines in :mod:`.bbq_dgs`.

Every learner here keeps one :class:`~graphsel_lib.online.ridge_state.RidgeState`
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
:mod:`graphsel_lib.online.reference`.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

from .._validation import check_positive, check_seed
from .protocol import Info, Seed, learner_rng
from .ridge_state import SharedRidge
from .scores import top_two

__all__ = ["CMOG", "MSG", "definition1_target", "TARGETS"]

TARGETS = ("definition1", "onehot")


def _check_targets(targets):
    if targets not in TARGETS:
        raise ValueError(f"targets must be one of {TARGETS}, got {targets!r}")
    return targets


def definition1_target(f: list[float], y: int) -> np.ndarray:
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


class CMOG(SharedRidge):
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

    def __init__(
        self, *, gamma: float = 1.0, targets: str = "definition1", conservative: bool = True
    ) -> None:
        self.gamma = check_positive(gamma, "gamma")
        self.targets = _check_targets(targets)
        self.conservative = bool(conservative)

    def compiled_rule(self, loop: ModuleType) -> tuple:
        """The compiled form's rule (:mod:`~graphsel_lib.online.multiclass_loop`)."""
        return loop.multiclass_rule(
            "cmog", definition1=self.targets == "definition1", conservative=self.conservative
        )

    def _target(self, f, y):
        return definition1_target(f, y) if self.targets == "definition1" else self._eye[y]

    def predict(self, x: np.ndarray) -> tuple[int, Info]:
        u, v = self.state.variance(x)
        c = 1.0 + v
        f = [p / c for p in self._raw_scores(x)]
        return self._argmax(f), {"score": f, "u": u, "v": v}

    def wants_label(self, x: np.ndarray, t: int, info: Info) -> bool:
        return True

    def update(self, x: np.ndarray, y: int, label: int, info: Info) -> None:
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

    Examples
    --------
    >>> import numpy as np
    >>> from graphsel_lib.online import run
    >>> from graphsel_lib.online import MSG
    >>> M = np.array([[1.0, 0.9, -1.0, -0.8, 0.7, -0.9], [0.1, -0.1, 0.2, 0.0, 0.3, -0.2]])  # (d, n): a column a node
    >>> trace = run(MSG(h=0.1, seed=0), M, [0, 0, 1, 1, 0, 1], order=range(6))
    >>> trace.queried.tolist(), trace.n_mistakes
    ([True, False, False, True, True, False], 0)
    """

    selective = True  # update reads wants_label's "aggressive": no query rule (MarginSampling) can wrap it

    def __init__(
        self,
        *,
        gamma: float = 1.0,
        h: float,
        targets: str = "definition1",
        aggressive: bool = True,
        seed: Seed = None,
    ) -> None:
        super().__init__(gamma=gamma, targets=targets)
        self.aggressive = bool(aggressive)
        self.h = check_positive(h, "h")
        self.seed = check_seed(seed)

    def reset(self, d: int, n_classes: int, rng: np.random.Generator) -> None:
        super().reset(d, n_classes, rng)
        self.rng = learner_rng(self.seed, rng)

    def compiled_rule(self, loop: ModuleType) -> tuple:
        """The compiled form's rule (:mod:`~graphsel_lib.online.multiclass_loop`)."""
        return loop.multiclass_rule(
            "msg", definition1=self.targets == "definition1", aggressive=self.aggressive, h=self.h
        )

    def compiled_coin(self) -> Any:
        return self.rng

    def predict(self, x: np.ndarray) -> tuple[int, Info]:
        label, info = super().predict(x)
        f, v = info["score"], info["v"]
        i1, i2 = top_two(f)
        margin = f[i1] - f[i2]
        info["r"] = v
        info["margin"] = margin
        info["theta"] = 0.5 * margin * margin + 2.0 * margin - self.n_classes * v / (1.0 + v)
        return label, info

    def query_probability(self, x: np.ndarray, t: int, info: Info) -> float:
        """1 on an aggressive round (θ_t < 0), else ``2h / (2h + θ_t)`` (yang2016 Alg. 2; no coin)."""
        theta = info["theta"]
        info["aggressive"] = bool(theta < 0.0)
        info["prob"] = 1.0 if theta < 0.0 else 2.0 * self.h / (2.0 * self.h + theta)
        return info["prob"]

    def wants_label(self, x: np.ndarray, t: int, info: Info) -> bool:
        prob = self.query_probability(x, t, info)
        return True if info["aggressive"] else self.rng.random() < prob  # no coin on an aggressive round

    def update(self, x: np.ndarray, y: int, label: int, info: Info) -> None:
        if (self.aggressive and info["aggressive"]) or label != y:
            self.state.update(x, self._target(info["score"], y), info["u"], info["v"])
