"""The shared second-order core: ``A^{-1}`` and ``W = A^{-1} B`` updated by Sherman–Morrison.

Every ridge learner of the package (OLLGC, SSLGC of gu2013; CMOG, MSG and the
BBQ/BBQ_ε/DGS baselines of yang2016) keeps

    A = γI + Σ_{updated s} m_s m_sᵀ,   B = Σ_{updated s} m_s z_sᵀ,   W = A^{-1} B

(γ is gu2013's µ). With ``u = A^{-1} x`` and ``v = x^T A^{-1} x`` the
Sherman–Morrison identity gives, in O(d²),

    (A + x x^T)^{-1} = A^{-1} − u u^T / (1 + v),
    W_new = (A + x x^T)^{-1} (B + x z^T) = W + u (z − W^T x)^T / (1 + v)

for any target ``z`` (a scalar ±1 for OLLGC/SSLGC; a K-vector for the
multiclass learners). ``A^{-1}`` is stored in the upper triangle of a
Fortran-ordered array and updated in place with the BLAS routines ``dsymv``
(``u = A^{-1} x``), ``dsyr`` (rank-one update) and ``daxpy`` (``w += αu``).
The naive twins in :mod:`graphsel_lib.online.reference` solve from scratch.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.linalg.blas import daxpy, dsymv, dsyr

from .._validation import check_positive
from ._params import Params
from .protocol import CompiledPass, CompiledRule

__all__ = ["RidgeState", "SharedRidge", "full_symmetric"]


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

    def __init__(
        self, d: int, reg: float, n_outputs: int | None = None, *, out: np.ndarray | None = None
    ) -> None:
        self._build(d, check_positive(reg, "reg"), n_outputs, out)

    @classmethod
    def checked(
        cls, d: int, reg: float, n_outputs: int | None = None, *, out: np.ndarray | None = None
    ) -> RidgeState:
        """A fresh state for a learner's pass, ``reg`` its hyper-parameter validated when the learner was built."""
        state = cls.__new__(cls)
        state._build(d, float(reg), n_outputs, out)
        return state

    def _build(self, d, reg, n_outputs, out):
        self.d = int(d)
        self.reg = reg
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

    def solve(self, x: np.ndarray) -> np.ndarray:
        """``u = A^{-1} x`` (one symmetric matrix-vector product)."""
        return dsymv(1.0, self._Ainv, x)

    def variance(self, x: np.ndarray) -> tuple[np.ndarray, float]:
        """``(u, v)`` with ``u = A^{-1} x`` and ``v = x^T A^{-1} x`` (current ``x`` NOT in ``A``)."""
        u = dsymv(1.0, self._Ainv, x)
        return u, float(np.dot(x, u))

    def update(self, x: np.ndarray, z: Any, u: np.ndarray | None = None, v: float | None = None) -> None:
        """Add the example ``(x, z)``: ``A ← A + x xᵀ``, ``B ← B + x zᵀ`` (Sherman–Morrison).

        ``u, v`` from :meth:`variance` on the same ``x`` may be passed to save
        the matrix-vector product.
        """
        if u is None or v is None:
            u, v = self.variance(x)
        c = 1.0 / (1.0 + v)
        if self.w.ndim == 1:
            daxpy(u, self.w, a=c * (z - float(np.dot(self.w, x))))  # w += c (z - wᵀx) u, in place
        else:
            self.w += np.outer(u, c * (np.asarray(z, dtype=float) - x @ self.w))
        self._Ainv = dsyr(-c, u, a=self._Ainv, overwrite_a=True)  # in place (Fortran order)
        self.n_updates += 1

    def inverse(self) -> np.ndarray:
        """``A^{-1}`` as a full symmetric (d, d) array (a copy, C order)."""
        return full_symmetric(self._Ainv)


def _multiclass_loop():
    """:mod:`~graphsel_lib.online.multiclass_loop` (numba), or None if numba cannot be imported (a static import: the cache key follows it)."""
    try:
        from . import multiclass_loop
    except ImportError:  # numba missing or broken: the learners run their Python rounds
        return None
    return multiclass_loop


class SharedRidge(CompiledPass, Params):
    """One ``RidgeState`` with K outputs, reset per pass (base of the learners below).

    Compiled form. A learner class that defines its own ``compiled_rule``
    (CMOG, MSG, BBQ, BBQEps, DGS) has its whole pass played by
    :func:`~graphsel_lib.online.multiclass_loop.play_multiclass`
    (:class:`~graphsel_lib.online.protocol.CompiledPass`):
    ``compiled_rule(loop)`` returns the
    :class:`~graphsel_lib.online.multiclass_loop.MulticlassRule` of its rule
    and parameters, built with ``loop.multiclass_rule``. A subclass that does
    not define it again (say, a notebook's variant with another rule) keeps
    the Python rounds. A learner with state beyond ``A^{-1}`` and ``W``
    (BBQ_ε's ``C``, DGS's Σ) extends :meth:`compiled_state` and
    :meth:`take_compiled_state` with those arrays in ``extra``, by the names
    its rule's entry in ``multiclass_loop.RULES`` declares. The ``info`` keys
    the pass records are ``score``, ``v`` and the records that entry declares.
    """

    multiclass = True
    gamma: float  # A_0 = γI, set by each learner's __init__
    _compiled_keys = frozenset({"score", "v"})  # the info keys every rule's compiled pass records

    def _recorded_keys(self, form: CompiledRule) -> frozenset[str]:
        """``score``, ``v`` and the records of the form's rule (its entry in ``multiclass_loop.RULES``)."""
        rule: Any = form.rule  # a multiclass_loop.MulticlassRule
        return self._compiled_keys | frozenset(_multiclass_loop().RULES[rule.name].records)

    def compiled_form(self) -> CompiledRule | None:
        """The compiled rule of exactly this class, or None (another class, numba missing)."""
        compiled_rule: Any = type(self).__dict__.get("compiled_rule")  # this class's own, not inherited
        loop = _multiclass_loop() if compiled_rule is not None else None
        return None if loop is None else CompiledRule(loop.play_multiclass, compiled_rule(self, loop))

    def compiled_state(self) -> Any:
        """The state as a :class:`~graphsel_lib.online.multiclass_loop.MulticlassState` of fresh arrays."""
        st = self.state
        return _multiclass_loop().MulticlassState(
            Ainv=st.inverse(),
            W=np.ascontiguousarray(st.w.T),
            n_updates=np.zeros(1, dtype=np.int64),
            extra={},
        )

    def take_compiled_state(self, compiled: Any) -> None:
        """Set the state from the ``MulticlassState`` a compiled pass updated."""
        st = self.state
        st._Ainv, st.w = np.asfortranarray(compiled.Ainv), np.ascontiguousarray(compiled.W.T)
        st.n_updates += int(compiled.n_updates[0])

    def reset(self, d: int, n_classes: int, rng: np.random.Generator) -> None:
        self.n_classes = int(n_classes)
        self.state = RidgeState.checked(d, self.gamma, n_outputs=self.n_classes)
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


def full_symmetric(upper: np.ndarray) -> np.ndarray:
    """The full symmetric matrix whose upper triangle is ``upper``'s (C order)."""
    U = np.triu(upper)
    return np.ascontiguousarray(U + np.triu(U, 1).T)
