"""Pool-based active learning on graphs: a strategy chooses the nodes to label, the harmonic function predicts.

Separate from the online stream of :mod:`graphsel_lib.online`: here every
node is available at every step and the strategy picks which label to buy.

=================  =====================================================
``run_pool``       the protocol: ``budget`` queries, the error of harmonic + CMN
                   on the unlabelled nodes after each (:class:`PoolTrace`)
``RandomPool``     uniform over the unlabelled nodes
``EER``            expected error reduction on the harmonic function by
                   rank-one updates (Zhu, Lafferty & Ghahramani 2003)
``S2``             S², bisect the shortest shortest path between different
                   labels (Dasarathy, Nowak & Zhu, COLT 2015)
=================  =====================================================

Naive twins (every candidate solved from scratch) live in
:mod:`graphsel_lib.active.reference`.
"""

from . import reference
from .protocol import PoolState, PoolTrace, check_strategy, run_pool
from .strategies import EER, S2, RandomPool

__all__ = ["EER", "PoolState", "PoolTrace", "RandomPool", "S2", "check_strategy", "reference", "run_pool"]
