"""Graphs, input validation, Laplacians and graph quantities.

Notation follows gu2013 Sec. 3 and the Herbster–Pontil slides: ``S`` is the
symmetric non-negative weight matrix of an undirected graph, ``D`` the diagonal
degree matrix and ``L = D - S`` the combinatorial Laplacian, so that

    f^T L f = 1/2 * sum_ij S_ij (f_i - f_j)^2.

Graph quantities of the bounds: :func:`eccentricity` ``ρ_t``, :func:`kernel_diagonal`
``K_tt = (L^+)_tt`` and :func:`effective_resistance` ``r(i, j)``.
"""

from __future__ import annotations

from .._validation import DataWarning
from .checks import (  # noqa: F401
    check_adjacency,
    check_labels,
    without_self_loops,
)
from .components import (  # noqa: F401
    bfs_ball,
    largest_connected_component,
    n_components,
)
from .construction import (  # noqa: F401
    dropped_nodes_message,
    nodes_to_keep,
)
from .core import Graph  # noqa: F401
from .laplacians import (  # noqa: F401
    cut_size,
    cut_sizes_along,
    fiedler_vector,
    laplacian,
    laplacian_pinv,
    normalized_laplacian,
)
from .quantities import (  # noqa: F401
    eccentricity,
    effective_resistance,
    kernel_diagonal,
)
from .random_graphs import (  # noqa: F401
    RANDOM_GRAPH_FAMILIES,
    random_connected_graph,
    random_family_graph,
    with_random_weights,
)

__all__ = [
    "DataWarning",
    "Graph",
    "check_adjacency",
    "without_self_loops",
    "check_labels",
    "largest_connected_component",
    "bfs_ball",
    "n_components",
    "laplacian",
    "normalized_laplacian",
    "laplacian_pinv",
    "cut_size",
    "cut_sizes_along",
    "fiedler_vector",
    "RANDOM_GRAPH_FAMILIES",
    "random_connected_graph",
    "random_family_graph",
    "with_random_weights",
    "eccentricity",
    "kernel_diagonal",
    "effective_resistance",
]
