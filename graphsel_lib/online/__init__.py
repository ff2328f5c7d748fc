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
``Relaxation``     relaxation learner on K = (L_sym/(2β) + I/(2n))^{-1}, exact or
                   FastONL's push (Rakhlin & Sridharan 2017; Zhou et al. 2023);
                   runs on node-id features ``node_ids(n)``
``MarginSampling`` query with probability b/(b + Δ_t), Δ_t the top-two score
                   margin, around any multiclass learner (Cesa-Bianchi et al. 2006)
``RandomQueries``  query each round with probability p (its control)
``RidgeState``     shared second-order core (A^{-1} by Sherman–Morrison)
``Session``        ask/tell: one round at a time for a human labeller; save/load
``query_probabilities``  a sampler's query probability on nodes not yet seen: the
                   nodes to label next
=================  =====================================================

Modules by family: ``perceptron`` (GPA, RandomSampling), ``ollgc_sslgc``,
``cmog_msg``, ``bbq_dgs`` (query-rule baselines), ``one_vs_rest``,
``query_wrappers`` (MarginSampling, RandomQueries), ``relaxation`` with its
local ``push``; ``ridge_state`` is the shared second-order core and
``scores`` the shared score helpers. Compiled loops (numba), in which
:func:`run` plays a whole pass with the GIL released: ``stacked_loop``
(one-vs-rest GPA, RandomSampling, OLLGC, SSLGC), ``multiclass_loop`` (CMOG,
MSG, BBQ, BBQ_ε, DGS) and ``relaxation_loop`` (the push and the relaxation
learner's rounds, with or without a query wrapper). Naive twins (the
pseudo-code, solved from scratch every round) mirror the learners in
:mod:`graphsel_lib.online.reference`.
"""

from . import reference
from .bbq_dgs import BBQ, DGS, BBQEps
from .cmog_msg import CMOG, MSG
from .ollgc_sslgc import OLLGC, SSLGC
from .one_vs_rest import OneVsRest
from .perceptron import GPA, RandomSampling
from .protocol import Trace, check_learner, run
from .query_wrappers import MarginSampling, RandomQueries
from .ranking import query_probabilities
from .relaxation import Relaxation, node_ids, project_simplex
from .ridge_state import RidgeState
from .session import UNKNOWN, Session

__all__ = [
    "BBQ",
    "BBQEps",
    "CMOG",
    "DGS",
    "GPA",
    "MSG",
    "MarginSampling",
    "OLLGC",
    "OneVsRest",
    "RandomQueries",
    "RandomSampling",
    "Relaxation",
    "RidgeState",
    "SSLGC",
    "Session",
    "UNKNOWN",
    "Trace",
    "check_learner",
    "node_ids",
    "project_simplex",
    "query_probabilities",
    "reference",
    "run",
]
