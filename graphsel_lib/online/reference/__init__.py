"""Naive twins of the online learners: the papers' pseudo-code, literally.

Plain numpy, no incremental inverse: every round solves its linear systems
(``np.linalg.solve``) or recomputes its quantities from their definitions.
They are slow and exist to be compared round by round with the fast learners
(tests, ``benchmarks/``); same interface and tie rules, run by the same
:func:`graphsel_lib.online.run`. One module per family, mirroring
:mod:`graphsel_lib.online`.
"""

from . import bbq_dgs, cmog_msg, ollgc_sslgc, perceptron, relaxation, wta
from .bbq_dgs import *  # noqa: F403 (each twin module's __all__ is what it exports)
from .cmog_msg import *  # noqa: F403
from .ollgc_sslgc import *  # noqa: F403
from .perceptron import *  # noqa: F403
from .relaxation import *  # noqa: F403
from .wta import *  # noqa: F403

#: Every twin module's ``__all__``: a new twin is exported by naming it in its own module.
__all__ = [
    name
    for module in (bbq_dgs, cmog_msg, ollgc_sslgc, perceptron, relaxation, wta)
    for name in module.__all__
]
