"""graphsel_lib: online learning and selective sampling for node classification on graphs.

The public API::

    import graphsel_lib as gs
    g = gs.load_dataset("cora")
    emb = gs.spectral_embedding(g.adjacency, 100)
"""

import importlib

from . import active, course, datasets, online, theory, transductive
from ._validation import DataWarning
from .about import distribution_version as _distribution_version
from .about import show_versions
from .collection import explore
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
from .knn import knn_adjacency
from .spectral import SpectralEmbedding, SplitEigenvalueWarning, add_bias, spectral_embedding

__version__ = _distribution_version()


def __getattr__(name):
    """``gs.experiments`` is imported on first use: it needs pandas and joblib, the core does not.

    ``gs.bounds`` (deprecated: its contents moved to ``graph``, ``theory`` and ``course``) too.
    """
    if name in ("experiments", "bounds"):
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "DataWarning",
    "active",
    "Graph",
    "SpectralEmbedding",
    "add_bias",
    "bfs_ball",
    "course",
    "knn_adjacency",
    "check_adjacency",
    "check_labels",
    "cut_size",
    "datasets",
    "experiments",
    "explore",
    "largest_connected_component",
    "laplacian",
    "laplacian_pinv",
    "list_datasets",
    "load_dataset",
    "normalized_laplacian",
    "online",
    "show_versions",
    "spectral_embedding",
    "theory",
    "SplitEigenvalueWarning",
    "transductive",
]
