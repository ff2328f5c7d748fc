"""One-vs-rest composition of binary online learners (gu2013 Sec. 6.3).

K binary learners see the same stream; learner k solves "class k (+1) vs the
rest (−1)". The multiclass prediction is ``argmax_k score_k`` (ties: smallest
k). Each binary learner queries by its own rule and updates by its own rule; a
node counts as queried (``trace.n_queried``) if any learner queried it, while
``trace.binary_n_queried`` is the mean over the K learners and
``trace.binary_error_rate`` the mean over k of the class-k-vs-rest error
(gu2013 does not say which error Table 2 reports).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from ._params import Params
from .protocol import CompiledRule, Info, Learner, check_learner
from .scores import row_scores

__all__ = ["OneVsRest", "StackedOneVsRest", "learner_generators"]


def learner_generators(rng: np.random.Generator, K: int) -> list[np.random.Generator]:
    """The K generators of K class-vs-rest learners: generator k from the k-th of K seeds drawn from ``rng``.

    :class:`OneVsRest` hands them to K separate learners; a stacked form with
    randomised learners makes the same ones, so the two stay equal round by round.
    """
    seeds = rng.integers(0, 2**63 - 1, size=int(K), dtype=np.int64)
    return [np.random.default_rng(int(s)) for s in seeds]


def _stacked_loop():
    """:mod:`~graphsel_lib.online.stacked_loop` (numba), or None if numba cannot be imported (a static import: the cache key follows it)."""
    try:
        from . import stacked_loop
    except ImportError:  # numba missing or broken: the learners run their Python rounds
        return None
    return stacked_loop


def _same_every_call(factory):
    """True for a factory that builds equal learners on every call: a class, or a partial of one with keyword arguments.

    (The learners' constructors draw nothing: a seed is kept, not used, until ``reset``.)
    """
    if isinstance(factory, functools.partial):
        return isinstance(factory.func, type) and not factory.args
    return isinstance(factory, type)


class StackedOneVsRest:
    """Base of K binary learners of one type run as one: weights ``W`` (K, d), scores ``W m_t``.

    ``predict`` returns ``argmax_k`` of the K scores (ties: smallest k) and
    the K binary predictions (``sign(0) = +1``); subclasses set ``W`` in
    ``reset`` and define ``wants_label`` and ``update``. Per-class bookkeeping
    uses Python lists: for K ≤ 10 they are cheaper than tiny numpy arrays;
    the d-dimensional work stays in numpy/BLAS.
    """

    multiclass = True
    record_keys = ("binary_predictions", "binary_queried")

    def reset(self, d: int, n_classes: int, rng: np.random.Generator) -> None:
        K = int(n_classes)
        self.W = np.zeros((K, d))
        self._classes = range(K)
        self._all = (True,) * K

    def predict(self, x: np.ndarray) -> tuple[int, Info]:
        s = row_scores(self.W, x)
        labels = tuple([1 if v >= 0.0 else -1 for v in s])
        return max(self._classes, key=s.__getitem__), {"score": s, "binary_predictions": labels}

    def compiled_form(self) -> CompiledRule | None:
        """The :class:`~graphsel_lib.online.protocol.CompiledRule` of these K learners, or None (here: None).

        A stacked form with compiled rounds returns the ``StackRule`` of its
        rules and parameters (:meth:`stack_rule`).
        """
        return None

    def coin_generators(self, K: int, rng: np.random.Generator) -> list[np.random.Generator] | None:
        """Random sampling's K coin generators, or None (every label told, or a rule that draws none)."""
        return None

    @staticmethod
    def stack_rule(rule: str, **params: Any) -> CompiledRule | None:
        """``CompiledRule(play_stacked, stack_rule(rule, **params))`` of :mod:`~graphsel_lib.online.stacked_loop`.

        ``rule`` is ``"gpa"`` (``w_k += z_k x``) or ``"ridge"`` (Sherman–Morrison);
        None if numba cannot be imported.
        """
        loop = _stacked_loop()
        return None if loop is None else CompiledRule(loop.play_stacked, loop.stack_rule(rule, **params))

    def compiled_twin(self) -> Learner | None:
        """The same K learners compiled (a ``stacked_loop.CompiledStack`` of :meth:`compiled_form`), or None."""
        form = self.compiled_form()
        if form is None:
            return None
        return _stacked_loop().CompiledStack(form.rule, self.coin_generators)


class OneVsRest(Params):
    """K independent binary learners, one per class, on one stream.

    Parameters
    ----------
    make_binary_learner : callable
        ``make_binary_learner()`` returns a fresh binary learner (e.g.
        ``lambda: OLLGC(mu=0.1)`` or the class ``GPA``). Called K times at
        each ``reset``.

    stacked : bool, default True
        If the K learners are identical (same type and ``repr``) and
        ``one_vs_rest()`` returns a stacked form (GPA, RandomSampling, OLLGC,
        SSLGC; not their subclasses), run that, which computes the K scores
        as one product ``W m_t`` and is equal round by round to K separate
        learners (tested). False always runs K separate learners.
    compiled : bool, default True
        When stacked, use the stacked form's compiled version
        (:mod:`~graphsel_lib.online.stacked_loop`, numba), which
        :func:`~graphsel_lib.online.run` plays without a Python loop: the
        same predictions, queries and mistakes round by round as
        ``compiled=False`` (tested), scores equal but for the last bits.
        Without numba the stacked form runs as with ``compiled=False``.

    Attributes
    ----------
    learners : list of K binary learners, or None
        After ``reset``, the K separate learners (None when stacked).
    stack : learner or None
        After ``reset``, the stacked learner, or None. Its ``W`` (K, d) holds
        the K weight vectors as rows; compiled (a ``CompiledStack`` of
        :mod:`~graphsel_lib.online.stacked_loop`), ``Ainv[k]`` is class k's ``A_k^{-1}``; not compiled
        (``RidgeOneVsRest``), ``states[k]`` is class k's :class:`RidgeState`.

    Notes
    -----
    Learner k receives its own generator at ``reset`` (the k-th of K
    generators drawn from the one :func:`~graphsel_lib.online.run` passes).
    ``info`` holds ``score`` (K floats), ``binary_predictions`` (K-tuple of
    ±1), ``binary_queried`` (K-tuple of bool) and, for separate learners,
    ``infos``, their K ``info`` dicts (a stacked SSLGC gives ``r``, the K
    values of ``r_t``, instead). Plain Python containers: cheaper than tiny
    arrays at K ≤ 10.

    Examples
    --------
    >>> import numpy as np
    >>> from graphsel_lib.online import run
    >>> from functools import partial
    >>> from graphsel_lib.online import OLLGC, OneVsRest
    >>> M = np.array([[1.0, 0.9, -1.0, -0.8, 0.7, -0.9], [0.1, -0.1, 0.2, 0.0, 0.3, -0.2]])  # (d, n): a column a node
    >>> trace = run(OneVsRest(partial(OLLGC, mu=1.0)), M, [0, 0, 1, 1, 0, 1], order=range(6))
    >>> trace.predictions.tolist(), trace.n_mistakes  # one OLLGC per class, argmax of the K scores
    ([0, 0, 1, 1, 0, 1], 0)
    """

    multiclass = True
    record_keys = ("binary_predictions", "binary_queried")
    _factory_examples = {"make_binary_learner": "_sample"}  # repr and cache keys show the learner it builds

    def __init__(
        self, make_binary_learner: Callable[[], Learner], *, stacked: bool = True, compiled: bool = True
    ) -> None:
        if not callable(make_binary_learner):
            raise TypeError("make_binary_learner must be callable (e.g. a class or a lambda)")
        sample = check_learner(make_binary_learner())
        if sample.multiclass:
            raise TypeError(f"OneVsRest needs binary learners, {sample!r} is multiclass")
        self.make_binary_learner = make_binary_learner
        self.stacked = bool(stacked)
        self.compiled = bool(compiled)
        self._sample = sample

    @property
    def selective(self) -> bool:
        """True if the binary learners are selective samplers (SSLGC): no query rule can wrap them."""
        return bool(getattr(self._sample, "selective", False))

    def reset(self, d: int, n_classes: int, rng: np.random.Generator) -> None:
        K = int(n_classes)
        self.n_classes = K
        # a class or a partial of one builds K equal learners: the one built (and validated) in __init__
        # stands for them; another factory is called K times and its learners compared
        same = _same_every_call(self.make_binary_learner)
        learners = None if self.stacked and same else [self._build() for _ in range(K)]
        first: Any = self._sample if learners is None else learners[0]
        stack = None
        if (
            self.stacked
            and callable(getattr(first, "one_vs_rest", None))
            and (learners is None or all(type(b) is type(first) and repr(b) == repr(first) for b in learners))
        ):
            stack = first.one_vs_rest()  # None if the learner has no stacked form
        if stack is not None and self.compiled:
            stack = stack.compiled_twin() or stack  # None: no compiled twin, or numba cannot be imported
        if stack is not None:
            # K identical deterministic learners: run them as one stacked learner
            self.learners, self.stack = None, stack
            self.stack.reset(d, K, rng)
            self._predict, self._wants_label, self._update = (
                self.stack.predict,
                self.stack.wants_label,
                self.stack.update,
            )
            return
        learners = [self._build() for _ in range(K)] if learners is None else learners
        self.learners, self.stack = learners, None
        for learner, own in zip(learners, learner_generators(rng, K), strict=True):
            learner.reset(d, 2, own)
        # bound methods, looked up once (the generic methods run K times per round)
        self._predicts = [learner.predict for learner in learners]
        self._wants = [learner.wants_label for learner in learners]
        self._updates = [learner.update for learner in learners]
        self._classes = range(K)
        self._predict, self._wants_label, self._update = (
            self._generic_predict,
            self._generic_wants_label,
            self._generic_update,
        )

    def _build(self):
        return check_learner(self.make_binary_learner())

    def predict(self, x: np.ndarray) -> tuple[int, Info]:
        return self._predict(x)

    def wants_label(self, x: np.ndarray, t: int, info: Info) -> bool:
        return self._wants_label(x, t, info)

    def update(self, x: np.ndarray, y: int, label: int, info: Info) -> None:
        self._update(x, y, label, info)

    @property
    def pass_releases_gil(self) -> bool:
        """True after ``reset`` if the pass runs in compiled code without the GIL (threads can share a process)."""
        return bool(getattr(getattr(self, "stack", None), "pass_releases_gil", False))

    def compiled_pass(
        self,
        X: np.ndarray,
        order: np.ndarray,
        y: np.ndarray,
        keys: tuple[str, ...],
        progress: Callable[[int], object] | None = None,
    ) -> tuple | None:
        """The whole pass in the compiled stacked learner's loop (see :mod:`~graphsel_lib.online.protocol`), or None."""
        play = getattr(self.stack, "compiled_pass", None)
        return None if play is None else play(X, order, y, keys, progress)

    # --- K separate learners -------------------------------------------------
    def _generic_predict(self, x):
        outs = [predict(x) for predict in self._predicts]
        labels = tuple([label for label, _ in outs])
        infos = [info for _, info in outs]
        scores = [info["score"] for info in infos]
        label = max(self._classes, key=scores.__getitem__)  # first maximum, as numpy.argmax
        return label, {"score": scores, "binary_predictions": labels, "infos": infos}

    def _generic_wants_label(self, x, t, info):
        queried = tuple([wants(x, t, inf) for wants, inf in zip(self._wants, info["infos"], strict=True)])
        info["binary_queried"] = queried
        return any(queried)

    def _generic_update(self, x, y, label, info):
        infos, labels = info["infos"], info["binary_predictions"]
        queried = info.get("binary_queried") or (True,) * len(infos)  # under a query rule: every class learns
        for k in self._classes:
            if queried[k]:
                self._updates[k](x, 1 if y == k else -1, labels[k], infos[k])
