"""First-order learners: the graph perceptron (GPA) and its random-query variant.

Herbster & Pontil (NIPS 2006, the slides in ``../shared/papers``) run the
perceptron in the RKHS of the Laplacian kernel ``K = L^+``. With ``L^+ = M^T M``
(``M = diag(σ^{-1/2}) V^T``, see :func:`graphsel_lib.spectral_embedding`) the
kernel perceptron is the ordinary perceptron on the columns ``m_t`` of ``M``::

    w_0 = 0;   ŷ_t = sign(w_{t-1}^T m_t);   on a mistake  w_t = w_{t-1} + y_t m_t,

and its mistake bound is ``|M| ≤ ||g||² max_t K_tt = 4 Φ(y) max_t K_tt``.
Tie rule (all learners of the package): ``sign(0) = +1``.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_probability
from ._params import Params
from .one_vs_rest import StackedOneVsRest, learner_generators
from .protocol import CompiledRule, Info, Seed, learner_rng

__all__ = ["GPA", "GPAOneVsRest", "RandomSampling", "RandomSamplingOneVsRest"]


class GPA(Params):
    """Graph Perceptron Algorithm (Herbster & Pontil 2006; gu2013's baseline).

    Binary labels -1/+1. Queries every label; updates only on mistakes.
    ``info``: ``{"score": w_{t-1}^T m_t}``.

    Examples
    --------
    >>> import numpy as np
    >>> from graphsel_lib.online import GPA, run
    >>> trace = run(GPA(), np.array([[1.0, -1.0, 2.0]]), [1, -1, 1], order=[0, 1, 2])
    >>> trace.predictions.tolist()  # w = 0 twice (score 0 -> +1), then w = +1 after the mistake
    [1, 1, 1]
    >>> trace.mistakes.tolist()
    [False, True, False]
    """

    multiclass = False

    def reset(self, d: int, n_classes: int, rng: np.random.Generator) -> None:
        self.w = np.zeros(d)

    def predict(self, x: np.ndarray) -> tuple[int, Info]:
        s = float(np.dot(self.w, x))
        return (1 if s >= 0.0 else -1), {"score": s}

    def wants_label(self, x: np.ndarray, t: int, info: Info) -> bool:
        return True

    def update(self, x: np.ndarray, y: int, label: int, info: Info) -> None:
        if label != y:
            self.w += y * x

    def one_vs_rest(self) -> StackedOneVsRest | None:
        """K copies of GPA as the rows of one (K, d) matrix (used by :class:`OneVsRest`).

        None for subclasses (e.g. :class:`RandomSampling`): their rules differ.
        """
        return GPAOneVsRest() if type(self) is GPA else None


class GPAOneVsRest(StackedOneVsRest):
    """K class-vs-rest GPAs run together: ``W`` (K, d), scores ``W m_t``.

    Equal round by round to ``OneVsRest`` over K separate :class:`GPA` (tested).
    Built by :class:`~graphsel_lib.online.OneVsRest`, not directly.
    """

    def reset(self, d: int, n_classes: int, rng: np.random.Generator) -> None:
        super().reset(d, n_classes, rng)
        self._rows = list(self.W)  # views: W[k] += ... updates W in place

    def wants_label(self, x: np.ndarray, t: int, info: Info) -> bool:
        info["binary_queried"] = self._all
        return True

    def update(self, x: np.ndarray, y: int, label: int, info: Info) -> None:
        labels, queried = info["binary_predictions"], info["binary_queried"]
        for k in self._classes:
            z = 1 if k == y else -1
            if queried[k] and labels[k] != z:
                self._rows[k] += z * x

    def compiled_form(self) -> CompiledRule | None:
        """The K perceptrons' compiled rule (:mod:`~graphsel_lib.online.stacked_loop`), or None."""
        return self.stack_rule("gpa")


class RandomSampling(GPA):
    """GPA that queries each label independently with probability ``p`` (gu2013 Sec. 6.6).

    Parameters
    ----------
    p : float in [0, 1]
        Query probability; gu2013 sets it to SSLGC's observed query ratio.
    seed : int, optional
        Seed of the query coin. None (default): use the generator that
        :func:`~graphsel_lib.online.run` passes to ``reset``, so different
        ``run`` seeds give different coins.

    One uniform number is drawn per round (``query iff U < p``); updates are
    GPA's (only on queried rounds with a mistake).

    Examples
    --------
    >>> import numpy as np
    >>> from graphsel_lib.online import run
    >>> from graphsel_lib.online import RandomSampling
    >>> M = np.array([[1.0, 0.9, -1.0, -0.8, 0.7, -0.9], [0.1, -0.1, 0.2, 0.0, 0.3, -0.2]])  # (d, n): a column a node
    >>> trace = run(RandomSampling(p=0.5, seed=0), M, [1, 1, -1, -1, 1, -1], order=range(6))
    >>> trace.queried.tolist(), trace.n_mistakes
    ([False, True, True, True, False, False], 1)
    """

    def __init__(self, *, p: float, seed: Seed = None) -> None:
        self.p = check_probability(p, "query probability p")
        self.seed = seed

    def reset(self, d: int, n_classes: int, rng: np.random.Generator) -> None:
        super().reset(d, n_classes, rng)
        self.rng = learner_rng(self.seed, rng)

    def wants_label(self, x: np.ndarray, t: int, info: Info) -> bool:
        return self.rng.random() < self.p

    def one_vs_rest(self) -> StackedOneVsRest | None:
        """K copies as one stacked learner with K coins (used by :class:`OneVsRest`); None for subclasses."""
        return RandomSamplingOneVsRest(self) if type(self) is RandomSampling else None


class RandomSamplingOneVsRest(GPAOneVsRest):
    """K class-vs-rest :class:`RandomSampling` learners run together: ``W`` (K, d), one coin per learner.

    Learner k draws its coin from its own generator, made as
    :class:`~graphsel_lib.online.OneVsRest` makes it for K separate learners
    (the k-th of K seeds drawn from the generator of ``reset``, or the
    learners' common ``seed``), so the two are equal round by round (tested).
    Built by :class:`~graphsel_lib.online.OneVsRest`, not directly.
    """

    def __init__(self, binary: RandomSampling) -> None:
        self.binary = binary

    def reset(self, d: int, n_classes: int, rng: np.random.Generator) -> None:
        super().reset(d, n_classes, rng)
        self.rngs = coin_generators(self.binary, n_classes, rng)

    def wants_label(self, x: np.ndarray, t: int, info: Info) -> bool:
        p = self.binary.p
        info["binary_queried"] = queried = tuple([r.random() < p for r in self.rngs])
        return any(queried)

    def compiled_form(self) -> CompiledRule | None:
        """The K learners' compiled rule (random sampling with probability p), or None."""
        return self.stack_rule("gpa", p=self.binary.p)

    def coin_generators(self, K: int, rng: np.random.Generator) -> list[np.random.Generator] | None:
        return coin_generators(self.binary, K, rng)


def coin_generators(binary: RandomSampling, K: int, rng: np.random.Generator) -> list[np.random.Generator]:
    """The coin generators of K class-vs-rest copies of the :class:`RandomSampling` ``binary``.

    As :class:`~graphsel_lib.online.OneVsRest` seeds K separate learners
    (:func:`~graphsel_lib.online.one_vs_rest.learner_generators`), each then
    replaced by ``binary.seed``'s own generator if one is set.
    """
    return [learner_rng(binary.seed, own) for own in learner_generators(rng, K)]
