"""Online LLGC (OLLGC, gu2013 Alg. 1) and selective sampling with LLGC (SSLGC, gu2013 Alg. 2).

LLGC as ridge regression (gu2013 Eq. 2–5): with ``L^+ = M^T M`` and ``w = M α``,
LLGC is ``min_w ½ ||M^T w − y||² + (µ/2) ||w||²``. Its online version (Eq. 6–8)
is follow-the-regularised-leader on the rounds seen so far::

    A_0 = µ I,  b_0 = 0,  A_t = A_{t-1} + m_t m_t^T,  b_t = b_{t-1} + y_t m_t,  w_t = A_t^{-1} b_t,

so µ enters as ``A_0 = µ I`` (not ``1/µ``): a larger µ regularises more.
OLLGC and SSLGC do the update only on (queried) mistakes, on the shared
:class:`~graphsel_lib.online.ridge_state.RidgeState`. Naive twins:
:mod:`graphsel_lib.online.reference.ollgc_sslgc`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_positive
from ._params import Params
from .one_vs_rest import StackedOneVsRest
from .protocol import CompiledRule, Info
from .ridge_state import RidgeState

__all__ = ["OLLGC", "SSLGC", "RidgeOneVsRest"]


class OLLGC(Params):
    """Online Learning with Local and Global Consistency (gu2013 Alg. 1).

    ``A_0 = µI, b_0 = 0, w_0 = 0``; round t predicts ``ŷ_t = sign(w_{t-1}^T m_t)``
    (``sign(0) = +1``), queries every label, and on a mistake sets
    ``A_t = A_{t-1} + m_t m_tᵀ``, ``b_t = b_{t-1} + y_t m_t``, ``w_t = A_t^{-1} b_t``
    (by Sherman–Morrison, O(d²)). µ is the weight of ``(µ/2)||w||²`` in gu2013
    Eq. 5–6, i.e. ``A_0 = µI``.

    Parameters
    ----------
    mu : float > 0, default 1.0
        Regularisation (gu2013 tunes it on ``{1e-3, …, 10}``).

    ``info``: ``{"score": w_{t-1}^T m_t}``.

    Examples
    --------
    >>> import numpy as np
    >>> from graphsel_lib.online import run
    >>> from graphsel_lib.online import OLLGC
    >>> M = np.array([[1.0, 0.9, -1.0, -0.8, 0.7, -0.9], [0.1, -0.1, 0.2, 0.0, 0.3, -0.2]])  # (d, n): a column a node
    >>> trace = run(OLLGC(mu=1.0), M, [1, 1, -1, -1, 1, -1], order=range(6))
    >>> trace.predictions.tolist(), trace.n_mistakes  # round t plays node t here
    ([1, 1, 1, -1, 1, -1], 1)
    """

    multiclass = False

    def __init__(self, *, mu: float = 1.0) -> None:
        self.mu = check_positive(mu, "mu")

    def reset(self, d: int, n_classes: int, rng: np.random.Generator) -> None:
        self.state = RidgeState.checked(d, self.mu)

    def predict(self, x: np.ndarray) -> tuple[int, Info]:
        s = float(np.dot(self.state.w, x))
        return (1 if s >= 0.0 else -1), {"score": s}

    def wants_label(self, x: np.ndarray, t: int, info: Info) -> bool:
        return True

    def update(self, x: np.ndarray, y: int, label: int, info: Info) -> None:
        if label != y:  # conservative: A, b, w change only on mistakes
            self.state.update(x, y, info.get("u"), info.get("v"))

    def one_vs_rest(self) -> StackedOneVsRest | None:
        """K copies of this learner sharing one (K, d) weight matrix (used by :class:`OneVsRest`).

        Only for OLLGC and SSLGC themselves; None for subclasses, whose rules
        the stacked form would not know.
        """
        return RidgeOneVsRest(self) if type(self) in (OLLGC, SSLGC) else None


class SSLGC(OLLGC):
    """Selective Sampling with Local and Global Consistency (gu2013 Alg. 2).

    As :class:`OLLGC`, but round t queries the label only if ``r_t > t^{-κ}``
    and updates only when it queried *and* made a mistake.

    Which ``A`` defines ``r_t``? gu2013 Eq. 20 writes ``r_t = m_tᵀ A_t^{-1} m_t``
    beside the bias ``B_t = uᵀ(I + m_t m_tᵀ) A_t^{-1} m_t`` — BBQ's quantities
    (Cesa-Bianchi, Gentile, Orabona 2009), where ``A_t`` already contains the
    current instance — and the label-complexity proof (Eq. 26) bounds
    ``Σ r_t ≤ d ln(1 + N_T/(µd))`` by the log-determinant lemma, which needs
    the current instance included (then ``r_t < 1``). Since the query is
    decided before any update of round t, ``A_t`` there can only mean
    ``A_{t-1} + m_t m_tᵀ``. Hence the default::

        include_current=True:   r_t = m_tᵀ (A_{t-1} + m_t m_tᵀ)^{-1} m_t = v_t / (1 + v_t)
        include_current=False:  r_t = v_t = m_tᵀ A_{t-1}^{-1} m_t

    where ``A_{t-1} = µI + Σ_{queried mistakes s<t} m_s m_sᵀ``. Both give the
    same predictions from the same state; the second queries more from any given
    state (over a whole pass the states differ and either can end up with more
    queries: notebook 06). With the default,
    ``r_t < 1 = 1^{-κ}``, so round 1 is never queried.

    Parameters
    ----------
    mu : float > 0, default 1.0
        ``A_0 = µI``.
    kappa : float >= 0, default 0.4
        Query threshold exponent (gu2013 fixes κ = 0.4 and varies it over
        0.1..1; larger κ queries more).
    include_current : bool, default True
        The ``r_t`` convention above.

    ``info``: ``score`` (``w_{t-1}ᵀ m_t``), ``u`` (``A_{t-1}^{-1} m_t``),
    ``v`` (``m_tᵀ A_{t-1}^{-1} m_t``), ``r`` (``r_t``) and ``threshold``
    (``t^{-κ}``).

    Examples
    --------
    >>> import numpy as np
    >>> from graphsel_lib.online import run
    >>> from graphsel_lib.online import SSLGC
    >>> M = np.array([[1.0, 0.9, -1.0, -0.8, 0.7, -0.9], [0.1, -0.1, 0.2, 0.0, 0.3, -0.2]])  # (d, n): a column a node
    >>> trace = run(SSLGC(mu=1.0, kappa=1.0), M, [1, 1, -1, -1, 1, -1], order=range(6))
    >>> trace.queried.tolist(), trace.n_mistakes  # it asks where r_t > t^(-kappa)
    ([False, False, True, False, True, True], 1)
    """

    selective = True  # its update needs its own query step: no query rule (MarginSampling) can wrap it

    def __init__(self, *, mu: float = 1.0, kappa: float = 0.4, include_current: bool = True) -> None:
        super().__init__(mu=mu)
        self.kappa = check_positive(kappa, "kappa", allow_zero=True)
        self.include_current = bool(include_current)

    def query_rule(self, v: float, t: int) -> tuple[float, float]:
        """``(r_t, t^{-κ})`` from ``v_t = m_tᵀ A_{t-1}^{-1} m_t``; query iff ``r_t > t^{-κ}``."""
        return (v / (1.0 + v) if self.include_current else v), t ** (-self.kappa)

    def wants_label(self, x: np.ndarray, t: int, info: Info) -> bool:
        u, v = self.state.variance(x)
        r, threshold = self.query_rule(v, t)
        info["u"] = u
        info["v"] = v
        info["r"] = r
        info["threshold"] = threshold
        return r > threshold


class RidgeOneVsRest(StackedOneVsRest):
    """K class-vs-rest copies of an :class:`OLLGC`/:class:`SSLGC`, run together.

    Equal round by round to ``OneVsRest`` over K separate learners (tested),
    but the K weight vectors are the rows of one (K, d) matrix ``W``, so the K
    scores are one product ``W m_t``; each copy keeps its own ``A_k^{-1}``
    (the K problems share nothing else) and is updated only when it queried
    and erred. Built by :class:`~graphsel_lib.online.OneVsRest`, not directly.
    """

    def __init__(self, binary: OLLGC) -> None:
        self.binary = binary
        self._rule = binary.query_rule if type(binary) is SSLGC else None

    def reset(self, d: int, n_classes: int, rng: np.random.Generator) -> None:
        super().reset(d, n_classes, rng)
        self.states = [RidgeState.checked(d, self.binary.mu, out=self.W[k]) for k in range(int(n_classes))]

    def wants_label(self, x: np.ndarray, t: int, info: Info) -> bool:
        if self._rule is None:
            info["binary_queried"] = self._all
            return True
        uv = [state.variance(x) for state in self.states]
        rt = [self._rule(v, t) for _, v in uv]
        queried = tuple([r > threshold for r, threshold in rt])
        info["uv"] = uv
        info["r"] = [r for r, _ in rt]
        info["threshold"] = rt[0][1]
        info["binary_queried"] = queried
        return any(queried)

    def update(self, x: np.ndarray, y: int, label: int, info: Info) -> None:
        labels, queried, uv = info["binary_predictions"], info["binary_queried"], info.get("uv")
        for k in self._classes:
            z = 1 if k == y else -1
            if queried[k] and labels[k] != z:
                u, v = (None, None) if uv is None else uv[k]
                self.states[k].update(x, z, u, v)

    def compiled_form(self) -> CompiledRule | None:
        """The K learners' compiled rule (:mod:`~graphsel_lib.online.stacked_loop`), or None."""
        b: Any = self.binary  # OLLGC or SSLGC
        if self._rule is None:  # OLLGC: every label is told
            return self.stack_rule("ridge", mu=b.mu)
        return self.stack_rule(
            "ridge", mu=b.mu, selective=True, kappa=b.kappa, include_current=b.include_current
        )
