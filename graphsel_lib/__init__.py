"""graphsel_lib: online learning and selective sampling for node classification on graphs.

The public API::

    import graphsel_lib as gs
    g = gs.load_dataset("cora")
    emb = gs.spectral_embedding(g.adjacency, 100)
"""

from . import bounds, datasets, experiments, online, transductive
from ._validation import DataWarning
from .about import show_versions
from .datasets import list_datasets, load_dataset
from .graph import (
    Graph,
    bfs_ball,
    check_adjacency,
    check_labels,
    cut_size,
    laplacian,
    laplacian_pinv,
    largest_connected_component,
    normalized_laplacian,
)
from .spectral import SpectralEmbedding, add_bias, spectral_embedding

__version__ = "0.1.0"

__all__ = [
    "DataWarning",
    "Graph",
    "SpectralEmbedding",
    "add_bias",
    "bfs_ball",
    "bounds",
    "check_adjacency",
    "check_labels",
    "cut_size",
    "datasets",
    "experiments",
    "largest_connected_component",
    "laplacian",
    "laplacian_pinv",
    "list_datasets",
    "load_dataset",
    "normalized_laplacian",
    "online",
    "show_versions",
    "spectral_embedding",
    "transductive",
]
