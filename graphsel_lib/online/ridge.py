"""Second-order learners: online LLGC (OLLGC) and selective sampling (SSLGC), gu2013.

LLGC as ridge regression (gu2013 Eq. 2–5): with ``L^+ = M^T M`` and ``w = M α``,
LLGC is ``min_w ½ ||M^T w − y||² + (µ/2) ||w||²``. Its online version (Eq. 6–8)
is follow-the-regularised-leader on the rounds seen so far::

    A_0 = µ I,  b_0 = 0,  A_t = A_{t-1} + m_t m_t^T,  b_t = b_{t-1} + y_t m_t,  w_t = A_t^{-1} b_t,

so µ enters as ``A_0 = µ I`` (not ``1/µ``): a larger µ regularises more.
OLLGC (Alg. 1) and SSLGC (Alg. 2) do the update only on (queried) mistakes.

The shared core, :class:`RidgeState`, keeps ``A^{-1}`` and ``W = A^{-1} B``
(one column per output) instead of ``A`` and ``B``. With ``u = A^{-1} x`` and
``v = x^T A^{-1} x`` the Sherman–Morrison identity gives, in O(d²),

    (A + x x^T)^{-1} = A^{-1} − u u^T / (1 + v),
    W_new = (A + x x^T)^{-1} (B + x z^T) = W + u (z − W^T x)^T / (1 + v)

for any target ``z`` (a scalar ±1 for OLLGC/SSLGC; a K-vector for the
multiclass learners of yang2016). ``A^{-1}`` is stored in the upper triangle
of a Fortran-ordered array and updated with the BLAS routines ``dsymv``
(``u = A^{-1} x``), ``dsyr`` (rank-one update) and ``daxpy`` (``w += αu``),
in place: several times faster than ``numpy.outer`` at d ≈ 100, where a
round costs microseconds and every temporary array shows. The naive twins in
:mod:`graphsel_lib.online.reference` solve ``A w = b`` from scratch instead.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg.blas import daxpy, dsymv, dsyr

from .._validation import check_positive
from ._params import Params
from .perceptron import row_scores

__all__ = ["RidgeState", "OLLGC", "SSLGC", "RidgeOneVsRest"]


class RidgeState:
    """Online regularised least squares: ``A = reg·I + Σ x xᵀ`` and ``W = A^{-1} Σ x zᵀ``.

    Parameters
    ----------
    d : int
        Input dimension.
    reg : float > 0
        ``A_0 = reg · I`` (gu2013's µ, yang2016's γ).
    n_outputs : int, optional
        None: a single output, ``w`` of shape (d,). K: ``W`` of shape (d, K).
    out : ndarray of shape (d,), optional
        Use this (zeroed) array as ``w`` and update it in place, e.g. a row of
        a (K, d) matrix shared by K learners so that their K scores are one
        matrix-vector product (one-vs-rest).

    Attributes
    ----------
    w : ndarray of shape (d,) or (d, K)
        ``A^{-1} B``, the ridge solution on the examples added so far.
    n_updates : int
        Number of rank-one updates.
    """

    def __init__(self, d, reg, n_outputs=None, *, out=None):
        self.d = int(d)
        self.reg = check_positive(reg, "reg")
        # upper triangle of A^{-1} = I / reg; the strict lower triangle is never read
        self._Ainv = np.asfortranarray(np.eye(self.d) / self.reg)
        if out is None:
            self.w = np.zeros(self.d if n_outputs is None else (self.d, int(n_outputs)))
        else:
            if n_outputs is not None or out.shape != (self.d,):
                raise ValueError(f"out must be a ({self.d},) array for a single output, got {out.shape}")
            if out.dtype != np.float64 or not out.flags.c_contiguous or not out.flags.writeable:
                raise ValueError("out must be a writeable contiguous float64 array (it is updated in place)")
            out[...] = 0.0
            self.w = out
        self.n_updates = 0

    def solve(self, x):
        """``u = A^{-1} x`` (one symmetric matrix-vector product)."""
        return dsymv(1.0, self._Ainv, x)

    def variance(self, x):
        """``(u, v)`` with ``u = A^{-1} x`` and ``v = x^T A^{-1} x`` (current ``x`` NOT in ``A``)."""
        u = dsymv(1.0, self._Ainv, x)
        return u, float(np.dot(x, u))

    def update(self, x, z, u=None, v=None):
        """Add the example ``(x, z)``: ``A ← A + x xᵀ``, ``B ← B + x zᵀ`` (Sherman–Morrison).

        ``u, v`` from :meth:`variance` on the same ``x`` may be passed to save
        the matrix-vector product.
        """
        if u is None:
            u, v = self.variance(x)
        c = 1.0 / (1.0 + v)
        if self.w.ndim == 1:
            daxpy(u, self.w, a=c * (z - float(np.dot(self.w, x))))  # w += c (z - wᵀx) u, in place
        else:
            self.w += np.outer(u, c * (np.asarray(z, dtype=float) - x @ self.w))
        self._Ainv = dsyr(-c, u, a=self._Ainv, overwrite_a=True)  # in place (Fortran order)
        self.n_updates += 1

    def inverse(self):
        """``A^{-1}`` as a full symmetric (d, d) array (a copy)."""
        upper = np.triu(self._Ainv)
        return upper + np.triu(upper, 1).T


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
    """

    multiclass = False

    def __init__(self, mu=1.0):
        self.mu = check_positive(mu, "mu")

    def reset(self, d, n_classes, rng):
        self.state = RidgeState(d, self.mu)

    def predict(self, x):
        s = float(np.dot(self.state.w, x))
        return (1 if s >= 0.0 else -1), {"score": s}

    def wants_label(self, x, t, info):
        return True

    def update(self, x, y, label, info):
        if label != y:  # conservative: A, b, w change only on mistakes
            self.state.update(x, y, info.get("u"), info.get("v"))

    def one_vs_rest(self):
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
    """

    def __init__(self, mu=1.0, kappa=0.4, *, include_current=True):
        super().__init__(mu)
        self.kappa = check_positive(kappa, "kappa", allow_zero=True)
        self.include_current = bool(include_current)

    def query_rule(self, v, t):
        """``(r_t, t^{-κ})`` from ``v_t = m_tᵀ A_{t-1}^{-1} m_t``; query iff ``r_t > t^{-κ}``."""
        return (v / (1.0 + v) if self.include_current else v), t ** (-self.kappa)

    def wants_label(self, x, t, info):
        u, v = self.state.variance(x)
        r, threshold = self.query_rule(v, t)
        info["u"] = u
        info["v"] = v
        info["r"] = r
        info["threshold"] = threshold
        return r > threshold


class RidgeOneVsRest:
    """K class-vs-rest copies of an :class:`OLLGC`/:class:`SSLGC`, run together.

    Equal round by round to ``OneVsRest`` over K separate learners (tested),
    but the K weight vectors are the rows of one (K, d) matrix ``W``, so the K
    scores are one product ``W m_t``; each copy keeps its own ``A_k^{-1}``
    (the K problems share nothing else) and is updated only when it queried
    and erred. Built by :class:`~graphsel_lib.online.OneVsRest`, not directly.
    """

    multiclass = True
    record_keys = ("binary_predictions", "binary_queried")

    def __init__(self, binary):
        self.binary = binary
        self._rule = binary.query_rule if type(binary) is SSLGC else None

    def reset(self, d, n_classes, rng):
        K = int(n_classes)
        self.W = np.zeros((K, d))
        self.states = [RidgeState(d, self.binary.mu, out=self.W[k]) for k in range(K)]
        self._classes = range(K)
        self._all = (True,) * K

    # Per-class bookkeeping uses Python lists: for K ≤ 10 they are cheaper than
    # tiny numpy arrays; the d-dimensional work stays in numpy/BLAS.
    def predict(self, x):
        s = row_scores(self.W, x)
        labels = tuple([1 if v >= 0.0 else -1 for v in s])
        return max(self._classes, key=s.__getitem__), {"score": s, "binary_predictions": labels}

    def wants_label(self, x, t, info):
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

    def update(self, x, y, label, info):
        labels, queried, uv = info["binary_predictions"], info["binary_queried"], info.get("uv")
        for k in self._classes:
            z = 1 if k == y else -1
            if queried[k] and labels[k] != z:
                u, v = (None, None) if uv is None else uv[k]
                self.states[k].update(x, z, u, v)
