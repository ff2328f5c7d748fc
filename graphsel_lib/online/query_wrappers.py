"""Query rules around any fully supervised multiclass online learner.

Cesa-Bianchi, Gentile & Zaniboni (JMLR 2006, "Worst-case analysis of
selective sampling for linear classification") query the label of round t
with probability ``b / (b + |p_t|)``, ``p_t`` the margin of the prediction:
a confident prediction is rarely queried, a coin-flip one almost always.
For K classes the margin is the gap between the best and the second-best
score, ``Δ_t = f_t(ŷ_t) − f_t(y''_t) ≥ 0`` (the ``Δ_t`` of yang2016 Eq. 10),
so the rule is::

    query round t  with probability  b / (b + Δ_t).

:class:`MarginSampling` adds this rule to a fully supervised multiclass
learner without touching it: ``predict`` and ``update`` are the wrapped
learner's, and a round that is not queried never reaches ``update`` (so the
learner behaves as if that node had not arrived). ``b → ∞`` queries every
round and gives back the wrapped learner; ``b → 0`` queries only the ties
(``Δ_t = 0``).

:class:`RandomQueries` is the control: query each round with a fixed
probability ``p``, whatever the scores.

Used in notebook 35 around :class:`~graphsel_lib.online.Relaxation`, whose
scores are a point of the simplex (so ``Δ_t ∈ [0, 1]``).
"""

from __future__ import annotations

import numpy as np

from .._validation import check_positive, check_probability
from ._params import Params
from .protocol import Info, Learner, Seed, check_learner, learner_rng
from .scores import top_two

__all__ = ["MarginSampling", "RandomQueries"]


class _QueryRule(Params):
    """Wraps a fully supervised multiclass learner: its ``predict`` and ``update``, our ``wants_label``."""

    multiclass = True

    def __init__(self, learner: Learner, seed: Seed) -> None:
        check_learner(learner)
        if not getattr(learner, "multiclass", False):
            raise TypeError(f"{type(self).__name__} needs a multiclass learner, got binary {learner!r}")
        if getattr(learner, "selective", False):
            raise TypeError(
                f"{type(self).__name__} replaces the query step of a fully supervised learner, but {learner!r} is "
                "a selective sampler whose update needs its own query step (its wants_label, which this rule "
                "skips). Wrap a fully supervised learner instead (CMOG, OneVsRest(GPA), OneVsRest(OLLGC), "
                "Relaxation, WTA), or run the selective sampler on its own"
            )
        self.learner, self.seed = learner, seed
        # the learner's own query decisions are not taken under this rule, so they are not recorded
        self.record_keys = tuple(k for k in getattr(learner, "record_keys", ()) if k != "binary_queried")

    def reset(self, d: int, n_classes: int, rng: np.random.Generator) -> None:
        self.learner.reset(d, n_classes, rng)
        self.rng = learner_rng(self.seed, rng)

    def predict(self, x: np.ndarray) -> tuple[int, Info]:
        return self.learner.predict(x)

    def update(self, x: np.ndarray, y: int, label: int, info: Info) -> None:
        self.learner.update(x, y, label, info)

    # the whole pass compiled, when the wrapped learner can play this rule (the relaxation learner's push kernel)
    _rule: str | None = None
    _param: str = ""

    @property
    def pass_releases_gil(self):
        return self._compiled() and bool(getattr(self.learner, "pass_releases_gil", False))

    def _compiled(self):
        return self._rule in getattr(self.learner, "compiled_query_rules", ())

    def compiled_pass(self, X, order, y, keys, progress=None):
        """The wrapped learner's compiled pass with this rule and coin (same draws, same order), or None."""
        if not self._compiled():
            return None
        return self.learner.compiled_pass(
            X, order, y, keys, progress, query=(self._rule, getattr(self, self._param), self.rng)
        )


class MarginSampling(_QueryRule):
    """Query with probability ``b / (b + Δ_t)``, Δ_t the top-two score margin (Cesa-Bianchi et al. 2006).

    Parameters
    ----------
    learner : multiclass online learner
        A fully supervised learner with ``multiclass = True`` whose ``info``
        holds the (K,) ``"score"`` vector; its own ``wants_label`` is never
        called. A selective sampler (``selective = True``: MSG, BBQ, BBQEps,
        DGS, OneVsRest(SSLGC)), whose update needs its own query step, is
        refused with a TypeError.
    b : float > 0
        Query parameter: larger ``b``, more queries.
    seed : int, optional
        Seed of the coin; ``None`` uses the generator :func:`run` passes to ``reset``.

    ``info`` gains ``"margin"`` (Δ_t) and ``"prob"`` (the query probability).

    Examples
    --------
    >>> import numpy as np
    >>> from graphsel_lib.online import run
    >>> from graphsel_lib.online import CMOG, MarginSampling
    >>> M = np.array([[1.0, 0.9, -1.0, -0.8, 0.7, -0.9], [0.1, -0.1, 0.2, 0.0, 0.3, -0.2]])  # (d, n): a column a node
    >>> trace = run(MarginSampling(CMOG(), b=0.1, seed=0), M, [0, 0, 1, 1, 0, 1], order=range(6))
    >>> trace.queried.tolist(), trace.n_mistakes  # asks with probability b / (b + margin)
    ([True, True, True, True, False, False], 1)
    """

    _rule, _param = "margin", "b"

    def __init__(self, learner: Learner, *, b: float, seed: Seed = None) -> None:
        super().__init__(learner, seed)
        self.b = check_positive(b, "b")

    def query_probability(self, x: np.ndarray, t: int, info: Info) -> float:
        """``b / (b + Δ_t)`` for the scores in ``info`` (no coin: the rule's own measure of doubt)."""
        f = info["score"]
        i1, i2 = top_two(f)
        margin = float(f[i1] - f[i2])
        prob = self.b / (self.b + margin)
        info.update(margin=margin, prob=prob)
        return prob

    def wants_label(self, x: np.ndarray, t: int, info: Info) -> bool:
        return self.rng.random() < self.query_probability(x, t, info)


class RandomQueries(_QueryRule):
    """Query each round with probability ``p``, independently of the scores (the control for a query rule).

    Parameters
    ----------
    learner : multiclass online learner
        As for :class:`MarginSampling` (fully supervised).
    p : float in (0, 1]
    seed : int, optional
        As for :class:`MarginSampling`.

    Examples
    --------
    >>> import numpy as np
    >>> from graphsel_lib.online import CMOG, RandomQueries, run
    >>> M = np.array([[1.0, 0.9, -1.0, -0.8, 0.7, -0.9], [0.1, -0.1, 0.2, 0.0, 0.3, -0.2]])
    >>> trace = run(RandomQueries(CMOG(), p=0.5, seed=0), M, [0, 0, 1, 1, 0, 1], order=range(6))
    >>> trace.queried.tolist()
    [False, True, True, True, False, False]
    """

    _rule, _param = "random", "p"

    def __init__(self, learner: Learner, *, p: float, seed: Seed = None) -> None:
        super().__init__(learner, seed)
        self.p = check_probability(p, "p", low_open=True)

    def query_probability(self, x: np.ndarray, t: int, info: Info) -> float:
        """``p``, whatever the scores."""
        return self.p

    def wants_label(self, x: np.ndarray, t: int, info: Info) -> bool:
        return self.rng.random() < self.p
