"""Datasets: a registry of public graphs with checksummed raw files, and the loader.

=============  ==========================================================
``registry``   every raw file (pinned URL, SHA-256) and dataset entry
``fetch``      local lookup, verified download, the download cache
``parsers``    raw files -> adjacency, labels, names, features
``loader``     :func:`load_dataset`: parse, symmetrise, drop self-loops, LCC
``generators`` :func:`sbm`: large labelled graphs, degree-corrected block model
=============  ==========================================================

Raw files are looked up in ``$GRAPHSEL_DATA``, then ``../shared/data``
beside the project, then the download cache, and must match their SHA-256.
"""

from .fetch import DownloadError, RawFile, sha256_file
from .generators import sbm
from .loader import clear_cache, fetch_dataset, fetch_file, load_dataset
from .registry import RAW_FILES, REGISTRY, DatasetSpec, Expected, dataset_info, list_datasets

__all__ = [
    "RAW_FILES",
    "REGISTRY",
    "DatasetSpec",
    "DownloadError",
    "Expected",
    "RawFile",
    "clear_cache",
    "dataset_info",
    "fetch_dataset",
    "fetch_file",
    "list_datasets",
    "load_dataset",
    "sbm",
    "sha256_file",
]
