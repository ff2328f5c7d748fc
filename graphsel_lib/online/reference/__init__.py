"""Naive twins of the online learners: the papers' pseudo-code, literally.

Plain numpy, no incremental inverse: every round solves its linear systems
(``np.linalg.solve``) or recomputes its quantities from their definitions.
They are slow and exist to be compared round by round with the fast learners
(tests, ``benchmarks/``); same interface and tie rules, run by the same
:func:`graphsel_lib.online.run`. One module per family, mirroring
:mod:`graphsel_lib.online`.
"""

from .bbq_dgs import ReferenceBBQ, ReferenceBBQEps, ReferenceDGS
from .cmog_msg import ReferenceCMOG, ReferenceMSG
from .ollgc_sslgc import ReferenceOLLGC, ReferenceSSLGC
from .perceptron import ReferenceGPA, ReferenceRandomSampling
from .relaxation import ReferenceRelaxation, reference_multiclass_hinge, reference_project_simplex
from .wta import ReferenceWTA

__all__ = [
    "ReferenceBBQ",
    "ReferenceBBQEps",
    "ReferenceCMOG",
    "ReferenceDGS",
    "ReferenceGPA",
    "ReferenceMSG",
    "ReferenceOLLGC",
    "ReferenceRandomSampling",
    "ReferenceRelaxation",
    "ReferenceSSLGC",
    "ReferenceWTA",
    "reference_multiclass_hinge",
    "reference_project_simplex",
]
