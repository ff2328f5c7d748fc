"""Online learning and selective sampling on graphs (gu2013, yang2016, herbster2006).

One protocol, :func:`run`, drives every learner through the small interface
documented in :mod:`graphsel_lib.online.protocol`; a pass returns a
:class:`Trace`. Learners take the columns ``m_t`` of a feature matrix ``M``
(e.g. ``graphsel_lib.spectral_embedding(S, d).M``, optionally with
``graphsel_lib.add_bias``); this package only needs arrays.

=================  =====================================================
``GPA``            graph perceptron (Herbster & Pontil 2006)
``RandomSampling`` GPA querying each label with probability p (gu2013 6.6)
``OLLGC``          online LLGC, gu2013 Alg. 1
``SSLGC``          selective sampling with LLGC, gu2013 Alg. 2
``OneVsRest``      K binary learners, class k vs rest
``RidgeState``     shared second-order core (A^{-1} by Sherman–Morrison)
=================  =====================================================

Naive twins (``np.linalg.solve`` every round) are in
:mod:`graphsel_lib.online.reference`.
"""

from . import reference
from .multiclass import OneVsRest
from .perceptron import GPA, RandomSampling
from .protocol import Trace, check_learner, run
from .ridge import OLLGC, SSLGC, RidgeState

__all__ = [
    "GPA",
    "OLLGC",
    "OneVsRest",
    "RandomSampling",
    "RidgeState",
    "SSLGC",
    "Trace",
    "check_learner",
    "reference",
    "run",
]
