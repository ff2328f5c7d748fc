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
``WTA``            weighted tree algorithm: a random spanning tree, its depth-first
                   line, the nearest revealed node (Cesa-Bianchi et al. 2013); committees
``Session``        ask/tell: one round at a time for a human labeller; save/load
``query_probabilities``  a sampler's query probability on nodes not yet seen: the
                   nodes to label next
``learner_description``  canonical JSON-ready description of a learner (cache keys)
=================  =====================================================

Modules by family: ``perceptron`` (GPA, RandomSampling), ``ollgc_sslgc``,
``cmog_msg``, ``bbq_dgs`` (query-rule baselines), ``one_vs_rest``,
``query_wrappers`` (MarginSampling, RandomQueries), ``relaxation`` with its
local ``push``; ``ridge_state`` is the shared second-order core and
``scores`` the shared score helpers. Compiled loops (numba), in which
:func:`run` plays a whole pass with the GIL released: ``stacked_loop``
(one-vs-rest GPA, RandomSampling, OLLGC, SSLGC), ``multiclass_loop`` (CMOG,
MSG, BBQ, BBQ_ε, DGS) and ``relaxation_loop`` (the push and the relaxation
learner's rounds, with or without a query wrapper) and ``wta_loop`` (WTA's
nearest earlier-revealed positions, one backward sweep per tree); the first three on the shared
primitives of ``_kernels`` (fixed-order dot product, symmetric mat-vec,
rank-one downdate, per-round records, the chunked pass driver). The loops
import no learner: a learner reaches its compiled rounds through its own
``compiled_form()``, which imports its loop module lazily and returns a
:class:`~graphsel_lib.online.protocol.CompiledRule`: the loop's ``play``
function and the loop's record of the learner's rule and parameters (a
``StackRule``, ``MulticlassRule`` or ``PushKernel``); the mixin
:class:`~graphsel_lib.online.protocol.CompiledPass` plays it. Naive twins (the pseudo-code, solved from scratch every round)
mirror the learners in :mod:`graphsel_lib.online.reference`.

Adding a learner (say a DGS-like query rule on the shared ridge state):

1. the class, in its family's module (here ``bbq_dgs.py``) or a new one:
   ``reset``, ``predict``, ``wants_label``, ``update`` (a
   :class:`~graphsel_lib.online.ridge_state.SharedRidge` subclass gets
   ``reset``, the state and the compiled plumbing);
2. its naive twin in ``online/reference/`` (the pseudo-code, solved from
   scratch), named in its module's ``__all__`` (``online/reference/__init__.py``
   exports every name of every twin module's ``__all__``);
3. its test, in ``tests/online/test_online_*.py``: the learner equals its twin
   round by round (and, if compiled, the compiled pass its Python rounds);
4. one registration, in this file: export it (its import and its name in
   ``__all__``); a saved session may then name it (``LEARNER_CLASSES`` is
   every exported class with ``reset``, ``predict`` and ``update``).

A DGS-like learner therefore touches three files and this one: its
family's module, the twin's module, its test, and the export here. A plot
style in ``graphsel_lib.collection.plotting.ALGORITHM_STYLES`` is optional
(a learner without one gets a stable colour and marker derived from its name).

Compiled rounds are optional: for a rule the compiled multiclass loop
does not know, also add one jitted round function and its one entry in
``multiclass_loop.RULES`` (its parameters, extra state arrays and records by
name; the loop is built from the entry, and the records are the ``info`` keys
its compiled pass records besides ``score`` and ``v``) and a ``compiled_rule(loop)`` method
to the class (with ``compiled_state`` / ``take_compiled_state`` handing over
the extra state arrays by name if it keeps more than ``A^{-1}`` and ``W``);
a learner without them runs its Python rounds.
"""

from . import reference
from ._params import learner_description
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
from .session_file import LEARNER_CLASSES
from .wta import WTA

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
    "WTA",
    "check_learner",
    "learner_description",
    "node_ids",
    "project_simplex",
    "query_probabilities",
    "reference",
    "run",
]

#: The learners a saved session may name (:mod:`graphsel_lib.online.session_file`): every exported class that
#: plays the learner interface (``reset``, ``predict``, ``update``), so exporting a learner registers it.
LEARNER_CLASSES.update(
    (name, obj)
    for name, obj in ((n, globals()[n]) for n in __all__)
    if isinstance(obj, type) and all(callable(getattr(obj, m, None)) for m in ("reset", "predict", "update"))
)
