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
``CMOG``           conservative multiclass online learner, yang2016 Alg. 1
``MSG``            aggressive multiclass selective sampler, yang2016 Alg. 2
``BBQ``            multiclass BBQ query rule (Cesa-Bianchi et al. 2009)
``BBQEps``         multiclass BBQ_ε (Orabona & Cesa-Bianchi 2011)
``DGS``            multiclass DGS (Dekel, Gentile & Sridharan 2012)
``RidgeState``     shared second-order core (A^{-1} by Sherman–Morrison)
=================  =====================================================

Naive twins (``np.linalg.solve`` every round) are in
:mod:`graphsel_lib.online.reference` and (multiclass learners)
:mod:`graphsel_lib.online.reference_multiclass`.
"""

from . import reference, reference_multiclass
from .multiclass import OneVsRest
from .multiclass_ridge import BBQ, CMOG, DGS, MSG, BBQEps
from .perceptron import GPA, RandomSampling
from .protocol import Trace, check_learner, run
from .ridge import OLLGC, SSLGC, RidgeState

__all__ = [
    "BBQ",
    "BBQEps",
    "CMOG",
    "DGS",
    "GPA",
    "MSG",
    "OLLGC",
    "OneVsRest",
    "RandomSampling",
    "RidgeState",
    "SSLGC",
    "Trace",
    "check_learner",
    "reference",
    "reference_multiclass",
    "run",
]
